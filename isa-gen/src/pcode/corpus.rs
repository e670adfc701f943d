//! Reading `.pcode` files: one entry per instruction, `=== FAMILY NAME` then the text.
//!
//! File format (see spec/pcode/README.md): lines starting with `#` before the first entry are a
//! header; each entry starts with a line `=== FAMILY NAME` and runs to the next such line or the
//! end of the file; blank lines at the end of an entry are not part of its text.

use super::ast::{self, Ast, Span};
use super::ir::Ir;
use super::parse::{line_col, parse_entry};
use super::prose::{failure_cause, prose_line, FailureCause, FailurePoint, ProseKind};
use super::typeck::{typecheck, Context, Level, TypeError};
use crate::specdir::list_files;
use crate::Generation;
use serde::Serialize;
use std::path::{Path, PathBuf};

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
                        message: format!(
                            "entry header `=== {header}` has no family, expected `=== FAMILY NAME`"
                        ),
                    });
                    (String::new(), header.to_string())
                }
            };
            let entry = RawEntry {
                family,
                name,
                header_line: lineno,
                text_line: lineno + 1,
                text: String::new(),
            };
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

/// A located problem in an entry: file line and column (1-based), the text found there and what
/// would have been accepted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diag {
    pub level: Level,
    pub code: String,
    pub message: String,
    /// The instruction the entry describes.
    pub entry: String,
    pub line: u32,
    pub column: u32,
    /// The offending text.
    pub found: String,
    /// For parse errors, what the grammar accepts at that point.
    pub expected: Vec<String>,
}

impl std::fmt::Display for Diag {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let level = match self.level {
            Level::Warning => "warning",
            Level::Error => "error",
        };
        write!(
            f,
            "{}:{}: {level}[{}] in {}: {}",
            self.line, self.column, self.code, self.entry, self.message
        )
    }
}

impl Diag {
    /// As a crate-wide diagnostic located in `file`.
    pub fn to_diagnostic(&self, file: &Path) -> crate::Diagnostic {
        let severity = match self.level {
            Level::Warning => crate::Severity::Warning,
            Level::Error => crate::Severity::Error,
        };
        let code: &'static str = match self.code.as_str() {
            "parse" => "pcode-parse",
            _ => "pcode-type",
        };
        crate::Diagnostic {
            severity,
            code,
            location: crate::Location {
                file: file.to_path_buf(),
                line: self.line,
                column: self.column,
            },
            message: format!("{}: [{}] {}", self.entry, self.code, self.message),
        }
    }
}

/// What an entry turned out to be.
#[derive(Clone, Debug, PartialEq)]
pub enum Class {
    /// Parsed and type-checked.
    Typed { ir: Ir, warnings: Vec<Diag> },
    /// Parsed, but the type checker found errors.
    Parsed { ast: Ast, errors: Vec<Diag> },
    /// Not pseudocode; `line` and `text` show the line that says so.
    Prose {
        kind: ProseKind,
        line: u32,
        text: String,
    },
    /// Code that does not parse.
    Failed { error: Diag, cause: FailureCause },
}

impl Class {
    pub fn label(&self) -> &'static str {
        match self {
            Class::Typed { .. } => "typed",
            Class::Parsed { .. } => "parsed",
            Class::Prose { .. } => "prose",
            Class::Failed { .. } => "failed",
        }
    }
}

/// Prose lines after the code of an entry (an example), which were left out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrailingProse {
    pub kind: ProseKind,
    pub first_line: u32,
    pub last_line: u32,
}

/// One entry, classified.
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    pub generation: Option<Generation>,
    pub family: String,
    pub name: String,
    pub header_line: u32,
    pub text_line: u32,
    pub text: String,
    pub class: Class,
    pub trailing: Option<TrailingProse>,
    /// Helper calls (name, argument count), for parsed and typed entries.
    pub calls: Vec<(String, usize)>,
}

impl Entry {
    /// The AST when the entry parsed (re-parsed for typed entries).
    pub fn ast(&self) -> Option<Ast> {
        match &self.class {
            Class::Parsed { ast, .. } => Some(ast.clone()),
            Class::Typed { .. } => parse_entry(self.code_text()).ok(),
            _ => None,
        }
    }

    /// The part of the text that is code (all of it unless trailing prose was cut off).
    pub fn code_text(&self) -> &str {
        match &self.trailing {
            Some(t) => {
                let keep = (t.first_line - self.text_line) as usize;
                let end = self
                    .text
                    .split_inclusive('\n')
                    .take(keep)
                    .map(str::len)
                    .sum::<usize>();
                self.text[..end].trim_end()
            }
            None => &self.text,
        }
    }
}

