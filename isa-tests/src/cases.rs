//! Test cases generated from a spec: for every form (instruction × encoding × condition), valid
//! instances with random operand fields.

use isa_runtime::operand::register_count;
use isa_runtime::tables::{EncodingInfo, FieldInfo, FormInfo, OperandInfo, OperandTypeInfo};
use isa_runtime::{decode, Instruction, IsaSpec, Operand};

/// A small deterministic generator (SplitMix64), so every run checks the same cases.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            0
        } else {
            self.next_u64() % n
        }
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.below(100) < percent
    }
}

/// Whether a named value can start an operand of `count` registers: a pair is named by its low
/// half (`VCC_HI` starts none), and M0 and LDS direct supply one dword; wider tuples start at
/// no named register but NULL.
fn name_starts_tuple(name: &str, count: u32) -> bool {
    let single_dword = name.ends_with("_HI") || name == "M0" || name.contains("LDS_DIRECT");
    count == 1
        || (!single_dword
            && (count <= 2
                || name == "NULL"
                || !name.chars().next().is_some_and(|c| c.is_ascii_alphabetic())))
}

/// Whether an operand holds a source code: its type holds the scalar source codes (SGPR 0 on),
/// or its field is a 9-bit source. A value the type's list leaves out may still be a source
/// LLVM names (NULL, `src_lds_direct`, a VGPR where AMD types a scalar, ...).
fn is_source_code(ty: &OperandTypeInfo, width: u32) -> bool {
    width == 9
        || ty
            .runs
            .iter()
            .any(|r| r.prefix == "s" && r.first_value == 0)
}

/// Whether an encoding is a matrix-core one (`VOP3P_MFMA`, CDNA 4's `ENC_VOP3PX2`). AMD types
/// their sources as VGPRs or AGPRs (the accumulator also as inline constants, the sparse
/// index as one VGPR), and LLVM's assembler accepts exactly that; its disassembler decodes
/// other codes leniently (a scalar tuple past s105 as `vcc`, 1024-bit SGPR tuples as 16
/// registers), which means nothing on either side. So their sources keep to AMD's values.
fn is_matrix_encoding(name: &str) -> bool {
    name.contains("MFMA") || name.contains("VOP3PX2")
}

/// A random value of an operand type for an operand of `size` bits in a field of `width`
/// bits; never a literal marker unless `literal_ok`. Register tuples start at any register,
/// odd ones too (LLVM prints scalar ones aligned down). Source operands ([`is_source_code`])
/// take any code of the field a quarter of the time when `any_code`, so the codes AMD's list
/// leaves out are drawn as well; [`meaningful`] drops the reserved ones.
fn random_value(
    rng: &mut Rng,
    ty: &OperandTypeInfo,
    size: u16,
    width: u32,
    literal_ok: bool,
    any_code: bool,
) -> Option<u64> {
    let count = (size as u32).div_ceil(32).max(1);
    if any_code && is_source_code(ty, width) && rng.chance(25) {
        return Some(rng.next_u64() & ((1u64 << width.min(63)) - 1));
    }
    let named: Vec<i64> = ty
        .values
        .iter()
        .filter(|(_, n)| literal_ok || !n.starts_with("SRC_LITERAL"))
        .filter(|(_, n)| name_starts_tuple(n, count))
        .map(|v| v.0)
        .collect();
    // The matrix forms' AGPRs (numbered past the field: 512 + n, 768 + n) come from their ACC
    // bits, which are drawn as modifiers; their sources draw the runs the field holds.
    let runs: Vec<_> = ty
        .runs
        .iter()
        .filter(|r| any_code || r.first_value + (r.count as i64) <= 1i64 << width.min(62))
        .collect();
    let use_run = !runs.is_empty() && (named.is_empty() || rng.chance(70));
    if use_run {
        let run = runs[rng.below(runs.len() as u64) as usize];
        if run.count < count {
            return None;
        }
        let k = rng.below((run.count - count + 1) as u64) as u32;
        return Some((run.first_value + k as i64) as u64);
    }
    if named.is_empty() {
        return None;
    }
    Some(named[rng.below(named.len() as u64) as usize] as u64)
}

