//! Text to [`Ast`]: runs the pest grammar, then builds the tree (binary operators with pest's
//! Pratt parser). Never panics: every problem is a [`ParseError`] with a position.

use super::ast::*;
use super::grammar::{describe, PcodeParser, Rule};
use super::types::{Kind, Ty};
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use serde::Serialize;
use std::cell::Cell;
use std::fmt;
use std::sync::OnceLock;

/// Deepest nesting accepted, in levels: every expression and operator counts one, every
/// statement block four. The corpus stays far below it (blocks 3 deep, expressions 12); the
/// limit keeps the recursive tree builder, type checker and printer off the stack's end when
/// fed adversarial input, even in debug builds on 2 MiB threads.
pub const MAX_NESTING: usize = 96;

/// How many nesting levels one statement block counts for (see [`MAX_NESTING`]).
const BLOCK_LEVELS: usize = 4;

/// Why a text is not valid pseudocode, and where.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ParseError {
    /// Byte offset in the entry text.
    pub offset: usize,
    /// 1-based line and column (in characters) within the entry text.
    pub line: u32,
    pub column: u32,
    /// The offending text at that position (up to the end of its word), or `end of entry`.
    pub found: String,
    /// What the grammar would have accepted there, in words.
    pub expected: Vec<String>,
    /// A one-line explanation.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl ParseError {
    pub fn at(
        text: &str,
        offset: usize,
        expected: Vec<String>,
        message: impl Into<String>,
    ) -> ParseError {
        let offset = floor_char_boundary(text, offset.min(text.len()));
        let (line, column) = line_col(text, offset);
        ParseError {
            offset,
            line,
            column,
            found: found_at(text, offset),
            expected,
            message: message.into(),
        }
    }
}

/// 1-based line and character column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (u32, u32) {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map(|i| i + 1).unwrap_or(0);
    let column = before[line_start..].chars().count() + 1;
    (line as u32, column as u32)
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The word (or single symbol) at `offset`, for "found ..." in messages.
fn found_at(text: &str, offset: usize) -> String {
    let rest = &text[offset..];
    let rest = rest.trim_start_matches([' ', '\t']);
    if rest.is_empty() {
        return "end of entry".to_string();
    }
    if rest.starts_with('\n') || rest.starts_with('\r') {
        return "end of line".to_string();
    }
    let word: String = if rest.starts_with(|c: char| c.is_alphanumeric() || c == '_') {
        rest.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '\'')
            .collect()
    } else {
        rest.chars().take(1).collect()
    };
    word.chars().take(40).collect()
}

/// Parses one entry's pseudocode.
pub fn parse_entry(text: &str) -> Result<Ast, ParseError> {
    let mut pairs = PcodeParser::parse(Rule::program, text).map_err(|e| from_pest(text, e))?;
    let program = pairs
        .next()
        .ok_or_else(|| ParseError::at(text, 0, vec![], "empty parse"))?;
    let builder = Builder {
        text,
        depth: Cell::new(0),
    };
    let block = program
        .into_inner()
        .find(|p| p.as_rule() == Rule::block)
        .ok_or_else(|| ParseError::at(text, 0, vec![], "no statements"))?;
    Ok(Ast {
        stmts: builder.block(block)?,
    })
}

fn from_pest(text: &str, e: pest::error::Error<Rule>) -> ParseError {
    let offset = match e.location {
        pest::error::InputLocation::Pos(p) => p,
        pest::error::InputLocation::Span((s, _)) => s,
    };
    match e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut expected: Vec<String> = Vec::new();
            for rule in positives {
                let d = describe(rule).to_string();
                if !expected.contains(&d) {
                    expected.push(d);
                }
            }
            let expected = summarize(expected);
            let found = found_at(text, offset.min(text.len()));
            let message = if expected.is_empty() {
                format!("unexpected {found}")
            } else {
                format!("expected {}, found {found}", expected.join(" or "))
            };
            ParseError::at(text, offset, expected, message)
        }
        pest::error::ErrorVariant::CustomError { message } => {
            // pest stops at its stack or call limit on very deep nesting.
            let message = if message.contains("limit") {
                format!("text nested too deeply to parse ({message})")
            } else {
                message
            };
            ParseError::at(text, offset, vec![], message)
        }
    }
}

