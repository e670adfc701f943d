//! The generation-neutral model: one AMD ISA spec with every cross-reference resolved and
//! checked.
//!
//! [`load_file`] reads a file ([`crate::xml`]), then [`build`] resolves names to indices and
//! validates the spec. A spec with problems still loads whatever is consistent; every problem
//! is a located [`Diagnostic`], and an instruction encoding with an unresolved reference is kept
//! but marked incomplete, with its reasons, so later stages skip it explicitly.

mod build;
mod summary;

pub use build::build;
pub use summary::{SpecSummary, Summary};

use crate::diag::{Diagnostic, Severity};
use crate::generation::Generation;
use crate::xml;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// One loaded, checked spec file.
#[derive(Debug, Serialize)]
pub struct Spec {
    pub path: PathBuf,
    /// From `ArchitectureName`, else from the file name; `None` if neither is recognised.
    pub generation: Option<Generation>,
    pub architecture_name: String,
    pub architecture_id: Option<u32>,
    pub release_date: Option<String>,
    pub schema_version: Option<String>,
    pub license: Option<String>,
    pub source_bytes: usize,
    pub encodings: Vec<Encoding>,
    pub instructions: Vec<Instruction>,
    pub data_formats: Vec<xml::DataFormat>,
    pub operand_types: Vec<OperandType>,
    pub functional_groups: Vec<xml::FunctionalGroupDef>,
    pub functional_subgroups: Vec<xml::FunctionalSubgroupDef>,
    pub diagnostics: Vec<Diagnostic>,
    /// Reading stopped early (see the diagnostics); what was read before is kept.
    pub read_stopped_early: bool,
    /// Entries of the project's override layer applied to this spec (see [`crate::spec_fixes`]).
    pub overrides_applied: Vec<String>,
    #[serde(skip)]
    pub(crate) index: Index,
}

#[derive(Debug, Default)]
pub(crate) struct Index {
    pub encodings: HashMap<String, usize>,
    pub instructions: HashMap<String, usize>,
    pub data_formats: HashMap<String, usize>,
    pub operand_types: HashMap<String, usize>,
}

/// A microcode format (`ENC_VOP3`, `VOP3_INST_LITERAL`, ...).
#[derive(Debug, Serialize)]
pub struct Encoding {
    pub name: String,
    /// Selection order: lower first. Literal and DPP forms of a base encoding come after it.
    pub order: i32,
    pub bit_count: u32,
    pub description: Option<String>,
    /// Bits that identify the encoding and opcode (bit 0 = least significant bit of the first
    /// byte; instructions are little-endian dwords).
    pub mask: u128,
    /// Each identifier, in file order.
    pub identifiers: Vec<u128>,
    /// Identifier by opcode (the OP field of the identifier).
    pub identifier_by_opcode: BTreeMap<u32, u128>,
    pub conditions: Vec<xml::EncodingCondition>,
    pub fields: Vec<Field>,
    /// Index into `fields` of the opcode field `OP`.
    pub op_field: Option<usize>,
    /// An encoding without `OP` that pairs instructions (dual issue, VOPD): its opcode fields
    /// `OP<h>` (`OPX`, `OPY`), one per half `h`, as (half suffix, field index).
    pub half_op_fields: Vec<(String, usize)>,
    /// The family and variant of the encoding, decided once from its name
    /// ([`isa_vocab::classify`]) and emitted as data for the runtime.
    #[serde(skip)]
    pub family: isa_vocab::Family,
    #[serde(skip)]
    pub variant: isa_vocab::Variant,
    #[serde(skip)]
    pub pos: usize,
}

