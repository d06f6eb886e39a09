//! One indexing pass: scan, compare with the catalogue (mtime and size, then hash), extract
//! what changed in parallel, and commit search index then catalogue, so a crash between the
//! two only makes the next pass redo some files.

use super::catalog::{self, FileEntry, Known, SkipRow};
use super::chunks::{self, Chunk};
use super::classify::{self, Class, SkipReason};
use super::code;
use super::documents::DocumentParsers;
use super::fulltext::ChunkDoc;
use super::resolve::import_key;
use super::scan::{self, Found};
use super::source_text;
use super::{Freshness, Index};
use crate::error::codes;
use crate::store::now_ms;
use crate::tasks::control::Control;
use crate::workspace::{ReadOptions, secrets};
use anyhow::{Context, Result};
use rayon::prelude::*;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Files extracted per parallel batch, at most.
const BATCH: usize = 512;
/// Bytes of files extracted per parallel batch, at most (a file larger than this is a batch
/// of its own): a batch's texts, chunks and facts are held until it is added, about 14 times
/// its files' bytes, so 512 files of 2 MB once took 7.9 GB. Ordinary trees (files of a few
/// KB) fill a batch by count first.
const BATCH_BYTES: u64 = 16 << 20;
/// Progress is reported every this many files, from inside a batch, not only at its end.
const TICK_FILES: u64 = 32;
/// Commit at least this often during a long pass, so queries see progress.
const COMMIT_EVERY: Duration = Duration::from_secs(2);

/// `items` in order, cut into batches of at most [`BATCH`] items and [`BATCH_BYTES`] bytes
/// (`size` of each), each batch at least one item: the pass's memory bounded by a budget,
/// not by its files' sizes.
fn batches_within<T>(items: &[T], size: impl Fn(&T) -> u64) -> impl Iterator<Item = &[T]> {
    let mut rest = items;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let mut bytes = 0u64;
        let mut end = 0;
        while end < rest.len() && end < BATCH {
            bytes = bytes.saturating_add(size(&rest[end]));
            if end > 0 && bytes > BATCH_BYTES {
                break;
            }
            end += 1;
        }
        let (batch, tail) = rest.split_at(end);
        rest = tail;
        Some(batch)
    })
}

/// What a pass did, for the CLI summary and the logs.
#[derive(Debug, Clone, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// Files the walk found.
    pub scanned: u64,
    /// Files (re)indexed in this pass, by kind (code, document, text).
    pub indexed: BTreeMap<&'static str, u64>,
    /// Files whose mtime or size changed but whose content did not.
    pub touched: u64,
    pub unchanged: u64,
    pub removed: u64,
    /// Files left out, by reason.
    pub skipped: BTreeMap<&'static str, u64>,
    /// Up to ten skipped paths per reason, to tell the user which.
    pub skipped_examples: BTreeMap<&'static str, Vec<String>>,
    pub lossy: u64,
    pub chunks: u64,
    pub symbols: u64,
    pub bytes: u64,
    pub seconds: f64,
    /// Wall-clock milliseconds per phase: scan, extract (parallel), add (to the search index),
    /// commit (search index and catalogue).
    pub phase_ms: BTreeMap<&'static str, u64>,
    /// Documents whose parser failed, by error code (ENCRYPTED, MALFORMED, ...).
    pub failed: BTreeMap<String, u64>,
    /// What parsers reported: failures (`path: message (CODE)`) and warnings.
    pub warnings: Vec<String>,
    /// The pass was cancelled: what it indexed so far is committed, the rest waits for the
    /// next pass.
    pub cancelled: bool,
    /// What read files changed since the last complete pass (a parser component added,
    /// removed or upgraded, or a newer host): every file was checked for the reader it has.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub readers_changed: bool,
    /// A hash of the paths, sizes and mtimes the walk found and of what reads them (see
    /// [`scan::fingerprint`]).
    #[serde(skip)]
    pub fingerprint: String,
    /// Every reader the pass had (see [`classify::readers`]).
    #[serde(skip)]
    pub readers: String,
}

