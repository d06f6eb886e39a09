//! The text of chunks the search index does not keep. A chunk that is lines of its file's
//! text (code, plain text, most markdown) is indexed but not stored: the index keeps where
//! it is in the file and a hash of it, and a search reads those bytes back, through the
//! workspace authority like every read, when it shows the chunk. The file is the copy;
//! keeping a second one was most of the index's bytes on a large tree. A chunk whose bytes
//! no longer hash as indexed is looked up by its lines in the whole file (a line added above
//! moved it; a secret-looking value above it changed the file's view), and when those do not
//! hash as indexed either (the file changed, and the next pass has not read it yet) it is not
//! shown with someone else's text. Chunks a document parser made (PDF pages, spreadsheet
//! rows, doc comments without their markers) are stored as before.

use crate::workspace::{ReadOptions, Workspace};
use rayon::prelude::*;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::Arc;

use super::chunks::Chunk;
use super::fulltext::Hit;

/// Bits of a packed span given to the length: a chunk of up to 16 MiB, at an offset of up to
/// 1 TiB (files over the index's size limit are not indexed).
const LENGTH_BITS: u32 = 24;

/// The byte spans of a text's lines, split as chunking splits them (`str::lines`: at `\n`,
/// a trailing `\r` dropped).
fn line_spans(text: &str) -> Vec<(usize, usize)> {
    let base = text.as_ptr() as usize;
    text.lines()
        .map(|line| {
            let start = line.as_ptr() as usize - base;
            (start, start + line.len())
        })
        .collect()
}

/// Lines `start..=end` (1-based) of `text` joined by `\n`, as a chunk's body is made; None
/// when the range is not within the text.
fn lines_of(text: &str, spans: &[(usize, usize)], start: u32, end: u32) -> Option<String> {
    if start == 0 || start > end {
        return None;
    }
    let picked = spans.get(start as usize - 1..end as usize)?;
    let mut out = String::with_capacity(picked.iter().map(|(a, b)| b - a + 1).sum());
    for (i, (a, b)) in picked.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&text[*a..*b]);
    }
    Some(out)
}

/// A piece of a file read back (whole lines, the last without its line end), as a chunk's
/// body is made of it: its lines joined by `\n`, each without the `\r` of a `\r\n` end.
fn as_body(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut pieces = text.split('\n').peekable();
    let mut out = String::with_capacity(text.len());
    while let Some(line) = pieces.next() {
        match pieces.peek() {
            Some(_) => {
                out.push_str(line.strip_suffix('\r').unwrap_or(line));
                out.push('\n');
            }
            None => out.push_str(line),
        }
    }
    out
}

/// What a chunk not stored is kept as: enough of its text's hash that a changed file is told
/// apart.
pub fn body_hash(body: &str) -> u64 {
    let hash = blake3::hash(body.as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&hash.as_bytes()[..8]);
    u64::from_le_bytes(first)
}

/// A span with the byte before it and the two after it: what tells whole lines.
fn with_line_ends(span: &Range<u64>) -> Range<u64> {
    span.start.saturating_sub(1)..span.end.saturating_add(2)
}

/// The text of a piece read with [`with_line_ends`], when it is the whole lines the chunk
/// says (`start_line..=end_line`, that many): it starts a line and ends one. The index says
/// where to read, and an index is files under the root that anyone could have written; a
/// piece cut inside a line (a few bytes of a token, past the prefix the secret guard knows
/// it by) is never shown, whatever hash the index holds for it.
fn whole_lines(bytes: &[u8], span: &Range<u64>, chunk: &Wanted) -> Option<String> {
    let lead = usize::from(span.start > 0);
    if lead == 1 && bytes.first() != Some(&b'\n') {
        return None;
    }
    let length = usize::try_from(span.end - span.start).ok()?;
    let body = bytes.get(lead..lead.checked_add(length)?)?;
    let after = &bytes[lead + length..];
    if !(after.is_empty() || after[0] == b'\n' || after.starts_with(b"\r\n")) {
        return None;
    }
    let text = as_body(body);
    let lines = chunk.end_line.checked_sub(chunk.start_line)? as usize + 1;
    (text.split('\n').count() == lines).then_some(text)
}

