//! Running a kernel: a decoded code object ([`Program`]), the executors that implement its
//! instructions ([`ExecutorTable`]), and a driver that runs a grid of workgroups ([`dispatch`]).
//!
//! # The subset of the HSA kernel ABI that is modelled
//!
//! - **SGPRs** at wave start (unless [`DispatchConfig::hsa_sgprs`] gives a kernel
//!   descriptor's layout): `s[0:1]` = the kernel-argument segment address
//!   ([`DispatchConfig::kernarg_address`]; another pair with [`DispatchConfig::kernarg_sgpr`]);
//!   then the workgroup ids, one SGPR each for the dimensions enabled by
//!   [`DispatchConfig::workgroup_id_sgprs`] (x, then y, then z), starting at `s2` (or
//!   [`DispatchConfig::workgroup_id_sgpr`]). No dispatch pointer, queue pointer, dispatch id or private-segment
//!   SGPRs. Every other SGPR is zero.
//! - **VGPRs**: work-item ids, either packed in `v0` (`x | y << 10 | z << 20`, RDNA3 and later,
//!   CDNA2 and later) or separate in `v0`, `v1`, `v2` (RDNA1/2, CDNA1) — see
//!   [`WorkitemIds`]; every other VGPR is zero.
//! - **EXEC**: the lanes that hold a work-item (a workgroup whose size is not a multiple of
//!   the wave size has a partial last wave). VCC, SCC, M0 are zero; MODE is
//!   [`DispatchConfig::mode`].
//! - **Workgroups** run one after another ([`crate::exec::parallel::dispatch_parallel`] runs
//!   them on several threads); the waves of a workgroup run in turn, each until it
//!   ends or reaches a barrier; a barrier releases when every wave that has not ended has
//!   reached it. LDS is fresh (zeroed) for each workgroup.
//! - **Scratch**: when [`DispatchConfig::scratch`] is set, wave `w` of the running workgroup
//!   owns `per_lane × lanes` bytes at `base + w × per_lane × lanes` (the host allocates
//!   [`DispatchConfig::scratch_bytes`] there); `FLAT_SCRATCH` holds the wave's base.

use super::memory::{Lds, Memory};
use super::wave::{Decoded, Mode, ScratchInfo, Wave};
use super::{ExecError, ExecFn, Flow};
use crate::decode::{decode_stream, Instruction};
use crate::tables::IsaSpec;
use std::fmt;

/// The executors of one generation, indexed by instruction (`spec.instructions`).
#[derive(Clone)]
pub struct ExecutorTable {
    pub spec: &'static IsaSpec,
    by_instruction: Vec<Option<ExecFn>>,
}

impl ExecutorTable {
    /// A table with no executors.
    pub fn new(spec: &'static IsaSpec) -> ExecutorTable {
        ExecutorTable {
            spec,
            by_instruction: vec![None; spec.instructions.len()],
        }
    }

