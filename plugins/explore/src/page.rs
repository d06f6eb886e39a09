//! One page of a pack as a response (ADR-040 §5.4-5.5, ADR-038 §8): up to maxResults items
//! per group from the items cursor on, each as its preview or (when the view asks) its
//! content, within maxChars; on a reused pack, items already shown come back by reference,
//! and items whose file changed are refreshed and shown again (reason pack_stale).

use crate::args::{ExploreArgs, Route, View};
use crate::content::{self, Content};
use crate::envelope::{Budget, Group, Next, PackMeta, Response};
use crate::key::{self, Position};
use crate::meta::Meta;
use crate::read;
use crate::session::Session;
use crate::show::{Rendered, base, reference, take};
use crate::smart_context::plugin::store;
use crate::stale::refresh_stale;
use sdk::codes;
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
    // Each cursor says what it is: an items cursor pages on, a content cursor continues a
    // cut item, whichever field it came in.
    let mut items_token = None;
    let mut content_at = None;
    for token in [&cursor.items, &cursor.content].into_iter().flatten() {
        match key::verify(&pack_id, &salt, token) {
            Ok(Position::Items { docs, code }) => {
                at = (docs, code);
                items_token = Some(token.clone());
            }
            Ok(Position::Content { rank, offset, full }) => content_at = Some((rank, offset, full)),
            Err(message) => return Response::invalid_args(message),
        }
    }
    if let Some((rank, offset, full)) = content_at {
        let budget = Budget::new(args.max_chars(), args.max_chars());
        return continuation(args, session, rank, offset, full, items_token, budget);
    }

    let lead = lead_group(&session);
    let groups = match lead {
        Group::Code => [Group::Code, Group::Docs],
        Group::Docs => [Group::Docs, Group::Code],
    };
    let mut page: Vec<(Group, Vec<usize>)> = Vec::new();
    // Counts and positions are kept per group (docs, code), whichever is shown first.
    let mut totals = [0usize; 2];
    for group in groups {
        let members: Vec<usize> = (0..session.pack.items.len())
            .filter(|&i| Meta::of(&session.pack.items[i]).group == group)
            .collect();
        totals[slot(group)] = members.len();
        let from = [at.0, at.1][slot(group)];
        let window = members
            .into_iter()
            .skip(from)
            .take(args.max_results())
            .collect();
        page.push((group, window));
    }
    if totals.iter().all(|&n| n > 0) {
        response.data.first = Some(lead);
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
    // Each group gets its share of maxChars (by its items on the page); what the first group
    // leaves unspent goes to the second, so asking for many results never empties either.
    let later: usize = page.get(1).map_or(0, |(_, w)| w.len());
    if later > 0 && page_len > later {
        budget.withhold(args.max_chars() * later / page_len);
    }
    'groups: for (g, (group, window)) in page.iter().enumerate() {
        if g > 0 {
            budget.release();
        }
        let g = slot(*group);
        for &idx in window {
            if clock.expired() {
                response.degrade("timeout");
                break 'groups;
            }
            if budget.exhausted() {
                response.degrade("budget_exceeded");
                continue 'groups;
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
                // Blocked by the group's share of maxChars before anything of it was shown.
                continue 'groups;
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
            // Only sections actually attached count against the knob's maximum.
            if !full
                && session.key.route == Route::Find
                && meta.group == Group::Docs
                && session.settings.attach_doc_sections
                && attached < session.settings.attach_doc_sections_max
                && content::attach_section(
                    &session,
                    idx,
                    &mut rendered.item,
                    &mut budget,
                    &mut response,
                )
            {
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

/// The index of a group in per-group counts and cursors.
fn slot(group: Group) -> usize {
    match group {
        Group::Docs => 0,
        Group::Code => 1,
    }
}

/// The group the query is about, as the search marked it (see `find::mark_lead`); code when
/// none is marked (one group, or a read), as coding agents mostly want it.
fn lead_group(session: &Session) -> Group {
    session
        .pack
        .items
        .iter()
        .map(Meta::of)
        .find(|m| m.lead)
        .map_or(Group::Code, |m| m.group)
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
        let text = match content::content(args, session, idx) {
            Ok(text) => text,
            Err(err) if err.code == codes::NO_PARSER => None,
            Err(err) if explicit || session.key.route == Route::Find => {
                return Err(Box::new(Response::from_error(err)));
            }
            Err(err) => Some(Content::Note(format!("({}: {})", err.code, err.message))),
        };
        if let Some(text) = text {
            return content::place_content(args, session, idx, text, budget, response);
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
        match content::content(args, &session, idx) {
            Ok(Some(Content::Part { text, .. })) => text,
            Ok(Some(Content::Whole(whole))) => whole.text,
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
