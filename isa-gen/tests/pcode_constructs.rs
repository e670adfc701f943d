//! One test per construct of the pseudocode language, on snippets written for these tests:
//! the syntax tree (as an S-expression) and the typed IR (as `isa-gen pcode show` prints it).

use isa_gen::pcode::{parse_entry, pretty, typecheck, Context, ParseError, TypeError};
use isa_gen::Generation;

fn ast(text: &str) -> String {
    match parse_entry(text) {
        Ok(a) => a.to_string(),
        Err(e) => panic!("{text:?} does not parse: {e}"),
    }
}

fn ir_in(generation: Generation, mnemonic: &str, text: &str) -> String {
    let a = parse_entry(text).unwrap_or_else(|e| panic!("{text:?} does not parse: {e}"));
    let ctx = Context {
        mnemonic,
        generation: Some(generation),
    };
    match typecheck(&a, &ctx) {
        Ok(t) => pretty::render(&t.ir).trim_end().to_string(),
        Err(errors) => panic!("{text:?} does not type: {errors:?}"),
    }
}

fn ir(text: &str) -> String {
    ir_in(Generation::Rdna4, "V_SAMPLE_U32", text)
}

fn type_errors(mnemonic: &str, text: &str) -> Vec<TypeError> {
    let a = parse_entry(text).unwrap_or_else(|e| panic!("{text:?} does not parse: {e}"));
    let ctx = Context {
        mnemonic,
        generation: Some(Generation::Rdna4),
    };
    match typecheck(&a, &ctx) {
        Ok(t) => panic!("{text:?} typed: {}", pretty::render(&t.ir)),
        Err(errors) => errors,
    }
}

fn parse_error(text: &str) -> ParseError {
    match parse_entry(text) {
        Ok(a) => panic!("{text:?} parsed: {a}"),
        Err(e) => e,
    }
}

#[test]
fn typed_accessors_and_arithmetic() {
    let text = "D0.u32 = S0.u32 + S1.u32";
    assert_eq!(ast(text), "(= D0.u32 (+ S0.u32 S1.u32))");
    assert_eq!(ir(text), "D0:u32 = (S0:u32 + S1:u32)");
}

#[test]
fn bit_slices_part_selects_and_reversal() {
    let text = "D0.u32[31 : 0] = S0.u32[0 : 31];\nlow = S1.u32[7 : 0];\nnib = S1.u32[4 +: 4]";
    assert_eq!(
        ast(text),
        "(= D0.u32[31 : 0] S0.u32[0 : 31])\n(= low S1.u32[7 : 0])\n(= nib S1.u32[4 +: 4])"
    );
    assert_eq!(
        ir(text),
        "locals: low: b8 (inferred) nib: b4 (inferred)\n\
         D0:u32[0:i32 +: 32]:b32 = S0:u32[0:i32 +: 32 reversed]\n\
         low:b8 = S1:u32[0:i32 +: 8]\n\
         nib:b4 = S1:u32[4:i32 +: 4]"
    );
}

#[test]
fn slices_that_move_with_a_variable_keep_a_constant_width() {
    let text = "for k in 0 : 3 do\nD0.u32[k * 8 + 7 : k * 8] = S0.u32[k * 8 + 7 : k * 8]\nendfor";
    assert_eq!(
        ir(text),
        "locals: k: i32 (loop)\n\
         for k in 0:i32 : 3:i32 do\n  \
         D0:u32[(k:i32 * 8:i32) +: 8]:b8 = S0:u32[(k:i32 * 8:i32) +: 8]\n\
         endfor"
    );
}

#[test]
fn bit_index_reads_and_writes_one_bit() {
    let text = "D0.u32[S1.u32[4 : 0]] = 1'1U;\nSCC = S0.u32[31]";
    assert_eq!(
        ast(text),
        "(= D0.u32[S1.u32[4 : 0]] 1'1U)\n(= SCC S0.u32[31])"
    );
    assert_eq!(
        ir(text),
        "D0:u32[S1:u32[0:i32 +: 5]]:u1 = 1:u1\nSCC:u1 = S0:u32[31:i32]"
    );
}

