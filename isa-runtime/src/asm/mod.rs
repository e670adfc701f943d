//! An assembler for LLVM's AMDGPU syntax, the inverse of [`crate::disasm`].
//!
//! For a line, every form of the named instruction is tried (shortest encoding first):
//! 1. the operands are read through the form's operand types (registers, named values, inline
//!    constants, literals) and placed positionally, and modifiers (`offset:16`, `gds`, ...) set
//!    the encoding field of the same name;
//! 2. if the result does not print back as the line, a search adjusts the fields: each field
//!    in turn takes the candidate value that brings the printed text closest to the line
//!    (values read from the line's tokens through the field's operand type, the numbers in the
//!    line, every value of a small field or of an operand type's sub-fields), until the text
//!    matches or nothing improves;
//! 3. the form is accepted only when disassembling the result gives back the line's text.
//!
//! The disassembler is the single description of the syntax: what it prints, the assembler
//! reads, and the two can never disagree on an accepted line.

pub mod dual;
mod program;
mod syntax;

pub use program::{assemble, assemble_listing, AssembledLine};

use crate::decode::Instruction;
use crate::disasm::disassemble;
use crate::tables::{IsaSpec, OperandInfo, OperandTypeInfo};
use std::fmt;

/// Why a line could not be assembled, with the 1-based column where the problem starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub line: usize,
    pub column: usize,
    /// What went wrong, for a caller to act on; [`AsmError::message`] says it for a person.
    pub kind: AsmErrorKind,
    pub message: String,
}

/// The kinds of [`AsmError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AsmErrorKind {
    /// The text is not in the syntax at all: a non-ASCII character, a missing half of a
    /// dual-issue line, a `.long` item that is not a 32-bit word.
    Syntax,
    /// A directive other than `.long`.
    UnknownDirective,
    /// No instruction of the generation has this mnemonic (or, in a dual-issue line, no half
    /// of a dual-issue word does).
    UnknownMnemonic,
    /// The operand (or modifier) at `index` (0-based, operands first, then modifiers, in the
    /// line or in its dual-issue half) cannot be encoded where it stands.
    BadOperand { index: usize },
    /// The instruction takes another number of operands.
    OperandCount,
    /// Every token fits somewhere, but no encoding of the instruction prints as the line.
    NoMatchingForm,
    /// A value does not fit its field: a branch label too far away, a register number too
    /// large for a dual-issue field.
    ValueOutOfRange,
    /// A rule across operands: the constant bus, one unique literal, VGPR banks, even and odd
    /// dual-issue destinations.
    OperandConstraint,
    /// A label defined a second time.
    DuplicateLabel,
}

impl fmt::Display for AsmError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for AsmError {}

/// A token of the operand list with its column.
#[derive(Clone, Debug)]
struct Token<'a> {
    text: &'a str,
    column: usize,
}

/// Splits `a, b, c mod1 mod2:3` into operands (comma separated) and trailing modifiers
/// (separated by spaces). Brackets and parentheses group (`s[0:1]`, `hwreg(HW_REG_MODE, 0, 1)`,
/// `dpp8:[0,1,...]`).
fn split_operands(text: &str, base_column: usize) -> (Vec<Token<'_>>, Vec<Token<'_>>) {
    // Tokens at depth 0, each with whether a comma came before it.
    let mut tokens: Vec<(Token<'_>, bool)> = Vec::new();
    let bytes = text.as_bytes();
    let (mut depth, mut start, mut comma_before) = (0i32, None::<usize>, true);
    for (i, &c) in bytes.iter().enumerate() {
        let separator = depth == 0 && (c == b',' || c == b' ' || c == b'\t');
        if separator {
            if let Some(s) = start.take() {
                tokens.push((
                    Token {
                        text: &text[s..i],
                        column: base_column + s,
                    },
                    comma_before,
                ));
                comma_before = false;
            }
            if c == b',' {
                comma_before = true;
            }
            continue;
        }
        match c {
            b'[' | b'(' => depth += 1,
            b']' | b')' => depth -= 1,
            _ => {}
        }
        start.get_or_insert(i);
    }
    if let Some(s) = start {
        tokens.push((
            Token {
                text: &text[s..],
                column: base_column + s,
            },
            comma_before,
        ));
    }
    let split = tokens
        .iter()
        .position(|(_, comma)| !comma)
        .unwrap_or(tokens.len());
    let modifiers = tokens.split_off(split).into_iter().map(|t| t.0).collect();
    (tokens.into_iter().map(|t| t.0).collect(), modifiers)
}

fn parse_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        // Hex is a bit pattern: up to 64 bits, whatever the sign bit.
        u64::from_str_radix(h, 16).ok()? as i64
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}

