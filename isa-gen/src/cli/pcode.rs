//! `isa-gen pcode report` and `isa-gen pcode show`: AMD's pseudocode, classified and typed.

use crate::pcode::corpus::{load_file, Class, Corpus, Entry, GenerationCorpus, TrailingProse};
use crate::pcode::{pretty, report, Diag};
use crate::specdir::{self, list_files, Source, SpecDir};
use crate::Generation;
use clap::Subcommand;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, Subcommand)]
pub enum PcodeCommand {
    /// Per-generation coverage: entries typed, parsed, prose, failed; helpers; what is left.
    Report {
        /// Only this generation (rdna2, rdna3_5, rdna4, cdna4, ...).
        #[arg(long)]
        arch: Option<Generation>,
        /// Print the report as JSON (fields documented in spec/pcode/README.md).
        #[arg(long)]
        json: bool,
        /// Read `<generation>.pcode` files from this directory instead of the usual places
        /// ($AMD_ISA_PCODE_DIR, spec/pcode/, ../shared/spec-data/pcode, the project's samples).
        #[arg(long)]
        dir: Option<PathBuf>,
    },
    /// The typed IR of one entry (or its AST, or why it is prose or failed).
    Show {
        #[arg(long)]
        arch: Generation,
        /// The instruction mnemonic, as in the file (`V_ADD_F32`).
        name: String,
        /// Print the syntax tree instead of the typed IR.
        #[arg(long)]
        ast: bool,
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
        #[arg(long)]
        dir: Option<PathBuf>,
    },
}

pub fn run(cmd: PcodeCommand) -> ExitCode {
    match cmd {
        PcodeCommand::Report { arch, json, dir } => report_cmd(arch, json, dir),
        PcodeCommand::Show {
            arch,
            name,
            ast,
            json,
            dir,
        } => show_cmd(arch, &name, ast, json, dir),
    }
}

fn pick_dir(dir: Option<PathBuf>) -> SpecDir {
    match dir {
        Some(path) => SpecDir::single(path, Source::Explicit),
        None => specdir::pcode_dir(),
    }
}

fn source_name(s: Source) -> &'static str {
    match s {
        Source::Environment => "environment",
        Source::UserDrop => "user_drop",
        Source::Shared => "shared",
        Source::Fixture => "fixture",
        Source::Explicit => "explicit",
    }
}

/// Loads every file of `dir`, or only `arch`'s.
fn load(dir: &Path, arch: Option<Generation>) -> Result<Corpus, String> {
    let files =
        list_files(dir, "pcode").map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut generations: Vec<GenerationCorpus> = Vec::new();
    for (path, generation) in files {
        if arch.is_some() && generation != arch {
            continue;
        }
        generations.push(
            load_file(&path, generation)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
        );
    }
    if let (Some(a), true) = (arch, generations.is_empty()) {
        return Err(format!("no {}.pcode in {}", a.name(), dir.display()));
    }
    if generations.is_empty() {
        return Err(format!("no .pcode files in {}", dir.display()));
    }
    Ok(Corpus {
        dir: dir.to_path_buf(),
        generations,
    })
}

fn report_cmd(arch: Option<Generation>, json: bool, dir: Option<PathBuf>) -> ExitCode {
    let spec = pick_dir(dir);
    let corpus = match load(&spec.path, arch) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("isa-gen pcode report: {e}");
            return ExitCode::from(2);
        }
    };
    let mut r = report::build(&corpus, source_name(spec.source));
    // Entries that do not parse count as failed unless the override layer accounts for them.
    crate::emit::executors::source::account_overrides(&mut r);
    let text = if json {
        match serde_json::to_string_pretty(&r) {
            Ok(s) => s + "\n",
            Err(e) => {
                eprintln!("isa-gen pcode report: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        report::render_text(&r)
    };
    emit("report", &text)
}

/// Writes to standard output; a closed pipe (`| head`) ends the output quietly.
fn emit(command: &str, text: &str) -> ExitCode {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("isa-gen pcode {command}: cannot write the output: {e}");
            ExitCode::from(2)
        }
    }
}

