//! Memories an emulated wave reads and writes: the device's address space (global memory,
//! reached by global, flat and scalar accesses, and scratch after translation) behind the
//! [`Memory`] trait, and the per-workgroup [`Lds`].
//!
//! Every access is bounds-checked: an access outside what was allocated is a [`MemError`] that
//! names the segment, address and size (the executor adds the lane), never a panic.

use std::fmt;

/// Which memory an access was aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Segment {
    /// The device's address space (global, flat-to-global, scalar loads, kernel arguments).
    Global,
    /// A lane's private memory (scratch / flat-to-private).
    Scratch,
    /// The workgroup's local data share (DS instructions, flat-to-shared).
    Lds,
    /// The code object (instruction fetch).
    Code,
}

impl fmt::Display for Segment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Segment::Global => "global",
            Segment::Scratch => "scratch",
            Segment::Lds => "LDS",
            Segment::Code => "code",
        })
    }
}

/// Why an access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemErrorKind {
    /// No allocation holds the first byte.
    Unmapped,
    /// The access starts inside an allocation (or the segment) but runs past its end.
    OutOfBounds { base: u64, size: u64 },
    /// A write to memory that was allocated read-only.
    ReadOnly,
}

/// A failed memory access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemError {
    pub segment: Segment,
    pub addr: u64,
    pub size: u64,
    pub write: bool,
    pub kind: MemErrorKind,
}

impl fmt::Display for MemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = if self.write { "write" } else { "read" };
        write!(
            f,
            "{} {what} of {} bytes at {:#x}: ",
            self.segment, self.size, self.addr
        )?;
        match self.kind {
            MemErrorKind::Unmapped => f.write_str("no allocation there"),
            MemErrorKind::OutOfBounds { base, size } => write!(
                f,
                "runs past the end of the allocation {base:#x}..{:#x} ({size} bytes)",
                base.wrapping_add(size)
            ),
            MemErrorKind::ReadOnly => f.write_str("the memory is read-only"),
        }
    }
}

impl std::error::Error for MemError {}

/// The device's address space as the emulator sees it. Implementations bounds-check every
/// access and answer with a [`MemError`] instead of panicking.
pub trait Memory {
    /// Fills `buf` from the bytes at `addr..addr + buf.len()`.
    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemError>;
    /// Stores `data` at `addr..addr + data.len()`.
    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemError>;
    /// Called by the driver before an instruction that reads, modifies and writes device
    /// memory (an atomic): a memory shared between threads makes the instruction indivisible
    /// until [`Memory::end_atomic`]. Nothing to do for a memory only one thread uses.
    fn begin_atomic(&mut self) {}
    /// Called after the atomic instruction, whatever its result.
    fn end_atomic(&mut self) {}
}