/// A register token: `s5`, `s[4:5]`, `v7`, `a3`, `ttmp[2:3]` → (AMD prefix, first, count).
fn parse_register(t: &str) -> Option<(&'static str, u32, u32)> {
    let (prefix, rest) = if let Some(r) = t.strip_prefix("ttmp") {
        ("TTMP", r)
    } else if let Some(r) = t.strip_prefix('s') {
        ("s", r)
    } else if let Some(r) = t.strip_prefix('v') {
        ("v", r)
    } else if let Some(r) = t.strip_prefix('a') {
        ("acc", r)
    } else {
        return None;
    };
    if let Some(inner) = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        let (a, b) = inner.split_once(':')?;
        let (a, b): (u32, u32) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
        if b < a {
            return None;
        }
        return Some((prefix, a, b - a + 1));
    }
    if rest.is_empty() || !rest.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((prefix, rest.parse().ok()?, 1))
}

/// What an operand token means for a field: its field value, and a literal if it needs one.
pub(crate) fn operand_value(
    spec: &IsaSpec,
    tok: &str,
    ty: &OperandTypeInfo,
    info: &OperandInfo,
    literal_bits: u32,
) -> Result<(u64, Option<u64>), String> {
    match operand_value_in(tok, ty, info, literal_bits) {
        Ok(v) => Ok(v),
        // The type's subtypes (AMD's `Subtypes`) may name what the type itself does not list,
        // and LLVM names some scalar register codes AMD's lists leave out (the disassembler
        // prints them through `scalar_code_text`).
        Err(e) => ty
            .subtypes
            .iter()
            .find_map(|&st| {
                operand_value_in(tok, &spec.operand_types[st as usize], info, literal_bits).ok()
            })
            .or_else(|| {
                let scalar = ty.runs.iter().any(|r| r.prefix == "s");
                (0..=255u64)
                    .filter(|_| scalar)
                    .find(|&code| {
                        let size = crate::disasm::scalar_operand_size(spec, info);
                        crate::disasm::scalar_code_text(spec.generation, code, size)
                            .is_some_and(|t| t.eq_ignore_ascii_case(tok))
                    })
                    .map(|code| (code, None))
            })
            .ok_or(e),
    }
}

fn operand_value_in(
    tok: &str,
    ty: &OperandTypeInfo,
    info: &OperandInfo,
    literal_bits: u32,
) -> Result<(u64, Option<u64>), String> {
    let lit_mask = if literal_bits >= 64 {
        u64::MAX
    } else {
        (1u64 << literal_bits) - 1
    };
    let regs = (info.size as u32).div_ceil(32).max(1);
    if let Some((prefix, first, count)) = parse_register(tok) {
        if count != regs && !(count == 1 && regs == 1) {
            return Err(format!(
                "expected {regs} register(s) for a {}-bit operand",
                info.size
            ));
        }
        return ty
            .register_value(prefix, first)
            .map(|v| (crate::operand::agpr_field_value(ty, v as u64), None))
            .ok_or_else(|| format!("register {tok} is not allowed here ({})", ty.name));
    }
    let upper = tok.to_ascii_uppercase();
    // `off`: no register (the NULL register, or all ones where there is none).
    if upper == "OFF" {
        if let Some(v) = ty.named_value("NULL") {
            return Ok((v as u64, None));
        }
    }
    for candidate in [upper.clone(), format!("{upper}_LO")] {
        if let Some(v) = ty.named_value(&candidate) {
            return Ok((v as u64, None));
        }
    }
    let literal_code = ty
        .values
        .iter()
        .find(|v| {
            v.1 == if literal_bits > 32 {
                "SRC_LITERAL64"
            } else {
                "SRC_LITERAL"
            }
        })
        .or_else(|| ty.values.iter().find(|v| v.1 == "SRC_LITERAL"))
        .map(|v| v.0 as u64);
    if let Some(inner) = tok.strip_prefix("lit(").and_then(|r| r.strip_suffix(')')) {
        let v = parse_int(inner).ok_or_else(|| format!("`{inner}` is not a number"))?;
        let code = literal_code.ok_or("a literal is not allowed here")?;
        return Ok((code, Some(v as u64 & lit_mask)));
    }
    if let Some(v) = parse_int(tok) {
        // An inline constant when the type names this integer, else a literal.
        if let Some(code) = ty
            .values
            .iter()
            .find(|n| parse_int(n.1) == Some(v))
            .map(|n| n.0)
        {
            return Ok((code as u64, None));
        }
        if ty.runs.is_empty() && ty.values.is_empty() {
            return Ok((v as u64, None));
        }
        let code = literal_code.ok_or_else(|| {
            format!("{v} is not an inline constant here and this operand takes no literal")
        })?;
        return Ok((code, Some(v as u64 & lit_mask)));
    }
    Err(format!(
        "expected a register, an inline constant or a literal ({})",
        ty.name
    ))
}

/// A line in the form texts are compared in: single spaces, lower case, and notations that
/// LLVM reads to the same bits written alike (see [`syntax::swizzle_as_number`],
/// [`syntax::wide_lit64_as_number`] and [`syntax::inline_hex_as_decimal`]).
fn normalize(s: &str) -> String {
    let line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    let line = syntax::wide_lit64_as_number(&syntax::swizzle_as_number(&line));
    syntax::inline_hex_as_decimal(&line).to_ascii_lowercase()
}

