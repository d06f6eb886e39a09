//! The whitespace-insensitive view of a text that the tolerant match modes search: each line
//! without its indentation and trailing whitespace, inner runs of spaces and tabs collapsed to
//! one space, with a map back to the original byte offsets. Line count is preserved, so line
//! `i` of the view is line `i` of the text.

/// A normalized text and where each of its bytes came from.
pub struct Norm {
    pub text: String,
    /// For each byte of `text`, the offset of the byte it came from.
    map: Vec<usize>,
    /// Original byte length of the char each normalized byte belongs to (for span ends).
    width: Vec<u8>,
}

fn horizontal(c: char) -> bool {
    c != '\n' && c.is_whitespace()
}

impl Norm {
    pub fn new(source: &str) -> Self {
        let mut text = String::with_capacity(source.len());
        let mut map = Vec::with_capacity(source.len());
        let mut width = Vec::with_capacity(source.len());
        let mut offset = 0;
        for (i, line) in source.split('\n').enumerate() {
            if i > 0 {
                text.push('\n');
                map.push(offset - 1);
                width.push(1);
            }
            let trimmed_start = line.len() - line.trim_start_matches(horizontal).len();
            let content = line.trim_matches(horizontal);
            let mut pending_space: Option<usize> = None;
            for (j, c) in content.char_indices() {
                let at = offset + trimmed_start + j;
                if horizontal(c) {
                    pending_space.get_or_insert(at);
                    continue;
                }
                if let Some(space_at) = pending_space.take() {
                    text.push(' ');
                    map.push(space_at);
                    width.push(1);
                }
                let len = c.len_utf8();
                text.push(c);
                for k in 0..len {
                    map.push(at + k);
                    width.push((len - k) as u8);
                }
            }
            offset += line.len() + 1;
        }
        Self { text, map, width }
    }

    /// The original byte range of normalized range `start..end` (non-empty).
    pub fn span(&self, start: usize, end: usize) -> (usize, usize) {
        let last = end - 1;
        (self.map[start], self.map[last] + self.width[last] as usize)
    }
}

/// What a target looks like in the view, and what its raw form says about the place it wants.
pub struct Target {
    /// Normalized, without blank lines at either end.
    pub text: String,
    /// The raw target begins with indentation: it means whole lines from their start.
    pub starts_line: bool,
    /// The raw target ends with a newline: it means whole lines through their end.
    pub ends_line: bool,
}

impl Target {
    pub fn new(raw: &str) -> Self {
        let first = raw.trim_start_matches('\n');
        Self {
            text: Norm::new(raw).text.trim_matches('\n').to_string(),
            starts_line: first.starts_with(horizontal),
            ends_line: raw.trim_end_matches(horizontal).ends_with('\n'),
        }
    }

    pub fn lines(&self) -> usize {
        self.text.split('\n').count()
    }
}

/// Widens `start..end` of `source` to whole lines as the target asks: back to the line start
/// over indentation, forward over trailing whitespace and the newline.
pub fn widen(source: &str, target: &Target, start: usize, end: usize) -> (usize, usize) {
    let bytes = source.as_bytes();
    let mut s = start;
    if target.starts_line {
        while s > 0 && matches!(bytes[s - 1], b' ' | b'\t') {
            s -= 1;
        }
    }
    let mut e = end;
    if target.ends_line {
        while e < bytes.len() && matches!(bytes[e], b' ' | b'\t' | b'\r') {
            e += 1;
        }
        if e < bytes.len() && bytes[e] == b'\n' {
            e += 1;
        }
    }
    (s, e)
}

/// Whether normalized `start..end` sits where the target's raw form says it must: at a line
/// start when the target begins with indentation, at a line end when it ends with a newline.
pub fn fits(view: &str, target: &Target, start: usize, end: usize) -> bool {
    let b = view.as_bytes();
    (!target.starts_line || start == 0 || b[start - 1] == b'\n')
        && (!target.ends_line || end == b.len() || b[end] == b'\n')
}

/// Collapses all whitespace to single spaces, for comparing anchor context loosely.
pub fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn view_drops_indentation_and_collapses_runs() {
        let src = "fn a() {\n\t  let  x =\t1;  \n}\n";
        let n = Norm::new(src);
        assert_eq!(n.text, "fn a() {\nlet x = 1;\n}\n");
        let at = n.text.find("let").unwrap();
        let (s, e) = n.span(at, at + "let x = 1;".len());
        assert_eq!(&src[s..e], "let  x =\t1;");
    }

    #[test]
    fn multibyte_chars_map_back_whole() {
        let src = "  é ü\n";
        let n = Norm::new(src);
        assert_eq!(n.text, "é ü\n");
        let (s, e) = n.span(0, n.text.len() - 1);
        assert_eq!(&src[s..e], "é ü");
    }

    #[test]
    fn target_shape_is_read_from_its_raw_form() {
        let t = Target::new("    let x = 1;\n");
        assert!(t.starts_line && t.ends_line);
        assert_eq!(t.text, "let x = 1;");
        let t = Target::new("x = 1");
        assert!(!t.starts_line && !t.ends_line);
    }
}
