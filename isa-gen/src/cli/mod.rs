//! The `isa-gen` command line.

pub mod pcode;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(name = "isa-gen", version, about = "Reads AMD's GPU ISA specification and generates Rust from it")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// AMD's pseudocode: coverage report and typed IR of single entries.
    #[command(subcommand)]
    Pcode(pcode::PcodeCommand),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Pcode(cmd) => pcode::run(cmd),
    }
}
