//! The tantivy side of the index: one document per chunk, identifier-aware fields, BM25 with
//! boosts for symbol-name, heading and path hits, filters by kind, language and directory.
//! Each code file also has one whole-file document (kind [`FILE_KIND`], only its words), so a
//! pasted text can be ranked against whole files with file-level statistics.
//!
//! Answers depend on the files and nothing else: every score comes from the live documents'
//! statistics (see [`stats`]), filters do not score, and equal scores are ordered by path and
//! line, never by where a document happens to sit in the index. An index kept up to date by
//! incremental passes answers as a fresh one of the same files.

use super::chunks::{self, Chunk};
use super::query_reader::{self, ReadQuery};
use super::source_text::{self, Wanted};
use super::tokenizer::{self, IdentTokenizer};
use anyhow::{Context, Result};
use stats::{LiveStatistics, TokenTotals};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Mutex;
use tantivy::collector::{Count, DocSetCollector, TopDocs};
use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, Occur, PhraseQuery, Query, TermQuery,
};
use tantivy::schema::{
    Field, IndexRecordOption, NumericOptions, STORED, Schema, TextFieldIndexing, TextOptions, Value,
};
use tantivy::store::{Compressor, ZstdCompressor};
use tantivy::tokenizer::Token;
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};

mod sentence;
mod stats;

/// Bumped whenever the schema or tokenizer changes, or the code facts the catalogue stores
/// (a mismatch rebuilds the index and reindexes the catalogue with it). 3: Python's
/// `super()` receivers are recorded as `super`, and typed names as `type`/`field` edges.
/// 4: a chunk that is its file's own lines is not stored, only hashed (`source_text`).
/// 5: an id its path, kind, symbol and ordinal make again is not stored. 6: filter-only
/// fields keep no length norms; the stored fields are zstd-compressed. 7: a whole-file
/// document holds the names its file calls and its path as a fast column (the catalogue's
/// index of every call's name is gone).
const FORMAT: &str = "smart-context-index-7";
/// The fast column of a whole-file document's path.
const FILE_PATH: &str = "file_path";
/// Call names longer than this (generated code) are not indexed; their call sites are
/// looked for in every call.
pub const MAX_CALL_NAME: usize = 256;
const FORMAT_FILE: &str = "FORMAT";
/// zstd's level for the stored fields: its default, a fraction of the pass's time on the
/// store's own thread.
const ZSTD_LEVEL: i32 = 3;
/// The writer's indexing memory, shared by its threads (tantivy wants >= 15 MB each).
const WRITER_MEMORY: usize = 96 << 20;
/// A segment with this share of its documents deleted is merged (tantivy's default waits for
/// all of them): after a checkout or a pull, replaced files' documents would otherwise stay on
/// disk, and be walked past by every search, for as long as the segment lives.
const DELETED_SHARE_BEFORE_MERGE: f32 = 0.2;

/// Field boosts: a symbol-name hit outranks a heading hit, which outranks a path or body hit.
const BOOST_SYMBOLS: f32 = 3.0;
const BOOST_HEADING: f32 = 2.0;
const BOOST_PATH: f32 = 1.5;
const BOOST_PHRASE: f32 = 2.0;
/// The kind of a code file's whole-file document (never returned as a chunk).
pub const FILE_KIND: &str = "file";

/// Within a multi-part identifier (`fooBar`): the whole token and each part.
const WHOLE_WEIGHT: f32 = 3.0;
const PART_WEIGHT: f32 = 0.5;

#[derive(Clone, Copy)]
struct Fields {
    /// The chunk's id, kept only where its path, kind, symbol and ordinal do not make it.
    chunk_id: Field,
    ordinal: Field,
    path: Field,
    path_text: Field,
    dirs: Field,
    kind: Field,
    language: Field,
    symbols: Field,
    heading: Field,
    /// The chunk's words, indexed and not stored.
    body: Field,
    /// The chunk's text, stored for the chunks that are not their file's own lines.
    stored_body: Field,
    /// The hash of a chunk read back from its file, and where it is there (see
    /// `source_text`).
    body_hash: Field,
    body_span: Field,
    start_line: Field,
    end_line: Field,
    /// A whole-file document's words (no other document has this field).
    file_words: Field,
    /// The names a code file calls, each whole and as written: which files can hold the
    /// call sites of a name (see [`Fulltext::files_calling`]).
    calls: Field,
    /// A whole-file document's path as a fast column: which files matched, without reading
    /// a stored document per file.
    file_path: Field,
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = |positions: bool| {
        TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(tokenizer::NAME)
                .set_index_option(if positions {
                    IndexRecordOption::WithFreqsAndPositions
                } else {
                    IndexRecordOption::WithFreqs
                }),
        )
    };
    // Fields only filtered on (their clauses score nothing) keep no length norms: a byte per
    // document and field.
    let keyword = TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer("raw")
            .set_fieldnorms(false)
            .set_index_option(IndexRecordOption::Basic),
    );
    let fields = Fields {
        chunk_id: b.add_text_field("chunk_id", STORED),
        ordinal: b.add_u64_field("ordinal", STORED),
        path: b.add_text_field("path", keyword.clone() | STORED),
        path_text: b.add_text_field("path_text", text(false)),
        dirs: b.add_text_field("dirs", keyword.clone()),
        kind: b.add_text_field("kind", keyword.clone() | STORED),
        language: b.add_text_field("language", keyword.clone() | STORED),
        symbols: b.add_text_field("symbols", text(false) | STORED),
        heading: b.add_text_field("heading", text(false) | STORED),
        body: b.add_text_field("body", text(true)),
        stored_body: b.add_text_field("stored_body", STORED),
        body_hash: b.add_u64_field("body_hash", STORED),
        body_span: b.add_u64_field("body_span", STORED),
        start_line: b.add_u64_field(
            "start_line",
            NumericOptions::default().set_indexed().set_stored(),
        ),
        end_line: b.add_u64_field("end_line", STORED),
        file_words: b.add_text_field("file_words", text(false)),
        calls: b.add_text_field("calls", keyword),
        file_path: b.add_text_field(FILE_PATH, TextOptions::default().set_fast("raw")),
    };
    (b.build(), fields)
}

