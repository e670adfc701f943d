//! Operand values: reading and writing registers, constants and literals by width.

use super::*;

fn inline_float_bits(f: crate::exec::wave::InlineFloat, bits: u32) -> u128 {
    match bits {
        0..=16 => f.bits16() as u128,
        17..=32 => f.bits32() as u128,
        _ => f.bits64() as u128,
    }
}

/// `bits` bits of a scalar operand: consecutive SGPRs (or TTMPs) from the operand's register,
/// a named register (VCC, EXEC, M0, ...), an inline constant (integers sign-extended, floats
/// as the float of that width) or a literal (a 32-bit literal of an f64 operand is its high
/// dword).
pub fn read_scalar(w: &Wave, s: Src, bits: u32, f64_operand: bool) -> Result<u128, ExecError> {
    let dwords = bits.div_ceil(32).max(1);
    let v = match s {
        Src::Sgpr(r) => {
            let mut v = 0u128;
            for k in 0..dwords.min(4) {
                v |= (w.read_sgpr(r as u32 + k)? as u128) << (32 * k);
            }
            v
        }
        Src::Ttmp(r) => {
            let mut v = 0u128;
            for k in 0..dwords.min(4) {
                v |= (w.read_scalar_b32(Src::Ttmp(r + k as u8))? as u128) << (32 * k);
            }
            v
        }
        Src::Special(sp) if dwords >= 2 => w.read_scalar_b64(Src::Special(sp), false)? as u128,
        Src::Special(sp) => w.read_scalar_b32(Src::Special(sp))? as u128,
        Src::Int(i) => i as i128 as u128,
        Src::Float(f) => inline_float_bits(f, bits),
        Src::Literal(l) => {
            if bits > 32 && f64_operand && l >> 32 == 0 {
                (l as u128) << 32
            } else {
                l as u128
            }
        }
        Src::Imm(v) => v as u128,
        Src::Vgpr(_) | Src::Agpr(_) => {
            return Err(ExecError::illegal(
                format!("{s:?}"),
                "a vector register where the instruction reads a scalar",
            ))
        }
        Src::Other(n) => return Err(ExecError::illegal(n, "not modelled by the emulator")),
    };
    Ok(mask_to(v, bits))
}

/// `bits` bits of an operand in one lane (a VGPR or AGPR run, or a scalar value).
pub fn read_lane(
    w: &Wave,
    s: Src,
    lane: usize,
    bits: u32,
    f64_operand: bool,
) -> Result<u128, ExecError> {
    match s {
        Src::Vgpr(r) => {
            let mut v = 0u128;
            for k in 0..bits.div_ceil(32).clamp(1, 4) {
                v |= (w.read_vgpr(r as u32 + k, lane)? as u128) << (32 * k);
            }
            Ok(mask_to(v, bits))
        }
        Src::Agpr(r) => {
            let mut v = 0u128;
            for k in 0..bits.div_ceil(32).clamp(1, 4) {
                v |= (w.agpr_lanes(r as u32 + k)?[lane & (w.lanes() - 1)] as u128) << (32 * k);
            }
            Ok(mask_to(v, bits))
        }
        other => read_scalar(w, other, bits, f64_operand),
    }
}

/// A 32-bit-or-narrower source in every lane (a VGPR's lanes, or a scalar repeated); inline
/// float constants read as f16 when `bits <= 16`.
#[inline]
pub fn lanes_b32(w: &Wave, s: Src, bits: u32) -> Result<[u32; MAX_LANES], ExecError> {
    let mut out = [0u32; MAX_LANES];
    match s {
        Src::Vgpr(_) | Src::Agpr(_) => w.load_src_b32(s, &mut out)?,
        other => out = [read_scalar(w, other, bits, false)? as u32; MAX_LANES],
    }
    Ok(out)
}

/// A 64-bit source in every lane.
pub fn lanes_b64(w: &Wave, s: Src, f64_operand: bool) -> Result<[u64; MAX_LANES], ExecError> {
    let mut out = [0u64; MAX_LANES];
    match s {
        Src::Vgpr(_) | Src::Agpr(_) => {
            for (lane, o) in out.iter_mut().enumerate().take(w.lanes()) {
                *o = read_lane(w, s, lane, 64, false)? as u64;
            }
        }
        other => out = [read_scalar(w, other, 64, f64_operand)? as u64; MAX_LANES],
    }
    Ok(out)
}

/// Writes `bits` bits of a scalar destination (consecutive SGPRs, a named pair, NULL).
pub fn write_scalar(w: &mut Wave, s: Src, bits: u32, v: u128) -> Result<(), ExecError> {
    let dwords = bits.div_ceil(32).max(1);
    match s {
        Src::Sgpr(r) => {
            for k in 0..dwords.min(4) {
                w.write_sgpr(r as u32 + k, (v >> (32 * k)) as u32)?;
            }
            Ok(())
        }
        Src::Ttmp(r) => {
            for k in 0..dwords.min(4) {
                w.write_scalar_b32(Src::Ttmp(r + k as u8), (v >> (32 * k)) as u32)?;
            }
            Ok(())
        }
        Src::Special(_) if dwords >= 2 => w.write_scalar_b64(s, v as u64),
        Src::Special(_) => w.write_scalar_b32(s, v as u32),
        other => Err(ExecError::illegal(
            format!("{other:?}"),
            "cannot be written",
        )),
    }
}

