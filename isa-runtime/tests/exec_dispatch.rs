//! The dispatch driver end to end on the fixture specs, with the hand-written test executors
//! of `exec_support`. Run with `cargo test -p isa-runtime --features fixtures`.
#![cfg(feature = "fixtures")]

mod exec_support;

use exec_support::{table, Asm, Val};
use isa_runtime::exec::dispatch::{init_wave, DispatchConfig, Program, ScratchSetup, WorkitemIds};
use isa_runtime::exec::memory::{MemErrorKind, Segment};
use isa_runtime::exec::{
    dispatch, Decoded, ExecError, ExecutorTable, FlatMemory, Flow, Lds, Memory, MemoryExt, Wave,
};
use isa_runtime::IsaSpec;

const CODE_BASE: u64 = 0x7000_0000;

fn fixture(generation: &str) -> &'static IsaSpec {
    isa_runtime::fixtures::specs()
        .into_iter()
        .find(|s| s.generation == generation)
        .expect("fixture spec")
}

fn simm16_to(a: &Asm, target: usize) -> Val {
    Val::Raw(((target as i64 - (a.here() as i64 + 4)) / 4) as i16 as u16 as u64)
}

/// `out[wg * 64 + x] = in[wg * 64 + x] + 15` (15 from a 5-iteration scalar loop adding 3),
/// for workgroups of `wg_size` work-items, RDNA3 (wave32).
fn rdna3_kernel(spec: &'static IsaSpec) -> Vec<u8> {
    let (sop1, sop2, sopc, sopp, smem, vop2, glb) = (
        ["ENC_SOP1"],
        ["ENC_SOP2"],
        ["ENC_SOPC"],
        ["ENC_SOPP"],
        ["ENC_SMEM"],
        ["ENC_VOP2"],
        ["ENC_FLAT_GLOBAL"],
    );
    let mut a = Asm::new(spec);
    a.op(
        "s_load_b64",
        &smem,
        &[
            ("SDATA", Val::S(6)),
            ("SBASE", Val::S(0)),
            ("SOFFSET", Val::N("NULL")),
            ("OFFSET", Val::Raw(0)),
        ],
    )
    .op(
        "s_load_b64",
        &smem,
        &[
            ("SDATA", Val::S(8)),
            ("SBASE", Val::S(0)),
            ("SOFFSET", Val::N("NULL")),
            ("OFFSET", Val::Raw(8)),
        ],
    )
    .op(
        "s_mov_b32",
        &sop1,
        &[("SDST", Val::S(10)), ("SSRC0", Val::I(5))],
    )
    .op(
        "s_mov_b32",
        &sop1,
        &[("SDST", Val::S(11)), ("SSRC0", Val::I(0))],
    );
    let top = a.here();
    a.op(
        "s_add_u32",
        &sop2,
        &[
            ("SDST", Val::S(11)),
            ("SSRC0", Val::S(11)),
            ("SSRC1", Val::I(3)),
        ],
    )
    .op(
        "s_sub_u32",
        &sop2,
        &[
            ("SDST", Val::S(10)),
            ("SSRC0", Val::S(10)),
            ("SSRC1", Val::I(1)),
        ],
    )
    .op(
        "s_cmp_lg_u32",
        &sopc,
        &[("SSRC0", Val::S(10)), ("SSRC1", Val::I(0))],
    );
    let back = simm16_to(&a, top);
    a.op("s_cbranch_scc1", &sopp, &[("SIMM16", back)])
        .op(
            "s_lshl_b32",
            &sop2,
            &[
                ("SDST", Val::S(12)),
                ("SSRC0", Val::S(2)),
                ("SSRC1", Val::I(6)),
            ],
        )
        .op(
            "v_add_nc_u32",
            &vop2,
            &[
                ("VDST", Val::V(1)),
                ("SRC0", Val::S(12)),
                ("VSRC1", Val::V(0)),
            ],
        )
        .op(
            "v_lshlrev_b32",
            &vop2,
            &[
                ("VDST", Val::V(2)),
                ("SRC0", Val::I(2)),
                ("VSRC1", Val::V(1)),
            ],
        )
        .op(
            "global_load_b32",
            &glb,
            &[
                ("VDST", Val::V(3)),
                ("ADDR", Val::V(2)),
                ("SADDR", Val::S(6)),
                ("OFFSET", Val::Raw(0)),
            ],
        )
        .op(
            "v_add_nc_u32",
            &vop2,
            &[
                ("VDST", Val::V(3)),
                ("SRC0", Val::S(11)),
                ("VSRC1", Val::V(3)),
            ],
        )
        .op(
            "global_store_b32",
            &glb,
            &[
                ("ADDR", Val::V(2)),
                ("DATA", Val::V(3)),
                ("SADDR", Val::S(8)),
                ("OFFSET", Val::Raw(0)),
            ],
        )
        .op("s_endpgm", &sopp, &[]);
    a.bytes
}

