//! Values LLVM (and the hardware documentation) require in fields that an instruction does
//! not use as operands: an assembler must write them, and a generator of valid instructions
//! must not vary them. AMD's XML does not state these; each rule says why it holds.

use crate::tables::{Family, FormInfo, IsaSpec};

/// The value field `field` must hold in `form`, if a rule fixes it.
pub fn required_field_value(spec: &IsaSpec, form: &FormInfo, field: &str) -> Option<u64> {
    let instruction = spec.instructions[form.instruction as usize].name;
    let uses = |name: &str| {
        let enc = &spec.encodings[form.encoding as usize];
        form.operands
            .iter()
            .any(|o| o.field.is_some_and(|f| enc.fields[f as usize].name == name))
    };
    let has_vgpr_operand = || {
        form.operands.iter().filter(|o| o.field.is_some()).any(|o| {
            o.operand_type.is_some_and(|t| {
                spec.operand_types[t as usize]
                    .runs
                    .iter()
                    .any(|r| r.prefix == "v")
            })
        })
    };
    match field {
        // GWS and ordered-count instructions always address GDS; the lane permutes never do.
        "GDS" if instruction.starts_with("DS_GWS_") || instruction == "DS_ORDERED_COUNT" => Some(1),
        "GDS"
            if instruction.starts_with("DS_PERMUTE_")
                || instruction.starts_with("DS_BPERMUTE_") =>
        {
            Some(0)
        }
        // V_CMPX writes EXEC: in VOP3 forms LLVM (and AMD's examples) put EXEC_LO's code in
        // the destination field, which the disassembly does not show.
        "VDST"
            if instruction.starts_with("V_CMPX")
                && matches!(
                    spec.encodings[form.encoding as usize].family,
                    Family::Vop3 | Family::Vop3p
                ) =>
        {
            exec_lo(spec)
        }
        // The accumulation-register bit only means something for VGPR operands; the LDS-DMA
        // loads (`GLOBAL_LOAD_LDS_DWORD`) return their data to LDS, so the VDST AMD lists is
        // no register of theirs (LLVM reads no VDST and requires ACC clear).
        "ACC" if !has_vgpr_operand() || instruction.contains("_LOAD_LDS_") => Some(0),
        // A FLAT-segment access has no scalar base: SADDR holds LLVM's `off`, the NULL register;
        // on generations without NULL (GFX9: CDNA 1-4) AMD calls the field unused there and
        // LLVM decodes the FLAT segment only with it zero.
        "SADDR" if !uses(field) => Some(null_register(spec).unwrap_or(0)),
        // LDS makes a buffer load return its data to LDS (at M0) instead of VDATA. Only loads
        // of up to a dword have that path (and of three and four dwords on CDNA 4); LLVM
        // rejects the bit on any other instruction.
        "LDS" if !instruction.contains("_LDS") && !buffer_load_to_lds(spec, instruction) => Some(0),
        // SVE says a scratch access has a VGPR offset; other segments have it zero.
        "SVE"
            if !spec.encodings[form.encoding as usize]
                .name
                .contains("SCRATCH") =>
        {
            Some(0)
        }
        // A buffer instruction without an address (BUFFER_WBL2, BUFFER_INV) has no use for the
        // address-mode bits; LLVM decodes it only with them clear.
        "OFFEN" | "IDXEN" | "ADDR64" if !uses("VADDR") => Some(0),
        // GFX9 SMEM: IMM says OFFSET is an immediate; an instruction without an offset
        // (S_DCACHE_INV, S_MEMTIME) has it clear, which LLVM requires.
        "IMM" if !uses("OFFSET") && !uses("SOFFSET") => Some(0),
        // DS_NOP has no address: LLVM decodes it only with every field zero.
        "OFFSET0" | "OFFSET1" | "GDS" if instruction == "DS_NOP" => Some(0),
        _ => None,
    }
}

/// Whether a MUBUF load can return its data to LDS (its LDS bit set).
fn buffer_load_to_lds(spec: &IsaSpec, instruction: &str) -> bool {
    let Some(kind) = instruction.strip_prefix("BUFFER_LOAD_") else {
        return false;
    };
    matches!(
        kind,
        "FORMAT_X" | "UBYTE" | "SBYTE" | "USHORT" | "SSHORT" | "DWORD"
    ) || (spec.generation == "cdna4" && matches!(kind, "DWORDX3" | "DWORDX4"))
}

/// Bits LLVM sets in op_sel_hi field `field` of a VOP3P form for the sources the form does not
/// have: op_sel_hi defaults to 1 for every source, and LLVM writes the default of an absent
/// one (bit 14 of a two-source `v_pk_add_f16`). They print nothing; `None` when no bit applies.
pub fn absent_source_op_sel_hi(spec: &IsaSpec, form: &FormInfo, field: &str) -> Option<u64> {
    let enc = &spec.encodings[form.encoding as usize];
    if enc.family != Family::Vop3p || enc.variant.mfma {
        return None;
    }
    let instruction = spec.instructions[form.instruction as usize].name;
    // Where LLVM ignores op_sel_hi it writes the default for every source.
    let sources = if crate::llvm_syntax::vop3p_ignores_op_sel_hi(spec.generation, instruction) {
        0
    } else {
        form.operands
            .iter()
            .filter(|o| !o.implicit && o.field.is_some() && o.input && !o.output)
            .count() as u32
    };
    let f = enc.fields.iter().find(|f| f.name == field)?;
    let bits = match field {
        "OP_SEL_HI" | "OPSEL_HI" => {
            let all = (1u64 << f.width()) - 1;
            all & !((1u64 << sources.min(f.width())) - 1)
        }
        // CDNA's third op_sel_hi bit, outside AMD's two-bit field.
        "OPSEL_HI2" if sources < 3 => 1,
        _ => 0,
    };
    (bits != 0).then_some(bits)
}

/// The value LLVM writes in field `field` of `form` that its syntax for the instruction cannot
/// show: the gfx940 FP8/BF8-to-f32 conversions' SDWA form has no destination select, and LLVM
/// writes DWORD (6) there. The text leaves the field free, so the assembler takes LLVM's.
pub fn unprinted_field_value(spec: &IsaSpec, form: &FormInfo, field: &str) -> Option<u64> {
    let instruction = spec.instructions[form.instruction as usize].name;
    let sdwa = spec.encodings[form.encoding as usize].name.contains("SDWA");
    let dword_select = 6;
    (field == "DST_SEL"
        && sdwa
        && crate::llvm_syntax::sdwa_without_dst_select(spec.generation, instruction))
    .then_some(dword_select)
}

/// The value of the NULL scalar register in this generation, if it has one.
pub fn null_register(spec: &IsaSpec) -> Option<u64> {
    spec.operand_types
        .iter()
        .flat_map(|t| t.values.iter())
        .find(|v| v.1 == "NULL")
        .map(|v| v.0 as u64)
}

/// The value of EXEC_LO as a scalar operand in this generation.
pub fn exec_lo(spec: &IsaSpec) -> Option<u64> {
    spec.operand_types
        .iter()
        .flat_map(|t| t.values.iter())
        .find(|v| v.1 == "EXEC_LO")
        .map(|v| v.0 as u64)
}
