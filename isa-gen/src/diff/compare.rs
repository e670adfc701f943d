//! The comparisons behind [`super::diff_specs`], one function per kind of item.
//!
//! Items are matched by name (instructions, encodings, fields, conditions, operand types, data
//! formats, values), instruction encodings by (encoding, condition) and operands by `Order`.
//! A name that occurs twice in one list (AMD's ENC_FLAT defines `default` three times) is matched
//! by occurrence and written `NAME #2`, `NAME #3`.

use super::{Action, Change, Kind, Options};
use crate::model::{self, ConditionRef, Encoding, Field, Instruction, OperandType, Spec};
use crate::xml;
use std::collections::{HashMap, HashSet};

/// Collects changes with the item path in hand.
struct Out {
    changes: Vec<Change>,
    options: Options,
}

impl Out {
    fn push(&mut self, kind: Kind, action: Action, item: &str) {
        self.changes.push(Change {
            kind,
            action,
            item: item.to_string(),
            property: None,
            old: None,
            new: None,
        });
    }

    /// A `changed` entry when the two values differ.
    fn property<T: PartialEq + ToString>(
        &mut self,
        kind: Kind,
        item: &str,
        property: &str,
        old: T,
        new: T,
    ) {
        if old != new {
            self.changes.push(Change {
                kind,
                action: Action::Changed,
                item: item.to_string(),
                property: Some(property.to_string()),
                old: Some(old.to_string()),
                new: Some(new.to_string()),
            });
        }
    }

    /// Description texts, only when asked for: added, removed or changed.
    fn description(&mut self, item: &str, old: &Option<String>, new: &Option<String>) {
        if !self.options.descriptions || old == new {
            return;
        }
        let action = match (old, new) {
            (None, Some(_)) => Action::Added,
            (Some(_), None) => Action::Removed,
            _ => Action::Changed,
        };
        self.changes.push(Change {
            kind: Kind::Description,
            action,
            item: item.to_string(),
            property: Some("description".into()),
            old: old.clone(),
            new: new.clone(),
        });
    }
}

/// The items of two lists matched by key: old-only, new-only and both, in file order.
struct Paired<'a, T> {
    removed: Vec<(String, &'a T)>,
    added: Vec<(String, &'a T)>,
    both: Vec<(String, &'a T, &'a T)>,
}

impl<T> Paired<'_, T> {
    /// Reports the old-only items as removed and the new-only ones as added, each named by
    /// `name(key)`.
    fn report_added_removed(&self, out: &mut Out, kind: Kind, name: impl Fn(&str) -> String) {
        for (k, _) in &self.removed {
            out.push(kind, Action::Removed, &name(k));
        }
        for (k, _) in &self.added {
            out.push(kind, Action::Added, &name(k));
        }
    }
}

/// Keys of a list, a repeated key numbered by occurrence (`default #2`).
fn keyed<'a, T>(items: &'a [T], key: &impl Fn(&T) -> String) -> Vec<(String, &'a T)> {
    let mut seen: HashMap<String, usize> = HashMap::new();
    items
        .iter()
        .map(|it| {
            let k = key(it);
            let n = seen.entry(k.clone()).or_insert(0);
            *n += 1;
            let k = if *n == 1 { k } else { format!("{k} #{n}") };
            (k, it)
        })
        .collect()
}

fn pair<'a, T>(old: &'a [T], new: &'a [T], key: impl Fn(&T) -> String) -> Paired<'a, T> {
    let old = keyed(old, &key);
    let new = keyed(new, &key);
    let new_ix: HashMap<&str, usize> = new
        .iter()
        .enumerate()
        .map(|(i, (k, _))| (k.as_str(), i))
        .collect();
    let old_keys: HashSet<&str> = old.iter().map(|(k, _)| k.as_str()).collect();
    let mut p = Paired {
        removed: Vec::new(),
        added: Vec::new(),
        both: Vec::new(),
    };
    for (k, o) in &old {
        match new_ix.get(k.as_str()) {
            Some(&i) => p.both.push((k.clone(), *o, new[i].1)),
            None => p.removed.push((k.clone(), *o)),
        }
    }
    for (k, n) in &new {
        if !old_keys.contains(k.as_str()) {
            p.added.push((k.clone(), *n));
        }
    }
    p
}

