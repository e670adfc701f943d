//! Decoding bytes into instructions, and encoding them back.

use crate::tables::{EncodingInfo, FormInfo, InstructionInfo, IsaSpec};
use std::fmt;

/// Why the bytes at an offset are not an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DecodeErrorKind {
    /// The input ends inside the instruction.
    Truncated { needed: usize, available: usize },
    /// No encoding of this generation starts with this dword.
    UnknownEncoding { word: u32 },
    /// The encoding matched but no instruction of this spec has this opcode under the
    /// encoding's conditions.
    NoMatchingForm { encoding: u16, opcode: u32 },
    /// The word belongs to an encoding without an OP field: a dual-issue (VOPD) word, whose
    /// two opcodes pair two instructions, is decoded by [`crate::dual::decode_any`].
    Unsupported { encoding: u16 },
}

/// A decoding error with the byte offset where the instruction starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub offset: usize,
    pub kind: DecodeErrorKind,
    pub spec: &'static IsaSpec,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} at byte offset {}: ",
            self.spec.generation, self.offset
        )?;
        match self.kind {
            DecodeErrorKind::Truncated { needed, available } => write!(
                f,
                "truncated instruction: it needs {needed} bytes, only {available} remain"
            ),
            DecodeErrorKind::UnknownEncoding { word } => {
                write!(f, "no encoding matches the dword {word:#010x}")
            }
            DecodeErrorKind::NoMatchingForm { encoding, opcode } => write!(
                f,
                "opcode {opcode} of encoding {} is not an instruction of this spec",
                self.spec.encodings[encoding as usize].name
            ),
            DecodeErrorKind::Unsupported { encoding } => write!(
                f,
                "a word of encoding {}, which has no OP field: a dual-issue (VOPD) word pairs two opcodes and is decoded by `isa_runtime::dual` (`decode_any`), not as one instruction",
                self.spec.encodings[encoding as usize].name
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

impl PartialEq for &'static IsaSpec {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(*self, *other)
    }
}
impl Eq for &'static IsaSpec {}

/// A decoded instruction: its form (instruction × encoding × condition) and its exact bits.
/// Every bit is kept, so [`Instruction::encode`] gives back the bytes it was decoded from.
#[derive(Clone, Copy)]
pub struct Instruction {
    pub spec: &'static IsaSpec,
    pub form: u16,
    /// The instruction's bits; bit 0 is the least significant bit of the first byte.
    pub bits: u128,
}

impl PartialEq for Instruction {
    fn eq(&self, o: &Self) -> bool {
        std::ptr::eq(self.spec, o.spec) && self.form == o.form && self.bits == o.bits
    }
}
impl Eq for Instruction {}

impl fmt::Debug for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} [{}] {:#x}",
            self.info().name,
            self.encoding().name,
            self.bits & crate::tables::low_mask(self.len() as u32 * 8)
        )
    }
}

impl Instruction {
    pub fn form_info(&self) -> &'static FormInfo {
        &self.spec.forms[self.form as usize]
    }

    pub fn info(&self) -> &'static InstructionInfo {
        &self.spec.instructions[self.form_info().instruction as usize]
    }

    pub fn encoding(&self) -> &'static EncodingInfo {
        &self.spec.encodings[self.form_info().encoding as usize]
    }

    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.encoding().bits as usize / 8
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The value of a field of the encoding by name.
    pub fn field(&self, name: &str) -> Option<u64> {
        self.encoding()
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| f.extract(self.bits))
    }

    /// Appends the instruction's bytes.
    pub fn encode_into(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.bits.to_le_bytes()[..self.len()]);
    }

    pub fn encode(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.len());
        self.encode_into(&mut v);
        v
    }

    /// A new instruction of a form: the encoding's fixed bits and the opcode set, every other
    /// field zero.
    pub fn new(spec: &'static IsaSpec, form: u16) -> Instruction {
        let f = &spec.forms[form as usize];
        let enc = &spec.encodings[f.encoding as usize];
        let mut bits = enc.fixed;
        if let Some(op) = enc.op_field {
            bits = enc.fields[op as usize].insert(bits, f.opcode as u64);
        }
        Instruction { spec, form, bits }
    }

    /// Sets a field by index in the encoding; `false` if the value does not fit.
    pub fn set_field(&mut self, field: usize, value: u64) -> bool {
        let f = &self.encoding().fields[field];
        if !f.can_hold(value) {
            return false;
        }
        self.bits = f.insert(self.bits, value);
        true
    }
}

/// Decodes the instruction at the start of `bytes`; returns it and its length.
#[inline]
pub fn decode(spec: &'static IsaSpec, bytes: &[u8]) -> Result<(Instruction, usize), DecodeError> {
    (spec.decode)(bytes)
}

/// [`decode`] with the generation's selector given directly, so that it can be inlined (each
/// generation module's `decode` uses this).
#[inline(always)]
pub fn decode_with(
    spec: &'static IsaSpec,
    decode_form: crate::tables::DecodeFormFn,
    bytes: &[u8],
) -> Result<(Instruction, usize), DecodeError> {
    match decode_form(bytes) {
        Ok((form, bits, len)) => Ok((Instruction { spec, form, bits }, len)),
        Err(kind) => Err(DecodeError {
            offset: 0,
            kind,
            spec,
        }),
    }
}

/// One entry of a stream listing: an instruction, or an error for the dword at that offset.
#[derive(Clone, Debug)]
pub struct ListingEntry {
    pub offset: usize,
    pub result: Result<Instruction, DecodeError>,
}

/// Decodes a code blob. A bad dword is reported with its offset and decoding resumes at the
/// next dword; a truncated tail ends the listing with its error.
pub fn decode_stream(spec: &'static IsaSpec, bytes: &[u8]) -> Vec<ListingEntry> {
    let mut out = Vec::new();
    let mut offset = 0;
    while offset < bytes.len() {
        match decode(spec, &bytes[offset..]) {
            Ok((ins, len)) => {
                out.push(ListingEntry {
                    offset,
                    result: Ok(ins),
                });
                offset += len;
            }
            Err(mut e) => {
                e.offset = offset;
                let truncated = matches!(e.kind, DecodeErrorKind::Truncated { .. });
                out.push(ListingEntry {
                    offset,
                    result: Err(e),
                });
                if truncated && bytes.len() - offset < 4 {
                    break;
                }
                // A dual-issue word is reported here (an `Instruction` holds one opcode; see
                // `crate::dual`) but skipped whole, so the next instruction is found.
                offset += match e.kind {
                    DecodeErrorKind::Unsupported { encoding }
                        if crate::dual::is_dual_encoding(spec, encoding) =>
                    {
                        crate::dual::decode(spec, &bytes[offset..]).map_or(4, |d| d.1)
                    }
                    _ => 4,
                };
            }
        }
    }
    out
}
