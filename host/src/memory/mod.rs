//! Session memory (spec/progressive-disclosure-memory.md): what happened in earlier sessions,
//! found again in three layers (an index of one-line summaries, a timeline around chosen
//! events, their full details) without any model: events are captured deterministically (every
//! served tool call, the agent's notes, a client's hook payloads), stored in state.db with a
//! full-text index, and scored by how much of a question's information an event holds.
//!
//! Writes of tool events happen behind the answer, on a writer thread with its own SQLite
//! connection; reads go through per-layer caches (the spec's §7 TTLs and sizes) that any write,
//! here or by another process, invalidates.

pub mod capture;
pub mod hook;
pub mod privacy;
pub mod terms;

use crate::error::{HostError, HostResult, codes};
use crate::store::memory::{EventRow, ForgetFilter, NewEvent};
use crate::store::rows::{MemoryRows, Turn};
use crate::store::{JournalKey, Store, now_ms};
use lru::LruCache;
use std::hash::Hash;
use std::num::NonZeroUsize;
use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The four kinds of event the spec names.
pub const KINDS: [&str; 4] = ["prompt", "response", "tool", "insight"];

/// Candidates the full-text index hands the scorer at most.
const CANDIDATES: usize = 400;
/// Related events listed per detail.
const RELATED: u32 = 5;
/// A turn's children listed per detail at most.
const CHILDREN: u32 = 20;
/// An event's stored content at most (a pasted log or a long prompt); more is cut, marked.
const MAX_CONTENT_CHARS: usize = 20_000;

/// The operator's switches, from the environment.
#[derive(Debug, Clone, PartialEq)]
pub struct MemorySettings {
    /// SMART_CONTEXT_MEMORY (on): `off` captures nothing and answers nothing.
    pub enabled: bool,
    /// SMART_CONTEXT_MEMORY_MAX_EVENTS (100000): the newest this many are kept.
    pub max_events: u64,
    /// SMART_CONTEXT_MEMORY_MAX_AGE_DAYS (0 = no limit): older events are dropped.
    pub max_age_days: u64,
}

impl Default for MemorySettings {
    fn default() -> Self {
        Self {
            enabled: true,
            max_events: 100_000,
            max_age_days: 0,
        }
    }
}

impl MemorySettings {
    pub fn from_env() -> Self {
        Self::from_lookup(|name| std::env::var(name).ok())
    }

    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Self {
        let d = Self::default();
        let number = |name: &str, default: u64| match lookup(name) {
            None => default,
            Some(raw) => raw.trim().parse().unwrap_or_else(|_| {
                tracing::warn!("{name}={raw:?} is not a number; using {default}");
                default
            }),
        };
        Self {
            enabled: lookup("SMART_CONTEXT_MEMORY").is_none_or(|v| {
                !matches!(
                    v.trim().to_lowercase().as_str(),
                    "off" | "0" | "false" | "no"
                )
            }),
            max_events: number("SMART_CONTEXT_MEMORY_MAX_EVENTS", d.max_events),
            max_age_days: number("SMART_CONTEXT_MEMORY_MAX_AGE_DAYS", d.max_age_days),
        }
    }
}

/// Layer 1: one search result.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexItem {
    pub id: String,
    pub summary: String,
    /// 0..1: the share of the question's information the event holds (see [`score`]).
    pub score: f64,
    pub kind: String,
    pub timestamp_ms: u64,
    pub session_id: String,
}

/// What a search is narrowed to.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SearchFilter {
    pub kinds: Vec<String>,
    pub session_id: Option<String>,
    pub since_ms: Option<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SearchOutcome {
    pub items: Vec<IndexItem>,
    /// Events at or over the minimum score, before the top-k cut.
    pub total_matches: u32,
}

/// Layer 2: one event of a timeline.
#[derive(Debug, Clone, PartialEq)]
pub struct TimelineItem {
    pub id: String,
    pub timestamp_ms: u64,
    pub kind: String,
    pub preview: String,
    pub is_target: bool,
    pub session_id: String,
    pub tool: Option<String>,
}

