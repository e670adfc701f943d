//! The emulator on whole kernels: the vector add and the ALU-heavy loop of
//! `isa-tests/kernels/`, assembled and run exactly as `amdisa run` does, with the generated
//! executors, on the fixture specs (rdna3 wave32, cdna3 wave64). Reports wave-instructions/s
//! and lane-ops/s (one lane-op = one vector instruction on one active lane), first as plain
//! figures, then through criterion (throughput in lane-ops). Target: ≥ 100 M lane-ops/s on
//! one core.
//!
//! `cargo bench -p isa-runtime --features fixtures --bench exec_kernels`

#[allow(dead_code)]
#[path = "../src/bin/amdisa/launch.rs"]
mod launch;
#[allow(dead_code)]
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use isa_runtime::exec::dispatch::{Program, Tracer};
use isa_runtime::exec::{Decoded, ExecError, Flow, Wave};
use isa_runtime::IsaSpec;
use launch::{Arg, BufferSpec, ElemType, Init, Launch};
use std::time::{Duration, Instant};

const KERNELS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../isa-tests/kernels");

fn fixture(generation: &str) -> &'static IsaSpec {
    isa_runtime::fixtures::specs()
        .into_iter()
        .find(|s| s.generation == generation)
        .expect("fixture spec")
}

fn syntax(spec: &IsaSpec) -> &'static str {
    if spec.generation.starts_with("cdna") {
        "gfx9"
    } else {
        "gfx11"
    }
}

fn program(spec: &'static IsaSpec, kernel: &str) -> Program {
    let path = format!("{KERNELS}/{kernel}.{}.s", syntax(spec));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let code = isa_runtime::assemble(spec, &text).unwrap_or_else(|e| panic!("{path}:{}", e[0]));
    let table = launch::executor_table(spec).unwrap_or_else(|e| panic!("{e}"));
    Program::load(spec, &code, 0, &table)
}

/// Counts vector lane-ops (active lanes of every non-scalar instruction) in one run.
#[derive(Default)]
struct LaneOps(u64);

impl Tracer for LaneOps {
    fn before(&mut self, w: &Wave, d: &Decoded) {
        let enc = d.encoding().name;
        if !(enc.contains("SOP") || enc.contains("SMEM")) {
            self.0 += w.exec_mask().count_ones() as u64;
        }
    }
    fn after(&mut self, _: &Wave, _: &Decoded, _: &Result<Flow, ExecError>) {}
}

fn vector_add(n: u32) -> Launch {
    Launch {
        buffers: vec![
            BufferSpec {
                name: "a".into(),
                count: n as usize,
                ty: ElemType::F32,
                init: Init::Random(1),
            },
            BufferSpec {
                name: "b".into(),
                count: n as usize,
                ty: ElemType::F32,
                init: Init::Random(2),
            },
            BufferSpec {
                name: "out".into(),
                count: n as usize,
                ty: ElemType::F32,
                init: Init::Zero,
            },
        ],
        args: vec![
            Arg::Buffer("a".into()),
            Arg::Buffer("b".into()),
            Arg::Buffer("out".into()),
            Arg::U32(n),
        ],
        grid: [n.div_ceil(256), 1, 1],
        workgroup: [256, 1, 1],
        watch: None,
        max_steps: 1 << 32,
    }
}

fn alu_loop(groups: u32, trips: u32) -> Launch {
    Launch {
        buffers: vec![BufferSpec {
            name: "out".into(),
            count: groups as usize * 256,
            ty: ElemType::U32,
            init: Init::Zero,
        }],
        args: vec![Arg::Buffer("out".into()), Arg::U32(trips)],
        grid: [groups, 1, 1],
        workgroup: [256, 1, 1],
        watch: None,
        max_steps: 1 << 32,
    }
}

/// Prints wave-instructions/s and lane-ops/s from the best of a few timed runs.
fn plain_figures(name: &str, program: &Program, setup: &Launch) -> u64 {
    let mut counter = LaneOps::default();
    let mut memory = launch::prepare(setup).unwrap();
    let (stats, _) = launch::execute(program, setup, &mut memory, Some(&mut counter))
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    // Both kernels give the same result when run again on their own output.
    let mut best = Duration::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        launch::execute(program, setup, &mut memory, None).unwrap();
        best = best.min(t.elapsed());
    }
    let s = best.as_secs_f64();
    println!(
        "{name:<24} {:>10} wave-instructions {:>11} lane-ops in {:>8.2} ms: {:>7.1} M wave-instructions/s, {:>7.1} M lane-ops/s",
        stats.instructions,
        counter.0,
        s * 1e3,
        stats.instructions as f64 / s / 1e6,
        counter.0 as f64 / s / 1e6
    );
    counter.0
}

fn bench(c: &mut Criterion) {
    let timed = std::env::args().any(|a| a == "--bench");
    for generation in ["rdna3", "cdna3"] {
        let spec = fixture(generation);
        let wave = if spec.wave64 { 64 } else { 32 };
        for (kernel, setup) in [
            ("vector_add", vector_add(1 << 18)),
            ("alu_loop", alu_loop(16, 256)),
        ] {
            let program = program(spec, kernel);
            let name = format!("{kernel}/{generation}_wave{wave}");
            // A kernel the generated executors cannot run yet is reported, not timed.
            if let Err(e) = launch::run(&program, &setup, None) {
                println!("{name:<24} skipped: {e}");
                continue;
            }
            let lane_ops = if timed {
                plain_figures(&name, &program, &setup)
            } else {
                let mut counter = LaneOps::default();
                launch::run(&program, &setup, Some(&mut counter)).unwrap();
                counter.0
            };
            // Memory is set up once: the timing is the emulator's, not the host's buffer fill.
            let mut memory = launch::prepare(&setup).unwrap();
            let mut g = c.benchmark_group("exec_kernels");
            g.throughput(Throughput::Elements(lane_ops));
            g.sample_size(10);
            g.bench_function(&name, |b| {
                b.iter(|| launch::execute(&program, &setup, &mut memory, None).unwrap())
            });
            g.finish();
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
