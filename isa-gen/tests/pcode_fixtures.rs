//! The project's own pseudocode samples (spec/fixtures/pcode, written for these tests): every
//! entry lands in the class it was written for, diagnostics point at the right file position,
//! and the report's JSON has its documented fields. Runs on a fresh machine.

use isa_gen::pcode::corpus::{load_corpus, Class, GenerationCorpus};
use isa_gen::pcode::prose::{FailureCause, ProseKind};
use isa_gen::pcode::report;
use isa_gen::specdir::fixture_pcode_dir;
use isa_gen::Generation;

fn fixtures() -> isa_gen::pcode::Corpus {
    load_corpus(&fixture_pcode_dir()).expect("spec/fixtures/pcode is readable")
}

fn class_of<'c>(g: &'c GenerationCorpus, name: &str) -> &'c Class {
    &g.entries
        .iter()
        .find(|e| e.name == name)
        .unwrap_or_else(|| panic!("no fixture entry {name}"))
        .class
}

#[test]
fn every_sample_has_the_class_it_was_written_for() {
    let corpus = fixtures();
    let g = corpus.generation(Generation::Rdna4).expect("rdna4 samples");
    let typed = [
        "S_SAMPLE_ADD_U32",
        "S_SAMPLE_CARRY_U32",
        "S_SAMPLE_BITS_B32",
        "S_SAMPLE_COUNT_B32",
        "S_SAMPLE_FIRST_B32",
        "V_SAMPLE_SCALE_F32",
        "V_SAMPLE_PACK_B32",
        "V_SAMPLE_MEDIAN_U32",
        "V_SAMPLE_CLAMP_I16",
        "DS_SAMPLE_SWAP_B32",
        "V_SAMPLE_SPREAD_B32",
        "V_SAMPLE_WAIT_B32",
        "S_SAMPLE_TRAP",
        "S_SAMPLE_WITH_EXAMPLE_B32",
    ];
    for name in typed {
        assert!(
            matches!(class_of(g, name), Class::Typed { .. }),
            "{name}: {:?}",
            class_of(g, name).label()
        );
    }
    for (name, kind) in [
        ("V_SAMPLE_MATRIX_F32", ProseKind::MatrixNotation),
        ("S_SAMPLE_WAIT_EXAMPLE", ProseKind::AssemblyExample),
        ("S_SAMPLE_TABLE", ProseKind::Table),
    ] {
        match class_of(g, name) {
            Class::Prose { kind: k, .. } => assert_eq!(*k, kind, "{name}"),
            other => panic!("{name} is {}", other.label()),
        }
    }
    for (name, cause) in [
        ("DS_SAMPLE_PHRASE", FailureCause::EnglishPhrase),
        ("DS_SAMPLE_CUT", FailureCause::Truncated),
    ] {
        match class_of(g, name) {
            Class::Failed { cause: c, .. } => assert_eq!(*c, cause, "{name}"),
            other => panic!("{name} is {}", other.label()),
        }
    }
    for (name, code) in [
        ("V_SAMPLE_UNDECLARED_U32", "undeclared"),
        ("V_SAMPLE_UNKNOWN_HELPER_U32", "unknown-helper"),
        ("V_SAMPLE_CONCAT_WIDTH", "width-mismatch"),
    ] {
        match class_of(g, name) {
            Class::Parsed { errors, .. } => assert_eq!(errors[0].code, code, "{name}"),
            other => panic!("{name} is {}", other.label()),
        }
    }
    assert_eq!(
        g.entries.len(),
        typed.len() + 3 + 2 + 3,
        "a sample was added without a check"
    );
    assert!(g.layout_problems.is_empty());
}

