//! Finding (ADR-040 §5.3 rule 2): the query runs against the host's BM25 index, once for
//! documents and once for code so neither group crowds out the other, scoped to `paths` when
//! given. Each hit becomes a pack item with the host's extractive preview (signature-first
//! for code, query lines then headings and notices for documents) and a snapshot of its file.

use crate::args::{ExploreArgs, Kinds, PACK_DEPTH};
use crate::envelope::{Group, ItemKind};
use crate::key::PackKey;
use crate::meta::Meta;
use crate::smart_context::plugin::index::{self, ChunkHit, SearchOptions};
use crate::smart_context::plugin::store::{EvidenceSettings, PackItem};
use crate::smart_context::plugin::types::LineRange;
use sdk::ToolResult;

/// Code chunk kinds; every other kind is a document or text.
const CODE: &str = "code";
const COMMENT: &str = "code_comment";
const LOG: &str = "log";

/// The search filters of one group, or None when include leaves the group out.
fn filters(group: Group, kinds: Kinds) -> Option<(Vec<String>, Vec<String>)> {
    let s = |v: &[&str]| v.iter().map(|k| k.to_string()).collect::<Vec<_>>();
    match group {
        Group::Code => {
            let keep: Vec<&str> = [(kinds.code, CODE), (kinds.comments, COMMENT)]
                .into_iter()
                .filter_map(|(on, k)| on.then_some(k))
                .collect();
            (!keep.is_empty()).then(|| (s(&keep), Vec::new()))
        }
        Group::Docs => match (kinds.docs, kinds.logs) {
            (true, true) => Some((Vec::new(), s(&[CODE, COMMENT]))),
            (true, false) => Some((Vec::new(), s(&[CODE, COMMENT, LOG]))),
            (false, true) => Some((s(&[LOG]), Vec::new())),
            (false, false) => None,
        },
    }
}

/// The pack items for `key.query`: each group ranked best first, at most PACK_DEPTH each.
pub fn collect(
    key: &PackKey,
    args: &ExploreArgs,
    settings: &EvidenceSettings,
) -> ToolResult<(Vec<PackItem>, Vec<String>)> {
    let scopes: Vec<Option<String>> = if key.paths.is_empty() {
        vec![None]
    } else {
        key.paths.iter().cloned().map(Some).collect()
    };
    let mut items = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    for group in [Group::Docs, Group::Code] {
        let Some((kinds, exclude_kinds)) = filters(group, key.kinds) else {
            continue;
        };
        let cap = match group {
            Group::Docs => args
                .max_item_chars()
                .min(settings.doc_snippet_max_chars as usize),
            Group::Code => args.max_item_chars(),
        };
        let mut hits: Vec<ChunkHit> = Vec::new();
        for scope in &scopes {
            let options = SearchOptions {
                kinds: kinds.clone(),
                exclude_kinds: exclude_kinds.clone(),
                languages: Vec::new(),
                path_prefix: scope.clone(),
                max_results: PACK_DEPTH as u32,
                preview_chars: cap.max(1) as u32,
            };
            // The query as sent (the key's copy has its whitespace folded): line breaks tell
            // traceback frames and code blocks apart.
            let result = index::search(args.query().unwrap_or(&key.query), &options)?;
            for reason in result.reasons {
                if !reasons.contains(&reason) {
                    reasons.push(reason);
                }
            }
            hits.extend(result.hits);
        }
        // Several scopes: the best across them, each chunk once.
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        let mut seen = std::collections::HashSet::new();
        hits.retain(|h| seen.insert(h.chunk_id.clone()));
        hits.truncate(PACK_DEPTH);
        for hit in hits {
            let rank = items.len() as u32 + 1;
            items.push(item(hit, group, rank, key.role()));
        }
    }
    mark_lead(&mut items, key, args);
    Ok((items, reasons))
}