/// Layer 3: one event whole.
#[derive(Debug, Clone, PartialEq)]
pub struct Detail {
    pub id: String,
    pub content: String,
    pub kind: String,
    pub timestamp_ms: u64,
    pub session_id: String,
    pub token_count: u32,
    pub has_code: bool,
    pub files: Vec<String>,
    pub tools: Vec<String>,
    pub tags: Vec<String>,
    pub transaction_id: Option<String>,
    pub parent_id: Option<String>,
    pub child_ids: Vec<String>,
    pub related_ids: Vec<String>,
}

/// A note the agent asks to keep.
#[derive(Debug, Clone, Default)]
pub struct Note {
    pub content: String,
    pub files: Vec<String>,
    pub tags: Vec<String>,
}

/// Counts for status.
#[derive(Debug, Clone, PartialEq)]
pub struct Totals {
    pub events: u64,
    pub sessions: u64,
    pub oldest_ms: u64,
    pub newest_ms: u64,
    pub session_id: String,
    pub enabled: bool,
}

/// `mem_12` for sequence number 12.
pub fn event_id(seq: i64) -> String {
    format!("mem_{seq}")
}

/// The sequence number of `mem_12` (or a bare `12`); None for anything else.
pub fn parse_id(id: &str) -> Option<i64> {
    id.trim()
        .strip_prefix("mem_")
        .unwrap_or(id.trim())
        .parse()
        .ok()
        .filter(|n| *n > 0)
}

enum Message {
    Event(Box<NewEvent>),
    /// Answered once everything sent before it is stored.
    Flush(mpsc::Sender<()>),
}

/// A cache of one layer: entries expire after a TTL, and all go when the memory changes.
struct Layer<K: Hash + Eq, V: Clone> {
    entries: LruCache<K, (Instant, V)>,
    ttl: Duration,
}

impl<K: Hash + Eq, V: Clone> Layer<K, V> {
    fn new(size: usize, ttl: Duration) -> Self {
        Self {
            entries: LruCache::new(NonZeroUsize::new(size).unwrap_or(NonZeroUsize::MIN)),
            ttl,
        }
    }

    fn get(&mut self, key: &K) -> Option<V> {
        let fresh = self
            .entries
            .get(key)
            .map(|(at, _)| at.elapsed() < self.ttl)?;
        if !fresh {
            self.entries.pop(key);
            return None;
        }
        self.entries.get(key).map(|(_, v)| v.clone())
    }

    fn put(&mut self, key: K, value: V) {
        self.entries.put(key, (Instant::now(), value));
    }
}

type SearchKey = (Vec<String>, u32, u64, SearchFilter);

/// The §7.1 caches, and the state of the memory they were filled from.
struct Caches {
    search: Layer<SearchKey, SearchOutcome>,
    timeline: Layer<(Vec<i64>, u32), Vec<TimelineItem>>,
    details: Layer<i64, Detail>,
    /// (this connection's writes, SQLite's data_version) when the caches were filled.
    generation: (u64, i64),
    hits: u64,
    misses: u64,
}

impl Caches {
    fn new() -> Self {
        Self {
            search: Layer::new(100, Duration::from_secs(60)),
            timeline: Layer::new(500, Duration::from_secs(5 * 60)),
            details: Layer::new(200, Duration::from_secs(30 * 60)),
            generation: (0, 0),
            hits: 0,
            misses: 0,
        }
    }

    fn clear(&mut self) {
        self.search.entries.clear();
        self.timeline.entries.clear();
        self.details.entries.clear();
    }
}

struct Shared {
    store: Mutex<Box<dyn MemoryRows>>,
    /// A pool's handle to clone per operation, when the rows have one (no turn-taking).
    concurrent: Option<Box<dyn MemoryRows + Sync>>,
    /// Writes through this connection; with SQLite's data_version (writes by others) it says
    /// whether the caches still hold.
    writes: std::sync::atomic::AtomicU64,
}

