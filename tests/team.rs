//! Team mode (`[store] url`): `serve --http` replicas on one root share evidence packs and
//! session memory through a real PostgreSQL (scripts/test-postgres.sh, started by .ci/run),
//! reached by rmcp's streamable HTTP client: a pack made through one replica pages on
//! another, a note remembered on one is recalled on the next, and rows signed with another
//! deployment's key are never served.

mod common;

use common::{Fixture, args, serve_http, structured, wait_indexed};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// A replica's process, killed when the test ends, passed or not.
struct Server(std::process::Child);

impl Server {
    /// Kills the replica at once (SIGKILL), as a crash would.
    fn kill(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.kill();
    }
}

const TOKEN: &str = "team-token-0123456789";

/// A database of its own on the test cluster, dropped with the guard.
struct Database {
    admin: String,
    name: String,
    url: String,
}

impl Database {
    /// None when no cluster is configured (`SMART_CONTEXT_TEST_PG`), unless
    /// `SMART_CONTEXT_REQUIRE_PG` (set by .ci/run) says there must be one.
    fn create() -> Option<Self> {
        let Ok(admin) = std::env::var("SMART_CONTEXT_TEST_PG") else {
            assert!(
                std::env::var_os("SMART_CONTEXT_REQUIRE_PG").is_none(),
                "SMART_CONTEXT_REQUIRE_PG is set but SMART_CONTEXT_TEST_PG is not"
            );
            eprintln!(
                "SMART_CONTEXT_TEST_PG is not set; skipped (scripts/test-postgres.sh starts one)"
            );
            return None;
        };
        let name = format!("sc_team_{}", uuid_like());
        sql(&admin, &format!("CREATE DATABASE {name}"));
        let (base, _) = admin.rsplit_once('/').unwrap();
        let url = format!("{base}/{name}");
        Some(Self { admin, name, url })
    }
}

impl Drop for Database {
    fn drop(&mut self) {
        sql(
            &self.admin,
            &format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name),
        );
    }
}

fn uuid_like() -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    format!("{}_{nanos}", std::process::id())
}

/// Runs `statement` on `url` from a thread of its own (the caller may be on a runtime).
fn sql(url: &str, statement: &str) {
    let (url, statement) = (url.to_string(), statement.to_string());
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (client, connection) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                .await
                .unwrap_or_else(|e| panic!("connecting to {url}: {e}"));
            tokio::spawn(connection);
            client.batch_execute(&statement).await.unwrap();
        })
    })
    .join()
    .unwrap();
}

/// One deployment under test: its database, the root its replicas serve (with the operator
/// config naming both), and the directory of its key files.
struct Team {
    db: Database,
    fx: Fixture,
    keys: tempfile::TempDir,
}

impl Team {
    /// None when no test cluster is configured (see [`Database::create`]).
    fn new() -> Option<Self> {
        let db = Database::create()?;
        let fx = Fixture::new();
        let keys = tempfile::tempdir().unwrap();
        let team_key = key_file(keys.path(), "team.key", 0x5c);
        fx.operator_config(&format!(
            "[store]\nurl = \"{}\"\nkey_file = \"{}\"\n",
            db.url,
            team_key.display()
        ));
        Some(Self { db, fx, keys })
    }

    /// Replicas by `names`, each done with its first index pass.
    async fn indexed_replicas(&self, names: &[&str]) -> Vec<(Server, String)> {
        let replicas: Vec<(Server, String)> = names
            .iter()
            .map(|name| replica(&self.fx, name, &[]))
            .collect();
        for (_, url) in &replicas {
            let direct = client(url).await;
            wait_indexed(&direct).await;
            direct.cancel().await.unwrap();
        }
        replicas
    }
}

