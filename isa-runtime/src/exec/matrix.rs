//! The matrix cores (CDNA `V_MFMA_*`, `V_SMFMAC_*`, `V_MFMA_SCALE_*`): one typed model for
//! every shape and type, driven by a [`MatrixOp`] that `isa-gen` derives from the
//! instruction's name and its operand sizes in AMD's spec (never one function per
//! instruction).
//!
//! # What an instruction computes
//!
//! `D[b] = A[b'] × B[b] + C[b]` for each block `b` of `blocks` independent `M×K · K×N`
//! products; `b'` is `b` unless CBSZ/ABID broadcast another block's A (see [`Modifiers`]).
//! SMFMAC reads A compressed (two of every four K values, placed by 2-bit indices from SRC2)
//! and accumulates into VDST in place. The block-scaled form multiplies each 32-wide K block of
//! A and B by a power of two read from its scale operands.
//!
//! # Register layouts (facts, from AMD's CDNA 3 ISA guide, chapter 7 "Matrix Arithmetic
//! Instructions", and AMD's matrix instruction calculator, as lane/register formulas)
//!
//! - **A and B** (`outer` = M for A, N for B; `kpl` = values per lane): element `(x, k)` of
//!   block `b` is in lane `x + outer·b + outer·blocks·g` where `g` is the lane group holding
//!   `k`. With `c` values per contiguous chunk (`c = kpl` except CDNA 4's F8F6F4 fp8 operands,
//!   whose lanes hold two 16-value chunks 32 apart — AMD's CDNA 4 matrix-core article shows
//!   the fp8 and fp4 layouts of 32×32×64), `k = q·c·G + g·c + r` for the value `t = q·c + r`
//!   of the lane, `G` lane groups per block.
//! - **C and D**: 32-bit results in runs of 4 rows (one register each) × N lanes, 64-bit
//!   results in runs of one row (a register pair); the runs of a register follow each other
//!   across the lanes (blocks first when a block is smaller than the 64 lanes), then the next
//!   register(s). See [`out_pos`].
//! - **BLGP** (not on f64): lane `l` of B reads the value of lane `blgp_lane(blgp, l)`.
//!   On f64 instructions the same three bits negate A, B and C.
//! - **CBSZ/ABID**: blocks form groups of `2^CBSZ`; each block of a group uses the A of the
//!   group's block `ABID`.
//!
//! # Numerics (the project's model)
//!
//! Each output element is the exact sum of C and all its products, rounded once to the
//! result format with round-to-nearest-even: MODE's rounding mode is not used, and denormal
//! inputs and results are kept (AMD documents flushing of f16/bf16 MFMA denormals only for
//! MI200, CDNA 2; MIOpen "MI200 MFMA behavior specifics"). A NaN input, ∞ × 0 or ∞ − ∞ gives
//! the default NaN; otherwise an infinite term gives ∞. Integer results wrap to 32 bits.
//! Hardware sums partial results in its own order; on inputs whose sums are exact (the tests'
//! inputs) every order agrees. xf32 inputs are taken as the f32 values they hold. EXEC is not
//! consulted: the instruction reads and writes every lane (the matrix needs all of them).

use super::float::{self as fl, Class, Format, Overflow, Rounding, RoundingMode};
use super::wave::{Decoded, Src, Wave};
use super::{ExecError, Flow};

/// An element type of A or B.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    F64,
    F32,
    /// f32 storage with reduced-precision multiplies (CDNA 3 `XF32`).
    Xf32,
    F16,
    Bf16,
    I8,
    /// E4M3: FNUZ on CDNA 3, OCP on CDNA 4 (see [`MatrixOp::fnuz`]).
    Fp8,
    /// E5M2: FNUZ on CDNA 3, OCP on CDNA 4.
    Bf8,
    /// OCP E2M3.
    Fp6,
    /// OCP E3M2.
    Bf6,
    /// OCP E2M1.
    Fp4,
}

impl Elem {
    pub fn bits(self) -> u32 {
        match self {
            Elem::F64 => 64,
            Elem::F32 | Elem::Xf32 => 32,
            Elem::F16 | Elem::Bf16 => 16,
            Elem::I8 | Elem::Fp8 | Elem::Bf8 => 8,
            Elem::Fp6 | Elem::Bf6 => 6,
            Elem::Fp4 => 4,
        }
    }