/// Assembles one instruction (no label, no comment).
pub fn assemble_instruction(spec: &'static IsaSpec, text: &str) -> Result<Instruction, AsmError> {
    let err = |column: usize, kind: AsmErrorKind, message: String| AsmError {
        line: 1,
        column,
        kind,
        message,
    };
    // LLVM's syntax is ASCII; columns below are byte offsets, equal to characters from here.
    if let Some((at, c)) = text.char_indices().find(|(_, c)| !c.is_ascii()) {
        let column = text[..at].chars().count() + 1;
        return Err(err(
            column,
            AsmErrorKind::Syntax,
            format!("unexpected character `{c}`"),
        ));
    }
    let lead = text.len() - text.trim_start().len();
    let text_t = text.trim();
    let (mnemonic, rest) = match text_t.find(char::is_whitespace) {
        Some(i) => (&text_t[..i], &text_t[i..]),
        None => (text_t, ""),
    };
    let mnem_lower = mnemonic.to_ascii_lowercase();
    let base = ["_e64_dpp", "_e32", "_e64", "_dpp", "_sdwa"]
        .iter()
        .find_map(|s| mnem_lower.strip_suffix(s))
        .unwrap_or(&mnem_lower);
    let renamed = |m: &str| {
        crate::llvm_syntax::amd_name_of_llvm_mnemonic(spec.generation, m)
            .and_then(|n| spec.instruction_by_name(n))
    };
    let ins_index = spec
        .instruction_by_name(&mnem_lower)
        .or_else(|| spec.instruction_by_name(base))
        .or_else(|| renamed(&mnem_lower))
        .or_else(|| renamed(base))
        .ok_or_else(|| {
            err(
                lead + 1,
                AsmErrorKind::UnknownMnemonic,
                format!("unknown instruction `{mnemonic}` for {}", spec.generation),
            )
        })?;
    let rest_col = lead + mnemonic.len() + 1;
    let (operands, modifiers) = split_operands(rest, rest_col);
    // An alias (`s_add_u32` for `s_add_co_u32`) is read as the instruction's own mnemonic,
    // which is what the disassembler prints.
    let info = &spec.instructions[ins_index];
    let written = if mnem_lower == base {
        base
    } else {
        mnem_lower.as_str()
    };
    // The alias is replaced by the mnemonic the disassembler prints: LLVM's where it differs
    // from AMD's (`v_accvgpr_read_b32`, AMD's alias of V_ACCVGPR_READ, is LLVM's name).
    let printed_mnemonic =
        crate::llvm_syntax::llvm_mnemonic(spec.generation, info.name, info.mnemonic);
    let canonical_mnemonic =
        if printed_mnemonic != base && info.aliases.iter().any(|a| a.eq_ignore_ascii_case(base)) {
            mnem_lower.replacen(base, printed_mnemonic, 1)
        } else {
            written.to_string()
        };
    let target = normalize(&format!("{canonical_mnemonic}{rest}"));
    let target_tokens = tokens_of(&target);

    let mut forms: Vec<u16> = spec.instructions[ins_index].forms.to_vec();
    forms.sort_by_key(|&f| (spec.encoding_of(f).bits, spec.encoding_of(f).order));
    // The closest attempt, for the error message.
    let mut closest: Option<(i64, String)> = None;
    for form in forms {
        if literal64_is_llvms(spec, form, &operands) {
            continue;
        }
        let start = initial(spec, form, &operands, &modifiers);
        // The mnemonic (with its encoding suffix) depends on the form, not on field values:
        // a form that prints another mnemonic cannot be the one.
        let first = normalize(&disassemble(&start));
        if first.split(' ').next() != target.split(' ').next() {
            continue;
        }
        let ins = search(
            spec,
            form,
            start,
            &target,
            &target_tokens,
            &operands,
            &modifiers,
        );
        let printed = normalize(&disassemble(&ins));
        if printed == target {
            return Ok(canonicalize(spec, form, ins, &target));
        }
        let score = similarity(&tokens_of(&printed), &target_tokens);
        if closest.as_ref().is_none_or(|c| score > c.0) {
            closest = Some((score, printed));
        }
    }
    // Point at the first token that no attempt could print.
    let (_, printed) = closest.unwrap_or((0, String::new()));
    let printed_tokens = tokens_of(&printed);
    let all: Vec<&Token> = operands.iter().chain(&modifiers).collect();
    let bad = all
        .iter()
        .enumerate()
        .find(|(_, t)| !printed_tokens.contains(&normalize(t.text)));
    match bad {
        Some((index, t)) => Err(err(
            t.column,
            AsmErrorKind::BadOperand { index },
            format!("cannot encode `{}` here: expected what `{mnemonic}` accepts, for example `{printed}`", t.text),
        )),
        None => Err(err(rest_col, AsmErrorKind::NoMatchingForm, format!("no encoding of `{mnemonic}` prints as written (closest: `{printed}`)"))),
    }
}

