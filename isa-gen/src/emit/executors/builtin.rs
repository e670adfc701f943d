//! Instructions whose executor is decided by name, before any pseudocode is looked at: fixed
//! behaviours the pseudocode does not express, the hand-written Rust overrides
//! (`isa_runtime::semantics::handwritten`), and what the emulator does not model. Every entry
//! carries the reason the coverage report prints.

/// A decision by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    /// The wave ends.
    EndProgram(&'static str),
    /// Wait for the workgroup's waves.
    Barrier(&'static str),
    /// Halt when SIMM16 bit 0 is set (`S_SETHALT`), or always (`S_SENDMSGHALT`).
    Halt { always: bool, reason: &'static str },
    /// Nothing to do in the emulator.
    NoOp(&'static str),
    /// `S_MEMTIME`/`S_MEMREALTIME`: SDATA (64 bits) gets the wave's clock, which the emulator
    /// ticks once per executed instruction (`Wave::steps`).
    Clock(&'static str),
    /// `V_CLREXCP`: clears the exception bits of TRAPSTS (EXCP, bits 8:0).
    ClearExceptions(&'static str),
    /// A Rust executor in `semantics::handwritten` (its function name).
    RustOverride {
        function: &'static str,
        reason: &'static str,
    },
    /// A Rust executor in `semantics` that also reaches memory (`format::<function>`).
    RustMem {
        function: &'static str,
        reason: &'static str,
    },
    /// A Rust executor of the GFX9 line that also reaches LDS: `semantics::<module>::<function>`
    /// (`GLOBAL_LOAD_LDS_*`/`SCRATCH_LOAD_LDS_*` in `lds_dma`, `DS_APPEND`/`DS_CONSUME` in
    /// `ds_counter`).
    RustLds {
        module: &'static str,
        function: &'static str,
        reason: &'static str,
    },
    /// Explicitly unsupported.
    Unsupported(&'static str),
}

const WAIT: &str = "waits for counters or events; the emulator completes every access at once";
const CACHE: &str = "cache and prefetch control; the emulator has no caches";
const SCHED: &str = "scheduling hint; no effect on results";
const DIV: &str = "AMD's pseudocode compares with DENORM where it means \"is denormal\" and its scale factors do not undo each other; the project's model keeps LLVM's division sequence correctly rounded";
const FIXUP: &str = "AMD's pseudocode reads operands through f64 and leaves dead cases; the project's model gives the IEEE special cases of the quotient";
const FORMAT: &str = "AMD's pseudocode converts through ConvertFromFormat/ConvertToFormat and says the access size depends on the format; the project's model converts by the GFX9 data and number format tables";
const LDS_DIRECT: &str = "AMD gives no pseudocode; the project's model writes each lane's data to LDS at M0 + OFFSET + lane x slot (a dword, or the access size when wider)";
const TRIG: &str = "AMD's pseudocode needs a 1201-bit constant the type checker rejects; the project's model takes the 53-bit segment of 2/pi from a table";

/// The decision for `name` (AMD's instruction name), if any.
pub(crate) fn builtin(name: &str) -> Option<Builtin> {
    use Builtin::*;
    let n = name.to_ascii_uppercase();
    // CDNA's V_MFMA/V_SMFMAC are decided before this (`matrix`); RDNA's wave matrix
    // instructions have a different register layout the model does not cover.
    if ["V_WMMA", "V_SWMMAC"].iter().any(|p| n.starts_with(p)) {
        return Some(Unsupported(
            "wave matrix instructions (WMMA): AMD gives prose",
        ));
    }
    if n.starts_with("DS_GWS_") {
        return Some(Unsupported("global wave sync (GWS) is not modelled"));
    }
    if let Some(function) = FORMAT_OPS.iter().find(|f| f.eq_ignore_ascii_case(&n)) {
        return Some(RustMem {
            function,
            reason: FORMAT,
        });
    }
    if (n.starts_with("GLOBAL_LOAD_LDS_") || n.starts_with("SCRATCH_LOAD_LDS_"))
        && LDS_SIZES.iter().any(|s| n.ends_with(s))
    {
        return Some(RustLds {
            module: "lds_dma",
            function: "flat_load_lds",
            reason: LDS_DIRECT,
        });
    }
    if n.starts_with("S_WAITCNT") || (n.starts_with("S_WAIT_") && n != "S_WAIT_EVENT") {
        return Some(NoOp(WAIT));
    }
    Some(match n.as_str() {
        "S_ENDPGM" => EndProgram("ends the wave (the pseudocode has no statement for it)"),
        "S_ENDPGM_SAVED" | "S_ENDPGM_ORDERED_PS_DONE" => {
            EndProgram("ends the wave; context save and pixel ordering are not modelled")
        }
        "S_BARRIER" | "S_BARRIER_WAIT" => {
            Barrier("waits for the workgroup's waves (the driver releases the barrier)")
        }
        "S_SETHALT" => Halt {
            always: false,
            reason: "halts the wave when SIMM16 bit 0 is set; nothing resumes it",
        },
        "S_SENDMSGHALT" => Halt {
            always: true,
            reason: "sends a message (not modelled) and halts",
        },
        "S_NOP" | "V_NOP" | "DS_NOP" => NoOp("does nothing"),
        "S_MEMTIME" | "S_MEMREALTIME" => Clock(
            "a free-running 64-bit counter; the emulator's clock ticks once per instruction the wave executes",
        ),
        "V_CLREXCP" => ClearExceptions("clears TRAPSTS's exception bits (EXCP, bits 8:0)"),
        "S_WAIT_EVENT" | "S_SLEEP" | "S_WAKEUP" => NoOp(WAIT),
        "S_SETPRIO"
        | "S_CLAUSE"
        | "S_DELAY_ALU"
        | "S_SET_INST_PREFETCH_DISTANCE"
        | "S_INST_PREFETCH"
        | "S_SET_VALU_COEXEC_MODE"
        | "S_INCPERFLEVEL"
        | "S_DECPERFLEVEL" => NoOp(SCHED),
        "S_ICACHE_INV"
        | "S_DCACHE_INV"
        | "S_DCACHE_WB"
        | "S_DCACHE_INV_VOL"
        | "S_DCACHE_WB_VOL"
        | "S_GL1_INV"
        | "BUFFER_WBINVL1"
        | "BUFFER_WBINVL1_VOL"
        | "BUFFER_WBINVL1_SC"
        | "BUFFER_GL0_INV"
        | "BUFFER_GL1_INV"
        | "BUFFER_INV"
        | "BUFFER_WBL2"
        | "GLOBAL_INV"
        | "GLOBAL_WB"
        | "GLOBAL_WBINV"
        | "S_ATC_PROBE"
        | "S_ATC_PROBE_BUFFER"
        | "S_PREFETCH_INST"
        | "S_PREFETCH_INST_PC_REL"
        | "S_PREFETCH_DATA"
        | "S_BUFFER_PREFETCH_DATA"
        | "S_PREFETCH_DATA_PC_REL"
        | "S_DCACHE_DISCARD"
        | "S_DCACHE_DISCARD_X2" => NoOp(CACHE),
        "S_TTRACEDATA" | "S_TTRACEDATA_IMM" | "S_CODE_END" | "S_VERSION" | "S_SETKILL" => {
            NoOp("trace, debug or marker; no effect on results")
        }
        "S_SENDMSG" => NoOp(
            "messages to the host (VGPR deallocation, interrupts) have no effect in the emulator",
        ),
        "V_DIV_SCALE_F32" => RustOverride {
            function: "v_div_scale_f32",
            reason: DIV,
        },
        "V_DIV_SCALE_F64" => RustOverride {
            function: "v_div_scale_f64",
            reason: DIV,
        },
        "V_DIV_FMAS_F32" => RustOverride {
            function: "v_div_fmas_f32",
            reason: DIV,
        },
        "V_DIV_FMAS_F64" => RustOverride {
            function: "v_div_fmas_f64",
            reason: DIV,
        },
        "V_DIV_FIXUP_F32" => RustOverride {
            function: "v_div_fixup_f32",
            reason: FIXUP,
        },
        "V_DIV_FIXUP_F64" => RustOverride {
            function: "v_div_fixup_f64",
            reason: FIXUP,
        },
        "V_TRIG_PREOP_F64" => RustOverride {
            function: "v_trig_preop_f64",
            reason: TRIG,
        },
        "DS_APPEND" | "DS_CONSUME" => RustLds {
            module: "ds_counter",
            function: if n == "DS_APPEND" { "ds_append" } else { "ds_consume" },
            reason: "AMD gives no pseudocode; the project's model adds (append) or subtracts (consume) the number of active lanes from the LDS dword at M0 + OFFSET, every active lane getting its old value",
        },
        "DS_ORDERED_COUNT" | "DS_ORDERED_ADD" => {
            Unsupported("ordered append counters are not modelled")
        }
        "DS_SWIZZLE_B32" => RustOverride {
            function: "ds_swizzle_b32",
            reason: "AMD gives the swizzle modes as a table, not pseudocode; the project's model implements the quad-permute and bit-mask modes (FFT and rotate are reported as unsupported)",
        },
        "S_TRAP" | "S_RFE_B64" | "S_RFE_RESTORE_B64" => Unsupported("traps are not modelled"),
        "S_SET_GPR_IDX_ON" | "S_SET_GPR_IDX_OFF" | "S_SET_GPR_IDX_MODE" | "S_SET_GPR_IDX_IDX" => {
            Unsupported("VGPR index mode is not modelled (later VALU instructions would ignore it)")
        }
        "S_CBRANCH_I_FORK" | "S_CBRANCH_G_FORK" | "S_CBRANCH_JOIN" => {
            Unsupported("the fork/join control stack is not modelled")
        }
        "S_SETVSKIP" => Unsupported("vector skip mode is not modelled"),
        "S_SENDMSG_RTN_B32" | "S_SENDMSG_RTN_B64" => {
            Unsupported("message replies from the host are not modelled")
        }
        _ => return None,
    })
}

/// The typed buffer loads and stores run by `semantics::format` (GFX9 line only).
pub(crate) const FORMAT_OPS: &[&str] = &[
    "buffer_load_format_x",
    "buffer_load_format_xy",
    "buffer_load_format_xyz",
    "buffer_load_format_xyzw",
    "buffer_store_format_x",
    "buffer_store_format_xy",
    "buffer_store_format_xyz",
    "buffer_store_format_xyzw",
    "buffer_load_format_d16_x",
    "buffer_load_format_d16_xy",
    "buffer_load_format_d16_xyz",
    "buffer_load_format_d16_xyzw",
    "buffer_store_format_d16_x",
    "buffer_store_format_d16_xy",
    "buffer_store_format_d16_xyz",
    "buffer_store_format_d16_xyzw",
    "buffer_load_format_d16_hi_x",
    "buffer_store_format_d16_hi_x",
    "tbuffer_load_format_x",
    "tbuffer_load_format_xy",
    "tbuffer_load_format_xyz",
    "tbuffer_load_format_xyzw",
    "tbuffer_store_format_x",
    "tbuffer_store_format_xy",
    "tbuffer_store_format_xyz",
    "tbuffer_store_format_xyzw",
    "tbuffer_load_format_d16_x",
    "tbuffer_load_format_d16_xy",
    "tbuffer_load_format_d16_xyz",
    "tbuffer_load_format_d16_xyzw",
    "tbuffer_store_format_d16_x",
    "tbuffer_store_format_d16_xy",
    "tbuffer_store_format_d16_xyz",
    "tbuffer_store_format_d16_xyzw",
];

/// The access sizes of the LDS-direct loads (`semantics::lds_dma::LdsLoad::from_name`).
const LDS_SIZES: &[&str] = &[
    "_UBYTE", "_SBYTE", "_USHORT", "_SSHORT", "_DWORD", "_DWORDX3", "_DWORDX4",
];

/// MUBUF loads that honour the LDS bit (their data goes to LDS instead of VDATA when it is
/// set; `semantics::lds_dma::buffer_load_lds`).
pub(crate) fn buffer_load_takes_lds(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n.starts_with("BUFFER_LOAD_")
        && [
            "_UBYTE", "_SBYTE", "_USHORT", "_SSHORT", "_DWORD", "_DWORDX2", "_DWORDX3", "_DWORDX4",
        ]
        .iter()
        .any(|s| n.ends_with(s))
}
