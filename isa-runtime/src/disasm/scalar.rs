//! Scalar families: SOP1, SOP2, SOPK, SOPC, SOPP, SMEM.
//!
//! Structured immediates (`hwreg(...)`, `sendmsg(...)`, `s_waitcnt` counters, dependency
//! counters, `s_delay_alu`, `s_version`) are read through the bit layouts of their operand
//! types; the names LLVM prints for their values come from [`crate::llvm_syntax`].

use super::{
    operand_text, operand_text_into, operand_type, push_hex, push_inline32, push_signed_hex,
    push_u64, sign_extend, signed_hex, subfield, Family, Printer, Variant, F,
};
use crate::llvm_syntax::{self, name_of};
use crate::operand::{classify_in, DecodedOperand, Operand};
use crate::tables::{FieldInfo, OperandTypeInfo};

pub fn print(p: &mut Printer, family: Family, _variant: Variant) {
    match family {
        Family::Smem => smem(p),
        _ => sop(p, family),
    }
}

/// SOP1, SOP2, SOPK, SOPC, SOPP: the operands in the spec's order.
fn sop(p: &mut Printer, family: Family) {
    p.mnemonic();
    let explicit = p.explicit();
    for o in &explicit {
        p.begin_operand();
        // The printer is read while its text grows: the text is taken out meanwhile.
        let mut out = std::mem::take(&mut p.out);
        sop_operand_text(&mut out, p, &o, family);
        p.out = out;
    }
    let mnemonic = p.ins.info().mnemonic;
    if explicit.is_empty()
        && llvm_syntax::SOPP_OPTIONAL_IMMEDIATE
            .iter()
            .any(|e| e.0 == mnemonic)
    {
        if let Some(v) = p.f(F::SIMM16).filter(|&v| v != 0) {
            p.operand(&v.to_string());
        }
    }
}

fn field_name(p: &Printer, o: &DecodedOperand) -> &'static str {
    o.info
        .field
        .map_or("", |f| p.ins.encoding().fields[f as usize].name)
}

fn sop_operand_text(out: &mut String, p: &Printer, o: &DecodedOperand, family: Family) {
    let ins = p.ins;
    let generation = ins.spec.generation;
    let mnemonic = ins.info().mnemonic;
    let Some(ty) = operand_type(ins, o) else {
        return operand_text_into(out, ins, o);
    };
    let raw = o.raw;
    let special = match ty.name {
        "OPR_HWREG" => Some(hwreg_text(generation, ty, raw)),
        "OPR_SENDMSG" | "OPR_SENDMSG_RTN" => Some(sendmsg_text(generation, raw)),
        "OPR_WAITCNT" => return push_waitcnt(out, ty, raw),
        "OPR_WAITCNT_DEPCTR" | "OPR_WAIT_ALU" => Some(depctr_text(ty, raw)),
        "OPR_DELAY" => Some(delay_text(generation, ty, raw)),
        "OPR_VERSION" => Some(version_text(generation, ty, raw)),
        // Branch targets: LLVM prints the raw 16-bit word offset, unsigned.
        "OPR_LABEL" => return push_u64(out, raw & 0xffff),
        _ => None,
    };
    if let Some(t) = special {
        return out.push_str(&t);
    }
    let plain_immediate_type = ty.runs.is_empty() && ty.values.is_empty();
    if llvm_syntax::GPR_IDX_IMMEDIATE
        .iter()
        .any(|e| e.0 == mnemonic)
        && matches!(field_name(p, o), "SIMM16" | "SSRC1")
    {
        return out.push_str(&gpr_idx_text(raw));
    }
    if let (Operand::Literal(v), true) = (o.value, plain_immediate_type) {
        // A literal that is an immediate operand (s_setreg_imm32_b32's value), not a source:
        // LLVM prints it as a number, inline-constant values by their inline text.
        if !push_inline32(out, v as u32) {
            push_hex(out, v as u32 as u64);
        }
        return;
    }
    if !matches!(o.value, Operand::Imm(_)) {
        return operand_text_into(out, ins, o);
    }
    match family {
        // SOPK immediates are LLVM's unsigned 16-bit operands: always hex.
        Family::Sopk => push_hex(out, raw & 0xffff),
        Family::Sopp if llvm_syntax::sopp_immediate_in_hex(mnemonic) => push_hex(out, raw & 0xffff),
        _ => push_small_decimal(out, raw),
    }
}

