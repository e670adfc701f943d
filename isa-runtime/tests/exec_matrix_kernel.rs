//! clang-22 compiled OpenCL kernels calling MFMA builtins, run from their raw `.text` on the
//! generated CDNA 3 executors (AMD's complete file), checked against matrix products computed
//! here, and single matrix instructions (llvm-mc-22's encodings) through the generated
//! executors against the model on the same registers. Skipped, saying why, without clang-22/ld.lld-22/llvm-objcopy-22 or AMD's CDNA 3 file.

mod clang_raw;

use clang_raw::{cdna3, compile, config, kernargs, program};
use isa_runtime::exec::dispatch;
use isa_runtime::exec::float::{SoftFloat, F16, F32};
use isa_runtime::exec::matrix::{Acc, Elem, Kind, MatrixOp, Modifiers};
use isa_runtime::exec::{Decoded, FlatMemory, Lds, Wave};

/// The same kernel `amdisa run` launches from its code object (tests/codeobj_clang.rs).
const MFMA_16X16X16_F16: &str = include_str!("../../isa-tests/kernels/cl/mfma16.cl");

/// A 32×32 tile per workgroup, K in steps of 2 (the accumulator stays in AGPRs between
/// steps): C[g] = A[g] · B with A[g] 32×K, B K×32.
const MFMA_32X32X2_F32_LOOP: &str = r#"
typedef float float16v __attribute__((ext_vector_type(16)));
__attribute__((reqd_work_group_size(64, 1, 1)))
__kernel void mfma32(__global const float *a, __global const float *b, __global float *c, uint k) {
  uint l = __builtin_amdgcn_workitem_id_x();
  uint g = __builtin_amdgcn_workgroup_id_x();
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
    let bytes16 = |v: &[f32]| {
        v.iter()
            .flat_map(|x| f16(*x).to_le_bytes())
            .collect::<Vec<u8>>()
    };
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
    let a: Vec<f32> = (0..groups * 32 * k)
        .map(|i| ((i * 13) % 7) as f32 - 3.0)
        .collect();
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
                let want: f32 = (0..k)
                    .map(|kk| a[(g * 32 + i) * k + kk] * b[kk * 32 + j])
                    .sum();
                assert_eq!(
                    f32::from_bits(serial[g * 1024 + i * 32 + j]),
                    want,
                    "group {g} C[{i}][{j}]"
                );
            }
        }
    }
    // The same on three threads.
    let (stats, _) = isa_runtime::exec::parallel::dispatch_parallel(&prog, &cfg, &mut mem, 3, None)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(stats.workgroups, groups as u64);
    assert_eq!(mem.dwords(pc, groups * 1024).unwrap(), serial);
}

/// Where an operand lives: (AGPR?, first register, dwords).
type Operand = (bool, u32, u32);

/// Machine words of one instruction (llvm-mc-22's encodings for gfx942), the shape the test
/// expects, its modifiers and its operands: the generated executor must read and write exactly
/// those registers and compute what the model computes.
struct Case {
    text: &'static str,
    bytes: [u8; 8],
    op: MatrixOp,
    mods: Modifiers,
    a: Operand,
    b: Operand,
    /// C: registers, or an inline constant's bits.
    c: Result<Operand, u32>,
    d: Operand,
    index: Option<u32>,
}

fn shape(
    (m, n, k, blocks): (u32, u32, u32, u32),
    (a, b, acc): (Elem, Elem, Acc),
    (a_dwords, b_dwords, d_dwords): (u32, u32, u32),
    kind: Kind,
) -> MatrixOp {
    MatrixOp {
        m,
        n,
        k,
        blocks,
        a,
        b,
        acc,
        a_dwords,
        b_dwords,
        d_dwords,
        kind,
        fnuz: true,
    }
}

