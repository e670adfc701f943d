//! The regeneration report of `isa-gen emit`: silent on the first run and when nothing changed,
//! one line per generation when the spec changed, with counts that agree with the specs.

use isa_gen::emit::executors::Status;
use isa_gen::model;
use isa_gen::regen::set_change;
use isa_gen::specdir;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn emit(spec_dir: &Path, out: &Path) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_isa-gen"))
        .args(["emit", "--spec-dir"])
        .arg(spec_dir)
        .arg("--out")
        .arg(out)
        .output()
        .expect("run isa-gen");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn report_lines(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .filter(|l| l.contains("spec changed") || l.contains("regenerated from"))
        .collect()
}

fn names(path: &Path) -> (BTreeSet<String>, BTreeSet<String>) {
    let spec = model::load_file(path).unwrap();
    let ins = spec.instructions.iter().map(|i| i.name.clone()).collect();
    let semantics = isa_gen::emit::executors::Semantics::load();
    let exec = isa_gen::emit::generate(&spec, &semantics)
        .unwrap()
        .exec
        .entries
        .into_iter()
        .filter(|e| e.status != Status::Unsupported)
        .map(|e| e.instruction)
        .collect();
    (ins, exec)
}

#[test]
fn emit_reports_what_a_new_spec_did_to_the_generated_code() {
    let root: PathBuf = std::env::temp_dir().join(format!("isa-gen-regen-{}", std::process::id()));
    let (spec_dir, out) = (root.join("spec"), root.join("out"));
    std::fs::create_dir_all(&spec_dir).unwrap();
    let fixtures = specdir::workspace_root().join("spec/fixtures/diff");
    let target = spec_dir.join("amdgpu_isa_cdna3.xml");

    std::fs::copy(fixtures.join("old.xml"), &target).unwrap();
    let first = emit(&spec_dir, &out);
    assert!(report_lines(&first).is_empty(), "first run: {first}");
    assert!(out.join("isa-gen-summary-cdna3.json").is_file());
    let again = emit(&spec_dir, &out);
    assert!(report_lines(&again).is_empty(), "unchanged: {again}");

    std::fs::copy(fixtures.join("new.xml"), &target).unwrap();
    let changed = emit(&spec_dir, &out);
    let lines = report_lines(&changed);
    assert_eq!(lines.len(), 1, "{changed}");
    let (old_ins, old_exec) = names(&fixtures.join("old.xml"));
    let (new_ins, new_exec) = names(&fixtures.join("new.xml"));
    let want = format!(
        "cdna3: spec changed (amdgpu_isa_cdna3.xml, ReleaseDate 2026-01-10 -> 2026-03-15): instructions {}, forms 8 -> 9 (+3 -2), executors {}",
        set_change(&old_ins, &new_ins),
        set_change(&old_exec, &new_exec)
    );
    assert_eq!(lines[0], want);
    // The two releases differ by two instructions each way (a rename, one added, one removed).
    assert!(
        lines[0].contains("instructions 8 -> 8 (+2 -2)"),
        "{}",
        lines[0]
    );
    std::fs::remove_dir_all(&root).ok();
}