struct Setup {
    mem: FlatMemory,
    input: u64,
    output: u64,
    kernarg: u64,
}

fn buffers(n: usize, input_len: usize) -> Setup {
    let mut mem = FlatMemory::new();
    let input = mem.alloc_dwords(&(0..input_len as u32).map(|i| 1000 + i).collect::<Vec<_>>());
    let output = mem.alloc_dwords(&vec![0xdead_beef; n]);
    let mut args = Vec::new();
    args.extend_from_slice(&input.to_le_bytes());
    args.extend_from_slice(&output.to_le_bytes());
    let kernarg = mem.alloc_read_only(&args, 256);
    Setup {
        mem,
        input,
        output,
        kernarg,
    }
}

#[test]
fn rdna3_kernel_runs_over_a_grid_with_a_partial_wave() {
    let spec = fixture("rdna3");
    let code = rdna3_kernel(spec);
    let program = Program::load(spec, &code, CODE_BASE, &table(spec));
    let mut s = buffers(3 * 64, 3 * 64);
    // 48 work-items per group: one full wave32 and one with 16 lanes; ids 48..63 of each
    // 64-slot block are never written.
    let cfg = DispatchConfig::new(spec, [3, 1, 1], [48, 1, 1], s.kernarg);
    assert_eq!(
        (cfg.wave64, cfg.waves_per_group(), cfg.workitem_ids),
        (false, 2, WorkitemIds::Packed)
    );
    let stats = dispatch(&program, &cfg, &mut s.mem).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((stats.workgroups, stats.waves), (3, 6));
    // 4 + 5 × 4 + 7 instructions per wave.
    assert_eq!(stats.instructions, 6 * 31);
    let out = s.mem.dwords(s.output, 3 * 64).unwrap();
    for (i, v) in out.iter().enumerate() {
        let expect = if i % 64 < 48 {
            1000 + i as u32 + 15
        } else {
            0xdead_beef
        };
        assert_eq!(*v, expect, "out[{i}]");
    }
    let _ = s.input;
}

#[test]
fn initial_wave_state_follows_the_abi_subset() {
    let spec = fixture("rdna3");
    let program = Program::load(spec, &rdna3_kernel(spec), CODE_BASE, &table(spec));
    let mut cfg = DispatchConfig::new(spec, [4, 5, 6], [8, 4, 2], 0x1234_5678_9abc);
    cfg.scratch = Some(ScratchSetup {
        base: 0x9000_0000,
        per_lane: 64,
    });
    let w = init_wave(&cfg, &program, [3, 4, 5], 1);
    assert_eq!((w.sgpr[0], w.sgpr[1]), (0x5678_9abc, 0x1234));
    assert_eq!(&w.sgpr[2..5], &[3, 4, 5]);
    assert_eq!(w.pc, CODE_BASE);
    // Wave 1 holds flat ids 32..63: (x, y, z) = (flat % 8, flat / 8 % 4, flat / 32).
    let v0 = w.vgpr_lanes(0).unwrap();
    assert_eq!(v0[0], 1 << 20, "flat 32 = (0, 0, 1)");
    assert_eq!(v0[13], 5 | 1 << 10 | 1 << 20, "flat 45 = (5, 1, 1)");
    assert_eq!(w.exec, 0xffff_ffff);
    assert_eq!(w.scratch.base, 0x9000_0000 + 64 * 32);
    assert_eq!(cfg.scratch_bytes(), 64 * 32 * 2);
    // Separate ids and a partial wave.
    cfg.workitem_ids = WorkitemIds::Separate;
    cfg.workgroup_size = [5, 3, 1];
    let w = init_wave(&cfg, &program, [0, 0, 0], 0);
    assert_eq!(w.exec, (1 << 15) - 1);
    assert_eq!(
        (w.read_vgpr(0, 7).unwrap(), w.read_vgpr(1, 7).unwrap()),
        (2, 1)
    );
    // Fewer workgroup-id SGPRs.
    cfg.workgroup_id_sgprs = 1;
    let w = init_wave(&cfg, &program, [7, 8, 9], 0);
    assert_eq!(&w.sgpr[2..5], &[7, 0, 0]);
}

