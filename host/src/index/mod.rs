//! The code and document index: a parallel scanner, tree-sitter extraction, format-parser
//! components for documents, a tantivy BM25 index of chunks and a SQLite catalogue of files,
//! symbols and edges, kept fresh incrementally and by a file watcher.
//!
//! One process owns a root's index (an exclusive lock on `.smart-context/index.lock`);
//! another server on the same root opens it read-only, says so in its status, and takes the
//! index over (and starts keeping it fresh) as soon as the owner exits.

pub mod catalog;
pub mod chunks;
pub mod classify;
pub mod code;
pub mod digest;
pub mod documents;
pub mod facts;
pub mod fulltext;
mod indexer;
pub mod live;
pub mod previews;
pub mod queries;
pub mod query_reader;
pub mod rank;
pub mod resolve;
pub mod roles;
pub mod scan;
pub mod scip;
pub mod source_text;
pub mod tokenizer;
mod watch;

pub use documents::DocumentParsers;
pub use indexer::Report;
pub use queries::{
    Backlink, DocLinks, Import, Importer, MatchKind, OutgoingLink, Reference, SearchOutcome,
    SectionSelector, SectionView, SymbolMatch,
};

use crate::config::IndexSettings;
use crate::workspace::Workspace;
use anyhow::{Context, Result};
use fulltext::Fulltext;
use rusqlite::Connection;
use source_text::WorkspaceFiles;
use std::fs::File;
use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, RwLock, Weak};

pub use crate::text::clip;

/// The index directory under the state directory.
pub const INDEX_DIR: &str = "index";
pub const LOCK_FILE: &str = "index.lock";

/// Freshness, as status reports it (ADR-033's indexStatus).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Freshness {
    /// Matches the files as of the last pass, and the watcher has seen nothing since.
    Fresh = 0,
    /// Files changed (or may have) and are not reindexed yet.
    Stale = 1,
    /// A pass is running; queries answer from what is committed so far.
    Rebuilding = 2,
}

impl Freshness {
    pub fn as_str(self) -> &'static str {
        match self {
            Freshness::Fresh => "fresh",
            Freshness::Stale => "stale",
            Freshness::Rebuilding => "rebuilding",
        }
    }

    fn from_u8(v: u8) -> Self {
        match v {
            0 => Freshness::Fresh,
            2 => Freshness::Rebuilding,
            _ => Freshness::Stale,
        }
    }
}

/// A status snapshot.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexStatus {
    pub state: &'static str,
    pub files: u64,
    pub code: u64,
    pub documents: u64,
    pub text: u64,
    pub chunks: u64,
    pub symbols: u64,
    /// Files of the running pass not processed yet.
    pub pending: u64,
    /// Files the last pass left out (binary, sensitive, too large, unreadable).
    pub skipped: u64,
    /// Files whose invalid UTF-8 was decoded lossily.
    pub lossy: u64,
    /// Documents whose parser failed, by error code (ENCRYPTED, MALFORMED, ...).
    pub failed: std::collections::BTreeMap<String, u64>,
    pub last_indexed_ms: u64,
    pub read_only: bool,
    pub watching: bool,
    pub message: Option<String>,
}

/// When file roles were learned: this process's passes, and the catalogue's last recorded pass.
type LearnedAt = (u64, Option<u64>);

