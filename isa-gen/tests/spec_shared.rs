//! The loader against AMD's real XML excerpts, when they are present (CI has them at
//! `../shared/spec-data/xml-excerpts`; `AMD_ISA_SPEC_DIR` overrides). Without them these tests
//! print why they were skipped.

use isa_gen::model::{self, Spec};
use isa_gen::specdir;
use isa_gen::{Generation, Severity};

fn real_specs() -> Option<Vec<Spec>> {
    let Some(dir) = specdir::real_xml_dir() else {
        eprintln!("skipped: no AMD XML found (set AMD_ISA_SPEC_DIR, drop files in spec/xml/, or provide ../shared/spec-data/xml-excerpts)");
        return None;
    };
    Some(model::load_layers(&dir.layers).expect("spec dir readable"))
}

/// Counts start tags by a plain text scan, independent of the reader: `<Instruction>` (no
/// attributes) is only ever an instruction definition; top-level `<OperandType` definitions
/// carry the IsPartitioned attribute while references inside operands have none.
fn text_counts(path: &std::path::Path) -> (usize, usize, usize, usize) {
    let t = std::fs::read_to_string(path).unwrap();
    (
        t.matches("<Encoding Order=").count(),
        t.matches("<Instruction>").count(),
        t.matches("<DataFormat>").count(),
        t.matches("<OperandType IsPartitioned=").count(),
    )
}

