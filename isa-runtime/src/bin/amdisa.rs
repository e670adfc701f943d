//! `amdisa`: disassemble and assemble AMD GPU machine code with the generated tables.
//!
//! ```text
//! amdisa disasm --arch rdna3 be801d80 bf810000
//! amdisa disasm --arch cdna3 --file kernel.bin --json
//! amdisa disasm kernel.hsaco
//! amdisa info kernel.hsaco --json
//! echo 's_wqm_b64 s[0:1], 0' | amdisa asm --arch rdna3
//! amdisa run --arch rdna3 kernel.s --buffer a:1000:f32=iota --arg a --grid 4 --workgroup 256
//! ```

#[path = "amdisa/info.rs"]
mod info;
#[path = "amdisa/kernel.rs"]
mod kernel;
#[path = "amdisa/launch.rs"]
mod launch;
#[path = "amdisa/listing.rs"]
mod listing;
#[path = "amdisa/report.rs"]
mod report;
use clap::{Parser, Subcommand};
use isa_runtime::codeobj::{is_elf, CodeObject};
use isa_runtime::{assemble_listing, disassemble, IsaSpec};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "amdisa",
    version,
    about = "Disassemble and assemble AMD GPU machine code (LLVM syntax)"
)]
struct Cli {
    /// Use the project's fixture specs (spec/fixtures/xml) instead of the specs built in from
    /// the spec directory (needs a build with `--features cli,fixtures`).
    #[arg(long, global = true)]
    fixtures: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Disassemble a code object (`amdisa disasm kernel.hsaco`: every executable section,
    /// symbol by symbol, as llvm-objdump -d lists it), 32-bit words given in hex
    /// (little-endian in memory) or a raw code file.
    Disasm {
        /// Generation; a code object's own (from its ELF header) when absent.
        #[arg(long)]
        arch: Option<String>,
        /// A raw code file instead of words (an ELF file is read as a code object).
        #[arg(long)]
        file: Option<PathBuf>,
        /// One JSON object per instruction: address, bytes, text, symbol (error when
        /// undecodable).
        #[arg(long)]
        json: bool,
        /// Disassemble every instruction anew instead of reusing the text of an encoding
        /// seen before (for measuring the disassembler itself).
        #[arg(long)]
        no_cache: bool,
        /// A code object file, or hex words (`be801d80` or `0xbe801d80`).
        words: Vec<String>,
    },
    /// Describe a code object: target, and per kernel the descriptor (segment sizes,
    /// COMPUTE_PGM_RSRC1/2/3, enabled SGPR/VGPR inputs, wave size, float mode) and the
    /// metadata note's arguments.
    Info {
        file: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Assemble a file (or standard input), one instruction per line.
    Asm {
        #[arg(long)]
        arch: String,
        file: Option<PathBuf>,
        #[arg(long)]
        json: bool,
    },
    /// Run a kernel on the emulator and print the final registers of one wave and the buffers.
    Run(RunArgs),
    /// List the generations compiled in and the spec each came from.
    Specs,
    /// Robustness: decode N random words (default 10 million) and check the decoder never
    /// panics and that every decoded instruction re-encodes to its bytes.
    Fuzz {
        #[arg(long)]
        arch: Option<String>,
        #[arg(long, default_value_t = 10_000_000)]
        words: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

/// The specs `--fixtures` selects: the fixture specs or the ones built from the spec directory.
fn available_specs(fixtures: bool) -> Result<Vec<&'static IsaSpec>, String> {
    if !fixtures {
        return Ok(isa_runtime::specs());
    }
    #[cfg(feature = "fixtures")]
    return Ok(isa_runtime::fixtures::specs());
    #[cfg(not(feature = "fixtures"))]
    Err(
        "--fixtures needs the fixture specs compiled in: build with `--features cli,fixtures`"
            .into(),
    )
}

/// `amdisa run`: the kernel, its memory set-up, the launch and what to print.
#[derive(clap::Args)]
#[command(after_help = RUN_EXAMPLE)]
struct RunArgs {
    /// Generation (`amdisa specs` lists them; add --fixtures for the fixture specs); a code
    /// object's own when absent.
    #[arg(long)]
    arch: Option<String>,
    /// The kernel: a code object (ELF: `.hsaco`, `.o`; launched from its descriptor and
    /// metadata), or assembly in LLVM syntax, one instruction per line, with `label:` lines
    /// (branch operands may name a label), `.long 0x...` raw words, `//` or `;` comments.
    /// A `.bin` file (or any file with --binary) is raw machine code.
    file: PathBuf,
    /// The kernel of a code object to run (may be left out when it has only one).
    #[arg(long)]
    kernel: Option<String>,
    /// Print `{"buffers": {NAME: [...]}, "stats": {...}}` instead of text.
    #[arg(long)]
    json: bool,
    /// Read FILE as raw machine code whatever its name.
    #[arg(long)]
    binary: bool,
    /// Allocate a buffer: NAME:COUNT[:TYPE][=INIT]. TYPE is u32 (default), i32, f32, u8,
    /// u16, u64, i64, f16 or f64. INIT is zero (default), iota (0, 1, 2, ...), fill:V, random[:SEED] or a
    /// list V,V,... (the first elements, the rest zero). Repeat for more buffers.
    #[arg(long = "buffer", value_name = "NAME:COUNT[:TYPE][=INIT]")]
    buffers: Vec<String>,
    /// A kernel argument, in declaration order: a buffer NAME (its 64-bit address), an
    /// integer, or TYPE:VALUE (u32:N, i32:N, u64:N, i64:N, u8:N, u16:N, f16:X, f32:X, f64:X).
    /// A code object's go at the offsets and sizes of its metadata; an assembly kernel's
    /// follow each other from s[0:1], each aligned to its size (integers 32 bits).
    #[arg(long = "arg", value_name = "VALUE", allow_hyphen_values = true)]
    args: Vec<String>,
    /// Workgroups in the grid: X[,Y[,Z]].
    #[arg(long, default_value = "1", value_name = "X[,Y,Z]")]
    grid: String,
    /// Work-items per workgroup: X[,Y[,Z]] (default: one wave).
    #[arg(long, value_name = "X[,Y,Z]")]
    workgroup: Option<String>,
    /// Print the final registers of this workgroup's wave (see --wave).
    #[arg(long, default_value = "0", value_name = "X[,Y,Z]")]
    group: String,
    /// Which wave of that workgroup to print.
    #[arg(long, default_value_t = 0)]
    wave: u32,
    /// How many VGPRs to print (default: those the kernel names).
    #[arg(long)]
    vgprs: Option<u32>,
    /// Elements of each buffer to print.
    #[arg(long, default_value_t = 64)]
    print_limit: usize,
    /// Print one line per executed instruction: workgroup and wave, pc, instruction, and the
    /// registers it changed.
    #[arg(long)]
    trace: bool,
    /// Instructions one wave may run before the run stops (endless loops).
    #[arg(long, default_value_t = 10_000_000)]
    max_steps: u64,
    /// Run workgroups on N threads at once (0: one per core). Global memory is shared;
    /// atomics are indivisible. --trace runs on one thread.
    #[arg(long, default_value_t = 1, value_name = "N")]
    threads: usize,
}

const RUN_EXAMPLE: &str =
    "Example (vector add of 1000 floats, 4 workgroups of 256; the last wave has 40 lanes):
  amdisa --fixtures run --arch cdna3 isa-tests/kernels/vector_add.gfx9.s \\
    --buffer a:1000:f32=iota --buffer b:1000:f32=random --buffer out:1000:f32 \\
    --arg a --arg b --arg out --arg 1000 --grid 4 --workgroup 256 --group 3 --wave 3";

fn run(cli: &RunArgs, fixtures: bool) -> Result<bool, String> {
    use isa_runtime::exec::dispatch::Program;
    let name = cli.file.display().to_string();
    let bytes = std::fs::read(&cli.file).map_err(|e| format!("{name}: {e}"))?;
    let setup_for = |spec: &IsaSpec| -> Result<launch::Launch, String> {
        let workgroup = match &cli.workgroup {
            Some(w) => launch::parse_dims("workgroup size", w)?,
            None => [if spec.wave64 { 64 } else { 32 }, 1, 1],
        };
        Ok(launch::Launch {
            buffers: cli
                .buffers
                .iter()
                .map(|b| launch::BufferSpec::parse(b))
                .collect::<Result<_, _>>()?,
            args: cli
                .args
                .iter()
                .map(|a| launch::Arg::parse(a))
                .collect::<Result<_, _>>()?,
            grid: launch::parse_dims("grid", &cli.grid)?,
            workgroup,
            watch: Some(launch::WaveId {
                group: launch::parse_group_id(&cli.group)?,
                wave: cli.wave,
            }),
            max_steps: cli.max_steps,
        })
    };
    let threads = match cli.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    if cli.trace && threads > 1 {
        return Err("--trace runs on one thread: drop --threads".into());
    }
    let mut stdout = std::io::stdout().lock();
    let mut tracer = report::TraceWriter::new(&mut stdout);
    let tracer: Option<&mut dyn isa_runtime::exec::dispatch::Tracer> =
        if cli.trace { Some(&mut tracer) } else { None };

    if is_elf(&bytes) && !cli.binary {
        let code = CodeObject::parse(&bytes).map_err(|e| format!("{name}: {e}"))?;
        let spec = code_object_spec(&code, cli.arch.as_deref(), fixtures)?;
        let kernel = match (&cli.kernel, code.kernels.as_slice()) {
            (Some(k), _) => code.kernel(k),
            (None, [only]) => Ok(only),
            (None, _) => code
                .kernel("")
                .map_err(|e| e.replace("no kernel ``", "--kernel NAME is needed")),
        }
        .map_err(|e| format!("{name}: {e}"))?;
        let setup = setup_for(spec)?;
        let (outcome, program) = kernel::run(spec, &code, kernel, &setup, threads, tracer)
            .map_err(|e| format!("{name}: {e}"))?;
        let what = format!("{name}: kernel {}", kernel.name);
        return report_run(cli, &what, spec, &program, &outcome);
    }
    let arch = cli
        .arch
        .as_deref()
        .ok_or_else(|| format!("{name}: --arch is needed (it is not a code object)"))?;
    let spec = spec_for(arch, fixtures)?;
    let raw = cli.binary || cli.file.extension().is_some_and(|e| e == "bin");
    let code = if raw {
        bytes
    } else {
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{name}: not UTF-8 text (use --binary for machine code)"))?;
        match isa_runtime::assemble(spec, &text) {
            Ok(code) => code,
            Err(errors) => {
                for e in &errors {
                    eprintln!("{name}:{}:{}: error: {}", e.line, e.column, e.message);
                }
                return Err(format!("{name}: {} assembly error(s)", errors.len()));
            }
        }
    };
    if code.is_empty() {
        return Err(format!("{name}: no instructions"));
    }
    let table = launch::executor_table(spec)?;
    let setup = setup_for(spec)?;
    let program = Program::load(spec, &code, 0, &table);
    let outcome = if threads > 1 {
        launch::run_threads(&program, &setup, threads)
    } else {
        launch::run(&program, &setup, tracer)
    }
    .map_err(|e| e.to_string())?;
    let what = format!("{name}: {} bytes", code.len());
    report_run(cli, &what, spec, &program, &outcome)
}

/// A buffer element as JSON: a number (NaN and infinities as strings).
fn element_json(ty: launch::ElemType, bits: u64) -> serde_json::Value {
    use launch::ElemType as T;
    let float = |v: f64| {
        serde_json::Number::from_f64(v)
            .map(serde_json::Value::Number)
            .unwrap_or_else(|| serde_json::Value::String(format!("{v:?}")))
    };
    match ty {
        T::I32 => (bits as u32 as i32).into(),
        T::I64 => (bits as i64).into(),
        T::F16 => float(launch::f16_to_f64(bits as u16)),
        T::F32 => float(f32::from_bits(bits as u32) as f64),
        T::F64 => float(f64::from_bits(bits)),
        _ => bits.into(),
    }
}

/// Prints what a run left: the watched wave and the buffers (text), or `--json`.
fn report_run(
    cli: &RunArgs,
    what: &str,
    spec: &IsaSpec,
    program: &isa_runtime::exec::dispatch::Program,
    outcome: &launch::Outcome,
) -> Result<bool, String> {
    if cli.json {
        let mut buffers = serde_json::Map::new();
        for b in &outcome.buffers {
            let values = outcome.elements(&b.name).unwrap_or_default();
            let json: Vec<serde_json::Value> =
                values.iter().map(|&v| element_json(b.ty, v)).collect();
            buffers.insert(b.name.clone(), json.into());
        }
        out(&serde_json::json!({
            "buffers": buffers,
            "stats": {
                "workgroups": outcome.stats.workgroups,
                "waves": outcome.stats.waves,
                "instructions": outcome.stats.instructions,
            },
        })
        .to_string());
        return Ok(true);
    }
    let used = launch::registers_used(program);
    out(&format!(
        "{what} on {} ({}): {} workgroups, {} waves, {} instructions; kernel arguments at {:#x}",
        spec.generation,
        if spec.wave64 { "wave64" } else { "wave32" },
        outcome.stats.workgroups,
        outcome.stats.waves,
        outcome.stats.instructions,
        outcome.kernarg
    ));
    match &outcome.watched {
        Some(w) => {
            out(report::wave_text(w, used.sgprs.max(2), cli.vgprs.unwrap_or(used.vgprs)).trim_end())
        }
        None => out(&format!(
            "(no wave {} in workgroup {}: nothing to print)",
            cli.wave, cli.group
        )),
    }
    for b in &outcome.buffers {
        out(report::buffer_text(outcome, b, cli.print_limit).trim_end());
    }
    Ok(true)
}

fn spec_for(arch: &str, fixtures: bool) -> Result<&'static IsaSpec, String> {
    let specs = available_specs(fixtures)?;
    specs
        .iter()
        .copied()
        .find(|s| s.generation == arch)
        .ok_or_else(|| {
            let have: Vec<&str> = specs.iter().map(|s| s.generation).collect();
            format!(
                "no spec for `{arch}` in this build (have: {})",
                have.join(", ")
            )
        })
}

fn hex(b: &[u8]) -> String {
    b.iter()
        .map(|x| format!("{x:02x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes a line; a closed stdout ends the program quietly.
fn out(line: &str) {
    if writeln!(std::io::stdout().lock(), "{line}").is_err() {
        std::process::exit(0);
    }
}

/// The spec of a code object's generation, or of `--arch` when given.
fn code_object_spec(
    code: &CodeObject,
    arch: Option<&str>,
    fixtures: bool,
) -> Result<&'static IsaSpec, String> {
    spec_for(arch.unwrap_or(code.target.generation), fixtures)
}

fn read_code_object(path: &std::path::Path) -> Result<(String, CodeObject), String> {
    let name = path.display().to_string();
    Ok((name, CodeObject::read(path)?))
}

/// `amdisa disasm`'s options.
struct DisasmArgs<'a> {
    arch: Option<&'a str>,
    file: Option<PathBuf>,
    json: bool,
    no_cache: bool,
    words: &'a [String],
}

fn disasm(a: DisasmArgs, fixtures: bool) -> Result<bool, String> {
    let DisasmArgs {
        arch,
        file,
        json,
        no_cache,
        words,
    } = a;
    use listing::{Listing, Style};
    // A single argument naming a file is a code object (or a raw file given without --file).
    let file = match (file, words) {
        (Some(f), []) => Some(f),
        (Some(_), _) => return Err("give either --file or hex words, not both".into()),
        (None, [one]) if std::path::Path::new(one).is_file() => Some(PathBuf::from(one)),
        (None, _) => None,
    };
    let stdout = std::io::stdout().lock();
    let broken_pipe = |e: std::io::Error| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0)
        }
        e.to_string()
    };
    let bytes = match &file {
        Some(p) => std::fs::read(p).map_err(|e| format!("{}: {e}", p.display()))?,
        None => {
            let mut b = Vec::new();
            for (k, w) in words.iter().enumerate() {
                let t = w
                    .trim_start_matches("0x")
                    .trim_start_matches("0X")
                    .replace('_', "");
                let v = u32::from_str_radix(&t, 16).map_err(|_| {
                    format!(
                        "argument {}: `{w}` is not a 32-bit hex word nor a file",
                        k + 1
                    )
                })?;
                b.extend_from_slice(&v.to_le_bytes());
            }
            b
        }
    };
    if let Some(p) = file.as_ref().filter(|_| is_elf(&bytes)) {
        let name = p.display().to_string();
        let code = CodeObject::parse(&bytes).map_err(|e| format!("{name}: {e}"))?;
        let spec = code_object_spec(&code, arch, fixtures)?;
        let style = if json { Style::Json } else { Style::Objdump };
        let mut l = Listing::new(stdout, style);
        if no_cache {
            l = l.without_cache();
        }
        listing::code_object(&mut l, &name, &code, spec).map_err(broken_pipe)?;
        let ok = l.ok;
        l.finish().map_err(broken_pipe)?;
        return Ok(ok);
    }
    let arch = arch.ok_or("--arch is needed for raw code (a code object names its own target)")?;
    let spec = spec_for(arch, fixtures)?;
    let mut l = Listing::new(stdout, if json { Style::Json } else { Style::Raw });
    if no_cache {
        l = l.without_cache();
    }
    l.code(spec, &bytes, 0, None).map_err(broken_pipe)?;
    let ok = l.ok;
    l.finish().map_err(broken_pipe)?;
    Ok(ok)
}

