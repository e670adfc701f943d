//! Whole-process speed of `amdisa disasm` against `llvm-mc-22 --disassemble` on the same
//! 1 M words of valid code, side by side in one run: both commands' wall times (best of
//! three, output to /dev/null) and their ratio, and `amdisa disasm --no-cache` (every
//! instruction disassembled anew, not reusing the text of an encoding seen before).
//!
//! The code is real: the function bodies (padding left out) of the OpenCL kernels of
//! `isa-tests/kernels/cl` compiled by clang-22 for the generation's processor, the
//! instructions this build decodes, repeated to 1 M words. The text cache of `amdisa` gains
//! from that repetition; `--no-cache` measures the printer itself.
//! `AMDISA_BENCH_ARCH` picks the generation (default rdna4); `AMDISA_BENCH_KEEP_WORDS=FILE`
//! also writes the raw words to FILE (to profile `amdisa` on them). Needs clang-22, ld.lld-22 and
//! llvm-mc-22; says so and stops when one is absent.

use isa_runtime::codeobj::{CodeObject, Target};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "../tests/clang_support/mod.rs"]
mod clang_support;
use clang_support::{have, TARGETS};

const WORDS: usize = 1 << 20;

/// The `.text` of every kernel in `isa-tests/kernels/cl`, compiled for `mcpu`.
fn compiled_code(mcpu: &str, dir: &Path) -> Vec<u8> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(clang_support::kernels_dir())
        .expect("isa-tests/kernels/cl")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cl"))
        .collect();
    entries.sort();
    let mut code = Vec::new();
    for cl in entries {
        let obj = dir.join("k.o");
        let kernel = cl.file_stem().unwrap().to_str().unwrap();
        if clang_support::compile(kernel, mcpu, &obj).is_err() {
            continue;
        }
        let co = CodeObject::parse(&std::fs::read(&obj).unwrap()).unwrap();
        // Function bodies only: the padding between and after them (runs of `s_nop 0` and
        // `s_code_end`) is most of a small object's `.text` and would flatter any printer.
        for f in &co.functions {
            let Some(s) = co.sections.iter().find(|s| s.index == f.section) else {
                continue;
            };
            let start = (f.address - s.address) as usize;
            let end = (start + f.size as usize).min(s.bytes.len());
            code.extend_from_slice(&s.bytes[start..end]);
        }
    }
    code
}

fn best_of_three(mut run: impl FnMut() -> bool) -> Option<Duration> {
    let mut best = None;
    for _ in 0..3 {
        let t = Instant::now();
        if !run() {
            return None;
        }
        let d = t.elapsed();
        best = Some(best.map_or(d, |b: Duration| b.min(d)));
    }
    best
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    for tool in ["clang-22", "llvm-mc-22"] {
        if !have(tool) {
            println!("cli_disasm: skipped: {tool} is not installed");
            return;
        }
    }
    let generation = std::env::var("AMDISA_BENCH_ARCH").unwrap_or_else(|_| "rdna4".into());
    let Some(spec) = isa_runtime::spec(&generation) else {
        println!("cli_disasm: skipped: no {generation} spec in this build");
        return;
    };
    let mcpu = TARGETS
        .iter()
        .find(|t| t.0 == generation)
        .map_or("gfx1200", |t| t.1);
    assert_eq!(Target::processor_generation(mcpu), Some(spec.generation));
    let dir = std::env::temp_dir().join(format!("amdisa-cli-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Keep the instructions this build decodes (both tools then list the same instructions).
    let code = compiled_code(mcpu, &dir);
    let mut valid = Vec::new();
    let mut at = 0;
    while at < code.len() {
        match isa_runtime::decode(spec, &code[at..]) {
            Ok((_, len)) => {
                valid.extend_from_slice(&code[at..at + len]);
                at += len;
            }
            Err(_) => at += 4,
        }
    }
    if valid.is_empty() {
        println!(
            "cli_disasm: skipped: no {generation} instruction of the compiled kernels decodes"
        );
        return;
    }
    let mut words = Vec::with_capacity(WORDS * 4);
    while words.len() < WORDS * 4 {
        words.extend_from_slice(&valid);
    }
    // Whole instructions only: cut at the last repetition boundary at or past 1 M words.
    let reps = (WORDS * 4).div_ceil(valid.len());
    words.truncate(reps * valid.len());
    let bin = dir.join("words.bin");
    std::fs::write(&bin, &words).unwrap();
    // For profiling the same input outside the benchmark.
    if let Ok(keep) = std::env::var("AMDISA_BENCH_KEEP_WORDS") {
        std::fs::write(&keep, &words).unwrap();
    }
    let mut text = String::with_capacity(words.len() * 5);
    for chunk in words.chunks(16) {
        for b in chunk {
            text.push_str(&format!("0x{b:02x} "));
        }
        text.push('\n');
    }
    let txt = dir.join("words.txt");
    std::fs::write(&txt, text).unwrap();

    let amdisa = env!("CARGO_BIN_EXE_amdisa");
    let run = |cmd: &mut Command| {
        cmd.stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    };
    let ours = best_of_three(|| {
        run(Command::new(amdisa)
            .args(["disasm", "--arch", &generation, "--file"])
            .arg(&bin))
    })
    .expect("amdisa runs");
    let uncached = best_of_three(|| {
        run(Command::new(amdisa)
            .args(["disasm", "--no-cache", "--arch", &generation, "--file"])
            .arg(&bin))
    })
    .expect("amdisa runs");
    let llvm = best_of_three(|| {
        run(Command::new("llvm-mc-22")
            .args(["--disassemble", "-triple=amdgcn-amd-amdhsa"])
            .arg(format!("-mcpu={mcpu}"))
            .arg(&txt))
    })
    .expect("llvm-mc-22 runs");
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "cli_disasm {generation} ({mcpu}): {} words of valid code, whole process, best of 3",
        words.len() / 4
    );
    println!(
        "  amdisa disasm           {:>8.1} ms",
        ours.as_secs_f64() * 1e3
    );
    println!(
        "  amdisa disasm --no-cache {:>7.1} ms (every instruction disassembled anew)",
        uncached.as_secs_f64() * 1e3
    );
    println!(
        "  llvm-mc-22 --disassemble {:>7.1} ms",
        llvm.as_secs_f64() * 1e3
    );
    println!(
        "  ratio (llvm-mc / amdisa) {:>7.1}x; without the text cache {:.1}x",
        llvm.as_secs_f64() / ours.as_secs_f64(),
        llvm.as_secs_f64() / uncached.as_secs_f64()
    );
}
