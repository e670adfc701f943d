//! `amdisa`: disassemble and assemble AMD GPU machine code with the generated tables.
//!
//! ```text
//! amdisa disasm --arch rdna3 be801d80 bf810000
//! amdisa disasm --arch cdna3 --file kernel.bin --json
//! echo 's_wqm_b64 s[0:1], 0' | amdisa asm --arch rdna3
//! amdisa run --arch rdna3 kernel.s --buffer a:1000:f32=iota --arg a --grid 4 --workgroup 256
//! ```

#[path = "amdisa/launch.rs"]
mod launch;
#[path = "amdisa/report.rs"]
mod report;
use clap::{Parser, Subcommand};
use isa_runtime::{assemble_listing, decode_stream, disassemble, IsaSpec};
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
    /// Disassemble 32-bit words given in hex (little-endian in memory) or a binary file.
    Disasm {
        #[arg(long)]
        arch: String,
        /// A raw code file instead of words.
        #[arg(long)]
        file: Option<PathBuf>,
        #[arg(long)]
        json: bool,
        /// Hex words (`be801d80` or `0xbe801d80`).
        words: Vec<String>,
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
    /// Generation (`amdisa specs` lists them; add --fixtures for the fixture specs).
    #[arg(long)]
    arch: String,
    /// The kernel: assembly in LLVM syntax, one instruction per line, with `label:` lines
    /// (branch operands may name a label), `.long 0x...` raw words, `//` or `;` comments.
    /// A `.bin` file (or any file with --binary) is raw machine code.
    file: PathBuf,
    /// Read FILE as raw machine code whatever its name.
    #[arg(long)]
    binary: bool,
    /// Allocate a buffer of 32-bit elements: NAME:COUNT[:TYPE][=INIT]. TYPE is u32 (default),
    /// i32 or f32. INIT is zero (default), iota (0, 1, 2, ...), fill:V, random[:SEED] or a
    /// list V,V,... (the first elements, the rest zero). Repeat for more buffers.
    #[arg(long = "buffer", value_name = "NAME:COUNT[:TYPE][=INIT]")]
    buffers: Vec<String>,
    /// A kernel argument, in the order the kernel reads them from s[0:1], each aligned to its
    /// size: a buffer NAME (its 64-bit address), an integer (32 bits), or u32:N, i32:N, u64:N,
    /// f32:X. Repeat for more arguments.
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
    let spec = spec_for(&cli.arch, fixtures)?;
    let name = cli.file.display().to_string();
    let raw = cli.binary || cli.file.extension().is_some_and(|e| e == "bin");
    let code = if raw {
        std::fs::read(&cli.file).map_err(|e| format!("{name}: {e}"))?
    } else {
        let text = std::fs::read_to_string(&cli.file).map_err(|e| format!("{name}: {e}"))?;
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
    let workgroup = match &cli.workgroup {
        Some(w) => launch::parse_dims("workgroup size", w)?,
        None => [if spec.wave64 { 64 } else { 32 }, 1, 1],
    };
    let setup = launch::Launch {
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
    };
    let program = Program::load(spec, &code, 0, &table);
    let used = launch::registers_used(&program);
    let threads = match cli.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    };
    let result = if cli.trace {
        if threads > 1 {
            return Err("--trace runs on one thread: drop --threads".into());
        }
        let mut stdout = std::io::stdout().lock();
        let mut tracer = report::TraceWriter::new(&mut stdout);
        launch::run(&program, &setup, Some(&mut tracer))
    } else if threads > 1 {
        launch::run_threads(&program, &setup, threads)
    } else {
        launch::run(&program, &setup, None)
    };
    let outcome = result.map_err(|e| e.to_string())?;
    out(&format!(
        "{}: {} bytes on {} ({}): {} workgroups, {} waves, {} instructions; kernel arguments at {:#x}",
        name,
        code.len(),
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
        out(report::buffer_text(&outcome, b, cli.print_limit).trim_end());
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

fn disasm(
    arch: &str,
    fixtures: bool,
    file: Option<PathBuf>,
    json: bool,
    words: &[String],
) -> Result<bool, String> {
    let spec = spec_for(arch, fixtures)?;
    let bytes = match file {
        Some(p) => std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display()))?,
        None => {
            let mut b = Vec::new();
            for (k, w) in words.iter().enumerate() {
                let t = w
                    .trim_start_matches("0x")
                    .trim_start_matches("0X")
                    .replace('_', "");
                let v = u32::from_str_radix(&t, 16)
                    .map_err(|_| format!("argument {}: `{w}` is not a 32-bit hex word", k + 1))?;
                b.extend_from_slice(&v.to_le_bytes());
            }
            b
        }
    };
    let mut ok = true;
    for entry in decode_stream(spec, &bytes) {
        match entry.result {
            Ok(ins) => {
                let text = disassemble(&ins);
                let enc = ins.encode();
                if json {
                    out(&serde_json::json!({"offset": entry.offset, "bytes": hex(&enc), "text": text, "instruction": ins.info().name, "encoding": ins.encoding().name}).to_string());
                } else {
                    out(&format!("{:08x}: {:<36} {}", entry.offset, hex(&enc), text));
                }
            }
            Err(e) => {
                ok = false;
                if json {
                    out(
                        &serde_json::json!({"offset": entry.offset, "error": e.to_string()})
                            .to_string(),
                    );
                } else {
                    out(&format!("{:08x}: error: {e}", entry.offset));
                }
            }
        }
    }
    Ok(ok)
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
            words,
        } => disasm(&arch, fixtures, file, json, &words),
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
