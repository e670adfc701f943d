//! Build cost per generation: the size of the generated Rust, and the wall time and peak memory
//! of a clean release build of `isa-runtime` with that one generation's feature.
//!
//! `cargo bench -p isa-gen --bench build_cost [-- GEN ...]` (default: every spec the spec
//! directory resolves to). Dependencies are built once first, so each figure is the cost of
//! `isa-runtime` itself: its build script (which runs the generator) and the crate. Peak memory
//! is the largest sum of resident memory over the build's process tree, sampled every 20 ms.
//!
//! Targets (issue 10, for one complete generation): generated code ≤ 3 MB, build ≤ 60 s,
//! peak ≤ 1 GB on the 2-core reference machine.

use isa_gen::{model, specdir};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TARGET_BYTES: usize = 3_000_000;
const TARGET_SECONDS: f64 = 60.0;
const TARGET_MIB: f64 = 1024.0;

fn main() {
    // `cargo bench` passes `--bench`; anything else not starting with `-` names a generation.
    let wanted: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let dir = specdir::xml_dir();
    let specs = match model::load_layers(&dir.layers) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("build_cost: {e}");
            std::process::exit(2);
        }
    };
    println!("spec directory: {} ({:?})", dir.display(), dir.source);
    let target = std::env::temp_dir().join("isa-build-cost-target");
    let root = specdir::workspace_root();
    let semantics = isa_gen::emit::executors::Semantics::load();
    let mut rows = Vec::new();
    for spec in &specs {
        let Some(g) = spec.generation else { continue };
        if !wanted.is_empty() && !wanted.iter().any(|w| w == g.name()) {
            continue;
        }
        let generated = match isa_gen::emit::generate(spec, &semantics) {
            Ok(x) => x,
            Err(e) => {
                println!("{g}: the generator failed: {e}");
                continue;
            }
        };
        let bytes = generated.code.len();
        let lines = generated.code.lines().count();
        let feature = g.name();
        // Dependencies (and the build script's own build) once, outside the measurement.
        let _ = cargo(&root, &target, feature, &["build"]);
        let _ = cargo(&root, &target, feature, &["clean", "-p", "isa-runtime"]);
        let (ok, seconds, peak) = measured_build(&root, &target, feature);
        rows.push((
            g.name().to_string(),
            spec.instructions.len(),
            generated.stats.forms,
            bytes,
            lines,
            ok,
            seconds,
            peak,
        ));
    }
    println!(
        "{:<8} {:>6} {:>6} {:>11} {:>8} {:>9} {:>9}  targets: ≤ {} MB, ≤ {TARGET_SECONDS} s, ≤ {TARGET_MIB} MiB",
        "gen",
        "instr",
        "forms",
        "generated",
        "lines",
        "build s",
        "peak MiB",
        TARGET_BYTES / 1_000_000
    );
    for (g, ins, forms, bytes, lines, ok, s, peak) in rows {
        let over: Vec<&str> = [
            (bytes > TARGET_BYTES, "size"),
            (s > TARGET_SECONDS, "time"),
            (peak > TARGET_MIB, "memory"),
        ]
        .iter()
        .filter(|(o, _)| *o)
        .map(|(_, n)| *n)
        .collect();
        let verdict = match (ok, over.is_empty()) {
            (false, _) => "BUILD FAILED".to_string(),
            (true, true) => "within targets".to_string(),
            (true, false) => format!("over: {}", over.join(", ")),
        };
        println!(
            "{g:<8} {ins:>6} {forms:>6} {:>8} KB {lines:>8} {s:>9.1} {peak:>9.0}  {verdict}",
            bytes / 1000
        );
    }
}

fn cargo(root: &Path, target: &Path, feature: &str, verb: &[&str]) -> bool {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root)
        .args(verb)
        .args(["--release", "-p", "isa-runtime"])
        .env("CARGO_TARGET_DIR", target)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    if verb[0] == "build" {
        c.args(["--no-default-features", "--features", feature]);
    }
    c.status().map(|s| s.success()).unwrap_or(false)
}

/// (success, wall seconds, peak MiB of the process tree).
fn measured_build(root: &Path, target: &Path, feature: &str) -> (bool, f64, f64) {
    let start = Instant::now();
    let mut child = match Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir(root)
        .args([
            "build",
            "--release",
            "-p",
            "isa-runtime",
            "--no-default-features",
        ])
        .args(["--features", feature])
        .env("CARGO_TARGET_DIR", target)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("build_cost: cannot run cargo: {e}");
            return (false, 0.0, 0.0);
        }
    };
    let mut peak_kib = 0u64;
    let status = loop {
        if let Ok(Some(status)) = child.try_wait() {
            break Some(status);
        }
        peak_kib = peak_kib.max(tree_rss_kib(child.id()));
        std::thread::sleep(Duration::from_millis(20));
    };
    let ok = status.is_some_and(|s| s.success());
    (ok, start.elapsed().as_secs_f64(), peak_kib as f64 / 1024.0)
}

/// Resident memory (KiB) of `root` and all its descendants, from /proc (0 where /proc is
/// unavailable: the figure is then reported as 0).
fn tree_rss_kib(root: u32) -> u64 {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut parent: HashMap<u32, u32> = HashMap::new();
    let mut rss: HashMap<u32, u64> = HashMap::new();
    for e in entries.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(status) =
            std::fs::read_to_string(PathBuf::from("/proc").join(pid.to_string()).join("status"))
        else {
            continue;
        };
        for line in status.lines() {
            if let Some(v) = line.strip_prefix("PPid:") {
                parent.insert(pid, v.trim().parse().unwrap_or(0));
            } else if let Some(v) = line.strip_prefix("VmRSS:") {
                let kib = v.trim().trim_end_matches("kB").trim().parse().unwrap_or(0);
                rss.insert(pid, kib);
            }
        }
    }
    let in_tree = |mut p: u32| {
        for _ in 0..64 {
            if p == root {
                return true;
            }
            match parent.get(&p) {
                Some(&q) if q != 0 => p = q,
                _ => return false,
            }
        }
        false
    };
    rss.iter()
        .filter(|(p, _)| in_tree(**p))
        .map(|(_, k)| k)
        .sum()
}
