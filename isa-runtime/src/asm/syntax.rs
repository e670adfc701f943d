//! Operand syntax the assembler reads directly instead of searching for it: LLVM's structured
//! notations whose text does not fix every bit (several encodings print alike, and LLVM's
//! assembler picks one of them by rule). Each reader follows the rule LLVM's assembler uses,
//! so the bytes agree with llvm-mc and not only the printed text.

use crate::decode::Instruction;
use crate::llvm_syntax;
use crate::tables::{IsaSpec, OperandTypeInfo};

/// `swizzle(...)`, the lane pattern of `ds_swizzle_b32`'s offset, as a 16-bit offset.
///
/// Bitmask patterns: lane id `((id & and) | or) ^ xor` over 5 bits, with `and` in bits 4:0,
/// `or` in 9:5 and `xor` in 14:10. A pattern character sets, per bit, `0`: nothing, `1`: or,
/// `p`: and, `i`: and + xor — the one choice among the values that print alike.
pub(super) fn swizzle_offset(text: &str) -> Option<u64> {
    let inner = text.strip_prefix("swizzle(")?.strip_suffix(')')?;
    let mut args = inner.split(',').map(str::trim);
    let kind = args.next()?.to_ascii_uppercase();
    let nums: Vec<u64> = args
        .clone()
        .map(|a| super::parse_int(a).and_then(|v| u64::try_from(v).ok()))
        .collect::<Option<_>>()
        .unwrap_or_default();
    let bitmask =
        |and: u64, or: u64, xor: u64| (and & 0x1f) | (or & 0x1f) << 5 | (xor & 0x1f) << 10;
    match (kind.as_str(), nums.as_slice()) {
        ("QUAD_PERM", [a, b, c, d]) if [a, b, c, d].iter().all(|&&l| l < 4) => {
            Some(0x8000 | a | b << 2 | c << 4 | d << 6)
        }
        ("SWAP", [n]) if *n > 0 && *n < 32 && n.is_power_of_two() => Some(bitmask(0x1f, 0, *n)),
        ("REVERSE", [n]) if *n > 1 && *n <= 32 && n.is_power_of_two() => {
            Some(bitmask(0x1f, 0, n - 1))
        }
        ("BROADCAST", [group, lane])
            if *group > 1 && *group <= 32 && group.is_power_of_two() && lane < group =>
        {
            Some(bitmask(0x20 - group, *lane, 0))
        }
        ("FFT", [n]) if *n < 32 => Some(0xe000 | n),
        ("ROTATE", [dir, n]) if *dir < 2 && *n < 32 => Some(0xc000 | dir << 10 | n << 5),
        ("BITMASK_PERM", _) => {
            let pattern = args.next()?.strip_prefix('"')?.strip_suffix('"')?;
            if pattern.len() != 5 {
                return None;
            }
            let (mut and, mut or, mut xor) = (0, 0, 0);
            for (k, c) in pattern.chars().enumerate() {
                let bit = 1 << (4 - k);
                match c.to_ascii_lowercase() {
                    '0' => {}
                    '1' => or |= bit,
                    'p' => and |= bit,
                    'i' => {
                        and |= bit;
                        xor |= bit;
                    }
                    _ => return None,
                }
            }
            Some(bitmask(and, or, xor))
        }
        _ => None,
    }
}

