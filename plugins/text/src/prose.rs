//! Prose: headings underlined (and optionally overlined) with punctuation, as in
//! reStructuredText and setext markdown, nest by the order their styles first appear; long
//! stretches are split at blank lines.

use super::{MAX_CHARS, SECTION_LINES};
use sdk::doc::{Document, OutlineBuilder};

const ADORNMENT: &[char] = &[
    '=', '-', '~', '^', '"', '\'', '`', '*', '+', '#', ':', '.', '_',
];

/// A heading found at `first` (the overline, or the title when there is none).
struct Heading {
    first: usize,
    title: usize,
    underline: usize,
    style: (char, bool),
}

pub fn sections(text: &str) -> Document {
    let lines: Vec<&str> = text.lines().collect();
    let headings = find_headings(&lines);
    let mut styles: Vec<(char, bool)> = Vec::new();
    let mut out = OutlineBuilder::new(MAX_CHARS);
    let mut next = headings.iter().peekable();
    let mut in_section = 0usize;
    let mut current: Option<(String, Vec<String>, u8, u32)> = None;
    let mut i = 0;
    'lines: while i < lines.len() {
        if let Some(h) = next.next_if(|h| h.first == i) {
            let level = match styles.iter().position(|s| *s == h.style) {
                Some(p) => p + 1,
                None => {
                    styles.push(h.style);
                    styles.len()
                }
            }
            .min(6) as u8;
            let title = lines[h.title].trim();
            out.heading_line(level, title, lines[h.first]);
            for line in &lines[h.first + 1..=h.underline] {
                if !out.line(line) {
                    break 'lines;
                }
            }
            let id = out.current_id().unwrap_or_default().to_string();
            current = Some((id, out.current_path(), level, 1));
            in_section = h.underline - h.first + 1;
            i = h.underline + 1;
            continue;
        }
        let line = lines[i];
        if in_section >= SECTION_LINES && line.trim().is_empty() {
            // Long: continue in a new part under the same heading, at this blank line.
            match current.as_mut() {
                Some((id, path, level, part)) => {
                    *part += 1;
                    out.section(&format!("{id}/part-{part}"), path.clone(), *level);
                }
                None => out.section("block", Vec::new(), 0),
            }
            in_section = 0;
        } else if i == 0 {
            out.section("block", Vec::new(), 0);
        }
        if !out.line(line) {
            break;
        }
        in_section += 1;
        i += 1;
    }
    let mut doc = out.finish("text");
    doc.title = headings.first().map(|h| lines[h.title].trim().to_string());
    doc
}

fn find_headings(lines: &[&str]) -> Vec<Heading> {
    let mut found = Vec::new();
    let mut i = 0;
    while i + 1 < lines.len() {
        let title = lines[i].trim_end();
        let Some(under) = adornment(lines[i + 1]) else {
            i += 1;
            continue;
        };
        let fits = !title.trim().is_empty()
            && adornment(title).is_none()
            && lines[i + 1].trim_end().chars().count() >= title.trim().chars().count().min(3)
            && lines[i + 1].trim_end().chars().count() + 2 >= title.trim().chars().count();
        let after_break = i == 0 || lines[i - 1].trim().is_empty();
        let over = (i >= 1 && adornment(lines[i - 1]) == Some(under))
            .then(|| i - 1)
            .filter(|&o| o == 0 || lines[o - 1].trim().is_empty());
        if fits && (after_break || over.is_some()) {
            found.push(Heading {
                first: over.unwrap_or(i),
                title: i,
                underline: i + 1,
                style: (under, over.is_some()),
            });
            i += 2;
        } else {
            i += 1;
        }
    }
    found
}

/// The character of a line made of one repeated punctuation mark, at least three long.
fn adornment(line: &str) -> Option<char> {
    let line = line.trim_end();
    let first = line.chars().next()?;
    (ADORNMENT.contains(&first) && line.len() >= 3 && line.chars().all(|c| c == first))
        .then_some(first)
}

#[cfg(test)]
mod tests {
    use super::*;

    const RST: &str = "=====\nGuide\n=====\n\nIntro text.\n\nInstall\n-------\n\npip install x\n\nLinux\n~~~~~\n\napt\n\nUsage\n-----\n\nrun it\n";

    #[test]
    fn underlined_headings_nest_by_style_order() {
        let doc = sections(RST);
        let ids: Vec<_> = doc.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "guide",
                "guide/install",
                "guide/install/linux",
                "guide/usage"
            ]
        );
        assert_eq!(doc.title.as_deref(), Some("Guide"));
        let install = &doc.sections[1];
        assert_eq!(install.heading_path, ["Guide", "Install"]);
        assert_eq!((install.start_line, install.end_line), (7, 16));
        assert!(install.text.starts_with("Install\n-------"));
        let guide = &doc.sections[0];
        assert_eq!((guide.start_line, guide.end_line), (1, 20));
        assert!(guide.text.starts_with("=====\nGuide"));
    }

    #[test]
    fn plain_text_splits_at_blank_lines_when_long() {
        let para = "word word word\n".repeat(30);
        let text = format!("{para}\n{para}\n{para}\n{para}");
        let doc = sections(&text);
        assert!(doc.sections.len() >= 2, "{}", doc.sections.len());
        assert!(doc.sections.iter().all(|s| s.heading_path.is_empty()));
        assert_eq!(doc.sections[0].id, "block");
        assert_eq!(doc.sections[1].id, "block~2");
        let last = doc.sections.last().unwrap();
        assert_eq!(last.end_line as usize, text.lines().count());
        let joined: Vec<&str> = doc.sections.iter().map(|s| s.text.as_str()).collect();
        assert_eq!(joined.join("\n"), text.trim_end());
    }

    #[test]
    fn dashes_inside_prose_are_not_headings() {
        let doc = sections("a list:\n---\nnot a title\n");
        assert!(doc.sections.iter().all(|s| s.heading_path.is_empty()));
    }
}
