//! The write pillar (ADR-033 Pillar 5), first cut: create a file with given content, parents
//! included, as a journaled transaction that manage can undo. An existing file is refused
//! unless `overwrite` is asked for.

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

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct WriteArgs {
    intent: String,
    target_path: Option<String>,
    template: Option<String>,
    content: Option<String>,
    #[serde(default)]
    overwrite: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CreatedFile {
    path: String,
    description: String,
    bytes: usize,
    replaced: bool,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct WriteResponse {
    success: bool,
    created_files: Vec<CreatedFile>,
    transaction_id: String,
}

struct Write;

impl Guest for Write {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "write".to_string(),
            title: "Write: create files".to_string(),
            description: "Create a file at targetPath with the given content (parent directories \
                are created). An existing file is refused unless overwrite=true. Every write is a \
                transaction: manage command=undo restores the previous state."
                .to_string(),
            input_schema: INPUT_SCHEMA.to_string(),
            output_schema: Some(OUTPUT_SCHEMA.to_string()),
            read_only: false,
            destructive: true,
            idempotent: false,
        }
    }

    fn call(args_json: String) -> Result<ToolOutput, Error> {
        let args: WriteArgs = sdk::parse_args(&args_json)?;
        let response = write(&args)?;
        let text = response
            .created_files
            .iter()
            .map(|f| {
                let verb = if f.replaced { "replaced" } else { "created" };
                format!("{verb} {} ({} bytes)", f.path, f.bytes)
            })
            .chain([format!(
                "transaction {} (undo with manage command=undo)",
                response.transaction_id
            )])
            .collect::<Vec<_>>()
            .join("\n");
        Ok(ToolOutput {
            structured_json: sdk::to_json(&response)?,
            text,
        })
    }
}

fn write(args: &WriteArgs) -> ToolResult<WriteResponse> {
    if let Some(template) = &args.template {
        return Err(ToolError::new(
            codes::UNSUPPORTED,
            format!("templates are not available yet ({template})"),
        )
        .suggest("pass the file's text in `content`"));
    }
    let path = args.target_path.clone().ok_or_else(|| {
        ToolError::new(codes::INVALID_ARGS, "targetPath is required")
            .suggest("name the file to create")
    })?;
    let content = args.content.clone().ok_or_else(|| {
        ToolError::new(codes::INVALID_ARGS, "content is required")
            .suggest("pass the file's text in `content`")
    })?;
    let existing = match workspace::stat(&path) {
        Ok(_) => Some(current_hash(&path)?),
        Err(err) if err.code == codes::FILE_NOT_FOUND => None,
        Err(err) => return Err(err.into()),
    };
    if existing.is_some() && !args.overwrite {
        return Err(
            ToolError::new(codes::ALREADY_EXISTS, format!("{path} already exists"))
                .suggest("pass overwrite=true to replace it, or use change to edit it"),
        );
    }
    let bytes = content.len();
    let receipt = edits::apply(&Transaction {
        intent: args.intent.clone(),
        changes: vec![FileChange {
            path: path.clone(),
            content: Some(content.into_bytes()),
            expected_hash: existing.clone(),
            overwrite: args.overwrite,
        }],
    })?;
    Ok(WriteResponse {
        success: true,
        created_files: vec![CreatedFile {
            path,
            description: args.intent.clone(),
            bytes,
            replaced: existing.is_some(),
        }],
        transaction_id: receipt.transaction_id,
    })
}

/// The hash the host journals for an existing file, so an overwrite fails if it changes meanwhile.
fn current_hash(path: &str) -> ToolResult<String> {
    let options = ReadOptions {
        max_bytes: 0,
        allow_sensitive: false,
        allow_binary: true,
        allow_truncate: true,
    };
    Ok(workspace::read(path, options)?.hash)
}

const INPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "intent": { "type": "string", "description": "What the file is for, in words; recorded in history." },
    "targetPath": { "type": "string", "description": "The file to create, relative to the workspace root." },
    "template": { "type": "string", "description": "A template name (not available yet)." },
    "content": { "type": "string", "description": "The file's text." },
    "overwrite": { "type": "boolean", "default": false, "description": "Replace an existing file." }
  },
  "required": ["intent"]
}"#;

const OUTPUT_SCHEMA: &str = r#"{
  "type": "object",
  "required": ["success", "createdFiles", "transactionId"],
  "properties": {
    "success": { "type": "boolean" },
    "createdFiles": {
      "type": "array",
      "items": {
        "type": "object",
        "required": ["path", "description"],
        "properties": {
          "path": { "type": "string" },
          "description": { "type": "string" },
          "bytes": { "type": "integer" },
          "replaced": { "type": "boolean" }
        }
      }
    },
    "transactionId": { "type": "string" }
  }
}"#;

export!(Write);
