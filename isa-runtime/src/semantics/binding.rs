//! Operand binding: which operand of a form each role names ([`FormBinding`], [`FormBindings`]).

use super::*;

/// The operand roles and the fields read by meaning, indices of [`FormBinding`]'s tables (one
/// vocabulary with the generator, which binds them per form).
pub use isa_vocab::{field, role};

/// "No operand" / "no field" in a [`FormBinding`].
pub const NONE: u8 = u8::MAX;

/// `FormBinding::ops` from (role, operand index) pairs (for generated statics).
pub const fn ops(pairs: &[(usize, u8)]) -> [u8; role::COUNT] {
    let mut a = [NONE; role::COUNT];
    let mut i = 0;
    while i < pairs.len() {
        a[pairs[i].0] = pairs[i].1;
        i += 1;
    }
    a
}

/// `FormBinding::sizes` from (role, bits) pairs.
pub const fn sizes(pairs: &[(usize, u16)]) -> [u16; role::COUNT] {
    let mut a = [0u16; role::COUNT];
    let mut i = 0;
    while i < pairs.len() {
        a[pairs[i].0] = pairs[i].1;
        i += 1;
    }
    a
}

/// `FormBinding::fields` from (field meaning, encoding field index) pairs.
pub const fn fields(pairs: &[(usize, u8)]) -> [u8; field::COUNT] {
    let mut a = [NONE; field::COUNT];
    let mut i = 0;
    while i < pairs.len() {
        a[pairs[i].0] = pairs[i].1;
        i += 1;
    }
    a
}

/// Encoding variants whose extra fields change what an executor must do.
pub mod variant {
    pub const PLAIN: u8 = 0;
    pub const DPP16: u8 = 1;
    pub const DPP8: u8 = 2;
    /// GCN/CDNA DPP (the same controls as DPP16).
    pub const DPP: u8 = 3;
    pub const SDWA: u8 = 4;
    /// Packed math (VOP3P): OPSEL/OPSEL_HI/NEG/NEG_HI pick and negate halves.
    pub const VOP3P: u8 = 5;
}

/// Flags of a role's operand in a [`bind`] row.
pub mod flag {
    /// A lane mask ([`super::FormBinding::masks`]).
    pub const MASK: u8 = 1;
    /// An f64 ([`super::FormBinding::f64s`]).
    pub const F64: u8 = 2;
    /// A 16-bit VGPR of a True16 encoding ([`super::FormBinding::t16`]).
    pub const T16: u8 = 4;
}

/// A [`FormBinding`] from its row in a generated `BINDING_ROWS`: (role, operand index or
/// [`NONE`], bits, [`flag`]s) per bound role, (field meaning, encoding field index) per field,
/// the [`variant`], and why the form cannot run (empty when it can).
pub const fn bind(
    roles: &[(usize, u8, u16, u8)],
    field_pairs: &[(usize, u8)],
    variant: u8,
    unsupported: &'static str,
) -> FormBinding {
    let mut b = FormBinding {
        ops: [NONE; role::COUNT],
        sizes: [0; role::COUNT],
        masks: 0,
        f64s: 0,
        fields: fields(field_pairs),
        variant,
        t16: 0,
        unsupported,
    };
    let mut i = 0;
    while i < roles.len() {
        let (r, op, bits, f) = roles[i];
        b.ops[r] = op;
        b.sizes[r] = bits;
        if f & flag::MASK != 0 {
            b.masks |= 1 << r;
        }
        if f & flag::F64 != 0 {
            b.f64s |= 1 << r;
        }
        if f & flag::T16 != 0 {
            b.t16 |= 1 << r;
        }
        i += 1;
    }
    b
}

/// A generation's operand bindings (`exec::BINDINGS`): each distinct [`FormBinding`] once, and
/// per form the one it has.
#[derive(Debug)]
pub struct FormBindings {
    /// The distinct bindings (`BINDING_ROWS`).
    pub rows: &'static [FormBinding],
    /// Per form (`FORMS` order), its row in `rows`.
    pub forms: &'static [u16],
}

