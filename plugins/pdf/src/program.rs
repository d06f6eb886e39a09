//! Text read from a font's embedded program, for fonts whose dictionary says nothing of it.
//! As pdftotext does:
//! - a TrueType CIDFont in Identity-H without a usable ToUnicode map: each CID is a glyph
//!   (through `/CIDToGIDMap`), and a glyph's character is where the program's own `cmap`
//!   puts it, or what its `post` table names it;
//! - a CIDFont in one of Adobe's CJK collections without a ToUnicode map: each CID is the
//!   collection's character (see [`crate::collections`]);
//! - a Type 1 or CFF font without an `/Encoding` (its built-in one, as TeX's fonts are
//!   embedded): each code is the glyph its program's encoding names, read by the Adobe Glyph
//!   List (lopdf reads such codes as StandardEncoding, so `ff` came out as `fi`).

use crate::cmaps;
use crate::collections::Collection;
use crate::glyphnames;
use lopdf::{Dictionary, Document, Object};
use std::collections::HashMap;
use ttf_parser::{GlyphId, RawFace, Tag, cff, cmap, maxp, post};

/// Code points looked up in a program's `cmap`: the Basic Multilingual Plane and the
/// Supplementary Ideographic Plane (CJK). Looked up one by one rather than by the table's own
/// iteration, whose cost a hostile table could make unbounded.
const LOOKED_UP: [std::ops::Range<u32>; 2] = [0..0x1_0000, 0x2_0000..0x3_0000];
/// Unicode `cmap` subtables looked at, at most (a font has one or two; a hostile one could
/// have thousands, each costing the lookups above).
const MAX_SUBTABLES: usize = 4;

/// A font's codes and their text, from its program.
#[derive(Debug)]
pub enum Program {
    /// A simple font's 1-byte codes.
    Simple(HashMap<u8, String>),
    /// A CIDFont's CIDs, its codes in Identity-H (2 bytes).
    Cids(HashMap<u16, String>),
    /// A CIDFont's CIDs in one of Adobe's character collections.
    Collection(Collection),
}

impl Program {
    /// Writes the text of a CID (a composite font's 2-byte code), if known.
    pub fn write_cid(&self, cid: u16, out: &mut String) -> bool {
        match self {
            Program::Cids(cids) => cids.get(&cid).map(|t| out.push_str(t)).is_some(),
            Program::Collection(collection) => collection.char(cid).map(|c| out.push(c)).is_some(),
            Program::Simple(_) => false,
        }
    }
}

/// The text of `font`'s codes by its embedded program, where its dictionary gives none, or
/// None where it does (or the program says nothing either). `mapped` tells whether the font's
/// ToUnicode stream maps any code (asked only of a composite font that has one); `limit`
/// bounds each decompression.
pub fn read(
    pdf: &Document,
    font: &Dictionary,
    limit: usize,
    mapped: &mut dyn FnMut() -> bool,
) -> Option<Program> {
    if font.has(b"ToUnicode") && !cmaps::composite(font) {
        return None;
    }
    if cmaps::composite(font) {
        return cids(pdf, font, limit, mapped);
    }
    if !builtin_encoding(pdf, font) {
        return None;
    }
    let descriptor = font
        .get_deref(b"FontDescriptor", pdf)
        .and_then(Object::as_dict)
        .ok()?;
    let codes = if let Ok(file) = descriptor
        .get_deref(b"FontFile3", pdf)
        .and_then(Object::as_stream)
    {
        if file.dict.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"Type1C") {
            return None;
        }
        cff_codes(pdf, &file.get_plain_content_with_limit(limit).ok()?)
    } else {
        let file = descriptor
            .get_deref(b"FontFile", pdf)
            .and_then(Object::as_stream)
            .ok()?;
        type1_codes(pdf, &file.get_plain_content_with_limit(limit).ok()?)
    };
    (!codes.is_empty()).then_some(Program::Simple(codes))
}