impl Report {
    pub fn indexed_total(&self) -> u64 {
        self.indexed.values().sum()
    }
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kinds: Vec<String> = self
            .indexed
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        if self.cancelled {
            write!(f, "cancelled, the rest left for the next pass: ")?;
        }
        write!(
            f,
            "indexed {} files ({}) in {:.1} s: {} symbols, {} chunks, {:.1} MB; {} unchanged, {} removed",
            self.indexed_total(),
            if kinds.is_empty() {
                "none".to_string()
            } else {
                kinds.join(", ")
            },
            self.seconds,
            self.symbols,
            self.chunks,
            self.bytes as f64 / 1e6,
            self.unchanged + self.touched,
            self.removed,
        )?;
        if !self.skipped.is_empty() {
            let reasons: Vec<String> = self
                .skipped
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect();
            write!(f, "; skipped {}", reasons.join(", "))?;
        }
        if self.lossy > 0 {
            write!(f, "; {} not valid UTF-8 (decoded lossily)", self.lossy)?;
        }
        if !self.failed.is_empty() {
            let codes: Vec<String> = self
                .failed
                .iter()
                .map(|(code, n)| format!("{n} {code}"))
                .collect();
            write!(f, "; documents not parsed: {}", codes.join(", "))?;
        }
        Ok(())
    }
}

/// Catalogue rows waiting for the writer thread.
struct CatalogBatch {
    entries: Vec<FileEntry>,
    touched: Vec<(String, u64, u64)>,
    skipped: Vec<SkipRow>,
    removed: Vec<String>,
}

/// What the pass has extracted since its last commit, and the way to the catalogue writer.
struct Batches {
    tx: mpsc::SyncSender<CatalogBatch>,
    entries: Vec<FileEntry>,
    touched: Vec<(String, u64, u64)>,
    skipped: Vec<SkipRow>,
    /// Of a full pass, the files the catalogue knew at its start whose new state it has not
    /// committed yet: what a cancelled full pass must forget (their chunks were deleted with
    /// everything else). How many commits it made.
    unreached: HashSet<String>,
    commits: usize,
}

impl Batches {
    /// Search index first, then catalogue: the catalogue never claims what is not searchable.
    fn commit(
        &mut self,
        fulltext: &super::Fulltext,
        removed: Vec<String>,
        report: &mut Report,
    ) -> Result<()> {
        let t = Instant::now();
        fulltext.commit().context("committing the search index")?;
        lap(report, "commit_index", t);
        self.commits += 1;
        if !self.unreached.is_empty() {
            for e in &self.entries {
                self.unreached.remove(&e.path);
            }
            for (path, _, _) in &self.touched {
                self.unreached.remove(path);
            }
        }
        let batch = CatalogBatch {
            entries: std::mem::take(&mut self.entries),
            touched: std::mem::take(&mut self.touched),
            skipped: std::mem::take(&mut self.skipped),
            removed,
        };
        self.tx
            .send(batch)
            .map_err(|_| anyhow::anyhow!("the catalogue writer stopped"))
    }
}

/// Counts a file left out, and keeps up to ten examples per reason for the summary.
fn count_skip(report: &mut Report, path: &str, reason: SkipReason) {
    *report.skipped.entry(reason.as_str()).or_default() += 1;
    let examples = report.skipped_examples.entry(reason.as_str()).or_default();
    if examples.len() < 10 {
        examples.push(path.to_string());
    }
}

/// Adds the time since `since` to a phase of the report.
fn lap(report: &mut Report, phase: &'static str, since: Instant) {
    *report.phase_ms.entry(phase).or_default() += since.elapsed().as_millis() as u64;
}

/// What became of one file.
pub(super) enum Outcome {
    Indexed {
        entry: Box<FileEntry>,
        /// A code file's text, for its whole-file search document (not the catalogue's).
        whole_text: Option<String>,
        warnings: Vec<String>,
    },
    /// Same content, new mtime or size.
    Touched(Found),
    Skipped(Found, SkipReason),
    /// Deleted between the walk and the read.
    Vanished(String),
    /// Not looked at: the pass was cancelled first.
    Cancelled,
}

/// Progress callback: (files done, files to do).
pub type Progress<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// Reports progress every [`TICK_FILES`] files the workers finish, and at the end of each
/// batch, never going back (a bar and MCP progress notifications only move forward).
struct Ticker<'a> {
    progress: Option<Progress<'a>>,
    total: u64,
    extracted: AtomicU64,
    last: std::sync::Mutex<u64>,
}

