//! `amdisa disasm` output: one line per instruction, written through one reused line buffer
//! into a large `BufWriter` (no `String` or `write` system call per instruction), for raw
//! code and for code objects (per symbol, with `llvm-objdump -d`'s layout).

use isa_runtime::codeobj::CodeObject;
use isa_runtime::{decode, disassemble_into, DecodeError, IsaSpec};
use std::collections::HashMap;
use std::fmt::Write as _;
use std::hash::{BuildHasherDefault, Hasher};
use std::io::{self, Write};

/// A multiply-xor hasher for the text cache's 128-bit keys (SipHash would cost more than the
/// lookup saves).
#[derive(Default)]
struct WordHasher(u64);

impl Hasher for WordHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.write_u64(*b as u64);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
}

/// Instruction text by encoding: an instruction's text depends only on its bytes (branch
/// offsets print as the raw immediate), and real code repeats instructions a lot, so each
/// distinct encoding is disassembled once. Bounded; past the bound it only reads.
struct TextCache {
    map: HashMap<(u128, u8), Box<str>, BuildHasherDefault<WordHasher>>,
}

impl TextCache {
    const MAX_ENTRIES: usize = 1 << 18;

    fn key(bytes: &[u8]) -> Option<(u128, u8)> {
        if bytes.len() > 16 {
            return None;
        }
        let mut k = [0u8; 16];
        k[..bytes.len()].copy_from_slice(bytes);
        Some((u128::from_le_bytes(k), bytes.len() as u8))
    }
}

const HEX: &[u8; 16] = b"0123456789abcdef";
const HEX_UPPER: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `v` as `digits` hex digits.
fn push_hex(out: &mut String, v: u64, digits: u32, upper: bool) {
    let table = if upper { HEX_UPPER } else { HEX };
    for i in (0..digits).rev() {
        out.push(table[(v >> (4 * i) & 0xf) as usize] as char);
    }
}

/// Appends `s` as a JSON string (quotes and escapes).
fn push_json_str(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Bytes as `be 80 1d 80` (raw listing and JSON).
fn push_bytes(out: &mut String, bytes: &[u8]) {
    for (i, b) in bytes.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        push_hex(out, *b as u64, 2, false);
    }
}

/// How lines look.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// `00000000: be 80 1d 80                          s_mov_b64 ...` (raw code).
    Raw,
    /// `\ttext   // 000000001700: BE801D80` (code objects, like llvm-objdump).
    Objdump,
    /// One JSON object per line.
    Json,
}

/// Writes a listing; `ok` turns false at the first undecodable word.
pub struct Listing<W: Write> {
    out: io::BufWriter<W>,
    line: String,
    text: String,
    /// None when disabled (`--no-cache`, for measuring the disassembler itself).
    cache: Option<TextCache>,
    pub style: Style,
    pub ok: bool,
}

impl<W: Write> Listing<W> {
    pub fn new(out: W, style: Style) -> Listing<W> {
        Listing {
            out: io::BufWriter::with_capacity(1 << 16, out),
            line: String::with_capacity(256),
            text: String::with_capacity(128),
            cache: Some(TextCache {
                map: HashMap::default(),
            }),
            style,
            ok: true,
        }
    }

    /// Disassembles every instruction, also those seen before.
    pub fn without_cache(mut self) -> Self {
        self.cache = None;
        self
    }

    fn flush_line(&mut self) -> io::Result<()> {
        self.line.push('\n');
        let r = self.out.write_all(self.line.as_bytes());
        self.line.clear();
        r
    }