#[test]
fn sized_literals_and_casts() {
    let text =
        "a = 8'0U;\nb = 16'1.0;\nc = 32'F(0x3f800000);\nd = 64'U(S0.u32);\ne = 16'BF(S0.f32)";
    assert_eq!(
        ast(text),
        "(= a 8'0U)\n(= b 16'1.0)\n(= c (cast f32 0x3f800000))\n(= d (cast u64 S0.u32))\n(= e (cast bf16 S0.f32))"
    );
    assert_eq!(
        ir(text),
        "locals: a: u8 (inferred) b: f16 (inferred) c: f32 (inferred) d: u64 (inferred) e: bf16 (inferred)\n\
         a:u8 = 0:u8\n\
         b:f16 = 1.0:f16\n\
         c:f32 = as_f32(0x3f800000:b32)\n\
         d:u64 = to_u64(S0:u32)\n\
         e:bf16 = to_bf16(S0:f32)"
    );
}

#[test]
fn unsuffixed_literals_take_their_context_type() {
    assert_eq!(ir("D0.u64 = S0.u64 + 1"), "D0:u64 = (S0:u64 + 1:u64)");
    assert_eq!(ir("D0.f32 = S0.f32 * 2.0"), "D0:f32 = (S0:f32 * 2.0:f32)");
    assert_eq!(ir("D0.f32 = 0xffc00000"), "D0:f32 = as_f32(0xffc00000:b32)");
    assert_eq!(ir("n = 5"), "locals: n: i32 (inferred)\nn:i32 = 5:i32");
}

#[test]
fn implicit_conversions_become_explicit() {
    assert_eq!(
        ir("D0.u64 = S0.u32 + S1.u64"),
        "D0:u64 = (to_u64(S0:u32) + S1:u64)"
    );
    assert_eq!(
        ir("D0.i32 = S0.i32 + S1.u32"),
        "D0:i32 = to_i32((to_u32(S0:i32) + S1:u32))"
    );
    assert_eq!(
        ir("D0.f32 = S0.f32 + S1.i32"),
        "D0:f32 = (S0:f32 + to_f32(S1:i32))"
    );
    assert_eq!(
        ir("SCC = S0.u32 == S1.u32"),
        "SCC:u1 = to_u1((S0:u32 == S1:u32))"
    );
}

#[test]
fn declare_arrays_and_for_loops() {
    let text =
        "declare acc : 32'U[4];\nfor k in 0 : 3 do\nacc[k] = S0.u32 + k\nendfor;\nD0.u32 = acc[2]";
    assert_eq!(
        ast(text),
        "(declare acc u32 [4])\n(for k 0 3 ((= acc[k] (+ S0.u32 k))))\n(= D0.u32 acc[2])"
    );
    assert_eq!(
        ir(text),
        "locals: acc: u32[4] (declared) k: i32 (loop)\n\
         declare acc\n\
         for k in 0:i32 : 3:i32 do\n  \
         acc[k:i32]:u32 = (S0:u32 + to_u32(k:i32))\n\
         endfor\n\
         D0:u32 = acc[2:i32]:u32"
    );
}

#[test]
fn declare_gives_an_operand_a_type() {
    let text = "declare OFFSET0 : 8'U;\nD0.u32 = 32'U(OFFSET0)";
    assert_eq!(ir(text), "D0:u32 = to_u32(OFFSET0:u8)");
}

#[test]
fn while_loops_and_compound_assignment() {
    let text = "n = 3U;\nwhile n > 0U do\nn -= 1U\nendwhile";
    assert_eq!(ast(text), "(= n 3U)\n(while (> n 0U) ((-= n 1U)))");
    assert_eq!(
        ir(text),
        "locals: n: u32 (inferred)\nn:u32 = 3:u32\nwhile (n:u32 > 0:u32) do\n  n:u32 -= 1:u32\nendwhile"
    );
}

#[test]
fn if_elsif_else() {
    let text = "if S0.i32 < 0 then\nD0.i32 = -S0.i32\nelsif S0.i32 == 0 then\nD0.i32 = 1\nelse\nD0.i32 = S0.i32\nendif";
    assert_eq!(
        ast(text),
        "(if (< S0.i32 0) ((= D0.i32 (- S0.i32))) (== S0.i32 0) ((= D0.i32 1)) else ((= D0.i32 S0.i32)))"
    );
    assert_eq!(
        ir(text),
        "if (S0:i32 < 0:i32) then\n  D0:i32 = -S0:i32\nelsif (S0:i32 == 0:i32) then\n  D0:i32 = 1:i32\nelse\n  D0:i32 = S0:i32\nendif"
    );
}

