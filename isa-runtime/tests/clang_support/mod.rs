//! Compiling the OpenCL kernels of `isa-tests/kernels/cl` with clang-22 and ld.lld-22, shared
//! by the code-object tests and the CLI benchmark.

// Each includer uses part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// (generation, processor): one target per generation.
pub const TARGETS: [(&str, &str); 10] = [
    ("rdna1", "gfx1010"),
    ("rdna2", "gfx1030"),
    ("rdna3", "gfx1100"),
    ("rdna3_5", "gfx1150"),
    ("rdna4", "gfx1200"),
    ("cdna1", "gfx908"),
    ("cdna2", "gfx90a"),
    ("cdna3", "gfx942"),
    ("cdna4", "gfx950"),
    ("cdna5", "gfx1250"),
];

pub fn kernels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../isa-tests/kernels/cl")
}

/// Whether a tool answers `--version`.
pub fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn run(cmd: &mut Command, what: &str) -> Result<(), String> {
    let out = cmd.output().map_err(|e| format!("{what}: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!("{what}: {}", String::from_utf8_lossy(&out.stderr)))
    }
}

/// `clang-22 -c` of `kernel.cl` for `mcpu` into `obj`: OpenCL 2.0, -O2, no device
/// libraries; true16 on GFX12; IEEE float division (OpenCL otherwise allows 2.5 ulp and clang
/// emits an approximation).
pub fn compile(kernel: &str, mcpu: &str, obj: &Path) -> Result<(), String> {
    let mut clang = Command::new("clang-22");
    clang.args([
        "-x",
        "cl",
        "-cl-std=CL2.0",
        "-target",
        "amdgcn-amd-amdhsa",
        "-O2",
    ]);
    clang.args(["-nogpulib", "-cl-fp32-correctly-rounded-divide-sqrt"]);
    clang.arg(format!("-mcpu={mcpu}"));
    if mcpu.starts_with("gfx12") {
        clang.args(["-Xclang", "-target-feature", "-Xclang", "+real-true16"]);
    }
    clang
        .arg("-c")
        .arg(kernels_dir().join(format!("{kernel}.cl")));
    run(
        clang.arg("-o").arg(obj),
        &format!("clang-22 {kernel} {mcpu}"),
    )
}

/// `ld.lld-22 -shared obj -o co`.
pub fn link(obj: &Path, co: &Path) -> Result<(), String> {
    run(
        Command::new("ld.lld-22")
            .arg("-shared")
            .arg(obj)
            .arg("-o")
            .arg(co),
        &format!("ld.lld-22 {}", obj.display()),
    )
}
