//! Reading named paths (ADR-040 §5.3 rule 1, §5.4): directories expand to depth 5 under
//! maxFiles, newest first with a fifth of the picks kept for the kinds `include` prefers;
//! globs expand only with allowGlobs. A file previews as its skeleton (code), its outline
//! (documents) or its first numbered lines (anything else); its content is a document
//! section or, for view=full only, the whole file, refused (never cut) past the limits.

use crate::args::{self, DIRECTORY_DEPTH, ExploreArgs, Kinds, SectionSelector};
use crate::document_text;
use crate::envelope::{Group, ItemKind};
use crate::find::kind_name;
use crate::key::{Lines, PackKey};
use crate::meta::Meta;
use crate::smart_context::plugin::index::{
    self, SectionMode, SectionRequest, SectionSelector as WitSelector,
};
use crate::smart_context::plugin::store::{EvidenceSettings, PackItem};
use crate::smart_context::plugin::types::LineRange;
use crate::smart_context::plugin::workspace::{self, Entry, EntryKind, ReadOptions, WalkOptions};
use sdk::{ToolError, ToolResult, codes};

/// How much of a file a preview reads at most.
const PREVIEW_READ_BYTES: u64 = 256 * 1024;
/// Lines of a plain file's preview.
const PREVIEW_LINES: usize = 30;
/// Files a directory walk looks at before choosing maxFiles of them.
const WALK_CAP: u32 = 20_000;
/// The share of picks kept for preferred kinds (ADR-040 §5.4: about 20%).
const PREFERRED_SHARE: f64 = 0.2;

/// The pack items for `key.paths`: a directory item per expanded directory or glob, then
/// one item per file, in the order named. Previews are made when first shown.
pub fn expand(key: &PackKey, args: &ExploreArgs) -> ToolResult<(Vec<PackItem>, Vec<String>)> {
    if let Some(lines) = &key.lines {
        return regions(key, args, lines);
    }
    let mut items: Vec<PackItem> = Vec::new();
    let mut reasons = Vec::new();
    let role = key.role();
    for path in &key.paths {
        let (listing_of, files, cut) = if args.allow_globs && args::is_glob(path) {
            let walked = workspace::walk(
                ".",
                &WalkOptions {
                    max_depth: 64,
                    max_files: WALK_CAP,
                    glob: Some(path.clone()),
                },
            )?;
            (Some(path.clone()), walked.files, walked.truncated)
        } else {
            let entry = workspace::stat(path).map_err(|e| {
                let err: ToolError = e.into();
                if err.code == codes::FILE_NOT_FOUND && args::is_glob(path) {
                    err.suggest("to expand a glob, pass allowGlobs: true")
                } else {
                    err
                }
            })?;
            if entry.kind == EntryKind::Directory {
                let walked = workspace::walk(
                    &entry.path,
                    &WalkOptions {
                        max_depth: DIRECTORY_DEPTH,
                        max_files: WALK_CAP,
                        glob: None,
                    },
                )?;
                (Some(entry.path), walked.files, walked.truncated)
            } else {
                let mut item = target(&entry.path, role, items.len(), true, None);
                // A file of no known kind is a document when some parser outlines it.
                if !args::is_document(&entry.path)
                    && !args::is_code(&entry.path)
                    && index::doc_toc(&entry.path).is_ok()
                {
                    let mut meta = Meta::of(&item);
                    meta.group = Group::Docs;
                    item.meta_json = meta.json();
                }
                items.push(item);
                continue;
            }
        };
        let Some(listed) = listing_of else { continue };
        let total = files.len();
        let candidates: Vec<Entry> = files
            .into_iter()
            .filter(|f| args.allow_sensitive || !f.sensitive)
            .collect();
        let hidden = total - candidates.len();
        let chosen = select(candidates, args.max_files(), key.kinds, &args::is_document);
        if cut || chosen.len() < total {
            reasons.push("truncated".to_string());
        }
        items.push(directory(
            &listed,
            &chosen,
            total,
            hidden,
            cut,
            role,
            items.len(),
        ));
        for file in &chosen {
            let item = target(&file.path, role, items.len(), false, Some(file.modified_ms));
            items.push(item);
        }
    }
    Ok((items, reasons))
}

