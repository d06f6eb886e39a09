//! Previews of indexed chunks (ADR-038 §7): deterministic and extractive, no model. A preview
//! has a query-independent part, cached in `chunk_summaries` until the chunk's content hash
//! changes, and the lines holding the query's words, chosen per call:
//! - code: signature first, then the lines holding query words, numbered `N| ` in line order;
//! - documents and text: the lines holding query words first, then the section's headings,
//!   notices, bullets and paragraph openings ([`digest`]).

use super::digest::{self, Mode};
use rusqlite::{Connection, OptionalExtension, params};

/// Query lines a preview brings forward at most.
const QUERY_LINES: usize = 4;
/// Characters of one preview line at most.
const LINE_CHARS: usize = 200;
/// The code extract's format, part of what a cached one is valid for: `+i` keeps
/// indentation past the chunk's own.
const EXTRACT_FORMAT: &str = "+i";

/// What a chunk preview is made from.
pub struct Source<'a> {
    pub chunk_id: &'a str,
    /// The file the chunk is in.
    pub path: &'a str,
    pub body: &'a str,
    pub start_line: u32,
    /// Code gets numbered signature-first previews; everything else reads as prose.
    pub code: bool,
}

/// A rendered preview and the facts a caller snapshots with it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Preview {
    pub text: String,
    /// Lines the preview would have kept were left out to stay within the cap.
    pub truncated: bool,
    pub file_hash: String,
    pub file_mtime_ms: u64,
}

/// The cached, query-independent part for `mode` (summary or preview) at the mode's default
/// cap: the signature for code, the digest for prose.
fn extract(source: &Source, mode: Mode) -> String {
    if source.code {
        signature(source.body, source.start_line)
    } else {
        digest::render(source.body, mode, 0).0
    }
}

/// The declaration line of a code chunk and the first doc-comment line above it, numbered.
fn signature(body: &str, start_line: u32) -> String {
    let base = base_indent(body);
    let mut doc: Option<String> = None;
    for (i, line) in body.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with("#[") || t.starts_with('@') && !t.contains('(') {
            continue;
        }
        let number = start_line + i as u32;
        let kept = dedent(line, base);
        if is_comment(t) {
            let text = t.trim_start_matches(['/', '*', '#', '!', ' ', '"']).trim();
            if doc.is_none() && !text.is_empty() {
                doc = Some(numbered(number, kept));
            }
            continue;
        }
        return match doc {
            Some(doc) => format!("{doc}\n{}", numbered(number, kept)),
            None => numbered(number, kept),
        };
    }
    doc.unwrap_or_default()
}

/// The indentation every non-blank line of a chunk shares (a method's, inside its class):
/// previews drop it and keep the rest, so nesting (Python's blocks) stays visible at the
/// least cost.
fn base_indent(body: &str) -> usize {
    body.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start_matches([' ', '\t']).len())
        .min()
        .unwrap_or(0)
}

/// `line` without the first `base` bytes of its indentation (spaces or tabs).
fn dedent(line: &str, base: usize) -> &str {
    let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
    &line[indent.min(base)..]
}

fn is_comment(t: &str) -> bool {
    t.starts_with("//")
        || t.starts_with("/*")
        || t.starts_with('*')
        || t.starts_with('#') && !t.starts_with("#include") && !t.starts_with("#define")
        || t.starts_with("\"\"\"")
}

fn numbered(number: u32, line: &str) -> String {
    format!("{number}| {}", super::clip(line.trim_end(), LINE_CHARS))
}

/// The lines of `body` holding any of `needles` (lower-case), as (line number, text): code
/// keeps its indentation past the chunk's own, prose is trimmed.
fn query_lines(body: &str, start_line: u32, needles: &[String], code: bool) -> Vec<(u32, String)> {
    if needles.is_empty() {
        return Vec::new();
    }
    let base = if code { base_indent(body) } else { 0 };
    body.lines()
        .enumerate()
        .filter(|(_, line)| {
            let lower = line.to_lowercase();
            !line.trim().is_empty() && needles.iter().any(|n| lower.contains(n.as_str()))
        })
        .take(QUERY_LINES)
        .map(|(i, line)| {
            let text = if code {
                dedent(line, base).trim_end()
            } else {
                line.trim()
            };
            (start_line + i as u32, text.to_string())
        })
        .collect()
}

