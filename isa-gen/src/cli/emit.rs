//! `isa-gen emit`: writes the generated Rust for people to read.

use super::spec::SpecSource;
use crate::generation::Generation;
use crate::model;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct EmitArgs {
    #[command(flatten)]
    pub source: SpecSource,
    /// Only this generation (default: every spec found).
    #[arg(long)]
    pub arch: Option<Generation>,
    /// Output directory; one `<gen>.rs` per generation, and the summary the next emit compares
    /// against (`isa-gen-summary-<gen>.json`, for the regeneration report).
    #[arg(long, default_value = "generated")]
    pub out: PathBuf,
}

pub fn run(args: EmitArgs) -> ExitCode {
    let dir = args.source.resolve();
    let specs = match model::load_layers(&dir.layers) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("isa-gen: {e}");
            return ExitCode::from(2);
        }
    };
    let specs: Vec<_> = specs
        .into_iter()
        .filter(|s| args.arch.is_none() || s.generation == args.arch)
        .collect();
    if specs.is_empty() {
        eprintln!("isa-gen: no spec to emit in {}", dir.display());
        return ExitCode::from(2);
    }
    if let Err(e) = std::fs::create_dir_all(&args.out) {
        eprintln!("isa-gen: cannot create {}: {e}", args.out.display());
        return ExitCode::from(2);
    }
    crate::outln!("spec directory: {} ({:?})", dir.display(), dir.source);
    let semantics = crate::emit::executors::Semantics::load();
    let mut failed = false;
    for spec in &specs {
        let Some(g) = spec.generation else {
            eprintln!(
                "isa-gen: {}: unknown generation, skipped",
                spec.path.display()
            );
            continue;
        };
        match crate::emit::generate(spec, &semantics) {
            Ok(generated) => {
                let path = args.out.join(format!("{g}.rs"));
                if let Err(e) = std::fs::write(&path, &generated.code) {
                    eprintln!("isa-gen: cannot write {}: {e}", path.display());
                    failed = true;
                    continue;
                }
                let s = &generated.stats;
                crate::outln!(
                    "{g:<8} {:>5} instructions {:>6} forms {:>4} encodings {:>4} skipped  -> {} ({} KB)",
                    s.instructions,
                    s.forms,
                    s.encodings,
                    s.skipped.len(),
                    path.display(),
                    generated.code.len() / 1024
                );
                for (what, why) in &s.skipped {
                    crate::outln!("           skipped {what}: {why}");
                }
                // What changed since the previous emit into this directory.
                match crate::regen::record(&args.out, spec, &generated) {
                    Ok(Some(line)) => crate::outln!("{line}"),
                    Ok(None) => {}
                    Err(e) => eprintln!("isa-gen: regeneration report: {e}"),
                }
            }
            Err(e) => {
                eprintln!("isa-gen: {g}: {e}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
