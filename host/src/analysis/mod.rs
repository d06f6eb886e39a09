//! The analysis layer (ADR-033 §4-5): the file dependency graph and the symbol call graph
//! resolved from the index's facts, and what is computed over them: PageRank, impact radius,
//! import cycles, layers and hot spots (complexity, centrality and churn from the history).
//!
//! The graphs are built once the first index pass is done ([`Analysis::warm`]) or on first
//! use, and kept: a later call re-reads the facts of the files whose content changed since
//! (by the catalogue's hashes), resolves again in memory and ranks again. Nothing here writes.

pub mod churn;
pub mod delta;
pub mod graph;
pub mod hotspots;
mod line_map;
pub mod rank;
pub mod reach;
pub mod views;

use crate::error::HostResult;
use crate::index::facts::FileFacts;
use crate::index::{Freshness, Index};
use graph::Graph;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The graphs as of one catalogue state, with their ranks.
#[derive(Debug)]
pub struct Snapshot {
    pub graph: Graph,
    /// PageRank of files over imports and of definitions over calls (each sums to 1), and
    /// their percentiles.
    pub file_rank: Vec<f64>,
    pub file_percentile: Vec<f32>,
    pub symbol_rank: Vec<f64>,
    pub symbol_percentile: Vec<f32>,
    /// Import cycles: strongly connected components of the file graph, largest first.
    pub cycles: Vec<Vec<u32>>,
    /// The files' roles, by the conventions the graph's files show (hot spots and overviews
    /// look at source only).
    pub roles: crate::index::roles::Roles,
}

impl crate::index::fulltext::Centrality for Snapshot {
    fn file(&self, path: &str) -> Option<f32> {
        let f = self.graph.file(path)?;
        self.file_percentile.get(f as usize).copied()
    }
}

/// The analysis layer of one workspace: reads the index, never writes it.
pub struct Analysis {
    index: Arc<Index>,
    state: Mutex<State>,
    /// The repository's history, read once per HEAD.
    history: Mutex<churn::Cache>,
    /// The project's hot spots for one snapshot and history (by identity), with the reasons
    /// to state beside them: scoring ranks every function, so it runs once per pair.
    hot: Mutex<Option<HotCache>>,
    /// The last snapshot built, for whoever must not wait for a rebuild (explore's ranking).
    latest: Mutex<Option<Arc<Snapshot>>>,
}

/// Centrality asked for only when the ranking weighs it (pasted texts do, short queries do
/// not), so only those searches pay for bringing the graphs up to date; asked once per search.
pub struct OnDemand<F> {
    get: F,
    snapshot: std::sync::OnceLock<Option<Arc<Snapshot>>>,
}

impl<F: Fn() -> Option<Arc<Snapshot>>> OnDemand<F> {
    pub fn new(get: F) -> Self {
        Self {
            get,
            snapshot: std::sync::OnceLock::new(),
        }
    }
}

impl<F: Fn() -> Option<Arc<Snapshot>> + Send + Sync> crate::index::fulltext::Centrality
    for OnDemand<F>
{
    fn file(&self, path: &str) -> Option<f32> {
        self.snapshot.get_or_init(&self.get).as_ref()?.file(path)
    }
}

/// Keyed by the identities of the snapshot and history it was scored from: a `Weak` keeps
/// the allocation from being reused by a later one (no stale hit) without keeping an old
/// graph's memory alive.
struct HotCache {
    snapshot: std::sync::Weak<Snapshot>,
    history: Option<std::sync::Weak<churn::History>>,
    ranked: Arc<Vec<hotspots::HotSpot>>,
    reasons: Vec<String>,
}

impl HotCache {
    fn scored_from(&self, snapshot: &Arc<Snapshot>, history: Option<&Arc<churn::History>>) -> bool {
        std::ptr::eq(self.snapshot.as_ptr(), Arc::as_ptr(snapshot))
            && self.history.as_ref().map(std::sync::Weak::as_ptr) == history.map(Arc::as_ptr)
    }
}

