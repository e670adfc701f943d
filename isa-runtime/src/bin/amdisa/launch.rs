//! Setting up and running a kernel the way a host program would: buffers in device memory,
//! a kernel-argument segment holding their addresses and scalar values, a grid run that keeps
//! the final state of one chosen wave, and an optional per-instruction tracer.

use isa_runtime::exec::dispatch::{
    run_workgroup, run_workgroup_traced, setup_wave, DispatchConfig, DispatchError, DispatchStats,
    Program, Tracer,
};
use isa_runtime::exec::parallel::dispatch_parallel;
use isa_runtime::exec::{ExecutorTable, FlatMemory, Lds, Wave};
use isa_runtime::{IsaSpec, Operand, RegFile};
use std::fmt;

/// The generated executors of `spec` (every instruction has one; an unsupported one returns
/// [`isa_runtime::exec::ExecError::Unsupported`] with its reason when it runs).
pub fn executor_table(spec: &'static IsaSpec) -> Result<ExecutorTable, String> {
    isa_runtime::semantics::table(spec).ok_or_else(|| {
        format!(
            "no generated executors for {} in this build",
            spec.generation
        )
    })
}

/// How many registers of each file a program names (one past the highest).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegisterUse {
    pub sgprs: u32,
    pub vgprs: u32,
    pub agprs: u32,
}

/// The registers `program`'s instructions name (what a compiler writes into the kernel
/// descriptor; waves get that many, so setting them up costs what the kernel needs).
pub fn registers_used(program: &Program) -> RegisterUse {
    let mut used = RegisterUse::default();
    for pc in (program.base..program.base + program.len).step_by(4) {
        let Some(d) = program.instruction_at(pc) else {
            continue;
        };
        for op in d.ins.operands() {
            if let Operand::Reg { file, first, count } = op.value {
                let end = first + count;
                match file {
                    RegFile::Sgpr => used.sgprs = used.sgprs.max(end),
                    RegFile::Vgpr => used.vgprs = used.vgprs.max(end),
                    RegFile::Agpr => used.agprs = used.agprs.max(end),
                    _ => {}
                }
            }
        }
    }
    used
}

/// How a buffer's elements are stored, read and printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ElemType {
    U8,
    U16,
    U32,
    I32,
    U64,
    I64,
    F16,
    F32,
    F64,
}

impl ElemType {
    pub const ALL: [ElemType; 9] = [
        ElemType::U8,
        ElemType::U16,
        ElemType::U32,
        ElemType::I32,
        ElemType::U64,
        ElemType::I64,
        ElemType::F16,
        ElemType::F32,
        ElemType::F64,
    ];

