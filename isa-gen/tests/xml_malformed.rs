//! Bad input gives located diagnostics, never a panic, and keeps what was read.

use isa_gen::model::{load_bytes, Spec};
use isa_gen::Severity;
use proptest::prelude::*;
use std::path::Path;

/// A minimal spec in AMD's schema, written for these tests: one 32-bit scalar encoding and one
/// instruction (the opcode and bit positions are those of s_wqm_b64 on RDNA 3).
const MINI: &str = r#"<Spec>
    <Document>
        <Copyright>test</Copyright>
        <Sensitivity>none</Sensitivity>
        <License>MIT</License>
        <ReleaseDate>2026-02-20</ReleaseDate>
        <SchemaVersion>1.1.1</SchemaVersion>
    </Document>
    <ISA>
        <Architecture>
            <ArchitectureName>AMD RDNA 3</ArchitectureName>
            <ArchitectureId>7</ArchitectureId>
        </Architecture>
        <Encodings>
            <Encoding Order="1">
                <EncodingName>ENC_SOP1</EncodingName>
                <BitCount>32</BitCount>
                <EncodingIdentifierMask Radix="2">11111111100000001111111100000000</EncodingIdentifierMask>
                <EncodingIdentifiers>
                    <EncodingIdentifier Radix="2">10111110100000000001110100000000</EncodingIdentifier>
                </EncodingIdentifiers>
                <EncodingConditions>
                    <EncodingCondition>
                        <ConditionName>default</ConditionName>
                        <CondtionExpression>
                            <op type="!=">
                                <op type=".fieldderef">
                                    <op type=".fieldderef"><id val="INST"/><id val="SOP1"/></op>
                                    <id val="SSRC0"/>
                                </op>
                                <lit val="255"/>
                            </op>
                        </CondtionExpression>
                    </EncodingCondition>
                </EncodingConditions>
                <Description>scalar one-input</Description>
                <MicrocodeFormat>
                    <BitMap>
                        <Field IsConditional="false"><FieldName>SSRC0</FieldName><BitLayout RangeCount="1"><Range Order="0"><BitCount>8</BitCount><BitOffset>0</BitOffset></Range></BitLayout></Field>
                        <Field IsConditional="false"><FieldName>OP</FieldName><BitLayout RangeCount="1"><Range Order="0"><BitCount>8</BitCount><BitOffset>8</BitOffset></Range></BitLayout></Field>
                        <Field IsConditional="false"><FieldName>SDST</FieldName><BitLayout RangeCount="1"><Range Order="0"><BitCount>7</BitCount><BitOffset>16</BitOffset></Range></BitLayout></Field>
                        <Field IsConditional="false"><FieldName>ENCODING</FieldName><BitLayout RangeCount="1"><Range Order="0"><BitCount>9</BitCount><BitOffset>23</BitOffset></Range></BitLayout></Field>
                    </BitMap>
                </MicrocodeFormat>
            </Encoding>
        </Encodings>
        <Instructions>
            <Instruction>
                <InstructionName>S_WQM_B64</InstructionName>
                <InstructionEncodings>
                    <InstructionEncoding>
                        <EncodingName>ENC_SOP1</EncodingName>
                        <EncodingCondition>default</EncodingCondition>
                        <Opcode Radix="10">29</Opcode>
                        <Operands>
                            <Operand Input="false" Output="true" IsImplicit="false" IsBinaryMicrocodeRequired="true" Order="1">
                                <FieldName>SDST</FieldName>
                                <DataFormatName>FMT_NUM_B64</DataFormatName>
                                <OperandType>OPR_SREG</OperandType>
                                <OperandSize>64</OperandSize>
                            </Operand>
                        </Operands>
                    </InstructionEncoding>
                </InstructionEncodings>
            </Instruction>
        </Instructions>
        <DataFormats>
            <DataFormat>
                <DataFormatName>FMT_NUM_B64</DataFormatName>
                <DataType>bits</DataType>
                <BitCount>64</BitCount>
                <ComponentCount>1</ComponentCount>
            </DataFormat>
        </DataFormats>
        <OperandTypes>
            <OperandType IsPartitioned="false">
                <OperandTypeName>OPR_SREG</OperandTypeName>
                <OperandPredefinedValues>
                    <PredefinedValue><Name>s0</Name><Value>0</Value></PredefinedValue>
                </OperandPredefinedValues>
            </OperandType>
        </OperandTypes>
        <FunctionalGroups/>
        <FunctionalSubgroups/>
    </ISA>