/// One MCP session through a round-robin balancer over `replicas`.
async fn balanced(replicas: &[(Server, String)]) -> (common::Client, RoundRobin) {
    let balancer = RoundRobin::new(replicas.iter().map(|(_, url)| url.clone()).collect());
    let transport = StreamableHttpClientTransport::with_client(
        balancer.clone(),
        StreamableHttpClientTransportConfig::with_uri("http://balancer/mcp").auth_header(TOKEN),
    );
    let session = ().serve(transport).await.expect("MCP handshake through the balancer");
    (session, balancer)
}

/// A team key file (64 hex digits, mode 0600) made from `byte`.
fn key_file(dir: &Path, name: &str, byte: u8) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    std::fs::write(&path, format!("{byte:02x}").repeat(32)).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    path
}

/// A replica of `fx`'s root as another machine would run it: its own index and state.db
/// (`--state-dir`), its own data directory (a per-user key team mode must not use), so
/// nothing reaches another replica but through PostgreSQL.
fn replica(fx: &Fixture, name: &str, store: &[&str]) -> (Server, String) {
    let state = fx.home.path().join(format!("state-{name}"));
    let mut command = fx.command(&["serve", "--http", "127.0.0.1:0", "--token", TOKEN]);
    command
        .arg("--state-dir")
        .arg(&state)
        .args(store)
        .env("XDG_DATA_HOME", fx.home.path().join(format!("data-{name}")));
    let (child, url) = serve_http(command);
    (Server(child), url)
}

async fn client(url: &str) -> common::Client {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(url).auth_header(TOKEN),
    );
    ().serve(transport).await.expect("MCP handshake over HTTP")
}

async fn ok(client: &common::Client, tool: &str, arguments: Value) -> Value {
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args(arguments)))
        .await
        .unwrap();
    let value = structured(&result);
    assert_ne!(result.is_error, Some(true), "{tool}: {value}");
    value
}

#[tokio::test]
async fn replicas_share_packs_and_memory_and_refuse_another_deployment_s_rows() {
    let Some(team) = Team::new() else { return };
    let fx = &team.fx;

    let (mut first, first_url) = replica(fx, "a", &[]);
    let (mut second, second_url) = replica(fx, "b", &[]);
    let a = client(&first_url).await;
    wait_indexed(&a).await;
    let b = client(&second_url).await;
    wait_indexed(&b).await;

    // A pack made through A pages through B, and what A showed B shows by reference.
    let found = ok(
        &a,
        "explore",
        json!({ "query": "answer config", "limits": { "maxResults": 1 } }),
    )
    .await;
    let pack = found["pack"]["packId"].as_str().unwrap().to_string();
    let cursor = found["next"]["itemsCursor"]
        .as_str()
        .unwrap_or_else(|| panic!("one result of several leaves a cursor: {found}"))
        .to_string();
    let page = ok(
        &b,
        "explore",
        json!({ "packId": pack, "cursor": { "items": cursor }, "limits": { "maxResults": 1 } }),
    )
    .await;
    assert_eq!(page["success"], true, "{page}");
    assert_eq!(page["query"], "answer config", "{page}");
    let again = ok(
        &b,
        "explore",
        json!({ "query": "answer config", "packId": pack, "limits": { "maxResults": 1 } }),
    )
    .await;
    assert_eq!(again["pack"]["hit"], true, "{again}");
    assert!(
        again["message"].as_str().unwrap().contains("by reference"),
        "{again}"
    );

    // A note remembered through B is recalled through A, as the best match.
    let kept = ok(
        &b,
        "manage",
        json!({ "command": "remember", "content": "Decided: the team cache keeps answers for a day", "tags": ["decision"] }),
    )
    .await;
    let note = kept["result"]["id"].as_str().unwrap().to_string();
    let recalled = ok(
        &a,
        "explore",
        json!({ "query": "how long does the team cache keep answers", "include": { "memory": true } }),
    )
    .await;
    assert_eq!(
        recalled["data"]["memory"]["index"][0]["id"],
        note.as_str(),
        "{recalled}"
    );
    let status = ok(&a, "manage", json!({ "command": "status" })).await;
    let events = status["result"]["memory"]["events"].as_u64().unwrap();
    assert!(events >= 3, "both replicas' events are counted: {status}");
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
    for child in [&mut first, &mut second] {
        child.kill();
    }
    assert!(
        !fx.path().join(".smart-context").exists(),
        "replicas keep their state under --state-dir, off the shared tree"
    );

    // A replica of another deployment (another key) on the same database sees neither.
    let other_key = key_file(team.keys.path(), "other.key", 0x11);
    let (mut third, third_url) = replica(fx, "c", &["--store-key", other_key.to_str().unwrap()]);
    let c = client(&third_url).await;
    wait_indexed(&c).await;
    let page = common::call(&c, "explore", json!({ "packId": pack })).await;
    assert_eq!(page.is_error, Some(true));
    assert!(
        common::text(&page).contains(&format!("no pack {pack}")),
        "another key's pack is missing: {}",
        common::text(&page)
    );
    let recalled = ok(
        &c,
        "explore",
        json!({ "query": "how long does the team cache keep answers", "include": { "memory": true } }),
    )
    .await;
    let index = recalled["data"]["memory"]["index"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        index.iter().all(|e| e["id"] != note.as_str()),
        "another key's note is never served: {recalled}"
    );
    c.cancel().await.unwrap();
    third.kill();
}

