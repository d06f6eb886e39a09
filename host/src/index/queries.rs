//! What the pillars ask the index. Search, symbol lookup, references and importers read the
//! index (and say when it is still being built); a file's own symbols, skeleton and imports
//! are extracted live from the file, so they are exact even for a file written a moment ago.

use super::catalog::{self, EdgeLookup, SymbolRow};
use super::classify::{self, Class};
use super::code::{self, Extraction, Symbol, skeleton};
use super::digest::{self, Mode};
use super::documents::{Document, Section};
use super::fulltext::{self, Fulltext, Hit, SearchRequest};
use super::previews;
use super::query_reader::{self, ReadQuery};
use super::rank;
use super::resolve;
use super::roles::Role;
use super::source_text::Reads;
use super::{Freshness, Index, live};
use crate::error::{HostError, HostResult, codes};
use crate::workspace::ReadOptions;
use std::collections::HashMap;
use std::sync::Arc;

/// The longest query searched as given; longer ones are cut at a word boundary before it.
/// An issue pasted whole is a few thousand characters; this leaves room for long ones.
pub const MAX_QUERY_CHARS: usize = 16 * 1024;

/// The degraded reason of a search whose query was cut.
pub const QUERY_TRUNCATED: &str = "query_truncated";

/// `query` cut to [`MAX_QUERY_CHARS`] at the last whitespace before the limit (borrowed when
/// short enough), and whether it was cut.
pub fn bound_query(query: &str) -> (std::borrow::Cow<'_, str>, bool) {
    if query.len() <= MAX_QUERY_CHARS {
        return (std::borrow::Cow::Borrowed(query), false);
    }
    let mut end = MAX_QUERY_CHARS;
    while !query.is_char_boundary(end) {
        end -= 1;
    }
    let head = &query[..end];
    let head = match head.rfind(char::is_whitespace) {
        Some(at) if at > end / 2 => &head[..at],
        _ => head,
    };
    (std::borrow::Cow::Borrowed(head), true)
}

/// Search results and whether they may be incomplete.
#[derive(Debug, Clone, Default)]
pub struct SearchOutcome {
    pub hits: Vec<Hit>,
    /// Chunks that matched in all (more than `hits` when the limit cut).
    pub total: u64,
    pub degraded: bool,
    pub reasons: Vec<String>,
}

/// How a symbol lookup matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchKind {
    Exact,
    Prefix,
    Fuzzy,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SymbolMatch {
    pub found: SymbolRow,
    pub how: MatchKind,
}

/// A use of a name somewhere.
#[derive(Debug, Clone, PartialEq)]
pub struct Reference {
    pub path: String,
    pub line: u32,
    /// call or import.
    pub kind: String,
    /// The source line, trimmed.
    pub context: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Import {
    pub target: String,
    pub line: u32,
    /// The indexed file it names, when resolution finds one.
    pub resolved: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Importer {
    pub path: String,
    pub line: u32,
    pub target: String,
}

/// Files read for live extraction are capped like indexed ones.
pub(super) fn store_error(err: anyhow::Error) -> HostError {
    HostError::new(codes::STORE_ERROR, format!("index lookup failed: {err:#}"))
        .suggest("run `smart-context index --full` if this persists")
}

/// Index hits and live-scan hits in one ranking: each list's scores scaled to its best (BM25
/// and the live score are not on one scale), each file's chunk once.
fn merge(indexed: Vec<Hit>, live: Vec<Hit>, limit: usize) -> Vec<Hit> {
    if live.is_empty() {
        return indexed;
    }
    let top = |hits: &[Hit]| {
        hits.iter()
            .map(|h| h.score)
            .fold(f32::MIN_POSITIVE, f32::max)
    };
    let (top_indexed, top_live) = (top(&indexed), top(&live));
    let paths: std::collections::HashSet<String> = indexed.iter().map(|h| h.path.clone()).collect();
    let mut all: Vec<(f32, Hit)> = indexed
        .into_iter()
        .map(|h| (h.score / top_indexed, h))
        .chain(
            live.into_iter()
                .filter(|h| !paths.contains(&h.path))
                .map(|h| (h.score / top_live, h)),
        )
        .collect();
    all.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| (&a.1.path, a.1.start_line).cmp(&(&b.1.path, b.1.start_line)))
    });
    all.truncate(limit);
    all.into_iter().map(|(_, h)| h).collect()
}

/// Chunks the ranking weighs for a page of `limit`: enough that a file's second and third
/// chunks and the files behind a popular one are in view.
fn pool_size(limit: usize) -> usize {
    (limit * 3).clamp(POOL_MIN, POOL_MAX)
}
const POOL_MIN: usize = 60;
const POOL_MAX: usize = 300;
/// Definitions of the query's names looked at.
const DEFINITIONS: usize = 100;
/// Definitions of query words looked up per file among the first files (rank::SUBJECT_FILES).
const SUBJECT_DEFINITIONS: usize = 20;
/// Whole files ranked against a pasted text (their scores are a file-level signal).
const WHOLE_FILES: usize = 100;
/// Of those, the best files the chunk search did not reach, brought into the ranking.
const BROUGHT_FILES: usize = 5;
/// Chunks a file brought into the ranking (named by the query, or a missed whole file) adds,
/// from one search over all of them, that many chunks deep per file.
const BROUGHT_CHUNKS: usize = 3;
const BROUGHT_POOL: usize = 20;
/// Files a named path may stand for (`utils.py` is in many directories).
const NAMED_FILES: usize = 20;

