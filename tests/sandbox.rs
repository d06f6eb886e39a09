//! The sandbox, end to end: paths cannot leave the root, policy files cannot be written, a
//! plugin that loops or allocates without bound is stopped while the server keeps answering,
//! a component importing more than its world is refused at load and what it imports beyond
//! its grants answers ACCESS_DENIED; WASI files, environment and network a toolchain imports
//! answer errors, never access; `plugin check` runs one component alone.

mod common;

use common::{BUILTIN_PLUGINS, Fixture, call, connect, envelope, explore_status, structured};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

#[tokio::test]
async fn paths_cannot_leave_the_root() {
    let fx = Fixture::new();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "outside").unwrap();
    std::os::unix::fs::symlink("/etc", fx.path().join("etc-link")).unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        fx.path().join("leak.txt"),
    )
    .unwrap();
    let client = connect(&fx).await;

    let blocked = |code: &str| ("blocked".to_string(), code.to_string());
    for path in [
        "../secret.txt",
        "src/../../x",
        "/etc/passwd",
        "etc-link/passwd",
        "leak.txt",
    ] {
        for view in ["preview", "full"] {
            assert_eq!(
                explore_status(&client, path, json!({ "view": view })).await,
                blocked("ACCESS_DENIED"),
                "{path} {view}"
            );
        }
    }
    let scoped = envelope(
        &call(
            &client,
            "explore",
            json!({ "query": "root", "paths": ["../"] }),
        )
        .await,
    );
    assert_eq!(scoped["status"], "blocked");
    // A symlinked directory that leaves the root can be neither listed nor searched.
    for arguments in [
        json!({ "paths": ["etc-link"] }),
        json!({ "query": "root", "paths": ["etc-link"] }),
    ] {
        let s = envelope(&call(&client, "explore", arguments.clone()).await);
        assert_eq!(
            (s["status"].as_str(), s["code"].as_str()),
            (Some("blocked"), Some("ACCESS_DENIED")),
            "{arguments}"
        );
        assert_eq!(
            s["data"],
            json!({ "docs": [], "code": [] }),
            "nothing under /etc leaks"
        );
    }

    for target in ["../escape.txt", "etc-link/evil.conf", "/tmp/escape.txt"] {
        let result = call(
            &client,
            "write",
            json!({ "intent": "escape", "targetPath": target, "content": "x" }),
        )
        .await;
        assert_eq!(result.is_error, Some(true), "{target}");
        assert_eq!(
            result.structured_content.unwrap()["code"],
            "ACCESS_DENIED",
            "{target}"
        );
    }
    assert!(!fx.path().parent().unwrap().join("escape.txt").exists());
    let edit = call(&client, "change", json!({ "intent": "x", "edits": [{ "filePath": "etc-link/hostname", "targetString": "a", "replacementString": "b" }] })).await;
    assert_eq!(edit.structured_content.unwrap()["code"], "ACCESS_DENIED");

    // The operator's policy and the host's state are not writable through tools.
    for target in ["smart-context.toml", ".smart-context/state.db"] {
        let result = call(&client, "write", json!({ "intent": "grant myself", "targetPath": target, "content": "x", "overwrite": true })).await;
        assert_eq!(
            result.structured_content.unwrap()["code"],
            "ACCESS_DENIED",
            "{target}"
        );
    }
    assert!(!fx.path().join("smart-context.toml").exists());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn sensitive_binary_and_oversized_reads_are_refused_unless_asked() {
    let fx = Fixture::new();
    fx.write("big.txt", &"x".repeat(5_000));
    let client = connect(&fx).await;
    assert_eq!(
        explore_status(&client, ".env", json!({ "view": "full" })).await,
        ("blocked".into(), "SENSITIVE_BLOCKED".into())
    );
    assert_eq!(
        explore_status(&client, ".env", json!({})).await,
        ("blocked".into(), "SENSITIVE_BLOCKED".into())
    );
    let allowed = envelope(
        &call(
            &client,
            "explore",
            json!({ "paths": [".env"], "view": "full", "allowSensitive": true }),
        )
        .await,
    );
    assert_eq!(
        allowed["data"]["code"][0]["content"],
        "API_KEY=very-secret\n"
    );
    assert_eq!(
        explore_status(&client, "logo.bin", json!({})).await,
        ("blocked".into(), "BINARY_BLOCKED".into())
    );
    // Full reads over a limit fail whole; nothing is silently cut.
    let over = envelope(
        &call(
            &client,
            "explore",
            json!({ "paths": ["big.txt"], "view": "full", "limits": { "maxBytes": 1000 } }),
        )
        .await,
    );
    assert_eq!(
        (
            over["success"].clone(),
            over["status"].clone(),
            over["code"].clone()
        ),
        (json!(false), json!("blocked"), json!("TOO_LARGE"))
    );
    assert!(over["suggestion"].as_str().unwrap().contains("5000"));
    assert_eq!(over["data"], json!({ "docs": [], "code": [] }));
    let chars = envelope(
        &call(
            &client,
            "explore",
            json!({ "paths": ["big.txt"], "view": "full", "limits": { "maxChars": 4000 } }),
        )
        .await,
    );
    assert_eq!(chars["status"], "blocked");
    // maxChars bounds the whole response: two files that fit alone do not fit together.
    fx.write("big2.txt", &"y".repeat(3_000));
    let both = envelope(&call(&client, "explore", json!({ "paths": ["big.txt", "big2.txt"], "view": "full", "limits": { "maxChars": 6000 } })).await);
    assert_eq!(
        (both["status"].clone(), both["code"].clone()),
        (json!("blocked"), json!("TOO_LARGE"))
    );
    assert!(
        both["suggestion"].as_str().unwrap().contains("8000"),
        "{both}"
    );
    let fits = envelope(
        &call(
            &client,
            "explore",
            json!({ "paths": ["big.txt"], "view": "full" }),
        )
        .await,
    );
    assert_eq!(
        fits["data"]["docs"][0]["content"].as_str().unwrap().len(),
        5_000,
        "txt files are documents"
    );
    // Search never looks inside secrets.
    let search = envelope(&call(&client, "explore", json!({ "query": "very-secret" })).await);
    assert_eq!(search["status"], "no_results");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn runaway_plugins_are_stopped_while_the_server_keeps_answering() {
    let fx = Fixture::new().with_sandbox_config(
        "[plugin.spin]\ngrants = [\"workspace\"]\nenabled = true\n\n[plugin.hog]\nenabled = true\n",
    );
    let client = connect(&fx).await;
    let names: Vec<String> = client
        .list_all_tools()
        .await
        .unwrap()
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    assert_eq!(
        names,
        [
            "explore",
            "understand",
            "change",
            "write",
            "manage",
            "hog__hog",
            "spin__spin"
        ]
    );

    let started = Instant::now();
    let (spin, explore) = tokio::join!(
        call(&client, "spin__spin", json!({})),
        call(&client, "explore", json!({ "paths": ["src/lib.rs"] })),
    );
    let spin_time = started.elapsed();
    assert_eq!(
        envelope(&explore)["success"],
        true,
        "answered while spin was running"
    );
    assert_eq!(spin.is_error, Some(true));
    assert_eq!(
        spin.structured_content.unwrap()["code"],
        "DEADLINE_EXCEEDED"
    );
    assert!(
        spin_time >= Duration::from_millis(900) && spin_time < Duration::from_secs(20),
        "stopped after {spin_time:?}"
    );

    let hog = call(&client, "hog__hog", json!({})).await;
    assert_eq!(hog.is_error, Some(true));
    assert_eq!(hog.structured_content.unwrap()["code"], "MEMORY_LIMIT");

    // Both again, then ordinary work: nothing leaked, nothing poisoned.
    assert_eq!(
        call(&client, "spin__spin", json!({}))
            .await
            .structured_content
            .unwrap()["code"],
        "DEADLINE_EXCEEDED"
    );
    assert_eq!(
        call(&client, "hog__hog", json!({}))
            .await
            .structured_content
            .unwrap()["code"],
        "MEMORY_LIMIT"
    );
    let write = call(
        &client,
        "write",
        json!({ "intent": "after", "targetPath": "after.txt", "content": "ok" }),
    )
    .await;
    assert_eq!(envelope(&write)["success"], true);
    client.cancel().await.unwrap();
}

#[test]
fn components_importing_beyond_their_world_are_refused_and_beyond_their_grants_denied() {
    // spin imports the workspace but is granted nothing: it loads, denied the workspace;
    // sneaky is a parser that imports the workspace, which no grant can allow.
    let fx =
        Fixture::new().with_sandbox_config("[plugin.sneaky]\ngrants = [\"log\", \"workspace\"]\n");
    let output = fx.command(&["plugins", "--json"]).output().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let loaded: Vec<&str> = report["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(loaded[..BUILTIN_PLUGINS.len()], BUILTIN_PLUGINS);
    assert_eq!(
        loaded[BUILTIN_PLUGINS.len()..],
        [
            "hog", "house", "legacy", "lines", "peek", "probe", "spin", "stall"
        ]
    );
    let spin = common::listed_plugin(&report, "spin");
    assert_eq!(
        (&spin["grants"], &spin["denied"]),
        (&json!([]), &json!(["workspace"])),
        "{spin}"
    );
    for plugin in report["plugins"].as_array().unwrap() {
        assert_eq!(plugin["sha256"].as_str().unwrap().len(), 64);
        assert!(["compiled", "cached"].contains(&plugin["load"].as_str().unwrap()));
    }
    let scripting = common::listed_plugin(&report, "code_scripting");
    assert_eq!(
        (
            &scripting["world"],
            &scripting["grants"],
            &scripting["languages"]
        ),
        (
            &json!("code-parser"),
            &json!(["log"]),
            &json!(["ruby", "php", "bash", "lua"])
        )
    );
    let markdown = common::listed_plugin(&report, "markdown");
    assert_eq!(
        (markdown["world"].clone(), markdown["grants"].clone()),
        (json!("format-parser"), json!(["log"]))
    );
    assert!(
        common::listed_plugin(&report, "hog").get("tool").is_none(),
        "hog is loaded but not enabled, so not exposed"
    );
    let reason = |name: &str| -> String {
        let rejected = report["rejected"].as_array().unwrap();
        rejected
            .iter()
            .find(|r| r["name"] == name)
            .unwrap_or_else(|| panic!("{name} not rejected"))["reason"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert!(
        reason("sneaky").contains("format-parser world does not allow"),
        "{}",
        reason("sneaky")
    );
    assert_eq!(report["rejected"].as_array().unwrap().len(), 1, "{report}");
}

/// A toolchain's default output imports WASI filesystem and sockets (Rust's std does): it
/// loads, and every file, environment and network attempt through WASI fails.
#[tokio::test]
async fn wasi_files_environment_and_network_answer_errors_not_access() {
    let fx = Fixture::new().with_sandbox_config("[plugin.probe]\ngrants = []\nenabled = true\n");
    fx.write("secret.txt", "inside the root, but not through WASI");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let client = connect(&fx).await;
    let result = call(&client, "probe__probe", json!({ "port": port })).await;
    let report = structured(&result);
    for attempt in [
        "readRootDir",
        "readPasswd",
        "readRelative",
        "write",
        "writeTmp",
        "env",
        "connect",
        "lookup",
    ] {
        let got = report[attempt]
            .as_str()
            .unwrap_or_else(|| panic!("{report}"));
        assert!(got.starts_with("err: "), "{attempt} got through: {report}");
    }
    // The host interfaces it imports without a grant answer ACCESS_DENIED, naming the grant.
    for attempt in ["workspaceRead", "memorySearch"] {
        let got = report[attempt].as_str().unwrap();
        assert!(
            got.starts_with("err: ACCESS_DENIED: probe called") && got.contains("grant"),
            "{attempt}: {report}"
        );
    }
    // The working directory is WASI's default, not the server's (nothing of the host leaks).
    assert_eq!(report["cwd"], "ok: '/'", "{report}");
    assert!(
        matches!(listener.accept(), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock),
        "no connection reached the listener"
    );
    assert!(fx.read("probe-wrote.txt").is_none());
    assert!(!std::path::Path::new("/tmp/smart-context-probe-wrote").exists());
    client.cancel().await.unwrap();
}

/// `plugin pin` prints the entry that loads a component as it is; a component no entry could
/// load is refused with the reason, before anything is compiled.
#[test]
fn plugin_pin_prints_the_entry_that_loads_the_component() {
    let fx = Fixture::new();
    let peek = std::path::Path::new(common::TEST_PLUGINS).join("peek.wasm");
    let out = fx
        .command(&["plugin", "pin", peek.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let entry = String::from_utf8(out.stdout).unwrap();
    assert!(
        entry.contains("grants = [\"workspace\"]\nenabled = true"),
        "{entry}"
    );
    // The printed entry, with the directory it names, loads the plugin.
    let dir = entry
        .split("plugin_dirs = ")
        .nth(1)
        .and_then(|rest| rest.lines().next())
        .unwrap()
        .to_string();
    fx.operator_config(&format!("plugin_dirs = {dir}\n\n{entry}"));
    let listed = fx.command(&["plugins", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&listed.stdout).unwrap();
    let loaded = common::listed_plugin(&report, "peek");
    assert_eq!(loaded["grants"], json!(["workspace"]), "{loaded}");
    let sneaky = std::path::Path::new(common::TEST_PLUGINS).join("sneaky.wasm");
    let out = fx
        .command(&["plugin", "pin", sneaky.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("format-parser world does not allow"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `plugin check` runs a component alone, granted what it imports: a parser on a file, a
/// tool with arguments; a component no grant could load is refused with the reason.
#[test]
fn plugin_check_runs_one_component_alone_and_reports() {
    let fx = Fixture::new();
    let plugin = |name: &str| {
        std::path::Path::new(common::TEST_PLUGINS)
            .join(format!("{name}.wasm"))
            .to_str()
            .unwrap()
            .to_string()
    };
    let check = |args: &[&str]| common::json_report(&mut fx.command(args));
    fx.write("notes.lines", "first idea\n\nsecond idea\n");
    let input = fx.path().join("notes.lines");
    let lines = plugin("lines");
    let (ok, report) = check(&[
        "plugin",
        "check",
        &lines,
        "--input",
        input.to_str().unwrap(),
    ]);
    assert!(ok, "{report}");
    assert_eq!(report["world"], "format-parser");
    assert_eq!(report["grantsNeeded"], json!(["log"]));
    assert_eq!(report["describe"]["extensions"], json!(["lines"]));
    assert_eq!(report["call"]["document"]["sections"], 2, "{report}");
    assert!(report["call"]["peakMemoryBytes"].as_u64().unwrap() > 0);

    // A code parser reads its language: the structure it found, alone, in a fresh instance.
    fx.write(
        "billing.house",
        "use common.house\nrule charge\ncall round\n",
    );
    let house = plugin("house");
    let input = fx.path().join("billing.house");
    let (ok, report) = check(&[
        "plugin",
        "check",
        &house,
        "--input",
        input.to_str().unwrap(),
    ]);
    assert!(ok, "{report}");
    assert_eq!(report["world"], "code-parser");
    assert_eq!(report["describe"]["languages"], json!(["house"]));
    let structure = &report["call"]["structure"];
    assert_eq!(structure["language"], "house", "{report}");
    assert_eq!(structure["outline"], json!(["2:2 rule charge"]), "{report}");
    assert_eq!(structure["imports"], json!(["common.house"]), "{report}");
    assert_eq!(structure["calls"], 1);

    // A tool is called with its arguments, on the root, granted what it imports.
    let probe = plugin("probe");
    let (ok, report) = check(&["plugin", "check", &probe, "--args", "{\"port\": 9}"]);
    assert!(ok, "{report}");
    assert_eq!(report["describe"]["tool"], "probe__probe");
    assert_eq!(
        report["granted"],
        json!(["workspace", "memory"]),
        "{report}"
    );
    assert!(
        report["call"]["result"]["memorySearch"]
            .as_str()
            .unwrap()
            .starts_with("ok: "),
        "granted what it imports: {report}"
    );
    assert!(
        report["call"]["result"]["readPasswd"]
            .as_str()
            .unwrap()
            .starts_with("err: "),
        "{report}"
    );

    let sneaky = plugin("sneaky");
    let (ok, report) = check(&["plugin", "check", &sneaky]);
    assert!(!ok);
    assert!(
        report["refused"]
            .as_str()
            .unwrap()
            .contains("format-parser world does not allow"),
        "{report}"
    );
    // Nothing of the check stays in the root.
    assert!(!fx.path().join(".smart-context").exists());
}

/// With `[audit] path` set, every plugin call leaves one JSON line: the plugin and its hash,
/// the grants it used, the paths it read and wrote, and how it ended.
#[tokio::test]
async fn the_audit_log_records_each_plugin_call() {
    let fx = Fixture::new().with_sandbox_config(
        "[plugin.lines]\ngrants = [\"log\"]\n\n[plugin.probe]\ngrants = []\nenabled = true\n",
    );
    let log = fx.operator_config_path().with_file_name("audit.jsonl");
    let config = fx.read_operator_config().unwrap();
    // A log inside the root is refused: a plugin granted edits could rewrite it.
    fx.operator_config(&format!(
        "{config}\n[audit]\npath = {:?}\n",
        fx.path().join("logs/audit.jsonl")
    ));
    let out = fx.command(&["plugins"]).output().unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("inside the workspace"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    fx.operator_config(&format!("{config}\n[audit]\npath = \"audit.jsonl\"\n"));
    fx.write("notes.lines", "first idea\n");
    let client = connect(&fx).await;
    let read = envelope(&call(&client, "explore", json!({ "paths": ["src/lib.rs"] })).await);
    assert_eq!(read["success"], true);
    let written = envelope(
        &call(
            &client,
            "write",
            json!({ "intent": "add a note", "targetPath": "docs/new.md", "content": "# New\n" }),
        )
        .await,
    );
    assert_eq!(written["success"], true, "{written}");
    let refused = call(&client, "explore", json!({ "paths": ["../outside"] })).await;
    assert_eq!(envelope(&refused)["success"], false);
    call(&client, "probe__probe", json!({ "port": 9 })).await;
    client.cancel().await.unwrap();

    let lines: Vec<Value> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let find = |plugin: &str, pred: &dyn Fn(&Value) -> bool| -> Value {
        lines
            .iter()
            .find(|l| l["plugin"] == plugin && pred(l))
            .unwrap_or_else(|| panic!("no {plugin} line: {lines:#?}"))
            .clone()
    };
    let explore = find("explore", &|l| l["read"] == json!(["src/lib.rs"]));
    assert_eq!(explore["call"], "tool");
    assert_eq!(explore["outcome"], "ok");
    assert_eq!(explore["sha256"].as_str().unwrap().len(), 64);
    assert!(
        explore["grantsUsed"]
            .as_array()
            .unwrap()
            .contains(&json!("workspace")),
        "{explore}"
    );
    let write = find("write", &|l| l["wrote"] == json!(["docs/new.md"]));
    assert!(
        write["grantsUsed"]
            .as_array()
            .unwrap()
            .contains(&json!("edits"))
    );
    // The third-party parser ran on its file while indexing, and logged.
    let parse = find("lines", &|l| l["target"] == "notes.lines");
    assert_eq!(
        (&parse["call"], &parse["grantsUsed"]),
        (&json!("parse"), &json!(["log"]))
    );
    // A refused call is on record too, with its code.
    find("explore", &|l| l["outcome"] != "ok");
    // So is what a plugin tried without a grant.
    let probe = find("probe", &|_| true);
    assert_eq!(
        probe["denied"],
        json!(["workspace.read", "memory.search"]),
        "{probe}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&log).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}

/// `plugin wit` prints the contract the binary speaks, whole or one world of it.
#[test]
fn plugin_wit_prints_the_contract_this_binary_speaks() {
    let fx = Fixture::new();
    let out = fx.command(&["plugin", "wit"]).output().unwrap();
    assert!(out.status.success());
    let wit = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../wit/plugin.wit"),
    )
    .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        wit.trim_end()
    );
    let out = fx
        .command(&["plugin", "wit", "--world", "format-parser"])
        .output()
        .unwrap();
    let one = String::from_utf8(out.stdout).unwrap();
    let worlds: Vec<&str> = one.lines().filter(|l| l.starts_with("world ")).collect();
    assert_eq!(worlds, ["world format-parser {"]);
    assert!(one.contains("package smart-context:plugin@0.2.3;"));
}

/// A component built for contract 0.2.0 as first published (before the additions of 0.2.1)
/// loads on this host and its calls are answered: within 0.2 the contract only grows.
#[test]
fn a_component_built_for_an_older_0_2_contract_loads_and_works() {
    let fx = Fixture::new();
    let legacy = std::path::Path::new(common::TEST_PLUGINS).join("legacy.wasm");
    let (ok, report) = common::json_report(&mut fx.command(&[
        "plugin",
        "check",
        legacy.to_str().unwrap(),
        "--args",
        "{}",
    ]));
    assert!(ok, "{report}");
    assert!(
        report["imports"]
            .as_array()
            .unwrap()
            .contains(&json!("smart-context:plugin/index@0.2.0")),
        "{report}"
    );
    let result = &report["call"]["result"];
    assert_eq!(result["bytes"], common::LIB_RS.len(), "{report}");
    assert!(result["hits"].as_u64().unwrap() >= 1, "{report}");
}

#[test]
fn a_pinned_hash_that_does_not_match_refuses_the_plugin() {
    let fx = Fixture::new()
        .with_sandbox_config(&format!("[plugin.hog]\nsha256 = \"{}\"\n", "0".repeat(64)));
    let output = fx.command(&["plugins", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let hog = report["rejected"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"] == "hog")
        .expect("hog rejected");
    assert!(
        hog["reason"]
            .as_str()
            .unwrap()
            .contains("does not match the pinned")
    );
}

#[tokio::test]
async fn when_every_instance_slot_is_taken_calls_fail_fast_with_busy() {
    let fx = Fixture::new()
        .with_sandbox_config("[plugin.spin]\ngrants = [\"workspace\"]\nenabled = true\n");
    let config = fx
        .read_operator_config()
        .unwrap()
        .replace("[limits]\n", "[limits]\nmax_instances = 2\n");
    fx.operator_config(&config);
    let client = connect(&fx).await;
    let started = Instant::now();
    let (a, b, c) = tokio::join!(
        call(&client, "spin__spin", json!({})),
        call(&client, "spin__spin", json!({})),
        call(&client, "spin__spin", json!({})),
    );
    let mut codes: Vec<String> = [a, b, c]
        .into_iter()
        .map(|r| {
            r.structured_content.unwrap()["code"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    codes.sort();
    assert_eq!(codes, ["BUSY", "DEADLINE_EXCEEDED", "DEADLINE_EXCEEDED"]);
    assert!(started.elapsed() < Duration::from_secs(20));
    // Slots are returned when calls end.
    assert_eq!(
        envelope(&call(&client, "explore", json!({ "paths": ["src/lib.rs"] })).await)["success"],
        true
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_third_party_parser_from_a_plugin_dir_serves_its_extension() {
    // The example parser of docs/plugins.md, granted only logging.
    let fx = Fixture::new().with_sandbox_config("[plugin.lines]\ngrants = [\"log\"]\n");
    fx.write("notes.lines", "first idea\n\nsecond idea\n");
    let client = connect(&fx).await;
    let listed = envelope(&call(&client, "explore", json!({ "paths": ["notes.lines"] })).await);
    let outline = listed["data"]["docs"][0]["preview"].as_str().unwrap();
    assert!(
        outline.contains("first idea") && outline.contains("§line-3"),
        "{listed}"
    );
    let section = envelope(
        &call(
            &client,
            "explore",
            json!({ "paths": ["notes.lines"], "section": { "sectionId": "line-3" } }),
        )
        .await,
    );
    assert_eq!(section["data"]["docs"][0]["content"], "second idea");
    let outline = envelope(
        &call(
            &client,
            "understand",
            json!({ "goal": "outline", "path": "notes.lines" }),
        )
        .await,
    );
    assert_eq!(
        (
            outline["facts"]["kind"].as_str(),
            outline["outline"].as_array().unwrap().len()
        ),
        (Some("document"), 2)
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_parser_that_ran_out_of_time_on_a_content_is_not_run_on_it_again() {
    // A third-party parser that never returns, with a one-second deadline.
    let fx = Fixture::new().with_sandbox_config("[plugin.stall]\ngrants = [\"log\"]\n");
    fx.write("notes/slow.stall", "whatever the parser would read\n");
    // The start-up pass meets it first: stopped at its deadline, and remembered.
    let client = connect(&fx).await;
    let status = structured(&call(&client, "manage", json!({ "command": "status" })).await);
    assert_eq!(
        status["result"]["index"]["failed"]["DEADLINE_EXCEEDED"], 1,
        "{status}"
    );
    // Reading the file, or its folder, names the parser and its error, and does not wait for
    // the parser's deadline again: it is not run.
    for paths in [json!(["notes/slow.stall"]), json!(["notes"])] {
        // (Only the remembered failure says so: a run of the parser would end in its own
        // deadline error instead.)
        let answer = call(&client, "explore", json!({ "paths": paths })).await;
        let text = serde_json::to_string(&answer).unwrap();
        assert!(
            text.contains("the stall parser failed on this content")
                && text.contains("not run on it again"),
            "{text}"
        );
    }
    // A changed file is another content: the parser is tried (and fails) again.
    fx.write("notes/slow.stall", "another content\n");
    let _ = call(&client, "manage", json!({ "command": "rebuild" })).await;
    let answer = call(&client, "explore", json!({ "paths": ["notes/slow.stall"] })).await;
    let text = serde_json::to_string(&answer).unwrap();
    assert!(text.contains("not run on it again"), "{text}");
    client.cancel().await.unwrap();
}

/// A plugin is listed from the description it declares, before it is compiled; once compiled
/// it must describe itself the same, or it is refused: a component whose declared title was
/// altered (its code still describes the original) does not load.
#[test]
fn a_plugin_that_declares_another_description_than_it_gives_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let builtin = std::path::PathBuf::from(env!("SMART_CONTEXT_BUILTIN_PLUGINS"));
    let mut wasm = std::fs::read(builtin.join("explore.wasm")).unwrap();
    let section = find(&wasm, b"smart-context:spec").expect("explore declares its spec");
    let title = section + find(&wasm[section..], b"Explore: find and read").unwrap();
    wasm[title..title + 7].copy_from_slice(b"EXPLORE");
    std::fs::write(dir.path().join("fake.wasm"), &wasm).unwrap();
    let fx = Fixture::new();
    fx.operator_config(&format!(
        "plugin_dirs = [{:?}]\n\n[plugin.fake]\ngrants = [\"log\", \"workspace\", \"index\", \"status\", \"store\", \"memory\"]\nenabled = true\n",
        dir.path()
    ));
    let output = fx.command(&["plugins", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&output.stdout).unwrap();
    let rejected = report["rejected"].as_array().unwrap();
    let fake = rejected
        .iter()
        .find(|r| r["name"] == "fake")
        .unwrap_or_else(|| panic!("fake was not refused: {report}"));
    assert!(
        fake["reason"]
            .as_str()
            .unwrap()
            .contains("describes itself differently"),
        "{fake}"
    );
    // The built-ins declare what they describe: none refused.
    assert!(rejected.iter().all(|r| r["name"] == "fake"), "{report}");
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}