/// Whether a simple font's codes are its program's own: no `/Encoding`, or a name that is
/// none of the standard encodings.
fn builtin_encoding(pdf: &Document, font: &Dictionary) -> bool {
    match font.get_deref(b"Encoding", pdf) {
        Err(_) => true,
        Ok(Object::Name(name)) => !matches!(
            name.as_slice(),
            b"StandardEncoding" | b"WinAnsiEncoding" | b"MacRomanEncoding" | b"MacExpertEncoding"
        ),
        Ok(_) => false,
    }
}

/// An Identity-H TrueType CIDFont's CIDs and their text, when its ToUnicode map gives none.
fn cids(
    pdf: &Document,
    font: &Dictionary,
    limit: usize,
    mapped: &mut dyn FnMut() -> bool,
) -> Option<Program> {
    if !cmaps::identity(font) {
        return None;
    }
    let unmapped = match font.get_deref(b"ToUnicode", pdf) {
        Ok(Object::Stream(_)) => !mapped(),
        // A name (`/Identity-H`) says the codes are their characters.
        Ok(_) => false,
        Err(_) => true,
    };
    if !unmapped {
        return None;
    }
    let descendant = font
        .get_deref(b"DescendantFonts", pdf)
        .and_then(Object::as_array)
        .ok()?
        .first()
        .and_then(|d| pdf.dereference(d).ok())
        .and_then(|(_, d)| d.as_dict().ok())?;
    // CIDs of one of Adobe's collections stand for its characters, whatever draws them.
    let system = descendant
        .get_deref(b"CIDSystemInfo", pdf)
        .and_then(Object::as_dict)
        .ok();
    let entry = |key: &[u8]| {
        system
            .and_then(|s| s.get_deref(key, pdf).ok())
            .and_then(|o| o.as_str().ok())
            .unwrap_or_default()
    };
    if let Some(collection) = Collection::named(entry(b"Registry"), entry(b"Ordering")) {
        return Some(Program::Collection(collection));
    }
    if descendant.get(b"Subtype").and_then(Object::as_name).ok() != Some(b"CIDFontType2") {
        return None;
    }
    let data = descendant
        .get_deref(b"FontDescriptor", pdf)
        .and_then(Object::as_dict)
        .and_then(|d| d.get_deref(b"FontFile2", pdf))
        .and_then(Object::as_stream)
        .ok()?
        .get_plain_content_with_limit(limit)
        .ok()?;
    let glyphs = truetype_glyphs(pdf, &data)?;
    // CID to glyph: a stream of 2-byte glyph ids, or the same number.
    let map = descendant
        .get_deref(b"CIDToGIDMap", pdf)
        .and_then(Object::as_stream)
        .ok()
        .and_then(|s| s.get_plain_content_with_limit(limit).ok());
    let out: HashMap<u16, String> = match map {
        Some(map) => map
            .chunks_exact(2)
            .take(usize::from(u16::MAX) + 1)
            .enumerate()
            .filter_map(|(cid, gid)| {
                let text = glyphs.get(&u16::from_be_bytes([gid[0], gid[1]]))?;
                Some((u16::try_from(cid).ok()?, text.clone()))
            })
            .collect(),
        None => glyphs,
    };
    (!out.is_empty()).then_some(Program::Cids(out))
}

