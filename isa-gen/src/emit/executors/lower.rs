//! Lowering one entry's typed IR (`pcode::ir`) to the body of an `ExecFn`.
//!
//! Values: every IR type maps to a Rust type ([`Rt`]): `bool`; integers and bit strings to
//! the smallest of `u8..u128` / `i8..i128` that holds them (a width that is not a Rust width,
//! such as `u24` or `i4`, is kept normalised: zero- or sign-extended in its container); f16,
//! f32, f64, bf16 to the runtime's exact float types (arithmetic through
//! `exec::float`, with MODE's rounding and denormal controls); fp8/bf8/fp6/fp4 to their bits in
//! a `u8` (only conversions apply to them). Bit manipulation goes through `u128`.
//!
//! Execution: scalar families run the body once; vector families run it once per active lane
//! (`laneId` = the lane), reading sources loaded for all lanes before the loop and writing
//! destinations after it, as the hardware does. A vector entry that names other lanes'
//! registers (`VGPR[i][ADDR]`, `VGPR[lane][SRC0]`: `DS_BPERMUTE_B32`,
//! `V_READFIRSTLANE_B32`) runs once for the wave, as written. Operands that are written are
//! local values (loaded from the register when the entry reads them or writes only part of
//! them) stored when the lane or instruction ends; memory, EXEC, SCC, M0 and the other wave
//! state are read and written where the pseudocode does.

mod exprs;
mod queries;
mod share;
mod simplify;
mod stmts;

use queries::*;
pub(crate) use queries::{helper, names_other_lanes, reads_name};

pub(crate) use share::share_identical;

use super::binding::{resolve, Family, FormBinding, NameRef, Role};
use crate::pcode::ast::{AssignOp, BinOp, UnOp};
use crate::pcode::ir::{
    ConvKind, Expr, ExprKind, Ir, LambdaInstance, Place, PlaceKind, Space, Stmt,
};
use crate::pcode::types::{Kind, Ty};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use std::collections::{BTreeMap, BTreeSet, HashMap};

/// How the body runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExecMode {
    /// Once (scalar families).
    Scalar,
    /// Once per active lane.
    Lane,
    /// Once for the whole wave, naming lanes explicitly.
    Wave,
}

/// What the lowering needs to know about the instruction.
pub(crate) struct Ctx<'a> {
    pub name: &'a str,
    pub family: Family,
    pub forms: &'a [FormBinding],
    pub ir: &'a Ir,
}

/// What the lowering does not translate, by kind (the coverage report groups by it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum Gap {
    /// Values or operand parts wider than 128 bits.
    WideValue,
    /// An operand used in a way its forms do not allow (vector in some forms, scalar in
    /// others; a vector operand outside a lane loop).
    OperandShape,
    /// A name, constant, field, variable or call the lowering does not know.
    UnknownName,
    /// A memory access of a width, address form or family the runtime does not take.
    Memory,
    /// A float where an integer is needed (bounds, indices, addresses).
    FloatMisuse,
    /// An operator or conversion on a type the lowering does not take.
    Operation,
    /// A statement or assignment form the lowering does not take.
    Construct,
    /// A helper without a runtime implementation.
    Helper,
}

impl Gap {
    pub fn name(self) -> &'static str {
        match self {
            Gap::WideValue => "values wider than 128 bits",
            Gap::OperandShape => "operand shape",
            Gap::UnknownName => "unknown name",
            Gap::Memory => "memory access",
            Gap::FloatMisuse => "float used as an integer",
            Gap::Operation => "operation on a type",
            Gap::Construct => "statement form",
            Gap::Helper => "helper without implementation",
        }
    }

    fn because(self, detail: String) -> Unlowerable {
        Unlowerable { kind: self, detail }
    }
}

/// Why a body cannot be lowered: the kind and the detail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unlowerable {
    pub kind: Gap,
    pub detail: String,
}

