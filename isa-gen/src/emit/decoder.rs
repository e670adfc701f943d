//! Emits `decode_form`: the encoding selector, compiled from the spec.
//!
//! Shape of the generated code: a table indexed by the top nine bits of the first dword picks
//! the group of encodings that can start with them (in the spec's `Order`); consecutive
//! encodings with the same fixed bits and opcode field share one test of those bits and one
//! dense opcode table (opcode → group of forms); then each form's condition (compiled from
//! the XML tree) and the literal check. No spec data is walked at run time.

use super::{condition, form_names, Form};
use crate::model::{ConditionRef, Encoding, Spec};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeMap;

const KEY_SHIFT: u32 = 23;
const KEY_VALUES: u32 = 1 << (32 - KEY_SHIFT);

/// The dword-0 part of an encoding's fixed bits. An encoding without an OP field (VOPD, with
/// OPX and OPY) keeps only the bits outside its opcode-like fields `OP*`: its identifiers
/// enumerate opcodes (and an excerpt lists only some of them).
fn dword0_fixed(enc: &Encoding) -> (u32, u32) {
    let (mut m, v) = enc.fixed_bits().unwrap_or((0, 0));
    if enc.op_field.is_none() {
        for f in enc.fields.iter().filter(|f| f.name.starts_with("OP")) {
            m &= !f.mask();
        }
    }
    (m as u32, (v & m) as u32)
}