/// A chunk's span (byte offset and length in its file's text) as one number for the index.
pub fn pack_span((offset, length): (u64, u64)) -> u64 {
    offset << LENGTH_BITS | length
}

fn unpack_span(packed: u64) -> Range<u64> {
    let offset = packed >> LENGTH_BITS;
    offset..offset + (packed & ((1 << LENGTH_BITS) - 1))
}

/// Gives the chunks of a file whose body is exactly lines of its `text` (the file's text as
/// [`SourceFiles::text`] reads it) their span: only those can be read back instead of kept.
pub fn mark_verbatim(text: &str, chunks: &mut [Chunk]) {
    let spans = line_spans(text);
    for chunk in chunks {
        let (start, end) = (chunk.start_line as usize, chunk.end_line as usize);
        let same = lines_of(text, &spans, chunk.start_line, chunk.end_line)
            .is_some_and(|lines| lines == chunk.body);
        chunk.span = same
            .then(|| {
                (
                    spans[start - 1].0 as u64,
                    (spans[end - 1].1 - spans[start - 1].0) as u64,
                )
            })
            .filter(|(offset, length)| {
                *length < 1 << LENGTH_BITS && *offset < 1 << (64 - LENGTH_BITS)
            });
    }
}

/// Where the text of chunks not stored comes from.
pub trait SourceFiles: Send + Sync {
    /// Byte ranges of the file's text, each as its own view; None when it cannot be read now.
    fn pieces(&self, path: &str, ranges: &[Range<u64>]) -> Option<Vec<Vec<u8>>>;
    /// The file's whole text as the index read it; None when it cannot be read now.
    fn text(&self, path: &str) -> Option<String>;
}

/// The root's files, read as the indexer reads text: the workspace's view (secret-looking
/// values replaced), never a sensitive file or a binary, decoded as lossy UTF-8.
pub struct WorkspaceFiles {
    pub ws: Arc<Workspace>,
    pub max_bytes: u64,
}

impl WorkspaceFiles {
    fn options(&self) -> ReadOptions {
        ReadOptions {
            max_bytes: self.max_bytes,
            allow_sensitive: false,
            allow_binary: false,
            allow_truncate: false,
        }
    }
}

impl SourceFiles for WorkspaceFiles {
    fn pieces(&self, path: &str, ranges: &[Range<u64>]) -> Option<Vec<Vec<u8>>> {
        self.ws
            .read_pieces(path, ranges, self.options())
            .map_err(|err| tracing::debug!("reading {path} for its chunks: {}", err.message))
            .ok()
    }

    fn text(&self, path: &str) -> Option<String> {
        self.ws
            .read(path, self.options())
            .map(|file| String::from_utf8_lossy(&file.bytes).into_owned())
            .map_err(|err| tracing::debug!("reading {path} for its chunks: {}", err.message))
            .ok()
    }
}

/// Files held in memory, changed by a test as an editor changes them on disk.
#[cfg(test)]
#[derive(Default)]
pub struct MemoryFiles(std::sync::Mutex<HashMap<String, String>>);

#[cfg(test)]
impl MemoryFiles {
    pub fn put(&self, path: &str, text: &str) {
        self.0.lock().unwrap().insert(path.into(), text.into());
    }
}

#[cfg(test)]
impl SourceFiles for MemoryFiles {
    fn pieces(&self, path: &str, ranges: &[Range<u64>]) -> Option<Vec<Vec<u8>>> {
        let text = self.text(path)?.into_bytes();
        let cut = |r: &Range<u64>| {
            let end = (r.end as usize).min(text.len());
            text[(r.start as usize).min(end)..end].to_vec()
        };
        Some(ranges.iter().map(cut).collect())
    }

    fn text(&self, path: &str) -> Option<String> {
        self.0.lock().unwrap().get(path).cloned()
    }
}

/// A chunk to read back: where it is and what it hashed to when indexed.
#[derive(Debug, Clone, PartialEq)]
pub struct Wanted {
    pub path: String,
    pub start_line: u32,
    pub end_line: u32,
    /// Its packed span (see [`pack_span`]).
    pub span: u64,
    pub hash: u64,
}

