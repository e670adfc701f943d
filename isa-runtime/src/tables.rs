//! The shapes of the generated per-generation tables. `isa-gen` emits one `IsaSpec` per
//! generation (see `OUT_DIR/<gen>.rs`); everything in this crate works from these tables.

// The vocabulary the generator decides and the runtime reads (see the `isa-vocab` crate).
pub use isa_vocab::{Family, Traits, Variant};

/// A generation's generated encoding selector: the form, bits and length in bytes of the
/// instruction at the start of the bytes.
pub type DecodeFormFn = fn(&[u8]) -> Result<(u16, u128, usize), crate::DecodeErrorKind>;

/// A generation's `decode` (see [`crate::decode`]).
pub type DecodeFn = fn(&[u8]) -> Result<(crate::Instruction, usize), crate::DecodeError>;

/// How a generation's selector reads a word by the top bits of its first dword (one row per
/// key value in the generated `KEY_ROWS`): the fixed bits the encoding requires, where its
/// opcode is and where the opcode's row of `OPCODE_GROUP` starts, for `general_arm` = 0; else
/// which generated arm reads the word (several encodings to try in order).
#[derive(Clone, Copy, Debug)]
pub struct DecodeKeyRow {
    pub mask: u32,
    pub value: u32,
    pub op_shift: u32,
    pub op_mask: u32,
    pub base: u32,
    /// The encoding named by `NoMatchingForm` when the fixed bits match.
    pub encoding: u16,
    pub general_arm: u8,
}

/// One generation's ISA, as generated from AMD's spec.
#[derive(Debug)]
pub struct IsaSpec {
    /// Short name: `rdna3`, `cdna3`, ...
    pub generation: &'static str,
    pub architecture_name: &'static str,
    pub release_date: &'static str,
    pub schema_version: &'static str,
    /// The spec file it was generated from (file name only).
    pub source_file: &'static str,
    /// LLVM's processor name for this generation (`gfx1100`).
    pub llvm_mcpu: &'static str,
    /// Waves are 64 lanes by default (CDNA) or 32 (RDNA).
    pub wave64: bool,
    /// What code decides by generation (GFX level, True16), emitted by the generator.
    pub traits: Traits,
    pub encodings: &'static [EncodingInfo],
    pub instructions: &'static [InstructionInfo],
    pub forms: &'static [FormInfo],
    pub operand_types: &'static [OperandTypeInfo],
    /// The halves of dual-issue words (VOPD), which are not forms: a word pairs two of them
    /// (see [`crate::dual`]).
    pub dual_halves: &'static [DualHalfInfo],
    /// Generated encoding selection: see [`crate::decode`].
    pub decode_form: DecodeFormFn,
    /// The generation module's `decode`, with `decode_form` inlined into it: what
    /// [`crate::decode`] calls, one indirect call per instruction.
    pub decode: DecodeFn,
    /// Instructions or forms the generator left out, with the reason.
    pub skipped: &'static [(&'static str, &'static str)],
}

/// A microcode format.
#[derive(Debug)]
pub struct EncodingInfo {
    pub name: &'static str,
    pub order: i32,
    pub bits: u32,
    /// Identifier mask and the bits every identifier shares outside the opcode field.
    pub mask: u128,
    pub fixed: u128,
    pub fields: &'static [FieldInfo],
    pub op_field: Option<u8>,
    /// The family and variant the generator decided from AMD's name (the printers,
    /// assembler and executors read these, never the name).
    pub family: Family,
    pub variant: Variant,
}

#[derive(Debug)]
pub struct FieldInfo {
    pub name: &'static str,
    pub ranges: &'static [RangeInfo],
    pub conditional: bool,
}

/// One stored range of a field; ranges are listed least significant first. Padding bits are
/// implied low bits of the range's part of the value.
#[derive(Debug, Clone, Copy)]
pub struct RangeInfo {
    pub offset: u8,
    pub count: u8,
    pub pad_bits: u8,
    pub pad_value: u8,
}

impl FieldInfo {
    /// The microcode bits the field occupies.
    pub fn mask(&self) -> u128 {
        self.ranges
            .iter()
            .fold(0, |m, r| m | (low_mask(r.count as u32) << r.offset))
    }

    pub fn width(&self) -> u32 {
        self.ranges
            .iter()
            .map(|r| (r.count + r.pad_bits) as u32)
            .sum()
    }

    pub fn extract(&self, bits: u128) -> u64 {
        let mut v = 0u128;
        let mut shift = 0u32;
        for r in self.ranges {
            let mut part = (bits >> r.offset) & low_mask(r.count as u32);
            if r.pad_bits > 0 {
                part = (part << r.pad_bits) | r.pad_value as u128;
            }
            v |= part << shift;
            shift += (r.count + r.pad_bits) as u32;
        }
        v as u64
    }

    /// Stores `value` (the inverse of [`FieldInfo::extract`]; implied padding bits are dropped).
    pub fn insert(&self, bits: u128, value: u64) -> u128 {
        let mut bits = bits & !self.mask();
        let mut shift = 0u32;
        for r in self.ranges {
            let part = ((value as u128) >> (shift + r.pad_bits as u32)) & low_mask(r.count as u32);
            bits |= part << r.offset;
            shift += (r.count + r.pad_bits) as u32;
        }
        bits
    }

