//! Cutting files into search chunks: code at symbol granularity (each innermost definition,
//! and the lines between definitions grouped by their enclosing one), doc comments, document
//! sections and blocks of plain text. Chunk ids are stable: derived from the path, the kind,
//! the symbol or heading path and an ordinal, never from line numbers.

use super::code::Symbol;
use std::collections::HashMap;

/// Chunk kinds besides document formats (which use the parser's name: markdown, pdf, ...).
pub mod kind {
    pub const CODE: &str = "code";
    pub const CODE_COMMENT: &str = "code_comment";
    pub const TEXT: &str = "text";
}

/// Lines of plain text per chunk, and the most lines a code gap chunk spans.
const TEXT_BLOCK_LINES: usize = 60;

/// One unit of search.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    pub id: String,
    /// Which chunk of its kind and key in the file it is (1 on): with the path, the kind and
    /// the symbol it makes the id again ([`derived_id`]), so the search index need not keep
    /// the id. 0 where the id is made otherwise (document sections).
    pub ordinal: u32,
    pub kind: String,
    /// The symbol a code chunk belongs to (`Opener::new`), or None at module level.
    pub symbol: Option<String>,
    pub heading_path: Vec<String>,
    pub start_line: u32,
    pub end_line: u32,
    pub page: Option<u32>,
    pub body: String,
    /// Where the body is in its file's text (byte offset and length), when it is exactly
    /// lines `start_line..=end_line` of it: the search index then keeps its hash and reads
    /// it back from the file (see `source_text`).
    pub span: Option<(u64, u64)>,
}

/// Assigns stable ids: the same (path, kind, key) gets ordinals in order of appearance.
struct Ids<'a> {
    path: &'a str,
    seen: HashMap<(String, String), u32>,
}

impl<'a> Ids<'a> {
    fn new(path: &'a str) -> Self {
        Self {
            path,
            seen: HashMap::new(),
        }
    }

    /// The next id for (kind, key), and its ordinal.
    fn next(&mut self, kind: &str, key: &str) -> (String, u32) {
        let ordinal = self
            .seen
            .entry((kind.to_string(), key.to_string()))
            .or_default();
        *ordinal += 1;
        (chunk_id(self.path, kind, key, *ordinal), *ordinal)
    }
}

/// The id a chunk's path, kind, symbol and ordinal make, as [`Ids`] makes it for code and
/// text chunks (keyed by their symbol, or by nothing).
pub fn derived_id(path: &str, kind: &str, symbol: Option<&str>, ordinal: u32) -> String {
    chunk_id(path, kind, symbol.unwrap_or(""), ordinal)
}

/// The id of the `ordinal`-th chunk of `kind` keyed `key` in `path`.
pub fn chunk_id(path: &str, kind: &str, key: &str, ordinal: u32) -> String {
    let mut hasher = blake3::Hasher::new();
    for part in [path, kind, key, &ordinal.to_string()] {
        hasher.update(part.as_bytes());
        hasher.update(&[0]);
    }
    hasher.finalize().to_hex()[..20].to_string()
}

fn qualified(symbol: &Symbol) -> String {
    match &symbol.container {
        Some(c) => format!("{c}::{}", symbol.name),
        None => symbol.name.clone(),
    }
}

/// Code chunks for a source file with its extracted symbols (in source order).
pub fn code_chunks(path: &str, source: &str, symbols: &[Symbol]) -> Vec<Chunk> {
    let lines: Vec<&str> = source.lines().collect();
    let n = lines.len() as u32;
    let mut ids = Ids::new(path);
    let mut out = Vec::new();
    // Innermost definitions: those that contain no other definition. Symbols come in source
    // order with containers first, so a symbol contains another only if its successor is
    // inside it.
    let contains =
        |s: &Symbol, o: &Symbol| o.start_line >= s.start_line && o.end_line <= s.end_line && o != s;
    let is_leaf = |i: usize| {
        symbols
            .get(i + 1)
            .is_none_or(|next| !contains(&symbols[i], next))
    };
    let mut covered = vec![false; n as usize + 2];
    for (i, symbol) in symbols.iter().enumerate() {
        if !is_leaf(i) {
            continue;
        }
        let (start, end) = (symbol.start_line.max(1), symbol.end_line.min(n));
        if start > end {
            continue;
        }
        (start..=end).for_each(|l| covered[l as usize] = true);
        let key = qualified(symbol);
        let (id, ordinal) = ids.next(kind::CODE, &key);
        out.push(Chunk {
            id,
            ordinal,
            kind: kind::CODE.into(),
            symbol: Some(key),
            heading_path: Vec::new(),
            start_line: start,
            end_line: end,
            page: None,
            body: join(&lines, start, end),
            span: None,
        });
    }
    // The rest, cut wherever a definition starts or ends so each piece has one owner: the
    // innermost definition around its lines (members overwrite their containers).
    let mut owners: Vec<Option<usize>> = vec![None; n as usize + 2];
    for (i, s) in symbols.iter().enumerate() {
        for line in s.start_line.max(1)..=s.end_line.min(n) {
            owners[line as usize] = Some(i);
        }
    }
    let mut boundaries = vec![false; n as usize + 2];
    for s in symbols {
        boundaries[(s.start_line as usize).min(n as usize + 1)] = true;
        boundaries[(s.end_line as usize + 1).min(n as usize + 1)] = true;
    }
    let mut line = 1;
    while line <= n {
        if covered[line as usize] {
            line += 1;
            continue;
        }
        let start = line;
        line += 1;
        while line <= n
            && !covered[line as usize]
            && !boundaries[line as usize]
            && (line - start) < TEXT_BLOCK_LINES as u32
        {
            line += 1;
        }
        let (mut start, mut end) = (start, line - 1);
        while start <= end && lines[start as usize - 1].trim().is_empty() {
            start += 1;
        }
        while end > start && lines[end as usize - 1].trim().is_empty() {
            end -= 1;
        }
        if start > end {
            continue;
        }
        let body = join(&lines, start, end);
        let owner = owners[start as usize].map(|i| qualified(&symbols[i]));
        let (id, ordinal) = ids.next(kind::CODE, owner.as_deref().unwrap_or(""));
        out.push(Chunk {
            id,
            ordinal,
            kind: kind::CODE.into(),
            symbol: owner,
            heading_path: Vec::new(),
            start_line: start,
            end_line: end,
            page: None,
            body,
            span: None,
        });
    }
    for symbol in symbols {
        let Some(doc) = &symbol.doc else { continue };
        let key = qualified(symbol);
        let (id, ordinal) = ids.next(kind::CODE_COMMENT, &key);
        out.push(Chunk {
            id,
            ordinal,
            kind: kind::CODE_COMMENT.into(),
            symbol: Some(key.clone()),
            heading_path: vec![key],
            start_line: doc.start_line,
            end_line: doc.end_line,
            page: None,
            body: doc.text.clone(),
            span: None,
        });
    }
    out.sort_by_key(|c| (c.start_line, c.kind != kind::CODE_COMMENT));
    out
}

