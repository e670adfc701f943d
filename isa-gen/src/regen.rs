//! The regeneration report: what a changed spec did to the generated code.
//!
//! Each run that generates a generation (`isa-gen emit`, isa-runtime's build script) keeps a small
//! summary of it (the spec file's hash and release, the names of the instructions, forms and
//! instructions with a working executor) beside its output. The next run compares its own
//! summary with the kept one and, when anything differs, returns one line for the generation:
//!
//! ```text
//! cdna3: spec changed (amdgpu_isa_cdna3.xml, ReleaseDate 2026-01-10 -> 2026-03-15): instructions 8 -> 8 (+2 -2), forms 8 -> 9 (+3 -2), executors 6 -> 6 (+1 -1)
//! ```
//!
//! The first run (no kept summary) prints nothing; `isa-gen diff` tells what changed in the spec
//! itself.

use crate::emit::{self, executors::Semantics, executors::Status, Generated};
use crate::model::Spec;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Bumped when the layout changes; a kept summary of another layout is ignored.
pub const SUMMARY_FORMAT: u32 = 1;

/// What one run generated for one generation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildSummary {
    pub format: u32,
    pub generation: String,
    pub file: String,
    pub sha256: String,
    pub release_date: Option<String>,
    pub schema_version: Option<String>,
    pub instructions: BTreeSet<String>,
    /// Form constant names (`F_S_MOV_B32_ENC_SOP1_DEFAULT`).
    pub forms: BTreeSet<String>,
    /// Instructions whose executor runs (generated, override or builtin).
    pub executors: BTreeSet<String>,
}

impl BuildSummary {
    /// The summary of `generated`, the output for `spec` whose file held `bytes`.
    pub fn of(spec: &Spec, bytes: &[u8], generated: &Generated) -> BuildSummary {
        let (forms, _) = emit::collect_forms(spec);
        BuildSummary {
            format: SUMMARY_FORMAT,
            generation: spec.label(),
            file: spec
                .path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            sha256: crate::releases::sha256_hex(bytes),
            release_date: spec.release_date.clone(),
            schema_version: spec.schema_version.clone(),
            instructions: spec.instructions.iter().map(|i| i.name.clone()).collect(),
            forms: emit::form_names(spec, &forms)
                .iter()
                .map(|f| f.to_string())
                .collect(),
            executors: generated
                .exec
                .entries
                .iter()
                .filter(|e| e.status != Status::Unsupported)
                .map(|e| e.instruction.clone())
                .collect(),
        }
    }
}

/// `8 -> 9 (+3 -2)`: the sizes before and after, and how many names were gained and lost.
pub fn set_change(old: &BTreeSet<String>, new: &BTreeSet<String>) -> String {
    format!(
        "{} -> {} (+{} -{})",
        old.len(),
        new.len(),
        new.difference(old).count(),
        old.difference(new).count()
    )
}

/// The report line when `now` differs from `before`; `None` when nothing changed.
pub fn compare(before: &BuildSummary, now: &BuildSummary) -> Option<String> {
    if before == now {
        return None;
    }
    let spec_changed = before.sha256 != now.sha256 || before.file != now.file;
    let mut what = Vec::new();
    if before.file != now.file {
        what.push(format!("{} -> {}", before.file, now.file));
    } else {
        what.push(now.file.clone());
    }
    let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| "?".into());
    if before.release_date != now.release_date {
        what.push(format!(
            "ReleaseDate {} -> {}",
            opt(&before.release_date),
            opt(&now.release_date)
        ));
    }
    if before.schema_version != now.schema_version {
        what.push(format!(
            "SchemaVersion {} -> {}",
            opt(&before.schema_version),
            opt(&now.schema_version)
        ));
    }
    if spec_changed && before.release_date == now.release_date {
        what.push(format!(
            "sha256 {} -> {}",
            &before.sha256[..12.min(before.sha256.len())],
            &now.sha256[..12.min(now.sha256.len())]
        ));
    }
    Some(format!(
        "{}: {} ({}): instructions {}, forms {}, executors {}",
        now.generation,
        if spec_changed {
            "spec changed"
        } else {
            "regenerated from the same spec"
        },
        what.join(", "),
        set_change(&before.instructions, &now.instructions),
        set_change(&before.forms, &now.forms),
        set_change(&before.executors, &now.executors),
    ))
}

