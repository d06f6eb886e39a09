//! The impact report (ADR-033 ImpactReport) from the index and its analysis graphs: who
//! imports the changed files, which definitions the edits touch (whether their signature line
//! changed, their PageRank), which hot spots they touch, which tests reach them (callers in
//! the call graph, references, importers), and the breaking-change risk by ADR-033's rule.

use crate::plan::FilePlan;
use crate::smart_context::plugin::index;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

/// Importers listed per changed file.
const MAX_IMPORTERS: u32 = 50;
/// References looked up per changed symbol.
const MAX_REFERENCES: u32 = 200;
/// A changed file imported by at least this many files counts as a hot spot.
const HOT_SPOT_IMPORTERS: usize = 5;
/// Changed symbols whose references are looked up.
const MAX_SYMBOLS: usize = 20;
/// Callers followed from a changed definition to find the tests that reach it.
const CALLER_DEPTH: u32 = 3;
const MAX_CALL_LINKS: u32 = 400;
/// Hot spots of a changed file looked at.
const FILE_HOT_SPOTS: u32 = 20;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImpactReport {
    pub preview: Preview,
    pub affected_hot_spots: Vec<HotSpot>,
    /// `path#Container.name` -> how far the plan moves that definition's call-graph PageRank
    /// percentile (-1..1; a definition that appears moves from 0, one that goes to 0): the
    /// planned texts resolved into the current graph and ranked again by the host. Empty
    /// when the plan changes no definition, call or import.
    pub page_rank_delta: BTreeMap<String, f64>,
    pub breaking_change_risk: &'static str,
    pub suggested_tests: Vec<String>,
    pub test_priority: BTreeMap<String, &'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub degraded: Option<String>,
    /// Syntax errors the edits introduce (written only with options.allowSyntaxErrors).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub syntax_errors: Vec<crate::guard::Broken>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Preview {
    pub risk_level: &'static str,
    pub summary: Summary,
    pub changed_symbols: Vec<ChangedSymbol>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    pub changed_files: Vec<String>,
    pub impacted_files: Vec<String>,
    pub external_references: usize,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ChangedSymbol {
    pub name: String,
    pub kind: String,
    pub path: String,
    pub line: u32,
    /// The declaration's first line is among the changed lines.
    pub signature_changed: bool,
    /// References from other files.
    pub references: usize,
    /// PageRank percentile in the call graph (1.0: the most central definition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_rank: Option<f32>,
    /// Distinct definitions calling it (any depth up to 3) and of them in tests.
    pub callers: usize,
}

/// A hot spot the change touches: a definition the analysis layer ranks among the project's
/// hot spots (branches, length, centrality, coupling, churn), or a changed file many others
/// import.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HotSpot {
    pub file_path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f32>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    pub importers: usize,
}

