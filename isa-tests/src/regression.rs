//! Support for regression cases recorded from llvm-mc: a line of LLVM's text with its bytes,
//! checked by the project in both directions and, where llvm-mc is installed, by llvm-mc.

use crate::llvm_mc::LlvmMc;
use isa_runtime::{assemble_instruction, decode, disassemble, IsaSpec};

/// llvm-mc when installed; otherwise says the llvm-mc half is skipped.
pub fn oracle() -> Option<LlvmMc> {
    LlvmMc::find()
        .map_err(|e| eprintln!("skipped the llvm-mc half: {}", e.reason))
        .ok()
}

/// The generation of a compiled-in spec.
pub fn generation(spec: &IsaSpec) -> isa_gen::Generation {
    isa_gen::Generation::from_name(spec.generation).expect("known generation")
}

/// The project prints `bytes` as `text`, assembles `text` back to `bytes`, and llvm-mc agrees
/// in both directions (panics, as a test does, where any of them differs).
pub fn round_trip(spec: &'static IsaSpec, bytes: &[u8], text: &str) {
    let (ins, len) = decode(spec, bytes).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    assert_eq!(len, bytes.len(), "{text}");
    assert_eq!(disassemble(&ins), text);
    let back = assemble_instruction(spec, text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(back.encode(), bytes, "{text}");
    let Some(mc) = oracle() else { return };
    let gen = generation(spec);
    let dis = mc
        .disassemble(gen, &[bytes.to_vec()])
        .expect("llvm-mc runs");
    assert_eq!(dis.results[0].text(), Some(text), "llvm-mc's text");
    let asm = mc.assemble(gen, &[text.to_string()]).expect("llvm-mc runs");
    assert_eq!(
        asm.results[0].bytes().as_deref(),
        Some(bytes),
        "llvm-mc's bytes"
    );
}
