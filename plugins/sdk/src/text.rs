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

/// A path (or any name) for a one-line rendering: control characters escaped (`\n`, `\t`,
/// `\x1b`...), so a file named with a newline or a terminal escape cannot forge lines of a
/// listing or recolor the agent's terminal. Borrowed when there is nothing to escape.
pub fn display_path(path: &str) -> std::borrow::Cow<'_, str> {
    if !path.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len() + 8);
    for c in path.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
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
    let path = display_path(path);
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

/// `2026-11-22T06:30:00Z` from Unix milliseconds (UTC, civil-from-days).
pub fn iso_time(ms: u64) -> String {
    let secs = ms / 1000;
    let (days, rem) = ((secs / 86_400) as i64, secs % 86_400);
    let (h, m, s) = (rem / 3600, rem % 3600 / 60, rem % 60);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{d:02}T{h:02}:{m:02}:{s:02}Z")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_render_on_one_line() {
        assert_eq!(display_path("src/a.rs"), "src/a.rs");
        assert_eq!(display_path("evil\n== .env"), "evil\\n== .env");
        assert_eq!(display_path("x\u{1b}[31m"), "x\\x{1b}[31m");
    }

    #[test]
    fn iso_time_is_utc_civil_time() {
        assert_eq!(iso_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_time(1_795_329_000_000), "2026-11-22T06:30:00Z");
        assert_eq!(iso_time(951_782_400_000), "2000-02-29T00:00:00Z");
    }

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
