//! Facts LLVM prints that the generated tables do not carry.
//!
//! The tables hold the bit layouts of AMD's structured operands (`OPR_HWREG`, `OPR_SENDMSG`,
//! `OPR_DELAY`, ...) but not the names of their field values, and some of LLVM's spellings or
//! per-generation availability differ from AMD's lists. Each entry says why it exists. Entries
//! are facts (numbers, names and the generations LLVM knows them on), checked against
//! `llvm-mc` by the conformance harness.

/// Generations, by the short names of [`crate::IsaSpec::generation`].
pub type Generations = &'static [&'static str];

/// The generations whose LLVM GFX major version is in `lo..=hi`, from the per-generation
/// traits in `isa-vocab` (the one place that says which generation is which GFX level).
macro_rules! gfx {
    ($lo:expr, $hi:expr) => {
        &isa_vocab::gfx_names::<{ isa_vocab::gfx_count($lo, $hi) }>($lo, $hi)
    };
}

pub const GFX9: Generations = &isa_vocab::GFX9;
pub const GFX9_10: Generations = gfx!(9, 10);
pub const GFX9_11: Generations = gfx!(9, 11);
pub const GFX10_11: Generations = gfx!(10, 11);
pub const GFX10: Generations = gfx!(10, 10);
pub const GFX11: Generations = gfx!(11, 11);
pub const GFX11_12: Generations = &isa_vocab::GFX11_UP;
/// RDNA 4 and CDNA 5 (LLVM's gfx12 family, gfx1200 and gfx1250).
pub const GFX12: Generations = gfx!(12, 12);
/// LLVM's gfx940 line within GFX9 (gfx942, gfx950): not a GFX level of its own.
pub const GFX940: Generations = &["cdna3", "cdna4"];
pub const ALL: Generations = &isa_vocab::NAMES;

/// A name LLVM prints for a value, on some generations, with the reason it is listed here.
#[derive(Debug)]
pub struct NamedValue {
    pub value: u32,
    pub name: &'static str,
    pub generations: Generations,
    pub reason: &'static str,
}

impl NamedValue {
    pub fn applies(&self, generation: &str) -> bool {
        self.generations.contains(&generation)
    }
}