impl Shared {
    fn store(&self) -> Turn<'_, dyn MemoryRows> {
        if let Some(own) = self.concurrent.as_ref().and_then(|rows| rows.handle()) {
            return Turn::Own(own as Box<dyn MemoryRows>);
        }
        Turn::Locked(self.store.lock().unwrap_or_else(|p| p.into_inner()))
    }

    fn wrote(&self) {
        self.writes
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }
}

/// The memory of one root: capture, the three layers, forgetting.
pub struct Memory {
    settings: MemorySettings,
    session_id: String,
    shared: Arc<Shared>,
    caches: Mutex<Caches>,
    writer: Mutex<Option<(mpsc::Sender<Message>, std::thread::JoinHandle<()>)>>,
}

impl Memory {
    /// Opens the memory in state.db at `db` (its own connection) and starts the writer thread.
    /// Retention is applied once here.
    pub fn open(db: &Path, key: JournalKey, settings: MemorySettings) -> anyhow::Result<Self> {
        Self::over(Box::new(Store::open(db, key)?), settings)
    }

    /// The memory kept in `store` (state.db, or the team's PostgreSQL), with its writer
    /// thread. Retention is applied once here.
    pub fn over(mut store: Box<dyn MemoryRows>, settings: MemorySettings) -> anyhow::Result<Self> {
        if settings.enabled {
            let gone = store.prune_events(
                settings.max_events,
                settings.max_age_days.saturating_mul(86_400_000),
                now_ms(),
            )?;
            if gone > 0 {
                tracing::info!("memory: {gone} event(s) past the retention limits dropped");
            }
        }
        let shared = Arc::new(Shared {
            concurrent: store.handle(),
            store: Mutex::new(store),
            writes: Default::default(),
        });
        let (tx, rx) = mpsc::channel();
        let worker = shared.clone();
        let handle = std::thread::Builder::new()
            .name("memory-writer".into())
            .spawn(move || write_behind(&worker, &rx))?;
        Ok(Self {
            settings,
            session_id: format!("ses_{}", &uuid::Uuid::new_v4().simple().to_string()[..12]),
            shared,
            caches: Mutex::new(Caches::new()),
            writer: Mutex::new(Some((tx, handle))),
        })
    }

    /// This server process's session: the one its captured tool calls belong to.
    pub fn session_id(&self) -> &str {
        &self.session_id
    }

    pub fn enabled(&self) -> bool {
        self.settings.enabled
    }

    /// Records a served tool call, behind the answer: the digest is made here (microseconds),
    /// the row written by the writer thread.
    pub fn record_call(
        &self,
        tool: &str,
        args_json: &str,
        outcome: Result<&serde_json::Value, &HostError>,
    ) {
        if !self.settings.enabled || !capture::worth_keeping(tool, args_json) {
            return;
        }
        let d = capture::digest(tool, args_json, outcome);
        let row = EventRow {
            seq: 0,
            session_id: self.session_id.clone(),
            kind: "tool".into(),
            created_ms: now_ms(),
            summary: d.summary,
            content: d.content,
            tool: Some(tool.to_string()),
            files: d.files,
            tags: Vec::new(),
            tx_id: d.tx_id,
            source: "server".into(),
        };
        self.send(row);
    }

    fn send(&self, row: EventRow) {
        let event = prepare(row);
        let writer = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((tx, _)) = writer.as_ref()
            && tx.send(Message::Event(Box::new(event))).is_err()
        {
            tracing::warn!("memory: the writer has stopped; an event was not kept");
        }
    }

    /// Waits until every event recorded so far is stored.
    pub fn flush(&self) {
        let (done, wait) = mpsc::channel();
        {
            let writer = self.writer.lock().unwrap_or_else(|p| p.into_inner());
            let Some((tx, _)) = writer.as_ref() else {
                return;
            };
            if tx.send(Message::Flush(done)).is_err() {
                return;
            }
        }
        let _ = wait.recv_timeout(Duration::from_secs(10));
    }

