//! The built binary driven over stdio by rmcp's client: the tool list, and a real call to
//! every pillar, including the edit -> history -> undo round trip.

mod common;

use common::{BUILTIN_PLUGINS, Fixture, call, connect, structured, text};
use rmcp::model::CallToolRequestParams;
use serde_json::json;
use std::io::{BufRead, BufReader, Write};

#[tokio::test]
async fn lists_exactly_the_five_pillars_with_schemas_and_annotations() {
    let fx = Fixture::new();
    let client = connect(&fx).await;
    let tools = client.list_all_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        ["explore", "understand", "change", "write", "manage"]
    );
    for tool in &tools {
        assert_eq!(
            tool.input_schema.get("type"),
            Some(&json!("object")),
            "{}",
            tool.name
        );
        assert!(
            tool.output_schema.is_some(),
            "{} has an output schema",
            tool.name
        );
        assert!(
            tool.description.as_deref().is_some_and(|d| d.len() > 40),
            "{}",
            tool.name
        );
        let a = tool.annotations.as_ref().expect("annotations");
        let read_only = matches!(tool.name.as_ref(), "explore" | "understand");
        assert_eq!(a.read_only_hint, Some(read_only), "{}", tool.name);
        assert_eq!(a.destructive_hint, Some(!read_only), "{}", tool.name);
        assert!(a.idempotent_hint.is_some());
    }
    let explore = &tools[0];
    let props = explore.input_schema["properties"].as_object().unwrap();
    for field in [
        "query",
        "paths",
        "intent",
        "view",
        "section",
        "packId",
        "cursor",
        "include",
        "fullPaths",
        "allowSensitive",
        "allowBinary",
        "allowGlobs",
        "limits",
    ] {
        assert!(props.contains_key(field), "explore schema lacks {field}");
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn every_pillar_answers_a_real_call() {
    let fx = Fixture::new();
    let client = connect(&fx).await;

    // explore: a skeleton with line numbers, a query split into docs and code, a markdown section.
    let preview = call(&client, "explore", json!({ "paths": ["src/lib.rs"] })).await;
    let s = structured(&preview);
    assert_eq!(s["status"], "ok");
    assert_eq!(s["data"]["code"][0]["kind"], "file_preview");
    assert!(
        text(&preview).contains("1-3| pub fn answer() -> u32"),
        "{}",
        text(&preview)
    );
    let found = structured(&call(&client, "explore", json!({ "query": "answer" })).await);
    assert_eq!(found["data"]["code"][0]["filePath"], "src/lib.rs");
    assert_eq!(found["data"]["docs"][0]["filePath"], "docs/guide.md");
    let section = structured(&call(&client, "explore", json!({ "paths": ["docs/guide.md"], "section": { "headingPath": ["Guide", "Install"] } })).await);
    assert_eq!(
        section["data"]["docs"][0]["content"],
        "## Install\n\nRun the installer.\n"
    );

    // understand: the outline of the code file.
    let outline = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "structure of src/lib.rs" }),
        )
        .await,
    );
    let names: Vec<&str> = outline["outline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["answer", "Config"]);

    // change: dry run by default (nothing written), then applied.
    let edit = json!({ "intent": "answer 43", "edits": [{ "filePath": "src/lib.rs", "targetString": "    42", "replacementString": "    43" }] });
    let dry = structured(&call(&client, "change", edit.clone()).await);
    assert_eq!(dry["dryRun"], true);
    assert!(
        dry["plan"]["steps"][0]["diff"]
            .as_str()
            .unwrap()
            .contains("-    42\n+    43")
    );
    assert_eq!(fx.read("src/lib.rs").as_deref(), Some(common::LIB_RS));
    let mut apply = edit;
    apply["options"] = json!({ "dryRun": false });
    let applied = structured(&call(&client, "change", apply).await);
    let tx = applied["transactionId"].as_str().unwrap().to_string();
    assert!(fx.read("src/lib.rs").unwrap().contains("    43"));

    // write: a new file in a new directory.
    let wrote = structured(
        &call(
            &client,
            "write",
            json!({ "intent": "notes", "targetPath": "notes/todo.md", "content": "# TODO\n" }),
        )
        .await,
    );
    assert_eq!(wrote["createdFiles"][0]["path"], "notes/todo.md");
    assert_eq!(fx.read("notes/todo.md").as_deref(), Some("# TODO\n"));

    // manage: status, history newest first, undo in reverse order, byte-exact.
    let status = structured(&call(&client, "manage", json!({ "command": "status" })).await);
    let mut names: Vec<&str> = status["result"]["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, BUILTIN_PLUGINS);
    let history = structured(&call(&client, "manage", json!({ "command": "history" })).await);
    let txs = history["result"]["transactions"].as_array().unwrap();
    assert_eq!(txs.len(), 2);
    assert_eq!(txs[1]["transactionId"], tx.as_str());
    call(&client, "manage", json!({ "command": "undo" })).await;
    assert_eq!(fx.read("notes/todo.md"), None);
    let undone = structured(
        &call(
            &client,
            "manage",
            json!({ "command": "undo", "target": tx }),
        )
        .await,
    );
    assert_eq!(undone["result"]["files"][0]["path"], "src/lib.rs");
    assert_eq!(fx.read("src/lib.rs").as_deref(), Some(common::LIB_RS));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn failures_are_is_error_results_with_code_and_suggestion() {
    let fx = Fixture::new();
    let client = connect(&fx).await;
    let no_match = call(&client, "change", json!({ "intent": "x", "edits": [{ "filePath": "src/lib.rs", "targetString": "nope", "replacementString": "y" }] })).await;
    assert_eq!(no_match.is_error, Some(true));
    let s = no_match.structured_content.unwrap();
    assert_eq!(s["code"], "NO_MATCH");
    assert!(s["suggestion"].as_str().is_some_and(|t| !t.is_empty()));
    let multiple = call(&client, "change", json!({ "intent": "x", "edits": [{ "filePath": "src/lib.rs", "targetString": "pub ", "replacementString": "pub(crate) " }] })).await;
    let s = multiple.structured_content.unwrap();
    assert_eq!(s["code"], "MULTIPLE_MATCHES");
    let lines: Vec<u64> = s["details"]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["line"].as_u64().unwrap())
        .collect();
    assert_eq!(lines, [1, 5, 6]);
    let exists = call(
        &client,
        "write",
        json!({ "intent": "x", "targetPath": "src/lib.rs", "content": "" }),
    )
    .await;
    assert_eq!(exists.structured_content.unwrap()["code"], "ALREADY_EXISTS");
    let bad_args = call(
        &client,
        "explore",
        json!({ "paths": ["src/lib.rs"], "bogus": 1 }),
    )
    .await
    .structured_content
    .unwrap();
    assert_eq!(bad_args["status"], "invalid_args");
    assert!(bad_args["message"].as_str().unwrap().contains("bogus"));
    // One rule for every tool: explore's own failures are isError results too, and every
    // failure's text leads with its code and suggestion.
    let failed = call(
        &client,
        "explore",
        json!({ "paths": ["src/lib.rs"], "bogus": 1 }),
    )
    .await;
    assert_eq!(failed.is_error, Some(true));
    assert!(
        text(&failed).starts_with("INVALID_ARGS: "),
        "{}",
        text(&failed)
    );
    assert!(
        text(&failed).contains("\nsuggestion: "),
        "{}",
        text(&failed)
    );
    let missing = call(&client, "explore", json!({ "paths": ["nope.rs"] })).await;
    assert_eq!(missing.is_error, Some(true), "{}", text(&missing));
    let no_match_text = text(&call(&client, "change", json!({ "intent": "x", "edits": [{ "filePath": "src/lib.rs", "targetString": "nope", "replacementString": "y" }] })).await);
    assert!(no_match_text.starts_with("NO_MATCH: "), "{no_match_text}");
    // Every tool's outputSchema describes failures: a branch requiring code and message.
    for tool in client.list_all_tools().await.unwrap() {
        let schema = tool.output_schema.expect("output schema");
        let branches = schema["anyOf"].as_array().expect("success or failure");
        assert!(
            branches
                .iter()
                .any(|b| b["required"] == json!(["success", "code", "message"])),
            "{}",
            tool.name
        );
    }
    let unknown = client
        .call_tool(CallToolRequestParams::new("navigate"))
        .await;
    assert!(unknown.is_err(), "unknown tools are protocol errors");
    // The server is still there after all of that.
    assert_eq!(
        structured(&call(&client, "explore", json!({ "paths": ["src/lib.rs"] })).await)["success"],
        true
    );
    client.cancel().await.unwrap();
}

/// A raw JSON-RPC session over the server's stdio, to check the wire itself.
struct Raw {
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Raw {
    fn start(fx: &Fixture) -> Self {
        let mut child = fx
            .command(&["serve"])
            .env("SMART_CONTEXT_LOG", "debug")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Self {
            child,
            stdin,
            stdout,
        }
    }

    fn notify(&mut self, message: serde_json::Value) {
        writeln!(self.stdin, "{message}").unwrap();
    }

    /// Sends a request and returns the response with its id; every stdout line must be JSON.
    fn request(&mut self, id: u64, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.notify(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "server closed stdout"
            );
            let value: serde_json::Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout line is not JSON-RPC ({e}): {line:?}"));
            if value["id"] == id {
                return value;
            }
        }
    }
}

impl Drop for Raw {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn unknown_methods_answer_method_not_found_and_stdout_carries_only_json_rpc() {
    let fx = Fixture::new();
    // A stateless (2026-07-28) client probes with _meta on every request; the Python SDK 2.x
    // starts with server/discover. An unknown method answers -32601.
    let mut stateless = Raw::start(&fx);
    let meta = json!({ "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {} } });
    let discover = stateless.request(1, "server/discover", meta.clone());
    assert!(
        discover["result"]["supportedVersions"]
            .as_array()
            .is_some_and(|v| !v.is_empty()),
        "{discover}"
    );
    assert_eq!(
        stateless.request(2, "smart-context/not-a-method", meta)["error"]["code"],
        -32601
    );

    // A session-style client: initialize, then an unknown method, then real work.
    let mut legacy = Raw::start(&fx);
    let init = legacy.request(1, "initialize", json!({
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } }));
    assert_eq!(init["result"]["serverInfo"]["name"], "smart-context");
    legacy.notify(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    assert_eq!(
        legacy.request(2, "tools/frobnicate", json!({}))["error"]["code"],
        -32601
    );
    assert_eq!(
        legacy.request(3, "tools/list", json!({}))["result"]["tools"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
}

/// Reads messages until the response to `id`, handing every notification to `seen`.
fn until_response(
    raw: &mut Raw,
    id: u64,
    mut seen: impl FnMut(&serde_json::Value) -> bool,
) -> Option<serde_json::Value> {
    loop {
        let mut line = String::new();
        if raw.stdout.read_line(&mut line).unwrap() == 0 {
            return None;
        }
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        if value["id"] == id {
            return Some(value);
        }
        if !seen(&value) {
            return None;
        }
    }
}

#[test]
fn a_rebuild_reports_progress_and_stops_when_cancelled() {
    let fx = Fixture::new();
    // Enough files that a full rebuild outlasts a few progress intervals.
    for i in 0..1500 {
        let body: String = (0..30)
            .map(|l| format!("pub fn f{i}_{l}(x: u32) -> u32 {{ x + {l} }}\n"))
            .collect();
        fx.write(&format!("src/gen/m{i}.rs"), &body);
    }
    let mut raw = Raw::start(&fx);
    raw.request(1, "initialize", json!({
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } }));
    raw.notify(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    // Let the start-up pass finish first.
    let status = |raw: &mut Raw, id: u64| {
        raw.request(
            id,
            "tools/call",
            json!({ "name": "manage", "arguments": { "command": "status" } }),
        )["result"]["structuredContent"]["projectState"]["indexStatus"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let mut id = 10;
    while status(&mut raw, id) != "fresh" {
        id += 1;
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    raw.notify(
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "manage", "arguments": { "command": "rebuild", "scope": "full" },
        "_meta": { "progressToken": "rebuild-1" } } }),
    );
    let mut progress = Vec::new();
    let answered = until_response(&mut raw, 2, |message| {
        if message["method"] == "notifications/progress" {
            assert_eq!(message["params"]["progressToken"], "rebuild-1");
            progress.push(message["params"]["progress"].as_f64().unwrap());
            // Two reports are enough: cancel, and stop reading.
            return progress.len() < 2;
        }
        true
    });
    assert!(
        answered.is_none(),
        "the rebuild ended before it could be cancelled"
    );
    assert!(progress.windows(2).all(|w| w[1] > w[0]), "{progress:?}");
    let cancelled_at = std::time::Instant::now();
    raw.notify(
        json!({ "jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": { "requestId": 2, "reason": "test" } }),
    );
    // Stopped: the index is no longer rebuilding, long before a full pass could end.
    loop {
        id += 1;
        if status(&mut raw, id) != "rebuilding" {
            break;
        }
        assert!(
            cancelled_at.elapsed() < std::time::Duration::from_secs(10),
            "the rebuild ran on after its cancel"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    eprintln!(
        "a cancelled rebuild stopped within {:?}",
        cancelled_at.elapsed()
    );
}

#[test]
fn closing_stdin_mid_rebuild_ends_the_process() {
    let fx = Fixture::new();
    for i in 0..800 {
        fx.write(&format!("src/gen/m{i}.rs"), &"pub fn f() {}\n".repeat(40));
    }
    let mut child = fx
        .command(&["serve"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for message in [
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } } }),
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "manage", "arguments": { "command": "rebuild", "scope": "full" } } }),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    let closed_at = std::time::Instant::now();
    drop(stdin);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        assert!(
            closed_at.elapsed() < std::time::Duration::from_secs(15),
            "the server outlived its client"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A client that goes away mid-call (both pipes closed, the call's answer with nowhere to go)
/// is a normal end: nothing is logged at ERROR.
#[test]
fn a_client_leaving_mid_call_leaves_no_error_in_the_log() {
    let fx = Fixture::new();
    for i in 0..400 {
        fx.write(&format!("src/gen/m{i}.rs"), &"pub fn f() {}\n".repeat(40));
    }
    let mut child = fx
        .command(&["serve"])
        .env("SMART_CONTEXT_LOG", "info")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    writeln!(stdin, "{}", json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } } })).unwrap();
    let mut line = String::new();
    stdout.read_line(&mut line).unwrap();
    for message in [
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }),
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
            "name": "manage", "arguments": { "command": "rebuild", "scope": "full" } } }),
    ] {
        writeln!(stdin, "{message}").unwrap();
    }
    std::thread::sleep(std::time::Duration::from_millis(300));
    drop(stdout);
    drop(stdin);
    let output = child.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&output.stderr);
    assert!(!log.contains("ERROR"), "{log}");
}

