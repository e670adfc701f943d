//! The emulator's floating point against independent values: hand-computed bit patterns, the
//! host FPU where it is exactly right, exact f64 arithmetic with an independent directed
//! rounding, and rustc_apfloat's conversions (our conversions do not use them).

use isa_runtime::exec::float::{
    self as fl, convert_bits, round_pack, DenormMode, Format, FpEnv, HostOp, Overflow, Rounding,
    RoundingMode, SoftFloat, BF16, F16, F32, F64,
};
use rustc_apfloat::{ieee, FloatConvert, Round};

const RNE: RoundingMode = RoundingMode::NearestEven;
const UP: RoundingMode = RoundingMode::Up;
const DOWN: RoundingMode = RoundingMode::Down;
const RTZ: RoundingMode = RoundingMode::TowardZero;
const MODES: [RoundingMode; 4] = [RNE, UP, DOWN, RTZ];

fn env(r: RoundingMode) -> FpEnv {
    FpEnv::new(r, DenormMode::KEEP)
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Bit patterns biased toward the interesting ones: specials, denormals, near-equal
    /// exponents.
    fn f32_bits(&mut self) -> u32 {
        const SPECIAL: [u32; 12] = [
            0,
            0x8000_0000,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
            0x0000_0001,
            0x807f_ffff,
            0x0080_0000,
            0x7f7f_ffff,
            0x3f80_0000,
            0xbf80_0000,
        ];
        let r = self.next();
        match r % 8 {
            0 => SPECIAL[(r >> 8) as usize % SPECIAL.len()],
            1 => (r >> 32) as u32 & 0x807f_ffff, // denormals
            2 => ((r >> 32) as u32 & 0x81ff_ffff) | 0x3f00_0000, // near 1
            _ => (r >> 32) as u32,
        }
    }
    fn f64_bits(&mut self) -> u64 {
        let r = self.next();
        match r % 8 {
            0 => [
                0,
                1 << 63,
                0x7ff0 << 48,
                0xfff0 << 48,
                0x7ff8 << 48,
                (0x7ff0 << 48) | 1,
                1,
                0x3ff0 << 48,
            ][(r >> 8) as usize % 8],
            1 => self.next() & 0x800f_ffff_ffff_ffff,
            2 => (self.next() & 0x801f_ffff_ffff_ffff) | 0x3fe0 << 48,
            _ => self.next(),
        }
    }
    fn f16_bits(&mut self) -> u16 {
        let r = self.next();
        match r % 8 {
            0 => [0u16, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 1, 0x3c00][(r >> 8) as usize % 8],
            1 => (r >> 40) as u16 & 0x83ff,
            _ => (r >> 40) as u16,
        }
    }
}

// ---- hand-computed bit patterns ----

#[test]
fn f32_add_ties_and_directions() {
    // 1 + 2^-24 is exactly half an ulp above 1.
    let (one, tiny) = (F32(0x3f80_0000), F32(0x3380_0000));
    let expect = [
        (RNE, 0x3f80_0000),
        (UP, 0x3f80_0001),
        (DOWN, 0x3f80_0000),
        (RTZ, 0x3f80_0000),
    ];
    for (m, bits) in expect {
        assert_eq!(fl::add(env(m), one, tiny), F32(bits), "{m:?}");
        let mirrored = match m {
            UP => DOWN,
            DOWN => UP,
            other => other,
        };
        assert_eq!(
            fl::add(env(mirrored), fl::neg(one), fl::neg(tiny)),
            fl::neg(F32(bits)),
            "{m:?} negated, mirrored mode"
        );
    }
    // The mirrored directions for negative values: toward -inf moves away from zero.
    assert_eq!(
        fl::add(env(DOWN), F32(0xbf80_0000), F32(0xb380_0000)),
        F32(0xbf80_0001)
    );
    assert_eq!(
        fl::add(env(UP), F32(0xbf80_0000), F32(0xb380_0000)),
        F32(0xbf80_0000)
    );
}

