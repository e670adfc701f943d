//! Exact floating point for the emulator, independent of the host FPU's modes.
//!
//! - Values are bit patterns in newtypes ([`F64`], [`F32`], [`F16`], [`BF16`]) so NaN payloads
//!   and signaling bits survive untouched; arithmetic is done by the generic functions here
//!   ([`add`], [`mul`], [`fma`], [`sqrt`], ...) under an [`FpEnv`] (rounding mode and denormal
//!   controls, taken from the wave's MODE with [`super::Mode::env`]).
//! - The software path: `rustc_apfloat` (LLVM's APFloat, exact in every rounding mode) for
//!   add/sub/mul/div/fma/round-to-integral/scale, and this module's own [`round_pack`] for
//!   square root, conversions between formats and from integers. Denormal flushing and the NaN
//!   rules are applied around both.
//! - The fast path: when the environment is round-to-nearest-even with denormals kept,
//!   the host's `+ - * /`, `sqrt` and `mul_add` on f32/f64 are correctly rounded and used
//!   directly (f16/bf16 go through f32, which is exact for these operations since f32 has more
//!   than twice their precision plus two bits). A NaN result always takes the software NaN
//!   rule. Tests prove the fast path equal to the software path.
//!
//! NaN rule (the emulator's model of AMD's hardware): an operation with a NaN input returns
//! the first NaN input (in operand order) made quiet, keeping its sign and payload; an invalid
//! operation without NaN inputs (∞-∞, 0×∞, 0/0, √-1) returns the positive default quiet NaN.
//!
//! Denormals (MODE.FP_DENORM): with input flushing, a denormal input is read as a zero of its
//! sign; with output flushing, a result that is denormal after rounding becomes a zero of its
//! sign.
//!
//! Small formats (fp8/bf8 in OCP and FNUZ variants, fp6, fp4) have no arithmetic, only the
//! conversions the pseudocode uses, built on [`Format`], [`unpack`] and [`round_pack`].

use super::wave::ModeGroup;
use rustc_apfloat::{ieee, Float as ApFloat, Round, Status};
use std::cmp::Ordering;

/// IEEE rounding directions, with AMD's MODE.FP_ROUND encoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RoundingMode {
    /// 0: to nearest, ties to even.
    #[default]
    NearestEven,
    /// 1: toward +∞.
    Up,
    /// 2: toward −∞.
    Down,
    /// 3: toward zero.
    TowardZero,
}

impl RoundingMode {
    pub fn from_mode_bits(bits: u32) -> RoundingMode {
        match bits & 3 {
            0 => RoundingMode::NearestEven,
            1 => RoundingMode::Up,
            2 => RoundingMode::Down,
            _ => RoundingMode::TowardZero,
        }
    }

    pub fn mode_bits(self) -> u32 {
        match self {
            RoundingMode::NearestEven => 0,
            RoundingMode::Up => 1,
            RoundingMode::Down => 2,
            RoundingMode::TowardZero => 3,
        }
    }

    fn ap(self) -> Round {
        match self {
            RoundingMode::NearestEven => Round::NearestTiesToEven,
            RoundingMode::Up => Round::TowardPositive,
            RoundingMode::Down => Round::TowardNegative,
            RoundingMode::TowardZero => Round::TowardZero,
        }
    }
}

/// How a result is rounded by [`round_pack`]: an IEEE direction, or stochastic rounding with
/// a random value (the `_sr` conversions).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    Ieee(RoundingMode),
    /// Rounds up (in magnitude) when the discarded fraction plus `random / 2^32` reaches one.
    Stochastic(u32),
}

/// MODE.FP_DENORM for one precision group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DenormMode {
    /// Denormal inputs are used as they are (else read as zero).
    pub keep_in: bool,
    /// Denormal results are kept (else flushed to zero).
    pub keep_out: bool,
}

impl DenormMode {
    pub const KEEP: DenormMode = DenormMode {
        keep_in: true,
        keep_out: true,
    };
    pub const FLUSH: DenormMode = DenormMode {
        keep_in: false,
        keep_out: false,
    };

    /// MODE encoding: bit 0 keeps inputs, bit 1 keeps outputs (3 = keep both).
    pub fn from_mode_bits(bits: u32) -> DenormMode {
        DenormMode {
            keep_in: bits & 1 != 0,
            keep_out: bits & 2 != 0,
        }
    }

    pub fn mode_bits(self) -> u32 {
        self.keep_in as u32 | (self.keep_out as u32) << 1
    }
}

/// The environment of one float operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FpEnv {
    pub round: RoundingMode,
    pub denorm: DenormMode,
}

impl FpEnv {
    /// IEEE default: nearest-even, denormals kept.
    pub const RNE: FpEnv = FpEnv {
        round: RoundingMode::NearestEven,
        denorm: DenormMode::KEEP,
    };

    pub const fn new(round: RoundingMode, denorm: DenormMode) -> FpEnv {
        FpEnv { round, denorm }
    }

    /// True when the host's correctly rounded operations give the exact answer.
    #[inline]
    pub fn host_exact(self) -> bool {
        matches!(self.round, RoundingMode::NearestEven)
            && self.denorm.keep_in
            && self.denorm.keep_out
    }
}

/// How a format spells infinities and NaNs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NonFinite {
    /// IEEE 754: exponent all ones; zero mantissa is ∞, else NaN (top mantissa bit = quiet).
    Ieee,
    /// No ∞; exponent and mantissa all ones is NaN (OCP E4M3, "FN").
    AllOnesNan,
    /// No ∞ and no −0; the bit pattern of −0 is the only NaN ("FNUZ", CDNA3's fp8/bf8).
    NegZeroNan,
    /// Neither ∞ nor NaN (OCP fp6, fp4).
    FiniteOnly,
}

