//! Resolves the names of a read spec into indices and checks that it is consistent.

use super::*;
use crate::diag::Reporter;
use crate::xml::{CondExpr, CondOp, ReadOutcome};
use std::collections::HashSet;

/// Builds the model from what the reader produced. `text` is the file's text (for locations).
pub fn build(path: &Path, text: &str, outcome: ReadOutcome) -> Spec {
    let ReadOutcome {
        file,
        diagnostics,
        fatal,
    } = outcome;
    let mut rep = Reporter::new(path, text);
    rep.diagnostics = diagnostics;
    let isa = file.isa;
    let doc = file.document;

    let architecture_name = isa.architecture.name.clone().unwrap_or_default();
    let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let generation = Generation::from_architecture_name(&architecture_name)
        .or_else(|| Generation::from_file_name(file_name));
    if generation.is_none() && !fatal {
        rep.warning(
            "unknown-generation",
            0,
            format!(
                "neither the ArchitectureName `{architecture_name}` nor the file name `{file_name}` names a known generation"
            ),
        );
    }
    for (what, v) in [
        ("ReleaseDate", &doc.release_date),
        ("SchemaVersion", &doc.schema_version),
    ] {
        if v.is_none() && !fatal {
            rep.warning("missing-element", 0, format!("<Document> has no <{what}>"));
        }
    }
    if let Some(v) = &doc.schema_version {
        if !["1.0", "1.0.0", "1.1", "1.1.0", "1.1.1", "1.2", "1.2.0"].contains(&v.as_str()) {
            rep.warning(
                "unknown-schema-version",
                0,
                format!("schema version {v} is newer or other than the ones this tool was written for (1.0 to 1.2.0); unknown elements are reported below"),
            );
        }
    }

    let mut index = Index::default();
    let encodings = build_encodings(&mut rep, isa.encodings, &mut index.encodings);
    let data_formats = dedup(
        &mut rep,
        isa.data_formats,
        "data format",
        |d| (&d.name, d.pos),
        &mut index.data_formats,
    );
    check_data_formats(&mut rep, &data_formats);
    let operand_types = build_operand_types(&mut rep, isa.operand_types, &mut index.operand_types);
    let mut instruction_index = HashMap::new();
    let instructions = build_instructions(
        &mut rep,
        isa.instructions,
        &encodings,
        &index,
        &mut instruction_index,
    );
    index.instructions = instruction_index;

    check_functional_groups(
        &mut rep,
        &instructions,
        &isa.functional_groups,
        &isa.functional_subgroups,
    );

    Spec {
        path: path.to_path_buf(),
        generation,
        architecture_name,
        architecture_id: isa.architecture.id,
        release_date: doc.release_date,
        schema_version: doc.schema_version,
        license: doc.license,
        source_bytes: text.len(),
        encodings,
        instructions,
        data_formats,
        operand_types,
        functional_groups: isa.functional_groups,
        functional_subgroups: isa.functional_subgroups,
        diagnostics: rep.diagnostics,
        read_stopped_early: fatal,
        overrides_applied: Vec::new(),
        index,
    }
}

/// Keeps the first item of each name; later duplicates are errors and are dropped.
fn dedup<T>(
    rep: &mut Reporter,
    items: Vec<T>,
    what: &str,
    key: impl Fn(&T) -> (&String, usize),
    index: &mut HashMap<String, usize>,
) -> Vec<T> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let (name, pos) = key(&item);
        if index.contains_key(name) {
            let msg = format!("duplicate {what} {name}; the first definition is kept");
            rep.error("duplicate", pos, msg);
            continue;
        }
        index.insert(name.clone(), out.len());
        out.push(item);
    }
    out
}

fn sorted_field(f: crate::xml::Field) -> Field {
    let mut ranges = f.ranges;
    ranges.sort_by_key(|r| r.order);
    Field {
        name: f.name,
        description: f.description,
        is_conditional: f.is_conditional,
        ranges,
        predefined_values: f.predefined_values,
    }
}

