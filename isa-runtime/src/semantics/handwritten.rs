//! Hand-written semantics for instructions whose pseudocode AMD gets wrong or leaves as prose
//! (the Rust half of the project's override layer; the pseudocode half is
//! `spec/overrides/*.pcode`). `isa-gen` lists each one with its reason in the coverage report
//! and generates an executor that calls the function here.
//!
//! The division helpers implement the contract LLVM's `fdiv` expansion relies on
//! (`v_div_scale` twice, `v_rcp`, Newton steps with `v_fma`, `v_div_fmas`, `v_div_fixup`): the
//! sequence returns the correctly rounded quotient. AMD's text for them compares values with
//! the constant `DENORM` where it means "is denormal", and scales the result of `v_div_fmas`
//! by a factor that does not undo `v_div_scale`'s; the model here is the project's own:
//!
//! - `div_scale(s0, den, num)` returns `s0` scaled so that the quotient of the scaled operands,
//!   and the reciprocal of the scaled denominator, are normal numbers. When both operands are
//!   scaled by the same power of two the quotient is unchanged and VCC is 0; when only one of
//!   them is, VCC is 1: the numerator alone by 2^K when the quotient is tiny (it then comes
//!   out 2^K too large), the denominator alone when the quotient is huge (2^K too small).
//!   K is 64 for f32, 128 for f64.
//! - `div_fmas(a, b, c)` is `fma(a, b, c)`, and with VCC set it is scaled back by 2^-K when
//!   the exact sum is below 1 in magnitude and by 2^K otherwise, with one rounding.
//! - `div_fixup(q, den, num)` gives the IEEE results of the special cases (NaN, 0/0, ∞/∞,
//!   x/0, ∞/y, x/∞, 0/y), and otherwise `q` with the quotient's sign.
//! - `trig_preop(x, seg)` is a 53-bit segment of 2/π (see [`trig_preop`]).

use super::{role, FormBinding, FormBindings, Mods};
use crate::exec::float::{self as fl, RoundingMode, SoftFloat, F64};
use crate::exec::wave::{LaneIter, MAX_LANES};
use crate::exec::{Decoded, ExecError, Flow, Wave};

/// `(m, k)`: the exponent distance and scale of a format's division helpers.
trait DivFormat: SoftFloat {
    /// The scale exponent K.
    const K: i32;
    /// `exp(num) - exp(den)` from which the quotient may overflow.
    const HUGE_RATIO: i32;
}
impl DivFormat for fl::F32 {
    const K: i32 = 64;
    const HUGE_RATIO: i32 = 96;
}
impl DivFormat for F64 {
    const K: i32 = 128;
    const HUGE_RATIO: i32 = 768;
}

/// The biased exponent field.
fn exp_field<T: SoftFloat>(x: T) -> i32 {
    ((x.to_bits() >> T::FORMAT.man_bits) & T::FORMAT.exp_all_ones()) as i32
}

/// The unbiased exponent of a finite nonzero value (denormals normalised).
fn ilogb<T: SoftFloat>(x: T) -> i32 {
    fl::frexp(x).1 - 1
}

fn ldexp<T: SoftFloat>(x: T, n: i32) -> T {
    fl::ldexp(fl::FpEnv::RNE, x, n)
}

