//! The project's disassembler against `llvm-mc`, case by case, with a report per generation.

use crate::cases;
use crate::llvm_mc::{DisasmResult, LlvmMc, OracleError};
use isa_gen::Generation;
use isa_runtime::{disassemble, IsaSpec};
use std::fmt;

/// One disagreement with LLVM.
#[derive(Clone, Debug)]
pub struct Mismatch {
    /// `INSTRUCTION in ENCODING`.
    pub form: String,
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
    /// Every form of the spec, named as in the mismatch list: an entry of
    /// `llvm-disagreements.txt` for a form the loaded spec lacks (an excerpt) is not stale.
    pub form_names: std::collections::BTreeSet<String>,
}

/// The entries of `llvm-disagreements.txt`: `<set>-<generation> <mode> <INSTRUCTION in ENCODING>`.
pub fn listed_disagreements() -> std::collections::BTreeSet<String> {
    include_str!("../llvm-disagreements.txt")
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect()
}

impl Report {
    /// The key of a form in `llvm-disagreements.txt`.
    pub fn key(&self, set: &str, mode: &str, form: &str) -> String {
        format!("{set}-{} {mode} {form}", self.generation)
    }

    /// Moves the cases of listed forms from `mismatches` to `disagreements`; returns the listed
    /// forms of this generation and mode that had no disagreeing case (stale entries).
    pub fn separate_listed(
        &mut self,
        set: &str,
        mode: &str,
        listed: &std::collections::BTreeSet<String>,
    ) -> Vec<String> {
        let (listed_cases, rest): (Vec<Mismatch>, Vec<Mismatch>) =
            std::mem::take(&mut self.mismatches)
                .into_iter()
                .partition(|m| listed.contains(&self.key(set, mode, &m.form)));
        self.mismatches = rest;
        self.disagreements = listed_cases;
        let prefix = self.key(set, mode, "");
        listed
            .iter()
            .filter(|k| k.starts_with(&prefix))
            .filter(|k| self.form_names.contains(&k[prefix.len()..]))
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
    let mut report = Report {
        generation: spec.generation.to_string(),
        mcpu: gen.llvm_mcpu().to_string(),
        forms: spec.forms.len(),
        forms_covered: stats.forms_with_cases,
        cases: instances.len(),
        generator_skipped: spec.skipped.len(),
        without_cases: stats
            .without_cases
            .iter()
            .map(|&f| form_name(spec, f))
            .collect(),
        form_names: (0..spec.forms.len() as u16)
            .map(|f| form_name(spec, f))
            .collect(),
        ..Default::default()
    };
    let mut covered = std::collections::BTreeSet::new();
    for ((ins, b), r) in instances.iter().zip(&bytes).zip(&batch.results) {
        covered.insert(ins.form_info().instruction);
        let ours = disassemble(ins);
        let (llvm_text, ok) = match r {
            DisasmResult::Decoded(d) => (d.text.clone(), d.text == ours && d.consumed == b.len()),
            DisasmResult::Invalid => ("<invalid>".to_string(), false),
            DisasmResult::Crashed => {
                report.llvm_crashed += 1;
                continue;
            }
            DisasmResult::Error(e) => (format!("<error: {e}>"), false),
        };
        if ok {
            report.agree += 1;
        } else {
            report.mismatches.push(Mismatch {
                form: form_name(spec, ins.form),
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
    let mut report = Report {
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
        form_names: (0..spec.forms.len() as u16)
            .map(|f| form_name(spec, f))
            .collect(),
        ..Default::default()
    };
    let mut covered = std::collections::BTreeSet::new();
    for ((text, &k), r) in texts.iter().zip(&origin).zip(&asm.results) {
        let Some(expected) = r.bytes() else {
            report.llvm_crashed += usize::from(matches!(r, crate::llvm_mc::AsmResult::Crashed));
            continue;
        };
        report.cases += 1;
        covered.insert(instances[k].form_info().instruction);
        let ours = isa_runtime::assemble_instruction(spec, text);
        match ours {
            Ok(ins) if ins.encode() == expected => report.agree += 1,
            Ok(ins) => report.mismatches.push(Mismatch {
                form: form_name(spec, instances[k].form),
                bytes: expected,
                ours: format!("{text} => {}", hex(&ins.encode())),
                llvm: format!("{text} => {}", hex(&r.bytes().unwrap_or_default())),
            }),
            Err(e) => report.mismatches.push(Mismatch {
                form: form_name(spec, instances[k].form),
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
