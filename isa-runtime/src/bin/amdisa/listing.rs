//! `amdisa disasm` output: one line per instruction, appended as bytes to one large reused
//! output buffer (no `String` or `write` system call per instruction), for raw code and for
//! code objects (per symbol, with `llvm-objdump -d`'s layout).

use isa_runtime::codeobj::CodeObject;
use isa_runtime::{decode, disassemble_into, DecodeError, IsaSpec};
use std::collections::HashMap;
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
fn push_hex(out: &mut Vec<u8>, v: u64, digits: u32, upper: bool) {
    let table = if upper { HEX_UPPER } else { HEX };
    let digits = digits.min(16) as usize;
    let mut buf = [0u8; 16];
    for (i, d) in buf[..digits].iter_mut().rev().enumerate() {
        *d = table[(v >> (4 * i) & 0xf) as usize];
    }
    out.extend_from_slice(&buf[..digits]);
}

/// Appends `s` as a JSON string (quotes and escapes; bytes past ASCII are UTF-8 and pass).
fn push_json_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    for &c in s.as_bytes() {
        match c {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            c if c < 0x20 => {
                out.extend_from_slice(b"\\u");
                push_hex(out, c as u64, 4, false);
            }
            c => out.push(c),
        }
    }
    out.push(b'"');
}

/// Bytes as `be 80 1d 80` (raw listing and JSON).
fn push_bytes(out: &mut Vec<u8>, bytes: &[u8]) {
    // Through a stack buffer: one append per 16 bytes instead of three per byte.
    for (j, chunk) in bytes.chunks(16).enumerate() {
        let mut buf = [b' '; 48];
        for (k, &b) in chunk.iter().enumerate() {
            buf[3 * k] = HEX[(b >> 4) as usize];
            buf[3 * k + 1] = HEX[(b & 0xf) as usize];
        }
        if j > 0 {
            out.push(b' ');
        }
        out.extend_from_slice(&buf[..3 * chunk.len() - 1]);
    }
}

/// Appends spaces until `out` is `width` bytes past `start`.
fn pad_to(out: &mut Vec<u8>, start: usize, width: usize) {
    let want = start + width;
    if out.len() < want {
        out.resize(want, b' ');
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
    out: W,
    /// The lines not yet written to `out`.
    line: Vec<u8>,
    text: String,
    /// None when disabled (`--no-cache`, for measuring the disassembler itself).
    cache: Option<TextCache>,
    pub style: Style,
    pub ok: bool,
}

impl<W: Write> Listing<W> {
    pub fn new(out: W, style: Style) -> Listing<W> {
        Listing {
            out,
            line: Vec::with_capacity(Self::BUFFER + 4096),
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

    /// Bytes of lines gathered before they are written out.
    const BUFFER: usize = 1 << 16;

    fn flush_line(&mut self) -> io::Result<()> {
        self.line.push(b'\n');
        if self.line.len() < Self::BUFFER {
            return Ok(());
        }
        let r = self.out.write_all(&self.line);
        self.line.clear();
        r
    }

    /// A free-form line (headers, labels); not in JSON listings.
    pub fn note(&mut self, text: &str) -> io::Result<()> {
        if self.style == Style::Json {
            return Ok(());
        }
        self.line.extend_from_slice(text.as_bytes());
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
                    let line = Line {
                        address: address + at as u64,
                        bytes: encoding,
                        error: None,
                        symbol,
                    };
                    at += len;
                    if let (Some(c), Some(k)) = (&self.cache, key) {
                        if let Some(t) = c.map.get(&k) {
                            line.write(&mut self.line, self.style, t);
                            self.flush_line()?;
                            continue;
                        }
                    }
                    let mut text = std::mem::take(&mut self.text);
                    text.clear();
                    disassemble_into(&ins, &mut text);
                    if let (Some(c), Some(k)) = (&mut self.cache, key) {
                        if c.map.len() < TextCache::MAX_ENTRIES {
                            c.map.insert(k, text.as_str().into());
                        }
                    }
                    line.write(&mut self.line, self.style, &text);
                    self.text = text;
                    self.flush_line()?;
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
        let text = format!(".long 0x{:08x}", u32::from_le_bytes(w));
        let error = e.to_string();
        let line = Line {
            address,
            bytes,
            error: Some(&error),
            symbol,
        };
        line.write(&mut self.line, self.style, &text);
        self.flush_line()
    }

    pub fn finish(mut self) -> io::Result<()> {
        self.out.write_all(&self.line)?;
        self.line.clear();
        self.out.flush()
    }
}

/// One listed instruction (or undecodable word) but its text.
struct Line<'a> {
    address: u64,
    bytes: &'a [u8],
    error: Option<&'a str>,
    symbol: Option<&'a str>,
}

impl Line<'_> {
    /// Appends the line, `text` its instruction text, without the newline.
    fn write(&self, line: &mut Vec<u8>, style: Style, text: &str) {
        let Line {
            address,
            bytes,
            error,
            symbol,
        } = *self;
        let start = line.len();
        match style {
            Style::Raw => {
                push_hex(line, address, 8, false);
                line.extend_from_slice(b": ");
                let bytes_start = line.len();
                push_bytes(line, bytes);
                pad_to(line, bytes_start, 36);
                line.push(b' ');
                line.extend_from_slice(text.as_bytes());
                if let Some(e) = error {
                    line.extend_from_slice(b" ; error: ");
                    line.extend_from_slice(e.as_bytes());
                }
            }
            Style::Objdump => {
                line.push(b'\t');
                line.extend_from_slice(text.as_bytes());
                pad_to(line, start, 60);
                line.extend_from_slice(b" // ");
                push_hex(line, address, 12, true);
                line.push(b':');
                for chunk in bytes.chunks(4) {
                    let mut w = [0u8; 4];
                    w[..chunk.len()].copy_from_slice(chunk);
                    line.push(b' ');
                    push_hex(line, u32::from_le_bytes(w) as u64, 8, true);
                }
                if let Some(e) = error {
                    line.extend_from_slice(b" ; error: ");
                    line.extend_from_slice(e.as_bytes());
                }
            }
            Style::Json => {
                line.extend_from_slice(b"{\"address\":");
                let _ = write!(line, "{address}");
                line.extend_from_slice(b",\"bytes\":\"");
                push_bytes(line, bytes);
                line.push(b'"');
                if let Some(e) = error {
                    line.extend_from_slice(b",\"error\":");
                    push_json_str(line, e);
                }
                if let Some(s) = symbol {
                    line.extend_from_slice(b",\"symbol\":");
                    push_json_str(line, s);
                }
                line.extend_from_slice(b",\"text\":");
                push_json_str(line, text);
                line.push(b'}');
            }
        }
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
            let label = format!(
                "{:016x} <{}>:",
                range.address,
                range.symbol.unwrap_or(&section.name)
            );
            listing.note(&label)?;
            listing.code(spec, range.bytes, range.address, range.symbol)?;
        }
    }
    Ok(())
}
