//! Test fixture: a pillar whose call never returns, for the epoch deadline test. It touches the
//! workspace first so that it imports it (the grant tests rely on that).

wit_bindgen::generate!({
    path: "../../../wit",
    world: "pillar",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use smart_context::plugin::types::Error;

struct Spin;

impl Guest for Spin {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "spin".into(),
            title: "spin".into(),
            description: "loops forever".into(),
            input_schema: r#"{"type":"object"}"#.into(),
            output_schema: None,
            read_only: true,
            destructive: false,
            idempotent: true,
        }
    }

    fn call(_args: String) -> Result<ToolOutput, Error> {
        let _ = smart_context::plugin::workspace::stat(".");
        let mut n: u64 = 0;
        loop {
            n = std::hint::black_box(n.wrapping_add(1));
        }
    }
}

export!(Spin);
