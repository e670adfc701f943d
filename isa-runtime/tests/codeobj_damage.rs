//! Bad code objects: every damaged or wrong file is a clear error naming the file and the
//! problem, never a panic — hand-made cases through `amdisa`, and a proptest over randomly
//! damaged copies of a real code object through the library (parse, list, describe).

use isa_runtime::codeobj::CodeObject;
use object::read::elf::{ElfFile64, FileHeader, SectionHeader};
use object::{LittleEndian, Object, ObjectSection, ObjectSymbol};
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const AMDISA: &str = env!("CARGO_BIN_EXE_amdisa");

fn fixture() -> Vec<u8> {
    std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/vector_add.gfx1100.hsaco"))
        .unwrap()
}

fn write_temp(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("amdisa-codeobj-damage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// amdisa's exit code and standard error.
fn amdisa(args: &[&str], file: &Path) -> (i32, String) {
    let out = Command::new(AMDISA).args(args).arg(file).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// The file offset of a section's header field `sh_flags` and of its data, by name.
fn section_offsets(bytes: &[u8], name: &str) -> (usize, usize) {
    let f = ElfFile64::<LittleEndian>::parse(bytes).unwrap();
    let e = f.endian();
    let h = f.elf_header();
    let shoff = h.e_shoff(e) as usize;
    let shentsize = h.e_shentsize(e) as usize;
    let s = f.section_by_name(name).unwrap();
    let header = shoff + s.index().0 * shentsize;
    let data = s.elf_section_header().sh_offset(e) as usize;
    (header + 8, data)
}

fn args(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

fn assert_error(args: &[&str], file: &Path, says: &[&str]) {
    let (code, err) = amdisa(args, file);
    assert_eq!(
        code,
        2,
        "{args:?} {}: expected an error, got exit {code}: {err}",
        file.display()
    );
    assert!(!err.contains("panicked"), "{err}");
    let name = file.display().to_string();
    assert!(err.contains(&name), "the error names the file: {err}");
    for s in says {
        assert!(err.contains(s), "the error says `{s}`: {err}");
    }
}

#[test]
fn wrong_files_are_errors_naming_file_and_problem() {
    let good = fixture();
    let truncated = write_temp("truncated.hsaco", &good[..40]);
    assert_error(&["disasm"], &truncated, &["truncated ELF file"]);
    let cut = write_temp("cut.hsaco", &good[..good.len() / 2]);
    let (code, err) = amdisa(&["info"], &cut);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("cut.hsaco") && !err.contains("panicked"),
        "{err}"
    );

    // This test's own executable: an ELF file for the host, not an AMDGPU one.
    let host = std::env::current_exe().unwrap();
    assert_error(
        &["disasm"],
        &host,
        &["not an AMDGPU code object", "ELF machine"],
    );

    // No executable section: .text's SHF_EXECINSTR cleared.
    let mut no_text = good.clone();
    let (flags, _) = section_offsets(&good, ".text");
    no_text[flags] &= !0x4;
    assert_error(
        &["disasm"],
        &write_temp("notext.hsaco", &no_text),
        &["no executable section"],
    );

    // Unknown machine in e_flags.
    let mut unknown = good.clone();
    unknown[48] = 0xfe;
    assert_error(
        &["info"],
        &write_temp("mach.hsaco", &unknown),
        &["unknown AMDGPU machine", "0xfe"],
    );

    // Corrupt MessagePack in the metadata note (0xc1 is never valid MessagePack).
    let mut corrupt = good.clone();
    let (_, note) = section_offsets(&good, ".note");
    // Note header: namesz, descsz, type (12 bytes), then the name padded to 4.
    let namesz = u32::from_le_bytes(good[note..note + 4].try_into().unwrap()) as usize;
    let desc = note + 12 + namesz.div_ceil(4) * 4;
    corrupt[desc] = 0xc1;
    assert_error(
        &["info"],
        &write_temp("badnote.hsaco", &corrupt),
        &["not valid MessagePack"],
    );
}

#[test]
fn launch_errors_name_kernel_and_what_is_missing() {
    if isa_runtime::spec("rdna3").is_none() {
        println!("launch errors: skipped: no rdna3 spec in this build");
        return;
    }
    let good = fixture();
    let file = write_temp("vadd.hsaco", &good);
    let run = [
        "run",
        "--buffer",
        "a:64:f32",
        "--buffer",
        "b:64:f32",
        "--buffer",
        "out:64:f32",
    ];
    let with = |extra: &[&str]| -> Vec<String> {
        run.iter().chain(extra).map(|s| s.to_string()).collect()
    };
    assert_error(
        &args(&with(&["--kernel", "nope"])),
        &file,
        &["no kernel `nope`", "vector_add"],
    );
    assert_error(
        &args(&with(&["--arg", "a", "--arg", "b"])),
        &file,
        &["`vector_add` takes 4 argument(s), 2 given"],
    );
    assert_error(
        &args(&with(&[
            "--arg", "a", "--arg", "b", "--arg", "7", "--arg", "64",
        ])),
        &file,
        &["argument 3", "pointer"],
    );
    assert_error(
        &args(&with(&[
            "--arg", "a", "--arg", "b", "--arg", "out", "--arg", "f64:1.5",
        ])),
        &file,
        &["argument 4", "8-byte value for a 4-byte argument"],
    );
    assert_error(
        &args(&with(&[
            "--arg", "a", "--arg", "b", "--arg", "out", "--arg", "out",
        ])),
        &file,
        &["argument 4", "not a buffer pointer"],
    );
    // The descriptor asks for scratch and the workgroup-info SGPR: both are named.
    let f = ElfFile64::<LittleEndian>::parse(&good[..]).unwrap();
    let kd = f
        .symbols()
        .find(|s| s.name() == Ok("vector_add.kd"))
        .unwrap();
    let rodata = f.section_by_name(".rodata").unwrap();
    let at = rodata.elf_section_header().sh_offset(f.endian()) as usize
        + (kd.address() - rodata.address()) as usize;
    let mut scratch = good.clone();
    scratch[at + 4..at + 8].copy_from_slice(&16u32.to_le_bytes());
    scratch[at + 52 + 1] |= 1 << 2; // RSRC2 bit 10: ENABLE_SGPR_WORKGROUP_INFO
    assert_error(
        &args(&with(&[
            "--arg", "a", "--arg", "b", "--arg", "out", "--arg", "64",
        ])),
        &write_temp("scratch.hsaco", &scratch),
        &[
            "kernel `vector_add` needs what the emulator does not model",
            "scratch",
            "workgroup-info",
        ],
    );
}

/// Parsing, listing and describing a damaged object must give a result or an error.
fn exercise(bytes: &[u8]) {
    let Ok(code) = CodeObject::parse(bytes) else {
        return;
    };
    let spec = isa_runtime::spec(code.target.generation);
    for s in &code.sections {
        for r in code.ranges(s) {
            if let Some(spec) = spec {
                let mut at = 0;
                while at < r.bytes.len() {
                    at += match isa_runtime::decode(spec, &r.bytes[at..]) {
                        Ok((ins, len)) => {
                            let _ = isa_runtime::disassemble(&ins);
                            len
                        }
                        Err(_) => 4,
                    };
                }
            }
        }
    }
    for k in &code.kernels {
        let _ = k.descriptor.user_sgprs();
        let _ = code.kernel(&k.name);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn damaged_code_objects_never_panic(
        flips in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..12),
        cut in any::<prop::sample::Index>(),
        truncate in any::<bool>(),
    ) {
        let mut bytes = fixture();
        for (at, v) in &flips {
            let i = at.index(bytes.len());
            bytes[i] = *v;
        }
        if truncate {
            bytes.truncate(cut.index(bytes.len()));
        }
        exercise(&bytes);
    }

    #[test]
    fn damaged_headers_and_tables_never_panic(
        field in 0usize..64,
        value in any::<u64>(),
        region in 0usize..3,
    ) {
        // Overwrite 8 bytes of the ELF header, the section headers or the notes: where a
        // parser trusts offsets and sizes.
        let mut bytes = fixture();
        let f = ElfFile64::<LittleEndian>::parse(&bytes[..]).unwrap();
        let shoff = f.elf_header().e_shoff(f.endian()) as usize;
        let base = match region {
            0 => 0,
            1 => shoff,
            _ => section_offsets(&bytes, ".note").1,
        };
        let at = (base + field * 8).min(bytes.len() - 8);
        bytes[at..at + 8].copy_from_slice(&value.to_le_bytes());
        exercise(&bytes);
    }
}
