//! Decodes random words in a loop (for profiling: `valgrind --tool=callgrind`).
fn main() {
    let spec = isa_runtime::specs()
        .into_iter()
        .find(|s| s.generation == "rdna3")
        .or_else(|| isa_runtime::specs().into_iter().next())
        .expect("a spec");
    let mut state = 7u64;
    let mut buf = Vec::new();
    for _ in 0..(1 << 17) {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        buf.extend_from_slice(&((state >> 32) as u32).to_le_bytes());
    }
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    // A power of two, so that the index wraps with a mask.
    let words = 1usize << 16;
    // `--dynamic`: through `isa_runtime::decode(spec, ..)` (the selector behind a function
    // pointer) instead of the generation module's inlined `decode`.
    let rdna3 =
        spec.generation == "rdna3" && std::env::args().nth(2).as_deref() != Some("--dynamic");
    let t = std::time::Instant::now();
    let mut ok = 0usize;
    for i in 0..n {
        let k = i & (words - 1);
        let r = if rdna3 {
            isa_runtime::rdna3::decode(std::hint::black_box(&buf[k * 4..]))
        } else {
            isa_runtime::decode(spec, std::hint::black_box(&buf[k * 4..]))
        };
        if r.is_ok() {
            ok += 1;
        }
    }
    let dt = t.elapsed().as_secs_f64();
    println!(
        "{}: {n} words, {ok} decoded, {:.1} M words/s",
        spec.generation,
        n as f64 / dt / 1e6
    );
}
