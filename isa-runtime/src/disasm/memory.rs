//! Memory families: DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF, MIMG, export.
//!
//! AMD's XML lists the register operands of these instructions; the offsets, the GDS bit and
//! the cache-policy bits are plain encoding fields with no operand entry. LLVM prints them as
//! trailing modifiers (`offset:16 gds`, `offset0:1 offset1:2`, `glc slc dlc`, `th:... scope:...`),
//! and that knowledge is written down here.

use super::{operand_text, reg_text, Family, Printer, Variant};
use crate::operand::{DecodedOperand, Operand, RegFile};

pub fn print(p: &mut Printer, family: Family, _variant: Variant) {
    match family {
        Family::Ds => print_ds(p),
        Family::Flat | Family::FlatGlobal | Family::FlatScratch => print_flat(p, family),
        _ => p.default_print(),
    }
}

/// Text of a register operand, honouring the encoding's ACC bit: on CDNA, operands of type
/// "VGPR or AccVGPR" name accumulation registers (`a0`..) when the instruction's ACC bit is set.
fn mem_operand_text(p: &Printer, o: &DecodedOperand) -> String {
    if let Operand::Reg { file: RegFile::Vgpr, first, count } = o.value {
        let accvgpr = o
            .info
            .operand_type
            .is_some_and(|t| p.ins.spec.operand_types[t as usize].name.contains("ACCVGPR"));
        // The GWS instructions carry their data VGPR in the ADDR field (AMD types it as a
        // plain VGPR); LLVM treats it as data, so the ACC bit applies to it too.
        let gws_data = is_gws(p.ins.info().name);
        if (accvgpr || gws_data) && p.field("ACC") == Some(1) {
            return reg_text(RegFile::Agpr, first, count);
        }
    }
    operand_text(p.ins, o)
}

/// DS instructions that address two locations, each with its own 8-bit offset (LLVM prints
/// `offset0:` and `offset1:` for them instead of one 16-bit `offset:`).
fn ds_has_two_offsets(name: &str) -> bool {
    // DS_READ2_*, DS_WRITE2_*, DS_WRXCHG2_* (and the ST64 variants) before RDNA 3;
    // DS_LOAD_2ADDR_*, DS_STORE_2ADDR_*, DS_STOREXCHG_2ADDR_* from RDNA 3 on.
    name.contains("_2ADDR")
        || ["DS_READ2", "DS_WRITE2", "DS_WRXCHG2"].iter().any(|p| name.starts_with(p))
}

/// Global wave sync instructions: they always work on GDS.
fn is_gws(name: &str) -> bool {
    name.starts_with("DS_GWS_")
}

/// Whether LLVM's target for this generation has GDS. CDNA 2 and later (gfx90a, gfx942,
/// gfx950) have none: LLVM ignores the GDS bit there, except for GWS instructions, which
/// always print `gds`.
fn target_has_gds(generation: &str) -> bool {
    !matches!(generation, "cdna2" | "cdna3" | "cdna4")
}

/// LLVM's `offset:` text for `ds_swizzle_b32`: the 16-bit offset is a lane swizzle pattern.
fn swizzle_text(imm: u64) -> String {
    let imm = imm as u16;
    if imm & 0xff00 == 0x8000 {
        // Quad permute: four 2-bit lane selectors.
        let l: Vec<String> = (0..4).map(|k| ((imm >> (2 * k)) & 3).to_string()).collect();
        return format!("swizzle(QUAD_PERM,{})", l.join(","));
    }
    if imm & 0x8000 == 0 {
        // Bit-masked lane id: ((id & and) | or) ^ xor over 5 bits.
        let (and, or, xor) = (imm & 0x1f, (imm >> 5) & 0x1f, (imm >> 10) & 0x1f);
        if and == 0x1f && or == 0 && xor.count_ones() == 1 {
            return format!("swizzle(SWAP,{xor})");
        }
        if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
            return format!("swizzle(REVERSE,{})", xor + 1);
        }
        let group = 0x20 - and;
        if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
            return format!("swizzle(BROADCAST,{group},{or})");
        }
        let (p0, p1) = (or ^ xor, (0x1f & and | or) ^ xor);
        let bits: String = (0..5)
            .rev()
            .map(|b| match ((p0 >> b) & 1, (p1 >> b) & 1) {
                (0, 0) => '0',
                (1, 1) => '1',
                (0, _) => 'p',
                _ => 'i',
            })
            .collect();
        return format!("swizzle(BITMASK_PERM,\"{bits}\")");
    }
    match imm & 0xe000 {
        0xe000 => format!("swizzle(FFT,{})", imm & 0x1f),
        0xc000 => format!("swizzle(ROTATE,{},{})", (imm >> 10) & 1, (imm >> 5) & 0x1f),
        _ => imm.to_string(),
    }
}

