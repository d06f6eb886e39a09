//! One page of a pack as a response (ADR-040 §5.4-5.5, ADR-038 §8): up to maxResults items
//! per group from the items cursor on, each as its preview or (when the view asks) its
//! content, within maxChars; on a reused pack, items already shown come back by reference,
//! and items whose file changed are refreshed and shown again (reason pack_stale).

use crate::args::{ExploreArgs, Route, View};
use crate::envelope::{Budget, Group, Item, ItemKind, Next, PackMeta, Range, Response, Status};
use crate::find;
use crate::key::{self, Position};
use crate::read;
use crate::session::{Meta, Session};
use crate::smart_context::plugin::index::{self, SectionMode, SectionRequest, SectionSelector};
use crate::smart_context::plugin::store::{self, PackItem};
use crate::smart_context::plugin::workspace::{self, ReadOptions};
use sdk::{ToolError, ToolResult, codes};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// The call's clock: limits.timeoutMs, checked between items.
pub struct Clock {
    start: Instant,
    limit: Option<Duration>,
}

impl Clock {
    pub fn start(timeout_ms: Option<u64>) -> Self {
        Self {
            start: Instant::now(),
            limit: timeout_ms.map(Duration::from_millis),
        }
    }

    pub fn expired(&self) -> bool {
        self.limit.is_some_and(|l| self.start.elapsed() >= l)
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

const SHOWN_PREVIEW: &str = "preview";
const SHOWN_CONTENT: &str = "content";

/// What a rendered item holds and where its text was cut, if it was.
struct Rendered {
    item: Item,
    /// Characters shown of the item's text, when not all of it was.
    cut_at: Option<usize>,
}

/// Renders the page the call asks for.
pub fn render(args: &ExploreArgs, mut session: Session, clock: &Clock) -> Response {
    let mut response = Response::ok();
    if !session.key.query.is_empty() {
        response.query = Some(session.key.query.clone());
    }
    for reason in session.reasons.clone() {
        response.degrade(&reason);
    }
    if session.key.route == Route::Find && args.view() == View::Full {
        return Response::invalid_args(
            "view=full reads whole files: name them in `paths` without `query` (intent read)",
        );
    }
    let cursor = args.cursor.clone().unwrap_or_default();
    let (pack_id, salt) = (session.pack.pack_id.clone(), session.pack.salt.clone());
    let mut at = (0usize, 0usize);
    if let Some(items) = &cursor.items {
        match key::verify(&pack_id, &salt, items) {
            Ok(Position::Items { docs, code }) => at = (docs, code),
            Ok(_) => return Response::invalid_args("cursor.items holds a content cursor"),
            Err(message) => return Response::invalid_args(message),
        }
    }
    if let Some(content) = &cursor.content {
        return match key::verify(&pack_id, &salt, content) {
            Ok(Position::Content { rank, offset, full }) => {
                let budget = Budget::new(args.max_chars(), args.max_chars());
                continuation(args, session, rank, offset, full, cursor.items, budget)
            }
            Ok(_) => Response::invalid_args("cursor.content holds an items cursor"),
            Err(message) => Response::invalid_args(message),
        };
    }

    let groups = [Group::Docs, Group::Code];
    let mut page: Vec<(Group, Vec<usize>)> = Vec::new();
    let mut totals = [0usize; 2];
    for (g, group) in groups.iter().enumerate() {
        let members: Vec<usize> = (0..session.pack.items.len())
            .filter(|&i| Meta::of(&session.pack.items[i]).group == *group)
            .collect();
        totals[g] = members.len();
        let from = if g == 0 { at.0 } else { at.1 };
        let window = members
            .into_iter()
            .skip(from)
            .take(args.max_results())
            .collect();
        page.push((*group, window));
    }

    let page_len: usize = page.iter().map(|(_, w)| w.len()).sum();
    let mut budget = Budget::new(args.max_chars(), args.page_item_chars(page_len));
    let mut dirty = false;
    let mut refreshed = Vec::new();
    if session.hit {
        let indices: Vec<usize> = page.iter().flat_map(|(_, w)| w.clone()).collect();
        (refreshed, dirty) = refresh_stale(&mut session, &indices, args);
        if !refreshed.is_empty() {
            response.degrade("pack_stale");
        }
    }

    let mut emitted = [0usize; 2];
    let mut marks: Vec<(u32, String)> = Vec::new();
    let mut content_cursor = None;
    let mut attached = 0u32;
    let mut references = 0;
    'groups: for (g, (group, window)) in page.iter().enumerate() {
        for &idx in window {
            if clock.expired() {
                response.degrade("timeout");
                break 'groups;
            }
            if budget.exhausted() {
                response.degrade("budget_exceeded");
                break 'groups;
            }
            let full = wants_content(args, &session, idx);
            let level = if full { SHOWN_CONTENT } else { SHOWN_PREVIEW };
            let item = &session.pack.items[idx];
            if session.hit && shown_at_least(&item.shown, level) && !refreshed.contains(&idx) {
                response.push(*group, reference(item));
                references += 1;
                emitted[g] += 1;
                continue;
            }
            if item.preview.is_empty() && item.kind != "directory" {
                dirty = true;
            }
            let rendered =
                match render_item(args, &mut session, idx, full, &mut budget, &mut response) {
                    Ok(r) => r,
                    Err(stop) => return *stop,
                };
            let Some(mut rendered) = rendered else {
                // Blocked by maxChars before anything of it was shown.
                break 'groups;
            };
            let item = &session.pack.items[idx];
            if let Some(offset) = rendered.cut_at
                && content_cursor.is_none()
            {
                content_cursor = Some(key::sign(
                    &pack_id,
                    &salt,
                    Position::Content {
                        rank: item.rank,
                        offset,
                        full,
                    },
                ));
            }
            if refreshed.contains(&idx) {
                rendered
                    .item
                    .why
                    .push("changed since the pack was made".into());
            }
            let meta = Meta::of(item);
            if !full
                && session.key.route == Route::Find
                && meta.group == Group::Docs
                && session.settings.attach_doc_sections
                && attached < session.settings.attach_doc_sections_max
            {
                attach_section(
                    &session,
                    idx,
                    &mut rendered.item,
                    &mut budget,
                    &mut response,
                );
                attached += 1;
            }
            marks.push((item.rank, level.to_string()));
            session.pack.items[idx].shown = level.to_string();
            response.push(*group, rendered.item);
            emitted[g] += 1;
        }
    }

    let next_at = (at.0 + emitted[0], at.1 + emitted[1]);
    let mut next = Next {
        content_cursor,
        ..Next::default()
    };
    if next_at.0 < totals[0] || next_at.1 < totals[1] {
        next.items_cursor = Some(key::sign(
            &pack_id,
            &salt,
            Position::Items {
                docs: next_at.0,
                code: next_at.1,
            },
        ));
    }
    if dirty {
        session.save();
    } else if !marks.is_empty()
        && let Err(err) = store::pack_mark_shown(&pack_id, session.key.role(), &marks)
    {
        crate::log_warn(&format!("marking shown items: {}", err.message));
    }
    if next.items_cursor.is_some() || next.content_cursor.is_some() {
        response.next = Some(next);
    }
    response.pack = Some(PackMeta {
        pack_id,
        hit: session.hit,
        created_at: session.pack.created_ms,
        expires_at: session.pack.expires_ms,
    });
    response.stats.insert(
        "packItems".into(),
        serde_json::json!({ "docs": totals[0], "code": totals[1] }),
    );
    if references > 0 {
        response
            .stats
            .insert("shownBefore".into(), references.into());
        response.message = Some(format!(
            "{references} items shown earlier in this pack are listed by reference only; \
             call without packId to see them again"
        ));
    }
    response
}

/// Whether item `idx` is shown as content rather than preview: the file of view=full, the
/// requested document section, or for a search hit the hit's section or lines (view=section).
fn wants_content(args: &ExploreArgs, session: &Session, idx: usize) -> bool {
    let item = &session.pack.items[idx];
    if item.kind == "directory" {
        return false;
    }
    match session.key.route {
        Route::Find => args.view() == View::Section,
        Route::Read => args.wants_full(&item.path) || args.section.is_some(),
    }
}

fn shown_at_least(shown: &str, level: &str) -> bool {
    match level {
        SHOWN_CONTENT => shown == SHOWN_CONTENT,
        _ => !shown.is_empty(),
    }
}

/// An item the agent has already seen in this pack: where it is, not what it says.
fn reference(item: &PackItem) -> Item {
    let meta = Meta::of(item);
    let mut out = Item::new(meta.kind, &item.path);
    out.title = meta.title;
    out.why.push("shown".into());
    out
}

/// Compares each page item's file with its snapshot (mtime first, then the hash) and
/// refreshes the items whose file changed. Returns them, and whether the pack changed.
fn refresh_stale(session: &mut Session, page: &[usize], args: &ExploreArgs) -> (Vec<usize>, bool) {
    let mut live: HashMap<String, Option<(String, u64)>> = HashMap::new();
    let mut refreshed = Vec::new();
    let mut dirty = false;
    for &idx in page {
        let item = &session.pack.items[idx];
        let Some(snapshot) = item.content_hash.clone() else {
            continue;
        };
        let path = item.path.clone();
        let state = live
            .entry(path.clone())
            .or_insert_with(|| current(&path, item.updated_ms, &snapshot, args))
            .clone();
        match state {
            None => {}
            // Touched, not changed: remember the new mtime so it is not hashed again.
            Some((hash, mtime))
                if hash == snapshot && session.pack.items[idx].updated_ms != Some(mtime) =>
            {
                session.pack.items[idx].updated_ms = Some(mtime);
                dirty = true;
            }
            Some((hash, _)) if hash == snapshot => {}
            Some((hash, mtime)) => {
                refresh(session, idx, args);
                let item = &mut session.pack.items[idx];
                if !item.preview.is_empty() {
                    item.content_hash = Some(hash);
                    item.updated_ms = Some(mtime);
                }
                item.shown = String::new();
                refreshed.push(idx);
                dirty = true;
            }
        }
    }
    (refreshed, dirty)
}

/// The file's hash and mtime now, or None when its mtime still matches the snapshot (or it
/// cannot be read: then the snapshot stands). A deleted file has an empty hash.
fn current(
    path: &str,
    mtime: Option<u64>,
    snapshot: &str,
    args: &ExploreArgs,
) -> Option<(String, u64)> {
    let Ok(entry) = workspace::stat(path) else {
        return Some((String::new(), 0));
    };
    if Some(entry.modified_ms) == mtime {
        return None;
    }
    let options = ReadOptions {
        max_bytes: 1,
        allow_sensitive: args.allow_sensitive,
        allow_binary: true,
        allow_truncate: true,
    };
    match workspace::read(path, options) {
        Ok(file) => Some((file.hash, entry.modified_ms)),
        Err(_) => (!snapshot.is_empty()).then(|| (snapshot.to_string(), entry.modified_ms)),
    }
}

/// Rebuilds one changed item: a search hit is looked up again in its file, a read target
/// gets a new preview when shown.
fn refresh(session: &mut Session, idx: usize, args: &ExploreArgs) {
    let item = session.pack.items[idx].clone();
    let meta = Meta::of(&item);
    match session.key.route {
        Route::Find => match find::refind(&session.key.query, &item, args.max_item_chars()) {
            Some(hit) => {
                session.pack.items[idx] = find::item(hit, meta.group, item.rank, &item.role);
            }
            None => {
                let stale = &mut session.pack.items[idx];
                stale.preview =
                    "(this chunk changed and no longer matches the query; search again)".into();
            }
        },
        Route::Read => {
            session.pack.items[idx].preview = String::new();
            session.pack.items[idx].content_hash = None;
        }
    }
}

/// One item as the response shows it: its preview (made now for read targets), or its
/// content. Err holds the response that ends the call (an explicit path that cannot be read,
/// a full read over maxChars). Ok(None): nothing of it fits what is left of maxChars.
fn render_item(
    args: &ExploreArgs,
    session: &mut Session,
    idx: usize,
    full: bool,
    budget: &mut Budget,
    response: &mut Response,
) -> Result<Option<Rendered>, Box<Response>> {
    let explicit = Meta::of(&session.pack.items[idx]).explicit;
    if full {
        let text = match content(args, session, idx) {
            Ok(text) => text,
            Err(err) if err.code == codes::NO_PARSER => None,
            Err(err) if explicit || session.key.route == Route::Find => {
                return Err(Box::new(Response::from_error(err)));
            }
            Err(err) => Some(Content::Note(format!("({}: {})", err.code, err.message))),
        };
        if let Some(text) = text {
            return place_content(args, session, idx, text, budget, response);
        }
    }
    if session.pack.items[idx].preview.is_empty() {
        let settings = session.settings;
        if let Err(err) = read::preview(&mut session.pack.items[idx], args, &settings) {
            if explicit {
                return Err(Box::new(Response::from_error(err)));
            }
            session.pack.items[idx].preview = format!("({}: {})", err.code, err.message);
        }
    }
    let item = &session.pack.items[idx];
    let meta = Meta::of(item);
    if meta.missing {
        response.degrade("summary_missing");
    }
    let mut out = base(item, &meta);
    let (text, cut_at) = take(&item.preview, budget, response, "summary_truncated");
    out.preview = Some(text);
    Ok(Some(Rendered { item: out, cut_at }))
}

/// The item as the envelope shows it, without text.
fn base(item: &PackItem, meta: &Meta) -> Item {
    let mut out = Item::new(meta.kind, &item.path);
    out.title = meta.title.clone();
    out.score = meta.score;
    out.range = item.range.map(|r| Range {
        start_line: r.start,
        end_line: r.end,
    });
    // The score says why a hit ranks (BM25); the language follows from the path: neither is
    // repeated per item, to keep a default answer small.
    out
}

/// Takes `text` within the item cap and what is left of maxChars; when it is cut, the reason
/// says which (the whole response's budget, or `item_reason` for the item's own cap), and the
/// characters shown are returned for the content cursor.
fn take(
    text: &str,
    budget: &mut Budget,
    response: &mut Response,
    item_reason: &str,
) -> (String, Option<usize>) {
    let squeezed = budget.remaining() < budget.item_cap();
    let (kept, cut) = budget.take(text);
    if !cut {
        return (kept, None);
    }
    response.degrade(if squeezed {
        "budget_exceeded"
    } else {
        item_reason
    });
    response.degrade("truncated");
    let n = kept.chars().count();
    (kept, Some(n))
}

/// An item's content: a whole file, a document section, a hit's section or lines.
enum Content {
    /// A whole file (never cut: blocked instead), with its size, hash and lossiness.
    Whole(String, u64, String, bool),
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

fn content(args: &ExploreArgs, session: &Session, idx: usize) -> ToolResult<Option<Content>> {
    let item = &session.pack.items[idx];
    let meta = Meta::of(item);
    let range = item.range.map(|r| (r.start, r.end));
    match session.key.route {
        Route::Read if args.wants_full(&item.path) => {
            let (text, size, hash, lossy) = read::full(&item.path, args)?;
            Ok(Some(Content::Whole(text, size, hash, lossy)))
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

fn place_content(
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
        Content::Whole(text, size, hash, lossy) => {
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
/// preview within SMART_CONTEXT_DOC_SNIPPET_MAX_CHARS, attached as content.
fn attach_section(
    session: &Session,
    idx: usize,
    out: &mut Item,
    budget: &mut Budget,
    response: &mut Response,
) {
    let item = &session.pack.items[idx];
    let request = SectionRequest {
        mode: SectionMode::Preview,
        max_chars: session.settings.doc_snippet_max_chars,
    };
    let selector = SectionSelector::HeadingPath(item.heading_path.clone());
    if let Ok(view) = index::doc_section(&item.path, &selector, request) {
        let (text, _) = take(&view.section.text, budget, response, "truncated");
        if !text.is_empty() {
            out.content = Some(text);
            out.why
                .push("attached: SMART_CONTEXT_ATTACH_DOC_SECTIONS".into());
        }
    }
}

/// The rest of one item's text, from a content cursor.
fn continuation(
    args: &ExploreArgs,
    mut session: Session,
    rank: u32,
    offset: usize,
    full: bool,
    items_cursor: Option<String>,
    mut budget: Budget,
) -> Response {
    let role = session.key.role();
    let Some(idx) = session
        .pack
        .items
        .iter()
        .position(|i| i.rank == rank && i.role == role)
    else {
        return Response::invalid_args("cursor.content points past this pack's items");
    };
    let mut response = Response::ok();
    let text = if full {
        match content(args, &session, idx) {
            Ok(Some(Content::Part { text, .. })) | Ok(Some(Content::Whole(text, ..))) => text,
            Ok(Some(Content::Note(note))) => note,
            Ok(None) => String::new(),
            Err(err) => return Response::from_error(err),
        }
    } else {
        if session.pack.items[idx].preview.is_empty() {
            let settings = session.settings;
            if let Err(err) = read::preview(&mut session.pack.items[idx], args, &settings) {
                return Response::from_error(err);
            }
        }
        session.pack.items[idx].preview.clone()
    };
    let rest: String = text.chars().skip(offset).collect();
    let item = &session.pack.items[idx];
    let meta = Meta::of(item);
    let mut out = base(item, &meta);
    out = out.meta("offset", offset);
    let (shown, cut_at) = take(&rest, &mut budget, &mut response, "truncated");
    if full {
        out.content = Some(shown);
    } else {
        out.preview = Some(shown);
    }
    let (pack_id, salt) = (session.pack.pack_id.clone(), session.pack.salt.clone());
    let next = Next {
        content_cursor: cut_at.map(|n| {
            key::sign(
                &pack_id,
                &salt,
                Position::Content {
                    rank,
                    offset: offset + n,
                    full,
                },
            )
        }),
        items_cursor,
    };
    response.push(meta.group, out);
    if next.items_cursor.is_some() || next.content_cursor.is_some() {
        response.next = Some(next);
    }
    response.pack = Some(PackMeta {
        pack_id,
        hit: true,
        created_at: session.pack.created_ms,
        expires_at: session.pack.expires_ms,
    });
    response
}