/// The best [`BROUGHT_CHUNKS`] chunks of each of `files` for the query, from one search held
/// to them: files the pool did not reach get their say in the ranking.
fn best_chunks_of(
    fulltext: &Fulltext,
    read: &ReadQuery,
    request: &SearchRequest,
    files: Vec<String>,
) -> anyhow::Result<Vec<Hit>> {
    if files.is_empty() {
        return Ok(Vec::new());
    }
    let within = SearchRequest {
        limit: files.len() * BROUGHT_POOL,
        files,
        ..request.clone()
    };
    let mut per_file: HashMap<String, usize> = HashMap::new();
    let mut out = Vec::new();
    for hit in fulltext.search_read(read, &within)?.0 {
        let n = per_file.entry(hit.path.clone()).or_default();
        if *n < BROUGHT_CHUNKS {
            *n += 1;
            out.push(hit);
        }
    }
    Ok(out)
}

/// The reason an answer is degraded while the index does not cover every file yet.
const INDEX_BUILDING: &str = "index_building";

/// Chunks of the sentence search added to a plain-words query's pool.
const SENTENCE_POOL: usize = 20;
/// Plain words a query has at least before the sentence search joins its pool.
const SENTENCE_WORDS: usize = 3;

/// Whether a query reads as a question in plain words (not a pasted text, not a name).
fn described(read: &ReadQuery) -> bool {
    !read.long && read.words.iter().filter(|w| !w.code).count() >= SENTENCE_WORDS
}

/// The index a search runs on, the request as checked and bounded, and the reasons the
/// answer is degraded so far.
type Searchable = (Arc<Fulltext>, SearchRequest, Vec<String>);

impl Index {
    /// The query's chunks, the definitions of its names and the files it names, ranked
    /// (crate::index::rank), and how many chunks matched.
    fn ranked(
        &self,
        fulltext: &Fulltext,
        read: &ReadQuery,
        request: &SearchRequest,
    ) -> anyhow::Result<(Vec<Hit>, usize)> {
        let started = std::time::Instant::now();
        let roles = self.roles();
        let pool = SearchRequest {
            limit: pool_size(request.limit),
            ..request.clone()
        };
        let (mut found, total) = fulltext.search_read(read, &pool)?;
        // A question in plain words: the chunks saying most of them join the pool, which
        // BM25's sum fills with chunks repeating one of them.
        if described(read) {
            let said = SearchRequest {
                limit: SENTENCE_POOL,
                ..request.clone()
            };
            let said = fulltext.sentence(read, &said)?.0;
            // On BM25's scale: the chunk saying the most words ties with BM25's best.
            let best = found.iter().map(|h| h.score).fold(0.0, f32::max);
            let scale = best / said.first().map_or(1.0, |h| h.score.max(f32::EPSILON));
            for mut hit in said {
                hit.score *= scale;
                match found.iter_mut().find(|h| h.chunk_id == hit.chunk_id) {
                    Some(h) => h.score = h.score.max(hit.score),
                    None => found.push(hit),
                }
            }
        }
        let searched = started.elapsed();
        let names = read.code_names();
        let mut definitions = fulltext.definitions(
            &names,
            read,
            &SearchRequest {
                limit: DEFINITIONS,
                ..request.clone()
            },
        )?;
        // Files named by a path or a frame that the search did not reach: their own best chunks.
        let mut named: Vec<String> = Vec::new();
        {
            let conn = self.reader();
            for mention in read
                .mentions
                .iter()
                .filter(|m| !m.dotted && m.parts.len() > 1)
            {
                let Some(file) = mention.parts.last() else {
                    continue;
                };
                for path in catalog::paths_containing(&conn, file, NAMED_FILES)? {
                    if super::in_scope(&path, request.path_prefix.as_deref())
                        && query_reader::mention_match(mention, &path) >= 2
                        && !named.contains(&path)
                        && !found.iter().any(|h| h.path == path)
                    {
                        named.push(path);
                    }
                }
            }
        }
        named.truncate(NAMED_FILES);
        found.extend(best_chunks_of(fulltext, read, request, named)?);
        // A pasted text: whole files ranked against it, and the best few the chunk search
        // missed brought in by their own best chunks.
        let whole: HashMap<String, f32> = if read.long {
            let files = fulltext.top_files(read, request, WHOLE_FILES)?;
            let missed: Vec<String> = files
                .iter()
                .map(|(path, _)| path)
                .filter(|path| {
                    !found.iter().any(|h| &h.path == *path)
                        && (read.about_tests || roles.of(path) == Role::Source)
                })
                .take(BROUGHT_FILES)
                .cloned()
                .collect();
            found.extend(best_chunks_of(fulltext, read, request, missed)?);
            files.into_iter().collect()
        } else {
            HashMap::new()
        };
        // The chunks weighed are read only when ranking weighs their text; the shown ones
        // always are (see source_text), each file once for the whole answer.
        let needles = read.needles();
        let weighs_text = rank::weighs_text(read);
        let reads = std::cell::RefCell::new(Reads::new(&self.sources));
        if weighs_text {
            found = reads.borrow_mut().readable(found, &needles);
            definitions = reads.borrow_mut().readable(definitions, &needles);
        }
        let gathered = started.elapsed();
        let words = read.plain_names();
        let mut in_files = |files: &[String]| {
            let within = SearchRequest {
                limit: files.len() * SUBJECT_DEFINITIONS,
                files: files.to_vec(),
                ..request.clone()
            };
            let found = fulltext
                .definitions(&words, read, &within)
                .unwrap_or_else(|err| {
                    tracing::debug!("definitions within the first files: {err:#}");
                    Vec::new()
                });
            match weighs_text {
                true => reads.borrow_mut().readable(found, &needles),
                false => found,
            }
        };
        let hits = rank::rank(
            read,
            found,
            definitions,
            &whole,
            &rank::Priors {
                centrality: request.centrality.as_deref(),
                roles: &roles,
            },
            request.limit,
            rank::Lookups {
                in_files: &mut in_files,
                read_text: &mut |hits| reads.borrow_mut().fill(hits, &needles),
            },
        );
        tracing::debug!(
            "search: {} words, {total} matches; pool {searched:.1?}, definitions and named \
             files {:.1?}, ranking {:.1?}",
            read.words.len(),
            gathered - searched,
            started.elapsed() - gathered,
        );
        Ok((hits, total))
    }