#[test]
fn f32_division_and_overflow_by_direction() {
    let (one, three) = (F32(0x3f80_0000), F32(0x4040_0000));
    // 1/3 = 0x3eaaaaaa.aaa…: the next bit is 1 with more ones after: RNE rounds up.
    for (m, bits) in [
        (RNE, 0x3eaa_aaab),
        (UP, 0x3eaa_aaab),
        (DOWN, 0x3eaa_aaaa),
        (RTZ, 0x3eaa_aaaa),
    ] {
        assert_eq!(fl::div(env(m), one, three), F32(bits), "{m:?}");
    }
    let max = F32(0x7f7f_ffff);
    for (m, bits) in [
        (RNE, 0x7f80_0000),
        (UP, 0x7f80_0000),
        (DOWN, 0x7f7f_ffff),
        (RTZ, 0x7f7f_ffff),
    ] {
        assert_eq!(fl::add(env(m), max, max), F32(bits), "overflow {m:?}");
    }
    assert_eq!(fl::div(env(RNE), one, F32(0)), F32(0x7f80_0000));
    assert_eq!(fl::div(env(RNE), fl::neg(one), F32(0)), F32(0xff80_0000));
}

#[test]
fn f64_f16_bf16_ties() {
    // 1 + 2^-53 (f64), 1 + 2^-11 (f16 0x1000 = 2^-11), 1 + 2^-8 (bf16 0x3b80 = 2^-8).
    let f64_one = F64(0x3ff0_0000_0000_0000);
    let f64_tiny = F64(0x3ca0_0000_0000_0000);
    for (m, bits) in [
        (RNE, 0x3ff0_0000_0000_0000),
        (UP, 0x3ff0_0000_0000_0001),
        (DOWN, 0x3ff0_0000_0000_0000),
    ] {
        assert_eq!(fl::add(env(m), f64_one, f64_tiny), F64(bits), "f64 {m:?}");
    }
    for (m, bits) in [(RNE, 0x3c00), (UP, 0x3c01), (RTZ, 0x3c00)] {
        assert_eq!(
            fl::add(env(m), F16(0x3c00), F16(0x1000)),
            F16(bits),
            "f16 {m:?}"
        );
    }
    for (m, bits) in [(RNE, 0x3f80), (UP, 0x3f81), (DOWN, 0x3f80)] {
        assert_eq!(
            fl::add(env(m), BF16(0x3f80), BF16(0x3b80)),
            BF16(bits),
            "bf16 {m:?}"
        );
    }
    // 1 + 3·2^-12 (f16 0x1200) is 0.75 ulp above 1: nearest rounds up.
    assert_eq!(fl::add(env(RNE), F16(0x3c00), F16(0x1200)), F16(0x3c01));
}

#[test]
fn fma_is_fused() {
    // (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly; a separate multiply would round it to 0.
    let a = F32(0x3f80_0001);
    let b = F32(0x3f7f_fffe);
    assert_eq!(fl::fma(env(RNE), a, b, F32(0xbf80_0000)), F32(0xa880_0000));
    assert_eq!(
        fl::add(env(RNE), fl::mul(env(RNE), a, b), F32(0xbf80_0000)),
        F32(0)
    );
    // f16 fma has no host path: (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20, exact in f16? 2^-9(1 + 2^-11):
    // halfway between two f16 values: nearest-even gives 2^-9, up gives the next.
    let h = F16(0x3c01);
    assert_eq!(fl::fma(env(RNE), h, h, F16(0xbc00)), F16(0x1800));
    assert_eq!(fl::fma(env(UP), h, h, F16(0xbc00)), F16(0x1801));
}

#[test]
fn sqrt_bit_patterns() {
    // √2: f32 0x3fb504f3 is below it (and nearest); f64 0x3ff6a09e667f3bcd is above it.
    for (m, bits) in [
        (RNE, 0x3fb5_04f3),
        (UP, 0x3fb5_04f4),
        (DOWN, 0x3fb5_04f3),
        (RTZ, 0x3fb5_04f3),
    ] {
        assert_eq!(fl::sqrt(env(m), F32(0x4000_0000)), F32(bits), "{m:?}");
    }
    for (m, bits) in [
        (RNE, 0x3ff6_a09e_667f_3bcd),
        (UP, 0x3ff6_a09e_667f_3bcd),
        (RTZ, 0x3ff6_a09e_667f_3bcc),
    ] {
        assert_eq!(
            fl::sqrt(env(m), F64(0x4000_0000_0000_0000)),
            F64(bits),
            "{m:?}"
        );
    }
    assert_eq!(
        fl::sqrt(env(RTZ), F32(0x4080_0000)),
        F32(0x4000_0000),
        "√4 exact"
    );
    assert_eq!(
        fl::sqrt(env(RTZ), F32(0x8000_0000)),
        F32(0x8000_0000),
        "√-0 = -0"
    );
    assert_eq!(
        fl::sqrt(env(RTZ), F32(0xbf80_0000)),
        F32(0x7fc0_0000),
        "√-1 = default NaN"
    );
    assert_eq!(fl::sqrt(env(RTZ), F32(0x7f80_0000)), F32(0x7f80_0000));
    // The smallest denormal: √(2^-149) = 2^-74.5.
    assert_eq!(fl::sqrt(env(RTZ), F32(1)), F32(0x1a35_04f3));
}

