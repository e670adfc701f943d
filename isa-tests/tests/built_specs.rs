//! The runtime was built from every spec the spec directory holds: each generation found there
//! (AMD's complete files layered over the excerpts on CI) is compiled into `isa-runtime`, with
//! the same file, release and instruction count. Together with the workspace build itself this
//! is the check that the generated code of every shared spec compiles.

use isa_gen::{model, specdir};

#[test]
fn every_spec_in_the_spec_directory_is_compiled_in() {
    let dir = specdir::xml_dir();
    let specs = model::load_layers(&dir.layers).expect("spec directory readable");
    assert!(!specs.is_empty(), "no spec in {}", dir.display());
    for spec in &specs {
        let Some(g) = spec.generation else { continue };
        let built = isa_runtime::spec(g.name()).unwrap_or_else(|| {
            panic!(
                "{g}: {} is in the spec directory but not compiled into isa-runtime",
                spec.path.display()
            )
        });
        let file = spec.path.file_name().unwrap().to_string_lossy();
        assert_eq!(built.source_file, file, "{g}");
        assert_eq!(
            Some(built.release_date),
            spec.release_date.as_deref(),
            "{g}"
        );
        assert_eq!(built.instructions.len(), spec.instructions.len(), "{g}");
        assert!(!built.forms.is_empty(), "{g}: no forms");
        eprintln!(
            "{g}: {} instructions, {} forms compiled in from {}",
            built.instructions.len(),
            built.forms.len(),
            spec.path.display()
        );
    }
}

#[test]
fn the_complete_files_win_over_the_excerpts_when_both_are_present() {
    let Some(full) = specdir::shared_dir("xml-full") else {
        eprintln!("skipped: no ../shared/spec-data/xml-full beside the workspace");
        return;
    };
    let dir = specdir::xml_dir();
    if !dir.layers.iter().any(|l| l.canonicalize().ok() == full.canonicalize().ok()) {
        eprintln!(
            "skipped: the spec directory ({}) does not include {}",
            dir.display(),
            full.display()
        );
        return;
    }
    for (path, g) in specdir::list_files(&full, "xml").unwrap() {
        let Some(g) = g else { continue };
        let complete = model::load_file(&path).unwrap();
        let built = isa_runtime::spec(g.name()).expect("compiled in");
        assert_eq!(
            built.instructions.len(),
            complete.instructions.len(),
            "{g}: the runtime was not built from the complete file {}",
            path.display()
        );
    }
}