/// Checks a field's layout against a container of `bits` bits.
fn check_field(rep: &mut Reporter, f: &crate::xml::Field, owner: &str, bits: Option<u32>) {
    if let Some(rc) = f.range_count {
        if rc as usize != f.ranges.len() {
            rep.error(
                "range-count",
                f.pos,
                format!(
                    "field {} of {owner} declares RangeCount={rc} but has {} ranges",
                    f.name,
                    f.ranges.len()
                ),
            );
        }
    }
    if f.ranges.is_empty() {
        rep.error(
            "empty-field",
            f.pos,
            format!("field {} of {owner} has no bit range", f.name),
        );
    }
    for r in &f.ranges {
        if r.bit_count == 0 {
            rep.error(
                "empty-field",
                r.pos,
                format!("field {} of {owner} has a range of 0 bits", f.name),
            );
        }
        if let Some(total) = bits {
            if r.bit_offset + r.bit_count > total {
                rep.error(
                    "field-out-of-range",
                    r.pos,
                    format!(
                        "field {} of {owner} covers bits {}..{} but {owner} has only {total} bits",
                        f.name,
                        r.bit_offset,
                        r.bit_offset + r.bit_count - 1
                    ),
                );
            }
        }
    }
}

fn build_encodings(
    rep: &mut Reporter,
    raw: Vec<crate::xml::Encoding>,
    index: &mut HashMap<String, usize>,
) -> Vec<Encoding> {
    let raw = dedup(rep, raw, "encoding", |e| (&e.name, e.pos), index);
    let mut out = Vec::with_capacity(raw.len());
    for e in raw {
        let owner = format!("encoding {}", e.name);
        let bit_count = match e.bit_count {
            Some(b) if b > 0 && b <= 128 && b % 8 == 0 => b,
            Some(b) => {
                rep.error(
                    "bad-bit-count",
                    e.pos,
                    format!("{owner} has BitCount {b}; expected a multiple of 8 up to 128"),
                );
                b.clamp(8, 128) / 8 * 8
            }
            None => {
                rep.error(
                    "missing-element",
                    e.pos,
                    format!("{owner} has no <BitCount>"),
                );
                32
            }
        };
        if e.order.is_none() {
            rep.warning(
                "missing-attribute",
                e.pos,
                format!("{owner} has no Order attribute"),
            );
        }
        for f in &e.fields {
            check_field(rep, f, &owner, Some(bit_count));
        }
        // Overlapping fields: allowed only where one of them is conditional (alternative
        // layouts of the same bits).
        let masks: Vec<(u128, &crate::xml::Field)> = e
            .fields
            .iter()
            .map(|f| (sorted_field(f.clone()).mask(), f))
            .collect();
        for (i, (ma, fa)) in masks.iter().enumerate() {
            for (mb, fb) in &masks[i + 1..] {
                if ma & mb != 0 && !fa.is_conditional && !fb.is_conditional {
                    rep.error(
                        "overlapping-fields",
                        fb.pos,
                        format!(
                            "fields {} and {} of {owner} share bits and neither is conditional",
                            fa.name, fb.name
                        ),
                    );
                }
            }
        }
        let mut seen_names = HashSet::new();
        for f in &e.fields {
            if !seen_names.insert(f.name.as_str()) {
                rep.error(
                    "duplicate",
                    f.pos,
                    format!("{owner} defines field {} twice", f.name),
                );
            }
        }
        let mut cond_names = HashSet::new();
        for c in &e.conditions {
            if !cond_names.insert(c.name.as_str()) {
                rep.warning(
                    "duplicate-condition",
                    c.pos,
                    format!("{owner} defines condition {} more than once", c.name),
                );
            }
            if let Some(x) = &c.expr {
                check_condition_expr(rep, x, &e, &owner, &c.name);
            }
        }

        let fields: Vec<Field> = e.fields.into_iter().map(sorted_field).collect();
        let op_field = fields.iter().position(|f| f.name == "OP");
        // Without `OP`, one-letter-suffixed `OP<h>` fields are the opcodes of the halves of a
        // dual-issue word (VOPD: `OPX`, `OPY`).
        let half_op_fields: Vec<(String, usize)> = match op_field {
            Some(_) => Vec::new(),
            None => fields
                .iter()
                .enumerate()
                .filter_map(|(k, f)| {
                    let h = f.name.strip_prefix("OP")?;
                    (h.len() == 1 && h.bytes().all(|b| b.is_ascii_uppercase()))
                        .then(|| (h.to_string(), k))
                })
                .collect(),
        };
        let mask = match &e.identifier_mask {
            Some(m) => {
                if m.radix == 2 && m.digits != bit_count {
                    rep.error(
                        "mask-width",
                        m.pos,
                        format!("{owner}: the identifier mask has {} digits but the encoding has {bit_count} bits", m.digits),
                    );
                }
                m.value
            }
            None => {
                rep.error(
                    "missing-element",
                    e.pos,
                    format!("{owner} has no <EncodingIdentifierMask>"),
                );
                0
            }
        };
        let mut identifiers = Vec::with_capacity(e.identifiers.len());
        let mut identifier_by_opcode = BTreeMap::new();
        let fixed = e.identifiers.first().map(|f| f.value & mask);
        let op_mask = op_field.map_or(0, |i| fields[i].mask())
            | half_op_fields
                .iter()
                .fold(0, |m, (_, i)| m | fields[*i].mask());
        if op_field.is_none() && half_op_fields.is_empty() && !e.identifiers.is_empty() {
            rep.warning(
                "no-op-field",
                e.pos,
                format!("{owner} has identifiers but no OP field"),
            );
        }
        if op_mask & !mask != 0 && mask != 0 {
            rep.warning(
                "op-outside-mask",
                e.pos,
                format!("{owner}: the OP field is not entirely inside the identifier mask"),
            );
        }
        for id in &e.identifiers {
            if id.radix == 2 && id.digits != bit_count {
                rep.error(
                    "identifier-width",
                    id.pos,
                    format!("{owner}: an identifier has {} digits but the encoding has {bit_count} bits", id.digits),
                );
            }
            if id.value & !mask != 0 {
                // Reported, not fatal: the decoder matches under the mask (VOPD's identifiers
                // carry OPY bits that its mask leaves out).
                rep.warning(
                    "identifier-outside-mask",
                    id.pos,
                    format!(
                        "{owner}: identifier {:#x} sets bits outside the identifier mask {mask:#x}",
                        id.value
                    ),
                );
            }
            if let Some(fx) = fixed {
                if (id.value ^ fx) & mask & !op_mask != 0 {
                    rep.warning(
                        "identifier-inconsistent",
                        id.pos,
                        format!("{owner}: identifier {:#x} differs from the others outside the OP field", id.value),
                    );
                }
            }
            identifiers.push(id.value);
            if let Some(i) = op_field {
                let op = fields[i].extract(id.value) as u32;
                if identifier_by_opcode.insert(op, id.value).is_some() {
                    rep.warning(
                        "duplicate-identifier",
                        id.pos,
                        format!("{owner}: opcode {op} has more than one identifier"),
                    );
                }
            }
        }
        let (family, variant) = isa_vocab::classify(&e.name);
        out.push(Encoding {
            family,
            variant,
            name: e.name,
            order: e.order.unwrap_or(i32::MAX),
            bit_count,
            description: e.description,
            mask,
            identifiers,
            identifier_by_opcode,
            conditions: e.conditions,
            fields,
            op_field,
            half_op_fields,
            pos: e.pos,
        });
    }
    out
}