/// Where the summary of `generation` is kept in an output directory.
pub fn summary_path(dir: &Path, generation: &str) -> PathBuf {
    dir.join(format!("isa-gen-summary-{generation}.json"))
}

/// Compares the run's output with the summary kept in `dir` by the previous run, keeps the new
/// summary, and returns the report line (`None` on the first run or when nothing changed).
pub fn record(dir: &Path, spec: &Spec, generated: &Generated) -> Result<Option<String>, String> {
    let bytes = std::fs::read(&spec.path)
        .map_err(|e| format!("{}: cannot read: {e}", spec.path.display()))?;
    let now = BuildSummary::of(spec, &bytes, generated);
    let path = summary_path(dir, &now.generation);
    // A missing, unreadable or older-format summary means there is nothing to compare with.
    let before: Option<BuildSummary> = std::fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .filter(|s: &BuildSummary| s.format == SUMMARY_FORMAT);
    let json = serde_json::to_vec(&now).expect("summary serializes");
    std::fs::write(&path, json).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(before.and_then(|b| compare(&b, &now)))
}

/// For build scripts: generates `spec` like [`emit::generate`] and prints the regeneration
/// report as a `cargo:warning` line, keeping the summary in `out_dir` (OUT_DIR).
pub fn generate_and_report(
    spec: &Spec,
    semantics: &Semantics,
    out_dir: &Path,
) -> Result<Generated, String> {
    let generated = emit::generate(spec, semantics)?;
    match record(out_dir, spec, &generated) {
        Ok(Some(line)) => println!("cargo:warning={line}"),
        Ok(None) => {}
        Err(e) => println!("cargo:warning=regeneration report: {e}"),
    }
    Ok(generated)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[&str]) -> BTreeSet<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    fn summary() -> BuildSummary {
        BuildSummary {
            format: SUMMARY_FORMAT,
            generation: "cdna3".into(),
            file: "amdgpu_isa_cdna3.xml".into(),
            sha256: "a".repeat(64),
            release_date: Some("2026-02-20".into()),
            schema_version: Some("1.1.1".into()),
            instructions: set(&["A", "B", "C"]),
            forms: set(&["F_A", "F_B", "F_C"]),
            executors: set(&["A", "B"]),
        }
    }

    #[test]
    fn the_same_output_reports_nothing() {
        assert_eq!(compare(&summary(), &summary()), None);
    }

    #[test]
    fn a_new_release_reports_counts_gained_and_lost() {
        let before = summary();
        let mut now = summary();
        now.sha256 = "b".repeat(64);
        now.release_date = Some("2026-08-06".into());
        now.instructions = set(&["A", "C", "D", "E"]);
        now.forms = set(&["F_A", "F_C", "F_D", "F_E", "F_E2"]);
        now.executors = set(&["A", "D"]);
        assert_eq!(
            compare(&before, &now).unwrap(),
            "cdna3: spec changed (amdgpu_isa_cdna3.xml, ReleaseDate 2026-02-20 -> 2026-08-06): instructions 3 -> 4 (+2 -1), forms 3 -> 5 (+3 -1), executors 2 -> 2 (+1 -1)"
        );
    }

    #[test]
    fn other_bytes_under_the_same_release_and_new_executors_alone_are_told_apart() {
        let before = summary();
        let mut now = summary();
        now.sha256 = "c".repeat(64);
        let line = compare(&before, &now).unwrap();
        assert!(
            line.contains(
                "spec changed (amdgpu_isa_cdna3.xml, sha256 aaaaaaaaaaaa -> cccccccccccc)"
            ),
            "{line}"
        );
        let mut now = summary();
        now.executors = set(&["A", "B", "C"]);
        let line = compare(&before, &now).unwrap();
        assert!(
            line.starts_with("cdna3: regenerated from the same spec"),
            "{line}"
        );
        assert!(line.ends_with("executors 2 -> 3 (+1 -0)"), "{line}");
    }
}
