//! Programs: the line assembler's syntax, one instruction per line, plus what a whole program
//! needs (what `amdisa asm` and `amdisa run` read).
//!
//! - `name:` at the start of a line defines a label at the address of the next instruction
//!   (an instruction may follow on the same line). A branch operand naming a label becomes
//!   the branch's SIMM16: the distance in dwords from the instruction after the branch
//!   (`PC + 4`), written as the unsigned 16-bit number the disassembler prints.
//! - `.long W[, W...]` places raw 32-bit words (hex `0x...` or decimal), for an instruction
//!   the assembler does not take yet.
//! - `//` and `;` start comments; blank lines are skipped.
//!
//! Every error says line and column.

use super::{assemble_instruction, AsmError, AsmErrorKind};
use crate::dual::Decoded;
use crate::tables::IsaSpec;
use std::collections::HashMap;

/// What one source line holds once its label and comment are taken off.
enum Item {
    /// Instruction text; a label before it is blanked out, so the assembler's columns are
    /// the file's columns.
    Instruction(String),
    /// Raw words.
    Words(Vec<u32>),
    /// Nothing to place (label only, comment, blank).
    Empty,
}

struct Line<'a> {
    number: usize,
    label: Option<(&'a str, usize)>,
    item: Item,
}

fn is_label_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_' || c == '.')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Where the comment starts (`//` or `;`), or the line's length.
fn code_end(line: &str) -> usize {
    let slash = line.find("//").unwrap_or(line.len());
    let semi = line.find(';').unwrap_or(line.len());
    slash.min(semi)
}

fn parse_word(text: &str) -> Option<u32> {
    let t = text.trim().replace('_', "");
    match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(hex) => u32::from_str_radix(hex, 16).ok(),
        None => t.parse::<u32>().ok(),
    }
}

fn split_line(number: usize, raw: &str) -> Result<Line<'_>, AsmError> {
    let code = &raw[..code_end(raw)];
    let err = |column: usize, kind: AsmErrorKind, message: String| AsmError {
        line: number,
        column,
        kind,
        message,
    };
    let lead = code.len() - code.trim_start().len();
    let mut label = None;
    let mut body_start = lead;
    if let Some(colon) = code.find(':') {
        let name = code[lead..colon].trim_end();
        // `s[0:1]` and `offset:8` have colons too: a label is a plain name before the first one.
        if is_label_name(name) && !code[lead..colon].contains(char::is_whitespace) {
            label = Some((name, lead + 1));
            body_start = colon + 1;
        }
    }
    let body = &code[body_start..];
    let trimmed = body.trim();
    let item = if trimmed.is_empty() {
        Item::Empty
    } else if let Some(rest) = trimmed.strip_prefix(".long") {
        let col0 = body_start + (body.len() - body.trim_start().len()) + ".long".len() + 1;
        let mut words = Vec::new();
        let mut offset = 0;
        for part in rest.split(',') {
            let column = col0 + offset + (part.len() - part.trim_start().len());
            offset += part.len() + 1;
            let w = parse_word(part).ok_or_else(|| {
                err(
                    column,
                    AsmErrorKind::Syntax,
                    format!("`{}` is not a 32-bit word", part.trim()),
                )
            })?;
            words.push(w);
        }
        Item::Words(words)
    } else if trimmed.starts_with('.') {
        let name = trimmed.split_whitespace().next().unwrap_or(trimmed);
        return Err(err(
            body_start + (body.len() - body.trim_start().len()) + 1,
            AsmErrorKind::UnknownDirective,
            format!("unknown directive `{name}` (only `.long` is supported)"),
        ));
    } else {
        // Blank the label out so the assembler's columns are the file's columns.
        Item::Instruction(format!("{}{}", " ".repeat(body_start), body))
    };
    Ok(Line {
        number,
        label,
        item,
    })
}

/// `text` with every operand token equal to a label replaced by `value(label)`.
fn substitute_labels(text: &str, labels: &mut dyn FnMut(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(text.len());
    let mut token_start = None;
    let mut flush = |out: &mut String, token: &str| match labels(token) {
        Some(v) => out.push_str(&v),
        None => out.push_str(token),
    };
    for (i, c) in text.char_indices() {
        let separator = c == ',' || c.is_whitespace();
        match (separator, token_start) {
            (true, Some(s)) => {
                flush(&mut out, &text[s..i]);
                token_start = None;
                out.push(c);
            }
            (true, None) => out.push(c),
            (false, None) => token_start = Some(i),
            (false, Some(_)) => {}
        }
    }
    if let Some(s) = token_start {
        flush(&mut out, &text[s..]);
    }
    out
}

/// The mnemonic and the rest, so that labels are looked for only among the operands.
fn split_mnemonic(text: &str) -> (&str, &str) {
    let lead = text.len() - text.trim_start().len();
    match text[lead..].find(char::is_whitespace) {
        Some(i) => text.split_at(lead + i),
        None => (text, ""),
    }
}

/// One placed line of a program: its 1-based line number, its address in bytes from the
/// start of the program, its text (label and comment taken off) and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AssembledLine {
    pub line: usize,
    pub address: usize,
    pub text: String,
    pub bytes: Vec<u8>,
}

