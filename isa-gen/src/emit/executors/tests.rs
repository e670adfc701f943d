//! Unit tests of the executor generator that need no AMD data: the fixture specs with the
//! project's own pseudocode (as on a fresh machine), the binding table, borrowing, the
//! override layer's checks.

use super::binding::{classify, resolve, Family, NameRef, Role, Variant};
use super::source::{self, borrow_source, signature_difference, Semantics};
use super::*;
use crate::model;
use crate::specdir;
use crate::Generation;

/// Semantics without AMD's text: the project's overrides and fixture pseudocode only.
fn fresh() -> Semantics {
    Semantics::load_from(
        None,
        &source::overrides_dir(),
        &source::kernels_dir(),
        &fixture_xml(),
    )
}

fn fixture_specs() -> Vec<Spec> {
    model::load_dir(&specdir::fixture_xml_dir()).expect("fixture specs")
}

fn fixture_xml() -> specdir::SpecDir {
    specdir::SpecDir::single(specdir::fixture_xml_dir(), specdir::Source::Fixture)
}

#[test]
fn every_fixture_instruction_has_an_executor_or_a_reason() {
    let sem = fresh();
    assert!(sem.problems.is_empty(), "{:?}", sem.problems);
    for spec in fixture_specs() {
        let r = executors(&spec, &sem).report;
        assert_eq!(r.instructions, spec.instructions.len());
        for e in &r.entries {
            if e.status == Status::Unsupported {
                // Only global wave sync is out of reach on the fixtures.
                assert!(
                    e.reason.contains("global wave sync"),
                    "{} {}: {}",
                    r.generation,
                    e.instruction,
                    e.reason
                );
                assert_eq!(e.kind, Some(super::UnsupportedKind::NotModelled));
            } else {
                assert_eq!(e.kind, None, "{} has an executor", e.instruction);
                assert!(
                    !e.provenance.is_empty(),
                    "{} has no provenance",
                    e.instruction
                );
            }
            assert!(
                e.unsupported_forms.is_empty(),
                "{}: {:?}",
                e.instruction,
                e.unsupported_forms
            );
        }
        assert!(
            r.implemented() + 2 >= r.instructions,
            "{}: {}/{}",
            r.generation,
            r.implemented(),
            r.instructions
        );
        // Without AMD's text the semantics come from the project's fixture pseudocode.
        assert!(r
            .entries
            .iter()
            .filter(|e| e.status == Status::Generated)
            .all(|e| e.provenance.starts_with("spec/fixtures/pcode-kernels/")));
    }
}

#[test]
fn fixture_code_parses_and_names_each_executor() {
    let sem = fresh();
    for spec in fixture_specs() {
        let out = executors(&spec, &sem);
        let file: syn::File = syn::parse2(out.code).expect("generated executors parse");
        let text = prettyplease::unparse(&file);
        for e in out
            .report
            .entries
            .iter()
            .filter(|e| e.status != Status::Unsupported)
        {
            // Its own function, or one with the same body whose doc comment names it.
            let shared = text.lines().any(|l| {
                l.contains("Also the executor of (the same body):")
                    && (l.contains(&format!(": {}: ", e.instruction))
                        || l.contains(&format!("; {}: ", e.instruction)))
            });
            assert!(
                text.contains(&format!("fn x_{}(", e.instruction)) || shared,
                "{}",
                e.instruction
            );
        }
        // One binding per form (each distinct one stored once), one executor and coverage
        // entry per instruction.
        let (forms, _) = crate::emit::collect_forms(&spec);
        syn::parse_file(&out.rows).expect("generated executor rows parse");
        assert!(out
            .rows
            .contains(&format!("FORM_BINDINGS: [u16; {}]", forms.len())));
        let distinct = out
            .rows
            .lines()
            .filter(|l| l.trim_start().starts_with("bind("))
            .count();
        assert!(distinct >= 1 && distinct <= forms.len(), "{distinct}");
        assert!(out.rows.contains(&format!(
            "COVERAGE: [rt::CoverageEntry; {}]",
            spec.instructions.len()
        )));
        assert!(text.contains(&format!(
            "EXECUTORS: [Option<ExecFn>; {}usize]",
            spec.instructions.len()
        )));
    }
}

