//! `amdisa info FILE`: what a code object holds, per kernel: the descriptor decoded (segment
//! sizes, RSRC1/2/3 fields, enabled inputs, wave size, float mode) and the metadata note's
//! arguments.

use isa_runtime::codeobj::descriptor::{
    denorm_mode_name, round_mode_name, Field, RSRC1_FIELDS, RSRC2_FIELDS,
};
use isa_runtime::codeobj::{CodeObject, Kernel, KernelDescriptor};
use serde_json::{json, Map, Value};

fn fields_json(fields: &[Field], value: u32) -> Value {
    let mut m = Map::new();
    for f in fields {
        m.insert(f.name.to_string(), json!(f.get(value)));
    }
    Value::Object(m)
}

fn field(fields: &[Field], name: &str, value: u32) -> u32 {
    fields
        .iter()
        .find(|f| f.name == name)
        .map_or(0, |f| f.get(value))
}

/// The float mode RSRC1 sets, in words.
fn float_mode(d: &KernelDescriptor) -> Value {
    json!({
        "round_32": round_mode_name(field(RSRC1_FIELDS, "FLOAT_ROUND_MODE_32", d.rsrc1)),
        "round_16_64": round_mode_name(field(RSRC1_FIELDS, "FLOAT_ROUND_MODE_16_64", d.rsrc1)),
        "denorm_32": denorm_mode_name(field(RSRC1_FIELDS, "FLOAT_DENORM_MODE_32", d.rsrc1)),
        "denorm_16_64": denorm_mode_name(field(RSRC1_FIELDS, "FLOAT_DENORM_MODE_16_64", d.rsrc1)),
    })
}

/// The system SGPRs and VGPR inputs the descriptor enables.
fn inputs(d: &KernelDescriptor) -> (Vec<String>, Vec<String>) {
    let mut sgprs: Vec<String> = d
        .user_sgprs()
        .iter()
        .map(|(i, first, n)| {
            if *n == 1 {
                format!("s{first}: {}", i.name())
            } else {
                format!("s[{first}:{}]: {}", first + n - 1, i.name())
            }
        })
        .collect();
    let first = d.user_sgprs().iter().map(|u| u.2).sum::<u32>();
    for i in 0..d.kernarg_preload_sgprs() {
        sgprs.push(format!(
            "s{}: kernarg preload dword {}",
            first + i,
            d.kernarg_preload_offset() + i
        ));
    }
    let mut next = d.user_sgpr_count();
    for (axis, on) in ["x", "y", "z"].iter().zip(d.workgroup_id_sgprs()) {
        if on {
            sgprs.push(format!("s{next}: workgroup_id_{axis}"));
            next += 1;
        }
    }
    if d.workgroup_info_sgpr() {
        sgprs.push(format!("s{next}: workgroup_info"));
        next += 1;
    }
    if d.private_segment() {
        sgprs.push(format!("s{next}: private_segment_wave_offset"));
    }
    let vgprs = ["x", "y", "z"][..d.workitem_id_dims() as usize]
        .iter()
        .map(|a| format!("workitem_id_{a}"))
        .collect();
    (sgprs, vgprs)
}

pub fn kernel_json(code: &CodeObject, k: &Kernel) -> Value {
    let d = &k.descriptor;
    let (sgprs, vgprs) = inputs(d);
    let rsrc3 = KernelDescriptor::rsrc3_fields(code.target.generation);
    let args: Vec<Value> = k
        .metadata
        .iter()
        .flat_map(|m| &m.args)
        .map(|a| {
            json!({"name": a.name, "type_name": a.type_name, "value_kind": a.value_kind,
                   "offset": a.offset, "size": a.size, "address_space": a.address_space,
                   "hidden": a.is_hidden()})
        })
        .collect();
    json!({
        "name": k.name,
        "entry": k.entry,
        "descriptor_address": k.descriptor_address,
        "group_segment_fixed_size": d.group_segment_fixed_size,
        "private_segment_fixed_size": d.private_segment_fixed_size,
        "kernarg_size": d.kernarg_size,
        "wavefront_size": if d.wavefront_size32() { 32 } else { 64 },
        "uses_dynamic_stack": d.uses_dynamic_stack(),
        "compute_pgm_rsrc1": fields_json(RSRC1_FIELDS, d.rsrc1),
        "compute_pgm_rsrc2": fields_json(RSRC2_FIELDS, d.rsrc2),
        "compute_pgm_rsrc3": fields_json(rsrc3, d.rsrc3),
        "rsrc": [d.rsrc1, d.rsrc2, d.rsrc3],
        "float_mode": float_mode(d),
        "sgpr_inputs": sgprs,
        "vgpr_inputs": vgprs,
        "args": args,
        "metadata": k.metadata.as_ref().map(|m| json!({
            "symbol": m.symbol,
            "kernarg_segment_size": m.kernarg_segment_size,
            "group_segment_fixed_size": m.group_segment_fixed_size,
            "private_segment_fixed_size": m.private_segment_fixed_size,
            "wavefront_size": m.wavefront_size,
            "sgpr_count": m.sgpr_count,
            "vgpr_count": m.vgpr_count,
            "agpr_count": m.agpr_count,
            "max_flat_workgroup_size": m.max_flat_workgroup_size,
        })),
    })
}

