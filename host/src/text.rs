//! Text helpers every layer shares.

/// `s` cut to `max` characters, with an ellipsis when cut: previews, signatures, diffs.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push('…');
    out
}
