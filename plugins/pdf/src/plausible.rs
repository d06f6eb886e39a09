//! Whether a page's extracted text is text at all. A font without a usable encoding decodes
//! to replacement characters, or to other glyphs' letters (shifted codes) or punctuation soup;
//! indexed as text, such a page matches nothing and misleads whoever reads it. Such a page is
//! left out with its reason instead.

/// Pages shorter than this (visible characters) are too short to judge.
const MIN_CHARS: usize = 40;
/// A page shorter than [`MIN_CHARS`] still is undecodable past this share of replacement
/// and control characters (a title of ten U+FFFD says nothing).
const MOSTLY: f32 = 0.5;
/// Replacement and control characters past this share: undecodable.
const MAX_UNDECODED: f32 = 0.25;
/// ASCII letters needed before their vowel share means anything.
const MIN_LETTERS: usize = 200;
/// Latin-script text has a vowel share (y included) of about 0.3-0.45 and random letters
/// 0.23; English with its glyph codes shifted by a few places (`+HOYHWLFD` for `Helvetica`,
/// a subset font read without its encoding) has 0.15-0.16.
const MIN_VOWELS: f32 = 0.2;
/// Non-ASCII punctuation and symbols of the Latin, Greek and general punctuation ranges
/// (`¤„–¢⁄˛`) past this share: glyph codes decoded as the wrong characters. Prose has a few
/// percent (quotes, dashes, bullets); code and formulas use ASCII symbols, not counted.
const MAX_SYMBOLS: f32 = 0.2;

/// Why `text` is not readable text, or None when it reads as text.
pub fn undecodable(text: &str) -> Option<String> {
    let visible: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let n = visible.len();
    let share = |count: usize| count as f32 / n.max(1) as f32;
    let undecoded = visible
        .iter()
        .filter(|c| **c == '\u{FFFD}' || c.is_control())
        .count();
    // A short page is too short to judge by shares, unless most of it is undecoded.
    if n < MIN_CHARS && share(undecoded) <= MOSTLY {
        return None;
    }
    if share(undecoded) > MAX_UNDECODED {
        return Some(format!(
            "{:.0}% of its characters could not be decoded",
            share(undecoded) * 100.0
        ));
    }
    let letters: Vec<char> = visible
        .iter()
        .copied()
        .filter(char::is_ascii_alphabetic)
        .collect();
    if letters.len() >= MIN_LETTERS {
        let vowels = letters
            .iter()
            .filter(|c| "aeiouyAEIOUY".contains(**c))
            .count();
        let ratio = vowels as f32 / letters.len() as f32;
        if ratio < MIN_VOWELS {
            return Some(format!(
                "its letters are not text ({:.0}% vowels: glyph codes without their encoding)",
                ratio * 100.0
            ));
        }
    }
    // Symbols of the Latin ranges only: emoji, private-use symbol fonts and other scripts'
    // marks are what they are.
    let symbols = visible
        .iter()
        .filter(|c| ('\u{80}'..'\u{2070}').contains(*c) && !c.is_alphanumeric())
        .count();
    if share(symbols) > MAX_SYMBOLS {
        return Some(format!(
            "{:.0}% of its characters are stray symbols (glyph codes decoded as the wrong characters)",
            share(symbols) * 100.0
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_is_told_from_text() {
        let prose = "The quick brown fox jumps over the lazy dog, again and again. ".repeat(6);
        let code = "fn main() { let x = vec![1, 2, 3]; println!(\"{:?}\", x); } ".repeat(5);
        let table = "1,234.56 | 7,890.12 | (3.5%) = 42; “quoted” – • ".repeat(5);
        let cjk = "標準マーケットモデルは次元で説明する。取引できない商品がある。".repeat(3);
        let emoji = "🌴🐢🐐🍄⚽🍻👑📸😬 abcdef ".repeat(6);
        for text in [&prose, &code, &table, &cjk, &emoji] {
            assert_eq!(undecodable(text), None, "{text}");
        }
        assert_eq!(undecodable("ab� cd"), None, "too short to judge");
        assert!(
            undecodable("���� ������")
                .unwrap()
                .contains("could not be decoded"),
            "a short page of replacement characters"
        );
        let replaced = "��'i��ific�i���i�� m����0 ���:��� ����/� ".repeat(3);
        assert!(
            undecodable(&replaced)
                .unwrap()
                .contains("could not be decoded")
        );
        // Prose with its glyph codes shifted as a subset font read without its encoding
        // shows it ("Helvetica" as "+HOYHWLFD").
        let shifted: String = prose
            .chars()
            .map(|c| match c {
                'A'..='Z' | 'a'..='z' => char::from(c as u8 - 29),
                c => c,
            })
            .collect();
        assert!(shifted.starts_with("7KH TXLFN"), "{shifted}");
        assert!(
            undecodable(&shifted).unwrap().contains("vowels"),
            "{shifted}"
        );
        let soup = "=¤„=a% a ¤–=¢%¢¢.gEq‚¢b ⁄ ¤ ?¤”?a% a ¤”?¢%¢¢.^Eq”¢b ƒ ¤".repeat(2);
        assert!(undecodable(&soup).unwrap().contains("stray symbols"));
    }
}