impl Encoding {
    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }

    pub fn field_index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    /// The bits that every identifier of this encoding has in common under the mask, outside the
    /// OP field: the constant `ENCODING` pattern.
    pub fn fixed_bits(&self) -> Option<(u128, u128)> {
        let op_mask = self.opcode_mask();
        let fixed_mask = self.mask & !op_mask;
        let first = *self.identifiers.first()?;
        Some((fixed_mask, first & fixed_mask))
    }

    /// The bits of every opcode field (`OP`, or the halves' `OPX`, `OPY`).
    pub fn opcode_mask(&self) -> u128 {
        let op = self.op_field.map_or(0, |i| self.fields[i].mask());
        self.half_op_fields
            .iter()
            .fold(op, |m, (_, i)| m | self.fields[*i].mask())
    }

    /// The half (`X`, `Y`) that an operand field belongs to in a pairing encoding: the field's
    /// name, without trailing digits, ends with the half's suffix (`SRCX0`, `VSRCX1`, `VDSTX`
    /// belong to `X`; `LITERAL` to none: both halves share it).
    pub fn half_of_field(&self, field: &str) -> Option<&str> {
        let stem = field.trim_end_matches(|c: char| c.is_ascii_digit());
        self.half_op_fields
            .iter()
            .map(|(h, _)| h.as_str())
            .find(|h| stem.ends_with(h))
    }

    pub fn byte_len(&self) -> u32 {
        self.bit_count / 8
    }
}

/// A field of a bit map. Its value is the concatenation of its ranges, `Order` 0 least
/// significant; a range with padding stands for `(stored << pad_bits) | pad_value`.
#[derive(Clone, Debug, Serialize)]
pub struct Field {
    pub name: String,
    pub description: Option<String>,
    pub is_conditional: bool,
    pub ranges: Vec<xml::BitRange>,
    pub predefined_values: Vec<xml::PredefinedValue>,
}

impl Field {
    /// Width of the value, padding included.
    pub fn width(&self) -> u32 {
        self.ranges
            .iter()
            .map(|r| r.bit_count + r.padding.as_ref().map_or(0, |p| p.bit_count))
            .sum()
    }

    /// Width stored in the microcode.
    pub fn stored_width(&self) -> u32 {
        self.ranges.iter().map(|r| r.bit_count).sum()
    }

    /// The bits as people read them, most significant range first (`[15:8]`, `[31:26,3]`), with
    /// padding (`(+2 implied low bit(s) = 0)`).
    pub fn layout_text(&self) -> String {
        let parts: Vec<String> = self.ranges.iter().rev().map(bit_span).collect();
        let mut s = format!("[{}]", parts.join(","));
        for p in self.ranges.iter().filter_map(|r| r.padding.as_ref()) {
            s.push_str(&format!(
                " (+{} implied low bit(s) = {})",
                p.bit_count, p.value.value
            ));
        }
        s
    }

    /// The microcode bits the field occupies.
    pub fn mask(&self) -> u128 {
        self.ranges.iter().fold(0u128, |m, r| {
            m | (low_mask(r.bit_count) << r.bit_offset.min(127))
        })
    }

    /// Extracts the field's value from microcode bits.
    pub fn extract(&self, bits: u128) -> u128 {
        let mut value = 0u128;
        let mut shift = 0u32;
        for r in &self.ranges {
            let mut part = (bits >> r.bit_offset.min(127)) & low_mask(r.bit_count);
            let mut w = r.bit_count;
            if let Some(p) = &r.padding {
                part = (part << p.bit_count) | (p.value.value & low_mask(p.bit_count));
                w += p.bit_count;
            }
            value |= part << shift.min(127);
            shift += w;
        }
        value
    }

    /// Places `value` into microcode bits (the inverse of [`Field::extract`]; padding bits of
    /// the value are dropped).
    pub fn insert(&self, bits: u128, value: u128) -> u128 {
        let mut bits = bits & !self.mask();
        let mut shift = 0u32;
        for r in &self.ranges {
            let pad = r.padding.as_ref().map_or(0, |p| p.bit_count);
            let part = (value >> (shift + pad).min(127)) & low_mask(r.bit_count);
            bits |= part << r.bit_offset.min(127);
            shift += r.bit_count + pad;
        }
        bits
    }
}

