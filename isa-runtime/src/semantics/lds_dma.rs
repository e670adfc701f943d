//! Loads that go from memory straight into LDS, writing no register (CDNA 3/4's
//! `GLOBAL_LOAD_LDS_*` and `SCRATCH_LOAD_LDS_*`, and MUBUF loads with the LDS bit set).
//!
//! AMD gives no pseudocode for them; the model follows the address rule of AMD's CDNA ISA
//! guides (section "load data into LDS"): the LDS byte address of lane `t` is M0 (the
//! wave's LDS base, set by the program) plus the instruction's offset plus `t` times the
//! lane's slot, where the slot is one dword for loads of up to 4 bytes (bytes and shorts
//! are zero- or sign-extended to the dword, as a register load would) and the access size
//! for the wider loads (CDNA 4's DWORDX3/X4). Inactive lanes write nothing. The memory side
//! is addressed exactly as the register-writing load of the same family (global with SADDR or
//! a 64-bit ADDR, scratch in the lane's private memory, buffers through the resource with
//! their range check: an out-of-range lane writes 0 to its LDS slot).

use super::{
    buffer::buf_read, field, mem_read, signed_field, AddrKind, FormBinding, FormBindings,
    LaneAddrs, Space,
};
use crate::exec::wave::LaneIter;
use crate::exec::{Decoded, ExecError, Flow, Lds, Memory, Wave};

/// What one LDS-direct load reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LdsLoad {
    /// Bytes read per lane (1, 2, 4, 12 or 16).
    pub bytes: u32,
    /// Sign-extend a byte or short to the dword (else zero-extend).
    pub signed: bool,
}

impl LdsLoad {
    /// The load a mnemonic names by its size suffix (`..._UBYTE`, `..._SSHORT`, `..._DWORDX4`).
    pub fn from_name(name: &str) -> Option<LdsLoad> {
        let n = name.to_ascii_uppercase();
        let suffix = n.rsplit('_').next()?;
        let (bytes, signed) = match suffix {
            "UBYTE" => (1, false),
            "SBYTE" => (1, true),
            "USHORT" => (2, false),
            "SSHORT" => (2, true),
            "DWORD" => (4, false),
            "DWORDX2" => (8, false),
            "DWORDX3" => (12, false),
            "DWORDX4" => (16, false),
            _ => return None,
        };
        Some(LdsLoad { bytes, signed })
    }

    /// Bytes of LDS each lane writes.
    pub fn slot(self) -> u32 {
        self.bytes.max(4)
    }

    /// The lane's LDS data: the loaded bytes, extended to a dword when narrower.
    fn extend(self, v: u128) -> u128 {
        match (self.bytes, self.signed) {
            (1, true) => v as u8 as i8 as i32 as u32 as u128,
            (2, true) => v as u16 as i16 as i32 as u32 as u128,
            (1, false) => v & 0xff,
            (2, false) => v & 0xffff,
            _ => v,
        }
    }
}

/// Runs an LDS-direct load whose memory addresses are formed as `kind` says.
pub fn lds_load(
    w: &mut Wave,
    d: &Decoded,
    table: &'static FormBindings,
    mem: &mut dyn Memory,
    lds: &mut Lds,
    kind: AddrKind,
    op: LdsLoad,
) -> Result<Flow, ExecError> {
    let b = FormBinding::of(d, table)?;
    let addrs = LaneAddrs::new(w, d, b, kind)?;
    // The instruction offset moves the LDS address too: signed for global and scratch,
    // unsigned for buffers.
    let inst_offset = match kind {
        AddrKind::Buffer => b.field(d, field::OFFSET),
        _ => signed_field(d, b, field::OFFSET) as u64,
    };
    let lds_base = (w.m0 as u64).wrapping_add(inst_offset) & 0xffff_ffff;
    let slot = op.slot();
    for lane in LaneIter(w.exec_mask()) {
        let a = addrs.at(lane);
        let v = match kind {
            // A buffer load of several dwords is checked a dword at a time.
            AddrKind::Buffer => {
                let mut v = 0u128;
                for k in (0..op.bytes).step_by(4) {
                    let n = (op.bytes - k).min(4);
                    v |= buf_read(w, mem, &addrs, lane, a + k as u64, n)? << (8 * k);
                }
                v
            }
            AddrKind::Scratch => mem_read(w, mem, lds, Space::Scratch, a, op.bytes, Some(lane))?,
            AddrKind::Global => mem_read(w, mem, lds, Space::Global, a, op.bytes, Some(lane))?,
            AddrKind::Flat => mem_read(w, mem, lds, Space::Flat, a, op.bytes, Some(lane))?,
        };
        let at = lds_base + lane as u64 * slot as u64;
        lds.write(at, &op.extend(v).to_le_bytes()[..slot as usize])
            .map_err(|e| ExecError::lane_fault(e, lane))?;
    }
    Ok(Flow::Next)
}

/// Whether a MUBUF load asks for LDS instead of VDATA (its LDS bit).
pub fn lds_bit(d: &Decoded) -> bool {
    d.field("LDS").is_some_and(|v| v != 0)
}

/// A MUBUF load with the LDS bit set, sized by its mnemonic.
pub fn buffer_load_lds(
    w: &mut Wave,
    d: &Decoded,
    table: &'static FormBindings,
    mem: &mut dyn Memory,
    lds: &mut Lds,
) -> Result<Flow, ExecError> {
    let op = LdsLoad::from_name(d.mnemonic()).ok_or_else(|| {
        ExecError::unsupported(d.mnemonic(), "the LDS bit on a load of this size")
    })?;
    lds_load(w, d, table, mem, lds, AddrKind::Buffer, op)
}

/// `GLOBAL_LOAD_LDS_*` and `SCRATCH_LOAD_LDS_*` (the name gives the family and size).
pub fn flat_load_lds(
    w: &mut Wave,
    d: &Decoded,
    table: &'static FormBindings,
    mem: &mut dyn Memory,
    lds: &mut Lds,
) -> Result<Flow, ExecError> {
    let name = d.mnemonic().to_ascii_uppercase();
    let kind = if name.starts_with("SCRATCH_") {
        AddrKind::Scratch
    } else {
        AddrKind::Global
    };
    let op = LdsLoad::from_name(&name)
        .ok_or_else(|| ExecError::unsupported(d.mnemonic(), "an LDS-direct load of this size"))?;
    lds_load(w, d, table, mem, lds, kind, op)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_slots_follow_the_name() {
        let l = |n| LdsLoad::from_name(n).unwrap();
        assert_eq!(l("global_load_lds_ubyte").slot(), 4);
        assert_eq!(l("GLOBAL_LOAD_LDS_DWORDX3").slot(), 12);
        assert_eq!(l("BUFFER_LOAD_DWORDX4").bytes, 16);
        assert!(l("SCRATCH_LOAD_LDS_SSHORT").signed);
        assert_eq!(LdsLoad::from_name("BUFFER_LOAD_FORMAT_X"), None);
        assert_eq!(l("GLOBAL_LOAD_LDS_SBYTE").extend(0x80), 0xffff_ff80);
        assert_eq!(l("GLOBAL_LOAD_LDS_USHORT").extend(0x1_8000), 0x8000);
    }
}