/// The name LLVM prints for `value` in `table` on `generation`.
pub fn name_of(table: &'static [NamedValue], generation: &str, value: u32) -> Option<&'static str> {
    table
        .iter()
        .find(|e| e.value == value && e.applies(generation))
        .map(|e| e.name)
}

const fn nv(
    value: u32,
    name: &'static str,
    generations: Generations,
    reason: &'static str,
) -> NamedValue {
    NamedValue {
        value,
        name,
        generations,
        reason,
    }
}

const SAME: &str = "AMD's field value has this name, but the tables keep no field value names";
const RENAMED: &str = "LLVM's spelling; AMD's list names this register differently";
const LLVM_ONLY: &str = "LLVM names this register on this generation; AMD's list does not";

/// `hwreg(...)` register ids (the ID field of `OPR_HWREG`).
pub static HWREG: &[NamedValue] = &[
    nv(1, "HW_REG_MODE", GFX9_11, SAME),
    nv(1, "HW_REG_WAVE_MODE", GFX12, SAME),
    nv(2, "HW_REG_STATUS", GFX9_11, SAME),
    nv(2, "HW_REG_WAVE_STATUS", GFX12, SAME),
    nv(3, "HW_REG_TRAPSTS", GFX9_11, SAME),
    nv(4, "HW_REG_HW_ID", GFX9, SAME),
    nv(4, "HW_REG_WAVE_STATE_PRIV", GFX12, SAME),
    nv(5, "HW_REG_GPR_ALLOC", GFX9_11, SAME),
    nv(5, "HW_REG_WAVE_GPR_ALLOC", GFX12, SAME),
    nv(6, "HW_REG_LDS_ALLOC", GFX9_11, SAME),
    nv(6, "HW_REG_WAVE_LDS_ALLOC", GFX12, SAME),
    nv(
        7,
        "HW_REG_IB_STS",
        ALL,
        "LLVM names it on every generation; AMD's RDNA 4 list leaves it out",
    ),
    nv(10, "HW_REG_PERF_SNAPSHOT_DATA", GFX12, SAME),
    nv(11, "HW_REG_PERF_SNAPSHOT_PC_LO", GFX12, SAME),
    nv(12, "HW_REG_PERF_SNAPSHOT_PC_HI", GFX12, SAME),
    nv(15, "HW_REG_SH_MEM_BASES", GFX9_11, RENAMED),
    nv(15, "HW_REG_PERF_SNAPSHOT_DATA1", GFX12, SAME),
    nv(16, "HW_REG_TBA_LO", GFX9_10, RENAMED),
    nv(16, "HW_REG_PERF_SNAPSHOT_DATA2", GFX12, SAME),
    nv(17, "HW_REG_TBA_HI", GFX9_10, RENAMED),
    nv(17, "HW_REG_WAVE_EXCP_FLAG_PRIV", GFX12, SAME),
    nv(18, "HW_REG_TMA_LO", GFX9_10, RENAMED),
    nv(18, "HW_REG_PERF_SNAPSHOT_PC_LO", GFX11, SAME),
    nv(18, "HW_REG_WAVE_EXCP_FLAG_USER", GFX12, SAME),
    nv(19, "HW_REG_TMA_HI", GFX9_10, RENAMED),
    nv(19, "HW_REG_PERF_SNAPSHOT_PC_HI", GFX11, SAME),
    nv(19, "HW_REG_WAVE_TRAP_CTRL", GFX12, SAME),
    nv(20, "HW_REG_FLAT_SCR_LO", GFX10_11, RENAMED),
    nv(20, "HW_REG_XCC_ID", GFX940, SAME),
    nv(20, "HW_REG_WAVE_SCRATCH_BASE_LO", GFX12, SAME),
    nv(21, "HW_REG_FLAT_SCR_HI", GFX10_11, RENAMED),
    nv(21, "HW_REG_SQ_PERF_SNAPSHOT_DATA", GFX940, SAME),
    nv(21, "HW_REG_WAVE_SCRATCH_BASE_HI", GFX12, SAME),
    nv(22, "HW_REG_XNACK_MASK", &["rdna1"], LLVM_ONLY),
    nv(22, "HW_REG_SQ_PERF_SNAPSHOT_DATA1", GFX940, SAME),
    nv(23, "HW_REG_HW_ID1", GFX10_11, SAME),
    nv(23, "HW_REG_SQ_PERF_SNAPSHOT_PC_LO", GFX940, SAME),
    nv(23, "HW_REG_WAVE_HW_ID1", GFX12, SAME),
    nv(24, "HW_REG_HW_ID2", GFX10_11, SAME),
    nv(24, "HW_REG_SQ_PERF_SNAPSHOT_PC_HI", GFX940, SAME),
    nv(24, "HW_REG_WAVE_HW_ID2", GFX12, SAME),
    nv(25, "HW_REG_POPS_PACKER", GFX10, SAME),
    nv(26, "HW_REG_WAVE_SCHED_MODE", GFX12, LLVM_ONLY),
    nv(27, "HW_REG_PERF_SNAPSHOT_DATA", GFX11, SAME),
    nv(28, "HW_REG_IB_STS2", &["cdna5"], SAME),
    nv(
        29,
        "HW_REG_SHADER_CYCLES",
        &["rdna2", "rdna3", "rdna3_5"],
        SAME,
    ),
    nv(29, "HW_REG_SHADER_CYCLES_LO", GFX12, SAME),
    nv(30, "HW_REG_SHADER_CYCLES_HI", GFX12, SAME),
    nv(31, "HW_REG_WAVE_DVGPR_ALLOC_LO", GFX12, LLVM_ONLY),
    nv(32, "HW_REG_WAVE_DVGPR_ALLOC_HI", GFX12, LLVM_ONLY),
    nv(33, "HW_REG_XNACK_STATE_PRIV", &["cdna5"], SAME),
    nv(34, "HW_REG_XNACK_MASK", &["cdna5"], SAME),
];

/// `sendmsg(...)` message ids. Before GFX11 the id is 4 bits with an operation and a stream
/// beside it; from GFX11 on it is the low 8 bits.
pub static SENDMSG: &[NamedValue] = &[
    nv(1, "MSG_INTERRUPT", ALL, SAME),
    nv(2, "MSG_GS", GFX9_10, SAME),
    nv(3, "MSG_GS_DONE", GFX9_10, SAME),
    nv(4, "MSG_SAVEWAVE", GFX9_10, SAME),
    nv(5, "MSG_STALL_WAVE_GEN", GFX9_11, SAME),
    nv(6, "MSG_HALT_WAVES", GFX9_11, SAME),
    nv(7, "MSG_ORDERED_PS_DONE", GFX9_10, SAME),
    nv(8, "MSG_EARLY_PRIM_DEALLOC", GFX9_10, SAME),
    nv(9, "MSG_GS_ALLOC_REQ", ALL, SAME),
    nv(10, "MSG_GET_DOORBELL", GFX9_10, SAME),
    nv(11, "MSG_GET_DDID", GFX10, SAME),
    nv(15, "MSG_SYSMSG", GFX9_10, SAME),
    nv(2, "MSG_HS_TESSFACTOR", GFX11_12, SAME),
    nv(3, "MSG_DEALLOC_VGPRS", GFX11_12, SAME),
    nv(10, "MSG_SAVEWAVE_HAS_TDM", &["cdna5"], LLVM_ONLY),
    nv(0x80, "MSG_RTN_GET_DOORBELL", GFX11_12, SAME),
    nv(0x81, "MSG_RTN_GET_DDID", GFX11_12, SAME),
    nv(0x82, "MSG_RTN_GET_TMA", GFX11_12, SAME),
    nv(0x83, "MSG_RTN_GET_REALTIME", GFX11_12, SAME),
    nv(0x84, "MSG_RTN_SAVE_WAVE", GFX11_12, SAME),
    nv(0x85, "MSG_RTN_GET_TBA", GFX11_12, SAME),
    nv(0x86, "MSG_RTN_GET_TBA_TO_PC", GFX11_12, LLVM_ONLY),
    nv(0x87, "MSG_RTN_GET_SE_AID_ID", GFX12, RENAMED),
    nv(
        0x88,
        "MSG_RTN_GET_CLUSTER_BARRIER_STATE",
        &["cdna5"],
        LLVM_ONLY,
    ),
];

/// Operations of `MSG_GS` / `MSG_GS_DONE` (GS_OP_NOP only with `MSG_GS_DONE`).
pub static SENDMSG_GS_OP: &[NamedValue] = &[
    nv(0, "GS_OP_NOP", GFX9_10, SAME),
    nv(1, "GS_OP_CUT", GFX9_10, SAME),
    nv(2, "GS_OP_EMIT", GFX9_10, SAME),
    nv(3, "GS_OP_EMIT_CUT", GFX9_10, SAME),
];

/// Operations of `MSG_SYSMSG` (LLVM does not accept 3, HOST_TRAP_ACK, from GFX9 on).
pub static SENDMSG_SYSMSG_OP: &[NamedValue] = &[
    nv(1, "SYSMSG_OP_ECC_ERR_INTERRUPT", GFX9_10, LLVM_ONLY),
    nv(2, "SYSMSG_OP_REG_RD", GFX9_10, LLVM_ONLY),
    nv(4, "SYSMSG_OP_TTRACE_PC", GFX9_10, LLVM_ONLY),
];

const DELAY: &str =
    "AMD's name without its `INSTID_`/`INSTSKIP_` prefix; the tables keep no field value names";

/// `s_delay_alu` instruction ids (fields INSTID0 and INSTID1 of `OPR_DELAY`).
pub static DELAY_INSTID: &[NamedValue] = &[
    nv(1, "VALU_DEP_1", ALL, DELAY),
    nv(2, "VALU_DEP_2", ALL, DELAY),
    nv(3, "VALU_DEP_3", ALL, DELAY),
    nv(4, "VALU_DEP_4", ALL, DELAY),
    nv(5, "TRANS32_DEP_1", ALL, DELAY),
    nv(6, "TRANS32_DEP_2", ALL, DELAY),
    nv(7, "TRANS32_DEP_3", ALL, DELAY),
    nv(8, "FMA_ACCUM_CYCLE_1", ALL, DELAY),
    nv(9, "SALU_CYCLE_1", ALL, DELAY),
    nv(10, "SALU_CYCLE_2", ALL, DELAY),
    nv(11, "SALU_CYCLE_3", ALL, DELAY),
];

/// `s_delay_alu` skips (field INSTSKIP of `OPR_DELAY`).
pub static DELAY_INSTSKIP: &[NamedValue] = &[
    nv(0, "SAME", ALL, DELAY),
    nv(1, "NEXT", ALL, DELAY),
    nv(2, "SKIP_1", ALL, DELAY),
    nv(3, "SKIP_2", ALL, DELAY),
    nv(4, "SKIP_3", ALL, DELAY),
    nv(5, "SKIP_4", ALL, DELAY),
];

/// `s_version` microcode versions (field VERSION of `OPR_VERSION`).
pub static VERSION: &[NamedValue] = &[
    nv(0, "UC_VERSION_GFX7", ALL, SAME),
    nv(4, "UC_VERSION_GFX10", ALL, SAME),
    nv(6, "UC_VERSION_GFX11", ALL, SAME),
    nv(9, "UC_VERSION_GFX12", ALL, SAME),
];

/// SOPP instructions whose 16-bit immediate LLVM always prints in hex. Other SOPP immediates
/// print in decimal up to 64 (`s_nop 5`, `s_setprio 0x41`); AMD types both kinds `OPR_SIMM16`.
pub static SOPP_HEX_IMMEDIATE: &[(&str, &str)] = &[
    (
        "s_wait_loadcnt",
        "a counter value: LLVM's unsigned 16-bit immediate, printed in hex",
    ),
    ("s_wait_storecnt", "a counter value, as s_wait_loadcnt"),
    ("s_wait_samplecnt", "a counter value, as s_wait_loadcnt"),
    ("s_wait_bvhcnt", "a counter value, as s_wait_loadcnt"),
    ("s_wait_expcnt", "a counter value, as s_wait_loadcnt"),
    ("s_wait_dscnt", "a counter value, as s_wait_loadcnt"),
    ("s_wait_kmcnt", "a counter value, as s_wait_loadcnt"),
    (
        "s_wait_loadcnt_dscnt",
        "two counter values, as s_wait_loadcnt",
    ),
    (
        "s_wait_storecnt_dscnt",
        "two counter values, as s_wait_loadcnt",
    ),
    ("s_wait_xcnt", "a counter value, as s_wait_loadcnt"),
    ("s_wait_tensorcnt", "a counter value, as s_wait_loadcnt"),
    ("s_wait_asynccnt", "a counter value, as s_wait_loadcnt"),
    ("s_wait_event", "an event mask: LLVM prints it in hex"),
    ("s_clause", "a clause length field: LLVM prints it in hex"),
    ("s_round_mode", "a mode field: LLVM prints it in hex"),
    ("s_inst_prefetch", "a mode field: LLVM prints it in hex"),
    (
        "s_set_inst_prefetch_distance",
        "a mode field: LLVM prints it in hex",
    ),
    ("s_ttracedata_imm", "trace data: LLVM prints it in hex"),
];

/// SOPP instructions with no operand in AMD's XML whose SIMM16 LLVM prints when it is not 0.
pub static SOPP_OPTIONAL_IMMEDIATE: &[(&str, &str)] = &[(
    "s_endpgm",
    "LLVM's s_endpgm takes an optional immediate (`s_endpgm 3`); AMD lists no operand",
)];

/// Instructions whose immediate LLVM prints as `gpr_idx(SRC0,SRC1,SRC2,DST)` when only the
/// four mode bits are set (hex otherwise); AMD types it as a plain immediate.
pub static GPR_IDX_IMMEDIATE: &[(&str, &str)] = &[
    (
        "s_set_gpr_idx_mode",
        "the immediate is the VGPR-indexing mode mask",
    ),
    (
        "s_set_gpr_idx_on",
        "the second source is the VGPR-indexing mode mask",
    ),
];

/// Instructions LLVM spells differently from AMD on some generations: (generations, AMD's
/// name, LLVM's mnemonic, reason).
pub static LLVM_MNEMONICS: &[(Generations, &str, &str, &str)] = &[
    (
        GFX940,
        "V_MAD_MIX_F32",
        "v_fma_mix_f32",
        "LLVM 22 names the gfx940+ opcode v_fma_mix_f32 (its FmaMixInsts feature); AMD keeps the MAD name",
    ),
    (GFX940, "V_MAD_MIXLO_F16", "v_fma_mixlo_f16", "as V_MAD_MIX_F32"),
    (GFX940, "V_MAD_MIXHI_F16", "v_fma_mixhi_f16", "as V_MAD_MIX_F32"),
    (
        GFX9,
        "V_ACCVGPR_READ",
        "v_accvgpr_read_b32",
        "LLVM's name carries the operand type; AMD's has none",
    ),
    (GFX9, "V_ACCVGPR_WRITE", "v_accvgpr_write_b32", "as V_ACCVGPR_READ"),
];

/// LLVM's mnemonic of AMD's instruction `name` with lower-case `mnemonic` on `generation`.
pub fn llvm_mnemonic<'a>(generation: &str, name: &str, mnemonic: &'a str) -> &'a str {
    LLVM_MNEMONICS
        .iter()
        .find(|e| e.1 == name && e.0.contains(&generation))
        .map_or(mnemonic, |e| e.2)
}

