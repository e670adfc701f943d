//! Reading `.pcode` files: one entry per instruction, `=== FAMILY NAME` then the text.
//!
//! File format (see spec/pcode/README.md): lines starting with `#` before the first entry are a
//! header; each entry starts with a line `=== FAMILY NAME` and runs to the next such line or the
//! end of the file; blank lines at the end of an entry are not part of its text.

use serde::Serialize;

/// One entry as it appears in the file, before any parsing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RawEntry {
    /// The encoding family (`VOP3`, `SOP1`, `DS`, ...).
    pub family: String,
    /// The instruction mnemonic (`V_ADD_F32`).
    pub name: String,
    /// 1-based line of the `===` header in the file.
    pub header_line: u32,
    /// 1-based line in the file where the text starts (the line after the header).
    pub text_line: u32,
    pub text: String,
}

/// A problem with the file's layout (not with an entry's pseudocode).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LayoutProblem {
    pub line: u32,
    pub message: String,
}

/// Splits a `.pcode` file into entries. Lines before the first header that are neither blank
/// nor `#` comments are reported, never silently dropped.
pub fn split_entries(file_text: &str) -> (Vec<RawEntry>, Vec<LayoutProblem>) {
    let mut entries = Vec::new();
    let mut problems = Vec::new();
    let mut current: Option<(RawEntry, Vec<&str>)> = None;
    for (i, line) in file_text.lines().enumerate() {
        let lineno = i as u32 + 1;
        if let Some(header) = line.strip_prefix("=== ") {
            if let Some((entry, lines)) = current.take() {
                entries.push(finish(entry, lines));
            }
            let header = header.trim();
            let (family, name) = match header.split_once(char::is_whitespace) {
                Some((f, n)) => (f.trim().to_string(), n.trim().to_string()),
                None => {
                    problems.push(LayoutProblem {
                        line: lineno,
                        message: format!("entry header `=== {header}` has no family, expected `=== FAMILY NAME`"),
                    });
                    (String::new(), header.to_string())
                }
            };
            let entry = RawEntry { family, name, header_line: lineno, text_line: lineno + 1, text: String::new() };
            current = Some((entry, Vec::new()));
        } else if let Some((_, lines)) = current.as_mut() {
            lines.push(line);
        } else if !line.trim().is_empty() && !line.starts_with('#') {
            problems.push(LayoutProblem {
                line: lineno,
                message: "text before the first `=== FAMILY NAME` entry header".to_string(),
            });
        }
    }
    if let Some((entry, lines)) = current.take() {
        entries.push(finish(entry, lines));
    }
    (entries, problems)
}

fn finish(mut entry: RawEntry, mut lines: Vec<&str>) -> RawEntry {
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    entry.text = lines.join("\n");
    entry
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_split_on_headers_with_lines() {
        let file = "# header\n# more\n\n=== SOP1 S_MOV_B32\nD0.b32 = S0.b32\n\n=== VOP1 V_NOP\nnop()\n\n\n";
        let (entries, problems) = split_entries(file);
        assert!(problems.is_empty());
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].family, "SOP1");
        assert_eq!(entries[0].name, "S_MOV_B32");
        assert_eq!(entries[0].header_line, 4);
        assert_eq!(entries[0].text_line, 5);
        assert_eq!(entries[0].text, "D0.b32 = S0.b32");
        assert_eq!(entries[1].text, "nop()");
    }

    #[test]
    fn stray_text_and_bad_headers_are_reported() {
        let (entries, problems) = split_entries("oops\n=== LONELY\nx = 1\n");
        assert_eq!(entries.len(), 1);
        assert_eq!(problems.len(), 2);
        assert_eq!(problems[0].line, 1);
        assert_eq!(problems[1].line, 2);
    }
}
