//! `isa-gen diff`: the fixture pair in spec/fixtures/diff differs in every way the diff reports,
//! and the report must name each difference and nothing else; on AMD's shared data, the full
//! CDNA 3 file against its excerpt shows only omissions, and CDNA 3 against CDNA 4 agrees with
//! an independent count of instruction names.

use isa_gen::diff::{self, Action, Kind, Options};
use isa_gen::model::{self, Spec};
use isa_gen::specdir;
use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
mod common;
use common::isa_gen;

fn fixture(name: &str) -> PathBuf {
    specdir::workspace_root()
        .join("spec/fixtures/diff")
        .join(name)
}

fn load(path: &Path) -> Spec {
    let s = model::load_file(path).expect("readable");
    let errors: Vec<String> = s.errors().map(|d| d.to_string()).collect();
    assert!(errors.is_empty(), "{}: {errors:#?}", path.display());
    s
}

fn pair() -> (Spec, Spec) {
    (load(&fixture("old.xml")), load(&fixture("new.xml")))
}

type Row = (
    Kind,
    Action,
    String,
    Option<String>,
    Option<String>,
    Option<String>,
);

fn rows(d: &diff::SpecDiff) -> Vec<Row> {
    d.changes
        .iter()
        .map(|c| {
            (
                c.kind,
                c.action,
                c.item.clone(),
                c.property.clone(),
                c.old.clone(),
                c.new.clone(),
            )
        })
        .collect()
}

fn row(
    k: Kind,
    a: Action,
    item: &str,
    prop: Option<&str>,
    old: Option<&str>,
    new: Option<&str>,
) -> Row {
    (
        k,
        a,
        item.to_string(),
        prop.map(str::to_string),
        old.map(str::to_string),
        new.map(str::to_string),
    )
}

/// Every difference the fixture pair was written with (see spec/fixtures/README.md).
fn expected() -> Vec<Row> {
    use Action::*;
    use Kind::*;
    let ch = |k, item: &str, prop: &str, old: &str, new: &str| {
        row(k, Changed, item, Some(prop), Some(old), Some(new))
    };
    vec![
        ch(
            Release,
            "release",
            "ReleaseDate",
            "2026-01-10",
            "2026-03-15",
        ),
        row(Instruction, Added, "S_MOVK_I32", None, None, None),
        row(Instruction, Removed, "S_CBRANCH_SCC0", None, None, None),
        row(
            Instruction,
            Renamed,
            "S_FF1_I32_B32",
            None,
            Some("S_FF1_I32_B32"),
            Some("S_CTZ_I32_B32"),
        ),
        ch(
            Instruction,
            "S_ENDPGM",
            "flags",
            "none",
            "program-terminator",
        ),
        row(
            InstructionEncoding,
            Added,
            "S_ADD_U32 in ENC_SOP2 [has_lit]",
            None,
            None,
            None,
        ),
        ch(
            Opcode,
            "S_NOT_B32 in ENC_SOP1 [default]",
            "opcode",
            "4",
            "5",
        ),
        row(
            Operand,
            Added,
            "S_MOV_B32 in ENC_SOP1 [default] operand 3",
            None,
            None,
            None,
        ),
        row(
            Operand,
            Removed,
            "S_NOT_B32 in ENC_SOP1 [default] operand 3",
            None,
            None,
            None,
        ),
        ch(
            Operand,
            "S_CTZ_I32_B32 in ENC_SOP1 [default] operand 1",
            "data_format",
            "FMT_NUM_B32",
            "FMT_NUM_I32",
        ),
        ch(
            Operand,
            "S_ADD_U32 in ENC_SOP2 [default] operand 1",
            "type",
            "OPR_SDST",
            "OPR_SREG",
        ),
        ch(
            Operand,
            "S_ADD_U32 in ENC_SOP2 [default] operand 2",
            "data_format",
            "FMT_NUM_U32",
            "FMT_NUM_I32",
        ),
        ch(
            Operand,
            "S_ADD_U32 in ENC_SOP2 [default] operand 3",
            "size",
            "32",
            "64",
        ),
        ch(
            Operand,
            "S_ADD_U32 in ENC_SOP2 [default] operand 4",
            "direction",
            "out",
            "in/out",
        ),
        row(Encoding, Added, "ENC_SOPK", None, None, None),
        row(Encoding, Removed, "ENC_SOPC", None, None, None),
        row(Field, Added, "ENC_SMEM field GLC", None, None, None),
        row(Field, Removed, "ENC_SMEM field NV", None, None, None),
        ch(
            Field,
            "ENC_SMEM field SDATA",
            "bits",
            "[12:6], 7 bits",
            "[13:7], 7 bits",
        ),
        ch(
            Field,
            "ENC_SMEM field OFFSET",
            "bits",
            "[52:32], 21 bits",
            "[55:32], 24 bits",
        ),
        row(
            Condition,
            Added,
            "ENC_SOP2 condition has_lit",
            None,
            None,
            None,
        ),
        row(
            Condition,
            Removed,
            "ENC_SOP1 condition has_lit",
            None,
            None,
            None,
        ),
        ch(
            Condition,
            "ENC_SOP2 condition default",
            "expression",
            "INST.SOP2.SSRC0 != 255",
            "(INST.SOP2.SSRC0 != 255) && (INST.SOP2.SSRC1 != 255)",
        ),
        row(OperandType, Added, "OPR_SREG", None, None, None),
        row(OperandType, Removed, "OPR_SIMM8", None, None, None),
        row(
            PredefinedValue,
            Added,
            "OPR_SDST value exec_hi",
            None,
            None,
            Some("127"),
        ),
        row(
            PredefinedValue,
            Removed,
            "OPR_SDST value vcc_hi",
            None,
            Some("107"),
            None,
        ),
        ch(PredefinedValue, "OPR_SDST value m0", "value", "124", "125"),
        row(DataFormat, Added, "FMT_NUM_I32", None, None, None),
        row(DataFormat, Removed, "FMT_NUM_B64", None, None, None),
        ch(
            DataFormat,
            "FMT_NUM_U32",
            "data_type",
            "integer",
            "unsigned",
        ),
    ]
}

