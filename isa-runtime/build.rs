//! Generates one module per enabled generation into OUT_DIR from the spec directory that
//! `isa_gen::specdir` resolves ($AMD_ISA_SPEC_DIR, spec/xml, ../shared/spec-data/xml-excerpts,
//! then the bundled fixtures). A generation without a spec gets an empty module that says why.

use isa_gen::{model, specdir, Generation};
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed={}", specdir::SPEC_DIR_VAR);
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let dir = specdir::xml_dir();
    println!("cargo:rerun-if-changed={}", dir.path.display());
    let specs = match model::load_dir(&dir.path) {
        Ok(s) => s,
        Err(e) => {
            println!("cargo:warning=cannot load specs: {e}");
            Vec::new()
        }
    };
    for s in &specs {
        println!("cargo:rerun-if-changed={}", s.path.display());
    }
    for g in Generation::ALL {
        let feature = format!("CARGO_FEATURE_{}", g.name().to_ascii_uppercase());
        if std::env::var_os(&feature).is_none() {
            continue;
        }
        let code = match specs.iter().find(|s| s.generation == Some(g)) {
            Some(spec) => match isa_gen::emit::generate(spec) {
                Ok(generated) => generated.code,
                Err(e) => panic!("isa-gen failed for {g}: {e}"),
            },
            None => isa_gen::emit::generate_absent(
                g.name(),
                &format!("no amdgpu_isa_{g}.xml in {} ({:?})", dir.path.display(), dir.source),
            ),
        };
        std::fs::write(out.join(format!("{g}.rs")), code).expect("write generated code");
    }
}