#[test]
fn nan_rules() {
    let snan = F32(0x7f80_0001);
    let qnan_neg = F32(0xffc0_0123);
    let one = F32(0x3f80_0000);
    for m in MODES {
        assert_eq!(
            fl::add(env(m), snan, one),
            F32(0x7fc0_0001),
            "sNaN quieted, payload kept"
        );
        assert_eq!(
            fl::mul(env(m), one, qnan_neg),
            qnan_neg,
            "the NaN operand, sign kept"
        );
        assert_eq!(fl::add(env(m), qnan_neg, snan), qnan_neg, "first NaN wins");
        assert_eq!(fl::fma(env(m), one, one, snan), F32(0x7fc0_0001));
        assert_eq!(
            fl::sub(env(m), F32(0x7f80_0000), F32(0x7f80_0000)),
            F32(0x7fc0_0000),
            "∞-∞"
        );
        assert_eq!(
            fl::mul(env(m), F32(0), F32(0xff80_0000)),
            F32(0x7fc0_0000),
            "0×∞"
        );
        assert_eq!(fl::div(env(m), F32(0), F32(0)), F32(0x7fc0_0000), "0/0");
    }
    assert_eq!(
        fl::add(FpEnv::RNE, F64(0x7ff0_0000_0000_0001), F64(0)),
        F64(0x7ff8_0000_0000_0001)
    );
    assert_eq!(fl::sub(FpEnv::RNE, F16(0x7c00), F16(0x7c00)), F16(0x7e00));
    assert_eq!(
        fl::sub(FpEnv::RNE, BF16(0x7f80), BF16(0x7f80)),
        BF16(0x7fc0)
    );
}

#[test]
fn denormal_flushing() {
    let min_denorm = F32(1);
    let keep = env(RNE);
    let flush_in = FpEnv::new(
        RNE,
        DenormMode {
            keep_in: false,
            keep_out: true,
        },
    );
    let flush_out = FpEnv::new(
        RNE,
        DenormMode {
            keep_in: true,
            keep_out: false,
        },
    );
    assert_eq!(fl::add(keep, min_denorm, F32(0)), min_denorm);
    assert_eq!(fl::add(flush_in, min_denorm, F32(0)), F32(0));
    assert_eq!(
        fl::add(flush_in, F32(0x8000_0001), F32(0x8000_0000)),
        F32(0x8000_0000),
        "sign kept"
    );
    // 2^-126 × 0.5 is the denormal 2^-127.
    let half = F32(0x3f00_0000);
    assert_eq!(fl::mul(keep, F32(0x0080_0000), half), F32(0x0040_0000));
    assert_eq!(fl::mul(flush_out, F32(0x0080_0000), half), F32(0));
    assert_eq!(fl::mul(flush_out, F32(0x8080_0000), half), F32(0x8000_0000));
    // A denormal input with only output flushing is still used.
    assert_eq!(
        fl::mul(flush_out, F32(0x0040_0000), F32(0x4000_0000)),
        F32(0x0080_0000)
    );
    // f64 and f16 too.
    let f = FpEnv::new(RNE, DenormMode::FLUSH);
    assert_eq!(fl::add(f, F64(1), F64(0)), F64(0));
    assert_eq!(fl::add(f, F16(1), F16(0)), F16(0));
    assert_eq!(fl::add(env(RNE), F16(1), F16(0)), F16(1));
}

// ---- the fast path equals the software path ----

