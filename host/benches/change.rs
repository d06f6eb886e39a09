//! change measured through the wasm pillar in process (`cargo bench -p smart-context --bench
//! change`), each against a native baseline run in the same process:
//! - a dry run of a 10-edit batch on a 10,000-line file (target <= 20 ms), against native
//!   find-and-replace of the same edits plus the unified diff (the irreducible work), also
//!   with a new replacement each call (the syntax guard reparses the file it has not seen);
//! - fuzzy matching on a 1 MB file, whitespace-only and full Levenshtein, with the match found
//!   and with nothing to find (the whole file scanned; target <= 200 ms), against one
//!   `str::find` pass over the file;
//! - applying a 10-file transaction (target <= 50 ms plus fsync time), against writing the same
//!   10 files natively the way the transaction does (temp file, fsync, rename, directory
//!   fsync): the difference is what journaling, checking and the pillar cost.

use smart_context::app::{self, OpenOptions};
use smart_context::workspace::Workspace;
use std::time::{Duration, Instant};

const RUNS: usize = 31;

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    std::fs::write(root.join("smart-context.toml"), "[index]\nwatch = false\n").unwrap();
    let big = code_file(10_000);
    std::fs::write(root.join("big.rs"), &big).unwrap();
    let mega = code_file(31_000);
    assert!(mega.len() >= 1 << 20, "{} bytes", mega.len());
    std::fs::write(root.join("mega.rs"), &mega).unwrap();
    for i in 0..10 {
        std::fs::create_dir_all(root.join("tx")).unwrap();
        std::fs::write(root.join(format!("tx/f{i}.rs")), code_file(200)).unwrap();
    }
    let runtime = app::open(&OpenOptions {
        root: root.to_path_buf(),
        ..OpenOptions::default()
    })
    .expect("opening the workspace");
    let report = runtime
        .services()
        .index
        .update(false, None)
        .expect("indexing");
    println!(
        "smart-context change benchmark ({} cores)\nindex: {report}\n",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let call = |args: &serde_json::Value| {
        let started = Instant::now();
        let out = runtime.call_tool("change", &args.to_string());
        (started.elapsed(), out)
    };

    // 1. Dry run of 10 edits spread over a 10,000-line file.
    let edits = spread_edits(1);
    let mut rows = Vec::new();
    for impact in [true, false] {
        let args = serde_json::json!({
            "intent": "bench", "edits": edits, "options": { "includeImpact": impact },
        });
        let ours = median(RUNS, || {
            let (t, out) = call(&args);
            out.expect("dry run");
            t
        });
        rows.push((
            format!("dry run, 10 edits, 10k lines, impact {impact}"),
            ours,
        ));
    }
    // The syntax guard reparses a planned file whose text it has not seen: a new replacement
    // each call is what each new edit costs (the first text of a file is parsed whole, later
    // ones incrementally from the last).
    let mut round = 1;
    let fresh = median(RUNS, || {
        round += 1;
        let edits = spread_edits(round);
        let args = serde_json::json!({
            "intent": "bench", "edits": edits, "options": { "includeImpact": true },
        });
        let (t, out) = call(&args);
        out.expect("dry run");
        t
    });
    rows.push((
        "dry run, 10 edits, 10k lines, impact true, new text each call (guard reparses)".into(),
        fresh,
    ));
    let native = median(RUNS, || {
        let started = Instant::now();
        let mut text = big.clone();
        for k in 0..10 {
            let n = 300 + k * 800;
            let target = format!("    let value_{n} = compute({n});\n");
            let at = text.find(&target).expect("target");
            assert!(text[at + 1..].find(&target).is_none());
            text.replace_range(
                at..at + target.len(),
                &format!("    let value_{n} = compute({n}) + 1;\n"),
            );
        }
        let diff = similar::TextDiff::from_lines(big.as_str(), text.as_str())
            .unified_diff()
            .to_string();
        std::hint::black_box(diff);
        started.elapsed()
    });
    report_rows("dry run", &rows, native, 20.0);

    // 2. Fuzzy matching on 1 MB: a target with drifted spacing inside tokens near the end, and
    // one that occurs nowhere (every window considered).
    let late = 25_000;
    let cases = [
        (
            "fuzzy whitespace-only, found",
            format!("let value_{late} = compute( {late} );"),
            serde_json::json!({ "enabled": true, "maxDistance": 5, "whitespaceOnly": true }),
        ),
        (
            "fuzzy levenshtein<=5, found",
            format!("let valeu_{late} = compute({late});"),
            serde_json::json!({ "enabled": true, "maxDistance": 5, "whitespaceOnly": false }),
        ),
        (
            "fuzzy levenshtein<=5, no match",
            "let nothing_like_this = anywhere(0);".to_string(),
            serde_json::json!({ "enabled": true, "maxDistance": 5, "whitespaceOnly": false }),
        ),
    ];
    let mut rows = Vec::new();
    for (name, target, fuzzy) in cases {
        let args = serde_json::json!({
            "intent": "bench",
            "edits": [{ "filePath": "mega.rs", "targetString": target, "replacementString": "let x = 0;", "fuzzy": fuzzy }],
            "options": { "includeImpact": false },
        });
        let ours = median(RUNS, || {
            let (t, out) = call(&args);
            if !name.ends_with("no match") {
                let out = out.expect("fuzzy match");
                assert_eq!(out.structured["correctedWith"], "fuzzy", "{name}");
            }
            t
        });
        rows.push((format!("{name} ({} KiB)", mega.len() >> 10), ours));
    }
    let scan = median(RUNS, || {
        let started = Instant::now();
        std::hint::black_box(mega.find("let nothing_like_this = anywhere(0);"));
        started.elapsed()
    });
    report_rows("fuzzy", &rows, scan, 200.0);

    // 3. Apply a 10-file transaction (one edit per file), flipping back and forth.
    let tx = |from: &str, to: &str| {
        let edits: Vec<serde_json::Value> = (0..10)
            .map(|i| {
                serde_json::json!({
                    "filePath": format!("tx/f{i}.rs"),
                    "targetString": from, "replacementString": to,
                })
            })
            .collect();
        serde_json::json!({ "intent": "bench apply", "edits": edits, "options": { "dryRun": false, "includeImpact": false } })
    };
    let (forward, back) = (
        tx("compute(100);", "compute(100 + 1);"),
        tx("compute(100 + 1);", "compute(100);"),
    );
    let mut flip = false;
    let ours = median(RUNS, || {
        flip = !flip;
        let (t, out) = call(if flip { &forward } else { &back });
        out.expect("apply");
        t
    });
    let ws = Workspace::open(root).unwrap();
    let contents: Vec<Vec<u8>> = (0..10)
        .map(|i| std::fs::read(root.join(format!("tx/f{i}.rs"))).unwrap())
        .collect();
    let writes = median(RUNS, || {
        let started = Instant::now();
        for (i, c) in contents.iter().enumerate() {
            ws.write_atomic(&format!("tx/f{i}.rs"), c).unwrap();
        }
        started.elapsed()
    });
    println!("apply");
    println!(
        "  {:<44} {:>8.2} ms",
        "apply, 10 files, 1 edit each",
        ms(ours)
    );
    println!(
        "  {:<44} {:>8.2} ms",
        "baseline: 10 atomic writes (fsync) natively",
        ms(writes)
    );
    let overhead = ms(ours) - ms(writes);
    println!(
        "  overhead beyond the writes: {overhead:.2} ms (target <= 50 ms plus fsync time: {})",
        if overhead <= 50.0 { "met" } else { "NOT met" }
    );
}

