//! Printing dual-issue words: `v_dual_X <X operands> :: v_dual_Y <Y operands>`, each half's
//! explicit operands in the spec's order (LLVM leaves the implicit VCC of
//! `v_dual_cndmask_b32` out, as for `v_cndmask_b32_e32`).

use super::{imm_style_of, value_text};
use crate::dual::{DualInstruction, HALVES};

/// Text of a dual-issue word in LLVM's syntax.
pub fn disassemble(ins: &DualInstruction) -> String {
    let halves: Vec<String> = (0..HALVES.len()).map(|h| half_text(ins, h)).collect();
    halves.join(" :: ")
}

/// The text of one half.
pub fn half_text(ins: &DualInstruction, h: usize) -> String {
    let mut out = ins.info(h).mnemonic.to_string();
    let explicit = ins
        .operands(h)
        .into_iter()
        .filter(|o| !o.info.implicit && o.info.field.is_some());
    for (k, o) in explicit.enumerate() {
        out.push_str(if k == 0 { " " } else { ", " });
        let style = imm_style_of(false, o.info.size, o.info.data_format);
        out.push_str(&value_text(ins.spec, style, false, &o));
    }
    out
}
