//! What the sandbox's bounds and checks cost (`cargo bench -p smart-context --bench security`):
//! - explore with a 1 MB and a 12 MB query, sent by a raw JSON-RPC client to the release binary
//!   over stdio (the tree indexed beforehand by `smart-context index`): the answer's time and
//!   the server's peak RSS (VmHWM) after each, against the same server's peak after a one-word
//!   query (must be cut or refused quickly, RSS < 200 MB);
//! - the path authority: `Workspace::read` of every file of a generated tree (links resolved
//!   hop by hop, no-follow opens, regular-file check) against a plain cap-std read of the same
//!   files, and against a full index pass over the tree: the overhead per file and as a share
//!   of indexing;
//! - explore's query call in process, with the authority on its reads (previews), as context.

use serde_json::{Value, json};
use smart_context::app::{self, OpenOptions};
use smart_context::workspace::{ReadOptions, Workspace};
use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_smart-context");
const FILES: usize = 2_000;
const RUNS: usize = 15;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("root");
    for i in 0..FILES {
        let path = root.join(format!("pkg{}/mod{}/file{i}.rs", i % 20, i % 7));
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, code(i)).unwrap();
    }
    let config = dir.path().join("operator.toml");
    std::fs::write(&config, "[index]\nwatch = false\n").unwrap();
    println!(
        "smart-context security benchmark (medians of {RUNS}; {} cores)\n",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    huge_queries(&root, &config, dir.path());
    path_authority(&root, &config, dir.path());
}

fn code(i: usize) -> String {
    (0..40)
        .map(|k| format!("pub fn item_{i}_{k}(x: u32) -> u32 {{\n    x + {k}\n}}\n"))
        .collect()
}