/// `V_DIV_SCALE`: `s0` (which must be `den` or `num`) scaled, and VCC.
fn div_scale<T: DivFormat>(w: &Wave, s0: T, den: T, num: T) -> (T, bool) {
    let env = w.mode.env::<T>();
    let (s0, den, num) = (
        fl::flush_in(env, s0),
        fl::flush_in(env, den),
        fl::flush_in(env, num),
    );
    if fl::is_nan(den) || fl::is_nan(num) || fl::is_inf(den) || fl::is_inf(num) {
        // div_fixup decides these; pass the operand through.
        return (s0, false);
    }
    if fl::is_zero(den) || fl::is_zero(num) {
        return (fl::default_nan(), false);
    }
    let is_den = s0 == den;
    let k = T::K;
    let (ed, en) = (ilogb(den), ilogb(num));
    let emin = 1 - T::FORMAT.bias;
    let emax = T::FORMAT.bias;
    // Quotient exponent within one of en - ed; reciprocal exponent -ed.
    let q_exp = en - ed;
    if q_exp >= T::HUGE_RATIO {
        // Huge quotient: scale the denominator alone up (quotient 2^K too small).
        return (if is_den { ldexp(s0, k) } else { s0 }, true);
    }
    if ed < emin {
        // Denormal denominator: both up (quotient unchanged).
        return (ldexp(s0, k), false);
    }
    let recip_denormal = -ed - 1 < emin;
    let quotient_denormal = q_exp - 1 < emin;
    if quotient_denormal {
        // Tiny quotient: the numerator alone up (quotient 2^K too large); a huge denominator
        // (tiny reciprocal) comes down instead, which has the same effect on the quotient.
        return if recip_denormal {
            (if is_den { ldexp(s0, -k) } else { s0 }, true)
        } else {
            (if is_den { s0 } else { ldexp(s0, k) }, true)
        };
    }
    if recip_denormal || ed > emax - 2 {
        // Tiny reciprocal: both down.
        return (ldexp(s0, -k), false);
    }
    if en < emin + T::FORMAT.man_bits as i32 {
        // Tiny numerator (its low bits would be lost in the Newton steps): both up.
        return (ldexp(s0, k), false);
    }
    (s0, false)
}

/// The exact `a × b + c`, times `2^scale`, rounded once per `env`.
fn fma_scaled<T: SoftFloat>(env: fl::FpEnv, a: T, b: T, c: T, scale: i32) -> T {
    if let Some(n) = [a, b, c].into_iter().find(|x| fl::is_nan(*x)) {
        return fl::quiet(n);
    }
    let (a, b, c) = (
        fl::flush_in(env, a),
        fl::flush_in(env, b),
        fl::flush_in(env, c),
    );
    let fmt = T::FORMAT;
    let (ua, ub, uc) = (
        fl::unpack(&fmt, a.to_bits()),
        fl::unpack(&fmt, b.to_bits()),
        fl::unpack(&fmt, c.to_bits()),
    );
    use fl::Class::*;
    let psign = ua.sign ^ ub.sign;
    let pinf = ua.class == Infinite || ub.class == Infinite;
    let pzero = ua.class == Zero || ub.class == Zero;
    if pinf && pzero {
        return fl::default_nan();
    }
    if pinf || uc.class == Infinite {
        if pinf && uc.class == Infinite && psign != uc.sign {
            return fl::default_nan();
        }
        let sign = if pinf { psign } else { uc.sign };
        let inf = fmt.infinity().unwrap_or(fmt.max_finite());
        return T::from_bits(inf | if sign { fmt.sign_bit() } else { 0 });
    }
    // Exact product and addend as (sign, magnitude, exponent).
    let (pmag, pexp) = if pzero {
        (0u128, 0)
    } else {
        (ua.sig as u128 * ub.sig as u128, ua.exp + ub.exp)
    };
    let cmag = if uc.class == Zero {
        0u128
    } else {
        uc.sig as u128
    };
    let (sign, mag, exp, sticky) = exact_sum((psign, pmag, pexp), (uc.sign, cmag, uc.exp));
    if mag == 0 && !sticky {
        // An exact zero: the sign of x + y for zero operands, else +0 (−0 rounding down).
        let neg = if pmag == 0 && cmag == 0 {
            psign && uc.sign || ((psign || uc.sign) && env.round == RoundingMode::Down)
        } else {
            env.round == RoundingMode::Down
        };
        return T::from_bits(if neg { fmt.sign_bit() } else { 0 });
    }
    let (bits, _) = fl::round_pack(
        &fmt,
        sign,
        mag,
        exp.saturating_add(scale),
        sticky,
        fl::Rounding::Ieee(env.round),
        fl::Overflow::Ieee,
    );
    let r = T::from_bits(bits);
    if !env.denorm.keep_out && fl::is_denormal(r) {
        T::from_bits(bits & fmt.sign_bit())
    } else {
        r
    }
}