#[test]
fn out_of_range_access_is_an_error_with_lane_and_address() {
    let spec = fixture("rdna3");
    let program = Program::load(spec, &rdna3_kernel(spec), CODE_BASE, &table(spec));
    // The input holds 20 dwords: lane 20 of wave 0 reads past its end.
    let mut s = buffers(64, 20);
    let cfg = DispatchConfig::new(spec, [1, 1, 1], [32, 1, 1], s.kernarg);
    let e = dispatch(&program, &cfg, &mut s.mem).unwrap_err();
    assert_eq!((e.workgroup, e.wave), ([0, 0, 0], 0));
    assert!(
        e.instruction
            .as_deref()
            .is_some_and(|t| t.starts_with("global_load")),
        "{e}"
    );
    match &e.error {
        ExecError::Memory { fault, lane } => {
            assert_eq!(*lane, Some(20));
            assert_eq!(
                (fault.segment, fault.addr, fault.size, fault.write),
                (Segment::Global, s.input + 80, 4, false)
            );
            assert_eq!(
                fault.kind,
                MemErrorKind::Unmapped,
                "the guard gap after the input"
            );
        }
        other => panic!("{other:?}"),
    }
    let text = e.to_string();
    assert!(
        text.contains("lane 20") && text.contains("global read of 4 bytes"),
        "{text}"
    );
    // Nothing was stored: the wave failed before its store.
    assert_eq!(s.mem.read_u32(s.output).unwrap(), 0xdead_beef);
}

#[test]
fn driver_errors_name_the_place() {
    let spec = fixture("rdna3");
    let sopp = ["ENC_SOPP"];
    // A missing executor.
    let mut t = ExecutorTable::new(spec);
    t.set("s_endpgm", |_, _, _, _| Ok(Flow::EndProgram))
        .unwrap();
    assert_eq!(t.len(), 1);
    let program = Program::load(spec, &rdna3_kernel(spec), CODE_BASE, &t);
    let mut s = buffers(32, 32);
    let cfg = DispatchConfig::new(spec, [1, 1, 1], [32, 1, 1], s.kernarg);
    let e = dispatch(&program, &cfg, &mut s.mem).unwrap_err();
    assert_eq!(
        e.error,
        ExecError::NoExecutor {
            mnemonic: "s_load_b64".into()
        }
    );
    assert_eq!(e.pc, CODE_BASE);
    assert!(t.set("v_frobnicate", |_, _, _, _| Ok(Flow::Next)).is_err());
    // A table built by a name match, as generated code does.
    let generated = ExecutorTable::from_fn(spec, |info| match info.name {
        "S_ENDPGM" | "S_NOP" => {
            Some(|_: &mut Wave, _: &Decoded, _: &mut dyn Memory, _: &mut Lds| Ok(Flow::EndProgram))
        }
        _ => None,
    });
    assert_eq!(generated.len(), 2);

    // A branch out of the code object.
    let mut a = Asm::new(spec);
    a.op("s_branch", &sopp, &[("SIMM16", Val::Raw(100))]);
    let program = Program::load(spec, &a.bytes, CODE_BASE, &table(spec));
    let e = dispatch(&program, &cfg, &mut s.mem).unwrap_err();
    assert_eq!(
        e.error,
        ExecError::PcOutOfRange {
            pc: CODE_BASE + 4 + 400
        }
    );

    // An endless loop stops at the step limit.
    let mut a = Asm::new(spec);
    a.op("s_branch", &sopp, &[("SIMM16", Val::Raw(0xffff))]);
    let program = Program::load(spec, &a.bytes, CODE_BASE, &table(spec));
    let mut cfg2 = cfg.clone();
    cfg2.max_steps_per_wave = 1000;
    let e = dispatch(&program, &cfg2, &mut s.mem).unwrap_err();
    assert_eq!(e.error, ExecError::StepLimit { steps: 1000 });
    assert!(e
        .instruction
        .as_deref()
        .is_some_and(|t| t.starts_with("s_branch")));

    // Undecodable bytes are reported only when executed.
    let mut code = Asm::new(spec);
    code.op("s_endpgm", &sopp, &[]);
    let mut bytes = code.bytes.clone();
    bytes.extend_from_slice(&[0xff; 4]);
    let program = Program::load(spec, &bytes, CODE_BASE, &table(spec));
    assert!(dispatch(&program, &cfg, &mut s.mem).is_ok());
    let mut a = Asm::new(spec);
    a.op("s_branch", &sopp, &[("SIMM16", Val::Raw(0))]);
    let mut bytes = a.bytes.clone();
    bytes.extend_from_slice(&[0xff; 4]);
    let program = Program::load(spec, &bytes, CODE_BASE, &table(spec));
    let e = dispatch(&program, &cfg, &mut s.mem).unwrap_err();
    assert!(
        matches!(e.error, ExecError::Decode { pc, .. } if pc == CODE_BASE + 4),
        "{e}"
    );
}

