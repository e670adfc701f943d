//! The project's override layer: facts the XML is known to lack, each with its reason.
//!
//! Applied to a loaded [`Spec`] before code is generated, never silently: every entry is listed
//! by `isa-gen tables`, and each application is recorded in [`Spec::overrides_applied`]. AMD's
//! data itself is never edited; `isa-gen check` reports the file as it is.

use crate::model::{Field, Spec};
use crate::xml::BitRange;
use serde::Serialize;

#[derive(Clone, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OverrideKind {
    /// A field the encoding's bit map lacks.
    AddField {
        encoding: &'static str,
        field: &'static str,
        offset: u32,
        count: u32,
    },
    /// Operands in 9-bit source fields that AMD types with an 8-bit VGPR type (`v0` = 0) are
    /// given the generation's full source type instead: in a 9-bit source field VGPRs are
    /// 256 + n and lower values are scalar registers and constants.
    RetypeNineBitVgprSource { to: &'static str },
    /// The operands in `fields` of `instructions` get data format `to` (when the spec has it).
    DataFormat {
        instructions: &'static [&'static str],
        fields: &'static [&'static str],
        to: &'static str,
    },
}

#[derive(Clone, Debug, Serialize)]
pub struct Override {
    pub generations: &'static [&'static str],
    #[serde(flatten)]
    pub kind: OverrideKind,
    pub reason: &'static str,
}

/// The generations an override concerns, by short name: sets derived from the
/// per-generation traits in `isa-vocab`, not written out here.
const GFX9_CDNA: &[&str] = &isa_vocab::GFX9;

const GFX11_UP: &[&str] = &isa_vocab::GFX11_UP;

/// Every override the project knows.
pub static OVERRIDES: &[Override] = &[
    Override {
        generations: GFX9_CDNA,
        kind: OverrideKind::AddField { encoding: "ENC_VOP3P", field: "OPSEL_HI2", offset: 14, count: 1 },
        reason: "CDNA VOP3P: bit 14 is op_sel_hi for the third source (LLVM's opsel_hi2); AMD's bit map leaves the bit unnamed, so without it the bit would be lost in printing and assembly",
    },
    Override {
        generations: GFX11_UP,
        kind: OverrideKind::RetypeNineBitVgprSource { to: "OPR_SRC" },
        reason: "VOP3 DPP forms: AMD types SRC1, a 9-bit source field, with the 8-bit VGPR type whose v0 is 0; the hardware and LLVM read the field as a full source (v0 is 256, lower values are SGPRs and constants), so read literally the type names the wrong register",
    },
    Override {
        generations: GFX9_CDNA,
        kind: OverrideKind::DataFormat {
            instructions: &["V_LDEXP_F16"],
            fields: &["SRC1", "VSRC1"],
            to: "FMT_NUM_I16",
        },
        reason: "the second source of v_ldexp_f16 is the exponent, an integer (AMD's pseudocode reads it as i16); AMD's operand list gives it the F16 format, which would make float input modifiers and constants apply to it",
    },
];

/// Applies the overrides that concern `spec`; returns what was applied.
pub fn apply(spec: &mut Spec) -> Vec<String> {
    let mut applied = Vec::new();
    let Some(g) = spec.generation else {
        return applied;
    };
    for o in OVERRIDES
        .iter()
        .filter(|o| o.generations.contains(&g.name()))
    {
        match &o.kind {
            OverrideKind::AddField {
                encoding,
                field,
                offset,
                count,
            } => {
                let Some(enc) = spec.encodings.iter_mut().find(|e| e.name == *encoding) else {
                    continue;
                };
                if enc.fields.iter().any(|f| f.name == *field) {
                    continue;
                }
                let mask = crate::model::low_mask(*count) << *offset;
                if enc
                    .fields
                    .iter()
                    .any(|f| f.mask() & mask != 0 && !f.is_conditional)
                {
                    // The XML now names these bits itself: the override is obsolete here.
                    continue;
                }
                enc.fields.push(Field {
                    name: field.to_string(),
                    description: Some(format!(
                        "Added by the project's override layer: {}",
                        o.reason
                    )),
                    is_conditional: false,
                    ranges: vec![BitRange {
                        pos: 0,
                        order: 0,
                        bit_offset: *offset,
                        bit_count: *count,
                        padding: None,
                    }],
                    predefined_values: Vec::new(),
                });
                applied.push(format!(
                    "{encoding}: added field {field} (bit {offset}, {count} bit(s))"
                ));
            }
            OverrideKind::RetypeNineBitVgprSource { to } => {
                if let Some(done) = retype_nine_bit_vgpr_sources(spec, to) {
                    applied.push(done);
                }
            }
            OverrideKind::DataFormat {
                instructions,
                fields,
                to,
            } => {
                if let Some(done) = set_data_format(spec, instructions, fields, to) {
                    applied.push(done);
                }
            }
        }
    }
    applied
}

