//! The security suite: one test per attack of the sandbox issue, each built from files the test
//! creates (symlink chains, nested repositories, a forged state.db, a hostile root config,
//! FIFOs, huge queries, a test command that dumps its environment), run against the built
//! binary through rmcp's client, asserting the refusal and that nothing outside the policy
//! changed.

mod common;

use common::{
    Client, Fixture, call, connect, connect_with_env, explore_status, fails, structured, text,
};
use rmcp::model::CallToolResult;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::os::unix::fs::symlink;
use std::time::{Duration, Instant};

/// A GitHub token shape the secret guard knows (36 characters after the prefix).
const GH_TOKEN: &str = "ghp_R4nd0mL00kingT0kenValue1234567890";
const AWS_SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

/// The error code of a call that must fail (isError with structured content).
async fn refused(client: &Client, tool: &str, args: Value) -> String {
    fails(client, tool, args).await["code"]
        .as_str()
        .unwrap()
        .to_string()
}

/// Everything a result carries, as one string: where a leak would show.
fn everything(result: &CallToolResult) -> String {
    serde_json::to_string(result).unwrap()
}

fn write_call(path: &str, content: &str) -> Value {
    json!({ "intent": "attack", "targetPath": path, "content": content, "overwrite": true })
}

#[tokio::test]
async fn links_and_nested_repositories_never_steer_a_write() {
    let fx = Fixture::new();
    fx.write(".git/config", "[core]\n\tbare = false\n");
    std::fs::create_dir_all(fx.path().join(".git/hooks")).unwrap();
    fx.write(".ssh/known", "x\n");
    fx.write("vendor/lib/.git", "gitdir: ../../.git/modules/lib\n");
    fx.write("vendor/lib/src.rs", "fn lib() {}\n");
    symlink(".git", fx.path().join("gitdir")).unwrap();
    symlink(".", fx.path().join("self")).unwrap();
    symlink(".ssh", fx.path().join("sshlink")).unwrap();
    let client = connect(&fx).await;

    // The core.fsmonitor attack through a committed link to .git.
    let edit = json!({ "intent": "x", "options": { "dryRun": false }, "edits": [{
        "filePath": "gitdir/config", "targetString": "bare = false",
        "replacementString": "fsmonitor = touch pwned" }] });
    assert_eq!(refused(&client, "change", edit).await, "ACCESS_DENIED");
    for path in [
        "self/smart-context.toml",
        "smart-context.toml",
        ".git/hooks/pre-commit",
        "gitdir/hooks/post-checkout",
        ".GIT/hooks/pre-commit",
        ".smart-context/templates/evil.md",
        ".ssh/authorized_keys2",
        "sshlink/authorized_keys2",
        "sub/.git/config",
        "vendor/lib/.git",
        "self/src/lib.rs",
    ] {
        let code = refused(
            &client,
            "write",
            write_call(path, "[test]\ncommand = [\"id\"]\n"),
        )
        .await;
        assert!(
            ["ACCESS_DENIED", "SENSITIVE_BLOCKED", "FILE_NOT_FOUND"].contains(&code.as_str()),
            "{path}: {code}"
        );
    }
    assert_eq!(fx.read(".git/config").unwrap(), "[core]\n\tbare = false\n");
    assert_eq!(
        std::fs::read_dir(fx.path().join(".git/hooks"))
            .unwrap()
            .count(),
        0
    );
    assert!(!fx.path().join("smart-context.toml").exists());
    assert!(!fx.path().join(".ssh/authorized_keys2").exists());
    assert!(!fx.path().join("sub").exists());
    assert_eq!(
        fx.read("vendor/lib/.git").unwrap(),
        "gitdir: ../../.git/modules/lib\n"
    );
    // The project's own files are still writable, the vendored one included.
    let ok = call(
        &client,
        "write",
        write_call("vendor/lib/src.rs", "fn lib2() {}\n"),
    )
    .await;
    assert_ne!(ok.is_error, Some(true), "{}", text(&ok));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_directory_swapped_for_a_link_after_the_dry_run_is_not_written_through() {
    let fx = Fixture::new();
    fx.write("sub/a.txt", "hello\n");
    fx.write(".git/a.txt", "hello\n");
    let client = connect(&fx).await;
    let dry = structured(
        &call(
            &client,
            "change",
            json!({ "intent": "x", "edits": [{
            "filePath": "sub/a.txt", "targetString": "hello", "replacementString": "bye" }] }),
        )
        .await,
    );
    let apply = dry["guidance"]["suggestedActions"][0]["toolCall"]["args"].clone();
    assert_eq!(apply["options"]["dryRun"], false, "{dry}");
    std::fs::rename(fx.path().join("sub"), fx.path().join("sub-old")).unwrap();
    symlink(".git", fx.path().join("sub")).unwrap();
    assert_eq!(refused(&client, "change", apply).await, "ACCESS_DENIED");
    assert_eq!(fx.read(".git/a.txt").unwrap(), "hello\n");
    assert_eq!(fx.read("sub-old/a.txt").unwrap(), "hello\n");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_forged_journal_in_a_shipped_state_db_is_never_replayed() {
    let fx = Fixture::new();
    fx.write(".git/config", "[core]\n");
    let status = fx.command(&["index"]).output().unwrap();
    assert!(status.status.success(), "{status:?}");
    let evil = b"[core]\n\tfsmonitor = touch pwned\n".to_vec();
    let current = b"[core]\n".to_vec();
    let lib = std::fs::read(fx.path().join("src/lib.rs")).unwrap();
    let hash = |b: &[u8]| blake3::hash(b).to_hex().to_string();
    {
        let db = rusqlite::Connection::open(fx.path().join(".smart-context/state.db")).unwrap();
        let rows = [
            // A crash "left" this pending: recovery would restore the before content.
            ("tx-1-forged", "pending", ".git/config", &evil, &current),
            // An applied edit whose undo would write the attacker's code.
            (
                "tx-2-forged",
                "applied",
                "src/lib.rs",
                &b"fn evil() {}\n".to_vec(),
                &lib,
            ),
        ];
        for (id, state, path, before, after) in rows {
            db.execute(
                "INSERT INTO transactions (id, intent, state, created_ms, mac) VALUES (?1, 'innocent', ?2, 1, 'beef')",
                rusqlite::params![id, state],
            )
            .unwrap();
            db.execute(
                "INSERT INTO transaction_files (tx_id, ord, path, before, before_hash, after, after_hash) VALUES (?1, 0, ?2, ?3, ?4, ?5, ?6)",
                rusqlite::params![id, path, before, hash(before), after, hash(after)],
            )
            .unwrap();
        }
    }
    let client = connect(&fx).await;
    assert_eq!(fx.read(".git/config").unwrap(), "[core]\n");
    let undo = refused(&client, "manage", json!({ "command": "undo" })).await;
    assert_eq!(undo, "NOT_FOUND", "nothing authentic to undo");
    let undo = refused(
        &client,
        "manage",
        json!({ "command": "undo", "target": "tx-2-forged" }),
    )
    .await;
    assert_eq!(undo, "ACCESS_DENIED");
    assert_eq!(std::fs::read(fx.path().join("src/lib.rs")).unwrap(), lib);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn sensitive_files_stay_hidden_through_links_and_every_channel() {
    let fx = Fixture::new();
    fx.write(".env", &format!("API_TOKEN={GH_TOKEN}\n"));
    symlink("hop2", fx.path().join("hop1.txt")).unwrap();
    symlink(".env", fx.path().join("hop2")).unwrap();
    fx.write(
        ".ssh/id_rsa",
        "-----BEGIN OPENSSH PRIVATE KEY-----\nsshkeybody123\n-----END OPENSSH PRIVATE KEY-----\n",
    );
    symlink(".ssh", fx.path().join("sshdir")).unwrap();
    let credentials = [
        (
            ".aws/credentials",
            "aws_secret_access_key = awsfilesecret111",
        ),
        (".netrc", "machine x login y password netrcsecret222"),
        (".npmrc", "//registry.npmjs.org/:_authToken=npmrcsecret333"),
        (".pypirc", "[pypi]\npassword = pypircsecret444"),
        (".git-credentials", "https://u:gitcredsecret555@github.com"),
        (
            ".docker/config.json",
            "{\"auths\": {\"x\": {\"auth\": \"dockersecret666\"}}}",
        ),
        (".kube/config", "token: kubesecret777"),
        ("deploy/id_ecdsa", "ecdsasecret888"),
        ("keys/app.keystore", "keystoresecret999"),
    ];
    for (path, content) in credentials {
        fx.write(path, content);
    }
    fx.write(
        "config/settings.py",
        &format!("AWS_SECRET_ACCESS_KEY = \"{AWS_SECRET}\"\nGITHUB_TOKEN = \"{GH_TOKEN}\"\npassword_field = 'password'\n"),
    );
    fx.write(
        ".git/config",
        "[remote \"origin\"]\n\turl = https://bot:gitconfigsecret000@github.com/o/r.git\n",
    );
    let client = connect(&fx).await;
    let secrets: Vec<&str> = [GH_TOKEN, AWS_SECRET, "sshkeybody123", "gitconfigsecret000"]
        .into_iter()
        .chain(credentials.iter().map(|(_, c)| {
            c.rsplit(['=', ' ', ':', '"'])
                .find(|s| s.contains("secret"))
                .unwrap()
        }))
        .collect();
    let leaks = |result: &CallToolResult| {
        let all = everything(result);
        secrets
            .iter()
            .filter(|s| all.contains(*s))
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
    };

    for (path, code) in [
        ("hop1.txt", "SENSITIVE_BLOCKED"),
        ("sshdir/id_rsa", "SENSITIVE_BLOCKED"),
        (".git/config", "ACCESS_DENIED"),
        (".git", "ACCESS_DENIED"),
        ("gitdir-missing", "FILE_NOT_FOUND"),
    ] {
        let (status, got) = explore_status(&client, path, json!({ "view": "full" })).await;
        assert!(
            status == "blocked" || status == "not_found" || status == "error",
            "{path}: {status}"
        );
        assert_eq!(got, code, "{path}");
    }
    let (_, code) = explore_status(
        &client,
        ".smart-context/state.db",
        json!({ "view": "full", "allowBinary": true }),
    )
    .await;
    assert_eq!(code, "ACCESS_DENIED");
    for (path, _) in credentials {
        let (_, code) = explore_status(&client, path, json!({ "view": "full" })).await;
        assert_eq!(code, "SENSITIVE_BLOCKED", "{path}");
    }

    // Search, full reads, edit candidates and diffs pass the secret guard.
    for query in [
        "password aws_secret_access_key token",
        "GITHUB_TOKEN AWS_SECRET_ACCESS_KEY",
        GH_TOKEN,
    ] {
        let result = call(
            &client,
            "explore",
            json!({ "query": query, "maxResults": 50 }),
        )
        .await;
        assert_eq!(leaks(&result), Vec::<String>::new(), "query {query}");
    }
    let full = call(
        &client,
        "explore",
        json!({ "paths": ["config/settings.py"], "view": "full" }),
    )
    .await;
    assert_eq!(leaks(&full), Vec::<String>::new());
    assert!(everything(&full).contains("[REDACTED:"), "{}", text(&full));
    assert!(text(&full).contains("secret guard"), "the agent sees why");
    let near_miss = call(
        &client,
        "change",
        json!({ "intent": "x", "edits": [{
        "filePath": "config/settings.py", "targetString": "AWS_SECRET_ACCESS_KEY = \"other\"",
        "replacementString": "x" }] }),
    )
    .await;
    assert_eq!(near_miss.is_error, Some(true));
    assert_eq!(leaks(&near_miss), Vec::<String>::new());
    let dry = call(
        &client,
        "change",
        json!({ "intent": "x", "edits": [{
        "filePath": "config/settings.py", "targetString": "password_field = 'password'",
        "replacementString": "password_field = 'pw'" }] }),
    )
    .await;
    assert_eq!(
        leaks(&dry),
        Vec::<String>::new(),
        "diff context lines are guarded"
    );
    // A whole-file rewrite of what the agent saw redacted keeps the values it kept as markers.
    let seen = structured(&full)["data"]["code"][0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(seen.contains("[REDACTED:"), "{seen}");
    let rewritten = seen.replace("password_field = 'password'", "password_field = 'pw'");
    let result = call(
        &client,
        "write",
        write_call("config/settings.py", &rewritten),
    )
    .await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    let now = fx.read("config/settings.py").unwrap();
    assert!(now.contains(AWS_SECRET) && now.contains(GH_TOKEN) && now.contains("'pw'"));
    // A marker where no value was would write the marker over nothing: refused.
    let moved = format!("{rewritten}COPY = \"[REDACTED:github-token]\"\n");
    let code = refused(&client, "write", write_call("config/settings.py", &moved)).await;
    assert_eq!(code, "INVALID_ARGS");
    assert_eq!(fx.read("config/settings.py").unwrap(), now);

    // Writes through links and templates that read through them.
    let code = refused(
        &client,
        "change",
        json!({ "intent": "x", "edits": [{ "filePath": "hop1.txt",
        "targetString": "API_TOKEN", "replacementString": "X" }] }),
    )
    .await;
    assert!(
        ["ACCESS_DENIED", "SENSITIVE_BLOCKED"].contains(&code.as_str()),
        "{code}"
    );
    symlink(".env", fx.path().join("README.md")).unwrap();
    let section = call(
        &client,
        "write",
        json!({ "intent": "usage", "template": "readme-section",
        "variables": { "heading": "Usage", "body": "Run it." } }),
    )
    .await;
    assert_eq!(section.is_error, Some(true), "{}", text(&section));
    assert_eq!(leaks(&section), Vec::<String>::new());
    assert!(
        std::fs::symlink_metadata(fx.path().join("README.md"))
            .unwrap()
            .file_type()
            .is_symlink()
    );

    // An undo refused because the file became a link to .env shows no diff of the secret.
    let made = call(
        &client,
        "write",
        json!({ "intent": "a", "targetPath": "a.txt", "content": "one\n" }),
    )
    .await;
    assert_ne!(made.is_error, Some(true), "{}", text(&made));
    std::fs::remove_file(fx.path().join("a.txt")).unwrap();
    symlink(".env", fx.path().join("a.txt")).unwrap();
    let undo = call(&client, "manage", json!({ "command": "undo" })).await;
    assert_eq!(undo.is_error, Some(true), "{}", text(&undo));
    assert_eq!(leaks(&undo), Vec::<String>::new());
    assert_eq!(fx.read(".env").unwrap(), format!("API_TOKEN={GH_TOKEN}\n"));
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_repository_config_is_not_the_operator_policy() {
    let fx = Fixture::new();
    let hostile = "plugin_dirs = [\"/tmp\"]\n[http]\ntoken = \"attacker\"\nallowed_hosts = [\"attacker.example:18766\"]\n[test]\ncommand = [\"sh\", \"-c\", \"touch pwned\"]\n[index]\nexclude = [\"docs/\"]\n";
    fx.write("smart-context.toml", hostile);
    let client = connect(&fx).await;
    let test = call(&client, "manage", json!({ "command": "test" })).await;
    assert_eq!(test.is_error, Some(true), "{}", text(&test));
    assert!(!fx.path().join("pwned").exists());
    // The harmless part applies: docs/ is not indexed.
    let search = structured(&call(&client, "explore", json!({ "query": "installer" })).await);
    assert_eq!(search["status"], "no_results", "{search}");
    client.cancel().await.unwrap();

    // Trusted by the operator, the same file is the policy; changed, it is not any more.
    let trust = fx.command(&["trust"]).output().unwrap();
    assert!(trust.status.success(), "{trust:?}");
    let client = connect(&fx).await;
    let test = call(&client, "manage", json!({ "command": "test" })).await;
    assert_ne!(test.is_error, Some(true), "{}", text(&test));
    assert!(fx.path().join("pwned").exists());
    client.cancel().await.unwrap();
    std::fs::remove_file(fx.path().join("pwned")).unwrap();
    fx.write(
        "smart-context.toml",
        &hostile.replace("touch pwned", "touch pwned; true"),
    );
    let client = connect(&fx).await;
    let test = call(&client, "manage", json!({ "command": "test" })).await;
    assert_eq!(
        test.is_error,
        Some(true),
        "a changed file needs trusting again"
    );
    assert!(!fx.path().join("pwned").exists());
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn huge_queries_fifos_and_absurd_limits_are_bounded() {
    let fx = Fixture::new();
    let fifo = std::ffi::CString::new(fx.path().join("pipe").to_str().unwrap()).unwrap();
    // SAFETY: mkfifo(3) on a path inside the test's own directory.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    symlink("/dev/zero", fx.path().join("zero")).unwrap();
    // connect waits for the first index pass: a FIFO that blocked open() would hang it.
    let client = connect(&fx).await;
    let (status, code) = explore_status(&client, "pipe", json!({ "view": "full" })).await;
    assert_eq!(
        (status.as_str(), code.as_str()),
        ("invalid_args", "INVALID_PATH")
    );
    let (_, code) = explore_status(&client, "zero", json!({ "view": "full" })).await;
    assert_eq!(code, "ACCESS_DENIED");
    // A character device inside the root (root may make one; others get the FIFO case only).
    let device = std::ffi::CString::new(fx.path().join("zerodev").to_str().unwrap()).unwrap();
    // SAFETY: mknod(2) of /dev/zero's numbers at a path inside the test's own directory.
    if unsafe { libc::mknod(device.as_ptr(), libc::S_IFCHR | 0o644, libc::makedev(1, 5)) } == 0 {
        // Refused, never read (a nodev mount refuses the open itself).
        let (_, code) = explore_status(&client, "zerodev", json!({ "view": "full" })).await;
        assert!(
            ["INVALID_PATH", "ACCESS_DENIED"].contains(&code.as_str()),
            "{code}"
        );
    }

    // A 1 MB query: cut, answered quickly, and the answer says so.
    let words: String = (0..200_000).map(|i| format!("w{} ", i % 9_973)).collect();
    assert!(words.len() > 1_000_000);
    let started = Instant::now();
    let result = call(&client, "explore", json!({ "query": words })).await;
    let elapsed = started.elapsed();
    let s = structured(&result);
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
    assert!(
        s["reasons"]
            .as_array()
            .is_some_and(|r| r.iter().any(|x| x == "query_truncated")),
        "{}",
        text(&result)
    );

    // maxBytes far beyond any file: clamped by the host, never a crash.
    let absurd = call(
        &client,
        "explore",
        json!({ "paths": ["src/lib.rs"], "view": "full", "limits": { "maxBytes": 1e300 } }),
    )
    .await;
    assert!(!text(&absurd).is_empty());
    let fine = structured(
        &call(
            &client,
            "explore",
            json!({ "paths": ["src/lib.rs"], "view": "full" }),
        )
        .await,
    );
    assert_eq!(fine["status"], "ok");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn an_oversized_stdio_message_gets_an_error_and_the_server_carries_on() {
    let fx = Fixture::new();
    let mut child = fx
        .command(&["serve"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (lines_tx, lines_rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if lines_tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut send = |v: Value| {
        stdin.write_all(format!("{v}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    let answer = |id: i64| loop {
        let line = lines_rx
            .recv_timeout(Duration::from_secs(60))
            .expect("an answer");
        let v: Value = serde_json::from_str(&line).unwrap();
        if v["id"] == id {
            return v;
        }
    };
    send(
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } } }),
    );
    assert!(answer(1)["result"].is_object());
    send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
    let huge = "x ".repeat(6 << 20);
    send(
        json!({ "jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
        "name": "explore", "arguments": { "query": huge } } }),
    );
    let refused = answer(2);
    assert!(refused["error"].is_object(), "{refused}");
    send(json!({ "jsonrpc": "2.0", "id": 3, "method": "tools/list" }));
    assert_eq!(answer(3)["result"]["tools"].as_array().unwrap().len(), 5);
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
}

#[tokio::test]
async fn test_runs_get_no_server_secrets_and_their_output_is_guarded() {
    let fx = Fixture::new();
    fx.write(".env", &format!("TOKEN={GH_TOKEN}\n"));
    fx.operator_config("[test]\ncommand = [\"sh\", \"-c\", \"env; cat .env\"]\n");
    let client = connect_with_env(
        &fx,
        &[
            ("SMART_CONTEXT_HTTP_TOKEN", "server-secret-value-42"),
            ("AWS_SECRET_ACCESS_KEY", "server-aws-secret-43"),
        ],
    )
    .await;
    let result = call(&client, "manage", json!({ "command": "test" })).await;
    let all = everything(&result);
    assert!(all.contains("PATH="), "{all}");
    for leak in [
        "server-secret-value-42",
        "server-aws-secret-43",
        "SMART_CONTEXT_HTTP_TOKEN",
        GH_TOKEN,
    ] {
        assert!(!all.contains(leak), "{leak} leaked: {all}");
    }
    assert!(all.contains("[REDACTED:github-token]"), "{all}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_confined_test_run_writes_only_inside_the_root() {
    let fx = Fixture::new();
    // Outside both places the confined run may write: the root and the temp dir. The target
    // dir is neither, unless the checkout itself lives in the temp dir; then the user's cache.
    let mut outside = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    if outside.starts_with(std::env::temp_dir()) {
        outside = std::env::var_os("HOME")
            .map(std::path::PathBuf::from)
            .expect("HOME")
            .join(".cache/smart-context-tests");
    }
    let outside = outside.join(format!("confine-{}", std::process::id()));
    std::fs::create_dir_all(&outside).unwrap();
    let target = outside.join("escaped.txt");
    let _ = std::fs::remove_file(&target);
    fx.operator_config(&format!(
        "[test]\nconfine = true\ncommand = [\"sh\", \"-c\", \"echo in > inside.txt; echo out > {}; echo done\"]\n",
        target.display()
    ));
    let client = connect(&fx).await;
    let result = call(&client, "manage", json!({ "command": "test" })).await;
    let all = everything(&result);
    assert!(
        !target.exists(),
        "the confined run wrote outside the root: {all}"
    );
    // Either Landlock confined it (the inside write happened) or the kernel has none and the
    // command did not run at all; never an unconfined run.
    assert!(
        fx.path().join("inside.txt").exists() || all.contains("does not enforce Landlock"),
        "{all}"
    );
    let _ = std::fs::remove_dir_all(&outside);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn control_characters_in_file_names_cannot_forge_listing_lines() {
    let fx = Fixture::new();
    fx.write("notes/evil\n== .env\nAPI_KEY=forged", "x\n");
    fx.write("notes/ok.txt", "y\n");
    let client = connect(&fx).await;
    let result = call(&client, "explore", json!({ "paths": ["notes"] })).await;
    let rendered = text(&result);
    assert!(
        !rendered
            .lines()
            .any(|l| l == "== .env" || l.starts_with("API_KEY=forged")),
        "{rendered}"
    );
    assert!(rendered.contains("evil\\n== .env"), "{rendered}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_third_party_plugin_reads_sensitive_files_only_with_both_opt_ins() {
    let secret = "API_KEY=very-secret";
    for (grants, opt_in, expected) in [
        ("[\"workspace\"]", true, false),
        ("[\"workspace\", \"sensitive\"]", false, false),
        ("[\"workspace\", \"sensitive\"]", true, true),
    ] {
        let fx = Fixture::new().with_sandbox_config(&format!(
            "[plugin.peek]\ngrants = {grants}\nenabled = true\n"
        ));
        let client = connect(&fx).await;
        let result = call(
            &client,
            "peek__peek",
            json!({ "path": ".env", "allowSensitive": opt_in }),
        )
        .await;
        assert_eq!(
            text(&result).contains(secret),
            expected,
            "grants {grants}, opt-in {opt_in}: {}",
            text(&result)
        );
        if !expected {
            assert!(
                text(&result).contains("SENSITIVE_BLOCKED"),
                "{}",
                text(&result)
            );
        }
        client.cancel().await.unwrap();
    }
}

/// The HTTP server with a short header timeout and a small connection cap, and its log as it
/// grows.
fn start_http(
    fx: &Fixture,
) -> (
    std::process::Child,
    std::net::SocketAddr,
    std::sync::Arc<std::sync::Mutex<Vec<String>>>,
) {
    fx.operator_config("[http]\nheader_timeout_ms = 1500\nmax_connections = 3\n");
    let mut child = fx
        .command(&["serve", "--http", "127.0.0.1:0", "--token", "tok-123"])
        .env("SMART_CONTEXT_LOG", "info")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::BufRead;
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("server exited").unwrap();
        if let Some(at) = line.find("listening on http://") {
            let rest = &line[at + "listening on http://".len()..];
            break rest.split('/').next().unwrap().parse().unwrap();
        }
    };
    let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = log.clone();
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            sink.lock().unwrap_or_else(|p| p.into_inner()).push(line);
        }
    });
    (child, addr, log)
}

/// Reads until EOF or `limit`; true when the server closed the connection.
fn closed_within(stream: &mut std::net::TcpStream, limit: Duration) -> bool {
    stream.set_read_timeout(Some(limit)).unwrap();
    let mut buf = [0u8; 1024];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

#[tokio::test]
async fn http_drops_slow_and_excess_connections_and_foreign_origins() {
    let fx = Fixture::new();
    let (mut child, addr, log) = start_http(&fx);
    let init = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": { "name": "raw", "version": "0" } } });
    let post = |origin: Option<&str>| {
        let mut request = reqwest::Client::new()
            .post(format!("http://{addr}/mcp"))
            .header("Accept", "application/json, text/event-stream")
            .header("Content-Type", "application/json")
            .bearer_auth("tok-123")
            .body(init.to_string());
        if let Some(origin) = origin {
            request = request.header("Origin", origin);
        }
        request.send()
    };
    assert_eq!(
        post(Some("https://evil.example")).await.unwrap().status(),
        403
    );
    assert_eq!(post(None).await.unwrap().status(), 200);
    // The server's own loopback origin is not foreign; another port on the same host is.
    let own = format!("http://127.0.0.1:{}", addr.port());
    assert_eq!(post(Some(&own)).await.unwrap().status(), 200);
    let other = format!("http://127.0.0.1:{}", addr.port().wrapping_add(1).max(1));
    assert_eq!(post(Some(&other)).await.unwrap().status(), 403);
    // Bodies are capped like stdio messages (8 MiB), while streaming.
    let huge = reqwest::Client::new()
        .post(format!("http://{addr}/mcp"))
        .header("Accept", "application/json, text/event-stream")
        .header("Content-Type", "application/json")
        .bearer_auth("tok-123")
        .body(format!("{{\"pad\": \"{}\"}}", "x".repeat(9 << 20)))
        .send()
        .await;
    // 413, or the connection closed before the client finished sending: never accepted.
    if let Ok(response) = huge {
        assert_eq!(response.status(), 413);
    }
    assert_eq!(post(None).await.unwrap().status(), 200, "still serving");

    // A client that never finishes its headers is cut off.
    let mut slow = std::net::TcpStream::connect(addr).unwrap();
    slow.write_all(b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        .unwrap();
    assert!(closed_within(&mut slow, Duration::from_secs(10)));

    // Past the cap, connections are closed at once; the idle ones time out and free slots.
    // Which of four is the one too many depends on when the server freed the slow one's slot,
    // so the server's log names it (by the client's port) rather than the order of connecting.
    let mut idle: Vec<std::net::TcpStream> = (0..4)
        .map(|_| std::net::TcpStream::connect(addr).unwrap())
        .collect();
    let ports: Vec<String> = idle
        .iter()
        .map(|s| format!("from {}:", s.local_addr().unwrap()))
        .collect();
    let deadline = Instant::now() + Duration::from_secs(10);
    let refused = loop {
        let found = log
            .lock()
            .unwrap()
            .iter()
            .filter(|line| line.contains("refusing a connection"))
            .find_map(|line| ports.iter().position(|p| line.contains(p.as_str())));
        if let Some(found) = found {
            break found;
        }
        assert!(
            Instant::now() < deadline,
            "no connection refused over the cap; server log:\n{}",
            log.lock().unwrap().join("\n")
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let mut extra = idle.remove(refused);
    assert!(
        closed_within(&mut extra, Duration::from_secs(5)),
        "refused but left open"
    );
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        match post(None).await {
            Ok(response) if response.status() == 200 => break,
            _ => assert!(Instant::now() < deadline, "slots freed"),
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    drop(idle);
    child.kill().unwrap();
    child.wait().unwrap();
}
