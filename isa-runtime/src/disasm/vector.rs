//! Vector ALU families: VOP1, VOP2, VOPC, VOP3, VOP3P, VOPD, with literal, DPP and SDWA forms.

use super::{Family, Printer, Variant};

pub fn print(p: &mut Printer, _family: Family, _variant: Variant) {
    p.default_print();
}
