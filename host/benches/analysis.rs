//! The analysis layer on a real project (`cargo bench -p smart-context --bench analysis`):
//! the graphs of the Django 5.2.19 tree (`scripts/bench-understand.py` unpacks it under
//! `target/bench-understand/`, or name another tree with `ANALYSIS_BENCH_TREE`).
//!
//! Rows, medians of [`RUNS`]:
//! - resolving both graphs from every file's kept facts, and ranking them (PageRank over every
//!   file and every definition, cycles, percentiles): the full build a cold start pays;
//! - the graphs after one file changed (a definition added that calls another): what a call
//!   after an edit waits for, against the full build in the same run as its baseline;
//! - a check with nothing changed (one pragma);
//! - change's `pageRankDelta` for a planned text of one file: with a new definition and
//!   calls (resolved into the graph, ranked again), and with a comment only (one parse);
//!   and a planned file's facts parsed, against from the tree the syntax check kept.

use smart_context::analysis::{self, graph::Graph};
use smart_context::app::{self, OpenOptions};
use smart_context::index::facts::FileFacts;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

const RUNS: usize = 15;

fn main() {
    let source = std::env::var_os("ANALYSIS_BENCH_TREE")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../target/bench-understand/django-5.2.19")
        });
    if !source.is_dir() {
        println!(
            "no tree at {}: run `python3 scripts/bench-understand.py` once (it unpacks Django), \
             or set ANALYSIS_BENCH_TREE",
            source.display()
        );
        return;
    }
    // A copy (without a state directory a server left there), so the bench's edits and
    // state never touch the source tree.
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("tree");
    copy_tree(&source, &root);
    std::fs::write(root.join("smart-context.toml"), "[index]\nwatch = false\n").unwrap();
    let runtime = app::open(&OpenOptions {
        root: root.clone(),
        ..OpenOptions::default()
    })
    .expect("opening the workspace");
    let services = runtime.services();
    let report = services.index.update(false, None).expect("indexing");
    println!(
        "smart-context analysis benchmark ({} cores), tree {}\nindex: {report}\n",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        source.display()
    );

    let facts = all_facts(&services.index);
    let graph = Graph::build(&facts);
    println!(
        "graph: {} files, {} definitions, {} call edges, {} import edges, {} calls unresolved\n",
        graph.files.len(),
        graph.symbols.len(),
        graph.calls.len(),
        graph.imports.len(),
        graph.unresolved_calls
    );
    let resolve = median(|| {
        let t = Instant::now();
        std::hint::black_box(Graph::build(&facts));
        t.elapsed()
    });
    let full = median(|| {
        let t = Instant::now();
        std::hint::black_box(analysis::rank_snapshot(Graph::build(&facts)));
        t.elapsed()
    });
    let rank = median(|| {
        let g = Graph::build(&facts);
        let t = Instant::now();
        std::hint::black_box(analysis::rank_snapshot(g));
        t.elapsed()
    });

    // One file edited between calls, as an agent's edit is: the index takes it (not timed),
    // then the analysis layer answers for the new catalogue.
    let analysis = &services.analysis;
    analysis.snapshot().expect("first snapshot");
    let changed = root.join("django/utils/text.py");
    let original = std::fs::read_to_string(&changed).unwrap();
    let mut round = 0;
    let mut resolved_again = 0;
    let after_edit = median(|| {
        round += 1;
        std::fs::write(
            &changed,
            format!("{original}\n\ndef bench_added_{round}(x):\n    return capfirst(x)\n"),
        )
        .unwrap();
        services.index.update(false, None).expect("reindex");
        let t = Instant::now();
        let s = analysis.snapshot().expect("snapshot");
        let took = t.elapsed();
        // The updated graph is the one a full build makes of the same facts.
        let full = Graph::build(&all_facts(&services.index));
        assert_eq!(
            s.graph.calls, full.calls,
            "the updated call graph is the full build's"
        );
        assert_eq!(s.graph.imports, full.imports);
        resolved_again = s.graph.resolved_again;
        let added = s.graph.named(&format!("bench_added_{round}"));
        assert_eq!(added.len(), 1, "the new definition is in the graph");
        assert!(
            !s.graph.callees[added[0] as usize].is_empty(),
            "and its call resolved"
        );
        took
    });
    let unchanged = median(|| {
        let t = Instant::now();
        std::hint::black_box(analysis.snapshot().expect("snapshot"));
        t.elapsed()
    });

    // pageRankDelta of a planned edit: one with a new call, one with no structural change.
    std::fs::write(&changed, &original).unwrap();
    services.index.update(false, None).expect("reindex");
    let snapshot = analysis.snapshot().expect("snapshot");
    let planned_call = vec![(
        "django/utils/text.py".to_string(),
        format!("{original}\n\ndef bench_planned(x):\n    return wrap(capfirst(x), 10)\n"),
    )];
    let planned_body = vec![(
        "django/utils/text.py".to_string(),
        original.replace("import re", "import re  # planned"),
    )];
    let mut moves = 0;
    let delta_call = median(|| {
        let t = Instant::now();
        let d = analysis::delta::rank_delta(&snapshot, &planned_call, 20);
        moves = d.moves.len();
        t.elapsed()
    });
    let delta_body = median(|| {
        let t = Instant::now();
        let d = analysis::delta::rank_delta(&snapshot, &planned_body, 20);
        assert!(d.moves.is_empty());
        t.elapsed()
    });
    // The planned text's facts: parsed from scratch (what pageRankDelta paid before), and
    // from the tree the change pillar's syntax check kept for the same text.
    let lang = smart_context::index::code::Language::from_extension("py").unwrap();
    let (path, text) = &planned_call[0];
    let facts_parsed = median(|| {
        let t = Instant::now();
        std::hint::black_box(FileFacts::from_source(path, lang, text));
        t.elapsed()
    });
    smart_context::index::code::syntax::problems(path, lang, text);
    let facts_kept = median(|| {
        let t = Instant::now();
        std::hint::black_box(FileFacts::from_planned(path, lang, text));
        t.elapsed()
    });
    println!("pageRankDelta of a planned new call: {moves} definitions moved\n");
    println!(
        "after one file changed, {resolved_again} of {} files were resolved again\n",
        graph.files.len()
    );
    println!("| what | median | against the full build |");
    println!("|---|---|---|");
    for (what, d) in [
        ("full build: resolve and rank (baseline)", full),
        ("  of which resolving both graphs", resolve),
        ("  of which ranking (PageRank, percentiles, cycles)", rank),
        ("after one file changed", after_edit),
        ("nothing changed", unchanged),
        ("pageRankDelta, a planned new call", delta_call),
        ("pageRankDelta, no structural change", delta_body),
        ("  a planned file's facts, parsed", facts_parsed),
        (
            "  a planned file's facts, from the syntax check's tree",
            facts_kept,
        ),
    ] {
        println!(
            "| {what} | {:.2} ms | {:.3}x |",
            ms(d),
            d.as_secs_f64() / full.as_secs_f64()
        );
    }
}

/// Every code file's facts as the catalogue holds them now.
fn all_facts(index: &smart_context::index::Index) -> Vec<Arc<FileFacts>> {
    let files = index.code_files().expect("code files");
    index
        .file_facts(&files)
        .expect("facts")
        .into_iter()
        .map(Arc::new)
        .collect()
}

fn median(mut f: impl FnMut() -> Duration) -> Duration {
    f(); // warm-up
    let mut times: Vec<Duration> = (0..RUNS).map(|_| f()).collect();
    times.sort();
    times[RUNS / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let kind = entry.file_type().unwrap();
        let target = to.join(entry.file_name());
        if entry.file_name() == ".smart-context" {
            continue;
        }
        if kind.is_dir() {
            copy_tree(&entry.path(), &target);
        } else if kind.is_file() {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}
