//! Checks the llvm-mc oracle harness against known encodings. Every test prints "skipped: ..." and
//! returns when no llvm-mc 22+ is installed (CI installs llvm-22).

use isa_gen::Generation;
use isa_tests::llvm_mc::{AsmResult, DisasmResult, LlvmMc, S_NOP_0};

fn oracle() -> Option<LlvmMc> {
    match LlvmMc::find() {
        Ok(mc) => Some(mc),
        Err(e) => {
            eprintln!("skipped: {}", e.reason);
            None
        }
    }
}

/// A small deterministic generator (xorshift64*), so the random batches are reproducible.
struct Words(u64);

impl Words {
    fn next_u32(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    }
}

fn lines(texts: &[&str]) -> Vec<String> {
    texts.iter().map(|t| t.to_string()).collect()
}

#[test]
fn every_generation_is_known_to_llvm_mc() {
    let Some(mc) = oracle() else { return };
    for gen in Generation::ALL {
        mc.check_target(gen)
            .unwrap_or_else(|e| panic!("{gen}: {e}"));
    }
}

#[test]
fn s_wqm_b64_round_trips() {
    let Some(mc) = oracle() else { return };
    let expected = [
        (Generation::Rdna3, 0xbe80_1d80u32),
        (Generation::Rdna4, 0xbe80_1d80),
        (Generation::Cdna5, 0xbe80_1d80),
        (Generation::Cdna3, 0xbe80_0780),
    ];
    let text = "s_wqm_b64 s[0:1], 0";
    for (gen, word) in expected {
        let asm = mc.assemble(gen, &lines(&[text])).unwrap();
        assert_eq!(
            asm.results[0].bytes(),
            Some(word.to_le_bytes().to_vec()),
            "{gen}"
        );
        let AsmResult::Encoded { instructions, .. } = &asm.results[0] else {
            unreachable!()
        };
        assert_eq!(instructions.len(), 1);
        assert_eq!(instructions[0].text, text);

        let dis = mc.disassemble(gen, &[word.to_le_bytes().to_vec()]).unwrap();
        assert_eq!(dis.results[0].text(), Some(text), "{gen}");
        assert_eq!(dis.results[0].consumed(), Some(4), "{gen}");
        assert_eq!(
            (dis.stats.cases, dis.stats.ok, dis.stats.processes),
            (1, 1, 1)
        );
    }
}

#[test]
fn gfx1250_ds_and_vop3_encodings() {
    let Some(mc) = oracle() else { return };
    let cases = [
        (
            "ds_bpermute_b32 v5, v1, v2",
            vec![0x00, 0x00, 0xcc, 0xda, 0x01, 0x02, 0x00, 0x05],
        ),
        (
            "v_msad_u8 v5, v1, v2, s3",
            vec![0x05, 0x00, 0x39, 0xd6, 0x01, 0x05, 0x0e, 0x00],
        ),
    ];
    let texts: Vec<String> = cases.iter().map(|(t, _)| t.to_string()).collect();
    let asm = mc.assemble(Generation::Cdna5, &texts).unwrap();
    let dis_cases: Vec<Vec<u8>> = cases.iter().map(|(_, b)| b.clone()).collect();
    let dis = mc.disassemble(Generation::Cdna5, &dis_cases).unwrap();
    for (i, (text, bytes)) in cases.iter().enumerate() {
        assert_eq!(asm.results[i].bytes().as_ref(), Some(bytes), "{text}");
        assert_eq!(dis.results[i].text(), Some(*text));
        assert_eq!(dis.results[i].consumed(), Some(8), "{text}");
    }
}

