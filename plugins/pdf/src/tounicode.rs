//! ToUnicode CMaps read leniently, for the maps lopdf's parser refuses (it expects one
//! producer's layout: `endcmap ... end end` on one line, a missing `findresource`, or a
//! comment in an odd place makes it fall back to StandardEncoding, and a page of 2-byte codes
//! comes out as shifted letters: "UFTU" for "test"). Only what text needs is read: the
//! codespace ranges (how many bytes a code has) and the `bfchar` and `bfrange` mappings.

use crate::collections::Collection;
use crate::tolerant::{Token, Tokens};
use std::collections::HashMap;

/// Codes mapped one by one (`bfchar`, and ranges given as arrays) kept at most.
const MAX_CODES: usize = 1 << 17;
/// Ranges that count up from a string kept at most.
const MAX_RANGES: usize = 1 << 16;

/// A font's codes and their text.
#[derive(Debug, Default)]
pub struct ToUnicode {
    /// Codespace ranges: (bytes, low, high).
    spaces: Vec<(usize, u32, u32)>,
    /// Codes mapped one by one, by (bytes, code).
    map: HashMap<(usize, u32), String>,
    /// `bfrange`s with a string target, by (bytes, low): kept as ranges, since a map often
    /// covers thousands of codes this way and a string per code cost more than the page.
    ranges: Vec<Range>,
    /// The collection a map builds on (`/Adobe-Korea1-UCS2 usecmap`): its 2-byte codes are
    /// CIDs, and those the map does not list are the collection's characters.
    uses: Option<Collection>,
}

/// Codes `low..=high` of `len` bytes, whose text counts up from `first` (its last unit).
#[derive(Debug)]
struct Range {
    len: usize,
    low: u32,
    high: u32,
    first: Vec<u16>,
}

impl ToUnicode {
    /// The map a CMap's text gives, or none when it maps no code.
    pub fn parse(data: &[u8]) -> Option<ToUnicode> {
        let mut out = ToUnicode::default();
        let mut operands: Vec<Operand> = Vec::new();
        let mut in_array: Option<Vec<Vec<u8>>> = None;
        for (kind, text) in Tokens::new(data) {
            match kind {
                Token::OpenArray => in_array = Some(Vec::new()),
                Token::CloseArray => {
                    if let Some(items) = in_array.take() {
                        operands.push(Operand::Array(items));
                    }
                }
                Token::Operand if text.first() == Some(&b'<') => {
                    let bytes = hex_string(text);
                    match in_array.as_mut() {
                        Some(items) => items.push(bytes),
                        None => operands.push(Operand::Hex(bytes)),
                    }
                }
                Token::Operand if text.first() == Some(&b'/') => {
                    operands.push(Operand::Name(text[1..].to_vec()));
                }
                Token::Operator => {
                    match text {
                        b"usecmap" => {
                            if let Some(Operand::Name(name)) = operands.last() {
                                out.uses = Collection::of_cmap(name);
                            }
                        }
                        b"endcodespacerange" => out.spaces(&operands),
                        b"endbfchar" => out.chars(&operands),
                        b"endbfrange" => out.ranges(&operands),
                        _ => {}
                    }
                    operands.clear();
                }
                Token::OpenDict | Token::CloseDict => operands.clear(),
                _ => {}
            }
        }
        out.ranges.sort_by_key(|r| (r.len, r.low));
        (!out.map.is_empty() || !out.ranges.is_empty() || out.uses.is_some()).then_some(out)
    }

    fn spaces(&mut self, operands: &[Operand]) {
        for pair in operands.chunks_exact(2) {
            if let [Operand::Hex(low), Operand::Hex(high)] = pair
                && !low.is_empty()
                && low.len() == high.len()
                && low.len() <= 4
            {
                self.spaces.push((low.len(), number(low), number(high)));
            }
        }
    }

    fn chars(&mut self, operands: &[Operand]) {
        for pair in operands.chunks_exact(2) {
            if let [Operand::Hex(code), Operand::Hex(text)] = pair
                && (1..=4).contains(&code.len())
            {
                self.insert(code.len(), number(code), utf16(text));
            }
        }
    }

