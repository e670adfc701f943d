//! Real compiled code: the OpenCL kernels of `isa-tests/kernels/cl` compiled by clang-22 and
//! linked by ld.lld-22 for every target, then
//! - disassembled by `amdisa disasm FILE --json` and compared, instruction by instruction,
//!   with `llvm-objdump-22 -d --mcpu=<target>`;
//! - run by `amdisa run FILE --kernel NAME --json` with results checked against values this
//!   test computes itself (integers bit-exact, floats exact in round-to-nearest-even).
//!
//! Generations whose spec holds every instruction clang emits (the complete CDNA 3 and
//! CDNA 4 files) must be identical and correct; for the others the counts are printed.
//! Skipped, saying why, when clang-22, ld.lld-22 or llvm-objdump-22 is absent.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "clang_support/mod.rs"]
mod clang_support;
use clang_support::{have, kernels_dir, TARGETS};

const AMDISA: &str = env!("CARGO_BIN_EXE_amdisa");

const KERNELS: [&str; 8] = [
    "vector_add",
    "loop_scalar",
    "lds_reduce",
    "atomic_add",
    "udiv_rem",
    "mix64",
    "fdiv",
    "grid2d",
];

fn tools_present() -> Result<(), String> {
    for t in ["clang-22", "ld.lld-22", "llvm-objdump-22"] {
        if !have(t) {
            return Err(format!("{t} is not installed"));
        }
    }
    Ok(())
}

/// Whether this build's spec of `generation` is a complete AMD file: the complete CDNA 3/4
/// files hold over a thousand instructions, the excerpts a few hundred at most.
fn complete_spec(generation: &str) -> Option<bool> {
    let spec = isa_runtime::spec(generation)?;
    Some(matches!(generation, "cdna3" | "cdna4") && spec.instructions.len() >= 1000)
}

/// `generation kernel` pairs of `known-gaps.txt`.
fn known_gaps() -> Vec<(String, String)> {
    let text = std::fs::read_to_string(kernels_dir().join("known-gaps.txt")).unwrap_or_default();
    text.lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty())
        .filter_map(|l| {
            let mut w = l.split_whitespace();
            Some((w.next()?.to_string(), w.next()?.to_string()))
        })
        .collect()
}

/// Compiles and links one kernel; the `.hsaco` path.
fn compile(kernel: &str, mcpu: &str, dir: &Path) -> PathBuf {
    let obj = dir.join(format!("{kernel}.{mcpu}.o"));
    let co = dir.join(format!("{kernel}.{mcpu}.hsaco"));
    clang_support::compile(kernel, mcpu, &obj).unwrap_or_else(|e| panic!("{e}"));
    clang_support::link(&obj, &co).unwrap_or_else(|e| panic!("{e}"));
    co
}

/// llvm-objdump's instructions: address → text.
fn objdump(co: &Path, mcpu: &str) -> BTreeMap<u64, String> {
    let out = Command::new("llvm-objdump-22")
        .args(["-d", &format!("--mcpu={mcpu}")])
        .arg(co)
        .output()
        .unwrap();
    assert!(out.status.success());
    let mut map = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some(rest) = line.strip_prefix('\t') else {
            continue;
        };
        let Some((text, comment)) = rest.rsplit_once("// ") else {
            continue;
        };
        let Some((addr, _)) = comment.split_once(':') else {
            continue;
        };
        let Ok(addr) = u64::from_str_radix(addr.trim(), 16) else {
            continue;
        };
        map.insert(addr, text.trim().to_string());
    }
    map
}

/// amdisa's instructions: address → (text, error).
fn amdisa_disasm(co: &Path) -> BTreeMap<u64, (String, Option<String>)> {
    let out = Command::new(AMDISA)
        .args(["disasm", "--json"])
        .arg(co)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "amdisa disasm {}: {}",
        co.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let mut map = BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        map.insert(
            v["address"].as_u64().unwrap(),
            (
                v["text"].as_str().unwrap().to_string(),
                v["error"].as_str().map(str::to_string),
            ),
        );
    }
    map
}

