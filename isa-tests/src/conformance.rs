//! The project's disassembler against `llvm-mc`, case by case, with a report per generation.

use crate::cases;
use crate::llvm_mc::{DisasmResult, LlvmMc, OracleError};
use isa_gen::Generation;
use isa_runtime::disasm::Family;
use isa_runtime::{disassemble, IsaSpec};
use std::collections::BTreeMap;
use std::fmt;

/// One disagreement with LLVM.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// `INSTRUCTION in ENCODING`.
    pub form: String,
    /// The form's [`report_family`].
    pub family: &'static str,
    /// The case's fields with a nonzero value.
    pub nonzero: Vec<&'static str>,
    pub bytes: Vec<u8>,
    pub ours: String,
    /// LLVM's text, or `<invalid>` / `<crashed>`.
    pub llvm: String,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hex: Vec<String> = self.bytes.iter().map(|b| format!("0x{b:02x}")).collect();
        write!(
            f,
            "{}: [{}]\n    ours: {}\n    llvm: {}",
            self.form,
            hex.join(","),
            self.ours,
            self.llvm
        )
    }
}

#[derive(Clone, Debug, Default)]
pub struct Report {
    pub generation: String,
    pub mcpu: String,
    pub forms: usize,
    pub forms_covered: usize,
    pub instructions_covered: usize,
    pub cases: usize,
    pub agree: usize,
    /// Cases llvm-mc crashed on (isolated and skipped).
    pub llvm_crashed: usize,
    pub mismatches: Vec<Mismatch>,
    /// Cases of forms listed in `llvm-disagreements.txt` (AMD's spec and LLVM differ about
    /// the instruction), moved out of `mismatches` by [`Report::separate_listed`].
    pub disagreements: Vec<Mismatch>,
    /// Forms the generator left out (with reasons in the spec's `skipped` table).
    pub generator_skipped: usize,
    /// Forms no valid random instance was found for (named as in the mismatch list).
    pub without_cases: Vec<String>,
    /// The same figures by family ([`report_family`]).
    pub families: BTreeMap<&'static str, FamilyCounts>,
    /// The forms that had cases (an entry for a form the loaded spec lacks is not stale: the
    /// list serves AMD's complete files and the excerpts alike).
    pub forms_with_cases: std::collections::BTreeSet<String>,
}

/// A family's line of the report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FamilyCounts {
    /// Forms of the family in the spec.
    pub forms: usize,
    pub cases: usize,
    pub agree: usize,
    /// Cases that disagree, listed ones included (the entries say which).
    pub mismatches: usize,
    /// Of `mismatches`, cases of forms in `llvm-disagreements.txt`.
    pub listed: usize,
}

/// The family a form is reported under: the disassembler's family of its encoding
/// (`EncodingInfo::family`, decided by the generator), with the variants LLVM defines apart from their base
/// family on their own line: SDWA, DPP, VOP3 with a scalar destination (VOP3SD), MFMA, and
/// the encodings with a literal dword.
pub fn report_family(spec: &IsaSpec, form: u16) -> &'static str {
    let f = &spec.forms[form as usize];
    let enc = &spec.encodings[f.encoding as usize];
    let instruction = spec.instructions[f.instruction as usize].name;
    let (fam, variant) = (enc.family, enc.variant);
    if variant.sdwa {
        return "SDWA";
    }
    if variant.dpp8 || variant.dpp16 {
        return "DPP";
    }
    if variant.literal {
        return "literal";
    }
    let mfma = variant.mfma
        || variant.x2
        || instruction.starts_with("V_MFMA")
        || instruction.starts_with("V_SMFMAC");
    if mfma {
        return "MFMA";
    }
    match fam {
        Family::Sop1 => "SOP1",
        Family::Sop2 => "SOP2",
        Family::Sopk => "SOPK",
        Family::Sopc => "SOPC",
        Family::Sopp => "SOPP",
        Family::Smem => "SMEM",
        Family::Vop1 => "VOP1",
        Family::Vop2 => "VOP2",
        Family::Vopc => "VOPC",
        Family::Vop3 if variant.sdst => "VOP3SD",
        Family::Vop3 => "VOP3",
        Family::Vop3p => "VOP3P",
        Family::Vopd => "VOPD",
        Family::Ds => "DS",
        Family::Flat => "FLAT",
        Family::FlatGlobal => "GLOBAL",
        Family::FlatScratch => "SCRATCH",
        Family::Mubuf => "MUBUF",
        Family::Mtbuf => "MTBUF",
        Family::Mimg => "MIMG",
        Family::Exp => "EXP",
        Family::Interp => "INTERP",
        Family::Other => "other",
    }
}