/// One range of bits as people read them: `15:8`, or `7` for a single bit.
pub fn bit_span(r: &xml::BitRange) -> String {
    if r.bit_count == 1 {
        format!("{}", r.bit_offset)
    } else {
        format!("{}:{}", r.bit_offset + r.bit_count - 1, r.bit_offset)
    }
}

pub fn low_mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// An operand type with its subtypes resolved.
#[derive(Debug, Serialize)]
pub struct OperandType {
    pub name: String,
    pub description: Option<String>,
    pub is_partitioned: bool,
    pub predefined_values: Vec<xml::PredefinedValue>,
    pub fields: Vec<Field>,
    pub subtypes: Vec<String>,
    /// Indices of the subtypes that exist.
    pub subtype_ids: Vec<usize>,
    #[serde(skip)]
    pub pos: usize,
}

/// An instruction with its encodings resolved.
#[derive(Debug, Serialize)]
pub struct Instruction {
    pub name: String,
    pub flags: xml::InstructionFlags,
    pub aliases: Vec<String>,
    pub description: Option<String>,
    pub functional_group: Option<String>,
    pub functional_subgroups: Vec<String>,
    pub encodings: Vec<InstructionEncoding>,
    #[serde(skip)]
    pub pos: usize,
}

impl Instruction {
    /// Every encoding resolved (and at least one exists).
    pub fn is_complete(&self) -> bool {
        !self.encodings.is_empty() && self.encodings.iter().all(|e| e.incomplete.is_empty())
    }
}

/// How an instruction's named condition relates to its encoding's conditions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ConditionRef {
    /// No condition named, or the encoding declares none: the encoding always applies.
    Unconditional,
    /// Index into the encoding's `conditions`.
    Defined { index: usize },
    /// The instruction names a condition the encoding does not define (a known quirk of AMD's
    /// data, reported as a warning): treated as the encoding's default.
    Undefined { name: String },
}

#[derive(Debug, Serialize)]
pub struct InstructionEncoding {
    pub encoding_name: String,
    /// Index into [`Spec::encodings`]; `None` if the encoding does not exist.
    pub encoding: Option<usize>,
    pub condition_name: Option<String>,
    pub condition_id: Option<u32>,
    pub condition: ConditionRef,
    pub opcode: Option<u32>,
    /// Index into the encoding's fields of the field holding `opcode`: `OP`, or in a pairing
    /// encoding the opcode field of the half the operands belong to (`OPX`, `OPY`).
    pub opcode_field: Option<usize>,
    /// In a pairing encoding, the half (`X`, `Y`) this instruction encoding describes.
    pub half: Option<String>,
    pub operands: Vec<Operand>,
    /// Why this encoding cannot be used (empty = complete).
    pub incomplete: Vec<String>,
    #[serde(skip)]
    pub pos: usize,
}

#[derive(Debug, PartialEq, Serialize)]
pub struct Operand {
    pub order: u32,
    pub input: bool,
    pub output: bool,
    pub is_implicit: bool,
    pub is_binary_microcode_required: bool,
    pub field_name: Option<String>,
    /// Index into the encoding's fields.
    pub field: Option<usize>,
    pub data_format_name: Option<String>,
    pub data_format: Option<usize>,
    pub operand_type_name: Option<String>,
    pub operand_type: Option<usize>,
    pub size: u32,
}

/// Why a spec could not be loaded at all (the file could not be read).
#[derive(Debug)]
pub struct LoadError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for LoadError {}

/// Reads and checks one spec file.
pub fn load_file(path: &Path) -> Result<Spec, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| LoadError {
        path: path.to_path_buf(),
        message: format!("cannot read: {e}"),
    })?;
    Ok(load_bytes(path, &bytes))
}

/// Reads and checks a spec held in memory; `path` names it in diagnostics.
pub fn load_bytes(path: &Path, bytes: &[u8]) -> Spec {
    let outcome = xml::read_spec(path, bytes);
    let text = std::str::from_utf8(bytes)
        .unwrap_or_else(|e| std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default());
    let mut spec = build(path, text, outcome);
    spec.overrides_applied = crate::spec_fixes::apply(&mut spec);
    spec
}

