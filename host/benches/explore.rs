//! explore measured on the index benchmark's corpus (run `scripts/bench-explore.sh`, which
//! fetches the corpus like the index bench and then runs `cargo bench -p smart-context --bench
//! explore`): latency of explore(query) warm (p50/p99, in process through the wasm pillar),
//! the size of a default response, what re-asking with the packId costs against the first
//! call, and the characters returned until the right file is in view against a
//! grep-then-read baseline (ripgrep on the same tree, same run), for queries written for it.

use smart_context::app::{self, OpenOptions};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// A question as an agent would ask it, and the file that answers it (a path suffix).
const QUERIES: &[(&str, &str)] = &[
    ("get_object_or_404", "django/shortcuts.py"),
    ("csrf token middleware", "django/middleware/csrf.py"),
    ("ForeignKey on_delete", "django/db/models/fields/related.py"),
    ("validate_email", "django/core/validators.py"),
    ("render_to_string", "django/template/loader.py"),
    ("select_related", "django/db/models/query.py"),
    ("HttpResponseRedirect", "django/http/response.py"),
    ("password hasher pbkdf2", "django/contrib/auth/hashers.py"),
    ("paginator page range", "django/core/paginator.py"),
    ("slugify", "django/utils/text.py"),
    // Short questions from the issues of shared/eval (the development set), as an agent
    // would put them after reading the issue.
    ("Q combine Exists", "django/db/models/query_utils.py"),
    (
        "deserialize_db_from_string",
        "django/db/backends/base/creation.py",
    ),
    ("iter_modules_and_files", "django/utils/autoreload.py"),
    ("method_decorator partial", "django/utils/decorators.py"),
    (
        "MessageEncoder extra_tags",
        "django/contrib/messages/storage/cookie.py",
    ),
    ("spawn_blocking", "tokio-1.54.1/src/task/blocking.rs"),
    (
        "IndexWriter commit",
        "tantivy-0.27.0/src/indexer/index_writer.rs",
    ),
    (
        "component Linker instantiate",
        "src/runtime/component/linker.rs",
    ),
    ("dense DFA", "regex-automata-0.4.18/src/dfa/dense.rs"),
];

const RUNS: usize = 20;
/// Pages followed at most when looking for the right file.
const MAX_PAGES: usize = 10;

