//! The helper functions AMD's pseudocode calls, written by hand (names and arities follow
//! `isa-gen`'s helper table, `isa-gen/src/pcode/helpers.rs`).
//!
//! Conventions for the executor generator:
//! - Float helpers are generic over the value types of [`super::float`] (`F16`, `F32`, `F64`,
//!   `BF16`), so one Rust function serves every width the pseudocode passes.
//! - A helper whose result depends on MODE (rounding, denormals, IEEE mode) takes the wave's
//!   [`Mode`] as its first argument; [`HELPERS`] says which (`mode: true`).
//! - `u1` results are `bool`.
//! - Storage formats (fp8, bf8, fp6, fp4) travel as their bits in the low bits of a `u8`/`u32`.
//!
//! [`HELPERS`] maps every pseudocode helper name implemented here to its Rust function (with
//! MODE, generic and integer-tail flags). It is defined in `isa_vocab::helpers`, so that the
//! executor generator uses the same table without reading this file; the test
//! `table_flags_match_the_definitions` checks it against the functions below, and the test
//! `exec_helpers` counts the corpus's calls and lists what is still missing.

use super::float::{
    self as fl, Format, FpEnv, Rounding, RoundingMode, SoftFloat, BF16, F16, F32, F64,
};
use super::wave::Mode;
use std::cmp::Ordering;

pub use isa_vocab::helpers::{lookup, HelperInfo, HELPERS};

/// The pseudocode's named float constants in format `T`: `PI`, `INF`, `NAN`/`NaN` (the
/// default quiet NaN) and `sNaN` (a signaling NaN, payload 1). `None` for other names
/// (`OVERFLOW_F32`, `UNDERFLOW_F64`, `DENORM` are not modelled).
pub fn pcode_constant<T: SoftFloat>(name: &str) -> Option<T> {
    let f = T::FORMAT;
    Some(match name {
        "PI" => fl::constant(std::f64::consts::PI),
        "INF" => T::from_bits(f.infinity()?),
        "NAN" | "NaN" => fl::default_nan(),
        "sNaN" => T::from_bits(f.exp_all_ones() << f.man_bits | 1),
        "MAX_FLOAT_F32" => fl::cast(FpEnv::RNE, F32(0x7f7f_ffff)),
        _ => return None,
    })
}

// ---- classification and parts ----

pub fn is_nan<T: SoftFloat>(x: T) -> bool {
    fl::is_nan(x)
}
pub fn is_signal_nan<T: SoftFloat>(x: T) -> bool {
    fl::is_signal_nan(x)
}
pub fn is_quiet_nan<T: SoftFloat>(x: T) -> bool {
    fl::is_quiet_nan(x)
}
/// `x` with the quiet bit set when it is a NaN.
pub fn cvt_to_quiet_nan<T: SoftFloat>(x: T) -> T {
    fl::quiet(x)
}
/// The sign bit.
pub fn sign<T: SoftFloat>(x: T) -> bool {
    fl::sign_bit(x)
}
/// The stored (biased) exponent field: 0 for zeros and denormals, all ones for ∞ and NaN
/// (what `exponent(S0.f32) == 255` and `exponent(S0.f32) - 127 + 1` expect).
pub fn exponent<T: SoftFloat>(x: T) -> i32 {
    ((x.to_bits() >> T::FORMAT.man_bits) & T::FORMAT.exp_all_ones()) as i32
}
/// frexp's mantissa: finite nonzero `x` scaled into ±[0.5, 1) (denormals normalised); its
/// stored mantissa bits equal `x`'s for normal `x` (what `23'B(mantissa(x))` reads).
pub fn mantissa<T: SoftFloat>(x: T) -> T {
    fl::frexp(x).0
}
/// An even integral value (±0 included; non-integers, ∞ and NaN are not).
pub fn is_even<T: SoftFloat>(x: T) -> bool {
    let u = fl::unpack(&T::FORMAT, x.to_bits());
    match u.class {
        fl::Class::Zero => true,
        fl::Class::Finite => {
            // sig × 2^exp is an even integer iff at least one factor of two remains.
            let tz = u.sig.trailing_zeros() as i32;
            u.exp + tz >= 1
        }
        _ => false,
    }
}
/// An f32 from its fields: sign, biased exponent (low 8 bits) and mantissa (low 23 bits).
pub fn float32(sign: bool, exp: i32, man: u32) -> F32 {
    F32((sign as u32) << 31 | (exp as u32 & 0xff) << 23 | man & 0x7f_ffff)
}

// ---- arithmetic ----

