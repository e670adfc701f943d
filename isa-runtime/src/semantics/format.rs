//! Typed buffer loads and stores (`BUFFER_LOAD_FORMAT_*`, `TBUFFER_STORE_FORMAT_*`, ...):
//! AMD's pseudocode calls `ConvertFromFormat`/`ConvertToFormat` and says the access size
//! depends on the format, so the project runs them here (the Rust half of the override
//! layer, listed by `isa-gen exec report`).
//!
//! The format is the resource's (MUBUF: DATA_FORMAT in dword 3 bits 18:15, NUM_FORMAT bits
//! 14:12) or the instruction's (MTBUF: DFMT, NFMT), in the GFX9 line's numbering (CDNA 1 to
//! 4): data formats 1 `8`, 2 `16`, 3 `8_8`, 4 `32`, 5 `16_16`, 6 `10_11_11`, 7 `11_11_10`,
//! 8 `10_10_10_2`, 9 `2_10_10_10`, 10 `8_8_8_8`, 11 `32_32`, 12 `16_16_16_16`, 13
//! `32_32_32`, 14 `32_32_32_32`; the names list the channels from the most significant bits
//! down (X is in the low bits: `10_11_11` is X 11 bits, Y 11, Z 10). Number formats 0 UNORM,
//! 1 SNORM, 2 USCALED, 3 SSCALED, 4 UINT, 5 SINT, 7 FLOAT.
//!
//! Loads convert each channel to 32 bits (normalised and scaled formats and FLOAT to f32,
//! UINT/SINT extended); channels the format lacks read 0, and W reads 1 (1.0 for the float
//! kinds). D16 forms keep 16 bits per channel, two channels per VGPR (floats rounded to f16,
//! integers truncated); `_D16_HI` writes the high half and keeps the low one. Stores convert
//! back (UNORM/SNORM clamped and rounded to nearest even, SCALED saturated, UINT/SINT
//! truncated, FLOAT 16 rounded to f16); channels the format lacks are not written. An
//! element is range-checked all or nothing, every dword of it (the resource's rule,
//! `buffer.rs`), and swizzled resources place it element by element. Not modelled, and reported as unsupported: the resource's DST_SEL
//! swizzle (channels are taken in order), stores of the packed 10/11-bit formats, and FLOAT
//! with 8 bits or the packed integer layouts.
//!
//! GFX10 and later name the format with one unified FORMAT number (the resource's dword 3
//! from bit 12: 7 bits on GFX10, 6 from GFX11; MTBUF's FORMAT field), which
//! [`unified_format`] maps to the (data format, number format) pair above. The numbering
//! lists each data format with its number formats, in the order of the GFX9 numbers; GFX11
//! dropped the packed formats' integer and normalised variants but FLOAT (and for
//! `10_10_10_2` keeps UNORM, SNORM, UINT, SINT). The facts are LLVM's (`UfmtGFX10`,
//! `UfmtGFX11`, the names llvm-mc-22 prints for `format:N`; the unit test checks every value
//! against llvm-mc-22 when it is installed).

use super::{
    read_lane, read_scalar, role, store_lanes, AddrKind, FormBinding, FormBindings, LaneAddrs,
};
use crate::exec::wave::{LaneIter, MAX_LANES};
use crate::exec::{Decoded, ExecError, Flow, Memory, Wave};

/// One format instruction's shape.
#[derive(Clone, Copy, Debug)]
pub struct FormatOp {
    pub channels: u32,
    pub d16: bool,
    /// `_D16_HI_X`: the channel is in the VGPR's high half.
    pub hi: bool,
    pub store: bool,
    /// MTBUF: the format is the instruction's.
    pub typed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
}

/// Number formats: every kind but FLOAT, with FLOAT, and the 32-bit kinds (UINT, SINT, FLOAT).
const N6: &[u64] = &[0, 1, 2, 3, 4, 5];
const N7: &[u64] = &[0, 1, 2, 3, 4, 5, 7];
const N32: &[u64] = &[4, 5, 7];

/// GFX10's unified formats from 1: each data format with its number formats, in order.
const UNIFIED_GFX10: &[(u64, &[u64])] = &[
    (1, N6),
    (2, N7),
    (3, N6),
    (4, N32),
    (5, N7),
    (6, N7),
    (7, N7),
    (8, N6),
    (9, N6),
    (10, N6),
    (11, N32),
    (12, N7),
    (13, N32),
    (14, N32),
];

