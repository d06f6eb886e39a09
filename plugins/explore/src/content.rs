//! An item's content, for the views that ask for more than a preview: a whole file (view=full:
//! never cut, blocked past maxChars), a document section, a search hit's section or lines, and
//! the section previews SMART_CONTEXT_ATTACH_DOC_SECTIONS attaches.

use crate::args::{ExploreArgs, Route};
use crate::envelope::{Budget, Group, Item, ItemKind, Range, Response, Status};
use crate::meta::Meta;
use crate::read;
use crate::session::Session;
use crate::show::{Rendered, base, take};
use crate::smart_context::plugin::index::{self, SectionMode, SectionRequest, SectionSelector};
use sdk::{ToolError, ToolResult, codes};

/// An item's content: a whole file, a document section, a hit's section or lines.
pub enum Content {
    /// A whole file (never cut: blocked instead), or a binary document's text.
    Whole(read::Whole),
    /// A section or a hit's lines, cut to the budget like a preview.
    Part {
        text: String,
        kind: ItemKind,
        title: Option<String>,
        range: Option<(u32, u32)>,
        section_id: Option<String>,
    },
    /// What could not be read, for an item found by expansion.
    Note(String),
}

pub fn content(args: &ExploreArgs, session: &Session, idx: usize) -> ToolResult<Option<Content>> {
    let item = &session.pack.items[idx];
    let meta = Meta::of(item);
    let range = item.range.map(|r| (r.start, r.end));
    match session.key.route {
        Route::Read if args.wants_full(&item.path) => {
            Ok(Some(Content::Whole(read::full(&item.path, args)?)))
        }
        Route::Read => {
            let selector = args.section.clone().unwrap_or_default();
            let (text, heading, range, id) = read::section(&item.path, &selector)?;
            Ok(Some(Content::Part {
                text,
                kind: ItemKind::DocumentSection,
                title: Some(if heading.is_empty() {
                    "(preamble)".into()
                } else {
                    heading.join(" > ")
                }),
                range: Some((range.start, range.end)),
                section_id: Some(id),
            }))
        }
        Route::Find if meta.group == Group::Code => {
            let r = item
                .range
                .ok_or_else(|| ToolError::new(codes::INTERNAL, "hit without range"))?;
            Ok(Some(Content::Part {
                text: read::lines(&item.path, &r, args)?,
                kind: meta.kind,
                title: meta.title,
                range,
                section_id: None,
            }))
        }
        Route::Find => {
            let chunks = index::file_chunks(&item.path, SectionMode::Raw, u32::MAX)?;
            let chunk = chunks
                .into_iter()
                .find(|c| c.chunk_id == item.chunk_id)
                .ok_or_else(|| {
                    ToolError::new(
                        codes::NOT_FOUND,
                        format!("this section of {} changed", item.path),
                    )
                    .suggest("search again")
                })?;
            Ok(Some(Content::Part {
                text: chunk.preview,
                kind: meta.kind,
                title: meta.title,
                range,
                section_id: None,
            }))
        }
    }
}

pub fn place_content(
    args: &ExploreArgs,
    session: &Session,
    idx: usize,
    content: Content,
    budget: &mut Budget,
    response: &mut Response,
) -> Result<Option<Rendered>, Box<Response>> {
    let item = &session.pack.items[idx];
    let meta = Meta::of(item);
    match content {
        Content::Whole(read::Whole {
            text,
            size,
            hash,
            lossy,
            document,
        }) => {
            let chars = text.chars().count();
            if !budget.reserve(chars) {
                let used = args.max_chars() - budget.remaining();
                let mut blocked = Response::failed(
                    Status::Blocked,
                    format!(
                        "{} has {chars} chars; with {used} already in this response that is over limits.maxChars {}",
                        item.path,
                        args.max_chars()
                    ),
                );
                blocked.code = Some(codes::TOO_LARGE.into());
                blocked.suggestion = Some(format!(
                    "raise limits.maxChars to at least {}, read fewer paths at once, or read a preview or section instead",
                    used + chars
                ));
                return Err(Box::new(blocked));
            }
            let lines = sdk::line_count(&text) as u32;
            let mut out = Item::new(ItemKind::FileFull, &item.path)
                .meta("bytes", size)
                .meta("lines", lines)
                .meta("hash", hash);
            if lossy {
                out = out.meta("lossyUtf8", true);
            }
            if let Some(doc) = document {
                out = out
                    .meta("documentText", doc.format)
                    .meta("sections", doc.sections);
                if !doc.warnings.is_empty() {
                    out = out.meta("warnings", doc.warnings);
                }
            }
            out.range = Some(Range {
                start_line: 1,
                end_line: lines.max(1),
            });
            out.content = Some(text);
            Ok(Some(Rendered {
                item: out,
                cut_at: None,
            }))
        }
        Content::Part {
            text,
            kind,
            title,
            range,
            section_id,
        } => {
            let mut out = base(item, &meta);
            out.kind = kind;
            out.title = title;
            if let Some((start, end)) = range {
                out.range = Some(Range {
                    start_line: start,
                    end_line: end,
                });
            }
            if let Some(id) = section_id {
                out = out.meta("sectionId", id);
            }
            out = out.meta("chars", text.chars().count());
            let (shown, cut_at) = take(&text, budget, response, "truncated");
            if shown.is_empty() && cut_at.is_some() {
                return Ok(None);
            }
            out.content = Some(shown);
            Ok(Some(Rendered { item: out, cut_at }))
        }
        Content::Note(note) => {
            let mut out = base(item, &meta);
            let (shown, cut_at) = take(&note, budget, response, "truncated");
            out.preview = Some(shown);
            Ok(Some(Rendered { item: out, cut_at }))
        }
    }
}

/// SMART_CONTEXT_ATTACH_DOC_SECTIONS: the section of a found document, as its extractive
/// preview within SMART_CONTEXT_DOC_SNIPPET_MAX_CHARS, attached as content. Whether it was.
pub fn attach_section(
    session: &Session,
    idx: usize,
    out: &mut Item,
    budget: &mut Budget,
    response: &mut Response,
) -> bool {
    let item = &session.pack.items[idx];
    let request = SectionRequest {
        mode: SectionMode::Preview,
        max_chars: session.settings.doc_snippet_max_chars,
        subsections: false,
    };
    let selector = SectionSelector::HeadingPath(item.heading_path.clone());
    let Ok(view) = index::doc_section(&item.path, &selector, request) else {
        return false;
    };
    let (text, _) = take(&view.section.text, budget, response, "truncated");
    if text.is_empty() {
        return false;
    }
    out.content = Some(text);
    out.why
        .push("attached: SMART_CONTEXT_ATTACH_DOC_SECTIONS".into());
    true
}
