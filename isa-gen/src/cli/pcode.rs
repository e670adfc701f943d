//! `isa-gen pcode ...` (placeholder; being written).
use clap::Subcommand;
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub enum PcodeCommand {
    /// Per-generation coverage table.
    Report,
}

pub fn run(_cmd: PcodeCommand) -> ExitCode {
    eprintln!("isa-gen pcode: not yet available");
    ExitCode::from(2)
}
