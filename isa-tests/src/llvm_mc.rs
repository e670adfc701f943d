//! LLVM's `llvm-mc` as the reference disassembler and assembler (the "oracle").
//!
//! The conformance tests compare the project's generated disassembler/assembler with LLVM. This module
//! runs `llvm-mc` in batches (one process per few thousand cases, never one per case: a start costs
//! about 20 ms) and maps what it prints back to the individual cases.
//!
//! # Facts about the oracle (checked with Debian's llvm-22, 22.1.8)
//!
//! - The `llvm-mc` on `PATH` may be an old release; we use `$LLVM_MC`, else `llvm-mc-22`, else
//!   `llvm-mc`, and insist on major version 22 or newer.
//! - An unknown `-mcpu` or `-mattr` only prints a warning (`'gfx9999' is not a recognized processor for
//!   this target (ignoring processor)`) and carries on with a generic target. [`LlvmMc::check_target`]
//!   turns that warning into an error; every batch calls it once per generation.
//! - True16: gfx1100/gfx1150 print 16-bit register halves (`v1.l`, `v1.h`) by default; gfx1200 and
//!   gfx1250 only with `-mattr=+real-true16` (without it they print `v130` plus an "Invalid register"
//!   comment). We pass `+real-true16` for every generation that has True16 so all print alike.
//! - Disassembly input: bare byte lines (`0x00,0x00,0x80,0xbf`) are joined into one byte stream, so
//!   an instruction that needs a literal swallows the next line. A bracketed line (`[0x..,...]`) is
//!   an *atomic block*: it is decoded on its own, never joined with its neighbours. Inside a block:
//!   - an invalid encoding prints `<stdin>:LINE:COL: warning: invalid instruction encoding` on stderr,
//!     where COL points at the first byte of the failing instruction, and the *rest of the block is
//!     dropped* (llvm-mc does not resynchronise inside a block);
//!   - an instruction that runs off the end of the block (a missing literal, or a 64-bit encoding cut
//!     short) makes llvm-mc crash (SIGSEGV while printing the diagnostic) and lose the whole run;
//!   - `potentially undefined instruction encoding` (gfx11+, rare) is a warning but the instruction is
//!     still printed.
//! - `-show-encoding` in disassembly mode prints llvm-mc's *re-encoding* of the decoded instruction,
//!   not the input bytes: don't-care bits come out cleared, and the length can differ (gfx10 NSA
//!   image instructions decoded from 16 bytes re-encode as 12; `v_cmpx_gt_u16_e32 0x4400, v180`
//!   decoded from 4 bytes re-encodes the f16 inline constant 4.0 as an 8-byte literal). So it cannot
//!   tell how many bytes were consumed, and disassembly runs without it.
//! - A literal whose value is also an inline constant prints as `lit(...)`; the padding word
//!   `0xbf800000` is -1.0, so a case missing its 32-bit literal shows `lit(0xbf800000)`.
//!
//!   So each case becomes one block: the marker word `s_nop 0x5aa5` ([`CASE_MARKER`], valid and
//!   printed alike on all ten generations), the case's bytes, then [`PADDING_NOPS`] `s_nop 0` words
//!   (`0xbf800000`). The marker lines split stdout into cases (a run of n cases must print exactly n
//!   markers, else it is redone in smaller pieces; a lone case needs no count). The padding supplies a
//!   literal that the case lacks, so no case runs off its block, and the `s_nop 0` lines left at the
//!   end of the block tell how many bytes the case's instructions consumed: the block's length minus
//!   4 per trailing padding line, or the invalid position when there was a warning.
//! - llvm-mc 22.1.8 also crashes on a few words: per 100,000 random two-word cases, 1–13 on each
//!   gfx9/gfx10 target and none on gfx11+ (none for single random words anywhere); e.g. gfx90a
//!   `[0x16,0xc1,0xc6,0xd1,0xfc,0xff,0xdd,0x5a]`, also on gfx908/gfx942. stdout is buffered, so a
//!   crashed run loses its last few kilobytes of output, while stderr is unbuffered. After a crash we
//!   keep the cases whose output is complete, rerun the cases stderr shows were passed, and then probe
//!   the rest in growing windows (1, 2, 4, ... cases) until the crashing case is alone; it is marked
//!   [`DisasmResult::Crashed`] and counted. A crash is a killing signal, an exit code other than 0/1,
//!   or LLVM's crash banner on stderr.
//! - Speed: about 40,000–55,000 single-word cases per second per llvm-mc process on this 2-core
//!   machine (about 60,000 with two processes); see [`LlvmMc::measure_disasm_throughput`].
//! - Assembly (`-show-encoding`): each instruction prints `\t<text>  ; encoding: [0x..,...]`; a symbol
//!   operand prints `A` bytes plus a `;   fixup A - ...` line; labels and directives are echoed.
//!   Errors go to stderr as `<stdin>:LINE:COL: error: ...` and assembly carries on with the next line.
//!   A line may print several instructions or none, so each case is preceded by a marker label
//!   (`__oracle_case_N:`, echoed on stdout) and the batch ends with one more; stdout between two
//!   markers belongs to the case, stderr is mapped back by line number.

use isa_gen::Generation;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// `s_nop 0`, little-endian: the padding that follows every disassembly case.
pub const S_NOP_0: [u8; 4] = [0x00, 0x00, 0x80, 0xbf];

/// `s_nop 0x5aa5`, little-endian: starts every disassembly block so stdout can be split into cases.
pub const CASE_MARKER: [u8; 4] = [0xa5, 0x5a, 0x80, 0xbf];

/// How llvm-mc prints [`CASE_MARKER`].
pub const CASE_MARKER_TEXT: &str = "s_nop 0x5aa5";

/// How many `s_nop 0` words pad each disassembly case: enough for the longest instruction
/// (a 64-bit encoding plus a 64-bit literal, 16 bytes) to be completed from the padding when a case
/// holds only its first word.
pub const PADDING_NOPS: usize = 4;

/// Default number of cases sent to one llvm-mc process.
pub const DEFAULT_CHUNK_CASES: usize = 4096;

/// The oldest llvm-mc major version whose AMDGPU support we rely on.
pub const MIN_LLVM_MAJOR: u32 = 22;

/// Why no usable llvm-mc was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotFound {
    pub reason: String,
}