/// Whether a `--family` filter names the form's family: its report family (`VOP3SD`, `MFMA`,
/// case-insensitive) or part of its encoding's name (`SOP1_INST_LITERAL`).
pub fn family_matches(spec: &IsaSpec, form: u16, filter: &str) -> bool {
    let encoding = spec.encoding_of(form).name;
    report_family(spec, form).eq_ignore_ascii_case(filter) || encoding.contains(filter)
}

/// The entries of `llvm-disagreements.txt`, by key `<set>-<generation> <mode> <INSTRUCTION in
/// ENCODING>`: `None` when every case of the form is listed, or the fields of which one set
/// (nonzero) makes a case listed (`... when NEG,ABS`: LLVM rejects the form with those bits).
pub type Listed = BTreeMap<String, Option<Vec<String>>>;

pub fn listed_disagreements() -> Listed {
    let mut listed = Listed::new();
    for line in include_str!("../llvm-disagreements.txt").lines() {
        let entry = line.split('#').next().unwrap_or("").trim();
        if entry.is_empty() {
            continue;
        }
        let (key, fields) = match entry.split_once(" when ") {
            Some((k, f)) => (
                k.trim(),
                Some(
                    f.split(',')
                        .map(|x| x.trim().to_string())
                        .collect::<Vec<_>>(),
                ),
            ),
            None => (entry, None),
        };
        let slot = listed
            .entry(key.to_string())
            .or_insert_with(|| Some(Vec::new()));
        match (slot.as_mut(), fields) {
            (Some(all), Some(f)) => all.extend(f),
            _ => *slot = None,
        }
    }
    listed
}

/// The names of an instance's fields that hold a nonzero value (for conditional entries).
fn nonzero_fields(ins: &isa_runtime::Instruction) -> Vec<&'static str> {
    ins.encoding()
        .fields
        .iter()
        .filter(|f| ins.field(f.name).is_some_and(|v| v != 0))
        .map(|f| f.name)
        .collect()
}

impl Report {
    fn new(spec: &'static IsaSpec, stats: &cases::CaseStats) -> Report {
        let gen = Generation::from_name(spec.generation).expect("known generation");
        let mut families: BTreeMap<&'static str, FamilyCounts> = BTreeMap::new();
        for form in 0..spec.forms.len() as u16 {
            families.entry(report_family(spec, form)).or_default().forms += 1;
        }
        Report {
            generation: spec.generation.to_string(),
            mcpu: gen.llvm_mcpu().to_string(),
            forms: spec.forms.len(),
            forms_covered: stats.forms_with_cases,
            generator_skipped: spec.skipped.len(),
            without_cases: stats
                .without_cases
                .iter()
                .map(|&f| form_name(spec, f))
                .collect(),
            families,
            ..Default::default()
        }
    }

    /// Counts one case of `form`, agreeing or not.
    fn count(&mut self, spec: &IsaSpec, form: u16, agree: bool) {
        self.forms_with_cases.insert(form_name(spec, form));
        let c = self.families.entry(report_family(spec, form)).or_default();
        c.cases += 1;
        if agree {
            c.agree += 1;
        } else {
            c.mismatches += 1;
        }
    }

