//! The impact report (ADR-033 ImpactReport) from the index: who imports the changed files,
//! which definitions the edits touch (and whether their signature line changed), which tests
//! reference them, and the breaking-change risk by ADR-033's rule. Hot spots here are changed
//! files many others import; the report deepens when understand's graphs do.

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

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImpactReport {
    pub preview: Preview,
    pub affected_hot_spots: Vec<HotSpot>,
    /// Always empty until understand's PageRank lands (kept for the contract).
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
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HotSpot {
    pub file_path: String,
    pub importers: usize,
}

/// Analyses the planned files against the index as it was before the change.
pub fn analyze(files: &[FilePlan]) -> ImpactReport {
    let status = index::index_status();
    let degraded = match status.state.as_str() {
        "fresh" => None,
        other => Some(format!(
            "index is {other}: importers and references may be incomplete"
        )),
    };
    let changed_files: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    let mut impacted: BTreeSet<String> = BTreeSet::new();
    let mut importer_files: BTreeSet<String> = BTreeSet::new();
    let mut hot_spots = Vec::new();
    let mut symbols = Vec::new();
    let mut referencing_tests: BTreeMap<String, bool> = BTreeMap::new();
    let mut external = 0;
    for file in files {
        let importers = index::importers(&file.path, MAX_IMPORTERS).unwrap_or_default();
        let distinct: BTreeSet<String> = importers.into_iter().map(|i| i.path).collect();
        if distinct.len() >= HOT_SPOT_IMPORTERS {
            hot_spots.push(HotSpot {
                file_path: file.path.clone(),
                importers: distinct.len(),
            });
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
            symbols.push(ChangedSymbol {
                name: sym.name,
                kind: sym.kind,
                path: file.path.clone(),
                line: s,
                signature_changed,
                references: outside.len(),
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
            } else if importer_files.contains(path) || changed_files.contains(path) {
                "important"
            } else {
                "optional"
            };
            (path.clone(), p)
        })
        .collect();
    let mut suggested_tests: Vec<String> = test_priority.keys().cloned().collect();
    suggested_tests.sort_by_key(|t| match test_priority[t] {
        "critical" => 0,
        "important" => 1,
        _ => 2,
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
        page_rank_delta: BTreeMap::new(),
        suggested_tests,
        test_priority,
        degraded,
        syntax_errors: Vec::new(),
    }
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

/// Test files by the usual conventions of Rust, Python, JS/TS, Go and Java.
pub fn is_test(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let stem = name.split('.').next().unwrap_or(name);
    lower.starts_with("tests/")
        || lower.starts_with("test/")
        || lower.contains("/tests/")
        || lower.contains("/test/")
        || lower.contains("__tests__/")
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || name.contains(".test.")
        || name.contains(".spec.")
        || (stem.ends_with("test") && name.ends_with(".java"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn risk_follows_the_adr_rule() {
        assert_eq!(breaking_change_risk("high", 1), "high");
        assert_eq!(breaking_change_risk("high", 0), "medium");
        assert_eq!(breaking_change_risk("low", 3), "medium");
        assert_eq!(breaking_change_risk("medium", 0), "low");
        assert_eq!(breaking_change_risk("low", 0), "none");
    }

    #[test]
    fn test_files_are_recognized() {
        for t in [
            "tests/api.rs",
            "src/foo_test.go",
            "pkg/test_util.py",
            "web/a.spec.ts",
            "src/__tests__/x.js",
            "src/FooTest.java",
        ] {
            assert!(is_test(t), "{t}");
        }
        for t in ["src/lib.rs", "src/contest.py", "latest/a.rs"] {
            assert!(!is_test(t), "{t}");
        }
    }
}