/// A binary floating-point interchange format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub name: &'static str,
    pub bits: u32,
    pub exp_bits: u32,
    /// Stored mantissa bits (the precision is one more).
    pub man_bits: u32,
    pub bias: i32,
    pub nonfinite: NonFinite,
}

impl Format {
    pub const F64: Format = Format {
        name: "f64",
        bits: 64,
        exp_bits: 11,
        man_bits: 52,
        bias: 1023,
        nonfinite: NonFinite::Ieee,
    };
    pub const F32: Format = Format {
        name: "f32",
        bits: 32,
        exp_bits: 8,
        man_bits: 23,
        bias: 127,
        nonfinite: NonFinite::Ieee,
    };
    pub const F16: Format = Format {
        name: "f16",
        bits: 16,
        exp_bits: 5,
        man_bits: 10,
        bias: 15,
        nonfinite: NonFinite::Ieee,
    };
    pub const BF16: Format = Format {
        name: "bf16",
        bits: 16,
        exp_bits: 8,
        man_bits: 7,
        bias: 127,
        nonfinite: NonFinite::Ieee,
    };
    /// OCP 8-bit E4M3 (RDNA4, CDNA4 `fp8`): max 448, no ∞.
    pub const FP8: Format = Format {
        name: "fp8",
        bits: 8,
        exp_bits: 4,
        man_bits: 3,
        bias: 7,
        nonfinite: NonFinite::AllOnesNan,
    };
    /// OCP 8-bit E5M2 (RDNA4, CDNA4 `bf8`): IEEE-like, max 57344.
    pub const BF8: Format = Format {
        name: "bf8",
        bits: 8,
        exp_bits: 5,
        man_bits: 2,
        bias: 15,
        nonfinite: NonFinite::Ieee,
    };
    /// CDNA3's E4M3 FNUZ: bias 8, max 240, NaN = 0x80.
    pub const FP8_FNUZ: Format = Format {
        name: "fp8_fnuz",
        bits: 8,
        exp_bits: 4,
        man_bits: 3,
        bias: 8,
        nonfinite: NonFinite::NegZeroNan,
    };
    /// CDNA3's E5M2 FNUZ: bias 16, max 57344, NaN = 0x80.
    pub const BF8_FNUZ: Format = Format {
        name: "bf8_fnuz",
        bits: 8,
        exp_bits: 5,
        man_bits: 2,
        bias: 16,
        nonfinite: NonFinite::NegZeroNan,
    };
    /// OCP MX fp6 E2M3: max 7.5.
    pub const FP6: Format = Format {
        name: "fp6",
        bits: 6,
        exp_bits: 2,
        man_bits: 3,
        bias: 1,
        nonfinite: NonFinite::FiniteOnly,
    };
    /// OCP MX fp6 E3M2 (`bf6`): max 28.
    pub const BF6: Format = Format {
        name: "bf6",
        bits: 6,
        exp_bits: 3,
        man_bits: 2,
        bias: 3,
        nonfinite: NonFinite::FiniteOnly,
    };
    /// OCP MX fp4 E2M1: max 6.
    pub const FP4: Format = Format {
        name: "fp4",
        bits: 4,
        exp_bits: 2,
        man_bits: 1,
        bias: 1,
        nonfinite: NonFinite::FiniteOnly,
    };

    #[inline]
    pub const fn sign_bit(&self) -> u64 {
        1 << (self.bits - 1)
    }
    #[inline]
    pub const fn man_mask(&self) -> u64 {
        (1 << self.man_bits) - 1
    }
    #[inline]
    pub const fn exp_all_ones(&self) -> u64 {
        (1 << self.exp_bits) - 1
    }
    #[inline]
    pub const fn abs_mask(&self) -> u64 {
        self.sign_bit() - 1
    }

    /// The largest finite value's bits (positive).
    pub fn max_finite(&self) -> u64 {
        let e = self.exp_all_ones();
        match self.nonfinite {
            NonFinite::Ieee => ((e - 1) << self.man_bits) | self.man_mask(),
            NonFinite::AllOnesNan => (e << self.man_bits) | (self.man_mask() - 1),
            NonFinite::NegZeroNan | NonFinite::FiniteOnly => (e << self.man_bits) | self.man_mask(),
        }
    }

    /// The canonical quiet NaN (positive), or `None` for formats without NaN.
    pub fn default_nan(&self) -> Option<u64> {
        match self.nonfinite {
            NonFinite::Ieee => {
                Some((self.exp_all_ones() << self.man_bits) | 1 << (self.man_bits - 1))
            }
            NonFinite::AllOnesNan => Some((self.exp_all_ones() << self.man_bits) | self.man_mask()),
            NonFinite::NegZeroNan => Some(self.sign_bit()),
            NonFinite::FiniteOnly => None,
        }
    }

    /// Positive infinity's bits, if the format has it.
    pub fn infinity(&self) -> Option<u64> {
        (self.nonfinite == NonFinite::Ieee).then(|| self.exp_all_ones() << self.man_bits)
    }
}

/// What a bit pattern is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    Zero,
    /// Normal or denormal: the value is `sig × 2^exp`.
    Finite,
    Infinite,
    Nan {
        quiet: bool,
    },
}

/// A decoded value: `(-1)^sign × sig × 2^exp` when finite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unpacked {
    pub sign: bool,
    pub class: Class,
    /// The integer significand, implicit bit included (0 for non-finite values).
    pub sig: u64,
    pub exp: i32,
    /// The stored exponent field was zero (zero or denormal).
    pub denormal: bool,
}