/// A region read (ADR-001 Stage 2): the asked ranges of the one named file, each widened by
/// the context lines, overlapping and adjacent ones merged, in file order, until the line
/// budget is spent. One item per merged region, its numbered lines as the preview; what was
/// left out (past the end, over the budget) is said in the last item's title.
fn regions(
    key: &PackKey,
    args: &ExploreArgs,
    lines: &Lines,
) -> ToolResult<(Vec<PackItem>, Vec<String>)> {
    let entry = workspace::stat(&key.paths[0])?;
    let path = entry.path.clone();
    if entry.kind == EntryKind::Directory {
        return Err(ToolError::new(
            codes::INVALID_ARGS,
            format!("regions read lines of a file; {path} is a directory"),
        )
        .suggest("name one file in paths, or drop regions to list the directory"));
    }
    let file = workspace::read(&path, read_options(args, args.max_bytes(), true, &path))?;
    if file.binary {
        return Err(ToolError::new(
            codes::NOT_TEXT,
            format!("{path} is not a text file; it has no lines to read"),
        )
        .suggest("read a document by its sections (explore with paths, then section.sectionId)"));
    }
    let (text, _) = sdk::decode_text(&file.bytes);
    let total = sdk::line_count(&text) as u32;
    let read_to = if file.truncated {
        format!(
            "{total} lines read of a file over limits.maxBytes {}",
            args.max_bytes()
        )
    } else {
        format!("{total} lines")
    };
    let merged = sdk::lines::merge(&lines.ranges, lines.context, total);
    let past: Vec<String> = lines
        .ranges
        .iter()
        .filter(|(start, _)| *start > total)
        .map(|(start, end)| format!("{start}-{end}"))
        .collect();
    if merged.is_empty() {
        return Err(ToolError::new(
            codes::INVALID_ARGS,
            format!(
                "lines {} are past the end of {path} ({read_to})",
                past.join(", ")
            ),
        )
        .suggest(if file.truncated {
            "raise limits.maxBytes, or ask for lines within the part read".to_string()
        } else {
            format!("ask for lines within 1-{total}")
        }));
    }
    let role = key.role();
    let mut items = Vec::new();
    let mut reasons = Vec::new();
    let mut left = lines.budget;
    let mut dropped = 0;
    for region in &merged {
        if left == 0 {
            dropped += region.asked.len();
            continue;
        }
        let end = region.end.min(region.start + left - 1);
        left -= end - region.start + 1;
        let mut item = target(&path, role, items.len(), true, Some(entry.modified_ms));
        let mut title = format!("lines {}-{end} of {read_to}", region.start);
        if end < region.end {
            title.push_str(&format!(
                "; cut at maxTotalLines {} ({} more)",
                lines.budget,
                region.end - end
            ));
            reasons.push("truncated".to_string());
        }
        let mut meta = Meta::of(&item);
        meta.title = Some(title);
        meta.asked = region.asked.clone();
        meta.total_lines = Some(total);
        item.meta_json = meta.json();
        item.chunk_id = format!("lines:{path}:{}-{end}", region.start);
        item.range = Some(LineRange {
            start: region.start,
            end,
        });
        item.preview = sdk::numbered_lines(&text, region.start as usize, end as usize);
        item.content_hash = Some(file.hash.clone());
        items.push(item);
    }
    let mut notes = Vec::new();
    if dropped > 0 {
        notes.push(format!(
            "{dropped} range(s) over maxTotalLines {} left out: raise limits.maxTotalLines",
            lines.budget
        ));
        reasons.push("truncated".to_string());
    }
    if !past.is_empty() {
        notes.push(format!("{} past the end", past.join(", ")));
    }
    if let Some(last) = items.last_mut()
        && !notes.is_empty()
    {
        let mut meta = Meta::of(last);
        let title = meta.title.take().unwrap_or_default();
        meta.title = Some(format!("{title}; {}", notes.join("; ")));
        last.meta_json = meta.json();
    }
    reasons.dedup();
    Ok((items, reasons))
}

/// A region item's lines again, from the file as it is now (after the file changed).
fn region_preview(item: &mut PackItem, args: &ExploreArgs) -> ToolResult<()> {
    let path = item.path.clone();
    let file = workspace::read(&path, read_options(args, args.max_bytes(), true, &path))?;
    let (text, _) = sdk::decode_text(&file.bytes);
    let range = item.range.unwrap_or(LineRange { start: 1, end: 1 });
    let total = sdk::line_count(&text) as u32;
    item.preview = if range.start > total {
        format!("(the file now has {total} lines; these are past its end: read it again)")
    } else {
        sdk::numbered_lines(&text, range.start as usize, range.end.min(total) as usize)
    };
    item.content_hash = Some(file.hash);
    item.updated_ms = Some(workspace::stat(&path)?.modified_ms);
    Ok(())
}