pub fn emit(spec: &Spec, forms: &[Form]) -> TokenStream {
    // Encodings that have forms, in selection order, and the ones the generator cannot decode
    // (no OP field: dual-issue VOPD): their words get an explicit `Unsupported` error rather
    // than "no encoding matches".
    let mut encs: Vec<usize> = forms.iter().map(|f| f.encoding).collect();
    encs.extend(
        spec.encodings
            .iter()
            .enumerate()
            .filter(|(_, e)| e.op_field.is_none() && dword0_fixed(e).0 != 0)
            .map(|(k, _)| k),
    );
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

    // Keys whose candidates are one run with a plain opcode field in dword 0 (almost all) are
    // decoded from data: a row per key gives the fixed bits to test and where the opcode is,
    // and one table gives the group of forms of each opcode. The other keys (several runs to
    // try in order, opcode fields in pieces) go to generated code, one arm per candidate list.
    let mut rows = vec![KeyRow::UNKNOWN; KEY_VALUES as usize];
    let mut opcode_groups: Vec<u16> = vec![0];
    let mut group_arms = Vec::new();
    let mut general_arms = Vec::new();
    let mut tables = Vec::new();
    let mut group_count = 0u16;
    for (cands, keys) in &arms {
        let rs = runs(spec, cands);
        let plain = match rs.as_slice() {
            [run] => plain_opcode(&spec.encodings[run[0]]).map(|op| (run, op)),
            _ => None,
        };
        if let Some((run, (shift, width))) = plain {
            let (mask, value) = dword0_fixed(&spec.encodings[run[0]]);
            let base = opcode_groups.len() as u32;
            let mut table = vec![0u16; 1usize << width];
            for (op, fs) in forms_by_opcode(forms, run) {
                group_count += 1;
                table[op as usize] = group_count;
                let body = op_body(spec, forms, &names, &fs);
                let doc = format!("opcode {op} of {}", encoding_list(spec, run));
                group_arms.push(quote! { #group_count => { const _FORMS_OF: &str = #doc; #body } });
            }
            opcode_groups.extend(table);
            let row = KeyRow {
                mask,
                value,
                op_shift: shift,
                op_mask: (1u32 << width) - 1,
                base,
                encoding: run[0] as u16,
                general_arm: 0,
            };
            for &key in keys {
                rows[key as usize] = row;
            }
        } else {
            let arm = u8::try_from(general_arms.len() + 1).expect("fewer than 255 general groups");
            let mut tries = Vec::new();
            for (r, run) in rs.iter().enumerate() {
                let table_name = proc_macro2::Ident::new(
                    &format!("OPCODE_GROUP_{arm}_{r}"),
                    proc_macro2::Span::call_site(),
                );
                let (code, decl) = run_try(spec, forms, &names, run, &table_name);
                tries.push(code);
                tables.push(decl);
            }
            general_arms.push(quote! { #arm => { #(#tries)* } });
            for &key in keys {
                rows[key as usize] = KeyRow {
                    general_arm: arm,
                    ..KeyRow::UNKNOWN
                };
            }
        }
    }
    let n_keys = KEY_VALUES as usize;
    let row_tokens = rows.iter().map(|r| {
        let KeyRow { mask, value, op_shift, op_mask, base, encoding, general_arm } = *r;
        quote! { KeyRow { mask: #mask, value: #value, op_shift: #op_shift, op_mask: #op_mask, base: #base, encoding: #encoding, general_arm: #general_arm } }
    });
    // A power-of-two length lets the index be masked instead of bounds-checked.
    opcode_groups.resize(opcode_groups.len().next_power_of_two(), 0);
    let n_groups = opcode_groups.len();
    let rows_doc = format!(
        "One row per value of the top {} bits of the first dword.",
        32 - KEY_SHIFT
    );
    let group_table = if group_count < 256 {
        let entries = opcode_groups.iter().map(|&g| g as u8);
        quote! { static OPCODE_GROUP: [u8; #n_groups] = [#(#entries),*]; }
    } else {
        quote! { static OPCODE_GROUP: [u16; #n_groups] = [#(#opcode_groups),*]; }
    };

    quote! {
        use crate::tables::DecodeKeyRow as KeyRow;

        #[doc = #rows_doc]
        static KEY_ROWS: [KeyRow; #n_keys] = [#(#row_tokens),*];

        /// Opcode → group of forms (0: none), the encodings' rows one after another.
        #group_table

        #(#tables)*

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

        /// Selects the form of the instruction at the start of `bytes`; returns the form, the
        /// instruction's bits and its length in bytes.
        ///
        /// The common path has no data-dependent branch before the opcode's group is known:
        /// a word of an unknown encoding and one whose opcode names no instruction take the
        /// same road, which keeps random input from defeating branch prediction.
        #[inline]
        pub fn decode_form(bytes: &[u8]) -> Result<(u16, u128, usize), crate::DecodeErrorKind> {
            let Some(first) = bytes.first_chunk::<4>() else {
                return Err(crate::DecodeErrorKind::Truncated { needed: 4, available: bytes.len() });
            };
            let w0 = u32::from_le_bytes(*first);
            let row = KEY_ROWS[(w0 >> #KEY_SHIFT) as usize];
            if row.general_arm != 0 {
                return decode_general(bytes, w0, row.general_arm);
            }
            let hit = w0 & row.mask == row.value;
            // Index 0 holds 0 (no group).
            let op = (w0 >> row.op_shift) & row.op_mask;
            // A miss reads entry 0, computed without a branch.
            let index = (row.base + op) & (hit as u32).wrapping_neg();
            let group = OPCODE_GROUP[index as usize & (OPCODE_GROUP.len() - 1)] as u16;
            if group != 0 {
                return decode_group(bytes, w0, group);
            }
            Err(if hit {
                crate::DecodeErrorKind::NoMatchingForm { encoding: row.encoding, opcode: op }
            } else {
                crate::DecodeErrorKind::UnknownEncoding { word: w0 }
            })
        }

        /// The forms of one opcode group, tried in the spec's order (called last, so that the
        /// selector above needs no registers of its own).
        #[allow(unused_mut, unused_variables, unreachable_code, clippy::unnecessary_cast, clippy::identity_op)]
        #[inline(never)]
        fn decode_group(bytes: &[u8], w0: u32, group: u16) -> Result<(u16, u128, usize), crate::DecodeErrorKind> {
            let mut bits = w0 as u128;
            let mut loaded = 4usize;
            match group {
                #(#group_arms)*
                _ => {}
            }
            let row = KEY_ROWS[(w0 >> #KEY_SHIFT) as usize];
            Err(crate::DecodeErrorKind::NoMatchingForm { encoding: row.encoding, opcode: (w0 >> row.op_shift) & row.op_mask })
        }

        /// Keys with several runs of candidate encodings, tried in the spec's order.
        #[allow(unused_mut, unused_variables, clippy::unnecessary_cast, clippy::identity_op, clippy::match_single_binding)]
        #[inline(never)]
        fn decode_general(bytes: &[u8], w0: u32, arm: u8) -> Result<(u16, u128, usize), crate::DecodeErrorKind> {
            let mut bits = w0 as u128;
            let mut loaded = 4usize;
            // The last encoding whose fixed bits matched, with its opcode, for the error.
            let mut opcode_seen: Option<(u16, u32)> = None;
            match arm {
                #(#general_arms)*
                _ => {}
            }
            match opcode_seen {
                Some((encoding, opcode)) => Err(crate::DecodeErrorKind::NoMatchingForm { encoding, opcode }),
                None => Err(crate::DecodeErrorKind::UnknownEncoding { word: w0 }),
            }
        }
    }
}

/// A row of the generated `KEY_ROWS` table (the generator's copy of
/// `isa_runtime::tables::DecodeKeyRow`, the type the generated code names).
#[derive(Clone, Copy)]
struct KeyRow {
    mask: u32,
    value: u32,
    op_shift: u32,
    op_mask: u32,
    base: u32,
    encoding: u16,
    general_arm: u8,
}

impl KeyRow {
    /// No encoding: the fixed-bit test always fails (`w0 & 0 != 1`).
    const UNKNOWN: KeyRow = KeyRow {
        mask: 0,
        value: 1,
        op_shift: 0,
        op_mask: 0,
        base: 0,
        encoding: u16::MAX,
        general_arm: 0,
    };
}

/// An opcode field in one piece inside dword 0, narrow enough for a table: (shift, width).
fn plain_opcode(enc: &Encoding) -> Option<(u32, u32)> {
    let f = &enc.fields[enc.op_field?];
    match f.ranges.as_slice() {
        [r] if r.padding.is_none()
            && r.bit_offset + r.bit_count <= 32
            && r.bit_count <= MAX_TABLE_BITS =>
        {
            Some((r.bit_offset, r.bit_count))
        }
        _ => None,
    }
}

/// Per opcode, the forms of a run's encodings as (encoding, form index), encoding by encoding
/// in selection order.
fn forms_by_opcode(forms: &[Form], run: &[usize]) -> BTreeMap<u32, Vec<(usize, usize)>> {
    let mut by_op: BTreeMap<u32, Vec<(usize, usize)>> = BTreeMap::new();
    for &e in run {
        for (k, f) in forms.iter().enumerate().filter(|(_, f)| f.encoding == e) {
            by_op.entry(f.opcode).or_default().push((e, k));
        }
    }
    by_op
}

/// The checks of one opcode's forms: each encoding's dwords loaded once, then each form's
/// condition in order.
fn op_body(
    spec: &Spec,
    forms: &[Form],
    names: &[proc_macro2::Ident],
    fs: &[(usize, usize)],
) -> TokenStream {
    let mut body = Vec::new();
    let mut current: Option<usize> = None;
    for &(e, k) in fs {
        let enc = &spec.encodings[e];
        if current != Some(e) {
            let bytes = enc.byte_len() as usize;
            body.push(quote! { load(bytes, &mut bits, &mut loaded, #bytes)?; });
            current = Some(e);
        }
        let check = form_check(spec, forms, names, enc, k);
        body.push(check);
    }
    quote! { #(#body)* }
}

fn encoding_list(spec: &Spec, run: &[usize]) -> String {
    run.iter()
        .map(|&e| {
            format!(
                "{} (order {})",
                spec.encodings[e].name, spec.encodings[e].order
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The opcode field's value width (padding included), for a dense opcode table.
fn op_value_bits(enc: &Encoding) -> u32 {
    let f = &enc.fields[enc.op_field.expect("forms only in encodings with OP")];
    f.ranges
        .iter()
        .map(|r| r.bit_count + r.padding.as_ref().map_or(0, |p| p.bit_count))
        .sum()
}

/// Opcode tables above this width are not emitted (the selector matches on the opcode).
const MAX_TABLE_BITS: u32 = 12;

/// Splits an arm's candidate encodings (in selection order) into runs of consecutive
/// encodings that share their dword-0 fixed bits and opcode field: one test and one opcode
/// lookup serve the whole run (ENC_SOP1 and SOP1_INST_LITERAL differ only by condition).
fn runs(spec: &Spec, cands: &[usize]) -> Vec<Vec<usize>> {
    let shape = |e: usize| {
        let enc = &spec.encodings[e];
        let op = &enc.fields[enc.op_field?];
        let ranges: Vec<(u32, u32)> = op
            .ranges
            .iter()
            .map(|r| (r.bit_offset, r.bit_count))
            .collect();
        Some((dword0_fixed(enc), ranges))
    };
    let mut out: Vec<Vec<usize>> = Vec::new();
    for &e in cands {
        match out.last_mut() {
            Some(run) if shape(e).is_some() && shape(run[0]) == shape(e) => run.push(e),
            _ => out.push(vec![e]),
        }
    }
    out
}

/// The code that tries one run of encodings, and the static opcode table it reads (if any).
fn run_try(
    spec: &Spec,
    forms: &[Form],
    names: &[proc_macro2::Ident],
    run: &[usize],
    table_name: &proc_macro2::Ident,
) -> (TokenStream, TokenStream) {
    let first = &spec.encodings[run[0]];
    let (m0, v0) = dword0_fixed(first);
    let e16 = run[0] as u16;
    let Some(op_index) = first.op_field else {
        let doc = format!(
            "{} (order {}): not decoded, no OP field",
            first.name, first.order
        );
        let code = quote! {
            {
            const _ENCODING: &str = #doc;
            if w0 & #m0 == #v0 {
                return Err(crate::DecodeErrorKind::Unsupported { encoding: #e16 });
            }
            }
        };
        return (code, TokenStream::new());
    };
    let op_field = &first.fields[op_index];
    let op_in_dword0 = op_field
        .ranges
        .iter()
        .all(|r| r.bit_offset + r.bit_count <= 32);
    let op_value = condition::field_value(op_field);
    let max_bytes = run
        .iter()
        .map(|&e| spec.encodings[e].byte_len() as usize)
        .max()
        .unwrap_or(4);

    let by_op = forms_by_opcode(forms, run);
    let doc = encoding_list(spec, run);
    let opcode_expr = if op_in_dword0 {
        quote! { { let bits = w0 as u128; #op_value } }
    } else {
        quote! { { load(bytes, &mut bits, &mut loaded, #max_bytes)?; #op_value } }
    };
    let width = op_value_bits(first);
    if width > MAX_TABLE_BITS || by_op.len() >= u16::MAX as usize {
        let arms = by_op.iter().map(|(op, fs)| {
            let body = op_body(spec, forms, names, fs);
            quote! { #op => { #body } }
        });
        let code = quote! {
            {
            const _ENCODINGS: &str = #doc;
            if w0 & #m0 == #v0 {
                let op = #opcode_expr as u32;
                opcode_seen = Some((#e16, op));
                match op {
                    #(#arms)*
                    _ => {}
                }
            }
            }
        };
        return (code, TokenStream::new());
    }
    // A dense table from opcode to its group of forms (0: none): a random word whose opcode
    // names no instruction costs one load and one well-predicted branch.
    let mut table = vec![0u16; 1usize << width];
    for (g, op) in by_op.keys().enumerate() {
        table[*op as usize] = (g + 1) as u16;
    }
    let arms = by_op.values().enumerate().map(|(g, fs)| {
        let g = (g + 1) as u16;
        let body = op_body(spec, forms, names, fs);
        quote! { #g => { #body } }
    });
    let len = table.len();
    let table_doc = format!("Opcode → group of forms (0: none) for {doc}.");
    let decl = if by_op.len() < 256 {
        let entries = table.iter().map(|&x| x as u8);
        quote! {
            #[doc = #table_doc]
            static #table_name: [u8; #len] = [#(#entries),*];
        }
    } else {
        quote! {
            #[doc = #table_doc]
            static #table_name: [u16; #len] = [#(#table),*];
        }
    };
    let code = quote! {
        {
        const _ENCODINGS: &str = #doc;
        if w0 & #m0 == #v0 {
            let op = #opcode_expr as u32;
            opcode_seen = Some((#e16, op));
            match #table_name[op as usize] as u16 {
                0 => {}
                #(#arms)*
                _ => {}
            }
        }
        }
    };
    (code, decl)
}

/// `if <condition> { return <form> }` for form `k` of encoding `enc`.
fn form_check(
    spec: &Spec,
    forms: &[Form],
    names: &[proc_macro2::Ident],
    enc: &Encoding,
    k: usize,
) -> TokenStream {
    let f = &forms[k];
    let ins = &spec.instructions[f.instruction];
    let ie = &ins.encodings[f.instruction_encoding];
    let cname = &names[k];
    let bytes = enc.byte_len() as usize;
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
    let literal_free = enc.field("LITERAL").is_none() && enc.field("LITERAL64").is_none();
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
        if #cond #(#lit_checks)* { return Ok((#cname, bits, #bytes)); }
    }
}