#[derive(Default)]
struct Counts {
    total: usize,
    identical: usize,
    unsupported: usize,
    different: Vec<String>,
}

fn compare(co: &Path, mcpu: &str, counts: &mut Counts) {
    let reference = objdump(co, mcpu);
    let ours = amdisa_disasm(co);
    assert!(
        !reference.is_empty(),
        "llvm-objdump listed nothing for {}",
        co.display()
    );
    for (addr, text) in &reference {
        counts.total += 1;
        match ours.get(addr) {
            Some((t, None)) if t == text => counts.identical += 1,
            Some((_, Some(_))) => counts.unsupported += 1,
            Some((t, None)) => counts.different.push(format!(
                "{} {addr:#x}: llvm `{text}`, amdisa `{t}`",
                co.display()
            )),
            None => counts.different.push(format!(
                "{} {addr:#x}: llvm `{text}`, amdisa has no instruction there",
                co.display()
            )),
        }
    }
}

/// A run's final buffers by name.
fn run(
    co: &Path,
    kernel: &str,
    options: &[String],
) -> Result<BTreeMap<String, Vec<Value>>, String> {
    let out = Command::new(AMDISA)
        .args(["run", "--json", "--kernel", kernel])
        .arg(co)
        .args(options)
        .output()
        .unwrap();
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    let v: Value = serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())?;
    let mut buffers = BTreeMap::new();
    for (k, b) in v["buffers"].as_object().ok_or("no buffers")? {
        buffers.insert(
            k.clone(),
            b.as_array().ok_or("buffer not an array")?.clone(),
        );
    }
    Ok(buffers)
}

fn u32s(v: &[Value]) -> Vec<u32> {
    v.iter().map(|x| x.as_u64().unwrap() as u32).collect()
}

fn u64s(v: &[Value]) -> Vec<u64> {
    v.iter().map(|x| x.as_u64().unwrap()).collect()
}

fn f32s(v: &[Value]) -> Vec<f32> {
    v.iter().map(|x| x.as_f64().unwrap() as f32).collect()
}