    pub fn name(self) -> &'static str {
        match self {
            ElemType::U8 => "u8",
            ElemType::U16 => "u16",
            ElemType::U32 => "u32",
            ElemType::I32 => "i32",
            ElemType::U64 => "u64",
            ElemType::I64 => "i64",
            ElemType::F16 => "f16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }

    /// Bytes per element.
    pub fn size(self) -> usize {
        match self {
            ElemType::U8 => 1,
            ElemType::U16 | ElemType::F16 => 2,
            ElemType::U32 | ElemType::I32 | ElemType::F32 => 4,
            ElemType::U64 | ElemType::I64 | ElemType::F64 => 8,
        }
    }

    fn is_float(self) -> bool {
        matches!(self, ElemType::F16 | ElemType::F32 | ElemType::F64)
    }

    /// One element's bits as text (f16 as its decimal value).
    pub fn format(self, bits: u64) -> String {
        match self {
            ElemType::U8 | ElemType::U16 | ElemType::U32 | ElemType::U64 => bits.to_string(),
            ElemType::I32 => (bits as u32 as i32).to_string(),
            ElemType::I64 => (bits as i64).to_string(),
            ElemType::F16 => format!("{:?}", f16_to_f64(bits as u16) as f32),
            ElemType::F32 => format!("{:?}", f32::from_bits(bits as u32)),
            ElemType::F64 => format!("{:?}", f64::from_bits(bits)),
        }
    }

    /// The element `value` as bits (`1.5` for floats, `-3` for signed, `0x10` or `7`).
    pub fn parse(self, text: &str) -> Result<u64, String> {
        let t = text.trim();
        let bad = || format!("`{t}` is not a {} value", self.name());
        let int_in = |lo: i128, hi: i128| {
            parse_int(t)
                .map(|v| v as i128)
                .filter(|v| (lo..=hi).contains(v))
                .map(|v| v as u64 & self.mask())
                .ok_or_else(bad)
        };
        match self {
            ElemType::F16 => t
                .parse::<f64>()
                .map(|v| f64_to_f16(v) as u64)
                .map_err(|_| bad()),
            ElemType::F32 => t
                .parse::<f32>()
                .map(|v| v.to_bits() as u64)
                .map_err(|_| bad()),
            ElemType::F64 => t.parse::<f64>().map(f64::to_bits).map_err(|_| bad()),
            // Negative values are accepted for unsigned types too (two's complement), as
            // they always were for u32.
            ElemType::U8 => int_in(i8::MIN as i128, u8::MAX as i128),
            ElemType::U16 => int_in(i16::MIN as i128, u16::MAX as i128),
            ElemType::I32 | ElemType::U32 => int_in(i32::MIN as i128, u32::MAX as i128),
            ElemType::I64 | ElemType::U64 => {
                parse_u64_or_i64(t).map(|v| v & self.mask()).ok_or_else(bad)
            }
        }
    }

    fn mask(self) -> u64 {
        match self.size() {
            8 => u64::MAX,
            n => (1u64 << (8 * n)) - 1,
        }
    }
}

/// A 64-bit integer: any i64, or a u64 above i64::MAX.
fn parse_u64_or_i64(t: &str) -> Option<u64> {
    if let Some(v) = parse_int(t) {
        return Some(v as u64);
    }
    let d = t.replace('_', "");
    match d.strip_prefix("0x").or_else(|| d.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => d.parse::<u64>().ok(),
    }
}

/// f16 bits → value (exact).
pub fn f16_to_f64(bits: u16) -> f64 {
    use isa_runtime::exec::float::{to_f64, SoftFloat, F16};
    to_f64(F16::from_bits(bits as u64))
}

/// Value → f16 bits, rounded to nearest even.
pub fn f64_to_f16(v: f64) -> u16 {
    use isa_runtime::exec::float::{SoftFloat, F16};
    F16::from_f64_rne(v).to_bits() as u16
}

/// A decimal or `0x` hex integer, optionally negative.
pub fn parse_int(t: &str) -> Option<i64> {
    let (neg, digits) = match t.strip_prefix('-') {
        Some(d) => (true, d),
        None => (false, t),
    };
    let digits = digits.replace('_', "");
    let v = match digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        Some(hex) => i64::from_str_radix(hex, 16).ok()?,
        None => digits.parse::<i64>().ok()?,
    };
    Some(if neg { -v } else { v })
}

/// A buffer's initial contents.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Zero,
    /// 0, 1, 2, ... in the element type.
    Iota,
    /// Every element the same bits.
    Fill(u64),
    /// Deterministic pseudo-random elements from a seed: any bits for integers, values in
    /// [-1, 1) for floats.
    Random(u64),
    /// These bits first, zeros after.
    Values(Vec<u64>),
}

/// A buffer the host allocates before the launch.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferSpec {
    pub name: String,
    /// Elements (of `ty.size()` bytes each).
    pub count: usize,
    pub ty: ElemType,
    pub init: Init,
}

