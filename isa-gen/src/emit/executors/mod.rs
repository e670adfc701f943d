//! Per-instruction executors (issue 5): AMD's pseudocode, typed by [`crate::pcode`], lowered to
//! one Rust `ExecFn` per instruction, emitted into the generation's module next to its tables.
//!
//! For every instruction of a spec, in order:
//! 1. a decision by name ([`builtin`]): fixed behaviours (`S_ENDPGM`, `S_BARRIER`, waits),
//!    hand-written Rust overrides (`V_DIV_*`, `V_TRIG_PREOP_F64`), the matrix instructions
//!    ([`matrix`]: the runtime's matrix model with a shape from the name and operand sizes) and
//!    what the emulator does not model (GWS, traps) — each with its reason;
//! 2. the semantics found by [`source`] (the project's pseudocode overrides, AMD's pseudocode
//!    of the generation, of the generation it borrows from, or the project's own pseudocode for
//!    the fixture kernels), lowered by [`lower`] with the operand binding of [`binding`].
//!
//! Anything that cannot be lowered becomes an explicit executor returning
//! `ExecError::Unsupported` with the reason, counted in the coverage report (never a silent
//! default). The generated module holds `EXEC: semantics::GeneratedExec` (executors, coverage
//! table with provenance) and `executors::BINDINGS` (the operand binding of every form); the
//! binding and coverage tables are written by [`rows`] as text, one row per entry.

pub mod binding;
pub mod builtin;
pub mod corpus;
pub mod lower;
pub mod matrix;
mod rows;
pub mod source;

use crate::model::Spec;
use crate::pcode::corpus::{Class, Entry};
use crate::Generation;
use binding::{bind_form, classify, Family, FormBinding};
use builtin::Builtin;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};
use serde::Serialize;
pub use source::Semantics;

/// How an instruction got its executor (`isa_vocab::ExecStatus`, the runtime's too).
pub use isa_vocab::ExecStatus as Status;

/// Why an instruction has no executor, by kind: the coverage report groups by it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum UnsupportedKind {
    /// No form of the instruction decodes, or its forms mix scalar and vector families.
    Forms,
    /// Hardware or a mode the emulator does not model (images, GWS, traps, exports, ...).
    NotModelled,
    /// No pseudocode applies: none for the generation, or AMD gives prose.
    NoPseudocode,
    /// The pseudocode does not parse or type-check.
    Pseudocode,
    /// The lowering does not translate a construct of the pseudocode.
    Lowering(lower::Gap),
    /// The matrix model does not take the instruction's shape or types.
    Matrix,
}

impl UnsupportedKind {
    pub fn name(self) -> String {
        match self {
            UnsupportedKind::Forms => "forms".into(),
            UnsupportedKind::NotModelled => "not modelled".into(),
            UnsupportedKind::NoPseudocode => "no pseudocode".into(),
            UnsupportedKind::Pseudocode => "pseudocode does not parse or type-check".into(),
            UnsupportedKind::Lowering(g) => format!("lowering: {}", g.name()),
            UnsupportedKind::Matrix => "matrix shape".into(),
        }
    }
}

/// One instruction's line of the coverage report.
#[derive(Clone, Debug, Serialize)]
pub struct Coverage {
    pub instruction: String,
    #[serde(serialize_with = "status_name")]
    pub status: Status,
    /// See the runtime's `CoverageEntry::provenance`.
    pub provenance: String,
    pub reason: String,
    /// For an unsupported instruction, the kind of its reason.
    pub kind: Option<UnsupportedKind>,
    /// The encoding families of its forms.
    pub families: Vec<String>,
    /// Forms that cannot run although the instruction can (with why).
    pub unsupported_forms: Vec<String>,
}

/// A status as its name (`generated`, `override`, ...).
fn status_name<S: serde::Serializer>(s: &Status, ser: S) -> Result<S::Ok, S::Error> {
    ser.serialize_str(s.name())
}