/// Folds the many ways a statement can start into one word, so that messages stay short.
fn summarize(expected: Vec<String>) -> Vec<String> {
    const STATEMENT_STARTS: &[&str] = &[
        "`declare`",
        "`if`",
        "`for`",
        "`while`",
        "`return`",
        "`break`",
        "`continue`",
        "`next if`",
        "quoted English step",
        "C type name",
        "name",
        "expression",
        "call",
        "`lambda`",
        "`name(params) := expression`",
        "statement",
    ];
    let starts = expected
        .iter()
        .filter(|e| STATEMENT_STARTS.contains(&e.as_str()))
        .count();
    if starts < 4 {
        return expected;
    }
    let mut out: Vec<String> = expected
        .into_iter()
        .filter(|e| !STATEMENT_STARTS.contains(&e.as_str()))
        .collect();
    out.push("statement".to_string());
    out
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::op_lor, Assoc::Left))
            .op(Op::infix(Rule::op_land, Assoc::Left))
            .op(Op::infix(Rule::op_bor, Assoc::Left))
            .op(Op::infix(Rule::op_bxor, Assoc::Left))
            .op(Op::infix(Rule::op_band, Assoc::Left))
            .op(Op::infix(Rule::op_eq, Assoc::Left)
                | Op::infix(Rule::op_ne, Assoc::Left)
                | Op::infix(Rule::op_ne_alt, Assoc::Left))
            .op(Op::infix(Rule::op_lt, Assoc::Left)
                | Op::infix(Rule::op_le, Assoc::Left)
                | Op::infix(Rule::op_gt, Assoc::Left)
                | Op::infix(Rule::op_ge, Assoc::Left))
            .op(Op::infix(Rule::op_shl, Assoc::Left) | Op::infix(Rule::op_shr, Assoc::Left))
            .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
            .op(Op::infix(Rule::op_mul, Assoc::Left)
                | Op::infix(Rule::op_div, Assoc::Left)
                | Op::infix(Rule::op_mod, Assoc::Left)
                | Op::infix(Rule::op_mod_word, Assoc::Left))
            .op(Op::infix(Rule::op_pow, Assoc::Right))
            .op(Op::prefix(Rule::op_neg)
                | Op::prefix(Rule::op_pos)
                | Op::prefix(Rule::op_not)
                | Op::prefix(Rule::op_bnot)
                | Op::prefix(Rule::op_plus_minus)
                | Op::prefix(Rule::c_cast))
            .op(Op::postfix(Rule::accessor) | Op::postfix(Rule::bracket))
    })
}

fn span_of(pair: &Pair<'_, Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

type PResult<T> = Result<T, ParseError>;

/// Builds the AST from pest pairs, tracking nesting depth.
struct Builder<'t> {
    text: &'t str,
    depth: Cell<usize>,
}

impl<'t> Builder<'t> {
    fn err(&self, offset: usize, message: impl Into<String>) -> ParseError {
        ParseError::at(self.text, offset, vec![], message)
    }

    /// Runs `f` one level deeper, failing beyond [`MAX_NESTING`].
    fn nested<T>(&self, offset: usize, f: impl FnOnce() -> PResult<T>) -> PResult<T> {
        self.nested_by(1, offset, f)
    }

    fn nested_by<T>(
        &self,
        levels: usize,
        offset: usize,
        f: impl FnOnce() -> PResult<T>,
    ) -> PResult<T> {
        let before = self.depth.get();
        let d = before + levels;
        if d > MAX_NESTING {
            return Err(self.err(offset, format!("nesting deeper than {MAX_NESTING} levels")));
        }
        self.depth.set(d);
        let r = f();
        self.depth.set(before);
        r
    }

    fn block(&self, pair: Pair<'_, Rule>) -> PResult<Vec<Stmt>> {
        let offset = pair.as_span().start();
        // A statement block costs far more stack than an expression level in the recursive
        // passes, so it counts as several (the corpus nests blocks at most 3 deep).
        self.nested_by(BLOCK_LEVELS, offset, || {
            let mut stmts = Vec::new();
            for p in pair.into_inner() {
                stmts.extend(self.stmt(p)?);
            }
            Ok(stmts)
        })
    }

