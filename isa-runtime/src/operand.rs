//! Typed operands: a decoded instruction's fields read through the operand types of its form.

use crate::decode::Instruction;
use crate::tables::{IsaSpec, OperandInfo, OperandTypeInfo, ValueName};

/// Register files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegFile {
    Sgpr,
    Vgpr,
    /// CDNA accumulation registers (`acc0`.. in AMD's spec, `a0`.. in LLVM's syntax).
    Agpr,
    /// Trap temporaries.
    Ttmp,
}

/// One operand's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// `count` consecutive registers from `first` (a 64-bit operand takes two).
    Reg {
        file: RegFile,
        first: u32,
        count: u32,
    },
    /// A named register or source: AMD's name (`VCC_LO`, `EXEC_LO`, `M0`, `NULL`, `SRC_SCC`...).
    Named(&'static str),
    /// An inline integer constant (`0`..`64`, `-1`..`-16`).
    Int(i64),
    /// An inline floating-point constant, as AMD names it (`0.5`, `-4.0`, ...).
    Float(&'static str),
    /// The literal dword (or qword) that follows the instruction.
    Literal(u64),
    /// A field value with no predefined name (offsets, immediates, branch targets).
    Imm(u64),
    /// A value the operand type does not define.
    Unknown(u64),
    /// An implicit operand (not encoded).
    Implicit(&'static str),
}

/// A form's operand with its value.
#[derive(Clone, Copy, Debug)]
pub struct DecodedOperand {
    pub info: &'static OperandInfo,
    pub value: Operand,
    /// The raw field value (0 for implicit operands).
    pub raw: u64,
}

fn register_file(prefix: &str) -> Option<RegFile> {
    match prefix {
        "s" => Some(RegFile::Sgpr),
        "v" => Some(RegFile::Vgpr),
        "acc" => Some(RegFile::Agpr),
        "TTMP" => Some(RegFile::Ttmp),
        _ => None,
    }
}

/// Whether every register an operand type names is an AGPR (`OPR_ACCVGPR`, `OPR_SRC_ACCVGPR`).
pub fn is_agpr_only(ty: &OperandTypeInfo) -> bool {
    !ty.runs.is_empty() && ty.runs.iter().all(|r| r.prefix == "acc")
}

/// The field value of type value `value`: AMD's AGPR-only types number acc n as 512 + n (an
/// 8-bit field such as VDST) or 768 + n (a 9-bit source, where VGPRs are 256 + n); the ACC
/// selection is the type's, and the field keeps the low 9 bits (n, or 256 + n).
pub fn agpr_field_value(ty: &OperandTypeInfo, value: u64) -> u64 {
    if is_agpr_only(ty) && value >= 512 {
        value & 0x1ff
    } else {
        value
    }
}

/// Registers needed for an operand of `size` bits (16-bit operands use one register).
pub fn register_count(size: u16) -> u32 {
    (size as u32).div_ceil(32).max(1)
}

/// Interprets `raw` as a value of `ty` for an operand of `size` bits. `literal` is the value of
/// the instruction's LITERAL field, if it has one.
pub fn classify(ty: &OperandTypeInfo, raw: u64, size: u16, literal: Option<u64>) -> Operand {
    classify_in(None, ty, raw, size, literal)
}

/// Like [`classify`], also looking through the type's subtypes (AMD's `Subtypes`: the types
/// whose values this type includes) when the type itself does not name the value.
pub fn classify_in(
    spec: Option<&IsaSpec>,
    ty: &OperandTypeInfo,
    raw: u64,
    size: u16,
    literal: Option<u64>,
) -> Operand {
    let mut name = ty.name_of(raw as i64);
    if name.is_none() && is_agpr_only(ty) {
        // AMD numbers AGPRs past the field's range (512 + n, 768 + n): the field holds the
        // value's low 9 bits (see `agpr_field_value`).
        name = ty
            .runs
            .first()
            .and_then(|r| ty.name_of(raw as i64 + (r.first_value & !0x1ff)));
    }
    if name.is_none() {
        if let Some(spec) = spec {
            name = ty
                .subtypes
                .iter()
                .find_map(|&st| spec.operand_types[st as usize].name_of(raw as i64));
        }
    }
    match name {
        Some(ValueName::Register { prefix, index }) => match register_file(prefix) {
            Some(file) => Operand::Reg {
                file,
                first: index,
                count: register_count(size),
            },
            None => Operand::Named(prefix),
        },
        Some(ValueName::Named(name)) => {
            if name.starts_with("SRC_LITERAL") {
                return match literal {
                    Some(l) => Operand::Literal(l),
                    None => Operand::Named(name),
                };
            }
            if let Ok(i) = name.parse::<i64>() {
                return Operand::Int(i);
            }
            if name.contains('.')
                && name
                    .trim_start_matches('-')
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_digit())
            {
                return Operand::Float(name);
            }
            Operand::Named(name)
        }
        None => {
            if ty.runs.is_empty() && ty.values.is_empty() {
                Operand::Imm(raw)
            } else {
                Operand::Unknown(raw)
            }
        }
    }
}

impl Instruction {
    /// The literal that follows the instruction, if its encoding has one.
    pub fn literal(&self) -> Option<u64> {
        self.field("LITERAL").or_else(|| self.field("LITERAL64"))
    }

    /// The form's operands, in the spec's order, with their values.
    pub fn operands(&self) -> Vec<DecodedOperand> {
        let enc = self.encoding();
        let literal = self.literal();
        self.form_info()
            .operands
            .iter()
            .map(|info| {
                let field = info.field.map(|f| {
                    let f = &enc.fields[f as usize];
                    (f.name, f.extract(self.bits))
                });
                decoded_operand(self.spec, info, field, literal)
            })
            .collect()
    }
}

/// An operand's value from its field's name and raw value (`None` for an implicit operand),
/// read through its operand type; `literal` is the instruction's literal, if any.
pub fn decoded_operand(
    spec: &IsaSpec,
    info: &'static OperandInfo,
    field: Option<(&str, u64)>,
    literal: Option<u64>,
) -> DecodedOperand {
    let ty = info.operand_type.map(|t| &spec.operand_types[t as usize]);
    match (field, ty) {
        // The LITERAL field holds the literal itself, not a source code.
        (Some((name, raw)), _) if name.starts_with("LITERAL") => DecodedOperand {
            info,
            value: Operand::Literal(raw),
            raw,
        },
        (Some((_, raw)), Some(ty)) => DecodedOperand {
            info,
            value: classify_in(Some(spec), ty, raw, info.size, literal),
            raw,
        },
        (Some((_, raw)), None) => DecodedOperand {
            info,
            value: Operand::Imm(raw),
            raw,
        },
        (None, ty) => DecodedOperand {
            info,
            value: Operand::Implicit(ty.map_or("?", |t| t.name)),
            raw: 0,
        },
    }
}
