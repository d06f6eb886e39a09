//! Markdown to sections, independent of the WIT bindings so it is tested natively.

use pulldown_cmark::{Event, HeadingLevel, MetadataBlockKind, Options, Parser, Tag, TagEnd};
use sdk::doc::{Document, Link, Section, SectionIds};

struct Heading {
    level: u8,
    title: String,
    line: u32,
}

/// Splits a markdown text at its headings. Text before the first heading (if any) becomes a
/// level-0 "preamble" section. A section's end line includes its subsections; its text does not.
pub fn parse(text: &str) -> Document {
    let line_starts = line_starts(text);
    let line_of = |offset: usize| line_starts.partition_point(|&s| s <= offset) as u32;
    let total_lines = line_starts.len() as u32;

    let options = Options::ENABLE_TABLES
        | Options::ENABLE_FOOTNOTES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_YAML_STYLE_METADATA_BLOCKS
        | Options::ENABLE_PLUSES_DELIMITED_METADATA_BLOCKS;
    let mut metadata: Vec<(String, String)> = Vec::new();
    let mut in_metadata: Option<MetadataBlockKind> = None;
    let mut headings: Vec<Heading> = Vec::new();
    let mut raw_links: Vec<(u32, String, String)> = Vec::new();
    let mut open_heading: Option<(u8, u32, String)> = None;
    let mut open_link: Option<(u32, String, String)> = None;

    for (event, range) in Parser::new_ext(text, options).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                open_heading = Some((heading_depth(level), line_of(range.start), String::new()));
            }
            Event::End(TagEnd::Heading(_)) => {
                if let Some((level, line, title)) = open_heading.take() {
                    headings.push(Heading {
                        level,
                        title: title.trim().to_string(),
                        line,
                    });
                }
            }
            Event::Start(Tag::Link { dest_url, .. }) => {
                open_link = Some((line_of(range.start), dest_url.to_string(), String::new()));
            }
            Event::End(TagEnd::Link) => {
                if let Some(link) = open_link.take() {
                    raw_links.push(link);
                }
            }
            Event::Start(Tag::MetadataBlock(kind)) => in_metadata = Some(kind),
            Event::End(TagEnd::MetadataBlock(_)) => in_metadata = None,
            Event::Text(t) if in_metadata.is_some() => {
                let separator = match in_metadata {
                    Some(MetadataBlockKind::PlusesStyle) => '=',
                    _ => ':',
                };
                metadata.extend(front_matter(&t, separator));
            }
            Event::Text(t) | Event::Code(t) => {
                if let Some((_, _, title)) = open_heading.as_mut() {
                    title.push_str(&t);
                }
                if let Some((_, _, link_text)) = open_link.as_mut() {
                    link_text.push_str(&t);
                }
            }
            _ => {}
        }
    }

    let lines: Vec<&str> = text.lines().collect();
    let slice = |start: u32, end: u32| -> String {
        let (s, e) = (start.max(1) as usize - 1, (end as usize).min(lines.len()));
        if s >= e {
            String::new()
        } else {
            lines[s..e].join("\n")
        }
    };

    let mut sections = Vec::new();
    let first_heading_line = headings.first().map_or(total_lines + 1, |h| h.line);
    if first_heading_line > 1 {
        let preamble = slice(1, first_heading_line - 1);
        if !preamble.trim().is_empty() {
            sections.push(Section {
                id: "preamble".to_string(),
                heading_path: Vec::new(),
                level: 0,
                text: preamble,
                start_line: 1,
                end_line: first_heading_line - 1,
                page: None,
            });
        }
    }

    let mut stack: Vec<(u8, String)> = Vec::new();
    let mut ids = SectionIds::default();
    for (i, heading) in headings.iter().enumerate() {
        while stack
            .last()
            .is_some_and(|(level, _)| *level >= heading.level)
        {
            stack.pop();
        }
        stack.push((heading.level, heading.title.clone()));
        let heading_path: Vec<String> = stack.iter().map(|(_, t)| t.clone()).collect();
        let next_any = headings.get(i + 1).map_or(total_lines + 1, |h| h.line);
        let next_outer = headings[i + 1..]
            .iter()
            .find(|h| h.level <= heading.level)
            .map_or(total_lines + 1, |h| h.line);
        let id = ids.for_path(&heading_path, "preamble");
        sections.push(Section {
            id,
            heading_path,
            level: heading.level,
            text: slice(heading.line, next_any - 1),
            start_line: heading.line,
            end_line: (next_outer - 1).max(heading.line),
            page: None,
        });
    }

    let links = raw_links
        .into_iter()
        .map(|(line, target, text)| {
            let owner = sections
                .iter()
                .rev()
                .find(|s| s.start_line <= line)
                .map_or_else(|| "preamble".to_string(), |s| s.id.clone());
            Link {
                section_id: owner,
                target,
                text,
            }
        })
        .collect();

    let title = headings
        .iter()
        .find(|h| h.level == 1)
        .map(|h| h.title.clone())
        .or_else(|| {
            metadata
                .iter()
                .find(|(k, _)| k == "title")
                .map(|(_, v)| v.clone())
        });
    Document {
        title,
        kind: "markdown".to_string(),
        sections,
        links,
        metadata,
        warnings: Vec::new(),
    }
}

