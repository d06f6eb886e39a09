// Generated from Adobe's Core 14 AFM files (Adobe Font Metrics, redistributable under the
// APAFML license): the advance widths of codes 32 to 126, in thousandths of an em.
/// Helvetica.
pub const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 222, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 222, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
/// Helvetica-Bold.
pub const HELVETICA_BOLD: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 278, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
    611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 333, 278, 333, 584, 556, 278, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
    278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];
/// Times-Roman.
pub const TIMES_ROMAN: [u16; 95] = [
    250, 333, 408, 500, 500, 833, 778, 333, 333, 333, 500, 564, 250, 333, 250, 278, 500, 500, 500,
    500, 500, 500, 500, 500, 500, 500, 278, 278, 564, 564, 564, 444, 921, 722, 667, 667, 722, 611,
    556, 722, 722, 333, 389, 722, 611, 889, 722, 722, 556, 722, 667, 556, 611, 722, 722, 944, 722,
    722, 611, 333, 278, 333, 469, 500, 333, 444, 500, 444, 500, 444, 333, 500, 500, 278, 278, 500,
    278, 778, 500, 500, 500, 500, 333, 389, 278, 500, 500, 722, 500, 500, 444, 480, 200, 480, 541,
];
/// Times-Bold.
pub const TIMES_BOLD: [u16; 95] = [
    250, 333, 555, 500, 500, 1000, 833, 333, 333, 333, 500, 570, 250, 333, 250, 278, 500, 500, 500,
    500, 500, 500, 500, 500, 500, 500, 333, 333, 570, 570, 570, 500, 930, 722, 667, 722, 722, 667,
    611, 778, 778, 389, 500, 778, 667, 944, 722, 778, 611, 778, 722, 556, 667, 722, 722, 1000, 722,
    722, 667, 333, 278, 333, 581, 500, 333, 500, 556, 444, 556, 444, 333, 500, 556, 278, 333, 556,
    278, 833, 556, 500, 556, 556, 444, 389, 333, 556, 500, 722, 500, 500, 444, 394, 220, 394, 520,
];
/// Times-Italic.
pub const TIMES_ITALIC: [u16; 95] = [
    250, 333, 420, 500, 500, 833, 778, 333, 333, 333, 500, 675, 250, 333, 250, 278, 500, 500, 500,
    500, 500, 500, 500, 500, 500, 500, 333, 333, 675, 675, 675, 500, 920, 611, 611, 667, 722, 611,
    611, 722, 722, 333, 444, 667, 556, 833, 667, 722, 611, 722, 611, 500, 556, 722, 611, 833, 611,
    556, 556, 389, 278, 389, 422, 500, 333, 500, 500, 444, 500, 444, 278, 500, 500, 278, 278, 444,
    278, 722, 500, 500, 500, 500, 389, 389, 278, 500, 444, 667, 444, 444, 389, 400, 275, 400, 541,
];
/// Times-BoldItalic.
pub const TIMES_BOLD_ITALIC: [u16; 95] = [
    250, 389, 555, 500, 500, 833, 778, 333, 333, 333, 500, 570, 250, 333, 250, 278, 500, 500, 500,
    500, 500, 500, 500, 500, 500, 500, 333, 333, 570, 570, 570, 500, 832, 667, 667, 667, 722, 667,
    667, 722, 778, 389, 500, 667, 611, 889, 722, 722, 611, 722, 667, 556, 611, 722, 667, 889, 667,
    611, 611, 333, 278, 333, 570, 500, 333, 500, 500, 444, 500, 444, 333, 500, 556, 278, 278, 500,
    278, 778, 556, 500, 500, 500, 389, 389, 278, 556, 444, 667, 500, 444, 389, 348, 220, 348, 570,
];

