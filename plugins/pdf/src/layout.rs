//! A page's text in lines: the content stream's text operators, decoded with each font's
//! encoding, with a line break wherever the text position moves to another baseline and a
//! space where it moves along the same one (lopdf's own extraction breaks lines only at `T*`
//! and `ET`, which puts whole pages of many producers on one line). Text drawn inside form
//! XObjects (`Do`) and the appearances of visible annotations (form fields, free text, stamps)
//! is read too, as a viewer shows it.

use crate::bidi;
use crate::cmaps;
use crate::glyphnames::{self, Repaired};
use crate::glyphs::{Matrix, Metrics, TextState};
use crate::program::{self, Program};
use crate::standard14;
use crate::tolerant;
use crate::tounicode::{CodeWidth, ToUnicode};
use lopdf::{Dictionary, Encoding, Object, ObjectId, Stream};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;

/// Text whose baseline moved by more than this share of the font size is on another line.
const NEW_LINE: f32 = 0.5;
/// A gap between glyphs wider than this share of the font size is a space.
const SPACE_GAP: f32 = 0.15;
/// A TJ adjustment below this (thousandths of an em) is a word gap.
const WORD_GAP: f32 = -100.0;
/// The same string drawn again within this share of the font size of where it was drawn
/// is drawn over itself.
const OVERDRAWN: f32 = 0.1;
/// Forms within forms read at most this deep.
const MAX_FORM_DEPTH: usize = 8;
/// Annotation flag bits that keep an annotation off the page: Invisible, Hidden, NoView.
const NOT_SHOWN: i64 = 1 | 2 | 32;

/// A page's text and what could not be read of it.
pub struct PageText {
    pub text: String,
    /// Text fragments that could not be decoded.
    pub failed: usize,
    /// Content operations that did not parse, skipped.
    pub skipped: usize,
}

/// What is read of a document's fonts here, kept from page to page: once per document, not
/// once per page.
#[derive(Default)]
pub struct FontCache {
    /// ToUnicode maps read here, by their stream.
    maps: HashMap<*const Stream, Option<Rc<ToUnicode>>>,
    /// What is read of each font beyond lopdf's reading, by its dictionary.
    fonts: HashMap<*const Dictionary, Rc<FontExtras>>,
}

/// A font's reading beyond lopdf's, done once per document.
struct FontExtras {
    /// The font with its `/Differences` made readable for lopdf (see [`glyphnames`]).
    repaired: Option<Repaired>,
    /// Its codes' text by its embedded program or character collection (see [`program`]).
    program: Option<Program>,
}

/// The text of a page. `limit` bounds each decompression, and the content read in all.
pub fn page_text(
    pdf: &lopdf::Document,
    page: ObjectId,
    limit: usize,
    cache: &mut FontCache,
) -> lopdf::Result<PageText> {
    let mut run = Run {
        pdf,
        limit,
        budget: limit,
        failed: 0,
        skipped: 0,
        out: Writer::default(),
        forms: HashSet::new(),
        cache: std::mem::take(cache),
    };
    let fonts = pdf.get_page_fonts(page)?;
    let (direct, referenced) = pdf.get_page_resources(page)?;
    let mut xobjects = BTreeMap::new();
    for resources in direct.into_iter().chain(
        referenced
            .iter()
            .filter_map(|id| pdf.get_dictionary(*id).ok()),
    ) {
        for (name, form) in named(pdf, resources, b"XObject") {
            xobjects.entry(name).or_insert(form);
        }
    }
    // A page with no content stream may still carry annotations.
    if pdf.get_dictionary(page)?.has(b"Contents") {
        let content = pdf.get_page_content_with_limit(page, limit)?;
        run.content(&content, &fonts, &xobjects, 0)?;
    }
    let stale = needs_appearances(pdf);
    for annotation in pdf.get_page_annotations(page).unwrap_or_default() {
        let flags = annotation.get(b"F").and_then(Object::as_i64).unwrap_or(0);
        if flags & NOT_SHOWN != 0 {
            continue;
        }
        // A form whose appearances the viewer must regenerate: a text field shows its value,
        // whatever its appearance stream still draws.
        if let Some(value) = stale.then(|| text_field_value(pdf, annotation)).flatten() {
            run.out.line(&value);
        } else if let Some(appearance) = appearance(pdf, annotation) {
            run.out.break_line();
            // A damaged appearance costs its own text, not the page's.
            let _ = run.form(appearance, &fonts, 0);
        } else if let Some(text) = free_text(pdf, annotation) {
            // Viewers draw a free-text annotation without an appearance from its contents.
            run.out.line(&text);
        }
    }
    *cache = run.cache;
    Ok(PageText {
        text: run.out.finish(),
        failed: run.failed,
        skipped: run.skipped,
    })
}

