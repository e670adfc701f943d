//! Support for the executors that `isa-gen` generates from AMD's pseudocode (issue 5).
//!
//! Every generation module (`isa_runtime::rdna3`, `isa_runtime::fixtures::cdna3`, ...) holds a
//! generated `EXEC: GeneratedExec`: one [`ExecFn`] per instruction (or none), the operand
//! binding of every form, and a coverage table saying, per instruction, whether its executor
//! was generated from pseudocode, taken from the project's override layer, or is an explicit
//! "unsupported" executor, and why. Use it through:
//!
//! - [`table`]: the [`ExecutorTable`] of a spec (`Program::load(spec, code, base, &table)`);
//! - [`generated`]: the [`GeneratedExec`] of a spec (coverage, provenance);
//! - [`coverage_text`]: the coverage report as text (the same as `isa-gen exec report`).
//!
//! The rest of this module is what generated code calls: operand access by width
//! ([`read_scalar`], [`lanes_b32`], [`write_scalar`], [`store_lanes`]), bit manipulation on
//! `u128` ([`get_bits`], [`set_bits`]), memory access by segment ([`mem_read`]), address
//! calculation per encoding family ([`global_addr`], ...), VOP3 input/output modifiers
//! ([`Mods`]) and value coercions for helper calls ([`co`]).

pub mod buffer;
pub mod ds_counter;
pub mod format;
pub mod lds_dma;
pub mod overrides;
pub mod shorthand;

pub use buffer::{buf_read, buf_write, sbuf_read, sbuf_write, BufferRange, BufferResource};
pub use shorthand::*;

use crate::exec::float::{self as fl, SoftFloat, F16, F32, F64};
use crate::exec::wave::{LaneIter, Special, Src, MAX_LANES};
use crate::exec::{Decoded, ExecError, ExecFn, ExecutorTable, Lds, MemError, Memory, Wave};
use crate::IsaSpec;
use std::fmt::Write as _;

// ---------------------------------------------------------------------------------------------
// Generated tables

/// How an instruction got its executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecStatus {
    /// Lowered from pseudocode (AMD's, or the project's own for the fixtures).
    Generated,
    /// From the project's override layer (`spec/overrides/*.pcode`, or a hand-written Rust
    /// executor in [`overrides`]), because AMD's text is wrong or prose.
    Override,
    /// A fixed behaviour the pseudocode does not express (end of program, barrier, a wait
    /// that has nothing to wait for in the emulator).
    Builtin,
    /// An explicit executor that returns [`ExecError::Unsupported`] with the reason.
    Unsupported,
}

impl ExecStatus {
    pub fn name(self) -> &'static str {
        match self {
            ExecStatus::Generated => "generated",
            ExecStatus::Override => "override",
            ExecStatus::Builtin => "builtin",
            ExecStatus::Unsupported => "unsupported",
        }
    }
}

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

// ---------------------------------------------------------------------------------------------
// Operand binding

/// The pseudocode's operand names, bound per form to the form's operands (see
/// `isa-gen/src/emit/exec/binding.rs` for which name goes to which operand in each encoding
/// family).
pub mod role {
    /// Sources in the order the form lists them (`S0`/`SRC0`, `S1`, `S2`, `S3`).
    pub const S0: usize = 0;
    pub const S1: usize = 1;
    pub const S2: usize = 2;
    pub const S3: usize = 3;
    /// The first and second outputs (`D0`; `D1` is VOP3SD's carry-out).
    pub const D0: usize = 4;
    pub const D1: usize = 5;
    /// Memory instructions: the data returned (`RETURN_DATA`, `VDATA` of loads).
    pub const VDST: usize = 6;
    /// Memory instructions: data written (`DATA`, `DATA0`, `VDATA` of stores).
    pub const DATA: usize = 7;
    /// The second data operand (`DATA1`, `DATA2`).
    pub const DATA1: usize = 8;
    /// Scalar memory data (`SDATA`).
    pub const SDATA: usize = 9;
    /// The address operand (a VGPR: DS address, or a flat/global/scratch address or offset).
    pub const ADDR: usize = 10;
    pub const SADDR: usize = 11;
    pub const SBASE: usize = 12;
    pub const SOFFSET: usize = 13;
    pub const SRSRC: usize = 14;
    pub const VADDR: usize = 15;
    pub const COUNT: usize = 16;
    pub const NAMES: [&str; COUNT] = [
        "S0", "S1", "S2", "S3", "D0", "D1", "VDST", "DATA", "DATA1", "SDATA", "ADDR", "SADDR",
        "SBASE", "SOFFSET", "SRSRC", "VADDR",
    ];
}

/// Encoding fields the executors read by meaning.
pub mod field {
    pub const OFFSET: usize = 0;
    pub const OFFSET0: usize = 1;
    pub const OFFSET1: usize = 2;
    pub const SIMM16: usize = 3;
    pub const LITERAL: usize = 4;
    pub const NEG: usize = 5;
    pub const ABS: usize = 6;
    pub const CLAMP: usize = 7;
    pub const OMOD: usize = 8;
    pub const OPSEL: usize = 9;
    pub const OPSEL_HI: usize = 10;
    pub const NEG_HI: usize = 11;
    /// CDNA SMEM: whether SOFFSET is used.
    pub const SOFFSET_EN: usize = 12;
    /// CDNA SMEM: whether OFFSET is an immediate.
    pub const IMM: usize = 13;
    /// DPP16's control and GCN DPP's.
    pub const DPP_CTRL: usize = 14;
    pub const ROW_MASK: usize = 15;
    pub const BANK_MASK: usize = 16;
    /// SDWA selects and modifiers (CDNA, RDNA1/2).
    pub const SRC0_SEL: usize = 17;
    pub const SRC1_SEL: usize = 18;
    pub const DST_SEL: usize = 19;
    pub const DST_UNUSED: usize = 20;
    pub const SRC0_SEXT: usize = 21;
    pub const SRC1_SEXT: usize = 22;
    pub const SRC0_NEG: usize = 23;
    pub const SRC1_NEG: usize = 24;
    pub const SRC0_ABS: usize = 25;
    pub const SRC1_ABS: usize = 26;
    pub const OPSEL_HI2: usize = 27;
    /// DPP8's lane selects, `LANE_SEL_0` .. `LANE_SEL_7` (3 bits each).
    pub const LANE_SEL_0: usize = 28;
    pub const LANE_SEL_1: usize = 29;
    pub const LANE_SEL_2: usize = 30;
    pub const LANE_SEL_3: usize = 31;
    pub const LANE_SEL_4: usize = 32;
    pub const LANE_SEL_5: usize = 33;
    pub const LANE_SEL_6: usize = 34;
    pub const LANE_SEL_7: usize = 35;
    /// Whether a vector memory atomic returns the old value: GLC (GFX9, GFX10, GFX11), SC0
    /// (GFX940), TH bit 0 (GFX12).
    pub const GLC: usize = 36;
    pub const SC0: usize = 37;
    pub const TH: usize = 38;
    /// DPP: out-of-range or disabled source lanes read 0 (else the lane is not written).
    pub const BOUND_CTRL: usize = 39;
    /// DPP16/DPP8 (RDNA): read inactive source lanes too.
    pub const FI: usize = 40;
    /// MUBUF/MTBUF: VADDR holds an index (IDXEN) and/or an offset (OFFEN).
    pub const IDXEN: usize = 41;
    pub const OFFEN: usize = 42;
    pub const COUNT: usize = 43;
    pub const NAMES: [&str; COUNT] = [
        "OFFSET",
        "OFFSET0",
        "OFFSET1",
        "SIMM16",
        "LITERAL",
        "NEG",
        "ABS",
        "CLAMP",
        "OMOD",
        "OPSEL",
        "OPSEL_HI",
        "NEG_HI",
        "SOFFSET_EN",
        "IMM",
        "DPP_CTRL",
        "ROW_MASK",
        "BANK_MASK",
        "SRC0_SEL",
        "SRC1_SEL",
        "DST_SEL",
        "DST_UNUSED",
        "SRC0_SEXT",
        "SRC1_SEXT",
        "SRC0_NEG",
        "SRC1_NEG",
        "SRC0_ABS",
        "SRC1_ABS",
        "OPSEL_HI2",
        "LANE_SEL_0",
        "LANE_SEL_1",
        "LANE_SEL_2",
        "LANE_SEL_3",
        "LANE_SEL_4",
        "LANE_SEL_5",
        "LANE_SEL_6",
        "LANE_SEL_7",
        "GLC",
        "SC0",
        "TH",
        "BOUND_CTRL",
        "FI",
        "IDXEN",
        "OFFEN",
    ];
}

