//! Tests of the vector ALU printer (`super`): literal texts, fixture-spec forms and hand-made
//! forms no spec has, each against the text llvm-mc 22 prints.

mod literal_tests {
    use super::super::literal_text;

    /// (literal, data format, operand bits, llvm-mc's text), from llvm-mc 22 on gfx1100
    /// (`v_add_f64`, `v_add_f16_e32`, `v_add_nc_u16`, `v_cmpx_lt_i64_e32`, `v_mov_b32_e32`).
    #[test]
    fn literals_by_operand_type() {
        let cases: &[(u64, &str, u16, &str)] = &[
            (0x40000000, "FMT_NUM_F64", 64, "2.0"),
            (0x5, "FMT_NUM_F64", 64, "0x5"),
            (0, "FMT_NUM_F64", 64, "0"),
            (0x3fc45f30, "FMT_NUM_F64", 64, "0x3fc45f30"),
            (0x3c00, "FMT_NUM_F16", 16, "lit(0x3c00)"),
            (0x10, "FMT_NUM_F16", 16, "lit(0x10)"),
            (0x13c00, "FMT_NUM_F16", 16, "lit(0x13c00)"),
            (0xfff0, "FMT_NUM_F16", 16, "lit(0xfff0)"),
            (0x1234, "FMT_NUM_F16", 16, "0x1234"),
            // gfx942 `v_add_f16_e32` and `v_add_u16_e32`: only the low half is read and printed.
            (0x1be0b11f, "FMT_NUM_F16", 16, "0xb11f"),
            (0x1be0b11f, "FMT_NUM_U16", 16, "0xb11f"),
            (0x10, "FMT_NUM_U16", 16, "lit(0x10)"),
            (0xfff0, "FMT_NUM_U16", 16, "0xfff0"),
            (0xfffffff0, "FMT_NUM_U16", 16, "lit(0xfffffff0)"),
            (0x3c00, "FMT_NUM_U16", 16, "0x3c00"),
            (0x5, "FMT_NUM_I64", 64, "lit(0x5)"),
            (0xfffffff0, "FMT_NUM_I64", 64, "0xfffffff0"),
            (0x3f800000, "FMT_NUM_I64", 64, "0x3f800000"),
            (0x3e22f983, "FMT_NUM_B32", 32, "lit(0x3e22f983)"),
            (0xfffffff0, "FMT_NUM_F32", 32, "lit(0xfffffff0)"),
            (0x41, "FMT_NUM_F32", 32, "0x41"),
        ];
        for &(v, format, size, want) in cases {
            assert_eq!(literal_text(v, format, size), want, "{v:#x} as {format}");
        }
    }
}

#[cfg(all(test, feature = "fixtures"))]
mod fixture_tests {
    //! Forms of the project's fixture specs with chosen field values. The expected texts are
    //! what llvm-mc 22 prints for the same bytes (checked by hand; the bytes are in each case).
    use crate::decode::Instruction;
    use crate::disassemble;
    use crate::tables::IsaSpec;
    use crate::test_types::{fixture_spec as spec, instance as build};

    fn text(ins: &Instruction) -> String {
        let (d, _) = crate::decode(ins.spec, &ins.encode()).expect("decodes");
        assert!(d == *ins, "decodes as another form: {d:?}");
        disassemble(&d)
    }

