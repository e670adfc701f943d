//! The matrix model against plain matrix products computed here: every dense shape and type
//! of CDNA 3 and CDNA 4, SMFMAC, the F8F6F4 formats with and without block scales, the
//! broadcast and swizzle modifiers, and the rounding, denormal and special-value rules of the
//! model (`isa_runtime::exec::matrix`). The register layouts used here to place the operands
//! are written in the per-shape form of AMD's matrix instruction calculator (lane/register
//! equations per shape), independently of the model's general formulas.

use isa_runtime::exec::float::{convert_bits, Format, Overflow, Rounding, RoundingMode};
use isa_runtime::exec::matrix::{Acc, Elem, Kind, MatrixOp, Modifiers};

const RNE: Rounding = Rounding::Ieee(RoundingMode::NearestEven);

fn op(
    (m, n, k, blocks): (u32, u32, u32, u32),
    a: Elem,
    b: Elem,
    acc: Acc,
    (a_dwords, b_dwords, d_dwords): (u32, u32, u32),
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
        kind: Kind::Dense,
        fnuz: false,
    }
}

/// The bits of `x` (exactly representable) in `e`.
fn encode(e: Elem, fnuz: bool, x: f64) -> u64 {
    match e.format(fnuz) {
        None => x as i64 as u8 as u64,
        Some(fmt) => {
            let (bits, _) =
                convert_bits(&Format::F64, &fmt, x.to_bits(), RNE, Overflow::Ieee, true);
            let (back, _) = convert_bits(&fmt, &Format::F64, bits, RNE, Overflow::Ieee, true);
            assert_eq!(f64::from_bits(back), x, "{x} is not exact in {e:?}");
            bits
        }
    }
}

/// A small deterministic value generator (exactly representable in every input format:
/// multiples of 1/2 up to 3 for the narrow formats, small integers otherwise).
struct Gen(u64);
impl Gen {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn value(&mut self, e: Elem) -> f64 {
        let r = self.next();
        match e {
            Elem::I8 => (r % 17) as f64 - 8.0,
            Elem::Fp4 => [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, -1.0, -0.5][(r % 8) as usize],
            Elem::Fp6 | Elem::Bf6 | Elem::Fp8 | Elem::Bf8 => (r % 7) as f64 * 0.5 - 1.5,
            _ => (r % 9) as f64 - 4.0 + if r & 64 != 0 { 0.5 } else { 0.0 },
        }
    }
}

/// Where element `t` of lane `l` goes among a lane's values (`bits` wide, packed from bit 0).
fn put(regs: &mut [u32], lane: usize, t: usize, bits: u32, v: u64) {
    let off = t * bits as usize;
    let (d, s) = (off / 32, off % 32);
    let mask = u64::MAX >> (64 - bits);
    let lo = regs[d * 64 + lane] as u64
        | (regs.get((d + 1) * 64 + lane).copied().unwrap_or(0) as u64) << 32;
    let w = (lo & !(mask << s)) | (v & mask) << s;
    regs[d * 64 + lane] = w as u32;
    if let Some(h) = regs.get_mut((d + 1) * 64 + lane) {
        *h = (w >> 32) as u32;
    }
}

/// Input lane and value index per AMD's calculator: lane = M·block + M·blocks·⌊k/kpl⌋ + i,
/// value k mod kpl — for F8F6F4's fp8/bf8 operands, two 16-value chunks per lane (value
/// 16q + r of lane group g is k = 16·G·q + 16·g + r).
fn in_lane(
    op: &MatrixOp,
    outer: u32,
    kpl: u32,
    f8_chunks: bool,
    x: u32,
    k: u32,
    b: u32,
) -> (usize, usize) {
    if f8_chunks {
        let groups = 64 / outer;
        let (q, rest) = (k / (16 * groups), k % (16 * groups));
        let (g, r) = (rest / 16, rest % 16);
        return ((x + outer * g) as usize, (16 * q + r) as usize);
    }
    let lane = outer * b + outer * op.blocks * (k / kpl) + x;
    (lane as usize, (k % kpl) as usize)
}