/// Analyses the planned files against the index as it was before the change.
pub fn analyze(files: &[FilePlan]) -> ImpactReport {
    let status = index::index_status();
    let degraded = match (status.state.as_str(), status.pending) {
        ("fresh", _) => None,
        (other, 0) => Some(format!(
            "the index is {other}: importers, references and tests may be missing"
        )),
        (other, pending) => Some(format!(
            "the index is {other}, {pending} files to go: importers, references and tests may be missing"
        )),
    };
    let changed_files: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    let mut impacted: BTreeSet<String> = BTreeSet::new();
    let mut importer_files: BTreeSet<String> = BTreeSet::new();
    let mut hot_spots = Vec::new();
    let mut symbols = Vec::new();
    let mut referencing_tests: BTreeMap<String, bool> = BTreeMap::new();
    // Tests whose functions call a changed definition: the fewest call steps.
    let mut graph_tests: BTreeMap<String, u32> = BTreeMap::new();
    let mut external = 0;
    for file in files {
        let importers = index::importers(&file.path, MAX_IMPORTERS).unwrap_or_default();
        let distinct: BTreeSet<String> = importers.into_iter().map(|i| i.path).collect();
        if distinct.len() >= HOT_SPOT_IMPORTERS {
            hot_spots.push(HotSpot {
                file_path: file.path.clone(),
                symbol: None,
                score: None,
                reasons: vec![format!("imported by {} files", distinct.len())],
                importers: distinct.len(),
            });
        }
        if let Ok(o) = index::graph_overview(Some(&file.path), FILE_HOT_SPOTS) {
            for h in o.hot_spots {
                let (s, e) = (h.symbol.range.start, h.symbol.range.end);
                if file.changed.iter().any(|&(a, b)| a <= e && b >= s) {
                    hot_spots.push(HotSpot {
                        file_path: file.path.clone(),
                        symbol: Some(sdk::qualified_name(
                            &h.symbol.name,
                            h.symbol.container.as_deref(),
                        )),
                        score: Some(h.score),
                        reasons: h.reasons,
                        importers: distinct.len(),
                    });
                }
            }
        }
        for p in &distinct {
            if is_test(p) {
                referencing_tests.entry(p.clone()).or_insert(false);
            }
        }
        importer_files.extend(distinct.iter().cloned());
        impacted.extend(distinct);
        let Ok(defs) = index::symbols(&file.path) else {
            continue;
        };
        for sym in defs.symbols {
            let (s, e) = (sym.range.start, sym.range.end);
            let touched = file.changed.iter().any(|&(a, b)| a <= e && b >= s);
            if !touched || symbols.len() >= MAX_SYMBOLS {
                continue;
            }
            let signature_changed = file.changed.iter().any(|&(a, b)| a <= s && s <= b);
            // Containers (impl, class, module) touched through a member add nothing.
            if !signature_changed
                && matches!(
                    sym.kind.as_str(),
                    "impl" | "module" | "class" | "trait" | "interface"
                )
            {
                continue;
            }
            let refs = index::references(&sym.name, MAX_REFERENCES).unwrap_or_default();
            let outside: Vec<_> = refs.iter().filter(|r| r.path != file.path).collect();
            external += outside.len();
            for r in &outside {
                impacted.insert(r.path.clone());
                if is_test(&r.path) {
                    *referencing_tests.entry(r.path.clone()).or_insert(false) |= signature_changed;
                }
            }
            let reach = callers(&file.path, &sym.name, sym.container.as_deref());
            for (path, &depth) in &reach.tests {
                *referencing_tests.entry(path.clone()).or_insert(false) |=
                    signature_changed && depth == 1;
                let best = graph_tests.entry(path.clone()).or_insert(depth);
                *best = (*best).min(depth);
                impacted.insert(path.clone());
            }
            symbols.push(ChangedSymbol {
                name: sym.name,
                kind: sym.kind,
                path: file.path.clone(),
                line: s,
                signature_changed,
                references: outside.len(),
                page_rank: reach.percentile,
                callers: reach.callers,
            });
        }
        if is_test(&file.path) {
            referencing_tests.entry(file.path.clone()).or_insert(false);
        }
    }
    for f in &changed_files {
        impacted.remove(f);
    }
    let signature = symbols
        .iter()
        .any(|s| s.signature_changed && s.references > 0);
    let risk_level = if signature && (importer_files.len() >= HOT_SPOT_IMPORTERS || external >= 10)
    {
        "high"
    } else if signature || importer_files.len() >= HOT_SPOT_IMPORTERS {
        "medium"
    } else if !impacted.is_empty() {
        "low"
    } else {
        "none"
    };
    let test_priority: BTreeMap<String, &'static str> = referencing_tests
        .iter()
        .map(|(path, critical)| {
            let p = if *critical {
                "critical"
            } else if importer_files.contains(path)
                || changed_files.contains(path)
                || graph_tests.get(path) == Some(&1)
            {
                "important"
            } else {
                "optional"
            };
            (path.clone(), p)
        })
        .collect();
    let mut suggested_tests: Vec<String> = test_priority.keys().cloned().collect();
    // By priority, then the tests closest to the change in the call graph.
    suggested_tests.sort_by_key(|t| {
        let rank = match test_priority[t] {
            "critical" => 0,
            "important" => 1,
            _ => 2,
        };
        (rank, graph_tests.get(t).copied().unwrap_or(u32::MAX))
    });
    ImpactReport {
        breaking_change_risk: breaking_change_risk(risk_level, hot_spots.len()),
        preview: Preview {
            risk_level,
            summary: Summary {
                changed_files,
                impacted_files: impacted.into_iter().collect(),
                external_references: external,
            },
            changed_symbols: symbols,
        },
        affected_hot_spots: hot_spots,
        page_rank_delta: page_rank_delta(files),
        suggested_tests,
        test_priority,
        degraded,
        syntax_errors: Vec::new(),
    }
}

/// Definitions whose PageRank moves most under the plan.
const MAX_RANK_MOVES: u32 = 20;

/// The plan's PageRank moves (see [`ImpactReport::page_rank_delta`]); empty when the host
/// cannot rank (no graph yet is not an error the edit should fail on).
fn page_rank_delta(files: &[FilePlan]) -> BTreeMap<String, f64> {
    let planned: Vec<(String, String)> = files
        .iter()
        .filter(|f| !same_shape(&f.text.body, &f.after))
        .map(|f| (f.path.clone(), f.after.clone()))
        .collect();
    if planned.is_empty() {
        return BTreeMap::new();
    }
    let Ok(report) = index::rank_delta(&planned, MAX_RANK_MOVES) else {
        return BTreeMap::new();
    };
    report
        .moves
        .into_iter()
        .map(|m| {
            let delta = f64::from(m.after.unwrap_or(0.0)) - f64::from(m.before.unwrap_or(0.0));
            (
                format!("{}#{}", m.path, m.symbol),
                (delta * 1000.0).round() / 1000.0,
            )
        })
        .collect()
}

/// Whether two texts differ only in number literals, the operators `+ % ^ ~` (which open no
/// call, path, block or comment in any language the index parses) and whitespace inside
/// lines: then they define, call and import the same things in the same places, and the
/// host need not parse the planned text (about 100 ms for 10,000 lines) to know that no rank
/// moves. Identifiers, other punctuation, comments, strings and each line's indentation all
/// count, so an edit that could change structure (a call added, a name changed, a block
/// re-indented) is ranked.
fn same_shape(before: &str, after: &str) -> bool {
    before.lines().count() == after.lines().count()
        && before
            .lines()
            .zip(after.lines())
            .all(|(a, b)| shape(a).eq(shape(b)))
}

