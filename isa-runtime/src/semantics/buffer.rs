//! Buffer memory (MUBUF/MTBUF): the buffer resource (V#, four SGPRs), the lanes' addresses
//! it gives, and its range check.
//!
//! Address of a lane: `base + SOFFSET + OFFSET + offset + stride * index`, where VADDR holds
//! the index (IDXEN) and/or the offset (OFFEN; the second VGPR when both are set), and
//! ADD_TID_ENABLE adds the lane's number to the index.
//!
//! Swizzled resources (GFX9 line, SWIZZLE_ENABLE): records are interleaved so that
//! INDEX_STRIDE consecutive indices share a run of elements of ELEMENT_SIZE bytes. With
//! `offset = OFFSET + offset` and the index as above, both are split at those sizes
//! (`index = index_msb * INDEX_STRIDE + index_lsb`, `offset = offset_msb * ELEMENT_SIZE +
//! offset_lsb`) and the byte is at `base + SOFFSET + (index_msb * stride + offset_msb *
//! ELEMENT_SIZE) * INDEX_STRIDE + index_lsb * ELEMENT_SIZE + offset_lsb` (the "swizzled
//! buffer addressing" formula of AMD's GCN/Vega ISA guides, section on buffer addressing;
//! the descriptor's bit positions, ELEMENT_SIZE dword 3 bits 20:19 and INDEX_STRIDE bits
//! 22:21, as LLVM's `RSRC_ELEMENT_SIZE_SHIFT`/`RSRC_INDEX_STRIDE_SHIFT` name them). An access
//! crossing an element boundary continues in the next element (each byte follows the
//! formula). GFX10 and later encode swizzling differently (a 2-bit SWIZZLE_ENABLE whose
//! element size the project has no source for): reported as unsupported.
//!
//! Range check, per generation (reads out of range give 0, writes are dropped). The
//! pseudocode splits multi-dword loads and stores into dword accesses, each checked on its
//! own; an access wider than a dword is one memory operation (64-bit atomics, compare-swaps)
//! and happens only when every dword of it is in range: otherwise an atomic changes nothing
//! and returns 0. The offset checked is the lane's offset, swizzled or not:
//! - GFX9 line (CDNA 1 to 4): the instruction, not the stride, says how NUM_RECORDS counts
//!   (LLVM's review D44401 records it for Vega): when the access is indexed (IDXEN, or the
//!   resource's ADD_TID_ENABLE) NUM_RECORDS counts records and the lane is in range when its
//!   index is below it; otherwise it counts bytes and an access is in range when its byte
//!   offset (`OFFSET + offset`, SOFFSET not counted) is below NUM_RECORDS, whatever the
//!   stride.
//! - Scalar buffer accesses (`S_BUFFER_*`, SBASE a resource): the resource spans
//!   `NUM_RECORDS` bytes, times the stride when it is nonzero, from its base; an access
//!   (a dword of a load, or a whole store or atomic) is in range when all its bytes lie in
//!   that span, SOFFSET and OFFSET counted (AMD's RDNA 3 and 4 guides, section 8.1.2, give
//!   the product; the project applies it to every generation). See [`sbuf_read`].
//! - GFX10 and later (RDNA, CDNA 5): OOB_SELECT (dword 3, bits 29:28) picks the rule: 0 index
//!   below NUM_RECORDS and byte offset below the stride, 1 index only, 2 no check, 3 raw
//!   (the byte offset below NUM_RECORDS).

use super::{field, read_lane, read_scalar, role, FormBinding, LaneAddrs};
use crate::exec::wave::{LaneIter, Src, MAX_LANES};
use crate::exec::{Decoded, ExecError, MemError, Memory, Wave};

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
    /// Swizzled addressing: bytes per element (GFX9: `2 << ELEMENT_SIZE`, dword 3 bits
    /// 20:19).
    pub element_size: u32,
    /// Swizzled addressing: indices interleaved together (`8 << INDEX_STRIDE`, dword 3 bits
    /// 22:21).
    pub index_stride: u32,
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
            element_size: 2 << (dword(3) >> 19 & 3),
            index_stride: 8 << (dword(3) >> 21 & 3),
        }
    }
}

/// Whether the buffer rules are the GFX9 line's (CDNA 1 to 4), from the generation's traits.
pub fn gfx9_line(d: &Decoded) -> bool {
    d.ins.spec.traits.gfx == 9
}

