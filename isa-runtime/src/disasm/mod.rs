//! Disassembly into LLVM's AMDGPU syntax (what `llvm-mc --disassemble` prints).
//!
//! The encoding's family (decided by the generator from AMD's name: `ENC_SOP1`,
//! `VOP3_INST_LITERAL`, `VOP1_VOP_DPP16`, ...) picks the family printer; the operand texts come from [`operand_text`]. What AMD's XML does
//! not say (modifier syntax, operand order quirks) lives in the family printers and in
//! [`crate::llvm_syntax`], each entry with its reason.

pub mod dual;
mod memory;
mod scalar;
mod vector;

pub(crate) use memory::buffer_format_value;
/// LLVM's buffer format names, for the unified-format tests of `semantics::format`.
#[cfg(test)]
pub(crate) use memory::{DATA_FORMATS, NUMBER_FORMATS};

use crate::decode::Instruction;
use crate::operand::{register_count, DecodedOperand, Operand, RegFile};
use crate::tables::{EncodingInfo, IsaSpec, OperandTypeInfo};
use std::cell::Cell;
use std::sync::{Mutex, OnceLock};

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
/// instruction (the printers only ever append). The operand list is a reused per-thread
/// buffer too, so that printing allocates nothing once the buffers have grown.
pub fn disassemble_into(ins: &Instruction, out: &mut String) {
    let mut ops = OPERANDS.with(|c| c.take());
    ops.clear();
    let plan = plan(ins);
    operands_into(ins, plan, &mut ops);
    let mut p = Printer {
        ins,
        ops,
        out: std::mem::take(out),
        operands_written: 0,
        plan,
    };
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
    OPERANDS.with(|c| c.set(p.ops));
}

thread_local! {
    /// The operand buffer [`disassemble_into`] reuses.
    static OPERANDS: std::cell::Cell<Vec<DecodedOperand>> = const { std::cell::Cell::new(Vec::new()) };
}

/// [`Instruction::operands`] into `ops` (no new `Vec`).
fn operands_into(ins: &Instruction, plan: &FormPlan, ops: &mut Vec<DecodedOperand>) {
    let enc = plan.encoding;
    let literal = plan
        .literal_field
        .map(|f| enc.fields[f as usize].extract(ins.bits));
    ops.extend(ins.form_info().operands.iter().map(|info| {
        let field = info.field.map(|f| {
            let f = &enc.fields[f as usize];
            (f.name, f.extract(ins.bits))
        });
        crate::operand::decoded_operand(ins.spec, info, field, literal)
    }));
}

/// The fields the printers read by name, as indices into [`FormPlan::fields`] (their
/// positions in the form's encoding, found once per form).
#[allow(non_camel_case_types)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum F {
    ACC,
    OFFSET0,
    OFFSET1,
    GDS,
    TH,
    GLC,
    SC0,
    SC1,
    SLC,
    NT,
    DLC,
    SCC,
    SVE,
    SCALE_OFFSET,
    LDS,
    IDXEN,
    OFFEN,
    ADDR64,
    DFMT,
    NFMT,
    OFFSET,
    IOFFSET,
    SCOPE,
    NV,
    SIMM16,
    IMM,
    SOFFSET_EN,
    CBSZ,
    BLGP,
    ABID,
    OP_SEL,
    OPSEL,
    OP_SEL_HI,
    OPSEL_HI,
    SD,
    NEG,
    ABS,
    NEG_HI,
    S0,
    S1,
    S2,
    SRC0_NEG,
    SRC1_NEG,
    SRC2_NEG,
    SRC0_ABS,
    SRC1_ABS,
    SRC2_ABS,
    SRC0_SEXT,
    SRC1_SEXT,
    SRC2_SEXT,
    ACC_CD,
    CLAMP,
    OMOD,
    SRC0,
    DPP_CTRL,
    ROW_MASK,
    BANK_MASK,
    BOUND_CTRL,
    FI,
    DST_SEL,
    DST_UNUSED,
    SRC0_SEL,
    SRC1_SEL,
    LANE_SEL_0,
    LANE_SEL_1,
    LANE_SEL_2,
    LANE_SEL_3,
    LANE_SEL_4,
    LANE_SEL_5,
    LANE_SEL_6,
    LANE_SEL_7,
}

