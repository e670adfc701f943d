//! The pseudocode helpers against independent values, and their coverage of AMD's pseudocode
//! corpus (read at test time; skipped with a message when the corpus is absent).

use isa_runtime::exec::float::{self as fl, DenormMode, RoundingMode, BF16, F16, F32, F64};
use isa_runtime::exec::helpers::{self as h, HELPERS};
use isa_runtime::exec::wave::ModeGroup;
use isa_runtime::exec::Mode;
use std::collections::BTreeMap;
use std::path::PathBuf;

const M: Mode = Mode::DEFAULT;

fn f32v(v: f32) -> F32 {
    F32::from_host(v)
}

fn mode_with(group: ModeGroup, r: RoundingMode) -> Mode {
    let mut m = Mode::DEFAULT;
    m.set_rounding(group, r);
    m
}

#[test]
fn classification_and_parts() {
    assert!(
        h::is_nan(F32(0x7fc0_0000)) && h::is_nan(F32(0xff80_0001)) && !h::is_nan(F32(0x7f80_0000))
    );
    assert!(
        h::is_signal_nan(F64(0x7ff0_0000_0000_0001))
            && !h::is_quiet_nan(F64(0x7ff0_0000_0000_0001))
    );
    assert!(h::is_quiet_nan(F16(0x7e00)) && !h::is_signal_nan(F16(0x7e00)));
    assert_eq!(h::cvt_to_quiet_nan(F32(0x7f80_0001)), F32(0x7fc0_0001));
    assert_eq!(h::cvt_to_quiet_nan(f32v(2.0)), f32v(2.0));
    assert!(h::sign(f32v(-0.0)) && !h::sign(f32v(0.0)));
    assert_eq!(h::exponent(F32(0x4049_0fdb)), 128, "π = 1.57 × 2^1");
    assert_eq!(h::exponent(F16(0x3c00)), 15);
    assert_eq!(h::exponent(F64(0x7ff0_0000_0000_0000)), 2047);
    assert_eq!(h::exponent(F32(1)), 0, "denormals have a zero field");
    assert_eq!(h::mantissa(f32v(12.0)), f32v(0.75));
    assert_eq!(h::mantissa(f32v(-1.0)), f32v(-0.5));
    assert_eq!(
        h::mantissa(F32(0x0000_0003)),
        f32v(0.75),
        "3 × 2^-149 = 0.75 × 2^-147"
    );
    // mantissa keeps the stored mantissa bits of normal numbers (V_CVT_SR_* read them).
    assert_eq!(h::mantissa(F32(0x4123_4567)).0 & 0x7f_ffff, 0x23_4567);
    assert!(
        h::is_even(f32v(4.0))
            && h::is_even(f32v(0.0))
            && h::is_even(f32v(-2.0))
            && h::is_even(f32v(1.0e30))
    );
    assert!(
        !h::is_even(f32v(3.0))
            && !h::is_even(f32v(2.5))
            && !h::is_even(F32(0x7f80_0000))
            && !h::is_even(f32v(0.5))
    );
    assert!(h::is_even(F64::from_host(-1024.0)) && !h::is_even(F64::from_host(1023.0)));
    assert_eq!(h::float32(true, 127, 0x40_0000), f32v(-1.5));
    assert_eq!(h::float32(false, 0, 1), F32(1));
}