    /// The float format (None for i8).
    pub fn format(self, fnuz: bool) -> Option<Format> {
        Some(match self {
            Elem::F64 => Format::F64,
            Elem::F32 | Elem::Xf32 => Format::F32,
            Elem::F16 => Format::F16,
            Elem::Bf16 => Format::BF16,
            Elem::I8 => return None,
            Elem::Fp8 if fnuz => Format::FP8_FNUZ,
            Elem::Fp8 => Format::FP8,
            Elem::Bf8 if fnuz => Format::BF8_FNUZ,
            Elem::Bf8 => Format::BF8,
            Elem::Fp6 => Format::FP6,
            Elem::Bf6 => Format::BF6,
            Elem::Fp4 => Format::FP4,
        })
    }

    /// CDNA 4's F8F6F4 format code (CBSZ for A, BLGP for B).
    pub fn from_f8f6f4_code(code: u32) -> Option<Elem> {
        Some(match code {
            0 => Elem::Fp8,
            1 => Elem::Bf8,
            2 => Elem::Fp6,
            3 => Elem::Bf6,
            4 => Elem::Fp4,
            _ => return None,
        })
    }
}

/// The accumulator (C and D) type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Acc {
    F32,
    I32,
    F64,
}

impl Acc {
    pub fn bits(self) -> u32 {
        if self == Acc::F64 {
            64
        } else {
            32
        }
    }
}

/// Which family of matrix instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `V_MFMA_*` with fixed input types.
    Dense,
    /// `V_MFMA_*_F8F6F4`: A's format from CBSZ, B's from BLGP; `scaled` adds the E8M0 block
    /// scales of `V_MFMA_SCALE_*`.
    F8f6f4 { scaled: bool },
    /// `V_SMFMAC_*`: 2:4 structured-sparse A, indices in SRC2, C = D = VDST.
    Sparse,
}

/// One matrix instruction's shape and types (generated by `isa-gen` from the name and the
/// operand sizes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatrixOp {
    pub m: u32,
    pub n: u32,
    /// K of one block (the uncompressed K for SMFMAC).
    pub k: u32,
    pub blocks: u32,
    pub a: Elem,
    pub b: Elem,
    pub acc: Acc,
    /// Dwords per lane of SRC0 (A), SRC1 (B) and VDST (C/D).
    pub a_dwords: u32,
    pub b_dwords: u32,
    pub d_dwords: u32,
    pub kind: Kind,
    /// fp8/bf8 are the FNUZ variants (CDNA 3) rather than OCP's (CDNA 4).
    pub fnuz: bool,
}

/// The instruction's modifier fields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Modifiers {
    pub cbsz: u32,
    pub abid: u32,
    pub blgp: u32,
    /// OP_SEL / OP_SEL_HI (the scale byte selects of `V_MFMA_SCALE_*`).
    pub op_sel: u32,
    pub op_sel_hi: u32,
}

/// The lane whose B value lane `l` uses under BLGP (CDNA 3 ISA guide, BLGP field of the
/// VOP3P-MAI encoding): 1/2 broadcast one half of the lanes to both, 3 rotates by 16 lanes,
/// 4..7 broadcast one group of 16 lanes.
pub fn blgp_lane(blgp: u32, l: usize) -> usize {
    match blgp & 7 {
        0 => l,
        1 => l % 32,
        2 => 32 + l % 32,
        3 => (l + 16) % 64,
        g => 16 * (g as usize - 4) + l % 16,
    }
}

/// Lane and value index of element `(x, k)` of block `b` of an input with `outer` rows
/// (A: M) or columns (B: N), `kpl` values per lane and contiguous chunks of `chunk` values.
pub fn in_pos(
    outer: u32,
    blocks: u32,
    kpl: u32,
    chunk: u32,
    x: u32,
    k: u32,
    b: u32,
) -> (usize, usize) {
    let groups = 64 / (outer * blocks);
    let span = chunk * groups;
    let (q, r) = (k / span, k % span);
    let g = r / chunk;
    let t = q * chunk + r % chunk;
    debug_assert!(t < kpl);
    ((b * outer + g * outer * blocks + x) as usize, t as usize)
}