impl F {
    /// Every known field, in the enum's order, with its name in AMD's encodings.
    const ALL: [(F, &'static str); 71] = [
        (F::ACC, "ACC"),
        (F::OFFSET0, "OFFSET0"),
        (F::OFFSET1, "OFFSET1"),
        (F::GDS, "GDS"),
        (F::TH, "TH"),
        (F::GLC, "GLC"),
        (F::SC0, "SC0"),
        (F::SC1, "SC1"),
        (F::SLC, "SLC"),
        (F::NT, "NT"),
        (F::DLC, "DLC"),
        (F::SCC, "SCC"),
        (F::SVE, "SVE"),
        (F::SCALE_OFFSET, "SCALE_OFFSET"),
        (F::LDS, "LDS"),
        (F::IDXEN, "IDXEN"),
        (F::OFFEN, "OFFEN"),
        (F::ADDR64, "ADDR64"),
        (F::DFMT, "DFMT"),
        (F::NFMT, "NFMT"),
        (F::OFFSET, "OFFSET"),
        (F::IOFFSET, "IOFFSET"),
        (F::SCOPE, "SCOPE"),
        (F::NV, "NV"),
        (F::SIMM16, "SIMM16"),
        (F::IMM, "IMM"),
        (F::SOFFSET_EN, "SOFFSET_EN"),
        (F::CBSZ, "CBSZ"),
        (F::BLGP, "BLGP"),
        (F::ABID, "ABID"),
        (F::OP_SEL, "OP_SEL"),
        (F::OPSEL, "OPSEL"),
        (F::OP_SEL_HI, "OP_SEL_HI"),
        (F::OPSEL_HI, "OPSEL_HI"),
        (F::SD, "SD"),
        (F::NEG, "NEG"),
        (F::ABS, "ABS"),
        (F::NEG_HI, "NEG_HI"),
        (F::S0, "S0"),
        (F::S1, "S1"),
        (F::S2, "S2"),
        (F::SRC0_NEG, "SRC0_NEG"),
        (F::SRC1_NEG, "SRC1_NEG"),
        (F::SRC2_NEG, "SRC2_NEG"),
        (F::SRC0_ABS, "SRC0_ABS"),
        (F::SRC1_ABS, "SRC1_ABS"),
        (F::SRC2_ABS, "SRC2_ABS"),
        (F::SRC0_SEXT, "SRC0_SEXT"),
        (F::SRC1_SEXT, "SRC1_SEXT"),
        (F::SRC2_SEXT, "SRC2_SEXT"),
        (F::ACC_CD, "ACC_CD"),
        (F::CLAMP, "CLAMP"),
        (F::OMOD, "OMOD"),
        (F::SRC0, "SRC0"),
        (F::DPP_CTRL, "DPP_CTRL"),
        (F::ROW_MASK, "ROW_MASK"),
        (F::BANK_MASK, "BANK_MASK"),
        (F::BOUND_CTRL, "BOUND_CTRL"),
        (F::FI, "FI"),
        (F::DST_SEL, "DST_SEL"),
        (F::DST_UNUSED, "DST_UNUSED"),
        (F::SRC0_SEL, "SRC0_SEL"),
        (F::SRC1_SEL, "SRC1_SEL"),
        (F::LANE_SEL_0, "LANE_SEL_0"),
        (F::LANE_SEL_1, "LANE_SEL_1"),
        (F::LANE_SEL_2, "LANE_SEL_2"),
        (F::LANE_SEL_3, "LANE_SEL_3"),
        (F::LANE_SEL_4, "LANE_SEL_4"),
        (F::LANE_SEL_5, "LANE_SEL_5"),
        (F::LANE_SEL_6, "LANE_SEL_6"),
        (F::LANE_SEL_7, "LANE_SEL_7"),
    ];
}

/// No field: the form's encoding has no field of that name.
const NO_FIELD: u16 = u16::MAX;

/// What printing needs of a form that depends on the form alone, worked out once per form
/// (at its first instruction) instead of per instruction: LLVM's mnemonic after
/// [`crate::llvm_syntax`], the other encodings of the instruction, the overrides that apply.
pub struct FormPlan {
    /// The form's encoding.
    pub encoding: &'static EncodingInfo,
    /// LLVM's mnemonic ([`crate::llvm_syntax::llvm_mnemonic`]).
    pub mnemonic: &'static str,
    /// The field holding the literal (`LITERAL`, else `LITERAL64`), if the encoding has one.
    pub literal_field: Option<u16>,
    /// The encoding has a `LITERAL64` field.
    pub literal64: bool,
    /// The instruction also has a VOP1/VOP2/VOPC form.
    pub has_short: bool,
    /// The instruction also has a VOP3 form (LLVM knows it).
    pub has_long: bool,
    /// A compare (the instruction has a VOPC form).
    pub compare: bool,
    /// A mixed-precision FMA (`v_fma_mix*`, `v_mad_mix*`).
    pub mix: bool,
    /// A sparse MFMA (`v_smfmac*`).
    pub smfmac: bool,
    /// CDNA 4's `V_MFMA_*_F8F6F4`.
    pub f8f6f4: bool,
    /// GFX9's `v_ldexp_f16` (its exponent is a 32-bit integer in LLVM).
    pub gfx9_ldexp_f16: bool,
    /// [`crate::llvm_syntax::vop3_lacks_op_sel`] and [`crate::llvm_syntax::vop3_has_op_sel`].
    pub vop3_lacks_op_sel: bool,
    pub vop3_has_op_sel: bool,
    pub op_sel_slots: Option<crate::llvm_syntax::OpSelSlots>,
    pub vop3p_ignores_op_sel_hi: bool,
    pub mfma_blgp_is_neg: bool,
    pub sdwa_without_dst_select: bool,
    /// The vector ALU roles of the operands ([`vector::form_roles`]).
    pub roles: Option<(u64, u64, bool, bool)>,
    /// The positions of the known fields ([`F`]) in the encoding; [`NO_FIELD`] for none.
    pub fields: [u16; F::ALL.len()],
}

impl FormPlan {
    fn of(ins: &Instruction) -> FormPlan {
        use crate::llvm_syntax as o;
        let spec = ins.spec;
        let info = ins.info();
        let enc = ins.encoding();
        let (generation, name) = (spec.generation, info.name);
        let field = |n: &str| {
            enc.fields
                .iter()
                .position(|f| f.name == n)
                .map(|i| i as u16)
        };
        let (mut has_short, mut has_long, mut compare) = (false, false, false);
        for &form in info.forms {
            match spec.encoding_of(form).family {
                Family::Vop1 | Family::Vop2 => has_short = true,
                Family::Vopc => {
                    has_short = true;
                    compare = true;
                }
                Family::Vop3 => has_long = true,
                _ => {}
            }
        }
        if vector::llvm_single_encoding(name) {
            has_long = false;
        }
        FormPlan {
            encoding: enc,
            mnemonic: o::llvm_mnemonic(generation, name, info.mnemonic),
            literal_field: field("LITERAL").or_else(|| field("LITERAL64")),
            literal64: field("LITERAL64").is_some(),
            has_short,
            has_long,
            compare,
            mix: name.contains("_MIX"),
            smfmac: name.starts_with("V_SMFMAC"),
            f8f6f4: name.ends_with("_F8F6F4"),
            gfx9_ldexp_f16: o::GFX9.contains(&generation) && name == "V_LDEXP_F16",
            vop3_lacks_op_sel: o::vop3_lacks_op_sel(generation, name),
            vop3_has_op_sel: o::vop3_has_op_sel(generation, name),
            op_sel_slots: o::vop3_op_sel_slots(generation, name),
            vop3p_ignores_op_sel_hi: o::vop3p_ignores_op_sel_hi(generation, name),
            mfma_blgp_is_neg: o::mfma_blgp_is_neg(generation, name),
            sdwa_without_dst_select: o::sdwa_without_dst_select(generation, name),
            roles: vector::form_roles(ins),
            fields: F::ALL.map(|(k, n)| {
                debug_assert_eq!(F::ALL[k as usize].0, k);
                field(n).unwrap_or(NO_FIELD)
            }),
        }
    }
}

/// The plans of one spec's forms, each made at first use.
struct SpecPlans {
    spec: usize,
    forms: Box<[OnceLock<FormPlan>]>,
}

static SPEC_PLANS: Mutex<Vec<&'static SpecPlans>> = Mutex::new(Vec::new());

thread_local! {
    /// The plans of the spec this thread printed last (one comparison per instruction).
    static LAST_PLANS: Cell<Option<&'static SpecPlans>> = const { Cell::new(None) };
}

/// The plan of the instruction's form.
pub fn plan(ins: &Instruction) -> &'static FormPlan {
    let key = ins.spec as *const IsaSpec as usize;
    let plans = LAST_PLANS.with(|last| match last.get() {
        Some(p) if p.spec == key => p,
        _ => {
            let mut all = SPEC_PLANS.lock().unwrap_or_else(|e| e.into_inner());
            let p = match all.iter().find(|p| p.spec == key) {
                Some(p) => *p,
                None => {
                    // One per spec (a handful, for the process's life).
                    let p: &'static SpecPlans = Box::leak(Box::new(SpecPlans {
                        spec: key,
                        forms: ins.spec.forms.iter().map(|_| OnceLock::new()).collect(),
                    }));
                    all.push(p);
                    p
                }
            };
            last.set(Some(p));
            p
        }
    });
    plans.forms[ins.form as usize].get_or_init(|| FormPlan::of(ins))
}

