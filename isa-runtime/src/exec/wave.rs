//! One wave's architectural state, and operand access for executors.
//!
//! Layout choices (for speed of the generated lane loops):
//! - VGPRs are register-major, `vgpr[reg * lanes + lane]`: one register's lanes are
//!   contiguous, so an executor reads a source register as a slice and loops over lanes.
//! - EXEC and VCC are `u64` masks; in wave32 only the low 32 bits name lanes (the high halves
//!   are still registers, `EXEC_HI`/`VCC_HI`, readable and writable as the hardware's are).
//! - Register indices are bounds-checked once per instruction (`vgpr_lanes`), never per lane.

use super::float::{DenormMode, FpEnv, RoundingMode, SoftFloat};
use super::ExecError;
use crate::decode::Instruction;
use crate::operand::{Operand, RegFile};

/// Lanes in a wave64.
pub const MAX_LANES: usize = 64;
/// Scalar registers addressable as `s0..s127` (the ISA uses at most 106 of them; the rest make
/// wide reads at the top fail cleanly instead of wrapping into specials).
pub const SGPR_FILE: usize = 128;
/// Trap temporaries `ttmp0..ttmp15`.
pub const TTMP_COUNT: usize = 16;

/// The MODE register (hardware bit layout, shared by GCN/CDNA and RDNA for the fields
/// modelled here):
///
/// | bits  | field | meaning |
/// |-------|-------|---------|
/// | 1:0   | FP_ROUND.f32 | rounding of f32: 0 nearest-even, 1 +inf, 2 -inf, 3 toward zero |
/// | 3:2   | FP_ROUND.f64_f16 | the same for f64 and f16 |
/// | 5:4   | FP_DENORM.f32 | bit 0: keep input denormals, bit 1: keep output denormals |
/// | 7:6   | FP_DENORM.f64_f16 | the same for f64 and f16 |
/// | 8     | DX10_CLAMP | clamp NaN to 0 where the clamp modifier applies |
/// | 9     | IEEE | IEEE mode: min/max quiet signaling NaNs |
/// | 27    | GPR_IDX_EN (CDNA) | VGPR indexing enabled |
/// | 31:29 | CSP (CDNA) | control stack pointer |
///
/// Other bits are kept as written (readable through `S_GETREG`). bf16 arithmetic follows the
/// f32 controls (an assumption: AMD's documents group bf16 with neither field explicitly).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mode(pub u32);

/// Which MODE fields a format's arithmetic follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModeGroup {
    /// f32 (and bf16, fp8 conversions): `FP_ROUND[1:0]`, `FP_DENORM[5:4]`.
    Single,
    /// f64 and f16: `FP_ROUND[3:2]`, `FP_DENORM[7:6]`.
    DoubleHalf,
}

impl Mode {
    /// Round to nearest even everywhere, all denormals kept, IEEE and DX10 clamp on: what
    /// the HSA ABI's default kernel descriptor asks for.
    pub const DEFAULT: Mode = Mode(0xF0 | 1 << 8 | 1 << 9);
    /// The pseudocode's `ROUND_NEAREST_EVEN`: the FP_ROUND field (both groups) set to RNE.
    pub const ROUND_NEAREST_EVEN: u32 = 0x0;
    /// The pseudocode's `ROUND_TOWARD_ZERO`: both groups toward zero.
    pub const ROUND_TOWARD_ZERO: u32 = 0xF;

    #[inline]
    fn bits(self, lo: u32, width: u32) -> u32 {
        (self.0 >> lo) & ((1 << width) - 1)
    }

    #[inline]
    fn set_bits(&mut self, lo: u32, width: u32, value: u32) {
        let mask = ((1u32 << width) - 1) << lo;
        self.0 = (self.0 & !mask) | ((value << lo) & mask);
    }

    /// The pseudocode's `ROUND_MODE`: FP_ROUND, bits 3:0 (both groups).
    pub fn round_mode(self) -> u32 {
        self.bits(0, 4)
    }

    pub fn set_round_mode(&mut self, v: u32) {
        self.set_bits(0, 4, v)
    }

    pub fn rounding(self, group: ModeGroup) -> RoundingMode {
        let shift = if group == ModeGroup::Single { 0 } else { 2 };
        RoundingMode::from_mode_bits(self.bits(shift, 2))
    }

    pub fn set_rounding(&mut self, group: ModeGroup, r: RoundingMode) {
        let shift = if group == ModeGroup::Single { 0 } else { 2 };
        self.set_bits(shift, 2, r.mode_bits())
    }

    pub fn denorm(self, group: ModeGroup) -> DenormMode {
        let shift = if group == ModeGroup::Single { 4 } else { 6 };
        DenormMode::from_mode_bits(self.bits(shift, 2))
    }

    pub fn set_denorm(&mut self, group: ModeGroup, d: DenormMode) {
        let shift = if group == ModeGroup::Single { 4 } else { 6 };
        self.set_bits(shift, 2, d.mode_bits())
    }

