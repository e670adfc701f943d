//! Shared by the driver tests and the driver benchmark: a tiny hand-written executor table
//! (a dozen instructions, written only to exercise the driver; the real executors are
//! generated from AMD's pseudocode) and an encoder that builds kernels field by field from a
//! spec's tables.
#![allow(dead_code)]

use isa_runtime::exec::wave::{Special, Src, MAX_LANES};
use isa_runtime::exec::{Decoded, ExecError, ExecutorTable, Flow, Lds, Memory, MemoryExt, Wave};
use isa_runtime::{Instruction, IsaSpec};

type R = Result<Flow, ExecError>;

/// A field holding a signed value: sign-extends it from the field's width.
fn signed_field(d: &Decoded, name: &str) -> i64 {
    let enc = d.encoding();
    let Some(f) = enc.fields.iter().find(|f| f.name == name) else {
        return 0;
    };
    let w = f.width();
    let v = f.extract(d.bits);
    ((v << (64 - w)) as i64) >> (64 - w)
}

fn s_mov_b32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    let v = w.read_scalar_b32(d.src_of("SSRC0")?)?;
    w.write_scalar_b32(d.src_of("SDST")?, v)?;
    Ok(Flow::Next)
}

/// SOP2 operands are [SDST, SSRC0, SSRC1, SCC] in the spec's order.
fn sop2(w: &mut Wave, d: &Decoded, f: fn(u32, u32) -> (u32, bool)) -> R {
    let a = w.read_scalar_b32(d.operands[1])?;
    let b = w.read_scalar_b32(d.operands[2])?;
    let (r, scc) = f(a, b);
    w.write_scalar_b32(d.operands[0], r)?;
    w.scc = scc;
    Ok(Flow::Next)
}

fn s_add_u32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    sop2(w, d, |a, b| a.overflowing_add(b))
}
fn s_sub_u32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    sop2(w, d, |a, b| a.overflowing_sub(b))
}
fn s_lshl_b32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    sop2(w, d, |a, b| {
        let r = a << (b & 31);
        (r, r != 0)
    })
}

/// SOPC operands are [SSRC0, SSRC1, SCC].
fn sopc(w: &mut Wave, d: &Decoded, f: fn(u32, u32) -> bool) -> R {
    let a = w.read_scalar_b32(d.operands[0])?;
    let b = w.read_scalar_b32(d.operands[1])?;
    w.scc = f(a, b);
    Ok(Flow::Next)
}
fn s_cmp_lg_u32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    sopc(w, d, |a, b| a != b)
}
fn s_cmp_lt_u32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    sopc(w, d, |a, b| a < b)
}

/// PC-relative branch target of a SOPP branch: the next instruction plus SIMM16 dwords.
fn branch_target(w: &Wave, d: &Decoded) -> u64 {
    (w.pc as i64 + 4 + 4 * signed_field(d, "SIMM16")) as u64
}
fn s_branch(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    Ok(Flow::Jump(branch_target(w, d)))
}
fn s_cbranch_scc1(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    Ok(if w.scc {
        Flow::Jump(branch_target(w, d))
    } else {
        Flow::Next
    })
}
fn s_cbranch_scc0(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    Ok(if !w.scc {
        Flow::Jump(branch_target(w, d))
    } else {
        Flow::Next
    })
}
fn s_endpgm(_: &mut Wave, _: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    Ok(Flow::EndProgram)
}
fn s_nop(_: &mut Wave, _: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    Ok(Flow::Next)
}

/// `S_LOAD_B32/B64` (`S_LOAD_DWORD[X2]`): dwords from SBASE + SOFFSET + OFFSET.
fn s_load(w: &mut Wave, d: &Decoded, mem: &mut dyn Memory, dwords: usize) -> R {
    let base = w.read_scalar_b64(d.src_of("SBASE")?, false)?;
    // CDNA encodes "no SGPR offset" as SOFFSET_EN = 0, RDNA as SOFFSET = NULL.
    let soffset = match d.src_of("SOFFSET") {
        Ok(s @ Src::Sgpr(_)) if d.field("SOFFSET_EN").unwrap_or(1) != 0 => {
            w.read_scalar_b32(s)? as u64
        }
        _ => 0,
    };
    let addr = base
        .wrapping_add(soffset)
        .wrapping_add(signed_field(d, "OFFSET") as u64);
    let mut v = [0u32; 2];
    mem.read_dwords(addr, &mut v[..dwords])?;
    let dst = d.src_of("SDATA")?;
    if dwords == 2 {
        w.write_scalar_b64(dst, v[0] as u64 | (v[1] as u64) << 32)?;
    } else {
        w.write_scalar_b32(dst, v[0])?;
    }
    Ok(Flow::Next)
}
fn s_load_b32(w: &mut Wave, d: &Decoded, mem: &mut dyn Memory, _: &mut Lds) -> R {
    s_load(w, d, mem, 1)
}
fn s_load_b64(w: &mut Wave, d: &Decoded, mem: &mut dyn Memory, _: &mut Lds) -> R {
    s_load(w, d, mem, 2)
}

