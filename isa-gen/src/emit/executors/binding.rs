//! Which operand of a form each name in the pseudocode means: the binding table.
//!
//! AMD's pseudocode names operands by role (`S0`, `D0`, `SDATA`, `ADDR`, `OFFSET`, ...), the
//! XML names them by encoding field (`SSRC0`, `VSRC1`, `LITERAL`, `VDST`, ...) and lists them
//! per form in order. A form's roles are found from its operand list, per encoding family:
//!
//! | pseudocode name | role | SOP1/SOP2/SOPC/SOPK, VOP1/VOP2/VOP3/VOPC/VOP3P | DS | FLAT/GLOBAL/SCRATCH, MUBUF | SMEM |
//! |---|---|---|---|---|---|
//! | `S0` `SRC0` `S`, `S1` `SRC1`, `S2` `SRC2`, `S3` | S0..S3 | the form's explicit input operands in order (`SSRC0`/`SRC0`/`VSRC0`/`LITERAL`, then `SSRC1`/`VSRC1`/`SRC1`/`LITERAL`, then `SRC2`); SOPK: `SDST` when it is an input (never `SIMM16`) | - | - | - |
//! | `D0` `D` `DST` `SDST` `VDST` | D0 | the first output: the explicit one (`SDST`, `VDST`), else the implicit VCC/EXEC (VOPC) | - | - | - |
//! | `D1` | D1 | the second explicit output (VOP3SD's `SDST` carry-out) | - | - | - |
//! | `RETURN_DATA`, `VDATA` written, `VDST` | VDST | - | `VDST` (absent in non-returning forms: writes are dropped) | `VDST`; MUBUF/MTBUF: `VDATA` | - |
//! | `DATA` `DATA0`, `VDATA` read | DATA | - | `DATA0` | `DATA` / `VSRC` | - |
//! | `DATA1` `DATA2` | DATA1 | - | `DATA1` | - | - |
//! | `SDATA` | SDATA | - | - | - | `SDATA` |
//! | `ADDR` `vgpr_a` | ADDR | - | the lane's `ADDR` VGPR (an LDS address) | the computed address (see below) | the computed address |
//! | `SADDR` `SBASE` `SOFFSET` `SRSRC` `VADDR` | same | fields of that name | | | |
//!
//! Field values (not operands): `OFFSET` (DS: `OFFSET1:OFFSET0`; memory: `OFFSET`/`IOFFSET`),
//! `OFFSET0`, `OFFSET1`, `SIMM16`, `SIMM32`/`K`/`LITERAL` (the literal), `OPSEL`, `NEG`, ...
//!
//! Memory addresses are computed by the runtime from the form's operands, not from the
//! arguments AMD's text passes to `CalcGlobalAddr`/`CalcDsAddr`/... (they differ between
//! generations and some truncate 64-bit addresses): global = `SADDR` + the lane's 32-bit
//! `ADDR`, or the lane's 64-bit `ADDR` when `SADDR` is off, + signed `OFFSET`; flat = 64-bit
//! `ADDR` + `OFFSET`; scratch = `ADDR` + `SADDR` + `OFFSET` in the lane's private memory;
//! SMEM = `SBASE` + `SOFFSET` + `OFFSET`; MUBUF/MTBUF = resource base + `SOFFSET` +
//! `OFFSET` plus the lane's offset and stride × index from `VADDR` (`OFFEN`, `IDXEN`),
//! range-checked by the resource (`isa-runtime/src/semantics/buffer.rs`). `CalcDsAddr(a, b,
//! c)` is `a + b + c` (32-bit).
//!
//! VOP3 forms of instructions that read or write VCC in their VOP2/VOPC forms name the mask
//! with an operand instead: a VCC read is the third source when the pseudocode does not use
//! `S2` itself (`V_CNDMASK_B32`, `V_ADD_CO_CI_U32`), a VCC write is `D1` (VOP3SD's `SDST`).

use crate::model::{Encoding, Instruction, Spec};

/// The executor generator's encoding families: the model's ([`isa_vocab::Family`]) with the
/// ones that share executors merged (MUBUF and MTBUF are [`Family::Buffer`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Family {
    Sop1,
    Sop2,
    Sopc,
    Sopk,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vop3,
    Vop3p,
    Vopc,
    Ds,
    Flat,
    Global,
    Scratch,
    Buffer,
    Image,
    Export,
    Interp,
    Vopd,
    Other,
}

