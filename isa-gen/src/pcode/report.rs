//! The coverage report of `isa-gen pcode report`: per generation, how many entries are typed,
//! parsed only, prose or failed, which helpers they call, and the list of everything left.
//!
//! The JSON form is [`Report`] serialised with serde; its fields are documented here and in
//! spec/pcode/README.md ("Report JSON"). Field names are stable.

use super::corpus::{Class, Corpus, Entry, GenerationCorpus};
use super::helpers;
use super::prose::ProseKind;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write;

#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The directory read, and the rule that chose it (`environment`, `user_drop`, `shared`,
    /// `fixture`, `explicit`).
    pub dir: String,
    pub source: String,
    pub generations: Vec<GenerationReport>,
}

#[derive(Clone, Debug, Serialize)]
pub struct GenerationReport {
    /// `rdna4`, or the file stem when the file name names no generation.
    pub generation: String,
    pub file: String,
    pub entries: usize,
    /// Parsed and type-checked.
    pub typed: usize,
    /// Parsed; the type checker found errors (listed in `type_errors`).
    pub parsed: usize,
    /// Not pseudocode (listed in `prose_entries`).
    pub prose: usize,
    /// Code that does not parse and that the project has not accounted for (listed in
    /// `failures`).
    pub failed: usize,
    /// Entries that do not parse, accounted for by the project's override layer
    /// (spec/overrides): with its own pseudocode (`overridden`) or with the reason the
    /// instruction cannot run (`explained`); listed in `accounted`.
    pub overridden: usize,
    pub explained: usize,
    pub accounted: Vec<AccountedItem>,
    /// `entries - prose`.
    pub code_entries: usize,
    /// `(typed + parsed) / code_entries`, from 0 to 1.
    pub parse_rate: f64,
    /// `typed / code_entries`, from 0 to 1.
    pub type_rate: f64,
    /// Typed or parsed entries whose text ends with prose (an example) that was left out.
    pub trailing_prose: Vec<TrailingItem>,
    /// Every helper called by parsed or typed entries, by name and argument count.
    pub helpers: Vec<HelperUse>,
    pub prose_entries: Vec<ProseItem>,
    pub failures: Vec<FailureItem>,
    /// The type errors of `parsed` entries (all of them; an entry may have several).
    pub type_errors: Vec<TypeErrorItem>,
    /// Why entries are not typed, most common first: `parse:<cause>` for failed entries and
    /// `type:<code>` for parsed ones; `entries` counts each entry once per cause.
    pub causes: Vec<CauseCount>,
    /// Problems with the file's layout (text outside entries, malformed headers).
    pub layout_problems: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TrailingItem {
    pub name: String,
    pub kind: ProseKind,
    pub first_line: u32,
    pub last_line: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct HelperUse {
    pub name: String,
    pub arity: usize,
    /// Number of calls in the generation's file.
    pub calls: usize,
    /// Whether the helper table knows it (unknown helpers are type errors).
    pub known: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ProseItem {
    pub name: String,
    /// The file line that shows it is prose, and that line.
    pub line: u32,
    pub kind: ProseKind,
    pub text: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct FailureItem {
    pub name: String,
    pub line: u32,
    pub column: u32,
    /// `truncated`, `english-phrase`, `c-syntax` or `other`.
    pub cause: String,
    pub message: String,
    pub found: String,
    pub expected: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct AccountedItem {
    pub name: String,
    /// The line of AMD's entry.
    pub line: u32,
    /// Whether the override gives pseudocode (else it only says why the instruction cannot
    /// run).
    pub executable: bool,
    /// The override's file and line.
    pub location: String,
    pub reason: String,
}

/// What the project's override layer says about an entry: (executable, location, reason).
pub type OverrideLookup<'a> = dyn Fn(&str, &str) -> Option<(bool, String, String)> + 'a;

/// Moves the failures the override layer accounts for (`lookup(generation, name)`) from
/// `failures` to `accounted`.
pub fn account(report: &mut Report, lookup: &OverrideLookup) {
    for g in &mut report.generations {
        let failures = std::mem::take(&mut g.failures);
        for f in failures {
            match lookup(&g.generation, &f.name) {
                Some((executable, location, reason)) => {
                    g.failed -= 1;
                    if executable {
                        g.overridden += 1;
                    } else {
                        g.explained += 1;
                    }
                    g.accounted.push(AccountedItem {
                        name: f.name,
                        line: f.line,
                        executable,
                        location,
                        reason,
                    });
                }
                None => g.failures.push(f),
            }
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct TypeErrorItem {
    pub name: String,
    pub line: u32,
    pub column: u32,
    pub code: String,
    pub message: String,
    pub found: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct CauseCount {
    pub cause: String,
    pub entries: usize,
}

pub fn build(corpus: &Corpus, source: &str) -> Report {
    Report {
        dir: corpus.dir.display().to_string(),
        source: source.to_string(),
        generations: corpus.generations.iter().map(generation_report).collect(),
    }
}

fn generation_name(g: &GenerationCorpus) -> String {
    match g.generation {
        Some(gen) => gen.name().to_string(),
        None => g
            .file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default(),
    }
}

pub fn generation_report(g: &GenerationCorpus) -> GenerationReport {
    let mut r = GenerationReport {
        generation: generation_name(g),
        file: g.file.display().to_string(),
        entries: g.entries.len(),
        typed: 0,
        parsed: 0,
        prose: 0,
        failed: 0,
        overridden: 0,
        explained: 0,
        accounted: Vec::new(),
        code_entries: 0,
        parse_rate: 0.0,
        type_rate: 0.0,
        trailing_prose: Vec::new(),
        helpers: Vec::new(),
        prose_entries: Vec::new(),
        failures: Vec::new(),
        type_errors: Vec::new(),
        causes: Vec::new(),
        layout_problems: g
            .layout_problems
            .iter()
            .map(|p| format!("line {}: {}", p.line, p.message))
            .collect(),
    };
    let mut helpers: BTreeMap<(String, usize), usize> = BTreeMap::new();
    let mut causes: BTreeMap<String, usize> = BTreeMap::new();
    for e in &g.entries {
        for (name, arity) in &e.calls {
            *helpers.entry((name.clone(), *arity)).or_default() += 1;
        }
        if let Some(t) = &e.trailing {
            r.trailing_prose.push(TrailingItem {
                name: e.name.clone(),
                kind: t.kind,
                first_line: t.first_line,
                last_line: t.last_line,
            });
        }
        match &e.class {
            Class::Typed { .. } => r.typed += 1,
            Class::Parsed { errors, .. } => {
                r.parsed += 1;
                let mut codes: Vec<&str> = errors.iter().map(|d| d.code.as_str()).collect();
                codes.sort_unstable();
                codes.dedup();
                for c in codes {
                    *causes.entry(format!("type:{c}")).or_default() += 1;
                }
                r.type_errors.extend(errors.iter().map(|d| TypeErrorItem {
                    name: e.name.clone(),
                    line: d.line,
                    column: d.column,
                    code: d.code.clone(),
                    message: d.message.clone(),
                    found: d.found.clone(),
                }));
            }
            Class::Prose { kind, line, text } => {
                r.prose += 1;
                r.prose_entries.push(ProseItem {
                    name: e.name.clone(),
                    line: *line,
                    kind: *kind,
                    text: text.clone(),
                });
            }
            Class::Failed { error, cause } => {
                r.failed += 1;
                *causes.entry(format!("parse:{}", cause.name())).or_default() += 1;
                r.failures.push(FailureItem {
                    name: e.name.clone(),
                    line: error.line,
                    column: error.column,
                    cause: cause.name().to_string(),
                    message: error.message.clone(),
                    found: error.found.clone(),
                    expected: error.expected.clone(),
                });
            }
        }
    }
    r.code_entries = r.entries - r.prose;
    if r.code_entries > 0 {
        r.parse_rate = (r.typed + r.parsed) as f64 / r.code_entries as f64;
        r.type_rate = r.typed as f64 / r.code_entries as f64;
    }
    r.helpers = helpers
        .into_iter()
        .map(|((name, arity), calls)| {
            let known = helpers::lookup(&name).is_some();
            HelperUse {
                name,
                arity,
                calls,
                known,
            }
        })
        .collect();
    let mut causes: Vec<CauseCount> = causes
        .into_iter()
        .map(|(cause, entries)| CauseCount { cause, entries })
        .collect();
    causes.sort_by(|a, b| {
        b.entries
            .cmp(&a.entries)
            .then_with(|| a.cause.cmp(&b.cause))
    });
    r.causes = causes;
    r
}

/// The plain-text report: the table, then what is left per generation.
pub fn render_text(report: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "pseudocode from {} ({})", report.dir, report.source);
    let _ = writeln!(
        out,
        "{:<10} {:>7} {:>6} {:>6} {:>6} {:>6} {:>10} {:>9} {:>8} {:>7} {:>8}",
        "generation",
        "entries",
        "typed",
        "parsed",
        "prose",
        "failed",
        "overridden",
        "explained",
        "parsed%",
        "typed%",
        "helpers"
    );
    for g in &report.generations {
        let _ = writeln!(
            out,
            "{:<10} {:>7} {:>6} {:>6} {:>6} {:>6} {:>10} {:>9} {:>7.1}% {:>6.1}% {:>8}",
            g.generation,
            g.entries,
            g.typed,
            g.parsed,
            g.prose,
            g.failed,
            g.overridden,
            g.explained,
            100.0 * g.parse_rate,
            100.0 * g.type_rate,
            g.helpers
                .iter()
                .map(|h| &h.name)
                .collect::<std::collections::BTreeSet<_>>()
                .len()
        );
    }
    for g in &report.generations {
        let file = std::path::Path::new(&g.file)
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !g.causes.is_empty() {
            let _ = writeln!(out, "\n{}: causes of entries not typed", g.generation);
            for c in &g.causes {
                let _ = writeln!(out, "  {:>4}  {}", c.entries, c.cause);
            }
        }
        for f in &g.failures {
            let _ = writeln!(
                out,
                "{file}:{}:{}: {} [parse:{}] {}",
                f.line, f.column, f.name, f.cause, f.message
            );
        }
        for a in &g.accounted {
            let how = if a.executable {
                "overridden"
            } else {
                "not executable"
            };
            let _ = writeln!(
                out,
                "{file}:{}: {} [{how}: {}] {}",
                a.line, a.name, a.location, a.reason
            );
        }
        for t in &g.type_errors {
            let _ = writeln!(
                out,
                "{file}:{}:{}: {} [type:{}] {} (`{}`)",
                t.line, t.column, t.name, t.code, t.message, t.found
            );
        }
        for p in &g.prose_entries {
            let _ = writeln!(
                out,
                "{file}:{}: {} [prose:{}] {}",
                p.line,
                p.name,
                p.kind.name(),
                p.text
            );
        }
        for t in &g.trailing_prose {
            let _ = writeln!(
                out,
                "{file}:{}-{}: {} [trailing {}] left out after the code",
                t.first_line,
                t.last_line,
                t.name,
                t.kind.name()
            );
        }
        let unknown: Vec<String> = g
            .helpers
            .iter()
            .filter(|h| !h.known)
            .map(|h| format!("{}/{}", h.name, h.arity))
            .collect();
        if !unknown.is_empty() {
            let _ = writeln!(
                out,
                "{}: unknown helpers: {}",
                g.generation,
                unknown.join(", ")
            );
        }
        for l in &g.layout_problems {
            let _ = writeln!(out, "{file}: {l}");
        }
    }
    out
}

/// Entries of a generation by instruction name.
pub fn find<'c>(g: &'c GenerationCorpus, name: &str) -> Vec<&'c Entry> {
    g.entries
        .iter()
        .filter(|e| e.name.eq_ignore_ascii_case(name))
        .collect()
}
