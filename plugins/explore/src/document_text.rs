//! A parsed document as one text, for view=full on a PDF, DOCX or XLSX: every section in
//! order, each heading where its section starts, page changes marked, so "the whole document"
//! reads as the document and not as its container's bytes.

use crate::smart_context::plugin::types::Document;

/// The document's text: a `#` heading line (its depth in `#`) where the heading path changes,
/// a `[page N]` line where the page changes, then the section's text. Headings a section's
/// text already opens with are not repeated.
pub fn render(doc: &Document) -> String {
    let mut out = Blocks::default();
    let mut page = None;
    let mut heading: &[String] = &[];
    for section in &doc.sections {
        if section.page.is_some() && section.page != page {
            page = section.page;
            out.marker(&format!("[page {}]", page.unwrap_or_default()));
        }
        let text = section.text.trim_matches('\n');
        if section.heading_path.as_slice() != heading {
            heading = &section.heading_path;
            if let Some(title) = heading.last()
                && !text.trim_start().starts_with(title.trim())
            {
                let depth = usize::from(section.level.max(1)).min(6);
                out.block(&format!("{} {}", "#".repeat(depth), title.trim()));
            }
        }
        if !text.trim().is_empty() {
            out.block(text);
        }
    }
    out.text
}

/// Blocks of text one blank line apart; a marker line sits right above the next block.
#[derive(Default)]
struct Blocks {
    text: String,
    after_marker: bool,
}

impl Blocks {
    fn block(&mut self, block: &str) {
        if !self.text.is_empty() && !self.after_marker {
            self.text.push('\n');
        }
        self.text.push_str(block);
        self.text.push('\n');
        self.after_marker = false;
    }

    fn marker(&mut self, line: &str) {
        self.block(line);
        self.after_marker = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::smart_context::plugin::types::Section;

    fn section(path: &[&str], level: u8, text: &str, page: Option<u32>) -> Section {
        Section {
            id: String::new(),
            heading_path: path.iter().map(|s| s.to_string()).collect(),
            level,
            text: text.into(),
            start_line: 1,
            end_line: 1,
            page,
        }
    }

    fn doc(sections: Vec<Section>) -> Document {
        Document {
            title: None,
            kind: "pdf".into(),
            sections,
            links: Vec::new(),
            metadata: Vec::new(),
            warnings: Vec::new(),
        }
    }

    #[test]
    fn pages_and_headings_are_marked_once_and_text_keeps_its_order() {
        let text = render(&doc(vec![
            section(&[], 0, "Cover words\n", Some(1)),
            section(&["Intro"], 1, "First page of the intro", Some(2)),
            section(&["Intro"], 1, "Second page of the intro", Some(3)),
            section(&["Intro", "Scope"], 2, "Scope\nWhat it covers", Some(3)),
        ]));
        assert_eq!(
            text,
            "[page 1]\nCover words\n\n[page 2]\n# Intro\n\nFirst page of the intro\n\n\
             [page 3]\nSecond page of the intro\n\nScope\nWhat it covers\n"
        );
    }

    #[test]
    fn an_empty_document_is_empty_text() {
        assert_eq!(render(&doc(Vec::new())), "");
    }
}
