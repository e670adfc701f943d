//! Shorthands for what generated executors repeat, so each executor names a step instead of
//! spelling it out: the last step of each lane (a vector destination's value into its dword
//! arrays), the stores after the lane loop (the dwords of a vector destination its form has,
//! a scalar destination with the bits its form writes), and the conversions of one target
//! type (`co_f64(x)` for `co::<F64, _>(x)`, `cast_f32(mode, x)` for
//! `fl::cast::<_, F32>(mode.env::<F32>(), x)`).

use super::{store_lanes, write_scalar, Co, FormBinding};
use crate::exec::float::{self as fl, SoftFloat, BF16, F16, F32, F64};
use crate::exec::wave::{Mode, Src, MAX_LANES};
use crate::exec::{ExecError, Wave};

/// Lane `lane`'s value `v` of a vector destination into its dword arrays (dword `k` of the
/// destination in `a[k]`).
#[inline]
pub fn put_lane(a: &mut [[u32; MAX_LANES]], lane: usize, v: u128) {
    for (k, dwords) in a.iter_mut().enumerate() {
        dwords[lane] = v.checked_shr(32 * k as u32).unwrap_or(0) as u32;
    }
}

/// Stores a vector destination `s` (bound to `role`) for the lanes in `exec`: as many dwords
/// as the form's operand has (at least one, at most `a.len()`).
#[inline]
pub fn store_vector(
    w: &mut Wave,
    b: &FormBinding,
    role: usize,
    s: Src,
    a: &[[u32; MAX_LANES]],
    exec: u64,
) -> Result<(), ExecError> {
    let n = ((b.sizes[role] as u32).div_ceil(32).max(1) as usize).min(a.len());
    for (k, lanes) in a.iter().enumerate().take(n) {
        store_lanes(w, s, k as u32, lanes, exec)?;
    }
    Ok(())
}

/// Stores a scalar destination `s` (bound to `role`) with the bits its form writes
/// ([`FormBinding::write_bits`]).
#[inline]
pub fn store_scalar(
    w: &mut Wave,
    b: &FormBinding,
    role: usize,
    s: Src,
    v: u128,
) -> Result<(), ExecError> {
    let bits = b.write_bits(w, role);
    write_scalar(w, s, bits, v)
}

macro_rules! co_to {
    ($($name:ident => $t:ty),* $(,)?) => {$(
        #[doc = concat!("`x` as `", stringify!($t), "` ([`super::co`]).")]
        #[inline]
        pub fn $name<A: Co<$t>>(x: A) -> $t {
            x.co()
        }
    )*};
}
co_to!(
    co_bool => bool, co_u8 => u8, co_u16 => u16, co_u32 => u32, co_u64 => u64, co_u128 => u128,
    co_i8 => i8, co_i16 => i16, co_i32 => i32, co_i64 => i64, co_i128 => i128,
    co_f16 => F16, co_f32 => F32, co_f64 => F64, co_bf16 => BF16,
);

macro_rules! cast_to {
    ($($name:ident => $t:ty),* $(,)?) => {$(
        #[doc = concat!("`x` converted to `", stringify!($t), "` with MODE's rounding and denormal controls.")]
        #[inline]
        pub fn $name<S: SoftFloat>(mode: Mode, x: S) -> $t {
            fl::cast(mode.env::<$t>(), x)
        }
    )*};
}
cast_to!(cast_f16 => F16, cast_f32 => F32, cast_f64 => F64, cast_bf16 => BF16);