pub struct Index {
    ws: Arc<Workspace>,
    /// Where the chunks the search index does not keep are read back from: the root's
    /// files, as the indexer reads them.
    sources: WorkspaceFiles,
    settings: IndexSettings,
    /// Where the lock and the search index live.
    state_dir: std::path::PathBuf,
    /// None when there is no search index to read yet (read-only, before the owner made one);
    /// replaced when this process takes the index over.
    fulltext: RwLock<Option<Arc<Fulltext>>>,
    writer: Mutex<Connection>,
    reader: Mutex<Connection>,
    /// A second reader for reads of the whole catalogue (the analysis layer's facts of every
    /// file, seconds on a large tree): in WAL mode it reads beside `reader`, so a search's
    /// previews never wait behind a graph build.
    bulk: Mutex<Connection>,
    parsers: RwLock<Option<Weak<dyn DocumentParsers>>>,
    /// One pass at a time.
    pass: Mutex<()>,
    freshness: AtomicU8,
    pending: AtomicU64,
    last_indexed_ms: AtomicU64,
    watching: std::sync::atomic::AtomicBool,
    /// A pass has looked at every file since this process opened the index.
    first_pass_done: std::sync::atomic::AtomicBool,
    /// Passes completed by this process (cancelled ones not counted).
    passes: AtomicU64,
    /// Wakes the background follow loop (see `resume_later`), once it runs.
    nudge: Mutex<Option<std::sync::mpsc::Sender<()>>>,
    /// The last live scan, reused by the searches of one call: (words and scope, when, scan).
    #[allow(clippy::type_complexity)]
    live_cache: Mutex<
        Option<(
            (String, Option<String>),
            std::time::Instant,
            Arc<live::LiveScan>,
        )>,
    >,
    /// The on-disk freshness check ran (see `settle_freshness`).
    freshness_checked: std::sync::atomic::AtomicBool,
    /// This process's latest walk, when the catalogue did not account for some of its files
    /// then (empty when it did): what a live scan looks at, instead of walking the tree again
    /// for every question (hundreds of milliseconds on a large tree). None before any walk.
    awaiting: RwLock<Option<Arc<Vec<scan::Found>>>>,
    /// Live scans running now: indexing workers wait for them.
    live_scans: AtomicUsize,
    /// Why this instance cannot write the index, when it cannot.
    read_only: RwLock<Option<String>>,
    /// The project's test conventions, learned from the catalogue as of a pass: by this
    /// process's passes and the last one the catalogue records (another process's, when this
    /// one only reads).
    roles: Mutex<Option<(LearnedAt, Arc<roles::Roles>)>>,
    /// Held for the life of the index: the exclusive lock that makes this process the writer.
    lock: Mutex<Option<File>>,
    /// The project's SCIP index as last read, with the size and mtime it was read at.
    scip: Mutex<scip::Cached>,
    /// Every definition's name (lower case) as of a catalogue version: what a lookup of a
    /// name the index lacks compares against, read once per change instead of per lookup.
    names: Mutex<Option<(i64, Arc<Vec<String>>)>>,
}

impl Index {
    /// Opens the index of `root` (state under `state_dir`, catalogue in `db`, already
    /// migrated). A damaged search index is rebuilt; a locked one is opened read-only.
    pub fn open(root: &Path, state_dir: &Path, db: &Path, settings: IndexSettings) -> Result<Self> {
        let ws = Arc::new(Workspace::open(root)?);
        let lock = open_lock(state_dir)?;
        let (lock, read_only) = match lock.try_lock() {
            Ok(()) => (Some(lock), None),
            Err(std::fs::TryLockError::WouldBlock) => {
                let why = "another smart-context process is indexing this root; this one \
                           answers from its index read-only, and takes it over when that \
                           process exits";
                tracing::warn!("{why}");
                (None, Some(why.to_string()))
            }
            Err(std::fs::TryLockError::Error(err)) => {
                return Err(err).context("locking the index");
            }
        };
        let dir = state_dir.join(INDEX_DIR);
        let writer = catalog::connect(db)?;
        let fulltext = match Fulltext::open(&dir, read_only.is_none()) {
            Ok((fulltext, rebuilt)) => {
                if rebuilt {
                    catalog::clear(&writer)?;
                }
                Some(Arc::new(fulltext))
            }
            Err(err) if read_only.is_some() => {
                tracing::warn!("no search index to read yet: {err:#}");
                None
            }
            Err(err) => return Err(err),
        };
        Ok(Self {
            sources: WorkspaceFiles {
                ws: ws.clone(),
                max_bytes: settings.max_file_bytes,
            },
            ws,
            settings,
            state_dir: state_dir.to_path_buf(),
            fulltext: RwLock::new(fulltext),
            writer: Mutex::new(writer),
            reader: Mutex::new(catalog::connect(db)?),
            bulk: Mutex::new(catalog::connect(db)?),
            parsers: RwLock::new(None),
            pass: Mutex::new(()),
            freshness: AtomicU8::new(Freshness::Stale as u8),
            pending: AtomicU64::new(0),
            last_indexed_ms: AtomicU64::new(0),
            watching: false.into(),
            first_pass_done: false.into(),
            passes: AtomicU64::new(0),
            nudge: Mutex::new(None),
            live_cache: Mutex::new(None),
            live_scans: AtomicUsize::new(0),
            freshness_checked: false.into(),
            awaiting: RwLock::new(None),
            read_only: RwLock::new(read_only),
            roles: Mutex::new(None),
            lock: Mutex::new(lock),
            scip: Mutex::new(None),
            names: Mutex::new(None),
        })
    }

