//! Reads an AMD ISA XML file into [`SpecFile`] with quick-xml's pull reader.
//!
//! A hand-written descent over the event stream (rather than serde) gives three things AMD's
//! files need: byte positions for every item (diagnostics say file:line:column), parsing by
//! position where AMD reuses element names at different depths, and a report of every element
//! or attribute the schema model does not know (a newer schema drop is visibly handled, never
//! silently dropped). Problems are collected, not raised: a fatal error (malformed XML, a
//! truncated file) stops reading, and everything read before it is kept.

use super::schema::*;
use crate::diag::{Diagnostic, Reporter};
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;
use std::path::Path;

/// What reading one file produced: as much of the file as could be read, and every problem.
#[derive(Debug)]
pub struct ReadOutcome {
    pub file: SpecFile,
    pub diagnostics: Vec<Diagnostic>,
    /// Reading stopped early (malformed XML, truncated file, invalid UTF-8, wrong root).
    pub fatal: bool,
}

/// Reads a spec from bytes. Never panics; see [`ReadOutcome`].
pub fn read_spec(path: &Path, bytes: &[u8]) -> ReadOutcome {
    let (text, utf8_error) = match std::str::from_utf8(bytes) {
        Ok(t) => (t, None),
        // Read the valid prefix so that nothing before the bad byte is lost.
        Err(e) => (
            // SAFETY-free: the prefix up to valid_up_to is valid UTF-8 by definition.
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or(""),
            Some(e.valid_up_to()),
        ),
    };
    let mut file = SpecFile::default();
    let mut xml = XmlReader::new(path, text);
    if let Some(offset) = utf8_error {
        xml.rep.error(
            "invalid-utf8",
            offset,
            format!("invalid UTF-8 at byte {offset}; the file is read up to that point"),
        );
    }
    let fatal = xml.read_root(&mut file).is_err() || utf8_error.is_some();
    ReadOutcome {
        file,
        diagnostics: xml.rep.diagnostics,
        fatal,
    }
}

/// A fatal error, already reported.
struct Fatal;

type Res<T> = Result<T, Fatal>;

struct XmlReader<'a> {
    reader: Reader<&'a [u8]>,
    rep: Reporter<'a>,
}

/// Element names as written by AMD.
fn name_of<'b>(e: &'b BytesStart<'_>) -> &'b str {
    e.name().into_inner()
}

fn show(name: &str) -> String {
    name.to_string()
}

