//! Emits the static tables of one generation.
//!
//! The small items (the `IsaSpec`, encodings, operand types, id constants) are tokens formatted
//! with the rest of the module. The large tables (forms, their operand lists, instructions) are
//! written as text, one row per entry with named references (`I_DS_ADD_U32`, `E_ENC_DS`,
//! `T_OPR_VGPR`) and a trailing comment naming the entry, under `#[rustfmt::skip]`: a person
//! finds an instruction's row by its name, and identical operand lists are stored once.

use super::{form_names, ident, Form};
use crate::model::{Field, OperandType, Spec};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::HashMap;
use std::fmt::Write as _;

/// The tables of one generation: tokens for the small items, text rows for the large ones.
pub struct Tables {
    pub tokens: TokenStream,
    pub rows: String,
}

pub fn emit(spec: &Spec, forms: &[Form], skipped: &[(String, String)]) -> Tables {
    let generation = spec.label();
    let arch = &spec.architecture_name;
    let release = spec.release_date.clone().unwrap_or_default();
    let schema = spec.schema_version.clone().unwrap_or_default();
    let source = spec
        .path
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string();
    let mcpu = spec.generation.map_or("", |g| g.llvm_mcpu());
    let wave64 = spec.generation.is_some_and(|g| g.traits().wave64);
    // The traits are read from isa-vocab's one table, by the generation's name.
    let traits = {
        let name = spec.generation.map_or("", |g| g.name());
        quote! { Traits::named(#name) }
    };

    let encodings = spec.encodings.iter().map(|e| {
        let name = &e.name;
        let order = e.order;
        let bits = e.bit_count;
        let mask = hex_u128(e.mask);
        let fixed = hex_u128(e.fixed_bits().map_or(0, |(_, v)| v));
        let fields = e.fields.iter().map(field_info);
        let op_field = match e.op_field {
            Some(i) => {
                let i = i as u8;
                quote! { Some(#i) }
            }
            None => quote! { None },
        };
        let family = quote::format_ident!("{}", format!("{:?}", e.family));
        let isa_vocab::Variant { literal, dpp8, dpp16, plain_dpp, sdwa, sdst, mfma, x2 } = e.variant;
        quote! {
            EncodingInfo {
                name: #name, order: #order, bits: #bits, mask: #mask, fixed: #fixed, fields: &[#(#fields),*], op_field: #op_field,
                family: Family::#family,
                variant: Variant { literal: #literal, dpp8: #dpp8, dpp16: #dpp16, plain_dpp: #plain_dpp, sdwa: #sdwa, sdst: #sdst, mfma: #mfma, x2: #x2 },
            }
        }
    });

    // Encoding and form ids as documented constants: one comment per table entry.
    let encoding_consts = spec.encodings.iter().enumerate().map(|(k, e)| {
        let cname = ident(&format!("E_{}", e.name));
        let doc = format!(
            "{}: {} bits, order {}, {} fields",
            e.name,
            e.bit_count,
            e.order,
            e.fields.len()
        );
        let k = k as u16;
        quote! { #[doc = #doc] pub const #cname: u16 = #k; }
    });
    let names = form_names(spec, forms);
    let form_consts = forms.iter().zip(&names).enumerate().map(|(k, (f, cname))| {
        let ins = &spec.instructions[f.instruction];
        let ie = &ins.encodings[f.instruction_encoding];
        let enc = &spec.encodings[f.encoding];
        let k = k as u16;
        let doc = format!(
            "{} in {} (opcode {}, condition `{}`, {} operands)",
            ins.name,
            enc.name,
            f.opcode,
            ie.condition_name.as_deref().unwrap_or("-"),
            ie.operands.len()
        );
        quote! { #[doc = #doc] pub const #cname: u16 = #k; }
    });

    let instruction_consts = spec.instructions.iter().enumerate().map(|(k, ins)| {
        let cname = ident(&format!("I_{}", ins.name));
        let doc = format!("{} ({} encodings)", ins.name, ins.encodings.len());
        let k = k as u16;
        quote! { #[doc = #doc] pub const #cname: u16 = #k; }
    });
    let type_consts = spec.operand_types.iter().enumerate().map(|(k, t)| {
        let cname = ident(&format!("T_{}", t.name));
        let doc = format!("{}: {} values", t.name, t.predefined_values.len());
        let k = k as u16;
        quote! { #[doc = #doc] pub const #cname: u16 = #k; }
    });

    // The halves of dual-issue words (VOPD): complete instruction encodings in a half.
    let dual: Vec<TokenStream> = spec
        .instructions
        .iter()
        .enumerate()
        .flat_map(|(ii, ins)| ins.encodings.iter().map(move |ie| (ii, ie)))
        .filter(|(_, ie)| ie.half.is_some() && ie.incomplete.is_empty())
        .filter_map(|(ii, ie)| {
            let instruction = ii as u16;
            let encoding = ie.encoding? as u16;
            let opcode_field = ie.opcode_field? as u8;
            let opcode = ie.opcode?;
            let half = ie.half.clone()?;
            let operands = ie.operands.iter().map(operand_info);
            Some(quote! {
                DualHalfInfo { instruction: #instruction, encoding: #encoding, half: #half, opcode_field: #opcode_field, opcode: #opcode, operands: &[#(#operands),*] }
            })
        })
        .collect();
    let n_dual = dual.len();
    let rows = rows(spec, forms, &names);
    let operand_types = spec.operand_types.iter().map(operand_type_info);
    let n_skipped = skipped.len();
    let skipped = skipped.iter().map(|(what, why)| quote! { (#what, #why) });
    let n_enc = spec.encodings.len();
    let n_ot = spec.operand_types.len();

    let tokens = quote! {
        use crate::tables::*;

        /// This generation's ISA.
        pub static SPEC: Option<&IsaSpec> = Some(&ISA);

        pub static ISA: IsaSpec = IsaSpec {
            generation: #generation,
            architecture_name: #arch,
            release_date: #release,
            schema_version: #schema,
            source_file: #source,
            llvm_mcpu: #mcpu,
            wave64: #wave64,
            traits: #traits,
            encodings: &ENCODINGS,
            instructions: &INSTRUCTIONS,
            forms: &FORMS,
            operand_types: &OPERAND_TYPES,
            dual_halves: &DUAL_HALVES,
            decode_form,
            decode,
            skipped: &SKIPPED,
        };

        #(#encoding_consts)*

        pub static ENCODINGS: [EncodingInfo; #n_enc] = [#(#encodings),*];

        #(#form_consts)*

        #(#instruction_consts)*

        #(#type_consts)*

        /// The halves of dual-issue (VOPD) words, paired at decoding by their opcode fields.
        pub static DUAL_HALVES: [DualHalfInfo; #n_dual] = [#(#dual),*];

        pub static OPERAND_TYPES: [OperandTypeInfo; #n_ot] = [#(#operand_types),*];

        /// Instruction encodings the generator left out, with the reason.
        pub static SKIPPED: [(&str, &str); #n_skipped] = [#(#skipped),*];
    };
    Tables { tokens, rows }
}

/// A `u128` literal in hex (masks and fixed bits read against AMD's binary strings).
fn hex_u128(v: u128) -> proc_macro2::Literal {
    format!("{v:#x}").parse().expect("a hex literal")
}

/// `Some(X)` / `None` as text.
fn opt<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "None".to_string(), |x| format!("Some({x})"))
}

/// The forms (`FORMS`), the operand lists they share (`OPS_k`) and the instructions
/// (`INSTRUCTIONS`) as text, one row per entry.
fn rows(spec: &Spec, forms: &[Form], names: &[proc_macro2::Ident]) -> String {
    let type_name =
        |t: Option<usize>| opt(t.map(|i| ident(&format!("T_{}", spec.operand_types[i].name))));
    let mut out = String::new();
    // Operand lists, each stored once: many forms share theirs (a VOPC compare in every
    // encoding, the opcodes of one DS shape).
    let mut lists: Vec<(String, Vec<String>)> = Vec::new();
    let mut list_of: HashMap<Vec<String>, usize> = HashMap::new();
    let mut form_list = Vec::with_capacity(forms.len());
    for f in forms {
        let ins = &spec.instructions[f.instruction];
        let ie = &ins.encodings[f.instruction_encoding];
        let enc = &spec.encodings[f.encoding];
        let ops: Vec<String> = ie
            .operands
            .iter()
            .map(|o| {
                let comment = match o.field {
                    Some(i) => enc.fields[i].name.clone(),
                    None => "implicit".to_string(),
                };
                let flags: Vec<&str> = [
                    (o.input, "IN"),
                    (o.output, "OUT"),
                    (o.is_implicit, "IMP"),
                    (o.is_binary_microcode_required, "REQ"),
                ]
                .iter()
                .filter(|(on, _)| *on)
                .map(|(_, f)| *f)
                .collect();
                let flags = if flags.is_empty() {
                    "0".to_string()
                } else {
                    flags.join(" | ")
                };
                format!(
                    "op({}, {}, {:?}, {}, {flags}), // {comment}",
                    opt(o.field),
                    type_name(o.operand_type),
                    o.data_format_name.clone().unwrap_or_default(),
                    o.size,
                )
            })
            .collect();
        let k = *list_of.entry(ops.clone()).or_insert_with(|| {
            lists.push((format!("{} in {}", ins.name, enc.name), ops));
            lists.len() - 1
        });
        form_list.push(k);
    }
    out.push_str(
        "\n// ---- Large tables: one row per entry (written by isa-gen's emit::tables). ----\n\n",
    );
    out.push_str(OPERAND_ROW);
    for (k, (first, ops)) in lists.iter().enumerate() {
        let _ = writeln!(
            out,
            "/// Operands of {first} (and of every form with the same list)."
        );
        let _ = writeln!(
            out,
            "#[rustfmt::skip]\nstatic OPS_{k}: [OperandInfo; {}] = [",
            ops.len()
        );
        for o in ops {
            let _ = writeln!(out, "    {o}");
        }
        out.push_str("];\n");
    }

    let _ = writeln!(
        out,
        "\n/// Every form (instruction × encoding × condition); `F_*` names the index: `form(instruction, encoding, opcode, condition, operands, condition hints)`.\n#[rustfmt::skip]\npub static FORMS: [FormInfo; {}] = [",
        forms.len()
    );
    for ((f, name), list) in forms.iter().zip(names).zip(&form_list) {
        let ins = &spec.instructions[f.instruction];
        let ie = &ins.encodings[f.instruction_encoding];
        let enc = &spec.encodings[f.encoding];
        let hints: Vec<String> = match ie.condition {
            crate::model::ConditionRef::Defined { index } => enc.conditions[index]
                .expr
                .as_ref()
                .map(|x| super::condition::hints(x, enc))
                .unwrap_or_default()
                .into_iter()
                .map(|(fi, v)| format!("({fi}, {v})"))
                .collect(),
            _ => Vec::new(),
        };
        let _ = writeln!(
            out,
            "    form({}, {}, {:#x}, {:?}, &OPS_{list}, &[{}]), // {name}",
            ident(&format!("I_{}", ins.name)),
            ident(&format!("E_{}", enc.name)),
            f.opcode,
            ie.condition_name.clone().unwrap_or_default(),
            hints.join(", "),
        );
    }
    out.push_str("];\n");

    let mut forms_of: Vec<Vec<&proc_macro2::Ident>> = vec![Vec::new(); spec.instructions.len()];
    for (f, name) in forms.iter().zip(names) {
        forms_of[f.instruction].push(name);
    }
    let _ = writeln!(
        out,
        "\n/// Every instruction; `I_*` names the index: `ins(name, mnemonic, aliases, flags, forms)`.\n#[rustfmt::skip]\npub static INSTRUCTIONS: [InstructionInfo; {}] = [",
        spec.instructions.len()
    );
    for (ins, fs) in spec.instructions.iter().zip(&forms_of) {
        let f = &ins.flags;
        let flags = (f.is_branch as u8)
            | (f.is_conditional_branch as u8) << 1
            | (f.is_indirect_branch as u8) << 2
            | (f.is_program_terminator as u8) << 3
            | (f.is_immediately_executed as u8) << 4;
        let aliases: Vec<String> = ins.aliases.iter().map(|a| format!("{a:?}")).collect();
        let fs: Vec<String> = fs.iter().map(|i| i.to_string()).collect();
        let _ = writeln!(
            out,
            "    ins({:?}, {:?}, &[{}], {flags:#04x}, &[{}]),",
            ins.name,
            ins.name.to_ascii_lowercase(),
            aliases.join(", "),
            fs.join(", "),
        );
    }
    out.push_str("];\n");
    out
}

/// The constructors of the rows of `OPS_*`, `FORMS` and `INSTRUCTIONS`.
const OPERAND_ROW: &str = "/// Flags of an `op(..)` row: an input, an output, implicit, required in the binary.
const IN: u8 = 1;
const OUT: u8 = 2;
const IMP: u8 = 4;
const REQ: u8 = 8;

/// An `OPS_*` row: `op(field, operand type, data format, bits, IN | OUT | IMP | REQ)`.
const fn op(field: Option<u8>, operand_type: Option<u16>, data_format: &'static str, size: u16, flags: u8) -> OperandInfo {
    OperandInfo {
        field,
        operand_type,
        data_format,
        size,
        input: flags & IN != 0,
        output: flags & OUT != 0,
        implicit: flags & IMP != 0,
        binary_required: flags & REQ != 0,
    }
}

/// A `FORMS` row.
const fn form(instruction: u16, encoding: u16, opcode: u32, condition: &'static str, operands: &'static [OperandInfo], hints: &'static [(u8, i64)]) -> FormInfo {
    FormInfo { instruction, encoding, opcode, condition, operands, hints }
}

/// An `INSTRUCTIONS` row.
const fn ins(name: &'static str, mnemonic: &'static str, aliases: &'static [&'static str], flags: u8, forms: &'static [u16]) -> InstructionInfo {
    InstructionInfo { name, mnemonic, aliases, flags, forms }
}

";

fn operand_info(o: &crate::model::Operand) -> TokenStream {
    let field = match o.field {
        Some(i) => {
            let i = i as u8;
            quote! { Some(#i) }
        }
        None => quote! { None },
    };
    let ty = match o.operand_type {
        Some(i) => {
            let i = i as u16;
            quote! { Some(#i) }
        }
        None => quote! { None },
    };
    let df = o.data_format_name.clone().unwrap_or_default();
    let size = o.size as u16;
    let (input, output, implicit, req) = (
        o.input,
        o.output,
        o.is_implicit,
        o.is_binary_microcode_required,
    );
    quote! {
        OperandInfo { field: #field, operand_type: #ty, data_format: #df, size: #size, input: #input, output: #output, implicit: #implicit, binary_required: #req }
    }
}

fn field_info(f: &Field) -> TokenStream {
    let name = &f.name;
    let conditional = f.is_conditional;
    let ranges = f.ranges.iter().map(|r| {
        let offset = r.bit_offset as u8;
        let count = r.bit_count as u8;
        let pad_bits = r.padding.as_ref().map_or(0, |p| p.bit_count) as u8;
        let pad_value = r.padding.as_ref().map_or(0, |p| p.value.value) as u8;
        quote! { RangeInfo { offset: #offset, count: #count, pad_bits: #pad_bits, pad_value: #pad_value } }
    });
    quote! { FieldInfo { name: #name, ranges: &[#(#ranges),*], conditional: #conditional } }
}

/// Register prefixes whose values form regular runs (`s0`..`s105`).
const REGISTER_PREFIXES: [&str; 4] = ["s", "v", "acc", "TTMP"];

fn split_register(name: &str) -> Option<(&str, u32)> {
    let digits = name.len() - name.bytes().rev().take_while(u8::is_ascii_digit).count();
    let (prefix, num) = name.split_at(digits);
    if num.is_empty() || !REGISTER_PREFIXES.contains(&prefix) {
        return None;
    }
    Some((prefix, num.parse().ok()?))
}

/// Splits an operand type's values into register runs and other named values. Runs are
/// rebuilt between their listed members: excerpts of AMD's files may omit the middle of a run
/// (`s0`, then `s35`, with values 0 and 35), which the full files list one by one.
/// A register run: prefix, first value, first register index, count.
type Run = (String, i64, u32, u32);

pub(crate) fn runs_and_values(t: &OperandType) -> (Vec<Run>, Vec<(i64, String)>) {
    let mut vals: Vec<(i64, &str)> = t
        .predefined_values
        .iter()
        .map(|v| (v.value, v.name.as_str()))
        .collect();
    vals.sort_by_key(|v| v.0);
    vals.dedup_by_key(|v| v.0);
    let mut runs: Vec<Run> = Vec::new();
    let mut named = Vec::new();
    for (value, name) in vals {
        if let Some((prefix, index)) = split_register(name) {
            if let Some(last) = runs.last_mut() {
                let (p, v0, i0, n) = last;
                let gap = value - (*v0 + *n as i64 - 1);
                if p == prefix && gap >= 1 && index as i64 - (*i0 as i64 + *n as i64 - 1) == gap {
                    *n += gap as u32;
                    continue;
                }
            }
            runs.push((prefix.to_string(), value, index, 1));
        } else {
            named.push((value, name.to_string()));
        }
    }
    // A run only spans values no named value sits in between (checked: named values inside a
    // run's span would be shadowed).
    runs.retain(|(_, v0, _, n)| {
        !named.iter().any(|(v, _)| *v >= *v0 && *v < *v0 + *n as i64) || *n == 1
    });
    (runs, named)
}

fn operand_type_info(t: &OperandType) -> TokenStream {
    let name = &t.name;
    let (runs, named) = runs_and_values(t);
    let runs = runs.iter().map(|(prefix, v0, i0, n)| {
        quote! { ValueRun { prefix: #prefix, first_value: #v0, first_index: #i0, count: #n } }
    });
    let values = named.iter().map(|(v, n)| quote! { (#v, #n) });
    let fields = t.fields.iter().map(field_info);
    let subtypes = t.subtype_ids.iter().map(|&i| i as u16);
    quote! {
        OperandTypeInfo { name: #name, runs: &[#(#runs),*], values: &[#(#values),*], fields: &[#(#fields),*], subtypes: &[#(#subtypes),*] }
    }
}
