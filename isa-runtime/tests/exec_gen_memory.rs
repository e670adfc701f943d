//! Generated memory executors against values computed here: every DS instruction that
//! returns more than 32 bits (two-address loads, wide loads, 64-bit returning atomics) on
//! every spec that has it, and buffer loads, stores and atomics through the buffer resource
//! (addressing, range checks). Specs without these instructions (the fixtures, the partial
//! excerpts) print what they skip.
//! Run with `cargo test -p isa-runtime --features fixtures --test exec_gen_memory`.
#![cfg(feature = "fixtures")]
#![allow(clippy::needless_range_loop)]

mod exec_gen_support;

use exec_gen_support::*;
use isa_runtime::exec::{ExecError, ExecutorTable, FlatMemory, Lds, Wave};
use isa_runtime::IsaSpec;

// ---------------------------------------------------------------------------------------------
// DS: instructions returning more than 32 bits

/// What a DS instruction does, in terms the test computes on its own copy of LDS.
#[derive(Clone, Copy, Debug)]
enum DsKind {
    /// Two loads of `elem` bytes at ADDR + OFFSETn × elem × stride.
    Read2 { elem: u32, stride: u32 },
    /// One load of `dwords` dwords at ADDR + OFFSET.
    Read { dwords: u32 },
    /// A 64-bit atomic at ADDR + OFFSET returning the old value; `new(old, data, data2)`.
    Atomic64 {
        new: fn(u64, u64, u64) -> u64,
        data2: bool,
    },
    /// Two exchanges of `elem` bytes at ADDR + OFFSETn × elem × stride, returning both old
    /// values.
    Xchg2 { elem: u32, stride: u32 },
    /// Two 32-bit conditional exchanges at (ADDR + OFFSET) & !7 and 4 bytes on: each dword's
    /// bit 31 of DATA asks for the store of its low 31 bits.
    CondXchg32,
}

fn f(x: u64) -> f64 {
    f64::from_bits(x)
}

/// The models, by every name a generation gives the instruction.
fn ds_model(name: &str) -> Option<DsKind> {
    use DsKind::*;
    let a = |new: fn(u64, u64, u64) -> u64| Atomic64 { new, data2: false };
    let a2 = |new: fn(u64, u64, u64) -> u64| Atomic64 { new, data2: true };
    Some(match name {
        "DS_READ2_B32" | "DS_LOAD_2ADDR_B32" => Read2 { elem: 4, stride: 1 },
        "DS_READ2ST64_B32" | "DS_LOAD_2ADDR_STRIDE64_B32" => Read2 {
            elem: 4,
            stride: 64,
        },
        "DS_READ2_B64" | "DS_LOAD_2ADDR_B64" => Read2 { elem: 8, stride: 1 },
        "DS_READ2ST64_B64" | "DS_LOAD_2ADDR_STRIDE64_B64" => Read2 {
            elem: 8,
            stride: 64,
        },
        "DS_READ_B64" | "DS_LOAD_B64" => Read { dwords: 2 },
        "DS_READ_B96" | "DS_LOAD_B96" => Read { dwords: 3 },
        "DS_READ_B128" | "DS_LOAD_B128" => Read { dwords: 4 },
        "DS_ADD_RTN_U64" => a(|m, d, _| m.wrapping_add(d)),
        "DS_SUB_RTN_U64" => a(|m, d, _| m.wrapping_sub(d)),
        "DS_RSUB_RTN_U64" => a(|m, d, _| d.wrapping_sub(m)),
        "DS_INC_RTN_U64" => a(|m, d, _| if m >= d { 0 } else { m + 1 }),
        "DS_DEC_RTN_U64" => a(|m, d, _| if m == 0 || m > d { d } else { m - 1 }),
        "DS_MIN_RTN_I64" => a(|m, d, _| (m as i64).min(d as i64) as u64),
        "DS_MAX_RTN_I64" => a(|m, d, _| (m as i64).max(d as i64) as u64),
        "DS_MIN_RTN_U64" => a(|m, d, _| m.min(d)),
        "DS_MAX_RTN_U64" => a(|m, d, _| m.max(d)),
        "DS_AND_RTN_B64" => a(|m, d, _| m & d),
        "DS_OR_RTN_B64" => a(|m, d, _| m | d),
        "DS_XOR_RTN_B64" => a(|m, d, _| m ^ d),
        "DS_MSKOR_RTN_B64" => a2(|m, mask, or| (m & !mask) | or),
        "DS_WRXCHG_RTN_B64" | "DS_STOREXCHG_RTN_B64" => a(|_, d, _| d),
        "DS_CMPST_RTN_B64" => a2(|m, cmp, src| if m == cmp { src } else { m }),
        "DS_CMPSTORE_RTN_B64" => a2(|m, src, cmp| if m == cmp { src } else { m }),
        "DS_CMPST_RTN_F64" => a2(|m, cmp, src| if f(m) == f(cmp) { src } else { m }),
        "DS_MIN_RTN_F64" => a(|m, d, _| if f(d) < f(m) { d } else { m }),
        "DS_MAX_RTN_F64" => a(|m, d, _| if f(d) > f(m) { d } else { m }),
        "DS_ADD_RTN_F64" => a(|m, d, _| (f(m) + f(d)).to_bits()),
        "DS_WRXCHG2_RTN_B32" | "DS_STOREXCHG_2ADDR_RTN_B32" => Xchg2 { elem: 4, stride: 1 },
        "DS_WRXCHG2ST64_RTN_B32" | "DS_STOREXCHG_2ADDR_STRIDE64_RTN_B32" => Xchg2 {
            elem: 4,
            stride: 64,
        },
        "DS_WRXCHG2_RTN_B64" | "DS_STOREXCHG_2ADDR_RTN_B64" => Xchg2 { elem: 8, stride: 1 },
        "DS_WRXCHG2ST64_RTN_B64" | "DS_STOREXCHG_2ADDR_STRIDE64_RTN_B64" => Xchg2 {
            elem: 8,
            stride: 64,
        },
        "DS_CONDXCHG32_RTN_B64" => CondXchg32,
        _ => return None,
    })
}

