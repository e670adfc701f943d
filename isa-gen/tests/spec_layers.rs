//! A spec directory made of several layers (`AMD_ISA_SPEC_DIR=full:excerpts`): for a
//! generation found in more than one layer the first wins; the others fill in the rest.

use isa_gen::model;
use isa_gen::specdir::{self, Source, SpecDir};
use isa_gen::Generation;
use std::path::{Path, PathBuf};

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("isa-gen-layers-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn fixture(g: &str) -> PathBuf {
    specdir::fixture_xml_dir().join(format!("amdgpu_isa_{g}.xml"))
}

/// The rdna3 fixture with one instruction fewer, so the two layers' files can be told apart.
fn trimmed_rdna3(dir: &Path) -> usize {
    let text = std::fs::read_to_string(fixture("rdna3")).unwrap();
    let start = text.find("<Instruction>").unwrap();
    let end = start + text[start..].find("</Instruction>").unwrap() + "</Instruction>".len();
    let trimmed = format!("{}{}", &text[..start], &text[end..]);
    std::fs::write(dir.join("amdgpu_isa_rdna3.xml"), trimmed).unwrap();
    model::load_file(&fixture("rdna3"))
        .unwrap()
        .instructions
        .len()
        - 1
}

#[test]
fn the_first_layer_holding_a_generation_wins() {
    let (top, bottom) = (scratch("top"), scratch("bottom"));
    let trimmed = trimmed_rdna3(&top);
    for g in ["rdna3", "cdna3"] {
        std::fs::copy(fixture(g), bottom.join(format!("amdgpu_isa_{g}.xml"))).unwrap();
    }
    let specs = model::load_layers(&[top.clone(), bottom.clone()]).unwrap();
    let gens: Vec<_> = specs.iter().map(|s| s.generation).collect();
    assert_eq!(gens, vec![Some(Generation::Rdna3), Some(Generation::Cdna3)]);
    let rdna3 = &specs[0];
    assert_eq!(rdna3.path, top.join("amdgpu_isa_rdna3.xml"));
    assert_eq!(rdna3.instructions.len(), trimmed);
    assert_eq!(specs[1].path, bottom.join("amdgpu_isa_cdna3.xml"));

    // The other order picks the other file.
    let specs = model::load_layers(&[bottom.clone(), top.clone()]).unwrap();
    assert_eq!(specs[0].path, bottom.join("amdgpu_isa_rdna3.xml"));
    assert_eq!(specs[0].instructions.len(), trimmed + 1);
}

#[test]
fn a_colon_separated_list_becomes_layers_in_order() {
    let layers = specdir::split_layers(std::ffi::OsStr::new("/a/full::/b/excerpts:"));
    assert_eq!(
        layers,
        vec![PathBuf::from("/a/full"), PathBuf::from("/b/excerpts")]
    );
    let dir = SpecDir::layered(layers, Source::Explicit);
    assert_eq!(dir.path, PathBuf::from("/a/full"));
    assert_eq!(dir.display(), "/a/full:/b/excerpts");
}

#[test]
fn file_of_looks_through_the_layers_in_order() {
    let (top, bottom) = (scratch("find-top"), scratch("find-bottom"));
    std::fs::copy(fixture("cdna3"), bottom.join("amdgpu_isa_cdna3.xml")).unwrap();
    std::fs::copy(fixture("rdna3"), top.join("amdgpu_isa_rdna3.xml")).unwrap();
    std::fs::copy(fixture("rdna3"), bottom.join("amdgpu_isa_rdna3.xml")).unwrap();
    let dir = SpecDir::layered(vec![top.clone(), bottom.clone()], Source::Explicit);
    assert_eq!(
        dir.file_of(Generation::Cdna3, "xml"),
        Some(bottom.join("amdgpu_isa_cdna3.xml"))
    );
    assert_eq!(
        dir.file_of(Generation::Rdna3, "xml"),
        Some(top.join("amdgpu_isa_rdna3.xml"))
    );
    assert_eq!(dir.file_of(Generation::Rdna1, "xml"), None);
}

#[test]
fn a_missing_layer_is_an_error_naming_it() {
    let missing = std::env::temp_dir().join("isa-gen-layers-no-such-dir");
    let err = model::load_layers(&[specdir::fixture_xml_dir(), missing.clone()]).unwrap_err();
    assert_eq!(err.path, missing);
}
