//! Reading named paths: directories as entry lists, documents as sections, files as numbered
//! previews, and whole files only for view=full, refused (never cut) past the limits.

use crate::args::{ExploreArgs, PREVIEW_LINES, View, is_document};
use crate::envelope::{Budget, Item, ItemKind, Range, Response, Status};
use crate::smart_context::plugin::index;
use crate::smart_context::plugin::types::{Document, Section};
use crate::smart_context::plugin::workspace::{self, EntryKind, ReadOptions};
use sdk::{ToolError, ToolResult, codes};

/// How much of a file a preview reads at most.
const PREVIEW_READ_BYTES: u64 = 256 * 1024;

pub fn run(args: &ExploreArgs, paths: &[String]) -> Response {
    let mut response = Response::ok();
    let item_cap = if args.view() == View::Full {
        args.max_chars()
    } else {
        args.max_item_chars(paths.len())
    };
    let mut budget = Budget::new(args.max_chars(), item_cap);
    for path in paths {
        if let Err(err) = read_path(args, path, &mut budget, &mut response) {
            return Response::from_error(err);
        }
        if response.status == Status::Blocked {
            return response;
        }
    }
    response
}

fn read_path(
    args: &ExploreArgs,
    path: &str,
    budget: &mut Budget,
    response: &mut Response,
) -> ToolResult<()> {
    let entry = workspace::stat(path)?;
    if entry.kind == EntryKind::Directory {
        return list_directory(args, &entry.path, budget, response);
    }
    if args.wants_full(path) {
        return read_full(args, &entry.path, budget, response);
    }
    // Whatever a parser plugin handles reads as sections by default; NO_PARSER means a file.
    let as_document = match args.view() {
        View::Auto | View::Section => true,
        View::Preview => args.section.is_some(),
        View::Full => false,
    };
    if as_document {
        match index::parse_document(&entry.path) {
            Ok(doc) => return read_document(args, &entry.path, &doc, budget, response),
            Err(err) if err.code == codes::NO_PARSER && args.section.is_none() => {}
            Err(err) => return Err(err.into()),
        }
    }
    preview_file(args, &entry.path, budget, response)
}

fn list_directory(
    args: &ExploreArgs,
    path: &str,
    budget: &mut Budget,
    response: &mut Response,
) -> ToolResult<()> {
    let entries = workspace::list_dir(path)?;
    let shown = entries.len().min(args.max_files());
    let listing: String = entries[..shown]
        .iter()
        .map(|e| {
            let suffix = if e.kind == EntryKind::Directory {
                "/"
            } else {
                ""
            };
            format!("{}{suffix}\n", e.path)
        })
        .collect();
    let (preview, cut) = budget.take(&listing);
    if cut || shown < entries.len() {
        response.degrade("truncated");
    }
    let mut item = Item::new(ItemKind::Directory, path)
        .meta("entries", entries.len())
        .meta("shown", preview.lines().count());
    item.preview = Some(preview);
    response.push(false, item);
    Ok(())
}

/// A whole file, or status blocked when it does not fit what is left of limits.maxChars (the
/// budget is shared by every path of the call): never a cut file.
fn read_full(
    args: &ExploreArgs,
    path: &str,
    budget: &mut Budget,
    response: &mut Response,
) -> ToolResult<()> {
    let file = workspace::read(path, read_options(args, args.max_bytes(), false))?;
    let (text, lossy) = sdk::decode_text(&file.bytes);
    let chars = text.chars().count();
    if !budget.reserve(chars) {
        let used = args.max_chars() - budget.remaining();
        *response = Response::failed(
            Status::Blocked,
            format!(
                "{path} has {chars} chars; with {used} already in this response that is over limits.maxChars {}",
                args.max_chars()
            ),
        );
        response.code = Some(codes::TOO_LARGE.into());
        response.suggestion = Some(format!(
            "raise limits.maxChars to at least {}, read fewer paths at once, or read a preview or section instead",
            used + chars
        ));
        return Ok(());
    }
    let lines = sdk::line_count(&text) as u32;
    let mut item = Item::new(ItemKind::FileFull, path)
        .meta("bytes", file.size)
        .meta("lines", lines)
        .meta("hash", file.hash);
    if lossy {
        item = item.meta("lossyUtf8", true);
    }
    if file.binary {
        item = item.meta("binary", true);
    }
    item.range = Some(Range {
        start_line: 1,
        end_line: lines.max(1),
    });
    item.content = Some(text);
    response.push(is_document(path), item);
    Ok(())
}