#[test]
fn mixed_batch_reports_consumed_bytes_per_case() {
    let Some(mc) = oracle() else { return };
    let s_mov_literal = [0xff, 0x00, 0x80, 0xbe]; // s_mov_b32 s0, <literal>
    let cases: Vec<Vec<u8>> = vec![
        vec![0x01, 0x00, 0x80, 0xbf],
        vec![0xff; 4], // no gfx11 encoding
        [s_mov_literal, [0x78, 0x56, 0x34, 0x12]].concat(),
        s_mov_literal.to_vec(), // literal missing: the padding supplies it
        [0x80, 0x1d, 0x80, 0xbe, 0x01, 0x00, 0x80, 0xbf].to_vec(), // two instructions
        S_NOP_0.to_vec(),       // the padding word itself
        Vec::new(),
        vec![0x00, 0x00], // not a whole word
    ];
    let batch = mc.disassemble(Generation::Rdna3, &cases).unwrap();
    let r = &batch.results;
    assert_eq!(r.len(), cases.len());
    assert_eq!(r[0].text(), Some("s_nop 1"));
    assert_eq!(r[0].consumed(), Some(4));
    assert_eq!(r[1], DisasmResult::Invalid);
    assert_eq!(r[2].text(), Some("s_mov_b32 s0, 0x12345678"));
    assert_eq!(r[2].consumed(), Some(8));
    // 0xbf800000 (-1.0) is an inline constant, so llvm-mc marks the forced literal with lit().
    assert_eq!(r[3].text(), Some("s_mov_b32 s0, lit(0xbf800000)"));
    assert_eq!(
        r[3].consumed(),
        Some(8),
        "the literal came from the padding"
    );
    let two = r[4].decoded().unwrap();
    assert_eq!(two.text, "s_wqm_b64 s[0:1], 0");
    assert_eq!(two.following, vec!["s_nop 1".to_string()]);
    assert_eq!(two.consumed, 8, "both instructions together");
    assert_eq!(r[5].text(), Some("s_nop 0"));
    assert_eq!(r[5].consumed(), Some(4));
    for i in [6, 7] {
        let is_word_error =
            matches!(&r[i], DisasmResult::Error(m) if m.contains("whole 32-bit words"));
        assert!(is_word_error, "{:?}", r[i]);
    }
    let s = batch.stats;
    assert_eq!(
        (s.cases, s.ok, s.invalid, s.crashed, s.errors),
        (8, 5, 1, 0, 2)
    );
    assert_eq!(s.processes, 1);
}

#[test]
fn random_words_all_get_a_result_in_few_processes() {
    let Some(mc) = oracle() else { return };
    let mut rng = Words(0x1234_5678_9abc_def1);
    let cases: Vec<Vec<u8>> = (0..2000)
        .map(|_| rng.next_u32().to_le_bytes().to_vec())
        .collect();
    let batch = mc.disassemble(Generation::Rdna3, &cases).unwrap();
    let s = batch.stats;
    eprintln!("gfx1100, 2000 random words: {s}");
    assert_eq!(batch.results.len(), 2000);
    assert_eq!(s.cases, 2000);
    assert_eq!(s.ok + s.invalid + s.crashed + s.errors, 2000);
    assert_eq!(s.errors, 0, "unattributed output");
    assert!(s.processes <= 4, "{} processes", s.processes);
    // Random words hit both outcomes plentifully on gfx11.
    assert!(s.ok > 500 && s.invalid > 500, "{s}");
    for result in &batch.results {
        if let Some(d) = result.decoded() {
            assert!(!d.text.is_empty());
            assert!(matches!(d.consumed, 4 | 8 | 12 | 16), "{d:?}");
            assert!(d.following.is_empty(), "{d:?}");
        }
    }

    // Assembling the texts back is one batch too, with one result per line.
    let texts: Vec<String> = batch
        .results
        .iter()
        .filter_map(|r| r.text().map(String::from))
        .collect();
    let asm = mc.assemble(Generation::Rdna3, &texts).unwrap();
    let a = asm.stats;
    eprintln!("gfx1100, their texts assembled back: {a}");
    assert_eq!(asm.results.len(), texts.len());
    assert_eq!(
        (a.cases, a.ok + a.invalid, a.crashed, a.errors),
        (texts.len(), texts.len(), 0, 0)
    );
    assert!(a.processes <= 4, "{a}");
    assert!(a.ok * 10 >= a.cases * 8, "most printed texts assemble: {a}");
    for (text, r) in texts
        .iter()
        .zip(&asm.results)
        .filter(|(_, r)| r.error_message().is_some())
        .take(5)
    {
        eprintln!(
            "  llvm-mc prints but rejects `{text}`: {}",
            r.error_message().unwrap()
        );
    }
    let one_instruction = asm.results.iter().filter(
        |r| matches!(r, AsmResult::Encoded { instructions, .. } if instructions.len() == 1),
    );
    assert_eq!(one_instruction.count(), a.ok);

    // The same words in small chunks give the same answers (chunking does not change attribution).
    let chunked = LlvmMc::find()
        .unwrap()
        .with_chunk_cases(300)
        .disassemble(Generation::Rdna3, &cases)
        .unwrap();
    assert_eq!(chunked.results, batch.results);
    assert_eq!(chunked.stats.processes, 7);
}

