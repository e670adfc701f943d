//! The `NT_AMDGPU_METADATA` note (code object v3+): a MessagePack map describing each kernel
//! (`amdhsa.kernels`): its arguments (name, kind, offset, size), segment sizes, wave size and
//! register counts. Read with `rmpv`; only the keys the tools use are typed, the rest kept.

use rmpv::Value;

/// One kernel argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    /// `.name` (absent for hidden arguments).
    pub name: Option<String>,
    /// `.type_name` (`float*`).
    pub type_name: Option<String>,
    /// `.value_kind`: `by_value`, `global_buffer`, `hidden_block_count_x`, ...
    pub value_kind: String,
    pub offset: u32,
    pub size: u32,
    /// `.address_space` of a pointer (`global`, `local`, ...).
    pub address_space: Option<String>,
}

impl KernelArg {
    /// Arguments the runtime fills (`hidden_*`), not the caller.
    pub fn is_hidden(&self) -> bool {
        self.value_kind.starts_with("hidden_")
    }
}

/// One kernel of `amdhsa.kernels`.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KernelMetadata {
    /// `.name`: the source-level name.
    pub name: String,
    /// `.symbol`: the descriptor's symbol (`NAME.kd`).
    pub symbol: String,
    pub args: Vec<KernelArg>,
    pub kernarg_segment_size: Option<u64>,
    pub kernarg_segment_align: Option<u64>,
    pub group_segment_fixed_size: Option<u64>,
    pub private_segment_fixed_size: Option<u64>,
    pub wavefront_size: Option<u64>,
    pub sgpr_count: Option<u64>,
    pub vgpr_count: Option<u64>,
    pub agpr_count: Option<u64>,
    pub max_flat_workgroup_size: Option<u64>,
    pub uses_dynamic_stack: Option<bool>,
}

/// The whole note.
#[derive(Clone, Debug, PartialEq)]
pub struct Metadata {
    /// `amdhsa.version` ([major, minor]).
    pub version: Vec<u64>,
    /// `amdhsa.target` (`amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-`).
    pub target: Option<String>,
    pub kernels: Vec<KernelMetadata>,
    /// The decoded note, for `--json` and keys not typed here.
    pub raw: Value,
}

fn get<'a>(map: &'a [(Value, Value)], key: &str) -> Option<&'a Value> {
    map.iter()
        .find(|(k, _)| k.as_str() == Some(key))
        .map(|(_, v)| v)
}

fn uint(map: &[(Value, Value)], key: &str, at: &str) -> Result<Option<u64>, String> {
    match get(map, key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{at}: `{key}` is not an unsigned integer ({v})")),
    }
}

fn string(map: &[(Value, Value)], key: &str, at: &str) -> Result<Option<String>, String> {
    match get(map, key) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(|s| Some(s.to_string()))
            .ok_or_else(|| format!("{at}: `{key}` is not a string ({v})")),
    }
}

fn as_map<'a>(v: &'a Value, at: &str) -> Result<&'a [(Value, Value)], String> {
    v.as_map()
        .map(Vec::as_slice)
        .ok_or_else(|| format!("{at} is not a map"))
}

fn parse_arg(v: &Value, at: &str) -> Result<KernelArg, String> {
    let m = as_map(v, at)?;
    let need = |key: &str| format!("{at}: no `{key}`");
    let offset = uint(m, ".offset", at)?.ok_or_else(|| need(".offset"))?;
    let size = uint(m, ".size", at)?.ok_or_else(|| need(".size"))?;
    if offset > u32::MAX as u64 || size > u32::MAX as u64 {
        return Err(format!("{at}: offset {offset} or size {size} is too large"));
    }
    Ok(KernelArg {
        name: string(m, ".name", at)?,
        type_name: string(m, ".type_name", at)?,
        value_kind: string(m, ".value_kind", at)?.ok_or_else(|| need(".value_kind"))?,
        offset: offset as u32,
        size: size as u32,
        address_space: string(m, ".address_space", at)?,
    })
}

