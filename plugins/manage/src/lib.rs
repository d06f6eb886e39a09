//! The manage pillar (ADR-033 Pillar 6): project state and change control. status (index,
//! transactions, plugins), undo and redo (byte-exact, refused with a diff when a file changed
//! since), history (paged, newest first), rebuild (incremental or full) and test (the
//! operator's configured command, summarized). Every answer carries projectState and guidance.

mod memory;
mod render;

wit_bindgen::generate!({
    path: "../../wit",
    world: "editing-pillar",
});

use sdk::guidance::{Action, Guidance, ToolCall, Warning, recoveries_for};
use sdk::{ToolError, ToolResult, codes};
use serde::Deserialize;
use serde_json::{Value, json};
use smart_context::plugin::types::Error;
use smart_context::plugin::{edits, index, status, tasks};

sdk::impl_error_conversions!(Error);

/// History entries per page by default, and at most.
const HISTORY_PAGE: u32 = 20;
const HISTORY_MAX: u32 = 200;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ManageArgs {
    command: Command,
    scope: Option<Scope>,
    target: Option<String>,
    limit: Option<u32>,
    offset: Option<u32>,
    /// remember: the note.
    content: Option<String>,
    files: Option<Vec<String>>,
    tags: Option<Vec<String>>,
    /// forget: which events.
    ids: Option<Vec<String>>,
    session_id: Option<String>,
    older_than_days: Option<f64>,
    #[serde(default)]
    all: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Command {
    Status,
    Undo,
    Redo,
    Rebuild,
    Test,
    History,
    Remember,
    Forget,
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Scope {
    File,
    Transaction,
    Project,
    Incremental,
    Full,
}

/// What the tool is, declared in the component too (see sdk::spec): the host lists it
/// before compiling it.
const SPEC: sdk::spec::Tool = sdk::spec::Tool {
    name: "manage",
    title: "Manage: status, undo/redo, history, rebuild, test",
    description: "Project state and change control, by command: status; undo / redo a \
            transaction, byte-exact (HASH_MISMATCH if a file changed since); history; \
            rebuild the index; test (runs the configured test command: pass/fail counts, \
            first failures); remember a note for later sessions (explore finds it with \
            include.memory); forget memory events.",
    input_schema: INPUT_SCHEMA,
    output_schema: Some(OUTPUT_SCHEMA),
    read_only: false,
    destructive: true,
    idempotent: false,
};
sdk::export_tool!(SPEC, call);

/// The call: the command run, its result in the envelope every manage answer has.
fn call(args_json: &str) -> ToolResult<(String, String)> {
    sdk::answer(args_json, |args: ManageArgs| {
        let (result, text, guidance) = run(&args)?;
        let response = json!({
            "success": true,
            "command": command_name(args.command),
            "result": result,
            "projectState": project_state(),
            "guidance": guidance,
        });
        Ok((response, text))
    })
}

type Outcome = (Value, String, Guidance);

fn run(args: &ManageArgs) -> ToolResult<Outcome> {
    match args.command {
        Command::Status => Ok(status_of()),
        Command::History => history(args),
        Command::Undo | Command::Redo => undo_redo(args),
        Command::Rebuild => rebuild(args),
        Command::Test => test(),
        Command::Remember => memory::remember(args),
        Command::Forget => memory::forget(args),
    }
}

/// ADR-033 ManageResponse.projectState.
fn project_state() -> Value {
    let s = status::status();
    let ix = index::index_status();
    let last = s.last_transaction_ms.max(ix.last_indexed_ms);
    json!({
        "indexStatus": ix.state,
        "pendingTransactions": s.pending_transactions,
        "lastModified": if last == 0 { Value::Null } else { sdk::iso_time(last).into() },
    })
}

fn status_of() -> Outcome {
    let s = status::status();
    let ix = index::index_status();
    let recent = edits::history(5, 0);
    let plugins: Vec<Value> = s
        .plugins
        .iter()
        .map(
            |p| json!({ "name": p.name, "world": p.world, "sha256": p.sha256, "source": p.source }),
        )
        .collect();
    let text = render::status_text(&s, &ix, &recent.entries);
    let result = json!({
        "root": s.root,
        "version": s.version,
        "plugins": plugins,
        "store": {
            "path": s.store_path, "schemaVersion": s.schema_version,
            "transactions": s.transactions, "pendingTransactions": s.pending_transactions,
        },
        "recentTransactions": recent.entries.iter().map(render::entry_json).collect::<Vec<_>>(),
        "memory": memory_totals(),
        "index": {
            "state": ix.state, "files": ix.files, "codeFiles": ix.code_files,
            "documentFiles": ix.document_files, "textFiles": ix.text_files,
            "symbols": ix.symbols, "chunks": ix.chunks, "pending": ix.pending,
            "skipped": ix.skipped,
            "failed": ix.failed.iter().map(|(c, n)| (c.clone(), json!(n))).collect::<serde_json::Map<String, Value>>(),
            "lastIndexedMs": ix.last_indexed_ms,
            "readOnly": ix.read_only, "watching": ix.watching, "message": ix.message,
        },
    });
    let mut g = Guidance::new(format!(
        "index {}, {} transactions",
        ix.state, s.transactions
    ));
    if ix.state == "stale" && !ix.read_only {
        g = g.warn(Warning {
            severity: "warning",
            code: codes::INDEX_STALE.into(),
            message: "the index is behind the files".into(),
            affected_targets: Vec::new(),
            mitigation: Some("manage command=rebuild".into()),
        });
        g.recovery_strategies = recoveries_for(codes::INDEX_STALE, "", None);
    }
    if let Some(last) = recent
        .entries
        .iter()
        .find(|e| e.state == "applied" && e.undoes.is_none())
    {
        g = g.action(action(
            3,
            "undo",
            &format!("Undo the latest change ({}).", last.intent),
            json!({ "command": "undo", "target": last.transaction_id }),
            "the files as they were before it",
        ));
    }
    (result, text, g)
}

/// The session memory's counts, for status.
fn memory_totals() -> Value {
    match smart_context::plugin::memory::totals() {
        Ok(t) => json!({
            "enabled": t.enabled, "events": t.events, "sessions": t.sessions,
            "oldest": (t.oldest_ms > 0).then(|| sdk::iso_time(t.oldest_ms)),
            "newest": (t.newest_ms > 0).then(|| sdk::iso_time(t.newest_ms)),
            "sessionId": t.session_id,
        }),
        Err(e) => json!({ "error": e.message }),
    }
}

fn history(args: &ManageArgs) -> ToolResult<Outcome> {
    let limit = args.limit.unwrap_or(HISTORY_PAGE);
    if limit == 0 || limit > HISTORY_MAX {
        return Err(ToolError::new(
            codes::INVALID_ARGS,
            format!("limit must be 1..={HISTORY_MAX}"),
        ));
    }
    let offset = args.offset.unwrap_or(0);
    let page = edits::history(limit, offset);
    let shown = page.entries.len() as u64;
    let next = (u64::from(offset) + shown < page.total).then(|| u64::from(offset) + shown);
    let text = render::history_text(&page.entries, offset, page.total);
    let result = json!({
        "transactions": page.entries.iter().map(render::entry_json).collect::<Vec<_>>(),
        "total": page.total,
        "offset": offset,
        "nextOffset": next,
    });
    let mut g = Guidance::new(format!(
        "{shown} of {} transactions from {offset}",
        page.total
    ));
    if let Some(n) = next {
        g = g.action(action(
            2,
            "next_page",
            "Older transactions.",
            json!({ "command": "history", "limit": limit, "offset": n }),
            "the next page of history",
        ));
    }
    Ok((result, text, g))
}

fn undo_redo(args: &ManageArgs) -> ToolResult<Outcome> {
    let redo = args.command == Command::Redo;
    if matches!(args.scope, Some(s) if s != Scope::Transaction) {
        return Err(ToolError::new(
            codes::INVALID_ARGS,
            "undo and redo work on whole transactions (scope transaction)",
        )
        .suggest(
            "pass the transaction id as target (see command=history), or none for the latest",
        ));
    }
    let receipt = if redo {
        edits::redo(args.target.as_deref())
    } else {
        edits::undo(args.target.as_deref())
    }
    .map_err(|e| {
        let err: ToolError = e.into();
        let path = err
            .details
            .as_ref()
            .and_then(|d| d.get("path"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let strategies = recoveries_for(&err.code, &path, None);
        err.recover(strategies)
    })?;
    let files: Vec<Value> = receipt
        .files
        .iter()
        .map(|f| json!({ "path": f.path, "beforeHash": f.before_hash, "afterHash": f.after_hash }))
        .collect();
    let paths: Vec<&str> = receipt.files.iter().map(|f| f.path.as_str()).collect();
    let verb = if redo { "redone" } else { "undone" };
    let text = format!(
        "{verb} as transaction {}: {}",
        receipt.transaction_id,
        paths.join(", ")
    );
    let back = if redo { "undo" } else { "redo" };
    let g = Guidance::new(text.clone())
        .action(action_in(
            "explore",
            1,
            "verify",
            "Read the files back.",
            json!({ "paths": paths, "view": "preview" }),
            "the files' current outline",
        ))
        .action(action(
            2,
            back,
            &format!("Take it back with {back}."),
            json!({ "command": back }),
            "the files as they were a moment ago",
        ));
    Ok((
        json!({ "transactionId": receipt.transaction_id, "files": files }),
        text,
        g,
    ))
}

fn rebuild(args: &ManageArgs) -> ToolResult<Outcome> {
    let full = match args.scope {
        None | Some(Scope::Incremental) => false,
        Some(Scope::Full) | Some(Scope::Project) => true,
        Some(_) => {
            return Err(ToolError::new(
                codes::INVALID_ARGS,
                "rebuild scope is incremental (default) or full",
            ));
        }
    };
    let r = tasks::rebuild(full)?;
    let text = format!(
        "{} rebuild in {} ms: {} files scanned, {} indexed, {} unchanged, {} removed, {} skipped",
        r.mode, r.elapsed_ms, r.scanned, r.indexed, r.unchanged, r.removed, r.skipped
    );
    let result = json!({
        "mode": r.mode, "scanned": r.scanned, "indexed": r.indexed, "unchanged": r.unchanged,
        "removed": r.removed, "skipped": r.skipped, "elapsedMs": r.elapsed_ms,
    });
    Ok((result, text.clone(), Guidance::new(text)))
}

fn test() -> ToolResult<Outcome> {
    let r = tasks::run_tests()?;
    let outcome = if r.timed_out {
        "timed out"
    } else if r.exit_code == Some(0) {
        "passed"
    } else {
        "failed"
    };
    let text = render::test_text(&r, outcome);
    let result = json!({
        "outcome": outcome,
        "command": r.command, "source": r.source, "exitCode": r.exit_code,
        "timedOut": r.timed_out, "elapsedMs": r.elapsed_ms,
        "passed": r.passed, "failed": r.failed, "ignored": r.ignored,
        "failures": r.failures, "outputTail": r.output_tail, "outputTruncated": r.output_truncated,
    });
    let mut g = Guidance::new(format!(
        "tests {outcome}: {} passed, {} failed",
        r.passed, r.failed
    ));
    if let Some(first) = r.failures.first() {
        let name = first.rsplit([':', ' ']).next().unwrap_or(first).to_string();
        g = g.action(action_in(
            "explore",
            1,
            "find_failure",
            &format!("Find the failing test {first}."),
            json!({ "query": name }),
            "the failing test's code",
        ));
    }
    if outcome != "passed" {
        g = g.action(action(
            2,
            "undo",
            "If the last change broke the tests, undo it.",
            json!({ "command": "undo" }),
            "the files before the latest change",
        ));
    }
    Ok((result, text, g))
}

fn action(priority: u8, name: &str, description: &str, args: Value, outcome: &str) -> Action {
    action_in("manage", priority, name, description, args, outcome)
}

fn action_in(
    tool: &str,
    priority: u8,
    name: &str,
    description: &str,
    args: Value,
    outcome: &str,
) -> Action {
    Action {
        priority,
        pillar: tool.into(),
        action: name.into(),
        description: description.into(),
        rationale: description.into(),
        tool_call: ToolCall::new(tool, args),
        expected_outcome: outcome.into(),
    }
}

fn command_name(command: Command) -> &'static str {
    match command {
        Command::Status => "status",
        Command::Undo => "undo",
        Command::Redo => "redo",
        Command::Rebuild => "rebuild",
        Command::Test => "test",
        Command::History => "history",
        Command::Remember => "remember",
        Command::Forget => "forget",
    }
}

const INPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "command": { "type": "string", "enum": ["status", "undo", "redo", "rebuild", "test", "history", "remember", "forget"] },
    "scope": { "type": "string", "enum": ["file", "transaction", "project", "incremental", "full"], "description": "rebuild: incremental (default) or full; undo/redo: transaction." },
    "target": { "type": "string", "description": "undo/redo: transaction id (default the latest)." },
    "limit": { "type": "integer", "minimum": 1, "maximum": 200, "description": "history: entries per page (default 20)." },
    "offset": { "type": "integer", "minimum": 0, "description": "history: the previous page's nextOffset." },
    "content": { "type": "string", "description": "remember: the note (<private>...</private> is not kept)." },
    "files": { "type": "array", "items": { "type": "string" }, "description": "remember: files the note is about." },
    "tags": { "type": "array", "items": { "type": "string" }, "description": "remember: labels." },
    "ids": { "type": "array", "items": { "type": "string" }, "description": "forget: memory ids (mem_12)." },
    "sessionId": { "type": "string", "description": "forget: that session's events." },
    "olderThanDays": { "type": "number", "minimum": 0, "description": "forget: events older than this." },
    "all": { "type": "boolean", "description": "forget: everything." }
  },
  "required": ["command"]
}"#;

const OUTPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "success": { "type": "boolean" },
    "command": { "type": "string" },
    "result": { "type": "object" },
    "projectState": { "type": "object" },
    "guidance": { "type": "object" }
  }
}"#;