    /// (field values, llvm-mc's text) for forms of one spec.
    type Case<'a> = (&'a str, &'a str, &'a str, &'a [(&'a str, u64)], &'a str);

    fn check(spec: &'static IsaSpec, cases: &[Case]) {
        for (name, encoding, condition, fields, want) in cases {
            let ins = build(spec, name, encoding, condition, fields);
            assert_eq!(
                text(&ins),
                *want,
                "{name} in {encoding}: {:02x?}",
                ins.encode()
            );
        }
    }

    #[test]
    fn rdna3_vop3_modifiers_and_literals() {
        check(
            spec("rdna3"),
            &[
                // [0x01,0x81,0x03,0xd5,0x02,0x07,0x02,0x28]
                (
                    "V_ADD_F32",
                    "ENC_VOP3",
                    "",
                    &[
                        ("VDST", 1),
                        ("SRC0", 258),
                        ("SRC1", 259),
                        ("NEG", 1),
                        ("ABS", 1),
                        ("CLAMP", 1),
                        ("OMOD", 1),
                    ],
                    "v_add_f32_e64 v1, -|v2|, v3 clamp mul:2",
                ),
                // [0x01,0x02,0x03,0xd5,0xf0,0xe4,0x01,0x78]
                (
                    "V_ADD_F32",
                    "ENC_VOP3",
                    "",
                    &[
                        ("VDST", 1),
                        ("SRC0", 240),
                        ("SRC1", 242),
                        ("NEG", 3),
                        ("ABS", 2),
                        ("OMOD", 3),
                    ],
                    "v_add_f32_e64 v1, neg(0.5), -|1.0| div:2",
                ),
                // [0x01,0x00,0x03,0xd5,0x03,0xff,0x01,0x40,0x34,0x12,0x00,0x00]
                (
                    "V_ADD_F32",
                    "VOP3_INST_LITERAL",
                    "has_lit_1",
                    &[("VDST", 1), ("SRC0", 259), ("NEG", 2), ("LITERAL", 0x1234)],
                    "v_add_f32_e64 v1, v3, neg(0x1234)",
                ),
                // [0x01,0x80,0x25,0xd5,0x02,0x82,0x01,0x00]: integer clamp
                (
                    "V_ADD_NC_U32",
                    "ENC_VOP3",
                    "",
                    &[("VDST", 1), ("SRC0", 2), ("SRC1", 193), ("CLAMP", 1)],
                    "v_add_nc_u32_e64 v1, s2, -1 clamp",
                ),
                // [0xff,0x02,0x02,0x7e,0x00,0x00,0x80,0x3f]: a literal that is an inline constant
                (
                    "V_MOV_B32",
                    "VOP1_INST_LITERAL",
                    "",
                    &[("VDST", 1), ("LITERAL", 0x3f800000)],
                    "v_mov_b32_e32 v1, lit(0x3f800000)",
                ),
                // [0xf8,0x02,0x02,0x7e]
                (
                    "V_MOV_B32",
                    "ENC_VOP1",
                    "",
                    &[("VDST", 1), ("SRC0", 248)],
                    "v_mov_b32_e32 v1, 0.15915494",
                ),
                // [0x7e,0x00,0xd1,0xd4,0x02,0xe1,0x01,0x00]: 64-bit operands, EXEC destination implied
                (
                    "V_CMPX_LT_I64",
                    "ENC_VOP3",
                    "",
                    &[("VDST", 126), ("SRC0", 258), ("SRC1", 240)],
                    "v_cmpx_lt_i64_e64 v[2:3], 0.5",
                ),
                // [0xff,0x08,0xa2,0x7d,0x40,0x00,0x00,0x00]: a 64-bit integer takes the literal zero-extended
                (
                    "V_CMPX_LT_I64",
                    "VOPC_INST_LITERAL",
                    "",
                    &[("VSRC1", 4), ("LITERAL", 0x40)],
                    "v_cmpx_lt_i64_e32 lit(0x40), v[4:5]",
                ),
                // [0x01,0x05,0x98,0x7c]: wave32 VCC
                (
                    "V_CMP_GT_U32",
                    "ENC_VOPC",
                    "",
                    &[("SRC0", 257), ("VSRC1", 2)],
                    "v_cmp_gt_u32_e32 vcc_lo, v1, v2",
                ),
                // [0x6a,0x00,0x4c,0xd4,0x01,0x01,0x01,0x00]: a wave mask is one SGPR in wave32
                (
                    "V_CMP_GT_U32",
                    "ENC_VOP3",
                    "",
                    &[("VDST", 106), ("SRC0", 257), ("SRC1", 128)],
                    "v_cmp_gt_u32_e64 vcc_lo, v1, 0",
                ),
            ],
        );
    }

    #[test]
    fn rdna3_dpp() {
        check(
            spec("rdna3"),
            &[
                // [0xfa,0x06,0x02,0x06,0x02,0x01,0x9d,0xff]
                (
                    "V_ADD_F32",
                    "VOP2_VOP_DPP16",
                    "",
                    &[
                        ("VDST", 1),
                        ("VSRC0", 2),
                        ("VSRC1", 3),
                        ("DPP_CTRL", 0x101),
                        ("ROW_MASK", 15),
                        ("BANK_MASK", 15),
                        ("BOUND_CTRL", 1),
                        ("FI", 1),
                        ("SRC0_NEG", 1),
                        ("SRC1_ABS", 1),
                    ],
                    "v_add_f32_dpp v1, -v2, |v3| row_shl:1 row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1",
                ),
                // [0x01,0x80,0x03,0xd5,0xe9,0x06,0x02,0x40,0x02,0x08,0x00,0xe0]
                (
                    "V_ADD_F32",
                    "VOP3_VOP_DPP8",
                    "",
                    &[("VDST", 1), ("VSRC0", 2), ("SRC1", 259), ("LANE_SEL_1", 1), ("LANE_SEL_7", 7), ("NEG", 2), ("CLAMP", 1)],
                    "v_add_f32_e64_dpp v1, v2, -v3 clamp dpp8:[0,1,0,0,0,0,0,7]",
                ),
                // [0xfa,0x02,0x02,0x7e,0x02,0x00,0x01,0xff]: LLVM notes an invalid control in a comment
                (
                    "V_MOV_B32",
                    "VOP1_VOP_DPP16",
                    "",
                    &[("VDST", 1), ("VSRC0", 2), ("DPP_CTRL", 0x100), ("ROW_MASK", 15), ("BANK_MASK", 15)],
                    "v_mov_b32_dpp v1, v2  row_mask:0xf bank_mask:0xf",
                ),
                // [0xfa,0x02,0x02,0x7e,0x02,0x55,0x01,0x3c]
                (
                    "V_MOV_B32",
                    "VOP1_VOP_DPP16",
                    "",
                    &[("VDST", 1), ("VSRC0", 2), ("DPP_CTRL", 0x155), ("ROW_MASK", 3), ("BANK_MASK", 12)],
                    "v_mov_b32_dpp v1, v2 row_share:5 row_mask:0x3 bank_mask:0xc",
                ),
                // [0xe9,0x04,0x98,0x7c,0x01,0x40,0x01,0x00]: VOPC DPP has no suffix
                (
                    "V_CMP_GT_U32",
                    "VOPC_VOP_DPP8",
                    "",
                    &[("VSRC0", 1), ("VSRC1", 2), ("LANE_SEL_2", 5)],
                    "v_cmp_gt_u32 vcc_lo, v1, v2 dpp8:[0,0,5,0,0,0,0,0]",
                ),
                // [0x01,0x00,0x39,0xd6,0xea,0x06,0x06,0x00,0x02,0x00,0x00,0x00]: DPP8 with fetch-inactive
                (
                    "V_MSAD_U8",
                    "VOP3_VOP_DPP8",
                    "",
                    &[("VDST", 1), ("VSRC0", 2), ("SRC1", 259), ("SRC2", 1), ("SRC0", 0xea)],
                    "v_msad_u8_e64_dpp v1, v2, v3, s1 dpp8:[0,0,0,0,0,0,0,0] fi:1",
                ),
            ],
        );
    }

    #[test]
    fn cdna3_sdwa_and_dpp() {
        check(
            spec("cdna3"),
            &[
                // [0xf9,0x06,0x02,0x68,0x02,0x35,0x09,0x86]
                (
                    "V_ADD_U32",
                    "VOP2_VOP_SDWA",
                    "",
                    &[
                        ("VDST", 1),
                        ("VSRC0", 2),
                        ("VSRC1", 3),
                        ("S1", 1),
                        ("SRC0_SEXT", 1),
                        ("DST_SEL", 5),
                        ("DST_UNUSED", 2),
                        ("SRC0_SEL", 1),
                        ("SRC1_SEL", 6),
                        ("CLAMP", 1),
                    ],
                    "v_add_u32_sdwa v1, sext(v2), s3 clamp dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE src0_sel:BYTE_1 src1_sel:DWORD",
                ),
                // [0xf9,0x06,0x02,0x02,0x02,0x86,0x16,0x24]
                (
                    "V_ADD_F32",
                    "VOP2_VOP_SDWA",
                    "",
                    &[
                        ("VDST", 1),
                        ("VSRC0", 2),
                        ("VSRC1", 3),
                        ("SRC0_NEG", 1),
                        ("SRC1_ABS", 1),
                        ("OMOD", 2),
                        ("DST_SEL", 6),
                        ("SRC0_SEL", 6),
                        ("SRC1_SEL", 4),
                    ],
                    "v_add_f32_sdwa v1, -v2, |v3| mul:4 dst_sel:DWORD dst_unused:UNUSED_PAD src0_sel:DWORD src1_sel:WORD_0",
                ),
                // [0xf9,0x04,0x98,0x7d,0x01,0x00,0x06,0x06]: SD clear writes VCC
                (
                    "V_CMP_GT_U32",
                    "VOPC_VOP_SDWA_SDST_ENC",
                    "",
                    &[("VSRC0", 1), ("VSRC1", 2), ("SRC0_SEL", 6), ("SRC1_SEL", 6)],
                    "v_cmp_gt_u32_sdwa vcc, v1, v2 src0_sel:DWORD src1_sel:DWORD",
                ),
                // [0xf9,0x04,0x98,0x7d,0x01,0x84,0x83,0x06]
                (
                    "V_CMP_GT_U32",
                    "VOPC_VOP_SDWA_SDST_ENC",
                    "",
                    &[("SD", 1), ("SDST", 4), ("VSRC0", 1), ("S0", 1), ("VSRC1", 2), ("SRC0_SEL", 3), ("SRC1_SEL", 6)],
                    "v_cmp_gt_u32_sdwa s[4:5], s1, v2 src0_sel:BYTE_3 src1_sel:DWORD",
                ),
                // [0x01,0x05,0x98,0x7d]: wave64 VCC
                ("V_CMP_GT_U32", "ENC_VOPC", "", &[("SRC0", 257), ("VSRC1", 2)], "v_cmp_gt_u32_e32 vcc, v1, v2"),
                // [0xfa,0x06,0x02,0x02,0x02,0x51,0x01,0xff]: GFX90A's row_newbcast
                (
                    "V_ADD_F32",
                    "VOP2_VOP_DPP",
                    "",
                    &[("VDST", 1), ("VSRC0", 2), ("VSRC1", 3), ("DPP_CTRL", 0x151), ("ROW_MASK", 15), ("BANK_MASK", 15)],
                    "v_add_f32_dpp v1, v2, v3 row_newbcast:1 row_mask:0xf bank_mask:0xf",
                ),
                // [0xfa,0x06,0x02,0x02,0x02,0x42,0x09,0xff]
                (
                    "V_ADD_F32",
                    "VOP2_VOP_DPP",
                    "",
                    &[
                        ("VDST", 1),
                        ("VSRC0", 2),
                        ("VSRC1", 3),
                        ("DPP_CTRL", 0x142),
                        ("ROW_MASK", 15),
                        ("BANK_MASK", 15),
                        ("BOUND_CTRL", 1),
                    ],
                    "v_add_f32_dpp v1, v2, v3 row_bcast:15 row_mask:0xf bank_mask:0xf bound_ctrl:1",
                ),
                // [0xfa,0x06,0x02,0x02,0x02,0x34,0x01,0xff]
                (
                    "V_ADD_F32",
                    "VOP2_VOP_DPP",
                    "",
                    &[("VDST", 1), ("VSRC0", 2), ("VSRC1", 3), ("DPP_CTRL", 0x134), ("ROW_MASK", 15), ("BANK_MASK", 15)],
                    "v_add_f32_dpp v1, v2, v3 wave_rol:1 row_mask:0xf bank_mask:0xf",
                ),
                // [0xfa,0x00,0x00,0x7e,0x00,0x1b,0x00,0xff]: no operands, still the DPP controls
                (
                    "V_NOP",
                    "VOP1_VOP_DPP",
                    "",
                    &[("DPP_CTRL", 0x1b), ("ROW_MASK", 15), ("BANK_MASK", 15)],
                    "v_nop quad_perm:[3,2,1,0] row_mask:0xf bank_mask:0xf",
                ),
            ],
        );
    }
}