/// Register (in units of the accumulator: dwords for 32-bit, pairs for 64-bit) and lane of
/// element `(i, j)` of block `b` of C/D.
pub fn out_pos(m: u32, n: u32, acc_bits: u32, i: u32, j: u32, b: u32) -> (usize, usize) {
    let runs_per_reg = 64 / n;
    let height = if acc_bits == 64 { 1 } else { 4 };
    let blocks_per_reg = 64u32.div_ceil(n * m / height);
    let reg = b * (m * n / 64) + i / (height * runs_per_reg) * height + i % height;
    let lane = (b % blocks_per_reg) * n + (i / height) % runs_per_reg * blocks_per_reg * n + j;
    (reg as usize, lane as usize)
}

/// The values of an operand: `regs[d * 64 + lane]` for dword `d`.
struct Regs {
    dwords: Vec<u32>,
}

impl Regs {
    fn read(w: &Wave, src: Src, count: u32, wide_const: bool) -> Result<Regs, ExecError> {
        let mut dwords = vec![0u32; count as usize * 64];
        match src {
            Src::Vgpr(r) | Src::Agpr(r) => {
                for d in 0..count {
                    let lanes = match src {
                        Src::Vgpr(_) => w.vgpr_lanes(r as u32 + d)?,
                        _ => w.agpr_lanes(r as u32 + d)?,
                    };
                    dwords[d as usize * 64..][..64].copy_from_slice(lanes);
                }
            }
            s if wide_const => {
                // A 64-bit constant fills every register pair.
                let v = w.read_scalar_b64(s, true)?;
                for d in 0..count as usize {
                    let half = if d % 2 == 0 {
                        v as u32
                    } else {
                        (v >> 32) as u32
                    };
                    dwords[d * 64..][..64].fill(half);
                }
            }
            s => dwords.fill(w.read_scalar_b32(s)?),
        }
        Ok(Regs { dwords })
    }

    /// `bits`-wide value `t` of `lane` (values packed from bit 0 of the first dword).
    fn value(&self, lane: usize, t: usize, bits: u32) -> u64 {
        let off = t * bits as usize;
        let (d, s) = (off / 32, off % 32);
        let lo = self.dwords[d * 64 + lane] as u64;
        let hi = self.dwords.get((d + 1) * 64 + lane).copied().unwrap_or(0) as u64;
        ((lo | hi << 32) >> s) & (u64::MAX >> (64 - bits))
    }

    fn acc(&self, reg: usize, lane: usize, bits: u32) -> u64 {
        if bits == 64 {
            self.dwords[2 * reg * 64 + lane] as u64
                | (self.dwords[(2 * reg + 1) * 64 + lane] as u64) << 32
        } else {
            self.dwords[reg * 64 + lane] as u64
        }
    }
}

/// A number entering the sum.
#[derive(Clone, Copy, Debug)]
enum Term {
    Zero {
        neg: bool,
    },
    Finite {
        neg: bool,
        sig: u128,
        exp: i32,
    },
    Inf {
        neg: bool,
    },
    Nan,
    /// An integer (i8 inputs, i32 accumulators).
    Int(i64),
}

fn float_term(fmt: &Format, bits: u64) -> Term {
    let u = fl::unpack(fmt, bits);
    match u.class {
        Class::Zero => Term::Zero { neg: u.sign },
        Class::Finite => Term::Finite {
            neg: u.sign,
            sig: u.sig as u128,
            exp: u.exp,
        },
        Class::Infinite => Term::Inf { neg: u.sign },
        Class::Nan { .. } => Term::Nan,
    }
}

fn negate(t: Term) -> Term {
    match t {
        Term::Zero { neg } => Term::Zero { neg: !neg },
        Term::Finite { neg, sig, exp } => Term::Finite {
            neg: !neg,
            sig,
            exp,
        },
        Term::Inf { neg } => Term::Inf { neg: !neg },
        Term::Int(v) => Term::Int(-v),
        Term::Nan => Term::Nan,
    }
}

