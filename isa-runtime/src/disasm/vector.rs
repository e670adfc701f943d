//! Vector ALU families: VOP1, VOP2, VOPC, VOP3, VOP3P, VOPD, with their literal, DPP and SDWA
//! encodings, in LLVM's syntax.
//!
//! LLVM prints `mnemonic[suffix] destinations, sources[ modifiers]`:
//! - the suffix names the encoding when the instruction has more than one: `_e32` (VOP1, VOP2,
//!   VOPC of an instruction that also has a VOP3 form), `_e64` (VOP3 of an instruction that also
//!   has a 32-bit form), `_dpp`, `_e64_dpp`, `_sdwa`;
//! - sources carry their input modifiers (`-v1`, `|v1|`, `-|v1|`, `neg(0.5)`, `sext(v1)`);
//! - then the output modifiers (`op_sel:[..]`, `clamp`, `mul:2`, ...) and the DPP or SDWA
//!   controls.
//!
//! None of this is in AMD's XML: it is keyed here by family and field names.

use super::{
    push_hex, push_i64, push_named, push_reg, push_u64, Family, FormPlan, Printer, Variant, F,
};
use crate::decode::Instruction;
use crate::llvm_syntax;
use crate::operand::{classify_in, DecodedOperand, Operand, RegFile};
use crate::tables::{IsaSpec, OperandInfo};

/// Instructions that LLVM defines in one encoding only although AMD's spec lists more, so LLVM
/// prints their 32-bit form without `_e32`.
const LLVM_SINGLE_ENCODING: &[(&str, &str)] = &[
    (
        "V_READFIRSTLANE_B32",
        "LLVM defines it as VOP1 only (it has no VOP3 form in LLVM), so no `_e32` is printed",
    ),
    (
        "V_SWAP_B32",
        "LLVM defines it as VOP1 only (GFX9: no VOP3 form), so no `_e32` is printed",
    ),
    (
        "V_ACCVGPR_MOV_B32",
        "LLVM defines it as VOP1 only (no VOP3 form), so no `_e32` is printed",
    ),
];

pub fn print(p: &mut Printer, family: Family, variant: Variant) {
    let shape = Shape::of(p, family, variant);
    match family {
        Family::Vopd => print_vopd(p),
        _ => print_alu(p, &shape),
    }
}

/// What the printer needs to know about the form beyond its encoding family.
struct Shape {
    family: Family,
    variant: Variant,
    /// The instruction also has a VOP1/VOP2/VOPC form.
    has_short: bool,
    /// The instruction also has a VOP3 form (LLVM knows it).
    has_long: bool,
    /// A compare (the instruction has a VOPC form).
    compare: bool,
    /// LLVM prints True16 register halves (`v1.l`, `v1.h`) for 16-bit operands.
    true16: bool,
}

/// Whether LLVM defines the instruction in one encoding only ([`LLVM_SINGLE_ENCODING`]).
pub(super) fn llvm_single_encoding(name: &str) -> bool {
    LLVM_SINGLE_ENCODING.iter().any(|(n, _)| *n == name)
}

impl Shape {
    fn of(p: &Printer, family: Family, variant: Variant) -> Shape {
        let plan = p.plan;
        Shape {
            family,
            variant,
            has_short: plan.has_short,
            has_long: plan.has_long,
            compare: plan.compare,
            true16: p.ins.spec.traits.true16,
        }
    }

    fn dpp(&self) -> bool {
        self.variant.dpp8 || self.variant.dpp16
    }

    /// The encoding suffix LLVM appends to the mnemonic.
    fn suffix(&self, has_destination: bool) -> &'static str {
        if self.variant.sdwa {
            return if has_destination || self.compare {
                "_sdwa"
            } else {
                ""
            };
        }
        match self.family {
            Family::Vop3 if self.dpp() => "_e64_dpp",
            Family::Vop3 if self.compare || (has_destination && self.has_short) => "_e64",
            Family::Vopc if self.dpp() => "",
            Family::Vopc if self.has_long => "_e32",
            Family::Vop1 | Family::Vop2 if !has_destination => "",
            Family::Vop1 | Family::Vop2 if self.dpp() => "_dpp",
            Family::Vop1 | Family::Vop2 if self.has_long => "_e32",
            Family::Vop3p if self.dpp() => "_e64_dpp",
            _ => "",
        }
    }
}

/// The operand roles of a form (counts; the operands are walked again by [`role_of`]).
struct Roles {
    destinations: usize,
    sources: usize,
    /// Implicit VCC written (VOPC, carry-out) and read (carry-in, v_cndmask) by the 32-bit,
    /// DPP and SDWA encodings, which LLVM prints.
    vcc_out: bool,
    vcc_in: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Destination,
    Source,
    VccOut,
    VccIn,
    None,
}