#[test]
fn every_excerpt_loads_with_the_counts_in_the_file() {
    let Some(specs) = real_specs() else { return };
    assert!(!specs.is_empty());
    for s in &specs {
        let (enc, ins, df, ot) = text_counts(&s.path);
        let sum = s.summary();
        assert_eq!(
            (
                sum.encodings,
                sum.instructions,
                sum.data_formats,
                sum.operand_types
            ),
            (enc, ins, df, ot),
            "{}",
            s.label()
        );
        assert!(!s.read_stopped_early, "{}", s.label());
        let errors: Vec<_> = s.errors().map(|d| d.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", s.label());
        assert!(s.generation.is_some(), "{}", s.path.display());
        assert!(s.release_date.is_some() && s.schema_version.is_some());
    }
}

#[test]
fn all_ten_generations_are_recognised_when_the_shared_excerpts_are_used() {
    let Some(dir) = specdir::real_xml_dir() else {
        eprintln!("skipped: no AMD XML present");
        return;
    };
    let specs = model::load_layers(&dir.layers).unwrap();
    if specs.len() < 10 {
        eprintln!(
            "skipped: {} holds {} specs, not all ten generations",
            dir.path.display(),
            specs.len()
        );
        return;
    }
    let mut gens: Vec<Generation> = specs.iter().filter_map(|s| s.generation).collect();
    gens.sort();
    gens.dedup();
    assert_eq!(gens, Generation::ALL.to_vec());
    let cdna5 = specs
        .iter()
        .find(|s| s.generation == Some(Generation::Cdna5))
        .unwrap();
    assert_eq!(cdna5.schema_version.as_deref(), Some("1.2.0"));
    assert_eq!(cdna5.release_date.as_deref(), Some("2026-08-03"));
}

#[test]
fn anchor_instructions_resolve_completely() {
    let Some(specs) = real_specs() else { return };
    let mut seen = 0;
    for s in &specs {
        for name in [
            "DS_BPERMUTE_B32",
            "DS_GWS_BARRIER",
            "V_MSAD_U8",
            "S_WQM_B64",
        ] {
            if let Some(ins) = s.instruction(name) {
                seen += 1;
                assert!(
                    ins.is_complete(),
                    "{} {name}: {:?}",
                    s.label(),
                    ins.encodings
                        .iter()
                        .map(|e| &e.incomplete)
                        .collect::<Vec<_>>()
                );
                for ie in &ins.encodings {
                    let enc = &s.encodings[ie.encoding.unwrap()];
                    let op = ie.opcode.unwrap();
                    let f = &enc.fields[enc.op_field.unwrap()];
                    assert!(f.width() >= 32 || op < (1 << f.width()));
                }
            }
        }
    }
    assert!(seen >= 20, "only {seen} anchor instructions found");
}

#[test]
fn s_wqm_b64_has_the_known_opcodes() {
    let Some(specs) = real_specs() else { return };
    for s in &specs {
        let Some(ins) = s.instruction("S_WQM_B64") else {
            continue;
        };
        let g = s.generation.unwrap();
        let sop1 = ins
            .encodings
            .iter()
            .find(|e| e.encoding_name == "ENC_SOP1")
            .unwrap();
        // Facts from llvm-mc: 0x1d on gfx11+/gfx1250, 0x07 on gfx9 (CDNA 1-4) and 0x0a on gfx10.
        let expected = match g {
            Generation::Cdna1 | Generation::Cdna2 | Generation::Cdna3 | Generation::Cdna4 => 7,
            Generation::Rdna1 | Generation::Rdna2 => 10,
            _ => 29,
        };
        assert_eq!(sop1.opcode, Some(expected), "{g}");
        let enc = &s.encodings[sop1.encoding.unwrap()];
        let id = enc.identifier_by_opcode[&expected];
        assert_eq!(
            enc.fields[enc.op_field.unwrap()].extract(id),
            expected as u128
        );
    }
}

#[test]
fn the_undefined_condition_quirk_is_reported_not_fatal() {
    let Some(specs) = real_specs() else { return };
    let mut found = 0;
    for s in &specs {
        for d in s
            .diagnostics
            .iter()
            .filter(|d| d.code == "undefined-condition")
        {
            found += 1;
            assert_eq!(d.severity, Severity::Warning);
            assert!(d.location.line > 1);
        }
    }
    // RDNA 3 and RDNA 4 SOP1 instructions name `Nothas_lit_0_Nothas_lit_1`, which ENC_SOP1
    // does not define.
    assert!(
        found >= 2,
        "expected the SOP1 condition quirk, found {found}"
    );
}

#[test]
fn multi_range_fields_and_padding_read_as_documented() {
    let Some(specs) = real_specs() else { return };
    let mut multi = 0;
    let mut padded = 0;
    for s in &specs {
        for ot in &s.operand_types {
            for f in ot.fields.iter().filter(|f| f.ranges.len() > 1) {
                multi += 1;
                // Ranges are ordered least significant first; the value concatenates them.
                let all_ones = f.mask();
                assert_eq!(
                    f.extract(all_ones),
                    (1u128 << f.width()) - 1,
                    "{} {}",
                    ot.name,
                    f.name
                );
            }
        }
        for e in &s.encodings {
            for f in e
                .fields
                .iter()
                .filter(|f| f.ranges.iter().any(|r| r.padding.is_some()))
            {
                padded += 1;
                // A padded range stands for its stored bits above implied low bits (one for
                // SMEM's SBASE and VOPD's VDSTY, two for MUBUF's SRSRC): the value read from
                // all-ones microcode has the padding's bits low and ones above.
                let pad: u32 = f
                    .ranges
                    .iter()
                    .map(|r| r.padding.as_ref().map_or(0, |p| p.bit_count))
                    .sum();
                assert!((1..=2).contains(&pad), "{} {}: {pad}", e.name, f.name);
                assert_eq!(f.width(), f.stored_width() + pad, "{} {}", e.name, f.name);
                if let [r] = f.ranges.as_slice() {
                    let p = r.padding.as_ref().unwrap();
                    let low = (1u128 << p.bit_count) - 1;
                    assert_eq!(f.extract(f.mask()) & low, p.value.value & low);
                    assert_eq!(
                        f.extract(f.mask()) >> p.bit_count,
                        (1u128 << r.bit_count) - 1
                    );
                }
            }
        }
    }
    assert!(multi > 0 && padded > 0, "multi={multi} padded={padded}");
}