/// A TrueType program's glyphs and their text: by its Unicode `cmap` subtables (a glyph
/// several characters draw takes the first, one outside the private use area before one in
/// it), else by its `post` table's names.
fn truetype_glyphs(pdf: &Document, data: &[u8]) -> Option<HashMap<u16, String>> {
    let face = RawFace::parse(data, 0).ok()?;
    let mut glyphs: HashMap<u16, String> = HashMap::new();
    if let Some(table) = face
        .table(Tag::from_bytes(b"cmap"))
        .and_then(cmap::Table::parse)
    {
        let unicode = table.subtables.into_iter().filter(|s| s.is_unicode());
        for subtable in unicode.take(MAX_SUBTABLES) {
            for cp in LOOKED_UP.iter().cloned().flatten() {
                let Some(GlyphId(gid)) = subtable.glyph_index(cp).filter(|g| g.0 != 0) else {
                    continue;
                };
                let Some(c) = char::from_u32(cp).filter(|c| !c.is_control()) else {
                    continue;
                };
                let private = |c: char| ('\u{E000}'..='\u{F8FF}').contains(&c);
                match glyphs.get(&gid) {
                    Some(have) if !have.chars().next().is_some_and(private) || private(c) => {}
                    _ => {
                        glyphs.insert(gid, c.to_string());
                    }
                }
            }
        }
    }
    let count = face
        .table(Tag::from_bytes(b"maxp"))
        .and_then(maxp::Table::parse)
        .map_or(0, |m| m.number_of_glyphs.get());
    if let Some(names) = face
        .table(Tag::from_bytes(b"post"))
        .and_then(post::Table::parse)
    {
        for gid in 1..count {
            if glyphs.contains_key(&gid) {
                continue;
            }
            if let Some(text) = names
                .glyph_name(GlyphId(gid))
                .and_then(|name| glyphnames::text_of(pdf, name.as_bytes()))
            {
                glyphs.insert(gid, text);
            }
        }
    }
    (!glyphs.is_empty()).then_some(glyphs)
}

/// A CFF font's codes by its own encoding, each as the text of the glyph name it draws.
fn cff_codes(pdf: &Document, data: &[u8]) -> HashMap<u8, String> {
    let Some(table) = cff::Table::parse(data) else {
        return HashMap::new();
    };
    (0..=u8::MAX)
        .filter_map(|code| {
            let glyph = table.glyph_index(code).filter(|g| g.0 != 0)?;
            let name = table.glyph_name(glyph)?;
            Some((code, glyphnames::text_of(pdf, name.as_bytes())?))
        })
        .collect()
}

/// A Type 1 font's codes by the encoding its clear-text part declares (`dup 32 /space put`),
/// each as the text of the glyph name; nothing where it uses StandardEncoding.
fn type1_codes(pdf: &Document, data: &[u8]) -> HashMap<u8, String> {
    let clear = data
        .windows(5)
        .position(|w| w == b"eexec")
        .map_or(data, |end| &data[..end]);
    let Some(start) = clear.windows(9).position(|w| w == b"/Encoding") else {
        return HashMap::new();
    };
    let mut words = clear[start + 9..]
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty());
    let mut out = HashMap::new();
    let mut window: [&[u8]; 3] = [b"", b"", b""];
    for word in words.by_ref() {
        if word == b"StandardEncoding" || word == b"def" {
            break;
        }
        if word == b"put"
            && window[0] == b"dup"
            && let (Some(code), Some(name)) = (
                std::str::from_utf8(window[1])
                    .ok()
                    .and_then(|n| n.parse::<u8>().ok()),
                window[2].strip_prefix(b"/"),
            )
            && let Some(text) = glyphnames::text_of(pdf, name)
        {
            out.insert(code, text);
        }
        window = [window[1], window[2], word];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_type1_program_s_encoding_is_read_from_its_clear_text() {
        let pdf = Document::new();
        let program = b"%!PS-AdobeFont-1.0: NewsGothic\n/FontName /NewsGothic def\n\
            /Encoding 256 array\n0 1 255 {1 index exch /.notdef put} for\n\
            dup 32 /space put\ndup 65 /A put\ndup 66 /ffi put\ndup 67 /uni00E9 put\n\
            readonly def\ncurrentdict end\ncurrentfile eexec\n\x8f\x01\x02dup 68 /B put";
        let codes = type1_codes(&pdf, program);
        assert_eq!(codes.get(&65).map(String::as_str), Some("A"));
        assert_eq!(codes.get(&66).map(String::as_str), Some("\u{FB03}"));
        assert_eq!(codes.get(&67).map(String::as_str), Some("é"));
        assert!(!codes.contains_key(&68), "nothing past eexec is read");
        let standard = b"/Encoding StandardEncoding def\ndup 65 /B put";
        assert!(type1_codes(&pdf, standard).is_empty());
    }

    #[test]
    fn a_cff_program_s_encoding_names_its_codes_glyphs() {
        let pdf = Document::new();
        let codes = cff_codes(&pdf, &fixtures::cff());
        assert_eq!(codes.get(&11).map(String::as_str), Some("\u{FB00}"));
        assert_eq!(codes.get(&65).map(String::as_str), Some("A"));
        assert_eq!(codes.len(), 2, "{codes:?}");
    }

    #[test]
    fn a_truetype_program_s_cmap_gives_its_glyphs_characters() {
        let pdf = Document::new();
        let glyphs = truetype_glyphs(&pdf, &fixtures::truetype('A', 'C', 1)).unwrap();
        assert_eq!(glyphs.get(&1).map(String::as_str), Some("A"));
        assert_eq!(glyphs.get(&3).map(String::as_str), Some("C"));
        assert_eq!(glyphs.len(), 3);
        // A glyph only the private use area draws keeps that character.
        let private = truetype_glyphs(&pdf, &fixtures::truetype('\u{E000}', '\u{E002}', 1));
        assert_eq!(
            private.unwrap().get(&1).map(String::as_str),
            Some("\u{E000}")
        );
    }

    #[test]
    fn damaged_programs_give_nothing() {
        let pdf = Document::new();
        assert!(cff_codes(&pdf, b"not a font").is_empty());
        assert!(cff_codes(&pdf, &[]).is_empty());
        assert!(truetype_glyphs(&pdf, b"\x00\x01\x00\x00\x00\x05garbage").is_none());
        assert!(truetype_glyphs(&pdf, &[]).is_none());
    }
}