    /// Keeps the families, forms and cases that `filter` names (see [`family_matches`]):
    /// figures and mismatches of the rest are dropped.
    pub fn keep_family(&mut self, spec: &IsaSpec, filter: &str) {
        let kept = |name: &str| {
            (0..spec.forms.len() as u16)
                .any(|f| form_name(spec, f) == name && family_matches(spec, f, filter))
        };
        self.mismatches.retain(|m| kept(&m.form));
        self.disagreements.retain(|m| kept(&m.form));
        let families: std::collections::BTreeSet<&str> = (0..spec.forms.len() as u16)
            .filter(|&f| family_matches(spec, f, filter))
            .map(|f| report_family(spec, f))
            .collect();
        self.families.retain(|k, _| families.contains(k));
    }

    /// One line per family: forms, cases, agreeing cases, mismatches (and how many of them are
    /// of listed forms).
    pub fn family_table(&self) -> String {
        let mut t = String::new();
        for (name, c) in &self.families {
            t.push_str(&format!(
                "  {:<8} {:<8} {:<8} forms {:>5} cases {:>6} agree {:>6} mismatches {:>5} (listed {})\n",
                self.generation, self.mcpu, name, c.forms, c.cases, c.agree, c.mismatches, c.listed
            ));
        }
        t
    }

    /// The key of a form in `llvm-disagreements.txt`.
    pub fn key(&self, set: &str, mode: &str, form: &str) -> String {
        format!("{set}-{} {mode} {form}", self.generation)
    }

    /// Moves the cases of listed forms (with a condition: the cases that set one of its
    /// fields) from `mismatches` to `disagreements`; returns the listed forms of this
    /// generation and mode that had no disagreeing case (stale entries).
    pub fn separate_listed(&mut self, set: &str, mode: &str, listed: &Listed) -> Vec<String> {
        let generation = self.generation.clone();
        let key = |form: &str| format!("{set}-{generation} {mode} {form}");
        let is_listed = |m: &Mismatch| match listed.get(&key(&m.form)) {
            Some(None) => true,
            Some(Some(fields)) => fields.iter().any(|f| m.nonzero.contains(&f.as_str())),
            None => false,
        };
        let (listed_cases, rest): (Vec<Mismatch>, Vec<Mismatch>) =
            std::mem::take(&mut self.mismatches)
                .into_iter()
                .partition(is_listed);
        self.mismatches = rest;
        self.disagreements = listed_cases;
        for m in &self.disagreements {
            if let Some(c) = self.families.get_mut(m.family) {
                c.listed += 1;
            }
        }
        let prefix = self.key(set, mode, "");
        listed
            .keys()
            .filter(|k| {
                k.strip_prefix(&prefix)
                    .is_some_and(|form| self.forms_with_cases.contains(form))
            })
            .filter(|k| {
                !self
                    .disagreements
                    .iter()
                    .any(|m| **k == self.key(set, mode, &m.form))
            })
            .cloned()
            .collect()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{:<8} {:<8} forms {:>4}/{:<4} instructions {:>4} cases {:>5} agree {:>5} mismatches {:>4} spec-vs-llvm {:>3} llvm-crashed {:>2} skipped-by-generator {}",
            self.generation,
            self.mcpu,
            self.forms_covered,
            self.forms,
            self.instructions_covered,
            self.cases,
            self.agree,
            self.mismatches.len(),
            self.disagreements.len(),
            self.llvm_crashed,
            self.generator_skipped
        )
    }
}

pub fn form_name(spec: &IsaSpec, form: u16) -> String {
    let f = &spec.forms[form as usize];
    format!(
        "{} in {}",
        spec.instructions[f.instruction as usize].name, spec.encodings[f.encoding as usize].name
    )
}