fn check_fast_path<T: SoftFloat>(name: &str, mut gen: impl FnMut() -> T) {
    let ops = [
        HostOp::Add,
        HostOp::Sub,
        HostOp::Mul,
        HostOp::Div,
        HostOp::Fma,
        HostOp::Sqrt,
    ];
    for _ in 0..40_000 {
        let (a, b, c) = (gen(), gen(), gen());
        for op in ops {
            let fast = match op {
                HostOp::Add => fl::add(FpEnv::RNE, a, b),
                HostOp::Sub => fl::sub(FpEnv::RNE, a, b),
                HostOp::Mul => fl::mul(FpEnv::RNE, a, b),
                HostOp::Div => fl::div(FpEnv::RNE, a, b),
                HostOp::Fma => fl::fma(FpEnv::RNE, a, b, c),
                HostOp::Sqrt => fl::sqrt(FpEnv::RNE, a),
            };
            let soft = fl::soft_op(op, FpEnv::RNE, a, b, c);
            assert_eq!(fast, soft, "{name} {op:?} {a:?} {b:?} {c:?}");
        }
    }
}

#[test]
fn fast_path_matches_software_f32() {
    let mut r = Rng(1);
    check_fast_path("f32", || F32(r.f32_bits()));
}

#[test]
fn fast_path_matches_software_f64() {
    let mut r = Rng(2);
    check_fast_path("f64", || F64(r.f64_bits()));
}

#[test]
fn fast_path_matches_software_f16_bf16() {
    let mut r = Rng(3);
    check_fast_path("f16", || F16(r.f16_bits()));
    let mut r = Rng(4);
    check_fast_path("bf16", || BF16((r.f32_bits() >> 16) as u16));
}

#[test]
fn software_path_matches_host_fpu_on_non_nan_results() {
    let mut r = Rng(5);
    for _ in 0..100_000 {
        let (a, b) = (f32::from_bits(r.f32_bits()), f32::from_bits(r.f32_bits()));
        let host = a * b;
        let soft = fl::soft_op(
            HostOp::Mul,
            FpEnv::RNE,
            F32::from_host(a),
            F32::from_host(b),
            F32(0),
        );
        if !host.is_nan() {
            assert_eq!(soft, F32::from_host(host), "{a:e} * {b:e}");
        } else {
            assert!(fl::is_quiet_nan(soft));
        }
        let host = (a as f64).sqrt();
        let soft = fl::soft_op(
            HostOp::Sqrt,
            FpEnv::RNE,
            F64::from_host(a as f64),
            F64(0),
            F64(0),
        );
        if !host.is_nan() {
            assert_eq!(soft, F64::from_host(host), "sqrt {a:e}");
        }
    }
}

// ---- directed rounding against exact f64 arithmetic ----

/// Rounds an f64 to f32 in a direction, independently of the library: the host's nearest
/// conversion, stepped one ulp when it went the wrong way.
fn round_f64_to_f32(x: f64, m: RoundingMode) -> f32 {
    let r = x as f32;
    if x.is_nan() || r as f64 == x {
        return r;
    }
    let too_big = (r as f64) > x;
    match m {
        RoundingMode::NearestEven => r,
        RoundingMode::Up if !too_big => r.next_up(),
        RoundingMode::Down if too_big => r.next_down(),
        RoundingMode::TowardZero if (r as f64).abs() > x.abs() => {
            if r > 0.0 {
                r.next_down()
            } else {
                r.next_up()
            }
        }
        _ => r,
    }
}

#[test]
fn directed_f32_mul_and_add_against_exact_f64() {
    let mut r = Rng(6);
    for _ in 0..100_000 {
        let (a, b) = (f32::from_bits(r.f32_bits()), f32::from_bits(r.f32_bits()));
        if !a.is_finite() || !b.is_finite() {
            continue;
        }
        // The product of two f32 is exact in f64.
        let exact = a as f64 * b as f64;
        for m in MODES {
            let got = fl::mul(env(m), F32::from_host(a), F32::from_host(b));
            let want = round_f64_to_f32(exact, m);
            assert_eq!(got, F32::from_host(want), "{a:e} * {b:e} {m:?}");
        }
        // The sum is exact in f64 when the exponents are close.
        let b2 = f32::from_bits(
            (b.to_bits() & 0x807f_ffff)
                | (a.to_bits() & 0x7f80_0000).saturating_sub((r.next() as u32 % 20) << 23),
        );
        if b2.is_finite() {
            let exact = a as f64 + b2 as f64;
            for m in MODES {
                let got = fl::add(env(m), F32::from_host(a), F32::from_host(b2));
                let want = round_f64_to_f32(exact, m);
                if exact == 0.0 {
                    // An exact zero sum is -0 when both addends are -0, or when rounding down
                    // and either is negative (x + -x); +0 otherwise.
                    let (sa, sb) = (a.is_sign_negative(), b2.is_sign_negative());
                    let z = if (sa && sb) || (m == DOWN && (sa || sb)) {
                        0x8000_0000
                    } else {
                        0
                    };
                    assert_eq!(got, F32(z), "{a:e} + {b2:e} {m:?}");
                } else {
                    assert_eq!(got, F32::from_host(want), "{a:e} + {b2:e} {m:?}");
                }
            }
        }
    }
}

