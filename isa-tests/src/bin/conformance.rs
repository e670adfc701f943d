//! `conformance`: the disassembler (or with `--asm` the assembler) against llvm-mc, per
//! generation, with the mismatches.
//!
//! Usage: `cargo run --release -p isa-tests --bin conformance -- [--asm] [--fixtures] [--gen G]
//! [--family NAME] [--per-form N] [--show N] [--seed S] [--list [--open]]`. `--family` keeps the forms of a
//! report family (`VOP3SD`, `MFMA`, `SDWA`, `literal`, ...; any case) or whose encoding name
//! contains NAME (`SOP1_INST_LITERAL`). The report has a line per family: forms, cases,
//! agreeing cases, mismatches.

use isa_tests::conformance;
use isa_tests::llvm_mc::LlvmMc;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut fixtures = false;
    let mut asm = false;
    // Print the mismatching forms in llvm-disagreements.txt's format instead of the report
    // (listed or not).
    let mut list = false;
    let mut open = false;
    let (mut gen, mut family, mut per_form, mut show, mut seed) =
        (None, None, 24usize, 20usize, 0x5eedu64);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut val = || it.next().cloned().unwrap_or_default();
        match a.as_str() {
            "--fixtures" => fixtures = true,
            "--asm" => asm = true,
            "--list" => list = true,
            // With --list: only forms that llvm-disagreements.txt does not explain (the open
            // bugs of known-mismatches.txt).
            "--open" => open = true,
            "--gen" => gen = Some(val()),
            "--family" => family = Some(val()),
            "--per-form" => per_form = val().parse().unwrap_or(24),
            "--show" => show = val().parse().unwrap_or(20),
            "--seed" => seed = val().parse().unwrap_or(0x5eed),
            other => {
                eprintln!("conformance: unknown argument {other}");
                return ExitCode::from(2);
            }
        }
    }
    let llvm = match LlvmMc::find() {
        Ok(l) => l,
        Err(e) => {
            eprintln!("conformance: {e}");
            return ExitCode::from(2);
        }
    };
    let specs = if fixtures {
        isa_runtime::fixtures::specs()
    } else {
        isa_runtime::specs()
    };
    let listed = conformance::listed_disagreements();
    let mut total = 0;
    for spec in specs {
        if gen.as_deref().is_some_and(|g| g != spec.generation) {
            continue;
        }
        let run = if asm {
            conformance::assembly
        } else {
            conformance::disassembly
        };
        let mut r = match run(spec, &llvm, per_form, seed) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{}: {e}", spec.generation);
                return ExitCode::from(2);
            }
        };
        let set = if fixtures { "fixture" } else { "amd" };
        let mode = if asm { "asm" } else { "disasm" };
        if list && open {
            r.separate_listed(set, mode, &listed);
        }
        if !list {
            for stale in r.separate_listed(set, mode, &listed) {
                println!("  listed in llvm-disagreements.txt but agrees now: {stale}");
            }
        }
        if let Some(f) = &family {
            r.keep_family(spec, f);
        }
        if list {
            let forms: std::collections::BTreeSet<&str> =
                r.mismatches.iter().map(|m| m.form.as_str()).collect();
            for f in forms {
                println!("{set}-{} {mode} {f}", r.generation);
            }
            total += r.mismatches.len();
            continue;
        }
        println!("{r}");
        print!("{}", r.family_table());
        for m in r.disagreements.iter().take(show.min(2)) {
            println!("  listed spec-vs-llvm {m}");
        }
        for f in &r.without_cases {
            println!("  no valid instance generated: {f}");
        }
        for m in r.mismatches.iter().take(show) {
            println!("  {m}");
        }
        total += r.mismatches.len();
    }
    if !list {
        println!("total mismatches: {total}");
    }
    if total == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}
