//! The emulator core (issue 5): wave state, memories, exact floating point, the helper
//! functions AMD's pseudocode calls, and a dispatch driver that runs a kernel over a grid.
//!
//! The per-instruction executors are not written here: they are generated from AMD's
//! pseudocode and plug in as [`ExecFn`]s through an [`ExecutorTable`]. An executor gets the
//! wave, the pre-decoded instruction (with its operands already resolved to [`Src`]s), the
//! device memory and the workgroup's LDS, does its work for every active lane, and says what
//! the wave does next with a [`Flow`].
//!
//! - [`wave`]: [`Wave`] (SGPRs, VGPRs laid out `[reg * lanes + lane]`, AGPRs, EXEC, VCC, SCC,
//!   M0, MODE, STATUS, TRAPSTS, PC), operand resolution ([`Src`], [`Decoded`]).
//! - [`memory`]: the [`Memory`] trait, [`FlatMemory`], [`Lds`]; every access bounds-checked.
//! - [`float`]: f64/f32/f16/bf16 arithmetic in every rounding mode with MODE's denormal
//!   controls, fp8/bf8 (and FNUZ, fp6, fp4) conversions; host fast paths proven in tests.
//! - [`helpers`]: the pseudocode's helper functions (`isNAN`, `signext`, `CalcDsAddr`, ...),
//!   with [`helpers::HELPERS`] mapping each pseudocode name to its Rust function.
//! - [`matrix`]: the matrix cores (MFMA, SMFMAC, block-scaled MFMA) as one table-driven model.
//! - [`parallel`]: workgroups on several threads over a shared memory ([`parallel::dispatch_parallel`]).
//! - [`dispatch`](mod@dispatch): [`Program`] (a decoded code object), [`ExecutorTable`],
//!   [`dispatch()`].
//!
//! # Lowering guide (pseudocode → this API)
//!
//! | pseudocode | Rust |
//! |---|---|
//! | `S0`, `D0`, `SIMM16`, ... | `d.operands[i]` ([`Src`], index from the form's operand order) or `d.field("SIMM16")`; [`Decoded::src_of`] finds an operand by field name |
//! | per-lane reads/writes | [`Wave::load_src_b32`] into `[u32; 64]`, loop over lanes, [`Wave::write_vgpr_masked`] with [`Wave::exec_mask`]; or [`Wave::read_lane_b32`] / [`Wave::write_lane_b32`] per lane |
//! | `VGPR[lane][reg]`, `SGPR[i]` | [`Wave::read_vgpr`] / [`Wave::write_vgpr`], [`Wave::read_sgpr`] / [`Wave::read_sgpr_pair`] |
//! | `EXEC`, `VCC`, `SCC`, `M0`, `PC` | `wave.exec`, `wave.vcc`, `wave.scc`, `wave.m0`; a write to PC returns [`Flow::Jump`] |
//! | `ROUND_MODE`, `WAVE_MODE.IEEE`, `MODE.*` | [`Mode::round_mode`] / [`Mode::set_round_mode`], [`Mode::ieee`], [`Mode::field`] |
//! | `WAVE_STATUS.PRIV`, `TRAPSTS.INVALID` | `wave.status` ([`Status`]), `wave.trapsts \|= wave::trapsts::INVALID` |
//! | `a + b` on `f32` (also `- * /`, `fma`, `sqrt`) | [`float::add`]`(wave.mode.env::<F32>(), a, b)` |
//! | `a < b` on floats | [`float::lt`] (and `le`, `eq`, `ne`, ...) |
//! | `64'F(x)` (float resize) | [`float::cast`] (keeps signaling NaNs) |
//! | `32'F(i)` (int → float), `32'I(f)` | [`float::from_i64`] / [`float::from_u64`], [`float::to_int`] / [`float::to_uint`] |
//! | `PI`, `INF`, `NAN`, `sNaN` | [`helpers::pcode_constant`] |
//! | `MEM[addr]` | `mem` ([`MemoryExt::read_u32`], ...) or `lds` by encoding; map a fault with [`ExecError::lane_fault`] |
//! | helper calls | [`helpers::lookup`] gives the Rust function and whether it takes `wave.mode` first |

pub mod dispatch;
pub mod dual;
pub mod float;
pub mod helpers;
pub mod matrix;
pub mod memory;
pub mod parallel;
pub mod wave;

pub use dispatch::{
    dispatch, DispatchConfig, DispatchError, DispatchStats, ExecutorTable, Program,
};
pub use memory::{FlatMemory, Lds, MemError, MemErrorKind, Memory, MemoryExt, Segment};
pub use wave::{Decoded, Mode, Special, Src, Status, Wave, MAX_LANES};