/// Which accesses of each lane are in range, and where they land: lane `l`'s byte offsets
/// are `addr - lo[l]` (its accesses must keep them below `len`), and lanes outside `lanes` are
/// out of range altogether.
#[derive(Clone, Copy, Debug)]
pub struct BufferRange {
    /// Per lane: the address of byte offset 0 (the first byte the raw check allows); with
    /// swizzling, where the lane's element run starts.
    pub lo: [u64; MAX_LANES],
    pub len: u64,
    pub lanes: u64,
    /// Swizzled addressing: bytes per element (0: linear).
    pub element: u64,
    /// Swizzled addressing: bytes from one element of a lane to its next
    /// (ELEMENT_SIZE × INDEX_STRIDE).
    pub element_step: u64,
}

impl BufferRange {
    /// No check (non-buffer accesses).
    pub const ALL: BufferRange = BufferRange {
        lo: [0; MAX_LANES],
        len: u64::MAX,
        lanes: u64::MAX,
        element: 0,
        element_step: 0,
    };

    #[inline]
    pub fn contains(&self, lane: usize, addr: u64) -> bool {
        let lane = lane & (MAX_LANES - 1);
        self.lanes >> lane & 1 != 0 && addr.wrapping_sub(self.lo[lane]) < self.len
    }

    /// Whether every dword of an access of `bytes` at `addr` is in range.
    #[inline]
    pub fn contains_access(&self, lane: usize, addr: u64, bytes: u32) -> bool {
        (0..bytes.max(1) as u64)
            .step_by(4)
            .all(|k| self.contains(lane, addr.wrapping_add(k)))
    }

    /// The device address of `addr` of `lane` and how many bytes on from it are contiguous
    /// (to the end of its element when swizzled).
    #[inline]
    fn place(&self, lane: usize, addr: u64) -> (u64, u64) {
        if self.element == 0 {
            return (addr, u64::MAX);
        }
        let lo = self.lo[lane & (MAX_LANES - 1)];
        let off = addr.wrapping_sub(lo);
        let (msb, lsb) = (off / self.element, off % self.element);
        (
            lo.wrapping_add(msb.wrapping_mul(self.element_step))
                .wrapping_add(lsb),
            self.element - lsb,
        )
    }

    /// Reads `out.len()` bytes of `lane`'s access at `addr` (no range check), element by
    /// element when swizzled.
    pub fn read(
        &self,
        mem: &dyn Memory,
        lane: usize,
        addr: u64,
        out: &mut [u8],
    ) -> Result<(), MemError> {
        let mut done = 0;
        while done < out.len() {
            let (at, run) = self.place(lane, addr.wrapping_add(done as u64));
            let n = (out.len() - done).min(run.min(16) as usize);
            mem.read(at, &mut out[done..done + n])?;
            done += n;
        }
        Ok(())
    }

    /// Writes `data` as `lane`'s access at `addr` (no range check), element by element when
    /// swizzled.
    pub fn write(
        &self,
        mem: &mut dyn Memory,
        lane: usize,
        addr: u64,
        data: &[u8],
    ) -> Result<(), MemError> {
        let mut done = 0;
        while done < data.len() {
            let (at, run) = self.place(lane, addr.wrapping_add(done as u64));
            let n = (data.len() - done).min(run.min(16) as usize);
            mem.write(at, &data[done..done + n])?;
            done += n;
        }
        Ok(())
    }
}

/// A field value, 0 when the form lacks it.
fn flag(d: &Decoded, b: &FormBinding, f: usize) -> bool {
    b.has_field(f) && b.field(d, f) != 0
}

