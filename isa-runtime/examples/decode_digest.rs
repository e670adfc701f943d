//! A digest of the decoder's results (forms, lengths, bits, error kinds, and the disassembled
//! text) over random words and truncated inputs, per generation: run it before and after a
//! change to the generator (decoder or tables) and compare the lines (`cargo run --release -p isa-runtime --features fixtures
//! --example decode_digest`).
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    for spec in isa_runtime::specs()
        .into_iter()
        .chain(isa_runtime::fixtures::specs())
    {
        let mut state = 0x1234_5678u64;
        let mut buf = Vec::with_capacity(n * 4 + 16);
        for _ in 0..n + 4 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let w = (state >> 32) as u32;
            buf.extend_from_slice(&w.to_le_bytes());
        }
        let mut h = 0xcbf29ce484222325u64;
        let mut mix = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(0x100000001b3);
        };
        let mut ok = 0;
        for k in 0..n {
            let end = buf.len().min(k * 4 + 4 + (k % 13));
            match isa_runtime::decode(spec, &buf[k * 4..end]) {
                Ok((ins, len)) => {
                    ok += 1;
                    mix(ins.form as u64);
                    mix(len as u64);
                    mix(ins.bits as u64);
                    mix((ins.bits >> 64) as u64);
                    for b in isa_runtime::disassemble(&ins).bytes() {
                        mix(b as u64);
                    }
                }
                Err(e) => mix(match e.kind {
                    isa_runtime::DecodeErrorKind::Truncated { needed, available } => {
                        1 << 60 | (needed as u64) << 8 | available as u64
                    }
                    isa_runtime::DecodeErrorKind::UnknownEncoding { word } => 2 << 60 | word as u64,
                    isa_runtime::DecodeErrorKind::Unsupported { encoding } => {
                        4 << 60 | encoding as u64
                    }
                    isa_runtime::DecodeErrorKind::NoMatchingForm { encoding, opcode } => {
                        let _ = encoding;
                        3 << 60 | opcode as u64
                    }
                }),
            }
        }
        println!("{:8} ok {:7} digest {:016x}", spec.generation, ok, h);
    }
}
