//! Where an instruction's semantics come from, in order:
//!
//! 1. the project's override layer in pseudocode, `spec/overrides/<name>.pcode`, where
//!    `<name>` is a generation (`cdna3`), a family of generations (`rdna`, `cdna`) or `all`;
//!    the most specific file wins (hand-written Rust overrides and fixed behaviours are decided
//!    before this, see `builtin.rs`);
//! 2. AMD's pseudocode of the generation (`<gen>.pcode` in the directory `specdir::pcode_dir`
//!    resolves, when that is AMD's data and not the project's samples);
//! 3. AMD's pseudocode of the generation it borrows from, by instruction name, when the
//!    operand signatures agree (see [`borrow_source`]);
//! 4. the project's own pseudocode for the fixture kernels,
//!    `spec/fixtures/pcode-kernels/<gen>.pcode` (used on a fresh machine, where AMD's text is
//!    absent, and for names AMD's text lacks).

use crate::model::{self, Spec};
use crate::pcode::corpus::{classify_text, Entry, GenerationCorpus};
use crate::specdir::{self, Source};
use crate::Generation;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The generation whose pseudocode a generation without its own borrows, by name.
///
/// - rdna1 ← rdna2: the same ISA family (GFX10), RDNA2 adds instructions.
/// - rdna3 ← rdna3_5: GFX11 and GFX11.5 share encodings and most instructions.
/// - cdna1, cdna2, cdna3 ← cdna4: the GFX9 line; CDNA4 is the only CDNA corpus.
/// - cdna5 ← cdna4: the closest CDNA corpus, though CDNA5 (GFX12.5) moved to RDNA4-style
///   encodings; operand signatures are compared before anything is borrowed.
pub fn borrow_source(g: Generation) -> Option<Generation> {
    use Generation::*;
    match g {
        Rdna1 => Some(Rdna2),
        Rdna3 => Some(Rdna3_5),
        Cdna1 | Cdna2 | Cdna3 | Cdna5 => Some(Cdna4),
        Rdna2 | Rdna3_5 | Rdna4 | Cdna4 => None,
    }
}

/// Every generation `g` borrows from, in order: [`borrow_source`], then for CDNA5 the RDNA4
/// text, for the instructions CDNA5 shares with RDNA4 and CDNA4 lacks (`DS_BPERMUTE_FI_B32`);
/// operand signatures are compared there too.
pub fn borrow_sources(g: Generation) -> Vec<Generation> {
    let mut v: Vec<Generation> = borrow_source(g).into_iter().collect();
    if g == Generation::Cdna5 {
        v.push(Generation::Rdna4);
    }
    v
}

/// An override entry's origin and reason.
#[derive(Clone, Debug)]
pub struct OverrideEntry {
    /// `spec/overrides/all.pcode:12`.
    pub location: String,
    pub reason: String,
    pub scope: String,
    /// `false` for an entry that only says why the instruction cannot run (`// not
    /// executable: ...`, no code): it accounts for AMD's entry without giving semantics.
    pub executable: bool,
    pub raw: crate::pcode::corpus::RawEntry,
}

/// Everything the executor generator reads besides the XML spec.
pub struct Semantics {
    /// Where AMD's pseudocode was read from, or why it is absent.
    pub pcode_source: String,
    /// AMD's pseudocode per generation.
    pub amd: BTreeMap<Generation, GenerationCorpus>,
    /// The project's override entries.
    pub overrides: Vec<OverrideEntry>,
    /// Problems reading the override layer (an entry without a reason, a file that does not
    /// parse): reported, never ignored.
    pub problems: Vec<String>,
    /// The project's kernel pseudocode per generation.
    pub kernels: BTreeMap<Generation, GenerationCorpus>,
    /// XML specs of the generations others borrow from, for signature comparison.
    xml_dir: specdir::SpecDir,
    borrow_specs: std::sync::Mutex<BTreeMap<Generation, Option<&'static Spec>>>,
}

pub fn overrides_dir() -> PathBuf {
    specdir::workspace_root().join("spec/overrides")
}

pub fn kernels_dir() -> PathBuf {
    specdir::workspace_root().join("spec/fixtures/pcode-kernels")
}

impl Semantics {
    /// Reads AMD's pseudocode from the resolved directory (not the project's samples), the
    /// override layer and the kernel pseudocode.
    pub fn load() -> Semantics {
        let dir = specdir::pcode_dir();
        let amd_dir = (dir.source != Source::Fixture).then(|| dir.path.clone());
        Semantics::load_from(
            amd_dir.as_deref(),
            &overrides_dir(),
            &kernels_dir(),
            &specdir::xml_dir(),
        )
    }

