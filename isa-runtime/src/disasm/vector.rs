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

use super::{named_text, reg_text, Family, Printer, Variant};
use crate::decode::Instruction;
use crate::operand::{classify, DecodedOperand, Operand, RegFile};
use std::fmt::Write as _;

/// Instructions that LLVM defines in one encoding only although AMD's spec lists more, so LLVM
/// prints their 32-bit form without `_e32`.
const LLVM_SINGLE_ENCODING: &[(&str, &str)] = &[(
    "V_READFIRSTLANE_B32",
    "LLVM defines it as VOP1 only (it has no VOP3 form in LLVM), so no `_e32` is printed",
)];

pub fn print(p: &mut Printer, family: Family, variant: Variant) {
    let shape = Shape::of(p.ins, family, variant);
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

impl Shape {
    fn of(ins: &Instruction, family: Family, variant: Variant) -> Shape {
        let spec = ins.spec;
        let info = ins.info();
        let mut families = info
            .forms
            .iter()
            .map(|&f| super::family(spec.encoding_of(f).name).0);
        let (mut has_short, mut has_long, mut compare) = (false, false, false);
        for f in families.by_ref() {
            match f {
                Family::Vop1 | Family::Vop2 => has_short = true,
                Family::Vopc => {
                    has_short = true;
                    compare = true;
                }
                Family::Vop3 => has_long = true,
                _ => {}
            }
        }
        if LLVM_SINGLE_ENCODING.iter().any(|(n, _)| *n == info.name) {
            has_long = false;
        }
        let true16 = matches!(spec.generation, "rdna3" | "rdna3_5" | "rdna4" | "cdna5");
        Shape {
            family,
            variant,
            has_short,
            has_long,
            compare,
            true16,
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
            Family::Vop3p if self.dpp() => "_dpp",
            _ => "",
        }
    }
}

/// The operand roles of a form.
struct Roles {
    destinations: Vec<DecodedOperand>,
    sources: Vec<DecodedOperand>,
    /// Implicit VCC written (VOPC, carry-out) and read (carry-in, v_cndmask) by the 32-bit,
    /// DPP and SDWA encodings, which LLVM prints.
    vcc_out: Option<DecodedOperand>,
    vcc_in: Option<DecodedOperand>,
}

fn roles(p: &Printer, shape: &Shape) -> Roles {
    let spec = p.ins.spec;
    let type_name = |o: &DecodedOperand| {
        o.info
            .operand_type
            .map_or("", |t| spec.operand_types[t as usize].name)
    };
    let mut r = Roles {
        destinations: Vec::new(),
        sources: Vec::new(),
        vcc_out: None,
        vcc_in: None,
    };
    let long = matches!(shape.family, Family::Vop3 | Family::Vop3p);
    for o in &p.ops {
        let ty = type_name(o);
        if o.info.implicit || o.info.field.is_none() {
            if !long && ty == "OPR_VCC" {
                if o.info.output {
                    r.vcc_out = Some(*o);
                } else {
                    r.vcc_in = Some(*o);
                }
            }
            continue;
        }
        if o.info.output {
            // LLVM treats the EXEC destination of v_cmpx as implicit.
            if ty != "OPR_EXEC" {
                r.destinations.push(*o);
            }
        } else {
            r.sources.push(*o);
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
    p.out.push_str(shape.suffix(!r.destinations.is_empty()));
    let wave64 = p.ins.spec.wave64;
    let vcc = if wave64 { "vcc" } else { "vcc_lo" };
    for (k, d) in r.destinations.iter().enumerate() {
        let t = destination_text(p, shape, d, k);
        p.operand(&t);
    }
    if r.vcc_out.is_some() {
        p.operand(vcc);
    }
    for (i, s) in r.sources.iter().enumerate() {
        let t = source_text(p, shape, s, i);
        p.operand(&t);
    }
    if r.vcc_in.is_some() {
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

/// Bits of an operand as LLVM counts them: wave masks (`FMT_NUM_M64`) follow the wave size.
fn effective_size(ins: &Instruction, o: &DecodedOperand) -> u16 {
    if o.info.data_format.ends_with("M64") && !ins.spec.wave64 {
        32
    } else {
        o.info.size
    }
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

/// The 16-bit half of a VGPR LLVM names for a True16 operand, if any.
fn half_suffix(shape: &Shape, o: &DecodedOperand, high: bool) -> &'static str {
    if shape.true16
        && o.info.size == 16
        && matches!(
            o.value,
            Operand::Reg {
                file: RegFile::Vgpr,
                ..
            }
        )
    {
        if high {
            ".h"
        } else {
            ".l"
        }
    } else {
        ""
    }
}

/// Whether the form selects 16-bit halves with OP_SEL (VOP3 forms with a 16-bit operand).
fn uses_op_sel(p: &Printer, shape: &Shape) -> bool {
    shape.family == Family::Vop3
        && p.ops
            .iter()
            .any(|o| o.info.field.is_some() && o.info.size == 16)
}

fn op_sel_field(p: &Printer) -> Option<u64> {
    p.field("OP_SEL").or_else(|| p.field("OPSEL"))
}

fn destination_text(p: &Printer, shape: &Shape, o: &DecodedOperand, _k: usize) -> String {
    let ins = p.ins;
    // SDWA compares write VCC unless SD selects the SDST field.
    if shape.variant.sdwa && p.field("SD") == Some(0) {
        return if ins.spec.wave64 {
            "vcc".into()
        } else {
            "vcc_lo".into()
        };
    }
    let mut t = value_text(ins, o);
    if shape.family == Family::Vop3 {
        let high = op_sel_field(p).is_some_and(|s| s >> 3 & 1 == 1);
        t.push_str(half_suffix(shape, o, high));
    } else {
        t.push_str(half_suffix(shape, o, false));
    }
    t
}

/// A source with its input modifiers.
fn source_text(p: &Printer, shape: &Shape, o: &DecodedOperand, index: usize) -> String {
    let ins = p.ins;
    let bit = |name: &str| p.field(name).is_some_and(|v| v >> index & 1 == 1);
    let named = |name: String| p.field(&name).is_some_and(|v| v & 1 == 1);
    let mut value = nine_bit_vgpr_source(p, o);
    if shape.variant.sdwa {
        value = sdwa_source(p, o, index);
    }
    let mut t = value_text(ins, &value);
    let high = match shape.family {
        Family::Vop3 if uses_op_sel(p, shape) => bit(if p.field("OP_SEL").is_some() {
            "OP_SEL"
        } else {
            "OPSEL"
        }),
        _ => false,
    };
    t.push_str(half_suffix(shape, &value, high));
    let (neg, abs, sext) = match shape.family {
        Family::Vop3 => (bit("NEG"), bit("ABS"), false),
        Family::Vop3p => (false, false, false),
        _ if shape.variant.dpp16 || shape.variant.sdwa => (
            named(format!("SRC{index}_NEG")),
            named(format!("SRC{index}_ABS")),
            named(format!("SRC{index}_SEXT")),
        ),
        _ => (false, false, false),
    };
    if sext {
        t = format!("sext({t})");
    }
    if abs {
        t = format!("|{t}|");
    }
    if neg {
        let immediate = matches!(
            value.value,
            Operand::Int(_) | Operand::Float(_) | Operand::Literal(_)
        );
        t = if immediate && !abs {
            format!("neg({t})")
        } else {
            format!("-{t}")
        };
    }
    t
}

/// AMD's XML types some 9-bit source fields (SRC1 of VOP3 DPP forms) with the 8-bit VGPR type
/// (`v0` = 0). The field is a full source code, as LLVM reads it: VGPRs are 256 + n, lower values
/// are scalar registers and constants (read here through the generation's `OPR_SRC` type).
fn nine_bit_vgpr_source(p: &Printer, o: &DecodedOperand) -> DecodedOperand {
    let spec = p.ins.spec;
    let (Some(f), Some(t)) = (o.info.field, o.info.operand_type) else {
        return *o;
    };
    let field = &p.ins.encoding().fields[f as usize];
    let ty = &spec.operand_types[t as usize];
    let vgpr_from_zero = ty
        .runs
        .iter()
        .any(|r| r.prefix == "v" && r.first_value == 0);
    if field.width() != 9 || !vgpr_from_zero || field.name.starts_with("LITERAL") {
        return *o;
    }
    let count = crate::operand::register_count(o.info.size);
    let value = if o.raw >= 256 {
        Operand::Reg {
            file: RegFile::Vgpr,
            first: o.raw as u32 - 256,
            count,
        }
    } else {
        match spec.operand_types.iter().find(|t| t.name == "OPR_SRC") {
            Some(src) => classify(src, o.raw, o.info.size, p.ins.literal()),
            None => o.value,
        }
    };
    DecodedOperand { value, ..*o }
}

/// SDWA sources hold a VGPR number unless their S bit selects a scalar source.
fn sdwa_source(p: &Printer, o: &DecodedOperand, index: usize) -> DecodedOperand {
    let scalar = p.field(&format!("S{index}"));
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
        _ => classify(ty, o.raw, o.info.size, None),
    };
    DecodedOperand { value, ..*o }
}

/// The text of an operand's value, by its data format (LLVM prints constants by operand type).
fn value_text(ins: &Instruction, o: &DecodedOperand) -> String {
    let size = effective_size(ins, o);
    let format = o.info.data_format;
    match o.value {
        Operand::Reg { file, first, .. } => {
            reg_text(file, first, crate::operand::register_count(size))
        }
        Operand::Named(n) => named_text(n, size),
        Operand::Int(i) => i.to_string(),
        Operand::Float(name) => float_constant_text(name, format, size),
        Operand::Literal(v) => literal_text(v, format, size),
        Operand::Imm(v) => v.to_string(),
        _ => super::operand_text(ins, o),
    }
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
        Some(8) if size > 32 => "0.15915494309189532".to_string(),
        _ => name.to_string(),
    }
}

/// A literal, marked `lit(...)` when its value could have been an inline constant of the
/// operand's type (LLVM keeps the encoding that way).
fn literal_text(v: u64, format: &str, size: u16) -> String {
    let inlinable = if size == 16 {
        let s = v as u16 as i16;
        (-16..=64).contains(&s) || (is_float(format) && INLINE_F16.contains(&(v & 0xffff)))
    } else if size > 32 {
        // 64-bit operands: floats take the literal as the high dword, integers zero-extend it.
        if is_float(format) {
            INLINE_F64.contains(&(v << 32)) || v == 0
        } else {
            v <= 64
        }
    } else {
        let s = v as u32 as i32;
        (-16..=64).contains(&s) || INLINE_F32.contains(&(v & 0xffff_ffff))
    };
    let mut s = String::new();
    if inlinable {
        let _ = write!(s, "lit(0x{v:x})");
    } else {
        let _ = write!(s, "0x{v:x}");
    }
    s
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
            let mut t = String::from("op_sel:[");
            for i in 0..r.sources.len() {
                let _ = write!(t, "{},", sel >> i & 1);
            }
            let _ = write!(t, "{}]", sel >> 3 & 1);
            p.modifier(&t);
        }
    }
    if shape.family == Family::Vop3 || shape.variant.sdwa {
        if p.field("CLAMP").is_some_and(|c| c != 0) {
            p.modifier("clamp");
        }
        match p.field("OMOD") {
            Some(1) => p.modifier("mul:2"),
            Some(2) => p.modifier("mul:4"),
            Some(3) => p.modifier("div:2"),
            _ => {}
        }
    }
}

/// VOP3P: `op_sel`, `op_sel_hi`, `neg_lo`, `neg_hi`, each printed when it differs from its
/// default (op_sel_hi defaults to all ones), with one entry per source.
fn packed_modifiers(p: &mut Printer, r: &Roles) {
    let n = r.sources.len();
    let all = (1u64 << n) - 1;
    let mods: [(&str, &[&str], u64); 4] = [
        ("op_sel", &["OP_SEL", "OPSEL"], 0),
        ("op_sel_hi", &["OP_SEL_HI", "OPSEL_HI"], all),
        ("neg_lo", &["NEG"], 0),
        ("neg_hi", &["NEG_HI"], 0),
    ];
    let clamp = p.field("CLAMP").is_some_and(|c| c != 0);
    for (name, fields, default) in mods {
        let Some(v) = fields.iter().find_map(|f| p.field(f)) else {
            continue;
        };
        let v = v & all;
        if v == default {
            continue;
        }
        let bits: Vec<String> = (0..n).map(|i| (v >> i & 1).to_string()).collect();
        p.modifier(&format!("{name}:[{}]", bits.join(",")));
    }
    if clamp {
        p.modifier("clamp");
    }
}

/// ` dpp8:[l0,..,l7]` and ` fi:1` (the DPP8 marker 0xEA in SRC0 asks for fetch-inactive).
fn dpp8_controls(p: &mut Printer) {
    let lanes: Vec<String> = (0..8)
        .map(|k| p.field(&format!("LANE_SEL_{k}")).unwrap_or(0).to_string())
        .collect();
    p.modifier(&format!("dpp8:[{}]", lanes.join(",")));
    if p.field("SRC0") == Some(0xea) {
        p.modifier("fi:1");
    }
}

fn dpp16_controls(p: &mut Printer) {
    let ctrl = p.field("DPP_CTRL").unwrap_or(0);
    // LLVM prints unsupported or invalid controls as a `/* ... */` note, which the comparison
    // with LLVM drops; the note's own space before it stays.
    match dpp_ctrl_text(p.ins, ctrl) {
        Some(text) => p.modifier(&text),
        None => p.modifier(""),
    }
    p.modifier(&format!(
        "row_mask:0x{:x}",
        p.field("ROW_MASK").unwrap_or(0)
    ));
    p.modifier(&format!(
        "bank_mask:0x{:x}",
        p.field("BANK_MASK").unwrap_or(0)
    ));
    if p.field("BOUND_CTRL").is_some_and(|b| b != 0) {
        p.modifier("bound_ctrl:1");
    }
    if p.field("FI").is_some_and(|b| b != 0) {
        p.modifier("fi:1");
    }
}

/// The DPP16 control, as LLVM names it for the generation (GFX9 has wave shifts and row
/// broadcasts; GFX10+ has row_share and row_xmask; GFX90A calls row_share row_newbcast).
/// `None` for a control the generation does not have (LLVM prints a note instead).
fn dpp_ctrl_text(ins: &Instruction, ctrl: u64) -> Option<String> {
    let gen = ins.spec.generation;
    // GFX10+ (RDNA, CDNA 5) is the generation with DPP8; its DPP16 words have an FI field.
    let gfx10_plus = ins.spec.encodings.iter().any(|e| e.name.contains("DPP8"))
        || ins.encoding().fields.iter().any(|f| f.name == "FI");
    let gfx90a = matches!(gen, "cdna2" | "cdna3" | "cdna4");
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
    if shape.family != Family::Vopc {
        let t = format!("dst_sel:{}", select(p.field("DST_SEL")));
        p.modifier(&t);
        let unused = SDWA_UNUSED
            .get(p.field("DST_UNUSED").unwrap_or(0) as usize)
            .copied()
            .unwrap_or("?");
        p.modifier(&format!("dst_unused:{unused}"));
    }
    let t = format!("src0_sel:{}", select(p.field("SRC0_SEL")));
    p.modifier(&t);
    if shape.family != Family::Vop1 {
        let t = format!("src1_sel:{}", select(p.field("SRC1_SEL")));
        p.modifier(&t);
    }
}

/// VOPD: two instructions in one word, `x :: y`. The spec describes each half's operands
/// under one form; without dual forms in the data this prints the operands in order.
fn print_vopd(p: &mut Printer) {
    p.default_print();
}