/// `a × b × 2^scale`, exact.
fn product(a: Term, b: Term, scale: i32) -> Term {
    use Term::*;
    match (a, b) {
        (Nan, _) | (_, Nan) => Nan,
        (Int(x), Int(y)) => Int(x * y),
        (Inf { .. }, Zero { .. }) | (Zero { .. }, Inf { .. }) => Nan,
        (Inf { neg: p }, Inf { neg: q })
        | (Inf { neg: p }, Finite { neg: q, .. })
        | (Finite { neg: p, .. }, Inf { neg: q }) => Inf { neg: p ^ q },
        (Zero { neg: p }, Zero { neg: q })
        | (Zero { neg: p }, Finite { neg: q, .. })
        | (Finite { neg: p, .. }, Zero { neg: q }) => Zero { neg: p ^ q },
        (
            Finite {
                neg: p,
                sig: s,
                exp: e,
            },
            Finite {
                neg: q,
                sig: t,
                exp: f,
            },
        ) => Finite {
            neg: p ^ q,
            sig: s * t,
            exp: e + f + scale,
        },
        _ => Nan,
    }
}

/// An exact sum of finite terms: a two's-complement fixed-point number whose bit 0 weighs
/// `2^base` (a Kulisch accumulator sized for the terms at hand).
struct ExactSum {
    limbs: Vec<u64>,
    base: i32,
}

impl ExactSum {
    /// Room for terms with exponents from `min_exp` and magnitudes below `2^max_top`, plus
    /// `count` additions of carry.
    fn new(min_exp: i32, max_top: i32, count: usize) -> ExactSum {
        let headroom = usize::BITS - count.leading_zeros() + 2;
        let bits = (max_top - min_exp) as usize + headroom as usize;
        ExactSum {
            limbs: vec![0; bits / 64 + 2],
            base: min_exp,
        }
    }

    fn add(&mut self, neg: bool, sig: u128, exp: i32) {
        let off = (exp - self.base) as usize;
        let (limb, shift) = (off / 64, off % 64);
        // sig << shift as three limbs.
        let parts = [
            (sig << shift) as u64,
            ((sig << shift) >> 64) as u64,
            if shift == 0 {
                0
            } else {
                (sig >> (128 - shift)) as u64
            },
        ];
        let mut carry = false;
        for (i, l) in self.limbs[limb..].iter_mut().enumerate() {
            let p = parts.get(i).copied().unwrap_or(0);
            if i >= 3 && !carry {
                break;
            }
            if neg {
                let (r1, b1) = l.overflowing_sub(p);
                let (r2, b2) = r1.overflowing_sub(carry as u64);
                *l = r2;
                carry = b1 || b2;
            } else {
                let (r1, c1) = l.overflowing_add(p);
                let (r2, c2) = r1.overflowing_add(carry as u64);
                *l = r2;
                carry = c1 || c2;
            }
        }
    }

    /// The sum rounded into `fmt` (round to nearest even); None for an exact zero.
    fn round(mut self, fmt: &Format) -> Option<u64> {
        let neg = self.limbs.last().is_some_and(|l| l >> 63 != 0);
        if neg {
            // Two's-complement negation.
            let mut carry = true;
            for l in self.limbs.iter_mut() {
                let (r, c) = (!*l).overflowing_add(carry as u64);
                *l = r;
                carry = c;
            }
        }
        let top = self.limbs.iter().rposition(|&l| l != 0)?;
        // The top two nonzero-or-below limbs as the magnitude, the rest as sticky.
        let hi = self.limbs[top] as u128;
        let lo = if top > 0 {
            self.limbs[top - 1] as u128
        } else {
            0
        };
        let sticky = top > 1 && self.limbs[..top - 1].iter().any(|&l| l != 0);
        let mag = hi << 64 | lo;
        let exp = self.base + 64 * (top as i32 - 1);
        let (bits, _) = fl::round_pack(
            fmt,
            neg,
            mag,
            exp,
            sticky,
            Rounding::Ieee(RoundingMode::NearestEven),
            Overflow::Ieee,
        );
        Some(bits)
    }
}