/// Applies [`OverrideKind::DataFormat`]; says what changed, if anything.
fn set_data_format(
    spec: &mut Spec,
    instructions: &[&str],
    fields: &[&str],
    to: &str,
) -> Option<String> {
    let target = spec.data_formats.iter().position(|d| d.name == to)?;
    let mut count = 0;
    for ins in spec
        .instructions
        .iter_mut()
        .filter(|i| instructions.contains(&i.name.as_str()))
    {
        for o in ins.encodings.iter_mut().flat_map(|e| e.operands.iter_mut()) {
            if o.field_name.as_deref().is_some_and(|f| fields.contains(&f))
                && o.data_format != Some(target)
            {
                o.data_format = Some(target);
                o.data_format_name = Some(to.to_string());
                count += 1;
            }
        }
    }
    (count > 0).then(|| {
        format!(
            "{count} operand(s) of {} given data format {to}",
            instructions.join(", ")
        )
    })
}

/// Applies [`OverrideKind::RetypeNineBitVgprSource`]; says what changed, if anything.
fn retype_nine_bit_vgpr_sources(spec: &mut Spec, to: &str) -> Option<String> {
    let target = spec.operand_types.iter().position(|t| t.name == to)?;
    let vgpr_from_zero: Vec<bool> = spec
        .operand_types
        .iter()
        .map(|t| {
            t.predefined_values
                .iter()
                .any(|v| v.name.eq_ignore_ascii_case("v0") && v.value == 0)
        })
        .collect();
    let mut count = 0;
    let mut types = std::collections::BTreeSet::new();
    for ins in &mut spec.instructions {
        for ie in &mut ins.encodings {
            let Some(enc) = ie.encoding.map(|e| &spec.encodings[e]) else {
                continue;
            };
            for o in &mut ie.operands {
                let (Some(f), Some(t)) = (o.field, o.operand_type) else {
                    continue;
                };
                let field = &enc.fields[f];
                if field.width() == 9 && vgpr_from_zero[t] && !field.name.starts_with("LITERAL") {
                    types.insert(o.operand_type_name.clone().unwrap_or_default());
                    o.operand_type = Some(target);
                    o.operand_type_name = Some(to.to_string());
                    count += 1;
                }
            }
        }
    }
    (count > 0).then(|| {
        format!(
            "{count} operand(s) in 9-bit source fields retyped from {} to {to}",
            types.into_iter().collect::<Vec<_>>().join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vop3p_opsel_hi2_is_added_on_cdna_only_when_missing() {
        let xml = crate::synth::synthetic_spec(4)
            .replace("ENC_SYN0", "ENC_VOP3P")
            .replace("AMD RDNA 4", "AMD CDNA 3");
        let mut spec = crate::model::load_bytes(std::path::Path::new("x.xml"), xml.as_bytes());
        // The synthetic VOP3P names bit 14 (its OPSEL field covers 11..14): nothing to add.
        assert!(apply(&mut spec).is_empty());
        let enc = spec
            .encodings
            .iter_mut()
            .find(|e| e.name == "ENC_VOP3P")
            .unwrap();
        enc.fields.retain(|f| f.name != "OPSEL");
        let applied = apply(&mut spec);
        assert_eq!(applied.len(), 1, "{applied:?}");
        let enc = spec.encoding("ENC_VOP3P").unwrap();
        assert_eq!(enc.field("OPSEL_HI2").unwrap().mask(), 1 << 14);
    }
}