    /// The roles of the project's files (source, test, changelog, generated), by the
    /// conventions its catalogued files show; learned again after each pass.
    pub fn roles(&self) -> Arc<roles::Roles> {
        let conn = self.reader.lock().unwrap_or_else(|p| p.into_inner());
        let recorded = catalog::last_pass(&conn)
            .ok()
            .flatten()
            .map(|pass| pass.finished_ms);
        let at = (self.passes.load(Ordering::Acquire), recorded);
        let mut cached = self.roles.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((learned, roles)) = cached.as_ref()
            && *learned == at
        {
            return roles.clone();
        }
        let paths = catalog::indexed_paths(&conn).unwrap_or_else(|err| {
            tracing::debug!("listing paths for their roles: {err:#}");
            Vec::new()
        });
        drop(conn);
        let roles = Arc::new(roles::Roles::from_paths(paths.iter().map(String::as_str)));
        *cached = Some((at, roles.clone()));
        roles
    }

    /// The search index, when there is one.
    pub(crate) fn fulltext(&self) -> Option<Arc<Fulltext>> {
        self.fulltext
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// A read-only index becomes this process's when the owner's lock is free: takes the lock,
    /// opens the search index for writing and says so. `wait` blocks until the lock is free.
    /// True when this process owns the index (now or already).
    pub fn take_over(&self, wait: bool) -> bool {
        if !self.is_read_only() {
            return true;
        }
        let Ok(lock) = open_lock(&self.state_dir) else {
            return false;
        };
        let locked = match wait {
            true => lock.lock().is_ok(),
            false => lock.try_lock().is_ok(),
        };
        if !locked {
            return false;
        }
        let mut held = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        if held.is_some() {
            return true;
        }
        let opened = Fulltext::open(&self.state_dir.join(INDEX_DIR), true).and_then(
            |(fulltext, rebuilt)| {
                if rebuilt {
                    catalog::clear(&self.writer.lock().unwrap_or_else(|p| p.into_inner()))?;
                }
                Ok(fulltext)
            },
        );
        match opened {
            Ok(fulltext) => {
                *self.fulltext.write().unwrap_or_else(|p| p.into_inner()) =
                    Some(Arc::new(fulltext));
                *held = Some(lock);
                *self.read_only.write().unwrap_or_else(|p| p.into_inner()) = None;
                tracing::warn!(
                    "the other smart-context process released the index: this one owns it now and keeps it fresh"
                );
                true
            }
            Err(err) => {
                tracing::error!("taking over the index failed: {err:#}");
                false
            }
        }
    }

    /// Documents are parsed by whoever this points at (the runtime, once it has loaded).
    pub fn set_parsers(&self, parsers: Weak<dyn DocumentParsers>) {
        *self.parsers.write().unwrap_or_else(|p| p.into_inner()) = Some(parsers);
    }

    /// A pass has looked at every file since this process opened the index: until then
    /// searches also scan the files it does not hold yet.
    pub fn first_pass_done(&self) -> bool {
        self.first_pass_done.load(Ordering::Acquire)
    }

    /// The search index's bytes on disk by part and field (see [`Fulltext::space`]).
    pub fn search_index_space(&self) -> Result<std::collections::BTreeMap<String, u64>> {
        match self.fulltext() {
            Some(fulltext) => fulltext.space(),
            None => Ok(Default::default()),
        }
    }

    /// Merges away deleted documents now and waits (see [`Fulltext::compact`]): what a
    /// one-shot command does before it exits; a server merges in the background.
    pub fn compact(&self) -> Result<()> {
        match self.fulltext() {
            Some(fulltext) if !self.is_read_only() => fulltext.compact(),
            _ => Ok(()),
        }
    }

    /// How many passes this process completed: what changes when the index may have.
    pub fn passes_completed(&self) -> u64 {
        self.passes.load(Ordering::Acquire)
    }

    pub fn is_read_only(&self) -> bool {
        self.read_only
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }

    /// Why this process cannot write the index, when it cannot.
    pub fn read_only_reason(&self) -> Option<String> {
        self.read_only
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// A file watcher keeps the index fresh (so writers need not trigger passes themselves).
    /// The workspace root the index covers.
    pub fn root(&self) -> &Path {
        self.ws.root()
    }

    pub fn is_watching(&self) -> bool {
        self.watching.load(Ordering::Relaxed)
    }

    pub fn freshness(&self) -> Freshness {
        Freshness::from_u8(self.freshness.load(Ordering::Acquire))
    }

    fn set_freshness(&self, f: Freshness) {
        self.freshness.store(f as u8, Ordering::Release);
    }

    fn reader(&self) -> MutexGuard<'_, Connection> {
        self.reader.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn bulk_reader(&self) -> MutexGuard<'_, Connection> {
        self.bulk.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A process that has run no pass knows its index only from disk: when the files match
    /// the last complete pass's fingerprint (a walk, no reads), the index is fresh as it is.
    /// Checked once, on the first status.
    fn settle_freshness(&self) {
        if self.first_pass_done() || self.freshness() != Freshness::Stale {
            return;
        }
        if self.freshness_checked.swap(true, Ordering::AcqRel) {
            return;
        }
        let Ok(Some(last)) = catalog::last_pass(&self.reader()) else {
            return;
        };
        let Ok(found) = scan::scan(&self.ws, &self.settings.exclude) else {
            return;
        };
        let readers = classify::readers(self.parsers().as_deref());
        if scan::fingerprint(&found, &readers) == last.fingerprint
            && self.freshness() == Freshness::Stale
        {
            // The catalogue accounts for every file the walk found; a pass that published
            // its own walk meanwhile knows better.
            let mut awaiting = self.awaiting.write().unwrap_or_else(|p| p.into_inner());
            if awaiting.is_none() {
                *awaiting = Some(Arc::default());
            }
            drop(awaiting);
            self.last_indexed_ms
                .store(last.finished_ms, Ordering::Relaxed);
            self.set_freshness(Freshness::Fresh);
        }
    }

    /// Records what the latest walk found unaccounted for (see `awaiting`).
    fn publish_awaiting(&self, files: Arc<Vec<scan::Found>>) {
        *self.awaiting.write().unwrap_or_else(|p| p.into_inner()) = Some(files);
    }

    fn awaiting(&self) -> Option<Arc<Vec<scan::Found>>> {
        self.awaiting
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn status(&self) -> IndexStatus {
        self.settle_freshness();
        let counts = catalog::counts(&self.reader()).unwrap_or_else(|err| {
            tracing::warn!("reading index counts: {err:#}");
            Default::default()
        });
        IndexStatus {
            state: self.freshness().as_str(),
            files: counts.files,
            code: counts.code,
            documents: counts.documents,
            text: counts.text,
            chunks: counts.chunks,
            symbols: counts.symbols,
            pending: self.pending.load(Ordering::Relaxed),
            skipped: counts.skipped,
            lossy: counts.lossy,
            failed: counts.failed,
            last_indexed_ms: self.last_indexed_ms.load(Ordering::Relaxed),
            read_only: self.is_read_only(),
            watching: self.watching.load(Ordering::Relaxed),
            message: self.read_only_reason(),
        }
    }
}

/// The lock file whose exclusive lock makes a process the index's writer.
fn open_lock(state_dir: &Path) -> Result<File> {
    let path = state_dir.join(LOCK_FILE);
    File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))
}

/// Whether `path` is `scope` or under it (no scope, `""` and `.` are the whole root).
fn in_scope(path: &str, scope: Option<&str>) -> bool {
    match scope.map(|s| s.trim_matches('/')) {
        None | Some("" | ".") => true,
        Some(scope) => {
            path == scope
                || path
                    .strip_prefix(scope)
                    .is_some_and(|rest| rest.starts_with('/'))
        }
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod upkeep_tests;