#[test]
fn team_mode_without_a_key_or_a_reachable_server_fails_at_start_with_the_reason() {
    let fx = Fixture::new();
    // Nothing listens on a port bound and released.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://team@127.0.0.1:{port}/shared");
    let out = fx
        .command(&[
            "--store",
            &url,
            "serve",
            "--http",
            "127.0.0.1:0",
            "--token",
            TOKEN,
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("[store] key_file"), "{err}");

    let keys = tempfile::tempdir().unwrap();
    let key = key_file(keys.path(), "team.key", 1);
    let started = std::time::Instant::now();
    let out = fx
        .command(&[
            "--store",
            &url,
            "--store-key",
            key.to_str().unwrap(),
            "serve",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains(&format!("team@127.0.0.1:{port}/shared")),
        "{err}"
    );
    assert!(
        started.elapsed() < std::time::Duration::from_secs(30),
        "a refused connection fails fast"
    );

    // A key others can read is refused, as ssh refuses such a private key.
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let out = fx
        .command(&[
            "--store",
            &url,
            "--store-key",
            key.to_str().unwrap(),
            "serve",
        ])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("chmod 600"), "{err}");
}

/// rmcp's HTTP client with every request sent to the next replica in turn, as a round-robin
/// load balancer with no session affinity would: the transport's own session id travels
/// with each one.
#[derive(Clone)]
struct RoundRobin {
    inner: reqwest::Client,
    urls: std::sync::Arc<Vec<String>>,
    next: std::sync::Arc<std::sync::atomic::AtomicUsize>,
    /// The replica each request went to, in order.
    log: std::sync::Arc<std::sync::Mutex<Vec<usize>>>,
}

impl RoundRobin {
    fn new(urls: Vec<String>) -> Self {
        Self {
            inner: reqwest::Client::new(),
            urls: std::sync::Arc::new(urls),
            next: Default::default(),
            log: Default::default(),
        }
    }

    fn pick(&self) -> std::sync::Arc<str> {
        let at = self.next.fetch_add(1, std::sync::atomic::Ordering::SeqCst) % self.urls.len();
        self.log.lock().unwrap().push(at);
        self.urls[at].as_str().into()
    }
}

type Headers = std::collections::HashMap<http::HeaderName, http::HeaderValue>;
type HttpError = rmcp::transport::streamable_http_client::StreamableHttpError<reqwest::Error>;

impl rmcp::transport::streamable_http_client::StreamableHttpClient for RoundRobin {
    type Error = reqwest::Error;

    async fn post_message(
        &self,
        _uri: std::sync::Arc<str>,
        message: rmcp::model::ClientJsonRpcMessage,
        session_id: Option<std::sync::Arc<str>>,
        auth_header: Option<String>,
        custom_headers: Headers,
    ) -> Result<rmcp::transport::streamable_http_client::StreamableHttpPostResponse, HttpError>
    {
        // A replica that refuses the connection, or closes it with no answer (killed, its
        // kept-alive connection dead), is skipped for the next, as haproxy's `retry-on
        // conn-failure empty-response` does: no live process got the request.
        let mut tries = self.urls.len();
        loop {
            let sent = self
                .inner
                .post_message(
                    self.pick(),
                    message.clone(),
                    session_id.clone(),
                    auth_header.clone(),
                    custom_headers.clone(),
                )
                .await;
            match sent {
                Err(rmcp::transport::streamable_http_client::StreamableHttpError::Client(e))
                    if (e.is_connect() || e.is_request()) && tries > 1 =>
                {
                    tries -= 1;
                }
                other => return other,
            }
        }
    }

    async fn delete_session(
        &self,
        _uri: std::sync::Arc<str>,
        session_id: std::sync::Arc<str>,
        auth_header: Option<String>,
        custom_headers: Headers,
    ) -> Result<(), HttpError> {
        self.inner
            .delete_session(self.pick(), session_id, auth_header, custom_headers)
            .await
    }

    async fn get_stream(
        &self,
        _uri: std::sync::Arc<str>,
        session_id: Option<std::sync::Arc<str>>,
        last_event_id: Option<String>,
        auth_header: Option<String>,
        custom_headers: Headers,
    ) -> Result<
        futures::stream::BoxStream<'static, Result<sse_stream::Sse, sse_stream::Error>>,
        HttpError,
    > {
        self.inner
            .get_stream(
                self.pick(),
                session_id,
                last_event_id,
                auth_header,
                custom_headers,
            )
            .await
    }
}

#[tokio::test]
async fn a_session_s_calls_land_on_any_replica_behind_a_round_robin_balancer() {
    let Some(team) = Team::new() else { return };
    let mut replicas = team.indexed_replicas(&["a", "b", "c"]).await;
    let (session, balancer) = balanced(&replicas).await;
    // The first call makes a pack on one replica; each later call, on the next replica,
    // names it and gets it back by reference.
    let mut pack: Option<String> = None;
    for round in 0..6 {
        let mut arguments = json!({ "query": "answer config", "limits": { "maxResults": 1 } });
        if let Some(id) = &pack {
            arguments["packId"] = json!(id);
        }
        let result = ok(&session, "explore", arguments).await;
        let id = result["pack"]["packId"].as_str().unwrap().to_string();
        if let Some(before) = &pack {
            assert_eq!(before, &id);
            assert_eq!(result["pack"]["hit"], true, "round {round}: {result}");
        }
        pack = Some(id);
    }
    let tools = session.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 5);
    let served: std::collections::BTreeSet<usize> =
        balancer.log.lock().unwrap().iter().copied().collect();
    assert_eq!(
        served.len(),
        3,
        "every replica served the session: {served:?}"
    );
    session.cancel().await.unwrap();
    for (child, _) in &mut replicas {
        child.kill();
    }
}