/// A Rust-looking file of `lines` lines, every statement unique.
/// Ten edits spread over `big.rs`, each adding `plus` to a line's value.
fn spread_edits(plus: usize) -> Vec<serde_json::Value> {
    (0..10)
        .map(|k| {
            let n = 300 + k * 800;
            serde_json::json!({
                "filePath": "big.rs",
                "targetString": format!("    let value_{n} = compute({n});\n"),
                "replacementString": format!("    let value_{n} = compute({n}) + {plus};\n"),
            })
        })
        .collect()
}

fn code_file(lines: usize) -> String {
    let mut s = String::from("//! Generated for the change benchmark.\n\npub fn run() {\n");
    let (mut n, mut count) = (0, 3);
    while count < lines - 1 {
        s.push_str(&format!("    let value_{n} = compute({n});\n"));
        count += 1;
        if n % 20 == 19 {
            s.push_str("    if check() {\n        report();\n    }\n");
            count += 3;
        }
        n += 1;
    }
    s.push_str("}\n");
    s
}

fn median(runs: usize, mut f: impl FnMut() -> Duration) -> Duration {
    f(); // warm-up
    let mut times: Vec<Duration> = (0..runs).map(|_| f()).collect();
    times.sort();
    times[runs / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn report_rows(title: &str, rows: &[(String, Duration)], baseline: Duration, target_ms: f64) {
    println!("{title}");
    for (name, t) in rows {
        println!(
            "  {name:<44} {:>8.2} ms  {:>7.1}x baseline  (target <= {target_ms} ms: {})",
            ms(*t),
            ms(*t) / ms(baseline).max(0.001),
            if ms(*t) <= target_ms {
                "met"
            } else {
                "NOT met"
            }
        );
    }
    println!(
        "  {:<44} {:>8.2} ms",
        "baseline (native, same process)",
        ms(baseline)
    );
}