mod synthetic_tests {
    //! Forms no spec excerpt or fixture has (VOP3P, MFMA, True16 halves), in small hand-made
    //! specs with the real field layouts. The expected texts are what llvm-mc 22 prints for the
    //! same bytes (checked by hand).
    use crate::decode::Instruction;
    use crate::disassemble;
    use crate::tables::{
        EncodingInfo, FieldInfo, FormInfo, InstructionInfo, IsaSpec, OperandInfo, OperandTypeInfo,
        ValueRun,
    };

    const VGPR: u16 = 0;
    const SRC: u16 = 1;
    const VGPR_OR_AGPR: u16 = 2;
    const SRC_VGPR_OR_AGPR: u16 = 3;
    static TYPES: [OperandTypeInfo; 4] = [
        OperandTypeInfo {
            name: "OPR_VGPR",
            runs: &[ValueRun {
                prefix: "v",
                first_value: 0,
                first_index: 0,
                count: 256,
            }],
            values: &[],
            fields: &[],
            subtypes: &[],
        },
        OperandTypeInfo {
            name: "OPR_SRC",
            runs: &[
                ValueRun {
                    prefix: "s",
                    first_value: 0,
                    first_index: 0,
                    count: 106,
                },
                ValueRun {
                    prefix: "v",
                    first_value: 256,
                    first_index: 0,
                    count: 256,
                },
            ],
            values: &[(128, "0"), (240, "0.5")],
            fields: &[],
            subtypes: &[],
        },
        // AMD's MFMA types number AGPRs past the field (512 + n, 768 + n).
        OperandTypeInfo {
            name: "OPR_VGPR_OR_ACCVGPR",
            runs: &[
                ValueRun {
                    prefix: "v",
                    first_value: 0,
                    first_index: 0,
                    count: 256,
                },
                ValueRun {
                    prefix: "acc",
                    first_value: 512,
                    first_index: 0,
                    count: 256,
                },
            ],
            values: &[],
            fields: &[],
            subtypes: &[],
        },
        OperandTypeInfo {
            name: "OPR_SRC_VGPR_OR_ACCVGPR",
            runs: &[
                ValueRun {
                    prefix: "v",
                    first_value: 256,
                    first_index: 0,
                    count: 256,
                },
                ValueRun {
                    prefix: "acc",
                    first_value: 768,
                    first_index: 0,
                    count: 256,
                },
            ],
            values: &[],
            fields: &[],
            subtypes: &[],
        },
    ];

