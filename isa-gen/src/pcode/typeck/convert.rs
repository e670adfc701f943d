//! Conversions: by value, by reinterpretation, to a context's type, and the common type of two operands.

use super::*;

impl<'a> Checker<'a> {
    pub(super) fn convert(&self, e: Expr, to: Ty) -> Expr {
        if e.ty == to {
            return e;
        }
        let how = if (e.ty.kind == Kind::Bits && to.is_float())
            || (e.ty.is_float() && to.kind == Kind::Bits)
        {
            ConvKind::Reinterpret
        } else {
            ConvKind::Numeric
        };
        let span = e.span;
        Expr::new(
            to,
            ExprKind::Convert {
                expr: Box::new(e),
                how,
            },
            span,
        )
    }

    pub(super) fn reinterpret(&self, e: Expr, to: Ty) -> Expr {
        if e.ty == to {
            return e;
        }
        let span = e.span;
        Expr::new(
            to,
            ExprKind::Convert {
                expr: Box::new(e),
                how: ConvKind::Reinterpret,
            },
            span,
        )
    }

    /// Gives a context type to an expression: retypes literals, converts anything else.
    pub(super) fn coerce(&self, te: TE, to: Ty) -> Expr {
        match te.flex {
            Flex::No => self.convert(te.e, to),
            flex => self.retype(te.e, to, flex == Flex::Hex),
        }
    }

    pub(super) fn retype(&self, e: Expr, to: Ty, hex: bool) -> Expr {
        if e.ty == to {
            return e;
        }
        let span = e.span;
        match e.kind {
            ExprKind::Int(v) if to.is_float() => {
                if hex {
                    let bits =
                        Expr::new(Ty::bits(to.width), ExprKind::Int(v & mask(to.width)), span);
                    self.reinterpret(bits, to)
                } else {
                    Expr::new(to, ExprKind::Float(v as f64), span)
                }
            }
            ExprKind::Int(v) if !to.is_bool() => {
                Expr::new(to, ExprKind::Int(v & mask(to.width)), span)
            }
            ExprKind::Float(v) if to.is_float() => Expr::new(to, ExprKind::Float(v), span),
            ExprKind::Const(name) if to.is_float() => Expr::new(to, ExprKind::Const(name), span),
            ExprKind::Unary { op, expr } if op != UnOp::Not && !to.is_bool() => {
                let inner = self.retype(*expr, to, hex);
                Expr::new(
                    to,
                    ExprKind::Unary {
                        op,
                        expr: Box::new(inner),
                    },
                    span,
                )
            }
            ExprKind::Binary { op, lhs, rhs }
                if !op.is_comparison() && !op.is_logical() && !to.is_bool() =>
            {
                let lhs = self.retype(*lhs, to, hex);
                let rhs = if op.is_shift() || op == BinOp::Pow {
                    *rhs
                } else {
                    self.retype(*rhs, to, hex)
                };
                Expr::new(
                    to,
                    ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    span,
                )
            }
            ExprKind::Select {
                cond,
                then,
                otherwise,
            } => {
                let then = self.retype(*then, to, hex);
                let otherwise = self.retype(*otherwise, to, hex);
                Expr::new(
                    to,
                    ExprKind::Select {
                        cond,
                        then: Box::new(then),
                        otherwise: Box::new(otherwise),
                    },
                    span,
                )
            }
            kind => self.convert(Expr::new(e.ty, kind, span), to),
        }
    }

    pub(super) fn to_bool(&self, te: TE) -> Expr {
        self.convert(te.e, Ty::BOOL)
    }

    /// The common type of two operand types (see the module comment), or why there is none.
    pub(super) fn common(&self, a: Ty, b: Ty) -> Result<Ty, String> {
        if a == b {
            return Ok(a);
        }
        match (a.kind, b.kind) {
            (Kind::Bool, _) => return Ok(b),
            (_, Kind::Bool) => return Ok(a),
            _ => {}
        }
        match (a.is_float(), b.is_float()) {
            (true, true) => {
                if a.width == b.width {
                    Err(format!("`{a}` and `{b}` mixed without a conversion"))
                } else {
                    Ok(if a.width > b.width { a } else { b })
                }
            }
            (true, false) => Ok(a),
            (false, true) => Ok(b),
            (false, false) => {
                if a.width != b.width {
                    return Ok(if a.width > b.width { a } else { b });
                }
                let kind = match (a.kind, b.kind) {
                    (Kind::Bits, k) | (k, Kind::Bits) => k,
                    _ => Kind::Unsigned,
                };
                Ok(Ty::new(kind, a.width))
            }
        }
    }

    /// Brings two operands to a common type.
    pub(super) fn unify(&mut self, l: TE, r: TE, span: Span) -> (Expr, Expr, Ty, Flex) {
        match (l.flex, r.flex) {
            (Flex::No, Flex::No) => {
                let ty = match self.common(l.e.ty, r.e.ty) {
                    Ok(t) => t,
                    Err(m) => {
                        self.error("kind-mismatch", span, m);
                        l.e.ty
                    }
                };
                (self.convert(l.e, ty), self.convert(r.e, ty), ty, Flex::No)
            }
            (Flex::No, _) => {
                let ty = if l.e.ty.is_bool() {
                    self.common(l.e.ty, r.e.ty).unwrap_or(Ty::I32)
                } else {
                    l.e.ty
                };
                (self.convert(l.e, ty), self.coerce(r, ty), ty, Flex::No)
            }
            (_, Flex::No) => {
                let ty = if r.e.ty.is_bool() {
                    self.common(l.e.ty, r.e.ty).unwrap_or(Ty::I32)
                } else {
                    r.e.ty
                };
                (self.coerce(l, ty), self.convert(r.e, ty), ty, Flex::No)
            }
            (lf, rf) => {
                let flex = Flex::join(lf, rf);
                let ty = if flex == Flex::Float {
                    Ty::F64
                } else {
                    self.common(l.e.ty, r.e.ty).unwrap_or(Ty::I32)
                };
                (self.coerce(l, ty), self.coerce(r, ty), ty, flex)
            }
        }
    }
}
