//! `isa-gen diff OLD NEW`: what changed between two specs (see [`crate::diff`]).

use super::spec::SpecSource;
use crate::diff::{self, Options};
use crate::generation::Generation;
use crate::model::{self, Spec};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The old spec: a file, a directory of `amdgpu_isa_<gen>.xml` files, or a generation name
    /// (`cdna3`) looked up in the spec directory.
    pub old: String,
    /// The new spec, given the same way (file with file, directory with directory).
    pub new: String,
    /// Where generation names are looked up (default: the resolved spec directory).
    #[command(flatten)]
    pub source: SpecSource,
    /// Also compare `<Description>` texts (the shared complete files have none).
    #[arg(long)]
    pub descriptions: bool,
    /// Machine-readable output (the layout is documented in the README).
    #[arg(long)]
    pub json: bool,
    /// Exit with 1 when anything differs (for CI).
    #[arg(long)]
    pub exit_code: bool,
}

/// What one argument named.
enum Operand {
    One(Box<Spec>),
    Many(Vec<Spec>),
}

fn load_arg(arg: &str, source: &SpecSource) -> Result<Operand, String> {
    let path = PathBuf::from(arg);
    if path.is_file() {
        return model::load_file(&path)
            .map(|s| Operand::One(Box::new(s)))
            .map_err(|e| e.to_string());
    }
    if path.is_dir() {
        return model::load_dir(&path)
            .map(Operand::Many)
            .map_err(|e| e.to_string());
    }
    let Some(g) = Generation::from_name(arg) else {
        return Err(format!(
            "`{arg}` is neither a file, a directory nor a generation name"
        ));
    };
    // AMD's file name first (the first layer holding it wins), else every file's own
    // ArchitectureName.
    let dir = source.resolve();
    if let Some(file) = dir.file_of(g, "xml") {
        return model::load_file(&file)
            .map(|s| Operand::One(Box::new(s)))
            .map_err(|e| e.to_string());
    }
    let specs = model::load_layers(&dir.layers).map_err(|e| e.to_string())?;
    specs
        .into_iter()
        .find(|s| s.generation == Some(g))
        .map(|s| Operand::One(Box::new(s)))
        .ok_or_else(|| {
            format!(
                "no spec for {g} in {} ({:?}); give a file or set --spec-dir",
                dir.display(),
                dir.source
            )
        })
}

pub fn run(args: DiffArgs) -> ExitCode {
    let options = Options {
        descriptions: args.descriptions,
    };
    let load = |a: &str| {
        load_arg(a, &args.source).map_err(|e| {
            eprintln!("isa-gen: {e}");
            ExitCode::from(2)
        })
    };
    let (old, new) = match (load(&args.old), load(&args.new)) {
        (Ok(o), Ok(n)) => (o, n),
        (Err(code), _) | (_, Err(code)) => return code,
    };
    let report = match (&old, &new) {
        (Operand::One(o), Operand::One(n)) => diff::report_pair(o, n, options),
        (Operand::Many(o), Operand::Many(n)) => diff::report_sets(o, n, options),
        _ => {
            eprintln!("isa-gen: compare a file (or generation) with a file, or a directory with a directory");
            return ExitCode::from(2);
        }
    };
    if args.json {
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&report).expect("diff report serializes")
        );
    } else {
        crate::outln!("{}", diff::text::render(&report).trim_end());
    }
    if args.exit_code && !report.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
