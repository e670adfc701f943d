//! Values LLVM (and the hardware documentation) require in fields that an instruction does
//! not use as operands: an assembler must write them, and a generator of valid instructions
//! must not vary them. AMD's XML does not state these; each rule says why it holds.

use crate::tables::{FormInfo, IsaSpec};

/// The value field `field` must hold in `form`, if a rule fixes it.
pub fn required_field_value(spec: &IsaSpec, form: &FormInfo, field: &str) -> Option<u64> {
    let instruction = spec.instructions[form.instruction as usize].name;
    let uses_field = || {
        let enc = &spec.encodings[form.encoding as usize];
        form.operands.iter().any(|o| {
            o.field
                .is_some_and(|f| enc.fields[f as usize].name == field)
        })
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
                && spec.encodings[form.encoding as usize].name.contains("VOP3") =>
        {
            exec_lo(spec)
        }
        // The accumulation-register bit only means something for VGPR operands.
        "ACC" if !has_vgpr_operand() => Some(0),
        // A FLAT-segment access has no scalar base: SADDR holds LLVM's `off`, the NULL register
        // (or all ones on generations without NULL).
        "SADDR" if !uses_field() => Some(null_register(spec).unwrap_or(0x7f)),
        // LDS selects the LDS-DMA loads, separate instructions (`*_LDS_*`) in LLVM.
        "LDS" if !instruction.contains("_LDS") => Some(0),
        // SVE says a scratch access has a VGPR offset; other segments have it zero.
        "SVE"
            if !spec.encodings[form.encoding as usize]
                .name
                .contains("SCRATCH") =>
        {
            Some(0)
        }
        _ => None,
    }
}

/// Bits LLVM sets in op_sel_hi field `field` of a VOP3P form for the sources the form does not
/// have: op_sel_hi defaults to 1 for every source, and LLVM writes the default of an absent
/// one (bit 14 of a two-source `v_pk_add_f16`). They print nothing; `None` when no bit applies.
pub fn absent_source_op_sel_hi(spec: &IsaSpec, form: &FormInfo, field: &str) -> Option<u64> {
    let enc = &spec.encodings[form.encoding as usize];
    if !enc.name.contains("VOP3P") || enc.name.contains("MFMA") {
        return None;
    }
    let instruction = spec.instructions[form.instruction as usize].name;
    // Where LLVM ignores op_sel_hi it writes the default for every source.
    let sources = if crate::overrides::vop3p_ignores_op_sel_hi(spec.generation, instruction) {
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
