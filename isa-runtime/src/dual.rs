//! Dual-issue words (VOPD, RDNA 3 and later): one word holds two instructions, the X half and
//! the Y half, each with its own opcode field (`OPX`, `OPY`) and operand fields (`SRCX0`,
//! `VDSTY`, ...), and at most one shared literal.
//!
//! The halves are not forms (a form has one opcode): the generator lists them in
//! [`IsaSpec::dual_halves`] and this module pairs them. Facts AMD's XML states differently
//! from the hardware (and LLVM), handled here:
//! - `VDSTY` stores bits 7:1 of the Y destination; AMD's padding says bit 0 is 0, its field
//!   description (and LLVM) says it is the complement of bit 0 of `VDSTX`.
//! - The literal encoding's condition tests only `SRCX0 == 255`, but a Y source of 255 reads
//!   the same literal (LLVM encodes `v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, 0x1234` so).
//! - A field of a half that its instruction does not use must be zero (LLVM's decoder rejects
//!   the word otherwise: `v_dual_mov_b32` with a nonzero `VSRCX1`).

use crate::decode::{DecodeError, DecodeErrorKind};
use crate::operand::{decoded_operand, DecodedOperand, Operand};
use crate::tables::{DualHalfInfo, EncodingInfo, FieldInfo, InstructionInfo, IsaSpec};

/// The two halves in the order they are written and encoded.
pub const HALVES: [&str; 2] = ["X", "Y"];

/// Code of a source field that means "the literal follows".
const LITERAL_CODE: u64 = 255;

/// A decoded dual-issue word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DualInstruction {
    pub spec: &'static IsaSpec,
    /// Indices into [`IsaSpec::dual_halves`] of the X and Y halves.
    pub halves: [u16; 2],
    /// The word's bits (with the literal, if any, in bits 95:64).
    pub bits: u128,
    /// 8 bytes, or 12 with a literal.
    pub len: usize,
}

/// The encodings that hold halves: the one without a literal first, then the literal one.
pub fn dual_encodings(spec: &IsaSpec) -> Option<(u16, Option<u16>)> {
    let mut encs: Vec<u16> = spec.dual_halves.iter().map(|h| h.encoding).collect();
    encs.sort_unstable();
    encs.dedup();
    let has_literal = |e: &u16| field_of(&spec.encodings[*e as usize], "LITERAL").is_some();
    let base = encs.iter().copied().find(|e| !has_literal(e))?;
    Some((base, encs.iter().copied().find(has_literal)))
}

/// Whether `encoding` is one of the spec's dual-issue encodings.
pub fn is_dual_encoding(spec: &IsaSpec, encoding: u16) -> bool {
    spec.dual_halves.iter().any(|h| h.encoding == encoding)
        || spec.encodings[encoding as usize]
            .fields
            .iter()
            .any(|f| f.name == "OPX")
}

pub fn field_of<'a>(enc: &'a EncodingInfo, name: &str) -> Option<&'a FieldInfo> {
    enc.fields.iter().find(|f| f.name == name)
}

/// The half (`X`, `Y`) a field of a dual encoding belongs to: its name without trailing
/// digits ends with the half's letter (`SRCX0`, `VDSTY`); `LITERAL` and `ENCODING` belong to
/// neither.
pub fn half_of_field(name: &str) -> Option<usize> {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    if stem == "ENCODING" {
        return None;
    }
    HALVES.iter().position(|h| stem.ends_with(h))
}

/// The bits every word of `enc` has outside its opcode fields (`ENCODING`).
fn fixed_mask(enc: &EncodingInfo) -> u128 {
    enc.fields
        .iter()
        .filter(|f| f.name.starts_with("OP"))
        .fold(enc.mask, |m, f| m & !f.mask())
}

/// The half of `half` (0 = X) in `encoding` with `opcode`.
pub fn find_half(spec: &IsaSpec, encoding: u16, half: usize, opcode: u32) -> Option<u16> {
    spec.dual_halves
        .iter()
        .position(|h| h.encoding == encoding && h.half == HALVES[half] && h.opcode == opcode)
        .map(|k| k as u16)
}

