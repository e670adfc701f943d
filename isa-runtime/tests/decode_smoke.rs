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

/// A word of an encoding without an OP field (dual-issue VOPD, which `decode` leaves to
/// `isa_runtime::dual`) is reported as unsupported, naming the encoding, not as an unknown word.
#[test]
fn vopd_words_are_reported_as_unsupported() {
    let mut checked = 0;
    for s in isa_runtime::specs() {
        for (k, enc) in s.encodings.iter().enumerate() {
            let Some(field) = enc
                .fields
                .iter()
                .find(|f| f.name == "ENCODING")
                .filter(|_| enc.op_field.is_none())
            else {
                continue;
            };
            // Only the ENCODING bits set: opcodes 0, sources 0 (no literal).
            let word = (field.insert(0, field.extract(enc.fixed)) as u32).to_le_bytes();
            let mut bytes = word.to_vec();
            bytes.resize(enc.bits as usize / 8, 0);
            let err = decode(s, &bytes).expect_err("VOPD is not decoded");
            assert!(
                matches!(err.kind, isa_runtime::DecodeErrorKind::Unsupported { encoding } if s.encodings[encoding as usize].op_field.is_none()),
                "{}: {k} {}: {err}",
                s.generation,
                enc.name
            );
            assert!(err.to_string().contains("VOPD"), "{err}");
            checked += 1;
        }
    }
    if checked == 0 {
        eprintln!("skipped: no loaded spec has an encoding without OP field (AMD's RDNA 3/3.5/4 files have VOPD)");
    } else {
        eprintln!("{checked} encodings without OP field report their words as unsupported");
    }
}
