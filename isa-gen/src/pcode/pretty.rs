//! A readable rendering of the typed IR, for `isa-gen pcode show` and for tests.
//!
//! Statements keep AMD's shape; every leaf and conversion shows its type: `S0:u32` reads
//! register S0 as a u32, `to_f32(x)` converts x's value, `as_f32(x)` reinterprets x's bits,
//! `3:u32` is a constant, `(a + b)` has the type of its (already converted) operands.

use super::ast::{AssignOp, Span};
use super::ir::*;
use std::fmt::Write;

/// Renders a whole entry: locals, lambda instances, then the body.
pub fn render(ir: &Ir) -> String {
    let mut out = String::new();
    if !ir.locals.is_empty() {
        out.push_str("locals:");
        for l in &ir.locals {
            let _ = write!(out, " {}", local(l));
        }
        out.push('\n');
    }
    for (i, lam) in ir.lambdas.iter().enumerate() {
        let params: Vec<String> = lam
            .params
            .iter()
            .map(|p| format!("{}: {}", p.name, p.ty))
            .collect();
        let _ = writeln!(
            out,
            "lambda #{i} {}({}) -> {}:",
            lam.name,
            params.join(", "),
            lam.ret
        );
        if !lam.locals.is_empty() {
            let ls: Vec<String> = lam.locals.iter().map(local).collect();
            let _ = writeln!(out, "  locals: {}", ls.join(" "));
        }
        block(&mut out, &lam.body, 1);
    }
    if !ir.lambdas.is_empty() {
        out.push_str("body:\n");
        block(&mut out, &ir.body, 1);
    } else {
        block(&mut out, &ir.body, 0);
    }
    out
}

fn local(l: &Local) -> String {
    let origin = match l.origin {
        LocalOrigin::Declared => "declared",
        LocalOrigin::Inferred => "inferred",
        LocalOrigin::Loop => "loop",
        LocalOrigin::Param => "param",
    };
    match l.len {
        Some(n) => format!("{}: {}[{n}] ({origin})", l.name, l.ty),
        None => format!("{}: {} ({origin})", l.name, l.ty),
    }
}

/// Renders statements, one per line, indented by `depth` levels.
pub fn block(out: &mut String, stmts: &[Stmt], depth: usize) {
    for s in stmts {
        stmt(out, s, depth);
    }
}

fn indent(out: &mut String, depth: usize) {
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn stmt(out: &mut String, s: &Stmt, depth: usize) {
    indent(out, depth);
    match s {
        Stmt::Assign {
            place: p,
            op,
            value,
            ..
        } => {
            let sym = if *op == AssignOp::Set {
                "="
            } else {
                op.symbol()
            };
            let _ = writeln!(out, "{} {sym} {}", place(p), expr(value));
        }
        Stmt::Declare { local, .. } => {
            let _ = writeln!(out, "declare {local}");
        }
        Stmt::If {
            arms, otherwise, ..
        } => {
            for (i, (c, b)) in arms.iter().enumerate() {
                if i > 0 {
                    indent(out, depth);
                }
                let kw = if i == 0 { "if" } else { "elsif" };
                let _ = writeln!(out, "{kw} {} then", expr(c));
                block(out, b, depth + 1);
            }
            if !otherwise.is_empty() {
                indent(out, depth);
                out.push_str("else\n");
                block(out, otherwise, depth + 1);
            }
            indent(out, depth);
            out.push_str("endif\n");
        }
        Stmt::For {
            var,
            from,
            to,
            body,
            ..
        } => {
            let _ = writeln!(out, "for {var} in {} : {} do", expr(from), expr(to));
            block(out, body, depth + 1);
            indent(out, depth);
            out.push_str("endfor\n");
        }
        Stmt::While { cond, body, .. } => {
            let _ = writeln!(out, "while {} do", expr(cond));
            block(out, body, depth + 1);
            indent(out, depth);
            out.push_str("endwhile\n");
        }
        Stmt::Return { value: Some(v), .. } => {
            let _ = writeln!(out, "return {}", expr(v));
        }
        Stmt::Return { value: None, .. } => out.push_str("return\n"),
        Stmt::Break { .. } => out.push_str("break\n"),
        Stmt::Continue { .. } => out.push_str("continue\n"),
        Stmt::Call { func, args, .. } => {
            let a: Vec<String> = args.iter().map(expr).collect();
            let _ = writeln!(out, "{func}({})", a.join(", "));
        }
        Stmt::Note { text, .. } => {
            let _ = writeln!(out, "note {text:?}");
        }
    }
}

/// One place; every node shows its type, like expressions.
pub fn place(p: &Place) -> String {
    let body = match &p.kind {
        PlaceKind::Local(n) | PlaceKind::Reg(n) => n.clone(),
        PlaceKind::Element { array, index } | PlaceKind::RegElement { array, index } => {
            format!("{array}[{}]", expr(index))
        }
        PlaceKind::Mem { space, addr } => format!("{}[{}]", space_name(*space), expr(addr)),
        PlaceKind::Vgpr { lane, reg } => format!("VGPR[{}][{}]", expr(lane), expr(reg)),
        PlaceKind::Sgpr { reg } => format!("SGPR[{}]", expr(reg)),
        PlaceKind::Field { base, name } => format!("{}.{name}", place(base)),
        PlaceKind::View { base } => format!("as_{}({})", p.ty, place(base)),
        PlaceKind::Bit { base, index } => format!("{}[{}]", place(base), expr(index)),
        PlaceKind::Slice { base, lo, reversed } => {
            slice_text(&place(base), lo, p.ty.width, *reversed)
        }
        PlaceKind::Lane { base, index } => format!("{}.lane[{}]", place(base), expr(index)),
        PlaceKind::Concat(parts) => {
            let ps: Vec<String> = parts.iter().map(place).collect();
            return format!("{{ {} }}", ps.join(", "));
        }
    };
    if matches!(p.kind, PlaceKind::View { .. }) {
        body
    } else {
        format!("{body}:{}", p.ty)
    }
}

fn space_name(s: Space) -> &'static str {
    match s {
        Space::Mem => "MEM",
        Space::Lds => "LDS",
    }
}