/// Decodes a bit pattern of `fmt`.
pub fn unpack(fmt: &Format, bits: u64) -> Unpacked {
    let sign = bits & fmt.sign_bit() != 0;
    let e = (bits >> fmt.man_bits) & fmt.exp_all_ones();
    let m = bits & fmt.man_mask();
    let special = |class| Unpacked {
        sign,
        class,
        sig: 0,
        exp: 0,
        denormal: false,
    };
    match fmt.nonfinite {
        NonFinite::Ieee if e == fmt.exp_all_ones() => {
            return if m == 0 {
                special(Class::Infinite)
            } else {
                special(Class::Nan {
                    quiet: m >> (fmt.man_bits - 1) != 0,
                })
            };
        }
        NonFinite::AllOnesNan if e == fmt.exp_all_ones() && m == fmt.man_mask() => {
            return special(Class::Nan { quiet: true });
        }
        NonFinite::NegZeroNan if bits & (fmt.sign_bit() | fmt.abs_mask()) == fmt.sign_bit() => {
            return special(Class::Nan { quiet: true });
        }
        _ => {}
    }
    let min_exp = 1 - fmt.bias - fmt.man_bits as i32;
    if e == 0 {
        let class = if m == 0 { Class::Zero } else { Class::Finite };
        Unpacked {
            sign,
            class,
            sig: m,
            exp: min_exp,
            denormal: true,
        }
    } else {
        Unpacked {
            sign,
            class: Class::Finite,
            sig: m | 1 << fmt.man_bits,
            exp: min_exp + e as i32 - 1,
            denormal: false,
        }
    }
}

/// What to do with a finite result too large for the format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overflow {
    /// IEEE: ∞ or the largest finite value depending on the rounding direction; formats
    /// without ∞ give NaN where IEEE would give ∞ (formats with neither saturate).
    Ieee,
    /// Clamp to the largest finite value of the result's sign.
    Saturate,
}

/// IEEE exception flags of a rounding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Flags {
    pub inexact: bool,
    pub overflow: bool,
    pub underflow: bool,
}

/// Rounds the exact value `(-1)^sign × (mag + δ) × 2^exp` into `fmt`, where `δ ∈ (0, 1)` when
/// `sticky` (bits beyond `mag` were nonzero) and `δ = 0` otherwise. The core of every
/// conversion and of the software square root.
pub fn round_pack(
    fmt: &Format,
    sign: bool,
    mut mag: u128,
    mut exp: i32,
    mut sticky: bool,
    rounding: Rounding,
    overflow: Overflow,
) -> (u64, Flags) {
    let sign_bits = if sign { fmt.sign_bit() } else { 0 };
    // Formats whose −0 pattern is their NaN have only +0.
    let zero = if fmt.nonfinite == NonFinite::NegZeroNan {
        0
    } else {
        sign_bits
    };
    let mut flags = Flags::default();
    if mag == 0 {
        if !sticky {
            return (zero, flags);
        }
        // Only a tail below `mag`'s unit: stand in a tiny nonzero value far below the format.
        mag = 1;
        exp = exp.saturating_sub(200);
        sticky = true;
    }
    // Normalise so at least 64 bits are available below the leading one: the drop below is
    // then always a right shift with room for the rounding bits.
    let msb = 127 - mag.leading_zeros() as i32;
    if msb < 64 {
        mag <<= 64 - msb;
        exp -= 64 - msb;
    }
    let msb = 127 - mag.leading_zeros() as i32;
    let p = fmt.man_bits as i32 + 1;
    let top = exp.saturating_add(msb);
    let emin = 1 - fmt.bias;
    let lsb_exp = (top - (p - 1)).max(emin - (p - 1));
    let shift = (lsb_exp as i64 - exp as i64) as u32;
    let (mut q, rest_nonzero, half_cmp, top32) = if shift >= 128 {
        // Everything is below the result's last place, and below half of it.
        (0u128, true, Ordering::Less, 0u64)
    } else {
        let q = mag >> shift;
        let rest = mag & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        let cmp = rest.cmp(&half).then(if sticky {
            Ordering::Greater
        } else {
            Ordering::Equal
        });
        let top32 = if shift >= 32 {
            (rest >> (shift - 32)) as u64
        } else {
            (rest << (32 - shift)) as u64
        };
        (q, rest != 0, cmp, top32)
    };
    let inexact = rest_nonzero || sticky;
    let away = match rounding {
        Rounding::Ieee(RoundingMode::NearestEven) => {
            half_cmp == Ordering::Greater || (half_cmp == Ordering::Equal && q & 1 == 1)
        }
        Rounding::Ieee(RoundingMode::TowardZero) => false,
        Rounding::Ieee(RoundingMode::Up) => inexact && !sign,
        Rounding::Ieee(RoundingMode::Down) => inexact && sign,
        Rounding::Stochastic(r) => top32 + r as u64 >= 1 << 32,
    };
    q += away as u128;
    let mut lsb_exp = lsb_exp;
    if q == 1u128 << p {
        q >>= 1;
        lsb_exp += 1;
    }
    flags.inexact = inexact;
    let normal = q >> (p - 1) != 0;
    flags.underflow = inexact && !normal;
    let biased = if normal {
        (lsb_exp + p - 1 + fmt.bias) as i64
    } else {
        0
    };
    let man = (q as u64) & fmt.man_mask();
    let too_big = match fmt.nonfinite {
        NonFinite::Ieee => biased >= fmt.exp_all_ones() as i64,
        NonFinite::AllOnesNan => {
            biased > fmt.exp_all_ones() as i64
                || (biased == fmt.exp_all_ones() as i64 && man == fmt.man_mask())
        }
        NonFinite::NegZeroNan | NonFinite::FiniteOnly => biased > fmt.exp_all_ones() as i64,
    };
    if too_big {
        flags.overflow = true;
        flags.inexact = true;
        let to_infinity = match rounding {
            Rounding::Ieee(RoundingMode::NearestEven) | Rounding::Stochastic(_) => true,
            Rounding::Ieee(RoundingMode::TowardZero) => false,
            Rounding::Ieee(RoundingMode::Up) => !sign,
            Rounding::Ieee(RoundingMode::Down) => sign,
        };
        let bits = match (overflow, to_infinity, fmt.nonfinite) {
            (Overflow::Ieee, true, NonFinite::Ieee) => sign_bits | fmt.infinity().unwrap_or(0),
            (Overflow::Ieee, true, NonFinite::AllOnesNan) => {
                sign_bits | fmt.default_nan().unwrap_or(0)
            }
            (Overflow::Ieee, true, NonFinite::NegZeroNan) => fmt.sign_bit(),
            _ => sign_bits | fmt.max_finite(),
        };
        return (bits, flags);
    }
    if q == 0 {
        return (zero, flags);
    }
    (sign_bits | (biased as u64) << fmt.man_bits | man, flags)
}