#[test]
fn encoding_families_and_variants() {
    // The executor grouping of the vocabulary's families (MUBUF and MTBUF share one).
    let by_name = |name: &str| {
        let (f, v) = isa_vocab::classify(name);
        let f = Family::of(f);
        (f, Variant::of(f, v))
    };
    assert_eq!(by_name("ENC_SOP1"), (Family::Sop1, Variant::Plain));
    assert_eq!(
        by_name("SOP2_INST_LITERAL64"),
        (Family::Sop2, Variant::Plain)
    );
    assert_eq!(by_name("VOP3_VOP_DPP16"), (Family::Vop3, Variant::Dpp16));
    assert_eq!(by_name("VOP1_VOP_DPP8"), (Family::Vop1, Variant::Dpp8));
    assert_eq!(by_name("VOP2_VOP_SDWA"), (Family::Vop2, Variant::Sdwa));
    assert_eq!(
        by_name("VOPC_VOP_SDWA_SDST_ENC"),
        (Family::Vopc, Variant::Sdwa)
    );
    assert_eq!(by_name("ENC_VOP3P"), (Family::Vop3p, Variant::Vop3p));
    assert_eq!(by_name("ENC_FLAT_GLBL").0, Family::Global);
    assert_eq!(by_name("ENC_FLAT_GLOBAL").0, Family::Global);
    assert_eq!(by_name("ENC_FLAT_SCRATCH").0, Family::Scratch);
    assert_eq!(by_name("ENC_FLAT").0, Family::Flat);
    assert_eq!(by_name("ENC_VDS").0, Family::Ds);
    assert_eq!(by_name("ENC_VDSDIR").0, Family::Interp);
    assert_eq!(by_name("MIMG_NSA1").0, Family::Image);
    assert_eq!(by_name("VOPDXY_INST_LITERAL").0, Family::Vopd);
    assert_eq!(by_name("ENC_MTBUF").0, Family::Buffer);
    assert_eq!(by_name("VOP1_VOP_DPP").1, Variant::Dpp);
    assert!(Family::Image.unmodelled().is_some());
    assert!(Family::Ds.unmodelled().is_none());
}

#[test]
fn names_bind_by_family() {
    assert_eq!(resolve("S0", Family::Vop2), Some(NameRef::Role(Role::S0)));
    assert_eq!(resolve("D0", Family::Sop1), Some(NameRef::Role(Role::D0)));
    assert_eq!(resolve("ADDR", Family::Ds), Some(NameRef::Role(Role::Addr)));
    assert_eq!(resolve("ADDR", Family::Global), Some(NameRef::MemAddr));
    assert_eq!(resolve("ADDR", Family::Smem), Some(NameRef::MemAddr));
    assert_eq!(resolve("OFFSET", Family::Ds), Some(NameRef::DsOffset));
    assert_eq!(
        resolve("OFFSET", Family::Global),
        Some(NameRef::Field("OFFSET"))
    );
    assert_eq!(resolve("VDATA", Family::Global), Some(NameRef::Vdata));
    assert_eq!(
        resolve("RETURN_DATA", Family::Ds),
        Some(NameRef::Role(Role::Vdst))
    );
    assert_eq!(
        resolve("RETURN_DATA", Family::Smem),
        Some(NameRef::Role(Role::Sdata))
    );
    assert_eq!(
        resolve("DATA2", Family::Ds),
        Some(NameRef::Role(Role::Data1))
    );
    assert_eq!(resolve("S1", Family::Ds), Some(NameRef::Role(Role::Data)));
    assert_eq!(
        resolve("SIMM16", Family::Sopp),
        Some(NameRef::Field("SIMM16"))
    );
    assert_eq!(resolve("EXEC", Family::Vopc), Some(NameRef::Wave));
    assert_eq!(resolve("tmp", Family::Vop3), None);
}

