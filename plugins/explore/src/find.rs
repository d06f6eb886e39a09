//! Finding: the query runs against the host's BM25 index of chunks (scoped to `paths` when
//! given), once for code and once for documents and text so neither group crowds out the
//! other; each hit is one chunk with its best-matching line as the preview, each group capped
//! at maxResults.

use crate::args::ExploreArgs;
use crate::envelope::{Budget, Item, ItemKind, Range, Response};
use crate::smart_context::plugin::index::{self, ChunkHit, SearchOptions};

/// The chunk kinds of the code group; every other kind is a document or text.
const CODE_KINDS: [&str; 2] = ["code", "code_comment"];

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
    let groups = [(false, args.include_code()), (true, args.include_docs())];
    for (document, wanted) in groups {
        if !wanted {
            continue;
        }
        let mut hits: Vec<ChunkHit> = Vec::new();
        for scope in &scopes {
            let codes: Vec<String> = CODE_KINDS.iter().map(|k| k.to_string()).collect();
            let (kinds, exclude_kinds) = if document {
                (Vec::new(), codes)
            } else {
                (codes, Vec::new())
            };
            let options = SearchOptions {
                kinds,
                exclude_kinds,
                languages: Vec::new(),
                path_prefix: scope.clone(),
                max_results: max_results.min(1000) as u32,
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
        // Several scopes: keep the best across them.
        hits.sort_by(|a, b| b.score.total_cmp(&a.score));
        more |= hits.len() > max_results;
        hits.truncate(max_results);
        for hit in hits {
            if budget.exhausted() {
                response.degrade("budget_exceeded");
                break;
            }
            let (preview, cut) = budget.take(&format!("{}| {}", hit.snippet_line, hit.snippet));
            if cut {
                response.degrade("truncated");
            }
            response.push(document, item(hit, document, preview));
        }
    }
    response.stats.insert("matches".into(), total.into());
    if more {
        response.stats.insert("moreResults".into(), true.into());
    }
    response
}

fn item(hit: ChunkHit, document: bool, preview: String) -> Item {
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
    if let Some(symbol) = hit.symbol {
        item.why.push(format!("in {symbol}"));
    }
    item
}