/// GFX11 and later: the packed formats keep fewer number formats.
const UNIFIED_GFX11: &[(u64, &[u64])] = &[
    (1, N6),
    (2, N7),
    (3, N6),
    (4, N32),
    (5, N7),
    (6, &[7]),
    (7, &[7]),
    (8, &[0, 1, 4, 5]),
    (9, N6),
    (10, N6),
    (11, N32),
    (12, N7),
    (13, N32),
    (14, N32),
];

/// The (data format, number format) pair, in the GFX9 numbering, of unified format `format`
/// of a generation of GFX major version `gfx` (10 or later); None for INVALID (0) and values
/// past the table.
pub fn unified_format(gfx: u8, format: u64) -> Option<(u64, u64)> {
    let table = if gfx >= 11 {
        UNIFIED_GFX11
    } else {
        UNIFIED_GFX10
    };
    let mut k = format.checked_sub(1)? as usize;
    for &(dfmt, nums) in table {
        if k < nums.len() {
            return Some((dfmt, nums[k]));
        }
        k -= nums.len();
    }
    None
}

/// A data format: element bytes, and each channel's (low bit, width) in the element.
fn layout(dfmt: u64) -> Option<(u32, &'static [(u32, u32)])> {
    Some(match dfmt {
        1 => (1, &[(0, 8)]),
        2 => (2, &[(0, 16)]),
        3 => (2, &[(0, 8), (8, 8)]),
        4 => (4, &[(0, 32)]),
        5 => (4, &[(0, 16), (16, 16)]),
        6 => (4, &[(0, 11), (11, 11), (22, 10)]),
        7 => (4, &[(0, 10), (10, 11), (21, 11)]),
        8 => (4, &[(0, 2), (2, 10), (12, 10), (22, 10)]),
        9 => (4, &[(0, 10), (10, 10), (20, 10), (30, 2)]),
        10 => (4, &[(0, 8), (8, 8), (16, 8), (24, 8)]),
        11 => (8, &[(0, 32), (32, 32)]),
        12 => (8, &[(0, 16), (16, 16), (32, 16), (48, 16)]),
        13 => (12, &[(0, 32), (32, 32), (64, 32)]),
        14 => (16, &[(0, 32), (32, 32), (64, 32), (96, 32)]),
        _ => return None,
    })
}

fn num(nfmt: u64) -> Option<Num> {
    Some(match nfmt {
        0 => Num::Unorm,
        1 => Num::Snorm,
        2 => Num::Uscaled,
        3 => Num::Sscaled,
        4 => Num::Uint,
        5 => Num::Sint,
        7 => Num::Float,
        _ => return None,
    })
}

fn sext(v: u64, width: u32) -> i64 {
    ((v << (64 - width)) as i64) >> (64 - width)
}

/// An unsigned float of `width` bits (11: 5-bit exponent, 6-bit mantissa; 10: 5 and 5),
/// bias 15, as f32.
fn small_float(v: u64, width: u32) -> f32 {
    let man_bits = width - 5;
    let e = (v >> man_bits) as i32 & 31;
    let m = (v & ((1 << man_bits) - 1)) as f32;
    let scale = (1u32 << man_bits) as f32;
    match e {
        0 => m / scale * 2f32.powi(-14),
        31 if m == 0.0 => f32::INFINITY,
        31 => f32::NAN,
        _ => (1.0 + m / scale) * 2f32.powi(e - 15),
    }
}

/// A channel's raw bits as the 32-bit register value of a load (`d16`: as 16 bits).
fn channel_in(raw: u64, width: u32, n: Num, d16: bool) -> Result<u32, &'static str> {
    let max = ((1u64 << width) - 1) as f32;
    let f = match n {
        Num::Unorm => raw as f32 / max,
        Num::Snorm => {
            let m = ((1u64 << (width - 1)) - 1) as f32;
            (sext(raw, width) as f32 / m).max(-1.0)
        }
        Num::Uscaled => raw as f32,
        Num::Sscaled => sext(raw, width) as f32,
        Num::Uint => return Ok(if d16 { raw as u16 as u32 } else { raw as u32 }),
        Num::Sint => {
            let v = sext(raw, width) as i32 as u32;
            return Ok(if d16 { v & 0xffff } else { v });
        }
        Num::Float => match width {
            32 => f32::from_bits(raw as u32),
            16 if d16 => return Ok(raw as u32 & 0xffff),
            16 => f16_to_f32(raw as u16),
            10 | 11 => small_float(raw, width),
            _ => return Err("FLOAT with this channel width is not a valid format"),
        },
    };
    Ok(if d16 {
        f32_to_f16(f) as u32
    } else {
        f.to_bits()
    })
}

