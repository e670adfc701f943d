//! Bad assembly text never panics the assembler: lines printed by the disassembler for random
//! valid instructions of every fixture spec, then damaged (cut, characters inserted or
//! replaced, tokens swapped or dropped), are assembled; each result is either an instruction
//! that disassembles to a line the assembler reads back to the same bits, or an error whose
//! column lies inside the line; the program reader (labels, comments) around such lines
//! places or reports each of them.

use isa_runtime::{assemble_instruction, disassemble, IsaSpec};
use isa_tests::cases;
use proptest::prelude::*;
use std::sync::OnceLock;

/// (spec, a disassembled line) for a sample of every form of every fixture spec.
fn lines() -> &'static Vec<(&'static IsaSpec, String)> {
    static LINES: OnceLock<Vec<(&'static IsaSpec, String)>> = OnceLock::new();
    LINES.get_or_init(|| {
        let mut out = Vec::new();
        for spec in isa_runtime::fixtures::specs() {
            let (instances, _) = cases::generate(spec, 1, 0xbad);
            out.extend(instances.iter().map(|i| (spec, disassemble(i))));
        }
        out
    })
}

/// Characters that mean something to the assembler, and some that do not.
const ALPHABET: &[char] = &[
    ',', ' ', ':', '[', ']', '(', ')', '-', '|', '"', 'x', 'v', 's', '0', '9', 'ÿ', '\t', '.',
];

#[derive(Debug, Clone)]
enum Damage {
    Cut(usize),
    Insert(usize, usize),
    Replace(usize, usize),
    SwapTokens(usize, usize),
    DropToken(usize),
}

fn damage() -> impl Strategy<Value = Damage> {
    prop_oneof![
        any::<usize>().prop_map(Damage::Cut),
        (any::<usize>(), 0..ALPHABET.len()).prop_map(|(a, c)| Damage::Insert(a, c)),
        (any::<usize>(), 0..ALPHABET.len()).prop_map(|(a, c)| Damage::Replace(a, c)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Damage::SwapTokens(a, b)),
        any::<usize>().prop_map(Damage::DropToken),
    ]
}

fn apply(line: &str, d: &Damage) -> String {
    let chars: Vec<char> = line.chars().collect();
    let at = |k: usize, extra: usize| k % (chars.len() + extra).max(1);
    match *d {
        Damage::Cut(k) => chars[..at(k, 1)].iter().collect(),
        Damage::Insert(k, c) => {
            let mut v = chars.clone();
            v.insert(at(k, 1), ALPHABET[c]);
            v.into_iter().collect()
        }
        Damage::Replace(k, c) => {
            let mut v = chars.clone();
            if !v.is_empty() {
                let i = at(k, 0);
                v[i] = ALPHABET[c];
            }
            v.into_iter().collect()
        }
        Damage::SwapTokens(a, b) => {
            let mut t: Vec<&str> = line.split(' ').collect();
            let (i, j) = (a % t.len(), b % t.len());
            t.swap(i, j);
            t.join(" ")
        }
        Damage::DropToken(a) => {
            let mut t: Vec<&str> = line.split(' ').collect();
            t.remove(a % t.len());
            t.join(" ")
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn damaged_lines_give_an_instruction_or_a_located_error(
        pick in any::<usize>(),
        hits in prop::collection::vec(damage(), 1..4),
    ) {
        let all = lines();
        prop_assume!(!all.is_empty());
        let (spec, line) = &all[pick % all.len()];
        let mut text = line.clone();
        for d in &hits {
            text = apply(&text, d);
        }
        match assemble_instruction(spec, &text) {
            Ok(ins) => {
                // Whatever was accepted reads back: its own text assembles to the same bits.
                let again = assemble_instruction(spec, &disassemble(&ins));
                prop_assert_eq!(again.map(|i| i.bits).ok(), Some(ins.bits), "{} -> {}", text, disassemble(&ins));
            }
            Err(e) => {
                prop_assert!(e.column >= 1 && e.column <= text.chars().count() + 1,
                    "column {} outside `{}`: {}", e.column, text, e.message);
                prop_assert!(!e.message.is_empty());
            }
        }
        // The program reader around it: a label before the first copy, a comment after the
        // second; every error names one of the two lines.
        let program = format!("top: {text}\n{text} // again\n");
        let (placed, errors) = isa_runtime::assemble_listing(spec, &program);
        prop_assert!(errors.iter().all(|e| (1..=2).contains(&e.line) && e.column >= 1), "{:?}", errors);
        for line in 1..=2 {
            prop_assert!(
                !(placed.iter().any(|l| l.line == line) && errors.iter().any(|e| e.line == line)),
                "line {} both placed and in error", line
            );
        }
        // A line the line assembler takes (and that the program reader reads the same way:
        // no label, comment or directive syntax in it) is placed.
        let plain = !text.contains([':', ';', '.']) && !text.contains("//");
        if plain && assemble_instruction(spec, &text).is_ok() {
            prop_assert!(placed.iter().any(|l| l.line == 2), "`{}` not placed", text);
        }
    }
}

#[test]
fn the_sample_covers_every_fixture_spec() {
    let specs: std::collections::BTreeSet<&str> =
        lines().iter().map(|(s, _)| s.generation).collect();
    assert_eq!(specs.len(), isa_runtime::fixtures::specs().len());
}

/// Errors say what kind of problem they are, for a caller to act on (issue 10): the kinds of
/// a few bad lines and programs of RDNA 3.
#[test]
fn errors_carry_a_kind() {
    use isa_runtime::AsmErrorKind as K;
    let Some(spec) = isa_runtime::spec("rdna3") else {
        eprintln!("skipped: no rdna3 spec in this build");
        return;
    };
    if spec.instruction_by_name("S_MOV_B32").is_none() {
        eprintln!("skipped: no S_MOV_B32 in the loaded rdna3 spec");
        return;
    }
    assert!(assemble_instruction(spec, "s_mov_b32 s0, s1").is_ok());
    let lines = [
        ("s_mov_b32 s0, s1 ÿ", K::Syntax),
        ("s_bogus_b32 s0, s1", K::UnknownMnemonic),
        ("s_mov_b32 s0, bogus", K::BadOperand { index: 1 }),
        ("s_mov_b32 v0, s1", K::BadOperand { index: 0 }),
        ("s_mov_b32 s0, s1 bogus:3", K::BadOperand { index: 2 }),
        ("s_mov_b32 s1 s0", K::NoMatchingForm),
    ];
    for (text, kind) in lines {
        let e = assemble_instruction(spec, text).unwrap_err();
        assert_eq!(e.kind, kind, "{text}: {e}");
        assert!(!e.message.is_empty(), "{text}");
    }
    let programs = [
        (".bogus 1", K::UnknownDirective),
        (".long 0x1ffffffff", K::Syntax),
        ("top:\ntop:\ns_mov_b32 s0, s1", K::DuplicateLabel),
        ("s_mov_b32 s0, bogus", K::BadOperand { index: 1 }),
    ];
    for (text, kind) in programs {
        let (_, errors) = isa_runtime::assemble_listing(spec, text);
        let kinds: Vec<K> = errors.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, [kind], "{text}: {errors:?}");
    }
}