/// The instruction's returned data in bits (its VDST operand's size), when it is a DS
/// instruction returning more than 32.
fn ds_return_bits(spec: &IsaSpec, i: usize) -> Option<u32> {
    let ins = &spec.instructions[i];
    let form = &spec.forms[*ins.forms.first()? as usize];
    if !matches!(
        spec.encodings[form.encoding as usize].name,
        "ENC_DS" | "ENC_VDS"
    ) {
        return None;
    }
    let enc = &spec.encodings[form.encoding as usize];
    form.operands
        .iter()
        .find(|o| {
            o.output
                && o.field
                    .is_some_and(|f| enc.fields[f as usize].name == "VDST")
        })
        .map(|o| o.size as u32)
        .filter(|&s| s > 32)
}

struct Host {
    lds: Vec<u8>,
}

impl Host {
    fn rd(&self, a: u32, n: u32) -> u64 {
        let mut v = 0u64;
        for k in (0..n).rev() {
            v = v << 8 | self.lds[(a + k) as usize] as u64;
        }
        v
    }
    fn wr(&mut self, a: u32, n: u32, v: u64) {
        for k in 0..n {
            self.lds[(a + k) as usize] = (v >> (8 * k)) as u8;
        }
    }
}

/// Runs one DS instruction on every lane of a wave and compares the returned registers and
/// LDS with the model.
fn check_ds(spec: &'static IsaSpec, t: &ExecutorTable, name: &str, bits: u32, kind: DsKind) {
    let mn = spec.instructions[spec.instruction_by_name(name).unwrap()]
        .mnemonic
        .to_ascii_lowercase();
    let dwords = bits / 32;
    let dst = format!("v[10:{}]", 10 + dwords - 1);
    let (off0, off1, offset) = (3u32, 17u32, 40u32);
    let float = name.ends_with("F64");
    let mut rng = Rng(0x5eed ^ bits as u64 ^ name.len() as u64);
    let mut w = Wave::new(spec.wave64, 32, 0);
    let n = w.lanes();
    let mut host = Host {
        lds: (0..64 * 1024).map(|_| rng.u32() as u8).collect(),
    };
    // Lanes 72 bytes apart (8-aligned): the two addresses of a lane are 14 × 4, 14 × 8,
    // 14 × 256 or 14 × 512 bytes apart, never within 8 bytes of a multiple of 72, so no two
    // lanes write the same bytes.
    let addr = |lane: usize| (lane as u32) * 72 + 8;
    let mut data = vec![(0u64, 0u64); n];
    for lane in 0..n {
        let a = addr(lane) + offset;
        let (mut d0, mut d1) = (rng.next(), rng.next());
        if float {
            // Finite values, exactly representable sums of small multiples of 1/4.
            let v = |r: u64| ((r as i32 >> 8) as f64 * 0.25).to_bits();
            host.wr(a, 8, v(rng.next()));
            d0 = v(d0);
            d1 = v(d1);
        }
        // Edge cases: equal to memory (compares, inc/dec wrap), one below, zero.
        match lane % 4 {
            0 => d0 = host.rd(a, 8),
            1 => d0 = host.rd(a, 8).wrapping_sub(1),
            2 if !float => host.wr(a, 8, 0),
            _ => {}
        }
        data[lane] = (d0, d1);
        w.write_vgpr(1, lane, addr(lane)).unwrap();
        w.write_vgpr_b64(4, lane, d0).unwrap();
        w.write_vgpr_b64(6, lane, d1).unwrap();
    }
    let text = match kind {
        DsKind::Read2 { .. } => format!("{mn} {dst}, v1 offset0:{off0} offset1:{off1}"),
        DsKind::Read { .. } => format!("{mn} {dst}, v1 offset:{offset}"),
        DsKind::Atomic64 { data2: false, .. } | DsKind::CondXchg32 => {
            format!("{mn} {dst}, v1, v[4:5] offset:{offset}")
        }
        DsKind::Atomic64 { data2: true, .. } => {
            format!("{mn} {dst}, v1, v[4:5], v[6:7] offset:{offset}")
        }
        DsKind::Xchg2 { elem: 4, .. } => {
            format!("{mn} {dst}, v1, v4, v6 offset0:{off0} offset1:{off1}")
        }
        DsKind::Xchg2 { .. } => {
            format!("{mn} {dst}, v1, v[4:5], v[6:7] offset0:{off0} offset1:{off1}")
        }
    };
    let mut lds = Lds::new(64 * 1024);
    lds.write(0, &host.lds).unwrap();
    let mut mem = FlatMemory::new();
    run(spec, t, &text, &mut w, &mut mem, &mut lds)
        .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
    for lane in 0..n {
        let a = addr(lane);
        let (d0, d1) = data[lane];
        let ret: Vec<u64> = match kind {
            DsKind::Read2 { elem, stride } => {
                let x = host.rd(a + off0 * elem * stride, elem);
                let y = host.rd(a + off1 * elem * stride, elem);
                if elem == 4 {
                    vec![x, y]
                } else {
                    vec![x, x >> 32, y, y >> 32]
                }
            }
            DsKind::Read { dwords } => (0..dwords)
                .map(|k| host.rd(a + offset + 4 * k, 4))
                .collect(),
            DsKind::Atomic64 { new, .. } => {
                let old = host.rd(a + offset, 8);
                host.wr(a + offset, 8, new(old, d0, d1));
                vec![old, old >> 32]
            }
            DsKind::Xchg2 { elem, stride } => {
                let (p, q) = (a + off0 * elem * stride, a + off1 * elem * stride);
                let (x, y) = (host.rd(p, elem), host.rd(q, elem));
                host.wr(p, elem, d0);
                host.wr(q, elem, d1);
                if elem == 4 {
                    vec![x, y]
                } else {
                    vec![x, x >> 32, y, y >> 32]
                }
            }
            DsKind::CondXchg32 => {
                let p = (a + offset) & 0xfff8;
                let mut out = Vec::new();
                for (k, half) in [(0u32, d0 as u32), (1, (d0 >> 32) as u32)] {
                    out.push(host.rd(p + 4 * k, 4));
                    if half >> 31 != 0 {
                        host.wr(p + 4 * k, 4, (half & 0x7fff_ffff) as u64);
                    }
                }
                out
            }
        };
        let got: Vec<u32> = (0..dwords)
            .map(|k| w.read_vgpr(10 + k, lane).unwrap())
            .collect();
        let want: Vec<u32> = ret.iter().map(|&v| v as u32).collect();
        assert_eq!(
            got, want,
            "{} `{text}` lane {lane} (address {a:#x}, data {d0:#x} {d1:#x}): returned data",
            spec.generation
        );
    }
    assert!(
        lds.as_bytes() == &host.lds[..],
        "{} `{text}`: LDS differs from the model",
        spec.generation
    );
}

