//! A server that lives through a history answers as a fresh one would. One server is started
//! on a repository and kept running while the test walks it through a day of work: commits
//! checked out (files added, edited, renamed and deleted), edits applied, undone and redone
//! through the server, a branch switch that touches most files, an edit that keeps the size
//! and the mtime, and a cancelled rebuild. After each step, its answers (explore on a pasted
//! issue text and on short queries, understand's callers and outline, manage's counts) are
//! compared with those of a new server started on a copy of the same files: equal, or the
//! test names the step, the call and the first difference.

mod common;

use common::{Client, Fixture, call, connect, envelope, structured};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// How long the running server may take to catch up with a step (its watcher's pass).
const CATCH_UP: Duration = Duration::from_secs(30);

/// The issue text an agent pastes: prose, a traceback through three files, a quoted call.
const PASTED: &str = concat!(
    "Loading a config with an empty section crashes the loader.\n\n",
    "Traceback (most recent call last):\n",
    "  File \"app/cli.py\", line 12, in main\n",
    "    settings = load_settings(path)\n",
    "  File \"app/config.py\", line 20, in load_settings\n",
    "    return merge_sections(parse_sections(text))\n",
    "  File \"app/sections.py\", line 9, in merge_sections\n",
    "    merged.update(section.values)\n",
    "AttributeError: 'NoneType' object has no attribute 'values'\n\n",
    "Expected: an empty section is skipped, as the docs say for the [defaults] table. The ",
    "cache of parsed sections should not keep the broken entry either."
);

/// What each step asks both servers.
fn questions() -> Vec<(&'static str, Value)> {
    vec![
        ("explore", json!({ "query": PASTED })),
        ("explore", json!({ "query": "merge sections" })),
        ("explore", json!({ "query": "cache entries expire" })),
        (
            "explore",
            json!({ "query": "empty section", "paths": ["docs"] }),
        ),
        ("understand", json!({ "symbol": "merge_sections" })),
        ("understand", json!({ "path": "app/config.py" })),
        ("manage", json!({ "command": "status" })),
    ]
}

/// A Python project at one point of its history: `version` selects what the commits of the
/// test change (see `history`).
fn project(version: u32) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let merge = if version >= 2 {
        "merge_sections"
    } else {
        "combine_sections"
    };
    let mut add = |path: &str, text: String| {
        files.insert(path.to_string(), text);
    };
    add(
        "app/sections.py",
        format!(
            "\"\"\"Sections of a config file.\"\"\"\n\n\
             class Section:\n    def __init__(self, name, values):\n        self.name = name\n        self.values = values\n\n\n\
             def {merge}(sections):\n    merged = {{}}\n    for section in sections:\n        merged.update(section.values)\n    return merged\n\n\n\
             def parse_sections(text):\n    out = []\n    for block in text.split('['):\n        if block.strip():\n            out.append(Section(block, {{}}))\n    return out\n"
        ),
    );
    add(
        "app/config.py",
        format!(
            "from app.sections import {merge}, parse_sections\nfrom app.cache import remember\n\n\n\
             def read_text(path):\n    with open(path) as f:\n        return f.read()\n\n\n\
             @remember\ndef load_settings(path):\n    text = read_text(path)\n    return {merge}(parse_sections(text))\n{}",
            if version >= 3 {
                "\n\ndef reload_settings(path):\n    return load_settings(path)\n"
            } else {
                ""
            }
        ),
    );
    add(
        "app/cli.py",
        "import sys\n\nfrom app.config import load_settings\n\n\n\
         def main():\n    path = sys.argv[1]\n    settings = load_settings(path)\n    print(settings)\n"
            .to_string(),
    );
    // Renamed in version 2 (cache.py -> memo.py keeps the import path via a re-export).
    let cache = "\"\"\"A small cache: entries expire after a while.\"\"\"\n\n_entries = {}\n\n\n\
                 def remember(fn):\n    def wrapper(*args):\n        if args not in _entries:\n            _entries[args] = fn(*args)\n        return _entries[args]\n    return wrapper\n\n\n\
                 def expire():\n    _entries.clear()\n";
    if version >= 2 {
        add("app/memo.py", cache.to_string());
        add(
            "app/cache.py",
            "from app.memo import remember, expire\n".to_string(),
        );
    } else {
        add("app/cache.py", cache.to_string());
    }
    add(
        "docs/guide.md",
        format!(
            "# Guide\n\n## Sections\n\nAn empty section is skipped. The [defaults] table fills in missing values.\n\n## Cache\n\nParsed sections are cached; entries expire when the file changes.\n{}",
            if version >= 3 {
                "\n## Reload\n\nCall reload_settings to read the file again.\n"
            } else {
                ""
            }
        ),
    );
    if version < 3 {
        add(
            "docs/old-notes.md",
            "# Old notes\n\nSections used to be merged in reverse order.\n".to_string(),
        );
    }
    add(
        "tests/test_sections.py",
        format!(
            "from app.sections import {merge}, Section\n\n\n\
             def test_merge_keeps_later_values():\n    a = Section('a', {{'x': 1}})\n    b = Section('b', {{'x': 2}})\n    assert {merge}([a, b]) == {{'x': 2}}\n"
        ),
    );
    add(
        "README.md",
        "# app\n\nLoads settings from sectioned config files.\n".to_string(),
    );
    files
}