/// Typed little-endian accessors over any [`Memory`] (also usable on `dyn Memory`).
pub trait MemoryExt: Memory {
    fn read_u8(&self, addr: u64) -> Result<u8, MemError> {
        let mut b = [0u8; 1];
        self.read(addr, &mut b)?;
        Ok(b[0])
    }
    fn read_u16(&self, addr: u64) -> Result<u16, MemError> {
        let mut b = [0u8; 2];
        self.read(addr, &mut b)?;
        Ok(u16::from_le_bytes(b))
    }
    fn read_u32(&self, addr: u64) -> Result<u32, MemError> {
        let mut b = [0u8; 4];
        self.read(addr, &mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn read_u64(&self, addr: u64) -> Result<u64, MemError> {
        let mut b = [0u8; 8];
        self.read(addr, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn write_u8(&mut self, addr: u64, v: u8) -> Result<(), MemError> {
        self.write(addr, &[v])
    }
    fn write_u16(&mut self, addr: u64, v: u16) -> Result<(), MemError> {
        self.write(addr, &v.to_le_bytes())
    }
    fn write_u32(&mut self, addr: u64, v: u32) -> Result<(), MemError> {
        self.write(addr, &v.to_le_bytes())
    }
    fn write_u64(&mut self, addr: u64, v: u64) -> Result<(), MemError> {
        self.write(addr, &v.to_le_bytes())
    }
    /// `dwords.len()` consecutive dwords (multi-dword loads: `S_LOAD_B128`, `GLOBAL_LOAD_B96`).
    fn read_dwords(&self, addr: u64, dwords: &mut [u32]) -> Result<(), MemError> {
        let mut bytes = [0u8; 64];
        let mut done = 0;
        while done < dwords.len() {
            let n = (dwords.len() - done).min(16);
            self.read(addr + 4 * done as u64, &mut bytes[..4 * n])?;
            for (i, d) in dwords[done..done + n].iter_mut().enumerate() {
                *d = u32::from_le_bytes(bytes[4 * i..4 * i + 4].try_into().unwrap());
            }
            done += n;
        }
        Ok(())
    }
}

impl<M: Memory + ?Sized> MemoryExt for M {}

/// One allocation of a [`FlatMemory`].
#[derive(Clone, Debug)]
struct Allocation {
    base: u64,
    bytes: Vec<u8>,
    writable: bool,
}

/// An allocation as the address lookup sees it (shared by [`FlatMemory`] and the parallel
/// dispatcher's shared copy of it).
pub(crate) trait Region {
    fn base(&self) -> u64;
    fn len(&self) -> u64;
    fn writable(&self) -> bool;
    fn end(&self) -> u64 {
        self.base() + self.len()
    }
}

impl Region for Allocation {
    fn base(&self) -> u64 {
        self.base
    }
    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }
    fn writable(&self) -> bool {
        self.writable
    }
}

/// The allocation (index) and offset holding `addr..addr + size` among `regions` (sorted by
/// base), or the error saying why none does.
pub(crate) fn locate<R: Region>(
    regions: &[R],
    addr: u64,
    size: u64,
    write: bool,
) -> Result<(usize, usize), MemError> {
    let fail = |kind| MemError {
        segment: Segment::Global,
        addr,
        size,
        write,
        kind,
    };
    let i = regions.partition_point(|a| a.base() <= addr);
    if i == 0 {
        return Err(fail(MemErrorKind::Unmapped));
    }
    let a = &regions[i - 1];
    if addr >= a.end() && !(size == 0 && addr == a.end()) {
        return Err(fail(MemErrorKind::Unmapped));
    }
    let out_of_bounds = MemErrorKind::OutOfBounds {
        base: a.base(),
        size: a.len(),
    };
    let end = addr.checked_add(size).ok_or(fail(out_of_bounds))?;
    if end > a.end() {
        return Err(fail(out_of_bounds));
    }
    if write && !a.writable() {
        return Err(fail(MemErrorKind::ReadOnly));
    }
    Ok((i - 1, (addr - a.base()) as usize))
}

/// A simple device memory: separate allocations in a 64-bit address space, like buffers a
/// host program allocates. An access must lie entirely inside one allocation. Addresses start
/// at [`FlatMemory::FIRST_ADDRESS`] so that null and small pointers fault, and allocations are
/// separated by an unmapped guard gap so overruns fault instead of reaching a neighbour.
#[derive(Clone, Debug, Default)]
pub struct FlatMemory {
    /// Sorted by base.
    allocations: Vec<Allocation>,
    next: u64,
}

impl FlatMemory {
    /// Where the first allocation goes.
    pub const FIRST_ADDRESS: u64 = 0x1_0000_0000;
    /// Unmapped bytes between allocations.
    pub const GUARD: u64 = 0x1_0000;

    pub fn new() -> FlatMemory {
        FlatMemory {
            allocations: Vec::new(),
            next: Self::FIRST_ADDRESS,
        }
    }

    /// Allocates `size` zeroed bytes aligned to `align` (a power of two, at least 256 is used)
    /// and returns the base address.
    pub fn alloc(&mut self, size: u64, align: u64) -> u64 {
        self.alloc_with(vec![0; size as usize], align, true)
    }

    /// Allocates a copy of `data`.
    pub fn alloc_bytes(&mut self, data: &[u8], align: u64) -> u64 {
        self.alloc_with(data.to_vec(), align, true)
    }

    /// Allocates a copy of `data` that instructions may only read.
    pub fn alloc_read_only(&mut self, data: &[u8], align: u64) -> u64 {
        self.alloc_with(data.to_vec(), align, false)
    }

    /// Allocates dwords (little-endian).
    pub fn alloc_dwords(&mut self, data: &[u32]) -> u64 {
        let bytes: Vec<u8> = data.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.alloc_with(bytes, 256, true)
    }

    fn alloc_with(&mut self, bytes: Vec<u8>, align: u64, writable: bool) -> u64 {
        if self.next == 0 {
            self.next = Self::FIRST_ADDRESS;
        }
        let align = align.max(256).next_power_of_two();
        let base = self.next.div_ceil(align) * align;
        self.next = base + (bytes.len() as u64).max(1) + Self::GUARD;
        self.allocations.push(Allocation {
            base,
            bytes,
            writable,
        });
        base
    }

    /// The bytes of the allocation that starts at `base`.
    pub fn allocation(&self, base: u64) -> Option<&[u8]> {
        self.allocations
            .iter()
            .find(|a| a.base == base)
            .map(|a| a.bytes.as_slice())
    }

    /// Reads `count` dwords from `addr` (a convenience for tests and hosts).
    pub fn dwords(&self, addr: u64, count: usize) -> Result<Vec<u32>, MemError> {
        let mut out = vec![0u32; count];
        self.read_dwords(addr, &mut out)?;
        Ok(out)
    }

    fn find(&self, addr: u64, size: u64, write: bool) -> Result<(usize, usize), MemError> {
        locate(&self.allocations, addr, size, write)
    }

    /// Every allocation as (base, bytes, writable), by base.
    pub(crate) fn regions(&self) -> impl Iterator<Item = (u64, &[u8], bool)> {
        self.allocations
            .iter()
            .map(|a| (a.base, a.bytes.as_slice(), a.writable))
    }

    /// Every allocation's bytes, by base.
    pub(crate) fn regions_mut(&mut self) -> impl Iterator<Item = &mut [u8]> {
        self.allocations.iter_mut().map(|a| a.bytes.as_mut_slice())
    }
}

impl Memory for FlatMemory {
    fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemError> {
        let (i, off) = self.find(addr, buf.len() as u64, false)?;
        buf.copy_from_slice(&self.allocations[i].bytes[off..off + buf.len()]);
        Ok(())
    }

    fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        let (i, off) = self.find(addr, data.len() as u64, true)?;
        self.allocations[i].bytes[off..off + data.len()].copy_from_slice(data);
        Ok(())
    }
}

/// A workgroup's local data share: a bounds-checked byte array addressed from 0.
#[derive(Clone, Debug)]
pub struct Lds {
    bytes: Vec<u8>,
}

impl Lds {
    pub fn new(size: usize) -> Lds {
        Lds {
            bytes: vec![0; size],
        }
    }

    pub fn size(&self) -> usize {
        self.bytes.len()
    }

    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Zeroes the contents (a new workgroup starts with undefined LDS; zero keeps runs
    /// reproducible).
    pub fn clear(&mut self) {
        self.bytes.fill(0);
    }

    #[inline]
    fn range(
        &self,
        addr: u64,
        size: usize,
        write: bool,
    ) -> Result<std::ops::Range<usize>, MemError> {
        let len = self.bytes.len() as u64;
        match addr.checked_add(size as u64) {
            Some(end) if end <= len => Ok(addr as usize..end as usize),
            _ => Err(MemError {
                segment: Segment::Lds,
                addr,
                size: size as u64,
                write,
                kind: if addr < len {
                    MemErrorKind::OutOfBounds { base: 0, size: len }
                } else {
                    MemErrorKind::Unmapped
                },
            }),
        }
    }

    pub fn read(&self, addr: u64, buf: &mut [u8]) -> Result<(), MemError> {
        let r = self.range(addr, buf.len(), false)?;
        buf.copy_from_slice(&self.bytes[r]);
        Ok(())
    }

    pub fn write(&mut self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        let r = self.range(addr, data.len(), true)?;
        self.bytes[r].copy_from_slice(data);
        Ok(())
    }

    #[inline]
    pub fn read_u32(&self, addr: u64) -> Result<u32, MemError> {
        let r = self.range(addr, 4, false)?;
        Ok(u32::from_le_bytes(self.bytes[r].try_into().unwrap()))
    }

    #[inline]
    pub fn write_u32(&mut self, addr: u64, v: u32) -> Result<(), MemError> {
        let r = self.range(addr, 4, true)?;
        self.bytes[r].copy_from_slice(&v.to_le_bytes());
        Ok(())
    }

    pub fn read_u64(&self, addr: u64) -> Result<u64, MemError> {
        let r = self.range(addr, 8, false)?;
        Ok(u64::from_le_bytes(self.bytes[r].try_into().unwrap()))
    }

    pub fn write_u64(&mut self, addr: u64, v: u64) -> Result<(), MemError> {
        let r = self.range(addr, 8, true)?;
        self.bytes[r].copy_from_slice(&v.to_le_bytes());
        Ok(())
    }
}