/// A register value (32 bits, or 16 with `d16`) as a channel's raw bits for a store.
fn channel_out(v: u32, width: u32, n: Num, d16: bool) -> Result<u64, &'static str> {
    let as_f32 = |v: u32| {
        if d16 {
            f16_to_f32(v as u16)
        } else {
            f32::from_bits(v)
        }
    };
    let mask = (1u64 << width) - 1;
    let int = |v: u32, signed: bool| -> u64 {
        if d16 && signed {
            v as u16 as i16 as i64 as u64
        } else if d16 {
            v as u16 as u64
        } else if signed {
            v as i32 as i64 as u64
        } else {
            v as u64
        }
    };
    Ok(match n {
        Num::Unorm => {
            let f = as_f32(v);
            let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
            (f * mask as f32).round_ties_even() as u64
        }
        Num::Snorm => {
            let f = as_f32(v);
            let f = if f.is_nan() { 0.0 } else { f.clamp(-1.0, 1.0) };
            let m = ((1u64 << (width - 1)) - 1) as f32;
            ((f * m).round_ties_even() as i64 as u64) & mask
        }
        Num::Uscaled => {
            let f = as_f32(v);
            let f = if f.is_nan() { 0.0 } else { f };
            (f.clamp(0.0, mask as f32) as u64).min(mask)
        }
        Num::Sscaled => {
            let f = as_f32(v);
            let f = if f.is_nan() { 0.0 } else { f };
            let lim = (1i64 << (width - 1)) as f32;
            (f.clamp(-lim, lim - 1.0) as i64 as u64) & mask
        }
        Num::Uint => int(v, false) & mask,
        Num::Sint => int(v, true) & mask,
        Num::Float => match width {
            32 if d16 => f16_to_f32(v as u16).to_bits() as u64,
            32 => v as u64,
            16 if d16 => v as u64 & 0xffff,
            16 => f32_to_f16(f32::from_bits(v)) as u64,
            _ => return Err("stores of FLOAT formats narrower than 16 bits are not modelled"),
        },
    })
}

fn f16_to_f32(h: u16) -> f32 {
    crate::exec::float::F16(h).to_f32_exact().to_host()
}

fn f32_to_f16(f: f32) -> u16 {
    use crate::exec::float as fl;
    fl::F16::from_f32_rne(fl::F32(f.to_bits())).0
}