/// Decodes the dual-issue word at the start of `bytes`. A word whose opcode names an
/// instruction the spec does not have as that half is `NoMatchingForm` with that opcode.
pub fn decode(
    spec: &'static IsaSpec,
    bytes: &[u8],
) -> Result<(DualInstruction, usize), DecodeError> {
    let err = |kind| DecodeError {
        offset: 0,
        kind,
        spec,
    };
    let Some((base, literal_enc)) = dual_encodings(spec) else {
        let word = read_u32(bytes, 0).unwrap_or(0);
        return Err(err(DecodeErrorKind::UnknownEncoding { word }));
    };
    if bytes.len() < 8 {
        return Err(err(DecodeErrorKind::Truncated {
            needed: 8,
            available: bytes.len(),
        }));
    }
    let mut bits = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as u128;
    let enc = &spec.encodings[base as usize];
    let m = fixed_mask(enc);
    if bits & m != enc.fixed & m {
        return Err(err(DecodeErrorKind::UnknownEncoding { word: bits as u32 }));
    }
    let value = |name: &str, bits: u128| field_of(enc, name).map_or(0, |f| f.extract(bits));
    let uses_literal = [value("SRCX0", bits), value("SRCY0", bits)].map(|v| v == LITERAL_CODE);
    let mut len = 8;
    if uses_literal.contains(&true) {
        let Some(lit_enc) = literal_enc else {
            return Err(err(DecodeErrorKind::Unsupported { encoding: base }));
        };
        let Some(lit) = read_u32(bytes, 8) else {
            return Err(err(DecodeErrorKind::Truncated {
                needed: 12,
                available: bytes.len(),
            }));
        };
        let f = field_of(&spec.encodings[lit_enc as usize], "LITERAL").unwrap();
        bits = f.insert(bits, lit as u64);
        len = 12;
    }
    let mut halves = [0u16; 2];
    for (h, uses_lit) in uses_literal.iter().enumerate() {
        let opcode = value(&format!("OP{}", HALVES[h]), bits) as u32;
        // A half whose source is the literal is listed in the literal encoding.
        let preferred = if *uses_lit { literal_enc } else { Some(base) };
        let found = preferred
            .and_then(|e| find_half(spec, e, h, opcode))
            .or_else(|| find_half(spec, base, h, opcode))
            .or_else(|| literal_enc.and_then(|e| find_half(spec, e, h, opcode)));
        let Some(k) = found else {
            return Err(err(DecodeErrorKind::NoMatchingForm {
                encoding: base,
                opcode,
            }));
        };
        if !unused_fields_are_zero(spec, &spec.dual_halves[k as usize], h, bits) {
            return Err(err(DecodeErrorKind::NoMatchingForm {
                encoding: base,
                opcode,
            }));
        }
        halves[h] = k;
    }
    let word = DualInstruction {
        spec,
        halves,
        bits,
        len,
    };
    // A source code with no name (neither in AMD's type nor in LLVM's register list) makes
    // LLVM reject the word.
    for (h, &k) in halves.iter().enumerate() {
        let unnamed = word.operands(h).iter().any(|o| match o.value {
            Operand::Unknown(v) => {
                crate::disasm::scalar_code_text(spec.generation, v, o.info.size).is_none()
            }
            _ => false,
        });
        if unnamed {
            return Err(err(DecodeErrorKind::NoMatchingForm {
                encoding: base,
                opcode: spec.dual_halves[k as usize].opcode,
            }));
        }
    }
    Ok((word, len))
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    bytes
        .get(at..at + 4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
}

fn unused_fields_are_zero(spec: &IsaSpec, half: &DualHalfInfo, h: usize, bits: u128) -> bool {
    let enc = &spec.encodings[half.encoding as usize];
    // A half reading the literal names `LITERAL`; its source field holds the literal's code.
    let reads_literal = half.operands.iter().any(|o| {
        o.field
            .is_some_and(|k| enc.fields[k as usize].name == "LITERAL")
    });
    enc.fields.iter().enumerate().all(|(k, f)| {
        half_of_field(f.name) != Some(h)
            || f.name.starts_with("OP")
            || half.operands.iter().any(|o| o.field == Some(k as u8))
            // The other half's field: padded destinations are written by both.
            || f.ranges.iter().any(|r| r.pad_bits > 0)
            || f.extract(bits) == 0
            || (reads_literal
                && f.name.replacen(HALVES[h], "", 1) == "SRC0"
                && f.extract(bits) == LITERAL_CODE)
    })
}

impl DualInstruction {
    pub fn half(&self, h: usize) -> &'static DualHalfInfo {
        &self.spec.dual_halves[self.halves[h] as usize]
    }

    pub fn info(&self, h: usize) -> &'static InstructionInfo {
        &self.spec.instructions[self.half(h).instruction as usize]
    }

    pub fn encoding(&self, h: usize) -> &'static EncodingInfo {
        &self.spec.encodings[self.half(h).encoding as usize]
    }

    pub fn literal(&self) -> Option<u64> {
        (self.len > 8).then_some((self.bits >> 64) as u32 as u64)
    }

    /// The value of a field by name (of either half's encoding; the layouts agree), with a
    /// padded destination's implied bit filled in.
    pub fn field(&self, name: &str) -> Option<u64> {
        let enc = self.encoding(0);
        let f = field_of(enc, name).or_else(|| field_of(self.encoding(1), name))?;
        Some(field_value(enc, f, self.bits))
    }

    /// The operands of half `h`, in the spec's order.
    pub fn operands(&self, h: usize) -> Vec<DecodedOperand> {
        let half = self.half(h);
        let enc = self.encoding(h);
        let literal = self.literal();
        half.operands
            .iter()
            .map(|info| {
                let field = info.field.map(|f| {
                    let f = &enc.fields[f as usize];
                    (f.name, field_value(enc, f, self.bits))
                });
                decoded_operand(self.spec, info, field, literal)
            })
            .collect()
    }

    pub fn encode(&self) -> Vec<u8> {
        self.bits.to_le_bytes()[..self.len].to_vec()
    }
}