/// [`small_decimal`] appended to `out`.
fn push_small_decimal(out: &mut String, v: u64) {
    if v <= 64 {
        push_u64(out, v)
    } else {
        push_hex(out, v)
    }
}

/// LLVM's plain immediates: decimal up to 64 (the inline-constant range), hex above.
#[cfg(test)]
fn small_decimal(v: u64) -> String {
    let mut t = String::new();
    push_small_decimal(&mut t, v);
    t
}

/// `hwreg(NAME)` for a whole register, `hwreg(NAME, offset, size)` for a bit range; an id LLVM
/// has no name for prints as its number. The SIZE field holds the size minus one.
fn hwreg_text(generation: &str, ty: &OperandTypeInfo, raw: u64) -> String {
    let (Some(id), Some(offset), Some(size)) = (
        subfield(ty, "ID", raw),
        subfield(ty, "OFFSET", raw),
        subfield(ty, "SIZE", raw),
    ) else {
        return format!("0x{raw:x}");
    };
    let size = size + 1;
    let name = name_of(llvm_syntax::HWREG, generation, id as u32)
        .map_or_else(|| id.to_string(), str::to_string);
    if offset == 0 && size == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {offset}, {size})")
    }
}

/// `sendmsg(MSG[, OP[, stream]])`; a message LLVM cannot name prints as
/// `sendmsg(id, op, stream)` when only those bits are set, and as the decimal number otherwise.
fn sendmsg_text(generation: &str, raw: u64) -> String {
    let raw = raw & 0xffff;
    if !llvm_syntax::GFX9_10.contains(&generation) {
        // From GFX11 on the id is the low byte; LLVM ignores the bits above it once named.
        let msg = raw & 0xff;
        return match name_of(llvm_syntax::SENDMSG, generation, msg as u32) {
            Some(name) => format!("sendmsg({name})"),
            None if raw >> 8 == 0 => format!("sendmsg({msg}, 0, 0)"),
            None => raw.to_string(),
        };
    }
    let (msg, op, stream) = (raw & 0xf, (raw >> 4) & 7, (raw >> 8) & 3);
    if let Some(name) = name_of(llvm_syntax::SENDMSG, generation, msg as u32) {
        let named = match name {
            "MSG_GS" | "MSG_GS_DONE" => {
                let op_ok = op != 0 || name == "MSG_GS_DONE";
                match name_of(llvm_syntax::SENDMSG_GS_OP, generation, op as u32) {
                    Some(op_name) if op_ok && op == 0 && stream == 0 => {
                        Some(format!("sendmsg({name}, {op_name})"))
                    }
                    Some(op_name) if op_ok && op != 0 => {
                        Some(format!("sendmsg({name}, {op_name}, {stream})"))
                    }
                    _ => None,
                }
            }
            "MSG_SYSMSG" => name_of(llvm_syntax::SENDMSG_SYSMSG_OP, generation, op as u32)
                .filter(|_| stream == 0)
                .map(|op_name| format!("sendmsg({name}, {op_name})")),
            _ => (op == 0 && stream == 0).then(|| format!("sendmsg({name})")),
        };
        if let Some(t) = named {
            return t;
        }
    }
    // The numeric form only when the id, operation and stream fields hold every set bit.
    if raw & !0x37f == 0 {
        format!("sendmsg({msg}, {op}, {stream})")
    } else {
        raw.to_string()
    }
}

/// The counters of `s_waitcnt`, LLVM's order; a counter at its maximum (no wait) is left out
/// unless all are.
const WAITCNT_ORDER: [&str; 3] = ["VM", "EXP", "LGKM"];

fn all_ones(f: &FieldInfo) -> u64 {
    (1u64 << f.width()) - 1
}

/// `vmcnt(n) expcnt(n) lgkmcnt(n)` from the fields of `OPR_WAITCNT`.
#[cfg(test)]
fn waitcnt_text(ty: &OperandTypeInfo, raw: u64) -> String {
    let mut t = String::new();
    push_waitcnt(&mut t, ty, raw);
    t
}

