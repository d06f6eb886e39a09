//! The built binary driven by the official MCP Python SDK (pip package `mcp`, pinned in
//! tests/python/requirements.txt and installed into a venv under target/ on first run), over
//! stdio and over `serve --http`.

mod common;

use common::{BIN, Fixture, cache_home};
use std::path::Path;
use std::process::Command;

#[test]
fn python_sdk_lists_tools_and_calls_every_pillar() {
    let fx = Fixture::new();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/python/client.py");
    let output = Command::new(common::python_with_requirements())
        .arg(script)
        .arg(BIN)
        .arg(fx.path())
        .arg(cache_home())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "python client failed:\n{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "report is not JSON ({e}): {}\n{stderr}",
            String::from_utf8_lossy(&output.stdout)
        )
    });

    assert_eq!(report["server"], "smart-context");
    assert_eq!(
        report["tools"],
        serde_json::json!(["explore", "understand", "change", "write", "manage"])
    );
    assert_eq!(report["readOnly"]["explore"], true);
    assert_eq!(report["readOnly"]["change"], false);
    assert!(
        report["hasOutputSchema"]
            .as_object()
            .unwrap()
            .values()
            .all(|v| v == true)
    );
    let calls = &report["calls"];
    for pillar in ["explore", "understand", "change", "write", "manage"] {
        assert_eq!(
            calls[pillar]["isError"], false,
            "{pillar}: {}",
            calls[pillar]
        );
        assert!(
            !calls[pillar]["text"].as_str().unwrap().is_empty(),
            "{pillar} has a text rendering"
        );
    }
    assert_eq!(
        calls["explore"]["structured"]["data"]["code"][0]["filePath"],
        "src/lib.rs"
    );
    assert_eq!(
        calls["understand"]["structured"]["facts"]["language"],
        "rust"
    );
    assert!(fx.read("src/lib.rs").unwrap().contains("    7"));
    assert_eq!(
        fx.read("py/new.txt").as_deref(),
        Some("written by python\n")
    );
    assert_eq!(
        calls["manage"]["structured"]["result"]["transactions"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(report["afterUndo"]["isError"], false);
    assert_eq!(
        report["afterUndo"]["exists"], false,
        "undo removed the written file"
    );
    assert_eq!(report["afterRedo"]["isError"], false);
    assert_eq!(report["afterRedo"]["content"], "written by python\n");
    assert_eq!(report["error"]["isError"], true);
    assert_eq!(report["error"]["structured"]["code"], "NO_MATCH");
    // Over `serve --http`, the SDK's session end (a DELETE) is answered as it expects: it logs
    // nothing (it warned "Session termination failed: 202" on every session end before).
    assert_eq!(report["http"]["tools"].as_array().map(Vec::len), Some(5));
    assert_eq!(
        report["http"]["warnings"],
        serde_json::json!([]),
        "{}",
        report["http"]
    );
}