    /// As [`Semantics::load`], from explicit directories (`amd = None`: no AMD text, as on a
    /// fresh machine); `xml` is where the specs of borrowed-from generations are read.
    pub fn load_from(
        amd: Option<&Path>,
        overrides: &Path,
        kernels: &Path,
        xml: &specdir::SpecDir,
    ) -> Semantics {
        let mut s = Semantics {
            pcode_source: String::new(),
            amd: BTreeMap::new(),
            overrides: Vec::new(),
            problems: Vec::new(),
            kernels: BTreeMap::new(),
            xml_dir: xml.clone(),
            borrow_specs: Default::default(),
        };
        match amd {
            Some(d) => match crate::pcode::load_corpus(d) {
                Ok(c) => {
                    for g in c.generations {
                        if let Some(gen) = g.generation {
                            s.amd.insert(gen, g);
                        }
                    }
                    let gens: Vec<&str> = s.amd.keys().map(|g| g.name()).collect();
                    s.pcode_source = format!(
                        "AMD's pseudocode from {} ({})",
                        d.display(),
                        gens.join(", ")
                    );
                }
                Err(e) => {
                    s.pcode_source = format!(
                        "AMD's pseudocode could not be read from {}: {e}",
                        d.display()
                    )
                }
            },
            None => {
                s.pcode_source =
                    "no AMD pseudocode found (fixture kernels' own pseudocode only)".to_string()
            }
        }
        s.read_overrides(overrides);
        if let Ok(files) = specdir::list_files(kernels, "pcode") {
            for (path, g) in files {
                let Some(g) = g else {
                    s.problems.push(format!(
                        "{}: the file name names no generation",
                        path.display()
                    ));
                    continue;
                };
                match std::fs::read_to_string(&path) {
                    Ok(text) => {
                        let c = classify_text(&text, &path, Some(g));
                        for p in &c.layout_problems {
                            s.problems.push(format!(
                                "{}:{}: {}",
                                path.display(),
                                p.line,
                                p.message
                            ));
                        }
                        s.kernels.insert(g, c);
                    }
                    Err(e) => s.problems.push(format!("{}: {e}", path.display())),
                }
            }
        }
        s
    }

    fn read_overrides(&mut self, dir: &Path) {
        let Ok(files) = specdir::list_files(dir, "pcode") else {
            return;
        };
        for (path, _) in files {
            let scope = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("")
                .to_string();
            if !is_scope(&scope) {
                self.problems.push(format!(
                    "{}: the file name must be a generation, `rdna`, `cdna` or `all`",
                    path.display()
                ));
                continue;
            }
            let text = match std::fs::read_to_string(&path) {
                Ok(t) => t,
                Err(e) => {
                    self.problems.push(format!("{}: {e}", path.display()));
                    continue;
                }
            };
            let (raw, layout) = crate::pcode::corpus::split_entries(&text);
            for p in layout {
                self.problems
                    .push(format!("{}:{}: {}", path.display(), p.line, p.message));
            }
            let shown = display_path(&path);
            for r in raw {
                let reason = r.text.lines().find_map(|l| {
                    let l = l.trim();
                    l.strip_prefix("// reason:")
                        .map(|s| (s.trim().to_string(), true))
                        .or_else(|| {
                            l.strip_prefix("// not executable:")
                                .map(|s| (s.trim().to_string(), false))
                        })
                });
                let location = format!("{shown}:{}", r.header_line);
                match reason {
                    Some((reason, executable)) if !reason.is_empty() => {
                        self.overrides.push(OverrideEntry {
                            location,
                            reason,
                            scope: scope.clone(),
                            executable,
                            raw: r,
                        })
                    }
                    _ => self.problems.push(format!(
                        "{location}: override of {} has no `// reason:` or `// not executable:` line",
                        r.name
                    )),
                }
            }
        }
    }

    /// The override entry for `name` in generation `g`, most specific scope first: the
    /// generation, the generation it borrows from (its overrides come with its semantics),
    /// `rdna`/`cdna`, `all`.
    pub fn override_for(&self, g: Generation, name: &str) -> Option<&OverrideEntry> {
        let family = if g.is_cdna() { "cdna" } else { "rdna" };
        let borrowed = borrow_source(g).map(|s| s.name()).unwrap_or(g.name());
        [g.name(), borrowed, family, "all"]
            .into_iter()
            .find_map(|scope| {
                self.overrides
                    .iter()
                    .find(|o| o.scope == scope && o.raw.name.eq_ignore_ascii_case(name))
            })
    }

