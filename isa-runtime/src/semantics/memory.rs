//! Memory access by segment and address calculation per encoding family.

use super::*;

/// Where a memory access goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// The device's global address space.
    Global,
    /// The workgroup's LDS.
    Lds,
    /// A flat address: global, LDS or scratch by aperture.
    Flat,
    /// The lane's private memory (the address is an offset into it).
    Scratch,
}

fn lane_err(e: MemError, lane: Option<usize>) -> ExecError {
    match lane {
        Some(l) => ExecError::lane_fault(e, l),
        None => ExecError::from(e),
    }
}

/// Reads `bytes` bytes (1..=16) at `addr` of `space`, little-endian.
pub fn mem_read(
    w: &Wave,
    mem: &dyn Memory,
    lds: &Lds,
    space: Space,
    addr: u64,
    bytes: u32,
    lane: Option<usize>,
) -> Result<u128, ExecError> {
    let mut buf = [0u8; 16];
    let n = bytes.clamp(1, 16) as usize;
    match resolve(w, space, addr, bytes, lane, false)? {
        (Space::Lds, a) => lds.read(a, &mut buf[..n]),
        (_, a) => mem.read(a, &mut buf[..n]),
    }
    .map_err(|e| lane_err(e, lane))?;
    Ok(u128::from_le_bytes(buf))
}

/// Writes the low `bytes` bytes (1..=16) of `v` at `addr` of `space`.
#[allow(clippy::too_many_arguments)]
pub fn mem_write(
    w: &Wave,
    mem: &mut dyn Memory,
    lds: &mut Lds,
    space: Space,
    addr: u64,
    bytes: u32,
    v: u128,
    lane: Option<usize>,
) -> Result<(), ExecError> {
    let buf = v.to_le_bytes();
    let n = bytes.clamp(1, 16) as usize;
    match resolve(w, space, addr, bytes, lane, true)? {
        (Space::Lds, a) => lds.write(a, &buf[..n]),
        (_, a) => mem.write(a, &buf[..n]),
    }
    .map_err(|e| lane_err(e, lane))
}

/// The memory and address an access of `space` reaches (flat apertures and scratch offsets
/// translated).
fn resolve(
    w: &Wave,
    space: Space,
    addr: u64,
    bytes: u32,
    lane: Option<usize>,
    write: bool,
) -> Result<(Space, u64), ExecError> {
    use crate::exec::wave::FlatTarget;
    match space {
        Space::Global => Ok((Space::Global, addr)),
        Space::Lds => Ok((Space::Lds, addr & 0xffff_ffff)),
        Space::Scratch => {
            let lane = lane.unwrap_or(0);
            Ok((
                Space::Global,
                w.scratch_address(lane, addr, bytes as u64, write)?,
            ))
        }
        Space::Flat => match w.flat_target(addr) {
            FlatTarget::Global(a) => Ok((Space::Global, a)),
            FlatTarget::Lds(a) => Ok((Space::Lds, a)),
            FlatTarget::Scratch(a) => {
                let lane = lane.unwrap_or(0);
                Ok((
                    Space::Global,
                    w.scratch_address(lane, a, bytes as u64, write)?,
                ))
            }
        },
    }
}

/// A field value sign-extended from the field's width (signed instruction offsets).
pub fn signed_field(d: &Decoded, b: &FormBinding, f: usize) -> i64 {
    let i = b.fields[f];
    if i == NONE {
        return 0;
    }
    let fi = &d.encoding().fields[i as usize];
    let width = fi.width();
    let v = fi.extract(d.bits);
    if width == 0 || width >= 64 {
        return v as i64;
    }
    ((v << (64 - width)) as i64) >> (64 - width)
}

/// Whether SADDR is "off" (NULL, or the encoding's 0x7f "no SGPR" value that decodes as a
/// value the emulator does not model).
fn saddr_off(s: Src) -> bool {
    matches!(s, Src::Special(Special::Null) | Src::Other(_) | Src::Imm(_))
}

