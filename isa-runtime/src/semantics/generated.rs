//! The generated executor tables of a generation ([`GeneratedExec`]: executors, coverage) and
//! their lookup by spec.

use super::*;

/// How an instruction got its executor (shared with the generator).
pub use isa_vocab::ExecStatus;

/// One instruction's line of the coverage table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CoverageEntry {
    pub instruction: &'static str,
    pub status: ExecStatus,
    /// Where the semantics come from: `rdna3_5` (AMD's pseudocode of that generation),
    /// `semantics from rdna3_5` (borrowed by name), `spec/overrides/all.pcode:12`,
    /// `spec/fixtures/pcode-kernels/rdna3.pcode:40`, `hand-written`, or empty.
    pub provenance: &'static str,
    /// Why the instruction is unsupported, overridden or built in; notes for generated ones
    /// (forms that cannot run, operands not compared when borrowing).
    pub reason: &'static str,
}

/// A [`CoverageEntry`] from its row in a generated `COVERAGE`.
pub const fn cov(
    instruction: &'static str,
    status: ExecStatus,
    provenance: &'static str,
    reason: &'static str,
) -> CoverageEntry {
    CoverageEntry {
        instruction,
        status,
        provenance,
        reason,
    }
}

/// A generation's generated executors.
#[derive(Debug)]
pub struct GeneratedExec {
    pub generation: &'static str,
    /// Where AMD's pseudocode was read from at build time (or why it was absent).
    pub pcode_source: &'static str,
    /// One per instruction of the spec, in the spec's order.
    pub executors: &'static [Option<ExecFn>],
    /// One per instruction of the spec, in the spec's order.
    pub coverage: &'static [CoverageEntry],
}

impl GeneratedExec {
    /// Instructions whose executor does something (generated, override or builtin).
    pub fn implemented(&self) -> usize {
        self.coverage
            .iter()
            .filter(|c| c.status != ExecStatus::Unsupported)
            .count()
    }

    pub fn count(&self, status: ExecStatus) -> usize {
        self.coverage.iter().filter(|c| c.status == status).count()
    }

    /// The coverage entry of an instruction by AMD name or mnemonic.
    pub fn entry(&self, name: &str) -> Option<&CoverageEntry> {
        self.coverage
            .iter()
            .find(|c| c.instruction.eq_ignore_ascii_case(name))
    }
}

fn compiled_in() -> Vec<(Option<&'static IsaSpec>, &'static GeneratedExec)> {
    #[allow(unused_mut)]
    let mut v = crate::generation_executors();
    #[cfg(feature = "fixtures")]
    v.extend(crate::fixtures::executors());
    v
}

/// The generated executors of `spec` (a generation module's `SPEC`, or a fixture spec).
pub fn generated(spec: &'static IsaSpec) -> Option<&'static GeneratedExec> {
    compiled_in()
        .into_iter()
        .find(|(s, _)| s.is_some_and(|s| std::ptr::eq(s, spec)))
        .map(|(_, g)| g)
}

/// The executor table of `spec`, ready for [`crate::exec::Program::load`]. Every instruction
/// has an executor: unsupported ones return [`ExecError::Unsupported`] with their reason.
pub fn table(spec: &'static IsaSpec) -> Option<ExecutorTable> {
    let g = generated(spec)?;
    Some(ExecutorTable::from_fn(spec, |info| {
        let i = spec
            .instructions
            .iter()
            .position(|x| std::ptr::eq(x, info))?;
        g.executors.get(i).copied().flatten()
    }))
}

/// The coverage report of a generation, as `isa-gen exec report` prints it.
pub fn coverage_text(g: &GeneratedExec) -> String {
    let mut s = String::new();
    let total = g.coverage.len();
    let _ = writeln!(
        s,
        "{}: {} of {} instructions have executors ({} generated, {} override, {} builtin), {} unsupported",
        g.generation,
        g.implemented(),
        total,
        g.count(ExecStatus::Generated),
        g.count(ExecStatus::Override),
        g.count(ExecStatus::Builtin),
        g.count(ExecStatus::Unsupported),
    );
    let _ = writeln!(s, "  pseudocode: {}", g.pcode_source);
    for c in g.coverage {
        let _ = writeln!(
            s,
            "  {:<12} {:<36} {:<28} {}",
            c.status.name(),
            c.instruction,
            c.provenance,
            c.reason
        );
    }
    s
}

/// The executor of instructions that cannot run: an [`ExecError::Unsupported`] naming the
/// instruction and the reason from the coverage table.
pub fn unsupported(g: &GeneratedExec, d: &Decoded) -> ExecError {
    let i = d.form_info().instruction as usize;
    let reason = g.coverage.get(i).map(|c| c.reason).unwrap_or("no executor");
    ExecError::unsupported(d.mnemonic(), reason)
}