impl Ticker<'_> {
    fn file_done(&self) {
        let n = self.extracted.fetch_add(1, Ordering::Relaxed) + 1;
        if n.is_multiple_of(TICK_FILES) {
            self.report(n);
        }
    }

    fn report(&self, done: u64) {
        let Some(progress) = self.progress else {
            return;
        };
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if done > *last {
            *last = done;
            progress(done, self.total);
        }
    }
}

impl Index {
    /// Brings the index up to date with the files. `full` rereads every file. Runs one pass
    /// at a time; queries keep answering from the last commit meanwhile.
    pub fn update(&self, full: bool, progress: Option<Progress>) -> Result<Report> {
        self.update_until(full, progress, None)
    }

    /// [`Index::update`] for a caller that may give up: progress goes to the control, and a
    /// cancelled pass stops within a few files, commits what it did and says so in its report.
    pub fn update_with(&self, full: bool, control: &Control) -> Result<Report> {
        let progress = |done: u64, total: u64| control.progress(done, Some(total), "files indexed");
        self.update_until(full, Some(&progress), Some(control.flag()))
    }

    fn update_until(
        &self,
        full: bool,
        progress: Option<Progress>,
        cancel: Option<&AtomicBool>,
    ) -> Result<Report> {
        // A read-only index whose owner has gone is taken over first.
        let owned = self.take_over(false);
        let fulltext = self.fulltext().filter(|_| owned);
        let Some(fulltext) = fulltext else {
            anyhow::bail!(
                "{}",
                self.read_only_reason()
                    .unwrap_or_else(|| "the index is not writable".into())
            );
        };
        let fulltext = &*fulltext;
        let _pass = self.pass.lock().unwrap_or_else(|p| p.into_inner());
        // Rebuilding (and queries degraded with index_building) only once the walk has found
        // something to do: a pass over a current index changes nothing and says nothing.
        let result = self.pass(fulltext, full, progress, cancel);
        self.pending.store(0, Ordering::Relaxed);
        match &result {
            Ok(report) if report.cancelled => {
                self.set_freshness(Freshness::Stale);
                tracing::info!("indexing cancelled: {report}");
                self.resume_later();
            }
            Ok(report) => {
                // Every file is accounted for now.
                self.publish_awaiting(Arc::default());
                self.first_pass_done.store(true, Ordering::Release);
                self.passes.fetch_add(1, Ordering::AcqRel);
                let conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
                let pass = catalog::Pass {
                    finished_ms: now_ms(),
                    fingerprint: report.fingerprint.clone(),
                    readers: report.readers.clone(),
                };
                if let Err(err) = catalog::record_pass(&conn, &pass) {
                    tracing::warn!("recording the pass: {err:#}");
                }
                drop(conn);
                self.set_freshness(Freshness::Fresh);
                self.last_indexed_ms.store(now_ms(), Ordering::Relaxed);
            }
            Err(err) => {
                self.set_freshness(Freshness::Stale);
                tracing::error!("indexing failed: {err:#}");
            }
        }
        result
    }

