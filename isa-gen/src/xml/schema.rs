//! AMD's ISA XML schema (versions 1.0 to 1.2.0) as typed Rust, exactly as the file states it.
//!
//! Nothing here is resolved or checked beyond reading numbers: [`crate::model`] does that. Every
//! item keeps the byte offset of its start tag (`pos`) so later diagnostics can point at it.
//! Element names are reused at different depths (`OperandType` is a top-level definition and a
//! text leaf inside `Operand`; `FunctionalGroup` likewise), so the reader parses by position.

use serde::Serialize;

/// A number written as digits in a given radix (`<Opcode Radix="10">`, identifiers in radix 2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Radixed {
    pub value: u128,
    /// How many digits were written: for radix-2 masks and identifiers, the bit width.
    pub digits: u32,
    pub radix: u32,
    #[serde(skip)]
    pub pos: usize,
}

/// `<Spec>`: the whole file.
#[derive(Clone, Debug, Default, Serialize)]
pub struct SpecFile {
    pub document: Document,
    pub isa: Isa,
}

/// `<Document>`: release information.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Document {
    pub copyright: Option<String>,
    pub sensitivity: Option<String>,
    pub license: Option<String>,
    pub release_date: Option<String>,
    pub schema_version: Option<String>,
}

/// `<ISA>`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Isa {
    pub architecture: Architecture,
    pub encodings: Vec<Encoding>,
    pub instructions: Vec<Instruction>,
    pub data_formats: Vec<DataFormat>,
    pub operand_types: Vec<OperandType>,
    pub functional_groups: Vec<FunctionalGroupDef>,
    pub functional_subgroups: Vec<FunctionalSubgroupDef>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Architecture {
    pub name: Option<String>,
    pub id: Option<u32>,
}

/// `<Encoding Order="..">`: one microcode format (ENC_SOP1, VOP3_INST_LITERAL, ...).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Encoding {
    #[serde(skip)]
    pub pos: usize,
    pub order: Option<i32>,
    pub name: String,
    pub bit_count: Option<u32>,
    pub identifier_mask: Option<Radixed>,
    pub identifiers: Vec<Radixed>,
    pub conditions: Vec<EncodingCondition>,
    pub description: Option<String>,
    /// `MicrocodeFormat/BitMap/Field`.
    pub fields: Vec<Field>,
}

/// `<EncodingCondition>` inside an encoding: a named predicate over the instruction bits.
#[derive(Clone, Debug, Default, Serialize)]
pub struct EncodingCondition {
    #[serde(skip)]
    pub pos: usize,
    pub name: String,
    pub id: Option<u32>,
    /// `CondtionExpression` (AMD's spelling). `None` when the element is absent or empty.
    pub expr: Option<CondExpr>,
}

/// A node of a condition expression tree.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "node", rename_all = "snake_case")]
pub enum CondExpr {
    /// `<op type="..">` with operands and an optional result type.
    Op {
        op: CondOp,
        args: Vec<CondExpr>,
        ty: Option<CondType>,
        #[serde(skip)]
        pos: usize,
    },
    /// `<id val=".."/>`: a name (`INST`, an encoding family such as `VOP3`, or a field).
    Id {
        name: String,
        #[serde(skip)]
        pos: usize,
    },
    /// `<lit val=".."/>` with an optional type.
    Lit {
        value: i64,
        ty: Option<CondType>,
        #[serde(skip)]
        pos: usize,
    },
}

/// The operators AMD's condition trees use. `Other` keeps an operator this reader does not
/// know (it is also reported as a warning).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CondOp {
    And,
    Or,
    Not,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// `.fieldderef`: `a.b`, member access (`INST.VOP3.SRC0`).
    FieldDeref,
    /// `.within`: the left value is one of the array's elements.
    Within,
    /// `.notwithin`: the left value is none of the array's elements.
    NotWithin,
    /// `.cons_array`: an array literal.
    ConsArray,
    Other(String),
}

impl CondOp {
    pub fn from_xml(s: &str) -> CondOp {
        match s {
            "&&" => CondOp::And,
            "||" => CondOp::Or,
            "!" => CondOp::Not,
            "==" => CondOp::Eq,
            "!=" => CondOp::Ne,
            "<" => CondOp::Lt,
            "<=" => CondOp::Le,
            ">" => CondOp::Gt,
            ">=" => CondOp::Ge,
            ".fieldderef" => CondOp::FieldDeref,
            ".within" => CondOp::Within,
            ".notwithin" => CondOp::NotWithin,
            ".cons_array" => CondOp::ConsArray,
            other => CondOp::Other(other.to_string()),
        }
    }

    pub fn as_xml(&self) -> &str {
        match self {
            CondOp::And => "&&",
            CondOp::Or => "||",
            CondOp::Not => "!",
            CondOp::Eq => "==",
            CondOp::Ne => "!=",
            CondOp::Lt => "<",
            CondOp::Le => "<=",
            CondOp::Gt => ">",
            CondOp::Ge => ">=",
            CondOp::FieldDeref => ".fieldderef",
            CondOp::Within => ".within",
            CondOp::NotWithin => ".notwithin",
            CondOp::ConsArray => ".cons_array",
            CondOp::Other(s) => s,
        }
    }
}