/// The coverage of one generation.
#[derive(Clone, Debug, Serialize)]
pub struct ExecReport {
    pub generation: String,
    pub spec_file: String,
    pub pcode_source: String,
    pub instructions: usize,
    pub generated: usize,
    pub overrides: usize,
    pub builtins: usize,
    pub unsupported: usize,
    /// Problems reading the override layer or the kernel pseudocode.
    pub problems: Vec<String>,
    pub entries: Vec<Coverage>,
}

impl ExecReport {
    /// Instructions with an executor that does something.
    pub fn implemented(&self) -> usize {
        self.generated + self.overrides + self.builtins
    }

    /// The issue's coverage measure: (instructions with executors, instructions) counting
    /// neither image instructions, global wave sync nor traps (which the emulator does not
    /// model by design).
    pub fn coverage_outside_images_gws_traps(&self) -> (usize, usize) {
        let counted: Vec<&Coverage> = self
            .entries
            .iter()
            .filter(|e| !excluded_from_coverage(e))
            .collect();
        let done = counted
            .iter()
            .filter(|e| e.status != Status::Unsupported)
            .count();
        (done, counted.len())
    }

    /// Unsupported instructions grouped by reason (most frequent first). Reasons that name
    /// an instruction-specific detail are grouped by their first clause.
    pub fn unsupported_by_reason(&self) -> Vec<(String, usize)> {
        let mut m: std::collections::BTreeMap<String, usize> = Default::default();
        for e in self
            .entries
            .iter()
            .filter(|e| e.status == Status::Unsupported)
        {
            *m.entry(reason_group(&e.reason)).or_default() += 1;
        }
        let mut v: Vec<_> = m.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }

    /// Unsupported instructions per kind of reason (most frequent first).
    pub fn unsupported_by_kind(&self) -> Vec<(UnsupportedKind, usize)> {
        let mut m: std::collections::BTreeMap<UnsupportedKind, usize> = Default::default();
        for e in &self.entries {
            if let Some(k) = e.kind {
                *m.entry(k).or_default() += 1;
            }
        }
        let mut v: Vec<_> = m.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }

    /// Instructions per provenance kind (`rdna3_5`, `semantics from rdna3_5`, `override`,
    /// `fixture kernels`, `builtin`, `hand-written`).
    pub fn by_provenance(&self) -> Vec<(String, usize)> {
        let mut m: std::collections::BTreeMap<String, usize> = Default::default();
        for e in self
            .entries
            .iter()
            .filter(|e| e.status != Status::Unsupported)
        {
            *m.entry(provenance_group(&e.provenance)).or_default() += 1;
        }
        let mut v: Vec<_> = m.into_iter().collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }
}

/// Images (MIMG and RDNA's image families), GWS and trap instructions.
fn excluded_from_coverage(e: &Coverage) -> bool {
    let n = e.instruction.to_ascii_uppercase();
    n.starts_with("IMAGE_")
        || e.families.iter().any(|f| f == "IMAGE")
        || n.starts_with("DS_GWS_")
        || matches!(n.as_str(), "S_TRAP" | "S_RFE_B64" | "S_RFE_RESTORE_B64")
}

fn reason_group(r: &str) -> String {
    let r = r.split(" (").next().unwrap_or(r);
    r.split(": `").next().unwrap_or(r).to_string()
}

fn provenance_group(p: &str) -> String {
    if p.starts_with("spec/overrides") {
        "override pseudocode".into()
    } else if p.starts_with("spec/fixtures/pcode-kernels") {
        "fixture kernels' pseudocode".into()
    } else {
        p.split(" (").next().unwrap_or(p).to_string()
    }
}

/// The executors of a generation: code for its module and the coverage report.
pub struct Executors {
    pub code: TokenStream,
    /// The binding and coverage tables as text, one row per entry (module `exec_rows`).
    pub rows: String,
    pub report: ExecReport,
}