impl fmt::Display for NotFound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no usable llvm-mc: {}", self.reason)
    }
}

impl std::error::Error for NotFound {}

/// A failure that concerns a whole batch rather than one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OracleError {
    /// llvm-mc could not be started or its output could not be read.
    Launch { program: PathBuf, reason: String },
    /// llvm-mc does not know the processor or feature this generation needs.
    UnsupportedTarget {
        generation: Generation,
        mcpu: String,
        message: String,
    },
}

impl fmt::Display for OracleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OracleError::Launch { program, reason } => {
                write!(f, "could not run {}: {reason}", program.display())
            }
            OracleError::UnsupportedTarget {
                generation,
                mcpu,
                message,
            } => write!(
                f,
                "llvm-mc does not support {generation} (-mcpu={mcpu}): {message}"
            ),
        }
    }
}

impl std::error::Error for OracleError {}

/// What llvm-mc decoded from one case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The first instruction's text, trimmed, with `/* ... */` comments removed.
    pub text: String,
    /// The comments removed from `text` (e.g. `Invalid register, operand has ... register class`).
    pub comments: Vec<String>,
    /// Bytes consumed by the instructions decoded from the case: when `following` is empty, the
    /// length of the one instruction. More than the case's length means the instruction took part of
    /// the `s_nop 0` padding (e.g. as its literal); less means the case held more than it.
    pub consumed: usize,
    /// Texts of further instructions decoded from the case's bytes (normally none).
    pub following: Vec<String>,
    /// llvm-mc warned "potentially undefined instruction encoding" for the first instruction.
    pub soft_fail: bool,
}

/// What llvm-mc made of one disassembly case: its first instruction only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DisasmResult {
    Decoded(Decoded),
    /// llvm-mc printed "invalid instruction encoding" at the case's first byte.
    Invalid,
    /// llvm-mc crashed on this case (isolated by rerunning its batch in pieces).
    Crashed,
    /// The case could not be run (e.g. it was empty) or its output made no sense.
    Error(String),
}

impl DisasmResult {
    pub fn decoded(&self) -> Option<&Decoded> {
        match self {
            DisasmResult::Decoded(d) => Some(d),
            _ => None,
        }
    }

    pub fn text(&self) -> Option<&str> {
        self.decoded().map(|d| d.text.as_str())
    }

    pub fn consumed(&self) -> Option<usize> {
        self.decoded().map(|d| d.consumed)
    }
}

/// One instruction the assembler emitted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsmInstruction {
    /// How llvm-mc printed the instruction back (its canonical spelling).
    pub text: String,
    /// The encoding; bytes that depend on a symbol (`A` in llvm-mc's output) are 0.
    pub bytes: Vec<u8>,
    /// Some bytes depend on a symbol that is resolved later (a fixup).
    pub has_fixup: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagnosticKind {
    Error,
    Warning,
    Note,
}

/// A message llvm-mc printed for one input line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub kind: DiagnosticKind,
    /// 1-based column in the case's text.
    pub column: usize,
    pub message: String,
}

/// What llvm-mc made of one assembly line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AsmResult {
    /// The line assembled; it may have produced no instruction (a label, a directive) or several.
    Encoded {
        instructions: Vec<AsmInstruction>,
        warnings: Vec<Diagnostic>,
    },
    /// llvm-mc rejected the line; the first diagnostic is the error.
    Error(Vec<Diagnostic>),
    /// llvm-mc crashed on this line.
    Crashed,
    /// llvm-mc's output for this line could not be attributed to it (the reason says why).
    Unanswered(String),
}

impl AsmResult {
    /// All bytes the line produced, or `None` if it did not assemble.
    pub fn bytes(&self) -> Option<Vec<u8>> {
        match self {
            AsmResult::Encoded { instructions, .. } => Some(
                instructions
                    .iter()
                    .flat_map(|i| i.bytes.iter().copied())
                    .collect(),
            ),
            _ => None,
        }
    }

    /// The first error message, if the line was rejected.
    pub fn error_message(&self) -> Option<&str> {
        match self {
            AsmResult::Error(diags) => diags.first().map(|d| d.message.as_str()),
            _ => None,
        }
    }
}

/// Counters for one batch (add them up with `+=` over batches).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OracleStats {
    pub cases: usize,
    /// Decoded / assembled.
    pub ok: usize,
    /// Invalid encodings (disassembly) or rejected lines (assembly).
    pub invalid: usize,
    pub crashed: usize,
    /// Cases that could not be run or whose output could not be attributed.
    pub errors: usize,
    /// llvm-mc processes started, including reruns after crashes.
    pub processes: usize,
}

impl std::ops::AddAssign for OracleStats {
    fn add_assign(&mut self, o: OracleStats) {
        self.cases += o.cases;
        self.ok += o.ok;
        self.invalid += o.invalid;
        self.crashed += o.crashed;
        self.errors += o.errors;
        self.processes += o.processes;
    }
}

impl fmt::Display for OracleStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} cases: {} ok, {} invalid, {} crashed, {} errors ({} llvm-mc runs)",
            self.cases, self.ok, self.invalid, self.crashed, self.errors, self.processes
        )
    }
}

#[derive(Clone, Debug)]
pub struct DisasmBatch {
    /// One result per case, in the order given.
    pub results: Vec<DisasmResult>,
    pub stats: OracleStats,
}

#[derive(Clone, Debug)]
pub struct AsmBatch {
    /// One result per line, in the order given.
    pub results: Vec<AsmResult>,
    pub stats: OracleStats,
}

/// A located llvm-mc (version 22 or newer).
#[derive(Debug)]
pub struct LlvmMc {
    program: PathBuf,
    version: String,
    chunk_cases: usize,
    jobs: usize,
    /// Per generation, whether llvm-mc accepted its `-mcpu`/`-mattr` (checked once).
    targets: Mutex<HashMap<Generation, Result<(), OracleError>>>,
}

impl LlvmMc {
    /// Finds llvm-mc: `$LLVM_MC` if set (and then only that), else `llvm-mc-22`, else `llvm-mc`.
    pub fn find() -> Result<LlvmMc, NotFound> {
        if let Some(path) = std::env::var_os("LLVM_MC").filter(|p| !p.is_empty()) {
            return LlvmMc::at(PathBuf::from(path)).map_err(|e| NotFound {
                reason: format!("$LLVM_MC: {}", e.reason),
            });
        }
        let mut reasons = Vec::new();
        for candidate in ["llvm-mc-22", "llvm-mc"] {
            match LlvmMc::at(PathBuf::from(candidate)) {
                Ok(mc) => return Ok(mc),
                Err(e) => reasons.push(e.reason),
            }
        }
        Err(NotFound {
            reason: reasons.join("; "),
        })
    }

