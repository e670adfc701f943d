//! The vocabulary `isa-gen` and `isa-runtime` share, with no dependencies of its own.
//!
//! - [`Family`] and [`Variant`] of an encoding, decided from AMD's encoding name by
//!   [`classify`]. The generator calls it once per encoding when it builds its model and emits
//!   the result as data (`EncodingInfo.family`, `EncodingInfo.variant`); the runtime reads that
//!   data and never looks at encoding names.
//! - [`Traits`] of a generation, one row per generation in [`Traits::of`], and the generation
//!   sets derived from them ([`GFX9`], [`GFX11_UP`], [`gfx_names`]). The generator emits a
//!   spec's traits as data (`IsaSpec.traits`); per-generation lists elsewhere are built from
//!   these rows instead of being written out again.
//! - The executors' vocabulary: operand roles ([`Role`], indexed by [`role`]), encoding fields
//!   read by meaning ([`field`], with their names in AMD's encodings) and how an instruction
//!   got its executor ([`ExecStatus`]). The generator binds and emits them, the runtime's
//!   executors index their tables with them.
//! - [`helpers::HELPERS`]: the pseudocode helpers the runtime implements, which the generator
//!   calls.

pub mod helpers;

/// The encoding families, as AMD's encoding names group them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Sopp,
    /// Scalar memory (`SMEM`, GFX9's `SMRD` name).
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    Vop3p,
    /// Dual issue (`VOPD`, `VOPDXY`, `VOPD3`).
    Vopd,
    /// Parameter interpolation and LDS-direct loads (`VINTERP`, `VINTRP`, `LDSDIR`, `VDSDIR`).
    Interp,
    Ds,
    Flat,
    FlatGlobal,
    FlatScratch,
    Mubuf,
    Mtbuf,
    /// Image memory and sampling (`MIMG`, `VIMAGE`, `VSAMPLE`).
    Mimg,
    Exp,
    /// A name none of the rules above knows.
    Other,
}

/// What an encoding adds to its family's base form, from the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub struct Variant {
    /// A literal dword follows the instruction (`*_INST_LITERAL`, `*_LITERAL64`).
    pub literal: bool,
    /// DPP with an 8-lane selector (`*_DPP8`).
    pub dpp8: bool,
    /// DPP with a 16-lane control: `*_DPP16`, and GFX9's `*_VOP_DPP`, which has no size in
    /// its name (see [`Variant::plain_dpp`]).
    pub dpp16: bool,
    /// The name says `DPP` without `8` or `16` (GFX9's DPP, a 16-lane control without `FI`).
    pub plain_dpp: bool,
    pub sdwa: bool,
    /// A scalar destination in a VOP3 or SDWA word (`VOP3_SDST_ENC`, `*_SDWA_SDST_ENC`).
    pub sdst: bool,
    /// CDNA's matrix encoding of VOP3P (`VOP3P_MFMA`, with accumulation-register bits).
    pub mfma: bool,
    /// Two VOP3P words in one instruction (`VOP3PX2`: an MFMA with scale operands).
    pub x2: bool,
}

impl Variant {
    /// No extra fields: the family's base form.
    pub const PLAIN: Variant = Variant {
        literal: false,
        dpp8: false,
        dpp16: false,
        plain_dpp: false,
        sdwa: false,
        sdst: false,
        mfma: false,
        x2: false,
    };
}