    fn ident(&self, pair: Pair<'_, Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: span_of(&pair),
        }
    }

    fn stmt(&self, pair: Pair<'_, Rule>) -> PResult<Vec<Stmt>> {
        let span = span_of(&pair);
        let rule = pair.as_rule();
        let mut inner = pair.into_inner();
        let kind = match rule {
            Rule::declare_stmt => {
                let mut name = None;
                let mut ty = None;
                let mut len = None;
                for p in inner {
                    match p.as_rule() {
                        Rule::ident => name = Some(self.ident(p)),
                        Rule::sized_type => ty = Some(self.sized_type(&p)?),
                        Rule::expr => len = Some(self.expr(p)?),
                        _ => {}
                    }
                }
                let (name, ty) = name
                    .zip(ty)
                    .ok_or_else(|| self.err(span.start as usize, "malformed declare"))?;
                StmtKind::Declare {
                    name,
                    ty,
                    len,
                    init: None,
                }
            }
            Rule::if_stmt => {
                let mut arms = Vec::new();
                let mut otherwise = None;
                let mut cond = None;
                for p in inner {
                    match p.as_rule() {
                        Rule::expr => cond = Some(self.expr(p)?),
                        Rule::block => {
                            let c = cond.take().ok_or_else(|| {
                                self.err(span.start as usize, "if without condition")
                            })?;
                            arms.push((c, self.block(p)?));
                        }
                        Rule::elsif_arm => arms.push(self.cond_block(p)?),
                        Rule::else_arm => {
                            let b = p.into_inner().find(|q| q.as_rule() == Rule::block);
                            otherwise = Some(match b {
                                Some(b) => self.block(b)?,
                                None => Vec::new(),
                            });
                        }
                        _ => {}
                    }
                }
                StmtKind::If { arms, otherwise }
            }
            Rule::for_stmt => {
                let mut var = None;
                let mut bounds = Vec::new();
                let mut body = Vec::new();
                for p in inner {
                    match p.as_rule() {
                        Rule::ident => var = Some(self.ident(p)),
                        Rule::expr => bounds.push(self.expr(p)?),
                        Rule::block => body = self.block(p)?,
                        _ => {}
                    }
                }
                let var =
                    var.ok_or_else(|| self.err(span.start as usize, "for without a variable"))?;
                let mut bounds = bounds.into_iter();
                let (from, to) = bounds
                    .next()
                    .zip(bounds.next())
                    .ok_or_else(|| self.err(span.start as usize, "for without bounds"))?;
                StmtKind::For {
                    var,
                    from,
                    to,
                    body,
                }
            }
            Rule::while_stmt => {
                let mut cond = None;
                let mut body = Vec::new();
                for p in inner {
                    match p.as_rule() {
                        Rule::expr => cond = Some(self.expr(p)?),
                        Rule::block => body = self.block(p)?,
                        _ => {}
                    }
                }
                let cond =
                    cond.ok_or_else(|| self.err(span.start as usize, "while without condition"))?;
                StmtKind::While { cond, body }
            }
            Rule::return_stmt => {
                let value = inner
                    .find(|p| p.as_rule() == Rule::expr)
                    .map(|p| self.expr(p))
                    .transpose()?;
                StmtKind::Return(value)
            }
            Rule::note_stmt => StmtKind::Note(text_of_note(&span, self.text)),
            Rule::break_stmt => StmtKind::Break,
            Rule::continue_stmt => StmtKind::Continue,
            Rule::next_if_stmt => {
                let cond = inner
                    .find(|p| p.as_rule() == Rule::expr)
                    .ok_or_else(|| self.err(span.start as usize, "next if without condition"))?;
                let cond = self.expr(cond)?;
                let skip = Stmt {
                    kind: StmtKind::Continue,
                    span,
                };
                StmtKind::If {
                    arms: vec![(cond, vec![skip])],
                    otherwise: None,
                }
            }
            Rule::lambda_def | Rule::old_lambda_def => {
                let mut name = None;
                let mut params = Vec::new();
                let mut body = None;
                for p in inner {
                    match p.as_rule() {
                        Rule::ident => name = Some(self.ident(p)),
                        Rule::callee => name = p.into_inner().next().map(|i| self.ident(i)),
                        Rule::param_list => {
                            params = p.into_inner().map(|i| self.ident(i)).collect()
                        }
                        Rule::expr => body = Some(LambdaBody::Expr(self.expr(p)?)),
                        Rule::lambda_body => {
                            let b = p
                                .into_inner()
                                .next()
                                .ok_or_else(|| self.err(span.start as usize, "empty lambda"))?;
                            body = Some(match b.as_rule() {
                                Rule::expr => LambdaBody::Expr(self.expr(b)?),
                                _ => LambdaBody::Block(self.block(b)?),
                            });
                        }
                        _ => {}
                    }
                }
                let (name, body) = name
                    .zip(body)
                    .ok_or_else(|| self.err(span.start as usize, "malformed lambda"))?;
                StmtKind::Lambda { name, params, body }
            }
            Rule::c_decl_stmt => {
                let mut ty = None;
                let mut name = None;
                let mut init = None;
                for p in inner {
                    match p.as_rule() {
                        Rule::c_type => ty = c_type(p.as_str()),
                        Rule::ident => name = Some(self.ident(p)),
                        Rule::expr => init = Some(self.expr(p)?),
                        _ => {}
                    }
                }
                let (name, ty) = name
                    .zip(ty)
                    .ok_or_else(|| self.err(span.start as usize, "malformed declaration"))?;
                StmtKind::Declare {
                    name,
                    ty,
                    len: None,
                    init,
                }
            }
            Rule::assign_stmt => {
                let target = inner
                    .next()
                    .ok_or_else(|| self.err(span.start as usize, "missing target"))?;
                let target = self.postfix_expr(target)?;
                let op = inner
                    .next()
                    .ok_or_else(|| self.err(span.start as usize, "missing operator"))?;
                let op = assign_op(op.as_str())
                    .ok_or_else(|| self.err(op.as_span().start(), "unknown assignment operator"))?;
                let mut rest: Vec<Pair<'_, Rule>> = inner.collect();
                let value = rest
                    .pop()
                    .ok_or_else(|| self.err(span.start as usize, "missing value"))?;
                let value = self.expr(value)?;
                if rest.is_empty() {
                    StmtKind::Assign { target, op, value }
                } else {
                    // `a = b = v` becomes `b = v; a = b`, as in C.
                    let mut stmts = Vec::new();
                    let mut value = value;
                    for t in rest.into_iter().rev() {
                        let t = self.postfix_expr(t)?;
                        stmts.push(Stmt {
                            kind: StmtKind::Assign {
                                target: t.clone(),
                                op: AssignOp::Set,
                                value,
                            },
                            span,
                        });
                        value = t;
                    }
                    stmts.push(Stmt {
                        kind: StmtKind::Assign { target, op, value },
                        span,
                    });
                    return Ok(stmts);
                }
            }
            Rule::expr_stmt => {
                let call = inner
                    .next()
                    .ok_or_else(|| self.err(span.start as usize, "missing call"))?;
                StmtKind::Call(self.primary(call)?)
            }
            other => return Err(self.err(span.start as usize, format!("unexpected {other:?}"))),
        };
        Ok(vec![Stmt { kind, span }])
    }

    fn cond_block(&self, pair: Pair<'_, Rule>) -> PResult<(Expr, Vec<Stmt>)> {
        let start = pair.as_span().start();
        let mut cond = None;
        let mut body = Vec::new();
        for p in pair.into_inner() {
            match p.as_rule() {
                Rule::expr => cond = Some(self.expr(p)?),
                Rule::block => body = self.block(p)?,
                _ => {}
            }
        }
        Ok((
            cond.ok_or_else(|| self.err(start, "missing condition"))?,
            body,
        ))
    }

    fn sized_type(&self, pair: &Pair<'_, Rule>) -> PResult<Ty> {
        let text = pair.as_str();
        let (w, letters) = text
            .split_once('\'')
            .ok_or_else(|| self.err(pair.as_span().start(), "bad sized type"))?;
        let width = self.width(w, pair.as_span().start())?;
        Ty::from_sized(width, letters).ok_or_else(|| {
            self.err(
                pair.as_span().start(),
                format!("unknown type letter `{letters}`"),
            )
        })
    }

    fn width(&self, digits: &str, offset: usize) -> PResult<u32> {
        match digits.parse::<u32>() {
            Ok(w) if (1..=4096).contains(&w) => Ok(w),
            _ => Err(self.err(offset, format!("width `{digits}` out of range 1..=4096"))),
        }
    }

    fn expr(&self, pair: Pair<'_, Rule>) -> PResult<Expr> {
        let offset = pair.as_span().start();
        self.nested(offset, || {
            let span = span_of(&pair);
            let mut inner = pair.into_inner();
            let binary = inner
                .next()
                .ok_or_else(|| self.err(offset, "empty expression"))?;
            let cond = self.binary(binary.into_inner())?;
            match (inner.next(), inner.next()) {
                (Some(then), Some(otherwise)) => Ok(Expr::new(
                    ExprKind::Ternary {
                        cond: Box::new(cond),
                        then: Box::new(self.expr(then)?),
                        otherwise: Box::new(self.expr(otherwise)?),
                    },
                    span,
                )),
                _ => Ok(cond),
            }
        })
    }

    fn postfix_expr(&self, pair: Pair<'_, Rule>) -> PResult<Expr> {
        self.binary(pair.into_inner())
    }

    fn binary(&self, pairs: Pairs<'_, Rule>) -> PResult<Expr> {
        let offset = pairs.peek().map(|p| p.as_span().start()).unwrap_or(0);
        // The lookahead markers carry no meaning; the Pratt parser must not see them.
        let items: Vec<Pair<'_, Rule>> = pairs.filter(|p| !is_marker(p.as_rule())).collect();
        check_operand_sequence(&items)
            .map_err(|at| self.err(at.unwrap_or(offset), "malformed expression"))?;
        // Every operator adds a level to the tree, so it counts against the nesting limit.
        let operators = items.iter().filter(|p| !is_primary(p.as_rule())).count();
        let d = self.depth.get();
        if d + operators > MAX_NESTING {
            return Err(self.err(
                offset,
                format!("expression deeper than {MAX_NESTING} levels"),
            ));
        }
        self.depth.set(d + operators);
        let r = self.pratt_build(items.into_iter());
        self.depth.set(d);
        r
    }

    fn pratt_build<'i>(&self, pairs: impl Iterator<Item = Pair<'i, Rule>>) -> PResult<Expr> {
        pratt()
            .map_primary(|p| self.primary(p))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = span_of(&op).to(rhs.span);
                let kind = match op.as_rule() {
                    Rule::c_cast => {
                        let ty = op
                            .into_inner()
                            .next()
                            .map(|t| t.as_str().to_string())
                            .unwrap_or_default();
                        ExprKind::CCast {
                            ty,
                            expr: Box::new(rhs),
                        }
                    }
                    rule => {
                        let op = match rule {
                            Rule::op_neg => UnOp::Neg,
                            Rule::op_pos => UnOp::Plus,
                            Rule::op_not => UnOp::Not,
                            Rule::op_bnot => UnOp::BitNot,
                            _ => UnOp::PlusMinus,
                        };
                        ExprKind::Unary {
                            op,
                            expr: Box::new(rhs),
                        }
                    }
                };
                Ok(Expr::new(kind, span))
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let span = lhs.span.to(span_of(&op));
                match op.as_rule() {
                    Rule::accessor => {
                        let name = op.into_inner().next().map(|n| n.as_str()).unwrap_or("");
                        Ok(Expr::new(accessor_kind(lhs, name), span))
                    }
                    _ => self.bracket(lhs, op, span),
                }
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let op = match op.as_rule() {
                    Rule::op_lor => BinOp::LogOr,
                    Rule::op_land => BinOp::LogAnd,
                    Rule::op_bor => BinOp::BitOr,
                    Rule::op_bxor => BinOp::BitXor,
                    Rule::op_band => BinOp::BitAnd,
                    Rule::op_eq => BinOp::Eq,
                    Rule::op_ne | Rule::op_ne_alt => BinOp::Ne,
                    Rule::op_lt => BinOp::Lt,
                    Rule::op_le => BinOp::Le,
                    Rule::op_gt => BinOp::Gt,
                    Rule::op_ge => BinOp::Ge,
                    Rule::op_shl => BinOp::Shl,
                    Rule::op_shr => BinOp::Shr,
                    Rule::op_add => BinOp::Add,
                    Rule::op_sub => BinOp::Sub,
                    Rule::op_mul => BinOp::Mul,
                    Rule::op_div => BinOp::Div,
                    Rule::op_mod | Rule::op_mod_word => BinOp::Mod,
                    _ => BinOp::Pow,
                };
                let span = lhs.span.to(rhs.span);
                Ok(Expr::new(
                    ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    span,
                ))
            })
            .parse(pairs)
    }

    fn bracket(&self, base: Expr, op: Pair<'_, Rule>, span: Span) -> PResult<Expr> {
        let mut inner = op.into_inner();
        let first = inner
            .next()
            .ok_or_else(|| self.err(span.start as usize, "empty brackets"))?;
        let first = Box::new(self.expr(first)?);
        let base = Box::new(base);
        let kind = match inner.next() {
            None => ExprKind::Index { base, index: first },
            Some(tail) => {
                let rule = tail.as_rule();
                let second = tail
                    .into_inner()
                    .next()
                    .ok_or_else(|| self.err(span.start as usize, "missing bound"))?;
                let second = Box::new(self.expr(second)?);
                if rule == Rule::slice_tail {
                    ExprKind::Slice {
                        base,
                        hi: first,
                        lo: second,
                    }
                } else {
                    ExprKind::PartSelect {
                        base,
                        start: first,
                        width: second,
                    }
                }
            }
        };
        Ok(Expr::new(kind, span))
    }

    fn primary(&self, pair: Pair<'_, Rule>) -> PResult<Expr> {
        let span = span_of(&pair);
        let offset = span.start as usize;
        let kind = match pair.as_rule() {
            Rule::ident => ExprKind::Name(pair.as_str().to_string()),
            Rule::int_literal => self.int_literal(pair.as_str(), offset)?,
            Rule::float_literal => float_literal(pair.as_str(), None)
                .ok_or_else(|| self.err(offset, "bad float literal"))?,
            Rule::sized_literal => self.sized_literal(pair.as_str(), offset)?,
            Rule::cast => {
                let mut inner = pair.into_inner();
                let ty = inner
                    .next()
                    .ok_or_else(|| self.err(offset, "missing cast type"))?;
                let ty = self.sized_type(&ty)?;
                let e = inner
                    .next()
                    .ok_or_else(|| self.err(offset, "missing cast operand"))?;
                ExprKind::Cast {
                    ty,
                    expr: Box::new(self.expr(e)?),
                }
            }
            Rule::name | Rule::call => {
                let mut name = None;
                let mut call_args = None;
                for p in pair.into_inner() {
                    match p.as_rule() {
                        Rule::ident => name = Some(self.ident(p)),
                        Rule::call_args => {
                            let list = p.into_inner().find(|a| a.as_rule() == Rule::arg_list);
                            let args = match list {
                                Some(l) => l
                                    .into_inner()
                                    .map(|a| self.expr(a))
                                    .collect::<PResult<Vec<_>>>()?,
                                None => Vec::new(),
                            };
                            call_args = Some(args);
                        }
                        _ => {}
                    }
                }
                let name = name.ok_or_else(|| self.err(offset, "missing name"))?;
                match call_args {
                    Some(args) => ExprKind::Call { name, args },
                    None => ExprKind::Name(name.name),
                }
            }
            Rule::concat => ExprKind::Concat(
                pair.into_inner()
                    .map(|p| self.expr(p))
                    .collect::<PResult<Vec<_>>>()?,
            ),
            Rule::paren => {
                let e = pair
                    .into_inner()
                    .next()
                    .ok_or_else(|| self.err(offset, "empty parentheses"))?;
                return self.expr(e);
            }
            other => return Err(self.err(offset, format!("unexpected {other:?} in expression"))),
        };
        Ok(Expr::new(kind, span))
    }

    fn int_literal(&self, text: &str, offset: usize) -> PResult<ExprKind> {
        let (digits, suffix) = split_int_suffix(text);
        let (value, hex) = parse_int(digits).ok_or_else(|| {
            self.err(offset, format!("integer `{text}` does not fit in 128 bits"))
        })?;
        Ok(ExprKind::Int {
            value,
            suffix,
            hex,
            sized: None,
        })
    }

    fn sized_literal(&self, text: &str, offset: usize) -> PResult<ExprKind> {
        let (w, body) = text
            .split_once('\'')
            .ok_or_else(|| self.err(offset, "bad sized literal"))?;
        let width = self.width(w, offset)?;
        if body.contains('.') {
            let ty = Ty::new(Kind::Float, width);
            if !super::types::float_format_exists(Kind::Float, width) {
                return Err(self.err(offset, format!("no {width}-bit float format")));
            }
            return float_literal(body, Some(ty))
                .ok_or_else(|| self.err(offset, "bad float literal"));
        }
        let (digits, suffix) = split_int_suffix(body);
        let parsed = if let Some(h) = digits.strip_prefix('h') {
            u128::from_str_radix(&h.replace('_', ""), 16)
                .ok()
                .map(|v| (v, true))
        } else if let Some(b) = digits.strip_prefix('b') {
            u128::from_str_radix(b, 2).ok().map(|v| (v, false))
        } else if let Some(d) = digits.strip_prefix('d') {
            d.parse::<u128>().ok().map(|v| (v, false))
        } else {
            parse_int(digits)
        };
        let (value, hex) = parsed.ok_or_else(|| {
            self.err(offset, format!("literal `{text}` does not fit in 128 bits"))
        })?;
        let kind = match suffix {
            IntSuffix::U | IntSuffix::ULL => Kind::Unsigned,
            IntSuffix::LL => Kind::Signed,
            IntSuffix::None => Kind::Bits,
        };
        Ok(ExprKind::Int {
            value,
            suffix,
            hex,
            sized: Some(Ty::new(kind, width)),
        })
    }
}

