//! Per-spec counts, as printed by `isa-gen tables` (text and JSON).

use super::Spec;
use serde::Serialize;

/// One spec's counts. The JSON field names are a stable interface (see the README).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SpecSummary {
    pub generation: Option<String>,
    pub file: String,
    pub architecture_name: String,
    pub architecture_id: Option<u32>,
    pub release_date: Option<String>,
    pub schema_version: Option<String>,
    pub encodings: usize,
    pub instructions: usize,
    /// Instructions whose every encoding resolved.
    pub complete_instructions: usize,
    /// (instruction, encoding) pairs.
    pub instruction_encodings: usize,
    pub operand_types: usize,
    pub data_formats: usize,
    pub functional_groups: usize,
    pub functional_subgroups: usize,
    pub errors: usize,
    pub warnings: usize,
    /// Override-layer entries applied to this spec.
    pub overrides_applied: Vec<String>,
}

/// The summary of every loaded spec.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub spec_dir: String,
    pub spec_source: crate::specdir::Source,
    pub specs: Vec<SpecSummary>,
    /// The project's override layer: every entry, with its reason.
    pub overrides: &'static [crate::spec_fixes::Override],
}

impl Spec {
    pub fn summary(&self) -> SpecSummary {
        SpecSummary {
            generation: self.generation.map(|g| g.to_string()),
            file: self.path.display().to_string(),
            architecture_name: self.architecture_name.clone(),
            architecture_id: self.architecture_id,
            release_date: self.release_date.clone(),
            schema_version: self.schema_version.clone(),
            encodings: self.encodings.len(),
            instructions: self.instructions.len(),
            complete_instructions: self.instructions.iter().filter(|i| i.is_complete()).count(),
            instruction_encodings: self.instructions.iter().map(|i| i.encodings.len()).sum(),
            operand_types: self.operand_types.len(),
            data_formats: self.data_formats.len(),
            functional_groups: self.functional_groups.len(),
            functional_subgroups: self.functional_subgroups.len(),
            errors: self.errors().count(),
            warnings: self.warnings().count(),
            overrides_applied: self.overrides_applied.clone(),
        }
    }
}