#[test]
fn a_crashing_case_is_isolated_and_the_rest_kept() {
    let Some(mc) = oracle() else { return };
    // llvm-mc 22.1.8 segfaults on this gfx90a case (found by fuzzing random 64-bit cases).
    let crasher = vec![0x16, 0xc1, 0xc6, 0xd1, 0xfc, 0xff, 0xdd, 0x5a];
    let mut cases: Vec<Vec<u8>> = (0..300u32)
        .map(|i| (0xbf80_0000 | (i % 8)).to_le_bytes().to_vec())
        .collect();
    cases[137] = crasher.clone();
    cases[138] = vec![0xff; 4]; // an invalid word right after it
    let batch = mc.disassemble(Generation::Cdna2, &cases).unwrap();
    for (i, r) in batch.results.iter().enumerate() {
        match i {
            137 => {}
            138 => assert_eq!(*r, DisasmResult::Invalid),
            _ => assert_eq!(
                r.text(),
                Some(format!("s_nop {}", i % 8).as_str()),
                "case {i}"
            ),
        }
    }
    let s = batch.stats;
    eprintln!("gfx90a batch with a crasher: {s}");
    if mc.version().starts_with("22.") {
        assert_eq!(batch.results[137], DisasmResult::Crashed);
        assert_eq!(s.crashed, 1);
        assert!(s.processes > 1 && s.processes < 20, "{s}");
    }
    assert_eq!(
        s.crashed,
        batch
            .results
            .iter()
            .filter(|r| **r == DisasmResult::Crashed)
            .count()
    );
    assert_eq!((s.cases, s.invalid, s.errors), (300, 1, 0));
    assert_eq!(s.ok, 299 - s.crashed);
}

#[test]
fn assembly_error_stays_on_its_line() {
    let Some(mc) = oracle() else { return };
    let batch_lines = lines(&[
        "s_nop 0",
        "s_mov_b32 s0, 0x12345678",
        "v_add_f32 v1, v2, v3 v4",
        "",
        "s_wqm_b64 s[0:1], 0",
    ]);
    let batch = mc.assemble(Generation::Rdna3, &batch_lines).unwrap();
    let r = &batch.results;
    assert_eq!(r[0].bytes(), Some(S_NOP_0.to_vec()));
    assert_eq!(
        r[1].bytes(),
        Some(vec![0xff, 0x00, 0x80, 0xbe, 0x78, 0x56, 0x34, 0x12])
    );
    assert_eq!(
        r[2].error_message(),
        Some("invalid operand for instruction")
    );
    let AsmResult::Error(diags) = &r[2] else {
        unreachable!()
    };
    assert_eq!(diags[0].column, 22);
    assert_eq!(
        r[3].bytes(),
        Some(Vec::new()),
        "an empty line emits nothing"
    );
    assert_eq!(r[4].bytes(), Some(vec![0x80, 0x1d, 0x80, 0xbe]));
    let s = batch.stats;
    assert_eq!(
        (s.cases, s.ok, s.invalid, s.crashed, s.processes),
        (5, 4, 1, 0, 1)
    );
}

