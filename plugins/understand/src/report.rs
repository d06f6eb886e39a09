//! The synthesized part of a response (ADR-033 §5-7): a file's architectural role, the
//! insights the graphs support, the Mermaid picture and the guidance.

use crate::smart_context::plugin::index::{GraphFile, HotSpot};
use sdk::guidance::{Action, Guidance, ToolCall, Warning};
use serde::Serialize;
use serde_json::json;

/// ADR §7.1's roles. Percentile stands in for the ADR's normalized PageRank. A file many
/// import that imports little is a utility; one that imports many and few import is
/// integration (glue); core needs both a high rank and many importers.
pub fn role(f: &GraphFile) -> &'static str {
    if f.percentile > 0.7 && f.fan_in > 10 {
        "core"
    } else if f.fan_in > 5 && f.fan_out < 3 {
        "utility"
    } else if f.fan_out > 5 && f.fan_in < 3 {
        "integration"
    } else {
        "peripheral"
    }
}

/// ADR §5.1: one observation the graphs support, what it means, and the call to make next.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Insight {
    /// architecture, risk, maintenance or dependency.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub severity: &'static str,
    pub observation: String,
    pub implication: String,
    pub action_suggestion: ToolCall,
    pub affected_files: Vec<String>,
    pub confidence: f32,
}

/// More definitions than this in one central file make it a god module.
pub const GOD_MODULE_DEFINITIONS: u32 = 40;
/// More dependent files than this make a high blast radius (ADR §5.2).
pub const HIGH_BLAST_RADIUS: u32 = 10;
/// This many hot spots in one file make a concentration (ADR §5.2).
pub const HOT_SPOT_CONCENTRATION: usize = 3;