impl Family {
    pub fn name(self) -> &'static str {
        match self {
            Family::Sop1 => "SOP1",
            Family::Sop2 => "SOP2",
            Family::Sopc => "SOPC",
            Family::Sopk => "SOPK",
            Family::Sopp => "SOPP",
            Family::Smem => "SMEM",
            Family::Vop1 => "VOP1",
            Family::Vop2 => "VOP2",
            Family::Vop3 => "VOP3",
            Family::Vop3p => "VOP3P",
            Family::Vopc => "VOPC",
            Family::Ds => "DS",
            Family::Flat => "FLAT",
            Family::Global => "GLOBAL",
            Family::Scratch => "SCRATCH",
            Family::Buffer => "BUFFER",
            Family::Image => "IMAGE",
            Family::Export => "EXPORT",
            Family::Interp => "INTERP",
            Family::Vopd => "VOPD",
            Family::Other => "OTHER",
        }
    }

    /// Scalar families run the pseudocode once; the others once per active lane.
    pub fn is_scalar(self) -> bool {
        matches!(
            self,
            Family::Sop1 | Family::Sop2 | Family::Sopc | Family::Sopk | Family::Sopp | Family::Smem
        )
    }

    /// Vector ALU: input/output modifiers apply.
    pub fn is_valu(self) -> bool {
        matches!(
            self,
            Family::Vop1 | Family::Vop2 | Family::Vop3 | Family::Vop3p | Family::Vopc
        )
    }

    /// Vector memory with a computed address.
    pub fn is_vmem(self) -> bool {
        matches!(
            self,
            Family::Flat | Family::Global | Family::Scratch | Family::Buffer
        )
    }

    /// Why the emulator has no executors for the family, if it has none.
    pub fn unmodelled(self) -> Option<&'static str> {
        match self {
            Family::Image => {
                Some("image instructions (texture sampling and image memory) are not modelled")
            }
            Family::Export => {
                Some("exports (to render targets and the position buffer) are not modelled")
            }
            Family::Interp => Some("parameter interpolation and LDS-direct loads are not modelled"),
            Family::Vopd => Some("dual-issue VOPD instructions are not modelled"),
            Family::Other => Some("the encoding family is not known to the executor generator"),
            _ => None,
        }
    }
}

/// Encoding variants with extra fields the runtime checks (`rt::variant`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Variant {
    Plain,
    Dpp16,
    Dpp8,
    Dpp,
    Sdwa,
    Vop3p,
}

impl Variant {
    pub fn ident(self) -> &'static str {
        match self {
            Variant::Plain => "PLAIN",
            Variant::Dpp16 => "DPP16",
            Variant::Dpp8 => "DPP8",
            Variant::Dpp => "DPP",
            Variant::Sdwa => "SDWA",
            Variant::Vop3p => "VOP3P",
        }
    }
}

/// The executor generator's family and variant of a model encoding: the model's
/// (`isa_vocab::classify`, decided once per encoding) grouped the way executors are shared
/// (MUBUF and MTBUF are one buffer family, ...).
pub(crate) fn classify(encoding: &Encoding) -> (Family, Variant) {
    let family = Family::of(encoding.family);
    (family, Variant::of(family, encoding.variant))
}

impl Family {
    /// The executor family of a vocabulary family.
    pub fn of(family: isa_vocab::Family) -> Family {
        use isa_vocab::Family as V;
        match family {
            V::Sop1 => Family::Sop1,
            V::Sop2 => Family::Sop2,
            V::Sopc => Family::Sopc,
            V::Sopk => Family::Sopk,
            V::Sopp => Family::Sopp,
            V::Smem => Family::Smem,
            V::Vop1 => Family::Vop1,
            V::Vop2 => Family::Vop2,
            V::Vop3 => Family::Vop3,
            V::Vop3p => Family::Vop3p,
            V::Vopc => Family::Vopc,
            V::Vopd => Family::Vopd,
            V::Interp => Family::Interp,
            V::Ds => Family::Ds,
            V::Flat => Family::Flat,
            V::FlatGlobal => Family::Global,
            V::FlatScratch => Family::Scratch,
            V::Mubuf | V::Mtbuf => Family::Buffer,
            V::Mimg => Family::Image,
            V::Exp => Family::Export,
            V::Other => Family::Other,
        }
    }
}