fn cases() -> Vec<Case> {
    use Elem::*;
    let m = |cbsz, abid, blgp| Modifiers {
        cbsz,
        abid,
        blgp,
        ..Default::default()
    };
    vec![
        Case {
            text: "v_mfma_f32_4x4x1_16b_f32 a[0:3], v0, v1, a[4:7] cbsz:2 abid:1 blgp:3",
            bytes: [0x00, 0x8a, 0xc2, 0xd3, 0x00, 0x03, 0x12, 0x64],
            op: shape((4, 4, 1, 16), (F32, F32, Acc::F32), (1, 1, 4), Kind::Dense),
            mods: m(2, 1, 3),
            a: (false, 0, 1),
            b: (false, 1, 1),
            c: Ok((true, 4, 4)),
            d: (true, 0, 4),
            index: None,
        },
        Case {
            text: "v_mfma_f64_4x4x4_4b_f64 v[8:9], a[2:3], v[4:5], v[8:9] neg:[1,0,1]",
            bytes: [0x08, 0x00, 0xef, 0xd3, 0x02, 0x09, 0x22, 0xac],
            op: shape((4, 4, 4, 4), (F64, F64, Acc::F64), (2, 2, 2), Kind::Dense),
            mods: m(0, 0, 5),
            a: (true, 2, 2),
            b: (false, 4, 2),
            c: Ok((false, 8, 2)),
            d: (false, 8, 2),
            index: None,
        },
        Case {
            text: "v_mfma_f32_32x32x8_f16 v[16:31], v[2:3], a[6:7], 1.0",
            bytes: [0x10, 0x00, 0xcc, 0xd3, 0x02, 0x0d, 0xca, 0x13],
            op: shape(
                (32, 32, 8, 1),
                (F16, F16, Acc::F32),
                (2, 2, 16),
                Kind::Dense,
            ),
            mods: m(0, 0, 0),
            a: (false, 2, 2),
            b: (true, 6, 2),
            c: Err(1f32.to_bits()),
            d: (false, 16, 16),
            index: None,
        },
        Case {
            text: "v_mfma_i32_16x16x32_i8 a[8:11], v[2:3], v[4:5], a[8:11] blgp:5",
            bytes: [0x08, 0x80, 0xd7, 0xd3, 0x02, 0x09, 0x22, 0xa4],
            op: shape((16, 16, 32, 1), (I8, I8, Acc::I32), (2, 2, 4), Kind::Dense),
            mods: m(0, 0, 5),
            a: (false, 2, 2),
            b: (false, 4, 2),
            c: Ok((true, 8, 4)),
            d: (true, 8, 4),
            index: None,
        },
        Case {
            text: "v_smfmac_f32_16x16x32_f16 v[16:19], v[2:3], v[4:7], v1 abid:1",
            bytes: [0x10, 0x08, 0xe2, 0xd3, 0x02, 0x09, 0x06, 0x04],
            op: shape(
                (16, 16, 32, 1),
                (F16, F16, Acc::F32),
                (2, 4, 4),
                Kind::Sparse,
            ),
            mods: m(0, 1, 0),
            a: (false, 2, 2),
            b: (false, 4, 4),
            c: Ok((false, 16, 4)),
            d: (false, 16, 4),
            index: Some(1),
        },
        Case {
            text: "v_mfma_f32_16x16x32_bf8_fp8 v[16:19], v[2:3], v[4:5], v[16:19]",
            bytes: [0x10, 0x00, 0xf1, 0xd3, 0x02, 0x09, 0x42, 0x04],
            op: shape(
                (16, 16, 32, 1),
                (Bf8, Fp8, Acc::F32),
                (2, 2, 4),
                Kind::Dense,
            ),
            mods: m(0, 0, 0),
            a: (false, 2, 2),
            b: (false, 4, 2),
            c: Ok((false, 16, 4)),
            d: (false, 16, 4),
            index: None,
        },
        Case {
            text: "v_mfma_f32_16x16x8_xf32 a[0:3], v[2:3], v[4:5], a[0:3]",
            bytes: [0x00, 0x80, 0xbe, 0xd3, 0x02, 0x09, 0x02, 0x04],
            op: shape(
                (16, 16, 8, 1),
                (Xf32, Xf32, Acc::F32),
                (2, 2, 4),
                Kind::Dense,
            ),
            mods: m(0, 0, 0),
            a: (false, 2, 2),
            b: (false, 4, 2),
            c: Ok((true, 0, 4)),
            d: (true, 0, 4),
            index: None,
        },
    ]
}

fn regs(w: &Wave, (agpr, first, dwords): Operand) -> Vec<u32> {
    let mut out = Vec::new();
    for r in first..first + dwords {
        out.extend_from_slice(if agpr {
            w.agpr_lanes(r).unwrap()
        } else {
            w.vgpr_lanes(r).unwrap()
        });
    }
    out
}

#[test]
fn generated_executors_read_and_write_the_encoded_operands() {
    let Some((spec, table)) = cdna3() else {
        eprintln!("skipped: AMD's complete CDNA 3 file was not found at build time");
        return;
    };
    // Every matrix instruction of the file runs on the model.
    let g = isa_runtime::semantics::generated(spec).unwrap();
    let matrix: Vec<_> = g
        .coverage
        .iter()
        .filter(|c| c.instruction.starts_with("V_MFMA") || c.instruction.starts_with("V_SMFMAC"))
        .collect();
    assert_eq!(matrix.len(), 46);
    for c in &matrix {
        assert_eq!(
            c.provenance, "matrix model",
            "{}: {}",
            c.instruction, c.reason
        );
    }
    let mut seed = 0x1234_5678_9abc_def1u64;
    for case in cases() {
        let (ins, len) = isa_runtime::decode(spec, &case.bytes).unwrap();
        assert_eq!(len, 8);
        let d = Decoded::new(ins);
        let exec = table.get(&d.ins).unwrap();
        let mut w = Wave::new(true, 64, 64);
        for r in 0..64 {
            for lane in 0..64 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Small finite values of every format: clear the exponents' top bits.
                let v = (seed as u32) & 0x3c3c_3c3c;
                w.vgpr_lanes_mut(r).unwrap()[lane] = v;
                w.agpr_lanes_mut(r).unwrap()[lane] = v.rotate_left(7) & 0x3c3c_3c3c;
            }
        }
        if let Some(r) = case.index {
            // SMFMAC indices (ABID 1 selects bits 15:8): K positions 0,1 and 2,3 per group.
            w.vgpr_lanes_mut(r).unwrap().fill(0xe4e4_e4e4);
        }
        let (a, b) = (regs(&w, case.a), regs(&w, case.b));
        let c = match case.c {
            Ok(r) => regs(&w, r),
            Err(bits) => vec![bits; case.op.d_dwords as usize * 64],
        };
        let index = case.index.map_or(vec![0; 64], |r| regs(&w, (false, r, 1)));
        let want = case
            .op
            .compute(&case.mods, &a, &b, &c, &index, [&[0; 64], &[0; 64]])
            .unwrap_or_else(|e| panic!("{}: {e}", case.text));
        exec(&mut w, &d, &mut FlatMemory::new(), &mut Lds::new(0))
            .unwrap_or_else(|e| panic!("{}: {e}", case.text));
        assert_eq!(regs(&w, case.d), want, "{}", case.text);
    }
}