/// A code file's whole-file document: its text (ranked as one, see [`Fulltext::top_files`])
/// and the names it calls.
pub struct WholeFile<'a> {
    pub text: &'a str,
    pub language: Option<&'a str>,
    pub calls: Vec<&'a str>,
}

/// A chunk as stored in the index, with its file's facts.
pub struct ChunkDoc<'a> {
    pub path: &'a str,
    pub language: Option<&'a str>,
    pub chunk: &'a Chunk,
}

/// How central files are in the project's graphs (PageRank percentiles, 0 to 1): the
/// analysis layer implements it and the ranking asks it, so the index does not depend on
/// the graphs.
pub trait Centrality: Send + Sync {
    /// The file's PageRank percentile over imports.
    fn file(&self, path: &str) -> Option<f32>;
}

/// A search request carries one and derives `Debug`: what it holds is the graphs, too large
/// to print.
impl std::fmt::Debug for dyn Centrality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Centrality")
    }
}

/// What a search asks for.
#[derive(Debug, Clone, Default)]
pub struct SearchRequest {
    pub query: String,
    /// Chunk kinds to keep (empty: all).
    pub kinds: Vec<String>,
    /// Chunk kinds to leave out.
    pub exclude_kinds: Vec<String>,
    pub languages: Vec<String>,
    /// A directory or file path, relative to the root.
    pub path_prefix: Option<String>,
    /// Only these files (empty: any).
    pub files: Vec<String>,
    pub limit: usize,
    /// How central files are in the project's graphs, when they are built: a prior the
    /// ranking weighs beside the text's evidence.
    pub centrality: Option<std::sync::Arc<dyn Centrality>>,
}

/// One ranked chunk.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub chunk_id: String,
    pub path: String,
    pub kind: String,
    pub language: Option<String>,
    pub symbol: Option<String>,
    pub heading_path: Vec<String>,
    pub start_line: u32,
    pub end_line: u32,
    pub score: f32,
    /// The chunk line that best matches the query, and its line number.
    pub snippet: String,
    pub snippet_line: u32,
    /// The chunk's text, for previews; empty while `pending`.
    pub body: String,
    /// The file's hash, for a hit the catalogue does not know yet (a live scan's).
    pub file_hash: Option<String>,
    /// The signals that ranked it (names it defines, paths the query names, words it has).
    pub why: Vec<String>,
    /// Where to read the text of a chunk the index does not keep, until it is read (most
    /// hits a search weighs are never shown, so their files are not read).
    pub pending: Option<Wanted>,
}

impl Hit {
    /// Gives the hit its text, and the line of it that best matches `needles`.
    pub fn set_body(&mut self, body: String, needles: &[String]) {
        let (offset, snippet) = best_line(&body, needles);
        self.snippet = snippet;
        self.snippet_line = self.start_line + offset;
        self.body = body;
        self.pending = None;
    }
}

pub struct Fulltext {
    reader: IndexReader,
    fields: Fields,
    /// None when read-only; emptied by [`Fulltext::compact`].
    writer: Option<Mutex<Option<IndexWriter>>>,
    /// Live token totals per segment and field, for BM25's mean lengths.
    totals: TokenTotals,
    /// The FORMAT file of a rebuilt index, written at its first commit: by then the caller
    /// has emptied the catalogue, so a crash in between rebuilds again rather than leave a
    /// current-format index beside a catalogue of the old one.
    format_pending: Mutex<Option<std::path::PathBuf>>,
}

