//! `amdisa run FILE --kernel NAME` on a code object: the kernel launched from its descriptor
//! and metadata (see `isa_runtime::codeobj::launch`), arguments placed at the metadata's
//! offsets and sizes, hidden arguments and the dispatch packet filled as the ROCm runtime
//! fills them.

use super::launch::{self, Arg, Launch, LaunchError, Outcome, Prepared};
use isa_runtime::codeobj::launch::{self as colaunch, DispatchAddresses, GridShape};
use isa_runtime::codeobj::{CodeObject, Kernel};
use isa_runtime::exec::dispatch::{Program, Tracer};
use isa_runtime::IsaSpec;

/// The kernarg segment: the caller's arguments in declaration order at their offsets, then
/// the hidden ones.
fn kernarg_segment(
    kernel: &Kernel,
    launch: &Launch,
    prepared: &Prepared,
    shape: &GridShape,
) -> Result<Vec<u8>, String> {
    let meta = kernel
        .metadata
        .as_ref()
        .ok_or_else(|| format!("kernel `{}` has no metadata", kernel.name))?;
    let explicit: Vec<_> = meta.args.iter().filter(|a| !a.is_hidden()).collect();
    let describe = |i: usize| {
        let a = explicit[i];
        format!(
            "argument {} ({}{}, {} bytes at offset {})",
            i + 1,
            a.name
                .as_deref()
                .map(|n| format!("`{n}` "))
                .unwrap_or_default(),
            a.type_name.as_deref().unwrap_or(&a.value_kind),
            a.size,
            a.offset
        )
    };
    if launch.args.len() != explicit.len() {
        let list: Vec<String> = (0..explicit.len()).map(describe).collect();
        return Err(format!(
            "kernel `{}` takes {} argument(s), {} given with --arg: {}",
            kernel.name,
            explicit.len(),
            launch.args.len(),
            if list.is_empty() {
                "none".into()
            } else {
                list.join("; ")
            }
        ));
    }
    let mut bytes = vec![0u8; colaunch::kernarg_size(kernel)];
    for (i, (a, given)) in explicit.iter().zip(&launch.args).enumerate() {
        let value = match (a.value_kind.as_str(), given) {
            ("global_buffer", Arg::Buffer(name)) => {
                let b = prepared
                    .buffers
                    .iter()
                    .find(|b| &b.name == name)
                    .ok_or_else(|| format!("{}: no buffer `{name}`", describe(i)))?;
                b.addr.to_le_bytes()[..(a.size as usize).min(8)].to_vec()
            }
            ("global_buffer", other) => {
                return Err(format!(
                    "{} is a pointer: give a buffer name, not {other:?}",
                    describe(i)
                ))
            }
            ("by_value", Arg::Buffer(name)) => {
                return Err(format!(
                    "{} is a value, not a buffer pointer (`{name}`)",
                    describe(i)
                ))
            }
            ("by_value", v) => v
                .bytes_for(a.size as usize)
                .map_err(|e| format!("{}: {e}", describe(i)))?,
            (kind, _) => {
                return Err(format!(
                    "{}: argument kind `{kind}` is not modelled by the emulator",
                    describe(i)
                ))
            }
        };
        let at = a.offset as usize;
        let end = at + value.len();
        if end > bytes.len() {
            bytes.resize(end, 0);
        }
        bytes[at..end].copy_from_slice(&value);
    }
    colaunch::fill_hidden_args(kernel, shape, &mut bytes)?;
    Ok(bytes)
}

/// Launches `kernel`, its workgroups on `threads` threads (1: in grid order on this thread,
/// the only way with a tracer); errors name the kernel and what is wrong.
pub fn run(
    spec: &'static IsaSpec,
    code: &CodeObject,
    kernel: &Kernel,
    setup: &Launch,
    threads: usize,
    tracer: Option<&mut dyn Tracer>,
) -> Result<(Outcome, Program), String> {
    colaunch::check_supported(code, kernel, spec)?;
    let section = code.section_at(kernel.entry).ok_or_else(|| {
        format!(
            "kernel `{}`: its entry {:#x} is in no executable section",
            kernel.name, kernel.entry
        )
    })?;
    let table = launch::executor_table(spec)?;
    let program = Program::load(spec, &section.bytes, section.address, &table);
    let shape = GridShape {
        groups: setup.grid,
        workgroup: setup.workgroup,
    };
    // Buffers first (the legacy argument list stays empty: the kernarg segment is built
    // from the metadata below).
    let buffers_only = Launch {
        args: Vec::new(),
        ..setup.clone()
    };
    let mut prepared = launch::prepare(&buffers_only).map_err(|e| e.to_string())?;
    let kernarg = kernarg_segment(kernel, setup, &prepared, &shape)?;
    prepared.kernarg = prepared.mem.alloc_read_only(&kernarg, 256);
    let packet = colaunch::dispatch_packet(kernel, &shape, prepared.kernarg);
    let addrs = DispatchAddresses {
        kernarg: prepared.kernarg,
        dispatch_packet: prepared.mem.alloc_read_only(&packet, 64),
    };
    let cfg = colaunch::dispatch_config(spec, kernel, &shape, &addrs, &kernarg);
    let result = if threads > 1 {
        launch::execute_parallel(&program, cfg, setup, &mut prepared, threads)
    } else {
        launch::execute_with(&program, cfg, setup, &mut prepared, tracer)
    };
    let (stats, watched) = result.map_err(|e| match e {
        LaunchError::Dispatch(d) => format!("kernel `{}`: {d}", kernel.name),
        LaunchError::Setup(m) => format!("kernel `{}`: {m}", kernel.name),
    })?;
    Ok((
        Outcome {
            mem: prepared.mem,
            buffers: prepared.buffers,
            kernarg: prepared.kernarg,
            stats,
            watched,
        },
        program,
    ))
}
