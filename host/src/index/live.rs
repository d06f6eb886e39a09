//! Answers while the first pass runs: files the index has not reached yet are searched
//! directly, with ripgrep's engine (grep-searcher over each file's bytes, read through the
//! workspace authority like every read), so a query on a new project finds what it asks for
//! in its first second and never says "nothing" before every file was looked at.
//!
//! Ranking is BM25's idea without its index: a file scores the rarity (over the files
//! scanned) of each query word it contains, a little more for repeats and for words in its
//! path; its hit is a few lines around the line with the most of them.

use super::Index;
use super::classify::{self, Class};
use super::fulltext::{Hit, SearchRequest};
use super::query_reader;
use crate::workspace::ReadOptions;
use grep_regex::RegexMatcherBuilder;
use grep_searcher::sinks::UTF8;
use grep_searcher::{BinaryDetection, SearcherBuilder};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The longest a live scan searches before answering with what it found.
pub const LIVE_BUDGET: Duration = Duration::from_millis(1_500);
/// Larger files wait for the index (they are rarely what a first question is about).
const MAX_LIVE_BYTES: u64 = 1 << 20;
/// Query words looked for, at most.
const MAX_TERMS: usize = 24;
/// Lines of context either side of a hit's best line.
const CONTEXT_LINES: usize = 3;

/// Reason codes a degraded answer carries.
pub const LIVE_SCAN: &str = "live_scan";
pub const LIVE_SCAN_PARTIAL: &str = "live_scan_partial";

/// What a live scan found and how much of the unindexed files it covered.
#[derive(Debug, Default)]
pub struct LiveOutcome {
    pub hits: Vec<Hit>,
    /// Files not in the index that the scan was to look at.
    pub unindexed: usize,
    /// Of those, the files it looked at before its budget ran out.
    pub scanned: usize,
}

impl LiveOutcome {
    pub fn complete(&self) -> bool {
        self.scanned == self.unindexed
    }
}

/// How long one live scan's matches answer further searches for the same words.
pub const SCAN_REUSE: Duration = Duration::from_secs(2);

/// One live scan: the files that matched, before any kind filter.
#[derive(Default)]
pub struct LiveScan {
    matched: Vec<FileMatches>,
    unindexed: usize,
    scanned: usize,
}

/// Threads for work a query waits on (live scans, whole-file reads), one per core, apart from
/// the global pool the indexer keeps busy.
pub(super) fn pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("live-scan-{i}"))
            .build()
            .expect("a thread pool for live scans")
    })
}

/// Counts a running live scan for as long as it lives.
struct Priority<'a>(&'a AtomicUsize);

impl<'a> Priority<'a> {
    fn take(count: &'a AtomicUsize) -> Self {
        count.fetch_add(1, Ordering::AcqRel);
        Self(count)
    }
}