/// A field's value; a padded field of one half takes its implied low bit as the complement of
/// bit 0 of the same field of the other half (`VDSTY` from `VDSTX`).
pub fn field_value(enc: &EncodingInfo, f: &FieldInfo, bits: u128) -> u64 {
    let v = f.extract(bits);
    let padded = f.ranges.first().is_some_and(|r| r.pad_bits == 1);
    match (padded, half_of_field(f.name)) {
        (true, Some(h)) => {
            let other = f.name.replacen(HALVES[h], HALVES[1 - h], 1);
            let partner = field_of(enc, &other).map_or(0, |p| p.extract(bits));
            (v & !1) | (!partner & 1)
        }
        _ => v,
    }
}

/// Stores `value` in field `f`; a padded field checks that its implied bit is what the
/// partner field gives (`false` if not, or if the value does not fit).
pub fn store_field(enc: &EncodingInfo, f: &FieldInfo, bits: &mut u128, value: u64) -> bool {
    let stored = f.insert(*bits, value);
    if field_value(enc, f, stored) != value {
        return false;
    }
    *bits = stored;
    true
}

/// An instruction or a dual-issue word: what a code stream holds on RDNA 3 and later.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decoded {
    Single(crate::Instruction),
    Dual(DualInstruction),
}

impl Decoded {
    pub fn len(&self) -> usize {
        match self {
            Decoded::Single(i) => i.len(),
            Decoded::Dual(d) => d.len,
        }
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn encode(&self) -> Vec<u8> {
        match self {
            Decoded::Single(i) => i.encode(),
            Decoded::Dual(d) => d.encode(),
        }
    }

    /// LLVM's text.
    pub fn text(&self) -> String {
        match self {
            Decoded::Single(i) => crate::disassemble(i),
            Decoded::Dual(d) => crate::disasm::dual::disassemble(d),
        }
    }
}

/// [`crate::decode`], with the words of a dual-issue encoding (which it reports as
/// `Unsupported`) decoded as [`DualInstruction`]s.
pub fn decode_any(spec: &'static IsaSpec, bytes: &[u8]) -> Result<(Decoded, usize), DecodeError> {
    match crate::decode(spec, bytes) {
        Ok((i, n)) => Ok((Decoded::Single(i), n)),
        Err(e) => match e.kind {
            DecodeErrorKind::Unsupported { encoding } if is_dual_encoding(spec, encoding) => {
                decode(spec, bytes).map(|(d, n)| (Decoded::Dual(d), n))
            }
            _ => Err(e),
        },
    }
}

#[cfg(all(test, feature = "rdna3"))]
mod tests {
    use super::*;