#[test]
fn sopk_immediate_is_a_source_unless_the_register_is_read_as_d0() {
    let sem = fresh();
    let spec = fixture_specs()
        .into_iter()
        .find(|s| s.generation == Some(Generation::Rdna3))
        .unwrap();
    let (forms, _) = crate::emit::collect_forms(&spec);
    let ii = spec
        .instructions
        .iter()
        .position(|i| i.name == "S_MOVK_I32")
        .unwrap();
    let f = forms.iter().find(|f| f.instruction == ii).unwrap();
    let enc = &spec.encodings[f.encoding];
    let ins = &spec.instructions[ii];
    let (fam, var) = classify(enc);
    let b = binding::bind_form(
        &spec,
        ins,
        f.instruction_encoding,
        enc,
        fam,
        var,
        Default::default(),
    );
    // S_MOVK: SDST is an output, the immediate the only source.
    let simm = ins.encodings[f.instruction_encoding]
        .operands
        .iter()
        .position(|o| o.field_name.as_deref() == Some("SIMM16"))
        .unwrap();
    assert_eq!(b.op(Role::S0), Some(simm));
    assert!(b.op(Role::D0).is_some());
    let _ = sem;
}

#[test]
fn borrowing_map_and_signature_comparison() {
    assert_eq!(borrow_source(Generation::Rdna1), Some(Generation::Rdna2));
    assert_eq!(borrow_source(Generation::Rdna3), Some(Generation::Rdna3_5));
    for g in [
        Generation::Cdna1,
        Generation::Cdna2,
        Generation::Cdna3,
        Generation::Cdna5,
    ] {
        assert_eq!(borrow_source(g), Some(Generation::Cdna4));
    }
    assert_eq!(borrow_source(Generation::Rdna4), None);
    assert_eq!(
        source::borrow_sources(Generation::Cdna5),
        vec![Generation::Cdna4, Generation::Rdna4]
    );
    let a = vec![
        (false, true, 32, "U32".to_string()),
        (true, false, 32, "U32".to_string()),
    ];
    assert_eq!(signature_difference(&a, &a), None);
    let mut b = a.clone();
    b[1].2 = 64;
    assert!(signature_difference(&a, &b)
        .unwrap()
        .contains("has 32 bits here, 64 there"));
    assert!(signature_difference(&a, &a[..1])
        .unwrap()
        .contains("explicit operands"));
    let mut c = a.clone();
    c[0].3 = "F32".into();
    assert!(signature_difference(&a, &c).unwrap().contains("F32"));
    let mut d = a.clone();
    d[0].3 = "ANY".into();
    assert_eq!(
        signature_difference(&a, &d),
        None,
        "FMT_ANY matches any format"
    );
}