/// Font programs built byte by byte for the tests.
#[cfg(test)]
pub mod fixtures {
    /// A CFF font of three glyphs, `.notdef`, `ff` (a custom string) and `A`, encoded at 11
    /// and 65.
    pub fn cff() -> Vec<u8> {
        let mut out = vec![1, 0, 4, 1]; // header
        out.extend([0, 1, 1, 1, 2, b'F']); // Name INDEX
        // Top DICT INDEX: charset at 40, Encoding at 45, CharStrings at 30 (operands + 139).
        out.extend([0, 1, 1, 1, 7, 179, 15, 184, 16, 169, 17]);
        out.extend([0, 1, 1, 1, 3, b'f', b'f']); // String INDEX: "ff" is SID 391
        out.extend([0, 0]); // Global Subr INDEX
        assert_eq!(out.len(), 30);
        out.extend([0, 3, 1, 1, 2, 3, 4, 14, 14, 14]); // CharStrings: three endchar
        out.extend([0, 0x01, 0x87, 0x00, 34]); // charset: SIDs 391 (ff), 34 (A)
        out.extend([0, 2, 11, 65]); // Encoding: glyph 1 at 11, glyph 2 at 65
        out
    }

    /// A TrueType font of only a `cmap`: one format 12 group, `first..=last` on glyphs from
    /// `glyph`.
    pub fn truetype(first: char, last: char, glyph: u32) -> Vec<u8> {
        let mut cmap = Vec::new();
        cmap.extend(0u16.to_be_bytes()); // version
        cmap.extend(1u16.to_be_bytes()); // one subtable
        cmap.extend([0, 3, 0, 10]); // Windows, UCS-4
        cmap.extend(12u32.to_be_bytes());
        cmap.extend(12u16.to_be_bytes()); // format 12
        cmap.extend(0u16.to_be_bytes());
        cmap.extend(28u32.to_be_bytes()); // length
        cmap.extend(0u32.to_be_bytes()); // language
        cmap.extend(1u32.to_be_bytes()); // one group
        cmap.extend(u32::from(first).to_be_bytes());
        cmap.extend(u32::from(last).to_be_bytes());
        cmap.extend(glyph.to_be_bytes());
        let mut out = vec![0, 1, 0, 0, 0, 1, 0, 16, 0, 0, 0, 0];
        out.extend(b"cmap");
        out.extend(0u32.to_be_bytes()); // checksum
        out.extend(28u32.to_be_bytes()); // offset
        out.extend((cmap.len() as u32).to_be_bytes());
        out.extend(cmap);
        out
    }
}
