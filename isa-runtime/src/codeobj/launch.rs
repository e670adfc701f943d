//! Launching a kernel of a code object the way the hardware and the ROCm runtime do: what the
//! descriptor asks for at wave start (user SGPRs in their order, workgroup-id SGPRs,
//! work-item id VGPRs, LDS size, float mode), the dispatch packet, and the hidden kernel
//! arguments the metadata lists. What the emulator does not model is an error naming the
//! kernel and the missing piece, checked before anything runs.

use super::descriptor::UserSgpr;
use super::{CodeObject, Kernel};
use crate::exec::dispatch::{DispatchConfig, HsaSgprs};
use crate::exec::Mode;
use crate::tables::IsaSpec;

/// The size of the grid: workgroups and work-items per workgroup, in x, y, z.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridShape {
    pub groups: [u32; 3],
    pub workgroup: [u32; 3],
}

impl GridShape {
    /// Work-items in each dimension (HSA's grid size).
    pub fn grid_size(&self) -> [u64; 3] {
        [0, 1, 2].map(|d| self.groups[d] as u64 * self.workgroup[d] as u64)
    }

    /// 1, 2 or 3: the highest dimension with more than one work-item.
    pub fn dims(&self) -> u16 {
        let g = self.grid_size();
        if g[2] > 1 {
            3
        } else if g[1] > 1 {
            2
        } else {
            1
        }
    }
}

/// Addresses of what the host allocated for the dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DispatchAddresses {
    pub kernarg: u64,
    pub dispatch_packet: u64,
}

/// Checks that the emulator can launch `kernel` as its descriptor asks; the error names the
/// kernel and every missing piece.
pub fn check_supported(code: &CodeObject, kernel: &Kernel, spec: &IsaSpec) -> Result<(), String> {
    let d = &kernel.descriptor;
    let mut missing = Vec::new();
    if d.private_segment_fixed_size > 0 || d.private_segment() {
        missing.push(format!(
            "scratch memory ({} bytes per work-item of private segment)",
            d.private_segment_fixed_size
        ));
    }
    if d.uses_dynamic_stack() {
        missing.push("a dynamically sized stack".to_string());
    }
    for (input, _, _) in d.user_sgprs() {
        if input == UserSgpr::QueuePtr {
            missing.push("the queue pointer SGPRs (no HSA queue is modelled)".into());
        }
    }
    if d.workgroup_info_sgpr() {
        missing.push("the workgroup-info SGPR".into());
    }
    let wave32 = d.wavefront_size32();
    if wave32 == spec.wave64 {
        missing.push(format!(
            "{} waves (the {} spec runs {})",
            if wave32 { "32-lane" } else { "64-lane" },
            spec.generation,
            if spec.wave64 { "wave64" } else { "wave32" }
        ));
    }
    if let Some(m) = &kernel.metadata {
        for a in &m.args {
            if a.value_kind == "dynamic_shared_pointer" {
                missing.push(format!(
                    "dynamic LDS argument `{}`",
                    a.name.as_deref().unwrap_or("?")
                ));
            } else if hidden_value(
                &a.value_kind,
                &GridShape {
                    groups: [1; 3],
                    workgroup: [1; 3],
                },
            )
            .is_none()
                && a.is_hidden()
            {
                missing.push(format!("hidden argument kind `{}`", a.value_kind));
            }
        }
    } else if code.metadata.is_none() {
        missing.push("the metadata note (argument offsets and sizes)".into());
    } else {
        missing.push("metadata for this kernel in the note".into());
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "kernel `{}` needs what the emulator does not model: {}",
            kernel.name,
            missing.join("; ")
        ))
    }
}