fn print_ds(p: &mut Printer) {
    p.mnemonic();
    for o in p.explicit() {
        let t = mem_operand_text(p, &o);
        p.operand(&t);
    }
    let off0 = p.field("OFFSET0").unwrap_or(0);
    let off1 = p.field("OFFSET1").unwrap_or(0);
    let name = p.ins.info().name;
    if ds_has_two_offsets(name) {
        if off0 != 0 {
            p.modifier(&format!("offset0:{off0}"));
        }
        if off1 != 0 {
            p.modifier(&format!("offset1:{off1}"));
        }
    } else {
        let offset = off1 << 8 | off0;
        if offset != 0 {
            let text = if name.starts_with("DS_SWIZZLE") { swizzle_text(offset) } else { offset.to_string() };
            p.modifier(&format!("offset:{text}"));
        }
    }
    let gds = p.field("GDS") == Some(1) && target_has_gds(p.ins.spec.generation);
    if gds || is_gws(name) {
        p.modifier("gds");
    }
}

/// Whether a SADDR value means "no scalar address" (LLVM's `off`): AMD's NULL register
/// (RDNA), or the all-ones field value (CDNA, where the field has no NULL).
fn saddr_is_off(o: &DecodedOperand) -> bool {
    matches!(o.value, Operand::Named(n) if n.eq_ignore_ascii_case("NULL")) || o.raw == 0x7f
}

/// Sign-extends the low `bits` bits of `v`.
fn sign_extend(v: u64, bits: u32) -> i64 {
    let shift = 64 - bits;
    ((v << shift) as i64) >> shift
}

/// Whether an atomic returns the pre-op value (and so prints its destination): the GLC bit
/// (`SC0` on CDNA 3) before RDNA 4, the low bit of the temporal hint (`TH_ATOMIC_RETURN`) after.
fn atomic_returns(p: &Printer) -> bool {
    if let Some(th) = p.field("TH") {
        return th & 1 == 1;
    }
    p.field("GLC").or_else(|| p.field("SC0")) == Some(1)
}

fn print_flat(p: &mut Printer, family: Family) {
    let name = p.ins.info().name;
    let atomic = name.contains("_ATOMIC_");
    let saddr = p.op_in("SADDR");
    let saddr_off = saddr.as_ref().is_none_or(saddr_is_off);
    p.mnemonic();
    let enc = p.ins.encoding();
    for o in p.explicit() {
        let field = o.info.field.map_or("", |f| enc.fields[f as usize].name);
        match field {
            "VDST" if atomic && !atomic_returns(p) => continue,
            "ADDR" | "VADDR" => {
                // With a scalar base the VGPR is a 32-bit offset; without, a 64-bit address
                // (GLOBAL, FLAT) or a 32-bit scratch offset.
                if let Operand::Reg { file, first, count } = o.value {
                    let count = if family == Family::FlatGlobal && !saddr_off { 1 } else { count };
                    p.operand(&reg_text(file, first, count));
                    continue;
                }
            }
            "SADDR" if saddr_off => {
                p.operand("off");
                continue;
            }
            _ => {}
        }
        let t = mem_operand_text(p, &o);
        p.operand(&t);
    }
    print_flat_offset(p, family);
    print_cache_policy(p);
}

/// ` offset:N`: signed for GLOBAL and SCRATCH (and every FLAT from RDNA 4 on, whose offset is
/// 24 bits), unsigned for the FLAT segment before that.
fn print_flat_offset(p: &mut Printer, family: Family) {
    let enc = p.ins.encoding();
    let Some(field) = enc.fields.iter().find(|f| f.name == "OFFSET" || f.name == "IOFFSET") else {
        return;
    };
    let raw = field.extract(p.ins.bits);
    if raw == 0 {
        return;
    }
    let width = field.width();
    let signed = family != Family::Flat || width >= 24;
    let text = if signed { sign_extend(raw, width).to_string() } else { raw.to_string() };
    p.modifier(&format!("offset:{text}"));
}

/// The cache-policy bits as LLVM prints them: `glc slc dlc` (RDNA 1-3), `sc0 nt sc1` (CDNA 3),
/// `glc slc scc` (CDNA 2), `th:... scope:...` (RDNA 4 and later); then `lds`, `nv`.
fn print_cache_policy(p: &mut Printer) {
    for (field, text) in [
        ("GLC", "glc"),
        ("SC0", "sc0"),
        ("SLC", "slc"),
        ("NT", "nt"),
        ("DLC", "dlc"),
        ("SCC", "scc"),
        ("SC1", "sc1"),
    ] {
        if p.field(field) == Some(1) {
            p.modifier(text);
        }
    }
    if p.field("LDS") == Some(1) {
        p.modifier("lds");
    }
    if p.field("NV") == Some(1) {
        p.modifier("nv");
    }
}