/// Whether every operand of an instance means something: a register, a value its type names
/// (a named register starting a tuple only where [`name_starts_tuple`] allows), or a code the
/// disassembler knows LLVM's name of. Reserved codes (no name on either side) make no case.
fn meaningful(ins: &Instruction) -> bool {
    ins.operands().iter().all(|o| match o.value {
        Operand::Named(n) => name_starts_tuple(n, register_count(o.info.size)),
        Operand::Unknown(_) => isa_runtime::disasm::unlisted_code_name(ins, o).is_some(),
        Operand::Reg { file, first, count } => tuple_fits(ins, o.info, o.raw, file, first, count),
        _ => true,
    })
}

/// Whether a register tuple (from its first register as LLVM prints it: scalar tuples aligned
/// down) lies in one run of its operand type: `s[100:107]` runs past the last SGPR and
/// `ttmp[12:19]` past the last trap temporary, so neither is a register operand.
fn tuple_fits(
    ins: &Instruction,
    info: &OperandInfo,
    raw: u64,
    file: isa_runtime::operand::RegFile,
    first: u32,
    count: u32,
) -> bool {
    let Some(ty) = info
        .operand_type
        .map(|t| &ins.spec.operand_types[t as usize])
    else {
        return true;
    };
    let aligned = isa_runtime::disasm::aligned_first(file, first, count);
    let start = raw as i64 - (first - aligned) as i64;
    // AGPR-only types number their registers past the field's range (see
    // `agpr_field_value`): compare in the field's values.
    let bounds = |r: &isa_runtime::tables::ValueRun| {
        let base = if r.first_value >= 512 {
            r.first_value & !0x1ff
        } else {
            0
        };
        (r.first_value - base, r.first_value + r.count as i64 - base)
    };
    // A register the type names through a subtype has no run here: nothing to check.
    let Some((_, end)) = ty
        .runs
        .iter()
        .map(bounds)
        .find(|&(lo, hi)| (lo..hi).contains(&(raw as i64)))
    else {
        return true;
    };
    start + count as i64 <= end
}

/// The width of a plain immediate type (one `VALUE` field: `OPR_SIMM5` → 5). Structured
/// immediates (`OPR_HWREG`, `OPR_SENDMSG`) keep their whole field: LLVM decodes the rest too.
fn type_width(ty: &OperandTypeInfo) -> Option<u32> {
    match ty.fields {
        [f] if f.name == "VALUE" => Some(f.width()),
        _ => None,
    }
}

fn is_fixed(enc: &EncodingInfo, field: usize) -> bool {
    let f = &enc.fields[field];
    let m = f.mask();
    enc.op_field == Some(field as u8) || (m & enc.mask == m && m != 0)
}

/// Statistics of case generation for one spec.
#[derive(Clone, Debug, Default)]
pub struct CaseStats {
    pub forms: usize,
    pub forms_with_cases: usize,
    pub cases: usize,
    /// Random instances that decoded as another form (for example a source value that selects
    /// the literal encoding), dropped.
    pub rejected: usize,
    /// Forms no valid instance was found for.
    pub without_cases: Vec<u16>,
}