fn preview_file(
    args: &ExploreArgs,
    path: &str,
    budget: &mut Budget,
    response: &mut Response,
) -> ToolResult<()> {
    let read_cap = PREVIEW_READ_BYTES.min(args.max_bytes());
    let file = workspace::read(path, read_options(args, read_cap, true))?;
    let mut item = Item::new(ItemKind::FilePreview, path)
        .meta("bytes", file.size)
        .meta("hash", file.hash.clone());
    if file.binary {
        item = item.meta("binary", true);
        item.preview = Some(format!("(binary file, {} bytes)", file.size));
        response.push(false, item);
        return Ok(());
    }
    let (text, lossy) = sdk::decode_text(&file.bytes);
    let total = sdk::line_count(&text);
    let shown = total.min(PREVIEW_LINES);
    let (preview, cut) = budget.take(&sdk::numbered_lines(&text, 1, shown));
    if cut {
        response.degrade("budget_exceeded");
        response.degrade("truncated");
    }
    let shown = preview.lines().count() as u32;
    if !file.truncated {
        item = item.meta("lines", total);
    }
    if lossy {
        item = item.meta("lossyUtf8", true);
    }
    item.range = Some(Range {
        start_line: 1,
        end_line: shown.max(1),
    });
    item.preview = Some(preview);
    if (shown as usize) < total || file.truncated {
        item.why
            .push("preview: ask view=full for the whole file".into());
    }
    response.push(is_document(path), item);
    Ok(())
}

fn read_document(
    args: &ExploreArgs,
    path: &str,
    doc: &Document,
    budget: &mut Budget,
    response: &mut Response,
) -> ToolResult<()> {
    let Some(selector) = &args.section else {
        return section_list(path, doc, budget, response);
    };
    let section = doc
        .sections
        .iter()
        .find(|s| {
            selector.section_id.as_deref() == Some(s.id.as_str())
                || selector.heading_path.as_deref() == Some(s.heading_path.as_slice())
        })
        .ok_or_else(|| {
            let ids: Vec<&str> = doc.sections.iter().map(|s| s.id.as_str()).collect();
            ToolError::new(codes::NOT_FOUND, format!("no such section in {path}"))
                .suggest(
                    "pick a sectionId from the document's section list (explore with paths only)",
                )
                .details(serde_json::json!({ "sectionIds": ids }))
        })?;
    let text = if selector.include_subsections {
        subsection_text(doc, section)
    } else {
        section.text.clone()
    };
    let (content, cut) = budget.take(&text);
    if cut {
        response.degrade("budget_exceeded");
        response.degrade("truncated");
    }
    let mut item = section_item(path, section);
    item.content = Some(content);
    response.push(true, item);
    Ok(())
}

fn section_list(
    path: &str,
    doc: &Document,
    budget: &mut Budget,
    response: &mut Response,
) -> ToolResult<()> {
    for section in &doc.sections {
        if budget.exhausted() {
            response.degrade("budget_exceeded");
            break;
        }
        let head: Vec<&str> = section
            .text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(3)
            .collect();
        let preview: String = head
            .iter()
            .map(|l| sdk::short_preview(l, 160) + "\n")
            .collect();
        let (preview, cut) = budget.take(&preview);
        if cut {
            response.degrade("truncated");
        }
        let mut item = section_item(path, section);
        item.preview = Some(preview);
        response.push(true, item);
    }
    Ok(())
}

fn section_item(path: &str, section: &Section) -> Item {
    let mut item = Item::new(ItemKind::DocumentSection, path)
        .meta("sectionId", section.id.clone())
        .meta("headingPath", section.heading_path.clone())
        .meta("level", section.level);
    item.title = Some(if section.heading_path.is_empty() {
        "(preamble)".to_string()
    } else {
        section.heading_path.join(" > ")
    });
    item.range = Some(Range {
        start_line: section.start_line,
        end_line: section.end_line,
    });
    item
}

/// A section with its subsections: its own text plus the text of every later section inside
/// its line range.
fn subsection_text(doc: &Document, section: &Section) -> String {
    doc.sections
        .iter()
        .filter(|s| s.start_line >= section.start_line && s.end_line <= section.end_line)
        .map(|s| s.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn read_options(args: &ExploreArgs, max_bytes: u64, allow_truncate: bool) -> ReadOptions {
    ReadOptions {
        max_bytes,
        allow_sensitive: args.allow_sensitive,
        allow_binary: args.allow_binary,
        allow_truncate,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(id: &str, start: u32, end: u32, text: &str) -> Section {
        Section {
            id: id.into(),
            heading_path: vec![id.into()],
            level: 1,
            text: text.into(),
            start_line: start,
            end_line: end,
            page: None,
        }
    }

    #[test]
    fn subsections_are_gathered_by_range() {
        let doc = Document {
            title: None,
            kind: "markdown".into(),
            sections: vec![
                section("a", 1, 4, "A"),
                section("b", 3, 4, "B"),
                section("c", 5, 6, "C"),
            ],
            links: vec![],
            metadata: vec![],
            warnings: vec![],
        };
        assert_eq!(subsection_text(&doc, &doc.sections[0]), "A\nB");
    }
}