/// AMD's instruction name for LLVM's mnemonic `llvm` on `generation`, if LLVM renames it.
pub fn amd_name_of_llvm_mnemonic(generation: &str, llvm: &str) -> Option<&'static str> {
    LLVM_MNEMONICS
        .iter()
        .find(|e| e.2.eq_ignore_ascii_case(llvm) && e.0.contains(&generation))
        .map(|e| e.1)
}

/// How many source entries LLVM prints in a VOP3 `op_sel:[...]` before the destination's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpSelSlots {
    /// One per source the instruction has.
    Sources,
    /// Three, present or not (LLVM's instruction has a third, tied source operand).
    Three,
}

/// VOP3 instructions with no 16-bit operand that LLVM gives `op_sel` (it selects a byte or
/// word of the destination or sources), on the generations listed, with the entries LLVM
/// prints.
pub static VOP3_OP_SEL: &[(Generations, &str, OpSelSlots, &str)] = &[
    (
        GFX940,
        "V_ALIGNBIT_B32",
        OpSelSlots::Three,
        "LLVM 22 gives gfx940+ v_alignbit_b32 op_sel (source halves)",
    ),
    (
        GFX940,
        "V_ALIGNBYTE_B32",
        OpSelSlots::Three,
        "as V_ALIGNBIT_B32",
    ),
    (
        GFX940,
        "V_CVT_SR_FP8_F32",
        OpSelSlots::Three,
        "op_sel[3:2] selects the destination byte written",
    ),
    (
        GFX940,
        "V_CVT_SR_BF8_F32",
        OpSelSlots::Three,
        "as V_CVT_SR_FP8_F32",
    ),
    (
        GFX940,
        "V_CVT_PK_FP8_F32",
        OpSelSlots::Sources,
        "op_sel[3] selects the destination word written; LLVM prints the two sources' bits and the destination's",
    ),
    (
        GFX940,
        "V_CVT_PK_BF8_F32",
        OpSelSlots::Sources,
        "as V_CVT_PK_FP8_F32",
    ),
    (
        &["cdna4"],
        "V_CVT_SCALEF32_PK_FP4_F16",
        OpSelSlots::Three,
        "two sources, but LLVM's instruction keeps the old destination as a third (tied) one",
    ),
    (
        &["cdna4"],
        "V_CVT_SCALEF32_PK_FP4_BF16",
        OpSelSlots::Three,
        "as V_CVT_SCALEF32_PK_FP4_F16",
    ),
];