#[test]
fn the_playbook_prompt_and_log_messages_reach_clients_that_ask() {
    let fx = Fixture::new();
    let mut raw = Raw::start(&fx);
    let init = raw.request(1, "initialize", json!({
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } }));
    let caps = &init["result"]["capabilities"];
    assert!(
        caps["prompts"].is_object() && caps["logging"].is_object(),
        "{caps}"
    );
    assert!(
        init["result"]["instructions"]
            .as_str()
            .is_some_and(|i| i.contains("playbook")),
        "{init}"
    );
    raw.notify(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    let prompts = raw.request(2, "prompts/list", json!({}));
    assert_eq!(prompts["result"]["prompts"][0]["name"], "playbook");
    let playbook = raw.request(3, "prompts/get", json!({ "name": "playbook" }));
    let text = playbook["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap();
    for tool in ["explore", "understand", "change", "write", "manage"] {
        assert!(text.contains(&format!("`{tool}`")), "{tool}");
    }
    assert_eq!(
        raw.request(4, "prompts/get", json!({ "name": "nope" }))["error"]["code"],
        -32602
    );
    assert!(raw.request(5, "logging/setLevel", json!({ "level": "info" }))["result"].is_object());
    // A rebuild logs at info: the client hears it as notifications/message.
    raw.notify(
        json!({ "jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {
        "name": "manage", "arguments": { "command": "rebuild" } } }),
    );
    let mut logged = Vec::new();
    until_response(&mut raw, 6, |m| {
        if m["method"] == "notifications/message" {
            logged.push(m["params"].clone());
        }
        true
    })
    .expect("the rebuild answers");
    assert!(
        logged.iter().all(|p| p["level"] != "debug"),
        "debug messages under an info level: {logged:?}"
    );
    assert!(!logged.is_empty(), "no log message reached the client");
}