</Spec>
"#;

fn load(text: &str) -> Spec {
    load_bytes(Path::new("mini.xml"), text.as_bytes())
}

fn codes(spec: &Spec) -> Vec<(&'static str, Severity, u32, u32)> {
    spec.diagnostics
        .iter()
        .map(|d| (d.code, d.severity, d.location.line, d.location.column))
        .collect()
}

/// 1-based line and column of the first occurrence of `needle` in `text`.
fn line_col_of(text: &str, needle: &str) -> (u32, u32) {
    let off = text.find(needle).expect("needle present");
    let line = text[..off].matches('\n').count() as u32 + 1;
    let col = (off - text[..off].rfind('\n').map_or(0, |p| p + 1)) as u32 + 1;
    (line, col)
}

#[test]
fn the_mini_spec_loads_clean_and_resolved() {
    let spec = load(MINI);
    assert!(spec.diagnostics.is_empty(), "{:?}", spec.diagnostics);
    assert_eq!(spec.generation, Some(isa_gen::Generation::Rdna3));
    let ins = spec.instruction("s_wqm_b64").expect("instruction");
    assert!(ins.is_complete());
    let ie = &ins.encodings[0];
    assert_eq!(ie.opcode, Some(29));
    let enc = &spec.encodings[ie.encoding.unwrap()];
    assert_eq!(enc.identifier_by_opcode.get(&29), Some(&0xbe801d00));
    assert_eq!(
        ie.operands[0].field.map(|f| enc.fields[f].name.as_str()),
        Some("SDST")
    );
}

#[test]
fn truncated_file_is_located_at_the_end_and_keeps_what_was_read() {
    let cut = MINI.find("<DataFormats>").unwrap();
    let spec = load(&MINI[..cut]);
    assert!(spec.read_stopped_early);
    let trunc: Vec<_> = codes(&spec)
        .into_iter()
        .filter(|c| c.0 == "truncated")
        .collect();
    assert_eq!(trunc.len(), 1, "{:?}", spec.diagnostics);
    let last_line = MINI[..cut].matches('\n').count() as u32 + 1;
    assert_eq!(trunc[0].2, last_line);
    // Encodings and the instruction were read before the cut.
    assert_eq!(spec.encodings.len(), 1);
    assert_eq!(spec.instructions.len(), 1);
    // Its data format is now missing: a located dangling reference, and the encoding is incomplete.
    assert!(codes(&spec).iter().any(|c| c.0 == "dangling-data-format"));
    assert!(!spec.instructions[0].is_complete());
}

#[test]
fn wrong_root_is_rejected_with_location() {
    let spec = load("<?xml version=\"1.0\"?>\n<Other><x/></Other>\n");
    assert_eq!(codes(&spec), vec![("wrong-root", Severity::Error, 2, 1)]);
    assert!(spec.read_stopped_early);
}

