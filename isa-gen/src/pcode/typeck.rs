//! [`Ast`] to typed [`Ir`]: resolves names, gives every expression a type, makes AMD's implicit
//! conversions explicit, and reports what does not fit. The rules are documented in
//! spec/pcode/README.md ("Types"); in short:
//!
//! - Unsuffixed literals (`1`, `0x3f`, `1.0`) and the float constants (`PI`, `INF`) take the
//!   type their context gives them; alone they are `i32` (or wider if needed) and `f64`. A hex
//!   literal given a float type keeps its bits (`32'F(0xffc00000)` is a NaN, not 4.29e9).
//! - Mixed operands meet at a common type: float beats integer, the wider integer wins, at equal
//!   width unsigned beats signed and both beat bits; `bool` becomes 0/1.
//! - Bits become floats (and floats become bits) by reinterpretation; everything else converts
//!   by value. Assignments convert the value to the place's type.
//! - `x.u32` on a register or memory reads that many bits; on a variable or value it
//!   reinterprets the low bits (sign-extending signed sources when widening).
//! - Variables come into existence when first assigned (their type is the value's), when
//!   declared, or as `for` counters. Reading a name that is neither a variable nor predeclared
//!   (see [`super::names`]) is an error.

use super::ast::{self, AssignOp, Ast, BinOp, Half, IntSuffix, LambdaBody, Span, StmtKind, UnOp};
use super::helpers::{self, Param, Ret};
use super::ir::*;
use super::names::{self, NameKind, Width};
use super::types::{Kind, Ty};
use crate::Generation;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// What the type checker needs to know about the entry besides its text.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The instruction mnemonic; operands read without an accessor take its data type.
    pub mnemonic: &'a str,
    pub generation: Option<Generation>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    Warning,
    Error,
}

/// A problem found by the type checker, located by a span of the entry text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TypeError {
    pub level: Level,
    /// A short stable code: `undeclared`, `unknown-helper`, `width-mismatch`, ...
    pub code: &'static str,
    pub message: String,
    pub span: Span,
}

/// A successfully typed entry, with the warnings that did not prevent typing.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Typed {
    pub ir: Ir,
    pub warnings: Vec<TypeError>,
}

/// Types one entry. Errors are all reported, not only the first.
pub fn typecheck(ast: &Ast, ctx: &Context<'_>) -> Result<Typed, Vec<TypeError>> {
    let mut c = Checker::new(ctx);
    c.collect_implicit_widths(&ast.stmts);
    c.frames.push(Frame::default());
    let body = c.block(&ast.stmts);
    let frame = c.frames.pop().unwrap_or_default();
    if c.errors.is_empty() {
        Ok(Typed {
            ir: Ir {
                locals: frame.locals,
                lambdas: c.instances,
                body,
            },
            warnings: c.warnings,
        })
    } else {
        Err(c.errors)
    }
}

/// Whether a typed expression still takes its type from context, and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Flex {
    No,
    Int,
    /// An integer literal written in hex: its bits are meant.
    Hex,
    Float,
}

impl Flex {
    fn join(a: Flex, b: Flex) -> Flex {
        match (a, b) {
            (Flex::No, _) | (_, Flex::No) => Flex::No,
            (Flex::Float, _) | (_, Flex::Float) => Flex::Float,
            _ => Flex::Int,
        }
    }
}

#[derive(Clone, Debug)]
struct TE {
    e: Expr,
    flex: Flex,
}

impl TE {
    fn fixed(e: Expr) -> TE {
        TE { e, flex: Flex::No }
    }
}

#[derive(Clone, Debug)]
enum Binding {
    Local {
        ty: Ty,
        len: Option<u32>,
    },
    /// A predeclared register whose type a `declare` gave.
    Register(Ty),
}

#[derive(Default)]
struct Frame {
    bindings: HashMap<String, Binding>,
    locals: Vec<Local>,
    /// Inside a lambda: the return type found so far (`Some(None)` before the first return).
    returns: Option<Option<Ty>>,
    loops: usize,
}

struct Checker<'a> {
    natural: Ty,
    rdna2: bool,
    frames: Vec<Frame>,
    lambda_defs: HashMap<String, (&'a [ast::Ident], &'a LambdaBody)>,
    instances: Vec<LambdaInstance>,
    instance_index: HashMap<(String, Vec<Ty>), usize>,
    instantiating: Vec<String>,
    errors: Vec<TypeError>,
    warnings: Vec<TypeError>,
    /// Widths of variables first written through a bit range (`tmp[31 : 16] = ...`).
    implicit_widths: HashMap<String, u32>,
}