#[test]
fn arithmetic_helpers_follow_mode() {
    assert_eq!(h::abs(i32::MIN), i32::MIN, "two's complement wrap");
    assert_eq!(h::abs(-5i64), 5);
    assert_eq!(h::abs(f32v(-0.0)), f32v(0.0));
    assert_eq!(h::abs(F16(0xfe00)), F16(0x7e00), "NaN sign cleared");
    assert_eq!(h::fma(M, f32v(2.0), f32v(3.0), f32v(1.0)), f32v(7.0));
    assert_eq!(h::sqrt(M, F64::from_host(2.25)), F64::from_host(1.5));
    let mut flush = Mode::DEFAULT;
    flush.set_denorm(ModeGroup::Single, DenormMode::FLUSH);
    assert_eq!(h::sqrt(M, F32(1)), F32(0x1a35_04f3));
    assert_eq!(h::sqrt(flush, F32(1)), F32(0), "denormal input flushed");
    assert_eq!(h::trunc(M, f32v(-2.7)), f32v(-2.0));
    assert_eq!(h::floor(M, f32v(-2.2)), f32v(-3.0));
    assert_eq!(h::ceil(M, f32v(-2.7)), f32v(-2.0));
    assert_eq!(h::fract(M, f32v(-0.25)), f32v(0.75));
    assert_eq!(h::fract(M, f32v(2.5)), f32v(0.5));
    assert_eq!(h::fract(M, F16(0x4100)), F16(0x3800), "2.5 → 0.5 in f16");
    assert_eq!(h::ldexp(M, f32v(1.0), -149), F32(1));
    let mut flush_out = Mode::DEFAULT;
    flush_out.set_denorm(
        ModeGroup::Single,
        DenormMode {
            keep_in: true,
            keep_out: false,
        },
    );
    assert_eq!(h::ldexp(flush_out, f32v(1.0), -149), F32(0));
    assert_eq!(h::log2(M, f32v(8.0)), f32v(3.0));
    assert_eq!(h::pow(M, f32v(2.0), f32v(3.0)), f32v(8.0));
    assert_eq!(
        h::pow(M, F16(0x4000), F16(0xbc00)),
        F16(0x3800),
        "2^-1 in f16"
    );
    assert_eq!(h::exp2(M, f32v(-1.0)), f32v(0.5));
    assert_eq!(h::sin(M, f32v(0.0)), f32v(0.0));
    assert_eq!(h::cos(M, f32v(0.0)), f32v(1.0));
    let s = h::sin(M, f32v(std::f32::consts::FRAC_PI_6));
    assert!(
        (s.to_host() - 0.5).abs() <= f32::EPSILON,
        "sin(π/6) = {s:?}"
    );
    assert_eq!(
        h::sin(M, F32(0x7f80_0001)),
        F32(0x7fc0_0001),
        "NaN propagates quieted"
    );
    assert!(h::is_nan(h::log2(M, f32v(-1.0))));
    assert_eq!(h::min(3i32, -4), -4);
    assert_eq!(h::max(3u32, 4), 4);
    assert_eq!(h::max3(1u16, 9, 4), 9);
    assert_eq!(h::min(f32v(0.0), f32v(-0.0)), f32v(-0.0));
}

#[test]
fn integer_and_bit_helpers() {
    assert_eq!(h::signext(0x8000u16), -32768);
    assert_eq!(h::signext(0x7fffu16), 32767);
    assert_eq!(h::signext(-1i32), -1);
    assert_eq!(h::signext(0x8000_0000u32), -(1i64 << 31));
    assert_eq!(h::signext_from_bit(0xffi32, 8), -1);
    assert_eq!(h::signext_from_bit(0x7fi32, 8), 0x7f);
    assert_eq!(h::signext_from_bit(0x1234i32, 0), 0);
    assert_eq!(h::signext_from_bit(-5i32, 32), -5);
    assert_eq!(h::signext_from_bit(0x8_0000_0000i64, 36), -(1i64 << 35));
    assert_eq!(h::bit_count(0xf0f0u32), 8);
    assert_eq!(h::bit_count(-1i64), 64);
    assert_eq!(h::reverse_bits(1u32), 0x8000_0000);
    assert_eq!(h::reverse_bits(1u8), 0x80);
    assert_eq!(
        h::reverse_bits(0x0000_0000_0000_0003u64),
        0xc000_0000_0000_0000
    );
    assert_eq!(h::twos_complement(5u32), -5);
    assert_eq!(h::sat8(-7), 0);
    assert_eq!(h::sat8(300), 255);
    assert_eq!(h::sat8(77), 77);
    assert_eq!(h::s_ff1_i32_b32(0), -1);
    assert_eq!(h::s_ff1_i32_b32(0x80), 7);
    assert_eq!(h::s_ff1_i32_b64(1 << 40), 40);
    assert_eq!(h::v_prng_b32(1), 2);
    assert_eq!(h::v_prng_b32(0x8000_0000), 0xc5);
    assert_eq!(h::v_prng_b32(0xffff_ffff), 0xffff_ff3b);
    assert_eq!(h::v_sad_u8(0x0102_0304, 0x0403_0201, 10), 18);
    assert_eq!(
        h::v_msad_u8(0x0102_0304, 0x0400_0201, 0),
        7,
        "byte 2 of b is 0: skipped"
    );
    assert_eq!(
        h::v_sad_u8(0, 0xffff_ffff, u32::MAX),
        1019,
        "accumulator wraps"
    );
    assert_eq!(h::u4_to_u32(0x1f), 0xf);
    assert_eq!(h::i4_to_i32(0xf), -1);
    assert_eq!(h::i4_to_i32(0x7), 7);
    assert_eq!(h::u8_to_u32(0x1ff), 0xff);
    assert_eq!(h::i8_to_i32(0x80), -128);
    assert_eq!(h::u16_to_u32(0x1_ffff), 0xffff);
    assert_eq!(h::i16_to_i32(0xffff), -1);
    assert_eq!(h::u32_to_u16(0x1234_5678), 0x5678);
    assert_eq!(h::i32_to_i16(-70000), -4464);
}