    /// The float environment of a format's arithmetic.
    #[inline]
    pub fn env<T: SoftFloat>(self) -> FpEnv {
        self.env_for(T::GROUP)
    }

    #[inline]
    pub fn env_for(self, group: ModeGroup) -> FpEnv {
        FpEnv {
            round: self.rounding(group),
            denorm: self.denorm(group),
        }
    }

    pub fn dx10_clamp(self) -> bool {
        self.bits(8, 1) != 0
    }

    pub fn ieee(self) -> bool {
        self.bits(9, 1) != 0
    }

    pub fn set_ieee(&mut self, on: bool) {
        self.set_bits(9, 1, on as u32)
    }

    pub fn gpr_idx_en(self) -> bool {
        self.bits(27, 1) != 0
    }

    pub fn set_gpr_idx_en(&mut self, on: bool) {
        self.set_bits(27, 1, on as u32)
    }

    pub fn csp(self) -> u32 {
        self.bits(29, 3)
    }

    pub fn set_csp(&mut self, v: u32) {
        self.set_bits(29, 3, v)
    }

    /// A field by the pseudocode's name (`WAVE_MODE.IEEE`): (low bit, width).
    pub fn field(name: &str) -> Option<(u32, u32)> {
        Some(match name {
            "FP_ROUND" => (0, 4),
            "FP_DENORM" => (4, 4),
            "DX10_CLAMP" => (8, 1),
            "IEEE" => (9, 1),
            "GPR_IDX_EN" => (27, 1),
            "CSP" => (29, 3),
            _ => return None,
        })
    }
}

/// The STATUS register bits the pseudocode reads or writes. SCC, EXECZ and VCCZ live in the
/// wave's own fields and are merged in by [`Wave::status_value`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Status(pub u32);

impl Status {
    pub const SCC: u32 = 1 << 0;
    pub const PRIV: u32 = 1 << 5;
    pub const EXECZ: u32 = 1 << 9;
    pub const VCCZ: u32 = 1 << 10;
    pub const HALT: u32 = 1 << 13;
    pub const COND_DBG_USER: u32 = 1 << 20;
    pub const COND_DBG_SYS: u32 = 1 << 21;

    pub fn get(self, bit: u32) -> bool {
        self.0 & bit != 0
    }

    pub fn set(&mut self, bit: u32, on: bool) {
        if on {
            self.0 |= bit
        } else {
            self.0 &= !bit
        }
    }

    /// A field by the pseudocode's name (`WAVE_STATUS.PRIV`).
    pub fn field(name: &str) -> Option<u32> {
        Some(match name {
            "SCC" => Self::SCC,
            "PRIV" => Self::PRIV,
            "EXECZ" => Self::EXECZ,
            "VCCZ" => Self::VCCZ,
            "HALT" => Self::HALT,
            "COND_DBG_USER" => Self::COND_DBG_USER,
            "COND_DBG_SYS" => Self::COND_DBG_SYS,
            _ => return None,
        })
    }
}

/// TRAPSTS exception bits (`TRAPSTS.INVALID` is what the pseudocode sets).
pub mod trapsts {
    pub const INVALID: u32 = 1 << 0;
    pub const INPUT_DENORMAL: u32 = 1 << 1;
    pub const DIV_BY_ZERO: u32 = 1 << 2;
    pub const OVERFLOW: u32 = 1 << 3;
    pub const UNDERFLOW: u32 = 1 << 4;
    pub const INEXACT: u32 = 1 << 5;
    pub const INT_DIV_BY_ZERO: u32 = 1 << 6;
}

/// Named scalar sources and destinations (AMD's operand value names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    VccLo,
    VccHi,
    ExecLo,
    ExecHi,
    M0,
    /// Reads as 0, writes are dropped.
    Null,
    /// `SRC_SCC`: SCC as 0 or 1.
    Scc,
    /// `SRC_VCCZ`, `SRC_EXECZ`: 1 when the lanes' mask is zero.
    Vccz,
    Execz,
    FlatScratchLo,
    FlatScratchHi,
    XnackMaskLo,
    XnackMaskHi,
    /// Aperture bases and limits (`SRC_SHARED_BASE`, ...), the high dword of the flat address
    /// where each aperture starts or ends.
    SharedBase,
    SharedLimit,
    PrivateBase,
    PrivateLimit,
    PopsExitingWaveId,
}

