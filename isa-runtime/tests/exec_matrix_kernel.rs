//! clang-22 compiled OpenCL kernels calling MFMA builtins, run from their raw `.text` on the
//! generated CDNA 3 executors (AMD's complete file), checked against matrix products computed
//! here. Skipped, saying why, without clang-22/ld.lld-22/llvm-objcopy-22 or AMD's CDNA 3 file.

mod clang_support;

use clang_support::{cdna3, compile, config, kernargs, program};
use isa_runtime::exec::dispatch;
use isa_runtime::exec::float::{SoftFloat, F16, F32};
use isa_runtime::exec::FlatMemory;

const MFMA_16X16X16_F16: &str = r#"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
typedef half half4 __attribute__((ext_vector_type(4)));
typedef float float4v __attribute__((ext_vector_type(4)));
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma16(__global const half *a, __global const half *b, __global float *c) {
  uint l = get_local_id(0);
  half4 av, bv;
  for (int t = 0; t < 4; t++) {
    av[t] = a[(l % 16) * 16 + 4 * (l / 16) + t];
    bv[t] = b[(4 * (l / 16) + t) * 16 + l % 16];
  }
  float4v acc = {0, 0, 0, 0};
  acc = __builtin_amdgcn_mfma_f32_16x16x16f16(av, bv, acc, 0, 0, 0);
  for (int t = 0; t < 4; t++) c[(4 * (l / 16) + t) * 16 + l % 16] = acc[t];
}
"#;

/// A 32×32 tile per workgroup, K in steps of 2 (the accumulator stays in AGPRs between
/// steps): C[g] = A[g] · B with A[g] 32×K, B K×32.
const MFMA_32X32X2_F32_LOOP: &str = r#"
typedef float float16v __attribute__((ext_vector_type(16)));
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma32(__global const float *a, __global const float *b, __global float *c, uint k) {
  uint l = get_local_id(0);
  uint g = get_group_id(0);
  __global const float *ag = a + g * 32 * k;
  float16v acc = 0;
  for (uint k0 = 0; k0 < k; k0 += 2) {
    float av = ag[(l % 32) * k + k0 + l / 32];
    float bv = b[(k0 + l / 32) * 32 + l % 32];
    acc = __builtin_amdgcn_mfma_f32_32x32x2f32(av, bv, acc, 0, 0, 0);
  }
  for (int r = 0; r < 16; r++)
    c[g * 1024 + (8 * (r / 4) + 4 * (l / 32) + r % 4) * 32 + l % 32] = acc[r];
}
"#;

fn f16(x: f32) -> u16 {
    F16::from_f32_rne(F32::from_host(x)).to_bits() as u16
}

#[test]
fn compiled_mfma_16x16x16_f16_kernel_gives_the_matrix_product() {
    let Some((spec, table)) = cdna3() else {
        eprintln!("skipped: AMD's complete CDNA 3 file was not found at build time");
        return;
    };
    let kernel = match compile("mfma16", MFMA_16X16X16_F16) {
        Ok(k) => k,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let a: Vec<f32> = (0..256).map(|i| ((i * 7) % 11) as f32 - 5.0).collect();
    let b: Vec<f32> = (0..256).map(|i| ((i * 5) % 9) as f32 * 0.5 - 2.0).collect();
    let mut mem = FlatMemory::new();
    let bytes16 = |v: &[f32]| v.iter().flat_map(|x| f16(*x).to_le_bytes()).collect::<Vec<u8>>();
    let pa = mem.alloc_bytes(&bytes16(&a), 256);
    let pb = mem.alloc_bytes(&bytes16(&b), 256);
    let pc = mem.alloc(1024, 256);
    let ka = mem.alloc_read_only(&kernargs(&[(pa, 8), (pb, 8), (pc, 8)]), 256);
    let prog = program(spec, &table, &kernel);
    let cfg = config(spec, &kernel, 1, ka);
    dispatch(&prog, &cfg, &mut mem).unwrap_or_else(|e| panic!("{e}"));
    let c = mem.dwords(pc, 256).unwrap();
    for i in 0..16 {
        for j in 0..16 {
            let want: f32 = (0..16).map(|k| a[i * 16 + k] * b[k * 16 + j]).sum();
            assert_eq!(f32::from_bits(c[i * 16 + j]), want, "C[{i}][{j}]");
        }
    }
}

#[test]
fn compiled_mfma_32x32x2_f32_k_loop_over_workgroups() {
    let Some((spec, table)) = cdna3() else {
        eprintln!("skipped: AMD's complete CDNA 3 file was not found at build time");
        return;
    };
    let kernel = match compile("mfma32", MFMA_32X32X2_F32_LOOP) {
        Ok(k) => k,
        Err(why) => {
            eprintln!("skipped: {why}");
            return;
        }
    };
    let (groups, k) = (3usize, 16usize);
    let a: Vec<f32> = (0..groups * 32 * k).map(|i| ((i * 13) % 7) as f32 - 3.0).collect();
    let b: Vec<f32> = (0..k * 32).map(|i| ((i * 3) % 5) as f32 - 2.0).collect();
    let mut mem = FlatMemory::new();
    let dw = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    let pa = mem.alloc_dwords(&dw(&a));
    let pb = mem.alloc_dwords(&dw(&b));
    let pc = mem.alloc(groups as u64 * 4096, 256);
    let ka = mem.alloc_read_only(&kernargs(&[(pa, 8), (pb, 8), (pc, 8), (k as u64, 4)]), 256);
    let prog = program(spec, &table, &kernel);
    let cfg = config(spec, &kernel, groups as u32, ka);
    let serial = {
        let mut m = mem.clone();
        dispatch(&prog, &cfg, &mut m).unwrap_or_else(|e| panic!("{e}"));
        m.dwords(pc, groups * 1024).unwrap()
    };
    for g in 0..groups {
        for i in 0..32 {
            for j in 0..32 {
                let want: f32 = (0..k).map(|kk| a[(g * 32 + i) * k + kk] * b[kk * 32 + j]).sum();
                assert_eq!(f32::from_bits(serial[g * 1024 + i * 32 + j]), want, "group {g} C[{i}][{j}]");
            }
        }
    }
    // The same on three threads.
    let (stats, _) = isa_runtime::exec::parallel::dispatch_parallel(&prog, &cfg, &mut mem, 3, None)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stats.workgroups, groups as u64);
    assert_eq!(mem.dwords(pc, groups * 1024).unwrap(), serial);
}
