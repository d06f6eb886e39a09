//! Right-to-left lines back in reading order. A PDF draws glyphs where they stand on the
//! page, left to right within a string, so a Hebrew or Arabic line read in drawing order
//! comes out reversed ("םולש" for "שלום"), while the numbers and Latin words inside it
//! read the right way. Such a line is turned back: reversed whole, each left-to-right run
//! inside it (a number, a Latin name) put back in its own order, and paired brackets
//! mirrored, as pdftotext reads it. A line whose strings were placed right to left, each
//! after the one before it in reading order, is already in reading order and left alone.

/// Whether `c` belongs to a right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko, and
/// their presentation forms), digits aside.
fn rtl(c: char) -> bool {
    matches!(c,
        '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}')
        && !c.is_numeric()
}

/// Whether `c` reads left to right whatever surrounds it: a letter of another script, or a
/// digit, Arabic-Indic ones too (numbers keep their order inside right-to-left text).
fn ltr(c: char) -> bool {
    !rtl(c) && (c.is_alphabetic() || c.is_numeric())
}

fn mirrored(c: char) -> char {
    match c {
        '(' => ')',
        ')' => '(',
        '[' => ']',
        ']' => '[',
        '{' => '}',
        '}' => '{',
        '<' => '>',
        '>' => '<',
        '«' => '»',
        '»' => '«',
        c => c,
    }
}

/// The line in reading order, where it is mostly right-to-left letters drawn in page order
/// (`backward` false: its strings were not placed right to left).
pub fn reading_order(line: &str, backward: bool) -> Option<String> {
    let (right, left) = line.chars().fold((0, 0), |(r, l), c| {
        (
            r + usize::from(rtl(c)),
            l + usize::from(ltr(c) && c.is_alphabetic()),
        )
    });
    if backward || right == 0 || right <= left {
        return None;
    }
    let mut chars: Vec<char> = line.chars().rev().collect();
    let mut in_run = vec![false; chars.len()];
    let mut i = 0;
    while i < chars.len() {
        if !ltr(chars[i]) {
            i += 1;
            continue;
        }
        // The run goes on through neutrals (spaces, points) up to its last strong letter.
        let mut last = i;
        let mut j = i;
        while j < chars.len() && !rtl(chars[j]) {
            if ltr(chars[j]) {
                last = j;
            }
            j += 1;
        }
        chars[i..=last].reverse();
        in_run[i..=last].iter_mut().for_each(|r| *r = true);
        i = last + 1;
    }
    Some(
        chars
            .into_iter()
            .zip(in_run)
            .map(|(c, run)| if run { c } else { mirrored(c) })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn right_to_left_lines_read_in_reading_order() {
        // issue14046.pdf: Hebrew drawn in page order.
        assert_eq!(
            reading_order("םבמבידיבוה בלבלכ", false).as_deref(),
            Some("כלבלב הובידיבמבם")
        );
        // Numbers and Latin words keep their own order, brackets turn round.
        assert_eq!(
            reading_order("םלוע 2024 םולש", false).as_deref(),
            Some("שלום 2024 עולם")
        );
        assert_eq!(
            reading_order("\u{660}\u{662} ﻋﺬ", false).as_deref(),
            Some("ﺬﻋ \u{660}\u{662}"),
            "Arabic-Indic digits keep their order"
        );
        assert_eq!(
            reading_order("םלוע New York 1.7 םולש", false).as_deref(),
            Some("שלום New York 1.7 עולם")
        );
        assert_eq!(
            reading_order("(םולש) םלוע", false).as_deref(),
            Some("עולם (שלום)")
        );
        // Arabic with a mark after its letter once turned (issue5677.pdf).
        assert_eq!(
            reading_order(".\u{64B}ارﺬﻋ", false).as_deref(),
            Some("ﻋﺬرا\u{64B}.")
        );
        // Left alone: a left-to-right line quoting a Hebrew word, and a line whose strings
        // were placed right to left.
        assert_eq!(reading_order("the word םולש means peace", false), None);
        assert_eq!(reading_order("שלום עולם", true), None);
        assert_eq!(reading_order("plain text", false), None);
    }
}