#[test]
fn else_then_if_on_the_next_line_nests() {
    let text =
        "if S0.u32 > 1U then\nD0.u32 = 1U\nelse\nif S0.u32 > 0U then\nD0.u32 = 2U\nendif\nendif";
    assert_eq!(
        ast(text),
        "(if (> S0.u32 1U) ((= D0.u32 1U)) else ((if (> S0.u32 0U) ((= D0.u32 2U)))))"
    );
}

#[test]
fn break_inside_a_loop() {
    let text =
        "D0.i32 = -1;\nfor k in 0 : 31 do\nif S0.u32[k] then\nD0.i32 = k;\nbreak\nendif\nendfor";
    assert_eq!(
        ir(text),
        "locals: k: i32 (loop)\n\
         D0:i32 = -1:i32\n\
         for k in 0:i32 : 31:i32 do\n  \
         if to_bool(S0:u32[k:i32]) then\n    \
         D0:i32 = k:i32\n    \
         break\n  \
         endif\n\
         endfor"
    );
}

#[test]
fn expression_lambdas_are_instantiated_per_argument_types() {
    let text = "BIGGER = lambda(a, b) (a > b ? a : b);\nD0.u32 = BIGGER(S0.u32, S1.u32);\nD1.f32 = BIGGER(S0.f32, S1.f32)";
    assert_eq!(
        ast(text),
        "(lambda BIGGER (a b) (? (> a b) a b))\n(= D0.u32 (BIGGER S0.u32 S1.u32))\n(= D1.f32 (BIGGER S0.f32 S1.f32))"
    );
    assert_eq!(
        ir(text),
        "lambda #0 BIGGER(a: u32, b: u32) -> u32:\n  \
         return ((a:u32 > b:u32) ? a:u32 : b:u32)\n\
         lambda #1 BIGGER(a: f32, b: f32) -> f32:\n  \
         return ((a:f32 > b:f32) ? a:f32 : b:f32)\n\
         body:\n  \
         D0:u32 = lambda#0(S0:u32, S1:u32):u32\n  \
         D1:f32 = lambda#1(S0:f32, S1:f32):f32"
    );
}

#[test]
fn statement_lambdas_with_return() {
    let text = "CLIP = lambda(v) (\nif v < 0 then\nreturn 8'0U\nelse\nreturn v[7 : 0].u8\nendif);\nD0.u8 = CLIP(S0.i16)";
    assert_eq!(
        ir(text),
        "lambda #0 CLIP(v: i16) -> u8:\n  \
         if (v:i16 < 0:i16) then\n    \
         return 0:u8\n  \
         else\n    \
         return as_u8(v:i16[0:i32 +: 8])\n  \
         endif\n\
         body:\n  \
         D0:u8 = lambda#0(S0:i16):u8"
    );
}

#[test]
fn ternary_and_prefix_operators() {
    let text =
        "D0.f32 = S0.f32 > 0.0F ? S0.f32 : -S0.f32;\nD1.u32 = ~S0.u32;\nSCC = !(S0.u32 == 0U)";
    assert_eq!(
        ast(text),
        "(= D0.f32 (? (> S0.f32 0.0F) S0.f32 (- S0.f32)))\n(= D1.u32 (~ S0.u32))\n(= SCC (! (== S0.u32 0U)))"
    );
    assert_eq!(
        ir(text),
        "D0:f32 = ((S0:f32 > 0.0:f32) ? S0:f32 : -S0:f32)\nD1:u32 = ~S0:u32\nSCC:u1 = to_u1(!(S0:u32 == 0:u32))"
    );
}

#[test]
fn operator_precedence_is_cs() {
    assert_eq!(ast("x = a | b ^ c & d"), "(= x (| a (^ b (& c d))))");
    assert_eq!(ast("x = a == b < c"), "(= x (== a (< b c)))");
    assert_eq!(ast("x = a << b + c"), "(= x (<< a (+ b c)))");
    assert_eq!(
        ast("x = a + b * c ** d ** e"),
        "(= x (+ a (* b (** c (** d e)))))"
    );
    assert_eq!(ast("x = -a ** 2"), "(= x (** (- a) 2))");
    assert_eq!(ast("x = a ? b : c ? d : e"), "(= x (? a b (? c d e)))");
    assert_eq!(ast("x = a <> b"), "(= x (!= a b))");
}