impl BufferSpec {
    /// The initial elements as bits.
    pub fn initial_elements(&self) -> Vec<u64> {
        let mut state = match self.init {
            Init::Random(seed) => seed,
            _ => 0,
        };
        let ty = self.ty;
        (0..self.count)
            .map(|i| match &self.init {
                Init::Zero => 0,
                Init::Fill(v) => *v,
                Init::Values(v) => v.get(i).copied().unwrap_or(0),
                Init::Iota => match ty {
                    ElemType::F16 => f64_to_f16(i as f64) as u64,
                    ElemType::F32 => (i as f32).to_bits() as u64,
                    ElemType::F64 => (i as f64).to_bits(),
                    _ => i as u64 & ty.mask(),
                },
                Init::Random(_) => {
                    let r = splitmix(&mut state);
                    // Floats: random bits scaled into [-1, 1), exact in the type (11 bits for
                    // f16, 24 for f32, 53 for f64). Integers: any bits.
                    let unit =
                        |bits: u32| (r >> (64 - bits)) as f64 / (1u64 << (bits - 1)) as f64 - 1.0;
                    match ty {
                        ElemType::F16 => f64_to_f16(unit(11)) as u64,
                        ElemType::F32 => (unit(24) as f32).to_bits() as u64,
                        ElemType::F64 => unit(53).to_bits(),
                        _ if ty.is_float() => unreachable!(),
                        _ => r & ty.mask(),
                    }
                }
            })
            .collect()
    }

    /// The initial elements of a 32-bit buffer as bits (other sizes: the low 32 bits).
    #[allow(dead_code)] // for the tests that include this module
    pub fn initial_bits(&self) -> Vec<u32> {
        self.initial_elements().iter().map(|&v| v as u32).collect()
    }

    /// The initial contents as bytes (little-endian elements).
    pub fn initial_bytes(&self) -> Vec<u8> {
        let size = self.ty.size();
        let mut out = Vec::with_capacity(self.count * size);
        for v in self.initial_elements() {
            out.extend_from_slice(&v.to_le_bytes()[..size]);
        }
        out
    }
}

/// SplitMix64: deterministic pseudo-random words.
pub fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// One kernel argument, in the order the kernel reads them (each aligned to its size).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// The 64-bit address of the named buffer.
    Buffer(String),
    U32(u32),
    U64(u64),
    /// An integer without a type: as many bytes as the argument has (32 bits for an
    /// assembly kernel).
    Int(i64),
    /// A typed value of another size (`u8:`, `u16:`, `f16:`).
    Typed(ElemType, u64),
}

/// Which wave's final registers to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveId {
    pub group: [u32; 3],
    pub wave: u32,
}

/// Everything about a launch except the program.
#[derive(Clone, Debug)]
pub struct Launch {
    pub buffers: Vec<BufferSpec>,
    pub args: Vec<Arg>,
    /// Workgroups in x, y, z.
    pub grid: [u32; 3],
    /// Work-items per workgroup in x, y, z.
    pub workgroup: [u32; 3],
    pub watch: Option<WaveId>,
    /// Instructions one wave may run (endless loops end with an error).
    pub max_steps: u64,
}

/// A buffer where the launch put it.
#[derive(Clone, Debug)]
pub struct PlacedBuffer {
    pub name: String,
    pub addr: u64,
    pub count: usize,
    pub ty: ElemType,
}

/// What a launch left behind.
pub struct Outcome {
    pub mem: FlatMemory,
    pub buffers: Vec<PlacedBuffer>,
    pub kernarg: u64,
    pub stats: DispatchStats,
    /// The watched wave's final state (None when it does not exist in the grid).
    pub watched: Option<Wave>,
}

impl Outcome {
    /// The final dwords of a 32-bit buffer.
    #[allow(dead_code)] // for the tests that include this module
    pub fn buffer(&self, name: &str) -> Option<Vec<u32>> {
        let b = self.buffers.iter().find(|b| b.name == name)?;
        self.mem
            .dwords(b.addr, (b.count * b.ty.size()).div_ceil(4))
            .ok()
    }

