//! Casts and operators: unary, binary, and the comparisons whose operands need care.

use super::*;

impl<'a> Checker<'a> {
    pub(super) fn cast(&mut self, ty: Ty, inner: &ast::Expr, span: Span) -> TE {
        let hex_literal = matches!(
            inner.kind,
            ast::ExprKind::Int {
                hex: true,
                sized: None,
                ..
            }
        );
        let te = self.expr(inner);
        let leaf = matches!(
            inner.kind,
            ast::ExprKind::Int { .. } | ast::ExprKind::Float { .. } | ast::ExprKind::Name(_)
        );
        if te.flex == Flex::Hex || te.flex != Flex::No && leaf {
            // `32'F(0x3f800000)`, `16'F(1.0)`: the literal itself has the type.
            let e = self.coerce(te, ty);
            return TE::fixed(Expr { span, ..e });
        }
        if te.flex != Flex::No {
            // `32'F(PI * 2.0)`: computed at full precision, then converted.
            let e = self.convert(fix(te), ty);
            return TE::fixed(Expr { span, ..e });
        }
        let from = te.e.ty;
        let bits_to_float = from.kind == Kind::Bits && ty.is_float();
        let float_to_bits = from.is_float() && ty.kind == Kind::Bits;
        let e = if hex_literal && ty.is_float() {
            self.reinterpret(te.e, ty)
        } else if bits_to_float || float_to_bits {
            if from.width != ty.width {
                self.error(
                    "width-mismatch",
                    span,
                    format!("{}'{} of a {}-bit `{from}` would need a value conversion, not a reinterpretation", ty.width, letter(ty), from.width),
                );
            }
            self.reinterpret(te.e, ty)
        } else {
            self.convert(te.e, ty)
        };
        TE::fixed(Expr { span, ..e })
    }

    pub(super) fn c_cast(&mut self, cty: &str, inner: &ast::Expr, span: Span) -> TE {
        let te = self.expr(inner);
        let Some(ty) = crate::pcode::parse::c_type(cty) else {
            self.error("unknown-type", span, format!("unknown C type `{cty}`"));
            return self.poison(span);
        };
        if matches!(cty, "snorm" | "unorm") {
            // `(snorm)x`: the normalising conversion, not a value cast.
            let arg = self.float_arg(te);
            let func = format!("{}_to_{cty}", arg.ty);
            return TE::fixed(Expr::new(
                ty,
                ExprKind::Call {
                    func,
                    args: vec![arg],
                },
                span,
            ));
        }
        TE::fixed(self.coerce(te, ty))
    }

    pub(super) fn unary(&mut self, op: UnOp, inner: &ast::Expr, span: Span) -> TE {
        let te = self.expr(inner);
        match op {
            UnOp::Not => {
                let e = self.to_bool(te);
                TE::fixed(Expr::new(
                    Ty::BOOL,
                    ExprKind::Unary {
                        op,
                        expr: Box::new(e),
                    },
                    span,
                ))
            }
            UnOp::PlusMinus => {
                self.error(
                    "plus-minus",
                    span,
                    "`+-x` (either sign) has no single value; compare `abs(...)` instead",
                );
                self.poison(span)
            }
            UnOp::Neg | UnOp::Plus | UnOp::BitNot => {
                let flex = te.flex;
                let e = if te.e.ty.is_bool() && op != UnOp::BitNot {
                    self.convert(te.e, Ty::I32)
                } else {
                    te.e
                };
                if op == UnOp::BitNot && e.ty.is_float() {
                    self.error("kind-mismatch", span, "`~` of a float");
                }
                let ty = e.ty;
                TE {
                    e: Expr::new(
                        ty,
                        ExprKind::Unary {
                            op,
                            expr: Box::new(e),
                        },
                        span,
                    ),
                    flex,
                }
            }
        }
    }