/// `abs` for integers (wrapping: `abs(i32::MIN)` stays `i32::MIN` as the hardware's two's
/// complement does) and floats (clears the sign bit, NaN kept).
pub trait PcodeAbs {
    fn pcode_abs(self) -> Self;
}
macro_rules! int_abs {
    ($($t:ty),*) => {$(impl PcodeAbs for $t { #[inline] fn pcode_abs(self) -> Self { self.wrapping_abs() } })*};
}
int_abs!(i8, i16, i32, i64, i128);
macro_rules! uint_abs {
    ($($t:ty),*) => {$(impl PcodeAbs for $t { #[inline] fn pcode_abs(self) -> Self { self } })*};
}
uint_abs!(u8, u16, u32, u64, u128);
macro_rules! float_abs {
    ($($t:ty),*) => {$(impl PcodeAbs for $t { #[inline] fn pcode_abs(self) -> Self { fl::abs(self) } })*};
}
float_abs!(F16, BF16, F32, F64);

pub fn abs<T: PcodeAbs>(x: T) -> T {
    x.pcode_abs()
}

pub fn fma<T: SoftFloat>(m: Mode, a: T, b: T, c: T) -> T {
    fl::fma(m.env::<T>(), a, b, c)
}
pub fn sqrt<T: SoftFloat>(m: Mode, x: T) -> T {
    fl::sqrt(m.env::<T>(), x)
}
pub fn trunc<T: SoftFloat>(m: Mode, x: T) -> T {
    fl::trunc(m.env::<T>(), x)
}
pub fn floor<T: SoftFloat>(m: Mode, x: T) -> T {
    fl::floor(m.env::<T>(), x)
}
pub fn ceil<T: SoftFloat>(m: Mode, x: T) -> T {
    fl::ceil(m.env::<T>(), x)
}
/// `x - floor(x)` rounded per MODE (the pseudocode's `V_FRACT` and the `fract(x) == 0.5`
/// tests of `V_RNDNE`).
pub fn fract<T: SoftFloat>(m: Mode, x: T) -> T {
    let env = m.env::<T>();
    fl::sub(env, x, fl::floor(env, x))
}
pub fn ldexp<T: SoftFloat>(m: Mode, x: T, n: i32) -> T {
    fl::ldexp(m.env::<T>(), x, n)
}

/// Transcendentals: AMD's hardware computes them approximately (about 1 ulp); the emulator
/// computes them in host f64 and rounds per MODE, so results agree with hardware only to that
/// accuracy. NaN inputs propagate quieted.
fn via_f64<T: SoftFloat>(m: Mode, x: T, f: impl Fn(f64) -> f64) -> T {
    if fl::is_nan(x) {
        return fl::quiet(x);
    }
    let env = m.env::<T>();
    let v = fl::to_f64(fl::flush_in(env, x));
    let r = F64::from_host(f(v));
    if fl::is_nan(r) {
        return fl::default_nan();
    }
    fl::convert(FpEnv::RNE, env, r)
}
pub fn sin<T: SoftFloat>(m: Mode, x: T) -> T {
    via_f64(m, x, f64::sin)
}
pub fn cos<T: SoftFloat>(m: Mode, x: T) -> T {
    via_f64(m, x, f64::cos)
}
pub fn log2<T: SoftFloat>(m: Mode, x: T) -> T {
    via_f64(m, x, f64::log2)
}
pub fn exp2<T: SoftFloat>(m: Mode, x: T) -> T {
    via_f64(m, x, f64::exp2)
}
/// `pow(base, x)`: the pseudocode only raises 2.0 (`V_EXP`); exact powers of two give exact
/// results, others the host's `powf`.
pub fn pow<T: SoftFloat>(m: Mode, base: T, x: T) -> T {
    if fl::is_nan(base) {
        return fl::quiet(base);
    }
    let b = fl::to_f64(base);
    via_f64(m, x, |v| if b == 2.0 { v.exp2() } else { b.powf(v) })
}

/// `min`/`max` of the pseudocode on integers (and floats, by IEEE order with NaN losing).
pub trait PcodeOrd: Copy {
    fn pcode_lt(self, other: Self) -> bool;
}
macro_rules! int_ord {
    ($($t:ty),*) => {$(impl PcodeOrd for $t { #[inline] fn pcode_lt(self, o: Self) -> bool { self < o } })*};
}
int_ord!(i8, i16, i32, i64, u8, u16, u32, u64);
macro_rules! float_ord {
    ($($t:ty),*) => {$(impl PcodeOrd for $t { #[inline] fn pcode_lt(self, o: Self) -> bool { fl::lt_neg_zero(self, o) } })*};
}
float_ord!(F16, BF16, F32, F64);

pub fn min<T: PcodeOrd>(a: T, b: T) -> T {
    if b.pcode_lt(a) {
        b
    } else {
        a
    }
}
pub fn max<T: PcodeOrd>(a: T, b: T) -> T {
    if a.pcode_lt(b) {
        b
    } else {
        a
    }
}
pub fn max3<T: PcodeOrd>(a: T, b: T, c: T) -> T {
    max(max(a, b), c)
}
pub fn min3<T: PcodeOrd>(a: T, b: T, c: T) -> T {
    min(min(a, b), c)
}

// ---- integers and bits ----

/// Sign extension to 64 bits. Unsigned and bit types are read as two's complement of their
/// width (`signext(OFFSET.u16)` extends bit 15).
pub trait SignExt: Copy {
    fn signext(self) -> i64;
}
macro_rules! signext_impl {
    ($($t:ty => $s:ty),*) => {$(impl SignExt for $t { #[inline] fn signext(self) -> i64 { self as $s as i64 } })*};
}
signext_impl!(i8 => i8, i16 => i16, i32 => i32, i64 => i64, u8 => i8, u16 => i16, u32 => i32, u64 => i64);

pub fn signext<T: SignExt>(x: T) -> i64 {
    x.signext()
}

/// Integer bit tricks generic over the pseudocode's integer widths.
pub trait IntBits: Copy {
    const WIDTH: u32;
    fn to_u64(self) -> u64;
    fn from_u64(v: u64) -> Self;
}
macro_rules! intbits_impl {
    ($($t:ty),*) => {$(impl IntBits for $t {
        const WIDTH: u32 = <$t>::BITS;
        #[inline] fn to_u64(self) -> u64 { self as u64 & (u64::MAX >> (64 - Self::WIDTH)) }
        #[inline] fn from_u64(v: u64) -> Self { v as $t }
    })*};
}
intbits_impl!(i8, i16, i32, i64, u8, u16, u32, u64);

/// `x`'s low `bits` bits sign-extended to its width (`S_BFE_I32`); `bits == 0` gives 0 and
/// `bits ≥ width` leaves `x` as it is.
pub fn signext_from_bit<T: IntBits>(x: T, bits: u32) -> T {
    if bits == 0 {
        return T::from_u64(0);
    }
    if bits >= T::WIDTH {
        return x;
    }
    let shift = 64 - bits;
    T::from_u64((((x.to_u64() << shift) as i64) >> shift) as u64)
}

pub fn bit_count<T: IntBits>(x: T) -> u32 {
    x.to_u64().count_ones()
}

pub fn reverse_bits<T: IntBits>(x: T) -> T {
    T::from_u64(x.to_u64().reverse_bits() >> (64 - T::WIDTH))
}

/// The two's complement negation (`-x` of the bits).
pub fn twos_complement<T: IntBits>(x: T) -> i32 {
    (x.to_u64() as i64).wrapping_neg() as i32
}

/// A signed value clamped to 0..=255.
pub fn sat8(x: i64) -> u8 {
    x.clamp(0, 255) as u8
}

/// `|x - y|` of unsigned values (the pseudocode's `ABSDIFF`).
pub fn absdiff(x: u32, y: u32) -> u32 {
    x.abs_diff(y)
}

/// A byte of the 64-bit `data` chosen by `sel` (`V_PERM_B32`): 0–7 pick byte `sel`, 8–11
/// replicate the sign bit of byte 1, 3, 5, 7, 12 gives 0x00 and 13 and up give 0xff.
pub fn byte_permute(data: u64, sel: u32) -> u8 {
    let byte = |i: u32| (data >> (8 * i)) as u8;
    match sel {
        0..=7 => byte(sel),
        8..=11 => {
            let sign = byte(2 * (sel - 8) + 1) >> 7;
            0u8.wrapping_sub(sign)
        }
        12 => 0,
        _ => 0xff,
    }
}

/// Index of the lowest set bit, -1 when none.
pub fn s_ff1_i32_b32(x: u32) -> i32 {
    if x == 0 {
        -1
    } else {
        x.trailing_zeros() as i32
    }
}

pub fn s_ff1_i32_b64(x: u64) -> i32 {
    if x == 0 {
        -1
    } else {
        x.trailing_zeros() as i32
    }
}

/// One step of the hardware's 32-bit linear feedback shift register (`V_PRNG_B32`): shift
/// left, folding in the taps 0xC5 when the top bit falls out.
pub fn v_prng_b32(x: u32) -> u32 {
    (x << 1) ^ if x >> 31 != 0 { 0xc5 } else { 0 }
}

fn sad_bytes(a: u32, b: u32, acc: u32, masked: bool) -> u32 {
    (0..4).fold(acc, |sum, i| {
        let (x, y) = ((a >> (8 * i)) as u8, (b >> (8 * i)) as u8);
        if masked && y == 0 {
            sum
        } else {
            sum.wrapping_add(x.abs_diff(y) as u32)
        }
    })
}

/// Sum of absolute byte differences plus `acc`.
pub fn v_sad_u8(a: u32, b: u32, acc: u32) -> u32 {
    sad_bytes(a, b, acc, false)
}

/// Like [`v_sad_u8`], skipping bytes where `b`'s byte is 0 (masked SAD).
pub fn v_msad_u8(a: u32, b: u32, acc: u32) -> u32 {
    sad_bytes(a, b, acc, true)
}

pub fn s_nop(_count: u32) {}
pub fn nop() {}

// ---- AMD float min/max ----

/// `V_MIN_F32`/`V_MIN_F16` (pre-RDNA4): in IEEE mode a signaling NaN input gives it quieted
/// and a quiet NaN loses to the number; outside IEEE mode any NaN loses; −0 < +0.
pub fn v_min_f<T: SoftFloat>(m: Mode, a: T, b: T) -> T {
    minmax_legacy(m, a, b, fl::lt_neg_zero)
}

/// `V_MAX_F32`/`V_MAX_F16`: as [`v_min_f`] with +0 > −0.
pub fn v_max_f<T: SoftFloat>(m: Mode, a: T, b: T) -> T {
    minmax_legacy(m, a, b, fl::gt_neg_zero)
}

fn minmax_legacy<T: SoftFloat>(m: Mode, a: T, b: T, first_wins: fn(T, T) -> bool) -> T {
    if m.ieee() {
        if fl::is_signal_nan(a) {
            return fl::quiet(a);
        }
        if fl::is_signal_nan(b) {
            return fl::quiet(b);
        }
    }
    if fl::is_nan(b) {
        return a;
    }
    if fl::is_nan(a) {
        return b;
    }
    if first_wins(a, b) {
        a
    } else {
        b
    }
}

pub fn v_min3_f<T: SoftFloat>(m: Mode, a: T, b: T, c: T) -> T {
    v_min_f(m, v_min_f(m, a, b), c)
}
pub fn v_max3_f<T: SoftFloat>(m: Mode, a: T, b: T, c: T) -> T {
    v_max_f(m, v_max_f(m, a, b), c)
}

/// `V_MIN_NUM_*` (RDNA4, IEEE 754-2019 minimumNumber): a NaN loses to a number, two NaNs give
/// the first quieted; −0 < +0. (Setting TRAPSTS.INVALID for signaling NaNs is the
/// pseudocode's own statement, not done here.)
pub fn v_min_num<T: SoftFloat>(a: T, b: T) -> T {
    minmax_num(a, b, fl::lt_neg_zero)
}
pub fn v_max_num<T: SoftFloat>(a: T, b: T) -> T {
    minmax_num(a, b, fl::gt_neg_zero)
}
fn minmax_num<T: SoftFloat>(a: T, b: T, first_wins: fn(T, T) -> bool) -> T {
    match (fl::is_nan(a), fl::is_nan(b)) {
        (true, true) => fl::quiet(a),
        (true, false) => b,
        (false, true) => a,
        _ if first_wins(a, b) => a,
        _ => b,
    }
}
pub fn v_min3_num<T: SoftFloat>(a: T, b: T, c: T) -> T {
    v_min_num(v_min_num(a, b), c)
}
pub fn v_max3_num<T: SoftFloat>(a: T, b: T, c: T) -> T {
    v_max_num(v_max_num(a, b), c)
}

/// `V_MINIMUM_*` (IEEE 754-2019 minimum): any NaN wins (signaling first, then the first
/// quiet one, quieted); −0 < +0.
pub fn v_minimum<T: SoftFloat>(a: T, b: T) -> T {
    minmax_nan(a, b, fl::lt_neg_zero)
}
pub fn v_maximum<T: SoftFloat>(a: T, b: T) -> T {
    minmax_nan(a, b, fl::gt_neg_zero)
}
fn minmax_nan<T: SoftFloat>(a: T, b: T, first_wins: fn(T, T) -> bool) -> T {
    if fl::is_signal_nan(a) {
        return fl::quiet(a);
    }
    if fl::is_signal_nan(b) {
        return fl::quiet(b);
    }
    if fl::is_nan(a) {
        return a;
    }
    if fl::is_nan(b) {
        return b;
    }
    if first_wins(a, b) {
        a
    } else {
        b
    }
}
pub fn v_minimum3<T: SoftFloat>(a: T, b: T, c: T) -> T {
    v_minimum(v_minimum(a, b), c)
}
pub fn v_maximum3<T: SoftFloat>(a: T, b: T, c: T) -> T {
    v_maximum(v_maximum(a, b), c)
}

// ---- conversions ----

/// f16 → f32: exact; NaNs quieted; f16 denormal inputs flushed per the f16 controls.
pub fn f16_to_f32(m: Mode, x: F16) -> F32 {
    fl::convert(m.env::<F16>(), m.env::<F32>(), x)
}
/// f32 → f16, rounded per the f16 controls (MODE's f64/f16 rounding).
pub fn f32_to_f16(m: Mode, x: F32) -> F16 {
    fl::convert(m.env::<F32>(), m.env::<F16>(), x)
}
pub fn f32_to_f64(m: Mode, x: F32) -> F64 {
    fl::convert(m.env::<F32>(), m.env::<F64>(), x)
}
pub fn f64_to_f32(m: Mode, x: F64) -> F32 {
    fl::convert(m.env::<F64>(), m.env::<F32>(), x)
}
pub fn bf16_to_f32(m: Mode, x: BF16) -> F32 {
    fl::convert(m.env::<BF16>(), m.env::<F32>(), x)
}
pub fn f32_to_bf16(m: Mode, x: F32) -> BF16 {
    fl::convert(m.env::<F32>(), m.env::<BF16>(), x)
}

fn sr_convert<T: SoftFloat>(m: Mode, x: F32, random: u32) -> T {
    let from = m.env::<F32>();
    let x = fl::flush_in(from, x);
    let (bits, _) = fl::convert_bits(
        &Format::F32,
        &T::FORMAT,
        x.to_bits(),
        Rounding::Stochastic(random),
        fl::Overflow::Ieee,
        true,
    );
    T::from_bits(bits)
}

/// f32 → f16 with stochastic rounding by `random` (round up in magnitude when the discarded
/// fraction plus `random / 2^32` reaches one).
pub fn f32_to_f16_sr(m: Mode, x: F32, random: u32) -> F16 {
    sr_convert(m, x, random)
}
pub fn f32_to_bf16_sr(m: Mode, x: F32, random: u32) -> BF16 {
    sr_convert(m, x, random)
}

pub fn i32_to_f32(m: Mode, x: i32) -> F32 {
    fl::from_i64(m.env::<F32>(), x as i64)
}
pub fn u32_to_f32(m: Mode, x: u32) -> F32 {
    fl::from_u64(m.env::<F32>(), x as u64)
}
pub fn i32_to_f64(m: Mode, x: i32) -> F64 {
    fl::from_i64(m.env::<F64>(), x as i64)
}
pub fn u32_to_f64(m: Mode, x: u32) -> F64 {
    fl::from_u64(m.env::<F64>(), x as u64)
}
pub fn i16_to_f16(m: Mode, x: i16) -> F16 {
    fl::from_i64(m.env::<F16>(), x as i64)
}
pub fn u16_to_f16(m: Mode, x: u16) -> F16 {
    fl::from_u64(m.env::<F16>(), x as u64)
}

/// Float → integer as AMD's `V_CVT_*_F*` do: toward zero, NaN → 0, saturating.
pub fn f32_to_i32(m: Mode, x: F32) -> i32 {
    fl::to_int(m.env::<F32>(), x, 32, RoundingMode::TowardZero) as i32
}
pub fn f32_to_u32(m: Mode, x: F32) -> u32 {
    fl::to_uint(m.env::<F32>(), x, 32, RoundingMode::TowardZero) as u32
}
pub fn f64_to_i32(m: Mode, x: F64) -> i32 {
    fl::to_int(m.env::<F64>(), x, 32, RoundingMode::TowardZero) as i32
}
pub fn f64_to_u32(m: Mode, x: F64) -> u32 {
    fl::to_uint(m.env::<F64>(), x, 32, RoundingMode::TowardZero) as u32
}
pub fn f16_to_i16(m: Mode, x: F16) -> i16 {
    fl::to_int(m.env::<F16>(), x, 16, RoundingMode::TowardZero) as i16
}
pub fn f16_to_u16(m: Mode, x: F16) -> u16 {
    fl::to_uint(m.env::<F16>(), x, 16, RoundingMode::TowardZero) as u16
}
pub fn v_cvt_i16_f32(m: Mode, x: F32) -> i16 {
    fl::to_int(m.env::<F32>(), x, 16, RoundingMode::TowardZero) as i16
}
pub fn v_cvt_u16_f32(m: Mode, x: F32) -> u16 {
    fl::to_uint(m.env::<F32>(), x, 16, RoundingMode::TowardZero) as u16
}
/// f32 → u8 for `V_CVT_PK_U8_F32`: rounded per MODE's f32 rounding (nearest even by
/// default), NaN → 0, clamped to 0..=255.
pub fn f32_to_u8(m: Mode, x: F32) -> u8 {
    let e = m.env::<F32>();
    fl::to_uint(e, x, 8, e.round) as u8
}

fn norm<T: SoftFloat>(m: Mode, x: T, signed: bool) -> u16 {
    // round(clamp(x) × (2^15 - 1 or 2^16 - 1)) in f32 arithmetic, nearest even.
    let e = FpEnv {
        round: RoundingMode::NearestEven,
        ..m.env::<F32>()
    };
    let v: F32 = fl::convert(m.env::<T>(), e, x);
    if fl::is_nan(v) {
        return 0;
    }
    let (lo, hi, scale) = if signed {
        (-1.0, 1.0, 32767.0)
    } else {
        (0.0, 1.0, 65535.0)
    };
    let clamped = if fl::lt(v, fl::constant(lo)) {
        fl::constant(lo)
    } else if fl::gt(v, fl::constant(hi)) {
        fl::constant(hi)
    } else {
        v
    };
    let scaled = fl::mul(e, clamped, fl::constant::<F32>(scale));
    if signed {
        fl::to_int(e, scaled, 16, RoundingMode::NearestEven) as i16 as u16
    } else {
        fl::to_uint(e, scaled, 16, RoundingMode::NearestEven) as u16
    }
}
/// Float → 16-bit signed normalised: round(clamp(x, -1, 1) × 32767), NaN → 0.
pub fn f16_to_snorm(m: Mode, x: F16) -> i16 {
    norm(m, x, true) as i16
}
/// Float → 16-bit unsigned normalised: round(clamp(x, 0, 1) × 65535), NaN → 0.
pub fn f16_to_unorm(m: Mode, x: F16) -> u16 {
    norm(m, x, false)
}
pub fn f32_to_snorm(m: Mode, x: F32) -> i16 {
    norm(m, x, true) as i16
}
pub fn f32_to_unorm(m: Mode, x: F32) -> u16 {
    norm(m, x, false)
}

/// OCP E4M3 → f32 (exact).
pub fn fp8_to_f32(x: u8) -> F32 {
    fl::small_to(&Format::FP8, x as u64)
}
/// OCP E5M2 → f32 (exact).
pub fn bf8_to_f32(x: u8) -> F32 {
    fl::small_to(&Format::BF8, x as u64)
}
/// f32 → OCP E4M3, rounded per MODE's f32 rounding (the pseudocode sets nearest even around
/// the call), non-saturating: overflow and ∞ give NaN. [`f32_to_fp8_sat`] clamps.
pub fn f32_to_fp8(m: Mode, x: F32) -> u8 {
    fl::to_small(
        &Format::FP8,
        fl::flush_in(m.env::<F32>(), x),
        Rounding::Ieee(m.env::<F32>().round),
        false,
    ) as u8
}
pub fn f32_to_fp8_sat(m: Mode, x: F32) -> u8 {
    fl::to_small(
        &Format::FP8,
        fl::flush_in(m.env::<F32>(), x),
        Rounding::Ieee(m.env::<F32>().round),
        true,
    ) as u8
}
/// f32 → OCP E5M2, non-saturating (overflow gives ∞ per the rounding direction).
pub fn f32_to_bf8(m: Mode, x: F32) -> u8 {
    fl::to_small(
        &Format::BF8,
        fl::flush_in(m.env::<F32>(), x),
        Rounding::Ieee(m.env::<F32>().round),
        false,
    ) as u8
}
pub fn f32_to_bf8_sat(m: Mode, x: F32) -> u8 {
    fl::to_small(
        &Format::BF8,
        fl::flush_in(m.env::<F32>(), x),
        Rounding::Ieee(m.env::<F32>().round),
        true,
    ) as u8
}

// ---- OCP MX scaled conversions ----
//
// `scale` is an E8M0 exponent: the factor 2^(scale - 127); 255 is E8M0's NaN. Dequantising
// multiplies by the factor, quantising divides by it; both are done exactly in f64 and
// rounded once (per MODE's f32 rounding, or stochastically for `_sr_`). fp8/bf8 results are
// non-saturating like the unscaled conversions; fp6/fp4 have no ∞ or NaN and saturate.

/// A storage-format value times 2^(scale - 127), rounded into `T`.
pub fn small_scaled_to<T: SoftFloat>(m: Mode, from: &Format, bits: u64, scale: u8) -> T {
    let v: F64 = fl::small_to(from, bits);
    if scale == 255 {
        return fl::default_nan();
    }
    let scaled = fl::ldexp(FpEnv::RNE, v, scale as i32 - 127);
    fl::convert(FpEnv::RNE, m.env::<T>(), scaled)
}

/// `x / 2^(scale - 127)` rounded into a storage format (its bits).
pub fn to_small_scaled<T: SoftFloat>(
    m: Mode,
    to: &Format,
    x: T,
    scale: u8,
    random: Option<u32>,
) -> u64 {
    let env = m.env::<T>();
    if scale == 255 {
        return to.default_nan().unwrap_or(0);
    }
    let wide: F64 = fl::cast(FpEnv::RNE, fl::flush_in(env, x));
    let scaled = fl::ldexp(FpEnv::RNE, wide, 127 - scale as i32);
    let rounding = match random {
        Some(r) => Rounding::Stochastic(r),
        None => Rounding::Ieee(m.env::<F32>().round),
    };
    fl::to_small(to, scaled, rounding, false)
}

macro_rules! scaled_conversions {
    ($($small:ident: $fmt:expr => [$($wide:ident: $t:ty => $to_wide:ident, $from_wide:ident, $from_wide_sr:ident);*]);* $(;)?) => {$($(
        #[doc = concat!("`", stringify!($small), "` × 2^(scale − 127) as ", stringify!($wide), ".")]
        pub fn $to_wide(m: Mode, x: u32, scale: u8) -> $t {
            small_scaled_to(m, &$fmt, x as u64, scale)
        }
        #[doc = concat!(stringify!($wide), " / 2^(scale − 127) as `", stringify!($small), "` bits.")]
        pub fn $from_wide(m: Mode, x: $t, scale: u8) -> u32 {
            to_small_scaled(m, &$fmt, x, scale, None) as u32
        }
        #[doc = concat!("As [`", stringify!($from_wide), "`], rounded stochastically by `random`.")]
        pub fn $from_wide_sr(m: Mode, x: $t, random: u32, scale: u8) -> u32 {
            to_small_scaled(m, &$fmt, x, scale, Some(random)) as u32
        }
    )*)*};
}

scaled_conversions! {
    fp8: Format::FP8 => [
        f32: F32 => fp8_to_f32_scale, f32_to_fp8_scale, f32_to_fp8_sr_scale;
        f16: F16 => fp8_to_f16_scale, f16_to_fp8_scale, f16_to_fp8_sr_scale;
        bf16: BF16 => fp8_to_bf16_scale, bf16_to_fp8_scale, bf16_to_fp8_sr_scale];
    bf8: Format::BF8 => [
        f32: F32 => bf8_to_f32_scale, f32_to_bf8_scale, f32_to_bf8_sr_scale;
        f16: F16 => bf8_to_f16_scale, f16_to_bf8_scale, f16_to_bf8_sr_scale;
        bf16: BF16 => bf8_to_bf16_scale, bf16_to_bf8_scale, bf16_to_bf8_sr_scale];
    fp6: Format::FP6 => [
        f32: F32 => fp6_to_f32_scale, f32_to_fp6_scale, f32_to_fp6_sr_scale;
        f16: F16 => fp6_to_f16_scale, f16_to_fp6_scale, f16_to_fp6_sr_scale;
        bf16: BF16 => fp6_to_bf16_scale, bf16_to_fp6_scale, bf16_to_fp6_sr_scale];
    bf6: Format::BF6 => [
        f32: F32 => bf6_to_f32_scale, f32_to_bf6_scale, f32_to_bf6_sr_scale;
        f16: F16 => bf6_to_f16_scale, f16_to_bf6_scale, f16_to_bf6_sr_scale;
        bf16: BF16 => bf6_to_bf16_scale, bf16_to_bf6_scale, bf16_to_bf6_sr_scale];
    fp4: Format::FP4 => [
        f32: F32 => fp4_to_f32_scale, f32_to_fp4_scale, f32_to_fp4_sr_scale;
        f16: F16 => fp4_to_f16_scale, f16_to_fp4_scale, f16_to_fp4_sr_scale;
        bf16: BF16 => fp4_to_bf16_scale, bf16_to_fp4_scale, bf16_to_fp4_sr_scale];
}

// Integer resizes: `<from>_to_<to>` keep the value's low bits and extend by the source's
// signedness.
pub fn u4_to_u32(x: u32) -> u32 {
    x & 0xf
}
pub fn i4_to_i32(x: u32) -> i32 {
    ((x << 28) as i32) >> 28
}
pub fn u8_to_u32(x: u32) -> u32 {
    x & 0xff
}
pub fn i8_to_i32(x: u32) -> i32 {
    x as u8 as i8 as i32
}
pub fn u16_to_u32(x: u32) -> u32 {
    x & 0xffff
}
pub fn i16_to_i32(x: u32) -> i32 {
    x as u16 as i16 as i32
}
/// u32 → u16 keeping the low bits (`V_CVT_PK_U16_U32` uses it; saturation, where an
/// instruction wants it, is the instruction's own `clamp`).
pub fn u32_to_u16(x: u32) -> u16 {
    x as u16
}
pub fn i32_to_i16(x: i32) -> i16 {
    x as i16
}

// ---- address calculation ----
//
// The pseudocode passes operand values; these are the hardware's address rules for the
// emulator's memory model (see `dispatch` for the apertures). Offsets are already
// sign-extended by the caller where the encoding's offset is signed.

/// LDS address of a DS instruction: the lane's address plus the instruction offset,
/// 32-bit wrap-around.
pub fn calc_ds_addr(addr: u32, offset: u32) -> u32 {
    addr.wrapping_add(offset)
}

/// Global address: `saddr` (a 64-bit SGPR base, with a 32-bit lane offset `vaddr`) or, with
/// `saddr = None` (SADDR off), the lane's 64-bit `vaddr`; plus the signed instruction offset.
pub fn calc_global_addr(vaddr: u64, saddr: Option<u64>, offset: i64) -> u64 {
    match saddr {
        Some(base) => base
            .wrapping_add(vaddr as u32 as u64)
            .wrapping_add(offset as u64),
        None => vaddr.wrapping_add(offset as u64),
    }
}

/// Flat address: the lane's 64-bit address plus the signed instruction offset.
pub fn calc_flat_addr(vaddr: u64, offset: i64) -> u64 {
    vaddr.wrapping_add(offset as u64)
}

/// Scratch offset (within the lane's private memory): the lane's 32-bit offset (when the
/// instruction uses one), the scalar offset (when it uses one) and the signed instruction
/// offset.
pub fn calc_scratch_addr(vaddr: Option<u32>, saddr: Option<u32>, offset: i64) -> u64 {
    let v = vaddr.unwrap_or(0) as u64;
    let s = saddr.unwrap_or(0) as u64;
    v.wrapping_add(s).wrapping_add(offset as u64) & 0xffff_ffff
}

/// Scalar memory address: a 64-bit base (aligned down to 4 bytes as the hardware does), plus
/// the scalar offset (an SGPR value or 0) and the signed immediate offset.
pub fn calc_scalar_global_addr(base: u64, soffset: u32, offset: i64) -> u64 {
    (base & !3)
        .wrapping_add(soffset as u64)
        .wrapping_add(offset as u64)
}

/// Untyped buffer address with the buffer resource's 48-bit base (stride, swizzle and range
/// checks are the instruction's: the emulator's `Memory` still bounds-checks the result):
/// base + soffset + instruction offset + the lane's byte offset.
pub fn calc_buffer_addr(base: u64, soffset: u32, offset: u32, vaddr_offset: u32) -> u64 {
    (base & 0xffff_ffff_ffff)
        .wrapping_add(soffset as u64)
        .wrapping_add(offset as u64)
        .wrapping_add(vaddr_offset as u64)
}

/// For callers holding an order: `Some(Less)` etc. of two floats under IEEE rules.
pub fn compare<T: SoftFloat>(a: T, b: T) -> Option<Ordering> {
    fl::compare(a, b)
}

#[cfg(test)]
mod table_tests {
    /// The shared table's flags agree with this module's functions: each entry's Rust function
    /// is defined here (written out, with type parameters exactly when the table calls it
    /// generic, or named in a macro that defines a family of them, as the scaled small-float
    /// conversions are).
    #[test]
    fn table_flags_match_the_definitions() {
        let text = include_str!("helpers.rs");
        let mut written_out = 0;
        for h in super::HELPERS {
            let generic = text.contains(&format!("\npub fn {}<", h.rust));
            let concrete = text.contains(&format!("\npub fn {}(", h.rust));
            if generic || concrete {
                written_out += 1;
                assert_eq!(
                    generic, h.generic,
                    "{}: generic flag of {}",
                    h.pcode, h.rust
                );
            } else {
                let named = text.contains(&format!(" {},", h.rust))
                    || text.contains(&format!(" {};", h.rust))
                    || text.contains(&format!(" {}]", h.rust));
                assert!(named, "{}: no function {}", h.pcode, h.rust);
            }
        }
        assert!(written_out > super::HELPERS.len() / 2);
    }
}