/// maxFiles of `files`, newest first, about a fifth of them reserved for the kinds `kinds`
/// prefers so a directory of fresh logs still shows its code and docs.
pub fn select(
    mut files: Vec<Entry>,
    max_files: usize,
    kinds: Kinds,
    is_document: &dyn Fn(&str) -> bool,
) -> Vec<Entry> {
    files.sort_by(|a, b| {
        b.modified_ms
            .cmp(&a.modified_ms)
            .then_with(|| a.path.cmp(&b.path))
    });
    if files.len() <= max_files {
        return files;
    }
    let reserved = ((max_files as f64) * PREFERRED_SHARE).ceil() as usize;
    let mut chosen = vec![false; files.len()];
    let mut count = 0;
    for (i, _) in files.iter().enumerate().take(max_files - reserved) {
        chosen[i] = true;
        count += 1;
    }
    // The reserve: the newest preferred files not yet chosen, then the newest of the rest.
    for pass in [true, false] {
        for (i, f) in files.iter().enumerate() {
            if count == max_files {
                break;
            }
            if !chosen[i] && (!pass || args::is_preferred(&f.path, kinds, is_document(&f.path))) {
                chosen[i] = true;
                count += 1;
            }
        }
    }
    files
        .into_iter()
        .zip(chosen)
        .filter_map(|(f, c)| c.then_some(f))
        .collect()
}

fn directory(
    path: &str,
    chosen: &[Entry],
    total: usize,
    hidden: usize,
    cut: bool,
    role: &str,
    index: usize,
) -> PackItem {
    let mut head = format!(
        "{} of {}{} files, newest first",
        chosen.len(),
        total,
        if cut { "+" } else { "" }
    );
    if hidden > 0 {
        head.push_str(&format!(
            " ({hidden} sensitive left out: allowSensitive to include)"
        ));
    }
    let listing: String = chosen
        .iter()
        .map(|f| format!("\n{}", sdk::display_path(&f.path)))
        .collect();
    let mut item = path_item(path, role, index, Group::Code, ItemKind::Directory, true);
    let mut meta = Meta::of(&item);
    meta.title = Some(head.clone());
    item.meta_json = meta.json();
    item.preview = format!("{head}{listing}");
    item
}

fn target(path: &str, role: &str, index: usize, explicit: bool, mtime: Option<u64>) -> PackItem {
    let group = if args::is_document(path) {
        Group::Docs
    } else {
        Group::Code
    };
    let mut item = path_item(path, role, index, group, ItemKind::FilePreview, explicit);
    item.updated_ms = mtime;
    item
}

/// A pack item for a named path (a directory or a file), its preview made later.
fn path_item(
    path: &str,
    role: &str,
    index: usize,
    group: Group,
    kind: ItemKind,
    explicit: bool,
) -> PackItem {
    let meta = Meta {
        group,
        kind,
        title: None,
        score: None,
        chunk_kind: None,
        explicit,
        missing: false,
        why: Vec::new(),
        asked: Vec::new(),
        total_lines: None,
        lead: false,
    };
    let prefix = if kind == ItemKind::Directory {
        "dir"
    } else {
        "file"
    };
    PackItem {
        role: role.to_string(),
        rank: index as u32 + 1,
        chunk_id: format!("{prefix}:{path}"),
        path: path.to_string(),
        kind: kind_name(kind),
        section_id: String::new(),
        heading_path: Vec::new(),
        range: None,
        preview: String::new(),
        content_hash: None,
        updated_ms: None,
        scores_json: None,
        meta_json: meta.json(),
        shown: String::new(),
    }
}

fn read_options(
    args: &ExploreArgs,
    max_bytes: u64,
    allow_truncate: bool,
    path: &str,
) -> ReadOptions {
    ReadOptions {
        max_bytes,
        allow_sensitive: args.allow_sensitive,
        // Documents (PDF, DOCX, XLSX) are binary containers their parsers read.
        allow_binary: args.allow_binary || args::is_document(path),
        allow_truncate,
    }
}