#[test]
fn amd_min_max_nan_rules() {
    let (snan, qnan, one) = (F32(0x7f80_0001), F32(0x7fc0_0002), f32v(1.0));
    let mut non_ieee = Mode::DEFAULT;
    non_ieee.set_ieee(false);
    assert_eq!(
        h::v_min_f(M, snan, one),
        F32(0x7fc0_0001),
        "IEEE mode: sNaN quieted wins"
    );
    assert_eq!(h::v_min_f(M, one, snan), F32(0x7fc0_0001));
    assert_eq!(h::v_min_f(M, qnan, one), one, "quiet NaN loses");
    assert_eq!(
        h::v_min_f(non_ieee, snan, one),
        one,
        "outside IEEE mode every NaN loses"
    );
    assert_eq!(h::v_min_f(M, f32v(0.0), f32v(-0.0)), f32v(-0.0));
    assert_eq!(h::v_max_f(M, f32v(-0.0), f32v(0.0)), f32v(0.0));
    assert_eq!(h::v_max_f(M, f32v(2.0), f32v(-3.0)), f32v(2.0));
    assert_eq!(h::v_min3_f(M, f32v(2.0), f32v(-3.0), f32v(1.0)), f32v(-3.0));
    assert_eq!(
        h::v_max3_f(M, F16(0x3c00), F16(0x4000), F16(0xc000)),
        F16(0x4000)
    );
    assert_eq!(
        h::v_min_num(qnan, snan),
        F32(0x7fc0_0002),
        "two NaNs: the first, quieted"
    );
    assert_eq!(h::v_min_num(snan, one), one);
    assert_eq!(h::v_max_num(one, f32v(5.0)), f32v(5.0));
    assert_eq!(h::v_min3_num(f32v(3.0), qnan, f32v(2.0)), f32v(2.0));
    assert_eq!(h::v_minimum(qnan, one), qnan, "NaN wins");
    assert_eq!(h::v_minimum(one, snan), F32(0x7fc0_0001));
    assert_eq!(h::v_maximum(f32v(-0.0), f32v(0.0)), f32v(0.0));
    assert_eq!(
        h::v_maximum3(F16(0x3c00), F16(0x7e00), F16(0x4000)),
        F16(0x7e00)
    );
}

