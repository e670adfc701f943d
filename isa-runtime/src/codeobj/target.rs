//! The processor a code object was compiled for, from the `EF_AMDGPU_MACH` field of the ELF
//! header's `e_flags`, and the project generation whose spec decodes it.
//!
//! Values are LLVM's (AMDGPUUsage, "AMDGPU ELF Header e_flags"); each family's other
//! processors and its generic target map to the same generation as the family's first one.

use std::fmt;

/// `e_flags` bits 7:0: the processor.
const MACH_MASK: u32 = 0xff;
/// `e_flags` bits 9:8: the XNACK setting (code object v4+): unsupported, any, off, on.
const XNACK_SHIFT: u32 = 8;
/// `e_flags` bits 11:10: the SRAMECC setting, same encoding.
const SRAMECC_SHIFT: u32 = 10;
/// `e_flags` bits 31:24: the version of a generic target (0 for a specific processor).
const GENERIC_VERSION_SHIFT: u32 = 24;

/// (EF_AMDGPU_MACH value, LLVM processor name, generation).
const MACHINES: &[(u32, &str, &str)] = &[
    // GFX10.1: RDNA 1.
    (0x033, "gfx1010", "rdna1"),
    (0x034, "gfx1011", "rdna1"),
    (0x035, "gfx1012", "rdna1"),
    (0x042, "gfx1013", "rdna1"),
    (0x052, "gfx10-1-generic", "rdna1"),
    // GFX10.3: RDNA 2.
    (0x036, "gfx1030", "rdna2"),
    (0x037, "gfx1031", "rdna2"),
    (0x038, "gfx1032", "rdna2"),
    (0x039, "gfx1033", "rdna2"),
    (0x03e, "gfx1034", "rdna2"),
    (0x03d, "gfx1035", "rdna2"),
    (0x045, "gfx1036", "rdna2"),
    (0x053, "gfx10-3-generic", "rdna2"),
    // GFX11.0: RDNA 3 (the generic target runs on 11.0 and 11.5, so it is decoded as 11.0).
    (0x041, "gfx1100", "rdna3"),
    (0x046, "gfx1101", "rdna3"),
    (0x047, "gfx1102", "rdna3"),
    (0x044, "gfx1103", "rdna3"),
    (0x054, "gfx11-generic", "rdna3"),
    // GFX11.5: RDNA 3.5.
    (0x043, "gfx1150", "rdna3_5"),
    (0x04a, "gfx1151", "rdna3_5"),
    (0x055, "gfx1152", "rdna3_5"),
    (0x058, "gfx1153", "rdna3_5"),
    // GFX12.0: RDNA 4.
    (0x048, "gfx1200", "rdna4"),
    (0x04e, "gfx1201", "rdna4"),
    (0x059, "gfx12-generic", "rdna4"),
    // GFX12.5: CDNA 5.
    (0x049, "gfx1250", "cdna5"),
    (0x05a, "gfx1251", "cdna5"),
    // GFX9 compute: CDNA 1, 2, 3, 4.
    (0x030, "gfx908", "cdna1"),
    (0x03f, "gfx90a", "cdna2"),
    (0x040, "gfx940", "cdna3"),
    (0x04b, "gfx941", "cdna3"),
    (0x04c, "gfx942", "cdna3"),
    (0x05f, "gfx9-4-generic", "cdna3"),
    (0x04f, "gfx950", "cdna4"),
];

/// Processors LLVM knows that no generation of this project covers (named in the error).
const OTHER_MACHINES: &[(u32, &str)] = &[
    (0x020, "gfx600"),
    (0x021, "gfx601"),
    (0x03a, "gfx602"),
    (0x022, "gfx700"),
    (0x023, "gfx701"),
    (0x024, "gfx702"),
    (0x025, "gfx703"),
    (0x026, "gfx704"),
    (0x03b, "gfx705"),
    (0x028, "gfx801"),
    (0x029, "gfx802"),
    (0x02a, "gfx803"),
    (0x03c, "gfx805"),
    (0x02b, "gfx810"),
    (0x02c, "gfx900"),
    (0x02d, "gfx902"),
    (0x02e, "gfx904"),
    (0x02f, "gfx906"),
    (0x031, "gfx909"),
    (0x032, "gfx90c"),
    (0x051, "gfx9-generic"),
];

/// A target feature's setting in `e_flags` (code object v4 and later).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FeatureSetting {
    Unsupported,
    Any,
    Off,
    On,
}