fn opts(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// Runs one kernel with inputs it chooses and checks the results it computes itself.
fn run_and_check(co: &Path, kernel: &str) -> Result<(), String> {
    let check = |ok: bool, what: &str| {
        if ok {
            Ok(())
        } else {
            Err(format!("{kernel}: wrong {what}"))
        }
    };
    match kernel {
        "vector_add" => {
            let b = run(
                co,
                kernel,
                &opts(&[
                    "--buffer",
                    "a:256:f32=random:3",
                    "--buffer",
                    "b:256:f32=random:4",
                    "--buffer",
                    "out:256:f32=fill:7",
                    "--arg",
                    "a",
                    "--arg",
                    "b",
                    "--arg",
                    "out",
                    "--arg",
                    "200",
                    "--grid",
                    "4",
                    "--workgroup",
                    "64",
                ]),
            )?;
            let (a, bb, out) = (f32s(&b["a"]), f32s(&b["b"]), f32s(&b["out"]));
            let ok = (0..256).all(|i| {
                let want = if i < 200 { a[i] + bb[i] } else { 7.0 };
                out[i].to_bits() == want.to_bits()
            });
            check(ok, "sums (or a write past n)")
        }
        "loop_scalar" => {
            let b = run(
                co,
                kernel,
                &opts(&[
                    "--buffer",
                    "out:128:u32",
                    "--arg",
                    "out",
                    "--arg",
                    "37",
                    "--grid",
                    "2",
                    "--workgroup",
                    "64",
                ]),
            )?;
            let out = u32s(&b["out"]);
            let ok = (0..128u32).all(|i| {
                let mut acc = i;
                for k in 0..37u32 {
                    acc = acc.wrapping_mul(3).wrapping_add(k);
                }
                out[i as usize] == acc
            });
            check(ok, "loop results")
        }
        "lds_reduce" => {
            let b = run(
                co,
                kernel,
                &opts(&[
                    "--buffer",
                    "in:256:u32=random:5",
                    "--buffer",
                    "out:4:u32",
                    "--arg",
                    "in",
                    "--arg",
                    "out",
                    "--grid",
                    "4",
                    "--workgroup",
                    "64",
                ]),
            )?;
            let (input, out) = (u32s(&b["in"]), u32s(&b["out"]));
            let ok = (0..4).all(|g| {
                out[g]
                    == input[g * 64..g * 64 + 64]
                        .iter()
                        .fold(0u32, |s, v| s.wrapping_add(*v))
            });
            check(ok, "workgroup sums")
        }
        "atomic_add" => {
            let b = run(
                co,
                kernel,
                &opts(&[
                    "--buffer",
                    "in:256:u32=random:6",
                    "--buffer",
                    "counter:1:u32",
                    "--arg",
                    "in",
                    "--arg",
                    "counter",
                    "--arg",
                    "200",
                    "--grid",
                    "4",
                    "--workgroup",
                    "64",
                ]),
            )?;
            let input = u32s(&b["in"]);
            let want = input[..200].iter().fold(0u32, |s, v| s.wrapping_add(*v));
            check(u32s(&b["counter"])[0] == want, "atomic total")
        }
        "udiv_rem" => {
            let divisors: Vec<String> = (0..128u32)
                .map(|i| ((i * 7919) % 1000 + 1).to_string())
                .collect();
            let b = run(
                co,
                kernel,
                &[
                    "--buffer".into(),
                    "a:128:u32=random:7".into(),
                    "--buffer".into(),
                    format!("b:128:u32={}", divisors.join(",")),
                    "--buffer".into(),
                    "quot:128:u32".into(),
                    "--buffer".into(),
                    "rem:128:u32".into(),
                    "--arg".into(),
                    "a".into(),
                    "--arg".into(),
                    "b".into(),
                    "--arg".into(),
                    "quot".into(),
                    "--arg".into(),
                    "rem".into(),
                    "--grid".into(),
                    "2".into(),
                    "--workgroup".into(),
                    "64".into(),
                ],
            )?;
            let (a, d, q, r) = (
                u32s(&b["a"]),
                u32s(&b["b"]),
                u32s(&b["quot"]),
                u32s(&b["rem"]),
            );
            check(
                (0..128).all(|i| q[i] == a[i] / d[i] && r[i] == a[i] % d[i]),
                "quotients or remainders",
            )
        }
        "mix64" => {
            let b = run(
                co,
                kernel,
                &opts(&[
                    "--buffer",
                    "in:128:u64=random:8",
                    "--buffer",
                    "out:128:u64",
                    "--arg",
                    "in",
                    "--arg",
                    "out",
                    "--grid",
                    "2",
                    "--workgroup",
                    "64",
                ]),
            )?;
            let (input, out) = (u64s(&b["in"]), u64s(&b["out"]));
            let ok = (0..128).all(|i| {
                let mut x = input[i];
                x ^= x >> 33;
                x = x.wrapping_mul(0xff51afd7ed558ccd);
                x ^= x >> 29;
                x = x.wrapping_add((i as u64) << 40);
                out[i] == x
            });
            check(ok, "64-bit mixes")
        }
        "fdiv" => {
            let b = run(
                co,
                kernel,
                &opts(&[
                    "--buffer",
                    "a:128:f32=random:9",
                    "--buffer",
                    "b:128:f32=random:10",
                    "--buffer",
                    "out:128:f32",
                    "--arg",
                    "a",
                    "--arg",
                    "b",
                    "--arg",
                    "out",
                    "--grid",
                    "2",
                    "--workgroup",
                    "64",
                ]),
            )?;
            let (a, d, out) = (f32s(&b["a"]), f32s(&b["b"]), f32s(&b["out"]));
            check(
                (0..128).all(|i| out[i].to_bits() == (a[i] / d[i]).to_bits()),
                "quotients",
            )
        }
        "grid2d" => {
            let b = run(
                co,
                kernel,
                &opts(&[
                    "--buffer",
                    "out:1024:u32",
                    "--arg",
                    "out",
                    "--arg",
                    "32",
                    "--grid",
                    "4,8",
                    "--workgroup",
                    "8,4",
                ]),
            )?;
            let out = u32s(&b["out"]);
            let ok =
                (0..32u32).all(|y| (0..32u32).all(|x| out[(y * 32 + x) as usize] == x * 1000 + y));
            check(ok, "coordinates")
        }
        other => Err(format!("no check for {other}")),
    }
}

#[test]
fn clang_kernels_disassemble_like_objdump_and_run_correctly() {
    if let Err(why) = tools_present() {
        println!("codeobj_clang: skipped: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("amdisa-codeobj-clang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    let gaps = known_gaps();
    println!(
        "generation  target   instructions identical unsupported different  kernels run/correct"
    );
    for (generation, mcpu) in TARGETS {
        let Some(complete) = complete_spec(generation) else {
            println!("{generation:<10} {mcpu:<8} skipped: no {generation} spec in this build");
            continue;
        };
        let mut counts = Counts::default();
        let (mut ran, mut correct) = (0, 0);
        let mut run_errors = Vec::new();
        for kernel in KERNELS {
            let co = compile(kernel, mcpu, &dir);
            compare(&co, mcpu, &mut counts);
            let known = gaps.iter().any(|(g, k)| g == generation && k == kernel);
            match run_and_check(&co, kernel) {
                Ok(()) => {
                    ran += 1;
                    correct += 1;
                    if known && complete {
                        // A stale entry would hide the next regression of this kernel.
                        failures.push(format!(
                            "{generation} {kernel} now passes: remove it from known-gaps.txt"
                        ));
                    }
                }
                Err(e) if known && complete => {
                    ran += 1;
                    println!("    known gap: {e}");
                }
                Err(e) => {
                    if !e.contains("needs what the emulator does not model")
                        && !e.contains("not supported")
                        && !e.contains("cannot decode")
                        && !e.contains("no executor")
                    {
                        ran += 1;
                    }
                    run_errors.push(e);
                }
            }
        }
        println!(
            "{generation:<10} {mcpu:<8} {:>12} {:>9} {:>11} {:>9}  {ran}/{correct} of {}{}",
            counts.total,
            counts.identical,
            counts.unsupported,
            counts.different.len(),
            KERNELS.len(),
            if complete {
                " (complete spec: asserted)"
            } else {
                ""
            }
        );
        for d in counts.different.iter().take(5) {
            println!("    differs: {d}");
        }
        for e in run_errors.iter().take(8) {
            println!("    run: {}", e.lines().next().unwrap_or(""));
        }
        if complete {
            if counts.identical != counts.total {
                failures.push(format!(
                    "{generation}: {} of {} instructions identical to llvm-objdump ({} unsupported, {} different)",
                    counts.identical, counts.total, counts.unsupported, counts.different.len()
                ));
            }
            failures.extend(run_errors.iter().map(|e| format!("{generation}: {e}")));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `amdisa run FILE --kernel NAME --threads N` on code objects: the workgroups of each
/// compiled kernel run in parallel leave exactly the buffers the serial run leaves (the
/// atomic counter too: its adds commute), on every generation whose spec is complete.
#[test]
fn clang_kernels_give_the_same_buffers_on_several_threads() {
    if let Err(why) = tools_present() {
        println!("codeobj_clang: skipped: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("amdisa-codeobj-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    // Kernels and launches with many workgroups (so that several threads share them).
    let launches: [(&str, &[&str]); 4] = [
        (
            "vector_add",
            &[
                "--buffer",
                "a:2048:f32=random:3",
                "--buffer",
                "b:2048:f32=random:4",
                "--buffer",
                "out:2048:f32=fill:7",
                "--arg",
                "a",
                "--arg",
                "b",
                "--arg",
                "out",
                "--arg",
                "2000",
                "--grid",
                "32",
                "--workgroup",
                "64",
            ],
        ),
        (
            "lds_reduce",
            &[
                "--buffer",
                "in:1024:u32=random:5",
                "--buffer",
                "out:16:u32",
                "--arg",
                "in",
                "--arg",
                "out",
                "--grid",
                "16",
                "--workgroup",
                "64",
            ],
        ),
        (
            "atomic_add",
            &[
                "--buffer",
                "in:1024:u32=random:6",
                "--buffer",
                "counter:1:u32",
                "--arg",
                "in",
                "--arg",
                "counter",
                "--arg",
                "1000",
                "--grid",
                "16",
                "--workgroup",
                "64",
            ],
        ),
        (
            "grid2d",
            &[
                "--buffer",
                "out:1024:u32",
                "--arg",
                "out",
                "--arg",
                "32",
                "--grid",
                "4,8",
                "--workgroup",
                "8,4",
            ],
        ),
    ];
    let mut checked = 0;
    for (generation, mcpu) in TARGETS {
        if complete_spec(generation) != Some(true) {
            println!(
                "threads: {generation}: skipped (no complete {generation} spec in this build)"
            );
            continue;
        }
        for (kernel, options) in launches {
            let co = compile(kernel, mcpu, &dir);
            let serial = run(&co, kernel, &opts(options))
                .unwrap_or_else(|e| panic!("{generation} {kernel} serial: {e}"));
            for threads in ["2", "4"] {
                let mut o = opts(options);
                o.extend(opts(&["--threads", threads]));
                let parallel = run(&co, kernel, &o)
                    .unwrap_or_else(|e| panic!("{generation} {kernel} --threads {threads}: {e}"));
                assert_eq!(
                    parallel, serial,
                    "{generation} {kernel}: --threads {threads} left other buffers"
                );
            }
            // The serial buffers are the kernel's results, not an untouched input.
            let out = serial.get("out").or(serial.get("counter")).unwrap();
            assert!(
                out.iter()
                    .any(|v| v.as_f64() != Some(0.0) && v.as_f64() != Some(7.0)),
                "{generation} {kernel}: the run wrote nothing"
            );
            checked += 1;
        }
    }
    println!("threads: {checked} kernel launches identical on 1, 2 and 4 threads");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A matrix-core kernel (`kernels/cl/mfma16.cl`, `__builtin_amdgcn_mfma_f32_16x16x16f16`)
/// compiled for gfx942 and gfx950 and launched from its descriptor by `amdisa run`; C must be
/// the product computed here (integer-valued inputs, so every sum is exact in any order).
#[test]
fn compiled_mfma_kernel_runs_through_amdisa_run() {
    if let Err(why) = tools_present() {
        eprintln!("skipped: {why}");
        return;
    }
    let dir = std::env::temp_dir().join(format!("amdisa-codeobj-mfma-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut ran = 0;
    for (generation, mcpu) in [("cdna3", "gfx942"), ("cdna4", "gfx950")] {
        if complete_spec(generation) != Some(true) {
            eprintln!("{generation}: skipped: AMD's complete file is not in this build");
            continue;
        }
        let co = compile("mfma16", mcpu, &dir);
        let b = run(
            &co,
            "mfma16",
            &opts(&[
                "--buffer",
                "a:256:f16=iota",
                "--buffer",
                "b:256:f16=iota",
                "--buffer",
                "c:256:f32=fill:-1",
                "--arg",
                "a",
                "--arg",
                "b",
                "--arg",
                "c",
                "--grid",
                "1",
                "--workgroup",
                "64",
            ]),
        )
        .unwrap_or_else(|e| panic!("{generation}: {e}"));
        let (a, bb, c) = (f32s(&b["a"]), f32s(&b["b"]), f32s(&b["c"]));
        assert_eq!(a[255], 255.0, "iota inputs");
        for i in 0..16 {
            for j in 0..16 {
                let want: f32 = (0..16).map(|k| a[i * 16 + k] * bb[k * 16 + j]).sum();
                assert_eq!(c[i * 16 + j], want, "{generation}: C[{i}][{j}]");
            }
        }
        ran += 1;
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!("mfma16 ran on {ran} generation(s)");
}