/// The exact sum of two signed values `mag × 2^exp`, as a magnitude, an exponent and a sticky
/// bit for the part below the magnitude's unit (the magnitude then stands for `mag + δ`,
/// `0 < δ < 1`).
fn exact_sum(x: (bool, u128, i32), y: (bool, u128, i32)) -> (bool, u128, i32, bool) {
    if y.1 == 0 {
        return (x.0, x.1, x.2, false);
    }
    if x.1 == 0 {
        return (y.0, y.1, y.2, false);
    }
    let (mut big, mut small) = if x.2 >= y.2 { (x, y) } else { (y, x) };
    // Move the larger-exponent operand down to make room (keeping 2 bits of headroom).
    let room = (big.1.leading_zeros() as i32 - 2).max(0);
    let diff = big.2 - small.2;
    let s = diff.min(room);
    big.1 <<= s;
    big.2 -= s;
    let rest = big.2 - small.2;
    let mut sticky = false;
    if rest > 0 {
        if rest >= 128 {
            sticky = small.1 != 0;
            small.1 = 0;
        } else {
            sticky = small.1 & ((1u128 << rest) - 1) != 0;
            small.1 >>= rest;
        }
        small.2 = big.2;
    }
    if big.0 == small.0 {
        return (big.0, big.1 + small.1, big.2, sticky);
    }
    // Opposite signs: big − (small + δ).
    if big.1 > small.1 || (big.1 == small.1 && !sticky) {
        let m = big.1 - small.1;
        if sticky {
            (big.0, m - 1, big.2, true)
        } else {
            (big.0, m, big.2, false)
        }
    } else {
        // small (+ δ) exceeds big: the result has small's sign; small was not shifted with
        // a sticky tail in this case unless the exponents were equal.
        (small.0, small.1 - big.1, big.2, sticky)
    }
}

/// `V_DIV_FMAS`: `fma(a, b, c)`, scaled back by 2^∓K when VCC is set.
fn div_fmas<T: DivFormat>(w: &Wave, a: T, b: T, c: T, vcc: bool) -> T {
    let env = w.mode.env::<T>();
    if !vcc {
        return fl::fma(env, a, b, c);
    }
    // The direction follows the magnitude of the unscaled result.
    let probe = fma_scaled(fl::FpEnv::RNE, a, b, c, 0);
    let k = if fl::is_nan(probe) || exp_field(fl::abs(probe)) >= T::FORMAT.bias {
        T::K
    } else {
        -T::K
    };
    fma_scaled(env, a, b, c, k)
}

/// `V_DIV_FIXUP`: special cases of `num / den`, else `q` with the quotient's sign.
fn div_fixup<T: SoftFloat>(w: &Wave, q: T, den: T, num: T) -> T {
    let env = w.mode.env::<T>();
    let (den, num) = (fl::flush_in(env, den), fl::flush_in(env, num));
    let fmt = T::FORMAT;
    let sign = fl::sign_bit(den) ^ fl::sign_bit(num);
    let signed = |bits: u64| T::from_bits(bits | if sign { fmt.sign_bit() } else { 0 });
    // AMD's canonical NaN of 0/0 and ∞/∞: the negative quiet NaN (0xffc00000 for f32).
    let neg_nan = T::from_bits(fmt.default_nan().unwrap_or(0) | fmt.sign_bit());
    if fl::is_nan(num) {
        return fl::quiet(num);
    }
    if fl::is_nan(den) {
        return fl::quiet(den);
    }
    let (dz, nz, di, ni) = (
        fl::is_zero(den),
        fl::is_zero(num),
        fl::is_inf(den),
        fl::is_inf(num),
    );
    if (dz && nz) || (di && ni) {
        return neg_nan;
    }
    if dz || ni {
        return signed(fmt.infinity().unwrap_or(fmt.max_finite()));
    }
    if di || nz {
        return signed(0);
    }
    // Quotients far outside the range: the scaled sequence overflows on the way (a NaN
    // reaches here); the result is the rounding of a value beyond the largest (or below the
    // smallest) magnitude.
    let qexp = ilogb(num) - ilogb(den);
    let beyond = |exp: i32| {
        let (bits, _) = fl::round_pack(
            &fmt,
            sign,
            1,
            exp,
            true,
            fl::Rounding::Ieee(env.round),
            fl::Overflow::Ieee,
        );
        T::from_bits(bits)
    };
    if qexp > fmt.bias + 1 {
        return beyond(fmt.bias + 4);
    }
    if qexp < 1 - fmt.bias - fmt.man_bits as i32 - 3 {
        return beyond(1 - fmt.bias - fmt.man_bits as i32 - 8);
    }
    if fl::is_nan(q) {
        return q;
    }
    signed(fl::abs(q).to_bits())
}

