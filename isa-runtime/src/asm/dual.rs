//! Assembling dual-issue words: `v_dual_X <operands> :: v_dual_Y <operands>`.
//!
//! Each half's operands are read through its operand types (as for any instruction), the
//! shared literal is placed once, and the pairing rules LLVM enforces are errors at the
//! operand that breaks them, with LLVM's messages (probed with `llvm-mc-22 -mcpu=gfx1100` and
//! `gfx1200`):
//! - one literal value for the word;
//! - at most two scalar values read over both halves: SGPRs, `vcc_lo`/`vcc_hi`, `m0`, `exec`,
//!   trap temporaries, `src_*` registers and the literal count, each distinct value once;
//!   `null` and inline constants do not; the implicit VCC of `v_dual_cndmask_b32` counts
//!   once, apart from an explicit `vcc_lo`;
//! - the destinations are one even and one odd register (the encoding stores only bits 7:1 of
//!   the Y destination);
//! - sources in the same position that are both VGPRs use different banks (register number
//!   mod 4): `src0` and `src1`. On GFX12 a pair of two `v_dual_mov_b32` is exempt from the
//!   source rule.
//!
//! An accepted line disassembles to itself (checked before it is returned).

use super::{operand_value, AsmError, AsmErrorKind};
use crate::disasm::dual::disassemble;
use crate::dual::{dual_encodings, field_of, find_half, store_field, DualInstruction, HALVES};
use crate::operand::{classify_in, Operand, RegFile};
use crate::tables::{DualHalfInfo, IsaSpec};

/// Source registers LLVM's GFX11/GFX12 assembler refuses ("register not available on this
/// GPU") although its disassembler prints their codes: a word holding one does not
/// assemble back.
const NOT_ASSEMBLED: [&str; 5] = [
    "src_vccz",
    "src_execz",
    "src_pops_exiting_wave_id",
    "src_flat_scratch_base_lo",
    "src_flat_scratch_base_hi",
];

/// Whether a line is a dual-issue pair (holds `::`).
pub fn is_dual_line(text: &str) -> bool {
    text.contains("::")
}

/// One operand as read: its field value, literal, column, and what the pairing rules need.
struct Read {
    /// Index in the half's operand list.
    operand: usize,
    code: u64,
    literal: Option<u64>,
    column: usize,
    /// The field's role without the half letter (`SRC0`, `VSRC1`, `VDST`).
    role: String,
}

fn error(column: usize, kind: AsmErrorKind, message: impl Into<String>) -> AsmError {
    AsmError {
        line: 1,
        column,
        kind,
        message: message.into(),
    }
}

/// Splits `text` at top-level commas, with each piece's 1-based column.
fn split_commas(text: &str, base: usize) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in text.char_indices().chain([(text.len(), ',')]) {
        if c == ',' {
            let piece = &text[start..i];
            let lead = piece.len() - piece.trim_start().len();
            if !piece.trim().is_empty() {
                out.push((piece.trim(), base + start + lead));
            }
            start = i + 1;
        }
    }
    out
}