    /// Stores a note (an `insight`) now and returns its id.
    pub fn remember(
        &self,
        note: &Note,
        session_id: Option<&str>,
        source: &str,
    ) -> HostResult<String> {
        self.require_enabled()?;
        let content = note.content.trim();
        if content.is_empty() {
            return Err(HostError::new(codes::INVALID_ARGS, "a note needs content")
                .suggest("pass content: the decision, finding or failure to keep"));
        }
        let row = EventRow {
            seq: 0,
            session_id: session_id.unwrap_or(&self.session_id).to_string(),
            kind: "insight".into(),
            created_ms: now_ms(),
            summary: String::new(),
            content: content.to_string(),
            tool: None,
            files: note.files.clone(),
            tags: note.tags.clone(),
            tx_id: None,
            source: source.to_string(),
        };
        let seqs = self.insert(vec![prepare(row)])?;
        Ok(event_id(seqs[0]))
    }

    /// Stores events now (a hook's, or a benchmark's); their sequence numbers.
    pub fn insert_rows(&self, rows: Vec<EventRow>) -> HostResult<Vec<i64>> {
        self.insert(rows.into_iter().map(prepare).collect())
    }

    fn insert(&self, events: Vec<NewEvent>) -> HostResult<Vec<i64>> {
        let seqs = self
            .shared
            .store()
            .insert_events(&events)
            .map_err(|e| store_error("storing a memory event", e))?;
        self.shared.wrote();
        Ok(seqs)
    }

    /// Forgets what `filter` selects; how many events went.
    pub fn forget(&self, filter: &ForgetFilter) -> HostResult<u64> {
        self.flush();
        let gone = self
            .shared
            .store()
            .forget_events(filter)
            .map_err(|e| HostError::new(codes::INVALID_ARGS, format!("{e:#}")))?;
        self.shared.wrote();
        Ok(gone)
    }

    pub fn totals(&self) -> HostResult<Totals> {
        let (events, sessions, oldest_ms, newest_ms) = self
            .shared
            .store()
            .memory_totals()
            .map_err(|e| store_error("counting memory events", e))?;
        Ok(Totals {
            events,
            sessions,
            oldest_ms,
            newest_ms,
            session_id: self.session_id.clone(),
            enabled: self.settings.enabled,
        })
    }

    /// (cache hits, misses) since start: for the benchmark and status.
    pub fn cache_counts(&self) -> (u64, u64) {
        let c = self.caches();
        (c.hits, c.misses)
    }

    fn require_enabled(&self) -> HostResult<()> {
        if self.settings.enabled {
            return Ok(());
        }
        Err(HostError::new(
            codes::INVALID_ARGS,
            "session memory is off on this server (SMART_CONTEXT_MEMORY=off)",
        )
        .suggest("the operator can turn it on by unsetting SMART_CONTEXT_MEMORY"))
    }

