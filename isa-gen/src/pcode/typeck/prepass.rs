//! The pre-pass: widths of variables first written through bit ranges.

use super::*;

impl<'a> Checker<'a> {
    /// Finds the widths of variables written through bit ranges before they are assigned whole
    /// (`tmp[31 : 16].f16 = ...; tmp[15 : 0].f16 = ...` makes `tmp` 32 bits wide).
    pub(super) fn collect_implicit_widths(&mut self, stmts: &[ast::Stmt]) {
        for s in stmts {
            match &s.kind {
                StmtKind::Assign { target, .. } => {
                    if let Some((name, w)) = written_bits(target) {
                        let e = self.implicit_widths.entry(name).or_insert(0);
                        *e = (*e).max(w);
                    }
                }
                StmtKind::If { arms, otherwise } => {
                    for (_, b) in arms {
                        self.collect_implicit_widths(b);
                    }
                    if let Some(b) = otherwise {
                        self.collect_implicit_widths(b);
                    }
                }
                StmtKind::For { body, .. } | StmtKind::While { body, .. } => {
                    self.collect_implicit_widths(body)
                }
                StmtKind::Lambda {
                    body: LambdaBody::Block(b),
                    ..
                } => self.collect_implicit_widths(b),
                _ => {}
            }
        }
    }
}

/// For `name[hi : lo]...`, `name[i +: n]`, `name[k]`: the name and the number of bits the
/// write reaches (highest constant bit + 1).
pub(super) fn written_bits(target: &ast::Expr) -> Option<(String, u32)> {
    use ast::ExprKind as A;
    let (base, top) = match &target.kind {
        A::Typed { base, .. } => return written_bits(base),
        A::Slice { base, hi, lo } => {
            let (h, l) = (linear(hi)?, linear(lo)?);
            if !h.0.is_empty() || !l.0.is_empty() {
                return None;
            }
            (base, h.1.max(l.1) + 1)
        }
        A::PartSelect { base, start, width } => {
            let (s, w) = (linear(start)?, linear(width)?);
            if !s.0.is_empty() || !w.0.is_empty() {
                return None;
            }
            (base, s.1 + w.1)
        }
        A::Index { base, index } => {
            let i = linear(index)?;
            if !i.0.is_empty() {
                return None;
            }
            (base, i.1 + 1)
        }
        _ => return None,
    };
    match &base.kind {
        A::Name(n) if (1..=4096).contains(&top) => Some((n.clone(), top as u32)),
        _ => None,
    }
}