/// The fractional bits of 2/π: `b_1200` (the most significant, value 2^-1) down to `b_0`, left
/// aligned in 19 words (the last 15 bits are zero). Computed by the project with Machin's
/// formula in 1400-bit fixed point; `exec_gen_overrides` checks them against an independent
/// computation.
pub const TWO_OVER_PI_BITS: [u64; 19] = [
    0xa2f9836e4e441529,
    0xfc2757d1f534ddc0,
    0xdb6295993c439041,
    0xfe5163abdebbc561,
    0xb7246e3a424dd2e0,
    0x06492eea09d1921c,
    0xfe1deb1cb129a73e,
    0xe88235f52ebb4484,
    0xe99c7026b45f7e41,
    0x3991d639835339f4,
    0x9c845f8bbdf9283b,
    0x1ff897ffde05980f,
    0xef2f118b5a0a6d1f,
    0x6d367ecf27cb09b7,
    0x4f463f669e5fea2d,
    0x7527bac7ebe5f17b,
    0x3d0739f78a5292ea,
    0x6bfb5fb11f8d5d08,
    0x56033046fc7b0000,
];

/// 53 bits of 2/π starting `shift` bits after the binary point (zeros past the 1201 bits).
pub fn two_over_pi_bits(shift: u32) -> u64 {
    let mut v = 0u64;
    for i in 0..53u32 {
        let pos = shift + i; // 0 = b_1200
        let bit = if pos < 1201 {
            (TWO_OVER_PI_BITS[(pos / 64) as usize] >> (63 - pos % 64)) & 1
        } else {
            0
        };
        v = v << 1 | bit;
    }
    v
}

/// `V_TRIG_PREOP_F64`: the 53-bit segment `seg` (S1[4:0]) of 2/π as a double:
/// `bits × 2^(-53 - shift)` with `shift = 53 × seg`, moved further down by the amount `x`'s
/// exponent exceeds 2^54 (so that `x ×` the segment keeps its significant bits), and scaled up
/// by 2^128 for `x ≥ 2^945` (where the result would underflow), as the large-argument
/// reduction of sin/cos expects.
pub fn trig_preop(w: &Wave, x: F64, seg: u32) -> F64 {
    let e = exp_field(x);
    let mut shift = 53 * (seg & 31) as i32;
    if e > 1077 {
        shift += e - 1077;
    }
    let chunk = two_over_pi_bits(shift as u32);
    let mut scale = -53 - shift;
    if e >= 1968 {
        scale += 128;
    }
    let env = w.mode.env::<F64>();
    fl::ldexp(env, fl::from_u64::<F64>(env, chunk), scale)
}

// ---------------------------------------------------------------------------------------------
// Executors (called by the generated code with the generation's binding table)

type R = Result<Flow, ExecError>;

fn lanes_f<T: SoftFloat>(
    w: &Wave,
    d: &Decoded,
    b: &FormBinding,
    r: usize,
) -> Result<[u64; MAX_LANES], ExecError> {
    let bits = T::FORMAT.man_bits + T::FORMAT.exp_bits + 1;
    let s = b.op(d, r)?;
    let mut out = [0u64; MAX_LANES];
    for (lane, o) in out.iter_mut().enumerate().take(w.lanes()) {
        *o = super::read_lane(w, s, lane, bits, b.is_f64(r))? as u64;
    }
    Ok(out)
}

fn store_f<T: SoftFloat>(
    w: &mut Wave,
    d: &Decoded,
    b: &FormBinding,
    out: &[u64; MAX_LANES],
    exec: u64,
) -> Result<(), ExecError> {
    let dst = b.op(d, role::D0)?;
    let dwords = (T::FORMAT.man_bits + T::FORMAT.exp_bits + 1).div_ceil(32);
    for k in 0..dwords {
        let mut v = [0u32; MAX_LANES];
        for lane in 0..MAX_LANES {
            v[lane] = (out[lane] >> (32 * k)) as u32;
        }
        super::store_lanes(w, dst, k, &v, exec)?;
    }
    Ok(())
}

