//! A clang-22 compiled gfx1100 kernel holds `v_dual_*` words: the project disassembles each
//! exactly as `llvm-objdump-22 -d` does, or, when the spec lacks one of the pair's
//! instructions (AMD's excerpt has only some V_DUAL_*), reports the missing opcode.

use isa_runtime::dual::{decode_any, Decoded};
use isa_runtime::DecodeErrorKind;
use std::path::Path;
use std::process::Command;

fn tool(name: &str) -> bool {
    Command::new(name)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// `llvm-objdump -d` lines holding `v_dual`: (LLVM's text, the word's bytes).
fn dual_lines(object: &Path) -> Vec<(String, Vec<u8>)> {
    let out = Command::new("llvm-objdump-22")
        .arg("-d")
        .arg(object)
        .output()
        .expect("llvm-objdump-22 runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    text.lines()
        .filter(|l| l.trim_start().starts_with("v_dual"))
        .map(|l| {
            let (ins, comment) = l.split_once("//").expect("objdump comment with the bytes");
            let words = comment.split_once(':').expect("address: words").1;
            let bytes = words
                .split_whitespace()
                .flat_map(|w| u32::from_str_radix(w, 16).expect("hex word").to_le_bytes())
                .collect();
            (ins.trim().to_string(), bytes)
        })
        .collect()
}

#[test]
fn compiled_gfx1100_kernel_dual_words_match_llvm_objdump() {
    let Some(spec) = isa_runtime::spec("rdna3").filter(|s| !s.dual_halves.is_empty()) else {
        eprintln!("skipped: no rdna3 spec with V_DUAL_* instructions");
        return;
    };
    if !tool("clang-22") || !tool("llvm-objdump-22") {
        eprintln!("skipped: clang-22 or llvm-objdump-22 not installed");
        return;
    }
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("kernels/vopd_select.cl");
    let dir = std::env::temp_dir().join(format!("vopd-kernel-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let object = dir.join("vopd_select.o");
    let status = Command::new("clang-22")
        .args(["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa"])
        .args(["-mcpu=gfx1100", "-O2", "-nogpulib", "-c"])
        .arg(&src)
        .arg("-o")
        .arg(&object)
        .status()
        .expect("clang-22 runs");
    assert!(status.success());
    let lines = dual_lines(&object);
    assert!(!lines.is_empty(), "clang-22 produced no v_dual_* word");
    let (mut same, mut missing) = (0, 0);
    for (llvm, bytes) in &lines {
        match decode_any(spec, bytes) {
            Ok((d @ Decoded::Dual(_), n)) => {
                assert_eq!(n, bytes.len(), "{llvm}");
                assert_eq!(d.text(), *llvm, "{bytes:02x?}");
                same += 1;
            }
            Ok((other, _)) => panic!("{llvm}: decoded as {}", other.text()),
            Err(e) => {
                // Only a half the spec lacks may fail, and the error names its opcode.
                let DecodeErrorKind::NoMatchingForm { opcode, .. } = e.kind else {
                    panic!("{llvm}: {e}");
                };
                let names = llvm
                    .split("::")
                    .map(|h| h.split_whitespace().next().unwrap());
                assert!(
                    names.clone().any(|n| spec.instruction_by_name(n).is_none()),
                    "{llvm}: {e}"
                );
                assert!(e.to_string().contains(&format!("opcode {opcode}")), "{e}");
                missing += 1;
            }
        }
    }
    eprintln!(
        "vopd kernel: {} v_dual words, {same} identical to llvm-objdump, {missing} with a half the spec lacks",
        lines.len()
    );
    assert!(same > 0, "no word with both halves in the spec");
    let _ = std::fs::remove_dir_all(&dir);
}