/// Marks the items of the group the query is about: when both groups found something, the
/// group of the best hit of one search over both (each group's own scores are relative to
/// its best, so they cannot tell).
fn mark_lead(items: &mut [PackItem], key: &PackKey, args: &ExploreArgs) {
    let groups = |g: Group| items.iter().any(|i| Meta::of(i).group == g);
    if !groups(Group::Docs) || !groups(Group::Code) {
        return;
    }
    let mut exclude = Vec::new();
    if !key.kinds.logs {
        exclude.push(LOG.to_string());
    }
    if !key.kinds.comments {
        exclude.push(COMMENT.to_string());
    }
    let options = SearchOptions {
        kinds: Vec::new(),
        exclude_kinds: exclude,
        languages: Vec::new(),
        path_prefix: key.paths.first().cloned().filter(|_| key.paths.len() == 1),
        max_results: 1,
        preview_chars: 0,
    };
    let Some(best) = index::search(args.query().unwrap_or(&key.query), &options)
        .ok()
        .and_then(|r| r.hits.into_iter().next())
    else {
        return;
    };
    let lead = match best.kind.as_str() {
        CODE | COMMENT => Group::Code,
        _ => Group::Docs,
    };
    for item in items.iter_mut() {
        let mut meta = Meta::of(item);
        if meta.group == lead {
            meta.lead = true;
            item.meta_json = meta.json();
        }
    }
}

/// A search hit as a pack item.
pub fn item(hit: ChunkHit, group: Group, rank: u32, role: &str) -> PackItem {
    let kind = match group {
        Group::Docs => ItemKind::DocumentSection,
        Group::Code if hit.symbol.is_some() => ItemKind::Symbol,
        Group::Code => ItemKind::FilePreview,
    };
    let missing = hit.preview.trim().is_empty();
    let preview = if missing {
        format!("{}| {}", hit.snippet_line, hit.snippet)
    } else {
        hit.preview.clone()
    };
    let title = hit
        .symbol
        .clone()
        .or_else(|| (!hit.heading_path.is_empty()).then(|| hit.heading_path.join(" > ")));
    let meta = Meta {
        group,
        kind,
        title,
        score: Some((f64::from(hit.score) * 1000.0).round() / 1000.0),
        chunk_kind: Some(hit.kind.clone()),
        explicit: false,
        missing,
        why: hit.why.clone(),
        asked: Vec::new(),
        total_lines: None,
        lead: false,
    };
    PackItem {
        role: role.to_string(),
        rank,
        chunk_id: hit.chunk_id,
        path: hit.path,
        kind: kind_name(kind),
        section_id: String::new(),
        heading_path: hit.heading_path,
        range: Some(LineRange {
            start: hit.range.start,
            end: hit.range.end,
        }),
        preview,
        content_hash: (!hit.file_hash.is_empty()).then_some(hit.file_hash),
        updated_ms: (hit.file_mtime_ms > 0).then_some(hit.file_mtime_ms),
        scores_json: Some(format!("{{\"rank\":{}}}", hit.score)),
        meta_json: meta.json(),
        shown: String::new(),
    }
}

/// The item kind as the envelope spells it.
pub fn kind_name(kind: ItemKind) -> String {
    serde_json::to_value(kind)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

/// The same chunk found again after its file changed: a fresh hit for `item`'s chunk, if the
/// query still finds it in that file.
pub fn refind(query: &str, item: &PackItem, max_item_chars: usize) -> Option<ChunkHit> {
    let options = SearchOptions {
        kinds: Vec::new(),
        exclude_kinds: Vec::new(),
        languages: Vec::new(),
        path_prefix: Some(item.path.clone()),
        max_results: PACK_DEPTH as u32,
        preview_chars: max_item_chars.max(1) as u32,
    };
    index::search(query, &options)
        .ok()?
        .hits
        .into_iter()
        .find(|h| h.chunk_id == item.chunk_id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn include_flags_shape_the_two_searches() {
        let all = Kinds {
            docs: true,
            code: true,
            comments: true,
            logs: true,
        };
        assert_eq!(
            filters(Group::Code, all),
            Some((vec!["code".into(), "code_comment".into()], vec![]))
        );
        let no_logs = Kinds { logs: false, ..all };
        assert!(
            filters(Group::Docs, no_logs)
                .unwrap()
                .1
                .contains(&"log".into())
        );
        let logs_only = Kinds { docs: false, ..all };
        assert_eq!(
            filters(Group::Docs, logs_only),
            Some((vec!["log".into()], vec![]))
        );
        let nothing = Kinds {
            code: false,
            comments: false,
            ..all
        };
        assert_eq!(filters(Group::Code, nothing), None);
    }
}
