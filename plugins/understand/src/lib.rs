//! The understand pillar (ADR-033 Pillar 1): the agent says what it wants to understand and
//! the pillar works out how. It resolves the goal to a definition, a file, a directory or the
//! project ([`target`]), asks the host's analysis layer for the call graph, dependencies,
//! PageRank and hot spots around it, and answers with one report: structure, relationships,
//! role, insights, a Mermaid picture and the next calls to make ([`report`]).

wit_bindgen::generate!({
    path: "../../wit",
    world: "pillar",
});

mod page;
mod report;
mod target;

use page::{Cursor, Page};
use sdk::guidance::{Guidance, ToolCall};
use sdk::{ToolResult, codes};
use serde::{Deserialize, Serialize};
use serde_json::json;
use smart_context::plugin::index::{self as index, DocumentToc, GraphFile, GraphSymbol};
use smart_context::plugin::types::Error;
use smart_context::plugin::workspace;
use std::collections::BTreeMap;
use target::{Resolution, Target};

sdk::impl_error_conversions!(Error);

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct UnderstandArgs {
    /// Required unless `path`, `symbol` or `cursor` says what the call is about.
    #[serde(default)]
    goal: String,
    /// Pins the target: a file or directory relative to the root.
    path: Option<String>,
    /// Pins a definition (`name` or `Container.name`), in `path` when given.
    symbol: Option<String>,
    scope: Option<Scope>,
    depth: Option<Depth>,
    include: Option<Include>,
    limits: Option<Limits>,
    /// `next.cursor` of an earlier answer: the following items of its lists.
    cursor: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Scope {
    Symbol,
    File,
    Module,
    Project,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Depth {
    Shallow,
    Standard,
    Deep,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Include {
    call_graph: Option<bool>,
    hot_spots: Option<bool>,
    page_rank: Option<bool>,
    dependencies: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Limits {
    max_chars: Option<usize>,
}

/// About the size of a default explore answer.
const DEFAULT_MAX_CHARS: usize = 12_000;
/// The ADR §4.1 expansion: a target in the top 5% by PageRank gets this call-graph depth.
const CORE_PERCENTILE: f32 = 0.95;
const CORE_DEPTH: u32 = 3;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct OutlineEntry {
    name: String,
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    container: Option<String>,
    start_line: u32,
    end_line: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    signature: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Facts {
    lines: u32,
    bytes: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    language: Option<String>,
    kind: &'static str,
    definitions: usize,
}

/// A definition as the response shows it.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
struct SymbolInfo {
    name: String,
    kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    container: Option<String>,
    path: String,
    start_line: u32,
    end_line: u32,
    branches: u32,
    /// PageRank percentile in the call graph (1.0: the top).
    rank: f32,
    fan_in: u32,
    fan_out: u32,
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
struct CallLinkOut {
    caller: String,
    callee: String,
    /// The call site: `path:line`.
    at: String,
    confidence: String,
    weight: f32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CallGraphOut {
    depth: u32,
    /// Qualified names of the definitions it is about.
    targets: Vec<String>,
    callers: Vec<CallLinkOut>,
    callees: Vec<CallLinkOut>,
    truncated: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct DependencyEdge {
    from: String,
    to: String,
    /// import (the file imports it) or dependent (it reaches the file, at `depth` steps).
    #[serde(rename = "type")]
    kind: &'static str,
    depth: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct HotSpotOut {
    path: String,
    symbol: String,
    start_line: u32,
    end_line: u32,
    score: f32,
    reasons: Vec<String>,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Complexity {
    loc: u32,
    branches: u32,
    dependencies: u32,
    fan_in: u32,
    fan_out: u32,
}

#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Report {
    summary: String,
    architectural_role: &'static str,
    complexity: Complexity,
    risks: Vec<String>,
    recommendations: Vec<String>,
}

/// Project or directory scope: what the codebase is.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Overview {
    files: u32,
    definitions: u32,
    call_links: u32,
    import_links: u32,
    unresolved_calls: u32,
    /// Directories by dependency direction, foundation first.
    layers: Vec<Vec<String>>,
    entry_points: Vec<String>,
    core_modules: Vec<String>,
    cycles: Vec<Vec<String>>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct UnderstandResponse {
    success: bool,
    summary: String,
    scope: &'static str,
    target: Resolution,
    /// The file, for symbol and file scope.
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    outline: Vec<OutlineEntry>,
    #[serde(skip_serializing_if = "Option::is_none")]
    facts: Option<Facts>,
    #[serde(skip_serializing_if = "Option::is_none")]
    overview: Option<Overview>,
    skeleton: String,
    symbols: Vec<SymbolInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    call_graph: Option<CallGraphOut>,
    dependencies: Vec<DependencyEdge>,
    hot_spots: Vec<HotSpotOut>,
    /// PageRank percentiles (1.0: the top) of the files and definitions shown.
    page_rank_scores: BTreeMap<String, f32>,
    /// Files that reach the target through imports (its blast radius).
    impact_radius: u32,
    report: Report,
    insights: Vec<report::Insight>,
    #[serde(skip_serializing_if = "Option::is_none")]
    visualization: Option<String>,
    guidance: Guidance,
    internal_tools_used: Vec<String>,
    /// Where the lists go on, when some list holds more than this answer shows.
    #[serde(skip_serializing_if = "Option::is_none")]
    next: Option<NextPage>,
    degraded: bool,
    reasons: Vec<String>,
}

/// The cursor for the following items, and the call that asks for them.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct NextPage {
    cursor: String,
    call: ToolCall,
}

impl UnderstandResponse {
    fn new(target: Resolution, scope: &'static str) -> Self {
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

/// What the tool is, declared in the component too (see sdk::spec): the host lists it
/// before compiling it.
const SPEC: sdk::spec::Tool = sdk::spec::Tool {
    name: "understand",
    title: "Understand: structure, relationships and role of code",
    description: "Explain a definition, file, directory or the project's architecture, \
            named in `goal` (or pinned with `path` / `symbol`): outline and skeleton, \
            callers and callees, dependencies and impact radius, PageRank and hot spots, \
            role and insights, a Mermaid diagram, and the next calls; project scope adds \
            layers, entry points, core modules and cycles.",
    input_schema: INPUT_SCHEMA,
    output_schema: Some(OUTPUT_SCHEMA),
    read_only: true,
    destructive: false,
    idempotent: true,
};
sdk::export_tool!(SPEC, call);

/// The call: the analysis, or NOT_INDEXED while the index cannot answer yet.
fn call(args_json: &str) -> ToolResult<(String, String)> {
    sdk::answer(args_json, |args: UnderstandArgs| {
        let response = understand(&args).map_err(|err| {
            let status = index::index_status();
            err.unless_indexing(&status.state, status.pending)
        })?;
        let text = render(&response);
        Ok((response, text))
    })
}

/// What the analysis should include, how far it should go, and which page of the lists.
struct Plan {
    depth: u32,
    call_graph: bool,
    hot_spots: bool,
    page_rank: bool,
    dependencies: bool,
    /// The list size the depth asked for, before the budget shrank it.
    asked_limit: u32,
    page: Page,
}

impl Plan {
    /// Call links to ask the host for: callers and callees share them, and a page of each
    /// needs its items and the ones before.
    fn max_links(&self) -> u32 {
        (self.page.offset + self.page.limit) * 4 + 1
    }

    fn cursor(&self, target: &Target, offset: u32) -> Cursor {
        Cursor {
            target: target.clone(),
            depth: self.depth,
            call_graph: self.call_graph,
            hot_spots: self.hot_spots,
            page_rank: self.page_rank,
            dependencies: self.dependencies,
            offset,
            limit: self.page.limit,
        }
    }
}

fn understand(args: &UnderstandArgs) -> ToolResult<UnderstandResponse> {
    let max_chars = args
        .limits
        .as_ref()
        .and_then(|l| l.max_chars)
        .unwrap_or(DEFAULT_MAX_CHARS)
        .max(1_000);
    let (resolution, mut plan) = match &args.cursor {
        Some(cursor) => plan_for_cursor(args, cursor)?,
        None => plan_for_goal(args)?,
    };
    // Never cut silently: lists shrink until the answer fits, and the response says so.
    loop {
        let mut response = answer(&resolution, &plan)?;
        let size = sdk::to_json(&response)?.len();
        if size <= max_chars {
            return Ok(response);
        }
        if plan.page.limit > 2 {
            plan.page = Page::new(plan.page.offset, plan.page.limit / 2);
            continue;
        }
        response.degraded = true;
        response.reasons.push(format!(
            "budget: {size} characters over limits.maxChars {max_chars} with every list at {}; skeleton and diagram left out",
            plan.page.limit
        ));
        response.skeleton.clear();
        response.visualization = None;
        return Ok(response);
    }
}

/// The target from the goal (or `path` / `symbol`), and the plan from the arguments.
fn plan_for_goal(args: &UnderstandArgs) -> ToolResult<(Resolution, Plan)> {
    if args.goal.trim().is_empty() && args.path.is_none() && args.symbol.is_none() {
        return Err(sdk::ToolError::new(
            codes::INVALID_ARGS,
            "say what to understand: `goal` is required (or `path`, `symbol`, or a `cursor` from an earlier answer)",
        )
        .suggest("e.g. understand({ goal: \"how does the server start\" })"));
    }
    let resolution = target::resolve(args)?;
    let include = args.include.as_ref();
    let on = |f: fn(&Include) -> Option<bool>| include.and_then(f).unwrap_or(true);
    let (depth, limit) = match args.depth.unwrap_or(Depth::Standard) {
        Depth::Shallow => (1, 5),
        Depth::Standard => (2, 10),
        Depth::Deep => (3, 25),
    };
    let plan = Plan {
        depth,
        call_graph: on(|i| i.call_graph),
        hot_spots: on(|i| i.hot_spots),
        page_rank: on(|i| i.page_rank),
        dependencies: on(|i| i.dependencies),
        asked_limit: limit,
        page: Page::new(0, limit),
    };
    Ok((resolution, plan))
}

/// The target and plan a cursor carries; it stands alone, so arguments that would choose
/// another target or plan are refused rather than half applied.
fn plan_for_cursor(args: &UnderstandArgs, cursor: &str) -> ToolResult<(Resolution, Plan)> {
    let invalid = |message: String| {
        sdk::ToolError::new(codes::INVALID_ARGS, message)
            .suggest("pass `cursor` as next.cursor of an earlier understand answer, alone or with `goal` and `limits`")
    };
    if args.path.is_some()
        || args.symbol.is_some()
        || args.scope.is_some()
        || args.depth.is_some()
        || args.include.is_some()
    {
        return Err(invalid(
            "a cursor carries its target, depth and lists: `path`, `symbol`, `scope`, `depth` and `include` do not go with it".into(),
        ));
    }
    let c = Cursor::decode(cursor).map_err(|why| invalid(format!("cursor refused: {why}")))?;
    let resolution = Resolution {
        target: c.target.clone(),
        how: format!("cursor (items from {})", c.offset + 1),
        alternatives: Vec::new(),
    };
    let plan = Plan {
        depth: c.depth,
        call_graph: c.call_graph,
        hot_spots: c.hot_spots,
        page_rank: c.page_rank,
        dependencies: c.dependencies,
        asked_limit: c.limit,
        page: Page::new(c.offset, c.limit),
    };
    Ok((resolution, plan))
}

fn answer(resolution: &Resolution, plan: &Plan) -> ToolResult<UnderstandResponse> {
    plan.page.reset();
    let mut r = match &resolution.target {
        Target::Symbol { path, symbol } => symbol_scope(resolution, path, symbol, plan)?,
        Target::File { path } => file_scope(resolution, path, plan)?,
        Target::Module { path } => whole_scope(resolution, Some(path), plan)?,
        Target::Project => whole_scope(resolution, None, plan)?,
    };
    if plan.page.limit < plan.asked_limit && !r.reasons.iter().any(|x| x.starts_with("budget")) {
        r.reasons.push(format!(
            "lists cut to {} to fit limits.maxChars",
            plan.page.limit
        ));
        r.degraded = true;
    }
    if plan.page.offset > 0 {
        // A further page of the lists: what the first page said once is not said again.
        r.skeleton.clear();
        r.visualization = None;
        r.insights.clear();
        r.report.recommendations.clear();
        r.summary = format!(
            "items {} to {} of the lists about {}",
            plan.page.offset + 1,
            plan.page.offset + plan.page.limit,
            target_words(&resolution.target)
        );
    }
    if plan.page.has_more() {
        let cursor = plan
            .cursor(&resolution.target, plan.page.offset + plan.page.limit)
            .encode();
        r.next = Some(NextPage {
            call: ToolCall::new("understand", json!({ "cursor": cursor })),
            cursor,
        });
    }
    r.degraded |= !r.reasons.is_empty();
    Ok(r)
}

fn target_words(target: &Target) -> String {
    match target {
        Target::Symbol { path, symbol } => format!("{symbol} in {path}"),
        Target::File { path } | Target::Module { path } => path.clone(),
        Target::Project => "the project".into(),
    }
}

fn qualified(s: &GraphSymbol) -> String {
    sdk::qualified_name(&s.name, s.container.as_deref())
}

fn read_call(path: &str, start: u32, end: u32) -> ToolCall {
    ToolCall::new(
        "explore",
        json!({ "paths": [path], "view": "section", "lineRange": { "start": start, "end": end } }),
    )
}

fn symbol_scope(
    resolution: &Resolution,
    path: &str,
    symbol: &str,
    plan: &Plan,
) -> ToolResult<UnderstandResponse> {
    let mut r = UnderstandResponse::new(resolution.clone(), "symbol");
    r.path = Some(path.to_string());
    let mut tools = vec!["index.call-graph".to_string()];
    // First at depth 1 to learn the target's rank; a top-5% target expands (ADR §4.1).
    let probe = index::call_graph(path, Some(symbol), 1, 1)?;
    let target_syms: Vec<&GraphSymbol> = probe
        .targets
        .iter()
        .map(|&t| &probe.symbols[t as usize])
        .collect();
    let top = target_syms
        .iter()
        .map(|s| s.percentile)
        .fold(0.0f32, f32::max);
    let depth = if top >= CORE_PERCENTILE && plan.depth < CORE_DEPTH {
        tools.push(format!(
            "depth expanded to {CORE_DEPTH}: the target is in the top 5% by PageRank"
        ));
        CORE_DEPTH
    } else {
        plan.depth
    };
    let graph = index::call_graph(
        path,
        Some(symbol),
        if plan.call_graph { depth } else { 0 },
        plan.max_links(),
    )?;
    r.reasons.extend(graph.reasons.iter().cloned());
    let targets: Vec<&GraphSymbol> = graph
        .targets
        .iter()
        .map(|&t| &graph.symbols[t as usize])
        .collect();
    r.symbols = targets.iter().map(|s| SymbolInfo::from(*s)).collect();
    if plan.call_graph {
        r.call_graph = Some(call_graph_out(&graph, depth, &plan.page));
    }
    let first = targets[0];
    let deps = file_dependencies(&mut r, path, plan, &mut tools)?;
    let file = deps.as_ref().map(|d| &d.file);
    // The symbol's own callers, transitively, are its impact in the call graph.
    let callers: u32 = r
        .call_graph
        .as_ref()
        .map_or(first.fan_in, |c| c.callers.len() as u32);
    r.report.complexity = Complexity {
        loc: targets
            .iter()
            .map(|s| s.range.end - s.range.start + 1)
            .sum(),
        branches: targets.iter().map(|s| s.branches).sum(),
        dependencies: file.map_or(0, |f| f.fan_out),
        fan_in: targets.iter().map(|s| s.fan_in).sum(),
        fan_out: targets.iter().map(|s| s.fan_out).sum(),
    };
    r.report.architectural_role = file.map_or("peripheral", report::role);
    if plan.page_rank {
        for s in &targets {
            r.page_rank_scores
                .insert(format!("{}#{}", s.path, qualified(s)), s.percentile);
        }
        if let Some(f) = file {
            r.page_rank_scores.insert(f.path.clone(), f.percentile);
        }
    }
    if let Ok(skeleton) = index::skeleton(path) {
        tools.push("index.skeleton".into());
        r.skeleton = skeleton_lines(&skeleton.text, first.range.start, first.range.end);
    }
    if plan.hot_spots {
        let overview = index::graph_overview(Some(path), plan.page.want())?;
        tools.push("index.graph-overview".into());
        let names: Vec<String> = targets.iter().map(|s| qualified(s)).collect();
        r.hot_spots = plan.page.take(
            overview
                .hot_spots
                .iter()
                .filter(|h| names.contains(&qualified(&h.symbol)))
                .map(hot_spot_out)
                .collect(),
        );
    }
    let hot = !r.hot_spots.is_empty();
    r.report.summary = format!(
        "{} ({}, {}:{}-{}): called from {} definition{}, calls {}; {} branch points; call-graph PageRank top {}%{}",
        qualified(first),
        first.kind,
        path,
        first.range.start,
        first.range.end,
        first.fan_in,
        if first.fan_in == 1 { "" } else { "s" },
        first.fan_out,
        first.branches,
        ((1.0 - top) * 100.0).ceil().max(1.0),
        if hot { "; a hot spot" } else { "" }
    );
    if targets.len() > 1 {
        r.report.summary.push_str(&format!(
            " ({} definitions of that name in the file)",
            targets.len()
        ));
    }
    if callers == 0 {
        r.report
            .risks
            .push("no resolved callers: an entry point, called dynamically, or unused".into());
    }
    if hot {
        r.report
            .risks
            .push("a hot spot: complex and central, change it with tests at hand".into());
    }
    r.summary = r.report.summary.clone();
    finish(
        &mut r,
        Some(read_call(path, first.range.start, first.range.end)),
        &format!("tests for {}", first.name),
        tools,
    );
    Ok(r)
}

fn file_scope(resolution: &Resolution, path: &str, plan: &Plan) -> ToolResult<UnderstandResponse> {
    let mut r = UnderstandResponse::new(resolution.clone(), "file");
    r.path = Some(path.to_string());
    let mut tools = Vec::new();
    match index::doc_toc(path) {
        Ok(toc) => {
            document_outline(&mut r, path, toc)?;
            tools.push("index.doc-toc".into());
            r.summary = r.report.summary.clone();
            finish(&mut r, None, "", tools);
            return Ok(r);
        }
        Err(err) if err.code == codes::NO_PARSER => {}
        Err(err) => return Err(err.into()),
    }
    if !code_outline(&mut r, path)? {
        tools.push("workspace.stat".into());
        r.summary = r.report.summary.clone();
        finish(&mut r, None, "", tools);
        return Ok(r);
    }
    tools.push("index.symbols".into());
    if let Ok(skeleton) = index::skeleton(path) {
        tools.push("index.skeleton".into());
        r.skeleton = skeleton.text;
    }
    let deps = file_dependencies(&mut r, path, plan, &mut tools)?;
    if deps.is_none() {
        // Code the graphs do not hold (yet): the outline stands, and the answer says why.
        let status = index::index_status();
        r.reasons.push(if status.state == "fresh" {
            "not_in_graph: the index holds no definitions of this file".to_string()
        } else {
            "index_building: the file is not in the graphs yet".to_string()
        });
    }
    if plan.call_graph && deps.is_some() {
        let graph = index::call_graph(path, None, 1, plan.max_links())?;
        tools.push("index.call-graph".into());
        r.reasons.extend(graph.reasons.iter().cloned());
        r.call_graph = Some(call_graph_out(&graph, 1, &plan.page));
        let mut own: Vec<&GraphSymbol> = graph
            .targets
            .iter()
            .map(|&t| &graph.symbols[t as usize])
            .collect();
        own.sort_by(|a, b| b.rank.total_cmp(&a.rank));
        let own = plan.page.take(own);
        r.symbols = own.iter().map(|s| SymbolInfo::from(*s)).collect();
        if plan.page_rank {
            for s in &own {
                r.page_rank_scores
                    .insert(format!("{}#{}", s.path, qualified(s)), s.percentile);
            }
        }
    }
    if plan.hot_spots && deps.is_some() {
        let overview = index::graph_overview(Some(path), plan.page.want())?;
        tools.push("index.graph-overview".into());
        r.hot_spots = plan
            .page
            .take(overview.hot_spots.iter().map(hot_spot_out).collect());
        r.insights = report::insights(&[], &[], &[], &overview.hot_spots);
    }
    if let Some(d) = &deps {
        let f = &d.file;
        if plan.page_rank {
            r.page_rank_scores.insert(f.path.clone(), f.percentile);
        }
        r.report.architectural_role = report::role(f);
        r.report.complexity = Complexity {
            loc: r.facts.as_ref().map_or(f.lines, |x| x.lines),
            branches: f.branches,
            dependencies: f.fan_out,
            fan_in: f.fan_in,
            fan_out: f.fan_out,
        };
        let mut files = vec![f.clone()];
        files.extend(d.imports.iter().cloned());
        files.extend(d.importers.iter().cloned());
        let links: Vec<(String, String)> = d
            .imports
            .iter()
            .map(|i| (f.path.clone(), i.path.clone()))
            .chain(d.importers.iter().map(|i| (i.path.clone(), f.path.clone())))
            .collect();
        let hot: Vec<String> = r.hot_spots.iter().map(|h| h.path.clone()).collect();
        r.visualization = Some(report::mermaid(&files, &links, &hot));
        let cycles: Vec<Vec<String>> = if d.cycle.is_empty() {
            Vec::new()
        } else {
            vec![d.cycle.clone()]
        };
        let more = report::insights(
            std::slice::from_ref(f),
            &[(f.path.clone(), d.blast_radius)],
            &cycles,
            &[],
        );
        r.insights.extend(more);
        r.report.summary = format!(
            "{}: {} lines of {}, {} definitions; imported by {} file{}, imports {}; {} files reach it through imports; PageRank top {}%; role {}",
            path,
            r.report.complexity.loc,
            f.language.as_deref().unwrap_or("code"),
            f.definitions,
            f.fan_in,
            if f.fan_in == 1 { "" } else { "s" },
            f.fan_out,
            d.blast_radius,
            ((1.0 - f.percentile) * 100.0).ceil().max(1.0),
            r.report.architectural_role
        );
        if !d.cycle.is_empty() {
            r.report.risks.push(format!(
                "part of an import cycle of {} files",
                d.cycle.len()
            ));
        }
    }
    r.summary = r.report.summary.clone();
    let lines = r.facts.as_ref().map_or(1, |f| f.lines.max(1));
    finish(
        &mut r,
        Some(read_call(path, 1, lines.min(200))),
        &format!("tests for {path}"),
        tools,
    );
    Ok(r)
}

struct Deps {
    file: GraphFile,
    imports: Vec<GraphFile>,
    importers: Vec<GraphFile>,
    blast_radius: u32,
    cycle: Vec<String>,
}

/// The file's imports, importers and impact radius into `r` (when asked for and the file is
/// code the graph knows).
fn file_dependencies(
    r: &mut UnderstandResponse,
    path: &str,
    plan: &Plan,
    tools: &mut Vec<String>,
) -> ToolResult<Option<Deps>> {
    let d = match index::file_dependencies(path, 10, plan.page.want()) {
        Ok(d) => d,
        Err(err) if err.code == codes::NOT_FOUND => return Ok(None),
        Err(err) => return Err(err.into()),
    };
    tools.push("index.file-dependencies".into());
    r.reasons.extend(d.reasons.iter().cloned());
    r.impact_radius = d.blast_radius;
    let imports = plan.page.take(d.imports);
    if plan.dependencies {
        let dependents = plan.page.take(d.dependents);
        r.dependencies = imports
            .iter()
            .map(|i| DependencyEdge {
                from: path.to_string(),
                to: i.path.clone(),
                kind: "import",
                depth: 1,
            })
            .chain(dependents.iter().map(|x| DependencyEdge {
                from: x.path.clone(),
                to: path.to_string(),
                kind: "dependent",
                depth: x.depth,
            }))
            .collect();
    }
    // Importers only draw the diagram: the page's share of them, no list of their own.
    let importers = d
        .importers
        .into_iter()
        .skip(plan.page.offset as usize)
        .take(plan.page.limit as usize)
        .collect();
    Ok(Some(Deps {
        file: d.file,
        imports,
        importers,
        blast_radius: d.blast_radius,
        cycle: d.cycle,
    }))
}

fn whole_scope(
    resolution: &Resolution,
    under: Option<&str>,
    plan: &Plan,
) -> ToolResult<UnderstandResponse> {
    let mut r = UnderstandResponse::new(
        resolution.clone(),
        if under.is_some() { "module" } else { "project" },
    );
    let o = index::graph_overview(under.map(str::to_string).as_deref(), plan.page.want())?;
    let tools = vec!["index.graph-overview".to_string()];
    r.reasons.extend(o.reasons.iter().cloned());
    let page = &plan.page;
    let all_cycles = o.cycles.len();
    let cycles = page.take(o.cycles);
    let top_files = page.take(o.top_files);
    let entry_points = page.take(o.entry_points);
    let layers: Vec<Vec<String>> = o.layers.into_iter().map(|l| page.take(l)).collect();
    let hot_spots = page.take(o.hot_spots);
    let shown: std::collections::HashSet<&str> =
        top_files.iter().map(|f| f.path.as_str()).collect();
    // Links among the files fetched that touch this page's files.
    let links: Vec<(String, String)> = o
        .links
        .into_iter()
        .filter(|(a, b)| shown.contains(a.as_str()) || shown.contains(b.as_str()))
        .collect();
    let core: Vec<&GraphFile> = top_files
        .iter()
        .filter(|f| report::role(f) == "core")
        .collect();
    r.overview = Some(Overview {
        files: o.files,
        definitions: o.definitions,
        call_links: o.call_links,
        import_links: o.import_links,
        unresolved_calls: o.unresolved_calls,
        layers: layers.clone(),
        entry_points: entry_points.clone(),
        core_modules: core.iter().map(|f| f.path.clone()).collect(),
        cycles: if plan.dependencies {
            cycles.clone()
        } else {
            Vec::new()
        },
    });
    r.symbols = page
        .take(o.top_symbols)
        .iter()
        .map(SymbolInfo::from)
        .collect();
    if plan.page_rank {
        for f in &top_files {
            r.page_rank_scores.insert(f.path.clone(), f.percentile);
        }
    }
    if plan.dependencies {
        r.dependencies = links
            .iter()
            .map(|(a, b)| DependencyEdge {
                from: a.clone(),
                to: b.clone(),
                kind: "import",
                depth: 1,
            })
            .collect();
    }
    if plan.hot_spots {
        r.hot_spots = hot_spots.iter().map(hot_spot_out).collect();
    }
    let hot_files: Vec<String> = r.hot_spots.iter().map(|h| h.path.clone()).collect();
    r.visualization = Some(report::mermaid(&top_files, &links, &hot_files));
    r.insights = report::insights(&top_files, &[], &cycles, &hot_spots);
    r.skeleton = layers
        .iter()
        .enumerate()
        .map(|(i, l)| format!("layer {i}: {}", l.join(", ")))
        .collect::<Vec<_>>()
        .join("\n");
    r.report.architectural_role = if core.is_empty() {
        "peripheral"
    } else {
        "core"
    };
    r.report.complexity = Complexity {
        loc: top_files.iter().map(|f| f.lines).sum(),
        branches: top_files.iter().map(|f| f.branches).sum(),
        dependencies: o.import_links,
        fan_in: 0,
        fan_out: 0,
    };
    r.report.summary = format!(
        "{}: {} code files, {} definitions, {} import links, {} resolved call links; {} layer{}; entry points: {}; most central: {}; {} import cycle{}; {} hot spot{} shown",
        under.unwrap_or("the project"),
        o.files,
        o.definitions,
        o.import_links,
        o.call_links,
        layers.len(),
        if layers.len() == 1 { "" } else { "s" },
        if entry_points.is_empty() {
            "none found".to_string()
        } else {
            entry_points
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        },
        top_files
            .iter()
            .take(3)
            .map(|f| f.path.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        if all_cycles > cycles.len() {
            format!("{} or more", cycles.len())
        } else {
            cycles.len().to_string()
        },
        if all_cycles == 1 { "" } else { "s" },
        r.hot_spots.len(),
        if r.hot_spots.len() == 1 { "" } else { "s" },
    );
    r.summary = r.report.summary.clone();
    let read = top_files.first().map(|f| {
        ToolCall::new(
            "understand",
            json!({ "goal": format!("role of {}", f.path), "path": f.path }),
        )
    });
    finish(&mut r, read, "tests", tools);
    Ok(r)
}

/// Recommendations, risks and guidance from what `r` gathered.
fn finish(
    r: &mut UnderstandResponse,
    next: Option<ToolCall>,
    tests_query: &str,
    tools: Vec<String>,
) {
    for i in &r.insights {
        r.report
            .recommendations
            .push(format!("{}: {}", i.observation, i.implication));
    }
    if r.impact_radius > report::HIGH_BLAST_RADIUS {
        r.report.risks.push(format!(
            "{} files reach it through imports",
            r.impact_radius
        ));
    }
    let role = (r.scope != "project" && r.scope != "module").then_some(r.report.architectural_role);
    r.guidance = report::guidance(
        &r.summary,
        next,
        role,
        tests_query,
        r.impact_radius,
        r.hot_spots.len() as u32,
        if r.page_rank_scores.is_empty() {
            0.0
        } else {
            1.0
        },
    );
    r.internal_tools_used = tools;
}

fn call_graph_out(g: &index::CallGraphResult, depth: u32, page: &Page) -> CallGraphOut {
    let name = |i: u32| {
        let s = &g.symbols[i as usize];
        format!("{}#{}", s.path, qualified(s))
    };
    let targets: Vec<u32> = g.targets.clone();
    let link = |l: &index::CallLink| CallLinkOut {
        caller: name(l.caller),
        callee: name(l.callee),
        at: format!("{}:{}", g.symbols[l.caller as usize].path, l.line),
        confidence: l.confidence.clone(),
        weight: l.weight,
    };
    let mut callers = Vec::new();
    let mut callees = Vec::new();
    // A link walked up from a target reaches it or one of its callers; the rest walk down.
    let mut up: std::collections::HashSet<u32> = targets.iter().copied().collect();
    for l in &g.links {
        if up.contains(&l.callee) && !targets.contains(&l.caller) {
            up.insert(l.caller);
            callers.push(link(l));
        } else {
            callees.push(link(l));
        }
    }
    let end = (page.offset + page.limit) as usize;
    let truncated = g.truncated || callers.len() > end || callees.len() > end;
    if g.truncated {
        page.note_more();
    }
    let callers = page.take(callers);
    let callees = page.take(callees);
    CallGraphOut {
        depth,
        targets: targets.iter().map(|&t| name(t)).collect(),
        callers,
        callees,
        truncated,
    }
}

fn hot_spot_out(h: &index::HotSpot) -> HotSpotOut {
    HotSpotOut {
        path: h.symbol.path.clone(),
        symbol: qualified(&h.symbol),
        start_line: h.symbol.range.start,
        end_line: h.symbol.range.end,
        score: (h.score * 100.0).round() / 100.0,
        reasons: h.reasons.clone(),
    }
}

/// The skeleton lines (`start-end| signature`) that fall within a definition.
fn skeleton_lines(skeleton: &str, start: u32, end: u32) -> String {
    skeleton
        .lines()
        .filter(|l| {
            let first: Option<u32> = l
                .trim_start()
                .split(['-', '|'])
                .next()
                .and_then(|n| n.trim().parse().ok());
            first.is_some_and(|n| n >= start && n <= end)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A document's sections as the outline.
fn document_outline(r: &mut UnderstandResponse, path: &str, toc: DocumentToc) -> ToolResult<()> {
    let entry = workspace::stat(path)?;
    r.outline = toc
        .entries
        .iter()
        .filter(|s| s.level > 0)
        .map(|s| OutlineEntry {
            name: s.heading_path.join(" > "),
            kind: format!("h{}", s.level),
            container: None,
            start_line: s.range.start,
            end_line: s.range.end,
            signature: None,
        })
        .collect();
    let lines = toc.entries.iter().map(|s| s.range.end).max().unwrap_or(0);
    r.report.summary = format!(
        "{}: {} document{}, {} sections",
        sdk::display_path(path),
        toc.kind,
        toc.title.map(|t| format!(" \"{t}\"")).unwrap_or_default(),
        r.outline.len()
    );
    r.report.complexity.loc = lines;
    r.facts = Some(Facts {
        lines,
        bytes: entry.size,
        language: None,
        kind: "document",
        definitions: r.outline.len(),
    });
    Ok(())
}

/// A source file's definitions as the outline; false when it is not code in a supported
/// language (then only its facts are filled in).
fn code_outline(r: &mut UnderstandResponse, path: &str) -> ToolResult<bool> {
    let outline = match index::symbols(path) {
        Ok(outline) => outline,
        Err(err) if err.code == codes::UNSUPPORTED_LANGUAGE => {
            let entry = workspace::stat(path)?;
            r.report.summary = format!(
                "{}: {} bytes; no structure: {}",
                sdk::display_path(path),
                entry.size,
                err.message
            );
            r.facts = Some(Facts {
                lines: 0,
                bytes: entry.size,
                language: None,
                kind: "text",
                definitions: 0,
            });
            return Ok(false);
        }
        Err(err) => return Err(err.into()),
    };
    r.outline = outline
        .symbols
        .into_iter()
        .map(|s| OutlineEntry {
            name: s.name,
            kind: s.kind,
            container: s.container,
            start_line: s.range.start,
            end_line: s.range.end,
            signature: Some(s.signature),
        })
        .collect();
    let byte_size = workspace::stat(path)?.size;
    r.report.summary = format!(
        "{}: {} lines of {}, {} definitions",
        sdk::display_path(&outline.path),
        outline.line_count,
        outline.language,
        r.outline.len()
    );
    r.facts = Some(Facts {
        lines: outline.line_count,
        bytes: byte_size,
        language: Some(outline.language),
        kind: "code",
        definitions: r.outline.len(),
    });
    Ok(true)
}

/// The compact text for clients that show text only.
fn render(r: &UnderstandResponse) -> String {
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
fn reason_words(code: &str) -> String {
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

const INPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "goal": { "type": "string", "description": "What to understand, in words; required unless path, symbol or cursor is given." },
    "path": { "type": "string", "description": "File or directory, relative to the workspace root." },
    "symbol": { "type": "string", "description": "`name` or `Container.name` (in `path` when given)." },
    "scope": { "type": "string", "enum": ["symbol", "file", "module", "project"] },
    "depth": { "type": "string", "enum": ["shallow", "standard", "deep"], "default": "standard", "description": "Call-graph depth 1, 2 or 3; list sizes 5, 10 or 25." },
    "include": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "callGraph": { "type": "boolean", "default": true },
        "hotSpots": { "type": "boolean", "default": true },
        "pageRank": { "type": "boolean", "default": true },
        "dependencies": { "type": "boolean", "default": true }
      }
    },
    "limits": {
      "type": "object",
      "additionalProperties": false,
      "properties": {
        "maxChars": { "type": "integer", "minimum": 1000, "default": 12000, "description": "Cap on the answer; lists shrink to fit." }
      }
    },
    "cursor": { "type": "string", "description": "next.cursor of an earlier answer, passed alone: the next items of its lists." }
  }
}"#;

const OUTPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "success": { "type": "boolean" },
    "summary": { "type": "string" },
    "scope": { "type": "string", "enum": ["symbol", "file", "module", "project"] },
    "target": { "type": "object" },
    "path": { "type": "string" },
    "outline": { "type": "array" },
    "facts": { "type": "object" },
    "overview": { "type": "object" },
    "skeleton": { "type": "string" },
    "symbols": { "type": "array" },
    "callGraph": { "type": "object" },
    "dependencies": { "type": "array" },
    "hotSpots": { "type": "array" },
    "pageRankScores": { "type": "object" },
    "impactRadius": { "type": "integer" },
    "report": { "type": "object" },
    "insights": { "type": "array" },
    "visualization": { "type": "string" },
    "guidance": { "type": "object" },
    "internalToolsUsed": { "type": "array" },
    "next": { "type": "object" },
    "degraded": { "type": "boolean" },
    "reasons": { "type": "array" }
  }
}"#;