/// What one instruction's executor is.
enum Plan {
    Lowered(TokenStream),
    Builtin(Builtin),
    /// The runtime's matrix model with this instruction's shape.
    Matrix(TokenStream),
    Unsupported,
}

/// The executors of `spec` (code and coverage) from explicit semantics.
pub fn executors(spec: &Spec, sem: &Semantics) -> Executors {
    let (forms, _) = super::collect_forms(spec);
    generate_with(spec, &forms, sem)
}

/// Generates the executors of `spec` from explicit semantics.
pub(crate) fn generate_with(spec: &Spec, forms: &[super::Form], sem: &Semantics) -> Executors {
    let generation = spec.generation;
    // Bindings of every form (in the decoder's form order), filled per instruction below.
    let mut bindings: Vec<FormBinding> = vec![FormBinding::default(); forms.len()];
    let mut form_unsupported: Vec<Option<String>> = vec![None; forms.len()];
    let mut fns = Vec::new();
    let mut executors = Vec::new();
    let mut coverage_rows: Vec<(String, Status, String, String)> = Vec::new();
    let mut entries = Vec::new();
    for (ii, ins) in spec.instructions.iter().enumerate() {
        let form_ix: Vec<usize> = forms
            .iter()
            .enumerate()
            .filter(|(_, f)| f.instruction == ii)
            .map(|(k, _)| k)
            .collect();
        let mut families: Vec<Family> = form_ix
            .iter()
            .map(|&k| classify(&spec.encodings[forms[k].encoding]).0)
            .collect();
        families.sort_by_key(|f| f.name());
        families.dedup();
        let found = find_semantics(spec, generation, ins, &families, form_ix.is_empty(), sem);
        // The pseudocode the executor is lowered from, for its doc comment.
        let source_text = match &found {
            Found::Entry { entry, .. } => Some(entry.code_text().to_string()),
            _ => None,
        };
        let hints = match &found {
            Found::Entry { entry, .. } => binding::Hints {
                reads_d0: match &entry.class {
                    Class::Typed { ir, .. } => lower::reads_name(ir, "D0"),
                    _ => false,
                },
            },
            _ => binding::Hints::default(),
        };
        for &k in &form_ix {
            let f = &forms[k];
            let enc = &spec.encodings[f.encoding];
            let (family, variant) = classify(enc);
            bindings[k] = bind_form(
                spec,
                ins,
                f.instruction_encoding,
                enc,
                family,
                variant,
                hints,
            );
        }
        let ins_forms: Vec<FormBinding> = form_ix.iter().map(|&k| bindings[k].clone()).collect();
        let (plan, status, provenance, mut reason, kind) = plan(
            ins,
            found,
            &families,
            &ins_forms,
            &form_ix,
            &mut form_unsupported,
        );
        let fn_name = format_ident!("x_{}", sanitize(&ins.name));
        let mut unsupported_forms = Vec::new();
        for &k in &form_ix {
            if let Some(why) = &form_unsupported[k] {
                unsupported_forms
                    .push(format!("{}: {why}", spec.encodings[forms[k].encoding].name));
            }
        }
        if status == Status::Generated && !unsupported_forms.is_empty() && reason.is_empty() {
            reason = format!("{} form(s) cannot run", unsupported_forms.len());
        }
        let body = match plan {
            Plan::Lowered(body) => {
                // MUBUF loads with the LDS bit (GFX9 line) send their data to LDS instead.
                Some(
                    if gfx9_line(generation)
                        && families.contains(&Family::Buffer)
                        && builtin::buffer_load_takes_lds(&ins.name)
                    {
                        quote! {
                            if rt::lds_dma::lds_bit(d) {
                                return rt::lds_dma::buffer_load_lds(w, d, &BINDINGS, mem, lds);
                            }
                            #body
                        }
                    } else {
                        body
                    },
                )
            }
            Plan::Matrix(body) => Some(body),
            Plan::Builtin(b) => Some(builtin_body(b)),
            Plan::Unsupported => None,
        };
        match body {
            Some(body) => {
                // Provenance first, then the pseudocode: what a reader needs to map the body
                // back to the spec (generated code is never committed, so quoting is fine).
                let mut doc = vec![format!(" {}: {provenance}.", ins.name)];
                if let Some(text) = &source_text {
                    doc.push(String::new());
                    doc.push(" ```text".into());
                    doc.extend(text.lines().map(|l| format!(" {l}")));
                    doc.push(" ```".into());
                }
                fns.push(quote! {
                    #(#[doc = #doc])*
                    pub fn #fn_name(w: &mut Wave, d: &Decoded, mem: &mut dyn Memory, lds: &mut Lds) -> Result<Flow, ExecError> {
                        #body
                    }
                });
                executors.push(quote!(Some(#fn_name as ExecFn)));
            }
            None => executors.push(quote!(Some(unsupported as ExecFn))),
        }
        coverage_rows.push((ins.name.clone(), status, provenance.clone(), reason.clone()));
        entries.push(Coverage {
            instruction: ins.name.clone(),
            status,
            provenance,
            reason,
            kind,
            families: families.iter().map(|f| f.name().to_string()).collect(),
            unsupported_forms,
        });
    }
    let (fns, executors) = lower::share_identical(fns, executors);
    let rows = rows::exec_rows(spec, forms, &bindings, &form_unsupported, &coverage_rows);
    let n_ins = executors.len();
    let gen_name = spec.label();
    let pcode_source = sem.pcode_source.clone();
    let code = quote! {
        /// This generation's executors, generated from the pseudocode (see `semantics`).
        pub static EXEC: crate::semantics::GeneratedExec = crate::semantics::GeneratedExec {
            generation: #gen_name,
            pcode_source: #pcode_source,
            executors: &executors::EXECUTORS,
            coverage: &executors::COVERAGE,
        };

        /// Generated executors: one function per instruction (`x_<NAME>`), the operand
        /// binding of every form, the coverage table.
        #[allow(unused_imports, unused_mut, unused_variables, unused_assignments, unused_labels, unused_parens,
                unused_braces, unreachable_code, non_snake_case, clippy::all)]
        pub mod executors {
            use crate::exec::float::{self as fl, SoftFloat, BF16, F16, F32, F64};
            use crate::exec::helpers as hp;
            use crate::exec::wave::{LaneIter, MAX_LANES};
            use crate::exec::{Decoded, ExecError, ExecFn, Flow, Lds, Memory, Wave};
            use crate::semantics as rt;

            /// The operand binding of every form and how each instruction got its executor
            /// (their rows are in `exec_rows`).
            pub use super::exec_rows::{BINDINGS, COVERAGE};
            /// One executor per instruction (`INSTRUCTIONS` order).
            pub static EXECUTORS: [Option<ExecFn>; #n_ins] = [#(#executors),*];

            /// The executor of instructions that cannot run: the reason from `COVERAGE`.
            pub fn unsupported(_: &mut Wave, d: &Decoded, _: &mut dyn Memory, _: &mut Lds) -> Result<Flow, ExecError> {
                Err(rt::unsupported(&super::EXEC, d))
            }

            #(#fns)*
        }
    };
    let count = |s| entries.iter().filter(|e: &&Coverage| e.status == s).count();
    let report = ExecReport {
        generation: gen_name,
        spec_file: spec
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("?")
            .to_string(),
        pcode_source,
        instructions: entries.len(),
        generated: count(Status::Generated),
        overrides: count(Status::Override),
        builtins: count(Status::Builtin),
        unsupported: count(Status::Unsupported),
        problems: sem.problems.clone(),
        entries,
    };
    Executors { code, rows, report }
}

/// The items of an absent generation's module (no spec): an empty `EXEC`.
pub fn generate_absent(generation: &str, reason: &str) -> String {
    format!(
        "/// No executors: no spec was available.\npub static EXEC: crate::semantics::GeneratedExec = crate::semantics::GeneratedExec {{ generation: {generation:?}, pcode_source: {reason:?}, executors: &[], coverage: &[] }};\n"
    )
}

fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// Where an instruction's executor comes from.
enum Found {
    /// Decided by name.
    Builtin(Builtin),
    /// Semantics to lower.
    Entry {
        entry: Box<Entry>,
        status: Status,
        provenance: String,
        note: String,
    },
    /// A matrix instruction with its shape.
    Matrix(matrix::MatrixShape),
    /// Unsupported before any lowering: (provenance, reason, kind).
    Unsupported(String, String, UnsupportedKind),
}

/// Finds the semantics of one instruction (see [`source`] for the order).
fn find_semantics(
    spec: &crate::model::Spec,
    generation: Option<Generation>,
    ins: &crate::model::Instruction,
    families: &[Family],
    no_forms: bool,
    sem: &Semantics,
) -> Found {
    use UnsupportedKind as K;
    let unsupported = |kind: K, why: String| Found::Unsupported(String::new(), why, kind);
    if no_forms {
        return unsupported(K::Forms, "no form of the instruction can be decoded".into());
    }
    if matrix::is_matrix(&ins.name) {
        return match matrix::shape(ins, generation) {
            Ok(s) => Found::Matrix(s),
            Err(why) => unsupported(K::Matrix, why),
        };
    }
    if let Some(b) = builtin::builtin(&ins.name) {
        let gfx9 = gfx9_line(generation);
        return match b {
            Builtin::Unsupported(r) => unsupported(K::NotModelled, r.to_string()),
            Builtin::RustMem { .. } if !gfx9 => unsupported(
                K::NotModelled,
                "buffer formats of GFX10 and later (the unified FORMAT table) are not modelled"
                    .into(),
            ),
            Builtin::RustLds { .. } if !gfx9 => unsupported(
                K::NotModelled,
                "its LDS model (M0 as the LDS address) is the GFX9 line's (CDNA 1 to 4); not modelled here".into(),
            ),
            b => Found::Builtin(b),
        };
    }
    if let Some(why) = families.iter().find_map(|f| f.unmodelled()) {
        return unsupported(K::NotModelled, why.to_string());
    }
    if families.iter().any(|f| f.is_scalar()) && families.iter().any(|f| !f.is_scalar()) {
        return unsupported(
            K::Forms,
            "forms in both scalar and vector encoding families".into(),
        );
    }
    let Some(g) = generation else {
        return unsupported(
            K::NoPseudocode,
            "the spec's generation is not known, so no pseudocode applies".into(),
        );
    };
    // AMD renames instructions between generations (S_ADD_U32 became S_ADD_CO_U32): the
    // spec's aliases are looked up after the name.
    let names: Vec<&str> = std::iter::once(ins.name.as_str())
        .chain(ins.aliases.iter().map(String::as_str))
        .collect();
    if let Some(o) = sem.override_for(g, &ins.name) {
        if !o.executable {
            return unsupported(K::NotModelled, o.reason.clone());
        }
        return Found::Entry {
            entry: Box::new(crate::pcode::corpus::classify(&o.raw, Some(g))),
            status: Status::Override,
            provenance: o.location.clone(),
            note: o.reason.clone(),
        };
    }
    if let Some(e) = first_entry(&names, |n| sem.amd_entry(g, n)) {
        return Found::Entry {
            entry: Box::new(e.clone()),
            status: Status::Generated,
            provenance: g.name().to_string(),
            note: String::new(),
        };
    }
    for src in source::borrow_sources(g) {
        if let Some(e) = first_entry(&names, |n| sem.amd_entry(src, n)) {
            // Borrow by name when the operand signatures agree.
            let mut note = String::new();
            match sem
                .source_spec(src)
                .and_then(|s| Some((s, s.instruction(&e.name)?)))
            {
                Some((theirs_spec, theirs)) => {
                    if let (Some(a), Some(b)) = (
                        source::signature(spec, ins),
                        source::signature(theirs_spec, theirs),
                    ) {
                        if let Some(diff) = source::signature_difference(&a, &b) {
                            return unsupported(K::NoPseudocode, format!(
                                "operand signature differs from {}'s, so its pseudocode is not borrowed: {diff}",
                                src.name()
                            ));
                        }
                    }
                }
                None => {
                    note = format!(
                        "operands not compared: {}'s spec at hand does not list {}",
                        src.name(),
                        e.name
                    );
                }
            }
            let provenance = if e.name == ins.name {
                format!("semantics from {}", src.name())
            } else {
                format!("semantics from {} ({})", src.name(), e.name)
            };
            return Found::Entry {
                entry: Box::new(e.clone()),
                status: Status::Generated,
                provenance,
                note,
            };
        }
    }
    if let Some(e) = first_entry(&names, |n| sem.kernel_entry(g, n)) {
        let loc = format!(
            "{}:{}",
            source::display_path(&source::kernels_dir().join(format!("{}.pcode", g.name()))),
            e.header_line
        );
        return Found::Entry {
            entry: Box::new(e.clone()),
            status: Status::Generated,
            provenance: loc,
            note: String::new(),
        };
    }
    unsupported(
        K::NoPseudocode,
        if sem.amd.is_empty() {
            "no pseudocode: AMD's is absent and the project's fixture pseudocode has no entry"
                .to_string()
        } else {
            let mut gens = vec![g.name()];
            gens.extend(source::borrow_sources(g).iter().map(|s| s.name()));
            format!("no pseudocode entry in {}", gens.join(" or "))
        },
    )
}

/// CDNA 1 to 4: the GFX9 line's buffer resource, formats and LDS-direct loads.
fn gfx9_line(g: Option<Generation>) -> bool {
    g.is_some_and(|g| g.traits().gfx == 9)
}

/// The first entry found under any of `names`.
fn first_entry<'a>(names: &[&str], f: impl Fn(&str) -> Option<&'a Entry>) -> Option<&'a Entry> {
    names.iter().find_map(|n| f(n))
}