/// Makes a file item's preview (and its snapshot): the skeleton of code, the outline of a
/// document, else the first numbered lines.
pub fn preview(
    item: &mut PackItem,
    args: &ExploreArgs,
    settings: &EvidenceSettings,
) -> ToolResult<()> {
    if !Meta::of(item).asked.is_empty() {
        return region_preview(item, args);
    }
    let path = item.path.clone();
    let read_cap = PREVIEW_READ_BYTES.min(args.max_bytes());
    let file = workspace::read(&path, read_options(args, read_cap, true, &path))?;
    let stat = workspace::stat(&path)?;
    item.content_hash = Some(file.hash.clone());
    item.updated_ms = Some(stat.modified_ms);
    let mut meta = Meta::of(item);
    // Documents, binaries a parser may claim and text of no known code kind (a third-party
    // parser's extension, plain notes) read as an outline when a parser takes them.
    let structured = !args::is_code(&path);
    let outlined = if structured {
        outline(&path, settings)?
    } else {
        None
    };
    let (text, range) = if let Some(outline) = outlined {
        meta.title = outline.1;
        (outline.0, None)
    } else if file.binary && !args::is_document(&path) {
        (format!("(binary file, {} bytes)", file.size), None)
    } else if let Ok(skeleton) = index::skeleton(&path) {
        let head = format!(
            "{} lines, {} definitions ({}); view=full for the whole file\n",
            skeleton.line_count, skeleton.definitions, skeleton.language
        );
        (head + &skeleton.text, Some((1, skeleton.line_count.max(1))))
    } else {
        let (text, _) = sdk::decode_text(&file.bytes);
        let total = sdk::line_count(&text);
        let shown = total.min(PREVIEW_LINES);
        let mut body = sdk::numbered_lines(&text, 1, shown);
        if shown < total || file.truncated {
            body.push_str("… view=full for the whole file\n");
        }
        (body, Some((1, shown.max(1) as u32)))
    };
    item.preview = text;
    item.range = range.map(|(start, end)| LineRange { start, end });
    item.meta_json = meta.json();
    Ok(())
}

/// A document's outline: one line per section (id, pages or lines, size, first words), at
/// most SMART_CONTEXT_DOC_SKELETON_MAX_CHARS, and its title. None when no parser handles it.
fn outline(
    path: &str,
    settings: &EvidenceSettings,
) -> ToolResult<Option<(String, Option<String>)>> {
    let toc = match index::doc_toc(path) {
        Ok(toc) => toc,
        Err(err) if err.code == codes::NO_PARSER => return Ok(None),
        Err(err) => return Err(err.into()),
    };
    // Section summaries from the index's chunk cache, matched by first line.
    let summaries: Vec<(u32, String)> = index::file_chunks(path, SectionMode::Summary, 160)
        .map(|chunks| {
            chunks
                .into_iter()
                .map(|c| (c.range.start, first_line(&c.preview)))
                .collect()
        })
        .unwrap_or_default();
    let cap = settings.doc_skeleton_max_chars as usize;
    let mut out = format!(
        "{} {} sections; read one with section.sectionId\n",
        toc.kind,
        toc.entries.len()
    );
    for (shown, entry) in toc.entries.iter().enumerate() {
        let place = match entry.page {
            Some(page) => format!("p.{page}"),
            None => format!("{}-{}", entry.range.start, entry.range.end),
        };
        let heading = if entry.heading_path.is_empty() {
            "(preamble)".to_string()
        } else {
            entry.heading_path.join(" > ")
        };
        let summary = summaries
            .iter()
            .find(|(start, _)| *start == entry.range.start)
            .map(|(_, s)| format!(": {s}"))
            .unwrap_or_default();
        let line = format!(
            "§{} {place} {heading} ({} chars){summary}\n",
            entry.id, entry.chars
        );
        if out.chars().count() + line.chars().count() > cap {
            out.push_str(&format!(
                "… {} more sections (SMART_CONTEXT_DOC_SKELETON_MAX_CHARS={cap})\n",
                toc.entries.len() - shown
            ));
            break;
        }
        out.push_str(&line);
    }
    Ok(Some((out, toc.title)))
}

fn first_line(text: &str) -> String {
    let line = text
        .lines()
        .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .unwrap_or_default();
    sdk::short_preview(line, 120)
}

/// A whole file for view=full.
pub struct Whole {
    pub text: String,
    pub size: u64,
    pub hash: String,
    pub lossy: bool,
    /// Set when `text` is a parsed document's text (a PDF's pages, a workbook's sheets), not
    /// the file's bytes.
    pub document: Option<DocumentText>,
}

/// What a document's full text came from.
pub struct DocumentText {
    pub format: String,
    pub sections: usize,
    /// What its parser lost or guessed.
    pub warnings: Vec<String>,
}

