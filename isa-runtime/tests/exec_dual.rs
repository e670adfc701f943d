//! Dual-issue (VOPD) execution: both halves read their sources before either writes, each
//! half doing what its single-issue instruction does. Values are computed here per lane.
//! Runs on AMD's RDNA 3 and RDNA 4 specs when they hold V_DUAL_* instructions.
#![allow(clippy::needless_range_loop)]

use isa_runtime::asm::dual::assemble_dual;
use isa_runtime::exec::{dual, FlatMemory, Lds, Wave};
use isa_runtime::IsaSpec;

fn specs_with(names: &[&str]) -> Vec<&'static IsaSpec> {
    let v: Vec<_> = isa_runtime::specs()
        .into_iter()
        .filter(|s| names.iter().all(|n| s.instruction_by_name(n).is_some()))
        .filter(|s| !s.dual_halves.is_empty())
        .collect();
    if v.is_empty() {
        eprintln!("skipped: no spec compiled in has {names:?} as dual-issue halves");
    }
    v
}

/// Runs one pair on a 32-lane wave prepared by `init`.
fn run(spec: &'static IsaSpec, text: &str, init: impl Fn(&mut Wave)) -> Wave {
    let table = isa_runtime::semantics::table(spec).expect("executors for the spec");
    let d = assemble_dual(spec, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    let halves = dual::bind(&table, &d).unwrap_or_else(|e| panic!("{text}: {e}"));
    let mut wave = Wave::new(false, 16, 0);
    wave.exec = 0xffff_ffff;
    init(&mut wave);
    let mut mem = FlatMemory::new();
    let mut lds = Lds::new(0);
    dual::execute(&mut wave, &halves, &mut mem, &mut lds).unwrap();
    wave
}

#[test]
fn y_reads_the_register_x_writes_before_the_write() {
    for spec in specs_with(&["V_DUAL_MOV_B32", "V_MOV_B32"]) {
        // X writes v0, which Y reads: Y must see v0's old value.
        let w = run(
            spec,
            "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v0",
            |w| {
                for l in 0..32 {
                    w.vgpr_lanes_mut(0).unwrap()[l] = l as u32 * 3;
                    w.vgpr_lanes_mut(1).unwrap()[l] = l as u32 + 100;
                }
            },
        );
        for l in 0..32 {
            assert_eq!(
                w.vgpr_lanes(0).unwrap()[l],
                l as u32 + 100,
                "{} v0",
                spec.generation
            );
            assert_eq!(
                w.vgpr_lanes(3).unwrap()[l],
                l as u32 * 3,
                "{} v3",
                spec.generation
            );
        }
        // The shared literal feeds both halves.
        let w = run(
            spec,
            "v_dual_mov_b32 v0, 0x12345 :: v_dual_mov_b32 v1, 0x12345",
            |_| {},
        );
        for l in 0..32 {
            assert_eq!(w.vgpr_lanes(0).unwrap()[l], 0x12345);
            assert_eq!(w.vgpr_lanes(1).unwrap()[l], 0x12345);
        }
    }
}

#[test]
fn cndmask_half_selects_by_vcc_and_exec_masks_lanes() {
    for spec in specs_with(&["V_DUAL_CNDMASK_B32", "V_CNDMASK_B32"]) {
        let vcc: u64 = 0xa5a5_0ff0;
        let exec: u64 = 0x7fff_fffe;
        // X: v2 = vcc ? v1 : v4; Y reads v2 before X writes it.
        let w = run(
            spec,
            "v_dual_cndmask_b32 v2, v4, v1 :: v_dual_mov_b32 v5, v2",
            |w| {
                w.vcc = vcc;
                w.exec = exec;
                for l in 0..32 {
                    w.vgpr_lanes_mut(1).unwrap()[l] = 1000 + l as u32;
                    w.vgpr_lanes_mut(2).unwrap()[l] = 7 * l as u32;
                    w.vgpr_lanes_mut(4).unwrap()[l] = 2000 + l as u32;
                    w.vgpr_lanes_mut(5).unwrap()[l] = 0xdead;
                }
            },
        );
        for l in 0..32 {
            let active = exec >> l & 1 == 1;
            let x = if !active {
                7 * l as u32
            } else if vcc >> l & 1 == 1 {
                1000 + l as u32
            } else {
                2000 + l as u32
            };
            let y = if active { 7 * l as u32 } else { 0xdead };
            assert_eq!(
                w.vgpr_lanes(2).unwrap()[l],
                x,
                "{} lane {l} v2",
                spec.generation
            );
            assert_eq!(
                w.vgpr_lanes(5).unwrap()[l],
                y,
                "{} lane {l} v5",
                spec.generation
            );
        }
    }
}

#[test]
fn a_program_runs_dual_words_in_sequence() {
    for spec in specs_with(&["V_DUAL_MOV_B32", "V_MOV_B32", "S_ENDPGM"]) {
        let text = "v_dual_mov_b32 v0, 0x4321 :: v_dual_mov_b32 v3, v0\n\
                    v_dual_mov_b32 v2, v0 :: v_dual_mov_b32 v1, v3\n\
                    s_endpgm\n";
        let (lines, errors) = isa_runtime::assemble_listing(spec, text);
        assert!(errors.is_empty(), "{errors:?}");
        let code: Vec<u8> = lines.iter().flat_map(|l| l.bytes.clone()).collect();
        assert_eq!(code.len(), 12 + 8 + 4);
        let table = isa_runtime::semantics::table(spec).unwrap();
        let program = isa_runtime::exec::Program::load(spec, &code, 0x1000, &table);
        let mut wave = Wave::new(false, 8, 0);
        wave.exec = 0xffff_ffff;
        wave.pc = 0x1000;
        for l in 0..32 {
            wave.vgpr_lanes_mut(0).unwrap()[l] = l as u32;
        }
        let mut mem = FlatMemory::new();
        let mut lds = Lds::new(0);
        let flow = program
            .run_wave(&mut wave, &mut mem, &mut lds, 100)
            .unwrap();
        assert_eq!(flow, isa_runtime::exec::Flow::EndProgram);
        assert_eq!(wave.steps, 3);
        for l in 0..32 {
            // First word: v0 = 0x4321, v3 = old v0 = l. Second: v2 = 0x4321, v1 = old v3 = l.
            assert_eq!(wave.vgpr_lanes(0).unwrap()[l], 0x4321);
            assert_eq!(wave.vgpr_lanes(3).unwrap()[l], l as u32);
            assert_eq!(wave.vgpr_lanes(2).unwrap()[l], 0x4321);
            assert_eq!(wave.vgpr_lanes(1).unwrap()[l], l as u32);
        }
    }
}
