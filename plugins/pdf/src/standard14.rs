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
}
