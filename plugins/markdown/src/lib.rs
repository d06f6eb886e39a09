//! The markdown format parser: headings become nested sections with heading paths, stable ids
//! and line ranges; fenced code stays verbatim; front matter becomes metadata; links are
//! collected per section for references.

mod sections;

use sdk::ToolResult;
use sdk::doc::{Document, ParserSpec};

pub struct Markdown;

impl Markdown {
    /// What the host's registry knows it by (declared in the component too).
    pub const SPEC: ParserSpec = ParserSpec {
        format: "markdown",
        extensions: &["md", "markdown", "mdx"],
        signatures: &[],
        text_fallback: false,
    };

    pub fn parse(bytes: &[u8], _path: &str) -> ToolResult<Document> {
        let (text, lossy) = sdk::decode_text(bytes);
        let mut doc = sections::parse(&text);
        if lossy {
            doc.warnings.push(sdk::doc::LOSSY_WARNING.to_string());
        }
        Ok(doc)
    }
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "format-parser" });
    sdk::export_parser!(crate::Markdown);
}
