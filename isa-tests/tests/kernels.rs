//! End-to-end kernels (issue 5): the assembly sources in `isa-tests/kernels/`, assembled with
//! the project's assembler (`isa_runtime::assemble`, which adds labels and
//! `.long` words), run on the emulator with the generated executors, results checked against
//! values computed here.
//!
//! Every kernel runs on every spec whose generation has a source in its syntax: the fixture
//! specs always, AMD's specs when present. A spec that lacks an instruction of the kernel skips
//! that combination, saying which instruction; on AMD's specs an executor that reports itself
//! unsupported skips too (with its reason). On the fixture specs nothing may be skipped but
//! what the fixture does not hold; a wrong result or an error fails, unless the combination is
//! listed in `kernels/known-executor-gaps.txt` with the reason.
//!
//! Sources are named `<kernel>.<syntax>.s` (`gfx9` for CDNA 1-4, `gfx10` for RDNA 1-2, `gfx11`
//! for RDNA 3 and 3.5, `gfx12` for RDNA 4 and CDNA 5) or `<kernel>.s` for every syntax.
//! `.long` lines stand for an instruction the assembler does not take yet; their `// asm:`
//! comment says which, and `kernel_sources_match_llvm_mc` checks the words against llvm-mc.

// `amdisa run`'s modules, shared so that the tests run kernels exactly as the command does
// (the command uses parts the tests do not).
#[allow(dead_code)]
#[path = "../../isa-runtime/src/bin/amdisa/launch.rs"]
mod launch;
#[allow(dead_code)]
#[path = "../../isa-runtime/src/bin/amdisa/report.rs"]
mod report;
#[allow(dead_code)]
use isa_runtime::exec::dispatch::Program;
use isa_runtime::exec::ExecError;
use isa_runtime::IsaSpec;
use launch::{Arg, BufferSpec, ElemType, Init, Launch, LaunchError, Outcome, WaveId};
use std::path::{Path, PathBuf};

const KERNEL_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/kernels");

/// `<spec label> <kernel>  # reason` lines: combinations that fail because of a known
/// executor gap. A listed failure is reported, not failed; a listed combination that passes
/// is reported so the line can go.
fn known_gaps() -> Vec<(String, String)> {
    include_str!("../kernels/known-executor-gaps.txt")
        .lines()
        .filter_map(|l| {
            let mut words = l.split('#').next()?.split_whitespace();
            Some((words.next()?.to_string(), words.next()?.to_string()))
        })
        .collect()
}
const SENTINEL: u32 = 0xdead_beef;

/// The assembly syntax a generation is written in.
fn syntax(generation: &str) -> &'static str {
    match generation {
        "rdna1" | "rdna2" => "gfx10",
        "rdna3" | "rdna3_5" => "gfx11",
        "rdna4" | "cdna5" => "gfx12",
        _ => "gfx9",
    }
}

/// `<kernel>.<syntax>.s`, else `<kernel>.s`.
fn source_path(kernel: &str, syntax: &str) -> Option<PathBuf> {
    [format!("{kernel}.{syntax}.s"), format!("{kernel}.s")]
        .into_iter()
        .map(|f| Path::new(KERNEL_DIR).join(f))
        .find(|p| p.exists())
}

/// The mnemonic of every instruction line (and of every `.long` line's `// asm:` text).
fn mnemonics(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let (code, comment) = line.split_once("//").unwrap_or((line, ""));
        let code = code.split(';').next().unwrap_or("").trim();
        // A leading `name:` is a label (operand colons come after a space: `s[0:1]`).
        let code = match code.split_once(':') {
            Some((label, rest)) if !label.contains(char::is_whitespace) && !label.contains('[') => {
                rest.trim()
            }
            _ => code,
        };
        let text = if code.starts_with(".long") {
            comment.trim().strip_prefix("asm:").unwrap_or("").trim()
        } else {
            code
        };
        if let Some(m) = text.split_whitespace().next() {
            out.push(m.to_ascii_lowercase());
        }
    }
    out
}

/// The instructions `text` uses that `spec` does not have, in AMD's spelling.
fn missing_instructions(spec: &IsaSpec, text: &str) -> Vec<String> {
    let mut missing = Vec::new();
    for m in mnemonics(text) {
        let base = ["_e32", "_e64", "_dpp", "_sdwa"]
            .iter()
            .find_map(|s| m.strip_suffix(s))
            .unwrap_or(&m);
        let known =
            spec.instruction_by_name(&m).is_some() || spec.instruction_by_name(base).is_some();
        let name = base.to_ascii_uppercase();
        if !known && !missing.contains(&name) {
            missing.push(name);
        }
    }
    missing
}

/// The wave size a source is written for (`// wave size: 32`), if it says.
fn source_wave_size(text: &str) -> Option<u32> {
    text.lines()
        .find_map(|l| l.trim().strip_prefix("// wave size:"))
        .and_then(|n| n.trim().parse().ok())
}

