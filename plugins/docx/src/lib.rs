//! The DOCX format parser: paragraphs in Heading styles (or with an outline level) open
//! sections with heading paths; tables become rows of cells separated by ` | `; hyperlinks
//! become links; comments, footnotes and endnotes are flagged inline where they are anchored
//! (`[comment by Ann: ...]`, `[footnote 2: ...]`); core properties become metadata. Lines are
//! those of the extracted text, one per paragraph or table row.

mod body;
mod parts;
mod xml;

use sdk::archive::{Archive, Caps};
use sdk::doc::{Document, ParserSpec};
use sdk::{ToolError, ToolResult, codes};

/// Text kept per document; the rest is dropped with a warning.
const MAX_CHARS: usize = 16 << 20;

pub struct Docx;

impl Docx {
    /// What the host's registry knows it by (declared in the component too).
    pub const SPEC: ParserSpec = ParserSpec {
        format: "docx",
        extensions: &["docx", "docm"],
        signatures: &[],
        text_fallback: false,
    };

    pub fn parse(bytes: &[u8], _path: &str) -> ToolResult<Document> {
        let mut zip = Archive::open(bytes, "docx", Caps::default())?;
        let main = parts::main_part(&mut zip)?;
        let Some(xml) = zip.read(&main)? else {
            return Err(ToolError::new(
                codes::MALFORMED,
                format!("this docx file has no {main}: it is not a Word document"),
            )
            .suggest("open and re-save it in Word or LibreOffice"));
        };
        let dir = main.rsplit_once('/').map_or("", |(d, _)| d);
        let related = |name: &str| format!("{dir}/{name}").trim_start_matches('/').to_string();
        let context = parts::Context {
            styles: parts::styles(zip.read(&related("styles.xml"))?.as_deref()),
            links: parts::relationships(zip.read(&related("_rels/document.xml.rels"))?.as_deref()),
            comments: parts::notes(zip.read(&related("comments.xml"))?.as_deref(), "comment"),
            footnotes: parts::notes(zip.read(&related("footnotes.xml"))?.as_deref(), "footnote"),
            endnotes: parts::notes(zip.read(&related("endnotes.xml"))?.as_deref(), "endnote"),
        };
        let mut doc = body::parse(&xml, &context)?;
        doc.metadata = parts::core_properties(zip.read("docProps/core.xml")?.as_deref());
        doc.title = doc
            .metadata
            .iter()
            .find(|(k, v)| k == "title" && !v.is_empty())
            .map(|(_, v)| v.clone())
            .or_else(|| {
                doc.sections
                    .iter()
                    .find(|s| s.level == 1)
                    .and_then(|s| s.heading_path.last().cloned())
            });
        Ok(doc)
    }
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "format-parser" });
    sdk::export_parser!(crate::Docx);
}

#[cfg(test)]
mod tests;