    /// Whether `value` can be stored exactly (fits, and padding bits match).
    pub fn can_hold(&self, value: u64) -> bool {
        self.extract(self.insert(0, value)) == value
    }
}

pub const fn low_mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// Instruction flags from the spec.
pub mod flags {
    pub const BRANCH: u8 = 1;
    pub const CONDITIONAL_BRANCH: u8 = 2;
    pub const INDIRECT_BRANCH: u8 = 4;
    pub const PROGRAM_TERMINATOR: u8 = 8;
    pub const IMMEDIATELY_EXECUTED: u8 = 16;
}

#[derive(Debug)]
pub struct InstructionInfo {
    /// AMD's name (`S_WQM_B64`).
    pub name: &'static str,
    /// LLVM's mnemonic (`s_wqm_b64`).
    pub mnemonic: &'static str,
    pub aliases: &'static [&'static str],
    pub flags: u8,
    /// Indices into [`IsaSpec::forms`].
    pub forms: &'static [u16],
}

/// An instruction in one encoding under one condition: the unit of decoding and encoding.
#[derive(Debug)]
pub struct FormInfo {
    pub instruction: u16,
    pub encoding: u16,
    pub opcode: u32,
    pub condition: &'static str,
    pub operands: &'static [OperandInfo],
    /// Field values the form's condition asks for (`field == value` in AMD's condition tree),
    /// as (field index, value): what a test generator needs to build an instance.
    pub hints: &'static [(u8, i64)],
}

/// One instruction as one half of a dual-issue word: its opcode goes in `opcode_field`
/// (`OPX` or `OPY` of `encoding`), its operands name that half's fields.
#[derive(Debug)]
pub struct DualHalfInfo {
    pub instruction: u16,
    pub encoding: u16,
    /// The half's suffix: `X` or `Y`.
    pub half: &'static str,
    pub opcode_field: u8,
    pub opcode: u32,
    pub operands: &'static [OperandInfo],
}

#[derive(Debug)]
pub struct OperandInfo {
    /// Index into the encoding's fields; `None` for implicit operands.
    pub field: Option<u8>,
    pub operand_type: Option<u16>,
    pub data_format: &'static str,
    pub size: u16,
    pub input: bool,
    pub output: bool,
    pub implicit: bool,
    pub binary_required: bool,
}

/// An operand type: its named values, with regular register runs (`s0`..`s105` at values
/// 0..105) stored as runs.
#[derive(Debug)]
pub struct OperandTypeInfo {
    pub name: &'static str,
    /// Runs, sorted by first value.
    pub runs: &'static [ValueRun],
    /// Other named values, sorted by value.
    pub values: &'static [(i64, &'static str)],
    pub fields: &'static [FieldInfo],
    pub subtypes: &'static [u16],
}

/// `prefix{first_index + k}` names value `first_value + k` for `k` in `0..count`.
#[derive(Debug, Clone, Copy)]
pub struct ValueRun {
    pub prefix: &'static str,
    pub first_value: i64,
    pub first_index: u32,
    pub count: u32,
}

/// A value's name in an operand type: a register of a run, or a named value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueName {
    Register { prefix: &'static str, index: u32 },
    Named(&'static str),
}

impl OperandTypeInfo {
    pub fn name_of(&self, value: i64) -> Option<ValueName> {
        let i = self.runs.partition_point(|r| r.first_value <= value);
        if i > 0 {
            let r = &self.runs[i - 1];
            if value < r.first_value + r.count as i64 {
                return Some(ValueName::Register {
                    prefix: r.prefix,
                    index: r.first_index + (value - r.first_value) as u32,
                });
            }
        }
        self.values
            .binary_search_by_key(&value, |v| v.0)
            .ok()
            .map(|k| ValueName::Named(self.values[k].1))
    }

    /// The value of register `index` of the run with `prefix` (`s`, `v`, `acc`, `TTMP`).
    pub fn register_value(&self, prefix: &str, index: u32) -> Option<i64> {
        self.runs.iter().find_map(|r| {
            (r.prefix.eq_ignore_ascii_case(prefix)
                && index >= r.first_index
                && index < r.first_index + r.count)
                .then(|| r.first_value + (index - r.first_index) as i64)
        })
    }

    /// The value of a named value (case-insensitive).
    pub fn named_value(&self, name: &str) -> Option<i64> {
        self.values
            .iter()
            .find(|v| v.1.eq_ignore_ascii_case(name))
            .map(|v| v.0)
    }
}

impl IsaSpec {
    pub fn instruction_by_name(&self, name: &str) -> Option<usize> {
        self.instructions.iter().position(|i| {
            i.mnemonic.eq_ignore_ascii_case(name)
                || i.name.eq_ignore_ascii_case(name)
                || i.aliases.iter().any(|a| a.eq_ignore_ascii_case(name))
        })
    }

    pub fn encoding_of(&self, form: u16) -> &EncodingInfo {
        &self.encodings[self.forms[form as usize].encoding as usize]
    }
}