#[test]
fn directed_f32_sqrt_brackets_the_root() {
    let mut r = Rng(7);
    for _ in 0..50_000 {
        let x = f32::from_bits(r.f32_bits() & 0x7fff_ffff);
        if !x.is_finite() || x == 0.0 {
            continue;
        }
        for m in MODES {
            let s = fl::sqrt(env(m), F32::from_host(x)).to_host();
            // Squares of f32 values are exact in f64.
            let (lo, hi) = (s as f64 * s as f64, s.next_up() as f64 * s.next_up() as f64);
            let below = s.next_down() as f64 * s.next_down() as f64;
            match m {
                RoundingMode::TowardZero | RoundingMode::Down => assert!(
                    lo <= x as f64 && (x as f64) < hi,
                    "sqrt {x:e} {m:?} = {s:e}"
                ),
                RoundingMode::Up => {
                    assert!(below < x as f64 && x as f64 <= lo, "sqrt {x:e} up = {s:e}")
                }
                RoundingMode::NearestEven => assert_eq!(s, (x as f64).sqrt() as f32, "sqrt {x:e}"),
            }
        }
    }
}

// ---- conversions against apfloat's (ours use round_pack) ----

fn ap_round(m: RoundingMode) -> Round {
    match m {
        RoundingMode::NearestEven => Round::NearestTiesToEven,
        RoundingMode::Up => Round::TowardPositive,
        RoundingMode::Down => Round::TowardNegative,
        RoundingMode::TowardZero => Round::TowardZero,
    }
}

fn ap_convert<A: rustc_apfloat::Float + FloatConvert<B>, B: rustc_apfloat::Float>(
    bits: u64,
    m: RoundingMode,
) -> u64 {
    let mut loses = false;
    A::from_bits(bits as u128)
        .convert_r(ap_round(m), &mut loses)
        .value
        .to_bits() as u64
}

#[test]
fn narrowing_conversions_match_apfloat() {
    let mut r = Rng(8);
    for _ in 0..50_000 {
        let d = r.f64_bits();
        // Keep exponents near f32/f16 range half the time so rounding is exercised there.
        let d = if r.next().is_multiple_of(2) {
            (d & 0x800f_ffff_ffff_ffff) | ((0x3f0 + r.next() % 0x60) << 52)
        } else {
            d
        };
        let s = r.f32_bits() as u64;
        for m in MODES {
            let rr = Rounding::Ieee(m);
            if !fl::is_nan(F64(d)) {
                assert_eq!(
                    convert_bits(&Format::F64, &Format::F32, d, rr, Overflow::Ieee, true).0,
                    ap_convert::<ieee::Double, ieee::Single>(d, m),
                    "f64→f32 {d:#x} {m:?}"
                );
                assert_eq!(
                    convert_bits(&Format::F64, &Format::F16, d, rr, Overflow::Ieee, true).0,
                    ap_convert::<ieee::Double, ieee::Half>(d, m),
                    "f64→f16 {d:#x} {m:?}"
                );
            }
            if !fl::is_nan(F32(s as u32)) {
                assert_eq!(
                    convert_bits(&Format::F32, &Format::F16, s, rr, Overflow::Ieee, true).0,
                    ap_convert::<ieee::Single, ieee::Half>(s, m),
                    "f32→f16 {s:#x} {m:?}"
                );
                assert_eq!(
                    convert_bits(&Format::F32, &Format::BF16, s, rr, Overflow::Ieee, true).0,
                    ap_convert::<ieee::Single, ieee::BFloat>(s, m),
                    "f32→bf16 {s:#x} {m:?}"
                );
                assert_eq!(
                    convert_bits(&Format::F32, &Format::BF8, s, rr, Overflow::Ieee, true).0,
                    ap_convert::<ieee::Single, ieee::Float8E5M2>(s, m),
                    "f32→bf8 {s:#x} {m:?}"
                );
            }
        }
        // Nearest-even f64 → f32 is also the host's `as`.
        if !fl::is_nan(F64(d)) {
            assert_eq!(
                fl::cast::<F64, F32>(FpEnv::RNE, F64(d)),
                F32::from_host(f64::from_bits(d) as f32)
            );
        }
    }
}

