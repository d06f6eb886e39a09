//! Test fixture: a pillar whose call allocates until the memory cap stops it.

wit_bindgen::generate!({
    path: "../../../wit",
    world: "pillar",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use smart_context::plugin::types::Error;

struct Hog;

impl Guest for Hog {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "hog".into(),
            title: "hog".into(),
            description: "allocates without bound".into(),
            input_schema: r#"{"type":"object"}"#.into(),
            output_schema: None,
            read_only: true,
            destructive: false,
            idempotent: true,
        }
    }

    fn call(_args: String) -> Result<ToolOutput, Error> {
        let mut chunks: Vec<Vec<u8>> = Vec::new();
        loop {
            chunks.push(std::hint::black_box(vec![1u8; 8 * 1024 * 1024]));
        }
    }
}

export!(Hog);
