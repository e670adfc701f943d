//! Scalar families: SOP1, SOP2, SOPK, SOPC, SOPP, SMEM.

use super::{Family, Printer, Variant};

pub fn print(p: &mut Printer, _family: Family, _variant: Variant) {
    p.default_print();
}
