//! The executors' large tables as text, one row per entry under `#[rustfmt::skip]` (the
//! generation's module `exec_rows`): each distinct operand binding once (`BINDING_ROWS`), the
//! row of every form (`FORM_BINDINGS`, one line per instruction) and the coverage
//! (`COVERAGE`), with strings that repeat stored once.

use super::binding::{FormBinding, Role, Variant};
use super::Status;
use crate::emit::Form;
use crate::model::Spec;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

/// Names the rows use, imported by the module (roles, fields, variants, flags, statuses).
#[derive(Default)]
struct Used {
    roles: BTreeSet<&'static str>,
    fields: BTreeSet<&'static str>,
    variants: BTreeSet<&'static str>,
    flags: BTreeSet<&'static str>,
    statuses: BTreeSet<&'static str>,
}

/// The module `exec_rows` of a generation: `BINDINGS` (an `rt::FormBindings`) and `COVERAGE`.
pub(super) fn exec_rows(
    spec: &Spec,
    forms: &[Form],
    bindings: &[FormBinding],
    form_unsupported: &[Option<String>],
    coverage: &[(String, Status, String, String)],
) -> String {
    let mut used = Used::default();
    // Distinct bindings, in order of first use, with a form that has each and how many do.
    let mut rows: Vec<(String, usize, usize)> = Vec::new();
    let mut row_of: HashMap<String, usize> = HashMap::new();
    let mut form_row = Vec::with_capacity(forms.len());
    for (k, (b, u)) in bindings.iter().zip(form_unsupported).enumerate() {
        let text = binding_row(b, u.as_deref(), &mut used);
        let r = *row_of.entry(text.clone()).or_insert_with(|| {
            rows.push((text, k, 0));
            rows.len() - 1
        });
        rows[r].2 += 1;
        form_row.push(r);
    }
    let form_name = |k: usize| {
        let f = &forms[k];
        format!(
            "{} in {}",
            spec.instructions[f.instruction].name, spec.encodings[f.encoding].name
        )
    };

    let mut body = String::new();
    let _ = writeln!(
        body,
        "    /// Each distinct operand binding once: `bind(&[(role, operand, bits, flags), ..], &[(field, encoding field), ..], variant, why the form cannot run)`; the comment names a form that has it.\n    #[rustfmt::skip]\n    pub static BINDING_ROWS: [rt::FormBinding; {}] = [",
        rows.len()
    );
    for (text, first, n) in &rows {
        let more = match n - 1 {
            0 => String::new(),
            1 => " and 1 more form".to_string(),
            m => format!(" and {m} more forms"),
        };
        let _ = writeln!(body, "        {text}, // {}{more}", form_name(*first));
    }
    body.push_str("    ];\n\n");

    // The row of each form, one line per instruction (its forms are consecutive).
    let _ = writeln!(
        body,
        "    /// The `BINDING_ROWS` row of every form (`FORMS` order), one line per instruction.\n    #[rustfmt::skip]\n    pub static FORM_BINDINGS: [u16; {}] = [",
        forms.len()
    );
    let mut k = 0;
    while k < forms.len() {
        let ins = forms[k].instruction;
        let end = (k..forms.len())
            .find(|&j| forms[j].instruction != ins)
            .unwrap_or(forms.len());
        let ix: Vec<String> = form_row[k..end].iter().map(|r| r.to_string()).collect();
        let _ = writeln!(
            body,
            "        {}, // {}",
            ix.join(", "),
            spec.instructions[ins].name
        );
        k = end;
    }
    body.push_str("    ];\n\n");
    body.push_str(
        "    /// The operand binding of every form.\n    pub static BINDINGS: rt::FormBindings = rt::FormBindings { rows: &BINDING_ROWS, forms: &FORM_BINDINGS };\n\n",
    );

    // Coverage: provenances and reasons that repeat are constants.
    let mut count: HashMap<&str, usize> = HashMap::new();
    for (_, _, p, r) in coverage {
        for s in [p, r] {
            if s.len() > 8 {
                *count.entry(s.as_str()).or_default() += 1;
            }
        }
    }
    let mut interned: HashMap<String, String> = HashMap::new();
    let mut consts = String::new();
    let mut text_of = |s: &str| -> String {
        if count.get(s).copied().unwrap_or(0) < 2 {
            return format!("{s:?}");
        }
        let n = interned.len();
        interned
            .entry(s.to_string())
            .or_insert_with(|| {
                let name = format!("S_{n}");
                let _ = writeln!(consts, "    const {name}: &str = {s:?};");
                name
            })
            .clone()
    };
    let mut cov_rows = String::new();
    for (name, status, p, r) in coverage {
        let st = status_ident(*status);
        used.statuses.insert(st);
        let (p, r) = (text_of(p), text_of(r));
        let _ = writeln!(cov_rows, "        cov({name:?}, {st}, {p}, {r}),");
    }
    if !consts.is_empty() {
        body.push_str("    // Provenances and reasons of more than one instruction.\n");
        body.push_str(&consts);
        body.push('\n');
    }
    let _ = writeln!(
        body,
        "    /// How each instruction got its executor (`INSTRUCTIONS` order): `cov(instruction, status, provenance, reason)`.\n    #[rustfmt::skip]\n    pub static COVERAGE: [rt::CoverageEntry; {}] = [",
        coverage.len()
    );
    body.push_str(&cov_rows);
    body.push_str("    ];\n");

    let list = |s: &BTreeSet<&str>| s.iter().copied().collect::<Vec<_>>().join(", ");
    let mut out = String::from(
        "\n// ---- Executor tables: one row per entry (written by isa-gen's emit::executors::rows). ----\n\n/// The executors' operand bindings and coverage (`exec::BINDINGS`, `exec::COVERAGE`).\n#[allow(unused_imports)]\npub mod exec_rows {\n    use crate::semantics::{self as rt, bind, cov, NONE};\n",
    );
    for (module, names) in [
        ("role", &used.roles),
        ("field", &used.fields),
        ("variant", &used.variants),
        ("flag", &used.flags),
        ("ExecStatus", &used.statuses),
    ] {
        if !names.is_empty() {
            let _ = writeln!(
                out,
                "    use crate::semantics::{module}::{{{}}};",
                list(names)
            );
        }
    }
    out.push('\n');
    out.push_str(&body);
    out.push_str("}\n");
    out
}