    fn pass(
        &self,
        fulltext: &super::Fulltext,
        full: bool,
        progress: Option<Progress>,
        cancel: Option<&AtomicBool>,
    ) -> Result<Report> {
        let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Acquire));
        let started = Instant::now();
        let mut report = Report::default();
        let found = Arc::new(scan::scan(&self.ws, &self.settings.exclude)?);
        report.scanned = found.len() as u64;
        let parsers = self.parsers();
        report.readers = classify::readers(parsers.as_deref());
        report.fingerprint = scan::fingerprint(&found, &report.readers);
        lap(&mut report, "scan", started);
        let (mut known, known_skips) = {
            let conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
            let last = catalog::last_pass(&conn)?;
            // The files are as the last complete pass saw them: the index is fresh as it is
            // (a new process says so from here, not only once this pass ends).
            let unchanged = last
                .as_ref()
                .is_some_and(|pass| pass.fingerprint == report.fingerprint);
            if !full && unchanged && self.freshness() == Freshness::Stale {
                self.set_freshness(Freshness::Fresh);
            }
            let known = catalog::known(&conn)?;
            // Other readers than the last pass had, or files read by a reader no longer here
            // (catalogued before readers were, or by a pass cancelled before plugins were
            // taken back): no file is as indexed by its size and mtime alone (a file read as
            // text may have a parser now, or have lost one).
            let kept: std::collections::HashSet<&str> =
                known.values().map(|k| k.reader.as_str()).collect();
            report.readers_changed = !full
                && (last.is_some_and(|pass| pass.readers != report.readers)
                    || kept
                        .iter()
                        .any(|r| !classify::is_current(r, parsers.as_deref())));
            (known, catalog::skipped(&conn)?)
        };
        let recheck = report.readers_changed;
        let unreached: HashSet<String> = match full {
            true => known.keys().cloned().collect(),
            false => HashSet::new(),
        };
        if full {
            fulltext.delete_all()?;
            // A full rebuild tries every parser again on every file.
            let conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
            catalog::clear_parser_failures(&conn)?;
        }
        // The walk's own entries, not copies: on a tree of 370,000 files, copies were 50 MB.
        let mut todo: Vec<(&Found, Option<Known>)> = Vec::new();
        let mut seen: HashSet<&str> = HashSet::with_capacity(found.len());
        for f in found.iter() {
            seen.insert(&f.path);
            let previous = known.get(&f.path);
            if !full && !recheck && previous.is_some_and(|k| k.unchanged(f.size, f.mtime_ms)) {
                report.unchanged += 1;
                continue;
            }
            // Left out before and unchanged since: left out again, without a read.
            if !full
                && !recheck
                && let Some(s) = known_skips.get(&f.path)
                && s.known.unchanged(f.size, f.mtime_ms)
                && let Some(reason) = SkipReason::parse(&s.reason)
                && reason.lasts(f.size, self.settings.max_file_bytes)
            {
                count_skip(&mut report, &f.path, reason);
                continue;
            }
            todo.push((f, if full { None } else { previous.cloned() }));
        }
        // What a live scan looks at until this pass is done: this walk, when the catalogue
        // does not account for some of its files (the scan leaves out those it does).
        let unaccounted = found
            .iter()
            .any(|f| !known.contains_key(&f.path) && !known_skips.contains_key(&f.path));
        self.publish_awaiting(match unaccounted {
            true => Arc::clone(&found),
            false => Arc::default(),
        });
        let mut removed: Vec<String> = known
            .keys()
            .chain(known_skips.keys())
            .filter(|p| !seen.contains(p.as_str()))
            .cloned()
            .collect();
        // Files skipped by name or size (secrets, images, archives) the catalogue does not
        // know yet change no answer: they are not work that makes answers stale.
        let max = self.settings.max_file_bytes;
        // Nor are files hashed again only because their mtime is recent (`Known::unchanged`):
        // they almost always turn out as they were.
        let work = todo.iter().any(|(f, k)| {
            f.size <= max
                && classify::skip_by_name(&f.path).is_none()
                && !k
                    .as_ref()
                    .is_some_and(|k| k.size == f.size && k.mtime_ms == f.mtime_ms)
        });
        if full || recheck || work || !removed.is_empty() {
            self.set_freshness(Freshness::Rebuilding);
        }
        let total = todo.len() as u64;
        self.pending.store(total, Ordering::Relaxed);
        // Whatever ends the pass, the parser instances it kept between files go with it.
        struct PassDone<'p>(Option<&'p Arc<dyn DocumentParsers>>);
        impl Drop for PassDone<'_> {
            fn drop(&mut self) {
                if let Some(parsers) = self.0 {
                    parsers.pass_done();
                }
            }
        }
        let _done = PassDone(parsers.as_ref());
        // The catalogue is written on its own thread, each batch after the search index
        // commit that covers it, while the next files are extracted.
        std::thread::scope(|scope| {
            let (tx, rx) = mpsc::sync_channel::<CatalogBatch>(1);
            let writer = scope.spawn(move || self.write_catalog(rx));
            let mut batches = Batches {
                tx,
                entries: Vec::new(),
                touched: Vec::new(),
                skipped: Vec::new(),
                unreached,
                commits: 0,
            };
            let ticker = Ticker {
                progress,
                total,
                extracted: AtomicU64::new(0),
                last: std::sync::Mutex::new(0),
            };
            let result = (|| -> Result<()> {
                let mut last_commit = Instant::now();
                let mut done = 0u64;
                for batch in batches_within(&todo, |(f, _)| f.size) {
                    let t = Instant::now();
                    // Workers check the flag per file, so a cancel stops a batch in
                    // about the time one file takes.
                    let outcomes: Vec<Outcome> = batch
                        .par_iter()
                        .map(|(f, k)| {
                            self.yield_to_queries();
                            match cancelled() {
                                true => Outcome::Cancelled,
                                false => {
                                    let outcome = self.prepare(f, k.as_ref(), parsers.as_ref());
                                    ticker.file_done();
                                    outcome
                                }
                            }
                        })
                        .collect();
                    lap(&mut report, "extract", t);
                    let t = Instant::now();
                    let mut looked_at = 0u64;
                    for outcome in outcomes {
                        if matches!(outcome, Outcome::Cancelled) {
                            continue;
                        }
                        looked_at += 1;
                        self.absorb(
                            outcome,
                            fulltext,
                            &mut report,
                            &mut batches,
                            &mut known,
                            &mut removed,
                        )?;
                    }
                    done += looked_at;
                    self.pending.store(total - done, Ordering::Relaxed);
                    ticker.report(done);
                    lap(&mut report, "add", t);
                    if cancelled() {
                        // No file is being indexed any more: status says so at once, while
                        // the writer drops what was not committed (tantivy's rollback joins
                        // its threads: ~0.2 s on two cores).
                        tracing::debug!("pass cancelled; the batch ended");
                        self.set_freshness(Freshness::Stale);
                        report.cancelled = true;
                        break;
                    }
                    if last_commit.elapsed() >= COMMIT_EVERY {
                        batches.commit(fulltext, Vec::new(), &mut report)?;
                        last_commit = Instant::now();
                    }
                }
                if report.cancelled {
                    // Stop now: what was not committed yet is dropped (it would take a commit
                    // as long as the work itself), so the index is as of the last commit.
                    // Deletions wait for a pass that looked at everything.
                    let t = Instant::now();
                    fulltext.rollback()?;
                    tracing::debug!(
                        "cancelled pass rolled back in {} ms",
                        t.elapsed().as_millis()
                    );
                    batches.entries.clear();
                    batches.touched.clear();
                    batches.skipped.clear();
                    if batches.commits > 0 {
                        let stale: Vec<String> = batches.unreached.drain().collect();
                        if !stale.is_empty() {
                            // Those files are in neither index now: live scans look for them
                            // again, and no process may take the files for as indexed as
                            // the last complete pass left them.
                            self.publish_awaiting(Arc::clone(&found));
                            let conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
                            catalog::forget_passes(&conn)?;
                        }
                        batches
                            .tx
                            .send(CatalogBatch {
                                entries: Vec::new(),
                                touched: Vec::new(),
                                skipped: Vec::new(),
                                removed: stale,
                            })
                            .map_err(|_| anyhow::anyhow!("the catalogue writer stopped"))?;
                    }
                    return Ok(());
                }
                for path in &removed {
                    fulltext.delete_file(path)?;
                }
                report.removed = removed.len() as u64;
                batches.commit(fulltext, std::mem::take(&mut removed), &mut report)
            })();
            drop(batches);
            let catalog = writer
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the catalogue writer panicked")));
            // A catalogue failure explains a refused send, so it is reported first.
            let catalog_ms = catalog?;
            result?;
            report.phase_ms.insert("commit_catalog", catalog_ms);
            anyhow::Ok(())
        })?;
        report.seconds = started.elapsed().as_secs_f64();
        Ok(report)
    }

    /// Counts one file's outcome and queues its search documents and catalogue rows.
    fn absorb(
        &self,
        outcome: Outcome,
        fulltext: &super::Fulltext,
        report: &mut Report,
        batches: &mut Batches,
        known: &mut std::collections::HashMap<String, Known>,
        removed: &mut Vec<String>,
    ) -> Result<()> {
        match outcome {
            Outcome::Indexed {
                mut entry,
                whole_text,
                warnings,
            } => {
                let docs: Vec<ChunkDoc> = entry
                    .chunks
                    .iter()
                    .map(|chunk| ChunkDoc {
                        path: &entry.path,
                        language: entry.language.as_deref(),
                        chunk,
                    })
                    .collect();
                let whole = whole_text
                    .as_deref()
                    .map(|text| super::fulltext::WholeFile {
                        text,
                        language: entry.language.as_deref(),
                        calls: entry
                            .edges
                            .iter()
                            // A function named as a value is no call of its name.
                            .filter(|e| e.0 == "call" && !e.2.starts_with(code::NAMED_AS_VALUE))
                            .map(|e| e.1.as_str())
                            .collect(),
                    });
                fulltext.replace_file(&entry.path, &docs, whole)?;
                entry.chunk_count = entry.chunks.len() as u64;
                entry.chunks = Vec::new();
                *report.indexed.entry(entry.kind).or_default() += 1;
                report.chunks += entry.chunk_count;
                report.symbols += entry.symbols.len() as u64;
                report.bytes += entry.size;
                report.lossy += u64::from(entry.lossy);
                if let Some(code) = &entry.parse_error {
                    *report.failed.entry(code.clone()).or_default() += 1;
                }
                report.warnings.extend(warnings);
                batches.entries.push(*entry);
            }
            Outcome::Touched(f) => {
                report.touched += 1;
                batches.touched.push((f.path, f.size, f.mtime_ms));
            }
            Outcome::Skipped(found, reason) => {
                count_skip(report, &found.path, reason);
                // Its chunks leave the search index; its catalogue row gives way to the
                // skipped one (written with the batch).
                if known.remove(&found.path).is_some() {
                    fulltext.delete_file(&found.path)?;
                }
                batches
                    .skipped
                    .push((found.path, found.size, found.mtime_ms, reason.as_str()));
            }
            Outcome::Vanished(path) => {
                if known.remove(&path).is_some() {
                    removed.push(path);
                }
            }
            Outcome::Cancelled => {}
        }
        Ok(())
    }

    /// Applies catalogue batches in order until the sender is done; returns the time spent.
    fn write_catalog(&self, batches: mpsc::Receiver<CatalogBatch>) -> Result<u64> {
        let mut spent = Duration::ZERO;
        for batch in batches {
            let t = Instant::now();
            let mut conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
            catalog::apply(
                &mut conn,
                &batch.entries,
                &batch.touched,
                &batch.skipped,
                &batch.removed,
            )
            .context("writing the catalogue")?;
            spent += t.elapsed();
        }
        Ok(spent.as_millis() as u64)
    }

    /// Reads, classifies and extracts one file. Never fails: what cannot be indexed is
    /// skipped with a reason.
    pub(super) fn prepare(
        &self,
        found: &Found,
        known: Option<&Known>,
        parsers: Option<&Arc<dyn DocumentParsers>>,
    ) -> Outcome {
        let path = &found.path;
        let skipped = |reason| Outcome::Skipped(found.clone(), reason);
        if let Some(reason) = classify::skip_by_name(path) {
            return skipped(reason);
        }
        let max = self.settings.max_file_bytes;
        if found.size > max {
            return skipped(SkipReason::TooLarge);
        }
        let options = ReadOptions {
            max_bytes: max,
            allow_sensitive: false,
            allow_binary: true,
            allow_truncate: false,
        };
        let file = match self.ws.read(path, options) {
            Ok(file) => file,
            Err(err) => {
                let reason = match err.code.as_str() {
                    codes::FILE_NOT_FOUND => return Outcome::Vanished(path.clone()),
                    codes::TOO_LARGE => SkipReason::TooLarge,
                    codes::SENSITIVE_BLOCKED => SkipReason::Sensitive,
                    _ => SkipReason::Unreadable,
                };
                tracing::debug!("not indexing {path}: {}", err.message);
                return skipped(reason);
            }
        };
        let size = file.bytes.len() as u64;
        let current = Found {
            path: path.clone(),
            size,
            mtime_ms: found.mtime_ms,
        };
        let head = &file.bytes[..file.bytes.len().min(8192)];
        let claims = |p: &str, h: &[u8]| parsers.and_then(|ps| ps.claims(p, h));
        let code_language = |p: &str| parsers.and_then(|ps| ps.code_language(p));
        let class = match classify::classify(path, head, &claims, &code_language) {
            Ok(class) => classify::settle(class, &file.bytes),
            Err(reason) => return skipped(reason),
        };
        let reader = classify::reader(path, head, &class, parsers.map(|p| &**p));
        // Same content, read by the same reader: as indexed.
        if known.is_some_and(|k| k.hash == file.hash && k.reader == reader) {
            return Outcome::Touched(current);
        }
        // Borrowed when the file is valid UTF-8: no copy of its text.
        let decoded = String::from_utf8_lossy(&file.bytes);
        let lossy = matches!(decoded, std::borrow::Cow::Owned(_));
        let mut warnings = Vec::new();
        // Secret-looking values never reach the search index or the catalogue (lines stay put):
        // text arrives as its view already; a binary's decoded bytes are redacted here, and a
        // document's parsed text below.
        let (text, again) = if file.binary {
            secrets::redact(&decoded)
        } else {
            (decoded, 0)
        };
        let hidden = file.redacted + again;
        if hidden > 0 {
            warnings.push(format!(
                "{path}: {hidden} secret-looking value(s) redacted before indexing"
            ));
        }
        let mut entry = FileEntry {
            path: path.clone(),
            hash: file.hash,
            size,
            mtime_ms: found.mtime_ms,
            kind: class.kind(),
            language: class.language().map(str::to_string),
            reader,
            lossy: lossy && !matches!(class, Class::Document(_)),
            chunks: Vec::new(),
            chunk_count: 0,
            symbols: Vec::new(),
            edges: Vec::new(),
            parse_error: None,
        };
        // Code files also get a whole-file document, made of their text.
        let mut whole = false;
        match class {
            Class::Code(lang) => {
                add_code(&mut entry, &text, code::extract_file(lang, path, &text));
                whole = true;
            }
            Class::ComponentCode(_) => {
                let parsed = parsers
                    .map(|p| p.parse_code(self, path, text.as_bytes()))
                    .unwrap_or_else(|| {
                        Err(crate::error::HostError::new(
                            codes::UNSUPPORTED_LANGUAGE,
                            "no code parser",
                        ))
                    });
                match parsed {
                    Ok((language, x)) => {
                        entry.language = Some(language);
                        add_code(&mut entry, &text, x);
                    }
                    // What the parser could not read is still searchable, in blocks of lines.
                    Err(err) => {
                        tracing::info!("{path}: not parsed: {} ({})", err.message, err.code);
                        warnings.push(format!("{path}: {} ({})", err.message, err.code));
                        entry.parse_error = Some(err.code);
                        entry.chunks = chunks::text_chunks(path, &text);
                    }
                }
                whole = true;
            }
            Class::Document(_) => {
                parse_document(self, &mut entry, parsers, &file.bytes, &text, &mut warnings);
            }
            Class::Text => match parsers.filter(|p| p.has_text_fallback()) {
                Some(_) => {
                    parse_document(self, &mut entry, parsers, &file.bytes, &text, &mut warnings)
                }
                None => entry.chunks = chunks::text_chunks(path, &text),
            },
        }
        // A text's chunks that are its own lines are read back from it, not stored: where
        // the text is the file's bytes (not a binary's parsed text, not decoded lossily, no
        // value hidden), so a chunk's place in the text is its place in the file.
        if !file.binary && !lossy && hidden == 0 {
            source_text::mark_verbatim(&text, &mut entry.chunks);
        }
        let whole_text = whole.then(|| text.into_owned());
        Outcome::Indexed {
            entry: Box::new(entry),
            whole_text,
            warnings,
        }
    }
}