impl Variant {
    /// The executor variant of a vocabulary variant in `family`.
    pub fn of(family: Family, v: isa_vocab::Variant) -> Variant {
        if v.dpp8 {
            Variant::Dpp8
        } else if v.plain_dpp {
            Variant::Dpp
        } else if v.dpp16 {
            Variant::Dpp16
        } else if v.sdwa {
            Variant::Sdwa
        } else if family == Family::Vop3p {
            Variant::Vop3p
        } else {
            Variant::Plain
        }
    }
}

/// The operand roles (`isa_vocab::Role`, the runtime's `rt::role` indices).
pub(crate) use isa_vocab::Role;

/// What a pseudocode name refers to, in an instruction of a family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NameRef {
    /// An operand of the form.
    Role(Role),
    /// `VDATA`: DATA when read, VDST when written.
    Vdata,
    /// The computed memory address of a vector or scalar memory instruction.
    MemAddr,
    /// A field value by meaning (`rt::field::<name>`).
    Field(&'static str),
    /// The 16-bit DS offset (`OFFSET`, or `OFFSET1:OFFSET0`).
    DsOffset,
    /// Wave state (`EXEC`, `VCC`, `SCC`, `M0`, `PC`, ...), handled by the lowering.
    Wave,
}

/// The binding table: what `name` means in an instruction of `family`.
pub(crate) fn resolve(name: &str, family: Family) -> Option<NameRef> {
    use Family::*;
    use NameRef::{DsOffset, Field, MemAddr, Vdata, Wave};
    #[allow(non_snake_case)]
    let Role = NameRef::Role;
    let mem = family.is_vmem() || family == Smem;
    Some(match name {
        "S0" | "SRC0" | "S" if !mem && family != Ds => Role(Role::S0),
        "S1" | "SRC1" if !mem && family != Ds => Role(Role::S1),
        "S2" | "SRC2" if !mem && family != Ds => Role(Role::S2),
        "S3" | "SRC3" if !mem && family != Ds => Role(Role::S3),
        "D0" | "D" | "DST" if !mem && family != Ds => Role(Role::D0),
        "SDST" | "VDST" if !mem && family != Ds => Role(Role::D0),
        "D1" => Role(Role::D1),
        // CDNA4's DS entries sometimes name the address and data S0, S1, S2.
        "S0" if family == Ds => Role(Role::Addr),
        "S1" if family == Ds => Role(Role::Data),
        "S2" if family == Ds => Role(Role::Data1),
        "INST0" if family == Ds => Field("OFFSET0"),
        "INST1" if family == Ds => Field("OFFSET1"),
        // Scalar memory: SDATA is both the data and what atomics return.
        "DATA" | "DATA0" | "RETURN_DATA" if family == Smem => Role(Role::Sdata),
        // Memory data.
        "RETURN_DATA" => Role(Role::Vdst),
        "VDST" => Role(Role::Vdst),
        "VDATA" => Vdata,
        "DATA" | "DATA0" | "VSRC" => Role(Role::Data),
        "DATA1" | "DATA2" => Role(Role::Data1),
        "SDATA" => Role(Role::Sdata),
        // Addresses.
        // CDNA's DS_WRXCHG2*_RTN entries call the lane's address `ADDR_BASE`.
        "ADDR" | "vgpr_a" | "ADDR_BASE" if family == Ds => Role(Role::Addr),
        "ADDR" | "v_addr" | "vgpr_o" | "v_addr_off" if family.is_vmem() => MemAddr,
        "ADDR" if family == Smem => MemAddr,
        "VADDR" if family == Buffer => Role(Role::Vaddr),
        "VADDR" if family.is_vmem() => Role(Role::Addr),
        "SADDR" | "s_saddr" | "s_saddr_off" | "sgpr_o" | "SGPR_ADDR" => Role(Role::Saddr),
        "SBASE" | "sgpr_base" => Role(Role::Sbase),
        "SOFFSET" => Role(Role::Soffset),
        "SRSRC" => Role(Role::Srsrc),
        // Field values.
        "OFFSET" | "offset" if family == Ds => DsOffset,
        "OFFSET" | "offset" | "IOFFSET" | "INST_OFFSET" => Field("OFFSET"),
        "OFFSET0" => Field("OFFSET0"),
        "OFFSET1" => Field("OFFSET1"),
        "SIMM16" => Field("SIMM16"),
        "SIMM32" | "K" | "LITERAL" => Field("LITERAL"),
        "OPSEL" => Field("OPSEL"),
        "OPSEL_HI" => Field("OPSEL_HI"),
        "NEG" => Field("NEG"),
        "SDWA_SRC0_SEL" => Field("SRC0_SEL"),
        // Wave state.
        "EXEC"
        | "EXEC_LO"
        | "EXEC_HI"
        | "VCC"
        | "VCC_LO"
        | "VCC_HI"
        | "SCC"
        | "M0"
        | "MODE"
        | "PC"
        | "TRAPSTS"
        | "VCCZ"
        | "EXECZ"
        | "ROUND_MODE"
        | "IEEE_MODE"
        | "WAVE_MODE"
        | "WAVE_STATUS"
        | "TBA"
        | "TMA"
        | "FLAT_SCRATCH"
        | "conditional_debug_system"
        | "conditional_debug_user" => Wave,
        _ => return None,
    })
}