/// Checks the shape of a condition tree: operator arities, and that the fields it reads
/// (`INST.<family>.<FIELD>`) exist in the encoding.
fn check_condition_expr(
    rep: &mut Reporter,
    x: &CondExpr,
    enc: &crate::xml::Encoding,
    owner: &str,
    cond: &str,
) {
    let CondExpr::Op { op, args, pos, .. } = x else {
        return;
    };
    let arity_ok = match op {
        CondOp::And
        | CondOp::Or
        | CondOp::Eq
        | CondOp::Ne
        | CondOp::Lt
        | CondOp::Le
        | CondOp::Gt
        | CondOp::Ge => args.len() == 2,
        CondOp::Within | CondOp::NotWithin | CondOp::FieldDeref => args.len() == 2,
        CondOp::Not => args.len() == 1,
        CondOp::ConsArray | CondOp::Other(_) => true,
    };
    if !arity_ok {
        rep.error(
            "bad-condition",
            *pos,
            format!(
                "condition {cond} of {owner}: operator `{}` has {} operands",
                op.as_xml(),
                args.len()
            ),
        );
    }
    if *op == CondOp::FieldDeref {
        if let (
            Some(CondExpr::Op {
                op: CondOp::FieldDeref,
                ..
            }),
            Some(CondExpr::Id { name, pos }),
        ) = (args.first(), args.get(1))
        {
            if !enc.fields.iter().any(|f| f.name == *name) {
                rep.warning(
                    "condition-unknown-field",
                    *pos,
                    format!("condition {cond} of {owner} reads field {name}, which the encoding does not have"),
                );
            }
        }
        return;
    }
    for a in args {
        check_condition_expr(rep, a, enc, owner, cond);
    }
}