/// One `bind(..)` row.
fn binding_row(b: &FormBinding, unsupported: Option<&str>, used: &mut Used) -> String {
    // Every role the binding says anything about, in the order it bound them.
    let mut roles: Vec<Role> = Vec::new();
    let listed = b
        .ops
        .iter()
        .map(|(r, _)| *r)
        .chain(b.sizes.iter().map(|(r, _)| *r))
        .chain(b.masks.iter().copied())
        .chain(b.f64s.iter().copied())
        .chain(b.t16.iter().copied());
    for r in listed {
        if !roles.contains(&r) {
            roles.push(r);
        }
    }
    let ops: Vec<String> = roles
        .iter()
        .map(|&r| {
            used.roles.insert(r.ident());
            let op = b
                .op(r)
                .map_or_else(|| "NONE".to_string(), |i| i.to_string());
            let mut flags = Vec::new();
            for (set, flag) in [(&b.masks, "MASK"), (&b.f64s, "F64"), (&b.t16, "T16")] {
                if set.contains(&r) {
                    used.flags.insert(flag);
                    flags.push(flag);
                }
            }
            let flags = if flags.is_empty() {
                "0".to_string()
            } else {
                flags.join(" | ")
            };
            format!("({}, {op}, {}, {flags})", r.ident(), b.size(r))
        })
        .collect();
    let fields: Vec<String> = b
        .fields
        .iter()
        .map(|(f, i)| {
            used.fields.insert(f);
            format!("({f}, {i})")
        })
        .collect();
    let variant = b.variant.unwrap_or(Variant::Plain).ident();
    used.variants.insert(variant);
    format!(
        "bind(&[{}], &[{}], {variant}, {:?})",
        ops.join(", "),
        fields.join(", "),
        unsupported.unwrap_or("")
    )
}

fn status_ident(s: Status) -> &'static str {
    match s {
        Status::Generated => "Generated",
        Status::Override => "Override",
        Status::Builtin => "Builtin",
        Status::Unsupported => "Unsupported",
    }
}
