//! Synthetic specs in AMD's schema, for benchmarks and stress tests: the same shape and
//! element density as AMD's full files (encodings with hundreds of identifiers, instructions
//! with several encodings and operands, operand types with long register lists), at any size.

use std::fmt::Write as _;

/// Writes a well-formed, self-consistent spec with about `instructions` instructions. With
/// 1,500 instructions it is about 15 MB, the size of AMD's largest files.
pub fn synthetic_spec(instructions: usize) -> String {
    let encodings = 24usize;
    let per_enc = instructions.div_ceil(encodings);
    let mut s = String::with_capacity(instructions * 10_500);
    s.push_str("<Spec>\n    <Document>\n        <Copyright>synthetic</Copyright>\n        <Sensitivity>none</Sensitivity>\n        <License>MIT</License>\n        <ReleaseDate>2026-02-20</ReleaseDate>\n        <SchemaVersion>1.1.1</SchemaVersion>\n    </Document>\n    <ISA>\n        <Architecture>\n            <ArchitectureName>AMD RDNA 4</ArchitectureName>\n            <ArchitectureId>10</ArchitectureId>\n        </Architecture>\n        <Encodings>\n");
    for e in 0..encodings {
        let _ = write!(s, "            <Encoding Order=\"{e}\">\n                <EncodingName>ENC_SYN{e}</EncodingName>\n                <BitCount>64</BitCount>\n                <EncodingIdentifierMask Radix=\"2\">{}</EncodingIdentifierMask>\n                <EncodingIdentifiers>\n", bits64(0xffff_0000));
        for op in 0..per_enc.max(1) {
            let id = 0xd400_0000u64 | ((op as u64 & 0x3ff) << 16);
            let _ = writeln!(
                s,
                "                    <EncodingIdentifier Radix=\"2\">{}</EncodingIdentifier>",
                bits64(id)
            );
        }
        s.push_str("                </EncodingIdentifiers>\n                <EncodingConditions>\n                    <EncodingCondition>\n                        <ConditionName>default</ConditionName>\n                        <CondtionExpression>\n                            <op type=\"&amp;&amp;\">\n                                <op type=\"!=\">\n                                    <op type=\".fieldderef\">\n                                        <op type=\".fieldderef\">\n                                            <id val=\"INST\"/>\n                                            <id val=\"SYN\"/>\n                                        </op>\n                                        <id val=\"SRC0\"/>\n                                        <ty>\n                                            <t base=\"I\" size=\"32\"/>\n                                        </ty>\n                                    </op>\n                                    <lit val=\"255\"/>\n                                    <ty>\n                                        <t base=\"U\" size=\"1\"/>\n                                    </ty>\n                                </op>\n                                <op type=\".notwithin\">\n                                    <op type=\".fieldderef\">\n                                        <op type=\".fieldderef\">\n                                            <id val=\"INST\"/>\n                                            <id val=\"SYN\"/>\n                                        </op>\n                                        <id val=\"SRC1\"/>\n                                    </op>\n                                    <op type=\".cons_array\">\n                                        <lit val=\"250\"/>\n                                        <lit val=\"255\"/>\n                                    </op>\n                                </op>\n                            </op>\n                        </CondtionExpression>\n                    </EncodingCondition>\n                </EncodingConditions>\n                <Description>Synthetic encoding for benchmarks.</Description>\n                <MicrocodeFormat>\n                    <BitMap>\n");
        for (name, off, cnt) in [
            ("VDST", 0, 8),
            ("ABS", 8, 3),
            ("OPSEL", 11, 4),
            ("CLAMP", 15, 1),
            ("OP", 16, 10),
            ("ENCODING", 26, 6),
            ("SRC0", 32, 9),
            ("SRC1", 41, 9),
            ("SRC2", 50, 9),
            ("OMOD", 59, 2),
            ("NEG", 61, 3),
        ] {
            let _ = write!(s, "                        <Field IsConditional=\"false\">\n                            <FieldName>{name}</FieldName>\n                            <Description>Synthetic field {name}.</Description>\n                            <BitLayout RangeCount=\"1\">\n                                <Range Order=\"0\">\n                                    <BitCount>{cnt}</BitCount>\n                                    <BitOffset>{off}</BitOffset>\n                                </Range>\n                            </BitLayout>\n                        </Field>\n");
        }
        s.push_str("                    </BitMap>\n                </MicrocodeFormat>\n            </Encoding>\n");
    }
    s.push_str("        </Encodings>\n        <Instructions>\n");
    for i in 0..instructions {
        let _ = write!(s, "            <Instruction>\n                <InstructionFlags>\n                    <IsBranch>FALSE</IsBranch>\n                    <IsConditionalBranch>FALSE</IsConditionalBranch>\n                    <IsIndirectBranch>FALSE</IsIndirectBranch>\n                    <IsProgramTerminator>FALSE</IsProgramTerminator>\n                    <IsImmediatelyExecuted>FALSE</IsImmediatelyExecuted>\n                </InstructionFlags>\n                <InstructionName>V_SYNTHETIC_{i}</InstructionName>\n                <Description>A synthetic instruction number {i}, with a description about as long as the ones in real files, so that the text per element matches: it reads its inputs &amp; writes its output.</Description>\n                <FunctionalGroup>\n                    <Name>VALU</Name>\n                    <FunctionalSubgroups>\n                        <Subgroup>ARITHMETIC</Subgroup>\n                    </FunctionalSubgroups>\n                </FunctionalGroup>\n                <InstructionEncodings>\n");
        let enc = i % encodings;
        let op = (i / encodings) & 0x3ff;
        // Real instructions have several encodings (VOP3, literal, DPP8, DPP16, ...); the
        // variants differ in their operands, as real ones do (identical copies are dropped).
        for variant in 0..4 {
            let _ = write!(s, "                    <InstructionEncoding>\n                        <EncodingName>ENC_SYN{enc}</EncodingName>\n                        <EncodingCondition>default</EncodingCondition>\n                        <Opcode Radix=\"10\">{op}</Opcode>\n                        <Operands>\n");
            for (k, (field, ty)) in [
                ("VDST", "OPR_SYN_VGPR"),
                ("SRC0", "OPR_SYN_SRC"),
                ("SRC1", "OPR_SYN_SRC"),
                ("SRC2", "OPR_SYN_SRC"),
            ]
            .iter()
            .enumerate()
            {
                let _ = write!(s, "                            <Operand Input=\"{}\" Output=\"{}\" IsImplicit=\"false\" IsBinaryMicrocodeRequired=\"true\" Order=\"{}\">\n                                <FieldName>{field}</FieldName>\n                                <DataFormatName>FMT_SYN_{}</DataFormatName>\n                                <OperandType>{ty}</OperandType>\n                                <OperandSize>{}</OperandSize>\n                            </Operand>\n", k > 0, k == 0, k + 1, variant % 3, 32 << (variant / 3));
            }
            s.push_str(
                "                        </Operands>\n                    </InstructionEncoding>\n",
            );
        }
        s.push_str("                </InstructionEncodings>\n            </Instruction>\n");
    }
    s.push_str("        </Instructions>\n        <DataFormats>\n");
    for d in 0..3 {
        let _ = write!(s, "            <DataFormat>\n                <DataFormatName>FMT_SYN_{d}</DataFormatName>\n                <Description>Synthetic format.</Description>\n                <DataType>integer</DataType>\n                <BitCount>32</BitCount>\n                <ComponentCount>1</ComponentCount>\n                <DataAttributes>\n                    <BitMap Order=\"0\">\n                        <Field Signedness=\"Unsigned\">\n                            <FieldName>Value</FieldName>\n                            <BitLayout RangeCount=\"1\">\n                                <Range Order=\"1\">\n                                    <BitCount>32</BitCount>\n                                    <BitOffset>0</BitOffset>\n                                </Range>\n                            </BitLayout>\n                        </Field>\n                    </BitMap>\n                </DataAttributes>\n            </DataFormat>\n");
    }
    s.push_str("        </DataFormats>\n        <OperandTypes>\n");
    for (name, count) in [("OPR_SYN_VGPR", 256), ("OPR_SYN_SRC", 512)] {
        let _ = write!(s, "            <OperandType IsPartitioned=\"false\">\n                <OperandTypeName>{name}</OperandTypeName>\n                <Description>Synthetic register operand.</Description>\n                <OperandPredefinedValues>\n");
        for v in 0..count {
            let _ = write!(s, "                    <PredefinedValue>\n                        <Name>v{v}</Name>\n                        <Value>{v}</Value>\n                        <Description>&lt;p&gt;See above.&lt;/p&gt;</Description>\n                    </PredefinedValue>\n");
        }
        s.push_str("                </OperandPredefinedValues>\n            </OperandType>\n");
    }
    s.push_str("        </OperandTypes>\n        <FunctionalGroups>\n            <FunctionalGroup>\n                <Name>VALU</Name>\n                <Description>Vector ALU.</Description>\n            </FunctionalGroup>\n        </FunctionalGroups>\n        <FunctionalSubgroups>\n            <FunctionalSubgroup>\n                <Name>ARITHMETIC</Name>\n            </FunctionalSubgroup>\n        </FunctionalSubgroups>\n    </ISA>\n</Spec>\n");
    s
}

fn bits64(v: u64) -> String {
    format!("{v:064b}")
}

#[cfg(test)]
mod tests {
    #[test]
    fn synthetic_spec_loads_clean_with_the_requested_size() {
        let text = super::synthetic_spec(48);
        let spec = crate::model::load_bytes(std::path::Path::new("synthetic.xml"), text.as_bytes());
        let errors: Vec<_> = spec.errors().map(|d| d.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
        assert_eq!(spec.instructions.len(), 48);
        assert!(spec
            .instructions
            .iter()
            .all(|i| i.is_complete() && i.encodings.len() == 4));
        assert_eq!(spec.encodings.len(), 24);
    }
}
