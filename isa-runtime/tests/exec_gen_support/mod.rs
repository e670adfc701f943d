//! Shared by the generated-executor tests: run one instruction (assembled from text) on a
//! wave with the generated executors of a spec, and the specs to run on (the fixtures always,
//! AMD's specs when they were found at build time).
#![allow(dead_code)]

use isa_runtime::exec::wave::{Src, MAX_LANES};
use isa_runtime::exec::{Decoded, ExecError, ExecutorTable, FlatMemory, Flow, Lds, Wave};
use isa_runtime::semantics::{self, ExecStatus};
use isa_runtime::IsaSpec;

/// The fixture specs and, when present, AMD's, each with its executors.
pub fn specs() -> Vec<(&'static IsaSpec, ExecutorTable, &'static str)> {
    let mut out = Vec::new();
    for s in isa_runtime::fixtures::specs() {
        out.push((
            s,
            semantics::table(s).expect("fixture executors"),
            "fixture",
        ));
    }
    for s in isa_runtime::specs() {
        out.push((s, semantics::table(s).expect("generated executors"), "AMD"));
    }
    out
}

/// Whether `name` has an executor that does something in `spec` (not unsupported).
pub fn runs(spec: &'static IsaSpec, name: &str) -> bool {
    let Some(i) = spec.instruction_by_name(name) else {
        return false;
    };
    let g = semantics::generated(spec).expect("generated executors");
    g.coverage[i].status != ExecStatus::Unsupported
}

/// Why `name` does not run in `spec` (for skip messages).
pub fn why_not(spec: &'static IsaSpec, name: &str) -> String {
    match spec.instruction_by_name(name) {
        None => format!("{} has no {name}", spec.generation),
        Some(i) => {
            let g = semantics::generated(spec).expect("generated executors");
            format!("{} {name}: {}", spec.generation, g.coverage[i].reason)
        }
    }
}

/// A wave of the spec's size with 32 VGPRs.
pub fn wave(spec: &IsaSpec) -> Wave {
    Wave::new(spec.wave64, 32, 0)
}

/// Assembles `text` and runs it once.
pub fn run(
    spec: &'static IsaSpec,
    table: &ExecutorTable,
    text: &str,
    w: &mut Wave,
    mem: &mut FlatMemory,
    lds: &mut Lds,
) -> Result<Flow, ExecError> {
    let ins = isa_runtime::assemble_instruction(spec, text)
        .unwrap_or_else(|e| panic!("{}: cannot assemble `{text}`: {e:?}", spec.generation));
    let f = table
        .get(&ins)
        .unwrap_or_else(|| panic!("{}: no executor for `{text}`", spec.generation));
    let d = Decoded::new(ins);
    f(w, &d, mem, lds)
}

/// Like [`run`] with fresh memory and LDS, panicking on errors.
pub fn run_ok(spec: &'static IsaSpec, table: &ExecutorTable, text: &str, w: &mut Wave) -> Flow {
    let mut mem = FlatMemory::new();
    let mut lds = Lds::new(64 * 1024);
    run(spec, table, text, w, &mut mem, &mut lds)
        .unwrap_or_else(|e| panic!("{}: `{text}` failed: {e}", spec.generation))
}

pub fn set_v(w: &mut Wave, reg: u32, values: &[u32]) {
    for (lane, v) in values.iter().enumerate() {
        w.write_vgpr(reg, lane, *v).unwrap();
    }
}

pub fn get_v(w: &Wave, reg: u32) -> Vec<u32> {
    (0..w.lanes())
        .map(|l| w.read_vgpr(reg, l).unwrap())
        .collect()
}

pub fn lanes(w: &Wave) -> usize {
    w.lanes()
}

/// A deterministic stream of test values (xorshift).
pub struct Rng(pub u64);
impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    pub fn u32(&mut self) -> u32 {
        self.next() as u32
    }
    pub fn lanes(&mut self) -> [u32; MAX_LANES] {
        let mut a = [0u32; MAX_LANES];
        for x in a.iter_mut() {
            *x = self.u32();
        }
        a
    }
}

pub fn sgpr(n: u16) -> Src {
    Src::Sgpr(n)
}

/// A field value for [`build`].
#[derive(Clone, Copy, Debug)]
pub enum F {
    /// `s<n>` (the first of a run).
    S(u32),
    /// `v<n>`.
    V(u32),
    /// A named value (`NULL`, `VCC_LO`).
    N(&'static str),
    /// The raw field value.
    Raw(u64),
}

/// Builds `name` in its first form of encoding `encoding`, field by field (for syntax the
/// assembler does not take).
pub fn build(spec: &'static IsaSpec, name: &str, encoding: &str, fields: &[(&str, F)]) -> Decoded {
    let i = spec
        .instruction_by_name(name)
        .unwrap_or_else(|| panic!("{}: no {name}", spec.generation));
    let form = spec.instructions[i]
        .forms
        .iter()
        .copied()
        .find(|&f| spec.encoding_of(f).name == encoding)
        .unwrap_or_else(|| panic!("{}: {name} has no form in {encoding}", spec.generation));
    let mut ins = isa_runtime::Instruction::new(spec, form);
    for &(field, val) in fields {
        let fi = ins
            .encoding()
            .fields
            .iter()
            .position(|f| f.name == field)
            .unwrap_or_else(|| panic!("{name}: no field {field}"));
        let ty = spec.forms[form as usize]
            .operands
            .iter()
            .find(|o| o.field == Some(fi as u8))
            .and_then(|o| o.operand_type)
            .map(|t| &spec.operand_types[t as usize]);
        let raw = match (val, ty) {
            (F::Raw(v), _) => Some(v),
            (F::S(n), Some(t)) => t.register_value("s", n).map(|v| v as u64),
            (F::V(n), Some(t)) => t.register_value("v", n).map(|v| v as u64),
            (F::N(n), Some(t)) => t.named_value(n).map(|v| v as u64),
            _ => None,
        };
        let raw = raw.unwrap_or_else(|| panic!("{name}: {field} cannot hold {val:?}"));
        assert!(ins.set_field(fi, raw), "{name}: {field} = {raw}");
    }
    Decoded::new(ins)
}

/// Runs a built instruction.
pub fn run_decoded(
    table: &ExecutorTable,
    d: &Decoded,
    w: &mut Wave,
    mem: &mut FlatMemory,
    lds: &mut Lds,
) -> Result<Flow, ExecError> {
    let f = table
        .get(&d.ins)
        .unwrap_or_else(|| panic!("no executor for {:?}", d.ins));
    f(w, d, mem, lds)
}