/// One line's tokens for [`same_shape`]: its indentation, then identifiers and punctuation,
/// number literals, `+ % ^ ~` and inner whitespace left out.
fn shape(line: &str) -> impl Iterator<Item = &str> {
    let body = line.trim_start();
    let indent = &line[..line.len() - body.len()];
    let mut rest = body;
    let tokens = std::iter::from_fn(move || {
        loop {
            rest = rest.trim_start();
            let first = rest.chars().next()?;
            let end = if first.is_alphanumeric() || first == '_' {
                rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len())
            } else {
                first.len_utf8()
            };
            let (token, tail) = rest.split_at(end);
            rest = tail;
            if !token.starts_with(|c: char| c.is_ascii_digit() || "+%^~".contains(c)) {
                return Some(token);
            }
        }
    });
    std::iter::once(indent).chain(tokens)
}

/// What the call graph says of one changed definition.
#[derive(Debug, Default)]
struct Reach {
    percentile: Option<f32>,
    /// Distinct definitions calling it, within [`CALLER_DEPTH`] steps.
    callers: usize,
    /// Test files among them, with the fewest steps from a test's function to the definition.
    tests: BTreeMap<String, u32>,
}

/// Walks the callers of `name` (in `container`) in `path` up to [`CALLER_DEPTH`] steps. A
/// definition the graph does not know (new, or the index is behind) reaches nothing.
fn callers(path: &str, name: &str, container: Option<&str>) -> Reach {
    let Ok(g) = index::call_graph(
        path,
        Some(&sdk::qualified_name(name, container)),
        CALLER_DEPTH,
        MAX_CALL_LINKS,
    ) else {
        return Reach::default();
    };
    let mut reach = Reach {
        percentile: g
            .targets
            .iter()
            .map(|&t| g.symbols[t as usize].percentile)
            .reduce(f32::max),
        ..Reach::default()
    };
    // Breadth first from the targets along caller links: each definition's fewest steps.
    let mut depth: BTreeMap<u32, u32> = g.targets.iter().map(|&t| (t, 0)).collect();
    let mut frontier: Vec<u32> = g.targets.clone();
    for step in 1..=CALLER_DEPTH {
        let mut next = Vec::new();
        for link in &g.links {
            if frontier.contains(&link.callee) && !depth.contains_key(&link.caller) {
                depth.insert(link.caller, step);
                next.push(link.caller);
            }
        }
        frontier = next;
    }
    for (&id, &d) in &depth {
        if d == 0 {
            continue;
        }
        reach.callers += 1;
        let p = &g.symbols[id as usize].path;
        if is_test(p) {
            let best = reach.tests.entry(p.clone()).or_insert(d);
            *best = (*best).min(d);
        }
    }
    reach
}

/// ADR-033 §7.2 assessBreakingChangeRisk.
pub fn breaking_change_risk(risk_level: &str, hot_spots: usize) -> &'static str {
    if risk_level == "high" && hot_spots > 0 {
        "high"
    } else if risk_level == "high" || hot_spots > 2 {
        "medium"
    } else if risk_level == "medium" || hot_spots > 0 {
        "low"
    } else {
        "none"
    }
}

/// Whether the project holds `path` as a test, by the host's one authority on file roles
/// (the project's own conventions: Django's `django/test/` package is source).
pub fn is_test(path: &str) -> bool {
    index::file_roles(&[path.to_string()])
        .first()
        .is_some_and(|role| role == "test")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_number_and_spacing_edits_skip_the_ranking() {
        let before = "def f(x):\n    return g(x) + 1\n";
        assert!(same_shape(before, "def f(x):\n    return g( x )+2\n"));
        assert!(same_shape(before, "def f(x):\n    return g(x) + 1 % 3\n"));
        assert!(same_shape(before, "def f(x):\n    return g(x) + 0x1F\n"));
        for changed in [
            "def f(x):\n    return h(x) + 1\n",        // another callee
            "def f(x):\n    return g(x) + g2(1)\n",    // a call added (digits in a name)
            "def f(x):\n  return g(x) + 1\n",          // indentation
            "def f(x):\n    return g(x) + 1  # g()\n", // a comment
            "def f(x):\n    return g(x) + 1\ng()\n",   // a line added
            "def f(x):\n    return g(x)()\n",          // punctuation
        ] {
            assert!(!same_shape(before, changed), "{changed}");
        }
    }

    #[test]
    fn risk_follows_the_adr_rule() {
        assert_eq!(breaking_change_risk("high", 1), "high");
        assert_eq!(breaking_change_risk("high", 0), "medium");
        assert_eq!(breaking_change_risk("low", 3), "medium");
        assert_eq!(breaking_change_risk("medium", 0), "low");
        assert_eq!(breaking_change_risk("low", 0), "none");
    }
}
