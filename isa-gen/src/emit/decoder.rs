//! Emits `decode_form`: the encoding selector, compiled from the spec.
//!
//! Shape of the generated code: a table indexed by the top nine bits of the first dword picks
//! the group of encodings that can start with them (in the spec's `Order`); for each, a test of its fixed
//! bits, a `match` on the opcode, then the form's condition (compiled from the XML tree) and
//! the literal check. No spec data is walked at run time.

use super::{condition, form_names, Form};
use crate::model::{ConditionRef, Encoding, Spec};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeMap;

const KEY_SHIFT: u32 = 23;
const KEY_VALUES: u32 = 1 << (32 - KEY_SHIFT);

/// The dword-0 part of an encoding's fixed bits.
fn dword0_fixed(enc: &Encoding) -> (u32, u32) {
    let (m, v) = enc.fixed_bits().unwrap_or((0, 0));
    (m as u32, v as u32)
}

pub fn emit(spec: &Spec, forms: &[Form]) -> TokenStream {
    // Encodings that have forms, in selection order.
    let mut encs: Vec<usize> = forms.iter().map(|f| f.encoding).collect();
    encs.sort_by_key(|&e| (spec.encodings[e].order, e));
    encs.dedup();

    // Per key value, the candidate encodings.
    let mut arms: BTreeMap<Vec<usize>, Vec<u32>> = BTreeMap::new();
    for key in 0..KEY_VALUES {
        let cands: Vec<usize> = encs
            .iter()
            .copied()
            .filter(|&e| {
                let (m, v) = dword0_fixed(&spec.encodings[e]);
                let (km, kv) = (m >> KEY_SHIFT, v >> KEY_SHIFT);
                key & km == kv & km
            })
            .collect();
        if !cands.is_empty() {
            arms.entry(cands).or_default().push(key);
        }
    }

    let names = form_names(spec, forms);
    // A dense table from key to arm number makes the dispatch one indexed load and a jump
    // table, whatever the shape of the key sets.
    let mut arm_of_key = vec![0u8; KEY_VALUES as usize];
    for (k, (_, keys)) in arms.iter().enumerate() {
        for &key in keys {
            arm_of_key[key as usize] = u8::try_from(k + 1).expect("fewer than 255 encoding groups");
        }
    }
    let arm_tokens = arms.iter().enumerate().map(|(k, (cands, _))| {
        let arm = (k + 1) as u8;
        let tries = cands.iter().map(|&e| encoding_try(spec, forms, &names, e));
        quote! { #arm => { #(#tries)* } }
    });
    let n_keys = KEY_VALUES as usize;

    quote! {
        /// The group of candidate encodings for each value of the top bits of the first dword.
        static ARM_OF_KEY: [u8; #n_keys] = [#(#arm_of_key),*];

        /// Loads dwords up to `needed` bytes into `bits`.
        #[inline(always)]
        fn load(bytes: &[u8], bits: &mut u128, loaded: &mut usize, needed: usize) -> Result<(), crate::DecodeErrorKind> {
            if bytes.len() < needed {
                return Err(crate::DecodeErrorKind::Truncated { needed, available: bytes.len() });
            }
            while *loaded < needed {
                let w = u32::from_le_bytes([bytes[*loaded], bytes[*loaded + 1], bytes[*loaded + 2], bytes[*loaded + 3]]);
                *bits |= (w as u128) << (*loaded * 8);
                *loaded += 4;
            }
            Ok(())
        }

        /// Decodes the instruction at the start of `bytes` (the same as
        /// `isa_runtime::decode(&ISA, bytes)`, with the selector inlined).
        #[inline]
        pub fn decode(bytes: &[u8]) -> Result<(crate::Instruction, usize), crate::DecodeError> {
            crate::decode::decode_with(&ISA, decode_form, bytes)
        }

        /// Selects the form of the instruction at the start of `bytes`; returns the form and
        /// the instruction's bits (its length is its encoding's).
        #[allow(unused_mut, unused_variables, clippy::unnecessary_cast, clippy::identity_op, clippy::match_single_binding)]
        pub fn decode_form(bytes: &[u8]) -> Result<(u16, u128), crate::DecodeErrorKind> {
            let Some(&[b0, b1, b2, b3]) = bytes.first_chunk::<4>() else {
                return Err(crate::DecodeErrorKind::Truncated { needed: 4, available: bytes.len() });
            };
            let w0 = u32::from_le_bytes([b0, b1, b2, b3]);
            let mut bits = w0 as u128;
            let mut loaded = 4usize;
            let mut opcode_seen: Option<(u16, u32)> = None;
            match ARM_OF_KEY[(w0 >> #KEY_SHIFT) as usize] {
                #(#arm_tokens)*
                _ => {}
            }
            match opcode_seen {
                Some((encoding, opcode)) => Err(crate::DecodeErrorKind::NoMatchingForm { encoding, opcode }),
                None => Err(crate::DecodeErrorKind::UnknownEncoding { word: w0 }),
            }
        }
    }
}

fn encoding_try(
    spec: &Spec,
    forms: &[Form],
    names: &[proc_macro2::Ident],
    e: usize,
) -> TokenStream {
    let enc = &spec.encodings[e];
    let (m0, v0) = dword0_fixed(enc);
    let bytes = enc.byte_len() as usize;
    let op_field = &enc.fields[enc.op_field.expect("forms only in encodings with OP")];
    let op_in_dword0 = op_field
        .ranges
        .iter()
        .all(|r| r.bit_offset + r.bit_count <= 32);
    let op_value = condition::field_value(op_field);
    let e16 = e as u16;

    // Forms of this encoding, grouped by opcode, in spec order.
    let mut by_op: BTreeMap<u32, Vec<(usize, &Form)>> = BTreeMap::new();
    for (k, f) in forms.iter().enumerate().filter(|(_, f)| f.encoding == e) {
        by_op.entry(f.opcode).or_default().push((k, f));
    }
    let literal_free = enc.field("LITERAL").is_none() && enc.field("LITERAL64").is_none();
    let op_arms = by_op.iter().map(|(op, fs)| {
        let checks = fs.iter().map(|(k, f)| {
            let ins = &spec.instructions[f.instruction];
            let ie = &ins.encodings[f.instruction_encoding];
            let cname = &names[*k];
            let cond = match &ie.condition {
                ConditionRef::Defined { index } => enc.conditions[*index]
                    .expr
                    .as_ref()
                    .map(|x| condition::compile(x, enc)),
                // A condition the encoding does not define: the encoding's own `default`, if any.
                ConditionRef::Undefined { .. } | ConditionRef::Unconditional => enc
                    .conditions
                    .iter()
                    .find(|c| c.name == "default")
                    .and_then(|c| c.expr.as_ref())
                    .map(|x| condition::compile(x, enc)),
            };
            let cond = match cond {
                Some(Ok(t)) => t,
                _ => quote! { true },
            };
            // A source naming SRC_LITERAL in an encoding without a literal field means the
            // instruction carries a literal: this form cannot be it.
            let lit_checks: Vec<TokenStream> = if literal_free {
                ie.operands
                    .iter()
                    .filter_map(|o| {
                        let f = &enc.fields[o.field?];
                        let t = &spec.operand_types[o.operand_type?];
                        let lits: Vec<i64> = t
                            .predefined_values
                            .iter()
                            .filter(|v| v.name.starts_with("SRC_LITERAL"))
                            .map(|v| v.value)
                            .collect();
                        if lits.is_empty() {
                            return None;
                        }
                        let fv = condition::field_value(f);
                        Some(quote! { && !matches!(#fv, #(#lits)|*) })
                    })
                    .collect()
            } else {
                Vec::new()
            };
            quote! {
                if #cond #(#lit_checks)* { return Ok((#cname, bits)); }
            }
        });
        quote! { #op => { load(bytes, &mut bits, &mut loaded, #bytes)?; #(#checks)* } }
    });
    let opcode_expr = if op_in_dword0 {
        quote! { { let bits = w0 as u128; #op_value } }
    } else {
        quote! { { load(bytes, &mut bits, &mut loaded, #bytes)?; #op_value } }
    };
    let doc = format!("{} (order {})", enc.name, enc.order);
    quote! {
        {
        const _ENCODING: &str = #doc;
        if w0 & #m0 == #v0 {
            let op = #opcode_expr as u32;
            opcode_seen = Some((#e16, op));
            match op {
                #(#op_arms)*
                _ => {}
            }
        }
        }
    }
}
