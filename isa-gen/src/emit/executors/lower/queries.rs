//! Questions asked of an entry's IR before lowering it: which names it reads, whether it names other lanes, which helper a call names.

use super::*;

pub(super) fn is_lane_id(e: &Expr) -> bool {
    let mut x = e;
    while let ExprKind::Convert { expr, .. } = &x.kind {
        x = expr;
    }
    matches!(&x.kind, ExprKind::Const(n) if matches!(n.as_str(), "laneId" | "laneID" | "threadId" | "ThreadPosition"))
}

pub(super) fn is_zero_const(e: &Expr) -> bool {
    let mut x = e;
    while let ExprKind::Convert { expr, .. } = &x.kind {
        x = expr;
    }
    matches!(x.kind, ExprKind::Int(0))
}

/// A place read as an expression (for compound assignments and partial writes).
pub(super) fn place_expr(p: &Place) -> Option<Expr> {
    let kind = match &p.kind {
        PlaceKind::Local(n) => ExprKind::Local(n.clone()),
        PlaceKind::Element { array, index } => ExprKind::Element {
            array: array.clone(),
            index: index.clone(),
        },
        PlaceKind::Reg(n) => ExprKind::Reg(n.clone()),
        PlaceKind::RegElement { array, index } => ExprKind::RegElement {
            array: array.clone(),
            index: index.clone(),
        },
        PlaceKind::Mem { space, addr } => ExprKind::Mem {
            space: *space,
            addr: addr.clone(),
        },
        PlaceKind::Vgpr { lane, reg } => ExprKind::Vgpr {
            lane: lane.clone(),
            reg: reg.clone(),
        },
        PlaceKind::Sgpr { reg } => ExprKind::Sgpr { reg: reg.clone() },
        PlaceKind::Field { base, name } => ExprKind::Field {
            base: Box::new(place_expr(base)?),
            name: name.clone(),
        },
        PlaceKind::View { base } => ExprKind::Convert {
            expr: Box::new(place_expr(base)?),
            how: ConvKind::Reinterpret,
        },
        PlaceKind::Bit { base, index } => ExprKind::Bit {
            base: Box::new(place_expr(base)?),
            index: index.clone(),
        },
        PlaceKind::Slice { base, lo, reversed } => ExprKind::Slice {
            base: Box::new(place_expr(base)?),
            lo: lo.clone(),
            reversed: *reversed,
        },
        PlaceKind::Lane { base, index } => ExprKind::Lane {
            base: Box::new(place_expr(base)?),
            index: index.clone(),
        },
        PlaceKind::Concat(parts) => {
            ExprKind::Concat(parts.iter().map(place_expr).collect::<Option<Vec<_>>>()?)
        }
    };
    Some(Expr::new(p.ty, kind, p.span))
}

/// Whether the entry reads `name` as a register (also in compound assignments).
pub(crate) fn reads_name(ir: &Ir, name: &str) -> bool {
    let text = format!("{:?}", ir.body);
    // A read is any mention outside the target of a plain `=`: approximate by counting
    // mentions against plain whole-register writes.
    let mentions = text.matches(&format!("Reg(\"{name}\")")).count();
    let plain_writes = ir
        .body
        .iter()
        .map(|s| count_plain_writes(s, name))
        .sum::<usize>();
    mentions > plain_writes
}

pub(super) fn count_plain_writes(s: &Stmt, name: &str) -> usize {
    match s {
        Stmt::Assign { place, op, .. } => {
            let whole = matches!(&place.kind, PlaceKind::Reg(n) if n == name)
                || matches!(&place.kind, PlaceKind::View { base } if matches!(&base.kind, PlaceKind::Reg(n) if n == name));
            usize::from(whole && *op == AssignOp::Set)
        }
        Stmt::If {
            arms, otherwise, ..
        } => arms
            .iter()
            .flat_map(|(_, b)| b.iter())
            .chain(otherwise.iter())
            .map(|s| count_plain_writes(s, name))
            .sum(),
        Stmt::For { body, .. } | Stmt::While { body, .. } => {
            body.iter().map(|s| count_plain_writes(s, name)).sum()
        }
        _ => 0,
    }
}