fn main() {
    let Some(root) = std::env::var_os("SMART_CONTEXT_BENCH_CORPUS") else {
        eprintln!(
            "set SMART_CONTEXT_BENCH_CORPUS to a tree to index (scripts/bench-explore.sh does)"
        );
        return;
    };
    let root = Path::new(&root).to_path_buf();
    let runtime = app::open(&OpenOptions {
        root: root.clone(),
        ..OpenOptions::default()
    })
    .expect("opening the corpus");
    let report = runtime
        .services()
        .index
        .update(false, None)
        .expect("indexing");
    // The graphs built, as in a session that has been running a moment: explore weighs a
    // file's centrality once they exist.
    let graphs = Instant::now();
    runtime
        .services()
        .analysis
        .snapshot()
        .expect("building the graphs");
    let graphs = graphs.elapsed();
    println!(
        "smart-context explore benchmark on {} ({} cores)\nindex: {report}\ngraphs built in {graphs:.1?}\n",
        root.display(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let call = |args: serde_json::Value| -> (serde_json::Value, usize, usize) {
        let out = runtime
            .call_tool("explore", &args.to_string())
            .expect("explore call");
        let json = out.structured.to_string().len();
        (out.structured, json, out.text.len())
    };

    println!(
        "{:<32} {:>7} {:>7} {:>7} {:>7} {:>8} {:>9} {:>9} {:>9}",
        "query", "p50 ms", "p99 ms", "json", "text", "re-ask", "to file", "rg", "rg+read"
    );
    let mut all = Vec::new();
    let mut sizes = Vec::new();
    let mut savings = Vec::new();
    let (mut ours_total, mut rg_total, mut rg_read_total) = (0usize, 0usize, 0usize);
    let mut found_count = 0;
    for (query, answer) in QUERIES {
        let args = serde_json::json!({ "query": query });
        call(args.clone()); // warm: the summary cache and the OS page cache
        let mut times = Vec::with_capacity(RUNS);
        let mut first = (serde_json::Value::Null, 0, 0);
        for _ in 0..RUNS {
            let started = Instant::now();
            first = call(args.clone());
            times.push(started.elapsed());
        }
        all.extend(times.iter().copied());
        let (p50, p99) = (percentile(&mut times, 0.5), percentile(&mut times, 0.99));
        let (response, json, text) = first;
        sizes.push(json);
        // Re-asking with the packId: what was shown comes back by reference.
        let pack = response["pack"]["packId"].as_str().unwrap().to_string();
        let (_, again, _) = call(serde_json::json!({ "query": query, "packId": pack }));
        savings.push(1.0 - again as f64 / json as f64);
        // Characters until the right file is in view: a fresh pack, then its pages.
        let (mut page, mut chars) = {
            let (r, n, _) = call(args.clone());
            (r, n)
        };
        let mut in_view = None;
        for _ in 0..MAX_PAGES {
            if mentions(&page, answer) {
                in_view = Some(chars);
                break;
            }
            let Some(cursor) = page["next"]["itemsCursor"].as_str().map(str::to_string) else {
                break;
            };
            let (r, n, _) =
                call(serde_json::json!({ "packId": pack, "cursor": { "items": cursor } }));
            page = r;
            chars += n;
        }
        let (rg_chars, file_chars) = grep_baseline(&root, query, answer);
        if let Some(n) = in_view {
            found_count += 1;
            ours_total += n;
            rg_total += rg_chars;
            rg_read_total += rg_chars + file_chars;
        }
        println!(
            "{:<32} {:>7.1} {:>7.1} {:>7} {:>7} {:>7.0}% {:>9} {:>9} {:>9}",
            query,
            ms(p50),
            ms(p99),
            json,
            text,
            100.0 * savings.last().unwrap(),
            in_view.map_or("not found".to_string(), |n| n.to_string()),
            rg_chars,
            rg_chars + file_chars
        );
    }
    let (p50, p99) = (percentile(&mut all, 0.5), percentile(&mut all, 0.99));
    sizes.sort_unstable();
    savings.sort_by(f64::total_cmp);
    println!(
        "\nall queries: p50 {:.1} ms, p99 {:.1} ms ({} calls); default response {} chars median, {} max",
        ms(p50),
        ms(p99),
        all.len(),
        sizes[sizes.len() / 2],
        sizes.last().unwrap()
    );
    println!(
        "re-ask with packId: {:.0}% fewer chars median, {:.0}% least",
        100.0 * savings[savings.len() / 2],
        100.0 * savings[0]
    );
    println!(
        "right file in view for {found_count}/{} queries: explore {ours_total} chars, \
         rg {rg_total} ({:.1}x), rg + reading the file {rg_read_total} ({:.1}x)",
        QUERIES.len(),
        rg_total as f64 / ours_total.max(1) as f64,
        rg_read_total as f64 / ours_total.max(1) as f64
    );
}

/// Whether any item of the response is in `answer`.
fn mentions(response: &serde_json::Value, answer: &str) -> bool {
    ["docs", "code"].iter().any(|g| {
        response["data"][g].as_array().is_some_and(|items| {
            items
                .iter()
                .any(|i| i["filePath"].as_str().is_some_and(|p| p.ends_with(answer)))
        })
    })
}

/// What grep-then-read costs: the output of `rg -n -i` for the query's words (any of them,
/// lines cut at 300 columns, the way an agent's grep tool returns them) and the size of the
/// file that answers the query.
fn grep_baseline(root: &Path, query: &str, answer: &str) -> (usize, usize) {
    let mut rg = Command::new("rg");
    rg.args([
        "-n",
        "-i",
        "-F",
        "--max-columns",
        "300",
        "--glob",
        "!.smart-context",
    ]);
    for word in query.split_whitespace() {
        rg.arg("-e").arg(word);
    }
    let out = rg
        .arg(root)
        .output()
        .expect("ripgrep (rg) must be installed: scripts/bench-explore.sh installs it");
    let root_prefix = format!("{}/", root.display());
    let text = String::from_utf8_lossy(&out.stdout).replace(&root_prefix, "");
    let file = walk_find(root, answer).map_or(0, |p| {
        std::fs::read_to_string(p).map_or(0, |s| s.chars().count())
    });
    (text.chars().count(), file)
}

fn walk_find(root: &Path, suffix: &str) -> Option<std::path::PathBuf> {
    ignore::WalkBuilder::new(root)
        .build()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .find(|p| p.to_string_lossy().ends_with(suffix))
}

fn percentile(times: &mut [Duration], q: f64) -> Duration {
    times.sort_unstable();
    times[((times.len() - 1) as f64 * q).round() as usize]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