impl Drop for Priority<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Index {
    /// Called by indexing workers between files: waits while a live scan answers a question
    /// (at most [`LIVE_BUDGET`] and a little), so the question gets the cores first.
    pub(super) fn yield_to_queries(&self) {
        let started = Instant::now();
        while self.live_scans.load(Ordering::Acquire) > 0
            && started.elapsed() < LIVE_BUDGET + Duration::from_millis(500)
        {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// One file's matches.
struct FileMatches {
    path: String,
    kind: String,
    language: Option<String>,
    hash: String,
    /// Matching lines per term index.
    counts: Vec<u32>,
    /// (1-based line number, term indexes on it, the line).
    lines: Vec<(u64, Vec<usize>, String)>,
    /// The file's bytes, for the hit's lines.
    bytes: Vec<u8>,
    /// A matching line declares something (`fn`, `def`, `class`, ...): the file likely
    /// defines what the query names, rather than mentions it.
    defines: bool,
}

/// Words that open a declaration in the languages the index knows.
const DECLARATIONS: &[&str] = &[
    "fn ",
    "pub ",
    "def ",
    "async ",
    "class ",
    "struct ",
    "enum ",
    "trait ",
    "impl ",
    "interface ",
    "func ",
    "function ",
    "type ",
    "const ",
    "export ",
    "public ",
    "private ",
    "protected ",
    "static ",
];

fn declares(line: &str) -> bool {
    let line = line.trim_start();
    DECLARATIONS.iter().any(|d| line.starts_with(d))
}

impl Index {
    /// True while no pass has completed in this process: the index may lack files a query
    /// is about, so searches also scan what it does not hold yet.
    pub(super) fn live_scan_due(&self) -> bool {
        !self.is_read_only() && !self.first_pass_done()
    }

    /// Searches the files under the request's scope that the catalogue does not list yet.
    /// One scan serves the searches of one call (explore asks for documents and code
    /// apart): its matches are kept for [`SCAN_REUSE`] and filtered by kind per request.
    pub(super) fn live_search(&self, request: &SearchRequest) -> LiveOutcome {
        let terms = live_terms(&request.query);
        if terms.is_empty() {
            return LiveOutcome::default();
        }
        let key = (terms.join("\u{1f}"), request.path_prefix.clone());
        let scan = {
            let mut last = self.live_cache.lock().unwrap_or_else(|p| p.into_inner());
            match &*last {
                Some((k, at, scan)) if *k == key && at.elapsed() < SCAN_REUSE => scan.clone(),
                _ => {
                    let scan = Arc::new(self.scan_unindexed(&terms, request));
                    *last = Some((key, Instant::now(), scan.clone()));
                    scan
                }
            }
        };
        let wanted = |m: &&FileMatches| {
            (request.kinds.is_empty() || request.kinds.contains(&m.kind))
                && !request.exclude_kinds.contains(&m.kind)
                && (request.languages.is_empty()
                    || m.language
                        .as_ref()
                        .is_some_and(|l| request.languages.contains(l)))
        };
        let matched: Vec<&FileMatches> = scan.matched.iter().filter(wanted).collect();
        LiveOutcome {
            hits: rank(matched, &terms, scan.scanned.max(1), request.limit),
            unindexed: scan.unindexed,
            scanned: scan.scanned,
        }
    }

    fn scan_unindexed(&self, terms: &[String], request: &SearchRequest) -> LiveScan {
        let started = Instant::now();
        // The latest walk of this process (empty: every file was accounted for, nothing to
        // scan), else a walk of our own.
        let found = match self.awaiting() {
            Some(awaiting) if awaiting.is_empty() => return LiveScan::default(),
            Some(awaiting) => awaiting,
            None => match super::scan::scan(&self.ws, &self.settings.exclude) {
                Ok(found) => Arc::new(found),
                Err(_) => return LiveScan::default(),
            },
        };
        // Files indexed or left out on purpose (binary, sensitive) are not waiting for the index.
        let known: HashSet<String> =
            super::catalog::accounted_paths(&self.reader()).unwrap_or_default();
        let scope = request.path_prefix.as_deref();
        let todo: Vec<&super::scan::Found> = found
            .iter()
            .filter(|f| !known.contains(&f.path))
            .filter(|f| super::in_scope(&f.path, scope))
            .filter(|f| f.size <= MAX_LIVE_BYTES.min(self.settings.max_file_bytes))
            .filter(|f| classify::skip_by_name(&f.path).is_none())
            .collect();
        let Ok(matcher) = RegexMatcherBuilder::new()
            .case_insensitive(true)
            .build_literals(terms)
        else {
            return LiveScan::default();
        };
        let parsers = self.parsers();
        let deadline = started + LIVE_BUDGET;
        // The indexer steps aside while a question waits (see `yield_to_queries`), and the
        // scan runs on its own pool so it never queues behind the indexer's batches.
        let _priority = Priority::take(&self.live_scans);
        // Outer None: not looked at (budget spent); inner None: unreadable or no match.
        let results: Vec<Option<Option<FileMatches>>> = pool().install(|| {
            todo.par_iter()
                .map(|f| {
                    if Instant::now() >= deadline {
                        return None;
                    }
                    Some(self.scan_file(&f.path, terms, &matcher, parsers.as_deref()))
                })
                .collect()
        });
        let scanned = results.iter().filter(|r| r.is_some()).count();
        let matched: Vec<FileMatches> = results.into_iter().flatten().flatten().collect();
        tracing::debug!(
            "live scan: {scanned}/{} unindexed files in {} ms, {} matched",
            todo.len(),
            started.elapsed().as_millis(),
            matched.len()
        );
        LiveScan {
            matched,
            unindexed: todo.len(),
            scanned,
        }
    }

    /// The matches of one file; None when it cannot be read, is binary, or does not match.
    fn scan_file(
        &self,
        path: &str,
        terms: &[String],
        matcher: &grep_regex::RegexMatcher,
        parsers: Option<&dyn super::DocumentParsers>,
    ) -> Option<FileMatches> {
        let options = ReadOptions {
            max_bytes: MAX_LIVE_BYTES,
            allow_sensitive: false,
            allow_binary: false,
            allow_truncate: false,
        };
        let file = self.ws.read(path, options).ok()?;
        let head = &file.bytes[..file.bytes.len().min(8192)];
        let claims = |p: &str, h: &[u8]| parsers.and_then(|ps| ps.claims(p, h));
        let code_language = |p: &str| parsers.and_then(|ps| ps.code_language(p));
        let class = classify::classify(path, head, &claims, &code_language).ok()?;
        let (kind, language) = match classify::settle(class, &file.bytes) {
            // A binary document (pdf, docx, xlsx) needs its parser: the index gets to it.
            Class::Document(_) if std::str::from_utf8(&file.bytes).is_err() => return None,
            Class::Document(format) => (format, None),
            Class::Code(lang) => ("code".to_string(), Some(lang.name().to_string())),
            Class::ComponentCode(language) => ("code".to_string(), Some(language)),
            Class::Text => ("text".to_string(), None),
        };
        let mut counts = vec![0u32; terms.len()];
        let mut lines = Vec::new();
        let mut defines = false;
        let mut searcher = SearcherBuilder::new()
            .line_number(true)
            .binary_detection(BinaryDetection::quit(0))
            .build();
        let sink = UTF8(|number, line| {
            let lower = line.to_lowercase();
            let on_line: Vec<usize> = (0..terms.len())
                .filter(|&i| lower.contains(terms[i].as_str()))
                .collect();
            for &i in &on_line {
                counts[i] += 1;
            }
            defines |= !on_line.is_empty() && declares(line);
            if lines.len() < 200 {
                lines.push((number, on_line, line.trim_end().to_string()));
            }
            Ok(true)
        });
        searcher.search_slice(matcher, &file.bytes, sink).ok()?;
        if counts.iter().all(|&c| c == 0) {
            return None;
        }
        let defines = defines && kind == "code";
        Some(FileMatches {
            path: path.to_string(),
            kind,
            language,
            hash: file.hash,
            counts,
            lines,
            bytes: file.bytes,
            defines,
        })
    }
}

/// The query's words worth looking for, heaviest first (code-like names before prose):
/// three characters or more, no stopwords.
fn live_terms(query: &str) -> Vec<String> {
    let mut terms: Vec<String> = Vec::new();
    for word in query_reader::read(query).words {
        let key = word.key();
        if key.chars().count() >= 3
            && !query_reader::STOPWORDS.contains(&key)
            && !terms.iter().any(|t| t == key)
        {
            terms.push(key.to_string());
        }
    }
    terms.truncate(MAX_TERMS);
    terms
}

/// Scores files by the rarity of the words they contain and turns each into a hit.
fn rank(files: Vec<&FileMatches>, terms: &[String], scanned: usize, limit: usize) -> Vec<Hit> {
    let mut df: HashMap<usize, usize> = HashMap::new();
    for f in &files {
        for (i, &c) in f.counts.iter().enumerate() {
            if c > 0 {
                *df.entry(i).or_default() += 1;
            }
        }
    }
    let idf = |i: usize| {
        let n = df.get(&i).copied().unwrap_or(0) as f32;
        (1.0 + (scanned as f32 - n + 0.5) / (n + 0.5)).ln()
    };
    let mut scored: Vec<(f32, &FileMatches)> = files
        .into_iter()
        .map(|f| {
            let path = f.path.to_lowercase();
            let score: f32 = f
                .counts
                .iter()
                .enumerate()
                .filter(|(_, c)| **c > 0)
                .map(|(i, &c)| {
                    let repeats = 1.0 + 0.25 * (c as f32).ln().min(4.0);
                    let in_path = if path.contains(terms[i].as_str()) {
                        1.5
                    } else {
                        1.0
                    };
                    idf(i) * repeats * in_path
                })
                .sum();
            let score = if f.defines { score * 1.3 } else { score };
            (score, f)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.path.cmp(&b.1.path)));
    scored
        .into_iter()
        .take(limit)
        .map(|(score, f)| hit(f, score, &idf))
        .collect()
}

/// A few lines around the file's best line (the one whose words weigh most).
fn hit(f: &FileMatches, score: f32, idf: &dyn Fn(usize) -> f32) -> Hit {
    let best = f
        .lines
        .iter()
        .max_by(|a, b| {
            let weight = |l: &(u64, Vec<usize>, String)| l.1.iter().map(|&i| idf(i)).sum::<f32>();
            weight(a).total_cmp(&weight(b)).then(b.0.cmp(&a.0))
        })
        .map(|(n, _, _)| *n as usize)
        .unwrap_or(1);
    let text = String::from_utf8_lossy(&f.bytes);
    let all: Vec<&str> = text.lines().collect();
    let start = best.saturating_sub(CONTEXT_LINES).max(1);
    let end = (best + CONTEXT_LINES).min(all.len().max(1));
    // What the agent sees of a file never carries a secret (as in the index).
    let redact = |s: String| crate::workspace::secrets::redact(&s).0.into_owned();
    let body = redact(
        all.get(start - 1..end.min(all.len()))
            .map(|l| l.join("\n"))
            .unwrap_or_default(),
    );
    let snippet = redact(
        all.get(best - 1)
            .map(|l| super::clip(l.trim(), 160))
            .unwrap_or_default(),
    );
    Hit {
        chunk_id: format!("live:{}#{best}", f.path),
        path: f.path.clone(),
        kind: f.kind.clone(),
        language: f.language.clone(),
        symbol: None,
        heading_path: Vec::new(),
        start_line: start as u32,
        end_line: end as u32,
        score,
        snippet,
        snippet_line: best as u32,
        body,
        file_hash: Some(f.hash.clone()),
        why: vec!["live scan: not indexed yet".to_string()],
        pending: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(path: &str, counts: &[u32], lines: &[(u64, &[usize], &str)]) -> FileMatches {
        let bytes = (1..=20)
            .map(|n| match lines.iter().find(|l| l.0 == n) {
                Some(l) => l.2.to_string(),
                None => format!("line {n}"),
            })
            .collect::<Vec<_>>()
            .join("\n")
            .into_bytes();
        FileMatches {
            path: path.into(),
            kind: "code".into(),
            language: Some("python".into()),
            hash: "h".into(),
            counts: counts.to_vec(),
            lines: lines
                .iter()
                .map(|(n, t, l)| (*n, t.to_vec(), l.to_string()))
                .collect(),
            bytes,
            defines: false,
        }
    }

    #[test]
    fn terms_drop_stopwords_and_short_words() {
        assert_eq!(
            live_terms("Why does the QuerySet filter fail on an id?"),
            ["queryset", "filter", "fail"],
            "code-like names first, then words in query order"
        );
    }

    #[test]
    fn rare_words_outrank_common_ones_and_hits_centre_on_the_best_line() {
        let terms: Vec<String> = ["common", "rare"].map(String::from).to_vec();
        let files = [
            matches("a.py", &[5, 0], &[(2, &[0], "common common")]),
            matches(
                "b.py",
                &[1, 1],
                &[(3, &[0], "common"), (10, &[1], "def rare():")],
            ),
            matches("c.py", &[1, 0], &[(4, &[0], "common")]),
        ];
        let hits = rank(files.iter().collect(), &terms, 10, 10);
        assert_eq!(hits[0].path, "b.py");
        assert_eq!(hits[0].snippet_line, 10);
        assert_eq!((hits[0].start_line, hits[0].end_line), (7, 13));
        assert!(hits[0].body.contains("def rare():"));
        assert!(hits[0].chunk_id.starts_with("live:b.py"));
    }
}
