//! `isa-gen check` says which release each file is (spec/releases.toml): the shared excerpts and
//! rebuilt full files are reported as partial or rebuilt, never as AMD's release; a file with a
//! ReleaseDate the project does not know asks for a review with `isa-gen diff`.

use isa_gen::releases::{self, DerivedKind, Identity};
use isa_gen::specdir;
mod common;
use common::isa_gen;

#[test]
fn an_unknown_release_date_is_a_warning_that_asks_for_a_diff() {
    let new = specdir::workspace_root().join("spec/fixtures/diff/new.xml");
    let (code, out, err) = isa_gen(&["check", new.to_str().unwrap()]);
    assert_eq!(code, 0, "warnings do not fail the check: {err}");
    assert!(out.contains("warning[release-unknown]"), "{out}");
    assert!(out.contains("isa-gen diff OLD"), "{out}");
    assert!(
        out.contains("cdna3: release: unknown release (cdna3, ReleaseDate 2026-03-15)"),
        "{out}"
    );
    let (_, json, _) = isa_gen(&["check", new.to_str().unwrap(), "--json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert!(v
        .as_array()
        .unwrap()
        .iter()
        .any(|d| d["code"] == "release-unknown" && d["severity"] == "warning"));
}

#[test]
fn a_fixture_claiming_a_known_release_is_reported_as_edited_or_partial() {
    let f = specdir::fixture_xml_dir().join("amdgpu_isa_cdna3.xml");
    let (_, out, _) = isa_gen(&["check", f.to_str().unwrap()]);
    assert!(out.contains("warning[release-edited]"), "{out}");
    assert!(out.contains("cdna3: release: edited or partial"), "{out}");
}

/// Every file in shared/spec-data is listed, with the right size and hash, and `check` calls it
/// partial (excerpts) or rebuilt (full files), not AMD's release.
#[test]
fn shared_files_are_known_and_reported_as_partial_or_rebuilt() {
    let list = releases::known().as_ref().expect("list parses");
    let mut seen = 0;
    for (sub, kind, code, verdict) in [
        (
            "xml-excerpts",
            DerivedKind::Excerpt,
            "release-partial",
            "partial, not AMD's file",
        ),
        (
            "xml-full",
            DerivedKind::Rebuilt,
            "release-rebuilt",
            "rebuilt, not AMD's file",
        ),
    ] {
        let Some(dir) = specdir::shared_dir(sub) else {
            eprintln!("skipped: no ../shared/spec-data/{sub}");
            continue;
        };
        for (path, _) in specdir::list_files(&dir, "xml").unwrap() {
            let spec = isa_gen::model::load_file(&path).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let facts = releases::FileFacts {
                size: bytes.len() as u64,
                sha256: releases::sha256_hex(&bytes),
                generation: spec.generation.map(|g| g.to_string()),
                release_date: spec.release_date.clone(),
            };
            match list.identify(&facts) {
                Identity::Derived(d) => {
                    assert_eq!(d.kind, kind, "{}", path.display());
                    assert_eq!(Some(&d.generation), facts.generation.as_ref());
                    assert_eq!(Some(&d.release_date), facts.release_date.as_ref());
                    assert_eq!(Some(&d.schema_version), spec.schema_version.as_ref());
                }
                other => panic!(
                    "{} is not listed in spec/releases.toml as a derived file: {other:?}",
                    path.display()
                ),
            }
            let (line, warning) = releases::check_spec(&spec).unwrap();
            assert!(line.starts_with(verdict), "{line}");
            assert_eq!(warning.unwrap().code, code);
            seen += 1;
        }
    }
    if seen > 0 {
        eprintln!("{seen} shared files identified");
    }
}