/// `ds_read2_b32 v[2:3], v1 offset1:32` writes both dwords (the second one used to be left
/// unchanged, so an LDS tree reduction added stale registers).
#[test]
fn ds_read2_b32_writes_both_dwords() {
    let mut ran = 0;
    for (spec, t, _) in specs() {
        let name = if spec.instruction_by_name("DS_READ2_B32").is_some() {
            "DS_READ2_B32"
        } else if spec.instruction_by_name("DS_LOAD_2ADDR_B32").is_some() {
            "DS_LOAD_2ADDR_B32"
        } else {
            println!("skipped: {} has no DS_READ2_B32", spec.generation);
            continue;
        };
        if !runs(spec, name) {
            println!("skipped: {}", why_not(spec, name));
            continue;
        }
        let mn = spec.instructions[spec.instruction_by_name(name).unwrap()]
            .mnemonic
            .to_ascii_lowercase();
        let mut w = wave(spec);
        let mut lds = Lds::new(4096);
        for k in 0..1024u32 {
            lds.write(4 * k as u64, &(1000 + k).to_le_bytes()).unwrap();
        }
        for lane in 0..w.lanes() {
            w.write_vgpr(1, lane, 4 * lane as u32).unwrap();
            w.write_vgpr(2, lane, 0xdead).unwrap();
            w.write_vgpr(3, lane, 0xbeef).unwrap();
        }
        let text = format!("{mn} v[2:3], v1 offset1:32");
        run(spec, &t, &text, &mut w, &mut FlatMemory::new(), &mut lds).unwrap();
        for lane in 0..w.lanes() {
            let l = lane as u32;
            assert_eq!(
                (w.read_vgpr(2, lane).unwrap(), w.read_vgpr(3, lane).unwrap()),
                (1000 + l, 1000 + l + 32),
                "{} `{text}` lane {lane}",
                spec.generation
            );
        }
        ran += 1;
    }
    println!("ds_read2_b32 ran on {ran} spec(s)");
}

