//! Lowering every entry of a pseudocode corpus without an XML spec, with the operand binding
//! each entry's family implies (sources, destination, memory operands). The XML excerpts hold
//! a few dozen instructions per generation; this measures the lowering over AMD's whole text
//! and finds gaps before a complete spec is dropped in.

use super::binding::{Family, FormBinding, Role, Variant};
use super::lower::{names_other_lanes, reads_name, Ctx, ExecMode, Lower};
use crate::pcode::corpus::{Class, GenerationCorpus};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// One entry's outcome.
pub struct Lowered {
    pub name: String,
    pub family: String,
    /// The function's code, or why it could not be lowered.
    pub result: Result<TokenStream, String>,
}

/// A plausible binding for an entry of `family` (the pseudocode header's family name).
pub(crate) fn synthetic_binding(family: Family, name: &str, reads_d0: bool) -> FormBinding {
    let mut b = FormBinding {
        variant: Some(if family == Family::Vop3p {
            Variant::Vop3p
        } else {
            Variant::Plain
        }),
        ..Default::default()
    };
    let mut add = |r: Role, i: usize, size: u32, vector: bool| {
        b.ops.push((r, i));
        b.sizes.push((r, size));
        if vector {
            b.vector.push(r);
        }
    };
    let size = crate::pcode::names::natural_ty(name).width.max(32);
    let mask_dst = name.starts_with("V_CMP") || name.starts_with("V_CMPX");
    let scalar_dst = mask_dst || name.contains("READLANE") || name.contains("READFIRSTLANE");
    match family {
        f if f.is_valu() => {
            add(Role::D0, 0, if mask_dst { 64 } else { size }, !scalar_dst);
            add(Role::S0, 1, size, false);
            add(Role::S1, 2, size, false);
            add(Role::S2, 3, size, false);
            add(Role::D1, 4, 64, false);
        }
        Family::Sopk => {
            add(Role::D0, 0, 32, false);
            if !reads_d0 {
                add(Role::S0, 0, 32, false);
            }
        }
        f if f.is_scalar() && f != Family::Smem => {
            add(Role::D0, 0, size, false);
            add(Role::S0, 1, size, false);
            add(Role::S1, 2, size, false);
        }
        Family::Smem => {
            add(Role::Sdata, 0, size, false);
            add(Role::Sbase, 1, 64, false);
            add(Role::Soffset, 2, 32, false);
        }
        Family::Ds => {
            add(Role::Vdst, 0, size, true);
            add(Role::Addr, 1, 32, true);
            add(Role::Data, 2, size, true);
            add(Role::Data1, 3, size, true);
        }
        _ => {
            add(Role::Vdst, 0, size, true);
            add(Role::Addr, 1, 64, true);
            add(Role::Data, 2, size, true);
            add(Role::Saddr, 3, 64, false);
            add(Role::Vaddr, 4, 32, true);
            add(Role::Srsrc, 5, 128, false);
            add(Role::Soffset, 6, 32, false);
        }
    }
    b
}

/// The family a corpus header names (`VOP3`, `SOP1`, `DS`, `GLOBAL`, `VGLOBAL`, ...).
pub(crate) fn header_family(header: &str) -> Family {
    Family::of(isa_vocab::classify(header).0)
}

/// Lowers every typed entry of a corpus.
pub fn lower_corpus(c: &GenerationCorpus) -> Vec<Lowered> {
    let mut out = Vec::new();
    for e in &c.entries {
        let family = header_family(&e.family);
        let result = match &e.class {
            Class::Typed { ir, .. } => {
                if let Some(why) = family.unmodelled() {
                    Err(why.to_string())
                } else {
                    let forms = [synthetic_binding(family, &e.name, reads_name(ir, "D0"))];
                    let mode = if family.is_scalar() {
                        ExecMode::Scalar
                    } else if names_other_lanes(ir) {
                        ExecMode::Wave
                    } else {
                        ExecMode::Lane
                    };
                    let cx = Ctx {
                        name: &e.name,
                        family,
                        forms: &forms,
                        ir,
                    };
                    let f = format_ident!(
                        "x_{}_{}",
                        e.family.replace(|c: char| !c.is_ascii_alphanumeric(), "_"),
                        e.name.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
                    );
                    Lower::new(&cx, mode).executor().map_err(|e| e.detail).map(|(body, _)| {
                        quote! {
                            pub fn #f(w: &mut Wave, d: &Decoded, mem: &mut dyn Memory, lds: &mut Lds) -> Result<Flow, ExecError> {
                                #body
                            }
                        }
                    })
                }
            }
            other => Err(format!("not typed ({})", other.label())),
        };
        out.push(Lowered {
            name: e.name.clone(),
            family: e.family.clone(),
            result,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::specdir;
    use std::collections::BTreeMap;

    /// Every typed entry of AMD's corpora lowers, or fails with a reason; the code of the
    /// lowered ones parses as Rust. Set `EXEC_GEN_DUMP=dir` to write one module per
    /// generation for a compile check against isa-runtime.
    #[test]
    fn amd_corpus_lowers_with_reasons() {
        let Some(dir) = specdir::real_pcode_dir() else {
            println!("skipped: AMD's pseudocode is absent (no shared spec-data, spec/pcode or AMD_ISA_PCODE_DIR)");
            return;
        };
        let corpus = crate::pcode::load_corpus(&dir.path).expect("corpus");
        if corpus.generations.is_empty() {
            println!("skipped: no AMD pseudocode files in {}", dir.path.display());
            return;
        }
        for g in &corpus.generations {
            let lowered = lower_corpus(g);
            let typed = g
                .entries
                .iter()
                .filter(|e| matches!(e.class, Class::Typed { .. }))
                .count();
            let ok: Vec<&TokenStream> = lowered
                .iter()
                .filter_map(|l| l.result.as_ref().ok())
                .collect();
            let mut reasons: BTreeMap<String, Vec<&str>> = BTreeMap::new();
            for l in &lowered {
                if let Err(r) = &l.result {
                    if !r.starts_with("not typed") {
                        let key = r.split(" (").next().unwrap_or(r).to_string();
                        reasons.entry(key).or_default().push(&l.name);
                    }
                }
            }
            let label = g.generation.map(|g| g.name()).unwrap_or("?");
            println!("{label}: {} of {typed} typed entries lowered", ok.len());
            let mut v: Vec<_> = reasons.iter().collect();
            v.sort_by_key(|(_, n)| std::cmp::Reverse(n.len()));
            for (r, names) in v.iter().take(25) {
                println!(
                    "  {:>4}  {r}  (e.g. {})",
                    names.len(),
                    names.iter().take(3).cloned().collect::<Vec<_>>().join(", ")
                );
            }
            let module = quote! { #(#ok)* };
            let file: syn::File = syn::parse2(module.clone())
                .unwrap_or_else(|e| panic!("{label}: generated code does not parse: {e}"));
            if let Some(out) = std::env::var_os("EXEC_GEN_DUMP") {
                let path = std::path::Path::new(&out).join(format!("{label}.rs"));
                std::fs::write(&path, prettyplease::unparse(&file)).expect("write dump");
            }
            // Most of AMD's typed text lowers (the rest is listed above with reasons).
            assert!(
                ok.len() * 10 >= typed * 8,
                "{label}: only {} of {typed} typed entries lowered",
                ok.len()
            );
        }
    }
}
