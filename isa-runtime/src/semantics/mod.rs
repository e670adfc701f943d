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
pub mod handwritten;
pub mod lds_dma;
pub mod shorthand;

pub use buffer::{buf_read, buf_write, sbuf_read, sbuf_write, BufferRange, BufferResource};
pub use shorthand::*;

// The support code generated executors call, one concern per module, re-exported here.
mod binding;
mod bits;
mod coerce;
mod generated;
mod lanes;
mod memory;
mod mods;
mod values;
pub use binding::*;
pub use bits::*;
pub use coerce::*;
pub use generated::*;
pub use lanes::*;
pub use memory::*;
pub use mods::*;
pub use values::*;

use crate::exec::float::{self as fl, SoftFloat, F16, F32, F64};
use crate::exec::wave::{LaneIter, Special, Src, MAX_LANES};
use crate::exec::{Decoded, ExecError, ExecFn, ExecutorTable, Lds, MemError, Memory, Wave};
use crate::IsaSpec;
use std::fmt::Write as _;