/// Whether `form` puts a 64-bit integer operand's literal in a 32-bit field although LLVM
/// writes that value with the generation's 64-bit literal encoding: LLVM 22 (gfx1250) keeps
/// the 32-bit literal only for values in 0..=0x7fffffff (and for `lit(...)`), and both
/// encodings print alike, so the printed text cannot tell them apart.
fn literal64_is_llvms(spec: &'static IsaSpec, form: u16, operands: &[Token]) -> bool {
    let f = &spec.forms[form as usize];
    let enc = spec.encoding_of(form);
    let has_literal64 = spec.instructions[f.instruction as usize]
        .forms
        .iter()
        .any(|&g| {
            spec.encoding_of(g)
                .fields
                .iter()
                .any(|x| x.name == "LITERAL64")
        });
    if !has_literal64 {
        return false;
    }
    let explicit = f
        .operands
        .iter()
        .filter(|o| !o.implicit && o.field.is_some());
    operands.iter().zip(explicit).any(|(tok, info)| {
        let integer64 = info.size == 64
            && ["FMT_NUM_I64", "FMT_NUM_U64", "FMT_NUM_B64"].contains(&info.data_format);
        let in_literal = info
            .field
            .is_some_and(|k| enc.fields[k as usize].name == "LITERAL");
        let bare = bare_operand(tok.text).0;
        integer64
            && in_literal
            && (bare.starts_with("lit64(")
                || parse_int(bare).is_some_and(|v| v as u64 > 0x7fff_ffff))
    })
}

/// Tokens of a normalized line: mnemonic, operands and modifiers, split at commas and spaces
/// outside brackets.
fn tokens_of(s: &str) -> Vec<String> {
    let (m, rest) = s.split_once(' ').unwrap_or((s, ""));
    let (ops, mods) = split_operands(rest, 0);
    std::iter::once(m.to_string())
        .chain(ops.iter().chain(&mods).map(|t| t.text.to_string()))
        .collect()
}

/// How close a printed token list is to the target: the best order-keeping alignment of the
/// two (a weighted longest common subsequence). Equal tokens score most; the same operand with
/// other decorations (`|v1|` for `-v1`) less; other aligned tokens earn the share of their
/// characters that match, so that multi-part tokens (`dpp8:[0,5,...]`, `vmcnt(3)`) can be
/// approached one field at a time; unaligned tokens on either side cost.
fn similarity(printed: &[String], target: &[String]) -> i64 {
    const SKIP: i64 = -2000;
    let pair = |p: &String, t: &String| -> i64 {
        if p == t {
            4000
        } else if bare_operand(p) == bare_operand(t) {
            // Closer the more decorations agree, so they can be set one at a time.
            let features = |x: &str| {
                let negated = x.starts_with('-')
                    && !x[1..].starts_with(|c: char| c.is_ascii_digit())
                    || x.starts_with("neg(");
                [
                    negated,
                    x.contains('|') || x.contains("abs("),
                    x.contains("sext("),
                    x.ends_with(".h"),
                ]
            };
            let (fp, ft) = (features(p), features(t));
            1000 + 300 * fp.iter().zip(&ft).filter(|(a, b)| a == b).count() as i64
        } else {
            let same = p.bytes().zip(t.bytes()).filter(|(a, b)| a == b).count() as i64;
            same * 1000 / p.len().max(t.len()).max(1) as i64 - 2000
        }
    };
    let (n, m) = (printed.len(), target.len());
    let mut dp = vec![vec![0i64; m + 1]; n + 1];
    for i in 0..=n {
        for j in 0..=m {
            dp[i][j] = match (i, j) {
                (0, 0) => 0,
                (0, _) => dp[0][j - 1] + SKIP,
                (_, 0) => dp[i - 1][0] + SKIP,
                _ => (dp[i - 1][j] + SKIP)
                    .max(dp[i][j - 1] + SKIP)
                    .max(dp[i - 1][j - 1] + pair(&printed[i - 1], &target[j - 1])),
            };
        }
    }
    dp[n][m]
}

/// Strips operand decorations: `-x`, `|x|`, `-|x|`, `neg(x)`, `abs(x)`, `sext(x)`, `x.l`,
/// `x.h`. Returns the bare operand and whether it names a high half.
fn bare_operand(tok: &str) -> (&str, bool) {
    let mut t = tok.trim();
    loop {
        let before = t;
        // A minus before a digit is a negative number (`-2`), not a negation modifier.
        if !t
            .get(1.min(t.len())..)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        {
            t = t.strip_prefix('-').unwrap_or(t);
        }
        if let Some(inner) = t.strip_prefix('|').and_then(|x| x.strip_suffix('|')) {
            t = inner;
        }
        for f in ["neg(", "abs(", "sext("] {
            if let Some(inner) = t.strip_prefix(f).and_then(|x| x.strip_suffix(')')) {
                t = inner;
            }
        }
        if t == before {
            break;
        }
    }
    if let Some(b) = t.strip_suffix(".h") {
        return (b, true);
    }
    (t.strip_suffix(".l").unwrap_or(t), false)
}