/// The address of a global (or flat-global) access of `lane`: SADDR (a 64-bit SGPR base) plus
/// the lane's 32-bit offset in ADDR, or with SADDR off the lane's 64-bit ADDR; plus the
/// signed instruction offset.
pub fn global_addr(w: &Wave, d: &Decoded, b: &FormBinding, lane: usize) -> Result<u64, ExecError> {
    let offset = signed_field(d, b, field::OFFSET) as u64;
    let addr = b.op(d, role::ADDR)?;
    let saddr = if b.has(role::SADDR) {
        Some(b.op(d, role::SADDR)?)
    } else {
        None
    };
    Ok(match saddr {
        Some(s) if !saddr_off(s) => (read_scalar(w, s, 64, false)? as u64)
            .wrapping_add(read_lane(w, addr, lane, 32, false)? as u64)
            .wrapping_add(offset),
        _ => (read_lane(w, addr, lane, 64, false)? as u64).wrapping_add(offset),
    })
}

/// A flat address: the lane's 64-bit ADDR plus the signed offset.
pub fn flat_addr(w: &Wave, d: &Decoded, b: &FormBinding, lane: usize) -> Result<u64, ExecError> {
    let offset = signed_field(d, b, field::OFFSET) as u64;
    let addr = b.op(d, role::ADDR)?;
    Ok((read_lane(w, addr, lane, 64, false)? as u64).wrapping_add(offset))
}

/// A scratch offset of `lane`: the lane's 32-bit ADDR (when the form has one and it is a
/// VGPR), plus SADDR (when present and not off), plus the signed offset.
pub fn scratch_addr(w: &Wave, d: &Decoded, b: &FormBinding, lane: usize) -> Result<u64, ExecError> {
    let offset = signed_field(d, b, field::OFFSET);
    let v = match b.has(role::ADDR).then(|| b.op(d, role::ADDR)).transpose()? {
        Some(s @ (Src::Vgpr(_) | Src::Agpr(_))) => read_lane(w, s, lane, 32, false)? as u32,
        _ => 0,
    };
    let s = match b
        .has(role::SADDR)
        .then(|| b.op(d, role::SADDR))
        .transpose()?
    {
        Some(s) if !saddr_off(s) => read_scalar(w, s, 32, false)? as u32,
        _ => 0,
    };
    Ok((v as u64)
        .wrapping_add(s as u64)
        .wrapping_add(offset as u64)
        & 0xffff_ffff)
}

/// A scalar memory address: SBASE (64-bit, aligned down to 4) plus SOFFSET (an SGPR, unless
/// it is NULL or CDNA's SOFFSET_EN is 0) plus the offset field (signed where the field is;
/// CDNA's IMM = 0 makes OFFSET an SGPR number).
pub fn smem_addr(w: &Wave, d: &Decoded, b: &FormBinding) -> Result<u64, ExecError> {
    let base = read_scalar(w, b.op(d, role::SBASE)?, 64, false)? as u64 & !3;
    // `S_BUFFER_*`: SBASE is a buffer resource, whose base is its low 48 bits (the stride
    // and swizzle bits above it are not part of the address).
    let base = if b.sizes[role::SBASE] == 128 {
        base & 0xffff_ffff_ffff
    } else {
        base
    };
    let soffset = if b.has(role::SOFFSET)
        && (!b.has_field(field::SOFFSET_EN) || b.field(d, field::SOFFSET_EN) != 0)
    {
        match b.op(d, role::SOFFSET)? {
            Src::Special(Special::Null) => 0,
            s @ (Src::Sgpr(_) | Src::Special(_) | Src::Ttmp(_)) => {
                read_scalar(w, s, 32, false)? as u64
            }
            _ => 0,
        }
    } else {
        0
    };
    let offset = if b.has_field(field::IMM) && b.field(d, field::IMM) == 0 {
        w.read_sgpr(b.field(d, field::OFFSET) as u32)? as u64
    } else {
        signed_field(d, b, field::OFFSET) as u64
    };
    Ok(base.wrapping_add(soffset).wrapping_add(offset))
}