/// Fills `entry` with what extraction found in its source `text`: chunks along the
/// definitions, the definitions, and the edges the analysis layer links (imports, calls,
/// aliases, types).
fn add_code(entry: &mut FileEntry, text: &str, x: code::Extraction) {
    entry.chunks = chunks::code_chunks(&entry.path, text, &x.symbols);
    for e in x.imports {
        let key = import_key(&e.name);
        entry.edges.push(("import", e.name, key, e.line));
    }
    // A call's key is its receiver (empty for a plain call): how the analysis layer tells
    // `self.save()` from `other.save()` and `save()`.
    for e in x.calls {
        let key = e.receiver.unwrap_or_default();
        entry.edges.push(("call", e.name, key, e.line));
    }
    // A reference edge binds a local name (the key) to a definition's name.
    for a in x.aliases {
        entry.edges.push(("reference", a.name, a.local, a.line));
    }
    // A type edge gives a variable (or, `field`, a field) its type's name, followed by the
    // last line it holds on when its scope is narrower than its definition (`Foo 42`; a
    // type's name has no space).
    for t in x.types {
        let kind = if t.field { "field" } else { "type" };
        let key = match t.until {
            Some(until) => format!("{} {until}", t.type_name),
            None => t.type_name,
        };
        entry.edges.push((kind, t.name, key, t.line));
    }
    entry.symbols = x.symbols;
}

