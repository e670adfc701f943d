//! Places: what an assignment writes (variables, registers, memory, bit ranges).

use super::*;

impl<'a> Checker<'a> {
    /// The place an assignment writes. `value_ty` is the type of the value for places that take
    /// it (a register written without an accessor, a new variable).
    pub(super) fn place(&mut self, e: &ast::Expr, value_ty: Option<Ty>) -> Option<Place> {
        let span = e.span;
        use ast::ExprKind as A;
        let mk = |ty: Ty, kind: PlaceKind| Some(Place { ty, kind, span });
        match &e.kind {
            A::Name(n) => match self.binding(n).cloned() {
                Some(NameBinding::Local { ty, len: None }) => mk(ty, PlaceKind::Local(n.clone())),
                Some(NameBinding::Local { len: Some(_), .. }) => {
                    self.error(
                        "array-as-value",
                        span,
                        format!("array `{n}` assigned without an index"),
                    );
                    None
                }
                Some(NameBinding::Register(ty)) => mk(ty, PlaceKind::Reg(n.clone())),
                None => match names::lookup(n) {
                    Some(NameKind::Register(w)) => {
                        // An operand written whole takes the value's width; a fixed-width
                        // register keeps its own.
                        let own = names::register_ty(w, self.natural);
                        let ty = match (w, value_ty) {
                            (Width::Natural, Some(v)) => v,
                            (Width::Fixed(fw), Some(v)) if v.width == fw => v,
                            _ => own,
                        };
                        mk(ty, PlaceKind::Reg(n.clone()))
                    }
                    Some(NameKind::SoftRegister(_)) | None => {
                        let ty = match self.implicit_widths.get(n) {
                            Some(&w) if value_ty.is_none_or(|t| t.width < w) => Ty::bits(w),
                            _ => value_ty.unwrap_or(Ty::B32),
                        };
                        self.add_local(n, ty, None, LocalOrigin::Inferred);
                        mk(ty, PlaceKind::Local(n.clone()))
                    }
                    Some(_) => {
                        self.error("not-assignable", span, format!("`{n}` cannot be assigned"));
                        None
                    }
                },
            },
            A::Typed { base, ty, half } => {
                if let (A::Name(n), None) = (&base.kind, half) {
                    let unbound = self.binding(n).is_none();
                    if unbound && matches!(names::lookup(n), None | Some(NameKind::SoftRegister(_)))
                    {
                        self.add_local(n, *ty, None, LocalOrigin::Inferred);
                        return mk(*ty, PlaceKind::Local(n.clone()));
                    }
                }
                let b = self.place(base, None)?;
                let b = match half {
                    None => b,
                    Some(h) => {
                        let lo = if *h == Half::Lo { 0 } else { ty.width };
                        let lo = Expr::new(Ty::U32, ExprKind::Int(lo as u128), span);
                        let kind = PlaceKind::Slice {
                            base: Box::new(b),
                            lo: Box::new(lo),
                            reversed: false,
                        };
                        Place {
                            ty: Ty::bits(ty.width),
                            kind,
                            span,
                        }
                    }
                };
                match b.kind {
                    PlaceKind::Reg(ref n) if !self.sized_by_view(n) => {
                        mk(*ty, PlaceKind::View { base: Box::new(b) })
                    }
                    PlaceKind::Reg(_)
                    | PlaceKind::Mem { .. }
                    | PlaceKind::Sgpr { .. }
                    | PlaceKind::Vgpr { .. }
                    | PlaceKind::RegElement { .. } => Some(Place { ty: *ty, ..b }),
                    _ if b.ty == *ty => Some(b),
                    _ => mk(*ty, PlaceKind::View { base: Box::new(b) }),
                }
            }
            A::Field { base, name } => {
                let owner = register_name(base);
                let width = owner.as_deref().and_then(|o| names::field_width(o, name));
                let b = self.place(base, None)?;
                match width {
                    Some(w) => mk(
                        Ty::unsigned(w),
                        PlaceKind::Field {
                            base: Box::new(b),
                            name: name.clone(),
                        },
                    ),
                    None => {
                        let owner = owner.unwrap_or_else(|| base.to_string());
                        self.error(
                            "unknown-field",
                            span,
                            format!("`{owner}` has no field `{name}`"),
                        );
                        None
                    }
                }
            }
            A::Index { base, index }
            | A::Slice {
                base, hi: index, ..
            } if self.rdna2_dwords(&e.kind).is_some() => {
                let (first, count) = self.rdna2_dwords(&e.kind).unwrap_or((0, 1));
                let b = self.place(base, None)?;
                let lo = Expr::new(Ty::U32, ExprKind::Int(32 * first as u128), index.span);
                mk(
                    Ty::bits(32 * count),
                    PlaceKind::Slice {
                        base: Box::new(b),
                        lo: Box::new(lo),
                        reversed: false,
                    },
                )
            }
            A::Index { base, index } => self.index_place(base, index, span),
            A::Slice { base, hi, lo } => {
                let (lo, width, reversed) = self.slice_bounds(hi, lo, span)?;
                let mut b = self.place(base, None)?;
                self.widen_written_operand(&mut b, &lo, width);
                self.check_place_range(&b, &lo, width, span);
                mk(
                    Ty::bits(width),
                    PlaceKind::Slice {
                        base: Box::new(b),
                        lo: Box::new(lo),
                        reversed,
                    },
                )
            }
            A::PartSelect { base, start, width } => {
                let w = self.const_width(width)?;
                let lo = self.index_expr(start);
                let mut b = self.place(base, None)?;
                self.widen_written_operand(&mut b, &lo, w);
                self.check_place_range(&b, &lo, w, span);
                mk(
                    Ty::bits(w),
                    PlaceKind::Slice {
                        base: Box::new(b),
                        lo: Box::new(lo),
                        reversed: false,
                    },
                )
            }
            A::Concat(parts) => {
                let mut out = Vec::new();
                for p in parts {
                    out.push(self.place(p, None)?);
                }
                let width = out.iter().map(|p| p.ty.width).sum::<u32>().max(1);
                mk(Ty::bits(width), PlaceKind::Concat(out))
            }
            _ => {
                self.error("not-assignable", span, format!("`{e}` cannot be assigned"));
                None
            }
        }
    }