#[test]
fn rdna2_samples_use_the_old_dialect() {
    let corpus = fixtures();
    let g = corpus.generation(Generation::Rdna2).expect("rdna2 samples");
    for e in &g.entries {
        let expected = match e.name.as_str() {
            "S_SAMPLE_WAITCNT" => "prose",
            "V_SAMPLE_CHAINED_F32" => "parsed",
            _ => "typed",
        };
        assert_eq!(e.class.label(), expected, "{}", e.name);
    }
    match class_of(g, "V_SAMPLE_CHAINED_F32") {
        Class::Parsed { errors, .. } => assert_eq!(errors[0].code, "bool-compared"),
        other => panic!("{}", other.label()),
    }
    match class_of(g, "V_SAMPLE_KIND_F32") {
        Class::Typed { warnings, .. } => assert_eq!(warnings[0].code, "either-sign"),
        other => panic!("{}", other.label()),
    }
}

#[test]
fn diagnostics_point_at_file_lines_and_columns() {
    let corpus = fixtures();
    let g = corpus.generation(Generation::Rdna4).expect("rdna4 samples");
    let text = std::fs::read_to_string(&g.file).expect("fixture readable");
    let lines: Vec<&str> = text.lines().collect();
    match class_of(g, "V_SAMPLE_UNDECLARED_U32") {
        Class::Parsed { errors, .. } => {
            let d = &errors[0];
            let line = lines[d.line as usize - 1];
            assert_eq!(&line[d.column as usize - 1..], "mystery");
            assert_eq!(d.found, "mystery");
            assert_eq!(d.entry, "V_SAMPLE_UNDECLARED_U32");
        }
        other => panic!("{}", other.label()),
    }
    match class_of(g, "DS_SAMPLE_PHRASE") {
        Class::Failed { error, .. } => {
            let line = lines[error.line as usize - 1];
            assert!(
                line[error.column as usize - 1..].starts_with("lanes"),
                "{line}"
            );
            assert!(
                error.expected.iter().any(|e| e == "operator"),
                "{:?}",
                error.expected
            );
        }
        other => panic!("{}", other.label()),
    }
    let trailing = g
        .entries
        .iter()
        .find(|e| e.name == "S_SAMPLE_WITH_EXAMPLE_B32")
        .and_then(|e| e.trailing.clone());
    let trailing = trailing.expect("the example after the code is noted");
    assert!(lines[trailing.first_line as usize - 1].starts_with("s_sample_with_example_b32"));
}

#[test]
fn report_counts_add_up_and_json_has_the_documented_fields() {
    let corpus = fixtures();
    let r = report::build(&corpus, "fixture");
    for g in &r.generations {
        assert_eq!(
            g.typed + g.parsed + g.prose + g.failed,
            g.entries,
            "{}",
            g.generation
        );
        assert_eq!(g.code_entries, g.entries - g.prose);
        assert_eq!(g.failures.len(), g.failed);
        assert_eq!(g.prose_entries.len(), g.prose);
    }
    let rdna4 = r
        .generations
        .iter()
        .find(|g| g.generation == "rdna4")
        .expect("rdna4");
    assert_eq!(
        (rdna4.typed, rdna4.parsed, rdna4.prose, rdna4.failed),
        (14, 3, 3, 2)
    );
    let frob = rdna4
        .helpers
        .iter()
        .find(|h| h.name == "frobnicate")
        .expect("unknown helper listed");
    assert!(!frob.known);
    assert!(rdna4
        .helpers
        .iter()
        .any(|h| h.name == "fma" && h.arity == 3 && h.known));

    let json = serde_json::to_value(&r).expect("report serialises");
    let g = &json["generations"][0];
    for field in [
        "generation",
        "file",
        "entries",
        "typed",
        "parsed",
        "prose",
        "failed",
        "overridden",
        "explained",
        "accounted",
        "code_entries",
        "parse_rate",
        "type_rate",
        "helpers",
        "prose_entries",
        "failures",
        "type_errors",
        "trailing_prose",
        "causes",
        "layout_problems",
    ] {
        assert!(g.get(field).is_some(), "missing field {field}");
    }
    assert_eq!(json["source"], "fixture");
    let text = report::render_text(&r);
    assert!(text.contains("rdna4.pcode:"), "{text}");
    assert!(text.contains("[parse:truncated]"), "{text}");
}
