//! Telling prose from code, and explaining why code did not parse.
//!
//! Some entries of AMD's "Semantics" text are not pseudocode: matrix notation for MFMA/WMMA,
//! assembly examples, tables of values or fields, English sentences, counter-wait conditions.
//! They are recognised line by line, by the rules below, only on lines the grammar rejected:
//! text that parses is code. When such lines only follow a block of code to the end of the
//! entry (an example after the semantics), the code is kept and the rest noted.

use serde::Serialize;

/// Why a line is prose rather than pseudocode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProseKind {
    /// `D = A (16x16) * B (16x16) + C (16x16)`.
    MatrixNotation,
    /// `s_sleep 0  // Wait for 0 clocks.`, `v_mov_b32 v3, v0`, labels such as `loop:`.
    AssemblyExample,
    /// `0: reserved`, `0x00: {1,11,...}`, `OFFSET0 = Unsigned byte offset...`,
    /// `vgpr_a[1] = ray_extent (float32)`.
    Table,
    /// `vmcnt <= SIMM16[3:0]`: a condition the instruction waits for.
    WaitCondition,
    /// A sentence: three or more plain words in a row (`Wait for all instructions to complete`).
    English,
    /// A C function definition (`byte permute(byte in[8], byte sel) {`).
    CFunction,
    /// Nothing but comments (or nothing at all).
    CommentOnly,
}

impl ProseKind {
    pub fn name(self) -> &'static str {
        match self {
            ProseKind::MatrixNotation => "matrix-notation",
            ProseKind::AssemblyExample => "assembly-example",
            ProseKind::Table => "table",
            ProseKind::WaitCondition => "wait-condition",
            ProseKind::English => "english",
            ProseKind::CFunction => "c-function",
            ProseKind::CommentOnly => "comment-only",
        }
    }
}

/// Why an entry that is code did not parse (for the report's causes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FailureCause {
    /// The PDF extraction cut a statement (a line ending in `=`, `:`, `+`, ... or an unclosed
    /// bracket).
    Truncated,
    /// A short English phrase inside an expression (`countbits(valid mask)`, `x is even`).
    EnglishPhrase,
    /// C syntax: `for (i = 0; ...) {`, `(a, b) = ...`, `a:b` concatenation, `hardware-reg`.
    CSyntax,
    /// Anything else; the diagnostic says what was expected.
    Other,
}

impl FailureCause {
    pub fn name(self) -> &'static str {
        match self {
            FailureCause::Truncated => "truncated",
            FailureCause::EnglishPhrase => "english-phrase",
            FailureCause::CSyntax => "c-syntax",
            FailureCause::Other => "other",
        }
    }
}

/// Removes a `//` comment.
fn code_part(line: &str) -> &str {
    match line.find("//") {
        Some(i) => &line[..i],
        None => line,
    }
}

const KEYWORDS: &[&str] = &[
    "if", "then", "elsif", "elif", "else", "endif", "end", "for", "in", "do", "endfor", "while",
    "endwhile", "return", "break", "continue", "declare", "lambda", "next", "mod",
];

/// The longest run of plain words (letters only, longer than one letter, not keywords, not
/// followed by `(`, `[` or `.`) separated by one or two spaces.
fn longest_word_run(line: &str) -> usize {
    let mut best = 0;
    let mut run = 0;
    let mut prev_end = None::<usize>;
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphabetic() {
            let start = i;
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'\'')
            {
                i += 1;
            }
            let word = &line[start..i];
            let plain = word.len() > 1
                && word.bytes().all(|b| b.is_ascii_alphabetic() || b == b'\'')
                && !KEYWORDS.contains(&word);
            // A word followed by `(`, `[` or `.` is a call, index or field, not prose.
            let followed_by_code = matches!(bytes.get(i), Some(b'(' | b'[' | b'.'));
            if plain && !followed_by_code {
                let adjacent = prev_end
                    .is_some_and(|e| line[e..start].chars().all(|c| c == ' ') && start - e <= 2);
                run = if adjacent { run + 1 } else { 1 };
                best = best.max(run);
                prev_end = Some(i);
            } else {
                run = 0;
                prev_end = None;
            }
        } else {
            if !bytes[i].is_ascii_whitespace() {
                run = 0;
                prev_end = None;
            }
            i += 1;
        }
    }
    best
}

