//! `amdisa`: disassemble and assemble AMD GPU machine code with the generated tables.
//!
//! ```text
//! amdisa disasm --arch rdna3 be801d80 bf810000
//! amdisa disasm --arch cdna3 --file kernel.bin --json
//! echo 's_wqm_b64 s[0:1], 0' | amdisa asm --arch rdna3
//! ```

use clap::{Parser, Subcommand};
use isa_runtime::{assemble_instruction, decode_stream, disassemble, IsaSpec};
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

fn spec_for(arch: &str) -> Result<&'static IsaSpec, String> {
    isa_runtime::spec(arch).ok_or_else(|| {
        let have: Vec<&str> = isa_runtime::specs().iter().map(|s| s.generation).collect();
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

fn disasm(arch: &str, file: Option<PathBuf>, json: bool, words: &[String]) -> Result<bool, String> {
    let spec = spec_for(arch)?;
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

fn asm(arch: &str, file: Option<PathBuf>, json: bool) -> Result<bool, String> {
    let spec = spec_for(arch)?;
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
    let mut ok = true;
    for (n, line) in text.lines().enumerate() {
        let code = line
            .split("//")
            .next()
            .unwrap_or("")
            .split(';')
            .next()
            .unwrap_or("");
        if code.trim().is_empty() {
            continue;
        }
        match assemble_instruction(spec, code) {
            Ok(ins) => {
                let b = ins.encode();
                if json {
                    out(
                        &serde_json::json!({"line": n + 1, "text": code.trim(), "bytes": hex(&b)})
                            .to_string(),
                    );
                } else {
                    out(&format!("{:<48} ; {}", code.trim(), hex(&b)));
                }
            }
            Err(e) => {
                ok = false;
                let col = e.column;
                if json {
                    out(
                        &serde_json::json!({"line": n + 1, "column": col, "error": e.message})
                            .to_string(),
                    );
                } else {
                    eprintln!("{}:{}: error: {}", n + 1, col, e.message);
                }
            }
        }
    }
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

fn fuzz(arch: Option<&str>, words: u64, seed: u64) -> Result<bool, String> {
    let specs: Vec<&'static IsaSpec> = match arch {
        Some(a) => vec![spec_for(a)?],
        None => isa_runtime::specs(),
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
    let result = match cli.command {
        Command::Disasm {
            arch,
            file,
            json,
            words,
        } => disasm(&arch, file, json, &words),
        Command::Asm { arch, file, json } => asm(&arch, file, json),
        Command::Fuzz { arch, words, seed } => fuzz(arch.as_deref(), words, seed),
        Command::Specs => {
            for s in isa_runtime::specs() {
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
            Ok(true)
        }
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
