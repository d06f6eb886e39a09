//! The manage pillar (ADR-033 Pillar 6), first cut: status of the host, the transaction
//! history, and undo of a transaction.

wit_bindgen::generate!({
    path: "../../wit",
    world: "editing-pillar",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use sdk::{ToolError, ToolResult, codes};
use serde::Deserialize;
use serde_json::{Value, json};
use smart_context::plugin::types::Error;
use smart_context::plugin::{edits, index, status};

sdk::impl_error_conversions!(Error);

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManageArgs {
    command: Command,
    // Accepted for the ADR-033 contract; file-scoped commands arrive later.
    #[allow(dead_code)]
    scope: Option<String>,
    target: Option<String>,
    limit: Option<u32>,
}

#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Command {
    Status,
    Undo,
    Redo,
    Rebuild,
    Test,
    History,
}

struct Manage;

impl Guest for Manage {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "manage".to_string(),
            title: "Manage: status, history, undo".to_string(),
            description: "Project state and change control. command=status: root, plugins, store. \
                command=history: recent transactions, newest first (limit). command=undo: revert a \
                transaction (target = its id, or the latest); refused with HASH_MISMATCH if a file \
                changed since."
                .to_string(),
            input_schema: INPUT_SCHEMA.to_string(),
            output_schema: Some(OUTPUT_SCHEMA.to_string()),
            read_only: false,
            destructive: true,
            idempotent: false,
        }
    }

    fn call(args_json: String) -> Result<ToolOutput, Error> {
        let args: ManageArgs = sdk::parse_args(&args_json)?;
        let (result, text) = run(&args)?;
        let response =
            json!({ "success": true, "command": command_name(args.command), "result": result });
        Ok(ToolOutput {
            structured_json: sdk::to_json(&response)?,
            text,
        })
    }
}

fn run(args: &ManageArgs) -> ToolResult<(Value, String)> {
    match args.command {
        Command::Status => {
            let s = status::status();
            let plugins: Vec<Value> = s
                .plugins
                .iter()
                .map(|p| json!({ "name": p.name, "world": p.world, "sha256": p.sha256, "source": p.source }))
                .collect();
            let ix = index::index_status();
            let text = format!(
                "root {}\nsmart-context {}\nplugins: {}\nstore: {} (schema v{}, {} transactions)\nindex: {}, {} files ({} code, {} documents, {} text), {} symbols, {} chunks{}{}{}",
                s.root,
                s.version,
                s.plugins
                    .iter()
                    .map(|p| p.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                s.store_path,
                s.schema_version,
                s.transactions,
                ix.state,
                ix.files,
                ix.code_files,
                ix.document_files,
                ix.text_files,
                ix.symbols,
                ix.chunks,
                if ix.pending > 0 {
                    format!(", {} pending", ix.pending)
                } else {
                    String::new()
                },
                if ix.failed.is_empty() {
                    String::new()
                } else {
                    let codes: Vec<String> =
                        ix.failed.iter().map(|(c, n)| format!("{n} {c}")).collect();
                    format!("; documents not parsed: {}", codes.join(", "))
                },
                ix.message
                    .as_deref()
                    .map(|m| format!(" ({m})"))
                    .unwrap_or_default(),
            );
            let result = json!({
                "root": s.root,
                "version": s.version,
                "plugins": plugins,
                "store": { "path": s.store_path, "schemaVersion": s.schema_version, "transactions": s.transactions },
                "index": {
                    "state": ix.state, "files": ix.files, "codeFiles": ix.code_files,
                    "documentFiles": ix.document_files, "textFiles": ix.text_files,
                    "symbols": ix.symbols, "chunks": ix.chunks, "pending": ix.pending,
                    "skipped": ix.skipped,
                    "failed": ix.failed.iter().map(|(c, n)| (c.clone(), json!(n))).collect::<serde_json::Map<String, Value>>(),
                    "lastIndexedMs": ix.last_indexed_ms,
                    "readOnly": ix.read_only, "watching": ix.watching, "message": ix.message,
                },
                // ADR-033 ManageResponse.projectState.
                "projectState": { "indexStatus": ix.state },
            });
            Ok((result, text))
        }
        Command::History => {
            let entries = edits::history(args.limit.unwrap_or(20).clamp(1, 1000));
            let text = if entries.is_empty() {
                "no transactions yet".to_string()
            } else {
                entries
                    .iter()
                    .map(|e| {
                        format!(
                            "{} {} {} [{}]",
                            e.transaction_id,
                            e.state,
                            e.intent,
                            e.files.join(", ")
                        )
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let list: Vec<Value> = entries
                .into_iter()
                .map(|e| {
                    json!({
                        "transactionId": e.transaction_id,
                        "intent": e.intent,
                        "state": e.state,
                        "createdAt": e.created_ms,
                        "files": e.files,
                    })
                })
                .collect();
            Ok((json!({ "transactions": list }), text))
        }
        Command::Undo => {
            let receipt = edits::undo(args.target.as_deref())?;
            let files: Vec<&str> = receipt.files.iter().map(|f| f.path.as_str()).collect();
            let text = format!(
                "undone as transaction {}: {}",
                receipt.transaction_id,
                files.join(", ")
            );
            Ok((
                json!({ "transactionId": receipt.transaction_id, "files": files }),
                text,
            ))
        }
        other => Err(ToolError::new(
            codes::UNSUPPORTED,
            format!("command {} is not available yet", command_name(other)),
        )
        .suggest("available now: status, history, undo")),
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
    }
}

const INPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "command": { "type": "string", "enum": ["status", "undo", "redo", "rebuild", "test", "history"] },
    "scope": { "type": "string", "enum": ["file", "transaction", "project"] },
    "target": { "type": "string", "description": "Transaction id for undo (default: the latest)." },
    "limit": { "type": "integer", "minimum": 1, "description": "Entries for history (default 20)." }
  },
  "required": ["command"]
}"#;

const OUTPUT_SCHEMA: &str = r#"{
  "type": "object",
  "required": ["success", "command", "result"],
  "properties": {
    "success": { "type": "boolean" },
    "command": { "type": "string" },
    "result": { "type": "object" }
  }
}"#;

export!(Manage);
