//! Buffer memory (MUBUF/MTBUF): the buffer resource (V#, four SGPRs), the lanes' addresses
//! it gives, and its range check.
//!
//! Address of a lane: `base + SOFFSET + OFFSET + offset + stride * index`, where VADDR holds
//! the index (IDXEN) and/or the offset (OFFEN; the second VGPR when both are set), and
//! ADD_TID_ENABLE adds the lane's number to the index. Swizzled resources are reported as
//! unsupported (their interleaving is not modelled).
//!
//! Range check, per generation (reads out of range give 0, writes are dropped; an access of
//! several dwords is checked a dword at a time, since each of its memory accesses is
//! checked on its own):
//! - GFX9 line (CDNA 1 to 4): the instruction, not the stride, says how NUM_RECORDS counts
//!   (LLVM's review D44401 records it for Vega): when the access is indexed (IDXEN, or the
//!   resource's ADD_TID_ENABLE) NUM_RECORDS counts records and the lane is in range when its
//!   index is below it; otherwise it counts bytes and an access is in range when its byte
//!   offset (`OFFSET + offset`, SOFFSET not counted) is below NUM_RECORDS, whatever the
//!   stride.
//! - GFX10 and later (RDNA, CDNA 5): OOB_SELECT (dword 3, bits 29:28) picks the rule: 0 index
//!   below NUM_RECORDS and byte offset below the stride, 1 index only, 2 no check, 3 raw
//!   (the byte offset below NUM_RECORDS).

use super::{field, read_lane, read_scalar, role, Binding};
use crate::exec::wave::{LaneIter, Src, MAX_LANES};
use crate::exec::{Decoded, ExecError, Memory, Wave};

/// The fields of a buffer resource the emulator uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferResource {
    /// Bits 47:0.
    pub base: u64,
    /// Bits 61:48: bytes per record (0: a raw buffer).
    pub stride: u32,
    /// GFX9: bit 63; GFX10+: bits 63:62 (nonzero).
    pub swizzle: bool,
    /// Bits 95:64.
    pub num_records: u32,
    /// Bit 119 (dword 3, bit 23): the lane's number is added to the index.
    pub add_tid: bool,
    /// GFX10+: bits 125:124 (dword 3, bits 29:28).
    pub oob_select: u8,
}

impl BufferResource {
    /// Reads the resource's fields; `gfx9` selects the GFX9 line's layout of the swizzle bits.
    pub fn from_bits(v: u128, gfx9: bool) -> BufferResource {
        let dword = |k: u32| (v >> (32 * k)) as u32;
        let swizzle = if gfx9 {
            dword(1) >> 31 != 0
        } else {
            dword(1) >> 30 != 0
        };
        BufferResource {
            base: v as u64 & 0xffff_ffff_ffff,
            stride: (dword(1) >> 16) & 0x3fff,
            swizzle,
            num_records: dword(2),
            add_tid: dword(3) >> 23 & 1 != 0,
            oob_select: (dword(3) >> 28 & 3) as u8,
        }
    }
}

/// The generations whose buffer rules are GFX9's (CDNA 1 to 4, and the fixture CDNA 3).
fn gfx9_line(generation: &str) -> bool {
    generation.starts_with("cdna") && generation != "cdna5"
}

/// Which accesses of each lane are in range: every lane's accesses lie in `[lo + k, lo +
/// k + len)` for the lane's own `k` (`lo` and `len` shared), and lanes outside `lanes` are out
/// of range altogether.
#[derive(Clone, Copy, Debug)]
pub struct BufferRange {
    /// Per lane: the address of byte offset 0 (the first byte the raw check allows).
    pub lo: [u64; MAX_LANES],
    pub len: u64,
    pub lanes: u64,
}

impl BufferRange {
    /// No check (non-buffer accesses).
    pub const ALL: BufferRange = BufferRange {
        lo: [0; MAX_LANES],
        len: u64::MAX,
        lanes: u64::MAX,
    };

    #[inline]
    pub fn contains(&self, lane: usize, addr: u64) -> bool {
        let lane = lane & (MAX_LANES - 1);
        self.lanes >> lane & 1 != 0 && addr.wrapping_sub(self.lo[lane]) < self.len
    }
}

/// A field value, 0 when the form lacks it.
fn flag(d: &Decoded, b: &Binding, f: usize) -> bool {
    b.has_field(f) && b.field(d, f) != 0
}