/// Loads every `*.xml` file of a directory, sorted by generation then file name.
pub fn load_dir(dir: &Path) -> Result<Vec<Spec>, LoadError> {
    load_layers(&[dir.to_path_buf()])
}

/// Every spec of several directories; for a generation found in more than one, the first
/// directory's file wins and the others are not read (a complete file layered over excerpts).
pub fn load_layers(dirs: &[PathBuf]) -> Result<Vec<Spec>, LoadError> {
    let mut specs: Vec<Spec> = Vec::new();
    for (layer, dir) in dirs.iter().enumerate() {
        let files = crate::specdir::list_files(dir, "xml").map_err(|e| LoadError {
            path: dir.to_path_buf(),
            message: format!("cannot list the directory: {e}"),
        })?;
        let taken: Vec<Option<Generation>> = specs.iter().map(|s| s.generation).collect();
        for (path, by_name) in files {
            // Skip by file name first so a covered 10 MB file is not even read.
            if layer > 0 && by_name.is_some() && taken.contains(&by_name) {
                continue;
            }
            let spec = load_file(&path)?;
            if layer > 0 && spec.generation.is_some() && taken.contains(&spec.generation) {
                continue;
            }
            specs.push(spec);
        }
    }
    specs.sort_by(|a, b| (a.generation, &a.path).cmp(&(b.generation, &b.path)));
    Ok(specs)
}

impl Spec {
    pub fn encoding(&self, name: &str) -> Option<&Encoding> {
        self.index.encodings.get(name).map(|&i| &self.encodings[i])
    }

    pub fn instruction(&self, name: &str) -> Option<&Instruction> {
        let upper = name.to_ascii_uppercase();
        self.index
            .instructions
            .get(&upper)
            .map(|&i| &self.instructions[i])
            .or_else(|| {
                self.instructions
                    .iter()
                    .find(|i| i.aliases.contains(&upper))
            })
    }

    pub fn data_format(&self, name: &str) -> Option<&xml::DataFormat> {
        self.index
            .data_formats
            .get(name)
            .map(|&i| &self.data_formats[i])
    }

    pub fn operand_type(&self, name: &str) -> Option<&OperandType> {
        self.index
            .operand_types
            .get(name)
            .map(|&i| &self.operand_types[i])
    }

    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
    }

    pub fn warnings(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
    }

    pub fn has_errors(&self) -> bool {
        self.errors().next().is_some()
    }

    /// A short name for messages: the generation, or the file name.
    pub fn label(&self) -> String {
        match self.generation {
            Some(g) => g.to_string(),
            None => self.path.display().to_string(),
        }
    }
}

/// A condition expression as readable text (`INST.VOP3.SRC0 == 255 && ...`).
pub fn condition_text(x: &xml::CondExpr) -> String {
    use xml::{CondExpr, CondOp};
    match x {
        CondExpr::Id { name, .. } => name.clone(),
        CondExpr::Lit { value, .. } => value.to_string(),
        CondExpr::Op { op, args, .. } => {
            let a: Vec<String> = args.iter().map(condition_text).collect();
            match op {
                CondOp::FieldDeref => a.join("."),
                CondOp::ConsArray => format!("[{}]", a.join(", ")),
                CondOp::Within => format!(
                    "{} in {}",
                    a.first().cloned().unwrap_or_default(),
                    a.get(1).cloned().unwrap_or_default()
                ),
                CondOp::NotWithin => format!(
                    "{} not in {}",
                    a.first().cloned().unwrap_or_default(),
                    a.get(1).cloned().unwrap_or_default()
                ),
                CondOp::Not => format!("!({})", a.join(", ")),
                CondOp::And | CondOp::Or => a
                    .iter()
                    .map(|s| format!("({s})"))
                    .collect::<Vec<_>>()
                    .join(&format!(" {} ", op.as_xml())),
                _ => a.join(&format!(" {} ", op.as_xml())),
            }
        }
    }
}
