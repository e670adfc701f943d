//! Generates one module per enabled generation into OUT_DIR from the spec directory that
//! `isa_gen::specdir` resolves ($AMD_ISA_SPEC_DIR, spec/xml, ../shared/spec-data/xml-full and
//! xml-excerpts, then the bundled fixtures). A generation without a spec gets an empty module
//! that says why. All reading of files happens here: the generator gets its inputs as values.

use isa_gen::{model, specdir, Generation};
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed={}", specdir::SPEC_DIR_VAR);
    println!("cargo:rerun-if-changed=build.rs");
    // The executors are generated from the pseudocode (AMD's, the project's overrides and
    // fixture kernels); the helpers they call are listed in isa-vocab, a build dependency.
    println!("cargo:rerun-if-env-changed={}", specdir::PCODE_DIR_VAR);
    for p in [
        specdir::pcode_dir().path,
        isa_gen::emit::executors::source::overrides_dir(),
        isa_gen::emit::executors::source::kernels_dir(),
    ] {
        println!("cargo:rerun-if-changed={}", p.display());
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let semantics = isa_gen::emit::executors::Semantics::load();
    let dir = specdir::xml_dir();
    for layer in &dir.layers {
        println!("cargo:rerun-if-changed={}", layer.display());
    }
    let specs = match model::load_layers(&dir.layers) {
        Ok(s) => s,
        Err(e) => {
            println!("cargo:warning=cannot load specs: {e}");
            Vec::new()
        }
    };
    for s in &specs {
        println!("cargo:rerun-if-changed={}", s.path.display());
    }
    // With the `fixtures` feature, the project's own fixture specs are compiled in as well
    // (`isa_runtime::fixtures::<gen>`), so tests cover them beside AMD's data.
    let fixture_dir = specdir::fixture_xml_dir();
    println!("cargo:rerun-if-changed={}", fixture_dir.display());
    let mut fixture_mods = String::new();
    let mut fixture_list = Vec::new();
    let mut fixture_exec = Vec::new();
    if std::env::var_os("CARGO_FEATURE_FIXTURES").is_some() {
        let fixtures = model::load_dir(&fixture_dir).unwrap_or_default();
        for spec in &fixtures {
            println!("cargo:rerun-if-changed={}", spec.path.display());
            let Some(g) = spec.generation else { continue };
            let generated = isa_gen::emit::generate(spec, &semantics)
                .unwrap_or_else(|e| panic!("isa-gen failed for fixture {g}: {e}"));
            std::fs::write(out.join(format!("fixture_{g}.rs")), generated.code)
                .expect("write generated code");
            fixture_list.push(format!("&{g}::ISA"));
            fixture_exec.push(format!("(Some(&{g}::ISA), &{g}::EXEC)"));
            fixture_mods.push_str(&format!(
                "#[allow(clippy::all, unused_parens)]\npub mod {g} {{ include!(concat!(env!(\"OUT_DIR\"), \"/fixture_{g}.rs\")); }}\n"
            ));
        }
    }
    fixture_mods.push_str(&format!(
        "/// Every fixture spec.\npub fn specs() -> Vec<&'static crate::IsaSpec> {{ vec![{}] }}\n",
        fixture_list.join(", ")
    ));
    fixture_mods.push_str(&format!(
        "/// Every fixture spec with its generated executors.\npub fn executors() -> Vec<(Option<&'static crate::IsaSpec>, &'static crate::semantics::GeneratedExec)> {{ vec![{}] }}\n",
        fixture_exec.join(", ")
    ));
    std::fs::write(out.join("fixtures.rs"), fixture_mods).expect("write fixtures module");

    for g in Generation::ALL {
        let feature = format!("CARGO_FEATURE_{}", g.name().to_ascii_uppercase());
        if std::env::var_os(&feature).is_none() {
            continue;
        }
        let code = match specs.iter().find(|s| s.generation == Some(g)) {
            Some(spec) => match isa_gen::regen::generate_and_report(spec, &semantics, &out) {
                Ok(generated) => generated.code,
                Err(e) => panic!("isa-gen failed for {g}: {e}"),
            },
            None => isa_gen::emit::generate_absent(
                g.name(),
                &format!(
                    "no amdgpu_isa_{g}.xml in {} ({:?})",
                    dir.display(),
                    dir.source
                ),
            ),
        };
        std::fs::write(out.join(format!("{g}.rs")), code).expect("write generated code");
    }
}
