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
async fn wait_indexed<S: rmcp::service::Service<rmcp::RoleClient>>(
    client: &rmcp::service::RunningService<rmcp::RoleClient, S>,
    root: &str,
) {
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

    // Listing plugins makes no state in any root.
    let out = fx
        .command(&["--root"])
        .arg(web.path())
        .arg("plugins")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!web.path().join(".smart-context").exists());

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

/// Two served roots (a fixture and a `web*` directory beside it) through rmcp's client, both
/// indexed: the client, the two directories, and each root's name.
struct TwoRoots {
    /// The two directories, kept until the server is gone.
    _dirs: (Fixture, tempfile::TempDir),
    client: Client,
    api_name: String,
    web_name: String,
}

async fn two_roots(api_files: &[(&str, String)], web_files: &[(&str, String)]) -> TwoRoots {
    let api = Fixture::new();
    for (path, text) in api_files {
        api.write(path, text);
    }
    let web = tempfile::Builder::new().prefix("web").tempdir().unwrap();
    for (path, text) in web_files {
        let path = web.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let mut command = api.command(&["--root"]);
    command.arg(web.path()).arg("serve");
    let transport = TokioChildProcess::new(tokio::process::Command::from(command)).unwrap();
    let client = ().serve(transport).await.expect("MCP handshake");
    let name = |p: &std::path::Path| p.file_name().unwrap().to_string_lossy().into_owned();
    let (api_name, web_name) = (name(api.path()), name(web.path()));
    wait_indexed(&client, &api_name).await;
    wait_indexed(&client, &web_name).await;
    TwoRoots {
        _dirs: (api, web),
        client,
        api_name,
        web_name,
    }
}

/// The `root` and `filePath` of every item of an answer, docs then code.
fn items(answer: &Value) -> Vec<(String, String, String)> {
    ["docs", "code"]
        .iter()
        .flat_map(|g| answer["data"][g].as_array().cloned().unwrap_or_default())
        .map(|i| {
            (
                i["root"].as_str().unwrap_or("<none>").to_string(),
                i["filePath"].as_str().unwrap().to_string(),
                i["range"]["startLine"].to_string(),
            )
        })
        .collect()
}

#[tokio::test]
async fn explore_without_root_searches_every_root_and_pages_each() {
    let note = |i: usize| {
        (
            format!("notes/ledger{i}.md"),
            format!("# Ledger {i}\n\nThe ledger entry number {i} balances.\n"),
        )
    };
    let api_notes: Vec<(String, String)> = (0..6).map(note).collect();
    let web_notes: Vec<(String, String)> = (0..6).map(note).collect();
    let long = format!(
        "# Glacier\n\n{}\n",
        "The glacier report goes on and on. ".repeat(120)
    );
    let mut api_files: Vec<(&str, String)> = api_notes
        .iter()
        .map(|(p, t)| (p.as_str(), t.clone()))
        .collect();
    api_files.push(("glacier.md", long));
    api_files.push(("only_api.md", "# Api\n\nOnly the api knows.\n".into()));
    let mut web_files: Vec<(&str, String)> = web_notes
        .iter()
        .map(|(p, t)| (p.as_str(), t.clone()))
        .collect();
    web_files.push(("zebra.md", "# Zebra\n\nThe zebra crossing.\n".into()));
    let r = two_roots(&api_files, &web_files).await;
    let (client, api_name, web_name) = (&r.client, &r.api_name, &r.web_name);

    // A word both roots hold: items from both, each naming its root, within one budget.
    let result = call(client, "explore", json!({ "query": "ledger balances" })).await;
    let first = structured(&result);
    let shown = items(&first);
    assert!(shown.iter().any(|(root, ..)| root == api_name), "{first:#}");
    assert!(shown.iter().any(|(root, ..)| root == web_name), "{first:#}");
    assert!(
        shown
            .iter()
            .all(|(_, path, _)| path.starts_with("notes/ledger")),
        "paths stay relative to their root: {shown:?}"
    );
    assert!(
        first["data"]["docs"].as_array().unwrap().len() <= 6,
        "{first:#}"
    );
    let pack_id = first["pack"]["packId"].as_str().unwrap();
    let (id, roots) = pack_id.split_once('~').expect("a packId naming its roots");
    assert!(id.starts_with('p') && id.len() == 33, "{pack_id}");
    assert_eq!(roots, format!("{api_name},{web_name}"), "{pack_id}");
    let text = common::text(&result);
    assert!(
        text.contains(&format!("\n== {api_name}:notes/ledger")),
        "{text}"
    );
    assert!(
        text.contains(&format!("\n== {web_name}:notes/ledger")),
        "{text}"
    );
    assert!(text.contains(&format!("packId: {pack_id}")), "{text}");

    // A continuation one root can no longer follow (its part forged here, as an expired
    // pack would be): the other root answers, and the answer says what was left out.
    let (api_part, _) = first["next"]["itemsCursor"]
        .as_str()
        .unwrap()
        .split_once('+')
        .unwrap();
    let half = format!("{api_part}+{web_name}:i.1.1.0000000000000000");
    let result = call(
        client,
        "explore",
        json!({ "packId": pack_id, "cursor": { "items": half } }),
    )
    .await;
    let partial = structured(&result);
    assert_eq!(partial["degraded"], true, "{partial:#}");
    assert!(
        partial["reasons"].to_string().contains("pack_expired"),
        "{partial:#}"
    );
    assert!(
        items(&partial).iter().all(|(root, ..)| root == api_name),
        "{partial:#}"
    );
    assert!(
        common::text(&result).contains(&format!("left out: {web_name} (INVALID_ARGS")),
        "{}",
        common::text(&result)
    );

    // Paging with the packId and cursor alone, no root: the next items of both roots, none
    // shown twice, until no cursor is left.
    let mut seen = shown.clone();
    let mut cursor = first["next"]["itemsCursor"].as_str().unwrap().to_string();
    assert!(
        cursor.contains(&format!("{api_name}:")) && cursor.contains(&format!("{web_name}:")),
        "{cursor}"
    );
    for _ in 0..6 {
        let page = structured(
            &call(
                client,
                "explore",
                json!({ "packId": pack_id, "cursor": { "items": cursor } }),
            )
            .await,
        );
        for item in items(&page) {
            assert!(!seen.contains(&item), "{item:?} shown twice: {page:#}");
            seen.push(item);
        }
        match page["next"]["itemsCursor"].as_str() {
            Some(next) => cursor = next.to_string(),
            None => break,
        }
    }
    for root in [api_name, web_name] {
        let ledgers = seen
            .iter()
            .filter(|(r, p, _)| r == root && p.starts_with("notes/ledger"))
            .count();
        assert_eq!(ledgers, 6, "every ledger of {root}: {seen:?}");
    }

    // A long section is cut in its root; its content cursor goes on there alone.
    let cut = structured(
        &call(
            client,
            "explore",
            json!({ "query": "glacier report", "view": "section" }),
        )
        .await,
    );
    let content = cut["next"]["contentCursor"].as_str().expect("a cut item");
    assert!(content.starts_with(&format!("{api_name}:")), "{content}");
    let rest = structured(
        &call(
            client,
            "explore",
            json!({ "packId": cut["pack"]["packId"], "view": "section", "cursor": { "content": content } }),
        )
        .await,
    );
    assert!(
        items(&rest)
            .iter()
            .all(|(root, path, _)| root == api_name && path == "glacier.md"),
        "{rest:#}"
    );
    assert_eq!(
        rest["stats"]["roots"].as_object().unwrap().len(),
        1,
        "{rest:#}"
    );

    // A word only one root holds: that root's items; a path only one root has: read there,
    // with no failure from the other.
    let zebra = structured(&call(client, "explore", json!({ "query": "zebra crossing" })).await);
    assert!(!items(&zebra).is_empty(), "{zebra:#}");
    assert!(
        items(&zebra).iter().all(|(root, ..)| root == web_name),
        "{zebra:#}"
    );
    let read = structured(&call(client, "explore", json!({ "paths": ["only_api.md"] })).await);
    assert_eq!(read["success"], true, "{read:#}");
    assert!(
        items(&read).iter().all(|(root, ..)| root == api_name),
        "{read:#}"
    );
    assert!(read["degraded"].is_null(), "{read:#}");
    // Paths spread over the roots: each root reads the ones it holds, in one answer.
    let both = structured(
        &call(
            client,
            "explore",
            json!({ "paths": ["only_api.md", "zebra.md"] }),
        )
        .await,
    );
    let mut read: Vec<(String, String)> = items(&both)
        .into_iter()
        .map(|(root, path, _)| (root, path))
        .collect();
    read.sort();
    assert_eq!(
        read,
        [
            (api_name.clone(), "only_api.md".to_string()),
            (web_name.clone(), "zebra.md".to_string())
        ],
        "{both:#}"
    );
    let ids = both["pack"]["packId"].as_str().unwrap();
    assert!(
        ids.contains(&format!("~{api_name}+")) && ids.ends_with(&format!("~{web_name}")),
        "{ids}"
    );

    // Naming a root searches it alone, and the ids still name it.
    let named = structured(
        &call(
            client,
            "explore",
            json!({ "query": "ledger balances", "root": web_name }),
        )
        .await,
    );
    assert!(
        items(&named).iter().all(|(root, ..)| root == web_name),
        "{named:#}"
    );
    assert!(
        named["pack"]["packId"]
            .as_str()
            .unwrap()
            .ends_with(&format!("~{web_name}")),
        "{named:#}"
    );

    // A cursor naming a root the server does not serve, or none at all, is refused.
    let forged = failure(
        &call(
            client,
            "explore",
            json!({ "packId": pack_id, "cursor": { "items": "elsewhere:i.1.1.00" } }),
        )
        .await,
    );
    assert_eq!(forged["code"], "INVALID_ARGS", "{forged:#}");
    let bare = failure(
        &call(
            client,
            "explore",
            json!({ "packId": pack_id, "cursor": { "items": "i.1.1.00" } }),
        )
        .await,
    );
    assert_eq!(bare["code"], "INVALID_ARGS", "{bare:#}");
    r.client.cancel().await.unwrap();
}

/// `[[roots]]` in the operator's config: served without `--root`, by the names it gives; a
/// `read-only` root is searched, read and understood, and nothing in it is changed, written
/// or run; a `--root` naming the same directory takes its entry's name; `[[roots]]` in a
/// trusted repository file is ignored, with a notice.
#[tokio::test]
async fn operator_roots_are_served_by_name_and_a_read_only_root_is_only_read() {
    let api = Fixture::new();
    api.write("orders.py", "def place_order(cart):\n    return cart\n");
    let web = tempfile::Builder::new().prefix("web").tempdir().unwrap();
    let checkout = "def render_checkout(page):\n    return page\n";
    std::fs::write(web.path().join("checkout.py"), checkout).unwrap();
    api.operator_config(&format!(
        "[[roots]]\nname = \"backend\"\npath = {:?}\n\n[[roots]]\nname = \"site\"\npath = {:?}\npolicy = \"read-only\"\n\n[test]\ncommand = [\"sh\", \"-c\", \"touch ran\"]\n",
        api.path(),
        web.path()
    ));
    let transport = TokioChildProcess::new(tokio::process::Command::from(
        api.operator_command(&["serve"]),
    ))
    .unwrap();
    let client = ().serve(transport).await.expect("MCP handshake");
    wait_indexed(&client, "backend").await;
    wait_indexed(&client, "site").await;

    let found = structured(&call(&client, "explore", json!({ "query": "render_checkout" })).await);
    assert_eq!(
        items(&found)
            .first()
            .map(|(root, path, _)| (root.as_str(), path.as_str())),
        Some(("site", "checkout.py")),
        "{found:#}"
    );
    let outline = structured(
        &call(
            &client,
            "understand",
            json!({ "root": "site", "path": "checkout.py" }),
        )
        .await,
    );
    assert!(
        outline.to_string().contains("render_checkout"),
        "{outline:#}"
    );

    // Nothing in the read-only root changes: edits, new files, test runs are refused.
    let edit = json!({
        "intent": "return twice",
        "edits": [{ "filePath": "checkout.py", "targetString": "return page", "replacementString": "return [page, page]" }],
        "options": { "dryRun": false },
    });
    let mut in_site = edit.clone();
    in_site["root"] = json!("site");
    let refused = failure(&call(&client, "change", in_site).await);
    assert_eq!(refused["code"], "ACCESS_DENIED", "{refused:#}");
    assert!(
        refused["message"].as_str().unwrap().contains("read-only"),
        "{refused:#}"
    );
    let refused = failure(
        &call(
            &client,
            "write",
            json!({ "root": "site", "intent": "notes", "targetPath": "notes.md", "content": "x\n" }),
        )
        .await,
    );
    assert_eq!(refused["code"], "ACCESS_DENIED", "{refused:#}");
    let tests = call(
        &client,
        "manage",
        json!({ "root": "site", "command": "test" }),
    )
    .await;
    assert_eq!(tests.is_error, Some(true), "{tests:?}");
    assert!(
        common::text(&tests).contains("read-only"),
        "{}",
        common::text(&tests)
    );
    assert_eq!(
        std::fs::read_to_string(web.path().join("checkout.py")).unwrap(),
        checkout
    );
    assert!(!web.path().join("notes.md").exists());
    assert!(!web.path().join("ran").exists());

    // The read-write root takes the same edit.
    let mut in_backend = edit;
    in_backend["root"] = json!("backend");
    in_backend["edits"][0]["filePath"] = json!("orders.py");
    in_backend["edits"][0]["targetString"] = json!("return cart");
    in_backend["edits"][0]["replacementString"] = json!("return [cart]");
    let applied = structured(&call(&client, "change", in_backend).await);
    assert_ne!(applied["success"], false, "{applied:#}");
    assert!(api.read("orders.py").unwrap().contains("[cart]"));
    client.cancel().await.unwrap();

    // `--root` naming an entry's directory serves it under that entry's name and policy.
    let status = json!({ "command": "status", "root": "site" }).to_string();
    let mut command = api.operator_command(&["call", "manage", &status]);
    command.arg("--root").arg(web.path());
    let out = command.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );

    // A repository's own file cannot pick roots, even trusted (read only without --config).
    std::fs::remove_file(api.operator_config_path()).unwrap();
    api.write(
        "smart-context.toml",
        &format!("[[roots]]\nname = \"elsewhere\"\npath = {:?}\n", web.path()),
    );
    assert!(api.command(&["trust"]).output().unwrap().status.success());
    let out = api.command(&["index"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(log.contains("[[roots]] ignored"), "{log}");
}

/// An MCP client that declares roots and lists the ones a test gives it, counting the asks.
#[derive(Clone, Default)]
struct RootsClient {
    roots: std::sync::Arc<std::sync::Mutex<Vec<(String, String)>>>,
    asked: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl RootsClient {
    fn set(&self, roots: &[(&std::path::Path, &str)]) {
        *self.roots.lock().unwrap() = roots
            .iter()
            .map(|(path, name)| {
                let uri = url::Url::from_directory_path(path).unwrap().to_string();
                (uri, name.to_string())
            })
            .collect();
    }

    fn asked(&self) -> usize {
        self.asked.load(std::sync::atomic::Ordering::SeqCst)
    }
}

#[allow(deprecated)] // roots: protocols up to 2025-11-25
impl rmcp::ClientHandler for RootsClient {
    fn get_info(&self) -> rmcp::model::ClientConfig {
        rmcp::model::ClientConfig::new(
            rmcp::model::ClientCapabilities::builder()
                .enable_roots()
                .enable_roots_list_changed()
                .build(),
            rmcp::model::Implementation::new("roots-test", "1"),
        )
        .with_protocol_version(rmcp::model::ProtocolVersion::V_2025_06_18)
    }

    async fn list_roots(
        &self,
        _context: rmcp::service::RequestContext<rmcp::RoleClient>,
    ) -> Result<rmcp::model::ListRootsResult, rmcp::ErrorData> {
        self.asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let roots = self.roots.lock().unwrap().clone();
        Ok(rmcp::model::ListRootsResult::new(
            roots
                .into_iter()
                .map(|(uri, name)| rmcp::model::Root::new(uri).with_name(name))
                .collect(),
        ))
    }
}

/// A call naming `root` is refused: the session does not see that root.
async fn assert_not_served<S: rmcp::service::Service<rmcp::RoleClient>>(
    client: &rmcp::service::RunningService<rmcp::RoleClient, S>,
    root: &str,
) {
    let args = json!({ "command": "status", "root": root });
    let refused = failure(&call(client, "manage", args).await);
    let message = refused["message"].as_str().unwrap_or_default();
    assert!(message.contains("no root named"), "{root}: {refused:#}");
}

/// With `[client_roots]` allowed, a client's listed roots are served to it by its names,
/// read-only unless the operator says otherwise; a root outside `under` is not; a changed
/// list is followed; and with client roots off the server never asks.
#[tokio::test]
async fn a_clients_own_roots_are_served_when_the_operator_allows_them() {
    let api = Fixture::new();
    api.write("orders.py", "def place_order(cart):\n    return cart\n");
    let base = tempfile::tempdir().unwrap();
    let (c, d) = (base.path().join("c"), base.path().join("d"));
    for (dir, word) in [(&c, "heron"), (&d, "osprey")] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(
            dir.join("birds.md"),
            format!("# Birds\n\nThe {word} nests here.\n"),
        )
        .unwrap();
    }
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("x.md"), "# X\n\nThe kestrel.\n").unwrap();

    // Off (the default): the client's roots are never asked for.
    let client = RootsClient::default();
    client.set(&[(&c, "c")]);
    let running = client
        .clone()
        .serve(TokioChildProcess::new(api.tokio_command(&["serve"])).unwrap())
        .await
        .expect("MCP handshake");
    let status = structured(&call(&running, "manage", json!({ "command": "status" })).await);
    assert_eq!(status["success"], true, "{status:#}");
    running.cancel().await.unwrap();
    assert_eq!(client.asked(), 0);

    // `under` takes in the operator's own directory too, to show that a client root holding
    // the operator's config is refused all the same.
    let home = api.operator_config_path().parent().unwrap().to_path_buf();
    api.operator_config(&format!(
        "[client_roots]\nallow = true\nunder = [{:?}, {:?}]\n",
        base.path(),
        home
    ));
    let client = RootsClient::default();
    client.set(&[(&c, "c"), (outside.path(), "outside"), (&home, "home")]);
    let running = client
        .clone()
        .serve(TokioChildProcess::new(api.tokio_command(&["serve"])).unwrap())
        .await
        .expect("MCP handshake");
    wait_indexed(&running, "c").await;
    assert_eq!(client.asked(), 1);
    let found = structured(&call(&running, "explore", json!({ "query": "heron nests" })).await);
    assert_eq!(
        items(&found)
            .first()
            .map(|(root, path, _)| (root.as_str(), path.as_str())),
        Some(("c", "birds.md")),
        "{found:#}"
    );
    // Outside `under`, or holding the operator's files: not served.
    for name in ["outside", "home"] {
        assert_not_served(&running, name).await;
    }
    // Read-only by default.
    let refused = failure(
        &call(
            &running,
            "write",
            json!({ "root": "c", "intent": "n", "targetPath": "n.md", "content": "n\n" }),
        )
        .await,
    );
    assert_eq!(refused["code"], "ACCESS_DENIED", "{refused:#}");
    assert!(!c.join("n.md").exists());

    // The list changes: d comes, c goes.
    client.set(&[(&d, "d")]);
    running.notify_roots_list_changed().await.unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while client.asked() < 2 {
        assert!(
            std::time::Instant::now() < deadline,
            "the server never asked again"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    wait_indexed(&running, "d").await;
    let found = structured(&call(&running, "explore", json!({ "query": "osprey" })).await);
    assert!(
        items(&found).iter().any(|(root, ..)| root == "d"),
        "{found:#}"
    );
    assert_not_served(&running, "c").await;
    running.cancel().await.unwrap();
}
