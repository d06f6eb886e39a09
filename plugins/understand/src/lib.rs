//! The understand pillar (ADR-033 Pillar 1), first cut: for a file, its structure (every
//! definition with its container, from the host's tree-sitter extraction, or a document's
//! sections) with line ranges, plus file facts. Call graphs, PageRank and hot spots build on
//! the index's edges in a later issue.

wit_bindgen::generate!({
    path: "../../wit",
    world: "pillar",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use sdk::{ToolError, ToolResult, codes};
use serde::{Deserialize, Serialize};
use smart_context::plugin::index::DocumentToc;
use smart_context::plugin::types::Error;
use smart_context::plugin::{index, workspace};

sdk::impl_error_conversions!(Error);

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct UnderstandArgs {
    goal: String,
    /// The file to analyse; when absent, the first word of `goal` that names a file.
    path: Option<String>,
    // Accepted for the ADR-033 contract; the graphs they steer arrive with the index.
    #[allow(dead_code)]
    scope: Option<Scope>,
    #[allow(dead_code)]
    depth: Option<Depth>,
    #[allow(dead_code)]
    include: Option<Include>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Scope {
    Symbol,
    File,
    Module,
    Project,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Depth {
    Shallow,
    Standard,
    Deep,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[allow(dead_code)]
struct Include {
    call_graph: Option<bool>,
    hot_spots: Option<bool>,
    page_rank: Option<bool>,
    dependencies: Option<bool>,
}

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

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct UnderstandResponse {
    success: bool,
    path: String,
    summary: String,
    outline: Vec<OutlineEntry>,
    facts: Facts,
}

struct Understand;

impl Guest for Understand {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "understand".to_string(),
            title: "Understand: structure of code and documents".to_string(),
            description: "The structure of a file: its definitions (functions, methods, types, \
                modules, with their containers) or a document's sections, each with a line range, and file facts \
                (lines, bytes, language). Name the file in `path` (or in `goal`)."
                .to_string(),
            input_schema: INPUT_SCHEMA.to_string(),
            output_schema: Some(OUTPUT_SCHEMA.to_string()),
            read_only: true,
            destructive: false,
            idempotent: true,
        }
    }

    fn call(args_json: String) -> Result<ToolOutput, Error> {
        let args: UnderstandArgs = sdk::parse_args(&args_json)?;
        let response = understand(&args)?;
        Ok(ToolOutput {
            structured_json: sdk::to_json(&response)?,
            text: render(&response),
        })
    }
}

fn understand(args: &UnderstandArgs) -> ToolResult<UnderstandResponse> {
    let path = resolve_path(args)?;
    // Files a parser plugin handles are outlined by their sections; the rest as code.
    match index::doc_toc(&path) {
        Ok(toc) => document_outline(path, toc),
        Err(err) if err.code == codes::NO_PARSER => code_outline(&path),
        Err(err) => Err(err.into()),
    }
}

fn document_outline(path: String, toc: DocumentToc) -> ToolResult<UnderstandResponse> {
    let entry = workspace::stat(&path)?;
    let outline: Vec<OutlineEntry> = toc
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
    Ok(UnderstandResponse {
        success: true,
        summary: format!(
            "{}: {} document{}, {} sections",
            sdk::display_path(&path),
            toc.kind,
            toc.title.map(|t| format!(" \"{t}\"")).unwrap_or_default(),
            outline.len()
        ),
        facts: Facts {
            lines,
            bytes: entry.size,
            language: None,
            kind: "document",
            definitions: outline.len(),
        },
        path,
        outline,
    })
}

fn code_outline(path: &str) -> ToolResult<UnderstandResponse> {
    let outline = match index::symbols(path) {
        Ok(outline) => outline,
        Err(err) if err.code == codes::UNSUPPORTED_LANGUAGE => {
            return plain_file(path, err.message);
        }
        Err(err) => return Err(err.into()),
    };
    let entries: Vec<OutlineEntry> = outline
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
    let language = Some(outline.language.clone());
    let byte_size = workspace::stat(path)?.size;
    Ok(UnderstandResponse {
        success: true,
        summary: format!(
            "{}: {} lines of {}, {} definitions",
            sdk::display_path(&outline.path),
            outline.line_count,
            language.as_deref().unwrap_or("text"),
            entries.len()
        ),
        facts: Facts {
            lines: outline.line_count,
            bytes: byte_size,
            language,
            kind: "code",
            definitions: entries.len(),
        },
        path: outline.path,
        outline: entries,
    })
}

/// A file that is neither a parsed document nor code in a supported language: facts only.
fn plain_file(path: &str, why: String) -> ToolResult<UnderstandResponse> {
    let entry = workspace::stat(path)?;
    Ok(UnderstandResponse {
        success: true,
        path: path.to_string(),
        summary: format!(
            "{}: {} bytes; no structure: {why}",
            sdk::display_path(path),
            entry.size
        ),
        outline: Vec::new(),
        facts: Facts {
            lines: 0,
            bytes: entry.size,
            language: None,
            kind: "text",
            definitions: 0,
        },
    })
}

fn resolve_path(args: &UnderstandArgs) -> ToolResult<String> {
    if let Some(path) = &args.path {
        return Ok(path.clone());
    }
    args.goal
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| "\"'`,;:()".contains(c)))
        .find(|w| workspace::stat(w).is_ok_and(|e| e.kind == workspace::EntryKind::File))
        .map(str::to_string)
        .ok_or_else(|| {
            ToolError::new(codes::INVALID_ARGS, "no file named in `path` or `goal`")
                .suggest("pass `path` with a file relative to the workspace root")
        })
}

fn render(r: &UnderstandResponse) -> String {
    let mut out = r.summary.clone();
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
    out
}

const INPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "goal": { "type": "string", "description": "What to understand, in words; may name the file." },
    "path": { "type": "string", "description": "The file to analyse, relative to the workspace root." },
    "scope": { "type": "string", "enum": ["symbol", "file", "module", "project"], "default": "symbol" },
    "depth": { "type": "string", "enum": ["shallow", "standard", "deep"], "default": "standard" },
    "include": {
      "type": "object",
      "properties": {
        "callGraph": { "type": "boolean", "default": true },
        "hotSpots": { "type": "boolean", "default": true },
        "pageRank": { "type": "boolean", "default": true },
        "dependencies": { "type": "boolean", "default": true }
      }
    }
  },
  "required": ["goal"]
}"#;

const OUTPUT_SCHEMA: &str = r#"{
  "type": "object",
  "required": ["success", "path", "summary", "outline", "facts"],
  "properties": {
    "success": { "type": "boolean" },
    "path": { "type": "string" },
    "summary": { "type": "string" },
    "outline": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["name", "kind", "startLine", "endLine"],
        "properties": {
          "name": { "type": "string" },
          "kind": { "type": "string" },
          "startLine": { "type": "integer" },
          "endLine": { "type": "integer" },
          "signature": { "type": "string" }
        }
      }
    },
    "facts": { "type": "object" }
  }
}"#;

export!(Understand);
