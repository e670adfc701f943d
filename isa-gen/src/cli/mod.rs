//! The `isa-gen` command line.

/// `println!` that ends the process quietly when stdout is closed (`isa-gen ... | head`),
/// instead of panicking on the broken pipe.
#[macro_export]
macro_rules! outln {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        if writeln!(std::io::stdout().lock(), $($arg)*).is_err() {
            std::process::exit(0);
        }
    }};
}

pub mod diff;
pub mod emit;
pub mod exec;
pub mod pcode;
pub mod spec;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Debug, Parser)]
#[command(
    name = "isa-gen",
    version,
    about = "Reads AMD's GPU ISA specification and generates Rust from it"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Per generation: release, schema version and element counts of every loaded spec.
    Tables(spec::TablesArgs),
    /// One instruction (every encoding, bit layout, operands), encoding or operand type.
    Show(spec::ShowArgs),
    /// Print every diagnostic of the specs in a directory (or one file); exit 1 on any error.
    Check(spec::CheckArgs),
    /// What changed between two specs (files, directories or generation names): instructions,
    /// opcodes, operands, encodings, fields, conditions, operand types, values, data formats.
    Diff(diff::DiffArgs),
    /// Write the generated Rust of each generation (tables, decoder) for people to read.
    Emit(emit::EmitArgs),
    /// AMD's pseudocode: coverage report and typed IR of single entries.
    #[command(subcommand)]
    Pcode(pcode::PcodeCommand),
    /// Generated executors: coverage per generation, provenance, unsupported with reasons.
    #[command(subcommand)]
    Exec(exec::ExecCommand),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Tables(a) => spec::tables(a),
        Command::Show(a) => spec::show(a),
        Command::Check(a) => spec::check(a),
        Command::Diff(a) => diff::run(a),
        Command::Emit(a) => emit::run(a),
        Command::Pcode(cmd) => pcode::run(cmd),
        Command::Exec(cmd) => exec::run(cmd),
    }
}
