//! The AMD GPU generations the project knows, and how a spec file is recognised as one.

use serde::Serialize;
use std::fmt;

/// One AMD GPU instruction-set generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Generation {
    Rdna1,
    Rdna2,
    Rdna3,
    Rdna3_5,
    Rdna4,
    Cdna1,
    Cdna2,
    Cdna3,
    Cdna4,
    Cdna5,
}

impl Generation {
    pub const ALL: [Generation; 10] = [
        Generation::Rdna1,
        Generation::Rdna2,
        Generation::Rdna3,
        Generation::Rdna3_5,
        Generation::Rdna4,
        Generation::Cdna1,
        Generation::Cdna2,
        Generation::Cdna3,
        Generation::Cdna4,
        Generation::Cdna5,
    ];

    /// The short name used in file names, CLI flags and cargo features (`rdna3_5`).
    pub fn name(self) -> &'static str {
        match self {
            Generation::Rdna1 => "rdna1",
            Generation::Rdna2 => "rdna2",
            Generation::Rdna3 => "rdna3",
            Generation::Rdna3_5 => "rdna3_5",
            Generation::Rdna4 => "rdna4",
            Generation::Cdna1 => "cdna1",
            Generation::Cdna2 => "cdna2",
            Generation::Cdna3 => "cdna3",
            Generation::Cdna4 => "cdna4",
            Generation::Cdna5 => "cdna5",
        }
    }

    /// The LLVM processor used as the reference for this generation (`llvm-mc -mcpu`).
    pub fn llvm_mcpu(self) -> &'static str {
        match self {
            Generation::Rdna1 => "gfx1010",
            Generation::Rdna2 => "gfx1030",
            Generation::Rdna3 => "gfx1100",
            Generation::Rdna3_5 => "gfx1150",
            Generation::Rdna4 => "gfx1200",
            Generation::Cdna1 => "gfx908",
            Generation::Cdna2 => "gfx90a",
            Generation::Cdna3 => "gfx942",
            Generation::Cdna4 => "gfx950",
            Generation::Cdna5 => "gfx1250",
        }
    }

    /// What code decides by generation (GFX level, True16), from the one table in
    /// `isa-vocab`.
    pub fn traits(self) -> isa_vocab::Traits {
        isa_vocab::Traits::of(self.name()).expect("isa-vocab lists every generation")
    }

    /// Whether the generation runs wave64 by default (CDNA) or wave32 (RDNA).
    pub fn is_cdna(self) -> bool {
        matches!(
            self,
            Generation::Cdna1
                | Generation::Cdna2
                | Generation::Cdna3
                | Generation::Cdna4
                | Generation::Cdna5
        )
    }

    /// Whether the emulator runs waves of 64 lanes by default (see [`isa_vocab::Traits::wave64`]).
    pub fn default_wave64(self) -> bool {
        self.traits().wave64
    }

    /// Parses a short name (`rdna3_5`), also accepting `rdna3.5` and the old CDNA names (`mi300`).
    pub fn from_name(s: &str) -> Option<Generation> {
        let s = s.trim().to_ascii_lowercase().replace(['.', '-', ' '], "_");
        let g = match s.as_str() {
            "rdna1" => Generation::Rdna1,
            "rdna2" => Generation::Rdna2,
            "rdna3" => Generation::Rdna3,
            "rdna3_5" | "rdna35" => Generation::Rdna3_5,
            "rdna4" => Generation::Rdna4,
            "cdna1" | "mi100" => Generation::Cdna1,
            "cdna2" | "mi200" => Generation::Cdna2,
            "cdna3" | "mi300" => Generation::Cdna3,
            "cdna4" => Generation::Cdna4,
            "cdna5" => Generation::Cdna5,
            _ => return None,
        };
        Some(g)
    }

    /// Recognises a generation from the spec's `ArchitectureName` (`AMD RDNA 3.5`, `AMD CDNA 3`,
    /// `MI300`, ...).
    pub fn from_architecture_name(name: &str) -> Option<Generation> {
        let lower = name.to_ascii_lowercase();
        let lower = lower.trim().trim_start_matches("amd").trim();
        // "rdna 3.5" -> "rdna3_5"; "instinct mi300" -> "mi300".
        let squashed: String = lower
            .replace("instinct", "")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join("");
        Generation::from_name(&squashed)
    }

    /// Recognises a generation from a file name such as `amdgpu_isa_rdna3_5.xml` or `cdna4.pcode`.
    pub fn from_file_name(file_name: &str) -> Option<Generation> {
        let stem = file_name.split('.').next().unwrap_or(file_name);
        let stem = stem.strip_prefix("amdgpu_isa_").unwrap_or(stem);
        Generation::from_name(stem)
    }
}

impl fmt::Display for Generation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Generation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        Generation::from_name(s).ok_or_else(|| {
            let names: Vec<_> = Generation::ALL.iter().map(|g| g.name()).collect();
            format!(
                "unknown generation `{s}` (expected one of {})",
                names.join(", ")
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn architecture_names_map_to_generations() {
        assert_eq!(
            Generation::from_architecture_name("AMD RDNA 3.5"),
            Some(Generation::Rdna3_5)
        );
        assert_eq!(
            Generation::from_architecture_name("AMD CDNA 4"),
            Some(Generation::Cdna4)
        );
        assert_eq!(
            Generation::from_architecture_name("AMD Instinct MI300"),
            Some(Generation::Cdna3)
        );
        assert_eq!(
            Generation::from_architecture_name("AMD RDNA 1"),
            Some(Generation::Rdna1)
        );
        assert_eq!(Generation::from_architecture_name("Something else"), None);
    }

    #[test]
    fn file_names_map_to_generations() {
        assert_eq!(
            Generation::from_file_name("amdgpu_isa_rdna3_5.xml"),
            Some(Generation::Rdna3_5)
        );
        assert_eq!(
            Generation::from_file_name("cdna4.pcode"),
            Some(Generation::Cdna4)
        );
        assert_eq!(
            Generation::from_file_name("amdgpu_isa_mi100.xml"),
            Some(Generation::Cdna1)
        );
        assert_eq!(Generation::from_file_name("notes.txt"), None);
    }

    #[test]
    fn vocab_lists_the_same_generations() {
        let names: Vec<_> = Generation::ALL.iter().map(|g| g.name()).collect();
        assert_eq!(names, isa_vocab::NAMES);
        assert!(Generation::Rdna3.traits().true16);
        assert!(!Generation::Cdna3.traits().gfx10_up());
    }

    #[test]
    fn every_name_round_trips() {
        for g in Generation::ALL {
            assert_eq!(g.name().parse::<Generation>(), Ok(g));
        }
    }
}