impl Fulltext {
    /// Opens the index in `dir`, creating it when absent. A damaged index or one of another
    /// format is wiped and recreated when `writable`: the second value says so, because the
    /// catalogue must then be reindexed too.
    pub fn open(dir: &Path, writable: bool) -> Result<(Self, bool)> {
        let (schema, fields) = schema();
        let format_ok = std::fs::read_to_string(dir.join(FORMAT_FILE)).is_ok_and(|f| f == FORMAT);
        let existing = if format_ok {
            Index::open_in_dir(dir).map_err(|e| anyhow::anyhow!(e))
        } else {
            Err(anyhow::anyhow!("no index of format {FORMAT}"))
        };
        let (index, rebuilt) = match existing {
            Ok(index) => (index, false),
            Err(err) if writable => {
                if dir.exists() && format_ok {
                    tracing::warn!("the search index is damaged ({err:#}); rebuilding it");
                }
                if dir.exists() {
                    std::fs::remove_dir_all(dir)
                        .with_context(|| format!("removing {}", dir.display()))?;
                }
                std::fs::create_dir_all(dir)?;
                // zstd keeps the stored fields (paths, names, lines, the texts not read back)
                // in two thirds of lz4's bytes; a block is still a few microseconds to read.
                let settings = tantivy::IndexSettings {
                    docstore_compression: Compressor::Zstd(ZstdCompressor {
                        compression_level: Some(ZSTD_LEVEL),
                    }),
                    ..Default::default()
                };
                let index = Index::builder()
                    .schema(schema)
                    .settings(settings)
                    .create_in_dir(dir)?;
                (index, true)
            }
            Err(err) => return Err(err.context("opening the search index read-only")),
        };
        index
            .tokenizers()
            .register(tokenizer::NAME, IdentTokenizer::default());
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::Manual)
            .try_into()?;
        let writer = if writable {
            let threads = std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .clamp(1, 4);
            let writer: IndexWriter = index
                .writer_with_num_threads(threads, WRITER_MEMORY.max((threads * 20) << 20))
                .context("locking the search index for writing")?;
            writer.set_merge_policy(merge_policy());
            Some(Mutex::new(Some(writer)))
        } else {
            None
        };
        Ok((
            Self {
                reader,
                fields,
                writer,
                totals: TokenTotals::default(),
                format_pending: Mutex::new(rebuilt.then(|| dir.join(FORMAT_FILE))),
            },
            rebuilt,
        ))
    }

    fn writer(&self) -> Result<Writing<'_>> {
        let writer = self
            .writer
            .as_ref()
            .context("the search index is open read-only")?;
        let guard = writer.lock().unwrap_or_else(|p| p.into_inner());
        anyhow::ensure!(guard.is_some(), "the search index's writer was closed");
        Ok(Writing(guard))
    }

    /// Replaces every chunk of `path`, and its whole-file document when `whole` is given
    /// (uncommitted until [`Fulltext::commit`]).
    pub fn replace_file(
        &self,
        path: &str,
        docs: &[ChunkDoc],
        whole: Option<WholeFile>,
    ) -> Result<()> {
        let writer = self.writer()?;
        writer.delete_term(Term::from_field_text(self.fields.path, path));
        for doc in docs {
            writer.add_document(self.document(doc))?;
        }
        if let Some(whole) = whole {
            let f = &self.fields;
            let mut d = TantivyDocument::default();
            d.add_text(f.path, path);
            d.add_text(f.kind, FILE_KIND);
            add_dirs(&mut d, f.dirs, path);
            if let Some(lang) = whole.language {
                d.add_text(f.language, lang);
            }
            d.add_text(f.file_words, whole.text);
            let mut calls = whole.calls;
            calls.sort_unstable();
            calls.dedup();
            for name in calls.into_iter().filter(|n| n.len() <= MAX_CALL_NAME) {
                d.add_text(f.calls, name);
            }
            d.add_text(f.file_path, path);
            writer.add_document(d)?;
        }
        Ok(())
    }

    pub fn delete_file(&self, path: &str) -> Result<()> {
        self.writer()?
            .delete_term(Term::from_field_text(self.fields.path, path));
        Ok(())
    }

    /// Deletes every document committed so far (a full pass adds them again). A delete of
    /// everything in the order of operations, not tantivy's `delete_all_documents`, which
    /// winds the operation stamps back and lets a later delete take documents added after it
    /// (a full pass followed by an edit lost unrelated files).
    pub fn delete_all(&self) -> Result<()> {
        self.writer()?
            .delete_query(Box::new(tantivy::query::AllQuery))?;
        Ok(())
    }

    /// Drops the changes made since the last commit (a cancelled pass).
    pub fn rollback(&self) -> Result<()> {
        let mut writer = self.writer()?;
        writer.rollback()?;
        // tantivy's rollback replaces the writer with a new one, with the default policy.
        writer.set_merge_policy(merge_policy());
        Ok(())
    }

    /// Makes the pending changes durable and visible to searches.
    pub fn commit(&self) -> Result<()> {
        self.writer()?.commit()?;
        let mut pending = self
            .format_pending
            .lock()
            .unwrap_or_else(|p| p.into_inner());
        if let Some(file) = pending.as_ref() {
            std::fs::write(file, FORMAT).with_context(|| format!("writing {}", file.display()))?;
            *pending = None;
        }
        drop(pending);
        self.reader.reload()?;
        Ok(())
    }

    /// The search index's bytes on disk by part and field (`postings.body`, `positions.body`,
    /// `terms.path`, `norms.symbols`, `stored`, ...): where its size goes, for `index --json`.
    pub fn space(&self) -> Result<BTreeMap<String, u64>> {
        self.reader.reload()?;
        let usage = self.reader.searcher().space_usage()?;
        let mut out: BTreeMap<String, u64> = BTreeMap::new();
        for segment in usage.segments() {
            let parts = [
                ("postings", segment.postings()),
                ("positions", segment.positions()),
                ("terms", segment.termdict()),
                ("norms", segment.fieldnorms()),
                ("fast", segment.fast_fields()),
            ];
            for (part, fields) in parts {
                for field in fields.fields() {
                    *out.entry(format!("{part}.{}", field.field_name()))
                        .or_default() += field.total().get_bytes();
                }
            }
            *out.entry("stored".into()).or_default() += segment.store().total().get_bytes();
            *out.entry("deletes".into()).or_default() += segment.deletes().get_bytes();
        }
        out.retain(|_, bytes| *bytes > 0);
        Ok(out)
    }

    /// Merges away the deleted documents of every segment that has some, and waits for that
    /// and every background merge to end: for the one-shot `index` command, which does not
    /// live to see the background merges (one cut short by the exit leaves its files behind
    /// until the next writer's clean-up). Closes the writer: the index is read-only after it.
    pub fn compact(&self) -> Result<()> {
        let Some(slot) = &self.writer else {
            return Ok(());
        };
        let Some(mut writer) = slot.lock().unwrap_or_else(|p| p.into_inner()).take() else {
            return Ok(());
        };
        let with_deletes: Vec<tantivy::index::SegmentId> = self
            .reader
            .searcher()
            .segment_readers()
            .iter()
            .filter(|s| s.has_deletes())
            .map(|s| s.segment_id())
            .collect();
        if !with_deletes.is_empty() {
            // A background merge may have taken some of them already: that is as good.
            if let Err(err) = writer.merge(&with_deletes).wait() {
                tracing::debug!("compacting the search index: {err}");
            }
        }
        writer.wait_merging_threads()?;
        self.reader.reload()?;
        // The merged segments' files go once no reader holds them: now, by a writer of its own
        // (the one above is gone, and this one writes nothing).
        let index = self.reader.searcher().index().clone();
        let cleaner: IndexWriter = index.writer_with_num_threads(1, 15 << 20)?;
        cleaner.garbage_collect_files().wait()?;
        Ok(())
    }

    /// Picks up commits made by another process (a read-only server beside a writer).
    pub fn refresh(&self) {
        if let Err(err) = self.reader.reload() {
            tracing::debug!("reloading the search index: {err}");
        }
    }

    pub fn num_chunks(&self) -> u64 {
        chunk_count(&self.reader.searcher(), self.fields)
    }

    /// The statistics of a search over every live document of `searcher`.
    fn statistics<'a>(&'a self, searcher: &'a Searcher) -> LiveStatistics<'a> {
        LiveStatistics {
            searcher,
            documents: searcher.num_docs(),
            totals: &self.totals,
        }
    }

    fn document(&self, doc: &ChunkDoc) -> TantivyDocument {
        let f = &self.fields;
        let c = doc.chunk;
        let mut d = TantivyDocument::default();
        // An id is 20 hex digits, a third of what the index stores per chunk: most are made
        // again from what it keeps anyway.
        if chunks::derived_id(doc.path, &c.kind, c.symbol.as_deref(), c.ordinal) == c.id {
            d.add_u64(f.ordinal, c.ordinal.into());
        } else {
            d.add_text(f.chunk_id, &c.id);
        }
        d.add_text(f.path, doc.path);
        d.add_text(f.path_text, doc.path);
        add_dirs(&mut d, f.dirs, doc.path);
        d.add_text(f.kind, &c.kind);
        if let Some(lang) = doc.language {
            d.add_text(f.language, lang);
        }
        if let Some(symbol) = &c.symbol {
            d.add_text(f.symbols, symbol);
        }
        if !c.heading_path.is_empty() {
            d.add_text(f.heading, c.heading_path.join("\u{1f}"));
        }
        d.add_text(f.body, &c.body);
        match c.span {
            Some(span) => {
                d.add_u64(f.body_hash, source_text::body_hash(&c.body));
                d.add_u64(f.body_span, source_text::pack_span(span));
            }
            None => d.add_text(f.stored_body, &c.body),
        }
        d.add_u64(f.start_line, c.start_line.into());
        d.add_u64(f.end_line, c.end_line.into());
        d
    }

    /// Ranked chunks for `request`, and how many chunks matched in all.
    pub fn search(&self, request: &SearchRequest) -> Result<(Vec<Hit>, usize)> {
        self.search_read(&query_reader::read(&request.query), request)
    }

    /// Ranked chunks for a query already read, and how many chunks matched in all.
    pub fn search_read(
        &self,
        read: &ReadQuery,
        request: &SearchRequest,
    ) -> Result<(Vec<Hit>, usize)> {
        // One searcher for the statistics, the query and the documents: a commit landing
        // meanwhile cannot mix two generations of the index in one answer.
        let searcher = self.reader.searcher();
        let Some(query) = self.build_query(&searcher, read, request) else {
            return Ok((Vec::new(), 0));
        };
        self.run(&searcher, query, read, request.limit)
    }

    /// The chunks that define one of `names` (lower case, whole identifiers), within the
    /// request's filters: where a name the query uses is declared.
    pub fn definitions(
        &self,
        names: &[&str],
        read: &ReadQuery,
        request: &SearchRequest,
    ) -> Result<Vec<Hit>> {
        let f = self.fields;
        let should: Vec<(Occur, Box<dyn Query>)> = names
            .iter()
            .map(|name| {
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(f.symbols, name),
                    IndexRecordOption::WithFreqs,
                ));
                (Occur::Should, q)
            })
            .collect();
        if should.is_empty() {
            return Ok(Vec::new());
        }
        let searcher = self.reader.searcher();
        let query = self.filtered(&searcher, Box::new(BooleanQuery::new(should)), request);
        Ok(self.run(&searcher, query, read, request.limit)?.0)
    }

    fn run(
        &self,
        searcher: &Searcher,
        query: Box<dyn Query>,
        read: &ReadQuery,
        limit: usize,
    ) -> Result<(Vec<Hit>, usize)> {
        let statistics = self.statistics(searcher);
        let (top, total) = self.top(searcher, &*query, &statistics, limit)?;
        let needles = read.needles();
        let hits = top
            .iter()
            .map(|(score, doc)| self.hit(doc, *score, &needles))
            .collect();
        Ok((hits, total))
    }

    /// The `limit` best documents for `query` and how many matched, best first. Scores are
    /// [`settled`], and equal ones are ordered by path, line and chunk id: what is cut at the
    /// limit, and in what order ties come, is the same however the index was built.
    fn top(
        &self,
        searcher: &Searcher,
        query: &dyn Query,
        statistics: &LiveStatistics,
        limit: usize,
    ) -> Result<(Vec<(f32, TantivyDocument)>, usize)> {
        let limit = limit.max(1);
        let mut fetch = limit + limit / 4 + 8;
        let (top, total) = loop {
            let (top, total) = searcher.search_with_statistics_provider(
                query,
                &(TopDocs::with_limit(fetch).order_by_score(), Count),
                statistics,
            )?;
            // Complete once everything matching was fetched, or the last fetched scores
            // below the limit's: no document left out can tie with one kept.
            let complete =
                top.len() < fetch || settled(top[top.len() - 1].0) < settled(top[limit - 1].0);
            if complete {
                break (top, total);
            }
            fetch *= 2;
        };
        let cutoff = top
            .get(limit - 1)
            .map_or(f32::NEG_INFINITY, |(s, _)| settled(*s));
        let mut kept = Vec::with_capacity(top.len().min(fetch));
        for (score, address) in top {
            let score = settled(score);
            if score < cutoff {
                break;
            }
            let doc: TantivyDocument = searcher.doc(address)?;
            kept.push((score, self.order_key(&doc), doc));
        }
        kept.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        kept.truncate(limit);
        Ok((kept.into_iter().map(|(s, _, d)| (s, d)).collect(), total))
    }

    /// What orders documents of equal score: path, first line, chunk id.
    fn order_key(&self, doc: &TantivyDocument) -> (String, u64, String) {
        let f = &self.fields;
        let text = |field| {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .unwrap_or_default()
                .to_string()
        };
        let line = doc
            .get_first(f.start_line)
            .and_then(|v| v.as_u64())
            .unwrap_or(0);
        (text(f.path), line, self.chunk_id(doc))
    }

    /// A document's chunk id: kept, or made again from its path, kind, symbol and ordinal.
    fn chunk_id(&self, doc: &TantivyDocument) -> String {
        let f = &self.fields;
        let text = |field| doc.get_first(field).and_then(|v| v.as_str());
        match doc.get_first(f.ordinal).and_then(|v| v.as_u64()) {
            Some(ordinal) => chunks::derived_id(
                text(f.path).unwrap_or_default(),
                text(f.kind).unwrap_or_default(),
                text(f.symbols),
                ordinal as u32,
            ),
            None => text(f.chunk_id).unwrap_or_default().to_string(),
        }
    }

    /// The code files whose whole text best matches `read` (BM25 over whole files, with
    /// file-level statistics), best first, within the request's language and directory
    /// filters. A pasted text's evidence is often spread over a file's functions, none of
    /// which ranks alone.
    pub fn top_files(
        &self,
        read: &ReadQuery,
        request: &SearchRequest,
        limit: usize,
    ) -> Result<Vec<(String, f32)>> {
        let f = self.fields;
        let searcher = self.reader.searcher();
        let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for (word, _) in self.searched_words(&searcher, read) {
            for token in &word.tokens {
                // An identifier's parts count less than the whole (`foo_bar`: foo, bar).
                let part = word.tokens.len() > 1 && token.position_length == 1;
                let shape = if part { PART_WEIGHT } else { 1.0 };
                let q: Box<dyn Query> = Box::new(TermQuery::new(
                    Term::from_field_text(f.file_words, &token.text),
                    IndexRecordOption::WithFreqs,
                ));
                should.push((Occur::Should, boosted(q, shape * word.weight)));
            }
        }
        if should.is_empty() {
            return Ok(Vec::new());
        }
        let files_only = SearchRequest {
            kinds: vec![FILE_KIND.to_string()],
            exclude_kinds: Vec::new(),
            ..request.clone()
        };
        let query = self.filtered(&searcher, Box::new(BooleanQuery::new(should)), &files_only);
        // Whole-file statistics: over the live whole-file documents alone, as if the chunks
        // were not there (they would make each file look many times longer than the mean).
        let statistics = LiveStatistics {
            searcher: &searcher,
            documents: file_count(&searcher, f),
            totals: &self.totals,
        };
        let (top, _) = self.top(&searcher, &*query, &statistics, limit)?;
        let mut out = Vec::with_capacity(top.len());
        for (score, doc) in top {
            if let Some(path) = doc.get_first(f.path).and_then(|v| v.as_str()) {
                out.push((path.to_string(), score));
            }
        }
        Ok(out)
    }

    /// The code files that call a name `name` (exactly as written), in path order: where
    /// its call sites are, read from the whole-file documents alone. None for a name too
    /// long to be indexed ([`MAX_CALL_NAME`]).
    pub fn files_calling(&self, name: &str) -> Result<Option<Vec<String>>> {
        if name.len() > MAX_CALL_NAME {
            return Ok(None);
        }
        let searcher = self.reader.searcher();
        let query = TermQuery::new(
            Term::from_field_text(self.fields.calls, name),
            IndexRecordOption::Basic,
        );
        let mut docs: Vec<_> = searcher
            .search(&query, &DocSetCollector)?
            .into_iter()
            .collect();
        docs.sort_unstable();
        let mut paths = Vec::with_capacity(docs.len());
        // Per segment: the paths' ordinals in its column, then their text in one sorted walk
        // of its dictionary (a lookup per ordinal decodes a block each time).
        for segment in docs.chunk_by(|a, b| a.segment_ord == b.segment_ord) {
            let reader = searcher.segment_reader(segment[0].segment_ord);
            let Some(column) = reader.fast_fields().str(FILE_PATH)? else {
                continue;
            };
            let mut ords: Vec<u64> = segment
                .iter()
                .flat_map(|doc| column.term_ords(doc.doc_id))
                .collect();
            ords.sort_unstable();
            ords.dedup();
            column.dictionary().sorted_ords_to_term_cb(&ords, |bytes| {
                paths.push(String::from_utf8_lossy(bytes).into_owned())
            })?;
        }
        paths.sort_unstable();
        paths.dedup();
        Ok(Some(paths))
    }

    /// Every chunk of one file, in line order (score 0, the first line as snippet).
    pub fn file_chunks(&self, path: &str) -> Result<Vec<Hit>> {
        let searcher = self.reader.searcher();
        let term = |field, text| -> Box<dyn Query> {
            Box::new(TermQuery::new(
                Term::from_field_text(field, text),
                IndexRecordOption::Basic,
            ))
        };
        let query = BooleanQuery::new(vec![
            (Occur::Must, term(self.fields.path, path)),
            (Occur::MustNot, term(self.fields.kind, FILE_KIND)),
        ]);
        let found = searcher.search(&query, &DocSetCollector)?;
        let mut hits = Vec::with_capacity(found.len());
        for address in found {
            let doc: TantivyDocument = searcher.doc(address)?;
            hits.push(self.hit(&doc, 0.0, &[]));
        }
        hits.sort_by(|a, b| {
            (a.start_line, a.end_line, &a.kind, &a.chunk_id).cmp(&(
                b.start_line,
                b.end_line,
                &b.kind,
                &b.chunk_id,
            ))
        });
        Ok(hits)
    }

    /// The hit a document makes. A chunk the index does not keep comes without its text:
    /// it says where to read it (`pending`, see [`source_text::fill`]).
    fn hit(&self, doc: &TantivyDocument, score: f32, needles: &[String]) -> Hit {
        let f = &self.fields;
        let text = |field| {
            doc.get_first(field)
                .and_then(|v| v.as_str())
                .map(str::to_string)
        };
        let number = |field| doc.get_first(field).and_then(|v| v.as_u64());
        let path = text(f.path).unwrap_or_default();
        let start_line = number(f.start_line).unwrap_or(0) as u32;
        let end_line = number(f.end_line).unwrap_or(0) as u32;
        let pending = number(f.body_hash)
            .zip(number(f.body_span))
            .map(|(hash, span)| Wanted {
                path: path.clone(),
                start_line,
                end_line,
                span,
                hash,
            });
        let mut hit = Hit {
            chunk_id: self.chunk_id(doc),
            path,
            kind: text(f.kind).unwrap_or_default(),
            language: text(f.language),
            symbol: text(f.symbols),
            heading_path: text(f.heading)
                .map(|h| h.split('\u{1f}').map(str::to_string).collect())
                .unwrap_or_default(),
            start_line,
            end_line,
            score,
            snippet: String::new(),
            snippet_line: start_line,
            body: String::new(),
            file_hash: None,
            why: Vec::new(),
            pending: None,
        };
        match pending {
            Some(wanted) => hit.pending = Some(wanted),
            None => hit.set_body(text(f.stored_body).unwrap_or_default(), needles),
        }
        hit
    }

    /// The query's words the search weighs, each with its chunk frequency: in a long text,
    /// prose words in over COMMON_SHARE of all chunks are left out (they tell nothing apart
    /// and were most of the search's cost).
    fn searched_words<'a>(
        &self,
        searcher: &tantivy::Searcher,
        read: &'a ReadQuery,
    ) -> Vec<(&'a query_reader::Word, u64)> {
        let common =
            (chunk_count(searcher, self.fields) as f32 * query_reader::COMMON_SHARE) as u64;
        read.words
            .iter()
            .filter_map(|word| {
                let term = Term::from_field_text(self.fields.body, word.key());
                let df = stats::live_doc_freq(searcher, &term).unwrap_or(0);
                (!(read.long && !word.code && df > common)).then_some((word, df))
            })
            .collect()
    }

    fn build_query(
        &self,
        searcher: &Searcher,
        read: &ReadQuery,
        request: &SearchRequest,
    ) -> Option<Box<dyn Query>> {
        let f = self.fields;
        let mut should: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for (word, _) in self.searched_words(searcher, read) {
            for (field, boost) in [
                (f.body, 1.0),
                (f.symbols, BOOST_SYMBOLS),
                (f.heading, BOOST_HEADING),
                (f.path_text, BOOST_PATH),
            ] {
                for token in &word.tokens {
                    let term = Term::from_field_text(field, &token.text);
                    let q: Box<dyn Query> =
                        Box::new(TermQuery::new(term, IndexRecordOption::WithFreqs));
                    // The whole identifier as typed outranks documents that only share parts.
                    let shape = match (word.tokens.len(), token.position_length) {
                        (1, _) => 1.0,
                        (_, 1) => PART_WEIGHT,
                        _ => WHOLE_WEIGHT,
                    };
                    should.push((Occur::Should, boosted(q, boost * shape * word.weight)));
                }
            }
        }
        let phrase_query = |phrase: &[Token]| -> Option<Box<dyn Query>> {
            let parts: Vec<(usize, Term)> = phrase
                .iter()
                .filter(|t| t.position_length == 1)
                .map(|t| (t.position, Term::from_field_text(f.body, &t.text)))
                .collect();
            let first = phrase.first().map_or(0, |t| t.position);
            match parts.len() {
                0 => None,
                1 => Some(Box::new(TermQuery::new(
                    parts[0].1.clone(),
                    IndexRecordOption::WithFreqs,
                ))),
                _ => Some(Box::new(PhraseQuery::new_with_offset(
                    parts.into_iter().map(|(p, t)| (p - first, t)).collect(),
                ))),
            }
        };
        // A quoted fragment scores when the text has it verbatim; pasted error messages and
        // values often are not in the code word for word, so it never filters.
        for phrase in &read.phrases {
            if let Some(q) = phrase_query(phrase) {
                should.push((Occur::Should, boosted(q, BOOST_PHRASE)));
            }
        }
        let mut must: Vec<(Occur, Box<dyn Query>)> = Vec::new();
        for required in &read.required {
            if let Some(q) = phrase_query(required) {
                must.push((Occur::Must, boosted(q, BOOST_PHRASE)));
            }
        }
        if should.is_empty() && must.is_empty() {
            return None;
        }
        if !should.is_empty() {
            must.push((Occur::Must, Box::new(BooleanQuery::new(should))));
        }
        Some(self.filtered(searcher, Box::new(BooleanQuery::new(must)), request))
    }

    /// `query` within the request's kind, language and directory filters. A filter only
    /// admits documents: it adds nothing to their scores (a scored file filter would favour
    /// the files with the fewest documents).
    fn filtered(
        &self,
        searcher: &Searcher,
        query: Box<dyn Query>,
        request: &SearchRequest,
    ) -> Box<dyn Query> {
        let f = self.fields;
        let mut clauses: Vec<(Occur, Box<dyn Query>)> = vec![(Occur::Must, query)];
        let any_of = |field: Field, values: &[String]| -> Box<dyn Query> {
            let any = BooleanQuery::new(
                values
                    .iter()
                    .map(|v| {
                        let q: Box<dyn Query> = Box::new(TermQuery::new(
                            Term::from_field_text(field, v),
                            IndexRecordOption::Basic,
                        ));
                        (Occur::Should, q)
                    })
                    .collect(),
            );
            Box::new(ConstScoreQuery::new(Box::new(any), 0.0))
        };
        if !request.kinds.is_empty() || !request.exclude_kinds.is_empty() {
            let (occur, kinds) =
                kind_filter(searcher, f.kind, &request.kinds, &request.exclude_kinds);
            // "None of no kinds" admits everything; "one of no kinds", nothing.
            if occur == Occur::Must || !kinds.is_empty() {
                clauses.push((occur, any_of(f.kind, &kinds)));
            }
        }
        if !request.languages.is_empty() {
            clauses.push((Occur::Must, any_of(f.language, &request.languages)));
        }
        if let Some(prefix) = request
            .path_prefix
            .as_deref()
            .map(|p| p.trim_matches('/'))
            .filter(|p| !p.is_empty() && *p != ".")
        {
            clauses.push((Occur::Must, any_of(f.dirs, &[prefix.to_string()])));
        }
        if !request.files.is_empty() {
            clauses.push((Occur::Must, any_of(f.path, &request.files)));
        }
        Box::new(BooleanQuery::new(clauses))
    }
}