#[test]
fn fp8_e4m3_matches_apfloat_for_every_f16() {
    // OCP E4M3 ("FN") is apfloat's Float8E4M3FN. Non-saturating conversion of values beyond
    // the largest finite gives NaN in both.
    for h in 0..=u16::MAX {
        if fl::is_nan(F16(h)) {
            continue;
        }
        for m in MODES {
            // apfloat applies the directed rounding of a negative overflow as if the value were
            // positive (toward -∞ gives -448, toward +∞ gives NaN, the reverse of IEEE's rule,
            // which ours follows): skip those cases.
            let beyond_max = fl::to_f64(F16(h)).abs() > 448.0;
            if beyond_max && matches!(m, UP | DOWN) && fl::sign_bit(F16(h)) {
                continue;
            }
            let ours = fl::to_small(&Format::FP8, F16(h), Rounding::Ieee(m), false);
            let theirs = ap_convert::<ieee::Half, ieee::Float8E4M3FN>(h as u64, m);
            // apfloat keeps the sign of NaN; so do we.
            assert_eq!(ours, theirs, "f16 {h:#06x} {m:?}");
        }
    }
}

#[test]
fn small_format_values_by_hand() {
    let f = |fmt: &Format, bits: u64| fl::to_f64(fl::small_to::<F32>(fmt, bits));
    assert_eq!(f(&Format::FP8, 0x38), 1.0);
    assert_eq!(f(&Format::FP8, 0x7e), 448.0);
    assert_eq!(f(&Format::FP8, 0x01), 2f64.powi(-9));
    assert!(f(&Format::FP8, 0x7f).is_nan());
    assert_eq!(f(&Format::BF8, 0x3c), 1.0);
    assert_eq!(f(&Format::BF8, 0x7b), 57344.0);
    assert_eq!(f(&Format::BF8, 0x7c), f64::INFINITY);
    assert_eq!(f(&Format::FP8_FNUZ, 0x40), 1.0);
    assert_eq!(f(&Format::FP8_FNUZ, 0x7f), 240.0);
    assert!(f(&Format::FP8_FNUZ, 0x80).is_nan());
    assert_eq!(f(&Format::BF8_FNUZ, 0x40), 1.0);
    assert_eq!(f(&Format::FP6, 0x1f), 7.5);
    assert_eq!(f(&Format::FP6, 0x08), 1.0);
    assert_eq!(f(&Format::BF6, 0x1f), 28.0);
    assert_eq!(f(&Format::FP4, 0x7), 6.0);
    assert_eq!(f(&Format::FP4, 0x1), 0.5);
    assert_eq!(f(&Format::FP4, 0xf), -6.0);

    let to = |fmt: &Format, v: f32, sat: bool| {
        fl::to_small(fmt, F32::from_host(v), Rounding::Ieee(RNE), sat)
    };
    // 464 is halfway between 448 (mantissa 110, even) and 480 (the NaN pattern's place).
    assert_eq!(to(&Format::FP8, 464.0, false), 0x7e);
    assert_eq!(
        to(&Format::FP8, 470.0, false),
        0x7f,
        "rounds past the largest: NaN"
    );
    assert_eq!(to(&Format::FP8, 470.0, true), 0x7e, "saturated");
    assert_eq!(to(&Format::FP8, -1.0e9, true), 0xfe);
    assert_eq!(to(&Format::BF8, 1.0e9, false), 0x7c, "∞");
    assert_eq!(to(&Format::BF8, 1.0e9, true), 0x7b);
    assert_eq!(to(&Format::FP8_FNUZ, -0.0, false), 0x00, "FNUZ has no -0");
    assert_eq!(
        to(&Format::FP8_FNUZ, 1.0e9, false),
        0x80,
        "FNUZ overflow is its NaN"
    );
    assert_eq!(to(&Format::FP4, 100.0, false), 0x7, "fp4 saturates");
    assert_eq!(to(&Format::FP4, 2.5, false), 0x4, "2.5 ties to 2 (even)");
    assert_eq!(to(&Format::FP4, 0.25, false), 0x0, "0.25 ties to 0 (even)");
    assert_eq!(to(&Format::FP6, f32::NAN, false), 0x0);
}

