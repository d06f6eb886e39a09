//! What a format parser produces, in plain Rust types: the parsing logic of every parser crate
//! returns these, so it runs (and is tested and benchmarked) natively as well as inside its
//! component, where [`export_parser!`](crate::export_parser) converts them to the WIT records.

use std::collections::HashMap;

/// The warning a parser gives when it decoded invalid UTF-8 lossily; the host counts such
/// files as lossy by it.
pub const LOSSY_WARNING: &str = "invalid UTF-8 replaced with U+FFFD";

/// A parsed document: sections in reading order, links for references, metadata (front
/// matter, document properties) and warnings about what was lost.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Document {
    pub title: Option<String>,
    /// The format: markdown, text, log, pdf, docx, xlsx.
    pub kind: String,
    pub sections: Vec<Section>,
    pub links: Vec<Link>,
    pub metadata: Vec<(String, String)>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Section {
    /// Stable: the heading path's slugs joined by `/`, `~N` for the Nth repeat.
    pub id: String,
    pub heading_path: Vec<String>,
    /// Heading depth, 0 for text outside any heading.
    pub level: u8,
    /// The section's own text, without its subsections.
    pub text: String,
    /// 1-based lines of the document's text (the file's lines for text formats, the extracted
    /// text's lines for binary ones).
    pub start_line: u32,
    /// Last line including subsections.
    pub end_line: u32,
    pub page: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Link {
    pub section_id: String,
    pub target: String,
    pub text: String,
}

/// Hands out section ids: slugs of the heading path joined by `/`, with `~2`, `~3` ... for
/// repeats, so an id survives edits to other sections.
#[derive(Debug, Default)]
pub struct SectionIds {
    seen: HashMap<String, u32>,
}

impl SectionIds {
    /// The id for a section under `heading_path` (`fallback` when the path is empty).
    pub fn for_path(&mut self, heading_path: &[String], fallback: &str) -> String {
        let base = if heading_path.is_empty() {
            fallback.to_string()
        } else {
            heading_path
                .iter()
                .map(|t| slug(t))
                .collect::<Vec<_>>()
                .join("/")
        };
        self.unique(base)
    }

    /// `base`, or `base~N` when it was handed out before.
    pub fn unique(&mut self, base: String) -> String {
        let ordinal = self.seen.entry(base.clone()).or_insert(0);
        *ordinal += 1;
        if *ordinal == 1 {
            base
        } else {
            format!("{base}~{ordinal}")
        }
    }
}

/// A lower-case, dash-separated id fragment: "Getting Started!" -> "getting-started".
pub fn slug(title: &str) -> String {
    let mut out = String::new();
    for c in title.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 64 {
            break;
        }
    }
    let trimmed = out.trim_end_matches('-');
    if trimmed.is_empty() {
        "section".to_string()
    } else {
        trimmed.to_string()
    }
}

/// Builds a document from a stream of lines and headings, for formats whose text is produced
/// while parsing (PDF, DOCX, plain text): it numbers the lines, nests heading paths and computes
/// each section's end line (up to the next heading at the same or a higher level).
#[derive(Debug)]
pub struct OutlineBuilder {
    ids: SectionIds,
    stack: Vec<(u8, String)>,
    sections: Vec<Section>,
    /// Per section: opened by a heading, so it spans its deeper successors.
    nests: Vec<bool>,
    links: Vec<Link>,
    lines: u32,
    page: Option<u32>,
    chars: usize,
    max_chars: usize,
    truncated: bool,
}

impl OutlineBuilder {
    /// `max_chars` caps the text kept in all (a huge spreadsheet still yields a document).
    pub fn new(max_chars: usize) -> Self {
        Self {
            ids: SectionIds::default(),
            stack: Vec::new(),
            sections: Vec::new(),
            nests: Vec::new(),
            links: Vec::new(),
            lines: 0,
            page: None,
            chars: 0,
            max_chars,
            truncated: false,
        }
    }

    /// The page later sections start on.
    pub fn set_page(&mut self, page: u32) {
        self.page = Some(page);
    }

    /// Opens a section under a heading of `level` (1 = top), closing deeper ones. The heading
    /// itself is the section's first line.
    pub fn heading(&mut self, level: u8, title: &str) {
        self.heading_line(level, title, title);
    }