fn role_of(spec: &IsaSpec, long: bool, info: &OperandInfo) -> Role {
    let ty = info
        .operand_type
        .map_or("", |t| spec.operand_types[t as usize].name);
    if info.implicit || info.field.is_none() {
        return match (!long && ty == "OPR_VCC", info.output) {
            (true, true) => Role::VccOut,
            (true, false) => Role::VccIn,
            _ => Role::None,
        };
    }
    if info.output {
        // LLVM treats the EXEC destination of v_cmpx as implicit.
        if ty != "OPR_EXEC" {
            Role::Destination
        } else {
            Role::None
        }
    } else {
        Role::Source
    }
}

fn is_long(shape: &Shape) -> bool {
    matches!(shape.family, Family::Vop3 | Family::Vop3p)
}

/// The roles of a form's operands, by the operand's position (the printers' plan): bit `k`
/// of `.0` marks a destination, of `.1` a source; then whether VCC is written and read.
/// `None` for a form of more than 64 operands (the printer then works them out itself).
pub(super) fn form_roles(ins: &Instruction) -> Option<(u64, u64, bool, bool)> {
    let long = matches!(ins.encoding().family, Family::Vop3 | Family::Vop3p);
    let operands = ins.form_info().operands;
    if operands.len() > 64 {
        return None;
    }
    let mut r = (0u64, 0u64, false, false);
    for (k, info) in operands.iter().enumerate() {
        match role_of(ins.spec, long, info) {
            Role::Destination => r.0 |= 1 << k,
            Role::Source => r.1 |= 1 << k,
            Role::VccOut => r.2 = true,
            Role::VccIn => r.3 = true,
            Role::None => {}
        }
    }
    Some(r)
}

/// The role of operand `k` of the printer's form.
fn role_at(p: &Printer, long: bool, k: usize) -> Role {
    match p.plan.roles {
        Some((d, _, _, _)) if d >> k & 1 == 1 => Role::Destination,
        Some((_, s, _, _)) if s >> k & 1 == 1 => Role::Source,
        Some(_) => Role::None,
        None => role_of(p.ins.spec, long, p.ops[k].info),
    }
}

fn roles(p: &Printer, shape: &Shape) -> Roles {
    let long = is_long(shape);
    if let Some((d, s, vcc_out, vcc_in)) = p.plan.roles {
        return Roles {
            destinations: d.count_ones() as usize,
            sources: s.count_ones() as usize,
            vcc_out,
            vcc_in,
        };
    }
    let mut r = Roles {
        destinations: 0,
        sources: 0,
        vcc_out: false,
        vcc_in: false,
    };
    for o in &p.ops {
        match role_of(p.ins.spec, long, o.info) {
            Role::Destination => r.destinations += 1,
            Role::Source => r.sources += 1,
            Role::VccOut => r.vcc_out = true,
            Role::VccIn => r.vcc_in = true,
            Role::None => {}
        }
    }
    r
}

fn print_alu(p: &mut Printer, shape: &Shape) {
    let r = roles(p, shape);
    p.mnemonic();
    if p.ops.is_empty() {
        // `v_nop` and the like: no suffix; the DPP controls but no SDWA selects.
        dpp_controls(p, shape);
        return;
    }
    p.out.push_str(shape.suffix(r.destinations != 0));
    let wave64 = p.ins.spec.wave64;
    let vcc = if wave64 { "vcc" } else { "vcc_lo" };
    let long = is_long(shape);
    for pass in [Role::Destination, Role::Source] {
        if pass == Role::Source && r.vcc_out {
            p.operand(vcc);
        }
        let mut index = 0;
        for k in 0..p.ops.len() {
            if role_at(p, long, k) != pass {
                continue;
            }
            let o = p.ops[k];
            p.begin_operand();
            // The printer is read while its text grows: the text is taken out meanwhile.
            let mut t = std::mem::take(&mut p.out);
            if pass == Role::Destination {
                destination_text(&mut t, p, shape, &o);
            } else {
                source_text(&mut t, p, shape, &o, index);
            }
            p.out = t;
            index += 1;
        }
    }
    if r.vcc_in {
        p.operand(vcc);
    }
    output_modifiers(p, shape, &r);
    dpp_controls(p, shape);
    if shape.variant.sdwa {
        sdwa_controls(p, shape);
    }
}

fn dpp_controls(p: &mut Printer, shape: &Shape) {
    if shape.variant.dpp8 {
        dpp8_controls(p);
    } else if shape.variant.dpp16 {
        dpp16_controls(p);
    }
}