/// The kinds filter of a request (`kinds` admitted, or any when empty, less `exclude`) as the
/// cheaper of two equal filters over the kinds the index holds: "one of the admitted kinds"
/// or "none of the others", whichever names fewer documents. A query held to a union of
/// kinds seeks through it window by window at every candidate, which on a big tree (code's
/// kinds hold nearly every document) costs more than the query's own words; a short list
/// is cheap either way. Kinds the term dictionary cannot list count as admitted as asked.
fn kind_filter(
    searcher: &Searcher,
    field: Field,
    kinds: &[String],
    exclude: &[String],
) -> (Occur, Vec<String>) {
    let asked = || match kinds.is_empty() {
        true => (Occur::MustNot, exclude.to_vec()),
        false => (
            Occur::Must,
            kinds
                .iter()
                .filter(|k| !exclude.contains(k))
                .cloned()
                .collect(),
        ),
    };
    let mut held: std::collections::BTreeMap<String, u64> = std::collections::BTreeMap::new();
    for segment in searcher.segment_readers() {
        let Ok(inverted) = segment.inverted_index(field) else {
            return asked();
        };
        let Ok(mut terms) = inverted.terms().stream() else {
            return asked();
        };
        while terms.advance() {
            let kind = String::from_utf8_lossy(terms.key()).into_owned();
            *held.entry(kind).or_default() += u64::from(terms.value().doc_freq);
        }
    }
    let admitted = |k: &String| (kinds.is_empty() || kinds.contains(k)) && !exclude.contains(k);
    let (inside, outside): (Vec<_>, Vec<_>) = held.into_iter().partition(|(k, _)| admitted(k));
    let count = |v: &[(String, u64)]| v.iter().map(|(_, n)| n).sum::<u64>();
    let names = |v: Vec<(String, u64)>| v.into_iter().map(|(k, _)| k).collect();
    match count(&outside) < count(&inside) {
        true => (Occur::MustNot, names(outside)),
        false => (Occur::Must, names(inside)),
    }
}