type Res<T> = Result<T, Unlowerable>;

/// The Rust representation of a value type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rt {
    Bool,
    /// Unsigned container of this many bits.
    U(u32),
    /// Signed container.
    I(u32),
    /// f16, f32, f64.
    F(u32),
    Bf16,
}

fn container(width: u32) -> Res<u32> {
    Ok(match width {
        0..=8 => 8,
        9..=16 => 16,
        17..=32 => 32,
        33..=64 => 64,
        65..=128 => 128,
        _ => {
            return Err(Gap::WideValue.because(format!(
                "values of {width} bits (wider than 128) are not supported"
            )))
        }
    })
}

fn rt_of(ty: Ty) -> Res<Rt> {
    Ok(match ty.kind {
        Kind::Bool => Rt::Bool,
        Kind::Unsigned | Kind::Bits => Rt::U(container(ty.width)?),
        Kind::Signed => Rt::I(container(ty.width)?),
        Kind::Float if matches!(ty.width, 16 | 32 | 64) => Rt::F(ty.width),
        Kind::BFloat if ty.width == 16 => Rt::Bf16,
        // fp8, bf8, fp6, bf6, fp4: their bits.
        Kind::Float | Kind::BFloat => Rt::U(8),
    })
}

fn is_small_float(ty: Ty) -> bool {
    ty.is_float() && rt_of(ty) == Ok(Rt::U(8))
}

