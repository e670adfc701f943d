//! The names the pseudocode may use without declaring them: instruction operands, wave state,
//! register files, memories and named constants. Anything else must be assigned or declared
//! before it is read, or the type checker reports it as undeclared.

use super::types::{Kind, Ty};

/// How wide an operand is when read without a type accessor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Width {
    /// The instruction's data type (from its mnemonic, see [`natural_ty`]).
    Natural,
    Fixed(u32),
}

/// What a predeclared name denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NameKind {
    /// An instruction operand or state register: a bag of bits, read at its width, typed by
    /// accessors (`S0.u32`).
    Register(Width),
    /// An operand named in lowercase by RDNA4/CDNA4 address computations (`vgpr_a`, `offset`):
    /// a register when read first, an ordinary variable when assigned first.
    SoftRegister(Width),
    /// A wave-wide condition (`WAVE64`).
    Flag,
    /// An array of registers or records indexed by number (`HW_REGISTERS[id]`).
    RegArray(Ty),
    /// Byte-addressed memory (`MEM[addr]`); the bool is true for LDS.
    Memory(bool),
    /// `VGPR[lane][reg]` (RDNA2's `VMEM[reg][lane]` is the same file with indices swapped).
    Vgprs { reg_first: bool },
    /// `SGPR[reg]`.
    Sgprs,
    /// A named constant of a fixed type.
    Const(Ty),
    /// A float constant that takes the float type of its context, like an unsuffixed float
    /// literal (`PI`, `INF`).
    FloatConst,
}

pub fn lookup(name: &str) -> Option<NameKind> {
    use NameKind::*;
    use Width::*;
    Some(match name {
        // Instruction operands at the instruction's data width.
        "S0" | "S1" | "S2" | "S3" | "D0" | "D1" | "D" | "S" | "SRC0" | "SRC1" | "SRC2" | "DST"
        | "VDST" | "VDATA" | "SDATA" | "SDST" | "DATA" | "DATA0" | "DATA1" | "DATA2"
        | "RETURN_DATA" | "K" | "LITERAL" => Register(Natural),
        // Address and offset operands, instruction fields.
        "ADDR" | "ADDR_BASE" | "VADDR" | "SADDR" | "SBASE" | "SOFFSET" | "SRSRC"
        | "RETURN_ADDR" | "INST0" | "INST1" | "D_ADDR" | "S0_ADDR" | "P0" | "P10" | "P20"
        | "attr_word" | "INST_OFFSET" | "INST" | "SDWA_SRC0_SEL" => Register(Fixed(32)),
        "SGPR_ADDR" | "TADDR" => Register(Fixed(64)),
        "OFFSET" | "SIMM16" => Register(Fixed(16)),
        "OFFSET0" | "OFFSET1" => Register(Fixed(8)),
        "IOFFSET" => Register(Fixed(24)),
        "SIMM32" => Register(Fixed(32)),
        "OPSEL" => Register(Fixed(4)),
        "OPSEL_HI" | "NEG" => Register(Fixed(3)),
        "vgpr_a" | "vgpr_o" | "sgpr_base" | "sgpr_o" | "offset" | "v_addr" | "v_addr_off"
        | "flat_scratch" | "s_saddr" | "s_saddr_off" => SoftRegister(Fixed(32)),
        // Wave state.
        "EXEC" | "VCC" | "PC" => Register(Fixed(64)),
        "EXEC_LO" | "EXEC_HI" | "VCC_LO" | "VCC_HI" | "M0" | "MODE" | "TRAPSTS" | "WAVE_MODE"
        | "WAVE_STATUS" | "NUM_VGPRS" | "VGT_GS_MAX_WAVE_ID" | "ROUND_MODE" => Register(Fixed(32)),
        "SCC" | "VCCZ" | "EXECZ" | "PRIV" | "IEEE_MODE" | "vcc_out" => Register(Fixed(1)),
        // RDNA2's names for WAVE_STATUS.COND_DBG_SYS / COND_DBG_USER.
        "conditional_debug_system" | "conditional_debug_user" => Register(Fixed(1)),
        // Trap base and memory addresses.
        "TBA" | "TMA" => Register(Fixed(64)),
        // The lane's own number (RDNA2 spells it threadId or ThreadPosition).
        "laneId" | "laneID" | "threadId" | "ThreadPosition" => Const(Ty::U32),
        "WAVE64" | "WAVE32" | "wave32" => Flag,
        // Register arrays and memories.
        "HW_REGISTERS" | "hardware_reg" | "TTMP" | "BARRIER_STATE" => RegArray(Ty::B32),
        "WAVE_BARRIER_COMPLETE" => RegArray(Ty::U1),
        "MEM" => Memory(false),
        "LDS" | "DS" | "LDS_GS" => Memory(true),
        "VGPR" => Vgprs { reg_first: false },
        "VMEM" => Vgprs { reg_first: true },
        "SGPR" | "SMEM" => Sgprs,
        // Constants.
        "PI" | "INF" | "NAN" | "NaN" | "sNaN" | "DENORM" | "overflow" | "underflow" => FloatConst,
        "MAX_FLOAT_F32" | "OVERFLOW_F32" | "UNDERFLOW_F32" => Const(Ty::F32),
        "OVERFLOW_F64" | "UNDERFLOW_F64" => Const(Ty::F64),
        "ROUND_TOWARD_ZERO" | "ROUND_NEAREST_EVEN" => Const(Ty::U32),
        // SDWA operand selects (`SDWA_SRC0_SEL == BYTE1.b3`).
        "BYTE0" | "BYTE1" | "BYTE2" | "BYTE3" | "WORD0" | "WORD1" => Const(Ty::U32),
        // RDNA2: the operand size of the instruction in bits, and the shift of S_LSHL<N>_ADD_U32.
        "opcode_size_in_bits" | "N" => Const(Ty::U32),
        _ => return None,
    })
}

