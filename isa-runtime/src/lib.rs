//! AMD GPU instruction sets, generated from AMD's machine-readable specification.
//!
//! One module per generation (cargo features `rdna1` … `cdna5`), each generated at build time
//! by `isa-gen` from the spec directory (see the workspace README). Each module's `SPEC` is
//! `Some(&IsaSpec)` when its spec was found, `None` otherwise.
//!
//! - [`decode`] / [`Instruction::encode`]: bytes ↔ instructions, exact round trip.
//! - [`tables`]: the generated tables' types.

// Declared first: its test macros are used by the modules below.
#[cfg(test)]
#[macro_use]
mod test_types;
pub mod asm;
pub mod canonical;
pub mod decode;
pub mod disasm;
pub mod dual;
pub mod exec;
pub mod exec_gen;
pub mod operand;
pub mod overrides;
pub mod tables;

pub use asm::{assemble, assemble_instruction, assemble_listing, AsmError, AssembledLine};
pub use decode::{decode, decode_stream, DecodeError, DecodeErrorKind, Instruction, ListingEntry};
pub use disasm::disassemble;
pub use operand::{DecodedOperand, Operand, RegFile};
pub use tables::IsaSpec;

macro_rules! generation {
    ($feature:literal, $module:ident, $spec:ident) => {
        #[cfg(feature = $feature)]
        #[allow(clippy::all, unused_parens)]
        pub mod $module {
            include!(concat!(env!("OUT_DIR"), "/", $feature, ".rs"));
        }
        #[cfg(feature = $feature)]
        const $spec: Option<&IsaSpec> = $module::SPEC;
        #[cfg(not(feature = $feature))]
        const $spec: Option<&IsaSpec> = None;
    };
}

generation!("rdna1", rdna1, RDNA1);
generation!("rdna2", rdna2, RDNA2);
generation!("rdna3", rdna3, RDNA3);
generation!("rdna3_5", rdna3_5, RDNA3_5);
generation!("rdna4", rdna4, RDNA4);
generation!("cdna1", cdna1, CDNA1);
generation!("cdna2", cdna2, CDNA2);
generation!("cdna3", cdna3, CDNA3);
generation!("cdna4", cdna4, CDNA4);
generation!("cdna5", cdna5, CDNA5);

/// The project's own fixture specs (`spec/fixtures/xml`), compiled in with the `fixtures`
/// feature so tests cover them beside AMD's data.
#[cfg(feature = "fixtures")]
pub mod fixtures {
    // One module per fixture spec, and `pub fn specs()` listing them.
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
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