    /// Like [`heading`](Self::heading), with the section's first line given separately (an
    /// overline, a numbered heading as written).
    pub fn heading_line(&mut self, level: u8, title: &str, first_line: &str) {
        let level = level.max(1);
        while self.stack.last().is_some_and(|(l, _)| *l >= level) {
            self.stack.pop();
        }
        self.stack.push((level, title.trim().to_string()));
        let path: Vec<String> = self.stack.iter().map(|(_, t)| t.clone()).collect();
        let id = self.ids.for_path(&path, "preamble");
        self.open(id, path, level, true);
        self.line(first_line);
    }

    /// The heading path of the section being written.
    pub fn current_path(&self) -> Vec<String> {
        self.sections
            .last()
            .map(|s| s.heading_path.clone())
            .unwrap_or_default()
    }

    /// Opens a section with an explicit id and path (pages, sheets, log bursts). It ends where
    /// its own text ends: these sections do not nest.
    pub fn section(&mut self, id_base: &str, heading_path: Vec<String>, level: u8) {
        let id = self.ids.unique(id_base.to_string());
        self.open(id, heading_path, level, false);
    }

    fn open(&mut self, id: String, heading_path: Vec<String>, level: u8, nests: bool) {
        self.nests.push(nests);
        self.sections.push(Section {
            id,
            heading_path,
            level,
            text: String::new(),
            start_line: self.lines + 1,
            end_line: self.lines,
            page: self.page,
        });
    }

    /// Appends one line of text to the current section (a preamble is opened when none is).
    /// Returns false once the character cap is reached; the line is then dropped.
    pub fn line(&mut self, text: &str) -> bool {
        if self.chars + text.len() > self.max_chars {
            self.truncated = true;
            return false;
        }
        if self.sections.is_empty() {
            self.open("preamble".into(), Vec::new(), 0, false);
        }
        self.chars += text.len() + 1;
        self.lines += 1;
        let section = self.sections.last_mut().expect("opened above");
        if section.end_line >= section.start_line {
            section.text.push('\n');
        }
        section.text.push_str(text);
        section.end_line = self.lines;
        true
    }

    /// Lines of `text`, each appended with [`line`](Self::line).
    pub fn lines(&mut self, text: &str) -> bool {
        text.lines().all(|l| self.line(l))
    }

    /// Records a link out of the current section.
    pub fn link(&mut self, target: &str, text: &str) {
        let section_id = self
            .sections
            .last()
            .map_or_else(|| "preamble".to_string(), |s| s.id.clone());
        self.links.push(Link {
            section_id,
            target: target.to_string(),
            text: text.trim().to_string(),
        });
    }

    /// The id of the section being written, if any.
    pub fn current_id(&self) -> Option<&str> {
        self.sections.last().map(|s| s.id.as_str())
    }

    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// The document: empty sections without a heading dropped, end lines extended over
    /// subsections.
    pub fn finish(self, kind: &str) -> Document {
        let (sections, nests): (Vec<Section>, Vec<bool>) = self
            .sections
            .into_iter()
            .zip(self.nests)
            .filter(|(s, _)| !(s.heading_path.is_empty() && s.text.trim().is_empty()))
            .unzip();
        let mut sections = sections;
        for i in 0..sections.len() {
            let level = sections[i].level;
            if level == 0 || !nests[i] {
                continue;
            }
            let nested_end = sections[i + 1..]
                .iter()
                .take_while(|s| s.level > level)
                .map(|s| s.end_line)
                .max();
            if let Some(end) = nested_end {
                sections[i].end_line = sections[i].end_line.max(end);
            }
        }
        let mut warnings = Vec::new();
        if self.truncated {
            warnings.push(format!(
                "text cut at {} characters; later content is not indexed",
                self.max_chars
            ));
        }
        Document {
            title: None,
            kind: kind.to_string(),
            sections,
            links: self.links,
            metadata: Vec::new(),
            warnings,
        }
    }
}