fn rt_tokens(rt: Rt) -> TokenStream {
    match rt {
        Rt::Bool => quote!(bool),
        Rt::U(c) => {
            let i = format_ident!("u{}", c);
            quote!(#i)
        }
        Rt::I(c) => {
            let i = format_ident!("i{}", c);
            quote!(#i)
        }
        Rt::F(16) => quote!(F16),
        Rt::F(32) => quote!(F32),
        Rt::F(_) => quote!(F64),
        Rt::Bf16 => quote!(BF16),
    }
}

/// The lower-case name of a Rust representation (`u32`, `f64`, `bf16`), as the runtime's
/// per-type shorthands spell it (`rt::co_u32`, `rt::cast_f64`).
fn rt_name(rt: Rt) -> String {
    match rt {
        Rt::Bool => "bool".into(),
        Rt::U(c) => format!("u{c}"),
        Rt::I(c) => format!("i{c}"),
        Rt::F(c) => format!("f{c}"),
        Rt::Bf16 => "bf16".into(),
    }
}

/// A float `x` converted to the float type `to` with MODE's controls
/// (`fl::cast::<_, T>(w.mode.env::<T>(), x)`, spelled `rt::cast_<t>(w.mode, x)`).
fn float_cast(to: Ty, x: TokenStream) -> Res<TokenStream> {
    let f = format_ident!("cast_{}", rt_name(rt_of(to)?));
    Ok(quote!(rt::#f(w.mode, #x)))
}

fn ty_tokens(ty: Ty) -> Res<TokenStream> {
    Ok(rt_tokens(rt_of(ty)?))
}

/// An integer literal of a container type.
fn int_lit(v: i128, rt: Rt) -> TokenStream {
    match rt {
        Rt::Bool => {
            if v != 0 {
                quote!(true)
            } else {
                quote!(false)
            }
        }
        Rt::U(c) => {
            let v = (v as u128) & mask(c);
            let l = match c {
                8 => Literal::u8_suffixed(v as u8),
                16 => Literal::u16_suffixed(v as u16),
                32 => Literal::u32_suffixed(v as u32),
                64 => Literal::u64_suffixed(v as u64),
                _ => Literal::u128_suffixed(v),
            };
            quote!(#l)
        }
        Rt::I(c) => {
            let l = match c {
                8 => Literal::i8_suffixed(v as i8),
                16 => Literal::i16_suffixed(v as i16),
                32 => Literal::i32_suffixed(v as i32),
                64 => Literal::i64_suffixed(v as i64),
                _ => Literal::i128_suffixed(v),
            };
            quote!((#l))
        }
        Rt::F(_) | Rt::Bf16 => quote!(compile_error!("integer literal of a float type")),
    }
}

fn mask(bits: u32) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

fn u128_lit(v: u128) -> TokenStream {
    let l = Literal::u128_suffixed(v);
    quote!(#l)
}

fn u32_lit(v: u32) -> TokenStream {
    let l = Literal::u32_suffixed(v);
    quote!(#l)
}

fn sext_const(v: u128, width: u32) -> i128 {
    if width == 0 || width >= 128 {
        return v as i128;
    }
    let s = 128 - width;
    ((v << s) as i128) >> s
}

/// `x` (of `ty`) as `u128` bits; signed values sign-extended, floats by their bits.
fn to_bits(x: TokenStream, ty: Ty) -> Res<TokenStream> {
    Ok(match rt_of(ty)? {
        Rt::Bool | Rt::U(_) => quote!(((#x) as u128)),
        Rt::I(_) => quote!(((#x) as i128 as u128)),
        Rt::F(_) | Rt::Bf16 => quote!(((#x).0 as u128)),
    })
}

/// `u128` bits as a value of `ty` (its low `ty.width` bits).
fn from_bits(b: TokenStream, ty: Ty) -> Res<TokenStream> {
    let rt = rt_of(ty)?;
    let t = rt_tokens(rt);
    Ok(match rt {
        Rt::Bool => quote!((((#b) & 1) != 0)),
        Rt::U(c) if c == ty.width || is_small_float(ty) && ty.width == 8 => quote!(((#b) as #t)),
        Rt::U(_) => {
            let m = u128_lit(mask(ty.width));
            quote!((((#b) & #m) as #t))
        }
        Rt::I(c) if c == ty.width => quote!(((#b) as #t)),
        Rt::I(_) => {
            let w = u32_lit(ty.width);
            quote!((rt::sext((#b) as i128, #w) as #t))
        }
        Rt::F(16) => quote!(F16((#b) as u16)),
        Rt::F(32) => quote!(F32((#b) as u32)),
        Rt::F(_) => quote!(F64((#b) as u64)),
        Rt::Bf16 => quote!(BF16((#b) as u16)),
    })
}

/// Keeps an integer of a non-Rust width normalised.
fn norm(x: TokenStream, ty: Ty) -> Res<TokenStream> {
    Ok(match rt_of(ty)? {
        Rt::U(c) if c != ty.width => {
            let m = int_lit(mask(ty.width) as i128, Rt::U(c));
            quote!(((#x) & #m))
        }
        Rt::I(c) if c != ty.width => {
            let t = rt_tokens(Rt::I(c));
            let w = u32_lit(ty.width);
            quote!((rt::sext((#x) as i128, #w) as #t))
        }
        _ => x,
    })
}

fn float_rt(ty: Ty) -> bool {
    matches!(rt_of(ty), Ok(Rt::F(_) | Rt::Bf16))
}

fn env(ty: Ty) -> Res<TokenStream> {
    let t = ty_tokens(ty)?;
    Ok(quote!(w.mode.env::<#t>()))
}

/// What the entry does with an operand role.
#[derive(Clone, Debug, Default)]
struct RoleUse {
    /// Widths it is read at as a value.
    reads: BTreeSet<u32>,
    /// Read as a register number (`VGPR[i][ADDR]`).
    as_reg: bool,
    written: bool,
    /// Written with less than a whole register somewhere (needs the old value).
    partial: bool,
    /// A bit written at `laneId` (a lane mask).
    lane_bit: bool,
    /// Read as a float source (modifiers apply).
    float_read: bool,
    /// D0 written whole with an integer type (an integer result).
    int_result: bool,
    /// Wider than 128 bits (`S_LOAD_B256`): a local array of dwords, accessed a dword at a
    /// time.
    wide: bool,
}

/// One lowering (the main body, or a lambda's).
pub(crate) struct Lower<'a> {
    cx: &'a Ctx<'a>,
    pub mode: ExecMode,
    in_lambda: bool,
    locals: HashMap<String, (Ty, Option<u32>)>,
    roles: BTreeMap<Role, RoleUse>,
    /// VCC in a vector ALU lane loop: a local (read, written, lane-bit written).
    vcc: (bool, bool, bool),
    pc: (bool, bool),
    lambdas: Vec<Option<TokenStream>>,
    uses_s2: bool,
    /// Roles the entry writes (known after a first pass over the body): reads of them come
    /// from their local value.
    known_written: BTreeSet<Role>,
    /// A DS entry that never names the instruction offset (RDNA3.5's `MEM[ADDR]` atomics):
    /// its `ADDR` is the lane's address plus the offset.
    ds_addr_with_offset: bool,
    /// The kind of vector memory address the body uses (`rt::AddrKind`), computed for all
    /// lanes in the prologue.
    lane_addrs: Option<TokenStream>,
    /// Nesting of conditionals and loops: an operand written inside one may keep its old
    /// value, so it is loaded first.
    depth: u32,
    /// The entry reads OPSEL/OPSEL_HI/NEG/NEG_HI itself (VOP3P mixed precision).
    reads_opsel: bool,
}

impl<'a> Lower<'a> {
    pub fn new(cx: &'a Ctx<'a>, mode: ExecMode) -> Lower<'a> {
        let uses_s2 = mentions_name(&cx.ir.body, &["S2", "SRC2"])
            || cx
                .ir
                .lambdas
                .iter()
                .any(|l| mentions_name(&l.body, &["S2", "SRC2"]));
        Lower {
            cx,
            mode,
            in_lambda: false,
            locals: HashMap::new(),
            roles: BTreeMap::new(),
            vcc: (false, false, false),
            pc: (false, false),
            lambdas: vec![None; cx.ir.lambdas.len()],
            uses_s2,
            known_written: BTreeSet::new(),
            lane_addrs: None,
            depth: 0,
            reads_opsel: mentions_name(&cx.ir.body, &["OPSEL", "OPSEL_HI", "NEG", "NEG_HI"]),
            ds_addr_with_offset: cx.family == Family::Ds && {
                let text = format!("{:?}{:?}", cx.ir.body, cx.ir.lambdas);
                !["OFFSET", "OFFSET0", "OFFSET1", "offset", "INST0", "INST1"]
                    .iter()
                    .any(|n| text.contains(&format!("Reg(\"{n}\")")))
                    && !text.contains("CalcDsAddr")
                    && !text.contains("Vgpr")
            },
        }
    }

    fn lane_mode(&self) -> bool {
        self.mode == ExecMode::Lane && !self.in_lambda
    }

    /// VCC is an operand-dependent local in vector ALU lane loops (VOP3 forms name it).
    fn vcc_local(&self) -> bool {
        self.lane_mode() && self.cx.family.is_valu()
    }

    // -----------------------------------------------------------------------------------------
    // The whole executor

    /// The executor's body: prologue, the statements (per lane or once), epilogue.
    pub fn executor(mut self) -> Res<(TokenStream, Vec<Role>)> {
        for l in &self.cx.ir.locals {
            self.locals.insert(l.name.clone(), (l.ty, l.len));
        }
        // First pass: which roles are written; second pass: the code.
        self.block(&self.cx.ir.body)?;
        self.known_written = self
            .roles
            .iter()
            .filter(|(_, u)| u.written)
            .map(|(r, _)| *r)
            .collect();
        self.roles.clear();
        self.vcc = (false, false, false);
        self.pc = (false, false);
        self.lambdas = vec![None; self.cx.ir.lambdas.len()];
        let body = self.block(&self.cx.ir.body)?;
        let locals = self.declare_locals(&self.cx.ir.locals)?;
        let lambdas: Vec<TokenStream> = self.lambdas.iter().flatten().cloned().collect();
        let family = self.cx.family;

        let mut pro = TokenStream::new();
        let mut lane_pro = TokenStream::new();
        let mut lane_epi = TokenStream::new();
        let mut epi = TokenStream::new();
        // DPP moves source 0 between lanes: in lane loops the loaded values are permuted
        // and the lanes DPP does not write leave the loop's mask.
        let dpp = family.is_valu() && self.mode == ExecMode::Lane;
        if family.is_valu() {
            pro.extend(quote!(let m = rt::Mods::read_with(d, b, #dpp)?;));
            let int_result = self.roles.get(&Role::D0).is_some_and(|u| u.int_result);
            if int_result {
                pro.extend(quote!(m.int_out(d)?;));
            }
        }
        if self.pc.0 || self.pc.1 {
            pro.extend(quote!(let mut pc: u64 = w.pc; let mut jump = false;));
        }
        if self.mode == ExecMode::Lane {
            pro.extend(quote!(let exec = w.exec_mask();));
        }
        if let Some(kind) = &self.lane_addrs {
            pro.extend(quote!(let lane_addrs = rt::LaneAddrs::new(w, d, b, rt::AddrKind::#kind)?;));
        }
        let roles: Vec<(Role, RoleUse)> = self.roles.iter().map(|(r, u)| (*r, u.clone())).collect();
        for (role, u) in &roles {
            self.role_code(*role, u, &mut pro, &mut lane_pro, &mut lane_epi, &mut epi)?;
        }
        if dpp {
            let s0 = self.roles.get(&Role::S0);
            let classes: Vec<u32> = s0
                .filter(|u| !u.written)
                .map(|u| read_classes(&u.reads).into_iter().collect())
                .unwrap_or_default();
            if classes.iter().any(|c| *c > 32) || s0.is_some_and(|u| u.written) {
                pro.extend(quote!(if matches!(
                    b.variant,
                    rt::variant::DPP16 | rt::variant::DPP8 | rt::variant::DPP
                ) {
                    return Err(ExecError::unsupported(
                        d.mnemonic(),
                        "DPP on a source wider than 32 bits is not modelled",
                    ));
                }));
            } else {
                let arrays = classes.iter().map(|c| {
                    let p = format_ident!("p_s0_{}", c);
                    quote!(&mut #p)
                });
                pro.extend(quote!(
                    let exec = exec & !rt::dpp_src0(w, d, b, &mut [#(#arrays),*])?;
                ));
            }
        }
        // Packed math: the halves each source contributes (unless the pseudocode reads
        // OPSEL itself, as the mixed-precision FMAs do). CDNA's AGPR moves are VOP3P-encoded
        // but not packed: they copy their source whole.
        let packed = !self.cx.name.starts_with("V_ACCVGPR_");
        if family == Family::Vop3p && self.mode == ExecMode::Lane && !self.reads_opsel && packed {
            for role in [Role::S0, Role::S1, Role::S2] {
                let Some(u) = self.roles.get(&role).filter(|u| !u.written) else {
                    continue;
                };
                let k = role.source_index().unwrap_or(0);
                for class in read_classes(&u.reads) {
                    if class > 32 {
                        pro.extend(quote!(rt::vop3p_src64(d, b, #k)?;));
                    } else {
                        let p = format_ident!("p_{}_{}", role.ident().to_ascii_lowercase(), class);
                        pro.extend(quote!(rt::vop3p_src(d, b, #k, &mut #p);));
                    }
                }
            }
        }
        if self.vcc_local() && (self.vcc.0 || self.vcc.1) {
            let from_s2 = family == Family::Vop3 && !self.uses_s2;
            let init = if from_s2 {
                quote!(if b.has(rt::role::S2) {
                    rt::read_scalar(w, b.op(d, rt::role::S2)?, 64, false)?
                } else {
                    w.vcc as u128
                })
            } else {
                quote!((w.vcc as u128))
            };
            pro.extend(quote!(let mut o_vcc: u128 = #init;));
            if self.vcc.2 {
                pro.extend(quote!(o_vcc &= !((!exec & w.lane_mask()) as u128);));
            }
            if self.vcc.1 {
                epi.extend(quote!(if b.has(rt::role::D1) {
                    let bits = b.write_bits(w, rt::role::D1);
                    rt::write_scalar(w, b.op(d, rt::role::D1)?, bits, o_vcc)?;
                } else {
                    w.vcc = o_vcc as u64;
                }));
            }
        } else if self.vcc.2 && self.mode == ExecMode::Lane {
            pro.extend(quote!(w.vcc &= !(!exec & w.lane_mask());));
        }
        // The body is a labelled block only when it leaves early (`return` in the pseudocode).
        let body = if body.to_string().contains("'body") {
            quote!('body: { #body })
        } else {
            body
        };
        let run = match self.mode {
            ExecMode::Lane => quote! {
                for lane in LaneIter(exec) {
                    #locals
                    #lane_pro
                    #body
                    #lane_epi
                }
            },
            _ => quote! {
                #locals
                #body
            },
        };
        let flow = if self.pc.1 {
            quote!(Ok(if jump { Flow::Jump(pc) } else { Flow::Next }))
        } else {
            quote!(Ok(Flow::Next))
        };
        // Roles the form must have: everything fetched with `?`.
        let required: Vec<Role> = self
            .roles
            .iter()
            .filter(|(r, u)| !(**r == Role::Vdst && !u.as_reg && u.reads.is_empty()))
            .map(|(r, _)| *r)
            .collect();
        let code = quote! {
            #(#lambdas)*
            let b = rt::FormBinding::of(d, &BINDINGS)?;
            #pro
            #run
            #epi
            #flow
        };
        Ok((simplify::body(code), required))
    }

    fn declare_locals(&self, locals: &[crate::pcode::ir::Local]) -> Res<TokenStream> {
        let mut out = TokenStream::new();
        for l in locals {
            let name = local_ident(&l.name);
            let zero = zero_of(l.ty)?;
            let t = ty_tokens(l.ty)?;
            match l.len {
                Some(n) => {
                    let n = n as usize;
                    out.extend(quote!(let mut #name: [#t; #n] = [#zero; #n];));
                }
                None => out.extend(quote!(let mut #name: #t = #zero;)),
            }
        }
        Ok(out)
    }

    /// Fetching, loading and storing one role's operand.
    fn role_code(
        &self,
        role: Role,
        u: &RoleUse,
        pro: &mut TokenStream,
        lane_pro: &mut TokenStream,
        lane_epi: &mut TokenStream,
        epi: &mut TokenStream,
    ) -> Res<()> {
        let rid = format_ident!("{}", role.ident());
        let r = format_ident!("r_{}", role.ident().to_ascii_lowercase());
        let o = format_ident!("o_{}", role.ident().to_ascii_lowercase());
        let vector = u.written && is_output(role) && self.role_is_vector(role)?;
        // Returned memory data may be absent (a form without VDST): its writes are dropped.
        let optional = role == Role::Vdst && !u.as_reg && u.reads.is_empty();
        if optional {
            pro.extend(quote!(let #r = b.op(d, rt::role::#rid).ok();));
        } else {
            pro.extend(quote!(let #r = b.op(d, rt::role::#rid)?;));
        }
        let f64 = quote!(b.is_f64(rt::role::#rid));
        if !u.written {
            if self.mode == ExecMode::Lane {
                for class in read_classes(&u.reads) {
                    let p = format_ident!("p_{}_{}", role.ident().to_ascii_lowercase(), class);
                    let load = match class {
                        16 | 32 => {
                            let c = u32_lit(class);
                            quote!(rt::lanes_b32(w, #r, #c)?)
                        }
                        _ => quote!(rt::lanes_b64(w, #r, #f64)?),
                    };
                    pro.extend(quote!(let mut #p = #load;));
                }
            }
            return Ok(());
        }
        let needs_old = u.partial || !u.reads.is_empty();
        let size = quote!((b.sizes[rt::role::#rid] as u32));
        if u.wide {
            if vector || !is_output(role) {
                return Err(Gap::WideValue.because(format!(
                    "{} is wider than 128 bits and not a scalar destination",
                    role.ident()
                )));
            }
            let ow = format_ident!("o_{}_w", role.ident().to_ascii_lowercase());
            let init = if needs_old {
                quote!(rt::read_scalar_dwords(w, #r, #size)?)
            } else {
                quote!([0u32; 16])
            };
            pro.extend(quote!(let mut #ow: [u32; 16] = #init;));
            epi.extend(quote!(rt::write_scalar_dwords(w, #r, #size, &#ow)?;));
            return Ok(());
        }
        if !is_output(role) {
            // The pseudocode uses an input operand's name as a variable (`ADDR = S0.u32`):
            // a local copy, never written back.
            let init = if self.mode == ExecMode::Lane {
                quote!(rt::read_lane(w, #r, lane, #size, #f64)?)
            } else {
                quote!(rt::read_scalar(w, #r, #size, #f64)?)
            };
            if self.mode == ExecMode::Lane {
                lane_pro.extend(quote!(let mut #o: u128 = #init;));
            } else {
                pro.extend(quote!(let mut #o: u128 = #init;));
            }
            return Ok(());
        }
        if vector && self.mode == ExecMode::Lane {
            let dw = self.max_dwords(role).max(1) as usize;
            let arr = format_ident!("a_{}", role.ident().to_ascii_lowercase());
            pro.extend(quote!(let mut #arr = [[0u32; MAX_LANES]; #dw];));
            let init = if needs_old {
                if optional {
                    quote!(match #r { Some(s) => rt::read_lane(w, s, lane, #size, false)?, None => 0 })
                } else {
                    quote!(rt::read_lane(w, #r, lane, #size, false)?)
                }
            } else {
                quote!(0u128)
            };
            lane_pro.extend(quote!(let mut #o: u128 = #init;));
            lane_epi.extend(if dw == 1 {
                quote!(#arr[0][lane] = #o as u32;)
            } else {
                quote!(rt::put_lane(&mut #arr, lane, #o);)
            });
            let store =
                |s: TokenStream| quote!(rt::store_vector(w, b, rt::role::#rid, #s, &#arr, exec)?;);
            // Vector memory atomics return the old value only when asked to.
            let atomic = self.cx.family.is_vmem() && self.cx.name.contains("ATOMIC");
            epi.extend(guarded_store(&r, optional, atomic, store));
            return Ok(());
        }
        if vector {
            return Err(Gap::OperandShape.because(format!(
                "writes the vector operand {} outside a lane loop",
                role.ident()
            )));
        }
        // A scalar destination: one value for the wave.
        let init = if needs_old {
            let get = |s: TokenStream| quote!(rt::read_scalar(w, #s, #size, false)?);
            if optional {
                let g = get(quote!(s));
                quote!(match #r { Some(s) => #g, None => 0 })
            } else {
                get(quote!(#r))
            }
        } else {
            quote!(0u128)
        };
        pro.extend(quote!(let mut #o: u128 = #init;));
        if u.lane_bit && self.mode == ExecMode::Lane {
            pro.extend(quote!(#o &= !((!exec & w.lane_mask()) as u128);));
        }
        let store = |s: TokenStream| quote!(rt::store_scalar(w, b, rt::role::#rid, #s, #o)?;);
        // Scalar memory atomics, like the vector ones, return the old value only with GLC
        // (SDATA otherwise keeps the data).
        let atomic = self.cx.family == Family::Smem && self.cx.name.contains("ATOMIC");
        epi.extend(guarded_store(&r, optional, atomic, store));
        Ok(())
    }

    /// Whether the role's operand is a VGPR in the instruction's forms (all must agree).
    fn role_is_vector(&self, role: Role) -> Res<bool> {
        let mut seen = None;
        for f in self.cx.forms {
            if f.op(role).is_none() {
                continue;
            }
            let v = f.vector.contains(&role);
            match seen {
                None => seen = Some(v),
                Some(s) if s != v => {
                    return Err(Gap::OperandShape.because(format!(
                        "{} is a vector register in some forms and scalar in others",
                        role.ident()
                    )))
                }
                _ => {}
            }
        }
        Ok(seen.unwrap_or(false))
    }

    fn max_dwords(&self, role: Role) -> u32 {
        self.cx
            .forms
            .iter()
            .map(|f| f.size(role).div_ceil(32))
            .max()
            .unwrap_or(1)
    }

    fn role_present(&self, role: Role) -> bool {
        self.cx.forms.iter().any(|f| f.op(role).is_some())
    }
}

/// The store of a destination after the body: `store(src)` when the operand is there (an
/// optional one may be absent) and, for an atomic, when it returns the old value.
fn guarded_store(
    r: &Ident,
    optional: bool,
    atomic: bool,
    store: impl Fn(TokenStream) -> TokenStream,
) -> TokenStream {
    let returns = quote!(rt::atomic_returns(d, b));
    match (optional, atomic) {
        (false, false) => store(quote!(#r)),
        (false, true) => {
            let s = store(quote!(#r));
            quote!(if #returns { #s })
        }
        (true, false) => {
            let s = store(quote!(s));
            quote!(if let Some(s) = #r { #s })
        }
        (true, true) => {
            let s = store(quote!(s));
            quote!(if let (Some(s), true) = (#r, #returns) { #s })
        }
    }
}

/// `(operand name, low bit)` of a constant slice `NAME[hi : lo]` that reaches beyond the
/// width the operand name was typed with (at most 128 bits).
fn slice_beyond_operand(base: &Expr, lo: &Expr, width: u32) -> Option<(String, u32)> {
    match (&base.kind, &lo.kind) {
        (ExprKind::Reg(n), ExprKind::Int(l))
            if *l as u64 + width as u64 > base.ty.width as u64
                && *l as u64 + width as u64 <= 128 =>
        {
            Some((n.clone(), *l as u32))
        }
        _ => None,
    }
}

/// Roles whose writes go back to the register.
fn is_output(r: Role) -> bool {
    matches!(r, Role::D0 | Role::D1 | Role::Vdst | Role::Sdata)
}

/// Preloaded width classes of the reads of an input role (lane mode).
fn read_class(width: u32) -> Option<u32> {
    match width {
        0..=16 => Some(16),
        17..=32 => Some(32),
        33..=64 => Some(64),
        _ => None,
    }
}

fn read_classes(reads: &BTreeSet<u32>) -> BTreeSet<u32> {
    reads.iter().filter_map(|w| read_class(*w)).collect()
}

fn local_ident(name: &str) -> Ident {
    Ident::new(&format!("l_{name}"), Span::call_site())
}

fn zero_of(ty: Ty) -> Res<TokenStream> {
    Ok(match rt_of(ty)? {
        Rt::Bool => quote!(false),
        Rt::U(c) => int_lit(0, Rt::U(c)),
        Rt::I(c) => int_lit(0, Rt::I(c)),
        Rt::F(16) => quote!(F16(0)),
        Rt::F(32) => quote!(F32(0)),
        Rt::F(_) => quote!(F64(0)),
        Rt::Bf16 => quote!(BF16(0)),
    })
}
