//! Diagnostics: located, plain-language reports of problems in a spec or pseudocode file.
//!
//! Every stage reports into a `Vec<Diagnostic>` instead of stopping at the first problem, so a
//! user sees everything that is wrong with a spec drop at once.

use serde::Serialize;
use std::fmt;
use std::path::{Path, PathBuf};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Something the tool does not understand but can go on without (for example an element
    /// of a newer schema). Never silently dropped.
    Warning,
    /// The spec contradicts itself or cannot be read; the affected item is left out or marked
    /// incomplete.
    Error,
}

/// A position in a text file, 1-based.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    pub file: PathBuf,
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file.display(), self.line, self.column)
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub severity: Severity,
    /// A short stable code (`unknown-element`, `dangling-encoding`, ...) for filtering and tests.
    pub code: &'static str,
    pub location: Location,
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Warning => "warning",
            Severity::Error => "error",
        };
        write!(
            f,
            "{}: {sev}[{}]: {}",
            self.location, self.code, self.message
        )
    }
}

/// Maps byte offsets in a text to 1-based line and column numbers (columns count characters).
#[derive(Clone, Debug)]
pub struct LineIndex {
    /// Byte offset of the start of every line.
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = Vec::with_capacity(text.len() / 40 + 1);
        starts.push(0);
        // memchr-speed scan; the index is built only when a diagnostic needs a position.
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// Line and column (both 1-based) of a byte offset; offsets past the end clamp to the end.
    pub fn line_col(&self, text: &str, offset: usize) -> (u32, u32) {
        let offset = offset.min(text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let col = text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or(offset - start);
        (line as u32 + 1, col as u32 + 1)
    }
}

/// Collects diagnostics for one text file, turning byte offsets into locations lazily.
pub struct Reporter<'a> {
    pub file: &'a Path,
    pub text: &'a str,
    index: Option<LineIndex>,
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Reporter<'a> {
    pub fn new(file: &'a Path, text: &'a str) -> Reporter<'a> {
        Reporter {
            file,
            text,
            index: None,
            diagnostics: Vec::new(),
        }
    }

    pub fn location(&mut self, offset: usize) -> Location {
        let text = self.text;
        let index = self.index.get_or_insert_with(|| LineIndex::new(text));
        let (line, column) = index.line_col(text, offset);
        Location {
            file: self.file.to_path_buf(),
            line,
            column,
        }
    }

    pub fn report(
        &mut self,
        severity: Severity,
        code: &'static str,
        offset: usize,
        message: String,
    ) {
        let location = self.location(offset);
        self.diagnostics.push(Diagnostic {
            severity,
            code,
            location,
            message,
        });
    }

    pub fn error(&mut self, code: &'static str, offset: usize, message: impl Into<String>) {
        self.report(Severity::Error, code, offset, message.into());
    }

    pub fn warning(&mut self, code: &'static str, offset: usize, message: impl Into<String>) {
        self.report(Severity::Warning, code, offset, message.into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_finds_lines_and_columns() {
        let text = "ab\ncdé\n\nx";
        let ix = LineIndex::new(text);
        assert_eq!(ix.line_col(text, 0), (1, 1));
        assert_eq!(ix.line_col(text, 1), (1, 2));
        assert_eq!(ix.line_col(text, 3), (2, 1));
        // 'é' is two bytes; the column after it counts characters.
        assert_eq!(ix.line_col(text, 7), (2, 4));
        assert_eq!(ix.line_col(text, 8), (3, 1));
        assert_eq!(ix.line_col(text, 9), (4, 1));
        assert_eq!(ix.line_col(text, 999), (4, 2));
    }
}