/// Every directory `path` lies in, and the path itself, for prefix filters.
fn add_dirs(d: &mut TantivyDocument, field: Field, path: &str) {
    let mut dir = String::new();
    for part in path.split('/') {
        if !dir.is_empty() {
            dir.push('/');
        }
        dir.push_str(part);
        d.add_text(field, &dir);
    }
}

/// Live whole-file documents (deleted ones not counted).
fn file_count(searcher: &tantivy::Searcher, f: Fields) -> u64 {
    let query = TermQuery::new(
        Term::from_field_text(f.kind, FILE_KIND),
        IndexRecordOption::Basic,
    );
    searcher.search(&query, &Count).unwrap_or(0) as u64
}

/// Live chunk documents: every document but the whole-file ones.
fn chunk_count(searcher: &tantivy::Searcher, f: Fields) -> u64 {
    searcher.num_docs().saturating_sub(file_count(searcher, f))
}

/// Merges a segment once [`DELETED_SHARE_BEFORE_MERGE`] of it is deleted, else as tantivy's
/// log policy does.
fn merge_policy() -> Box<dyn tantivy::indexer::MergePolicy> {
    let mut policy = tantivy::indexer::LogMergePolicy::default();
    policy.set_del_docs_ratio_before_merge(DELETED_SHARE_BEFORE_MERGE);
    Box::new(policy)
}

