//! The seed examples of issue 5 on the generated executors: `ds_bpermute_b32`, `v_msad_u8`,
//! `s_wqm_b64`, on every spec that has them (the fixtures always; AMD's specs when present),
//! checked against values computed here, independently of the generated code.
//! Run with `cargo test -p isa-runtime --features fixtures --test exec_gen_seed`.
#![cfg(feature = "fixtures")]
#![allow(clippy::needless_range_loop)]

mod exec_gen_support;

use exec_gen_support::*;
use isa_runtime::exec::{FlatMemory, Lds};

/// Lanes 0..3 hold A, B, C, D and byte addresses {0, 0, 12, 4}: lane i reads lane addr/4.
#[test]
fn ds_bpermute_b32_reads_the_addressed_lanes() {
    let (a, b, c, d) = (0xAAAA_0001, 0xBBBB_0002, 0xCCCC_0003, 0xDDDD_0004);
    let mut ran = 0;
    for (spec, table, origin) in specs() {
        if !runs(spec, "ds_bpermute_b32") {
            println!("skipped: {}", why_not(spec, "ds_bpermute_b32"));
            continue;
        }
        let text = "ds_bpermute_b32 v3, v1, v2";
        // All lanes active (lanes past 3 read themselves).
        let mut w = wave(spec);
        let n = lanes(&w);
        let mut addr: Vec<u32> = (0..n as u32).map(|l| 4 * l).collect();
        addr[..4].copy_from_slice(&[0, 0, 12, 4]);
        let mut data: Vec<u32> = (0..n as u32).map(|l| 0x100 + l).collect();
        data[..4].copy_from_slice(&[a, b, c, d]);
        set_v(&mut w, 1, &addr);
        set_v(&mut w, 2, &data);
        set_v(&mut w, 3, &vec![0x5555_5555; n]);
        run_ok(spec, &table, text, &mut w);
        let out = get_v(&w, 3);
        assert_eq!(out[..4], [a, a, d, b], "{origin} {}", spec.generation);
        assert_eq!(out[4..], data[4..], "{origin} {}", spec.generation);

        // EXEC = 0b1010: lanes 0 and 2 keep their old values; lane 1 reads inactive lane 0
        // and gets 0; lane 3 reads lane 1 (B).
        let mut w = wave(spec);
        set_v(&mut w, 1, &addr);
        set_v(&mut w, 2, &data);
        set_v(&mut w, 3, &[0x0101, 0x0202, 0x0303, 0x0404]);
        w.exec = 0b1010;
        run_ok(spec, &table, text, &mut w);
        let out = get_v(&w, 3);
        assert_eq!(
            out[..4],
            [0x0101, 0, 0x0303, b],
            "{origin} {}",
            spec.generation
        );
        ran += 1;
    }
    assert!(
        ran >= 3,
        "ds_bpermute_b32 ran on {ran} specs (the three fixtures at least)"
    );
}

/// The masked SAD: bytes where the second operand is 0 are skipped.
fn msad_reference(a: u32, b: u32, c: u32) -> u32 {
    let mut sum = c as u64;
    for i in 0..4 {
        let x = (a >> (8 * i)) & 0xff;
        let y = (b >> (8 * i)) & 0xff;
        if y != 0 {
            sum += (x as i64 - y as i64).unsigned_abs();
        }
    }
    sum as u32
}