/// Assembles one dual-issue line (no label, no comment).
pub fn assemble_dual(spec: &'static IsaSpec, text: &str) -> Result<DualInstruction, AsmError> {
    if !text.is_ascii() {
        let col = text
            .char_indices()
            .find(|c| !c.1.is_ascii())
            .map_or(0, |c| c.0)
            + 1;
        return Err(error(
            col,
            AsmErrorKind::Syntax,
            "unexpected non-ASCII character",
        ));
    }
    let (base, literal_enc) = dual_encodings(spec).ok_or_else(|| {
        error(
            1,
            AsmErrorKind::UnknownMnemonic,
            format!("{} has no dual-issue (VOPD) instructions", spec.generation),
        )
    })?;
    let (xs, ys) = text.split_once("::").unwrap_or((text, ""));
    let parts = [(xs, 1), (ys, xs.len() + 3)];
    let mut opcodes = [0u32; 2];
    let mut reads: [Vec<Read>; 2] = [Vec::new(), Vec::new()];
    let mut chosen = [0u16; 2];
    for (h, (part, col0)) in parts.iter().enumerate() {
        let lead = part.len() - part.trim_start().len();
        let part_t = part.trim();
        let col = col0 + lead;
        if part_t.is_empty() {
            return Err(error(
                col,
                AsmErrorKind::Syntax,
                format!("the {} half is missing", HALVES[h]),
            ));
        }
        let (mnemonic, rest) = part_t.split_once(' ').unwrap_or((part_t, ""));
        let ins = spec
            .instruction_by_name(mnemonic)
            .filter(|&i| {
                spec.dual_halves
                    .iter()
                    .any(|d| d.instruction as usize == i && d.half == HALVES[h])
            })
            .ok_or_else(|| {
                error(
                    col,
                    AsmErrorKind::UnknownMnemonic,
                    format!(
                        "`{mnemonic}` is not a {} half of a dual-issue word in {}",
                        HALVES[h], spec.generation
                    ),
                )
            })?;
        let ops = split_commas(rest, col + mnemonic.len() + 1);
        if let Some((index, (tok, at))) = ops
            .iter()
            .enumerate()
            .find(|(_, (t, _))| NOT_ASSEMBLED.contains(&t.to_ascii_lowercase().as_str()))
        {
            return Err(error(
                *at,
                AsmErrorKind::BadOperand { index },
                format!("{tok} register not available on this GPU"),
            ));
        }
        // The half in the encoding without a literal, then in the literal one.
        let candidates = [Some(base), literal_enc]
            .into_iter()
            .flatten()
            .filter_map(|e| {
                let opcode = spec
                    .dual_halves
                    .iter()
                    .find(|d| d.instruction as usize == ins && d.half == HALVES[h])?
                    .opcode;
                find_half(spec, e, h, opcode)
            });
        let mut last_err = None;
        for k in candidates {
            match read_half(spec, &spec.dual_halves[k as usize], h, &ops, col) {
                Ok(r) => {
                    chosen[h] = k;
                    opcodes[h] = spec.dual_halves[k as usize].opcode;
                    reads[h] = r;
                    last_err = None;
                    break;
                }
                Err(e) => last_err = last_err.or(Some(e)),
            }
        }
        if let Some(e) = last_err {
            return Err(e);
        }
    }
    check_literals(&reads)?;
    check_constant_bus(spec, &chosen, &reads)?;
    let bits = place(spec, base, &chosen, &opcodes, &reads)?;
    check_banks(spec, &chosen, &reads)?;
    let len = if reads.iter().flatten().any(|r| r.literal.is_some()) {
        12
    } else {
        8
    };
    let ins = DualInstruction {
        spec,
        halves: chosen,
        bits,
        len,
    };
    let printed = disassemble(&ins);
    let norm = |s: &str| {
        s.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_ascii_lowercase()
    };
    if norm(&printed) != norm(text) {
        return Err(error(
            1,
            AsmErrorKind::NoMatchingForm,
            format!("the pair reads back as `{printed}`, not as written"),
        ));
    }
    Ok(ins)
}