/// Disassembles `per_form` random instances of every form with the project's disassembler and
/// with llvm-mc, and compares the texts and lengths.
pub fn disassembly(
    spec: &'static IsaSpec,
    llvm: &LlvmMc,
    per_form: usize,
    seed: u64,
) -> Result<Report, OracleError> {
    let gen = Generation::from_name(spec.generation).expect("known generation");
    let (instances, stats) = cases::generate(spec, per_form, seed);
    let bytes: Vec<Vec<u8>> = instances.iter().map(|i| i.encode()).collect();
    let batch = llvm.disassemble(gen, &bytes)?;
    let mut report = Report::new(spec, &stats);
    report.cases = instances.len();
    let mut covered = std::collections::BTreeSet::new();
    for ((ins, b), r) in instances.iter().zip(&bytes).zip(&batch.results) {
        covered.insert(ins.form_info().instruction);
        let ours = disassemble(ins);
        let (llvm_text, ok) = match r {
            // LLVM's `/* ... */` notes are dropped from both texts.
            DisasmResult::Decoded(d) => (
                d.text.clone(),
                d.text == crate::llvm_mc::strip_comments(&ours).0 && d.consumed == b.len(),
            ),
            DisasmResult::Invalid => ("<invalid>".to_string(), false),
            DisasmResult::Crashed => {
                report.llvm_crashed += 1;
                continue;
            }
            DisasmResult::Error(e) => (format!("<error: {e}>"), false),
        };
        report.count(spec, ins.form, ok);
        if ok {
            report.agree += 1;
        } else {
            report.mismatches.push(Mismatch {
                form: form_name(spec, ins.form),
                family: report_family(spec, ins.form),
                nonzero: nonzero_fields(ins),
                bytes: b.clone(),
                ours,
                llvm: llvm_text,
            });
        }
    }
    report.instructions_covered = covered.len();
    Ok(report)
}

/// Assembles LLVM's text of `per_form` random instances of every form with the project's
/// assembler and with llvm-mc, and compares the bytes.
pub fn assembly(
    spec: &'static IsaSpec,
    llvm: &LlvmMc,
    per_form: usize,
    seed: u64,
) -> Result<Report, OracleError> {
    let gen = Generation::from_name(spec.generation).expect("known generation");
    let (instances, stats) = cases::generate(spec, per_form, seed);
    let bytes: Vec<Vec<u8>> = instances.iter().map(|i| i.encode()).collect();
    let dis = llvm.disassemble(gen, &bytes)?;
    // LLVM's texts of the cases it can decode.
    let mut texts = Vec::new();
    let mut origin = Vec::new();
    for (k, r) in dis.results.iter().enumerate() {
        if let Some(t) = r.text() {
            texts.push(t.to_string());
            origin.push(k);
        }
    }
    let asm = llvm.assemble(gen, &texts)?;
    let mut report = Report::new(spec, &stats);
    let mut covered = std::collections::BTreeSet::new();
    for ((text, &k), r) in texts.iter().zip(&origin).zip(&asm.results) {
        let Some(expected) = r.bytes() else {
            report.llvm_crashed += usize::from(matches!(r, crate::llvm_mc::AsmResult::Crashed));
            continue;
        };
        report.cases += 1;
        covered.insert(instances[k].form_info().instruction);
        let ours = isa_runtime::assemble_instruction(spec, text);
        let form = instances[k].form;
        let agree = matches!(&ours, Ok(ins) if ins.encode() == expected);
        report.count(spec, form, agree);
        match ours {
            Ok(_) if agree => report.agree += 1,
            Ok(ins) => report.mismatches.push(Mismatch {
                form: form_name(spec, form),
                family: report_family(spec, form),
                nonzero: nonzero_fields(&instances[k]),
                bytes: expected,
                ours: format!("{text} => {}", hex(&ins.encode())),
                llvm: format!("{text} => {}", hex(&r.bytes().unwrap_or_default())),
            }),
            Err(e) => report.mismatches.push(Mismatch {
                form: form_name(spec, form),
                family: report_family(spec, form),
                nonzero: nonzero_fields(&instances[k]),
                bytes: expected.clone(),
                ours: format!("{text} => error at column {}: {}", e.column, e.message),
                llvm: format!("{text} => {}", hex(&expected)),
            }),
        }
    }
    report.instructions_covered = covered.len();
    Ok(report)
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}