/// Output register (dwords for 32-bit results, pairs for f64) and lane per the calculator's
/// per-shape equations.
fn out_lane(op: &MatrixOp, i: u32, j: u32, b: u32) -> (usize, usize) {
    let (reg, lane) = match (op.acc, op.m, op.n) {
        (Acc::F64, 16, 16) => (i / 4, j + 16 * (i % 4)),
        (Acc::F64, 4, 4) => (0, j + 4 * b + 16 * i),
        (_, 32, 32) => (16 * b + 4 * (i / 8) + i % 4, j + 32 * ((i / 4) % 2)),
        (_, 16, 16) => (4 * b + i % 4, j + 16 * (i / 4)),
        (_, 4, 4) => (i, j + 4 * b),
        s => panic!("no layout for {s:?}"),
    };
    (reg as usize, lane as usize)
}

/// Matrices of one test case: `a[b][i][k]`, `bm[b][k][j]`, `c[b][i][j]` as f64.
struct Case {
    a: Vec<f64>,
    b: Vec<f64>,
    c: Vec<f64>,
}

impl Case {
    fn random(op: &MatrixOp, ta: Elem, tb: Elem, seed: u64) -> Case {
        let mut g = Gen(seed | 1);
        let (m, n, k, bl) = (op.m, op.n, op.k, op.blocks);
        Case {
            a: (0..bl * m * k).map(|_| g.value(ta)).collect(),
            b: (0..bl * k * n).map(|_| g.value(tb)).collect(),
            c: (0..bl * m * n)
                .map(|_| {
                    g.value(if op.acc == Acc::I32 {
                        Elem::I8
                    } else {
                        Elem::F16
                    })
                })
                .collect(),
        }
    }

    /// The operand registers of `op` holding this case.
    fn registers(&self, op: &MatrixOp, ta: Elem, tb: Elem) -> (Vec<u32>, Vec<u32>, Vec<u32>) {
        let (m, n, k, bl) = (op.m, op.n, op.k, op.blocks);
        let f8 = matches!(op.kind, Kind::F8f6f4 { .. });
        let kpl = |e: Elem, dw: u32| {
            if f8 {
                k / (64 / m)
            } else {
                dw * 32 / e.bits()
            }
        };
        let (kpl_a, kpl_b) = (kpl(ta, op.a_dwords), kpl(tb, op.b_dwords));
        let mut ra = vec![0u32; op.a_dwords as usize * 64];
        let mut rb = vec![0u32; op.b_dwords as usize * 64];
        let mut rc = vec![0u32; op.d_dwords as usize * 64];
        let chunked = |e: Elem| f8 && matches!(e, Elem::Fp8 | Elem::Bf8);
        for b in 0..bl {
            for i in 0..m {
                for kk in 0..k {
                    let (lane, t) = in_lane(op, m, kpl_a, chunked(ta), i, kk, b);
                    let v = encode(ta, op.fnuz, self.a[((b * m + i) * k + kk) as usize]);
                    put(&mut ra, lane, t, ta.bits(), v);
                }
            }
            for j in 0..n {
                for kk in 0..k {
                    let (lane, t) = in_lane(op, n, kpl_b, chunked(tb), j, kk, b);
                    let v = encode(tb, op.fnuz, self.b[((b * k + kk) * n + j) as usize]);
                    put(&mut rb, lane, t, tb.bits(), v);
                }
            }
            for i in 0..m {
                for j in 0..n {
                    let (reg, lane) = out_lane(op, i, j, b);
                    let x = self.c[((b * m + i) * n + j) as usize];
                    write_acc(op, &mut rc, reg, lane, x);
                }
            }
        }
        (ra, rb, rc)
    }

    /// The plain product `A·B + C` (f64 is exact on these values), with A's block chosen by
    /// `a_block`.
    fn expected(&self, op: &MatrixOp, a_block: impl Fn(u32) -> u32) -> Vec<f64> {
        let (m, n, k, bl) = (op.m, op.n, op.k, op.blocks);
        let mut d = vec![0.0; (bl * m * n) as usize];
        for b in 0..bl {
            let ab = a_block(b);
            for i in 0..m {
                for j in 0..n {
                    let mut s = self.c[((b * m + i) * n + j) as usize];
                    for kk in 0..k {
                        s += self.a[((ab * m + i) * k + kk) as usize]
                            * self.b[((b * k + kk) * n + j) as usize];
                    }
                    d[((b * m + i) * n + j) as usize] = s;
                }
            }
        }
        d
    }
}