    /// Uses the llvm-mc at `program` (a path or a name looked up on `PATH`) if it is new enough.
    pub fn at(program: PathBuf) -> Result<LlvmMc, NotFound> {
        let out = Command::new(&program)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| NotFound {
                reason: format!("{}: {e}", program.display()),
            })?;
        let text = String::from_utf8_lossy(&out.stdout);
        let version = parse_llvm_version(&text).ok_or_else(|| NotFound {
            reason: format!(
                "{}: no `LLVM version` in its --version output",
                program.display()
            ),
        })?;
        let major = version
            .split('.')
            .next()
            .and_then(|m| m.parse::<u32>().ok())
            .unwrap_or(0);
        if major < MIN_LLVM_MAJOR {
            return Err(NotFound {
                reason: format!(
                    "{} is LLVM {version}; version {MIN_LLVM_MAJOR} or newer is needed",
                    program.display()
                ),
            });
        }
        if !text.contains("amdgcn") {
            return Err(NotFound {
                reason: format!(
                    "{} (LLVM {version}) has no amdgcn target",
                    program.display()
                ),
            });
        }
        let jobs = std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1);
        Ok(LlvmMc {
            program,
            version,
            chunk_cases: DEFAULT_CHUNK_CASES,
            jobs,
            targets: Mutex::new(HashMap::new()),
        })
    }

    /// Cases per llvm-mc process (at least 1).
    pub fn with_chunk_cases(mut self, n: usize) -> LlvmMc {
        self.chunk_cases = n.max(1);
        self
    }

    /// How many llvm-mc processes may run at once (at least 1; default: the number of cores).
    pub fn with_jobs(mut self, n: usize) -> LlvmMc {
        self.jobs = n.max(1);
        self
    }

    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The LLVM version, e.g. `22.1.8`.
    pub fn version(&self) -> &str {
        &self.version
    }

    /// The `-mattr` features passed for a generation.
    pub fn mattrs(gen: Generation) -> &'static [&'static str] {
        // True16 generations: print 16-bit register halves the same way on all of them.
        if gen.traits().true16 {
            &["+real-true16"]
        } else {
            &[]
        }
    }

    /// The target arguments for one generation (`-triple`, `-mcpu`, `-mattr`).
    pub fn target_args(gen: Generation) -> Vec<String> {
        let mut args = vec![
            "-triple=amdgcn".to_string(),
            format!("-mcpu={}", gen.llvm_mcpu()),
        ];
        let attrs = LlvmMc::mattrs(gen);
        if !attrs.is_empty() {
            args.push(format!("-mattr={}", attrs.join(",")));
        }
        args
    }

    /// Checks once per generation that llvm-mc knows its processor and features (llvm-mc only warns
    /// about unknown ones and then assembles for a generic target).
    pub fn check_target(&self, gen: Generation) -> Result<(), OracleError> {
        if let Some(known) = self
            .targets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&gen)
        {
            return known.clone();
        }
        let verdict = self.probe_target(gen, &LlvmMc::target_args(gen));
        self.targets
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(gen, verdict.clone());
        verdict
    }

    /// Disassembles one marker block and fails on "is not a recognized processor/feature".
    fn probe_target(&self, gen: Generation, target_args: &[String]) -> Result<(), OracleError> {
        let mut args = target_args.to_vec();
        args.push("-disassemble".to_string());
        let run = self.run(&args, disassembly_input(&[&S_NOP_0]))?;
        let unsupported = |message: String| OracleError::UnsupportedTarget {
            generation: gen,
            mcpu: gen.llvm_mcpu().to_string(),
            message,
        };
        if let Some(line) = run
            .stderr
            .lines()
            .find(|l| l.contains("is not a recognized"))
        {
            return Err(unsupported(line.trim().to_string()));
        }
        let printed: Vec<&str> = run.stdout.lines().map(str::trim).collect();
        if run.crashed() || printed.first() != Some(&CASE_MARKER_TEXT) {
            return Err(unsupported(format!(
                "the probe block did not print `{CASE_MARKER_TEXT}` first: {:?} {}",
                printed.first(),
                run.stderr.lines().next().unwrap_or("")
            )));
        }
        Ok(())
    }

    /// Disassembles each case (one instruction's bytes, little-endian, a multiple of 4 bytes) on
    /// its own. Only the first instruction of a case is reported (see [`Decoded::following`]).
    pub fn disassemble(
        &self,
        gen: Generation,
        cases: &[Vec<u8>],
    ) -> Result<DisasmBatch, OracleError> {
        self.check_target(gen)?;
        let mut args = LlvmMc::target_args(gen);
        args.push("-disassemble".to_string());
        let mut results: Vec<Option<DisasmResult>> = vec![None; cases.len()];
        let mut runnable = Vec::with_capacity(cases.len());
        for (i, case) in cases.iter().enumerate() {
            // A partial word would decode misaligned into the padding and could crash llvm-mc.
            if case.is_empty() || case.len() % 4 != 0 {
                results[i] = Some(DisasmResult::Error(format!(
                    "a case must be whole 32-bit words, this one has {} bytes",
                    case.len()
                )));
            } else {
                runnable.push(i);
            }
        }
        let batch: Vec<&[u8]> = runnable.iter().map(|&i| cases[i].as_slice()).collect();
        let (found, mut stats) =
            self.run_chunked(&batch, |part| self.disassemble_run(&args, part))?;
        for (&i, r) in runnable.iter().zip(found) {
            results[i] = Some(r);
        }
        let results: Vec<DisasmResult> = results
            .into_iter()
            .map(|r| r.expect("every case answered"))
            .collect();
        stats.cases = results.len();
        stats.ok = results
            .iter()
            .filter(|r| matches!(r, DisasmResult::Decoded(_)))
            .count();
        stats.invalid = results
            .iter()
            .filter(|r| matches!(r, DisasmResult::Invalid))
            .count();
        stats.crashed = results
            .iter()
            .filter(|r| matches!(r, DisasmResult::Crashed))
            .count();
        stats.errors = results
            .iter()
            .filter(|r| matches!(r, DisasmResult::Error(_)))
            .count();
        Ok(DisasmBatch { results, stats })
    }

    /// Assembles each line on its own (a line holds one instruction, or a label or directive).
    pub fn assemble(&self, gen: Generation, lines: &[String]) -> Result<AsmBatch, OracleError> {
        self.check_target(gen)?;
        let mut args = LlvmMc::target_args(gen);
        args.push("-show-encoding".to_string());
        let mut results: Vec<Option<AsmResult>> = vec![None; lines.len()];
        let mut runnable = Vec::new();
        for (i, line) in lines.iter().enumerate() {
            if line.contains(['\n', '\r']) {
                // A line break would shift every later line number.
                results[i] = Some(AsmResult::Error(vec![Diagnostic {
                    kind: DiagnosticKind::Error,
                    column: line.find(['\n', '\r']).unwrap_or(0) + 1,
                    message: "a case must be a single line".into(),
                }]));
            } else {
                runnable.push(i);
            }
        }
        let batch: Vec<&str> = runnable.iter().map(|&i| lines[i].as_str()).collect();
        let (found, mut stats) = self.run_chunked(&batch, |part| self.assemble_run(&args, part))?;
        for (&i, r) in runnable.iter().zip(found) {
            results[i] = Some(r);
        }
        let results: Vec<AsmResult> = results
            .into_iter()
            .map(|r| r.expect("every line answered"))
            .collect();
        stats.cases = results.len();
        stats.ok = results
            .iter()
            .filter(|r| matches!(r, AsmResult::Encoded { .. }))
            .count();
        stats.invalid = results
            .iter()
            .filter(|r| matches!(r, AsmResult::Error(_)))
            .count();
        stats.crashed = results
            .iter()
            .filter(|r| matches!(r, AsmResult::Crashed))
            .count();
        stats.errors = results
            .iter()
            .filter(|r| matches!(r, AsmResult::Unanswered(_)))
            .count();
        Ok(AsmBatch { results, stats })
    }

    /// Disassembles every word as its own case and returns the words per second achieved (whole
    /// batch wall time, including process starts and the configured parallelism).
    pub fn measure_disasm_throughput(
        &self,
        gen: Generation,
        words: &[u32],
    ) -> Result<f64, OracleError> {
        self.check_target(gen)?;
        let cases: Vec<Vec<u8>> = words.iter().map(|w| w.to_le_bytes().to_vec()).collect();
        let start = Instant::now();
        let batch = self.disassemble(gen, &cases)?;
        let seconds = start.elapsed().as_secs_f64();
        debug_assert_eq!(batch.results.len(), words.len());
        Ok(words.len() as f64 / seconds.max(1e-9))
    }

    /// Splits a batch into chunks, runs them on up to `jobs` threads and resolves crashes in each.
    /// Stops at the first failure to run llvm-mc at all.
    fn run_chunked<C: Sync, R: Send + Failable>(
        &self,
        cases: &[C],
        run: impl Fn(&[C]) -> Result<RunReport<R>, OracleError> + Sync,
    ) -> Result<(Vec<R>, OracleStats), OracleError> {
        let chunks: Vec<&[C]> = cases.chunks(self.chunk_cases).collect();
        let next = AtomicUsize::new(0);
        type ChunkResult<R> = Result<(Vec<R>, usize), OracleError>;
        let done: Mutex<Vec<(usize, ChunkResult<R>)>> = Mutex::new(Vec::new());
        let workers = self.jobs.min(chunks.len()).max(1);
        std::thread::scope(|scope| {
            for _ in 0..workers {
                scope.spawn(|| loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(chunk) = chunks.get(k) else { break };
                    let mut out = Vec::with_capacity(chunk.len());
                    let mut processes = 0;
                    let result = resolve(chunk, &run, &mut out, &mut processes);
                    let failed = result.is_err();
                    let mut done = done.lock().unwrap_or_else(|p| p.into_inner());
                    done.push((k, result.map(|_| (out, processes))));
                    if failed {
                        // Leave the remaining chunks alone: llvm-mc cannot be run.
                        next.store(chunks.len(), Ordering::Relaxed);
                        break;
                    }
                });
            }
        });
        let mut done = done.into_inner().unwrap_or_else(|p| p.into_inner());
        done.sort_by_key(|(k, _)| *k);
        let mut stats = OracleStats::default();
        let mut all = Vec::with_capacity(cases.len());
        for (_, result) in done {
            let (out, processes) = result?;
            stats.processes += processes;
            all.extend(out);
        }
        Ok((all, stats))
    }

    fn disassemble_run(
        &self,
        args: &[String],
        cases: &[&[u8]],
    ) -> Result<RunReport<DisasmResult>, OracleError> {
        let run = self.run(args, disassembly_input(cases))?;
        Ok(attribute_disassembly(cases, &run))
    }

    fn assemble_run(
        &self,
        args: &[String],
        lines: &[&str],
    ) -> Result<RunReport<AsmResult>, OracleError> {
        let run = self.run(args, assembly_input(lines))?;
        Ok(attribute_assembly(lines, &run))
    }

    /// Runs llvm-mc once with `input` on stdin.
    fn run(&self, args: &[String], input: String) -> Result<RawRun, OracleError> {
        let launch = |reason: String| OracleError::Launch {
            program: self.program.clone(),
            reason,
        };
        let mut child = Command::new(&self.program)
            .args(args)
            // A crash would otherwise spend time symbolising its stack trace.
            .env("LLVM_DISABLE_SYMBOLIZATION", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| launch(e.to_string()))?;
        let mut stdin = child
            .stdin
            .take()
            .ok_or_else(|| launch("no stdin pipe".into()))?;
        // Write from another thread so a full stdout pipe cannot deadlock us; a crashed llvm-mc
        // closes its stdin early, which is not an error here.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(input.as_bytes());
        });
        let out = child
            .wait_with_output()
            .map_err(|e| launch(e.to_string()))?;
        let _ = writer.join();
        Ok(RawRun {
            status_code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        })
    }
}