/// The branch that touches most files: every module gains a header and `values` is renamed.
fn wide(mut files: BTreeMap<String, String>) -> BTreeMap<String, String> {
    for (path, text) in files.iter_mut() {
        if path.ends_with(".py") {
            *text = format!(
                "# Part of app. Licensed under the MIT licence.\n{}",
                text.replace(".values", ".entries")
                    .replace("self.values = values", "self.entries = values")
            );
        }
    }
    files
}

fn git(root: &Path, args: &[&str]) {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["-c", "user.name=test", "-c", "user.email=test@example.com"])
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Makes the working tree hold exactly `files` (besides .git and the server's state).
fn write_tree(root: &Path, files: &BTreeMap<String, String>) {
    for entry in walk(root) {
        let rel = entry
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .to_string();
        if !files.contains_key(&rel) {
            std::fs::remove_file(&entry).unwrap();
        }
    }
    for (path, text) in files {
        let full = root.join(path);
        std::fs::create_dir_all(full.parent().unwrap()).unwrap();
        if std::fs::read_to_string(&full).ok().as_deref() != Some(text) {
            std::fs::write(full, text).unwrap();
        }
    }
}

/// Every file under `root`, but .git and .smart-context.
fn walk(root: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = entry.file_name();
            if name == ".git" || name == ".smart-context" {
                continue;
            }
            let path = entry.path();
            if entry.file_type().unwrap().is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The repository: v1, v2 and v3 on main, and the branch `wide` from v2.
fn history(fx: &Fixture) {
    let root = fx.path();
    git(root, &["init", "-q", "-b", "main"]);
    for version in 1..=3 {
        write_tree(root, &project(version));
        git(root, &["add", "-A"]);
        git(root, &["commit", "-q", "-m", &format!("v{version}")]);
        git(root, &["tag", &format!("v{version}")]);
        if version == 2 {
            git(root, &["checkout", "-q", "-b", "wide"]);
            write_tree(root, &wide(project(2)));
            git(root, &["add", "-A"]);
            git(root, &["commit", "-q", "-m", "wide"]);
            git(root, &["checkout", "-q", "main"]);
        }
    }
}

/// A copy of the fixture's files (its .git too: churn reads it), without the server's state.
fn copy_of(fx: &Fixture) -> Fixture {
    let copy = Fixture {
        dir: tempfile::tempdir().unwrap(),
        home: tempfile::tempdir().unwrap(),
    };
    copy_dir(fx.path(), copy.path());
    copy
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        if entry.file_name() == ".smart-context" {
            continue;
        }
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

/// An answer without what may differ between two servers of the same files: timings, pack
/// and cursor identities, the times of passes.
fn normalized(mut value: Value) -> Value {
    const VOLATILE: &[&str] = &[
        "elapsedMs",
        "packMs",
        "packId",
        "pack",
        "cursor",
        "next",
        "nextCursor",
        "lastIndexedMs",
        "lastModified",
        "createdMs",
        "expiresAt",
        "stats",
        "memory",
    ];
    fn strip(v: &mut Value) {
        match v {
            Value::Object(map) => {
                map.retain(|k, _| !VOLATILE.contains(&k.as_str()));
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

async fn answers(client: &Client) -> Vec<Value> {
    let mut out = Vec::new();
    for (tool, args) in questions() {
        let result = envelope(&call(client, tool, args).await);
        // Of status, the index: the store's history is the running server's own.
        let answer = match tool {
            "manage" => result["result"]["index"].clone(),
            _ => result,
        };
        out.push(normalized(answer));
    }
    out
}

/// The first place two JSON values differ, as a path and the two sides.
fn first_difference(a: &Value, b: &Value, at: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                first_difference(
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                    &format!("{at}.{k}"),
                )
            })
        }
        (Value::Array(x), Value::Array(y)) => (0..x.len().max(y.len())).find_map(|i| {
            first_difference(
                x.get(i).unwrap_or(&Value::Null),
                y.get(i).unwrap_or(&Value::Null),
                &format!("{at}[{i}]"),
            )
        }),
        _ if a == b => None,
        _ => Some(format!("{at}: running {a} / fresh {b}")),
    }
}

/// Compares the running server with a fresh one on a copy of the same files, giving the
/// running one [`CATCH_UP`] to see the step through its watcher.
async fn same_as_fresh(running: &Client, fx: &Fixture, step: &str) {
    let copy = copy_of(fx);
    let fresh = connect(&copy).await;
    let expected = answers(&fresh).await;
    fresh.cancel().await.unwrap();
    let started = Instant::now();
    loop {
        common::wait_indexed(running).await;
        let got = answers(running).await;
        let differences: Vec<String> = questions()
            .iter()
            .zip(got.iter().zip(&expected))
            .filter_map(|((tool, args), (g, e))| {
                first_difference(g, e, "").map(|d| format!("{tool} {args}: {d}"))
            })
            .collect();
        if differences.is_empty() {
            return;
        }
        assert!(
            started.elapsed() < CATCH_UP,
            "after {step}, the running server answers differently from a fresh one:\n{}",
            differences.join("\n")
        );
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

fn checkout(fx: &Fixture, what: &str) {
    git(fx.path(), &["checkout", "-q", what]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_that_lives_through_a_history_answers_as_a_fresh_one() {
    let fx = Fixture {
        dir: tempfile::tempdir().unwrap(),
        home: tempfile::tempdir().unwrap(),
    };
    history(&fx);
    checkout(&fx, "v1");
    let running = connect(&fx).await;
    same_as_fresh(&running, &fx, "the start at v1").await;

    // A commit that renames a function, moves a module and adds one.
    checkout(&fx, "v2");
    same_as_fresh(&running, &fx, "checking out v2").await;

    // An edit, its undo and its redo, through the running server.
    let edit = call(
        &running,
        "change",
        json!({
            "intent": "skip empty sections",
            "options": { "dryRun": false },
            "edits": [{
                "filePath": "app/sections.py",
                "targetString": "        merged.update(section.values)",
                "replacementString": "        if section.values:\n            merged.update(section.values)"
            }]
        }),
    )
    .await;
    let edit = structured(&edit);
    assert_ne!(edit["dryRun"], true, "the edit was applied: {edit}");
    same_as_fresh(&running, &fx, "a change applied").await;
    structured(&call(&running, "manage", json!({ "command": "undo" })).await);
    same_as_fresh(&running, &fx, "its undo").await;
    structured(&call(&running, "manage", json!({ "command": "redo" })).await);
    same_as_fresh(&running, &fx, "its redo").await;
    structured(&call(&running, "manage", json!({ "command": "undo" })).await);

    // A branch switch that touches most files, and back.
    checkout(&fx, "wide");
    same_as_fresh(
        &running,
        &fx,
        "switching to a branch that touches most files",
    )
    .await;
    checkout(&fx, "main");
    same_as_fresh(&running, &fx, "switching back to main (v3)").await;

    // An edit that keeps the file's size and mtime: racily clean, hashed again.
    let path = fx.path().join("app/cli.py");
    let before = std::fs::metadata(&path).unwrap().modified().unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replace("print(settings)", "print(sections)")).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(before)
        .unwrap();
    same_as_fresh(&running, &fx, "an edit keeping size and mtime").await;

    // Many new files, and a full rebuild the client cancels: the index finishes by itself.
    for i in 0..300 {
        fx.write(
            &format!("gen/module_{i:03}.py"),
            &format!("def generated_{i}(x):\n    return x + {i}\n"),
        );
    }
    common::wait_indexed(&running).await;
    let request = rmcp::model::ClientRequest::CallToolRequest(rmcp::model::CallToolRequest::new(
        rmcp::model::CallToolRequestParams::new("manage").with_arguments(common::args(
            json!({ "command": "rebuild", "scope": "full" }),
        )),
    ));
    let handle = running
        .peer()
        .send_request_with_option(request, Default::default())
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(150)).await;
    handle
        .cancel(Some("the test cancels".into()))
        .await
        .unwrap();
    same_as_fresh(&running, &fx, "a cancelled full rebuild").await;

    // A full rebuild that completes, then the edits of a working day on top of it.
    structured(
        &call(
            &running,
            "manage",
            json!({ "command": "rebuild", "scope": "full" }),
        )
        .await,
    );
    std::fs::remove_file(fx.path().join("gen/module_000.py")).unwrap();
    let cli = std::fs::read_to_string(fx.path().join("app/cli.py")).unwrap();
    fx.write("app/cli.py", &cli.replace("print(", "print(len("));
    same_as_fresh(&running, &fx, "edits after a full rebuild").await;

    running.cancel().await.unwrap();
}
