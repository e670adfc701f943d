//! Raw-`.text` launches of OpenCL kernels compiled with clang-22 for gfx942 and linked with ld.lld-22, run through the
//! generated CDNA 3 executors from their raw `.text` (shared by the compiled-kernel tests and
//! the parallel-dispatch benchmark). The kernel's SGPR layout comes from the `.amdhsa_*`
//! directives of the compiler's assembly output: user SGPRs in the order AMD's HSA ABI gives
//! them (private segment buffer 4, dispatch pointer 2, queue pointer 2, kernarg pointer 2,
//! dispatch id 2, flat scratch init 2, private segment size 1), then the workgroup ids.
#![allow(dead_code)]

use isa_runtime::exec::dispatch::{DispatchConfig, Program};
use isa_runtime::exec::ExecutorTable;
use isa_runtime::IsaSpec;
use std::path::PathBuf;
use std::process::Command;

/// A compiled kernel: its machine code and where its descriptor wants the SGPRs.
pub struct Kernel {
    pub code: Vec<u8>,
    pub kernarg_sgpr: u32,
    pub workgroup_id_sgpr: u32,
    /// Workgroup-id dimensions the descriptor enables.
    pub workgroup_ids: u32,
}

fn tool(name: &str, args: &[&str]) -> Result<(), String> {
    let out = Command::new(name)
        .args(args)
        .output()
        .map_err(|e| format!("{name} is not available ({e})"))?;
    if !out.status.success() {
        return Err(format!(
            "{name} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(())
}

/// Compiles OpenCL `source` (one kernel) for gfx942; Err says why (tools absent, errors).
pub fn compile(name: &str, source: &str) -> Result<Kernel, String> {
    let dir: PathBuf =
        std::env::temp_dir().join(format!("isa-runtime-cl-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let p = |ext: &str| dir.join(format!("{name}.{ext}")).display().to_string();
    std::fs::write(p("cl"), source).map_err(|e| e.to_string())?;
    let common = [
        "-x",
        "cl",
        "-cl-std=CL2.0",
        "-target",
        "amdgcn-amd-amdhsa",
        "-mcpu=gfx942",
        "-O2",
        "-nogpulib",
    ];
    let (cl, s, o, so, bin) = (p("cl"), p("s"), p("o"), p("so"), p("bin"));
    let mut args: Vec<&str> = common.to_vec();
    args.extend(["-S", "-o", &s, &cl]);
    tool("clang-22", &args)?;
    let mut args: Vec<&str> = common.to_vec();
    args.extend(["-c", "-o", &o, &cl]);
    tool("clang-22", &args)?;
    tool("ld.lld-22", &["-shared", "-o", &so, &o])?;
    tool(
        "llvm-objcopy-22",
        &["-O", "binary", "--only-section=.text", &so, &bin],
    )?;
    let code = std::fs::read(&bin).map_err(|e| e.to_string())?;
    let asm = std::fs::read_to_string(&s).map_err(|e| e.to_string())?;
    let flag = |d: &str| {
        asm.lines()
            .find_map(|l| l.trim().strip_prefix(d))
            .and_then(|v| v.trim().parse::<u32>().ok())
            .unwrap_or(0)
    };
    let mut sgpr = 0;
    let mut kernarg_sgpr = 0;
    for (d, n) in [
        (".amdhsa_user_sgpr_private_segment_buffer", 4),
        (".amdhsa_user_sgpr_dispatch_ptr", 2),
        (".amdhsa_user_sgpr_queue_ptr", 2),
        (".amdhsa_user_sgpr_kernarg_segment_ptr", 2),
        (".amdhsa_user_sgpr_dispatch_id", 2),
        (".amdhsa_user_sgpr_flat_scratch_init", 2),
        (".amdhsa_user_sgpr_private_segment_size", 1),
    ] {
        if flag(d) == 1 {
            if d.ends_with("kernarg_segment_ptr") {
                kernarg_sgpr = sgpr;
            }
            sgpr += n;
        }
    }
    let user = flag(".amdhsa_user_sgpr_count").max(sgpr);
    let workgroup_ids = [
        ".amdhsa_system_sgpr_workgroup_id_x",
        ".amdhsa_system_sgpr_workgroup_id_y",
        ".amdhsa_system_sgpr_workgroup_id_z",
    ]
    .iter()
    .take_while(|d| flag(d) == 1)
    .count() as u32;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(Kernel {
        code,
        kernarg_sgpr,
        workgroup_id_sgpr: user,
        workgroup_ids,
    })
}

/// The full CDNA 3 spec with its executors, if this build has it (AMD's file, not the
/// fixture: the fixture has no matrix instructions).
pub fn cdna3() -> Option<(&'static IsaSpec, ExecutorTable)> {
    let spec = isa_runtime::specs().into_iter().find(|s| {
        s.generation == "cdna3" && s.instruction_by_name("V_MFMA_F32_16X16X16_F16").is_some()
    })?;
    Some((spec, isa_runtime::semantics::table(spec)?))
}

/// A dispatch configuration for `kernel`: its SGPR layout, 64-lane workgroups.
pub fn config(spec: &IsaSpec, kernel: &Kernel, groups: u32, kernarg: u64) -> DispatchConfig {
    let mut cfg = DispatchConfig::new(spec, [groups, 1, 1], [64, 1, 1], kernarg);
    cfg.kernarg_sgpr = kernel.kernarg_sgpr;
    cfg.workgroup_id_sgpr = kernel.workgroup_id_sgpr;
    cfg.workgroup_id_sgprs = kernel.workgroup_ids;
    cfg
}

/// The kernel loaded at address 0 with the table's executors.
pub fn program(spec: &'static IsaSpec, table: &ExecutorTable, kernel: &Kernel) -> Program {
    Program::load(spec, &kernel.code, 0, table)
}

/// Kernel arguments: 64-bit pointers and 32-bit values, each aligned to its size.
pub fn kernargs(args: &[(u64, u32)]) -> Vec<u8> {
    let mut out = Vec::new();
    for &(v, bytes) in args {
        while out.len() % bytes as usize != 0 {
            out.push(0);
        }
        out.extend_from_slice(&v.to_le_bytes()[..bytes as usize]);
    }
    out
}
