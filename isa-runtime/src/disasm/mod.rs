//! Disassembly into LLVM's AMDGPU syntax (what `llvm-mc --disassemble` prints).
//!
//! The encoding's family (from its name: `ENC_SOP1`, `VOP3_INST_LITERAL`, `VOP1_VOP_DPP16`, ...)
//! picks the family printer; the operand texts come from [`operand_text`]. What AMD's XML does
//! not say (modifier syntax, operand order quirks) lives in the family printers and in
//! [`crate::overrides`], each entry with its reason.

mod memory;
mod scalar;
mod vector;

use crate::decode::Instruction;
use crate::operand::{DecodedOperand, Operand, RegFile};
use std::fmt::Write as _;

/// The encoding families the printers know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    Vop3p,
    Vopd,
    Ds,
    Flat,
    FlatGlobal,
    FlatScratch,
    Mubuf,
    Mtbuf,
    Mimg,
    Exp,
    Other,
}

/// Variants of a family's encoding: literal, DPP, SDWA.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Variant {
    pub literal: bool,
    pub dpp8: bool,
    pub dpp16: bool,
    pub sdwa: bool,
    /// VOP3 forms with a scalar destination (`VOP3_SDST_ENC`).
    pub sdst: bool,
}

/// Classifies an encoding by AMD's name.
pub fn family(encoding: &str) -> (Family, Variant) {
    let n = encoding.strip_prefix("ENC_").unwrap_or(encoding);
    let mut v = Variant {
        literal: n.contains("LITERAL"),
        dpp8: n.contains("DPP8"),
        dpp16: n.contains("DPP16") || (n.contains("DPP") && !n.contains("DPP8")),
        sdwa: n.contains("SDWA"),
        sdst: n.contains("SDST"),
    };
    if v.dpp8 {
        v.dpp16 = false;
    }
    let head = n.split('_').next().unwrap_or(n);
    let f = match head {
        "SOP1" => Family::Sop1,
        "SOP2" => Family::Sop2,
        "SOPK" => Family::Sopk,
        "SOPC" => Family::Sopc,
        "SOPP" => Family::Sopp,
        "SMEM" | "SMRD" => Family::Smem,
        "VOP1" => Family::Vop1,
        "VOP2" => Family::Vop2,
        "VOPC" => Family::Vopc,
        "VOP3" => Family::Vop3,
        "VOP3P" => Family::Vop3p,
        "VOPD" | "VOPDXY" | "VOPD3" => Family::Vopd,
        "DS" | "VDS" => Family::Ds,
        "FLAT" | "VFLAT" => {
            if n.contains("GLBL") || n.contains("GLOBAL") {
                Family::FlatGlobal
            } else if n.contains("SCRATCH") {
                Family::FlatScratch
            } else {
                Family::Flat
            }
        }
        "VGLOBAL" => Family::FlatGlobal,
        "VSCRATCH" => Family::FlatScratch,
        "MUBUF" | "VBUFFER" => Family::Mubuf,
        "MTBUF" => Family::Mtbuf,
        "MIMG" | "VIMAGE" | "VSAMPLE" => Family::Mimg,
        "EXP" | "VEXPORT" => Family::Exp,
        _ => Family::Other,
    };
    (f, v)
}

/// Text of one instruction in LLVM's syntax.
pub fn disassemble(ins: &Instruction) -> String {
    let mut p = Printer::new(ins);
    let (fam, var) = family(ins.encoding().name);
    match fam {
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp | Family::Smem => {
            scalar::print(&mut p, fam, var)
        }
        Family::Ds
        | Family::Flat
        | Family::FlatGlobal
        | Family::FlatScratch
        | Family::Mubuf
        | Family::Mtbuf
        | Family::Mimg
        | Family::Exp => memory::print(&mut p, fam, var),
        Family::Vop1 | Family::Vop2 | Family::Vopc | Family::Vop3 | Family::Vop3p | Family::Vopd => {
            vector::print(&mut p, fam, var)
        }
        Family::Other => p.default_print(),
    }
    p.out
}

/// State shared by the family printers.
pub struct Printer<'a> {
    pub ins: &'a Instruction,
    pub ops: Vec<DecodedOperand>,
    pub out: String,
    /// Whether anything after the mnemonic has been written (for `, ` separators).
    operands_written: usize,
}