/// Classifies one entry: parses it, type-checks it, or says why it is prose or failed.
pub fn classify(raw: &RawEntry, generation: Option<Generation>) -> Entry {
    let mut entry = Entry {
        generation,
        family: raw.family.clone(),
        name: raw.name.clone(),
        header_line: raw.header_line,
        text_line: raw.text_line,
        text: raw.text.clone(),
        class: Class::Prose {
            kind: ProseKind::English,
            line: raw.text_line,
            text: String::new(),
        },
        trailing: None,
        calls: Vec::new(),
    };
    if raw.text.lines().all(is_comment_or_blank) {
        let first = raw
            .text
            .lines()
            .enumerate()
            .find(|(_, l)| !l.trim().is_empty());
        let (line, text) = match first {
            Some((i, l)) => (raw.text_line + i as u32, l.trim().to_string()),
            None => (raw.header_line, "(empty entry)".to_string()),
        };
        entry.class = Class::Prose {
            kind: ProseKind::CommentOnly,
            line,
            text,
        };
        return entry;
    }
    let err = match parse_entry(&raw.text) {
        Ok(ast) => {
            entry.calls = ast::helper_calls(&ast);
            entry.class = code_class(&entry, ast, &raw.text);
            return entry;
        }
        Err(e) => e,
    };
    let lines: Vec<&str> = raw.text.lines().collect();
    let k = (err.line as usize)
        .saturating_sub(1)
        .min(lines.len().saturating_sub(1));
    let line_text = lines.get(k).copied().unwrap_or("");
    if let Some(kind) = prose_line(line_text) {
        // A prose block may begin on lines the parser swallowed before failing
        // (`CVT_F32_U32` alone parses as the start of an assignment).
        let mut k = k;
        while k > 0 && prose_line(lines[k - 1]).is_some() {
            k -= 1;
        }
        let rest_is_prose = lines[k..]
            .iter()
            .all(|l| is_comment_or_blank(l) || prose_line(l).is_some());
        let head_has_code = lines[..k].iter().any(|l| !is_comment_or_blank(l));
        if rest_is_prose && head_has_code {
            let head = lines[..k].join("\n");
            if let Ok(ast) = parse_entry(&head) {
                entry.trailing = Some(TrailingProse {
                    kind,
                    first_line: raw.text_line + k as u32,
                    last_line: raw.text_line + lines.len() as u32 - 1,
                });
                entry.calls = ast::helper_calls(&ast);
                entry.class = code_class(&entry, ast, &head);
                return entry;
            }
        }
        entry.class = Class::Prose {
            kind,
            line: raw.text_line + k as u32,
            text: line_text.trim().to_string(),
        };
        return entry;
    }
    let previous = lines[..k]
        .iter()
        .rev()
        .find(|l| !is_comment_or_blank(l))
        .copied();
    let cause = failure_cause(&FailurePoint {
        line: line_text,
        previous,
        before: &raw.text[..err.offset.min(raw.text.len())],
        found: &err.found,
        message: &err.message,
    });
    let error = Diag {
        level: Level::Error,
        code: "parse".to_string(),
        message: err.message.clone(),
        entry: raw.name.clone(),
        line: raw.text_line + err.line - 1,
        column: err.column,
        found: err.found.clone(),
        expected: err.expected.clone(),
    };
    entry.class = Class::Failed { error, cause };
    entry
}

fn is_comment_or_blank(line: &str) -> bool {
    let t = line.trim();
    t.is_empty() || t.starts_with("//")
}

fn code_class(entry: &Entry, ast: Ast, text: &str) -> Class {
    let ctx = Context {
        mnemonic: &entry.name,
        generation: entry.generation,
    };
    match typecheck(&ast, &ctx) {
        Ok(t) => Class::Typed {
            ir: t.ir,
            warnings: t
                .warnings
                .iter()
                .map(|w| type_diag(entry, text, w))
                .collect(),
        },
        Err(errors) => Class::Parsed {
            errors: errors.iter().map(|e| type_diag(entry, text, e)).collect(),
            ast,
        },
    }
}

fn type_diag(entry: &Entry, text: &str, e: &TypeError) -> Diag {
    let (line, column) = line_col(text, e.span.start as usize);
    Diag {
        level: e.level,
        code: e.code.to_string(),
        message: e.message.clone(),
        entry: entry.name.clone(),
        line: entry.text_line + line - 1,
        column,
        found: snippet(text, e.span),
        expected: Vec::new(),
    }
}

fn snippet(text: &str, span: Span) -> String {
    let s = text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("");
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if s.chars().count() > 60 {
        let mut t: String = s.chars().take(57).collect();
        t.push_str("...");
        t
    } else {
        s
    }
}

/// The entries of one generation's file.
#[derive(Clone, Debug)]
pub struct GenerationCorpus {
    pub generation: Option<Generation>,
    pub file: PathBuf,
    pub entries: Vec<Entry>,
    pub layout_problems: Vec<LayoutProblem>,
}

/// Every `.pcode` file of a directory, classified.
#[derive(Clone, Debug)]
pub struct Corpus {
    pub dir: PathBuf,
    pub generations: Vec<GenerationCorpus>,
}

impl Corpus {
    pub fn generation(&self, g: Generation) -> Option<&GenerationCorpus> {
        self.generations.iter().find(|c| c.generation == Some(g))
    }
}

/// Reads and classifies one `.pcode` file.
pub fn load_file(path: &Path, generation: Option<Generation>) -> std::io::Result<GenerationCorpus> {
    let text = std::fs::read_to_string(path)?;
    Ok(classify_text(&text, path, generation))
}

/// Classifies the entries of a `.pcode` file's text.
pub fn classify_text(text: &str, path: &Path, generation: Option<Generation>) -> GenerationCorpus {
    let (raw, layout_problems) = split_entries(text);
    let entries = raw.iter().map(|r| classify(r, generation)).collect();
    GenerationCorpus {
        generation,
        file: path.to_path_buf(),
        entries,
        layout_problems,
    }
}

/// Reads and classifies every `<generation>.pcode` file in `dir`.
pub fn load_corpus(dir: &Path) -> std::io::Result<Corpus> {
    let mut generations = Vec::new();
    for (path, generation) in list_files(dir, "pcode")? {
        generations.push(load_file(&path, generation)?);
    }
    Ok(Corpus {
        dir: dir.to_path_buf(),
        generations,
    })
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