/// Converts a bit pattern between formats: values rounded per `rounding` and `overflow`,
/// ∞ to ∞ (formats without ∞: NaN, or the largest value when saturating or when the format
/// has no NaN either), NaN to NaN keeping sign and the payload's high bits (made quiet when
/// `quiet`; formats without NaN get zero).
pub fn convert_bits(
    from: &Format,
    to: &Format,
    bits: u64,
    rounding: Rounding,
    overflow: Overflow,
    quiet: bool,
) -> (u64, Flags) {
    let u = unpack(from, bits);
    let sign_bits = if u.sign { to.sign_bit() } else { 0 };
    match u.class {
        Class::Zero => {
            let s = if to.nonfinite == NonFinite::NegZeroNan {
                0
            } else {
                sign_bits
            };
            (s, Flags::default())
        }
        Class::Finite => round_pack(to, u.sign, u.sig as u128, u.exp, false, rounding, overflow),
        Class::Infinite => {
            let bits = match (to.nonfinite, overflow) {
                (NonFinite::Ieee, _) => sign_bits | to.infinity().unwrap_or(0),
                (NonFinite::FiniteOnly, _) | (_, Overflow::Saturate) => sign_bits | to.max_finite(),
                (NonFinite::AllOnesNan, _) => sign_bits | to.default_nan().unwrap_or(0),
                (NonFinite::NegZeroNan, _) => to.sign_bit(),
            };
            (bits, Flags::default())
        }
        Class::Nan { quiet: was_quiet } => {
            let bits = match to.nonfinite {
                NonFinite::Ieee => {
                    let payload = bits & from.man_mask();
                    let mut m = if to.man_bits >= from.man_bits {
                        payload << (to.man_bits - from.man_bits)
                    } else {
                        payload >> (from.man_bits - to.man_bits)
                    };
                    let quiet_bit = 1 << (to.man_bits - 1);
                    if quiet || was_quiet {
                        m |= quiet_bit;
                    } else if m & (to.man_mask()) == 0 {
                        // A signaling NaN whose payload did not fit: keep it a NaN.
                        m = 1;
                    }
                    if from.nonfinite != NonFinite::Ieee {
                        m = quiet_bit;
                    }
                    sign_bits | to.exp_all_ones() << to.man_bits | m
                }
                NonFinite::AllOnesNan => sign_bits | to.default_nan().unwrap_or(0),
                NonFinite::NegZeroNan => to.sign_bit(),
                NonFinite::FiniteOnly => 0,
            };
            (bits, Flags::default())
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The arithmetic formats.

/// A float format with arithmetic: f64, f32, f16, bf16.
pub trait SoftFloat: Copy + Eq + std::fmt::Debug + Default + Send + Sync + 'static {
    const FORMAT: Format;
    /// The MODE fields its arithmetic follows.
    const GROUP: ModeGroup;
    #[doc(hidden)]
    type Ap: ApFloat;
    fn to_bits(self) -> u64;
    fn from_bits(bits: u64) -> Self;

    /// Host fast path, used only under [`FpEnv::host_exact`]; `None` where the host cannot
    /// give the exact answer (the software path is taken).
    #[doc(hidden)]
    fn host(_op: HostOp, _a: Self, _b: Self, _c: Self) -> Option<Self> {
        None
    }
}

/// The operations with a host fast path.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HostOp {
    Add,
    Sub,
    Mul,
    Div,
    Fma,
    Sqrt,
}

macro_rules! float_type {
    ($(#[$m:meta])* $name:ident, $bits:ty) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
        #[repr(transparent)]
        pub struct $name(pub $bits);

        impl std::fmt::Debug for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "{}({:#x} = {})", stringify!($name), self.0, to_f64(*self))
            }
        }
    };
}

float_type!(
    /// An IEEE binary64 value (its bits).
    F64, u64
);
float_type!(
    /// An IEEE binary32 value (its bits).
    F32, u32
);
float_type!(
    /// An IEEE binary16 value (its bits).
    F16, u16
);
float_type!(
    /// A bfloat16 value (its bits).
    BF16, u16
);

impl SoftFloat for F64 {
    const FORMAT: Format = Format::F64;
    const GROUP: ModeGroup = ModeGroup::DoubleHalf;
    type Ap = ieee::Double;
    #[inline]
    fn to_bits(self) -> u64 {
        self.0
    }
    #[inline]
    fn from_bits(bits: u64) -> Self {
        F64(bits)
    }
    #[inline]
    fn host(op: HostOp, a: Self, b: Self, c: Self) -> Option<Self> {
        let (a, b, c) = (a.to_host(), b.to_host(), c.to_host());
        let r = match op {
            HostOp::Add => a + b,
            HostOp::Sub => a - b,
            HostOp::Mul => a * b,
            HostOp::Div => a / b,
            HostOp::Fma => a.mul_add(b, c),
            HostOp::Sqrt => a.sqrt(),
        };
        (!r.is_nan()).then_some(F64(r.to_bits()))
    }
}

