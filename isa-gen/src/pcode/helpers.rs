//! The helper functions the pseudocode calls, which the runtime will provide: their arity and
//! how their result type follows from their arguments. A call of a name not known here (and not
//! a lambda of the entry) is an `unknown-helper` diagnostic.
//!
//! Three groups: a fixed table (math, address calculation, wave control), conversions named
//! `<from>_to_<to>[_scale|_sr|_sr_scale]` (`f32_to_f16`, `fp8_to_f32_scale`, and RDNA2's
//! `flt32_to_flt16`), and instructions called as functions (`v_min_u32`, `s_ff1_i32_b64`,
//! RDNA2's `V_MAX3_F16`).

use super::types::{Kind, Ty};

/// What a helper expects of an argument; the type checker converts arguments accordingly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Param {
    /// Taken as it is.
    Any,
    /// Converted to this type.
    Exactly(Ty),
    /// A float (bits of a float width are reinterpreted; integers are converted).
    Float,
}

/// How the result type is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ret {
    /// Called only for its effect; using the call as a value is an error.
    Nothing,
    Fixed(Ty),
    /// The type of argument `i` (after conversion).
    Arg(usize),
    /// The common type of all arguments (they are converted to it).
    Common,
    /// `signext(x)`: `x` sign-extended to at least 64 bits.
    SignExtended,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    pub min_args: usize,
    pub max_args: usize,
    /// The expectation for the first argument, and for the others.
    pub params: (Param, Param),
    pub ret: Ret,
}

impl Signature {
    pub fn param(&self, i: usize) -> Param {
        if i == 0 {
            self.params.0
        } else {
            self.params.1
        }
    }
}

const ANY: (Param, Param) = (Param::Any, Param::Any);
const FLOAT: (Param, Param) = (Param::Float, Param::Float);

const fn sig(min_args: usize, max_args: usize, params: (Param, Param), ret: Ret) -> Signature {
    Signature {
        min_args,
        max_args,
        params,
        ret,
    }
}

/// The signature of a helper, if it is one.
pub fn lookup(name: &str) -> Option<Signature> {
    if let Some(s) = fixed(name) {
        return Some(s);
    }
    if let Some(s) = conversion(name) {
        return Some(s);
    }
    instruction(name)
}

fn fixed(name: &str) -> Option<Signature> {
    use Ret::*;
    let bool_ty = Ty::BOOL;
    Some(match name {
        // Address calculation: operand lists differ between encodings and generations.
        "CalcDsAddr" => sig(2, 3, ANY, Fixed(Ty::U32)),
        "CalcGlobalAddr" | "CalcFlatAddr" | "CalcScratchAddr" => sig(2, 3, ANY, Fixed(Ty::U64)),
        "CalcBufferAddr" => sig(2, 4, ANY, Fixed(Ty::U64)),
        "CalcImageAddr" => sig(1, 1, ANY, Fixed(Ty::U64)),
        "CalcScalarBufferAddr" | "CalcScalarGlobalAddr" | "CalcScalarScratchAddr" => {
            sig(3, 3, ANY, Fixed(Ty::U64))
        }
        "ChannelOffsetX" | "ChannelOffsetY" | "ChannelOffsetZ" | "ChannelOffsetW" => {
            sig(0, 0, ANY, Fixed(Ty::U32))
        }
        "ConvertFromFormat" | "ConvertToFormat" => sig(1, 1, ANY, Fixed(Ty::B32)),
        "DECODE_ADDR" => sig(2, 2, ANY, Fixed(Ty::B64)),
        "ENCODE_ADDR" => sig(2, 2, ANY, Fixed(Ty::B32)),
        // Wave and hardware control.
        "nop" | "WaitIdleExceptStoreCnt" => sig(0, 0, ANY, Nothing),
        "CheckBarrierComplete" => sig(1, 1, ANY, Nothing),
        "PrefetchScalarData" | "PrefetchScalarInst" => sig(2, 2, ANY, Nothing),
        "InWorkgroup" => sig(0, 0, ANY, Fixed(bool_ty)),
        "IsM0" => sig(1, 1, ANY, Fixed(bool_ty)),
        "ReallocVgprs" => sig(1, 1, ANY, Fixed(Ty::I32)),
        "HwRegWriteMask" | "writeableBitMask" => sig(2, 2, ANY, Fixed(Ty::U32)),
        // Arithmetic.
        "abs" => sig(1, 1, ANY, Arg(0)),
        "sqrt" | "trunc" | "floor" | "ceil" | "fract" | "sin" | "cos" | "log2" | "exp"
        | "mantissa" | "Mantissa" | "cvtToQuietNAN" | "Quiet" => sig(1, 1, FLOAT, Arg(0)),
        "pow" => sig(2, 2, (Param::Float, Param::Any), Arg(0)),
        "ldexp" => sig(2, 2, (Param::Float, Param::Exactly(Ty::I32)), Arg(0)),
        "fma" => sig(3, 3, FLOAT, Common),
        "min" | "max" | "MIN" | "MAX" => sig(2, 2, ANY, Common),
        "exponent" | "Exponent" => sig(1, 1, FLOAT, Fixed(Ty::I32)),
        "sign" => sig(1, 1, FLOAT, Fixed(Ty::U1)),
        "isNAN" | "isNan" | "isSignalNAN" | "isQuietNAN" | "isEven" => {
            sig(1, 1, FLOAT, Fixed(bool_ty))
        }
        "signext" => sig(1, 1, ANY, SignExtended),
        "signext_from_bit" => sig(2, 2, ANY, Arg(0)),
        "float32" => sig(3, 3, ANY, Fixed(Ty::F32)),
        "bitCount" => sig(1, 1, ANY, Fixed(Ty::U32)),
        "TwosComplement" => sig(1, 1, ANY, Fixed(Ty::I32)),
        "sat8" => sig(1, 1, ANY, Fixed(Ty::unsigned(8))),
        _ => return None,
    })
}

