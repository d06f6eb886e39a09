//! Several workspace roots in one server (`--root A --root B`): each with its own index,
//! journal and status, a tool call acting in the root its `root` argument names, over MCP
//! through rmcp's client; and the roots that cannot be served together refused at start.

mod common;

use common::{Client, Fixture, call, structured};
use rmcp::ServiceExt;
use rmcp::transport::TokioChildProcess;
use serde_json::{Value, json};
use std::collections::HashMap;

/// The failure's structured content (panics on a success).
fn failure(result: &rmcp::model::CallToolResult) -> Value {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result.structured_content.clone().unwrap_or_default()
}

/// Polls `manage status` in `root` until its first pass is done.
async fn wait_indexed(client: &Client, root: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let status = structured(
            &call(
                client,
                "manage",
                json!({ "command": "status", "root": root }),
            )
            .await,
        );
        let index = &status["result"]["index"];
        if index["state"] == "fresh" && index["lastIndexedMs"].as_u64().unwrap_or(0) > 0 {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{root} never became fresh: {index}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn one_server_serves_two_roots_each_with_its_own_index_journal_and_status() {
    let api = Fixture::new();
    api.write("orders.py", "def place_order(cart):\n    return cart\n");
    let web = tempfile::Builder::new().prefix("web").tempdir().unwrap();
    std::fs::write(
        web.path().join("checkout.py"),
        "def render_checkout(page):\n    return page\n",
    )
    .unwrap();
    let mut command = api.command(&["--root"]);
    command.arg(web.path()).arg("serve");
    let transport = TokioChildProcess::new(tokio::process::Command::from(command)).unwrap();
    let client = ().serve(transport).await.expect("MCP handshake");

    // Every tool takes `root`.
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 5);
    for tool in &tools {
        assert_eq!(
            tool.input_schema["properties"]["root"]["type"], "string",
            "{}",
            tool.name
        );
    }

    // A call naming no root is refused with the roots to choose from, by name.
    let refused = failure(&call(&client, "understand", json!({ "goal": "orders" })).await);
    assert_eq!(refused["code"], "INVALID_ARGS", "{refused:#}");
    assert!(
        refused["suggestion"]
            .as_str()
            .unwrap()
            .starts_with("pass root: one of "),
        "{refused:#}"
    );
    let names: HashMap<String, String> = refused["details"]["roots"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let path = std::fs::canonicalize(r["path"].as_str().unwrap()).unwrap();
            let dir = if path == std::fs::canonicalize(web.path()).unwrap() {
                "web"
            } else {
                assert_eq!(path, std::fs::canonicalize(api.path()).unwrap());
                "api"
            };
            (dir.to_string(), r["name"].as_str().unwrap().to_string())
        })
        .collect();
    assert_eq!(names.len(), 2, "{refused:#}");
    let (api_name, web_name) = (&names["api"], &names["web"]);
    assert!(
        web_name.starts_with("web"),
        "named by its directory: {web_name}"
    );
    wait_indexed(&client, api_name).await;
    wait_indexed(&client, web_name).await;

    // Each root's index has its own files, and paths stay relative to their root.
    let found = structured(
        &call(
            &client,
            "explore",
            json!({ "query": "render_checkout", "root": web_name }),
        )
        .await,
    );
    assert_eq!(
        found["data"]["code"][0]["filePath"], "checkout.py",
        "{found:#}"
    );
    let found = structured(
        &call(
            &client,
            "explore",
            json!({ "query": "render_checkout place_order", "root": api_name }),
        )
        .await,
    );
    assert!(!found.to_string().contains("checkout.py"), "{found:#}");
    assert!(found.to_string().contains("orders.py"), "{found:#}");

    // An edit journals in its root only, and is undone there.
    let applied = structured(
        &call(
            &client,
            "change",
            json!({
                "root": web_name,
                "intent": "return the page twice",
                "edits": [{ "filePath": "checkout.py", "targetString": "return page", "replacementString": "return [page, page]" }],
                "options": { "dryRun": false },
            }),
        )
        .await,
    );
    assert_ne!(applied["success"], false, "{applied:#}");
    // The calls it suggests next act in the same root.
    let follow_ups = &applied["guidance"]["suggestedActions"];
    assert!(!follow_ups.as_array().unwrap().is_empty(), "{applied:#}");
    for call in follow_ups
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.get("toolCall"))
    {
        assert_eq!(call["args"]["root"], *web_name, "{call:#}");
    }
    let edited = std::fs::read_to_string(web.path().join("checkout.py")).unwrap();
    assert!(edited.contains("[page, page]"), "{edited}");
    for (root, count) in [(api_name, 0), (web_name, 1)] {
        let status = structured(
            &call(
                &client,
                "manage",
                json!({ "command": "status", "root": root }),
            )
            .await,
        );
        assert_eq!(
            status["result"]["store"]["transactions"], count,
            "{root}: {status:#}"
        );
    }
    let undone = structured(
        &call(
            &client,
            "manage",
            json!({ "command": "undo", "root": web_name }),
        )
        .await,
    );
    assert_ne!(undone["success"], false, "{undone:#}");
    let restored = std::fs::read_to_string(web.path().join("checkout.py")).unwrap();
    assert!(restored.contains("return page\n"), "{restored}");

    // A name the server does not serve is refused, never read as a path.
    let refused = failure(
        &call(
            &client,
            "explore",
            json!({ "query": "x", "root": web.path().display().to_string() }),
        )
        .await,
    );
    assert_eq!(refused["code"], "INVALID_ARGS", "{refused:#}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("no root named"),
        "{refused:#}"
    );
    client.cancel().await.unwrap();

    // The CLI indexes each root and reports each by name.
    let (ok, report) = common::json_report(
        api.command(&["--root"])
            .arg(web.path())
            .args(["index", "--json"]),
    );
    assert!(ok, "{report:#}");
    for name in [api_name, web_name] {
        assert!(
            report["roots"][name]["scanned"].as_u64().unwrap() >= 1,
            "{report:#}"
        );
    }
}

/// Roots that contain each other are refused at start, before anything is made in the
/// inner one, as is a root holding the audit log; a one-root server answers to its own
/// name and refuses another.
#[test]
fn overlapping_roots_are_refused_and_one_root_answers_to_its_name() {
    let fx = Fixture::new();
    let web = tempfile::Builder::new().prefix("web").tempdir().unwrap();
    fx.operator_config(&format!(
        "[audit]\npath = {:?}\n",
        web.path().join("audit.jsonl")
    ));
    let out = fx
        .command(&["--root"])
        .arg(web.path())
        .arg("index")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("audit log"), "{err}");
    fx.operator_config("");

    let out = fx
        .command(&["--root"])
        .arg(fx.path().join("src"))
        .arg("index")
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("overlap"), "{err}");
    assert!(!fx.path().join("src/.smart-context").exists());

    let name = fx
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let own = json!({ "command": "status", "root": name }).to_string();
    let out = fx.command(&["call", "manage", &own]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let other = json!({ "command": "status", "root": "elsewhere" }).to_string();
    let out = fx.command(&["call", "manage", &other]).output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("no root named"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}
