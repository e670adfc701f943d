//! Generated conformance: every form of every loaded spec (AMD's data when present, and the
//! project's fixtures) is disassembled by the project and by llvm-mc, and LLVM's text is
//! assembled by both; texts and bytes must agree.
//!
//! Forms where AMD's spec and LLVM 22 disagree about the instruction itself are listed, with
//! the evidence, in `llvm-disagreements.txt`: their cases are counted apart. Any other mismatch
//! fails the test, and so does a listed form that agrees now (the list stays exact).

use isa_tests::conformance::{self, Report};
use isa_tests::llvm_mc::LlvmMc;

// Random instances per form: enough that the rarer operand codes (64-bit literal codes,
// inline floats, counter lists) come up in every run.
const PER_FORM: usize = 24;
const SEED: u64 = 0x5eed;

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
    let listed = conformance::listed_disagreements();
    let mut unexpected = Vec::new();
    let mut stale = Vec::new();
    let (mut cases, mut disagreeing) = (0, 0);
    for spec in specs {
        let mut r =
            f(spec, &llvm, PER_FORM, SEED).unwrap_or_else(|e| panic!("{}: {e}", spec.generation));
        stale.extend(r.separate_listed(set, mode, &listed));
        eprintln!("{set} {mode}: {r}");
        eprint!("{}", r.family_table());
        assert!(r.cases > 0, "{}: no cases", r.generation);
        cases += r.cases;
        disagreeing += r.disagreements.len();
        unexpected.extend(
            r.mismatches
                .iter()
                .map(|m| format!("{}\n  {m}", r.key(set, mode, &m.form))),
        );
    }
    eprintln!(
        "{set} {mode} vs llvm-mc: {cases} cases, {} mismatches, {disagreeing} cases of forms in llvm-disagreements.txt",
        unexpected.len()
    );
    assert!(
        stale.is_empty(),
        "listed in llvm-disagreements.txt but agreeing with llvm-mc now (remove them): {stale:?}"
    );
    if !unexpected.is_empty() {
        let shown: Vec<&str> = unexpected.iter().take(30).map(String::as_str).collect();
        panic!(
            "{} mismatches with llvm-mc:\n{}",
            unexpected.len(),
            shown.join("\n")
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
