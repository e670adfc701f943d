//! Conformance test support: cases generated from the spec, and LLVM's `llvm-mc` as the
//! reference. The tests live in `tests/`.

pub mod cases;
pub mod conformance;
pub mod dual_cases;
pub mod llvm_mc;
pub mod regression;