/// Up to 16 consecutive SGPRs of a scalar operand (`S_LOAD_B512`'s destination).
pub fn read_scalar_dwords(w: &Wave, s: Src, bits: u32) -> Result<[u32; 16], ExecError> {
    let mut out = [0u32; 16];
    let n = bits.div_ceil(32).min(16);
    for k in 0..n {
        out[k as usize] = match s {
            Src::Sgpr(r) => w.read_sgpr(r as u32 + k)?,
            Src::Ttmp(r) => w.read_scalar_b32(Src::Ttmp(r + k as u8))?,
            other if k == 0 => w.read_scalar_b32(other)?,
            other => {
                return Err(ExecError::illegal(
                    format!("{other:?}"),
                    "not a register run",
                ))
            }
        };
    }
    Ok(out)
}

/// Writes up to 16 consecutive SGPRs of a scalar destination.
pub fn write_scalar_dwords(
    w: &mut Wave,
    s: Src,
    bits: u32,
    v: &[u32; 16],
) -> Result<(), ExecError> {
    let n = bits.div_ceil(32).min(16);
    for k in 0..n {
        match s {
            Src::Sgpr(r) => w.write_sgpr(r as u32 + k, v[k as usize])?,
            Src::Ttmp(r) => w.write_scalar_b32(Src::Ttmp(r + k as u8), v[k as usize])?,
            Src::Special(crate::exec::Special::Null) => {}
            other => {
                return Err(ExecError::illegal(
                    format!("{other:?}"),
                    "cannot be written as a register run",
                ))
            }
        }
    }
    Ok(())
}

/// Writes dword `k` of a vector destination (VGPR or AGPR run) for the lanes in `mask`.
#[inline]
pub fn store_lanes(
    w: &mut Wave,
    s: Src,
    k: u32,
    values: &[u32; MAX_LANES],
    mask: u64,
) -> Result<(), ExecError> {
    match s {
        Src::Vgpr(r) => w.write_vgpr_masked(r as u32 + k, values, mask),
        Src::Agpr(r) => {
            let n = w.lanes();
            let dst = w.agpr_lanes_mut(r as u32 + k)?;
            for lane in LaneIter(mask & (u64::MAX >> (64 - n))) {
                dst[lane] = values[lane];
            }
            Ok(())
        }
        other => Err(ExecError::illegal(
            format!("{other:?}"),
            "is not a vector register",
        )),
    }
}

/// Writes `bits` bits of a vector destination in one lane.
pub fn write_lane(w: &mut Wave, s: Src, lane: usize, bits: u32, v: u128) -> Result<(), ExecError> {
    match s {
        Src::Vgpr(_) | Src::Agpr(_) => {
            let base = match s {
                Src::Vgpr(r) | Src::Agpr(r) => r,
                _ => unreachable!(),
            };
            for k in 0..bits.div_ceil(32).clamp(1, 4) {
                let dst = match s {
                    Src::Vgpr(_) => Src::Vgpr(base + k as u16),
                    _ => Src::Agpr(base + k as u16),
                };
                w.write_lane_b32(dst, lane, (v >> (32 * k)) as u32)?;
            }
            Ok(())
        }
        other => Err(ExecError::illegal(
            format!("{other:?}"),
            "is not a vector register",
        )),
    }
}

/// The register number of a register operand (`VGPR[lane][SRC0]` names the operand's VGPR).
pub fn reg_number(s: Src) -> Result<u32, ExecError> {
    match s {
        Src::Vgpr(r) | Src::Agpr(r) | Src::Sgpr(r) => Ok(r as u32),
        Src::Ttmp(r) => Ok(r as u32),
        other => Err(ExecError::illegal(
            format!("{other:?}"),
            "is not a register, but the pseudocode uses it as a register number",
        )),
    }
}

/// `VGPR[lane][reg]`: `bits` bits from VGPR `reg` up, in `lane`. Pseudocode written for 64
/// lanes also runs in wave32: lanes past the wave read as 0.
pub fn vgpr_read(w: &Wave, lane: u64, reg: u64, bits: u32) -> Result<u128, ExecError> {
    let (lane, reg) = lane_reg(lane, reg)?;
    if lane >= w.lanes() {
        return Ok(0);
    }
    read_lane(w, Src::Vgpr(reg), lane, bits, false)
}

/// Writes `VGPR[lane][reg]`; writes to lanes past the wave are dropped (see [`vgpr_read`]).
pub fn vgpr_write(w: &mut Wave, lane: u64, reg: u64, bits: u32, v: u128) -> Result<(), ExecError> {
    let (lane, reg) = lane_reg(lane, reg)?;
    if lane >= w.lanes() {
        return Ok(());
    }
    write_lane(w, Src::Vgpr(reg), lane, bits, v)
}