fn check_data_formats(rep: &mut Reporter, formats: &[crate::xml::DataFormat]) {
    for d in formats {
        let owner = format!("data format {}", d.name);
        // Data-format ranges count their Order from 1 (encodings' from 0); fields sort ranges
        // by Order, so either works.
        for bm in &d.bitmaps {
            for f in &bm.fields {
                check_field(rep, f, &owner, d.bit_count);
            }
        }
    }
}

fn build_operand_types(
    rep: &mut Reporter,
    raw: Vec<crate::xml::OperandType>,
    index: &mut HashMap<String, usize>,
) -> Vec<OperandType> {
    let raw = dedup(rep, raw, "operand type", |o| (&o.name, o.pos), index);
    let mut out = Vec::with_capacity(raw.len());
    for o in raw {
        let owner = format!("operand type {}", o.name);
        for f in &o.fields {
            check_field(rep, f, &owner, None);
        }
        let mut subtype_ids = Vec::new();
        for s in &o.subtypes {
            match index.get(s) {
                Some(&i) => subtype_ids.push(i),
                None => rep.error(
                    "dangling-subtype",
                    o.pos,
                    format!("{owner} names subtype {s}, which is not defined"),
                ),
            }
        }
        out.push(OperandType {
            name: o.name,
            description: o.description,
            is_partitioned: o.is_partitioned,
            predefined_values: o.predefined_values,
            fields: o.fields.into_iter().map(sorted_field).collect(),
            subtypes: o.subtypes,
            subtype_ids,
            pos: o.pos,
        });
    }
    out
}

fn build_instructions(
    rep: &mut Reporter,
    raw: Vec<crate::xml::Instruction>,
    encodings: &[Encoding],
    index: &Index,
    seen: &mut HashMap<String, usize>,
) -> Vec<Instruction> {
    let raw = dedup(rep, raw, "instruction", |i| (&i.name, i.pos), seen);
    let mut out = Vec::with_capacity(raw.len());
    for ins in raw {
        if ins.encodings.is_empty() {
            rep.warning(
                "no-encodings",
                ins.pos,
                format!("instruction {} has no encodings", ins.name),
            );
        }
        let mut encs: Vec<InstructionEncoding> = Vec::with_capacity(ins.encodings.len());
        for ie in ins.encodings {
            let built = build_instruction_encoding(rep, &ins.name, ie, encodings, index);
            // AMD's files list some instruction encodings twice, element for element (RDNA3's
            // GLOBAL_LOAD_B32 in ENC_FLAT_GLOBAL): the copy can never be selected, so it is
            // reported and dropped rather than becoming a second, unreachable form.
            if encs.iter().any(|e| same_instruction_encoding(e, &built)) {
                rep.warning(
                    "duplicate-instruction-encoding",
                    built.pos,
                    format!(
                        "{} lists {} with condition {} twice, with the same opcode and operands; the copy is ignored",
                        ins.name,
                        built.encoding_name,
                        built.condition_name.as_deref().unwrap_or("default"),
                    ),
                );
                continue;
            }
            encs.push(built);
        }
        out.push(Instruction {
            name: ins.name,
            flags: ins.flags,
            aliases: ins.aliases,
            description: ins.description,
            functional_group: ins.functional_group,
            functional_subgroups: ins.functional_subgroups,
            encodings: encs,
            pos: ins.pos,
        });
    }
    out
}

/// Two instruction encodings that say the same thing (positions aside).
fn same_instruction_encoding(a: &InstructionEncoding, b: &InstructionEncoding) -> bool {
    a.encoding_name == b.encoding_name
        && a.condition_name == b.condition_name
        && a.condition_id == b.condition_id
        && a.opcode == b.opcode
        && a.operands == b.operands
}