/// Reads the explicit operands of one half.
fn read_half(
    spec: &IsaSpec,
    half: &DualHalfInfo,
    h: usize,
    ops: &[(&str, usize)],
    col: usize,
) -> Result<Vec<Read>, AsmError> {
    let enc = &spec.encodings[half.encoding as usize];
    let explicit: Vec<usize> = (0..half.operands.len())
        .filter(|&k| !half.operands[k].implicit && half.operands[k].field.is_some())
        .collect();
    if explicit.len() != ops.len() {
        let at = ops.get(explicit.len()).map_or(col, |o| o.1);
        return Err(error(
            at,
            AsmErrorKind::OperandCount,
            format!(
                "{} takes {} operands, the line gives {}",
                spec.instructions[half.instruction as usize].mnemonic,
                explicit.len(),
                ops.len()
            ),
        ));
    }
    let mut out = Vec::new();
    for (index, (&k, &(tok, column))) in explicit.iter().zip(ops).enumerate() {
        let bad = AsmErrorKind::BadOperand { index };
        let info = &half.operands[k];
        let field = &enc.fields[info.field.unwrap() as usize];
        let ty = info
            .operand_type
            .map(|t| &spec.operand_types[t as usize])
            .ok_or_else(|| {
                error(
                    column,
                    AsmErrorKind::NoMatchingForm,
                    "operand without a type",
                )
            })?;
        let (mut code, mut literal) = operand_value(spec, &tok.to_ascii_lowercase(), ty, info, 32)
            .map_err(|m| error(column, bad, m))?;
        if field.name == "LITERAL" {
            // This half's source is the literal itself.
            code = literal.ok_or_else(|| error(column, bad, "this source must be a literal"))?;
            literal = Some(code);
        } else if literal.is_some() {
            return Err(error(column, bad, "a literal needs the literal encoding"));
        }
        let role = field.name.replacen(HALVES[h], "", 1);
        out.push(Read {
            operand: k,
            code,
            literal,
            column,
            role,
        });
    }
    Ok(out)
}

fn check_literals(reads: &[Vec<Read>; 2]) -> Result<(), AsmError> {
    let mut seen: Option<u64> = None;
    for r in reads.iter().flatten() {
        if let Some(v) = r.literal {
            match seen {
                Some(s) if s != v => {
                    return Err(error(
                        r.column,
                        AsmErrorKind::OperandConstraint,
                        "only one unique literal operand is allowed",
                    ))
                }
                _ => seen = Some(v),
            }
        }
    }
    Ok(())
}

/// A scalar value that takes the constant bus: `Some(key)` (distinct keys count apart).
fn scalar_key(spec: &IsaSpec, half: &DualHalfInfo, r: &Read) -> Option<String> {
    let info = &half.operands[r.operand];
    if r.literal.is_some() {
        return Some("literal".into());
    }
    let ty = &spec.operand_types[info.operand_type? as usize];
    match classify_in(Some(spec), ty, r.code, info.size, None) {
        Operand::Reg {
            file: RegFile::Sgpr | RegFile::Ttmp,
            ..
        } => Some(format!("code{}", r.code)),
        Operand::Named(n) if n != "NULL" => Some(format!("code{}", r.code)),
        Operand::Unknown(_) => Some(format!("code{}", r.code)),
        _ => None,
    }
}

