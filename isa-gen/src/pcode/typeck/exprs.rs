//! Expressions: names, literals, typed views, fields, indexing and bit slices.

use super::*;

impl<'a> Checker<'a> {
    pub(super) fn expr(&mut self, e: &ast::Expr) -> TE {
        let span = e.span;
        use ast::ExprKind as A;
        match &e.kind {
            A::Int {
                value,
                suffix,
                hex,
                sized,
            } => self.int_literal(*value, *suffix, *hex, *sized, span),
            A::Float {
                value,
                single,
                sized,
            } => {
                let ty = sized.or(single.then_some(Ty::F32));
                match ty {
                    Some(ty) => TE::fixed(Expr::new(ty, ExprKind::Float(*value), span)),
                    None => TE {
                        e: Expr::new(Ty::F64, ExprKind::Float(*value), span),
                        flex: Flex::Float,
                    },
                }
            }
            A::Name(n) => self.read_name(n, span),
            A::Typed { base, ty, half } => self.typed(base, *ty, *half, span),
            A::Field { base, name } => self.field(base, name, span),
            A::Index { base, index }
            | A::Slice {
                base, hi: index, ..
            } if self.rdna2_dwords(&e.kind).is_some() => {
                let (first, count) = self.rdna2_dwords(&e.kind).unwrap_or((0, 1));
                let b = self.expr(base);
                let lo = Expr::new(Ty::U32, ExprKind::Int(32 * first as u128), index.span);
                self.slice(b, lo, 32 * count, false, false, span)
            }
            A::Index { base, index } => self.index(base, index, span),
            A::Slice { base, hi, lo } => match self.slice_bounds(hi, lo, span) {
                Some((lo, width, reversed)) => {
                    let b = self.expr(base);
                    let checked = checked_range(base, &b.e);
                    self.slice(b, lo, width, reversed, checked, span)
                }
                None => self.poison(span),
            },
            A::PartSelect { base, start, width } => match self.const_width(width) {
                Some(w) => {
                    let lo = self.index_expr(start);
                    let b = self.expr(base);
                    let checked = checked_range(base, &b.e);
                    self.slice(b, lo, w, false, checked, span)
                }
                None => self.poison(span),
            },
            A::Call { name, args } => self.call(name, args, span),
            A::Cast { ty, expr } => self.cast(*ty, expr, span),
            A::CCast { ty, expr } => self.c_cast(ty, expr, span),
            A::Unary { op, expr } => self.unary(*op, expr, span),
            A::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, span),
            A::Ternary {
                cond,
                then,
                otherwise,
            } => {
                let c = self.expr(cond);
                let c = self.to_bool(c);
                let t = self.expr(then);
                let o = self.expr(otherwise);
                let (t, o, ty, flex) = self.unify(t, o, span);
                let kind = ExprKind::Select {
                    cond: Box::new(c),
                    then: Box::new(t),
                    otherwise: Box::new(o),
                };
                TE {
                    e: Expr::new(ty, kind, span),
                    flex,
                }
            }
            A::Concat(parts) => {
                let mut out = Vec::new();
                let mut width = 0;
                for p in parts {
                    let te = self.expr(p);
                    if te.flex != Flex::No {
                        self.error(
                            "unsized-literal",
                            p.span,
                            "a literal in a concatenation needs a size (write 8'0U)",
                        );
                    }
                    let e = if te.e.ty.is_bool() {
                        self.convert(te.e, Ty::U1)
                    } else {
                        te.e
                    };
                    width += e.ty.width;
                    out.push(e);
                }
                TE::fixed(Expr::new(
                    Ty::bits(width.max(1)),
                    ExprKind::Concat(out),
                    span,
                ))
            }
        }
    }

    pub(super) fn int_literal(
        &mut self,
        value: u128,
        suffix: IntSuffix,
        hex: bool,
        sized: Option<Ty>,
        span: Span,
    ) -> TE {
        if let Some(ty) = sized {
            if ty.is_float() {
                // `16'0x3c00`: a float spelt by its bits.
                let bits = Expr::new(
                    Ty::bits(ty.width),
                    ExprKind::Int(value & mask(ty.width)),
                    span,
                );
                return TE::fixed(self.reinterpret(bits, ty));
            }
            if value > mask(ty.width) {
                self.error(
                    "literal-overflow",
                    span,
                    format!("{value:#x} does not fit in {} bits", ty.width),
                );
            }
            return TE::fixed(Expr::new(ty, ExprKind::Int(value & mask(ty.width)), span));
        }
        let ty = match suffix {
            IntSuffix::U if value <= u32::MAX as u128 => Ty::U32,
            IntSuffix::U | IntSuffix::ULL => Ty::U64,
            IntSuffix::LL => Ty::I64,
            IntSuffix::None => default_int_ty(value, hex),
        };
        if value > mask(ty.width) {
            self.error(
                "literal-overflow",
                span,
                format!("{value:#x} does not fit in {} bits", ty.width),
            );
        }
        let e = Expr::new(ty, ExprKind::Int(value & mask(ty.width)), span);
        match suffix {
            IntSuffix::None => TE {
                e,
                flex: if hex { Flex::Hex } else { Flex::Int },
            },
            _ => TE::fixed(e),
        }
    }

    /// `x.T`: reads T bits of a register or memory, converts a float constant, reinterprets
    /// anything else.
    pub(super) fn typed(&mut self, base: &ast::Expr, ty: Ty, half: Option<Half>, span: Span) -> TE {
        let te = self.expr(base);
        let te = match half {
            None => te,
            Some(h) => {
                // RDNA2's `.f16_lo`/`.f16_hi`: the low or high half of a 32-bit register.
                let lo = if h == Half::Lo { 0 } else { ty.width };
                let lo = Expr::new(Ty::U32, ExprKind::Int(lo as u128), span);
                let kind = ExprKind::Slice {
                    base: Box::new(te.e),
                    lo: Box::new(lo),
                    reversed: false,
                };
                TE::fixed(Expr::new(Ty::bits(ty.width), kind, span))
            }
        };
        if te.flex != Flex::No {
            return TE::fixed(self.coerce(te, ty));
        }
        TE::fixed(self.view(te.e, ty))
    }

    /// Whether a typed view of register `name` reads as many bits as it names (operands span
    /// consecutive registers), rather than extending or truncating a fixed-width register.
    pub(super) fn sized_by_view(&self, name: &str) -> bool {
        match self.binding(name) {
            Some(NameBinding::Register(_)) => true,
            Some(NameBinding::Local { .. }) => false,
            None => matches!(
                names::lookup(name),
                Some(NameKind::Register(Width::Natural) | NameKind::SoftRegister(_))
            ),
        }
    }

    pub(super) fn view(&self, e: Expr, ty: Ty) -> Expr {
        match e.kind {
            ExprKind::Reg(ref n) if !self.sized_by_view(n) => self.reinterpret(e, ty),
            ExprKind::Reg(_)
            | ExprKind::Mem { .. }
            | ExprKind::Sgpr { .. }
            | ExprKind::Vgpr { .. }
            | ExprKind::RegElement { .. } => Expr { ty, ..e },
            // A float value seen as another float type (`tmp.f16` of an f64 `tmp`, `INF.f32`)
            // is converted: reinterpreting the low bits of a wider float means nothing.
            _ if e.ty.is_float() && ty.is_float() && e.ty.width != ty.width => self.convert(e, ty),
            ExprKind::Const(_) if e.ty.is_float() && ty.is_float() => self.convert(e, ty),
            _ => self.reinterpret(e, ty),
        }
    }

    pub(super) fn field(&mut self, base: &ast::Expr, name: &str, span: Span) -> TE {
        let owner = register_name(base);
        let width = owner.as_deref().and_then(|o| names::field_width(o, name));
        let b = self.expr(base);
        match width {
            Some(w) => {
                let kind = ExprKind::Field {
                    base: Box::new(b.e),
                    name: name.to_string(),
                };
                TE::fixed(Expr::new(Ty::unsigned(w), kind, span))
            }
            None => {
                let owner = owner.unwrap_or_else(|| base.to_string());
                self.error(
                    "unknown-field",
                    span,
                    format!("`{owner}` has no field `{name}`"),
                );
                self.poison(span)
            }
        }
    }

    pub(super) fn index_expr(&mut self, e: &ast::Expr) -> Expr {
        let te = self.expr(e);
        if te.e.ty.is_float() {
            self.error("float-index", e.span, "an index must be an integer");
        }
        match te.flex {
            Flex::No if te.e.ty.is_bool() => self.convert(te.e, Ty::U32),
            Flex::No => te.e,
            _ => self.coerce(te, Ty::I32),
        }
    }

    /// RDNA2 writes memory data operands as arrays of dwords: `DATA[1]` is the second dword,
    /// `RETURN_DATA[0:1]` the first two. Returns (first dword, count) for such an access.
    pub(super) fn rdna2_dwords(&self, e: &ast::ExprKind) -> Option<(u32, u32)> {
        use ast::ExprKind as A;
        if !self.rdna2 {
            return None;
        }
        let (base, range) = match e {
            A::Index { base, index } => (base, (constant(index)?, constant(index)?)),
            A::Slice { base, hi, lo } => (base, (constant(hi)?, constant(lo)?)),
            _ => return None,
        };
        let A::Name(n) = &base.kind else { return None };
        let data = matches!(n.as_str(), "DATA" | "DATA2" | "RETURN_DATA" | "VDATA");
        let ascending = range.0 <= range.1 && range.1 < 4;
        (data && ascending && self.binding(n).is_none())
            .then(|| (range.0 as u32, (range.1 - range.0 + 1) as u32))
    }

    pub(super) fn index(&mut self, base: &ast::Expr, index: &ast::Expr, span: Span) -> TE {
        use ast::ExprKind as A;
        // Register files and memories.
        if let A::Index {
            base: inner,
            index: first,
        } = &base.kind
        {
            if let A::Name(n) = &inner.kind {
                if let Some(NameKind::Vgprs { reg_first }) = self.predeclared(n) {
                    let a = self.index_expr(first);
                    let b = self.index_expr(index);
                    let (lane, reg) = if reg_first { (b, a) } else { (a, b) };
                    let kind = ExprKind::Vgpr {
                        lane: Box::new(lane),
                        reg: Box::new(reg),
                    };
                    return TE::fixed(Expr::new(Ty::B32, kind, span));
                }
            }
        }
        if let A::Name(n) = &base.kind {
            match self.binding(n).cloned() {
                Some(NameBinding::Local { ty, len: Some(_) }) => {
                    let i = self.index_expr(index);
                    let kind = ExprKind::Element {
                        array: n.clone(),
                        index: Box::new(i),
                    };
                    return TE::fixed(Expr::new(ty, kind, span));
                }
                Some(_) => {}
                None => match self.predeclared(n) {
                    Some(NameKind::Memory(lds)) => {
                        let addr = self.index_expr(index);
                        let space = if lds { Space::Lds } else { Space::Mem };
                        let kind = ExprKind::Mem {
                            space,
                            addr: Box::new(addr),
                        };
                        return TE::fixed(Expr::new(self.natural, kind, span));
                    }
                    Some(NameKind::Vgprs { .. }) => {
                        let reg = self.index_expr(index);
                        let lane = Expr::new(Ty::U32, ExprKind::Const("laneId".into()), span);
                        let kind = ExprKind::Vgpr {
                            lane: Box::new(lane),
                            reg: Box::new(reg),
                        };
                        return TE::fixed(Expr::new(Ty::B32, kind, span));
                    }
                    Some(NameKind::Sgprs) => {
                        let reg = self.index_expr(index);
                        return TE::fixed(Expr::new(
                            Ty::B32,
                            ExprKind::Sgpr { reg: Box::new(reg) },
                            span,
                        ));
                    }
                    Some(NameKind::RegArray(ty)) => {
                        let i = self.index_expr(index);
                        let kind = ExprKind::RegElement {
                            array: n.clone(),
                            index: Box::new(i),
                        };
                        return TE::fixed(Expr::new(ty, kind, span));
                    }
                    _ => {}
                },
            }
        }
        // RDNA2's packed lanes: `S0.f16[1]`, `S0.i8[3]`.
        if self.rdna2 {
            if let A::Typed {
                base: reg,
                ty,
                half: None,
            } = &base.kind
            {
                if (4..=16).contains(&ty.width) {
                    let b = self.expr(reg).e;
                    // The packed register as raw bits.
                    let raw = Ty::bits(b.ty.width.max(32));
                    let b = if is_storage(&b) {
                        Expr { ty: raw, ..b }
                    } else {
                        b
                    };
                    let i = self.index_expr(index);
                    let kind = ExprKind::Lane {
                        base: Box::new(b),
                        index: Box::new(i),
                    };
                    return TE::fixed(Expr::new(*ty, kind, span));
                }
            }
        }
        let b = self.expr(base);
        let b = if b.flex != Flex::No {
            TE::fixed(b.e)
        } else {
            b
        };
        let i = self.index_expr(index);
        if let (ExprKind::Int(k), true) = (&i.kind, checked_range(base, &b.e)) {
            if *k >= b.e.ty.width as u128 {
                self.error(
                    "bit-out-of-range",
                    span,
                    format!("bit {k} of a {}-bit `{}`", b.e.ty.width, b.e.ty),
                );
            }
        }
        let kind = ExprKind::Bit {
            base: Box::new(b.e),
            index: Box::new(i),
        };
        TE::fixed(Expr::new(Ty::U1, kind, span))
    }

    pub(super) fn predeclared(&self, name: &str) -> Option<NameKind> {
        if self.binding(name).is_some() {
            None
        } else {
            names::lookup(name)
        }
    }

    pub(super) fn slice(
        &mut self,
        base: TE,
        lo: Expr,
        width: u32,
        reversed: bool,
        checked: bool,
        span: Span,
    ) -> TE {
        let base = if base.flex != Flex::No {
            TE::fixed(base.e)
        } else {
            base
        };
        if let ExprKind::Int(l) = lo.kind {
            if checked && l + width as u128 > base.e.ty.width as u128 {
                self.error(
                    "bit-out-of-range",
                    span,
                    format!(
                        "bits {}..{} of a {}-bit `{}`",
                        l,
                        l + width as u128 - 1,
                        base.e.ty.width,
                        base.e.ty
                    ),
                );
            }
        }
        let kind = ExprKind::Slice {
            base: Box::new(base.e),
            lo: Box::new(lo),
            reversed,
        };
        TE::fixed(Expr::new(Ty::bits(width), kind, span))
    }

    /// `[hi : lo]` as (lowest bit, width, reversed); the width must not depend on run-time
    /// values (it may on `i` if both bounds move with it: `[i * 8 + 7 : i * 8]`).
    pub(super) fn slice_bounds(
        &mut self,
        hi: &ast::Expr,
        lo: &ast::Expr,
        span: Span,
    ) -> Option<(Expr, u32, bool)> {
        let (lh, ll) = (linear(hi), linear(lo));
        let diff = match (&lh, &ll) {
            (Some(h), Some(l)) if h.0 == l.0 => h.1 - l.1,
            _ => {
                self.error(
                    "dynamic-width",
                    span,
                    format!("the width of `[{hi} : {lo}]` depends on run-time values"),
                );
                return None;
            }
        };
        let width = diff.unsigned_abs() + 1;
        if width > 4096 {
            self.error("width-out-of-range", span, format!("a {width}-bit slice"));
            return None;
        }
        let (low, reversed) = if diff >= 0 { (lo, false) } else { (hi, true) };
        Some((self.index_expr(low), width as u32, reversed))
    }

    pub(super) fn const_width(&mut self, e: &ast::Expr) -> Option<u32> {
        match linear(e) {
            Some((terms, c)) if terms.is_empty() && (1..=4096).contains(&c) => Some(c as u32),
            _ => {
                self.error(
                    "dynamic-width",
                    e.span,
                    format!("the width `{e}` is not a constant from 1 to 4096"),
                );
                None
            }
        }
    }
}