fn as_set(v: Vec<Row>) -> BTreeSet<String> {
    v.into_iter().map(|r| format!("{r:?}")).collect()
}

#[test]
fn the_fixture_pair_reports_every_difference_and_nothing_else() {
    let (old, new) = pair();
    let d = diff::diff_specs(&old, &new, Options::default());
    let got = as_set(rows(&d));
    let want = as_set(expected());
    let missing: Vec<_> = want.difference(&got).collect();
    let extra: Vec<_> = got.difference(&want).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing: {missing:#?}\nextra: {extra:#?}"
    );
    assert_eq!(d.changes.len(), expected().len(), "a change reported twice");
    // The counts agree with the list.
    let total: usize = d.counts.values().map(|c| c.total()).sum();
    assert_eq!(total, d.changes.len());
    assert_eq!(d.count(Kind::Operand, Action::Changed), 5);
    assert_eq!(d.count(Kind::Description, Action::Changed), 0);
}

#[test]
fn descriptions_are_compared_only_when_asked() {
    let (old, new) = pair();
    let d = diff::diff_specs(&old, &new, Options { descriptions: true });
    let descriptions: Vec<Row> = rows(&d)
        .into_iter()
        .filter(|r| r.0 == Kind::Description)
        .collect();
    let items: BTreeSet<&str> = descriptions.iter().map(|r| r.2.as_str()).collect();
    assert_eq!(items, BTreeSet::from(["ENC_SOPP", "S_MOV_B32"]));
    assert_eq!(d.changes.len(), expected().len() + 2);
}

#[test]
fn a_spec_against_itself_has_no_differences_and_swapping_mirrors_the_report() {
    let (old, new) = pair();
    for s in [&old, &new] {
        let d = diff::diff_specs(s, s, Options { descriptions: true });
        assert!(d.is_empty(), "{:#?}", d.changes);
    }
    for s in model::load_dir(&specdir::fixture_xml_dir()).unwrap() {
        let again = load(&s.path);
        let d = diff::diff_specs(&s, &again, Options { descriptions: true });
        assert!(d.is_empty(), "{}: {:#?}", s.label(), d.changes);
    }
    let forward = diff::diff_specs(&old, &new, Options::default());
    let back = diff::diff_specs(&new, &old, Options::default());
    for k in Kind::ALL {
        assert_eq!(
            forward.count(k, Action::Added),
            back.count(k, Action::Removed),
            "{k:?}"
        );
        assert_eq!(
            forward.count(k, Action::Changed),
            back.count(k, Action::Changed),
            "{k:?}"
        );
        assert_eq!(
            forward.count(k, Action::Renamed),
            back.count(k, Action::Renamed),
            "{k:?}"
        );
    }
}