#[derive(Default)]
struct State {
    facts: HashMap<String, Arc<FileFacts>>,
    /// The catalogue state (paths and hashes) the snapshot was built from.
    key: Option<blake3::Hash>,
    /// The database's version when `key` was last confirmed: unchanged, nothing to check.
    version: Option<i64>,
    snapshot: Option<Arc<Snapshot>>,
}

impl Analysis {
    pub fn new(index: Arc<Index>) -> Self {
        Self {
            index,
            state: Mutex::new(State::default()),
            history: Mutex::new(churn::Cache::default()),
            hot: Mutex::new(None),
            latest: Mutex::new(None),
        }
    }

    /// The last graphs built, as they are (possibly a few edits old), or none yet: never
    /// builds or waits.
    pub fn latest(&self) -> Option<Arc<Snapshot>> {
        self.latest
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// The graphs for a search's centrality, brought up to date with the catalogue, so a
    /// server that has run for days weighs the files as a new one would: after an edit an
    /// incremental update of the kept graphs, when nothing changed one pragma, and before
    /// any build (a new server) the build, or the wait for the warm-up's. While the first
    /// pass runs, the last graphs built, if any. See [`OnDemand`]: searches that weigh no
    /// centrality never ask.
    pub fn current(&self) -> Option<Arc<Snapshot>> {
        if !self.index.first_pass_done() && !self.index.is_read_only() {
            return self.latest();
        }
        match self.snapshot() {
            Ok(snapshot) => Some(snapshot),
            Err(err) => {
                tracing::debug!("graphs not brought up to date for a search: {err}");
                self.latest()
            }
        }
    }

    /// Every hot spot of the project, hottest first, scored with the history's churn when
    /// there is one, and the reasons to state beside them (why there is no churn, or that
    /// its window is partial). Scored once per snapshot and history.
    pub fn hot_spots(
        &self,
        snapshot: &Arc<Snapshot>,
    ) -> (Arc<Vec<hotspots::HotSpot>>, Vec<String>) {
        let history = self
            .history
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(self.index.root());
        let mut hot = self.hot.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(c) = hot.as_ref()
            && c.scored_from(snapshot, history.as_ref().ok())
        {
            return (c.ranked.clone(), c.reasons.clone());
        }
        let (churn, reasons) = match &history {
            Ok(h) => {
                let partial = (!h.complete).then(|| "git_history_partial".to_string());
                (Some(churn_of(snapshot, h)), partial.into_iter().collect())
            }
            Err(none) => {
                tracing::debug!(reason = none.reason, detail = %none.detail, "hot spots without churn");
                (None, vec![none.reason.to_string()])
            }
        };
        let ranked = Arc::new(hotspots::hot_spots(snapshot, churn.as_ref()));
        *hot = Some(HotCache {
            snapshot: Arc::downgrade(snapshot),
            history: history.as_ref().ok().map(Arc::downgrade),
            ranked: ranked.clone(),
            reasons: reasons.clone(),
        });
        (ranked, reasons)
    }

    /// The graphs for the catalogue as it is now: the kept ones when no code file changed,
    /// else rebuilt from the kept facts and the changed files' new ones.
    ///
    /// Two checks, cheapest first: the database's version (one pragma: no commit since the
    /// last check, nothing to do), then the code files' paths and hashes (a commit that
    /// changed no code file, such as an evidence pack, keeps the graphs).
    pub fn snapshot(&self) -> HostResult<Arc<Snapshot>> {
        let started = std::time::Instant::now();
        // Read before the listing: a commit in between makes the next call check again.
        let version = self.index.catalog_version()?;
        // A new, changed or removed index.scip rebuilds the graphs (one stat otherwise).
        let scip = self.index.scip();
        let scip_hash = scip.as_ref().map(|x| x.hash.clone());
        {
            let state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            if let (Some(v), Some(s)) = (state.version, &state.snapshot)
                && v == version
                && s.graph.scip.as_ref().map(|x| &x.index.hash) == scip_hash.as_ref()
            {
                return Ok(s.clone());
            }
        }
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        let (files, fresh) = self
            .index
            .code_files_and_facts(|f| state.facts.get(&f.path).is_none_or(|x| x.hash != f.hash))?;
        let view = scip.map(|index| {
            let fresh = files
                .iter()
                .filter(|f| f.mtime_ms <= index.written_ms && index.describes(&f.path))
                .map(|f| (f.path.clone(), f.hash.clone()))
                .collect();
            Arc::new(graph::ScipView { index, fresh })
        });
        let mut hasher = blake3::Hasher::new();
        for f in &files {
            hasher.update(f.path.as_bytes());
            hasher.update(&[0]);
            hasher.update(f.hash.as_bytes());
            let described = view.as_ref().is_some_and(|v| v.fresh.contains_key(&f.path));
            hasher.update(&[u8::from(described)]);
        }
        if let Some(hash) = &scip_hash {
            hasher.update(hash.as_bytes());
        }
        let manifests = graph::Manifests {
            go_modules: self.index.go_modules(),
            crates: self.index.cargo_crates(),
        };
        for (tag, named) in [(1, &manifests.go_modules), (2, &manifests.crates)] {
            for (name, dir) in named {
                hasher.update(&[tag]);
                hasher.update(name.as_bytes());
                hasher.update(&[0]);
                hasher.update(dir.as_bytes());
            }
        }
        let key = hasher.finalize();
        if let (Some(k), Some(s)) = (state.key, &state.snapshot)
            && k == key
        {
            let s = s.clone();
            state.version = Some(version);
            return Ok(s);
        }
        let files_read = fresh.len();
        let facts_ms = started.elapsed().as_millis();
        let live: std::collections::HashSet<&str> = files.iter().map(|f| f.path.as_str()).collect();
        state.facts.retain(|path, _| live.contains(path.as_str()));
        for f in fresh {
            state.facts.insert(f.path.clone(), Arc::new(f));
        }
        let ordered: Vec<Arc<FileFacts>> = files
            .iter()
            .filter_map(|f| state.facts.get(&f.path).cloned())
            .collect();
        let previous = state.snapshot.clone();
        let graph = resolving_pool().install(|| {
            Graph::update_with(
                previous.as_ref().map(|s| &s.graph),
                &ordered,
                view,
                manifests,
            )
        });
        let resolved = graph.resolved_again;
        // Ranked from scratch, not from the previous scores: a warm start stops at another
        // point within the tolerance, and the graphs of a server that has run for days must
        // rank as a fresh one's (a few milliseconds more per rebuild).
        let snapshot = Arc::new(rank_snapshot(graph));
        tracing::debug!(
            files = files.len(),
            files_read,
            resolved,
            facts_ms,
            total_ms = started.elapsed().as_millis(),
            "analysis graphs rebuilt"
        );
        state.key = Some(key);
        state.version = Some(version);
        state.snapshot = Some(snapshot.clone());
        *self.latest.lock().unwrap_or_else(|p| p.into_inner()) = Some(snapshot.clone());
        Ok(snapshot)
    }

    /// Builds the graphs and reads the history once the first index pass is done, so the
    /// first understand or change call does not pay for them, then again after every pass
    /// that follows (an edit, a checkout), so no call pays for them later either. Blocks for
    /// as long as the process lives: run it on a thread of its own.
    pub fn keep_warm(&self) {
        let mut warmed = None;
        loop {
            let passes = self.index.passes_completed();
            if self.index.first_pass_done() && warmed != Some(passes) {
                let started = std::time::Instant::now();
                match self.snapshot() {
                    Ok(snapshot) => {
                        let _ = self.hot_spots(&snapshot);
                        tracing::debug!(
                            ms = started.elapsed().as_millis(),
                            "analysis graphs warmed"
                        );
                    }
                    Err(err) => tracing::debug!("analysis graphs not warmed: {err}"),
                }
                warmed = Some(passes);
            }
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
    }

    /// Why answers from the graphs may be partial right now (`index_building`): asked per
    /// call, since a snapshot built during a pass stays valid after it.
    pub fn reasons(&self) -> Vec<String> {
        // As search says it: a running pass is the reason; a stale index is the watcher's
        // business and answers as it is.
        match self.index.freshness() {
            Freshness::Rebuilding => vec!["index_building".to_string()],
            Freshness::Fresh | Freshness::Stale => Vec::new(),
        }
    }
}

/// Threads the graphs resolve files on: every core but one, which stays free for the
/// questions a new server is asked while its graphs build (on two cores, resolution is
/// serial).
fn resolving_pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        rayon::ThreadPoolBuilder::new()
            .num_threads(cores.saturating_sub(1).max(1))
            .thread_name(|i| format!("graphs-{i}"))
            .build()
            .expect("a thread pool for resolving the graphs")
    })
}

