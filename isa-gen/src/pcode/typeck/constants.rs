//! Constant integer expressions, and linear forms of bounds (`i * 32 + 31`).

use super::*;

pub(super) type Lin = (BTreeMap<String, i128>, i128);

/// An integer expression as a sum of constant multiples of opaque terms plus a constant, when
/// it is one: `i * 32 + 31` is `{i: 32} + 31`. Terms are keyed by their printed form.
pub(super) fn linear(e: &ast::Expr) -> Option<Lin> {
    use ast::ExprKind as A;
    match &e.kind {
        A::Int { value, .. } => Some((BTreeMap::new(), i128::try_from(*value).ok()?)),
        A::Unary {
            op: UnOp::Neg,
            expr,
        } => {
            let (t, c) = linear(expr)?;
            Some((t.into_iter().map(|(k, v)| (k, -v)).collect(), -c))
        }
        A::Binary {
            op: op @ (BinOp::Add | BinOp::Sub),
            lhs,
            rhs,
        } => {
            let (mut t, c) = linear(lhs)?;
            let (t2, c2) = linear(rhs)?;
            let sign = if *op == BinOp::Add { 1 } else { -1 };
            for (k, v) in t2 {
                *t.entry(k).or_insert(0) += sign * v;
            }
            t.retain(|_, v| *v != 0);
            Some((t, c.checked_add(sign * c2)?))
        }
        A::Binary {
            op: BinOp::Mul,
            lhs,
            rhs,
        } => {
            let (l, r) = (linear(lhs)?, linear(rhs)?);
            let (k, (t, c)) = if l.0.is_empty() {
                (l.1, r)
            } else if r.0.is_empty() {
                (r.1, l)
            } else {
                return None;
            };
            Some((
                t.into_iter()
                    .map(|(n, v)| (n, v * k))
                    .filter(|(_, v)| *v != 0)
                    .collect(),
                c.checked_mul(k)?,
            ))
        }
        A::Binary {
            op: BinOp::Shl,
            lhs,
            rhs,
        } => {
            let r = linear(rhs)?;
            if !r.0.is_empty() || !(0..64).contains(&r.1) {
                return None;
            }
            let k = 1i128 << r.1;
            let (t, c) = linear(lhs)?;
            Some((
                t.into_iter().map(|(n, v)| (n, v * k)).collect(),
                c.checked_mul(k)?,
            ))
        }
        _ => Some((BTreeMap::from([(e.to_string(), 1)]), 0)),
    }
}

/// The value of a constant integer expression.
pub(super) fn constant(e: &ast::Expr) -> Option<i128> {
    match linear(e)? {
        (terms, c) if terms.is_empty() => Some(c),
        _ => None,
    }
}