/// A whole file as text, for view=full, or TOO_LARGE past maxBytes. A file that is text reads
/// as itself (markdown keeps its lines); a binary or container document (PDF, DOCX, XLSX:
/// anything a parser takes) as its parsed text; the bytes of a binary file only with
/// allowBinary.
pub fn full(path: &str, args: &ExploreArgs) -> ToolResult<Whole> {
    let options = ReadOptions {
        allow_binary: true,
        ..read_options(args, args.max_bytes(), false, path)
    };
    let file = workspace::read(path, options)?;
    let (text, lossy) = sdk::decode_text(&file.bytes);
    let whole = |text: String, lossy: bool, document: Option<DocumentText>| Whole {
        text,
        size: file.size,
        hash: file.hash.clone(),
        lossy,
        document,
    };
    if args.allow_binary || !(file.binary || lossy || args::is_container(path)) {
        return Ok(whole(text, lossy, None));
    }
    match index::parse_document(path) {
        Ok(doc) => {
            let info = DocumentText {
                format: doc.kind.clone(),
                sections: doc.sections.len(),
                warnings: doc.warnings.clone(),
            };
            Ok(whole(document_text::render(&doc), false, Some(info)))
        }
        // Text in another encoding: the decoded text, marked lossy, as before.
        Err(err) if err.code == codes::NO_PARSER && !file.binary => Ok(whole(text, lossy, None)),
        Err(err) if err.code == codes::NO_PARSER => Err(ToolError::new(
            codes::BINARY_BLOCKED,
            format!("{path} is a binary file and no document parser reads it"),
        )
        .suggest("pass allowBinary: true to read its bytes")),
        Err(err) => Err(err.into()),
    }
}

/// One section of a document, raw, subsections included when asked.
pub fn section(
    path: &str,
    selector: &SectionSelector,
) -> ToolResult<(String, Vec<String>, LineRange, String)> {
    let wit = match (&selector.section_id, &selector.heading_path) {
        (Some(id), _) => WitSelector::Id(id.clone()),
        (None, Some(heading)) => WitSelector::HeadingPath(heading.clone()),
        (None, None) => {
            return Err(ToolError::new(
                codes::INVALID_ARGS,
                "section needs sectionId or headingPath",
            )
            .suggest("read the document without section to see its section ids"));
        }
    };
    let view = index::doc_section(
        path,
        &wit,
        SectionRequest {
            mode: SectionMode::Raw,
            max_chars: u32::MAX,
            subsections: selector.include_subsections,
        },
    )?;
    Ok((
        view.section.text,
        view.section.heading_path,
        LineRange {
            start: view.section.start_line,
            end: view.section.end_line,
        },
        view.section.id,
    ))
}

/// A chunk's lines, numbered: what view=section shows of a code hit.
pub fn lines(path: &str, range: &LineRange, args: &ExploreArgs) -> ToolResult<String> {
    let file = workspace::read(path, read_options(args, args.max_bytes(), true, path))?;
    let (text, _) = sdk::decode_text(&file.bytes);
    Ok(sdk::numbered_lines(
        &text,
        range.start as usize,
        range.end as usize,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, modified_ms: u64) -> Entry {
        Entry {
            path: path.into(),
            kind: EntryKind::File,
            size: 1,
            modified_ms,
            sensitive: false,
        }
    }

    fn by_name(path: &str) -> bool {
        path.ends_with(".md")
    }

    #[test]
    fn selection_is_newest_first_with_a_reserve_for_preferred_kinds() {
        let mut files: Vec<Entry> = (0..20)
            .map(|i| file(&format!("logs/{i}.out"), 100 + i))
            .collect();
        files.push(file("src/old.rs", 1));
        files.push(file("docs/old.md", 2));
        let kinds = Kinds {
            docs: true,
            code: true,
            comments: true,
            logs: true,
        };
        let chosen: Vec<String> = select(files.clone(), 10, kinds, &by_name)
            .into_iter()
            .map(|f| f.path)
            .collect();
        assert_eq!(chosen.len(), 10);
        assert_eq!(chosen[0], "logs/19.out", "newest first");
        assert!(chosen.contains(&"src/old.rs".to_string()), "{chosen:?}");
        assert!(chosen.contains(&"docs/old.md".to_string()), "{chosen:?}");
        let code_only = Kinds {
            docs: false,
            ..kinds
        };
        let chosen: Vec<String> = select(files.clone(), 10, code_only, &by_name)
            .into_iter()
            .map(|f| f.path)
            .collect();
        assert!(!chosen.contains(&"docs/old.md".to_string()), "{chosen:?}");
        assert_eq!(
            select(files, 100, kinds, &by_name).len(),
            22,
            "all when they fit"
        );
    }
}