#[test]
fn ds_returns_wider_than_32_bits_match_the_model() {
    for (spec, t, _) in specs() {
        let mut checked = Vec::new();
        for i in 0..spec.instructions.len() {
            let Some(bits) = ds_return_bits(spec, i) else {
                continue;
            };
            let name = spec.instructions[i].name;
            if name.contains("_TR_") {
                // CDNA 4's transposing loads spread a row over lanes: no model here yet.
                eprintln!("{}: {name} not checked (transposing load)", spec.generation);
                continue;
            }
            let kind = ds_model(name).unwrap_or_else(|| {
                panic!(
                    "{}: {name} returns {bits} bits and has no model in this test",
                    spec.generation
                )
            });
            if !runs(spec, name) {
                println!("skipped: {}", why_not(spec, name));
                continue;
            }
            check_ds(spec, &t, name, bits, kind);
            checked.push(name);
        }
        println!(
            "{}: {} DS instructions returning more than 32 bits checked: {}",
            spec.generation,
            checked.len(),
            checked.join(" ")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Buffer memory through the resource (GFX9 rules: the CDNA generations)

/// A buffer resource: base, stride, NUM_RECORDS, ADD_TID_ENABLE, SWIZZLE_ENABLE (GFX9
/// layout: stride in bits 61:48, swizzle bit 63, ADD_TID bit 119).
fn rsrc(base: u64, stride: u32, records: u32, add_tid: bool, swizzle: bool) -> [u32; 4] {
    [
        base as u32,
        (base >> 32) as u32 & 0xffff | stride << 16 | (swizzle as u32) << 31,
        records,
        (add_tid as u32) << 23,
    ]
}

fn set_rsrc(w: &mut Wave, first: u32, r: [u32; 4]) {
    for (k, v) in r.iter().enumerate() {
        w.write_sgpr(first + k as u32, *v).unwrap();
    }
}

/// CDNA specs that run `name`, with a skip line for the others.
fn gfx9_with(name: &str) -> Vec<(&'static IsaSpec, ExecutorTable)> {
    let mut v = Vec::new();
    for (spec, t, _) in specs() {
        let gfx9 = spec.generation.starts_with("cdna") && spec.generation != "cdna5";
        if spec.instruction_by_name(name).is_none() {
            continue;
        }
        if !gfx9 {
            println!(
                "skipped: {} {name}: the test's resources use GFX9's layout",
                spec.generation
            );
        } else if !runs(spec, name) {
            println!("skipped: {}", why_not(spec, name));
        } else {
            v.push((spec, t));
        }
    }
    if v.is_empty() {
        println!("skipped: no CDNA spec with {name} (AMD's complete files absent?)");
    }
    v
}

/// Runs a MUBUF instruction written `name vdata, vaddr|off, s[4:7], soffset [idxen] [offen]
/// [offset:N] [sc0|glc]`, built field by field (the assembler takes VADDR as the register
/// pair AMD's operand lists give it, where LLVM also takes one VGPR).
fn buf(
    spec: &'static IsaSpec,
    t: &ExecutorTable,
    text: &str,
    w: &mut Wave,
    mem: &mut FlatMemory,
) -> Result<isa_runtime::exec::Flow, ExecError> {
    let words: Vec<&str> = text.split([' ', ',']).filter(|x| !x.is_empty()).collect();
    let reg = |x: &str| -> u32 {
        x.trim_start_matches(['v', 's', '['])
            .split([':', ']'])
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("`{text}`: register {x}"))
    };
    let name = words[0].to_ascii_uppercase();
    let mut fields = vec![
        ("VDATA", F::V(reg(words[1]))),
        (
            "VADDR",
            F::V(if words[2] == "off" { 0 } else { reg(words[2]) }),
        ),
        ("SRSRC", F::S(reg(words[3]))),
        (
            "SOFFSET",
            if words[4].starts_with('s') {
                F::S(reg(words[4]))
            } else {
                F::Raw(128)
            },
        ),
    ];
    for m in &words[5..] {
        match *m {
            "idxen" => fields.push(("IDXEN", F::Raw(1))),
            "offen" => fields.push(("OFFEN", F::Raw(1))),
            "sc0" => fields.push(("SC0", F::Raw(1))),
            "glc" => fields.push(("GLC", F::Raw(1))),
            o => {
                let v = o.strip_prefix("offset:").and_then(|v| v.parse().ok());
                fields.push((
                    "OFFSET",
                    F::Raw(v.unwrap_or_else(|| panic!("`{text}`: {o}"))),
                ));
            }
        }
    }
    let d = build(spec, &name, "ENC_MUBUF", &fields);
    run_decoded(t, &d, w, mem, &mut Lds::new(16))
}

const RECORDS: u32 = 200;

/// Memory of 256 dwords `1000 + k` (more than the resource allows) and the wave.
fn buffer_setup(spec: &IsaSpec) -> (FlatMemory, u64, Wave) {
    let mut mem = FlatMemory::new();
    let base = mem.alloc_dwords(&(0..256).map(|k| 1000 + k).collect::<Vec<u32>>());
    let w = Wave::new(spec.wave64, 32, 0);
    (mem, base, w)
}

#[test]
fn buffer_raw_loads_check_each_dword_against_num_records() {
    for (spec, t) in gfx9_with("BUFFER_LOAD_DWORDX4") {
        let (mut mem, base, mut w) = buffer_setup(spec);
        set_rsrc(&mut w, 4, rsrc(base, 0, RECORDS, false, false));
        w.write_sgpr(8, 12).unwrap(); // SOFFSET: not part of the range check
        let n = w.lanes();
        for lane in 0..n {
            // Byte offsets around NUM_RECORDS: 180, 184, ... 180 + 4 × 15, then repeating.
            w.write_vgpr(1, lane, 172 + 4 * (lane as u32 % 16)).unwrap();
        }
        let text = "buffer_load_dwordx4 v[10:13], v1, s[4:7], s8 offen offset:8";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        for lane in 0..n {
            let off = 172 + 4 * (lane as u32 % 16) + 8;
            for k in 0..4u32 {
                let o = off + 4 * k;
                let want = if o < RECORDS { 1000 + (o + 12) / 4 } else { 0 };
                assert_eq!(
                    w.read_vgpr(10 + k, lane).unwrap(),
                    want,
                    "{} `{text}` lane {lane} dword {k} (offset {o})",
                    spec.generation
                );
            }
        }
        // The same with BUFFER_LOAD_DWORD and no OFFEN: every lane reads OFFSET + SOFFSET.
        let text = "buffer_load_dword v14, off, s[4:7], s8 offset:20";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        assert!((0..n).all(|l| w.read_vgpr(14, l).unwrap() == 1000 + 32 / 4));
    }
}

#[test]
fn buffer_structured_loads_check_the_index() {
    for (spec, t) in gfx9_with("BUFFER_LOAD_DWORD") {
        let (mut mem, base, mut w) = buffer_setup(spec);
        // Records of 16 bytes, 10 of them.
        set_rsrc(&mut w, 4, rsrc(base, 16, 10, false, false));
        let n = w.lanes();
        for lane in 0..n {
            w.write_vgpr(1, lane, lane as u32 % 13).unwrap(); // index
            w.write_vgpr(2, lane, 4 * (lane as u32 % 3)).unwrap(); // offset
        }
        let text = "buffer_load_dword v10, v[1:2], s[4:7], 0 idxen offen offset:4";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        for lane in 0..n {
            let (i, o) = (lane as u32 % 13, 4 * (lane as u32 % 3) + 4);
            let want = if i < 10 { 1000 + (16 * i + o) / 4 } else { 0 };
            assert_eq!(
                w.read_vgpr(10, lane).unwrap(),
                want,
                "{} `{text}` lane {lane}",
                spec.generation
            );
        }
        // ADD_TID_ENABLE: the lane number is the index (IDXEN off).
        set_rsrc(&mut w, 4, rsrc(base, 8, 20, true, false));
        let text = "buffer_load_dword v11, off, s[4:7], 0";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        for lane in 0..n {
            let want = if lane < 20 { 1000 + 2 * lane as u32 } else { 0 };
            assert_eq!(w.read_vgpr(11, lane).unwrap(), want, "add_tid lane {lane}");
        }
        // Swizzled resources are refused, not mis-addressed.
        set_rsrc(&mut w, 4, rsrc(base, 16, 10, false, true));
        let e = buf(spec, &t, text, &mut w, &mut mem);
        assert!(matches!(e, Err(ExecError::Unsupported { .. })), "{e:?}");
    }
}

#[test]
fn buffer_stores_and_atomics_out_of_range_change_nothing() {
    for (spec, t) in gfx9_with("BUFFER_STORE_DWORD") {
        let (mut mem, base, mut w) = buffer_setup(spec);
        set_rsrc(&mut w, 4, rsrc(base, 0, RECORDS, false, false));
        let n = w.lanes();
        for lane in 0..n {
            w.write_vgpr(1, lane, 4 * lane as u32 * 2).unwrap();
            w.write_vgpr(10, lane, 7000 + lane as u32).unwrap();
        }
        let text = "buffer_store_dword v10, v1, s[4:7], 0 offen";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        let got = mem.dwords(base, 256).unwrap();
        for k in 0..256u32 {
            let lane = k / 2;
            let want = if k % 2 == 0 && (lane as usize) < n && 4 * k < RECORDS {
                7000 + lane
            } else {
                1000 + k
            };
            assert_eq!(
                got[k as usize], want,
                "{} `{text}` dword {k}",
                spec.generation
            );
        }
        if !runs(spec, "BUFFER_ATOMIC_ADD") {
            println!("skipped: {}", why_not(spec, "BUFFER_ATOMIC_ADD"));
            continue;
        }
        // A returning add (SC0 on GFX940+, GLC before): in range adds and returns the old
        // value, out of range returns 0 and leaves memory alone.
        let before = mem.dwords(base, 256).unwrap();
        for lane in 0..n {
            w.write_vgpr(1, lane, 4 * (lane as u32 + 30)).unwrap();
            w.write_vgpr(10, lane, 5).unwrap();
        }
        let glc = if spec.generation == "cdna3" || spec.generation == "cdna4" {
            "sc0"
        } else {
            "glc"
        };
        let text = format!("buffer_atomic_add v10, v1, s[4:7], 0 offen {glc}");
        buf(spec, &t, &text, &mut w, &mut mem).unwrap();
        let after = mem.dwords(base, 256).unwrap();
        for lane in 0..n {
            let k = lane + 30;
            let inside = 4 * k < RECORDS as usize;
            let ret = w.read_vgpr(10, lane).unwrap();
            assert_eq!(
                ret,
                if inside { before[k] } else { 0 },
                "{text} lane {lane}"
            );
            let want = if inside { before[k] + 5 } else { before[k] };
            assert_eq!(after[k], want, "{text} memory at dword {k}");
        }
    }
}

/// Loads of two or more dwords write every dword (MUBUF's VDATA is both the data and the
/// destination; the second dword's write once kept the register's old first dword).
#[test]
fn buffer_wide_loads_write_every_dword() {
    for name in ["BUFFER_LOAD_DWORDX2", "BUFFER_LOAD_DWORDX3"] {
        for (spec, t) in gfx9_with(name) {
            let (mut mem, base, mut w) = buffer_setup(spec);
            set_rsrc(&mut w, 4, rsrc(base, 0, 1024, false, false));
            let k = if name.ends_with("X2") { 2 } else { 3 };
            for lane in 0..w.lanes() {
                w.write_vgpr(1, lane, 4 * lane as u32).unwrap();
                for r in 0..k {
                    w.write_vgpr(10 + r, lane, 0xdead).unwrap();
                }
            }
            let text = format!(
                "{} v[10:{}], v1, s[4:7], 0 offen",
                name.to_ascii_lowercase(),
                9 + k
            );
            buf(spec, &t, &text, &mut w, &mut mem).unwrap();
            for lane in 0..w.lanes() {
                for r in 0..k {
                    assert_eq!(
                        w.read_vgpr(10 + r, lane).unwrap(),
                        1000 + lane as u32 + r,
                        "{} `{text}` lane {lane} dword {r}",
                        spec.generation
                    );
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Typed buffer loads and stores (GFX9 data and number formats)

/// Dword 3 of a resource with DATA_FORMAT `dfmt` and NUM_FORMAT `nfmt`.
fn with_format(mut r: [u32; 4], dfmt: u32, nfmt: u32) -> [u32; 4] {
    r[3] |= dfmt << 15 | nfmt << 12;
    r
}

#[test]
fn buffer_format_loads_convert_each_channel() {
    for (spec, t) in gfx9_with("BUFFER_LOAD_FORMAT_XYZW") {
        let n = Wave::new(spec.wave64, 32, 0).lanes();
        // One 4-byte element per lane: bytes lane, 255 - lane, 0, 255.
        let bytes: Vec<u8> = (0..n)
            .flat_map(|l| [l as u8, 255 - l as u8, 0, 255])
            .collect();
        let mut mem = FlatMemory::new();
        let base = mem.alloc_bytes(&bytes, 256);
        let mut w = Wave::new(spec.wave64, 32, 0);
        for lane in 0..n {
            w.write_vgpr(1, lane, 4 * lane as u32).unwrap();
        }
        // 8_8_8_8 UNORM: each byte / 255.
        let records = 4 * (n as u32 - 2); // the last two lanes are out of range
        set_rsrc(
            &mut w,
            4,
            with_format(rsrc(base, 0, records, false, false), 10, 0),
        );
        let text = "buffer_load_format_xyzw v[10:13], v1, s[4:7], 0 offen";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        for lane in 0..n {
            let inside = lane < n - 2;
            let b = &bytes[4 * lane..4 * lane + 4];
            for k in 0..4 {
                let want = if inside { b[k] as f32 / 255.0 } else { 0.0 };
                let got = f32::from_bits(w.read_vgpr(10 + k as u32, lane).unwrap());
                assert_eq!(
                    got, want,
                    "{} `{text}` lane {lane} channel {k}",
                    spec.generation
                );
            }
        }
        // 16_16 SINT into four channels: X, Y sign-extended, Z = 0, W = 1.
        set_rsrc(
            &mut w,
            4,
            with_format(rsrc(base, 0, 1 << 20, false, false), 5, 5),
        );
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        for lane in 0..n {
            let b = &bytes[4 * lane..4 * lane + 4];
            let x = i16::from_le_bytes([b[0], b[1]]) as i32 as u32;
            let y = i16::from_le_bytes([b[2], b[3]]) as i32 as u32;
            let got: Vec<u32> = (10..14).map(|r| w.read_vgpr(r, lane).unwrap()).collect();
            assert_eq!(got, vec![x, y, 0, 1], "16_16 SINT lane {lane}");
        }
        // 10_11_11 FLOAT (X 11 bits, Y 11 bits, Z 10 bits, unsigned small floats): 1.0, 2.0,
        // 0.5 (exponent bias 15).
        let packed: u32 = (15 << 6) | (16 << 6) << 11 | (14 << 5) << 22;
        let p = mem.alloc_dwords(&vec![packed; n]);
        set_rsrc(
            &mut w,
            4,
            with_format(rsrc(p, 0, 1 << 20, false, false), 6, 7),
        );
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        let got: Vec<f32> = (10..14)
            .map(|r| f32::from_bits(w.read_vgpr(r, 0).unwrap()))
            .collect();
        assert_eq!(got, vec![1.0, 2.0, 0.5, 1.0], "10_11_11 FLOAT");
        // D16: 16_16 FLOAT halves packed two to a VGPR.
        if runs(spec, "BUFFER_LOAD_FORMAT_D16_XY") {
            set_rsrc(
                &mut w,
                4,
                with_format(rsrc(base, 0, 1 << 20, false, false), 5, 7),
            );
            let text = "buffer_load_format_d16_xy v14, v1, s[4:7], 0 offen";
            buf(spec, &t, text, &mut w, &mut mem).unwrap();
            for lane in 0..n {
                let b = &bytes[4 * lane..4 * lane + 4];
                assert_eq!(
                    w.read_vgpr(14, lane).unwrap(),
                    u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
                    "{text} lane {lane}"
                );
            }
        }
    }
}

#[test]
fn buffer_format_stores_clamp_and_round() {
    for (spec, t) in gfx9_with("BUFFER_STORE_FORMAT_XY") {
        let mut mem = FlatMemory::new();
        let n = Wave::new(spec.wave64, 32, 0).lanes();
        let base = mem.alloc_dwords(&vec![0xffff_ffff; n]);
        let mut w = Wave::new(spec.wave64, 32, 0);
        let xs = [0.5f32, 1.5, -1.0, 0.25, f32::NAN, 1.0 / 3.0];
        for lane in 0..n {
            w.write_vgpr(1, lane, 4 * lane as u32).unwrap();
            w.write_vgpr(10, lane, xs[lane % xs.len()].to_bits())
                .unwrap();
            w.write_vgpr(11, lane, xs[(lane + 1) % xs.len()].to_bits())
                .unwrap();
        }
        // 16_16 UNORM; the last lane is out of range and writes nothing.
        let records = 4 * (n as u32 - 1);
        set_rsrc(
            &mut w,
            4,
            with_format(rsrc(base, 0, records, false, false), 5, 0),
        );
        let text = "buffer_store_format_xy v[10:11], v1, s[4:7], 0 offen";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        let unorm16 = |x: f32| -> u32 {
            // Clamp to [0, 1] (NaN to 0), scale by 65535, round to nearest even.
            let c = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) } as f64 * 65535.0;
            let r = c.round();
            (if (c - c.floor() - 0.5).abs() < 1e-12 && r as u32 % 2 == 1 {
                r - 1.0
            } else {
                r
            }) as u32
        };
        let got = mem.dwords(base, n).unwrap();
        for lane in 0..n {
            let want = if lane < n - 1 {
                unorm16(xs[lane % xs.len()]) | unorm16(xs[(lane + 1) % xs.len()]) << 16
            } else {
                0xffff_ffff
            };
            assert_eq!(got[lane], want, "{} `{text}` lane {lane}", spec.generation);
        }
    }
}

#[test]
fn tbuffer_takes_the_format_from_the_instruction() {
    for (spec, t) in gfx9_with("TBUFFER_LOAD_FORMAT_XY") {
        let n = Wave::new(spec.wave64, 32, 0).lanes();
        let mut mem = FlatMemory::new();
        let vals: Vec<u32> = (0..2 * n as u32).map(|k| 0x3f80_0000 + k).collect();
        let base = mem.alloc_dwords(&vals);
        let mut w = Wave::new(spec.wave64, 32, 0);
        for lane in 0..n {
            w.write_vgpr(1, lane, 8 * lane as u32).unwrap();
        }
        // The resource says 8-bit UNORM; the instruction's 32_32 FLOAT wins.
        set_rsrc(
            &mut w,
            4,
            with_format(rsrc(base, 0, 1 << 20, false, false), 1, 0),
        );
        let d = build(
            spec,
            "TBUFFER_LOAD_FORMAT_XY",
            "ENC_MTBUF",
            &[
                ("VDATA", F::V(10)),
                ("VADDR", F::V(1)),
                ("SRSRC", F::S(4)),
                ("SOFFSET", F::Raw(128)),
                ("OFFEN", F::Raw(1)),
                ("DFMT", F::Raw(11)),
                ("NFMT", F::Raw(7)),
            ],
        );
        run_decoded(&t, &d, &mut w, &mut mem, &mut Lds::new(16)).unwrap();
        for lane in 0..n {
            let got = (
                w.read_vgpr(10, lane).unwrap(),
                w.read_vgpr(11, lane).unwrap(),
            );
            assert_eq!(
                got,
                (vals[2 * lane], vals[2 * lane + 1]),
                "{} lane {lane}",
                spec.generation
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scalar memory of every width

/// CDNA specs that run `name` (AMD's text names; RDNA spells these `s_load_b256` and is not
/// covered here).
fn cdna_with(name: &str) -> Vec<(&'static IsaSpec, ExecutorTable)> {
    let v: Vec<_> = specs()
        .into_iter()
        .filter(|(s, _, _)| {
            s.generation.starts_with("cdna") && s.instruction_by_name(name).is_some()
        })
        .filter(|(s, _, _)| {
            let ok = runs(s, name);
            if !ok {
                println!("skipped: {}", why_not(s, name));
            }
            ok
        })
        .map(|(s, t, _)| (s, t))
        .collect();
    if v.is_empty() {
        println!("skipped: no CDNA spec runs {name} (AMD's complete files absent?)");
    }
    v
}

#[test]
fn scalar_loads_of_every_width_fill_every_dword() {
    for (load, buffer) in [
        ("S_LOAD_DWORD", false),
        ("S_LOAD_DWORDX2", false),
        ("S_LOAD_DWORDX4", false),
        ("S_LOAD_DWORDX8", false),
        ("S_LOAD_DWORDX16", false),
        ("S_BUFFER_LOAD_DWORD", true),
        ("S_BUFFER_LOAD_DWORDX2", true),
        ("S_BUFFER_LOAD_DWORDX4", true),
        ("S_BUFFER_LOAD_DWORDX8", true),
        ("S_BUFFER_LOAD_DWORDX16", true),
    ] {
        for (spec, t) in cdna_with(load) {
            let k: u32 = match load.rsplit('X').next().and_then(|s| s.parse().ok()) {
                Some(k) if load.contains("DWORDX") => k,
                _ => 1,
            };
            let mut mem = FlatMemory::new();
            let base = mem.alloc_dwords(&(0..64).map(|i| 0x100 + i).collect::<Vec<u32>>());
            let mut w = Wave::new(spec.wave64, 32, 0);
            if buffer {
                // A resource with a stride and swizzle bit set: only the low 48 bits address.
                set_rsrc(&mut w, 4, rsrc(base, 16, 256, false, true));
            } else {
                w.write_sgpr_pair(4, base).unwrap();
            }
            let sbase = if buffer { "s[4:7]" } else { "s[4:5]" };
            let dst = if k == 1 {
                "s16".to_string()
            } else {
                format!("s[16:{}]", 16 + k - 1)
            };
            let text = format!("{} {dst}, {sbase}, 0x20", load.to_ascii_lowercase());
            run(spec, &t, &text, &mut w, &mut mem, &mut Lds::new(16))
                .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
            let got: Vec<u32> = (0..k).map(|i| w.read_sgpr(16 + i).unwrap()).collect();
            let want: Vec<u32> = (0..k).map(|i| 0x100 + 8 + i).collect();
            assert_eq!(got, want, "{} `{text}`", spec.generation);
        }
    }
}

#[test]
fn s_memtime_reads_the_wave_clock_and_v_clrexcp_clears_exceptions() {
    for (spec, t) in cdna_with("S_MEMTIME") {
        let mut w = Wave::new(spec.wave64, 32, 0);
        w.steps = 0x1_2345_6789;
        run_ok(spec, &t, "s_memtime s[8:9]", &mut w);
        assert_eq!(
            w.read_sgpr_pair(8).unwrap(),
            0x1_2345_6789,
            "{}",
            spec.generation
        );
    }
    for (spec, t) in cdna_with("V_CLREXCP") {
        let mut w = Wave::new(spec.wave64, 32, 0);
        w.trapsts = 0xffff;
        run_ok(spec, &t, "v_clrexcp", &mut w);
        assert_eq!(w.trapsts, 0xfe00, "{}", spec.generation);
    }
}
