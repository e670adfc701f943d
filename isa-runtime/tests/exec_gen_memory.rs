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
            "lds" => fields.push(("LDS", F::Raw(1))),
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
    }
}

/// A swizzled resource: ELEMENT_SIZE `2 << elem` bytes, INDEX_STRIDE `8 << istride` (GFX9
/// dword 3 bits 20:19 and 22:21).
fn swizzled(
    base: u64,
    stride: u32,
    records: u32,
    add_tid: bool,
    elem: u32,
    istride: u32,
) -> [u32; 4] {
    let mut r = rsrc(base, stride, records, add_tid, true);
    r[3] |= elem << 19 | istride << 21;
    r
}

/// The byte offset from the base (SOFFSET included) of byte `offset` of record `index` in a
/// swizzled buffer, computed as AMD's ISA guides give it: index and offset split at
/// INDEX_STRIDE and ELEMENT_SIZE.
fn swizzled_offset(index: u32, offset: u32, stride: u32, elem: u32, istride: u32) -> u32 {
    let (index_msb, index_lsb) = (index / istride, index % istride);
    let (offset_msb, offset_lsb) = (offset / elem, offset % elem);
    (index_msb * stride + offset_msb * elem) * istride + index_lsb * elem + offset_lsb
}

/// Swizzled buffers (GFX9 line): every dword of a load and a store lands where the swizzle
/// formula puts it, across element boundaries, with ADD_TID and the index range check.
#[test]
fn buffer_swizzled_addressing_interleaves_records() {
    for (spec, t) in gfx9_with("BUFFER_LOAD_DWORDX4") {
        let (mut mem, base, mut w) = buffer_setup(spec);
        let n = w.lanes();
        let soffset = 8u32;
        w.write_sgpr(8, soffset).unwrap();
        // (ELEMENT_SIZE field, INDEX_STRIDE field): 4-byte elements of 8 indices, and 8-byte
        // elements of 16 (a 4-dword load then spans two elements with a dword offset).
        for (ef, sf) in [(1u32, 0u32), (2, 1)] {
            let (elem, istride, stride, records) = (2 << ef, 8 << sf, 16u32, 20u32);
            set_rsrc(&mut w, 4, swizzled(base, stride, records, false, ef, sf));
            for lane in 0..n {
                w.write_vgpr(1, lane, lane as u32 % 24).unwrap(); // index
                w.write_vgpr(2, lane, 4 * (lane as u32 % 3)).unwrap(); // offset
                for r in 0..4 {
                    w.write_vgpr(10 + r, lane, 0xdead).unwrap();
                }
            }
            let text = "buffer_load_dwordx4 v[10:13], v[1:2], s[4:7], s8 idxen offen offset:4";
            buf(spec, &t, text, &mut w, &mut mem).unwrap();
            for lane in 0..n {
                let (i, o) = (lane as u32 % 24, 4 * (lane as u32 % 3) + 4);
                for k in 0..4u32 {
                    let at = soffset + swizzled_offset(i, o + 4 * k, stride, elem, istride);
                    let want = if i < records { 1000 + at / 4 } else { 0 };
                    assert_eq!(
                        w.read_vgpr(10 + k, lane).unwrap(),
                        want,
                        "{} `{text}` elem {elem} istride {istride} lane {lane} dword {k}",
                        spec.generation
                    );
                }
            }
        }
        // A store with ADD_TID_ENABLE (the lane is the index), 4-byte elements of 16
        // indices, records of 8 bytes, 40 of them: each lane's two dwords go to its own
        // interleaved places and nothing else changes.
        let (elem, istride, stride, records) = (4u32, 16u32, 8u32, 40u32);
        set_rsrc(&mut w, 4, swizzled(base, stride, records, true, 1, 1));
        for lane in 0..n {
            w.write_vgpr(20, lane, 5000 + lane as u32).unwrap();
            w.write_vgpr(21, lane, 6000 + lane as u32).unwrap();
        }
        let before = mem.dwords(base, 256).unwrap();
        let text = "buffer_store_dwordx2 v[20:21], off, s[4:7], 0";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        let mut want = before.clone();
        for lane in 0..(n as u32).min(records) {
            for k in 0..2 {
                let at = swizzled_offset(lane, 4 * k, stride, elem, istride);
                want[(at / 4) as usize] = [5000, 6000][k as usize] + lane;
            }
        }
        assert_eq!(
            mem.dwords(base, 256).unwrap(),
            want,
            "{} `{text}`",
            spec.generation
        );
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

/// A 64-bit atomic is one access: a lane whose second dword is past NUM_RECORDS changes
/// nothing and returns 0, even though its first dword is in range.
#[test]
fn buffer_atomics_check_the_whole_access() {
    for (spec, t) in gfx9_with("BUFFER_ATOMIC_ADD_X2") {
        let (mut mem, base, mut w) = buffer_setup(spec);
        let records = 8 * 10 + 4; // lane 10's access straddles the end
        set_rsrc(&mut w, 4, rsrc(base, 0, records, false, false));
        let n = w.lanes();
        for lane in 0..n {
            w.write_vgpr(1, lane, 8 * lane as u32).unwrap();
            w.write_vgpr(10, lane, 7).unwrap();
            w.write_vgpr(11, lane, 1).unwrap();
        }
        let before = mem.dwords(base, 256).unwrap();
        let glc = if spec.generation == "cdna3" || spec.generation == "cdna4" {
            "sc0"
        } else {
            "glc"
        };
        let text = format!("buffer_atomic_add_x2 v[10:11], v1, s[4:7], 0 offen {glc}");
        buf(spec, &t, &text, &mut w, &mut mem).unwrap();
        let after = mem.dwords(base, 256).unwrap();
        let q = |d: &[u32], k: usize| d[2 * k] as u64 | (d[2 * k + 1] as u64) << 32;
        for lane in 0..n.min(128) {
            let inside = 8 * lane as u32 + 8 <= records;
            let old = q(&before, lane);
            let ret = w.read_vgpr(10, lane).unwrap() as u64
                | (w.read_vgpr(11, lane).unwrap() as u64) << 32;
            assert_eq!(ret, if inside { old } else { 0 }, "{text} lane {lane}");
            let want = if inside { old + (1 << 32 | 7) } else { old };
            assert_eq!(q(&after, lane), want, "{text} memory of lane {lane}");
        }
    }
}

/// GFX9 counts NUM_RECORDS in records only when the access is indexed (IDXEN), in bytes
/// otherwise, whatever the stride: out-of-range loads give 0 and stores are dropped.
#[test]
fn buffer_gfx9_range_counts_records_only_when_indexed() {
    for (spec, t) in gfx9_with("BUFFER_STORE_DWORD") {
        let (mut mem, base, mut w) = buffer_setup(spec);
        let n = w.lanes();
        // A stride of 16 and NUM_RECORDS 40, addressed by offset alone: 40 bytes.
        set_rsrc(&mut w, 4, rsrc(base, 16, 40, false, false));
        for lane in 0..n {
            w.write_vgpr(1, lane, 4 * lane as u32).unwrap();
            w.write_vgpr(2, lane, lane as u32).unwrap();
            w.write_vgpr(12, lane, 9000 + lane as u32).unwrap();
        }
        let text = "buffer_load_dword v10, v1, s[4:7], 0 offen";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        for lane in 0..n {
            let want = if 4 * lane < 40 { 1000 + lane as u32 } else { 0 };
            assert_eq!(
                w.read_vgpr(10, lane).unwrap(),
                want,
                "{} `{text}` lane {lane}",
                spec.generation
            );
        }
        let text = "buffer_store_dword v12, v1, s[4:7], 0 offen";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        let got = mem.dwords(base, 256).unwrap();
        for k in 0..256usize {
            let want = if k < 10 {
                9000 + k as u32
            } else {
                1000 + k as u32
            };
            assert_eq!(got[k], want, "{} `{text}` dword {k}", spec.generation);
        }
        // Stride 0 with IDXEN: NUM_RECORDS 5 counts indices (every record at the base).
        set_rsrc(&mut w, 4, rsrc(base, 0, 5, false, false));
        let text = "buffer_load_dword v11, v2, s[4:7], 0 idxen offset:12";
        buf(spec, &t, text, &mut w, &mut mem).unwrap();
        for lane in 0..n {
            let want = if lane < 5 { got[3] } else { 0 };
            assert_eq!(
                w.read_vgpr(11, lane).unwrap(),
                want,
                "{} `{text}` lane {lane}",
                spec.generation
            );
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

/// Scalar buffer loads read 0 for the dwords past the resource's span (NUM_RECORDS bytes,
/// times the stride when it is nonzero; SOFFSET and OFFSET counted), and a 64-bit scalar
/// buffer atomic that does not fit changes nothing and returns 0.
#[test]
fn scalar_buffer_accesses_stay_in_the_resource() {
    for (spec, t) in cdna_with("S_BUFFER_LOAD_DWORDX8") {
        // (stride, NUM_RECORDS): 44 bytes as bytes, 40 bytes as 10 records of 4, and a span
        // ending inside a dword (42 bytes: that dword reads 0).
        for (stride, records) in [(0u32, 44u32), (4, 10), (0, 42)] {
            let mut mem = FlatMemory::new();
            let base = mem.alloc_dwords(&(0..64).map(|i| 0x100 + i).collect::<Vec<u32>>());
            let mut w = Wave::new(spec.wave64, 32, 0);
            set_rsrc(&mut w, 4, rsrc(base, stride, records, false, false));
            w.write_sgpr(2, 8).unwrap(); // SOFFSET 8: dwords from byte 0x18 + 8 = 32
            let text = "s_buffer_load_dwordx8 s[16:23], s[4:7], s2";
            let text2 = "s_buffer_load_dwordx8 s[16:23], s[4:7], 0x20";
            let span = records * stride.max(1);
            for (text, first) in [(text, 8u32), (text2, 32)] {
                for k in 0..8 {
                    w.write_sgpr(16 + k, 0xdead).unwrap();
                }
                run(spec, &t, text, &mut w, &mut mem, &mut Lds::new(16))
                    .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
                for k in 0..8u32 {
                    let at = first + 4 * k;
                    let want = if at + 4 <= span { 0x100 + at / 4 } else { 0 };
                    assert_eq!(
                        w.read_sgpr(16 + k).unwrap(),
                        want,
                        "{} `{text}` stride {stride} records {records} dword {k}",
                        spec.generation
                    );
                }
            }
        }
    }
    for (spec, t) in cdna_with("S_BUFFER_ATOMIC_ADD_X2") {
        // 36 bytes: a 64-bit access at 32 does not fit, one at 24 does.
        for (offset, fits) in [(0x20u32, false), (0x18, true)] {
            let mut mem = FlatMemory::new();
            let base = mem.alloc_dwords(&(0..16).map(|i| 0x100 + i).collect::<Vec<u32>>());
            let mut w = Wave::new(spec.wave64, 32, 0);
            set_rsrc(&mut w, 4, rsrc(base, 0, 36, false, false));
            w.write_sgpr(16, 5).unwrap();
            w.write_sgpr(17, 0).unwrap();
            let text = format!("s_buffer_atomic_add_x2 s[16:17], s[4:7], {offset:#x} glc");
            run(spec, &t, &text, &mut w, &mut mem, &mut Lds::new(16))
                .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
            let k = (offset / 4) as usize;
            let (lo, hi) = (0x100 + k as u32, 0x101 + k as u32);
            let got = mem.dwords(base, 16).unwrap();
            let ret = [w.read_sgpr(16).unwrap(), w.read_sgpr(17).unwrap()];
            if fits {
                assert_eq!(
                    (got[k], got[k + 1]),
                    (lo + 5, hi),
                    "{} `{text}`",
                    spec.generation
                );
                assert_eq!(ret, [lo, hi], "{} `{text}`: returned", spec.generation);
            } else {
                assert_eq!(got, (0..16).map(|i| 0x100 + i).collect::<Vec<u32>>());
                assert_eq!(ret, [0, 0], "{} `{text}`: returned", spec.generation);
            }
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

// ---------------------------------------------------------------------------------------------
// LDS-direct loads: memory straight into LDS at M0 + offset + lane x slot

/// (bytes read, sign-extended) of an LDS-direct load, from its size suffix.
fn lds_load_size(name: &str) -> (u32, bool) {
    match name.rsplit('_').next().unwrap() {
        "UBYTE" => (1, false),
        "SBYTE" => (1, true),
        "USHORT" => (2, false),
        "SSHORT" => (2, true),
        "DWORD" => (4, false),
        "DWORDX3" => (12, false),
        "DWORDX4" => (16, false),
        s => panic!("size {s}"),
    }
}

/// The LDS bytes lane data of `bytes` bytes (sign-extended or not) becomes: a dword for
/// the narrow loads, the data itself for the wide ones.
fn lds_slot_bytes(data: &[u8], signed: bool) -> Vec<u8> {
    let ext = |v: u32| v.to_le_bytes().to_vec();
    match (data.len(), signed) {
        (1, false) => ext(data[0] as u32),
        (1, true) => ext(data[0] as i8 as i32 as u32),
        (2, false) => ext(u16::from_le_bytes([data[0], data[1]]) as u32),
        (2, true) => ext(u16::from_le_bytes([data[0], data[1]]) as i16 as i32 as u32),
        _ => data.to_vec(),
    }
}

/// Checks LDS after an LDS-direct load: active lane `l` wrote `want(l)` at
/// `m0 + offset + l * slot`; every other byte keeps the fill `0xab`.
fn check_lds(
    lds: &Lds,
    n: usize,
    exec: u64,
    start: usize,
    want: &dyn Fn(usize) -> Vec<u8>,
    what: &str,
) {
    let bytes = lds.as_bytes();
    let mut expect = vec![0xabu8; bytes.len()];
    for lane in 0..n {
        if exec >> lane & 1 != 0 {
            let v = want(lane);
            let at = start + lane * v.len();
            expect[at..at + v.len()].copy_from_slice(&v);
        }
    }
    for (k, (g, e)) in bytes.iter().zip(&expect).enumerate() {
        assert_eq!(g, e, "{what}: LDS byte {k:#x}");
    }
}

fn filled_lds() -> Lds {
    let mut lds = Lds::new(4096);
    lds.write(0, &[0xab; 4096]).unwrap();
    lds
}

/// Memory bytes with sign bits on every other byte (so sign extension shows).
fn pattern(k: usize) -> u8 {
    (k * 37 + 0x81) as u8
}

#[test]
fn global_load_lds_writes_each_active_lane_slot_at_m0() {
    for name in [
        "GLOBAL_LOAD_LDS_UBYTE",
        "GLOBAL_LOAD_LDS_SBYTE",
        "GLOBAL_LOAD_LDS_USHORT",
        "GLOBAL_LOAD_LDS_SSHORT",
        "GLOBAL_LOAD_LDS_DWORD",
        "GLOBAL_LOAD_LDS_DWORDX3",
        "GLOBAL_LOAD_LDS_DWORDX4",
    ] {
        for (spec, t) in cdna_with(name) {
            let (bytes, signed) = lds_load_size(name);
            let mut mem = FlatMemory::new();
            let data: Vec<u8> = (0..2048).map(pattern).collect();
            let base = mem.alloc_bytes(&data, 256);
            let mut w = Wave::new(spec.wave64, 32, 0);
            let n = w.lanes();
            w.exec = 0xf0f0_f0f0_f0f0_f0f3 & w.lane_mask();
            w.m0 = 0x40;
            // Lane l reads 24 bytes apart, from base + 24 l + OFFSET (SADDR off: a 64-bit ADDR).
            for lane in 0..n {
                w.write_vgpr_b64(2, lane, base + 24 * lane as u64).unwrap();
            }
            let offset = 8u64;
            let d = build(
                spec,
                name,
                "ENC_FLAT_GLBL",
                &[
                    ("ADDR", F::V(2)),
                    ("SADDR", F::Raw(0x7f)),
                    ("OFFSET", F::Raw(offset)),
                ],
            );
            let mut lds = filled_lds();
            let before: Vec<u32> = (0..4).map(|r| w.read_vgpr(r, 0).unwrap()).collect();
            run_decoded(&t, &d, &mut w, &mut mem, &mut lds)
                .unwrap_or_else(|e| panic!("{} {name}: {e}", spec.generation));
            let slot = bytes.max(4) as usize;
            let want = |lane: usize| {
                let at = 24 * lane + offset as usize;
                let v = lds_slot_bytes(&data[at..at + bytes as usize], signed);
                assert_eq!(v.len(), slot);
                v
            };
            let what = format!("{} {name}", spec.generation);
            check_lds(&lds, n, w.exec, 0x40 + offset as usize, &want, &what);
            // No register is written.
            let after: Vec<u32> = (0..4).map(|r| w.read_vgpr(r, 0).unwrap()).collect();
            assert_eq!(before, after, "{what}: VGPRs");
        }
    }
}

#[test]
fn scratch_load_lds_reads_each_lane_private_memory() {
    use isa_runtime::exec::wave::ScratchInfo;
    for name in [
        "SCRATCH_LOAD_LDS_UBYTE",
        "SCRATCH_LOAD_LDS_SBYTE",
        "SCRATCH_LOAD_LDS_USHORT",
        "SCRATCH_LOAD_LDS_SSHORT",
        "SCRATCH_LOAD_LDS_DWORD",
    ] {
        for (spec, t) in cdna_with(name) {
            let (bytes, signed) = lds_load_size(name);
            let mut w = Wave::new(spec.wave64, 32, 0);
            let n = w.lanes();
            let per_lane = 64usize;
            let data: Vec<u8> = (0..n * per_lane).map(pattern).collect();
            let mut mem = FlatMemory::new();
            let base = mem.alloc_bytes(&data, 256);
            w.scratch = ScratchInfo {
                base,
                per_lane: per_lane as u64,
            };
            w.exec = 0x0ff0_0ff0_0ff0_0ff1 & w.lane_mask();
            w.m0 = 0x100;
            // Lane l reads its own offset 4 + (l % 5) (+ OFFSET 2).
            for lane in 0..n {
                w.write_vgpr(1, lane, 4 + (lane as u32 % 5)).unwrap();
            }
            let d = build(
                spec,
                name,
                "ENC_FLAT_SCRATCH",
                &[
                    ("ADDR", F::V(1)),
                    ("SADDR", F::Raw(0x7f)),
                    ("SVE", F::Raw(1)),
                    ("OFFSET", F::Raw(2)),
                ],
            );
            let mut lds = filled_lds();
            run_decoded(&t, &d, &mut w, &mut mem, &mut lds)
                .unwrap_or_else(|e| panic!("{} {name}: {e}", spec.generation));
            let want = |lane: usize| {
                let at = lane * per_lane + 4 + lane % 5 + 2;
                lds_slot_bytes(&data[at..at + bytes as usize], signed)
            };
            let what = format!("{} {name}", spec.generation);
            check_lds(&lds, n, w.exec, 0x100 + 2, &want, &what);
        }
    }
}

#[test]
fn buffer_loads_with_the_lds_bit_fill_lds_and_leave_vdata() {
    for (name, bytes, signed) in [
        ("BUFFER_LOAD_DWORD", 4usize, false),
        ("BUFFER_LOAD_UBYTE", 1, false),
        ("BUFFER_LOAD_SSHORT", 2, true),
    ] {
        for (spec, t) in gfx9_with(name) {
            let mut mem = FlatMemory::new();
            let data: Vec<u8> = (0..1024).map(pattern).collect();
            let base = mem.alloc_bytes(&data, 256);
            let mut w = Wave::new(spec.wave64, 32, 0);
            let n = w.lanes();
            // 152 bytes in range: lanes whose offset is past them load 0 into their slot.
            let records = 152u32;
            set_rsrc(&mut w, 4, rsrc(base, 0, records, false, false));
            w.m0 = 0x200;
            for lane in 0..n {
                w.write_vgpr(1, lane, 4 * lane as u32).unwrap();
                w.write_vgpr(10, lane, 0x5555).unwrap();
            }
            let text = format!(
                "{} v10, v1, s[4:7], 0 offen offset:4 lds",
                name.to_lowercase()
            );
            let lds = {
                let mut lds = filled_lds();
                let d = build(
                    spec,
                    name,
                    "ENC_MUBUF",
                    &[
                        ("VDATA", F::V(10)),
                        ("VADDR", F::V(1)),
                        ("SRSRC", F::S(4)),
                        ("SOFFSET", F::Raw(128)),
                        ("OFFEN", F::Raw(1)),
                        ("OFFSET", F::Raw(4)),
                        ("LDS", F::Raw(1)),
                    ],
                );
                run_decoded(&t, &d, &mut w, &mut mem, &mut lds)
                    .unwrap_or_else(|e| panic!("{text}: {e}"));
                lds
            };
            let want = |lane: usize| {
                let at = 4 * lane + 4;
                if at + bytes <= records as usize {
                    lds_slot_bytes(&data[at..at + bytes], signed)
                } else {
                    vec![0; 4]
                }
            };
            let what = format!("{} `{text}`", spec.generation);
            check_lds(&lds, n, w.exec, 0x200 + 4, &want, &what);
            assert!(
                (0..n).all(|l| w.read_vgpr(10, l).unwrap() == 0x5555),
                "{what}: VDATA must be left alone"
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Scalar scratch, scalar stores and scalar atomics (CDNA)

#[test]
fn scalar_scratch_reads_and_writes_the_wave_private_memory() {
    use isa_runtime::exec::wave::ScratchInfo;
    for (spec, t) in cdna_with("S_SCRATCH_STORE_DWORDX2") {
        let mut w = Wave::new(spec.wave64, 32, 0);
        let region = 16 * w.lanes();
        let mut mem = FlatMemory::new();
        let init: Vec<u32> = (0..region as u32 / 4).map(|k| 0x7000 + k).collect();
        let base = mem.alloc_dwords(&init);
        w.scratch = ScratchInfo { base, per_lane: 16 };
        w.write_sgpr_pair(4, 0x20).unwrap();
        w.write_sgpr(8, 0xdead_0001).unwrap();
        w.write_sgpr(9, 0xdead_0002).unwrap();
        let mut lds = Lds::new(16);
        let text = "s_scratch_store_dwordx2 s[8:9], s[4:5], 0x8";
        run(spec, &t, text, &mut w, &mut mem, &mut lds)
            .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
        let mut want = init.clone();
        want[(0x28 / 4) as usize] = 0xdead_0001;
        want[(0x2c / 4) as usize] = 0xdead_0002;
        assert_eq!(mem.dwords(base, want.len()).unwrap(), want, "{text}");
        if runs(spec, "S_SCRATCH_LOAD_DWORDX4") {
            let text = "s_scratch_load_dwordx4 s[12:15], s[4:5], 0x4";
            run(spec, &t, text, &mut w, &mut mem, &mut lds)
                .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
            let got: Vec<u32> = (12..16).map(|r| w.read_sgpr(r).unwrap()).collect();
            assert_eq!(got, want[9..13].to_vec(), "{text}");
        }
        // Past the end of the wave's private memory: a scratch fault, memory unchanged.
        w.write_sgpr_pair(4, region as u64 - 4).unwrap();
        let e = run(spec, &t, text, &mut w, &mut mem, &mut lds);
        assert!(
            e.is_err(),
            "{}: `{text}` past the region: {e:?}",
            spec.generation
        );
        assert_eq!(mem.dwords(base, want.len()).unwrap(), want, "{text}");
    }
}

#[test]
fn scalar_stores_write_every_dword() {
    for (spec, t) in cdna_with("S_STORE_DWORDX4") {
        let mut mem = FlatMemory::new();
        let init: Vec<u32> = (0..64).map(|k| 0x100 + k).collect();
        let base = mem.alloc_dwords(&init);
        let mut w = Wave::new(spec.wave64, 32, 0);
        w.write_sgpr_pair(4, base).unwrap();
        for k in 0..4 {
            w.write_sgpr(8 + k, 0xa0 + k).unwrap();
        }
        w.write_sgpr(12, 0x40).unwrap();
        let mut lds = Lds::new(16);
        let mut want = init.clone();
        for (text, at, n) in [
            ("s_store_dwordx4 s[8:11], s[4:5], 0x10", 4usize, 4u32),
            ("s_store_dwordx2 s[8:9], s[4:5], 0x80", 32, 2),
            // SOFFSET from an SGPR: 0x40 bytes.
            ("s_store_dword s8, s[4:5], s12", 16, 1),
        ] {
            let name = text.split(' ').next().unwrap().to_ascii_uppercase();
            if !runs(spec, &name) {
                println!("skipped: {}", why_not(spec, &name));
                continue;
            }
            run(spec, &t, text, &mut w, &mut mem, &mut lds)
                .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
            for k in 0..n {
                want[at + k as usize] = 0xa0 + k;
            }
            assert_eq!(
                mem.dwords(base, 64).unwrap(),
                want,
                "{} `{text}`",
                spec.generation
            );
        }
        if runs(spec, "S_BUFFER_STORE_DWORDX2") {
            set_rsrc(&mut w, 4, rsrc(base, 0, 256, false, false));
            let text = "s_buffer_store_dwordx2 s[8:9], s[4:7], 0x48";
            run(spec, &t, text, &mut w, &mut mem, &mut lds)
                .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
            want[18] = 0xa0;
            want[19] = 0xa1;
            assert_eq!(
                mem.dwords(base, 64).unwrap(),
                want,
                "{} `{text}`",
                spec.generation
            );
        }
    }
}

/// The new memory value of a scalar atomic from (old, data, compare).
type AtomicModel = fn(u64, u64, u64) -> u64;

fn scalar_atomic_model(op: &str) -> AtomicModel {
    match op {
        "SWAP" => |_, d, _| d,
        "CMPSWAP" => |m, src, cmp| if m == cmp { src } else { m },
        "ADD" => |m, d, _| m.wrapping_add(d),
        "SUB" => |m, d, _| m.wrapping_sub(d),
        "SMIN" => |m, d, _| (m as i64).min(d as i64) as u64,
        "UMIN" => |m, d, _| m.min(d),
        "SMAX" => |m, d, _| (m as i64).max(d as i64) as u64,
        "UMAX" => |m, d, _| m.max(d),
        "AND" => |m, d, _| m & d,
        "OR" => |m, d, _| m | d,
        "XOR" => |m, d, _| m ^ d,
        "INC" => |m, d, _| if m >= d { 0 } else { m + 1 },
        "DEC" => |m, d, _| if m == 0 || m > d { d } else { m - 1 },
        o => panic!("no model for {o}"),
    }
}

#[test]
fn scalar_atomics_update_memory_and_return_the_old_value_only_with_glc() {
    let ops = [
        "SWAP", "CMPSWAP", "ADD", "SUB", "SMIN", "UMIN", "SMAX", "UMAX", "AND", "OR", "XOR", "INC",
        "DEC",
    ];
    for buffer in [false, true] {
        for x2 in [false, true] {
            for op in ops {
                let name = format!(
                    "S_{}ATOMIC_{op}{}",
                    if buffer { "BUFFER_" } else { "" },
                    if x2 { "_X2" } else { "" }
                );
                for (spec, t) in cdna_with(&name) {
                    check_scalar_atomic(spec, &t, &name, op, x2, buffer);
                }
            }
        }
    }
}

fn check_scalar_atomic(
    spec: &'static IsaSpec,
    t: &ExecutorTable,
    name: &str,
    op: &str,
    x2: bool,
    buffer: bool,
) {
    let model = scalar_atomic_model(op);
    let bits = if x2 { 64 } else { 32 };
    let mask = if x2 { u64::MAX } else { u32::MAX as u64 };
    let sext = |v: u64| if x2 { v } else { v as u32 as i32 as i64 as u64 };
    let cmpswap = op == "CMPSWAP";
    // Data words: the value (and the compare value for CMPSWAP, after it).
    let dwords = (bits / 32) * if cmpswap { 2 } else { 1 };
    let sdata = if dwords == 1 {
        "s16".to_string()
    } else {
        format!("s[16:{}]", 16 + dwords - 1)
    };
    let sbase = if buffer { "s[4:7]" } else { "s[4:5]" };
    let mut rng = Rng(0x5eed ^ name.len() as u64);
    for (case, glc) in [(0, true), (1, false), (2, true)] {
        let mut mem = FlatMemory::new();
        let old = match case {
            // Equal to the compare value (CMPSWAP stores), small (INC/DEC), random.
            0 => 5,
            1 => rng.next() & mask,
            _ => 0x8000_0000_8000_0000 & mask,
        };
        let data = if case == 0 { 9 } else { rng.next() & mask };
        let cmp = if case == 0 { old } else { rng.next() & mask };
        let mut init = vec![0x1111_1111u32; 16];
        init[8] = old as u32;
        if x2 {
            init[9] = (old >> 32) as u32;
        }
        let base = mem.alloc_dwords(&init);
        let mut w = Wave::new(spec.wave64, 32, 0);
        if buffer {
            set_rsrc(&mut w, 4, rsrc(base, 0, 64, false, false));
        } else {
            w.write_sgpr_pair(4, base).unwrap();
        }
        let words = [data, cmp];
        let mut regs = Vec::new();
        for v in words.iter().take(if cmpswap { 2 } else { 1 }) {
            regs.push(*v as u32);
            if x2 {
                regs.push((*v >> 32) as u32);
            }
        }
        for (k, v) in regs.iter().enumerate() {
            w.write_sgpr(16 + k as u32, *v).unwrap();
        }
        let text = format!(
            "{} {sdata}, {sbase}, 0x20{}",
            name.to_ascii_lowercase(),
            if glc { " glc" } else { "" }
        );
        run(spec, t, &text, &mut w, &mut mem, &mut Lds::new(16))
            .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
        // Signed min/max compare at the operation's width.
        let new = match op {
            "SMIN" | "SMAX" => model(sext(old), sext(data), 0) & mask,
            _ => model(old, data, cmp) & mask,
        };
        let got_mem = mem.dwords(base + 0x20, 2).unwrap();
        let got_mem = got_mem[0] as u64 | if x2 { (got_mem[1] as u64) << 32 } else { 0 };
        assert_eq!(
            got_mem, new,
            "{} `{text}`: memory (old {old:#x}, data {data:#x}, cmp {cmp:#x})",
            spec.generation
        );
        if !x2 {
            assert_eq!(
                mem.dwords(base + 0x24, 1).unwrap()[0],
                0x1111_1111,
                "{} `{text}`: the next dword",
                spec.generation
            );
        }
        let got: Vec<u32> = (0..regs.len() as u32)
            .map(|k| w.read_sgpr(16 + k).unwrap())
            .collect();
        let mut want = regs.clone();
        if glc {
            want[0] = old as u32;
            if x2 {
                want[1] = (old >> 32) as u32;
            }
        }
        assert_eq!(got, want, "{} `{text}`: SDATA", spec.generation);
    }
}

// ---------------------------------------------------------------------------------------------
// DS_SWIZZLE_B32

#[test]
fn ds_swizzle_quad_permute_and_bit_masks_read_the_selected_lane() {
    for (spec, t) in cdna_with("DS_SWIZZLE_B32") {
        let mut w = Wave::new(spec.wave64, 32, 0);
        let n = w.lanes();
        for lane in 0..n {
            w.write_vgpr(1, lane, 0x1000 + lane as u32).unwrap();
        }
        // Lane 6 inactive: lanes that select it read 0.
        w.exec = w.lane_mask() & !(1 << 6);
        type Sel = fn(usize) -> usize;
        let cases: [(u64, Sel, &str); 4] = [
            // Quad permute 3,2,1,0 (two bits per lane of the quad, lane 0 lowest).
            (
                0x8000 | 3 | 2 << 2 | 1 << 4,
                |l| (l & !3) + 3 - (l & 3),
                "quad reverse",
            ),
            // AND 0x1f, XOR 1: neighbours swap.
            (0x1f | 1 << 10, |l| l ^ 1, "swap pairs"),
            // AND 0, OR 5: lane 5 of each 32 to all of them.
            (5 << 5, |l| (l & 32) + 5, "broadcast lane 5"),
            // AND 0x18, OR 0x2: the lane's group of 8, entry 2.
            (0x18 | 2 << 5, |l| (l & !7) + 2, "group of 8"),
        ];
        for (offset, sel, what) in cases {
            let d = build(
                spec,
                "DS_SWIZZLE_B32",
                "ENC_DS",
                &[
                    ("VDST", F::V(5)),
                    ("ADDR", F::V(1)),
                    ("OFFSET0", F::Raw(offset & 0xff)),
                    ("OFFSET1", F::Raw(offset >> 8)),
                ],
            );
            for lane in 0..n {
                w.write_vgpr(5, lane, 0xeeee).unwrap();
            }
            run_decoded(&t, &d, &mut w, &mut FlatMemory::new(), &mut Lds::new(16))
                .unwrap_or_else(|e| panic!("{}: {what}: {e}", spec.generation));
            for lane in 0..n {
                let want = if lane == 6 {
                    0xeeee
                } else if sel(lane) == 6 {
                    0
                } else {
                    0x1000 + sel(lane) as u32
                };
                assert_eq!(
                    w.read_vgpr(5, lane).unwrap(),
                    want,
                    "{} {what} (offset {offset:#x}) lane {lane}",
                    spec.generation
                );
            }
        }
        // FFT mode (offset 0xe000 and up): said to be unsupported.
        let d = build(
            spec,
            "DS_SWIZZLE_B32",
            "ENC_DS",
            &[
                ("VDST", F::V(5)),
                ("ADDR", F::V(1)),
                ("OFFSET1", F::Raw(0xe0)),
            ],
        );
        let e = run_decoded(&t, &d, &mut w, &mut FlatMemory::new(), &mut Lds::new(16));
        assert!(matches!(e, Err(ExecError::Unsupported { .. })), "{e:?}");
    }
}

// ---------------------------------------------------------------------------------------------
// AGPRs (CDNA): moves, and memory data in AGPRs (the ACC bit)

#[test]
fn accvgpr_moves_copy_between_vgprs_and_agprs() {
    for (spec, t) in cdna_with("V_ACCVGPR_WRITE") {
        let mut w = Wave::new(spec.wave64, 32, 8);
        let n = w.lanes();
        for lane in 0..n {
            w.write_vgpr(2, lane, 3 * lane as u32 + 1).unwrap();
        }
        w.exec = w.lane_mask() & !1;
        // Built field by field (the assembler does not take AGPR operands of these yet):
        // AGPR destinations by number, AGPR sources as 256 + number.
        let go = |w: &mut Wave, name: &str, enc: &str, fields: &[(&str, F)]| {
            let d = build(spec, name, enc, fields);
            run_decoded(&t, &d, w, &mut FlatMemory::new(), &mut Lds::new(16))
                .unwrap_or_else(|e| panic!("{}: {name}: {e}", spec.generation));
        };
        go(
            &mut w,
            "V_ACCVGPR_WRITE",
            "ENC_VOP3P",
            &[("VDST", F::Raw(1)), ("SRC0", F::V(2))],
        );
        let want = |lane: usize, v: u32| if lane == 0 { 0 } else { v };
        for lane in 0..n {
            assert_eq!(
                w.agpr_lanes(1).unwrap()[lane],
                want(lane, 3 * lane as u32 + 1),
                "{} v_accvgpr_write lane {lane}",
                spec.generation
            );
        }
        // Inline constant 7 (code 128 + 7).
        go(
            &mut w,
            "V_ACCVGPR_WRITE",
            "ENC_VOP3P",
            &[("VDST", F::Raw(2)), ("SRC0", F::Raw(135))],
        );
        assert!((1..n).all(|l| w.agpr_lanes(2).unwrap()[l] == 7));
        if runs(spec, "V_ACCVGPR_READ") {
            go(
                &mut w,
                "V_ACCVGPR_READ",
                "ENC_VOP3P",
                &[("VDST", F::V(5)), ("SRC0", F::Raw(257))],
            );
            for lane in 0..n {
                assert_eq!(
                    w.read_vgpr(5, lane).unwrap(),
                    want(lane, 3 * lane as u32 + 1),
                    "{} v_accvgpr_read lane {lane}",
                    spec.generation
                );
            }
        }
        if runs(spec, "V_ACCVGPR_MOV_B32") {
            go(
                &mut w,
                "V_ACCVGPR_MOV_B32",
                "ENC_VOP1",
                &[("VDST", F::Raw(3)), ("SRC0", F::Raw(257))],
            );
            assert_eq!(
                w.agpr_lanes(3).unwrap()[n - 1],
                3 * (n as u32 - 1) + 1,
                "{} v_accvgpr_mov",
                spec.generation
            );
        }
    }
}

#[test]
fn memory_data_in_agprs_loads_and_stores_through_the_acc_bit() {
    for (spec, t) in cdna_with("GLOBAL_LOAD_DWORD") {
        // CDNA 1 has AGPRs only for the matrix instructions (no ACC bit on memory).
        if !runs(spec, "V_ACCVGPR_WRITE") || spec.generation == "cdna1" {
            println!("skipped: {}: no AGPR memory data", spec.generation);
            continue;
        }
        let mut mem = FlatMemory::new();
        let init: Vec<u32> = (0..256).map(|k| 0x3000 + k).collect();
        let base = mem.alloc_dwords(&init);
        let mut w = Wave::new(spec.wave64, 32, 8);
        let n = w.lanes();
        for lane in 0..n {
            w.write_vgpr_b64(2, lane, base + 4 * lane as u64).unwrap();
            w.write_vgpr(4, lane, 8 * lane as u32).unwrap();
        }
        let mut lds = Lds::new(1024);
        let go = |text: &str, w: &mut Wave, mem: &mut FlatMemory, lds: &mut Lds| {
            run(spec, &t, text, w, mem, lds)
                .unwrap_or_else(|e| panic!("{}: `{text}`: {e}", spec.generation));
        };
        // Global: load into a4, store a4 one dword further on (so the old value shows).
        go(
            "global_load_dword a4, v[2:3], off",
            &mut w,
            &mut mem,
            &mut lds,
        );
        assert!(
            (0..n).all(|l| w.agpr_lanes(4).unwrap()[l] == 0x3000 + l as u32),
            "{}: global_load_dword into a4",
            spec.generation
        );
        go(
            "global_store_dword v[2:3], a4, off offset:512",
            &mut w,
            &mut mem,
            &mut lds,
        );
        let got = mem.dwords(base + 512, n).unwrap();
        assert!(
            (0..n).all(|l| got[l] == 0x3000 + l as u32),
            "{}: global_store_dword from a4",
            spec.generation
        );
        // DS: write a4, read it back into a5.
        go("ds_write_b32 v4, a4", &mut w, &mut mem, &mut lds);
        go("ds_read_b32 a5, v4", &mut w, &mut mem, &mut lds);
        for lane in 0..n {
            assert_eq!(lds.read_u32(8 * lane as u64).unwrap(), 0x3000 + lane as u32);
            assert_eq!(w.agpr_lanes(5).unwrap()[lane], 0x3000 + lane as u32);
        }
        // MUBUF: VDATA in an AGPR.
        set_rsrc(&mut w, 8, rsrc(base, 0, 1024, false, false));
        for lane in 0..n {
            w.write_vgpr(6, lane, 4 * lane as u32 + 8).unwrap();
        }
        go(
            "buffer_load_dword a6, v6, s[8:11], 0 offen",
            &mut w,
            &mut mem,
            &mut lds,
        );
        assert!(
            (0..n).all(|l| w.agpr_lanes(6).unwrap()[l] == 0x3002 + l as u32),
            "{}: buffer_load_dword into a6",
            spec.generation
        );
    }
}

// ---------------------------------------------------------------------------------------------
// DS_APPEND / DS_CONSUME: the wave's counter in LDS at M0 + OFFSET

#[test]
fn ds_append_and_consume_count_the_active_lanes() {
    for (spec, t) in cdna_with("DS_APPEND") {
        let mut w = Wave::new(spec.wave64, 32, 0);
        let n = w.lanes();
        let mut lds = Lds::new(256);
        lds.write_u32(0x48, 100).unwrap();
        w.m0 = 0x40;
        w.exec = 0x0000_00f0_0000_ff0f & w.lane_mask();
        let active = w.exec.count_ones();
        for lane in 0..n {
            w.write_vgpr(3, lane, 0x77).unwrap();
        }
        let ds = |name: &str| {
            build(
                spec,
                name,
                "ENC_DS",
                &[("VDST", F::V(3)), ("OFFSET0", F::Raw(8))],
            )
        };
        let mut mem = FlatMemory::new();
        run_decoded(&t, &ds("DS_APPEND"), &mut w, &mut mem, &mut lds)
            .unwrap_or_else(|e| panic!("{}: ds_append: {e}", spec.generation));
        assert_eq!(
            lds.read_u32(0x48).unwrap(),
            100 + active,
            "{}",
            spec.generation
        );
        for lane in 0..n {
            let want = if w.exec >> lane & 1 != 0 { 100 } else { 0x77 };
            assert_eq!(w.read_vgpr(3, lane).unwrap(), want, "ds_append lane {lane}");
        }
        if runs(spec, "DS_CONSUME") {
            w.exec = 0b111 & w.lane_mask();
            run_decoded(&t, &ds("DS_CONSUME"), &mut w, &mut mem, &mut lds).unwrap();
            assert_eq!(lds.read_u32(0x48).unwrap(), 100 + active - 3);
            assert_eq!(w.read_vgpr(3, 0).unwrap(), 100 + active);
        }
    }
}