impl Special {
    /// By AMD's operand name (case-insensitive; implicit operand type names such as
    /// `OPR_VCC` and LLVM's lower-case names are accepted too).
    pub fn from_name(name: &str) -> Option<Special> {
        use Special::*;
        let upper = name.to_ascii_uppercase();
        Some(match upper.as_str() {
            "VCC_LO" | "VCC" | "OPR_VCC" => VccLo,
            "VCC_HI" => VccHi,
            "EXEC_LO" | "EXEC" | "OPR_EXEC" | "OPR_SDST_EXEC" => ExecLo,
            "EXEC_HI" => ExecHi,
            "M0" | "OPR_SDST_M0" => M0,
            "NULL" | "OPR_SDST_NULL" => Null,
            "SRC_SCC" | "SCC" | "OPR_SSRC_SPECIAL_SCC" => Scc,
            "SRC_VCCZ" | "VCCZ" => Vccz,
            "SRC_EXECZ" | "EXECZ" => Execz,
            "FLAT_SCRATCH_LO" | "FLAT_SCRATCH" | "SRC_FLAT_SCRATCH_BASE_LO" => FlatScratchLo,
            "FLAT_SCRATCH_HI" | "SRC_FLAT_SCRATCH_BASE_HI" => FlatScratchHi,
            "XNACK_MASK_LO" => XnackMaskLo,
            "XNACK_MASK_HI" => XnackMaskHi,
            "SRC_SHARED_BASE" => SharedBase,
            "SRC_SHARED_LIMIT" => SharedLimit,
            "SRC_PRIVATE_BASE" => PrivateBase,
            "SRC_PRIVATE_LIMIT" => PrivateLimit,
            "SRC_POPS_EXITING_WAVE_ID" => PopsExitingWaveId,
            _ => return None,
        })
    }

    /// The 64-bit pair this register starts (`VCC_LO` → VCC), for 64-bit operands.
    pub fn pair_base(self) -> bool {
        matches!(
            self,
            Special::VccLo | Special::ExecLo | Special::FlatScratchLo | Special::XnackMaskLo
        )
    }
}

/// An inline float constant, read at the width the instruction reads it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum InlineFloat {
    /// An exact value (±0.5, ±1.0, ±2.0, ±4.0).
    Value(f64),
    /// 1/(2π), whose bit patterns per width are fixed by the hardware.
    InvTwoPi,
}

impl InlineFloat {
    fn parse(name: &str) -> Option<InlineFloat> {
        if name.starts_with("0.1591549") {
            return Some(InlineFloat::InvTwoPi);
        }
        name.parse::<f64>().ok().map(InlineFloat::Value)
    }

    /// The f32 bit pattern.
    pub fn bits32(self) -> u32 {
        match self {
            InlineFloat::Value(v) => (v as f32).to_bits(),
            InlineFloat::InvTwoPi => 0x3e22_f983,
        }
    }

    /// The f64 bit pattern.
    pub fn bits64(self) -> u64 {
        match self {
            InlineFloat::Value(v) => v.to_bits(),
            InlineFloat::InvTwoPi => 0x3fc4_5f30_6dc9_c882,
        }
    }

    /// The f16 bit pattern.
    pub fn bits16(self) -> u16 {
        match self {
            InlineFloat::Value(v) => super::float::F16::from_f64_rne(v).0,
            InlineFloat::InvTwoPi => 0x3118,
        }
    }
}

/// A resolved operand: where an executor reads or writes it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Src {
    Sgpr(u16),
    Vgpr(u16),
    Agpr(u16),
    Ttmp(u8),
    Special(Special),
    /// An inline integer constant.
    Int(i64),
    /// An inline float constant.
    Float(InlineFloat),
    /// The literal dword (or qword) after the instruction.
    Literal(u64),
    /// A plain field value (offsets, immediates, branch targets).
    Imm(u64),
    /// A value the emulator does not model (`SRC_LDS_DIRECT`, export targets, an unknown
    /// encoding): executors report it as an illegal operand when they touch it.
    Other(&'static str),
}

impl Src {
    /// Resolves a decoded operand.
    pub fn from_operand(op: &Operand) -> Src {
        match *op {
            Operand::Reg {
                file: RegFile::Sgpr,
                first,
                ..
            } => Src::Sgpr(first as u16),
            Operand::Reg {
                file: RegFile::Vgpr,
                first,
                ..
            } => Src::Vgpr(first as u16),
            Operand::Reg {
                file: RegFile::Agpr,
                first,
                ..
            } => Src::Agpr(first as u16),
            Operand::Reg {
                file: RegFile::Ttmp,
                first,
                ..
            } => Src::Ttmp(first as u8),
            Operand::Named(n) | Operand::Implicit(n) => match Special::from_name(n) {
                Some(s) => Src::Special(s),
                None => Src::Other(n),
            },
            Operand::Int(i) => Src::Int(i),
            Operand::Float(name) => match InlineFloat::parse(name) {
                Some(f) => Src::Float(f),
                None => Src::Other(name),
            },
            Operand::Literal(l) => Src::Literal(l),
            Operand::Imm(v) => Src::Imm(v),
            Operand::Unknown(_) => Src::Other("unknown operand value"),
        }
    }

    /// True when the operand has one value for all lanes.
    pub fn is_uniform(self) -> bool {
        !matches!(self, Src::Vgpr(_) | Src::Agpr(_))
    }
}