#[test]
fn conversion_helpers() {
    assert_eq!(h::f32_to_i32(M, f32v(2.7)), 2);
    assert_eq!(h::f32_to_i32(M, f32v(-2.7)), -2);
    assert_eq!(h::f32_to_i32(M, F32(0x7fc0_0000)), 0);
    assert_eq!(h::f32_to_i32(M, f32v(3.0e9)), i32::MAX);
    assert_eq!(h::f32_to_i32(M, f32v(-3.0e9)), i32::MIN);
    assert_eq!(h::f32_to_u32(M, f32v(-1.0)), 0);
    assert_eq!(h::f32_to_u32(M, f32v(5.0e9)), u32::MAX);
    assert_eq!(h::f64_to_i32(M, F64::from_host(-7.99)), -7);
    assert_eq!(h::f64_to_u32(M, F64::from_host(4294967295.9)), u32::MAX);
    assert_eq!(h::f16_to_i16(M, F16(0x7bff)), i16::MAX, "65504 saturates");
    assert_eq!(h::f16_to_u16(M, F16(0x7bff)), 65504);
    assert_eq!(h::v_cvt_i16_f32(M, f32v(-40000.0)), i16::MIN);
    assert_eq!(h::v_cvt_u16_f32(M, f32v(123.9)), 123);
    // f32 → f16 rounds by the f16 controls, not the f32 ones.
    let third = f32v(1.0 / 3.0);
    assert_eq!(h::f32_to_f16(M, third), F16(0x3555));
    assert_eq!(
        h::f32_to_f16(mode_with(ModeGroup::DoubleHalf, RoundingMode::Up), third),
        F16(0x3556)
    );
    assert_eq!(
        h::f32_to_f16(mode_with(ModeGroup::Single, RoundingMode::Up), third),
        F16(0x3555)
    );
    assert_eq!(
        h::f32_to_f16(M, F32(0x7f80_0001)),
        F16(0x7e00),
        "sNaN quieted"
    );
    assert_eq!(
        h::f16_to_f32(M, F16(0x3555)),
        F32(0x3eaa_a000),
        "0.333251953125 exactly"
    );
    assert_eq!(
        h::f32_to_f64(M, third),
        F64::from_host((1.0f32 / 3.0) as f64)
    );
    assert_eq!(h::f64_to_f32(M, F64::from_host(0.1)), f32v(0.1));
    assert_eq!(
        h::f32_to_bf16(M, F32(0x3f80_8000)),
        BF16(0x3f80),
        "1 + 2^-8: tie to even"
    );
    assert_eq!(
        h::f32_to_bf16(
            mode_with(ModeGroup::Single, RoundingMode::Up),
            F32(0x3f80_8000)
        ),
        BF16(0x3f81)
    );
    assert_eq!(h::bf16_to_f32(M, BF16(0xc040)), f32v(-3.0));
    assert_eq!(h::i32_to_f32(M, 16_777_217), F32(0x4b80_0000));
    assert_eq!(
        h::i32_to_f32(mode_with(ModeGroup::Single, RoundingMode::Up), 16_777_217),
        F32(0x4b80_0001)
    );
    assert_eq!(h::u32_to_f32(M, u32::MAX), F32(0x4f80_0000));
    assert_eq!(
        h::u32_to_f32(
            mode_with(ModeGroup::Single, RoundingMode::TowardZero),
            u32::MAX
        ),
        F32(0x4f7f_ffff)
    );
    assert_eq!(h::i32_to_f64(M, i32::MIN), F64::from_host(-2147483648.0));
    assert_eq!(h::u32_to_f64(M, u32::MAX), F64::from_host(4294967295.0));
    assert_eq!(h::i16_to_f16(M, -2048), F16(0xe800));
    assert_eq!(
        h::u16_to_f16(M, 65535),
        F16(0x7c00),
        "rounds to ∞ at nearest"
    );
    assert_eq!(
        h::u16_to_f16(
            mode_with(ModeGroup::DoubleHalf, RoundingMode::TowardZero),
            65535
        ),
        F16(0x7bff)
    );
    assert_eq!(
        h::f16_to_snorm(M, F16(0x3800)),
        16384,
        "0.5 × 32767 = 16383.5 → even"
    );
    assert_eq!(h::f16_to_snorm(M, F16(0xc000)), -32767, "clamped to -1");
    assert_eq!(h::f16_to_unorm(M, F16(0x3c00)), 65535);
    assert_eq!(h::f32_to_unorm(M, f32v(0.5)), 32768, "32767.5 → even");
    assert_eq!(h::f32_to_snorm(M, F32(0x7fc0_0000)), 0);
    assert_eq!(h::f32_to_unorm(M, f32v(-3.0)), 0);
    assert_eq!(h::f32_to_u8(M, f32v(255.6)), 255);
    assert_eq!(h::f32_to_u8(M, f32v(3.5)), 4);
    assert_eq!(h::f32_to_u8(M, f32v(2.5)), 2);
    assert_eq!(h::f32_to_u8(M, f32v(-3.0)), 0);
    assert_eq!(h::fp8_to_f32(0x38), f32v(1.0));
    assert_eq!(h::fp8_to_f32(0xfe), f32v(-448.0));
    assert_eq!(h::bf8_to_f32(0x3c), f32v(1.0));
    assert_eq!(h::bf8_to_f32(0xfc), f32v(f32::NEG_INFINITY));
    assert_eq!(h::f32_to_fp8(M, f32v(448.0)), 0x7e);
    assert_eq!(h::f32_to_fp8(M, f32v(1000.0)), 0x7f);
    assert_eq!(h::f32_to_fp8_sat(M, f32v(1000.0)), 0x7e);
    assert_eq!(
        h::f32_to_fp8(M, f32v(0.0625)),
        0x18,
        "2^-4: exponent field 3"
    );
    assert_eq!(h::f32_to_bf8(M, f32v(1.0e9)), 0x7c);
    assert_eq!(h::f32_to_bf8_sat(M, f32v(-1.0e9)), 0xfb);
    // Stochastic rounding: 1 + 2^-12 to f16 is a quarter ulp above 1.
    assert_eq!(h::f32_to_f16_sr(M, F32(0x3f80_0800), 0), F16(0x3c00));
    assert_eq!(
        h::f32_to_f16_sr(M, F32(0x3f80_0800), 0xc000_0000),
        F16(0x3c01)
    );
    assert_eq!(
        h::f32_to_bf16_sr(M, F32(0x3f80_8000), 0x8000_0000),
        BF16(0x3f81),
        "half ulp + half"
    );
    assert_eq!(
        h::f32_to_bf16_sr(M, F32(0x3f80_8000), 0x7fff_ffff),
        BF16(0x3f80)
    );
}