/// Numbers written in a token (`offset:16`, `0x1f`, `lit(0x5)`, `vmcnt(3)`), in order.
fn numbers_in(tok: &str) -> Vec<i64> {
    let mut out = Vec::new();
    let bytes = tok.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let neg = bytes[i] == b'-' && i + 1 < bytes.len() && bytes[i + 1].is_ascii_digit();
        let start = if neg { i + 1 } else { i };
        let boundary = i == 0 || !bytes[i - 1].is_ascii_alphanumeric() || neg;
        if start < bytes.len() && bytes[start].is_ascii_digit() && boundary {
            let mut j = start;
            while j < bytes.len()
                && (bytes[j].is_ascii_hexdigit() || bytes[j] == b'x' || bytes[j] == b'X')
            {
                j += 1;
            }
            if let Some(v) = parse_int(&tok[start..j]) {
                out.push(if neg { -v } else { v });
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn mask_of(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The starting point: operands placed positionally through their operand types, modifiers
/// by field name. Whatever does not fit is left for the search.
fn initial(
    spec: &'static IsaSpec,
    form: u16,
    operands: &[Token],
    modifiers: &[Token],
) -> Instruction {
    let mut ins = Instruction::new(spec, form);
    let f = &spec.forms[form as usize];
    let enc = spec.encoding_of(form);
    for &(field, value) in f.hints {
        ins.set_field(field as usize, value as u64);
    }
    for (k, field) in enc.fields.iter().enumerate() {
        if let Some(v) = crate::canonical::required_field_value(spec, f, field.name) {
            ins.set_field(k, v);
        }
    }
    let literal_field = enc
        .fields
        .iter()
        .position(|x| x.name.starts_with("LITERAL"));
    let literal_bits = literal_field.map_or(32, |k| enc.fields[k].width());
    let mut explicit: Vec<&OperandInfo> = f
        .operands
        .iter()
        .filter(|o| !o.implicit && o.field.is_some())
        .collect();
    // Fewer operands than the form lists: LLVM leaves out a leading destination that a mode
    // bit disables (a no-return atomic prints no VDST), so the tokens fill the rest in order.
    let missing = explicit.len().saturating_sub(operands.len());
    let leading_outputs = explicit.iter().take_while(|o| o.output && !o.input).count();
    if missing > 0 && missing <= leading_outputs {
        explicit.drain(..missing);
    }
    // A VOPC's VCC destination has no field; LLVM prints it first (`vcc_lo`), so its token
    // belongs to no field.
    let fieldless_vcc = f
        .operands
        .iter()
        .find(|o| !o.implicit)
        .is_some_and(|o| o.field.is_none() && o.output)
        && operands
            .first()
            .is_some_and(|t| matches!(t.text.to_ascii_lowercase().as_str(), "vcc" | "vcc_lo"));
    let skipped = usize::from(fieldless_vcc);
    let operands = &operands[skipped..];
    for (tok, info) in operands.iter().zip(&explicit) {
        let field = info.field.unwrap_or_default() as usize;
        let (bare, _) = bare_operand(tok.text);
        if enc.fields[field].name.starts_with("LITERAL") {
            if let Some(v) = numbers_in(bare).first() {
                ins.set_field(field, *v as u64 & mask_of(literal_bits));
            }
            continue;
        }
        let Some(ty) = info.operand_type.map(|t| &spec.operand_types[t as usize]) else {
            if let Some(v) = parse_int(bare) {
                ins.set_field(field, v as u64 & mask_of(enc.fields[field].width()));
            }
            continue;
        };
        // `off` where the type names no NULL register (GFX9 scalar bases): the field's all-ones
        // value, which the printer reads as no register. (A VGPR `off`, MUBUF's unused
        // address, goes back to zero in `canonicalize`.)
        if bare.eq_ignore_ascii_case("off") && ty.named_value("NULL").is_none() {
            ins.set_field(field, mask_of(enc.fields[field].width()));
            continue;
        }
        if let Some(value) = syntax::structured_operand(spec.generation, ty, bare) {
            ins.set_field(field, value);
            continue;
        }
        // Counter lists (`vmcnt(0) lgkmcnt(3)`) run on into the space-separated tokens.
        let list: Vec<&str> = std::iter::once(tok.text)
            .chain(modifiers.iter().map(|m| m.text))
            .collect();
        if let Some(value) = syntax::counter_list(ty, &list) {
            ins.set_field(field, value);
            continue;
        }
        if let Ok((value, literal)) = operand_value(spec, bare, ty, info, literal_bits) {
            let value = select_agpr_file(&mut ins, field, value);
            let value = select_sdwa_source(&mut ins, field, value);
            ins.set_field(field, value);
            if let (Some(l), Some(lf)) = (literal, literal_field) {
                ins.set_field(lf, l);
            }
        }
    }
    // Tokens past the form's operands are modifiers too (`ds_gws_sema_p offset:16 gds` has no
    // operand, so its first token is a modifier).
    syntax::buffer_format(&mut ins, modifiers);
    for m in operands.iter().skip(explicit.len()).chain(modifiers) {
        let (name, value) = match m.text.split_once(':') {
            Some((n, v)) => (
                n,
                parse_int(v)
                    .or_else(|| syntax::swizzle_offset(v).map(|o| o as i64))
                    .unwrap_or(0),
            ),
            None => (m.text, 1),
        };
        let field_named = |n: &str| {
            enc.fields
                .iter()
                .position(|x| x.name.eq_ignore_ascii_case(n))
        };
        if let Some(field) = field_named(name) {
            ins.set_field(field, value as u64);
        } else if let (Some(lo), Some(hi)) = (
            field_named(&format!("{name}0")),
            field_named(&format!("{name}1")),
        ) {
            let w = enc.fields[lo].width();
            ins.set_field(lo, value as u64 & mask_of(w));
            ins.set_field(hi, (value as u64) >> w);
        }
    }
    // GFX9 SMEM offsets: several field settings print alike; LLVM's rule picks one.
    let soffset_token = explicit
        .iter()
        .position(|o| {
            o.field
                .is_some_and(|k| enc.fields[k as usize].name == "SOFFSET")
        })
        .and_then(|i| operands.get(i));
    if let Some(tok) = soffset_token {
        let offset_modifier = modifiers
            .iter()
            .find_map(|m| m.text.strip_prefix("offset:"));
        syntax::gfx9_smem_offset(spec, &mut ins, tok.text, offset_modifier);
    }
    ins
}

/// MFMA (CDNA): an AGPR where the type takes VGPRs or AGPRs is numbered past the field's
/// range (512 + n in the 8-bit VDST, 768 + n in a 9-bit source); the field keeps the low bits
/// and a selector bit says AGPR — ACC bit 0 or 1 for SRC0 or SRC1, ACC_CD for VDST and SRC2
/// (what the disassembler reads). Returns the field's value; other values pass unchanged.
fn select_agpr_file(ins: &mut Instruction, field: usize, value: u64) -> u64 {
    let enc = ins.encoding();
    let f = &enc.fields[field];
    if f.can_hold(value) {
        return value;
    }
    let (selector, bit) = match f.name {
        "SRC0" => ("ACC", 0),
        "SRC1" => ("ACC", 1),
        "VDST" | "SRC2" => ("ACC_CD", 0),
        _ => return value,
    };
    let Some(k) = enc.fields.iter().position(|x| x.name == selector) else {
        return value;
    };
    let low = value & mask_of(f.width());
    let sel = enc.fields[k].extract(ins.bits) | 1 << bit;
    if !f.can_hold(low) || !ins.set_field(k, sel) {
        return value;
    }
    low
}

/// SDWA: a source field holds a VGPR number, or a scalar code when the source's S bit (`S0`,
/// `S1`) is set (what the disassembler reads). A VGPR's code (256 + n) becomes n with the bit
/// clear, any other code keeps its value with the bit set. Returns the field's value; fields
/// without an S bit pass unchanged.
fn select_sdwa_source(ins: &mut Instruction, field: usize, value: u64) -> u64 {
    let enc = ins.encoding();
    let f = &enc.fields[field];
    let Some(index) = f
        .name
        .strip_prefix("VSRC")
        .or_else(|| f.name.strip_prefix("SRC"))
        .filter(|d| d.len() == 1 && d.as_bytes()[0].is_ascii_digit())
    else {
        return value;
    };
    let selector = format!("S{index}");
    let Some(k) = enc.fields.iter().position(|x| x.name == selector) else {
        return value;
    };
    let (low, scalar) = match value.checked_sub(256) {
        Some(n) => (n, 0),
        None => (value, 1),
    };
    if !f.can_hold(low) || !ins.set_field(k, scalar) {
        return value;
    }
    low
}

/// Among the encodings that print as `target`, prefers the one LLVM writes: fields the text
/// does not show are zero (or their required value) — each field that can go back to zero
/// without changing the text does. Larger fields first, so that a mode bit is not cleared
/// while the field it qualifies still holds a value.
fn canonicalize(
    spec: &'static IsaSpec,
    form: u16,
    mut ins: Instruction,
    target: &str,
) -> Instruction {
    let enc = spec.encoding_of(form);
    let f = &spec.forms[form as usize];
    let mut order: Vec<usize> = (0..enc.fields.len()).collect();
    order.sort_by_key(|&k| std::cmp::Reverse(enc.fields[k].width()));
    for k in order {
        let field = &enc.fields[k];
        let m = field.mask();
        if enc.op_field == Some(k as u8)
            || (m & enc.mask == m && m != 0)
            || f.hints.iter().any(|h| h.0 as usize == k)
        {
            continue;
        }
        let want = crate::canonical::required_field_value(spec, f, field.name).unwrap_or(0);
        if field.extract(ins.bits) == want {
            continue;
        }
        let mut trial = ins;
        if trial.set_field(k, want) && normalize(&disassemble(&trial)) == target {
            ins = trial;
            continue;
        }
        // Else, for a modifier field, the smallest value that prints alike: clear what bits
        // the text does not need. (Operand fields keep their code: two codes may print alike,
        // such as SRC_LITERAL and SRC_LITERAL64 with the same value, and only the first
        // reading of the token is LLVM's.)
        if f.operands.iter().any(|o| o.field == Some(k as u8)) {
            continue;
        }
        for bit in (0..field.width().min(64)).rev() {
            let v = field.extract(ins.bits);
            if v >> bit & 1 == 0 {
                continue;
            }
            let mut trial = ins;
            if trial.set_field(k, v & !(1 << bit)) && normalize(&disassemble(&trial)) == target {
                ins = trial;
            }
        }
    }
    // LLVM's defaults for what the text cannot show (op_sel_hi of absent sources, a select
    // the instruction has no syntax for).
    for (k, field) in enc.fields.iter().enumerate() {
        let v = match (
            crate::canonical::absent_source_op_sel_hi(spec, f, field.name),
            crate::canonical::unprinted_field_value(spec, f, field.name),
        ) {
            (Some(bits), _) => field.extract(ins.bits) | bits,
            (None, Some(v)) => v,
            (None, None) => continue,
        };
        let mut trial = ins;
        if trial.set_field(k, v) && normalize(&disassemble(&trial)) == target {
            ins = trial;
        }
    }
    ins
}

/// Coordinate search over the encoding's free fields (see the module comment).
fn search(
    spec: &'static IsaSpec,
    form: u16,
    mut ins: Instruction,
    target: &str,
    target_tokens: &[String],
    operands: &[Token],
    modifiers: &[Token],
) -> Instruction {
    let enc = spec.encoding_of(form);
    let f = &spec.forms[form as usize];
    let score_of = |ins: &Instruction| -> (bool, i64) {
        let printed = normalize(&disassemble(ins));
        (
            printed == target,
            similarity(&tokens_of(&printed), target_tokens),
        )
    };
    let (done, mut best) = score_of(&ins);
    if done {
        return ins;
    }
    let literal_field = enc
        .fields
        .iter()
        .position(|x| x.name.starts_with("LITERAL"));
    let literal_bits = literal_field.map_or(32, |k| enc.fields[k].width());
    let numbers: Vec<i64> = operands
        .iter()
        .chain(modifiers)
        .flat_map(|t| numbers_in(t.text))
        .collect();
    let hinted: Vec<usize> = f.hints.iter().map(|h| h.0 as usize).collect();
    let float_token = operands.iter().any(|t| {
        let bare = bare_operand(t.text).0;
        parse_int(bare).is_none() && bare.parse::<f64>().is_ok()
    });
    let required = |name: &str| crate::canonical::required_field_value(spec, f, name).is_some();

    // Candidate values per field (a sub-field of an operand type is its own variable, set on
    // top of the field's current value).
    let mut candidates: Vec<(usize, Option<&crate::tables::FieldInfo>, Vec<u64>)> = Vec::new();
    for (k, field) in enc.fields.iter().enumerate() {
        let m = field.mask();
        if enc.op_field == Some(k as u8)
            || (m & enc.mask == m && m != 0)
            || hinted.contains(&k)
            || required(field.name)
        {
            continue;
        }
        let w = field.width();
        let mut vals: Vec<u64> = Vec::new();
        let operand = f.operands.iter().find(|o| o.field == Some(k as u8));
        let typed =
            operand.and_then(|o| o.operand_type.map(|t| (o, &spec.operand_types[t as usize])));
        if field.name.starts_with("LITERAL") {
            for &n in &numbers {
                vals.push(n as u64 & mask_of(w));
                vals.push((n as u64) >> 32);
            }
        } else if let Some((info, ty)) = typed {
            for tok in operands.iter().chain(modifiers) {
                let (bare, high) = bare_operand(tok.text);
                // The register count is left to the printed check: an address is one VGPR
                // or a pair depending on other fields (SADDR), which the type cannot say.
                let first = parse_register(bare).map(|(p, first, _)| match p {
                    "TTMP" => format!("ttmp{first}"),
                    "acc" => format!("a{first}"),
                    p => format!("{p}{first}"),
                });
                // An accumulation register may be a VGPR number with the ACC bit set.
                let as_vgpr = bare
                    .strip_prefix('a')
                    .map(|r| format!("v{r}"))
                    .unwrap_or_default();
                let single_info = OperandInfo { size: 32, ..*info };
                for (t, i) in [
                    (bare.to_string(), info),
                    (first.unwrap_or_default(), &single_info),
                    (as_vgpr, info),
                ] {
                    if let Ok((v, _)) = operand_value(spec, &t, ty, i, literal_bits) {
                        vals.push(v);
                        // A narrower field than the type's codes (SDWA's 8-bit VGPR number
                        // with a separate scalar bit).
                        vals.push(v & mask_of(w));
                        if high {
                            vals.push(v | 0x80);
                        }
                    }
                }
            }
            vals.extend(numbers.iter().map(|&n| n as u64 & mask_of(w)));
            // A floating-point token may be an inline constant that prints in LLVM's spelling
            // (0.15915494309189532), not AMD's name: every value the type names is tried by
            // printing. Integer tokens are not: LLVM reads them as integers (an inline integer
            // or a literal), even where an inline float prints alike (`0x4000` for 2.0 in f16).
            if float_token {
                for t in std::iter::once(ty).chain(
                    ty.subtypes
                        .iter()
                        .map(|&st| &spec.operand_types[st as usize]),
                ) {
                    vals.extend(t.values.iter().filter(|v| v.0 >= 0).map(|v| v.0 as u64));
                }
            }
            // Neutral values a field may need before the others make sense (SOFFSET = NULL
            // before an immediate offset prints).
            vals.extend(ty.named_value("NULL").map(|v| v as u64));
            vals.push(0);
            // Operand types made of sub-fields (waitcnt, hwreg, ...): every value of each
            // small sub-field.
            for sub in ty.fields {
                let sw = sub.width();
                let sub_vals: Vec<u64> = if sw <= 6 {
                    (0..1u64 << sw).collect()
                } else {
                    numbers.iter().map(|&n| n as u64 & mask_of(sw)).collect()
                };
                candidates.push((k, Some(sub), sub_vals));
            }
        } else if w <= 9 {
            vals.extend(0..1u64 << w);
        } else {
            for &n in &numbers {
                vals.push(n as u64 & mask_of(w));
                // Values split over two byte fields (DS offset0/offset1).
                vals.push(n as u64 & 0xff);
                vals.push((n as u64 >> 8) & 0xff);
            }
            // A bracketed list packed into equal slices, first element lowest (`dpp8:[...]`).
            for tok in modifiers.iter().chain(operands) {
                if let Some(list) = tok
                    .text
                    .split_once('[')
                    .and_then(|(_, r)| r.strip_suffix(']'))
                {
                    let items: Vec<u64> = list
                        .split(',')
                        .filter_map(|x| parse_int(x.trim()))
                        .map(|x| x as u64)
                        .collect();
                    if !items.is_empty() && (w as usize).is_multiple_of(items.len()) {
                        let each = w as usize / items.len();
                        vals.push(items.iter().enumerate().fold(0u64, |acc, (i, &x)| {
                            acc | (x & mask_of(each as u32)) << (i * each)
                        }));
                    }
                }
            }
            vals.push(0);
        }
        vals.sort_unstable();
        vals.dedup();
        if !vals.is_empty() {
            candidates.push((k, None, vals));
        }
    }

    for _round in 0..4 {
        let mut improved = false;
        for (k, sub, vals) in &candidates {
            let whole = enc.fields[*k].extract(ins.bits);
            let current = whole;
            let mut best_here = (best, current);
            for &v in vals {
                let value = match sub {
                    Some(sf) => sf.insert(whole as u128, v) as u64,
                    None => v,
                };
                if value == current {
                    continue;
                }
                let mut trial = ins;
                if !trial.set_field(*k, value) {
                    continue;
                }
                let (done, score) = score_of(&trial);
                if done {
                    return trial;
                }
                if score > best_here.0 {
                    best_here = (score, value);
                }
            }
            if best_here.1 != current {
                ins.set_field(*k, best_here.1);
                best = best_here.0;
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
    // Some texts need two fields changed together (an immediate offset shows only once the
    // register offset is null): from each field's neutral values (null, zero), one more sweep.
    for (k, sub, vals) in &candidates {
        if sub.is_some() {
            continue;
        }
        let neutral: Vec<u64> = vals
            .iter()
            .copied()
            .filter(|&v| v == 0 || Some(v as i64) == null_code(spec))
            .collect();
        for v in neutral {
            let mut trial = ins;
            if !trial.set_field(*k, v) {
                continue;
            }
            for (k2, sub2, vals2) in &candidates {
                if k2 == k {
                    continue;
                }
                let whole = enc.fields[*k2].extract(trial.bits);
                for &v2 in vals2 {
                    let value = match sub2 {
                        Some(sf) => sf.insert(whole as u128, v2) as u64,
                        None => v2,
                    };
                    let mut t2 = trial;
                    if t2.set_field(*k2, value) && score_of(&t2).0 {
                        return t2;
                    }
                }
            }
        }
    }
    ins
}

/// The code of the NULL scalar register in this generation's operand types.
fn null_code(spec: &IsaSpec) -> Option<i64> {
    crate::canonical::null_register(spec).map(|v| v as i64)
}