/// The line with each `swizzle(...)` replaced by the offset LLVM's assembler makes of it.
///
/// LLVM's printer and assembler do not round-trip swizzles: an offset whose bitmask is a
/// broadcast may be printed as `BITMASK_PERM` when a redundant AND bit is set, and that text
/// assembles to the broadcast's offset, which prints as `BROADCAST`. Comparing offsets, not
/// spellings, lets the assembler accept the encoding LLVM's assembler produces.
pub(super) fn swizzle_as_number(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find("swizzle(") {
        let Some(len) = rest[start..].find(')') else {
            break;
        };
        let macro_text = &rest[start..start + len + 1];
        out.push_str(&rest[..start]);
        match swizzle_offset(macro_text) {
            // Offset 0 is printed as no `offset:` at all.
            Some(0) if out.ends_with(" offset:") => out.truncate(out.len() - " offset:".len()),
            Some(v) => out.push_str(&v.to_string()),
            None => out.push_str(macro_text),
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
}

/// The line with `lit64(V)` written as `V` where V is above 0x7fffffff: LLVM's assembler
/// reads such a plain `V` on a 64-bit integer operand as a 64-bit literal (which its printer
/// writes as `lit64(V)`), so both spellings name the same bits. Smaller values keep the
/// wrapper: plain, they are inline constants or 32-bit literals.
pub(super) fn wide_lit64_as_number(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find("lit64(") {
        let Some(len) = rest[start..].find(')') else {
            break;
        };
        let inner = &rest[start + "lit64(".len()..start + len];
        out.push_str(&rest[..start]);
        match super::parse_int(inner) {
            Some(v) if v as u64 > 0x7fff_ffff => out.push_str(inner),
            _ => out.push_str(&rest[start..start + len + 1]),
        }
        rest = &rest[start + len + 1..];
    }
    out.push_str(rest);
    out
}

/// The line with hex operands that are inline integer constants (`0x12`, up to 64) written
/// in decimal: LLVM's assembler reads such a number as the inline constant, which its printer
/// writes in decimal. (A 16-bit operand's literal prints as its low half in hex: `0x12` for
/// the literal 0xabcd0012, which LLVM assembles back as the inline 18.) Only whole tokens:
/// `lit(0x12)` and `offset:0x12` keep their text.
pub(super) fn inline_hex_as_decimal(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut token = String::new();
    let flush = |token: &mut String, out: &mut String| {
        let value = token
            .strip_prefix("0x")
            .filter(|h| !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit()))
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .filter(|&v| v <= 64);
        match value {
            Some(v) => out.push_str(&v.to_string()),
            None => out.push_str(token),
        }
        token.clear();
    };
    for c in line.chars() {
        if c == ' ' || c == ',' {
            flush(&mut token, &mut out);
            out.push(c);
        } else {
            token.push(c);
        }
    }
    flush(&mut token, &mut out);
    out
}

/// An operand written in one of LLVM's structured notations, read by that notation's rule:
/// `hwreg(...)`, `sendmsg(...)` or a `|` expression (see [`flag_expression`]).
pub(super) fn structured_operand(
    generation: &str,
    ty: &OperandTypeInfo,
    text: &str,
) -> Option<u64> {
    if let Some(args) = call_args(text, "hwreg") {
        return hwreg(generation, ty, &args);
    }
    if let Some(args) = call_args(text, "sendmsg") {
        return sendmsg(generation, &args);
    }
    flag_expression(generation, ty, text)
}

/// The comma-separated arguments of `name(...)`, trimmed.
fn call_args<'a>(text: &'a str, name: &str) -> Option<Vec<&'a str>> {
    let inner = text
        .get(..name.len() + 1)
        .filter(|head| head.eq_ignore_ascii_case(&format!("{name}(")))
        .and_then(|_| text[name.len() + 1..].strip_suffix(')'))?;
    Some(inner.split(',').map(str::trim).collect())
}

/// The value of `name` in one of LLVM's name tables on `generation`, or a plain number.
fn value_named(table: &[llvm_syntax::NamedValue], generation: &str, name: &str) -> Option<u64> {
    if let Some(v) = super::parse_int(name) {
        return u64::try_from(v).ok();
    }
    table
        .iter()
        .find(|e| e.name.eq_ignore_ascii_case(name) && e.applies(generation))
        .map(|e| u64::from(e.value))
}

/// `hwreg(REG)` or `hwreg(REG, offset, size)` into the type's ID, OFFSET and SIZE sub-fields
/// (SIZE holds size - 1; the short form is the whole 32-bit register).
fn hwreg(generation: &str, ty: &OperandTypeInfo, args: &[&str]) -> Option<u64> {
    let field = |name: &str| ty.fields.iter().find(|f| f.name == name);
    let (id, offset, size) = (field("ID")?, field("OFFSET")?, field("SIZE")?);
    let reg = value_named(llvm_syntax::HWREG, generation, args.first()?)?;
    let (off, width) = match args {
        [_] => (0, 32),
        [_, o, w] => (
            u64::try_from(super::parse_int(o)?).ok()?,
            u64::try_from(super::parse_int(w)?).ok()?,
        ),
        _ => return None,
    };
    if width == 0 {
        return None;
    }
    let bits = id.insert(0, reg);
    let bits = offset.insert(bits, off);
    Some(size.insert(bits, width - 1) as u64)
}