/// A decoded instruction with its operands resolved once (when the program is loaded), so
/// executors never decode operand fields per execution. Dereferences to the [`Instruction`].
#[derive(Clone, Debug)]
pub struct Decoded {
    pub ins: Instruction,
    /// One per operand of the form, in the spec's order (implicit operands included).
    pub operands: Box<[Src]>,
}

/// Whether a memory instruction (DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF) has its ACC bit set:
/// its data and destination registers are then AGPRs. Matrix instructions read their own
/// per-source ACC bits (`exec::matrix`).
fn acc_memory_data(ins: &Instruction) -> bool {
    use crate::disasm::Family;
    let memory = matches!(
        ins.encoding().family,
        Family::Ds
            | Family::Mubuf
            | Family::Mtbuf
            | Family::Flat
            | Family::FlatGlobal
            | Family::FlatScratch
    );
    memory && ins.field("ACC") == Some(1)
}

impl Decoded {
    pub fn new(ins: Instruction) -> Decoded {
        let acc = acc_memory_data(&ins);
        let operands = ins
            .operands()
            .iter()
            .map(|o| match Src::from_operand(&o.value) {
                // CDNA memory data in AGPRs: the ACC bit turns the "VGPR or AccVGPR"
                // operands into AGPRs (the decoded operand names the VGPR of that number).
                Src::Vgpr(r)
                    if acc
                        && o.info.operand_type.is_some_and(|t| {
                            ins.spec.operand_types[t as usize].name.contains("ACCVGPR")
                        }) =>
                {
                    Src::Agpr(r)
                }
                s => s,
            })
            .collect();
        Decoded { ins, operands }
    }

    /// Operand `i`, or an illegal-operand error naming the instruction.
    #[inline]
    pub fn src(&self, i: usize) -> Result<Src, ExecError> {
        self.operands.get(i).copied().ok_or_else(|| {
            ExecError::illegal(
                format!("#{i}"),
                format!(
                    "{} has {} operands",
                    self.ins.info().name,
                    self.operands.len()
                ),
            )
        })
    }

    /// The index of the operand stored in encoding field `field` (`"SRC0"`, `"VDST"`).
    pub fn operand_index(&self, field: &str) -> Option<usize> {
        let enc = self.ins.encoding();
        self.ins.form_info().operands.iter().position(|o| {
            o.field
                .is_some_and(|f| enc.fields[f as usize].name == field)
        })
    }

    /// The operand stored in encoding field `field`.
    pub fn src_of(&self, field: &str) -> Result<Src, ExecError> {
        self.operand_index(field)
            .map(|i| self.operands[i])
            .ok_or_else(|| {
                ExecError::illegal(
                    field,
                    format!("{} has no operand in field {field}", self.ins.info().name),
                )
            })
    }

    /// The mnemonic (for error messages).
    pub fn mnemonic(&self) -> &'static str {
        self.ins.info().mnemonic
    }
}

impl std::ops::Deref for Decoded {
    type Target = Instruction;
    fn deref(&self) -> &Instruction {
        &self.ins
    }
}

/// Where the flat address space's apertures are, and the wave's private memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Apertures {
    /// Flat addresses `shared_base..shared_base + 2^32` reach LDS.
    pub shared_base: u64,
    /// Flat addresses `private_base..private_base + 2^32` reach scratch.
    pub private_base: u64,
}

impl Default for Apertures {
    fn default() -> Self {
        Apertures {
            shared_base: 0x1000_0000_0000_0000,
            private_base: 0x2000_0000_0000_0000,
        }
    }
}

/// Where a flat address goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FlatTarget {
    Global(u64),
    /// An LDS byte offset.
    Lds(u64),
    /// A scratch (per-lane private) offset.
    Scratch(u64),
}

/// The wave's private memory: each lane owns `per_lane` bytes at
/// `base + lane * per_lane` in device memory (a linear layout; the hardware swizzles, which
/// programs cannot observe except through flat-to-global aliasing, which the model forbids).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ScratchInfo {
    pub base: u64,
    pub per_lane: u64,
}

/// One wave's state.
#[derive(Clone, Debug)]
pub struct Wave {
    pub wave64: bool,
    /// `s0..s127` (plain SGPRs only: VCC, M0, EXEC, TTMPs are separate fields).
    pub sgpr: [u32; SGPR_FILE],
    /// How many SGPRs the kernel may use (reads and writes beyond fail).
    pub num_sgprs: u32,
    pub ttmp: [u32; TTMP_COUNT],
    /// `vgpr[reg * lanes + lane]`.
    pub vgpr: Vec<u32>,
    pub num_vgprs: u32,
    /// CDNA accumulation registers, same layout as `vgpr`.
    pub agpr: Vec<u32>,
    pub num_agprs: u32,
    pub exec: u64,
    pub vcc: u64,
    pub scc: bool,
    pub m0: u32,
    pub mode: Mode,
    pub status: Status,
    pub trapsts: u32,
    /// Byte address of the executing instruction.
    pub pc: u64,
    pub flat_scratch: u64,
    pub xnack_mask: u64,
    /// Trap base and memory addresses (`TBA`, `TMA`).
    pub tba: u64,
    pub tma: u64,
    pub apertures: Apertures,
    pub scratch: ScratchInfo,
    /// HW_ID-like identification: the workgroup's ids and the wave's index in it.
    pub workgroup_id: [u32; 3],
    pub wave_in_group: u32,
    pub halted: bool,
    pub ended: bool,
    /// Instructions executed.
    pub steps: u64,
}