/// Runs one format load or store for every active lane.
pub fn buffer_format(
    w: &mut Wave,
    d: &Decoded,
    table: &'static FormBindings,
    mem: &mut dyn Memory,
    op: FormatOp,
) -> Result<Flow, ExecError> {
    let b = FormBinding::of(d, table)?;
    let unsupported = |why: &str| ExecError::unsupported(d.mnemonic(), why);
    if !op.store && super::lds_dma::lds_bit(d) {
        return Err(unsupported(
            "format loads into LDS (the LDS bit) are not modelled",
        ));
    }
    let gfx = d.ins.spec.traits.gfx;
    let resource_dword3 = || -> Result<u64, ExecError> {
        Ok((read_scalar(w, b.op(d, role::SRSRC)?, 128, false)? >> 96) as u64)
    };
    let (dfmt, nfmt) = if super::buffer::gfx9_line(d) {
        if op.typed {
            (d.field("DFMT").unwrap_or(0), d.field("NFMT").unwrap_or(0))
        } else {
            let dword3 = resource_dword3()?;
            (dword3 >> 15 & 15, dword3 >> 12 & 7)
        }
    } else {
        let format = match d.field("FORMAT") {
            Some(f) if op.typed => f,
            _ if op.typed => return Err(unsupported("an MTBUF form without a FORMAT field")),
            _ => resource_dword3()? >> 12 & if gfx >= 11 { 0x3f } else { 0x7f },
        };
        unified_format(gfx, format)
            .ok_or_else(|| unsupported("an invalid unified buffer format"))?
    };
    let (bytes, chans) =
        layout(dfmt).ok_or_else(|| unsupported("an invalid buffer data format"))?;
    let n = num(nfmt).ok_or_else(|| unsupported("an invalid buffer number format"))?;
    let packed = chans.iter().any(|&(_, wd)| !matches!(wd, 8 | 16 | 32));
    if packed && (op.store || n == Num::Float && chans.iter().any(|&(_, wd)| wd == 2)) {
        return Err(unsupported(
            "stores of the packed 10/11/2-bit formats (and FLOAT with 2-bit channels) are not modelled",
        ));
    }
    let addrs = LaneAddrs::new(w, d, b, AddrKind::Buffer)?;
    let exec = w.exec_mask();
    let data = b.op(d, if op.store { role::DATA } else { role::VDST })?;
    let regs = if op.d16 {
        op.channels.div_ceil(2)
    } else {
        op.channels
    };
    let mut out = [[0u32; MAX_LANES]; 4];
    for lane in LaneIter(exec) {
        let a = addrs.at(lane);
        // Format accesses are all or nothing: every dword of the element in range.
        let ok = addrs.buffer_range().contains_access(lane, a, bytes);
        let old = read_lane(w, data, lane, 32 * regs, false)?;
        // Where channel k lives in the lane's data registers: (bit position, width).
        let slot = |k: u32| -> (u32, u32) {
            if op.hi {
                (16, 16)
            } else if op.d16 {
                (16 * k, 16)
            } else {
                (32 * k, 32)
            }
        };
        if op.store {
            if !ok {
                continue;
            }
            for k in 0..op.channels.min(chans.len() as u32) {
                let (pos, width) = slot(k);
                let v = (old >> pos) as u32 & (u64::MAX >> (64 - width)) as u32;
                let (lo, cw) = chans[k as usize];
                let raw = channel_out(v, cw, n, op.d16).map_err(unsupported)?;
                // Byte-aligned channels: write the channel's own bytes.
                let addr = a + (lo / 8) as u64;
                addrs
                    .buffer_range()
                    .write(mem, lane, addr, &raw.to_le_bytes()[..(cw / 8) as usize])
                    .map_err(|e| ExecError::lane_fault(e, lane))?;
            }
            continue;
        }
        let mut elem = [0u8; 16];
        if ok {
            addrs
                .buffer_range()
                .read(&*mem, lane, a, &mut elem[..bytes as usize])
                .map_err(|e| ExecError::lane_fault(e, lane))?;
        }
        let elem = u128::from_le_bytes(elem);
        let mut v = old;
        for k in 0..op.channels {
            let x = match chans.get(k as usize) {
                Some(&(lo, cw)) if ok => {
                    let raw = (elem >> lo) as u64 & (u64::MAX >> (64 - cw));
                    channel_in(raw, cw, n, op.d16).map_err(unsupported)?
                }
                Some(_) => 0,
                // A channel the format lacks: 0, and 1 for W.
                None if k == 3 => match (n, op.d16) {
                    (Num::Uint | Num::Sint, _) => 1,
                    (_, true) => 0x3c00,
                    (_, false) => 1f32.to_bits(),
                },
                None => 0,
            };
            let (pos, width) = slot(k);
            let m = (u64::MAX >> (64 - width)) as u128;
            v = v & !(m << pos) | (x as u128 & m) << pos;
        }
        for (r, dword) in out.iter_mut().take(regs as usize).enumerate() {
            dword[lane] = (v >> (32 * r)) as u32;
        }
    }
    if !op.store {
        for r in 0..regs {
            store_lanes(w, data, r, &out[r as usize], exec)?;
        }
    }
    Ok(Flow::Next)
}

/// The 34 executors, one per instruction (`isa-gen`'s builtin table names them).
macro_rules! format_ops {
    ($($name:ident: $ch:expr, $d16:expr, $hi:expr, $store:expr, $typed:expr;)*) => {$(
        pub fn $name(
            w: &mut Wave,
            d: &Decoded,
            table: &'static FormBindings,
            mem: &mut dyn Memory,
        ) -> Result<Flow, ExecError> {
            buffer_format(w, d, table, mem, FormatOp {
                channels: $ch, d16: $d16, hi: $hi, store: $store, typed: $typed,
            })
        }
    )*};
}

