//! A file's text as edits see it, and back to bytes exactly as the file had them: the BOM, the
//! line endings (a CRLF file is edited as LF and written back as CRLF), and whether it ends with
//! a newline are kept whatever the replacement text brings.

/// How a file ends its lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Eol {
    Lf,
    /// Every line ends with CRLF: edited as LF, written back as CRLF.
    Crlf,
    /// Both kinds: edited as is, so untouched lines keep theirs.
    Mixed,
}

/// How a file indents, for re-indenting replacements that land at another depth.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IndentStyle {
    Tabs,
    /// Spaces, with the indentation step seen in the file (2, 4, ...).
    Spaces(usize),
}

#[derive(Debug, Clone)]
pub struct FileText {
    pub bom: bool,
    pub eol: Eol,
    pub final_newline: bool,
    /// The text edits match against (LF line endings for a CRLF file).
    pub body: String,
}

impl FileText {
    /// Decodes a file; None when it is not UTF-8.
    pub fn decode(bytes: &[u8]) -> Option<Self> {
        let (bom, rest) = match bytes.strip_prefix(b"\xEF\xBB\xBF") {
            Some(rest) => (true, rest),
            None => (false, bytes),
        };
        let raw = std::str::from_utf8(rest).ok()?;
        let newlines = raw.matches('\n').count();
        let crlf = raw.matches("\r\n").count();
        let eol = if crlf == 0 {
            Eol::Lf
        } else if crlf == newlines {
            Eol::Crlf
        } else {
            Eol::Mixed
        };
        let body = if eol == Eol::Crlf {
            raw.replace("\r\n", "\n")
        } else {
            raw.to_string()
        };
        Some(Self {
            bom,
            eol,
            final_newline: body.ends_with('\n'),
            body,
        })
    }

    /// Text from an edit (target or replacement) in the form the body uses: CRLF becomes LF
    /// unless the file mixes line endings.
    pub fn adapt(&self, text: &str) -> String {
        match self.eol {
            Eol::Mixed => text.to_string(),
            Eol::Lf | Eol::Crlf => text.replace("\r\n", "\n"),
        }
    }

    /// The bytes of `body` (an edited copy of this file's body) as the file keeps them.
    pub fn encode(&self, body: &str) -> Vec<u8> {
        let mut text = body.to_string();
        if !text.is_empty() && !self.body.is_empty() {
            match (self.final_newline, text.ends_with('\n')) {
                (true, false) => text.push('\n'),
                (false, true) => {
                    text.pop();
                    if self.eol == Eol::Mixed && text.ends_with('\r') {
                        text.pop();
                    }
                }
                _ => {}
            }
        }
        if self.eol == Eol::Crlf {
            text = text.replace('\n', "\r\n");
        }
        let mut bytes = Vec::with_capacity(text.len() + 3);
        if self.bom {
            bytes.extend_from_slice(b"\xEF\xBB\xBF");
        }
        bytes.extend_from_slice(text.as_bytes());
        bytes
    }
}

/// The indentation style of `text`: tabs when most indented lines start with a tab, else
/// spaces with the most common step between indentation widths.
pub fn indent_style(text: &str) -> IndentStyle {
    let (mut tabs, mut spaces) = (0usize, 0usize);
    let mut steps = [0usize; 9];
    let mut previous = 0usize;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        if line.starts_with('\t') {
            tabs += 1;
            continue;
        }
        let width = line.len() - line.trim_start_matches(' ').len();
        if width > 0 {
            spaces += 1;
        }
        let step = width.abs_diff(previous);
        if (1..=8).contains(&step) {
            steps[step] += 1;
        }
        previous = width;
    }
    if tabs > spaces {
        return IndentStyle::Tabs;
    }
    let step = (2..=8)
        .max_by_key(|&s| (steps[s], s == 4))
        .filter(|&s| steps[s] > 0)
        .unwrap_or(4);
    IndentStyle::Spaces(step)
}

/// Byte offset where each line starts.
pub fn line_starts(text: &str) -> Vec<usize> {
    std::iter::once(0)
        .chain(text.match_indices('\n').map(|(i, _)| i + 1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_round_trips_and_keeps_the_bom() {
        let bytes = b"\xEF\xBB\xBFa\r\nb\r\n";
        let t = FileText::decode(bytes).unwrap();
        assert_eq!((t.bom, t.eol, t.body.as_str()), (true, Eol::Crlf, "a\nb\n"));
        assert_eq!(t.encode(&t.body), bytes);
        assert_eq!(t.adapt("x\r\ny"), "x\ny");
    }

    #[test]
    fn the_final_newline_is_kept_either_way() {
        let t = FileText::decode(b"a\nb").unwrap();
        assert_eq!(t.encode("a\nc\n"), b"a\nc");
        let t = FileText::decode(b"a\nb\n").unwrap();
        assert_eq!(t.encode("a\nc"), b"a\nc\n");
    }

    #[test]
    fn mixed_endings_are_left_alone() {
        let t = FileText::decode(b"a\r\nb\nc\r\n").unwrap();
        assert_eq!(t.eol, Eol::Mixed);
        assert_eq!(t.encode(&t.body), b"a\r\nb\nc\r\n");
    }

    #[test]
    fn indentation_style_is_detected() {
        assert_eq!(indent_style("a\n\tb\n\t\tc\n"), IndentStyle::Tabs);
        assert_eq!(indent_style("a\n  b\n    c\n  d\n"), IndentStyle::Spaces(2));
        assert_eq!(indent_style("fn a() {\n}\n"), IndentStyle::Spaces(4));
    }

    #[test]
    fn not_utf8_is_refused() {
        assert!(FileText::decode(b"\xff\xfe").is_none());
    }
}