#[test]
fn scaled_conversions() {
    // Scale 127 is a factor of one; 128 doubles on the way in and halves on the way out.
    assert_eq!(h::fp8_to_f32_scale(M, 0x38, 127), f32v(1.0));
    assert_eq!(h::fp8_to_f32_scale(M, 0x38, 130), f32v(8.0));
    assert_eq!(h::fp4_to_f16_scale(M, 0x7, 126), F16(0x4200), "6 × 0.5 = 3");
    assert_eq!(h::bf8_to_bf16_scale(M, 0x3c, 120), BF16(0x3c00), "2^-7");
    assert!(
        h::is_nan(h::fp6_to_f32_scale(M, 0x08, 255)),
        "E8M0 NaN scale"
    );
    assert_eq!(h::f32_to_fp8_scale(M, f32v(8.0), 130), 0x38, "8 / 8 = 1");
    assert_eq!(
        h::f32_to_fp4_scale(M, f32v(100.0), 127),
        0x7,
        "fp4 saturates at 6"
    );
    assert_eq!(
        h::f32_to_fp4_scale(M, f32v(-3.0), 128),
        0xb,
        "-1.5 = sign | 0b011"
    );
    assert_eq!(h::f16_to_fp6_scale(M, F16(0x3c00), 127), 0x08);
    assert_eq!(
        h::bf16_to_bf6_scale(M, BF16(0x4200), 127),
        0x1f,
        "32 saturates to 28"
    );
    assert_eq!(
        h::bf16_to_bf6_scale(M, BF16(0x4040), 127),
        0x12,
        "3 = 1.5 × 2^1: exponent field 4, mantissa 0b10"
    );
    // Stochastic: 1.25 in fp4 lies between 1.0 and 1.5, a half step above 1.0.
    assert_eq!(h::f32_to_fp4_sr_scale(M, f32v(1.25), 0x7fff_ffff, 127), 0x2);
    assert_eq!(h::f32_to_fp4_sr_scale(M, f32v(1.25), 0x8000_0000, 127), 0x3);
}

