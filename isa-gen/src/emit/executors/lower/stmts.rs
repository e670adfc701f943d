//! Lowering statements: assignments, control flow, stores to operands, memory and wave state.

use super::*;

impl<'a> Lower<'a> {
    pub(super) fn block(&mut self, stmts: &[Stmt]) -> Res<TokenStream> {
        let mut out = TokenStream::new();
        for s in stmts {
            out.extend(self.stmt(s)?);
        }
        Ok(out)
    }

    pub(super) fn stmt(&mut self, s: &Stmt) -> Res<TokenStream> {
        Ok(match s {
            Stmt::Assign {
                place, op, value, ..
            } => {
                let v = if let Some(bop) = op.binary() {
                    let cur = place_expr(place).ok_or_else(|| {
                        Gap::Construct
                            .because("a compound assignment to this kind of place".to_string())
                    })?;
                    let e = Expr::new(
                        place.ty,
                        ExprKind::Binary {
                            op: bop,
                            lhs: Box::new(cur),
                            rhs: Box::new(value.clone()),
                        },
                        value.span,
                    );
                    self.expr(&e)?
                } else {
                    self.expr(value)?
                };
                let v = self.output_modifier(place, v)?;
                let bits = to_bits(v, place.ty)?;
                if self.store_is_direct(place) {
                    // The store evaluates nothing before the value: no temporary.
                    self.store(place, bits)?
                } else {
                    let store = self.store(place, quote!(v__))?;
                    quote!({ let v__: u128 = #bits; #store })
                }
            }
            Stmt::Declare { local, .. } => {
                let (ty, len) = *self.locals.get(local).ok_or_else(|| {
                    Gap::UnknownName.because(format!("declared variable `{local}` has no type"))
                })?;
                let name = local_ident(local);
                let zero = zero_of(ty)?;
                match len {
                    Some(n) => {
                        let n = n as usize;
                        quote!(#name = [#zero; #n];)
                    }
                    None => quote!(#name = #zero;),
                }
            }
            Stmt::If {
                arms, otherwise, ..
            } => {
                let mut out = TokenStream::new();
                self.depth += 1;
                for (k, (c, body)) in arms.iter().enumerate() {
                    let c = self.cond(c)?;
                    let body = self.block(body)?;
                    if k == 0 {
                        out.extend(quote!(if #c { #body }));
                    } else {
                        out.extend(quote!(else if #c { #body }));
                    }
                }
                if !otherwise.is_empty() {
                    let body = self.block(otherwise)?;
                    out.extend(quote!(else { #body }));
                }
                self.depth -= 1;
                out
            }
            Stmt::For {
                var,
                from,
                to,
                body,
                ..
            } => {
                let (ty, _) = *self.locals.get(var).ok_or_else(|| {
                    Gap::UnknownName.because(format!("loop counter `{var}` has no type"))
                })?;
                let from = self.as_i128(from)?;
                let to = self.as_i128(to)?;
                self.depth += 1;
                let body = self.block(body)?;
                self.depth -= 1;
                let name = local_ident(var);
                let set = from_bits(quote!(it__ as u128), ty)?;
                quote! {
                    {
                        let (from__, to__): (i128, i128) = (#from, #to);
                        if to__ - from__ > (1 << 20) {
                            return Err(ExecError::unsupported("pseudocode loop", "more than 2^20 iterations"));
                        }
                        for it__ in from__..=to__ {
                            #name = #set;
                            #body
                        }
                    }
                }
            }
            Stmt::While { cond, body, .. } => {
                let c = self.cond(cond)?;
                self.depth += 1;
                let body = self.block(body)?;
                self.depth -= 1;
                quote! {
                    {
                        let mut guard__ = 0u32;
                        while #c {
                            rt::loop_guard(&mut guard__)?;
                            #body
                        }
                    }
                }
            }
            Stmt::Return { value, .. } => {
                if self.in_lambda {
                    let v = value.as_ref().ok_or_else(|| {
                        Gap::Construct.because("a lambda returns no value".to_string())
                    })?;
                    let v = self.expr(v)?;
                    quote!(return Ok(#v);)
                } else {
                    quote!(break 'body;)
                }
            }
            Stmt::Break { .. } => quote!(break;),
            Stmt::Continue { .. } => quote!(continue;),
            Stmt::Call { func, args, .. } => match func.as_str() {
                "nop"
                | "s_nop"
                | "WaitIdleExceptStoreCnt"
                | "PrefetchScalarData"
                | "PrefetchScalarInst" => {
                    // Waits and prefetches have no effect; arguments have no side effects.
                    let _ = args;
                    quote!()
                }
                other => {
                    return Err(Gap::UnknownName
                        .because(format!("the statement call `{other}(...)` is not modelled")))
                }
            },
            Stmt::Note { span, .. } => {
                return Err(Gap::Construct.because(format!(
                    "a step AMD states only in English (at byte {} of the entry)",
                    span.start
                )))
            }
        })
    }

    /// The output modifiers of a float result written whole to D0 (VALU).
    pub(super) fn output_modifier(&mut self, place: &Place, v: TokenStream) -> Res<TokenStream> {
        if self.cx.family.is_valu() && !self.in_lambda && place.ty.is_float() && float_rt(place.ty)
        {
            if let PlaceKind::Reg(n) = &place.kind {
                if resolve(n, self.cx.family) == Some(NameRef::Role(Role::D0)) {
                    return Ok(quote!(m.out(w, #v)));
                }
            }
        }
        Ok(v)
    }

    pub(super) fn cond(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool => v,
            Rt::U(_) | Rt::I(_) => quote!((#v != 0)),
            Rt::F(_) | Rt::Bf16 => quote!((!fl::is_zero(#v))),
        })
    }

    /// An integer expression as `i128` (loop bounds).
    pub(super) fn as_i128(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool | Rt::U(_) | Rt::I(_) => quote!(((#v) as i128)),
            _ => return Err(Gap::FloatMisuse.because("a float loop bound".into())),
        })
    }

    /// An integer expression as a `u128` amount or index (negative values become huge).
    pub(super) fn amount(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool | Rt::U(_) => quote!(((#v) as u128)),
            Rt::I(_) => quote!(rt::amount_i((#v) as i128)),
            _ => {
                return Err(
                    Gap::FloatMisuse.because("a float used as a bit index or shift amount".into())
                )
            }
        })
    }

    pub(super) fn index_of(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool | Rt::U(_) | Rt::I(_) => quote!(((#v) as i128)),
            _ => return Err(Gap::FloatMisuse.because("a float array index".into())),
        })
    }

    /// A memory address. AMD's text types the computed address `ADDR` of vector and scalar
    /// memory instructions as 32 bits (`MEM[ADDR + 4U]`); it is the 64-bit address, so
    /// `ADDR` plus or minus offsets is computed in 64 bits.
    pub(super) fn address(&mut self, e: &Expr) -> Res<TokenStream> {
        fn strip(e: &Expr) -> &Expr {
            let mut x = e;
            while let ExprKind::Convert { expr, .. } = &x.kind {
                x = expr;
            }
            x
        }
        let x = strip(e);
        match &x.kind {
            ExprKind::Reg(n) if self.name_ref_opt(n) == Some(NameRef::MemAddr) => {
                let a = self.mem_addr()?;
                Ok(quote!(((#a) as u64)))
            }
            ExprKind::Binary {
                op: op @ (BinOp::Add | BinOp::Sub),
                lhs,
                rhs,
            } if matches!(&strip(lhs).kind, ExprKind::Reg(n) if self.name_ref_opt(n) == Some(NameRef::MemAddr)) =>
            {
                let a = self.address(lhs)?;
                let k = self.expr(rhs)?;
                let k = match rt_of(rhs.ty)? {
                    Rt::I(_) => quote!(((#k) as i64 as u64)),
                    _ => quote!(((#k) as u64)),
                };
                Ok(if *op == BinOp::Add {
                    quote!((#a).wrapping_add(#k))
                } else {
                    quote!((#a).wrapping_sub(#k))
                })
            }
            _ => self.u64_of(e),
        }
    }

    pub(super) fn u64_of(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool | Rt::U(_) | Rt::I(_) => quote!(((#v) as u64)),
            _ => {
                return Err(
                    Gap::Memory.because("a float used as an address or register number".into())
                )
            }
        })
    }

    /// Stores `bits` (a `u128` whose low `place.ty.width` bits are the value) into `place`.
    pub(super) fn store(&mut self, place: &Place, bits: TokenStream) -> Res<TokenStream> {
        let w = place.ty.width;
        let wl = u32_lit(w);
        Ok(match &place.kind {
            PlaceKind::Local(n) => {
                let (ty, len) = *self.locals.get(n).ok_or_else(|| {
                    Gap::UnknownName.because(format!("assignment to unknown variable `{n}`"))
                })?;
                if len.is_some() {
                    return Err(
                        Gap::Construct.because(format!("assignment to the whole array `{n}`"))
                    );
                }
                let name = local_ident(n);
                let v = from_bits(bits, ty)?;
                quote!(#name = #v;)
            }
            PlaceKind::Element { array, index } => {
                let (ty, len) = *self.locals.get(array).ok_or_else(|| {
                    Gap::UnknownName.because(format!("assignment to unknown array `{array}`"))
                })?;
                let len = len
                    .ok_or_else(|| Gap::UnknownName.because(format!("`{array}` is not an array")))?
                    as usize;
                let i = self.index_of(index)?;
                let name = local_ident(array);
                let v = from_bits(bits, ty)?;
                quote!({ let i__ = rt::index(#i, #len)?; #name[i__] = #v; })
            }
            PlaceKind::Reg(n) => self.store_reg(n, place.ty, bits)?,
            // Parts of an operand wider than 128 bits live in a dword array; they are matched
            // before the whole-width shortcuts below, since `SDATA[31 : 0]` of a 256-bit
            // SDATA is as wide as SDATA's declared type but is only its first dword.
            PlaceKind::Bit { base, index } if self.wide_base(base).is_some() => {
                let r = self.wide_base(base).unwrap_or(Role::D0);
                self.store_wide(r, index, 1, bits)?
            }
            PlaceKind::Slice {
                base,
                lo,
                reversed: false,
            } if self.wide_base(base).is_some() => {
                let r = self.wide_base(base).unwrap_or(Role::D0);
                self.store_wide(r, lo, w, bits)?
            }
            PlaceKind::View { base } if w >= base.ty.width => self.store(base, bits)?,
            PlaceKind::Slice {
                base,
                lo,
                reversed: false,
            } if w >= base.ty.width && is_zero_const(lo) => self.store(base, bits)?,
            PlaceKind::View { base } => self.store_part(base, quote!(0u128), w, bits)?,
            PlaceKind::Bit { base, index } => {
                if is_lane_id(index) {
                    self.mark_lane_bit(base);
                }
                let i = self.amount(index)?;
                self.store_part(base, i, 1, bits)?
            }
            PlaceKind::Slice { base, lo, reversed } => {
                let lo = self.amount(lo)?;
                let bits = if *reversed {
                    quote!(rt::rev_bits(#bits, #wl))
                } else {
                    bits
                };
                self.store_part(base, lo, w, bits)?
            }
            PlaceKind::Lane { base, index } => {
                let i = self.amount(index)?;
                self.store_part(base, quote!((#i).saturating_mul(#wl as u128)), w, bits)?
            }
            PlaceKind::Concat(parts) => {
                let mut out = quote!(let c__: u128 = #bits;);
                let mut off = parts.iter().map(|p| p.ty.width).sum::<u32>();
                for p in parts {
                    off -= p.ty.width;
                    let o = u32_lit(off);
                    let s = self.store(p, quote!((c__ >> #o)))?;
                    out.extend(s);
                }
                quote!({ #out })
            }
            PlaceKind::Mem { space, addr } => {
                if !w.is_multiple_of(8) || w > 128 {
                    return Err(Gap::Memory.because(format!("a memory write of {w} bits")));
                }
                let bytes = u32_lit(w / 8);
                let a = self.address(addr)?;
                let sp = self.space(*space)?;
                let lane = self.lane_opt();
                if self.buffer_range_checked(*space) {
                    quote!({ let a__: u64 = #a; rt::buf_write(w, mem, &lane_addrs, lane, a__, #bytes, #bits)?; })
                } else if self.scalar_buffer(*space) {
                    quote!({ let a__: u64 = #a; rt::sbuf_write(w, mem, d, b, a__, #bytes, #bits)?; })
                } else {
                    quote!({ let a__: u64 = #a; rt::mem_write(w, mem, lds, #sp, a__, #bytes, #bits, #lane)?; })
                }
            }
            PlaceKind::Vgpr { lane, reg } => {
                let l = self.u64_of(lane)?;
                let r = self.reg_number(reg)?;
                quote!({ let l__: u64 = #l; let r__: u64 = #r; rt::vgpr_write(w, l__, r__, #wl, #bits)?; })
            }
            PlaceKind::Sgpr { reg } => {
                let r = self.reg_number(reg)?;
                quote!({ let r__: u64 = #r; rt::sgpr_write(w, r__, #wl, #bits)?; })
            }
            PlaceKind::RegElement { array, index } => {
                let i = self.index_of(index)?;
                match array.as_str() {
                    "HW_REGISTERS" | "hardware_reg" => {
                        quote!({ let i__ = (#i) as u64; rt::hw_reg_write(w, i__, (#bits) as u32)?; })
                    }
                    "TTMP" => {
                        quote!({ let i__ = rt::index(#i, 16)?; w.ttmp[i__] = (#bits) as u32; })
                    }
                    other => {
                        return Err(Gap::UnknownName
                            .because(format!("writing `{other}[...]` is not modelled")))
                    }
                }
            }
            PlaceKind::Field { base, name } => {
                let owner = match &base.kind {
                    PlaceKind::Reg(n) => n.as_str(),
                    _ => {
                        return Err(Gap::UnknownName
                            .because(format!("writing the field `.{name}` of this place")))
                    }
                };
                match owner {
                    "MODE" | "WAVE_MODE" => {
                        let n = name.as_str();
                        quote!(rt::set_mode_field(w, #n, (#bits) as u32)?;)
                    }
                    "TRAPSTS" => {
                        let n = name.as_str();
                        quote!(rt::set_trapsts_field(w, #n, (#bits) as u32)?;)
                    }
                    "WAVE_STATUS" | "STATUS" => {
                        let n = name.as_str();
                        quote!(rt::set_status_field(w, #n, (#bits) as u32)?;)
                    }
                    other => {
                        return Err(Gap::UnknownName
                            .because(format!("writing `{other}.{name}` is not modelled")))
                    }
                }
            }
        })
    }

    /// Whether [`Self::store`] of `place` uses its value once and evaluates nothing before
    /// it (a variable, an operand's local value, a piece of wave state written whole), so the
    /// value can be written in place of a temporary without changing the order of effects.
    pub(super) fn store_is_direct(&self, place: &Place) -> bool {
        match &place.kind {
            PlaceKind::Local(n) => self.locals.get(n).is_some_and(|(_, len)| len.is_none()),
            PlaceKind::Reg(n) => match self.name_ref_opt(n) {
                Some(NameRef::Role(_) | NameRef::Vdata) => {
                    self.wide_role(n, place.ty.width, true).is_none()
                }
                Some(NameRef::Wave) => match n.as_str() {
                    "VCC_LO" | "VCC_HI" => self.vcc_local(),
                    "EXEC" | "VCC" | "SCC" | "M0" | "MODE" | "WAVE_MODE" | "TRAPSTS" | "TBA"
                    | "TMA" | "FLAT_SCRATCH" | "PC" => true,
                    _ => false,
                },
                _ => false,
            },
            PlaceKind::View { base } if place.ty.width >= base.ty.width => {
                self.store_is_direct(base)
            }
            PlaceKind::Slice {
                base,
                lo,
                reversed: false,
            } if place.ty.width >= base.ty.width && is_zero_const(lo) => {
                self.wide_base(base).is_none() && self.store_is_direct(base)
            }
            _ => false,
        }
    }

    /// Writes `width` bits at `lo` of `base` (read-modify-write).
    pub(super) fn store_part(
        &mut self,
        base: &Place,
        lo: TokenStream,
        width: u32,
        bits: TokenStream,
    ) -> Res<TokenStream> {
        let wl = u32_lit(width);
        if let PlaceKind::Reg(n) = &base.kind {
            self.mark_partial(n);
        }
        let cur = place_expr(base).ok_or_else(|| {
            Gap::Construct.because("a partial write of this kind of place".to_string())
        })?;
        let cur = self.expr(&cur)?;
        let cur = to_bits(cur, base.ty)?;
        let inner = self.store(base, quote!(n__))?;
        Ok(quote!({
            let lo__: u128 = #lo;
            let n__: u128 = rt::set_bits(#cur, lo__, #wl, #bits);
            #inner
        }))
    }

    /// The output role a register place names, when it is wider than 128 bits.
    pub(super) fn wide_base(&self, base: &Place) -> Option<Role> {
        match &base.kind {
            PlaceKind::Reg(n) => self.wide_role(n, base.ty.width, true),
            _ => None,
        }
    }

    pub(super) fn wide_expr(&self, base: &Expr) -> Option<Role> {
        match &base.kind {
            ExprKind::Reg(n) => self.wide_role(n, base.ty.width, false),
            _ => None,
        }
    }

    pub(super) fn wide_role(&self, name: &str, width: u32, write: bool) -> Option<Role> {
        let role = match self.name_ref_opt(name)? {
            NameRef::Role(r) => r,
            NameRef::Vdata => self.vdata_role(name, write)?,
            _ => return None,
        };
        let max = self
            .cx
            .forms
            .iter()
            .map(|f| f.size(role))
            .max()
            .unwrap_or(0);
        (width > 128 || max > 128).then_some(role)
    }

    /// A constant dword-aligned part of a wide role: (dword, bit offset in it).
    pub(super) fn wide_index(lo: &Expr, width: u32) -> Res<(usize, u32)> {
        let mut x = lo;
        while let ExprKind::Convert { expr, .. } = &x.kind {
            x = expr;
        }
        let ExprKind::Int(v) = x.kind else {
            return Err(
                Gap::WideValue.because("a variable part of an operand wider than 128 bits".into())
            );
        };
        let (k, off) = ((v / 32) as usize, (v % 32) as u32);
        if k >= 16 || off + width > 32 {
            return Err(Gap::WideValue
                .because("a part of an operand wider than 128 bits that crosses a dword".into()));
        }
        Ok((k, off))
    }

    pub(super) fn store_wide(
        &mut self,
        role: Role,
        lo: &Expr,
        width: u32,
        bits: TokenStream,
    ) -> Res<TokenStream> {
        let (k, off) = Self::wide_index(lo, width)?;
        let u = self.roles.entry(role).or_default();
        u.written = true;
        u.wide = true;
        u.partial = true;
        let ow = format_ident!("o_{}_w", role.ident().to_ascii_lowercase());
        let (wl, offl) = (u32_lit(width), u128_lit(off as u128));
        Ok(quote!(#ow[#k] = rt::set_bits(#ow[#k] as u128, #offl, #wl, #bits) as u32;))
    }

    pub(super) fn read_wide(&mut self, role: Role, lo: &Expr, width: u32) -> Res<TokenStream> {
        let (k, off) = Self::wide_index(lo, width)?;
        if !self.known_written.contains(&role) && !self.roles.get(&role).is_some_and(|u| u.written)
        {
            return Err(
                Gap::WideValue.because("reads part of an input operand wider than 128 bits".into())
            );
        }
        let u = self.roles.entry(role).or_default();
        u.wide = true;
        u.reads.insert(width);
        let ow = format_ident!("o_{}_w", role.ident().to_ascii_lowercase());
        let (wl, offl) = (u32_lit(width), u128_lit(off as u128));
        Ok(quote!(rt::get_bits(#ow[#k] as u128, #offl, #wl)))
    }

    pub(super) fn mark_partial(&mut self, name: &str) {
        let role = match self.name_ref_opt(name) {
            Some(NameRef::Role(r)) => r,
            Some(NameRef::Vdata) => Role::Vdst,
            _ => return,
        };
        self.roles.entry(role).or_default().partial = true;
    }

    pub(super) fn mark_lane_bit(&mut self, base: &Place) {
        let name = match &base.kind {
            PlaceKind::Reg(n) => n.clone(),
            PlaceKind::View { base } => match &base.kind {
                PlaceKind::Reg(n) => n.clone(),
                _ => return,
            },
            _ => return,
        };
        if name.starts_with("VCC") {
            self.vcc.2 = true;
            return;
        }
        if let Some(NameRef::Role(r)) = self.name_ref_opt(&name) {
            self.roles.entry(r).or_default().lane_bit = true;
        }
    }

    pub(super) fn name_ref_opt(&self, name: &str) -> Option<NameRef> {
        resolve(name, self.cx.family)
    }

    /// `VDATA` is DATA when read and VDST when written.
    pub(super) fn vdata_role(&self, name: &str, write: bool) -> Option<Role> {
        if self.name_ref_opt(name) != Some(NameRef::Vdata) {
            return None;
        }
        // An entry that writes VDATA (a load writing it in parts: `VDATA[63 : 32] = ...`)
        // reads back what it wrote: the returned data, not the data operand.
        Some(if write || self.known_written.contains(&Role::Vdst) {
            Role::Vdst
        } else if self.role_present(Role::Data) {
            Role::Data
        } else {
            Role::Vdst
        })
    }

    pub(super) fn store_reg(&mut self, n: &str, ty: Ty, bits: TokenStream) -> Res<TokenStream> {
        let w = ty.width;
        match self.name_ref_opt(n) {
            Some(NameRef::Role(_)) | Some(NameRef::Vdata) => {
                if self.in_lambda {
                    return Err(Gap::OperandShape.because("a lambda writes an operand".into()));
                }
                let role = match self.name_ref_opt(n) {
                    Some(NameRef::Role(r)) => r,
                    _ => Role::Vdst,
                };
                if self.wide_role(n, w, true).is_some() {
                    // Such operands exist only as dword arrays (see `store_wide`).
                    return Err(Gap::WideValue.because(format!(
                        "a write of all of `{n}`, an operand wider than 128 bits"
                    )));
                }
                let depth = self.depth;
                let u = self.roles.entry(role).or_default();
                u.written = true;
                if depth > 0 {
                    u.partial = true;
                }
                if role == Role::D0 && ty.is_integer() {
                    u.int_result = true;
                }
                let max = self
                    .cx
                    .forms
                    .iter()
                    .map(|f| f.size(role))
                    .max()
                    .unwrap_or(0);
                if w < max {
                    u.partial = true;
                }
                let o = format_ident!("o_{}", role.ident().to_ascii_lowercase());
                let wl = u32_lit(w);
                Ok(quote!(#o = rt::set_bits(#o, 0, #wl, #bits);))
            }
            Some(NameRef::Wave) => self.store_wave(n, ty, bits),
            Some(NameRef::MemAddr) | Some(NameRef::Field(_)) | Some(NameRef::DsOffset) => {
                Err(Gap::Construct.because(format!(
                    "the pseudocode writes `{n}`, which is an address or field here"
                )))
            }
            None => Err(Gap::UnknownName.because(format!("writing `{n}` is not modelled"))),
        }
    }

    pub(super) fn store_wave(&mut self, n: &str, ty: Ty, bits: TokenStream) -> Res<TokenStream> {
        let lo32 = quote!(0xffff_ffffu64);
        let _ = ty;
        Ok(match n {
            "EXEC" => quote!(w.exec = (#bits) as u64;),
            "EXEC_LO" => quote!(w.exec = (w.exec & !#lo32) | ((#bits) as u64 & #lo32);),
            "EXEC_HI" => quote!(w.exec = (w.exec & #lo32) | (((#bits) as u64) << 32);),
            "VCC" | "VCC_LO" | "VCC_HI" if self.vcc_local() => {
                self.vcc.1 = true;
                match n {
                    "VCC" => quote!(o_vcc = (#bits) & 0xffff_ffff_ffff_ffffu128;),
                    "VCC_LO" => quote!(o_vcc = rt::set_bits(o_vcc, 0, 32, #bits);),
                    _ => quote!(o_vcc = rt::set_bits(o_vcc, 32, 32, #bits);),
                }
            }
            "VCC" => quote!(w.vcc = (#bits) as u64;),
            "VCC_LO" => quote!(w.vcc = (w.vcc & !#lo32) | ((#bits) as u64 & #lo32);),
            "VCC_HI" => quote!(w.vcc = (w.vcc & #lo32) | (((#bits) as u64) << 32);),
            "SCC" => quote!(w.scc = (#bits) & 1 != 0;),
            "M0" => quote!(w.m0 = (#bits) as u32;),
            "MODE" | "WAVE_MODE" => quote!(w.mode.0 = (#bits) as u32;),
            "ROUND_MODE" => quote!(w.mode.set_round_mode((#bits) as u32 & 0xf);),
            "IEEE_MODE" => quote!(w.mode.set_ieee((#bits) & 1 != 0);),
            "TRAPSTS" => quote!(w.trapsts = (#bits) as u32;),
            "TBA" => quote!(w.tba = (#bits) as u64;),
            "TMA" => quote!(w.tma = (#bits) as u64;),
            "FLAT_SCRATCH" => quote!(w.flat_scratch = (#bits) as u64;),
            "PC" => {
                self.pc.1 = true;
                quote!({ pc = (#bits) as u64; jump = true; })
            }
            other => {
                return Err(Gap::UnknownName.because(format!("writing `{other}` is not modelled")))
            }
        })
    }
}