/// The op_sel entries LLVM prints for VOP3 instruction `name` although no operand is 16-bit,
/// if it gives the instruction op_sel. Besides [`VOP3_OP_SEL`]: the gfx950 scaled conversions
/// (`v_cvt_scalef32_*`) select source and destination bytes or words with op_sel, except the
/// 32-element ones (`pk32`, `2xpk16`), which convert whole register tuples.
pub fn vop3_op_sel_slots(generation: &str, name: &str) -> Option<OpSelSlots> {
    if let Some(e) = VOP3_OP_SEL
        .iter()
        .find(|e| e.1 == name && e.0.contains(&generation))
    {
        return Some(e.2);
    }
    let scaled = generation == "cdna4"
        && name.starts_with("V_CVT_SCALEF32_")
        && !name.contains("PK32")
        && !name.contains("2XPK16");
    scaled.then_some(OpSelSlots::Sources)
}

/// Whether LLVM gives VOP3 instruction `name` op_sel although no operand is 16-bit.
pub fn vop3_has_op_sel(generation: &str, name: &str) -> bool {
    vop3_op_sel_slots(generation, name).is_some()
}

/// Whether LLVM's VOP3 instruction `name` has no op_sel although it has 16-bit operands: the
/// GFX9 `_LEGACY_` 16-bit instructions are GFX8's opcodes kept under a new name, and GFX8's
/// VOP3 had no op_sel.
pub fn vop3_lacks_op_sel(generation: &str, name: &str) -> bool {
    GFX9.contains(&generation) && name.contains("_LEGACY_")
}

