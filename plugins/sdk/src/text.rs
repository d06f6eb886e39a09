//! Text helpers shared by pillars: decoding, line-numbered previews and unified diffs.

use similar::TextDiff;

/// Decodes file bytes as UTF-8 (a leading BOM dropped), lossily when needed; the flag says
/// whether bytes were replaced, so callers can warn instead of silently changing content.
pub fn decode_text(bytes: &[u8]) -> (String, bool) {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), false),
        Err(_) => (String::from_utf8_lossy(bytes).into_owned(), true),
    }
}

/// Number of lines as an editor counts them (a final newline does not start a new line).
pub fn line_count(text: &str) -> usize {
    if text.is_empty() {
        0
    } else {
        text.lines().count()
    }
}

/// Lines `start..=end` (1-based, clamped) prefixed with right-aligned line numbers, the form
/// agents quote back when they anchor an edit.
pub fn numbered_lines(text: &str, start: usize, end: usize) -> String {
    let start = start.max(1);
    let last = end.min(line_count(text));
    let width = last.max(1).to_string().len();
    let mut out = String::new();
    for (idx, line) in text.lines().enumerate().take(last).skip(start - 1) {
        out.push_str(&format!("{:>width$}| {}\n", idx + 1, line, width = width));
    }
    out
}

/// A line cut to at most `max_chars` characters (on a char boundary), trimmed, with `…` when cut.
pub fn short_preview(line: &str, max_chars: usize) -> String {
    let trimmed = line.trim();
    if trimmed.chars().count() <= max_chars {
        return trimmed.to_string();
    }
    let mut cut: String = trimmed.chars().take(max_chars.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

/// A unified diff of `old` -> `new` with three lines of context, headed `a/path` / `b/path`.
pub fn unified_diff(path: &str, old: &str, new: &str) -> String {
    TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{path}"), &format!("b/{path}"))
        .to_string()
}

/// The rough token cost of a text (ADR-038: chars / 4).
pub fn approx_tokens(chars: usize) -> usize {
    chars.div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_lines_clamps_and_aligns() {
        let text = "a\nb\nc\n";
        assert_eq!(numbered_lines(text, 2, 10), "2| b\n3| c\n");
        assert_eq!(numbered_lines(text, 1, 1), "1| a\n");
        let long: String = (1..=12).map(|i| format!("l{i}\n")).collect();
        assert!(numbered_lines(&long, 9, 10).starts_with(" 9| l9\n10| l10"));
    }

    #[test]
    fn decode_flags_invalid_utf8_and_drops_bom() {
        assert_eq!(decode_text(b"\xEF\xBB\xBFhi"), ("hi".to_string(), false));
        assert!(decode_text(b"a\xFFb").1);
    }

    #[test]
    fn preview_cuts_on_char_boundary() {
        assert_eq!(short_preview("  héllo wörld ", 5), "héll…");
        assert_eq!(short_preview("ok", 5), "ok");
    }

    #[test]
    fn diff_has_headers_and_changes() {
        let d = unified_diff("x.txt", "a\nb\n", "a\nc\n");
        assert!(d.starts_with("--- a/x.txt\n+++ b/x.txt\n"), "{d}");
        assert!(d.contains("-b\n+c\n"));
    }

    #[test]
    fn line_count_ignores_final_newline() {
        assert_eq!(line_count(""), 0);
        assert_eq!(line_count("a\nb\n"), 2);
        assert_eq!(line_count("a\nb"), 2);
    }
}
