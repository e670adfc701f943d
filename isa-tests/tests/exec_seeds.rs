//! More cases of the seed instructions on the generated executors, beyond the seed
//! examples themselves (those are in `isa-runtime/tests/exec_gen_seed.rs`): every lane
//! outside EXEC, the instruction offset and address wrap-around of `ds_bpermute_b32`, the
//! wave64 halves on CDNA, `v_msad_u8` under a partial EXEC and with its accumulator as
//! destination, sums carrying past 16 bits, and `s_wqm_b64` in place.
//!
//! Each runs on the fixture specs and, when AMD's XML is present, on every AMD spec that has
//! the instruction (the others print that they were skipped and why). On AMD's specs an
//! executor that reports itself unsupported is a skip too, with its reason; on the fixtures it
//! is a failure.

#[allow(dead_code)]
#[path = "../../isa-runtime/src/bin/amdisa/launch.rs"]
mod launch;

use isa_runtime::exec::{Decoded, ExecError, FlatMemory, Flow, Lds, Wave};
use isa_runtime::{assemble_instruction, IsaSpec};

/// `(label, spec, is_fixture)` for every spec to try.
fn all_specs() -> Vec<(String, &'static IsaSpec, bool)> {
    let mut v: Vec<_> = isa_runtime::fixtures::specs()
        .into_iter()
        .map(|s| (format!("fixture {}", s.generation), s, true))
        .collect();
    if isa_gen::specdir::real_xml_dir().is_some() {
        v.extend(
            isa_runtime::specs()
                .into_iter()
                .map(|s| (format!("AMD {}", s.generation), s, false)),
        );
    } else {
        eprintln!("AMD's XML is absent: the seeds run on the fixture specs only");
    }
    v
}

/// One instruction ready to run: its decoded form and executor.
struct Single {
    decoded: Decoded,
    exec: isa_runtime::exec::ExecFn,
}

impl Single {
    fn run(&self, w: &mut Wave) -> Result<Flow, ExecError> {
        let mut mem = FlatMemory::new();
        let mut lds = Lds::new(64 * 1024);
        (self.exec)(w, &self.decoded, &mut mem, &mut lds)
    }
}

/// Assembles `text` on `spec` and finds its generated executor, or says why not.
fn single(spec: &'static IsaSpec, text: &str) -> Result<Single, String> {
    let mnemonic = text.split_whitespace().next().unwrap();
    if spec.instruction_by_name(mnemonic).is_none() {
        return Err(format!("the spec lacks {}", mnemonic.to_ascii_uppercase()));
    }
    let ins = assemble_instruction(spec, text)
        .unwrap_or_else(|e| panic!("{}: `{text}` does not assemble: {e}", spec.generation));
    let table = launch::executor_table(spec).unwrap_or_else(|e| panic!("{e}"));
    let exec = table
        .get(&ins)
        .ok_or_else(|| format!("no executor for {mnemonic}"))?;
    Ok(Single {
        decoded: Decoded::new(ins),
        exec,
    })
}