#[test]
fn bad_radix_and_bad_digits_are_errors_at_the_element() {
    let text = MINI.replace(r#"<Opcode Radix="10">29"#, r#"<Opcode Radix="7">29"#);
    let spec = load(&text);
    let (line, col) = line_col_of(&text, "<Opcode Radix=\"7\"");
    assert!(
        codes(&spec).contains(&("bad-radix", Severity::Error, line, col)),
        "{:?}",
        spec.diagnostics
    );
    // Without an opcode the instruction encoding is incomplete, not silently kept.
    assert!(!spec.instructions[0].is_complete());

    let text = MINI.replace(
        "<EncodingIdentifierMask Radix=\"2\">11111111100000001111111100000000",
        "<EncodingIdentifierMask Radix=\"2\">1111111110000000111111110000000x",
    );
    let spec = load(&text);
    assert!(
        codes(&spec).iter().any(|c| c.0 == "bad-number"),
        "{:?}",
        spec.diagnostics
    );
}

#[test]
fn missing_required_element_drops_only_that_item() {
    let text = MINI.replace("<InstructionName>S_WQM_B64</InstructionName>", "");
    let spec = load(&text);
    let (line, col) = line_col_of(&text, "<Instruction>");
    assert!(
        codes(&spec).contains(&("missing-element", Severity::Error, line, col)),
        "{:?}",
        spec.diagnostics
    );
    assert_eq!(spec.instructions.len(), 0);
    assert_eq!(spec.encodings.len(), 1);
}

#[test]
fn dangling_references_mark_the_instruction_incomplete() {
    let text = MINI
        .replace(
            "<EncodingName>ENC_SOP1</EncodingName>\n                        <EncodingCondition>",
            "<EncodingName>ENC_NOPE</EncodingName>\n                        <EncodingCondition>",
        )
        .replace(
            "<OperandType>OPR_SREG</OperandType>",
            "<OperandType>OPR_NOPE</OperandType>",
        );
    let spec = load(&text);
    let c = codes(&spec);
    assert!(c.iter().any(|c| c.0 == "dangling-encoding"), "{c:?}");
    assert!(c.iter().any(|c| c.0 == "dangling-operand-type"), "{c:?}");
    let ie = &spec.instructions[0].encodings[0];
    assert_eq!(ie.incomplete.len(), 2, "{:?}", ie.incomplete);
    assert!(ie.incomplete[0].contains("ENC_NOPE"));
}

#[test]
fn duplicate_instruction_keeps_the_first() {
    let start = MINI.find("            <Instruction>").unwrap();
    let end = MINI.find("        </Instructions>").unwrap();
    let one = &MINI[start..end];
    let text = MINI.replace(one, &format!("{one}{}", one.replace(">29<", ">30<")));
    let spec = load(&text);
    assert_eq!(spec.instructions.len(), 1);
    assert_eq!(spec.instructions[0].encodings[0].opcode, Some(29));
    let dup: Vec<_> = codes(&spec)
        .into_iter()
        .filter(|c| c.0 == "duplicate")
        .collect();
    assert_eq!(dup.len(), 1);
    // Located at the second <Instruction> start tag.
    let second = text.match_indices("<Instruction>").nth(1).unwrap().0;
    let line = text[..second].matches('\n').count() as u32 + 1;
    assert_eq!(dup[0].2, line);
}

#[test]
fn an_instruction_encoding_listed_twice_is_a_warning_and_kept_once() {
    let start = MINI
        .find("                    <InstructionEncoding>")
        .unwrap();
    let end = MINI
        .find("                </InstructionEncodings>")
        .unwrap();
    let one = &MINI[start..end];
    // An identical copy is dropped; a copy with another opcode is a different encoding.
    let twice = MINI.replace(one, &format!("{one}{one}"));
    let spec = load(&twice);
    assert_eq!(spec.instructions[0].encodings.len(), 1);
    let dup: Vec<_> = codes(&spec)
        .into_iter()
        .filter(|c| c.0 == "duplicate-instruction-encoding")
        .collect();
    assert_eq!(dup.len(), 1);
    assert_eq!(dup[0].1, Severity::Warning);
    let second = twice
        .match_indices("<InstructionEncoding>")
        .nth(1)
        .unwrap()
        .0;
    assert_eq!(dup[0].2, twice[..second].matches('\n').count() as u32 + 1);

    let differing = MINI.replace(one, &format!("{one}{}", one.replace(">29<", ">30<")));
    let spec = load(&differing);
    assert_eq!(spec.instructions[0].encodings.len(), 2);
    assert!(!codes(&spec)
        .iter()
        .any(|c| c.0 == "duplicate-instruction-encoding"));
}

#[test]
fn invalid_utf8_is_located_and_the_prefix_is_read() {
    let mut bytes = MINI.as_bytes().to_vec();
    let at = MINI.find("<DataFormats>").unwrap();
    bytes[at + 1] = 0xff;
    let spec = load_bytes(Path::new("mini.xml"), &bytes);
    let c = codes(&spec);
    let line = MINI[..at].matches('\n').count() as u32 + 1;
    assert!(
        c.iter().any(|c| c.0 == "invalid-utf8" && c.2 == line),
        "{c:?}"
    );
    assert_eq!(spec.instructions.len(), 1);
}

#[test]
fn unknown_elements_and_attributes_are_warnings_with_location() {
    let text = MINI
        .replace(
            "<BitCount>32</BitCount>",
            "<BitCount>32</BitCount>\n                <FutureThing>x</FutureThing>",
        )
        .replace(
            "<Encoding Order=\"1\">",
            "<Encoding Order=\"1\" Shiny=\"yes\">",
        );
    let spec = load(&text);
    let (l1, c1) = line_col_of(&text, "<FutureThing>");
    let (l2, c2) = line_col_of(&text, "<Encoding Order");
    let c = codes(&spec);
    assert!(
        c.contains(&("unknown-element", Severity::Warning, l1, c1)),
        "{c:?}"
    );
    assert!(
        c.contains(&("unknown-attribute", Severity::Warning, l2, c2)),
        "{c:?}"
    );
    // Nothing else was lost.
    assert!(spec.instructions[0].is_complete());
}

#[test]
fn opcode_that_does_not_fit_the_op_field_is_an_error() {
    let text = MINI.replace(">29</Opcode>", ">300</Opcode>");
    let spec = load(&text);
    assert!(codes(&spec).iter().any(|c| c.0 == "opcode-range"));
    assert!(!spec.instructions[0].is_complete());
}

#[test]
fn identifier_bits_outside_the_mask_and_overlapping_fields_are_reported() {
    let text = MINI
        .replace(
            "<EncodingIdentifier Radix=\"2\">10111110100000000001110100000000",
            "<EncodingIdentifier Radix=\"2\">10111110100000000001110100000001",
        )
        .replace(
            "<BitCount>7</BitCount><BitOffset>16</BitOffset>",
            "<BitCount>8</BitCount><BitOffset>16</BitOffset>",
        );
    let spec = load(&text);
    let c = codes(&spec);
    assert!(c.iter().any(|c| c.0 == "identifier-outside-mask"), "{c:?}");
    assert!(
        c.iter()
            .any(|c| c.0 == "overlapping-fields" && c.1 == Severity::Error),
        "{c:?}"
    );
}

#[test]
fn malformed_xml_is_located() {
    let text = MINI.replace(
        "</BitCount>\n                <EncodingIdentifierMask",
        "</BitCnt>\n                <EncodingIdentifierMask",
    );
    let spec = load(&text);
    let c = codes(&spec);
    assert!(c.iter().any(|c| c.0 == "malformed-xml"), "{c:?}");
    let (line, _) = line_col_of(&text, "</BitCnt>");
    assert!(
        c.iter().any(|c| c.0 == "malformed-xml" && c.2 == line),
        "{c:?}"
    );
}

/// Every diagnostic points inside the text it came from.
fn locations_in_range(spec: &Spec, text: &[u8]) -> bool {
    let lines = text.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
    spec.diagnostics
        .iter()
        .all(|d| d.location.line >= 1 && d.location.line <= lines && d.location.column >= 1)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn mutated_specs_never_panic_and_stay_located(
        cut in 0usize..MINI.len(),
        flips in proptest::collection::vec((0usize..MINI.len(), any::<u8>()), 0..4),
        delete in proptest::option::of((0usize..MINI.len(), 1usize..40)),
    ) {
        let mut bytes = MINI.as_bytes().to_vec();
        for (at, b) in flips {
            bytes[at] = b;
        }
        if let Some((at, n)) = delete {
            let end = (at + n).min(bytes.len());
            bytes.drain(at..end);
        }
        let truncated = &bytes[..cut.min(bytes.len())];
        for input in [&bytes[..], truncated] {
            let spec = load_bytes(Path::new("mutated.xml"), input);
            prop_assert!(locations_in_range(&spec, input));
            // A changed file is either still clean or says why.
            if input != MINI.as_bytes() && spec.diagnostics.is_empty() {
                // Mutations inside text or descriptions can leave a valid spec: then the model
                // still resolves the instruction.
                prop_assert!(spec.instructions.len() <= 1);
            }
        }
    }
}
