//! The hand-written overrides (`semantics::handwritten`) against values computed independently:
//! LLVM's f32 and f64 division sequences built from `v_div_scale`, `v_div_fmas` and
//! `v_div_fixup` must give the host's correctly rounded quotient; `fma × 2^k` with one
//! rounding must match exact host arithmetic; `v_trig_preop_f64` must give the segments of
//! 2/π computed here with integer arithmetic (Machin's formula).

use isa_runtime::exec::float::{self as fl, FpEnv, F32, F64};
use isa_runtime::exec::Wave;
use isa_runtime::semantics::handwritten::{pure, two_over_pi_bits, TWO_OVER_PI_BITS};

fn wave() -> Wave {
    Wave::new(false, 8, 0)
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn f32_div(w: &Wave, num: f32, den: f32) -> f32 {
    let (n, d) = (F32::from_host(num), F32::from_host(den));
    let env = FpEnv::RNE;
    let (den_s, _) = pure::div_scale_f32(w, d, d, n);
    let (num_s, vcc) = pure::div_scale_f32(w, n, d, n);
    // v_rcp_f32 approximates; the correctly rounded reciprocal stands in for it.
    let r = fl::div(env, F32::from_host(1.0), den_s);
    let neg = fl::neg(den_s);
    let one = F32::from_host(1.0);
    let e0 = fl::fma(env, neg, r, one);
    let r1 = fl::fma(env, e0, r, r);
    let q0 = fl::mul(env, num_s, r1);
    let e1 = fl::fma(env, neg, q0, num_s);
    let q1 = fl::fma(env, e1, r1, q0);
    let e2 = fl::fma(env, neg, q1, num_s);
    let q = pure::div_fmas_f32(w, e2, r1, q1, vcc);
    pure::div_fixup_f32(w, q, d, n).to_host()
}

fn f64_div(w: &Wave, num: f64, den: f64) -> f64 {
    let (n, d) = (F64::from_host(num), F64::from_host(den));
    let env = FpEnv::RNE;
    let one = F64::from_host(1.0);
    let (den_s, _) = pure::div_scale_f64(w, d, d, n);
    let neg = fl::neg(den_s);
    let r = fl::div(env, one, den_s);
    let f0 = fl::fma(env, neg, r, one);
    let f1 = fl::fma(env, r, f0, r);
    let f2 = fl::fma(env, neg, f1, one);
    let f3 = fl::fma(env, f1, f2, f1);
    let (num_s, vcc) = pure::div_scale_f64(w, n, d, n);
    let mul = fl::mul(env, num_s, f3);
    let f4 = fl::fma(env, neg, mul, num_s);
    let q = pure::div_fmas_f64(w, f4, f3, mul, vcc);
    pure::div_fixup_f64(w, q, d, n).to_host()
}

fn same(a: f64, b: f64) -> bool {
    (a.is_nan() && b.is_nan()) || a.to_bits() == b.to_bits()
}

/// Random f32 with exponents across the whole range, denormals included.
fn rand_f32(rng: &mut Rng) -> f32 {
    let bits = rng.next() as u32;
    let e = (rng.next() % 256) as u32;
    let v = f32::from_bits((bits & 0x807f_ffff) | (e.min(254) << 23));
    if v == 0.0 {
        1.5
    } else {
        v
    }
}

fn rand_f64(rng: &mut Rng) -> f64 {
    let bits = rng.next();
    let e = rng.next() % 2047;
    let v = f64::from_bits((bits & 0x800f_ffff_ffff_ffff) | (e << 52));
    if v == 0.0 {
        1.5
    } else {
        v
    }
}

#[test]
fn llvm_f32_division_sequence_is_correctly_rounded() {
    let w = wave();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    let mut pairs: Vec<(f32, f32)> = vec![
        (1.0, 3.0),
        (2.0, 3.0),
        (1e38, 1e-38),            // the quotient overflows
        (3.0e38, 0.5),            // close to overflow
        (1e-38, 1e38),            // the quotient underflows to denormal or zero
        (f32::from_bits(1), 3.0), // a denormal numerator
        (1.0, f32::from_bits(3)), // a denormal denominator
        (3.0e38, 3.0e38),
        (1.0e-30, 3.0e30),
        (f32::MAX, f32::MAX / 4.0),
        (-7.0, 0.1),
    ];
    pairs.extend((0..20000).map(|_| (rand_f32(&mut rng), rand_f32(&mut rng))));
    for (n, d) in pairs {
        let got = f32_div(&w, n, d);
        let want = n / d;
        assert!(
            same(got as f64, want as f64),
            "{n:e} / {d:e}: got {got:e} ({:#x}), want {want:e} ({:#x})",
            got.to_bits(),
            want.to_bits()
        );
        checked += 1;
    }
    assert!(checked > 20000);
}

#[test]
fn llvm_f64_division_sequence_is_correctly_rounded() {
    let w = wave();
    let mut rng = Rng(12345);
    let mut pairs: Vec<(f64, f64)> = vec![
        (1.0, 3.0),
        (1e300, 1e-300),
        (1e-300, 1e300),
        (f64::from_bits(1), 3.0),
        (1.0, f64::from_bits(5)),
        (f64::MAX, 0.75),
    ];
    pairs.extend((0..20000).map(|_| (rand_f64(&mut rng), rand_f64(&mut rng))));
    for (n, d) in pairs {
        let got = f64_div(&w, n, d);
        let want = n / d;
        assert!(same(got, want), "{n:e} / {d:e}: got {got:e}, want {want:e}");
    }
}

#[test]
fn div_fixup_gives_the_ieee_special_cases() {
    let w = wave();
    let q = F32::from_host(123.0);
    let cases: [(f32, f32, f32); 10] = [
        // (num, den, expected)
        (0.0, 0.0, f32::NAN),
        (f32::INFINITY, f32::NEG_INFINITY, f32::NAN),
        (1.0, 0.0, f32::INFINITY),
        (-1.0, 0.0, f32::NEG_INFINITY),
        (f32::INFINITY, 2.0, f32::INFINITY),
        (2.0, f32::NEG_INFINITY, -0.0),
        (0.0, -5.0, -0.0),
        (-6.0, 2.0, -123.0),
        (6.0, 2.0, 123.0),
        (-6.0, -2.0, 123.0),
    ];
    for (n, d, want) in cases {
        let got = pure::div_fixup_f32(&w, q, F32::from_host(d), F32::from_host(n)).to_host();
        assert!(same(got as f64, want as f64), "fixup {n} / {d}: {got}");
    }
    // A NaN operand comes back quieted, the numerator's first.
    let snan = F32(0x7f80_0001);
    let got = pure::div_fixup_f32(&w, q, F32::from_host(1.0), snan);
    assert_eq!(got.0, 0x7fc0_0001);
    let got = pure::div_fixup_f64(
        &w,
        F64::from_host(2.0),
        F64(0xfff0_0000_0000_0001),
        F64::from_host(1.0),
    );
    assert_eq!(got.0, 0xfff8_0000_0000_0001);
}

#[test]
fn fma_scaled_rounds_once() {
    let mut rng = Rng(777);
    for _ in 0..20000 {
        // Inputs whose exact a·b + c fits an f64 (24-bit significands, exponents close).
        let a = f32::from_bits(
            (rng.next() as u32 & 0x807f_ffff) | (100 + rng.next() as u32 % 50) << 23,
        );
        let b = f32::from_bits(
            (rng.next() as u32 & 0x807f_ffff) | (100 + rng.next() as u32 % 50) << 23,
        );
        let c =
            f32::from_bits((rng.next() as u32 & 0x807f_ffff) | (90 + rng.next() as u32 % 40) << 23);
        let exact = a as f64 * b as f64 + c as f64; // at most 2·24 + ~5 bits: exact in f64
        for k in [0i32, 64, -64, -140, 100] {
            let want = (exact * 2f64.powi(k)) as f32;
            let got =
                pure::fma_scaled_f32(F32::from_host(a), F32::from_host(b), F32::from_host(c), k)
                    .to_host();
            assert!(
                same(got as f64, want as f64),
                "fma({a:e}, {b:e}, {c:e}) × 2^{k}: {got:e} vs {want:e}"
            );
        }
    }
}

/// 2/π to `bits` fractional bits, by Machin's formula in fixed point, with a small
/// big-integer type (independent of the table under test).
fn two_over_pi_reference(bits: usize) -> Vec<u8> {
    // Little-endian base-2^32 big integers.
    #[derive(Clone)]
    struct Big(Vec<u64>);
    impl Big {
        fn pow2(p: usize) -> Big {
            let mut v = vec![0u64; p / 32 + 1];
            v[p / 32] = 1 << (p % 32);
            Big(v)
        }
        fn is_zero(&self) -> bool {
            self.0.iter().all(|&d| d == 0)
        }
        fn div_small(&self, d: u64) -> Big {
            let mut out = vec![0u64; self.0.len()];
            let mut rem = 0u64;
            for i in (0..self.0.len()).rev() {
                let cur = (rem << 32) | self.0[i];
                out[i] = cur / d;
                rem = cur % d;
            }
            Big(out)
        }
        fn add(&self, o: &Big) -> Big {
            let n = self.0.len().max(o.0.len()) + 1;
            let mut out = vec![0u64; n];
            let mut carry = 0u64;
            for (i, slot) in out.iter_mut().enumerate() {
                let s =
                    self.0.get(i).copied().unwrap_or(0) + o.0.get(i).copied().unwrap_or(0) + carry;
                *slot = s & 0xffff_ffff;
                carry = s >> 32;
            }
            Big(out)
        }
        fn sub(&self, o: &Big) -> Big {
            let mut out = self.0.clone();
            let mut borrow = 0i64;
            for (i, slot) in out.iter_mut().enumerate() {
                let s = *slot as i64 - o.0.get(i).copied().unwrap_or(0) as i64 - borrow;
                borrow = (s < 0) as i64;
                *slot = (s + (borrow << 32)) as u64;
            }
            Big(out)
        }
        fn mul_small(&self, m: u64) -> Big {
            let mut out = vec![0u64; self.0.len() + 2];
            let mut carry = 0u64;
            for (i, slot) in out.iter_mut().enumerate() {
                let s = self.0.get(i).copied().unwrap_or(0) * m + carry;
                *slot = s & 0xffff_ffff;
                carry = s >> 32;
            }
            Big(out)
        }
        fn cmp(&self, o: &Big) -> std::cmp::Ordering {
            let n = self.0.len().max(o.0.len());
            for i in (0..n).rev() {
                let (a, b) = (
                    self.0.get(i).copied().unwrap_or(0),
                    o.0.get(i).copied().unwrap_or(0),
                );
                if a != b {
                    return a.cmp(&b);
                }
            }
            std::cmp::Ordering::Equal
        }
        fn bit(&self, i: usize) -> u8 {
            (self.0.get(i / 32).copied().unwrap_or(0) >> (i % 32) & 1) as u8
        }
    }
    // arctan(1/x) × 2^P by the series, P = bits + 64 guard bits.
    let p = bits + 64;
    let arctan_inv = |x: u64| {
        let mut total = Big(vec![0]);
        let mut neg = Big(vec![0]);
        let mut term = Big::pow2(p).div_small(x);
        let mut n = 1u64;
        let mut plus = true;
        while !term.is_zero() {
            let t = term.div_small(n);
            if plus {
                total = total.add(&t);
            } else {
                neg = neg.add(&t);
            }
            term = term.div_small(x * x);
            n += 2;
            plus = !plus;
        }
        total.sub(&neg)
    };
    // π/4 = 4 arctan(1/5) - arctan(1/239); π × 2^P = 16 a5 - 4 a239.
    let pi = arctan_inv(5)
        .mul_small(16)
        .sub(&arctan_inv(239).mul_small(4));
    // 2/π × 2^bits: long division of 2^(P + bits + 1) by π × 2^P, bit by bit.
    let mut rem = Big::pow2(p + 1); // 2 × 2^P
    let mut out = Vec::with_capacity(bits);
    for _ in 0..bits {
        rem = rem.mul_small(2);
        if rem.cmp(&pi) != std::cmp::Ordering::Less {
            rem = rem.sub(&pi);
            out.push(1);
        } else {
            out.push(0);
        }
    }
    // `out[0]` is the first bit after the binary point (2/π < 1).
    let _ = Big::bit;
    out
}

#[test]
fn two_over_pi_table_matches_an_independent_computation() {
    let reference = two_over_pi_reference(1201);
    for (i, r) in reference.iter().enumerate() {
        let t = (TWO_OVER_PI_BITS[i / 64] >> (63 - i % 64)) & 1;
        assert_eq!(t as u8, *r, "bit {i} after the binary point");
    }
    // The table ends with 15 zero bits after b_0.
    assert_eq!(TWO_OVER_PI_BITS[18] & 0x7fff, 0);
    // Segments are 53-bit windows of the same bits.
    for shift in [0u32, 53, 106, 500, 1100, 1148] {
        let mut v = 0u64;
        for k in 0..53 {
            v = v << 1 | reference[(shift + k) as usize] as u64;
        }
        assert_eq!(two_over_pi_bits(shift), v, "segment at {shift}");
    }
}

#[test]
fn trig_preop_segments_scale_and_sum_to_two_over_pi() {
    let w = wave();
    let x = F64::from_host(1.0);
    let s0 = isa_runtime::semantics::handwritten::trig_preop(&w, x, 0).to_host();
    let s1 = isa_runtime::semantics::handwritten::trig_preop(&w, x, 1).to_host();
    let s2 = isa_runtime::semantics::handwritten::trig_preop(&w, x, 2).to_host();
    // The first segment is 2/π truncated to 53 bits.
    assert_eq!(s0.to_bits(), 0x3fe4_5f30_6dc9_c882);
    assert!(s1 > 0.0 && s1 < 2f64.powi(-52) && s2 < 2f64.powi(-105));
    assert!((s0 + s1 - std::f64::consts::FRAC_2_PI).abs() < 1e-16);
    // Each segment is exactly its 53 bits times 2^(-53 - shift).
    let seg = |k: u32| two_over_pi_bits(53 * k) as f64 * 2f64.powi(-53 * (k as i32 + 1));
    assert_eq!(s1, seg(1));
    assert_eq!(s2, seg(2));
    // Large x: the segment moves down by the exponent beyond 2^54, and x ≥ 2^945 scales by
    // 2^128.
    let big = F64::from_host(2f64.powi(60));
    let e = 1023 + 60;
    let shift = (e - 1077) as u32;
    let want = two_over_pi_bits(shift) as f64 * 2f64.powi(-53 - shift as i32);
    assert_eq!(
        isa_runtime::semantics::handwritten::trig_preop(&w, big, 0).to_host(),
        want
    );
    let huge = F64::from_host(2f64.powi(1000));
    let shift = (1023 + 1000 - 1077) as u32;
    let want = two_over_pi_bits(shift) as f64 * 2f64.powi(-53 - shift as i32 + 128);
    assert_eq!(
        isa_runtime::semantics::handwritten::trig_preop(&w, huge, 0).to_host(),
        want
    );
    // The segment number uses S1[4:0] only.
    assert_eq!(
        isa_runtime::semantics::handwritten::trig_preop(&w, x, 33).to_host(),
        s1
    );
}

/// The executors (not only the pure functions) read three float sources with VOP3
/// modifiers and write D0 for active lanes: run them with the operand binding of a VOP3
/// three-source form of a fixture (`v_msad_u8 v5, v0, v1, v2`).
#[cfg(feature = "fixtures")]
#[test]
fn division_executors_run_per_lane() {
    use isa_runtime::exec::Decoded;
    use isa_runtime::semantics::handwritten;
    let spec = isa_runtime::fixtures::specs()
        .into_iter()
        .find(|s| s.generation == "rdna3")
        .unwrap();
    let bindings: &'static isa_runtime::semantics::FormBindings =
        &isa_runtime::fixtures::rdna3::executors::BINDINGS;
    let d =
        Decoded::new(isa_runtime::assemble_instruction(spec, "v_msad_u8 v5, v0, v1, v2").unwrap());
    let mut w = Wave::new(false, 8, 0);
    let nums = [6.0f32, 1.0, 0.0, -1.0];
    let dens = [2.0f32, 0.0, 0.0, 4.0];
    for l in 0..4 {
        w.write_vgpr(0, l, 99.0f32.to_bits()).unwrap(); // the quotient
        w.write_vgpr(1, l, dens[l].to_bits()).unwrap();
        w.write_vgpr(2, l, nums[l].to_bits()).unwrap();
        w.write_vgpr(5, l, 0x1234).unwrap();
    }
    w.exec = 0b0111;
    handwritten::v_div_fixup_f32(&mut w, &d, bindings).unwrap();
    let out: Vec<f32> = (0..4)
        .map(|l| f32::from_bits(w.read_vgpr(5, l).unwrap()))
        .collect();
    assert_eq!(out[0], 99.0);
    assert_eq!(out[1], f32::INFINITY);
    assert!(out[2].is_nan());
    assert_eq!(
        w.read_vgpr(5, 3).unwrap(),
        0x1234,
        "inactive lane untouched"
    );
    // div_scale writes VCC for the active lanes (this form has no second destination).
    w.vcc = u64::MAX;
    for l in 0..4 {
        w.write_vgpr(0, l, 1e38f32.to_bits()).unwrap();
        w.write_vgpr(1, l, 1e-38f32.to_bits()).unwrap();
        w.write_vgpr(2, l, 1e38f32.to_bits()).unwrap();
    }
    handwritten::v_div_scale_f32(&mut w, &d, bindings).unwrap();
    assert_eq!(
        w.vcc & 0xffff_ffff,
        0b0111,
        "huge quotient: VCC set in the active lanes only"
    );
    assert_eq!(w.vcc >> 32, 0xffff_ffff, "VCC_HI untouched in wave32");
}
