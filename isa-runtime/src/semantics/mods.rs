//! VOP3 input and output modifiers ([`Mods`]).

use super::*;

/// The VOP3/VOP3P/SDWA input and output modifiers of one instruction.
#[derive(Clone, Copy, Debug, Default)]
pub struct Mods {
    pub abs: u8,
    pub neg: u8,
    pub clamp: bool,
    pub omod: u8,
}

impl Mods {
    /// Reads the modifier fields. DPP lane movement is applied by the caller with
    /// [`dpp_src0`] when `dpp_applied`; otherwise a DPP form that moves lanes is unsupported,
    /// as are SDWA selects other than the whole dword and VOP3P half selects other than the
    /// default.
    pub fn read(d: &Decoded, b: &FormBinding) -> Result<Mods, ExecError> {
        Mods::read_with(d, b, false)
    }

    pub fn read_with(d: &Decoded, b: &FormBinding, dpp_applied: bool) -> Result<Mods, ExecError> {
        let f = |k| b.field(d, k);
        let mut m = Mods {
            abs: f(field::ABS) as u8,
            neg: f(field::NEG) as u8,
            clamp: f(field::CLAMP) != 0,
            omod: f(field::OMOD) as u8,
        };
        let refuse = |what: &str| Err(ExecError::unsupported(d.mnemonic(), what.to_string()));
        match b.variant {
            variant::DPP16 | variant::DPP | variant::DPP8 if dpp_applied => {
                m.abs |= f(field::SRC0_ABS) as u8 | (f(field::SRC1_ABS) as u8) << 1;
                m.neg |= f(field::SRC0_NEG) as u8 | (f(field::SRC1_NEG) as u8) << 1;
            }
            variant::DPP16 | variant::DPP => {
                // quad_perm [0,1,2,3] with all rows and banks enabled moves nothing.
                let ctrl = f(field::DPP_CTRL);
                let rows = if b.has_field(field::ROW_MASK) {
                    f(field::ROW_MASK)
                } else {
                    0xf
                };
                let banks = if b.has_field(field::BANK_MASK) {
                    f(field::BANK_MASK)
                } else {
                    0xf
                };
                if ctrl != 0xe4 || rows != 0xf || banks != 0xf {
                    return refuse("DPP lane movement other than the identity is not modelled");
                }
                m.abs |= f(field::SRC0_ABS) as u8 | (f(field::SRC1_ABS) as u8) << 1;
                m.neg |= f(field::SRC0_NEG) as u8 | (f(field::SRC1_NEG) as u8) << 1;
            }
            variant::DPP8 => {
                if (0..8).any(|k| f(field::LANE_SEL_0 + k) != k as u64) {
                    return refuse("DPP8 lane selects other than the identity are not modelled");
                }
            }
            variant::SDWA => {
                // SEL 6 = DWORD; DST_UNUSED is irrelevant when the whole dword is written.
                for k in [field::SRC0_SEL, field::SRC1_SEL, field::DST_SEL] {
                    if b.has_field(k) && f(k) != 6 {
                        return refuse("SDWA byte/word selects are not modelled");
                    }
                }
                if f(field::SRC0_SEXT) != 0 || f(field::SRC1_SEXT) != 0 {
                    return refuse("SDWA sign extension is not modelled");
                }
                m.abs |= f(field::SRC0_ABS) as u8 | (f(field::SRC1_ABS) as u8) << 1;
                m.neg |= f(field::SRC0_NEG) as u8 | (f(field::SRC1_NEG) as u8) << 1;
            }
            variant::VOP3P if dpp_applied => {
                // The halves are picked by `vop3p_src` (or by the pseudocode itself).
                m.neg = 0;
                m.abs = 0;
            }
            variant::VOP3P => {
                if f(field::OPSEL) != 0
                    || (b.has_field(field::OPSEL_HI) && opsel_hi(d, b) & 3 != 3)
                    || f(field::NEG) != 0
                    || f(field::NEG_HI) != 0
                {
                    return refuse("VOP3P half selects and negations are not modelled");
                }
                m.neg = 0;
            }
            _ => {
                if f(field::OPSEL) != 0 {
                    return refuse("VOP3 op_sel (16-bit halves) is not modelled");
                }
            }
        }
        Ok(m)
    }

    /// A float source `k` with its abs and neg modifiers applied.
    #[inline]
    pub fn src<T: SoftFloat>(&self, k: usize, x: T) -> T {
        let x = if self.abs >> k & 1 != 0 {
            fl::abs(x)
        } else {
            x
        };
        if self.neg >> k & 1 != 0 {
            fl::neg(x)
        } else {
            x
        }
    }

    /// A float result with the output modifier (×2, ×4, ×0.5) and clamp applied.
    #[inline]
    pub fn out<T: SoftFloat>(&self, w: &Wave, x: T) -> T {
        if self.omod == 0 && !self.clamp {
            return x;
        }
        let env = w.mode.env::<T>();
        let x = match self.omod {
            1 => fl::mul(env, x, fl::constant::<T>(2.0)),
            2 => fl::mul(env, x, fl::constant::<T>(4.0)),
            3 => fl::mul(env, x, fl::constant::<T>(0.5)),
            _ => x,
        };
        if self.clamp {
            fl::clamp01(x, w.mode.dx10_clamp())
        } else {
            x
        }
    }

    /// Integer results: the clamp bit asks for saturation, which the pseudocode does not
    /// describe; refuse rather than ignore it.
    #[inline]
    pub fn int_out(&self, d: &Decoded) -> Result<(), ExecError> {
        if self.clamp || self.omod != 0 {
            return Err(ExecError::unsupported(
                d.mnemonic(),
                "clamp/omod on an integer result is not modelled",
            ));
        }
        Ok(())
    }
}
