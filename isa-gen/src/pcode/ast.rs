//! The syntax tree of one pseudocode entry, as written, with source positions.
//!
//! Positions are byte offsets into the entry's text ([`Span`]); the corpus layer turns them into
//! file lines and columns. `Display` prints a compact S-expression used by tests and by
//! `isa-gen pcode show --ast`.

use super::types::Ty;
use serde::Serialize;
use std::fmt;

/// A byte range in the entry text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Span {
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn to(self, other: Span) -> Span {
        Span {
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// One entry's statements.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ast {
    pub stmts: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AssignOp {
    Set,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

impl AssignOp {
    pub fn symbol(self) -> &'static str {
        match self {
            AssignOp::Set => "=",
            AssignOp::Add => "+=",
            AssignOp::Sub => "-=",
            AssignOp::Mul => "*=",
            AssignOp::Div => "/=",
            AssignOp::Mod => "%=",
            AssignOp::And => "&=",
            AssignOp::Or => "|=",
            AssignOp::Xor => "^=",
            AssignOp::Shl => "<<=",
            AssignOp::Shr => ">>=",
        }
    }
    /// The binary operator a compound assignment applies (`+=` applies `+`).
    pub fn binary(self) -> Option<BinOp> {
        Some(match self {
            AssignOp::Set => return None,
            AssignOp::Add => BinOp::Add,
            AssignOp::Sub => BinOp::Sub,
            AssignOp::Mul => BinOp::Mul,
            AssignOp::Div => BinOp::Div,
            AssignOp::Mod => BinOp::Mod,
            AssignOp::And => BinOp::BitAnd,
            AssignOp::Or => BinOp::BitOr,
            AssignOp::Xor => BinOp::BitXor,
            AssignOp::Shl => BinOp::Shl,
            AssignOp::Shr => BinOp::Shr,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StmtKind {
    /// `target op value`; the target is a place expression (checked by the type checker).
    Assign {
        target: Expr,
        op: AssignOp,
        value: Expr,
    },
    /// `declare name : 32'B[64]` (`len` is the array length), or RDNA2's `int32 name = init`.
    Declare {
        name: Ident,
        ty: Ty,
        len: Option<Expr>,
        init: Option<Expr>,
    },
    /// `if c then ... elsif c then ... else ... endif`: `arms` holds the `if` and every `elsif`.
    If {
        arms: Vec<(Expr, Vec<Stmt>)>,
        otherwise: Option<Vec<Stmt>>,
    },
    /// `for var in from : to do ... endfor`, both bounds inclusive.
    For {
        var: Ident,
        from: Expr,
        to: Expr,
        body: Vec<Stmt>,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
    },
    Return(Option<Expr>),
    Break,
    Continue,
    /// `NAME = lambda(params) (body)`; RDNA2's `NAME(params) := expr` too.
    Lambda {
        name: Ident,
        params: Vec<Ident>,
        body: LambdaBody,
    },
    /// A call made for its effect (`nop()`).
    Call(Expr),
    /// A step stated in English, in double quotes; the text is kept without the quotes.
    Note(String),
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LambdaBody {
    Expr(Expr),
    Block(Vec<Stmt>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum UnOp {
    Neg,
    Plus,
    Not,
    BitNot,
    /// RDNA2's `+-INF` ("either infinity").
    PlusMinus,
}

impl UnOp {
    pub fn symbol(self) -> &'static str {
        match self {
            UnOp::Neg => "-",
            UnOp::Plus => "+",
            UnOp::Not => "!",
            UnOp::BitNot => "~",
            UnOp::PlusMinus => "+-",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BinOp {
    LogOr,
    LogAnd,
    BitOr,
    BitXor,
    BitAnd,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Pow,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::LogOr => "||",
            BinOp::LogAnd => "&&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::BitAnd => "&",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Mod => "%",
            BinOp::Pow => "**",
        }
    }
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
    pub fn is_logical(self) -> bool {
        matches!(self, BinOp::LogOr | BinOp::LogAnd)
    }
    pub fn is_shift(self) -> bool {
        matches!(self, BinOp::Shl | BinOp::Shr)
    }
    pub fn is_bitwise(self) -> bool {
        matches!(self, BinOp::BitOr | BinOp::BitXor | BinOp::BitAnd)
    }
}

/// How an integer literal was written; the suffix gives its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IntSuffix {
    None,
    /// `U`: u32.
    U,
    /// `L`/`LL`: i64.
    LL,
    /// `UL`/`ULL`: u64.
    ULL,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExprKind {
    /// An integer literal; `sized` is the type of a sized literal (`8'0U` is u8, `16'0` is b16).
    Int {
        value: u128,
        suffix: IntSuffix,
        hex: bool,
        sized: Option<Ty>,
    },
    /// A float literal; `single` for the `F` suffix; `sized` for `16'1.0`.
    Float {
        value: f64,
        single: bool,
        sized: Option<Ty>,
    },
    Name(String),
    /// `base.u32`: reads `base` as the given type.
    Typed {
        base: Box<Expr>,
        ty: Ty,
        half: Option<Half>,
    },
    /// `base.NAME`: a field of a state register or record (`WAVE_STATUS.PRIV`, `M0.base`).
    Field {
        base: Box<Expr>,
        name: String,
    },
    /// `base[index]`: a bit, an array element, a lane or a register.
    Index {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `base[hi : lo]`: bits hi down to lo (`hi < lo` reverses them).
    Slice {
        base: Box<Expr>,
        hi: Box<Expr>,
        lo: Box<Expr>,
    },
    /// `base[start +: width]`: `width` bits from bit `start` up.
    PartSelect {
        base: Box<Expr>,
        start: Box<Expr>,
        width: Box<Expr>,
    },
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
    /// `32'U(expr)`: conversion to a sized type.
    Cast {
        ty: Ty,
        expr: Box<Expr>,
    },
    /// RDNA2's `(float)expr`; the type name is kept as written.
    CCast {
        ty: String,
        expr: Box<Expr>,
    },
    Unary {
        op: UnOp,
        expr: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Ternary {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// `{ hi, ..., lo }`: bit concatenation.
    Concat(Vec<Expr>),
}

/// RDNA2's `.f16_lo` / `.f16_hi`: the low or high half of a 32-bit register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Half {
    Lo,
    Hi,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Expr {
        Expr { kind, span }
    }
}

// ---------------------------------------------------------------------------------------------
// S-expression printing
// ---------------------------------------------------------------------------------------------

impl fmt::Display for Ast {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.stmts.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

fn write_block(f: &mut fmt::Formatter<'_>, stmts: &[Stmt]) -> fmt::Result {
    f.write_str("(")?;
    for (i, s) in stmts.iter().enumerate() {
        if i > 0 {
            f.write_str(" ")?;
        }
        write!(f, "{s}")?;
    }
    f.write_str(")")
}

impl fmt::Display for Stmt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            StmtKind::Assign { target, op, value } => {
                write!(f, "({} {target} {value})", op.symbol())
            }
            StmtKind::Declare {
                name,
                ty,
                len,
                init,
            } => {
                write!(f, "(declare {} {ty}", name.name)?;
                if let Some(len) = len {
                    write!(f, " [{len}]")?;
                }
                if let Some(init) = init {
                    write!(f, " {init}")?;
                }
                f.write_str(")")
            }
            StmtKind::If { arms, otherwise } => {
                f.write_str("(if")?;
                for (cond, body) in arms {
                    write!(f, " {cond} ")?;
                    write_block(f, body)?;
                }
                if let Some(body) = otherwise {
                    f.write_str(" else ")?;
                    write_block(f, body)?;
                }
                f.write_str(")")
            }
            StmtKind::For {
                var,
                from,
                to,
                body,
            } => {
                write!(f, "(for {} {from} {to} ", var.name)?;
                write_block(f, body)?;
                f.write_str(")")
            }
            StmtKind::While { cond, body } => {
                write!(f, "(while {cond} ")?;
                write_block(f, body)?;
                f.write_str(")")
            }
            StmtKind::Return(None) => f.write_str("(return)"),
            StmtKind::Return(Some(e)) => write!(f, "(return {e})"),
            StmtKind::Break => f.write_str("(break)"),
            StmtKind::Continue => f.write_str("(continue)"),
            StmtKind::Lambda { name, params, body } => {
                write!(f, "(lambda {} (", name.name)?;
                for (i, p) in params.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    f.write_str(&p.name)?;
                }
                f.write_str(") ")?;
                match body {
                    LambdaBody::Expr(e) => write!(f, "{e}")?,
                    LambdaBody::Block(b) => write_block(f, b)?,
                }
                f.write_str(")")
            }
            StmtKind::Call(e) => write!(f, "{e}"),
            StmtKind::Note(t) => write!(f, "(note {t:?})"),
        }
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ExprKind::Int {
                value,
                suffix,
                hex,
                sized,
            } => {
                if let Some(ty) = sized {
                    write!(f, "{}'", ty.width)?;
                }
                if *hex {
                    write!(f, "0x{value:x}")?;
                } else {
                    write!(f, "{value}")?;
                }
                match suffix {
                    IntSuffix::None => Ok(()),
                    IntSuffix::U => f.write_str("U"),
                    IntSuffix::LL => f.write_str("LL"),
                    IntSuffix::ULL => f.write_str("ULL"),
                }
            }
            ExprKind::Float {
                value,
                single,
                sized,
            } => {
                if let Some(ty) = sized {
                    write!(f, "{}'", ty.width)?;
                }
                write!(f, "{value:?}")?;
                if *single {
                    f.write_str("F")?;
                }
                Ok(())
            }
            ExprKind::Name(n) => f.write_str(n),
            ExprKind::Typed { base, ty, half } => {
                write!(f, "{base}.{ty}")?;
                match half {
                    Some(Half::Lo) => f.write_str("_lo"),
                    Some(Half::Hi) => f.write_str("_hi"),
                    None => Ok(()),
                }
            }
            ExprKind::Field { base, name } => write!(f, "{base}.{name}"),
            ExprKind::Index { base, index } => write!(f, "{base}[{index}]"),
            ExprKind::Slice { base, hi, lo } => write!(f, "{base}[{hi} : {lo}]"),
            ExprKind::PartSelect { base, start, width } => write!(f, "{base}[{start} +: {width}]"),
            ExprKind::Call { name, args } => {
                write!(f, "({}", name.name)?;
                for a in args {
                    write!(f, " {a}")?;
                }
                f.write_str(")")
            }
            ExprKind::Cast { ty, expr } => write!(f, "(cast {ty} {expr})"),
            ExprKind::CCast { ty, expr } => write!(f, "(ccast {ty} {expr})"),
            ExprKind::Unary { op, expr } => write!(f, "({} {expr})", op.symbol()),
            ExprKind::Binary { op, lhs, rhs } => write!(f, "({} {lhs} {rhs})", op.symbol()),
            ExprKind::Ternary {
                cond,
                then,
                otherwise,
            } => {
                write!(f, "(? {cond} {then} {otherwise})")
            }
            ExprKind::Concat(parts) => {
                f.write_str("{")?;
                for (i, p) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{p}")?;
                }
                f.write_str("}")
            }
        }
    }
}

/// The helper calls of an entry (name and argument count, in order of appearance), leaving out
/// calls of lambdas the entry defines.
pub fn helper_calls(ast: &Ast) -> Vec<(String, usize)> {
    let mut lambdas = Vec::new();
    let mut calls = Vec::new();
    walk_stmts(
        &ast.stmts,
        &mut |e| {
            if let ExprKind::Call { name, args } = &e.kind {
                calls.push((name.name.clone(), args.len()));
            }
        },
        &mut lambdas,
    );
    calls.retain(|(n, _)| !lambdas.contains(n));
    calls
}

fn walk_stmts(stmts: &[Stmt], f: &mut impl FnMut(&Expr), lambdas: &mut Vec<String>) {
    for s in stmts {
        match &s.kind {
            StmtKind::Assign { target, value, .. } => {
                walk_expr(target, f);
                walk_expr(value, f);
            }
            StmtKind::Declare { len, init, .. } => {
                for e in len.iter().chain(init.iter()) {
                    walk_expr(e, f);
                }
            }
            StmtKind::If { arms, otherwise } => {
                for (c, b) in arms {
                    walk_expr(c, f);
                    walk_stmts(b, f, lambdas);
                }
                if let Some(b) = otherwise {
                    walk_stmts(b, f, lambdas);
                }
            }
            StmtKind::For { from, to, body, .. } => {
                walk_expr(from, f);
                walk_expr(to, f);
                walk_stmts(body, f, lambdas);
            }
            StmtKind::While { cond, body } => {
                walk_expr(cond, f);
                walk_stmts(body, f, lambdas);
            }
            StmtKind::Return(Some(e)) | StmtKind::Call(e) => walk_expr(e, f),
            StmtKind::Lambda { name, body, .. } => {
                lambdas.push(name.name.clone());
                match body {
                    LambdaBody::Expr(e) => walk_expr(e, f),
                    LambdaBody::Block(b) => walk_stmts(b, f, lambdas),
                }
            }
            StmtKind::Return(None) | StmtKind::Break | StmtKind::Continue | StmtKind::Note(_) => {}
        }
    }
}

/// Calls `f` on `e` and every expression inside it.
pub fn walk_expr(e: &Expr, f: &mut impl FnMut(&Expr)) {
    f(e);
    match &e.kind {
        ExprKind::Int { .. } | ExprKind::Float { .. } | ExprKind::Name(_) => {}
        ExprKind::Typed { base, .. } | ExprKind::Field { base, .. } => walk_expr(base, f),
        ExprKind::Index { base, index } => {
            walk_expr(base, f);
            walk_expr(index, f);
        }
        ExprKind::Slice { base, hi, lo } => {
            walk_expr(base, f);
            walk_expr(hi, f);
            walk_expr(lo, f);
        }
        ExprKind::PartSelect { base, start, width } => {
            walk_expr(base, f);
            walk_expr(start, f);
            walk_expr(width, f);
        }
        ExprKind::Call { args, .. } | ExprKind::Concat(args) => {
            for a in args {
                walk_expr(a, f);
            }
        }
        ExprKind::Cast { expr, .. }
        | ExprKind::CCast { expr, .. }
        | ExprKind::Unary { expr, .. } => walk_expr(expr, f),
        ExprKind::Binary { lhs, rhs, .. } => {
            walk_expr(lhs, f);
            walk_expr(rhs, f);
        }
        ExprKind::Ternary {
            cond,
            then,
            otherwise,
        } => {
            walk_expr(cond, f);
            walk_expr(then, f);
            walk_expr(otherwise, f);
        }
    }
}
