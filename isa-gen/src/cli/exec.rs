//! `isa-gen exec report`: which instructions get executors, from which semantics, and why the
//! others are unsupported.

use crate::emit::executors::{executors, ExecReport, Semantics, Status};
use crate::specdir::{self, Source};
use crate::{model, Generation};
use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub enum ExecCommand {
    /// Coverage per generation: executors / instructions, unsupported by reason, provenance.
    Report {
        /// Only this generation.
        #[arg(long)]
        arch: Option<Generation>,
        /// Print JSON: an array of reports `{ generation, spec_file, pcode_source,
        /// instructions, generated, overrides, builtins, unsupported, problems, entries:
        /// [{ instruction, status, provenance, reason, families, unsupported_forms }] }`.
        #[arg(long)]
        json: bool,
        /// Report on the project's fixture specs (spec/fixtures/xml) instead of the resolved
        /// spec directory.
        #[arg(long)]
        fixtures: bool,
        /// Read the XML specs from this directory.
        #[arg(long)]
        dir: Option<PathBuf>,
        /// List every instruction, not only the unsupported ones.
        #[arg(long)]
        all: bool,
    },
}

pub fn run(cmd: ExecCommand) -> ExitCode {
    match cmd {
        ExecCommand::Report {
            arch,
            json,
            fixtures,
            dir,
            all,
        } => report(arch, json, fixtures, dir, all),
    }
}

fn report(
    arch: Option<Generation>,
    json: bool,
    fixtures: bool,
    dir: Option<PathBuf>,
    all: bool,
) -> ExitCode {
    let dir = match (dir, fixtures) {
        (Some(d), _) => d,
        (None, true) => specdir::fixture_xml_dir(),
        (None, false) => specdir::xml_dir().display().into(),
    };
    let xml = specdir::SpecDir::layered(specdir::split_layers(dir.as_os_str()), Source::Explicit);
    let specs = match model::load_layers(&xml.layers) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    // AMD's pseudocode when present (the project's samples are not AMD's text), the override
    // layer, and the specs of borrowed-from generations from the same directories.
    let pdir = specdir::pcode_dir();
    let amd = (pdir.source != Source::Fixture).then_some(pdir.path);
    let sem = Semantics::load_from(
        amd.as_deref(),
        &crate::emit::executors::source::overrides_dir(),
        &crate::emit::executors::source::kernels_dir(),
        &xml,
    );
    let reports: Vec<ExecReport> = specs
        .iter()
        .filter(|s| arch.is_none() || s.generation == arch)
        .map(|s| executors(s, &sem).report)
        .collect();
    if reports.is_empty() {
        eprintln!("error: no spec for that generation in {}", dir.display());
        return ExitCode::FAILURE;
    }
    if json {
        match serde_json::to_string_pretty(&reports) {
            Ok(t) => outln!("{t}"),
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::FAILURE;
            }
        }
        return ExitCode::SUCCESS;
    }
    outln!("specs from {}", dir.display());
    outln!("{}", sem.pcode_source);
    for p in &sem.problems {
        outln!("problem: {p}");
    }
    outln!(
        "{:<9} {:>6} {:>9} {:>9} {:>8} {:>8} {:>11}",
        "gen",
        "instr",
        "executors",
        "generated",
        "override",
        "builtin",
        "unsupported"
    );
    for r in &reports {
        outln!(
            "{:<9} {:>6} {:>9} {:>9} {:>8} {:>8} {:>11}",
            r.generation,
            r.instructions,
            r.implemented(),
            r.generated,
            r.overrides,
            r.builtins,
            r.unsupported
        );
    }
    for r in &reports {
        outln!("");
        outln!(
            "{} ({}): {} of {} instructions have executors",
            r.generation,
            r.spec_file,
            r.implemented(),
            r.instructions
        );
        let (done, counted) = r.coverage_outside_images_gws_traps();
        outln!(
            "  outside images, GWS and traps: {done} of {counted} ({:.1} %)",
            100.0 * done as f64 / counted.max(1) as f64
        );
        outln!("  provenance:");
        for (p, n) in r.by_provenance() {
            outln!("    {n:>5}  {p}");
        }
        let kinds = r.unsupported_by_kind();
        if !kinds.is_empty() {
            outln!("  unsupported, by kind:");
            for (kind, n) in kinds {
                outln!("    {n:>5}  {}", kind.name());
            }
        }
        let unsupported = r.unsupported_by_reason();
        if !unsupported.is_empty() {
            outln!("  unsupported, by reason:");
            for (why, n) in unsupported {
                outln!("    {n:>5}  {why}");
            }
        }
        for e in &r.entries {
            if all || e.status == Status::Unsupported || !e.unsupported_forms.is_empty() {
                outln!(
                    "  {:<11} {:<34} {:<28} {}",
                    e.status.name(),
                    e.instruction,
                    e.provenance,
                    e.reason
                );
                for f in &e.unsupported_forms {
                    outln!("  {:<11} {:<34} form {f}", "", "");
                }
            }
        }
    }
    ExitCode::SUCCESS
}
