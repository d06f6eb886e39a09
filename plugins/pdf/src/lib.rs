//! The PDF format parser (lopdf): one section per page, each with its page number and the
//! outline (bookmark) path in effect there as its heading path; text in content-stream order,
//! which is reading order for most producers; link annotations as links; the info dictionary
//! as metadata. Files encrypted with a user password give ENCRYPTED, damaged ones MALFORMED.

mod bidi;
mod cmaps;
mod collections;
mod glyphnames;
mod glyphs;
mod layout;
mod plausible;
mod program;
mod standard14;
mod tolerant;
mod tounicode;

use lopdf::{Dictionary, Object};
use sdk::doc::{Document, OutlineBuilder, ParserSpec};
use sdk::{ToolError, ToolResult, codes};

/// Text kept per document; the rest is dropped with a warning.
const MAX_CHARS: usize = 16 << 20;
/// Inflated content of one page; a page over it is skipped with a warning.
const MAX_PAGE_CONTENT: usize = 32 << 20;
/// What a page with no extractable text says, so a scanned page is not mistaken for a gap.
const NO_TEXT: &str = "(no extractable text on this page: scanned or drawn)";

pub struct Pdf;

impl Pdf {
    /// What the host's registry knows it by (declared in the component too).
    pub const SPEC: ParserSpec = ParserSpec {
        format: "pdf",
        extensions: &["pdf"],
        signatures: &[b"%PDF-"],
        text_fallback: false,
    };

    pub fn parse(bytes: &[u8], _path: &str) -> ToolResult<Document> {
        let head = &bytes[..bytes.len().min(1024)];
        if !head.windows(5).any(|w| w == b"%PDF-") {
            return Err(malformed("there is no %PDF- header"));
        }
        let mut pdf = lopdf::Document::load_mem(bytes).map_err(load_error)?;
        if pdf.is_encrypted() && !pdf.was_encrypted() {
            return Err(encrypted());
        }
        let recovered = tolerant::recover_streams(&mut pdf, bytes, MAX_PAGE_CONTENT);
        let pages = pdf.get_pages();
        if pages.is_empty() {
            return Err(malformed("it has no pages"));
        }
        let outline = pdf.get_toc().map(|t| t.toc).unwrap_or_default();
        let mut entries = outline.iter().peekable();
        let mut stack: Vec<(usize, String)> = Vec::new();
        let mut out = OutlineBuilder::new(MAX_CHARS);
        let mut warnings = Vec::new();
        if recovered > 0 {
            warnings.push(format!(
                "{recovered} stream(s) without a valid /Length were read up to their endstream"
            ));
        }
        let mut blank_pages = 0usize;
        let mut maps = layout::FontCache::default();
        for (&number, &page_id) in &pages {
            // The outline in effect: every entry before this page, and the first one on it.
            let mut on_page = false;
            while let Some(e) = entries
                .next_if(|e| (e.page as u32) < number || (e.page as u32 == number && !on_page))
            {
                on_page |= e.page as u32 == number;
                while stack.last().is_some_and(|(l, _)| *l >= e.level) {
                    stack.pop();
                }
                stack.push((e.level, e.title.trim().to_string()));
            }
            let path: Vec<String> = stack.iter().map(|(_, t)| t.clone()).collect();
            out.set_page(number);
            out.section(&format!("page-{number}"), path.clone(), path.len() as u8);
            let mut text = page_text(&pdf, number, page_id, &mut maps, &mut warnings);
            if let Some(why) = plausible::undecodable(&text) {
                warnings.push(format!("page {number}: left out, {why}"));
                text = format!("(the text of this page could not be decoded: {why})");
            }
            if text.trim().is_empty() {
                blank_pages += 1;
                out.line(NO_TEXT);
            } else if !out.lines(&text) {
                break;
            }
            for (target, label) in page_links(&pdf, page_id) {
                out.link(&target, &label);
            }
        }
        let mut doc = out.finish("pdf");
        if blank_pages == pages.len() {
            warnings.push("no page has extractable text (a scanned document?)".to_string());
        }
        doc.warnings.extend(warnings);
        doc.metadata = info(&pdf);
        doc.metadata.push(("pages".into(), pages.len().to_string()));
        doc.title = doc
            .metadata
            .iter()
            .find(|(k, v)| k == "title" && !v.trim().is_empty())
            .map(|(_, v)| v.trim().to_string())
            .or_else(|| outline.first().map(|e| e.title.trim().to_string()));
        Ok(doc)
    }
}