fn write_acc(op: &MatrixOp, regs: &mut [u32], reg: usize, lane: usize, x: f64) {
    match op.acc {
        Acc::F64 => {
            regs[2 * reg * 64 + lane] = x.to_bits() as u32;
            regs[(2 * reg + 1) * 64 + lane] = (x.to_bits() >> 32) as u32;
        }
        Acc::F32 => regs[reg * 64 + lane] = (x as f32).to_bits(),
        Acc::I32 => regs[reg * 64 + lane] = x as i32 as u32,
    }
}

fn read_acc(op: &MatrixOp, regs: &[u32], reg: usize, lane: usize) -> f64 {
    match op.acc {
        Acc::F64 => f64::from_bits(
            regs[2 * reg * 64 + lane] as u64 | (regs[(2 * reg + 1) * 64 + lane] as u64) << 32,
        ),
        Acc::F32 => f32::from_bits(regs[reg * 64 + lane]) as f64,
        Acc::I32 => regs[reg * 64 + lane] as i32 as f64,
    }
}

/// `op` without modifiers, index or scales.
fn plain(op: &MatrixOp, a: &[u32], b: &[u32], c: &[u32]) -> Result<Vec<u32>, String> {
    op.compute(
        &Modifiers::default(),
        a,
        b,
        c,
        &[0; 64],
        [&[0; 64], &[0; 64]],
    )
}

/// Runs `op` on a random case and compares every element with the plain product.
fn check(op: &MatrixOp, mods: &Modifiers, ta: Elem, tb: Elem, seed: u64) {
    let case = Case::random(op, ta, tb, seed);
    let (ra, rb, rc) = case.registers(op, ta, tb);
    let ones = vec![0x7f7f_7f7fu32; 64];
    let d = op
        .compute(mods, &ra, &rb, &rc, &[0; 64], [&ones, &ones])
        .unwrap_or_else(|e| panic!("{op:?}: {e}"));
    let want = case.expected(op, |b| b);
    for b in 0..op.blocks {
        for i in 0..op.m {
            for j in 0..op.n {
                let (reg, lane) = out_lane(op, i, j, b);
                let got = read_acc(op, &d, reg, lane);
                let w = want[((b * op.m + i) * op.n + j) as usize];
                assert_eq!(got, w, "{op:?} {ta:?}×{tb:?} block {b} D[{i}][{j}]");
            }
        }
    }
}

/// Every dense shape of CDNA 3 and CDNA 4: (shape, A/B type, accumulator, dwords).
fn dense_shapes() -> Vec<MatrixOp> {
    use Elem::*;
    const A32: Acc = Acc::F32;
    const AI: Acc = Acc::I32;
    const A64: Acc = Acc::F64;
    let mut v = Vec::new();
    let mut add = |s, e, acc, dw| v.push(op(s, e, e, acc, dw));
    add((32, 32, 1, 2), F32, A32, (1, 1, 32));
    add((16, 16, 1, 4), F32, A32, (1, 1, 16));
    add((4, 4, 1, 16), F32, A32, (1, 1, 4));
    add((32, 32, 2, 1), F32, A32, (1, 1, 16));
    add((16, 16, 4, 1), F32, A32, (1, 1, 4));
    for e in [F16, Bf16] {
        add((32, 32, 4, 2), e, A32, (2, 2, 32));
        add((16, 16, 4, 4), e, A32, (2, 2, 16));
        add((4, 4, 4, 16), e, A32, (2, 2, 4));
        add((32, 32, 8, 1), e, A32, (2, 2, 16));
        add((16, 16, 16, 1), e, A32, (2, 2, 4));
        // CDNA 4's double-K shapes.
        add((16, 16, 32, 1), e, A32, (4, 4, 4));
        add((32, 32, 16, 1), e, A32, (4, 4, 16));
    }
    add((32, 32, 4, 2), I8, AI, (1, 1, 32));
    add((16, 16, 4, 4), I8, AI, (1, 1, 16));
    add((4, 4, 4, 16), I8, AI, (1, 1, 4));
    add((32, 32, 16, 1), I8, AI, (2, 2, 16));
    add((16, 16, 32, 1), I8, AI, (2, 2, 4));
    add((16, 16, 64, 1), I8, AI, (4, 4, 4));
    add((32, 32, 32, 1), I8, AI, (4, 4, 16));
    add((16, 16, 8, 1), Xf32, A32, (2, 2, 4));
    add((32, 32, 4, 1), Xf32, A32, (2, 2, 16));
    add((16, 16, 4, 1), F64, A64, (2, 2, 8));
    add((4, 4, 4, 4), F64, A64, (2, 2, 2));
    v
}

