//! Hand-built operand types with the layouts of AMD's (waitcnt, hwreg, depctr, delay,
//! version), shared by the unit tests of the disassembler and of the assembler's readers.

use crate::tables::{FieldInfo, OperandTypeInfo, RangeInfo};

pub const fn range(offset: u8, count: u8) -> RangeInfo {
    RangeInfo {
        offset,
        count,
        pad_bits: 0,
        pad_value: 0,
    }
}

pub const fn field(name: &'static str, ranges: &'static [RangeInfo]) -> FieldInfo {
    FieldInfo {
        name,
        ranges,
        conditional: false,
    }
}

pub const fn ty(name: &'static str, fields: &'static [FieldInfo]) -> OperandTypeInfo {
    OperandTypeInfo {
        name,
        runs: &[],
        values: &[],
        fields,
        subtypes: &[],
    }
}

pub static WAITCNT_GFX9: OperandTypeInfo = ty(
    "OPR_WAITCNT",
    &[
        field("EXP", &[range(4, 3)]),
        field("LGKM", &[range(8, 4)]),
        field("VM", &[range(0, 4), range(14, 2)]),
    ],
);
pub static WAITCNT_GFX11: OperandTypeInfo = ty(
    "OPR_WAITCNT",
    &[
        field("EXP", &[range(0, 3)]),
        field("LGKM", &[range(4, 6)]),
        field("VM", &[range(10, 6)]),
    ],
);
pub static HWREG: OperandTypeInfo = ty(
    "OPR_HWREG",
    &[
        field("ID", &[range(0, 6)]),
        field("OFFSET", &[range(6, 5)]),
        field("SIZE", &[range(11, 5)]),
    ],
);
pub static DEPCTR_GFX10_1: OperandTypeInfo = ty(
    "OPR_WAITCNT_DEPCTR",
    &[
        field("SA_SDST", &[range(0, 1)]),
        field("VA_SDST", &[range(9, 3)]),
        field("VA_SSRC", &[range(8, 1)]),
        field("VA_VCC", &[range(1, 1)]),
        field("VA_VDST", &[range(12, 4)]),
        field("VM_VSRC", &[range(2, 3)]),
    ],
);
pub static DEPCTR_GFX11: OperandTypeInfo = ty(
    "OPR_WAITCNT_DEPCTR",
    &[
        field("HOLD_CNT", &[range(7, 1)]),
        field("SA_SDST", &[range(0, 1)]),
        field("VA_SDST", &[range(9, 3)]),
        field("VA_SSRC", &[range(8, 1)]),
        field("VA_VCC", &[range(1, 1)]),
        field("VA_VDST", &[range(12, 4)]),
        field("VM_VSRC", &[range(2, 3)]),
    ],
);
pub static DELAY: OperandTypeInfo = ty(
    "OPR_DELAY",
    &[
        field("INSTID0", &[range(0, 4)]),
        field("INSTID1", &[range(7, 4)]),
        field("INSTSKIP", &[range(4, 3)]),
    ],
);
pub static VERSION: OperandTypeInfo = ty(
    "OPR_VERSION",
    &[
        field("MDP", &[range(15, 1)]),
        field("VERSION", &[range(0, 8)]),
        field("W32", &[range(14, 1)]),
        field("W64", &[range(13, 1)]),
    ],
);
