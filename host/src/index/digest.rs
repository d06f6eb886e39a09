//! Deterministic, extractive views of a section (ADR-038 §7): a preview keeps the lines an
//! agent decides by (headings, notices, bullets, the first line of each paragraph), a summary
//! keeps the opening sentence and the first few key lines, raw is the text itself. Every view
//! stays within its character cap and says when it was cut.

/// How much of a section to return.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Summary,
    Preview,
    Raw,
}

impl Mode {
    /// The cap when the caller gives none.
    pub fn default_chars(self) -> usize {
        match self {
            Mode::Summary => 400,
            Mode::Preview => 1_200,
            Mode::Raw => 20_000,
        }
    }
}

/// Lines a preview keeps at most.
const PREVIEW_LINES: usize = 12;
/// Key lines a summary adds after its opening sentence.
const SUMMARY_LINES: usize = 3;

const NOTICES: &[&str] = &[
    "warning",
    "caution",
    "note",
    "important",
    "deprecated",
    "danger",
    "todo",
    "error",
];

/// The view of `text` for `mode` within `max_chars` (0 = the mode's default), and whether
/// anything was left out.
pub fn render(text: &str, mode: Mode, max_chars: usize) -> (String, bool) {
    let cap = if max_chars == 0 {
        mode.default_chars()
    } else {
        max_chars
    };
    match mode {
        Mode::Raw => cut(text, cap),
        Mode::Preview => select(text, cap, PREVIEW_LINES, false),
        Mode::Summary => select(text, cap, SUMMARY_LINES + 1, true),
    }
}

/// Text cut at the last line break before `cap` characters (mid-line only when the first line
/// alone is longer), with `…` when cut.
fn cut(text: &str, cap: usize) -> (String, bool) {
    if text.chars().count() <= cap {
        return (text.to_string(), false);
    }
    let end = text
        .char_indices()
        .nth(cap.saturating_sub(1))
        .map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    let head = match head.rfind('\n') {
        Some(i) if i > 0 => &head[..i],
        _ => head,
    };
    (format!("{head}\n…"), true)
}

#[derive(Debug)]
struct Line<'a> {
    text: std::borrow::Cow<'a, str>,
    score: u8,
}

/// Picks the best-scoring lines (in their original order) within `cap` characters and
/// `max_lines` lines. A summary opens with the first sentence and keeps only scored lines.
fn select(text: &str, cap: usize, max_lines: usize, summary: bool) -> (String, bool) {
    let mut lines: Vec<Line> = Vec::new();
    let mut paragraph_start = true;
    let raw: Vec<&str> = text.lines().collect();
    for (i, line) in raw.iter().enumerate() {
        let trimmed = line.trim();
        if trimmed.is_empty() || is_rule(trimmed) {
            paragraph_start = true;
            continue;
        }
        let underlined = raw.get(i + 1).is_some_and(|next| is_rule(next.trim()));
        let score = if trimmed.starts_with('#') || underlined || is_notice(trimmed) {
            4
        } else if is_bullet(trimmed) || paragraph_start {
            2
        } else {
            0
        };
        paragraph_start = false;
        lines.push(Line {
            text: normalize(trimmed),
            score,
        });
    }
    let total: usize = lines.iter().map(|l| l.text.chars().count() + 1).sum();
    if !summary && lines.len() <= max_lines && total <= cap {
        let all: Vec<&str> = lines.iter().map(|l| l.text.as_ref()).collect();
        return (all.join("\n"), false);
    }
    let mut chosen = vec![false; lines.len()];
    let mut used = 0usize;
    let mut count = 0usize;
    if summary && let Some(first) = lines.iter().position(|l| !l.text.starts_with('#')) {
        let sentence = first_sentence(&lines[first].text);
        lines[first].text = sentence.into();
        used += lines[first].text.chars().count() + 1;
        chosen[first] = true;
        count += 1;
    }
    let mut order: Vec<usize> = (0..lines.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(lines[i].score));
    for i in order {
        if count >= max_lines || (summary && lines[i].score < 2) {
            break;
        }
        let n = lines[i].text.chars().count() + 1;
        if chosen[i] || used + n > cap {
            continue;
        }
        chosen[i] = true;
        used += n;
        count += 1;
    }
    let kept: Vec<&str> = lines
        .iter()
        .zip(&chosen)
        .filter(|(_, c)| **c)
        .map(|(l, _)| l.text.as_ref())
        .collect();
    if kept.is_empty() {
        return cut(
            &lines
                .first()
                .map(|l| l.text.to_string())
                .unwrap_or_default(),
            cap,
        );
    }
    (kept.join("\n"), kept.len() < lines.len() || summary)
}

