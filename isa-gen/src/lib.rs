//! `isa-gen`: reads AMD's machine-readable GPU ISA specification (XML) and instruction
//! pseudocode into one generation-neutral, checked model, and emits Rust from it.
//!
//! Modules:
//! - [`xml`]: AMD's XML schema as typed Rust, read with quick-xml; unknown elements are
//!   reported, never dropped silently.
//! - [`model`]: the generation-neutral model with every cross-reference resolved and validated.
//! - [`spec_fixes`]: the project's override layer of facts the XML lacks, applied to the model.
//! - [`pcode`]: AMD's pseudocode: pest grammar, AST, typed IR, corpus classification.
//! - [`emit`]: Rust from the model: tables, decoder, and the executors lowered from the
//!   pseudocode ([`emit::executors`]).
//! - [`diff`]: what changed between two specs (releases or generations), on the model.
//! - [`regen`]: the regeneration report (what a changed spec did to the generated code).
//! - [`generation`]: the generations the project knows and how a file is recognised as one.
//! - [`releases`]: the pinned AMD releases (`spec/releases.toml`) and file identification.
//! - [`specdir`]: where spec and pseudocode files are read from (layers, environment).
//! - [`diag`]: located diagnostics every stage reports into.
//! - [`synth`]: synthetic specs in AMD's schema for benchmarks and stress tests.
//! - [`cli`]: the `isa-gen` command line.

pub mod cli;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod generation;
pub mod model;
pub mod pcode;
pub mod regen;
pub mod releases;
pub mod spec_fixes;
pub mod specdir;
pub mod synth;
pub mod xml;

pub use diag::{Diagnostic, Location, Severity};
pub use generation::Generation;
