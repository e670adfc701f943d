//! AMD GPU instruction sets, generated from AMD's machine-readable specification.
//!
//! One module per generation (cargo features `rdna1` … `cdna5`), each generated at build time
//! by `isa-gen` from the spec directory (see the workspace README). Each module's `SPEC` is
//! `Some(&IsaSpec)` when its spec was found, `None` otherwise.
//!
//! - [`decode`] / [`Instruction::encode`]: bytes ↔ instructions, exact round trip.
//! - [`tables`]: the generated tables' types.

pub mod asm;
pub mod decode;
pub mod disasm;
pub mod exec;
pub mod operand;
pub mod tables;

pub use asm::{assemble, assemble_instruction, AsmError};
pub use decode::{decode, decode_stream, DecodeError, DecodeErrorKind, Instruction, ListingEntry};
pub use disasm::disassemble;
pub use operand::{DecodedOperand, Operand, RegFile};
pub use tables::IsaSpec;

macro_rules! generation {
    ($feature:literal, $module:ident) => {
        #[cfg(feature = $feature)]
        #[allow(clippy::all, unused_parens)]
        pub mod $module {
            include!(concat!(env!("OUT_DIR"), "/", $feature, ".rs"));
        }
    };
}

generation!("rdna1", rdna1);
generation!("rdna2", rdna2);
generation!("rdna3", rdna3);
generation!("rdna3_5", rdna3_5);
generation!("rdna4", rdna4);
generation!("cdna1", cdna1);
generation!("cdna2", cdna2);
generation!("cdna3", cdna3);
generation!("cdna4", cdna4);
generation!("cdna5", cdna5);

/// The project's own fixture specs (`spec/fixtures/xml`), compiled in with the `fixtures`
/// feature so tests cover them beside AMD's data.
#[cfg(feature = "fixtures")]
pub mod fixtures {
    // One module per fixture spec, and `pub fn specs()` listing them.
    include!(concat!(env!("OUT_DIR"), "/fixtures.rs"));
}

/// The specs compiled into this build (enabled features whose spec was found).
pub fn specs() -> Vec<&'static IsaSpec> {
    let mut out: Vec<Option<&'static IsaSpec>> = Vec::new();
    #[cfg(feature = "rdna1")]
    out.push(rdna1::SPEC);
    #[cfg(feature = "rdna2")]
    out.push(rdna2::SPEC);
    #[cfg(feature = "rdna3")]
    out.push(rdna3::SPEC);
    #[cfg(feature = "rdna3_5")]
    out.push(rdna3_5::SPEC);
    #[cfg(feature = "rdna4")]
    out.push(rdna4::SPEC);
    #[cfg(feature = "cdna1")]
    out.push(cdna1::SPEC);
    #[cfg(feature = "cdna2")]
    out.push(cdna2::SPEC);
    #[cfg(feature = "cdna3")]
    out.push(cdna3::SPEC);
    #[cfg(feature = "cdna4")]
    out.push(cdna4::SPEC);
    #[cfg(feature = "cdna5")]
    out.push(cdna5::SPEC);
    out.into_iter().flatten().collect()
}

/// The spec of a generation by short name (`rdna3`), if compiled in and found.
pub fn spec(generation: &str) -> Option<&'static IsaSpec> {
    specs().into_iter().find(|s| s.generation == generation)
}
