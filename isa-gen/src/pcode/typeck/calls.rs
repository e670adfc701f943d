//! Calls of AMD's helper functions and of the entry's own lambdas.

use super::*;

impl<'a> Checker<'a> {
    pub(super) fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> TE {
        let targs: Vec<TE> = args.iter().map(|a| self.expr(a)).collect();
        if self.lambda_defs.contains_key(&name.name) {
            return self.call_lambda(&name.name, targs, span);
        }
        let Some(sig) = helpers::lookup(&name.name) else {
            self.error(
                "unknown-helper",
                name.span,
                format!("unknown helper `{}` ({} arguments)", name.name, args.len()),
            );
            return self.poison(span);
        };
        if targs.len() < sig.min_args || targs.len() > sig.max_args {
            let expected = if sig.min_args == sig.max_args {
                sig.min_args.to_string()
            } else {
                format!("{} to {}", sig.min_args, sig.max_args)
            };
            self.error(
                "helper-arity",
                name.span,
                format!(
                    "`{}` takes {expected} arguments, given {}",
                    name.name,
                    targs.len()
                ),
            );
            return self.poison(span);
        }
        let mut out: Vec<Expr> = Vec::new();
        for (i, a) in targs.into_iter().enumerate() {
            let e = match sig.param(i) {
                Param::Any => fix(a),
                Param::Exactly(t) => self.coerce(a, t),
                Param::Float => self.float_arg(a),
            };
            out.push(e);
        }
        let ty = match sig.ret {
            Ret::Nothing => {
                self.error("no-value", span, format!("`{}` returns nothing", name.name));
                Ty::B32
            }
            Ret::Fixed(t) => t,
            Ret::Arg(i) => out.get(i).map(|e| e.ty).unwrap_or(Ty::B32),
            Ret::SignExtended => Ty::signed(out.first().map(|e| e.ty.width).unwrap_or(64).max(64)),
            Ret::Common => {
                let mut ty = out.first().map(|e| e.ty).unwrap_or(Ty::B32);
                for e in &out[1..] {
                    match self.common(ty, e.ty) {
                        Ok(t) => ty = t,
                        Err(m) => self.error("kind-mismatch", span, m),
                    }
                }
                out = out.into_iter().map(|e| self.convert(e, ty)).collect();
                ty
            }
        };
        TE::fixed(Expr::new(
            ty,
            ExprKind::Call {
                func: name.name.clone(),
                args: out,
            },
            span,
        ))
    }

    pub(super) fn float_arg(&mut self, a: TE) -> Expr {
        if a.flex != Flex::No {
            return self.coerce(a, Ty::F64);
        }
        let ty = a.e.ty;
        match ty.kind {
            Kind::Float | Kind::BFloat => a.e,
            Kind::Bits if matches!(ty.width, 16 | 32 | 64) => {
                self.reinterpret(a.e, Ty::float(ty.width))
            }
            Kind::Signed | Kind::Unsigned => self.convert(a.e, Ty::F64),
            _ => {
                self.error(
                    "not-a-float",
                    a.e.span,
                    format!("a float is expected, found `{ty}`"),
                );
                a.e
            }
        }
    }

    pub(super) fn call_lambda(&mut self, name: &str, args: Vec<TE>, span: Span) -> TE {
        let Some((params, body)) = self.lambda_defs.get(name).copied() else {
            return self.poison(span);
        };
        if params.len() != args.len() {
            self.error(
                "lambda-arity",
                span,
                format!(
                    "lambda `{name}` takes {} arguments, given {}",
                    params.len(),
                    args.len()
                ),
            );
            return self.poison(span);
        }
        let args: Vec<Expr> = args.into_iter().map(fix).collect();
        let tys: Vec<Ty> = args.iter().map(|a| a.ty).collect();
        let key = (name.to_string(), tys.clone());
        let instance = match self.instance_index.get(&key) {
            Some(&i) => i,
            None => {
                if self.instantiating.iter().any(|n| n == name) {
                    self.error(
                        "recursive-lambda",
                        span,
                        format!("lambda `{name}` calls itself"),
                    );
                    return self.poison(span);
                }
                if self.instantiating.len() >= MAX_LAMBDA_DEPTH {
                    self.error(
                        "lambda-depth",
                        span,
                        format!("lambdas call each other more than {MAX_LAMBDA_DEPTH} deep"),
                    );
                    return self.poison(span);
                }
                self.instantiating.push(name.to_string());
                let mut frame = Frame {
                    returns: Some(None),
                    ..Frame::default()
                };
                let mut param_locals = Vec::new();
                for (p, ty) in params.iter().zip(&tys) {
                    frame
                        .bindings
                        .insert(p.name.clone(), NameBinding::Local { ty: *ty, len: None });
                    param_locals.push(Local {
                        name: p.name.clone(),
                        ty: *ty,
                        len: None,
                        origin: LocalOrigin::Param,
                    });
                }
                self.frames.push(frame);
                let mut stmts = match body {
                    LambdaBody::Expr(e) => {
                        let te = self.expr(e);
                        let v = fix(te);
                        if let Some(f) = self.frames.last_mut() {
                            f.returns = Some(Some(v.ty));
                        }
                        vec![Stmt::Return {
                            span: v.span,
                            value: Some(v),
                        }]
                    }
                    LambdaBody::Block(b) => self.block(b),
                };
                let frame = self.frames.pop().unwrap_or_default();
                self.instantiating.pop();
                let ret = match frame.returns {
                    Some(Some(t)) => t,
                    _ => {
                        self.error(
                            "no-return",
                            span,
                            format!("lambda `{name}` returns no value"),
                        );
                        Ty::B32
                    }
                };
                self.fix_returns(&mut stmts, ret);
                let inst = LambdaInstance {
                    name: name.to_string(),
                    params: param_locals,
                    ret,
                    locals: frame.locals,
                    body: stmts,
                };
                self.instances.push(inst);
                let i = self.instances.len() - 1;
                self.instance_index.insert(key, i);
                i
            }
        };
        let ret = self
            .instances
            .get(instance)
            .map(|i| i.ret)
            .unwrap_or(Ty::B32);
        TE::fixed(Expr::new(
            ret,
            ExprKind::CallLambda { instance, args },
            span,
        ))
    }

    /// Converts every `return` value of a lambda body to the lambda's return type.
    pub(super) fn fix_returns(&self, stmts: &mut [Stmt], ret: Ty) {
        for s in stmts {
            match s {
                Stmt::Return { value: Some(v), .. } => {
                    let e = std::mem::replace(v, Expr::new(ret, ExprKind::Int(0), Span::default()));
                    *v = self.convert(e, ret);
                }
                Stmt::If {
                    arms, otherwise, ..
                } => {
                    for (_, b) in arms.iter_mut() {
                        self.fix_returns(b, ret);
                    }
                    self.fix_returns(otherwise, ret);
                }
                Stmt::For { body, .. } | Stmt::While { body, .. } => self.fix_returns(body, ret),
                _ => {}
            }
        }
    }
}
