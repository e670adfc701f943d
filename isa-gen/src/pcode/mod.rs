//! AMD's instruction pseudocode: grammar, AST, typed IR and corpus classification.

pub mod ast;
pub mod corpus;
pub mod grammar;
pub mod parse;
pub mod types;

pub use parse::{parse_entry, ParseError};