#[test]
fn assembly_lines_may_emit_several_instructions_or_none() {
    let Some(mc) = oracle() else { return };
    let batch_lines = lines(&["label:", "s_nop 0\ns_nop 1", "s_bogus s0", ".byte 1"]);
    let batch = mc.assemble(Generation::Cdna3, &batch_lines).unwrap();
    let r = &batch.results;
    assert_eq!(r[0].bytes(), Some(Vec::new()));
    assert_eq!(r[1].error_message(), Some("a case must be a single line"));
    assert_eq!(r[2].error_message(), Some("invalid instruction"));
    assert_eq!(
        r[3].bytes(),
        Some(Vec::new()),
        "data directives are not instructions"
    );
}

#[test]
fn true16_halves_print_alike_on_all_true16_generations() {
    let Some(mc) = oracle() else { return };
    // v_add_f16_e32 with a high-half source.
    let case = vec![vec![0x82, 0x07, 0x02, 0x64]];
    for gen in [
        Generation::Rdna3,
        Generation::Rdna3_5,
        Generation::Rdna4,
        Generation::Cdna5,
    ] {
        let batch = mc.disassemble(gen, &case).unwrap();
        assert_eq!(
            batch.results[0].text(),
            Some("v_add_f16_e32 v1.l, v2.h, v3.l"),
            "{gen}"
        );
    }
}

/// Prints llvm-mc's disassembly throughput; run with `--ignored --nocapture`. (Not a speed target:
/// the criterion benchmark uses `measure_disasm_throughput` too.)
#[test]
#[ignore]
fn report_disasm_throughput() {
    let Some(mc) = oracle() else { return };
    let mut rng = Words(42);
    let words: Vec<u32> = (0..100_000).map(|_| rng.next_u32()).collect();
    for jobs in [1, 2] {
        let mc = LlvmMc::find().unwrap().with_jobs(jobs);
        let rate = mc
            .measure_disasm_throughput(Generation::Rdna3, &words)
            .unwrap();
        eprintln!("gfx1100, 100000 random words, {jobs} job(s): {rate:.0} words/s");
        assert!(rate > 0.0);
    }
    let _ = mc;
}

/// Runs 100,000 random one-word and 100,000 random two-word cases through every generation and
/// prints the counters; run with `--ignored --nocapture`. Every case must be attributed.
#[test]
#[ignore]
fn survey_random_cases_on_all_generations() {
    let Some(mc) = oracle() else { return };
    for gen in Generation::ALL {
        for words_per_case in [1, 2] {
            let mut rng = Words(0x9e37_79b9_7f4a_7c15 ^ gen as u64);
            let cases: Vec<Vec<u8>> = (0..100_000)
                .map(|_| {
                    (0..words_per_case)
                        .flat_map(|_| rng.next_u32().to_le_bytes())
                        .collect()
                })
                .collect();
            let start = std::time::Instant::now();
            let batch = mc.disassemble(gen, &cases).unwrap();
            let s = batch.stats;
            eprintln!(
                "{gen} ({}), {words_per_case}-word cases: {s} in {:.2}s",
                gen.llvm_mcpu(),
                start.elapsed().as_secs_f64()
            );
            for (case, r) in cases.iter().zip(&batch.results) {
                if let DisasmResult::Error(m) = r {
                    eprintln!("  error on {case:02x?}: {m}");
                }
            }
            assert_eq!(s.ok + s.invalid + s.crashed, s.cases, "{gen}: {s}");
        }
    }
}
