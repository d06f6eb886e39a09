//! The markdown format parser: headings become nested sections with heading paths, stable ids
//! and line ranges; links are collected per section for references.

mod sections;

wit_bindgen::generate!({
    path: "../../wit",
    world: "format-parser",
});

use exports::smart_context::plugin::parser::Guest;
use smart_context::plugin::types::{Document, Error, Link, Section};

sdk::impl_error_conversions!(Error);

struct Markdown;

impl Guest for Markdown {
    fn extensions() -> Vec<String> {
        ["md", "markdown", "mdx"]
            .iter()
            .map(|e| e.to_string())
            .collect()
    }

    fn parse(bytes: Vec<u8>, _path: String) -> Result<Document, Error> {
        let (text, lossy) = sdk::decode_text(&bytes);
        let parsed = sections::parse(&text);
        let mut warnings = Vec::new();
        if lossy {
            warnings.push("invalid UTF-8 replaced with U+FFFD".to_string());
        }
        Ok(Document {
            title: parsed.title,
            kind: "markdown".to_string(),
            sections: parsed
                .sections
                .into_iter()
                .map(|s| Section {
                    id: s.id,
                    heading_path: s.heading_path,
                    level: s.level,
                    text: s.text,
                    start_line: s.start_line,
                    end_line: s.end_line,
                    page: None,
                })
                .collect(),
            links: parsed
                .links
                .into_iter()
                .map(|l| Link {
                    section_id: l.section_id,
                    target: l.target,
                    text: l.text,
                })
                .collect(),
            warnings,
        })
    }
}

export!(Markdown);