#[test]
fn every_dense_shape_and_type_equals_the_plain_product() {
    for (n, op) in dense_shapes().iter().enumerate() {
        check(
            op,
            &Modifiers::default(),
            op.a,
            op.b,
            0x9e37_79b9 + n as u64,
        );
    }
}

#[test]
fn fp8_and_bf8_in_every_combination_fnuz_and_ocp() {
    use Elem::*;
    for fnuz in [true, false] {
        for (ta, tb) in [(Fp8, Fp8), (Fp8, Bf8), (Bf8, Fp8), (Bf8, Bf8)] {
            for (shape, dw) in [((16, 16, 32, 1), (2, 2, 4)), ((32, 32, 16, 1), (2, 2, 16))] {
                let mut o = op(shape, ta, tb, Acc::F32, dw);
                o.fnuz = fnuz;
                check(&o, &Modifiers::default(), ta, tb, 77 + shape.2 as u64);
            }
        }
    }
}

#[test]
fn f8f6f4_formats_from_cbsz_and_blgp() {
    use Elem::*;
    let formats = [Fp8, Bf8, Fp6, Bf6, Fp4];
    for (shape, dw) in [((16, 16, 128, 1), (8, 8, 4)), ((32, 32, 64, 1), (8, 8, 16))] {
        let mut o = op(shape, Fp8, Fp8, Acc::F32, dw);
        o.kind = Kind::F8f6f4 { scaled: false };
        for (ca, ta) in formats.iter().enumerate() {
            for (cb, tb) in formats.iter().enumerate() {
                let mods = Modifiers {
                    cbsz: ca as u32,
                    blgp: cb as u32,
                    ..Default::default()
                };
                check(&o, &mods, *ta, *tb, 5 + (ca * 5 + cb) as u64);
            }
        }
        let bad = Modifiers {
            cbsz: 5,
            ..Default::default()
        };
        let z = vec![0u32; 8 * 64];
        let err = o
            .compute(
                &bad,
                &z,
                &z,
                &vec![0; dw.2 as usize * 64],
                &[0; 64],
                [&[0; 64], &[0; 64]],
            )
            .unwrap_err();
        assert!(err.contains("CBSZ 5"), "{err}");
    }
}

#[test]
fn block_scales_multiply_each_32_wide_k_block() {
    // 32×32×64 fp8: A's scale for row i and K block kb is in lane i + 32·kb, B's for column j
    // in lane j + 32·kb (AMD's CDNA 4 matrix-core article, scale layout of 32×32×64).
    let mut o = op((32, 32, 64, 1), Elem::Fp8, Elem::Fp8, Acc::F32, (8, 8, 16));
    o.kind = Kind::F8f6f4 { scaled: true };
    let case = Case::random(&o, Elem::Fp8, Elem::Fp8, 3);
    let (ra, rb, rc) = case.registers(&o, Elem::Fp8, Elem::Fp8);
    let sa: Vec<u32> = (0..64).map(|l| 127 + (l % 3) as u32).collect();
    let sb: Vec<u32> = (0..64).map(|l| 126 + (l / 32) as u32).collect();
    let d = o
        .compute(&Modifiers::default(), &ra, &rb, &rc, &[0; 64], [&sa, &sb])
        .unwrap();
    for i in 0..32 {
        for j in 0..32 {
            let mut want = case.c[(i * 32 + j) as usize];
            for k in 0..64u32 {
                let kb = k / 32;
                let scale = 2f64.powi(sa[(i + 32 * kb) as usize] as i32 - 127)
                    * 2f64.powi(sb[(j + 32 * kb) as usize] as i32 - 127);
                want += case.a[(i * 64 + k) as usize] * case.b[(k * 32 + j) as usize] * scale;
            }
            let (reg, lane) = out_lane(&o, i, j, 0);
            assert_eq!(read_acc(&o, &d, reg, lane), want, "D[{i}][{j}]");
        }
    }
}