/// Top-level `key: value` (YAML) or `key = value` (TOML) pairs of a front matter block;
/// nested structures are kept as their first line.
fn front_matter(block: &str, separator: char) -> Vec<(String, String)> {
    block
        .lines()
        .filter(|l| !l.starts_with([' ', '\t', '#', '-']))
        .filter_map(|l| l.split_once(separator))
        .map(|(k, v)| {
            let v = v.trim().trim_matches(['"', '\'']);
            (k.trim().to_string(), v.to_string())
        })
        .filter(|(k, _)| !k.is_empty())
        .collect()
}

fn heading_depth(level: HeadingLevel) -> u8 {
    match level {
        HeadingLevel::H1 => 1,
        HeadingLevel::H2 => 2,
        HeadingLevel::H3 => 3,
        HeadingLevel::H4 => 4,
        HeadingLevel::H5 => 5,
        HeadingLevel::H6 => 6,
    }
}

/// Byte offset where each line starts.
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    starts.extend(
        text.match_indices('\n')
            .map(|(i, _)| i + 1)
            .filter(|&i| i < text.len()),
    );
    starts
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "intro line\n\n# Title\n\ntext\n\n## Install\n\nsee [guide](docs/guide.md)\n\n### Linux\n\napt\n\n## Usage\n\nrun it\n";

    #[test]
    fn nests_sections_with_paths_and_ranges() {
        let p = parse(DOC);
        assert_eq!(p.title.as_deref(), Some("Title"));
        let ids: Vec<_> = p.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "preamble",
                "title",
                "title/install",
                "title/install/linux",
                "title/usage"
            ]
        );
        let install = &p.sections[2];
        assert_eq!(install.heading_path, ["Title", "Install"]);
        assert_eq!((install.start_line, install.end_line), (7, 14));
        assert!(install.text.contains("see [guide]") && !install.text.contains("apt"));
        let title = &p.sections[1];
        assert_eq!((title.start_line, title.end_line), (3, 17));
        assert_eq!(p.sections[4].end_line, 17);
    }

    #[test]
    fn links_belong_to_their_section() {
        let p = parse(DOC);
        assert_eq!(p.links.len(), 1);
        assert_eq!(p.links[0].section_id, "title/install");
        assert_eq!(p.links[0].target, "docs/guide.md");
        assert_eq!(p.links[0].text, "guide");
    }

    #[test]
    fn duplicate_headings_get_ordinals() {
        let p = parse("# A\n## x\n## x\n");
        let ids: Vec<_> = p.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["a", "a/x", "a/x~2"]);
    }

    #[test]
    fn front_matter_is_metadata_not_a_heading() {
        let p = parse("---\ntitle: \"Guide\"\ntags:\n  - a\n---\n# Real\n");
        assert_eq!(p.sections.iter().filter(|s| s.level > 0).count(), 1);
        assert_eq!(p.sections.last().unwrap().heading_path, ["Real"]);
        assert_eq!(
            p.metadata,
            [("title".into(), "Guide".into()), ("tags".into(), "".into())]
        );
        let toml = parse("+++\ntitle = \"T\"\n+++\ntext\n");
        assert_eq!(toml.metadata, [("title".into(), "T".into())]);
        assert_eq!(toml.title.as_deref(), Some("T"));
    }

    #[test]
    fn fenced_code_stays_verbatim() {
        let p = parse("# A\n\n```rust\nfn x() {\n    # not a heading\n}\n```\n");
        assert_eq!(p.sections.len(), 1);
        assert!(
            p.sections[0]
                .text
                .contains("```rust\nfn x() {\n    # not a heading\n}\n```")
        );
    }

    #[test]
    fn empty_input_has_no_sections() {
        let p = parse("");
        assert!(p.sections.is_empty() && p.title.is_none());
    }
}