/// Classifies one line that the grammar rejected. `None` means it looks like code.
pub fn prose_line(line: &str) -> Option<ProseKind> {
    let code = code_part(line).trim();
    if code.is_empty() {
        return None;
    }
    let lower_mnemonic = |s: &str| {
        let word: String = s
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        (word.starts_with("s_") || word.starts_with("v_"))
            && word.chars().all(|c| !c.is_ascii_uppercase())
            && !s[word.len()..].trim_start().starts_with(['(', '=', '['])
    };
    if code.starts_with("D = A (") || code.starts_with("D = A(") {
        return Some(ProseKind::MatrixNotation);
    }
    if lower_mnemonic(code)
        || code == "..."
        || code.starts_with('<')
        || is_label(code)
        || is_bare_mnemonic(code)
    {
        return Some(ProseKind::AssemblyExample);
    }
    if starts_with_number_key(code) || is_type_annotated(code) || is_heading(code) {
        return Some(ProseKind::Table);
    }
    if let Some((lhs, _)) = code.split_once("<=") {
        let lhs = lhs.trim();
        if !lhs.is_empty()
            && lhs.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !code.contains(" then")
        {
            return Some(ProseKind::WaitCondition);
        }
    }
    if code.ends_with('{')
        && code.contains('(')
        && !code.starts_with("if")
        && !code.starts_with("for")
    {
        return Some(ProseKind::CFunction);
    }
    if longest_word_run(code) >= 3 {
        return Some(ProseKind::English);
    }
    None
}

/// `CVT_F32_U32`, `MUL_F32 (2**32 - 1)`: an instruction of an example sequence.
fn is_bare_mnemonic(code: &str) -> bool {
    let word: String = code
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let rest = code[word.len()..].trim();
    word.contains('_')
        && word.chars().all(|c| !c.is_ascii_lowercase())
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && (rest.is_empty()
            || rest.starts_with('(') && rest.ends_with(')') && code[word.len()..].starts_with(' '))
}

fn is_label(code: &str) -> bool {
    code.ends_with(':')
        && code[..code.len() - 1]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `0: reserved`, `0x00: {...}`, `0 = ring0 pixel wave`.
fn starts_with_number_key(code: &str) -> bool {
    let digits = code.trim_start_matches("0x");
    let key: String = digits
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    if key.is_empty() {
        return false;
    }
    let rest = digits[key.len()..].trim_start();
    (rest.starts_with(':') || (rest.starts_with('=') && !rest.starts_with("==")))
        && code.starts_with(|c: char| c.is_ascii_digit())
}

/// `vgpr_a[1] = ray_extent (float32)`, `... (first part of uint64)`.
fn is_type_annotated(code: &str) -> bool {
    let lower = code.to_ascii_lowercase();
    ["(uint", "(float", "(int", "x float16)", "part of uint"]
        .iter()
        .any(|p| lower.contains(p))
        && code.contains('=')
}

/// `Offset[4:0]: Swizzle`.
fn is_heading(code: &str) -> bool {
    let Some((key, value)) = code.split_once("]:") else {
        return false;
    };
    key.chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '[' | ':'))
        && value
            .trim()
            .chars()
            .all(|c| c.is_ascii_alphabetic() || c == ' ')
}

/// Where a parse failed, for [`failure_cause`].
pub struct FailurePoint<'a> {
    /// The rejected line.
    pub line: &'a str,
    /// The code line before it, if any.
    pub previous: Option<&'a str>,
    /// The text of the entry before the failure position.
    pub before: &'a str,
    /// What the parser found there, and its message.
    pub found: &'a str,
    pub message: &'a str,
}