/// Blocks of lines for a file no parser or grammar handles.
pub fn text_chunks(path: &str, source: &str) -> Vec<Chunk> {
    let lines: Vec<&str> = source.lines().collect();
    let mut ids = Ids::new(path);
    lines
        .chunks(TEXT_BLOCK_LINES)
        .enumerate()
        .filter(|(_, block)| block.iter().any(|l| !l.trim().is_empty()))
        .map(|(i, block)| {
            let start = (i * TEXT_BLOCK_LINES) as u32 + 1;
            let (id, ordinal) = ids.next(kind::TEXT, "");
            Chunk {
                id,
                ordinal,
                kind: kind::TEXT.into(),
                symbol: None,
                heading_path: Vec::new(),
                start_line: start,
                end_line: start + block.len() as u32 - 1,
                page: None,
                body: block.join("\n"),
                span: None,
            }
        })
        .collect()
}

/// A document section as a chunk; its id is the section id, qualified by the path.
pub fn section_chunk(
    path: &str,
    format: &str,
    section_id: &str,
    heading_path: Vec<String>,
    lines: (u32, u32),
    page: Option<u32>,
    text: String,
) -> Chunk {
    Chunk {
        id: chunk_id(path, "section", section_id, 0),
        ordinal: 0,
        kind: format.to_string(),
        symbol: None,
        heading_path,
        start_line: lines.0,
        end_line: lines.1,
        page,
        body: text,
        span: None,
    }
}

fn join(lines: &[&str], start: u32, end: u32) -> String {
    lines[(start - 1) as usize..end as usize].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::code::{Language, extract};

    #[test]
    fn code_is_cut_at_definitions_and_ids_survive_edits_elsewhere() {
        let src = "import os\n\nclass A:\n    \"\"\"Doc.\"\"\"\n    x = 1\n\n    def f(self):\n        return 1\n\n    def g(self):\n        return 2\n\nprint(A())\n";
        let symbols = extract(Language::Python, src).symbols;
        let chunks = code_chunks("m.py", src, &symbols);
        let summary: Vec<(String, Option<String>, u32, u32)> = chunks
            .iter()
            .map(|c| (c.kind.clone(), c.symbol.clone(), c.start_line, c.end_line))
            .collect();
        assert_eq!(
            summary,
            [
                ("code".into(), None, 1, 1),
                ("code".into(), Some("A".into()), 3, 5),
                ("code_comment".into(), Some("A".into()), 4, 4),
                ("code".into(), Some("A::f".into()), 7, 8),
                ("code".into(), Some("A::g".into()), 10, 11),
                ("code".into(), None, 13, 13),
            ]
        );
        let edited = src.replace("import os\n", "import os\nimport sys\n");
        let again = code_chunks("m.py", &edited, &extract(Language::Python, &edited).symbols);
        let f = |cs: &[Chunk]| {
            cs.iter()
                .find(|c| c.symbol.as_deref() == Some("A::f"))
                .unwrap()
                .id
                .clone()
        };
        assert_eq!(f(&chunks), f(&again));
    }

    #[test]
    fn text_blocks_skip_blank_stretches() {
        let text = format!("a\n{}b\n", "\n".repeat(130));
        let chunks = text_chunks("t.txt", &text);
        assert_eq!(chunks.len(), 2);
        assert_eq!((chunks[0].start_line, chunks[1].start_line), (1, 121));
    }
}
