//! understand with a real SCIP index: `rust-analyzer scip` (the rustup component .ci/run
//! installs) indexes a small crate, and the server, already running, takes call targets from
//! it; an edit after the index falls back to its own resolution for that file, and a new
//! index is picked up without a restart. With the operator's `[scip] command`, the server
//! runs the indexer itself whenever the files are newer than the index.

mod common;

use common::{Fixture, call, connect, structured};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// `shut` calls `Reader::close` on what a closure makes of each reader, which the host does
/// not follow (a plain `for r in readers` it types), and `close` has two definitions: the
/// host's own resolution can only guess between them.
const LIB: &str = "pub struct Reader;
pub struct Writer;

impl Reader {
    pub fn close(&self) {}
}

impl Writer {
    pub fn close(&self) {}
}

pub fn shut(readers: &[Reader]) {
    for r in readers.iter().map(|r| r) {
        r.close();
    }
    let v: Vec<u8> = Vec::new();
    drop(v);
}
";

/// The edit both tests make: the writers are shut too, through another loop's binding.
const SHUT_READERS: &str = "        r.close();\n    }\n";
const SHUT_BOTH: &str =
    "        r.close();\n    }\n    for w in [Writer] {\n        w.close();\n    }\n";

fn fixture() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    fx.write("src/lib.rs", LIB);
    fx
}

/// Runs rust-analyzer's SCIP indexer at the fixture's root (index.scip), offline.
fn index_with_rust_analyzer(fx: &Fixture) {
    // Sleep past the filesystem's mtime granularity: the index must be newer than the files.
    std::thread::sleep(Duration::from_millis(20));
    let out = std::process::Command::new("rust-analyzer")
        .args(["scip", "."])
        .current_dir(fx.path())
        .env("CARGO_NET_OFFLINE", "true")
        .output()
        .expect("rust-analyzer runs (.ci/run installs the rustup component)");
    assert!(
        out.status.success() && fx.path().join("index.scip").is_file(),
        "rust-analyzer scip failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `shut`'s direct callees, sorted (callee, confidence), and how many possible (name-only)
/// callees it has; none while the index catches up with a file written under it (the
/// watcher may read it mid-write, truncated, and the answer is NOT_INDEXED until the next
/// pass reads it whole).
async fn callees_of_shut(client: &common::Client) -> Option<(Vec<(String, String)>, usize)> {
    let answer = call(
        client,
        "understand",
        json!({ "path": "src/lib.rs", "symbol": "shut", "depth": "shallow" }),
    )
    .await;
    if answer.is_error == Some(true) {
        let text = format!("{:?}", answer.content);
        assert!(text.contains("NOT_INDEXED"), "tool failed: {text}");
        return None;
    }
    let r = structured(&answer);
    let graph = &r["callGraph"];
    let mut links: Vec<(String, String)> = graph["callees"]
        .as_array()
        .unwrap_or_else(|| panic!("no callees in {r:#}"))
        .iter()
        .filter(|l| l["caller"] == "src/lib.rs#shut")
        .map(|l: &Value| {
            (
                l["callee"].as_str().unwrap().to_string(),
                l["confidence"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let possible = graph["possibleCallees"].as_array().map_or(0, Vec::len);
    links.sort();
    Some((links, possible))
}

/// Links resolved through the index to the `close` methods of `types`, sorted.
fn through_the_index(types: &[&str]) -> Vec<(String, String)> {
    let mut links: Vec<(String, String)> = types
        .iter()
        .map(|t| (format!("src/lib.rs#{t}.close"), "scip".to_string()))
        .collect();
    links.sort();
    links
}

/// Asks until `wanted` holds (the index follows the edit and the graphs follow the index).
/// The deadline leaves room for a cold `rust-analyzer scip` on a fresh 2-core machine, two of
/// them at once: a run of `.ci/run` on a new machine went past 90 s waiting for the first
/// (seconds when warm).
async fn eventually(
    client: &common::Client,
    what: &str,
    wanted: impl Fn(&(Vec<(String, String)>, usize)) -> bool,
) -> (Vec<(String, String)>, usize) {
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let got = callees_of_shut(client).await;
        if let Some(got) = got.as_ref().filter(|g| wanted(g)) {
            return got.clone();
        }
        assert!(Instant::now() < deadline, "{what}: {got:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn call_targets_come_from_a_real_scip_index_while_it_describes_the_files() {
    let fx = fixture();
    let client = connect(&fx).await;
    common::wait_indexed(&client).await;

    // Without an index: a guess between the two closes.
    let (links, guessed) = callees_of_shut(&client)
        .await
        .expect("indexed: the first pass is done");
    assert!(links.is_empty(), "{links:?}");
    assert_eq!(guessed, 2, "both closes are possible by name only");

    // With one, written while the server runs: the compiler's answer, and std's calls none.
    index_with_rust_analyzer(&fx);
    let scip = through_the_index(&["Reader"]);
    let got = eventually(&client, "the index is used", |(l, _)| *l == scip).await;
    assert_eq!(got.1, 0, "nothing left to guess");

    // An edit after the index: the file resolves on its own again, never by stale lines.
    let edited = call(
        &client,
        "change",
        json!({
            "intent": "shut the writer too",
            "edits": [{
                "filePath": "src/lib.rs",
                "targetString": SHUT_READERS,
                "replacementString": SHUT_BOTH,
            }],
            "options": { "dryRun": false },
        }),
    )
    .await;
    assert_eq!(structured(&edited)["success"], true, "{edited:?}");
    eventually(&client, "the edited file falls back", |(l, p)| {
        l.is_empty() && *p == guessed
    })
    .await;

    // A new index describes the edit: both closes, each the right one.
    index_with_rust_analyzer(&fx);
    let both = through_the_index(&["Reader", "Writer"]);
    eventually(&client, "the new index is used", |(l, _)| *l == both).await;
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_operator_s_indexer_command_keeps_the_index_fresh() {
    let fx = fixture();
    fx.operator_config(
        "[scip]\ncommand = [\"rust-analyzer\", \"scip\", \".\"]\nmin_interval_ms = 0\nenv = [\"RUSTUP_TOOLCHAIN\", \"CARGO_NET_OFFLINE\"]\n",
    );
    let client = connect(&fx).await;
    common::wait_indexed(&client).await;

    // No index at the start: the server runs the indexer after its first pass.
    let scip = through_the_index(&["Reader"]);
    eventually(&client, "the indexer ran", |(l, _)| *l == scip).await;
    assert!(fx.path().join("index.scip").is_file());

    // An edit makes the index stale: it runs again, and the edit's call resolves through it.
    std::fs::write(
        fx.path().join("src/lib.rs"),
        LIB.replace(SHUT_READERS, SHUT_BOTH),
    )
    .unwrap();
    let both = through_the_index(&["Reader", "Writer"]);
    eventually(&client, "the indexer ran again", |(l, _)| *l == both).await;
    client.cancel().await.unwrap();
}