use crate::operand::RegFile;
use std::fmt;

/// What the wave does after an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on with the next instruction (`pc += length`).
    Next,
    /// Continue at this byte address (the executor computed the new PC, as the pseudocode's
    /// `PC = ...` does; PC is the address of the executing instruction while it runs).
    Jump(u64),
    /// The wave ends (`S_ENDPGM`).
    EndProgram,
    /// Wait until every wave of the workgroup has arrived (`S_BARRIER`), then go on with the
    /// next instruction.
    Barrier,
    /// The wave halts (`S_SETHALT 1`); nothing in the emulator resumes it, so the dispatch
    /// reports it.
    Halt,
}

/// The per-instruction executor signature the generated code provides.
///
/// It runs one instruction for the whole wave: lanes are selected by `wave.exec` (the
/// executor reads it, as the pseudocode does). PC holds the instruction's own address.
pub type ExecFn = fn(&mut Wave, &Decoded, &mut dyn Memory, &mut Lds) -> Result<Flow, ExecError>;

/// Why an instruction could not be executed.
#[derive(Clone, Debug, PartialEq)]
pub enum ExecError {
    /// A memory access failed; `lane` is the lane that made it (None for scalar accesses).
    Memory { fault: MemError, lane: Option<u32> },
    /// A register outside the wave's allocation (`v300` in a wave with 256 VGPRs, `s[104:107]`).
    RegisterOutOfRange {
        file: RegFile,
        index: u32,
        limit: u32,
    },
    /// An operand value the instruction cannot use here (a VGPR where only scalars may be,
    /// a write to a constant, an operand name the emulator does not model).
    IllegalOperand { operand: String, reason: String },
    /// The instruction (or one of its modes) is not implemented.
    Unsupported { mnemonic: String, reason: String },
    /// No executor is registered for the instruction.
    NoExecutor { mnemonic: String },
    /// The bytes at PC are not an instruction.
    Decode { pc: u64, error: crate::DecodeError },
    /// A jump to the middle of an instruction.
    MidInstruction { pc: u64 },
    /// PC left the code object.
    PcOutOfRange { pc: u64 },
    /// The wave ran more instructions than the dispatch allows (a likely endless loop).
    StepLimit { steps: u64 },
    /// The wave halted.
    Halted,
}

impl ExecError {
    /// A memory error made by `lane`.
    pub fn lane_fault(fault: MemError, lane: usize) -> ExecError {
        ExecError::Memory {
            fault,
            lane: Some(lane as u32),
        }
    }

    pub fn unsupported(mnemonic: &str, reason: impl Into<String>) -> ExecError {
        ExecError::Unsupported {
            mnemonic: mnemonic.to_string(),
            reason: reason.into(),
        }
    }

    pub fn illegal(operand: impl Into<String>, reason: impl Into<String>) -> ExecError {
        ExecError::IllegalOperand {
            operand: operand.into(),
            reason: reason.into(),
        }
    }
}

impl From<MemError> for ExecError {
    /// A scalar (not per-lane) memory fault.
    fn from(fault: MemError) -> ExecError {
        ExecError::Memory { fault, lane: None }
    }
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExecError::Memory {
                fault,
                lane: Some(l),
            } => write!(f, "lane {l}: {fault}"),
            ExecError::Memory { fault, lane: None } => write!(f, "{fault}"),
            ExecError::RegisterOutOfRange { file, index, limit } => {
                write!(
                    f,
                    "{file:?} register {index} is outside the wave's {limit} registers"
                )
            }
            ExecError::IllegalOperand { operand, reason } => {
                write!(f, "operand {operand}: {reason}")
            }
            ExecError::Unsupported { mnemonic, reason } => {
                write!(f, "{mnemonic}: not supported: {reason}")
            }
            ExecError::NoExecutor { mnemonic } => write!(f, "no executor for {mnemonic}"),
            ExecError::Decode { pc, error } => {
                write!(f, "cannot decode at pc {pc:#x}: {error}")
            }
            ExecError::MidInstruction { pc } => {
                write!(
                    f,
                    "cannot decode at pc {pc:#x}: jump into the middle of an instruction"
                )
            }
            ExecError::PcOutOfRange { pc } => write!(f, "pc {pc:#x} is outside the code object"),
            ExecError::StepLimit { steps } => {
                write!(f, "the wave ran {steps} instructions without ending")
            }
            ExecError::Halted => f.write_str("the wave halted and nothing can resume it"),
        }
    }
}

impl std::error::Error for ExecError {}
