//! `isa-gen`: reads AMD's machine-readable GPU ISA specification (XML) and instruction
//! pseudocode into one generation-neutral, checked model, and emits Rust from it.
//!
//! Stages, one module each:
//! - [`xml`]: AMD's XML schema as typed Rust, read with quick-xml; unknown elements are
//!   reported, never dropped silently.
//! - [`model`]: the generation-neutral model with every cross-reference resolved and validated.
//! - [`pcode`]: AMD's pseudocode: pest grammar, AST, typed IR, corpus classification.
//! - [`diff`]: what changed between two specs (releases or generations), on the model.
//! - [`cli`]: the `isa-gen` command line.

pub mod cli;
pub mod diag;
pub mod diff;
pub mod emit;
pub mod generation;
pub mod model;
pub mod overrides;
pub mod pcode;
pub mod regen;
pub mod releases;
pub mod specdir;
pub mod synth;
pub mod xml;

pub use diag::{Diagnostic, Location, Severity};
pub use generation::Generation;