#[test]
fn absdiff_and_byte_permute() {
    assert_eq!(h::absdiff(3, 10), 7);
    assert_eq!(h::absdiff(10, 3), 7);
    let data = 0x8877_6655_4433_2211u64;
    assert_eq!(h::byte_permute(data, 0), 0x11);
    assert_eq!(h::byte_permute(data, 7), 0x88);
    assert_eq!(h::byte_permute(data, 8), 0x00, "byte 1 = 0x22: sign 0");
    assert_eq!(h::byte_permute(data, 11), 0xff, "byte 7 = 0x88: sign 1");
    assert_eq!(h::byte_permute(data, 12), 0x00);
    assert_eq!(h::byte_permute(data, 13), 0xff);
}

#[test]
fn address_helpers() {
    assert_eq!(h::calc_ds_addr(0xffff_fff0, 0x20), 0x10, "32-bit wrap");
    assert_eq!(h::calc_global_addr(0x10, Some(0x1000), -4), 0x100c);
    assert_eq!(
        h::calc_global_addr(0xffff_ffff_0000_0010, Some(0x1000), 0),
        0x1010,
        "the SADDR form's lane offset is 32-bit"
    );
    assert_eq!(h::calc_global_addr(0x2000, None, 8), 0x2008);
    assert_eq!(h::calc_flat_addr(0x2000, -8), 0x1ff8);
    assert_eq!(h::calc_scratch_addr(Some(8), Some(4), -4), 8);
    assert_eq!(h::calc_scratch_addr(None, None, 12), 12);
    assert_eq!(
        h::calc_scalar_global_addr(0x1003, 4, 8),
        0x100c,
        "base aligned down to 4"
    );
    assert_eq!(
        h::calc_buffer_addr(0xffff_0000_1000_0000, 4, 8, 16),
        0x1000_001c,
        "48-bit base"
    );
    assert_eq!(
        h::lookup("CalcDsAddr").map(|x| x.rust),
        Some("calc_ds_addr")
    );
    assert!(h::lookup("isNAN").is_some_and(|x| !x.mode));
    assert!(h::lookup("f32_to_f16").is_some_and(|x| x.mode));
}

#[test]
fn named_constants() {
    assert_eq!(h::pcode_constant::<F32>("PI"), Some(F32(0x4049_0fdb)));
    assert_eq!(
        h::pcode_constant::<F64>("PI"),
        Some(F64(0x4009_21fb_5444_2d18))
    );
    assert_eq!(h::pcode_constant::<F16>("INF"), Some(F16(0x7c00)));
    assert_eq!(h::pcode_constant::<F32>("NAN"), Some(F32(0x7fc0_0000)));
    assert!(h::pcode_constant::<F64>("sNaN").is_some_and(h::is_signal_nan));
    assert_eq!(
        h::pcode_constant::<F32>("MAX_FLOAT_F32"),
        Some(F32(0x7f7f_ffff))
    );
    assert_eq!(h::pcode_constant::<F32>("OVERFLOW_F32"), None);
}

