//! Which release a spec file is: the AMD files the project is tested with, listed in
//! `spec/releases.toml` (compiled in), and the identification `isa-gen check` prints.
//!
//! A file is matched by size and sha256 first (AMD's release, or a known excerpt or rebuilt copy
//! of one), then by generation and ReleaseDate: a different file claiming a known ReleaseDate was
//! edited or is partial, and a ReleaseDate the project does not know is a new drop whose effect
//! should be reviewed with `isa-gen diff` before the generated code is trusted.

use crate::diag::{Diagnostic, LineIndex, Location, Severity};
use crate::model::Spec;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::OnceLock;

/// The text of `spec/releases.toml`, as built into this binary.
pub const RELEASES_TOML: &str = include_str!("../../spec/releases.toml");

/// One of AMD's published files.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Release {
    pub generation: String,
    pub release_date: String,
    pub schema_version: String,
    /// AMD's file name.
    pub file: String,
    /// Size in bytes of AMD's file, where recorded.
    pub size: Option<u64>,
    /// sha256 of AMD's file (lower-case hex), where recorded.
    pub sha256: Option<String>,
    pub source: Option<String>,
}

/// What a derived file is.
#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum DerivedKind {
    /// A slice: whole elements copied from AMD's file, most left out.
    Excerpt,
    /// Complete, but re-serialized (and, for the shared full files, without descriptions).
    Rebuilt,
}

/// A file derived from a release that the project's tests use (never AMD's release itself).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Derived {
    pub kind: DerivedKind,
    pub generation: String,
    pub release_date: String,
    pub schema_version: String,
    /// Where the project's machines keep it, relative to `shared/spec-data`.
    pub file: String,
    pub size: u64,
    pub sha256: String,
    pub note: String,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Releases {
    #[serde(default)]
    pub release: Vec<Release>,
    #[serde(default)]
    pub derived: Vec<Derived>,
}

impl Releases {
    pub fn parse(text: &str) -> Result<Releases, String> {
        toml::from_str(text).map_err(|e| format!("spec/releases.toml: {e}"))
    }
}

/// The releases built into this binary. A broken list is a bug of the project, reported by its
/// tests; here it reads as an empty list with the reason.
pub fn known() -> &'static Result<Releases, String> {
    static KNOWN: OnceLock<Result<Releases, String>> = OnceLock::new();
    KNOWN.get_or_init(|| Releases::parse(RELEASES_TOML))
}