impl SoftFloat for F32 {
    const FORMAT: Format = Format::F32;
    const GROUP: ModeGroup = ModeGroup::Single;
    type Ap = ieee::Single;
    #[inline]
    fn to_bits(self) -> u64 {
        self.0 as u64
    }
    #[inline]
    fn from_bits(bits: u64) -> Self {
        F32(bits as u32)
    }
    #[inline]
    fn host(op: HostOp, a: Self, b: Self, c: Self) -> Option<Self> {
        let (a, b, c) = (a.to_host(), b.to_host(), c.to_host());
        let r = match op {
            HostOp::Add => a + b,
            HostOp::Sub => a - b,
            HostOp::Mul => a * b,
            HostOp::Div => a / b,
            HostOp::Fma => a.mul_add(b, c),
            HostOp::Sqrt => a.sqrt(),
        };
        (!r.is_nan()).then_some(F32(r.to_bits()))
    }
}

/// f16 and bf16 through f32: exact inputs, one f32 rounding that cannot change the final
/// rounding (f32's 24 bits ≥ 2p + 2 for p = 11 and p = 8). Not for fma.
macro_rules! half_host {
    ($t:ident, $group:expr, $ap:ty, $narrow:path) => {
        impl SoftFloat for $t {
            const FORMAT: Format = Format::$t;
            const GROUP: ModeGroup = $group;
            type Ap = $ap;
            #[inline]
            fn to_bits(self) -> u64 {
                self.0 as u64
            }
            #[inline]
            fn from_bits(bits: u64) -> Self {
                $t(bits as u16)
            }
            #[inline]
            fn host(op: HostOp, a: Self, b: Self, _c: Self) -> Option<Self> {
                let (a, b) = (a.to_f32_exact().to_host(), b.to_f32_exact().to_host());
                let r = match op {
                    HostOp::Add => a + b,
                    HostOp::Sub => a - b,
                    HostOp::Mul => a * b,
                    HostOp::Div => a / b,
                    HostOp::Sqrt => a.sqrt(),
                    HostOp::Fma => return None,
                };
                (!r.is_nan()).then(|| $narrow(F32(r.to_bits())))
            }
        }
    };
}

half_host!(F16, ModeGroup::DoubleHalf, ieee::Half, F16::from_f32_rne);
half_host!(BF16, ModeGroup::Single, ieee::BFloat, BF16::from_f32_rne);

impl F64 {
    #[inline]
    pub fn from_host(v: f64) -> F64 {
        F64(v.to_bits())
    }
    #[inline]
    pub fn to_host(self) -> f64 {
        f64::from_bits(self.0)
    }
}

impl F32 {
    #[inline]
    pub fn from_host(v: f32) -> F32 {
        F32(v.to_bits())
    }
    #[inline]
    pub fn to_host(self) -> f32 {
        f32::from_bits(self.0)
    }
}

impl F16 {
    /// Exact widening (keeps NaN payload and signaling).
    #[inline]
    pub fn to_f32_exact(self) -> F32 {
        cast(FpEnv::RNE, self)
    }
    /// f32 → f16, round to nearest even, NaN kept (signaling kept).
    #[inline]
    pub fn from_f32_rne(x: F32) -> F16 {
        cast(FpEnv::RNE, x)
    }
    pub fn from_f64_rne(v: f64) -> F16 {
        cast(FpEnv::RNE, F64::from_host(v))
    }
}

impl BF16 {
    #[inline]
    pub fn to_f32_exact(self) -> F32 {
        F32((self.0 as u32) << 16)
    }
    /// f32 → bf16, round to nearest even, NaN kept (signaling kept).
    #[inline]
    pub fn from_f32_rne(x: F32) -> BF16 {
        let b = x.0;
        if b & 0x7fff_ffff > 0x7f80_0000 {
            return cast(FpEnv::RNE, x);
        }
        let rounded = b.wrapping_add(0x7fff + ((b >> 16) & 1));
        BF16((rounded >> 16) as u16)
    }
}

/// The value as a host f64 (exact for every format here; for display and tests).
pub fn to_f64<T: SoftFloat>(x: T) -> f64 {
    f64::from_bits(cast::<T, F64>(FpEnv::RNE, x).0)
}

// ---- classification ----

#[inline]
fn abs_bits<T: SoftFloat>(x: T) -> u64 {
    x.to_bits() & T::FORMAT.abs_mask()
}

#[inline]
pub fn is_nan<T: SoftFloat>(x: T) -> bool {
    abs_bits(x) > T::FORMAT.exp_all_ones() << T::FORMAT.man_bits
}

#[inline]
pub fn is_signal_nan<T: SoftFloat>(x: T) -> bool {
    is_nan(x) && x.to_bits() & (1 << (T::FORMAT.man_bits - 1)) == 0
}

#[inline]
pub fn is_quiet_nan<T: SoftFloat>(x: T) -> bool {
    is_nan(x) && x.to_bits() & (1 << (T::FORMAT.man_bits - 1)) != 0
}

#[inline]
pub fn is_inf<T: SoftFloat>(x: T) -> bool {
    abs_bits(x) == T::FORMAT.exp_all_ones() << T::FORMAT.man_bits
}