#[test]
fn every_fp8_value_round_trips() {
    for fmt in [Format::FP8, Format::BF8, Format::FP8_FNUZ, Format::BF8_FNUZ] {
        for b in 0..=255u64 {
            let v: F32 = fl::small_to(&fmt, b);
            if fl::is_nan(v) {
                continue;
            }
            let back = fl::to_small(&fmt, v, Rounding::Ieee(RNE), false);
            assert_eq!(back, b, "{} {b:#04x}", fmt.name);
        }
    }
}

#[test]
fn stochastic_rounding() {
    // 1 + 2^-12 in f16: the discarded fraction is 1/2 ulp... of 2^-10: exactly 0.25 ulp.
    let x = F32(0x3f80_0800); // 1 + 2^-12
    let sr = |r: u32| {
        convert_bits(
            &Format::F32,
            &Format::F16,
            x.0 as u64,
            Rounding::Stochastic(r),
            Overflow::Ieee,
            true,
        )
        .0
    };
    assert_eq!(sr(0), 0x3c00);
    assert_eq!(sr(0xbfff_ffff), 0x3c00, "0.25 + 0.75 - ε < 1");
    assert_eq!(sr(0xc000_0000), 0x3c01, "0.25 + 0.75 = 1: rounds up");
}

#[test]
fn integer_conversions_match_rust_casts() {
    // Rust's float→int `as` truncates, saturates and maps NaN to 0: AMD's V_CVT_I32_F32 rule.
    let mut r = Rng(9);
    for _ in 0..100_000 {
        let x = f32::from_bits(r.f32_bits());
        assert_eq!(
            fl::to_int(FpEnv::RNE, F32::from_host(x), 32, RTZ),
            x as i32 as i64,
            "{x:e}"
        );
        assert_eq!(
            fl::to_uint(FpEnv::RNE, F32::from_host(x), 32, RTZ),
            x as u32 as u64,
            "{x:e}"
        );
        let d = f64::from_bits(r.f64_bits());
        assert_eq!(
            fl::to_int(FpEnv::RNE, F64::from_host(d), 32, RTZ),
            d as i32 as i64,
            "{d:e}"
        );
        // int→float nearest-even is Rust's `as` too.
        let i = r.next() as i64;
        assert_eq!(fl::from_i64::<F32>(FpEnv::RNE, i), F32::from_host(i as f32));
        assert_eq!(fl::from_i64::<F64>(FpEnv::RNE, i), F64::from_host(i as f64));
        assert_eq!(
            fl::from_u64::<F32>(FpEnv::RNE, i as u64),
            F32::from_host(i as u64 as f32)
        );
    }
    // Directed: 2^24 + 1 is not an f32.
    assert_eq!(
        fl::from_u64::<F32>(env(UP), (1 << 24) + 1),
        F32(0x4b80_0001)
    );
    assert_eq!(
        fl::from_u64::<F32>(env(RTZ), (1 << 24) + 1),
        F32(0x4b80_0000)
    );
    assert_eq!(
        fl::from_i64::<F32>(env(DOWN), -(1 << 24) - 1),
        F32(0xcb80_0001)
    );
}