#[test]
fn v_msad_u8_sums_masked_byte_differences() {
    let mut ran = 0;
    for (spec, table, origin) in specs() {
        if !runs(spec, "v_msad_u8") {
            println!("skipped: {}", why_not(spec, "v_msad_u8"));
            continue;
        }
        let mut w = wave(spec);
        let n = lanes(&w);
        let mut rng = Rng(0x1234_5678 ^ n as u64);
        let mut a: Vec<u32> = (0..n).map(|_| rng.u32()).collect();
        let mut b: Vec<u32> = (0..n).map(|_| rng.u32()).collect();
        let mut c: Vec<u32> = (0..n).map(|_| rng.u32() >> 8).collect();
        // Hand-picked lanes: zero bytes in the second operand, an accumulator that carries
        // into the upper bits, all-equal bytes.
        a[0] = 0x10_20_30_40;
        b[0] = 0x00_25_00_35; // |0x20-0x25| + |0x40-0x35| = 5 + 11; bytes 1 and 3 skipped
        c[0] = 100;
        a[1] = 0xff_ff_ff_ff;
        b[1] = 0x01_01_01_01; // 4 × 254 = 1016
        c[1] = 0xffff_ff00; // overflows into bit 32: wraps (AMD: "overflow allowed")
        a[2] = 0x12_34_56_78;
        b[2] = 0x12_34_56_78;
        c[2] = 7;
        b[3] = 0;
        c[3] = 42;
        set_v(&mut w, 0, &a);
        set_v(&mut w, 1, &b);
        set_v(&mut w, 2, &c);
        run_ok(spec, &table, "v_msad_u8 v5, v0, v1, v2", &mut w);
        let out = get_v(&w, 5);
        assert_eq!(out[0], 116, "{origin} {}", spec.generation);
        assert_eq!(
            out[1],
            0xffff_ff00u32.wrapping_add(1016),
            "{origin} {}",
            spec.generation
        );
        assert_eq!(out[2], 7);
        assert_eq!(out[3], 42);
        for l in 0..n {
            assert_eq!(
                out[l],
                msad_reference(a[l], b[l], c[l]),
                "{origin} {} lane {l}",
                spec.generation
            );
        }
        // An inline constant as the accumulator, and a scalar source.
        let mut w = wave(spec);
        set_v(&mut w, 0, &a);
        w.write_sgpr(4, 0x0102_0304).unwrap();
        run_ok(spec, &table, "v_msad_u8 v6, v0, s4, 5", &mut w);
        let out = get_v(&w, 6);
        for l in 0..n {
            assert_eq!(
                out[l],
                msad_reference(a[l], 0x0102_0304, 5),
                "{origin} {} lane {l}",
                spec.generation
            );
        }
        ran += 1;
    }
    assert!(ran >= 3, "v_msad_u8 ran on {ran} specs");
}

fn wqm_reference(x: u64) -> u64 {
    (0..16).fold(0, |acc, k| {
        if (x >> (4 * k)) & 0xf != 0 {
            acc | 0xf << (4 * k)
        } else {
            acc
        }
    })
}

#[test]
fn s_wqm_b64_fills_each_nonzero_nibble() {
    let mut ran = 0;
    for (spec, table, origin) in specs() {
        if !runs(spec, "s_wqm_b64") {
            println!("skipped: {}", why_not(spec, "s_wqm_b64"));
            continue;
        }
        let mut rng = Rng(77);
        let mut cases = vec![
            0u64,
            1,
            0x8000_0000_0000_0000,
            0x0102_0000_f000_0010,
            u64::MAX,
        ];
        cases.extend((0..20).map(|_| rng.next() & rng.next()));
        for x in cases {
            let mut w = wave(spec);
            w.write_sgpr_pair(2, x).unwrap();
            w.write_sgpr_pair(4, 0xdead_beef_dead_beef).unwrap();
            w.scc = x == 0; // the opposite of what it must become
            run_ok(spec, &table, "s_wqm_b64 s[4:5], s[2:3]", &mut w);
            let r = w.read_sgpr_pair(4).unwrap();
            assert_eq!(
                r,
                wqm_reference(x),
                "{origin} {} of {x:#x}",
                spec.generation
            );
            assert_eq!(w.scc, r != 0, "{origin} {} SCC of {x:#x}", spec.generation);
        }
        // An inline constant source.
        let mut w = wave(spec);
        run_ok(spec, &table, "s_wqm_b64 s[6:7], 17", &mut w);
        assert_eq!(w.read_sgpr_pair(6).unwrap(), 0xff);
        ran += 1;
    }
    assert!(ran >= 3, "s_wqm_b64 ran on {ran} specs");
}

/// The seed instructions' executors fail cleanly on bad operands (no panics).
#[test]
fn seed_instructions_report_errors_instead_of_panicking() {
    for (spec, table, _) in specs() {
        if !runs(spec, "ds_bpermute_b32") {
            continue;
        }
        // A wave with only 4 VGPRs: v5 is out of range.
        let mut w = isa_runtime::exec::Wave::new(spec.wave64, 4, 0);
        let mut mem = FlatMemory::new();
        let mut lds = Lds::new(1024);
        let e = run(
            spec,
            &table,
            "ds_bpermute_b32 v5, v1, v2",
            &mut w,
            &mut mem,
            &mut lds,
        );
        assert!(e.is_err(), "{}: {e:?}", spec.generation);
    }
}