    /// A table filled by `f`, asked once per instruction of the spec (generated code passes a
    /// `match` on the instruction's name).
    pub fn from_fn(
        spec: &'static IsaSpec,
        f: impl Fn(&'static crate::tables::InstructionInfo) -> Option<ExecFn>,
    ) -> ExecutorTable {
        ExecutorTable {
            spec,
            by_instruction: spec.instructions.iter().map(f).collect(),
        }
    }

    /// Registers an executor by mnemonic or AMD name; an error names an unknown instruction.
    pub fn set(&mut self, name: &str, f: ExecFn) -> Result<(), String> {
        let i = self
            .spec
            .instruction_by_name(name)
            .ok_or_else(|| format!("{} has no instruction {name}", self.spec.generation))?;
        self.by_instruction[i] = Some(f);
        Ok(())
    }

    pub fn get(&self, ins: &Instruction) -> Option<ExecFn> {
        self.by_instruction
            .get(ins.form_info().instruction as usize)
            .copied()
            .flatten()
    }

    /// How many instructions have an executor.
    pub fn len(&self) -> usize {
        self.by_instruction.iter().filter(|e| e.is_some()).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// One dword slot of the code object.
#[derive(Clone, Debug)]
enum Slot {
    /// An instruction starts here.
    Start {
        decoded: Decoded,
        len: u8,
        exec: Option<ExecFn>,
        /// Reads, modifies and writes device memory (see [`Memory::begin_atomic`]).
        atomic: bool,
    },
    /// A dual-issue word (VOPD), its halves bound to their executors.
    Dual {
        halves: Box<[super::dual::BoundHalf; 2]>,
        len: u8,
    },
    /// Inside a longer instruction (a jump here is an error).
    Inside,
    /// Not an instruction (data, or an encoding the decoder rejects), or one whose dual-issue
    /// halves cannot run: the error raised if it is executed.
    Bad(Unrunnable),
}

/// Why the word at a slot cannot run.
#[derive(Clone, Debug)]
pub enum Unrunnable {
    /// The decoder's error.
    Decode(crate::DecodeError),
    /// A dual-issue half that cannot run (no executor, say).
    Exec(ExecError),
    /// No decoder result covers the slot.
    NotDecoded,
}

impl Unrunnable {
    fn error(&self, pc: u64) -> ExecError {
        match self {
            Unrunnable::Decode(e) => ExecError::Decode { pc, error: *e },
            Unrunnable::Exec(x) => x.clone(),
            Unrunnable::NotDecoded => ExecError::PcOutOfRange { pc },
        }
    }
}

/// A code object decoded once: every dword offset maps to its instruction and executor.
pub struct Program {
    pub spec: &'static IsaSpec,
    /// Address of the first byte (what PC holds at the entry point).
    pub base: u64,
    /// Byte length.
    pub len: u64,
    slots: Vec<Slot>,
}

impl Program {
    /// Decodes `code` (placed at `base`, 4-byte aligned) and binds executors from `table`.
    /// Undecodable dwords are kept as errors raised only if executed.
    pub fn load(spec: &'static IsaSpec, code: &[u8], base: u64, table: &ExecutorTable) -> Program {
        let mut slots = vec![Slot::Bad(Unrunnable::NotDecoded); code.len().div_ceil(4)];
        for entry in decode_stream(spec, code) {
            let i = entry.offset / 4;
            match entry.result {
                Ok(ins) => {
                    let len = ins.len();
                    for k in 1..len.div_ceil(4) {
                        if let Some(s) = slots.get_mut(i + k) {
                            *s = Slot::Inside;
                        }
                    }
                    slots[i] = Slot::Start {
                        exec: table.get(&ins),
                        atomic: is_device_atomic(ins.info().name),
                        decoded: Decoded::new(ins),
                        len: len as u8,
                    };
                }
                Err(e) => slots[i] = dual_slot(spec, &code[entry.offset..], table, e),
            }
        }
        for i in 0..slots.len() {
            if let Slot::Dual { len, .. } = slots[i] {
                for k in 1..(len as usize).div_ceil(4) {
                    if let Some(s) = slots.get_mut(i + k) {
                        *s = Slot::Inside;
                    }
                }
            }
        }
        Program {
            spec,
            base,
            len: code.len() as u64,
            slots,
        }
    }

    /// The instruction at byte address `pc`.
    pub fn instruction_at(&self, pc: u64) -> Option<&Decoded> {
        match self.slot(pc) {
            Ok(Slot::Start { decoded, .. }) => Some(decoded),
            _ => None,
        }
    }

    #[inline]
    fn slot(&self, pc: u64) -> Result<&Slot, ExecError> {
        let off = pc.wrapping_sub(self.base);
        if off >= self.len || !off.is_multiple_of(4) {
            return Err(ExecError::PcOutOfRange { pc });
        }
        Ok(&self.slots[(off / 4) as usize])
    }

    /// Runs `wave` from its PC until it ends, reaches a barrier (returns [`Flow::Barrier`], PC
    /// after the barrier) or fails. `max_steps` bounds the wave's total instruction count.
    pub fn run_wave(
        &self,
        wave: &mut Wave,
        mem: &mut dyn Memory,
        lds: &mut Lds,
        max_steps: u64,
    ) -> Result<Flow, ExecError> {
        self.run_wave_with(wave, mem, lds, max_steps, &mut NoTrace)
    }

    /// [`Program::run_wave`] with `tracer` called around every instruction.
    pub fn run_wave_traced(
        &self,
        wave: &mut Wave,
        mem: &mut dyn Memory,
        lds: &mut Lds,
        max_steps: u64,
        tracer: &mut dyn Tracer,
    ) -> Result<Flow, ExecError> {
        self.run_wave_with(wave, mem, lds, max_steps, tracer)
    }

    // Generic so that the untraced path is compiled without the hook calls.
    #[inline]
    fn run_wave_with<T: Tracer + ?Sized>(
        &self,
        wave: &mut Wave,
        mem: &mut dyn Memory,
        lds: &mut Lds,
        max_steps: u64,
        tracer: &mut T,
    ) -> Result<Flow, ExecError> {
        loop {
            if wave.steps >= max_steps {
                return Err(ExecError::StepLimit { steps: wave.steps });
            }
            let (decoded, len, exec, atomic) = match self.slot(wave.pc)? {
                Slot::Start {
                    decoded,
                    len,
                    exec,
                    atomic,
                } => (decoded, *len, *exec, *atomic),
                Slot::Dual { halves, len } => {
                    wave.steps += 1;
                    tracer.before(wave, &halves[0].decoded);
                    let result = super::dual::execute(wave, halves, mem, lds);
                    tracer.after(wave, &halves[0].decoded, &result);
                    result?;
                    wave.pc += *len as u64;
                    continue;
                }
                Slot::Inside => return Err(ExecError::MidInstruction { pc: wave.pc }),
                Slot::Bad(why) => return Err(why.error(wave.pc)),
            };
            let exec = exec.ok_or_else(|| ExecError::NoExecutor {
                mnemonic: decoded.info().mnemonic.to_string(),
            })?;
            wave.steps += 1;
            tracer.before(wave, decoded);
            let result = if atomic {
                mem.begin_atomic();
                let r = exec(wave, decoded, mem, lds);
                mem.end_atomic();
                r
            } else {
                exec(wave, decoded, mem, lds)
            };
            tracer.after(wave, decoded, &result);
            match result? {
                Flow::Next => wave.pc += len as u64,
                Flow::Jump(target) => wave.pc = target,
                Flow::EndProgram => {
                    wave.ended = true;
                    return Ok(Flow::EndProgram);
                }
                Flow::Barrier => {
                    wave.pc += len as u64;
                    return Ok(Flow::Barrier);
                }
                Flow::Halt => {
                    wave.halted = true;
                    return Err(ExecError::Halted);
                }
            }
        }
    }
}

/// The slot of a word the decoder reported: a dual-issue word bound to its halves'
/// executors, or the error (the decoder's, or why a half cannot run).
fn dual_slot(
    spec: &'static IsaSpec,
    bytes: &[u8],
    table: &ExecutorTable,
    e: crate::DecodeError,
) -> Slot {
    let crate::DecodeErrorKind::Unsupported { encoding } = e.kind else {
        return Slot::Bad(Unrunnable::Decode(e));
    };
    if !crate::dual::is_dual_encoding(spec, encoding) {
        return Slot::Bad(Unrunnable::Decode(e));
    }
    match crate::dual::decode(spec, bytes) {
        Ok((d, len)) => match super::dual::bind(table, &d) {
            Ok(halves) => Slot::Dual {
                halves: Box::new(halves),
                len: len as u8,
            },
            Err(x) => Slot::Bad(Unrunnable::Exec(x)),
        },
        Err(x) => Slot::Bad(Unrunnable::Decode(x)),
    }
}

/// Whether instruction `name` reads, modifies and writes device memory: the global, flat,
/// buffer and scalar atomics (LDS atomics stay inside one workgroup, which one thread runs).
fn is_device_atomic(name: &str) -> bool {
    !name.starts_with("DS_") && name.contains("ATOMIC")
}

/// Watches a wave instruction by instruction (`amdisa run --trace`): the hook sees the wave
/// before and after each executor, so it can tell which registers the instruction wrote.
pub trait Tracer {
    /// `decoded` is about to run; PC is its address.
    fn before(&mut self, wave: &Wave, decoded: &Decoded);
    /// `decoded` ran and returned `result`; PC is still its address.
    fn after(&mut self, wave: &Wave, decoded: &Decoded, result: &Result<Flow, ExecError>);
}

/// The tracer of untraced runs: does nothing, and compiles to nothing.
struct NoTrace;

impl Tracer for NoTrace {
    #[inline(always)]
    fn before(&mut self, _: &Wave, _: &Decoded) {}
    #[inline(always)]
    fn after(&mut self, _: &Wave, _: &Decoded, _: &Result<Flow, ExecError>) {}
}

/// How work-item ids reach the VGPRs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkitemIds {
    /// `v0 = x | y << 10 | z << 20`.
    Packed,
    /// `v0 = x`, `v1 = y`, `v2 = z` (only the dimensions with size > 1 beyond x are written).
    Separate,
}

impl WorkitemIds {
    /// What the generation's hardware does.
    pub fn for_traits(traits: crate::tables::Traits) -> WorkitemIds {
        if traits.packed_workitem_ids {
            WorkitemIds::Packed
        } else {
            WorkitemIds::Separate
        }
    }
}

/// Scratch memory for a dispatch (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScratchSetup {
    pub base: u64,
    pub per_lane: u64,
}

/// What to run and how.
#[derive(Clone, Debug)]
pub struct DispatchConfig {
    /// Workgroups in x, y, z.
    pub grid: [u32; 3],
    /// Work-items per workgroup in x, y, z.
    pub workgroup_size: [u32; 3],
    pub kernarg_address: u64,
    /// The first of the two SGPRs holding the kernarg address (0; a compiled kernel whose
    /// descriptor enables SGPRs before it, such as the dispatch and queue pointers, says 4).
    pub kernarg_sgpr: u32,
    /// How many workgroup-id SGPRs follow the kernarg pointer (0..=3: x, y, z).
    pub workgroup_id_sgprs: u32,
    /// The SGPR of the first workgroup id (2: right after the kernarg pointer; a compiled
    /// kernel's descriptor puts them after all its user SGPRs).
    pub workgroup_id_sgpr: u32,
    pub wave64: bool,
    pub num_vgprs: u32,
    pub num_agprs: u32,
    pub num_sgprs: u32,
    pub lds_size: usize,
    pub scratch: Option<ScratchSetup>,
    pub mode: Mode,
    pub workitem_ids: WorkitemIds,
    /// Instructions one wave may run before the dispatch gives up.
    pub max_steps_per_wave: u64,
    /// When set, the SGPRs follow a kernel descriptor instead of the fixed layout above.
    pub hsa_sgprs: Option<HsaSgprs>,
    /// Where waves start (a kernel's entry inside a larger code object); the program's
    /// first byte when None.
    pub entry: Option<u64>,
}

/// Wave-start SGPRs as a kernel descriptor asks for them: the user SGPRs (the same for every
/// wave of the dispatch) from `s0`, then the enabled workgroup ids.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HsaSgprs {
    pub user: Vec<u32>,
    /// Which of x, y, z get a workgroup-id SGPR (in that order, after the user SGPRs).
    pub workgroup_ids: [bool; 3],
    /// GFX12's architected SGPRs: the workgroup ids are also in `ttmp9` (x) and `ttmp7`
    /// (y in bits 15:0, z in bits 31:16), where code compiled for GFX12 reads them.
    pub architected_ids: bool,
}