#[test]
fn override_entries_need_a_reason_and_a_known_scope() {
    let dir = std::env::temp_dir().join(format!("exec-gen-overrides-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("cdna.pcode"),
        "=== SOP1 S_MOV_B32\n// reason: testing\nD0.b32 = S0.b32\n\n=== SOP1 S_NOT_B32\nD0.b32 = ~S0.b32\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("gfx9.pcode"),
        "=== SOP1 S_MOV_B32\n// reason: x\nD0.b32 = S0.b32\n",
    )
    .unwrap();
    let sem = Semantics::load_from(None, &dir, &dir.join("none"), &fixture_xml());
    assert_eq!(sem.overrides.len(), 1);
    assert!(
        sem.problems
            .iter()
            .any(|p| p.contains("S_NOT_B32") && p.contains("reason")),
        "{:?}",
        sem.problems
    );
    assert!(
        sem.problems.iter().any(|p| p.contains("gfx9.pcode")),
        "{:?}",
        sem.problems
    );
    // Scope: cdna generations see it, rdna ones do not.
    assert!(sem.override_for(Generation::Cdna3, "s_mov_b32").is_some());
    assert!(sem.override_for(Generation::Rdna3, "S_MOV_B32").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn project_pseudocode_types_and_lowers() {
    // Every executable entry of the override layer and of the fixture pseudocode
    // type-checks and lowers; entries that only say why an instruction cannot run hold no
    // code.
    let sem = fresh();
    for o in &sem.overrides {
        let g = Generation::from_name(&o.scope).unwrap_or(Generation::Rdna4);
        let e = crate::pcode::corpus::classify(&o.raw, Some(g));
        if !o.executable {
            assert_ne!(
                e.class.label(),
                "typed",
                "{} {}: code in a reason-only entry",
                o.location,
                o.raw.name
            );
            continue;
        }
        assert_eq!(e.class.label(), "typed", "{} {}", o.location, o.raw.name);
        let c = crate::pcode::corpus::GenerationCorpus {
            generation: Some(g),
            file: o.location.clone().into(),
            entries: vec![e],
            layout_problems: Vec::new(),
        };
        for l in corpus::lower_corpus(&c) {
            assert!(
                l.result.is_ok(),
                "{} {}: {:?}",
                o.location,
                l.name,
                l.result.err()
            );
        }
    }
    assert!(sem.problems.is_empty(), "{:?}", sem.problems);
    for (g, c) in &sem.kernels {
        for e in &c.entries {
            assert_eq!(e.class.label(), "typed", "{g} {}", e.name);
        }
        let lowered = corpus::lower_corpus(c);
        for l in lowered {
            assert!(l.result.is_ok(), "{g} {}: {:?}", l.name, l.result.err());
        }
    }
}

#[test]
fn wmma_and_gws_instructions_are_unsupported_with_reasons() {
    use builtin::{builtin, Builtin};
    // CDNA matrix instructions go to the matrix model, not to a decision by name.
    assert_eq!(builtin("V_MFMA_F32_32X32X8_F16"), None);
    assert!(matrix::is_matrix("V_SMFMAC_F32_16X16X32_F16"));
    assert!(matches!(
        builtin("V_WMMA_F32_16X16X16_F16"),
        Some(Builtin::Unsupported(_))
    ));
    assert!(matches!(
        builtin("V_SWMMAC_F32_16X16X32_F16"),
        Some(Builtin::Unsupported(_))
    ));
    assert!(matches!(
        builtin("DS_GWS_BARRIER"),
        Some(Builtin::Unsupported(_))
    ));
    assert!(matches!(builtin("S_ENDPGM"), Some(Builtin::EndProgram(_))));
    assert!(matches!(builtin("S_WAITCNT_VSCNT"), Some(Builtin::NoOp(_))));
    assert!(matches!(
        builtin("V_DIV_FIXUP_F64"),
        Some(Builtin::RustOverride { .. })
    ));
    assert_eq!(builtin("V_ADD_F32"), None);
    assert!(matches!(
        builtin("GLOBAL_LOAD_LDS_DWORDX4"),
        Some(Builtin::RustLds {
            module: "lds_dma",
            ..
        })
    ));
    assert!(matches!(
        builtin("DS_CONSUME"),
        Some(Builtin::RustLds {
            function: "ds_consume",
            ..
        })
    ));
    assert!(matches!(
        builtin("DS_SWIZZLE_B32"),
        Some(Builtin::RustOverride { .. })
    ));
    assert!(super::builtin::buffer_load_takes_lds("BUFFER_LOAD_SBYTE"));
    assert!(!super::builtin::buffer_load_takes_lds(
        "BUFFER_LOAD_FORMAT_X"
    ));
    assert!(!super::builtin::buffer_load_takes_lds("BUFFER_STORE_DWORD"));
}

#[test]
fn helper_table_is_the_shared_vocabulary() {
    // The generator calls the helpers the runtime implements from one table in isa-vocab
    // (no file is read): names, MODE, generic parameters.
    let h = lower::helper("isNAN").expect("isNAN");
    assert_eq!((h.rust, h.mode, h.generic), ("is_nan", false, true));
    let h = lower::helper("f32_to_f16").expect("f32_to_f16");
    assert!(h.mode && !h.generic);
    let h = lower::helper("ldexp").expect("ldexp");
    assert!(h.generic && h.int_tail);
    assert!(lower::helper("NoSuchHelper").is_none());
    // The generated fixture executors call only helpers of the table (`hp::pow` is also what
    // `**` on floats lowers to), and they do call some.
    let sem = fresh();
    let mut called = std::collections::BTreeSet::new();
    for spec in fixture_specs() {
        let text = executors(&spec, &sem).code.to_string();
        for part in text.split("hp :: ").skip(1) {
            let name: String = part
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect();
            called.insert(name);
        }
    }
    assert!(!called.is_empty());
    let unknown: Vec<&String> = called
        .iter()
        .filter(|n| *n != "pow" && !isa_vocab::helpers::HELPERS.iter().any(|h| h.rust == *n))
        .collect();
    assert!(unknown.is_empty(), "{unknown:?}");
}

#[test]
fn matrix_shapes_come_from_the_name_and_are_checked_against_operand_sizes() {
    use matrix::shape_from;
    let s = shape_from(
        "V_MFMA_F32_32X32X1_2B_F32",
        (Some(1), Some(1), Some(32)),
        None,
    )
    .unwrap();
    assert_eq!(
        (s.m, s.n, s.k, s.blocks, s.a, s.acc),
        (32, 32, 1, 2, "F32", "F32")
    );
    let s = shape_from(
        "V_MFMA_F32_4X4X4_16B_F16",
        (Some(2), Some(2), Some(4)),
        None,
    )
    .unwrap();
    assert_eq!((s.blocks, s.a), (16, "F16"));
    // The alias spelling without block count: blocks from the result size.
    let s = shape_from("V_MFMA_F32_16X16X1F32", (Some(1), Some(1), Some(16)), None).unwrap();
    assert_eq!(s.blocks, 4);
    let s = shape_from("V_MFMA_F64_4X4X4_4B_F64", (Some(2), Some(2), Some(2)), None).unwrap();
    assert_eq!((s.blocks, s.acc), (4, "F64"));
    let s = shape_from(
        "V_MFMA_F32_16X16X32_FP8_BF8",
        (Some(2), Some(2), Some(4)),
        Some(Generation::Cdna3),
    )
    .unwrap();
    assert_eq!((s.a, s.b, s.fnuz), ("Fp8", "Bf8", true));
    let s = shape_from(
        "V_MFMA_F32_16X16X16BF16_1K",
        (Some(2), Some(2), Some(4)),
        None,
    )
    .unwrap();
    assert_eq!(s.a, "Bf16");
    let s = shape_from(
        "V_SMFMAC_F32_16X16X32_F16",
        (Some(2), Some(4), Some(4)),
        None,
    )
    .unwrap();
    assert_eq!(s.kind, "Sparse");
    let s = shape_from(
        "V_MFMA_SCALE_F32_32X32X64_F8F6F4",
        (Some(8), Some(8), Some(16)),
        None,
    )
    .unwrap();
    assert_eq!((s.kind, s.blocks), ("F8f6f4Scaled", 1));
    // Sizes that contradict the name are an error naming both.
    let e = shape_from("V_MFMA_F32_32X32X8_F16", (Some(1), Some(2), Some(16)), None).unwrap_err();
    assert!(e.contains("do not hold"), "{e}");
    let e = shape_from(
        "V_MFMA_F32_32X32X1_2B_F32",
        (Some(1), Some(1), Some(16)),
        None,
    )
    .unwrap_err();
    assert!(e.contains("2 blocks"), "{e}");
    assert!(shape_from("V_MFMA_F32_32X32", (Some(1), Some(1), Some(16)), None).is_err());
}
