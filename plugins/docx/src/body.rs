//! The body walk: one pass over the main part's XML, paragraphs and table rows out as lines,
//! heading paragraphs as sections.

use super::MAX_CHARS;
use super::parts::{Context, heading_level};
use super::xml::{attr, entity, local, malformed};
use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};
use sdk::ToolResult;
use sdk::doc::{Document, OutlineBuilder};

/// Note text shown inline is cut to this many characters.
const NOTE_CHARS: usize = 300;

#[derive(Default)]
struct Paragraph {
    level: Option<u8>,
    text: String,
    /// (target, byte offset in `text` where the link text starts, link text end when closed)
    links: Vec<(String, usize, usize)>,
}

#[derive(Default)]
struct Table {
    /// Rendered rows of a nested table, folded into the outer cell when it ends.
    rows: Vec<String>,
    row: Vec<String>,
    cell: String,
}

struct Walk<'c> {
    ctx: &'c Context,
    out: OutlineBuilder,
    para: Option<Paragraph>,
    tables: Vec<Table>,
    open_link: Option<(String, usize)>,
    in_text: bool,
    in_properties: bool,
    /// Depth inside a subtree whose text repeats other text (mc:Fallback).
    skip: usize,
    full: bool,
}

pub fn parse(xml: &[u8], ctx: &Context) -> ToolResult<Document> {
    let text = String::from_utf8_lossy(xml);
    let mut reader = Reader::from_str(&text);
    let mut walk = Walk {
        ctx,
        out: OutlineBuilder::new(MAX_CHARS),
        para: None,
        tables: Vec::new(),
        open_link: None,
        in_text: false,
        in_properties: false,
        skip: 0,
        full: false,
    };
    let mut warnings = Vec::new();
    let mut seen_body = false;
    loop {
        let event = match reader.read_event() {
            Ok(event) => event,
            Err(err) if seen_body => {
                warnings.push(format!(
                    "the document XML is damaged at byte {}; text after it is lost ({err})",
                    reader.buffer_position()
                ));
                break;
            }
            Err(err) => return Err(malformed("the document body", err)),
        };
        match event {
            Event::Start(e) => {
                seen_body |= local(&e) == "body";
                walk.start(&e, false);
            }
            Event::Empty(e) => walk.start(&e, true),
            Event::End(e) => {
                let name = e.local_name();
                walk.end(name.as_ref());
            }
            Event::Text(t) if walk.in_text && walk.skip == 0 => walk.push(&t.xml10_content()),
            Event::GeneralRef(r) if walk.in_text && walk.skip == 0 => walk.push(&entity(&r)),
            Event::Eof => break,
            _ => {}
        }
        if walk.full {
            break;
        }
    }
    if !seen_body {
        return Err(malformed("the document body", "no w:body element"));
    }
    let mut doc = walk.out.finish("docx");
    doc.warnings.extend(warnings);
    Ok(doc)
}