/// How one kernel fared on one spec.
enum Verdict {
    Passed,
    Skipped(String),
}

/// The specs to run on: `(label, spec, is_fixture)`.
fn all_specs() -> Vec<(String, &'static IsaSpec, bool)> {
    let mut v: Vec<_> = isa_runtime::fixtures::specs()
        .into_iter()
        .map(|s| (format!("fixture {}", s.generation), s, true))
        .collect();
    if isa_gen::specdir::real_xml_dir().is_some() {
        v.extend(
            isa_runtime::specs()
                .into_iter()
                .map(|s| (format!("AMD {}", s.generation), s, false)),
        );
    } else {
        eprintln!("AMD's XML is absent: the kernels run on the fixture specs only");
    }
    v
}

/// The kernel's code for `spec`, or why it cannot run there.
fn load(kernel: &str, spec: &'static IsaSpec) -> Result<(Vec<u8>, String), String> {
    let syn = syntax(spec.generation);
    let path =
        source_path(kernel, syn).ok_or_else(|| format!("no {kernel} source in {syn} syntax"))?;
    let text = std::fs::read_to_string(&path).expect("kernel source readable");
    let missing = missing_instructions(spec, &text);
    if !missing.is_empty() {
        return Err(format!("the spec lacks {}", missing.join(", ")));
    }
    if let Some(n) = source_wave_size(&text).filter(|&n| n != lanes(spec)) {
        return Err(format!(
            "no {kernel} source for wave{}: {} is written for wave{n}",
            lanes(spec),
            path.file_name().unwrap().to_string_lossy()
        ));
    }
    match isa_runtime::assemble(spec, &text) {
        Ok(code) => Ok((code, text)),
        // Every instruction exists: a line that does not assemble is a real failure.
        Err(errors) => panic!(
            "{}: {} does not assemble:\n{}",
            spec.generation,
            path.display(),
            errors
                .iter()
                .map(|e| format!("  {}:{e}", path.display()))
                .collect::<Vec<_>>()
                .join("\n")
        ),
    }
}

/// Runs `launch`; an unsupported executor on AMD's data is a skip, anything else a failure.
fn run(
    spec: &'static IsaSpec,
    code: &[u8],
    setup: &Launch,
    fixture: bool,
) -> Result<Outcome, String> {
    let table = launch::executor_table(spec).unwrap_or_else(|e| panic!("{e}"));
    let program = Program::load(spec, code, 0, &table);
    match launch::run(&program, setup, None) {
        Ok(o) => {
            // Every kernel runs again with its workgroups on three threads (shared global
            // memory): the memory and the counts must be the serial run's.
            let p = launch::run_threads(&program, setup, 3)
                .unwrap_or_else(|e| panic!("{}: on 3 threads: {e}", spec.generation));
            for b in &o.buffers {
                assert_eq!(
                    p.buffer(&b.name),
                    o.buffer(&b.name),
                    "{}: buffer {} differs on 3 threads",
                    spec.generation,
                    b.name
                );
            }
            assert_eq!(
                p.stats, o.stats,
                "{}: counts differ on 3 threads",
                spec.generation
            );
            Ok(o)
        }
        Err(LaunchError::Dispatch(d))
            if !fixture
                && matches!(
                    d.error,
                    ExecError::Unsupported { .. } | ExecError::NoExecutor { .. }
                ) =>
        {
            Err(format!("executor: {d}"))
        }
        Err(e) => panic!("{}: {e}", spec.generation),
    }
}

fn lanes(spec: &IsaSpec) -> u32 {
    if spec.wave64 {
        64
    } else {
        32
    }
}

fn buffer(name: &str, count: usize, ty: ElemType, init: Init) -> BufferSpec {
    BufferSpec {
        name: name.into(),
        count,
        ty,
        init,
    }
}

/// Runs `kernel` on every spec with `check`, prints the verdicts, and fails (after trying
/// every spec, listing every failure) on a wrong result or a fixture skip that is not a
/// missing instruction. Returns how many combinations passed or failed only by a listed
/// executor gap, and how many were skipped.
fn for_every_spec(
    kernel: &str,
    check: impl Fn(&'static IsaSpec, &[u8], bool) -> Result<(), String>,
) -> (usize, usize) {
    let (mut passed, mut skipped, mut gapped) = (0, 0, 0);
    let mut failures = Vec::new();
    let gaps = known_gaps();
    for (label, spec, fixture) in all_specs() {
        let key = label.replace(' ', "-");
        let known_gap = gaps.iter().any(|(l, k)| *l == key && k == kernel);
        let attempt =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match load(kernel, spec) {
                Err(reason) => Verdict::Skipped(reason),
                Ok((code, _)) => match check(spec, &code, fixture) {
                    Ok(()) => Verdict::Passed,
                    Err(reason) => Verdict::Skipped(reason),
                },
            }));
        match attempt {
            Ok(Verdict::Passed) => {
                passed += 1;
                eprintln!("{kernel} on {label}: passed");
                if known_gap {
                    eprintln!("now passes (remove from known-executor-gaps.txt): {key} {kernel}");
                }
            }
            Ok(Verdict::Skipped(reason)) => {
                skipped += 1;
                eprintln!("{kernel} on {label}: skipped: {reason}");
                if fixture && !reason.starts_with("the spec lacks") && !reason.starts_with("no ") {
                    failures.push(format!("{label}: may not be skipped: {reason}"));
                }
            }
            Err(panic) => {
                let message = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                if known_gap {
                    gapped += 1;
                    eprintln!("{kernel} on {label}: known executor gap: {message}");
                } else {
                    eprintln!("{kernel} on {label}: FAILED: {message}");
                    failures.push(format!("{label}: {message}"));
                }
            }
        }
    }
    eprintln!(
        "{kernel}: {passed} passed, {skipped} skipped, {gapped} known executor gaps, {} failed",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{kernel} failed on:\n{}",
        failures.join("\n")
    );
    (passed + gapped, skipped)
}