/// Whether the document's form asks viewers to regenerate its fields' appearances
/// (`/NeedAppearances true`): its appearance streams may be stale.
fn needs_appearances(pdf: &lopdf::Document) -> bool {
    pdf.catalog()
        .and_then(|c| c.get_deref(b"AcroForm", pdf))
        .and_then(Object::as_dict)
        .and_then(|form| form.get_deref(b"NeedAppearances", pdf))
        .and_then(Object::as_bool)
        .unwrap_or(false)
}

/// A text field widget's value (`/V`, looked up through its parents as fields inherit it).
fn text_field_value(pdf: &lopdf::Document, annotation: &Dictionary) -> Option<String> {
    if annotation.get(b"Subtype").and_then(Object::as_name).ok()? != b"Widget" {
        return None;
    }
    let mut field = annotation;
    let (mut kind, mut value) = (None, None);
    for _ in 0..MAX_FORM_DEPTH {
        kind = kind.or_else(|| field.get(b"FT").and_then(Object::as_name).ok());
        value = value.or_else(|| field.get_deref(b"V", pdf).ok());
        match field.get_deref(b"Parent", pdf).and_then(Object::as_dict) {
            Ok(parent) if kind.is_none() || value.is_none() => field = parent,
            _ => break,
        }
    }
    if kind? != b"Tx" {
        return None;
    }
    let text = lopdf::decode_text_string(value?).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// The text of a free-text annotation (a comment typed on the page), its no-break spaces
/// as spaces.
fn free_text(pdf: &lopdf::Document, annotation: &Dictionary) -> Option<String> {
    let subtype = annotation.get(b"Subtype").and_then(Object::as_name).ok()?;
    if subtype != b"FreeText" {
        return None;
    }
    let contents = annotation.get_deref(b"Contents", pdf).ok()?;
    let text = lopdf::decode_text_string(contents)
        .ok()?
        .replace('\u{A0}', " ");
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// An annotation's normal appearance: the stream itself, or the one its state (`/AS`) picks.
fn appearance<'a>(pdf: &'a lopdf::Document, annotation: &'a Dictionary) -> Option<&'a Stream> {
    let normal = annotation
        .get_deref(b"AP", pdf)
        .and_then(Object::as_dict)
        .ok()?
        .get_deref(b"N", pdf)
        .ok()?;
    match normal {
        Object::Stream(stream) => Some(stream),
        Object::Dictionary(states) => {
            let state = annotation.get(b"AS").and_then(Object::as_name).ok()?;
            states
                .get_deref(state, pdf)
                .and_then(Object::as_stream)
                .ok()
        }
        _ => None,
    }
}

/// The entries of a resource category (`Font`, `XObject`), dereferenced.
fn named<'a>(
    pdf: &'a lopdf::Document,
    resources: &'a Dictionary,
    category: &[u8],
) -> Vec<(Vec<u8>, &'a Object)> {
    let Ok(dict) = resources.get_deref(category, pdf).and_then(Object::as_dict) else {
        return Vec::new();
    };
    dict.iter()
        .filter_map(|(name, value)| Some((name.clone(), pdf.dereference(value).ok()?.1)))
        .collect()
}

/// How a font's codes become text. A simple font with a ToUnicode map decodes each code
/// through it first (ISO 32000-1, 9.10.2 puts it first for text; lopdf takes /Encoding first,
/// which turns subset fonts with their own glyph order into shifted garbage) and through its
/// /Encoding where the map has no entry (partial maps are common). Composite fonts decode
/// through their ToUnicode map alone, as lopdf does, or without one through the legacy
/// encoding their predefined CJK CMap stands for.
struct Codec<'a> {
    base: Encoding<'a>,
    unicode: Option<Encoding<'a>>,
    /// A composite font in a predefined CJK CMap, without a ToUnicode map: its codes are
    /// this encoding's bytes.
    legacy: Option<cmaps::Legacy>,
    /// The font's ToUnicode map read here when lopdf's reading fails it, and how long the
    /// font's codes are.
    own: Option<(Rc<ToUnicode>, CodeWidth)>,
    /// A standard font's built-in encoding (Symbol's), each code's character from 32 on.
    builtin: Option<&'static [u16; 224]>,
    /// The text of codes whose glyph names lopdf does not know (see [`glyphnames`]), or of
    /// a font's codes by its program's built-in encoding (see [`program`]).
    names: Option<&'a HashMap<u8, String>>,
    /// An Identity-H CIDFont's CIDs read through its embedded program or its character
    /// collection (see [`program`]).
    cids: Option<&'a Program>,
    /// A composite font nothing here decodes (glyph ids without a ToUnicode map, a usable
    /// program or a known character collection): each 2-byte code is written as U+FFFD, so
    /// that the page's plausibility check sees it, not as letters.
    unread: bool,
}

