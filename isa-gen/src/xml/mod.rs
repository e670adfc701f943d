//! AMD's ISA XML schema, and the reader that turns a file into it.

pub mod reader;
pub mod schema;

pub use reader::{read_spec, ReadOutcome};
pub use schema::*;