/// Reads the three float sources (with VOP3 modifiers), runs `f` per active lane, writes D0
/// (with the output modifiers).
fn three_sources<T: SoftFloat>(
    w: &mut Wave,
    d: &Decoded,
    table: &'static FormBindings,
    mut f: impl FnMut(&Wave, usize, T, T, T) -> T,
) -> R {
    let b = FormBinding::of(d, table)?;
    let m = Mods::read(d, b)?;
    let (s0, s1, s2) = (
        lanes_f::<T>(w, d, b, role::S0)?,
        lanes_f::<T>(w, d, b, role::S1)?,
        lanes_f::<T>(w, d, b, role::S2)?,
    );
    let exec = w.exec_mask();
    let mut out = [0u64; MAX_LANES];
    for lane in LaneIter(exec) {
        let r = f(
            w,
            lane,
            m.src(0, T::from_bits(s0[lane])),
            m.src(1, T::from_bits(s1[lane])),
            m.src(2, T::from_bits(s2[lane])),
        );
        out[lane] = m.out(w, r).to_bits();
    }
    store_f::<T>(w, d, b, &out, exec)?;
    Ok(Flow::Next)
}

/// The VCC a VOP3 form reads: real VCC, or (VOP3 forms that name it) the third source.
fn vcc_in(w: &Wave) -> u64 {
    w.vcc
}

macro_rules! div_executors {
    ($t:ty, $scale:ident, $fmas:ident, $fixup:ident) => {
        /// `V_DIV_SCALE`: D0 per lane; VCC (or VOP3SD's SDST) gets the lanes' flags, inactive
        /// lanes 0.
        pub fn $scale(w: &mut Wave, d: &Decoded, table: &'static FormBindings) -> R {
            let b = FormBinding::of(d, table)?;
            let m = Mods::read(d, b)?;
            let (s0, s1, s2) = (
                lanes_f::<$t>(w, d, b, role::S0)?,
                lanes_f::<$t>(w, d, b, role::S1)?,
                lanes_f::<$t>(w, d, b, role::S2)?,
            );
            let exec = w.exec_mask();
            let mut out = [0u64; MAX_LANES];
            let mut flags = 0u64;
            for lane in LaneIter(exec) {
                let (r, v) = div_scale::<$t>(
                    w,
                    m.src(0, <$t>::from_bits(s0[lane])),
                    m.src(1, <$t>::from_bits(s1[lane])),
                    m.src(2, <$t>::from_bits(s2[lane])),
                );
                out[lane] = r.to_bits();
                flags |= (v as u64) << lane;
            }
            store_f::<$t>(w, d, b, &out, exec)?;
            if b.has(role::D1) {
                let bits = b.write_bits(w, role::D1);
                super::write_scalar(w, b.op(d, role::D1)?, bits, flags as u128)?;
            } else if w.wave64 {
                w.vcc = flags;
            } else {
                w.vcc = (w.vcc & !0xffff_ffff) | flags;
            }
            Ok(Flow::Next)
        }

        /// `V_DIV_FMAS`: `fma` scaled back where VCC says `V_DIV_SCALE` scaled one operand.
        pub fn $fmas(w: &mut Wave, d: &Decoded, table: &'static FormBindings) -> R {
            let vcc = vcc_in(w);
            three_sources::<$t>(w, d, table, |w, lane, a, b, c| {
                div_fmas::<$t>(w, a, b, c, vcc >> lane & 1 != 0)
            })
        }

        /// `V_DIV_FIXUP`: the special cases of the quotient.
        pub fn $fixup(w: &mut Wave, d: &Decoded, table: &'static FormBindings) -> R {
            three_sources::<$t>(w, d, table, |w, _, q, den, num| {
                div_fixup::<$t>(w, q, den, num)
            })
        }
    };
}

div_executors!(fl::F32, v_div_scale_f32, v_div_fmas_f32, v_div_fixup_f32);
div_executors!(F64, v_div_scale_f64, v_div_fmas_f64, v_div_fixup_f64);

/// `V_TRIG_PREOP_F64`: D0.f64 = the segment S1[4:0] of 2/π for S0.
pub fn v_trig_preop_f64(w: &mut Wave, d: &Decoded, table: &'static FormBindings) -> R {
    let b = FormBinding::of(d, table)?;
    let m = Mods::read(d, b)?;
    let s0 = lanes_f::<F64>(w, d, b, role::S0)?;
    let s1 = super::lanes_b32(w, b.op(d, role::S1)?, 32)?;
    let exec = w.exec_mask();
    let mut out = [0u64; MAX_LANES];
    for lane in LaneIter(exec) {
        let x = m.src(0, F64(s0[lane]));
        out[lane] = m.out(w, trig_preop(w, x, s1[lane])).0;
    }
    store_f::<F64>(w, d, b, &out, exec)?;
    Ok(Flow::Next)
}