/// `LLVM version 22.1.8` -> `22.1.8`.
fn parse_llvm_version(text: &str) -> Option<String> {
    let rest = &text[text.find("LLVM version ")? + "LLVM version ".len()..];
    let version: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    (!version.is_empty()).then_some(version)
}

/// What one llvm-mc process printed.
struct RawRun {
    /// `None` when a signal killed it.
    status_code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl RawRun {
    fn crashed(&self) -> bool {
        !matches!(self.status_code, Some(0) | Some(1))
            || self.stderr.contains("Stack dump:")
            || self.stderr.contains("PLEASE submit a bug report")
            || self.stderr.contains("LLVM ERROR:")
    }

    /// stdout lines that are known to be complete (a crash can cut the last one short).
    fn complete_stdout_lines(&self) -> impl Iterator<Item = &str> {
        let end = self.stdout.rfind('\n').map_or(0, |i| i + 1);
        self.stdout[..end].lines()
    }

    /// Diagnostics per 1-based input line, in the order printed.
    fn diagnostics(&self) -> BTreeMap<usize, Vec<Diagnostic>> {
        let mut map: BTreeMap<usize, Vec<Diagnostic>> = BTreeMap::new();
        for line in self.stderr.lines() {
            if let Some((input_line, diag)) = parse_diagnostic_header(line) {
                map.entry(input_line).or_default().push(diag);
            }
        }
        map
    }
}

/// Parses `<stdin>:LINE:COL: KIND: MESSAGE`.
fn parse_diagnostic_header(line: &str) -> Option<(usize, Diagnostic)> {
    let rest = line.strip_prefix("<stdin>:")?;
    let mut parts = rest.splitn(4, ':');
    let input_line = parts.next()?.parse().ok()?;
    let column = parts.next()?.parse().ok()?;
    let kind = match parts.next()?.trim() {
        "error" => DiagnosticKind::Error,
        "warning" => DiagnosticKind::Warning,
        "note" => DiagnosticKind::Note,
        _ => return None,
    };
    let message = parts.next()?.trim().to_string();
    Some((
        input_line,
        Diagnostic {
            kind,
            column,
            message,
        },
    ))
}

/// One instruction line of `-show-encoding` output.
#[derive(Debug, PartialEq, Eq)]
struct EncodedLine {
    text: String,
    comments: Vec<String>,
    bytes: Vec<u8>,
    has_fixup: bool,
}

/// Parses `\t<instruction>   ; encoding: [0x80,0x1d,A,...]`; `None` for other lines.
fn parse_encoded_line(line: &str) -> Option<EncodedLine> {
    const MARK: &str = "; encoding: [";
    let at = line.rfind(MARK)?;
    let list = line[at + MARK.len()..].trim_end().strip_suffix(']')?;
    let mut bytes = Vec::new();
    let mut has_fixup = false;
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        match item
            .strip_prefix("0x")
            .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            Some(b) => bytes.push(b),
            None => {
                // `A` or `0bAAAA0000`-style: bits filled in by a fixup later.
                has_fixup = true;
                bytes.push(0);
            }
        }
    }
    let (text, comments) = strip_comments(&line[..at]);
    Some(EncodedLine {
        text,
        comments,
        bytes,
        has_fixup,
    })
}

