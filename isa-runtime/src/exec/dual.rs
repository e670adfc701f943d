//! Executing dual-issue words (VOPD): both halves read their sources before either writes.
//!
//! A half `V_DUAL_<OP>` does what the single instruction `V_<OP>` does (`V_DUAL_MOV_B32` is
//! `V_MOV_B32`, `V_DUAL_CNDMASK_B32` is `V_CNDMASK_B32` with VCC implicit): the half runs
//! through that instruction's executor, on a form of it whose operand fields have the half's
//! roles (`SRC0`, `VSRC1`, `VDST` for `SRCX0`, `VSRCX1`, `VDSTX`), with the half's operand
//! values. The mapping is by name, from the spec's tables, not a list per instruction.
//!
//! Ordering: the Y half runs on a copy of the wave taken before the X half runs, and only its
//! destination VGPR is copied back, so Y never sees what X wrote (a VOPD half writes only its
//! VGPR destination).

use super::wave::{Decoded, Src, Wave};
use super::{ExecError, ExecutorTable, Flow, Lds, Memory};
use crate::decode::Instruction;
use crate::dual::{DualInstruction, HALVES};
use crate::tables::IsaSpec;

/// One half bound to its single-instruction equivalent.
#[derive(Clone, Debug)]
pub struct BoundHalf {
    pub decoded: Decoded,
    pub exec: super::ExecFn,
    /// The destination VGPR.
    pub vdst: u16,
}

/// The role of a half's field: its name without the half letter (`SRCX0` → `SRC0`).
fn role(name: &str, h: usize) -> String {
    name.replacen(HALVES[h], "", 1)
}

/// Binds half `h` of `d` to the executor of its single-instruction equivalent.
pub fn bind_half(
    table: &ExecutorTable,
    d: &DualInstruction,
    h: usize,
) -> Result<BoundHalf, ExecError> {
    let spec: &'static IsaSpec = d.spec;
    let info = d.info(h);
    let single = info
        .name
        .strip_prefix("V_DUAL_")
        .map(|rest| format!("V_{rest}"))
        .ok_or_else(|| ExecError::unsupported(info.mnemonic, "not a V_DUAL_ instruction"))?;
    let ins = spec.instruction_by_name(&single).ok_or_else(|| {
        ExecError::unsupported(
            info.mnemonic,
            format!(
                "{single}, its single-issue equivalent, is not in the {} spec",
                spec.generation
            ),
        )
    })?;
    let half_ops = d.operands(h);
    let enc_h = d.encoding(h);
    // The half's explicit operands by role; the literal stands for `SRC0`.
    let by_role: Vec<(String, Src)> = half_ops
        .iter()
        .filter_map(|o| {
            let f = &enc_h.fields[o.info.field? as usize];
            let r = if f.name == "LITERAL" {
                "SRC0".to_string()
            } else {
                role(f.name, h)
            };
            Some((r, Src::from_operand(&o.value)))
        })
        .collect();
    // A form of the single instruction whose encoded operands are exactly these roles.
    let form = spec.instructions[ins]
        .forms
        .iter()
        .copied()
        .find(|&f| {
            let fi = &spec.forms[f as usize];
            let enc = &spec.encodings[fi.encoding as usize];
            let roles: Vec<&str> = fi
                .operands
                .iter()
                .filter_map(|o| o.field.map(|k| enc.fields[k as usize].name))
                .collect();
            roles.len() == by_role.len() && by_role.iter().all(|(r, _)| roles.contains(&r.as_str()))
        })
        .ok_or_else(|| {
            ExecError::unsupported(
                info.mnemonic,
                format!("no form of {single} has the half's operands"),
            )
        })?;
    let single_ins = Instruction::new(spec, form);
    let mut decoded = Decoded::new(single_ins);
    let fi = &spec.forms[form as usize];
    let enc = &spec.encodings[fi.encoding as usize];
    for (k, o) in fi.operands.iter().enumerate() {
        if let Some(f) = o.field {
            let name = enc.fields[f as usize].name;
            if let Some((_, src)) = by_role.iter().find(|(r, _)| r == name) {
                decoded.operands[k] = *src;
            }
        }
    }
    let vdst = match by_role.iter().find(|(r, _)| r == "VDST") {
        Some((_, Src::Vgpr(v))) => *v,
        _ => {
            return Err(ExecError::illegal(
                "VDST",
                format!("{} has no VGPR destination", info.mnemonic),
            ))
        }
    };
    let exec = table.get(&single_ins).ok_or_else(|| {
        ExecError::unsupported(info.mnemonic, format!("{single} has no executor"))
    })?;
    Ok(BoundHalf {
        decoded,
        exec,
        vdst,
    })
}

/// Runs both halves; every source is read before either half writes.
pub fn execute(
    wave: &mut Wave,
    halves: &[BoundHalf; 2],
    mem: &mut dyn Memory,
    lds: &mut Lds,
) -> Result<Flow, ExecError> {
    let mut before = wave.clone();
    (halves[0].exec)(wave, &halves[0].decoded, mem, lds)?;
    (halves[1].exec)(&mut before, &halves[1].decoded, mem, lds)?;
    let y = halves[1].vdst as u32;
    let lanes = wave.lanes();
    let written = before.vgpr_lanes(y)?[..lanes].to_vec();
    wave.vgpr_lanes_mut(y)?[..lanes].copy_from_slice(&written);
    Ok(Flow::Next)
}

/// Binds both halves of `d`.
pub fn bind(table: &ExecutorTable, d: &DualInstruction) -> Result<[BoundHalf; 2], ExecError> {
    Ok([bind_half(table, d, 0)?, bind_half(table, d, 1)?])
}