impl DispatchConfig {
    /// Defaults for a generation: its wave size, 256 VGPRs (and 256 AGPRs on CDNA), 106
    /// SGPRs, 64 KiB LDS, all three workgroup ids, MODE = [`Mode::DEFAULT`].
    pub fn new(
        spec: &IsaSpec,
        grid: [u32; 3],
        workgroup_size: [u32; 3],
        kernarg_address: u64,
    ) -> DispatchConfig {
        DispatchConfig {
            grid,
            workgroup_size,
            kernarg_address,
            kernarg_sgpr: 0,
            workgroup_id_sgprs: 3,
            workgroup_id_sgpr: 2,
            wave64: spec.wave64,
            num_vgprs: 256,
            num_agprs: if spec.traits.agprs { 256 } else { 0 },
            num_sgprs: 106,
            lds_size: 64 * 1024,
            scratch: None,
            mode: Mode::DEFAULT,
            workitem_ids: WorkitemIds::for_traits(spec.traits),
            max_steps_per_wave: 100_000_000,
            hsa_sgprs: None,
            entry: None,
        }
    }

    pub fn lanes(&self) -> u32 {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    pub fn workitems_per_group(&self) -> u32 {
        self.workgroup_size.iter().product()
    }

    pub fn waves_per_group(&self) -> u32 {
        self.workitems_per_group().div_ceil(self.lanes())
    }

    /// Scratch bytes the host must provide at `scratch.base`.
    pub fn scratch_bytes(&self) -> u64 {
        self.scratch.map_or(0, |s| {
            s.per_lane * self.lanes() as u64 * self.waves_per_group() as u64
        })
    }
}

/// Where and why a dispatch failed.
#[derive(Clone, Debug, PartialEq)]
pub struct DispatchError {
    pub workgroup: [u32; 3],
    pub wave: u32,
    pub pc: u64,
    /// The instruction at PC, disassembled (when there is one).
    pub instruction: Option<String>,
    pub error: ExecError,
}

impl fmt::Display for DispatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.workgroup;
        write!(
            f,
            "workgroup ({x}, {y}, {z}) wave {} at pc {:#x}",
            self.wave, self.pc
        )?;
        if let Some(i) = &self.instruction {
            write!(f, " ({i})")?;
        }
        write!(f, ": {}", self.error)
    }
}