format_ops! {
    buffer_load_format_x: 1, false, false, false, false;
    buffer_load_format_xy: 2, false, false, false, false;
    buffer_load_format_xyz: 3, false, false, false, false;
    buffer_load_format_xyzw: 4, false, false, false, false;
    buffer_store_format_x: 1, false, false, true, false;
    buffer_store_format_xy: 2, false, false, true, false;
    buffer_store_format_xyz: 3, false, false, true, false;
    buffer_store_format_xyzw: 4, false, false, true, false;
    buffer_load_format_d16_x: 1, true, false, false, false;
    buffer_load_format_d16_xy: 2, true, false, false, false;
    buffer_load_format_d16_xyz: 3, true, false, false, false;
    buffer_load_format_d16_xyzw: 4, true, false, false, false;
    buffer_store_format_d16_x: 1, true, false, true, false;
    buffer_store_format_d16_xy: 2, true, false, true, false;
    buffer_store_format_d16_xyz: 3, true, false, true, false;
    buffer_store_format_d16_xyzw: 4, true, false, true, false;
    buffer_load_format_d16_hi_x: 1, true, true, false, false;
    buffer_store_format_d16_hi_x: 1, true, true, true, false;
    tbuffer_load_format_x: 1, false, false, false, true;
    tbuffer_load_format_xy: 2, false, false, false, true;
    tbuffer_load_format_xyz: 3, false, false, false, true;
    tbuffer_load_format_xyzw: 4, false, false, false, true;
    tbuffer_store_format_x: 1, false, false, true, true;
    tbuffer_store_format_xy: 2, false, false, true, true;
    tbuffer_store_format_xyz: 3, false, false, true, true;
    tbuffer_store_format_xyzw: 4, false, false, true, true;
    tbuffer_load_format_d16_x: 1, true, false, false, true;
    tbuffer_load_format_d16_xy: 2, true, false, false, true;
    tbuffer_load_format_d16_xyz: 3, true, false, false, true;
    tbuffer_load_format_d16_xyzw: 4, true, false, false, true;
    tbuffer_store_format_d16_x: 1, true, false, true, true;
    tbuffer_store_format_d16_xy: 2, true, false, true, true;
    tbuffer_store_format_d16_xyz: 3, true, false, true, true;
    tbuffer_store_format_d16_xyzw: 4, true, false, true, true;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(gfx: u8, v: u64) -> Option<String> {
        unified_format(gfx, v).map(|(d, n)| {
            // LLVM's unified names use the split formats' names (the disassembler's).
            let (d, n) = (
                crate::disasm::DATA_FORMATS[d as usize],
                crate::disasm::NUMBER_FORMATS[n as usize],
            );
            format!("BUF_FMT_{d}_{n}")
        })
    }

    #[test]
    fn unified_formats_by_hand() {
        // Sizes and ends of the tables.
        assert_eq!(unified_format(10, 0), None);
        assert_eq!(unified_format(10, 77), Some((14, 7)));
        assert_eq!(unified_format(10, 78), None);
        assert_eq!(unified_format(11, 63), Some((14, 7)));
        assert_eq!(unified_format(12, 64), None);
        // 32_FLOAT is 22 on both; the packed floats move.
        assert_eq!(unified_format(10, 22), Some((4, 7)));
        assert_eq!(unified_format(11, 22), Some((4, 7)));
        assert_eq!(unified_format(10, 36), Some((6, 7)));
        assert_eq!(unified_format(11, 30), Some((6, 7)));
        assert_eq!(unified_format(11, 34), Some((8, 4)));
        assert_eq!(name(11, 1).as_deref(), Some("BUF_FMT_8_UNORM"));
    }

    /// Every unified format against the name llvm-mc-22 prints for `format:N`.
    #[test]
    fn unified_formats_match_llvm_mc() {
        use std::io::Write;
        use std::process::{Command, Stdio};
        for (gfx, mcpu, count) in [
            (10u8, "gfx1030", 78u64),
            (11, "gfx1100", 64),
            (12, "gfx1200", 64),
        ] {
            let text: String = (0..count)
                .map(|v| format!("tbuffer_load_format_x v1, off, s[4:7], s3 format:{v}\n"))
                .collect();
            let child = Command::new("llvm-mc-22")
                .args(["-arch=amdgcn", &format!("-mcpu={mcpu}")])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn();
            let Ok(mut child) = child else {
                println!("skipped: llvm-mc-22 is not installed");
                return;
            };
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
            let out = child.wait_with_output().unwrap();
            let printed: Vec<String> = String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter(|l| l.contains("tbuffer_load_format_x"))
                .map(|l| match l.split("format:[").nth(1) {
                    Some(rest) => rest.trim_end_matches(']').trim().to_string(),
                    // The default, 1, is not printed.
                    None => "BUF_FMT_8_UNORM".to_string(),
                })
                .collect();
            assert_eq!(printed.len() as u64, count, "{mcpu}: llvm-mc-22's lines");
            for v in 1..count {
                assert_eq!(
                    name(gfx, v).as_deref(),
                    Some(printed[v as usize].as_str()),
                    "{mcpu} format:{v}"
                );
            }
            assert_eq!(printed[0], "BUF_FMT_INVALID");
            assert_eq!(unified_format(gfx, count), None);
        }
    }
}