/// Bits of an operand as LLVM counts them: wave masks (`FMT_NUM_M64`) follow the wave size;
/// the F8F6F4 MFMA sources hold their format's share of the 8 registers. GFX9's v_ldexp_f16
/// takes its exponent (AMD: 16 bits) as a 32-bit integer in LLVM, so a float inline constant
/// there prints as itself (`-0.5`), not as half-precision bits.
fn effective_size(ins: &Instruction, plan: &FormPlan, o: &DecodedOperand) -> u16 {
    if let Some(bits) = f8f6f4_source_bits(ins, plan, o) {
        return bits;
    }
    let exponent = |ins: &Instruction| {
        let field = o.info.field.map(|f| ins.encoding().fields[f as usize].name);
        matches!(field, Some("SRC1" | "VSRC1"))
    };
    let wave32_mask = o.info.data_format.ends_with("M64") && !ins.spec.wave64;
    let gfx9_exponent = plan.gfx9_ldexp_f16 && exponent(ins);
    if wave32_mask || gfx9_exponent {
        32
    } else {
        o.info.size
    }
}

/// CDNA 4's `V_MFMA_*_F8F6F4`: CBSZ (source A) and BLGP (source B) name the format, and a
/// block of FP6 or BF6 values (codes 2, 3) takes 6 registers, of FP4 (code 4) 4, of FP8 or BF8
/// 8 — as LLVM prints them (it reads the reserved codes 5-7 as 8 registers too).
fn f8f6f4_source_bits(ins: &Instruction, plan: &FormPlan, o: &DecodedOperand) -> Option<u16> {
    if !plan.f8f6f4 {
        return None;
    }
    let field = ins.encoding().fields[o.info.field? as usize].name;
    let format = match field {
        "SRC0" => super::known_field(ins, F::CBSZ)?,
        "SRC1" => super::known_field(ins, F::BLGP)?,
        _ => return None,
    };
    Some(match format {
        2 | 3 => 192,
        4 => 128,
        _ => 256,
    })
}