fn lane_reg(lane: u64, reg: u64) -> Result<(usize, u16), ExecError> {
    if lane >= 64 {
        return Err(ExecError::illegal(
            format!("lane {lane}"),
            "a wave has at most 64 lanes",
        ));
    }
    let reg = u16::try_from(reg)
        .map_err(|_| ExecError::illegal(format!("VGPR {reg}"), "register number out of range"))?;
    Ok((lane as usize, reg))
}

/// `SGPR[reg]`: `bits` bits from SGPR `reg` up.
pub fn sgpr_read(w: &Wave, reg: u64, bits: u32) -> Result<u128, ExecError> {
    let reg = u16::try_from(reg)
        .map_err(|_| ExecError::illegal(format!("SGPR {reg}"), "register number out of range"))?;
    read_scalar(w, Src::Sgpr(reg), bits, false)
}

pub fn sgpr_write(w: &mut Wave, reg: u64, bits: u32, v: u128) -> Result<(), ExecError> {
    let reg = u16::try_from(reg)
        .map_err(|_| ExecError::illegal(format!("SGPR {reg}"), "register number out of range"))?;
    write_scalar(w, Src::Sgpr(reg), bits, v)
}

/// `HW_REGISTERS[id]` for the ids the emulator models (MODE 1, STATUS 2, TRAPSTS 3); others
/// are unsupported.
pub fn hw_reg_read(w: &Wave, id: u64) -> Result<u32, ExecError> {
    match id {
        1 => Ok(w.mode.0),
        2 => Ok(w.status_value()),
        3 => Ok(w.trapsts),
        _ => Err(ExecError::unsupported(
            "HW_REGISTERS",
            format!("hardware register {id} is not modelled"),
        )),
    }
}

pub fn hw_reg_write(w: &mut Wave, id: u64, v: u32) -> Result<(), ExecError> {
    match id {
        1 => w.mode.0 = v,
        3 => w.trapsts = v,
        _ => {
            return Err(ExecError::unsupported(
                "HW_REGISTERS",
                format!("writing hardware register {id} is not modelled"),
            ))
        }
    }
    Ok(())
}

/// A field of MODE by the pseudocode's name (`WAVE_MODE.IEEE`).
pub fn mode_field(w: &Wave, name: &str) -> Result<u32, ExecError> {
    let (lo, width) = crate::exec::Mode::field(name)
        .ok_or_else(|| ExecError::unsupported("MODE", format!("field {name} is not modelled")))?;
    Ok((w.mode.0 >> lo) & ((1u64 << width) - 1) as u32)
}

pub fn set_mode_field(w: &mut Wave, name: &str, v: u32) -> Result<(), ExecError> {
    let (lo, width) = crate::exec::Mode::field(name)
        .ok_or_else(|| ExecError::unsupported("MODE", format!("field {name} is not modelled")))?;
    let m = (((1u64 << width) - 1) as u32) << lo;
    w.mode.0 = (w.mode.0 & !m) | ((v << lo) & m);
    Ok(())
}

/// A STATUS bit by the pseudocode's name (`WAVE_STATUS.PRIV`).
pub fn status_field(w: &Wave, name: &str) -> Result<u32, ExecError> {
    let bit = crate::exec::Status::field(name)
        .ok_or_else(|| ExecError::unsupported("STATUS", format!("field {name} is not modelled")))?;
    Ok((w.status_value() & bit != 0) as u32)
}

pub fn set_status_field(w: &mut Wave, name: &str, v: u32) -> Result<(), ExecError> {
    match name {
        "SCC" => w.scc = v & 1 != 0,
        _ => {
            let bit = crate::exec::Status::field(name).ok_or_else(|| {
                ExecError::unsupported("STATUS", format!("field {name} is not modelled"))
            })?;
            w.status.set(bit, v & 1 != 0);
        }
    }
    Ok(())
}

fn trapsts_bit(name: &str) -> Result<u32, ExecError> {
    use crate::exec::wave::trapsts::*;
    Ok(match name {
        "INVALID" => INVALID,
        "INPUT_DENORMAL" => INPUT_DENORMAL,
        "DIV_BY_ZERO" => DIV_BY_ZERO,
        "OVERFLOW" => OVERFLOW,
        "UNDERFLOW" => UNDERFLOW,
        "INEXACT" => INEXACT,
        "INT_DIV_BY_ZERO" => INT_DIV_BY_ZERO,
        _ => {
            return Err(ExecError::unsupported(
                "TRAPSTS",
                format!("field {name} is not modelled"),
            ))
        }
    })
}

/// A TRAPSTS exception bit by name (`TRAPSTS.INVALID`).
pub fn trapsts_field(w: &Wave, name: &str) -> Result<u32, ExecError> {
    Ok((w.trapsts & trapsts_bit(name)? != 0) as u32)
}

pub fn set_trapsts_field(w: &mut Wave, name: &str, v: u32) -> Result<(), ExecError> {
    let bit = trapsts_bit(name)?;
    if v & 1 != 0 {
        w.trapsts |= bit;
    } else {
        w.trapsts &= !bit;
    }
    Ok(())
}