fn check_constant_bus(
    spec: &IsaSpec,
    chosen: &[u16; 2],
    reads: &[Vec<Read>; 2],
) -> Result<(), AsmError> {
    const LIMIT: usize = 2;
    let mut used: Vec<String> = Vec::new();
    // The implicit VCC reads come first: LLVM counts them before the explicit sources.
    for &k in chosen {
        let half = &spec.dual_halves[k as usize];
        let implicit_vcc = half.operands.iter().any(|o| {
            o.field.is_none()
                && o.input
                && o.operand_type
                    .is_some_and(|t| spec.operand_types[t as usize].name == "OPR_VCC")
        });
        if implicit_vcc && !used.iter().any(|u| u == "implicit-vcc") {
            used.push("implicit-vcc".into());
        }
    }
    for (h, rs) in reads.iter().enumerate() {
        let half = &spec.dual_halves[chosen[h] as usize];
        for r in rs {
            if let Some(key) = scalar_key(spec, half, r) {
                if !used.contains(&key) {
                    used.push(key);
                    if used.len() > LIMIT {
                        return Err(error(
                            r.column,
                            AsmErrorKind::OperandConstraint,
                            "invalid operand (violates constant bus restrictions)",
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Builds the word; the Y destination's implied bit must come out of `VDSTX` (one even, one
/// odd destination).
fn place(
    spec: &IsaSpec,
    base: u16,
    chosen: &[u16; 2],
    opcodes: &[u32; 2],
    reads: &[Vec<Read>; 2],
) -> Result<u128, AsmError> {
    let benc = &spec.encodings[base as usize];
    let mut bits = benc.fixed;
    for (h, op) in opcodes.iter().enumerate() {
        let f = field_of(benc, &format!("OP{}", HALVES[h])).ok_or_else(|| {
            error(
                1,
                AsmErrorKind::NoMatchingForm,
                "the dual encoding has no opcode field",
            )
        })?;
        bits = f.insert(bits, *op as u64);
    }
    for (h, rs) in reads.iter().enumerate() {
        let half = &spec.dual_halves[chosen[h] as usize];
        let enc = &spec.encodings[half.encoding as usize];
        for r in rs {
            let field = &enc.fields[half.operands[r.operand].field.unwrap() as usize];
            if field.name == "LITERAL" {
                bits = field.insert(bits, r.code);
                // The source field of this half says "literal follows".
                let src = format!("SRC{}0", HALVES[h]);
                if let Some(f) = field_of(benc, &src) {
                    bits = f.insert(bits, 255);
                }
                continue;
            }
            if !store_field(enc, field, &mut bits, r.code) {
                let (kind, msg) = if r.role == "VDST" {
                    (
                        AsmErrorKind::OperandConstraint,
                        "one dst register must be even and the other odd".to_string(),
                    )
                } else {
                    (
                        AsmErrorKind::ValueOutOfRange,
                        format!(
                            "the value does not fit the {}-bit field {}",
                            field.width(),
                            field.name
                        ),
                    )
                };
                return Err(error(r.column, kind, msg));
            }
        }
    }
    Ok(bits)
}

/// The VGPR number an operand names, if it is a VGPR.
fn vgpr(spec: &IsaSpec, half: &DualHalfInfo, r: &Read) -> Option<u32> {
    if r.literal.is_some() {
        return None;
    }
    let info = &half.operands[r.operand];
    let ty = &spec.operand_types[info.operand_type? as usize];
    match classify_in(Some(spec), ty, r.code, info.size, None) {
        Operand::Reg {
            file: RegFile::Vgpr,
            first,
            ..
        } => Some(first),
        _ => None,
    }
}

fn check_banks(spec: &IsaSpec, chosen: &[u16; 2], reads: &[Vec<Read>; 2]) -> Result<(), AsmError> {
    let halves = chosen.map(|k| &spec.dual_halves[k as usize]);
    let both_moves = halves
        .iter()
        .all(|h| spec.instructions[h.instruction as usize].name == "V_DUAL_MOV_B32");
    if crate::llvm_syntax::GFX12.contains(&spec.generation) && both_moves {
        return Ok(());
    }
    for (role, name) in [("SRC0", "src0"), ("VSRC1", "src1")] {
        let find = |h: usize| reads[h].iter().find(|r| r.role == role);
        let (Some(x), Some(y)) = (find(0), find(1)) else {
            continue;
        };
        if let (Some(a), Some(b)) = (vgpr(spec, halves[0], x), vgpr(spec, halves[1], y)) {
            if a % 4 == b % 4 {
                return Err(error(
                    y.column,
                    AsmErrorKind::OperandConstraint,
                    format!("{name} operands must use different VGPR banks"),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(all(test, feature = "rdna3"))]
mod tests {
    use super::*;

    fn spec() -> Option<&'static IsaSpec> {
        let s = crate::spec("rdna3")?;
        (s.instruction_by_name("v_dual_cndmask_b32").is_some() && !s.dual_halves.is_empty())
            .then_some(s)
    }

    // Bytes and errors from `llvm-mc-22 -mcpu=gfx1100 -show-encoding`.
    #[test]
    fn assembles_as_llvm() {
        let Some(s) = spec() else {
            eprintln!("skipped: no V_DUAL_CNDMASK_B32 in the rdna3 spec");
            return;
        };
        let ok = [
            (
                "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2",
                vec![0x01, 0x01, 0x10, 0xca, 0x02, 0x01, 0x02, 0x00],
            ),
            (
                "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_cndmask_b32 v3, 1.0, v5",
                vec![0x01, 0x04, 0x52, 0xca, 0xf2, 0x0a, 0x02, 0x00],
            ),
            (
                "v_dual_mov_b32 v0, 0x1234 :: v_dual_cndmask_b32 v3, 0x1234, v2",
                vec![
                    0xff, 0x00, 0x12, 0xca, 0xff, 0x04, 0x02, 0x00, 0x34, 0x12, 0, 0,
                ],
            ),
            (
                "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, 0x1234",
                vec![
                    0x01, 0x01, 0x10, 0xca, 0xff, 0x00, 0x02, 0x00, 0x34, 0x12, 0, 0,
                ],
            ),
        ];
        for (text, bytes) in ok {
            let d = assemble_dual(s, text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(d.encode(), bytes, "{text}");
        }
        let constraint = AsmErrorKind::OperandConstraint;
        let bad = [
            (
                "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v2, v2",
                41,
                "even and the other odd",
            ),
            (
                "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v5",
                45,
                "src0 operands must use different VGPR banks",
            ),
            (
                "v_dual_cndmask_b32 v0, v1, v2 :: v_dual_cndmask_b32 v3, v2, v6",
                61,
                "src1 operands",
            ),
            (
                "v_dual_mov_b32 v0, 0x1234 :: v_dual_mov_b32 v3, 0x4321",
                49,
                "only one unique literal",
            ),
            (
                "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_cndmask_b32 v3, s2, v5",
                57,
                "constant bus",
            ),
            (
                "v_dual_cndmask_b32 v0, vcc_lo, v2 :: v_dual_mov_b32 v3, s2",
                57,
                "constant bus",
            ),
        ];
        for (text, column, message) in bad {
            let e = assemble_dual(s, text).unwrap_err();
            assert!(e.message.contains(message), "{text}: {e}");
            assert_eq!(e.column, column, "{text}: {e}");
            // Each breaks a rule across operands, not one operand alone.
            assert_eq!(e.kind, constraint, "{text}: {e}");
        }
        let kinds = [
            (
                "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2, v4",
                AsmErrorKind::OperandCount,
            ),
            (
                "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, bogus",
                AsmErrorKind::BadOperand { index: 1 },
            ),
            (
                "v_dual_mov_b32 v0, v1 :: v_dual_nope_b32 v3, v2",
                AsmErrorKind::UnknownMnemonic,
            ),
            ("v_dual_mov_b32 v0, v1 :: ", AsmErrorKind::Syntax),
        ];
        for (text, kind) in kinds {
            let e = assemble_dual(s, text).unwrap_err();
            assert_eq!(e.kind, kind, "{text}: {e}");
        }
        // Allowed: s1 twice with VCC, `null` is free.
        assert!(assemble_dual(
            s,
            "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_mov_b32 v3, null"
        )
        .is_ok());
        assert!(assemble_dual(
            s,
            "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_cndmask_b32 v3, s1, v5"
        )
        .is_ok());
    }

    #[test]
    fn listing_places_dual_words() {
        let Some(s) = spec() else { return };
        let (lines, errors) = crate::assemble_listing(
            s,
            "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2\nv_dual_mov_b32 v0, 0x1234 :: v_dual_mov_b32 v3, v2\n",
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(lines.iter().map(|l| l.address).collect::<Vec<_>>(), [0, 8]);
        assert_eq!(lines[1].bytes.len(), 12);
    }
}