/// One form's binding, computed from the spec (emitted as an `rt::FormBinding`).
#[derive(Clone, Debug, Default)]
pub(crate) struct FormBinding {
    /// Operand index per role.
    pub ops: Vec<(Role, usize)>,
    /// Operand size per role.
    pub sizes: Vec<(Role, u32)>,
    pub masks: Vec<Role>,
    pub f64s: Vec<Role>,
    /// Encoding field index per field meaning.
    pub fields: Vec<(&'static str, usize)>,
    pub variant: Option<Variant>,
    /// Roles whose operand is a VGPR (or AGPR) in this form.
    pub vector: Vec<Role>,
    /// Roles that are 16-bit VGPRs of a True16 encoding (see `rt::FormBinding::t16`).
    pub t16: Vec<Role>,
}

impl FormBinding {
    pub fn op(&self, r: Role) -> Option<usize> {
        self.ops.iter().find(|(x, _)| *x == r).map(|(_, i)| *i)
    }
    pub fn size(&self, r: Role) -> u32 {
        self.sizes
            .iter()
            .find(|(x, _)| *x == r)
            .map_or(0, |(_, s)| *s)
    }
}

fn is_vector_type(name: &str) -> bool {
    name.contains("VGPR") || name.contains("ACCVGPR")
}

/// Implicit operand types that can stand for D0 (the mask a VOPC writes).
fn is_mask_output(ty: &str) -> bool {
    matches!(ty, "OPR_VCC" | "OPR_EXEC" | "OPR_SDST_EXEC" | "OPR_SREG")
}

/// What the pseudocode does that changes the binding.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Hints {
    /// It reads `D0`: in SOPK, SDST is then D0, and the immediate is `S0`.
    pub reads_d0: bool,
}