/// The ADR §5.2 rules over what a response gathered.
pub fn insights(
    files: &[GraphFile],
    blast: &[(String, u32)],
    cycles: &[Vec<String>],
    hot_spots: &[HotSpot],
) -> Vec<Insight> {
    let mut out = Vec::new();
    let gods: Vec<&GraphFile> = files
        .iter()
        .filter(|f| f.percentile >= 0.95 && f.definitions > GOD_MODULE_DEFINITIONS)
        .collect();
    if !gods.is_empty() {
        out.push(Insight {
            kind: "architecture",
            severity: "high",
            observation: format!(
                "{} file{} in the top 5% by PageRank define{} over {GOD_MODULE_DEFINITIONS} definitions each ({})",
                gods.len(),
                plural(gods.len()),
                if gods.len() == 1 { "s" } else { "" },
                gods.iter().map(|f| format!("{}: {}", f.path, f.definitions)).collect::<Vec<_>>().join(", ")
            ),
            implication: "central and large: likely several responsibilities in one module, and every change there reaches many importers".into(),
            action_suggestion: ToolCall::new(
                "understand",
                json!({ "goal": format!("responsibilities of {}", gods[0].path), "path": gods[0].path, "depth": "deep" }),
            ),
            affected_files: gods.iter().map(|f| f.path.clone()).collect(),
            confidence: 0.7,
        });
    }
    let wide: Vec<&(String, u32)> = blast
        .iter()
        .filter(|(_, n)| *n > HIGH_BLAST_RADIUS)
        .collect();
    if !wide.is_empty() {
        out.push(Insight {
            kind: "risk",
            severity: "high",
            observation: format!(
                "{} reach{} more than {HIGH_BLAST_RADIUS} files through imports ({})",
                wide.iter().map(|(p, _)| p.as_str()).collect::<Vec<_>>().join(", "),
                if wide.len() == 1 { "es" } else { "" },
                wide.iter().map(|(_, n)| n.to_string()).collect::<Vec<_>>().join(", ")
            ),
            implication: "a change here spreads: check the importers' expectations before editing".into(),
            action_suggestion: ToolCall::new(
                "change",
                json!({ "intent": format!("edit {}", wide[0].0), "edits": [], "options": { "dryRun": true } }),
            ),
            affected_files: wide.iter().map(|(p, _)| p.clone()).collect(),
            confidence: 0.9,
        });
    }
    if !cycles.is_empty() {
        let mut files: Vec<String> = cycles.iter().flatten().cloned().collect();
        files.sort();
        files.dedup();
        out.push(Insight {
            kind: "dependency",
            severity: "medium",
            observation: format!(
                "{} import cycle{} ({} files)",
                cycles.len(),
                plural(cycles.len()),
                files.len()
            ),
            implication: "modules in a cycle load and test only together; refactoring one drags the others".into(),
            action_suggestion: ToolCall::new(
                "understand",
                json!({ "goal": "why these modules import each other", "path": cycles[0][0], "scope": "module" }),
            ),
            affected_files: files,
            confidence: 0.95,
        });
    }
    let mut by_file: Vec<(String, usize)> = Vec::new();
    for h in hot_spots {
        match by_file.iter_mut().find(|(p, _)| *p == h.symbol.path) {
            Some((_, n)) => *n += 1,
            None => by_file.push((h.symbol.path.clone(), 1)),
        }
    }
    let concentrated: Vec<&(String, usize)> = by_file
        .iter()
        .filter(|(_, n)| *n >= HOT_SPOT_CONCENTRATION)
        .collect();
    if !concentrated.is_empty() {
        out.push(Insight {
            kind: "maintenance",
            severity: "medium",
            observation: format!(
                "hot spots concentrate in {}",
                concentrated.iter().map(|(p, n)| format!("{p} ({n})")).collect::<Vec<_>>().join(", ")
            ),
            implication: "complex, central functions side by side: where bugs are most likely and tests matter most".into(),
            action_suggestion: ToolCall::new(
                "explore",
                json!({ "query": format!("tests for {}", concentrated[0].0) }),
            ),
            affected_files: concentrated.iter().map(|(p, _)| p.clone()).collect(),
            confidence: 0.8,
        });
    }
    out
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// ADR §6 guidance for an understand response: read the target, and the MISSING_TESTS and
/// HIGH_RISK rules.
pub fn guidance(
    summary: &str,
    read: Option<ToolCall>,
    role: Option<&str>,
    tests_query: &str,
    blast_radius: u32,
    hot_spot_count: u32,
    rank_coverage: f32,
) -> Guidance {
    let mut g = Guidance::new(summary);
    g.meta.based_on.hot_spot_count = hot_spot_count;
    g.meta.based_on.page_rank_coverage = rank_coverage;
    g.meta.based_on.impact_analysis_included = true;
    if let Some(call) = read {
        g = g.action(Action {
            priority: 2,
            pillar: "explore".into(),
            action: "read".into(),
            description: "Read the target's source".into(),
            rationale: "the structure is known; the body is what a change needs".into(),
            tool_call: call,
            expected_outcome: "the target's code with line numbers".into(),
        });
    }
    if role == Some("core") {
        g = g.action(Action {
            priority: 1,
            pillar: "explore".into(),
            action: "find_tests".into(),
            description: "A core module: find its tests before changing it".into(),
            rationale: "MISSING_TESTS: core code needs its coverage known first".into(),
            tool_call: ToolCall::new("explore", json!({ "query": tests_query })),
            expected_outcome: "the test files that exercise it".into(),
        });
    }
    if blast_radius > HIGH_BLAST_RADIUS {
        g = g.warn(Warning {
            severity: "warning",
            code: "HIGH_RISK".into(),
            message: format!("{blast_radius} files depend on this through imports"),
            affected_targets: Vec::new(),
            mitigation: Some("change with dryRun: true first and read its impact report".into()),
        });
    }
    g
}

/// ADR §5.3: top files by PageRank with their import links (at most 30), hot spots and roles
/// styled. Node ids are generated (`n0`, `n1`, ...) and labels quoted, so no path can break
/// the syntax.
pub fn mermaid(files: &[GraphFile], links: &[(String, String)], hot: &[String]) -> String {
    let mut out = String::from("graph TD\n");
    let id = |path: &str| {
        files
            .iter()
            .position(|f| f.path == path)
            .map(|i| format!("n{i}"))
    };
    for (i, f) in files.iter().enumerate() {
        // In a cycle a file is both an import and an importer: one node.
        if id(&f.path) != Some(format!("n{i}")) {
            continue;
        }
        let class = if hot.contains(&f.path) {
            ":::hotspot"
        } else {
            match role(f) {
                "core" => ":::core",
                "integration" => ":::integration",
                _ => "",
            }
        };
        let name = f.path.rsplit('/').next().unwrap_or(&f.path);
        out.push_str(&format!(
            "  n{i}[\"{}<br/>{}\"]{class}\n",
            label(name),
            role(f)
        ));
    }
    for (from, to) in links.iter().take(30) {
        if let (Some(a), Some(b)) = (id(from), id(to)) {
            out.push_str(&format!("  {a} --> {b}\n"));
        }
    }
    out.push_str("  classDef hotspot fill:#ff6b6b,stroke:#c92a2a\n");
    out.push_str("  classDef core fill:#4ecdc4,stroke:#099268\n");
    out.push_str("  classDef integration fill:#ffd43b,stroke:#fab005\n");
    out
}

/// A label safe inside Mermaid's double quotes.
fn label(s: &str) -> String {
    let clipped: String = s.chars().take(40).collect();
    clipped
        .replace('"', "#quot;")
        .replace(['[', ']', '{', '}', '<', '>', '|'], "_")
}