fn is_float(format: &str) -> bool {
    let name = format.strip_prefix("FMT_NUM_").unwrap_or(format);
    name.split('_').any(|t| {
        let t = t
            .strip_prefix("BF")
            .or_else(|| t.strip_prefix("FP"))
            .or_else(|| t.strip_prefix('F'))
            .unwrap_or("x");
        t.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// True16 (RDNA 3 on, CDNA 5): LLVM names a 16-bit VGPR operand by its half, `v1.l` or `v1.h`.
/// VOP3 encodings select the half with an OP_SEL bit (`op_sel_bit`); the 32-bit, DPP and SDWA
/// encodings code it in the register number's bit 7 (so only v0-v127 are reachable).
fn register_half(
    shape: &Shape,
    o: DecodedOperand,
    op_sel_bit: Option<bool>,
) -> (DecodedOperand, &'static str) {
    let Operand::Reg {
        file: RegFile::Vgpr,
        first,
        count,
    } = o.value
    else {
        return (o, "");
    };
    if !shape.true16 || o.info.size != 16 {
        return (o, "");
    }
    let (first, high) = match op_sel_bit {
        Some(high) => (first, high),
        None => (first & 0x7f, first & 0x80 != 0),
    };
    let value = Operand::Reg {
        file: RegFile::Vgpr,
        first,
        count,
    };
    (
        DecodedOperand { value, ..o },
        if high { ".h" } else { ".l" },
    )
}

/// Whether the form selects 16-bit halves with OP_SEL: VOP3 forms with a 16-bit operand, on
/// True16 generations; before them (GFX9, GFX10) only the VOP3-only 16-bit instructions
/// (`v_fma_f16`, `v_mad_u32_u16`, ...) have op_sel, the promoted VOP1/VOP2 ones ignore it.
fn uses_op_sel(p: &Printer, shape: &Shape) -> bool {
    if shape.family != Family::Vop3 || p.plan.vop3_lacks_op_sel {
        return false;
    }
    p.plan.vop3_has_op_sel
        || ((shape.true16 || !shape.has_short)
            && p.ops
                .iter()
                .any(|o| o.info.field.is_some() && o.info.size == 16))
}

fn op_sel_field(p: &Printer) -> Option<u64> {
    p.f(F::OP_SEL).or_else(|| p.f(F::OPSEL))
}

/// The OP_SEL bit of operand `bit` (sources 0-2, destination 3) in VOP3 encodings; `None` for
/// the encodings that code halves in the register number.
fn op_sel_bit(p: &Printer, shape: &Shape, bit: u32) -> Option<bool> {
    match shape.family {
        Family::Vop3 => Some(op_sel_field(p).is_some_and(|s| s >> bit & 1 == 1)),
        Family::Vop3p => Some(false),
        _ => None,
    }
}

fn destination_text(out: &mut String, p: &Printer, shape: &Shape, o: &DecodedOperand) {
    let ins = p.ins;
    // SDWA compares write VCC unless SD selects the SDST field.
    if shape.variant.sdwa && p.f(F::SD) == Some(0) {
        out.push_str(if ins.spec.wave64 { "vcc" } else { "vcc_lo" });
        return;
    }
    // The mixed-precision FMAs write a whole VGPR (mixlo/mixhi pick the half by name).
    let (value, half) = if is_mix(p) {
        (accumulator(p, *o), "")
    } else {
        register_half(shape, accumulator(p, *o), op_sel_bit(p, shape, 3))
    };
    value_text(out, p, &value);
    out.push_str(half);
}

/// Names of the DPP16 and SDWA source modifier bits, by source.
const SRC_NEG: [F; 3] = [F::SRC0_NEG, F::SRC1_NEG, F::SRC2_NEG];
const SRC_ABS: [F; 3] = [F::SRC0_ABS, F::SRC1_ABS, F::SRC2_ABS];
const SRC_SEXT: [F; 3] = [F::SRC0_SEXT, F::SRC1_SEXT, F::SRC2_SEXT];

/// A source with its input modifiers.
fn source_text(out: &mut String, p: &Printer, shape: &Shape, o: &DecodedOperand, index: usize) {
    let bit = |k: F| p.f(k).is_some_and(|v| v >> index & 1 == 1);
    let named = |names: &[F; 3]| {
        names
            .get(index)
            .is_some_and(|&k| p.f(k).is_some_and(|v| v & 1 == 1))
    };
    let value = if shape.variant.sdwa {
        sdwa_source(p, o, index)
    } else {
        *o
    };
    let value = if index == 2 {
        accumulator(p, value)
    } else {
        agpr_source(p, value, index)
    };
    let (value, half) = register_half(shape, value, op_sel_bit(p, shape, index as u32));
    let (neg, abs, sext) = match shape.family {
        Family::Vop3 => (bit(F::NEG), bit(F::ABS), false),
        // The mixed-precision FMAs take VOP3's input modifiers: NEG negates, NEG_HI is abs.
        Family::Vop3p if is_mix(p) => (bit(F::NEG), bit(F::NEG_HI), false),
        // Other VOP3P instructions print their NEG bits as neg_lo/neg_hi modifiers.
        Family::Vop3p => (false, false, false),
        _ if shape.variant.dpp16 || shape.variant.sdwa => {
            (named(&SRC_NEG), named(&SRC_ABS), named(&SRC_SEXT))
        }
        _ => (false, false, false),
    };
    // Outermost first: `-` or `neg(`, then `|`, then `sext(`.
    let mut close = "";
    if neg {
        // `neg(...)` keeps a negated constant apart from a negative one.
        let immediate = matches!(
            value.value,
            Operand::Int(_) | Operand::Float(_) | Operand::Literal(_)
        );
        if immediate && !abs {
            out.push_str("neg(");
            close = ")";
        } else {
            out.push('-');
        }
    }
    if abs {
        out.push('|');
    }
    if sext {
        out.push_str("sext(");
    }
    value_text(out, p, &value);
    out.push_str(half);
    if sext {
        out.push(')');
    }
    if abs {
        out.push('|');
    }
    out.push_str(close);
}

/// MFMA (CDNA 2+): bit `index` of ACC puts source A (0) or B (1) in the AGPRs.
fn agpr_source(p: &Printer, o: DecodedOperand, index: usize) -> DecodedOperand {
    match o.value {
        Operand::Reg {
            file: RegFile::Vgpr,
            first,
            count,
        } if p.f(F::ACC).is_some_and(|a| a >> index & 1 == 1) => DecodedOperand {
            value: Operand::Reg {
                file: RegFile::Agpr,
                first,
                count,
            },
            ..o
        },
        _ => o,
    }
}

/// The mixed-precision FMAs (`v_fma_mix*`, `v_mad_mix*`).
fn is_mix(p: &Printer) -> bool {
    p.plan.mix
}

/// MFMA (CDNA): ACC_CD puts the destination and the accumulator source (src2) in the AGPRs.
fn accumulator(p: &Printer, o: DecodedOperand) -> DecodedOperand {
    // A sparse MFMA's third source is its index VGPR, not an accumulator.
    if p.plan.smfmac && !o.info.output {
        return o;
    }
    match o.value {
        Operand::Reg {
            file: RegFile::Vgpr,
            first,
            count,
        } if p.f(F::ACC_CD) == Some(1) => DecodedOperand {
            value: Operand::Reg {
                file: RegFile::Agpr,
                first,
                count,
            },
            ..o
        },
        _ => o,
    }
}

/// SDWA sources hold a VGPR number unless their S bit selects a scalar source.
fn sdwa_source(p: &Printer, o: &DecodedOperand, index: usize) -> DecodedOperand {
    let scalar = [F::S0, F::S1, F::S2].get(index).and_then(|&k| p.f(k));
    let Some(ty) = o
        .info
        .operand_type
        .map(|t| &p.ins.spec.operand_types[t as usize])
    else {
        return *o;
    };
    let value = match scalar {
        Some(0) => Operand::Reg {
            file: RegFile::Vgpr,
            first: o.raw as u32,
            count: 1,
        },
        _ => classify_in(Some(p.ins.spec), ty, o.raw, o.info.size, None),
    };
    DecodedOperand { value, ..*o }
}

/// The text of an operand's value, by its data format (LLVM prints constants by operand type),
/// appended to `out`.
fn value_text(out: &mut String, p: &Printer, o: &DecodedOperand) {
    let (ins, plan) = (p.ins, p.plan);
    let size = effective_size(ins, plan, o);
    let format = o.info.data_format;
    match o.value {
        Operand::Reg { file, first, .. } => {
            let count = crate::operand::register_count(size);
            push_reg(out, file, super::aligned_first(file, first, count), count)
        }
        Operand::Named(n) => push_named(out, n, size),
        Operand::Int(i) => push_i64(out, i),
        Operand::Float(name) => out.push_str(&float_constant_text(name, format, size)),
        Operand::Literal(v) if is_constant_operand(ins, o) => push_hex(out, v),
        // LLVM types the mixed-precision FMAs' sources as f16: their literal prints as one.
        Operand::Literal(v) if plan.mix => out.push_str(&literal_text(v, "FMT_NUM_F16", 16)),
        Operand::Literal(v)
            if size == 16
                && format.contains("BF16")
                && llvm_syntax::GFX9.contains(&ins.spec.generation) =>
        {
            out.push_str(&gfx9_bf16_literal_text(v))
        }
        Operand::Literal(v) => out.push_str(&literal_text(v, format, size)),
        // Constants of the instruction itself (the K of v_fmamk/v_fmaak): LLVM prints hex.
        Operand::Imm(v) => push_hex(out, v),
        _ => super::operand_text_in(out, ins, plan, o),
    }
}

/// A literal that is no source operand but a constant the instruction always takes (the K of
/// `v_fmamk_f32`): its type names no register or inline constant, and LLVM prints it in hex
/// with no `lit(...)`, since it could not have been encoded any other way.
fn is_constant_operand(ins: &Instruction, o: &DecodedOperand) -> bool {
    o.info
        .operand_type
        .is_some_and(|t| ins.spec.operand_types[t as usize].runs.is_empty())
}

/// Bit patterns of the float inline constants (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0,
/// 1/(2*pi)) in half, single and double precision.
const INLINE_F16: [u64; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];
const INLINE_F32: [u64; 9] = [
    0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000,
    0x3e22f983,
];
const INLINE_F64: [u64; 9] = [
    0x3fe0000000000000,
    0xbfe0000000000000,
    0x3ff0000000000000,
    0xbff0000000000000,
    0x4000000000000000,
    0xc000000000000000,
    0x4010000000000000,
    0xc010000000000000,
    0x3fc45f306dc9c882,
];
const INLINE_NAMES: [&str; 9] = [
    "0.5",
    "-0.5",
    "1.0",
    "-1.0",
    "2.0",
    "-2.0",
    "4.0",
    "-4.0",
    "0.15915494",
];

/// A float inline constant: 16-bit integer operands print its half-precision bits in hex,
/// 64-bit operands print 1/(2*pi) with double precision.
fn float_constant_text(name: &str, format: &str, size: u16) -> String {
    let k = INLINE_NAMES.iter().position(|n| *n == name);
    match k {
        Some(k) if size == 16 && !is_float(format) => format!("0x{:x}", INLINE_F16[k]),
        // A 64-bit operand's 1/(2*pi) is a double, and so is it for the f64 tuples of MFMA
        // (`FMT_NUM_PK4_F64`); packed f32 pairs and the f32 tuples of MFMA keep the f32 text.
        Some(8) if (size == 64 && !format.contains("PK")) || format.ends_with("_F64") => {
            "0.15915494309189532".to_string()
        }
        _ => name.to_string(),
    }
}

/// A literal, as LLVM prints it for the operand's type: marked `lit(...)` when its value could
/// have been an inline constant (LLVM keeps the encoding that way). 64-bit float operands take
/// the literal as their high dword; LLVM prints the value, or the constant it equals.
fn literal_text(v: u64, format: &str, size: u16) -> String {
    // Packed 8-bit pairs (FP8, BF8) are 16 bits in AMD's data but dword operands in LLVM.
    let size = if size == 16 && !format.ends_with("16") {
        32
    } else {
        size
    };
    let as_i32 = v as u32 as i32;
    let int_inline = |i: i64| (-16..=64).contains(&i);
    let inlinable = match size {
        // f16 operands look at the low half only; 16-bit integers at the sign-extended dword.
        16 if is_float(format) => {
            int_inline(v as u16 as i16 as i64) || INLINE_F16.contains(&(v & 0xffff))
        }
        16 => int_inline(as_i32 as i64),
        33.. if is_float(format) => {
            let wide = v << 32;
            return match INLINE_F64.iter().position(|&c| c == wide) {
                Some(k) => float_constant_text(INLINE_NAMES[k], format, size),
                None if v == 0 => "0".to_string(),
                None => format!("0x{v:x}"),
            };
        }
        // 64-bit integers zero-extend the literal.
        33.. => v <= 64,
        _ => int_inline(as_i32 as i64) || INLINE_F32.contains(&(v & 0xffff_ffff)),
    };
    if inlinable {
        format!("lit(0x{v:x})")
    } else if size == 16 {
        // A 16-bit operand reads the literal's low half; LLVM prints that half only.
        format!("0x{:x}", v & 0xffff)
    } else {
        format!("0x{v:x}")
    }
}

/// The bf16 float inline constants (0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi)): the
/// high halves of the f32 ones.
const INLINE_BF16: [u64; 9] = [
    0x3f00, 0xbf00, 0x3f80, 0xbf80, 0x4000, 0xc000, 0x4080, 0xc080, 0x3e22,
];

/// A literal of a bf16 operand on GFX9 (gfx950's `v_cvt_f32_bf16`): LLVM decides by the low
/// half whether it could have been an inline constant, but prints the whole dword (GFX9 has
/// no 16-bit literal: the instruction reads the dword's low half).
fn gfx9_bf16_literal_text(v: u64) -> String {
    let low = v & 0xffff;
    if (-16..=64).contains(&(low as u16 as i16 as i64)) || INLINE_BF16.contains(&low) {
        format!("lit(0x{v:x})")
    } else {
        format!("0x{v:x}")
    }
}

/// clamp, omod and op_sel of the VOP3 and SDWA encodings; the packed modifiers of VOP3P.
fn output_modifiers(p: &mut Printer, shape: &Shape, r: &Roles) {
    if shape.family == Family::Vop3p {
        packed_modifiers(p, r);
        return;
    }
    if uses_op_sel(p, shape) {
        let sel = op_sel_field(p).unwrap_or(0);
        if sel != 0 {
            // Some instructions LLVM gives op_sel for a byte or word select print three
            // source slots, present or not.
            let slots = match p.plan.op_sel_slots {
                Some(llvm_syntax::OpSelSlots::Three) => 3,
                _ => r.sources,
            };
            let t = p.begin_modifier();
            t.push_str("op_sel:[");
            for i in 0..slots {
                t.push(bit_char(sel >> i));
                t.push(',');
            }
            t.push(bit_char(sel >> 3));
            t.push(']');
        }
    }
    if shape.family == Family::Vop3 || shape.variant.sdwa {
        if p.f(F::CLAMP).is_some_and(|c| c != 0) {
            p.modifier("clamp");
        }
        match p.f(F::OMOD) {
            Some(1) => p.modifier("mul:2"),
            Some(2) => p.modifier("mul:4"),
            Some(3) => p.modifier("div:2"),
            _ => {}
        }
    }
}

/// CDNA's VOP3P word keeps the third source's op_sel_hi bit at bit 14, outside AMD's OPSEL_HI
/// field (two bits at 59-60 in CDNA's XML); LLVM reads it there. RDNA's XML includes it in the
/// field, so this applies only when the field is narrower than the sources and no field holds
/// bit 14.
const OP_SEL_HI_2_BIT: u32 = 14;

/// Mixed-precision FMAs (`v_fma_mix*`, `v_mad_mix*`) use op_sel_hi to pick f16 sources, so it
/// defaults to 0 for them; packed instructions default it to all ones.
fn packed_default_hi(p: &Printer) -> bool {
    !p.plan.mix
}

/// `0` or `1`: bit 0 of `v`.
fn bit_char(v: u64) -> char {
    if v & 1 == 1 {
        '1'
    } else {
        '0'
    }
}

/// Appends `name:[b0,b1,...]` with the low `n` bits of `v`.
fn push_bit_list(out: &mut String, name: &str, v: u64, n: usize) {
    out.push_str(name);
    out.push_str(":[");
    for i in 0..n {
        if i > 0 {
            out.push(',');
        }
        out.push(bit_char(v >> i));
    }
    out.push(']');
}

/// VOP3P: `op_sel`, `op_sel_hi`, `neg_lo`, `neg_hi`, each printed when it differs from its
/// default, with one entry per source; then `clamp`, and MFMA's `cbsz`, `abid`, `blgp`.
fn packed_modifiers(p: &mut Printer, r: &Roles) {
    let n = r.sources;
    let all = (1u64 << n) - 1;
    let op_sel_hi = if p.plan.vop3p_ignores_op_sel_hi {
        None
    } else {
        op_sel_hi_bits(p, n)
    };
    let hi_default = if packed_default_hi(p) { all } else { 0 };
    // The mixed-precision FMAs show their NEG bits on the sources (see `source_text`).
    let (neg_lo, neg_hi) = if is_mix(p) {
        (None, None)
    } else {
        (p.f(F::NEG), p.f(F::NEG_HI))
    };
    let mods = [
        ("op_sel", op_sel_field(p), 0),
        ("op_sel_hi", op_sel_hi, hi_default),
        ("neg_lo", neg_lo, 0),
        ("neg_hi", neg_hi, 0),
    ];
    for (name, value, default) in mods {
        let Some(v) = value.map(|v| v & all) else {
            continue;
        };
        if v != default {
            push_bit_list(p.begin_modifier(), name, v, n);
        }
    }
    if p.f(F::CLAMP).is_some_and(|c| c != 0) {
        p.modifier("clamp");
    }
    let blgp_is_neg = p.plan.mfma_blgp_is_neg;
    for (field, text) in [(F::CBSZ, "cbsz:"), (F::ABID, "abid:"), (F::BLGP, "blgp:")] {
        if let Some(v) = p.f(field).filter(|&v| v != 0) {
            let out = p.begin_modifier();
            if field == F::BLGP && blgp_is_neg {
                push_bit_list(out, "neg", v, 3);
            } else {
                out.push_str(text);
                push_u64(out, v);
            }
        }
    }
}

/// The op_sel_hi bits of `n` sources, with CDNA's bit 14 (see [`OP_SEL_HI_2_BIT`]).
fn op_sel_hi_bits(p: &Printer, n: usize) -> Option<u64> {
    let enc = p.ins.encoding();
    let index = p
        .field_position(F::OP_SEL_HI)
        .or_else(|| p.field_position(F::OPSEL_HI))?;
    let field = &enc.fields[index];
    let mut v = field.extract(p.ins.bits);
    let width = field.width() as usize;
    let bit14_free = enc
        .fields
        .iter()
        .all(|f| f.mask() >> OP_SEL_HI_2_BIT & 1 == 0);
    if width < n && width == 2 && bit14_free {
        v |= ((p.ins.bits >> OP_SEL_HI_2_BIT) as u64 & 1) << 2;
    }
    Some(v)
}

/// ` dpp8:[l0,..,l7]` and ` fi:1` (the DPP8 marker 0xEA in SRC0 asks for fetch-inactive).
const LANE_SEL: [F; 8] = [
    F::LANE_SEL_0,
    F::LANE_SEL_1,
    F::LANE_SEL_2,
    F::LANE_SEL_3,
    F::LANE_SEL_4,
    F::LANE_SEL_5,
    F::LANE_SEL_6,
    F::LANE_SEL_7,
];

fn dpp8_controls(p: &mut Printer) {
    let ins = p.ins;
    let out = p.begin_modifier();
    out.push_str("dpp8:[");
    for (k, name) in LANE_SEL.iter().enumerate() {
        if k > 0 {
            out.push(',');
        }
        push_u64(out, super::known_field(ins, *name).unwrap_or(0));
    }
    out.push(']');
    if p.f(F::SRC0) == Some(0xea) {
        p.modifier("fi:1");
    }
}

fn dpp16_controls(p: &mut Printer) {
    let ctrl = p.f(F::DPP_CTRL).unwrap_or(0);
    // LLVM prints unsupported or invalid controls as a `/* ... */` note, which the comparison
    // with LLVM drops; the note's own space before it stays.
    if dp_alu_dpp(p) && !(0x150..=0x15f).contains(&ctrl) {
        // LLVM's note for these (" /* DP ALU dpp only supports row_newbcast */") leaves two
        // spaces once dropped.
        p.modifier(" ");
    } else {
        match dpp_ctrl_text(p.ins, ctrl) {
            Some(text) => p.modifier(&text),
            None => p.modifier(""),
        }
    }
    let (row, bank) = (p.f(F::ROW_MASK), p.f(F::BANK_MASK));
    let out = p.begin_modifier();
    out.push_str("row_mask:");
    push_hex(out, row.unwrap_or(0));
    let out = p.begin_modifier();
    out.push_str("bank_mask:");
    push_hex(out, bank.unwrap_or(0));
    if p.f(F::BOUND_CTRL).is_some_and(|b| b != 0) {
        p.modifier("bound_ctrl:1");
    }
    if p.f(F::FI).is_some_and(|b| b != 0) {
        p.modifier("fi:1");
    }
}

/// GFX90A+ (CDNA 2-4) DPP of 64-bit operations: LLVM accepts only row_newbcast for them (its
/// "DP ALU DPP") and prints a note for any other control.
fn dp_alu_dpp(p: &Printer) -> bool {
    p.ins.spec.traits.gfx90a
        && p.ops
            .iter()
            .any(|o| !o.info.implicit && o.info.field.is_some() && o.info.size == 64)
}

/// The DPP16 control, as LLVM names it for the generation (GFX9 has wave shifts and row
/// broadcasts; GFX10+ has row_share and row_xmask; GFX90A calls row_share row_newbcast).
/// `None` for a control the generation does not have (LLVM prints a note instead).
fn dpp_ctrl_text(ins: &Instruction, ctrl: u64) -> Option<String> {
    // GFX10+ (RDNA, CDNA 5): DPP8 exists and DPP16 words have an FI field.
    let gfx10_plus = ins.spec.traits.gfx10_up();
    let gfx90a = ins.spec.traits.gfx90a;
    let low = ctrl & 0xf;
    let text = match ctrl {
        0x000..=0x0ff => {
            format!(
                "quad_perm:[{},{},{},{}]",
                ctrl & 3,
                ctrl >> 2 & 3,
                ctrl >> 4 & 3,
                ctrl >> 6 & 3
            )
        }
        0x101..=0x10f => format!("row_shl:{low}"),
        0x111..=0x11f => format!("row_shr:{low}"),
        0x121..=0x12f => format!("row_ror:{low}"),
        0x130 if !gfx10_plus => "wave_shl:1".into(),
        0x134 if !gfx10_plus => "wave_rol:1".into(),
        0x138 if !gfx10_plus => "wave_shr:1".into(),
        0x13c if !gfx10_plus => "wave_ror:1".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 if !gfx10_plus => "row_bcast:15".into(),
        0x143 if !gfx10_plus => "row_bcast:31".into(),
        0x150..=0x15f if gfx90a => format!("row_newbcast:{low}"),
        0x150..=0x15f if gfx10_plus => format!("row_share:{low}"),
        0x160..=0x16f if gfx10_plus => format!("row_xmask:{low}"),
        // GFX908's note for these starts with a space of its own.
        0x150..=0x15f if !gfx10_plus => " ".into(),
        _ => return None,
    };
    Some(text)
}

const SDWA_SELECTS: [&str; 7] = [
    "BYTE_0", "BYTE_1", "BYTE_2", "BYTE_3", "WORD_0", "WORD_1", "DWORD",
];
const SDWA_UNUSED: [&str; 3] = ["UNUSED_PAD", "UNUSED_SEXT", "UNUSED_PRESERVE"];

fn sdwa_controls(p: &mut Printer, shape: &Shape) {
    let select = |v: Option<u64>| {
        SDWA_SELECTS
            .get(v.unwrap_or(6) as usize)
            .copied()
            .unwrap_or("?")
    };
    let dst_select = !p.plan.sdwa_without_dst_select;
    let control = |p: &mut Printer, name: &str, value: &str| {
        let out = p.begin_modifier();
        out.push_str(name);
        out.push_str(value);
    };
    if shape.family != Family::Vopc && dst_select {
        let sel = select(p.f(F::DST_SEL));
        control(p, "dst_sel:", sel);
        let unused = SDWA_UNUSED
            .get(p.f(F::DST_UNUSED).unwrap_or(0) as usize)
            .copied()
            .unwrap_or("?");
        control(p, "dst_unused:", unused);
    }
    let sel = select(p.f(F::SRC0_SEL));
    control(p, "src0_sel:", sel);
    if shape.family != Family::Vop1 {
        let sel = select(p.f(F::SRC1_SEL));
        control(p, "src1_sel:", sel);
    }
}

/// VOPD: two instructions in one word, `x :: y`. The spec describes each half's operands
/// under one form; without dual forms in the data this prints the operands in order.
fn print_vopd(p: &mut Printer) {
    p.default_print();
}

#[cfg(test)]
mod tests;