fn text_of_note(span: &Span, text: &str) -> String {
    let quoted = text
        .get(span.start as usize..span.end as usize)
        .unwrap_or("");
    quoted.trim_matches('"').to_string()
}

fn is_marker(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::infix_start | Rule::prefix_start | Rule::postfix_start
    )
}

fn is_prefix(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::op_neg
            | Rule::op_pos
            | Rule::op_not
            | Rule::op_bnot
            | Rule::op_plus_minus
            | Rule::c_cast
    )
}

fn is_postfix(rule: Rule) -> bool {
    matches!(rule, Rule::accessor | Rule::bracket)
}

/// Checks `prefix* primary postfix* (infix prefix* primary postfix*)*`, the only shape the
/// Pratt parser accepts (it panics on anything else). `Err` holds the offset of the first
/// pair out of place.
fn check_operand_sequence(items: &[Pair<'_, Rule>]) -> Result<(), Option<usize>> {
    let mut expect_operand = true;
    for p in items {
        let r = p.as_rule();
        let ok = if expect_operand {
            if is_primary(r) {
                expect_operand = false;
                true
            } else {
                is_prefix(r)
            }
        } else if is_postfix(r) {
            true
        } else if !is_primary(r) && !is_prefix(r) {
            expect_operand = true;
            true
        } else {
            false
        };
        if !ok {
            return Err(Some(p.as_span().start()));
        }
    }
    if expect_operand {
        Err(items.last().map(|p| p.as_span().end()))
    } else {
        Ok(())
    }
}

fn is_primary(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::cast
            | Rule::sized_literal
            | Rule::float_literal
            | Rule::int_literal
            | Rule::call
            | Rule::name
            | Rule::concat
            | Rule::paren
            | Rule::ident
    )
}