pub fn json(name: &str, code: &CodeObject) -> Value {
    json!({
        "file": name,
        "kind": code.kind.name(),
        "code_object_version": code.code_object_version,
        "processor": code.target.processor,
        "generation": code.target.generation,
        "xnack": code.target.xnack.name(),
        "sramecc": code.target.sramecc.name(),
        "metadata_version": code.metadata.as_ref().map(|m| m.version.clone()),
        "metadata_target": code.metadata.as_ref().and_then(|m| m.target.clone()),
        "kernels": code.kernels.iter().map(|k| kernel_json(code, k)).collect::<Vec<_>>(),
    })
}

fn fields_text(out: &mut String, title: &str, fields: &[Field], value: u32) {
    out.push_str(&format!("    {title} {value:#010x}:"));
    let set: Vec<String> = fields
        .iter()
        .filter(|f| f.get(value) != 0)
        .map(|f| format!("{}={}", f.name, f.get(value)))
        .collect();
    if set.is_empty() {
        out.push_str(" (all zero)");
    }
    for (i, s) in set.iter().enumerate() {
        out.push_str(if i % 3 == 0 { "\n      " } else { "  " });
        out.push_str(s);
    }
    out.push('\n');
}

pub fn text(name: &str, code: &CodeObject) -> String {
    let mut out = format!(
        "{name}: AMDGPU code object v{} ({}), {}\n",
        code.code_object_version,
        code.kind.name(),
        code.target
    );
    if let Some(m) = &code.metadata {
        out.push_str(&format!(
            "metadata: version {:?}{}\n",
            m.version,
            m.target
                .as_deref()
                .map(|t| format!(", target {t}"))
                .unwrap_or_default()
        ));
    } else {
        out.push_str("metadata: none (no NT_AMDGPU_METADATA note)\n");
    }
    if code.kernels.is_empty() {
        out.push_str("no kernels (no NAME.kd descriptor symbols)\n");
    }
    for k in &code.kernels {
        let d = &k.descriptor;
        out.push_str(&format!(
            "\nkernel {}: entry {:#x}, descriptor at {:#x}\n",
            k.name, k.entry, k.descriptor_address
        ));
        out.push_str(&format!(
            "  segments: group (LDS) {} bytes, private {} bytes per work-item, kernarg {} bytes\n",
            d.group_segment_fixed_size, d.private_segment_fixed_size, d.kernarg_size
        ));
        let fm = float_mode(d);
        out.push_str(&format!(
            "  wave{}, float mode: f32 round {} denormals {}; f16/f64 round {} denormals {}{}\n",
            if d.wavefront_size32() { 32 } else { 64 },
            fm["round_32"].as_str().unwrap_or("?"),
            fm["denorm_32"].as_str().unwrap_or("?"),
            fm["round_16_64"].as_str().unwrap_or("?"),
            fm["denorm_16_64"].as_str().unwrap_or("?"),
            if d.uses_dynamic_stack() {
                ", dynamic stack"
            } else {
                ""
            }
        ));
        let (sgprs, vgprs) = inputs(d);
        out.push_str(&format!(
            "  SGPR inputs: {}\n",
            if sgprs.is_empty() {
                "none".into()
            } else {
                sgprs.join(", ")
            }
        ));
        out.push_str(&format!("  VGPR inputs: {}\n", vgprs.join(", ")));
        fields_text(&mut out, "COMPUTE_PGM_RSRC1", RSRC1_FIELDS, d.rsrc1);
        fields_text(&mut out, "COMPUTE_PGM_RSRC2", RSRC2_FIELDS, d.rsrc2);
        fields_text(
            &mut out,
            "COMPUTE_PGM_RSRC3",
            KernelDescriptor::rsrc3_fields(code.target.generation),
            d.rsrc3,
        );
        match &k.metadata {
            None => out.push_str("  arguments: no metadata for this kernel\n"),
            Some(m) => {
                out.push_str(&format!(
                    "  arguments ({} bytes of kernarg segment):\n",
                    m.kernarg_segment_size.unwrap_or(d.kernarg_size as u64)
                ));
                for a in &m.args {
                    out.push_str(&format!(
                        "    {:>4} +{:<3} {:<28} {}{}\n",
                        a.offset,
                        a.size,
                        a.value_kind,
                        a.name
                            .as_deref()
                            .unwrap_or(if a.is_hidden() { "(hidden)" } else { "" }),
                        a.type_name
                            .as_deref()
                            .map(|t| format!(" : {t}"))
                            .unwrap_or_default()
                    ));
                }
            }
        }
    }
    out
}
