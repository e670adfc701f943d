//! Compiles an encoding condition's expression tree (AMD's `CondtionExpression`) into a Rust
//! boolean expression over the instruction bits `bits: u128`.
//!
//! Constant sub-expressions are folded (AMD writes `1` for "always"), and fields are either
//! extracted inline or read from locals named after them (`ssrc0`), which the decoder's
//! named predicates declare.

use crate::model::{Encoding, Field};
use crate::xml::{CondExpr, CondOp};
use proc_macro2::TokenStream;
use quote::quote;
use std::collections::BTreeSet;

/// A compiled sub-expression: integers and booleans are kept apart so that `&&` only joins
/// booleans and comparisons only compare integers; constants stay values until folded.
enum Value {
    Int(TokenStream),
    Bool(TokenStream),
    ConstInt(i64),
    ConstBool(bool),
}

/// A compiled condition: a constant, or an expression over the bits.
pub enum Test {
    Const(bool),
    Expr(TokenStream),
}

/// How field reads are written.
enum Fields<'a> {
    /// `(((bits >> 8) & 0xff) as i64)` in place.
    Inline,
    /// The field's local (`ssrc0`); the indices of the fields read are collected.
    Locals(&'a mut BTreeSet<usize>),
}

struct Ctx<'a> {
    enc: &'a Encoding,
    fields: Fields<'a>,
}

/// Compiles `expr` to a `bool` expression with field reads in place.
pub fn compile(expr: &CondExpr, enc: &Encoding) -> Result<TokenStream, String> {
    let mut cx = Ctx {
        enc,
        fields: Fields::Inline,
    };
    Ok(match boolean(expr, &mut cx)? {
        Value::ConstBool(b) => quote! { #b },
        Value::Bool(t) => t,
        _ => unreachable!("boolean() returns booleans"),
    })
}

/// Compiles `expr` over field locals (see [`local_name`]), adding the fields it reads to
/// `fields`.
pub fn compile_named(
    expr: &CondExpr,
    enc: &Encoding,
    fields: &mut BTreeSet<usize>,
) -> Result<Test, String> {
    let mut cx = Ctx {
        enc,
        fields: Fields::Locals(fields),
    };
    Ok(match boolean(expr, &mut cx)? {
        Value::ConstBool(b) => Test::Const(b),
        Value::Bool(t) => Test::Expr(t),
        _ => unreachable!("boolean() returns booleans"),
    })
}

/// The local holding a field's value in a named predicate: the field's name in lower case
/// (`SSRC0` → `ssrc0`), prefixed where that is not an identifier.
pub fn local_name(f: &Field) -> proc_macro2::Ident {
    let mut name: String = f
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    let keyword = matches!(
        name.as_str(),
        "as" | "break"
            | "const"
            | "continue"
            | "crate"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "bits"
    );
    if keyword || name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        name = format!("f_{name}");
    }
    proc_macro2::Ident::new(&name, proc_macro2::Span::call_site())
}

