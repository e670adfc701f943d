//! The pseudocode helpers the runtime implements (`isa_runtime::exec::helpers`): one table
//! that the executor generator (which calls them) and the runtime (which defines them) both
//! use, so neither reads the other's source.

/// A pseudocode helper implemented by the runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HelperInfo {
    /// The name the pseudocode calls.
    pub pcode: &'static str,
    /// The Rust function in `isa_runtime::exec::helpers`.
    pub rust: &'static str,
    /// Takes the wave's `Mode` first.
    pub mode: bool,
    /// Generic over its value types (`fn abs<T: ..>(x: T)`): arguments pass as they are;
    /// otherwise each goes through the runtime's `co` conversion to the concrete parameter.
    pub generic: bool,
    /// Generic, but the parameters after the first are fixed integers (`ldexp`'s exponent,
    /// `signext_from_bit`'s width), passed through `co`.
    pub int_tail: bool,
}

/// A helper with concrete parameter types.
const fn h(pcode: &'static str, rust: &'static str, mode: bool) -> HelperInfo {
    HelperInfo {
        pcode,
        rust,
        mode,
        generic: false,
        int_tail: false,
    }
}

/// A generic helper.
const fn g(pcode: &'static str, rust: &'static str, mode: bool) -> HelperInfo {
    HelperInfo {
        pcode,
        rust,
        mode,
        generic: true,
        int_tail: false,
    }
}

/// A generic helper whose parameters after the first are integers.
const fn gi(pcode: &'static str, rust: &'static str, mode: bool) -> HelperInfo {
    HelperInfo {
        pcode,
        rust,
        mode,
        generic: true,
        int_tail: true,
    }
}