    fn rdna3() -> Option<&'static IsaSpec> {
        let s = crate::spec("rdna3")?;
        if s.dual_halves.is_empty() {
            eprintln!("skipped: the rdna3 spec has no V_DUAL_* instructions");
            return None;
        }
        Some(s)
    }

    fn text(spec: &'static IsaSpec, bytes: &[u8]) -> String {
        let (d, n) = decode_any(spec, bytes).unwrap_or_else(|e| panic!("{bytes:02x?}: {e}"));
        assert_eq!(n, bytes.len());
        assert_eq!(d.encode(), bytes);
        d.text()
    }

    // Words and texts from `llvm-mc-22 -mcpu=gfx1100 -show-encoding`.
    #[test]
    fn decodes_llvm_words() {
        let Some(s) = rdna3() else { return };
        if s.instruction_by_name("v_dual_cndmask_b32").is_none() {
            return;
        }
        assert_eq!(
            text(s, &[0x01, 0x01, 0x10, 0xca, 0x02, 0x01, 0x02, 0x00]),
            "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, v2"
        );
        assert_eq!(
            text(s, &[0x01, 0x01, 0x10, 0xca, 0x02, 0x01, 0xfe, 0xff]),
            "v_dual_mov_b32 v255, v1 :: v_dual_mov_b32 v254, v2"
        );
        assert_eq!(
            text(s, &[0x01, 0x04, 0x52, 0xca, 0xf2, 0x0a, 0x02, 0x00]),
            "v_dual_cndmask_b32 v0, s1, v2 :: v_dual_cndmask_b32 v3, 1.0, v5"
        );
        assert_eq!(
            text(
                s,
                &[0x01, 0x01, 0x10, 0xca, 0xff, 0x00, 0x02, 0x00, 0x34, 0x12, 0x00, 0x00]
            ),
            "v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v3, 0x1234"
        );
        assert_eq!(
            text(
                s,
                &[0xff, 0x00, 0x12, 0xca, 0xff, 0x04, 0x02, 0x00, 0x34, 0x12, 0x00, 0x00]
            ),
            "v_dual_mov_b32 v0, 0x1234 :: v_dual_cndmask_b32 v3, 0x1234, v2"
        );
    }

    #[test]
    fn missing_half_and_unused_field_are_errors() {
        let Some(s) = rdna3() else { return };
        // OPY 0 (v_dual_fmac_f32) is not in the excerpt: the error names the opcode.
        let fmac = [0x01, 0x01, 0x00, 0xca, 0x02, 0x01, 0x02, 0x00];
        if find_half(s, dual_encodings(s).unwrap().0, 1, 0).is_none() {
            let e = decode_any(s, &fmac).unwrap_err();
            assert_eq!(
                e.kind,
                DecodeErrorKind::NoMatchingForm {
                    encoding: dual_encodings(s).unwrap().0,
                    opcode: 0
                }
            );
            assert!(e.to_string().contains("opcode 0"), "{e}");
        }
        // v_dual_mov_b32 with VSRCX1 = 0x7f: LLVM rejects the word.
        let e = decode(s, &[0x01, 0xfe, 0x10, 0xca, 0x02, 0x00, 0x02, 0x00]).unwrap_err();
        assert!(matches!(
            e.kind,
            DecodeErrorKind::NoMatchingForm { opcode: 8, .. }
        ));
        // A literal word cut short.
        let e = decode(s, &[0xff, 0x00, 0x10, 0xca, 0x02, 0x01, 0x02, 0x00, 0x34]).unwrap_err();
        assert!(matches!(
            e.kind,
            DecodeErrorKind::Truncated { needed: 12, .. }
        ));
    }
}