/// `sendmsg(MSG[, OP[, stream]])` as the 16-bit immediate: id in bits 3:0, operation in 6:4
/// and stream in 9:8 before GFX11; from GFX11 on the id is the whole low byte.
fn sendmsg(generation: &str, args: &[&str]) -> Option<u64> {
    let msg = value_named(llvm_syntax::SENDMSG, generation, args.first()?)?;
    if !llvm_syntax::GFX9_10.contains(&generation) {
        return match args {
            [_] => Some(msg),
            [_, op, stream]
                if super::parse_int(op) == Some(0) && super::parse_int(stream) == Some(0) =>
            {
                Some(msg)
            }
            _ => None,
        };
    }
    let op_table = match args.first()?.to_ascii_uppercase().as_str() {
        "MSG_SYSMSG" => llvm_syntax::SENDMSG_SYSMSG_OP,
        _ => llvm_syntax::SENDMSG_GS_OP,
    };
    let op = match args.get(1) {
        Some(op) => value_named(op_table, generation, op)?,
        None => 0,
    };
    let stream = match args.get(2) {
        Some(s) => u64::try_from(super::parse_int(s)?).ok()?,
        None => 0,
    };
    (args.len() <= 3).then_some(msg | op << 4 | stream << 8)
}

/// A list of counters, `vmcnt(0) expcnt(7) lgkmcnt(3)` or `depctr_va_vdst(0)` (space or `&`
/// separated), over an operand type whose sub-fields are the counters (`VM`, `EXP`, `LGKM`,
/// `VA_VDST`, ...): a counter left out is at its maximum (no wait), as LLVM reads it. Every
/// token must name a counter.
pub(super) fn counter_list(ty: &OperandTypeInfo, tokens: &[&str]) -> Option<u64> {
    if ty.fields.is_empty() {
        return None;
    }
    let mut value = ty
        .fields
        .iter()
        .fold(0u128, |v, f| f.insert(v, (1u64 << f.width()) - 1));
    let mut named = 0;
    for item in tokens.iter().flat_map(|t| t.split('&')).map(str::trim) {
        if item.is_empty() {
            continue;
        }
        let (name, rest) = item.split_once('(')?;
        let n = u64::try_from(super::parse_int(rest.strip_suffix(')')?)?).ok()?;
        let upper = name.to_ascii_uppercase();
        let key = upper
            .strip_prefix("DEPCTR_")
            .or_else(|| upper.strip_suffix("CNT"))
            .unwrap_or(&upper);
        let field = ty.fields.iter().find(|f| f.name == key)?;
        if n >> field.width() != 0 {
            return None;
        }
        value = field.insert(value, n);
        named += 1;
    }
    (named > 0).then_some(value as u64)
}

/// A `|` expression over an operand type's values, as LLVM prints `s_version`'s operand
/// (`(UC_VERSION_GFX11|UC_VERSION_W64_BIT)|UC_VERSION_W32_BIT`): each term is a number, a
/// value the type names, a version name, or `<PREFIX>_<FIELD>_BIT` for a one-bit sub-field.
pub(super) fn flag_expression(generation: &str, ty: &OperandTypeInfo, text: &str) -> Option<u64> {
    if !text.contains('|') {
        return None;
    }
    let mut value = 0u64;
    for term in text.split('|') {
        let term = term.trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace());
        value |= flag_term(generation, ty, term)?;
    }
    Some(value)
}

fn flag_term(generation: &str, ty: &OperandTypeInfo, term: &str) -> Option<u64> {
    if let Some(v) = super::parse_int(term) {
        return u64::try_from(v).ok();
    }
    let upper = term.to_ascii_uppercase();
    if let Some(v) = ty.named_value(&upper) {
        return u64::try_from(v).ok();
    }
    if let Some(flag) = ty.fields.iter().find(|f| {
        f.width() == 1
            && upper
                .strip_suffix("_BIT")
                .is_some_and(|s| s.ends_with(&format!("_{}", f.name)))
    }) {
        return Some(flag.insert(0, 1) as u64);
    }
    let version = llvm_syntax::VERSION
        .iter()
        .find(|e| e.name == upper && e.applies(generation))?;
    let field = ty.fields.iter().find(|f| f.name == "VERSION")?;
    Some(field.insert(0, u64::from(version.value)) as u64)
}

