//! AMD's instruction pseudocode: grammar, AST, typed IR and corpus classification.

pub mod ast;
pub mod corpus;
pub mod grammar;
pub mod helpers;
pub mod ir;
pub mod names;
pub mod parse;
pub mod pretty;
pub mod prose;
pub mod report;
pub mod typeck;
pub mod types;

pub use corpus::{classify, load_corpus, load_file, Class, Corpus, Diag, Entry, GenerationCorpus};
pub use parse::{parse_entry, ParseError};
pub use typeck::{typecheck, Context, TypeError, Typed};