    pub fn amd_entry(&self, g: Generation, name: &str) -> Option<&Entry> {
        find(self.amd.get(&g)?, name)
    }

    pub fn kernel_entry(&self, g: Generation, name: &str) -> Option<&Entry> {
        find(self.kernels.get(&g)?, name)
    }

    /// The XML spec of a borrow source, loaded once (leaked: it lives as long as the
    /// process, like the cache of [`semantics`]).
    pub fn source_spec(&self, g: Generation) -> Option<&'static Spec> {
        let mut cache = self.borrow_specs.lock().unwrap_or_else(|e| e.into_inner());
        *cache.entry(g).or_insert_with(|| {
            let path = self.xml_dir.file_of(g, "xml")?;
            model::load_file(&path)
                .ok()
                .map(|s| &*Box::leak(Box::new(s)))
        })
    }
}

/// Moves the entries of `report` that do not parse but that the project's override layer
/// answers for (its own pseudocode, or a reason) from its failures to its accounted entries.
pub fn account_overrides(report: &mut crate::pcode::report::Report) {
    // Only the override layer is consulted: no AMD text, no borrowing.
    let no_xml = specdir::SpecDir::single(specdir::fixture_xml_dir(), specdir::Source::Fixture);
    let sem = Semantics::load_from(None, &overrides_dir(), &kernels_dir(), &no_xml);
    crate::pcode::report::account(report, &|gen, name| {
        let g = Generation::from_name(gen)?;
        sem.override_for(g, name)
            .map(|o| (o.executable, o.location.clone(), o.reason.clone()))
    });
}

fn is_scope(s: &str) -> bool {
    matches!(s, "all" | "rdna" | "cdna") || Generation::from_name(s).is_some_and(|g| g.name() == s)
}

fn find<'a>(c: &'a GenerationCorpus, name: &str) -> Option<&'a Entry> {
    c.entries.iter().find(|e| e.name.eq_ignore_ascii_case(name))
}

/// A path shown relative to the workspace (`spec/overrides/all.pcode`).
pub fn display_path(p: &Path) -> String {
    let root = specdir::workspace_root();
    p.strip_prefix(&root)
        .map(|r| r.display().to_string())
        .unwrap_or_else(|_| p.display().to_string())
}

/// The operand signature the borrowing check compares: per explicit operand of the
/// instruction's first plain encoding (literal fields left out), direction, size and data
/// format.
pub fn signature(
    spec: &model::Spec,
    ins: &model::Instruction,
) -> Option<Vec<(bool, bool, u32, String)>> {
    let ie = ins
        .encodings
        .iter()
        .find(|e| {
            e.encoding.is_some_and(|k| {
                let (_, v) = super::binding::classify(&spec.encodings[k]);
                v == super::binding::Variant::Plain || v == super::binding::Variant::Vop3p
            })
        })
        .or_else(|| ins.encodings.first())?;
    Some(
        ie.operands
            .iter()
            .filter(|o| {
                o.field_name
                    .as_deref()
                    .is_some_and(|f| !f.starts_with("LITERAL"))
            })
            .map(|o| {
                (
                    o.input,
                    o.output,
                    o.size,
                    o.data_format_name
                        .clone()
                        .unwrap_or_default()
                        .trim_start_matches("FMT_NUM_")
                        .to_string(),
                )
            })
            .collect(),
    )
}

/// Why two signatures differ (None when they agree).
pub fn signature_difference(
    ours: &[(bool, bool, u32, String)],
    theirs: &[(bool, bool, u32, String)],
) -> Option<String> {
    if ours.len() != theirs.len() {
        return Some(format!(
            "{} explicit operands here, {} there",
            ours.len(),
            theirs.len()
        ));
    }
    for (k, (a, b)) in ours.iter().zip(theirs).enumerate() {
        if (a.0, a.1) != (b.0, b.1) {
            return Some(format!("operand {k} is {} here, {} there", dir(a), dir(b)));
        }
        if a.2 != b.2 {
            return Some(format!("operand {k} has {} bits here, {} there", a.2, b.2));
        }
        if a.3 != b.3 && !(a.3 == "ANY" || b.3 == "ANY") {
            return Some(format!("operand {k} is {} here, {} there", a.3, b.3));
        }
    }
    None
}

fn dir(x: &(bool, bool, u32, String)) -> &'static str {
    match (x.0, x.1) {
        (true, true) => "input and output",
        (true, false) => "an input",
        (false, true) => "an output",
        _ => "neither input nor output",
    }
}
