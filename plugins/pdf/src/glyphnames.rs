//! Glyph names lopdf's Adobe Glyph List does not hold. lopdf reads an `/Encoding`'s
//! `/Differences` only when it knows every name in it: one name it lacks (`f_f_i`, `a.sc`,
//! `uni00E9`, common in fonts converted from OpenType) and the whole font falls back to
//! StandardEncoding, so codes below 32 read as nothing and the rest as other letters. Such a
//! font is read here with those names taken out of its `/Differences` (lopdf reads the rest
//! against the font's own base encoding) and their text resolved by the AGL specification's
//! rules: a suffix after `.` dropped, `_` joining a ligature's parts, `uniXXXX` and
//! `uXXXX[XX]` as code points, lopdf's list asked for each part.

use lopdf::{Dictionary, Document, Encoding, Object};
use std::collections::HashMap;

/// A font whose `/Differences` lopdf could not read, made readable.
#[derive(Debug)]
pub struct Repaired {
    /// The font with its `/Encoding` inline and only the names lopdf knows in it.
    pub font: Dictionary,
    /// The text of the codes whose names were taken out.
    pub codes: HashMap<u8, String>,
}

/// The font made readable, or None where lopdf reads its encoding as it is (or it has no
/// `/Differences` to repair). A Type 3 font's glyphs are drawings named as its maker liked
/// (`square`, `a1`): its codes are read as lopdf reads them, as pdftotext does.
pub fn repair(pdf: &Document, font: &Dictionary) -> Option<Repaired> {
    if font.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Type3") {
        return None;
    }
    let encoding = font
        .get_deref(b"Encoding", pdf)
        .and_then(Object::as_dict)
        .ok()?;
    let differences = encoding
        .get(b"Differences")
        .and_then(Object::as_array)
        .ok()?;
    if matches!(font.get_font_encoding(pdf), Ok(Encoding::Differences(_))) {
        return None;
    }
    let mut codes = HashMap::new();
    let mut kept = Vec::with_capacity(differences.len());
    let mut code: i64 = 0;
    for item in differences {
        match item {
            Object::Integer(n) => {
                code = *n;
                kept.push(item.clone());
            }
            Object::Name(name) => {
                if known(pdf, name).is_some() {
                    kept.push(item.clone());
                } else {
                    if let (Ok(byte), Some(text)) = (u8::try_from(code), text_of(pdf, name)) {
                        codes.insert(byte, text);
                    }
                    // The next name keeps its code; a code past 255 ends the array.
                    if code < 255 {
                        kept.push(Object::Integer(code + 1));
                    }
                }
                code = code.saturating_add(1);
            }
            // lopdf refuses anything else: leave it out.
            _ => {}
        }
    }
    let mut encoding = encoding.clone();
    encoding.set("Differences", Object::Array(kept));
    let mut font = font.clone();
    font.set("Encoding", Object::Dictionary(encoding));
    // Still unreadable (a code out of range): nothing gained.
    if !matches!(font.get_font_encoding(pdf), Ok(Encoding::Differences(_))) {
        return None;
    }
    Some(Repaired { font, codes })
}

/// A glyph name's text by lopdf's list: asked through an encoding that gives two codes that
/// name (lopdf falls back to StandardEncoding, where they differ, when it lacks it).
fn known(pdf: &Document, name: &[u8]) -> Option<String> {
    let glyph = Object::Name(name.to_vec());
    let mut encoding = Dictionary::new();
    encoding.set(
        "Differences",
        vec![65.into(), glyph.clone(), 66.into(), glyph],
    );
    let mut font = Dictionary::new();
    font.set("Type", Object::Name(b"Font".to_vec()));
    font.set("Encoding", encoding);
    let decoded = font.get_font_encoding(pdf).ok()?;
    let (a, b) = (
        decoded.bytes_to_string(b"A").ok()?,
        decoded.bytes_to_string(b"B").ok()?,
    );
    (a == b && !a.is_empty()).then_some(a)
}