    fn degraded_reasons(&self) -> Vec<String> {
        let mut reasons = Vec::new();
        if self.fulltext().is_none() {
            reasons.push("index_unavailable".to_string());
        } else if self.freshness() == Freshness::Rebuilding {
            reasons.push(INDEX_BUILDING.to_string());
        }
        reasons
    }

    /// BM25-ranked chunks. Never waits for indexing: answers from the last commit, marked
    /// degraded while a pass runs. A query over [`MAX_QUERY_CHARS`] is cut (degraded with
    /// reason `query_truncated`), so its cost is bounded whatever the agent pastes.
    pub fn search(&self, request: &SearchRequest) -> HostResult<SearchOutcome> {
        let Some((fulltext, request, mut reasons)) = self.searchable(request)? else {
            return Ok(self.unsearchable(request));
        };
        let read = query_reader::read(&request.query);
        let (mut hits, mut total) = self
            .ranked(&fulltext, &read, &request)
            .map_err(|e| HostError::new(codes::INTERNAL, format!("search failed: {e:#}")))?;
        if self.live_scan_due() {
            // The first pass has not reached every file: search the rest directly.
            let live = self.live_search(&request);
            if live.unindexed > 0 {
                reasons.push(live::LIVE_SCAN.to_string());
                if !live.complete() {
                    reasons.push(live::LIVE_SCAN_PARTIAL.to_string());
                }
            }
            total += live.hits.len();
            hits = merge(hits, live.hits, request.limit);
        }
        Ok(SearchOutcome {
            hits,
            total: total as u64,
            degraded: !reasons.is_empty(),
            reasons,
        })
    }

    /// The chunks a plain-English sentence describes: those holding most of its words, each
    /// word counted once and weighed by its rarity ([`Fulltext::sentence`]), where
    /// [`Index::search`] sums BM25 and favours a chunk repeating one word. For goals, not
    /// for pasted texts (its words are cut to the heaviest few). Each hit's text is read, as
    /// a search's shown hits are; one whose file changed since the pass is left out.
    pub fn search_sentence(&self, request: &SearchRequest) -> HostResult<SearchOutcome> {
        let Some((fulltext, request, mut reasons)) = self.searchable(request)? else {
            return Ok(self.unsearchable(request));
        };
        let read = query_reader::read(&request.query);
        // A few more than asked: a hit whose file changed since the pass is left out.
        let pool = SearchRequest {
            limit: request.limit + request.limit / 2 + 4,
            ..request.clone()
        };
        let (hits, total) = fulltext
            .sentence(&read, &pool)
            .map_err(|e| HostError::new(codes::INTERNAL, format!("search failed: {e:#}")))?;
        let mut hits = Reads::new(&self.sources).readable(hits, &read.needles());
        hits.truncate(request.limit);
        // Files the first pass has not reached are not searched (a live scan finds words,
        // not sentences): the answer says the index is still being built.
        if self.live_scan_due() && !reasons.iter().any(|r| r == INDEX_BUILDING) {
            reasons.push(INDEX_BUILDING.to_string());
        }
        Ok(SearchOutcome {
            hits,
            total: total as u64,
            degraded: !reasons.is_empty(),
            reasons,
        })
    }

