//! Generated executors, one instruction at a time, against values computed here (host
//! arithmetic, written independently of the pseudocode). They run on the fixture specs
//! always — with AMD's pseudocode when it was found at build time, else with the project's
//! own fixture pseudocode — and on AMD's specs for the instructions those hold.
//! Run with `cargo test -p isa-runtime --features fixtures --test exec_gen_instructions`.
#![cfg(feature = "fixtures")]
// Lanes are indexed on purpose: expected values are computed per lane.
#![allow(clippy::needless_range_loop)]

mod exec_gen_support;

use exec_gen_support::*;
use isa_runtime::exec::{ExecError, ExecutorTable, FlatMemory, Flow, Lds, Wave};
use isa_runtime::IsaSpec;

/// Every spec that can run `name`, printing a skip line for the others that have it.
fn with(name: &str) -> Vec<(&'static IsaSpec, ExecutorTable)> {
    let mut v = Vec::new();
    for (spec, table, _) in specs() {
        if runs(spec, name) && mnemonic(spec, name) == name {
            v.push((spec, table));
        } else if spec.instruction_by_name(name).is_some() {
            println!("skipped: {}", why_not(spec, name));
        }
    }
    v
}

/// The spec's own mnemonic for `name` (an alias resolves to it).
fn mnemonic(spec: &'static IsaSpec, name: &str) -> &'static str {
    spec.instruction_by_name(name)
        .map(|i| spec.instructions[i].mnemonic)
        .unwrap_or("")
}

/// The fixture generations that have `name` must all run it.
fn assert_fixtures_ran(name: &str, ran: &[&'static IsaSpec]) {
    for f in isa_runtime::fixtures::specs() {
        if f.instruction_by_name(name).is_some() && mnemonic(f, name) == name {
            assert!(
                ran.iter().any(|s| std::ptr::eq(*s, f)),
                "fixture {} did not run {name}",
                f.generation
            );
        }
    }
}

fn scalar_cases() -> Vec<(u32, u32)> {
    let mut rng = Rng(99);
    let mut v = vec![
        (0, 0),
        (1, u32::MAX),
        (u32::MAX, u32::MAX),
        (0x8000_0000, 0x8000_0000),
        (5, 7),
        (7, 5),
    ];
    v.extend((0..40).map(|_| (rng.u32(), rng.u32())));
    v
}

/// Runs a SOP2/SOPC instruction on (a, b) in s1, s2; returns (s0, SCC).
fn sop(spec: &'static IsaSpec, t: &ExecutorTable, text: &str, a: u32, b: u32) -> (u32, bool) {
    let mut w = wave(spec);
    w.write_sgpr(1, a).unwrap();
    w.write_sgpr(2, b).unwrap();
    w.write_sgpr(0, 0x1234_5678).unwrap();
    assert_eq!(run_ok(spec, t, text, &mut w), Flow::Next);
    (w.read_sgpr(0).unwrap(), w.scc)
}

#[test]
fn scalar_add_sub_shift_and_compares() {
    let mut ran = Vec::new();
    for name in ["s_add_u32", "s_add_co_u32"] {
        for (spec, t) in with(name) {
            for (a, b) in scalar_cases() {
                let (r, scc) = sop(spec, &t, &format!("{name} s0, s1, s2"), a, b);
                let (sum, carry) = a.overflowing_add(b);
                assert_eq!(
                    (r, scc),
                    (sum, carry),
                    "{} {name} {a:#x} {b:#x}",
                    spec.generation
                );
            }
            ran.push(spec);
        }
    }
    assert_fixtures_ran("s_add_u32", &ran);
    for (spec, t) in with("s_sub_u32") {
        for (a, b) in scalar_cases() {
            let (r, scc) = sop(spec, &t, "s_sub_u32 s0, s1, s2", a, b);
            assert_eq!(
                (r, scc),
                (a.wrapping_sub(b), b > a),
                "{} sub {a:#x} {b:#x}",
                spec.generation
            );
        }
    }
    for (spec, t) in with("s_lshl_b32") {
        for (a, b) in scalar_cases() {
            let (r, scc) = sop(spec, &t, "s_lshl_b32 s0, s1, s2", a, b);
            let e = a << (b & 31);
            assert_eq!(
                (r, scc),
                (e, e != 0),
                "{} lshl {a:#x} {b:#x}",
                spec.generation
            );
        }
    }
    type Cmp = (&'static str, fn(u32, u32) -> bool);
    let cmps: [Cmp; 4] = [
        ("s_cmp_eq_u32", |a, b| a == b),
        ("s_cmp_lg_u32", |a, b| a != b),
        ("s_cmp_lt_u32", |a, b| a < b),
        ("s_cmp_gt_u32", |a, b| a > b),
    ];
    for (name, f) in cmps {
        let mut ran = Vec::new();
        for (spec, t) in with(name) {
            for (a, b) in scalar_cases() {
                let (r, scc) = sop(spec, &t, &format!("{name} s1, s2"), a, b);
                assert_eq!(scc, f(a, b), "{} {name} {a:#x} {b:#x}", spec.generation);
                assert_eq!(r, 0x1234_5678, "{name} writes no SGPR");
            }
            ran.push(spec);
        }
        assert_fixtures_ran(name, &ran);
    }
    for (spec, t) in with("s_cmp_eq_u64") {
        let mut w = wave(spec);
        w.write_sgpr_pair(2, 0x1_0000_0005).unwrap();
        w.write_sgpr_pair(4, 0x2_0000_0005).unwrap();
        run_ok(spec, &t, "s_cmp_eq_u64 s[2:3], s[4:5]", &mut w);
        assert!(!w.scc, "the high dwords differ");
        w.write_sgpr_pair(4, 0x1_0000_0005).unwrap();
        run_ok(spec, &t, "s_cmp_eq_u64 s[2:3], s[4:5]", &mut w);
        assert!(w.scc);
    }
}

#[test]
fn scalar_moves_constants_and_literals() {
    let mut ran = Vec::new();
    for (spec, t) in with("s_mov_b32") {
        let mut w = wave(spec);
        run_ok(spec, &t, "s_mov_b32 s3, -7", &mut w);
        assert_eq!(w.read_sgpr(3).unwrap(), -7i32 as u32);
        run_ok(spec, &t, "s_mov_b32 s3, 0x12345678", &mut w);
        assert_eq!(w.read_sgpr(3).unwrap(), 0x1234_5678);
        run_ok(spec, &t, "s_mov_b32 s4, 0.5", &mut w);
        assert_eq!(w.read_sgpr(4).unwrap(), 0.5f32.to_bits());
        run_ok(spec, &t, "s_mov_b32 s5, s3", &mut w);
        assert_eq!(w.read_sgpr(5).unwrap(), 0x1234_5678);
        w.m0 = 0xabc;
        run_ok(spec, &t, "s_mov_b32 s6, m0", &mut w);
        assert_eq!(w.read_sgpr(6).unwrap(), 0xabc);
        ran.push(spec);
    }
    assert_fixtures_ran("s_mov_b32", &ran);
    for (spec, t) in with("s_mov_b64") {
        let mut w = wave(spec);
        run_ok(spec, &t, "s_mov_b64 s[2:3], -1", &mut w);
        assert_eq!(
            w.read_sgpr_pair(2).unwrap(),
            u64::MAX,
            "{}",
            spec.generation
        );
        w.exec = 0x0000_00ff_0000_ff00;
        run_ok(spec, &t, "s_mov_b64 s[4:5], exec", &mut w);
        assert_eq!(w.read_sgpr_pair(4).unwrap(), 0x0000_00ff_0000_ff00);
        run_ok(spec, &t, "s_mov_b64 s[6:7], 1.0", &mut w);
        assert_eq!(
            w.read_sgpr_pair(6).unwrap(),
            1.0f64.to_bits(),
            "64-bit float constant"
        );
    }
    for (spec, t) in with("s_movk_i32") {
        let mut w = wave(spec);
        run_ok(spec, &t, "s_movk_i32 s7, 0xfffe", &mut w);
        assert_eq!(
            w.read_sgpr(7).unwrap(),
            -2i32 as u32,
            "{} sign-extends",
            spec.generation
        );
        run_ok(spec, &t, "s_movk_i32 s7, 0x1234", &mut w);
        assert_eq!(w.read_sgpr(7).unwrap(), 0x1234);
    }
}

#[test]
fn and_saveexec_saves_masks_and_sets_scc() {
    let mut ran = Vec::new();
    for name in ["s_and_saveexec_b32", "s_and_saveexec_b64"] {
        for (spec, t) in with(name) {
            let wide = name.ends_with("b64");
            let regs = if wide { "s[2:3], s[4:5]" } else { "s2, s4" };
            for (old, mask) in [
                (0xffff_ffffu64, 0x0000_f0f0u64),
                (0xff, 0xff00),
                (u64::MAX, 0x8000_0000_0000_0001),
            ] {
                let mut w = wave(spec);
                w.exec = old;
                w.write_sgpr_pair(4, mask).unwrap();
                run_ok(spec, &t, &format!("{name} {regs}"), &mut w);
                let (expect_exec, saved) = if wide {
                    (old & mask, old)
                } else {
                    (
                        (old & !0xffff_ffff) | (old & mask & 0xffff_ffff),
                        old & 0xffff_ffff,
                    )
                };
                assert_eq!(w.exec, expect_exec, "{} {name}", spec.generation);
                let got = if wide {
                    w.read_sgpr_pair(2).unwrap()
                } else {
                    w.read_sgpr(2).unwrap() as u64
                };
                assert_eq!(got, saved);
                let live = if wide {
                    expect_exec
                } else {
                    expect_exec & 0xffff_ffff
                };
                assert_eq!(w.scc, live != 0);
            }
            ran.push(spec);
        }
    }
    assert_fixtures_ran("s_and_saveexec_b32", &ran);
    assert_fixtures_ran("s_and_saveexec_b64", &ran);
}

#[test]
fn branches_jump_by_simm16_dwords() {
    let pc = 0x1000u64;
    let target = |simm: i16| (pc as i64 + 4 + 4 * simm as i64) as u64;
    type Cond = (&'static str, fn(&Wave) -> bool);
    let conds: [Cond; 4] = [
        ("s_branch", |_| true),
        ("s_cbranch_scc0", |w| !w.scc),
        ("s_cbranch_scc1", |w| w.scc),
        ("s_cbranch_execz", |w| w.exec_mask() == 0),
    ];
    for (name, taken) in conds {
        let mut ran = Vec::new();
        for (spec, t) in with(name) {
            for simm in [-3i16, 0, 5, 0x7fff, -0x8000] {
                for (scc, exec) in [(false, 0u64), (true, 0), (false, 1), (true, 0xf0)] {
                    let mut w = wave(spec);
                    w.pc = pc;
                    w.scc = scc;
                    w.exec = exec;
                    let flow = run_ok(spec, &t, &format!("{name} {}", simm as u16), &mut w);
                    let expect = if taken(&w) {
                        Flow::Jump(target(simm))
                    } else {
                        Flow::Next
                    };
                    // A branch not taken may also jump to the next instruction.
                    let ok = flow == expect || (expect == Flow::Next && flow == Flow::Jump(pc + 4));
                    assert!(
                        ok,
                        "{} {name} {simm} scc={scc} exec={exec:#x}: {flow:?}",
                        spec.generation
                    );
                }
            }
            ran.push(spec);
        }
        assert_fixtures_ran(name, &ran);
    }
    for (spec, t) in with("s_endpgm") {
        let mut w = wave(spec);
        assert_eq!(run_ok(spec, &t, "s_endpgm", &mut w), Flow::EndProgram);
    }
    for (spec, t) in with("s_waitcnt") {
        let mut w = wave(spec);
        assert_eq!(run_ok(spec, &t, "s_waitcnt vmcnt(0)", &mut w), Flow::Next);
    }
}

/// Runs a two-source VALU instruction on lanes of v0 (a) and v1 (b) into v2.
fn vop2(
    spec: &'static IsaSpec,
    t: &ExecutorTable,
    text: &str,
    a: &[u32],
    b: &[u32],
    exec: u64,
) -> Vec<u32> {
    let mut w = wave(spec);
    set_v(&mut w, 0, a);
    set_v(&mut w, 1, b);
    let n = lanes(&w);
    set_v(&mut w, 2, &vec![0xdead_beef; n]);
    w.exec = exec;
    run_ok(spec, t, text, &mut w);
    get_v(&w, 2)
}

#[test]
fn vector_integer_ops_respect_exec() {
    for name in ["v_add_nc_u32", "v_add_u32", "v_lshlrev_b32"] {
        let mut ran = Vec::new();
        for (spec, t) in with(name) {
            let n = if spec.wave64 { 64 } else { 32 };
            let mut rng = Rng(5);
            let a: Vec<u32> = (0..n).map(|_| rng.u32()).collect();
            let b: Vec<u32> = (0..n).map(|_| rng.u32()).collect();
            let exec = 0x5555_5555_5555_5555u64;
            let text = format!("{name}_e32 v2, v0, v1");
            let out = vop2(spec, &t, &text, &a, &b, exec);
            for l in 0..n {
                let e = match name {
                    "v_lshlrev_b32" => b[l] << (a[l] & 31),
                    _ => a[l].wrapping_add(b[l]),
                };
                let e = if exec >> l & 1 != 0 { e } else { 0xdead_beef };
                assert_eq!(out[l], e, "{} {name} lane {l}", spec.generation);
            }
            ran.push(spec);
        }
        assert_fixtures_ran(name, &ran);
    }
}

/// VOP3 DPP: SRC1 is a full 9-bit source (v0 is 256), so a VGPR and an SGPR second source
/// both reach the operation (the model override retypes AMD's 8-bit VGPR type there).
#[test]
fn vop3_dpp_second_source_is_a_full_source() {
    let name = "v_add_nc_u32";
    let mut ran = Vec::new();
    for (spec, t) in with(name) {
        if !isa_runtime::fixtures::specs()
            .iter()
            .any(|f| std::ptr::eq(*f, spec))
            || !spec.generation.starts_with("rdna3")
        {
            continue;
        }
        let n = if spec.wave64 { 64 } else { 32 };
        let mut rng = Rng(9);
        let a: Vec<u32> = (0..n).map(|_| rng.u32()).collect();
        let b: Vec<u32> = (0..n).map(|_| rng.u32()).collect();
        let identity = "dpp8:[0,1,2,3,4,5,6,7]";
        let out = vop2(
            spec,
            &t,
            &format!("{name}_e64_dpp v2, v0, v1 {identity}"),
            &a,
            &b,
            u64::MAX,
        );
        for l in 0..n {
            assert_eq!(
                out[l],
                a[l].wrapping_add(b[l]),
                "{} VGPR source, lane {l}",
                spec.generation
            );
        }
        let mut w = wave(spec);
        set_v(&mut w, 0, &a);
        w.write_sgpr(3, 0x0102_0304).unwrap();
        run_ok(
            spec,
            &t,
            &format!("{name}_e64_dpp v2, v0, s3 {identity}"),
            &mut w,
        );
        let out = get_v(&w, 2);
        for l in 0..n {
            assert_eq!(
                out[l],
                a[l].wrapping_add(0x0102_0304),
                "{} SGPR source, lane {l}",
                spec.generation
            );
        }
        ran.push(spec);
    }
    assert!(!ran.is_empty(), "the RDNA 3 fixture did not run {name}");
}

#[test]
fn v_add_f32_rounds_like_ieee() {
    let mut ran = Vec::new();
    for (spec, t) in with("v_add_f32") {
        let vals: Vec<(f32, f32)> = vec![
            (1.0, 2.0),
            (0.1, 0.2),
            (1e30, 1e30),
            (f32::MAX, f32::MAX),
            (-0.0, 0.0),
            (f32::INFINITY, f32::NEG_INFINITY),
            (1.0, f32::from_bits(1)),
            (16777216.0, 1.0),
        ];
        let n = vals.len();
        let a: Vec<u32> = vals.iter().map(|v| v.0.to_bits()).collect();
        let b: Vec<u32> = vals.iter().map(|v| v.1.to_bits()).collect();
        let out = vop2(spec, &t, "v_add_f32_e32 v2, v0, v1", &a, &b, u64::MAX);
        for (l, (x, y)) in vals.iter().enumerate() {
            let e = x + y;
            let got = f32::from_bits(out[l]);
            if e.is_nan() {
                assert!(got.is_nan(), "{} lane {l}: {got}", spec.generation);
            } else {
                assert_eq!(out[l], e.to_bits(), "{} {x} + {y}", spec.generation);
            }
        }
        // VOP3 input and output modifiers: -|a| + b, then ×2 with clamp.
        let mut w = wave(spec);
        set_v(&mut w, 0, &a[..n]);
        set_v(&mut w, 1, &b[..n]);
        run_ok(spec, &t, "v_add_f32_e64 v3, -|v0|, v1", &mut w);
        let out = get_v(&w, 3);
        assert_eq!(f32::from_bits(out[0]), -1.0 + 2.0, "{}", spec.generation);
        assert_eq!(f32::from_bits(out[1]), -0.1f32 + 0.2f32);
        run_ok(spec, &t, "v_add_f32_e64 v4, v0, v1 clamp", &mut w);
        let out = get_v(&w, 4);
        assert_eq!(f32::from_bits(out[0]), 1.0, "clamped to [0, 1]");
        assert_eq!(f32::from_bits(out[1]), 0.1f32 + 0.2f32);
        // Round toward zero in MODE changes 0.1 + 0.2.
        let mut w = wave(spec);
        set_v(&mut w, 0, &a[..n]);
        set_v(&mut w, 1, &b[..n]);
        w.mode.0 = (w.mode.0 & !0xf) | 0x3;
        run_ok(spec, &t, "v_add_f32_e32 v2, v0, v1", &mut w);
        let rtz = get_v(&w, 2)[1];
        let exact = 0.1f32 as f64 + 0.2f32 as f64;
        assert!(f32::from_bits(rtz) as f64 <= exact, "toward zero");
        assert!(rtz == (0.1f32 + 0.2f32).to_bits() || rtz + 1 == (0.1f32 + 0.2f32).to_bits());
        ran.push(spec);
    }
    assert_fixtures_ran("v_add_f32", &ran);
}

#[test]
fn v_mov_b32_literals_constants_and_sgprs() {
    for (spec, t) in with("v_mov_b32") {
        let mut w = wave(spec);
        w.exec = 0b1011;
        set_v(&mut w, 5, &[9, 9, 9, 9]);
        run_ok(spec, &t, "v_mov_b32_e32 v5, 0x3f800001", &mut w);
        assert_eq!(
            get_v(&w, 5)[..4],
            [0x3f80_0001, 0x3f80_0001, 9, 0x3f80_0001]
        );
        w.write_sgpr(8, 77).unwrap();
        run_ok(spec, &t, "v_mov_b32_e32 v6, s8", &mut w);
        assert_eq!(get_v(&w, 6)[0], 77);
        run_ok(spec, &t, "v_mov_b32_e64 v7, -4.0", &mut w);
        assert_eq!(get_v(&w, 7)[0], (-4.0f32).to_bits(), "{}", spec.generation);
    }
}

#[test]
fn v_mbcnt_counts_lower_lanes() {
    for name in ["v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32"] {
        let mut ran = Vec::new();
        for (spec, t) in with(name) {
            let n = if spec.wave64 { 64 } else { 32 };
            let mask: u64 = 0xf0f0_1234_89ab_cdef;
            let mut w = wave(spec);
            let (lo, hi) = (mask as u32, (mask >> 32) as u32);
            w.write_sgpr(10, if name.contains("lo") { lo } else { hi })
                .unwrap();
            set_v(&mut w, 1, &vec![100; n]);
            run_ok(spec, &t, &format!("{name} v2, s10, v1"), &mut w);
            let out = get_v(&w, 2);
            for l in 0..n {
                let below = if l == 64 { u64::MAX } else { (1u64 << l) - 1 };
                let bits = if name.contains("lo") {
                    (lo as u64 & below).count_ones()
                } else {
                    ((hi as u64) & (below >> 32)).count_ones()
                };
                assert_eq!(out[l], 100 + bits, "{} {name} lane {l}", spec.generation);
            }
            ran.push(spec);
        }
        assert_fixtures_ran(name, &ran);
    }
}

#[test]
fn v_cmp_writes_masks_and_clears_inactive_lanes() {
    let mut ran = Vec::new();
    for (spec, t) in with("v_cmp_gt_u32") {
        let n = if spec.wave64 { 64 } else { 32 };
        let mut rng = Rng(11);
        let a: Vec<u32> = (0..n).map(|_| rng.u32() % 8).collect();
        let b: Vec<u32> = (0..n).map(|_| rng.u32() % 8).collect();
        let exec: u64 = 0x00ff_00ff_ff00_fff0 & if n == 64 { u64::MAX } else { 0xffff_ffff };
        let expect = (0..n)
            .filter(|&l| exec >> l & 1 != 0 && a[l] > b[l])
            .fold(0u64, |m, l| m | 1 << l);
        // VOPC: VCC (VCC_HI untouched in wave32).
        let mut w = wave(spec);
        set_v(&mut w, 0, &a);
        set_v(&mut w, 1, &b);
        w.exec = exec;
        w.vcc = u64::MAX;
        let vcc = if n == 64 { "vcc" } else { "vcc_lo" };
        run_ok(spec, &t, &format!("v_cmp_gt_u32_e32 {vcc}, v0, v1"), &mut w);
        let got = if n == 64 { w.vcc } else { w.vcc & 0xffff_ffff };
        assert_eq!(got, expect, "{} VOPC", spec.generation);
        if n == 32 {
            assert_eq!(w.vcc >> 32, 0xffff_ffff, "VCC_HI untouched in wave32");
        }
        // VOP3: an SGPR (pair in wave64).
        let mut w = wave(spec);
        set_v(&mut w, 0, &a);
        set_v(&mut w, 1, &b);
        w.exec = exec;
        w.write_sgpr_pair(20, u64::MAX).unwrap();
        let dst = if n == 64 { "s[20:21]" } else { "s20" };
        run_ok(spec, &t, &format!("v_cmp_gt_u32_e64 {dst}, v0, v1"), &mut w);
        let got = if n == 64 {
            w.read_sgpr_pair(20).unwrap()
        } else {
            w.read_sgpr(20).unwrap() as u64
        };
        assert_eq!(got, expect, "{} VOP3", spec.generation);
        if n == 32 {
            assert_eq!(w.read_sgpr(21).unwrap(), u32::MAX, "wave32 writes one SGPR");
        }
        ran.push(spec);
    }
    assert_fixtures_ran("v_cmp_gt_u32", &ran);
    for (spec, t) in with("v_cmpx_lt_i64") {
        let n = if spec.wave64 { 64 } else { 32 };
        let mut w = wave(spec);
        for l in 0..n {
            let (x, y) = ((l as i64 - 10) * 0x1_0000_0001, 3i64);
            w.write_vgpr_b64(0, l, x as u64).unwrap();
            w.write_vgpr_b64(2, l, y as u64).unwrap();
        }
        w.exec = 0xffff_0f0f;
        // GFX9 writes VCC beside EXEC and names it; later generations write EXEC only.
        let plain = "v_cmpx_lt_i64_e32 v[0:1], v[2:3]";
        let text = if isa_runtime::assemble_instruction(spec, plain).is_ok() {
            plain
        } else {
            "v_cmpx_lt_i64_e32 vcc, v[0:1], v[2:3]"
        };
        run_ok(spec, &t, text, &mut w);
        let expect = (0..n)
            .filter(|&l| 0xffff_0f0fu64 >> l & 1 != 0 && (l as i64 - 10) * 0x1_0000_0001 < 3)
            .fold(0u64, |m, l| m | 1 << l);
        assert_eq!(w.exec & 0xffff_ffff, expect, "{} v_cmpx", spec.generation);
    }
}

#[test]
fn v_readfirstlane_picks_the_lowest_active_lane() {
    for (spec, t) in with("v_readfirstlane_b32") {
        let n = if spec.wave64 { 64 } else { 32 };
        let mut w = wave(spec);
        set_v(
            &mut w,
            3,
            &(0..n as u32).map(|l| 1000 + l).collect::<Vec<_>>(),
        );
        w.exec = 0b1011_0000;
        run_ok(spec, &t, "v_readfirstlane_b32 s9, v3", &mut w);
        assert_eq!(w.read_sgpr(9).unwrap(), 1004, "{}", spec.generation);
        w.exec = 0;
        run_ok(spec, &t, "v_readfirstlane_b32 s9, v3", &mut w);
        assert_eq!(w.read_sgpr(9).unwrap(), 1000, "no lane active: lane 0");
    }
}

#[test]
fn scalar_and_global_memory() {
    for name in ["s_load_b32", "s_load_dword"] {
        for (spec, t) in with(name) {
            let wide = if name == "s_load_b32" {
                "s_load_b64"
            } else {
                "s_load_dwordx2"
            };
            // SBASE s[4:5], no SGPR offset, immediate offset (the fields differ: RDNA's
            // SOFFSET is NULL, CDNA's SOFFSET_EN is 0).
            // The immediate offset is OFFSET, or IOFFSET on GFX12.
            let smem = |n: &str, sdata: u32, offset: u64| {
                let enc = spec
                    .encodings
                    .iter()
                    .find(|e| e.name == "ENC_SMEM")
                    .unwrap();
                let offset_field = if enc.fields.iter().any(|f| f.name == "IOFFSET") {
                    "IOFFSET"
                } else {
                    "OFFSET"
                };
                let mut f = vec![
                    ("SDATA", F::S(sdata)),
                    ("SBASE", F::S(4)),
                    (offset_field, F::Raw(offset)),
                ];
                if enc.fields.iter().any(|f| f.name == "SOFFSET_EN") {
                    f.push(("SOFFSET_EN", F::Raw(0)));
                    f.push(("IMM", F::Raw(1)));
                } else {
                    f.push(("SOFFSET", F::N("NULL")));
                }
                build(spec, n, "ENC_SMEM", &f)
            };
            let mut mem = FlatMemory::new();
            let base = mem.alloc_dwords(&[10, 11, 12, 13, 14, 15]);
            let mut lds = Lds::new(16);
            let mut w = wave(spec);
            w.write_sgpr_pair(4, base).unwrap();
            run_decoded(&t, &smem(name, 8, 8), &mut w, &mut mem, &mut lds)
                .unwrap_or_else(|e| panic!("{}: {e}", spec.generation));
            assert_eq!(w.read_sgpr(8).unwrap(), 12, "{} {name}", spec.generation);
            if runs(spec, wide) {
                run_decoded(&t, &smem(wide, 10, 16), &mut w, &mut mem, &mut lds)
                    .unwrap_or_else(|e| panic!("{}: {e}", spec.generation));
                assert_eq!(w.read_sgpr_pair(10).unwrap(), 15 << 32 | 14);
            }
            // Past the allocation: a memory error, not a panic.
            let e = run_decoded(&t, &smem(name, 8, 0x100), &mut w, &mut mem, &mut lds);
            assert!(
                matches!(e, Err(ExecError::Memory { lane: None, .. })),
                "{e:?}"
            );
        }
    }
    for (load, store) in [
        ("global_load_b32", "global_store_b32"),
        ("global_load_dword", "global_store_dword"),
    ] {
        for (spec, t) in with(load) {
            let load_form = spec.instructions[spec.instruction_by_name(load).unwrap()].forms[0];
            if !spec
                .encoding_of(load_form)
                .fields
                .iter()
                .any(|f| f.name == "ADDR")
            {
                // GFX12's VGLOBAL names its fields VADDR/VSRC/IOFFSET; not covered here yet.
                eprintln!(
                    "{}: {load} not checked here (GFX12 VGLOBAL field names)",
                    spec.generation
                );
                continue;
            }
            let n = if spec.wave64 { 64 } else { 32 };
            let mut mem = FlatMemory::new();
            let src = mem.alloc_dwords(&(0..n as u32).map(|i| 500 + i).collect::<Vec<_>>());
            let dst = mem.alloc_dwords(&vec![0; n]);
            let mut lds = Lds::new(16);
            let mut w = wave(spec);
            // SADDR + a 32-bit offset per lane, reversed lane order.
            w.write_sgpr_pair(4, src).unwrap();
            set_v(
                &mut w,
                1,
                &(0..n as u32)
                    .map(|l| 4 * (n as u32 - 1 - l))
                    .collect::<Vec<_>>(),
            );
            w.exec = u64::MAX >> 1;
            run(
                spec,
                &t,
                &format!("{load} v2, v1, s[4:5]"),
                &mut w,
                &mut mem,
                &mut lds,
            )
            .unwrap_or_else(|e| panic!("{}: {e}", spec.generation));
            let got = get_v(&w, 2);
            for l in 0..n - 1 {
                assert_eq!(
                    got[l],
                    500 + (n - 1 - l) as u32,
                    "{} lane {l}",
                    spec.generation
                );
            }
            // SADDR off: 64-bit addresses in v[6:7], with an instruction offset.
            for l in 0..n {
                w.write_vgpr_b64(6, l, dst + 4 * l as u64 - 8).unwrap();
            }
            set_v(&mut w, 3, &(0..n as u32).map(|l| 7 * l).collect::<Vec<_>>());
            w.exec = 0b0110;
            let enc = spec.encodings[spec.forms
                [spec.instructions[spec.instruction_by_name(store).unwrap()].forms[0] as usize]
                .encoding as usize]
                .name;
            let off = build(
                spec,
                store,
                enc,
                &[
                    ("ADDR", F::V(6)),
                    ("DATA", F::V(3)),
                    ("SADDR", F::Raw(0x7f)),
                    ("OFFSET", F::Raw(8)),
                ],
            );
            run_decoded(&t, &off, &mut w, &mut mem, &mut lds)
                .unwrap_or_else(|e| panic!("{}: {e}", spec.generation));
            assert_eq!(
                mem.dwords(dst, 4).unwrap(),
                [0, 7, 14, 0],
                "{} {store}",
                spec.generation
            );
            // A lane outside any allocation faults with its lane number.
            w.write_vgpr_b64(6, 2, 8).unwrap();
            let e = run_decoded(&t, &off, &mut w, &mut mem, &mut lds);
            assert!(
                matches!(e, Err(ExecError::Memory { lane: Some(2), .. })),
                "{e:?}"
            );
        }
    }
}

#[test]
fn lds_add_and_write() {
    for (spec, t) in with("ds_add_u32") {
        let mut mem = FlatMemory::new();
        let mut lds = Lds::new(1024);
        lds.write_u32(16 + 8, 1000).unwrap();
        let mut w = wave(spec);
        let n = lanes(&w);
        set_v(&mut w, 1, &vec![16; n]);
        set_v(&mut w, 2, &(0..n as u32).collect::<Vec<_>>());
        w.exec = 0b1111;
        run(
            spec,
            &t,
            "ds_add_u32 v1, v2 offset:8",
            &mut w,
            &mut mem,
            &mut lds,
        )
        .unwrap();
        assert_eq!(lds.read_u32(24).unwrap(), 1000 + 6, "{}", spec.generation);
    }
    for (spec, t) in with("ds_write_b32") {
        let mut mem = FlatMemory::new();
        let mut lds = Lds::new(1024);
        let mut w = wave(spec);
        let n = lanes(&w);
        set_v(&mut w, 1, &(0..n as u32).map(|l| 4 * l).collect::<Vec<_>>());
        set_v(&mut w, 2, &(0..n as u32).map(|l| l * l).collect::<Vec<_>>());
        w.exec = 0b1101;
        run(
            spec,
            &t,
            "ds_write_b32 v1, v2 offset:4",
            &mut w,
            &mut mem,
            &mut lds,
        )
        .unwrap();
        let got: Vec<u32> = (0..5).map(|k| lds.read_u32(4 * k).unwrap()).collect();
        assert_eq!(got, [0, 0, 0, 4, 9], "{}", spec.generation);
    }
}

#[test]
fn s_getreg_reads_mode() {
    for (spec, t) in with("s_getreg_b32") {
        let mut w = wave(spec);
        w.mode.0 = 0x2f0;
        // hwreg(HW_REG_MODE, 0, 10): id 1, offset 0, size 10.
        run_ok(
            spec,
            &t,
            "s_getreg_b32 s3, hwreg(HW_REG_MODE, 0, 10)",
            &mut w,
        );
        assert_eq!(w.read_sgpr(3).unwrap(), 0x2f0, "{}", spec.generation);
        run_ok(
            spec,
            &t,
            "s_getreg_b32 s3, hwreg(HW_REG_MODE, 4, 4)",
            &mut w,
        );
        assert_eq!(w.read_sgpr(3).unwrap(), 0xf);
    }
}

/// Flat/global atomics update memory in every active lane and return the old value only
/// when GLC (SC0 on GFX940) asks for it (AMD's specs; the fixtures have no atomics).
#[test]
fn vector_memory_atomics_return_only_when_asked() {
    type Atomic = (&'static str, fn(u32, u32) -> u32);
    let cases: [Atomic; 3] = [
        ("flat_atomic_xor", |a, b| a ^ b),
        ("global_atomic_add", |a, b| a.wrapping_add(b)),
        ("global_atomic_swap", |_, b| b),
    ];
    let mut ran = 0;
    for (name, op) in cases {
        for (spec, t) in with(name) {
            let i = spec.instruction_by_name(name).unwrap();
            let form = spec.instructions[i].forms[0];
            let enc = spec.encoding_of(form);
            let ret = ["GLC", "SC0"]
                .into_iter()
                .find(|f| enc.fields.iter().any(|x| x.name == *f));
            for glc in [0u64, 1] {
                let mut mem = FlatMemory::new();
                let buf = mem.alloc_dwords(&[100, 200, 300, 400]);
                let mut lds = Lds::new(16);
                let mut w = wave(spec);
                for l in 0..4 {
                    w.write_vgpr_b64(2, l, buf + 4 * l as u64).unwrap();
                    w.write_vgpr(4, l, 7 + l as u32).unwrap();
                    w.write_vgpr(1, l, 0xaaaa).unwrap();
                }
                w.exec = 0b1011;
                let mut fields = vec![("ADDR", F::V(2)), ("DATA", F::V(4)), ("VDST", F::V(1))];
                if enc.fields.iter().any(|f| f.name == "SADDR") {
                    fields.push(("SADDR", F::Raw(0x7f)));
                }
                if let Some(r) = ret {
                    fields.push((r, F::Raw(glc)));
                }
                let d = build(spec, name, enc.name, &fields);
                run_decoded(&t, &d, &mut w, &mut mem, &mut lds)
                    .unwrap_or_else(|e| panic!("{} {name}: {e}", spec.generation));
                let old = [100u32, 200, 300, 400];
                let want: Vec<u32> = (0..4)
                    .map(|l| {
                        if 0b1011 >> l & 1 != 0 {
                            op(old[l], 7 + l as u32)
                        } else {
                            old[l]
                        }
                    })
                    .collect();
                assert_eq!(
                    mem.dwords(buf, 4).unwrap(),
                    want,
                    "{} {name}",
                    spec.generation
                );
                let returned = glc == 1 || ret.is_none();
                for l in 0..4 {
                    let e = if returned && 0b1011 >> l & 1 != 0 {
                        old[l]
                    } else {
                        0xaaaa
                    };
                    assert_eq!(
                        w.read_vgpr(1, l).unwrap(),
                        e,
                        "{} {name} glc={glc} lane {l}",
                        spec.generation
                    );
                }
            }
            ran += 1;
        }
    }
    println!("atomics ran on {ran} specs");
}

/// One DPP case: the text, the source lane of each lane (None: out of range), row and bank
/// masks, whether invalid sources read 0, whether inactive lanes may be read.
struct Dpp {
    text: &'static str,
    src: fn(usize) -> Option<usize>,
    rows: u64,
    banks: u64,
    zero: bool,
    fi: bool,
}

/// DPP lane movement of source 0, against lane-by-lane expectations written here.
#[test]
fn dpp_moves_source_zero_between_lanes() {
    let row = |l: usize| l & !15;
    let rdna: Vec<Dpp> = vec![
        Dpp {
            text: "v_mov_b32_dpp v2, v0 quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf",
            src: |l| Some((l & !3) | (3 - (l & 3))),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf",
            src: |l| (l % 16 >= 1).then(|| l - 1),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1",
            src: |l| (l % 16 >= 1).then(|| l - 1),
            rows: 0xf,
            banks: 0xf,
            zero: true,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_shl:3 row_mask:0xf bank_mask:0x5",
            src: |l| (l % 16 + 3 < 16).then_some(l + 3),
            rows: 0xf,
            banks: 0x5,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_ror:4 row_mask:0x5 bank_mask:0xf",
            src: |l| Some((l & !15) | ((l + 12) & 15)),
            rows: 0x5,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_mirror row_mask:0xf bank_mask:0xf",
            src: |l| Some((l & !15) | (15 - l % 16)),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_half_mirror row_mask:0xf bank_mask:0xf",
            src: |l| Some((l & !7) | (7 - l % 8)),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_share:3 row_mask:0xf bank_mask:0xf",
            src: |l| Some((l & !15) | 3),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_xmask:5 row_mask:0xf bank_mask:0xf fi:1",
            src: |l| Some((l & !15) | ((l % 16) ^ 5)),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: true,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 dpp8:[7,6,5,4,3,2,1,0]",
            src: |l| Some((l & !7) | (7 - l % 8)),
            rows: 0xf,
            banks: 0xf,
            zero: true,
            fi: false,
        },
    ];
    let gcn: Vec<Dpp> = vec![
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_shr:2 row_mask:0xf bank_mask:0xf",
            src: |l| (l % 16 >= 2).then(|| l - 2),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_bcast:15 row_mask:0xa bank_mask:0xf",
            src: |l| (l >= 16).then(|| (l & !15) - 1),
            rows: 0xa,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 row_bcast:31 row_mask:0xc bank_mask:0xf",
            src: |l| (l >= 32).then_some(31),
            rows: 0xc,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 wave_shl:1 row_mask:0xf bank_mask:0xf",
            src: |l| (l < 63).then_some(l + 1),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 wave_ror:1 row_mask:0xf bank_mask:0xf",
            src: |l| Some((l + 63) % 64),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: false,
        },
        Dpp {
            text: "v_mov_b32_dpp v2, v0 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf",
            src: |l| Some(l ^ 1),
            rows: 0xf,
            banks: 0xf,
            zero: false,
            fi: false,
        },
    ];
    let _ = row;
    let mut ran = 0;
    for (spec, t) in with("v_mov_b32") {
        let is_gcn = spec.generation.starts_with("cdna") && spec.generation != "cdna5";
        let cases = if is_gcn { &gcn } else { &rdna };
        let n = if spec.wave64 { 64 } else { 32 };
        for c in cases {
            if isa_runtime::assemble_instruction(spec, c.text).is_err() {
                println!(
                    "skipped on {}: `{}` does not assemble",
                    spec.generation, c.text
                );
                continue;
            }
            let exec: u64 = 0xffff_7fff_fffe_ffdf & if n == 64 { u64::MAX } else { 0xffff_ffff };
            let mut w = wave(spec);
            let src0: Vec<u32> = (0..n as u32).map(|l| 100 + l).collect();
            set_v(&mut w, 0, &src0);
            set_v(&mut w, 2, &vec![7; n]);
            w.exec = exec;
            run_ok(spec, &t, c.text, &mut w);
            let out = get_v(&w, 2);
            for l in 0..n {
                let enabled = exec >> l & 1 != 0
                    && c.rows >> (l / 16) & 1 != 0
                    && c.banks >> ((l / 4) & 3) & 1 != 0;
                let want = if !enabled {
                    7
                } else {
                    match (c.src)(l).filter(|&s| s < n && (c.fi || exec >> s & 1 != 0)) {
                        Some(s) => src0[s],
                        None if c.zero => 0,
                        None => 7,
                    }
                };
                assert_eq!(out[l], want, "{} `{}` lane {l}", spec.generation, c.text);
            }
        }
        ran += 1;
    }
    assert!(ran >= 2);
    // A two-source DPP instruction with source modifiers: -v0 (moved) + |v1|.
    for (spec, t) in with("v_add_f32") {
        if spec.generation.starts_with("cdna") {
            continue;
        }
        let n = if spec.wave64 { 64 } else { 32 };
        let mut w = wave(spec);
        set_v(
            &mut w,
            0,
            &(0..n).map(|l| (l as f32).to_bits()).collect::<Vec<_>>(),
        );
        set_v(
            &mut w,
            1,
            &(0..n)
                .map(|l| (-(l as f32) * 0.5).to_bits())
                .collect::<Vec<_>>(),
        );
        run_ok(
            spec,
            &t,
            "v_add_f32_dpp v2, -v0, |v1| row_mirror row_mask:0xf bank_mask:0xf",
            &mut w,
        );
        let out = get_v(&w, 2);
        for l in 0..n {
            let s = (l & !15) | (15 - l % 16);
            assert_eq!(
                f32::from_bits(out[l]),
                -(s as f32) + (l as f32) * 0.5,
                "{} lane {l}",
                spec.generation
            );
        }
    }
}

/// `s_setreg_b32` writes a field of MODE (the rounding of f32 here) and `s_getreg_b32`
/// reads it back (AMD's specs that have them; the override pseudocode gives the semantics).
#[test]
fn s_setreg_writes_mode_fields() {
    for (spec, t) in with("s_setreg_b32") {
        let mut w = wave(spec);
        w.mode.0 = 0x2f0;
        w.write_sgpr(3, 0xffff_fff3).unwrap();
        // hwreg(HW_REG_MODE, 0, 2): MODE[1:0] = s3[1:0] = 3 (toward zero for f32).
        run_ok(
            spec,
            &t,
            "s_setreg_b32 hwreg(HW_REG_MODE, 0, 2), s3",
            &mut w,
        );
        assert_eq!(w.mode.0, 0x2f3, "{}", spec.generation);
        w.write_sgpr(3, 0).unwrap();
        run_ok(
            spec,
            &t,
            "s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s3",
            &mut w,
        );
        assert_eq!(w.mode.0, 0x203, "{}: MODE[7:4] cleared", spec.generation);
        if runs(spec, "s_getreg_b32") {
            run_ok(
                spec,
                &t,
                "s_getreg_b32 s5, hwreg(HW_REG_MODE, 0, 16)",
                &mut w,
            );
            assert_eq!(w.read_sgpr(5).unwrap(), 0x203);
        }
    }
}

/// A destination written under a condition keeps its value when the condition is false
/// (`s_cmovk_i32`, AMD's rdna4 spec).
#[test]
fn conditional_writes_keep_the_old_value() {
    for (spec, t) in with("s_cmovk_i32") {
        let mut w = wave(spec);
        w.write_sgpr(9, 0x5555).unwrap();
        w.scc = false;
        run_ok(spec, &t, "s_cmovk_i32 s9, 0x1234", &mut w);
        assert_eq!(
            w.read_sgpr(9).unwrap(),
            0x5555,
            "{}: SCC = 0 keeps s9",
            spec.generation
        );
        w.scc = true;
        run_ok(spec, &t, "s_cmovk_i32 s9, 0xfff0", &mut w);
        assert_eq!(
            w.read_sgpr(9).unwrap(),
            -16i32 as u32,
            "{}",
            spec.generation
        );
    }
}

/// VOP3P half selection, on a hand-made binding: no fixture has packed math, so an ENC_VOP3
/// form's OPSEL, ABS (standing in for OPSEL_HI) and NEG fields serve as VOP3P's selects.
#[test]
fn vop3p_sources_take_the_selected_halves() {
    use isa_runtime::semantics::{field, fields, ops, sizes, variant, FormBinding, NONE};
    let spec = isa_runtime::fixtures::specs()
        .into_iter()
        .find(|s| s.generation == "rdna3")
        .unwrap();
    let ins = isa_runtime::assemble_instruction(spec, "v_msad_u8 v5, v0, v1, v2").unwrap();
    let enc = ins.encoding();
    let idx = |n: &str| {
        let alt = if n == "OPSEL" { "OP_SEL" } else { n };
        enc.fields
            .iter()
            .position(|f| f.name == n || f.name == alt)
            .unwrap() as u8
    };
    let binding = FormBinding {
        ops: ops(&[]),
        sizes: sizes(&[]),
        masks: 0,
        f64s: 0,
        fields: fields(&[
            (field::OPSEL, idx("OPSEL")),
            (field::OPSEL_HI, idx("ABS")),
            (field::NEG, idx("NEG")),
        ]),
        variant: variant::VOP3P,
        t16: 0,
        unsupported: "",
    };
    assert_eq!(binding.fields[field::NEG_HI], NONE);
    let run = |opsel: u64, hi: u64, neg: u64, k: usize| {
        let mut i = ins;
        assert!(i.set_field(idx("OPSEL") as usize, opsel));
        assert!(i.set_field(idx("ABS") as usize, hi));
        assert!(i.set_field(idx("NEG") as usize, neg));
        let d = isa_runtime::exec::Decoded::new(i);
        let mut v = [0xaaaa_5555u32; isa_runtime::exec::MAX_LANES];
        isa_runtime::semantics::vop3p_src(&d, &binding, k, &mut v);
        v[0]
    };
    // Default (lo from lo, hi from hi): unchanged.
    assert_eq!(run(0, 0b111, 0, 0), 0xaaaa_5555);
    // OPSEL bit: the low half comes from the high half.
    assert_eq!(run(0b001, 0b111, 0, 0), 0xaaaa_aaaa);
    // OPSEL_HI bit clear: the high half comes from the low half.
    assert_eq!(run(0, 0b101, 0, 1), 0x5555_5555);
    // Both swapped.
    assert_eq!(run(0b010, 0b101, 0, 1), 0x5555_aaaa);
    // NEG flips the low half's sign bit (source 2 here).
    assert_eq!(run(0, 0b111, 0b100, 2), 0xaaaa_d555);
    // The selects of other sources do not matter.
    assert_eq!(run(0b110, 0b001, 0b110, 0), 0xaaaa_5555);
}

/// `ds_bpermute_fi_b32` also reads inactive lanes (AMD's rdna4 and cdna5 specs).
#[test]
fn ds_bpermute_fi_reads_inactive_lanes() {
    for (spec, t) in with("ds_bpermute_fi_b32") {
        let mut w = wave(spec);
        set_v(&mut w, 1, &[0, 0, 12, 4]);
        set_v(&mut w, 2, &[0xa, 0xb, 0xc, 0xd]);
        set_v(&mut w, 3, &[1, 2, 3, 4]);
        w.exec = 0b1010;
        run_ok(spec, &t, "ds_bpermute_fi_b32 v3, v1, v2", &mut w);
        assert_eq!(get_v(&w, 3)[..4], [1, 0xa, 3, 0xb], "{}", spec.generation);
    }
}