/// `===`, `---`, `***`: rules and underlines, not content.
fn is_rule(line: &str) -> bool {
    line.len() >= 3
        && line
            .chars()
            .all(|c| matches!(c, '=' | '-' | '~' | '*' | '_' | '^' | '#' | '`'))
}

fn is_bullet(line: &str) -> bool {
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    line.starts_with(['-', '*', '+', '•']) || (digits > 0 && line[digits..].starts_with(['.', ')']))
}

fn is_notice(line: &str) -> bool {
    let head: String = line
        .trim_start_matches(['>', '*', '_', '!', '[', ' '])
        .chars()
        .take(12)
        .collect::<String>()
        .to_ascii_lowercase();
    NOTICES
        .iter()
        .any(|n| head.starts_with(n) && head[n.len()..].starts_with([':', ']', '!', ' ', '*']))
}

/// Runs of whitespace as one space.
fn normalize(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains("  ") && !line.contains('\t') {
        return line.into();
    }
    line.split_whitespace().collect::<Vec<_>>().join(" ").into()
}

fn first_sentence(line: &str) -> String {
    let mut end = line.len();
    for (i, c) in line.char_indices() {
        if matches!(c, '.' | '!' | '?') && line[i + c.len_utf8()..].starts_with(' ') && i > 10 {
            end = i + c.len_utf8();
            break;
        }
    }
    line[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECTION: &str = "## Install\n\nThe tool runs on Linux and macOS. It needs Rust 1.95.\nMore words about it that\ngo on for a while.\n\n- cargo build\n- cargo test\n\nWarning: never run as root.\n\nA closing paragraph.\n";

    #[test]
    fn preview_keeps_headings_notices_bullets_and_paragraph_openings() {
        let (preview, cut) = render(SECTION, Mode::Preview, 120);
        assert!(cut);
        assert!(preview.contains("## Install"));
        assert!(preview.contains("Warning: never run as root."));
        assert!(preview.contains("- cargo build"));
        assert!(!preview.contains("go on for a while"), "{preview}");
        assert!(preview.chars().count() <= 120);
        let first = preview.find("## Install").unwrap();
        assert!(first < preview.find("Warning").unwrap(), "original order");
    }

    #[test]
    fn short_sections_preview_whole() {
        let (preview, cut) = render("one\ntwo", Mode::Preview, 0);
        assert_eq!((preview.as_str(), cut), ("one\ntwo", false));
    }

    #[test]
    fn summary_opens_with_the_first_sentence() {
        let (summary, _) = render(SECTION, Mode::Summary, 0);
        let mut lines = summary.lines();
        assert_eq!(lines.next(), Some("## Install"));
        assert_eq!(lines.next(), Some("The tool runs on Linux and macOS."));
        assert!(summary.contains("Warning: never run as root."));
        assert!(summary.lines().count() <= SUMMARY_LINES + 2);
    }

    #[test]
    fn raw_is_cut_at_a_line_break() {
        let (raw, cut) = render("aaaa\nbbbb\ncccc", Mode::Raw, 8);
        assert_eq!((raw.as_str(), cut), ("aaaa\n…", true));
        assert_eq!(render("abc", Mode::Raw, 0), ("abc".to_string(), false));
    }
}