impl FormBindings {
    /// The binding of form `form`.
    #[inline]
    pub fn get(&self, form: usize) -> Option<&'static FormBinding> {
        self.rows.get(*self.forms.get(form)? as usize)
    }
}

/// One form's operand binding, generated per generation (`BINDINGS.get(form)`).
#[derive(Clone, Copy, Debug)]
pub struct FormBinding {
    /// Operand index per [`role`], or [`NONE`].
    pub ops: [u8; role::COUNT],
    /// Operand size in bits per [`role`] (0 when absent).
    pub sizes: [u16; role::COUNT],
    /// Bit `r`: the role's operand is a lane mask (`FMT_NUM_M64`): in wave32 only its low 32
    /// bits are a register (VCC_LO, one SGPR).
    pub masks: u32,
    /// Bit `r`: the role's operand is an f64 (a 32-bit literal is its high dword).
    pub f64s: u32,
    /// Encoding field index per [`field`], or [`NONE`].
    pub fields: [u8; field::COUNT],
    /// One of [`variant`].
    pub variant: u8,
    /// Bit `r`: the role's operand is a 16-bit VGPR of a True16 encoding (RDNA3 and later
    /// VOP1/VOP2/VOPC), where register numbers from 128 name the high halves of v0..v127;
    /// those are not modelled.
    pub t16: u32,
    /// Non-empty: the form cannot be executed, and why.
    pub unsupported: &'static str,
}

impl FormBinding {
    /// The form's binding, or the reason it cannot run.
    #[inline]
    pub fn of(
        d: &Decoded,
        table: &'static FormBindings,
    ) -> Result<&'static FormBinding, ExecError> {
        let b = table
            .get(d.form as usize)
            .ok_or_else(|| ExecError::illegal("form", "no operand binding for this form"))?;
        if !b.unsupported.is_empty() {
            return Err(ExecError::unsupported(d.mnemonic(), b.unsupported));
        }
        if b.t16 != 0 {
            for r in 0..role::COUNT {
                if b.t16 >> r & 1 != 0 && matches!(b.op(d, r), Ok(Src::Vgpr(n)) if n >= 128) {
                    return Err(ExecError::unsupported(
                        d.mnemonic(),
                        "True16 high halves (v0.h..v127.h) are not modelled",
                    ));
                }
            }
        }
        Ok(b)
    }

    /// The operand bound to `role`.
    #[inline]
    pub fn op(&self, d: &Decoded, role: usize) -> Result<Src, ExecError> {
        let i = self.ops[role];
        if i == NONE {
            return Err(ExecError::illegal(
                role::NAMES[role],
                format!("{} has no operand for {}", d.mnemonic(), role::NAMES[role]),
            ));
        }
        d.src(i as usize)
    }

    /// Whether `role` is bound in this form.
    #[inline]
    pub fn has(&self, role: usize) -> bool {
        self.ops[role] != NONE
    }

    /// The raw value of a field by meaning, or 0 when the encoding has no such field.
    #[inline]
    pub fn field(&self, d: &Decoded, f: usize) -> u64 {
        let i = self.fields[f];
        if i == NONE {
            return 0;
        }
        d.encoding().fields[i as usize].extract(d.bits)
    }

    #[inline]
    pub fn has_field(&self, f: usize) -> bool {
        self.fields[f] != NONE
    }

    #[inline]
    pub fn is_f64(&self, role: usize) -> bool {
        self.f64s >> role & 1 != 0
    }

    /// Bits of `role`'s register that an executor writes back: its size, and for a lane
    /// mask in wave32, 32.
    #[inline]
    pub fn write_bits(&self, w: &Wave, role: usize) -> u32 {
        let size = self.sizes[role] as u32;
        if self.masks >> role & 1 != 0 && !w.wave64 {
            size.min(32)
        } else {
            size
        }
    }
}
