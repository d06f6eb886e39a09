//! The change pillar (ADR-001 Stage 3, ADR-033 Pillar 2), first cut: exact, unique, literal
//! replacements. A dry run (the default) returns the plan and a unified diff; applying sends
//! one transaction through the host's edits interface, so every file is changed or none is.

mod matching;

wit_bindgen::generate!({
    path: "../../wit",
    world: "editing-pillar",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use sdk::{ToolError, ToolResult, codes};
use serde::{Deserialize, Serialize};
use smart_context::plugin::edits::{self, FileChange, Transaction};
use smart_context::plugin::types::Error;
use smart_context::plugin::workspace::{self, ReadOptions};

sdk::impl_error_conversions!(Error);

/// Largest file the pillar edits.
const MAX_EDIT_BYTES: u64 = 16 * 1024 * 1024;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ChangeArgs {
    intent: String,
    #[serde(default)]
    target_files: Vec<String>,
    #[serde(default)]
    edits: Vec<Edit>,
    #[serde(default)]
    options: Options,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Edit {
    file_path: Option<String>,
    target_string: String,
    replacement_string: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Options {
    #[serde(default = "yes")]
    dry_run: bool,
    // Accepted for the ADR-033 contract; impact reports arrive with the index.
    #[allow(dead_code)]
    include_impact: Option<bool>,
    #[allow(dead_code)]
    auto_rollback: Option<bool>,
    #[allow(dead_code)]
    batch_mode: Option<bool>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            dry_run: true,
            include_impact: None,
            auto_rollback: None,
            batch_mode: None,
        }
    }
}

fn yes() -> bool {
    true
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Step {
    action: &'static str,
    file: String,
    description: String,
    diff: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct MatchInfo {
    file: String,
    line: u32,
    column: u32,
    match_type: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangeResponse {
    success: bool,
    dry_run: bool,
    plan: Plan,
    matches: Vec<MatchInfo>,
    #[serde(skip_serializing_if = "Option::is_none")]
    transaction_id: Option<String>,
    rollback_available: bool,
}

#[derive(Debug, Serialize)]
struct Plan {
    steps: Vec<Step>,
}

/// One file's edits, resolved against its current content.
struct FilePlan {
    path: String,
    hash: String,
    before: String,
    after: String,
    bom: bool,
}

struct Change;

impl Guest for Change {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "change".to_string(),
            title: "Change: safe edits".to_string(),
            description: "Replace text in files safely. Each edit's targetString must occur exactly \
                once in its file (NO_MATCH / MULTIPLE_MATCHES list the places otherwise); the \
                replacement is literal. options.dryRun defaults to true and returns a unified diff; \
                dryRun=false applies all edits as one atomic, undoable transaction."
                .to_string(),
            input_schema: INPUT_SCHEMA.to_string(),
            output_schema: Some(OUTPUT_SCHEMA.to_string()),
            read_only: false,
            destructive: true,
            idempotent: false,
        }
    }

    fn call(args_json: String) -> Result<ToolOutput, Error> {
        let args: ChangeArgs = sdk::parse_args(&args_json)?;
        let response = change(&args)?;
        let text = render(&response);
        Ok(ToolOutput {
            structured_json: sdk::to_json(&response)?,
            text,
        })
    }
}

fn change(args: &ChangeArgs) -> ToolResult<ChangeResponse> {
    if args.edits.is_empty() {
        return Err(ToolError::new(codes::INVALID_ARGS, "no edits given")
            .suggest("pass edits: [{filePath, targetString, replacementString}]"));
    }
    let mut files: Vec<FilePlan> = Vec::new();
    let mut matches = Vec::new();
    for edit in &args.edits {
        let path = edit_path(args, edit)?;
        let index = match files.iter().position(|f| f.path == path) {
            Some(i) => i,
            None => {
                files.push(load(&path)?);
                files.len() - 1
            }
        };
        let file = &mut files[index];
        let found = matching::find_unique(&file.after, &edit.target_string)
            .map_err(|err| err.details_with_file(&path))?;
        matches.push(MatchInfo {
            file: path.clone(),
            line: found.line,
            column: found.column,
            match_type: "exact",
        });
        file.after.replace_range(
            found.start..found.start + edit.target_string.len(),
            &edit.replacement_string,
        );
    }

    let steps: Vec<Step> = files
        .iter()
        .map(|f| Step {
            action: "modify",
            file: f.path.clone(),
            description: args.intent.clone(),
            diff: sdk::unified_diff(&f.path, &f.before, &f.after),
        })
        .collect();
    let mut response = ChangeResponse {
        success: true,
        dry_run: args.options.dry_run,
        plan: Plan { steps },
        matches,
        transaction_id: None,
        rollback_available: false,
    };
    if args.options.dry_run {
        return Ok(response);
    }
    let changes = files
        .into_iter()
        .map(|f| {
            let mut bytes = if f.bom {
                b"\xEF\xBB\xBF".to_vec()
            } else {
                Vec::new()
            };
            bytes.extend_from_slice(f.after.as_bytes());
            FileChange {
                path: f.path,
                content: Some(bytes),
                expected_hash: Some(f.hash),
                overwrite: false,
            }
        })
        .collect();
    let receipt = edits::apply(&Transaction {
        intent: args.intent.clone(),
        changes,
    })?;
    response.transaction_id = Some(receipt.transaction_id);
    response.rollback_available = true;
    Ok(response)
}

fn edit_path(args: &ChangeArgs, edit: &Edit) -> ToolResult<String> {
    if let Some(path) = &edit.file_path {
        return Ok(path.clone());
    }
    match args.target_files.as_slice() {
        [only] => Ok(only.clone()),
        _ => Err(
            ToolError::new(codes::INVALID_ARGS, "an edit has no filePath")
                .suggest("give each edit a filePath, or exactly one entry in targetFiles"),
        ),
    }
}

fn load(path: &str) -> ToolResult<FilePlan> {
    let options = ReadOptions {
        max_bytes: MAX_EDIT_BYTES,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: false,
    };
    let file = workspace::read(path, options)?;
    let (bom, body) = match file.bytes.strip_prefix(b"\xEF\xBB\xBF") {
        Some(rest) => (true, rest),
        None => (false, file.bytes.as_slice()),
    };
    let text = String::from_utf8(body.to_vec()).map_err(|_| {
        ToolError::new(codes::NOT_TEXT, format!("{path} is not valid UTF-8"))
            .suggest("edit text files only; this one would be corrupted by a text replacement")
    })?;
    Ok(FilePlan {
        path: path.to_string(),
        hash: file.hash,
        before: text.clone(),
        after: text,
        bom,
    })
}

fn render(r: &ChangeResponse) -> String {
    let mut out = match (&r.transaction_id, r.dry_run) {
        (Some(id), _) => format!("applied as transaction {id} (undo with manage command=undo)"),
        (None, _) => {
            "dry run: nothing written; call again with options.dryRun=false to apply".to_string()
        }
    };
    for step in &r.plan.steps {
        out.push('\n');
        out.push_str(&step.diff);
    }
    out
}

const INPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "intent": { "type": "string", "description": "What the change is for, in words; recorded in history." },
    "targetFiles": { "type": "array", "items": { "type": "string" }, "description": "The file edits apply to when they name none." },
    "edits": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "filePath": { "type": "string" },
          "targetString": { "type": "string", "description": "Exact text to replace; must occur once." },
          "replacementString": { "type": "string", "description": "Literal replacement text." }
        },
        "required": ["targetString", "replacementString"]
      }
    },
    "options": {
      "type": "object",
      "properties": {
        "dryRun": { "type": "boolean", "default": true },
        "includeImpact": { "type": "boolean", "default": true },
        "autoRollback": { "type": "boolean", "default": true },
        "batchMode": { "type": "boolean", "default": false }
      }
    }
  },
  "required": ["intent"]
}"#;

const OUTPUT_SCHEMA: &str = r#"{
  "type": "object",
  "required": ["success", "dryRun", "plan", "rollbackAvailable"],
  "properties": {
    "success": { "type": "boolean" },
    "dryRun": { "type": "boolean" },
    "plan": {
      "type": "object",
      "properties": {
        "steps": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "action": { "type": "string", "enum": ["create", "modify", "delete"] },
              "file": { "type": "string" },
              "description": { "type": "string" },
              "diff": { "type": "string" }
            }
          }
        }
      }
    },
    "matches": { "type": "array" },
    "transactionId": { "type": "string" },
    "rollbackAvailable": { "type": "boolean" }
  }
}"#;

export!(Change);
