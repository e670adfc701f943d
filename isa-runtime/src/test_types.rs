//! Hand-built tables for unit tests: operand types with the layouts of AMD's (waitcnt,
//! hwreg, depctr, delay, version), and macros for small specs (fields, instructions, forms,
//! the `IsaSpec` itself), shared by the disassembler's and the assembler's tests.

use crate::tables::{FieldInfo, OperandTypeInfo, RangeInfo};
use crate::{DecodeError, DecodeErrorKind, Instruction};

/// A one-range field at `offset`, `count` bits wide.
macro_rules! test_field {
    ($name:literal, $offset:literal, $count:literal) => {
        $crate::tables::FieldInfo {
            name: $name,
            ranges: &[$crate::tables::RangeInfo {
                offset: $offset,
                count: $count,
                pad_bits: 0,
                pad_value: 0,
            }],
            conditional: false,
        }
    };
}

/// An instruction with its forms.
macro_rules! test_instruction {
    ($name:literal, $mnemonic:literal, $forms:expr) => {
        $crate::tables::InstructionInfo {
            name: $name,
            mnemonic: $mnemonic,
            aliases: &[],
            flags: 0,
            forms: $forms,
        }
    };
}

/// A form of `instruction` in `encoding` (opcode 0, condition `default`).
macro_rules! test_form {
    ($instruction:literal, $encoding:literal, $operands:expr) => {
        $crate::tables::FormInfo {
            instruction: $instruction,
            encoding: $encoding,
            opcode: 0,
            condition: "default",
            operands: $operands,
            hints: &[],
        }
    };
}

/// A spec of the tables given, for a generation and LLVM processor; it cannot decode.
macro_rules! test_spec {
    ($generation:literal, $mcpu:literal, $wave64:expr, $encodings:expr, $instructions:expr, $forms:expr, $types:expr) => {
        $crate::tables::IsaSpec {
            generation: $generation,
            architecture_name: "test",
            release_date: "",
            schema_version: "",
            source_file: "",
            llvm_mcpu: $mcpu,
            wave64: $wave64,
            traits: match $crate::tables::Traits::of($generation) {
                Some(t) => t,
                None => $crate::tables::Traits::UNKNOWN,
            },
            encodings: $encodings,
            instructions: $instructions,
            forms: $forms,
            operand_types: $types,
            dual_halves: &[],
            decode_form: $crate::test_types::no_decoder,
            decode: $crate::test_types::no_decode,
            skipped: &[],
        }
    };
}

/// The project's fixture spec of `generation` (built with the `fixtures` feature).
#[cfg(feature = "fixtures")]
pub fn fixture_spec(generation: &str) -> &'static crate::IsaSpec {
    crate::fixtures::specs()
        .into_iter()
        .find(|s| s.generation == generation)
        .expect("fixture spec")
}

/// The instruction of form (`name`, `encoding`, first condition starting with `condition`)
/// with the form's condition values and the given field values.
#[cfg(feature = "fixtures")]
pub fn instance(
    spec: &'static crate::IsaSpec,
    name: &str,
    encoding: &str,
    condition: &str,
    fields: &[(&str, u64)],
) -> Instruction {
    let form = (0..spec.forms.len() as u16)
        .find(|&f| {
            let fi = &spec.forms[f as usize];
            spec.instructions[fi.instruction as usize].name == name
                && spec.encodings[fi.encoding as usize].name == encoding
                && fi.condition.starts_with(condition)
        })
        .unwrap_or_else(|| panic!("{name} in {encoding} ({condition})"));
    let mut ins = Instruction::new(spec, form);
    for &(h, v) in spec.forms[form as usize].hints {
        assert!(ins.set_field(h as usize, v as u64));
    }
    for (field, value) in fields {
        let k = ins
            .encoding()
            .fields
            .iter()
            .position(|f| f.name == *field)
            .expect(field);
        assert!(ins.set_field(k, *value), "{field} = {value}");
    }
    ins
}

/// The selector of a spec built by hand: it recognises nothing.
pub fn no_decoder(_: &[u8]) -> Result<(u16, u128, usize), DecodeErrorKind> {
    Err(DecodeErrorKind::UnknownEncoding { word: 0 })
}

/// The decoder of a spec built by hand: such tests build instructions, they do not decode.
pub fn no_decode(_: &[u8]) -> Result<(Instruction, usize), DecodeError> {
    unreachable!("these tests build instructions, they do not decode")
}

pub const fn range(offset: u8, count: u8) -> RangeInfo {
    RangeInfo {
        offset,
        count,
        pad_bits: 0,
        pad_value: 0,
    }
}

pub const fn field(name: &'static str, ranges: &'static [RangeInfo]) -> FieldInfo {
    FieldInfo {
        name,
        ranges,
        conditional: false,
    }
}

pub const fn ty(name: &'static str, fields: &'static [FieldInfo]) -> OperandTypeInfo {
    OperandTypeInfo {
        name,
        runs: &[],
        values: &[],
        fields,
        subtypes: &[],
    }
}

pub static WAITCNT_GFX9: OperandTypeInfo = ty(
    "OPR_WAITCNT",
    &[
        field("EXP", &[range(4, 3)]),
        field("LGKM", &[range(8, 4)]),
        field("VM", &[range(0, 4), range(14, 2)]),
    ],
);
pub static WAITCNT_GFX11: OperandTypeInfo = ty(
    "OPR_WAITCNT",
    &[
        field("EXP", &[range(0, 3)]),
        field("LGKM", &[range(4, 6)]),
        field("VM", &[range(10, 6)]),
    ],
);
pub static HWREG: OperandTypeInfo = ty(
    "OPR_HWREG",
    &[
        field("ID", &[range(0, 6)]),
        field("OFFSET", &[range(6, 5)]),
        field("SIZE", &[range(11, 5)]),
    ],
);
pub static DEPCTR_GFX10_1: OperandTypeInfo = ty(
    "OPR_WAITCNT_DEPCTR",
    &[
        field("SA_SDST", &[range(0, 1)]),
        field("VA_SDST", &[range(9, 3)]),
        field("VA_SSRC", &[range(8, 1)]),
        field("VA_VCC", &[range(1, 1)]),
        field("VA_VDST", &[range(12, 4)]),
        field("VM_VSRC", &[range(2, 3)]),
    ],
);
pub static DEPCTR_GFX11: OperandTypeInfo = ty(
    "OPR_WAITCNT_DEPCTR",
    &[
        field("HOLD_CNT", &[range(7, 1)]),
        field("SA_SDST", &[range(0, 1)]),
        field("VA_SDST", &[range(9, 3)]),
        field("VA_SSRC", &[range(8, 1)]),
        field("VA_VCC", &[range(1, 1)]),
        field("VA_VDST", &[range(12, 4)]),
        field("VM_VSRC", &[range(2, 3)]),
    ],
);
pub static DELAY: OperandTypeInfo = ty(
    "OPR_DELAY",
    &[
        field("INSTID0", &[range(0, 4)]),
        field("INSTID1", &[range(7, 4)]),
        field("INSTSKIP", &[range(4, 3)]),
    ],
);
pub static VERSION: OperandTypeInfo = ty(
    "OPR_VERSION",
    &[
        field("MDP", &[range(15, 1)]),
        field("VERSION", &[range(0, 8)]),
        field("W32", &[range(14, 1)]),
        field("W64", &[range(13, 1)]),
    ],
);