    /// The final elements of a buffer of any type, as bits.
    pub fn elements(&self, name: &str) -> Option<Vec<u64>> {
        let b = self.buffers.iter().find(|b| b.name == name)?;
        let bytes = self.mem.allocation(b.addr)?;
        let size = b.ty.size();
        Some(
            bytes
                .chunks(size)
                .take(b.count)
                .map(|c| {
                    let mut w = [0u8; 8];
                    w[..size].copy_from_slice(c);
                    u64::from_le_bytes(w)
                })
                .collect(),
        )
    }
}

/// Why a launch did not complete.
#[derive(Debug)]
pub enum LaunchError {
    /// The set-up is inconsistent (an argument names no buffer, a zero-sized grid, ...).
    Setup(String),
    /// The kernel failed; where and why.
    Dispatch(DispatchError),
}

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LaunchError::Setup(m) => f.write_str(m),
            LaunchError::Dispatch(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LaunchError {}

/// The kernel-argument bytes, each argument aligned to its size.
fn kernarg_bytes(launch: &Launch, placed: &[PlacedBuffer]) -> Result<Vec<u8>, LaunchError> {
    let mut bytes = Vec::new();
    for arg in &launch.args {
        let (value, size) = match arg {
            Arg::U32(v) => (*v as u64, 4),
            Arg::U64(v) => (*v, 8),
            Arg::Typed(t, v) => (*v, t.size()),
            Arg::Int(v) => {
                if *v < i32::MIN as i64 || *v > u32::MAX as i64 {
                    return Err(LaunchError::Setup(format!(
                        "argument {v} does not fit in 32 bits (use u64:{v})"
                    )));
                }
                (*v as u32 as u64, 4)
            }
            Arg::Buffer(name) => {
                let b = placed.iter().find(|b| &b.name == name).ok_or_else(|| {
                    LaunchError::Setup(format!("argument names no buffer `{name}`"))
                })?;
                (b.addr, 8)
            }
        };
        bytes.resize(bytes.len().div_ceil(size) * size, 0);
        bytes.extend_from_slice(&value.to_le_bytes()[..size]);
    }
    Ok(bytes)
}

/// Device memory set up for a launch: the buffers and the kernel arguments.
pub struct Prepared {
    pub mem: FlatMemory,
    pub buffers: Vec<PlacedBuffer>,
    pub kernarg: u64,
}

/// Allocates and fills the buffers, then the kernel-argument segment (read-only).
pub fn prepare(launch: &Launch) -> Result<Prepared, LaunchError> {
    if launch.grid.contains(&0) || launch.workgroup.contains(&0) {
        return Err(LaunchError::Setup(
            "grid and workgroup sizes must be at least 1 in every dimension".into(),
        ));
    }
    let mut mem = FlatMemory::new();
    let mut placed = Vec::new();
    for b in &launch.buffers {
        if placed.iter().any(|p: &PlacedBuffer| p.name == b.name) {
            return Err(LaunchError::Setup(format!(
                "buffer `{}` is defined twice",
                b.name
            )));
        }
        let addr = mem.alloc_bytes(&b.initial_bytes(), 256);
        placed.push(PlacedBuffer {
            name: b.name.clone(),
            addr,
            count: b.count,
            ty: b.ty,
        });
    }
    let args = kernarg_bytes(launch, &placed)?;
    let kernarg = mem.alloc_read_only(&args, 256);
    Ok(Prepared {
        mem,
        buffers: placed,
        kernarg,
    })
}

/// Runs `program` over the grid on prepared memory (workgroups one after another, as
/// [`isa_runtime::exec::dispatch()`] does); returns the statistics and the watched wave.
pub fn execute(
    program: &Program,
    launch: &Launch,
    prepared: &mut Prepared,
    tracer: Option<&mut dyn Tracer>,
) -> Result<(DispatchStats, Option<Wave>), LaunchError> {
    let cfg = DispatchConfig::new(
        program.spec,
        launch.grid,
        launch.workgroup,
        prepared.kernarg,
    );
    execute_with(program, cfg, launch, prepared, tracer)
}

/// [`execute`] with a given dispatch configuration (a kernel descriptor's SGPR layout, LDS
/// size and float mode); the grid, step limit and register counts come from `launch` and
/// the program.
pub fn execute_with(
    program: &Program,
    mut cfg: DispatchConfig,
    launch: &Launch,
    prepared: &mut Prepared,
    mut tracer: Option<&mut dyn Tracer>,
) -> Result<(DispatchStats, Option<Wave>), LaunchError> {
    limit(&mut cfg, program, launch);
    let mem = &mut prepared.mem;
    let mut stats = DispatchStats::default();
    let mut lds = Lds::new(cfg.lds_size);
    let mut waves: Vec<Wave> = (0..cfg.waves_per_group())
        .map(|_| Wave::new(cfg.wave64, cfg.num_vgprs, cfg.num_agprs))
        .collect();
    let mut watched = None;
    for gz in 0..cfg.grid[2] {
        for gy in 0..cfg.grid[1] {
            for gx in 0..cfg.grid[0] {
                let group = [gx, gy, gz];
                lds.clear();
                for (i, w) in waves.iter_mut().enumerate() {
                    setup_wave(w, &cfg, program, group, i as u32);
                }
                let result = match tracer.as_deref_mut() {
                    Some(t) => {
                        run_workgroup_traced(program, &cfg, &mut waves, mem, &mut lds, group, t)
                    }
                    None => run_workgroup(program, &cfg, &mut waves, mem, &mut lds, group),
                };
                result.map_err(LaunchError::Dispatch)?;
                stats.workgroups += 1;
                stats.waves += waves.len() as u64;
                stats.instructions += waves.iter().map(|w| w.steps).sum::<u64>();
                if let Some(id) = launch.watch.filter(|id| id.group == group) {
                    watched = waves.get(id.wave as usize).cloned();
                }
            }
        }
    }
    Ok((stats, watched))
}

impl Prepared {
    /// What the launch left behind after a run with these results.
    fn finish(self, stats: DispatchStats, watched: Option<Wave>) -> Outcome {
        Outcome {
            mem: self.mem,
            buffers: self.buffers,
            kernarg: self.kernarg,
            stats,
            watched,
        }
    }
}

/// The dispatch configuration of a launch.
fn config(program: &Program, launch: &Launch, prepared: &Prepared) -> DispatchConfig {
    let mut cfg = DispatchConfig::new(
        program.spec,
        launch.grid,
        launch.workgroup,
        prepared.kernarg,
    );
    limit(&mut cfg, program, launch);
    cfg
}

/// The step limit of the launch and the register counts the program uses.
fn limit(cfg: &mut DispatchConfig, program: &Program, launch: &Launch) {
    cfg.max_steps_per_wave = launch.max_steps;
    // Allocation granule of 8 registers; at least the work-item id registers v0-v2.
    let used = registers_used(program);
    cfg.num_vgprs = used.vgprs.max(3).next_multiple_of(8).min(cfg.num_vgprs);
    cfg.num_agprs = used.agprs.next_multiple_of(8).min(cfg.num_agprs);
}

/// [`execute_with`] on `threads` threads: the workgroups in parallel over shared global
/// memory (`isa_runtime::exec::parallel`), each set up from `cfg` as the serial run sets it
/// up; no tracer.
pub fn execute_parallel(
    program: &Program,
    mut cfg: DispatchConfig,
    launch: &Launch,
    prepared: &mut Prepared,
    threads: usize,
) -> Result<(DispatchStats, Option<Wave>), LaunchError> {
    limit(&mut cfg, program, launch);
    let watch = launch.watch.map(|id| (id.group, id.wave));
    dispatch_parallel(program, &cfg, &mut prepared.mem, threads, watch)
        .map_err(LaunchError::Dispatch)
}

/// [`prepare`], then the grid on `threads` threads ([`execute_parallel`]): the whole launch
/// without a tracer.
pub fn run_threads(
    program: &Program,
    launch: &Launch,
    threads: usize,
) -> Result<Outcome, LaunchError> {
    let mut prepared = prepare(launch)?;
    let cfg = config(program, launch, &prepared);
    let (stats, watched) = execute_parallel(program, cfg, launch, &mut prepared, threads)?;
    Ok(prepared.finish(stats, watched))
}

/// [`prepare`] and [`execute`]: the whole launch.
pub fn run(
    program: &Program,
    launch: &Launch,
    tracer: Option<&mut dyn Tracer>,
) -> Result<Outcome, LaunchError> {
    let mut prepared = prepare(launch)?;
    let (stats, watched) = execute(program, launch, &mut prepared, tracer)?;
    Ok(prepared.finish(stats, watched))
}

// ---------------------------------------------------------------------------------------------
// The command line's spellings of a launch (`amdisa run --buffer ... --arg ... --grid ...`).

impl ElemType {
    pub fn from_name(name: &str) -> Option<ElemType> {
        ElemType::ALL.into_iter().find(|t| t.name() == name)
    }
}

fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    matches!(c.next(), Some(f) if f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

impl BufferSpec {
    /// `NAME:COUNT[:TYPE][=INIT]`: TYPE is `u32` (default), `i32`, `f32`, `u8`, `u16`, `u64`,
    /// `i64`, `f16` or `f64`; INIT is `zero`
    /// (default), `iota` (0, 1, 2, ...), `fill:V`, `random[:SEED]`, or a list `V,V,...` (the
    /// first elements; the rest are zero).
    pub fn parse(text: &str) -> Result<BufferSpec, String> {
        let ctx = |m: String| format!("buffer `{text}`: {m}");
        let (head, init) = match text.split_once('=') {
            Some((h, i)) => (h, Some(i)),
            None => (text, None),
        };
        let mut parts = head.split(':');
        let name = parts.next().unwrap_or("").trim();
        if !is_name(name) {
            return Err(ctx(format!(
                "`{name}` is not a buffer name (letters, digits, `_`; expected NAME:COUNT[:TYPE][=INIT])"
            )));
        }
        let count_text = parts
            .next()
            .ok_or_else(|| ctx("missing the element count (NAME:COUNT)".into()))?
            .trim();
        let count = parse_int(count_text)
            .filter(|&c| (1..=1 << 28).contains(&c))
            .ok_or_else(|| {
                ctx(format!(
                    "`{count_text}` is not an element count (1 to 268435456)"
                ))
            })? as usize;
        let ty = match parts.next() {
            None => ElemType::U32,
            Some(t) => ElemType::from_name(t.trim()).ok_or_else(|| {
                ctx(format!(
                    "`{}` is not an element type (u8, u16, u32, i32, u64, i64, f16, f32, f64)",
                    t.trim()
                ))
            })?,
        };
        if let Some(extra) = parts.next() {
            return Err(ctx(format!(
                "unexpected `:{extra}` (expected NAME:COUNT[:TYPE][=INIT])"
            )));
        }
        let init = match init.map(str::trim) {
            None | Some("zero") => Init::Zero,
            Some("iota") => Init::Iota,
            Some("random") => Init::Random(1),
            Some(i) if i.starts_with("random:") => {
                let seed = &i["random:".len()..];
                Init::Random(
                    parse_int(seed).ok_or_else(|| ctx(format!("`{seed}` is not a seed")))? as u64,
                )
            }
            Some(i) if i.starts_with("fill:") => {
                Init::Fill(ty.parse(&i["fill:".len()..]).map_err(ctx)?)
            }
            Some("") => return Err(ctx("nothing after `=`".into())),
            Some(list) => {
                let values = list
                    .split(',')
                    .map(|v| ty.parse(v))
                    .collect::<Result<Vec<u64>, String>>()
                    .map_err(ctx)?;
                if values.len() > count {
                    return Err(ctx(format!("{} values for {count} elements", values.len())));
                }
                Init::Values(values)
            }
        };
        Ok(BufferSpec {
            name: name.to_string(),
            count,
            ty,
            init,
        })
    }
}

impl Arg {
    /// A buffer name (its 64-bit address), an integer (`1000`, `-1`, `0x10`: 32 bits for an
    /// assembly kernel, the argument's size for a code object's), or a typed value `u32:N`,
    /// `i32:N`, `f32:X` (32 bits), `u64:N`, `i64:N`, `f64:X` (64 bits), `u8:N`, `u16:N`,
    /// `f16:X`.
    pub fn parse(text: &str) -> Result<Arg, String> {
        let t = text.trim();
        let ctx = |m: String| format!("argument `{t}`: {m}");
        if let Some((ty, v)) = t.split_once(':') {
            let e = ElemType::from_name(ty).ok_or_else(|| {
                ctx(format!(
                    "`{ty}` is not an argument type (u8, u16, u32, i32, u64, i64, f16, f32, f64)"
                ))
            })?;
            let bits = e.parse(v).map_err(ctx)?;
            return Ok(match e.size() {
                4 => Arg::U32(bits as u32),
                8 => Arg::U64(bits),
                _ => Arg::Typed(e, bits),
            });
        }
        if is_name(t) {
            return Ok(Arg::Buffer(t.to_string()));
        }
        parse_u64_or_i64(t)
            .map(|v| Arg::Int(v as i64))
            .ok_or_else(|| {
                ctx(
                    "expected a buffer name, an integer, or TYPE:VALUE (u32:7, f32:1.5, ...)"
                        .into(),
                )
            })
    }

    /// The argument's bytes for a slot of `size` bytes, or why it does not fit.
    pub fn bytes_for(&self, size: usize) -> Result<Vec<u8>, String> {
        let (bits, have) = match self {
            Arg::Buffer(_) => return Err("a buffer address goes in a pointer argument".into()),
            Arg::U32(v) => (*v as u64, 4),
            Arg::U64(v) => (*v, 8),
            Arg::Typed(t, v) => (*v, t.size()),
            Arg::Int(v) => {
                let fits =
                    size >= 8 || (*v >= -(1i64 << (8 * size - 1)) && *v < (1i64 << (8 * size)));
                if !fits {
                    return Err(format!("{v} does not fit in {size} bytes"));
                }
                (*v as u64, size)
            }
        };
        if have != size {
            return Err(format!("a {have}-byte value for a {size}-byte argument"));
        }
        Ok(bits.to_le_bytes()[..size].to_vec())
    }
}

/// `X[,Y[,Z]]` (missing dimensions are 1), each at least 1.
pub fn parse_dims(what: &str, text: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err(format!("{what} `{text}`: at most three dimensions (X,Y,Z)"));
    }
    let mut dims = [1u32; 3];
    for (d, p) in dims.iter_mut().zip(&parts) {
        *d = parse_int(p.trim())
            .filter(|&v| (1..=u32::MAX as i64).contains(&v))
            .ok_or_else(|| {
                format!(
                    "{what} `{text}`: `{}` is not a size of at least 1",
                    p.trim()
                )
            })? as u32;
    }
    Ok(dims)
}

/// `X[,Y[,Z]]` for a workgroup id (zeros allowed).
pub fn parse_group_id(text: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() > 3 {
        return Err(format!(
            "workgroup id `{text}`: at most three dimensions (X,Y,Z)"
        ));
    }
    let mut id = [0u32; 3];
    for (d, p) in id.iter_mut().zip(&parts) {
        *d = parse_int(p.trim())
            .filter(|&v| (0..=u32::MAX as i64).contains(&v))
            .ok_or_else(|| format!("workgroup id `{text}`: `{}` is not an index", p.trim()))?
            as u32;
    }
    Ok(id)
}