/// The family and variant of an encoding from AMD's name (`ENC_VOP3`, `VOP3_VOP_DPP16`,
/// `SOP2_INST_LITERAL64`, `ENC_FLAT_GLBL`, `ENC_VDS`, ...): the first `_`-separated word
/// names the family (after an `ENC_` prefix), the rest the variant.
pub fn classify(encoding: &str) -> (Family, Variant) {
    let n = encoding.strip_prefix("ENC_").unwrap_or(encoding);
    let head = n.split('_').next().unwrap_or(n);
    let has_dpp = n.contains("DPP");
    let dpp8 = n.contains("DPP8");
    let dpp16 = !dpp8 && has_dpp;
    let variant = Variant {
        literal: n.contains("LITERAL"),
        dpp8,
        dpp16,
        plain_dpp: dpp16 && !n.contains("DPP16"),
        sdwa: n.contains("SDWA"),
        sdst: n.contains("SDST") || head == "VOP3SD",
        mfma: n.contains("MFMA"),
        x2: head == "VOP3PX2",
    };
    let family = match head {
        "SOP1" => Family::Sop1,
        "SOP2" => Family::Sop2,
        "SOPK" => Family::Sopk,
        "SOPC" => Family::Sopc,
        "SOPP" => Family::Sopp,
        "SMEM" | "SMRD" => Family::Smem,
        "VOP1" => Family::Vop1,
        "VOP2" => Family::Vop2,
        "VOPC" => Family::Vopc,
        // `VOP3SD` heads the pseudocode's sections of VOP3 forms with a scalar destination.
        "VOP3" | "VOP3SD" => Family::Vop3,
        "VOP3P" | "VOP3PX2" => Family::Vop3p,
        "VOPD" | "VOPDXY" | "VOPD3" => Family::Vopd,
        "VINTERP" | "VINTRP" | "LDSDIR" | "VDSDIR" => Family::Interp,
        "DS" | "VDS" => Family::Ds,
        "FLAT" | "VFLAT" if n.contains("GLBL") || n.contains("GLOBAL") => Family::FlatGlobal,
        "FLAT" | "VFLAT" if n.contains("SCRATCH") => Family::FlatScratch,
        "FLAT" | "VFLAT" => Family::Flat,
        "GLOBAL" | "VGLOBAL" => Family::FlatGlobal,
        "SCRATCH" | "VSCRATCH" => Family::FlatScratch,
        "MUBUF" | "VBUFFER" => Family::Mubuf,
        "MTBUF" => Family::Mtbuf,
        "MIMG" | "VIMAGE" | "VSAMPLE" => Family::Mimg,
        "EXP" | "VEXPORT" => Family::Exp,
        _ => Family::Other,
    };
    (family, variant)
}