impl std::error::Error for DispatchError {}

/// What a dispatch did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispatchStats {
    pub workgroups: u64,
    pub waves: u64,
    /// Instructions executed, summed over waves.
    pub instructions: u64,
}

/// Sets up a wave of a workgroup per the ABI subset in the module docs.
pub fn init_wave(
    cfg: &DispatchConfig,
    program: &Program,
    group: [u32; 3],
    wave_index: u32,
) -> Wave {
    let mut w = Wave::new(cfg.wave64, cfg.num_vgprs, cfg.num_agprs);
    setup_wave(&mut w, cfg, program, group, wave_index);
    w
}

/// [`init_wave`] into an existing wave of the right shape (zeroed first).
pub fn setup_wave(
    w: &mut Wave,
    cfg: &DispatchConfig,
    program: &Program,
    group: [u32; 3],
    wave_index: u32,
) {
    w.reset();
    w.num_sgprs = cfg.num_sgprs;
    w.mode = cfg.mode;
    w.pc = cfg.entry.unwrap_or(program.base);
    w.workgroup_id = group;
    w.wave_in_group = wave_index;
    match &cfg.hsa_sgprs {
        Some(h) => {
            let n = h.user.len().min(w.sgpr.len());
            w.sgpr[..n].copy_from_slice(&h.user[..n]);
            let mut next = n;
            for (d, &on) in h.workgroup_ids.iter().enumerate() {
                if on && next < w.sgpr.len() {
                    w.sgpr[next] = group[d];
                    next += 1;
                }
            }
            if h.architected_ids {
                w.ttmp[9] = group[0];
                w.ttmp[7] = (group[1] & 0xffff) | group[2] << 16;
            }
        }
        None => {
            let k = cfg.kernarg_sgpr as usize;
            let ids = cfg.workgroup_id_sgprs.min(3) as usize;
            let g = cfg.workgroup_id_sgpr as usize;
            if k + 2 <= w.sgpr.len() && g + ids <= w.sgpr.len() {
                w.sgpr[k] = cfg.kernarg_address as u32;
                w.sgpr[k + 1] = (cfg.kernarg_address >> 32) as u32;
                w.sgpr[g..g + ids].copy_from_slice(&group[..ids]);
            }
        }
    }
    let lanes = cfg.lanes();
    let [sx, sy, _] = cfg.workgroup_size;
    let total = cfg.workitems_per_group();
    let mut exec = 0u64;
    for lane in 0..lanes {
        let flat = wave_index * lanes + lane;
        if flat >= total {
            break;
        }
        exec |= 1 << lane;
        let (x, y, z) = (flat % sx, (flat / sx) % sy, flat / (sx * sy));
        let l = lane as usize;
        match cfg.workitem_ids {
            WorkitemIds::Packed => w.vgpr[l] = x | y << 10 | z << 20,
            WorkitemIds::Separate => {
                w.vgpr[l] = x;
                if cfg.num_vgprs > 2 {
                    w.vgpr[lanes as usize + l] = y;
                    w.vgpr[2 * lanes as usize + l] = z;
                }
            }
        }
    }
    w.exec = exec;
    if let Some(s) = cfg.scratch {
        let base = s.base + wave_index as u64 * s.per_lane * lanes as u64;
        w.scratch = ScratchInfo {
            base,
            per_lane: s.per_lane,
        };
        w.flat_scratch = base;
    }
}

