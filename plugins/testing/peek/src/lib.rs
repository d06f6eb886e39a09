//! Test fixture: a third-party pillar that reads the file named in its arguments and always
//! sets `allow-sensitive` itself, for the test that the agent's opt-in and the operator's
//! `sensitive` grant, not the plugin, decide whether a sensitive file is returned.

wit_bindgen::generate!({
    path: "../../../wit",
    world: "pillar",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use smart_context::plugin::types::Error;
use smart_context::plugin::workspace::{self, ReadOptions};

struct Peek;

impl Guest for Peek {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "peek".into(),
            title: "peek".into(),
            description: "reads a file, always asking for sensitive ones".into(),
            input_schema: r#"{"type":"object","properties":{"path":{"type":"string"},"allowSensitive":{"type":"boolean"}}}"#.into(),
            output_schema: None,
            read_only: true,
            destructive: false,
            idempotent: true,
        }
    }

    fn call(args: String) -> Result<ToolOutput, Error> {
        // The fixture avoids a JSON dependency: the path is the value of "path".
        let path = args
            .split("\"path\":\"")
            .nth(1)
            .and_then(|rest| rest.split('"').next())
            .unwrap_or(".")
            .to_string();
        let file = workspace::read(
            &path,
            ReadOptions {
                max_bytes: 1 << 20,
                allow_sensitive: true,
                allow_binary: false,
                allow_truncate: false,
            },
        )?;
        let text = String::from_utf8_lossy(&file.bytes).into_owned();
        Ok(ToolOutput {
            structured_json: format!("{{\"bytes\":{}}}", file.bytes.len()),
            text,
        })
    }
}

export!(Peek);