/// Assembles a program (see the module docs) line by line: the lines that assemble, with
/// their addresses, and every error found. A line in error takes 4 bytes, so that the
/// addresses and the labels after it stay where they would be; nothing else is lost.
pub fn assemble_listing(spec: &'static IsaSpec, text: &str) -> (Vec<AssembledLine>, Vec<AsmError>) {
    let mut errors = Vec::new();
    let mut lines = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        match split_line(n + 1, raw) {
            Ok(l) => lines.push(l),
            Err(e) => errors.push(e),
        }
    }
    let label_names: HashMap<&str, usize> = lines
        .iter()
        .filter_map(|l| l.label.map(|(name, _)| (name, l.number)))
        .collect();
    let with_labels = |text: &str, value: &mut dyn FnMut(&str) -> Option<String>| {
        let (mnemonic, operands) = split_mnemonic(text);
        format!("{mnemonic}{}", substitute_labels(operands, value))
    };
    let assemble_line = |l: &Line<'_>, text: &str| {
        let assembled = if super::dual::is_dual_line(text) {
            super::dual::assemble_dual(spec, text).map(Decoded::Dual)
        } else {
            assemble_instruction(spec, text).map(Decoded::Single)
        };
        assembled.map_err(|e| AsmError {
            line: l.number,
            column: e.column,
            kind: e.kind,
            message: e.message,
        })
    };

    // Pass 1: addresses. A label operand is assembled as 0 (a branch has one length).
    let mut address = 0usize;
    let mut addresses = Vec::with_capacity(lines.len());
    let mut failed = vec![false; lines.len()];
    let mut labels: HashMap<&str, usize> = HashMap::new();
    for (k, l) in lines.iter().enumerate() {
        if let Some((name, column)) = l.label {
            if labels.insert(name, address).is_some() {
                errors.push(AsmError {
                    line: l.number,
                    column,
                    kind: AsmErrorKind::DuplicateLabel,
                    message: format!("label `{name}` is defined twice"),
                });
            }
        }
        addresses.push(address);
        address += match &l.item {
            Item::Words(w) => 4 * w.len(),
            Item::Empty => 0,
            Item::Instruction(text) => {
                let zeroed = with_labels(text, &mut |t| label_names.get(t).map(|_| "0".into()));
                match assemble_line(l, &zeroed) {
                    Ok(ins) => ins.len(),
                    Err(e) => {
                        errors.push(e);
                        failed[k] = true;
                        4
                    }
                }
            }
        };
    }

    // Pass 2: the bytes, with label operands as branch offsets.
    let mut out = Vec::with_capacity(lines.len());
    for (k, (l, &at)) in lines.iter().zip(&addresses).enumerate() {
        let bytes = match &l.item {
            Item::Words(words) => words.iter().flat_map(|w| w.to_le_bytes()).collect(),
            Item::Empty => continue,
            Item::Instruction(_) if failed[k] => continue,
            Item::Instruction(text) => {
                let mut range_error = None;
                let resolved = with_labels(text, &mut |t| {
                    let target = *labels.get(t)?;
                    let dwords = (target as i64 - (at as i64 + 4)) / 4;
                    match i16::try_from(dwords) {
                        Ok(d) => Some((d as u16).to_string()),
                        Err(_) => {
                            range_error = Some(format!(
                                "label `{t}` is {dwords} dwords away, outside a branch's 16-bit range"
                            ));
                            Some("0".into())
                        }
                    }
                });
                if let Some(message) = range_error {
                    errors.push(AsmError {
                        line: l.number,
                        column: 1,
                        kind: AsmErrorKind::ValueOutOfRange,
                        message,
                    });
                    continue;
                }
                match assemble_line(l, &resolved) {
                    Ok(ins) => ins.encode(),
                    Err(e) => {
                        errors.push(e);
                        continue;
                    }
                }
            }
        };
        out.push(AssembledLine {
            line: l.number,
            address: at,
            text: source_text(l),
            bytes,
        });
    }
    errors.sort_by_key(|e| (e.line, e.column));
    (out, errors)
}

/// The text of a placed line as written (without its label and comment).
fn source_text(l: &Line<'_>) -> String {
    match &l.item {
        Item::Instruction(text) => text.trim().to_string(),
        Item::Words(words) => format!(
            ".long {}",
            words
                .iter()
                .map(|w| format!("{w:#x}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Item::Empty => String::new(),
    }
}

/// Assembles a program into code bytes, or every error found (see [`assemble_listing`]).
pub fn assemble(spec: &'static IsaSpec, text: &str) -> Result<Vec<u8>, Vec<AsmError>> {
    let (lines, errors) = assemble_listing(spec, text);
    if errors.is_empty() {
        Ok(lines.into_iter().flat_map(|l| l.bytes).collect())
    } else {
        Err(errors)
    }
}
