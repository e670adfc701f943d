//! Disassembly into LLVM's AMDGPU syntax (what `llvm-mc --disassemble` prints).
//!
//! The encoding's family (decided by the generator from AMD's name: `ENC_SOP1`,
//! `VOP3_INST_LITERAL`, `VOP1_VOP_DPP16`, ...) picks the family printer; the operand texts come from [`operand_text`]. What AMD's XML does
//! not say (modifier syntax, operand order quirks) lives in the family printers and in
//! [`crate::overrides`], each entry with its reason.

pub mod dual;
mod memory;
mod scalar;
mod vector;

pub(crate) use memory::buffer_format_value;
/// LLVM's buffer format names, for the unified-format tests of `exec_gen::format`.
#[cfg(test)]
pub(crate) use memory::{DATA_FORMATS, NUMBER_FORMATS};

use crate::decode::Instruction;
use crate::operand::{register_count, DecodedOperand, Operand, RegFile};
use crate::tables::{IsaSpec, OperandTypeInfo};

/// The encoding families and variants the printers dispatch on: decided by the generator
/// from AMD's names and read from [`crate::tables::EncodingInfo`].
pub use crate::tables::{Family, Variant};

/// Text of one instruction in LLVM's syntax.
pub fn disassemble(ins: &Instruction) -> String {
    let mut out = String::with_capacity(48);
    disassemble_into(ins, &mut out);
    out
}