fn parse_kernel(v: &Value, index: usize) -> Result<KernelMetadata, String> {
    let at = format!("amdhsa.kernels[{index}]");
    let m = as_map(v, &at)?;
    let name = string(m, ".name", &at)?.ok_or_else(|| format!("{at}: no `.name`"))?;
    let at = format!("kernel `{name}`");
    let symbol = string(m, ".symbol", &at)?.unwrap_or_else(|| format!("{name}.kd"));
    let args = match get(m, ".args") {
        None => Vec::new(),
        Some(a) => a
            .as_array()
            .ok_or_else(|| format!("{at}: `.args` is not an array"))?
            .iter()
            .enumerate()
            .map(|(i, a)| parse_arg(a, &format!("{at} argument {i}")))
            .collect::<Result<_, _>>()?,
    };
    Ok(KernelMetadata {
        name,
        symbol,
        args,
        kernarg_segment_size: uint(m, ".kernarg_segment_size", &at)?,
        kernarg_segment_align: uint(m, ".kernarg_segment_align", &at)?,
        group_segment_fixed_size: uint(m, ".group_segment_fixed_size", &at)?,
        private_segment_fixed_size: uint(m, ".private_segment_fixed_size", &at)?,
        wavefront_size: uint(m, ".wavefront_size", &at)?,
        sgpr_count: uint(m, ".sgpr_count", &at)?,
        vgpr_count: uint(m, ".vgpr_count", &at)?,
        agpr_count: uint(m, ".agpr_count", &at)?,
        max_flat_workgroup_size: uint(m, ".max_flat_workgroup_size", &at)?,
        uses_dynamic_stack: get(m, ".uses_dynamic_stack").and_then(Value::as_bool),
    })
}

impl Metadata {
    /// Decodes the note's descriptor bytes.
    pub fn parse(bytes: &[u8]) -> Result<Metadata, String> {
        let mut rest = bytes;
        let raw = rmpv::decode::read_value(&mut rest)
            .map_err(|e| format!("the AMDGPU metadata note is not valid MessagePack: {e}"))?;
        if !rest.is_empty() {
            return Err(format!(
                "the AMDGPU metadata note is not valid MessagePack: {} bytes follow its first value",
                rest.len()
            ));
        }
        let top = as_map(&raw, "the AMDGPU metadata note")?;
        let version = match get(top, "amdhsa.version") {
            None => Vec::new(),
            Some(v) => v
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_u64).collect())
                .ok_or_else(|| "`amdhsa.version` is not an array".to_string())?,
        };
        let target = string(top, "amdhsa.target", "the AMDGPU metadata note")?;
        let kernels = match get(top, "amdhsa.kernels") {
            None => Vec::new(),
            Some(k) => k
                .as_array()
                .ok_or_else(|| "`amdhsa.kernels` is not an array".to_string())?
                .iter()
                .enumerate()
                .map(|(i, k)| parse_kernel(k, i))
                .collect::<Result<_, _>>()?,
        };
        Ok(Metadata {
            version,
            target,
            kernels,
            raw,
        })
    }

    pub fn kernel(&self, name: &str) -> Option<&KernelMetadata> {
        self.kernels.iter().find(|k| k.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(t: &str) -> Value {
        Value::from(t)
    }

    fn note() -> Vec<u8> {
        let arg = |name: Option<&str>, kind: &str, offset: u64, size: u64| {
            let mut m = vec![
                (s(".value_kind"), s(kind)),
                (s(".offset"), Value::from(offset)),
                (s(".size"), Value::from(size)),
            ];
            if let Some(n) = name {
                m.push((s(".name"), s(n)));
            }
            Value::Map(m)
        };
        let kernel = Value::Map(vec![
            (s(".name"), s("k")),
            (s(".symbol"), s("k.kd")),
            (
                s(".args"),
                Value::Array(vec![
                    arg(Some("a"), "global_buffer", 0, 8),
                    arg(Some("n"), "by_value", 8, 4),
                    arg(None, "hidden_block_count_x", 16, 4),
                ]),
            ),
            (s(".kernarg_segment_size"), Value::from(272u64)),
            (s(".wavefront_size"), Value::from(64u64)),
        ]);
        let top = Value::Map(vec![
            (
                s("amdhsa.version"),
                Value::Array(vec![1u64.into(), 2u64.into()]),
            ),
            (s("amdhsa.kernels"), Value::Array(vec![kernel])),
        ]);
        let mut out = Vec::new();
        rmpv::encode::write_value(&mut out, &top).unwrap();
        out
    }

    #[test]
    fn reads_kernels_and_arguments() {
        let m = Metadata::parse(&note()).unwrap();
        assert_eq!(m.version, vec![1, 2]);
        let k = m.kernel("k").unwrap();
        assert_eq!(k.kernarg_segment_size, Some(272));
        assert_eq!(k.args.len(), 3);
        assert_eq!((k.args[1].offset, k.args[1].size), (8, 4));
        assert!(k.args[2].is_hidden() && !k.args[0].is_hidden());
    }

    #[test]
    fn damaged_notes_are_errors() {
        let good = note();
        let e = Metadata::parse(&good[..good.len() - 3]).unwrap_err();
        assert!(e.contains("not valid MessagePack"), "{e}");
        let e = Metadata::parse(&[0x93, 1, 2, 3]).unwrap_err();
        assert!(e.contains("not a map"), "{e}");
        let mut extra = good.clone();
        extra.push(0);
        assert!(Metadata::parse(&extra)
            .unwrap_err()
            .contains("follow its first value"));
    }
}