    const fn op(field: u8, ty: u16, format: &'static str, size: u16, output: bool) -> OperandInfo {
        OperandInfo {
            field: Some(field),
            operand_type: Some(ty),
            data_format: format,
            size,
            input: !output,
            output,
            implicit: false,
            binary_required: true,
        }
    }

    fn text(spec: &'static IsaSpec, form: u16, bytes: &[u8]) -> String {
        let mut b = [0u8; 16];
        b[..bytes.len()].copy_from_slice(bytes);
        disassemble(&Instruction {
            spec,
            form,
            bits: u128::from_le_bytes(b),
        })
    }

    // CDNA 3's VOP3P word as AMD's XML describes it: OPSEL_HI has two bits (59-60), bit 14 is
    // in no field. The MFMA word shares the layout of the sources.
    static CDNA_FIELDS: [FieldInfo; 10] = [
        test_field!("VDST", 0, 8),
        test_field!("NEG_HI", 8, 3),
        test_field!("OPSEL", 11, 3),
        test_field!("CLAMP", 15, 1),
        test_field!("OP", 16, 7),
        test_field!("SRC0", 32, 9),
        test_field!("SRC1", 41, 9),
        test_field!("SRC2", 50, 9),
        test_field!("OPSEL_HI", 59, 2),
        test_field!("NEG", 61, 3),
    ];
    static MFMA_FIELDS: [FieldInfo; 10] = [
        test_field!("VDST", 0, 8),
        test_field!("CBSZ", 8, 3),
        test_field!("ABID", 11, 4),
        test_field!("ACC_CD", 15, 1),
        test_field!("OP", 16, 7),
        test_field!("SRC0", 32, 9),
        test_field!("SRC1", 41, 9),
        test_field!("SRC2", 50, 9),
        test_field!("ACC", 59, 2),
        test_field!("BLGP", 61, 3),
    ];
    static CDNA_ENCODINGS: [EncodingInfo; 2] = [
        EncodingInfo {
            name: "ENC_VOP3P",
            order: 0,
            bits: 64,
            mask: 0,
            fixed: 0,
            fields: &CDNA_FIELDS,
            op_field: Some(4),
            family: crate::tables::Family::Vop3p,
            variant: crate::tables::Variant::PLAIN,
        },
        EncodingInfo {
            name: "VOP3P_MFMA",
            order: 1,
            bits: 64,
            mask: 0,
            fixed: 0,
            fields: &MFMA_FIELDS,
            op_field: Some(4),
            family: crate::tables::Family::Vop3p,
            variant: crate::tables::Variant::PLAIN,
        },
    ];
    static CDNA_INSTRUCTIONS: [InstructionInfo; 5] = [
        test_instruction!("V_PK_FMA_F32", "v_pk_fma_f32", &[0]),
        test_instruction!("V_FMA_MIX_F32", "v_fma_mix_f32", &[1]),
        test_instruction!("V_PK_ADD_F16", "v_pk_add_f16", &[2]),
        test_instruction!("V_MFMA_F32_4X4X1_16B_F32", "v_mfma_f32_4x4x1_16b_f32", &[3]),
        test_instruction!(
            "V_MFMA_F32_16X16X128_F8F6F4",
            "v_mfma_f32_16x16x128_f8f6f4",
            &[4]
        ),
    ];
    const PK_F32: &str = "FMT_NUM_PK2_F32";
    static CDNA_FORMS: [FormInfo; 5] = [
        test_form!(
            0,
            0,
            &[
                op(0, VGPR, PK_F32, 64, true),
                op(5, SRC, PK_F32, 64, false),
                op(6, SRC, PK_F32, 64, false),
                op(7, SRC, PK_F32, 64, false)
            ]
        ),
        test_form!(
            1,
            0,
            &[
                op(0, VGPR, "FMT_NUM_F32", 32, true),
                op(5, SRC, "FMT_NUM_F32", 32, false),
                op(6, SRC, "FMT_NUM_F32", 32, false),
                op(7, SRC, "FMT_NUM_F32", 32, false)
            ]
        ),
        test_form!(
            2,
            0,
            &[
                op(0, VGPR, "FMT_NUM_PK2_F16", 32, true),
                op(5, SRC, "FMT_NUM_PK2_F16", 32, false),
                op(6, SRC, "FMT_NUM_PK2_F16", 32, false)
            ]
        ),
        test_form!(
            3,
            1,
            &[
                op(0, VGPR, "FMT_NUM_PK4_F32", 128, true),
                op(5, SRC, "FMT_NUM_F32", 32, false),
                op(6, SRC, "FMT_NUM_F32", 32, false),
                op(7, SRC, "FMT_NUM_PK4_F32", 128, false)
            ]
        ),
        test_form!(
            4,
            1,
            &[
                op(0, VGPR_OR_AGPR, "FMT_NUM_PK4_F32", 128, true),
                op(5, SRC_VGPR_OR_AGPR, "FMT_NUM_PK8_B32", 256, false),
                op(6, SRC_VGPR_OR_AGPR, "FMT_NUM_PK8_B32", 256, false),
                op(7, SRC_VGPR_OR_AGPR, "FMT_NUM_PK4_F32", 128, false)
            ]
        ),
    ];
    static CDNA: IsaSpec = test_spec!(
        "cdna3",
        "gfx942",
        true,
        &CDNA_ENCODINGS,
        &CDNA_INSTRUCTIONS,
        &CDNA_FORMS,
        &TYPES
    );

