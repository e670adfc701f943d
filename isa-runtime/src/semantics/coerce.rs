//! Value coercions for helper arguments and results ([`co`]) and float constants.

use super::*;

/// The conversion generated code uses to pass a value to a helper whose parameter type is
/// concrete, and to take its result: integers are cast (`as`), `bool` is 0/1, floats pass
/// unchanged.
pub trait Co<T> {
    fn co(self) -> T;
}

macro_rules! co_ints {
    ($($t:ty),*) => {
        co_ints!(@each [$($t),*] [$($t),*]);
    };
    (@each [$($a:ty),*] $bs:tt) => {$(co_ints!(@one $a $bs);)*};
    (@one $a:ty [$($b:ty),*]) => {$(
        impl Co<$b> for $a { #[inline] fn co(self) -> $b { self as $b } }
    )*};
}
co_ints!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

macro_rules! co_bool {
    ($($t:ty),*) => {$(
        impl Co<$t> for bool { #[inline] fn co(self) -> $t { self as $t } }
        impl Co<bool> for $t { #[inline] fn co(self) -> bool { self != 0 } }
    )*};
}
co_bool!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);
impl Co<bool> for bool {
    #[inline]
    fn co(self) -> bool {
        self
    }
}
macro_rules! co_same {
    ($($t:ty),*) => {$(impl Co<$t> for $t { #[inline] fn co(self) -> $t { self } })*};
}
co_same!(F16, F32, F64, crate::exec::float::BF16);

/// `x` as `T` (see [`Co`]).
#[inline]
pub fn co<T, A: Co<T>>(x: A) -> T {
    x.co()
}

/// A float constant of a format (rounded to nearest even).
#[inline]
pub fn fconst<T: SoftFloat>(v: f64) -> T {
    fl::constant(v)
}

/// A numeric conversion of a float to an integer of `width` bits (`32'I(x)`): toward zero,
/// saturating, NaN → 0.
#[inline]
pub fn f_to_i<T: SoftFloat>(w: &Wave, x: T, width: u32, signed: bool) -> i128 {
    let env = w.mode.env::<T>();
    if signed {
        fl::to_int(env, x, width.min(64), fl::RoundingMode::TowardZero) as i128
    } else {
        fl::to_uint(env, x, width.min(64), fl::RoundingMode::TowardZero) as i128
    }
}

/// The pseudocode's named float constants (`PI`, `INF`, `NAN`, ...).
pub fn float_const<T: SoftFloat>(name: &str) -> Result<T, ExecError> {
    let fmt = T::FORMAT;
    let bits = match name {
        "PI" => return Ok(fl::constant(std::f64::consts::PI)),
        "INF" | "overflow" => fmt.infinity().unwrap_or(fmt.max_finite()),
        "NAN" | "NaN" => fmt.default_nan().unwrap_or(0),
        "sNaN" => fmt.exp_all_ones() << fmt.man_bits | 1,
        "DENORM" => 1,
        "underflow" => 0,
        _ => {
            return Err(ExecError::unsupported(
                name,
                "named constant not modelled by the emulator",
            ))
        }
    };
    Ok(T::from_bits(bits))
}