/// Symbol's built-in encoding: the character of each code from 32 to 255 (0 for none: the
/// glyphs that are pieces of larger ones), from its Core 14 AFM's glyph names through the
/// Adobe Glyph List, Greek letters as Greek.
pub const SYMBOL: [u16; 224] = [
    0x0020, 0x0021, 0x2200, 0x0023, 0x2203, 0x0025, 0x0026, 0x220B, 0x0028, 0x0029, 0x2217, 0x002B,
    0x002C, 0x2212, 0x002E, 0x002F, 0x0030, 0x0031, 0x0032, 0x0033, 0x0034, 0x0035, 0x0036, 0x0037,
    0x0038, 0x0039, 0x003A, 0x003B, 0x003C, 0x003D, 0x003E, 0x003F, 0x2245, 0x0391, 0x0392, 0x03A7,
    0x0394, 0x0395, 0x03A6, 0x0393, 0x0397, 0x0399, 0x03D1, 0x039A, 0x039B, 0x039C, 0x039D, 0x039F,
    0x03A0, 0x0398, 0x03A1, 0x03A3, 0x03A4, 0x03A5, 0x03C2, 0x03A9, 0x039E, 0x03A8, 0x0396, 0x005B,
    0x2234, 0x005D, 0x22A5, 0x005F, 0x0000, 0x03B1, 0x03B2, 0x03C7, 0x03B4, 0x03B5, 0x03C6, 0x03B3,
    0x03B7, 0x03B9, 0x03D5, 0x03BA, 0x03BB, 0x03BC, 0x03BD, 0x03BF, 0x03C0, 0x03B8, 0x03C1, 0x03C3,
    0x03C4, 0x03C5, 0x03D6, 0x03C9, 0x03BE, 0x03C8, 0x03B6, 0x007B, 0x007C, 0x007D, 0x223C, 0x0000,
    0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
    0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
    0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x20AC, 0x03D2, 0x2032, 0x2264,
    0x2044, 0x221E, 0x0192, 0x2663, 0x2662, 0x2661, 0x2660, 0x2194, 0x2190, 0x2191, 0x2192, 0x2193,
    0x00B0, 0x00B1, 0x2033, 0x2265, 0x00D7, 0x221D, 0x2202, 0x2022, 0x00F7, 0x2260, 0x2261, 0x2248,
    0x2026, 0x0000, 0x0000, 0x21B5, 0x2135, 0x2111, 0x211C, 0x2118, 0x2297, 0x2295, 0x2205, 0x2229,
    0x222A, 0x2283, 0x2287, 0x2284, 0x2282, 0x2286, 0x2208, 0x2209, 0x2220, 0x2207, 0x00AE, 0x00A9,
    0x2122, 0x220F, 0x221A, 0x22C5, 0x00AC, 0x2227, 0x2228, 0x21D4, 0x21D0, 0x21D1, 0x21D2, 0x21D3,
    0x25CA, 0x2329, 0x00AE, 0x00A9, 0x2122, 0x2211, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
    0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x232A, 0x222B, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
    0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000, 0x0000,
];

/// The built-in encoding of a font named `base_font` whose dictionary gives none (no
/// `/Encoding`, no ToUnicode map): Symbol's letters are Greek and mathematical, not the
/// StandardEncoding Latin its codes read as otherwise ("q" for θ).
pub fn builtin_encoding(base_font: &[u8]) -> Option<&'static [u16; 224]> {
    let name = base_font
        .iter()
        .position(|&b| b == b'+')
        .map_or(base_font, |at| &base_font[at + 1..]);
    (name == b"Symbol").then_some(&SYMBOL)
}

/// Courier's every glyph.
const COURIER: u16 = 600;

/// The widths of codes 32 to 126 of a standard font named `base_font` (or one drawn with
/// its metrics: Arial is Helvetica's, Times New Roman Times'), for a font dictionary that
/// lists no `/Widths`: viewers use these built-in metrics, and guessing one width for every
/// glyph put spaces inside words placed piece by piece ("ABC DEF" for "ABCDEF").
pub fn widths(base_font: &[u8]) -> Option<[u16; 95]> {
    let name = String::from_utf8_lossy(base_font);
    // A subset's tag (`ABCDEF+Helvetica`) and the style spelled after a comma or hyphen.
    let name = name
        .split_once('+')
        .map_or(&*name, |(_, n)| n)
        .to_ascii_lowercase();
    let (family, style) = name.split_once([',', '-']).unwrap_or((name.as_str(), ""));
    let family = family.replace(' ', "");
    let bold = style.contains("bold");
    let italic = style.contains("italic") || style.contains("oblique");
    match family.as_str() {
        "helvetica" | "arial" | "arialmt" => Some(if bold { HELVETICA_BOLD } else { HELVETICA }),
        "times" | "timesroman" | "timesnewroman" | "timesnewromanps" | "timesnewromanpsmt" => {
            Some(match (bold, italic) {
                (false, false) => TIMES_ROMAN,
                (true, false) => TIMES_BOLD,
                (false, true) => TIMES_ITALIC,
                (true, true) => TIMES_BOLD_ITALIC,
            })
        }
        "courier" | "couriernew" | "couriernewpsmt" => Some([COURIER; 95]),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_names_and_their_metric_twins() {
        let a = |name: &str| widths(name.as_bytes()).map(|w| w[usize::from(b'A' - 32)]);
        assert_eq!(a("Helvetica"), Some(667));
        assert_eq!(a("Arial,Bold"), Some(722));
        assert_eq!(a("ABCDEF+Helvetica-BoldOblique"), Some(722));
        assert_eq!(a("Times-Roman"), Some(722));
        assert_eq!(a("TimesNewRomanPS-ItalicMT"), Some(611));
        assert_eq!(a("Courier-Bold"), Some(600));
        assert_eq!(a("Symbol"), None);
        assert_eq!(a("Garamond"), None);
    }

    #[test]
    fn symbol_s_letters_are_greek() {
        let table = builtin_encoding(b"ABCDEF+Symbol").unwrap();
        let char_of = |code: u8| char::from_u32(u32::from(table[usize::from(code - 32)]));
        assert_eq!(char_of(b'q'), Some('\u{3B8}'), "theta");
        assert_eq!(
            char_of(b'D'),
            Some('\u{394}'),
            "Greek Delta, not the increment sign"
        );
        assert_eq!(char_of(0xA3), Some('\u{2264}'), "less or equal");
        assert_eq!(char_of(b'`'), Some('\0'), "a piece of a larger glyph: none");
        assert!(builtin_encoding(b"Helvetica").is_none());
    }
}