/// `show --json`: the entry, its class and its IR or AST.
#[derive(Serialize)]
struct ShowJson<'a> {
    generation: Option<Generation>,
    family: &'a str,
    name: &'a str,
    header_line: u32,
    class: &'static str,
    trailing: &'a Option<TrailingProse>,
    diagnostics: Vec<&'a Diag>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ir: Option<&'a crate::pcode::ir::Ir>,
    #[serde(skip_serializing_if = "Option::is_none")]
    ast: Option<crate::pcode::ast::Ast>,
    #[serde(skip_serializing_if = "Option::is_none")]
    prose: Option<String>,
}

fn show_cmd(
    arch: Generation,
    name: &str,
    want_ast: bool,
    json: bool,
    dir: Option<PathBuf>,
) -> ExitCode {
    let spec = pick_dir(dir);
    let corpus = match load(&spec.path, Some(arch)) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("isa-gen pcode show: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(g) = corpus.generations.first() else {
        return ExitCode::from(2);
    };
    let found = report::find(g, name);
    if found.is_empty() {
        eprintln!(
            "isa-gen pcode show: no entry `{name}` in {}",
            g.file.display()
        );
        return ExitCode::from(1);
    }
    let text = if json {
        // Always an array: a mnemonic may have an entry in several encoding families.
        let all: Vec<ShowJson<'_>> = found.iter().map(|e| show_json(e, want_ast)).collect();
        match serde_json::to_string_pretty(&all) {
            Ok(s) => s + "\n",
            Err(err) => {
                eprintln!("isa-gen pcode show: {err}");
                return ExitCode::from(2);
            }
        }
    } else {
        found.iter().map(|e| show_text(g, e, want_ast)).collect()
    };
    emit("show", &text)
}

fn show_json(e: &Entry, want_ast: bool) -> ShowJson<'_> {
    let mut j = ShowJson {
        generation: e.generation,
        family: &e.family,
        name: &e.name,
        header_line: e.header_line,
        class: e.class.label(),
        trailing: &e.trailing,
        diagnostics: Vec::new(),
        ir: None,
        ast: None,
        prose: None,
    };
    if want_ast {
        j.ast = e.ast();
    }
    match &e.class {
        Class::Typed { ir, warnings } => {
            j.diagnostics = warnings.iter().collect();
            if !want_ast {
                j.ir = Some(ir);
            }
        }
        Class::Parsed { errors, .. } => {
            j.diagnostics = errors.iter().collect();
            j.ast = e.ast();
        }
        Class::Prose { kind, text, .. } => j.prose = Some(format!("{}: {text}", kind.name())),
        Class::Failed { error, .. } => j.diagnostics = vec![error],
    }
    j
}

fn show_text(g: &GenerationCorpus, e: &Entry, want_ast: bool) -> String {
    let file = g
        .file
        .file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = format!(
        "{file}:{}: {} {} ({})\n",
        e.header_line,
        e.family,
        e.name,
        e.class.label()
    );
    for (i, line) in e.text.lines().enumerate() {
        out.push_str(&format!("{:>5} | {line}\n", e.text_line as usize + i));
    }
    if let Some(t) = &e.trailing {
        out.push_str(&format!(
            "(lines {}-{} are {} and were left out)\n",
            t.first_line,
            t.last_line,
            t.kind.name()
        ));
    }
    out.push_str("----\n");
    if want_ast {
        match e.ast() {
            Some(a) => out.push_str(&format!("{a}\n")),
            None => out.push_str("(no syntax tree)\n"),
        }
    }
    match &e.class {
        Class::Typed { ir, warnings } => {
            if !want_ast {
                out.push_str(&pretty::render(ir));
            }
            for w in warnings {
                out.push_str(&format!("{file}:{w}\n"));
            }
        }
        Class::Parsed { errors, ast } => {
            if !want_ast {
                out.push_str(&format!("{ast}\n"));
            }
            for d in errors {
                out.push_str(&format!("{file}:{d} (`{}`)\n", d.found));
            }
        }
        Class::Prose { kind, line, text } => {
            out.push_str(&format!("{file}:{line}: prose ({}): {text}\n", kind.name()));
        }
        Class::Failed { error, cause } => {
            out.push_str(&format!("{file}:{error} [{}]\n", cause.name()));
            if !error.expected.is_empty() {
                out.push_str(&format!(
                    "  expected: {}\n  found: {}\n",
                    error.expected.join(", "),
                    error.found
                ));
            }
        }
    }
    out
}