#[inline]
pub fn is_zero<T: SoftFloat>(x: T) -> bool {
    abs_bits(x) == 0
}

/// Denormal (nonzero with a zero exponent field).
#[inline]
pub fn is_denormal<T: SoftFloat>(x: T) -> bool {
    let a = abs_bits(x);
    a != 0 && a >> T::FORMAT.man_bits == 0
}

#[inline]
pub fn sign_bit<T: SoftFloat>(x: T) -> bool {
    x.to_bits() & T::FORMAT.sign_bit() != 0
}

/// The value with the quiet bit set (NaNs only change).
#[inline]
pub fn quiet<T: SoftFloat>(x: T) -> T {
    if is_nan(x) {
        T::from_bits(x.to_bits() | 1 << (T::FORMAT.man_bits - 1))
    } else {
        x
    }
}

#[inline]
pub fn default_nan<T: SoftFloat>() -> T {
    T::from_bits(T::FORMAT.default_nan().unwrap_or(0))
}

#[inline]
pub fn neg<T: SoftFloat>(x: T) -> T {
    T::from_bits(x.to_bits() ^ T::FORMAT.sign_bit())
}

#[inline]
pub fn abs<T: SoftFloat>(x: T) -> T {
    T::from_bits(abs_bits(x))
}

/// A zero of `x`'s sign when `x` is denormal and inputs are flushed.
#[inline]
pub fn flush_in<T: SoftFloat>(env: FpEnv, x: T) -> T {
    if !env.denorm.keep_in && is_denormal(x) {
        T::from_bits(x.to_bits() & T::FORMAT.sign_bit())
    } else {
        x
    }
}

#[inline]
fn flush_out<T: SoftFloat>(env: FpEnv, x: T) -> T {
    if !env.denorm.keep_out && is_denormal(x) {
        T::from_bits(x.to_bits() & T::FORMAT.sign_bit())
    } else {
        x
    }
}

// ---- arithmetic ----

#[inline]
fn ap<T: SoftFloat>(x: T) -> T::Ap {
    T::Ap::from_bits(x.to_bits() as u128)
}

#[inline]
fn from_ap<T: SoftFloat>(x: T::Ap) -> T {
    if x.is_nan() {
        default_nan()
    } else {
        T::from_bits(x.to_bits() as u64)
    }
}

/// The first NaN among the inputs, quieted.
#[inline]
fn propagate_nan<T: SoftFloat>(inputs: &[T]) -> Option<T> {
    inputs.iter().find(|x| is_nan(**x)).map(|x| quiet(*x))
}

fn soft<T: SoftFloat>(op: HostOp, env: FpEnv, a: T, b: T, c: T) -> T {
    let inputs: &[T] = match op {
        HostOp::Sqrt => &[a],
        HostOp::Fma => &[a, b, c],
        _ => &[a, b],
    };
    if let Some(n) = propagate_nan(inputs) {
        return n;
    }
    let (a, b, c) = (flush_in(env, a), flush_in(env, b), flush_in(env, c));
    let r = env.round.ap();
    let value = match op {
        HostOp::Add => from_ap::<T>(ap(a).add_r(ap(b), r).value),
        HostOp::Sub => from_ap::<T>(ap(a).sub_r(ap(b), r).value),
        HostOp::Mul => from_ap::<T>(ap(a).mul_r(ap(b), r).value),
        HostOp::Div => from_ap::<T>(ap(a).div_r(ap(b), r).value),
        HostOp::Fma => from_ap::<T>(ap(a).mul_add_r(ap(b), ap(c), r).value),
        HostOp::Sqrt => soft_sqrt(env.round, a),
    };
    flush_out(env, value)
}

#[inline]
fn run<T: SoftFloat>(op: HostOp, env: FpEnv, a: T, b: T, c: T) -> T {
    if env.host_exact() {
        if let Some(r) = T::host(op, a, b, c) {
            return r;
        }
    }
    soft(op, env, a, b, c)
}

/// The software path of an operation, never the host's (for tests that prove the fast path).
pub fn soft_op<T: SoftFloat>(op: HostOp, env: FpEnv, a: T, b: T, c: T) -> T {
    soft(op, env, a, b, c)
}

#[inline]
pub fn add<T: SoftFloat>(env: FpEnv, a: T, b: T) -> T {
    run(HostOp::Add, env, a, b, a)
}
#[inline]
pub fn sub<T: SoftFloat>(env: FpEnv, a: T, b: T) -> T {
    run(HostOp::Sub, env, a, b, a)
}
#[inline]
pub fn mul<T: SoftFloat>(env: FpEnv, a: T, b: T) -> T {
    run(HostOp::Mul, env, a, b, a)
}
#[inline]
pub fn div<T: SoftFloat>(env: FpEnv, a: T, b: T) -> T {
    run(HostOp::Div, env, a, b, a)
}
/// `a × b + c` with one rounding.
#[inline]
pub fn fma<T: SoftFloat>(env: FpEnv, a: T, b: T, c: T) -> T {
    run(HostOp::Fma, env, a, b, c)
}
#[inline]
pub fn sqrt<T: SoftFloat>(env: FpEnv, a: T) -> T {
    run(HostOp::Sqrt, env, a, a, a)
}