/// [`waitcnt_text`] appended to `out`.
fn push_waitcnt(out: &mut String, ty: &OperandTypeInfo, raw: u64) {
    let counters = WAITCNT_ORDER
        .iter()
        .filter_map(|n| ty.fields.iter().find(|f| f.name == *n))
        .map(|f| (f, f.extract(raw as u128)));
    let all_default = counters.clone().all(|(f, v)| v == all_ones(f));
    let mut first = true;
    for (f, v) in counters.filter(|(f, v)| all_default || *v != all_ones(f)) {
        if !first {
            out.push(' ');
        }
        first = false;
        for c in f.name.chars() {
            out.push(c.to_ascii_lowercase());
        }
        out.push_str("cnt(");
        push_u64(out, v);
        out.push(')');
    }
    if first {
        push_hex(out, raw);
    }
}

/// LLVM's order of the dependency counters (`depctr_va_vdst` before `depctr_va_sdst`).
const DEPCTR_ORDER: [&str; 7] = [
    "HOLD_CNT", "SA_SDST", "VA_VDST", "VA_SDST", "VA_SSRC", "VA_VCC", "VM_VSRC",
];

/// `depctr_name(n) ...` from the fields of the dependency-counter type: the counters not at
/// their maximum (all of them when every one is), or hex when a bit outside them is set.
fn depctr_text(ty: &OperandTypeInfo, raw: u64) -> String {
    let mut fields: Vec<&FieldInfo> = ty.fields.iter().collect();
    fields.sort_by_key(|f| {
        DEPCTR_ORDER
            .iter()
            .position(|n| *n == f.name)
            .unwrap_or(DEPCTR_ORDER.len())
    });
    let used = fields.iter().fold(0u128, |m, f| m | f.mask());
    if raw as u128 & !used != 0 || fields.is_empty() {
        return format!("0x{raw:x}");
    }
    let values: Vec<(&FieldInfo, u64)> = fields
        .iter()
        .map(|f| (*f, f.extract(raw as u128)))
        .collect();
    let all_default = values.iter().all(|(f, v)| *v == all_ones(f));
    values
        .iter()
        .filter(|(f, v)| all_default || *v != all_ones(f))
        .map(|(f, v)| format!("depctr_{}({v})", f.name.to_ascii_lowercase()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `instid0(X) | instskip(Y) | instid1(Z)`, leaving out zero fields; `0` when all are.
fn delay_text(generation: &str, ty: &OperandTypeInfo, raw: u64) -> String {
    let mut parts = Vec::new();
    for (field, table, what) in [
        ("INSTID0", llvm_syntax::DELAY_INSTID, "instid"),
        ("INSTSKIP", llvm_syntax::DELAY_INSTSKIP, "instskip"),
        ("INSTID1", llvm_syntax::DELAY_INSTID, "instid"),
    ] {
        let Some(v) = subfield(ty, field, raw).filter(|&v| v != 0) else {
            continue;
        };
        let name = name_of(table, generation, v as u32)
            .map_or_else(|| format!("/* invalid {what} value */"), str::to_string);
        parts.push(format!("{}({name})", field.to_ascii_lowercase()));
    }
    if parts.is_empty() {
        "0".to_string()
    } else {
        parts.join(" | ")
    }
}

/// `UC_VERSION_GFX11|UC_VERSION_W32_BIT`: the version by name (or number) and each one-bit
/// flag field that is set, as LLVM's nested `|` expression; hex when other bits are set.
fn version_text(generation: &str, ty: &OperandTypeInfo, raw: u64) -> String {
    let used = ty.fields.iter().fold(0u128, |m, f| m | f.mask());
    let Some(version) = subfield(ty, "VERSION", raw).filter(|_| raw as u128 & !used == 0) else {
        return format!("0x{raw:x}");
    };
    let mut text = name_of(llvm_syntax::VERSION, generation, version as u32)
        .map_or_else(|| version.to_string(), str::to_string);
    let mut flags: Vec<&FieldInfo> = ty.fields.iter().filter(|f| f.width() == 1).collect();
    flags.sort_by_key(|f| f.ranges.first().map_or(0, |r| r.offset));
    let mut compound = false;
    for f in flags.into_iter().filter(|f| f.extract(raw as u128) != 0) {
        text = if compound { format!("({text})") } else { text };
        text = format!("{text}|UC_VERSION_{}_BIT", f.name);
        compound = true;
    }
    text
}

/// `gpr_idx(SRC0,SRC1,SRC2,DST)` for the VGPR-indexing mode mask.
fn gpr_idx_text(raw: u64) -> String {
    if raw > 0xf {
        return format!("0x{raw:x}");
    }
    let names: Vec<&str> = ["SRC0", "SRC1", "SRC2", "DST"]
        .iter()
        .enumerate()
        .filter(|(i, _)| raw & (1 << i) != 0)
        .map(|(_, n)| *n)
        .collect();
    format!("gpr_idx({})", names.join(","))
}

/// SMEM: data, base and offset, then the cache-policy modifiers of data accesses.
///
/// The offset is printed from the encoding's fields, by generation layout:
/// - GFX9 (`IMM`, `SOFFSET_EN`): an immediate, a register (from `SOFFSET` or the low bits of
///   `OFFSET`), or `register offset:imm`;
/// - GFX10/11 (`OFFSET`): `null` and a zero offset print as `null`, otherwise the register
///   and a non-zero `offset:`;
/// - GFX12 (`IOFFSET`): the immediate alone with `null`, else `register offset:imm`.
fn smem(p: &mut Printer) {
    p.mnemonic();
    let offset_field = ["IOFFSET", "OFFSET"]
        .into_iter()
        .find(|f| p.field(f).is_some());
    let offset_is_operand = offset_field.is_some_and(|f| p.op_in(f).is_some());
    for o in p.explicit() {
        p.begin_operand();
        // The printer is read while its text grows: the text is taken out meanwhile.
        let mut out = std::mem::take(&mut p.out);
        match field_name(p, &o) {
            "SOFFSET" if !offset_is_operand && offset_field.is_some() => {
                out.push_str(&smem_offset_text(p, &o))
            }
            "IOFFSET" | "OFFSET" => {
                let width = o
                    .info
                    .field
                    .map_or(32, |f| p.ins.encoding().fields[f as usize].width());
                push_signed_hex(&mut out, sign_extend(o.raw, width))
            }
            _ if matches!(o.value, Operand::Imm(_)) => push_small_decimal(&mut out, o.raw),
            _ => operand_text_into(&mut out, p.ins, &o),
        }
        p.out = out;
    }
    // Cache policy belongs to data accesses: a register SDATA and an SBASE.
    let data_access = p
        .op_in("SDATA")
        .is_some_and(|o| !matches!(o.value, Operand::Imm(_)))
        && p.op_in("SBASE").is_some();
    if data_access {
        smem_cache_policy(p);
    }
}

fn smem_offset_text(p: &Printer, soffset: &DecodedOperand) -> String {
    let enc = p.ins.encoding();
    let Some(off_field) = enc
        .fields
        .iter()
        .find(|f| f.name == "IOFFSET" || f.name == "OFFSET")
    else {
        return operand_text(p.ins, soffset);
    };
    let offset = sign_extend(off_field.extract(p.ins.bits), off_field.width());
    let reg = operand_text(p.ins, soffset);
    if let (Some(imm), Some(soffset_en)) = (p.f(F::IMM), p.f(F::SOFFSET_EN)) {
        return match (imm, soffset_en) {
            (0, 0) => register_code_text(p, soffset, off_field.extract(p.ins.bits) & 0x7f),
            (0, _) => reg,
            (_, 0) => signed_hex(offset),
            _ => format!("{reg} offset:{}", signed_hex(offset)),
        };
    }
    let null = is_null(p, soffset);
    match (off_field.name, null) {
        ("OFFSET", _) if offset == 0 => reg,
        (_, true) => signed_hex(offset),
        _ => format!("{reg} offset:{}", signed_hex(offset)),
    }
}

/// Whether a scalar operand holds the NULL register (named by its type, or the code the spec
/// names NULL elsewhere when this type does not list it).
fn is_null(p: &Printer, o: &DecodedOperand) -> bool {
    match o.value {
        Operand::Named(n) => n == "NULL",
        Operand::Unknown(code) => p
            .ins
            .spec
            .operand_types
            .iter()
            .flat_map(|t| t.values.iter())
            .any(|&(v, n)| n == "NULL" && v as u64 == code),
        _ => false,
    }
}

/// A scalar register code read through another operand's type (GFX9 SMEM keeps the offset
/// register in the low bits of OFFSET when neither IMM nor SOFFSET_EN is set).
fn register_code_text(p: &Printer, like: &DecodedOperand, code: u64) -> String {
    let Some(ty) = operand_type(p.ins, like) else {
        return code.to_string();
    };
    let value = classify_in(Some(p.ins.spec), ty, code, like.info.size, None);
    operand_text(
        p.ins,
        &DecodedOperand {
            value,
            raw: code,
            ..*like
        },
    )
}

/// `glc`, `dlc` (GFX9-11); `th:`, `scope:` and `nv` (GFX12). GFX9's NV bit is not printed.
fn smem_cache_policy(p: &mut Printer) {
    for (field, text) in [(F::GLC, "glc"), (F::DLC, "dlc")] {
        if p.f(field).is_some_and(|v| v != 0) {
            p.modifier(text);
        }
    }
    let (Some(th), Some(scope)) = (p.f(F::TH), p.f(F::SCOPE)) else {
        return;
    };
    let th_name = match (th, scope) {
        (3, 3) => Some("TH_LOAD_BYPASS"),
        (1, _) => Some("TH_LOAD_NT"),
        (2, _) => Some("TH_LOAD_HT"),
        (3, _) => Some("TH_LOAD_LU"),
        _ => None,
    };
    if let Some(t) = th_name {
        p.modifier(&format!("th:{t}"));
    }
    if let Some(s) =
        [None, Some("SCOPE_SE"), Some("SCOPE_DEV"), Some("SCOPE_SYS")][scope as usize & 3]
    {
        p.modifier(&format!("scope:{s}"));
    }
    if p.f(F::NV).is_some_and(|v| v != 0) {
        p.modifier("nv");
    }
}

#[cfg(test)]
mod tests {
    //! Structured immediates on hand-built operand types (the layouts of AMD's types); the
    //! expected texts are what llvm-mc 22 prints for the same values.
    use super::*;
    use crate::test_types::*;

    #[test]
    fn waitcnt_leaves_out_counters_at_their_maximum() {
        assert_eq!(
            waitcnt_text(&WAITCNT_GFX9, 0x0000),
            "vmcnt(0) expcnt(0) lgkmcnt(0)"
        );
        assert_eq!(waitcnt_text(&WAITCNT_GFX9, 0x0f70), "vmcnt(0)");
        assert_eq!(waitcnt_text(&WAITCNT_GFX9, 0xc07f), "lgkmcnt(0)");
        assert_eq!(
            waitcnt_text(&WAITCNT_GFX9, 0xffff),
            "vmcnt(63) expcnt(7) lgkmcnt(15)"
        );
        assert_eq!(
            waitcnt_text(&WAITCNT_GFX9, 0x8ba5),
            "vmcnt(37) expcnt(2) lgkmcnt(11)"
        );
        assert_eq!(waitcnt_text(&WAITCNT_GFX11, 0xfc07), "lgkmcnt(0)");
        assert_eq!(
            waitcnt_text(&WAITCNT_GFX11, 0x0001),
            "vmcnt(0) expcnt(1) lgkmcnt(0)"
        );
    }

    #[test]
    fn hwreg_names_by_generation_and_bit_ranges() {
        assert_eq!(hwreg_text("cdna3", &HWREG, 0xf801), "hwreg(HW_REG_MODE)");
        assert_eq!(
            hwreg_text("rdna4", &HWREG, 0xf801),
            "hwreg(HW_REG_WAVE_MODE)"
        );
        assert_eq!(
            hwreg_text("cdna3", &HWREG, 0x1050),
            "hwreg(HW_REG_TBA_LO, 1, 3)"
        );
        assert_eq!(hwreg_text("rdna3", &HWREG, 0x1050), "hwreg(16, 1, 3)");
        assert_eq!(
            hwreg_text("rdna3", &HWREG, 0x1052),
            "hwreg(HW_REG_PERF_SNAPSHOT_PC_LO, 1, 3)"
        );
        assert_eq!(hwreg_text("cdna3", &HWREG, 0xf825), "hwreg(37)");
        assert_eq!(hwreg_text("rdna3", &HWREG, 0x0000), "hwreg(0, 0, 1)");
        assert_eq!(hwreg_text("rdna3", &HWREG, 0xffff), "hwreg(63, 31, 32)");
    }

    #[test]
    fn sendmsg_symbolic_numeric_and_decimal() {
        assert_eq!(sendmsg_text("cdna2", 0x0001), "sendmsg(MSG_INTERRUPT)");
        assert_eq!(
            sendmsg_text("cdna2", 0x0212),
            "sendmsg(MSG_GS, GS_OP_CUT, 2)"
        );
        assert_eq!(
            sendmsg_text("cdna2", 0x0403),
            "sendmsg(MSG_GS_DONE, GS_OP_NOP)"
        );
        assert_eq!(
            sendmsg_text("cdna2", 0x002f),
            "sendmsg(MSG_SYSMSG, SYSMSG_OP_REG_RD)"
        );
        // MSG_GS needs an operation; op 7 is none of MSG_STALL_WAVE_GEN's.
        assert_eq!(sendmsg_text("cdna2", 0x0002), "sendmsg(2, 0, 0)");
        assert_eq!(sendmsg_text("cdna2", 0x0075), "sendmsg(5, 7, 0)");
        assert_eq!(sendmsg_text("cdna2", 0x0400), "1024");
        assert_eq!(sendmsg_text("rdna1", 0x000b), "sendmsg(MSG_GET_DDID)");
        assert_eq!(sendmsg_text("cdna2", 0x000b), "sendmsg(11, 0, 0)");
        assert_eq!(sendmsg_text("rdna3", 0x0002), "sendmsg(MSG_HS_TESSFACTOR)");
        assert_eq!(sendmsg_text("rdna4", 0x1601), "sendmsg(MSG_INTERRUPT)");
        assert_eq!(
            sendmsg_text("rdna4", 0x0087),
            "sendmsg(MSG_RTN_GET_SE_AID_ID)"
        );
        assert_eq!(sendmsg_text("rdna4", 0x00ff), "sendmsg(255, 0, 0)");
        assert_eq!(sendmsg_text("rdna4", 0x0100), "256");
    }

    #[test]
    fn depctr_fields_in_llvm_order_or_hex() {
        assert_eq!(
            depctr_text(&DEPCTR_GFX11, 0x209a),
            "depctr_sa_sdst(0) depctr_va_vdst(2) depctr_va_sdst(0) depctr_va_ssrc(0) depctr_vm_vsrc(6)"
        );
        assert_eq!(
            depctr_text(&DEPCTR_GFX11, 0xff9f),
            "depctr_hold_cnt(1) depctr_sa_sdst(1) depctr_va_vdst(15) depctr_va_sdst(7) depctr_va_ssrc(1) depctr_va_vcc(1) depctr_vm_vsrc(7)"
        );
        assert_eq!(depctr_text(&DEPCTR_GFX11, 0x0020), "0x20");
        // Without a HOLD_CNT field (GFX10.1) bit 7 is outside every counter.
        assert_eq!(depctr_text(&DEPCTR_GFX10_1, 0xff9f), "0xff9f");
        assert_eq!(
            depctr_text(&DEPCTR_GFX10_1, 0x1f05),
            "depctr_va_vdst(1) depctr_va_vcc(0) depctr_vm_vsrc(1)"
        );
    }

    #[test]
    fn delay_alu_fields() {
        assert_eq!(delay_text("rdna4", &DELAY, 0x0000), "0");
        assert_eq!(
            delay_text("rdna4", &DELAY, 0x0091),
            "instid0(VALU_DEP_1) | instskip(NEXT) | instid1(VALU_DEP_1)"
        );
        assert_eq!(
            delay_text("rdna4", &DELAY, 0x0060),
            "instskip(/* invalid instskip value */)"
        );
        assert_eq!(
            delay_text("rdna4", &DELAY, 0x000c),
            "instid0(/* invalid instid value */)"
        );
        assert_eq!(delay_text("rdna4", &DELAY, 0x0800), "0");
    }

    #[test]
    fn version_with_flags() {
        assert_eq!(version_text("rdna4", &VERSION, 0x0000), "UC_VERSION_GFX7");
        assert_eq!(version_text("rdna4", &VERSION, 0x0005), "5");
        assert_eq!(
            version_text("rdna4", &VERSION, 0x6006),
            "(UC_VERSION_GFX11|UC_VERSION_W64_BIT)|UC_VERSION_W32_BIT"
        );
        assert_eq!(
            version_text("rdna4", &VERSION, 0xe009),
            "((UC_VERSION_GFX12|UC_VERSION_W64_BIT)|UC_VERSION_W32_BIT)|UC_VERSION_MDP_BIT"
        );
        assert_eq!(version_text("rdna4", &VERSION, 0x0100), "0x100");
    }

    #[test]
    fn gpr_idx_and_plain_immediates() {
        assert_eq!(gpr_idx_text(0), "gpr_idx()");
        assert_eq!(gpr_idx_text(0xb), "gpr_idx(SRC0,SRC1,DST)");
        assert_eq!(gpr_idx_text(0x10), "0x10");
        assert_eq!(small_decimal(64), "64");
        assert_eq!(small_decimal(65), "0x41");
    }
}

#[cfg(all(test, feature = "fixtures"))]
mod fixture_tests {
    //! Forms of the project's fixture specs with chosen field values; the expected texts are
    //! what llvm-mc 22 prints for the same bytes.
    use crate::test_types::{fixture_spec, instance};

    /// The text of `name` in `encoding` with the form's condition values and `fields` set.
    fn text(generation: &str, name: &str, encoding: &str, fields: &[(&str, u64)]) -> String {
        let spec = fixture_spec(generation);
        let ins = instance(spec, name, encoding, "", fields);
        let (d, _) = crate::decode(spec, &ins.encode()).expect("decodes");
        assert!(d == ins, "decodes as another form: {d:?}");
        crate::disassemble(&d)
    }

    #[test]
    fn rdna3_sopp_sopk_and_literals() {
        assert_eq!(
            text("rdna3", "S_WAITCNT", "ENC_SOPP", &[("SIMM16", 0xfc07)]),
            "s_waitcnt lgkmcnt(0)"
        );
        assert_eq!(
            text("rdna3", "S_VERSION", "ENC_SOPK", &[("SIMM16", 0x6006)]),
            "s_version (UC_VERSION_GFX11|UC_VERSION_W64_BIT)|UC_VERSION_W32_BIT"
        );
        assert_eq!(
            text(
                "rdna3",
                "S_MOVK_I32",
                "ENC_SOPK",
                &[("SDST", 0x6a), ("SIMM16", 5)]
            ),
            "s_movk_i32 vcc_lo, 0x5"
        );
        assert_eq!(
            text("rdna3", "S_NOP", "ENC_SOPP", &[("SIMM16", 0x41)]),
            "s_nop 0x41"
        );
        assert_eq!(
            text("rdna3", "S_NOP", "ENC_SOPP", &[("SIMM16", 5)]),
            "s_nop 5"
        );
        assert_eq!(
            text("rdna3", "S_BRANCH", "ENC_SOPP", &[("SIMM16", 0xfffd)]),
            "s_branch 65533"
        );
        assert_eq!(
            text(
                "rdna3",
                "S_ADD_U32",
                "SOP2_INST_LITERAL",
                &[("SDST", 0x7c), ("SSRC1", 0xc1), ("LITERAL", 0x3e22f983)]
            ),
            "s_add_u32 null, lit(0x3e22f983), -1"
        );
    }

    #[test]
    fn rdna3_smem_offsets() {
        let load = |soffset: u64, offset: u64| {
            text(
                "rdna3",
                "S_LOAD_B64",
                "ENC_SMEM",
                &[
                    ("SDATA", 4),
                    ("SOFFSET", soffset),
                    ("OFFSET", offset),
                    ("GLC", 1),
                    ("DLC", 1),
                ],
            )
        };
        assert_eq!(load(0x7c, 0), "s_load_b64 s[4:5], s[0:1], null glc dlc");
        assert_eq!(
            load(0x7c, 0x1ffff0),
            "s_load_b64 s[4:5], s[0:1], -0x10 glc dlc"
        );
        assert_eq!(load(4, 0), "s_load_b64 s[4:5], s[0:1], s4 glc dlc");
        assert_eq!(
            load(4, 0x1ffff0),
            "s_load_b64 s[4:5], s[0:1], s4 offset:-0x10 glc dlc"
        );
    }

    #[test]
    fn cdna3_hwreg_smem_and_64_bit_constants() {
        assert_eq!(
            text(
                "cdna3",
                "S_GETREG_B32",
                "ENC_SOPK",
                &[("SDST", 0x68), ("SIMM16", 0x1050)]
            ),
            "s_getreg_b32 xnack_mask_lo, hwreg(HW_REG_TBA_LO, 1, 3)"
        );
        let load = |imm: u64, soffset_en: u64| {
            text(
                "cdna3",
                "S_LOAD_DWORD",
                "ENC_SMEM",
                &[
                    ("SDATA", 0x66),
                    ("SBASE", 4),
                    ("SOFFSET", 0x6a),
                    ("OFFSET", 0x1fff7d),
                    ("IMM", imm),
                    ("SOFFSET_EN", soffset_en),
                    ("GLC", 1),
                    ("NV", 1),
                ],
            )
        };
        // Neither IMM nor SOFFSET_EN: the register is in OFFSET's low 7 bits (125, NULL).
        assert_eq!(load(0, 0), "s_load_dword flat_scratch_lo, s[4:5], null glc");
        assert_eq!(
            load(0, 1),
            "s_load_dword flat_scratch_lo, s[4:5], vcc_lo glc"
        );
        assert_eq!(
            load(1, 0),
            "s_load_dword flat_scratch_lo, s[4:5], -0x83 glc"
        );
        assert_eq!(
            load(1, 1),
            "s_load_dword flat_scratch_lo, s[4:5], vcc_lo offset:-0x83 glc"
        );
        assert_eq!(
            text(
                "cdna3",
                "S_MOV_B64",
                "SOP1_INST_LITERAL",
                &[("SDST", 0x66), ("LITERAL", 0x40)]
            ),
            "s_mov_b64 flat_scratch, lit(0x40)"
        );
        assert_eq!(
            text(
                "cdna3",
                "S_MOV_B64",
                "SOP1_INST_LITERAL",
                &[("SDST", 0x6a), ("LITERAL", 0xfffffff0)]
            ),
            "s_mov_b64 vcc, 0xfffffff0"
        );
        assert_eq!(
            text(
                "cdna3",
                "S_MOV_B64",
                "ENC_SOP1",
                &[("SDST", 0x68), ("SSRC0", 0xf8)]
            ),
            "s_mov_b64 xnack_mask, 0.15915494309189532"
        );
        // Codes AMD's list leaves out, in LLVM's names.
        assert_eq!(
            text(
                "cdna3",
                "S_MOV_B32",
                "ENC_SOP1",
                &[("SDST", 0x69), ("SSRC0", 0xe7)]
            ),
            "s_mov_b32 xnack_mask_hi, src_flat_scratch_base_hi"
        );
    }

    #[test]
    fn cdna5_64_bit_literals() {
        let mov32 = |v: u64| {
            text(
                "cdna5",
                "S_MOV_B32",
                "SOP1_INST_LITERAL64",
                &[("SDST", 4), ("LITERAL64", v)],
            )
        };
        let mov64 = |v: u64| {
            text(
                "cdna5",
                "S_MOV_B64",
                "SOP1_INST_LITERAL64",
                &[("SDST", 4), ("LITERAL64", v)],
            )
        };
        assert_eq!(mov32(0x12345678), "s_mov_b32 s4, lit64(0x12345678)");
        assert_eq!(mov32(0x3f8000003f800000), "s_mov_b32 s4, 1.0");
        assert_eq!(mov64(0x3ff0000000000000), "s_mov_b64 s[4:5], 1.0");
        assert_eq!(mov64(0x123456789), "s_mov_b64 s[4:5], 0x123456789");
        assert_eq!(
            text(
                "cdna5",
                "S_CMP_EQ_U64",
                "ENC_SOPC",
                &[("SSRC0", 0xe6), ("SSRC1", 0x7c)]
            ),
            "s_cmp_eq_u64 src_flat_scratch_base_lo, null"
        );
    }
}