/// `.u32` → typed read; `.f16_lo` → RDNA2 half; anything else → field.
fn accessor_kind(base: Expr, name: &str) -> ExprKind {
    if let Some(ty) = Ty::from_accessor(name) {
        return ExprKind::Typed {
            base: Box::new(base),
            ty,
            half: None,
        };
    }
    for (suffix, half) in [("_lo", Half::Lo), ("_hi", Half::Hi)] {
        if let Some(ty) = name.strip_suffix(suffix).and_then(Ty::from_accessor) {
            return ExprKind::Typed {
                base: Box::new(base),
                ty,
                half: Some(half),
            };
        }
    }
    ExprKind::Field {
        base: Box::new(base),
        name: name.to_string(),
    }
}

fn assign_op(s: &str) -> Option<AssignOp> {
    Some(match s {
        "=" => AssignOp::Set,
        "+=" => AssignOp::Add,
        "-=" => AssignOp::Sub,
        "*=" => AssignOp::Mul,
        "/=" => AssignOp::Div,
        "%=" => AssignOp::Mod,
        "&=" => AssignOp::And,
        "|=" => AssignOp::Or,
        "^=" => AssignOp::Xor,
        "<<=" => AssignOp::Shl,
        ">>=" => AssignOp::Shr,
        _ => return None,
    })
}