/// The sum of `terms` in the accumulator type.
fn sum(terms: &[Term], acc: Acc) -> u64 {
    if acc == Acc::I32 {
        let s = terms.iter().fold(0i64, |s, t| match t {
            Term::Int(v) => s.wrapping_add(*v),
            _ => s,
        });
        return s as i32 as u32 as u64;
    }
    let fmt = if acc == Acc::F64 {
        Format::F64
    } else {
        Format::F32
    };
    let nan = fmt.default_nan().unwrap_or(0);
    let (mut pos_inf, mut neg_inf, mut all_neg_zero) = (false, false, true);
    let (mut min_exp, mut max_top) = (i32::MAX, i32::MIN);
    for t in terms {
        match *t {
            Term::Nan => return nan,
            Term::Inf { neg } => {
                if neg {
                    neg_inf = true
                } else {
                    pos_inf = true
                }
            }
            Term::Zero { neg } => all_neg_zero &= neg,
            Term::Finite { sig, exp, .. } => {
                all_neg_zero = false;
                min_exp = min_exp.min(exp);
                max_top = max_top.max(exp + 128 - sig.leading_zeros() as i32);
            }
            Term::Int(_) => {}
        }
    }
    match (pos_inf, neg_inf) {
        (true, true) => return nan,
        (true, false) => return fmt.infinity().unwrap_or(0),
        (false, true) => return fmt.infinity().unwrap_or(0) | fmt.sign_bit(),
        _ => {}
    }
    let zero = if all_neg_zero { fmt.sign_bit() } else { 0 };
    if min_exp == i32::MAX {
        return zero;
    }
    let mut acc_sum = ExactSum::new(min_exp, max_top, terms.len());
    for t in terms {
        if let Term::Finite { neg, sig, exp } = *t {
            acc_sum.add(neg, sig, exp);
        }
    }
    // An exact cancellation gives +0 (round to nearest).
    acc_sum.round(&fmt).unwrap_or(0)
}

impl MatrixOp {
    /// Values per lane of A as stored (the compressed count for SMFMAC).
    fn kpl(&self, elem: Elem, dwords: u32) -> u32 {
        let used = match self.kind {
            // F8F6F4 operands are sized for fp8; narrower formats use the low registers.
            Kind::F8f6f4 { .. } => {
                let groups = 64 / (self.m * self.blocks);
                return self.k / groups;
            }
            _ => dwords * 32,
        };
        used / elem.bits()
    }

    /// Values per contiguous chunk of a lane (see the module docs).
    fn chunk(&self, elem: Elem, kpl: u32) -> u32 {
        match (self.kind, elem) {
            (Kind::F8f6f4 { .. }, Elem::Fp8 | Elem::Bf8) => 16,
            _ => kpl,
        }
    }

    /// The element types of A and B under these modifiers.
    pub fn input_types(&self, mods: &Modifiers) -> Result<(Elem, Elem), String> {
        match self.kind {
            Kind::F8f6f4 { .. } => {
                let a = Elem::from_f8f6f4_code(mods.cbsz)
                    .ok_or_else(|| format!("CBSZ {} names no A format", mods.cbsz))?;
                let b = Elem::from_f8f6f4_code(mods.blgp)
                    .ok_or_else(|| format!("BLGP {} names no B format", mods.blgp))?;
                Ok((a, b))
            }
            _ => Ok((self.a, self.b)),
        }
    }

    fn input_term(&self, elem: Elem, bits: u64) -> Term {
        match elem.format(self.fnuz) {
            None => Term::Int(bits as u8 as i8 as i64),
            Some(fmt) => float_term(&fmt, bits),
        }
    }

    fn acc_term(&self, bits: u64) -> Term {
        match self.acc {
            Acc::I32 => Term::Int(bits as u32 as i32 as i64),
            Acc::F32 => float_term(&Format::F32, bits),
            Acc::F64 => float_term(&Format::F64, bits),
        }
    }