pub(super) fn all(old: &Spec, new: &Spec, options: Options) -> Vec<Change> {
    let mut out = Out {
        changes: Vec::new(),
        options,
    };
    release(&mut out, old, new);
    instructions(&mut out, old, new);
    encodings(&mut out, old, new);
    operand_types(&mut out, old, new);
    data_formats(&mut out, old, new);
    out.changes
}

fn text(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "none".into())
}

fn release(out: &mut Out, old: &Spec, new: &Spec) {
    let k = Kind::Release;
    out.property(
        k,
        "release",
        "ReleaseDate",
        text(&old.release_date),
        text(&new.release_date),
    );
    out.property(
        k,
        "release",
        "SchemaVersion",
        text(&old.schema_version),
        text(&new.schema_version),
    );
    out.property(
        k,
        "release",
        "ArchitectureName",
        &old.architecture_name,
        &new.architecture_name,
    );
    let id = |s: &Spec| s.architecture_id.map_or("none".into(), |i| i.to_string());
    out.property(k, "release", "ArchitectureId", id(old), id(new));
}

fn instructions(out: &mut Out, old: &Spec, new: &Spec) {
    let p = pair(&old.instructions, &new.instructions, |i| i.name.clone());
    // A removed name that is an alias of an added one (or has it as an alias) was renamed.
    let mut renamed_new: HashSet<&str> = HashSet::new();
    let mut renames = Vec::new();
    let mut removed = Vec::new();
    for (k, o) in &p.removed {
        let twin = p.added.iter().find(|(nk, n)| {
            !renamed_new.contains(nk.as_str())
                && (n.aliases.contains(&o.name) || o.aliases.contains(&n.name))
        });
        match twin {
            Some((nk, n)) => {
                renamed_new.insert(nk.as_str());
                renames.push((k.clone(), nk.clone(), *o, *n));
            }
            None => removed.push(k),
        }
    }
    for k in removed {
        out.push(Kind::Instruction, Action::Removed, k);
    }
    for (k, _) in p
        .added
        .iter()
        .filter(|(k, _)| !renamed_new.contains(k.as_str()))
    {
        out.push(Kind::Instruction, Action::Added, k);
    }
    for (ok, nk, o, n) in &renames {
        out.changes.push(Change {
            kind: Kind::Instruction,
            action: Action::Renamed,
            item: ok.clone(),
            property: None,
            old: Some(ok.clone()),
            new: Some(nk.clone()),
        });
        instruction(out, nk, o, n, true);
    }
    for (k, o, n) in &p.both {
        instruction(out, k, o, n, false);
    }
}

fn flags_text(f: &xml::InstructionFlags) -> String {
    let on = f.names();
    if on.is_empty() {
        "none".into()
    } else {
        on.join(", ")
    }
}

fn list_text(v: &[String]) -> String {
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// One instruction present on both sides (`renamed`: under another name, whose aliases
/// naturally differ and are not reported again).
fn instruction(out: &mut Out, item: &str, old: &Instruction, new: &Instruction, renamed: bool) {
    let k = Kind::Instruction;
    out.property(
        k,
        item,
        "flags",
        flags_text(&old.flags),
        flags_text(&new.flags),
    );
    if !renamed {
        out.property(
            k,
            item,
            "aliases",
            list_text(&old.aliases),
            list_text(&new.aliases),
        );
    }
    out.property(
        k,
        item,
        "functional_group",
        text(&old.functional_group),
        text(&new.functional_group),
    );
    out.property(
        k,
        item,
        "functional_subgroups",
        list_text(&old.functional_subgroups),
        list_text(&new.functional_subgroups),
    );
    out.description(item, &old.description, &new.description);
    let form_key = |ie: &model::InstructionEncoding| match &ie.condition_name {
        Some(c) => format!("{} [{c}]", ie.encoding_name),
        None => ie.encoding_name.clone(),
    };
    let p = pair(&old.encodings, &new.encodings, form_key);
    p.report_added_removed(out, Kind::InstructionEncoding, |k| format!("{item} in {k}"));
    for (k, o, n) in &p.both {
        let form = format!("{item} in {k}");
        let op = |v: Option<u32>| v.map_or("none".into(), |v| v.to_string());
        out.property(Kind::Opcode, &form, "opcode", op(o.opcode), op(n.opcode));
        out.property(
            Kind::InstructionEncoding,
            &form,
            "condition",
            condition_ref_text(&o.condition),
            condition_ref_text(&n.condition),
        );
        operands(out, &form, o, n);
    }
}

/// Whether the instruction's named condition is defined by its encoding (the model's view).
fn condition_ref_text(c: &ConditionRef) -> String {
    match c {
        ConditionRef::Unconditional => "unconditional".into(),
        ConditionRef::Defined { .. } => "defined by the encoding".into(),
        ConditionRef::Undefined { name } => format!("{name}, not defined by the encoding"),
    }
}

fn direction(o: &model::Operand) -> &'static str {
    match (o.input, o.output) {
        (true, true) => "in/out",
        (true, false) => "in",
        (false, true) => "out",
        (false, false) => "none",
    }
}