/// VOP1/VOP2 operands are [VDST, SRC0, (VSRC1)] in the spec's order.
fn v_mov_b32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    let mut a = [0u32; MAX_LANES];
    w.load_src_b32(d.operands[1], &mut a)?;
    let Src::Vgpr(dst) = d.operands[0] else {
        return Err(ExecError::illegal("VDST", "not a VGPR"));
    };
    w.write_vgpr_masked(dst as u32, &a, w.exec_mask())?;
    Ok(Flow::Next)
}

#[inline(always)]
fn vop2(w: &mut Wave, d: &Decoded, f: impl Fn(u32, u32) -> u32) -> R {
    let mut a = [0u32; MAX_LANES];
    let mut b = [0u32; MAX_LANES];
    w.load_src_b32(d.operands[1], &mut a)?;
    w.load_src_b32(d.operands[2], &mut b)?;
    let mut r = [0u32; MAX_LANES];
    for i in 0..MAX_LANES {
        r[i] = f(a[i], b[i]);
    }
    let Src::Vgpr(dst) = d.operands[0] else {
        return Err(ExecError::illegal("VDST", "not a VGPR"));
    };
    w.write_vgpr_masked(dst as u32, &r, w.exec_mask())?;
    Ok(Flow::Next)
}
fn v_add_u32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    vop2(w, d, u32::wrapping_add)
}
fn v_lshlrev_b32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    vop2(w, d, |shift, x| x << (shift & 31))
}

/// VOPC: [VCC, SRC0, VSRC1]; inactive lanes' bits are cleared.
fn v_cmp_gt_u32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    let mut vcc = 0u64;
    for lane in w.active_lanes() {
        if w.read_lane_b32(d.operands[1], lane)? > w.read_lane_b32(d.operands[2], lane)? {
            vcc |= 1 << lane;
        }
    }
    w.vcc = vcc;
    Ok(Flow::Next)
}

fn s_and_saveexec_b32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> R {
    let old = w.exec as u32;
    let s = w.read_scalar_b32(d.src_of("SSRC0")?)?;
    w.write_scalar_b32(d.src_of("SDST")?, old)?;
    w.exec = (w.exec & !0xffff_ffff) | (s & old) as u64;
    w.scc = s & old != 0;
    Ok(Flow::Next)
}

/// Global address of a lane: SADDR (64-bit) + the lane's 32-bit offset, or with SADDR off
/// the lane's 64-bit address; plus the signed OFFSET.
fn global_addr(w: &Wave, d: &Decoded, lane: usize) -> Result<u64, ExecError> {
    let Src::Vgpr(vaddr) = d.src_of("ADDR")? else {
        return Err(ExecError::illegal("ADDR", "not a VGPR"));
    };
    let offset = signed_field(d, "OFFSET") as u64;
    Ok(match d.src_of("SADDR")? {
        Src::Special(Special::Null) | Src::Other(_) => {
            w.read_vgpr_b64(vaddr as u32, lane)?.wrapping_add(offset)
        }
        s => w
            .read_scalar_b64(s, false)?
            .wrapping_add(w.read_vgpr(vaddr as u32, lane)? as u64)
            .wrapping_add(offset),
    })
}
fn global_load_b32(w: &mut Wave, d: &Decoded, mem: &mut dyn Memory, _: &mut Lds) -> R {
    let Src::Vgpr(dst) = d.src_of("VDST")? else {
        return Err(ExecError::illegal("VDST", "not a VGPR"));
    };
    for lane in w.active_lanes() {
        let addr = global_addr(w, d, lane)?;
        let v = mem
            .read_u32(addr)
            .map_err(|e| ExecError::lane_fault(e, lane))?;
        w.write_vgpr(dst as u32, lane, v)?;
    }
    Ok(Flow::Next)
}
fn global_store_b32(w: &mut Wave, d: &Decoded, mem: &mut dyn Memory, _: &mut Lds) -> R {
    let data = d.src_of("DATA")?;
    for lane in w.active_lanes() {
        let addr = global_addr(w, d, lane)?;
        let v = w.read_lane_b32(data, lane)?;
        mem.write_u32(addr, v)
            .map_err(|e| ExecError::lane_fault(e, lane))?;
    }
    Ok(Flow::Next)
}

/// `DS_ADD_U32`: LDS[ADDR + OFFSET] += DATA0 per active lane.
fn ds_add_u32(w: &mut Wave, d: &Decoded, _: &mut dyn Memory, lds: &mut Lds) -> R {
    let offset = d.field("OFFSET0").unwrap_or(0) | d.field("OFFSET1").unwrap_or(0) << 8;
    for lane in w.active_lanes() {
        let addr = w.read_lane_b32(d.src_of("ADDR")?, lane)? as u64 + offset;
        let data = w.read_lane_b32(d.src_of("DATA0")?, lane)?;
        let old = lds
            .read_u32(addr)
            .map_err(|e| ExecError::lane_fault(e, lane))?;
        lds.write_u32(addr, old.wrapping_add(data))
            .map_err(|e| ExecError::lane_fault(e, lane))?;
    }
    Ok(Flow::Next)
}