/// Every pseudocode helper name the runtime implements.
pub const HELPERS: &[HelperInfo] = &[
    // Classification and parts of floats.
    g("isNAN", "is_nan", false),
    g("isNan", "is_nan", false),
    g("isSignalNAN", "is_signal_nan", false),
    g("isQuietNAN", "is_quiet_nan", false),
    g("cvtToQuietNAN", "cvt_to_quiet_nan", false),
    g("Quiet", "cvt_to_quiet_nan", false),
    g("sign", "sign", false),
    g("exponent", "exponent", false),
    g("Exponent", "exponent", false),
    g("mantissa", "mantissa", false),
    g("Mantissa", "mantissa", false),
    g("isEven", "is_even", false),
    h("float32", "float32", false),
    // Arithmetic.
    g("abs", "abs", false),
    g("fma", "fma", true),
    g("sqrt", "sqrt", true),
    g("trunc", "trunc", true),
    g("floor", "floor", true),
    g("fract", "fract", true),
    gi("ldexp", "ldexp", true),
    g("sin", "sin", true),
    g("cos", "cos", true),
    g("log2", "log2", true),
    g("pow", "pow", true),
    g("min", "min", false),
    g("max", "max", false),
    g("MIN", "min", false),
    // Integers and bits.
    g("signext", "signext", false),
    gi("signext_from_bit", "signext_from_bit", false),
    g("bitCount", "bit_count", false),
    g("countbits", "bit_count", false),
    g("count_ones", "bit_count", false),
    g("reverse_bits", "reverse_bits", false),
    g("TwosComplement", "twos_complement", false),
    h("sat8", "sat8", false),
    h("ABSDIFF", "absdiff", false),
    h("byte_permute", "byte_permute", false),
    // Conversions.
    h("f16_to_f32", "f16_to_f32", true),
    h("f32_to_f16", "f32_to_f16", true),
    h("f32_to_f64", "f32_to_f64", true),
    h("f64_to_f32", "f64_to_f32", true),
    h("bf16_to_f32", "bf16_to_f32", true),
    h("f32_to_bf16", "f32_to_bf16", true),
    h("f32_to_f16_sr", "f32_to_f16_sr", true),
    h("f32_to_f16_SR", "f32_to_f16_sr", true),
    h("f32_to_bf16_sr", "f32_to_bf16_sr", true),
    h("f32_to_bf16_SR", "f32_to_bf16_sr", true),
    h("i32_to_f32", "i32_to_f32", true),
    h("u32_to_f32", "u32_to_f32", true),
    h("i32_to_f64", "i32_to_f64", true),
    h("u32_to_f64", "u32_to_f64", true),
    h("i16_to_f16", "i16_to_f16", true),
    h("u16_to_f16", "u16_to_f16", true),
    h("f32_to_i32", "f32_to_i32", true),
    h("f32_to_u32", "f32_to_u32", true),
    h("f64_to_i32", "f64_to_i32", true),
    h("f64_to_u32", "f64_to_u32", true),
    h("f16_to_i16", "f16_to_i16", true),
    h("f16_to_u16", "f16_to_u16", true),
    h("f32_to_u8", "f32_to_u8", true),
    h("f16_to_snorm", "f16_to_snorm", true),
    h("f16_to_unorm", "f16_to_unorm", true),
    h("f32_to_snorm", "f32_to_snorm", true),
    h("f32_to_unorm", "f32_to_unorm", true),
    h("fp8_to_f32", "fp8_to_f32", false),
    h("bf8_to_f32", "bf8_to_f32", false),
    h("f32_to_fp8", "f32_to_fp8", true),
    h("f32_to_bf8", "f32_to_bf8", true),
    // OCP MX scaled conversions (CDNA4): the scale is an E8M0 exponent, 2^(scale - 127).
    h("fp8_to_f32_scale", "fp8_to_f32_scale", true),
    h("f32_to_fp8_scale", "f32_to_fp8_scale", true),
    h("f32_to_fp8_sr_scale", "f32_to_fp8_sr_scale", true),
    h("fp8_to_f16_scale", "fp8_to_f16_scale", true),
    h("f16_to_fp8_scale", "f16_to_fp8_scale", true),
    h("f16_to_fp8_sr_scale", "f16_to_fp8_sr_scale", true),
    h("fp8_to_bf16_scale", "fp8_to_bf16_scale", true),
    h("bf16_to_fp8_scale", "bf16_to_fp8_scale", true),
    h("bf16_to_fp8_sr_scale", "bf16_to_fp8_sr_scale", true),
    h("bf8_to_f32_scale", "bf8_to_f32_scale", true),
    h("f32_to_bf8_scale", "f32_to_bf8_scale", true),
    h("f32_to_bf8_sr_scale", "f32_to_bf8_sr_scale", true),
    h("bf8_to_f16_scale", "bf8_to_f16_scale", true),
    h("f16_to_bf8_scale", "f16_to_bf8_scale", true),
    h("f16_to_bf8_sr_scale", "f16_to_bf8_sr_scale", true),
    h("bf8_to_bf16_scale", "bf8_to_bf16_scale", true),
    h("bf16_to_bf8_scale", "bf16_to_bf8_scale", true),
    h("bf16_to_bf8_sr_scale", "bf16_to_bf8_sr_scale", true),
    h("fp6_to_f32_scale", "fp6_to_f32_scale", true),
    h("f32_to_fp6_scale", "f32_to_fp6_scale", true),
    h("f32_to_fp6_sr_scale", "f32_to_fp6_sr_scale", true),
    h("fp6_to_f16_scale", "fp6_to_f16_scale", true),
    h("f16_to_fp6_scale", "f16_to_fp6_scale", true),
    h("f16_to_fp6_sr_scale", "f16_to_fp6_sr_scale", true),
    h("fp6_to_bf16_scale", "fp6_to_bf16_scale", true),
    h("bf16_to_fp6_scale", "bf16_to_fp6_scale", true),
    h("bf16_to_fp6_sr_scale", "bf16_to_fp6_sr_scale", true),
    h("bf6_to_f32_scale", "bf6_to_f32_scale", true),
    h("f32_to_bf6_scale", "f32_to_bf6_scale", true),
    h("f32_to_bf6_sr_scale", "f32_to_bf6_sr_scale", true),
    h("bf6_to_f16_scale", "bf6_to_f16_scale", true),
    h("f16_to_bf6_scale", "f16_to_bf6_scale", true),
    h("f16_to_bf6_sr_scale", "f16_to_bf6_sr_scale", true),
    h("bf6_to_bf16_scale", "bf6_to_bf16_scale", true),
    h("bf16_to_bf6_scale", "bf16_to_bf6_scale", true),
    h("bf16_to_bf6_sr_scale", "bf16_to_bf6_sr_scale", true),
    h("fp4_to_f32_scale", "fp4_to_f32_scale", true),
    h("f32_to_fp4_scale", "f32_to_fp4_scale", true),
    h("f32_to_fp4_sr_scale", "f32_to_fp4_sr_scale", true),
    h("fp4_to_f16_scale", "fp4_to_f16_scale", true),
    h("f16_to_fp4_scale", "f16_to_fp4_scale", true),
    h("f16_to_fp4_sr_scale", "f16_to_fp4_sr_scale", true),
    h("fp4_to_bf16_scale", "fp4_to_bf16_scale", true),
    h("bf16_to_fp4_scale", "bf16_to_fp4_scale", true),
    h("bf16_to_fp4_sr_scale", "bf16_to_fp4_sr_scale", true),
    h("u4_to_u32", "u4_to_u32", false),
    h("i4_to_i32", "i4_to_i32", false),
    h("u8_to_u32", "u8_to_u32", false),
    h("i8_to_i32", "i8_to_i32", false),
    h("u16_to_u32", "u16_to_u32", false),
    h("i16_to_i32", "i16_to_i32", false),
    h("u32_to_u16", "u32_to_u16", false),
    h("i32_to_i16", "i32_to_i16", false),
    // RDNA2 spellings.
    h("flt32_to_flt16", "f32_to_f16", true),
    h("flt16_to_flt32", "f16_to_f32", true),
    h("int16_to_flt16", "i16_to_f16", true),
    h("uint16_to_flt16", "u16_to_f16", true),
    h("flt16_to_int16", "f16_to_i16", true),
    h("flt16_to_uint16", "f16_to_u16", true),
    h("flt16_to_snorm16", "f16_to_snorm", true),
    h("flt16_to_unorm16", "f16_to_unorm", true),
    h("flt32_to_uint8", "f32_to_u8", true),
    // Instructions called as functions.
    g("v_min_f32", "v_min_f", true),
    g("v_max_f32", "v_max_f", true),
    g("v_min_f16", "v_min_f", true),
    g("v_max_f16", "v_max_f", true),
    g("V_MIN_F32", "v_min_f", true),
    g("V_MAX_F32", "v_max_f", true),
    g("V_MIN_F16", "v_min_f", true),
    g("V_MAX_F16", "v_max_f", true),
    g("v_min3_f32", "v_min3_f", true),
    g("v_max3_f32", "v_max3_f", true),
    g("v_min3_f16", "v_min3_f", true),
    g("v_max3_f16", "v_max3_f", true),
    g("V_MIN3_F32", "v_min3_f", true),
    g("V_MAX3_F32", "v_max3_f", true),
    g("V_MIN3_F16", "v_min3_f", true),
    g("V_MAX3_F16", "v_max3_f", true),
    g("v_min_num_f32", "v_min_num", false),
    g("v_max_num_f32", "v_max_num", false),
    g("v_min_num_f16", "v_min_num", false),
    g("v_max_num_f16", "v_max_num", false),
    g("v_min3_num_f32", "v_min3_num", false),
    g("v_max3_num_f32", "v_max3_num", false),
    g("v_min3_num_f16", "v_min3_num", false),
    g("v_max3_num_f16", "v_max3_num", false),
    g("v_minimum_f32", "v_minimum", false),
    g("v_maximum_f32", "v_maximum", false),
    g("v_minimum_f16", "v_minimum", false),
    g("v_maximum_f16", "v_maximum", false),
    g("v_minimum3_f16", "v_minimum3", false),
    g("v_maximum3_f16", "v_maximum3", false),
    g("v_min_i32", "min", false),
    g("v_max_i32", "max", false),
    g("v_min_u32", "min", false),
    g("v_max_u32", "max", false),
    g("v_min_i16", "min", false),
    g("v_max_i16", "max", false),
    g("v_min_u16", "min", false),
    g("v_max_u16", "max", false),
    g("V_MIN_I32", "min", false),
    g("V_MAX_I32", "max", false),
    g("V_MIN_U32", "min", false),
    g("V_MAX_U32", "max", false),
    g("V_MIN_I16", "min", false),
    g("V_MAX_I16", "max", false),
    g("V_MIN_U16", "min", false),
    g("V_MAX_U16", "max", false),
    g("v_max3_i32", "max3", false),
    g("v_max3_u32", "max3", false),
    g("v_max3_i16", "max3", false),
    g("v_max3_u16", "max3", false),
    g("V_MAX3_I32", "max3", false),
    g("V_MAX3_U32", "max3", false),
    g("V_MAX3_I16", "max3", false),
    g("V_MAX3_U16", "max3", false),
    h("v_sad_u8", "v_sad_u8", false),
    h("V_SAD_U8", "v_sad_u8", false),
    h("SAD_U8", "v_sad_u8", false),
    h("v_msad_u8", "v_msad_u8", false),
    h("MSAD_U8", "v_msad_u8", false),
    h("s_ff1_i32_b32", "s_ff1_i32_b32", false),
    h("s_ff1_i32_b64", "s_ff1_i32_b64", false),
    h("v_prng_b32", "v_prng_b32", false),
    h("v_cvt_i16_f32", "v_cvt_i16_f32", true),
    h("v_cvt_u16_f32", "v_cvt_u16_f32", true),
    h("s_nop", "s_nop", false),
    h("nop", "nop", false),
    // Address calculation.
    h("CalcDsAddr", "calc_ds_addr", false),
    h("CalcGlobalAddr", "calc_global_addr", false),
    h("CalcFlatAddr", "calc_flat_addr", false),
    h("CalcScratchAddr", "calc_scratch_addr", false),
    h("CalcScalarGlobalAddr", "calc_scalar_global_addr", false),
    h("CalcScalarBufferAddr", "calc_scalar_global_addr", false),
    h("CalcBufferAddr", "calc_buffer_addr", false),
];

/// The Rust helper for a pseudocode helper name.
pub fn lookup(pcode: &str) -> Option<&'static HelperInfo> {
    HELPERS.iter().find(|h| h.pcode == pcode)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_flags_consistent() {
        for (k, a) in HELPERS.iter().enumerate() {
            assert!(
                HELPERS[k + 1..].iter().all(|b| b.pcode != a.pcode),
                "{} listed twice",
                a.pcode
            );
            assert!(
                !a.int_tail || a.generic,
                "{}: int_tail needs generic",
                a.pcode
            );
            // One Rust function has one signature: every name mapped to it agrees.
            for b in HELPERS.iter().filter(|b| b.rust == a.rust) {
                assert_eq!(
                    (a.mode, a.generic, a.int_tail),
                    (b.mode, b.generic, b.int_tail),
                    "{} and {} call {} differently",
                    a.pcode,
                    b.pcode,
                    a.rust
                );
            }
        }
        assert_eq!(
            lookup("ldexp").map(|h| (h.rust, h.mode, h.int_tail)),
            Some(("ldexp", true, true))
        );
        assert!(lookup("not a helper").is_none());
    }
}
