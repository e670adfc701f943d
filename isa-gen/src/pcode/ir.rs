//! The typed IR of one entry: what an executor generator lowers (issue 5).
//!
//! Every expression carries its [`Ty`]. AMD's implicit conversions are explicit [`ExprKind::Convert`]
//! nodes; compound assignments keep their operator but their value already has the place's type.
//! Places (what can be assigned) are a separate tree from expressions (what can be read).
//! Lambdas are instantiated once per argument-type combination and called by index.

use super::ast::{AssignOp, BinOp, Span, UnOp};
use super::types::Ty;
use serde::Serialize;

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Ir {
    /// Variables of the entry: declared, inferred from their first assignment, or loop counters.
    pub locals: Vec<Local>,
    /// Lambda bodies, one per distinct argument-type list they are called with.
    pub lambdas: Vec<LambdaInstance>,
    pub body: Vec<Stmt>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LocalOrigin {
    /// `declare name : ...`, or RDNA2's `int32 name = ...`.
    Declared,
    /// Typed from its first assignment (or from the bits its first assignments write).
    Inferred,
    /// A `for` counter.
    Loop,
    /// A lambda parameter.
    Param,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Local {
    pub name: String,
    /// The element type for arrays.
    pub ty: Ty,
    /// `Some(n)` for `declare x : 32'B[n]` arrays.
    pub len: Option<u32>,
    pub origin: LocalOrigin,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LambdaInstance {
    pub name: String,
    pub params: Vec<Local>,
    pub ret: Ty,
    /// Variables declared inside the body.
    pub locals: Vec<Local>,
    /// Expression lambdas become a single `Return`.
    pub body: Vec<Stmt>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Stmt {
    /// `place op value`: `value` has the place's type; for compound operators the operation is
    /// done in the place's type.
    Assign {
        place: Place,
        op: AssignOp,
        value: Expr,
        span: Span,
    },
    /// Marks where a declared variable comes into existence (zero-initialised).
    Declare {
        local: String,
        span: Span,
    },
    If {
        arms: Vec<(Expr, Vec<Stmt>)>,
        otherwise: Vec<Stmt>,
        span: Span,
    },
    /// Inclusive bounds, converted to the counter's type.
    For {
        var: String,
        from: Expr,
        to: Expr,
        body: Vec<Stmt>,
        span: Span,
    },
    While {
        cond: Expr,
        body: Vec<Stmt>,
        span: Span,
    },
    Return {
        value: Option<Expr>,
        span: Span,
    },
    Break {
        span: Span,
    },
    Continue {
        span: Span,
    },
    /// A helper called for its effect; a value it returns is discarded.
    Call {
        func: String,
        args: Vec<Expr>,
        span: Span,
    },
    /// A step AMD states only in English; an executor must implement it by hand.
    Note {
        text: String,
        span: Span,
    },
}

/// How a conversion treats the bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ConvKind {
    /// Keeps the value: integer resize (sign-extends signed sources, zero-extends others,
    /// truncates), int<->float, float resize; to `bool` means "!= 0", from `bool` gives 0 or 1.
    Numeric,
    /// Keeps the bits: reinterprets them as the target type, first extending (by the source's
    /// signedness) or truncating them to the target width.
    Reinterpret,
}

/// Where the registers and memories named in the pseudocode live.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Space {
    /// `MEM[addr]`: the instruction's memory (LDS, global, scratch, ... by encoding).
    Mem,
    /// `LDS[addr]`.
    Lds,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Expr {
    pub ty: Ty,
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ExprKind {
    /// An integer constant (a bit pattern of `ty.width` bits; negative values are written as
    /// `Unary(Neg)` of a positive constant).
    Int(u128),
    Float(f64),
    /// A named constant (`PI`, `INF`, `ROUND_TOWARD_ZERO`, ...), to be defined by the runtime.
    Const(String),
    Local(String),
    /// An element of an array variable.
    Element {
        array: String,
        index: Box<Expr>,
    },
    /// A register or instruction operand (`S0`, `D0`, `EXEC`, `SCC`, `M0`, `laneId`, ...), read
    /// at its natural width as bits; typed reads are `Convert(Reinterpret)` of it.
    Reg(String),
    /// An element of a register array (`HW_REGISTERS[i]`, `TTMP[i]`, `BARRIER_STATE[i]`).
    RegElement {
        array: String,
        index: Box<Expr>,
    },
    /// `MEM[addr]`, `LDS[addr]`: `ty.width` bits at byte address `addr`.
    Mem {
        space: Space,
        addr: Box<Expr>,
    },
    /// `VGPR[lane][reg]`, a 32-bit vector register of one lane.
    Vgpr {
        lane: Box<Expr>,
        reg: Box<Expr>,
    },
    /// `SGPR[reg]`, `ty.width` bits from scalar register `reg` up.
    Sgpr {
        reg: Box<Expr>,
    },
    /// A field of a state register (`WAVE_STATUS.PRIV`), or of a record (`BARRIER_STATE[i].valid`).
    Field {
        base: Box<Expr>,
        name: String,
    },
    /// Bit `index` of `base` (as `u1`).
    Bit {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `ty.width` bits of `base` from bit `lo` up; `reversed` for `[0 : 31]`-style slices,
    /// which take the same bits in the opposite order.
    Slice {
        base: Box<Expr>,
        lo: Box<Expr>,
        reversed: bool,
    },
    /// RDNA2's `S0.f16[1]`: lane `index` of a packed vector of `ty`-sized elements.
    Lane {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    /// `{ hi, ..., lo }`.
    Concat(Vec<Expr>),
    Convert {
        expr: Box<Expr>,
        how: ConvKind,
    },
    Unary {
        op: UnOp,
        expr: Box<Expr>,
    },
    /// Operands have been converted to a common type (except shift amounts, and `**`'s
    /// exponent, which keep theirs).
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Select {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    /// A runtime helper (see [`super::helpers`]).
    Call {
        func: String,
        args: Vec<Expr>,
    },
    /// A call of `Ir::lambdas[instance]`.
    CallLambda {
        instance: usize,
        args: Vec<Expr>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Place {
    pub ty: Ty,
    pub kind: PlaceKind,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaceKind {
    Local(String),
    Element {
        array: String,
        index: Box<Expr>,
    },
    Reg(String),
    RegElement {
        array: String,
        index: Box<Expr>,
    },
    Mem {
        space: Space,
        addr: Box<Expr>,
    },
    Vgpr {
        lane: Box<Expr>,
        reg: Box<Expr>,
    },
    Sgpr {
        reg: Box<Expr>,
    },
    Field {
        base: Box<Place>,
        name: String,
    },
    /// A typed view of the base's low bits (`D0.u32`, `tmp.i64`).
    View {
        base: Box<Place>,
    },
    Bit {
        base: Box<Place>,
        index: Box<Expr>,
    },
    Slice {
        base: Box<Place>,
        lo: Box<Expr>,
        reversed: bool,
    },
    Lane {
        base: Box<Place>,
        index: Box<Expr>,
    },
    /// `{ a, b } = v`: `v`'s high bits go to `a`.
    Concat(Vec<Place>),
}

impl Expr {
    pub fn new(ty: Ty, kind: ExprKind, span: Span) -> Expr {
        Expr { ty, kind, span }
    }
}