/// How often each definition of `snapshot` changed in `history`'s window: the commits that
/// changed its lines, and its file's commits known only for the file.
fn churn_of(snapshot: &Snapshot, history: &churn::History) -> hotspots::Churn {
    let g = &snapshot.graph;
    let mut by_line = Vec::with_capacity(g.files.len());
    let mut per_symbol = vec![0; g.symbols.len()];
    for (f, file) in g.files.iter().enumerate() {
        let all = history.changes.get(&file.path).copied().unwrap_or(0);
        let followed = history.lines.get(&file.path).map_or(&[][..], Vec::as_slice);
        let unknown = all.saturating_sub(followed.len() as u32);
        by_line.push(all > 0 && unknown == 0);
        for i in g.symbols_of(f as u32) {
            let s = g.symbols[i as usize].symbol();
            let own = followed
                .iter()
                .filter(|ranges| {
                    ranges
                        .iter()
                        .any(|&(a, b)| a <= s.end_line && s.start_line <= b)
                })
                .count() as u32;
            per_symbol[i as usize] = own + unknown;
        }
    }
    hotspots::Churn {
        per_symbol,
        by_line,
        commits: history.commits,
    }
}

/// Ranks a built graph: files over their imports, definitions over their calls (weighted by
/// how sure each call's resolution is).
pub fn rank_snapshot(graph: Graph) -> Snapshot {
    rank_snapshot_from(graph, None)
}