#[test]
fn mode_register_fields() {
    let mut m = Mode::DEFAULT;
    assert_eq!(m.round_mode(), Mode::ROUND_NEAREST_EVEN);
    assert!(m.ieee() && m.dx10_clamp());
    assert_eq!(m.denorm(ModeGroup::Single), DenormMode::KEEP);
    m.set_round_mode(Mode::ROUND_TOWARD_ZERO);
    assert_eq!(m.rounding(ModeGroup::Single), RoundingMode::TowardZero);
    assert_eq!(m.rounding(ModeGroup::DoubleHalf), RoundingMode::TowardZero);
    assert_eq!(m.0 & 0xf, 0xf);
    m.set_rounding(ModeGroup::DoubleHalf, RoundingMode::Up);
    assert_eq!(
        m.0 & 0xf,
        0b0111,
        "bits 3:2 = 1 (+∞), bits 1:0 = 3 (toward zero)"
    );
    m.set_denorm(
        ModeGroup::DoubleHalf,
        DenormMode {
            keep_in: true,
            keep_out: false,
        },
    );
    assert_eq!((m.0 >> 6) & 3, 1);
    assert_eq!(
        m.env::<F16>().denorm,
        DenormMode {
            keep_in: true,
            keep_out: false
        }
    );
    assert_eq!(m.env::<F32>().round, RoundingMode::TowardZero);
    m.set_csp(5);
    assert_eq!((m.csp(), m.0 >> 29), (5, 5));
    assert_eq!(Mode::field("IEEE"), Some((9, 1)));
    // The wave's f16 arithmetic under the f64/f16 controls.
    assert_eq!(
        fl::add(m.env::<F16>(), F16(0x3c00), F16(0x1000)),
        F16(0x3c01)
    );
}

// ---- coverage of the corpus ----

/// Helpers the pseudocode calls that are not implemented yet, and why.
const MISSING: &[(&str, &str)] = &[
    (
        "ConvertToFormat",
        "typed buffer/image data formats need the FORMAT tables (data × numeric format)",
    ),
    (
        "ConvertFromFormat",
        "typed buffer/image data formats need the FORMAT tables",
    ),
    (
        "ChannelOffsetX",
        "byte offset of a channel in a typed buffer format",
    ),
    (
        "ChannelOffsetY",
        "byte offset of a channel in a typed buffer format",
    ),
    (
        "ChannelOffsetZ",
        "byte offset of a channel in a typed buffer format",
    ),
    (
        "ChannelOffsetW",
        "byte offset of a channel in a typed buffer format",
    ),
    (
        "CalcImageAddr",
        "needs the image resource and sampler model",
    ),
    (
        "CalcScalarScratchAddr",
        "scalar scratch access (the wave's private base) is not modelled",
    ),
    (
        "HwRegWriteMask",
        "which hardware-register bits are writable per privilege level",
    ),
    (
        "writeableBitMask",
        "which hardware-register bits are writable per privilege level",
    ),
    (
        "DECODE_ADDR",
        "barrier/semaphore address packing not modelled",
    ),
    (
        "ENCODE_ADDR",
        "barrier/semaphore address packing not modelled",
    ),
    (
        "IsM0",
        "operand identity test: the executor generator answers it from the operand",
    ),
    (
        "InWorkgroup",
        "workgroup membership: executor/dispatch state",
    ),
    ("CheckBarrierComplete", "named barriers are not modelled"),
    (
        "PrefetchScalarData",
        "prefetch has no architectural effect; executors may ignore it",
    ),
    (
        "PrefetchScalarInst",
        "prefetch has no architectural effect; executors may ignore it",
    ),
    (
        "WaitIdleExceptStoreCnt",
        "the emulator's memory is synchronous: nothing to wait for",
    ),
    ("ReallocVgprs", "dynamic VGPR allocation is not modelled"),
];

/// Call-like words of the corpus that are not helpers: keywords, casts, and words of AMD's
/// prose and of record/array notation.
const NOT_HELPERS: &[&str] = &[
    "if",
    "elsif",
    "elif",
    "for",
    "while",
    "until",
    "lambda",
    "in",
    "else",
    "return",
    "F",
    "U",
    "I",
    "B",
    "BF",
    "A",
    "C",
    "D",
    "LDS",
    "ID",
    "x",
    "y",
    "z",
    "GS_REGS",
    "valid",
    "ray_extent",
    "node_pointer",
    "MUL_F32",
    "privileged",
    "vmcount",
    "remaining",
    "permute",
    "lsb",
    "instskip",
    "instid0",
    "instid1",
    "find_first_valid",
    "bs",
    "Scratch",
    "DATA_VALID",
];

