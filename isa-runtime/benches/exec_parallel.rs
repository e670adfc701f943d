//! Serial and parallel dispatch on clang-22 compiled kernels (a vector add of 2^22 floats
//! and a 256×256 matmul) on the generated CDNA 3 executors, beside the same work as a plain
//! Rust loop in the same run. Prints wave-instructions/s and lane-ops/s (wave-instructions
//! × 64: every wave of these kernels is full) and the emulator-to-native time ratio.
//!
//! Needs AMD's complete CDNA 3 file at build time and clang-22, ld.lld-22, llvm-objcopy-22;
//! says what is missing otherwise. `cargo bench -p isa-runtime --no-default-features
//! --features cdna3 --bench exec_parallel [-- THREADS]`.

#[path = "../tests/clang_raw/mod.rs"]
mod clang_raw;

use clang_raw::{cdna3, compile, config, kernargs, program};
use isa_runtime::exec::parallel::dispatch_parallel;
use isa_runtime::exec::FlatMemory;
use std::time::Instant;

const VECTOR_ADD: &str = r#"
__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void vadd(__global const float *a, __global const float *b, __global float *c) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  c[i] = a[i] + b[i];
}
"#;

const MATMUL: &str = r#"
__attribute__((reqd_work_group_size(256, 1, 1)))
__kernel void matmul(__global const float *a, __global const float *b, __global float *c, uint n) {
  uint id = __builtin_amdgcn_workgroup_id_x() * 256 + __builtin_amdgcn_workitem_id_x();
  uint i = id / n, j = id % n;
  float s = 0.0f;
  for (uint k = 0; k < n; k++) s += a[i * n + k] * b[k * n + j];
  c[i * n + j] = s;
}
"#;

struct Figures {
    seconds: f64,
    instructions: u64,
}

fn report(what: &str, threads: usize, f: &Figures, native: f64) {
    println!(
        "{what:<28} {threads:>2} thread(s): {:>8.3} s  {:>7.2} M wave-instr/s  {:>8.2} M lane-ops/s  {:>7.0}× native",
        f.seconds,
        f.instructions as f64 / f.seconds / 1e6,
        f.instructions as f64 * 64.0 / f.seconds / 1e6,
        f.seconds / native
    );
}

/// One kernel's launch, timed on one thread and on `threads`.
struct Run<'a> {
    prog: &'a isa_runtime::exec::dispatch::Program,
    cfg: &'a isa_runtime::exec::DispatchConfig,
    mem: &'a FlatMemory,
    out: u64,
    count: usize,
}

impl Run<'_> {
    /// Prints the figures of both runs; both must give `native`'s bits.
    fn compare(&self, what: &str, threads: usize, native_s: f64, native: &[u32]) {
        for th in [1, threads] {
            let mut m = self.mem.clone();
            let t = Instant::now();
            let (stats, _) = dispatch_parallel(self.prog, self.cfg, &mut m, th, None)
                .unwrap_or_else(|e| panic!("{e}"));
            let f = Figures {
                seconds: t.elapsed().as_secs_f64(),
                instructions: stats.instructions,
            };
            report(what, th, &f, native_s);
            let got = m.dwords(self.out, self.count).unwrap();
            assert_eq!(
                got, native,
                "{what} on {th} thread(s) differs from the native loop"
            );
        }
    }
}

fn main() {
    let threads = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<usize>().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let Some((spec, table)) = cdna3() else {
        println!("exec_parallel: skipped: AMD's complete CDNA 3 file was not found at build time");
        return;
    };
    let (vadd, mm) = match (compile("vadd", VECTOR_ADD), compile("matmul", MATMUL)) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            println!("exec_parallel: skipped: {e}");
            return;
        }
    };

    // Vector add of 2^22 floats.
    let n = 1usize << 22;
    let a: Vec<f32> = (0..n).map(|i| (i % 1000) as f32 * 0.25).collect();
    let b: Vec<f32> = (0..n).map(|i| (i % 777) as f32 - 300.0).collect();
    let t = Instant::now();
    let native: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
    let native_s = t.elapsed().as_secs_f64().max(1e-9);
    std::hint::black_box(&native);
    let mut mem = FlatMemory::new();
    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let (pa, pb) = (mem.alloc_dwords(&bits(&a)), mem.alloc_dwords(&bits(&b)));
    let pc = mem.alloc(4 * n as u64, 256);
    let ka = mem.alloc_read_only(&kernargs(&[(pa, 8), (pb, 8), (pc, 8)]), 256);
    let prog = program(spec, &table, &vadd);
    let mut cfg = config(spec, &vadd, (n / 256) as u32, ka);
    cfg.workgroup_size = [256, 1, 1];
    println!("vector add, {n} floats (native loop {:.4} s):", native_s);
    let run = Run {
        prog: &prog,
        cfg: &cfg,
        mem: &mem,
        out: pc,
        count: n,
    };
    run.compare("vector add", threads, native_s, &bits(&native));

    // 256×256 matmul, one element per work-item.
    let n = 256usize;
    let a: Vec<f32> = (0..n * n).map(|i| (i % 13) as f32 - 6.0).collect();
    let b: Vec<f32> = (0..n * n).map(|i| (i % 7) as f32 * 0.5).collect();
    let t = Instant::now();
    let mut native = vec![0f32; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut s = 0f32;
            for k in 0..n {
                s += a[i * n + k] * b[k * n + j];
            }
            native[i * n + j] = s;
        }
    }
    let native_s = t.elapsed().as_secs_f64().max(1e-9);
    std::hint::black_box(&native);
    let mut mem = FlatMemory::new();
    let (pa, pb) = (mem.alloc_dwords(&bits(&a)), mem.alloc_dwords(&bits(&b)));
    let pc = mem.alloc(4 * (n * n) as u64, 256);
    let ka = mem.alloc_read_only(&kernargs(&[(pa, 8), (pb, 8), (pc, 8), (n as u64, 4)]), 256);
    let prog = program(spec, &table, &mm);
    let mut cfg = config(spec, &mm, (n * n / 256) as u32, ka);
    cfg.workgroup_size = [256, 1, 1];
    println!("matmul {n}×{n} (native loop {:.4} s):", native_s);
    let run = Run {
        prog: &prog,
        cfg: &cfg,
        mem: &mem,
        out: pc,
        count: n * n,
    };
    run.compare("matmul", threads, native_s, &bits(&native));
}