/// Parses a document (or unclaimed text, with the text fallback) into `entry`. When the
/// parser fails, the failure's code is recorded and logged, and a file that is text after all
/// is indexed in blocks of lines, so nothing searchable is lost; a binary one gets no chunks.
fn parse_document(
    index: &Index,
    entry: &mut FileEntry,
    parsers: Option<&Arc<dyn DocumentParsers>>,
    bytes: &[u8],
    text: &str,
    warnings: &mut Vec<String>,
) {
    let path = entry.path.clone();
    let parsed = parsers
        .map(|p| p.parse(index, &path, bytes))
        .unwrap_or_else(|| Err(crate::error::HostError::new(codes::NO_PARSER, "no parser")));
    match parsed {
        Ok(doc) => {
            entry.chunks = document_chunks(&path, &doc);
            let starts: std::collections::HashMap<&str, u32> = doc
                .sections
                .iter()
                .map(|s| (s.id.as_str(), s.start_line))
                .collect();
            // The sdk's LOSSY_WARNING, which the text-format parsers give.
            entry.lossy = doc.warnings.iter().any(|w| w.contains("invalid UTF-8"));
            for link in &doc.links {
                let key = super::resolve::link_key(&link.target);
                let line = starts.get(link.section_id.as_str()).copied().unwrap_or(0);
                entry.edges.push(("link", link.target.clone(), key, line));
            }
            warnings.extend(doc.warnings.iter().map(|w| format!("{path}: {w}")));
        }
        Err(err) => {
            tracing::info!("{path}: not parsed: {} ({})", err.message, err.code);
            warnings.push(format!("{path}: {} ({})", err.message, err.code));
            entry.parse_error = Some(err.code);
            let head = &bytes[..bytes.len().min(8192)];
            if !crate::workspace::policy::looks_binary(head) && std::str::from_utf8(bytes).is_ok() {
                entry.kind = "text";
                entry.chunks = chunks::text_chunks(&path, text);
            }
        }
    }
}