fn pcode_dir() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("AMD_ISA_PCODE_DIR").filter(|v| !v.is_empty()) {
        return Some(PathBuf::from(p));
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let has_pcode = |d: &PathBuf| {
        std::fs::read_dir(d).is_ok_and(|rd| {
            rd.flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == "pcode"))
        })
    };
    [
        root.join("spec/pcode"),
        root.join("../shared/spec-data/pcode"),
    ]
    .into_iter()
    .find(has_pcode)
}

/// Counts calls `name(` in the corpus, leaving out lambdas each entry defines.
fn count_calls(text: &str) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for entry in text.split("\n=== ") {
        let lambdas: Vec<&str> = entry
            .lines()
            .filter_map(|l| l.split_once("= lambda").map(|(n, _)| n.trim()))
            .collect();
        for line in entry
            .lines()
            .skip(1)
            .filter(|l| !l.starts_with('#') && !l.trim_start().starts_with("//"))
        {
            let b = line.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if (b[i].is_ascii_alphabetic() || b[i] == b'_')
                    && (i == 0
                        || !(b[i - 1].is_ascii_alphanumeric()
                            || b[i - 1] == b'_'
                            || b[i - 1] == b'.'
                            || b[i - 1] == b'\''))
                {
                    let start = i;
                    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                        i += 1;
                    }
                    let name = &line[start..i];
                    let mut j = i;
                    while j < b.len() && b[j] == b' ' {
                        j += 1;
                    }
                    if j < b.len() && b[j] == b'(' && !lambdas.contains(&name) {
                        *counts.entry(name.to_string()).or_insert(0) += 1;
                    }
                } else {
                    i += 1;
                }
            }
        }
    }
    counts
}

#[test]
fn helpers_cover_the_corpus() {
    let Some(dir) = pcode_dir() else {
        println!("skipped: no pseudocode corpus (set AMD_ISA_PCODE_DIR or provide spec/pcode)");
        return;
    };
    let mut text = String::new();
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "pcode") {
            text.push_str(&std::fs::read_to_string(e.path()).unwrap());
            text.push('\n');
        }
    }
    let counts = count_calls(&text);
    let implemented: usize = counts
        .iter()
        .filter(|(n, _)| h::lookup(n).is_some())
        .map(|(_, c)| c)
        .sum();
    let mut missing: Vec<(&String, &usize)> = counts
        .iter()
        .filter(|(n, _)| h::lookup(n).is_none() && !NOT_HELPERS.contains(&n.as_str()))
        .collect();
    missing.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let missing_calls: usize = missing.iter().map(|(_, c)| **c).sum();
    println!(
        "helper calls in {}: {implemented} to implemented helpers, {missing_calls} to missing ones",
        dir.display()
    );
    for (name, count) in &missing {
        let why = MISSING
            .iter()
            .find(|m| m.0 == name.as_str())
            .map_or("(scale conversion or unlisted)", |m| m.1);
        println!("  missing {count:4} {name}: {why}");
    }
    // Every implemented name is really called (catches misspelt table entries).
    let unused: Vec<&str> = HELPERS
        .iter()
        .map(|h| h.pcode)
        .filter(|n| !counts.contains_key(*n))
        .collect();
    assert!(
        unused.is_empty(),
        "helper names the corpus never calls: {unused:?}"
    );
    // Every frequently called helper is implemented or listed as missing with a reason.
    let unexplained: Vec<_> = missing
        .iter()
        .filter(|(n, c)| **c >= 4 && !MISSING.iter().any(|m| m.0 == n.as_str()))
        .collect();
    assert!(
        unexplained.is_empty(),
        "frequent helpers neither implemented nor explained: {unexplained:?}"
    );
    assert!(
        implemented > 3 * missing_calls,
        "most helper calls are covered: {implemented} vs {missing_calls}"
    );
}
