//! What changed between two specs: `isa-gen diff OLD NEW`.
//!
//! Compares the checked model ([`crate::model`]), not the XML text, so whitespace, element order
//! and positions never show up; every difference is one [`Change`] naming the item, the property
//! and both values. The same comparison answers "what does AMD's new drop change" (two releases
//! of one generation) and "what does CDNA 4 add over CDNA 3" (two generations).
//!
//! - [`compare`]: the comparisons, one function per kind of item;
//! - [`text`]: the report for people (grouped by kind, counted, one line per change).
//!
//! The JSON form ([`Report`] serialized) is a stable interface documented in the README.

mod compare;
pub mod text;

use crate::model::Spec;
use serde::Serialize;
use std::collections::BTreeMap;

/// What kind of item changed. The snake_case names are part of the JSON interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The `<Document>`/`<Architecture>` facts: ReleaseDate, SchemaVersion, ArchitectureName/Id.
    Release,
    /// An instruction (added, removed, renamed; flags, aliases, functional group changed).
    Instruction,
    /// An instruction's form: the instruction in one encoding under one condition.
    InstructionEncoding,
    /// The opcode of an instruction in one encoding.
    Opcode,
    /// An operand of an instruction in one encoding (type, data format, size, direction, field).
    Operand,
    /// A microcode format (order, size, identifier mask, fixed encoding bits).
    Encoding,
    /// A bit field of an encoding or of a partitioned operand type (bits moved or widened).
    Field,
    /// A named condition of an encoding (its expression or id).
    Condition,
    /// An operand type (partitioned, subtypes).
    OperandType,
    /// A named value of an operand type or of a field (added, removed, renumbered).
    PredefinedValue,
    /// A data format (type, bit count, components, bit layout).
    DataFormat,
    /// A description text (compared only when asked).
    Description,
}

impl Kind {
    pub const ALL: [Kind; 12] = [
        Kind::Release,
        Kind::Instruction,
        Kind::InstructionEncoding,
        Kind::Opcode,
        Kind::Operand,
        Kind::Encoding,
        Kind::Field,
        Kind::Condition,
        Kind::OperandType,
        Kind::PredefinedValue,
        Kind::DataFormat,
        Kind::Description,
    ];

    /// The heading of the kind's group in the text report.
    pub fn heading(self) -> &'static str {
        match self {
            Kind::Release => "release",
            Kind::Instruction => "instructions",
            Kind::InstructionEncoding => "instruction encodings",
            Kind::Opcode => "opcodes",
            Kind::Operand => "operands",
            Kind::Encoding => "encodings",
            Kind::Field => "fields",
            Kind::Condition => "conditions",
            Kind::OperandType => "operand types",
            Kind::PredefinedValue => "predefined values",
            Kind::DataFormat => "data formats",
            Kind::Description => "descriptions",
        }
    }
}

/// How the item changed. The snake_case names are part of the JSON interface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Added,
    Removed,
    /// An instruction whose old name became an alias of a new name (or the reverse).
    Renamed,
    Changed,
}

impl Action {
    pub const ALL: [Action; 4] = [
        Action::Added,
        Action::Removed,
        Action::Renamed,
        Action::Changed,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Action::Added => "added",
            Action::Removed => "removed",
            Action::Renamed => "renamed",
            Action::Changed => "changed",
        }
    }
}

/// One difference.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub kind: Kind,
    pub action: Action,
    /// The item, named by the path people use: `V_ADD_F32 in ENC_VOP3 [default] operand 2`,
    /// `ENC_SMEM field OFFSET`, `OPR_SDST value m0`.
    pub item: String,
    /// For `changed`: the property that differs (`opcode`, `bits`, `type`, `size`, ...).
    pub property: Option<String>,
    /// The old value (`changed`, `renamed`: the old name), as text.
    pub old: Option<String>,
    /// The new value (`changed`, `renamed`: the new name), as text.
    pub new: Option<String>,
}

/// One side of a comparison.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Side {
    pub file: String,
    pub generation: Option<String>,
    pub architecture_name: String,
    pub release_date: Option<String>,
    pub schema_version: Option<String>,
    /// Errors the loader reported (the model keeps what is consistent; see `isa-gen check`).
    pub errors: usize,
}

impl Side {
    pub fn of(spec: &Spec) -> Side {
        Side {
            file: spec.path.display().to_string(),
            generation: spec.generation.map(|g| g.to_string()),
            architecture_name: spec.architecture_name.clone(),
            release_date: spec.release_date.clone(),
            schema_version: spec.schema_version.clone(),
            errors: spec.errors().count(),
        }
    }