#[test]
fn cbsz_and_abid_broadcast_one_block_of_a() {
    let o = op((4, 4, 4, 16), Elem::F16, Elem::F16, Acc::F32, (2, 2, 4));
    let case = Case::random(&o, Elem::F16, Elem::F16, 11);
    let (ra, rb, rc) = case.registers(&o, Elem::F16, Elem::F16);
    for (cbsz, abid) in [(1, 1), (2, 3), (4, 9)] {
        let mods = Modifiers {
            cbsz,
            abid,
            ..Default::default()
        };
        let d = o
            .compute(&mods, &ra, &rb, &rc, &[0; 64], [&[0; 64], &[0; 64]])
            .unwrap();
        let group = 1 << cbsz;
        let want = case.expected(&o, |b| b / group * group + abid % group);
        for b in 0..16 {
            for i in 0..4 {
                for j in 0..4 {
                    let (reg, lane) = out_lane(&o, i, j, b);
                    assert_eq!(
                        read_acc(&o, &d, reg, lane),
                        want[((b * 4 + i) * 4 + j) as usize],
                        "CBSZ {cbsz} ABID {abid} block {b}"
                    );
                }
            }
        }
    }
}

#[test]
fn blgp_swizzles_the_lanes_of_b() {
    // B's lane l reads lane src(l): the BLGP table of the CDNA 3 ISA guide.
    let src = |blgp: u32, l: usize| -> usize {
        match blgp {
            1 => l & 31,
            2 => (l & 31) | 32,
            3 => (l + 16) & 63,
            4 => l & 15,
            5 => (l & 15) | 16,
            6 => (l & 15) | 32,
            7 => (l & 15) | 48,
            _ => l,
        }
    };
    let o = op((16, 16, 4, 1), Elem::F32, Elem::F32, Acc::F32, (1, 1, 4));
    let case = Case::random(&o, Elem::F32, Elem::F32, 21);
    let (ra, rb, rc) = case.registers(&o, Elem::F32, Elem::F32);
    for blgp in 1..8 {
        let swizzled: Vec<u32> = (0..64).map(|l| rb[src(blgp, l)]).collect();
        let want = plain(&o, &ra, &swizzled, &rc).unwrap();
        let mods = Modifiers {
            blgp,
            ..Default::default()
        };
        let got = o
            .compute(&mods, &ra, &rb, &rc, &[0; 64], [&[0; 64], &[0; 64]])
            .unwrap();
        assert_eq!(got, want, "BLGP {blgp}");
        assert_ne!(got, plain(&o, &ra, &rb, &rc).unwrap());
    }
}

#[test]
fn f64_neg_bits_negate_a_b_and_c() {
    let o = op((16, 16, 4, 1), Elem::F64, Elem::F64, Acc::F64, (2, 2, 8));
    let case = Case::random(&o, Elem::F64, Elem::F64, 31);
    let (ra, rb, rc) = case.registers(&o, Elem::F64, Elem::F64);
    for neg in 0..8u32 {
        let mods = Modifiers {
            blgp: neg,
            ..Default::default()
        };
        let d = o
            .compute(&mods, &ra, &rb, &rc, &[0; 64], [&[0; 64], &[0; 64]])
            .unwrap();
        let sign = |bit: u32| if neg >> bit & 1 != 0 { -1.0 } else { 1.0 };
        for i in 0..16 {
            for j in 0..16 {
                let mut want = sign(2) * case.c[(i * 16 + j) as usize];
                for k in 0..4 {
                    want += sign(0)
                        * sign(1)
                        * case.a[(i * 4 + k) as usize]
                        * case.b[(k * 16 + j) as usize];
                }
                let (reg, lane) = out_lane(&o, i, j, 0);
                assert_eq!(
                    read_acc(&o, &d, reg, lane),
                    want,
                    "neg {neg:03b} D[{i}][{j}]"
                );
            }
        }
    }
}