// Barriers: test-only executors give three otherwise idle instructions new meanings.
fn store_wave_id(
    w: &mut Wave,
    _: &Decoded,
    _: &mut dyn Memory,
    lds: &mut Lds,
) -> Result<Flow, ExecError> {
    lds.write_u32(4 * w.wave_in_group as u64, w.wave_in_group + 1)?;
    Ok(Flow::Next)
}
fn barrier(_: &mut Wave, _: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> Result<Flow, ExecError> {
    Ok(Flow::Barrier)
}
fn report_other_wave(
    w: &mut Wave,
    _: &Decoded,
    mem: &mut dyn Memory,
    lds: &mut Lds,
) -> Result<Flow, ExecError> {
    let other = 1 - w.wave_in_group;
    let seen = lds.read_u32(4 * other as u64)?;
    let out = w.read_sgpr_pair(0)?; // the kernarg pointer is the output here
    mem.write_u32(out + 4 * w.wave_in_group as u64, seen)?;
    Ok(Flow::Next)
}

fn run_barrier_kernel(with_barrier: bool) -> Vec<u32> {
    let spec = fixture("rdna3");
    let any = ["ENC_SOPP", "ENC_SOPK", "ENC_SOP1"];
    let mut a = Asm::new(spec);
    a.op("s_version", &any, &[])
        .op("s_nop", &any, &[])
        .op("s_wait_idle", &any, &[])
        .op("s_endpgm", &any, &[]);
    let mut t = ExecutorTable::new(spec);
    t.set("s_version", store_wave_id).unwrap();
    t.set(
        "s_nop",
        if with_barrier {
            barrier
        } else {
            |_: &mut Wave, _: &Decoded, _: &mut dyn Memory, _: &mut Lds| Ok(Flow::Next)
        },
    )
    .unwrap();
    t.set("s_wait_idle", report_other_wave).unwrap();
    t.set("s_endpgm", |_, _, _, _| Ok(Flow::EndProgram))
        .unwrap();
    let program = Program::load(spec, &a.bytes, CODE_BASE, &t);
    let mut mem = FlatMemory::new();
    let out = mem.alloc_dwords(&[0, 0]);
    let cfg = DispatchConfig::new(spec, [1, 1, 1], [64, 1, 1], out);
    dispatch(&program, &cfg, &mut mem).unwrap_or_else(|e| panic!("{e}"));
    mem.dwords(out, 2).unwrap()
}

#[test]
fn barriers_order_the_waves_of_a_workgroup() {
    // With the barrier each wave sees the other's store; without it wave 0 runs to the end
    // before wave 1 has stored anything.
    assert_eq!(run_barrier_kernel(true), vec![2, 1]);
    assert_eq!(run_barrier_kernel(false), vec![0, 1]);
}

#[test]
fn cdna3_wave64_kernel() {
    let spec = fixture("cdna3");
    let (sop1, sopp, smem, vop2, vop1, glb) = (
        ["ENC_SOP1"],
        ["ENC_SOPP"],
        ["ENC_SMEM"],
        ["ENC_VOP2"],
        ["ENC_VOP1"],
        ["ENC_FLAT_GLBL"],
    );
    // out[x] = x + 7 via v_mov/v_add/v_lshlrev and a 64-bit-address global store.
    let mut a = Asm::new(spec);
    a.op(
        "s_load_dwordx2",
        &smem,
        &[
            ("SDATA", Val::S(6)),
            ("SBASE", Val::S(0)),
            ("OFFSET", Val::Raw(8)),
            ("IMM", Val::Raw(1)),
        ],
    )
    .op(
        "s_mov_b32",
        &sop1,
        &[("SDST", Val::S(4)), ("SSRC0", Val::I(7))],
    )
    .op(
        "v_mov_b32",
        &vop1,
        &[("VDST", Val::V(5)), ("SRC0", Val::S(4))],
    )
    .op(
        "v_add_u32",
        &vop2,
        &[
            ("VDST", Val::V(1)),
            ("SRC0", Val::V(5)),
            ("VSRC1", Val::V(0)),
        ],
    )
    .op(
        "v_lshlrev_b32",
        &vop2,
        &[
            ("VDST", Val::V(2)),
            ("SRC0", Val::I(2)),
            ("VSRC1", Val::V(0)),
        ],
    )
    .op(
        "v_mov_b32",
        &vop1,
        &[("VDST", Val::V(4)), ("SRC0", Val::S(7))],
    )
    .op(
        "v_add_u32",
        &vop2,
        &[
            ("VDST", Val::V(3)),
            ("SRC0", Val::S(6)),
            ("VSRC1", Val::V(2)),
        ],
    )
    .op(
        "global_store_dword",
        &glb,
        &[
            ("ADDR", Val::V(3)),
            ("DATA", Val::V(1)),
            ("SADDR", Val::Raw(0x7f)),
            ("OFFSET", Val::Raw(0)),
        ],
    )
    .op("s_endpgm", &sopp, &[]);
    let program = Program::load(spec, &a.bytes, CODE_BASE, &table(spec));
    let mut s = buffers(64, 64);
    let cfg = DispatchConfig::new(spec, [1, 1, 1], [64, 1, 1], s.kernarg);
    assert!(cfg.wave64 && cfg.num_agprs == 256);
    // The store's 64-bit address is v[3:4]: v3 = low dword + offset, v4 = s7 (no carry: the
    // output is 256-byte aligned).
    dispatch(&program, &cfg, &mut s.mem).unwrap_or_else(|e| panic!("{e}"));
    let out = s.mem.dwords(s.output, 64).unwrap();
    assert_eq!(out, (0..64).map(|x| x + 7).collect::<Vec<u32>>());
}

#[test]
fn parallel_dispatch_gives_the_serial_memory_and_counts() {
    use isa_runtime::exec::parallel::dispatch_parallel;
    let spec = fixture("rdna3");
    let code = rdna3_kernel(spec);
    let program = Program::load(spec, &code, CODE_BASE, &table(spec));
    let groups = 40;
    let s = buffers(groups * 64, groups * 64);
    let cfg = DispatchConfig::new(spec, [groups as u32, 1, 1], [48, 1, 1], s.kernarg);
    let mut serial = s.mem.clone();
    let want = dispatch(&program, &cfg, &mut serial).unwrap_or_else(|e| panic!("{e}"));
    for threads in [1, 2, 5] {
        let mut mem = s.mem.clone();
        let (stats, watched) =
            dispatch_parallel(&program, &cfg, &mut mem, threads, Some(([7, 0, 0], 1)))
                .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stats, want, "{threads} threads");
        assert_eq!(
            mem.dwords(s.output, groups * 64).unwrap(),
            serial.dwords(s.output, groups * 64).unwrap(),
            "{threads} threads"
        );
        let w = watched.expect("wave 1 of group 7");
        assert_eq!((w.workgroup_id, w.wave_in_group), ([7, 0, 0], 1));
    }
}

