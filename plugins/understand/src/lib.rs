//! The understand pillar (ADR-033 Pillar 1): the agent says what it wants to understand and
//! the pillar works out how. It resolves the goal to a definition, a file, a directory or the
//! project ([`target`]), asks the host's analysis layer for the call graph, dependencies,
//! PageRank and hot spots around it, and answers with one report: structure, relationships,
//! role, insights, a Mermaid picture and the next calls to make ([`report`]).

wit_bindgen::generate!({
    path: "../../wit",
    world: "pillar",
});

mod args;
mod page;
mod readings;
mod report;
mod response;
mod scopes;
mod target;

use args::*;
use response::*;
use scopes::*;

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

/// About the size of a default explore answer.
const DEFAULT_MAX_CHARS: usize = 12_000;
/// The ADR §4.1 expansion: a target in the top 5% by PageRank gets this call-graph depth.
const CORE_PERCENTILE: f32 = 0.95;
const CORE_DEPTH: u32 = 3;

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
        confidence: target::Confidence::High,
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
