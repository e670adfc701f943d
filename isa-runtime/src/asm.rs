//! An assembler for LLVM's AMDGPU syntax, the inverse of [`crate::disasm`].
//!
//! For a line, every form of the named instruction is tried (shortest encoding first): the
//! operands are read through the form's operand types (registers, named values, inline
//! constants, literals), modifiers (`offset:16`, `gds`, `clamp`, ...) set the encoding field of
//! the same name, and the form is accepted when disassembling the result gives back the line's
//! text. So the assembler and the disassembler can never disagree on a form: what one prints,
//! the other reads.

use crate::decode::Instruction;
use crate::disasm::disassemble;
use crate::tables::{IsaSpec, OperandInfo, OperandTypeInfo};
use std::fmt;

/// Why a line could not be assembled, with the 1-based column where the problem starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmError {
    pub line: usize,
    pub column: usize,
    pub message: String,
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
fn operand_value(
    spec: &IsaSpec,
    tok: &str,
    ty: &OperandTypeInfo,
    info: &OperandInfo,
    literal_bits: u32,
) -> Result<(u64, Option<u64>), String> {
    match operand_value_in(tok, ty, info, literal_bits) {
        Ok(v) => Ok(v),
        // The type's subtypes (AMD's `Subtypes`) may name what the type itself does not list.
        Err(e) => ty
            .subtypes
            .iter()
            .find_map(|&st| {
                operand_value_in(tok, &spec.operand_types[st as usize], info, literal_bits).ok()
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
            .map(|v| (v as u64, None))
            .ok_or_else(|| format!("register {tok} is not allowed here ({})", ty.name));
    }
    let upper = tok.to_ascii_uppercase();
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

fn normalize(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// Assembles one instruction (no label, no comment).
pub fn assemble_instruction(spec: &'static IsaSpec, text: &str) -> Result<Instruction, AsmError> {
    let err = |column: usize, message: String| AsmError {
        line: 1,
        column,
        message,
    };
    let lead = text.len() - text.trim_start().len();
    let text_t = text.trim();
    let (mnemonic, rest) = match text_t.find(char::is_whitespace) {
        Some(i) => (&text_t[..i], &text_t[i..]),
        None => (text_t, ""),
    };
    let mnem_lower = mnemonic.to_ascii_lowercase();
    let base = ["_e32", "_e64", "_dpp", "_sdwa", "_e64_dpp"]
        .iter()
        .find_map(|s| mnem_lower.strip_suffix(s))
        .unwrap_or(&mnem_lower);
    let ins_index = spec
        .instruction_by_name(&mnem_lower)
        .or_else(|| spec.instruction_by_name(base))
        .ok_or_else(|| {
            err(
                lead + 1,
                format!("unknown instruction `{mnemonic}` for {}", spec.generation),
            )
        })?;
    let rest_col = lead + mnemonic.len() + 1;
    let (operands, modifiers) = split_operands(rest, rest_col);
    let wanted = normalize(text_t);

    let mut forms: Vec<u16> = spec.instructions[ins_index].forms.to_vec();
    forms.sort_by_key(|&f| (spec.encoding_of(f).bits, spec.encoding_of(f).order));
    let mut best_error: Option<AsmError> = None;
    for form in forms {
        match try_form(spec, form, &operands, &modifiers) {
            Ok(ins) => {
                if normalize(&disassemble(&ins)) == wanted {
                    return Ok(ins);
                }
                best_error.get_or_insert_with(|| {
                    err(
                        rest_col,
                        format!(
                            "no encoding of `{mnemonic}` prints as written (closest: `{}`)",
                            disassemble(&ins)
                        ),
                    )
                });
            }
            Err(e) => {
                if best_error.as_ref().is_none_or(|b| e.column > b.column) {
                    best_error = Some(e);
                }
            }
        }
    }
    Err(best_error.unwrap_or_else(|| err(lead + 1, format!("`{mnemonic}` has no encodable form"))))
}

fn try_form(
    spec: &'static IsaSpec,
    form: u16,
    operands: &[Token],
    modifiers: &[Token],
) -> Result<Instruction, AsmError> {
    let err = |column: usize, message: String| AsmError {
        line: 1,
        column,
        message,
    };
    let mut ins = Instruction::new(spec, form);
    let f = &spec.forms[form as usize];
    let enc = spec.encoding_of(form);
    for &(field, value) in f.hints {
        ins.set_field(field as usize, value as u64);
    }
    let explicit: Vec<&OperandInfo> = f
        .operands
        .iter()
        .filter(|o| !o.implicit && o.field.is_some())
        .collect();
    let literal_field = enc
        .fields
        .iter()
        .position(|x| x.name.starts_with("LITERAL"));
    let literal_bits = literal_field.map_or(32, |k| enc.fields[k].width());
    // Operands that print in the operand list (the literal field's operand reads the literal
    // from its token).
    if operands.len() != explicit.len() {
        let col = operands
            .get(explicit.len())
            .or(operands.last())
            .map_or(1, |t| t.column);
        return Err(err(
            col,
            format!(
                "expected {} operands, found {}",
                explicit.len(),
                operands.len()
            ),
        ));
    }
    for (tok, info) in operands.iter().zip(&explicit) {
        let field = info.field.unwrap_or_default() as usize;
        let is_literal_field = enc.fields[field].name.starts_with("LITERAL");
        let (value, literal) = match info.operand_type.map(|t| &spec.operand_types[t as usize]) {
            _ if is_literal_field => {
                let inner = tok
                    .text
                    .strip_prefix("lit(")
                    .and_then(|r| r.strip_suffix(')'))
                    .unwrap_or(tok.text);
                let v = parse_int(inner).ok_or_else(|| {
                    err(
                        tok.column,
                        format!("expected a literal, found `{}`", tok.text),
                    )
                })?;
                let mask = if literal_bits >= 64 {
                    u64::MAX
                } else {
                    (1u64 << literal_bits) - 1
                };
                (v as u64 & mask, None)
            }
            Some(ty) => operand_value(spec, tok.text, ty, info, literal_bits)
                .map_err(|m| err(tok.column, m))?,
            None => (
                parse_int(tok.text).ok_or_else(|| err(tok.column, "expected a number".into()))?
                    as u64,
                None,
            ),
        };
        if !ins.set_field(field, value) {
            return Err(err(
                tok.column,
                format!(
                    "`{}` does not fit field {}",
                    tok.text, enc.fields[field].name
                ),
            ));
        }
        if let Some(l) = literal {
            match literal_field {
                Some(lf) => {
                    ins.set_field(lf, l);
                }
                None => return Err(err(tok.column, "this encoding has no literal".into())),
            }
        }
    }
    for m in modifiers {
        let (name, value) = match m.text.split_once(':') {
            Some((n, v)) => (
                n,
                parse_int(v).ok_or_else(|| err(m.column, format!("`{v}` is not a number")))?,
            ),
            None => (m.text, 1),
        };
        let field_named = |n: &str| {
            enc.fields
                .iter()
                .position(|x| x.name.eq_ignore_ascii_case(n))
        };
        let ok = if let Some(field) = field_named(name) {
            ins.set_field(field, value as u64)
        } else if let (Some(lo), Some(hi)) = (
            field_named(&format!("{name}0")),
            field_named(&format!("{name}1")),
        ) {
            // A value split over NAME0 (low bits) and NAME1 (high bits), as DS offsets are.
            let w = enc.fields[lo].width();
            ins.set_field(lo, value as u64 & ((1u64 << w) - 1))
                && ins.set_field(hi, (value as u64) >> w)
        } else {
            return Err(err(
                m.column,
                format!("unknown modifier `{name}` for {}", enc.name),
            ));
        };
        if !ok {
            return Err(err(m.column, format!("{value} does not fit `{name}`")));
        }
    }
    Ok(ins)
}

/// Assembles a program: one instruction per line; `;` and `//` start comments; blank lines
/// are skipped. Errors carry the line number.
pub fn assemble(spec: &'static IsaSpec, program: &str) -> Result<Vec<u8>, Vec<AsmError>> {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (n, line) in program.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let code = code.split(';').next().unwrap_or("");
        if code.trim().is_empty() {
            continue;
        }
        match assemble_instruction(spec, code) {
            Ok(ins) => ins.encode_into(&mut out),
            Err(mut e) => {
                e.line = n + 1;
                errors.push(e);
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}
