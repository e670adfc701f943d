//! `isa-gen tables`, `isa-gen show`, `isa-gen check`: inspecting loaded specs.

use crate::generation::Generation;
use crate::model::{self, Spec, Summary};
use crate::specdir::{self, Source, SpecDir};
use clap::Args;
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

/// Where to read specs from; by default the resolved spec directory (see `spec/README.md`).
#[derive(Debug, Args, Clone)]
pub struct SpecSource {
    /// Directory of `amdgpu_isa_<gen>.xml` files (default: $AMD_ISA_SPEC_DIR, spec/xml,
    /// ../shared/spec-data/xml-excerpts, then the bundled fixtures).
    #[arg(long, value_name = "DIR")]
    pub spec_dir: Option<PathBuf>,
}

impl SpecSource {
    pub fn resolve(&self) -> SpecDir {
        match &self.spec_dir {
            Some(p) => SpecDir::layered(specdir::split_layers(p.as_os_str()), Source::Explicit),
            None => specdir::xml_dir(),
        }
    }
}

#[derive(Debug, Args)]
pub struct TablesArgs {
    #[command(flatten)]
    pub source: SpecSource,
    /// Only this generation.
    #[arg(long)]
    pub arch: Option<Generation>,
    /// Machine-readable output.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ShowArgs {
    #[command(flatten)]
    pub source: SpecSource,
    #[arg(long)]
    pub arch: Generation,
    /// An instruction (or alias), an encoding or an operand type name; case-insensitive.
    pub name: String,
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// Directory of spec files, or one file (default: the resolved spec directory).
    pub path: Option<PathBuf>,
    /// Also print warnings (errors are always printed).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    pub warnings: bool,
    #[arg(long)]
    pub json: bool,
}

fn load(dir: &SpecDir) -> Result<Vec<Spec>, ExitCode> {
    model::load_layers(&dir.layers).map_err(|e| {
        eprintln!("isa-gen: {e}");
        ExitCode::from(2)
    })
}

fn pick(specs: Vec<Spec>, arch: Option<Generation>) -> Vec<Spec> {
    match arch {
        Some(g) => specs
            .into_iter()
            .filter(|s| s.generation == Some(g))
            .collect(),
        None => specs,
    }
}

pub fn tables(args: TablesArgs) -> ExitCode {
    let dir = args.source.resolve();
    let specs = match load(&dir) {
        Ok(s) => pick(s, args.arch),
        Err(code) => return code,
    };
    if specs.is_empty() {
        eprintln!(
            "isa-gen: no spec{} in {}",
            args.arch.map(|g| format!(" for {g}")).unwrap_or_default(),
            dir.display()
        );
        return ExitCode::from(2);
    }
    let summary = Summary {
        spec_dir: dir.display(),
        spec_source: dir.source,
        specs: specs.iter().map(Spec::summary).collect(),
        overrides: crate::spec_fixes::OVERRIDES,
    };
    if args.json {
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&summary).expect("summary serializes")
        );
        return ExitCode::SUCCESS;
    }
    crate::outln!(
        "spec directory: {} ({:?})",
        summary.spec_dir,
        summary.spec_source
    );
    crate::outln!(
        "{:<8} {:<10} {:<6} {:>5} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>6}",
        "gen",
        "release",
        "schema",
        "enc",
        "instr",
        "complete",
        "instr-enc",
        "optype",
        "dfmt",
        "errors",
        "warns"
    );
    for s in &summary.specs {
        crate::outln!(
            "{:<8} {:<10} {:<6} {:>5} {:>6} {:>8} {:>8} {:>6} {:>6} {:>6} {:>6}",
            s.generation.as_deref().unwrap_or("?"),
            s.release_date.as_deref().unwrap_or("?"),
            s.schema_version.as_deref().unwrap_or("?"),
            s.encodings,
            s.instructions,
            s.complete_instructions,
            s.instruction_encodings,
            s.operand_types,
            s.data_formats,
            s.errors,
            s.warnings
        );
    }
    crate::outln!("\noverride layer (facts the XML lacks, applied before code generation):");
    for o in summary.overrides {
        let gens: Vec<&str> = o.generations.to_vec();
        crate::outln!(
            "  [{}] {:?}\n      reason: {}",
            gens.join(","),
            o.kind,
            o.reason
        );
    }
    for s in &summary.specs {
        for a in &s.overrides_applied {
            crate::outln!(
                "  applied to {}: {a}",
                s.generation.as_deref().unwrap_or("?")
            );
        }
    }
    ExitCode::SUCCESS
}