#[test]
fn parallel_dispatch_reports_the_first_failing_workgroup() {
    use isa_runtime::exec::parallel::dispatch_parallel;
    let spec = fixture("rdna3");
    let code = rdna3_kernel(spec);
    let program = Program::load(spec, &code, CODE_BASE, &table(spec));
    // The output holds 10 groups' worth: groups 10.. write out of bounds.
    let s = buffers(10 * 64, 40 * 64);
    let cfg = DispatchConfig::new(spec, [40, 1, 1], [64, 1, 1], s.kernarg);
    for threads in [1, 4] {
        let mut mem = s.mem.clone();
        let e = dispatch_parallel(&program, &cfg, &mut mem, threads, None).unwrap_err();
        assert_eq!(e.workgroup, [10, 0, 0], "{threads} threads: {e}");
    }
}

#[test]
fn shared_memory_makes_atomic_sections_indivisible() {
    use isa_runtime::exec::parallel::SharedMemory;
    let mut flat = FlatMemory::new();
    let counter = flat.alloc_dwords(&[0, 0]);
    let shared = SharedMemory::from_flat(&flat);
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                let mut h = shared.handle();
                for _ in 0..2000 {
                    // A read-modify-write as the generated atomics do it.
                    h.begin_atomic();
                    let v = h.read_u32(counter).unwrap();
                    h.write_u32(counter, v + 1).unwrap();
                    h.end_atomic();
                    // A plain store to the other word (no ordering, but no tearing).
                    h.write_u32(counter + 4, 0x1234_5678).unwrap();
                }
            });
        }
    });
    shared.write_back(&mut flat);
    assert_eq!(flat.dwords(counter, 2).unwrap(), vec![8000, 0x1234_5678]);
    // Faults are reported as by FlatMemory (past the end, and straddling it).
    let h = shared.handle();
    for addr in [counter + 8, counter + 6] {
        assert_eq!(
            h.read_u32(addr).unwrap_err(),
            flat.read_u32(addr).unwrap_err()
        );
    }
}