/// The value the ROCm runtime stores for a hidden argument (`hidden_*` value kind), None for
/// a kind it does not know. Pointers the emulator has nothing behind (printf and hostcall
/// buffers, the default queue, completion action, heap, multigrid sync) are null, so a
/// kernel that uses one faults instead of reading made-up data.
pub fn hidden_value(kind: &str, shape: &GridShape) -> Option<u64> {
    let d = |s: &str| match s {
        "x" => Some(0),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some(axis) = kind.strip_prefix("hidden_block_count_") {
        return d(axis).map(|i| shape.groups[i] as u64);
    }
    if let Some(axis) = kind.strip_prefix("hidden_group_size_") {
        return d(axis).map(|i| shape.workgroup[i] as u64);
    }
    if let Some(axis) = kind.strip_prefix("hidden_remainder_") {
        // The grid is a whole number of workgroups.
        return d(axis).map(|_| 0);
    }
    if let Some(axis) = kind.strip_prefix("hidden_global_offset_") {
        return d(axis).map(|_| 0);
    }
    match kind {
        "hidden_grid_dims" => Some(shape.dims() as u64),
        "hidden_none"
        | "hidden_printf_buffer"
        | "hidden_hostcall_buffer"
        | "hidden_default_queue"
        | "hidden_completion_action"
        | "hidden_multigrid_sync_arg"
        | "hidden_heap_v1"
        | "hidden_dynamic_lds_size"
        | "hidden_private_base"
        | "hidden_shared_base"
        | "hidden_queue_ptr" => Some(0),
        _ => None,
    }
}

/// Writes every hidden argument of the kernel's metadata into `kernarg` (sized to hold them).
pub fn fill_hidden_args(
    kernel: &Kernel,
    shape: &GridShape,
    kernarg: &mut [u8],
) -> Result<(), String> {
    let Some(m) = &kernel.metadata else {
        return Ok(());
    };
    for a in m.args.iter().filter(|a| a.is_hidden()) {
        let v = hidden_value(&a.value_kind, shape).ok_or_else(|| {
            format!(
                "kernel `{}`: unknown hidden argument kind `{}`",
                kernel.name, a.value_kind
            )
        })?;
        let (at, size) = (a.offset as usize, (a.size as usize).min(8));
        let len = kernarg.len();
        let slot = kernarg.get_mut(at..at + size).ok_or_else(|| {
            format!(
                "kernel `{}`: hidden argument {} at {at} runs past the {len}-byte kernarg segment",
                kernel.name, a.value_kind
            )
        })?;
        slot.copy_from_slice(&v.to_le_bytes()[..size]);
    }
    Ok(())
}

/// The kernarg segment's size: the larger of the descriptor's and the metadata's.
pub fn kernarg_size(kernel: &Kernel) -> usize {
    let meta = kernel
        .metadata
        .as_ref()
        .and_then(|m| m.kernarg_segment_size)
        .unwrap_or(0) as usize;
    meta.max(kernel.descriptor.kernarg_size as usize)
}

/// The 64-byte HSA kernel dispatch packet for the launch.
pub fn dispatch_packet(kernel: &Kernel, shape: &GridShape, kernarg: u64) -> [u8; 64] {
    let mut p = [0u8; 64];
    // Header: a kernel-dispatch packet (type 2).
    p[0..2].copy_from_slice(&2u16.to_le_bytes());
    p[2..4].copy_from_slice(&shape.dims().to_le_bytes());
    for d in 0..3 {
        let at = 4 + 2 * d;
        p[at..at + 2].copy_from_slice(&(shape.workgroup[d] as u16).to_le_bytes());
        let at = 12 + 4 * d;
        p[at..at + 4].copy_from_slice(&(shape.grid_size()[d] as u32).to_le_bytes());
    }
    p[24..28].copy_from_slice(&kernel.descriptor.private_segment_fixed_size.to_le_bytes());
    p[28..32].copy_from_slice(&kernel.descriptor.group_segment_fixed_size.to_le_bytes());
    p[32..40].copy_from_slice(&kernel.descriptor_address.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg.to_le_bytes());
    p
}

/// The user SGPR values in the descriptor's order; kernarg preload SGPRs copy the segment.
pub fn user_sgprs(kernel: &Kernel, addrs: &DispatchAddresses, kernarg: &[u8]) -> Vec<u32> {
    let d = &kernel.descriptor;
    let mut out = Vec::new();
    let pair = |out: &mut Vec<u32>, v: u64| {
        out.push(v as u32);
        out.push((v >> 32) as u32);
    };
    for (input, _, count) in d.user_sgprs() {
        match input {
            UserSgpr::DispatchPtr => pair(&mut out, addrs.dispatch_packet),
            UserSgpr::KernargSegmentPtr => pair(&mut out, addrs.kernarg),
            // Zero: checked to be unused (no private segment, no queue) by check_supported,
            // or a dispatch id of 0.
            _ => out.extend(std::iter::repeat_n(0, count as usize)),
        }
    }
    let first = d.kernarg_preload_offset() as usize * 4;
    for i in 0..d.kernarg_preload_sgprs() as usize {
        let at = first + 4 * i;
        let mut w = [0u8; 4];
        if let Some(b) = kernarg.get(at..at + 4) {
            w.copy_from_slice(b);
        }
        out.push(u32::from_le_bytes(w));
    }
    // USER_SGPR_COUNT places the system SGPRs; pad if it is larger than what is enabled.
    let count = d.user_sgpr_count() as usize;
    if out.len() < count {
        out.resize(count, 0);
    }
    out
}

/// A dispatch configuration for `kernel` from its descriptor.
pub fn dispatch_config(
    spec: &IsaSpec,
    kernel: &Kernel,
    shape: &GridShape,
    addrs: &DispatchAddresses,
    kernarg: &[u8],
) -> DispatchConfig {
    let d = &kernel.descriptor;
    let mut cfg = DispatchConfig::new(spec, shape.groups, shape.workgroup, addrs.kernarg);
    cfg.hsa_sgprs = Some(HsaSgprs {
        user: user_sgprs(kernel, addrs, kernarg),
        workgroup_ids: d.workgroup_id_sgprs(),
        architected_ids: spec.traits.gfx >= 12,
    });
    cfg.entry = Some(kernel.entry);
    cfg.lds_size = d.group_segment_fixed_size as usize;
    let gfx12 = spec.traits.gfx >= 12;
    cfg.mode = Mode(d.mode_bits(gfx12));
    cfg.wave64 = !d.wavefront_size32();
    cfg
}
