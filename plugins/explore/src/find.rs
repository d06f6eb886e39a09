//! Finding: a query scans the workspace (scoped to `paths` when given) and returns one line
//! preview per hit, documents and code in their own groups, each capped at maxResults.

use crate::args::{ExploreArgs, is_document};
use crate::envelope::{Budget, Item, ItemKind, Range, Response};
use crate::smart_context::plugin::index::{self, SearchOptions};

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
    let (mut files_scanned, mut more) = (0u32, false);
    for scope in scopes {
        let options = SearchOptions {
            case_sensitive: false,
            // Both groups draw from one scan; ask for enough to fill each.
            max_results: (max_results * 2).min(u32::MAX as usize) as u32,
            path_prefix: scope,
        };
        let result = match index::search(query, &options) {
            Ok(result) => result,
            Err(err) => return Response::from_error(err.into()),
        };
        files_scanned += result.files_scanned;
        more |= result.truncated;
        for hit in result.hits {
            let document = is_document(&hit.path);
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
            let (preview, cut) = budget.take(&format!("{}| {}", hit.line, hit.preview));
            if cut {
                response.degrade("truncated");
            }
            let mut item = Item::new(ItemKind::FilePreview, &hit.path).meta("column", hit.column);
            item.range = Some(Range {
                start_line: hit.line,
                end_line: hit.line,
            });
            item.preview = Some(preview);
            item.why.push("literal match".into());
            response.push(document, item);
        }
    }
    response
        .stats
        .insert("filesScanned".into(), files_scanned.into());
    if more {
        response.stats.insert("moreResults".into(), true.into());
    }
    response
}