    #[test]
    fn cdna_packed_modifiers_read_op_sel_hi_2_at_bit_14() {
        let fma = [0x00, 0x40, 0xb0, 0xd3, 0x02, 0x09, 0x1a, 0x1c];
        assert_eq!(
            text(&CDNA, 0, &fma),
            "v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7]"
        );
        let fma_hi2_clear = [0x00, 0x00, 0xb0, 0xd3, 0x02, 0x09, 0x1a, 0x1c];
        assert_eq!(
            text(&CDNA, 0, &fma_hi2_clear),
            "v_pk_fma_f32 v[0:1], v[2:3], v[4:5], v[6:7] op_sel_hi:[1,1,0]"
        );
        // Mixed precision: op_sel_hi defaults to 0.
        let mix = [0x00, 0x00, 0xa0, 0xd3, 0x01, 0x05, 0x0e, 0x0c];
        assert_eq!(
            text(&CDNA, 1, &mix),
            "v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,0,0]"
        );
        let add = [0x00, 0xc2, 0x8f, 0xd3, 0x02, 0x09, 0x02, 0x38];
        assert_eq!(
            text(&CDNA, 2, &add),
            "v_pk_add_f16 v0, v2, v4 neg_lo:[1,0] neg_hi:[0,1] clamp"
        );
    }