/// RDNA2's C type names.
pub fn c_type(name: &str) -> Option<Ty> {
    Some(match name {
        "uint64" => Ty::U64,
        "uint32" | "unsigned" => Ty::U32,
        "uint16" => Ty::unsigned(16),
        "uint8" => Ty::unsigned(8),
        "int64" => Ty::I64,
        "int32" | "int" => Ty::I32,
        "int16" => Ty::signed(16),
        "int8" => Ty::signed(8),
        "float" => Ty::F32,
        "double" => Ty::F64,
        "snorm" => Ty::signed(16),
        "unorm" => Ty::unsigned(16),
        _ => return None,
    })
}

fn split_int_suffix(text: &str) -> (&str, IntSuffix) {
    let upper_end = text.trim_end_matches(['U', 'u', 'L', 'l']);
    // Hex digits never include U or L, so trimming them is safe for hex literals too.
    let suffix = &text[upper_end.len()..];
    let s = match suffix.to_ascii_uppercase().as_str() {
        "" => IntSuffix::None,
        "U" => IntSuffix::U,
        "L" | "LL" => IntSuffix::LL,
        _ => IntSuffix::ULL,
    };
    (upper_end, s)
}

fn parse_int(digits: &str) -> Option<(u128, bool)> {
    if let Some(h) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        u128::from_str_radix(&h.replace('_', ""), 16)
            .ok()
            .map(|v| (v, true))
    } else {
        digits.parse::<u128>().ok().map(|v| (v, false))
    }
}