    /// A search request checked and bounded, the index to run it on and the reasons its
    /// answer is degraded so far; None when there is no index to search.
    fn searchable(&self, request: &SearchRequest) -> HostResult<Option<Searchable>> {
        if request.query.trim().is_empty() {
            return Err(HostError::new(codes::INVALID_ARGS, "empty search query")
                .suggest("pass words, identifiers or a \"quoted phrase\""));
        }
        let mut reasons = self.degraded_reasons();
        let mut request = request.clone();
        if let (bounded, true) = bound_query(&request.query) {
            request.query = bounded.into_owned();
            reasons.push(QUERY_TRUNCATED.to_string());
        }
        let Some(fulltext) = self.fulltext() else {
            return Ok(None);
        };
        if self.is_read_only() {
            fulltext.refresh();
        }
        if let Some(prefix) = &request.path_prefix {
            let prefix = self.ws.normalize(prefix)?;
            // A scope that does not exist (or leads out of the root) is an error, not silence.
            self.ws.stat(&prefix)?;
            request.path_prefix = Some(prefix);
        }
        Ok(Some((fulltext, request, reasons)))
    }

    /// The answer of a search with no index to run on.
    fn unsearchable(&self, request: &SearchRequest) -> SearchOutcome {
        let mut reasons = self.degraded_reasons();
        if bound_query(&request.query).1 {
            reasons.push(QUERY_TRUNCATED.to_string());
        }
        SearchOutcome {
            degraded: true,
            reasons,
            ..Default::default()
        }
    }

    /// Previews of `hits` for the words of `query` (ADR-038 §7) within `cap` characters, from
    /// the chunk summary cache where it is current. None where a chunk left the catalogue
    /// since the search (a pass replaced it).
    pub fn previews(
        &self,
        hits: &[Hit],
        query: &str,
        mode: Mode,
        cap: usize,
    ) -> Vec<Option<previews::Preview>> {
        let needles = fulltext::needles(query);
        let conn = self.reader();
        hits.iter()
            .map(|hit| {
                if let Some(file_hash) = &hit.file_hash {
                    // A live-scan hit: not in the catalogue, previewed from its own lines.
                    let (text, truncated) = digest::render(&hit.body, mode, cap);
                    return Some(previews::Preview {
                        text,
                        truncated,
                        file_hash: file_hash.clone(),
                        file_mtime_ms: 0,
                    });
                }
                let source = previews::Source {
                    chunk_id: &hit.chunk_id,
                    path: &hit.path,
                    body: &hit.body,
                    start_line: hit.start_line,
                    code: hit.kind == "code",
                };
                previews::preview(&conn, &source, mode, &needles, cap).unwrap_or_else(|err| {
                    tracing::warn!("preview of {}: {err}", hit.chunk_id);
                    None
                })
            })
            .collect()
    }

    /// The indexed chunks of one file in line order. NOT_INDEXED when the file has none
    /// (not indexed yet, skipped, or outside the root's indexed kinds).
    pub fn file_chunks(&self, path: &str) -> HostResult<(String, Vec<Hit>)> {
        let rel = self.ws.normalize(path)?;
        let Some(fulltext) = self.fulltext() else {
            return Err(
                HostError::new(codes::NOT_INDEXED, "the search index is unavailable")
                    .suggest("run `smart-context index`"),
            );
        };
        if self.is_read_only() {
            fulltext.refresh();
        }
        let indexed = fulltext
            .file_chunks(&rel)
            .map_err(|e| HostError::new(codes::INTERNAL, format!("reading chunks: {e:#}")))?;
        let any = !indexed.is_empty();
        let hits = Reads::new(&self.sources).readable(indexed, &[]);
        if hits.is_empty() {
            self.ws.stat(&rel)?;
            if any {
                return Err(HostError::new(
                    codes::NOT_INDEXED,
                    format!("{rel} changed since it was indexed"),
                )
                .suggest("the next index pass reads it again (the watcher starts one); read the file itself meanwhile"));
            }
            return Err(
                HostError::new(codes::NOT_INDEXED, format!("{rel} has no indexed chunks")).suggest(
                    "it may not be indexed yet, or be skipped (binary, too large, ignored)",
                ),
            );
        }
        Ok((rel, hits))
    }

    /// Reads a file for live extraction and says what it is.
    fn read_source(&self, path: &str) -> HostResult<(String, Class, Vec<u8>)> {
        let rel = self.ws.normalize(path)?;
        let file = self.ws.read(
            &rel,
            ReadOptions {
                max_bytes: self.settings.max_file_bytes,
                allow_sensitive: false,
                // Documents (PDF, DOCX, XLSX) are binary; classification refuses other binaries.
                allow_binary: true,
                allow_truncate: false,
            },
        )?;
        let parsers = self.parsers();
        let claims = |p: &str, h: &[u8]| parsers.as_ref().and_then(|ps| ps.claims(p, h));
        let code_language = |p: &str| parsers.as_ref().and_then(|ps| ps.code_language(p));
        let head = &file.bytes[..file.bytes.len().min(8192)];
        let class = classify::classify(&rel, head, &claims, &code_language).map_err(|reason| {
            HostError::new(
                codes::BINARY_BLOCKED,
                format!("{rel} is {}", reason.as_str()),
            )
        })?;
        let class = classify::settle(class, &file.bytes);
        Ok((rel, class, file.bytes))
    }