    /// `cdna3 (amdgpu_isa_cdna3.xml, ReleaseDate 2026-02-20, SchemaVersion 1.1.1)`.
    pub fn label(&self) -> String {
        format!(
            "{} ({}, ReleaseDate {}, SchemaVersion {})",
            self.generation.as_deref().unwrap_or("?"),
            self.file,
            self.release_date.as_deref().unwrap_or("?"),
            self.schema_version.as_deref().unwrap_or("?")
        )
    }
}

/// Changes of one kind, counted by action.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub added: usize,
    pub removed: usize,
    pub renamed: usize,
    pub changed: usize,
}

impl Counts {
    pub fn total(&self) -> usize {
        self.added + self.removed + self.renamed + self.changed
    }

    pub fn get(&self, a: Action) -> usize {
        match a {
            Action::Added => self.added,
            Action::Removed => self.removed,
            Action::Renamed => self.renamed,
            Action::Changed => self.changed,
        }
    }

    fn bump(&mut self, a: Action) {
        match a {
            Action::Added => self.added += 1,
            Action::Removed => self.removed += 1,
            Action::Renamed => self.renamed += 1,
            Action::Changed => self.changed += 1,
        }
    }
}

/// The differences between two specs.
#[derive(Clone, Debug, Serialize)]
pub struct SpecDiff {
    pub old: Side,
    pub new: Side,
    /// Per kind that has changes (kinds without changes are left out).
    pub counts: BTreeMap<Kind, Counts>,
    /// Sorted by kind, then action, then the order the items have in the files.
    pub changes: Vec<Change>,
}

impl SpecDiff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    pub fn count(&self, kind: Kind, action: Action) -> usize {
        self.counts.get(&kind).map_or(0, |c| c.get(action))
    }
}

/// What to compare beyond the model's facts.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Also compare `<Description>` texts (AMD's full files as shared here have none).
    pub descriptions: bool,
}

/// Compares two specs.
pub fn diff_specs(old: &Spec, new: &Spec, options: Options) -> SpecDiff {
    let mut changes = compare::all(old, new, options);
    // Stable sort: within a kind and action, the items keep the files' order.
    changes.sort_by_key(|c| (c.kind, c.action));
    let mut counts: BTreeMap<Kind, Counts> = BTreeMap::new();
    for c in &changes {
        counts.entry(c.kind).or_default().bump(c.action);
    }
    SpecDiff {
        old: Side::of(old),
        new: Side::of(new),
        counts,
        changes,
    }
}

/// The comparison of two sets of specs (two files, two directories, two generations).
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Version of this JSON layout; bumped on any incompatible change.
    pub format: u32,
    pub descriptions_compared: bool,
    /// One per pair of specs of the same generation (or the two files given).
    pub comparisons: Vec<SpecDiff>,
    /// Specs in OLD with no counterpart in NEW, and the reverse (directories only).
    pub only_old: Vec<Side>,
    pub only_new: Vec<Side>,
}

pub const REPORT_FORMAT: u32 = 1;

impl Report {
    pub fn is_empty(&self) -> bool {
        self.only_old.is_empty()
            && self.only_new.is_empty()
            && self.comparisons.iter().all(SpecDiff::is_empty)
    }
}

/// Compares two specs given directly (files, or generations picked by name).
pub fn report_pair(old: &Spec, new: &Spec, options: Options) -> Report {
    Report {
        format: REPORT_FORMAT,
        descriptions_compared: options.descriptions,
        comparisons: vec![diff_specs(old, new, options)],
        only_old: Vec::new(),
        only_new: Vec::new(),
    }
}

/// Compares two directories of specs: specs are paired by generation (by file name when the
/// generation is unknown); the unpaired ones are listed.
pub fn report_sets(old: &[Spec], new: &[Spec], options: Options) -> Report {
    let key = |s: &Spec| match s.generation {
        Some(g) => g.to_string(),
        None => s
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
    };
    let mut report = Report {
        format: REPORT_FORMAT,
        descriptions_compared: options.descriptions,
        comparisons: Vec::new(),
        only_old: Vec::new(),
        only_new: Vec::new(),
    };
    for o in old {
        match new.iter().find(|n| key(n) == key(o)) {
            Some(n) => report.comparisons.push(diff_specs(o, n, options)),
            None => report.only_old.push(Side::of(o)),
        }
    }
    for n in new {
        if !old.iter().any(|o| key(o) == key(n)) {
            report.only_new.push(Side::of(n));
        }
    }
    report
}