fn build_instruction_encoding(
    rep: &mut Reporter,
    ins_name: &str,
    ie: crate::xml::InstructionEncoding,
    encodings: &[Encoding],
    index: &Index,
) -> InstructionEncoding {
    let mut incomplete = Vec::new();
    let owner = format!("{ins_name} in {}", ie.encoding_name);
    let enc_id = index.encodings.get(&ie.encoding_name).copied();
    let enc = enc_id.map(|i| &encodings[i]);
    if enc.is_none() {
        let msg = format!(
            "{ins_name} names encoding {}, which is not defined",
            ie.encoding_name
        );
        rep.error("dangling-encoding", ie.pos, msg.clone());
        incomplete.push(msg);
    }

    // Opcode: present, fits the OP field, has an identifier.
    let opcode = match &ie.opcode {
        Some(op) if op.value <= u32::MAX as u128 => Some(op.value as u32),
        Some(op) => {
            let msg = format!("{owner}: opcode {} does not fit 32 bits", op.value);
            rep.error("opcode-range", op.pos, msg.clone());
            incomplete.push(msg);
            None
        }
        None => {
            let msg = format!("{owner} has no opcode");
            rep.error("missing-element", ie.pos, msg.clone());
            incomplete.push(msg);
            None
        }
    };
    let mut opcode_field = enc.and_then(|e| e.op_field);
    let mut half = None;
    if let (Some(enc), Some(op)) = (enc, opcode) {
        let pairing = enc.op_field.is_none() && !enc.half_op_fields.is_empty();
        if pairing {
            match half_of_operands(enc, &ie.operands) {
                Ok(h) => {
                    opcode_field = enc
                        .half_op_fields
                        .iter()
                        .find(|(name, _)| *name == h)
                        .map(|(_, i)| *i);
                    half = Some(h);
                }
                Err(why) => {
                    let msg = format!("{owner}: opcode {op} cannot be placed in a half: {why}");
                    rep.error("no-op-field", ie.pos, msg.clone());
                    incomplete.push(msg);
                }
            }
        }
        match opcode_field {
            Some(fi) => {
                let f = &enc.fields[fi];
                let w = f.width();
                // A half's identifiers set its opcode field (VOPD's list `OPX = k` and `OPY = k`).
                let identified = if pairing {
                    enc.identifiers
                        .iter()
                        .any(|id| f.extract(*id) == op as u128)
                } else {
                    enc.identifier_by_opcode.contains_key(&op)
                };
                if w < 32 && op >= (1u32 << w) {
                    let msg = format!(
                        "{owner}: opcode {op} does not fit the {w}-bit {} field",
                        f.name
                    );
                    rep.error("opcode-range", ie.pos, msg.clone());
                    incomplete.push(msg);
                } else if !identified {
                    // Excerpts trim identifier lists, and a real file might miss one: the
                    // identifier can be rebuilt from the encoding's fixed bits and the opcode.
                    rep.warning(
                        "missing-identifier",
                        ie.pos,
                        format!("{owner}: opcode {op} has no EncodingIdentifier in {}; it is derived from the encoding's fixed bits", enc.name),
                    );
                }
            }
            None if pairing => {} // reported above
            None => {
                let msg = format!("{owner}: the encoding has no OP field to hold opcode {op}");
                rep.error("no-op-field", ie.pos, msg.clone());
                incomplete.push(msg);
            }
        }
    }

    // Condition.
    let condition = match (&ie.condition, enc) {
        (None, _) | (_, None) => ConditionRef::Unconditional,
        (Some(name), Some(enc)) => match enc.conditions.iter().position(|c| c.name == *name) {
            Some(index) => ConditionRef::Defined { index },
            None if enc.conditions.is_empty() && name == "default" => ConditionRef::Unconditional,
            None => {
                let defined: Vec<&str> = enc.conditions.iter().map(|c| c.name.as_str()).collect();
                rep.warning(
                    "undefined-condition",
                    ie.pos,
                    format!(
                        "{owner} names condition {name}, which {} does not define (it defines: {}); treated as the encoding's default",
                        enc.name,
                        if defined.is_empty() { "none".to_string() } else { defined.join(", ") }
                    ),
                );
                ConditionRef::Undefined { name: name.clone() }
            }
        },
    };

    // Operands.
    let mut operands = Vec::with_capacity(ie.operands.len());
    let mut orders = HashSet::new();
    for (k, o) in ie.operands.into_iter().enumerate() {
        let order = o.order.unwrap_or(k as u32 + 1);
        if !orders.insert(order) {
            rep.warning(
                "duplicate-operand-order",
                o.pos,
                format!("{owner}: two operands have Order {order}"),
            );
        }
        let field = match (&o.field_name, enc) {
            (Some(f), Some(enc)) => {
                let fi = enc.field_index(f);
                if fi.is_none() {
                    let msg = format!(
                        "{owner}: operand {order} names field {f}, which {} does not have",
                        enc.name
                    );
                    rep.error("dangling-field", o.pos, msg.clone());
                    incomplete.push(msg);
                }
                fi
            }
            (None, _) => {
                if !o.is_implicit && o.is_binary_microcode_required {
                    let msg = format!(
                        "{owner}: operand {order} is explicit and encoded but names no field"
                    );
                    rep.error("missing-element", o.pos, msg.clone());
                    incomplete.push(msg);
                }
                None
            }
            (Some(_), None) => None,
        };
        let data_format = match &o.data_format {
            Some(d) => {
                let id = index.data_formats.get(d).copied();
                if id.is_none() {
                    let msg = format!(
                        "{owner}: operand {order} names data format {d}, which is not defined"
                    );
                    rep.error("dangling-data-format", o.pos, msg.clone());
                    incomplete.push(msg);
                }
                id
            }
            None => {
                rep.warning(
                    "missing-element",
                    o.pos,
                    format!("{owner}: operand {order} has no <DataFormatName>"),
                );
                None
            }
        };
        let operand_type = match &o.operand_type {
            Some(t) => {
                let id = index.operand_types.get(t).copied();
                if id.is_none() {
                    let msg = format!(
                        "{owner}: operand {order} names operand type {t}, which is not defined"
                    );
                    rep.error("dangling-operand-type", o.pos, msg.clone());
                    incomplete.push(msg);
                }
                id
            }
            None => {
                let msg = format!("{owner}: operand {order} has no <OperandType>");
                rep.error("missing-element", o.pos, msg.clone());
                incomplete.push(msg);
                None
            }
        };
        let size = o.size.unwrap_or_else(|| {
            rep.warning(
                "missing-element",
                o.pos,
                format!("{owner}: operand {order} has no <OperandSize>"),
            );
            0
        });
        operands.push(Operand {
            order,
            input: o.input,
            output: o.output,
            is_implicit: o.is_implicit,
            is_binary_microcode_required: o.is_binary_microcode_required,
            field_name: o.field_name,
            field,
            data_format_name: o.data_format,
            data_format,
            operand_type_name: o.operand_type,
            operand_type,
            size,
        });
    }
    operands.sort_by_key(|o| o.order);

    InstructionEncoding {
        encoding_name: ie.encoding_name,
        encoding: enc_id,
        condition_name: ie.condition,
        condition_id: ie.condition_id,
        condition,
        opcode,
        opcode_field,
        half,
        operands,
        incomplete,
        pos: ie.pos,
    }
}