impl Wave {
    /// A zeroed wave with `num_vgprs` VGPRs (and `num_agprs` AGPRs), EXEC all lanes.
    pub fn new(wave64: bool, num_vgprs: u32, num_agprs: u32) -> Wave {
        let lanes = if wave64 { 64 } else { 32 };
        Wave {
            wave64,
            sgpr: [0; SGPR_FILE],
            num_sgprs: 106,
            ttmp: [0; TTMP_COUNT],
            vgpr: vec![0; num_vgprs as usize * lanes],
            num_vgprs,
            agpr: vec![0; num_agprs as usize * lanes],
            num_agprs,
            exec: if wave64 { u64::MAX } else { u32::MAX as u64 },
            vcc: 0,
            scc: false,
            m0: 0,
            mode: Mode::DEFAULT,
            status: Status(0),
            trapsts: 0,
            pc: 0,
            flat_scratch: 0,
            xnack_mask: 0,
            tba: 0,
            tma: 0,
            apertures: Apertures::default(),
            scratch: ScratchInfo::default(),
            workgroup_id: [0; 3],
            wave_in_group: 0,
            halted: false,
            ended: false,
            steps: 0,
        }
    }

    /// Zeroes every register and flag, keeping the allocations (a dispatch reuses its waves
    /// from one workgroup to the next).
    pub fn reset(&mut self) {
        let fresh = Wave {
            vgpr: Vec::new(),
            agpr: Vec::new(),
            ..Wave::new(self.wave64, 0, 0)
        };
        let (mut vgpr, mut agpr) = (
            std::mem::take(&mut self.vgpr),
            std::mem::take(&mut self.agpr),
        );
        vgpr.fill(0);
        agpr.fill(0);
        let (num_vgprs, num_agprs) = (self.num_vgprs, self.num_agprs);
        *self = Wave {
            vgpr,
            agpr,
            num_vgprs,
            num_agprs,
            ..fresh
        };
    }