impl Codec<'_> {
    /// `bytes` by the font's encoding, codes whose glyph names lopdf lacks by their own text.
    fn write_base(&self, bytes: &[u8], out: &mut String) -> lopdf::Result<()> {
        let Some(names) = self.names else {
            return self.base.write_to_string(bytes, out);
        };
        for code in bytes.chunks(1) {
            match names.get(&code[0]) {
                Some(text) => out.push_str(text),
                None => self.base.write_to_string(code, out)?,
            }
        }
        Ok(())
    }

    /// The text of `bytes`, typographic ligatures spelled out (`ﬁ` as `fi`, as search needs
    /// and as pdftotext writes them).
    fn write(&self, bytes: &[u8], out: &mut String) -> lopdf::Result<()> {
        let mut text = String::new();
        if let Some(table) = self.builtin {
            let shown = bytes.iter().filter(|&&b| b >= 32);
            text.extend(
                shown
                    .filter_map(|&b| char::from_u32(u32::from(table[usize::from(b - 32)])))
                    .filter(|&c| c != '\0'),
            );
        } else if let Some((map, width)) = &self.own {
            let mut failed = None;
            // A code the map lacks: a single byte by the font's encoding, a longer one (or
            // an Identity-H font's odd byte) as undecodable, for the plausibility check to see.
            map.write(bytes, *width, &mut text, &mut |code, out| match code {
                [_] if *width != CodeWidth::Double => {
                    if let Err(err) = self.write_base(code, out) {
                        failed.get_or_insert(err);
                    }
                }
                _ => out.push('\u{FFFD}'),
            });
            if let Some(err) = failed {
                return Err(err);
            }
        } else if self.unread {
            text.extend(bytes.chunks(2).map(|_| '\u{FFFD}'));
        } else if let Some(cids) = self.cids {
            for code in bytes.chunks(2) {
                let cid = code.iter().fold(0u16, |n, b| n << 8 | u16::from(*b));
                if !cids.write_cid(cid, &mut text) {
                    text.push('\u{FFFD}');
                }
            }
        } else {
            match (&self.unicode, self.legacy) {
                (None, Some(legacy)) => legacy.decode(bytes, &mut text),
                (None, None) => self.write_base(bytes, &mut text)?,
                (Some(unicode), _) => {
                    for code in bytes.chunks(1) {
                        match unicode.bytes_to_string(code) {
                            Ok(t) if !t.is_empty() && !t.contains('\u{FFFD}') => text.push_str(&t),
                            _ => self.write_base(code, &mut text)?,
                        }
                    }
                }
            }
        }
        for c in text.chars() {
            match c {
                '\u{FB00}' => out.push_str("ff"),
                '\u{FB01}' => out.push_str("fi"),
                '\u{FB02}' => out.push_str("fl"),
                '\u{FB03}' => out.push_str("ffi"),
                '\u{FB04}' => out.push_str("ffl"),
                '\u{FB05}' | '\u{FB06}' => out.push_str("st"),
                c => out.push(c),
            }
        }
        Ok(())
    }
}

/// A font as the page uses it: how its codes become text and how far its glyphs advance.
struct Font<'a> {
    codec: Codec<'a>,
    metrics: Metrics,
}