/// Every active lane's buffer address and the range its accesses must stay in.
pub fn buffer_lanes(
    w: &Wave,
    d: &Decoded,
    b: &Binding,
    addrs: &mut [u64; MAX_LANES],
) -> Result<BufferRange, ExecError> {
    let gfx9 = gfx9_line(d.ins.spec.generation);
    let rsrc = BufferResource::from_bits(read_scalar(w, b.op(d, role::SRSRC)?, 128, false)?, gfx9);
    if rsrc.swizzle {
        return Err(ExecError::unsupported(
            d.mnemonic(),
            "swizzled buffer resources (SWIZZLE_ENABLE) are not modelled",
        ));
    }
    let soffset = match b
        .has(role::SOFFSET)
        .then(|| b.op(d, role::SOFFSET))
        .transpose()?
    {
        Some(s) => read_scalar(w, s, 32, false).unwrap_or(0) as u64,
        None => 0,
    };
    let inst_offset = b.field(d, field::OFFSET);
    let vaddr = match b
        .has(role::VADDR)
        .then(|| b.op(d, role::VADDR))
        .transpose()?
    {
        Some(s @ (Src::Vgpr(_) | Src::Agpr(_))) => Some(s),
        _ => None,
    };
    // Forms without IDXEN/OFFEN fields take VADDR as the offset.
    let has_flags = b.has_field(field::IDXEN) || b.has_field(field::OFFEN);
    let idxen = flag(d, b, field::IDXEN);
    let offen = if has_flags {
        flag(d, b, field::OFFEN)
    } else {
        vaddr.is_some()
    };
    let vgpr = |lane: usize, k: u32| -> Result<u64, ExecError> {
        match vaddr {
            Some(s) => Ok((read_lane(w, s, lane, 32 * (k + 1), false)? >> (32 * k)) as u32 as u64),
            None => Ok(0),
        }
    };
    let base = rsrc.base.wrapping_add(soffset);
    let stride = rsrc.stride as u64;
    let records = rsrc.num_records as u64;
    let mut range = BufferRange {
        lo: [0; MAX_LANES],
        len: u64::MAX,
        lanes: 0,
    };
    // Which of the checks the rule asks for: (index below NUM_RECORDS, byte offset below the
    // stride, byte offset below NUM_RECORDS).
    let (check_index, check_stride, check_raw) = if gfx9 {
        let indexed = idxen || rsrc.add_tid;
        (indexed, false, !indexed)
    } else {
        match rsrc.oob_select {
            0 => (true, true, false),
            1 => (true, false, false),
            2 => (false, false, false),
            _ => (false, false, true),
        }
    };
    if check_stride {
        range.len = stride;
    } else if check_raw {
        range.len = records;
    }
    for lane in LaneIter(w.exec_mask()) {
        let mut index = if idxen { vgpr(lane, 0)? } else { 0 };
        if rsrc.add_tid {
            index += lane as u64;
        }
        let offset = if offen { vgpr(lane, idxen as u32)? } else { 0 };
        let record = base.wrapping_add(stride.wrapping_mul(index));
        addrs[lane] = record.wrapping_add(inst_offset).wrapping_add(offset);
        range.lo[lane] = record;
        if !check_index || index < records {
            range.lanes |= 1 << lane;
        }
    }
    Ok(range)
}

/// Reads `bytes` at `addr` of a buffer: 0 when out of the resource's range.
pub fn buf_read(
    _w: &Wave,
    mem: &dyn Memory,
    lanes: &super::LaneAddrs,
    lane: usize,
    addr: u64,
    bytes: u32,
) -> Result<u128, ExecError> {
    if !lanes.in_range(lane, addr) {
        return Ok(0);
    }
    let mut buf = [0u8; 16];
    let n = bytes.clamp(1, 16) as usize;
    mem.read(addr, &mut buf[..n])
        .map_err(|e| ExecError::lane_fault(e, lane))?;
    Ok(u128::from_le_bytes(buf))
}

/// Writes the low `bytes` bytes of `v` at `addr` of a buffer: dropped when out of range.
pub fn buf_write(
    _w: &Wave,
    mem: &mut dyn Memory,
    lanes: &super::LaneAddrs,
    lane: usize,
    addr: u64,
    bytes: u32,
    v: u128,
) -> Result<(), ExecError> {
    if !lanes.in_range(lane, addr) {
        return Ok(());
    }
    let n = bytes.clamp(1, 16) as usize;
    mem.write(addr, &v.to_le_bytes()[..n])
        .map_err(|e| ExecError::lane_fault(e, lane))
}
