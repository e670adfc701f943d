//! Generated conformance: every form of every loaded spec (AMD's data when present, and the
//! project's fixtures) is disassembled by the project and by llvm-mc, and LLVM's text is
//! assembled by both; texts and bytes must agree.
//!
//! Forms that do not agree yet are listed, with the reason, in `known-mismatches.txt`
//! (`<set> <mode> <INSTRUCTION in ENCODING> # reason`): a mismatch outside that list fails the
//! test, and a listed form that now agrees is reported so the entry can be removed.

use isa_tests::conformance::{self, Report};
use isa_tests::llvm_mc::LlvmMc;
use std::collections::BTreeSet;

const PER_FORM: usize = 6;
const SEED: u64 = 0x5eed;

fn known() -> BTreeSet<String> {
    let text = include_str!("../known-mismatches.txt");
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

type Run = fn(
    &'static isa_runtime::IsaSpec,
    &LlvmMc,
    usize,
    u64,
) -> Result<Report, isa_tests::llvm_mc::OracleError>;

fn run(set: &str, mode: &str, specs: Vec<&'static isa_runtime::IsaSpec>, f: Run) {
    let llvm = match LlvmMc::find() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("skipped: llvm-mc 22 not available ({e}); install llvm-22");
            return;
        }
    };
    let known = known();
    let mut unexpected = Vec::new();
    let mut fixed = BTreeSet::new();
    let (mut cases, mut mismatches) = (0, 0);
    for spec in specs {
        let r =
            f(spec, &llvm, PER_FORM, SEED).unwrap_or_else(|e| panic!("{}: {e}", spec.generation));
        eprintln!("{set} {mode}: {r}");
        assert!(r.cases > 0, "{}: no cases", r.generation);
        cases += r.cases;
        mismatches += r.mismatches.len();
        let failing: BTreeSet<String> = r
            .mismatches
            .iter()
            .map(|m| format!("{set}-{} {mode} {}", r.generation, m.form))
            .collect();
        for m in &r.mismatches {
            let key = format!("{set}-{} {mode} {}", r.generation, m.form);
            if !known.contains(&key) {
                unexpected.push(format!("{key}\n  {m}"));
            }
        }
        for k in known
            .iter()
            .filter(|k| k.starts_with(&format!("{set}-{} {mode} ", r.generation)))
        {
            if !failing.contains(k) {
                fixed.insert(k.clone());
            }
        }
    }
    eprintln!("{set} {mode} vs llvm-mc: {cases} cases, {mismatches} mismatches ({} in known-mismatches.txt)", mismatches - unexpected.len());
    for k in &fixed {
        eprintln!("now agrees (remove from known-mismatches.txt): {k}");
    }
    if !unexpected.is_empty() {
        let shown: Vec<&String> = unexpected.iter().take(30).collect();
        panic!(
            "{} mismatches not in known-mismatches.txt:\n{}",
            unexpected.len(),
            shown
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

#[test]
fn fixture_specs_disassemble_like_llvm() {
    run(
        "fixture",
        "disasm",
        isa_runtime::fixtures::specs(),
        conformance::disassembly,
    );
}

#[test]
fn fixture_specs_assemble_like_llvm() {
    run(
        "fixture",
        "asm",
        isa_runtime::fixtures::specs(),
        conformance::assembly,
    );
}

#[test]
fn amd_specs_disassemble_like_llvm() {
    if isa_gen::specdir::real_xml_dir().is_none() {
        eprintln!("skipped: no AMD XML present; the fixture tests cover the generator");
        return;
    }
    run(
        "amd",
        "disasm",
        isa_runtime::specs(),
        conformance::disassembly,
    );
}

#[test]
fn amd_specs_assemble_like_llvm() {
    if isa_gen::specdir::real_xml_dir().is_none() {
        eprintln!("skipped: no AMD XML present; the fixture tests cover the generator");
        return;
    }
    run("amd", "asm", isa_runtime::specs(), conformance::assembly);
}
