//! Matrix instructions (`V_MFMA_*`, `V_SMFMAC_*`, `V_MFMA_SCALE_*`): AMD describes them in
//! prose, so their executor is the runtime's table-driven model (`isa_runtime::exec::matrix`),
//! configured per instruction with a shape read from the instruction's name (`M×N×K`, the
//! accumulator and input types) and checked against its operand sizes in the spec (the block
//! count comes from the result size; A's and B's sizes must hold exactly the shape's values).

use crate::model::Instruction;
use crate::Generation;
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// One instruction's matrix shape (mirrors the runtime's `MatrixOp`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MatrixShape {
    pub m: u32,
    pub n: u32,
    pub k: u32,
    pub blocks: u32,
    pub a: &'static str,
    pub b: &'static str,
    pub acc: &'static str,
    pub a_dwords: u32,
    pub b_dwords: u32,
    pub d_dwords: u32,
    /// `Dense`, `Sparse`, `F8f6f4` or `F8f6f4Scaled`.
    pub kind: &'static str,
    pub fnuz: bool,
}

/// Input type names as they appear in instruction names, longest first, with their bit
/// widths (F8F6F4 is sized as its widest format, fp8).
const TYPES: [(&str, &str, u32); 9] = [
    ("F8F6F4", "F8F6F4", 8),
    ("XF32", "Xf32", 32),
    ("BF16", "Bf16", 16),
    ("BF8", "Bf8", 8),
    ("FP8", "Fp8", 8),
    ("F64", "F64", 64),
    ("F32", "F32", 32),
    ("F16", "F16", 16),
    ("I8", "I8", 8),
];

/// True for the instructions this module handles.
pub(crate) fn is_matrix(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n.starts_with("V_MFMA") || n.starts_with("V_SMFMAC")
}

fn operand_dwords(ins: &Instruction, field: &str) -> Option<u32> {
    ins.encodings
        .first()?
        .operands
        .iter()
        .find(|o| o.field_name.as_deref() == Some(field))
        .map(|o| o.size / 32)
}

/// The shape of matrix instruction `ins`, or why it has none.
pub(crate) fn shape(
    ins: &Instruction,
    generation: Option<Generation>,
) -> Result<MatrixShape, String> {
    let sizes = (
        operand_dwords(ins, "SRC0"),
        operand_dwords(ins, "SRC1"),
        operand_dwords(ins, "VDST"),
    );
    shape_from(&ins.name, sizes, generation)
}