/// The encoding a composite font's codes are bytes of, where it has no ToUnicode map: the
/// legacy encoding its predefined CJK CMap stands for, or UTF-16 where its `/ToUnicode` is
/// the name `Identity-H` (not a map: producers write it to say each code is its character,
/// as pdftotext and pdf.js read it).
fn legacy_encoding(font: &Dictionary) -> Option<cmaps::Legacy> {
    if !cmaps::composite(font) {
        return None;
    }
    match font.get(b"ToUnicode") {
        Err(_) => cmaps::legacy_encoding(font.get(b"Encoding").and_then(Object::as_name).ok()?),
        Ok(Object::Name(name)) if matches!(name.as_slice(), b"Identity-H" | b"Identity-V") => {
            Some(cmaps::Legacy::of(encoding_rs::UTF_16BE))
        }
        Ok(_) => None,
    }
}

/// A standard font's built-in encoding, where its dictionary names no other.
fn builtin_encoding(font: &Dictionary) -> Option<&'static [u16; 224]> {
    if font.has(b"Encoding") || font.has(b"ToUnicode") {
        return None;
    }
    standard14::builtin_encoding(font.get(b"BaseFont").and_then(Object::as_name).ok()?)
}

/// The ToUnicode map of a simple font, as an encoding of its own: the font without /Encoding.
fn unicode_only(font: &Dictionary) -> Option<Dictionary> {
    let simple = font
        .get(b"Subtype")
        .and_then(Object::as_name)
        .is_ok_and(|s| s != b"Type0");
    (simple && font.has(b"ToUnicode") && font.has(b"Encoding")).then(|| {
        let mut font = font.clone();
        font.remove(b"Encoding");
        font
    })
}

struct Run<'a> {
    pdf: &'a lopdf::Document,
    limit: usize,
    /// Content bytes still to be read across the page and its forms.
    budget: usize,
    failed: usize,
    /// Content operations that did not parse, skipped (see [`tolerant::operations`]).
    skipped: usize,
    out: Writer,
    /// Forms being read, against reference cycles.
    forms: HashSet<*const Stream>,
    cache: FontCache,
}

