//! AMD's instruction pseudocode: grammar, AST, typed IR and corpus classification.
//!
//! The language and the typing rules are documented in spec/pcode/README.md, the grammar in
//! spec/pcode.pest. Stages, one module each:
//!
//! - [`corpus`]: `.pcode` files to entries (`=== FAMILY NAME` + text), and each entry's
//!   [`Class`]: typed, parsed, prose or failed. [`load_corpus`] does a whole directory.
//! - [`parse`] (with [`grammar`]): text to [`ast::Ast`], or a [`ParseError`] with a position.
//! - [`typeck`] (with [`names`] and [`helpers`]): AST to the typed [`ir::Ir`], or
//!   [`TypeError`]s.
//! - [`prose`]: recognising prose and naming the causes of parse failures.
//! - [`pretty`]: the readable IR of `isa-gen pcode show`; [`report`]: `isa-gen pcode report`.
//!
//! ```no_run
//! use isa_gen::pcode::{parse_entry, typecheck, Context};
//! let ast = parse_entry("D0.u32 = S0.u32 + S1.u32").unwrap();
//! let typed = typecheck(&ast, &Context { mnemonic: "V_ADD_U32", generation: None }).unwrap();
//! println!("{}", isa_gen::pcode::pretty::render(&typed.ir));
//! ```

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