/// [`disassemble`] appended to `out`: a listing reuses one buffer instead of a `String` per
/// instruction (the printers only ever append).
pub fn disassemble_into(ins: &Instruction, out: &mut String) {
    let mut p = Printer::new(ins);
    p.out = std::mem::take(out);
    let enc = ins.encoding();
    let (fam, var) = (enc.family, enc.variant);
    match fam {
        // No printer knows the two-word scaled MFMA yet, nor interpolation: spec order.
        Family::Vop3p if var.x2 => p.default_print(),
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
        Family::Vop1
        | Family::Vop2
        | Family::Vopc
        | Family::Vop3
        | Family::Vop3p
        | Family::Vopd => vector::print(&mut p, fam, var),
        Family::Interp | Family::Other => p.default_print(),
    }
    *out = p.out;
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
        Printer {
            ins,
            ops: ins.operands(),
            out: String::new(),
            operands_written: 0,
        }
    }

    pub fn mnemonic(&mut self) {
        let info = self.ins.info();
        let m = crate::overrides::llvm_mnemonic(self.ins.spec.generation, info.name, info.mnemonic);
        self.out.push_str(m);
    }

    /// Appends an operand, with `, ` after the first and a space before the first.
    pub fn operand(&mut self, text: &str) {
        self.out.push_str(if self.operands_written == 0 {
            " "
        } else {
            ", "
        });
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
        self.ops
            .iter()
            .copied()
            .filter(|o| !o.info.implicit && o.info.field.is_some())
            .collect()
    }

    /// The operand held in field `name`, if the form has one.
    pub fn op_in(&self, name: &str) -> Option<DecodedOperand> {
        let enc = self.ins.encoding();
        self.ops.iter().copied().find(|o| {
            o.info
                .field
                .is_some_and(|f| enc.fields[f as usize].name == name)
        })
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

/// The LLVM spelling of an AMD named value for an operand of `size` bits: a 64-bit operand
/// names a register pair by its low half (`VCC_LO` → `vcc`). Source registers keep the half
/// in their name (`src_flat_scratch_base_lo` is LLVM's name at every size).
pub fn named_text(name: &str, size: u16) -> String {
    let lower = name.to_ascii_lowercase();
    if size > 32 && !lower.starts_with("src_") {
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

/// The first register LLVM prints for a scalar tuple: it drops the low bits of an unaligned
/// start (pairs start at an even register, wider tuples at a multiple of four).
pub fn aligned_first(file: RegFile, first: u32, count: u32) -> u32 {
    match (file, count) {
        (RegFile::Sgpr | RegFile::Ttmp, 2) => first & !1,
        (RegFile::Sgpr | RegFile::Ttmp, 3..) => first & !3,
        _ => first,
    }
}

/// How LLVM prints the constants (inline or literal) of an operand; it depends on LLVM's
/// operand type, which follows from the family, the size and the data format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ImmStyle {
    /// 32-bit operands, and the scalar ALU's 16-bit integer operands (printed as 32-bit).
    B32,
    /// 64-bit operands: a 32-bit literal is zero-extended, float constants in double precision.
    B64,
    /// Vector 16-bit integer operands: the whole 32-bit literal decides inlinability, the low
    /// half is printed.
    I16,
    /// Vector 16-bit float operands: the low half decides inlinability and is printed.
    F16,
    /// Scalar 16-bit float operands (GFX11.5+): literals as [`ImmStyle::I16`], and the float
    /// inline constants as their half-precision bit patterns (`0x3800`).
    SaluF16,
}

/// The constant style of an operand.
pub fn imm_style(ins: &Instruction, o: &DecodedOperand) -> ImmStyle {
    let scalar = matches!(
        ins.encoding().family,
        Family::Sop1 | Family::Sop2 | Family::Sopk | Family::Sopc | Family::Sopp | Family::Smem
    );
    imm_style_of(scalar, o.info.size, o.info.data_format)
}

pub fn imm_style_of(scalar: bool, size: u16, data_format: &str) -> ImmStyle {
    let float16 = data_format.contains("F16") && !data_format.contains("PK");
    match size {
        0..=16 if float16 && scalar => ImmStyle::SaluF16,
        0..=16 if float16 => ImmStyle::F16,
        0..=16 if !scalar => ImmStyle::I16,
        33.. => ImmStyle::B64,
        _ => ImmStyle::B32,
    }
}

/// Bit patterns of the float inline constants 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0 and
/// 1/(2*pi), with LLVM's text for them.
const INLINE_FLOATS: [(u16, u32, u64, &str); 9] = [
    (0x3800, 0x3f000000, 0x3fe0000000000000, "0.5"),
    (0xb800, 0xbf000000, 0xbfe0000000000000, "-0.5"),
    (0x3c00, 0x3f800000, 0x3ff0000000000000, "1.0"),
    (0xbc00, 0xbf800000, 0xbff0000000000000, "-1.0"),
    (0x4000, 0x40000000, 0x4000000000000000, "2.0"),
    (0xc000, 0xc0000000, 0xc000000000000000, "-2.0"),
    (0x4400, 0x40800000, 0x4010000000000000, "4.0"),
    (0xc400, 0xc0800000, 0xc010000000000000, "-4.0"),
    (0x3118, 0x3e22f983, 0x3fc45f306dc9c882, "0.15915494"),
];

/// LLVM's text for 1/(2*pi) as a double.
const INV_2PI_F64: &str = "0.15915494309189532";

fn int_inline(v: i64) -> bool {
    (-16..=64).contains(&v)
}

/// The inline-constant text of a 32-bit value, if it is one.
pub fn inline_text32(v: u32) -> Option<String> {
    if int_inline(v as i32 as i64) {
        return Some((v as i32).to_string());
    }
    INLINE_FLOATS
        .iter()
        .find(|f| f.1 == v)
        .map(|f| f.3.to_string())
}

/// The inline-constant text of a 64-bit value, if it is one.
pub fn inline_text64(v: u64) -> Option<String> {
    if int_inline(v as i64) {
        return Some((v as i64).to_string());
    }
    INLINE_FLOATS.iter().find(|f| f.2 == v).map(|f| {
        if f.1 == 0x3e22f983 {
            INV_2PI_F64.to_string()
        } else {
            f.3.to_string()
        }
    })
}

/// Whether the low half of a 16-bit float operand's value is an inline constant.
fn inline_f16(v: u16) -> bool {
    int_inline(v as i16 as i64) || INLINE_FLOATS.iter().any(|f| f.0 == v)
}

/// The text of a literal constant. LLVM keeps the literal encoding visible: a value that
/// would be printed as an inline constant is wrapped as `lit(...)` (`lit64(...)` for a 64-bit
/// literal that a 32-bit one could hold). `literal64` says the encoding's literal is 64 bits.
pub fn literal_text(value: u64, style: ImmStyle, literal64: bool) -> String {
    let hi = value >> 32;
    if literal64 {
        if hi == 0 {
            return format!("lit64(0x{value:x})");
        }
        return match style {
            ImmStyle::B64 => inline_text64(value).unwrap_or_else(|| format!("0x{value:x}")),
            _ => {
                let lo = value as u32;
                inline_text32(lo).unwrap_or_else(|| format!("0x{lo:x}"))
            }
        };
    }
    let v = value as u32;
    let lit = format!("lit(0x{v:x})");
    match style {
        ImmStyle::B32 => {
            if inline_text32(v).is_some() {
                lit
            } else {
                format!("0x{v:x}")
            }
        }
        ImmStyle::B64 => {
            if inline_text64(v as u64).is_some() {
                lit
            } else {
                format!("0x{v:x}")
            }
        }
        ImmStyle::I16 | ImmStyle::SaluF16 => {
            if inline_text32(v).is_some() {
                lit
            } else {
                format!("0x{:x}", v & 0xffff)
            }
        }
        ImmStyle::F16 => {
            if inline_f16(v as u16) {
                lit
            } else {
                format!("0x{:x}", v & 0xffff)
            }
        }
    }
}

/// Whether a 32-bit literal could have been an inline constant for an operand of this data
/// format (LLVM then prints it as `lit(...)` to keep the encoding). Vector operand styles.
pub fn literal_is_inlinable(value: u64, data_format: &str, size: u16) -> bool {
    literal_text(value, imm_style_of(false, size, data_format), false).starts_with("lit")
}

/// The text of a float inline constant named `name` by AMD (`0.5`, `0.15915494`).
pub fn float_text(name: &str, style: ImmStyle) -> String {
    let Some(f) = INLINE_FLOATS.iter().find(|f| f.3 == name) else {
        return name.to_string();
    };
    match style {
        ImmStyle::SaluF16 => format!("0x{:x}", f.0),
        ImmStyle::B64 if f.1 == 0x3e22f983 => INV_2PI_F64.to_string(),
        _ => name.to_string(),
    }
}

/// A signed immediate in LLVM's hex form (`0x12`, `-0x10`).
pub fn signed_hex(v: i64) -> String {
    if v < 0 {
        format!("-0x{:x}", v.unsigned_abs())
    } else {
        format!("0x{v:x}")
    }
}

/// `raw` read as a two's-complement number of `bits` bits.
pub fn sign_extend(raw: u64, bits: u32) -> i64 {
    if bits == 0 || bits >= 64 {
        return raw as i64;
    }
    let shift = 64 - bits;
    ((raw << shift) as i64) >> shift
}

/// The operand's type, if it has one.
pub fn operand_type(ins: &Instruction, o: &DecodedOperand) -> Option<&'static OperandTypeInfo> {
    o.info
        .operand_type
        .map(|t| &ins.spec.operand_types[t as usize])
}

/// A sub-field of a structured operand value (`ID` of an `OPR_HWREG` value), by name.
pub fn subfield(ty: &OperandTypeInfo, name: &str, raw: u64) -> Option<u64> {
    ty.fields
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.extract(raw as u128))
}