fn info(file: &std::path::Path, json: bool) -> Result<bool, String> {
    let (name, code) = read_code_object(file)?;
    if json {
        out(&info::json(&name, &code).to_string());
    } else {
        out(info::text(&name, &code).trim_end());
    }
    Ok(true)
}

fn asm(arch: &str, fixtures: bool, file: Option<PathBuf>, json: bool) -> Result<bool, String> {
    let spec = spec_for(arch, fixtures)?;
    let mut text = String::new();
    match file {
        Some(p) => {
            text = std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display()))?
        }
        None => {
            std::io::stdin()
                .read_to_string(&mut text)
                .map_err(|e| e.to_string())?;
        }
    }
    // Every line that assembles is listed (with labels resolved), then every error.
    let (lines, errors) = assemble_listing(spec, &text);
    for l in &lines {
        if json {
            out(&serde_json::json!({"line": l.line, "address": l.address, "text": l.text, "bytes": hex(&l.bytes)})
                .to_string());
        } else {
            out(&format!("{:<48} ; {}", l.text, hex(&l.bytes)));
        }
    }
    for e in &errors {
        if json {
            out(
                &serde_json::json!({"line": e.line, "column": e.column, "error": e.message})
                    .to_string(),
            );
        } else {
            eprintln!("{}:{}: error: {}", e.line, e.column, e.message);
        }
    }
    let ok = errors.is_empty();
    Ok(ok)
}

