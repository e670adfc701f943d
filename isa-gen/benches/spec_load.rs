//! Spec loading throughput: XML → schema (read) and XML → checked model (load + validate), on
//! the largest real spec available and on a full-scale synthetic spec (about 15 MB).
//!
//! Targets (issue 2): ≥ 150 MB/s for XML to model; load + validate of 15 MB under 0.3 s.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::path::Path;
use std::time::Instant;

fn inputs() -> Vec<(String, Vec<u8>)> {
    let mut out = vec![(
        "synthetic-1500".to_string(),
        isa_gen::synth::synthetic_spec(1500).into_bytes(),
    )];
    if let Some(dir) = isa_gen::specdir::real_xml_dir() {
        if let Ok(files) = isa_gen::specdir::list_files(&dir.path, "xml") {
            if let Some(largest) = files
                .iter()
                .max_by_key(|(p, _)| std::fs::metadata(p).map(|m| m.len()).unwrap_or(0))
            {
                let name = largest
                    .0
                    .file_name()
                    .unwrap()
                    .to_string_lossy()
                    .into_owned();
                out.push((name, std::fs::read(&largest.0).unwrap()));
            }
        }
    } else {
        eprintln!("note: no AMD XML present; benchmarking the synthetic spec only");
    }
    out
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("spec_load");
    group.sample_size(10);
    for (name, bytes) in inputs() {
        group.throughput(Throughput::Bytes(bytes.len() as u64));
        group.bench_function(format!("read/{name}"), |b| {
            b.iter(|| isa_gen::xml::read_spec(Path::new("bench.xml"), &bytes))
        });
        group.bench_function(format!("load+validate/{name}"), |b| {
            b.iter(|| isa_gen::model::load_bytes(Path::new("bench.xml"), &bytes))
        });
        // One plain figure per input, for the closing note.
        let t = Instant::now();
        let spec = isa_gen::model::load_bytes(Path::new("bench.xml"), &bytes);
        let dt = t.elapsed().as_secs_f64();
        eprintln!(
            "{name}: {:.1} MB, {} instructions, load+validate {:.3} s = {:.0} MB/s",
            bytes.len() as f64 / 1e6,
            spec.instructions.len(),
            dt,
            bytes.len() as f64 / dt / 1e6
        );
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