impl FeatureSetting {
    fn from_bits(bits: u32) -> FeatureSetting {
        match bits & 3 {
            0 => FeatureSetting::Unsupported,
            1 => FeatureSetting::Any,
            2 => FeatureSetting::Off,
            _ => FeatureSetting::On,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FeatureSetting::Unsupported => "unsupported",
            FeatureSetting::Any => "any",
            FeatureSetting::Off => "off",
            FeatureSetting::On => "on",
        }
    }
}

/// The target of a code object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    /// The `EF_AMDGPU_MACH` value.
    pub mach: u32,
    /// LLVM's processor name (`gfx942`), what `--mcpu` takes.
    pub processor: &'static str,
    /// The project generation (`cdna3`).
    pub generation: &'static str,
    pub xnack: FeatureSetting,
    pub sramecc: FeatureSetting,
    /// Non-zero for a generic target (`gfx11-generic`).
    pub generic_version: u32,
}

impl Target {
    /// Reads `e_flags`; an unknown machine is an error naming it.
    pub fn from_e_flags(e_flags: u32) -> Result<Target, String> {
        let mach = e_flags & MACH_MASK;
        if let Some(&(_, processor, generation)) = MACHINES.iter().find(|m| m.0 == mach) {
            return Ok(Target {
                mach,
                processor,
                generation,
                xnack: FeatureSetting::from_bits(e_flags >> XNACK_SHIFT),
                sramecc: FeatureSetting::from_bits(e_flags >> SRAMECC_SHIFT),
                generic_version: e_flags >> GENERIC_VERSION_SHIFT,
            });
        }
        match OTHER_MACHINES.iter().find(|m| m.0 == mach) {
            Some((_, name)) => Err(format!(
                "machine {name} (EF_AMDGPU_MACH {mach:#04x}) is not one of the generations this tool covers (RDNA 1-4, CDNA 1-5)"
            )),
            None => Err(format!(
                "unknown AMDGPU machine EF_AMDGPU_MACH {mach:#04x} (e_flags {e_flags:#x})"
            )),
        }
    }

    /// The processor named `processor`, if it is one of the covered ones.
    pub fn processor_generation(processor: &str) -> Option<&'static str> {
        MACHINES.iter().find(|m| m.1 == processor).map(|m| m.2)
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.processor, self.generation)?;
        for (name, s) in [("xnack", self.xnack), ("sramecc", self.sramecc)] {
            match s {
                FeatureSetting::Unsupported => {}
                FeatureSetting::Any => write!(f, ", {name}")?,
                FeatureSetting::Off => write!(f, ", {name}-")?,
                FeatureSetting::On => write!(f, ", {name}+")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_covered_machine_maps_to_its_generation() {
        // e_flags as clang-22 writes them for these processors.
        for (flags, processor, generation) in [
            (0x133, "gfx1010", "rdna1"),
            (0x36, "gfx1030", "rdna2"),
            (0x41, "gfx1100", "rdna3"),
            (0x43, "gfx1150", "rdna3_5"),
            (0x48, "gfx1200", "rdna4"),
            (0x530, "gfx908", "cdna1"),
            (0x53f, "gfx90a", "cdna2"),
            (0x54c, "gfx942", "cdna3"),
            (0x54f, "gfx950", "cdna4"),
            (0x549, "gfx1250", "cdna5"),
            (0x1000054, "gfx11-generic", "rdna3"),
        ] {
            let t = Target::from_e_flags(flags).unwrap();
            assert_eq!((t.processor, t.generation), (processor, generation));
        }
        let t = Target::from_e_flags(0x54c).unwrap();
        assert_eq!(
            (t.xnack, t.sramecc),
            (FeatureSetting::Any, FeatureSetting::Any)
        );
        assert_eq!(t.to_string(), "gfx942 (cdna3), xnack, sramecc");
    }

    #[test]
    fn unknown_and_uncovered_machines_are_named() {
        let e = Target::from_e_flags(0x2c).unwrap_err();
        assert!(e.contains("gfx900") && e.contains("0x2c"), "{e}");
        let e = Target::from_e_flags(0xfe).unwrap_err();
        assert!(
            e.contains("unknown AMDGPU machine") && e.contains("0xfe"),
            "{e}"
        );
    }

    #[test]
    fn machine_values_are_unique() {
        let mut seen: Vec<u32> = MACHINES.iter().map(|m| m.0).collect();
        seen.extend(OTHER_MACHINES.iter().map(|m| m.0));
        let n = seen.len();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), n);
    }
}
