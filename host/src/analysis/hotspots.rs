//! Hot spots (ADR-033 §5): the functions where risk concentrates: branchy, long, central in
//! the call graph, coupled to many others, and in files that keep changing (churn from the
//! history, when there is one). Each component is a percentile among the project's
//! functions, so a score reads the same in a small project and a large one; an absolute floor
//! keeps a tidy project from having "hot spots" that are merely its largest.

use super::Snapshot;
use crate::index::roles::Role;

/// Below both of these a function is not a hot spot, whatever its percentiles.
pub const MIN_BRANCHES: u32 = 8;
pub const MIN_LINES: u32 = 60;
/// Weights of the components: branches, length, centrality, coupling, churn; without a
/// history the first four alone.
const WEIGHTS: [f32; 5] = [0.3, 0.15, 0.2, 0.1, 0.25];
const WEIGHTS_WITHOUT_HISTORY: [f32; 5] = [0.4, 0.2, 0.25, 0.15, 0.0];

/// How often each definition of the graph changed in the history's window.
#[derive(Debug, Clone, PartialEq)]
pub struct Churn {
    /// By the graph's symbol position: commits that changed the definition's lines, plus the
    /// commits of its file known for the file only (see [`super::churn::History::lines`]).
    pub per_symbol: Vec<u32>,
    /// By the graph's file position: true when every commit of the file was followed line by
    /// line, so a definition's count is its own.
    pub by_line: Vec<bool>,
    /// Commits of the window that were read.
    pub commits: u32,
}
/// A component at or above this percentile is named among the reasons.
const NOTABLE: f32 = 0.9;

/// One hot spot: a definition, its score (0-1) and why.
#[derive(Debug, Clone, PartialEq)]
pub struct HotSpot {
    pub symbol: u32,
    pub score: f32,
    pub reasons: Vec<String>,
}

/// Every hot spot of the project, hottest first (tests and generated code left out): callers
/// keep the ones of the files they show. A function's churn is the commits that changed its
/// lines (and those of its file's commits that could not be followed line by line).
pub fn hot_spots(s: &Snapshot, churn: Option<&Churn>) -> Vec<HotSpot> {
    let g = &s.graph;
    let functions: Vec<u32> = (0..g.symbols.len() as u32)
        .filter(|&i| {
            let node = &g.symbols[i as usize];
            matches!(node.symbol().kind.as_str(), "function" | "method")
                && s.roles.of(&g.files[node.file as usize].path) == Role::Source
        })
        .collect();
    // Coupling by the links the graph knows: name-only guesses would make every common
    // method name look coupled.
    let coupling = |i: u32| {
        let (callers, callees) = g.known_fan(i);
        (callers + callees) as f64
    };
    let metric = |f: &dyn Fn(u32) -> f64| -> Vec<f32> {
        let values: Vec<f64> = functions.iter().map(|&i| f(i)).collect();
        super::rank::percentiles(&values)
    };
    let branches = metric(&|i| g.symbols[i as usize].symbol().branches as f64);
    let lines = metric(&|i| g.symbols[i as usize].lines() as f64);
    let central = metric(&|i| s.symbol_rank[i as usize]);
    let coupled = metric(&coupling);
    let own_churn = |i: u32| {
        churn
            .and_then(|c| c.per_symbol.get(i as usize))
            .copied()
            .unwrap_or(0)
    };
    let changed = metric(&|i| own_churn(i) as f64);
    let weights = if churn.is_some() {
        WEIGHTS
    } else {
        WEIGHTS_WITHOUT_HISTORY
    };
    let mut out: Vec<HotSpot> = functions
        .iter()
        .enumerate()
        .filter(|&(_, &i)| {
            let node = &g.symbols[i as usize];
            node.symbol().branches >= MIN_BRANCHES || node.lines() >= MIN_LINES
        })
        .map(|(k, &i)| {
            let parts = [branches[k], lines[k], central[k], coupled[k], changed[k]];
            let score = parts.iter().zip(weights).map(|(p, w)| p * w).sum();
            let node = &g.symbols[i as usize];
            let top = |p: f32| format!("top {}%", ((1.0 - p) * 100.0).ceil().max(1.0));
            let mut reasons = Vec::new();
            if branches[k] >= NOTABLE {
                reasons.push(format!(
                    "{} branch points ({})",
                    node.symbol().branches,
                    top(branches[k])
                ));
            }
            if lines[k] >= NOTABLE {
                reasons.push(format!("{} lines ({})", node.lines(), top(lines[k])));
            }
            if central[k] >= NOTABLE {
                reasons.push(format!("call-graph PageRank {}", top(central[k])));
            }
            if coupled[k] >= NOTABLE {
                let (callers, callees) = g.known_fan(i);
                reasons.push(format!(
                    "called from {callers} and calling {callees} definitions ({})",
                    top(coupled[k])
                ));
            }
            if let Some(c) = churn
                && changed[k] >= NOTABLE
                && own_churn(i) > 0
            {
                let how = if c.by_line.get(node.file as usize) == Some(&true) {
                    ""
                } else {
                    ", with its file's commits not followed line by line"
                };
                reasons.push(format!(
                    "its lines changed in {} of the last {} commits ({}{how})",
                    own_churn(i),
                    c.commits,
                    top(changed[k])
                ));
            }
            HotSpot {
                symbol: i,
                score,
                reasons,
            }
        })
        .filter(|h| !h.reasons.is_empty())
        .collect();
    out.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.symbol.cmp(&b.symbol)));
    out
}