/// Whether LLVM ignores op_sel_hi of VOP3P instruction `name` (it prints none and takes any
/// value): the integer dot products of GFX9 read whole dwords, and the AGPR moves have no
/// packed halves.
pub fn vop3p_ignores_op_sel_hi(generation: &str, name: &str) -> bool {
    GFX9.contains(&generation)
        && matches!(
            name,
            "V_DOT4_I32_I8"
                | "V_DOT4_U32_U8"
                | "V_DOT8_I32_I4"
                | "V_DOT8_U32_U4"
                | "V_ACCVGPR_READ"
                | "V_ACCVGPR_WRITE"
        )
}

/// Whether LLVM's SDWA form of `name` has no destination select: the gfx940 conversions from
/// FP8/BF8 to f32 write whole dwords (LLVM accepts only dst_sel DWORD and prints neither
/// dst_sel nor dst_unused).
pub fn sdwa_without_dst_select(generation: &str, name: &str) -> bool {
    GFX940.contains(&generation)
        && matches!(
            name,
            "V_CVT_F32_FP8" | "V_CVT_F32_BF8" | "V_CVT_PK_F32_FP8" | "V_CVT_PK_F32_BF8"
        )
}

/// Whether LLVM prints MFMA `name`'s BLGP bits as `neg:[a,b,c]`: the f64 MFMAs of gfx940+
/// have no lane-group pattern and use the bits to negate their sources.
pub fn mfma_blgp_is_neg(generation: &str, name: &str) -> bool {
    GFX940.contains(&generation) && name.starts_with("V_MFMA_F64")
}