fn slice_text(base: &str, lo: &Expr, width: u32, reversed: bool) -> String {
    let rev = if reversed { " reversed" } else { "" };
    format!("{base}[{} +: {width}{rev}]", expr(lo))
}

/// One expression.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Int(v) => {
            if *v > 0xffff {
                format!("{v:#x}:{}", e.ty)
            } else {
                format!("{v}:{}", e.ty)
            }
        }
        ExprKind::Float(v) => format!("{v:?}:{}", e.ty),
        ExprKind::Const(n) | ExprKind::Local(n) | ExprKind::Reg(n) => format!("{n}:{}", e.ty),
        ExprKind::Element { array, index } | ExprKind::RegElement { array, index } => {
            format!("{array}[{}]:{}", expr(index), e.ty)
        }
        ExprKind::Mem { space, addr } => format!("{}[{}]:{}", space_name(*space), expr(addr), e.ty),
        ExprKind::Vgpr { lane, reg } => format!("VGPR[{}][{}]:{}", expr(lane), expr(reg), e.ty),
        ExprKind::Sgpr { reg } => format!("SGPR[{}]:{}", expr(reg), e.ty),
        ExprKind::Field { base, name } => format!("{}.{name}:{}", expr(base), e.ty),
        ExprKind::Bit { base, index } => format!("{}[{}]", expr(base), expr(index)),
        ExprKind::Slice { base, lo, reversed } => {
            slice_text(&expr(base), lo, e.ty.width, *reversed)
        }
        ExprKind::Lane { base, index } => format!("{}.lane[{}]:{}", expr(base), expr(index), e.ty),
        ExprKind::Concat(parts) => {
            let ps: Vec<String> = parts.iter().map(expr).collect();
            format!("{{ {} }}", ps.join(", "))
        }
        ExprKind::Convert { expr: inner, how } => {
            let prefix = match how {
                ConvKind::Numeric => "to",
                ConvKind::Reinterpret => "as",
            };
            format!("{prefix}_{}({})", e.ty, expr(inner))
        }
        ExprKind::Unary { op, expr: inner } => format!("{}{}", op.symbol(), expr(inner)),
        ExprKind::Binary { op, lhs, rhs } => {
            format!("({} {} {})", expr(lhs), op.symbol(), expr(rhs))
        }
        ExprKind::Select {
            cond,
            then,
            otherwise,
        } => {
            format!("({} ? {} : {})", expr(cond), expr(then), expr(otherwise))
        }
        ExprKind::Call { func, args } => {
            let a: Vec<String> = args.iter().map(expr).collect();
            format!("{func}({}):{}", a.join(", "), e.ty)
        }
        ExprKind::CallLambda { instance, args } => {
            let a: Vec<String> = args.iter().map(expr).collect();
            format!("lambda#{instance}({}):{}", a.join(", "), e.ty)
        }
    }
}

/// The span of a statement, for locating it.
pub fn stmt_span(s: &Stmt) -> Span {
    match s {
        Stmt::Assign { span, .. }
        | Stmt::Declare { span, .. }
        | Stmt::If { span, .. }
        | Stmt::For { span, .. }
        | Stmt::While { span, .. }
        | Stmt::Return { span, .. }
        | Stmt::Break { span }
        | Stmt::Continue { span }
        | Stmt::Call { span, .. }
        | Stmt::Note { span, .. } => *span,
    }
}