#[test]
fn cli_prints_one_line_per_change_and_exit_code_says_whether_anything_differs() {
    let (old, new) = (fixture("old.xml"), fixture("new.xml"));
    let (old, new) = (old.to_str().unwrap(), new.to_str().unwrap());
    let (code, out, err) = isa_gen(&["diff", old, new, "--exit-code"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains(&format!("{} differences", expected().len())),
        "{out}"
    );
    assert!(out.contains("  > S_FF1_I32_B32 -> S_CTZ_I32_B32"), "{out}");
    assert!(
        out.contains("  ~ S_NOT_B32 in ENC_SOP1 [default]: opcode 4 -> 5"),
        "{out}"
    );
    assert!(
        out.contains("operands (1 added, 1 removed, 5 changed):"),
        "{out}"
    );
    let change_lines = out
        .lines()
        .filter(|l| {
            ["  + ", "  - ", "  > ", "  ~ "]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .count();
    assert_eq!(change_lines, expected().len(), "{out}");
    let (code, _, _) = isa_gen(&["diff", old, new]);
    assert_eq!(code, 0, "without --exit-code a difference is not a failure");
    let (code, out, _) = isa_gen(&["diff", old, old, "--exit-code"]);
    assert_eq!(code, 0);
    assert!(out.contains("no differences"), "{out}");
}

#[test]
fn cli_json_has_the_documented_layout() {
    let (old, new) = (fixture("old.xml"), fixture("new.xml"));
    let (code, out, err) = isa_gen(&[
        "diff",
        old.to_str().unwrap(),
        new.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["format"], 1);
    assert_eq!(v["descriptions_compared"], false);
    let c = &v["comparisons"][0];
    assert_eq!(c["old"]["release_date"], "2026-01-10");
    assert_eq!(c["new"]["generation"], "cdna3");
    assert_eq!(c["counts"]["predefined_value"]["changed"], 1);
    assert_eq!(c["counts"]["instruction"]["renamed"], 1);
    let changes = c["changes"].as_array().unwrap();
    assert_eq!(changes.len(), expected().len());
    let opcode = changes.iter().find(|x| x["kind"] == "opcode").unwrap();
    assert_eq!(opcode["action"], "changed");
    assert_eq!(opcode["item"], "S_NOT_B32 in ENC_SOP1 [default]");
    assert_eq!(opcode["property"], "opcode");
    assert_eq!((&opcode["old"], &opcode["new"]), (&"4".into(), &"5".into()));
}

#[test]
fn cli_pairs_directories_by_generation_and_resolves_generation_names() {
    let fixtures = specdir::fixture_xml_dir();
    let dir = fixtures.to_str().unwrap();
    // A directory against itself: every generation paired, nothing differs.
    let (code, out, err) = isa_gen(&["diff", dir, dir, "--exit-code", "--json"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    let n = model::load_dir(&fixtures).unwrap().len();
    assert_eq!(v["comparisons"].as_array().unwrap().len(), n);
    // Generation names through the spec directory: two generations differ.
    let (code, out, err) = isa_gen(&["diff", "cdna3", "cdna5", "--spec-dir", dir, "--exit-code"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.starts_with("cdna3 ("), "{out}");
    assert!(
        out.contains("ArchitectureName AMD CDNA 3 -> AMD CDNA 5"),
        "{out}"
    );
    // A name that is neither a file nor a generation, and a file against a directory.
    let (code, _, err) = isa_gen(&["diff", "no_such_thing", dir]);
    assert_eq!(code, 2);
    assert!(
        err.contains("neither a file, a directory nor a generation name"),
        "{err}"
    );
    let old = fixture("old.xml");
    let (code, _, err) = isa_gen(&["diff", old.to_str().unwrap(), dir]);
    assert_eq!(code, 2);
    assert!(err.contains("directory with a directory"), "{err}");
    let (code, _, err) = isa_gen(&["diff", "rdna1", "cdna3", "--spec-dir", dir]);
    assert_eq!(code, 2);
    assert!(err.contains("no spec for rdna1"), "{err}");
}

fn shared_full(generation: &str) -> Option<PathBuf> {
    let p = specdir::shared_dir("xml-full")?.join(format!("amdgpu_isa_{generation}.xml"));
    p.is_file().then_some(p)
}

fn shared_excerpt(generation: &str) -> Option<PathBuf> {
    let p = specdir::shared_dir("xml-excerpts")?.join(format!("amdgpu_isa_{generation}.xml"));
    p.is_file().then_some(p)
}

#[test]
fn shared_full_files_against_their_excerpts_show_only_omissions() {
    for generation in ["cdna3", "cdna4"] {
        let (Some(full), Some(excerpt)) = (shared_full(generation), shared_excerpt(generation))
        else {
            eprintln!("skipped {generation}: ../shared/spec-data/xml-full or xml-excerpts has no amdgpu_isa_{generation}.xml");
            continue;
        };
        let (full, excerpt) = (load(&full), load(&excerpt));
        // Descriptions are not compared: the shared full file has none, the excerpt has AMD's.
        let d = diff::diff_specs(&full, &excerpt, Options::default());
        let not_removed: Vec<_> = d
            .changes
            .iter()
            .filter(|c| c.action != Action::Removed)
            .collect();
        assert!(not_removed.is_empty(), "{generation}: {not_removed:#?}");
        // The omissions are exactly what the excerpt lacks, counted independently by name.
        let names = |s: &Spec| -> HashSet<String> {
            s.instructions.iter().map(|i| i.name.clone()).collect()
        };
        let missing = names(&full).difference(&names(&excerpt)).count();
        assert_eq!(d.count(Kind::Instruction, Action::Removed), missing);
        assert!(missing > 0);
        assert_eq!(
            d.count(Kind::Encoding, Action::Removed),
            full.encodings.len() - excerpt.encodings.len()
        );
        eprintln!(
            "{generation} full -> excerpt: {}",
            d.counts
                .iter()
                .map(|(k, c)| format!("{k:?} -{}", c.removed))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

#[test]
fn shared_full_cdna3_against_full_cdna4_agrees_with_the_instruction_names() {
    let (Some(c3), Some(c4)) = (shared_full("cdna3"), shared_full("cdna4")) else {
        eprintln!("skipped: ../shared/spec-data/xml-full lacks amdgpu_isa_cdna3.xml or amdgpu_isa_cdna4.xml");
        return;
    };
    let (c3, c4) = (load(&c3), load(&c4));
    let d = diff::diff_specs(&c3, &c4, Options::default());
    let names =
        |s: &Spec| -> HashSet<String> { s.instructions.iter().map(|i| i.name.clone()).collect() };
    let (n3, n4) = (names(&c3), names(&c4));
    let renamed = d.count(Kind::Instruction, Action::Renamed);
    assert_eq!(
        d.count(Kind::Instruction, Action::Added) + renamed,
        n4.difference(&n3).count()
    );
    assert_eq!(
        d.count(Kind::Instruction, Action::Removed) + renamed,
        n3.difference(&n4).count()
    );
    assert!(d.count(Kind::Instruction, Action::Added) > 0);
    assert_eq!(
        d.count(Kind::Encoding, Action::Added),
        c4.encodings
            .iter()
            .filter(|e| c3.encoding(&e.name).is_none())
            .count()
    );
    assert!(d
        .changes
        .iter()
        .any(|c| c.kind == Kind::Release && c.property.as_deref() == Some("ArchitectureName")));
    eprintln!(
        "cdna3 -> cdna4: {}",
        d.counts
            .iter()
            .map(|(k, c)| format!("{k:?} {c:?}"))
            .collect::<Vec<_>>()
            .join("; ")
    );
}