#[test]
fn concatenation_reads_and_writes() {
    let text = "{ hi, lo } = S0.u64;\nD0.b64 = { lo, hi }";
    assert_eq!(ast(text), "(= {hi lo} S0.u64)\n(= D0.b64 {lo hi})");
    assert_eq!(
        ir(text),
        "locals: hi: b32 (inferred) lo: b32 (inferred)\n\
         { hi:b32, lo:b32 } = to_b64(S0:u64)\n\
         D0:b64 = { lo:b32, hi:b32 }"
    );
}

#[test]
fn chained_assignment_assigns_right_to_left() {
    let text = "EXEC.u64[laneId] = D0.u64[laneId] = S0.u32 < S1.u32";
    assert_eq!(
        ast(text),
        "(= D0.u64[laneId] (< S0.u32 S1.u32))\n(= EXEC.u64[laneId] D0.u64[laneId])"
    );
}

#[test]
fn memory_and_register_files() {
    let text =
        "MEM[ADDR].b32 = VGPR[laneId][SRC0.u32];\nSGPR[4].b64 = EXEC.u64;\nD0.u32 = LDS[ADDR].u32";
    assert_eq!(
        ir(text),
        "MEM[ADDR:b32]:b32 = VGPR[laneId:u32][SRC0:u32]:b32\n\
         SGPR[4:i32]:b64 = to_b64(as_u64(EXEC:b64))\n\
         D0:u32 = LDS[ADDR:b32]:u32"
    );
}

#[test]
fn wave_state_and_lane_masks() {
    let text = "SCC = VCC.u64[laneId];\nif EXEC[3].u1 then\nM0 = 0U\nendif";
    assert_eq!(
        ir(text),
        "SCC:u1 = as_u64(VCC:b64)[laneId:u32]\nif to_bool(EXEC:b64[3:i32]) then\n  M0:u32 = 0:u32\nendif"
    );
}

#[test]
fn state_register_fields() {
    let text = "if WAVE_MODE.IEEE then\nTRAPSTS.INVALID = 1\nendif";
    assert_eq!(
        ir(text),
        "if to_bool(WAVE_MODE:b32.IEEE:u1) then\n  TRAPSTS:b32.INVALID:u1 = 1:u1\nendif"
    );
}

#[test]
fn helpers_convert_their_arguments() {
    let text = "D0.f32 = fma(S0.f32, S1.f32, S2.f32);\nD1.i32 = 32'I(signext(S0.i16));\nD0.f16 = f32_to_f16(S0.u32)";
    assert_eq!(
        ir(text),
        "D0:f32 = fma(S0:f32, S1:f32, S2:f32):f32\n\
         D1:i32 = to_i32(signext(S0:i16):i64)\n\
         D0:f16 = f32_to_f16(to_f32(S0:u32)):f16"
    );
}

#[test]
fn float_constants_take_the_context_type() {
    let text = "if S0.f16 == +INF then\nD0.f16 = -INF.f16\nelse\nD0.f32 = 32'F(PI * 2.0)\nendif";
    assert_eq!(
        ir(text),
        "if (S0:f16 == +INF:f16) then\n  D0:f16 = -INF:f16\nelse\n  D0:f32 = to_f32((PI:f64 * 2.0:f64))\nendif"
    );
}

#[test]
fn calls_as_statements_and_english_steps() {
    let text = "nop();\n\"Hand the wave to the trap handler\";\ns_nop(16'0U)";
    assert_eq!(
        ast(text),
        "(nop)\n(note \"Hand the wave to the trap handler\")\n(s_nop 16'0U)"
    );
    assert_eq!(
        ir(text),
        "nop()\nnote \"Hand the wave to the trap handler\"\ns_nop(0:u16)"
    );
}

#[test]
fn comments_and_statements_over_several_lines() {
    let text = "// a comment\nD0.u32 =\nS0.u32 + // half way\nS1.u32\n;";
    assert_eq!(ast(text), "(= D0.u32 (+ S0.u32 S1.u32))");
}

#[test]
fn missing_semicolons_between_statements() {
    let text = "a = S0.u32\nb = S1.u32\nD0.u32 = a & b";
    assert_eq!(ast(text), "(= a S0.u32)\n(= b S1.u32)\n(= D0.u32 (& a b))");
}