/// Removes `/* ... */` comments (and a trailing `;` or `//` comment) from an instruction's text.
pub(crate) fn strip_comments(raw: &str) -> (String, Vec<String>) {
    let mut text = String::with_capacity(raw.len());
    let mut comments = Vec::new();
    let mut rest = raw;
    while let Some(open) = rest.find("/*") {
        text.push_str(&rest[..open]);
        match rest[open + 2..].find("*/") {
            Some(close) => {
                comments.push(rest[open + 2..open + 2 + close].trim().to_string());
                rest = &rest[open + 2 + close + 2..];
            }
            None => {
                comments.push(rest[open + 2..].trim().to_string());
                rest = "";
            }
        }
    }
    text.push_str(rest);
    for marker in [";", "//"] {
        if let Some(at) = text.find(marker) {
            let tail = text[at + marker.len()..].trim().to_string();
            if !tail.is_empty() {
                comments.push(tail);
            }
            text.truncate(at);
        }
    }
    (text.trim().to_string(), comments)
}

/// The bracketed block for each case: the marker, the case's bytes, then the `s_nop 0` padding.
fn disassembly_input(cases: &[&[u8]]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut input = String::with_capacity(cases.len() * (2 + 5 * (12 + 4 * PADDING_NOPS)));
    for case in cases {
        input.push('[');
        let padding = S_NOP_0.iter().cycle().take(4 * PADDING_NOPS);
        let bytes = CASE_MARKER
            .iter()
            .chain(case.iter())
            .chain(padding)
            .copied();
        for (i, b) in bytes.enumerate() {
            if i > 0 {
                input.push(',');
            }
            input.push_str("0x");
            input.push(HEX[usize::from(b >> 4)] as char);
            input.push(HEX[usize::from(b & 15)] as char);
        }
        input.push_str("]\n");
    }
    input
}

/// The 1-based column of byte `index` in a block written by [`disassembly_input`] (`[0x00,0x01`:
/// byte 0 at column 2, then every 5 columns).
fn byte_index_at_column(column: usize) -> Option<usize> {
    let offset = column.checked_sub(2)?;
    (offset % 5 == 0).then_some(offset / 5)
}

/// What a (possibly crashed) run told us about a slice of cases.
struct RunReport<R> {
    /// Results for the leading cases whose output was complete.
    done: Vec<R>,
    /// Set when the run did not answer every case.
    failure: Option<RunFailure>,
}

struct RunFailure {
    /// The cases before this index were passed by llvm-mc without incident (their output may be
    /// lost, but rerunning them is safe); the trouble lies at or after it.
    safe_until: usize,
    /// What the lone case causing the trouble gets as its result.
    crashed: bool,
    reason: String,
}

/// Results that can stand for a case llvm-mc crashed on or could not answer.
trait Failable {
    fn crashed() -> Self;
    fn error(reason: String) -> Self;
}

impl Failable for DisasmResult {
    fn crashed() -> Self {
        DisasmResult::Crashed
    }
    fn error(reason: String) -> Self {
        DisasmResult::Error(reason)
    }
}

impl Failable for AsmResult {
    fn crashed() -> Self {
        AsmResult::Crashed
    }
    fn error(reason: String) -> Self {
        AsmResult::Unanswered(reason)
    }
}

