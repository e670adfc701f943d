//! Compiles an encoding condition's expression tree (AMD's `CondtionExpression`) into a Rust
//! boolean expression over the instruction bits `bits: u128`.

use crate::model::{Encoding, Field};
use crate::xml::{CondExpr, CondOp};
use proc_macro2::TokenStream;
use quote::quote;

/// A compiled sub-expression: integers and booleans are kept apart so that `&&` only joins
/// booleans and comparisons only compare integers.
enum Value {
    Int(TokenStream),
    Bool(TokenStream),
}

/// Compiles `expr` to a `bool` expression.
pub fn compile(expr: &CondExpr, enc: &Encoding) -> Result<TokenStream, String> {
    match value(expr, enc)? {
        Value::Bool(t) => Ok(t),
        Value::Int(t) => Ok(quote! { (#t != 0) }),
    }
}

/// Inline extraction of a field's value as `i64`.
pub fn field_value(f: &Field) -> TokenStream {
    let mut parts = Vec::new();
    let mut shift = 0u32;
    for r in &f.ranges {
        let off = r.bit_offset;
        let mask = crate::model::low_mask(r.bit_count);
        let pad = r.padding.as_ref().map_or(0, |p| p.bit_count);
        let pad_value = r.padding.as_ref().map_or(0, |p| p.value.value) as i64;
        let total = shift + pad;
        let part = if pad > 0 {
            quote! { (((((bits >> #off) & #mask) as i64) << #pad | #pad_value) << #shift) }
        } else if total > 0 {
            quote! { ((((bits >> #off) & #mask) as i64) << #shift) }
        } else {
            quote! { (((bits >> #off) & #mask) as i64) }
        };
        parts.push(part);
        shift += r.bit_count + pad;
    }
    quote! { (#(#parts)|*) }
}

fn int(x: &CondExpr, enc: &Encoding) -> Result<TokenStream, String> {
    match value(x, enc)? {
        Value::Int(t) => Ok(t),
        Value::Bool(t) => Ok(quote! { (#t as i64) }),
    }
}

fn boolean(x: &CondExpr, enc: &Encoding) -> Result<TokenStream, String> {
    match value(x, enc)? {
        Value::Bool(t) => Ok(t),
        Value::Int(t) => Ok(quote! { (#t != 0) }),
    }
}

fn literals(x: &CondExpr) -> Result<Vec<i64>, String> {
    match x {
        CondExpr::Op {
            op: CondOp::ConsArray,
            args,
            ..
        } => args
            .iter()
            .map(|a| match a {
                CondExpr::Lit { value, .. } => Ok(*value),
                _ => Err("an array element is not a literal".to_string()),
            })
            .collect(),
        _ => Err("`.within` needs an array of literals".to_string()),
    }
}

fn value(x: &CondExpr, enc: &Encoding) -> Result<Value, String> {
    match x {
        CondExpr::Lit { value, .. } => Ok(Value::Int(quote! { #value })),
        CondExpr::Id { name, .. } => Err(format!("a bare name `{name}` is not a value")),
        CondExpr::Op { op, args, .. } => {
            let arg = |i: usize| {
                args.get(i)
                    .ok_or_else(|| format!("operator `{}` lacks operand {}", op.as_xml(), i + 1))
            };
            Ok(match op {
                CondOp::FieldDeref => {
                    let CondExpr::Id { name, .. } = arg(1)? else {
                        return Err("`.fieldderef` must end in a field name".into());
                    };
                    let f = enc
                        .field(name)
                        .ok_or_else(|| format!("field {name} is not in {}", enc.name))?;
                    Value::Int(field_value(f))
                }
                CondOp::And | CondOp::Or => {
                    let (a, b) = (boolean(arg(0)?, enc)?, boolean(arg(1)?, enc)?);
                    if *op == CondOp::And {
                        Value::Bool(quote! { (#a && #b) })
                    } else {
                        Value::Bool(quote! { (#a || #b) })
                    }
                }
                CondOp::Not => {
                    let a = boolean(arg(0)?, enc)?;
                    Value::Bool(quote! { (!#a) })
                }
                CondOp::Eq | CondOp::Ne | CondOp::Lt | CondOp::Le | CondOp::Gt | CondOp::Ge => {
                    let (a, b) = (int(arg(0)?, enc)?, int(arg(1)?, enc)?);
                    Value::Bool(match op {
                        CondOp::Eq => quote! { (#a == #b) },
                        CondOp::Ne => quote! { (#a != #b) },
                        CondOp::Lt => quote! { (#a < #b) },
                        CondOp::Le => quote! { (#a <= #b) },
                        CondOp::Gt => quote! { (#a > #b) },
                        _ => quote! { (#a >= #b) },
                    })
                }
                CondOp::Within | CondOp::NotWithin => {
                    let a = int(arg(0)?, enc)?;
                    let lits = literals(arg(1)?)?;
                    let t = quote! { matches!(#a, #(#lits)|*) };
                    Value::Bool(if *op == CondOp::Within {
                        t
                    } else {
                        quote! { (!#t) }
                    })
                }
                CondOp::ConsArray => return Err("an array is not a value".into()),
                CondOp::Other(o) => return Err(format!("unknown operator `{o}`")),
            })
        }
    }
}

/// Field values a condition asks for: `field == lit` and `field .within [lit, ...]` (first
/// element) under `&&`. Test generators use them to build instances of the form.
pub fn hints(expr: &CondExpr, enc: &Encoding) -> Vec<(usize, i64)> {
    let mut out = Vec::new();
    collect_hints(expr, enc, &mut out);
    out
}

fn field_of(x: &CondExpr, enc: &Encoding) -> Option<usize> {
    match x {
        CondExpr::Op {
            op: CondOp::FieldDeref,
            args,
            ..
        } => match args.get(1) {
            Some(CondExpr::Id { name, .. }) => enc.field_index(name),
            _ => None,
        },
        _ => None,
    }
}

fn collect_hints(x: &CondExpr, enc: &Encoding, out: &mut Vec<(usize, i64)>) {
    let CondExpr::Op { op, args, .. } = x else {
        return;
    };
    match op {
        CondOp::And => args.iter().for_each(|a| collect_hints(a, enc, out)),
        CondOp::Eq => {
            if let (Some(f), Some(CondExpr::Lit { value, .. })) =
                (args.first().and_then(|a| field_of(a, enc)), args.get(1))
            {
                out.push((f, *value));
            }
        }
        CondOp::Within => {
            if let (
                Some(f),
                Some(CondExpr::Op {
                    op: CondOp::ConsArray,
                    args: lits,
                    ..
                }),
            ) = (args.first().and_then(|a| field_of(a, enc)), args.get(1))
            {
                if let Some(CondExpr::Lit { value, .. }) = lits.first() {
                    out.push((f, *value));
                }
            }
        }
        _ => {}
    }
}