/// The pieces of one file read back, in the order asked.
type Pieces = Vec<Vec<u8>>;

/// A whole file read for one answer (a fallback), split into lines once.
struct Lines {
    text: String,
    spans: Vec<(usize, usize)>,
}

/// The reads of one answer: each chunk read back at most once, each file opened once per
/// batch, however many of its chunks the answer shows.
pub struct Reads<'a> {
    files: &'a dyn SourceFiles,
    bodies: HashMap<(String, u32, u32, u64), Option<String>>,
    whole: HashMap<String, Option<Arc<Lines>>>,
}

impl<'a> Reads<'a> {
    pub fn new(files: &'a dyn SourceFiles) -> Self {
        Self {
            files,
            bodies: HashMap::new(),
            whole: HashMap::new(),
        }
    }

    /// The bodies of `wanted`, in order: None for a chunk whose file cannot be read or whose
    /// lines are no longer what was indexed.
    pub fn bodies(&mut self, wanted: &[Wanted]) -> Vec<Option<String>> {
        let key = |w: &Wanted| (w.path.clone(), w.start_line, w.end_line, w.hash);
        let mut by_file: HashMap<&str, Vec<&Wanted>> = HashMap::new();
        for w in wanted {
            if !self.bodies.contains_key(&key(w)) {
                by_file.entry(&w.path).or_default().push(w);
            }
        }
        // Files are opened side by side (on the pool queries use, not the indexer's): most
        // of a read is the authority's walk of its path. Each piece is read with the byte
        // before it and the two after, to check that it is whole lines.
        let files = self.files;
        let read: Vec<(Vec<&Wanted>, Option<Pieces>)> = super::live::pool().install(|| {
            by_file
                .into_par_iter()
                .map(|(path, chunks)| {
                    let ranges: Vec<Range<u64>> = chunks
                        .iter()
                        .map(|w| with_line_ends(&unpack_span(w.span)))
                        .collect();
                    let pieces = files.pieces(path, &ranges);
                    (chunks, pieces)
                })
                .collect()
        });
        for (chunks, pieces) in read {
            for (i, w) in chunks.iter().enumerate() {
                let read = pieces
                    .as_ref()
                    .and_then(|p| p.get(i))
                    .and_then(|bytes| whole_lines(bytes, &unpack_span(w.span), w))
                    .filter(|body| body_hash(body) == w.hash);
                let body = match read {
                    Some(body) => Some(body),
                    None if pieces.is_some() => self.by_lines(w),
                    None => None,
                };
                self.bodies.insert(key(w), body);
            }
        }
        wanted
            .iter()
            .map(|w| self.bodies.get(&key(w)).cloned().flatten())
            .collect()
    }

    /// Reads the text of the `hits` and leaves out those whose text cannot be read (see
    /// [`fill`](Self::fill)).
    pub fn readable(&mut self, mut hits: Vec<Hit>, needles: &[String]) -> Vec<Hit> {
        self.fill(&mut hits, needles);
        hits.retain(|h| h.pending.is_none());
        hits
    }

    /// Reads the text of the `hits` that wait for it, in one batch. One whose lines are no
    /// longer what was indexed, or whose file cannot be read, keeps waiting (`pending`):
    /// callers leave it out.
    pub fn fill(&mut self, hits: &mut [Hit], needles: &[String]) {
        let wanted: Vec<Wanted> = hits.iter().filter_map(|h| h.pending.clone()).collect();
        if wanted.is_empty() {
            return;
        }
        let bodies = self.bodies(&wanted);
        let waiting = hits.iter_mut().filter(|h| h.pending.is_some());
        for (hit, body) in waiting.zip(bodies) {
            if let Some(body) = body {
                hit.set_body(body, needles);
            }
        }
    }

