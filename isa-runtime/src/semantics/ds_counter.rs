//! `DS_APPEND` and `DS_CONSUME` on LDS (GFX9 line): one atomic for the wave on the dword at
//! M0 + OFFSET, adding (append) or subtracting (consume) the number of active lanes; every
//! active lane gets the dword's value before the change. AMD gives no pseudocode for them.
//! GDS counters (the GDS bit) are not modelled.

use super::{ds_offset, role, store_lanes, FormBinding, FormBindings};
use crate::exec::wave::MAX_LANES;
use crate::exec::{Decoded, ExecError, Flow, Lds, Memory, Wave};

fn counter(
    w: &mut Wave,
    d: &Decoded,
    table: &'static FormBindings,
    lds: &mut Lds,
    append: bool,
) -> Result<Flow, ExecError> {
    let b = FormBinding::of(d, table)?;
    if d.field("GDS").is_some_and(|g| g != 0) {
        return Err(ExecError::unsupported(
            d.mnemonic(),
            "GDS append/consume counters are not modelled",
        ));
    }
    let addr = (w.m0 as u64).wrapping_add(ds_offset(d, b)) & 0xffff_ffff;
    let exec = w.exec_mask();
    let n = exec.count_ones();
    let old = lds.read_u32(addr)?;
    let new = if append {
        old.wrapping_add(n)
    } else {
        old.wrapping_sub(n)
    };
    lds.write_u32(addr, new)?;
    store_lanes(w, b.op(d, role::VDST)?, 0, &[old; MAX_LANES], exec)?;
    Ok(Flow::Next)
}

pub fn ds_append(
    w: &mut Wave,
    d: &Decoded,
    table: &'static FormBindings,
    _mem: &mut dyn Memory,
    lds: &mut Lds,
) -> Result<Flow, ExecError> {
    counter(w, d, table, lds, true)
}

pub fn ds_consume(
    w: &mut Wave,
    d: &Decoded,
    table: &'static FormBindings,
    _mem: &mut dyn Memory,
    lds: &mut Lds,
) -> Result<Flow, ExecError> {
    counter(w, d, table, lds, false)
}