/// The type a conversion helper names: `f32`, `bf16`, `fp8`, `i4`, `u16`, `snorm`, and RDNA2's
/// `flt16`, `int16`, `uint8`, `snorm16`.
pub fn conversion_type(name: &str) -> Option<Ty> {
    Some(match name {
        "snorm" | "snorm16" => Ty::signed(16),
        "unorm" | "unorm16" => Ty::unsigned(16),
        _ => {
            let (prefix, digits) = name.split_at(name.find(|c: char| c.is_ascii_digit())?);
            let width: u32 = digits.parse().ok()?;
            let kind = match prefix {
                "f" | "fp" | "flt" => Kind::Float,
                "bf" => Kind::BFloat,
                "i" | "int" => Kind::Signed,
                "u" | "uint" => Kind::Unsigned,
                _ => return None,
            };
            if matches!(kind, Kind::Float | Kind::BFloat)
                && !super::types::float_format_exists(kind, width)
            {
                return None;
            }
            if matches!(kind, Kind::Signed | Kind::Unsigned)
                && !matches!(width, 4 | 8 | 16 | 32 | 64)
            {
                return None;
            }
            Ty::new(kind, width)
        }
    })
}

fn conversion(name: &str) -> Option<Signature> {
    let (from, rest) = name.split_once("_to_")?;
    let from = conversion_type(from)?;
    let (to, extra) = match rest.split_once('_') {
        Some((to, extra)) => (to, extra),
        None => (rest, ""),
    };
    let to = conversion_type(to)?;
    let extra_args = match extra.to_ascii_lowercase().as_str() {
        "" => 0,
        "scale" | "sr" => 1,
        "sr_scale" => 2,
        _ => return None,
    };
    Some(sig(
        1 + extra_args,
        1 + extra_args,
        (Param::Exactly(from), Param::Any),
        Ret::Fixed(to),
    ))
}

/// Instructions called as functions: `v_min_u32(a, b)`, `v_max3_f16(a, b, c)`,
/// `v_sad_u8(a, b, acc)`, `v_cvt_i16_f32(x)`, `s_ff1_i32_b64(x)`, `s_nop(n)`, `v_prng_b32(x)`.
fn instruction(name: &str) -> Option<Signature> {
    let lower = name.to_ascii_lowercase();
    let (prefix, rest) = lower.split_once('_')?;
    if !matches!(prefix, "v" | "s") && !matches!(lower.as_str(), "sad_u8" | "msad_u8") {
        return None;
    }
    let rest = if matches!(prefix, "v" | "s") {
        rest
    } else {
        lower.as_str()
    };
    let mut parts = rest.split('_');
    let op = parts.next()?;
    let types: Vec<Ty> = parts
        .filter_map(|p| {
            if p == "num" {
                None
            } else {
                conversion_type(p).or_else(|| bits_type(p))
            }
        })
        .collect();
    if op == "nop" {
        return Some(sig(1, 1, ANY, Ret::Nothing));
    }
    let first = *types.first()?;
    let (arity, ret) = match op {
        "min" | "max" | "minimum" | "maximum" => (2, first),
        "min3" | "max3" | "med3" | "minimum3" | "maximum3" => (3, first),
        "sad" | "msad" => (3, Ty::U32),
        "cvt" | "ff1" | "ffbh" | "ffbl" | "prng" | "not" | "bcnt1" => (1, first),
        _ => return None,
    };
    Some(sig(arity, arity, ANY, Ret::Fixed(ret)))
}

fn bits_type(p: &str) -> Option<Ty> {
    let w: u32 = p.strip_prefix('b')?.parse().ok()?;
    matches!(w, 8 | 16 | 32 | 64).then_some(Ty::bits(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_are_recognised_by_name() {
        let s = lookup("f32_to_f16").unwrap();
        assert_eq!((s.min_args, s.ret), (1, Ret::Fixed(Ty::F16)));
        assert_eq!(s.param(0), Param::Exactly(Ty::F32));
        let s = lookup("f16_to_fp6_sr_scale").unwrap();
        assert_eq!(s.max_args, 3);
        assert_eq!(s.ret, Ret::Fixed(Ty::float(6)));
        assert_eq!(
            lookup("flt16_to_snorm16").unwrap().ret,
            Ret::Fixed(Ty::signed(16))
        );
        assert_eq!(lookup("f32_to_q7"), None);
    }

    #[test]
    fn instructions_called_as_functions_have_their_arity() {
        assert_eq!(lookup("v_max3_u16").unwrap().min_args, 3);
        assert_eq!(lookup("v_min_num_f32").unwrap().ret, Ret::Fixed(Ty::F32));
        assert_eq!(lookup("V_MIN_F16").unwrap().ret, Ret::Fixed(Ty::F16));
        assert_eq!(lookup("v_sad_u8").unwrap().ret, Ret::Fixed(Ty::U32));
        assert_eq!(lookup("s_ff1_i32_b64").unwrap().ret, Ret::Fixed(Ty::I32));
        assert_eq!(lookup("MSAD_U8").unwrap().min_args, 3);
        assert_eq!(lookup("v_frobnicate_u32"), None);
        assert_eq!(lookup("GS_REGS"), None);
    }
}
