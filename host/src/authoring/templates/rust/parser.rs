//! {{name}}: a smart-context format parser for `.{{name}}` files. Each block of lines
//! separated by a blank line becomes a section, titled by its first line. Replace `parse`
//! with your format's reading; the host indexes the sections and explore finds them.

wit_bindgen::generate!({
    path: "wit",
    world: "format-parser",
});

use exports::smart_context::plugin::parser::{Guest, ParserSpec};
use smart_context::plugin::types::{Document, Error, Section};

struct Parser;

impl Guest for Parser {
    fn describe() -> ParserSpec {
        ParserSpec {
            format: "{{name}}".to_string(),
            extensions: vec!["{{name}}".to_string()],
            signatures: Vec::new(),
            text_fallback: false,
        }
    }

    fn parse(bytes: Vec<u8>, path: String) -> Result<Document, Error> {
        let text = String::from_utf8(bytes).map_err(|_| Error {
            code: "MALFORMED".to_string(),
            message: format!("{path} is not UTF-8"),
            suggestion: Some("save the file as UTF-8".to_string()),
            details_json: None,
        })?;
        let mut sections = Vec::new();
        let mut block: Vec<(u32, &str)> = Vec::new();
        for (index, line) in text.lines().chain(std::iter::once("")).enumerate() {
            if !line.trim().is_empty() {
                block.push((index as u32 + 1, line));
                continue;
            }
            if let (Some(first), Some(last)) = (block.first(), block.last()) {
                let title = first.1.trim_start_matches('#').trim().to_string();
                sections.push(Section {
                    id: format!("block-{}", sections.len() + 1),
                    heading_path: vec![title],
                    level: 1,
                    text: block.iter().map(|(_, l)| *l).collect::<Vec<_>>().join("\n"),
                    start_line: first.0,
                    end_line: last.0,
                    page: None,
                });
            }
            block.clear();
        }
        Ok(Document {
            title: sections.first().map(|s| s.heading_path[0].clone()),
            kind: "{{name}}".to_string(),
            sections,
            links: Vec::new(),
            metadata: Vec::new(),
            warnings: Vec::new(),
        })
    }
}

export!(Parser);