/// The preview of `source` for `needles` within `cap` characters, from its cached `extract`.
pub fn render(source: &Source, extract: &str, needles: &[String], cap: usize) -> (String, bool) {
    let found = query_lines(source.body, source.start_line, needles, source.code);
    let lines: Vec<String> = if source.code {
        // Signature and query lines in line order, each once.
        let mut numbered_lines: Vec<(u32, String)> = extract
            .lines()
            .filter_map(|l| {
                let (n, text) = l.split_once("| ")?;
                Some((n.parse().ok()?, text.to_string()))
            })
            .collect();
        for (n, text) in found {
            if !numbered_lines.iter().any(|(m, _)| *m == n) {
                numbered_lines.push((n, text));
            }
        }
        numbered_lines.sort_by_key(|(n, _)| *n);
        numbered_lines
            .into_iter()
            .map(|(n, text)| numbered(n, &text))
            .collect()
    } else {
        let mut lines: Vec<String> = found
            .into_iter()
            .map(|(_, text)| super::clip(&text, LINE_CHARS))
            .collect();
        for line in extract.lines() {
            if !lines.iter().any(|l| l == line) {
                lines.push(line.to_string());
            }
        }
        lines
    };
    fit(&lines, cap)
}

/// Whole lines, in order, while they fit `cap` (the first one cut when it alone does not).
fn fit(lines: &[String], cap: usize) -> (String, bool) {
    let mut out = String::new();
    let mut used = 0;
    for (i, line) in lines.iter().enumerate() {
        let n = line.chars().count() + usize::from(i > 0);
        if used + n > cap {
            if out.is_empty() {
                out = super::clip(line, cap.max(1));
            }
            return (out, true);
        }
        if i > 0 {
            out.push('\n');
        }
        out.push_str(line);
        used += n;
    }
    (out, false)
}

/// The cache's name for a mode and kind of chunk.
fn style(mode: Mode, code: bool) -> &'static str {
    match (mode, code) {
        (_, true) => "signature",
        (Mode::Summary, false) => "summary",
        _ => "preview",
    }
}

/// The preview of one chunk: its cached extract when the chunk's content hash still matches
/// (else a fresh one, stored best-effort), rendered for `needles` within `cap`. None when the
/// chunk's file is no longer in the catalogue.
pub fn preview(
    conn: &Connection,
    source: &Source,
    mode: Mode,
    needles: &[String],
    cap: usize,
) -> rusqlite::Result<Option<Preview>> {
    let style = style(mode, source.code);
    if mode == Mode::Raw {
        // The text itself is not summarized, so there is nothing to cache.
        let hashes = file_facts(conn, source.path)?;
        return Ok(hashes.map(|(file_hash, mtime)| {
            let (text, truncated) = digest::render(source.body, Mode::Raw, cap);
            Preview {
                text,
                truncated,
                file_hash,
                file_mtime_ms: mtime,
            }
        }));
    }
    let row = conn
        .query_row(
            "SELECT f.hash, f.mtime_ms, s.summary, s.content_hash
             FROM files f
             LEFT JOIN chunk_summaries s ON s.chunk_id = ?1 AND s.style = ?2
             WHERE f.path = ?3",
            params![source.chunk_id, style, source.path],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, Option<String>>(3)?,
                ))
            },
        )
        .optional()?;
    let Some((file_hash, mtime, cached, cached_hash)) = row else {
        return Ok(None);
    };
    let content_hash = blake3::hash(source.body.as_bytes()).to_hex()[..32].to_string();
    // A code extract is numbered: the same chunk moved down by an edit above it needs its
    // lines numbered anew, so its first line is part of what the cached extract is valid for
    // (and `EXTRACT_FORMAT`, so extracts cached in an older format are made again).
    let valid_for = match source.code {
        true => format!("{content_hash}@{}{EXTRACT_FORMAT}", source.start_line),
        false => content_hash,
    };
    let extract = match cached {
        Some(text) if cached_hash.as_deref() == Some(valid_for.as_str()) => text,
        _ => {
            let text = extract(source, mode);
            store(conn, source, style, &text, &valid_for);
            text
        }
    };
    let (text, truncated) = render(source, &extract, needles, cap);
    Ok(Some(Preview {
        text,
        truncated,
        file_hash,
        file_mtime_ms: mtime as u64,
    }))
}

/// The hash and mtime of a chunk's file, if it is still catalogued.
fn file_facts(conn: &Connection, path: &str) -> rusqlite::Result<Option<(String, u64)>> {
    conn.query_row(
        "SELECT hash, mtime_ms FROM files WHERE path = ?1",
        [path],
        |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)),
    )
    .optional()
}