/// `<ty><t base="U" size="1"/></ty>`: `U`nsigned, `I`nteger (signed), ...
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CondType {
    pub base: String,
    pub size: u32,
}

/// `<Field>` of a bit map (encodings, operand types, data formats).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Field {
    #[serde(skip)]
    pub pos: usize,
    pub name: String,
    pub description: Option<String>,
    pub is_conditional: bool,
    /// Data-format fields say whether they are signed.
    pub signedness: Option<String>,
    /// The `RangeCount` attribute as written (checked against `ranges.len()`).
    pub range_count: Option<u32>,
    pub ranges: Vec<BitRange>,
    pub predefined_values: Vec<PredefinedValue>,
}

/// One `<Range>` of a field's `BitLayout`. Ranges are listed from the field's least significant
/// part upward by `Order`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct BitRange {
    #[serde(skip)]
    pub pos: usize,
    pub order: i32,
    pub bit_offset: u32,
    pub bit_count: u32,
    pub padding: Option<Padding>,
}

/// `<Padding>`: bits of the value that are not stored in the microcode (implied constant).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Padding {
    pub bit_count: u32,
    pub value: Radixed,
}

/// `<PredefinedValue>`: a named value of an operand type or field.
#[derive(Clone, Debug, Default, Serialize)]
pub struct PredefinedValue {
    #[serde(skip)]
    pub pos: usize,
    pub name: String,
    pub value: i64,
    pub description: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct InstructionFlags {
    pub is_branch: bool,
    pub is_conditional_branch: bool,
    pub is_indirect_branch: bool,
    pub is_program_terminator: bool,
    pub is_immediately_executed: bool,
}

impl InstructionFlags {
    /// The names of the flags that are set (`branch`, `conditional-branch`, ...).
    pub fn names(&self) -> Vec<&'static str> {
        [
            (self.is_branch, "branch"),
            (self.is_conditional_branch, "conditional-branch"),
            (self.is_indirect_branch, "indirect-branch"),
            (self.is_program_terminator, "program-terminator"),
            (self.is_immediately_executed, "immediately-executed"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, n)| *n)
        .collect()
    }
}

/// `<Instruction>`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Instruction {
    #[serde(skip)]
    pub pos: usize,
    pub name: String,
    pub flags: InstructionFlags,
    pub aliases: Vec<String>,
    pub description: Option<String>,
    pub functional_group: Option<String>,
    pub functional_subgroups: Vec<String>,
    pub encodings: Vec<InstructionEncoding>,
}

/// `<InstructionEncoding>`: the instruction in one encoding, under one condition.
#[derive(Clone, Debug, Default, Serialize)]
pub struct InstructionEncoding {
    #[serde(skip)]
    pub pos: usize,
    pub encoding_name: String,
    pub condition: Option<String>,
    /// The `Id` attribute of `<EncodingCondition>` (present in some files).
    pub condition_id: Option<u32>,
    pub opcode: Option<Radixed>,
    pub operands: Vec<Operand>,
}

/// `<Operand>`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Operand {
    #[serde(skip)]
    pub pos: usize,
    pub order: Option<u32>,
    pub input: bool,
    pub output: bool,
    pub is_implicit: bool,
    pub is_binary_microcode_required: bool,
    /// Absent for implicit operands.
    pub field_name: Option<String>,
    pub data_format: Option<String>,
    pub operand_type: Option<String>,
    pub size: Option<u32>,
}

/// `<DataFormat>`.
#[derive(Clone, Debug, Default, Serialize)]
pub struct DataFormat {
    #[serde(skip)]
    pub pos: usize,
    pub name: String,
    pub description: Option<String>,
    pub data_type: Option<String>,
    pub bit_count: Option<u32>,
    pub component_count: Option<u32>,
    /// `DataAttributes/BitMap` (one per component, by `Order`, counted from 1).
    pub bitmaps: Vec<DataBitMap>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct DataBitMap {
    pub order: Option<i32>,
    pub fields: Vec<Field>,
}

/// `<OperandType>` at the top level.
#[derive(Clone, Debug, Default, Serialize)]
pub struct OperandType {
    #[serde(skip)]
    pub pos: usize,
    pub name: String,
    pub description: Option<String>,
    pub is_partitioned: bool,
    pub predefined_values: Vec<PredefinedValue>,
    /// `MicrocodeFormat/BitMap/Field`: for operands made of sub-fields (waitcnt, hwreg, ...).
    pub fields: Vec<Field>,
    pub subtypes: Vec<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct FunctionalGroupDef {
    pub name: String,
    pub description: Option<String>,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct FunctionalSubgroupDef {
    pub name: String,
    pub description: Option<String>,
}