/// Runs `program` over the grid. Stops at the first error, saying where.
pub fn dispatch(
    program: &Program,
    cfg: &DispatchConfig,
    mem: &mut dyn Memory,
) -> Result<DispatchStats, DispatchError> {
    let mut stats = DispatchStats::default();
    let mut lds = Lds::new(cfg.lds_size);
    let waves_per_group = cfg.waves_per_group();
    let mut waves: Vec<Wave> = (0..waves_per_group)
        .map(|_| Wave::new(cfg.wave64, cfg.num_vgprs, cfg.num_agprs))
        .collect();
    for gz in 0..cfg.grid[2] {
        for gy in 0..cfg.grid[1] {
            for gx in 0..cfg.grid[0] {
                let group = [gx, gy, gz];
                lds.clear();
                for (i, w) in waves.iter_mut().enumerate() {
                    setup_wave(w, cfg, program, group, i as u32);
                }
                run_workgroup(program, cfg, &mut waves, mem, &mut lds, group)?;
                stats.workgroups += 1;
                stats.waves += waves.len() as u64;
                stats.instructions += waves.iter().map(|w| w.steps).sum::<u64>();
            }
        }
    }
    Ok(stats)
}

/// Runs the waves of one workgroup to the end, releasing barriers.
pub fn run_workgroup(
    program: &Program,
    cfg: &DispatchConfig,
    waves: &mut [Wave],
    mem: &mut dyn Memory,
    lds: &mut Lds,
    group: [u32; 3],
) -> Result<(), DispatchError> {
    run_workgroup_with(program, cfg, waves, mem, lds, group, &mut NoTrace)
}