    /// 32 or 64.
    #[inline]
    pub fn lanes(&self) -> usize {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    /// The mask of lanes that exist (`0xffff_ffff` in wave32).
    #[inline]
    pub fn lane_mask(&self) -> u64 {
        if self.wave64 {
            u64::MAX
        } else {
            u32::MAX as u64
        }
    }

    /// EXEC restricted to existing lanes.
    #[inline]
    pub fn exec_mask(&self) -> u64 {
        self.exec & self.lane_mask()
    }

    /// The active lanes, lowest first.
    #[inline]
    pub fn active_lanes(&self) -> LaneIter {
        LaneIter(self.exec_mask())
    }

    /// STATUS with SCC, EXECZ and VCCZ merged in (what `S_GETREG` of STATUS reads).
    pub fn status_value(&self) -> u32 {
        let mut s = self.status;
        s.set(Status::SCC, self.scc);
        s.set(Status::EXECZ, self.exec_mask() == 0);
        s.set(Status::VCCZ, self.vcc & self.lane_mask() == 0);
        s.0
    }

    // ---- scalar registers ----

    fn sgpr_check(&self, index: u32, count: u32) -> Result<usize, ExecError> {
        if index + count > self.num_sgprs.min(SGPR_FILE as u32) {
            return Err(ExecError::RegisterOutOfRange {
                file: RegFile::Sgpr,
                index: index + count - 1,
                limit: self.num_sgprs,
            });
        }
        Ok(index as usize)
    }

    #[inline]
    pub fn read_sgpr(&self, index: u32) -> Result<u32, ExecError> {
        Ok(self.sgpr[self.sgpr_check(index, 1)?])
    }

    #[inline]
    pub fn write_sgpr(&mut self, index: u32, v: u32) -> Result<(), ExecError> {
        let i = self.sgpr_check(index, 1)?;
        self.sgpr[i] = v;
        Ok(())
    }

    /// `s[index:index+1]` as a 64-bit value (low dword first).
    #[inline]
    pub fn read_sgpr_pair(&self, index: u32) -> Result<u64, ExecError> {
        let i = self.sgpr_check(index, 2)?;
        Ok(self.sgpr[i] as u64 | (self.sgpr[i + 1] as u64) << 32)
    }

    #[inline]
    pub fn write_sgpr_pair(&mut self, index: u32, v: u64) -> Result<(), ExecError> {
        let i = self.sgpr_check(index, 2)?;
        self.sgpr[i] = v as u32;
        self.sgpr[i + 1] = (v >> 32) as u32;
        Ok(())
    }

    fn read_special(&self, s: Special) -> u32 {
        use Special::*;
        match s {
            VccLo => self.vcc as u32,
            VccHi => (self.vcc >> 32) as u32,
            ExecLo => self.exec as u32,
            ExecHi => (self.exec >> 32) as u32,
            M0 => self.m0,
            Null => 0,
            Scc => self.scc as u32,
            Vccz => (self.vcc & self.lane_mask() == 0) as u32,
            Execz => (self.exec_mask() == 0) as u32,
            FlatScratchLo => self.flat_scratch as u32,
            FlatScratchHi => (self.flat_scratch >> 32) as u32,
            XnackMaskLo => self.xnack_mask as u32,
            XnackMaskHi => (self.xnack_mask >> 32) as u32,
            SharedBase => (self.apertures.shared_base >> 32) as u32,
            // The apertures are 4 GiB aligned: base and limit share their high dword.
            SharedLimit => (self.apertures.shared_base >> 32) as u32,
            PrivateBase => (self.apertures.private_base >> 32) as u32,
            PrivateLimit => (self.apertures.private_base >> 32) as u32,
            PopsExitingWaveId => 0,
        }
    }

    fn write_special(&mut self, s: Special, v: u32) -> Result<(), ExecError> {
        use Special::*;
        let lo = |x: u64| (x & !0xffff_ffff) | v as u64;
        let hi = |x: u64| (x & 0xffff_ffff) | (v as u64) << 32;
        match s {
            VccLo => self.vcc = lo(self.vcc),
            VccHi => self.vcc = hi(self.vcc),
            ExecLo => self.exec = lo(self.exec),
            ExecHi => self.exec = hi(self.exec),
            M0 => self.m0 = v,
            Null => {}
            FlatScratchLo => self.flat_scratch = lo(self.flat_scratch),
            FlatScratchHi => self.flat_scratch = hi(self.flat_scratch),
            XnackMaskLo => self.xnack_mask = lo(self.xnack_mask),
            XnackMaskHi => self.xnack_mask = hi(self.xnack_mask),
            other => return Err(ExecError::illegal(format!("{other:?}"), "is read-only")),
        }
        Ok(())
    }

    /// A scalar operand's 32 bits (the same for every lane). Float constants read as f32.
    #[inline]
    pub fn read_scalar_b32(&self, src: Src) -> Result<u32, ExecError> {
        match src {
            Src::Sgpr(i) => self.read_sgpr(i as u32),
            Src::Special(s) => Ok(self.read_special(s)),
            Src::Ttmp(i) => {
                self.ttmp
                    .get(i as usize)
                    .copied()
                    .ok_or(ExecError::RegisterOutOfRange {
                        file: RegFile::Ttmp,
                        index: i as u32,
                        limit: TTMP_COUNT as u32,
                    })
            }
            Src::Int(v) => Ok(v as u32),
            Src::Float(f) => Ok(f.bits32()),
            Src::Literal(l) | Src::Imm(l) => Ok(l as u32),
            Src::Vgpr(_) | Src::Agpr(_) => Err(ExecError::illegal(
                format!("{src:?}"),
                "a vector register where a scalar is needed",
            )),
            Src::Other(n) => Err(ExecError::illegal(n, "not modelled by the emulator")),
        }
    }

    /// A scalar operand's 16 bits (float constants read as f16).
    pub fn read_scalar_b16(&self, src: Src) -> Result<u16, ExecError> {
        match src {
            Src::Float(f) => Ok(f.bits16()),
            other => self.read_scalar_b32(other).map(|v| v as u16),
        }
    }

    /// A 64-bit scalar operand: register pairs, inline constants sign-extended, float
    /// constants as f64. A 32-bit literal is zero-extended, or for f64 operands
    /// (`literal_is_f64_high`) placed in the high dword, as the hardware does.
    pub fn read_scalar_b64(&self, src: Src, literal_is_f64_high: bool) -> Result<u64, ExecError> {
        match src {
            Src::Sgpr(i) => self.read_sgpr_pair(i as u32),
            Src::Special(s) if s.pair_base() => {
                Ok(self.read_special(s) as u64 | (self.read_special(next_special(s)) as u64) << 32)
            }
            Src::Special(s) => Ok(self.read_special(s) as u64),
            Src::Ttmp(i) if (i as usize) + 1 < TTMP_COUNT => {
                Ok(self.ttmp[i as usize] as u64 | (self.ttmp[i as usize + 1] as u64) << 32)
            }
            Src::Int(v) => Ok(v as u64),
            Src::Float(f) => Ok(f.bits64()),
            Src::Literal(l) if l >> 32 == 0 && literal_is_f64_high => Ok(l << 32),
            Src::Literal(l) | Src::Imm(l) => Ok(l),
            other => self.read_scalar_b32(other).map(|v| v as u64),
        }
    }

    /// Writes a 32-bit scalar destination.
    #[inline]
    pub fn write_scalar_b32(&mut self, dst: Src, v: u32) -> Result<(), ExecError> {
        match dst {
            Src::Sgpr(i) => self.write_sgpr(i as u32, v),
            Src::Special(s) => self.write_special(s, v),
            Src::Ttmp(i) if (i as usize) < TTMP_COUNT => {
                self.ttmp[i as usize] = v;
                Ok(())
            }
            other => Err(ExecError::illegal(
                format!("{other:?}"),
                "cannot be written",
            )),
        }
    }

    /// Writes a 64-bit scalar destination (a pair).
    pub fn write_scalar_b64(&mut self, dst: Src, v: u64) -> Result<(), ExecError> {
        match dst {
            Src::Sgpr(i) => self.write_sgpr_pair(i as u32, v),
            Src::Special(s) if s.pair_base() => {
                self.write_special(s, v as u32)?;
                self.write_special(next_special(s), (v >> 32) as u32)
            }
            Src::Special(Special::Null) => Ok(()),
            Src::Ttmp(i) if (i as usize) + 1 < TTMP_COUNT => {
                self.ttmp[i as usize] = v as u32;
                self.ttmp[i as usize + 1] = (v >> 32) as u32;
                Ok(())
            }
            other => Err(ExecError::illegal(
                format!("{other:?}"),
                "cannot be written as 64 bits",
            )),
        }
    }

    // ---- vector registers ----

    #[inline]
    fn vgpr_check(&self, file: RegFile, reg: u32, count: u32) -> Result<usize, ExecError> {
        let limit = if file == RegFile::Agpr {
            self.num_agprs
        } else {
            self.num_vgprs
        };
        if reg + count > limit {
            return Err(ExecError::RegisterOutOfRange {
                file,
                index: reg + count - 1,
                limit,
            });
        }
        Ok(reg as usize * self.lanes())
    }

    /// All lanes of VGPR `reg`.
    #[inline]
    pub fn vgpr_lanes(&self, reg: u32) -> Result<&[u32], ExecError> {
        let start = self.vgpr_check(RegFile::Vgpr, reg, 1)?;
        Ok(&self.vgpr[start..start + self.lanes()])
    }

    #[inline]
    pub fn vgpr_lanes_mut(&mut self, reg: u32) -> Result<&mut [u32], ExecError> {
        let start = self.vgpr_check(RegFile::Vgpr, reg, 1)?;
        let n = self.lanes();
        Ok(&mut self.vgpr[start..start + n])
    }

    #[inline]
    pub fn agpr_lanes(&self, reg: u32) -> Result<&[u32], ExecError> {
        let start = self.vgpr_check(RegFile::Agpr, reg, 1)?;
        Ok(&self.agpr[start..start + self.lanes()])
    }

    #[inline]
    pub fn agpr_lanes_mut(&mut self, reg: u32) -> Result<&mut [u32], ExecError> {
        let start = self.vgpr_check(RegFile::Agpr, reg, 1)?;
        let n = self.lanes();
        Ok(&mut self.agpr[start..start + n])
    }

    /// One lane of VGPR `reg` (the pseudocode's `VGPR[lane][reg]`).
    #[inline]
    pub fn read_vgpr(&self, reg: u32, lane: usize) -> Result<u32, ExecError> {
        Ok(self.vgpr_lanes(reg)?[lane & (self.lanes() - 1)])
    }

    #[inline]
    pub fn write_vgpr(&mut self, reg: u32, lane: usize, v: u32) -> Result<(), ExecError> {
        let n = self.lanes();
        self.vgpr_lanes_mut(reg)?[lane & (n - 1)] = v;
        Ok(())
    }

    /// `v[reg:reg+1]` of one lane as 64 bits.
    #[inline]
    pub fn read_vgpr_b64(&self, reg: u32, lane: usize) -> Result<u64, ExecError> {
        let start = self.vgpr_check(RegFile::Vgpr, reg, 2)?;
        let l = lane & (self.lanes() - 1);
        Ok(self.vgpr[start + l] as u64 | (self.vgpr[start + self.lanes() + l] as u64) << 32)
    }

    #[inline]
    pub fn write_vgpr_b64(&mut self, reg: u32, lane: usize, v: u64) -> Result<(), ExecError> {
        let start = self.vgpr_check(RegFile::Vgpr, reg, 2)?;
        let n = self.lanes();
        let l = lane & (n - 1);
        self.vgpr[start + l] = v as u32;
        self.vgpr[start + n + l] = (v >> 32) as u32;
        Ok(())
    }

    /// Fills `out[..lanes]` with a 32-bit source operand's value in every lane (a VGPR's
    /// lanes, or a scalar value repeated): the executor then loops over plain arrays.
    #[inline]
    pub fn load_src_b32(&self, src: Src, out: &mut [u32; MAX_LANES]) -> Result<(), ExecError> {
        // Fixed-size copies compile to a few vector moves (a variable length calls memcpy).
        let copy = |out: &mut [u32; MAX_LANES], lanes: &[u32]| {
            if lanes.len() == MAX_LANES {
                out.copy_from_slice(lanes)
            } else {
                out[..MAX_LANES / 2].copy_from_slice(&lanes[..MAX_LANES / 2])
            }
        };
        match src {
            Src::Vgpr(r) => copy(out, self.vgpr_lanes(r as u32)?),
            Src::Agpr(r) => copy(out, self.agpr_lanes(r as u32)?),
            s => *out = [self.read_scalar_b32(s)?; MAX_LANES],
        }
        Ok(())
    }

    /// A 32-bit source operand's value in one lane.
    #[inline]
    pub fn read_lane_b32(&self, src: Src, lane: usize) -> Result<u32, ExecError> {
        match src {
            Src::Vgpr(r) => self.read_vgpr(r as u32, lane),
            Src::Agpr(r) => Ok(self.agpr_lanes(r as u32)?[lane & (self.lanes() - 1)]),
            s => self.read_scalar_b32(s),
        }
    }

    /// A 64-bit source operand's value in one lane.
    pub fn read_lane_b64(
        &self,
        src: Src,
        lane: usize,
        literal_is_f64_high: bool,
    ) -> Result<u64, ExecError> {
        match src {
            Src::Vgpr(r) => self.read_vgpr_b64(r as u32, lane),
            Src::Agpr(r) => {
                let start = self.vgpr_check(RegFile::Agpr, r as u32, 2)?;
                let l = lane & (self.lanes() - 1);
                Ok(
                    self.agpr[start + l] as u64
                        | (self.agpr[start + self.lanes() + l] as u64) << 32,
                )
            }
            s => self.read_scalar_b64(s, literal_is_f64_high),
        }
    }

    /// Writes `values[lane]` to VGPR `reg` for the lanes set in `mask`.
    #[inline]
    pub fn write_vgpr_masked(
        &mut self,
        reg: u32,
        values: &[u32; MAX_LANES],
        mask: u64,
    ) -> Result<(), ExecError> {
        let n = self.lanes();
        let dst = self.vgpr_lanes_mut(reg)?;
        if mask == u64::MAX >> (64 - n) {
            if n == MAX_LANES {
                dst.copy_from_slice(values);
            } else {
                dst[..MAX_LANES / 2].copy_from_slice(&values[..MAX_LANES / 2]);
            }
        } else {
            for lane in LaneIter(mask & (u64::MAX >> (64 - n))) {
                dst[lane] = values[lane];
            }
        }
        Ok(())
    }

    /// Writes a 32-bit vector destination operand (VGPR or AGPR) in one lane.
    #[inline]
    pub fn write_lane_b32(&mut self, dst: Src, lane: usize, v: u32) -> Result<(), ExecError> {
        let n = self.lanes();
        match dst {
            Src::Vgpr(r) => self.write_vgpr(r as u32, lane, v),
            Src::Agpr(r) => {
                self.agpr_lanes_mut(r as u32)?[lane & (n - 1)] = v;
                Ok(())
            }
            other => Err(ExecError::illegal(
                format!("{other:?}"),
                "is not a vector register",
            )),
        }
    }

    // ---- memory address translation ----

    /// Where a flat address goes.
    pub fn flat_target(&self, addr: u64) -> FlatTarget {
        let a = self.apertures;
        if addr.wrapping_sub(a.shared_base) < 1 << 32 {
            FlatTarget::Lds(addr - a.shared_base)
        } else if addr.wrapping_sub(a.private_base) < 1 << 32 {
            FlatTarget::Scratch(addr - a.private_base)
        } else {
            FlatTarget::Global(addr)
        }
    }

    /// The device address of `size` bytes at scratch offset `offset` of `lane`, or a scratch
    /// fault when they leave the lane's private memory.
    pub fn scratch_address(
        &self,
        lane: usize,
        offset: u64,
        size: u64,
        write: bool,
    ) -> Result<u64, ExecError> {
        let s = self.scratch;
        match offset.checked_add(size) {
            Some(end) if end <= s.per_lane => Ok(s.base + lane as u64 * s.per_lane + offset),
            _ => Err(ExecError::lane_fault(
                super::MemError {
                    segment: super::Segment::Scratch,
                    addr: offset,
                    size,
                    write,
                    kind: super::MemErrorKind::OutOfBounds {
                        base: 0,
                        size: s.per_lane,
                    },
                },
                lane,
            )),
        }
    }
}

fn next_special(s: Special) -> Special {
    match s {
        Special::VccLo => Special::VccHi,
        Special::ExecLo => Special::ExecHi,
        Special::FlatScratchLo => Special::FlatScratchHi,
        Special::XnackMaskLo => Special::XnackMaskHi,
        other => other,
    }
}

/// Iterates over the set bits of a lane mask, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct LaneIter(pub u64);

impl Iterator for LaneIter {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let lane = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(lane)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for LaneIter {}
