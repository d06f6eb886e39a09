//! An example third-party format parser, the one docs/plugins.md walks through: each non-empty
//! line of a `.lines` file becomes a section. It imports nothing but logging, so the operator
//! grants it `["log"]` and the host picks it up from a plugin directory with no host change.

wit_bindgen::generate!({
    path: "../../../wit",
    world: "format-parser",
});

use exports::smart_context::plugin::parser::{Guest, ParserSpec};
use smart_context::plugin::log::{Level, log};
use smart_context::plugin::types::{Document, Error, Section};

struct Lines;

impl Guest for Lines {
    fn describe() -> ParserSpec {
        ParserSpec {
            format: "lines".to_string(),
            extensions: vec!["lines".to_string()],
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
        let sections: Vec<Section> = text
            .lines()
            .enumerate()
            .filter(|(_, line)| !line.trim().is_empty())
            .map(|(index, line)| {
                let number = index as u32 + 1;
                Section {
                    id: format!("line-{number}"),
                    heading_path: vec![line.trim().to_string()],
                    level: 1,
                    text: line.to_string(),
                    start_line: number,
                    end_line: number,
                    page: None,
                }
            })
            .collect();
        log(
            Level::Debug,
            &format!("{path}: {} sections", sections.len()),
        );
        Ok(Document {
            title: sections.first().map(|s| s.text.trim().to_string()),
            kind: "lines".to_string(),
            sections,
            links: Vec::new(),
            metadata: Vec::new(),
            warnings: Vec::new(),
        })
    }
}

export!(Lines);