impl Walk<'_> {
    fn start(&mut self, e: &BytesStart, empty: bool) {
        let name = local(e);
        if self.skip > 0 {
            self.skip += usize::from(!empty);
            return;
        }
        match name.as_str() {
            "Fallback" if !empty => self.skip = 1,
            "p" if !empty => self.para = Some(Paragraph::default()),
            "pPr" if !empty => self.in_properties = true,
            "pStyle" => {
                let level = attr(e, "val").and_then(|id| {
                    self.ctx
                        .styles
                        .get(&id)
                        .copied()
                        .or_else(|| heading_level(&id))
                });
                if let (Some(p), Some(level)) = (self.para.as_mut(), level) {
                    p.level = Some(level);
                }
            }
            "outlineLvl" => {
                let level = attr(e, "val").and_then(|v| v.parse::<u8>().ok());
                if let (Some(p), Some(level)) = (self.para.as_mut(), level.filter(|l| *l < 9)) {
                    p.level = Some(level + 1);
                }
            }
            "t" if !empty => self.in_text = true,
            "tab" if !self.in_properties => self.push("\t"),
            "br" | "cr" => self.push("\n"),
            // Word's non-breaking hyphen (`26-jährige`) is an element, not a character; an
            // optional hyphen shows only where a line breaks.
            "noBreakHyphen" => self.push("-"),
            "softHyphen" => {}
            "hyperlink" if !empty => {
                let target = attr(e, "id")
                    .and_then(|id| self.ctx.links.get(&id).cloned())
                    .or_else(|| attr(e, "anchor").map(|a| format!("#{a}")));
                let at = self.para.as_ref().map_or(0, |p| p.text.len());
                self.open_link = target.map(|t| (t, at));
            }
            "commentReference" => {
                let note = attr(e, "id").and_then(|id| self.ctx.comments.get(&id));
                if let Some((author, text)) = note {
                    let by = if author.is_empty() {
                        String::new()
                    } else {
                        format!(" by {author}")
                    };
                    self.push(&format!(" [comment{by}: {}]", cut(text)));
                }
            }
            "footnoteReference" | "endnoteReference" => {
                let (kind, notes) = if name == "footnoteReference" {
                    ("footnote", &self.ctx.footnotes)
                } else {
                    ("endnote", &self.ctx.endnotes)
                };
                if let Some(id) = attr(e, "id") {
                    let text = notes.get(&id).map(|(_, t)| cut(t)).unwrap_or_default();
                    self.push(&format!(" [{kind} {id}: {text}]"));
                }
            }
            "tbl" if !empty => self.tables.push(Table::default()),
            "tr" if !empty => {
                if let Some(t) = self.tables.last_mut() {
                    t.row.clear();
                }
            }
            "tc" if !empty => {
                if let Some(t) = self.tables.last_mut() {
                    t.cell.clear();
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, name: &str) {
        if self.skip > 0 {
            self.skip -= 1;
            return;
        }
        match name {
            "t" => self.in_text = false,
            "pPr" => self.in_properties = false,
            "hyperlink" => {
                if let (Some((target, at)), Some(p)) = (self.open_link.take(), self.para.as_mut()) {
                    let end = p.text.len();
                    p.links.push((target, at, end));
                }
            }
            "p" => self.end_paragraph(),
            "tc" => {
                if let Some(t) = self.tables.last_mut() {
                    let cell = t.cell.trim().replace('\n', " ");
                    t.row.push(cell);
                }
            }
            "tr" => {
                let depth = self.tables.len();
                let Some(t) = self.tables.last_mut() else {
                    return;
                };
                let row = t.row.join(" | ");
                if depth == 1 {
                    self.emit(&row);
                } else {
                    t.rows.push(row);
                }
            }
            "tbl" => {
                if let Some(nested) = self.tables.pop()
                    && let Some(outer) = self.tables.last_mut()
                {
                    append(&mut outer.cell, &nested.rows.join(" / "));
                }
            }
            _ => {}
        }
    }

    fn push(&mut self, text: &str) {
        if let Some(p) = self.para.as_mut() {
            p.text.push_str(text);
        }
    }

    fn end_paragraph(&mut self) {
        let Some(p) = self.para.take() else { return };
        if let Some(table) = self.tables.last_mut() {
            append(&mut table.cell, p.text.trim());
            return;
        }
        let text = p.text.trim();
        if text.is_empty() {
            return;
        }
        match p.level {
            Some(level) => self.out.heading(level, &text.replace('\n', " ")),
            None => self.emit(text),
        }
        for (target, start, end) in &p.links {
            let label = p.text.get(*start..*end).unwrap_or_default();
            self.out.link(target, label);
        }
    }

    fn emit(&mut self, text: &str) {
        if !self.out.lines(text) {
            self.full = true;
        }
    }
}

fn append(cell: &mut String, text: &str) {
    if text.is_empty() {
        return;
    }
    if !cell.is_empty() {
        cell.push(' ');
    }
    cell.push_str(text);
}

fn cut(text: &str) -> String {
    if text.chars().count() <= NOTE_CHARS {
        return text.to_string();
    }
    let mut short: String = text.chars().take(NOTE_CHARS - 1).collect();
    short.push('…');
    short
}
