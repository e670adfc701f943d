//! Generated conformance: every form of every loaded spec (AMD's data when present, and the
//! project's fixtures), disassembled by the project and by llvm-mc; the texts must agree.

use isa_tests::conformance::{self, Report};
use isa_tests::llvm_mc::LlvmMc;

fn run(specs: Vec<&'static isa_runtime::IsaSpec>, what: &str) -> Vec<Report> {
    let llvm = match LlvmMc::find() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("skipped: llvm-mc 22 not available ({e}); install llvm-22");
            return Vec::new();
        }
    };
    let mut reports = Vec::new();
    for spec in specs {
        let r = conformance::disassembly(spec, &llvm, 6, 0x5eed).unwrap_or_else(|e| panic!("{}: {e}", spec.generation));
        eprintln!("{what}: {r}");
        reports.push(r);
    }
    reports
}

fn check(reports: &[Report]) {
    let mut total = 0;
    for r in reports {
        for m in r.mismatches.iter().take(12) {
            eprintln!("{}: {m}", r.generation);
        }
        total += r.mismatches.len();
        assert!(r.cases > 0, "{}: no cases", r.generation);
    }
    let cases: usize = reports.iter().map(|r| r.cases).sum();
    eprintln!("disassembly vs llvm-mc: {cases} cases, {total} mismatches");
    assert_eq!(total, 0, "disassembly disagrees with llvm-mc");
}

#[test]
fn fixture_specs_disassemble_like_llvm() {
    let reports = run(isa_runtime::fixtures::specs(), "fixture");
    check(&reports);
}

#[test]
fn amd_specs_disassemble_like_llvm() {
    if isa_gen::specdir::real_xml_dir().is_none() {
        eprintln!("skipped: no AMD XML present; the fixture test covers the generator");
        return;
    }
    let reports = run(isa_runtime::specs(), "amd");
    check(&reports);
}