/// "No operand" / "no field" in a [`Binding`].
pub const NONE: u8 = u8::MAX;

/// `Binding::ops` from (role, operand index) pairs (for generated statics).
pub const fn ops(pairs: &[(usize, u8)]) -> [u8; role::COUNT] {
    let mut a = [NONE; role::COUNT];
    let mut i = 0;
    while i < pairs.len() {
        a[pairs[i].0] = pairs[i].1;
        i += 1;
    }
    a
}

/// `Binding::sizes` from (role, bits) pairs.
pub const fn sizes(pairs: &[(usize, u16)]) -> [u16; role::COUNT] {
    let mut a = [0u16; role::COUNT];
    let mut i = 0;
    while i < pairs.len() {
        a[pairs[i].0] = pairs[i].1;
        i += 1;
    }
    a
}

/// `Binding::fields` from (field meaning, encoding field index) pairs.
pub const fn fields(pairs: &[(usize, u8)]) -> [u8; field::COUNT] {
    let mut a = [NONE; field::COUNT];
    let mut i = 0;
    while i < pairs.len() {
        a[pairs[i].0] = pairs[i].1;
        i += 1;
    }
    a
}

/// Encoding variants whose extra fields change what an executor must do.
pub mod variant {
    pub const PLAIN: u8 = 0;
    pub const DPP16: u8 = 1;
    pub const DPP8: u8 = 2;
    /// GCN/CDNA DPP (the same controls as DPP16).
    pub const DPP: u8 = 3;
    pub const SDWA: u8 = 4;
    /// Packed math (VOP3P): OPSEL/OPSEL_HI/NEG/NEG_HI pick and negate halves.
    pub const VOP3P: u8 = 5;
}

/// One form's operand binding, generated per generation (`BINDINGS[form]`).
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// Operand index per [`role`], or [`NONE`].
    pub ops: [u8; role::COUNT],
    /// Operand size in bits per [`role`] (0 when absent).
    pub sizes: [u16; role::COUNT],
    /// Bit `r`: the role's operand is a lane mask (`FMT_NUM_M64`): in wave32 only its low 32
    /// bits are a register (VCC_LO, one SGPR).
    pub masks: u32,
    /// Bit `r`: the role's operand is an f64 (a 32-bit literal is its high dword).
    pub f64s: u32,
    /// Encoding field index per [`field`], or [`NONE`].
    pub fields: [u8; field::COUNT],
    /// One of [`variant`].
    pub variant: u8,
    /// Bit `r`: the role's operand is a 16-bit VGPR of a True16 encoding (RDNA3 and later
    /// VOP1/VOP2/VOPC), where register numbers from 128 name the high halves of v0..v127;
    /// those are not modelled.
    pub t16: u32,
    /// Non-empty: the form cannot be executed, and why.
    pub unsupported: &'static str,
}

