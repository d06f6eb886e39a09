//! The index, measured on a real tree (run `scripts/bench-index.sh`, which fetches the corpus
//! and then runs `cargo bench -p smart-context --bench index`): a full index (files/s, MB/s,
//! symbols/s, index size, peak RSS), an incremental pass with nothing changed, query latency
//! p50/p99 for fixed identifier and phrase queries against ripgrep on the same tree in the
//! same run, and how long a written file takes to become searchable through the watcher.

use smart_context::app::{self, OpenOptions};
use smart_context::index::fulltext::SearchRequest;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Identifier queries (as an agent types them) and quoted phrases.
const QUERIES: &[&str] = &[
    "get_queryset",
    "QuerySet",
    "HttpResponseRedirect",
    "ForeignKey",
    "render_to_string",
    "validate_email",
    "select_related",
    "csrf_token",
    "spawn_blocking",
    "IndexWriter",
    "\"class Meta\"",
    "\"def __init__\"",
    "\"return self\"",
    "\"impl Drop for\"",
];

fn main() {
    let Some(root) = std::env::var_os("SMART_CONTEXT_BENCH_CORPUS") else {
        eprintln!(
            "set SMART_CONTEXT_BENCH_CORPUS to a tree to index (scripts/bench-index.sh does)"
        );
        return;
    };
    let root = Path::new(&root).to_path_buf();
    let state = root.join(".smart-context");
    let _ = std::fs::remove_dir_all(&state);
    let options = OpenOptions {
        root: root.clone(),
        ..OpenOptions::default()
    };
    let runtime = app::open(&options).expect("opening the corpus");
    let index = runtime.services().index.clone();
    println!(
        "smart-context index benchmark on {} ({} cores)\n",
        root.display(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    // Subtrees to time on their own first (the script names the Django sdist, whose full
    // index has its own target), each with its own state directory.
    if let Some(subdirs) = std::env::var_os("SMART_CONTEXT_BENCH_SUBTREES") {
        for sub in subdirs
            .to_string_lossy()
            .split(',')
            .filter(|s| !s.is_empty())
        {
            let sub_root = root.join(sub);
            let _ = std::fs::remove_dir_all(sub_root.join(".smart-context"));
            let runtime = app::open(&OpenOptions {
                root: sub_root,
                ..OpenOptions::default()
            })
            .expect("opening the subtree");
            let report = runtime.services().index.update(true, None).unwrap();
            println!("full index of {sub}: {report}");
            println!("                   phases (ms): {:?}\n", report.phase_ms);
        }
    }

    let report = index.update(true, None).expect("full index");
    let secs = report.seconds;
    let files = report.indexed_total();
    println!("full index:        {report}");
    println!("                   phases (ms): {:?}", report.phase_ms);
    println!(
        "                   {:.0} files/s, {:.1} MB/s, {:.0} symbols/s, {:.0} chunks/s",
        files as f64 / secs,
        report.bytes as f64 / 1e6 / secs,
        report.symbols as f64 / secs,
        report.chunks as f64 / secs
    );
    println!(
        "index size:        {:.1} MB tantivy + {:.1} MB state.db (corpus read: {:.1} MB)",
        dir_size(&state.join("index")) as f64 / 1e6,
        (dir_size(&state) - dir_size(&state.join("index"))) as f64 / 1e6,
        report.bytes as f64 / 1e6
    );
    println!("peak RSS:          {:.0} MB", peak_rss_kb() as f64 / 1024.0);
    let noop = median(5, || {
        let t = Instant::now();
        index.update(false, None).unwrap();
        t.elapsed()
    });
    println!(
        "incremental, no change: {:>7.1} ms (median of 5)\n",
        ms(noop)
    );

    // Queries: warm, then many runs each; ripgrep on the same tree, same query, same run.
    println!(
        "{:<24} {:>9} {:>9} {:>9} {:>10} {:>8}",
        "query", "hits", "p50 ms", "p99 ms", "rg p50 ms", "rg/ours"
    );
    let mut all = Vec::new();
    let mut ratios = Vec::new();
    for query in QUERIES {
        let request = SearchRequest {
            query: query.to_string(),
            limit: 20,
            ..Default::default()
        };
        let mut total = 0;
        for _ in 0..5 {
            total = index.search(&request).unwrap().total;
        }
        let mut samples: Vec<Duration> = (0..100)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(index.search(&request).unwrap());
                t.elapsed()
            })
            .collect();
        samples.sort();
        all.extend(samples.iter().copied());
        let literal = query.trim_matches('"');
        let rg = median(5, || {
            let t = Instant::now();
            let status = Command::new("rg")
                .args([
                    "-i",
                    "-F",
                    "--no-messages",
                    "-g",
                    "!.smart-context",
                    literal,
                ])
                .arg(&root)
                .stdout(std::process::Stdio::null())
                .status()
                .expect("ripgrep (rg) must be installed: scripts/bench-index.sh installs it");
            assert!(status.code().is_some_and(|c| c <= 1));
            t.elapsed()
        });
        let p50 = percentile(&samples, 50);
        ratios.push(rg.as_secs_f64() / p50.as_secs_f64());
        println!(
            "{:<24} {:>9} {:>9.3} {:>9.3} {:>10.1} {:>7.0}x",
            query,
            total,
            ms(p50),
            ms(percentile(&samples, 99)),
            ms(rg),
            rg.as_secs_f64() / p50.as_secs_f64()
        );
    }
    all.sort();
    ratios.sort_by(f64::total_cmp);
    println!(
        "all queries:             p50 {:.3} ms, p99 {:.3} ms; slowest ratio to rg {:.0}x, median {:.0}x\n",
        ms(percentile(&all, 50)),
        ms(percentile(&all, 99)),
        ratios[0],
        ratios[ratios.len() / 2]
    );

    // Freshness: the watcher must make a written file searchable.
    index.start_background();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !index.status().watching || index.status().state != "fresh" {
        assert!(Instant::now() < deadline, "the watcher did not start");
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut lags: Vec<Duration> = Vec::new();
    for i in 0..10 {
        let token = format!("freshnessprobe{i}token");
        let file = root.join(format!("bench_fresh_{i}.py"));
        let t = Instant::now();
        std::fs::write(&file, format!("def {token}():\n    pass\n")).unwrap();
        let request = SearchRequest {
            query: token,
            limit: 1,
            ..Default::default()
        };
        while index.search(&request).unwrap().hits.is_empty() {
            assert!(
                t.elapsed() < Duration::from_secs(30),
                "never became searchable"
            );
            std::thread::sleep(Duration::from_millis(1));
        }
        lags.push(t.elapsed());
        std::fs::remove_file(&file).unwrap();
        std::thread::sleep(Duration::from_millis(300));
    }
    lags.sort();
    println!(
        "written file searchable after: p50 {:.0} ms, max {:.0} ms (10 files, watcher + incremental pass)",
        ms(percentile(&lags, 50)),
        ms(*lags.last().unwrap())
    );
    println!(
        "peak RSS at the end: {:.0} MB",
        peak_rss_kb() as f64 / 1024.0
    );
}

fn percentile(sorted: &[Duration], p: usize) -> Duration {
    sorted[(sorted.len() * p / 100).min(sorted.len() - 1)]
}

fn median(n: usize, mut f: impl FnMut() -> Duration) -> Duration {
    let mut samples: Vec<Duration> = (0..n).map(|_| f()).collect();
    samples.sort();
    samples[n / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn dir_size(path: &Path) -> u64 {
    std::fs::read_dir(path)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| match e.metadata() {
                    Ok(m) if m.is_dir() => dir_size(&e.path()),
                    Ok(m) => m.len(),
                    Err(_) => 0,
                })
                .sum()
        })
        .unwrap_or(0)
}

/// VmHWM: the most resident memory this process has had.
fn peak_rss_kb() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1).map(|v| v.parse().unwrap_or(0)))
        })
        .unwrap_or(0)
}
