//! Property test of incremental upkeep: whatever sequence of writes, deletions, renames and
//! same-size edits a small tree goes through, an index kept up to date by incremental passes
//! (and its analysis graphs, updated in place) answers as a fresh full index of the same
//! files: the same ranked chunks with the same scores for short queries and a pasted text,
//! the same definitions found, the same counts, the same call graph and PageRank.

use super::fulltext::SearchRequest;
use super::*;
use crate::analysis::Analysis;
use proptest::prelude::*;
use std::path::Path;

/// Files the edits pick from.
const PATHS: &[&str] = &[
    "pkg/config.py",
    "pkg/sections.py",
    "pkg/cache.py",
    "pkg/cli.py",
    "lib/util.rs",
    "docs/guide.md",
    "notes.txt",
    "data.bin",
];

/// Contents the edits write: functions calling each other, prose, a binary blob.
const TEXTS: &[&str] = &[
    "from pkg.sections import merge_sections, parse_sections\n\n\ndef load_settings(path):\n    text = open(path).read()\n    return merge_sections(parse_sections(text))\n",
    "class Section:\n    def __init__(self, values):\n        self.values = values\n\n\ndef merge_sections(sections):\n    merged = {}\n    for s in sections:\n        merged.update(s.values)\n    return merged\n\n\ndef parse_sections(text):\n    return [Section({}) for block in text.split('[')]\n",
    "_entries = {}\n\n\ndef remember(fn):\n    def wrapper(*args):\n        return _entries.setdefault(args, fn(*args))\n    return wrapper\n\n\ndef expire():\n    _entries.clear()\n",
    "import sys\nfrom pkg.config import load_settings\n\n\ndef main():\n    print(load_settings(sys.argv[1]))\n",
    "pub fn merge(a: &str, b: &str) -> String {\n    format!(\"{a}{b}\")\n}\n\npub fn expire_cache() {\n    merge(\"x\", \"y\");\n}\n",
    "# Guide\n\n## Sections\n\nAn empty section is skipped when sections merge.\n\n## Cache\n\nEntries expire.\n",
    "Notes: the loader reads settings, merges sections and caches entries.\n",
    "def parse_sections(text):\n    # a second definition of the same name\n    return text.split('[')\n",
];

const BINARY: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR binary";

/// What a pasted text looks like: over 24 words, a traceback, names.
const PASTED: &str = "Loading settings crashes when a section is empty.\nTraceback (most recent call last):\n  File \"pkg/cli.py\", line 6, in main\n    print(load_settings(sys.argv[1]))\n  File \"pkg/config.py\", line 6, in load_settings\n    return merge_sections(parse_sections(text))\nAttributeError: 'NoneType' object has no attribute 'values'\nThe cache should expire the broken entries, and merge should skip empty sections as the guide says.";

const QUERIES: &[&str] = &["merge sections", "expire", "settings cache entries", PASTED];

#[derive(Debug, Clone)]
enum Op {
    Write(usize, usize),
    Delete(usize),
    Rename(usize, usize),
    /// New text of the same size, with the old mtime put back: only the content tells.
    SameSizeEdit(usize),
    /// The pass that follows is a full one.
    Full,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (0..PATHS.len(), 0..TEXTS.len()).prop_map(|(p, t)| Op::Write(p, t)),
        1 => (0..PATHS.len()).prop_map(Op::Delete),
        1 => (0..PATHS.len(), 0..PATHS.len()).prop_map(|(a, b)| Op::Rename(a, b)),
        1 => (0..PATHS.len()).prop_map(Op::SameSizeEdit),
        1 => Just(Op::Full),
    ]
}

fn write(root: &Path, path: &str, bytes: &[u8]) {
    let full = root.join(path);
    std::fs::create_dir_all(full.parent().unwrap()).unwrap();
    std::fs::write(full, bytes).unwrap();
}

/// Applies `op` to the tree; true when the next pass is to be a full one.
fn apply(root: &Path, op: &Op) -> bool {
    match *op {
        Op::Write(p, t) => {
            let bytes = if PATHS[p].ends_with(".bin") {
                BINARY
            } else {
                TEXTS[t].as_bytes()
            };
            write(root, PATHS[p], bytes);
        }
        Op::Delete(p) => {
            let _ = std::fs::remove_file(root.join(PATHS[p]));
        }
        Op::Rename(a, b) => {
            if root.join(PATHS[a]).is_file() {
                std::fs::create_dir_all(root.join(PATHS[b]).parent().unwrap()).unwrap();
                std::fs::rename(root.join(PATHS[a]), root.join(PATHS[b])).unwrap();
            }
        }
        Op::SameSizeEdit(p) => {
            let path = root.join(PATHS[p]);
            if let Ok(mut bytes) = std::fs::read(&path)
                && let Some(first) = bytes.iter().position(u8::is_ascii_lowercase)
            {
                let modified = std::fs::metadata(&path).unwrap().modified().unwrap();
                bytes[first] = bytes[first].to_ascii_uppercase();
                std::fs::write(&path, &bytes).unwrap();
                let file = std::fs::File::options().write(true).open(&path).unwrap();
                file.set_modified(modified).unwrap();
            }
        }
        Op::Full => return true,
    }
    false
}

