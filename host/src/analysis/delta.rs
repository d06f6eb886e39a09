//! What a planned edit would do to the call graph's PageRank (ADR-033 `pageRankDelta`): the
//! planned texts' definitions and calls resolved into the current graph by the same
//! incremental update an indexed edit gets, ranked again from the current scores, and
//! compared. Nothing is written or indexed.

use super::graph::Graph;
use super::{Snapshot, rank_snapshot_from};
use crate::index::code::Language;
use crate::index::facts::FileFacts;
use std::collections::HashMap;
use std::sync::Arc;

/// A move smaller than this (in percentile points) is noise from re-ranking, not news.
pub const MIN_MOVE: f32 = 0.01;

/// One definition's PageRank percentile before and after the plan (none where it does not
/// exist on that side).
#[derive(Debug, Clone, PartialEq)]
pub struct RankMove {
    pub path: String,
    /// `Container.name` or `name`.
    pub symbol: String,
    pub before: Option<f32>,
    pub after: Option<f32>,
}

impl RankMove {
    fn size(&self) -> f32 {
        (self.after.unwrap_or(0.0) - self.before.unwrap_or(0.0)).abs()
    }
}

/// The outcome: the largest moves first, and how many files had to be resolved again.
#[derive(Debug, Default)]
pub struct RankDelta {
    pub moves: Vec<RankMove>,
    pub files_resolved: usize,
}

/// The moves of `planned` (path and full new text of each code file) against `current`:
/// every definition whose percentile moves by [`MIN_MOVE`] or more, plus the planned files'
/// definitions that appear or go, largest first, at most `limit`. A plan that changes no
/// definition, call or import (a comment, a body's arithmetic) moves nothing and costs one
/// parse per file.
pub fn rank_delta(current: &Snapshot, planned: &[(String, String)], limit: usize) -> RankDelta {
    let g = &current.graph;
    let mut replaced: HashMap<&str, Arc<FileFacts>> = HashMap::new();
    for (path, text) in planned {
        let Some(lang) = language_of(path) else {
            continue;
        };
        let facts = FileFacts::from_planned(path, lang, text);
        let same = g.file(path).is_some_and(|f| same_structure(g, f, &facts));
        if !same {
            replaced.insert(path.as_str(), Arc::new(facts));
        }
    }
    if replaced.is_empty() {
        return RankDelta::default();
    }
    // The current files with the planned ones in their place, new ones in path order.
    let mut facts: Vec<Arc<FileFacts>> = g
        .files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            replaced
                .get(f.path.as_str())
                .cloned()
                .unwrap_or_else(|| g.facts_of_file(i as u32))
        })
        .collect();
    for (path, f) in &replaced {
        if g.file(path).is_none() {
            facts.push(f.clone());
        }
    }
    facts.sort_by(|a, b| a.path.cmp(&b.path));
    let next = Graph::update(Some(g), &facts);
    let files_resolved = next.resolved_again;
    let after = rank_snapshot_from(next, Some(current));
    let mut moves = compare(current, &after, &replaced);
    moves.sort_by(|a, b| {
        b.size()
            .total_cmp(&a.size())
            .then_with(|| (&a.path, &a.symbol).cmp(&(&b.path, &b.symbol)))
    });
    moves.truncate(limit);
    RankDelta {
        moves,
        files_resolved,
    }
}

fn language_of(path: &str) -> Option<Language> {
    let ext = path.rsplit_once('.')?.1.to_ascii_lowercase();
    Language::from_extension(&ext)
}

/// Whether `facts` define, call and import exactly what file `file` of `g` does, lines
/// aside (each call by the definition it sits in): then no edge and no rank can move.
fn same_structure(g: &Graph, file: u32, facts: &FileFacts) -> bool {
    let old = g.facts_of_file(file);
    let defs = |f: &FileFacts| -> Vec<(String, String, Option<String>)> {
        f.symbols
            .iter()
            .map(|s| (s.name.clone(), s.kind.clone(), s.container.clone()))
            .collect()
    };
    // Each call with the position of its innermost definition (none outside any).
    let calls = |f: &FileFacts| -> Vec<(String, String, Option<usize>)> {
        f.calls
            .iter()
            .map(|(name, receiver, line)| {
                let inside = f
                    .symbols
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| s.start_line <= *line && *line <= s.end_line)
                    .min_by_key(|(_, s)| s.end_line - s.start_line)
                    .map(|(i, _)| i);
                (name.clone(), receiver.clone(), inside)
            })
            .collect()
    };
    let imports = |f: &FileFacts| -> (Vec<String>, Vec<(String, String)>) {
        (
            f.imports.iter().map(|(m, _)| m.clone()).collect(),
            f.aliases
                .iter()
                .map(|(n, l, _)| (n.clone(), l.clone()))
                .collect(),
        )
    };
    defs(&old) == defs(facts) && imports(&old) == imports(facts) && calls(&old) == calls(facts)
}

/// Every definition's percentile move between `before` and `after`: definitions of unchanged
/// files by their position, those of planned files by `Container.name` (the k-th of a name
/// to the k-th).
fn compare(
    before: &Snapshot,
    after: &Snapshot,
    planned: &HashMap<&str, Arc<FileFacts>>,
) -> Vec<RankMove> {
    let (bg, ag) = (&before.graph, &after.graph);
    let mut moves = Vec::new();
    let mut push = |path: &str, symbol: String, b: Option<f32>, a: Option<f32>| {
        let m = RankMove {
            path: path.to_string(),
            symbol,
            before: b,
            after: a,
        };
        if b.is_none() || a.is_none() || m.size() >= MIN_MOVE {
            moves.push(m);
        }
    };
    for (nf, file) in ag.files.iter().enumerate() {
        let old = bg.file(&file.path);
        if !planned.contains_key(file.path.as_str()) {
            let Some(of) = old else { continue };
            for (n, o) in ag.symbols_of(nf as u32).zip(bg.symbols_of(of)) {
                let (b, a) = (
                    before.symbol_percentile[o as usize],
                    after.symbol_percentile[n as usize],
                );
                if (a - b).abs() >= MIN_MOVE {
                    push(&file.path, ag.qualified(n), Some(b), Some(a));
                }
            }
            continue;
        }
        // A planned file: match definitions by qualified name and occurrence.
        let mut was: HashMap<String, Vec<u32>> = HashMap::new();
        for o in old.into_iter().flat_map(|of| bg.symbols_of(of)) {
            was.entry(bg.qualified(o)).or_default().push(o);
        }
        let mut seen: HashMap<String, usize> = HashMap::new();
        for n in ag.symbols_of(nf as u32) {
            let name = ag.qualified(n);
            let k = seen.entry(name.clone()).or_default();
            let o = was.get(&name).and_then(|v| v.get(*k)).copied();
            *k += 1;
            push(
                &file.path,
                name,
                o.map(|o| before.symbol_percentile[o as usize]),
                Some(after.symbol_percentile[n as usize]),
            );
        }
        for (name, olds) in &was {
            let kept = seen.get(name).copied().unwrap_or(0);
            for &o in olds.iter().skip(kept) {
                push(
                    &file.path,
                    name.clone(),
                    Some(before.symbol_percentile[o as usize]),
                    None,
                );
            }
        }
    }
    moves
}