    pub(super) fn parsers(&self) -> Option<std::sync::Arc<dyn super::DocumentParsers>> {
        self.parsers
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .as_ref()
            .and_then(|w| w.upgrade())
    }

    /// The structure of a source file the index reads (by its own grammar or a code-parser
    /// component) and its language; UNSUPPORTED_LANGUAGE for anything else.
    fn source_structure(&self, path: &str) -> HostResult<(String, String, Extraction, String)> {
        let (rel, class, bytes) = self.read_source(path)?;
        let text = String::from_utf8_lossy(&bytes).into_owned();
        match class {
            Class::Code(lang) => {
                let x = code::extract_file(lang, &rel, &text);
                Ok((rel, lang.name().to_string(), x, text))
            }
            Class::ComponentCode(_) => {
                let parsers = self.parsers().ok_or_else(|| not_source(&rel))?;
                let (language, x) = parsers.parse_code(self, &rel, text.as_bytes())?;
                Ok((rel, language, x, text))
            }
            _ => Err(not_source(&rel)),
        }
    }

    /// The definitions of a source file, in source order, and its language.
    pub fn symbols(&self, path: &str) -> HostResult<(String, String, Vec<Symbol>, u32)> {
        let (rel, language, x, text) = self.source_structure(path)?;
        let lines = text.lines().count() as u32;
        Ok((rel, language, x.symbols, lines))
    }

    /// Like [`Index::symbols`], but from the catalogue when the file is indexed at its current
    /// content: no parse, which matters for large files (a 10,000-line file parses in ~150 ms).
    /// Doc comments come back without their positions. Language is the catalogue's name.
    pub fn symbols_fast(&self, path: &str) -> HostResult<(String, String, Vec<Symbol>, u32)> {
        let rel = self.ws.normalize(path)?;
        if let Ok(bytes) = self.ws.read(
            &rel,
            ReadOptions {
                max_bytes: self.settings.max_file_bytes,
                allow_sensitive: false,
                allow_binary: false,
                allow_truncate: false,
            },
        ) && let Ok(Some(rows)) = catalog::symbols_of(&self.reader(), &rel, &bytes.hash)
            && let Some(language) = rows.first().and_then(|r| r.language.clone())
        {
            let lines = String::from_utf8_lossy(&bytes.bytes).lines().count() as u32;
            return Ok((
                rel,
                language,
                rows.into_iter().map(|r| r.symbol).collect(),
                lines,
            ));
        }
        self.symbols(path)
    }

    /// Where `text`, read as the source of `path`'s language, does not parse. Nothing is read:
    /// the path only names the language (by extension), so a planned edit is checked before
    /// it is written. UNSUPPORTED_LANGUAGE when the index has no grammar for it.
    pub fn syntax_problems(
        &self,
        path: &str,
        text: &str,
    ) -> HostResult<(&'static str, Vec<code::syntax::Problem>)> {
        let ext = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .unwrap_or_default();
        // A page's scripts are often a template's (`{% if %}`, `{{ x }}`): no grammar judges
        // an edit of one.
        let Some(lang) =
            code::Language::from_extension(&ext).filter(|l| *l != code::Language::Html)
        else {
            return Err(HostError::new(
                codes::UNSUPPORTED_LANGUAGE,
                format!("{path} is not source code in a language the index parses"),
            ));
        };
        Ok((lang.name(), code::syntax::problems(path, lang, text)))
    }

    /// Signatures and doc summaries with line numbers, bodies elided.
    pub fn skeleton(&self, path: &str) -> HostResult<(String, String, String, usize, u32)> {
        let (rel, lang, symbols, lines) = self.symbols(path)?;
        Ok((rel, lang, skeleton::render(&symbols), symbols.len(), lines))
    }