fn float_literal(text: &str, sized: Option<Ty>) -> Option<ExprKind> {
    let single = text.ends_with(['F', 'f']);
    let digits = text.trim_end_matches(['F', 'f']);
    let value: f64 = digits.parse().ok()?;
    Some(ExprKind::Float {
        value,
        single,
        sized,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ast(text: &str) -> String {
        match parse_entry(text) {
            Ok(a) => a.to_string(),
            Err(e) => panic!("{text:?}: {e} (expected {:?})", e.expected),
        }
    }

    #[test]
    fn precedence_follows_c() {
        assert_eq!(ast("x = a + b * c"), "(= x (+ a (* b c)))");
        assert_eq!(ast("x = a << 1 + 2"), "(= x (<< a (+ 1 2)))");
        assert_eq!(ast("x = a & b == c"), "(= x (& a (== b c)))");
        assert_eq!(ast("x = a || b && c"), "(= x (|| a (&& b c)))");
        assert_eq!(ast("x = 2.0 ** a ** b"), "(= x (** 2.0 (** a b)))");
        assert_eq!(ast("x = -a.u32[3]"), "(= x (- a.u32[3]))");
        assert_eq!(
            ast("x = a > b ? a - b : b - a"),
            "(= x (? (> a b) (- a b) (- b a)))"
        );
    }

    #[test]
    fn errors_point_at_the_offending_token() {
        let e = parse_entry("x = 1;\ny = = 2").unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        assert_eq!(e.found, "=");
        assert!(
            e.expected.iter().any(|x| x == "expression"),
            "{:?}",
            e.expected
        );
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let text = format!("x = {}1{}", "(".repeat(5000), ")".repeat(5000));
        assert!(parse_entry(&text).is_err());
    }
}