/// A name's text by the AGL specification's rules, or None where no part of it is known.
pub fn text_of(pdf: &Document, name: &[u8]) -> Option<String> {
    let name = std::str::from_utf8(name).ok()?;
    let base = name.split('.').next().unwrap_or_default();
    let mut text = String::new();
    for part in base.split('_').filter(|p| !p.is_empty()) {
        if let Some(known) = known(pdf, part.as_bytes()) {
            text.push_str(&known);
        } else if let Some(chars) = code_points(part) {
            text.push_str(&chars);
        }
    }
    (!text.is_empty()).then_some(text)
}

/// `uniXXXX` (one or more groups of four hex digits, each a character outside the
/// surrogates) and `uXXXX` to `uXXXXXX` (one character).
fn code_points(part: &str) -> Option<String> {
    let hex = |digits: &str| -> Option<char> {
        let ok = digits
            .chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_lowercase());
        ok.then(|| u32::from_str_radix(digits, 16).ok())
            .flatten()
            .and_then(char::from_u32)
    };
    if let Some(groups) = part.strip_prefix("uni")
        && !groups.is_empty()
        && groups.len() % 4 == 0
    {
        return (0..groups.len())
            .step_by(4)
            .map(|at| hex(groups.get(at..at + 4)?))
            .collect();
    }
    let digits = part.strip_prefix('u')?;
    (4..=6)
        .contains(&digits.len())
        .then(|| hex(digits))?
        .map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn font(differences: Vec<Object>, base: Option<&str>) -> Dictionary {
        let mut encoding = Dictionary::new();
        if let Some(base) = base {
            encoding.set("BaseEncoding", Object::Name(base.as_bytes().to_vec()));
        }
        encoding.set("Differences", differences);
        let mut font = Dictionary::new();
        font.set("Type", Object::Name(b"Font".to_vec()));
        font.set("Subtype", Object::Name(b"Type1".to_vec()));
        font.set("Encoding", encoding);
        font
    }

    fn name(n: &str) -> Object {
        Object::Name(n.as_bytes().to_vec())
    }

    #[test]
    fn names_resolve_by_the_agl_rules() {
        let pdf = Document::new();
        let text = |n: &str| text_of(&pdf, n.as_bytes());
        assert_eq!(known(&pdf, b"eacute").as_deref(), Some("é"));
        assert_eq!(known(&pdf, b"f_t"), None, "lopdf lacks it");
        assert_eq!(text("f_t").as_deref(), Some("ft"));
        assert_eq!(text("T_h").as_deref(), Some("Th"));
        assert_eq!(text("oacute.sc").as_deref(), Some("ó"));
        assert_eq!(text("uni00E9").as_deref(), Some("é"));
        assert_eq!(text("uni00660069").as_deref(), Some("fi"));
        assert_eq!(text("u1F600").as_deref(), Some("😀"));
        assert_eq!(text("uniD800"), None, "a surrogate is no character");
        assert_eq!(text("uni00e9"), None, "the rules want upper-case hex");
        assert_eq!(text("g31"), None);
        assert_eq!(text(".notdef"), None);
    }

    #[test]
    fn a_font_with_names_lopdf_lacks_keeps_the_rest_of_its_encoding() {
        let pdf = Document::new();
        let f = font(
            vec![
                1.into(),
                name("f_t"),
                name("eacute"),
                name("a.sc"),
                name("g31"),
                name("delta"),
            ],
            Some("WinAnsiEncoding"),
        );
        // Before: one unknown name and lopdf reads the whole font as StandardEncoding.
        assert!(!matches!(
            f.get_font_encoding(&pdf),
            Ok(Encoding::Differences(_))
        ));
        let repaired = repair(&pdf, &f).expect("repaired");
        let encoding = repaired.font.get_font_encoding(&pdf).unwrap();
        let read = |code: u8| encoding.bytes_to_string(&[code]).unwrap();
        assert_eq!(repaired.codes.get(&1).map(String::as_str), Some("ft"));
        assert_eq!(read(2), "é", "a known name keeps its code");
        assert_eq!(repaired.codes.get(&3).map(String::as_str), Some("a"));
        assert!(!repaired.codes.contains_key(&4), "no text for g31");
        assert_eq!(
            read(5),
            "δ",
            "codes after the unknown names keep their place"
        );
        assert_eq!(read(0x80), "€", "the base encoding still applies");
        // A font lopdf reads as it is needs nothing.
        assert!(repair(&pdf, &font(vec![1.into(), name("eacute")], None)).is_none());
    }
}