/// [`run_workgroup`] with `tracer` called around every instruction of every wave.
pub fn run_workgroup_traced(
    program: &Program,
    cfg: &DispatchConfig,
    waves: &mut [Wave],
    mem: &mut dyn Memory,
    lds: &mut Lds,
    group: [u32; 3],
    tracer: &mut dyn Tracer,
) -> Result<(), DispatchError> {
    run_workgroup_with(program, cfg, waves, mem, lds, group, tracer)
}

fn run_workgroup_with<T: Tracer + ?Sized>(
    program: &Program,
    cfg: &DispatchConfig,
    waves: &mut [Wave],
    mem: &mut dyn Memory,
    lds: &mut Lds,
    group: [u32; 3],
    tracer: &mut T,
) -> Result<(), DispatchError> {
    let fail = |w: &Wave, error: ExecError| DispatchError {
        workgroup: group,
        wave: w.wave_in_group,
        pc: w.pc,
        instruction: program
            .instruction_at(w.pc)
            .map(|d| crate::disasm::disassemble(&d.ins)),
        error,
    };
    loop {
        let mut at_barrier = 0;
        for w in waves.iter_mut().filter(|w| !w.ended) {
            match program.run_wave_with(w, mem, lds, cfg.max_steps_per_wave, tracer) {
                Ok(Flow::Barrier) => at_barrier += 1,
                Ok(_) => {}
                Err(e) => return Err(fail(w, e)),
            }
        }
        // Every wave has ended or is waiting at the barrier: release it (or finish).
        if at_barrier == 0 {
            return Ok(());
        }
    }
}