#[test]
fn round_pack_denormals_and_carry() {
    // 0.5 × 2^-149 ties to the even 0; just above rounds to the smallest denormal.
    let rne = Rounding::Ieee(RNE);
    assert_eq!(
        round_pack(&Format::F32, false, 1, -150, false, rne, Overflow::Ieee).0,
        0
    );
    assert_eq!(
        round_pack(&Format::F32, false, 1, -150, true, rne, Overflow::Ieee).0,
        1
    );
    assert_eq!(
        round_pack(&Format::F32, false, 3, -150, false, rne, Overflow::Ieee).0,
        2,
        "1.5 ulp ties to 2"
    );
    // All-ones mantissa rounding up carries into the exponent.
    assert_eq!(
        round_pack(&Format::F16, false, 0xfff, -11, false, rne, Overflow::Ieee).0,
        0x4000
    );
    // Largest denormal rounding up becomes the smallest normal.
    assert_eq!(
        round_pack(&Format::F16, false, 0x7ff, -25, false, rne, Overflow::Ieee).0,
        0x0400
    );
}

#[test]
fn rounding_to_integral_and_frexp() {
    let x = F32::from_host(-2.5);
    assert_eq!(fl::rint(FpEnv::RNE, x), F32::from_host(-2.0));
    assert_eq!(fl::floor(FpEnv::RNE, x), F32::from_host(-3.0));
    assert_eq!(fl::ceil(FpEnv::RNE, x), F32::from_host(-2.0));
    assert_eq!(
        fl::trunc(FpEnv::RNE, F32::from_host(-0.5)),
        F32(0x8000_0000)
    );
    assert_eq!(fl::frexp(F32::from_host(12.0)), (F32::from_host(0.75), 4));
    assert_eq!(
        fl::frexp(F32(1)),
        (F32::from_host(0.5), -148),
        "denormals are normalised"
    );
    assert_eq!(
        fl::ldexp(FpEnv::RNE, F32::from_host(1.5), 3),
        F32::from_host(12.0)
    );
    assert_eq!(
        fl::ldexp(FpEnv::RNE, F32::from_host(1.0), 200),
        F32(0x7f80_0000)
    );
    assert_eq!(
        fl::ldexp(env(RTZ), F32::from_host(1.0), 200),
        F32(0x7f7f_ffff)
    );
    assert_eq!(fl::ldexp(FpEnv::RNE, F32::from_host(1.0), -149), F32(1));
    assert_eq!(fl::ldexp(FpEnv::RNE, F32::from_host(1.0), i32::MIN), F32(0));
}

#[test]
fn comparisons() {
    let (pz, nz, nan, one) = (F32(0), F32(0x8000_0000), F32(0x7fc0_0000), F32(0x3f80_0000));
    assert!(
        fl::eq(pz, nz) && !fl::lt(nz, pz) && fl::lt_neg_zero(nz, pz) && fl::gt_neg_zero(pz, nz)
    );
    assert!(!fl::eq(nan, nan) && fl::ne(nan, nan) && !fl::lg(nan, one) && fl::unordered(nan, one));
    assert!(fl::lt(fl::neg(one), pz) && fl::ge(one, one) && fl::lg(one, pz));
    let flush = FpEnv::new(RNE, DenormMode::FLUSH);
    assert_eq!(
        fl::compare_env(flush, F32(1), F32(0)),
        Some(std::cmp::Ordering::Equal)
    );
    assert_eq!(
        fl::compare(F32(1), F32(0)),
        Some(std::cmp::Ordering::Greater)
    );
}

#[test]
fn casts_keep_signaling_nans() {
    // The pseudocode's 64'F(S0.f32) must keep a signaling NaN signaling.
    let s = F32(0x7f80_0001);
    let d: F64 = fl::cast(FpEnv::RNE, s);
    assert!(fl::is_signal_nan(d), "{d:?}");
    let back: F32 = fl::cast(FpEnv::RNE, d);
    assert_eq!(back, s);
    // Narrowing a signaling NaN whose payload is all below f16's mantissa stays a NaN.
    let h: F16 = fl::cast(FpEnv::RNE, s);
    assert!(fl::is_signal_nan(h), "{h:?}");
    // Instruction conversions quiet.
    let q: F64 = fl::convert(FpEnv::RNE, FpEnv::RNE, s);
    assert!(fl::is_quiet_nan(q));
    // f16 → f32 exact widening for every f16.
    for b in 0..=u16::MAX {
        let wide = F16(b).to_f32_exact();
        if !fl::is_nan(F16(b)) {
            assert_eq!(fl::to_f64(wide), fl::to_f64(F16(b)));
            assert_eq!(F16::from_f32_rne(wide), F16(b));
        }
    }
}