/// Every active lane's buffer address and the range its accesses must stay in.
pub fn buffer_lanes(
    w: &Wave,
    d: &Decoded,
    b: &FormBinding,
    addrs: &mut [u64; MAX_LANES],
) -> Result<BufferRange, ExecError> {
    let gfx9 = gfx9_line(d);
    let rsrc = BufferResource::from_bits(read_scalar(w, b.op(d, role::SRSRC)?, 128, false)?, gfx9);
    if rsrc.swizzle && !gfx9 {
        return Err(ExecError::unsupported(
            d.mnemonic(),
            "swizzled buffer resources of GFX10 and later (the element size their 2-bit \
             SWIZZLE_ENABLE selects) are not modelled",
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
        element: 0,
        element_step: 0,
    };
    let (element, index_stride) = (rsrc.element_size as u64, rsrc.index_stride as u64);
    if rsrc.swizzle {
        range.element = element;
        range.element_step = element * index_stride;
    }
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
        let record = if rsrc.swizzle {
            // Where the lane's elements start: its group of INDEX_STRIDE records, then its
            // element within each run (`place` adds the offset's part).
            let (msb, lsb) = (index / index_stride, index % index_stride);
            base.wrapping_add(msb.wrapping_mul(stride).wrapping_mul(index_stride))
                .wrapping_add(lsb * element)
        } else {
            base.wrapping_add(stride.wrapping_mul(index))
        };
        addrs[lane] = record.wrapping_add(inst_offset).wrapping_add(offset);
        range.lo[lane] = record;
        if !check_index || index < records {
            range.lanes |= 1 << lane;
        }
    }
    Ok(range)
}

/// Reads `bytes` at `addr` of a buffer (one memory operation): 0 unless every dword of it is
/// in the resource's range.
pub fn buf_read(
    _w: &Wave,
    mem: &dyn Memory,
    lanes: &LaneAddrs,
    lane: usize,
    addr: u64,
    bytes: u32,
) -> Result<u128, ExecError> {
    if !lanes.range.contains_access(lane, addr, bytes) {
        return Ok(0);
    }
    let mut buf = [0u8; 16];
    let n = bytes.clamp(1, 16) as usize;
    lanes
        .range
        .read(mem, lane, addr, &mut buf[..n])
        .map_err(|e| ExecError::lane_fault(e, lane))?;
    Ok(u128::from_le_bytes(buf))
}

/// Writes the low `bytes` bytes of `v` at `addr` of a buffer (one memory operation):
/// dropped unless every dword of it is in range.
pub fn buf_write(
    _w: &Wave,
    mem: &mut dyn Memory,
    lanes: &LaneAddrs,
    lane: usize,
    addr: u64,
    bytes: u32,
    v: u128,
) -> Result<(), ExecError> {
    if !lanes.range.contains_access(lane, addr, bytes) {
        return Ok(());
    }
    let n = bytes.clamp(1, 16) as usize;
    lanes
        .range
        .write(mem, lane, addr, &v.to_le_bytes()[..n])
        .map_err(|e| ExecError::lane_fault(e, lane))
}

impl LaneAddrs {
    /// The buffer range and placement of the lanes' accesses ([`BufferRange::ALL`] for
    /// non-buffer instructions).
    pub fn buffer_range(&self) -> &BufferRange {
        &self.range
    }
}

/// Whether a scalar buffer access of `bytes` at `addr` lies in the span of the resource in
/// SBASE (see the module comment).
fn scalar_in_range(
    w: &Wave,
    d: &Decoded,
    b: &FormBinding,
    addr: u64,
    bytes: u32,
) -> Result<bool, ExecError> {
    let rsrc = BufferResource::from_bits(
        read_scalar(w, b.op(d, role::SBASE)?, 128, false)?,
        gfx9_line(d),
    );
    let span = rsrc.num_records as u64 * (rsrc.stride.max(1) as u64);
    // The address's base is aligned down to a dword (`smem_addr`).
    let off = addr.wrapping_sub(rsrc.base & !3);
    Ok(off < span && span - off >= bytes.max(1) as u64)
}

/// A read of a scalar buffer instruction (`S_BUFFER_LOAD_*`, atomics): 0 when out of the
/// resource's span.
pub fn sbuf_read(
    w: &Wave,
    mem: &dyn Memory,
    d: &Decoded,
    b: &FormBinding,
    addr: u64,
    bytes: u32,
) -> Result<u128, ExecError> {
    if !scalar_in_range(w, d, b, addr, bytes)? {
        return Ok(0);
    }
    let mut buf = [0u8; 16];
    mem.read(addr, &mut buf[..bytes.clamp(1, 16) as usize])?;
    Ok(u128::from_le_bytes(buf))
}

/// A write of a scalar buffer instruction (`S_BUFFER_STORE_*`, atomics): dropped when out
/// of the resource's span.
pub fn sbuf_write(
    w: &Wave,
    mem: &mut dyn Memory,
    d: &Decoded,
    b: &FormBinding,
    addr: u64,
    bytes: u32,
    v: u128,
) -> Result<(), ExecError> {
    if !scalar_in_range(w, d, b, addr, bytes)? {
        return Ok(());
    }
    mem.write(addr, &v.to_le_bytes()[..bytes.clamp(1, 16) as usize])?;
    Ok(())
}