/// An index of `root` with its state beside the tree (not in it), no watcher.
fn open(root: &Path, state: &Path) -> Arc<Index> {
    std::fs::create_dir_all(state).unwrap();
    let db = state.join("state.db");
    let mut conn = rusqlite::Connection::open(&db).unwrap();
    crate::store::migrate_for_tests(&mut conn);
    let settings = crate::config::IndexSettings {
        watch: false,
        ..Default::default()
    };
    Arc::new(Index::open(root, state, &db, settings).unwrap())
}

/// Everything compared, as text: the first difference reads as a line.
fn answers(index: &Index, analysis: &Analysis) -> Vec<String> {
    let mut out = Vec::new();
    let mut counts = index.status();
    counts.last_indexed_ms = 0;
    counts.state = "";
    counts.watching = false;
    out.push(format!("{counts:?}"));
    let snapshot = analysis.snapshot().unwrap();
    for query in QUERIES {
        let request = SearchRequest {
            query: query.to_string(),
            limit: 12,
            centrality: Some(snapshot.clone()),
            ..Default::default()
        };
        let outcome = index.search(&request).unwrap();
        out.push(format!("{query:.20}: {} matches", outcome.total));
        for h in outcome.hits {
            out.push(format!(
                "{query:.20}: {} {}-{} {} {:?} {} {:?}",
                h.path, h.start_line, h.end_line, h.chunk_id, h.symbol, h.score, h.why
            ));
        }
    }
    for name in ["merge_sections", "parse", "expire"] {
        for m in index.find_symbol(name, 10).unwrap() {
            out.push(format!("symbol {name}: {m:?}"));
        }
    }
    let g = &snapshot.graph;
    let symbol = |s: u32| {
        let n = &g.symbols[s as usize];
        format!("{}#{}", g.files[n.file as usize].path, g.qualified(s))
    };
    for e in &g.calls {
        out.push(format!(
            "call {} -> {} line {} {:?}",
            symbol(e.from),
            symbol(e.to),
            e.line,
            e.confidence
        ));
    }
    for (i, f) in g.files.iter().enumerate() {
        out.push(format!(
            "file {} rank {:e} percentile {}",
            f.path, snapshot.file_rank[i], snapshot.file_percentile[i]
        ));
    }
    for (i, rank) in snapshot.symbol_rank.iter().enumerate() {
        out.push(format!("symbol {} rank {rank:e}", symbol(i as u32)));
    }
    out
}

/// A copy of the tree (files only), for the fresh index.
fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 10, ..ProptestConfig::default() })]

    #[test]
    fn incremental_upkeep_answers_as_a_fresh_index(ops in proptest::collection::vec(op(), 1..10)) {
        let tree = tempfile::tempdir().unwrap();
        let state = tempfile::tempdir().unwrap();
        for (path, text) in PATHS.iter().zip(TEXTS).take(5) {
            write(tree.path(), path, text.as_bytes());
        }
        let kept = open(tree.path(), state.path());
        let kept_analysis = Analysis::new(kept.clone());
        kept.update(false, None).unwrap();
        kept_analysis.snapshot().unwrap();
        for (step, op) in ops.iter().enumerate() {
            let full = apply(tree.path(), op);
            kept.update(full, None).unwrap();
            let copy = tempfile::tempdir().unwrap();
            copy_tree(tree.path(), copy.path());
            let fresh_state = tempfile::tempdir().unwrap();
            let fresh = open(copy.path(), fresh_state.path());
            fresh.update(true, None).unwrap();
            let got = answers(&kept, &kept_analysis);
            let expected = answers(&fresh, &Analysis::new(fresh.clone()));
            let first = got.iter().zip(&expected).position(|(a, b)| a != b);
            prop_assert!(
                first.is_none() && got.len() == expected.len(),
                "after step {step} ({op:?}) of {ops:?}:\n kept:  {:?}\n fresh: {:?}",
                first.map(|i| &got[i]).or(got.get(expected.len())),
                first.map(|i| &expected[i]).or(expected.get(got.len())),
            );
        }
    }
}