/// Up to `per_form` valid instances of every form of `spec`.
///
/// One stream of random numbers runs through the forms in order. The matrix forms
/// ([`is_matrix_encoding`]) draw their cases from a stream of their own (seeded by the form),
/// while the shared stream advances as their drawing did before their sources kept to AMD's
/// values: every other form keeps the cases it had, and with them the lists of known
/// mismatches and disagreements.
pub fn generate(
    spec: &'static IsaSpec,
    per_form: usize,
    seed: u64,
) -> (Vec<Instruction>, CaseStats) {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut stats = CaseStats {
        forms: spec.forms.len(),
        ..Default::default()
    };
    for form in 0..spec.forms.len() as u16 {
        let matrix = is_matrix_encoding(spec.encoding_of(form).name);
        let (cases, rejected) = if matrix {
            draw_form(spec, form, per_form, &mut rng, true);
            let mut own = Rng::new(seed ^ (form as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            draw_form(spec, form, per_form, &mut own, false)
        } else {
            draw_form(spec, form, per_form, &mut rng, true)
        };
        stats.rejected += rejected;
        if cases.is_empty() {
            stats.without_cases.push(form);
        } else {
            stats.forms_with_cases += 1;
        }
        stats.cases += cases.len();
        out.extend(cases);
    }
    (out, stats)
}

/// Up to `per_form` valid instances of `form` (see [`random_instance`] for `any_code`), and
/// how many random instances were dropped (they decoded as another form, or meant nothing).
fn draw_form(
    spec: &'static IsaSpec,
    form: u16,
    per_form: usize,
    rng: &mut Rng,
    any_code: bool,
) -> (Vec<Instruction>, usize) {
    let (mut cases, mut rejected) = (Vec::new(), 0);
    for attempt in 0..per_form * 8 {
        if cases.len() == per_form {
            break;
        }
        let Some(ins) = random_instance_in(spec, form, rng, attempt == 0, any_code) else {
            continue;
        };
        let bytes = ins.encode();
        match decode(spec, &bytes) {
            Ok((d, _)) if d == ins && meaningful(&d) => cases.push(ins),
            _ => rejected += 1,
        }
    }
    (cases, rejected)
}

/// Whether field `field` of encoding `encoding` holds an operand in some form: of this spec, or
/// of an encoding with the same name in another known spec. A spec excerpt may hold only some
/// instructions of an encoding (AMD's RDNA 1 excerpt has no DS instruction with a DATA1
/// operand), and a register field stays a register field from one generation to the next.
fn is_operand_field(spec: &IsaSpec, encoding: u16, field: usize) -> bool {
    let enc = &spec.encodings[encoding as usize];
    spec.forms
        .iter()
        .filter(|f| f.encoding == encoding)
        .any(|f| f.operands.iter().any(|o| o.field == Some(field as u8)))
        || operand_fields_by_name().contains(&(enc.name, enc.fields[field].name))
        || is_memory_register_field(enc.name, enc.fields[field].name)
}

/// The register fields of the memory encodings (DS, FLAT and their RDNA 4+/CDNA 5 names):
/// they hold a VGPR when an instruction uses them and must be zero otherwise. Named here so the
/// rule does not depend on which instructions a partial spec happens to hold (a fixture with
/// no two-data DS instruction still has a DATA1 field).
fn is_memory_register_field(encoding: &str, field: &str) -> bool {
    let memory = ["DS", "VDS", "FLAT", "VFLAT", "VGLOBAL", "VSCRATCH"]
        .iter()
        .any(|m| {
            encoding
                .strip_prefix("ENC_")
                .is_some_and(|e| e == *m || e.starts_with(&format!("{m}_")))
        });
    memory
        && matches!(
            field,
            "VDST" | "DATA0" | "DATA1" | "DATA" | "ADDR" | "VADDR"
        )
}

/// (encoding name, field name) of every field that holds a register operand in some form of a
/// known spec (AMD's generations compiled in and the project's fixtures). Immediate fields
/// (offsets) are left out: they may be operands in one generation and modifiers in another.
fn operand_fields_by_name() -> &'static std::collections::HashSet<(&'static str, &'static str)> {
    static SET: std::sync::OnceLock<std::collections::HashSet<(&'static str, &'static str)>> =
        std::sync::OnceLock::new();
    SET.get_or_init(|| {
        let mut specs = isa_runtime::specs();
        specs.extend(isa_runtime::fixtures::specs());
        let mut set = std::collections::HashSet::new();
        for s in specs {
            for f in s.forms {
                let enc = &s.encodings[f.encoding as usize];
                for o in f.operands.iter() {
                    let register = o
                        .operand_type
                        .is_some_and(|t| !s.operand_types[t as usize].runs.is_empty());
                    if let (Some(field), true) = (o.field, register) {
                        set.insert((enc.name, enc.fields[field as usize].name));
                    }
                }
            }
        }
        set
    })
}

/// Field values LLVM requires of some memory instructions, which AMD's spec does not state:
/// - the global wave sync (`DS_GWS_*`) instructions and `DS_ORDERED_COUNT` only exist on GDS,
///   so LLVM decodes them only with GDS set; the lane permutes (`DS_PERMUTE_*`,
///   `DS_BPERMUTE_*`) access no memory and have no GDS form;
/// - the CDNA ACC bit says which register file the form's VGPR operands are in; LLVM takes it
///   from those operands, so a form without VGPR operands has it zero.
fn required_memory_field(spec: &IsaSpec, form: &FormInfo, field: &str) -> Option<u64> {
    isa_runtime::canonical::required_field_value(spec, form, field)
}

/// Whether an AMD data format holds floating-point values (`FMT_NUM_F32`, `FMT_NUM_PK2_BF16`, ...).
fn is_float_format(format: &str) -> bool {
    let name = format.strip_prefix("FMT_NUM_").unwrap_or(format);
    name.split('_').any(|t| {
        let t = t
            .strip_prefix("BF")
            .or_else(|| t.strip_prefix("FP"))
            .or_else(|| t.strip_prefix('F'))
            .unwrap_or("x");
        t.starts_with(|c: char| c.is_ascii_digit())
    })
}

/// Restricts a random value of a vector modifier field to what the modifier can mean, since
/// LLVM (like the hardware documentation) treats the rest as must-be-zero or reserved:
/// - NEG/ABS/NEG_HI (one bit per source) and the DPP/SDWA words' `SRCn_NEG`/`SRCn_ABS` are
///   floating-point input modifiers: only for float sources;
/// - `SRCn_SEXT` (SDWA) sign-extends an integer source: only for non-float sources;
/// - CLAMP and OMOD act on a float result (integer clamp exists on a few instructions only, and
///   the spec does not say which): only when the destination is float;
/// - SDWA selects have 7 values (BYTE_0..3, WORD_0..1, DWORD) and `DST_UNUSED` 3; the rest is
///   reserved;
/// - OP_SEL bits of sources the form does not have are unused (LLVM rejects them); VOP3's bit
///   3, the destination's, stays.
///
/// Sources are the form's explicit inputs in spec order (source `n` is the n-th).
fn vector_modifier_value(form: &FormInfo, field: &str, random: u64) -> u64 {
    let sources: Vec<&OperandInfo> = form
        .operands
        .iter()
        .filter(|o| !o.implicit && o.field.is_some() && o.input && !o.output)
        .collect();
    let float_source = |n: usize| {
        sources
            .get(n)
            .is_some_and(|o| is_float_format(o.data_format))
    };
    let int_source = |n: usize| {
        sources
            .get(n)
            .is_some_and(|o| !is_float_format(o.data_format))
    };
    let float_dest = form
        .operands
        .iter()
        .find(|o| o.output && !o.implicit)
        .is_some_and(|o| is_float_format(o.data_format));
    let per_source =
        |keep: &dyn Fn(usize) -> bool| (0..3).filter(|&n| keep(n)).fold(0u64, |m, n| m | 1 << n);
    let source_index = |f: &str| f.as_bytes().get(3).map(|c| (c.wrapping_sub(b'0')) as usize);
    match field {
        "NEG" | "ABS" | "NEG_HI" => random & per_source(&float_source),
        "OP_SEL" | "OPSEL" => random & (per_source(&|n| n < sources.len()) | 0b1000),
        "SRC0_NEG" | "SRC0_ABS" | "SRC1_NEG" | "SRC1_ABS" | "SRC2_NEG" | "SRC2_ABS" => {
            if source_index(field).is_some_and(float_source) {
                random
            } else {
                0
            }
        }
        "SRC0_SEXT" | "SRC1_SEXT" | "SRC2_SEXT" => {
            if source_index(field).is_some_and(int_source) {
                random
            } else {
                0
            }
        }
        "CLAMP" | "OMOD" if !float_dest => 0,
        // SDWA fields of a second source the form does not have are must-be-zero.
        "SRC1_SEL" | "S1" if sources.len() < 2 => 0,
        "DST_SEL" | "SRC0_SEL" | "SRC1_SEL" => random % 7,
        "DST_UNUSED" => random % 3,
        _ => random,
    }
}

/// One random instance of a form. Fields that hold operands in other forms of the encoding but
/// not in this one stay zero (hardware and LLVM treat them as must-be-zero); modifier fields
/// (never operands) stay zero on the first attempt and are random half of the time after.
pub fn random_instance(
    spec: &'static IsaSpec,
    form: u16,
    rng: &mut Rng,
    plain: bool,
) -> Option<Instruction> {
    random_instance_in(spec, form, rng, plain, true)
}

/// [`random_instance`]; `any_code` lets source operands take any code of their field a
/// quarter of the time (see [`random_value`]).
fn random_instance_in(
    spec: &'static IsaSpec,
    form: u16,
    rng: &mut Rng,
    plain: bool,
    any_code: bool,
) -> Option<Instruction> {
    let mut ins = Instruction::new(spec, form);
    let f = &spec.forms[form as usize];
    let enc = &spec.encodings[f.encoding as usize];
    let has_literal = enc.fields.iter().any(|x| x.name.starts_with("LITERAL"));
    for (k, field) in enc.fields.iter().enumerate() {
        if is_fixed(enc, k) {
            continue;
        }
        let operand = f.operands.iter().find(|o| o.field == Some(k as u8));
        let hint = f
            .hints
            .iter()
            .find(|h| h.0 as usize == k)
            .map(|h| h.1 as u64);
        let required = required_memory_field(spec, f, field.name);
        let value = match operand {
            _ if hint.is_some() => hint.unwrap_or_default(),
            None if required.is_some() => required.unwrap_or_default(),
            _ if field.name.starts_with("LITERAL") => {
                rng.next_u64() & ((1u64 << field.width().min(63)) - 1)
            }
            Some(o) => match o.operand_type.map(|t| &spec.operand_types[t as usize]) {
                Some(ty) if !ty.runs.is_empty() || !ty.values.is_empty() => {
                    let v = random_value(rng, ty, o.size, field.width(), has_literal, any_code)?;
                    isa_runtime::operand::agpr_field_value(ty, v)
                }
                // An immediate type's own layout (OPR_SIMM5's 5-bit VALUE) bounds the value
                // even in a wider encoding field.
                ty => {
                    let bits = ty
                        .and_then(type_width)
                        .unwrap_or(64)
                        .min(field.width())
                        .min(63);
                    rng.next_u64() & ((1u64 << bits) - 1)
                }
            },
            None if plain || rng.chance(50) || is_operand_field(spec, f.encoding, k) => 0,
            None => {
                let random = rng.next_u64() & ((1u64 << field.width().min(63)) - 1);
                vector_modifier_value(f, field.name, random)
            }
        };
        let value = smem_buffer_offset(spec, f, field, value);
        if !ins.set_field(k, value) {
            return None;
        }
    }
    memory_field_rules(&mut ins);
    Some(ins)
}

/// Rules between the fields of a memory instruction, which LLVM (like the hardware) enforces:
/// a buffer load returning its data to LDS (LDS set) writes no VDATA register, so the register
/// file bit ACC is clear (VDATA itself is ignored, and stays random).
fn memory_field_rules(ins: &mut Instruction) {
    if ins.field("LDS") == Some(1) {
        if let Some(k) = ins.encoding().fields.iter().position(|f| f.name == "ACC") {
            ins.set_field(k, 0);
        }
    }
}

/// SMEM buffer accesses (a 128-bit resource in SBASE) take an unsigned offset in IOFFSET
/// (GFX12): its top bit stays clear.
fn smem_buffer_offset(spec: &IsaSpec, form: &FormInfo, field: &FieldInfo, value: u64) -> u64 {
    let enc = &spec.encodings[form.encoding as usize];
    let buffer = form.operands.iter().any(|o| {
        o.size >= 128
            && o.field
                .is_some_and(|k| enc.fields[k as usize].name == "SBASE")
    });
    if field.name == "IOFFSET" && buffer {
        value & !(1u64 << (field.width() - 1))
    } else {
        value
    }
}
