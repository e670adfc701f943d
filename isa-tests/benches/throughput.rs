//! Decoder and disassembler throughput, with llvm-mc's on the same corpus in the same run.
//!
//! Targets (issue 3): decode-only above 100 million words/s; disassembly to text at least 20×
//! llvm-mc's words/s. Figures are printed as plain lines too (`figure: ...`).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use isa_gen::Generation;
use isa_runtime::{decode, disassemble, IsaSpec};
use isa_tests::cases::Rng;
use isa_tests::llvm_mc::LlvmMc;
use std::fmt::Write as _;
use std::hint::black_box;
use std::time::Instant;

const WORDS: usize = 65_536;

fn random_corpus(seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut v = Vec::with_capacity(WORDS * 4 + 16);
    for _ in 0..WORDS / 2 + 2 {
        v.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    v
}

/// Decodes the instruction starting at every dword of the corpus (as llvm-mc does with one
/// word per case).
fn decode_all(spec: &'static IsaSpec, corpus: &[u8]) -> usize {
    let mut ok = 0;
    for k in 0..WORDS {
        if decode(spec, black_box(&corpus[k * 4..])).is_ok() {
            ok += 1;
        }
    }
    ok
}

/// Text for every dword: the instruction, or the error (llvm-mc prints a warning for those).
fn disassemble_all(spec: &'static IsaSpec, corpus: &[u8], out: &mut String) {
    out.clear();
    for k in 0..WORDS {
        match decode(spec, &corpus[k * 4..]) {
            Ok((ins, _)) => out.push_str(&disassemble(&ins)),
            Err(e) => {
                let _ = write!(out, "{e}");
            }
        }
        out.push('\n');
    }
}

fn specs() -> Vec<&'static IsaSpec> {
    let mut s = isa_runtime::specs();
    if s.is_empty() {
        s = isa_runtime::fixtures::specs();
    }
    // The generations the issue names first, then the rest.
    s.sort_by_key(|x| (x.generation != "rdna3", x.generation));
    s
}

fn bench(c: &mut Criterion) {
    let corpus = random_corpus(7);
    let llvm = LlvmMc::find().ok();
    let mut group = c.benchmark_group("throughput");
    group.sample_size(10);
    group.throughput(Throughput::Elements(WORDS as u64));
    for spec in specs().into_iter().take(3) {
        group.bench_function(format!("decode/{}", spec.generation), |b| {
            b.iter(|| decode_all(spec, &corpus))
        });
        let mut text = String::with_capacity(WORDS * 40);
        group.bench_function(format!("disassemble/{}", spec.generation), |b| {
            b.iter(|| disassemble_all(spec, &corpus, &mut text))
        });

        // Plain side-by-side figures in one run.
        let t = Instant::now();
        let mut n = 0;
        for _ in 0..20 {
            n += decode_all(spec, &corpus);
        }
        let decode_rate = 20.0 * WORDS as f64 / t.elapsed().as_secs_f64();
        let t = Instant::now();
        for _ in 0..5 {
            disassemble_all(spec, &corpus, &mut text);
        }
        let disasm_rate = 5.0 * WORDS as f64 / t.elapsed().as_secs_f64();
        let gen = Generation::from_name(spec.generation).unwrap();
        let llvm_rate = llvm.as_ref().and_then(|l| {
            let words: Vec<u32> = corpus
                .chunks(4)
                .take(20_000)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            l.measure_disasm_throughput(gen, &words).ok()
        });
        eprintln!(
            "figure: {} ({}): decode {:.1} M words/s ({} of {} words decode), disassemble {:.2} M words/s{}",
            spec.generation,
            gen.llvm_mcpu(),
            decode_rate / 1e6,
            n / 20,
            WORDS,
            disasm_rate / 1e6,
            match llvm_rate {
                Some(r) => format!(", llvm-mc {:.0} words/s, ratio {:.0}x", r, disasm_rate / r),
                None => ", llvm-mc not available".to_string(),
            }
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