fn document_chunks(path: &str, doc: &super::documents::Document) -> Vec<Chunk> {
    doc.sections
        .iter()
        .filter(|s| !s.text.trim().is_empty() || !s.heading_path.is_empty())
        .map(|s| {
            let body = match s.heading_path.last() {
                Some(h) if !s.text.contains(h.as_str()) => format!("{h}\n{}", s.text),
                _ => s.text.clone(),
            };
            let body = match secrets::redact(&body) {
                (std::borrow::Cow::Owned(redacted), _) => redacted,
                (std::borrow::Cow::Borrowed(_), _) => body,
            };
            chunks::section_chunk(
                path,
                &doc.kind,
                &s.id,
                s.heading_path.clone(),
                (s.start_line, s.end_line),
                s.page,
                body,
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(sizes: &[u64]) -> Vec<usize> {
        batches_within(sizes, |s| *s).map(<[u64]>::len).collect()
    }

    #[test]
    fn a_pass_batches_files_by_count_and_by_bytes() {
        const MB: u64 = 1 << 20;
        // Small files: by count.
        assert_eq!(cut(&vec![4096; 1100]), [512, 512, 76]);
        // Large files: by bytes, each batch within the budget.
        assert_eq!(cut(&[2 * MB; 20]), [8, 8, 4]);
        // A file over the budget is a batch of its own; nothing is lost or repeated.
        assert_eq!(cut(&[MB, 40 * MB, MB, MB]), [1, 1, 2]);
        assert_eq!(cut(&[40 * MB]), [1]);
        assert!(cut(&[]).is_empty());
        let sizes: Vec<u64> = (0..3000).map(|i| (i * 7919 % 5000) * 1024).collect();
        let batches: Vec<&[u64]> = batches_within(&sizes, |s| *s).collect();
        assert_eq!(batches.concat(), sizes);
        for batch in batches {
            assert!(batch.len() <= BATCH);
            assert!(batch.len() == 1 || batch.iter().sum::<u64>() <= BATCH_BYTES);
        }
    }
}
