//! Where specification files are read from.
//!
//! AMD's files are never part of the project. They are found, in this order:
//! 1. the directories named by an environment variable (`AMD_ISA_SPEC_DIR` for the XML,
//!    `AMD_ISA_PCODE_DIR` for the pseudocode), several separated by `:`;
//! 2. `spec/xml/` or `spec/pcode/` in the workspace, where a user drops AMD's files;
//! 3. `../shared/spec-data/xml-full` then `xml-excerpts` (or `../shared/spec-data/pcode`)
//!    beside the workspace, when present (the development machines and CI have it);
//! 4. the project's own fixtures in `spec/fixtures/xml` and `spec/fixtures/pcode`.
//!
//! A spec directory is a list of layers: for a generation found in several, the first layer
//! holding it wins, so a complete file dropped in one directory covers an excerpt in another.

use crate::generation::Generation;
use serde::Serialize;
use std::path::{Path, PathBuf};

pub const SPEC_DIR_VAR: &str = "AMD_ISA_SPEC_DIR";
pub const PCODE_DIR_VAR: &str = "AMD_ISA_PCODE_DIR";

/// Which rule picked a directory; printed so a user knows which data a run used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    Environment,
    UserDrop,
    Shared,
    Fixture,
    Explicit,
}

#[derive(Clone, Debug, Serialize)]
pub struct SpecDir {
    /// The first layer (where a user's files are looked for first).
    pub path: PathBuf,
    /// Every layer in order of precedence, `path` first.
    pub layers: Vec<PathBuf>,
    pub source: Source,
}

impl SpecDir {
    /// One directory.
    pub fn single(path: PathBuf, source: Source) -> SpecDir {
        SpecDir::layered(vec![path], source)
    }

    /// Several directories, the first taking precedence (`layers` must not be empty; an empty
    /// list stands for the current directory).
    pub fn layered(mut layers: Vec<PathBuf>, source: Source) -> SpecDir {
        if layers.is_empty() {
            layers.push(PathBuf::from("."));
        }
        SpecDir {
            path: layers[0].clone(),
            layers,
            source,
        }
    }

    /// The layers as a user writes them (`a:b`).
    pub fn display(&self) -> String {
        let parts: Vec<String> = self
            .layers
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        parts.join(":")
    }

    /// The file of generation `g` in the first layer that has one by AMD's file name.
    pub fn file_of(&self, g: Generation, ext: &str) -> Option<PathBuf> {
        self.layers
            .iter()
            .map(|d| d.join(format!("amdgpu_isa_{}.{ext}", g.name())))
            .find(|p| p.is_file())
    }
}

/// Splits a `:`-separated list of directories (empty parts are ignored).
pub fn split_layers(value: &std::ffi::OsStr) -> Vec<PathBuf> {
    std::env::split_paths(value)
        .filter(|p| !p.as_os_str().is_empty())
        .collect()
}

/// The workspace root: the directory holding `spec/`. Found from this crate's manifest at build
/// time, so it works from any current directory inside or outside the workspace.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."))
}

pub fn fixture_xml_dir() -> PathBuf {
    workspace_root().join("spec/fixtures/xml")
}

pub fn fixture_pcode_dir() -> PathBuf {
    workspace_root().join("spec/fixtures/pcode")
}

/// `../shared/spec-data/<sub>` beside the workspace, if it exists.
pub fn shared_dir(sub: &str) -> Option<PathBuf> {
    let p = workspace_root().join("../shared/spec-data").join(sub);
    p.is_dir().then(|| p.canonicalize().unwrap_or(p))
}

fn has_files_with_ext(dir: &Path, ext: &str) -> bool {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.flatten()
                .any(|e| e.path().extension().is_some_and(|x| x == ext))
        })
        .unwrap_or(false)
}

fn resolve(var: &str, user_drop: &str, shared: &[&str], fixture: PathBuf, ext: &str) -> SpecDir {
    if let Some(v) = std::env::var_os(var).filter(|v| !v.is_empty()) {
        return SpecDir::layered(split_layers(&v), Source::Environment);
    }
    let drop = workspace_root().join(user_drop);
    if has_files_with_ext(&drop, ext) {
        return SpecDir::single(drop, Source::UserDrop);
    }
    let shared: Vec<PathBuf> = shared
        .iter()
        .filter_map(|sub| shared_dir(sub))
        .filter(|p| has_files_with_ext(p, ext))
        .collect();
    if !shared.is_empty() {
        return SpecDir::layered(shared, Source::Shared);
    }
    SpecDir::single(fixture, Source::Fixture)
}

/// The directories of AMD ISA XML files to use.
pub fn xml_dir() -> SpecDir {
    resolve(
        SPEC_DIR_VAR,
        "spec/xml",
        &["xml-full", "xml-excerpts"],
        fixture_xml_dir(),
        "xml",
    )
}

/// The directory of pseudocode files (`<gen>.pcode`) to use.
pub fn pcode_dir() -> SpecDir {
    resolve(
        PCODE_DIR_VAR,
        "spec/pcode",
        &["pcode"],
        fixture_pcode_dir(),
        "pcode",
    )
}

/// AMD's real data only (environment, user drop or shared), never the fixtures: for tests that
/// are meaningful only on AMD's data. `None` means such tests must say they were skipped.
pub fn real_xml_dir() -> Option<SpecDir> {
    Some(xml_dir()).filter(|d| d.source != Source::Fixture)
}

pub fn real_pcode_dir() -> Option<SpecDir> {
    Some(pcode_dir()).filter(|d| d.source != Source::Fixture)
}

/// Files in `dir` with extension `ext`, sorted by name, each with the generation its name
/// suggests (the XML loader prefers `ArchitectureName` over the file name).
pub fn list_files(dir: &Path, ext: &str) -> std::io::Result<Vec<(PathBuf, Option<Generation>)>> {
    let mut files: Vec<_> = std::fs::read_dir(dir)?
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == ext))
        .collect();
    files.sort();
    Ok(files
        .into_iter()
        .map(|p| {
            let g = p
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(Generation::from_file_name);
            (p, g)
        })
        .collect())
}