#[test]
fn rdna2_dialect() {
    let text = "D.u = S0.u + S1.u.\nSCC = (D.u != 0).";
    assert_eq!(
        ast(text),
        "(= D.u32 (+ S0.u32 S1.u32))\n(= SCC (!= D.u32 0))"
    );
    assert_eq!(
        ir_in(Generation::Rdna2, "S_SAMPLE_U32", text),
        "D:u32 = (S0:u32 + S1:u32)\nSCC:u1 = to_u1((D:u32 != 0:u32))"
    );
    let text = "if (S0.u > 3)\nD.u = 1;\nelse if (S0.u > 1)\nD.u = 2;\nend if.";
    assert_eq!(
        ast(text),
        "(if (> S0.u32 3) ((= D.u32 1)) (> S0.u32 1) ((= D.u32 2)))"
    );
    let text = "for i in 0 ... 3 do\nD.u[i] = 1;\nbreak for;\nendfor.";
    assert_eq!(ast(text), "(for i 0 3 ((= D.u32[i] 1) (break)))");
    assert_eq!(ast("D.f = (float)S0.i."), "(= D.f32 (ccast float S0.i32))");
    assert_eq!(
        ast("D.u = {24'h0, S0.u[7:0]}."),
        "(= D.u32 {24'0x0 S0.u32[7 : 0]})"
    );
    assert_eq!(
        ast("ABS(x) := (x < 0 ? -x : x)"),
        "(lambda ABS (x) (? (< x 0) (- x) x))"
    );
}

#[test]
fn rdna2_operands_without_accessors_take_the_instruction_type() {
    assert_eq!(
        ir_in(Generation::Rdna2, "S_SAMPLE_B64", "D = S0 & S1"),
        "D:b64 = (S0:b64 & S1:b64)"
    );
    assert_eq!(
        ir_in(Generation::Rdna2, "V_SAMPLE_LT_F32", "D = S0 < S1"),
        "D:u1 = to_u1((S0:f32 < S1:f32))"
    );
}

#[test]
fn rdna2_packed_lanes_nan_and_either_sign() {
    assert_eq!(
        ir_in(
            Generation::Rdna2,
            "V_SAMPLE_F32",
            "D.f32 = S0.f16[1] * S1.f16[1]"
        ),
        "D:f32 = to_f32((S0:b32.lane[1:i32]:f16 * S1:b32.lane[1:i32]:f16))"
    );
    assert_eq!(
        ir_in(
            Generation::Rdna2,
            "V_SAMPLE_F32",
            "if (S0.f == NaN)\nD.f = 0.0;\nendif."
        ),
        "if isNAN(S0:f32):bool then\n  D:f32 = 0.0:f32\nendif"
    );
    assert_eq!(
        ir_in(Generation::Rdna2, "V_SAMPLE_F32", "SCC = S0.f == +-INF."),
        "SCC:u1 = to_u1((abs(S0:f32):f32 == INF:f32))"
    );
}

#[test]
fn rdna2_memory_data_operands_are_arrays_of_dwords() {
    let text = "src = DATA[1];\nRETURN_DATA[0:1] = src.\nbyte = DATA[7:0].";
    assert_eq!(
        ir_in(Generation::Rdna2, "FLAT_SAMPLE_X2", text),
        "locals: src: b32 (inferred) byte: b8 (inferred)\n\
         src:b32 = DATA:b64[32:u32 +: 32]\n\
         RETURN_DATA:b64[0:u32 +: 64]:b64 = to_b64(src:b32)\n\
         byte:b8 = DATA:b64[0:i32 +: 8]"
    );
}

#[test]
fn variables_written_by_bit_ranges_get_their_width() {
    let text = "tmp[31 : 16].f16 = S1.f16;\ntmp[15 : 0].f16 = S0.f16;\nD0.b32 = tmp";
    assert_eq!(
        ir(text),
        "locals: tmp: b32 (inferred)\n\
         as_f16(tmp:b32[16:i32 +: 16]:b16) = S1:f16\n\
         as_f16(tmp:b32[0:i32 +: 16]:b16) = S0:f16\n\
         D0:b32 = tmp:b32"
    );
}