    #[test]
    fn mfma_accumulators_and_broadcast_controls() {
        let acc = [0x00, 0x80, 0xc2, 0xd3, 0x00, 0x03, 0x02, 0x04];
        assert_eq!(
            text(&CDNA, 3, &acc),
            "v_mfma_f32_4x4x1_16b_f32 a[0:3], v0, v1, a[0:3]"
        );
        let controls = [0x00, 0x11, 0xc2, 0xd3, 0x00, 0x03, 0x02, 0x64];
        assert_eq!(
            text(&CDNA, 3, &controls),
            "v_mfma_f32_4x4x1_16b_f32 v[0:3], v0, v1, v[0:3] cbsz:1 abid:2 blgp:3"
        );
        // ACC bit 1 (word bit 60) puts source B in the AGPRs (llvm-mc 22, gfx942).
        let acc_b = [0x00, 0x00, 0xc2, 0xd3, 0x00, 0x03, 0x02, 0x14];
        assert_eq!(
            text(&CDNA, 3, &acc_b),
            "v_mfma_f32_4x4x1_16b_f32 v[0:3], v0, a1, v[0:3]"
        );
    }

    #[test]
    fn f8f6f4_sources_take_their_formats_registers() {
        // CBSZ 2 (FP6) gives source A 6 registers, BLGP 4 (FP4) source B 4; the words are
        // llvm-mc 22's for gfx950 (`v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[0:5], v[8:11],
        // v[16:19] cbsz:2 blgp:4`), ACC bit 0 then source A in the AGPRs.
        let fp6_fp4 = [0x00, 0x02, 0xad, 0xd3, 0x00, 0x11, 0x42, 0x84];
        let text6 = "v_mfma_f32_16x16x128_f8f6f4 v[0:3], v[0:5], v[8:11], v[16:19] cbsz:2 blgp:4";
        assert_eq!(text(&CDNA, 4, &fp6_fp4), text6);
        let fp8_agpr = [0x00, 0x00, 0xad, 0xd3, 0x00, 0x11, 0x42, 0x0c];
        let text8 = "v_mfma_f32_16x16x128_f8f6f4 v[0:3], a[0:7], v[8:15], v[16:19]";
        assert_eq!(text(&CDNA, 4, &fp8_agpr), text8);
    }