type Lin = (BTreeMap<String, i128>, i128);

/// How deep lambda bodies may call other lambdas (the corpus: 1). Each level re-enters the
/// checker, so the bound keeps adversarial entries off the stack's end.
const MAX_LAMBDA_DEPTH: usize = 8;

impl<'a> Checker<'a> {
    fn new(ctx: &Context<'_>) -> Checker<'a> {
        Checker {
            natural: names::natural_ty(ctx.mnemonic),
            rdna2: ctx.generation == Some(Generation::Rdna2),
            frames: Vec::new(),
            lambda_defs: HashMap::new(),
            instances: Vec::new(),
            instance_index: HashMap::new(),
            instantiating: Vec::new(),
            errors: Vec::new(),
            warnings: Vec::new(),
            implicit_widths: HashMap::new(),
        }
    }

    fn error(&mut self, code: &'static str, span: Span, message: impl Into<String>) {
        self.errors.push(TypeError {
            level: Level::Error,
            code,
            message: message.into(),
            span,
        });
    }

    fn warn(&mut self, code: &'static str, span: Span, message: impl Into<String>) {
        self.warnings.push(TypeError {
            level: Level::Warning,
            code,
            message: message.into(),
            span,
        });
    }

    /// A stand-in expression after an error, so checking can go on.
    fn poison(&self, span: Span) -> TE {
        TE::fixed(Expr::new(Ty::B32, ExprKind::Int(0), span))
    }

    // -----------------------------------------------------------------------------------------
    // Names
    // -----------------------------------------------------------------------------------------

    fn binding(&self, name: &str) -> Option<&Binding> {
        self.frames.iter().rev().find_map(|f| f.bindings.get(name))
    }

    fn frame(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    fn add_local(&mut self, name: &str, ty: Ty, len: Option<u32>, origin: LocalOrigin) {
        let frame = self.frame();
        frame
            .bindings
            .insert(name.to_string(), Binding::Local { ty, len });
        frame.locals.push(Local {
            name: name.to_string(),
            ty,
            len,
            origin,
        });
    }

    fn read_name(&mut self, name: &str, span: Span) -> TE {
        match self.binding(name).cloned() {
            Some(Binding::Local { ty, len: None }) => {
                return TE::fixed(Expr::new(ty, ExprKind::Local(name.to_string()), span));
            }
            Some(Binding::Local { len: Some(_), .. }) => {
                self.error(
                    "array-as-value",
                    span,
                    format!("array `{name}` used without an index"),
                );
                return self.poison(span);
            }
            Some(Binding::Register(ty)) => {
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

    // -----------------------------------------------------------------------------------------
    // Conversions
    // -----------------------------------------------------------------------------------------

    fn convert(&self, e: Expr, to: Ty) -> Expr {
        if e.ty == to {
            return e;
        }
        let how = if (e.ty.kind == Kind::Bits && to.is_float())
            || (e.ty.is_float() && to.kind == Kind::Bits)
        {
            ConvKind::Reinterpret
        } else {
            ConvKind::Numeric
        };
        let span = e.span;
        Expr::new(
            to,
            ExprKind::Convert {
                expr: Box::new(e),
                how,
            },
            span,
        )
    }

    fn reinterpret(&self, e: Expr, to: Ty) -> Expr {
        if e.ty == to {
            return e;
        }
        let span = e.span;
        Expr::new(
            to,
            ExprKind::Convert {
                expr: Box::new(e),
                how: ConvKind::Reinterpret,
            },
            span,
        )
    }

    /// Gives a context type to an expression: retypes literals, converts anything else.
    fn coerce(&self, te: TE, to: Ty) -> Expr {
        match te.flex {
            Flex::No => self.convert(te.e, to),
            flex => self.retype(te.e, to, flex == Flex::Hex),
        }
    }

    fn retype(&self, e: Expr, to: Ty, hex: bool) -> Expr {
        if e.ty == to {
            return e;
        }
        let span = e.span;
        match e.kind {
            ExprKind::Int(v) if to.is_float() => {
                if hex {
                    let bits =
                        Expr::new(Ty::bits(to.width), ExprKind::Int(v & mask(to.width)), span);
                    self.reinterpret(bits, to)
                } else {
                    Expr::new(to, ExprKind::Float(v as f64), span)
                }
            }
            ExprKind::Int(v) if !to.is_bool() => {
                Expr::new(to, ExprKind::Int(v & mask(to.width)), span)
            }
            ExprKind::Float(v) if to.is_float() => Expr::new(to, ExprKind::Float(v), span),
            ExprKind::Const(name) if to.is_float() => Expr::new(to, ExprKind::Const(name), span),
            ExprKind::Unary { op, expr } if op != UnOp::Not && !to.is_bool() => {
                let inner = self.retype(*expr, to, hex);
                Expr::new(
                    to,
                    ExprKind::Unary {
                        op,
                        expr: Box::new(inner),
                    },
                    span,
                )
            }
            ExprKind::Binary { op, lhs, rhs }
                if !op.is_comparison() && !op.is_logical() && !to.is_bool() =>
            {
                let lhs = self.retype(*lhs, to, hex);
                let rhs = if op.is_shift() || op == BinOp::Pow {
                    *rhs
                } else {
                    self.retype(*rhs, to, hex)
                };
                Expr::new(
                    to,
                    ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    span,
                )
            }
            ExprKind::Select {
                cond,
                then,
                otherwise,
            } => {
                let then = self.retype(*then, to, hex);
                let otherwise = self.retype(*otherwise, to, hex);
                Expr::new(
                    to,
                    ExprKind::Select {
                        cond,
                        then: Box::new(then),
                        otherwise: Box::new(otherwise),
                    },
                    span,
                )
            }
            kind => self.convert(Expr::new(e.ty, kind, span), to),
        }
    }

    fn to_bool(&self, te: TE) -> Expr {
        self.convert(te.e, Ty::BOOL)
    }

    /// The common type of two operand types (see the module comment), or why there is none.
    fn common(&self, a: Ty, b: Ty) -> Result<Ty, String> {
        if a == b {
            return Ok(a);
        }
        match (a.kind, b.kind) {
            (Kind::Bool, _) => return Ok(b),
            (_, Kind::Bool) => return Ok(a),
            _ => {}
        }
        match (a.is_float(), b.is_float()) {
            (true, true) => {
                if a.width == b.width {
                    Err(format!("`{a}` and `{b}` mixed without a conversion"))
                } else {
                    Ok(if a.width > b.width { a } else { b })
                }
            }
            (true, false) => Ok(a),
            (false, true) => Ok(b),
            (false, false) => {
                if a.width != b.width {
                    return Ok(if a.width > b.width { a } else { b });
                }
                let kind = match (a.kind, b.kind) {
                    (Kind::Bits, k) | (k, Kind::Bits) => k,
                    _ => Kind::Unsigned,
                };
                Ok(Ty::new(kind, a.width))
            }
        }
    }

    /// Brings two operands to a common type.
    fn unify(&mut self, l: TE, r: TE, span: Span) -> (Expr, Expr, Ty, Flex) {
        match (l.flex, r.flex) {
            (Flex::No, Flex::No) => {
                let ty = match self.common(l.e.ty, r.e.ty) {
                    Ok(t) => t,
                    Err(m) => {
                        self.error("kind-mismatch", span, m);
                        l.e.ty
                    }
                };
                (self.convert(l.e, ty), self.convert(r.e, ty), ty, Flex::No)
            }
            (Flex::No, _) => {
                let ty = if l.e.ty.is_bool() {
                    self.common(l.e.ty, r.e.ty).unwrap_or(Ty::I32)
                } else {
                    l.e.ty
                };
                (self.convert(l.e, ty), self.coerce(r, ty), ty, Flex::No)
            }
            (_, Flex::No) => {
                let ty = if r.e.ty.is_bool() {
                    self.common(l.e.ty, r.e.ty).unwrap_or(Ty::I32)
                } else {
                    r.e.ty
                };
                (self.coerce(l, ty), self.convert(r.e, ty), ty, Flex::No)
            }
            (lf, rf) => {
                let flex = Flex::join(lf, rf);
                let ty = if flex == Flex::Float {
                    Ty::F64
                } else {
                    self.common(l.e.ty, r.e.ty).unwrap_or(Ty::I32)
                };
                (self.coerce(l, ty), self.coerce(r, ty), ty, flex)
            }
        }
    }

    // -----------------------------------------------------------------------------------------
    // Expressions
    // -----------------------------------------------------------------------------------------

    fn expr(&mut self, e: &ast::Expr) -> TE {
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

    fn int_literal(
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
    fn typed(&mut self, base: &ast::Expr, ty: Ty, half: Option<Half>, span: Span) -> TE {
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
    fn sized_by_view(&self, name: &str) -> bool {
        match self.binding(name) {
            Some(Binding::Register(_)) => true,
            Some(Binding::Local { .. }) => false,
            None => matches!(
                names::lookup(name),
                Some(NameKind::Register(Width::Natural) | NameKind::SoftRegister(_))
            ),
        }
    }

    fn view(&self, e: Expr, ty: Ty) -> Expr {
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

    fn field(&mut self, base: &ast::Expr, name: &str, span: Span) -> TE {
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

    fn index_expr(&mut self, e: &ast::Expr) -> Expr {
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
    fn rdna2_dwords(&self, e: &ast::ExprKind) -> Option<(u32, u32)> {
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

    fn index(&mut self, base: &ast::Expr, index: &ast::Expr, span: Span) -> TE {
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
                Some(Binding::Local { ty, len: Some(_) }) => {
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

    fn predeclared(&self, name: &str) -> Option<NameKind> {
        if self.binding(name).is_some() {
            None
        } else {
            names::lookup(name)
        }
    }

    fn slice(
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
    fn slice_bounds(
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

    fn const_width(&mut self, e: &ast::Expr) -> Option<u32> {
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

    fn call(&mut self, name: &ast::Ident, args: &[ast::Expr], span: Span) -> TE {
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

    fn float_arg(&mut self, a: TE) -> Expr {
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

    fn call_lambda(&mut self, name: &str, args: Vec<TE>, span: Span) -> TE {
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
                        .insert(p.name.clone(), Binding::Local { ty: *ty, len: None });
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
    fn fix_returns(&self, stmts: &mut [Stmt], ret: Ty) {
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

    fn cast(&mut self, ty: Ty, inner: &ast::Expr, span: Span) -> TE {
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

    fn c_cast(&mut self, cty: &str, inner: &ast::Expr, span: Span) -> TE {
        let te = self.expr(inner);
        let Some(ty) = super::parse::c_type(cty) else {
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

    fn unary(&mut self, op: UnOp, inner: &ast::Expr, span: Span) -> TE {
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

    fn binary(&mut self, op: BinOp, lhs: &ast::Expr, rhs: &ast::Expr, span: Span) -> TE {
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
    fn nan_compare(
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
    fn either_sign(
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

    // -----------------------------------------------------------------------------------------
    // Places
    // -----------------------------------------------------------------------------------------

    /// The place an assignment writes. `value_ty` is the type of the value for places that take
    /// it (a register written without an accessor, a new variable).
    fn place(&mut self, e: &ast::Expr, value_ty: Option<Ty>) -> Option<Place> {
        let span = e.span;
        use ast::ExprKind as A;
        let mk = |ty: Ty, kind: PlaceKind| Some(Place { ty, kind, span });
        match &e.kind {
            A::Name(n) => match self.binding(n).cloned() {
                Some(Binding::Local { ty, len: None }) => mk(ty, PlaceKind::Local(n.clone())),
                Some(Binding::Local { len: Some(_), .. }) => {
                    self.error(
                        "array-as-value",
                        span,
                        format!("array `{n}` assigned without an index"),
                    );
                    None
                }
                Some(Binding::Register(ty)) => mk(ty, PlaceKind::Reg(n.clone())),
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
    fn widen_written_operand(&self, base: &mut Place, lo: &Expr, width: u32) {
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

    fn check_place_range(&mut self, base: &Place, lo: &Expr, width: u32, span: Span) {
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

    fn index_place(&mut self, base: &ast::Expr, index: &ast::Expr, span: Span) -> Option<Place> {
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
                Some(Binding::Local { ty, len: Some(_) }) => {
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

    // -----------------------------------------------------------------------------------------
    // Statements
    // -----------------------------------------------------------------------------------------

    fn block(&mut self, stmts: &'a [ast::Stmt]) -> Vec<Stmt> {
        let mut out = Vec::new();
        for s in stmts {
            self.stmt(s, &mut out);
        }
        out
    }

    fn stmt(&mut self, s: &'a ast::Stmt, out: &mut Vec<Stmt>) {
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
                        .insert(name.name.clone(), Binding::Register(*ty));
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
                    Some(Binding::Local { ty, len: None }) => ty,
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

    fn call_stmt(
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

    fn assign(
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
    fn would_create(&self, target: &ast::Expr) -> bool {
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

    // -----------------------------------------------------------------------------------------
    // Pre-pass
    // -----------------------------------------------------------------------------------------

    /// Finds the widths of variables written through bit ranges before they are assigned whole
    /// (`tmp[31 : 16].f16 = ...; tmp[15 : 0].f16 = ...` makes `tmp` 32 bits wide).
    fn collect_implicit_widths(&mut self, stmts: &[ast::Stmt]) {
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
fn written_bits(target: &ast::Expr) -> Option<(String, u32)> {
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

/// An integer expression as a sum of constant multiples of opaque terms plus a constant, when
/// it is one: `i * 32 + 31` is `{i: 32} + 31`. Terms are keyed by their printed form.
fn linear(e: &ast::Expr) -> Option<Lin> {
    use ast::ExprKind as A;
    match &e.kind {
        A::Int { value, .. } => Some((BTreeMap::new(), i128::try_from(*value).ok()?)),
        A::Unary {
            op: UnOp::Neg,
            expr,
        } => {
            let (t, c) = linear(expr)?;
            Some((t.into_iter().map(|(k, v)| (k, -v)).collect(), -c))
        }
        A::Binary {
            op: op @ (BinOp::Add | BinOp::Sub),
            lhs,
            rhs,
        } => {
            let (mut t, c) = linear(lhs)?;
            let (t2, c2) = linear(rhs)?;
            let sign = if *op == BinOp::Add { 1 } else { -1 };
            for (k, v) in t2 {
                *t.entry(k).or_insert(0) += sign * v;
            }
            t.retain(|_, v| *v != 0);
            Some((t, c.checked_add(sign * c2)?))
        }
        A::Binary {
            op: BinOp::Mul,
            lhs,
            rhs,
        } => {
            let (l, r) = (linear(lhs)?, linear(rhs)?);
            let (k, (t, c)) = if l.0.is_empty() {
                (l.1, r)
            } else if r.0.is_empty() {
                (r.1, l)
            } else {
                return None;
            };
            Some((
                t.into_iter()
                    .map(|(n, v)| (n, v * k))
                    .filter(|(_, v)| *v != 0)
                    .collect(),
                c.checked_mul(k)?,
            ))
        }
        A::Binary {
            op: BinOp::Shl,
            lhs,
            rhs,
        } => {
            let r = linear(rhs)?;
            if !r.0.is_empty() || !(0..64).contains(&r.1) {
                return None;
            }
            let k = 1i128 << r.1;
            let (t, c) = linear(lhs)?;
            Some((
                t.into_iter().map(|(n, v)| (n, v * k)).collect(),
                c.checked_mul(k)?,
            ))
        }
        _ => Some((BTreeMap::from([(e.to_string(), 1)]), 0)),
    }
}

/// The value of a constant integer expression.
fn constant(e: &ast::Expr) -> Option<i128> {
    match linear(e)? {
        (terms, c) if terms.is_empty() => Some(c),
        _ => None,
    }
}

/// Materialises a context-typed expression at its default type.
fn fix(te: TE) -> Expr {
    te.e
}

fn default_int_ty(value: u128, hex: bool) -> Ty {
    if value <= i32::MAX as u128 {
        Ty::I32
    } else if hex && value <= u32::MAX as u128 {
        Ty::U32
    } else if value <= i64::MAX as u128 {
        Ty::I64
    } else if value <= u64::MAX as u128 {
        Ty::U64
    } else {
        Ty::unsigned(128)
    }
}

fn mask(width: u32) -> u128 {
    if width >= 128 {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

fn letter(ty: Ty) -> &'static str {
    match ty.kind {
        Kind::Unsigned => "U",
        Kind::Signed => "I",
        Kind::Float => "F",
        Kind::BFloat => "BF",
        Kind::Bits | Kind::Bool => "B",
    }
}

/// Whether bit positions in `base` must lie within its type: registers and memory read without
/// an accessor may be read past their natural width (a 64-bit operand spans two registers), so
/// only their typed views (`S0.u32[40]`) are checked.
fn checked_range(base: &ast::Expr, e: &Expr) -> bool {
    !is_storage(e) || matches!(base.kind, ast::ExprKind::Typed { .. })
}

fn is_storage(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Reg(_)
            | ExprKind::Mem { .. }
            | ExprKind::Sgpr { .. }
            | ExprKind::Vgpr { .. }
            | ExprKind::RegElement { .. }
    )
}

/// The register (or register array) a field access applies to: `WAVE_STATUS` for
/// `WAVE_STATUS.PRIV`, `BARRIER_STATE` for `BARRIER_STATE[i].valid`.
fn register_name(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ast::ExprKind::Name(n) => Some(n.clone()),
        ast::ExprKind::Index { base, .. } => match &base.kind {
            ast::ExprKind::Name(n) => Some(n.clone()),
            _ => None,
        },
        _ => None,
    }
}