#[test]
fn smfmac_decompresses_a_through_the_indices() {
    for (e, acc, shape, dw) in [
        (Elem::F16, Acc::F32, (16, 16, 32, 1), (2, 4, 4)),
        (Elem::Bf16, Acc::F32, (32, 32, 16, 1), (2, 4, 16)),
        (Elem::I8, Acc::I32, (16, 16, 64, 1), (2, 4, 4)),
        (Elem::Fp8, Acc::F32, (32, 32, 32, 1), (2, 4, 16)),
    ] {
        let mut o = op(shape, e, e, acc, dw);
        o.kind = Kind::Sparse;
        let (m, k) = (o.m, o.k);
        let mut case = Case::random(&o, e, e, 41);
        let kpl_a = dw.0 * 32 / e.bits();
        let mut g = Gen(99);
        let mut ra = vec![0u32; dw.0 as usize * 64];
        let mut index = [0u32; 64];
        // Keep two of every four A values (positions from the generator), zero the others.
        for i in 0..m {
            for grp in 0..64 / m {
                let lane = (i + grp * m) as usize;
                for q in 0..kpl_a / 2 {
                    let first = (g.next() % 3) as u32;
                    let second = first + 1 + (g.next() % (3 - first as u64)) as u32;
                    for p in 0..4 {
                        let kk = grp * 2 * kpl_a + 4 * q + p;
                        if p != first && p != second {
                            case.a[(i * k + kk) as usize] = 0.0;
                        }
                    }
                    for (n, p) in [first, second].into_iter().enumerate() {
                        let t = 2 * q + n as u32;
                        let kk = grp * 2 * kpl_a + 4 * q + p;
                        put(
                            &mut ra,
                            lane,
                            t as usize,
                            e.bits(),
                            encode(e, false, case.a[(i * k + kk) as usize]),
                        );
                        index[lane] |= p << (2 * t);
                    }
                }
            }
        }
        let (_, rb, rc) = case.registers(
            &MatrixOp {
                kind: Kind::Dense,
                a_dwords: dw.1,
                ..o
            },
            e,
            e,
        );
        let d = o
            .compute(
                &Modifiers::default(),
                &ra,
                &rb,
                &rc,
                &index,
                [&[0; 64], &[0; 64]],
            )
            .unwrap();
        let want = case.expected(&o, |b| b);
        for i in 0..m {
            for j in 0..o.n {
                let (reg, lane) = out_lane(&o, i, j, 0);
                assert_eq!(
                    read_acc(&o, &d, reg, lane),
                    want[(i * o.n + j) as usize],
                    "{e:?} D[{i}][{j}]"
                );
            }
        }
    }
}

/// One 16×16×4 f32 product whose row 0 of A is `row` (other rows zero), B all ones, C zero:
/// D[0][0] is the sum of `row`.
fn row_sum(row: [f32; 4], c: f32) -> u32 {
    let o = op((16, 16, 4, 1), Elem::F32, Elem::F32, Acc::F32, (1, 1, 4));
    let mut ra = vec![0u32; 64];
    for (kk, x) in row.iter().enumerate() {
        ra[16 * kk] = x.to_bits();
    }
    let rb = vec![1f32.to_bits(); 64];
    let mut rc = vec![0u32; 4 * 64];
    rc[0] = c.to_bits();
    let d = plain(&o, &ra, &rb, &rc).unwrap();
    d[0]
}

