//! Source selection of encoding variants: VOP3P half selects and DPP lane movement.

use super::*;

/// VOP3P's OPSEL_HI bits, with CDNA's third bit (`OPSEL_HI2`, bit 14) when it is separate.
pub(super) fn opsel_hi(d: &Decoded, b: &FormBinding) -> u64 {
    let hi = b.field(d, field::OPSEL_HI);
    if b.has_field(field::OPSEL_HI2) {
        hi | b.field(d, field::OPSEL_HI2) << 2
    } else {
        hi
    }
}

/// Packed math (VOP3P): source `k` as the pseudocode sees it: its low half taken from the
/// register's high half when OPSEL bit `k` is set, its high half from the low half when
/// OPSEL_HI bit `k` is clear, and NEG/NEG_HI flipping the sign bit of each half. `values`
/// holds every lane's 32-bit source. Forms of other encodings are unchanged.
pub fn vop3p_src(d: &Decoded, b: &FormBinding, k: usize, values: &mut [u32; MAX_LANES]) {
    if b.variant != variant::VOP3P {
        return;
    }
    let bit = |f: u64| (f >> k) & 1 != 0;
    let sel_lo = bit(b.field(d, field::OPSEL));
    let sel_hi = !b.has_field(field::OPSEL_HI) || bit(opsel_hi(d, b));
    let neg_lo = (bit(b.field(d, field::NEG)) as u32) << 15;
    let neg_hi = (bit(b.field(d, field::NEG_HI)) as u32) << 15;
    if !sel_lo && sel_hi && neg_lo == 0 && neg_hi == 0 {
        return;
    }
    for v in values.iter_mut() {
        let (l, h) = (*v & 0xffff, *v >> 16);
        let lo = if sel_lo { h } else { l } ^ neg_lo;
        let hi = if sel_hi { h } else { l } ^ neg_hi;
        *v = lo | hi << 16;
    }
}

/// Packed math on 64-bit sources (`V_PK_FMA_F32`): only the default selects are modelled.
pub fn vop3p_src64(d: &Decoded, b: &FormBinding, k: usize) -> Result<(), ExecError> {
    if b.variant != variant::VOP3P {
        return Ok(());
    }
    let bit = |f: u64| (f >> k) & 1 != 0;
    let default = !bit(b.field(d, field::OPSEL))
        && (!b.has_field(field::OPSEL_HI) || bit(opsel_hi(d, b)))
        && !bit(b.field(d, field::NEG))
        && !bit(b.field(d, field::NEG_HI));
    if default {
        Ok(())
    } else {
        Err(ExecError::unsupported(
            d.mnemonic(),
            "VOP3P half selects of 64-bit sources are not modelled",
        ))
    }
}

/// The lane a DPP16 (RDNA) or DPP (GCN/CDNA) control reads for `lane`, or None when the
/// source lane is outside the row or the wave.
fn dpp_source(ctrl: u32, lane: usize, lanes: usize, gcn: bool) -> Result<Option<usize>, String> {
    let row = lane & !15;
    let i = lane & 15;
    let n = (ctrl & 15) as usize;
    Ok(match ctrl {
        0x000..=0x0ff => Some((lane & !3) | ((ctrl as usize >> (2 * (lane & 3))) & 3)),
        0x101..=0x10f => (i + n < 16).then_some(lane + n),
        0x111..=0x11f => (i >= n).then(|| lane - n),
        0x121..=0x12f => Some(row | ((i + 16 - n) & 15)),
        0x130 if gcn => (lane + 1 < lanes).then_some(lane + 1),
        0x134 if gcn => Some((lane + 1) % lanes),
        0x138 if gcn => lane.checked_sub(1),
        0x13c if gcn => Some((lane + lanes - 1) % lanes),
        0x140 => Some(row | (15 - i)),
        0x141 => Some((lane & !7) | (7 - (lane & 7))),
        0x142 if gcn => (lane >= 16).then(|| row - 1),
        0x143 if gcn => (lane >= 32).then_some(31),
        0x150..=0x15f if !gcn => Some(row | n),
        0x160..=0x16f if !gcn => Some(row | (i ^ n)),
        _ => {
            return Err(format!(
                "DPP control {ctrl:#x} is not a lane movement of this generation"
            ))
        }
    })
}

/// Applies a DPP form's lane movement to source 0 (`values` holds every lane's value, in
/// each width the body reads it at) and returns the lanes that must not be written: lanes
/// of disabled rows or banks, and lanes whose source is out of range or inactive unless
/// BOUND_CTRL makes them read 0. Forms without DPP return 0 and change nothing.
pub fn dpp_src0(
    w: &Wave,
    d: &Decoded,
    b: &FormBinding,
    values: &mut [&mut [u32; MAX_LANES]],
) -> Result<u64, ExecError> {
    let n = w.lanes();
    let exec = w.exec_mask();
    let f = |k| b.field(d, k);
    let fi = f(field::FI) != 0;
    let mut src_of = [None; MAX_LANES];
    let mut skip = 0u64;
    match b.variant {
        variant::DPP8 => {
            for (lane, s) in src_of.iter_mut().enumerate().take(n) {
                *s = Some((lane & !7) | f(field::LANE_SEL_0 + (lane & 7)) as usize);
            }
        }
        variant::DPP16 | variant::DPP => {
            let gcn = b.variant == variant::DPP;
            let ctrl = f(field::DPP_CTRL) as u32;
            let rows = if b.has_field(field::ROW_MASK) {
                f(field::ROW_MASK)
            } else {
                0xf
            };
            let banks = if b.has_field(field::BANK_MASK) {
                f(field::BANK_MASK)
            } else {
                0xf
            };
            for (lane, s) in src_of.iter_mut().enumerate().take(n) {
                if rows >> (lane / 16) & 1 == 0 || banks >> ((lane / 4) & 3) & 1 == 0 {
                    skip |= 1 << lane;
                    continue;
                }
                *s = dpp_source(ctrl, lane, n, gcn)
                    .map_err(|why| ExecError::unsupported(d.mnemonic(), why))?;
            }
        }
        _ => return Ok(0),
    }
    let bound_zero = f(field::BOUND_CTRL) != 0 || b.variant == variant::DPP8;
    for v in values.iter_mut() {
        let src = **v;
        for lane in 0..n {
            if skip >> lane & 1 != 0 {
                continue;
            }
            match src_of[lane].filter(|&s| s < n && (fi || exec >> s & 1 != 0)) {
                Some(s) => v[lane] = src[s],
                None if bound_zero => v[lane] = 0,
                None => skip |= 1 << lane,
            }
        }
    }
    // With no source read (`values` empty) only the row and bank masks matter.
    Ok(skip)
}