/// [`shape`] from the name and the dword sizes of SRC0, SRC1 and VDST.
pub(crate) fn shape_from(
    name: &str,
    sizes: (Option<u32>, Option<u32>, Option<u32>),
    generation: Option<Generation>,
) -> Result<MatrixShape, String> {
    let name = name.to_ascii_uppercase();
    let (rest, sparse, scaled) = if let Some(r) = name.strip_prefix("V_SMFMAC_") {
        (r, true, false)
    } else if let Some(r) = name.strip_prefix("V_MFMA_SCALE_") {
        (r, false, true)
    } else if let Some(r) = name.strip_prefix("V_MFMA_") {
        (r, false, false)
    } else {
        return Err(format!("{name} is not a matrix instruction"));
    };
    let (acc, rest) = rest
        .split_once('_')
        .ok_or_else(|| format!("{name}: no accumulator type"))?;
    let acc = match acc {
        "F32" => "F32",
        "I32" => "I32",
        "F64" => "F64",
        other => return Err(format!("{name}: unknown accumulator type {other}")),
    };
    // MxNxK, then the rest of the name.
    let mut dims = [0u32; 3];
    let mut chars = rest.char_indices().peekable();
    let mut end = 0;
    for (d, dim) in dims.iter_mut().enumerate() {
        let start = chars.peek().map(|(i, _)| *i).unwrap_or(rest.len());
        while chars.peek().is_some_and(|(_, c)| c.is_ascii_digit()) {
            chars.next();
        }
        end = chars.peek().map(|(i, _)| *i).unwrap_or(rest.len());
        *dim = rest[start..end]
            .parse()
            .map_err(|_| format!("{name}: no M×N×K shape"))?;
        if d < 2 && chars.next().map(|(_, c)| c) != Some('X') {
            return Err(format!("{name}: no M×N×K shape"));
        }
    }
    let [m, n, k] = dims;
    let mut tail = rest[end..].trim_start_matches('_').to_string();
    // An explicit block count (`_2B_`) is checked against the sizes below.
    let mut named_blocks = None;
    if let Some((b, after)) = tail.split_once("B_") {
        if let Ok(v) = b.parse::<u32>() {
            named_blocks = Some(v);
            tail = after.to_string();
        }
    }
    let tail = tail.trim_end_matches("_1K").replace('_', "");
    let mut types = Vec::new();
    let mut t = tail.as_str();
    while !t.is_empty() {
        let (spelled, ty, bits) = TYPES
            .iter()
            .find(|(s, _, _)| t.starts_with(s))
            .ok_or_else(|| format!("{name}: unknown input type in {t}"))?;
        types.push((*ty, *bits));
        t = &t[spelled.len()..];
    }
    let (a, b) = match types.as_slice() {
        [x] => (*x, *x),
        [x, y] => (*x, *y),
        _ => return Err(format!("{name}: expected one or two input types")),
    };
    let (a_dw, b_dw, d_dw) = match sizes {
        (Some(a), Some(b), Some(d)) if a > 0 && b > 0 && d > 0 => (a, b, d),
        _ => return Err(format!("{name}: the spec lists no SRC0/SRC1/VDST sizes")),
    };
    let acc_bits = if acc == "F64" { 64 } else { 32 };
    let results = d_dw * 32 / acc_bits * 64;
    if results % (m * n) != 0 {
        return Err(format!(
            "{name}: a {}-dword result does not hold whole {m}×{n} blocks",
            d_dw
        ));
    }
    let blocks = results / (m * n);
    if named_blocks.is_some_and(|nb| nb != blocks) {
        return Err(format!(
            "{name}: the name says {} blocks, the result size {blocks}",
            named_blocks.unwrap_or(0)
        ));
    }
    // A holds M×K (half for sparse A) values per block over 64 lanes, B K×N.
    let a_values = m * k * blocks / if sparse { 2 } else { 1 };
    if a_dw * 32 * 64 != a_values * a.1 || b_dw * 32 * 64 != k * n * blocks * b.1 {
        return Err(format!(
            "{name}: operand sizes (A {a_dw}, B {b_dw} dwords) do not hold the {m}×{n}×{k} shape"
        ));
    }
    let kind = match (sparse, scaled, a.0) {
        (true, _, _) => "Sparse",
        (_, true, _) => "F8f6f4Scaled",
        (_, _, "F8F6F4") => "F8f6f4",
        _ => "Dense",
    };
    let fix = |t: &'static str| if t == "F8F6F4" { "Fp8" } else { t };
    Ok(MatrixShape {
        m,
        n,
        k,
        blocks,
        a: fix(a.0),
        b: fix(b.0),
        acc,
        a_dwords: a_dw,
        b_dwords: b_dw,
        d_dwords: d_dw,
        kind,
        fnuz: generation == Some(Generation::Cdna3),
    })
}

impl MatrixShape {
    /// The coverage report's reason.
    pub fn describe(&self) -> String {
        let types = if self.kind.starts_with("F8f6f4") {
            "fp8/bf8/fp6/bf6/fp4 (CBSZ, BLGP)".to_string()
        } else if self.a == self.b {
            self.a.to_ascii_lowercase()
        } else {
            format!(
                "{}×{}",
                self.a.to_ascii_lowercase(),
                self.b.to_ascii_lowercase()
            )
        };
        let what = match self.kind {
            "Sparse" => ", 2:4 sparse A",
            "F8f6f4Scaled" => ", E8M0 block scales",
            _ => "",
        };
        format!(
            "matrix model: {}×{}×{}, {} block(s), {types} → {}{what}",
            self.m,
            self.n,
            self.k,
            self.blocks,
            self.acc.to_ascii_lowercase()
        )
    }

    /// The executor body: the runtime model with this shape.
    pub fn body(&self) -> TokenStream {
        let (m, n, k, blocks) = (self.m, self.n, self.k, self.blocks);
        let (a, b, acc) = (
            format_ident!("{}", self.a),
            format_ident!("{}", self.b),
            format_ident!("{}", self.acc),
        );
        let (ad, bd, dd, fnuz) = (self.a_dwords, self.b_dwords, self.d_dwords, self.fnuz);
        let kind = match self.kind {
            "Sparse" => quote!(mx::Kind::Sparse),
            "F8f6f4" => quote!(mx::Kind::F8f6f4 { scaled: false }),
            "F8f6f4Scaled" => quote!(mx::Kind::F8f6f4 { scaled: true }),
            _ => quote!(mx::Kind::Dense),
        };
        quote! {
            use crate::exec::matrix as mx;
            static OP: mx::MatrixOp = mx::MatrixOp {
                m: #m, n: #n, k: #k, blocks: #blocks,
                a: mx::Elem::#a, b: mx::Elem::#b, acc: mx::Acc::#acc,
                a_dwords: #ad, b_dwords: #bd, d_dwords: #dd,
                kind: #kind, fnuz: #fnuz,
            };
            mx::execute(w, d, &OP)
        }
    }
}
