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

mod share;
mod simplify;

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

    // -----------------------------------------------------------------------------------------
    // Statements

    fn block(&mut self, stmts: &[Stmt]) -> Res<TokenStream> {
        let mut out = TokenStream::new();
        for s in stmts {
            out.extend(self.stmt(s)?);
        }
        Ok(out)
    }

    fn stmt(&mut self, s: &Stmt) -> Res<TokenStream> {
        Ok(match s {
            Stmt::Assign {
                place, op, value, ..
            } => {
                let v = if *op == AssignOp::Set {
                    self.expr(value)?
                } else {
                    let cur = place_expr(place).ok_or_else(|| {
                        Gap::Construct
                            .because("a compound assignment to this kind of place".to_string())
                    })?;
                    let bop = compound_op(*op);
                    let e = Expr::new(
                        place.ty,
                        ExprKind::Binary {
                            op: bop,
                            lhs: Box::new(cur),
                            rhs: Box::new(value.clone()),
                        },
                        value.span,
                    );
                    self.expr(&e)?
                };
                let v = self.output_modifier(place, v)?;
                let bits = to_bits(v, place.ty)?;
                if self.store_is_direct(place) {
                    // The store evaluates nothing before the value: no temporary.
                    self.store(place, bits)?
                } else {
                    let store = self.store(place, quote!(v__))?;
                    quote!({ let v__: u128 = #bits; #store })
                }
            }
            Stmt::Declare { local, .. } => {
                let (ty, len) = *self.locals.get(local).ok_or_else(|| {
                    Gap::UnknownName.because(format!("declared variable `{local}` has no type"))
                })?;
                let name = local_ident(local);
                let zero = zero_of(ty)?;
                match len {
                    Some(n) => {
                        let n = n as usize;
                        quote!(#name = [#zero; #n];)
                    }
                    None => quote!(#name = #zero;),
                }
            }
            Stmt::If {
                arms, otherwise, ..
            } => {
                let mut out = TokenStream::new();
                self.depth += 1;
                for (k, (c, body)) in arms.iter().enumerate() {
                    let c = self.cond(c)?;
                    let body = self.block(body)?;
                    if k == 0 {
                        out.extend(quote!(if #c { #body }));
                    } else {
                        out.extend(quote!(else if #c { #body }));
                    }
                }
                if !otherwise.is_empty() {
                    let body = self.block(otherwise)?;
                    out.extend(quote!(else { #body }));
                }
                self.depth -= 1;
                out
            }
            Stmt::For {
                var,
                from,
                to,
                body,
                ..
            } => {
                let (ty, _) = *self.locals.get(var).ok_or_else(|| {
                    Gap::UnknownName.because(format!("loop counter `{var}` has no type"))
                })?;
                let from = self.as_i128(from)?;
                let to = self.as_i128(to)?;
                self.depth += 1;
                let body = self.block(body)?;
                self.depth -= 1;
                let name = local_ident(var);
                let set = from_bits(quote!(it__ as u128), ty)?;
                quote! {
                    {
                        let (from__, to__): (i128, i128) = (#from, #to);
                        if to__ - from__ > (1 << 20) {
                            return Err(ExecError::unsupported("pseudocode loop", "more than 2^20 iterations"));
                        }
                        for it__ in from__..=to__ {
                            #name = #set;
                            #body
                        }
                    }
                }
            }
            Stmt::While { cond, body, .. } => {
                let c = self.cond(cond)?;
                self.depth += 1;
                let body = self.block(body)?;
                self.depth -= 1;
                quote! {
                    {
                        let mut guard__ = 0u32;
                        while #c {
                            rt::loop_guard(&mut guard__)?;
                            #body
                        }
                    }
                }
            }
            Stmt::Return { value, .. } => {
                if self.in_lambda {
                    let v = value.as_ref().ok_or_else(|| {
                        Gap::Construct.because("a lambda returns no value".to_string())
                    })?;
                    let v = self.expr(v)?;
                    quote!(return Ok(#v);)
                } else {
                    quote!(break 'body;)
                }
            }
            Stmt::Break { .. } => quote!(break;),
            Stmt::Continue { .. } => quote!(continue;),
            Stmt::Call { func, args, .. } => match func.as_str() {
                "nop"
                | "s_nop"
                | "WaitIdleExceptStoreCnt"
                | "PrefetchScalarData"
                | "PrefetchScalarInst" => {
                    // Waits and prefetches have no effect; arguments have no side effects.
                    let _ = args;
                    quote!()
                }
                other => {
                    return Err(Gap::UnknownName
                        .because(format!("the statement call `{other}(...)` is not modelled")))
                }
            },
            Stmt::Note { span, .. } => {
                return Err(Gap::Construct.because(format!(
                    "a step AMD states only in English (at byte {} of the entry)",
                    span.start
                )))
            }
        })
    }

    /// The output modifiers of a float result written whole to D0 (VALU).
    fn output_modifier(&mut self, place: &Place, v: TokenStream) -> Res<TokenStream> {
        if self.cx.family.is_valu() && !self.in_lambda && place.ty.is_float() && float_rt(place.ty)
        {
            if let PlaceKind::Reg(n) = &place.kind {
                if resolve(n, self.cx.family) == Some(NameRef::Role(Role::D0)) {
                    return Ok(quote!(m.out(w, #v)));
                }
            }
        }
        Ok(v)
    }

    fn cond(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool => v,
            Rt::U(_) | Rt::I(_) => quote!((#v != 0)),
            Rt::F(_) | Rt::Bf16 => quote!((!fl::is_zero(#v))),
        })
    }

    /// An integer expression as `i128` (loop bounds).
    fn as_i128(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool | Rt::U(_) | Rt::I(_) => quote!(((#v) as i128)),
            _ => return Err(Gap::FloatMisuse.because("a float loop bound".into())),
        })
    }

    /// An integer expression as a `u128` amount or index (negative values become huge).
    fn amount(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool | Rt::U(_) => quote!(((#v) as u128)),
            Rt::I(_) => quote!(rt::amount_i((#v) as i128)),
            _ => {
                return Err(
                    Gap::FloatMisuse.because("a float used as a bit index or shift amount".into())
                )
            }
        })
    }

    fn index_of(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool | Rt::U(_) | Rt::I(_) => quote!(((#v) as i128)),
            _ => return Err(Gap::FloatMisuse.because("a float array index".into())),
        })
    }

    /// A memory address. AMD's text types the computed address `ADDR` of vector and scalar
    /// memory instructions as 32 bits (`MEM[ADDR + 4U]`); it is the 64-bit address, so
    /// `ADDR` plus or minus offsets is computed in 64 bits.
    fn address(&mut self, e: &Expr) -> Res<TokenStream> {
        fn strip(e: &Expr) -> &Expr {
            let mut x = e;
            while let ExprKind::Convert { expr, .. } = &x.kind {
                x = expr;
            }
            x
        }
        let x = strip(e);
        match &x.kind {
            ExprKind::Reg(n) if self.name_ref_opt(n) == Some(NameRef::MemAddr) => {
                let a = self.mem_addr()?;
                Ok(quote!(((#a) as u64)))
            }
            ExprKind::Binary {
                op: op @ (BinOp::Add | BinOp::Sub),
                lhs,
                rhs,
            } if matches!(&strip(lhs).kind, ExprKind::Reg(n) if self.name_ref_opt(n) == Some(NameRef::MemAddr)) =>
            {
                let a = self.address(lhs)?;
                let k = self.expr(rhs)?;
                let k = match rt_of(rhs.ty)? {
                    Rt::I(_) => quote!(((#k) as i64 as u64)),
                    _ => quote!(((#k) as u64)),
                };
                Ok(if *op == BinOp::Add {
                    quote!((#a).wrapping_add(#k))
                } else {
                    quote!((#a).wrapping_sub(#k))
                })
            }
            _ => self.u64_of(e),
        }
    }

    fn u64_of(&mut self, e: &Expr) -> Res<TokenStream> {
        let v = self.expr(e)?;
        Ok(match rt_of(e.ty)? {
            Rt::Bool | Rt::U(_) | Rt::I(_) => quote!(((#v) as u64)),
            _ => {
                return Err(
                    Gap::Memory.because("a float used as an address or register number".into())
                )
            }
        })
    }

    /// Stores `bits` (a `u128` whose low `place.ty.width` bits are the value) into `place`.
    fn store(&mut self, place: &Place, bits: TokenStream) -> Res<TokenStream> {
        let w = place.ty.width;
        let wl = u32_lit(w);
        Ok(match &place.kind {
            PlaceKind::Local(n) => {
                let (ty, len) = *self.locals.get(n).ok_or_else(|| {
                    Gap::UnknownName.because(format!("assignment to unknown variable `{n}`"))
                })?;
                if len.is_some() {
                    return Err(
                        Gap::Construct.because(format!("assignment to the whole array `{n}`"))
                    );
                }
                let name = local_ident(n);
                let v = from_bits(bits, ty)?;
                quote!(#name = #v;)
            }
            PlaceKind::Element { array, index } => {
                let (ty, len) = *self.locals.get(array).ok_or_else(|| {
                    Gap::UnknownName.because(format!("assignment to unknown array `{array}`"))
                })?;
                let len = len
                    .ok_or_else(|| Gap::UnknownName.because(format!("`{array}` is not an array")))?
                    as usize;
                let i = self.index_of(index)?;
                let name = local_ident(array);
                let v = from_bits(bits, ty)?;
                quote!({ let i__ = rt::index(#i, #len)?; #name[i__] = #v; })
            }
            PlaceKind::Reg(n) => self.store_reg(n, place.ty, bits)?,
            // Parts of an operand wider than 128 bits live in a dword array; they are matched
            // before the whole-width shortcuts below, since `SDATA[31 : 0]` of a 256-bit
            // SDATA is as wide as SDATA's declared type but is only its first dword.
            PlaceKind::Bit { base, index } if self.wide_base(base).is_some() => {
                let r = self.wide_base(base).unwrap_or(Role::D0);
                self.store_wide(r, index, 1, bits)?
            }
            PlaceKind::Slice {
                base,
                lo,
                reversed: false,
            } if self.wide_base(base).is_some() => {
                let r = self.wide_base(base).unwrap_or(Role::D0);
                self.store_wide(r, lo, w, bits)?
            }
            PlaceKind::View { base } if w >= base.ty.width => self.store(base, bits)?,
            PlaceKind::Slice {
                base,
                lo,
                reversed: false,
            } if w >= base.ty.width && is_zero_const(lo) => self.store(base, bits)?,
            PlaceKind::View { base } => self.store_part(base, quote!(0u128), w, bits)?,
            PlaceKind::Bit { base, index } => {
                if is_lane_id(index) {
                    self.mark_lane_bit(base);
                }
                let i = self.amount(index)?;
                self.store_part(base, i, 1, bits)?
            }
            PlaceKind::Slice { base, lo, reversed } => {
                let lo = self.amount(lo)?;
                let bits = if *reversed {
                    quote!(rt::rev_bits(#bits, #wl))
                } else {
                    bits
                };
                self.store_part(base, lo, w, bits)?
            }
            PlaceKind::Lane { base, index } => {
                let i = self.amount(index)?;
                self.store_part(base, quote!((#i).saturating_mul(#wl as u128)), w, bits)?
            }
            PlaceKind::Concat(parts) => {
                let mut out = quote!(let c__: u128 = #bits;);
                let mut off = parts.iter().map(|p| p.ty.width).sum::<u32>();
                for p in parts {
                    off -= p.ty.width;
                    let o = u32_lit(off);
                    let s = self.store(p, quote!((c__ >> #o)))?;
                    out.extend(s);
                }
                quote!({ #out })
            }
            PlaceKind::Mem { space, addr } => {
                if !w.is_multiple_of(8) || w > 128 {
                    return Err(Gap::Memory.because(format!("a memory write of {w} bits")));
                }
                let bytes = u32_lit(w / 8);
                let a = self.address(addr)?;
                let sp = self.space(*space)?;
                let lane = self.lane_opt();
                if self.buffer_range_checked(*space) {
                    quote!({ let a__: u64 = #a; rt::buf_write(w, mem, &lane_addrs, lane, a__, #bytes, #bits)?; })
                } else if self.scalar_buffer(*space) {
                    quote!({ let a__: u64 = #a; rt::sbuf_write(w, mem, d, b, a__, #bytes, #bits)?; })
                } else {
                    quote!({ let a__: u64 = #a; rt::mem_write(w, mem, lds, #sp, a__, #bytes, #bits, #lane)?; })
                }
            }
            PlaceKind::Vgpr { lane, reg } => {
                let l = self.u64_of(lane)?;
                let r = self.reg_number(reg)?;
                quote!({ let l__: u64 = #l; let r__: u64 = #r; rt::vgpr_write(w, l__, r__, #wl, #bits)?; })
            }
            PlaceKind::Sgpr { reg } => {
                let r = self.reg_number(reg)?;
                quote!({ let r__: u64 = #r; rt::sgpr_write(w, r__, #wl, #bits)?; })
            }
            PlaceKind::RegElement { array, index } => {
                let i = self.index_of(index)?;
                match array.as_str() {
                    "HW_REGISTERS" | "hardware_reg" => {
                        quote!({ let i__ = (#i) as u64; rt::hw_reg_write(w, i__, (#bits) as u32)?; })
                    }
                    "TTMP" => {
                        quote!({ let i__ = rt::index(#i, 16)?; w.ttmp[i__] = (#bits) as u32; })
                    }
                    other => {
                        return Err(Gap::UnknownName
                            .because(format!("writing `{other}[...]` is not modelled")))
                    }
                }
            }
            PlaceKind::Field { base, name } => {
                let owner = match &base.kind {
                    PlaceKind::Reg(n) => n.as_str(),
                    _ => {
                        return Err(Gap::UnknownName
                            .because(format!("writing the field `.{name}` of this place")))
                    }
                };
                match owner {
                    "MODE" | "WAVE_MODE" => {
                        let n = name.as_str();
                        quote!(rt::set_mode_field(w, #n, (#bits) as u32)?;)
                    }
                    "TRAPSTS" => {
                        let n = name.as_str();
                        quote!(rt::set_trapsts_field(w, #n, (#bits) as u32)?;)
                    }
                    "WAVE_STATUS" | "STATUS" => {
                        let n = name.as_str();
                        quote!(rt::set_status_field(w, #n, (#bits) as u32)?;)
                    }
                    other => {
                        return Err(Gap::UnknownName
                            .because(format!("writing `{other}.{name}` is not modelled")))
                    }
                }
            }
        })
    }

    /// Whether [`Self::store`] of `place` uses its value once and evaluates nothing before
    /// it (a variable, an operand's local value, a piece of wave state written whole), so the
    /// value can be written in place of a temporary without changing the order of effects.
    fn store_is_direct(&self, place: &Place) -> bool {
        match &place.kind {
            PlaceKind::Local(n) => self.locals.get(n).is_some_and(|(_, len)| len.is_none()),
            PlaceKind::Reg(n) => match self.name_ref_opt(n) {
                Some(NameRef::Role(_) | NameRef::Vdata) => {
                    self.wide_role(n, place.ty.width, true).is_none()
                }
                Some(NameRef::Wave) => match n.as_str() {
                    "VCC_LO" | "VCC_HI" => self.vcc_local(),
                    "EXEC" | "VCC" | "SCC" | "M0" | "MODE" | "WAVE_MODE" | "TRAPSTS" | "TBA"
                    | "TMA" | "FLAT_SCRATCH" | "PC" => true,
                    _ => false,
                },
                _ => false,
            },
            PlaceKind::View { base } if place.ty.width >= base.ty.width => {
                self.store_is_direct(base)
            }
            PlaceKind::Slice {
                base,
                lo,
                reversed: false,
            } if place.ty.width >= base.ty.width && is_zero_const(lo) => {
                self.wide_base(base).is_none() && self.store_is_direct(base)
            }
            _ => false,
        }
    }

    /// Writes `width` bits at `lo` of `base` (read-modify-write).
    fn store_part(
        &mut self,
        base: &Place,
        lo: TokenStream,
        width: u32,
        bits: TokenStream,
    ) -> Res<TokenStream> {
        let wl = u32_lit(width);
        if let PlaceKind::Reg(n) = &base.kind {
            self.mark_partial(n);
        }
        let cur = place_expr(base).ok_or_else(|| {
            Gap::Construct.because("a partial write of this kind of place".to_string())
        })?;
        let cur = self.expr(&cur)?;
        let cur = to_bits(cur, base.ty)?;
        let inner = self.store(base, quote!(n__))?;
        Ok(quote!({
            let lo__: u128 = #lo;
            let n__: u128 = rt::set_bits(#cur, lo__, #wl, #bits);
            #inner
        }))
    }

    /// The output role a register place names, when it is wider than 128 bits.
    fn wide_base(&self, base: &Place) -> Option<Role> {
        match &base.kind {
            PlaceKind::Reg(n) => self.wide_role(n, base.ty.width, true),
            _ => None,
        }
    }

    fn wide_expr(&self, base: &Expr) -> Option<Role> {
        match &base.kind {
            ExprKind::Reg(n) => self.wide_role(n, base.ty.width, false),
            _ => None,
        }
    }

    fn wide_role(&self, name: &str, width: u32, write: bool) -> Option<Role> {
        let role = match self.name_ref_opt(name)? {
            NameRef::Role(r) => r,
            NameRef::Vdata => self.vdata_role(name, write)?,
            _ => return None,
        };
        let max = self
            .cx
            .forms
            .iter()
            .map(|f| f.size(role))
            .max()
            .unwrap_or(0);
        (width > 128 || max > 128).then_some(role)
    }

    /// A constant dword-aligned part of a wide role: (dword, bit offset in it).
    fn wide_index(lo: &Expr, width: u32) -> Res<(usize, u32)> {
        let mut x = lo;
        while let ExprKind::Convert { expr, .. } = &x.kind {
            x = expr;
        }
        let ExprKind::Int(v) = x.kind else {
            return Err(
                Gap::WideValue.because("a variable part of an operand wider than 128 bits".into())
            );
        };
        let (k, off) = ((v / 32) as usize, (v % 32) as u32);
        if k >= 16 || off + width > 32 {
            return Err(Gap::WideValue
                .because("a part of an operand wider than 128 bits that crosses a dword".into()));
        }
        Ok((k, off))
    }

    fn store_wide(
        &mut self,
        role: Role,
        lo: &Expr,
        width: u32,
        bits: TokenStream,
    ) -> Res<TokenStream> {
        let (k, off) = Self::wide_index(lo, width)?;
        let u = self.roles.entry(role).or_default();
        u.written = true;
        u.wide = true;
        u.partial = true;
        let ow = format_ident!("o_{}_w", role.ident().to_ascii_lowercase());
        let (wl, offl) = (u32_lit(width), u128_lit(off as u128));
        Ok(quote!(#ow[#k] = rt::set_bits(#ow[#k] as u128, #offl, #wl, #bits) as u32;))
    }

    fn read_wide(&mut self, role: Role, lo: &Expr, width: u32) -> Res<TokenStream> {
        let (k, off) = Self::wide_index(lo, width)?;
        if !self.known_written.contains(&role) && !self.roles.get(&role).is_some_and(|u| u.written)
        {
            return Err(
                Gap::WideValue.because("reads part of an input operand wider than 128 bits".into())
            );
        }
        let u = self.roles.entry(role).or_default();
        u.wide = true;
        u.reads.insert(width);
        let ow = format_ident!("o_{}_w", role.ident().to_ascii_lowercase());
        let (wl, offl) = (u32_lit(width), u128_lit(off as u128));
        Ok(quote!(rt::get_bits(#ow[#k] as u128, #offl, #wl)))
    }

    fn mark_partial(&mut self, name: &str) {
        let role = match self.name_ref_opt(name) {
            Some(NameRef::Role(r)) => r,
            Some(NameRef::Vdata) => Role::Vdst,
            _ => return,
        };
        self.roles.entry(role).or_default().partial = true;
    }

    fn mark_lane_bit(&mut self, base: &Place) {
        let name = match &base.kind {
            PlaceKind::Reg(n) => n.clone(),
            PlaceKind::View { base } => match &base.kind {
                PlaceKind::Reg(n) => n.clone(),
                _ => return,
            },
            _ => return,
        };
        if name.starts_with("VCC") {
            self.vcc.2 = true;
            return;
        }
        if let Some(NameRef::Role(r)) = self.name_ref_opt(&name) {
            self.roles.entry(r).or_default().lane_bit = true;
        }
    }

    fn name_ref_opt(&self, name: &str) -> Option<NameRef> {
        resolve(name, self.cx.family)
    }

    /// `VDATA` is DATA when read and VDST when written.
    fn vdata_role(&self, name: &str, write: bool) -> Option<Role> {
        if self.name_ref_opt(name) != Some(NameRef::Vdata) {
            return None;
        }
        // An entry that writes VDATA (a load writing it in parts: `VDATA[63 : 32] = ...`)
        // reads back what it wrote: the returned data, not the data operand.
        Some(if write || self.known_written.contains(&Role::Vdst) {
            Role::Vdst
        } else if self.role_present(Role::Data) {
            Role::Data
        } else {
            Role::Vdst
        })
    }

    fn store_reg(&mut self, n: &str, ty: Ty, bits: TokenStream) -> Res<TokenStream> {
        let w = ty.width;
        match self.name_ref_opt(n) {
            Some(NameRef::Role(_)) | Some(NameRef::Vdata) => {
                if self.in_lambda {
                    return Err(Gap::OperandShape.because("a lambda writes an operand".into()));
                }
                let role = match self.name_ref_opt(n) {
                    Some(NameRef::Role(r)) => r,
                    _ => Role::Vdst,
                };
                if self.wide_role(n, w, true).is_some() {
                    // Such operands exist only as dword arrays (see `store_wide`).
                    return Err(Gap::WideValue.because(format!(
                        "a write of all of `{n}`, an operand wider than 128 bits"
                    )));
                }
                let depth = self.depth;
                let u = self.roles.entry(role).or_default();
                u.written = true;
                if depth > 0 {
                    u.partial = true;
                }
                if role == Role::D0 && ty.is_integer() {
                    u.int_result = true;
                }
                let max = self
                    .cx
                    .forms
                    .iter()
                    .map(|f| f.size(role))
                    .max()
                    .unwrap_or(0);
                if w < max {
                    u.partial = true;
                }
                let o = format_ident!("o_{}", role.ident().to_ascii_lowercase());
                let wl = u32_lit(w);
                Ok(quote!(#o = rt::set_bits(#o, 0, #wl, #bits);))
            }
            Some(NameRef::Wave) => self.store_wave(n, ty, bits),
            Some(NameRef::MemAddr) | Some(NameRef::Field(_)) | Some(NameRef::DsOffset) => {
                Err(Gap::Construct.because(format!(
                    "the pseudocode writes `{n}`, which is an address or field here"
                )))
            }
            None => Err(Gap::UnknownName.because(format!("writing `{n}` is not modelled"))),
        }
    }

    fn store_wave(&mut self, n: &str, ty: Ty, bits: TokenStream) -> Res<TokenStream> {
        let lo32 = quote!(0xffff_ffffu64);
        let _ = ty;
        Ok(match n {
            "EXEC" => quote!(w.exec = (#bits) as u64;),
            "EXEC_LO" => quote!(w.exec = (w.exec & !#lo32) | ((#bits) as u64 & #lo32);),
            "EXEC_HI" => quote!(w.exec = (w.exec & #lo32) | (((#bits) as u64) << 32);),
            "VCC" | "VCC_LO" | "VCC_HI" if self.vcc_local() => {
                self.vcc.1 = true;
                match n {
                    "VCC" => quote!(o_vcc = (#bits) & 0xffff_ffff_ffff_ffffu128;),
                    "VCC_LO" => quote!(o_vcc = rt::set_bits(o_vcc, 0, 32, #bits);),
                    _ => quote!(o_vcc = rt::set_bits(o_vcc, 32, 32, #bits);),
                }
            }
            "VCC" => quote!(w.vcc = (#bits) as u64;),
            "VCC_LO" => quote!(w.vcc = (w.vcc & !#lo32) | ((#bits) as u64 & #lo32);),
            "VCC_HI" => quote!(w.vcc = (w.vcc & #lo32) | (((#bits) as u64) << 32);),
            "SCC" => quote!(w.scc = (#bits) & 1 != 0;),
            "M0" => quote!(w.m0 = (#bits) as u32;),
            "MODE" | "WAVE_MODE" => quote!(w.mode.0 = (#bits) as u32;),
            "ROUND_MODE" => quote!(w.mode.set_round_mode((#bits) as u32 & 0xf);),
            "IEEE_MODE" => quote!(w.mode.set_ieee((#bits) & 1 != 0);),
            "TRAPSTS" => quote!(w.trapsts = (#bits) as u32;),
            "TBA" => quote!(w.tba = (#bits) as u64;),
            "TMA" => quote!(w.tma = (#bits) as u64;),
            "FLAT_SCRATCH" => quote!(w.flat_scratch = (#bits) as u64;),
            "PC" => {
                self.pc.1 = true;
                quote!({ pc = (#bits) as u64; jump = true; })
            }
            other => {
                return Err(Gap::UnknownName.because(format!("writing `{other}` is not modelled")))
            }
        })
    }

    // -----------------------------------------------------------------------------------------
    // Expressions

    fn expr(&mut self, e: &Expr) -> Res<TokenStream> {
        let ty = e.ty;
        Ok(match &e.kind {
            ExprKind::Int(v) => {
                let rt = rt_of(ty)?;
                match rt {
                    Rt::F(_) | Rt::Bf16 => from_bits(u128_lit(*v), ty)?,
                    Rt::I(_) => int_lit(sext_const(*v, ty.width), rt),
                    _ => int_lit(*v as i128, rt),
                }
            }
            ExprKind::Float(v) => self.float_lit(*v, ty)?,
            ExprKind::Const(name) => self.constant(name, ty)?,
            ExprKind::Local(n) => {
                if !self.locals.contains_key(n) {
                    return Err(Gap::UnknownName.because(format!("unknown variable `{n}`")));
                }
                let name = local_ident(n);
                quote!(#name)
            }
            ExprKind::Element { array, index } => {
                let (_, len) = *self
                    .locals
                    .get(array)
                    .ok_or_else(|| Gap::UnknownName.because(format!("unknown array `{array}`")))?;
                let len = len
                    .ok_or_else(|| Gap::UnknownName.because(format!("`{array}` is not an array")))?
                    as usize;
                let i = self.index_of(index)?;
                let name = local_ident(array);
                quote!((#name[rt::index(#i, #len)?]))
            }
            ExprKind::Reg(n) => self.read_reg(n, ty)?,
            ExprKind::RegElement { array, index } => {
                let i = self.index_of(index)?;
                let v = match array.as_str() {
                    "HW_REGISTERS" | "hardware_reg" => {
                        quote!((rt::hw_reg_read(w, (#i) as u64)? as u128))
                    }
                    "TTMP" => quote!((w.ttmp[rt::index(#i, 16)?] as u128)),
                    other => {
                        return Err(Gap::UnknownName
                            .because(format!("reading `{other}[...]` is not modelled")))
                    }
                };
                from_bits(v, ty)?
            }
            ExprKind::Mem { space, addr } => {
                let w = ty.width;
                if !w.is_multiple_of(8) || w > 128 {
                    return Err(Gap::Memory.because(format!("a memory read of {w} bits")));
                }
                let bytes = u32_lit(w / 8);
                let a = self.address(addr)?;
                let sp = self.space(*space)?;
                let lane = self.lane_opt();
                let read = if self.buffer_range_checked(*space) {
                    quote!(rt::buf_read(w, &*mem, &lane_addrs, lane, #a, #bytes)?)
                } else if self.scalar_buffer(*space) {
                    quote!(rt::sbuf_read(w, &*mem, d, b, #a, #bytes)?)
                } else {
                    quote!(rt::mem_read(w, &*mem, &*lds, #sp, #a, #bytes, #lane)?)
                };
                from_bits(read, ty)?
            }
            ExprKind::Vgpr { lane, reg } => {
                let l = self.u64_of(lane)?;
                let r = self.reg_number(reg)?;
                let wl = u32_lit(ty.width);
                from_bits(quote!(rt::vgpr_read(w, #l, #r, #wl)?), ty)?
            }
            ExprKind::Sgpr { reg } => {
                let r = self.reg_number(reg)?;
                let wl = u32_lit(ty.width);
                from_bits(quote!(rt::sgpr_read(w, #r, #wl)?), ty)?
            }
            ExprKind::Field { base, name } => self.field(base, name, ty)?,
            ExprKind::Bit { base, index } => {
                let b = self.expr(base)?;
                let b = to_bits(b, base.ty)?;
                let i = self.amount(index)?;
                from_bits(quote!(rt::get_bits(#b, #i, 1)), ty)?
            }
            ExprKind::Slice {
                base,
                lo,
                reversed: false,
            } if self.wide_expr(base).is_some() => {
                let r = self.wide_expr(base).unwrap_or(Role::D0);
                let v = self.read_wide(r, lo, ty.width)?;
                from_bits(v, ty)?
            }
            // A slice of an operand beyond the width its name was typed with: the data
            // operand of a 32-bit compare-and-swap holds two values (`DATA[63 : 32]`), so the
            // operand is read as wide as the slice reaches.
            ExprKind::Slice {
                base,
                lo,
                reversed: false,
            } if slice_beyond_operand(base, lo, ty.width).is_some() => {
                let (n, l) = slice_beyond_operand(base, lo, ty.width).unwrap_or_default();
                let wide = Ty {
                    kind: Kind::Unsigned,
                    width: l + ty.width,
                };
                let b = self.read_reg(&n, wide)?;
                let b = to_bits(b, wide)?;
                let (ll, wl) = (u128_lit(l as u128), u32_lit(ty.width));
                from_bits(quote!(rt::get_bits(#b, #ll, #wl)), ty)?
            }
            ExprKind::Slice { base, lo, reversed } => {
                let b = self.expr(base)?;
                let b = to_bits(b, base.ty)?;
                let lo = self.amount(lo)?;
                let wl = u32_lit(ty.width);
                let v = quote!(rt::get_bits(#b, #lo, #wl));
                let v = if *reversed {
                    quote!(rt::rev_bits(#v, #wl))
                } else {
                    v
                };
                from_bits(v, ty)?
            }
            ExprKind::Lane { base, index } => {
                let b = self.expr(base)?;
                let b = to_bits(b, base.ty)?;
                let i = self.amount(index)?;
                let wl = u32_lit(ty.width);
                from_bits(
                    quote!(rt::get_bits(#b, (#i).saturating_mul(#wl as u128), #wl)),
                    ty,
                )?
            }
            ExprKind::Concat(parts) => {
                let total: u32 = parts.iter().map(|p| p.ty.width).sum();
                if total > 128 {
                    return Err(Gap::Operation.because(format!("a concatenation of {total} bits")));
                }
                let mut acc = quote!(0u128);
                for p in parts {
                    let v = self.expr(p)?;
                    let v = to_bits(v, p.ty)?;
                    let m = u128_lit(mask(p.ty.width));
                    let wl = u32_lit(p.ty.width);
                    acc = quote!(((#acc).checked_shl(#wl).unwrap_or(0) | ((#v) & #m)));
                }
                from_bits(acc, ty)?
            }
            ExprKind::Convert { expr, how } => self.convert(expr, ty, *how)?,
            ExprKind::Unary { op, expr } => self.unary(*op, expr, ty)?,
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, ty)?,
            ExprKind::Select {
                cond,
                then,
                otherwise,
            } => {
                let c = self.cond(cond)?;
                let a = self.expr(then)?;
                let b = self.expr(otherwise)?;
                quote!((if #c { #a } else { #b }))
            }
            ExprKind::Call { func, args } => self.call(func, args, ty)?,
            ExprKind::CallLambda { instance, args } => {
                self.lambda(*instance)?;
                let f = format_ident!("lambda_{}", *instance);
                let mut a = Vec::new();
                for x in args {
                    a.push(self.expr(x)?);
                }
                quote!((#f(w, #(#a),*)?))
            }
        })
    }

    fn float_lit(&mut self, v: f64, ty: Ty) -> Res<TokenStream> {
        Ok(match rt_of(ty)? {
            Rt::F(32) => {
                let b = Literal::u32_suffixed((v as f32).to_bits());
                quote!(F32(#b))
            }
            Rt::F(64) => {
                let b = Literal::u64_suffixed(v.to_bits());
                quote!(F64(#b))
            }
            Rt::F(_) | Rt::Bf16 => {
                let t = ty_tokens(ty)?;
                let l = Literal::f64_suffixed(v);
                quote!(rt::fconst::<#t>(#l))
            }
            Rt::U(_) | Rt::I(_) if !ty.is_float() => int_lit(v as i128, rt_of(ty)?),
            _ => return Err(Gap::FloatMisuse.because(format!("a float literal of type {ty}"))),
        })
    }

    fn constant(&mut self, name: &str, ty: Ty) -> Res<TokenStream> {
        Ok(match name {
            "laneId" | "laneID" | "threadId" | "ThreadPosition" => {
                if !self.lane_mode() {
                    return Err(
                        Gap::OperandShape.because("`laneId` outside a per-lane body".into())
                    );
                }
                let v = quote!((lane as u128));
                from_bits(v, ty)?
            }
            "WAVE64" => quote!(w.wave64),
            "WAVE32" | "wave32" => quote!((!w.wave64)),
            "PI" | "INF" | "NAN" | "NaN" | "sNaN" | "overflow" | "underflow" if float_rt(ty) => {
                let t = ty_tokens(ty)?;
                quote!(rt::float_const::<#t>(#name)?)
            }
            "DENORM" => {
                return Err(Gap::UnknownName
                    .because("`DENORM` stands for \"is denormal\", not a value".into()));
            }
            "MAX_FLOAT_F32" => from_bits(u128_lit(0x7f7f_ffff), ty)?,
            "ROUND_TOWARD_ZERO" => from_bits(u128_lit(0xf), ty)?,
            "ROUND_NEAREST_EVEN" => from_bits(u128_lit(0), ty)?,
            "BYTE0" => from_bits(u128_lit(0), ty)?,
            "BYTE1" => from_bits(u128_lit(1), ty)?,
            "BYTE2" => from_bits(u128_lit(2), ty)?,
            "BYTE3" => from_bits(u128_lit(3), ty)?,
            "WORD0" => from_bits(u128_lit(4), ty)?,
            "WORD1" => from_bits(u128_lit(5), ty)?,
            "opcode_size_in_bits" => {
                let w = crate::pcode::names::natural_ty(self.cx.name).width;
                from_bits(u128_lit(w as u128), ty)?
            }
            "N" => {
                // S_LSHL<N>_ADD_U32.
                let n: u32 = self
                    .cx
                    .name
                    .strip_prefix("S_LSHL")
                    .and_then(|r| r.split('_').next())
                    .and_then(|d| d.parse().ok())
                    .ok_or_else(|| Gap::UnknownName.because(format!("`N` in {}", self.cx.name)))?;
                from_bits(u128_lit(n as u128), ty)?
            }
            other => {
                return Err(
                    Gap::UnknownName.because(format!("the constant `{other}` is not modelled"))
                )
            }
        })
    }

    fn lane_opt(&self) -> TokenStream {
        if self.lane_mode() {
            quote!(Some(lane))
        } else {
            quote!(None)
        }
    }

    fn space(&self, s: Space) -> Res<TokenStream> {
        Ok(match (s, self.cx.family) {
            (Space::Lds, _) | (Space::Mem, Family::Ds) => quote!(rt::Space::Lds),
            (Space::Mem, Family::Flat) => quote!(rt::Space::Flat),
            (Space::Mem, Family::Scratch) => quote!(rt::Space::Scratch),
            (Space::Mem, Family::Global | Family::Buffer | Family::Smem) => {
                quote!(rt::Space::Global)
            }
            (Space::Mem, f) => {
                return Err(
                    Gap::Memory.because(format!("memory access in a {} instruction", f.name()))
                )
            }
        })
    }

    /// A register number: an operand's own register when the index is the operand's name
    /// (`VGPR[lane][SRC0]`), else the value.
    fn reg_number(&mut self, e: &Expr) -> Res<TokenStream> {
        let mut x = e;
        while let ExprKind::Convert { expr, .. } = &x.kind {
            x = expr;
        }
        if let ExprKind::Reg(n) = &x.kind {
            let role = match self.name_ref_opt(n) {
                Some(NameRef::Role(r)) => Some(r),
                Some(NameRef::Vdata) => self.vdata_role(n, false),
                _ => None,
            };
            if let Some(r) = role {
                self.roles.entry(r).or_default().as_reg = true;
                let v = format_ident!("r_{}", r.ident().to_ascii_lowercase());
                // The role's Src is fetched in the prologue.
                return Ok(quote!((rt::reg_number(#v)? as u64)));
            }
        }
        self.u64_of(e)
    }

    fn read_reg(&mut self, n: &str, ty: Ty) -> Res<TokenStream> {
        let w = ty.width;
        let wl = u32_lit(w);
        let r = match self.name_ref_opt(n) {
            Some(NameRef::Role(r)) => r,
            Some(NameRef::Vdata) => self.vdata_role(n, false).unwrap_or(Role::Data),
            Some(NameRef::MemAddr) => return from_bits(self.mem_addr()?, ty),
            Some(NameRef::Field(f)) => {
                let f = format_ident!("{}", f);
                return from_bits(quote!((b.field(d, rt::field::#f) as u128)), ty);
            }
            Some(NameRef::DsOffset) => return from_bits(quote!((rt::ds_offset(d, b) as u128)), ty),
            Some(NameRef::Wave) => return self.read_wave(n, ty),
            None => return Err(Gap::UnknownName.because(format!("the name `{n}` is not modelled"))),
        };
        if self.in_lambda {
            return Err(Gap::OperandShape.because("a lambda reads an operand".into()));
        }
        if self.wide_role(n, w, false).is_some() {
            // Such operands exist only as dword arrays (see `read_wide`).
            return Err(Gap::WideValue.because(format!(
                "a read of all of `{n}`, an operand wider than 128 bits"
            )));
        }
        let rid = format_ident!("{}", r.ident());
        self.roles.entry(r).or_default().reads.insert(w);
        let lower = r.ident().to_ascii_lowercase();
        let mut tokens = if self.known_written.contains(&r) {
            let o = format_ident!("o_{}", lower);
            from_bits(quote!(rt::get_bits(#o, 0, #wl)), ty)?
        } else if self.mode == ExecMode::Lane {
            match read_class(w) {
                Some(class) => {
                    let p = format_ident!("p_{}_{}", lower, class);
                    let m = u128_lit(mask(w));
                    from_bits(quote!(((#p[lane] as u128) & #m)), ty)?
                }
                None => {
                    let s = format_ident!("r_{}", lower);
                    from_bits(
                        quote!(rt::read_lane(w, #s, lane, #wl, b.is_f64(rt::role::#rid))?),
                        ty,
                    )?
                }
            }
        } else {
            let s = format_ident!("r_{}", lower);
            from_bits(
                quote!(rt::read_scalar(w, #s, #wl, b.is_f64(rt::role::#rid))?),
                ty,
            )?
        };
        if let (Some(k), true) = (r.source_index(), self.cx.family.is_valu() && float_rt(ty)) {
            self.roles.entry(r).or_default().float_read = true;
            tokens = quote!(m.src(#k, #tokens));
        }
        if r == Role::Addr && self.ds_addr_with_offset && ty.is_integer() {
            let t = ty_tokens(ty)?;
            tokens = norm(
                quote!((#tokens).wrapping_add(rt::ds_offset(d, b) as #t)),
                ty,
            )?;
        }
        Ok(tokens)
    }

    /// Buffer memory accesses go through the resource's range check (`rt::buf_read`,
    /// `rt::buf_write`: out-of-range reads give 0, writes are dropped); the check is part of
    /// the lanes' buffer addresses.
    fn buffer_range_checked(&self, space: Space) -> bool {
        space == Space::Mem
            && self.cx.family == Family::Buffer
            && self.lane_addrs.is_some()
            && self.lane_mode()
    }

    /// Scalar buffer accesses (`S_BUFFER_*`) go through the resource's range check
    /// (`rt::sbuf_read`, `rt::sbuf_write`).
    fn scalar_buffer(&self, space: Space) -> bool {
        space == Space::Mem
            && self.cx.family == Family::Smem
            && self.cx.name.starts_with("S_BUFFER_")
    }

    fn mem_addr(&mut self) -> Res<TokenStream> {
        let kind = match self.cx.family {
            Family::Smem => return Ok(quote!((rt::smem_addr(w, d, b)? as u128))),
            Family::Global => quote!(Global),
            Family::Flat => quote!(Flat),
            Family::Scratch => quote!(Scratch),
            Family::Buffer => quote!(Buffer),
            f => {
                return Err(Gap::Memory
                    .because(format!("a computed address in a {} instruction", f.name())))
            }
        };
        if !self.lane_mode() {
            return Err(
                Gap::OperandShape.because("a vector memory address outside a per-lane body".into())
            );
        }
        // The lanes' addresses are computed once, before the lane loop.
        self.lane_addrs = Some(kind);
        Ok(quote!((lane_addrs.at(lane) as u128)))
    }

    fn read_wave(&mut self, n: &str, ty: Ty) -> Res<TokenStream> {
        let bits = match n {
            "EXEC" => quote!((w.exec as u128)),
            "EXEC_LO" => quote!(((w.exec & 0xffff_ffff) as u128)),
            "EXEC_HI" => quote!(((w.exec >> 32) as u128)),
            "VCC" | "VCC_LO" | "VCC_HI" if self.vcc_local() => {
                self.vcc.0 = true;
                match n {
                    "VCC" => quote!(o_vcc),
                    "VCC_LO" => quote!((o_vcc & 0xffff_ffff)),
                    _ => quote!(((o_vcc >> 32) & 0xffff_ffff)),
                }
            }
            "VCC" => quote!((w.vcc as u128)),
            "VCC_LO" => quote!(((w.vcc & 0xffff_ffff) as u128)),
            "VCC_HI" => quote!(((w.vcc >> 32) as u128)),
            "SCC" => quote!((w.scc as u128)),
            "M0" => quote!((w.m0 as u128)),
            "MODE" | "WAVE_MODE" => quote!((w.mode.0 as u128)),
            "ROUND_MODE" => quote!((w.mode.round_mode() as u128)),
            "IEEE_MODE" => quote!((w.mode.ieee() as u128)),
            "TRAPSTS" => quote!((w.trapsts as u128)),
            "WAVE_STATUS" => quote!((w.status_value() as u128)),
            "VCCZ" => quote!(((w.vcc & w.lane_mask() == 0) as u128)),
            "EXECZ" => quote!(((w.exec_mask() == 0) as u128)),
            "TBA" => quote!((w.tba as u128)),
            "TMA" => quote!((w.tma as u128)),
            "FLAT_SCRATCH" => quote!((w.flat_scratch as u128)),
            "conditional_debug_system" => quote!((rt::status_field(w, "COND_DBG_SYS")? as u128)),
            "conditional_debug_user" => quote!((rt::status_field(w, "COND_DBG_USER")? as u128)),
            "PC" => {
                self.pc.0 = true;
                quote!((pc as u128))
            }
            other => {
                return Err(Gap::UnknownName.because(format!("reading `{other}` is not modelled")))
            }
        };
        from_bits(bits, ty)
    }

    fn field(&mut self, base: &Expr, name: &str, ty: Ty) -> Res<TokenStream> {
        let owner = match &base.kind {
            ExprKind::Reg(n) => n.as_str(),
            _ => return Err(Gap::UnknownName.because(format!("the field `.{name}` of this value"))),
        };
        let v = match (owner, name) {
            ("MODE" | "WAVE_MODE", f) => quote!((rt::mode_field(w, #f)? as u128)),
            ("WAVE_STATUS" | "STATUS", f) => quote!((rt::status_field(w, #f)? as u128)),
            ("TRAPSTS", f) => quote!((rt::trapsts_field(w, #f)? as u128)),
            ("INST", f) => quote!((d.field(#f).unwrap_or(0) as u128)),
            (n, "addr") => {
                let e = Expr::new(Ty::U32, ExprKind::Reg(n.to_string()), base.span);
                let r = self.reg_number(&e)?;
                quote!((#r as u128))
            }
            (o, f) => {
                return Err(Gap::UnknownName.because(format!("the field `{o}.{f}` is not modelled")))
            }
        };
        from_bits(v, ty)
    }

    fn convert(&mut self, inner: &Expr, to: Ty, how: ConvKind) -> Res<TokenStream> {
        let from = inner.ty;
        let x = self.expr(inner)?;
        if from == to {
            return Ok(x);
        }
        if how == ConvKind::Reinterpret {
            let b = to_bits(x, from)?;
            return from_bits(b, to);
        }
        if is_small_float(from) || is_small_float(to) {
            return Err(Gap::Helper.because(format!(
                "a numeric conversion from {from} to {to} (AMD's text names a helper elsewhere)"
            )));
        }
        let (rf, rto) = (rt_of(from)?, rt_of(to)?);
        let t = rt_tokens(rto);
        if is_small_float(to) {
            return Err(Gap::Helper.because(format!(
                "a numeric conversion to {to} (use a conversion helper)"
            )));
        }
        Ok(match (rf, rto) {
            (Rt::Bool, Rt::U(_) | Rt::I(_)) => quote!(((#x) as #t)),
            (Rt::U(_) | Rt::I(_), Rt::Bool) => quote!(((#x) != 0)),
            (Rt::U(_) | Rt::I(_), Rt::U(_) | Rt::I(_)) => norm(quote!(((#x) as #t)), to)?,
            (Rt::I(c), Rt::F(_) | Rt::Bf16) if c <= 64 => {
                let e = env(to)?;
                quote!(fl::from_i64::<#t>(#e, (#x) as i64))
            }
            (Rt::U(c), Rt::F(_) | Rt::Bf16) if c <= 64 => {
                let e = env(to)?;
                quote!(fl::from_u64::<#t>(#e, (#x) as u64))
            }
            (Rt::Bool, Rt::F(_) | Rt::Bf16) => quote!(rt::fconst::<#t>((#x) as u8 as f64)),
            (Rt::F(_) | Rt::Bf16, Rt::Bool) => quote!((!fl::is_zero(#x))),
            (Rt::F(_) | Rt::Bf16, Rt::U(_) | Rt::I(_)) => {
                let signed = matches!(rto, Rt::I(_));
                let wl = u32_lit(to.width);
                norm(quote!((rt::f_to_i(w, #x, #wl, #signed) as #t)), to)?
            }
            (Rt::F(_) | Rt::Bf16, Rt::F(_) | Rt::Bf16) => float_cast(to, x)?,
            _ => {
                return Err(
                    Gap::Operation.because(format!("a numeric conversion from {from} to {to}"))
                )
            }
        })
    }

    fn unary(&mut self, op: UnOp, inner: &Expr, ty: Ty) -> Res<TokenStream> {
        let x = self.expr(inner)?;
        Ok(match (op, rt_of(ty)?) {
            (UnOp::Plus, _) => x,
            (UnOp::Neg, Rt::F(_) | Rt::Bf16) => quote!(fl::neg(#x)),
            (UnOp::Neg, Rt::U(_) | Rt::I(_)) => norm(quote!((#x).wrapping_neg()), ty)?,
            (UnOp::Not, Rt::Bool) => quote!((!#x)),
            (UnOp::Not, Rt::U(_) | Rt::I(_)) => {
                let zero = int_lit(0, rt_of(ty)?);
                let t = ty_tokens(ty)?;
                quote!((((#x) == #zero) as #t))
            }
            (UnOp::BitNot, Rt::U(_) | Rt::I(_)) => norm(quote!((!#x)), ty)?,
            (UnOp::BitNot, Rt::Bool) => quote!((!#x)),
            (op, _) => {
                return Err(
                    Gap::Operation.because(format!("the operator `{}` on {ty}", op.symbol()))
                )
            }
        })
    }

    fn binary(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, ty: Ty) -> Res<TokenStream> {
        use BinOp::*;
        match op {
            Shl | Shr => return self.shift(op, lhs, rhs, ty),
            Pow => return self.pow(lhs, rhs, ty),
            _ => {}
        }
        let a = self.expr(lhs)?;
        let b = self.expr(rhs)?;
        let ot = lhs.ty;
        let ort = rt_of(ot)?;
        if ot.is_float() && is_small_float(ot) {
            return Err(Gap::Operation.because(format!("arithmetic on {ot}")));
        }
        let is_f = matches!(ort, Rt::F(_) | Rt::Bf16);
        Ok(match op {
            LogOr | LogAnd => {
                let (a, b) = (self.truth(a, lhs.ty)?, self.truth(b, rhs.ty)?);
                if op == LogOr {
                    quote!((#a || #b))
                } else {
                    quote!((#a && #b))
                }
            }
            Eq | Ne | Lt | Le | Gt | Ge if is_f => {
                let f = format_ident!(
                    "{}",
                    match op {
                        Eq => "eq",
                        Ne => "ne",
                        Lt => "lt",
                        Le => "le",
                        Gt => "gt",
                        _ => "ge",
                    }
                );
                quote!(fl::#f(#a, #b))
            }
            Eq => quote!((#a == #b)),
            Ne => quote!((#a != #b)),
            Lt => quote!((#a < #b)),
            Le => quote!((#a <= #b)),
            Gt => quote!((#a > #b)),
            Ge => quote!((#a >= #b)),
            BitAnd | BitOr | BitXor if !is_f => {
                let o = match op {
                    BitAnd => quote!(&),
                    BitOr => quote!(|),
                    _ => quote!(^),
                };
                quote!((#a #o #b))
            }
            Add | Sub | Mul | Div if is_f => {
                let e = env(ty)?;
                let f = format_ident!(
                    "{}",
                    match op {
                        Add => "add",
                        Sub => "sub",
                        Mul => "mul",
                        _ => "div",
                    }
                );
                quote!(fl::#f(#e, #a, #b))
            }
            Add | Sub | Mul if matches!(ort, Rt::U(_) | Rt::I(_)) => {
                let f = format_ident!(
                    "{}",
                    match op {
                        Add => "wrapping_add",
                        Sub => "wrapping_sub",
                        _ => "wrapping_mul",
                    }
                );
                norm(quote!((#a).#f(#b)), ty)?
            }
            Div | Mod if matches!(ort, Rt::U(_)) => {
                let t = ty_tokens(ty)?;
                let f = if op == Div {
                    quote!(rt::div_u)
                } else {
                    quote!(rt::rem_u)
                };
                norm(quote!((#f((#a) as u128, (#b) as u128)? as #t)), ty)?
            }
            Div | Mod if matches!(ort, Rt::I(_)) => {
                let t = ty_tokens(ty)?;
                let f = if op == Div {
                    quote!(rt::div_i)
                } else {
                    quote!(rt::rem_i)
                };
                norm(quote!((#f((#a) as i128, (#b) as i128)? as #t)), ty)?
            }
            _ => {
                return Err(
                    Gap::Operation.because(format!("the operator `{}` on {ot}", op.symbol()))
                )
            }
        })
    }

    fn truth(&self, x: TokenStream, ty: Ty) -> Res<TokenStream> {
        Ok(match rt_of(ty)? {
            Rt::Bool => x,
            Rt::U(_) | Rt::I(_) => quote!((#x != 0)),
            _ => quote!((!fl::is_zero(#x))),
        })
    }

    fn shift(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, ty: Ty) -> Res<TokenStream> {
        let a = self.expr(lhs)?;
        let n = self.amount(rhs)?;
        let t = ty_tokens(ty)?;
        let wl = u32_lit(ty.width);
        Ok(match (op, rt_of(ty)?) {
            (BinOp::Shl, Rt::U(_)) => quote!((rt::shl((#a) as u128, #n, #wl) as #t)),
            (BinOp::Shl, Rt::I(_)) => {
                quote!((rt::sext(rt::shl((#a) as i128 as u128, #n, #wl) as i128, #wl) as #t))
            }
            (BinOp::Shr, Rt::U(_)) => quote!((rt::shr((#a) as u128, #n, #wl) as #t)),
            (BinOp::Shr, Rt::I(_)) => quote!((rt::sar((#a) as i128, #n) as #t)),
            _ => return Err(Gap::Operation.because(format!("a shift of {ty}"))),
        })
    }

    fn pow(&mut self, lhs: &Expr, rhs: &Expr, ty: Ty) -> Res<TokenStream> {
        let a = self.expr(lhs)?;
        let b = self.expr(rhs)?;
        Ok(match rt_of(ty)? {
            Rt::F(_) | Rt::Bf16 => {
                let t = ty_tokens(ty)?;
                let e = env(ty)?;
                let exp = match rt_of(rhs.ty)? {
                    Rt::I(_) => quote!(fl::from_i64::<#t>(#e, (#b) as i64)),
                    Rt::U(_) => quote!(fl::from_u64::<#t>(#e, (#b) as u64)),
                    _ if rhs.ty == ty => b,
                    _ => float_cast(ty, b)?,
                };
                quote!(hp::pow(w.mode, #a, #exp))
            }
            Rt::U(_) | Rt::I(_) => {
                let t = ty_tokens(ty)?;
                let n = match rt_of(rhs.ty)? {
                    Rt::I(_) => quote!(rt::amount_i((#b) as i128)),
                    _ => quote!(((#b) as u128)),
                };
                norm(quote!((rt::pow_u((#a) as u128, #n) as #t)), ty)?
            }
            _ => return Err(Gap::Operation.because(format!("`**` on {ty}"))),
        })
    }

    fn call(&mut self, func: &str, args: &[Expr], ty: Ty) -> Res<TokenStream> {
        let rt = rt_of(ty)?;
        // Address calculations: computed from the form's operands (see binding.rs).
        match func {
            "CalcGlobalAddr"
            | "CalcFlatAddr"
            | "CalcScratchAddr"
            | "CalcBufferAddr"
            | "CalcScalarGlobalAddr"
            | "CalcScalarBufferAddr" => {
                return from_bits(self.mem_addr()?, ty);
            }
            // The wave's private memory as one region (see `rt::smem_scratch_addr`).
            "CalcScalarScratchAddr" if self.cx.family == Family::Smem => {
                return from_bits(quote!((rt::smem_scratch_addr(w, d, b)? as u128)), ty);
            }
            "CalcDsAddr" => {
                // (address, offset) or (address, OFFSET0, OFFSET1): the offset is
                // OFFSET1:OFFSET0.
                let mut parts = Vec::new();
                for a in args {
                    let v = self.expr(a)?;
                    parts.push(to_bits(v, a.ty)?);
                }
                let sum = match parts.as_slice() {
                    [a] => quote!(((#a) as u32)),
                    [a, o] => quote!(((#a) as u32).wrapping_add((#o) as u32)),
                    [a, o0, o1] => {
                        quote!(((#a) as u32).wrapping_add(((#o1) as u32 & 0xff) << 8 | ((#o0) as u32 & 0xff)))
                    }
                    _ => {
                        return Err(
                            Gap::Memory.because("CalcDsAddr with more than three arguments".into())
                        )
                    }
                };
                return from_bits(quote!((#sum as u128)), ty);
            }
            _ => {}
        }
        let h = helper(func).ok_or_else(|| {
            Gap::Helper.because(format!("the helper `{func}` has no runtime implementation"))
        })?;
        let mut a = Vec::new();
        let first = args.first().map(|x| x.ty);
        for (k, x) in args.iter().enumerate() {
            let mut v = self.expr(x)?;
            // Concrete parameters take the value through `rt::co` (integer widths differ);
            // generic ones as it is, except the documented extra integer parameters. A
            // generic helper's float arguments share the first one's format (`pow(2.0,
            // S0.f32)` gives the literal as f64).
            let coerce = !h.generic || (k > 0 && h.int_tail);
            if h.generic && !coerce && k > 0 {
                if let Some(f) = first.filter(|f| float_rt(*f) && float_rt(x.ty) && *f != x.ty) {
                    v = float_cast(f, v)?;
                }
            }
            a.push(if coerce { quote!(rt::co(#v)) } else { v });
        }
        let f = format_ident!("{}", h.rust);
        let call = if h.mode {
            quote!(hp::#f(w.mode, #(#a),*))
        } else {
            quote!(hp::#f(#(#a),*))
        };
        // `rt::co_<type>`: `rt::co::<T, _>` for one `T`.
        let co = format_ident!("co_{}", rt_name(rt));
        Ok(quote!(rt::#co(#call)))
    }

    /// Lowers lambda instance `k` once, as a nested function.
    fn lambda(&mut self, k: usize) -> Res<()> {
        if self.lambdas.get(k).is_some_and(|l| l.is_some()) {
            return Ok(());
        }
        let inst: &LambdaInstance = self.cx.ir.lambdas.get(k).ok_or_else(|| {
            Gap::UnknownName.because(format!("lambda instance {k} does not exist"))
        })?;
        let mut sub = Lower::new(self.cx, self.mode);
        sub.in_lambda = true;
        for p in inst.params.iter().chain(&inst.locals) {
            sub.locals.insert(p.name.clone(), (p.ty, p.len));
        }
        let body = sub.block(&inst.body)?;
        for (i, l) in sub.lambdas.iter().enumerate() {
            if l.is_some() && self.lambdas[i].is_none() {
                self.lambdas[i] = l.clone();
            }
        }
        let locals = sub.declare_locals(&inst.locals)?;
        let mut params = Vec::new();
        let mut binds = Vec::new();
        for p in &inst.params {
            let t = ty_tokens(p.ty)?;
            let pn = format_ident!("a_{}", p.name);
            let ln = local_ident(&p.name);
            params.push(quote!(#pn: #t));
            binds.push(quote!(let mut #ln: #t = #pn;));
        }
        let ret = ty_tokens(inst.ret)?;
        let f = format_ident!("lambda_{}", k);
        self.lambdas[k] = Some(quote! {
            #[allow(unused_mut, unused_variables, unreachable_code)]
            fn #f(w: &Wave, #(#params),*) -> Result<#ret, ExecError> {
                #(#binds)*
                #locals
                #body
                Err(ExecError::unsupported("pseudocode lambda", "ended without returning a value"))
            }
        });
        Ok(())
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

fn is_lane_id(e: &Expr) -> bool {
    let mut x = e;
    while let ExprKind::Convert { expr, .. } = &x.kind {
        x = expr;
    }
    matches!(&x.kind, ExprKind::Const(n) if matches!(n.as_str(), "laneId" | "laneID" | "threadId" | "ThreadPosition"))
}

fn is_zero_const(e: &Expr) -> bool {
    let mut x = e;
    while let ExprKind::Convert { expr, .. } = &x.kind {
        x = expr;
    }
    matches!(x.kind, ExprKind::Int(0))
}

fn compound_op(op: AssignOp) -> BinOp {
    match op {
        AssignOp::Set | AssignOp::Add => BinOp::Add,
        AssignOp::Sub => BinOp::Sub,
        AssignOp::Mul => BinOp::Mul,
        AssignOp::Div => BinOp::Div,
        AssignOp::Mod => BinOp::Mod,
        AssignOp::And => BinOp::BitAnd,
        AssignOp::Or => BinOp::BitOr,
        AssignOp::Xor => BinOp::BitXor,
        AssignOp::Shl => BinOp::Shl,
        AssignOp::Shr => BinOp::Shr,
    }
}

/// A place read as an expression (for compound assignments and partial writes).
fn place_expr(p: &Place) -> Option<Expr> {
    let kind = match &p.kind {
        PlaceKind::Local(n) => ExprKind::Local(n.clone()),
        PlaceKind::Element { array, index } => ExprKind::Element {
            array: array.clone(),
            index: index.clone(),
        },
        PlaceKind::Reg(n) => ExprKind::Reg(n.clone()),
        PlaceKind::RegElement { array, index } => ExprKind::RegElement {
            array: array.clone(),
            index: index.clone(),
        },
        PlaceKind::Mem { space, addr } => ExprKind::Mem {
            space: *space,
            addr: addr.clone(),
        },
        PlaceKind::Vgpr { lane, reg } => ExprKind::Vgpr {
            lane: lane.clone(),
            reg: reg.clone(),
        },
        PlaceKind::Sgpr { reg } => ExprKind::Sgpr { reg: reg.clone() },
        PlaceKind::Field { base, name } => ExprKind::Field {
            base: Box::new(place_expr(base)?),
            name: name.clone(),
        },
        PlaceKind::View { base } => ExprKind::Convert {
            expr: Box::new(place_expr(base)?),
            how: ConvKind::Reinterpret,
        },
        PlaceKind::Bit { base, index } => ExprKind::Bit {
            base: Box::new(place_expr(base)?),
            index: index.clone(),
        },
        PlaceKind::Slice { base, lo, reversed } => ExprKind::Slice {
            base: Box::new(place_expr(base)?),
            lo: lo.clone(),
            reversed: *reversed,
        },
        PlaceKind::Lane { base, index } => ExprKind::Lane {
            base: Box::new(place_expr(base)?),
            index: index.clone(),
        },
        PlaceKind::Concat(parts) => {
            ExprKind::Concat(parts.iter().map(place_expr).collect::<Option<Vec<_>>>()?)
        }
    };
    Some(Expr::new(p.ty, kind, p.span))
}

/// Whether the entry reads `name` as a register (also in compound assignments).
pub(crate) fn reads_name(ir: &Ir, name: &str) -> bool {
    let text = format!("{:?}", ir.body);
    // A read is any mention outside the target of a plain `=`: approximate by counting
    // mentions against plain whole-register writes.
    let mentions = text.matches(&format!("Reg(\"{name}\")")).count();
    let plain_writes = ir
        .body
        .iter()
        .map(|s| count_plain_writes(s, name))
        .sum::<usize>();
    mentions > plain_writes
}

fn count_plain_writes(s: &Stmt, name: &str) -> usize {
    match s {
        Stmt::Assign { place, op, .. } => {
            let whole = matches!(&place.kind, PlaceKind::Reg(n) if n == name)
                || matches!(&place.kind, PlaceKind::View { base } if matches!(&base.kind, PlaceKind::Reg(n) if n == name));
            usize::from(whole && *op == AssignOp::Set)
        }
        Stmt::If {
            arms, otherwise, ..
        } => arms
            .iter()
            .flat_map(|(_, b)| b.iter())
            .chain(otherwise.iter())
            .map(|s| count_plain_writes(s, name))
            .sum(),
        Stmt::For { body, .. } | Stmt::While { body, .. } => {
            body.iter().map(|s| count_plain_writes(s, name)).sum()
        }
        _ => 0,
    }
}

/// Whether the statements mention any of `names` as a register.
fn mentions_name(stmts: &[Stmt], names: &[&str]) -> bool {
    let text = format!("{stmts:?}");
    names
        .iter()
        .any(|n| text.contains(&format!("Reg(\"{n}\")")))
}

/// Whether the entry names other lanes' registers (it then runs once for the wave).
pub(crate) fn names_other_lanes(ir: &Ir) -> bool {
    fn expr(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Vgpr { lane, reg } => !is_lane_id(lane) || expr(lane) || expr(reg),
            ExprKind::Element { index, .. } | ExprKind::RegElement { index, .. } => expr(index),
            ExprKind::Mem { addr, .. } => expr(addr),
            ExprKind::Sgpr { reg } => expr(reg),
            ExprKind::Field { base, .. } => expr(base),
            ExprKind::Bit { base, index } | ExprKind::Lane { base, index } => {
                expr(base) || expr(index)
            }
            ExprKind::Slice { base, lo, .. } => expr(base) || expr(lo),
            ExprKind::Concat(p) => p.iter().any(expr),
            ExprKind::Convert { expr: x, .. } | ExprKind::Unary { expr: x, .. } => expr(x),
            ExprKind::Binary { lhs, rhs, .. } => expr(lhs) || expr(rhs),
            ExprKind::Select {
                cond,
                then,
                otherwise,
            } => expr(cond) || expr(then) || expr(otherwise),
            ExprKind::Call { args, .. } | ExprKind::CallLambda { args, .. } => {
                args.iter().any(expr)
            }
            _ => false,
        }
    }
    fn place(p: &Place) -> bool {
        match &p.kind {
            PlaceKind::Vgpr { lane, reg } => !is_lane_id(lane) || expr(lane) || expr(reg),
            PlaceKind::Element { index, .. } | PlaceKind::RegElement { index, .. } => expr(index),
            PlaceKind::Mem { addr, .. } => expr(addr),
            PlaceKind::Sgpr { reg } => expr(reg),
            PlaceKind::Field { base, .. } | PlaceKind::View { base } => place(base),
            PlaceKind::Bit { base, index } | PlaceKind::Lane { base, index } => {
                place(base) || expr(index)
            }
            PlaceKind::Slice { base, lo, .. } => place(base) || expr(lo),
            PlaceKind::Concat(ps) => ps.iter().any(place),
            _ => false,
        }
    }
    fn stmts(ss: &[Stmt]) -> bool {
        ss.iter().any(|s| match s {
            Stmt::Assign {
                place: p, value, ..
            } => place(p) || expr(value),
            Stmt::If {
                arms, otherwise, ..
            } => arms.iter().any(|(c, b)| expr(c) || stmts(b)) || stmts(otherwise),
            Stmt::For { from, to, body, .. } => expr(from) || expr(to) || stmts(body),
            Stmt::While { cond, body, .. } => expr(cond) || stmts(body),
            Stmt::Return { value: Some(v), .. } => expr(v),
            Stmt::Call { args, .. } => args.iter().any(expr),
            _ => false,
        })
    }
    stmts(&ir.body) || ir.lambdas.iter().any(|l| stmts(&l.body))
}

/// The runtime function for a pseudocode helper: the table the runtime's `exec::helpers`
/// implements ([`isa_vocab::helpers::HELPERS`]: Rust name, whether it takes MODE first,
/// whether it is generic, whether its parameters after the first are fixed integers).
pub(crate) fn helper(name: &str) -> Option<&'static isa_vocab::helpers::HelperInfo> {
    isa_vocab::helpers::lookup(name)
}