/// The release binary over stdio, a raw JSON-RPC client: each query's time and the peak RSS.
fn huge_queries(root: &std::path::Path, config: &std::path::Path, home: &std::path::Path) {
    // Index first, in a process of its own, so the server's peak is the queries' and not the
    // indexing pass's (tantivy's writer buffer).
    let indexed = std::process::Command::new(BIN)
        .arg("--root")
        .arg(root)
        .arg("--config")
        .arg(config)
        .arg("index")
        .env("XDG_DATA_HOME", home.join("data"))
        .output()
        .expect("indexing");
    assert!(indexed.status.success(), "{indexed:?}");
    let mut child = std::process::Command::new(BIN)
        .arg("--root")
        .arg(root)
        .arg("--config")
        .arg(config)
        .arg("serve")
        .env("XDG_DATA_HOME", home.join("data"))
        .env("SMART_CONTEXT_LOG", "error")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("the release binary");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = std::io::BufReader::new(child.stdout.take().unwrap());
    let mut next_id = 0;
    let mut request = |method: &str, params: Value| -> (Duration, Value) {
        next_id += 1;
        let line = json!({ "jsonrpc": "2.0", "id": next_id, "method": method, "params": params });
        let started = Instant::now();
        stdin.write_all(format!("{line}\n").as_bytes()).unwrap();
        stdin.flush().unwrap();
        loop {
            let mut answer = String::new();
            if stdout.read_line(&mut answer).unwrap() == 0 {
                panic!("the server exited");
            }
            let v: Value = serde_json::from_str(&answer).unwrap();
            if v["id"] == next_id {
                return (started.elapsed(), v);
            }
        }
    };
    request(
        "initialize",
        json!({ "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": { "name": "bench", "version": "0" } }),
    );
    // The first pass indexes the tree; wait for it so every query sees the same index.
    loop {
        let (_, v) = request(
            "tools/call",
            json!({ "name": "manage", "arguments": { "command": "status" } }),
        );
        if v["result"]["structuredContent"]["result"]["index"]["state"] == "fresh" {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let explore = |query: String| json!({ "name": "explore", "arguments": { "query": query } });
    let (t, _) = request("tools/call", explore("item_7_3".into()));
    let base = peak_rss_mib(pid);
    println!("huge queries (stdio, release binary, {FILES} files indexed)");
    println!(
        "  one-word query               {:>9.1} ms  peak RSS {base:>6.1} MiB",
        ms(t)
    );
    for (label, bytes) in [("1 MB query", 1 << 20), ("12 MB query", 12 << 20)] {
        let words: String = (0..)
            .map(|i| format!("word{} ", i % 50_021))
            .take_while({
                let mut len = 0;
                move |w: &String| {
                    len += w.len();
                    len <= bytes
                }
            })
            .collect();
        let (t, v) = request("tools/call", explore(words));
        let outcome = if v["error"].is_object() {
            format!("refused: {}", v["error"]["message"].as_str().unwrap_or(""))
        } else {
            let s = &v["result"]["structuredContent"];
            format!("{} {}", s["status"], s["reasons"])
        };
        println!(
            "  {label:<28} {:>9.1} ms  peak RSS {:>6.1} MiB  ({outcome})",
            ms(t),
            peak_rss_mib(pid)
        );
    }
    drop(stdin);
    let _ = child.kill();
    let _ = child.wait();
    println!();
}

/// The authority's reads against plain cap-std reads of the same files, and a full pass.
fn path_authority(root: &std::path::Path, config: &std::path::Path, home: &std::path::Path) {
    let ws = Workspace::open(root).unwrap();
    let files: Vec<String> = ws
        .walk(".", 16, FILES * 2, None)
        .unwrap()
        .0
        .into_iter()
        .map(|e| e.path)
        .collect();
    let options = ReadOptions {
        max_bytes: 1 << 20,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: false,
    };
    let dir = cap_std::fs::Dir::open_ambient_dir(root, cap_std::ambient_authority()).unwrap();
    // Interleaved, so both see the same page cache and machine load.
    let mut ours = Vec::new();
    let mut plain = Vec::new();
    for _ in 0..RUNS {
        let started = Instant::now();
        for f in &files {
            std::hint::black_box(ws.read(f, options).unwrap());
        }
        ours.push(started.elapsed());
        let started = Instant::now();
        for f in &files {
            let bytes = dir.read(f).unwrap();
            std::hint::black_box(blake3::hash(&bytes));
        }
        plain.push(started.elapsed());
    }
    let (ours, plain) = (median(ours), median(plain));
    let per_file_us = (ours.as_secs_f64() - plain.as_secs_f64()) * 1e6 / files.len() as f64;
    println!("path authority ({} files)", files.len());
    println!(
        "  Workspace::read, every file   {:>9.1} ms  ({:.1} µs per file)",
        ms(ours),
        ours.as_secs_f64() * 1e6 / files.len() as f64
    );
    println!(
        "  cap-std read + hash (baseline){:>9.1} ms  -> authority overhead {per_file_us:.1} µs per file ({:.2}x)",
        ms(plain),
        ours.as_secs_f64() / plain.as_secs_f64()
    );
    let runtime = app::open(&OpenOptions {
        root: root.to_path_buf(),
        config: Some(config.to_path_buf()),
        builtin_plugins: None,
        embedded_plugins: &[],
        data_dir: Some(home.join("data")),
        state_dir: None,
        ..OpenOptions::default()
    })
    .unwrap();
    let index = runtime.services().index.clone();
    let pass = median(
        (0..3)
            .map(|_| {
                let started = Instant::now();
                index.update(true, None).unwrap();
                started.elapsed()
            })
            .collect(),
    );
    println!(
        "  full index pass               {:>9.1} ms  -> authority share {:.1}%",
        ms(pass),
        100.0 * per_file_us * files.len() as f64 / 1e3 / ms(pass)
    );
    let explore = median(
        (0..RUNS)
            .map(|_| {
                let started = Instant::now();
                runtime
                    .call_tool("explore", r#"{"query": "item_7_3 x"}"#)
                    .unwrap();
                started.elapsed()
            })
            .collect(),
    );
    println!(
        "  explore query in process      {:>9.1} ms  (previews read {} files through the authority: ~{:.2} ms of it)",
        ms(explore),
        6,
        6.0 * per_file_us / 1e3
    );
}

fn peak_rss_mib(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map_or(0.0, |kb| kb / 1024.0)
}

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}