/// The lane `lane` of a `DS_SWIZZLE_B32` reads, for the GFX9 offset modes: bit 15 set with
/// bits 14:8 clear is the quad permute (lane `4q + i` reads lane `4q + offset[2i+1:2i]`),
/// bit 15 clear the bit masks within each 32 lanes (AND mask offset[4:0], OR mask
/// offset[9:5], XOR mask offset[14:10], applied in that order to the lane's low five bits).
/// Other offsets (the FFT and rotate modes) are `None`: not modelled.
pub fn swizzle_source(offset: u32, lane: usize) -> Option<usize> {
    if offset & 0x8000 == 0 {
        let (and, or, xor) = (offset & 0x1f, offset >> 5 & 0x1f, offset >> 10 & 0x1f);
        let low = (((lane as u32 & 0x1f) & and) | or) ^ xor;
        Some(lane & !0x1f | low as usize)
    } else if offset & 0x7f00 == 0 {
        Some(lane & !3 | (offset as usize >> (2 * (lane & 3)) & 3))
    } else {
        None
    }
}

/// `DS_SWIZZLE_B32`: every active lane gets the 32-bit ADDR operand of the lane the offset's
/// mode selects; a selected lane that is inactive gives 0 (the rule AMD states for the LDS
/// crossbar's permutes, `DS_BPERMUTE_B32`). AMD gives the modes as a table; this is the
/// project's model of it (see [`swizzle_source`]).
pub fn ds_swizzle_b32(w: &mut Wave, d: &Decoded, table: &'static FormBindings) -> R {
    let b = FormBinding::of(d, table)?;
    let offset = super::ds_offset(d, b) as u32;
    let src = super::lanes_b32(w, b.op(d, role::ADDR)?, 32)?;
    let exec = w.exec_mask();
    let n = w.lanes();
    let mut out = [0u32; MAX_LANES];
    for lane in LaneIter(exec) {
        let s = swizzle_source(offset, lane).ok_or_else(|| {
            ExecError::unsupported(
                d.mnemonic(),
                "the swizzle FFT and rotate modes (offset bits 15:14 both set) are not modelled",
            )
        })?;
        out[lane] = if s < n && exec >> s & 1 != 0 {
            src[s]
        } else {
            0
        };
    }
    super::store_lanes(w, b.op(d, role::VDST)?, 0, &out, exec)?;
    Ok(Flow::Next)
}

/// Pure forms of the helpers, for tests and for callers outside an executor.
pub mod pure {
    use super::*;

    pub fn div_scale_f32(w: &Wave, s0: fl::F32, den: fl::F32, num: fl::F32) -> (fl::F32, bool) {
        div_scale(w, s0, den, num)
    }
    pub fn div_scale_f64(w: &Wave, s0: F64, den: F64, num: F64) -> (F64, bool) {
        div_scale(w, s0, den, num)
    }
    pub fn div_fmas_f32(w: &Wave, a: fl::F32, b: fl::F32, c: fl::F32, vcc: bool) -> fl::F32 {
        div_fmas(w, a, b, c, vcc)
    }
    pub fn div_fmas_f64(w: &Wave, a: F64, b: F64, c: F64, vcc: bool) -> F64 {
        div_fmas(w, a, b, c, vcc)
    }
    pub fn div_fixup_f32(w: &Wave, q: fl::F32, den: fl::F32, num: fl::F32) -> fl::F32 {
        div_fixup(w, q, den, num)
    }
    pub fn div_fixup_f64(w: &Wave, q: F64, den: F64, num: F64) -> F64 {
        div_fixup(w, q, den, num)
    }
    /// `fma(a, b, c) × 2^scale` with one rounding (round to nearest even).
    pub fn fma_scaled_f32(a: fl::F32, b: fl::F32, c: fl::F32, scale: i32) -> fl::F32 {
        fma_scaled(fl::FpEnv::RNE, a, b, c, scale)
    }
    pub fn fma_scaled_f64(a: F64, b: F64, c: F64, scale: i32) -> F64 {
        fma_scaled(fl::FpEnv::RNE, a, b, c, scale)
    }
}
