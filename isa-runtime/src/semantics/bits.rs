//! Bit manipulation and integer arithmetic on `u128` as the pseudocode does it.

use super::*;

/// The low `bits` bits of `v`.
#[inline]
pub fn mask_to(v: u128, bits: u32) -> u128 {
    if bits >= 128 {
        v
    } else {
        v & ((1u128 << bits) - 1)
    }
}

/// `width` bits of `x` from bit `lo` (bits past 127 read as 0).
#[inline]
pub fn get_bits(x: u128, lo: u128, width: u32) -> u128 {
    if lo >= 128 {
        return 0;
    }
    mask_to(x >> lo, width)
}

/// `x` with `width` bits from `lo` replaced by `v`'s low bits (bits past 127 are dropped).
#[inline]
pub fn set_bits(x: u128, lo: u128, width: u32, v: u128) -> u128 {
    if lo >= 128 {
        return x;
    }
    let m = mask_to(u128::MAX, width) << lo;
    (x & !m) | ((v << lo) & m)
}

/// The low `width` bits of `x` in reverse order (`x[0 : 31]`).
#[inline]
pub fn rev_bits(x: u128, width: u32) -> u128 {
    if width == 0 {
        return 0;
    }
    mask_to(x, width).reverse_bits() >> (128 - width.min(128))
}

/// `x` sign-extended from bit `width - 1`.
#[inline]
pub fn sext(x: i128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return x;
    }
    let s = 128 - width;
    (x << s) >> s
}

/// `x << n` in `width` bits (0 when `n >= width`).
#[inline]
pub fn shl(x: u128, n: u128, width: u32) -> u128 {
    if n >= width as u128 {
        0
    } else {
        mask_to(x << n, width)
    }
}

/// Logical `x >> n` (0 when `n >= width`).
#[inline]
pub fn shr(x: u128, n: u128, width: u32) -> u128 {
    if n >= width as u128 || n >= 128 {
        0
    } else {
        x >> n
    }
}

/// Arithmetic `x >> n` of a sign-extended value (the sign when `n >= width`).
#[inline]
pub fn sar(x: i128, n: u128) -> i128 {
    x >> n.min(127)
}

/// A shift amount or index as a number: negative values become huge (out of range).
#[inline]
pub fn amount_i(n: i128) -> u128 {
    if n < 0 {
        u128::MAX
    } else {
        n as u128
    }
}

/// An array index, checked against the length.
#[inline]
pub fn index(i: i128, len: usize) -> Result<usize, ExecError> {
    if i >= 0 && (i as u128) < len as u128 {
        Ok(i as usize)
    } else {
        Err(ExecError::illegal(
            format!("index {i}"),
            format!("outside the pseudocode's array of {len} elements"),
        ))
    }
}

/// Integer division of the pseudocode: division by zero is an error (the pseudocode never
/// divides by a value that can be zero on purpose).
#[inline]
pub fn div_u(a: u128, b: u128) -> Result<u128, ExecError> {
    a.checked_div(b).ok_or_else(div_zero)
}
#[inline]
pub fn rem_u(a: u128, b: u128) -> Result<u128, ExecError> {
    a.checked_rem(b).ok_or_else(div_zero)
}
#[inline]
pub fn div_i(a: i128, b: i128) -> Result<i128, ExecError> {
    if b == 0 {
        return Err(div_zero());
    }
    Ok(a.wrapping_div(b))
}
#[inline]
pub fn rem_i(a: i128, b: i128) -> Result<i128, ExecError> {
    if b == 0 {
        return Err(div_zero());
    }
    Ok(a.wrapping_rem(b))
}
fn div_zero() -> ExecError {
    ExecError::illegal("divisor", "integer division by zero in the pseudocode")
}

/// `base ** exp` on integers (wrapping).
#[inline]
pub fn pow_u(base: u128, exp: u128) -> u128 {
    base.wrapping_pow(exp.min(u32::MAX as u128) as u32)
}

/// Bounds a `while` loop: the pseudocode's loops end, but a bad input must not hang.
#[inline]
pub fn loop_guard(count: &mut u32) -> Result<(), ExecError> {
    *count += 1;
    if *count > 1 << 20 {
        return Err(ExecError::unsupported(
            "pseudocode loop",
            "ran more than 2^20 iterations",
        ));
    }
    Ok(())
}