/// LLVM's name of a scalar register code that the operand's type does not list (AMD's lists
/// leave out some values LLVM decodes), for 32-bit (`size` ≤ 32) or 64-bit operands. Register
/// numbers follow the generation's layout: trap temporaries from 108, M0 and
/// NULL at 124/125 (swapped from GFX11 on).
pub fn scalar_code_text(generation: &str, code: u64, size: u16) -> Option<String> {
    let gfx9 = crate::overrides::GFX9.contains(&generation);
    let gfx11_up = crate::overrides::GFX11_12.contains(&generation);
    let wide = size > 32;
    let count = register_count(size);
    // Trap temporaries start at 108 from GFX9 on (112 was GFX8's numbering).
    let ttmp_base = 108;
    // SGPRs end below the named registers (102 on GFX9, 106 after), trap temporaries at 16.
    let sgprs = if gfx9 { 102 } else { 106 };
    if count > 2 {
        // Wider tuples are SGPR or TTMP tuples that fit in their file (NULL stands for any).
        let text = match code {
            c if c < sgprs => {
                let first = aligned_first(RegFile::Sgpr, c as u32, count);
                (first + count <= sgprs as u32).then(|| reg_text(RegFile::Sgpr, first, count))
            }
            c @ 108..=123 => {
                let first = aligned_first(RegFile::Ttmp, (c - ttmp_base) as u32, count);
                (first + count <= 16).then(|| reg_text(RegFile::Ttmp, first, count))
            }
            124 if gfx11_up => Some("null".into()),
            125 if !gfx11_up => Some("null".into()),
            _ => None,
        };
        return text;
    }
    let text = match code {
        102 if gfx9 && wide => "flat_scratch".into(),
        104 if gfx9 && wide => "xnack_mask".into(),
        103 | 105 if gfx9 && wide => return None,
        102 if gfx9 => "flat_scratch_lo".into(),
        103 if gfx9 => "flat_scratch_hi".into(),
        104 if gfx9 => "xnack_mask_lo".into(),
        105 if gfx9 => "xnack_mask_hi".into(),
        0..=105 => reg_text(
            RegFile::Sgpr,
            aligned_first(RegFile::Sgpr, code as u32, count),
            count,
        ),
        106 if wide => "vcc".into(),
        106 => "vcc_lo".into(),
        107 if !wide => "vcc_hi".into(),
        c @ 108..=123 => {
            let i = (c - ttmp_base) as u32;
            reg_text(RegFile::Ttmp, aligned_first(RegFile::Ttmp, i, count), count)
        }
        124 if gfx11_up => "null".into(),
        125 if !gfx11_up => "null".into(),
        124 | 125 if !wide => "m0".into(),
        126 if wide => "exec".into(),
        126 => "exec_lo".into(),
        127 if !wide => "exec_hi".into(),
        128..=192 => (code - 128).to_string(),
        193..=208 => (192 - code as i64).to_string(),
        230 => "src_flat_scratch_base_lo".into(),
        231 if !wide => "src_flat_scratch_base_hi".into(),
        235 => "src_shared_base".into(),
        236 => "src_shared_limit".into(),
        237 => "src_private_base".into(),
        238 => "src_private_limit".into(),
        239 => "src_pops_exiting_wave_id".into(),
        251 => "src_vccz".into(),
        252 => "src_execz".into(),
        253 => "src_scc".into(),
        // GFX1250 (cdna5) uses 254 for 64-bit literals; LDS direct supplies one dword.
        254 if !wide && generation != "cdna5" => "src_lds_direct".into(),
        _ => return None,
    };
    Some(text)
}