/// A line whose answer id the client waits on always gets an answer: JSON nested past any
/// parser's limit, a line that is not JSON, JSON that is no JSON-RPC message. The server
/// carries on.
#[test]
fn messages_that_do_not_parse_get_json_rpc_errors_with_their_ids() {
    let fx = Fixture::new();
    let mut raw = Raw::start(&fx);
    raw.request(1, "initialize", json!({
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } }));
    raw.notify(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    let deep = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"tools/list\",\"params\":{{\"x\":{}{}}},\"id\":2}}",
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    writeln!(raw.stdin, "{deep}").unwrap();
    let answer = read_until_id(&mut raw, &json!(2));
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    writeln!(
        raw.stdin,
        "{{\"jsonrpc\": \"2.0\", \"id\": \"three\", \"method\": "
    )
    .unwrap();
    let answer = read_until_id(&mut raw, &json!("three"));
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    writeln!(
        raw.stdin,
        "{{\"jsonrpc\": \"2.0\", \"id\": 4, \"result\": 1, \"method\": 5}}"
    )
    .unwrap();
    let answer = read_until_id(&mut raw, &json!(4));
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    // A line with no id at all is answered without one.
    writeln!(raw.stdin, "this is not json").unwrap();
    let answer = read_until_id(&mut raw, &serde_json::Value::Null);
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    assert_eq!(
        raw.request(5, "tools/list", json!({}))["result"]["tools"]
            .as_array()
            .unwrap()
            .len(),
        5
    );
}