/// Slots of the per-thread field-index cache (a power of two).
const FIELD_SLOTS: usize = 1 << 12;

thread_local! {
    /// Field indices by (encoding, field name): `(encoding address, name address,
    /// name length << 16 | index or 0xffff)`. Names are `&'static str`, so an address and
    /// length stand for one text for the process's life.
    static FIELD_INDEX: [Cell<(usize, usize, u32)>; FIELD_SLOTS] =
        const { [const { Cell::new((0, 0, 0)) }; FIELD_SLOTS] };
}

/// The index of field `name` in `enc`, through a per-thread cache (instead of comparing
/// `name` with every field's name).
pub fn field_index(enc: &'static EncodingInfo, name: &'static str) -> Option<usize> {
    let e = enc as *const EncodingInfo as usize;
    let n = name.as_ptr() as usize;
    let len = name.len() as u32;
    let h = (e ^ n.rotate_left(23) ^ len as usize).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let slot = (h >> (usize::BITS - FIELD_SLOTS.trailing_zeros())) & (FIELD_SLOTS - 1);
    let unpack = |v: u32| (v & 0xffff != 0xffff).then_some((v & 0xffff) as usize);
    FIELD_INDEX.with(|t| {
        let (ce, cn, cv) = t[slot].get();
        if ce == e && cn == n && cv >> 16 == len {
            return unpack(cv);
        }
        let index = enc.fields.iter().position(|f| f.name == name);
        let v = (len << 16) | index.map_or(0xffff, |i| i as u32 & 0xffff);
        if len <= 0xffff && enc.fields.len() < 0xffff {
            t[slot].set((e, n, v));
        }
        index
    })
}

