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

/// What code decides by generation, stated once per generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Traits {
    /// LLVM's GFX major version of the generation's targets: 9 (CDNA 1-4, gfx908-gfx950),
    /// 10 (RDNA 1-2), 11 (RDNA 3, 3.5), 12 (RDNA 4, and CDNA 5's gfx1250). 0: not known.
    pub gfx: u8,
    /// VOP1, VOP2 and VOPC name the high half of a 16-bit VGPR in bit 7 of the register
    /// number (True16); VOP3 uses op_sel instead.
    pub true16: bool,
}

/// Every generation by its short name, with its traits.
const GENERATIONS: [(&str, Traits); 10] = [
    ("rdna1", Traits::at(10, false)),
    ("rdna2", Traits::at(10, false)),
    ("rdna3", Traits::at(11, true)),
    ("rdna3_5", Traits::at(11, true)),
    ("rdna4", Traits::at(12, true)),
    ("cdna1", Traits::at(9, false)),
    ("cdna2", Traits::at(9, false)),
    ("cdna3", Traits::at(9, false)),
    ("cdna4", Traits::at(9, false)),
    ("cdna5", Traits::at(12, true)),
];

impl Traits {
    /// A generation this crate does not list (a spec without a known generation).
    pub const UNKNOWN: Traits = Traits::at(0, false);

    const fn at(gfx: u8, true16: bool) -> Traits {
        Traits { gfx, true16 }
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
    }
}
