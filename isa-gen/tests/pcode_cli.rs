//! `isa-gen pcode report` and `isa-gen pcode show`, run as a user would, on the project's
//! samples (spec/fixtures/pcode).

use isa_gen::specdir::fixture_pcode_dir;
use std::process::Command;

fn isa_gen(args: &[&str]) -> (i32, String, String) {
    let fixtures = fixture_pcode_dir();
    let out = Command::new(env!("CARGO_BIN_EXE_isa-gen"))
        .arg("pcode")
        .args(args)
        .arg("--dir")
        .arg(&fixtures)
        .output()
        .expect("isa-gen runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn report_json_has_the_counts_per_generation() {
    let (code, out, err) = isa_gen(&["report", "--json"]);
    assert_eq!(code, 0, "{err}");
    let json: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(json["source"], "explicit");
    let gens = json["generations"].as_array().expect("generations");
    let rdna4 = gens
        .iter()
        .find(|g| g["generation"] == "rdna4")
        .expect("rdna4");
    assert_eq!(rdna4["entries"], 22);
    assert_eq!(rdna4["typed"], 14);
    assert_eq!(rdna4["failed"], 2);
    assert_eq!(rdna4["failures"][0]["name"], "DS_SAMPLE_PHRASE");
}

#[test]
fn report_for_one_generation_prints_the_table_and_what_is_left() {
    let (code, out, err) = isa_gen(&["report", "--arch", "rdna2"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rdna2"), "{out}");
    assert!(!out.contains("\nrdna4 "), "{out}");
    assert!(
        out.contains("V_SAMPLE_CHAINED_F32 [type:bool-compared]"),
        "{out}"
    );
    assert!(
        out.contains("S_SAMPLE_WAITCNT [prose:wait-condition]"),
        "{out}"
    );
}

#[test]
fn show_prints_the_source_and_the_typed_ir() {
    let (code, out, err) = isa_gen(&["show", "--arch", "rdna4", "S_SAMPLE_CARRY_U32"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("(typed)"), "{out}");
    assert!(
        out.contains("wide:u64 = ((to_u64(S0:u32) + to_u64(S1:u32)) + as_u64(SCC:b1))"),
        "{out}"
    );
    let (code, out, _) = isa_gen(&["show", "--arch", "rdna4", "S_SAMPLE_CARRY_U32", "--ast"]);
    assert_eq!(code, 0);
    assert!(out.contains("(= D0.u32 wide.u32)"), "{out}");
    let (code, out, _) = isa_gen(&["show", "--arch", "rdna4", "DS_SAMPLE_CUT", "--json"]);
    assert_eq!(code, 0);
    let json: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    assert_eq!(json[0]["class"], "failed");
    assert_eq!(json[0]["diagnostics"][0]["found"], "end of entry");
}

#[test]
fn missing_entries_and_generations_are_errors_with_a_message() {
    let (code, _, err) = isa_gen(&["show", "--arch", "rdna4", "NO_SUCH_INSTRUCTION"]);
    assert_eq!(code, 1);
    assert!(err.contains("no entry `NO_SUCH_INSTRUCTION`"), "{err}");
    let (code, _, err) = isa_gen(&["report", "--arch", "cdna5"]);
    assert_eq!(code, 2);
    assert!(err.contains("no cdna5.pcode"), "{err}");
}
