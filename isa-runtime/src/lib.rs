//! AMD GPU instruction sets, generated from AMD's machine-readable specification.
//!
//! One module per generation (cargo features `rdna1` … `cdna5`), each generated at build time
//! by `isa-gen` from the spec directory (see the workspace README). Each module's `SPEC` is
//! `Some(&IsaSpec)` when its spec was found, `None` otherwise, and its `executors` module holds
//! the generated per-instruction executors.
//!
//! Hand-written modules:
//! - [`tables`]: the generated tables' types (and the shared vocabulary re-exported from
//!   `isa-vocab`).
//! - [`decode`] / [`Instruction::encode`]: bytes ↔ instructions, exact round trip.
//! - [`operand`]: a decoded instruction's fields read through its form's operand types.
//! - [`disasm`]: printing in LLVM's syntax; [`asm`]: the assembler, its inverse.
//! - [`llvm_syntax`]: facts LLVM prints that AMD's tables do not carry (value names,
//!   spellings), each with its reason.
//! - [`canonical`]: the values unused fields must hold.
//! - [`dual`]: dual-issue (VOPD) words.
//! - [`exec`]: the emulator core: wave state, memories, exact soft-float, helpers, dispatch.
//! - [`semantics`]: what the generated executors are built from: form bindings, coverage,
//!   and the hand-written semantics of the override layer ([`semantics::handwritten`]).
//! - [`codeobj`]: AMDGPU code objects (ELF, kernel descriptors, metadata notes).

// Declared first: its test macros are used by the modules below.
#[cfg(test)]
#[macro_use]
mod test_types;
pub mod asm;
pub mod canonical;
pub mod codeobj;
pub mod decode;
pub mod disasm;
pub mod dual;
pub mod exec;
pub mod llvm_syntax;
pub mod operand;
pub mod semantics;
pub mod tables;

pub use asm::{
    assemble, assemble_instruction, assemble_listing, AsmError, AsmErrorKind, AssembledLine,
};
pub use decode::{decode, decode_stream, DecodeError, DecodeErrorKind, Instruction, ListingEntry};
pub use disasm::{disassemble, disassemble_into};
pub use operand::{DecodedOperand, Operand, RegFile};
pub use tables::IsaSpec;

// The generated modules are left out of this crate's own unit-test build: those tests run on
// hand-built specs (`test_types`), and compiling every generation a second time for them would
// double the build (AMD's complete files are megabytes of generated code each). Integration
// tests and dependents see the generations as usual.
macro_rules! generation {
    ($feature:literal, $module:ident, $spec:ident, $exec:ident) => {
        #[cfg(all(feature = $feature, not(test)))]
        #[allow(clippy::all, unused_parens)]
        pub mod $module {
            include!(concat!(env!("OUT_DIR"), "/", $feature, ".rs"));
        }
        #[cfg(all(feature = $feature, not(test)))]
        const $spec: Option<&IsaSpec> = $module::SPEC;
        #[cfg(all(feature = $feature, not(test)))]
        const $exec: Option<(Option<&IsaSpec>, &semantics::GeneratedExec)> =
            Some(($module::SPEC, &$module::EXEC));
        #[cfg(not(all(feature = $feature, not(test))))]
        const $spec: Option<&IsaSpec> = None;
        #[cfg(not(all(feature = $feature, not(test))))]
        const $exec: Option<(Option<&IsaSpec>, &semantics::GeneratedExec)> = None;
    };
}

generation!("rdna1", rdna1, RDNA1, RDNA1_EXEC);
generation!("rdna2", rdna2, RDNA2, RDNA2_EXEC);
generation!("rdna3", rdna3, RDNA3, RDNA3_EXEC);
generation!("rdna3_5", rdna3_5, RDNA3_5, RDNA3_5_EXEC);
generation!("rdna4", rdna4, RDNA4, RDNA4_EXEC);
generation!("cdna1", cdna1, CDNA1, CDNA1_EXEC);
generation!("cdna2", cdna2, CDNA2, CDNA2_EXEC);
generation!("cdna3", cdna3, CDNA3, CDNA3_EXEC);
generation!("cdna4", cdna4, CDNA4, CDNA4_EXEC);
generation!("cdna5", cdna5, CDNA5, CDNA5_EXEC);

/// The project's own fixture specs (`spec/fixtures/xml`), compiled in with the `fixtures`
/// feature so tests cover them beside AMD's data.
#[cfg(feature = "fixtures")]
pub mod fixtures {
    // One module per fixture spec, and `pub fn specs()` listing them.
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}

/// The generated executors of every generation compiled in, with its spec.
pub(crate) fn generation_executors(
) -> Vec<(Option<&'static IsaSpec>, &'static semantics::GeneratedExec)> {
    [
        RDNA1_EXEC,
        RDNA2_EXEC,
        RDNA3_EXEC,
        RDNA3_5_EXEC,
        RDNA4_EXEC,
        CDNA1_EXEC,
        CDNA2_EXEC,
        CDNA3_EXEC,
        CDNA4_EXEC,
        CDNA5_EXEC,
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The specs compiled into this build (enabled features whose spec was found).
pub fn specs() -> Vec<&'static IsaSpec> {
    [
        RDNA1, RDNA2, RDNA3, RDNA3_5, RDNA4, CDNA1, CDNA2, CDNA3, CDNA4, CDNA5,
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The spec of a generation by short name (`rdna3`), if compiled in and found.
pub fn spec(generation: &str) -> Option<&'static IsaSpec> {
    specs().into_iter().find(|s| s.generation == generation)
}