/// Runs `check` on every spec; returns how many specs passed.
fn for_every_spec(
    what: &str,
    text: &str,
    check: impl Fn(&'static IsaSpec, &Single) -> Result<(), ExecError>,
) -> usize {
    let (mut passed, mut skipped) = (0, 0);
    for (label, spec, fixture) in all_specs() {
        let outcome = single(spec, text).and_then(|s| {
            check(spec, &s).map_err(|e| match e {
                ExecError::Unsupported { .. } if !fixture => format!("executor: {e}"),
                e => panic!("{what} on {label}: {e}"),
            })
        });
        match outcome {
            Ok(()) => {
                passed += 1;
                eprintln!("{what} on {label}: passed");
            }
            Err(reason) => {
                skipped += 1;
                eprintln!("{what} on {label}: skipped: {reason}");
                assert!(
                    !fixture || reason.starts_with("the spec lacks"),
                    "{what} on {label} may not be skipped: {reason}"
                );
            }
        }
    }
    eprintln!("{what}: {passed} passed, {skipped} skipped");
    passed
}

fn fresh_wave(spec: &IsaSpec) -> Wave {
    Wave::new(spec.wave64, 16, 0)
}

// ---------------------------------------------------------------------------------------------
// ds_bpermute_b32

const A: u32 = 0xaaaa_0001;
const B: u32 = 0xbbbb_0002;
const C: u32 = 0xcccc_0003;
const D: u32 = 0xdddd_0004;
const OLD: [u32; 4] = [0x01d0, 0x01d1, 0x01d2, 0x01d3];

/// v0 = old destination values, v1 = byte addresses, v2 = data, for lanes 0-3 as in the
/// issue; the other lanes read themselves and hold their own lane number as data.
fn bpermute_wave(spec: &IsaSpec, exec: u64) -> Wave {
    let mut w = fresh_wave(spec);
    for lane in 0..w.lanes() {
        let (old, addr, data) = match lane {
            0..=3 => (OLD[lane], [0, 0, 12, 4][lane], [A, B, C, D][lane]),
            l => (0x0100 + l as u32, 4 * l as u32, l as u32),
        };
        w.write_vgpr(0, lane, old).unwrap();
        w.write_vgpr(1, lane, addr).unwrap();
        w.write_vgpr(2, lane, data).unwrap();
    }
    w.exec = exec & w.lane_mask();
    w
}

fn lanes_0_to_3(w: &Wave) -> [u32; 4] {
    std::array::from_fn(|l| w.read_vgpr(0, l).unwrap())
}

#[test]
fn ds_bpermute_b32_leaves_every_lane_outside_exec_alone() {
    let passed = for_every_spec(
        "ds_bpermute_b32",
        "ds_bpermute_b32 v0, v1, v2",
        |spec, s| {
            // The seed case EXEC = 0b1010, looking at every lane: lanes 0 and 2 and all lanes past 3
            // keep their old values; lane 1 reads inactive lane 0 (0), lane 3 reads lane 1 (B).
            let mut w = bpermute_wave(spec, 0b1010);
            s.run(&mut w)?;
            assert_eq!(
                lanes_0_to_3(&w),
                [OLD[0], 0, OLD[2], B],
                "{}",
                spec.generation
            );
            for lane in 4..w.lanes() {
                assert_eq!(
                    w.read_vgpr(0, lane).unwrap(),
                    0x0100 + lane as u32,
                    "{}: lane {lane} is outside EXEC",
                    spec.generation
                );
            }

            // Only the lane bits of the address count: past the last lane it wraps, and high
            // bits are ignored.
            let mut w = bpermute_wave(spec, u64::MAX);
            let lanes = w.lanes() as u32;
            w.write_vgpr(1, 0, 4 * (lanes + 2)).unwrap();
            // (A positive address: RDNA's pseudocode reads the sum as a signed integer.)
            w.write_vgpr(1, 1, 0x7fff_0000 + 12).unwrap();
            s.run(&mut w)?;
            assert_eq!(
                lanes_0_to_3(&w)[..2],
                [C, D],
                "{}: wrapped addresses",
                spec.generation
            );
            Ok(())
        },
    );
    assert!(passed >= 3, "the fixtures all hold ds_bpermute_b32");
}

/// On CDNA in wave64 a lane reads any of the 64 lanes (the address is taken modulo 64).
#[test]
fn ds_bpermute_b32_crosses_wave64_halves_on_cdna() {
    let ran = std::cell::Cell::new(0);
    for_every_spec(
        "ds_bpermute_b32 wave64",
        "ds_bpermute_b32 v0, v1, v2",
        |spec, s| {
            // CDNA 1-4 (CDNA 5 is not a GFX9 design).
            if !(spec.wave64 && spec.generation.starts_with("cdna") && spec.generation != "cdna5") {
                return Ok(());
            }
            ran.set(ran.get() + 1);
            let mut w = bpermute_wave(spec, u64::MAX);
            w.write_vgpr(1, 40, 4 * 3).unwrap(); // lane 40 reads lane 3
            w.write_vgpr(1, 3, 4 * 60).unwrap(); // lane 3 reads lane 60
            s.run(&mut w)?;
            assert_eq!(w.read_vgpr(0, 40).unwrap(), D, "{}", spec.generation);
            assert_eq!(w.read_vgpr(0, 3).unwrap(), 60, "{}", spec.generation);
            Ok(())
        },
    );
    assert!(ran.get() >= 1, "the cdna3 fixture runs wave64");
}

#[test]
fn ds_bpermute_b32_adds_the_instruction_offset() {
    let passed = for_every_spec(
        "ds_bpermute_b32 offset",
        "ds_bpermute_b32 v0, v1, v2 offset:4",
        |spec, s| {
            // Addresses {0, 0, 12, 4} + 4 read lanes {1, 1, 4, 2}; lane 4 holds 4 as data.
            let mut w = bpermute_wave(spec, u64::MAX);
            s.run(&mut w)?;
            assert_eq!(lanes_0_to_3(&w), [B, B, 4, C], "{}", spec.generation);
            Ok(())
        },
    );
    assert!(passed >= 3);
}

// ---------------------------------------------------------------------------------------------
// v_msad_u8

/// The sum of |a - b| over the bytes where b is not zero, added to acc (32-bit, wrapping).
fn msad_reference(a: u32, b: u32, acc: u32) -> u32 {
    (0..4).fold(acc, |t, i| {
        let (x, y) = ((a >> (8 * i)) & 0xff, (b >> (8 * i)) & 0xff);
        if y == 0 {
            t
        } else {
            t.wrapping_add(x.abs_diff(y))
        }
    })
}

fn splitmix(state: &mut u64) -> u64 {
    launch::splitmix(state)
}

/// Hand-worked sums (one carries past 16 bits) and random lanes with zero bytes, under a
/// partial EXEC.
#[test]
fn v_msad_u8_carries_past_16_bits_under_partial_exec() {
    // (S0, S1, S2, result) worked out by hand.
    let cases: [(u32, u32, u32, u32); 6] = [
        // |1-4| + |2-3| + |3-2| + |4-1|
        (0x0102_0304, 0x0403_0201, 0, 8),
        // bytes 1 and 3 of S1 are zero and skipped: 2 * |0 - 0xff|
        (0xff00_ff00, 0x00ff_00ff, 5, 5 + 510),
        // S1 = 0: nothing added
        (0x1234_5678, 0, 77, 77),
        // the sum carries past 16 bits: 0xffff + 4 * 255
        (0, 0xffff_ffff, 0xffff, 0x1_03fb),
        // and wraps at 32 bits
        (0, 1, 0xffff_ffff, 0),
        // equal bytes add nothing
        (0x8080_8080, 0x8080_8080, 3, 3),
    ];
    for (a, b, c, r) in cases {
        assert_eq!(
            msad_reference(a, b, c),
            r,
            "reference on {a:#x} {b:#x} {c:#x}"
        );
    }
    let passed = for_every_spec("v_msad_u8", "v_msad_u8 v3, v0, v1, v2", |spec, s| {
        let mut w = fresh_wave(spec);
        let lanes = w.lanes();
        let mut state = 0x6d5a_d000;
        let mut inputs = Vec::new();
        for lane in 0..lanes {
            let (a, b, c) = match cases.get(lane) {
                Some(&(a, b, c, _)) => (a, b, c),
                None => {
                    // Random bytes, some of them zero so the skip rule is exercised.
                    let r = splitmix(&mut state);
                    let zero_mask = (0..4)
                        .filter(|i| r >> (40 + i) & 1 == 1)
                        .fold(0u32, |m, i| m | 0xff << (8 * i));
                    (
                        r as u32,
                        (r >> 32) as u32 & !zero_mask,
                        splitmix(&mut state) as u32,
                    )
                }
            };
            w.write_vgpr(0, lane, a).unwrap();
            w.write_vgpr(1, lane, b).unwrap();
            w.write_vgpr(2, lane, c).unwrap();
            w.write_vgpr(3, lane, 0x5eed).unwrap();
            inputs.push((a, b, c));
        }
        // The last lane is inactive and keeps its old value.
        w.exec = w.lane_mask() >> 1;
        s.run(&mut w)?;
        for (lane, &(a, b, c)) in inputs.iter().enumerate() {
            let expect = if lane == lanes - 1 {
                0x5eed
            } else {
                msad_reference(a, b, c)
            };
            assert_eq!(
                w.read_vgpr(3, lane).unwrap(),
                expect,
                "{} lane {lane}: v_msad_u8({a:#x}, {b:#x}, {c:#x})",
                spec.generation
            );
        }
        Ok(())
    });
    assert!(passed >= 3);
}

/// The accumulator register is also the destination; a VGPR and an SGPR source.
#[test]
fn v_msad_u8_accumulates_in_place() {
    let passed = for_every_spec(
        "v_msad_u8 in place",
        "v_msad_u8 v2, v0, s4, v2",
        |spec, s| {
            let mut w = fresh_wave(spec);
            let lanes = w.lanes();
            w.write_sgpr(4, 0x00ff_0180).unwrap();
            for lane in 0..lanes {
                w.write_vgpr(0, lane, 0x1020_3040u32.wrapping_mul(lane as u32 + 1))
                    .unwrap();
                w.write_vgpr(2, lane, 0xfff0 + lane as u32).unwrap();
            }
            s.run(&mut w)?;
            for lane in 0..lanes {
                let a = 0x1020_3040u32.wrapping_mul(lane as u32 + 1);
                assert_eq!(
                    w.read_vgpr(2, lane).unwrap(),
                    msad_reference(a, 0x00ff_0180, 0xfff0 + lane as u32),
                    "{} lane {lane}",
                    spec.generation
                );
            }
            Ok(())
        },
    );
    assert!(passed >= 3);
}

// ---------------------------------------------------------------------------------------------
// s_wqm_b64

/// Each group of four bits becomes 1111 when any bit in it is set.
fn wqm_reference(x: u64) -> u64 {
    (0..16).fold(0, |r, q| {
        if x >> (4 * q) & 0xf != 0 {
            r | 0xf << (4 * q)
        } else {
            r
        }
    })
}

/// Random sparse masks against the reference, SCC from the opposite value, the source left
/// as it was, and the instruction in place (source = destination).
#[test]
fn s_wqm_b64_fills_quads_and_sets_scc() {
    let cases: [(u64, u64); 6] = [
        (0, 0),
        (1, 0xf),
        (0x8000_0000_0000_0000, 0xf000_0000_0000_0000),
        (0x0123_4567_89ab_cdef, 0x0fff_ffff_ffff_ffff),
        (0x0000_0100_0000_0010, 0x0000_0f00_0000_00f0),
        (0x1111_0000_2222_0000, 0xffff_0000_ffff_0000),
    ];
    for (x, r) in cases {
        assert_eq!(wqm_reference(x), r);
    }
    let passed = for_every_spec("s_wqm_b64", "s_wqm_b64 s[4:5], s[6:7]", |spec, s| {
        let mut state = 0x0077_0077;
        let random: Vec<u64> = (0..64)
            .map(|_| {
                // Sparse values, so that some quads are empty.
                splitmix(&mut state) & splitmix(&mut state) & splitmix(&mut state)
            })
            .collect();
        for x in cases.iter().map(|c| c.0).chain(random) {
            let mut w = fresh_wave(spec);
            w.write_sgpr_pair(6, x).unwrap();
            w.write_sgpr_pair(4, 0x5555).unwrap();
            let expect = wqm_reference(x);
            // SCC starts as the opposite of what the instruction must leave.
            w.scc = expect == 0;
            s.run(&mut w)?;
            assert_eq!(
                w.read_sgpr_pair(4).unwrap(),
                expect,
                "{}: s_wqm_b64 of {x:#x}",
                spec.generation
            );
            assert_eq!(w.scc, expect != 0, "{}: SCC for {x:#x}", spec.generation);
            assert_eq!(w.read_sgpr_pair(6).unwrap(), x, "the source is unchanged");
        }
        Ok(())
    });
    assert!(passed >= 3);
    let passed = for_every_spec(
        "s_wqm_b64 in place",
        "s_wqm_b64 s[6:7], s[6:7]",
        |spec, s| {
            let mut w = fresh_wave(spec);
            w.write_sgpr_pair(6, 0x0100_0000_0000_8001).unwrap();
            s.run(&mut w)?;
            assert_eq!(
                w.read_sgpr_pair(6).unwrap(),
                0x0f00_0000_0000_f00f,
                "{}",
                spec.generation
            );
            assert!(w.scc);
            Ok(())
        },
    );
    assert!(passed >= 3);
}