/// SplitMix64: deterministic random words.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

fn fuzz(arch: Option<&str>, fixtures: bool, words: u64, seed: u64) -> Result<bool, String> {
    let specs: Vec<&'static IsaSpec> = match arch {
        Some(a) => vec![spec_for(a, fixtures)?],
        None => available_specs(fixtures)?,
    };
    let mut all_ok = true;
    for spec in specs {
        let mut state = seed;
        // Each case is one random dword followed by three more, so literal and 64/96-bit
        // encodings see real following bytes; the cases are decoded from one buffer.
        let mut buf = vec![0u8; 16 * 4096];
        let (mut decoded, mut errors, mut roundtrip_failures, mut text_bytes) =
            (0u64, 0u64, 0u64, 0usize);
        let start = std::time::Instant::now();
        let mut done = 0u64;
        while done < words {
            for chunk in buf.chunks_mut(8) {
                chunk.copy_from_slice(&splitmix(&mut state).to_le_bytes());
            }
            let n = (words - done).min(4096);
            for k in 0..n as usize {
                let at = k * 4;
                let result = std::panic::catch_unwind(|| isa_runtime::decode(spec, &buf[at..]));
                match result {
                    Ok(Ok((ins, len))) => {
                        decoded += 1;
                        if ins.encode() != buf[at..at + len] {
                            roundtrip_failures += 1;
                        }
                        if decoded % 64 == 0 {
                            text_bytes += disassemble(&ins).len();
                        }
                    }
                    Ok(Err(_)) => errors += 1,
                    Err(_) => {
                        return Err(format!(
                            "{}: the decoder panicked on {}",
                            spec.generation,
                            hex(&buf[at..at + 16])
                        ))
                    }
                }
            }
            done += n;
        }
        let secs = start.elapsed().as_secs_f64();
        let ok = roundtrip_failures == 0;
        all_ok &= ok;
        out(&format!(
            "{:<8} {} words: {} decoded, {} rejected with an error, {} round-trip failures, 0 panics, {:.1} M words/s (with re-encoding checks; {} bytes of text sampled)",
            spec.generation,
            words,
            decoded,
            errors,
            roundtrip_failures,
            words as f64 / secs / 1e6,
            text_bytes
        ));
    }
    Ok(all_ok)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let fixtures = cli.fixtures;
    let result = match cli.command {
        Command::Disasm {
            arch,
            file,
            json,
            no_cache,
            words,
        } => disasm(
            DisasmArgs {
                arch: arch.as_deref(),
                file,
                json,
                no_cache,
                words: &words,
            },
            fixtures,
        ),
        Command::Info { file, json } => info(&file, json),
        Command::Asm { arch, file, json } => asm(&arch, fixtures, file, json),
        Command::Run(args) => run(&args, fixtures),
        Command::Fuzz { arch, words, seed } => fuzz(arch.as_deref(), fixtures, words, seed),
        Command::Specs => available_specs(fixtures).map(|specs| {
            for s in specs {
                out(&format!(
                    "{:<8} {:<8} {} (release {}, schema {}), {} instructions, {} forms",
                    s.generation,
                    s.llvm_mcpu,
                    s.source_file,
                    s.release_date,
                    s.schema_version,
                    s.instructions.len(),
                    s.forms.len()
                ));
            }
            true
        }),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("amdisa: {e}");
            ExitCode::from(2)
        }
    }
}
