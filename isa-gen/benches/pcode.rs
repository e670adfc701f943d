//! Parsing and typing the whole pseudocode corpus: every entry of every generation's file is
//! split, parsed, type-checked (or found to be prose) in one iteration. Reads AMD's files when
//! present, the project's samples otherwise (the printed source says which).
//! Target: under 0.5 s for the four generations (RDNA2, RDNA3.5, RDNA4, CDNA4).

use criterion::{criterion_group, criterion_main, Criterion};
use isa_gen::pcode::corpus::classify_text;
use isa_gen::specdir::{list_files, pcode_dir};
use std::hint::black_box;

fn corpus(c: &mut Criterion) {
    let dir = pcode_dir();
    let files: Vec<_> = list_files(&dir.path, "pcode")
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(path, generation)| {
            Some((std::fs::read_to_string(&path).ok()?, path, generation))
        })
        .collect();
    let entries: usize = files
        .iter()
        .map(|(text, path, g)| classify_text(text, path, *g).entries.len())
        .sum();
    eprintln!(
        "pcode bench: {} files, {entries} entries from {} ({:?})",
        files.len(),
        dir.path.display(),
        dir.source
    );
    let mut group = c.benchmark_group("pcode");
    group.sample_size(10);
    group.bench_function("parse_and_type_all_generations", |b| {
        b.iter(|| {
            let mut typed = 0usize;
            for (text, path, generation) in &files {
                let g = classify_text(black_box(text), path, *generation);
                typed += g
                    .entries
                    .iter()
                    .filter(|e| e.class.label() == "typed")
                    .count();
            }
            black_box(typed)
        })
    });
    group.finish();
}

criterion_group!(benches, corpus);
criterion_main!(benches);