impl Binding {
    /// The form's binding, or the reason it cannot run.
    #[inline]
    pub fn of(d: &Decoded, table: &'static [Binding]) -> Result<&'static Binding, ExecError> {
        let b = table
            .get(d.form as usize)
            .ok_or_else(|| ExecError::illegal("form", "no operand binding for this form"))?;
        if !b.unsupported.is_empty() {
            return Err(ExecError::unsupported(d.mnemonic(), b.unsupported));
        }
        if b.t16 != 0 {
            for r in 0..role::COUNT {
                if b.t16 >> r & 1 != 0 && matches!(b.op(d, r), Ok(Src::Vgpr(n)) if n >= 128) {
                    return Err(ExecError::unsupported(
                        d.mnemonic(),
                        "True16 high halves (v0.h..v127.h) are not modelled",
                    ));
                }
            }
        }
        Ok(b)
    }

    /// The operand bound to `role`.
    #[inline]
    pub fn op(&self, d: &Decoded, role: usize) -> Result<Src, ExecError> {
        let i = self.ops[role];
        if i == NONE {
            return Err(ExecError::illegal(
                role::NAMES[role],
                format!("{} has no operand for {}", d.mnemonic(), role::NAMES[role]),
            ));
        }
        d.src(i as usize)
    }

    /// Whether `role` is bound in this form.
    #[inline]
    pub fn has(&self, role: usize) -> bool {
        self.ops[role] != NONE
    }

    /// The raw value of a field by meaning, or 0 when the encoding has no such field.
    #[inline]
    pub fn field(&self, d: &Decoded, f: usize) -> u64 {
        let i = self.fields[f];
        if i == NONE {
            return 0;
        }
        d.encoding().fields[i as usize].extract(d.bits)
    }

    #[inline]
    pub fn has_field(&self, f: usize) -> bool {
        self.fields[f] != NONE
    }

    #[inline]
    pub fn is_f64(&self, role: usize) -> bool {
        self.f64s >> role & 1 != 0
    }

    /// Bits of `role`'s register that an executor writes back: its size, and for a lane
    /// mask in wave32, 32.
    #[inline]
    pub fn write_bits(&self, w: &Wave, role: usize) -> u32 {
        let size = self.sizes[role] as u32;
        if self.masks >> role & 1 != 0 && !w.wave64 {
            size.min(32)
        } else {
            size
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Operand values

fn inline_float_bits(f: crate::exec::wave::InlineFloat, bits: u32) -> u128 {
    match bits {
        0..=16 => f.bits16() as u128,
        17..=32 => f.bits32() as u128,
        _ => f.bits64() as u128,
    }
}

/// `bits` bits of a scalar operand: consecutive SGPRs (or TTMPs) from the operand's register,
/// a named register (VCC, EXEC, M0, ...), an inline constant (integers sign-extended, floats
/// as the float of that width) or a literal (a 32-bit literal of an f64 operand is its high
/// dword).
pub fn read_scalar(w: &Wave, s: Src, bits: u32, f64_operand: bool) -> Result<u128, ExecError> {
    let dwords = bits.div_ceil(32).max(1);
    let v = match s {
        Src::Sgpr(r) => {
            let mut v = 0u128;
            for k in 0..dwords.min(4) {
                v |= (w.read_sgpr(r as u32 + k)? as u128) << (32 * k);
            }
            v
        }
        Src::Ttmp(r) => {
            let mut v = 0u128;
            for k in 0..dwords.min(4) {
                v |= (w.read_scalar_b32(Src::Ttmp(r + k as u8))? as u128) << (32 * k);
            }
            v
        }
        Src::Special(sp) if dwords >= 2 => w.read_scalar_b64(Src::Special(sp), false)? as u128,
        Src::Special(sp) => w.read_scalar_b32(Src::Special(sp))? as u128,
        Src::Int(i) => i as i128 as u128,
        Src::Float(f) => inline_float_bits(f, bits),
        Src::Literal(l) => {
            if bits > 32 && f64_operand && l >> 32 == 0 {
                (l as u128) << 32
            } else {
                l as u128
            }
        }
        Src::Imm(v) => v as u128,
        Src::Vgpr(_) | Src::Agpr(_) => {
            return Err(ExecError::illegal(
                format!("{s:?}"),
                "a vector register where the instruction reads a scalar",
            ))
        }
        Src::Other(n) => return Err(ExecError::illegal(n, "not modelled by the emulator")),
    };
    Ok(mask_to(v, bits))
}

/// `bits` bits of an operand in one lane (a VGPR or AGPR run, or a scalar value).
pub fn read_lane(
    w: &Wave,
    s: Src,
    lane: usize,
    bits: u32,
    f64_operand: bool,
) -> Result<u128, ExecError> {
    match s {
        Src::Vgpr(r) => {
            let mut v = 0u128;
            for k in 0..bits.div_ceil(32).clamp(1, 4) {
                v |= (w.read_vgpr(r as u32 + k, lane)? as u128) << (32 * k);
            }
            Ok(mask_to(v, bits))
        }
        Src::Agpr(r) => {
            let mut v = 0u128;
            for k in 0..bits.div_ceil(32).clamp(1, 4) {
                v |= (w.agpr_lanes(r as u32 + k)?[lane & (w.lanes() - 1)] as u128) << (32 * k);
            }
            Ok(mask_to(v, bits))
        }
        other => read_scalar(w, other, bits, f64_operand),
    }
}

/// A 32-bit-or-narrower source in every lane (a VGPR's lanes, or a scalar repeated); inline
/// float constants read as f16 when `bits <= 16`.
#[inline]
pub fn lanes_b32(w: &Wave, s: Src, bits: u32) -> Result<[u32; MAX_LANES], ExecError> {
    let mut out = [0u32; MAX_LANES];
    match s {
        Src::Vgpr(_) | Src::Agpr(_) => w.load_src_b32(s, &mut out)?,
        other => out = [read_scalar(w, other, bits, false)? as u32; MAX_LANES],
    }
    Ok(out)
}

/// A 64-bit source in every lane.
pub fn lanes_b64(w: &Wave, s: Src, f64_operand: bool) -> Result<[u64; MAX_LANES], ExecError> {
    let mut out = [0u64; MAX_LANES];
    match s {
        Src::Vgpr(_) | Src::Agpr(_) => {
            for (lane, o) in out.iter_mut().enumerate().take(w.lanes()) {
                *o = read_lane(w, s, lane, 64, false)? as u64;
            }
        }
        other => out = [read_scalar(w, other, 64, f64_operand)? as u64; MAX_LANES],
    }
    Ok(out)
}

/// Writes `bits` bits of a scalar destination (consecutive SGPRs, a named pair, NULL).
pub fn write_scalar(w: &mut Wave, s: Src, bits: u32, v: u128) -> Result<(), ExecError> {
    let dwords = bits.div_ceil(32).max(1);
    match s {
        Src::Sgpr(r) => {
            for k in 0..dwords.min(4) {
                w.write_sgpr(r as u32 + k, (v >> (32 * k)) as u32)?;
            }
            Ok(())
        }
        Src::Ttmp(r) => {
            for k in 0..dwords.min(4) {
                w.write_scalar_b32(Src::Ttmp(r + k as u8), (v >> (32 * k)) as u32)?;
            }
            Ok(())
        }
        Src::Special(_) if dwords >= 2 => w.write_scalar_b64(s, v as u64),
        Src::Special(_) => w.write_scalar_b32(s, v as u32),
        other => Err(ExecError::illegal(
            format!("{other:?}"),
            "cannot be written",
        )),
    }
}

/// Up to 16 consecutive SGPRs of a scalar operand (`S_LOAD_B512`'s destination).
pub fn read_scalar_dwords(w: &Wave, s: Src, bits: u32) -> Result<[u32; 16], ExecError> {
    let mut out = [0u32; 16];
    let n = bits.div_ceil(32).min(16);
    for k in 0..n {
        out[k as usize] = match s {
            Src::Sgpr(r) => w.read_sgpr(r as u32 + k)?,
            Src::Ttmp(r) => w.read_scalar_b32(Src::Ttmp(r + k as u8))?,
            other if k == 0 => w.read_scalar_b32(other)?,
            other => {
                return Err(ExecError::illegal(
                    format!("{other:?}"),
                    "not a register run",
                ))
            }
        };
    }
    Ok(out)
}

/// Writes up to 16 consecutive SGPRs of a scalar destination.
pub fn write_scalar_dwords(
    w: &mut Wave,
    s: Src,
    bits: u32,
    v: &[u32; 16],
) -> Result<(), ExecError> {
    let n = bits.div_ceil(32).min(16);
    for k in 0..n {
        match s {
            Src::Sgpr(r) => w.write_sgpr(r as u32 + k, v[k as usize])?,
            Src::Ttmp(r) => w.write_scalar_b32(Src::Ttmp(r + k as u8), v[k as usize])?,
            Src::Special(crate::exec::Special::Null) => {}
            other => {
                return Err(ExecError::illegal(
                    format!("{other:?}"),
                    "cannot be written as a register run",
                ))
            }
        }
    }
    Ok(())
}

/// Writes dword `k` of a vector destination (VGPR or AGPR run) for the lanes in `mask`.
#[inline]
pub fn store_lanes(
    w: &mut Wave,
    s: Src,
    k: u32,
    values: &[u32; MAX_LANES],
    mask: u64,
) -> Result<(), ExecError> {
    match s {
        Src::Vgpr(r) => w.write_vgpr_masked(r as u32 + k, values, mask),
        Src::Agpr(r) => {
            let n = w.lanes();
            let dst = w.agpr_lanes_mut(r as u32 + k)?;
            for lane in LaneIter(mask & (u64::MAX >> (64 - n))) {
                dst[lane] = values[lane];
            }
            Ok(())
        }
        other => Err(ExecError::illegal(
            format!("{other:?}"),
            "is not a vector register",
        )),
    }
}

/// Writes `bits` bits of a vector destination in one lane.
pub fn write_lane(w: &mut Wave, s: Src, lane: usize, bits: u32, v: u128) -> Result<(), ExecError> {
    match s {
        Src::Vgpr(_) | Src::Agpr(_) => {
            let base = match s {
                Src::Vgpr(r) | Src::Agpr(r) => r,
                _ => unreachable!(),
            };
            for k in 0..bits.div_ceil(32).clamp(1, 4) {
                let dst = match s {
                    Src::Vgpr(_) => Src::Vgpr(base + k as u16),
                    _ => Src::Agpr(base + k as u16),
                };
                w.write_lane_b32(dst, lane, (v >> (32 * k)) as u32)?;
            }
            Ok(())
        }
        other => Err(ExecError::illegal(
            format!("{other:?}"),
            "is not a vector register",
        )),
    }
}

/// The register number of a register operand (`VGPR[lane][SRC0]` names the operand's VGPR).
pub fn reg_number(s: Src) -> Result<u32, ExecError> {
    match s {
        Src::Vgpr(r) | Src::Agpr(r) | Src::Sgpr(r) => Ok(r as u32),
        Src::Ttmp(r) => Ok(r as u32),
        other => Err(ExecError::illegal(
            format!("{other:?}"),
            "is not a register, but the pseudocode uses it as a register number",
        )),
    }
}

/// `VGPR[lane][reg]`: `bits` bits from VGPR `reg` up, in `lane`. Pseudocode written for 64
/// lanes also runs in wave32: lanes past the wave read as 0.
pub fn vgpr_read(w: &Wave, lane: u64, reg: u64, bits: u32) -> Result<u128, ExecError> {
    let (lane, reg) = lane_reg(lane, reg)?;
    if lane >= w.lanes() {
        return Ok(0);
    }
    read_lane(w, Src::Vgpr(reg), lane, bits, false)
}

/// Writes `VGPR[lane][reg]`; writes to lanes past the wave are dropped (see [`vgpr_read`]).
pub fn vgpr_write(w: &mut Wave, lane: u64, reg: u64, bits: u32, v: u128) -> Result<(), ExecError> {
    let (lane, reg) = lane_reg(lane, reg)?;
    if lane >= w.lanes() {
        return Ok(());
    }
    write_lane(w, Src::Vgpr(reg), lane, bits, v)
}

fn lane_reg(lane: u64, reg: u64) -> Result<(usize, u16), ExecError> {
    if lane >= 64 {
        return Err(ExecError::illegal(
            format!("lane {lane}"),
            "a wave has at most 64 lanes",
        ));
    }
    let reg = u16::try_from(reg)
        .map_err(|_| ExecError::illegal(format!("VGPR {reg}"), "register number out of range"))?;
    Ok((lane as usize, reg))
}

/// `SGPR[reg]`: `bits` bits from SGPR `reg` up.
pub fn sgpr_read(w: &Wave, reg: u64, bits: u32) -> Result<u128, ExecError> {
    let reg = u16::try_from(reg)
        .map_err(|_| ExecError::illegal(format!("SGPR {reg}"), "register number out of range"))?;
    read_scalar(w, Src::Sgpr(reg), bits, false)
}

pub fn sgpr_write(w: &mut Wave, reg: u64, bits: u32, v: u128) -> Result<(), ExecError> {
    let reg = u16::try_from(reg)
        .map_err(|_| ExecError::illegal(format!("SGPR {reg}"), "register number out of range"))?;
    write_scalar(w, Src::Sgpr(reg), bits, v)
}

/// `HW_REGISTERS[id]` for the ids the emulator models (MODE 1, STATUS 2, TRAPSTS 3); others
/// are unsupported.
pub fn hw_reg_read(w: &Wave, id: u64) -> Result<u32, ExecError> {
    match id {
        1 => Ok(w.mode.0),
        2 => Ok(w.status_value()),
        3 => Ok(w.trapsts),
        _ => Err(ExecError::unsupported(
            "HW_REGISTERS",
            format!("hardware register {id} is not modelled"),
        )),
    }
}

pub fn hw_reg_write(w: &mut Wave, id: u64, v: u32) -> Result<(), ExecError> {
    match id {
        1 => w.mode.0 = v,
        3 => w.trapsts = v,
        _ => {
            return Err(ExecError::unsupported(
                "HW_REGISTERS",
                format!("writing hardware register {id} is not modelled"),
            ))
        }
    }
    Ok(())
}

/// A field of MODE by the pseudocode's name (`WAVE_MODE.IEEE`).
pub fn mode_field(w: &Wave, name: &str) -> Result<u32, ExecError> {
    let (lo, width) = crate::exec::Mode::field(name)
        .ok_or_else(|| ExecError::unsupported("MODE", format!("field {name} is not modelled")))?;
    Ok((w.mode.0 >> lo) & ((1u64 << width) - 1) as u32)
}

pub fn set_mode_field(w: &mut Wave, name: &str, v: u32) -> Result<(), ExecError> {
    let (lo, width) = crate::exec::Mode::field(name)
        .ok_or_else(|| ExecError::unsupported("MODE", format!("field {name} is not modelled")))?;
    let m = (((1u64 << width) - 1) as u32) << lo;
    w.mode.0 = (w.mode.0 & !m) | ((v << lo) & m);
    Ok(())
}

/// A STATUS bit by the pseudocode's name (`WAVE_STATUS.PRIV`).
pub fn status_field(w: &Wave, name: &str) -> Result<u32, ExecError> {
    let bit = crate::exec::Status::field(name)
        .ok_or_else(|| ExecError::unsupported("STATUS", format!("field {name} is not modelled")))?;
    Ok((w.status_value() & bit != 0) as u32)
}

pub fn set_status_field(w: &mut Wave, name: &str, v: u32) -> Result<(), ExecError> {
    match name {
        "SCC" => w.scc = v & 1 != 0,
        _ => {
            let bit = crate::exec::Status::field(name).ok_or_else(|| {
                ExecError::unsupported("STATUS", format!("field {name} is not modelled"))
            })?;
            w.status.set(bit, v & 1 != 0);
        }
    }
    Ok(())
}

fn trapsts_bit(name: &str) -> Result<u32, ExecError> {
    use crate::exec::wave::trapsts::*;
    Ok(match name {
        "INVALID" => INVALID,
        "INPUT_DENORMAL" => INPUT_DENORMAL,
        "DIV_BY_ZERO" => DIV_BY_ZERO,
        "OVERFLOW" => OVERFLOW,
        "UNDERFLOW" => UNDERFLOW,
        "INEXACT" => INEXACT,
        "INT_DIV_BY_ZERO" => INT_DIV_BY_ZERO,
        _ => {
            return Err(ExecError::unsupported(
                "TRAPSTS",
                format!("field {name} is not modelled"),
            ))
        }
    })
}

/// A TRAPSTS exception bit by name (`TRAPSTS.INVALID`).
pub fn trapsts_field(w: &Wave, name: &str) -> Result<u32, ExecError> {
    Ok((w.trapsts & trapsts_bit(name)? != 0) as u32)
}

pub fn set_trapsts_field(w: &mut Wave, name: &str, v: u32) -> Result<(), ExecError> {
    let bit = trapsts_bit(name)?;
    if v & 1 != 0 {
        w.trapsts |= bit;
    } else {
        w.trapsts &= !bit;
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Bits

/// The low `bits` bits of `v`.
#[inline]
pub fn mask_to(v: u128, bits: u32) -> u128 {
    if bits >= 128 {
        v
    } else {
        v & ((1u128 << bits) - 1)
    }
}

/// `width` bits of `x` from bit `lo` (bits past 127 read as 0).
#[inline]
pub fn get_bits(x: u128, lo: u128, width: u32) -> u128 {
    if lo >= 128 {
        return 0;
    }
    mask_to(x >> lo, width)
}

/// `x` with `width` bits from `lo` replaced by `v`'s low bits (bits past 127 are dropped).
#[inline]
pub fn set_bits(x: u128, lo: u128, width: u32, v: u128) -> u128 {
    if lo >= 128 {
        return x;
    }
    let m = mask_to(u128::MAX, width) << lo;
    (x & !m) | ((v << lo) & m)
}

/// The low `width` bits of `x` in reverse order (`x[0 : 31]`).
#[inline]
pub fn rev_bits(x: u128, width: u32) -> u128 {
    if width == 0 {
        return 0;
    }
    mask_to(x, width).reverse_bits() >> (128 - width.min(128))
}

/// `x` sign-extended from bit `width - 1`.
#[inline]
pub fn sext(x: i128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return x;
    }
    let s = 128 - width;
    (x << s) >> s
}

/// `x << n` in `width` bits (0 when `n >= width`).
#[inline]
pub fn shl(x: u128, n: u128, width: u32) -> u128 {
    if n >= width as u128 {
        0
    } else {
        mask_to(x << n, width)
    }
}

/// Logical `x >> n` (0 when `n >= width`).
#[inline]
pub fn shr(x: u128, n: u128, width: u32) -> u128 {
    if n >= width as u128 || n >= 128 {
        0
    } else {
        x >> n
    }
}

/// Arithmetic `x >> n` of a sign-extended value (the sign when `n >= width`).
#[inline]
pub fn sar(x: i128, n: u128) -> i128 {
    x >> n.min(127)
}

/// A shift amount or index as a number: negative values become huge (out of range).
#[inline]
pub fn amount_i(n: i128) -> u128 {
    if n < 0 {
        u128::MAX
    } else {
        n as u128
    }
}

/// An array index, checked against the length.
#[inline]
pub fn index(i: i128, len: usize) -> Result<usize, ExecError> {
    if i >= 0 && (i as u128) < len as u128 {
        Ok(i as usize)
    } else {
        Err(ExecError::illegal(
            format!("index {i}"),
            format!("outside the pseudocode's array of {len} elements"),
        ))
    }
}

/// Integer division of the pseudocode: division by zero is an error (the pseudocode never
/// divides by a value that can be zero on purpose).
#[inline]
pub fn div_u(a: u128, b: u128) -> Result<u128, ExecError> {
    a.checked_div(b).ok_or_else(div_zero)
}
#[inline]
pub fn rem_u(a: u128, b: u128) -> Result<u128, ExecError> {
    a.checked_rem(b).ok_or_else(div_zero)
}
#[inline]
pub fn div_i(a: i128, b: i128) -> Result<i128, ExecError> {
    if b == 0 {
        return Err(div_zero());
    }
    Ok(a.wrapping_div(b))
}
#[inline]
pub fn rem_i(a: i128, b: i128) -> Result<i128, ExecError> {
    if b == 0 {
        return Err(div_zero());
    }
    Ok(a.wrapping_rem(b))
}
fn div_zero() -> ExecError {
    ExecError::illegal("divisor", "integer division by zero in the pseudocode")
}

/// `base ** exp` on integers (wrapping).
#[inline]
pub fn pow_u(base: u128, exp: u128) -> u128 {
    base.wrapping_pow(exp.min(u32::MAX as u128) as u32)
}

/// Bounds a `while` loop: the pseudocode's loops end, but a bad input must not hang.
#[inline]
pub fn loop_guard(count: &mut u32) -> Result<(), ExecError> {
    *count += 1;
    if *count > 1 << 20 {
        return Err(ExecError::unsupported(
            "pseudocode loop",
            "ran more than 2^20 iterations",
        ));
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Value coercion (helper arguments and results)

/// The conversion generated code uses to pass a value to a helper whose parameter type is
/// concrete, and to take its result: integers are cast (`as`), `bool` is 0/1, floats pass
/// unchanged.
pub trait Co<T> {
    fn co(self) -> T;
}

macro_rules! co_ints {
    ($($t:ty),*) => {
        co_ints!(@each [$($t),*] [$($t),*]);
    };
    (@each [$($a:ty),*] $bs:tt) => {$(co_ints!(@one $a $bs);)*};
    (@one $a:ty [$($b:ty),*]) => {$(
        impl Co<$b> for $a { #[inline] fn co(self) -> $b { self as $b } }
    )*};
}
co_ints!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);

macro_rules! co_bool {
    ($($t:ty),*) => {$(
        impl Co<$t> for bool { #[inline] fn co(self) -> $t { self as $t } }
        impl Co<bool> for $t { #[inline] fn co(self) -> bool { self != 0 } }
    )*};
}
co_bool!(u8, u16, u32, u64, u128, i8, i16, i32, i64, i128);
impl Co<bool> for bool {
    #[inline]
    fn co(self) -> bool {
        self
    }
}
macro_rules! co_same {
    ($($t:ty),*) => {$(impl Co<$t> for $t { #[inline] fn co(self) -> $t { self } })*};
}
co_same!(F16, F32, F64, crate::exec::float::BF16);

/// `x` as `T` (see [`Co`]).
#[inline]
pub fn co<T, A: Co<T>>(x: A) -> T {
    x.co()
}

/// A float constant of a format (rounded to nearest even).
#[inline]
pub fn fconst<T: SoftFloat>(v: f64) -> T {
    fl::constant(v)
}

/// A numeric conversion of a float to an integer of `width` bits (`32'I(x)`): toward zero,
/// saturating, NaN → 0.
#[inline]
pub fn f_to_i<T: SoftFloat>(w: &Wave, x: T, width: u32, signed: bool) -> i128 {
    let env = w.mode.env::<T>();
    if signed {
        fl::to_int(env, x, width.min(64), fl::RoundingMode::TowardZero) as i128
    } else {
        fl::to_uint(env, x, width.min(64), fl::RoundingMode::TowardZero) as i128
    }
}

/// The pseudocode's named float constants (`PI`, `INF`, `NAN`, ...).
pub fn float_const<T: SoftFloat>(name: &str) -> Result<T, ExecError> {
    let fmt = T::FORMAT;
    let bits = match name {
        "PI" => return Ok(fl::constant(std::f64::consts::PI)),
        "INF" | "overflow" => fmt.infinity().unwrap_or(fmt.max_finite()),
        "NAN" | "NaN" => fmt.default_nan().unwrap_or(0),
        "sNaN" => fmt.exp_all_ones() << fmt.man_bits | 1,
        "DENORM" => 1,
        "underflow" => 0,
        _ => {
            return Err(ExecError::unsupported(
                name,
                "named constant not modelled by the emulator",
            ))
        }
    };
    Ok(T::from_bits(bits))
}

// ---------------------------------------------------------------------------------------------
// Modifiers

/// The VOP3/VOP3P/SDWA input and output modifiers of one instruction.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mods {
    pub abs: u8,
    pub neg: u8,
    pub clamp: bool,
    pub omod: u8,
}

impl Mods {
    /// Reads the modifier fields. DPP lane movement is applied by the caller with
    /// [`dpp_src0`] when `dpp_applied`; otherwise a DPP form that moves lanes is unsupported,
    /// as are SDWA selects other than the whole dword and VOP3P half selects other than the
    /// default.
    pub fn read(d: &Decoded, b: &Binding) -> Result<Mods, ExecError> {
        Mods::read_with(d, b, false)
    }

    pub fn read_with(d: &Decoded, b: &Binding, dpp_applied: bool) -> Result<Mods, ExecError> {
        let f = |k| b.field(d, k);
        let mut m = Mods {
            abs: f(field::ABS) as u8,
            neg: f(field::NEG) as u8,
            clamp: f(field::CLAMP) != 0,
            omod: f(field::OMOD) as u8,
        };
        let refuse = |what: &str| Err(ExecError::unsupported(d.mnemonic(), what.to_string()));
        match b.variant {
            variant::DPP16 | variant::DPP | variant::DPP8 if dpp_applied => {
                m.abs |= f(field::SRC0_ABS) as u8 | (f(field::SRC1_ABS) as u8) << 1;
                m.neg |= f(field::SRC0_NEG) as u8 | (f(field::SRC1_NEG) as u8) << 1;
            }
            variant::DPP16 | variant::DPP => {
                // quad_perm [0,1,2,3] with all rows and banks enabled moves nothing.
                let ctrl = f(field::DPP_CTRL);
                let rows = if b.has_field(field::ROW_MASK) {
                    f(field::ROW_MASK)
                } else {
                    0xf
                };
                let banks = if b.has_field(field::BANK_MASK) {
                    f(field::BANK_MASK)
                } else {
                    0xf
                };
                if ctrl != 0xe4 || rows != 0xf || banks != 0xf {
                    return refuse("DPP lane movement other than the identity is not modelled");
                }
                m.abs |= f(field::SRC0_ABS) as u8 | (f(field::SRC1_ABS) as u8) << 1;
                m.neg |= f(field::SRC0_NEG) as u8 | (f(field::SRC1_NEG) as u8) << 1;
            }
            variant::DPP8 => {
                if (0..8).any(|k| f(field::LANE_SEL_0 + k) != k as u64) {
                    return refuse("DPP8 lane selects other than the identity are not modelled");
                }
            }
            variant::SDWA => {
                // SEL 6 = DWORD; DST_UNUSED is irrelevant when the whole dword is written.
                for k in [field::SRC0_SEL, field::SRC1_SEL, field::DST_SEL] {
                    if b.has_field(k) && f(k) != 6 {
                        return refuse("SDWA byte/word selects are not modelled");
                    }
                }
                if f(field::SRC0_SEXT) != 0 || f(field::SRC1_SEXT) != 0 {
                    return refuse("SDWA sign extension is not modelled");
                }
                m.abs |= f(field::SRC0_ABS) as u8 | (f(field::SRC1_ABS) as u8) << 1;
                m.neg |= f(field::SRC0_NEG) as u8 | (f(field::SRC1_NEG) as u8) << 1;
            }
            variant::VOP3P if dpp_applied => {
                // The halves are picked by `vop3p_src` (or by the pseudocode itself).
                m.neg = 0;
                m.abs = 0;
            }
            variant::VOP3P => {
                if f(field::OPSEL) != 0
                    || (b.has_field(field::OPSEL_HI) && opsel_hi(d, b) & 3 != 3)
                    || f(field::NEG) != 0
                    || f(field::NEG_HI) != 0
                {
                    return refuse("VOP3P half selects and negations are not modelled");
                }
                m.neg = 0;
            }
            _ => {
                if f(field::OPSEL) != 0 {
                    return refuse("VOP3 op_sel (16-bit halves) is not modelled");
                }
            }
        }
        Ok(m)
    }

    /// A float source `k` with its abs and neg modifiers applied.
    #[inline]
    pub fn src<T: SoftFloat>(&self, k: usize, x: T) -> T {
        let x = if self.abs >> k & 1 != 0 {
            fl::abs(x)
        } else {
            x
        };
        if self.neg >> k & 1 != 0 {
            fl::neg(x)
        } else {
            x
        }
    }

    /// A float result with the output modifier (×2, ×4, ×0.5) and clamp applied.
    #[inline]
    pub fn out<T: SoftFloat>(&self, w: &Wave, x: T) -> T {
        if self.omod == 0 && !self.clamp {
            return x;
        }
        let env = w.mode.env::<T>();
        let x = match self.omod {
            1 => fl::mul(env, x, fl::constant::<T>(2.0)),
            2 => fl::mul(env, x, fl::constant::<T>(4.0)),
            3 => fl::mul(env, x, fl::constant::<T>(0.5)),
            _ => x,
        };
        if self.clamp {
            fl::clamp01(x, w.mode.dx10_clamp())
        } else {
            x
        }
    }

    /// Integer results: the clamp bit asks for saturation, which the pseudocode does not
    /// describe; refuse rather than ignore it.
    #[inline]
    pub fn int_out(&self, d: &Decoded) -> Result<(), ExecError> {
        if self.clamp || self.omod != 0 {
            return Err(ExecError::unsupported(
                d.mnemonic(),
                "clamp/omod on an integer result is not modelled",
            ));
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------------------------
// Memory

/// Where a memory access goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Space {
    /// The device's global address space.
    Global,
    /// The workgroup's LDS.
    Lds,
    /// A flat address: global, LDS or scratch by aperture.
    Flat,
    /// The lane's private memory (the address is an offset into it).
    Scratch,
}

fn lane_err(e: MemError, lane: Option<usize>) -> ExecError {
    match lane {
        Some(l) => ExecError::lane_fault(e, l),
        None => ExecError::from(e),
    }
}

/// Reads `bytes` bytes (1..=16) at `addr` of `space`, little-endian.
pub fn mem_read(
    w: &Wave,
    mem: &dyn Memory,
    lds: &Lds,
    space: Space,
    addr: u64,
    bytes: u32,
    lane: Option<usize>,
) -> Result<u128, ExecError> {
    let mut buf = [0u8; 16];
    let n = bytes.clamp(1, 16) as usize;
    match resolve(w, space, addr, bytes, lane, false)? {
        (Space::Lds, a) => lds.read(a, &mut buf[..n]),
        (_, a) => mem.read(a, &mut buf[..n]),
    }
    .map_err(|e| lane_err(e, lane))?;
    Ok(u128::from_le_bytes(buf))
}

/// Writes the low `bytes` bytes (1..=16) of `v` at `addr` of `space`.
#[allow(clippy::too_many_arguments)]
pub fn mem_write(
    w: &Wave,
    mem: &mut dyn Memory,
    lds: &mut Lds,
    space: Space,
    addr: u64,
    bytes: u32,
    v: u128,
    lane: Option<usize>,
) -> Result<(), ExecError> {
    let buf = v.to_le_bytes();
    let n = bytes.clamp(1, 16) as usize;
    match resolve(w, space, addr, bytes, lane, true)? {
        (Space::Lds, a) => lds.write(a, &buf[..n]),
        (_, a) => mem.write(a, &buf[..n]),
    }
    .map_err(|e| lane_err(e, lane))
}

/// The memory and address an access of `space` reaches (flat apertures and scratch offsets
/// translated).
fn resolve(
    w: &Wave,
    space: Space,
    addr: u64,
    bytes: u32,
    lane: Option<usize>,
    write: bool,
) -> Result<(Space, u64), ExecError> {
    use crate::exec::wave::FlatTarget;
    match space {
        Space::Global => Ok((Space::Global, addr)),
        Space::Lds => Ok((Space::Lds, addr & 0xffff_ffff)),
        Space::Scratch => {
            let lane = lane.unwrap_or(0);
            Ok((
                Space::Global,
                w.scratch_address(lane, addr, bytes as u64, write)?,
            ))
        }
        Space::Flat => match w.flat_target(addr) {
            FlatTarget::Global(a) => Ok((Space::Global, a)),
            FlatTarget::Lds(a) => Ok((Space::Lds, a)),
            FlatTarget::Scratch(a) => {
                let lane = lane.unwrap_or(0);
                Ok((
                    Space::Global,
                    w.scratch_address(lane, a, bytes as u64, write)?,
                ))
            }
        },
    }
}

/// A field value sign-extended from the field's width (signed instruction offsets).
pub fn signed_field(d: &Decoded, b: &Binding, f: usize) -> i64 {
    let i = b.fields[f];
    if i == NONE {
        return 0;
    }
    let fi = &d.encoding().fields[i as usize];
    let width = fi.width();
    let v = fi.extract(d.bits);
    if width == 0 || width >= 64 {
        return v as i64;
    }
    ((v << (64 - width)) as i64) >> (64 - width)
}

/// Whether SADDR is "off" (NULL, or the encoding's 0x7f "no SGPR" value that decodes as a
/// value the emulator does not model).
fn saddr_off(s: Src) -> bool {
    matches!(s, Src::Special(Special::Null) | Src::Other(_) | Src::Imm(_))
}

/// The address of a global (or flat-global) access of `lane`: SADDR (a 64-bit SGPR base) plus
/// the lane's 32-bit offset in ADDR, or with SADDR off the lane's 64-bit ADDR; plus the
/// signed instruction offset.
pub fn global_addr(w: &Wave, d: &Decoded, b: &Binding, lane: usize) -> Result<u64, ExecError> {
    let offset = signed_field(d, b, field::OFFSET) as u64;
    let addr = b.op(d, role::ADDR)?;
    let saddr = if b.has(role::SADDR) {
        Some(b.op(d, role::SADDR)?)
    } else {
        None
    };
    Ok(match saddr {
        Some(s) if !saddr_off(s) => (read_scalar(w, s, 64, false)? as u64)
            .wrapping_add(read_lane(w, addr, lane, 32, false)? as u64)
            .wrapping_add(offset),
        _ => (read_lane(w, addr, lane, 64, false)? as u64).wrapping_add(offset),
    })
}

/// A flat address: the lane's 64-bit ADDR plus the signed offset.
pub fn flat_addr(w: &Wave, d: &Decoded, b: &Binding, lane: usize) -> Result<u64, ExecError> {
    let offset = signed_field(d, b, field::OFFSET) as u64;
    let addr = b.op(d, role::ADDR)?;
    Ok((read_lane(w, addr, lane, 64, false)? as u64).wrapping_add(offset))
}

/// A scratch offset of `lane`: the lane's 32-bit ADDR (when the form has one and it is a
/// VGPR), plus SADDR (when present and not off), plus the signed offset.
pub fn scratch_addr(w: &Wave, d: &Decoded, b: &Binding, lane: usize) -> Result<u64, ExecError> {
    let offset = signed_field(d, b, field::OFFSET);
    let v = match b.has(role::ADDR).then(|| b.op(d, role::ADDR)).transpose()? {
        Some(s @ (Src::Vgpr(_) | Src::Agpr(_))) => read_lane(w, s, lane, 32, false)? as u32,
        _ => 0,
    };
    let s = match b
        .has(role::SADDR)
        .then(|| b.op(d, role::SADDR))
        .transpose()?
    {
        Some(s) if !saddr_off(s) => read_scalar(w, s, 32, false)? as u32,
        _ => 0,
    };
    Ok((v as u64)
        .wrapping_add(s as u64)
        .wrapping_add(offset as u64)
        & 0xffff_ffff)
}

/// A scalar memory address: SBASE (64-bit, aligned down to 4) plus SOFFSET (an SGPR, unless
/// it is NULL or CDNA's SOFFSET_EN is 0) plus the offset field (signed where the field is;
/// CDNA's IMM = 0 makes OFFSET an SGPR number).
pub fn smem_addr(w: &Wave, d: &Decoded, b: &Binding) -> Result<u64, ExecError> {
    let base = read_scalar(w, b.op(d, role::SBASE)?, 64, false)? as u64 & !3;
    // `S_BUFFER_*`: SBASE is a buffer resource, whose base is its low 48 bits (the stride
    // and swizzle bits above it are not part of the address).
    let base = if b.sizes[role::SBASE] == 128 {
        base & 0xffff_ffff_ffff
    } else {
        base
    };
    let soffset = if b.has(role::SOFFSET)
        && (!b.has_field(field::SOFFSET_EN) || b.field(d, field::SOFFSET_EN) != 0)
    {
        match b.op(d, role::SOFFSET)? {
            Src::Special(Special::Null) => 0,
            s @ (Src::Sgpr(_) | Src::Special(_) | Src::Ttmp(_)) => {
                read_scalar(w, s, 32, false)? as u64
            }
            _ => 0,
        }
    } else {
        0
    };
    let offset = if b.has_field(field::IMM) && b.field(d, field::IMM) == 0 {
        w.read_sgpr(b.field(d, field::OFFSET) as u32)? as u64
    } else {
        signed_field(d, b, field::OFFSET) as u64
    };
    Ok(base.wrapping_add(soffset).wrapping_add(offset))
}

/// A scalar scratch access (`S_SCRATCH_*`, GFX9 line): the byte offset SBASE + SOFFSET +
/// OFFSET (as [`smem_addr`] forms it, low 32 bits) into the wave's private memory, taken as
/// one unswizzled region (the model's scratch is linear: lane `l` owns bytes
/// `l * per_lane ..`); the device address of the access, or a scratch fault when its
/// SDATA-sized access leaves the wave's region.
pub fn smem_scratch_addr(w: &Wave, d: &Decoded, b: &Binding) -> Result<u64, ExecError> {
    let offset = smem_addr(w, d, b)? & 0xffff_ffff;
    let size = (b.sizes[role::SDATA] as u64 / 8).max(4);
    let region = w.scratch.per_lane * w.lanes() as u64;
    if offset + size > region {
        return Err(ExecError::from(MemError {
            segment: crate::exec::Segment::Scratch,
            addr: offset,
            size,
            write: false,
            kind: crate::exec::MemErrorKind::OutOfBounds {
                base: 0,
                size: region,
            },
        }));
    }
    Ok(w.scratch.base + offset)
}

/// Whether a flat/global/scratch/buffer atomic returns the value it replaced (its form has a
/// destination either way): GLC, or SC0, or TH bit 0 set; forms with none of these fields
/// always return.
pub fn atomic_returns(d: &Decoded, b: &Binding) -> bool {
    if b.has_field(field::GLC) {
        b.field(d, field::GLC) != 0
    } else if b.has_field(field::SC0) {
        b.field(d, field::SC0) != 0
    } else if b.has_field(field::TH) {
        b.field(d, field::TH) & 1 != 0
    } else {
        true
    }
}

/// How a vector memory instruction forms its addresses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddrKind {
    Global,
    Flat,
    Scratch,
    Buffer,
}

/// The addresses of every lane of a vector memory instruction, computed once per
/// instruction (the operands are read once, not per lane), and for buffer instructions the
/// range the resource allows.
pub struct LaneAddrs {
    addrs: [u64; MAX_LANES],
    range: BufferRange,
}

impl LaneAddrs {
    /// Computes the active lanes' addresses (see [`global_addr`], [`flat_addr`],
    /// [`scratch_addr`], [`buffer::buffer_lanes`]).
    pub fn new(w: &Wave, d: &Decoded, b: &Binding, kind: AddrKind) -> Result<LaneAddrs, ExecError> {
        let mut a = [0u64; MAX_LANES];
        let mut range = BufferRange::ALL;
        let exec = w.exec_mask();
        match kind {
            AddrKind::Global => {
                let offset = signed_field(d, b, field::OFFSET) as u64;
                let addr = b.op(d, role::ADDR)?;
                let saddr = match b
                    .has(role::SADDR)
                    .then(|| b.op(d, role::SADDR))
                    .transpose()?
                {
                    Some(s) if !saddr_off(s) => Some(read_scalar(w, s, 64, false)? as u64),
                    _ => None,
                };
                match saddr {
                    Some(base) => {
                        let v = lanes_b32(w, addr, 32)?;
                        for lane in LaneIter(exec) {
                            a[lane] = base.wrapping_add(v[lane] as u64).wrapping_add(offset);
                        }
                    }
                    None => {
                        let v = lanes_b64(w, addr, false)?;
                        for lane in LaneIter(exec) {
                            a[lane] = v[lane].wrapping_add(offset);
                        }
                    }
                }
            }
            AddrKind::Flat => {
                for lane in LaneIter(exec) {
                    a[lane] = flat_addr(w, d, b, lane)?;
                }
            }
            AddrKind::Scratch => {
                for lane in LaneIter(exec) {
                    a[lane] = scratch_addr(w, d, b, lane)?;
                }
            }
            AddrKind::Buffer => range = buffer::buffer_lanes(w, d, b, &mut a)?,
        }
        Ok(LaneAddrs { addrs: a, range })
    }

    #[inline]
    pub fn at(&self, lane: usize) -> u64 {
        self.addrs[lane & (MAX_LANES - 1)]
    }

    /// Whether `lane` may access `addr` (always, except where a buffer's range check says
    /// otherwise).
    #[inline]
    pub fn in_range(&self, lane: usize, addr: u64) -> bool {
        self.range.contains(lane, addr)
    }
}

/// VOP3P's OPSEL_HI bits, with CDNA's third bit (`OPSEL_HI2`, bit 14) when it is separate.
fn opsel_hi(d: &Decoded, b: &Binding) -> u64 {
    let hi = b.field(d, field::OPSEL_HI);
    if b.has_field(field::OPSEL_HI2) {
        hi | b.field(d, field::OPSEL_HI2) << 2
    } else {
        hi
    }
}

/// Packed math (VOP3P): source `k` as the pseudocode sees it: its low half taken from the
/// register's high half when OPSEL bit `k` is set, its high half from the low half when
/// OPSEL_HI bit `k` is clear, and NEG/NEG_HI flipping the sign bit of each half. `values`
/// holds every lane's 32-bit source. Forms of other encodings are unchanged.
pub fn vop3p_src(d: &Decoded, b: &Binding, k: usize, values: &mut [u32; MAX_LANES]) {
    if b.variant != variant::VOP3P {
        return;
    }
    let bit = |f: u64| (f >> k) & 1 != 0;
    let sel_lo = bit(b.field(d, field::OPSEL));
    let sel_hi = !b.has_field(field::OPSEL_HI) || bit(opsel_hi(d, b));
    let neg_lo = (bit(b.field(d, field::NEG)) as u32) << 15;
    let neg_hi = (bit(b.field(d, field::NEG_HI)) as u32) << 15;
    if !sel_lo && sel_hi && neg_lo == 0 && neg_hi == 0 {
        return;
    }
    for v in values.iter_mut() {
        let (l, h) = (*v & 0xffff, *v >> 16);
        let lo = if sel_lo { h } else { l } ^ neg_lo;
        let hi = if sel_hi { h } else { l } ^ neg_hi;
        *v = lo | hi << 16;
    }
}

/// Packed math on 64-bit sources (`V_PK_FMA_F32`): only the default selects are modelled.
pub fn vop3p_src64(d: &Decoded, b: &Binding, k: usize) -> Result<(), ExecError> {
    if b.variant != variant::VOP3P {
        return Ok(());
    }
    let bit = |f: u64| (f >> k) & 1 != 0;
    let default = !bit(b.field(d, field::OPSEL))
        && (!b.has_field(field::OPSEL_HI) || bit(opsel_hi(d, b)))
        && !bit(b.field(d, field::NEG))
        && !bit(b.field(d, field::NEG_HI));
    if default {
        Ok(())
    } else {
        Err(ExecError::unsupported(
            d.mnemonic(),
            "VOP3P half selects of 64-bit sources are not modelled",
        ))
    }
}

/// The lane a DPP16 (RDNA) or DPP (GCN/CDNA) control reads for `lane`, or None when the
/// source lane is outside the row or the wave.
fn dpp_source(ctrl: u32, lane: usize, lanes: usize, gcn: bool) -> Result<Option<usize>, String> {
    let row = lane & !15;
    let i = lane & 15;
    let n = (ctrl & 15) as usize;
    Ok(match ctrl {
        0x000..=0x0ff => Some((lane & !3) | ((ctrl as usize >> (2 * (lane & 3))) & 3)),
        0x101..=0x10f => (i + n < 16).then_some(lane + n),
        0x111..=0x11f => (i >= n).then(|| lane - n),
        0x121..=0x12f => Some(row | ((i + 16 - n) & 15)),
        0x130 if gcn => (lane + 1 < lanes).then_some(lane + 1),
        0x134 if gcn => Some((lane + 1) % lanes),
        0x138 if gcn => lane.checked_sub(1),
        0x13c if gcn => Some((lane + lanes - 1) % lanes),
        0x140 => Some(row | (15 - i)),
        0x141 => Some((lane & !7) | (7 - (lane & 7))),
        0x142 if gcn => (lane >= 16).then(|| row - 1),
        0x143 if gcn => (lane >= 32).then_some(31),
        0x150..=0x15f if !gcn => Some(row | n),
        0x160..=0x16f if !gcn => Some(row | (i ^ n)),
        _ => {
            return Err(format!(
                "DPP control {ctrl:#x} is not a lane movement of this generation"
            ))
        }
    })
}

/// Applies a DPP form's lane movement to source 0 (`values` holds every lane's value, in
/// each width the body reads it at) and returns the lanes that must not be written: lanes
/// of disabled rows or banks, and lanes whose source is out of range or inactive unless
/// BOUND_CTRL makes them read 0. Forms without DPP return 0 and change nothing.
pub fn dpp_src0(
    w: &Wave,
    d: &Decoded,
    b: &Binding,
    values: &mut [&mut [u32; MAX_LANES]],
) -> Result<u64, ExecError> {
    let n = w.lanes();
    let exec = w.exec_mask();
    let f = |k| b.field(d, k);
    let fi = f(field::FI) != 0;
    let mut src_of = [None; MAX_LANES];
    let mut skip = 0u64;
    match b.variant {
        variant::DPP8 => {
            for (lane, s) in src_of.iter_mut().enumerate().take(n) {
                *s = Some((lane & !7) | f(field::LANE_SEL_0 + (lane & 7)) as usize);
            }
        }
        variant::DPP16 | variant::DPP => {
            let gcn = b.variant == variant::DPP;
            let ctrl = f(field::DPP_CTRL) as u32;
            let rows = if b.has_field(field::ROW_MASK) {
                f(field::ROW_MASK)
            } else {
                0xf
            };
            let banks = if b.has_field(field::BANK_MASK) {
                f(field::BANK_MASK)
            } else {
                0xf
            };
            for (lane, s) in src_of.iter_mut().enumerate().take(n) {
                if rows >> (lane / 16) & 1 == 0 || banks >> ((lane / 4) & 3) & 1 == 0 {
                    skip |= 1 << lane;
                    continue;
                }
                *s = dpp_source(ctrl, lane, n, gcn)
                    .map_err(|why| ExecError::unsupported(d.mnemonic(), why))?;
            }
        }
        _ => return Ok(0),
    }
    let bound_zero = f(field::BOUND_CTRL) != 0 || b.variant == variant::DPP8;
    for v in values.iter_mut() {
        let src = **v;
        for lane in 0..n {
            if skip >> lane & 1 != 0 {
                continue;
            }
            match src_of[lane].filter(|&s| s < n && (fi || exec >> s & 1 != 0)) {
                Some(s) => v[lane] = src[s],
                None if bound_zero => v[lane] = 0,
                None => skip |= 1 << lane,
            }
        }
    }
    // With no source read (`values` empty) only the row and bank masks matter.
    Ok(skip)
}

/// The 16-bit DS offset: the OFFSET field, or OFFSET1:OFFSET0.
pub fn ds_offset(d: &Decoded, b: &Binding) -> u64 {
    if b.has_field(field::OFFSET) {
        b.field(d, field::OFFSET)
    } else {
        b.field(d, field::OFFSET0) | b.field(d, field::OFFSET1) << 8
    }
}