/// Inline extraction of a field's value as `i64`, with hex masks.
pub fn field_value(f: &Field) -> TokenStream {
    let mut parts = Vec::new();
    let mut shift = 0u32;
    for r in &f.ranges {
        let off = r.bit_offset;
        let mask = hex_mask(crate::model::low_mask(r.bit_count));
        let pad = r.padding.as_ref().map_or(0, |p| p.bit_count);
        let pad_value = r.padding.as_ref().map_or(0, |p| p.value.value) as i64;
        let total = shift + pad;
        // Bits at offset 0 need no shift.
        let bits = if off == 0 {
            quote! { bits }
        } else {
            quote! { (bits >> #off) }
        };
        let part = if pad > 0 {
            quote! { ((((#bits & #mask) as i64) << #pad | #pad_value) << #shift) }
        } else if total > 0 {
            quote! { (((#bits & #mask) as i64) << #shift) }
        } else {
            quote! { ((#bits & #mask) as i64) }
        };
        parts.push(part);
        shift += r.bit_count + pad;
    }
    if parts.len() == 1 {
        return parts.pop().unwrap_or_default();
    }
    quote! { (#(#parts)|*) }
}

/// A `u128` mask literal in hex (`0xff`).
fn hex_mask(m: u128) -> TokenStream {
    format!("{m:#x}").parse().unwrap_or_else(|_| quote! { #m })
}

fn int(x: &CondExpr, cx: &mut Ctx) -> Result<Value, String> {
    Ok(match value(x, cx)? {
        Value::Bool(t) => Value::Int(quote! { (#t as i64) }),
        Value::ConstBool(b) => Value::ConstInt(b as i64),
        v => v,
    })
}

fn boolean(x: &CondExpr, cx: &mut Ctx) -> Result<Value, String> {
    Ok(match value(x, cx)? {
        Value::Int(t) => Value::Bool(quote! { (#t != 0) }),
        Value::ConstInt(v) => Value::ConstBool(v != 0),
        v => v,
    })
}

fn int_tokens(v: Value) -> TokenStream {
    match v {
        Value::Int(t) => t,
        Value::ConstInt(v) => quote! { #v },
        Value::Bool(t) => quote! { (#t as i64) },
        Value::ConstBool(b) => {
            let v = b as i64;
            quote! { #v }
        }
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

fn value(x: &CondExpr, cx: &mut Ctx) -> Result<Value, String> {
    match x {
        CondExpr::Lit { value, .. } => Ok(Value::ConstInt(*value)),
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
                    let k = cx
                        .enc
                        .field_index(name)
                        .ok_or_else(|| format!("field {name} is not in {}", cx.enc.name))?;
                    let f = &cx.enc.fields[k];
                    match &mut cx.fields {
                        Fields::Inline => Value::Int(field_value(f)),
                        Fields::Locals(used) => {
                            used.insert(k);
                            let l = local_name(f);
                            Value::Int(quote! { #l })
                        }
                    }
                }
                CondOp::And | CondOp::Or => {
                    let (a, b) = (boolean(arg(0)?, cx)?, boolean(arg(1)?, cx)?);
                    let and = *op == CondOp::And;
                    match (a, b) {
                        (Value::ConstBool(x), other) | (other, Value::ConstBool(x)) => {
                            // `true && e` is `e`, `false && e` is false; dually for `||`.
                            if x == and {
                                other
                            } else {
                                Value::ConstBool(x)
                            }
                        }
                        (Value::Bool(a), Value::Bool(b)) => {
                            if and {
                                Value::Bool(quote! { (#a && #b) })
                            } else {
                                Value::Bool(quote! { (#a || #b) })
                            }
                        }
                        _ => unreachable!("boolean() returns booleans"),
                    }
                }
                CondOp::Not => match boolean(arg(0)?, cx)? {
                    Value::ConstBool(b) => Value::ConstBool(!b),
                    Value::Bool(a) => Value::Bool(quote! { (!#a) }),
                    _ => unreachable!("boolean() returns booleans"),
                },
                CondOp::Eq | CondOp::Ne | CondOp::Lt | CondOp::Le | CondOp::Gt | CondOp::Ge => {
                    let (a, b) = (int(arg(0)?, cx)?, int(arg(1)?, cx)?);
                    if let (Value::ConstInt(a), Value::ConstInt(b)) = (&a, &b) {
                        let (a, b) = (*a, *b);
                        return Ok(Value::ConstBool(match op {
                            CondOp::Eq => a == b,
                            CondOp::Ne => a != b,
                            CondOp::Lt => a < b,
                            CondOp::Le => a <= b,
                            CondOp::Gt => a > b,
                            _ => a >= b,
                        }));
                    }
                    let (a, b) = (int_tokens(a), int_tokens(b));
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
                    let a = int(arg(0)?, cx)?;
                    let lits = literals(arg(1)?)?;
                    let within = *op == CondOp::Within;
                    if let Value::ConstInt(v) = a {
                        return Ok(Value::ConstBool(lits.contains(&v) == within));
                    }
                    let a = int_tokens(a);
                    let t = quote! { matches!(#a, #(#lits)|*) };
                    Value::Bool(if within {
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