/// The fixture generations every kernel must pass on (the minimum), unless a line of
/// known-executor-gaps.txt excuses one.
fn assert_minimum(kernel: &str, specs_passed: usize) {
    assert!(
        specs_passed >= 2,
        "{kernel} must pass on fixture rdna3 and cdna3 at least"
    );
}

// ---------------------------------------------------------------------------------------------
// vector add

fn vector_add_on(spec: &'static IsaSpec, code: &[u8], fixture: bool, n: u32) -> Result<(), String> {
    const WG: u32 = 256;
    let groups = n.div_ceil(WG);
    let total = (groups * WG) as usize;
    let lanes = lanes(spec);
    let last = WaveId {
        group: [groups - 1, 0, 0],
        wave: WG / lanes - 1,
    };
    let setup = Launch {
        // a and b hold exactly n elements: a load by a lane past n would fault.
        buffers: vec![
            buffer("a", n as usize, ElemType::F32, Init::Random(11)),
            buffer("b", n as usize, ElemType::F32, Init::Random(12)),
            buffer("out", total, ElemType::F32, Init::Fill(SENTINEL.into())),
        ],
        args: vec![
            Arg::Buffer("a".into()),
            Arg::Buffer("b".into()),
            Arg::Buffer("out".into()),
            Arg::U32(n),
        ],
        grid: [groups, 1, 1],
        workgroup: [WG, 1, 1],
        watch: Some(last),
        max_steps: 10_000,
    };
    let o = run(spec, code, &setup, fixture)?;
    let (a, b, out) = (
        o.buffer("a").unwrap(),
        o.buffer("b").unwrap(),
        o.buffer("out").unwrap(),
    );
    for i in 0..total {
        let expect = if i < n as usize {
            (f32::from_bits(a[i]) + f32::from_bits(b[i])).to_bits()
        } else {
            SENTINEL
        };
        assert_eq!(
            out[i], expect,
            "{} n={n}: out[{i}] = {:#x}, expected {expect:#x}",
            spec.generation, out[i]
        );
    }
    // The last wave: its lanes with an element are the only ones left in EXEC.
    let w = o.watched.expect("the last wave ran");
    let first_id = last.group[0] * WG + last.wave * lanes;
    let active = n.saturating_sub(first_id).min(lanes);
    let expect_exec = if active == 64 {
        u64::MAX
    } else {
        (1u64 << active) - 1
    };
    assert_eq!(
        w.exec, expect_exec,
        "{} n={n}: EXEC of the last wave",
        spec.generation
    );
    assert!(w.ended);
    let instructions = isa_runtime::decode_stream(spec, code).len() as u64;
    if active == 0 {
        // s_cbranch_execz jumped over the body.
        assert!(
            w.steps < instructions,
            "{}: the empty wave ran the body",
            spec.generation
        );
    } else {
        assert_eq!(
            w.steps, instructions,
            "{}: straight-line kernel",
            spec.generation
        );
    }
    Ok(())
}

#[test]
fn vector_add_over_1000_elements() {
    let (passed, _) = for_every_spec("vector_add", |spec, code, fixture| {
        // 1000: the last wave is partly active; 900: whole waves are switched off and branch
        // over the body with s_cbranch_execz.
        vector_add_on(spec, code, fixture, 1000)?;
        vector_add_on(spec, code, fixture, 900)
    });
    assert_minimum("vector_add", passed);
}

// ---------------------------------------------------------------------------------------------
// wave reduction with ds_bpermute_b32

