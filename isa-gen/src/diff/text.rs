//! The diff report for people: per comparison a heading, a count line, then the changes grouped
//! by kind (each group counted), one line per change:
//!
//! ```text
//! + S_MOVK_I32                                      added
//! - S_CBRANCH_SCC0                                  removed
//! > S_FF1_I32_B32 -> S_CTZ_I32_B32                  renamed
//! ~ S_ADD_U32 in ENC_SOP2 [default]: opcode 0 -> 1  changed
//! ```

use super::{Action, Change, Counts, Kind, Report, SpecDiff};
use std::fmt::Write as _;

/// Longest value printed on one line; longer ones (descriptions, layouts) are cut with `...`.
const MAX_VALUE: usize = 100;

fn counts_text(c: &Counts) -> String {
    let parts: Vec<String> = Action::ALL
        .iter()
        .filter(|&&a| c.get(a) > 0)
        .map(|&a| format!("{} {}", c.get(a), a.name()))
        .collect();
    parts.join(", ")
}

fn short(v: &str) -> String {
    let v = v.replace('\n', " ");
    if v.chars().count() <= MAX_VALUE {
        v
    } else {
        let cut: String = v.chars().take(MAX_VALUE).collect();
        format!("{cut}...")
    }
}

pub fn change_line(c: &Change) -> String {
    let old = c.old.as_deref().unwrap_or("");
    let new = c.new.as_deref().unwrap_or("");
    match c.action {
        Action::Added if !new.is_empty() => format!("+ {} = {}", c.item, short(new)),
        Action::Added => format!("+ {}", c.item),
        Action::Removed if !old.is_empty() && c.property.is_none() => {
            format!("- {} = {}", c.item, short(old))
        }
        Action::Removed => format!("- {}", c.item),
        Action::Renamed => format!("> {old} -> {new}"),
        Action::Changed => format!(
            "~ {}: {} {} -> {}",
            c.item,
            c.property.as_deref().unwrap_or("value"),
            short(old),
            short(new)
        ),
    }
}

pub fn render_diff(d: &SpecDiff, out: &mut String) {
    let _ = writeln!(out, "{}\n  -> {}", d.old.label(), d.new.label());
    for (side, s) in [("old", &d.old), ("new", &d.new)] {
        if s.errors > 0 {
            let _ = writeln!(
                out,
                "note: the {side} spec has {} error(s); items they affect may be missing (see `isa-gen check {}`)",
                s.errors, s.file
            );
        }
    }
    if d.is_empty() {
        let _ = writeln!(out, "no differences");
        return;
    }
    let summary: Vec<String> = d
        .counts
        .iter()
        .map(|(k, c)| format!("{} {}", c.total(), k.heading()))
        .collect();
    let _ = writeln!(
        out,
        "{} differences: {}",
        d.changes.len(),
        summary.join(", ")
    );
    for kind in Kind::ALL {
        let Some(c) = d.counts.get(&kind) else {
            continue;
        };
        let _ = writeln!(out, "\n{} ({}):", kind.heading(), counts_text(c));
        for ch in d.changes.iter().filter(|ch| ch.kind == kind) {
            let _ = writeln!(out, "  {}", change_line(ch));
        }
    }
}

pub fn render(report: &Report) -> String {
    let mut out = String::new();
    for (i, d) in report.comparisons.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_diff(d, &mut out);
    }
    for (what, sides) in [
        ("only in OLD", &report.only_old),
        ("only in NEW", &report.only_new),
    ] {
        for s in sides {
            let _ = writeln!(out, "\n{what}: {}", s.label());
        }
    }
    if report.is_empty() && report.comparisons.len() > 1 {
        let _ = writeln!(out, "\nno differences in any generation");
    }
    out
}