fn operands(
    out: &mut Out,
    form: &str,
    old: &model::InstructionEncoding,
    new: &model::InstructionEncoding,
) {
    let p = pair(&old.operands, &new.operands, |o| o.order.to_string());
    p.report_added_removed(out, Kind::Operand, |k| format!("{form} operand {k}"));
    for (k, o, n) in &p.both {
        let item = format!("{form} operand {k}");
        let kd = Kind::Operand;
        out.property(kd, &item, "field", text(&o.field_name), text(&n.field_name));
        out.property(
            kd,
            &item,
            "type",
            text(&o.operand_type_name),
            text(&n.operand_type_name),
        );
        out.property(
            kd,
            &item,
            "data_format",
            text(&o.data_format_name),
            text(&n.data_format_name),
        );
        out.property(kd, &item, "size", o.size, n.size);
        out.property(kd, &item, "direction", direction(o), direction(n));
        out.property(kd, &item, "implicit", o.is_implicit, n.is_implicit);
        out.property(
            kd,
            &item,
            "microcode_required",
            o.is_binary_microcode_required,
            n.is_binary_microcode_required,
        );
    }
}

fn encodings(out: &mut Out, old: &Spec, new: &Spec) {
    let p = pair(&old.encodings, &new.encodings, |e| e.name.clone());
    p.report_added_removed(out, Kind::Encoding, str::to_string);
    for (k, o, n) in &p.both {
        encoding(out, k, o, n);
    }
}

/// Bits under a mask as a binary string of the encoding's width (`1011111110.....`).
fn pattern(mask: u128, value: u128, bits: u32) -> String {
    (0..bits.min(128))
        .rev()
        .map(|b| {
            if (mask >> b) & 1 == 0 {
                '.'
            } else if (value >> b) & 1 == 1 {
                '1'
            } else {
                '0'
            }
        })
        .collect()
}

fn encoding(out: &mut Out, item: &str, old: &Encoding, new: &Encoding) {
    let k = Kind::Encoding;
    out.property(k, item, "order", old.order, new.order);
    out.property(k, item, "bit_count", old.bit_count, new.bit_count);
    let width = old.bit_count.max(new.bit_count);
    out.property(
        k,
        item,
        "identifier_mask",
        pattern(old.mask, old.mask, width),
        pattern(new.mask, new.mask, width),
    );
    let fixed = |e: &Encoding| match e.fixed_bits() {
        Some((m, v)) => pattern(m, v, width),
        None => "none (no identifiers)".into(),
    };
    out.property(k, item, "encoding_bits", fixed(old), fixed(new));
    out.description(item, &old.description, &new.description);
    fields(out, item, &old.fields, &new.fields);
    conditions(out, item, &old.conditions, &new.conditions);
}

fn fields(out: &mut Out, owner: &str, old: &[Field], new: &[Field]) {
    let p = pair(old, new, |f| f.name.clone());
    p.report_added_removed(out, Kind::Field, |k| format!("{owner} field {k}"));
    for (k, o, n) in &p.both {
        let item = format!("{owner} field {k}");
        let bits = |f: &Field| format!("{}, {} bits", f.layout_text(), f.width());
        out.property(Kind::Field, &item, "bits", bits(o), bits(n));
        out.property(
            Kind::Field,
            &item,
            "conditional",
            o.is_conditional,
            n.is_conditional,
        );
        out.description(&item, &o.description, &n.description);
        values(out, &item, &o.predefined_values, &n.predefined_values);
    }
}

