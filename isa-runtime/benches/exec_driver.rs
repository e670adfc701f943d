//! Driver and VGPR-loop overhead: a loop of vector adds run through the dispatch driver with
//! the hand-written test executors, reported as lane-ops per second (one lane-op = one
//! vector instruction on one active lane). Target for the final emulator: ≥ 100 M/s on one
//! core. Run: `cargo bench -p isa-runtime --features fixtures --bench exec_driver`.

#[path = "../tests/exec_support/mod.rs"]
mod exec_support;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use exec_support::{table, Asm, Val};
use isa_runtime::exec::dispatch::{DispatchConfig, Program};
use isa_runtime::exec::{dispatch, FlatMemory};
use isa_runtime::IsaSpec;

const ITERATIONS: u32 = 64;
const ADDS_PER_ITERATION: u32 = 8;

/// `ITERATIONS` × (`ADDS_PER_ITERATION` vector adds + 3 scalar loop instructions).
fn kernel(spec: &'static IsaSpec, add: &str) -> Vec<u8> {
    let mut a = Asm::new(spec);
    a.op(
        "s_mov_b32",
        &["ENC_SOP1"],
        &[("SDST", Val::S(10)), ("SSRC0", Val::I(ITERATIONS as i64))],
    );
    let top = a.here();
    for k in 0..ADDS_PER_ITERATION {
        a.op(
            add,
            &["ENC_VOP2"],
            &[
                ("VDST", Val::V(1 + k % 4)),
                ("SRC0", Val::V(0)),
                ("VSRC1", Val::V(1 + k % 4)),
            ],
        );
    }
    a.op(
        "s_sub_u32",
        &["ENC_SOP2"],
        &[
            ("SDST", Val::S(10)),
            ("SSRC0", Val::S(10)),
            ("SSRC1", Val::I(1)),
        ],
    )
    .op(
        "s_cmp_lg_u32",
        &["ENC_SOPC"],
        &[("SSRC0", Val::S(10)), ("SSRC1", Val::I(0))],
    );
    let back = ((top as i64 - (a.here() as i64 + 4)) / 4) as i16 as u16 as u64;
    a.op(
        "s_cbranch_scc1",
        &["ENC_SOPP"],
        &[("SIMM16", Val::Raw(back))],
    )
    .op("s_endpgm", &["ENC_SOPP"], &[]);
    a.bytes
}

fn bench_generation(c: &mut Criterion, generation: &str, add: &str) {
    let Some(spec) = isa_runtime::fixtures::specs()
        .into_iter()
        .find(|s| s.generation == generation)
    else {
        return;
    };
    let code = kernel(spec, add);
    let program = Program::load(spec, &code, 0x7000_0000, &table(spec));
    let mut mem = FlatMemory::new();
    let kernarg = mem.alloc(16, 256);
    // 8 workgroups of 256 work-items.
    let cfg = DispatchConfig::new(spec, [8, 1, 1], [256, 1, 1], kernarg);
    let lane_ops = 8 * 256 * ITERATIONS as u64 * ADDS_PER_ITERATION as u64;
    let stats = dispatch(&program, &cfg, &mut mem).expect("kernel runs");
    let lanes = cfg.lanes();
    let mut g = c.benchmark_group(format!("exec_driver/{generation}_wave{lanes}"));
    g.throughput(Throughput::Elements(lane_ops));
    g.bench_function(
        format!(
            "{add}_loop ({} instructions per dispatch)",
            stats.instructions
        ),
        |b| b.iter(|| dispatch(&program, &cfg, &mut mem).expect("kernel runs")),
    );
    g.finish();
}

fn driver(c: &mut Criterion) {
    bench_generation(c, "rdna3", "v_add_nc_u32");
    bench_generation(c, "cdna3", "v_add_u32");
}

criterion_group!(benches, driver);
criterion_main!(benches);
