//! What `amdisa run` prints: a wave's final registers, the buffers, and the per-instruction
//! trace (a [`Tracer`] that diffs the wave around each instruction).

use super::launch::{Outcome, PlacedBuffer};
use isa_runtime::disassemble;
use isa_runtime::exec::dispatch::Tracer;
use isa_runtime::exec::{Decoded, ExecError, Flow, Wave};
use std::fmt::Write as _;

/// `v` in lanes, eight to a line.
fn lane_rows(out: &mut String, label: &str, values: &[u32], exec: u64) {
    for (row, chunk) in values.chunks(8).enumerate() {
        let head = if row == 0 { label } else { "" };
        let mut line = format!("  {head:<5}[{:>2}]", row * 8);
        for (k, v) in chunk.iter().enumerate() {
            let lane = row * 8 + k;
            // Inactive lanes are marked: their value is what the last active write left.
            let mark = if exec >> lane & 1 == 1 { ' ' } else { '*' };
            let _ = write!(line, " {v:08x}{mark}");
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// The final state of a wave: specials, SGPRs `s0..sgprs`, VGPRs `v0..vgprs` per lane.
pub fn wave_text(w: &Wave, sgprs: u32, vgprs: u32) -> String {
    let mut out = String::new();
    let [x, y, z] = w.workgroup_id;
    let _ = writeln!(
        out,
        "wave {} of workgroup ({x}, {y}, {z}): {} instructions, {}, pc {:#x}",
        w.wave_in_group,
        w.steps,
        if w.ended { "ended" } else { "did not end" },
        w.pc
    );
    let _ = writeln!(
        out,
        "  exec {:#018x}  vcc {:#018x}  scc {}  m0 {:#x}",
        w.exec, w.vcc, w.scc as u8, w.m0
    );
    for base in (0..sgprs.min(w.sgpr.len() as u32)).step_by(8) {
        let _ = write!(out, "  s{base:<4}");
        for i in base..(base + 8).min(sgprs) {
            let _ = write!(out, " {:08x}", w.sgpr[i as usize]);
        }
        out.push('\n');
    }
    if vgprs > 0 {
        let _ = writeln!(
            out,
            "  VGPRs, lanes in rows of 8 (`*` = lane not in EXEC at the end):"
        );
    }
    for r in 0..vgprs.min(w.num_vgprs) {
        if let Ok(values) = w.vgpr_lanes(r) {
            lane_rows(&mut out, &format!("v{r}"), values, w.exec);
        }
    }
    out
}

/// A buffer's final elements, `limit` at most, eight to a line.
pub fn buffer_text(outcome: &Outcome, b: &PlacedBuffer, limit: usize) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "buffer {} ({} x {} at {:#x}):",
        b.name,
        b.ty.name(),
        b.count,
        b.addr
    );
    let Some(values) = outcome.elements(&b.name) else {
        let _ = writeln!(out, "  (unreadable)");
        return out;
    };
    for (row, chunk) in values[..b.count.min(limit)].chunks(8).enumerate() {
        let _ = write!(out, "  [{:>5}]", row * 8);
        for v in chunk {
            let _ = write!(out, " {:>12}", b.ty.format(*v));
        }
        out.push('\n');
    }
    if b.count > limit {
        let _ = writeln!(
            out,
            "  ... {} more (--print-limit to see them)",
            b.count - limit
        );
    }
    out
}

/// The registers an instruction can write, copied before it runs.
struct Snapshot {
    sgpr: Vec<u32>,
    vgpr: Vec<u32>,
    exec: u64,
    vcc: u64,
    scc: bool,
    m0: u32,
}

/// Prints one line per executed instruction: wave, pc, instruction text, and every register
/// whose value changed (`s8=0x10`, `v3[0-31]=...`, `exec=...`).
pub struct TraceWriter<'a> {
    out: &'a mut dyn std::io::Write,
    before: Option<Snapshot>,
    /// Set when writing failed (a closed pipe): tracing stops quietly.
    pub broken: bool,
}

impl<'a> TraceWriter<'a> {
    pub fn new(out: &'a mut dyn std::io::Write) -> TraceWriter<'a> {
        TraceWriter {
            out,
            before: None,
            broken: false,
        }
    }
}

/// Changed lanes of one VGPR as `v3=...`: one value when all changed lanes agree, else
/// `lane:value` pairs.
fn vgpr_change(out: &mut String, reg: usize, lanes: &[(usize, u32)]) {
    let first = lanes[0].0;
    let last = lanes[lanes.len() - 1].0;
    let contiguous = last - first + 1 == lanes.len();
    let range = if contiguous {
        format!("{first}-{last}")
    } else {
        format!("{} lanes", lanes.len())
    };
    if lanes.iter().all(|&(_, v)| v == lanes[0].1) {
        let _ = write!(out, " v{reg}[{range}]={:#x}", lanes[0].1);
    } else {
        let _ = write!(out, " v{reg}[{range}]=");
        for (k, (lane, v)) in lanes.iter().enumerate() {
            let sep = if k == 0 { "" } else { "," };
            if contiguous {
                let _ = write!(out, "{sep}{v:#x}");
            } else {
                let _ = write!(out, "{sep}{lane}:{v:#x}");
            }
        }
    }
}

impl Tracer for TraceWriter<'_> {
    fn before(&mut self, w: &Wave, _: &Decoded) {
        if self.broken {
            return;
        }
        self.before = Some(Snapshot {
            sgpr: w.sgpr.to_vec(),
            vgpr: w.vgpr.clone(),
            exec: w.exec,
            vcc: w.vcc,
            scc: w.scc,
            m0: w.m0,
        });
    }

    fn after(&mut self, w: &Wave, d: &Decoded, result: &Result<Flow, ExecError>) {
        let Some(b) = self.before.take() else { return };
        let [x, y, z] = w.workgroup_id;
        let mut line = format!(
            "[{x},{y},{z}:{}] {:#06x}  {:<44}",
            w.wave_in_group,
            w.pc,
            disassemble(&d.ins)
        );
        for (i, (old, new)) in b.sgpr.iter().zip(w.sgpr.iter()).enumerate() {
            if old != new {
                let _ = write!(line, " s{i}={new:#x}");
            }
        }
        let lanes = w.lanes();
        for (reg, (old, new)) in b.vgpr.chunks(lanes).zip(w.vgpr.chunks(lanes)).enumerate() {
            let changed: Vec<(usize, u32)> = (0..lanes)
                .filter(|&l| old[l] != new[l])
                .map(|l| (l, new[l]))
                .collect();
            if !changed.is_empty() {
                vgpr_change(&mut line, reg, &changed);
            }
        }
        if b.exec != w.exec {
            let _ = write!(line, " exec={:#x}", w.exec);
        }
        if b.vcc != w.vcc {
            let _ = write!(line, " vcc={:#x}", w.vcc);
        }
        if b.scc != w.scc {
            let _ = write!(line, " scc={}", w.scc as u8);
        }
        if b.m0 != w.m0 {
            let _ = write!(line, " m0={:#x}", w.m0);
        }
        match result {
            // Executors may return the fall-through address as a jump: show only real ones.
            Ok(Flow::Jump(t)) if *t != w.pc + d.ins.len() as u64 => {
                let _ = write!(line, " -> {t:#x}");
            }
            Ok(Flow::EndProgram) => line.push_str(" (end)"),
            Ok(Flow::Barrier) => line.push_str(" (barrier)"),
            Err(e) => {
                let _ = write!(line, " !! {e}");
            }
            _ => {}
        }
        if writeln!(self.out, "{}", line.trim_end()).is_err() {
            self.broken = true;
        }
    }
}