fn conditions(
    out: &mut Out,
    owner: &str,
    old: &[xml::EncodingCondition],
    new: &[xml::EncodingCondition],
) {
    let p = pair(old, new, |c| c.name.clone());
    p.report_added_removed(out, Kind::Condition, |k| format!("{owner} condition {k}"));
    let expr = |c: &xml::EncodingCondition| {
        c.expr
            .as_ref()
            .map_or("always".into(), model::condition_text)
    };
    let id = |c: &xml::EncodingCondition| c.id.map_or("none".into(), |i| i.to_string());
    for (k, o, n) in &p.both {
        let item = format!("{owner} condition {k}");
        out.property(Kind::Condition, &item, "expression", expr(o), expr(n));
        out.property(Kind::Condition, &item, "id", id(o), id(n));
    }
}

/// Named values, matched by name: a name whose value differs was renumbered.
fn values(out: &mut Out, owner: &str, old: &[xml::PredefinedValue], new: &[xml::PredefinedValue]) {
    let p = pair(old, new, |v| v.name.clone());
    for (k, v) in &p.removed {
        out.changes.push(Change {
            kind: Kind::PredefinedValue,
            action: Action::Removed,
            item: format!("{owner} value {k}"),
            property: None,
            old: Some(v.value.to_string()),
            new: None,
        });
    }
    for (k, v) in &p.added {
        out.changes.push(Change {
            kind: Kind::PredefinedValue,
            action: Action::Added,
            item: format!("{owner} value {k}"),
            property: None,
            old: None,
            new: Some(v.value.to_string()),
        });
    }
    for (k, o, n) in &p.both {
        let item = format!("{owner} value {k}");
        out.property(Kind::PredefinedValue, &item, "value", o.value, n.value);
        out.description(&item, &o.description, &n.description);
    }
}

fn operand_types(out: &mut Out, old: &Spec, new: &Spec) {
    let p = pair(&old.operand_types, &new.operand_types, |t| t.name.clone());
    p.report_added_removed(out, Kind::OperandType, str::to_string);
    for (k, o, n) in &p.both {
        operand_type(out, k, o, n);
    }
}

fn operand_type(out: &mut Out, item: &str, old: &OperandType, new: &OperandType) {
    let k = Kind::OperandType;
    out.property(
        k,
        item,
        "partitioned",
        old.is_partitioned,
        new.is_partitioned,
    );
    out.property(
        k,
        item,
        "subtypes",
        list_text(&old.subtypes),
        list_text(&new.subtypes),
    );
    out.description(item, &old.description, &new.description);
    values(out, item, &old.predefined_values, &new.predefined_values);
    fields(out, item, &old.fields, &new.fields);
}

/// A data format's bit layout as one line: `1: Sign[31] signed, Exponent[30:23], ...`.
fn data_layout(d: &xml::DataFormat) -> String {
    let maps: Vec<String> = d
        .bitmaps
        .iter()
        .map(|m| {
            let fields: Vec<String> = m
                .fields
                .iter()
                .map(|f| {
                    let ranges: Vec<String> = f.ranges.iter().rev().map(model::bit_span).collect();
                    match &f.signedness {
                        Some(s) => format!("{}[{}] {s}", f.name, ranges.join(",")),
                        None => format!("{}[{}]", f.name, ranges.join(",")),
                    }
                })
                .collect();
            format!(
                "{}: {}",
                m.order.map_or("?".into(), |o| o.to_string()),
                fields.join(", ")
            )
        })
        .collect();
    if maps.is_empty() {
        "none".into()
    } else {
        maps.join("; ")
    }
}

fn data_formats(out: &mut Out, old: &Spec, new: &Spec) {
    let p = pair(&old.data_formats, &new.data_formats, |d| d.name.clone());
    p.report_added_removed(out, Kind::DataFormat, str::to_string);
    let num = |v: Option<u32>| v.map_or("none".into(), |v| v.to_string());
    for (k, o, n) in &p.both {
        let kd = Kind::DataFormat;
        out.property(kd, k, "data_type", text(&o.data_type), text(&n.data_type));
        out.property(kd, k, "bit_count", num(o.bit_count), num(n.bit_count));
        out.property(
            kd,
            k,
            "component_count",
            num(o.component_count),
            num(n.component_count),
        );
        out.property(kd, k, "layout", data_layout(o), data_layout(n));
        out.description(k, &o.description, &n.description);
    }
}
