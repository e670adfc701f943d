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

mod calls;
mod constants;
mod convert;
mod exprs;
mod ops;
mod places;
mod prepass;
mod scope;
mod stmts;
use constants::{constant, linear};

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

/// What a name in scope stands for: a local of the pseudocode, or a declared register.
#[derive(Clone, Debug)]
enum NameBinding {
    Local {
        ty: Ty,
        len: Option<u32>,
    },
    /// A predeclared register whose type a `declare` gave.
    Register(Ty),
}

#[derive(Default)]
struct Frame {
    bindings: HashMap<String, NameBinding>,
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
