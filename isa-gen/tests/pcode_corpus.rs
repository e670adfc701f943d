//! AMD's pseudocode corpus, when present (the development machines and CI have it; set
//! AMD_ISA_PCODE_DIR or drop files in spec/pcode/ elsewhere): the targets per
//! generation, and every entry left over explained. Skipped, with a message, on a fresh machine.

use isa_gen::pcode::corpus::{load_corpus, Class};
use isa_gen::pcode::prose::FailureCause;
use isa_gen::pcode::{pretty, report};
use isa_gen::specdir::real_pcode_dir;
use std::sync::OnceLock;

/// Failures whose cause the classifier cannot name, each explained: (generation, entry, why).
const EXPLAINED_OTHER: &[(&str, &str, &str)] = &[
    (
        "rdna2",
        "DS_PERMUTE_B32",
        "`tmp[0..63] = 0`: a range of array elements, RDNA2 notation with no counterpart",
    ),
    (
        "rdna2",
        "DS_BPERMUTE_B32",
        "`tmp[0..63] = 0`: a range of array elements, RDNA2 notation with no counterpart",
    ),
];

/// The corpus, classified once for all tests; `None` (with a message) when absent.
fn corpus() -> Option<&'static isa_gen::pcode::Corpus> {
    static CORPUS: OnceLock<Option<isa_gen::pcode::Corpus>> = OnceLock::new();
    let corpus = CORPUS.get_or_init(|| {
        let dir = real_pcode_dir()?;
        Some(load_corpus(&dir.path).expect("pseudocode directory readable"))
    });
    if corpus.is_none() {
        eprintln!(
            "skipped: AMD's pseudocode not found (set AMD_ISA_PCODE_DIR or drop <gen>.pcode files in spec/pcode/)"
        );
    }
    corpus.as_ref()
}

#[test]
fn every_generation_types_at_least_95_percent_of_its_code() {
    let Some(corpus) = corpus() else { return };
    assert!(!corpus.generations.is_empty());
    for g in &corpus.generations {
        let r = report::generation_report(g);
        eprintln!(
            "{}: {} entries, {} typed, {} parsed, {} prose, {} failed; parsed {:.1}%, typed {:.1}% of code",
            r.generation,
            r.entries,
            r.typed,
            r.parsed,
            r.prose,
            r.failed,
            100.0 * r.parse_rate,
            100.0 * r.type_rate
        );
        assert!(
            r.type_rate >= 0.95,
            "{}: typed {:.3} of code entries",
            r.generation,
            r.type_rate
        );
        assert!(
            r.parse_rate >= 0.97,
            "{}: parsed {:.3} of code entries",
            r.generation,
            r.parse_rate
        );
    }
}

#[test]
fn every_failure_is_explained() {
    let Some(corpus) = corpus() else { return };
    for g in &corpus.generations {
        let r = report::generation_report(g);
        for f in &r.failures {
            if f.cause == FailureCause::Other.name() {
                assert!(
                    EXPLAINED_OTHER
                        .iter()
                        .any(|(gen, name, _)| *gen == r.generation && *name == f.name),
                    "{}:{}:{}: {} failed for an unnamed reason: {}",
                    r.generation,
                    f.line,
                    f.column,
                    f.name,
                    f.message
                );
            }
            assert!(!f.found.is_empty() && f.line > 0 && f.column > 0);
        }
        for p in &r.prose_entries {
            assert!(
                !p.text.is_empty(),
                "{}: prose without the line that shows it",
                p.name
            );
        }
    }
}

#[test]
fn classes_are_consistent_and_positions_lie_in_the_entries() {
    let Some(corpus) = corpus() else { return };
    for g in &corpus.generations {
        for e in &g.entries {
            let last_line = e.text_line + e.text.lines().count().max(1) as u32 - 1;
            match &e.class {
                Class::Typed { ir, warnings } => {
                    assert!(
                        !pretty::render(ir).is_empty() || e.text.trim().is_empty(),
                        "{}",
                        e.name
                    );
                    for w in warnings {
                        assert!(
                            (e.text_line..=last_line).contains(&w.line),
                            "{}: {w}",
                            e.name
                        );
                    }
                }
                Class::Parsed { errors, .. } => {
                    assert!(!errors.is_empty(), "{}", e.name);
                    for d in errors {
                        assert!(
                            (e.text_line..=last_line).contains(&d.line),
                            "{}: {d}",
                            e.name
                        );
                    }
                }
                Class::Prose { line, .. } => {
                    assert!((e.text_line..=last_line).contains(line), "{}", e.name)
                }
                Class::Failed { error, .. } => {
                    assert!(
                        (e.text_line..=last_line + 1).contains(&error.line),
                        "{}: {error}",
                        e.name
                    )
                }
            }
        }
    }
}

#[test]
fn helpers_used_are_collected_with_their_arities() {
    let Some(corpus) = corpus() else { return };
    for g in &corpus.generations {
        let r = report::generation_report(g);
        if r.typed == 0 {
            continue;
        }
        assert!(!r.helpers.is_empty(), "{}", r.generation);
        assert!(r.helpers.iter().all(|h| h.calls > 0));
        let unknown: Vec<_> = r.helpers.iter().filter(|h| !h.known).collect();
        assert!(
            unknown.len() * 20 <= r.helpers.len(),
            "{}: too many unknown helpers: {unknown:?}",
            r.generation
        );
    }
}

/// Every entry of AMD's text that does not parse is answered for by the project's override
/// layer: with its own pseudocode where the instruction can run, or with the reason it cannot.
#[test]
fn no_entry_fails_without_an_override_or_a_reason() {
    let Some(corpus) = corpus() else { return };
    let mut r = report::build(corpus, "test");
    let before: usize = r.generations.iter().map(|g| g.failed).sum();
    isa_gen::emit::executors::source::account_overrides(&mut r);
    for g in &r.generations {
        let left: Vec<&str> = g.failures.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(
            g.failed, 0,
            "{}: unaccounted failures {left:?}",
            g.generation
        );
        assert_eq!(g.overridden + g.explained, g.accounted.len());
        for a in &g.accounted {
            assert!(
                !a.reason.is_empty() && a.location.contains("spec/overrides"),
                "{a:?}"
            );
        }
    }
    let accounted: usize = r.generations.iter().map(|g| g.accounted.len()).sum();
    assert_eq!(
        accounted, before,
        "every failure moved to the accounted list"
    );
}