#[test]
fn type_errors_say_what_and_where() {
    let text = "D0.u32 = S0.u32 + mystery";
    let errors = type_errors("V_SAMPLE_U32", text);
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].code, "undeclared");
    assert_eq!(
        &text[errors[0].span.start as usize..errors[0].span.end as usize],
        "mystery"
    );

    let errors = type_errors("V_SAMPLE_U32", "D0.u32 = frobnicate(S0.u32, 1)");
    assert_eq!(errors[0].code, "unknown-helper");
    assert!(
        errors[0].message.contains("frobnicate"),
        "{}",
        errors[0].message
    );

    let errors = type_errors("V_SAMPLE_U32", "D0.f32 = fma(S0.f32, S1.f32)");
    assert_eq!(errors[0].code, "helper-arity");

    let errors = type_errors("V_SAMPLE_U32", "{ D1.u1, D0.u32 } = S0.u64");
    assert_eq!(errors[0].code, "width-mismatch");

    let errors = type_errors("V_SAMPLE_U32", "D0.u32 = S0.u32[40]");
    assert_eq!(errors[0].code, "bit-out-of-range");

    let errors = type_errors("V_SAMPLE_U32", "D0.u32 = S0.u32[S1.u32 : 0]");
    assert_eq!(errors[0].code, "dynamic-width");

    let errors = type_errors("V_SAMPLE_U32", "D0.f32 = S0.f16 + S1.bf16");
    assert_eq!(errors[0].code, "kind-mismatch");

    let errors = type_errors("V_SAMPLE_U32", "tmp += 1");
    assert_eq!(errors[0].code, "undeclared");

    let errors = type_errors("V_SAMPLE_U32", "break");
    assert_eq!(errors[0].code, "outside-loop");

    let errors = type_errors("V_SAMPLE_U32", "D0.f32 = 23'B(S0.f32)");
    assert_eq!(errors[0].code, "width-mismatch");

    let errors = type_errors("V_SAMPLE_U32", "SCC = S0.u32 == S1.u32 == 0");
    assert_eq!(errors[0].code, "bool-compared");
}

#[test]
fn parse_errors_give_line_column_found_and_expected() {
    let e = parse_error("D0.u32 = S0.u32;\nD1.u32 = S1.u32 +\n");
    assert_eq!(e.found, "end of entry");
    assert!(
        e.expected.iter().any(|x| x == "operand" || x == "name"),
        "{:?}",
        e.expected
    );
    assert_eq!(e.line, 3);

    let e = parse_error("D0.u32 = countones(active lanes)");
    assert_eq!((e.line, e.column), (1, 27));
    assert_eq!(e.found, "lanes");
    assert!(
        e.expected.iter().any(|x| x == "operator"),
        "{:?}",
        e.expected
    );

    let e = parse_error("if S0.u32 then\nD0.u32 = 1\n");
    assert_eq!(e.found, "end of entry");
    assert!(
        e.expected.iter().any(|x| x.contains("endif")),
        "{:?}",
        e.expected
    );
}

#[test]
fn operands_written_in_parts_beyond_the_mnemonic_width_widen() {
    // `DS_READ2_B32` returns two dwords although its mnemonic says 32 bits: the second part
    // must not be cut off when the whole operand is stored back.
    let text = "RETURN_DATA[31 : 0] = MEM[ADDR].b32;\nRETURN_DATA[63 : 32] = MEM[ADDR + 4U].b32";
    let ir = ir_in(Generation::Cdna4, "DS_READ2_B32", text);
    let lines: Vec<&str> = ir.lines().collect();
    assert!(lines[0].starts_with("RETURN_DATA:b32[0:i32 +: 32]"), "{ir}");
    assert!(
        lines[1].starts_with("RETURN_DATA:b64[32:i32 +: 32]"),
        "{ir}"
    );
    // A D16 load of a byte writes 16 bits of an 8-bit mnemonic type.
    let text = "RETURN_DATA[31 : 16] = 16'U(MEM[ADDR].u8)";
    let ir = ir_in(Generation::Cdna4, "DS_READ_U8_D16_HI", text);
    assert!(ir.starts_with("RETURN_DATA:b32[16:i32 +: 16]"), "{ir}");
    // A local keeps its declared width (a write past it is still an error).
    let errors = type_errors(
        "V_SAMPLE_U32",
        "declare t : 32'B;\nt[63 : 32] = S0.u32;\nD0.u32 = t",
    );
    assert!(
        errors.iter().any(|e| e.code == "bit-out-of-range"),
        "{errors:?}"
    );
}