/// The LLVM text of an operand.
pub fn operand_text(ins: &Instruction, o: &DecodedOperand) -> String {
    if let Operand::Unknown(v) = o.value {
        return unknown_text(ins, o, v);
    }
    let literal64 = ins.field("LITERAL64").is_some();
    value_text(ins.spec, imm_style(ins, o), literal64, o)
}

/// The LLVM text of an operand of `spec` whose constants print in `style` (what
/// [`operand_text`] gives, for operands not held by an [`Instruction`]: dual-issue halves).
pub fn value_text(spec: &IsaSpec, style: ImmStyle, literal64: bool, o: &DecodedOperand) -> String {
    let size = o.info.size;
    match o.value {
        Operand::Reg { file, first, count } => {
            reg_text(file, aligned_first(file, first, count), count)
        }
        Operand::Named(n) => named_text(n, size),
        Operand::Int(i) => i.to_string(),
        Operand::Float(f) => float_text(f, style),
        Operand::Literal(v) => literal_text(v, style, literal64),
        Operand::Imm(v) => v.to_string(),
        Operand::Unknown(v) => unknown_text_in(spec, o, v),
        Operand::Implicit(t) => t.to_ascii_lowercase(),
    }
}

/// A value the operand's type does not list, for operands not held by an [`Instruction`]
/// (dual-issue halves): scalar register operands get LLVM's name of the code; anything else
/// prints as the number.
fn unknown_text_in(spec: &IsaSpec, o: &DecodedOperand, v: u64) -> String {
    let scalar_register_type = o
        .info
        .operand_type
        .map(|t| &spec.operand_types[t as usize])
        .is_some_and(|t| t.runs.iter().any(|r| r.prefix == "s" && r.first_value == 0));
    if scalar_register_type {
        if let Some(t) = scalar_code_text(spec.generation, v, o.info.size) {
            return t;
        }
    }
    v.to_string()
}

