//! Lowering expressions: operand and register reads, literals, conversions, operators, helper calls.

use super::*;

impl<'a> Lower<'a> {
    pub(super) fn expr(&mut self, e: &Expr) -> Res<TokenStream> {
        let ty = e.ty;
        Ok(match &e.kind {
            ExprKind::Int(v) => {
                let rt = rt_of(ty)?;
                match rt {
                    Rt::F(_) | Rt::Bf16 => from_bits(u128_lit(*v), ty)?,
                    Rt::I(_) => int_lit(sext_const(*v, ty.width), rt),
                    _ => int_lit(*v as i128, rt),
                }
            }
            ExprKind::Float(v) => self.float_lit(*v, ty)?,
            ExprKind::Const(name) => self.constant(name, ty)?,
            ExprKind::Local(n) => {
                if !self.locals.contains_key(n) {
                    return Err(Gap::UnknownName.because(format!("unknown variable `{n}`")));
                }
                let name = local_ident(n);
                quote!(#name)
            }
            ExprKind::Element { array, index } => {
                let (_, len) = *self
                    .locals
                    .get(array)
                    .ok_or_else(|| Gap::UnknownName.because(format!("unknown array `{array}`")))?;
                let len = len
                    .ok_or_else(|| Gap::UnknownName.because(format!("`{array}` is not an array")))?
                    as usize;
                let i = self.index_of(index)?;
                let name = local_ident(array);
                quote!((#name[rt::index(#i, #len)?]))
            }
            ExprKind::Reg(n) => self.read_reg(n, ty)?,
            ExprKind::RegElement { array, index } => {
                let i = self.index_of(index)?;
                let v = match array.as_str() {
                    "HW_REGISTERS" | "hardware_reg" => {
                        quote!((rt::hw_reg_read(w, (#i) as u64)? as u128))
                    }
                    "TTMP" => quote!((w.ttmp[rt::index(#i, 16)?] as u128)),
                    other => {
                        return Err(Gap::UnknownName
                            .because(format!("reading `{other}[...]` is not modelled")))
                    }
                };
                from_bits(v, ty)?
            }
            ExprKind::Mem { space, addr } => {
                let w = ty.width;
                if !w.is_multiple_of(8) || w > 128 {
                    return Err(Gap::Memory.because(format!("a memory read of {w} bits")));
                }
                let bytes = u32_lit(w / 8);
                let a = self.address(addr)?;
                let sp = self.space(*space)?;
                let lane = self.lane_opt();
                let read = if self.buffer_range_checked(*space) {
                    quote!(rt::buf_read(w, &*mem, &lane_addrs, lane, #a, #bytes)?)
                } else if self.scalar_buffer(*space) {
                    quote!(rt::sbuf_read(w, &*mem, d, b, #a, #bytes)?)
                } else {
                    quote!(rt::mem_read(w, &*mem, &*lds, #sp, #a, #bytes, #lane)?)
                };
                from_bits(read, ty)?
            }
            ExprKind::Vgpr { lane, reg } => {
                let l = self.u64_of(lane)?;
                let r = self.reg_number(reg)?;
                let wl = u32_lit(ty.width);
                from_bits(quote!(rt::vgpr_read(w, #l, #r, #wl)?), ty)?
            }
            ExprKind::Sgpr { reg } => {
                let r = self.reg_number(reg)?;
                let wl = u32_lit(ty.width);
                from_bits(quote!(rt::sgpr_read(w, #r, #wl)?), ty)?
            }
            ExprKind::Field { base, name } => self.field(base, name, ty)?,
            ExprKind::Bit { base, index } => {
                let b = self.expr(base)?;
                let b = to_bits(b, base.ty)?;
                let i = self.amount(index)?;
                from_bits(quote!(rt::get_bits(#b, #i, 1)), ty)?
            }
            ExprKind::Slice {
                base,
                lo,
                reversed: false,
            } if self.wide_expr(base).is_some() => {
                let r = self.wide_expr(base).unwrap_or(Role::D0);
                let v = self.read_wide(r, lo, ty.width)?;
                from_bits(v, ty)?
            }
            // A slice of an operand beyond the width its name was typed with: the data
            // operand of a 32-bit compare-and-swap holds two values (`DATA[63 : 32]`), so the
            // operand is read as wide as the slice reaches.
            ExprKind::Slice {
                base,
                lo,
                reversed: false,
            } if slice_beyond_operand(base, lo, ty.width).is_some() => {
                let (n, l) = slice_beyond_operand(base, lo, ty.width).unwrap_or_default();
                let wide = Ty {
                    kind: Kind::Unsigned,
                    width: l + ty.width,
                };
                let b = self.read_reg(&n, wide)?;
                let b = to_bits(b, wide)?;
                let (ll, wl) = (u128_lit(l as u128), u32_lit(ty.width));
                from_bits(quote!(rt::get_bits(#b, #ll, #wl)), ty)?
            }
            ExprKind::Slice { base, lo, reversed } => {
                let b = self.expr(base)?;
                let b = to_bits(b, base.ty)?;
                let lo = self.amount(lo)?;
                let wl = u32_lit(ty.width);
                let v = quote!(rt::get_bits(#b, #lo, #wl));
                let v = if *reversed {
                    quote!(rt::rev_bits(#v, #wl))
                } else {
                    v
                };
                from_bits(v, ty)?
            }
            ExprKind::Lane { base, index } => {
                let b = self.expr(base)?;
                let b = to_bits(b, base.ty)?;
                let i = self.amount(index)?;
                let wl = u32_lit(ty.width);
                from_bits(
                    quote!(rt::get_bits(#b, (#i).saturating_mul(#wl as u128), #wl)),
                    ty,
                )?
            }
            ExprKind::Concat(parts) => {
                let total: u32 = parts.iter().map(|p| p.ty.width).sum();
                if total > 128 {
                    return Err(Gap::Operation.because(format!("a concatenation of {total} bits")));
                }
                let mut acc = quote!(0u128);
                for p in parts {
                    let v = self.expr(p)?;
                    let v = to_bits(v, p.ty)?;
                    let m = u128_lit(mask(p.ty.width));
                    let wl = u32_lit(p.ty.width);
                    acc = quote!(((#acc).checked_shl(#wl).unwrap_or(0) | ((#v) & #m)));
                }
                from_bits(acc, ty)?
            }
            ExprKind::Convert { expr, how } => self.convert(expr, ty, *how)?,
            ExprKind::Unary { op, expr } => self.unary(*op, expr, ty)?,
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, ty)?,
            ExprKind::Select {
                cond,
                then,
                otherwise,
            } => {
                let c = self.cond(cond)?;
                let a = self.expr(then)?;
                let b = self.expr(otherwise)?;
                quote!((if #c { #a } else { #b }))
            }
            ExprKind::Call { func, args } => self.call(func, args, ty)?,
            ExprKind::CallLambda { instance, args } => {
                self.lambda(*instance)?;
                let f = format_ident!("lambda_{}", *instance);
                let mut a = Vec::new();
                for x in args {
                    a.push(self.expr(x)?);
                }
                quote!((#f(w, #(#a),*)?))
            }
        })
    }

    pub(super) fn float_lit(&mut self, v: f64, ty: Ty) -> Res<TokenStream> {
        Ok(match rt_of(ty)? {
            Rt::F(32) => {
                let b = Literal::u32_suffixed((v as f32).to_bits());
                quote!(F32(#b))
            }
            Rt::F(64) => {
                let b = Literal::u64_suffixed(v.to_bits());
                quote!(F64(#b))
            }
            Rt::F(_) | Rt::Bf16 => {
                let t = ty_tokens(ty)?;
                let l = Literal::f64_suffixed(v);
                quote!(rt::fconst::<#t>(#l))
            }
            Rt::U(_) | Rt::I(_) if !ty.is_float() => int_lit(v as i128, rt_of(ty)?),
            _ => return Err(Gap::FloatMisuse.because(format!("a float literal of type {ty}"))),
        })
    }

    pub(super) fn constant(&mut self, name: &str, ty: Ty) -> Res<TokenStream> {
        Ok(match name {
            "laneId" | "laneID" | "threadId" | "ThreadPosition" => {
                if !self.lane_mode() {
                    return Err(
                        Gap::OperandShape.because("`laneId` outside a per-lane body".into())
                    );
                }
                let v = quote!((lane as u128));
                from_bits(v, ty)?
            }
            "WAVE64" => quote!(w.wave64),
            "WAVE32" | "wave32" => quote!((!w.wave64)),
            "PI" | "INF" | "NAN" | "NaN" | "sNaN" | "overflow" | "underflow" if float_rt(ty) => {
                let t = ty_tokens(ty)?;
                quote!(rt::float_const::<#t>(#name)?)
            }
            "DENORM" => {
                return Err(Gap::UnknownName
                    .because("`DENORM` stands for \"is denormal\", not a value".into()));
            }
            "MAX_FLOAT_F32" => from_bits(u128_lit(0x7f7f_ffff), ty)?,
            "ROUND_TOWARD_ZERO" => from_bits(u128_lit(0xf), ty)?,
            "ROUND_NEAREST_EVEN" => from_bits(u128_lit(0), ty)?,
            "BYTE0" => from_bits(u128_lit(0), ty)?,
            "BYTE1" => from_bits(u128_lit(1), ty)?,
            "BYTE2" => from_bits(u128_lit(2), ty)?,
            "BYTE3" => from_bits(u128_lit(3), ty)?,
            "WORD0" => from_bits(u128_lit(4), ty)?,
            "WORD1" => from_bits(u128_lit(5), ty)?,
            "opcode_size_in_bits" => {
                let w = crate::pcode::names::natural_ty(self.cx.name).width;
                from_bits(u128_lit(w as u128), ty)?
            }
            "N" => {
                // S_LSHL<N>_ADD_U32.
                let n: u32 = self
                    .cx
                    .name
                    .strip_prefix("S_LSHL")
                    .and_then(|r| r.split('_').next())
                    .and_then(|d| d.parse().ok())
                    .ok_or_else(|| Gap::UnknownName.because(format!("`N` in {}", self.cx.name)))?;
                from_bits(u128_lit(n as u128), ty)?
            }
            other => {
                return Err(
                    Gap::UnknownName.because(format!("the constant `{other}` is not modelled"))
                )
            }
        })
    }

    pub(super) fn lane_opt(&self) -> TokenStream {
        if self.lane_mode() {
            quote!(Some(lane))
        } else {
            quote!(None)
        }
    }

    pub(super) fn space(&self, s: Space) -> Res<TokenStream> {
        Ok(match (s, self.cx.family) {
            (Space::Lds, _) | (Space::Mem, Family::Ds) => quote!(rt::Space::Lds),
            (Space::Mem, Family::Flat) => quote!(rt::Space::Flat),
            (Space::Mem, Family::Scratch) => quote!(rt::Space::Scratch),
            (Space::Mem, Family::Global | Family::Buffer | Family::Smem) => {
                quote!(rt::Space::Global)
            }
            (Space::Mem, f) => {
                return Err(
                    Gap::Memory.because(format!("memory access in a {} instruction", f.name()))
                )
            }
        })
    }

    /// A register number: an operand's own register when the index is the operand's name
    /// (`VGPR[lane][SRC0]`), else the value.
    pub(super) fn reg_number(&mut self, e: &Expr) -> Res<TokenStream> {
        let mut x = e;
        while let ExprKind::Convert { expr, .. } = &x.kind {
            x = expr;
        }
        if let ExprKind::Reg(n) = &x.kind {
            let role = match self.name_ref_opt(n) {
                Some(NameRef::Role(r)) => Some(r),
                Some(NameRef::Vdata) => self.vdata_role(n, false),
                _ => None,
            };
            if let Some(r) = role {
                self.roles.entry(r).or_default().as_reg = true;
                let v = format_ident!("r_{}", r.ident().to_ascii_lowercase());
                // The role's Src is fetched in the prologue.
                return Ok(quote!((rt::reg_number(#v)? as u64)));
            }
        }
        self.u64_of(e)
    }

    pub(super) fn read_reg(&mut self, n: &str, ty: Ty) -> Res<TokenStream> {
        let w = ty.width;
        let wl = u32_lit(w);
        let r = match self.name_ref_opt(n) {
            Some(NameRef::Role(r)) => r,
            Some(NameRef::Vdata) => self.vdata_role(n, false).unwrap_or(Role::Data),
            Some(NameRef::MemAddr) => return from_bits(self.mem_addr()?, ty),
            Some(NameRef::Field(f)) => {
                let f = format_ident!("{}", f);
                return from_bits(quote!((b.field(d, rt::field::#f) as u128)), ty);
            }
            Some(NameRef::DsOffset) => return from_bits(quote!((rt::ds_offset(d, b) as u128)), ty),
            Some(NameRef::Wave) => return self.read_wave(n, ty),
            None => return Err(Gap::UnknownName.because(format!("the name `{n}` is not modelled"))),
        };
        if self.in_lambda {
            return Err(Gap::OperandShape.because("a lambda reads an operand".into()));
        }
        if self.wide_role(n, w, false).is_some() {
            // Such operands exist only as dword arrays (see `read_wide`).
            return Err(Gap::WideValue.because(format!(
                "a read of all of `{n}`, an operand wider than 128 bits"
            )));
        }
        let rid = format_ident!("{}", r.ident());
        self.roles.entry(r).or_default().reads.insert(w);
        let lower = r.ident().to_ascii_lowercase();
        let mut tokens = if self.known_written.contains(&r) {
            let o = format_ident!("o_{}", lower);
            from_bits(quote!(rt::get_bits(#o, 0, #wl)), ty)?
        } else if self.mode == ExecMode::Lane {
            match read_class(w) {
                Some(class) => {
                    let p = format_ident!("p_{}_{}", lower, class);
                    let m = u128_lit(mask(w));
                    from_bits(quote!(((#p[lane] as u128) & #m)), ty)?
                }
                None => {
                    let s = format_ident!("r_{}", lower);
                    from_bits(
                        quote!(rt::read_lane(w, #s, lane, #wl, b.is_f64(rt::role::#rid))?),
                        ty,
                    )?
                }
            }
        } else {
            let s = format_ident!("r_{}", lower);
            from_bits(
                quote!(rt::read_scalar(w, #s, #wl, b.is_f64(rt::role::#rid))?),
                ty,
            )?
        };
        if let (Some(k), true) = (r.source_index(), self.cx.family.is_valu() && float_rt(ty)) {
            self.roles.entry(r).or_default().float_read = true;
            tokens = quote!(m.src(#k, #tokens));
        }
        if r == Role::Addr && self.ds_addr_with_offset && ty.is_integer() {
            let t = ty_tokens(ty)?;
            tokens = norm(
                quote!((#tokens).wrapping_add(rt::ds_offset(d, b) as #t)),
                ty,
            )?;
        }
        Ok(tokens)
    }

    /// Buffer memory accesses go through the resource's range check (`rt::buf_read`,
    /// `rt::buf_write`: out-of-range reads give 0, writes are dropped); the check is part of
    /// the lanes' buffer addresses.
    pub(super) fn buffer_range_checked(&self, space: Space) -> bool {
        space == Space::Mem
            && self.cx.family == Family::Buffer
            && self.lane_addrs.is_some()
            && self.lane_mode()
    }

    /// Scalar buffer accesses (`S_BUFFER_*`) go through the resource's range check
    /// (`rt::sbuf_read`, `rt::sbuf_write`).
    pub(super) fn scalar_buffer(&self, space: Space) -> bool {
        space == Space::Mem
            && self.cx.family == Family::Smem
            && self.cx.name.starts_with("S_BUFFER_")
    }

    pub(super) fn mem_addr(&mut self) -> Res<TokenStream> {
        let kind = match self.cx.family {
            Family::Smem => return Ok(quote!((rt::smem_addr(w, d, b)? as u128))),
            Family::Global => quote!(Global),
            Family::Flat => quote!(Flat),
            Family::Scratch => quote!(Scratch),
            Family::Buffer => quote!(Buffer),
            f => {
                return Err(Gap::Memory
                    .because(format!("a computed address in a {} instruction", f.name())))
            }
        };
        if !self.lane_mode() {
            return Err(
                Gap::OperandShape.because("a vector memory address outside a per-lane body".into())
            );
        }
        // The lanes' addresses are computed once, before the lane loop.
        self.lane_addrs = Some(kind);
        Ok(quote!((lane_addrs.at(lane) as u128)))
    }

    pub(super) fn read_wave(&mut self, n: &str, ty: Ty) -> Res<TokenStream> {
        let bits = match n {
            "EXEC" => quote!((w.exec as u128)),
            "EXEC_LO" => quote!(((w.exec & 0xffff_ffff) as u128)),
            "EXEC_HI" => quote!(((w.exec >> 32) as u128)),
            "VCC" | "VCC_LO" | "VCC_HI" if self.vcc_local() => {
                self.vcc.0 = true;
                match n {
                    "VCC" => quote!(o_vcc),
                    "VCC_LO" => quote!((o_vcc & 0xffff_ffff)),
                    _ => quote!(((o_vcc >> 32) & 0xffff_ffff)),
                }
            }
            "VCC" => quote!((w.vcc as u128)),
            "VCC_LO" => quote!(((w.vcc & 0xffff_ffff) as u128)),
            "VCC_HI" => quote!(((w.vcc >> 32) as u128)),
            "SCC" => quote!((w.scc as u128)),
            "M0" => quote!((w.m0 as u128)),
            "MODE" | "WAVE_MODE" => quote!((w.mode.0 as u128)),
            "ROUND_MODE" => quote!((w.mode.round_mode() as u128)),
            "IEEE_MODE" => quote!((w.mode.ieee() as u128)),
            "TRAPSTS" => quote!((w.trapsts as u128)),
            "WAVE_STATUS" => quote!((w.status_value() as u128)),
            "VCCZ" => quote!(((w.vcc & w.lane_mask() == 0) as u128)),
            "EXECZ" => quote!(((w.exec_mask() == 0) as u128)),
            "TBA" => quote!((w.tba as u128)),
            "TMA" => quote!((w.tma as u128)),
            "FLAT_SCRATCH" => quote!((w.flat_scratch as u128)),
            "conditional_debug_system" => quote!((rt::status_field(w, "COND_DBG_SYS")? as u128)),
            "conditional_debug_user" => quote!((rt::status_field(w, "COND_DBG_USER")? as u128)),
            "PC" => {
                self.pc.0 = true;
                quote!((pc as u128))
            }
            other => {
                return Err(Gap::UnknownName.because(format!("reading `{other}` is not modelled")))
            }
        };
        from_bits(bits, ty)
    }

    pub(super) fn field(&mut self, base: &Expr, name: &str, ty: Ty) -> Res<TokenStream> {
        let owner = match &base.kind {
            ExprKind::Reg(n) => n.as_str(),
            _ => return Err(Gap::UnknownName.because(format!("the field `.{name}` of this value"))),
        };
        let v = match (owner, name) {
            ("MODE" | "WAVE_MODE", f) => quote!((rt::mode_field(w, #f)? as u128)),
            ("WAVE_STATUS" | "STATUS", f) => quote!((rt::status_field(w, #f)? as u128)),
            ("TRAPSTS", f) => quote!((rt::trapsts_field(w, #f)? as u128)),
            ("INST", f) => quote!((d.field(#f).unwrap_or(0) as u128)),
            (n, "addr") => {
                let e = Expr::new(Ty::U32, ExprKind::Reg(n.to_string()), base.span);
                let r = self.reg_number(&e)?;
                quote!((#r as u128))
            }
            (o, f) => {
                return Err(Gap::UnknownName.because(format!("the field `{o}.{f}` is not modelled")))
            }
        };
        from_bits(v, ty)
    }

    pub(super) fn convert(&mut self, inner: &Expr, to: Ty, how: ConvKind) -> Res<TokenStream> {
        let from = inner.ty;
        let x = self.expr(inner)?;
        if from == to {
            return Ok(x);
        }
        if how == ConvKind::Reinterpret {
            let b = to_bits(x, from)?;
            return from_bits(b, to);
        }
        if is_small_float(from) || is_small_float(to) {
            return Err(Gap::Helper.because(format!(
                "a numeric conversion from {from} to {to} (AMD's text names a helper elsewhere)"
            )));
        }
        let (rf, rto) = (rt_of(from)?, rt_of(to)?);
        let t = rt_tokens(rto);
        if is_small_float(to) {
            return Err(Gap::Helper.because(format!(
                "a numeric conversion to {to} (use a conversion helper)"
            )));
        }
        Ok(match (rf, rto) {
            (Rt::Bool, Rt::U(_) | Rt::I(_)) => quote!(((#x) as #t)),
            (Rt::U(_) | Rt::I(_), Rt::Bool) => quote!(((#x) != 0)),
            (Rt::U(_) | Rt::I(_), Rt::U(_) | Rt::I(_)) => norm(quote!(((#x) as #t)), to)?,
            (Rt::I(c), Rt::F(_) | Rt::Bf16) if c <= 64 => {
                let e = env(to)?;
                quote!(fl::from_i64::<#t>(#e, (#x) as i64))
            }
            (Rt::U(c), Rt::F(_) | Rt::Bf16) if c <= 64 => {
                let e = env(to)?;
                quote!(fl::from_u64::<#t>(#e, (#x) as u64))
            }
            (Rt::Bool, Rt::F(_) | Rt::Bf16) => quote!(rt::fconst::<#t>((#x) as u8 as f64)),
            (Rt::F(_) | Rt::Bf16, Rt::Bool) => quote!((!fl::is_zero(#x))),
            (Rt::F(_) | Rt::Bf16, Rt::U(_) | Rt::I(_)) => {
                let signed = matches!(rto, Rt::I(_));
                let wl = u32_lit(to.width);
                norm(quote!((rt::f_to_i(w, #x, #wl, #signed) as #t)), to)?
            }
            (Rt::F(_) | Rt::Bf16, Rt::F(_) | Rt::Bf16) => float_cast(to, x)?,
            _ => {
                return Err(
                    Gap::Operation.because(format!("a numeric conversion from {from} to {to}"))
                )
            }
        })
    }

    pub(super) fn unary(&mut self, op: UnOp, inner: &Expr, ty: Ty) -> Res<TokenStream> {
        let x = self.expr(inner)?;
        Ok(match (op, rt_of(ty)?) {
            (UnOp::Plus, _) => x,
            (UnOp::Neg, Rt::F(_) | Rt::Bf16) => quote!(fl::neg(#x)),
            (UnOp::Neg, Rt::U(_) | Rt::I(_)) => norm(quote!((#x).wrapping_neg()), ty)?,
            (UnOp::Not, Rt::Bool) => quote!((!#x)),
            (UnOp::Not, Rt::U(_) | Rt::I(_)) => {
                let zero = int_lit(0, rt_of(ty)?);
                let t = ty_tokens(ty)?;
                quote!((((#x) == #zero) as #t))
            }
            (UnOp::BitNot, Rt::U(_) | Rt::I(_)) => norm(quote!((!#x)), ty)?,
            (UnOp::BitNot, Rt::Bool) => quote!((!#x)),
            (op, _) => {
                return Err(
                    Gap::Operation.because(format!("the operator `{}` on {ty}", op.symbol()))
                )
            }
        })
    }

    pub(super) fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, ty: Ty) -> Res<TokenStream> {
        use BinOp::*;
        match op {
            Shl | Shr => return self.shift(op, lhs, rhs, ty),
            Pow => return self.pow(lhs, rhs, ty),
            _ => {}
        }
        let a = self.expr(lhs)?;
        let b = self.expr(rhs)?;
        let ot = lhs.ty;
        let ort = rt_of(ot)?;
        if ot.is_float() && is_small_float(ot) {
            return Err(Gap::Operation.because(format!("arithmetic on {ot}")));
        }
        let is_f = matches!(ort, Rt::F(_) | Rt::Bf16);
        Ok(match op {
            LogOr | LogAnd => {
                let (a, b) = (self.truth(a, lhs.ty)?, self.truth(b, rhs.ty)?);
                if op == LogOr {
                    quote!((#a || #b))
                } else {
                    quote!((#a && #b))
                }
            }
            Eq | Ne | Lt | Le | Gt | Ge if is_f => {
                let f = format_ident!(
                    "{}",
                    match op {
                        Eq => "eq",
                        Ne => "ne",
                        Lt => "lt",
                        Le => "le",
                        Gt => "gt",
                        _ => "ge",
                    }
                );
                quote!(fl::#f(#a, #b))
            }
            Eq => quote!((#a == #b)),
            Ne => quote!((#a != #b)),
            Lt => quote!((#a < #b)),
            Le => quote!((#a <= #b)),
            Gt => quote!((#a > #b)),
            Ge => quote!((#a >= #b)),
            BitAnd | BitOr | BitXor if !is_f => {
                let o = match op {
                    BitAnd => quote!(&),
                    BitOr => quote!(|),
                    _ => quote!(^),
                };
                quote!((#a #o #b))
            }
            Add | Sub | Mul | Div if is_f => {
                let e = env(ty)?;
                let f = format_ident!(
                    "{}",
                    match op {
                        Add => "add",
                        Sub => "sub",
                        Mul => "mul",
                        _ => "div",
                    }
                );
                quote!(fl::#f(#e, #a, #b))
            }
            Add | Sub | Mul if matches!(ort, Rt::U(_) | Rt::I(_)) => {
                let f = format_ident!(
                    "{}",
                    match op {
                        Add => "wrapping_add",
                        Sub => "wrapping_sub",
                        _ => "wrapping_mul",
                    }
                );
                norm(quote!((#a).#f(#b)), ty)?
            }
            Div | Mod if matches!(ort, Rt::U(_)) => {
                let t = ty_tokens(ty)?;
                let f = if op == Div {
                    quote!(rt::div_u)
                } else {
                    quote!(rt::rem_u)
                };
                norm(quote!((#f((#a) as u128, (#b) as u128)? as #t)), ty)?
            }
            Div | Mod if matches!(ort, Rt::I(_)) => {
                let t = ty_tokens(ty)?;
                let f = if op == Div {
                    quote!(rt::div_i)
                } else {
                    quote!(rt::rem_i)
                };
                norm(quote!((#f((#a) as i128, (#b) as i128)? as #t)), ty)?
            }
            _ => {
                return Err(
                    Gap::Operation.because(format!("the operator `{}` on {ot}", op.symbol()))
                )
            }
        })
    }

    pub(super) fn truth(&self, x: TokenStream, ty: Ty) -> Res<TokenStream> {
        Ok(match rt_of(ty)? {
            Rt::Bool => x,
            Rt::U(_) | Rt::I(_) => quote!((#x != 0)),
            _ => quote!((!fl::is_zero(#x))),
        })
    }

    pub(super) fn shift(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, ty: Ty) -> Res<TokenStream> {
        let a = self.expr(lhs)?;
        let n = self.amount(rhs)?;
        let t = ty_tokens(ty)?;
        let wl = u32_lit(ty.width);
        Ok(match (op, rt_of(ty)?) {
            (BinOp::Shl, Rt::U(_)) => quote!((rt::shl((#a) as u128, #n, #wl) as #t)),
            (BinOp::Shl, Rt::I(_)) => {
                quote!((rt::sext(rt::shl((#a) as i128 as u128, #n, #wl) as i128, #wl) as #t))
            }
            (BinOp::Shr, Rt::U(_)) => quote!((rt::shr((#a) as u128, #n, #wl) as #t)),
            (BinOp::Shr, Rt::I(_)) => quote!((rt::sar((#a) as i128, #n) as #t)),
            _ => return Err(Gap::Operation.because(format!("a shift of {ty}"))),
        })
    }

    pub(super) fn pow(&mut self, lhs: &Expr, rhs: &Expr, ty: Ty) -> Res<TokenStream> {
        let a = self.expr(lhs)?;
        let b = self.expr(rhs)?;
        Ok(match rt_of(ty)? {
            Rt::F(_) | Rt::Bf16 => {
                let t = ty_tokens(ty)?;
                let e = env(ty)?;
                let exp = match rt_of(rhs.ty)? {
                    Rt::I(_) => quote!(fl::from_i64::<#t>(#e, (#b) as i64)),
                    Rt::U(_) => quote!(fl::from_u64::<#t>(#e, (#b) as u64)),
                    _ if rhs.ty == ty => b,
                    _ => float_cast(ty, b)?,
                };
                quote!(hp::pow(w.mode, #a, #exp))
            }
            Rt::U(_) | Rt::I(_) => {
                let t = ty_tokens(ty)?;
                let n = match rt_of(rhs.ty)? {
                    Rt::I(_) => quote!(rt::amount_i((#b) as i128)),
                    _ => quote!(((#b) as u128)),
                };
                norm(quote!((rt::pow_u((#a) as u128, #n) as #t)), ty)?
            }
            _ => return Err(Gap::Operation.because(format!("`**` on {ty}"))),
        })
    }

    pub(super) fn call(&mut self, func: &str, args: &[Expr], ty: Ty) -> Res<TokenStream> {
        let rt = rt_of(ty)?;
        // Address calculations: computed from the form's operands (see binding.rs).
        match func {
            "CalcGlobalAddr"
            | "CalcFlatAddr"
            | "CalcScratchAddr"
            | "CalcBufferAddr"
            | "CalcScalarGlobalAddr"
            | "CalcScalarBufferAddr" => {
                return from_bits(self.mem_addr()?, ty);
            }
            // The wave's private memory as one region (see `rt::smem_scratch_addr`).
            "CalcScalarScratchAddr" if self.cx.family == Family::Smem => {
                return from_bits(quote!((rt::smem_scratch_addr(w, d, b)? as u128)), ty);
            }
            "CalcDsAddr" => {
                // (address, offset) or (address, OFFSET0, OFFSET1): the offset is
                // OFFSET1:OFFSET0.
                let mut parts = Vec::new();
                for a in args {
                    let v = self.expr(a)?;
                    parts.push(to_bits(v, a.ty)?);
                }
                let sum = match parts.as_slice() {
                    [a] => quote!(((#a) as u32)),
                    [a, o] => quote!(((#a) as u32).wrapping_add((#o) as u32)),
                    [a, o0, o1] => {
                        quote!(((#a) as u32).wrapping_add(((#o1) as u32 & 0xff) << 8 | ((#o0) as u32 & 0xff)))
                    }
                    _ => {
                        return Err(
                            Gap::Memory.because("CalcDsAddr with more than three arguments".into())
                        )
                    }
                };
                return from_bits(quote!((#sum as u128)), ty);
            }
            _ => {}
        }
        let h = helper(func).ok_or_else(|| {
            Gap::Helper.because(format!("the helper `{func}` has no runtime implementation"))
        })?;
        let mut a = Vec::new();
        let first = args.first().map(|x| x.ty);
        for (k, x) in args.iter().enumerate() {
            let mut v = self.expr(x)?;
            // Concrete parameters take the value through `rt::co` (integer widths differ);
            // generic ones as it is, except the documented extra integer parameters. A
            // generic helper's float arguments share the first one's format (`pow(2.0,
            // S0.f32)` gives the literal as f64).
            let coerce = !h.generic || (k > 0 && h.int_tail);
            if h.generic && !coerce && k > 0 {
                if let Some(f) = first.filter(|f| float_rt(*f) && float_rt(x.ty) && *f != x.ty) {
                    v = float_cast(f, v)?;
                }
            }
            a.push(if coerce { quote!(rt::co(#v)) } else { v });
        }
        let f = format_ident!("{}", h.rust);
        let call = if h.mode {
            quote!(hp::#f(w.mode, #(#a),*))
        } else {
            quote!(hp::#f(#(#a),*))
        };
        // `rt::co_<type>`: `rt::co::<T, _>` for one `T`.
        let co = format_ident!("co_{}", rt_name(rt));
        Ok(quote!(rt::#co(#call)))
    }

    /// Lowers lambda instance `k` once, as a nested function.
    pub(super) fn lambda(&mut self, k: usize) -> Res<()> {
        if self.lambdas.get(k).is_some_and(|l| l.is_some()) {
            return Ok(());
        }
        let inst: &LambdaInstance = self.cx.ir.lambdas.get(k).ok_or_else(|| {
            Gap::UnknownName.because(format!("lambda instance {k} does not exist"))
        })?;
        let mut sub = Lower::new(self.cx, self.mode);
        sub.in_lambda = true;
        for p in inst.params.iter().chain(&inst.locals) {
            sub.locals.insert(p.name.clone(), (p.ty, p.len));
        }
        let body = sub.block(&inst.body)?;
        for (i, l) in sub.lambdas.iter().enumerate() {
            if l.is_some() && self.lambdas[i].is_none() {
                self.lambdas[i] = l.clone();
            }
        }
        let locals = sub.declare_locals(&inst.locals)?;
        let mut params = Vec::new();
        let mut binds = Vec::new();
        for p in &inst.params {
            let t = ty_tokens(p.ty)?;
            let pn = format_ident!("a_{}", p.name);
            let ln = local_ident(&p.name);
            params.push(quote!(#pn: #t));
            binds.push(quote!(let mut #ln: #t = #pn;));
        }
        let ret = ty_tokens(inst.ret)?;
        let f = format_ident!("lambda_{}", k);
        self.lambdas[k] = Some(quote! {
            #[allow(unused_mut, unused_variables, unreachable_code)]
            fn #f(w: &Wave, #(#params),*) -> Result<#ret, ExecError> {
                #(#binds)*
                #locals
                #body
                Err(ExecError::unsupported("pseudocode lambda", "ended without returning a value"))
            }
        });
        Ok(())
    }
}
