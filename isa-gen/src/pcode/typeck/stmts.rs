//! Statements: blocks, control flow, calls as statements, and assignments.

use super::*;

impl<'a> Checker<'a> {
    pub(super) fn block(&mut self, stmts: &'a [ast::Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in stmts {
            self.stmt(s, &mut out);
        }
        out
    }

    pub(super) fn stmt(&mut self, s: &'a ast::Stmt, out: &mut Vec<Stmt>) {
        let span = s.span;
        match &s.kind {
            StmtKind::Assign { target, op, value } => {
                if let Some(st) = self.assign(target, *op, value, span) {
                    out.push(st);
                }
            }
            StmtKind::Declare {
                name,
                ty,
                len,
                init,
            } => {
                let len = match len {
                    None => None,
                    Some(l) => match linear(l) {
                        Some((t, n)) if t.is_empty() && (1..=1 << 16).contains(&n) => {
                            Some(n as u32)
                        }
                        _ => {
                            self.error(
                                "dynamic-width",
                                l.span,
                                format!("array length `{l}` is not a constant"),
                            );
                            None
                        }
                    },
                };
                let is_register = matches!(
                    names::lookup(&name.name),
                    Some(NameKind::Register(_) | NameKind::SoftRegister(_))
                );
                if is_register && len.is_none() && init.is_none() {
                    // `declare OFFSET0 : 8'U`: the type of an instruction field.
                    self.frame()
                        .bindings
                        .insert(name.name.clone(), NameBinding::Register(*ty));
                } else {
                    self.add_local(&name.name, *ty, len, LocalOrigin::Declared);
                    out.push(Stmt::Declare {
                        local: name.name.clone(),
                        span,
                    });
                    if let Some(init) = init {
                        let v = self.expr(init);
                        let value = self.coerce(v, *ty);
                        let place = Place {
                            ty: *ty,
                            kind: PlaceKind::Local(name.name.clone()),
                            span: name.span,
                        };
                        out.push(Stmt::Assign {
                            place,
                            op: AssignOp::Set,
                            value,
                            span,
                        });
                    }
                }
            }
            StmtKind::If { arms, otherwise } => {
                let mut tarms = Vec::new();
                for (c, b) in arms {
                    let c = self.expr(c);
                    let c = self.to_bool(c);
                    tarms.push((c, self.block(b)));
                }
                let otherwise = otherwise
                    .as_ref()
                    .map(|b| self.block(b))
                    .unwrap_or_default();
                out.push(Stmt::If {
                    arms: tarms,
                    otherwise,
                    span,
                });
            }
            StmtKind::For {
                var,
                from,
                to,
                body,
            } => {
                let f = self.expr(from);
                let t = self.expr(to);
                let ty = match self.binding(&var.name).cloned() {
                    Some(NameBinding::Local { ty, len: None }) => ty,
                    _ => {
                        let (_, _, ty, _) = self.unify(f.clone(), t.clone(), span);
                        let ty = if ty.is_float() || ty.is_bool() {
                            Ty::I32
                        } else {
                            ty
                        };
                        self.add_local(&var.name, ty, None, LocalOrigin::Loop);
                        ty
                    }
                };
                let from = self.coerce(f, ty);
                let to = self.coerce(t, ty);
                self.frame().loops += 1;
                let body = self.block(body);
                self.frame().loops -= 1;
                out.push(Stmt::For {
                    var: var.name.clone(),
                    from,
                    to,
                    body,
                    span,
                });
            }
            StmtKind::While { cond, body } => {
                let c = self.expr(cond);
                let cond = self.to_bool(c);
                self.frame().loops += 1;
                let body = self.block(body);
                self.frame().loops -= 1;
                out.push(Stmt::While { cond, body, span });
            }
            StmtKind::Return(value) => {
                let in_lambda = self.frames.last().and_then(|f| f.returns).is_some();
                let value = value.as_ref().map(|v| self.expr(v));
                match (in_lambda, value) {
                    (true, Some(v)) => {
                        let flex = v.flex != Flex::No;
                        let v = fix(v);
                        let prev = self.frames.last().and_then(|f| f.returns).flatten();
                        let ty = match prev {
                            None => v.ty,
                            Some(p) if flex => p,
                            Some(p) => match self.common(p, v.ty) {
                                Ok(t) => t,
                                Err(m) => {
                                    self.error("kind-mismatch", span, m);
                                    p
                                }
                            },
                        };
                        if let Some(f) = self.frames.last_mut() {
                            f.returns = Some(Some(ty));
                        }
                        out.push(Stmt::Return {
                            value: Some(v),
                            span,
                        });
                    }
                    (true, None) => {
                        self.error("no-return", span, "a lambda's `return` needs a value")
                    }
                    (false, Some(_)) => self.error(
                        "return-outside-lambda",
                        span,
                        "`return` with a value outside a lambda",
                    ),
                    (false, None) => out.push(Stmt::Return { value: None, span }),
                }
            }
            StmtKind::Break | StmtKind::Continue => {
                if self.frames.last().map(|f| f.loops).unwrap_or(0) == 0 {
                    self.error("outside-loop", span, "`break`/`continue` outside a loop");
                } else if matches!(s.kind, StmtKind::Break) {
                    out.push(Stmt::Break { span });
                } else {
                    out.push(Stmt::Continue { span });
                }
            }
            StmtKind::Note(text) => {
                self.warn(
                    "english-step",
                    span,
                    format!("a step stated in English: \"{text}\""),
                );
                out.push(Stmt::Note {
                    text: text.clone(),
                    span,
                });
            }
            StmtKind::Lambda { name, params, body } => {
                self.lambda_defs
                    .insert(name.name.clone(), (params.as_slice(), body));
            }
            StmtKind::Call(e) => match &e.kind {
                ast::ExprKind::Call { name, args }
                    if !self.lambda_defs.contains_key(&name.name) =>
                {
                    self.call_stmt(name, args, span, out)
                }
                _ => self.error("no-effect", span, format!("`{e}` has no effect")),
            },
        }
    }

    pub(super) fn call_stmt(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        out: &mut Vec<Stmt>,
    ) {
        match helpers::lookup(&name.name) {
            Some(sig) if sig.ret == Ret::Nothing => {
                if args.len() < sig.min_args || args.len() > sig.max_args {
                    self.error(
                        "helper-arity",
                        name.span,
                        format!(
                            "`{}` takes {} arguments, given {}",
                            name.name,
                            sig.min_args,
                            args.len()
                        ),
                    );
                    return;
                }
                let mut targs = Vec::new();
                for (i, a) in args.iter().enumerate() {
                    let te = self.expr(a);
                    targs.push(match sig.param(i) {
                        Param::Exactly(t) => self.coerce(te, t),
                        Param::Float => self.float_arg(te),
                        Param::Any => fix(te),
                    });
                }
                out.push(Stmt::Call {
                    func: name.name.clone(),
                    args: targs,
                    span,
                });
            }
            _ => {
                let te = self.call(name, args, span);
                if let ExprKind::Call { func, args } = te.e.kind {
                    out.push(Stmt::Call { func, args, span });
                }
            }
        }
    }

    pub(super) fn assign(
        &mut self,
        target: &ast::Expr,
        op: AssignOp,
        value: &ast::Expr,
        span: Span,
    ) -> Option<Stmt> {
        let v = self.expr(value);
        if op != AssignOp::Set && self.would_create(target) {
            self.error(
                "undeclared",
                target.span,
                format!("`{target}` is updated before it is assigned"),
            );
            return None;
        }
        let value_ty = if v.flex == Flex::No {
            Some(if v.e.ty.is_bool() { Ty::U1 } else { v.e.ty })
        } else {
            Some(fix(v.clone()).ty)
        };
        let place = self.place(target, value_ty)?;
        if let PlaceKind::Concat(_) = place.kind {
            if v.flex == Flex::No && v.e.ty.width != place.ty.width {
                self.error(
                    "width-mismatch",
                    span,
                    format!(
                        "{} bits assigned to a {}-bit concatenation",
                        v.e.ty.width, place.ty.width
                    ),
                );
            }
        }
        if v.flex == Flex::No
            && place.ty.is_float()
            && v.e.ty.is_float()
            && place.ty.kind != v.e.ty.kind
            && place.ty.width == v.e.ty.width
        {
            self.error(
                "kind-mismatch",
                span,
                format!("`{}` assigned to a `{}` place", v.e.ty, place.ty),
            );
        }
        if v.flex == Flex::No
            && matches!(place.kind, PlaceKind::Local(_))
            && place.ty.is_integer()
            && v.e.ty.is_integer()
            && v.e.ty.width > place.ty.width
        {
            self.warn(
                "narrowing",
                span,
                format!(
                    "a `{}` value is truncated into `{target}`, a `{}`",
                    v.e.ty, place.ty
                ),
            );
        }
        let value = self.coerce(v, place.ty);
        Some(Stmt::Assign {
            place,
            op,
            value,
            span,
        })
    }

    /// Whether assigning to `target` would create a new variable.
    pub(super) fn would_create(&self, target: &ast::Expr) -> bool {
        let mut e = target;
        loop {
            match &e.kind {
                ast::ExprKind::Name(n) => {
                    return self.binding(n).is_none()
                        && matches!(names::lookup(n), None | Some(NameKind::SoftRegister(_)));
                }
                ast::ExprKind::Typed { base, .. }
                | ast::ExprKind::Index { base, .. }
                | ast::ExprKind::Slice { base, .. }
                | ast::ExprKind::PartSelect { base, .. }
                | ast::ExprKind::Field { base, .. } => e = base,
                _ => return false,
            }
        }
    }
}