    pub(super) fn binary(&mut self, op: BinOp, lhs: &ast::Expr, rhs: &ast::Expr, span: Span) -> TE {
        if let Some(te) = self.either_sign(op, lhs, rhs, span) {
            return te;
        }
        if let Some(te) = self.nan_compare(op, lhs, rhs, span) {
            return te;
        }
        let l = self.expr(lhs);
        let r = self.expr(rhs);
        if op.is_comparison() && l.e.ty.is_bool() != r.e.ty.is_bool() {
            // A truth value only compares with a truth value (or a 1-bit value, like SCC).
            let number = if l.e.ty.is_bool() { &r } else { &l };
            if number.flex != Flex::No || number.e.ty.width > 1 {
                self.error(
                    "bool-compared",
                    span,
                    "a truth value compared with a number (`a == b == 0` reads as `(a == b) == 0`)",
                );
            }
        }
        if op.is_logical() {
            let (l, r) = (self.to_bool(l), self.to_bool(r));
            let kind = ExprKind::Binary {
                op,
                lhs: Box::new(l),
                rhs: Box::new(r),
            };
            return TE::fixed(Expr::new(Ty::BOOL, kind, span));
        }
        if op.is_shift() {
            let flex = l.flex;
            let r = fix(r);
            if r.ty.is_float() || l.e.ty.is_float() {
                self.error("kind-mismatch", span, "shift of or by a float");
            }
            let l = if l.e.ty.is_bool() {
                self.convert(l.e, Ty::U32)
            } else {
                l.e
            };
            let ty = l.ty;
            let kind = ExprKind::Binary {
                op,
                lhs: Box::new(l),
                rhs: Box::new(r),
            };
            return TE {
                e: Expr::new(ty, kind, span),
                flex,
            };
        }
        if op == BinOp::Pow {
            let flex = if r.flex != Flex::No { l.flex } else { Flex::No };
            let flex = if flex == Flex::Hex { Flex::Int } else { flex };
            let r_e = fix(r);
            let l_e = if l.flex == Flex::No {
                if r_e.ty.is_float() && !l.e.ty.is_float() {
                    self.convert(l.e, r_e.ty)
                } else {
                    l.e
                }
            } else if r_e.ty.is_float() {
                self.coerce(l, r_e.ty)
            } else {
                l.e
            };
            let ty = l_e.ty;
            let kind = ExprKind::Binary {
                op,
                lhs: Box::new(l_e),
                rhs: Box::new(r_e),
            };
            return TE {
                e: Expr::new(ty, kind, span),
                flex,
            };
        }
        let (l, r, ty, flex) = self.unify(l, r, span);
        if op.is_bitwise() && ty.is_float() {
            self.error(
                "kind-mismatch",
                span,
                format!("`{}` of floats", op.symbol()),
            );
        }
        let kind = ExprKind::Binary {
            op,
            lhs: Box::new(l),
            rhs: Box::new(r),
        };
        if op.is_comparison() {
            TE::fixed(Expr::new(Ty::BOOL, kind, span))
        } else {
            let flex = if flex == Flex::Hex { Flex::Int } else { flex };
            TE {
                e: Expr::new(ty, kind, span),
                flex,
            }
        }
    }

    /// RDNA2's `x == NAN` (`NaN`, `sNaN`) is read as `isNAN(x)` (`isSignalNAN(x)`), with a
    /// warning: compared as floats, nothing equals a NaN.
    pub(super) fn nan_compare(
        &mut self,
        op: BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Option<TE> {
        if !matches!(op, BinOp::Eq | BinOp::Ne) {
            return None;
        }
        let nan_name = |e: &ast::Expr| match &e.kind {
            ast::ExprKind::Name(n)
                if matches!(n.as_str(), "NAN" | "NaN" | "sNaN") && self.binding(n).is_none() =>
            {
                Some(n.clone())
            }
            _ => None,
        };
        let (other, nan) = match (nan_name(lhs), nan_name(rhs)) {
            (None, Some(n)) => (lhs, n),
            (Some(n), None) => (rhs, n),
            _ => return None,
        };
        let func = if nan == "sNaN" {
            "isSignalNAN"
        } else {
            "isNAN"
        };
        self.warn(
            "nan-compare",
            span,
            format!("`{other} == {nan}` is read as `{func}({other})`"),
        );
        let o = self.expr(other);
        let arg = self.float_arg(o);
        let test = Expr::new(
            Ty::BOOL,
            ExprKind::Call {
                func: func.to_string(),
                args: vec![arg],
            },
            span,
        );
        if op == BinOp::Ne {
            let kind = ExprKind::Unary {
                op: UnOp::Not,
                expr: Box::new(test),
            };
            return Some(TE::fixed(Expr::new(Ty::BOOL, kind, span)));
        }
        Some(TE::fixed(test))
    }

    /// RDNA2's `x == +-INF` ("either infinity") is read as `abs(x) == INF`, with a warning.
    pub(super) fn either_sign(
        &mut self,
        op: BinOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        span: Span,
    ) -> Option<TE> {
        if !matches!(op, BinOp::Eq | BinOp::Ne) {
            return None;
        }
        let (other, magnitude) = match (&lhs.kind, &rhs.kind) {
            (
                _,
                ast::ExprKind::Unary {
                    op: UnOp::PlusMinus,
                    expr,
                },
            ) => (lhs, expr),
            (
                ast::ExprKind::Unary {
                    op: UnOp::PlusMinus,
                    expr,
                },
                _,
            ) => (rhs, expr),
            _ => return None,
        };
        self.warn(
            "either-sign",
            span,
            format!("`{other} == +-{magnitude}` is read as `abs({other}) == {magnitude}`"),
        );
        let o = self.expr(other);
        let o = match o.flex {
            Flex::No => o.e,
            _ => self.coerce(o, Ty::F64),
        };
        let abs = Expr::new(
            o.ty,
            ExprKind::Call {
                func: "abs".into(),
                args: vec![o],
            },
            other.span,
        );
        let m = self.expr(magnitude);
        let (l, r, _, _) = self.unify(TE::fixed(abs), m, span);
        let kind = ExprKind::Binary {
            op,
            lhs: Box::new(l),
            rhs: Box::new(r),
        };
        Some(TE::fixed(Expr::new(Ty::BOOL, kind, span)))
    }
}