    /// A free-form line (headers, labels); not in JSON listings.
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        if self.style == Style::Json {
            return Ok(());
        }
        self.line.push_str(text);
        self.flush_line()
    }

    /// Decodes and lists `bytes` placed at `address`, labelled with `symbol` (JSON only; the
    /// text styles print the label with [`Listing::note`]).
    pub fn code(
        &mut self,
        spec: &'static IsaSpec,
        bytes: &[u8],
        address: u64,
        symbol: Option<&str>,
    ) -> io::Result<()> {
        let mut at = 0;
        while at < bytes.len() {
            match decode(spec, &bytes[at..]) {
                Ok((ins, len)) => {
                    let encoding = &bytes[at..at + len];
                    let key = TextCache::key(encoding);
                    let mut text = std::mem::take(&mut self.text);
                    text.clear();
                    let hit = match (&self.cache, key) {
                        (Some(c), Some(k)) => c.map.get(&k).map(|t| text.push_str(t)).is_some(),
                        _ => false,
                    };
                    if !hit {
                        disassemble_into(&ins, &mut text);
                        if let (Some(c), Some(k)) = (&mut self.cache, key) {
                            if c.map.len() < TextCache::MAX_ENTRIES {
                                c.map.insert(k, text.as_str().into());
                            }
                        }
                    }
                    self.instruction(address + at as u64, encoding, &text, None, symbol)?;
                    self.text = text;
                    at += len;
                }
                Err(mut e) => {
                    self.ok = false;
                    // The error names the word's address in the file.
                    e.offset = (address + at as u64) as usize;
                    let n = (bytes.len() - at).min(4);
                    self.undecodable(address + at as u64, &bytes[at..at + n], &e, symbol)?;
                    at += n;
                }
            }
        }
        Ok(())
    }

    fn undecodable(
        &mut self,
        address: u64,
        bytes: &[u8],
        e: &DecodeError,
        symbol: Option<&str>,
    ) -> io::Result<()> {
        let mut w = [0u8; 4];
        w[..bytes.len()].copy_from_slice(bytes);
        let mut text = String::from(".long 0x");
        push_hex(&mut text, u32::from_le_bytes(w) as u64, 8, false);
        self.instruction(address, bytes, &text, Some(&e.to_string()), symbol)
    }

    fn instruction(
        &mut self,
        address: u64,
        bytes: &[u8],
        text: &str,
        error: Option<&str>,
        symbol: Option<&str>,
    ) -> io::Result<()> {
        let line = &mut self.line;
        match self.style {
            Style::Raw => {
                push_hex(line, address, 8, false);
                line.push_str(": ");
                let start = line.len();
                push_bytes(line, bytes);
                while line.len() < start + 36 {
                    line.push(' ');
                }
                line.push(' ');
                line.push_str(text);
                if let Some(e) = error {
                    line.push_str(" ; error: ");
                    line.push_str(e);
                }
            }
            Style::Objdump => {
                line.push('\t');
                line.push_str(text);
                while line.len() < 60 {
                    line.push(' ');
                }
                line.push_str(" // ");
                push_hex(line, address, 12, true);
                line.push(':');
                for chunk in bytes.chunks(4) {
                    let mut w = [0u8; 4];
                    w[..chunk.len()].copy_from_slice(chunk);
                    line.push(' ');
                    push_hex(line, u32::from_le_bytes(w) as u64, 8, true);
                }
                if let Some(e) = error {
                    line.push_str(" ; error: ");
                    line.push_str(e);
                }
            }
            Style::Json => {
                line.push_str("{\"address\":");
                let _ = write!(line, "{address}");
                line.push_str(",\"bytes\":\"");
                push_bytes(line, bytes);
                line.push('"');
                if let Some(e) = error {
                    line.push_str(",\"error\":");
                    push_json_str(line, e);
                }
                if let Some(s) = symbol {
                    line.push_str(",\"symbol\":");
                    push_json_str(line, s);
                }
                line.push_str(",\"text\":");
                push_json_str(line, text);
                line.push('}');
            }
        }
        self.flush_line()
    }

    pub fn finish(mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Lists every executable section of a code object, symbol by symbol.
pub fn code_object<W: Write>(
    listing: &mut Listing<W>,
    name: &str,
    code: &CodeObject,
    spec: &'static IsaSpec,
) -> io::Result<()> {
    listing.note(&format!(
        "{name}: AMDGPU code object v{} ({}), {}",
        code.code_object_version,
        code.kind.name(),
        code.target
    ))?;
    for section in &code.sections {
        listing.note("")?;
        listing.note(&format!("Disassembly of section {}:", section.name))?;
        for range in code.ranges(section) {
            listing.note("")?;
            let mut label = String::new();
            push_hex(&mut label, range.address, 16, false);
            let _ = write!(label, " <{}>:", range.symbol.unwrap_or(&section.name));
            listing.note(&label)?;
            listing.code(spec, range.bytes, range.address, range.symbol)?;
        }
    }
    Ok(())
}