    /// The caches, emptied first if the memory changed since they were filled.
    fn caches(&self) -> MutexGuard<'_, Caches> {
        let writes = self.shared.writes.load(std::sync::atomic::Ordering::SeqCst);
        let version = self.shared.store().data_version().unwrap_or(-1);
        let mut caches = self.caches.lock().unwrap_or_else(|p| p.into_inner());
        if caches.generation != (writes, version) {
            caches.clear();
            caches.generation = (writes, version);
        }
        caches
    }

    /// Layer 1: the events that answer `query`, best first, scored 0..1; at most `top_k`,
    /// none under `min_score`.
    pub fn search(
        &self,
        query: &str,
        top_k: u32,
        min_score: f64,
        filter: &SearchFilter,
    ) -> HostResult<SearchOutcome> {
        self.require_enabled()?;
        let wanted = terms::terms(query);
        if wanted.is_empty() {
            return Ok(SearchOutcome {
                items: Vec::new(),
                total_matches: 0,
            });
        }
        let key: SearchKey = (
            wanted.clone(),
            top_k,
            (min_score.clamp(0.0, 1.0) * 1e6) as u64,
            filter.clone(),
        );
        if let Some(hit) = self.cached(|c| c.search.get(&key)) {
            return Ok(hit);
        }
        let outcome = self
            .search_uncached(&wanted, top_k, min_score, filter)
            .map_err(|e| store_error("searching memory", e))?;
        self.caches().search.put(key, outcome.clone());
        Ok(outcome)
    }

    fn cached<V>(&self, lookup: impl FnOnce(&mut Caches) -> Option<V>) -> Option<V> {
        let mut caches = self.caches();
        let found = lookup(&mut caches);
        if found.is_some() {
            caches.hits += 1;
        } else {
            caches.misses += 1;
        }
        found
    }

    fn search_uncached(
        &self,
        wanted: &[String],
        top_k: u32,
        min_score: f64,
        filter: &SearchFilter,
    ) -> anyhow::Result<SearchOutcome> {
        let store = self.shared.store();
        let total = store.memory_count()?;
        let counts = store.memory_term_counts(wanted)?;
        let seqs = store.memory_candidates(wanted, &counts, total, CANDIDATES)?;
        let events = store.memory_events(&seqs)?;
        drop(store);
        let weights = Weights::new(wanted, &counts, total);
        let mut scored: Vec<(f64, usize, &EventRow)> = events
            .iter()
            .enumerate()
            .filter(|(_, e)| passes(e, filter))
            .map(|(rank, e)| (weights.score(&event_terms(e)) * kind_weight(e), rank, e))
            .filter(|(score, _, _)| *score >= min_score)
            .collect();
        // Best score first; among equals the full-text rank (bm25: denser, shorter), then newer.
        scored.sort_by(|a, b| {
            b.0.total_cmp(&a.0)
                .then(a.1.cmp(&b.1))
                .then(b.2.seq.cmp(&a.2.seq))
        });
        let folded = fold_repeats(scored);
        let total_matches = folded.len() as u32;
        let mut picked: Vec<(f64, &EventRow, usize)> =
            folded.into_iter().take(top_k.max(1) as usize).collect();
        // The edits a note explains follow it (found by the files the note names), when the
        // search did not bring them: the decision and what carried it out, together.
        let notes: Vec<(usize, f64, i64, Vec<String>)> = picked
            .iter()
            .enumerate()
            .filter(|(_, (_, e, _))| e.kind == "insight" && !e.files.is_empty())
            .map(|(at, (score, e, _))| (at, *score, e.seq, e.files.clone()))
            .collect();
        // They fill free places only: an edit never pushes out a result that scored higher,
        // and none goes under min_score.
        let mut room = (top_k.max(1) as usize).saturating_sub(picked.len());
        let mut explained: Vec<(usize, f64, EventRow)> = Vec::new();
        if !notes.is_empty() && room > 0 {
            let store = self.shared.store();
            for (at, score, seq, files) in notes {
                let score = score * EXPLAINED;
                if score < min_score || room == 0 {
                    continue;
                }
                let touching = store.memory_touching(&files, seq, EXPLAINED_EDITS * 4, true)?;
                let edits = store.memory_events(&touching)?;
                let mut edits: Vec<EventRow> = edits
                    .into_iter()
                    .filter(|e| passes(e, filter))
                    .filter(|e| !picked.iter().any(|(_, p, _)| p.seq == e.seq))
                    .filter(|e| !explained.iter().any(|(_, _, x)| x.seq == e.seq))
                    .collect();
                edits.sort_by_key(|e| std::cmp::Reverse(e.seq));
                for edit in edits.into_iter().take((EXPLAINED_EDITS as usize).min(room)) {
                    explained.push((at, score, edit));
                    room -= 1;
                }
            }
        }
        let item = |score: f64, e: &EventRow, repeats: usize| IndexItem {
            id: event_id(e.seq),
            summary: match repeats {
                0 => e.summary.clone(),
                n => format!("{} (and {n} like it)", e.summary),
            },
            score: (score * 1000.0).round() / 1000.0,
            kind: e.kind.clone(),
            timestamp_ms: e.created_ms,
            session_id: e.session_id.clone(),
        };
        let mut items = Vec::new();
        for (at, (score, e, repeats)) in picked.drain(..).enumerate() {
            items.push(item(score, e, repeats));
            for (_, score, edit) in explained.iter().filter(|(from, _, _)| *from == at) {
                items.push(item(*score, edit, 0));
            }
        }
        Ok(SearchOutcome {
            items,
            total_matches,
        })
    }

    /// Layer 2: each target with up to `window` events of its session either side, oldest
    /// first; overlapping windows merge.
    pub fn timeline(&self, ids: &[String], window: u32) -> HostResult<Vec<TimelineItem>> {
        self.require_enabled()?;
        let mut targets = parse_ids(ids)?;
        targets.sort_unstable();
        targets.dedup();
        let window = window.min(20);
        let key = (targets.clone(), window);
        if let Some(hit) = self.cached(|c| c.timeline.get(&key)) {
            return Ok(hit);
        }
        let store = self.shared.store();
        let found = store
            .memory_events(&targets)
            .map_err(|e| store_error("reading memory", e))?;
        let mut rows: Vec<EventRow> = Vec::new();
        for target in &found {
            let around = store
                .memory_window(&target.session_id, target.seq, window)
                .map_err(|e| store_error("reading a memory timeline", e))?;
            for row in around {
                if !rows.iter().any(|r| r.seq == row.seq) {
                    rows.push(row);
                }
            }
        }
        drop(store);
        rows.sort_by_key(|r| (r.session_id.clone(), r.seq));
        let items: Vec<TimelineItem> = rows
            .into_iter()
            .map(|r| TimelineItem {
                id: event_id(r.seq),
                timestamp_ms: r.created_ms,
                preview: preview(&r),
                is_target: targets.contains(&r.seq),
                kind: r.kind,
                session_id: r.session_id,
                tool: r.tool,
            })
            .collect();
        self.caches().timeline.put(key, items.clone());
        Ok(items)
    }

    /// Layer 3: the events whole, with their relations; ids that name nothing are left out.
    pub fn details(&self, ids: &[String]) -> HostResult<Vec<Detail>> {
        self.require_enabled()?;
        let seqs = parse_ids(ids)?;
        let mut out = Vec::new();
        for seq in seqs {
            if let Some(hit) = self.cached(|c| c.details.get(&seq)) {
                out.push(hit);
                continue;
            }
            let Some(detail) = self
                .detail_uncached(seq)
                .map_err(|e| store_error("reading memory", e))?
            else {
                continue;
            };
            self.caches().details.put(seq, detail.clone());
            out.push(detail);
        }
        Ok(out)
    }

    fn detail_uncached(&self, seq: i64) -> anyhow::Result<Option<Detail>> {
        let store = self.shared.store();
        let Some(row) = store.memory_events(&[seq])?.pop() else {
            return Ok(None);
        };
        let (parent, turn) = store.memory_turn(&row.session_id, seq, CHILDREN)?;
        let (parent_id, child_ids) = if row.kind == "prompt" {
            (None, turn)
        } else {
            (parent.filter(|p| *p != seq), Vec::new())
        };
        let related = store.memory_touching(&row.files, seq, RELATED, false)?;
        let tools: Vec<String> = if row.kind == "prompt" && !child_ids.is_empty() {
            let mut names: Vec<String> = store
                .memory_events(&child_ids)?
                .into_iter()
                .filter_map(|c| c.tool)
                .collect();
            names.dedup();
            names
        } else {
            row.tool.clone().into_iter().collect()
        };
        Ok(Some(Detail {
            id: event_id(row.seq),
            token_count: row.content.chars().count().div_ceil(4) as u32,
            has_code: has_code(&row.content),
            content: row.content,
            kind: row.kind,
            timestamp_ms: row.created_ms,
            session_id: row.session_id,
            files: row.files,
            tools,
            tags: row.tags,
            transaction_id: row.tx_id,
            parent_id: parent_id.map(event_id),
            child_ids: child_ids.into_iter().map(event_id).collect(),
            related_ids: related.into_iter().map(event_id).collect(),
        }))
    }
}