/// Caches an extract. Best-effort: a pass holding the write lock must not stall a search, so
/// this gives up at once when the database is busy (the next call recomputes it).
fn store(conn: &Connection, source: &Source, style: &str, text: &str, content_hash: &str) {
    let _ = conn.busy_timeout(std::time::Duration::ZERO);
    let result = conn.execute(
        "INSERT INTO chunk_summaries (chunk_id, style, summary, created_at, content_hash, path)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
         ON CONFLICT(chunk_id, style)
         DO UPDATE SET summary = ?3, created_at = ?4, content_hash = ?5, path = ?6",
        params![
            source.chunk_id,
            style,
            text,
            crate::store::now_ms() as i64,
            content_hash,
            source.path
        ],
    );
    let _ = conn.busy_timeout(std::time::Duration::from_secs(10));
    if let Err(err) = result {
        tracing::debug!("caching the preview of {}: {err}", source.chunk_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CODE: &str = "/// Finds things.\n#[inline]\npub fn find(query: &str) -> Vec<Hit> {\n    let parsed = parse(query);\n    let mut hits = Vec::new();\n    search_index(&parsed, &mut hits);\n    hits\n}\n";

    fn code() -> Source<'static> {
        Source {
            chunk_id: "c",
            path: "a.rs",
            body: CODE,
            start_line: 10,
            code: true,
        }
    }

    #[test]
    fn code_keeps_its_nesting_past_the_chunks_own_indentation() {
        // A method inside a class: its own indentation goes, its blocks' stays.
        let body = "    def parse(self, body):\n        \"\"\"Parse the body.\"\"\"\n        if body:\n            return self.read(body)\n        return None\n";
        let source = Source {
            chunk_id: "m",
            path: "m.py",
            body,
            start_line: 40,
            code: true,
        };
        let extract = extract(&source, Mode::Preview);
        assert_eq!(extract, "40| def parse(self, body):");
        let (text, _) = render(&source, &extract, &["read".into(), "none".into()], 500);
        assert_eq!(
            text,
            "40| def parse(self, body):\n43|         return self.read(body)\n44|     return None"
        );
    }

    #[test]
    fn code_is_signature_first_with_query_lines_numbered_in_order() {
        let extract = extract(&code(), Mode::Preview);
        assert_eq!(
            extract,
            "10| /// Finds things.\n12| pub fn find(query: &str) -> Vec<Hit> {"
        );
        let (text, cut) = render(&code(), &extract, &["search_index".into()], 500);
        assert_eq!(
            text,
            "10| /// Finds things.\n12| pub fn find(query: &str) -> Vec<Hit> {\n15|     search_index(&parsed, &mut hits);"
        );
        assert!(!cut);
        // The signature line matches too: it appears once.
        let (text, _) = render(&code(), &extract, &["find".into()], 500);
        assert_eq!(text.matches("12|").count(), 1, "{text}");
    }

    #[test]
    fn prose_brings_query_lines_first_and_fits_the_cap() {
        let body =
            "# Setup\n\nInstall it with cargo.\nThe flux capacitor needs 1.21 GW.\n\n- step one\n";
        let source = Source {
            chunk_id: "d",
            path: "d.md",
            body,
            start_line: 1,
            code: false,
        };
        let extract = extract(&source, Mode::Preview);
        let (text, cut) = render(&source, &extract, &["flux".into()], 500);
        assert!(
            text.starts_with("The flux capacitor needs 1.21 GW."),
            "{text}"
        );
        assert!(text.contains("# Setup") && !cut);
        let (short, cut) = render(&source, &extract, &["flux".into()], 40);
        assert!(cut && short.chars().count() <= 40, "{short}");
    }

    #[test]
    fn cache_is_reused_until_the_content_hash_changes() {
        let conn = Connection::open_in_memory().unwrap();
        let mut conn = conn;
        crate::store::migrate_for_tests(&mut conn);
        conn.execute_batch(
            "INSERT INTO files (id, path, hash, size, mtime_ms, kind, indexed_ms) VALUES (1, 'a.rs', 'fh', 1, 5, 'code', 1);",
        )
        .unwrap();
        let first = preview(&conn, &code(), Mode::Preview, &[], 500)
            .unwrap()
            .unwrap();
        assert_eq!((first.file_hash.as_str(), first.file_mtime_ms), ("fh", 5));
        // A cached extract is used as is while the hash matches...
        conn.execute("UPDATE chunk_summaries SET summary = '1| cached'", [])
            .unwrap();
        let again = preview(&conn, &code(), Mode::Preview, &[], 500)
            .unwrap()
            .unwrap();
        assert_eq!(again.text, "1| cached");
        // ...and rebuilt once the chunk changed.
        let edited = CODE.replace("parse(query)", "parse(query.trim())");
        let changed = Source {
            body: &edited,
            ..code()
        };
        let fresh = preview(&conn, &changed, Mode::Preview, &[], 500)
            .unwrap()
            .unwrap();
        assert_eq!(fresh.text, first.text);
        assert_ne!(fresh.text, again.text);
        // A chunk whose file left the catalogue has no preview.
        let missing = Source {
            path: "gone.rs",
            ..code()
        };
        assert!(
            preview(&conn, &missing, Mode::Preview, &[], 500)
                .unwrap()
                .is_none()
        );
    }
}
