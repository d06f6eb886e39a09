//! {{name}}: a smart-context tool ({{world}} world). It lists the lines of the workspace's
//! files that hold a word, through the host's `workspace` interface (the only way a plugin
//! reaches files). Replace `call` with your tool; grant only the interfaces it uses.

wit_bindgen::generate!({
    path: "wit",
    world: "{{world}}",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use smart_context::plugin::types::Error;
use smart_context::plugin::workspace::{self, ReadOptions, WalkOptions};

struct Tool;

fn invalid(message: &str) -> Error {
    Error {
        code: "INVALID_ARGS".to_string(),
        message: message.to_string(),
        suggestion: Some("pass {\"word\": \"TODO\"}".to_string()),
        details_json: None,
    }
}

/// The string value of `key` in a flat JSON object (a real plugin would use serde_json).
fn string_arg(args: &str, key: &str) -> Option<String> {
    let rest = args.split(&format!("\"{key}\"")).nth(1)?;
    let rest = rest.trim_start().strip_prefix(':')?.trim_start().strip_prefix('"')?;
    Some(rest.split('"').next()?.to_string())
}

impl Guest for Tool {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "{{tool}}".to_string(),
            title: "{{name}}".to_string(),
            description: "Lines of the workspace's files that hold a word".to_string(),
            input_schema: r#"{"type":"object","properties":{"word":{"type":"string"},"glob":{"type":"string"}},"required":["word"]}"#.to_string(),
            output_schema: None,
            read_only: true,
            destructive: false,
            idempotent: true,
        }
    }

    fn call(args: String) -> Result<ToolOutput, Error> {
        let word = string_arg(&args, "word").ok_or_else(|| invalid("word is required"))?;
        let glob = string_arg(&args, "glob");
        let walked = workspace::walk(".", &WalkOptions { max_depth: 16, max_files: 2000, glob })?;
        let mut found = Vec::new();
        for entry in walked.files.iter().filter(|e| !e.sensitive) {
            let options = ReadOptions {
                max_bytes: 1 << 20,
                allow_sensitive: false,
                allow_binary: false,
                allow_truncate: true,
            };
            let Ok(file) = workspace::read(&entry.path, options) else {
                continue;
            };
            let text = String::from_utf8_lossy(&file.bytes);
            for (index, line) in text.lines().enumerate() {
                if line.contains(&word) && found.len() < 100 {
                    found.push(format!("{}:{}: {}", entry.path, index + 1, line.trim()));
                }
            }
        }
        let lines: Vec<String> = found.iter().map(|l| format!("{l:?}")).collect();
        Ok(ToolOutput {
            structured_json: format!("{{\"matches\":[{}]}}", lines.join(",")),
            text: found.join("\n"),
        })
    }
}

export!(Tool);
