//! A peephole pass over one lowered executor body: the lowering builds each value from
//! conversions that are correct for any operand (`to_bits` widens to `u128`, `from_bits`
//! narrows back), and this pass removes the ones that do nothing, knowing the Rust type of
//! the expressions it rewrites.
//!
//! Types come from the generated code itself: suffixed literals, casts, the declared types
//! of variables (`let mut l_tmp: u64`, lambda parameters; a name declared with two types, or
//! without one that can be inferred, has no type) and the return types of the runtime
//! functions generated code calls. A rewrite applies only when the types of its parts are
//! known, and each is an identity of Rust's integer semantics:
//!
//! - `x as T` of a `T` is `x`;
//! - `(x as A) as B` is `x as B` when `B` is not wider than `A`, or when `A` holds every
//!   value of `x` and extends it as `x`'s type would (same signedness, or `x` unsigned and
//!   narrower; or `x`'s bits, known to fit in `A`, are zero above);
//! - `(x & m) as T` is `x as T` when `m` keeps every bit the cast keeps, and `x & m` is `x`
//!   when `x` has no bits outside `m`;
//! - a cast of a literal is the literal of the new type; `rt::co_<int>(x)` of an integer
//!   is `x as T`; `rt::amount_i` of a value that is not negative is the value;
//!   `rt::get_bits(x, 0, w)` of an `x` of at most `w` bits is `x`;
//!   `if c { 1 } else { 0 }` is `c as T`;
//! - blocks that declare nothing are merged into the enclosing block.
//!
//! Parentheses are dropped: the printer (`prettyplease`, and `syn` when the tokens are
//! printed) puts back the ones precedence needs. Nothing is removed that is evaluated, and
//! nothing is reordered.

use proc_macro2::{Span, TokenStream};
use quote::ToTokens;
use std::collections::HashMap;
use syn::{
    BinOp, Block, Expr, ExprCast, ExprLit, GenericArgument, Item, Lit, LitInt, Pat, PathArguments,
    Stmt, Type, UnOp,
};