/// Lowers one instruction's semantics.
fn plan(
    ins: &crate::model::Instruction,
    found: Found,
    families: &[Family],
    ins_forms: &[FormBinding],
    form_ix: &[usize],
    form_unsupported: &mut [Option<String>],
) -> (Plan, Status, String, String, Option<UnsupportedKind>) {
    let (entry, status, provenance, note) = match found {
        Found::Unsupported(p, why, kind) => {
            return (Plan::Unsupported, Status::Unsupported, p, why, Some(kind))
        }
        Found::Matrix(s) => {
            return (
                Plan::Matrix(s.body()),
                Status::Override,
                "matrix model".into(),
                s.describe(),
                None,
            )
        }
        Found::Builtin(b) => {
            return match b {
                Builtin::RustOverride { reason, .. }
                | Builtin::RustMem { reason, .. }
                | Builtin::RustLds { reason, .. } => (
                    Plan::Builtin(b),
                    Status::Override,
                    "hand-written".into(),
                    reason.into(),
                    None,
                ),
                Builtin::EndProgram(r)
                | Builtin::Barrier(r)
                | Builtin::NoOp(r)
                | Builtin::Clock(r)
                | Builtin::ClearExceptions(r) => (
                    Plan::Builtin(b),
                    Status::Builtin,
                    "builtin".into(),
                    r.into(),
                    None,
                ),
                Builtin::Halt { reason, .. } => (
                    Plan::Builtin(b),
                    Status::Builtin,
                    "builtin".into(),
                    reason.into(),
                    None,
                ),
                Builtin::Unsupported(r) => (
                    Plan::Unsupported,
                    Status::Unsupported,
                    String::new(),
                    r.into(),
                    Some(UnsupportedKind::NotModelled),
                ),
            }
        }
        Found::Entry {
            entry,
            status,
            provenance,
            note,
        } => (entry, status, provenance, note),
    };
    let fail = |kind: UnsupportedKind, why: String| {
        (
            Plan::Unsupported,
            Status::Unsupported,
            provenance.clone(),
            why,
            Some(kind),
        )
    };
    let ir = match &entry.class {
        Class::Typed { ir, .. } => ir,
        Class::Parsed { errors, .. } => {
            let first = errors
                .first()
                .map(|e| format!("{} ({})", e.code, e.message))
                .unwrap_or_default();
            return fail(
                UnsupportedKind::Pseudocode,
                format!("the pseudocode does not type-check: {first}"),
            );
        }
        Class::Prose { kind, .. } => {
            return fail(
                UnsupportedKind::NoPseudocode,
                format!("AMD gives prose, not pseudocode ({})", kind.name()),
            );
        }
        Class::Failed { cause, .. } => {
            return fail(
                UnsupportedKind::Pseudocode,
                format!("the pseudocode does not parse ({})", cause.name()),
            );
        }
    };
    // The family the body is lowered for: VOP3 among vector ALU forms (its VCC rules are
    // decided per form at run time), else the first.
    let family = if families.contains(&Family::Vop3) {
        Family::Vop3
    } else {
        families[0]
    };
    let mode = if family.is_scalar() {
        lower::ExecMode::Scalar
    } else if lower::names_other_lanes(ir) {
        lower::ExecMode::Wave
    } else {
        lower::ExecMode::Lane
    };
    let cx = lower::Ctx {
        name: &ins.name,
        family,
        forms: ins_forms,
        ir,
    };
    match lower::Lower::new(&cx, mode).executor() {
        Ok((body, required)) => {
            // Forms that lack an operand the body needs cannot run.
            for (k, b) in form_ix.iter().zip(ins_forms) {
                let missing: Vec<&str> = required
                    .iter()
                    .filter(|r| b.op(**r).is_none())
                    .map(|r| r.ident())
                    .collect();
                if !missing.is_empty() {
                    form_unsupported[*k] = Some(format!(
                        "the form has no operand for {}",
                        missing.join(", ")
                    ));
                }
            }
            (Plan::Lowered(body), status, provenance, note, None)
        }
        Err(why) => fail(UnsupportedKind::Lowering(why.kind), why.detail),
    }
}

