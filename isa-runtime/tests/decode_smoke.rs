use isa_runtime::{decode, spec};

#[test]
fn s_wqm_b64_decodes_in_every_generation_that_has_it() {
    for s in isa_runtime::specs() {
        let bytes: &[u8] = match s.generation {
            "cdna1" | "cdna2" | "cdna3" | "cdna4" => &[0x80, 0x07, 0x80, 0xbe],
            "rdna1" | "rdna2" => &[0x80, 0x0a, 0x80, 0xbe],
            _ => &[0x80, 0x1d, 0x80, 0xbe],
        };
        if s.instruction_by_name("s_wqm_b64").is_none() {
            continue;
        }
        let (ins, len) = decode(s, bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(len, 4);
        assert_eq!(ins.info().mnemonic, "s_wqm_b64", "{}", s.generation);
        assert_eq!(ins.encode(), bytes);
        let _ = spec(s.generation).unwrap();
    }
}