#[test]
fn wave_reduction_with_ds_bpermute() {
    let (passed, _) = for_every_spec("reduce", |spec, code, fixture| {
        let n = 1000u32;
        let lanes = lanes(spec);
        let groups = n.div_ceil(lanes);
        let setup = Launch {
            buffers: vec![
                buffer("in", n as usize, ElemType::U32, Init::Random(21)),
                // One element more than the groups: nothing may be stored there.
                buffer(
                    "out",
                    groups as usize + 1,
                    ElemType::U32,
                    Init::Fill(SENTINEL.into()),
                ),
            ],
            args: vec![
                Arg::Buffer("in".into()),
                Arg::Buffer("out".into()),
                Arg::U32(n),
            ],
            grid: [groups, 1, 1],
            workgroup: [lanes, 1, 1],
            watch: Some(WaveId {
                group: [groups - 1, 0, 0],
                wave: 0,
            }),
            max_steps: 10_000,
        };
        let o = run(spec, code, &setup, fixture)?;
        let input = o.buffer("in").unwrap();
        let out = o.buffer("out").unwrap();
        let sums: Vec<u32> = input
            .chunks(lanes as usize)
            .map(|c| c.iter().fold(0u32, |s, &x| s.wrapping_add(x)))
            .collect();
        assert_eq!(&out[..groups as usize], &sums[..], "{}", spec.generation);
        assert_eq!(
            out[groups as usize], SENTINEL,
            "{}: store past the groups",
            spec.generation
        );
        // The rotate-and-add leaves the sum in every lane of v3, not only lane 0 (the last
        // wave is partial: 1000 = 31 * 32 + 8 = 15 * 64 + 40).
        let w = o.watched.expect("last wave ran");
        let v3 = w.vgpr_lanes(3).unwrap();
        assert!(
            v3.iter().all(|&v| v == sums[groups as usize - 1]),
            "{}: v3 = {v3:x?}, expected {:#x} in every lane",
            spec.generation,
            sums[groups as usize - 1]
        );
        Ok(())
    });
    assert_minimum("reduce", passed);
}

// ---------------------------------------------------------------------------------------------
// loops with s_cbranch

#[test]
fn counted_loop_with_s_cbranch() {
    let (passed, _) = for_every_spec("loop", |spec, code, fixture| {
        for k in [1u32, 37, 500] {
            let items = 128u32;
            let setup = Launch {
                buffers: vec![buffer(
                    "out",
                    items as usize + 1,
                    ElemType::U32,
                    Init::Fill(SENTINEL.into()),
                )],
                args: vec![Arg::Buffer("out".into()), Arg::U32(k)],
                grid: [2, 1, 1],
                workgroup: [64, 1, 1],
                watch: Some(WaveId {
                    group: [1, 0, 0],
                    wave: 0,
                }),
                max_steps: 100_000,
            };
            let o = run(spec, code, &setup, fixture)?;
            let out = o.buffer("out").unwrap();
            for id in 0..items {
                // Summed the slow way, as the kernel does not.
                let mut expect = 0u32;
                for i in 1..=k {
                    expect = expect.wrapping_add(i).wrapping_add(id);
                }
                assert_eq!(
                    out[id as usize], expect,
                    "{} k={k}: out[{id}]",
                    spec.generation
                );
            }
            assert_eq!(out[items as usize], SENTINEL);
            // The loop counter ended at k.
            assert_eq!(o.watched.unwrap().sgpr[12], k, "{}: s12", spec.generation);
        }
        Ok(())
    });
    assert_minimum("loop", passed);
}

#[test]
fn scalar_loop_with_s_cbranch() {
    let (passed, _) = for_every_spec("loop_scalar", |spec, code, fixture| {
        let setup = Launch {
            buffers: vec![],
            args: vec![],
            grid: [1, 1, 1],
            workgroup: [lanes(spec), 1, 1],
            watch: Some(WaveId {
                group: [0, 0, 0],
                wave: 0,
            }),
            max_steps: 10_000,
        };
        let o = run(spec, code, &setup, fixture)?;
        let w = o.watched.expect("the wave ran");
        let (mut f0, mut f1) = (0u32, 1u32);
        for _ in 0..40 {
            (f0, f1) = (f1, f0.wrapping_add(f1));
        }
        assert_eq!(
            (w.sgpr[4], w.sgpr[5], w.sgpr[6]),
            (f0, f1, 40),
            "{}",
            spec.generation
        );
        // 3 set-up instructions, 40 trips of 6, s_endpgm.
        assert_eq!(w.steps, 3 + 40 * 6 + 1);
        Ok(())
    });
    // rdna3, cdna3 and cdna5 fixtures all hold the scalar instructions.
    assert!(
        passed >= 3,
        "loop_scalar passed on {passed} specs (known gaps included)"
    );
}

// ---------------------------------------------------------------------------------------------
// The sources against llvm-mc

/// The LLVM processors each syntax is checked with.
fn processors(syntax: &str) -> &'static [&'static str] {
    match syntax {
        "gfx9" => &["gfx908", "gfx90a", "gfx942", "gfx950"],
        "gfx10" => &["gfx1010", "gfx1030"],
        "gfx11" => &["gfx1100", "gfx1150"],
        _ => &["gfx1200", "gfx1250"],
    }
}