/// The width of a field of a state register or record, if the field exists.
pub fn field_width(register: &str, field: &str) -> Option<u32> {
    Some(match (register, field) {
        ("WAVE_MODE" | "MODE", "IEEE") => 1,
        ("WAVE_MODE", "CSP") => 3,
        ("WAVE_MODE", "GPR_IDX_EN") => 1,
        ("MODE", "SCALAR_PREFETCH_EN") => 1,
        ("WAVE_STATUS", "PRIV" | "COND_DBG_USER" | "COND_DBG_SYS") => 1,
        ("TRAPSTS", "INVALID") => 1,
        ("BARRIER_STATE", "signalCnt" | "memberCnt") => 7,
        ("BARRIER_STATE", "valid") => 1,
        ("TADDR", "X" | "Y" | "Z" | "W") => 64,
        ("INST", "OMOD") => 2,
        ("INST", "ABS" | "NEG") => 3,
        // RDNA2: the register number an operand names (`SGPR[D.addr]`).
        (_, "addr") if matches!(lookup(register), Some(NameKind::Register(Width::Natural))) => 32,
        _ => return None,
    })
}

/// The data type of an instruction, from the last type in its mnemonic: `S_ADD_U32` → u32,
/// `V_CMP_LT_F32` → f32, `V_CVT_F64_I32` → i32, `DS_ADD_U64` → u64, `FLAT_LOAD_DWORDX2` → b64,
/// `BUFFER_LOAD_UBYTE` → b8, `V_PK_ADD_F16` → b32 (two halves); b32 when the mnemonic names
/// none. Operands read without an
/// accessor (mostly in the RDNA2 dialect: `D = S0 & S1`, `MEM[ADDR] += DATA`) have this type.
pub fn natural_ty(mnemonic: &str) -> Ty {
    let ty = last_type(mnemonic);
    // Packed instructions (`V_PK_ADD_F16`, `DS_PK_ADD_BF16`) hold two values per operand.
    if mnemonic.split('_').any(|t| t.eq_ignore_ascii_case("PK")) && ty.width <= 32 {
        return Ty::bits(2 * ty.width);
    }
    ty
}

fn last_type(mnemonic: &str) -> Ty {
    for token in mnemonic.rsplit('_') {
        let t = token.to_ascii_uppercase();
        let ty = match t.as_str() {
            "X2" | "DWORDX2" => Some(Ty::bits(64)),
            "X3" | "DWORDX3" => Some(Ty::bits(96)),
            "X4" | "DWORDX4" => Some(Ty::bits(128)),
            "DWORD" => Some(Ty::B32),
            "SHORT" | "USHORT" | "SSHORT" => Some(Ty::bits(16)),
            "BYTE" | "UBYTE" | "SBYTE" => Some(Ty::bits(8)),
            _ => {
                let digits = t.trim_start_matches(['B', 'U', 'I', 'F']);
                let prefix = &t[..t.len() - digits.len()];
                let width = if digits.bytes().all(|b| b.is_ascii_digit()) {
                    digits.parse::<u32>().ok()
                } else {
                    None
                };
                let width = width.filter(|w| [8, 16, 32, 64, 96, 128, 256, 512].contains(w));
                let kind = match prefix {
                    "B" => Some(Kind::Bits),
                    "U" => Some(Kind::Unsigned),
                    "I" => Some(Kind::Signed),
                    "F" if matches!(width, Some(16 | 32 | 64)) => Some(Kind::Float),
                    "BF" if width == Some(16) => Some(Kind::BFloat),
                    _ => None,
                };
                kind.zip(width).map(|(k, w)| Ty::new(k, w))
            }
        };
        if let Some(ty) = ty {
            return ty;
        }
    }
    Ty::B32
}

/// The register type read without an accessor.
pub fn register_ty(width: Width, natural: Ty) -> Ty {
    match width {
        Width::Natural => natural,
        Width::Fixed(w) => Ty::new(Kind::Bits, w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_type_comes_from_the_last_type_in_the_mnemonic() {
        assert_eq!(natural_ty("S_ADD_U32"), Ty::U32);
        assert_eq!(natural_ty("DS_ADD_U64"), Ty::U64);
        assert_eq!(natural_ty("V_CVT_F64_I32"), Ty::I32);
        assert_eq!(natural_ty("V_CMP_LT_F32"), Ty::F32);
        assert_eq!(natural_ty("FLAT_ATOMIC_SWAP_X2"), Ty::B64);
        assert_eq!(natural_ty("BUFFER_LOAD_UBYTE"), Ty::bits(8));
        assert_eq!(natural_ty("S_NOP"), Ty::B32);
        assert_eq!(natural_ty("V_DOT2_F32_BF16"), Ty::new(Kind::BFloat, 16));
        assert_eq!(natural_ty("V_CVT_F32_FP8"), Ty::F32);
        assert_eq!(natural_ty("DS_PK_ADD_F16"), Ty::B32);
        assert_eq!(natural_ty("V_PK_FMA_F32"), Ty::B64);
    }

    #[test]
    fn names_are_classified() {
        assert_eq!(lookup("S0"), Some(NameKind::Register(Width::Natural)));
        assert_eq!(lookup("EXEC"), Some(NameKind::Register(Width::Fixed(64))));
        assert_eq!(lookup("MEM"), Some(NameKind::Memory(false)));
        assert_eq!(lookup("tmp"), None);
        assert_eq!(field_width("WAVE_STATUS", "PRIV"), Some(1));
        assert_eq!(field_width("D", "addr"), Some(32));
        assert_eq!(field_width("EXEC", "addr"), None);
    }
}