impl<'a> Run<'a> {
    fn content(
        &mut self,
        bytes: &[u8],
        fonts: &BTreeMap<Vec<u8>, &'a Dictionary>,
        xobjects: &BTreeMap<Vec<u8>, &'a Object>,
        depth: usize,
    ) -> lopdf::Result<()> {
        self.budget = self.budget.saturating_sub(bytes.len());
        let maps: Vec<Option<Dictionary>> = fonts.values().map(|f| unicode_only(f)).collect();
        let extras: Vec<Rc<FontExtras>> = fonts.values().map(|font| self.extras(font)).collect();
        let mut known: BTreeMap<&[u8], Font> = BTreeMap::new();
        for (((name, font), map), extras) in fonts.iter().zip(&maps).zip(&extras) {
            let (repaired, program) = (&extras.repaired, &extras.program);
            let readable = repaired.as_ref().map_or(*font, |r| &r.font);
            let identity = self.identity_map(font);
            let base = match identity {
                Some(_) => Ok(Encoding::SimpleEncoding(b"Identity-H")),
                None => readable.get_font_encoding_with_limit(self.pdf, self.limit),
            };
            match base {
                Ok(base) => {
                    let unicode = map
                        .as_ref()
                        .and_then(|m| m.get_font_encoding_with_limit(self.pdf, self.limit).ok());
                    let metrics = Metrics::of(self.pdf, font);
                    let legacy = legacy_encoding(font);
                    let own = match identity {
                        Some(own) => Some(own),
                        None => self.own_map(font, &base, unicode.as_ref()),
                    };
                    let cids = program
                        .as_ref()
                        .filter(|p| matches!(p, Program::Cids(_) | Program::Collection(_)));
                    // lopdf falls back to StandardEncoding for a composite font it cannot
                    // decode, which reads 2-byte CIDs as letters.
                    let unread = cmaps::composite(font)
                        && matches!(base, Encoding::OneByteEncoding(_))
                        && own.is_none()
                        && legacy.is_none()
                        && cids.is_none();
                    known.insert(
                        name.as_slice(),
                        Font {
                            codec: Codec {
                                base,
                                unicode,
                                legacy,
                                own,
                                builtin: builtin_encoding(font),
                                names: match program {
                                    Some(Program::Simple(codes)) => Some(codes),
                                    _ => repaired.as_ref().map(|r| &r.codes),
                                },
                                cids,
                                unread,
                            },
                            metrics,
                        },
                    );
                }
                Err(_) => self.failed += 1,
            }
        }
        let (operations, skipped) = tolerant::operations(bytes);
        self.skipped += skipped;
        let mut font: Option<&Font> = None;
        for op in &operations {
            let num = |i: usize| {
                op.operands
                    .get(i)
                    .and_then(|o| o.as_float().ok())
                    .filter(|v| v.is_finite())
            };
            let out = &mut self.out;
            let state = &mut out.state;
            match op.operator.as_str() {
                "q" => state.save(),
                "Q" => state.restore(),
                "cm" => {
                    if let Some(m) = Matrix::of(&op.operands) {
                        state.transform(&m);
                    }
                }
                "BT" => state.begin(),
                "Tf" => {
                    font = op
                        .operands
                        .first()
                        .and_then(|o| o.as_name().ok())
                        .and_then(|n| known.get(n));
                    state.size = num(1).unwrap_or(state.size);
                }
                "Tc" => state.char_spacing = num(0).unwrap_or(0.0),
                "Tw" => state.word_spacing = num(0).unwrap_or(0.0),
                "Tz" => state.scale = num(0).map_or(1.0, |z| z / 100.0),
                "TL" => state.leading = num(0).unwrap_or(0.0),
                "Td" | "TD" => {
                    let (tx, ty) = (num(0).unwrap_or(0.0), num(1).unwrap_or(0.0));
                    if op.operator == "TD" {
                        state.leading = -ty;
                    }
                    state.move_line(tx, ty);
                }
                "Tm" => {
                    if let Some(m) = Matrix::of(&op.operands) {
                        state.set_matrix(m);
                    }
                }
                "T*" => state.next_line(),
                "Tj" | "TJ" | "'" | "\"" => {
                    if op.operator == "\"" {
                        state.word_spacing = num(0).unwrap_or(state.word_spacing);
                        state.char_spacing = num(1).unwrap_or(state.char_spacing);
                    }
                    if matches!(op.operator.as_str(), "'" | "\"") {
                        state.next_line();
                    }
                    let Some(font) = font else { continue };
                    let shown = match op.operator.as_str() {
                        "\"" => op.operands.get(2..).unwrap_or(&[]),
                        _ => &op.operands[..],
                    };
                    out.start_show(font);
                    for operand in shown {
                        self.failed += usize::from(out.show(font, operand).is_err());
                    }
                    out.end_show(font);
                }
                "Do" if depth < MAX_FORM_DEPTH => {
                    let form = op
                        .operands
                        .first()
                        .and_then(|o| o.as_name().ok())
                        .and_then(|n| xobjects.get(n))
                        .and_then(|o| o.as_stream().ok());
                    if let Some(form) = form {
                        self.form(form, fonts, depth + 1)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// An Identity-H font's ToUnicode map, read here, as 2-byte codes whatever the map's
    /// codespace says. lopdf goes by the codespace, byte by byte: a 1-byte range read each
    /// code as two (bug898853.pdf, outlines_se.pdf: pages of U+FFFD), and a range whose
    /// second bytes run backwards (`<02e3> <70bb>`, issue4061.pdf) held no code at all. With
    /// it, lopdf's own reading of the map (again on every page) is not needed.
    fn identity_map(&mut self, font: &Dictionary) -> Option<(Rc<ToUnicode>, CodeWidth)> {
        if !cmaps::identity(font) {
            return None;
        }
        let stream = font
            .get_deref(b"ToUnicode", self.pdf)
            .and_then(Object::as_stream)
            .ok()?;
        Some((self.map_of(stream)?, CodeWidth::Double))
    }

    /// Another font's ToUnicode map read leniently, when lopdf's parser refuses it (lopdf
    /// then falls back to StandardEncoding).
    fn own_map(
        &mut self,
        font: &Dictionary,
        base: &Encoding,
        unicode: Option<&Encoding>,
    ) -> Option<(Rc<ToUnicode>, CodeWidth)> {
        let read = |e: &Encoding| matches!(e, Encoding::UnicodeMapEncoding(_));
        if read(base) || unicode.is_some_and(read) {
            return None;
        }
        let stream = font
            .get_deref(b"ToUnicode", self.pdf)
            .and_then(Object::as_stream)
            .ok()?;
        let width = if cmaps::composite(font) {
            CodeWidth::Codespace
        } else {
            CodeWidth::Single
        };
        Some((self.map_of(stream)?, width))
    }

    /// What is read of a font beyond lopdf's reading, once per document.
    fn extras(&mut self, font: &Dictionary) -> Rc<FontExtras> {
        let key = font as *const Dictionary;
        if let Some(extras) = self.cache.fonts.get(&key) {
            return extras.clone();
        }
        let (pdf, limit) = (self.pdf, self.limit);
        let mut mapped = || {
            let stream = font
                .get_deref(b"ToUnicode", pdf)
                .and_then(Object::as_stream);
            stream.is_ok_and(|stream| self.map_of(stream).is_some())
        };
        let program = program::read(pdf, font, limit, &mut mapped);
        let extras = Rc::new(FontExtras {
            repaired: glyphnames::repair(pdf, font),
            program,
        });
        self.cache.fonts.insert(key, extras.clone());
        extras
    }

    /// A ToUnicode stream read leniently, once per document; none where it maps nothing.
    fn map_of(&mut self, stream: &Stream) -> Option<Rc<ToUnicode>> {
        let limit = self.limit;
        self.cache
            .maps
            .entry(stream as *const Stream)
            .or_insert_with(|| {
                let data = stream.get_plain_content_with_limit(limit).ok()?;
                ToUnicode::parse(&data).map(Rc::new)
            })
            .clone()
    }

    /// A form XObject's text, with its own resources (its parent's where it has none).
    fn form(
        &mut self,
        form: &'a Stream,
        parent_fonts: &BTreeMap<Vec<u8>, &'a Dictionary>,
        depth: usize,
    ) -> lopdf::Result<()> {
        let is_form = form
            .dict
            .get(b"Subtype")
            .and_then(Object::as_name)
            .is_ok_and(|s| s == b"Form");
        if !is_form || self.budget == 0 || !self.forms.insert(form as *const Stream) {
            return Ok(());
        }
        let resources = form
            .dict
            .get_deref(b"Resources", self.pdf)
            .and_then(Object::as_dict)
            .ok();
        let mut fonts: BTreeMap<Vec<u8>, &Dictionary> = BTreeMap::new();
        let mut xobjects = BTreeMap::new();
        if let Some(resources) = resources {
            for (name, font) in named(self.pdf, resources, b"Font") {
                if let Ok(font) = font.as_dict() {
                    fonts.insert(name, font);
                }
            }
            xobjects.extend(named(self.pdf, resources, b"XObject"));
        }
        if fonts.is_empty() {
            fonts = parent_fonts.clone();
        }
        let bytes = form.decompressed_content_with_limit(self.limit.min(self.budget))?;
        self.out.state.save();
        if let Some(m) = form
            .dict
            .get(b"Matrix")
            .ok()
            .and_then(|m| Matrix::of(m.as_array().ok()?))
        {
            self.out.state.transform(&m);
        }
        let result = self.content(&bytes, &fonts, &xobjects, depth);
        self.out.state.restore();
        self.forms.remove(&(form as *const Stream));
        result
    }
}

#[derive(Default)]
struct Writer {
    text: String,
    state: TextState,
    /// Where the last text shown ended on the page, and its font size there.
    end: Option<((f32, f32), f32)>,
    /// Where the last string shown started on the page (none after a break), and its codes
    /// (the buffer reused from string to string).
    last_at: Option<(f32, f32)>,
    last_codes: Vec<u8>,
    /// Where in the text a string was placed on the same line as the one before it, and
    /// whether it was placed before it (to its left): a line drawn right to left string by
    /// string is already in reading order (see [`bidi`]).
    moves: Vec<(usize, bool)>,
}

impl Writer {
    /// The page's text, its right-to-left lines drawn in page order put in reading order.
    fn finish(self) -> String {
        let mut out = String::with_capacity(self.text.len());
        let mut at = 0;
        let mut moves = self.moves.iter().peekable();
        for line in self.text.split_inclusive('\n') {
            let end = at + line.len();
            let (mut back, mut forth) = (0, 0);
            while let Some(&(offset, backward)) = moves.next_if(|m| m.0 < end) {
                // What was placed there, up to the next placement: a space placed anywhere
                // says nothing of the line's direction.
                let next = moves.peek().map_or(end, |m| m.0.clamp(offset, end));
                let placed = self.text.get(offset..next).unwrap_or_default();
                if offset >= at && !placed.trim().is_empty() {
                    *(if backward { &mut back } else { &mut forth }) += 1;
                }
            }
            let body = line.strip_suffix('\n').unwrap_or(line);
            match bidi::reading_order(body, back > forth) {
                Some(turned) => {
                    out.push_str(&turned);
                    out.push_str(&line[body.len()..]);
                }
                None => out.push_str(line),
            }
            at = end;
        }
        out
    }

    /// A line break before what follows (text from another object, placed apart).
    fn break_line(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with('\n') {
            self.text.push('\n');
        }
        self.end = None;
        // What follows is placed apart (an annotation's appearance is drawn in its own
        // rectangle, which the positions here do not know): never drawn over what came before.
        self.last_at = None;
    }

    /// `text` on a line of its own (an annotation's, not placed by the content's positions).
    fn line(&mut self, text: &str) {
        self.break_line();
        self.text.push_str(text);
        self.break_line();
    }

    /// A break before text on another baseline, a space before text that starts past a gap
    /// from where the last text ended (or back before it): by position, not by operator.
    fn start_show(&mut self, font: &Font) {
        let Some(((x, y), size)) = self.end else {
            return;
        };
        let (nx, ny) = self.state.position();
        let size = size
            .max(self.state.page_size() * font.metrics.em)
            .max(f32::EPSILON);
        if (ny - y).abs() > NEW_LINE * size {
            if !self.text.ends_with('\n') {
                self.text.push('\n');
            }
        } else {
            self.moves
                .push((self.text.len(), nx < x - SPACE_GAP * size));
            if (nx - x > SPACE_GAP * size || nx < x - size) && !self.text.ends_with([' ', '\n']) {
                self.text.push(' ');
            }
        }
    }

    fn end_show(&mut self, font: &Font) {
        self.end = Some((
            self.state.position(),
            self.state.page_size() * font.metrics.em,
        ));
    }

    fn show(&mut self, font: &Font, operand: &Object) -> lopdf::Result<()> {
        match operand {
            Object::String(bytes, _) => self.show_string(font, bytes),
            Object::Array(items) => {
                for item in items {
                    match item {
                        Object::String(bytes, _) => self.show_string(font, bytes)?,
                        Object::Integer(_) | Object::Real(_) => {
                            let amount = item.as_float().unwrap_or(0.0);
                            self.state.adjust(amount);
                            if amount < WORD_GAP && !self.text.ends_with([' ', '\n']) {
                                self.text.push(' ');
                            }
                        }
                        _ => {}
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// One string's glyphs. The same string drawn again where it was just drawn (a fake
    /// bold: twice, a hair apart; or moved back by its width and shown again) is one text,
    /// as viewers' text layers and pdftotext read it.
    fn show_string(&mut self, font: &Font, bytes: &[u8]) -> lopdf::Result<()> {
        let start = self.state.position();
        let size = (self.state.page_size() * font.metrics.em).max(f32::EPSILON);
        let again = self.last_at.is_some_and(|at| {
            (at.0 - start.0).abs() < OVERDRAWN * size
                && (at.1 - start.1).abs() < OVERDRAWN * size
                && self.last_codes == bytes
        });
        self.state.show(&font.metrics, bytes);
        if again {
            return Ok(());
        }
        self.last_at = Some(start);
        self.last_codes.clear();
        self.last_codes.extend_from_slice(bytes);
        // A string of several glyphs drawn leftwards (a negative character spacing) is in
        // reading order already, as strings placed leftwards are.
        if bytes.len() >= if font.metrics.two_byte { 4 } else { 2 } {
            let drawn = self.state.position().0 - start.0;
            if drawn.abs() > OVERDRAWN * size {
                self.moves.push((self.text.len(), drawn < 0.0));
            }
        }
        font.codec.write(bytes, &mut self.text)
    }
}