fn builtin_body(b: Builtin) -> TokenStream {
    match b {
        Builtin::EndProgram(_) => quote!(Ok(Flow::EndProgram)),
        Builtin::Barrier(_) => quote!(Ok(Flow::Barrier)),
        Builtin::NoOp(_) => quote!(Ok(Flow::Next)),
        Builtin::Clock(_) => quote! {
            let b = rt::FormBinding::of(d, &BINDINGS)?;
            let t = w.steps as u128;
            rt::write_scalar(w, b.op(d, rt::role::SDATA)?, 64, t)?;
            Ok(Flow::Next)
        },
        Builtin::ClearExceptions(_) => quote! {
            w.trapsts &= !0x1ff;
            Ok(Flow::Next)
        },
        Builtin::Halt { always: true, .. } => quote!(Ok(Flow::Halt)),
        Builtin::Halt { always: false, .. } => quote! {
            let simm = d.field("SIMM16").unwrap_or(0);
            Ok(if simm & 1 != 0 { Flow::Halt } else { Flow::Next })
        },
        Builtin::RustOverride { function, .. } => {
            let f = format_ident!("{}", function);
            quote!(rt::handwritten::#f(w, d, &BINDINGS))
        }
        Builtin::RustMem { function, .. } => {
            let f = format_ident!("{}", function);
            quote!(rt::format::#f(w, d, &BINDINGS, mem))
        }
        Builtin::RustLds {
            module, function, ..
        } => {
            let (m, f) = (format_ident!("{}", module), format_ident!("{}", function));
            quote!(rt::#m::#f(w, d, &BINDINGS, mem, lds))
        }
        Builtin::Unsupported(r) => quote!(Err(ExecError::unsupported(d.mnemonic(), #r))),
    }
}

#[cfg(test)]
mod tests;
