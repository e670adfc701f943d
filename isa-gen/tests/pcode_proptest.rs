//! Mutated pseudocode never panics the parser, the type checker or the classifier, and every
//! error carries a position inside the text. Mutates AMD's entries when the corpus is present,
//! the project's samples otherwise.

use isa_gen::pcode::corpus::{classify, split_entries, RawEntry};
use isa_gen::pcode::{parse_entry, typecheck, Context};
use isa_gen::specdir::{fixture_pcode_dir, list_files, real_pcode_dir};
use isa_gen::Generation;
use proptest::prelude::*;
use std::sync::OnceLock;

fn texts() -> &'static Vec<String> {
    static TEXTS: OnceLock<Vec<String>> = OnceLock::new();
    TEXTS.get_or_init(|| {
        let dir = real_pcode_dir()
            .map(|d| d.path)
            .unwrap_or_else(fixture_pcode_dir);
        let mut texts = Vec::new();
        for (path, _) in list_files(&dir, "pcode").unwrap_or_default() {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            texts.extend(split_entries(&text).0.into_iter().map(|e| e.text));
        }
        texts.sort();
        texts.dedup();
        assert!(!texts.is_empty(), "no pseudocode in {}", dir.display());
        texts
    })
}

/// One edit of a text: delete, insert or duplicate a range.
#[derive(Clone, Debug)]
enum Mutation {
    Delete { at: usize, len: usize },
    Insert { at: usize, what: String },
    Duplicate { at: usize, len: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let fragments = prop::sample::select(vec![
        "(",
        ")",
        "[",
        "]",
        "{",
        "}",
        ";",
        ".",
        ":",
        "?",
        "=",
        "==",
        "+:",
        "'",
        "32'U(",
        "if ",
        "then",
        "endif",
        "for i in 0 : 3 do",
        "endfor",
        "lambda(x) (",
        "return",
        "\n",
        "//",
        "\"",
        "0x",
        "1'1U",
        "-",
        "~",
        "**",
        "é",
        "\u{0}",
        "declare t : 32'B[4];",
        "MEM[",
        ".u32",
    ]);
    prop_oneof![
        (any::<usize>(), 0usize..40).prop_map(|(at, len)| Mutation::Delete { at, len }),
        (any::<usize>(), fragments).prop_map(|(at, what)| Mutation::Insert {
            at,
            what: what.to_string()
        }),
        (any::<usize>(), ".{0,12}").prop_map(|(at, what)| Mutation::Insert { at, what }),
        (any::<usize>(), 0usize..60).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
    ]
}

fn boundary(text: &str, at: usize) -> usize {
    let mut at = at % (text.len() + 1);
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn apply(text: &str, m: &Mutation) -> String {
    match m {
        Mutation::Delete { at, len } => {
            let a = boundary(text, *at);
            let b = boundary(text, (a + len).min(text.len()));
            format!("{}{}", &text[..a], &text[b.max(a)..])
        }
        Mutation::Insert { at, what } => {
            let a = boundary(text, *at);
            format!("{}{what}{}", &text[..a], &text[a..])
        }
        Mutation::Duplicate { at, len } => {
            let a = boundary(text, *at);
            let b = boundary(text, (a + len).min(text.len())).max(a);
            format!("{}{}", &text[..b], &text[a..])
        }
    }
}

fn check(text: &str) -> Result<(), TestCaseError> {
    let lines = text.split('\n').count() as u32;
    match parse_entry(text) {
        Ok(ast) => {
            for generation in [Some(Generation::Rdna2), Some(Generation::Rdna4)] {
                let ctx = Context {
                    mnemonic: "V_SAMPLE_B32",
                    generation,
                };
                if let Err(errors) = typecheck(&ast, &ctx) {
                    prop_assert!(!errors.is_empty());
                    for e in errors {
                        prop_assert!(
                            e.span.start <= e.span.end && e.span.end as usize <= text.len(),
                            "{e:?}"
                        );
                    }
                }
            }
        }
        Err(e) => {
            prop_assert!(
                e.offset <= text.len(),
                "offset {} past {}",
                e.offset,
                text.len()
            );
            prop_assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
            prop_assert!(e.column >= 1);
            prop_assert!(!e.message.is_empty() && !e.found.is_empty());
        }
    }
    let raw = RawEntry {
        family: "VOP3".into(),
        name: "V_SAMPLE_B32".into(),
        header_line: 1,
        text_line: 2,
        text: text.to_string(),
    };
    let entry = classify(&raw, Some(Generation::Rdna4));
    prop_assert!(!entry.class.label().is_empty());
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn mutated_entries_give_results_or_located_errors(
        pick in any::<prop::sample::Index>(),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let texts = texts();
        let mut text = texts[pick.index(texts.len())].clone();
        for m in &mutations {
            text = apply(&text, m);
        }
        check(&text)?;
    }

    #[test]
    fn arbitrary_text_gives_results_or_located_errors(text in "(?s).{0,200}") {
        check(&text)?;
    }
}

#[test]
fn lambdas_calling_lambdas_deeply_are_an_error_not_a_crash() {
    let mut text = String::from("L0 = lambda(x) (x + 1);\n");
    for i in 1..200 {
        text.push_str(&format!("L{i} = lambda(x) (L{}(x) + 1);\n", i - 1));
    }
    text.push_str("D0.u32 = L199(S0.u32)");
    let ast = parse_entry(&text).expect("parses");
    let ctx = Context {
        mnemonic: "V_SAMPLE_U32",
        generation: Some(Generation::Rdna4),
    };
    let errors = typecheck(&ast, &ctx).expect_err("too deep");
    assert!(
        errors.iter().any(|e| e.code == "lambda-depth"),
        "{errors:?}"
    );
}

#[test]
fn deep_nesting_and_long_chains_are_errors_not_crashes() {
    for text in [
        format!("x = {}1{}", "(".repeat(3000), ")".repeat(3000)),
        format!("x = 1{}", " + 1".repeat(5000)),
        format!("x = {}1", "-".repeat(5000)),
        format!(
            "{}x = 1{}",
            "if c then\n".repeat(500),
            "\nendif".repeat(500)
        ),
        format!("x = {}", "a ? b : ".repeat(2000) + "c"),
    ] {
        let e = parse_entry(&text).expect_err("too deep to accept");
        assert!(e.offset <= text.len());
        assert!(
            e.message.contains("deep") || !e.expected.is_empty(),
            "{}",
            e.message
        );
    }
}