/// The test executors that exist in `spec` (RDNA3 and CDNA3 spell some differently).
pub fn table(spec: &'static IsaSpec) -> ExecutorTable {
    let mut t = ExecutorTable::new(spec);
    let all: &[(&str, isa_runtime::exec::ExecFn)] = &[
        ("s_mov_b32", s_mov_b32),
        ("s_add_u32", s_add_u32),
        ("s_sub_u32", s_sub_u32),
        ("s_lshl_b32", s_lshl_b32),
        ("s_cmp_lg_u32", s_cmp_lg_u32),
        ("s_cmp_lt_u32", s_cmp_lt_u32),
        ("s_branch", s_branch),
        ("s_cbranch_scc0", s_cbranch_scc0),
        ("s_cbranch_scc1", s_cbranch_scc1),
        ("s_endpgm", s_endpgm),
        ("s_nop", s_nop),
        ("s_load_b32", s_load_b32),
        ("s_load_dword", s_load_b32),
        ("s_load_b64", s_load_b64),
        ("s_load_dwordx2", s_load_b64),
        ("v_mov_b32", v_mov_b32),
        ("v_add_nc_u32", v_add_u32),
        ("v_add_u32", v_add_u32),
        ("v_lshlrev_b32", v_lshlrev_b32),
        ("v_cmp_gt_u32", v_cmp_gt_u32),
        ("s_and_saveexec_b32", s_and_saveexec_b32),
        ("global_load_b32", global_load_b32),
        ("global_load_dword", global_load_b32),
        ("global_store_b32", global_store_b32),
        ("global_store_dword", global_store_b32),
        ("ds_add_u32", ds_add_u32),
    ];
    for (name, f) in all {
        let _ = t.set(name, *f);
    }
    t
}

/// An operand value for [`Asm::op`].
#[derive(Clone, Copy, Debug)]
pub enum Val {
    /// `s<n>` (or the pair starting there).
    S(u32),
    /// `v<n>`.
    V(u32),
    /// An inline integer constant.
    I(i64),
    /// A named value (`NULL`, `VCC_LO`).
    N(&'static str),
    /// A raw field value (offsets, SIMM16).
    Raw(u64),
}

/// Builds a code blob instruction by instruction from the spec's tables.
pub struct Asm {
    pub spec: &'static IsaSpec,
    pub bytes: Vec<u8>,
}

impl Asm {
    pub fn new(spec: &'static IsaSpec) -> Asm {
        Asm {
            spec,
            bytes: Vec::new(),
        }
    }

    /// Byte offset of the next instruction.
    pub fn here(&self) -> usize {
        self.bytes.len()
    }

    /// Appends `name` in the first of `encodings` it has, with `fields` set.
    pub fn op(&mut self, name: &str, encodings: &[&str], fields: &[(&str, Val)]) -> &mut Asm {
        let spec = self.spec;
        let i = spec
            .instruction_by_name(name)
            .unwrap_or_else(|| panic!("{}: no {name}", spec.generation));
        let form = spec.instructions[i]
            .forms
            .iter()
            .copied()
            .find(|&f| encodings.contains(&spec.encoding_of(f).name))
            .unwrap_or_else(|| panic!("{name}: none of {encodings:?}"));
        let mut ins = Instruction::new(spec, form);
        for &(field, val) in fields {
            let fi = ins
                .encoding()
                .fields
                .iter()
                .position(|f| f.name == field)
                .unwrap_or_else(|| panic!("{name}: no field {field}"));
            let ty = spec.forms[form as usize]
                .operands
                .iter()
                .find(|o| o.field == Some(fi as u8))
                .and_then(|o| o.operand_type)
                .map(|t| &spec.operand_types[t as usize]);
            let raw = match (val, ty) {
                (Val::Raw(v), _) => Some(v),
                (Val::S(n), Some(t)) => t.register_value("s", n).map(|v| v as u64),
                (Val::V(n), Some(t)) => t.register_value("v", n).map(|v| v as u64),
                (Val::I(k), Some(t)) => t.named_value(&k.to_string()).map(|v| v as u64),
                (Val::N(n), Some(t)) => t.named_value(n).map(|v| v as u64),
                _ => None,
            };
            let raw = raw.unwrap_or_else(|| panic!("{name}: {field} cannot hold {val:?}"));
            assert!(ins.set_field(fi, raw), "{name}: {field} = {raw}");
        }
        ins.encode_into(&mut self.bytes);
        self
    }
}
