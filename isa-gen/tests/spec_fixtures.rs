//! The project's own fixture specs (spec/fixtures/xml) load clean and hold every construct of
//! AMD's schema, so the loader is covered on a fresh machine without AMD's files.

use isa_gen::model::{self, ConditionRef, Spec};
use isa_gen::xml::{CondExpr, CondOp};
use isa_gen::{specdir, Generation, Severity};

fn fixtures() -> Vec<Spec> {
    let specs = model::load_dir(&specdir::fixture_xml_dir()).expect("fixture dir");
    assert!(specs.len() >= 2, "fixtures missing");
    specs
}

fn walk<'a>(x: &'a CondExpr, out: &mut Vec<&'a CondExpr>) {
    out.push(x);
    if let CondExpr::Op { args, .. } = x {
        for a in args {
            walk(a, out);
        }
    }
}

#[test]
fn fixtures_load_without_errors_and_name_their_generation() {
    for s in fixtures() {
        let errors: Vec<String> = s.errors().map(|d| d.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", s.label());
        assert!(s.generation.is_some());
        assert!(
            s.instructions.iter().all(|i| i.is_complete()),
            "{}",
            s.label()
        );
        // The fixtures carry AMD's quirks on purpose: they are reported as warnings.
        for d in s.warnings() {
            assert_eq!(d.severity, Severity::Warning);
        }
    }
}

#[test]
fn fixtures_cover_every_schema_construct() {
    let specs = fixtures();
    let mut ops = std::collections::BTreeSet::new();
    let (
        mut lit_plain,
        mut multi_range,
        mut padding,
        mut implicit,
        mut empty_operands,
        mut aliases,
    ) = (false, false, false, false, false, false);
    let (
        mut literal_enc,
        mut dpp_enc,
        mut undefined_cond,
        mut field_values,
        mut subtypes,
        mut partitioned,
    ) = (false, false, false, false, false, false);
    let (mut lit_typed, mut condition_id, mut no_op_field) = (false, false, false);
    for s in &specs {
        for e in &s.encodings {
            no_op_field |= e.op_field.is_none();
            literal_enc |= e.name.contains("LITERAL");
            dpp_enc |= e.name.contains("DPP");
            padding |= e
                .fields
                .iter()
                .any(|f| f.ranges.iter().any(|r| r.padding.is_some()));
            multi_range |= e.fields.iter().any(|f| f.ranges.len() > 1);
            for c in &e.conditions {
                condition_id |= c.id.is_some();
                let mut nodes = Vec::new();
                if let Some(x) = &c.expr {
                    walk(x, &mut nodes);
                }
                for n in nodes {
                    match n {
                        CondExpr::Op { op, .. } => {
                            ops.insert(op.as_xml().to_string());
                        }
                        CondExpr::Lit { ty, .. } => {
                            lit_plain |= ty.is_none();
                            lit_typed |= ty.is_some();
                        }
                        CondExpr::Id { .. } => {}
                    }
                }
            }
        }
        for t in &s.operand_types {
            multi_range |= t.fields.iter().any(|f| f.ranges.len() > 1);
            field_values |= t.fields.iter().any(|f| !f.predefined_values.is_empty());
            subtypes |= !t.subtype_ids.is_empty();
            partitioned |= t.is_partitioned;
        }
        for i in &s.instructions {
            aliases |= !i.aliases.is_empty();
            for ie in &i.encodings {
                empty_operands |= ie.operands.is_empty();
                implicit |= ie
                    .operands
                    .iter()
                    .any(|o| o.is_implicit && o.field_name.is_none());
                undefined_cond |= matches!(ie.condition, ConditionRef::Undefined { .. });
            }
        }
    }
    for op in [
        CondOp::And,
        CondOp::Eq,
        CondOp::Ne,
        CondOp::FieldDeref,
        CondOp::NotWithin,
        CondOp::ConsArray,
    ] {
        assert!(
            ops.contains(op.as_xml()),
            "no `{}` in the fixtures' conditions: {ops:?}",
            op.as_xml()
        );
    }
    let checks = [
        ("a <lit> without <ty>", lit_plain),
        ("a multi-range field", multi_range),
        ("a padded range", padding),
        ("an implicit operand without FieldName", implicit),
        ("an empty <Operands/>", empty_operands),
        ("<AliasedInstructionNames>", aliases),
        ("a literal encoding", literal_enc),
        ("a DPP encoding", dpp_enc),
        (
            "an instruction naming an undefined condition (AMD's quirk)",
            undefined_cond,
        ),
        ("FieldPredefinedValues", field_values),
        ("Subtypes", subtypes),
        ("IsPartitioned=true", partitioned),
        ("an encoding without OP field (dual issue)", no_op_field),
    ];
    for (what, seen) in checks {
        assert!(seen, "the fixtures lack {what}");
    }
    // Schema 1.2.0 constructs, present once the CDNA 5 fixture exists.
    if specs
        .iter()
        .any(|s| s.generation == Some(Generation::Cdna5))
    {
        assert!(lit_typed, "the CDNA 5 fixture lacks a <lit> with <ty>");
        assert!(condition_id, "the CDNA 5 fixture lacks <ConditionId>");
    }
}

#[test]
fn fixture_facts_match_llvm_encodings() {
    // Facts checked with llvm-mc: s_wqm_b64 s[0:1], 0 is be801d80 on gfx1100 and be800780 on
    // gfx942; the fixtures must encode them the same way.
    for s in fixtures() {
        let Some(ins) = s.instruction("S_WQM_B64") else {
            continue;
        };
        let ie = ins
            .encodings
            .iter()
            .find(|e| e.encoding_name == "ENC_SOP1")
            .expect("SOP1 form");
        let enc = &s.encodings[ie.encoding.unwrap()];
        let id = enc.identifier_by_opcode[&ie.opcode.unwrap()];
        let ssrc0 = enc.field("SSRC0").unwrap();
        let sdst = enc.field("SDST").unwrap();
        // SSRC0 = 128 (inline 0), SDST = 0 (s[0:1]).
        let word = sdst.insert(ssrc0.insert(id, 128), 0);
        let expected = match s.generation.unwrap() {
            Generation::Cdna3 => 0xbe80_0780u128,
            _ => 0xbe80_1d80u128,
        };
        assert_eq!(word, expected, "{}", s.label());
    }
}

/// The override layer gives SRC1 of RDNA 3's VOP3 DPP forms (a 9-bit source field that AMD
/// types with the 8-bit VGPR type) the full source type, and records it: afterwards no 9-bit
/// field keeps a type whose `v0` is 0.
#[test]
fn nine_bit_vgpr_sources_are_retyped_to_full_sources() {
    let specs = fixtures();
    let rdna3 = specs
        .iter()
        .find(|s| s.generation == Some(Generation::Rdna3))
        .expect("RDNA 3 fixture");
    let vgpr_from_zero = |t: usize| {
        rdna3.operand_types[t]
            .predefined_values
            .iter()
            .any(|v| v.name == "v0" && v.value == 0)
    };
    let (mut retyped, mut left) = (0, 0);
    for ins in &rdna3.instructions {
        for ie in &ins.encodings {
            let enc = &rdna3.encodings[ie.encoding.expect("resolved")];
            for o in &ie.operands {
                let (Some(f), Some(t)) = (o.field, o.operand_type) else {
                    continue;
                };
                if enc.fields[f].width() != 9 || enc.fields[f].name.starts_with("LITERAL") {
                    continue;
                }
                left += usize::from(vgpr_from_zero(t));
                if ie.encoding_name.starts_with("VOP3_VOP_DPP")
                    && o.field_name.as_deref() == Some("SRC1")
                    && rdna3.operand_types[t].name == "OPR_SRC"
                {
                    retyped += 1;
                }
            }
        }
    }
    assert_eq!(left, 0, "9-bit fields still typed with v0 = 0");
    assert!(retyped > 0, "no VOP3 DPP SRC1 typed OPR_SRC");
    let applied = rdna3
        .overrides_applied
        .iter()
        .find(|a| a.contains("retyped from OPR_VGPR to OPR_SRC"))
        .unwrap_or_else(|| panic!("{:?}", rdna3.overrides_applied));
    assert!(
        applied.starts_with(&format!("{retyped} operand(s)")),
        "{applied}"
    );
    // CDNA has no such forms: nothing is retyped there.
    let cdna3 = specs
        .iter()
        .find(|s| s.generation == Some(Generation::Cdna3))
        .expect("CDNA 3 fixture");
    assert!(!cdna3
        .overrides_applied
        .iter()
        .any(|a| a.contains("retyped")));
}
