//! `isa-gen diff` speed: comparing two loaded specs (the model comparison alone) and loading
//! plus comparing two files, on the shared full CDNA 3 and CDNA 4 files when present, otherwise
//! on the fixture pair. Prints one plain figure per input for the report.

use criterion::{criterion_group, criterion_main, Criterion};
use isa_gen::diff::{diff_specs, Options};
use isa_gen::{model, specdir};
use std::path::PathBuf;
use std::time::Instant;

fn inputs() -> Vec<(String, PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let fixtures = specdir::workspace_root().join("spec/fixtures/diff");
    out.push((
        "fixture-pair".to_string(),
        fixtures.join("old.xml"),
        fixtures.join("new.xml"),
    ));
    match specdir::shared_dir("xml-full") {
        Some(full) if full.join("amdgpu_isa_cdna4.xml").is_file() => out.push((
            "full-cdna3-vs-cdna4".to_string(),
            full.join("amdgpu_isa_cdna3.xml"),
            full.join("amdgpu_isa_cdna4.xml"),
        )),
        _ => eprintln!("note: no ../shared/spec-data/xml-full; benchmarking the fixture pair only"),
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("diff");
    group.sample_size(10);
    for (name, old_path, new_path) in inputs() {
        let old = model::load_file(&old_path).expect("old spec");
        let new = model::load_file(&new_path).expect("new spec");
        group.bench_function(format!("compare/{name}"), |b| {
            b.iter(|| diff_specs(&old, &new, Options::default()))
        });
        group.bench_function(format!("load+compare/{name}"), |b| {
            b.iter(|| {
                let o = model::load_file(&old_path).unwrap();
                let n = model::load_file(&new_path).unwrap();
                diff_specs(&o, &n, Options::default())
            })
        });
        let t = Instant::now();
        let d = diff_specs(&old, &new, Options::default());
        let compare = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let o = model::load_file(&old_path).unwrap();
        let n = model::load_file(&new_path).unwrap();
        let load = t.elapsed().as_secs_f64();
        drop((o, n));
        eprintln!(
            "{name}: {} changes; compare {:.1} ms, load both {:.1} ms",
            d.changes.len(),
            compare * 1e3,
            load * 1e3
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