/// A page's text, its lines trimmed and runs of blank lines collapsed. Undecodable fragments
/// are dropped with one warning per page.
fn page_text(
    pdf: &lopdf::Document,
    number: u32,
    page: lopdf::ObjectId,
    maps: &mut layout::FontCache,
    warnings: &mut Vec<String>,
) -> String {
    let raw = match layout::page_text(pdf, page, MAX_PAGE_CONTENT, maps) {
        Ok(page) => {
            if page.failed > 0 {
                warnings.push(format!(
                    "page {number}: {} text fragment(s) could not be decoded",
                    page.failed
                ));
            }
            if page.skipped > 0 {
                warnings.push(format!(
                    "page {number}: {} damaged content operation(s) skipped; the rest of \
                     the page was read",
                    page.skipped
                ));
            }
            page.text
        }
        Err(e) => {
            warnings.push(format!("page {number}: its text cannot be read ({e})"));
            String::new()
        }
    };
    let mut text = String::with_capacity(raw.len());
    let mut blank = 0;
    for line in raw.lines().map(|l| l.trim_end()) {
        blank = if line.is_empty() { blank + 1 } else { 0 };
        if blank <= 1 && !(text.is_empty() && line.is_empty()) {
            text.push_str(line);
            text.push('\n');
        }
    }
    text.truncate(text.trim_end().len());
    text
}

/// URI link annotations of a page: (target, label).
fn page_links(pdf: &lopdf::Document, page_id: lopdf::ObjectId) -> Vec<(String, String)> {
    let Ok(page) = pdf.get_dictionary(page_id) else {
        return Vec::new();
    };
    let Ok(annots) = page.get_deref(b"Annots", pdf).and_then(Object::as_array) else {
        return Vec::new();
    };
    annots
        .iter()
        .filter_map(|a| pdf.dereference(a).ok()?.1.as_dict().ok())
        .filter(|a| a.get(b"Subtype").and_then(Object::as_name).ok() == Some(b"Link"))
        .filter_map(|a| {
            let action = a.get_deref(b"A", pdf).and_then(Object::as_dict).ok()?;
            let uri = action.get_deref(b"URI", pdf).ok()?;
            let target = lopdf::decode_text_string(uri).ok()?;
            let label = a
                .get_deref(b"Contents", pdf)
                .ok()
                .and_then(|c| lopdf::decode_text_string(c).ok())
                .unwrap_or_default();
            Some((target, label))
        })
        .take(1000)
        .collect()
}

/// The info dictionary's text entries, lower-cased keys.
fn info(pdf: &lopdf::Document) -> Vec<(String, String)> {
    let Ok(dict) = pdf
        .trailer
        .get_deref(b"Info", pdf)
        .and_then(Object::as_dict)
    else {
        return Vec::new();
    };
    let text = |d: &Dictionary, key: &[u8]| {
        d.get_deref(key, pdf)
            .ok()
            .and_then(|o| lopdf::decode_text_string(o).ok())
    };
    [
        "Title", "Author", "Subject", "Keywords", "Creator", "Producer",
    ]
    .iter()
    .filter_map(|k| {
        let value = text(dict, k.as_bytes())?;
        let value = value.trim();
        (!value.is_empty()).then(|| (k.to_ascii_lowercase(), value.to_string()))
    })
    .collect()
}

fn load_error(err: lopdf::Error) -> ToolError {
    match err {
        lopdf::Error::Decryption(_) | lopdf::Error::InvalidPassword => encrypted(),
        lopdf::Error::Unimplemented(what) if what.contains("encrypt") => encrypted(),
        lopdf::Error::Decompress(e) => ToolError::new(
            codes::TOO_LARGE,
            format!("this PDF's content cannot be inflated within the caps: {e}"),
        )
        .suggest("the file is not indexed; read it in a PDF viewer"),
        other => malformed(&other.to_string()),
    }
}

fn encrypted() -> ToolError {
    ToolError::new(
        codes::ENCRYPTED,
        "this PDF is encrypted with a password".to_string(),
    )
    .suggest("save a copy without a password to index and read it")
}

fn malformed(why: &str) -> ToolError {
    ToolError::new(codes::MALFORMED, format!("this PDF cannot be read: {why}"))
        .suggest("repair or re-save it (e.g. print to PDF), or read another copy")
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "format-parser" });
    sdk::export_parser!(crate::Pdf);
}

#[cfg(test)]
mod tests;