/// The writer, locked; there while the index is writable and not compacted.
struct Writing<'a>(std::sync::MutexGuard<'a, Option<IndexWriter>>);

impl std::ops::Deref for Writing<'_> {
    type Target = IndexWriter;

    fn deref(&self) -> &IndexWriter {
        self.0.as_ref().expect("checked when locked")
    }
}

impl std::ops::DerefMut for Writing<'_> {
    fn deref_mut(&mut self) -> &mut IndexWriter {
        self.0.as_mut().expect("checked when locked")
    }
}

/// A score with its last 8 mantissa bits cleared (about 5 significant digits kept): the
/// same documents summed in another order, or against statistics from another layout of
/// segments, can differ in the last bits, and that must not reorder a tie.
fn settled(score: f32) -> f32 {
    f32::from_bits(score.to_bits() & !0xFF)
}

fn boosted(q: Box<dyn Query>, boost: f32) -> Box<dyn Query> {
    if boost == 1.0 {
        q
    } else {
        Box::new(BoostQuery::new(q, boost))
    }
}

/// The lower-case words and identifier parts of `query` that previews bring forward.
pub fn needles(query: &str) -> Vec<String> {
    query_reader::read(query).needles()
}

/// The line of `body` containing the most distinct needles (the first, on ties), as its
/// 0-based offset and a trimmed preview.
fn best_line(body: &str, needles: &[String]) -> (u32, String) {
    let mut best = (0usize, 0u32, "");
    for (i, line) in body.lines().enumerate() {
        let lower = line.to_lowercase();
        let count = needles
            .iter()
            .filter(|n| lower.contains(String::as_str(n)))
            .count();
        if count > best.0 || best.2.is_empty() && !line.trim().is_empty() && best.0 == 0 {
            best = (count, i as u32, line);
        }
    }
    (best.1, super::clip(best.2.trim(), 160))
}

#[cfg(test)]
mod tests;
