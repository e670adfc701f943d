//! Regression cases for what a check outside the project's tests found on AMD's excerpts (issue
//! 11): words whose bits the random cases never set before. Each word is decoded with AMD's
//! spec of its generation and must print as llvm-mc 22 prints it; where LLVM assembles its own
//! text, the project must assemble it to LLVM's bytes. The texts and bytes were recorded from
//! `llvm-mc-22 --disassemble` / `-show-encoding` (gfx1100 for RDNA 3, gfx1200 for RDNA 4).
//! Skipped, and said so, for a generation whose AMD data is not present.

use isa_runtime::{assemble_instruction, decode, disassemble};

struct Finding {
    generation: &'static str,
    what: &'static str,
    bytes: &'static [u8],
    llvm_text: &'static str,
    /// LLVM's bytes for `llvm_text`, when LLVM assembles it.
    llvm_bytes: Option<&'static [u8]>,
    /// Not fixed yet, with where the fix belongs: such a finding must still disagree (the test
    /// fails once it agrees, so that the mark is removed).
    pending: Option<&'static str>,
}

const FINDINGS: &[Finding] = &[
    Finding {
        generation: "rdna3",
        what: "a 64-bit SGPR source at an odd register prints aligned down (was s[3:4])",
        bytes: &[0x7e, 0x00, 0xd1, 0xd4, 0x03, 0x08, 0x02, 0x00],
        llvm_text: "v_cmpx_lt_i64_e64 s[2:3], v[4:5]",
        llvm_bytes: Some(&[0x7e, 0x00, 0xd1, 0xd4, 0x02, 0x08, 0x02, 0x00]),
        pending: None,
    },
    Finding {
        generation: "rdna3",
        what: "a 64-bit trap-temporary source at an odd register (was ttmp[3:4])",
        bytes: &[0x00, 0x00, 0x3c, 0xd7, 0x81, 0xde, 0x00, 0x00],
        llvm_text: "v_lshlrev_b64 v[0:1], 1, ttmp[2:3]",
        llvm_bytes: Some(&[0x00, 0x00, 0x3c, 0xd7, 0x81, 0xdc, 0x00, 0x00]),
        pending: None,
    },
    Finding {
        generation: "rdna3",
        what: "the VOP3SD carry-in holding a VGPR code (was printed 372)",
        bytes: &[0x01, 0x02, 0x20, 0xd5, 0x03, 0x09, 0xd2, 0x05],
        llvm_text: "v_add_co_ci_u32_e64 v1, s2, v3, v4, v116",
        // LLVM rejects a VGPR carry-in when assembling.
        llvm_bytes: None,
        pending: None,
    },
    Finding {
        generation: "rdna3",
        what: "a scalar source code of v_readfirstlane_b32's 9-bit SRC0 (was printed 237)",
        bytes: &[0xed, 0x04, 0x00, 0x7e],
        llvm_text: "v_readfirstlane_b32 s0, src_private_base",
        // LLVM's assembler takes VGPRs only.
        llvm_bytes: None,
        pending: None,
    },
    Finding {
        generation: "rdna4",
        what: "GFX12 SMEM with the scale_offset bit (bit 56) set",
        bytes: &[0x41, 0x01, 0x00, 0xf4, 0x10, 0x00, 0x00, 0x01],
        llvm_text: "s_load_b32 s5, s[2:3], s0 offset:0x10 scale_offset",
        llvm_bytes: Some(&[0x41, 0x01, 0x00, 0xf4, 0x10, 0x00, 0x00, 0x01]),
        pending: Some("the SMEM printer and assembler (isa-runtime/src/disasm/memory.rs)"),
    },
];

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn excerpt_findings_print_and_assemble_like_llvm() {
    // The findings are words of AMD's excerpts: the project's fixture specs (a fresh machine)
    // do not hold those instructions.
    if isa_gen::specdir::real_xml_dir().is_none() {
        eprintln!("skipped: no AMD XML present; the findings are words of AMD's excerpts");
        return;
    }
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in FINDINGS {
        let Some(spec) = isa_runtime::spec(f.generation) else {
            eprintln!(
                "skipped ({}): no AMD data for {} in this build",
                f.what, f.generation
            );
            continue;
        };
        let ins = match decode(spec, f.bytes) {
            Ok((ins, _)) => ins,
            Err(e) => {
                failures.push(format!(
                    "{}: [{}] does not decode: {e}",
                    f.what,
                    hex(f.bytes)
                ));
                continue;
            }
        };
        checked += 1;
        let ours = disassemble(&ins);
        if let Some(fix) = f.pending {
            if ours == f.llvm_text {
                failures.push(format!(
                    "{} ({}): agrees now; remove its pending mark",
                    f.what, f.generation
                ));
            } else {
                eprintln!(
                    "pending ({}): {} — prints `{ours}`; the fix belongs in {fix}",
                    f.generation, f.what
                );
            }
            continue;
        }
        if ours != f.llvm_text {
            failures.push(format!(
                "{} ({}): [{}]\n    ours: {ours}\n    llvm: {}",
                f.what,
                f.generation,
                hex(f.bytes),
                f.llvm_text
            ));
        }
        if let Some(expected) = f.llvm_bytes {
            match assemble_instruction(spec, f.llvm_text) {
                Ok(a) if a.encode() == expected => {}
                Ok(a) => failures.push(format!(
                    "{} ({}): `{}` assembles to [{}], llvm [{}]",
                    f.what,
                    f.generation,
                    f.llvm_text,
                    hex(&a.encode()),
                    hex(expected)
                )),
                Err(e) => failures.push(format!(
                    "{} ({}): `{}` does not assemble: {}",
                    f.what, f.generation, f.llvm_text, e.message
                )),
            }
        }
    }
    eprintln!("{checked} of {} findings checked", FINDINGS.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