/// A value the operand's type does not list: LLVM's name of the code if it has one, else the
/// number.
fn unknown_text(ins: &Instruction, o: &DecodedOperand, v: u64) -> String {
    unlisted_code_name(ins, o).unwrap_or_else(|| v.to_string())
}

/// The bits of a scalar operand as LLVM names its codes: lane masks (`FMT_NUM_M64`) are 32
/// bits in wave32.
pub fn scalar_operand_size(spec: &IsaSpec, info: &crate::tables::OperandInfo) -> u16 {
    if info.data_format.ends_with("M64") && !spec.wave64 {
        32
    } else {
        info.size
    }
}

/// LLVM's name of a source code the operand's type does not list (`null`, `src_lds_direct`,
/// an SGPR pair by an odd number, a VGPR in a 9-bit source AMD types as scalar), for operands
/// in a source field: one whose type holds the scalar source codes, or a 9-bit field (LLVM
/// decodes every code of a 9-bit source, whatever registers the instruction takes). `None`
/// for a code LLVM names not either (a reserved one).
pub fn unlisted_code_name(ins: &Instruction, o: &DecodedOperand) -> Option<String> {
    let ty = operand_type(ins, o)?;
    let scalar_codes = ty
        .runs
        .iter()
        .any(|r| r.prefix == "s" && r.first_value == 0);
    let field = o.info.field.map(|f| &ins.encoding().fields[f as usize]);
    let nine_bit = field.is_some_and(|f| f.width() == 9);
    // A scalar ALU source field takes every scalar code, whatever subset AMD's type lists
    // (OPR_SSRC_BARRIER_ID names only constants; LLVM prints code 0 as `s0`).
    let scalar_source = field.is_some_and(|f| f.name.starts_with("SSRC"))
        && matches!(
            ins.encoding().family,
            Family::Sop1 | Family::Sop2 | Family::Sopc | Family::Sopk
        );
    if !scalar_codes && !nine_bit && !scalar_source {
        return None;
    }
    // A scalar code where AMD types a VGPR (`OPR_SRC_VGPR`): no operand of the instruction;
    // LLVM marks it an invalid register (and numbers trap temporaries wrongly there) on GFX9;
    // from GFX11 it decodes the code (rdna3 `v_readfirstlane_b32 s0, src_private_base`).
    let vgpr_only = !ty.runs.is_empty() && ty.runs.iter().all(|r| r.prefix == "v");
    if vgpr_only && o.raw < 256 && ins.spec.traits.gfx == 9 {
        return None;
    }
    let lane_mask = o.info.data_format.ends_with("M64");
    let size = scalar_operand_size(ins.spec, o.info);
    if nine_bit && o.raw >= 256 {
        // A VGPR where AMD types a scalar (a carry-in, a lane mask): LLVM prints as many
        // VGPRs as the mask has dwords, one for other scalar operands.
        let count = if scalar_codes && !lane_mask {
            1
        } else {
            register_count(size)
        };
        return Some(reg_text(RegFile::Vgpr, o.raw as u32 - 256, count));
    }
    scalar_code_text(ins.spec.generation, o.raw, size)
}