/// Defines [`Role`] and the index constants of [`role`] from one list: each role's variant
/// and its name (the constant's).
macro_rules! roles {
    ($($(#[$doc:meta])* $variant:ident = $name:ident,)*) => {
        /// The pseudocode's operand names, bound per form to the form's operands (see
        /// `isa-gen/src/emit/executors/binding.rs` for which name goes to which operand in each
        /// encoding family). `role::X` is the index of a role in the runtime's tables.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        pub enum Role {
            $($(#[$doc])* $variant,)*
        }

        impl Role {
            /// Every role, in index order.
            pub const ALL: [Role; role::COUNT] = [$(Role::$variant),*];

            /// The role's name (its constant in [`role`]).
            pub const fn ident(self) -> &'static str {
                match self {
                    $(Role::$variant => stringify!($name),)*
                }
            }
        }

        /// Role indices (`Role::X as usize`), as the runtime's binding tables use them.
        pub mod role {
            use super::Role;
            $($(#[$doc])* pub const $name: usize = Role::$variant as usize;)*
            pub const COUNT: usize = [$(stringify!($name)),*].len();
            /// Each role's name, by index.
            pub const NAMES: [&str; COUNT] = [$(stringify!($name)),*];
        }
    };
}

roles! {
    /// Sources in the order the form lists them (`S0`/`SRC0`, `S1`, `S2`, `S3`).
    S0 = S0,
    S1 = S1,
    S2 = S2,
    S3 = S3,
    /// The first output (`D0`).
    D0 = D0,
    /// The second output (VOP3SD's carry-out).
    D1 = D1,
    /// Memory instructions: the data returned (`RETURN_DATA`, `VDATA` of loads).
    Vdst = VDST,
    /// Memory instructions: data written (`DATA`, `DATA0`, `VDATA` of stores).
    Data = DATA,
    /// The second data operand (`DATA1`, `DATA2`).
    Data1 = DATA1,
    /// Scalar memory data (`SDATA`).
    Sdata = SDATA,
    /// The address operand (a VGPR: DS address, or a flat/global/scratch address or offset).
    Addr = ADDR,
    Saddr = SADDR,
    Sbase = SBASE,
    Soffset = SOFFSET,
    Srsrc = SRSRC,
    Vaddr = VADDR,
}

impl Role {
    /// The source number of `S0`..`S3`.
    pub const fn source_index(self) -> Option<usize> {
        match self {
            Role::S0 => Some(0),
            Role::S1 => Some(1),
            Role::S2 => Some(2),
            Role::S3 => Some(3),
            _ => None,
        }
    }
}

/// Encoding fields the executors read by meaning: each meaning's index constant, its name
/// ([`NAMES`](field::NAMES)) and the names the field has in AMD's encodings
/// ([`ALIASES`](field::ALIASES)), from one list.
macro_rules! fields {
    ($($(#[$doc:meta])* $name:ident: [$($alias:literal),+],)*) => {
        /// Encoding fields the executors read by meaning (indices of the runtime's
        /// `Binding::fields`).
        pub mod field {
            #[allow(non_camel_case_types, clippy::upper_case_acronyms)]
            #[repr(usize)]
            enum Index {
                $($name,)*
            }
            $($(#[$doc])* pub const $name: usize = Index::$name as usize;)*
            pub const COUNT: usize = [$(stringify!($name)),*].len();
            /// Each meaning's name, by index.
            pub const NAMES: [&str; COUNT] = [$(stringify!($name)),*];
            /// The names a meaning's field has in AMD's encodings, by index.
            pub const ALIASES: [&[&str]; COUNT] = [$(&[$($alias),+]),*];
        }
    };
}

fields! {
    OFFSET: ["OFFSET", "IOFFSET"],
    OFFSET0: ["OFFSET0"],
    OFFSET1: ["OFFSET1"],
    SIMM16: ["SIMM16"],
    LITERAL: ["LITERAL", "LITERAL64"],
    NEG: ["NEG"],
    ABS: ["ABS"],
    CLAMP: ["CLAMP"],
    OMOD: ["OMOD"],
    OPSEL: ["OPSEL", "OP_SEL"],
    OPSEL_HI: ["OPSEL_HI", "OP_SEL_HI"],
    NEG_HI: ["NEG_HI"],
    /// CDNA SMEM: whether SOFFSET is used.
    SOFFSET_EN: ["SOFFSET_EN"],
    /// CDNA SMEM: whether OFFSET is an immediate.
    IMM: ["IMM"],
    /// DPP16's control and GCN DPP's.
    DPP_CTRL: ["DPP_CTRL"],
    ROW_MASK: ["ROW_MASK"],
    BANK_MASK: ["BANK_MASK"],
    /// SDWA selects and modifiers (CDNA, RDNA1/2).
    SRC0_SEL: ["SRC0_SEL"],
    SRC1_SEL: ["SRC1_SEL"],
    DST_SEL: ["DST_SEL"],
    DST_UNUSED: ["DST_UNUSED"],
    SRC0_SEXT: ["SRC0_SEXT"],
    SRC1_SEXT: ["SRC1_SEXT"],
    SRC0_NEG: ["SRC0_NEG"],
    SRC1_NEG: ["SRC1_NEG"],
    SRC0_ABS: ["SRC0_ABS"],
    SRC1_ABS: ["SRC1_ABS"],
    OPSEL_HI2: ["OPSEL_HI2"],
    /// DPP8's lane selects, `LANE_SEL_0` .. `LANE_SEL_7` (3 bits each, consecutive indices).
    LANE_SEL_0: ["LANE_SEL_0"],
    LANE_SEL_1: ["LANE_SEL_1"],
    LANE_SEL_2: ["LANE_SEL_2"],
    LANE_SEL_3: ["LANE_SEL_3"],
    LANE_SEL_4: ["LANE_SEL_4"],
    LANE_SEL_5: ["LANE_SEL_5"],
    LANE_SEL_6: ["LANE_SEL_6"],
    LANE_SEL_7: ["LANE_SEL_7"],
    /// Whether a vector memory atomic returns the old value: GLC (GFX9, GFX10, GFX11), SC0
    /// (GFX940), TH bit 0 (GFX12).
    GLC: ["GLC"],
    SC0: ["SC0"],
    TH: ["TH"],
    /// DPP: out-of-range or disabled source lanes read 0 (else the lane is not written).
    BOUND_CTRL: ["BOUND_CTRL", "BC"],
    /// DPP16/DPP8 (RDNA): read inactive source lanes too.
    FI: ["FI"],
    /// MUBUF/MTBUF: VADDR holds an index (IDXEN) and/or an offset (OFFEN).
    IDXEN: ["IDXEN"],
    OFFEN: ["OFFEN"],
}

/// How an instruction got its executor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ExecStatus {
    /// Lowered from pseudocode (AMD's, or the project's own for the fixtures).
    Generated,
    /// From the project's override layer (`spec/overrides/*.pcode`, or a hand-written Rust
    /// executor in the runtime's `semantics::handwritten`), because AMD's text is wrong or prose.
    Override,
    /// A fixed behaviour the pseudocode does not express (end of program, barrier, a wait
    /// that has nothing to wait for in the emulator).
    Builtin,
    /// An explicit executor that returns the runtime's `ExecError::Unsupported` with the
    /// reason.
    Unsupported,
}

impl ExecStatus {
    pub const fn name(self) -> &'static str {
        match self {
            ExecStatus::Generated => "generated",
            ExecStatus::Override => "override",
            ExecStatus::Builtin => "builtin",
            ExecStatus::Unsupported => "unsupported",
        }
    }
}

/// What code decides by generation, stated once per generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Traits {
    /// LLVM's GFX major version of the generation's targets: 9 (CDNA 1-4, gfx908-gfx950),
    /// 10 (RDNA 1-2), 11 (RDNA 3, 3.5), 12 (RDNA 4, and CDNA 5's gfx1250). 0: not known.
    pub gfx: u8,
    /// VOP1, VOP2 and VOPC name the high half of a 16-bit VGPR in bit 7 of the register
    /// number (True16); VOP3 uses op_sel instead.
    pub true16: bool,
    /// The emulator runs waves of 64 lanes by default (the CDNA generations; LLVM treats
    /// gfx1250 as wave32, the emulator keeps CDNA 5 at wave64 because its executors borrow
    /// CDNA 4's wave64 semantics).
    pub wave64: bool,
    /// A wave has accumulation VGPRs (AGPRs) beside its VGPRs (the CDNA generations).
    pub agprs: bool,
    /// The gfx90a line (CDNA 2-4): VGPR and AGPR tuples share one file and must be even-aligned,
    /// memory data may be AGPRs, the kernel descriptor has the CDNA COMPUTE_PGM_RSRC3 layout.
    pub gfx90a: bool,
    /// Work-item ids reach the wave packed in `v0` (`x | y << 10 | z << 20`) rather than in
    /// `v0`, `v1`, `v2`.
    pub packed_workitem_ids: bool,
}

/// Every generation by its short name, with its traits.
const GENERATIONS: [(&str, Traits); 10] = [
    ("rdna1", Traits::at(10).separate_ids()),
    ("rdna2", Traits::at(10).separate_ids()),
    ("rdna3", Traits::at(11).true16()),
    ("rdna3_5", Traits::at(11).true16()),
    ("rdna4", Traits::at(12).true16()),
    ("cdna1", Traits::at(9).cdna().separate_ids()),
    ("cdna2", Traits::at(9).cdna().gfx90a()),
    ("cdna3", Traits::at(9).cdna().gfx90a()),
    ("cdna4", Traits::at(9).cdna().gfx90a()),
    ("cdna5", Traits::at(12).cdna().true16()),
];

impl Traits {
    /// A generation this crate does not list (a spec without a known generation).
    pub const UNKNOWN: Traits = Traits::at(0);

    const fn at(gfx: u8) -> Traits {
        Traits {
            gfx,
            true16: false,
            wave64: false,
            agprs: false,
            gfx90a: false,
            packed_workitem_ids: true,
        }
    }

    const fn true16(self) -> Traits {
        Traits {
            true16: true,
            ..self
        }
    }

    const fn cdna(self) -> Traits {
        Traits {
            wave64: true,
            agprs: true,
            ..self
        }
    }

    const fn gfx90a(self) -> Traits {
        Traits {
            gfx90a: true,
            ..self
        }
    }

    const fn separate_ids(self) -> Traits {
        Traits {
            packed_workitem_ids: false,
            ..self
        }
    }

    /// The traits of the generation with short name `generation` (`rdna3_5`).
    pub const fn of(generation: &str) -> Option<Traits> {
        let mut i = 0;
        while i < GENERATIONS.len() {
            if str_eq(GENERATIONS[i].0, generation) {
                return Some(GENERATIONS[i].1);
            }
            i += 1;
        }
        None
    }

    /// [`Traits::of`], or [`Traits::UNKNOWN`] for a name this crate does not list (what the
    /// generated tables store).
    pub const fn named(generation: &str) -> Traits {
        match Traits::of(generation) {
            Some(t) => t,
            None => Traits::UNKNOWN,
        }
    }

    /// GFX10 or later: DPP8 exists, DPP16 has `row_share`/`row_xmask` instead of wave shifts.
    pub const fn gfx10_up(self) -> bool {
        self.gfx >= 10
    }

    /// GFX11 or later: M0 and NULL swap codes, True16, the GFX11 message set.
    pub const fn gfx11_up(self) -> bool {
        self.gfx >= 11
    }
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Every generation's short name.
pub const NAMES: [&str; GENERATIONS.len()] = gfx_names(0, u8::MAX);

/// How many generations have a GFX major version in `lo..=hi` (the length of [`gfx_names`]).
pub const fn gfx_count(lo: u8, hi: u8) -> usize {
    let (mut i, mut n) = (0, 0);
    while i < GENERATIONS.len() {
        let g = GENERATIONS[i].1.gfx;
        if lo <= g && g <= hi {
            n += 1;
        }
        i += 1;
    }
    n
}

/// The short names of the generations with a GFX major version in `lo..=hi`, in table order;
/// `N` is [`gfx_count`]`(lo, hi)` (a different `N` fails to compile).
pub const fn gfx_names<const N: usize>(lo: u8, hi: u8) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut i, mut n) = (0, 0);
    while i < GENERATIONS.len() {
        let g = GENERATIONS[i].1.gfx;
        if lo <= g && g <= hi {
            out[n] = GENERATIONS[i].0;
            n += 1;
        }
        i += 1;
    }
    assert!(n == N, "gfx_names: N is not gfx_count(lo, hi)");
    out
}

/// The GFX9 generations (CDNA 1-4).
pub const GFX9: [&str; gfx_count(9, 9)] = gfx_names(9, 9);
/// GFX11 and later (RDNA 3, 3.5, 4, CDNA 5).
pub const GFX11_UP: [&str; gfx_count(11, u8::MAX)] = gfx_names(11, u8::MAX);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_and_variants_from_names() {
        assert_eq!(classify("ENC_SOP1"), (Family::Sop1, Variant::PLAIN));
        let (f, v) = classify("SOP2_INST_LITERAL64");
        assert_eq!((f, v.literal), (Family::Sop2, true));
        let (f, v) = classify("VOP3_VOP_DPP16");
        assert_eq!(
            (f, v.dpp16, v.dpp8, v.plain_dpp),
            (Family::Vop3, true, false, false)
        );
        let (f, v) = classify("VOP1_VOP_DPP8");
        assert_eq!((f, v.dpp16, v.dpp8), (Family::Vop1, false, true));
        let (f, v) = classify("VOP1_VOP_DPP");
        assert_eq!((f, v.dpp16, v.plain_dpp), (Family::Vop1, true, true));
        let (f, v) = classify("VOPC_VOP_SDWA_SDST_ENC");
        assert_eq!((f, v.sdwa, v.sdst), (Family::Vopc, true, true));
        let (f, v) = classify("ENC_VOP3PX2");
        assert_eq!((f, v.x2), (Family::Vop3p, true));
        assert_eq!(
            classify("VOP3P_MFMA").1,
            Variant {
                mfma: true,
                ..Variant::PLAIN
            }
        );
        assert_eq!(classify("ENC_FLAT_GLBL").0, Family::FlatGlobal);
        assert_eq!(classify("ENC_VGLOBAL").0, Family::FlatGlobal);
        assert_eq!(classify("ENC_FLAT_SCRATCH").0, Family::FlatScratch);
        assert_eq!(classify("ENC_FLAT").0, Family::Flat);
        assert_eq!(classify("ENC_VDS").0, Family::Ds);
        assert_eq!(classify("ENC_MTBUF").0, Family::Mtbuf);
        assert_eq!(classify("ENC_VBUFFER").0, Family::Mubuf);
        assert_eq!(classify("ENC_VDSDIR").0, Family::Interp);
        assert_eq!(classify("ENC_VINTERP").0, Family::Interp);
        assert_eq!(classify("MIMG_NSA1").0, Family::Mimg);
        assert_eq!(classify("VOPDXY_INST_LITERAL").0, Family::Vopd);
        assert_eq!(
            classify("VOP3SD"),
            (
                Family::Vop3,
                Variant {
                    sdst: true,
                    ..Variant::PLAIN
                }
            )
        );
        assert_eq!(classify("ENC_SOMETHING_NEW").0, Family::Other);
    }

    #[test]
    fn roles_and_fields_are_indexed_in_order() {
        for (i, r) in Role::ALL.iter().enumerate() {
            assert_eq!(*r as usize, i);
            assert_eq!(role::NAMES[i], r.ident());
        }
        assert_eq!(role::COUNT, 16);
        assert_eq!((role::S0, role::VDST, role::VADDR), (0, 6, 15));
        assert_eq!(Role::Vdst.ident(), "VDST");
        assert_eq!(Role::S2.source_index(), Some(2));
        assert_eq!(Role::D0.source_index(), None);
        assert_eq!(field::COUNT, field::NAMES.len());
        assert_eq!(field::NAMES[field::OPSEL_HI2], "OPSEL_HI2");
        assert_eq!(field::ALIASES[field::OPSEL], ["OPSEL", "OP_SEL"]);
        // The DPP8 selects are read as LANE_SEL_0 + lane.
        for k in 0..8 {
            assert_eq!(field::NAMES[field::LANE_SEL_0 + k], format!("LANE_SEL_{k}"));
        }
        assert_eq!(field::OFFEN, field::COUNT - 1);
        assert_eq!(ExecStatus::Override.name(), "override");
    }

    #[test]
    fn generation_sets_follow_the_traits() {
        assert_eq!(GFX11_UP, ["rdna3", "rdna3_5", "rdna4", "cdna5"]);
        assert_eq!(GFX9, ["cdna1", "cdna2", "cdna3", "cdna4"]);
        assert_eq!(NAMES.len(), 10);
        for name in NAMES {
            let t = Traits::of(name).unwrap();
            assert_eq!(GFX11_UP.contains(&name), t.gfx11_up());
            assert!(t.gfx >= 9);
        }
        assert_eq!(Traits::of("rdna5"), None);
        assert!(!Traits::of("cdna3").unwrap().true16);
        assert!(Traits::of("cdna5").unwrap().true16);
        assert!(Traits::of("rdna1").unwrap().gfx10_up());
        assert!(!Traits::of("cdna4").unwrap().gfx10_up());
        let wave64: Vec<&str> = NAMES
            .into_iter()
            .filter(|n| Traits::of(n).unwrap().wave64)
            .collect();
        assert_eq!(wave64, ["cdna1", "cdna2", "cdna3", "cdna4", "cdna5"]);
        assert!(Traits::of("cdna3").unwrap().gfx90a && !Traits::of("cdna1").unwrap().gfx90a);
        assert!(!Traits::of("rdna2").unwrap().packed_workitem_ids);
        assert!(Traits::of("rdna3").unwrap().packed_workitem_ids);
        assert!(!Traits::of("rdna4").unwrap().agprs);
    }
}