/// The half of a pairing encoding that an instruction encoding's operands name: every operand
/// field that belongs to a half belongs to the same one, and at least one does.
fn half_of_operands(enc: &Encoding, operands: &[crate::xml::Operand]) -> Result<String, String> {
    let mut found: Option<&str> = None;
    for name in operands.iter().filter_map(|o| o.field_name.as_deref()) {
        match (enc.half_of_field(name), found) {
            (None, _) => {}
            (Some(h), None) => found = Some(h),
            (Some(h), Some(f)) if h == f => {}
            (Some(h), Some(f)) => {
                return Err(format!(
                    "its operands name fields of both halves {f} and {h} ({name})"
                ))
            }
        }
    }
    found
        .map(str::to_string)
        .ok_or_else(|| "no operand names a field of a half".to_string())
}

/// Group and subgroup names that instructions use but the spec does not define: one warning
/// per name (AMD's files use `NOT_ASSIGNED` this way), not one per instruction.
fn check_functional_groups(
    rep: &mut Reporter,
    instructions: &[Instruction],
    groups: &[crate::xml::FunctionalGroupDef],
    subgroups: &[crate::xml::FunctionalSubgroupDef],
) {
    let group_names: HashSet<&str> = groups.iter().map(|g| g.name.as_str()).collect();
    let subgroup_names: HashSet<&str> = subgroups.iter().map(|g| g.name.as_str()).collect();
    // name -> (is subgroup, first user, count), in order of first use.
    let mut missing: Vec<(&str, bool, &Instruction, usize)> = Vec::new();
    for ins in instructions {
        let uses = ins.functional_group.iter().map(|g| (g.as_str(), false));
        let uses = uses.chain(ins.functional_subgroups.iter().map(|s| (s.as_str(), true)));
        for (name, sub) in uses {
            let defined = if sub { &subgroup_names } else { &group_names };
            if defined.contains(name) {
                continue;
            }
            match missing.iter_mut().find(|m| m.0 == name && m.1 == sub) {
                Some(m) => m.3 += 1,
                None => missing.push((name, sub, ins, 1)),
            }
        }
    }
    for (name, sub, first, count) in missing {
        let kind = if sub { "subgroup" } else { "group" };
        rep.warning(
            if sub { "dangling-functional-subgroup" } else { "dangling-functional-group" },
            first.pos,
            format!(
                "functional {kind} {name} is named by {count} instruction(s) (first: {}) but not defined",
                first.name
            ),
        );
    }
}
