//! One function for executors whose bodies are token for token the same: the executor
//! table points every such instruction at the first one, whose doc comment names the others.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, ToTokens};
use std::collections::HashMap;
use syn::{Expr, ItemFn, Lit, Meta};

/// `fns` (executor functions, doc comment first line `NAME: provenance.`) and `executors`
/// (`Some(x_NAME as ExecFn)` entries) with each repeated body kept once.
pub(crate) fn share_identical(
    fns: Vec<TokenStream>,
    executors: Vec<TokenStream>,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let parsed: Option<Vec<ItemFn>> = fns.iter().map(|f| syn::parse2(f.clone()).ok()).collect();
    let Some(mut items) = parsed else {
        return (fns, executors);
    };
    let mut first: HashMap<String, usize> = HashMap::new();
    let mut kept_for: HashMap<String, syn::Ident> = HashMap::new();
    let mut also: Vec<Vec<String>> = vec![Vec::new(); items.len()];
    let mut keep = vec![true; items.len()];
    for (k, f) in items.iter().enumerate() {
        let key = f.block.to_token_stream().to_string();
        match first.get(&key) {
            Some(&j) => {
                keep[k] = false;
                kept_for.insert(f.sig.ident.to_string(), items[j].sig.ident.clone());
                also[j].push(first_doc(f).unwrap_or_else(|| f.sig.ident.to_string()));
            }
            None => {
                first.insert(key, k);
            }
        }
    }
    for (f, names) in items.iter_mut().zip(&also) {
        if names.is_empty() {
            continue;
        }
        let line = format!(
            " Also the executor of (the same body): {}",
            names
                .iter()
                .map(|n| n.trim().trim_end_matches('.'))
                .collect::<Vec<_>>()
                .join("; ")
        );
        // After the first line, so that line still names the function's own instruction.
        f.attrs
            .insert(1.min(f.attrs.len()), syn::parse_quote!(#[doc = ""]));
        f.attrs
            .insert(2.min(f.attrs.len()), syn::parse_quote!(#[doc = #line]));
    }
    let fns = items
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(f, _)| f.to_token_stream())
        .collect();
    let executors = executors
        .into_iter()
        .map(|e| match target(&e).and_then(|n| kept_for.get(&n)) {
            Some(kept) => {
                let kept = format_ident!("{}", kept);
                quote!(Some(#kept as ExecFn))
            }
            None => e,
        })
        .collect();
    (fns, executors)
}

/// The function an executor entry `Some(x_NAME as ExecFn)` names.
fn target(e: &TokenStream) -> Option<String> {
    let Ok(Expr::Call(c)) = syn::parse2::<Expr>(e.clone()) else {
        return None;
    };
    match c.args.first()? {
        Expr::Cast(k) => match &*k.expr {
            Expr::Path(p) => p.path.get_ident().map(|i| i.to_string()),
            _ => None,
        },
        _ => None,
    }
}

/// The first line of a function's doc comment.
fn first_doc(f: &ItemFn) -> Option<String> {
    f.attrs.iter().find_map(|a| match &a.meta {
        Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
            Expr::Lit(l) => match &l.lit {
                Lit::Str(s) => Some(s.value()),
                _ => None,
            },
            _ => None,
        },
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_bodies_share_one_function() {
        let fns = vec![
            quote!(
                #[doc = " A: here."]
                pub fn x_A(w: &mut Wave) -> R {
                    f(w, 1u32)
                }
            ),
            quote!(
                #[doc = " B: there."]
                pub fn x_B(w: &mut Wave) -> R {
                    f(w, 1u32)
                }
            ),
            quote!(
                #[doc = " C: else."]
                pub fn x_C(w: &mut Wave) -> R {
                    f(w, 2u32)
                }
            ),
        ];
        let ex = vec![
            quote!(Some(x_A as ExecFn)),
            quote!(Some(x_B as ExecFn)),
            quote!(Some(x_C as ExecFn)),
            quote!(Some(unsupported as ExecFn)),
        ];
        let (fns, ex) = share_identical(fns, ex);
        assert_eq!(fns.len(), 2);
        let a = fns[0].to_string();
        assert!(a.contains("x_A") && a.contains("B: there"), "{a}");
        let ex: Vec<String> = ex.iter().map(|e| e.to_string()).collect();
        assert_eq!(ex[1], quote!(Some(x_A as ExecFn)).to_string());
        assert_eq!(ex[2], quote!(Some(x_C as ExecFn)).to_string());
        assert_eq!(ex[3], quote!(Some(unsupported as ExecFn)).to_string());
    }
}