    #[test]
    fn f64_mfma_accumulator_prints_inv_2pi_as_a_double() {
        // llvm-mc 22 (gfx950): `v_mfma_f64_16x16x4_f64 ..., 0.15915494309189532`; the f32
        // tuples keep the f32 text.
        let f64_text = super::super::float_constant_text("0.15915494", "FMT_NUM_PK4_F64", 256);
        assert_eq!(f64_text, "0.15915494309189532");
        let f32_text = super::super::float_constant_text("0.15915494", "FMT_NUM_PK4_F32", 128);
        assert_eq!(f32_text, "0.15915494");
    }

    #[test]
    fn agpr_sources_assemble_with_their_acc_bits() {
        // The assembler sets ACC (sources A, B) and ACC_CD (destination and C) for AGPRs; the
        // form carries no opcode here, so only the operand and modifier fields are compared.
        let fields = |t: &str| {
            let ins = crate::assemble_instruction(&CDNA, t).unwrap_or_else(|e| panic!("{t}: {e}"));
            [
                "VDST", "SRC0", "SRC1", "SRC2", "ACC", "ACC_CD", "CBSZ", "BLGP",
            ]
            .map(|f| ins.field(f))
        };
        let t = "v_mfma_f32_16x16x128_f8f6f4 a[4:7], a[8:13], v[16:23], a[0:3] cbsz:2";
        let want = [4, 256 + 8, 256 + 16, 256, 1, 1, 2, 0].map(Some);
        assert_eq!(fields(t), want);
        let t = "v_mfma_f32_16x16x128_f8f6f4 v[4:7], v[8:15], a[16:19], v[0:3] blgp:4";
        let want = [4, 256 + 8, 256 + 16, 256, 2, 0, 0, 4].map(Some);
        assert_eq!(fields(t), want);
    }

