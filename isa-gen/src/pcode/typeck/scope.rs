//! Names: the frames of local variables, and what reading a name gives.

use super::*;

impl<'a> Checker<'a> {
    pub(super) fn binding(&self, name: &str) -> Option<&NameBinding> {
        self.frames.iter().rev().find_map(|f| f.bindings.get(name))
    }

    pub(super) fn frame(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    pub(super) fn add_local(&mut self, name: &str, ty: Ty, len: Option<u32>, origin: LocalOrigin) {
        let frame = self.frame();
        frame
            .bindings
            .insert(name.to_string(), NameBinding::Local { ty, len });
        frame.locals.push(Local {
            name: name.to_string(),
            ty,
            len,
            origin,
        });
    }

    pub(super) fn read_name(&mut self, name: &str, span: Span) -> TE {
        match self.binding(name).cloned() {
            Some(NameBinding::Local { ty, len: None }) => {
                return TE::fixed(Expr::new(ty, ExprKind::Local(name.to_string()), span));
            }
            Some(NameBinding::Local { len: Some(_), .. }) => {
                self.error(
                    "array-as-value",
                    span,
                    format!("array `{name}` used without an index"),
                );
                return self.poison(span);
            }
            Some(NameBinding::Register(ty)) => {
                return TE::fixed(Expr::new(ty, ExprKind::Reg(name.to_string()), span))
            }
            None => {}
        }
        match names::lookup(name) {
            Some(NameKind::Register(w) | NameKind::SoftRegister(w)) => {
                let ty = names::register_ty(w, self.natural);
                TE::fixed(Expr::new(ty, ExprKind::Reg(name.to_string()), span))
            }
            Some(NameKind::Flag) => {
                TE::fixed(Expr::new(Ty::BOOL, ExprKind::Const(name.to_string()), span))
            }
            Some(NameKind::Const(ty)) => {
                TE::fixed(Expr::new(ty, ExprKind::Const(name.to_string()), span))
            }
            Some(NameKind::FloatConst) => TE {
                e: Expr::new(Ty::F64, ExprKind::Const(name.to_string()), span),
                flex: Flex::Float,
            },
            Some(
                NameKind::RegArray(_)
                | NameKind::Memory(_)
                | NameKind::Vgprs { .. }
                | NameKind::Sgprs,
            ) => {
                self.error(
                    "array-as-value",
                    span,
                    format!("`{name}` is a register file or memory; index it"),
                );
                self.poison(span)
            }
            None => {
                if self.lambda_defs.contains_key(name) {
                    self.error(
                        "lambda-as-value",
                        span,
                        format!("lambda `{name}` used without a call"),
                    );
                } else {
                    self.error(
                        "undeclared",
                        span,
                        format!("`{name}` is read but never assigned or declared"),
                    );
                }
                self.poison(span)
            }
        }
    }
}