    /// Definitions named `name`: exact matches, else names starting with it, else names
    /// close to it (substring or small edit distance), best first.
    pub fn find_symbol(&self, name: &str, limit: usize) -> HostResult<Vec<SymbolMatch>> {
        let needle = name.trim().to_lowercase();
        if needle.is_empty() {
            return Err(HostError::new(codes::INVALID_ARGS, "empty symbol name"));
        }
        let limit = limit.clamp(1, 500);
        let conn = self.reader();
        let tag = |rows: Vec<SymbolRow>, how| {
            rows.into_iter()
                .map(|found| SymbolMatch { found, how })
                .collect::<Vec<_>>()
        };
        let exact = catalog::symbols_named(&conn, std::slice::from_ref(&needle), limit)
            .map_err(store_error)?;
        if !exact.is_empty() {
            return Ok(tag(exact, MatchKind::Exact));
        }
        let prefix = catalog::symbols_prefixed(&conn, &needle, limit).map_err(store_error)?;
        if !prefix.is_empty() {
            return Ok(tag(prefix, MatchKind::Prefix));
        }
        drop(conn);
        let names = self.symbol_names()?;
        let mut close: Vec<(f64, String)> = names
            .iter()
            .filter_map(|candidate| {
                let score = if candidate.contains(&needle) {
                    0.9
                } else {
                    strsim::jaro_winkler(&needle, candidate)
                };
                (score >= 0.85).then(|| (score, candidate.clone()))
            })
            .collect();
        close.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(a.1.len().cmp(&b.1.len()))
                .then_with(|| a.1.cmp(&b.1))
        });
        close.truncate(limit);
        let names: Vec<String> = close.into_iter().map(|(_, n)| n).collect();
        let mut rows =
            catalog::symbols_named(&self.reader(), &names, limit).map_err(store_error)?;
        rows.truncate(limit);
        Ok(tag(rows, MatchKind::Fuzzy))
    }

    /// Every definition's name, lower case, as the catalogue holds them now (kept until the
    /// catalogue changes).
    fn symbol_names(&self) -> HostResult<Arc<Vec<String>>> {
        let version = self.catalog_version()?;
        let mut kept = self.names.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((v, names)) = kept.as_ref()
            && *v == version
        {
            return Ok(names.clone());
        }
        let names = Arc::new(catalog::symbol_names(&self.reader()).map_err(store_error)?);
        *kept = Some((version, names.clone()));
        Ok(names)
    }

    /// Call sites and imports naming `name`, with their source lines.
    pub fn references(&self, name: &str, limit: usize) -> HostResult<Vec<Reference>> {
        let name = name.trim();
        if name.is_empty() {
            return Err(HostError::new(codes::INVALID_ARGS, "empty name"));
        }
        let limit = limit.clamp(1, 1000);
        let started = std::time::Instant::now();
        // The search index knows the files that call the name. Every call is looked at
        // instead without it (a reader before the owner made one), for a name too long to be
        // indexed, and while a pass runs: the search index commits ahead of the catalogue,
        // and a full pass empties it first, so it may not name a file the catalogue holds.
        let calling = match self.fulltext() {
            Some(_) if self.freshness() == Freshness::Rebuilding => None,
            Some(fulltext) => {
                if self.is_read_only() {
                    fulltext.refresh();
                }
                fulltext.files_calling(name).unwrap_or_else(|err| {
                    tracing::warn!("looking up the files calling {name}: {err:#}");
                    None
                })
            }
            None => None,
        };
        let rows = {
            let conn = self.reader();
            let mut rows = match &calling {
                Some(paths) => catalog::calls_named_in(&conn, name, paths, limit),
                None => catalog::edges_by(&conn, EdgeLookup::CallsNamed, name, limit),
            }
            .map_err(store_error)?;
            rows.extend(
                catalog::edges_by(&conn, EdgeLookup::ImportsKeyed, name, limit)
                    .map_err(store_error)?,
            );
            // In file order, so each file is read once for its context lines.
            rows.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
            rows.truncate(limit);
            rows
        };
        tracing::debug!(
            name,
            files = calling.as_ref().map(Vec::len),
            rows = rows.len(),
            ms = started.elapsed().as_secs_f64() * 1000.0,
            "references"
        );
        let mut out: Vec<Reference> = Vec::new();
        let mut file: Option<(String, Vec<String>)> = None;
        for row in rows {
            if file.as_ref().is_none_or(|(p, _)| *p != row.path) {
                let lines = self
                    .ws
                    .read(&row.path, preview_read())
                    .map(|f| {
                        String::from_utf8_lossy(&f.bytes)
                            .lines()
                            .map(str::to_string)
                            .collect()
                    })
                    .unwrap_or_default();
                file = Some((row.path.clone(), lines));
            }
            let context = file
                .as_ref()
                .and_then(|(_, lines)| lines.get(row.line.saturating_sub(1) as usize))
                .map(|l| super::clip(l.trim(), 200))
                .unwrap_or_default();
            out.push(Reference {
                path: row.path,
                line: row.line,
                kind: row.kind,
                context,
            });
        }
        out.sort_by(|a, b| (&a.path, a.line).cmp(&(&b.path, b.line)));
        Ok(out)
    }

    /// The tree's Go modules (`analysis::graph::Manifests::go_modules`): each catalogued
    /// go.mod's `module` path and directory, in path order.
    pub fn go_modules(&self) -> Vec<(String, String)> {
        self.manifests_named("go.mod", resolve::go_module)
    }

    /// The tree's Rust crates (`analysis::graph::Manifests::crates`): each catalogued
    /// Cargo.toml's crate name and directory, in path order.
    pub fn cargo_crates(&self) -> Vec<(String, String)> {
        self.manifests_named("Cargo.toml", resolve::cargo_crate)
    }

    /// What `declared` reads from each catalogued file named `file_name`, with the file's
    /// directory (`""` at the root); a file it cannot read or that declares nothing is
    /// left out.
    fn manifests_named(
        &self,
        file_name: &str,
        declared: fn(&str) -> Option<String>,
    ) -> Vec<(String, String)> {
        let paths = catalog::paths_named(&self.reader(), file_name).unwrap_or_else(|err| {
            tracing::debug!("listing {file_name} files: {err:#}");
            Vec::new()
        });
        paths
            .into_iter()
            .filter_map(|path| {
                let file = self.ws.read(&path, preview_read()).ok()?;
                let name = declared(&String::from_utf8_lossy(&file.bytes))?;
                let dir = path.rsplit_once('/').map_or("", |(d, _)| d).to_string();
                Some((name, dir))
            })
            .collect()
    }

    /// What a source file imports, each resolved to an indexed file when one matches.
    pub fn imports(&self, path: &str) -> HostResult<Vec<Import>> {
        let (rel, language, x) = match self.source_structure(path) {
            Ok((rel, language, x, _)) => (rel, language, x),
            Err(err) if err.code == codes::UNSUPPORTED_LANGUAGE => return Ok(Vec::new()),
            Err(err) => return Err(err),
        };
        let conn = self.reader();
        let mut out = Vec::new();
        for edge in x.imports {
            let candidates = resolve::candidates(Some(&language), &rel, &edge.name);
            let key = resolve::import_key(&edge.name);
            let resolved = if resolve::imports_declared_modules(Some(&language)) {
                declaring(&conn, &edge.name)?.into_iter().next()
            } else if candidates.is_empty() || key.is_empty() {
                None
            } else {
                catalog::paths_containing(&conn, &key, 200)
                    .map_err(store_error)?
                    .into_iter()
                    .find(|p| resolve::matches(p, &candidates))
            };
            out.push(Import {
                target: edge.name,
                line: edge.line,
                resolved,
            });
        }
        Ok(out)
    }

    /// Indexed files whose imports resolve to `path`.
    pub fn importers(&self, path: &str, limit: usize) -> HostResult<Vec<Importer>> {
        let rel = self.ws.normalize(path)?;
        self.ws.stat(&rel)?;
        // Where imports name declared modules (C# namespaces): the imports of the modules
        // the file declares.
        // Asked of the file's language first (by its name, no read), so another language's
        // file is neither read nor parsed again here.
        let mut declared = Vec::new();
        let language = self.parsers().and_then(|p| p.code_language(&rel));
        if resolve::imports_declared_modules(language.as_deref())
            && let Ok((_, language, symbols, _)) = self.symbols_fast(&rel)
        {
            declared = resolve::declared_modules(Some(&language), &symbols);
        }
        let conn = self.reader();
        let mut out = Vec::new();
        for module in &declared {
            let key = resolve::import_key(module);
            let rows = catalog::edges_by(&conn, EdgeLookup::ImportsKeyed, &key, 5000)
                .map_err(store_error)?;
            for row in rows.into_iter().filter(|r| {
                &r.name == module && resolve::imports_declared_modules(r.language.as_deref())
            }) {
                out.push(Importer {
                    path: row.path,
                    line: row.line,
                    target: row.name,
                });
            }
        }
        for key in resolve::file_keys(&rel) {
            let rows = catalog::edges_by(&conn, EdgeLookup::ImportsKeyed, &key, 5000)
                .map_err(store_error)?;
            for row in rows {
                let candidates = resolve::candidates(row.language.as_deref(), &row.path, &row.name);
                if resolve::matches(&rel, &candidates)
                    && !out
                        .iter()
                        .any(|i: &Importer| i.path == row.path && i.line == row.line)
                {
                    out.push(Importer {
                        path: row.path,
                        line: row.line,
                        target: row.name,
                    });
                }
            }
        }
        out.truncate(limit.max(1));
        Ok(out)
    }

    /// A document parsed by its format parser (for tables of contents and sections).
    pub fn document(&self, path: &str) -> HostResult<(String, Document)> {
        let (rel, class, bytes) = self.read_source(path)?;
        if !matches!(class, Class::Document(_)) {
            return Err(HostError::new(
                codes::NO_PARSER,
                format!("no document parser handles {rel}"),
            )
            .suggest("for source code use symbols or skeleton; otherwise read the file"));
        }
        let parsers = self.parsers().ok_or_else(|| {
            HostError::new(codes::INTERNAL, "document parsers are not loaded yet")
        })?;
        let doc = parsers.parse(self, &rel, &bytes)?;
        Ok((rel, doc))
    }

    /// One section of a document, by its id or by its heading path (case-insensitive, the
    /// last headings suffice: `["Install"]` finds `Guide > Install`), as `mode` renders it
    /// within `max_chars` (0: the mode's default). Raw text includes the subsections when
    /// `subsections` says so.
    pub fn doc_section(
        &self,
        path: &str,
        selector: &SectionSelector,
        mode: Mode,
        max_chars: usize,
        subsections: bool,
    ) -> HostResult<SectionView> {
        let (rel, doc) = self.document(path)?;
        let found = doc.sections.iter().position(|s| match selector {
            SectionSelector::Id(id) => s.id == *id,
            SectionSelector::HeadingPath(wanted) => {
                !wanted.is_empty()
                    && wanted.len() <= s.heading_path.len()
                    && s.heading_path[s.heading_path.len() - wanted.len()..]
                        .iter()
                        .zip(wanted)
                        .all(|(a, b)| a.trim().eq_ignore_ascii_case(b.trim()))
            }
        });
        let Some(index) = found else {
            let ids: Vec<&str> = doc
                .sections
                .iter()
                .take(50)
                .map(|s| s.id.as_str())
                .collect();
            return Err(
                HostError::new(codes::NOT_FOUND, format!("no such section in {rel}"))
                    .suggest("pick one of the listed ids, or list the sections with the table of contents")
                    .details(serde_json::json!({ "sections": ids })),
            );
        };
        let section = &doc.sections[index];
        let full: Vec<&str> = doc.sections[index..]
            .iter()
            .take_while(|s| s.start_line <= section.end_line || s.id == section.id)
            .map(|s| s.text.as_str())
            .collect();
        let full = full.join("\n");
        let source = if mode == Mode::Raw && subsections {
            full.as_str()
        } else {
            section.text.as_str()
        };
        let (text, truncated) = digest::render(source, mode, max_chars);
        Ok(SectionView {
            section: Section {
                text,
                ..section.clone()
            },
            mode,
            total_chars: full.chars().count() as u64,
            truncated,
        })
    }

    /// Links out of a document (resolved to workspace files where they point at one) and
    /// links into it from other indexed documents.
    pub fn doc_links(&self, path: &str, limit: usize) -> HostResult<DocLinks> {
        let (rel, doc) = self.document(path)?;
        let outgoing = doc
            .links
            .iter()
            .take(limit.max(1))
            .map(|l| OutgoingLink {
                section_id: l.section_id.clone(),
                target: l.target.clone(),
                text: l.text.clone(),
                resolved: resolve::link_target(&rel, &l.target)
                    .filter(|p| *p == rel || self.ws.stat(p).is_ok()),
            })
            .collect();
        let stem = resolve::link_key(&rel);
        let conn = self.reader();
        let rows =
            catalog::edges_by(&conn, EdgeLookup::LinksKeyed, &stem, 5000).map_err(store_error)?;
        let incoming = rows
            .into_iter()
            .filter(|r| {
                r.path != rel && resolve::link_target(&r.path, &r.name).as_deref() == Some(&rel)
            })
            .take(limit.max(1))
            .map(|r| Backlink {
                path: r.path,
                line: r.line,
                target: r.name,
            })
            .collect();
        Ok(DocLinks {
            path: rel,
            outgoing,
            incoming,
        })
    }
}