pub fn check(args: CheckArgs) -> ExitCode {
    let dir = match &args.path {
        Some(p) => SpecDir::layered(specdir::split_layers(p.as_os_str()), Source::Explicit),
        None => specdir::xml_dir(),
    };
    let path = dir.path.clone();
    let specs = if dir.layers.len() == 1 && path.is_file() {
        match model::load_file(&path) {
            Ok(s) => vec![s],
            Err(e) => {
                eprintln!("isa-gen: {e}");
                return ExitCode::from(2);
            }
        }
    } else {
        match load(&dir) {
            Ok(s) => s,
            Err(code) => return code,
        }
    };
    // Which release each file is (see spec/releases.toml): a warning unless AMD's own file.
    let mut specs = specs;
    let mut identities = Vec::new();
    for s in &mut specs {
        match crate::releases::check_spec(s) {
            Ok((line, warning)) => {
                identities.push(line);
                s.diagnostics.extend(warning);
            }
            Err(e) => identities.push(format!("not identified: {e}")),
        }
    }
    let mut errors = 0;
    if args.json {
        let all: Vec<_> = specs.iter().flat_map(|s| s.diagnostics.iter()).collect();
        crate::outln!(
            "{}",
            serde_json::to_string_pretty(&all).expect("diagnostics serialize")
        );
        errors = specs.iter().map(|s| s.errors().count()).sum();
    } else {
        for (s, identity) in specs.iter().zip(&identities) {
            for d in &s.diagnostics {
                if d.severity == crate::Severity::Error || args.warnings {
                    crate::outln!("{d}");
                }
            }
            crate::outln!("{}: release: {identity}", s.label());
            let e = s.errors().count();
            errors += e;
            crate::outln!(
                "{}: {} errors, {} warnings{}",
                s.label(),
                e,
                s.warnings().count(),
                if s.read_stopped_early {
                    " (reading stopped early)"
                } else {
                    ""
                }
            );
        }
    }
    if errors > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

pub fn show(args: ShowArgs) -> ExitCode {
    let dir = args.source.resolve();
    let specs = match load(&dir) {
        Ok(s) => pick(s, Some(args.arch)),
        Err(code) => return code,
    };
    let Some(spec) = specs.first() else {
        eprintln!("isa-gen: no spec for {} in {}", args.arch, dir.display());
        return ExitCode::from(2);
    };
    let name = args.name.to_ascii_uppercase();
    let text = if let Some(ins) = spec.instruction(&name) {
        if args.json {
            serde_json::to_string_pretty(ins).expect("instruction serializes")
        } else {
            describe_instruction(spec, ins)
        }
    } else if let Some(enc) = spec.encoding(&name) {
        if args.json {
            serde_json::to_string_pretty(enc).expect("encoding serializes")
        } else {
            describe_encoding(enc)
        }
    } else if let Some(ot) = spec.operand_type(&name) {
        if args.json {
            serde_json::to_string_pretty(ot).expect("operand type serializes")
        } else {
            describe_operand_type(ot)
        }
    } else {
        eprintln!(
            "isa-gen: {} has no instruction, encoding or operand type named {}",
            spec.label(),
            args.name
        );
        return ExitCode::from(1);
    };
    crate::outln!("{text}");
    ExitCode::SUCCESS
}

/// Draws the encoding's bits, most significant first, one 32-bit word per line: `0`/`1` for
/// identifying bits (with `opcode` filled in), `.` for operand bits.
fn draw_bits(enc: &model::Encoding, opcode: Option<u32>) -> String {
    let mut id = enc.fixed_bits().map(|(_, v)| v).unwrap_or(0);
    let mut mask = enc.mask;
    if let (Some(op), Some(fi)) = (opcode, enc.op_field) {
        let f = &enc.fields[fi];
        id = enc
            .identifier_by_opcode
            .get(&op)
            .copied()
            .unwrap_or_else(|| f.insert(id, op as u128));
        mask |= f.mask();
    }
    let mut out = String::new();
    for word in (0..enc.bit_count.div_ceil(32)).rev() {
        let _ = write!(out, "    dword {word}: ");
        for bit in (0..32).rev() {
            let b = word * 32 + bit;
            let c = if (mask >> b) & 1 == 1 {
                if (id >> b) & 1 == 1 {
                    '1'
                } else {
                    '0'
                }
            } else {
                '.'
            };
            out.push(c);
            if bit % 8 == 0 && bit != 0 {
                out.push(' ');
            }
        }
        out.push('\n');
    }
    out
}

fn describe_fields(enc: &model::Encoding, out: &mut String) {
    let mut fields: Vec<&model::Field> = enc.fields.iter().collect();
    fields.sort_by_key(|f| std::cmp::Reverse(f.ranges.first().map_or(0, |r| r.bit_offset)));
    for f in fields {
        let _ = writeln!(
            out,
            "    {:<14} {:<18} {} bits{}",
            f.name,
            f.layout_text(),
            f.width(),
            if f.is_conditional {
                ", conditional"
            } else {
                ""
            }
        );
    }
}

pub fn describe_instruction(spec: &Spec, ins: &model::Instruction) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{} ({})", ins.name, spec.label());
    if !ins.aliases.is_empty() {
        let _ = writeln!(out, "  aliases: {}", ins.aliases.join(", "));
    }
    if let Some(g) = &ins.functional_group {
        let _ = writeln!(
            out,
            "  group: {g} [{}]",
            ins.functional_subgroups.join(", ")
        );
    }
    let flags = ins.flags.names();
    if !flags.is_empty() {
        let _ = writeln!(out, "  flags: {}", flags.join(", "));
    }
    if !ins.is_complete() {
        let _ = writeln!(
            out,
            "  INCOMPLETE: later stages skip the encodings marked below"
        );
    }
    for ie in &ins.encodings {
        let enc = ie.encoding.map(|i| &spec.encodings[i]);
        let _ = writeln!(
            out,
            "\n  {} — condition {}, opcode {}, {} bytes",
            ie.encoding_name,
            match &ie.condition {
                model::ConditionRef::Unconditional =>
                    ie.condition_name.clone().unwrap_or_else(|| "none".into()),
                model::ConditionRef::Defined { .. } =>
                    ie.condition_name.clone().unwrap_or_default(),
                model::ConditionRef::Undefined { name } =>
                    format!("{name} (not defined by the encoding; default)"),
            },
            ie.opcode.map_or("?".to_string(), |o| o.to_string()),
            enc.map_or("?".to_string(), |e| e.byte_len().to_string())
        );
        for why in &ie.incomplete {
            let _ = writeln!(out, "    incomplete: {why}");
        }
        if let Some(enc) = enc {
            out.push_str(&draw_bits(enc, ie.opcode));
            describe_fields(enc, &mut out);
        }
        if ie.operands.is_empty() {
            let _ = writeln!(out, "    operands: none");
        }
        for o in &ie.operands {
            let field = o.field_name.as_deref().unwrap_or("-");
            let bits = match (enc, o.field) {
                (Some(e), Some(fi)) => e.fields[fi].layout_text(),
                _ => "-".into(),
            };
            let dir = match (o.input, o.output) {
                (true, true) => "in/out",
                (true, false) => "in",
                (false, true) => "out",
                (false, false) => "-",
            };
            let _ = writeln!(
                out,
                "    operand {}: {:<8} {:<12} {:<24} {:<18} {:>3} bits {:<6}{}",
                o.order,
                field,
                bits,
                o.operand_type_name.as_deref().unwrap_or("?"),
                o.data_format_name.as_deref().unwrap_or("?"),
                o.size,
                dir,
                if o.is_implicit { " implicit" } else { "" }
            );
        }
    }
    out
}

