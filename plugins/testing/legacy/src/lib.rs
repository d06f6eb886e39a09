//! Test fixture: a pillar built against the contract as 0.2.0 first published it (a frozen
//! copy in `wit/`), before the additions of 0.2.1. A host of a later 0.2 loads it and answers
//! its calls: the compatibility rule of docs/plugins.md, tested.

wit_bindgen::generate!({
    path: "wit",
    world: "pillar",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use smart_context::plugin::index::{self, SearchOptions};
use smart_context::plugin::types::Error;
use smart_context::plugin::workspace::{self, ReadOptions};

struct Legacy;

impl Guest for Legacy {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "legacy".into(),
            title: "legacy".into(),
            description:
                "reads src/lib.rs and searches the index for `answer`, through the 0.2.0 contract"
                    .into(),
            input_schema: r#"{"type":"object"}"#.into(),
            output_schema: None,
            read_only: true,
            destructive: false,
            idempotent: true,
        }
    }

    fn call(_args: String) -> Result<ToolOutput, Error> {
        let file = workspace::read(
            "src/lib.rs",
            ReadOptions {
                max_bytes: 1 << 20,
                allow_sensitive: false,
                allow_binary: false,
                allow_truncate: false,
            },
        )?;
        let found = index::search(
            "answer",
            &SearchOptions {
                kinds: Vec::new(),
                exclude_kinds: Vec::new(),
                languages: Vec::new(),
                path_prefix: None,
                max_results: 5,
                preview_chars: 0,
            },
        )?;
        let json = format!(
            "{{\"bytes\":{},\"hits\":{}}}",
            file.bytes.len(),
            found.hits.len()
        );
        Ok(ToolOutput {
            structured_json: json.clone(),
            text: json,
        })
    }
}

export!(Legacy);