/// Converts between these types and a parser component's generated WIT types, and exports
/// the component with its spec declared (see [`crate::spec`]). `$parser` is a type with
/// `const SPEC: sdk::doc::ParserSpec` and
/// `fn parse(&[u8], &str) -> sdk::ToolResult<sdk::doc::Document>`; invoke it after
/// `wit_bindgen::generate!` of the format-parser world.
#[macro_export]
macro_rules! export_parser {
    ($parser:ty) => {
        #[cfg_attr(target_family = "wasm", unsafe(link_section = "smart-context:spec"))]
        #[used]
        static SMART_CONTEXT_SPEC: [u8; $crate::spec::parser_len(&<$parser>::SPEC)] =
            $crate::spec::parser_json(&<$parser>::SPEC);

        mod __component {
            use super::exports::smart_context::plugin::parser as wit_parser;
            use super::smart_context::plugin::types as wit;

            $crate::impl_error_conversions!(wit::Error);

            struct Component;

            impl wit_parser::Guest for Component {
                fn describe() -> wit_parser::ParserSpec {
                    let spec = <$parser>::SPEC;
                    wit_parser::ParserSpec {
                        format: spec.format.to_string(),
                        extensions: spec.extensions.iter().map(|e| e.to_string()).collect(),
                        signatures: spec.signatures.iter().map(|s| s.to_vec()).collect(),
                        text_fallback: spec.text_fallback,
                    }
                }

                fn parse(bytes: Vec<u8>, path: String) -> Result<wit::Document, wit::Error> {
                    $crate::install_panic_log(|message| {
                        super::smart_context::plugin::log::log(
                            super::smart_context::plugin::log::Level::Error,
                            message,
                        )
                    });
                    let doc = <$parser>::parse(&bytes, &path)?;
                    Ok(wit::Document {
                        title: doc.title,
                        kind: doc.kind,
                        sections: doc
                            .sections
                            .into_iter()
                            .map(|s| wit::Section {
                                id: s.id,
                                heading_path: s.heading_path,
                                level: s.level,
                                text: s.text,
                                start_line: s.start_line,
                                end_line: s.end_line,
                                page: s.page,
                            })
                            .collect(),
                        links: doc
                            .links
                            .into_iter()
                            .map(|l| wit::Link {
                                section_id: l.section_id,
                                target: l.target,
                                text: l.text,
                            })
                            .collect(),
                        metadata: doc.metadata,
                        warnings: doc.warnings,
                    })
                }
            }

            super::export!(Component with_types_in super);
        }
    };
}

/// What a parser declares to the host's registry.
#[derive(Debug, Clone, Copy)]
pub struct ParserSpec {
    /// The document kind it produces.
    pub format: &'static str,
    /// Lower-case extensions without the dot.
    pub extensions: &'static [&'static str],
    /// Leading bytes that identify the format whatever the file is called.
    pub signatures: &'static [&'static [u8]],
    /// Reads text files no other parser claims.
    pub text_fallback: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_slugged_paths_with_ordinals() {
        let mut ids = SectionIds::default();
        let path = vec!["Getting Started!".to_string(), "Linux".to_string()];
        assert_eq!(ids.for_path(&path, "x"), "getting-started/linux");
        assert_eq!(ids.for_path(&path, "x"), "getting-started/linux~2");
        assert_eq!(ids.for_path(&[], "preamble"), "preamble");
        assert_eq!(slug("¿?"), "section");
    }

    #[test]
    fn outline_nests_and_numbers_lines() {
        let mut b = OutlineBuilder::new(1 << 20);
        b.line("intro");
        b.heading(1, "Title");
        b.line("text");
        b.heading(2, "Part");
        b.lines("a\nb");
        b.link("https://x", "x");
        b.heading(1, "Next");
        let doc = b.finish("docx");
        let ids: Vec<_> = doc.sections.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["preamble", "title", "title/part", "next"]);
        let title = &doc.sections[1];
        assert_eq!((title.start_line, title.end_line), (2, 6));
        assert_eq!(title.text, "Title\ntext");
        assert_eq!(doc.sections[2].heading_path, ["Title", "Part"]);
        assert_eq!(doc.links[0].section_id, "title/part");
    }

    #[test]
    fn outline_stops_at_its_cap() {
        let mut b = OutlineBuilder::new(10);
        assert!(b.line("12345"));
        assert!(!b.line("67890"));
        let doc = b.finish("text");
        assert_eq!(doc.sections[0].text, "12345");
        assert_eq!(doc.warnings.len(), 1);
    }
}
