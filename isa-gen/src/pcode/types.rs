//! Value types of the pseudocode: a kind (unsigned, signed, float, ...) and a width in bits.

use serde::Serialize;
use std::fmt;

/// What the bits of a value mean.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Unsigned integer (`.u32`, `32'U`).
    Unsigned,
    /// Two's complement integer (`.i32`, `32'I`).
    Signed,
    /// IEEE-style binary float: f16/f32/f64, and the small formats fp8 (E4M3), fp6 (E2M3),
    /// fp4 (E2M1).
    Float,
    /// The "brain" float formats: bf16, bf8 (E5M2), bf6 (E3M2).
    BFloat,
    /// Untyped bits (`.b32`, `32'B`): arithmetic on them is unsigned.
    Bits,
    /// A truth value (comparisons, `&&`); width 1, converts to and from `u1`.
    Bool,
}

/// A value type. Every IR expression carries one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Ty {
    pub kind: Kind,
    pub width: u32,
}

impl Ty {
    pub const BOOL: Ty = Ty {
        kind: Kind::Bool,
        width: 1,
    };
    pub const U1: Ty = Ty {
        kind: Kind::Unsigned,
        width: 1,
    };
    pub const U32: Ty = Ty {
        kind: Kind::Unsigned,
        width: 32,
    };
    pub const U64: Ty = Ty {
        kind: Kind::Unsigned,
        width: 64,
    };
    pub const I32: Ty = Ty {
        kind: Kind::Signed,
        width: 32,
    };
    pub const I64: Ty = Ty {
        kind: Kind::Signed,
        width: 64,
    };
    pub const F16: Ty = Ty {
        kind: Kind::Float,
        width: 16,
    };
    pub const F32: Ty = Ty {
        kind: Kind::Float,
        width: 32,
    };
    pub const F64: Ty = Ty {
        kind: Kind::Float,
        width: 64,
    };
    pub const B32: Ty = Ty {
        kind: Kind::Bits,
        width: 32,
    };
    pub const B64: Ty = Ty {
        kind: Kind::Bits,
        width: 64,
    };

    pub const fn new(kind: Kind, width: u32) -> Ty {
        Ty { kind, width }
    }
    pub const fn unsigned(width: u32) -> Ty {
        Ty {
            kind: Kind::Unsigned,
            width,
        }
    }
    pub const fn signed(width: u32) -> Ty {
        Ty {
            kind: Kind::Signed,
            width,
        }
    }
    pub const fn bits(width: u32) -> Ty {
        Ty {
            kind: Kind::Bits,
            width,
        }
    }
    pub const fn float(width: u32) -> Ty {
        Ty {
            kind: Kind::Float,
            width,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self.kind, Kind::Float | Kind::BFloat)
    }
    /// Unsigned, signed or bits: values that integer arithmetic applies to.
    pub fn is_integer(self) -> bool {
        matches!(self.kind, Kind::Unsigned | Kind::Signed | Kind::Bits)
    }
    pub fn is_bool(self) -> bool {
        self.kind == Kind::Bool
    }

    /// Reads a type accessor name: `u32`, `i24`, `b128`, `f16`, `bf16`, `fp8`, `bf6`, `u1`, and
    /// RDNA2's short forms `u`/`i`/`b` (32-bit integers), `f` (f32) and `d` (f64).
    pub fn from_accessor(name: &str) -> Option<Ty> {
        match name {
            "u" => return Some(Ty::U32),
            "i" => return Some(Ty::I32),
            "b" => return Some(Ty::B32),
            "f" => return Some(Ty::F32),
            "d" => return Some(Ty::F64),
            _ => {}
        }
        let split = name.find(|c: char| c.is_ascii_digit())?;
        let (prefix, digits) = name.split_at(split);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 4 {
            return None;
        }
        let width: u32 = digits.parse().ok()?;
        if width == 0 {
            return None;
        }
        let kind = match prefix {
            "u" => Kind::Unsigned,
            "i" => Kind::Signed,
            "b" => Kind::Bits,
            "f" | "fp" => Kind::Float,
            "bf" => Kind::BFloat,
            _ => return None,
        };
        if matches!(kind, Kind::Float | Kind::BFloat) && !float_format_exists(kind, width) {
            return None;
        }
        Some(Ty { kind, width })
    }

    /// Reads the letter(s) of a sized type or cast: `U`, `I`, `B`, `F`, `BF`.
    pub fn from_sized(width: u32, letters: &str) -> Option<Ty> {
        let kind = match letters {
            "U" => Kind::Unsigned,
            "I" => Kind::Signed,
            "B" => Kind::Bits,
            "F" => Kind::Float,
            "BF" => Kind::BFloat,
            _ => return None,
        };
        Some(Ty { kind, width })
    }
}

/// The float formats AMD's ISAs use.
pub fn float_format_exists(kind: Kind, width: u32) -> bool {
    match kind {
        Kind::Float => matches!(width, 4 | 6 | 8 | 16 | 32 | 64),
        Kind::BFloat => matches!(width, 6 | 8 | 16),
        _ => false,
    }
}

impl fmt::Display for Ty {
    /// The accessor spelling: `u32`, `i64`, `f16`, `bf16`, `fp8`, `b128`, `bool`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            Kind::Unsigned => write!(f, "u{}", self.width),
            Kind::Signed => write!(f, "i{}", self.width),
            Kind::Bits => write!(f, "b{}", self.width),
            Kind::Float if self.width <= 8 => write!(f, "fp{}", self.width),
            Kind::Float => write!(f, "f{}", self.width),
            Kind::BFloat => write!(f, "bf{}", self.width),
            Kind::Bool => f.write_str("bool"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accessors_read_kind_and_width() {
        assert_eq!(Ty::from_accessor("u32"), Some(Ty::U32));
        assert_eq!(Ty::from_accessor("i24"), Some(Ty::signed(24)));
        assert_eq!(Ty::from_accessor("b128"), Some(Ty::bits(128)));
        assert_eq!(Ty::from_accessor("bf16"), Some(Ty::new(Kind::BFloat, 16)));
        assert_eq!(Ty::from_accessor("fp8"), Some(Ty::float(8)));
        assert_eq!(Ty::from_accessor("d"), Some(Ty::F64));
        assert_eq!(Ty::from_accessor("f24"), None);
        assert_eq!(Ty::from_accessor("PRIV"), None);
        assert_eq!(Ty::from_accessor("u0"), None);
    }

    #[test]
    fn types_print_as_accessors() {
        assert_eq!(Ty::from_accessor("fp8").unwrap().to_string(), "fp8");
        assert_eq!(Ty::from_accessor("bf16").unwrap().to_string(), "bf16");
        assert_eq!(Ty::I64.to_string(), "i64");
        assert_eq!(Ty::BOOL.to_string(), "bool");
    }
}