    fn ranges(&mut self, operands: &[Operand]) {
        for triple in operands.chunks_exact(3) {
            let [Operand::Hex(low), Operand::Hex(high), target] = triple else {
                continue;
            };
            if !(1..=4).contains(&low.len()) {
                continue;
            }
            let (low_code, high_code) = (number(low), number(high));
            if high_code < low_code || (high_code - low_code) as usize > MAX_CODES {
                continue;
            }
            match target {
                Operand::Hex(first) => {
                    let first = utf16_units(first);
                    if !first.is_empty() && self.ranges.len() < MAX_RANGES {
                        self.ranges.push(Range {
                            len: low.len(),
                            low: low_code,
                            high: high_code,
                            first,
                        });
                    }
                }
                Operand::Array(items) => {
                    for (code, item) in (low_code..=high_code).zip(items) {
                        // A full map takes no more: a hostile map's many ranges stop here.
                        if self.map.len() >= MAX_CODES {
                            return;
                        }
                        self.insert(low.len(), code, utf16(item));
                    }
                }
                Operand::Name(_) => {}
            }
        }
    }

    fn insert(&mut self, len: usize, code: u32, text: String) {
        if self.map.len() < MAX_CODES {
            self.map.insert((len, code), text);
        }
    }

    /// The text of `bytes`, its codes `width` long; a code the map lacks is written by
    /// `fallback`. A code is looked up by its value at its own length first, then at the
    /// other (producers write `<0041>` for a single-byte code, and `<41>` with a 1-byte
    /// codespace for an Identity-H font's 2-byte one).
    pub fn write(
        &self,
        bytes: &[u8],
        width: CodeWidth,
        out: &mut String,
        fallback: &mut dyn FnMut(&[u8], &mut String),
    ) {
        let mut at = 0;
        while at < bytes.len() {
            let len = match width {
                CodeWidth::Single => 1,
                CodeWidth::Double => 2,
                CodeWidth::Codespace => self.code_len(&bytes[at..]).unwrap_or(2),
            };
            let len = len.clamp(1, bytes.len() - at);
            let code = &bytes[at..at + len];
            let value = number(code);
            let other = if len == 1 { 2 } else { 1 };
            let found = self.write_code(len, value, out)
                || (width != CodeWidth::Codespace && self.write_code(other, value, out));
            if !found {
                fallback(code, out);
            }
            at += len;
        }
    }

    /// Writes the text of the code `value`, `len` bytes long, if the map has it.
    fn write_code(&self, len: usize, value: u32, out: &mut String) -> bool {
        if let Some(text) = self.map.get(&(len, value)) {
            out.push_str(text);
            return true;
        }
        let after = self
            .ranges
            .partition_point(|r| (r.len, r.low) <= (len, value));
        let Some(range) = after
            .checked_sub(1)
            .map(|i| &self.ranges[i])
            .filter(|r| r.len == len && value <= r.high)
        else {
            let used = self
                .uses
                .filter(|_| len == 2)
                .and_then(|c| c.char(u16::try_from(value).ok()?));
            return used.map(|c| out.push(c)).is_some();
        };
        let (last, head) = range.first.split_last().expect("ranges have a first text");
        let units = head.iter().copied().chain(std::iter::once(
            last.wrapping_add((value - range.low) as u16),
        ));
        out.extend(char::decode_utf16(units).map(|c| c.unwrap_or('\u{FFFD}')));
        true
    }

    /// The length of the code `bytes` starts with, by the codespace ranges.
    fn code_len(&self, bytes: &[u8]) -> Option<usize> {
        self.spaces
            .iter()
            .filter(|(len, ..)| *len <= bytes.len())
            .find(|(len, low, high)| (*low..=*high).contains(&number(&bytes[..*len])))
            .map(|(len, ..)| *len)
    }
}

/// How long a font's codes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeWidth {
    /// A simple font: single bytes, whatever its map declares.
    Single,
    /// A composite font in Identity-H or Identity-V: two bytes.
    Double,
    /// Another composite font: as the map's codespace says (2 bytes where it says nothing).
    Codespace,
}

enum Operand {
    Hex(Vec<u8>),
    Array(Vec<Vec<u8>>),
    Name(Vec<u8>),
}

/// The bytes of a hex string token (`<...>`; the closing `>` may be missing at the end of a
/// damaged map).
fn hex_string(token: &[u8]) -> Vec<u8> {
    let digits = token.strip_prefix(b"<").unwrap_or(token);
    hex(digits.strip_suffix(b">").unwrap_or(digits))
}