/// GFX9 SMEM offsets (fields `IMM`, `SOFFSET_EN`, `OFFSET`, `SOFFSET`): the operand after the
/// base is a register, an immediate, or `register offset:imm`. A lone register prints alike
/// from `SOFFSET` (with `SOFFSET_EN`) and from `OFFSET`'s low bits (with neither bit); LLVM
/// writes the latter. Sets the fields and returns true when the line has this shape.
pub(super) fn gfx9_smem_offset(
    spec: &IsaSpec,
    ins: &mut Instruction,
    offset_token: &str,
    offset_modifier: Option<&str>,
) -> bool {
    let enc = ins.encoding();
    let field = |name: &str| enc.fields.iter().position(|f| f.name == name);
    let (Some(imm), Some(soe), Some(offset), Some(soffset)) = (
        field("IMM"),
        field("SOFFSET_EN"),
        field("OFFSET"),
        field("SOFFSET"),
    ) else {
        return false;
    };
    let Some(soffset_op) = ins
        .form_info()
        .operands
        .iter()
        .find(|o| o.field == Some(soffset as u8))
    else {
        return false;
    };
    let Some(ty) = soffset_op
        .operand_type
        .map(|t| &spec.operand_types[t as usize])
    else {
        return false;
    };
    let offset_mask = super::mask_of(enc.fields[offset].width());
    let register = super::operand_value(spec, offset_token, ty, soffset_op, 32)
        .ok()
        .filter(|(_, literal)| literal.is_none())
        .map(|(code, _)| code)
        .filter(|_| super::parse_int(offset_token).is_none());
    let extra = offset_modifier.and_then(super::parse_int);
    let fields: [(usize, u64); 4] = match (register, extra) {
        (Some(code), None) => [(imm, 0), (soe, 0), (offset, code), (soffset, 0)],
        (Some(code), Some(v)) => [
            (imm, 1),
            (soe, 1),
            (offset, v as u64 & offset_mask),
            (soffset, code),
        ],
        (None, None) => match super::parse_int(offset_token) {
            Some(v) => [
                (imm, 1),
                (soe, 0),
                (offset, v as u64 & offset_mask),
                (soffset, 0),
            ],
            None => return false,
        },
        (None, Some(_)) => return false,
    };
    for (k, v) in fields {
        ins.set_field(k, v);
    }
    true
}