/// Whether LLVM prints the SOPP immediate of `mnemonic` always in hex.
pub fn sopp_immediate_in_hex(mnemonic: &str) -> bool {
    SOPP_HEX_IMMEDIATE.iter().any(|e| e.0 == mnemonic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_depend_on_the_generation() {
        assert_eq!(name_of(HWREG, "cdna3", 1), Some("HW_REG_MODE"));
        assert_eq!(name_of(HWREG, "rdna4", 1), Some("HW_REG_WAVE_MODE"));
        assert_eq!(name_of(HWREG, "rdna3", 16), None);
        assert_eq!(name_of(SENDMSG, "rdna3", 2), Some("MSG_HS_TESSFACTOR"));
        assert_eq!(name_of(SENDMSG, "cdna2", 2), Some("MSG_GS"));
        assert!(sopp_immediate_in_hex("s_wait_loadcnt"));
        assert!(!sopp_immediate_in_hex("s_nop"));
    }

    #[test]
    fn every_entry_has_a_reason_and_one_name_per_value_and_generation() {
        for table in [
            HWREG,
            SENDMSG,
            SENDMSG_GS_OP,
            SENDMSG_SYSMSG_OP,
            DELAY_INSTID,
            DELAY_INSTSKIP,
            VERSION,
        ] {
            for (i, a) in table.iter().enumerate() {
                assert!(
                    !a.reason.is_empty() && !a.generations.is_empty(),
                    "{}",
                    a.name
                );
                for b in &table[i + 1..] {
                    let shared = a.generations.iter().any(|g| b.generations.contains(g));
                    assert!(
                        !(a.value == b.value && shared),
                        "{} and {} overlap",
                        a.name,
                        b.name
                    );
                }
            }
        }
    }
}
