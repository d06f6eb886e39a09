//! Finding: the query runs against the host's BM25 index of chunks (scoped to `paths` when
//! given); each hit is one chunk with its best-matching line as the preview, documents and
//! code in their own groups, each capped at maxResults.

use crate::args::ExploreArgs;
use crate::envelope::{Budget, Item, ItemKind, Range, Response};
use crate::smart_context::plugin::index::{self, ChunkHit, SearchOptions};

/// Chunk kinds that belong to the code group; every other kind is a document or text.
fn is_code(kind: &str) -> bool {
    kind == "code" || kind == "code_comment"
}

pub fn run(args: &ExploreArgs, query: &str) -> Response {
    let max_results = args.max_results();
    let scopes: Vec<Option<String>> = if args.paths.is_empty() {
        vec![None]
    } else {
        args.paths.iter().cloned().map(Some).collect()
    };
    let mut response = Response::ok();
    response.query = Some(query.to_string());
    let mut budget = Budget::new(args.max_chars(), args.max_item_chars(max_results * 2));
    let (mut total, mut more) = (0u64, false);
    let mut hits: Vec<ChunkHit> = Vec::new();
    for scope in scopes {
        let options = SearchOptions {
            kinds: Vec::new(),
            languages: Vec::new(),
            // Both groups draw from one ranking; ask for enough to fill each.
            max_results: (max_results * 2).min(1000) as u32,
            path_prefix: scope,
        };
        let result = match index::search(query, &options) {
            Ok(result) => result,
            Err(err) => return Response::from_error(err.into()),
        };
        total += result.total;
        more |= result.total > result.hits.len() as u64;
        for reason in &result.reasons {
            response.degrade(reason);
        }
        hits.extend(result.hits);
    }
    hits.sort_by(|a, b| b.score.total_cmp(&a.score));
    for hit in hits {
        let document = !is_code(&hit.kind);
        let wanted = if document {
            args.include_docs()
        } else {
            args.include_code()
        };
        let group = if document {
            &response.data.docs
        } else {
            &response.data.code
        };
        if !wanted || group.len() >= max_results {
            more |= wanted;
            continue;
        }
        if budget.exhausted() {
            response.degrade("budget_exceeded");
            break;
        }
        let (preview, cut) = budget.take(&format!("{}| {}", hit.snippet_line, hit.snippet));
        if cut {
            response.degrade("truncated");
        }
        let kind = if document {
            ItemKind::DocumentSection
        } else {
            ItemKind::FilePreview
        };
        let mut item = Item::new(kind, &hit.path)
            .meta("chunkId", hit.chunk_id.as_str())
            .meta("chunkKind", hit.kind.as_str())
            .meta("score", (f64::from(hit.score) * 1000.0).round() / 1000.0);
        if let Some(language) = &hit.language {
            item = item.meta("language", language.as_str());
        }
        item.title = hit
            .symbol
            .clone()
            .or_else(|| (!hit.heading_path.is_empty()).then(|| hit.heading_path.join(" > ")));
        item.range = Some(Range {
            start_line: hit.range.start,
            end_line: hit.range.end,
        });
        item.preview = Some(preview);
        item.why.push("bm25".into());
        if let Some(symbol) = &hit.symbol {
            item.why.push(format!("in {symbol}"));
        }
        response.push(document, item);
    }
    response.stats.insert("matches".into(), total.into());
    if more {
        response.stats.insert("moreResults".into(), true.into());
    }
    response
}
