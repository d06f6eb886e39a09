//! The text format parser: .txt, .rst, .adoc and .log files, and every text file no other parser
//! claims. Prose becomes sections at underlined (reStructuredText / setext) headings, split at
//! blank lines when long; logs become runs of entries split by timestamps and severity, so an
//! error burst is a section of its own.

mod log;
mod prose;

use sdk::ToolResult;
use sdk::doc::{Document, ParserSpec};

/// A section grows to about this many lines before it is split at the next blank line.
const SECTION_LINES: usize = 80;
/// Text kept per document; the rest is dropped with a warning.
const MAX_CHARS: usize = 16 << 20;

pub struct Text;

impl Text {
    /// What the host's registry knows it by (declared in the component too).
    pub const SPEC: ParserSpec = ParserSpec {
        format: "text",
        extensions: &["txt", "text", "rst", "adoc", "asciidoc", "log"],
        signatures: &[],
        text_fallback: true,
    };

    pub fn parse(bytes: &[u8], path: &str) -> ToolResult<Document> {
        let (text, lossy) = sdk::decode_text(bytes);
        let mut doc = if path.to_ascii_lowercase().ends_with(".log") || log::looks_like_log(&text) {
            log::sections(&text)
        } else {
            prose::sections(&text)
        };
        if lossy {
            doc.warnings.push(sdk::doc::LOSSY_WARNING.to_string());
        }
        Ok(doc)
    }
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "format-parser" });
    sdk::export_parser!(crate::Text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_by_extension_or_content() {
        let doc = Text::parse(b"just words\n", "server.log").unwrap();
        assert_eq!(doc.kind, "log");
        let lines = "2024-05-01 10:00:00 INFO up\n2024-05-01 10:00:01 INFO ok\n";
        assert_eq!(
            Text::parse(lines.as_bytes(), "out.txt").unwrap().kind,
            "log"
        );
        assert_eq!(Text::parse(b"hello\n", "notes.txt").unwrap().kind, "text");
    }

    #[test]
    fn lossy_input_is_warned_about() {
        let doc = Text::parse(b"caf\xe9\n", "a.txt").unwrap();
        assert!(doc.sections[0].text.contains('\u{FFFD}'));
        assert_eq!(doc.warnings.len(), 1);
    }
}