/// The value of known field `k` of `ins`.
pub fn known_field(ins: &Instruction, k: F) -> Option<u64> {
    known_field_in(ins, plan(ins), k)
}

fn known_field_in(ins: &Instruction, plan: &FormPlan, k: F) -> Option<u64> {
    match plan.fields[k as usize] {
        NO_FIELD => None,
        i => Some(plan.encoding.fields[i as usize].extract(ins.bits)),
    }
}

/// The value of field `name` of `ins` (what [`Instruction::field`] gives, by
/// [`field_index`]).
pub fn field_of(ins: &Instruction, name: &'static str) -> Option<u64> {
    let enc = ins.encoding();
    field_index(enc, name).map(|i| enc.fields[i].extract(ins.bits))
}

/// Operands copied out of the printer's list (so that the printer can be written to while
/// they are walked); no heap unless a form has more than [`OpList::INLINE`].
// The inline variant is meant to be large: it lives on the stack instead of the heap.
#[allow(clippy::large_enum_variant)]
pub enum OpList {
    Inline(usize, [Option<DecodedOperand>; OpList::INLINE]),
    Heap(Vec<DecodedOperand>),
}

impl OpList {
    pub const INLINE: usize = 12;

    fn of(ops: impl Iterator<Item = DecodedOperand> + Clone) -> OpList {
        if ops.clone().count() > Self::INLINE {
            return OpList::Heap(ops.collect());
        }
        let mut a = [None; Self::INLINE];
        let mut n = 0;
        for (slot, o) in a.iter_mut().zip(ops) {
            *slot = Some(o);
            n += 1;
        }
        OpList::Inline(n, a)
    }