impl Drop for Memory {
    fn drop(&mut self) {
        let writer = self
            .writer
            .get_mut()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some((tx, handle)) = writer {
            drop(tx);
            let _ = handle.join();
        }
    }
}

/// The writer thread: stores what arrives, a batch per SQLite transaction.
fn write_behind(shared: &Shared, rx: &mpsc::Receiver<Message>) {
    while let Ok(first) = rx.recv() {
        let mut batch = Vec::new();
        let mut flushes = Vec::new();
        let mut next = Some(first);
        while let Some(message) = next.take() {
            match message {
                Message::Event(event) => batch.push(*event),
                Message::Flush(done) => flushes.push(done),
            }
            if batch.len() < 256 {
                next = rx.try_recv().ok();
            }
        }
        if !batch.is_empty() {
            match shared.store().insert_events(&batch) {
                Ok(_) => shared.wrote(),
                Err(err) => tracing::warn!("memory: {} event(s) not kept: {err:#}", batch.len()),
            }
        }
        for done in flushes {
            let _ = done.send(());
        }
    }
}

/// Scrubs a row (private blocks, secrets), bounds it, gives it its summary and terms.
fn prepare(mut row: EventRow) -> NewEvent {
    row.content = capture::clip(&privacy::scrub(&row.content), MAX_CONTENT_CHARS);
    row.summary = if row.summary.trim().is_empty() {
        summarize(&row.content)
    } else {
        capture::clip(&privacy::scrub(&row.summary), 100)
    };
    row.tags = row.tags.iter().map(|t| capture::clip(t, 40)).collect();
    NewEvent {
        terms: event_terms(&row).join(" "),
        row,
    }
}

