//! Conformance test support. The tests live in `tests/`.

pub mod llvm_mc;