/// A scalar scratch access (`S_SCRATCH_*`, GFX9 line): the byte offset SBASE + SOFFSET +
/// OFFSET (as [`smem_addr`] forms it, low 32 bits) into the wave's private memory, taken as
/// one unswizzled region (the model's scratch is linear: lane `l` owns bytes
/// `l * per_lane ..`); the device address of the access, or a scratch fault when its
/// SDATA-sized access leaves the wave's region.
pub fn smem_scratch_addr(w: &Wave, d: &Decoded, b: &FormBinding) -> Result<u64, ExecError> {
    let offset = smem_addr(w, d, b)? & 0xffff_ffff;
    let size = (b.sizes[role::SDATA] as u64 / 8).max(4);
    let region = w.scratch.per_lane * w.lanes() as u64;
    if offset + size > region {
        return Err(ExecError::from(MemError {
            segment: crate::exec::Segment::Scratch,
            addr: offset,
            size,
            write: false,
            kind: crate::exec::MemErrorKind::OutOfBounds {
                base: 0,
                size: region,
            },
        }));
    }
    Ok(w.scratch.base + offset)
}

/// Whether a flat/global/scratch/buffer atomic returns the value it replaced (its form has a
/// destination either way): GLC, or SC0, or TH bit 0 set; forms with none of these fields
/// always return.
pub fn atomic_returns(d: &Decoded, b: &FormBinding) -> bool {
    if b.has_field(field::GLC) {
        b.field(d, field::GLC) != 0
    } else if b.has_field(field::SC0) {
        b.field(d, field::SC0) != 0
    } else if b.has_field(field::TH) {
        b.field(d, field::TH) & 1 != 0
    } else {
        true
    }
}

/// How a vector memory instruction forms its addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrKind {
    Global,
    Flat,
    Scratch,
    Buffer,
}

/// The addresses of every lane of a vector memory instruction, computed once per
/// instruction (the operands are read once, not per lane), and for buffer instructions the
/// range the resource allows.
pub struct LaneAddrs {
    addrs: [u64; MAX_LANES],
    pub(super) range: BufferRange,
}

impl LaneAddrs {
    /// Computes the active lanes' addresses (see [`global_addr`], [`flat_addr`],
    /// [`scratch_addr`], [`buffer::buffer_lanes`]).
    pub fn new(
        w: &Wave,
        d: &Decoded,
        b: &FormBinding,
        kind: AddrKind,
    ) -> Result<LaneAddrs, ExecError> {
        let mut a = [0u64; MAX_LANES];
        let mut range = BufferRange::ALL;
        let exec = w.exec_mask();
        match kind {
            AddrKind::Global => {
                let offset = signed_field(d, b, field::OFFSET) as u64;
                let addr = b.op(d, role::ADDR)?;
                let saddr = match b
                    .has(role::SADDR)
                    .then(|| b.op(d, role::SADDR))
                    .transpose()?
                {
                    Some(s) if !saddr_off(s) => Some(read_scalar(w, s, 64, false)? as u64),
                    _ => None,
                };
                match saddr {
                    Some(base) => {
                        let v = lanes_b32(w, addr, 32)?;
                        for lane in LaneIter(exec) {
                            a[lane] = base.wrapping_add(v[lane] as u64).wrapping_add(offset);
                        }
                    }
                    None => {
                        let v = lanes_b64(w, addr, false)?;
                        for lane in LaneIter(exec) {
                            a[lane] = v[lane].wrapping_add(offset);
                        }
                    }
                }
            }
            AddrKind::Flat => {
                for lane in LaneIter(exec) {
                    a[lane] = flat_addr(w, d, b, lane)?;
                }
            }
            AddrKind::Scratch => {
                for lane in LaneIter(exec) {
                    a[lane] = scratch_addr(w, d, b, lane)?;
                }
            }
            AddrKind::Buffer => range = buffer::buffer_lanes(w, d, b, &mut a)?,
        }
        Ok(LaneAddrs { addrs: a, range })
    }

    #[inline]
    pub fn at(&self, lane: usize) -> u64 {
        self.addrs[lane & (MAX_LANES - 1)]
    }

    /// Whether `lane` may access `addr` (always, except where a buffer's range check says
    /// otherwise).
    #[inline]
    pub fn in_range(&self, lane: usize, addr: u64) -> bool {
        self.range.contains(lane, addr)
    }
}

/// The 16-bit DS offset: the OFFSET field, or OFFSET1:OFFSET0.
pub fn ds_offset(d: &Decoded, b: &FormBinding) -> u64 {
    if b.has_field(field::OFFSET) {
        b.field(d, field::OFFSET)
    } else {
        b.field(d, field::OFFSET0) | b.field(d, field::OFFSET1) << 8
    }
}