impl<'a> Printer<'a> {
    pub fn new(ins: &'a Instruction) -> Printer<'a> {
        Printer { ins, ops: ins.operands(), out: String::with_capacity(48), operands_written: 0 }
    }

    pub fn mnemonic(&mut self) {
        self.out.push_str(self.ins.info().mnemonic);
    }

    /// Appends an operand, with `, ` after the first and a space before the first.
    pub fn operand(&mut self, text: &str) {
        self.out.push_str(if self.operands_written == 0 { " " } else { ", " });
        self.out.push_str(text);
        self.operands_written += 1;
    }

    /// Appends a modifier (` name` or ` name:value`).
    pub fn modifier(&mut self, text: &str) {
        self.out.push(' ');
        self.out.push_str(text);
    }

    pub fn field(&self, name: &str) -> Option<u64> {
        self.ins.field(name)
    }

    /// The explicit (encoded) operands.
    pub fn explicit(&self) -> Vec<DecodedOperand> {
        self.ops.iter().copied().filter(|o| !o.info.implicit && o.info.field.is_some()).collect()
    }

    /// The operand held in field `name`, if the form has one.
    pub fn op_in(&self, name: &str) -> Option<DecodedOperand> {
        let enc = self.ins.encoding();
        self.ops
            .iter()
            .copied()
            .find(|o| o.info.field.is_some_and(|f| enc.fields[f as usize].name == name))
    }

    /// `mnemonic op, op, ...` with every explicit operand in the spec's order.
    pub fn default_print(&mut self) {
        self.mnemonic();
        for o in self.explicit() {
            let t = operand_text(self.ins, &o);
            self.operand(&t);
        }
    }
}

/// The LLVM spelling of an AMD named value for an operand of `size` bits.
pub fn named_text(name: &str, size: u16) -> String {
    let lower = name.to_ascii_lowercase();
    if size > 32 {
        if let Some(base) = lower.strip_suffix("_lo") {
            return base.to_string();
        }
    }
    lower
}

fn reg_prefix(file: RegFile) -> &'static str {
    match file {
        RegFile::Sgpr => "s",
        RegFile::Vgpr => "v",
        RegFile::Agpr => "a",
        RegFile::Ttmp => "ttmp",
    }
}

pub fn reg_text(file: RegFile, first: u32, count: u32) -> String {
    let p = reg_prefix(file);
    if count <= 1 {
        format!("{p}{first}")
    } else {
        format!("{p}[{first}:{}]", first + count - 1)
    }
}

/// Whether a 32-bit literal could have been an inline constant for an operand of this data
/// format (LLVM then prints it as `lit(...)` to keep the encoding).
pub fn literal_is_inlinable(value: u64, data_format: &str, size: u16) -> bool {
    let v = value as u32;
    let int_inline = (v as i32) >= -16 && (v as i32) <= 64;
    if int_inline {
        return true;
    }
    let is_f16 = data_format.contains("F16") || data_format.contains("BF16");
    if size <= 16 && is_f16 {
        return matches!(v & 0xffff, 0x3800 | 0xb800 | 0x3c00 | 0xbc00 | 0x4000 | 0xc000 | 0x4400 | 0xc400 | 0x3118);
    }
    if size > 32 {
        // 64-bit operands hold the literal in the high dword for floats; LLVM's rules for these
        // are handled by the vector printer where they matter.
        return false;
    }
    matches!(
        v,
        0x3f000000 | 0xbf000000 | 0x3f800000 | 0xbf800000 | 0x40000000 | 0xc0000000 | 0x40800000 | 0xc0800000 | 0x3e22f983
    )
}

/// The LLVM text of an operand.
pub fn operand_text(ins: &Instruction, o: &DecodedOperand) -> String {
    let size = o.info.size;
    match o.value {
        Operand::Reg { file, first, count } => reg_text(file, first, count),
        Operand::Named(n) => named_text(n, size),
        Operand::Int(i) => i.to_string(),
        Operand::Float(f) => f.to_string(),
        Operand::Literal(v) => {
            let mut s = String::new();
            if literal_is_inlinable(v, o.info.data_format, size) {
                let _ = write!(s, "lit(0x{v:x})");
            } else {
                let _ = write!(s, "0x{v:x}");
            }
            s
        }
        Operand::Imm(v) => v.to_string(),
        Operand::Unknown(v) => {
            let _ = ins;
            format!("<invalid:{v}>")
        }
        Operand::Implicit(t) => t.to_ascii_lowercase(),
    }
}