#[test]
fn one_rounding_to_nearest_even_of_the_exact_sum() {
    let ulp = f32::EPSILON / 2.0; // 2^-24
                                  // 1 + 2^-24 + 2^-24 is exact in one rounding (a running f32 sum would lose both).
    assert_eq!(
        row_sum([1.0, ulp, ulp, 0.0], 0.0),
        (1.0 + 2.0 * ulp).to_bits()
    );
    // A tie rounds to even: 1 + 2^-24 → 1, (1 + 2^-23) + 2^-24 → 1 + 2^-22.
    assert_eq!(row_sum([1.0, ulp, 0.0, 0.0], 0.0), 1f32.to_bits());
    assert_eq!(
        row_sum([1.0 + 2.0 * ulp, ulp, 0.0, 0.0], 0.0),
        (1.0 + 4.0 * ulp).to_bits()
    );
    // Just above the tie rounds up.
    assert_eq!(
        row_sum([1.0, ulp, ulp / 1024.0, 0.0], 0.0),
        (1.0 + 2.0 * ulp).to_bits()
    );
    // Exact cancellation is +0; the sum of negative zeros is −0.
    assert_eq!(row_sum([3.0, -3.0, 0.0, 0.0], 0.0), 0);
    assert_eq!(row_sum([-0.0; 4], -0.0), (-0f32).to_bits());
    // Overflow to ∞, ∞ − ∞ and ∞ × 0 are NaN.
    assert_eq!(
        row_sum([f32::MAX, f32::MAX, 0.0, 0.0], 0.0),
        f32::INFINITY.to_bits()
    );
    assert!(f32::from_bits(row_sum([f32::INFINITY, f32::NEG_INFINITY, 0.0, 0.0], 0.0)).is_nan());
    assert_eq!(
        row_sum([f32::INFINITY, 1.0, 0.0, 0.0], 0.0),
        f32::INFINITY.to_bits()
    );
}

#[test]
fn denormals_are_kept_in_inputs_and_results() {
    let tiny = f32::from_bits(3); // 3 × 2^-149
    assert_eq!(row_sum([tiny, tiny, 0.0, 0.0], 0.0), 6);
    assert_eq!(row_sum([tiny, 0.0, 0.0, 0.0], f32::from_bits(1)), 4);
    // An f16 denormal input (2^-24) reaches the f32 result unflushed.
    let o = op((16, 16, 16, 1), Elem::F16, Elem::F16, Acc::F32, (2, 2, 4));
    let mut ra = vec![0u32; 2 * 64];
    ra[0] = 1; // A[0][0] = 2^-24
    let rb = vec![0x3c00_3c00u32; 2 * 64]; // B = 1.0 everywhere
    let d = plain(&o, &ra, &rb, &vec![0; 4 * 64]).unwrap();
    assert_eq!(f32::from_bits(d[0]), 2f32.powi(-24));
}

#[test]
fn integer_results_wrap_and_fnuz_negative_zero_is_nan() {
    let o = op((16, 16, 32, 1), Elem::I8, Elem::I8, Acc::I32, (2, 2, 4));
    let mut ra = vec![0u32; 2 * 64];
    ra[0] = 1; // A[0][0] = 1
    let rb = vec![0x0101_0101u32; 2 * 64];
    let mut rc = vec![0u32; 4 * 64];
    rc[0] = i32::MAX as u32;
    let d = plain(&o, &ra, &rb, &rc).unwrap();
    assert_eq!(d[0], i32::MIN as u32);
    // 0x80 is the only NaN of CDNA 3's FNUZ fp8; in OCP's fp8 (CDNA 4) it is −0.
    for (fnuz, nan) in [(true, true), (false, false)] {
        let mut o = op((16, 16, 32, 1), Elem::Fp8, Elem::Fp8, Acc::F32, (2, 2, 4));
        o.fnuz = fnuz;
        let mut ra = vec![0u32; 2 * 64];
        ra[0] = 0x80;
        let rb = vec![0x3838_3838u32; 2 * 64];
        let d = plain(&o, &ra, &rb, &vec![0; 4 * 64]).unwrap();
        assert_eq!(f32::from_bits(d[0]).is_nan(), nan, "fnuz {fnuz}");
    }
}