#[tokio::test]
async fn a_change_made_through_one_replica_is_undone_through_another_and_none_is_lost() {
    let Some(team) = Team::new() else { return };
    let fx = &team.fx;
    let mut replicas = team.indexed_replicas(&["a", "b", "c"]).await;
    let mut clients = Vec::new();
    for (_, url) in &replicas {
        let client = client(url).await;
        wait_indexed(&client).await;
        clients.push(client);
    }
    let original = fx.read("src/lib.rs").unwrap();

    // Applied through A, undone through B, redone through C.
    let applied = ok(&clients[0], "change", common::answer_edit()).await;
    let tx = applied["transactionId"].as_str().unwrap().to_string();
    let changed = fx.read("src/lib.rs").unwrap();
    assert_ne!(changed, original);
    ok(&clients[1], "manage", json!({ "command": "undo" })).await;
    assert_eq!(fx.read("src/lib.rs").unwrap(), original, "undone through B");
    ok(
        &clients[2],
        "manage",
        json!({ "command": "redo", "target": tx }),
    )
    .await;
    assert_eq!(fx.read("src/lib.rs").unwrap(), changed, "redone through C");

    // Twelve sessions' writes of distinct files and six racing edits of one line, spread over
    // the replicas at once: every write lands once, exactly one edit wins, none is doubled.
    let writes = (0..12).map(|i| {
        let client = &clients[i % 3];
        async move {
            common::call(
                client,
                "write",
                json!({ "intent": format!("note {i}"), "targetPath": format!("notes/{i}.txt"), "content": format!("note {i}\n") }),
            )
            .await
        }
    });
    let edits = (0..6).map(|i| {
        let client = &clients[i % 3];
        async move {
            common::call(
                client,
                "change",
                json!({
                    "intent": format!("race {i}"),
                    "edits": [{ "filePath": "src/lib.rs", "targetString": "    43\n", "replacementString": format!("    {}\n", 100 + i) }],
                    "options": { "dryRun": false },
                }),
            )
            .await
        }
    });
    let (writes, edits) = futures::join!(
        futures::future::join_all(writes),
        futures::future::join_all(edits)
    );
    for (i, result) in writes.iter().enumerate() {
        assert_ne!(
            result.is_error,
            Some(true),
            "write {i}: {}",
            common::text(result)
        );
        assert_eq!(
            fx.read(&format!("notes/{i}.txt")).unwrap(),
            format!("note {i}\n")
        );
    }
    let won: Vec<usize> = edits
        .iter()
        .enumerate()
        .filter(|(_, r)| r.is_error != Some(true))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(won.len(), 1, "exactly one racing edit wins: {won:?}");
    for (i, lost) in edits.iter().enumerate().filter(|(i, _)| *i != won[0]) {
        let code = lost
            .structured_content
            .as_ref()
            .and_then(|s| s["code"].as_str().map(str::to_string))
            .unwrap_or_else(|| panic!("edit {i} failed with a code: {}", common::text(lost)));
        assert_ne!(
            code,
            "STORE_ERROR",
            "edit {i} lost to the race, not to the store: {}",
            common::text(lost)
        );
    }
    let lib = fx.read("src/lib.rs").unwrap();
    assert!(lib.contains(&format!("    {}\n", 100 + won[0])), "{lib}");
    let history = ok(
        &clients[0],
        "manage",
        json!({ "command": "history", "limit": 50 }),
    )
    .await;
    // The change, its undo and redo, twelve writes and the winning edit: once each.
    assert_eq!(history["result"]["total"], 16, "{history}");
    let ids: std::collections::BTreeSet<&str> = history["result"]["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["transactionId"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), 16);
    for client in clients {
        client.cancel().await.unwrap();
    }
    for (child, _) in &mut replicas {
        child.kill();
    }
}

/// Cuts `db` off: no new connection is allowed and every open one is ended, as when the
/// database server goes away; `false` lets connections in again.
fn cut_off(db: &Database, cut: bool) {
    sql(
        &db.admin,
        &format!("ALTER DATABASE {} ALLOW_CONNECTIONS {}", db.name, !cut),
    );
    if cut {
        sql(
            &db.admin,
            &format!(
                "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '{}'",
                db.name
            ),
        );
    }
}

#[tokio::test]
async fn with_postgres_gone_reads_go_on_writes_refuse_with_the_reason_and_all_resumes() {
    let Some(team) = Team::new() else { return };
    let (db, fx) = (&team.db, &team.fx);
    let (mut server, url) = replica(fx, "a", &[]);
    let a = client(&url).await;
    wait_indexed(&a).await;
    ok(
        &a,
        "manage",
        json!({ "command": "remember", "content": "the installer runs twice" }),
    )
    .await;
    let original = fx.read("src/lib.rs").unwrap();

    cut_off(db, true);
    // Finding and reading answer from the local index, packs and all.
    let found = ok(&a, "explore", json!({ "query": "installer" })).await;
    assert_eq!(
        found["data"]["docs"][0]["filePath"], "docs/guide.md",
        "{found}"
    );
    let pack = found["pack"]["packId"].as_str().unwrap().to_string();
    let again = ok(
        &a,
        "explore",
        json!({ "query": "installer", "packId": pack }),
    )
    .await;
    assert_eq!(again["pack"]["hit"], true, "{again}");
    ok(&a, "explore", json!({ "paths": ["src/lib.rs"] })).await;
    ok(&a, "manage", json!({ "command": "status" })).await;
    // What needs the shared store says so, and writes nothing.
    let refused = common::fails(
        &a,
        "manage",
        json!({ "command": "remember", "content": "never kept" }),
    )
    .await;
    assert_eq!(refused["code"], "STORE_ERROR", "{refused}");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .contains("PostgreSQL at"),
        "{refused}"
    );
    let edit = common::answer_edit();
    let refused = common::fails(&a, "change", edit.clone()).await;
    assert_eq!(refused["code"], "STORE_ERROR", "{refused}");
    assert_eq!(fx.read("src/lib.rs").unwrap(), original, "nothing written");

    cut_off(db, false);
    // Back within the backoff: the next writes go through, undoable as ever.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let result = common::call(&a, "change", edit.clone()).await;
        if result.is_error != Some(true) {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the store never came back: {}",
            common::text(&result)
        );
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    assert_ne!(fx.read("src/lib.rs").unwrap(), original);
    ok(&a, "manage", json!({ "command": "undo" })).await;
    assert_eq!(fx.read("src/lib.rs").unwrap(), original);
    let recalled = ok(
        &a,
        "explore",
        json!({ "query": "does the installer run twice", "include": { "memory": true } }),
    )
    .await;
    assert!(
        recalled["data"]["memory"]["index"][0]["summary"]
            .as_str()
            .unwrap_or_default()
            .contains("installer runs twice"),
        "{recalled}"
    );
    a.cancel().await.unwrap();
    server.kill();
}