/// [`rank_snapshot`] starting each PageRank from `previous`'s scores of the same files and
/// definitions (matched by path and position in their file, which an unchanged file keeps):
/// after a small change the iteration starts next to its answer.
pub fn rank_snapshot_from(graph: Graph, previous: Option<&Snapshot>) -> Snapshot {
    let file_edges: Vec<(u32, u32, f64)> =
        graph.imports.iter().map(|e| (e.from, e.to, 1.0)).collect();
    let call_edges: Vec<(u32, u32, f64)> = graph
        .calls
        .iter()
        .map(|e| (e.from, e.to, e.confidence.weight()))
        .collect();
    let (file_start, symbol_start) = previous.map(|p| carried_ranks(&graph, p)).unzip();
    let file_rank = rank::pagerank_from(graph.files.len(), &file_edges, file_start);
    let symbol_rank = rank::pagerank_from(graph.symbols.len(), &call_edges, symbol_start);
    Snapshot {
        roles: crate::index::roles::Roles::from_paths(graph.files.iter().map(|f| f.path.as_str())),
        cycles: reach::cycles(&graph.file_deps),
        file_percentile: rank::percentiles(&file_rank),
        symbol_percentile: rank::percentiles(&symbol_rank),
        file_rank,
        symbol_rank,
        graph,
    }
}

/// `previous`'s file and definition scores moved to `graph`'s positions; a new file's and a
/// new definition's start at the mean.
fn carried_ranks(graph: &Graph, previous: &Snapshot) -> (Vec<f64>, Vec<f64>) {
    let mean_file = 1.0 / previous.file_rank.len().max(1) as f64;
    let mean_symbol = 1.0 / previous.symbol_rank.len().max(1) as f64;
    let mut files = vec![mean_file; graph.files.len()];
    let mut symbols = vec![mean_symbol; graph.symbols.len()];
    for (i, f) in graph.files.iter().enumerate() {
        let Some(o) = previous.graph.file(&f.path) else {
            continue;
        };
        files[i] = previous.file_rank[o as usize];
        let old = previous.graph.symbols_of(o);
        for (new, old) in graph.symbols_of(i as u32).zip(old) {
            symbols[new as usize] = previous.symbol_rank[old as usize];
        }
    }
    (files, symbols)
}

#[cfg(test)]
mod scip_tests;
#[cfg(test)]
mod tests;