/// The bytes of a hex string's digits (white space ignored, an odd last digit padded by 0).
fn hex(digits: &[u8]) -> Vec<u8> {
    let nibbles: Vec<u8> = digits
        .iter()
        .filter_map(|&d| (d as char).to_digit(16).map(|v| v as u8))
        .collect();
    nibbles
        .chunks(2)
        .map(|p| (p[0] << 4) | p.get(1).copied().unwrap_or(0))
        .collect()
}

fn number(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0, |n, &b| (n << 8) | u32::from(b))
}

fn utf16_units(bytes: &[u8]) -> Vec<u16> {
    if bytes.len() == 1 {
        return vec![u16::from(bytes[0])];
    }
    bytes
        .chunks(2)
        .map(|p| (u16::from(p[0]) << 8) | u16::from(p.get(1).copied().unwrap_or(0)))
        .collect()
}

fn utf16(bytes: &[u8]) -> String {
    String::from_utf16_lossy(&utf16_units(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(map: &ToUnicode, bytes: &[u8], width: CodeWidth) -> String {
        let mut out = String::new();
        map.write(bytes, width, &mut out, &mut |_, out| out.push('?'));
        out
    }

    #[test]
    fn a_map_lopdf_refuses_is_read() {
        // bug921409.pdf's layout: comments first, `endcmap ... end end` on one line.
        let cmap = b"%% Custom\n%% CMap\n%%\n/CIDInit /ProcSet findresource begin\n\
            12 dict begin begincmap\n/CIDSystemInfo <<\n /Registry (X)\n /Ordering (Y)\n\
            /Supplement 0\n>> def\n1 begincodespacerange <0000> <02B6> endcodespacerange\n\
            2 beginbfrange\n<0001> <0001> <0020>\n<0046> <0055> <0065>\nendbfrange\n\
            1 beginbfchar <0002> <D83DDE00> endbfchar\n\
            endcmap CMapName currendict /CMap defineresource pop end end";
        let map = ToUnicode::parse(cmap).unwrap();
        assert_eq!(
            text(
                &map,
                &[0, 0x55, 0, 0x46, 0, 0x54, 0, 0x55],
                CodeWidth::Double
            ),
            "test"
        );
        assert_eq!(
            text(&map, &[0, 1, 0, 2, 0, 9], CodeWidth::Codespace),
            " \u{1F600}?"
        );
    }

    #[test]
    fn ranges_to_arrays_and_one_byte_codes() {
        let cmap = b"1 begincodespacerange <00> <FF> endcodespacerange\n\
            1 beginbfrange <41> <42> [<0066006C> <00DF>] endbfrange";
        let map = ToUnicode::parse(cmap).unwrap();
        assert_eq!(
            text(&map, b"ABC", CodeWidth::Codespace),
            "fl\u{DF}?",
            "1-byte codespace"
        );
        // An Identity-H font's 2-byte codes under a 1-byte codespace (bug898853.pdf).
        assert_eq!(
            text(&map, &[0, 0x41, 0, 0x42], CodeWidth::Double),
            "fl\u{DF}"
        );
        // A simple font's codes are single bytes, even under a 2-byte codespace and codes
        // written with two (issue4934.pdf).
        let two = b"1 begincodespacerange <0000> <FFFF> endcodespacerange\n\
            2 beginbfchar <41> <0061> <0042> <0062> endbfchar";
        let map = ToUnicode::parse(two).unwrap();
        assert_eq!(text(&map, b"ABC", CodeWidth::Single), "ab?");
        assert_eq!(
            text(&map, b"AB", CodeWidth::Codespace),
            "?",
            "as one 2-byte code"
        );
        assert!(ToUnicode::parse(b"begincmap endcmap").is_none());
    }

    #[test]
    fn hostile_maps_end_cleanly_and_stay_bounded() {
        // A hex string cut off at the very end (it trapped the plugin).
        assert!(ToUnicode::parse(b"1 beginbfchar <41> <0061> endbfchar <").is_some());
        // Many ranges over the whole 2-byte space: the map stops at its cap.
        let range = "<0000> <ffff> <0041>\n".repeat(64);
        let cmap = format!("64 beginbfrange\n{range}endbfrange");
        let map = ToUnicode::parse(cmap.as_bytes()).unwrap();
        assert!(map.map.len() <= MAX_CODES && map.ranges.len() <= MAX_RANGES);
        assert_eq!(text(&map, &[0, 1], CodeWidth::Double), "B");
    }
}