    pub fn len(&self) -> usize {
        match self {
            OpList::Inline(n, _) => *n,
            OpList::Heap(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn get(&self, i: usize) -> Option<DecodedOperand> {
        match self {
            OpList::Inline(n, a) => a[..*n].get(i).copied().flatten(),
            OpList::Heap(v) => v.get(i).copied(),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = DecodedOperand> + '_ {
        (0..self.len()).filter_map(|i| self.get(i))
    }
}

impl<'a> IntoIterator for &'a OpList {
    type Item = DecodedOperand;
    type IntoIter = Box<dyn Iterator<Item = DecodedOperand> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl IntoIterator for OpList {
    type Item = DecodedOperand;
    type IntoIter = OpListIter;
    fn into_iter(self) -> OpListIter {
        OpListIter { list: self, at: 0 }
    }
}

pub struct OpListIter {
    list: OpList,
    at: usize,
}

impl Iterator for OpListIter {
    type Item = DecodedOperand;
    fn next(&mut self) -> Option<DecodedOperand> {
        let o = self.list.get(self.at)?;
        self.at += 1;
        Some(o)
    }
}

/// State shared by the family printers.
pub struct Printer<'a> {
    pub ins: &'a Instruction,
    pub ops: Vec<DecodedOperand>,
    pub out: String,
    /// Whether anything after the mnemonic has been written (for `, ` separators).
    operands_written: usize,
    /// The form's plan.
    pub plan: &'static FormPlan,
}

impl<'a> Printer<'a> {
    pub fn new(ins: &'a Instruction) -> Printer<'a> {
        let mut ops = Vec::new();
        let plan = plan(ins);
        operands_into(ins, plan, &mut ops);
        Printer {
            ins,
            ops,
            out: String::new(),
            operands_written: 0,
            plan,
        }
    }

    pub fn mnemonic(&mut self) {
        self.out.push_str(self.plan.mnemonic);
    }

    /// Starts an operand: `, ` after the first, a space before the first; the caller then
    /// appends the operand's text to `out`.
    pub fn begin_operand(&mut self) -> &mut String {
        self.out.push_str(if self.operands_written == 0 {
            " "
        } else {
            ", "
        });
        self.operands_written += 1;
        &mut self.out
    }

    /// Appends an operand, with `, ` after the first and a space before the first.
    pub fn operand(&mut self, text: &str) {
        self.begin_operand().push_str(text);
    }

    /// Appends a modifier (` name` or ` name:value`).
    pub fn modifier(&mut self, text: &str) {
        self.out.push(' ');
        self.out.push_str(text);
    }

    /// Starts a modifier (a space); the caller appends its text to `out`.
    pub fn begin_modifier(&mut self) -> &mut String {
        self.out.push(' ');
        &mut self.out
    }

    pub fn field(&self, name: &'static str) -> Option<u64> {
        field_of(self.ins, name)
    }

    /// The value of known field `k`, if the encoding has it.
    pub fn f(&self, k: F) -> Option<u64> {
        known_field_in(self.ins, self.plan, k)
    }

    /// The position of known field `k` in the encoding.
    pub fn field_position(&self, k: F) -> Option<usize> {
        match self.plan.fields[k as usize] {
            NO_FIELD => None,
            i => Some(i as usize),
        }
    }

    /// The explicit (encoded) operands.
    pub fn explicit(&self) -> OpList {
        OpList::of(
            self.ops
                .iter()
                .copied()
                .filter(|o| !o.info.implicit && o.info.field.is_some()),
        )
    }

    /// The operand held in field `name`, if the form has one.
    pub fn op_in(&self, name: &'static str) -> Option<DecodedOperand> {
        let f = field_index(self.ins.encoding(), name)?;
        self.ops
            .iter()
            .copied()
            .find(|o| o.info.field.is_some_and(|g| g as usize == f))
    }

    /// `mnemonic op, op, ...` with every explicit operand in the spec's order.
    pub fn default_print(&mut self) {
        self.mnemonic();
        for o in self.explicit() {
            let ins = self.ins;
            operand_text_into(self.begin_operand(), ins, &o);
        }
    }
}

/// The LLVM spelling of an AMD named value for an operand of `size` bits: a 64-bit operand
/// names a register pair by its low half (`VCC_LO` → `vcc`). Source registers keep the half
/// in their name (`src_flat_scratch_base_lo` is LLVM's name at every size).
pub fn named_text(name: &str, size: u16) -> String {
    let mut t = String::new();
    push_named(&mut t, name, size);
    t
}

/// [`named_text`] appended to `out`.
pub fn push_named(out: &mut String, name: &str, size: u16) {
    let src = name.len() >= 4 && name[..4].eq_ignore_ascii_case("src_");
    let name = match name.len().checked_sub(3) {
        Some(k)
            if size > 32
                && !src
                && name.is_char_boundary(k)
                && name[k..].eq_ignore_ascii_case("_lo") =>
        {
            &name[..k]
        }
        _ => name,
    };
    for c in name.chars() {
        out.push(c.to_ascii_lowercase());
    }
}

/// Appends `v` in decimal.
pub fn push_u64(out: &mut String, mut v: u64) {
    if v < 10 {
        out.push((b'0' + v as u8) as char);
        return;
    }
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    for &b in &buf[i..] {
        out.push(b as char);
    }
}

/// Appends `v` in decimal, with `-` when negative.
pub fn push_i64(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    push_u64(out, v.unsigned_abs());
}

/// Appends `0x` and `v` in lower-case hex, no leading zeros.
pub fn push_hex(out: &mut String, v: u64) {
    out.push_str("0x");
    let digits = (64 - v.leading_zeros()).div_ceil(4).max(1);
    for i in (0..digits).rev() {
        out.push(b"0123456789abcdef"[(v >> (4 * i) & 0xf) as usize] as char);
    }
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
    let mut t = String::new();
    push_reg(&mut t, file, first, count);
    t
}

/// [`reg_text`] appended to `out`: `v1`, `s[2:3]`.
pub fn push_reg(out: &mut String, file: RegFile, first: u32, count: u32) {
    out.push_str(reg_prefix(file));
    if count <= 1 {
        push_u64(out, first as u64);
    } else {
        out.push('[');
        push_u64(out, first as u64);
        out.push(':');
        push_u64(out, first as u64 + count as u64 - 1);
        out.push(']');
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
    let float16 = size <= 16 && data_format.contains("F16") && !data_format.contains("PK");
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
    let mut t = String::new();
    push_inline32(&mut t, v).then_some(t)
}

/// [`inline_text32`] appended to `out`; false (nothing appended) when `v` is no inline
/// constant.
pub fn push_inline32(out: &mut String, v: u32) -> bool {
    if int_inline(v as i32 as i64) {
        push_i64(out, v as i32 as i64);
        return true;
    }
    match INLINE_FLOATS.iter().find(|f| f.1 == v) {
        Some(f) => {
            out.push_str(f.3);
            true
        }
        None => false,
    }
}

fn is_inline32(v: u32) -> bool {
    int_inline(v as i32 as i64) || INLINE_FLOATS.iter().any(|f| f.1 == v)
}

fn is_inline64(v: u64) -> bool {
    int_inline(v as i64) || INLINE_FLOATS.iter().any(|f| f.2 == v)
}

/// The inline-constant text of a 64-bit value, if it is one.
pub fn inline_text64(v: u64) -> Option<String> {
    let mut t = String::new();
    push_inline64(&mut t, v).then_some(t)
}

/// [`inline_text64`] appended to `out`; false (nothing appended) when `v` is no inline
/// constant.
pub fn push_inline64(out: &mut String, v: u64) -> bool {
    if int_inline(v as i64) {
        push_i64(out, v as i64);
        return true;
    }
    match INLINE_FLOATS.iter().find(|f| f.2 == v) {
        Some(f) if f.1 == 0x3e22f983 => out.push_str(INV_2PI_F64),
        Some(f) => out.push_str(f.3),
        None => return false,
    }
    true
}

/// Whether the low half of a 16-bit float operand's value is an inline constant.
fn inline_f16(v: u16) -> bool {
    int_inline(v as i16 as i64) || INLINE_FLOATS.iter().any(|f| f.0 == v)
}

/// The text of a literal constant. LLVM keeps the literal encoding visible: a value that
/// would be printed as an inline constant is wrapped as `lit(...)` (`lit64(...)` for a 64-bit
/// literal that a 32-bit one could hold). `literal64` says the encoding's literal is 64 bits.
pub fn literal_text(value: u64, style: ImmStyle, literal64: bool) -> String {
    let mut t = String::new();
    push_literal(&mut t, value, style, literal64);
    t
}

/// [`literal_text`] appended to `out`.
pub fn push_literal(out: &mut String, value: u64, style: ImmStyle, literal64: bool) {
    let hi = value >> 32;
    if literal64 {
        if hi == 0 {
            out.push_str("lit64(");
            push_hex(out, value);
            out.push(')');
            return;
        }
        match style {
            ImmStyle::B64 => {
                if !push_inline64(out, value) {
                    push_hex(out, value);
                }
            }
            _ => {
                let lo = value as u32;
                if !push_inline32(out, lo) {
                    push_hex(out, lo as u64);
                }
            }
        }
        return;
    }
    let v = value as u32;
    let (inlinable, shown) = match style {
        ImmStyle::B32 => (is_inline32(v), v as u64),
        ImmStyle::B64 => (is_inline64(v as u64), v as u64),
        ImmStyle::I16 | ImmStyle::SaluF16 => (is_inline32(v), (v & 0xffff) as u64),
        ImmStyle::F16 => (inline_f16(v as u16), (v & 0xffff) as u64),
    };
    if inlinable {
        out.push_str("lit(");
        push_hex(out, v as u64);
        out.push(')');
    } else {
        push_hex(out, shown);
    }
}

/// Whether a 32-bit literal could have been an inline constant for an operand of this data
/// format (LLVM then prints it as `lit(...)` to keep the encoding). Vector operand styles.
pub fn literal_is_inlinable(value: u64, data_format: &str, size: u16) -> bool {
    let v = value as u32;
    match imm_style_of(false, size, data_format) {
        ImmStyle::B32 | ImmStyle::I16 | ImmStyle::SaluF16 => is_inline32(v),
        ImmStyle::B64 => is_inline64(v as u64),
        ImmStyle::F16 => inline_f16(v as u16),
    }
}

/// The text of a float inline constant named `name` by AMD (`0.5`, `0.15915494`).
pub fn float_text(name: &str, style: ImmStyle) -> String {
    let mut t = String::new();
    push_float(&mut t, name, style);
    t
}

/// [`float_text`] appended to `out`.
pub fn push_float(out: &mut String, name: &str, style: ImmStyle) {
    match INLINE_FLOATS.iter().find(|f| f.3 == name) {
        Some(f) if style == ImmStyle::SaluF16 => push_hex(out, f.0 as u64),
        Some(f) if style == ImmStyle::B64 && f.1 == 0x3e22f983 => out.push_str(INV_2PI_F64),
        _ => out.push_str(name),
    }
}

/// A signed immediate in LLVM's hex form (`0x12`, `-0x10`).
pub fn signed_hex(v: i64) -> String {
    let mut t = String::new();
    push_signed_hex(&mut t, v);
    t
}

/// [`signed_hex`] appended to `out`.
pub fn push_signed_hex(out: &mut String, v: i64) {
    if v < 0 {
        out.push('-');
    }
    push_hex(out, v.unsigned_abs());
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
    let gfx9 = crate::llvm_syntax::GFX9.contains(&generation);
    let gfx11_up = crate::llvm_syntax::GFX11_12.contains(&generation);
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
    let mut t = String::new();
    operand_text_into(&mut t, ins, o);
    t
}

/// [`operand_text`] appended to `out`.
pub fn operand_text_into(out: &mut String, ins: &Instruction, o: &DecodedOperand) {
    operand_text_in(out, ins, plan(ins), o)
}

/// [`operand_text_into`] with the form's plan at hand.
fn operand_text_in(out: &mut String, ins: &Instruction, plan: &FormPlan, o: &DecodedOperand) {
    if let Operand::Unknown(v) = o.value {
        return unknown_text_into(out, ins, o, v);
    }
    value_text_into(out, ins.spec, imm_style(ins, o), plan.literal64, o)
}

/// The LLVM text of an operand of `spec` whose constants print in `style` (what
/// [`operand_text`] gives, for operands not held by an [`Instruction`]: dual-issue halves).
pub fn value_text(spec: &IsaSpec, style: ImmStyle, literal64: bool, o: &DecodedOperand) -> String {
    let mut t = String::new();
    value_text_into(&mut t, spec, style, literal64, o);
    t
}

/// [`value_text`] appended to `out`.
pub fn value_text_into(
    out: &mut String,
    spec: &IsaSpec,
    style: ImmStyle,
    literal64: bool,
    o: &DecodedOperand,
) {
    let size = o.info.size;
    match o.value {
        Operand::Reg { file, first, count } => {
            push_reg(out, file, aligned_first(file, first, count), count)
        }
        Operand::Named(n) => push_named(out, n, size),
        Operand::Int(i) => push_i64(out, i),
        Operand::Float(f) => push_float(out, f, style),
        Operand::Literal(v) => push_literal(out, v, style, literal64),
        Operand::Imm(v) => push_u64(out, v),
        Operand::Unknown(v) => out.push_str(&unknown_text_in(spec, o, v)),
        Operand::Implicit(t) => {
            for c in t.chars() {
                out.push(c.to_ascii_lowercase());
            }
        }
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
fn unknown_text_into(out: &mut String, ins: &Instruction, o: &DecodedOperand, v: u64) {
    match unlisted_code_name(ins, o) {
        Some(t) => out.push_str(&t),
        None => push_u64(out, v),
    }
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