/// Runs `cases`, and after a crash reruns the unanswered part until the culprit is alone: the cases
/// llvm-mc passed are rerun together, then windows of 1, 2, 4, ... cases from the first suspect
/// until a window fails (it resolves itself the same way), then the rest in one go.
/// Returns whether any case crashed or failed.
fn resolve<C, R: Failable>(
    cases: &[C],
    run: &impl Fn(&[C]) -> Result<RunReport<R>, OracleError>,
    out: &mut Vec<R>,
    processes: &mut usize,
) -> Result<bool, OracleError> {
    if cases.is_empty() {
        return Ok(false);
    }
    *processes += 1;
    let report = run(cases)?;
    let answered = report.done.len();
    out.extend(report.done);
    let Some(failure) = report.failure else {
        debug_assert_eq!(answered, cases.len());
        return Ok(false);
    };
    if answered >= cases.len() {
        // Every case was answered before the trouble (e.g. a crash on exit).
        return Ok(false);
    }
    if cases.len() == 1 && answered == 0 {
        out.push(if failure.crashed {
            R::crashed()
        } else {
            R::error(failure.reason)
        });
        return Ok(true);
    }
    let suspect = failure
        .safe_until
        .clamp(answered, cases.len().saturating_sub(1));
    resolve(&cases[answered..suspect], run, out, processes)?;
    let mut start = suspect;
    let mut window = 1;
    while start < cases.len() {
        let end = (start + window).min(cases.len());
        let failed = resolve(&cases[start..end], run, out, processes)?;
        start = end;
        if failed {
            resolve(&cases[start..], run, out, processes)?;
            break;
        }
        window *= 2;
    }
    Ok(true)
}

/// Ties llvm-mc's disassembly output back to the cases (see the module doc).
fn attribute_disassembly(cases: &[&[u8]], run: &RawRun) -> RunReport<DisasmResult> {
    let crashed = run.crashed();
    let diagnostics = run.diagnostics();
    let printed: Vec<&str> = run
        .complete_stdout_lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let give_up = |done: Vec<DisasmResult>, at: usize, reason: String| {
        if crashed {
            crashed_report(done, &diagnostics, cases.len())
        } else {
            RunReport {
                done,
                failure: Some(RunFailure {
                    safe_until: at,
                    crashed: false,
                    reason,
                }),
            }
        }
    };
    let blocks = match split_blocks(&printed, cases) {
        Ok(blocks) => blocks,
        Err(reason) => return give_up(Vec::new(), 0, reason),
    };
    if !crashed && blocks.len() != cases.len() {
        let reason = format!(
            "{} case markers printed for {} cases",
            blocks.len(),
            cases.len()
        );
        return give_up(Vec::new(), 0, reason);
    }
    // After a crash the last block printed may be cut short: only blocks followed by the next
    // marker are whole.
    let whole = if crashed {
        blocks.len().saturating_sub(1)
    } else {
        blocks.len()
    };
    let mut done = Vec::with_capacity(whole);
    for (i, (case, lines)) in cases.iter().zip(&blocks[..whole]).enumerate() {
        let diags = diagnostics.get(&(i + 1)).map(Vec::as_slice).unwrap_or(&[]);
        match decoded_block(case, lines, diags) {
            Ok(result) => done.push(result),
            Err(reason) => return give_up(done, i, reason),
        }
    }
    if crashed {
        return crashed_report(done, &diagnostics, cases.len());
    }
    RunReport {
        done,
        failure: None,
    }
}