    /// Computes D from the operands' register contents (`a`, `b`, `c` laid out
    /// `[dword * 64 + lane]`); `index` is SRC2 of SMFMAC, `scales` the scale operands of the
    /// block-scaled form. Returns D in the same layout.
    pub fn compute(
        &self,
        mods: &Modifiers,
        a: &[u32],
        b: &[u32],
        c: &[u32],
        index: &[u32],
        scales: [&[u32]; 2],
    ) -> Result<Vec<u32>, String> {
        let (ta, tb) = self.input_types(mods)?;
        let a = Regs { dwords: a.to_vec() };
        let b = Regs { dwords: b.to_vec() };
        let c = Regs { dwords: c.to_vec() };
        let (m, n, k, blocks) = (self.m, self.n, self.k, self.blocks);
        let f64_neg = self.acc == Acc::F64;
        let neg = |bit: u32| f64_neg && mods.blgp >> bit & 1 != 0;
        let swizzles = !f64_neg && self.kind == Kind::Dense;
        let blgp = if swizzles { mods.blgp } else { 0 };
        // Broadcast groups never span more blocks than the instruction has.
        let group = (1u32 << mods.cbsz.min(4)).min(blocks);
        let broadcast = swizzles && group > 1;
        let kpl_a = self.kpl(ta, self.a_dwords);
        let kpl_b = self.kpl(tb, self.b_dwords);
        let (chunk_a, chunk_b) = (self.chunk(ta, kpl_a), self.chunk(tb, kpl_b));
        let bits_acc = self.acc.bits();
        let mut out = vec![0u32; self.d_dwords as usize * 64];
        // A as a dense M×K matrix per block (SMFMAC decompressed through the indices).
        let mut a_mat = vec![Term::Zero { neg: false }; (blocks * m * k) as usize];
        for blk in 0..blocks {
            let src_blk = if broadcast {
                blk / group * group + (mods.abid & (group - 1))
            } else {
                blk
            };
            for i in 0..m {
                if self.kind == Kind::Sparse {
                    let groups = 64 / (m * blocks);
                    let sets = 32 / (2 * kpl_a);
                    for g in 0..groups {
                        let lane = (i + g * m) as usize;
                        let idx = index[lane] >> (2 * kpl_a * (mods.abid % sets.max(1)));
                        for t in 0..kpl_a {
                            let pos = 4 * (t / 2) + (idx >> (2 * t) & 3);
                            let kk = g * 2 * kpl_a + pos;
                            let v = self.input_term(ta, a.value(lane, t as usize, ta.bits()));
                            let slot = &mut a_mat[((blk * m + i) * k + kk) as usize];
                            // Two values at one position add up.
                            *slot = match *slot {
                                Term::Zero { .. } => v,
                                old => {
                                    return Err(format!(
                                        "SMFMAC index names K position {kk} twice ({old:?})"
                                    ))
                                }
                            };
                        }
                    }
                    continue;
                }
                for kk in 0..k {
                    let (lane, t) = in_pos(m, blocks, kpl_a, chunk_a, i, kk, src_blk);
                    let mut v = self.input_term(ta, a.value(lane, t, ta.bits()));
                    if neg(0) {
                        v = negate(v);
                    }
                    a_mat[((blk * m + i) * k + kk) as usize] = v;
                }
            }
        }
        let scale_of = |which: usize, lane: usize, sel: u32| -> i32 {
            let byte = (scales[which][lane] >> (8 * (sel & 3))) & 0xff;
            byte as i32 - 127
        };
        let mut terms = Vec::with_capacity(k as usize + 1);
        for blk in 0..blocks {
            for j in 0..n {
                // B column j of this block.
                let bcol: Vec<(Term, usize)> = (0..k)
                    .map(|kk| {
                        let (lane, t) = in_pos(n, blocks, kpl_b, chunk_b, j, kk, blk);
                        let lane = blgp_lane(blgp, lane);
                        let mut v = self.input_term(tb, b.value(lane, t, tb.bits()));
                        if neg(1) {
                            v = negate(v);
                        }
                        (v, lane)
                    })
                    .collect();
                for i in 0..m {
                    let (reg, lane) = out_pos(m, n, bits_acc, i, j, blk);
                    terms.clear();
                    let mut cv = self.acc_term(c.acc(reg, lane, bits_acc));
                    if neg(2) {
                        cv = negate(cv);
                    }
                    terms.push(cv);
                    for (kk, (bv, _)) in bcol.iter().enumerate() {
                        let av = a_mat[((blk * m + i) * k) as usize + kk];
                        let scale = if matches!(self.kind, Kind::F8f6f4 { scaled: true }) {
                            let kb = kk as u32 / 32;
                            let sa = scale_of(
                                0,
                                (i + m * kb) as usize,
                                mods.op_sel & 1 | (mods.op_sel_hi & 1) << 1,
                            );
                            let sb = scale_of(
                                1,
                                (j + n * kb) as usize,
                                (mods.op_sel >> 1) & 1 | (mods.op_sel_hi & 2),
                            );
                            if sa == 128 || sb == 128 {
                                // An E8M0 of all ones is NaN.
                                terms.push(Term::Nan);
                                continue;
                            }
                            sa + sb
                        } else {
                            0
                        };
                        terms.push(product(av, *bv, scale));
                    }
                    let r = sum(&terms, self.acc);
                    if bits_acc == 64 {
                        out[2 * reg * 64 + lane] = r as u32;
                        out[(2 * reg + 1) * 64 + lane] = (r >> 32) as u32;
                    } else {
                        out[reg * 64 + lane] = r as u32;
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The executor of every matrix instruction: reads SRC0/SRC1/SRC2 (VGPRs or AGPRs by the
/// ACC/ACC_CD bits; SRC2 may be an inline constant), computes, writes VDST.
pub fn execute(w: &mut Wave, d: &Decoded, op: &MatrixOp) -> Result<Flow, ExecError> {
    let mn = d.mnemonic();
    if w.lanes() != 64 {
        return Err(ExecError::unsupported(
            mn,
            "matrix instructions need wave64",
        ));
    }
    let field = |f: &str| d.field(f).unwrap_or(0) as u32;
    let mods = Modifiers {
        cbsz: field("CBSZ"),
        abid: field("ABID"),
        blgp: field("BLGP"),
        op_sel: field("OP_SEL"),
        op_sel_hi: field("OP_SEL_HI"),
    };
    let (ta, tb) = op
        .input_types(&mods)
        .map_err(|e| ExecError::unsupported(mn, e))?;
    // Narrow F8F6F4 formats read only the registers they fill.
    let dwords = |e: Elem, full: u32| match op.kind {
        Kind::F8f6f4 { .. } => op.kpl(e, full) * e.bits() / 32,
        _ => full,
    };
    // The operand model names VGPRs; ACC (bit 0: SRC0, bit 1: SRC1) and ACC_CD (VDST and
    // C) say which are AGPRs, as the disassembler prints them.
    let acc = field("ACC");
    let acc_cd = field("ACC_CD") != 0;
    let file = |s: Src, agpr: bool| match s {
        Src::Vgpr(r) if agpr => Src::Agpr(r),
        s => s,
    };
    let a = Regs::read(
        w,
        file(d.src_of("SRC0")?, acc & 1 != 0),
        dwords(ta, op.a_dwords),
        false,
    )?;
    let b = Regs::read(
        w,
        file(d.src_of("SRC1")?, acc & 2 != 0),
        dwords(tb, op.b_dwords),
        false,
    )?;
    let vdst = file(d.src_of("VDST")?, acc_cd);
    let wide = op.acc == Acc::F64;
    let (c, index) = if op.kind == Kind::Sparse {
        let idx = Regs::read(w, d.src_of("SRC2")?, 1, false)?;
        (Regs::read(w, vdst, op.d_dwords, false)?, idx.dwords)
    } else {
        let c = file(d.src_of("SRC2")?, acc_cd);
        (Regs::read(w, c, op.d_dwords, wide)?, vec![0; 64])
    };
    let scales = if matches!(op.kind, Kind::F8f6f4 { scaled: true }) {
        [
            Regs::read(w, d.src_of("SCALE_SRC0")?, 1, false)?.dwords,
            Regs::read(w, d.src_of("SCALE_SRC1")?, 1, false)?.dwords,
        ]
    } else {
        [vec![0; 64], vec![0; 64]]
    };
    let pad = |mut v: Vec<u32>, dw: u32| {
        v.resize(dw as usize * 64, 0);
        v
    };
    let out = op
        .compute(
            &mods,
            &pad(a.dwords, op.a_dwords),
            &pad(b.dwords, op.b_dwords),
            &c.dwords,
            &index,
            [&scales[0], &scales[1]],
        )
        .map_err(|e| ExecError::unsupported(mn, e))?;
    let (base, agpr) = match vdst {
        Src::Vgpr(r) => (r as u32, false),
        Src::Agpr(r) => (r as u32, true),
        other => {
            return Err(ExecError::illegal(
                format!("{other:?}"),
                "the matrix result goes to VGPRs or AGPRs",
            ))
        }
    };
    for dw in 0..op.d_dwords {
        let lanes = if agpr {
            w.agpr_lanes_mut(base + dw)?
        } else {
            w.vgpr_lanes_mut(base + dw)?
        };
        lanes.copy_from_slice(&out[dw as usize * 64..][..64]);
    }
    Ok(Flow::Next)
}
