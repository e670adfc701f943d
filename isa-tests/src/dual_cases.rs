//! Dual-issue (VOPD) conformance: random words for every pair of an X half and a Y half the
//! spec has, compared with llvm-mc both ways. Kept apart from [`crate::cases`], whose unit is
//! a form (one opcode); a VOPD word pairs two.
//!
//! A word draws every bit of every field of both halves (sources, destinations, the shared
//! literal); a field a half does not use is zero three times in four (LLVM rejects the word
//! otherwise, and so must we), and a source is the literal code one time in five.

use crate::cases::Rng;
use crate::conformance::Mismatch;
use crate::llvm_mc::{AsmResult, DisasmResult, LlvmMc, OracleError};
use isa_gen::Generation;
use isa_runtime::asm::dual::assemble_dual;
use isa_runtime::disasm::dual::disassemble;
use isa_runtime::dual::{self, dual_encodings, HALVES};
use isa_runtime::IsaSpec;
use std::collections::BTreeSet;
use std::fmt;

/// Both directions for one generation.
#[derive(Clone, Debug, Default)]
pub struct DualReport {
    pub generation: String,
    /// Distinct (X opcode, Y opcode) pairs the spec has, and how many got cases.
    pub pairs: usize,
    pub pairs_covered: usize,
    /// Bytes → text: cases, and the ones where both decode alike or both reject.
    pub words: usize,
    pub words_agree: usize,
    /// Words both reject (counted in `words_agree`).
    pub words_rejected: usize,
    /// Text → bytes: LLVM's texts assembled by both, agreeing on the bytes or on rejecting.
    pub lines: usize,
    pub lines_agree: usize,
    /// Lines both reject (bank, parity, constant bus rules; counted in `lines_agree`).
    pub lines_rejected: usize,
    pub mismatches: Vec<Mismatch>,
}

impl fmt::Display for DualReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {} of {} VOPD pairs covered; words {}/{} agree ({} rejected by both); lines {}/{} agree ({} rejected by both); {} mismatches",
            self.generation,
            self.pairs_covered,
            self.pairs,
            self.words_agree,
            self.words,
            self.words_rejected,
            self.lines_agree,
            self.lines,
            self.lines_rejected,
            self.mismatches.len()
        )
    }
}

/// The (X, Y) opcode pairs of the spec: every X half with every Y half of the encoding
/// without a literal.
pub fn pairs(spec: &IsaSpec) -> Vec<(u32, u32)> {
    let Some((base, _)) = dual_encodings(spec) else {
        return Vec::new();
    };
    let ops = |h: usize| -> BTreeSet<u32> {
        spec.dual_halves
            .iter()
            .filter(|d| d.encoding == base && d.half == HALVES[h])
            .map(|d| d.opcode)
            .collect()
    };
    let (xs, ys) = (ops(0), ops(1));
    xs.iter()
        .flat_map(|&x| ys.iter().map(move |&y| (x, y)))
        .collect()
}

/// A random word of the pair: every field drawn.
pub fn random_word(spec: &IsaSpec, pair: (u32, u32), rng: &mut Rng) -> Vec<u8> {
    let (base, _) = dual_encodings(spec).expect("a dual spec");
    let enc = &spec.encodings[base as usize];
    let halves = [pair.0, pair.1];
    let used: Vec<Vec<&str>> = (0..2)
        .map(|h| {
            let k = dual::find_half(spec, base, h, halves[h]).expect("pair from the spec");
            let d = &spec.dual_halves[k as usize];
            d.operands
                .iter()
                .filter_map(|o| o.field.map(|f| enc.fields[f as usize].name))
                .collect()
        })
        .collect();
    let mut bits = enc.fixed;
    for f in enc.fields {
        let Some(h) = dual::half_of_field(f.name) else {
            continue;
        };
        let value = if f.name.starts_with("OP") {
            halves[h] as u64
        } else if !used[h].contains(&f.name) && rng.chance(75) {
            0
        } else if f.name.starts_with("SRC") && rng.chance(20) {
            255
        } else {
            rng.next_u64()
        };
        // Every stored bit drawn (a padded destination's implied bit is not stored).
        bits = f.insert(bits, value);
    }
    let mut bytes = bits.to_le_bytes()[..8].to_vec();
    // The literal dword, when a source asks for it (LLVM then reads it; without, the case
    // ends with the word so that llvm-mc's length is the word's).
    let src = |name: &str| dual::field_of(enc, name).map_or(0, |f| f.extract(bits));
    if src("SRCX0") == 255 || src("SRCY0") == 255 {
        bytes.extend_from_slice(&(rng.next_u64() as u32).to_le_bytes());
    }
    bytes
}