#[tokio::test]
async fn a_replica_killed_mid_session_costs_the_session_nothing_but_a_retry_packs_memory_and_undo_go_on()
 {
    let Some(team) = Team::new() else { return };
    let fx = &team.fx;
    let mut replicas = team.indexed_replicas(&["a", "b", "c"]).await;
    let (session, _) = balanced(&replicas).await;
    let first = ok(&session, "explore", json!({ "query": "answer config" })).await;
    let pack = first["pack"]["packId"].as_str().unwrap().to_string();
    ok(
        &session,
        "manage",
        json!({ "command": "remember", "content": "the balancer keeps going when a replica dies" }),
    )
    .await;
    let original = fx.read("src/lib.rs").unwrap();
    ok(&session, "change", common::answer_edit()).await;
    assert_ne!(fx.read("src/lib.rs").unwrap(), original);

    // The replica the session began on dies without a word.
    let (victim, _) = &mut replicas[0];
    victim.kill();
    for round in 0..6 {
        let again = ok(
            &session,
            "explore",
            json!({ "query": "answer config", "packId": pack }),
        )
        .await;
        assert_eq!(again["pack"]["hit"], true, "round {round}: {again}");
    }
    let recalled = ok(
        &session,
        "explore",
        json!({ "query": "what happens when a replica dies", "include": { "memory": true } }),
    )
    .await;
    assert!(
        recalled
            .to_string()
            .contains("keeps going when a replica dies"),
        "{recalled}"
    );
    ok(&session, "manage", json!({ "command": "undo" })).await;
    assert_eq!(
        fx.read("src/lib.rs").unwrap(),
        original,
        "the change made before the kill is undone by a survivor"
    );
    session.cancel().await.unwrap();
    for (child, _) in &mut replicas[1..] {
        child.kill();
    }
}