    #[test]
    fn mixed_precision_fma_shows_neg_and_abs_on_its_sources() {
        // NEG bit 0 negates source 0, NEG_HI bit 1 is the abs of source 1 (llvm-mc 22 prints
        // `v_fma_mix_f32 v0, -v1, |v2|, v3` for these bits on gfx942).
        let mix = [0x00, 0x02, 0xa0, 0xd3, 0x01, 0x05, 0x0e, 0x2c];
        assert_eq!(
            text(&CDNA, 1, &mix),
            "v_fma_mix_f32 v0, -v1, |v2|, v3 op_sel_hi:[1,0,0]"
        );
    }

    // RDNA 3's VOP2 and VOP3 words, with a 16-bit instruction in both.
    static RDNA_VOP2_FIELDS: [FieldInfo; 4] = [
        test_field!("SRC0", 0, 9),
        test_field!("VSRC1", 9, 8),
        test_field!("VDST", 17, 8),
        test_field!("OP", 25, 6),
    ];
    static RDNA_VOP3_FIELDS: [FieldInfo; 10] = [
        test_field!("VDST", 0, 8),
        test_field!("ABS", 8, 3),
        test_field!("OP_SEL", 11, 4),
        test_field!("CLAMP", 15, 1),
        test_field!("OP", 16, 10),
        test_field!("SRC0", 32, 9),
        test_field!("SRC1", 41, 9),
        test_field!("SRC2", 50, 9),
        test_field!("OMOD", 59, 2),
        test_field!("NEG", 61, 3),
    ];
    static RDNA_ENCODINGS: [EncodingInfo; 2] = [
        EncodingInfo {
            name: "ENC_VOP2",
            order: 0,
            bits: 32,
            mask: 0,
            fixed: 0,
            fields: &RDNA_VOP2_FIELDS,
            op_field: Some(3),
            family: crate::tables::Family::Vop2,
            variant: crate::tables::Variant::PLAIN,
        },
        EncodingInfo {
            name: "ENC_VOP3",
            order: 1,
            bits: 64,
            mask: 0,
            fixed: 0,
            fields: &RDNA_VOP3_FIELDS,
            op_field: Some(4),
            family: crate::tables::Family::Vop3,
            variant: crate::tables::Variant::PLAIN,
        },
    ];
    static RDNA_INSTRUCTIONS: [InstructionInfo; 1] =
        [test_instruction!("V_ADD_F16", "v_add_f16", &[0, 1])];
    const F16: &str = "FMT_NUM_F16";
    static RDNA_FORMS: [FormInfo; 2] = [
        test_form!(
            0,
            0,
            &[
                op(2, VGPR, F16, 16, true),
                op(0, SRC, F16, 16, false),
                op(1, VGPR, F16, 16, false)
            ]
        ),
        test_form!(
            0,
            1,
            &[
                op(0, VGPR, F16, 16, true),
                op(5, SRC, F16, 16, false),
                op(6, SRC, F16, 16, false)
            ]
        ),
    ];
    static RDNA: IsaSpec = test_spec!(
        "rdna3",
        "gfx1100",
        false,
        &RDNA_ENCODINGS,
        &RDNA_INSTRUCTIONS,
        &RDNA_FORMS,
        &TYPES
    );

    #[test]
    fn true16_halves() {
        // 32-bit encoding: bit 7 of the register number picks the high half.
        assert_eq!(
            text(&RDNA, 0, &[0x82, 0x07, 0x02, 0x64]),
            "v_add_f16_e32 v1.l, v2.h, v3.l"
        );
        // VOP3: OP_SEL picks the halves, and LLVM prints op_sel as well.
        let vop3 = [0x01, 0xd0, 0x32, 0xd5, 0x02, 0x07, 0x02, 0x00];
        assert_eq!(
            text(&RDNA, 1, &vop3),
            "v_add_f16_e64 v1.h, v2.l, v3.h op_sel:[0,1,1] clamp"
        );
        let neg_constant = [0x01, 0x08, 0x32, 0xd5, 0x02, 0xe1, 0x01, 0x20];
        assert_eq!(
            text(&RDNA, 1, &neg_constant),
            "v_add_f16_e64 v1.l, -v2.h, 0.5 op_sel:[1,0,0]"
        );
    }
}