/// Splits the printed lines at the case markers: the lines of each block after its marker.
fn split_blocks<'a>(printed: &'a [&'a str], cases: &[&[u8]]) -> Result<Vec<&'a [&'a str]>, String> {
    if printed.is_empty() {
        return Ok(Vec::new());
    }
    if printed[0] != CASE_MARKER_TEXT {
        return Err(format!(
            "llvm-mc printed `{}` before the first case marker",
            printed[0]
        ));
    }
    if cases.len() == 1 {
        return Ok(vec![&printed[1..]]);
    }
    // A case that holds the marker word itself prints a marker of its own: such cases run alone.
    if let Some(i) = cases
        .iter()
        .position(|c| c.chunks(4).any(|w| w == CASE_MARKER))
    {
        return Err(format!(
            "case {i} contains the marker word; it must run alone"
        ));
    }
    let starts: Vec<usize> = (0..printed.len())
        .filter(|&i| printed[i] == CASE_MARKER_TEXT)
        .collect();
    Ok(starts
        .iter()
        .enumerate()
        .map(|(k, &start)| {
            let end = starts.get(k + 1).copied().unwrap_or(printed.len());
            &printed[start + 1..end]
        })
        .collect())
}

/// One case's result from the lines its block printed after the marker and the messages for its
/// line: the `s_nop 0` lines left at the end are unconsumed padding.
fn decoded_block(
    case: &[u8],
    lines: &[&str],
    diags: &[Diagnostic],
) -> Result<DisasmResult, String> {
    let region_len = case.len() + 4 * PADDING_NOPS;
    let mut invalid_at = None;
    let mut soft_fail = false;
    for d in diags {
        let at = byte_index_at_column(d.column)
            .and_then(|b| b.checked_sub(CASE_MARKER.len()))
            .filter(|&b| b < region_len)
            .ok_or_else(|| {
                format!(
                    "llvm-mc message at unexpected column {}: {}",
                    d.column, d.message
                )
            })?;
        match d.message.as_str() {
            "invalid instruction encoding" => invalid_at = Some(at),
            "potentially undefined instruction encoding" => soft_fail |= at == 0,
            other => return Err(format!("unexpected llvm-mc message at byte {at}: {other}")),
        }
    }
    // llvm-mc drops the rest of a block after an invalid encoding.
    let end = invalid_at.unwrap_or(region_len);
    let padding_words = end.saturating_sub(case.len()) / 4;
    let trailing = lines
        .iter()
        .rev()
        .take_while(|l| **l == "s_nop 0")
        .count()
        .min(padding_words);
    let own = &lines[..lines.len() - trailing];
    let consumed = end - 4 * trailing;
    let Some((first, rest)) = own.split_first() else {
        return if consumed == 0 {
            Ok(DisasmResult::Invalid)
        } else {
            Err(format!("nothing printed for {consumed} bytes"))
        };
    };
    if consumed < 4 * own.len() {
        return Err(format!(
            "{} instructions printed for {consumed} bytes",
            own.len()
        ));
    }
    let (text, comments) = strip_comments(first);
    Ok(DisasmResult::Decoded(Decoded {
        text,
        comments,
        consumed,
        following: rest.iter().map(|l| strip_comments(l).0).collect(),
        soft_fail,
    }))
}

/// The report for a crashed run: stderr (unbuffered) shows how far llvm-mc got.
fn crashed_report<R>(
    done: Vec<R>,
    diagnostics: &BTreeMap<usize, Vec<Diagnostic>>,
    case_count: usize,
) -> RunReport<R> {
    let last_diagnosed_case = diagnostics.keys().next_back().map_or(0, |line| line - 1);
    RunReport {
        failure: Some(RunFailure {
            safe_until: last_diagnosed_case.min(case_count),
            crashed: true,
            reason: "llvm-mc crashed".into(),
        }),
        done,
    }
}

/// The marker label printed before case `i` (and, with `i == len`, after the last case).
fn case_marker(i: usize) -> String {
    format!("__oracle_case_{i}:")
}

/// Each line preceded by its marker label, then a final marker.
fn assembly_input(lines: &[&str]) -> String {
    let mut input = String::with_capacity(lines.iter().map(|l| l.len() + 24).sum::<usize>() + 24);
    for (i, line) in lines.iter().enumerate() {
        input.push_str(&case_marker(i));
        input.push('\n');
        input.push_str(line);
        input.push('\n');
    }
    input.push_str(&case_marker(lines.len()));
    input.push('\n');
    input
}

/// Ties llvm-mc's assembly output back to the lines: case `i` is input line `2i + 2` and its output
/// lies between markers `i` and `i + 1`.
fn attribute_assembly(lines: &[&str], run: &RawRun) -> RunReport<AsmResult> {
    let crashed = run.crashed();
    let mut diagnostics = run.diagnostics();
    let mut outputs: Vec<Vec<AsmInstruction>> = Vec::new();
    let mut current: Option<usize> = None;
    let mut stray = None;
    for out_line in run.complete_stdout_lines() {
        let trimmed = out_line.trim();
        if let Some(n) = trimmed
            .strip_prefix("__oracle_case_")
            .and_then(|s| s.strip_suffix(':'))
        {
            let Ok(n) = n.parse::<usize>() else { continue };
            if n != outputs.len() {
                stray.get_or_insert(format!("marker {n} came after marker {:?}", current));
                break;
            }
            if n == lines.len() {
                outputs.push(Vec::new()); // the final marker: every case is closed
                break;
            }
            current = Some(n);
            outputs.push(Vec::new());
        } else if let Some(enc) = parse_encoded_line(out_line) {
            match current {
                Some(n) => outputs[n].push(AsmInstruction {
                    text: enc.text,
                    bytes: enc.bytes,
                    has_fixup: enc.has_fixup,
                }),
                None => {
                    stray.get_or_insert(format!(
                        "instruction `{}` before the first marker",
                        enc.text
                    ));
                }
            }
        }
    }
    // Case i is complete once marker i+1 has been printed.
    let complete = outputs.len().saturating_sub(1).min(lines.len());
    let mut done = Vec::with_capacity(complete);
    for (i, instructions) in outputs.into_iter().take(complete).enumerate() {
        let diags = diagnostics.remove(&(2 * i + 2)).unwrap_or_default();
        done.push(if diags.iter().any(|d| d.kind == DiagnosticKind::Error) {
            AsmResult::Error(diags)
        } else {
            AsmResult::Encoded {
                instructions,
                warnings: diags,
            }
        });
    }
    if crashed {
        if stray.is_some() {
            done.clear();
        }
        // Diagnostics left over belong to lines whose markers were lost; llvm-mc got that far.
        let last_diagnosed_case = diagnostics
            .keys()
            .next_back()
            .map_or(0, |l| l.saturating_sub(1) / 2);
        return RunReport {
            done,
            failure: Some(RunFailure {
                safe_until: last_diagnosed_case,
                crashed: true,
                reason: "llvm-mc crashed".into(),
            }),
        };
    }
    if let Some(reason) = stray {
        return RunReport {
            done: Vec::new(),
            failure: Some(RunFailure {
                safe_until: 0,
                crashed: false,
                reason,
            }),
        };
    }
    if done.len() < lines.len() {
        let at = done.len();
        return RunReport {
            done,
            failure: Some(RunFailure {
                safe_until: at,
                crashed: false,
                reason: "llvm-mc stopped printing before this line's end marker".into(),
            }),
        };
    }
    RunReport {
        done,
        failure: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encoded_lines_parse_with_comments_and_fixups() {
        let line = "\tv_add_f16_e32 v1, v130/*Invalid register, operand has 'VS_32_Lo128' register class*/, v3 ; encoding: [0x82,0x07,0x02,0x64]";
        let enc = parse_encoded_line(line).unwrap();
        assert_eq!(enc.text, "v_add_f16_e32 v1, v130, v3");
        assert_eq!(
            enc.comments,
            vec!["Invalid register, operand has 'VS_32_Lo128' register class"]
        );
        assert_eq!(enc.bytes, vec![0x82, 0x07, 0x02, 0x64]);
        assert!(!enc.has_fixup);

        let fixup = parse_encoded_line(
            "\ts_branch foo                            ; encoding: [A,A,0xa0,0xbf]",
        )
        .unwrap();
        assert_eq!(fixup.text, "s_branch foo");
        assert_eq!(fixup.bytes, vec![0, 0, 0xa0, 0xbf]);
        assert!(fixup.has_fixup);

        assert_eq!(parse_encoded_line("__oracle_case_3:"), None);
        assert_eq!(
            parse_encoded_line("                 ;   fixup A - offset: 0, value: foo"),
            None
        );
    }

    #[test]
    fn diagnostic_headers_parse() {
        let (line, d) =
            parse_diagnostic_header("<stdin>:9:22: error: invalid operand for instruction")
                .unwrap();
        assert_eq!(line, 9);
        assert_eq!(
            d,
            Diagnostic {
                kind: DiagnosticKind::Error,
                column: 22,
                message: "invalid operand for instruction".into()
            }
        );
        assert_eq!(parse_diagnostic_header("[0x00,0x00]"), None);
        assert_eq!(parse_diagnostic_header(" ^"), None);
    }

    #[test]
    fn versions_parse() {
        assert_eq!(
            parse_llvm_version("Debian LLVM version 22.1.8\n  Optimized build.").as_deref(),
            Some("22.1.8")
        );
        assert_eq!(parse_llvm_version("nothing here"), None);
    }

    #[test]
    fn blocks_are_marked_padded_and_columns_map_to_bytes() {
        let input = disassembly_input(&[&[0xff, 0x00, 0x80, 0xbe]]);
        let expected_nops = ",0x00,0x00,0x80,0xbf".repeat(PADDING_NOPS);
        assert_eq!(
            input,
            format!("[0xa5,0x5a,0x80,0xbf,0xff,0x00,0x80,0xbe{expected_nops}]\n")
        );
        assert_eq!(byte_index_at_column(2), Some(0));
        assert_eq!(byte_index_at_column(22), Some(4));
        assert_eq!(byte_index_at_column(3), None);
        assert_eq!(byte_index_at_column(1), None);
    }

    fn stdout_of(blocks: &[&[&str]]) -> String {
        let mut out = String::new();
        for block in blocks {
            out.push_str(&format!("\t{CASE_MARKER_TEXT}\n"));
            for line in *block {
                out.push_str(&format!("\t{line}\n"));
            }
        }
        out
    }

    /// A fake run: an instruction with a comment, an invalid word, one that takes its literal from
    /// the padding, one that is itself `s_nop 0`, and a case holding two instructions.
    #[test]
    fn disassembly_output_is_attributed_by_markers_and_padding() {
        let nops = ["s_nop 0"; PADDING_NOPS];
        let stdout = stdout_of(&[
            &[
                &["v_add_f16_e32 v1, v130/*Invalid register*/, v3"][..],
                &nops,
            ]
            .concat(),
            &[],
            &[&["s_mov_b32 s0, lit(0xbf800000)"][..], &nops[1..]].concat(),
            &[&["s_nop 0"][..], &nops].concat(),
            &[&["s_wqm_b64 s[0:1], 0", "s_nop 1"][..], &nops].concat(),
        ]);
        let run = RawRun {
            status_code: Some(1),
            stdout,
            stderr: "<stdin>:2:22: warning: invalid instruction encoding\n[0xa5]\n ^\n".into(),
        };
        let cases: [&[u8]; 5] = [
            &[0x82, 0x07, 0x02, 0x64],
            &[0xff; 4],
            &[0xff, 0x00, 0x80, 0xbe],
            &S_NOP_0,
            &[0x80, 0x1d, 0x80, 0xbe, 0x01, 0x00, 0x80, 0xbf],
        ];
        let report = attribute_disassembly(&cases, &run);
        assert!(report.failure.is_none());
        let first = report.done[0].decoded().unwrap();
        assert_eq!(first.text, "v_add_f16_e32 v1, v130, v3");
        assert_eq!(first.comments, vec!["Invalid register"]);
        assert_eq!(first.consumed, 4);
        assert_eq!(report.done[1], DisasmResult::Invalid);
        assert_eq!(report.done[2].consumed(), Some(8));
        assert_eq!(report.done[3].text(), Some("s_nop 0"));
        assert_eq!(report.done[3].consumed(), Some(4));
        let two = report.done[4].decoded().unwrap();
        assert_eq!(
            (two.consumed, two.following.clone()),
            (8, vec!["s_nop 1".to_string()])
        );

        // The same output cut short by a crash keeps only the blocks followed by another marker.
        let cut = RawRun {
            status_code: None,
            stdout: run.stdout[..run.stdout.len() - 10].to_string(),
            ..run
        };
        let report = attribute_disassembly(&cases, &cut);
        assert_eq!(report.done.len(), 4);
        let failure = report.failure.unwrap();
        assert!(failure.crashed);
        assert_eq!(failure.safe_until, 1);

        // One marker too few is a mismatch, not a guess.
        let short = RawRun {
            status_code: Some(0),
            stdout: stdout_of(&[&nops]),
            stderr: String::new(),
        };
        let report = attribute_disassembly(&cases[..2], &short);
        assert!(report.done.is_empty());
        assert!(!report.failure.unwrap().crashed);
    }

    #[test]
    fn resolve_isolates_each_bad_case() {
        // A fake oracle that "crashes" on odd multiples of 7 and answers the rest with the value.
        let calls = std::cell::Cell::new(0);
        let run = |cases: &[usize]| {
            calls.set(calls.get() + 1);
            Ok(match cases.iter().position(|c| c % 7 == 0 && c % 2 == 1) {
                None => RunReport {
                    done: cases
                        .iter()
                        .map(|&c| DisasmResult::Error(c.to_string()))
                        .collect(),
                    failure: None,
                },
                Some(p) => RunReport {
                    done: cases[..p / 2]
                        .iter()
                        .map(|&c| DisasmResult::Error(c.to_string()))
                        .collect(),
                    failure: Some(RunFailure {
                        safe_until: 0,
                        crashed: true,
                        reason: String::new(),
                    }),
                },
            })
        };
        let cases: Vec<usize> = (0..200).collect();
        let mut out = Vec::new();
        let mut processes = 0;
        assert!(resolve(&cases, &run, &mut out, &mut processes).unwrap());
        assert_eq!(out.len(), 200);
        for (c, r) in cases.iter().zip(&out) {
            if c % 7 == 0 && c % 2 == 1 {
                assert_eq!(*r, DisasmResult::Crashed, "case {c}");
            } else {
                assert_eq!(*r, DisasmResult::Error(c.to_string()), "case {c}");
            }
        }
        assert_eq!(processes, calls.get());
        assert!(processes < 200, "took {processes} runs");
    }

    #[test]
    fn a_missing_program_is_not_found() {
        let err = LlvmMc::at(PathBuf::from("/nonexistent/llvm-mc-22")).unwrap_err();
        assert!(err.reason.contains("/nonexistent/llvm-mc-22"), "{err}");
    }

    #[test]
    fn unknown_processor_is_an_error() {
        let Ok(mc) = LlvmMc::find() else {
            eprintln!("skipped: no llvm-mc 22+");
            return;
        };
        let args = vec!["-triple=amdgcn".to_string(), "-mcpu=gfx9999".to_string()];
        let err = mc.probe_target(Generation::Rdna3, &args).unwrap_err();
        assert!(err.to_string().contains("gfx9999"), "{err}");
    }
}
