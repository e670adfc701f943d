//! Memory families: DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, MIMG, export.

use super::{Family, Printer, Variant};

pub fn print(p: &mut Printer, _family: Family, _variant: Variant) {
    p.default_print();
}
