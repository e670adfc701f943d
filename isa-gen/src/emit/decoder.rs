//! Emits `decode_form`: the encoding selector, compiled from the spec.
//!
//! Shape of the generated code: a table indexed by the top nine bits of the first dword picks
//! the group of encodings that can start with them (in the spec's `Order`); consecutive
//! encodings with the same fixed bits and opcode field share one test of those bits and one
//! dense opcode table (opcode → group of forms). A group's forms are tried in order, each
//! with its encoding's dwords loaded and its condition tested. Groups whose forms come from
//! the same encodings under the same conditions (all SOP2 opcodes, say) share one *pattern*
//! of tests, and each distinct condition is one named predicate over named fields
//! (`c_sop2_inst_literal_has_lit_0`), so the decoder grows with the spec's encodings and
//! conditions, not with its instructions. The per-group data (pattern, forms) are rows with a
//! comment naming the opcode and its instruction.

use super::{condition, form_names, Form};
use crate::model::{ConditionRef, Encoding, Spec};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::Write as _;

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

/// The decoder of one generation: tokens (the selector, the predicates, the patterns) and
/// text rows (the key rows and the group tables, one commented row per entry).
pub struct Decoder {
    pub tokens: TokenStream,
    pub rows: String,
}

pub fn emit(spec: &Spec, forms: &[Form]) -> Decoder {
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
    let mut b = Builder::new(spec, forms);

    // Keys whose candidates are one run with a plain opcode field in dword 0 (almost all) are
    // decoded from data: a row per key gives the fixed bits to test and where the opcode is,
    // and one table gives the group of forms of each opcode. The other keys (several runs to
    // try in order, opcode fields in pieces) go to generated code, one arm per candidate list.
    let mut rows = vec![(KeyRow::UNKNOWN, String::from("no encoding")); KEY_VALUES as usize];
    let mut opcode_groups: Vec<u16> = vec![0];
    let mut general_arms = Vec::new();
    let mut tables = Vec::new();
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
            let list = encoding_list(spec, run);
            for (op, fs) in forms_by_opcode(forms, run) {
                table[op as usize] = b.group(&fs, format!("opcode {op} of {list}"));
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
                rows[key as usize] = (row, format!("{list}, opcode table at {base}"));
            }
        } else {
            let arm = u8::try_from(general_arms.len() + 1).expect("fewer than 255 general groups");
            let mut tries = Vec::new();
            for (r, run) in rs.iter().enumerate() {
                let table_name = proc_macro2::Ident::new(
                    &format!("OPCODE_GROUP_{arm}_{r}"),
                    proc_macro2::Span::call_site(),
                );
                let (code, decl) = run_try(&mut b, run, &table_name);
                tries.push(code);
                tables.push(decl);
            }
            general_arms.push(quote! { #arm => { #(#tries)* } });
            let doc = format!(
                "general arm {arm}: {}",
                rs.iter()
                    .map(|run| encoding_list(spec, run))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
            for &key in keys {
                rows[key as usize] = (
                    KeyRow {
                        general_arm: arm,
                        ..KeyRow::UNKNOWN
                    },
                    doc.clone(),
                );
            }
        }
    }
    let n_keys = KEY_VALUES as usize;
    // A power-of-two length lets the index be masked instead of bounds-checked.
    opcode_groups.resize(opcode_groups.len().next_power_of_two(), 0);
    let n_groups = opcode_groups.len();
    let group_table = if opcode_groups.iter().all(|&g| g < 256) {
        let entries = opcode_groups.iter().map(|&g| g as u8);
        quote! { static OPCODE_GROUP: [u8; #n_groups] = [#(#entries),*]; }
    } else {
        quote! { static OPCODE_GROUP: [u16; #n_groups] = [#(#opcode_groups),*]; }
    };

    let predicates = &b.predicates;
    let pattern_arms = b.patterns.iter().enumerate().map(|(p, checks)| {
        let p = p as u16;
        let doc = &b.pattern_docs[p as usize];
        let mut body = Vec::new();
        let mut loaded = 0usize;
        for (i, c) in checks.iter().enumerate() {
            let len = c.bytes;
            if len != loaded {
                body.push(quote! { load(bytes, bits, loaded, #len)?; });
                loaded = len;
            }
            body.push(match c.predicate {
                Some(k) => {
                    let f = &b.predicate_idents[k];
                    quote! { if #f(*bits) { return Ok(Some((#i, #len))); } }
                }
                None => quote! { return Ok(Some((#i, #len))); },
            });
        }
        quote! { #p => { const _TESTS: &str = #doc; #(#body)* } }
    });

    let tokens = quote! {
        use crate::tables::DecodeKeyRow as KeyRow;

        /// A row of [`KEY_ROWS`].
        const fn key_row(mask: u32, value: u32, op_shift: u32, op_mask: u32, base: u32, encoding: u16, general_arm: u8) -> KeyRow {
            KeyRow { mask, value, op_shift, op_mask, base, encoding, general_arm }
        }

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

        #(#predicates)*

        /// Tries the tests of `pattern` in order (each loads its encoding's dwords, then checks
        /// its condition): the index of the first that holds in the group's forms, and the
        /// instruction's length.
        #[allow(unreachable_code)]
        fn try_pattern(bytes: &[u8], bits: &mut u128, loaded: &mut usize, pattern: u16) -> Result<Option<(usize, usize)>, crate::DecodeErrorKind> {
            match pattern {
                #(#pattern_arms)*
                _ => {}
            }
            Ok(None)
        }

        /// The form of group `group` that the bits hold, if any: (form, bits, length).
        #[inline(always)]
        fn try_group(bytes: &[u8], bits: &mut u128, loaded: &mut usize, group: u16) -> Result<Option<(u16, u128, usize)>, crate::DecodeErrorKind> {
            let (pattern, first) = GROUPS[group as usize];
            Ok(try_pattern(bytes, bits, loaded, pattern)?.map(|(i, len)| (GROUP_FORMS[first as usize + i], *bits, len)))
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
        #[inline(never)]
        fn decode_group(bytes: &[u8], w0: u32, group: u16) -> Result<(u16, u128, usize), crate::DecodeErrorKind> {
            let mut bits = w0 as u128;
            let mut loaded = 4usize;
            if let Some(hit) = try_group(bytes, &mut bits, &mut loaded, group)? {
                return Ok(hit);
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
    };

    // The data tables as rows, one per entry, each with a comment naming it.
    let mut text = String::new();
    let _ = writeln!(
        text,
        "\n/// One row per value of the top {} bits of the first dword: the fixed bits to test,\n/// the opcode's place and the start of its opcode table, or the general arm to run.\n#[rustfmt::skip]\nstatic KEY_ROWS: [KeyRow; {n_keys}] = [",
        32 - KEY_SHIFT
    );
    let enc_ident = |e: u16| {
        if e == u16::MAX {
            "u16::MAX".to_string()
        } else {
            super::ident(&format!("E_{}", spec.encodings[e as usize].name)).to_string()
        }
    };
    for (key, (r, doc)) in rows.iter().enumerate() {
        let _ = writeln!(
            text,
            "    key_row({:#x}, {:#x}, {}, {:#x}, {}, {}, {}), // {key:#05x}: {doc}",
            r.mask,
            r.value,
            r.op_shift,
            r.op_mask,
            r.base,
            enc_ident(r.encoding),
            r.general_arm
        );
    }
    text.push_str("];\n");
    let _ = writeln!(
        text,
        "\n/// Per group of forms (index 0 unused): its pattern of tests in `try_pattern` and where\n/// its forms start in [`GROUP_FORMS`].\n#[rustfmt::skip]\nstatic GROUPS: [(u16, u16); {}] = [\n    (0, 0), // no group",
        b.groups.len() + 1
    );
    for (g, (pattern, first, doc)) in b.groups.iter().enumerate() {
        let _ = writeln!(text, "    ({pattern}, {first}), // group {}: {doc}", g + 1);
    }
    text.push_str("];\n");
    let _ = writeln!(
        text,
        "\n/// The forms of each group, in the order of its pattern's tests.\n#[rustfmt::skip]\nstatic GROUP_FORMS: [u16; {}] = [",
        b.group_forms.len()
    );
    for (g, (pattern, first, _)) in b.groups.iter().enumerate() {
        let n = b.patterns[*pattern].len();
        let list: Vec<String> = b.group_forms[*first..*first + n]
            .iter()
            .map(|&k| names[k].to_string())
            .collect();
        // GROUPS names the opcode and instructions; the group number is enough here.
        let _ = writeln!(text, "    {}, // group {}", list.join(", "), g + 1);
    }
    text.push_str("];\n");
    Decoder { tokens, rows: text }
}

/// One test of a pattern: the bytes its encoding needs, and its predicate (`None`: the
/// condition always holds).
#[derive(Clone, PartialEq, Eq, Hash)]
struct Check {
    bytes: usize,
    predicate: Option<usize>,
}

/// What the generated groups share: named predicates, patterns of tests, group rows.
struct Builder<'a> {
    spec: &'a Spec,
    forms: &'a [Form],
    /// The predicate functions, one per distinct (encoding, condition, literal check).
    predicates: Vec<TokenStream>,
    predicate_idents: Vec<proc_macro2::Ident>,
    predicate_of: HashMap<String, usize>,
    predicate_name_uses: HashMap<String, usize>,
    patterns: Vec<Vec<Check>>,
    pattern_docs: Vec<String>,
    pattern_of: HashMap<Vec<Check>, usize>,
    /// Per group (id = index + 1): its pattern, its first entry in `group_forms`, a comment.
    groups: Vec<(usize, usize, String)>,
    group_forms: Vec<usize>,
}

impl<'a> Builder<'a> {
    fn new(spec: &'a Spec, forms: &'a [Form]) -> Self {
        Builder {
            spec,
            forms,
            predicates: Vec::new(),
            predicate_idents: Vec::new(),
            predicate_of: HashMap::new(),
            predicate_name_uses: HashMap::new(),
            patterns: Vec::new(),
            pattern_docs: Vec::new(),
            pattern_of: HashMap::new(),
            groups: Vec::new(),
            group_forms: Vec::new(),
        }
    }

    /// A group for the forms `fs` (encoding, form) of one opcode, tried in order; its id.
    fn group(&mut self, fs: &[(usize, usize)], doc: String) -> u16 {
        let checks: Vec<Check> = fs
            .iter()
            .map(|&(e, k)| Check {
                bytes: self.spec.encodings[e].byte_len() as usize,
                predicate: self.predicate(e, k),
            })
            .collect();
        let pattern = match self.pattern_of.get(&checks) {
            Some(&p) => p,
            None => {
                let p = self.patterns.len();
                let doc = fs
                    .iter()
                    .map(|&(e, k)| {
                        let enc = &self.spec.encodings[e];
                        format!("{} {}", enc.name, self.condition_name(k))
                    })
                    .collect::<Vec<_>>()
                    .join(", ");
                self.pattern_of.insert(checks.clone(), p);
                self.patterns.push(checks);
                self.pattern_docs.push(doc);
                p
            }
        };
        let first = self.group_forms.len();
        self.group_forms.extend(fs.iter().map(|&(_, k)| k));
        let mut names: Vec<&str> = fs
            .iter()
            .map(|&(_, k)| {
                self.spec.instructions[self.forms[k].instruction]
                    .name
                    .as_str()
            })
            .collect();
        names.dedup();
        self.groups
            .push((pattern, first, format!("{doc}: {}", names.join(", "))));
        self.groups.len() as u16
    }

    fn condition_name(&self, k: usize) -> String {
        let f = &self.forms[k];
        let ie = &self.spec.instructions[f.instruction].encodings[f.instruction_encoding];
        ie.condition_name
            .clone()
            .unwrap_or_else(|| "default".into())
    }

    /// The predicate of form `k` (in encoding `e`): its condition (the encoding's `default`
    /// where the form names none the encoding defines) and, in an encoding without a literal
    /// field, that no source names a literal. `None` when that always holds.
    fn predicate(&mut self, e: usize, k: usize) -> Option<usize> {
        let spec = self.spec;
        let enc = &spec.encodings[e];
        let f = &self.forms[k];
        let ins = &spec.instructions[f.instruction];
        let ie = &ins.encodings[f.instruction_encoding];
        let (cond_name, expr) = match &ie.condition {
            ConditionRef::Defined { index } => (
                enc.conditions[*index].name.clone(),
                enc.conditions[*index].expr.as_ref(),
            ),
            // A condition the encoding does not define: the encoding's own `default`, if any.
            ConditionRef::Undefined { .. } | ConditionRef::Unconditional => {
                match enc.conditions.iter().find(|c| c.name == "default") {
                    Some(c) => (c.name.clone(), c.expr.as_ref()),
                    None => ("always".to_string(), None),
                }
            }
        };
        let mut fields = BTreeSet::new();
        let test = match expr.map(|x| condition::compile_named(x, enc, &mut fields)) {
            Some(Ok(t)) => t,
            // A condition that does not compile was reported by `collect_forms`.
            _ => condition::Test::Const(true),
        };
        // A source naming SRC_LITERAL in an encoding without a literal field means the
        // instruction carries a literal: this form cannot be it.
        let literal_free = enc.field("LITERAL").is_none() && enc.field("LITERAL64").is_none();
        let mut lit_checks = Vec::new();
        if literal_free {
            for o in &ie.operands {
                let (Some(fi), Some(ti)) = (o.field, o.operand_type) else {
                    continue;
                };
                let lits: Vec<i64> = spec.operand_types[ti]
                    .predefined_values
                    .iter()
                    .filter(|v| v.name.starts_with("SRC_LITERAL"))
                    .map(|v| v.value)
                    .collect();
                if lits.is_empty() {
                    continue;
                }
                fields.insert(fi);
                let l = condition::local_name(&enc.fields[fi]);
                lit_checks.push(quote! { !matches!(#l, #(#lits)|*) });
            }
        }
        let cond = match test {
            condition::Test::Const(true) if lit_checks.is_empty() => return None,
            condition::Test::Const(true) => None,
            condition::Test::Const(false) => Some(quote! { false }),
            condition::Test::Expr(t) => Some(t),
        };
        let all: Vec<TokenStream> = cond.into_iter().chain(lit_checks.iter().cloned()).collect();
        let key = format!("{e} {}", quote! { #(#all)&&* });
        if let Some(&p) = self.predicate_of.get(&key) {
            return Some(p);
        }
        let mut name = format!("c_{}_{}", enc.name, cond_name).to_ascii_lowercase();
        if !lit_checks.is_empty() {
            name.push_str("_no_literal");
        }
        // Condition names can be expressions (`!(HAS_LIT_0 || ...)`): one `_` per gap.
        let name = name
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join("_");
        let uses = self.predicate_name_uses.entry(name.clone()).or_insert(0);
        let name = if *uses == 0 {
            name
        } else {
            format!("{name}_{uses}")
        };
        *uses += 1;
        let ident = proc_macro2::Ident::new(&name, proc_macro2::Span::call_site());
        let locals = fields.iter().map(|&fi| {
            let f = &enc.fields[fi];
            let l = condition::local_name(f);
            let v = condition::field_value(f);
            quote! { let #l = #v; }
        });
        let doc = format!(
            " {}, condition `{cond_name}`{}.",
            enc.name,
            if lit_checks.is_empty() {
                ""
            } else {
                ", and no source names a literal (the encoding has no literal field)"
            }
        );
        self.predicates.push(quote! {
            #[doc = #doc]
            #[inline(always)]
            fn #ident(bits: u128) -> bool {
                #(#locals)*
                #(#all)&&*
            }
        });
        self.predicate_idents.push(ident);
        let p = self.predicates.len() - 1;
        self.predicate_of.insert(key, p);
        Some(p)
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
    b: &mut Builder,
    run: &[usize],
    table_name: &proc_macro2::Ident,
) -> (TokenStream, TokenStream) {
    let spec = b.spec;
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

    let by_op = forms_by_opcode(b.forms, run);
    let doc = encoding_list(spec, run);
    let opcode_expr = if op_in_dword0 {
        quote! { { let bits = w0 as u128; #op_value } }
    } else {
        quote! { { load(bytes, &mut bits, &mut loaded, #max_bytes)?; #op_value } }
    };
    let width = op_value_bits(first);
    let try_found = quote! {
        if group != 0 {
            if let Some(hit) = try_group(bytes, &mut bits, &mut loaded, group)? {
                return Ok(hit);
            }
        }
    };
    if width > MAX_TABLE_BITS || by_op.len() >= u16::MAX as usize {
        let arms: Vec<TokenStream> = by_op
            .iter()
            .map(|(op, fs)| {
                let g = b.group(fs, format!("opcode {op} of {doc}"));
                quote! { #op => #g, }
            })
            .collect();
        let code = quote! {
            {
            const _ENCODINGS: &str = #doc;
            if w0 & #m0 == #v0 {
                let op = #opcode_expr as u32;
                opcode_seen = Some((#e16, op));
                let group: u16 = match op {
                    #(#arms)*
                    _ => 0,
                };
                #try_found
            }
            }
        };
        return (code, TokenStream::new());
    }
    // A dense table from opcode to its group of forms (0: none).
    let mut table = vec![0u16; 1usize << width];
    for (op, fs) in &by_op {
        table[*op as usize] = b.group(fs, format!("opcode {op} of {doc}"));
    }
    let len = table.len();
    let table_doc = format!("Opcode → group of forms (0: none) for {doc}.");
    let decl = quote! {
        #[doc = #table_doc]
        static #table_name: [u16; #len] = [#(#table),*];
    };
    let code = quote! {
        {
        const _ENCODINGS: &str = #doc;
        if w0 & #m0 == #v0 {
            let op = #opcode_expr as u32;
            opcode_seen = Some((#e16, op));
            let group = #table_name[op as usize];
            #try_found
        }
        }
    };
    (code, decl)
}