/// Integer square root with remainder flag (digit by digit).
fn isqrt(n: u128) -> (u128, bool) {
    let mut rem = n;
    let mut root = 0u128;
    let mut bit = 1u128 << 126;
    while bit > n {
        bit >>= 2;
    }
    while bit != 0 {
        if rem >= root + bit {
            rem -= root + bit;
            root = (root >> 1) + bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    (root, rem != 0)
}

fn soft_sqrt<T: SoftFloat>(round: RoundingMode, a: T) -> T {
    let fmt = T::FORMAT;
    let u = unpack(&fmt, a.to_bits());
    match u.class {
        Class::Zero => a,
        Class::Nan { .. } => quiet(a),
        _ if u.sign => default_nan(),
        Class::Infinite => a,
        Class::Finite => {
            // sig × 2^exp with an even exponent, widened so the root has ≥ 55 bits.
            let (mut sig, mut exp) = (u.sig as u128, u.exp);
            let lz = sig.leading_zeros() as i32;
            let up = lz - 12; // leaves 116 bits: the root has 58
            sig <<= up;
            exp -= up;
            if exp & 1 != 0 {
                sig <<= 1;
                exp -= 1;
            }
            let (root, inexact) = isqrt(sig);
            let (bits, _) = round_pack(
                &fmt,
                false,
                root,
                exp / 2,
                inexact,
                Rounding::Ieee(round),
                Overflow::Ieee,
            );
            T::from_bits(bits)
        }
    }
}

/// Rounds to an integral value in the given direction (`trunc`, `floor`, `ceil`, `rint`).
pub fn round_to_integral<T: SoftFloat>(env: FpEnv, x: T, dir: RoundingMode) -> T {
    if is_nan(x) {
        return quiet(x);
    }
    let x = flush_in(env, x);
    let r = ap(x).round_to_integral(dir.ap()).value;
    from_ap(r)
}

pub fn trunc<T: SoftFloat>(env: FpEnv, x: T) -> T {
    round_to_integral(env, x, RoundingMode::TowardZero)
}
pub fn floor<T: SoftFloat>(env: FpEnv, x: T) -> T {
    round_to_integral(env, x, RoundingMode::Down)
}
pub fn ceil<T: SoftFloat>(env: FpEnv, x: T) -> T {
    round_to_integral(env, x, RoundingMode::Up)
}
/// Nearest integral value, ties to even.
pub fn rint<T: SoftFloat>(env: FpEnv, x: T) -> T {
    round_to_integral(env, x, RoundingMode::NearestEven)
}

/// `x × 2^n`, rounded per `env`.
pub fn ldexp<T: SoftFloat>(env: FpEnv, x: T, n: i32) -> T {
    if is_nan(x) {
        return quiet(x);
    }
    let x = flush_in(env, x);
    // Beyond ±(exponent range + precision) the result is already ∞ or 0 after rounding.
    let n = n.clamp(-4400, 4400);
    flush_out(env, from_ap(ap(x).scalbn_r(n, env.round.ap())))
}

/// frexp: the mantissa in [0.5, 1) with `x`'s sign, and the exponent, for finite nonzero `x`
/// (denormals normalised); zero, ∞ and NaN give themselves (NaN quieted) and 0.
pub fn frexp<T: SoftFloat>(x: T) -> (T, i32) {
    let u = unpack(&T::FORMAT, x.to_bits());
    match u.class {
        Class::Finite => {
            let msb = 63 - u.sig.leading_zeros() as i32;
            let e = u.exp + msb + 1;
            let (bits, _) = round_pack(
                &T::FORMAT,
                u.sign,
                u.sig as u128,
                u.exp - e,
                false,
                Rounding::Ieee(RoundingMode::NearestEven),
                Overflow::Ieee,
            );
            (T::from_bits(bits), e)
        }
        Class::Nan { .. } => (quiet(x), 0),
        _ => (x, 0),
    }
}

// ---- comparison ----

/// IEEE comparison: `None` when either is NaN; −0 equals +0.
pub fn compare<T: SoftFloat>(a: T, b: T) -> Option<Ordering> {
    if is_nan(a) || is_nan(b) {
        return None;
    }
    let key = |x: T| -> i128 {
        let m = abs_bits(x) as i128;
        if sign_bit(x) {
            -m
        } else {
            m
        }
    };
    Some(key(a).cmp(&key(b)))
}

/// [`compare`] after flushing denormal inputs per `env`.
pub fn compare_env<T: SoftFloat>(env: FpEnv, a: T, b: T) -> Option<Ordering> {
    compare(flush_in(env, a), flush_in(env, b))
}

pub fn eq<T: SoftFloat>(a: T, b: T) -> bool {
    compare(a, b) == Some(Ordering::Equal)
}
pub fn lt<T: SoftFloat>(a: T, b: T) -> bool {
    compare(a, b) == Some(Ordering::Less)
}
pub fn le<T: SoftFloat>(a: T, b: T) -> bool {
    matches!(compare(a, b), Some(Ordering::Less | Ordering::Equal))
}
pub fn gt<T: SoftFloat>(a: T, b: T) -> bool {
    compare(a, b) == Some(Ordering::Greater)
}
pub fn ge<T: SoftFloat>(a: T, b: T) -> bool {
    matches!(compare(a, b), Some(Ordering::Greater | Ordering::Equal))
}
/// `!=`: true when unordered.
pub fn ne<T: SoftFloat>(a: T, b: T) -> bool {
    compare(a, b) != Some(Ordering::Equal)
}
/// Ordered and not equal (`<>`).
pub fn lg<T: SoftFloat>(a: T, b: T) -> bool {
    matches!(compare(a, b), Some(Ordering::Less | Ordering::Greater))
}
pub fn unordered<T: SoftFloat>(a: T, b: T) -> bool {
    compare(a, b).is_none()
}

/// −0 < +0 ordering used by AMD's min/max (`LT_NEG_ZERO` in the pseudocode).
pub fn lt_neg_zero<T: SoftFloat>(a: T, b: T) -> bool {
    lt(a, b) || (is_zero(a) && is_zero(b) && sign_bit(a) && !sign_bit(b))
}

/// +0 > −0 ordering (`GT_NEG_ZERO`).
pub fn gt_neg_zero<T: SoftFloat>(a: T, b: T) -> bool {
    gt(a, b) || (is_zero(a) && is_zero(b) && !sign_bit(a) && sign_bit(b))
}

// ---- conversions ----

/// A float-to-float conversion of the pseudocode's casts (`64'F(S0.f32)`): values rounded
/// per `env` (denormal inputs flushed per `env` only for narrowing), NaNs kept *without*
/// quieting so `isSignalNAN(64'F(x))` sees `x`'s signaling bit.
pub fn cast<A: SoftFloat, B: SoftFloat>(env: FpEnv, x: A) -> B {
    let (bits, _) = convert_bits(
        &A::FORMAT,
        &B::FORMAT,
        x.to_bits(),
        Rounding::Ieee(env.round),
        Overflow::Ieee,
        false,
    );
    B::from_bits(bits)
}

/// An instruction's conversion (`f32_to_f16`, `V_CVT_F64_F32`): like [`cast`], but NaNs are
/// quieted, denormal inputs flushed per `from_env` and denormal results per `to_env`.
pub fn convert<A: SoftFloat, B: SoftFloat>(from_env: FpEnv, to_env: FpEnv, x: A) -> B {
    let x = flush_in(from_env, x);
    let (bits, _) = convert_bits(
        &A::FORMAT,
        &B::FORMAT,
        x.to_bits(),
        Rounding::Ieee(to_env.round),
        Overflow::Ieee,
        true,
    );
    flush_out(to_env, B::from_bits(bits))
}

/// An integer to a float, rounded per `env`.
pub fn from_i64<T: SoftFloat>(env: FpEnv, v: i64) -> T {
    let (bits, _) = round_pack(
        &T::FORMAT,
        v < 0,
        v.unsigned_abs() as u128,
        0,
        false,
        Rounding::Ieee(env.round),
        Overflow::Ieee,
    );
    flush_out(env, T::from_bits(bits))
}

pub fn from_u64<T: SoftFloat>(env: FpEnv, v: u64) -> T {
    let (bits, _) = round_pack(
        &T::FORMAT,
        false,
        v as u128,
        0,
        false,
        Rounding::Ieee(env.round),
        Overflow::Ieee,
    );
    flush_out(env, T::from_bits(bits))
}

/// A float to a signed integer of `width` bits the way AMD's conversions do it: rounded
/// in direction `dir` (toward zero for `V_CVT_I32_F32`), NaN gives 0, out-of-range values
/// saturate to the type's limits.
pub fn to_int<T: SoftFloat>(env: FpEnv, x: T, width: u32, dir: RoundingMode) -> i64 {
    let x = flush_in(env, x);
    if is_nan(x) {
        return 0;
    }
    let max = (1i128 << (width - 1)) - 1;
    let min = -(1i128 << (width - 1));
    let mut exact = false;
    let r = ap(x).to_i128_r(127, dir.ap(), &mut exact).value;
    r.clamp(min, max) as i64
}

/// A float to an unsigned integer of `width` bits: rounded in `dir`, NaN and negative values
/// give 0, too large values saturate.
pub fn to_uint<T: SoftFloat>(env: FpEnv, x: T, width: u32, dir: RoundingMode) -> u64 {
    let x = flush_in(env, x);
    if is_nan(x) {
        return 0;
    }
    let max = if width >= 64 {
        u64::MAX as i128
    } else {
        (1i128 << width) - 1
    };
    let mut exact = false;
    let r = ap(x).to_i128_r(127, dir.ap(), &mut exact).value;
    r.clamp(0, max) as u64
}

/// A value of a storage format (fp8, bf8, fp6, fp4 and their variants) to an arithmetic
/// format: exact (every such value fits f16 or wider... except ∞/NaN, kept).
pub fn small_to<T: SoftFloat>(from: &Format, bits: u64) -> T {
    let (b, _) = convert_bits(
        from,
        &T::FORMAT,
        bits,
        Rounding::Ieee(RoundingMode::NearestEven),
        Overflow::Ieee,
        true,
    );
    T::from_bits(b)
}

/// An arithmetic value to a storage format (fp8, bf8, fp6, fp4), rounded per `rounding`;
/// `saturate` clamps overflows (and ∞) to the largest finite value.
pub fn to_small<T: SoftFloat>(to: &Format, x: T, rounding: Rounding, saturate: bool) -> u64 {
    let ov = if saturate {
        Overflow::Saturate
    } else {
        Overflow::Ieee
    };
    convert_bits(&T::FORMAT, to, x.to_bits(), rounding, ov, true).0
}

/// Clamps NaN to zero where MODE.DX10_CLAMP says so, and the value to [0, 1] (the clamp
/// output modifier).
pub fn clamp01<T: SoftFloat>(x: T, dx10_clamp: bool) -> T {
    if is_nan(x) {
        return if dx10_clamp { T::from_bits(0) } else { x };
    }
    let one = cast::<F64, T>(FpEnv::RNE, F64::from_host(1.0));
    if sign_bit(x) {
        T::from_bits(0)
    } else if gt(x, one) {
        one
    } else {
        x
    }
}

/// A host value in format `T` (rounded to nearest even): handy for constants (`0.5`, `PI`).
pub fn constant<T: SoftFloat>(v: f64) -> T {
    cast(FpEnv::RNE, F64::from_host(v))
}

/// The apfloat status bits as [`Flags`] (for callers who track exceptions).
pub fn flags_of(s: Status) -> Flags {
    Flags {
        inexact: s.contains(Status::INEXACT),
        overflow: s.contains(Status::OVERFLOW),
        underflow: s.contains(Status::UNDERFLOW),
    }
}