    /// A chunk found by its lines in the whole file, when its bytes moved.
    fn by_lines(&mut self, w: &Wanted) -> Option<String> {
        let files = self.files;
        let lines = self
            .whole
            .entry(w.path.clone())
            .or_insert_with(|| {
                files.text(&w.path).map(|text| {
                    let spans = line_spans(&text);
                    Arc::new(Lines { text, spans })
                })
            })
            .clone()?;
        let body = lines_of(&lines.text, &lines.spans, w.start_line, w.end_line)?;
        (body_hash(&body) == w.hash).then_some(body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One file, `m.py`, holding `text`.
    fn one_file(text: &str) -> MemoryFiles {
        let files = MemoryFiles::default();
        files.put("m.py", text);
        files
    }

    #[test]
    fn lines_read_back_are_the_lines_chunking_cut() {
        let text = "a\r\nb\n\nc\r\n\r\n\nd\re\n";
        let spans = line_spans(text);
        let lines: Vec<&str> = text.lines().collect();
        let n = lines.len() as u32;
        for start in 1..=n {
            for end in start..=n {
                let cut = lines[start as usize - 1..end as usize].join("\n");
                assert_eq!(lines_of(text, &spans, start, end).as_deref(), Some(&*cut));
                let (a, b) = (spans[start as usize - 1].0, spans[end as usize - 1].1);
                assert_eq!(as_body(&text.as_bytes()[a..b]), cut);
            }
        }
        assert_eq!(lines_of(text, &spans, 0, 1), None);
        assert_eq!(lines_of(text, &spans, 2, 1), None);
        assert_eq!(lines_of(text, &spans, n, n + 1), None);
    }

    fn wanted(text: &str, start: u32, end: u32) -> Wanted {
        let mut chunk = Chunk {
            id: "c".into(),
            ordinal: 0,
            kind: "code".into(),
            symbol: None,
            heading_path: Vec::new(),
            start_line: start,
            end_line: end,
            page: None,
            body: text.lines().collect::<Vec<_>>()[start as usize - 1..end as usize].join("\n"),
            span: None,
        };
        mark_verbatim(text, std::slice::from_mut(&mut chunk));
        Wanted {
            path: "m.py".into(),
            start_line: start,
            end_line: end,
            span: pack_span(chunk.span.expect("lines of the text")),
            hash: body_hash(&chunk.body),
        }
    }

    #[test]
    fn a_chunk_is_read_back_while_its_lines_hash_as_indexed_even_when_they_moved() {
        let indexed = "import os\r\ndef f():\r\n    return 1\r\n";
        let body = "def f():\n    return 1";
        let w = wanted(indexed, 2, 3);
        let read = |text| Reads::new(&one_file(text)).bodies(std::slice::from_ref(&w));
        assert_eq!(read(indexed), [Some(body.to_string())]);
        // A longer line above: the bytes moved, the lines did not.
        assert_eq!(
            read("import os, sys\r\ndef f():\r\n    return 1\r\n"),
            [Some(body.to_string())]
        );
        // A line added above: the lines moved, the chunk waits for the next pass.
        assert_eq!(
            read("import os\r\n\r\ndef f():\r\n    return 1\r\n"),
            [None]
        );
        assert_eq!(read("import os\r\ndef f():\r\n    return 2\r\n"), [None]);
        assert_eq!(Reads::new(&MemoryFiles::default()).bodies(&[w]), [None]);
    }

    #[test]
    fn a_piece_cut_inside_a_line_is_never_shown_whatever_hash_the_index_holds() {
        let text = "x = 1\nkey = ghp_abcdefghijklmnopqrstuvwxyz0123456789\ny = 2\n";
        let files = one_file(text);
        let token = text.find("abcdef").unwrap() as u64;
        let line = text.find("key").unwrap() as u64;
        // A byte of a token, a token past its prefix, a line and a half, a line's start.
        for (start, length) in [(token, 1), (token, 10), (line, 50), (line, 3)] {
            let piece = &text[start as usize..(start + length) as usize];
            let planted = Wanted {
                path: "m.py".into(),
                start_line: 2,
                end_line: 2,
                span: pack_span((start, length)),
                hash: body_hash(piece),
            };
            assert_eq!(Reads::new(&files).bodies(&[planted]), [None], "{piece:?}");
        }
        let whole = wanted(text, 3, 3);
        assert_eq!(
            Reads::new(&files).bodies(&[whole]),
            [Some("y = 2".to_string())]
        );
    }
}