pub fn describe_encoding(enc: &model::Encoding) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} — order {}, {} bits, {} identifiers",
        enc.name,
        enc.order,
        enc.bit_count,
        enc.identifiers.len()
    );
    out.push_str(&draw_bits(enc, None));
    describe_fields(enc, &mut out);
    for c in &enc.conditions {
        let _ = writeln!(
            out,
            "    condition {}{}: {}",
            c.name,
            c.id.map(|i| format!(" (id {i})")).unwrap_or_default(),
            c.expr
                .as_ref()
                .map_or("always".to_string(), crate::model::condition_text)
        );
    }
    out
}

pub fn describe_operand_type(ot: &model::OperandType) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{}{} — {} predefined values",
        ot.name,
        if ot.is_partitioned {
            " (partitioned)"
        } else {
            ""
        },
        ot.predefined_values.len()
    );
    if !ot.subtypes.is_empty() {
        let _ = writeln!(out, "  subtypes: {}", ot.subtypes.join(", "));
    }
    for f in &ot.fields {
        let _ = writeln!(out, "  field {:<12} {}", f.name, f.layout_text());
        for v in &f.predefined_values {
            let _ = writeln!(out, "      {:>6} {}", v.value, v.name);
        }
    }
    for v in &ot.predefined_values {
        let _ = writeln!(out, "  {:>6} {}", v.value, v.name);
    }
    out
}
