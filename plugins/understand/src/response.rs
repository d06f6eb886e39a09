//! The answer: the structured response every scope fills, and its compact text rendering.

use super::*;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct OutlineEntry {
    pub(crate) name: String,
    pub(crate) kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) container: Option<String>,
    pub(crate) start_line: u32,
    pub(crate) end_line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) signature: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Facts {
    pub(crate) lines: u32,
    pub(crate) bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) language: Option<String>,
    pub(crate) kind: &'static str,
    pub(crate) definitions: usize,
}

/// A definition as the response shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SymbolInfo {
    pub(crate) name: String,
    pub(crate) kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) container: Option<String>,
    pub(crate) path: String,
    pub(crate) start_line: u32,
    pub(crate) end_line: u32,
    pub(crate) branches: u32,
    /// PageRank percentile in the call graph (1.0: the top).
    pub(crate) rank: f32,
    pub(crate) fan_in: u32,
    pub(crate) fan_out: u32,
}

impl From<&GraphSymbol> for SymbolInfo {
    fn from(s: &GraphSymbol) -> Self {
        Self {
            name: s.name.clone(),
            kind: s.kind.clone(),
            container: s.container.clone(),
            path: s.path.clone(),
            start_line: s.range.start,
            end_line: s.range.end,
            branches: s.branches,
            rank: s.percentile,
            fan_in: s.fan_in,
            fan_out: s.fan_out,
        }
    }
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CallLinkOut {
    pub(crate) caller: String,
    pub(crate) callee: String,
    /// The call site: `path:line`.
    pub(crate) at: String,
    pub(crate) confidence: String,
    pub(crate) weight: f32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct CallGraphOut {
    pub(crate) depth: u32,
    /// Qualified names of the definitions it is about.
    pub(crate) targets: Vec<String>,
    /// Links resolved by import, container, base class, file or module: what the code does.
    pub(crate) callers: Vec<CallLinkOut>,
    pub(crate) callees: Vec<CallLinkOut>,
    /// Links only the name suggests (one of a few definitions of that name): possible, not
    /// known, kept apart so that the lists above can be trusted, and never walked further.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) possible_callers: Vec<CallLinkOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) possible_callees: Vec<CallLinkOut>,
    pub(crate) truncated: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct DependencyEdge {
    pub(crate) from: String,
    pub(crate) to: String,
    /// import (the file imports it) or dependent (it reaches the file, at `depth` steps).
    #[serde(rename = "type")]
    pub(crate) kind: &'static str,
    pub(crate) depth: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct HotSpotOut {
    pub(crate) path: String,
    pub(crate) symbol: String,
    pub(crate) start_line: u32,
    pub(crate) end_line: u32,
    pub(crate) score: f32,
    pub(crate) reasons: Vec<String>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Complexity {
    pub(crate) loc: u32,
    pub(crate) branches: u32,
    pub(crate) dependencies: u32,
    pub(crate) fan_in: u32,
    pub(crate) fan_out: u32,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Report {
    pub(crate) summary: String,
    pub(crate) architectural_role: &'static str,
    pub(crate) complexity: Complexity,
    pub(crate) risks: Vec<String>,
    pub(crate) recommendations: Vec<String>,
}

/// Project or directory scope: what the codebase is.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Overview {
    pub(crate) files: u32,
    pub(crate) definitions: u32,
    pub(crate) call_links: u32,
    pub(crate) import_links: u32,
    pub(crate) unresolved_calls: u32,
    /// Directories by dependency direction, foundation first.
    pub(crate) layers: Vec<Vec<String>>,
    pub(crate) entry_points: Vec<String>,
    pub(crate) core_modules: Vec<String>,
    pub(crate) cycles: Vec<Vec<String>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct UnderstandResponse {
    pub(crate) success: bool,
    pub(crate) summary: String,
    pub(crate) scope: &'static str,
    pub(crate) target: Resolution,
    /// The file, for symbol and file scope.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) path: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) outline: Vec<OutlineEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) facts: Option<Facts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) overview: Option<Overview>,
    pub(crate) skeleton: String,
    pub(crate) symbols: Vec<SymbolInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) call_graph: Option<CallGraphOut>,
    pub(crate) dependencies: Vec<DependencyEdge>,
    pub(crate) hot_spots: Vec<HotSpotOut>,
    /// PageRank percentiles (1.0: the top) of the files and definitions shown.
    pub(crate) page_rank_scores: BTreeMap<String, f32>,
    /// Files that reach the target through imports (its blast radius).
    pub(crate) impact_radius: u32,
    pub(crate) report: Report,
    pub(crate) insights: Vec<report::Insight>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) visualization: Option<String>,
    pub(crate) guidance: Guidance,
    pub(crate) internal_tools_used: Vec<String>,
    /// Where the lists go on, when some list holds more than this answer shows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) next: Option<NextPage>,
    pub(crate) degraded: bool,
    pub(crate) reasons: Vec<String>,
}

/// The cursor for the following items, and the call that asks for them.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NextPage {
    pub(crate) cursor: String,
    pub(crate) call: ToolCall,
}

impl UnderstandResponse {
    pub(crate) fn new(target: Resolution, scope: &'static str) -> Self {
        Self {
            success: true,
            summary: String::new(),
            scope,
            target,
            path: None,
            outline: Vec::new(),
            facts: None,
            overview: None,
            skeleton: String::new(),
            symbols: Vec::new(),
            call_graph: None,
            dependencies: Vec::new(),
            hot_spots: Vec::new(),
            page_rank_scores: BTreeMap::new(),
            impact_radius: 0,
            report: Report {
                architectural_role: "peripheral",
                ..Report::default()
            },
            insights: Vec::new(),
            visualization: None,
            guidance: Guidance::default(),
            internal_tools_used: Vec::new(),
            next: None,
            degraded: false,
            reasons: Vec::new(),
        }
    }
}

/// The compact text for clients that show text only.
pub(crate) fn render(r: &UnderstandResponse) -> String {
    let mut out = r.summary.clone();
    out.push_str(&format!(
        "\n[{} scope; target by {}]",
        r.scope, r.target.how
    ));
    if !r.target.alternatives.is_empty() {
        out.push_str(&format!(
            "\nalso considered: {}",
            r.target.alternatives.join("; ")
        ));
    }
    // First, not last: what the answer may be missing is read before the answer.
    if r.degraded {
        let reasons: Vec<String> = r.reasons.iter().map(|x| reason_words(x)).collect();
        out.push_str(&format!("\ndegraded: {}", reasons.join("; ")));
    }
    for e in &r.outline {
        let detail = e.signature.as_deref().unwrap_or(&e.name);
        let detail = match &e.container {
            Some(c) => format!("{detail}  (in {c})"),
            None => detail.to_string(),
        };
        out.push_str(&format!(
            "\n{:>5}-{:<5} {} {}",
            e.start_line, e.end_line, e.kind, detail
        ));
    }
    if let Some(o) = &r.overview {
        for (i, layer) in o.layers.iter().enumerate() {
            out.push_str(&format!("\nlayer {i}: {}", layer.join(", ")));
        }
        if !o.cycles.is_empty() {
            out.push_str(&format!(
                "\ncycles: {}",
                o.cycles
                    .iter()
                    .map(|c| c.join(" <-> "))
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
    }
    if let Some(g) = &r.call_graph {
        for l in &g.callers {
            out.push_str(&format!(
                "\ncaller {} -> {} at {} ({})",
                l.caller, l.callee, l.at, l.confidence
            ));
        }
        for l in &g.callees {
            out.push_str(&format!(
                "\ncallee {} -> {} at {} ({})",
                l.caller, l.callee, l.at, l.confidence
            ));
        }
        for (side, links) in [
            ("caller", &g.possible_callers),
            ("callee", &g.possible_callees),
        ] {
            for l in links {
                out.push_str(&format!(
                    "\npossible {side} {} -> {} at {} (by name only)",
                    l.caller, l.callee, l.at
                ));
            }
        }
    }
    for h in &r.hot_spots {
        out.push_str(&format!(
            "\nhot spot {}#{} ({:.2}): {}",
            h.path,
            h.symbol,
            h.score,
            h.reasons.join("; ")
        ));
    }
    for i in &r.insights {
        out.push_str(&format!("\ninsight [{}] {}", i.severity, i.observation));
    }
    if let Some(next) = &r.next {
        out.push_str(&format!(
            "\nmore in every list: understand({})",
            json!({ "cursor": next.cursor })
        ));
    }
    out
}

/// A reason code with what it means for the answer, for the text rendering (the structured
/// `reasons` keep the bare codes).
pub(crate) fn reason_words(code: &str) -> String {
    let meaning = match code {
        "no_git_history" => "hot spots scored without churn: no git history in the root",
        "git_link_refused" => "hot spots scored without churn: .git is a link, not read",
        "git_history_unreadable" => "hot spots scored without churn: the history could not be read",
        "git_history_partial" => {
            "churn from part of the history window (its deadline passed or an object is damaged)"
        }
        "index_building" => {
            "the index is still building: callers, callees and lists may miss what it has not reached"
        }
        _ => return code.to_string(),
    };
    format!("{code} ({meaning})")
}
