//! Dual-issue (VOPD) words of every spec with V_DUAL_* instructions against llvm-mc, both
//! ways (see `isa_tests::dual_cases`). Any mismatch fails.

use isa_tests::dual_cases;
use isa_tests::llvm_mc::LlvmMc;

const PER_PAIR: usize = 400;
const SEED: u64 = 0xd0a1;

#[test]
fn vopd_pairs_agree_with_llvm_mc_both_ways() {
    let llvm = match LlvmMc::find() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("skipped: llvm-mc 22 not available ({e}); install llvm-22");
            return;
        }
    };
    let specs: Vec<_> = isa_runtime::specs()
        .into_iter()
        .filter(|s| !s.dual_halves.is_empty())
        .collect();
    if specs.is_empty() {
        eprintln!("skipped: no spec with V_DUAL_* instructions (AMD's data is absent)");
        return;
    }
    let mut failures = Vec::new();
    let mut rejected = 0;
    for spec in specs {
        let r = dual_cases::compare(spec, &llvm, PER_PAIR, SEED)
            .unwrap_or_else(|e| panic!("{}: {e}", spec.generation));
        eprintln!("vopd: {r}");
        for m in r.mismatches.iter().take(12) {
            eprintln!("  {m}");
        }
        assert!(r.pairs > 0 && r.pairs_covered == r.pairs, "{r}");
        assert!(r.lines > 0 && r.lines_rejected < r.lines, "{r}");
        rejected += r.lines_rejected;
        failures.extend(
            r.mismatches
                .iter()
                .take(20)
                .map(|m| format!("{}: {m}", r.generation)),
        );
    }
    // The pairing rules come up: some of LLVM's own texts break them.
    assert!(rejected > 0, "no line was rejected by both assemblers");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