    /// An operand of the mnemonic's natural width written in parts beyond it is as wide as
    /// its parts: `DS_READ2_B32` writes `RETURN_DATA[63 : 32]` (two dwords of a `_B32`
    /// instruction), `DS_READ2_B64` bits up to 127. Typed at the natural width, the high
    /// parts would be cut off when the whole operand is stored back.
    pub(super) fn widen_written_operand(&self, base: &mut Place, lo: &Expr, width: u32) {
        let (PlaceKind::Reg(n), ExprKind::Int(l)) = (&base.kind, &lo.kind) else {
            return;
        };
        let natural = matches!(
            self.predeclared(n),
            Some(NameKind::Register(Width::Natural))
        );
        let end = l.saturating_add(width as u128);
        if natural && end > base.ty.width as u128 && end <= 1024 {
            base.ty = Ty::bits((end as u32).div_ceil(32) * 32);
        }
    }

    pub(super) fn check_place_range(&mut self, base: &Place, lo: &Expr, width: u32, span: Span) {
        if let (
            ExprKind::Int(l),
            PlaceKind::Local(_) | PlaceKind::Element { .. } | PlaceKind::View { .. },
        ) = (&lo.kind, &base.kind)
        {
            if l + width as u128 > base.ty.width as u128 {
                self.error(
                    "bit-out-of-range",
                    span,
                    format!(
                        "bits {}..{} of a {}-bit `{}`",
                        l,
                        l + width as u128 - 1,
                        base.ty.width,
                        base.ty
                    ),
                );
            }
        }
    }

    pub(super) fn index_place(
        &mut self,
        base: &ast::Expr,
        index: &ast::Expr,
        span: Span,
    ) -> Option<Place> {
        use ast::ExprKind as A;
        let mk = |ty: Ty, kind: PlaceKind| Some(Place { ty, kind, span });
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
                    return mk(
                        Ty::B32,
                        PlaceKind::Vgpr {
                            lane: Box::new(lane),
                            reg: Box::new(reg),
                        },
                    );
                }
            }
        }
        if let A::Name(n) = &base.kind {
            match self.binding(n).cloned() {
                Some(NameBinding::Local { ty, len: Some(_) }) => {
                    let i = self.index_expr(index);
                    return mk(
                        ty,
                        PlaceKind::Element {
                            array: n.clone(),
                            index: Box::new(i),
                        },
                    );
                }
                Some(_) => {}
                None => match names::lookup(n) {
                    Some(NameKind::Memory(lds)) => {
                        let addr = self.index_expr(index);
                        let space = if lds { Space::Lds } else { Space::Mem };
                        return mk(
                            self.natural,
                            PlaceKind::Mem {
                                space,
                                addr: Box::new(addr),
                            },
                        );
                    }
                    Some(NameKind::Vgprs { .. }) => {
                        let reg = self.index_expr(index);
                        let lane = Expr::new(Ty::U32, ExprKind::Const("laneId".into()), span);
                        return mk(
                            Ty::B32,
                            PlaceKind::Vgpr {
                                lane: Box::new(lane),
                                reg: Box::new(reg),
                            },
                        );
                    }
                    Some(NameKind::Sgprs) => {
                        let reg = self.index_expr(index);
                        return mk(Ty::B32, PlaceKind::Sgpr { reg: Box::new(reg) });
                    }
                    Some(NameKind::RegArray(ty)) => {
                        let i = self.index_expr(index);
                        return mk(
                            ty,
                            PlaceKind::RegElement {
                                array: n.clone(),
                                index: Box::new(i),
                            },
                        );
                    }
                    _ => {}
                },
            }
        }
        if self.rdna2 {
            if let A::Typed {
                base: reg,
                ty,
                half: None,
            } = &base.kind
            {
                if (4..=16).contains(&ty.width) {
                    let b = self.place(reg, None)?;
                    let i = self.index_expr(index);
                    return mk(
                        *ty,
                        PlaceKind::Lane {
                            base: Box::new(b),
                            index: Box::new(i),
                        },
                    );
                }
            }
        }
        let b = self.place(base, None)?;
        let i = self.index_expr(index);
        if let (ExprKind::Int(k), PlaceKind::Local(_) | PlaceKind::View { .. }) = (&i.kind, &b.kind)
        {
            if *k >= b.ty.width as u128 {
                self.error(
                    "bit-out-of-range",
                    span,
                    format!("bit {k} of a {}-bit `{}`", b.ty.width, b.ty),
                );
            }
        }
        mk(
            Ty::U1,
            PlaceKind::Bit {
                base: Box::new(b),
                index: Box::new(i),
            },
        )
    }
}