/// Binds the roles of one instruction encoding.
pub(crate) fn bind_form(
    spec: &Spec,
    ins: &Instruction,
    k: usize,
    enc: &Encoding,
    family: Family,
    variant: Variant,
    hints: Hints,
) -> FormBinding {
    let ie = &ins.encodings[k];
    let mut b = FormBinding {
        variant: Some(variant),
        ..Default::default()
    };
    let field_name = |o: &crate::model::Operand| o.field_name.clone().unwrap_or_default();
    let type_name = |o: &crate::model::Operand| o.operand_type_name.clone().unwrap_or_default();
    let dfmt = |o: &crate::model::Operand| o.data_format_name.clone().unwrap_or_default();
    // RDNA3 and later encode the high half of a 16-bit VGPR in the register number's bit 7 in
    // VOP1, VOP2 and VOPC (VOP3 uses op_sel instead).
    let true16 = spec.generation.is_some_and(|g| g.traits().true16)
        && matches!(family, Family::Vop1 | Family::Vop2 | Family::Vopc);
    let set = |b: &mut FormBinding, r: Role, i: usize| {
        if b.op(r).is_some() {
            return;
        }
        let o = &ie.operands[i];
        if true16 && o.size == 16 {
            b.t16.push(r);
        }
        b.ops.push((r, i));
        b.sizes.push((r, o.size));
        let f = dfmt(o);
        if f.ends_with("M64") {
            b.masks.push(r);
        }
        if f.ends_with("F64") {
            b.f64s.push(r);
        }
        if is_vector_type(&type_name(o)) {
            b.vector.push(r);
        }
    };
    let explicit: Vec<usize> = (0..ie.operands.len())
        .filter(|&i| ie.operands[i].field_name.is_some())
        .collect();
    let by_field = |names: &[&str]| {
        explicit
            .iter()
            .copied()
            .find(|&i| names.contains(&field_name(&ie.operands[i]).as_str()))
    };
    if family.is_scalar() && family != Family::Smem || family.is_valu() {
        // Sources: explicit inputs in order. SOPK: the register (when it is an input and not
        // D0), then the 16-bit immediate (AMD's text calls it S0 or S1 as often as SIMM16).
        let sources: Vec<usize> = explicit
            .iter()
            .copied()
            .filter(|&i| {
                let o = &ie.operands[i];
                let f = field_name(o);
                if family == Family::Sopk {
                    return f == "SIMM16" && o.input || f == "SDST" && o.input && !hints.reads_d0;
                }
                if family == Family::Sopp {
                    return false;
                }
                o.input && !o.output && !matches!(f.as_str(), "SIMM16" | "SIMM32")
            })
            .collect();
        let mut sources = sources;
        if family == Family::Sopk {
            // The register first, then the immediate.
            sources.sort_by_key(|&i| field_name(&ie.operands[i]) == "SIMM16");
        }
        for (r, &i) in [Role::S0, Role::S1, Role::S2, Role::S3]
            .iter()
            .zip(&sources)
        {
            set(&mut b, *r, i);
        }
        // Outputs: explicit first, then the implicit mask a VOPC writes.
        let outputs: Vec<usize> = explicit
            .iter()
            .copied()
            .filter(|&i| ie.operands[i].output && field_name(&ie.operands[i]) != "SIMM16")
            .collect();
        if let Some(&i) = outputs.first() {
            set(&mut b, Role::D0, i);
        } else if let Some(i) = (0..ie.operands.len()).find(|&i| {
            let o = &ie.operands[i];
            o.output && o.field_name.is_none() && is_mask_output(&type_name(o))
        }) {
            set(&mut b, Role::D0, i);
        }
        if let Some(&i) = outputs.get(1) {
            set(&mut b, Role::D1, i);
        }
        // SOPK: SDST is D0 when the pseudocode reads D0, even where the XML marks it input.
        if family == Family::Sopk && b.op(Role::D0).is_none() && hints.reads_d0 {
            if let Some(i) = by_field(&["SDST"]) {
                set(&mut b, Role::D0, i);
            }
        }
    }
    if family == Family::Ds || family.is_vmem() || family == Family::Smem {
        let named: &[(Role, &[&str])] = &[
            (Role::Vdst, &["VDST"]),
            (Role::Data, &["DATA", "DATA0", "VSRC", "VDATA"]),
            (Role::Data1, &["DATA1", "DATA2"]),
            (Role::Sdata, &["SDATA"]),
            (Role::Addr, &["ADDR", "VADDR"]),
            (Role::Saddr, &["SADDR"]),
            (Role::Sbase, &["SBASE"]),
            (Role::Soffset, &["SOFFSET"]),
            (Role::Srsrc, &["SRSRC", "RSRC"]),
        ];
        for (r, names) in named {
            // Buffer instructions keep VADDR (the lane's offset) apart from the address.
            if family == Family::Buffer && *r == Role::Addr {
                continue;
            }
            if let Some(i) = by_field(names) {
                set(&mut b, *r, i);
            }
        }
        if family == Family::Buffer {
            if let Some(i) = by_field(&["VADDR"]) {
                set(&mut b, Role::Vaddr, i);
            }
            // MUBUF/MTBUF have one data operand, VDATA: what loads write and atomics return
            // as well as what stores and atomics read.
            if let Some(i) = by_field(&["VDATA"]) {
                set(&mut b, Role::Vdst, i);
            }
        }
    }
    // Fields read by meaning (`isa_vocab::field`, the runtime's `rt::field`), each found by
    // the names it has in AMD's encodings.
    for (meaning, names) in isa_vocab::field::NAMES
        .iter()
        .zip(isa_vocab::field::ALIASES)
    {
        if let Some(i) = enc
            .fields
            .iter()
            .position(|f| names.contains(&f.name.as_str()))
        {
            b.fields.push((*meaning, i));
        }
    }
    b
}