/// What an event is found by: the terms of its content, files, tags and tool, each once.
fn event_terms(row: &EventRow) -> Vec<String> {
    let mut words = terms::terms(&row.content);
    for extra in row.files.iter().chain(&row.tags).chain(&row.tool) {
        for term in terms::terms(extra) {
            if !words.contains(&term) {
                words.push(term);
            }
        }
    }
    words
}

/// The first sentence (or line), at most 100 chars: extractive, like explore's previews.
pub fn summarize(content: &str) -> String {
    let line = content
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("");
    let sentence = line
        .char_indices()
        .find(|(i, c)| matches!(c, '.' | '!' | '?') && line[i + 1..].starts_with(' '))
        .map_or(line, |(i, _)| &line[..=i]);
    capture::clip(sentence, 100)
}

/// At most 200 chars of an event on one line.
fn preview(row: &EventRow) -> String {
    let flat: String = row.content.split_whitespace().collect::<Vec<_>>().join(" ");
    capture::clip(&flat, 200)
}

/// Whether the text holds code: a fence, or a line that reads as a statement or definition.
pub fn has_code(text: &str) -> bool {
    static CODE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?m)^\s*(?:```|(?:def|fn|pub|class|function|import|from|const|let|return|if|for)\b.*[:{;)]\s*$|.*[;{}]\s*$)",
        )
        .expect("a valid pattern")
    });
    CODE.is_match(text)
}

fn passes(row: &EventRow, filter: &SearchFilter) -> bool {
    (filter.kinds.is_empty() || filter.kinds.contains(&row.kind))
        && filter
            .session_id
            .as_ref()
            .is_none_or(|s| *s == row.session_id)
        && filter.since_ms.is_none_or(|since| row.created_ms >= since)
}

fn parse_ids(ids: &[String]) -> HostResult<Vec<i64>> {
    ids.iter()
        .map(|id| {
            parse_id(id).ok_or_else(|| {
                HostError::new(codes::INVALID_ARGS, format!("{id:?} is not a memory id")).suggest(
                    "memory ids look like mem_12: take them from a memory search's results",
                )
            })
        })
        .collect()
}

fn store_error(what: &str, err: anyhow::Error) -> HostError {
    HostError::new(codes::STORE_ERROR, format!("{what}: {err:#}"))
        .suggest("retry; manage command=status says where the memory is kept")
}

/// How much each of a question's terms tells: inverse document frequency over the stored
/// events. Terms no event holds are set apart: they cannot be matched, so they lower every
/// score by the same factor instead of dominating it.
struct Weights {
    known: Vec<(String, f64)>,
    unknown_share: f64,
}

impl Weights {
    fn new(wanted: &[String], counts: &std::collections::HashMap<String, u64>, total: u64) -> Self {
        let n = total.max(1) as f64;
        let known: Vec<(String, f64)> = wanted
            .iter()
            .filter_map(|t| {
                counts.get(t).map(|&df| {
                    let df = df as f64;
                    (t.clone(), (1.0 + (n - df + 0.5) / (df + 0.5)).ln())
                })
            })
            .collect();
        let unknown_share = 1.0 - known.len() as f64 / wanted.len().max(1) as f64;
        Self {
            known,
            unknown_share,
        }
    }

    /// The score of an event with these terms: see [`score`].
    fn score(&self, event_terms: &[String]) -> f64 {
        let held: std::collections::HashSet<&str> =
            event_terms.iter().map(String::as_str).collect();
        let coverage = score(&self.known, &held);
        coverage * (1.0 - UNKNOWN_PENALTY * self.unknown_share)
    }
}

/// What an event of its kind is worth to a recall, as a factor of how much of the question
/// it holds: the agent's own notes most, then the edits that landed and the user's asks;
/// the server's record of reads and searches least (they are many, and alike), so a score
/// of 1.00 is a note that holds the whole question.
fn kind_weight(row: &EventRow) -> f64 {
    match row.kind.as_str() {
        "insight" => 1.0,
        "tool" if row.tx_id.is_some() => 0.95,
        "prompt" => 0.9,
        "response" => 0.85,
        _ => 0.8,
    }
}

/// Edits shown after a note that explains them, at most.
const EXPLAINED_EDITS: u32 = 3;
/// An explained edit's score, as a share of its note's: under it by more than the spec's
/// clear-winner gap (0.1), so a note and the edits it explains still open the note in full
/// (whose details list them as related).
const EXPLAINED: f64 = 0.85;
/// Events of one kind whose summaries share this much of their words are one recollection.
const ALIKE: f64 = 0.8;

/// The scored events with near-duplicates folded into the first (best) of them: same kind
/// and tool, summaries sharing most of their words (the same search run again, the same
/// prompt asked twice), never edits. Each kept event comes with how many it stands for.
fn fold_repeats(scored: Vec<(f64, usize, &EventRow)>) -> Vec<(f64, &EventRow, usize)> {
    let mut kept: Vec<(f64, &EventRow, usize, std::collections::HashSet<String>)> = Vec::new();
    for (score, _, e) in scored {
        let words: std::collections::HashSet<String> =
            terms::terms(&e.summary).into_iter().collect();
        // Edits never fold: each has its own transaction, which undo needs.
        let twin = kept.iter_mut().find(|(_, k, _, kw)| {
            k.kind == e.kind
                && k.tool == e.tool
                && k.tx_id.is_none()
                && e.tx_id.is_none()
                && alike(kw, &words) >= ALIKE
        });
        match twin {
            Some(twin) => twin.2 += 1,
            None => kept.push((score, e, 0, words)),
        }
    }
    kept.into_iter().map(|(s, e, n, _)| (s, e, n)).collect()
}

/// Jaccard similarity of two word sets (0 for two empty ones: nothing says they are alike).
fn alike(a: &std::collections::HashSet<String>, b: &std::collections::HashSet<String>) -> f64 {
    let union = a.union(b).count();
    if union == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / union as f64
}

/// How much a question's terms no event holds lower every score: half of their share.
const UNKNOWN_PENALTY: f64 = 0.5;

/// The IDF-weighted share of the known question terms the event holds: 1.0 when it holds them
/// all, 0.5 when it holds terms carrying half the information. What the spec's thresholds
/// (0.92 auto-detail, 0.85 clear winner, 0.8 ambiguous, 0.7 minimum) are measured against.
pub fn score(weights: &[(String, f64)], held: &std::collections::HashSet<&str>) -> f64 {
    let total: f64 = weights.iter().map(|(_, w)| w).sum();
    if total <= 0.0 {
        return 0.0;
    }
    let matched: f64 = weights
        .iter()
        .filter(|(t, _)| held.contains(t.as_str()))
        .map(|(_, w)| w)
        .sum();
    matched / total
}

#[cfg(test)]
mod tests;