/// Whether the statements mention any of `names` as a register.
pub(super) fn mentions_name(stmts: &[Stmt], names: &[&str]) -> bool {
    let text = format!("{stmts:?}");
    names
        .iter()
        .any(|n| text.contains(&format!("Reg(\"{n}\")")))
}

/// Whether the entry names other lanes' registers (it then runs once for the wave).
pub(crate) fn names_other_lanes(ir: &Ir) -> bool {
    fn expr(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Vgpr { lane, reg } => !is_lane_id(lane) || expr(lane) || expr(reg),
            ExprKind::Element { index, .. } | ExprKind::RegElement { index, .. } => expr(index),
            ExprKind::Mem { addr, .. } => expr(addr),
            ExprKind::Sgpr { reg } => expr(reg),
            ExprKind::Field { base, .. } => expr(base),
            ExprKind::Bit { base, index } | ExprKind::Lane { base, index } => {
                expr(base) || expr(index)
            }
            ExprKind::Slice { base, lo, .. } => expr(base) || expr(lo),
            ExprKind::Concat(p) => p.iter().any(expr),
            ExprKind::Convert { expr: x, .. } | ExprKind::Unary { expr: x, .. } => expr(x),
            ExprKind::Binary { lhs, rhs, .. } => expr(lhs) || expr(rhs),
            ExprKind::Select {
                cond,
                then,
                otherwise,
            } => expr(cond) || expr(then) || expr(otherwise),
            ExprKind::Call { args, .. } | ExprKind::CallLambda { args, .. } => {
                args.iter().any(expr)
            }
            _ => false,
        }
    }
    fn place(p: &Place) -> bool {
        match &p.kind {
            PlaceKind::Vgpr { lane, reg } => !is_lane_id(lane) || expr(lane) || expr(reg),
            PlaceKind::Element { index, .. } | PlaceKind::RegElement { index, .. } => expr(index),
            PlaceKind::Mem { addr, .. } => expr(addr),
            PlaceKind::Sgpr { reg } => expr(reg),
            PlaceKind::Field { base, .. } | PlaceKind::View { base } => place(base),
            PlaceKind::Bit { base, index } | PlaceKind::Lane { base, index } => {
                place(base) || expr(index)
            }
            PlaceKind::Slice { base, lo, .. } => place(base) || expr(lo),
            PlaceKind::Concat(ps) => ps.iter().any(place),
            _ => false,
        }
    }
    fn stmts(ss: &[Stmt]) -> bool {
        ss.iter().any(|s| match s {
            Stmt::Assign {
                place: p, value, ..
            } => place(p) || expr(value),
            Stmt::If {
                arms, otherwise, ..
            } => arms.iter().any(|(c, b)| expr(c) || stmts(b)) || stmts(otherwise),
            Stmt::For { from, to, body, .. } => expr(from) || expr(to) || stmts(body),
            Stmt::While { cond, body, .. } => expr(cond) || stmts(body),
            Stmt::Return { value: Some(v), .. } => expr(v),
            Stmt::Call { args, .. } => args.iter().any(expr),
            _ => false,
        })
    }
    stmts(&ir.body) || ir.lambdas.iter().any(|l| stmts(&l.body))
}

/// The runtime function for a pseudocode helper: the table the runtime's `exec::helpers`
/// implements ([`isa_vocab::helpers::HELPERS`]: Rust name, whether it takes MODE first,
/// whether it is generic, whether its parameters after the first are fixed integers).
pub(crate) fn helper(name: &str) -> Option<&'static isa_vocab::helpers::HelperInfo> {
    isa_vocab::helpers::lookup(name)
}