/// Compares `per_pair` random words of every pair with llvm-mc, both ways.
pub fn compare(
    spec: &'static IsaSpec,
    llvm: &LlvmMc,
    per_pair: usize,
    seed: u64,
) -> Result<DualReport, OracleError> {
    let gen = Generation::from_name(spec.generation).expect("known generation");
    let mut rng = Rng::new(seed);
    let all = pairs(spec);
    let mut report = DualReport {
        generation: spec.generation.to_string(),
        pairs: all.len(),
        ..Default::default()
    };
    let mut words = Vec::new();
    for &p in &all {
        for _ in 0..per_pair {
            words.push((p, random_word(spec, p, &mut rng)));
        }
    }
    let bytes: Vec<Vec<u8>> = words.iter().map(|w| w.1.clone()).collect();
    let batch = llvm.disassemble(gen, &bytes)?;
    let mut covered = BTreeSet::new();
    let mut texts = Vec::new();
    for ((pair, b), r) in words.iter().zip(&batch.results) {
        let ours = dual::decode(spec, b);
        let name = format!("VOPD OPX={} OPY={}", pair.0, pair.1);
        report.words += 1;
        let (agree, ours_text, llvm_text) = match (&ours, r) {
            (Ok((d, n)), DisasmResult::Decoded(l)) => {
                let t = disassemble(d);
                let same = t == l.text && *n == l.consumed;
                if same {
                    covered.insert(*pair);
                    texts.push((name.clone(), b[..*n].to_vec(), t.clone()));
                }
                (same, t, l.text.clone())
            }
            (Err(e), DisasmResult::Invalid) => {
                report.words_rejected += 1;
                (true, e.to_string(), "<invalid>".into())
            }
            (Ok((d, _)), other) => (false, disassemble(d), format!("{other:?}")),
            (Err(e), DisasmResult::Decoded(l)) => (false, e.to_string(), l.text.clone()),
            (Err(e), other) => (false, e.to_string(), format!("{other:?}")),
        };
        if agree {
            report.words_agree += 1;
        } else {
            report.mismatches.push(Mismatch {
                form: name,
                family: "VOPD",
                nonzero: Vec::new(),
                bytes: b.clone(),
                ours: ours_text,
                llvm: llvm_text,
            });
        }
    }
    report.pairs_covered = covered.len();

    // Text → bytes: LLVM's texts (which may break the pairing rules: the disassembler does
    // not check them) assembled by both.
    let lines: Vec<String> = texts.iter().map(|t| t.2.clone()).collect();
    let asm = llvm.assemble(gen, &lines)?;
    for ((name, b, line), r) in texts.iter().zip(&asm.results) {
        report.lines += 1;
        let ours = assemble_dual(spec, line);
        let (agree, ours_text, llvm_text) = match (&ours, r) {
            (Ok(d), AsmResult::Encoded { .. }) => {
                let lb = r.bytes().unwrap_or_default();
                (
                    d.encode() == lb,
                    format!("{:02x?}", d.encode()),
                    format!("{lb:02x?}"),
                )
            }
            (Err(e), AsmResult::Error(diags)) => {
                report.lines_rejected += 1;
                let l = diags
                    .first()
                    .map_or(String::new(), |d| format!("{}: {}", d.column, d.message));
                // Same rule, same place.
                let same = diags
                    .first()
                    .is_some_and(|d| d.message == e.message && d.column == e.column);
                (same, format!("{}: {}", e.column, e.message), l)
            }
            (Ok(d), other) => (false, format!("{:02x?}", d.encode()), format!("{other:?}")),
            (Err(e), other) => (false, e.to_string(), format!("{other:?}")),
        };
        if agree {
            report.lines_agree += 1;
        } else {
            report.mismatches.push(Mismatch {
                form: format!("{name} `{line}`"),
                family: "VOPD",
                nonzero: Vec::new(),
                bytes: b.clone(),
                ours: ours_text,
                llvm: llvm_text,
            });
        }
    }
    Ok(report)
}