/// A section as `doc_section` returns it: its text is the mode's rendering.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionView {
    pub section: Section,
    pub mode: Mode,
    /// Characters of the raw text, subsections included.
    pub total_chars: u64,
    pub truncated: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct OutgoingLink {
    pub section_id: String,
    pub target: String,
    pub text: String,
    /// The workspace file the link points at, when it points at one.
    pub resolved: Option<String>,
}

/// A link into a document from another one.
#[derive(Debug, Clone, PartialEq)]
pub struct Backlink {
    pub path: String,
    /// First line of the linking section.
    pub line: u32,
    pub target: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct DocLinks {
    pub path: String,
    pub outgoing: Vec<OutgoingLink>,
    pub incoming: Vec<Backlink>,
}

/// How a caller names a section.
#[derive(Debug, Clone)]
pub enum SectionSelector {
    Id(String),
    HeadingPath(Vec<String>),
}

fn preview_read() -> ReadOptions {
    ReadOptions {
        max_bytes: 8 << 20,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: true,
    }
}

/// A file that is no source code the index reads.
fn not_source(rel: &str) -> HostError {
    HostError::new(
        codes::UNSUPPORTED_LANGUAGE,
        format!("{rel} is not source code in a language the index parses"),
    )
    .suggest(
        "built in: rust, python, typescript, tsx, javascript, go, java, c, cpp, and the \
         languages of the loaded code parsers (`smart-context plugins`); for documents use \
         the table of contents",
    )
}

/// The indexed files declaring module `name` (see [`resolve::declared_modules`]), shortest
/// path first, as the call graph picks among them.
fn declaring(conn: &rusqlite::Connection, name: &str) -> HostResult<Vec<String>> {
    let last = name.rsplit('.').next().unwrap_or(name);
    let names = [name.to_lowercase(), last.to_lowercase()];
    let rows = catalog::symbols_named(conn, &names, 5000).map_err(store_error)?;
    let mut paths: Vec<String> = rows
        .into_iter()
        .filter(|r| {
            resolve::declared_modules(r.language.as_deref(), [&r.symbol])
                .iter()
                .any(|m| m == name)
        })
        .map(|r| r.path)
        .collect();
    paths.sort_by(|a, b| (a.len(), a).cmp(&(b.len(), b)));
    paths.dedup();
    Ok(paths)
}