/// The next stdout message whose id is `id` (a missing id reads as null).
fn read_until_id(raw: &mut Raw, id: &serde_json::Value) -> serde_json::Value {
    loop {
        let mut line = String::new();
        assert!(
            raw.stdout.read_line(&mut line).unwrap() > 0,
            "server closed stdout"
        );
        let value: serde_json::Value = serde_json::from_str(&line).unwrap();
        let got = value.get("id").cloned().unwrap_or(serde_json::Value::Null);
        if &got == id && value.get("method").is_none() {
            return value;
        }
    }
}

/// A client that sends and never reads cannot make the server buffer without bound: once a
/// few dozen answers wait unread, the server stops reading, and the client's writes block.
/// When it reads again, every request is answered once.
#[test]
fn a_client_that_does_not_read_its_answers_is_held_back() {
    let fx = Fixture::new();
    let mut child = fx
        .command(&["serve"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut next = || {
        let mut line = String::new();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "server closed stdout"
        );
        serde_json::from_str::<serde_json::Value>(&line).unwrap()
    };
    writeln!(stdin, "{}", json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } } })).unwrap();
    while next()["id"] != 1 {}
    writeln!(
        stdin,
        "{}",
        json!({ "jsonrpc": "2.0", "method": "notifications/initialized" })
    )
    .unwrap();
    const FLOOD: u64 = 10_000;
    let sent = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let writer = {
        let sent = sent.clone();
        std::thread::spawn(move || {
            for id in 0..FLOOD {
                let line = format!(
                    "{{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"tools/list\"}}\n",
                    id + 100
                );
                if stdin.write_all(line.as_bytes()).is_err() {
                    return;
                }
                sent.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        })
    };
    // The writer stalls well short of the flood: what the pipes hold and a few dozen
    // requests in flight, not fifty thousand.
    let mut last = u64::MAX;
    loop {
        std::thread::sleep(std::time::Duration::from_millis(1_000));
        let now = sent.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            now < FLOOD,
            "every request was taken while no answer was read"
        );
        if now == last {
            break;
        }
        last = now;
    }
    // (About 2,600 here: a 64 KiB pipe and a 64 KiB read buffer of 55-byte requests.)
    assert!(
        last < FLOOD / 2,
        "{last} requests taken with no answer read"
    );
    // Reading again lets it all through, each request answered once.
    #[derive(serde::Deserialize)]
    struct Answer {
        id: u64,
        result: serde::de::IgnoredAny,
    }
    let mut answered = std::collections::HashSet::new();
    let mut line = String::new();
    while (answered.len() as u64) < FLOOD {
        line.clear();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "server closed stdout"
        );
        let answer: Answer = serde_json::from_str(&line).unwrap();
        let _ = answer.result;
        assert!(answered.insert(answer.id), "{line}");
    }
    writer.join().unwrap();
    let _ = child.kill();
    let _ = child.wait();
}