/// The simplified body (statements), or `body` unchanged if it does not parse as statements.
pub(super) fn body(body: TokenStream) -> TokenStream {
    let Ok(mut block) = syn::parse2::<Block>(quote::quote!({ #body })) else {
        return body;
    };
    let mut env = Env::default();
    env.collect_block(&block);
    env.block(&mut block);
    let mut out = TokenStream::new();
    for s in &block.stmts {
        s.to_tokens(&mut out);
    }
    out
}

/// An integer (or `bool`) Rust type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum T {
    Bool,
    U(u32),
    I(u32),
    /// `usize`: its width is the target's, so only identities apply.
    Usize,
}

impl T {
    fn parse(name: &str) -> Option<T> {
        Some(match name {
            "bool" => T::Bool,
            "usize" => T::Usize,
            "u8" => T::U(8),
            "u16" => T::U(16),
            "u32" => T::U(32),
            "u64" => T::U(64),
            "u128" => T::U(128),
            "i8" => T::I(8),
            "i16" => T::I(16),
            "i32" => T::I(32),
            "i64" => T::I(64),
            "i128" => T::I(128),
            _ => return None,
        })
    }

    fn of_type(ty: &Type) -> Option<T> {
        match ty {
            Type::Path(p) if p.qself.is_none() => T::parse(&p.path.get_ident()?.to_string()),
            Type::Paren(p) => T::of_type(&p.elem),
            Type::Group(g) => T::of_type(&g.elem),
            _ => None,
        }
    }

    fn name(self) -> String {
        match self {
            T::Bool => "bool".into(),
            T::Usize => "usize".into(),
            T::U(n) => format!("u{n}"),
            T::I(n) => format!("i{n}"),
        }
    }

    /// Width of an integer of fixed width.
    fn int_width(self) -> Option<u32> {
        match self {
            T::U(n) | T::I(n) => Some(n),
            _ => None,
        }
    }

    fn signed(self) -> bool {
        matches!(self, T::I(_))
    }
}

/// The types of the body's variables (`None`: declared with different types, or untyped).
#[derive(Default)]
struct Env {
    vars: HashMap<String, Option<T>>,
    arrays: HashMap<String, Option<T>>,
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

fn bit_len(v: u128) -> u32 {
    128 - v.leading_zeros()
}

fn strip_parens(e: &Expr) -> &Expr {
    match e {
        Expr::Paren(p) => strip_parens(&p.expr),
        Expr::Group(g) => strip_parens(&g.expr),
        _ => e,
    }
}

/// An integer literal: (value as 128-bit two's complement, its type).
fn int_lit(e: &Expr) -> Option<(u128, T)> {
    match strip_parens(e) {
        Expr::Lit(ExprLit {
            lit: Lit::Int(l), ..
        }) => {
            let t = T::parse(l.suffix())?;
            let v: u128 = l.base10_parse().ok()?;
            Some((v, t))
        }
        Expr::Unary(u) if matches!(u.op, UnOp::Neg(_)) => {
            let (v, t) = int_lit(&u.expr)?;
            t.signed().then_some((v.wrapping_neg(), t))
        }
        _ => None,
    }
}

/// An integer literal of type `t`: suffixed with `t`, or unsuffixed (it then takes the type
/// of the other operand, `t`).
fn lit_of(e: &Expr, t: T) -> Option<(u128, T)> {
    if let Some((v, lt)) = int_lit(e) {
        return (lt == t).then_some((v, t));
    }
    match strip_parens(e) {
        Expr::Lit(ExprLit {
            lit: Lit::Int(l), ..
        }) if l.suffix().is_empty() && t.int_width().is_some() => {
            let v: u128 = l.base10_parse().ok()?;
            (v <= mask(t.int_width()? - u32::from(t.signed()))).then_some((v, t))
        }
        _ => None,
    }
}

fn is_path(e: &Expr, name: &str) -> bool {
    matches!(strip_parens(e), Expr::Path(p) if p.path.is_ident(name))
}

/// The literal of type `t` for the 128-bit pattern `v` (already of `t`'s range), if it can be
/// written as one.
fn make_lit(v: u128, t: T) -> Option<Expr> {
    let w = t.int_width()?;
    let lit = |n: u128| {
        Expr::Lit(ExprLit {
            attrs: Vec::new(),
            lit: Lit::Int(LitInt::new(&format!("{n}{}", t.name()), Span::call_site())),
        })
    };
    if !t.signed() {
        return Some(lit(v & mask(w)));
    }
    let x = v as i128;
    if x >= 0 {
        return Some(lit(x as u128));
    }
    // `-MIN` does not exist as a literal of the type.
    if w >= 128 || x == -(1i128 << (w - 1)) {
        return None;
    }
    let l = lit(x.unsigned_abs());
    Some(syn::parse_quote!(-#l))
}

/// `x as t` of the literal value `v` of type `from`.
fn cast_value(v: u128, from: T, to: T) -> Option<u128> {
    let wf = from.int_width().or(matches!(from, T::Bool).then_some(1))?;
    let wt = to.int_width()?;
    // `v` holds the value as 128-bit two's complement: extend from `from`, truncate to `to`,
    // then extend as `to` would be read.
    let ext = if from.signed() && wf < 128 {
        let s = 128 - wf;
        (((v << s) as i128) >> s) as u128
    } else {
        v & mask(wf)
    };
    let t = ext & mask(wt);
    Some(if to.signed() && wt < 128 {
        let s = 128 - wt;
        (((t << s) as i128) >> s) as u128
    } else {
        t
    })
}

fn cast_to(x: Expr, t: T) -> Expr {
    let ty: Type = syn::parse_str(&t.name()).unwrap_or_else(|_| syn::parse_quote!(u128));
    Expr::Cast(ExprCast {
        attrs: Vec::new(),
        expr: Box::new(x),
        as_token: Default::default(),
        ty: Box::new(ty),
    })
}

/// The runtime function a call names (`rt::get_bits` → `get_bits`), if it is one of `rt`'s.
fn rt_fn(func: &Expr) -> Option<(String, Option<T>)> {
    let Expr::Path(p) = strip_parens(func) else {
        return None;
    };
    let segs: Vec<_> = p.path.segments.iter().collect();
    if segs.len() != 2 || segs[0].ident != "rt" {
        return None;
    }
    let name = segs[1].ident.to_string();
    // `rt::co_u32(x)` is `rt::co::<u32, _>(x)`.
    if let Some(t) = name.strip_prefix("co_").and_then(T::parse) {
        return Some(("co".into(), Some(t)));
    }
    let generic = match &segs[1].arguments {
        PathArguments::AngleBracketed(a) => match a.args.first() {
            Some(GenericArgument::Type(t)) => T::of_type(t),
            _ => None,
        },
        _ => None,
    };
    Some((segs[1].ident.to_string(), generic))
}

/// The helper a call names (`hp::is_nan` → `is_nan`).
fn hp_fn(func: &Expr) -> Option<String> {
    let Expr::Path(p) = strip_parens(func) else {
        return None;
    };
    let segs: Vec<_> = p.path.segments.iter().collect();
    (segs.len() == 2 && segs[0].ident == "hp" && segs[1].arguments.is_none())
        .then(|| segs[1].ident.to_string())
}

impl Env {
    fn declare(&mut self, name: String, t: Option<T>, array: bool) {
        let map = if array {
            &mut self.arrays
        } else {
            &mut self.vars
        };
        match map.get(&name) {
            Some(old) if *old != t => {
                map.insert(name, None);
            }
            Some(_) => {}
            None => {
                map.insert(name, t);
            }
        }
    }

    fn declare_pat(&mut self, pat: &Pat, init: Option<&Expr>) {
        match pat {
            Pat::Type(pt) => {
                let Some(name) = pat_name(&pt.pat) else {
                    self.untype_pat(&pt.pat);
                    return;
                };
                match &*pt.ty {
                    Type::Array(a) => self.declare(name, T::of_type(&a.elem), true),
                    t => self.declare(name, T::of_type(t), false),
                }
            }
            Pat::Ident(pi) => {
                let name = pi.ident.to_string();
                match init.map(strip_parens) {
                    // The lanes of a source: `[u32; MAX_LANES]` or `[u64; MAX_LANES]`.
                    Some(Expr::Try(t)) => match &*t.expr {
                        Expr::Call(c) => match rt_fn(&c.func).map(|(f, _)| f).as_deref() {
                            Some("lanes_b32") => self.declare(name, Some(T::U(32)), true),
                            Some("lanes_b64") => self.declare(name, Some(T::U(64)), true),
                            _ => {
                                let t = self.ty(init.unwrap_or(&t.expr));
                                self.declare(name, t, false)
                            }
                        },
                        _ => self.declare(name.clone(), None, false),
                    },
                    Some(e) => {
                        let t = self.ty(e);
                        self.declare(name, t, false)
                    }
                    None => self.declare(name, None, false),
                }
            }
            other => self.untype_pat(other),
        }
    }

    /// Every name a pattern binds loses its type (it is bound to something unknown).
    fn untype_pat(&mut self, pat: &Pat) {
        let mut names = Vec::new();
        pat_names(pat, &mut names);
        for n in names {
            self.vars.insert(n.clone(), None);
            self.arrays.insert(n, None);
        }
    }

    fn collect_block(&mut self, b: &Block) {
        for s in &b.stmts {
            match s {
                Stmt::Local(l) => {
                    if let Some(i) = &l.init {
                        self.collect_expr(&i.expr);
                    }
                    self.declare_pat(&l.pat, l.init.as_ref().map(|i| &*i.expr));
                }
                Stmt::Item(Item::Fn(f)) => {
                    for a in &f.sig.inputs {
                        if let syn::FnArg::Typed(pt) = a {
                            self.declare_pat(&Pat::Type(pt.clone()), None);
                        }
                    }
                    self.collect_block(&f.block);
                }
                Stmt::Expr(e, _) => self.collect_expr(e),
                _ => {}
            }
        }
    }

    fn collect_expr(&mut self, e: &Expr) {
        match e {
            Expr::Block(b) => self.collect_block(&b.block),
            Expr::If(i) => {
                self.collect_expr(&i.cond);
                self.collect_block(&i.then_branch);
                if let Some((_, x)) = &i.else_branch {
                    self.collect_expr(x);
                }
            }
            Expr::ForLoop(f) => {
                let t = match strip_parens(&f.expr) {
                    Expr::Call(c) if matches!(strip_parens(&c.func), Expr::Path(p) if p.path.is_ident("LaneIter")) => {
                        Some(T::Usize)
                    }
                    _ => None,
                };
                match (pat_name(&f.pat), t) {
                    (Some(n), Some(t)) => self.declare(n, Some(t), false),
                    _ => self.untype_pat(&f.pat),
                }
                self.collect_block(&f.body);
            }
            Expr::While(w) => {
                self.collect_expr(&w.cond);
                self.collect_block(&w.body);
            }
            Expr::Loop(l) => self.collect_block(&l.body),
            Expr::Let(l) => self.untype_pat(&l.pat),
            Expr::Match(m) => {
                for a in &m.arms {
                    self.untype_pat(&a.pat);
                    self.collect_expr(&a.body);
                }
            }
            Expr::Paren(p) => self.collect_expr(&p.expr),
            _ => {}
        }
    }

    // -----------------------------------------------------------------------------------------
    // Types and bit bounds

    fn var(&self, e: &Expr) -> Option<T> {
        match strip_parens(e) {
            Expr::Path(p) if p.qself.is_none() => {
                let id = p.path.get_ident()?.to_string();
                (*self.vars.get(&id)?).filter(|_| !self.arrays.contains_key(&id))
            }
            _ => None,
        }
    }

    /// The type of `e`, when it is an integer or `bool` and known.
    fn ty(&self, e: &Expr) -> Option<T> {
        match e {
            Expr::Paren(p) => self.ty(&p.expr),
            Expr::Group(g) => self.ty(&g.expr),
            Expr::Lit(ExprLit {
                lit: Lit::Int(l), ..
            }) => T::parse(l.suffix()),
            Expr::Lit(ExprLit {
                lit: Lit::Bool(_), ..
            }) => Some(T::Bool),
            Expr::Path(_) => self.var(e),
            Expr::Cast(c) => T::of_type(&c.ty),
            Expr::Index(i) => match strip_parens(&i.expr) {
                Expr::Path(p) => {
                    let id = p.path.get_ident()?.to_string();
                    (*self.arrays.get(&id)?).filter(|_| !self.vars.contains_key(&id))
                }
                _ => None,
            },
            Expr::Unary(u) => match u.op {
                UnOp::Not(_) | UnOp::Neg(_) => self.ty(&u.expr),
                _ => None,
            },
            Expr::Binary(b) => match b.op {
                BinOp::Eq(_)
                | BinOp::Ne(_)
                | BinOp::Lt(_)
                | BinOp::Le(_)
                | BinOp::Gt(_)
                | BinOp::Ge(_)
                | BinOp::And(_)
                | BinOp::Or(_) => Some(T::Bool),
                BinOp::Add(_)
                | BinOp::Sub(_)
                | BinOp::Mul(_)
                | BinOp::BitAnd(_)
                | BinOp::BitOr(_)
                | BinOp::BitXor(_) => {
                    let (l, r) = (self.ty(&b.left), self.ty(&b.right));
                    if l == r {
                        l
                    } else {
                        None
                    }
                }
                BinOp::Shl(_) | BinOp::Shr(_) => self.ty(&b.left),
                _ => None,
            },
            Expr::MethodCall(m) => match m.method.to_string().as_str() {
                "wrapping_add" | "wrapping_sub" | "wrapping_mul" | "wrapping_neg"
                | "reverse_bits" => self.ty(&m.receiver),
                // `Binding::field` and `LaneAddrs::at`.
                "field" if is_path(&m.receiver, "b") && m.args.len() == 2 => Some(T::U(64)),
                "at" if is_path(&m.receiver, "lane_addrs") && m.args.len() == 1 => Some(T::U(64)),
                _ => None,
            },
            // Helpers that return `bool` (`exec::helpers`).
            Expr::Call(c)
                if hp_fn(&c.func).is_some_and(|f| {
                    matches!(
                        f.as_str(),
                        "is_nan" | "is_signal_nan" | "is_quiet_nan" | "sign" | "is_even"
                    )
                }) =>
            {
                Some(T::Bool)
            }
            Expr::Call(c) => match rt_fn(&c.func)? {
                (f, _)
                    if matches!(
                        f.as_str(),
                        "get_bits" | "set_bits" | "shl" | "shr" | "rev_bits" | "amount_i" | "pow_u"
                    ) =>
                {
                    Some(T::U(128))
                }
                (f, _) if matches!(f.as_str(), "sext" | "sar") => Some(T::I(128)),
                (f, Some(t)) if f == "co" => Some(t),
                _ => None,
            },
            Expr::Try(t) => match strip_parens(&t.expr) {
                Expr::Call(c) => match rt_fn(&c.func)?.0.as_str() {
                    "read_scalar" | "read_lane" | "vgpr_read" | "sgpr_read" | "div_u" | "rem_u"
                    | "mem_read" => Some(T::U(128)),
                    "div_i" | "rem_i" => Some(T::I(128)),
                    "reg_number" | "hw_reg_read" | "mode_field" | "status_field"
                    | "trapsts_field" => Some(T::U(32)),
                    "index" => Some(T::Usize),
                    _ => None,
                },
                _ => None,
            },
            Expr::If(i) => {
                let a = block_value(&i.then_branch).and_then(|x| self.ty(x));
                let b = match i.else_branch.as_ref().map(|(_, x)| strip_parens(x)) {
                    Some(Expr::Block(b)) if b.label.is_none() => {
                        block_value(&b.block).and_then(|x| self.ty(x))
                    }
                    _ => None,
                };
                if a == b {
                    a
                } else {
                    None
                }
            }
            _ => None,
        }
    }

    /// How many low bits of an unsigned (or `bool`) `e` can be non-zero.
    fn bound(&self, e: &Expr) -> Option<u32> {
        let t = self.ty(e)?;
        let full = match t {
            T::Bool => return Some(1),
            T::U(n) => n,
            _ => return None,
        };
        let b = match strip_parens(e) {
            Expr::Lit(_) => int_lit(e).map(|(v, _)| bit_len(v)),
            Expr::Cast(c) => match self.ty(&c.expr)? {
                T::Bool => Some(1),
                T::U(_) => self.bound(&c.expr),
                _ => None,
            },
            Expr::Binary(b) => match b.op {
                BinOp::BitAnd(_) => match (self.bound(&b.left), self.bound(&b.right)) {
                    (Some(x), Some(y)) => Some(x.min(y)),
                    (x, y) => x.or(y),
                },
                BinOp::BitOr(_) | BinOp::BitXor(_) => {
                    Some(self.bound(&b.left)?.max(self.bound(&b.right)?))
                }
                _ => None,
            },
            Expr::Call(c) => match rt_fn(&c.func)?.0.as_str() {
                "get_bits" => c
                    .args
                    .iter()
                    .nth(2)
                    .and_then(int_lit)
                    .map(|(v, _)| v.min(128) as u32),
                _ => None,
            },
            _ => None,
        };
        Some(b.unwrap_or(full).min(full))
    }

    // -----------------------------------------------------------------------------------------
    // Rewriting

    fn block(&self, b: &mut Block) {
        let stmts = std::mem::take(&mut b.stmts);
        let n = stmts.len();
        for (k, mut s) in stmts.into_iter().enumerate() {
            self.stmt(&mut s);
            // A block statement that declares nothing joins the enclosing block.
            if let Stmt::Expr(Expr::Block(inner), None) = &s {
                let tail = k + 1 == n;
                let m = inner.block.stmts.len();
                let plain = inner.label.is_none()
                    && inner.attrs.is_empty()
                    && inner.block.stmts.iter().enumerate().all(|(j, x)| match x {
                        Stmt::Expr(_, Some(_)) => true,
                        Stmt::Expr(e, None) => is_block_like(e) || (tail && j + 1 == m),
                        _ => false,
                    });
                if plain {
                    if let Stmt::Expr(Expr::Block(inner), _) = s {
                        b.stmts.extend(inner.block.stmts);
                    }
                    continue;
                }
            }
            b.stmts.push(s);
        }
        self.inline_temps(&mut b.stmts);
    }

    /// Temporaries (`let v__: u128 = E;`, `let r_s0 = b.op(..)?;`) used once, where nothing
    /// evaluated between the `let` and the use has an effect or can fail: `E` in place of
    /// the use.
    fn inline_temps(&self, stmts: &mut Vec<Stmt>) {
        let mut k = 0;
        while k < stmts.len() {
            if let Some((name, init)) = self.temp_let(&stmts[k]) {
                let uses: usize = stmts[k + 1..]
                    .iter()
                    .map(|s| count_ident(s.to_token_stream(), &name))
                    .sum();
                if uses == 1 {
                    let mentions = idents(init.to_token_stream());
                    let mut at = None;
                    for (j, s) in stmts[k + 1..].iter().enumerate() {
                        match self.walk_stmt(s, &name, &mentions) {
                            Walk::Found => {
                                at = Some(k + 1 + j);
                                break;
                            }
                            Walk::Pure => {}
                            Walk::Stop => break,
                        }
                    }
                    if let Some(j) = at {
                        let mut target = stmts[j].clone();
                        if replace_stmt(&mut target, &name, &init) {
                            self.stmt(&mut target);
                            stmts[j] = target;
                            stmts.remove(k);
                            continue;
                        }
                    }
                }
            }
            k += 1;
        }
    }

    /// `(name, value)` of a `let` of a generator temporary that may be inlined.
    fn temp_let(&self, s: &Stmt) -> Option<(String, Expr)> {
        let Stmt::Local(l) = s else { return None };
        let init = l.init.as_ref().filter(|i| i.diverge.is_none())?;
        let (name, declared) = match &l.pat {
            Pat::Ident(pi) if pi.mutability.is_none() && pi.by_ref.is_none() => {
                (pi.ident.to_string(), None)
            }
            Pat::Type(pt) => match &*pt.pat {
                Pat::Ident(pi)
                    if pi.mutability.is_none() && pi.by_ref.is_none() && pi.subpat.is_none() =>
                {
                    (pi.ident.to_string(), Some(T::of_type(&pt.ty)?))
                }
                _ => return None,
            },
            _ => return None,
        };
        if !(name.ends_with("__") || name.starts_with("r_")) || name.starts_with("it__") {
            return None;
        }
        let e = &*init.expr;
        // The value keeps its type where it goes: a known integer type equal to the declared
        // one, or an operand fetched from the binding (`b.op(d, ..)?`, `.ok()`).
        let typed = match (declared, self.ty(e)) {
            (Some(d), Some(t)) => d == t,
            (None, Some(_)) => true,
            (_, None) => declared.is_none() && is_binding_call(e),
        };
        typed.then(|| (name, e.clone()))
    }

    fn walk_stmt(&self, s: &Stmt, name: &str, mentions: &[String]) -> Walk {
        match s {
            Stmt::Local(l) => {
                let mut bound = Vec::new();
                pat_names(&l.pat, &mut bound);
                let r = match &l.init {
                    Some(i) if i.diverge.is_none() => self.walk(&i.expr, name, mentions),
                    Some(_) => Walk::Stop,
                    None => Walk::Pure,
                };
                // A new binding of a name the value reads would change what it reads.
                if r == Walk::Pure && bound.iter().any(|b| mentions.contains(b)) {
                    return Walk::Stop;
                }
                r
            }
            Stmt::Expr(Expr::Assign(a), _) => match self.walk(&a.right, name, mentions) {
                // The assignment happens after the use; anything else writes a variable.
                Walk::Found => Walk::Found,
                _ => Walk::Stop,
            },
            Stmt::Expr(e, _) => match self.walk(e, name, mentions) {
                Walk::Found => Walk::Found,
                // Statements that are not assignments and have no effect do not exist here;
                // stop rather than reason about them.
                _ => Walk::Stop,
            },
            _ => Walk::Stop,
        }
    }

    /// Evaluates `e` in order up to the use of `name`.
    fn walk(&self, e: &Expr, name: &str, mentions: &[String]) -> Walk {
        let seq = |xs: &mut dyn Iterator<Item = &Expr>| -> Walk {
            for x in xs {
                match self.walk(x, name, mentions) {
                    Walk::Pure => {}
                    r => return r,
                }
            }
            Walk::Pure
        };
        match e {
            Expr::Path(p) => match p.path.get_ident() {
                Some(i) if i == name => Walk::Found,
                // Mutable references passed before the value would be live while it is
                // evaluated.
                Some(i) if ["w", "mem", "lds"].iter().any(|m| i == m) => {
                    if mentions.iter().any(|m| i == m) {
                        Walk::Stop
                    } else {
                        Walk::Pure
                    }
                }
                _ => Walk::Pure,
            },
            Expr::Lit(_) => Walk::Pure,
            Expr::Paren(p) => self.walk(&p.expr, name, mentions),
            Expr::Group(g) => self.walk(&g.expr, name, mentions),
            Expr::Cast(c) => self.walk(&c.expr, name, mentions),
            Expr::Field(f) => self.walk(&f.base, name, mentions),
            Expr::Reference(r) => self.walk(&r.expr, name, mentions),
            Expr::Unary(u) => self.walk(&u.expr, name, mentions),
            Expr::Tuple(t) => seq(&mut t.elems.iter()),
            Expr::Array(t) => seq(&mut t.elems.iter()),
            Expr::Index(i) => seq(&mut [&*i.expr, &*i.index].into_iter()),
            Expr::Binary(b) => {
                if matches!(b.op, BinOp::And(_) | BinOp::Or(_)) {
                    // The right side is evaluated only sometimes.
                    return match self.walk(&b.left, name, mentions) {
                        Walk::Found => Walk::Found,
                        _ => Walk::Stop,
                    };
                }
                match seq(&mut [&*b.left, &*b.right].into_iter()) {
                    Walk::Pure
                        if matches!(
                            b.op,
                            BinOp::BitAnd(_)
                                | BinOp::BitOr(_)
                                | BinOp::BitXor(_)
                                | BinOp::Eq(_)
                                | BinOp::Ne(_)
                                | BinOp::Lt(_)
                                | BinOp::Le(_)
                                | BinOp::Gt(_)
                                | BinOp::Ge(_)
                        ) =>
                    {
                        Walk::Pure
                    }
                    Walk::Found => Walk::Found,
                    _ => Walk::Stop,
                }
            }
            Expr::Call(c) => {
                let r = seq(&mut c.args.iter());
                if r != Walk::Pure {
                    return r;
                }
                let pure_fn = match rt_fn(&c.func) {
                    Some((f, _)) => matches!(
                        f.as_str(),
                        "get_bits"
                            | "set_bits"
                            | "amount_i"
                            | "sext"
                            | "shl"
                            | "shr"
                            | "sar"
                            | "rev_bits"
                            | "pow_u"
                    ),
                    None => ["Some", "F16", "F32", "F64", "BF16"]
                        .iter()
                        .any(|n| is_path(&c.func, n)),
                };
                if pure_fn {
                    Walk::Pure
                } else {
                    Walk::Stop
                }
            }
            Expr::MethodCall(m) => {
                let r = seq(&mut std::iter::once(&*m.receiver).chain(m.args.iter()));
                if r != Walk::Pure {
                    return r;
                }
                let pure = matches!(
                    m.method.to_string().as_str(),
                    "wrapping_add" | "wrapping_sub" | "wrapping_mul" | "wrapping_neg"
                ) || (is_path(&m.receiver, "b")
                    && matches!(m.method.to_string().as_str(), "field" | "is_f64" | "has"))
                    || (is_path(&m.receiver, "lane_addrs") && m.method == "at");
                if pure {
                    Walk::Pure
                } else {
                    Walk::Stop
                }
            }
            Expr::Try(t) => match self.walk(&t.expr, name, mentions) {
                Walk::Found => Walk::Found,
                _ => Walk::Stop,
            },
            _ => Walk::Stop,
        }
    }

    fn stmt(&self, s: &mut Stmt) {
        match s {
            Stmt::Local(l) => {
                if let Some(i) = &mut l.init {
                    self.expr(&mut i.expr);
                    if let Some((_, d)) = &mut i.diverge {
                        self.expr(d);
                    }
                }
            }
            Stmt::Item(Item::Fn(f)) => self.block(&mut f.block),
            Stmt::Expr(e, _) => self.expr(e),
            _ => {}
        }
    }

    fn expr(&self, e: &mut Expr) {
        // Children first.
        match e {
            Expr::Paren(p) => self.expr(&mut p.expr),
            Expr::Group(g) => self.expr(&mut g.expr),
            Expr::Cast(c) => self.expr(&mut c.expr),
            Expr::Binary(b) => {
                self.expr(&mut b.left);
                self.expr(&mut b.right);
            }
            Expr::Unary(u) => self.expr(&mut u.expr),
            Expr::Call(c) => {
                self.expr(&mut c.func);
                c.args.iter_mut().for_each(|a| self.expr(a));
            }
            Expr::MethodCall(m) => {
                self.expr(&mut m.receiver);
                m.args.iter_mut().for_each(|a| self.expr(a));
            }
            Expr::Index(i) => {
                self.expr(&mut i.expr);
                self.expr(&mut i.index);
            }
            Expr::Field(f) => self.expr(&mut f.base),
            Expr::If(i) => {
                self.expr(&mut i.cond);
                self.block(&mut i.then_branch);
                if let Some((_, x)) = &mut i.else_branch {
                    self.expr(x);
                }
            }
            Expr::Block(b) => self.block(&mut b.block),
            Expr::ForLoop(f) => {
                self.expr(&mut f.expr);
                self.block(&mut f.body);
            }
            Expr::While(w) => {
                self.expr(&mut w.cond);
                self.block(&mut w.body);
            }
            Expr::Loop(l) => self.block(&mut l.body),
            Expr::Match(m) => {
                self.expr(&mut m.expr);
                for a in &mut m.arms {
                    if let Some((_, g)) = &mut a.guard {
                        self.expr(g);
                    }
                    self.expr(&mut a.body);
                }
            }
            Expr::Try(t) => self.expr(&mut t.expr),
            Expr::Reference(r) => self.expr(&mut r.expr),
            Expr::Array(a) => a.elems.iter_mut().for_each(|x| self.expr(x)),
            Expr::Tuple(a) => a.elems.iter_mut().for_each(|x| self.expr(x)),
            Expr::Repeat(r) => self.expr(&mut r.expr),
            Expr::Assign(a) => {
                self.expr(&mut a.left);
                self.expr(&mut a.right);
            }
            Expr::Return(r) => {
                if let Some(x) = &mut r.expr {
                    self.expr(x);
                }
            }
            Expr::Break(r) => {
                if let Some(x) = &mut r.expr {
                    self.expr(x);
                }
            }
            Expr::Let(l) => self.expr(&mut l.expr),
            Expr::Range(r) => {
                if let Some(x) = &mut r.start {
                    self.expr(x);
                }
                if let Some(x) = &mut r.end {
                    self.expr(x);
                }
            }
            _ => {}
        }
        // Then this node, until nothing applies.
        for _ in 0..16 {
            match self.rewrite(e) {
                Some(x) => *e = x,
                None => break,
            }
        }
    }

    /// One rewrite of `e` (its children already simplified), or `None`.
    fn rewrite(&self, e: &Expr) -> Option<Expr> {
        match e {
            Expr::Paren(p) => Some((*p.expr).clone()),
            Expr::Group(g) => Some((*g.expr).clone()),
            Expr::Cast(c) => self.rewrite_cast(c),
            Expr::Binary(b) => self.rewrite_binary(b),
            Expr::MethodCall(m)
                if matches!(
                    m.method.to_string().as_str(),
                    "wrapping_add" | "wrapping_sub"
                ) && m.args.len() == 1 =>
            {
                // `x.wrapping_add(0)`.
                let t = self.ty(&m.receiver)?;
                let (v, _) = lit_of(&m.args[0], t)?;
                (v == 0).then(|| (*m.receiver).clone())
            }
            Expr::If(i) => {
                // `if c { 1 } else { 0 }` of an integer type: `c as T`.
                let a = int_lit(block_value(&i.then_branch)?)?;
                let b = match strip_parens(&i.else_branch.as_ref()?.1) {
                    Expr::Block(b) if b.label.is_none() => int_lit(block_value(&b.block)?)?,
                    _ => return None,
                };
                (a.0 == 1 && b.0 == 0 && a.1 == b.1 && a.1.int_width().is_some())
                    .then(|| cast_to((*i.cond).clone(), a.1))
            }
            Expr::Call(c) => {
                let (f, generic) = rt_fn(&c.func)?;
                let arg = |k: usize| c.args.iter().nth(k);
                match f.as_str() {
                    // Integers pass through `co` as `as` casts (`Co` for integers and bool).
                    "co" if c.args.len() == 1 => {
                        let x = arg(0)?;
                        if generic.is_some() && self.ty(x) == generic {
                            return Some(x.clone());
                        }
                        let t = generic.filter(|t| t.int_width().is_some())?;
                        matches!(self.ty(x), Some(T::U(_) | T::I(_) | T::Bool))
                            .then(|| cast_to(x.clone(), t))
                    }
                    "amount_i" if c.args.len() == 1 => {
                        let x = arg(0)?;
                        if let Some((v, T::I(_))) = int_lit(x) {
                            return ((v as i128) >= 0).then(|| make_lit(v, T::U(128))).flatten();
                        }
                        // `y as i128` of an unsigned `y` narrower than 128 bits is not
                        // negative.
                        match strip_parens(x) {
                            Expr::Cast(k) if T::of_type(&k.ty) == Some(T::I(128)) => {
                                match self.ty(&k.expr) {
                                    Some(T::U(n)) if n < 128 => {
                                        Some(cast_to((*k.expr).clone(), T::U(128)))
                                    }
                                    Some(T::Bool) => Some(cast_to((*k.expr).clone(), T::U(128))),
                                    _ => None,
                                }
                            }
                            _ => None,
                        }
                    }
                    "get_bits" if c.args.len() == 3 => {
                        let (x, lo, w) = (arg(0)?, arg(1)?, arg(2)?);
                        let (lo, _) = int_lit(lo)?;
                        let (w, _) = int_lit(w)?;
                        (lo == 0 && self.ty(x) == Some(T::U(128)) && self.bound(x)? as u128 <= w)
                            .then(|| x.clone())
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }

    fn rewrite_binary(&self, b: &syn::ExprBinary) -> Option<Expr> {
        let (l, r) = (&*b.left, &*b.right);
        let t = self.ty(l).or(self.ty(r))?;
        // Literals on both sides: the value (operators that cannot overflow or fail).
        if let (Some((x, _)), Some((y, _))) = (lit_of(l, t), lit_of(r, t)) {
            let w = t.int_width()?;
            let v = match b.op {
                BinOp::BitAnd(_) => x & y,
                BinOp::BitOr(_) => x | y,
                BinOp::BitXor(_) => x ^ y,
                BinOp::Shl(_) if y < w as u128 => x << y,
                _ => return None,
            };
            return make_lit(cast_value(v, t, t)?, t);
        }
        match b.op {
            BinOp::BitAnd(_) => {
                // `x & m` of an unsigned `x` whose bits all lie in `m`.
                for (x, m) in [(l, r), (r, l)] {
                    let (Some(tx), Some(bx)) = (self.ty(x), self.bound(x)) else {
                        continue;
                    };
                    let Some((m, _)) = lit_of(m, tx) else {
                        continue;
                    };
                    if m.trailing_ones() >= bx {
                        return Some(x.clone());
                    }
                }
                None
            }
            BinOp::BitOr(_) | BinOp::BitXor(_) => {
                // `x | 0`.
                for (x, z) in [(l, r), (r, l)] {
                    let Some(tx) = self.ty(x).filter(|t| t.int_width().is_some()) else {
                        continue;
                    };
                    if lit_of(z, tx).is_some_and(|(v, _)| v == 0) {
                        return Some(x.clone());
                    }
                }
                None
            }
            BinOp::Ne(_) | BinOp::Eq(_) => {
                // `(c as T) != 0` of a `bool` `c`: `c` (`== 0`: `!c`).
                for (x, z) in [(l, r), (r, l)] {
                    let Expr::Cast(k) = strip_parens(x) else {
                        continue;
                    };
                    let Some(tk) = T::of_type(&k.ty).filter(|t| t.int_width().is_some()) else {
                        continue;
                    };
                    if self.ty(&k.expr) != Some(T::Bool) || lit_of(z, tk).map(|(v, _)| v) != Some(0)
                    {
                        continue;
                    }
                    let c = (*k.expr).clone();
                    return Some(if matches!(b.op, BinOp::Ne(_)) {
                        c
                    } else {
                        syn::parse_quote!(!(#c))
                    });
                }
                None
            }
            _ => None,
        }
    }

    fn rewrite_cast(&self, c: &ExprCast) -> Option<Expr> {
        let to = T::of_type(&c.ty)?;
        let x = strip_parens(&c.expr);
        let tx = self.ty(x)?;
        if tx == to {
            return Some(x.clone());
        }
        if let Some((v, t)) = int_lit(x) {
            if let Some(l) = cast_value(v, t, to).and_then(|v| make_lit(v, to)) {
                return Some(l);
            }
        }
        match x {
            Expr::Cast(inner) => {
                let a = T::of_type(&inner.ty)?;
                let y = strip_parens(&inner.expr);
                let ty_y = self.ty(y)?;
                if ty_y == to {
                    // `(y as A) as T` of a `T`: identity when `A` keeps all of `y`.
                    if self.fold_two(y, ty_y, a, to) {
                        return Some(y.clone());
                    }
                    return None;
                }
                self.fold_two(y, ty_y, a, to)
                    .then(|| cast_to(y.clone(), to))
            }
            Expr::Binary(b) if matches!(b.op, BinOp::BitAnd(_)) => {
                let wt = to.int_width()?;
                for (y, m) in [(&b.left, &b.right), (&b.right, &b.left)] {
                    let Some((m, _)) = int_lit(m) else { continue };
                    let Some(wy) = self.ty(y).and_then(T::int_width) else {
                        continue;
                    };
                    if m.trailing_ones() >= wt.min(wy) {
                        return Some(cast_to((**y).clone(), to));
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// Whether `(y as a) as t` equals `y as t` for `y` of type `ty_y`.
    fn fold_two(&self, y: &Expr, ty_y: T, a: T, t: T) -> bool {
        let (Some(wa), Some(wt)) = (a.int_width(), t.int_width()) else {
            return false;
        };
        if wt <= wa {
            // Both keep the low `wt` bits of `y` extended as its type extends (`usize` is
            // unsigned).
            return true;
        }
        let wy = match ty_y {
            T::Bool => return true,
            T::Usize => return false,
            T::U(n) | T::I(n) => n,
        };
        (wa >= wy && a.signed() == ty_y.signed())
            || (wa > wy && !ty_y.signed())
            || (!a.signed() && !ty_y.signed() && self.bound(y).is_some_and(|b| b <= wa))
    }
}

/// How far the evaluation of a statement gets towards the use of a temporary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Walk {
    /// The use is reached, after only effect-free evaluation.
    Found,
    /// Evaluated completely without an effect, the use not in it.
    Pure,
    /// Something with an effect (or a branch) comes first.
    Stop,
}

fn is_binding_call(e: &Expr) -> bool {
    match strip_parens(e) {
        Expr::Try(t) => is_binding_call(&t.expr),
        Expr::MethodCall(m) if m.method == "ok" => is_binding_call(&m.receiver),
        Expr::MethodCall(m) => is_path(&m.receiver, "b") && m.method == "op",
        _ => false,
    }
}

fn count_ident(ts: TokenStream, name: &str) -> usize {
    ts.into_iter()
        .map(|t| match t {
            proc_macro2::TokenTree::Ident(i) => usize::from(i == name),
            proc_macro2::TokenTree::Group(g) => count_ident(g.stream(), name),
            _ => 0,
        })
        .sum()
}

fn idents(ts: TokenStream) -> Vec<String> {
    let mut out = Vec::new();
    for t in ts {
        match t {
            proc_macro2::TokenTree::Ident(i) => out.push(i.to_string()),
            proc_macro2::TokenTree::Group(g) => out.extend(idents(g.stream())),
            _ => {}
        }
    }
    out
}

/// Replaces the use of `name` in `s` by `with` (whether it was found).
fn replace_stmt(s: &mut Stmt, name: &str, with: &Expr) -> bool {
    match s {
        Stmt::Local(l) => l
            .init
            .as_mut()
            .is_some_and(|i| replace(&mut i.expr, name, with)),
        Stmt::Expr(e, _) => replace(e, name, with),
        _ => false,
    }
}

fn replace(e: &mut Expr, name: &str, with: &Expr) -> bool {
    if matches!(e, Expr::Path(p) if p.path.is_ident(name)) {
        *e = with.clone();
        return true;
    }
    let any = |xs: &mut dyn Iterator<Item = &mut Expr>| {
        for x in xs {
            if replace(x, name, with) {
                return true;
            }
        }
        false
    };
    match e {
        Expr::Paren(p) => replace(&mut p.expr, name, with),
        Expr::Group(g) => replace(&mut g.expr, name, with),
        Expr::Cast(c) => replace(&mut c.expr, name, with),
        Expr::Field(f) => replace(&mut f.base, name, with),
        Expr::Reference(r) => replace(&mut r.expr, name, with),
        Expr::Unary(u) => replace(&mut u.expr, name, with),
        Expr::Try(t) => replace(&mut t.expr, name, with),
        Expr::Tuple(t) => any(&mut t.elems.iter_mut()),
        Expr::Array(t) => any(&mut t.elems.iter_mut()),
        Expr::Index(i) => any(&mut [&mut *i.expr, &mut *i.index].into_iter()),
        Expr::Binary(b) => any(&mut [&mut *b.left, &mut *b.right].into_iter()),
        Expr::Assign(a) => replace(&mut a.right, name, with),
        Expr::Call(c) => any(&mut c.args.iter_mut()),
        Expr::MethodCall(m) => any(&mut std::iter::once(&mut *m.receiver).chain(m.args.iter_mut())),
        _ => false,
    }
}

/// The value of a block that is one expression.
fn block_value(b: &Block) -> Option<&Expr> {
    match b.stmts.as_slice() {
        [Stmt::Expr(e, None)] => Some(e),
        _ => None,
    }
}

fn is_block_like(e: &Expr) -> bool {
    matches!(
        e,
        Expr::If(_)
            | Expr::Block(_)
            | Expr::ForLoop(_)
            | Expr::While(_)
            | Expr::Loop(_)
            | Expr::Match(_)
    )
}

fn pat_name(p: &Pat) -> Option<String> {
    match p {
        Pat::Ident(pi) if pi.subpat.is_none() => Some(pi.ident.to_string()),
        _ => None,
    }
}

fn pat_names(p: &Pat, out: &mut Vec<String>) {
    match p {
        Pat::Ident(pi) => out.push(pi.ident.to_string()),
        Pat::Type(pt) => pat_names(&pt.pat, out),
        Pat::Tuple(t) => t.elems.iter().for_each(|x| pat_names(x, out)),
        Pat::TupleStruct(t) => t.elems.iter().for_each(|x| pat_names(x, out)),
        Pat::Reference(r) => pat_names(&r.pat, out),
        Pat::Paren(x) => pat_names(&x.pat, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    fn run(code: &str) -> String {
        let ts: TokenStream = code.parse().expect("test code lexes");
        let out = super::body(ts);
        let f: syn::File = syn::parse2(quote::quote!(fn f() { #out })).expect("result parses");
        prettyplease::unparse(&f)
    }
    use super::*;

    #[test]
    fn identity_round_trips_fold_and_others_stay() {
        let out = run(
            "let mut l_a: u32 = 0u32; let mut l_b: u128 = 0u128; let mut l_s: i8 = (0i8);
            l_a = ((((((l_a as u128) & 4294967295u128)) as u32)));
            l_b = ((l_b as u32) as u128);
            l_b = ((l_a as u64) as u128);
            l_b = ((l_s as i32) as u128);
            l_b = ((l_s as u32) as u128);
            l_a = ((-1i32) as u32);
            l_a = (if (l_a > 1u32) { 1u32 } else { 0u32 });",
        );
        assert!(out.contains("l_a = l_a;"), "{out}");
        // Truncating then widening a u128 keeps the truncation.
        assert!(out.contains("l_b = l_b as u32 as u128;"), "{out}");
        assert!(out.contains("l_b = l_a as u128;"), "{out}");
        // A signed value widened as signed, then as unsigned, is the same as widened as signed.
        assert!(out.contains("l_b = l_s as u128;"), "{out}");
        // Sign-extended to 32 bits, then zero-extended: not the same as one cast.
        assert!(out.contains("l_b = l_s as u32 as u128;"), "{out}");
        assert!(out.contains("l_a = 4294967295u32;"), "{out}");
        assert!(out.contains("l_a = (l_a > 1u32) as u32;"), "{out}");
    }

    #[test]
    fn temporaries_are_inlined_only_without_effects_in_between() {
        // Nothing in between: inlined.
        let out = run("let mut o_d0: u128 = 0u128; let mut l_b: u128 = 0u128;
            { let v__: u128 = rt::get_bits(l_b, 0, 8u32); o_d0 = rt::set_bits(o_d0, 0, 32u32, v__); }");
        assert!(!out.contains("v__"), "{out}");
        // The value reads the wave, and `w` is lent mutably before the use: kept.
        let out = run("{ let v__: u128 = rt::read_scalar(w, r_s0, 32u32, false)?;
            rt::mem_write(w, mem, lds, rt::Space::Lds, 0u64, 4u32, v__, None)?; }");
        assert!(out.contains("let v__"), "{out}");
        // A variable the value reads is written in between: kept.
        let out = run("let mut l_b: u128 = 0u128; let mut l_c: u128 = 0u128;
            { let v__: u128 = l_b; l_b = 5u128; l_c = v__; }");
        assert!(out.contains("let v__"), "{out}");
        // A fallible step in between: kept (the order of errors stays).
        let out = run("let mut l_c: u128 = 0u128;
            { let v__: u128 = rt::div_u(l_c, 3u128)?; let i__ = rt::index(l_c as i128, 4usize)?; l_c = v__ + i__ as u128; }");
        assert!(out.contains("let v__"), "{out}");
    }
}