/// MTBUF's DFMT/NFMT fields from a `format:[...]` modifier, or LLVM's default pair when the
/// line has none (the default is what LLVM leaves unwritten, not zero).
pub(super) fn buffer_format(ins: &mut Instruction, modifiers: &[super::Token]) {
    let enc = ins.encoding();
    let field = |n: &str| enc.fields.iter().position(|f| f.name == n);
    let (Some(dfmt_field), Some(nfmt_field)) = (field("DFMT"), field("NFMT")) else {
        return;
    };
    let (dfmt, nfmt) = modifiers
        .iter()
        .find_map(|m| crate::disasm::buffer_format_value(m.text))
        .or_else(|| crate::disasm::buffer_format_value("format:[]"))
        .unwrap_or_default();
    ins.set_field(dfmt_field, dfmt);
    ins.set_field(nfmt_field, nfmt);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_types::{HWREG, WAITCNT_GFX9 as WAITCNT};

    #[test]
    fn swizzle_macros_give_llvm_offsets() {
        assert_eq!(swizzle_offset("swizzle(QUAD_PERM,0,1,2,3)"), Some(0x80e4));
        assert_eq!(swizzle_offset("swizzle(SWAP,1)"), Some(0x041f));
        assert_eq!(swizzle_offset("swizzle(REVERSE,8)"), Some(0x1c1f));
        assert_eq!(swizzle_offset("swizzle(BROADCAST,32,31)"), Some(0x03e0));
        assert_eq!(swizzle_offset("swizzle(FFT,31)"), Some(0xe01f));
        assert_eq!(swizzle_offset("swizzle(ROTATE,1,31)"), Some(0xc7e0));
        // "p0111": bit 4 kept, bit 3 cleared, bits 2..0 set through OR (AND left clear).
        assert_eq!(
            swizzle_offset("swizzle(BITMASK_PERM,\"p0111\")"),
            Some(0x10 | 0x7 << 5)
        );
        assert_eq!(
            swizzle_offset("swizzle(BITMASK_PERM,\"iiiii\")"),
            Some(0x1f | 0x1f << 10)
        );
        assert_eq!(swizzle_offset("swizzle(BITMASK_PERM,\"p01x1\")"), None);
        assert_eq!(swizzle_offset("swizzle(QUAD_PERM,0,1,2,4)"), None);
        assert_eq!(swizzle_offset("swizzle(SWAP,3)"), None);
        assert_eq!(swizzle_offset("16"), None);
    }

    #[test]
    fn swizzles_compare_by_offset() {
        // A broadcast, and the same lanes written as a bit pattern.
        assert_eq!(
            swizzle_as_number("ds_swizzle_b32 v8, v45 offset:swizzle(BROADCAST,32,12)"),
            "ds_swizzle_b32 v8, v45 offset:384"
        );
        assert_eq!(
            swizzle_as_number("ds_swizzle_b32 v8, v45 offset:swizzle(BITMASK_PERM,\"01100\") gds"),
            "ds_swizzle_b32 v8, v45 offset:384 gds"
        );
        assert_eq!(
            swizzle_as_number("offset:swizzle(SWAP,3)"),
            "offset:swizzle(SWAP,3)"
        );
    }

    #[test]
    fn inline_hex_operands_read_as_decimal() {
        assert_eq!(
            inline_hex_as_decimal("v_subrev_u16_e32 v50, 0x12, v93"),
            "v_subrev_u16_e32 v50, 18, v93"
        );
        assert_eq!(
            inline_hex_as_decimal("v_add_u16_e32 v1, 0x41, lit(0x12) offset:0x12"),
            "v_add_u16_e32 v1, 0x41, lit(0x12) offset:0x12"
        );
    }

    #[test]
    fn only_wide_lit64_values_lose_their_wrapper() {
        assert_eq!(
            wide_lit64_as_number("s_mov_b64 s[0:1], lit64(0xc7ef2af3)"),
            "s_mov_b64 s[0:1], 0xc7ef2af3"
        );
        assert_eq!(
            wide_lit64_as_number("s_mov_b64 s[0:1], lit64(0x5)"),
            "s_mov_b64 s[0:1], lit64(0x5)"
        );
    }

    #[test]
    fn a_swizzle_keeping_every_lane_is_no_offset() {
        assert_eq!(
            swizzle_as_number("ds_swizzle_b32 v1, v2 offset:swizzle(BITMASK_PERM,\"00000\")"),
            "ds_swizzle_b32 v1, v2"
        );
    }

    #[test]
    fn counter_lists_leave_unnamed_counters_at_their_maximum() {
        assert_eq!(counter_list(&WAITCNT, &["vmcnt(0)"]), Some(0x0f70));
        assert_eq!(
            counter_list(&WAITCNT, &["vmcnt(63)", "expcnt(7)", "lgkmcnt(15)"]),
            Some(0xcf7f)
        );
        assert_eq!(
            counter_list(&WAITCNT, &["lgkmcnt(3) & expcnt(1)"]),
            Some(0xc31f)
        );
        // Out of range, an unknown counter, not a counter.
        assert_eq!(counter_list(&WAITCNT, &["expcnt(8)"]), None);
        assert_eq!(counter_list(&WAITCNT, &["vscnt(1)"]), None);
        assert_eq!(counter_list(&WAITCNT, &["0x3f70"]), None);
    }

    #[test]
    fn hwreg_fills_id_offset_and_size_minus_one() {
        // HW_REG_MODE is 1 on GFX9 to GFX11.
        assert_eq!(hwreg("rdna3", &HWREG, &["HW_REG_MODE"]), Some(1 | 31 << 11));
        assert_eq!(
            hwreg("rdna3", &HWREG, &["hw_reg_mode", "4", "2"]),
            Some(1 | 4 << 6 | 1 << 11)
        );
        assert_eq!(
            hwreg("rdna3", &HWREG, &["5", "0", "32"]),
            Some(5 | 31 << 11)
        );
        assert_eq!(hwreg("rdna3", &HWREG, &["HW_REG_MODE", "4", "0"]), None);
        assert_eq!(hwreg("rdna3", &HWREG, &["NOT_A_REGISTER"]), None);
    }

    #[test]
    fn sendmsg_reads_names_and_numbers_per_generation() {
        assert_eq!(
            sendmsg("cdna2", &["MSG_GS", "GS_OP_EMIT_CUT", "0"]),
            Some(2 | 3 << 4)
        );
        assert_eq!(
            sendmsg("cdna2", &["MSG_GS", "GS_OP_EMIT", "2"]),
            Some(2 | 2 << 4 | 2 << 8)
        );
        assert_eq!(
            sendmsg("cdna2", &["MSG_SYSMSG", "SYSMSG_OP_REG_RD"]),
            Some(15 | 2 << 4)
        );
        assert_eq!(sendmsg("rdna4", &["MSG_RTN_GET_TBA"]), Some(0x85));
        assert_eq!(sendmsg("rdna4", &["12", "0", "0"]), Some(12));
        // A GFX9 message name is not a GFX12 one.
        assert_eq!(sendmsg("rdna4", &["MSG_GS"]), None);
    }
}