/// Lower-case hex sha256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What a file is, by the list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Identity<'a> {
    /// AMD's file, byte for byte.
    Release(&'a Release),
    /// A known excerpt or rebuilt copy of a release.
    Derived(&'a Derived),
    /// Claims a known release, but is not AMD's file (its hash is recorded and differs).
    Edited(&'a Release),
    /// Claims a known release whose hash the project does not record.
    Unverified(&'a Release),
    /// A release the project was not tested with.
    Unknown,
}

/// The facts of one file that identification uses.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileFacts {
    pub size: u64,
    pub sha256: String,
    pub generation: Option<String>,
    pub release_date: Option<String>,
}

impl Releases {
    pub fn identify(&self, f: &FileFacts) -> Identity<'_> {
        let same = |size: Option<u64>, sha: Option<&str>| {
            size.unwrap_or(f.size) == f.size && sha == Some(f.sha256.as_str())
        };
        if let Some(r) = self
            .release
            .iter()
            .find(|r| same(r.size, r.sha256.as_deref()))
        {
            return Identity::Release(r);
        }
        if let Some(d) = self
            .derived
            .iter()
            .find(|d| same(Some(d.size), Some(&d.sha256)))
        {
            return Identity::Derived(d);
        }
        let claimed = self.release.iter().find(|r| {
            Some(&r.generation) == f.generation.as_ref()
                && Some(&r.release_date) == f.release_date.as_ref()
        });
        match claimed {
            Some(r) if r.sha256.is_some() => Identity::Edited(r),
            Some(r) => Identity::Unverified(r),
            None => Identity::Unknown,
        }
    }
}

fn amd_file_text(r: &Release) -> String {
    match (&r.size, &r.sha256) {
        (Some(size), Some(sha)) => format!("{size} bytes, sha256 {sha}"),
        (None, Some(sha)) => format!("sha256 {sha}"),
        _ => "size and hash not recorded".into(),
    }
}

/// What `isa-gen check` says about the file: a short verdict, and the warning it raises (none
/// for a known AMD release) with the details.
pub fn describe(
    id: &Identity<'_>,
    f: &FileFacts,
    file: &Path,
) -> (String, Option<(&'static str, String)>) {
    let this = format!("{} bytes, sha256 {}", f.size, f.sha256);
    let date = f.release_date.as_deref().unwrap_or("?");
    let generation = f.generation.as_deref().unwrap_or("?");
    match id {
        Identity::Release(r) => (
            format!(
                "a known release: AMD's {} file of {} (SchemaVersion {}), {this}",
                r.generation, r.release_date, r.schema_version
            ),
            None,
        ),
        Identity::Derived(d) => {
            let (code, verdict, what) = match d.kind {
                DerivedKind::Excerpt => ("release-partial", "partial", "a known excerpt"),
                DerivedKind::Rebuilt => ("release-rebuilt", "rebuilt", "a known rebuilt copy"),
            };
            (
                format!("{verdict}, not AMD's file ({what} of the {} release of {})", d.generation, d.release_date),
                Some((
                    code,
                    format!(
                        "not AMD's file: {what} of AMD's {} release of {} ({}), {this}",
                        d.generation, d.release_date, d.note
                    ),
                )),
            )
        }
        Identity::Edited(r) => (
            format!("edited or partial (claims the {} release of {})", r.generation, r.release_date),
            Some((
                "release-edited",
                format!(
                    "claims AMD's {} release of {} but is a different file ({this}; AMD's: {}): edited or partial",
                    r.generation,
                    r.release_date,
                    amd_file_text(r)
                ),
            )),
        ),
        Identity::Unverified(r) => (
            format!("unverified (claims the {} release of {}, whose hash is not recorded)", r.generation, r.release_date),
            Some((
                "release-unverified",
                format!(
                    "claims AMD's {} release of {}, whose size and hash the project does not record, so it cannot tell AMD's file from an edited or partial one ({this})",
                    r.generation, r.release_date
                ),
            )),
        ),
        Identity::Unknown => (
            format!("unknown release ({generation}, ReleaseDate {date})"),
            Some((
                "release-unknown",
                format!(
                    "{generation} ReleaseDate {date} is not a release the project was tested with ({this}): compare it with the file you used before (`isa-gen diff OLD {}`), regenerate, and review the regeneration report before trusting the generated code",
                    file.display()
                ),
            )),
        ),
    }
}

/// Identifies a loaded spec's file: the line to print and, unless it is a known AMD release, a
/// warning located at its `<ReleaseDate>`. Fails only when the file cannot be read again.
pub fn check_spec(spec: &Spec) -> Result<(String, Option<Diagnostic>), String> {
    let bytes = std::fs::read(&spec.path)
        .map_err(|e| format!("{}: cannot read: {e}", spec.path.display()))?;
    let releases = match known() {
        Ok(r) => r,
        Err(e) => return Err(e.clone()),
    };
    let facts = FileFacts {
        size: bytes.len() as u64,
        sha256: sha256_hex(&bytes),
        generation: spec.generation.map(|g| g.to_string()),
        release_date: spec.release_date.clone(),
    };
    let id = releases.identify(&facts);
    let (line, warning) = describe(&id, &facts, &spec.path);
    let diagnostic = warning.map(|(code, message)| {
        let text = String::from_utf8_lossy(&bytes);
        let offset = text.find("<ReleaseDate>").unwrap_or(0);
        let (line, column) = LineIndex::new(&text).line_col(&text, offset);
        Diagnostic {
            severity: Severity::Warning,
            code,
            location: Location {
                file: spec.path.clone(),
                line,
                column,
            },
            message,
        }
    });
    Ok((line, diagnostic))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Generation;

    fn list() -> &'static Releases {
        known().as_ref().expect("spec/releases.toml parses")
    }

    fn is_date(s: &str) -> bool {
        let b = s.as_bytes();
        b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && s.chars()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit())
    }

    fn is_sha256(s: &str) -> bool {
        s.len() == 64 && s.chars().all(|c| matches!(c, '0'..='9' | 'a'..='f'))
    }

    #[test]
    fn the_list_is_well_formed() {
        let l = list();
        assert!(l.release.iter().any(|r| r.sha256.is_some()));
        for r in &l.release {
            assert!(Generation::from_name(&r.generation).is_some(), "{r:?}");
            assert!(is_date(&r.release_date), "{r:?}");
            assert!(r.sha256.iter().all(|s| is_sha256(s)), "{r:?}");
            assert_eq!(r.sha256.is_some(), r.size.is_some(), "{r:?}");
        }
        for d in &l.derived {
            assert!(Generation::from_name(&d.generation).is_some(), "{d:?}");
            assert!(is_sha256(&d.sha256), "{d:?}");
            // Every derived file comes from a listed release.
            assert!(
                l.release
                    .iter()
                    .any(|r| r.generation == d.generation && r.release_date == d.release_date),
                "{d:?}"
            );
        }
        assert!(Releases::parse("[[release]]\ngeneration = 3\n").is_err());
        assert!(Releases::parse("[[release]]\nunexpected = 1\n").is_err());
    }

    #[test]
    fn files_are_identified_by_hash_then_by_release_date() {
        let l = list();
        let amd = l.release.iter().find(|r| r.sha256.is_some()).unwrap();
        let facts = |size, sha: &str, g: &str, date: &str| FileFacts {
            size,
            sha256: sha.to_string(),
            generation: Some(g.to_string()),
            release_date: Some(date.to_string()),
        };
        let exact = facts(
            amd.size.unwrap(),
            amd.sha256.as_deref().unwrap(),
            &amd.generation,
            &amd.release_date,
        );
        assert_eq!(l.identify(&exact), Identity::Release(amd));
        let (verdict, warning) = describe(&l.identify(&exact), &exact, Path::new("x.xml"));
        assert!(verdict.starts_with("a known release"), "{verdict}");
        assert!(warning.is_none());
        // Same release date, other bytes: edited or partial.
        let edited = facts(1, &"0".repeat(64), &amd.generation, &amd.release_date);
        assert_eq!(l.identify(&edited), Identity::Edited(amd));
        let (_, warning) = describe(&l.identify(&edited), &edited, Path::new("x.xml"));
        assert_eq!(warning.unwrap().0, "release-edited");
        // A hash that matches but a size that does not is not the release.
        let wrong_size = facts(
            amd.size.unwrap() + 1,
            amd.sha256.as_deref().unwrap(),
            &amd.generation,
            &amd.release_date,
        );
        assert_eq!(l.identify(&wrong_size), Identity::Edited(amd));
        // A date the project does not know.
        let new = facts(1, &"0".repeat(64), &amd.generation, "2099-01-01");
        assert_eq!(l.identify(&new), Identity::Unknown);
        let (_, warning) = describe(&l.identify(&new), &new, Path::new("new.xml"));
        let (code, message) = warning.unwrap();
        assert_eq!(code, "release-unknown");
        assert!(message.contains("isa-gen diff OLD new.xml"), "{message}");
        // A derived file is reported as such, never as the release.
        let d = &l.derived[0];
        let derived = facts(d.size, &d.sha256, &d.generation, &d.release_date);
        assert_eq!(l.identify(&derived), Identity::Derived(d));
        // A known release without a recorded hash cannot be confirmed.
        if let Some(r) = l.release.iter().find(|r| r.sha256.is_none()) {
            let f = facts(1, &"0".repeat(64), &r.generation, &r.release_date);
            assert_eq!(l.identify(&f), Identity::Unverified(r));
        }
    }

    #[test]
    fn sha256_is_the_standard_digest() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