impl<'a> XmlReader<'a> {
    fn new(path: &'a Path, text: &'a str) -> XmlReader<'a> {
        let mut reader = Reader::from_str(text);
        let config = reader.config_mut();
        config.check_end_names = true;
        config.expand_empty_elements = false;
        XmlReader {
            reader,
            rep: Reporter::new(path, text),
        }
    }

    fn offset(&self) -> usize {
        self.reader.buffer_position() as usize
    }

    /// Byte offset of the `<` of an element just read.
    fn start_offset(&self, e: &BytesStart<'_>, empty: bool) -> usize {
        let tag_len = e.len() + if empty { 3 } else { 2 };
        self.offset().saturating_sub(tag_len)
    }

    fn xml_error(&mut self, err: quick_xml::Error) -> Fatal {
        let at = (self.reader.error_position() as usize).min(self.rep.text.len());
        self.rep
            .error("malformed-xml", at, format!("malformed XML: {err}"));
        Fatal
    }

    fn truncated(&mut self, inside: &str) -> Fatal {
        let end = self.rep.text.len();
        self.rep.error(
            "truncated",
            end,
            format!("the file ends inside <{inside}>: it is truncated or an element is not closed"),
        );
        Fatal
    }

    fn unknown_element(&mut self, parent: &str, e: &BytesStart<'_>, pos: usize) {
        self.rep.warning(
            "unknown-element",
            pos,
            format!(
                "element <{}> inside <{parent}> is not part of the known schema; ignored",
                show(name_of(e))
            ),
        );
    }

    /// Skips the rest of an element whose start tag was just read.
    fn skip(&mut self, e: &BytesStart<'_>, empty: bool) -> Res<()> {
        if empty {
            return Ok(());
        }
        let end = e.to_end().into_owned();
        match self.reader.read_to_end(end.name()) {
            Ok(_) => Ok(()),
            Err(quick_xml::Error::Syntax(_)) if self.offset() >= self.rep.text.len() => {
                Err(self.truncated(&show(name_of(e))))
            }
            Err(err) => Err(self.xml_error(err)),
        }
    }

    /// Visits each child element of the element just opened. `visit` returns `Ok(false)` for a
    /// child it does not know; that child is reported and skipped. Text directly inside a
    /// container element is reported too.
    fn children(
        &mut self,
        parent: &str,
        empty: bool,
        mut visit: impl FnMut(&mut Self, &BytesStart<'a>, bool, usize) -> Res<bool>,
    ) -> Res<()> {
        if empty {
            return Ok(());
        }
        loop {
            let event = self.reader.read_event();
            match event {
                Ok(Event::Start(e)) => {
                    let pos = self.start_offset(&e, false);
                    if !visit(self, &e, false, pos)? {
                        self.unknown_element(parent, &e, pos);
                        self.skip(&e, false)?;
                    }
                }
                Ok(Event::Empty(e)) => {
                    let pos = self.start_offset(&e, true);
                    if !visit(self, &e, true, pos)? {
                        self.unknown_element(parent, &e, pos);
                    }
                }
                Ok(Event::End(_)) => return Ok(()),
                Ok(Event::Text(t)) => {
                    if !t.trim().is_empty() {
                        let at = self.offset().saturating_sub(t.len());
                        self.rep.warning(
                            "unexpected-text",
                            at,
                            format!("text inside <{parent}>, which holds only elements; ignored"),
                        );
                    }
                }
                Ok(Event::GeneralRef(_)) | Ok(Event::CData(_)) => {
                    let at = self.offset();
                    self.rep.warning(
                        "unexpected-text",
                        at,
                        format!("text inside <{parent}>, which holds only elements; ignored"),
                    );
                }
                Ok(Event::Comment(_))
                | Ok(Event::PI(_))
                | Ok(Event::Decl(_))
                | Ok(Event::DocType(_)) => {}
                Ok(Event::Eof) => return Err(self.truncated(parent)),
                Err(err) => return Err(self.xml_error(err)),
            }
        }
    }

    /// Reads the text of a leaf element just opened, entities resolved, trimmed.
    fn text(&mut self, name: &str, empty: bool) -> Res<String> {
        let mut s = String::new();
        if empty {
            return Ok(s);
        }
        loop {
            match self.reader.read_event() {
                Ok(Event::Text(t)) => s.push_str(&t.xml10_content()),
                Ok(Event::CData(t)) => s.push_str(&t),
                Ok(Event::GeneralRef(r)) => match r.resolve_char_ref() {
                    Ok(Some(c)) => s.push(c),
                    _ => match &*r {
                        "amp" => s.push('&'),
                        "lt" => s.push('<'),
                        "gt" => s.push('>'),
                        "quot" => s.push('"'),
                        "apos" => s.push('\''),
                        other => {
                            let at = self.offset();
                            self.rep.error(
                                "unknown-entity",
                                at,
                                format!("unknown entity `&{other};` in <{name}>"),
                            );
                        }
                    },
                },
                Ok(Event::Start(e)) => {
                    let pos = self.start_offset(&e, false);
                    self.unknown_element(name, &e, pos);
                    self.skip(&e, false)?;
                }
                Ok(Event::Empty(e)) => {
                    let pos = self.start_offset(&e, true);
                    self.unknown_element(name, &e, pos);
                }
                Ok(Event::End(_)) => break,
                Ok(Event::Comment(_))
                | Ok(Event::PI(_))
                | Ok(Event::Decl(_))
                | Ok(Event::DocType(_)) => {}
                Ok(Event::Eof) => return Err(self.truncated(name)),
                Err(err) => return Err(self.xml_error(err)),
            }
        }
        let trimmed = s.trim();
        if trimmed.len() != s.len() {
            s = trimmed.to_string();
        }
        Ok(s)
    }

    /// Reads the attributes of `e`: the values of `known`, in order; any other attribute is
    /// reported.
    fn attrs<const N: usize>(
        &mut self,
        e: &BytesStart<'a>,
        pos: usize,
        known: [&str; N],
    ) -> [Option<String>; N] {
        let mut out: [Option<String>; N] = std::array::from_fn(|_| None);
        for attr in e.attributes() {
            let attr = match attr {
                Ok(a) => a,
                Err(err) => {
                    self.rep.error(
                        "malformed-attribute",
                        pos,
                        format!("malformed attribute in <{}>: {err}", show(name_of(e))),
                    );
                    break;
                }
            };
            let key = attr.key.into_inner();
            let value = match attr.normalized_value(quick_xml::XmlVersion::Implicit1_0) {
                Ok(v) => v.into_owned(),
                Err(err) => {
                    self.rep.error(
                        "malformed-attribute",
                        pos,
                        format!("attribute {} of <{}>: {err}", show(key), show(name_of(e))),
                    );
                    continue;
                }
            };
            match known.iter().position(|k| *k == key) {
                Some(i) => out[i] = Some(value),
                None => self.rep.warning(
                    "unknown-attribute",
                    pos,
                    format!(
                        "attribute {}=\"{value}\" of <{}> is not part of the known schema; ignored",
                        show(key),
                        show(name_of(e))
                    ),
                ),
            }
        }
        out
    }

    /// Reports any attribute on an element that should have none.
    fn no_attrs(&mut self, e: &BytesStart<'a>, pos: usize) {
        if e.attributes().next().is_some() {
            let _: [Option<String>; 0] = self.attrs(e, pos, []);
        }
    }

    fn number<T: std::str::FromStr>(&mut self, text: &str, pos: usize, what: &str) -> Option<T> {
        match text.trim().parse::<T>() {
            Ok(v) => Some(v),
            Err(_) => {
                self.rep.error(
                    "bad-number",
                    pos,
                    format!("{what} is `{text}`, which is not a valid number"),
                );
                None
            }
        }
    }

    fn bool_attr(&mut self, v: Option<String>, pos: usize, what: &str) -> bool {
        match v.as_deref().map(str::trim) {
            None => false,
            Some(s) if s.eq_ignore_ascii_case("true") => true,
            Some(s) if s.eq_ignore_ascii_case("false") => false,
            Some(s) => {
                self.rep.error(
                    "bad-boolean",
                    pos,
                    format!("{what} is `{s}`, expected true or false"),
                );
                false
            }
        }
    }

    fn text_number<T: std::str::FromStr>(
        &mut self,
        name: &str,
        empty: bool,
        pos: usize,
    ) -> Res<Option<T>> {
        let t = self.text(name, empty)?;
        Ok(self.number(&t, pos, &format!("<{name}>")))
    }

    /// A `Radix="N"` element with digits.
    fn radixed(&mut self, e: &BytesStart<'a>, empty: bool, pos: usize) -> Res<Option<Radixed>> {
        let [radix] = self.attrs(e, pos, ["Radix"]);
        let name = show(name_of(e));
        let digits = self.text(&name, empty)?;
        let radix = match radix {
            None => {
                self.rep.warning(
                    "missing-radix",
                    pos,
                    format!("<{name}> has no Radix attribute; read as decimal"),
                );
                10
            }
            Some(r) => match r.trim().parse::<u32>() {
                Ok(r @ (2 | 8 | 10 | 16)) => r,
                _ => {
                    self.rep.error(
                        "bad-radix",
                        pos,
                        format!("<{name}> has Radix=\"{r}\"; expected 2, 8, 10 or 16"),
                    );
                    return Ok(None);
                }
            },
        };
        Ok(self.parse_radixed(&digits, radix, pos, &name))
    }

    fn parse_radixed(
        &mut self,
        digits: &str,
        radix: u32,
        pos: usize,
        name: &str,
    ) -> Option<Radixed> {
        let clean = digits.trim();
        let clean = if radix == 16 {
            clean.trim_start_matches("0x").trim_start_matches("0X")
        } else {
            clean
        };
        if clean.is_empty() {
            self.rep.error(
                "bad-number",
                pos,
                format!("<{name}> is empty; expected digits in radix {radix}"),
            );
            return None;
        }
        match u128::from_str_radix(clean, radix) {
            Ok(value) => Some(Radixed {
                value,
                digits: clean.len() as u32,
                radix,
                pos,
            }),
            Err(_) => {
                self.rep.error(
                    "bad-number",
                    pos,
                    format!("<{name}> is `{clean}`, which is not a number in radix {radix} (or exceeds 128 bits)"),
                );
                None
            }
        }
    }

    /// A required child's value: reported as missing (at the parent) when absent or empty.
    fn require<T>(&mut self, value: Option<T>, pos: usize, parent: &str, child: &str) -> Option<T>
    where
        T: RequiredValue,
    {
        let value = value.filter(|v| !v.is_blank());
        if value.is_none() {
            self.missing(pos, parent, child);
        }
        value
    }

    fn missing(&mut self, pos: usize, parent: &str, child: &str) {
        self.rep.error(
            "missing-element",
            pos,
            format!("<{parent}> has no <{child}>, which is required"),
        );
    }

    // ---- The schema, element by element ----

    fn read_root(&mut self, file: &mut SpecFile) -> Res<()> {
        loop {
            match self.reader.read_event() {
                Ok(Event::Start(e)) | Ok(Event::Empty(e)) if name_of(&e) != "Spec" => {
                    let pos = self.start_offset(&e, false);
                    self.rep.error(
                        "wrong-root",
                        pos,
                        format!(
                            "the root element is <{}>; an AMD ISA spec starts with <Spec>",
                            show(name_of(&e))
                        ),
                    );
                    return Err(Fatal);
                }
                Ok(Event::Start(e)) => {
                    let pos = self.start_offset(&e, false);
                    self.no_attrs(&e, pos);
                    self.read_spec_children(file)?;
                    break;
                }
                Ok(Event::Empty(e)) => {
                    let pos = self.start_offset(&e, true);
                    self.missing(pos, "Spec", "ISA");
                    return Err(Fatal);
                }
                Ok(Event::Text(t)) if t.trim().is_empty() => {}
                Ok(Event::Comment(_))
                | Ok(Event::Decl(_))
                | Ok(Event::PI(_))
                | Ok(Event::DocType(_)) => {}
                Ok(Event::Eof) => {
                    self.rep.error(
                        "empty-file",
                        0,
                        "the file holds no XML element; expected <Spec>",
                    );
                    return Err(Fatal);
                }
                Ok(_) => {
                    let at = self.offset();
                    self.rep.error(
                        "wrong-root",
                        at,
                        "text before the root element; expected <Spec>",
                    );
                    return Err(Fatal);
                }
                Err(err) => return Err(self.xml_error(err)),
            }
        }
        // After </Spec>: only whitespace and comments.
        loop {
            match self.reader.read_event() {
                Ok(Event::Eof) => return Ok(()),
                Ok(Event::Text(t)) if t.trim().is_empty() => {}
                Ok(Event::Comment(_)) | Ok(Event::PI(_)) => {}
                Ok(_) => {
                    let at = self.offset();
                    self.rep
                        .warning("trailing-content", at, "content after </Spec> is ignored");
                    return Ok(());
                }
                Err(err) => return Err(self.xml_error(err)),
            }
        }
    }

    fn read_spec_children(&mut self, file: &mut SpecFile) -> Res<()> {
        let spec_pos = 0;
        let (mut seen_doc, mut seen_isa) = (false, false);
        self.children("Spec", false, |p, e, empty, pos| {
            match name_of(e) {
                "Document" => {
                    seen_doc = true;
                    p.no_attrs(e, pos);
                    p.read_document(&mut file.document, empty)?;
                }
                "ISA" => {
                    seen_isa = true;
                    p.no_attrs(e, pos);
                    p.read_isa(&mut file.isa, empty, pos)?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if !seen_doc {
            self.missing(spec_pos, "Spec", "Document");
        }
        if !seen_isa {
            self.missing(spec_pos, "Spec", "ISA");
        }
        Ok(())
    }

    fn read_document(&mut self, doc: &mut Document, empty: bool) -> Res<()> {
        self.children("Document", empty, |p, e, empty, pos| {
            let slot = match name_of(e) {
                "Copyright" => &mut doc.copyright,
                "Sensitivity" => &mut doc.sensitivity,
                "License" => &mut doc.license,
                "ReleaseDate" => &mut doc.release_date,
                "SchemaVersion" => &mut doc.schema_version,
                _ => return Ok(false),
            };
            p.no_attrs(e, pos);
            *slot = Some(p.text(&show(name_of(e)), empty)?);
            Ok(true)
        })
    }

    fn read_isa(&mut self, isa: &mut Isa, empty: bool, isa_pos: usize) -> Res<()> {
        let mut seen_arch = false;
        self.children("ISA", empty, |p, e, empty, pos| {
            p.no_attrs(e, pos);
            match name_of(e) {
                "Architecture" => {
                    seen_arch = true;
                    p.read_architecture(&mut isa.architecture, empty)?;
                }
                "Encodings" => p.list(
                    "Encodings",
                    "Encoding",
                    empty,
                    &mut isa.encodings,
                    Self::read_encoding,
                )?,
                "Instructions" => p.list(
                    "Instructions",
                    "Instruction",
                    empty,
                    &mut isa.instructions,
                    Self::read_instruction,
                )?,
                "DataFormats" => p.list(
                    "DataFormats",
                    "DataFormat",
                    empty,
                    &mut isa.data_formats,
                    Self::read_data_format,
                )?,
                "OperandTypes" => p.list(
                    "OperandTypes",
                    "OperandType",
                    empty,
                    &mut isa.operand_types,
                    Self::read_operand_type,
                )?,
                "FunctionalGroups" => p.list(
                    "FunctionalGroups",
                    "FunctionalGroup",
                    empty,
                    &mut isa.functional_groups,
                    Self::read_functional_group,
                )?,
                "FunctionalSubgroups" => p.list(
                    "FunctionalSubgroups",
                    "FunctionalSubgroup",
                    empty,
                    &mut isa.functional_subgroups,
                    Self::read_functional_subgroup,
                )?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if !seen_arch {
            self.missing(isa_pos, "ISA", "Architecture");
        }
        Ok(())
    }

    /// A container of repeated items. Items that lack a required part are reported by their
    /// reader and left out (`None`); items read before a fatal error stay in `out`.
    fn list<T>(
        &mut self,
        parent: &str,
        item: &'static str,
        empty: bool,
        out: &mut Vec<T>,
        read: fn(&mut Self, &BytesStart<'a>, bool, usize) -> Res<Option<T>>,
    ) -> Res<()> {
        self.children(parent, empty, |p, e, empty, pos| {
            if name_of(e) != item {
                return Ok(false);
            }
            if let Some(v) = read(p, e, empty, pos)? {
                out.push(v);
            }
            Ok(true)
        })
    }

    fn read_architecture(&mut self, arch: &mut Architecture, empty: bool) -> Res<()> {
        self.children("Architecture", empty, |p, e, empty, pos| {
            p.no_attrs(e, pos);
            match name_of(e) {
                "ArchitectureName" => arch.name = Some(p.text("ArchitectureName", empty)?),
                "ArchitectureId" => arch.id = p.text_number("ArchitectureId", empty, pos)?,
                _ => return Ok(false),
            }
            Ok(true)
        })
    }

    fn read_encoding(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<Encoding>> {
        let [order] = self.attrs(e, pos, ["Order"]);
        let mut enc = Encoding {
            pos,
            ..Default::default()
        };
        enc.order = order.and_then(|o| self.number(&o, pos, "Encoding Order"));
        let mut name = None;
        self.children("Encoding", empty, |p, e, empty, cpos| {
            match name_of(e) {
                "EncodingName" => {
                    p.no_attrs(e, cpos);
                    name = Some(p.text("EncodingName", empty)?);
                }
                "BitCount" => {
                    p.no_attrs(e, cpos);
                    enc.bit_count = p.text_number("BitCount", empty, cpos)?;
                }
                "EncodingIdentifierMask" => enc.identifier_mask = p.radixed(e, empty, cpos)?,
                "EncodingIdentifiers" => {
                    p.no_attrs(e, cpos);
                    p.children("EncodingIdentifiers", empty, |p, e, empty, ipos| {
                        if name_of(e) != "EncodingIdentifier" {
                            return Ok(false);
                        }
                        if let Some(id) = p.radixed(e, empty, ipos)? {
                            enc.identifiers.push(id);
                        }
                        Ok(true)
                    })?;
                }
                "EncodingConditions" => {
                    p.no_attrs(e, cpos);
                    p.list(
                        "EncodingConditions",
                        "EncodingCondition",
                        empty,
                        &mut enc.conditions,
                        Self::read_condition,
                    )?;
                }
                "Description" => {
                    p.no_attrs(e, cpos);
                    enc.description = Some(p.text("Description", empty)?);
                }
                "MicrocodeFormat" => {
                    p.no_attrs(e, cpos);
                    p.read_microcode_format("MicrocodeFormat", empty, &mut enc.fields)?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let Some(n) = self.require(name, pos, "Encoding", "EncodingName") else {
            return Ok(None);
        };
        enc.name = n;
        Ok(Some(enc))
    }

    fn read_condition(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<EncodingCondition>> {
        self.no_attrs(e, pos);
        let mut cond = EncodingCondition {
            pos,
            ..Default::default()
        };
        let mut name = None;
        self.children("EncodingCondition", empty, |p, e, empty, cpos| {
            p.no_attrs(e, cpos);
            match name_of(e) {
                "ConditionName" => name = Some(p.text("ConditionName", empty)?),
                "ConditionId" => cond.id = p.text_number("ConditionId", empty, cpos)?,
                "CondtionExpression" | "ConditionExpression" => {
                    let mut exprs = Vec::new();
                    p.children("CondtionExpression", empty, |p, e, empty, xpos| {
                        match p.read_expr(e, empty, xpos)? {
                            Some(x) => {
                                exprs.push(x);
                                Ok(true)
                            }
                            None => Ok(false),
                        }
                    })?;
                    if exprs.len() > 1 {
                        p.rep.error(
                            "bad-condition",
                            cpos,
                            "a condition expression has more than one root node; the first is used",
                        );
                    }
                    cond.expr = exprs.into_iter().next();
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let Some(n) = self.require(name, pos, "EncodingCondition", "ConditionName") else {
            return Ok(None);
        };
        cond.name = n;
        Ok(Some(cond))
    }

    /// One node of a condition tree; `None` if the element is not an expression node.
    fn read_expr(&mut self, e: &BytesStart<'a>, empty: bool, pos: usize) -> Res<Option<CondExpr>> {
        match name_of(e) {
            "op" => {
                let [ty_attr] = self.attrs(e, pos, ["type"]);
                let op_text = ty_attr.unwrap_or_default();
                let op = CondOp::from_xml(&op_text);
                if let CondOp::Other(o) = &op {
                    self.rep.warning(
                        "unknown-operator",
                        pos,
                        format!("condition operator `{o}` is not known; conditions using it cannot be compiled"),
                    );
                }
                let mut args = Vec::new();
                let mut ty = None;
                self.children("op", empty, |p, e, empty, cpos| {
                    if name_of(e) == "ty" {
                        ty = p.read_type(e, empty, cpos)?;
                        return Ok(true);
                    }
                    match p.read_expr(e, empty, cpos)? {
                        Some(x) => {
                            args.push(x);
                            Ok(true)
                        }
                        None => Ok(false),
                    }
                })?;
                Ok(Some(CondExpr::Op { op, args, ty, pos }))
            }
            "id" => {
                let [val] = self.attrs(e, pos, ["val"]);
                self.skip_leaf_children("id", empty)?;
                match val {
                    Some(name) => Ok(Some(CondExpr::Id { name, pos })),
                    None => {
                        self.rep
                            .error("missing-attribute", pos, "<id> has no val attribute");
                        Ok(Some(CondExpr::Id {
                            name: String::new(),
                            pos,
                        }))
                    }
                }
            }
            "lit" => {
                let [val] = self.attrs(e, pos, ["val"]);
                let mut ty = None;
                self.children("lit", empty, |p, e, empty, cpos| {
                    if name_of(e) != "ty" {
                        return Ok(false);
                    }
                    ty = p.read_type(e, empty, cpos)?;
                    Ok(true)
                })?;
                let value = match val {
                    Some(v) => parse_int_literal(&v).unwrap_or_else(|| {
                        self.rep.error(
                            "bad-number",
                            pos,
                            format!("<lit val=\"{v}\"> is not an integer"),
                        );
                        0
                    }),
                    None => {
                        self.rep
                            .error("missing-attribute", pos, "<lit> has no val attribute");
                        0
                    }
                };
                Ok(Some(CondExpr::Lit { value, ty, pos }))
            }
            _ => Ok(None),
        }
    }

    fn skip_leaf_children(&mut self, name: &str, empty: bool) -> Res<()> {
        self.children(name, empty, |_, _, _, _| Ok(false))
    }

    fn read_type(&mut self, e: &BytesStart<'a>, empty: bool, pos: usize) -> Res<Option<CondType>> {
        self.no_attrs(e, pos);
        let mut out = None;
        self.children("ty", empty, |p, e, empty, tpos| {
            if name_of(e) != "t" {
                return Ok(false);
            }
            let [base, size] = p.attrs(e, tpos, ["base", "size"]);
            p.skip_leaf_children("t", empty)?;
            let size = size
                .and_then(|s| p.number(&s, tpos, "type size"))
                .unwrap_or(0);
            if out.is_some() {
                p.rep.warning(
                    "unknown-element",
                    tpos,
                    "a <ty> with more than one <t>; the first is used",
                );
            } else {
                out = Some(CondType {
                    base: base.unwrap_or_default(),
                    size,
                });
            }
            Ok(true)
        })?;
        Ok(out)
    }

    /// `MicrocodeFormat` → `BitMap` → `Field`*.
    fn read_microcode_format(
        &mut self,
        parent: &str,
        empty: bool,
        fields: &mut Vec<Field>,
    ) -> Res<()> {
        self.children(parent, empty, |p, e, empty, pos| {
            if name_of(e) != "BitMap" {
                return Ok(false);
            }
            p.no_attrs(e, pos);
            p.list("BitMap", "Field", empty, fields, Self::read_field)?;
            Ok(true)
        })
    }

    fn read_field(&mut self, e: &BytesStart<'a>, empty: bool, pos: usize) -> Res<Option<Field>> {
        let [cond, signed] = self.attrs(e, pos, ["IsConditional", "Signedness"]);
        let mut f = Field {
            pos,
            ..Default::default()
        };
        f.is_conditional = self.bool_attr(cond, pos, "IsConditional");
        f.signedness = signed;
        let mut name = None;
        self.children("Field", empty, |p, e, empty, cpos| {
            match name_of(e) {
                "FieldName" => {
                    p.no_attrs(e, cpos);
                    name = Some(p.text("FieldName", empty)?);
                }
                "Description" => {
                    p.no_attrs(e, cpos);
                    f.description = Some(p.text("Description", empty)?);
                }
                "BitLayout" => {
                    let [rc] = p.attrs(e, cpos, ["RangeCount"]);
                    f.range_count = rc.and_then(|r| p.number(&r, cpos, "RangeCount"));
                    p.list("BitLayout", "Range", empty, &mut f.ranges, Self::read_range)?;
                }
                "FieldPredefinedValues" => {
                    p.no_attrs(e, cpos);
                    p.list(
                        "FieldPredefinedValues",
                        "PredefinedValue",
                        empty,
                        &mut f.predefined_values,
                        Self::read_predefined_value,
                    )?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let Some(n) = self.require(name, pos, "Field", "FieldName") else {
            return Ok(None);
        };
        f.name = n;
        Ok(Some(f))
    }

    fn read_range(&mut self, e: &BytesStart<'a>, empty: bool, pos: usize) -> Res<Option<BitRange>> {
        let [order] = self.attrs(e, pos, ["Order"]);
        let mut r = BitRange {
            pos,
            ..Default::default()
        };
        r.order = order
            .and_then(|o| self.number(&o, pos, "Range Order"))
            .unwrap_or(0);
        let (mut off, mut cnt) = (None, None);
        self.children("Range", empty, |p, e, empty, cpos| {
            match name_of(e) {
                "BitOffset" => {
                    p.no_attrs(e, cpos);
                    off = p.text_number("BitOffset", empty, cpos)?;
                }
                "BitCount" => {
                    p.no_attrs(e, cpos);
                    cnt = p.text_number("BitCount", empty, cpos)?;
                }
                "Padding" => {
                    p.no_attrs(e, cpos);
                    let mut pad = Padding::default();
                    let mut have_count = false;
                    p.children("Padding", empty, |p, e, empty, ppos| {
                        match name_of(e) {
                            "BitCount" => {
                                p.no_attrs(e, ppos);
                                if let Some(c) = p.text_number("BitCount", empty, ppos)? {
                                    pad.bit_count = c;
                                    have_count = true;
                                }
                            }
                            "Value" => {
                                if let Some(v) = p.radixed(e, empty, ppos)? {
                                    pad.value = v;
                                }
                            }
                            _ => return Ok(false),
                        }
                        Ok(true)
                    })?;
                    if !have_count {
                        p.missing(cpos, "Padding", "BitCount");
                    }
                    r.padding = Some(pad);
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let off = self.require(off, pos, "Range", "BitOffset");
        let cnt = self.require(cnt, pos, "Range", "BitCount");
        let (Some(o), Some(c)) = (off, cnt) else {
            return Ok(None);
        };
        r.bit_offset = o;
        r.bit_count = c;
        Ok(Some(r))
    }

    fn read_predefined_value(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<PredefinedValue>> {
        self.no_attrs(e, pos);
        let mut v = PredefinedValue {
            pos,
            ..Default::default()
        };
        let (mut name, mut value) = (None, None);
        self.children("PredefinedValue", empty, |p, e, empty, cpos| {
            p.no_attrs(e, cpos);
            match name_of(e) {
                "Name" => name = Some(p.text("Name", empty)?),
                "Value" => {
                    let t = p.text("Value", empty)?;
                    value = parse_int_literal(&t);
                    if value.is_none() {
                        p.rep.error(
                            "bad-number",
                            cpos,
                            format!("<Value> is `{t}`, which is not an integer"),
                        );
                    }
                }
                "Description" => v.description = Some(p.text("Description", empty)?),
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let name = self.require(name, pos, "PredefinedValue", "Name");
        let value = self.require(value, pos, "PredefinedValue", "Value");
        let (Some(n), Some(val)) = (name, value) else {
            return Ok(None);
        };
        v.name = n;
        v.value = val;
        Ok(Some(v))
    }

    fn read_instruction(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<Instruction>> {
        self.no_attrs(e, pos);
        let mut ins = Instruction {
            pos,
            ..Default::default()
        };
        let mut name = None;
        self.children("Instruction", empty, |p, e, empty, cpos| {
            match name_of(e) {
                "InstructionName" => {
                    p.no_attrs(e, cpos);
                    name = Some(p.text("InstructionName", empty)?);
                }
                "Description" => {
                    p.no_attrs(e, cpos);
                    ins.description = Some(p.text("Description", empty)?);
                }
                "InstructionFlags" => {
                    p.no_attrs(e, cpos);
                    p.children("InstructionFlags", empty, |p, e, empty, fpos| {
                        let slot = match name_of(e) {
                            "IsBranch" => &mut ins.flags.is_branch,
                            "IsConditionalBranch" => &mut ins.flags.is_conditional_branch,
                            "IsIndirectBranch" => &mut ins.flags.is_indirect_branch,
                            "IsProgramTerminator" => &mut ins.flags.is_program_terminator,
                            "IsImmediatelyExecuted" => &mut ins.flags.is_immediately_executed,
                            _ => return Ok(false),
                        };
                        p.no_attrs(e, fpos);
                        let t = p.text("flag", empty)?;
                        *slot = p.bool_attr(Some(t), fpos, &show(name_of(e)));
                        Ok(true)
                    })?;
                }
                "AliasedInstructionNames" => {
                    p.no_attrs(e, cpos);
                    p.children("AliasedInstructionNames", empty, |p, e, empty, apos| {
                        if name_of(e) != "InstructionName" {
                            return Ok(false);
                        }
                        p.no_attrs(e, apos);
                        let n = p.text("InstructionName", empty)?;
                        ins.aliases.push(n);
                        Ok(true)
                    })?;
                }
                // Inside an instruction, FunctionalGroup names the group (a reference), unlike
                // the top-level definition of the same tag.
                "FunctionalGroup" => {
                    p.no_attrs(e, cpos);
                    p.children("FunctionalGroup", empty, |p, e, empty, gpos| {
                        p.no_attrs(e, gpos);
                        match name_of(e) {
                            "Name" => ins.functional_group = Some(p.text("Name", empty)?),
                            "FunctionalSubgroups" => {
                                p.children("FunctionalSubgroups", empty, |p, e, empty, spos| {
                                    if name_of(e) != "Subgroup" {
                                        return Ok(false);
                                    }
                                    p.no_attrs(e, spos);
                                    let s = p.text("Subgroup", empty)?;
                                    ins.functional_subgroups.push(s);
                                    Ok(true)
                                })?;
                            }
                            _ => return Ok(false),
                        }
                        Ok(true)
                    })?;
                }
                "InstructionEncodings" => {
                    p.no_attrs(e, cpos);
                    p.list(
                        "InstructionEncodings",
                        "InstructionEncoding",
                        empty,
                        &mut ins.encodings,
                        Self::read_instruction_encoding,
                    )?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let Some(n) = self.require(name, pos, "Instruction", "InstructionName") else {
            return Ok(None);
        };
        ins.name = n;
        Ok(Some(ins))
    }

    fn read_instruction_encoding(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<InstructionEncoding>> {
        self.no_attrs(e, pos);
        let mut ie = InstructionEncoding {
            pos,
            ..Default::default()
        };
        let mut name = None;
        self.children("InstructionEncoding", empty, |p, e, empty, cpos| {
            match name_of(e) {
                "EncodingName" => {
                    p.no_attrs(e, cpos);
                    name = Some(p.text("EncodingName", empty)?);
                }
                "EncodingCondition" => {
                    let [id] = p.attrs(e, cpos, ["Id"]);
                    ie.condition_id = id.and_then(|i| p.number(&i, cpos, "EncodingCondition Id"));
                    ie.condition = Some(p.text("EncodingCondition", empty)?);
                }
                "Opcode" => ie.opcode = p.radixed(e, empty, cpos)?,
                "Operands" => {
                    p.no_attrs(e, cpos);
                    p.list(
                        "Operands",
                        "Operand",
                        empty,
                        &mut ie.operands,
                        Self::read_operand,
                    )?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let Some(n) = self.require(name, pos, "InstructionEncoding", "EncodingName") else {
            return Ok(None);
        };
        ie.encoding_name = n;
        Ok(Some(ie))
    }

    fn read_operand(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<Operand>> {
        let [input, output, implicit, required, order] = self.attrs(
            e,
            pos,
            [
                "Input",
                "Output",
                "IsImplicit",
                "IsBinaryMicrocodeRequired",
                "Order",
            ],
        );
        let mut op = Operand {
            pos,
            input: self.bool_attr(input, pos, "Input"),
            output: self.bool_attr(output, pos, "Output"),
            is_implicit: self.bool_attr(implicit, pos, "IsImplicit"),
            is_binary_microcode_required: self.bool_attr(
                required,
                pos,
                "IsBinaryMicrocodeRequired",
            ),
            order: order.and_then(|o| self.number(&o, pos, "Operand Order")),
            ..Default::default()
        };
        self.children("Operand", empty, |p, e, empty, cpos| {
            p.no_attrs(e, cpos);
            match name_of(e) {
                "FieldName" => op.field_name = Some(p.text("FieldName", empty)?),
                "DataFormatName" => op.data_format = Some(p.text("DataFormatName", empty)?),
                // Here OperandType is a reference by name, not the top-level definition.
                "OperandType" => op.operand_type = Some(p.text("OperandType", empty)?),
                "OperandSize" => op.size = p.text_number("OperandSize", empty, cpos)?,
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        Ok(Some(op))
    }

    fn read_data_format(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<DataFormat>> {
        self.no_attrs(e, pos);
        let mut df = DataFormat {
            pos,
            ..Default::default()
        };
        let mut name = None;
        self.children("DataFormat", empty, |p, e, empty, cpos| {
            match name_of(e) {
                "DataFormatName" => {
                    p.no_attrs(e, cpos);
                    name = Some(p.text("DataFormatName", empty)?);
                }
                "Description" => {
                    p.no_attrs(e, cpos);
                    df.description = Some(p.text("Description", empty)?);
                }
                "DataType" => {
                    p.no_attrs(e, cpos);
                    df.data_type = Some(p.text("DataType", empty)?);
                }
                "BitCount" => {
                    p.no_attrs(e, cpos);
                    df.bit_count = p.text_number("BitCount", empty, cpos)?;
                }
                "ComponentCount" => {
                    p.no_attrs(e, cpos);
                    df.component_count = p.text_number("ComponentCount", empty, cpos)?;
                }
                "DataAttributes" => {
                    p.no_attrs(e, cpos);
                    p.children("DataAttributes", empty, |p, e, empty, bpos| {
                        if name_of(e) != "BitMap" {
                            return Ok(false);
                        }
                        let [order] = p.attrs(e, bpos, ["Order"]);
                        let mut bm = DataBitMap {
                            order: order.and_then(|o| p.number(&o, bpos, "BitMap Order")),
                            fields: Vec::new(),
                        };
                        p.list("BitMap", "Field", empty, &mut bm.fields, Self::read_field)?;
                        df.bitmaps.push(bm);
                        Ok(true)
                    })?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let Some(n) = self.require(name, pos, "DataFormat", "DataFormatName") else {
            return Ok(None);
        };
        df.name = n;
        Ok(Some(df))
    }

    fn read_operand_type(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<OperandType>> {
        let [partitioned] = self.attrs(e, pos, ["IsPartitioned"]);
        let mut ot = OperandType {
            pos,
            ..Default::default()
        };
        ot.is_partitioned = self.bool_attr(partitioned, pos, "IsPartitioned");
        let mut name = None;
        self.children("OperandType", empty, |p, e, empty, cpos| {
            match name_of(e) {
                "OperandTypeName" => {
                    p.no_attrs(e, cpos);
                    name = Some(p.text("OperandTypeName", empty)?);
                }
                "Description" => {
                    p.no_attrs(e, cpos);
                    ot.description = Some(p.text("Description", empty)?);
                }
                "OperandPredefinedValues" => {
                    p.no_attrs(e, cpos);
                    p.list(
                        "OperandPredefinedValues",
                        "PredefinedValue",
                        empty,
                        &mut ot.predefined_values,
                        Self::read_predefined_value,
                    )?;
                }
                "MicrocodeFormat" => {
                    p.no_attrs(e, cpos);
                    p.read_microcode_format("MicrocodeFormat", empty, &mut ot.fields)?;
                }
                "Subtypes" => {
                    p.no_attrs(e, cpos);
                    p.children("Subtypes", empty, |p, e, empty, spos| {
                        if name_of(e) != "Subtype" {
                            return Ok(false);
                        }
                        p.no_attrs(e, spos);
                        let s = p.text("Subtype", empty)?;
                        ot.subtypes.push(s);
                        Ok(true)
                    })?;
                }
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        let Some(n) = self.require(name, pos, "OperandType", "OperandTypeName") else {
            return Ok(None);
        };
        ot.name = n;
        Ok(Some(ot))
    }

    fn read_functional_group(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<FunctionalGroupDef>> {
        let named = self.read_named("FunctionalGroup", e, empty, pos)?;
        Ok(named.map(|(name, description)| FunctionalGroupDef { name, description }))
    }

    fn read_functional_subgroup(
        &mut self,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<FunctionalSubgroupDef>> {
        let named = self.read_named("FunctionalSubgroup", e, empty, pos)?;
        Ok(named.map(|(name, description)| FunctionalSubgroupDef { name, description }))
    }

    /// An element of `<Name>` and optional `<Description>` (functional groups and subgroups).
    fn read_named(
        &mut self,
        tag: &str,
        e: &BytesStart<'a>,
        empty: bool,
        pos: usize,
    ) -> Res<Option<(String, Option<String>)>> {
        self.no_attrs(e, pos);
        let (mut name, mut description) = (String::new(), None);
        self.children(tag, empty, |p, e, empty, cpos| {
            p.no_attrs(e, cpos);
            match name_of(e) {
                "Name" => name = p.text("Name", empty)?,
                "Description" => description = Some(p.text("Description", empty)?),
                _ => return Ok(false),
            }
            Ok(true)
        })?;
        if name.is_empty() {
            self.missing(pos, tag, "Name");
            return Ok(None);
        }
        Ok(Some((name, description)))
    }
}

/// A value that a required child element gives; empty text counts as absent.
trait RequiredValue {
    fn is_blank(&self) -> bool;
}

impl RequiredValue for String {
    fn is_blank(&self) -> bool {
        self.is_empty()
    }
}

impl RequiredValue for u32 {
    fn is_blank(&self) -> bool {
        false
    }
}

impl RequiredValue for i64 {
    fn is_blank(&self) -> bool {
        false
    }
}

/// An integer as AMD writes predefined values and literals: decimal, possibly negative, or
/// `0x` hexadecimal.
pub fn parse_int_literal(s: &str) -> Option<i64> {
    let s = s.trim();
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else {
        body.parse::<i64>().ok()?
    };
    Some(if neg { -v } else { v })
}