/// The cause of a parse failure in an entry of code.
pub fn failure_cause(at: &FailurePoint<'_>) -> FailureCause {
    let code = code_part(at.line).trim_end();
    if at.found == "end of entry" && at.message.contains("expression") {
        return FailureCause::Truncated;
    }
    let cut = |l: &str| {
        let l = code_part(l).trim_end();
        l.ends_with(['=', ':', '+', '-', '*', '&', '|', ',', '(', '[']) || unbalanced(l)
    };
    if at.previous.is_some_and(cut) {
        return FailureCause::Truncated;
    }
    // Two plain words in a row (`valid mask`, `x is even`, `jump LABEL`, a bare `nop`).
    let before = code_part(at.before.lines().last().unwrap_or("")).trim_end();
    let word_before = before.ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
    let word_found = at.found.starts_with(|c: char| c.is_ascii_alphabetic());
    let previous_word = at
        .before
        .trim_end()
        .ends_with(|c: char| c.is_ascii_alphabetic());
    if word_found && (word_before || previous_word && before.is_empty()) && !cut(before) {
        return FailureCause::EnglishPhrase;
    }
    let c_like = code.ends_with('{')
        || code.contains("++")
        || code.trim_start().starts_with('(')
        || code.contains("-reg")
        || code.contains("function")
        || code.contains(':')
            && !code.contains('?')
            && !code.contains('[')
            && !code.contains("for ");
    if c_like {
        return FailureCause::CSyntax;
    }
    if code.ends_with(['=', ':', '+', '-', '*', '&', '|', ',', '(', '[']) || unbalanced(code) {
        return FailureCause::Truncated;
    }
    if longest_word_run(code) >= 2 {
        return FailureCause::EnglishPhrase;
    }
    FailureCause::Other
}

fn unbalanced(code: &str) -> bool {
    let mut depth = 0i32;
    for c in code.chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    depth > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_lines_are_recognised() {
        assert_eq!(
            prose_line("D = A (16x16) * B (16x16) + C (16x16)"),
            Some(ProseKind::MatrixNotation)
        );
        assert_eq!(
            prose_line("s_sleep 0       // Wait for 0 clocks."),
            Some(ProseKind::AssemblyExample)
        );
        assert_eq!(
            prose_line("v_mov_b32 v3, v0"),
            Some(ProseKind::AssemblyExample)
        );
        assert_eq!(prose_line("loop:"), Some(ProseKind::AssemblyExample));
        assert_eq!(prose_line("CVT_F32_U32"), Some(ProseKind::AssemblyExample));
        assert_eq!(
            prose_line("MUL_F32 (2**32 - 1)"),
            Some(ProseKind::AssemblyExample)
        );
        assert_eq!(prose_line("0: reserved"), Some(ProseKind::Table));
        assert_eq!(prose_line("0x1f: No swizzle"), Some(ProseKind::Table));
        assert_eq!(
            prose_line("vgpr_a[1] = ray_extent (float32)"),
            Some(ProseKind::Table)
        );
        assert_eq!(
            prose_line("vmcnt <= S0.u[5:0] + S1.u[5:0]."),
            Some(ProseKind::WaitCondition)
        );
        assert_eq!(
            prose_line("Wait for all instructions to complete;"),
            Some(ProseKind::English)
        );
        assert_eq!(
            prose_line("byte permute(byte in[8], byte sel) {"),
            Some(ProseKind::CFunction)
        );
    }

    #[test]
    fn code_lines_are_not_prose() {
        for line in [
            "for i in 0 : 31 do",
            "D0.u32 = S0.u32 + S1.u32",
            "s_nop(16'0U)",
            "if S0.u32[i] == 1'1U then",
            "SCC = D0.u32 != 0U // unsigned overflow or carry",
            "tmp = (cmp < tmp) ? src : tmp",
            "else if (S0.f == NaN)",
        ] {
            assert_eq!(prose_line(line), None, "{line}");
        }
    }

    #[test]
    fn failure_causes_are_explained() {
        let cause = |line, previous, found, message| {
            let before = "";
            failure_cause(&FailurePoint {
                line,
                previous,
                before,
                found,
                message,
            })
        };
        assert_eq!(
            cause(
                "D.i = (a >= b) ? a :",
                None,
                "end of entry",
                "expected expression"
            ),
            FailureCause::Truncated
        );
        assert_eq!(
            cause(
                "RETURN_DATA = tmp.",
                Some("x = c ? a :"),
                "=",
                "expected operator"
            ),
            FailureCause::Truncated
        );
        assert_eq!(
            cause(
                "x = countbits(valid mask);",
                None,
                "mask",
                "expected operator"
            ),
            FailureCause::EnglishPhrase
        );
        assert_eq!(
            cause("for (i = 0; i < 64; i++) {", None, "(", "expected name"),
            FailureCause::CSyntax
        );
        assert_eq!(
            cause(
                "hardware-reg = S0.u.",
                None,
                "-",
                "expected assignment operator"
            ),
            FailureCause::CSyntax
        );
    }
}