/// The syntaxes a source file is for: `k.gfx11.s` → gfx11; `k.s` → every syntax without its
/// own file.
fn syntaxes_of(file: &str) -> Vec<&'static str> {
    let stem = file.trim_end_matches(".s");
    let all = ["gfx9", "gfx10", "gfx11", "gfx12"];
    match all.iter().find(|s| stem.ends_with(&format!(".{s}"))) {
        Some(s) => vec![s],
        None => all
            .into_iter()
            .filter(|s| !Path::new(KERNEL_DIR).join(format!("{stem}.{s}.s")).exists())
            .collect(),
    }
}

/// The source as llvm-mc reads it: `.long` words replaced by the instruction they stand for.
fn llvm_text(text: &str) -> String {
    text.lines()
        .map(
            |l| match (l.trim_start().starts_with(".long"), l.split_once("// asm:")) {
                (true, Some((_, ins))) => format!("    {}", ins.trim()),
                _ => l.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("\n")
}

/// The `.text` bytes llvm-mc makes of `text` for `mcpu` (labels resolved by LLVM).
fn llvm_bytes(mc: &Path, objcopy: &Path, mcpu: &str, text: &str) -> Result<Vec<u8>, String> {
    let dir = std::env::temp_dir().join(format!("isa-kernels-{}-{mcpu}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let (src, obj, bin) = (dir.join("k.s"), dir.join("k.o"), dir.join("k.bin"));
    std::fs::write(&src, text).map_err(|e| e.to_string())?;
    let out = std::process::Command::new(mc)
        .args([
            "-arch=amdgcn",
            &format!("-mcpu={mcpu}"),
            "-filetype=obj",
            "-o",
        ])
        .arg(&obj)
        .arg(&src)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let out = std::process::Command::new(objcopy)
        .args(["-O", "binary", "--only-section=.text"])
        .arg(&obj)
        .arg(&bin)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    let bytes = std::fs::read(&bin).map_err(|e| e.to_string());
    let _ = std::fs::remove_dir_all(&dir);
    bytes
}

/// Every source assembles with llvm-mc for every processor of its syntax (so the sources
/// that no spec here can run are still valid kernels), and where a spec here runs it, the
/// project's bytes are LLVM's bytes (which also checks every `.long` against its `// asm:`).
#[test]
fn kernel_sources_match_llvm_mc() {
    let mc = match isa_tests::llvm_mc::LlvmMc::find() {
        Ok(l) => l.program().to_path_buf(),
        Err(e) => {
            eprintln!("skipped: llvm-mc 22 not available ({e})");
            return;
        }
    };
    let objcopy = mc.with_file_name(
        mc.file_name()
            .unwrap()
            .to_string_lossy()
            .replace("llvm-mc", "llvm-objcopy"),
    );
    // A name on PATH (`llvm-objcopy-22`) or a path beside llvm-mc.
    let objcopy_runs = std::process::Command::new(&objcopy)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !objcopy_runs {
        eprintln!(
            "skipped: {} not found (it comes with llvm-mc)",
            objcopy.display()
        );
        return;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(KERNEL_DIR)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "s"))
        .collect();
    files.sort();
    let (mut assembled, mut compared) = (0, 0);
    for path in &files {
        let file = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        for syntax in syntaxes_of(&file) {
            for &mcpu in processors(syntax) {
                let theirs = llvm_bytes(&mc, &objcopy, mcpu, &llvm_text(&text))
                    .unwrap_or_else(|e| panic!("llvm-mc -mcpu={mcpu} rejects {file}:\n{e}"));
                assembled += 1;
                for (label, spec, _) in all_specs() {
                    if spec.llvm_mcpu != mcpu
                        || syntax != self::syntax(spec.generation)
                        || !missing_instructions(spec, &text).is_empty()
                    {
                        continue;
                    }
                    let ours = isa_runtime::assemble(spec, &text)
                        .unwrap_or_else(|e| panic!("{file} on {label}: {}", e[0]));
                    assert_eq!(
                        ours, theirs,
                        "{file} on {label}: our bytes differ from llvm-mc -mcpu={mcpu}"
                    );
                    compared += 1;
                }
            }
        }
        // A `.long` the assembler now takes can become an instruction line again.
        for (n, line) in text.lines().enumerate() {
            let Some((_, ins)) = line.split_once("// asm:") else {
                continue;
            };
            for (label, spec, _) in all_specs() {
                if !missing_instructions(spec, ins).is_empty() {
                    continue;
                }
                if let Ok(i) = isa_runtime::assemble_instruction(spec, ins.trim()) {
                    eprintln!(
                        "note: {file}:{}: the assembler now takes `{}` on {label} ({} bytes); the .long can go",
                        n + 1,
                        ins.trim(),
                        i.len()
                    );
                }
            }
        }
    }
    eprintln!("kernel sources: {assembled} llvm-mc assemblies, {compared} compared byte for byte with ours");
    assert!(
        compared >= 7,
        "only {compared} sources compared with llvm-mc"
    );
}

// ---------------------------------------------------------------------------------------------
// The source reader (labels, raw words, errors)

fn rdna3() -> &'static IsaSpec {
    isa_runtime::fixtures::specs()
        .into_iter()
        .find(|s| s.generation == "rdna3")
        .unwrap()
}

#[test]
fn labels_become_branch_offsets_both_ways() {
    let spec = rdna3();
    let code = isa_runtime::assemble(
        spec,
        "top: s_nop 0\n  s_cbranch_scc1 skip ; forward\n  s_branch top // back\nskip:\n  s_endpgm\n",
    )
    .unwrap();
    let words: Vec<u32> = code
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // s_cbranch_scc1 at 4 → skip at 12: (12 - 8) / 4 = 1; s_branch at 8 → top at 0: -3.
    assert_eq!(words[1] & 0xffff, 1);
    assert_eq!(words[2] & 0xffff, (-3i16) as u16 as u32);
    let text: Vec<String> = isa_runtime::decode_stream(spec, &code)
        .into_iter()
        .map(|e| isa_runtime::disassemble(&e.result.unwrap()))
        .collect();
    assert_eq!(
        text,
        ["s_nop 0", "s_cbranch_scc1 1", "s_branch 65533", "s_endpgm"]
    );
}

#[test]
fn a_listing_keeps_every_good_line_when_others_fail() {
    let (lines, errors) = isa_runtime::assemble_listing(
        rdna3(),
        "top: s_nop 0\n  v_bogus v1\n  s_branch top\n  s_endpgm\n",
    );
    assert_eq!(errors.len(), 1);
    assert_eq!((errors[0].line, errors[0].column), (2, 3));
    // The failed line keeps its 4 bytes of address space: s_branch is at 8 and jumps back 3.
    let placed: Vec<(usize, usize, &str)> = lines
        .iter()
        .map(|l| (l.line, l.address, l.text.as_str()))
        .collect();
    assert_eq!(
        placed,
        [
            (1, 0, "s_nop 0"),
            (3, 8, "s_branch top"),
            (4, 12, "s_endpgm")
        ]
    );
    assert_eq!(lines[1].bytes, [0xfd, 0xff, 0xa0, 0xbf]);
}

#[test]
fn raw_words_are_placed_as_written() {
    let code = isa_runtime::assemble(rdna3(), ".long 0xbf800000, 7\ns_endpgm").unwrap();
    assert_eq!(code, [0, 0, 0x80, 0xbf, 7, 0, 0, 0, 0, 0, 0xb0, 0xbf]);
}

#[test]
fn source_errors_say_line_and_column() {
    let spec = rdna3();
    let errs = isa_runtime::assemble(spec, "s_nop 0\n  v_bogus v1, v2\n").unwrap_err();
    assert_eq!((errs[0].line, errs[0].column), (2, 3), "{}", errs[0]);
    assert!(errs[0].message.contains("v_bogus"), "{}", errs[0]);

    let errs = isa_runtime::assemble(spec, "a:\na: s_endpgm\n").unwrap_err();
    assert_eq!((errs[0].line, errs[0].column), (2, 1));
    assert!(errs[0].message.contains("defined twice"));

    let errs = isa_runtime::assemble(spec, ".long 0x1, zz\n").unwrap_err();
    assert_eq!((errs[0].line, errs[0].column), (1, 12), "{}", errs[0]);

    let errs = isa_runtime::assemble(spec, "  .text\n").unwrap_err();
    assert_eq!((errs[0].line, errs[0].column), (1, 3));
    assert!(errs[0].message.contains("unknown directive"));

    // A branch to a label further than 32767 dwords.
    let far = format!(
        "s_branch end\n{}end: s_endpgm\n",
        ".long 0\n".repeat(40_000)
    );
    let errs = isa_runtime::assemble(spec, &far).unwrap_err();
    assert!(errs[0].message.contains("16-bit range"), "{}", errs[0]);
}

// ---------------------------------------------------------------------------------------------
// `amdisa run`'s option spellings and its trace

#[test]
fn run_options_parse_and_explain_mistakes() {
    let b = BufferSpec::parse("x:4:f32=1.5,-2").unwrap();
    assert_eq!(
        b.initial_bits(),
        [1.5f32.to_bits(), (-2.0f32).to_bits(), 0, 0]
    );
    let b = BufferSpec::parse("y:3:i32=iota").unwrap();
    assert_eq!(b.initial_bits(), [0, 1, 2]);
    let b = BufferSpec::parse("z:2=fill:0xff").unwrap();
    assert_eq!(b.initial_bits(), [255, 255]);
    // Wider and narrower types: elements of their own size, f16 from decimal.
    let b = BufferSpec::parse("h:3:f16=1.5,-2").unwrap();
    assert_eq!(b.initial_bytes(), [0x00, 0x3e, 0x00, 0xc0, 0, 0]);
    let b = BufferSpec::parse("q:2:i64=-1,0x100000000").unwrap();
    assert_eq!(b.initial_elements(), [u64::MAX, 1 << 32]);
    assert_eq!(b.initial_bytes().len(), 16);
    let b = BufferSpec::parse("d:2:f64=iota").unwrap();
    assert_eq!(b.initial_elements(), [0f64.to_bits(), 1f64.to_bits()]);
    let b = BufferSpec::parse("c:3:u8=iota").unwrap();
    assert_eq!(b.initial_bytes(), [0, 1, 2]);
    assert_eq!(ElemType::F16.format(0x3e00), "1.5");
    let r = BufferSpec::parse("r:1000:f32=random:5")
        .unwrap()
        .initial_bits();
    assert!(r.iter().all(|&v| (-1.0..1.0).contains(&f32::from_bits(v))));
    assert_eq!(
        r,
        BufferSpec::parse("r:1000:f32=random:5")
            .unwrap()
            .initial_bits()
    );

    for (bad, says) in [
        ("x", "element count"),
        ("x:0", "element count"),
        ("x:4:f8", "element type"),
        ("x:2=1,2,3", "3 values for 2 elements"),
        ("x:2:f32=abc", "not a f32 value"),
        ("x:2:u8=256", "not a u8 value"),
        ("1x:2", "not a buffer name"),
        ("x:2=", "nothing after"),
    ] {
        let e = BufferSpec::parse(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
    assert_eq!(Arg::parse("buf").unwrap(), Arg::Buffer("buf".into()));
    assert_eq!(Arg::parse("-1").unwrap(), Arg::Int(-1));
    assert_eq!(Arg::parse("u64:0x100000000").unwrap(), Arg::U64(1 << 32));
    assert_eq!(Arg::parse("f32:0.5").unwrap(), Arg::U32(0.5f32.to_bits()));
    assert_eq!(
        Arg::parse("f16:1.5").unwrap(),
        Arg::Typed(ElemType::F16, 0x3e00)
    );
    assert_eq!(Arg::parse("f64:2").unwrap(), Arg::U64(2f64.to_bits()));
    assert!(Arg::parse("f8:1").unwrap_err().contains("argument type"));
    assert!(Arg::parse("12q")
        .unwrap_err()
        .contains("expected a buffer name"));
    assert_eq!(launch::parse_dims("grid", "4,2").unwrap(), [4, 2, 1]);
    assert!(launch::parse_dims("grid", "0")
        .unwrap_err()
        .contains("at least 1"));
    assert!(launch::parse_dims("grid", "1,1,1,1")
        .unwrap_err()
        .contains("three"));
    assert_eq!(launch::parse_group_id("0,3").unwrap(), [0, 3, 0]);
}

#[test]
fn launch_errors_are_messages() {
    let spec = rdna3();
    let code = isa_runtime::assemble(spec, "s_endpgm").unwrap();
    let table = launch::executor_table(spec).unwrap();
    let program = Program::load(spec, &code, 0, &table);
    let mut setup = Launch {
        buffers: vec![],
        args: vec![Arg::Buffer("nope".into())],
        grid: [1, 1, 1],
        workgroup: [32, 1, 1],
        watch: None,
        max_steps: 10,
    };
    let e = launch::run(&program, &setup, None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("no buffer `nope`"), "{e}");
    setup.args.clear();
    setup.grid = [0, 1, 1];
    let e = launch::run(&program, &setup, None)
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("at least 1"), "{e}");
}

fn cdna3() -> &'static IsaSpec {
    isa_runtime::fixtures::specs()
        .into_iter()
        .find(|s| s.generation == "cdna3")
        .unwrap()
}

/// A load past the end of a buffer faults with the lane and the address.
#[test]
fn memory_faults_name_lane_and_address() {
    let spec = cdna3();
    let text = std::fs::read_to_string(source_path("vector_add", "gfx9").unwrap()).unwrap();
    let code = isa_runtime::assemble(spec, &text).unwrap();
    let table = launch::executor_table(spec).unwrap();
    let program = Program::load(spec, &code, 0, &table);
    let setup = Launch {
        // n = 40 but a holds 36 elements: lane 36 reads a[36], past the end.
        buffers: vec![
            buffer("a", 36, ElemType::F32, Init::Zero),
            buffer("b", 40, ElemType::F32, Init::Zero),
            buffer("out", 40, ElemType::F32, Init::Zero),
        ],
        args: ["a", "b", "out"]
            .iter()
            .map(|s| Arg::Buffer(s.to_string()))
            .chain([Arg::U32(40)])
            .collect(),
        grid: [1, 1, 1],
        workgroup: [64, 1, 1],
        watch: None,
        max_steps: 1000,
    };
    let e = launch::run(&program, &setup, None).err().unwrap();
    let LaunchError::Dispatch(d) = &e else {
        panic!("{e}")
    };
    assert_eq!(d.wave, 0);
    let ExecError::Memory { fault, lane } = &d.error else {
        panic!("{e}")
    };
    assert_eq!(*lane, Some(36));
    assert_eq!(fault.addr, 0x1_0000_0000 + 36 * 4, "{e}");
    let text = e.to_string();
    assert!(
        text.contains("lane 36") && text.contains("global_load_dword"),
        "{text}"
    );
}

#[test]
fn trace_shows_each_instruction_and_what_it_wrote() {
    let spec = cdna3();
    let text = std::fs::read_to_string(source_path("loop", "gfx9").unwrap()).unwrap();
    let code = isa_runtime::assemble(spec, &text).unwrap();
    let table = launch::executor_table(spec).unwrap();
    let program = Program::load(spec, &code, 0, &table);
    let setup = Launch {
        buffers: vec![buffer("out", 64, ElemType::U32, Init::Zero)],
        args: vec![Arg::Buffer("out".into()), Arg::U32(2)],
        grid: [1, 1, 1],
        workgroup: [64, 1, 1],
        watch: None,
        max_steps: 1000,
    };
    let mut bytes = Vec::new();
    let mut tracer = report::TraceWriter::new(&mut bytes);
    let o = launch::run(&program, &setup, Some(&mut tracer)).unwrap();
    let trace = String::from_utf8(bytes).unwrap();
    let lines: Vec<&str> = trace.lines().collect();
    assert_eq!(lines.len() as u64, o.stats.instructions, "{trace}");
    // 8 set-up instructions, 2 trips of 5, the address, the store and the end.
    assert_eq!(lines.len(), 8 + 2 * 5 + 3, "{trace}");
    assert!(
        lines[0].starts_with("[0,0,0:0] 0x0000  s_load_dwordx2 s[8:9], s[0:1], 0x0"),
        "{}",
        lines[0]
    );
    // The buffer is the first allocation: 0x1_0000_0000, so only s9 changes.
    assert!(lines[0].ends_with(" s9=0x1"), "{}", lines[0]);
    let first_add = lines
        .iter()
        .find(|l| l.contains("s_add_u32 s12, s12, 1"))
        .unwrap();
    assert!(first_add.ends_with("s12=0x1"), "{first_add}");
    // sum += i: every lane 0 → 1.
    assert!(trace.contains("v1[0-63]=0x1"), "{trace}");
    // The first trip branches back; the second falls through.
    let branches: Vec<&&str> = lines
        .iter()
        .filter(|l| l.contains("s_cbranch_scc1"))
        .collect();
    assert_eq!(branches.len(), 2);
    assert!(branches[0].ends_with("-> 0x28"), "{}", branches[0]);
    assert!(!branches[1].contains("->"), "{}", branches[1]);
    let last = lines.last().unwrap();
    assert!(
        last.contains("s_endpgm") && last.ends_with("(end)"),
        "{last}"
    );
}

// ---------------------------------------------------------------------------------------------
// The benchmark's ALU loop

fn msad(a: u32, b: u32, acc: u32) -> u32 {
    (0..4).fold(acc, |t, i| {
        let (x, y) = ((a >> (8 * i)) & 0xff, (b >> (8 * i)) & 0xff);
        if y == 0 {
            t
        } else {
            t.wrapping_add(x.abs_diff(y))
        }
    })
}

/// What `alu_loop` leaves in v1 for work-item `id` after `k` trips (the float registers do
/// not feed v1).
fn alu_loop_reference(id: u32, k: u32) -> u32 {
    let (mut v1, mut v2, v5) = (id, 1u32, id);
    for _ in 0..k {
        v1 = v1.wrapping_add(v5);
        v2 = v2.wrapping_add(v1);
        let v6 = v1 << 3;
        v1 = v1.wrapping_add(v6);
        v2 = msad(v1, v5, v2);
        let v6 = v2 << 1;
        v2 = v2.wrapping_add(v6);
        v1 = msad(v2, v6, v1);
        v1 = v1.wrapping_add(v2);
        let v6 = v5 << 2;
        v2 = msad(v6, v1, v2);
        v1 = v1.wrapping_add(v2);
    }
    v1
}

#[test]
fn alu_loop_of_the_benchmark() {
    let (passed, _) = for_every_spec("alu_loop", |spec, code, fixture| {
        let (k, groups) = (50u32, 2u32);
        let setup = Launch {
            buffers: vec![buffer("out", 512, ElemType::U32, Init::Zero)],
            args: vec![Arg::Buffer("out".into()), Arg::U32(k)],
            grid: [groups, 1, 1],
            workgroup: [256, 1, 1],
            watch: None,
            max_steps: 100_000,
        };
        let o = run(spec, code, &setup, fixture)?;
        let out = o.buffer("out").unwrap();
        for id in 0..512u32 {
            assert_eq!(
                out[id as usize],
                alu_loop_reference(id, k),
                "{}: out[{id}]",
                spec.generation
            );
        }
        Ok(())
    });
    assert_minimum("alu_loop", passed);
}
