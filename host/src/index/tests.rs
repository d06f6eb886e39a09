//! The index end to end on real files, with the real format-parser components (through the
//! runtime that `app::open` loads) and the real SQLite and tantivy stores.

use super::*;
use crate::app;
use crate::index::digest::Mode;
use crate::index::fulltext::SearchRequest;
use crate::runtime::Runtime;
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Root {
    dir: tempfile::TempDir,
    _cache: tempfile::TempDir,
}

impl Root {
    fn new<P: AsRef<str>, T: AsRef<str>>(files: &[(P, T)]) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        // A repository's own config file: only indexed (the operator's is outside the root).
        std::fs::write(dir.path().join("smart-context.toml"), INDEX_CONFIG).unwrap();
        let root = Self { dir, _cache: cache };
        for (path, text) in files {
            root.write(path.as_ref(), text.as_ref().as_bytes());
        }
        root
    }

    fn write(&self, path: &str, bytes: &[u8]) {
        let p = self.dir.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }

    fn open(&self) -> Arc<Runtime> {
        app::open(&app::tests::options(
            self.dir.path(),
            self._cache.path(),
            INDEX_CONFIG,
        ))
        .unwrap()
    }
}

const INDEX_CONFIG: &str = "[index]\nmax_file_bytes = 4096\nwatch = true\n";

fn index(runtime: &Arc<Runtime>) -> Arc<Index> {
    runtime.services().index.clone()
}

/// The first 20 hits for `query`.
fn hits(index: &Index, query: &str) -> Vec<crate::index::fulltext::Hit> {
    index
        .search(&SearchRequest {
            query: query.into(),
            limit: 20,
            ..Default::default()
        })
        .unwrap()
        .hits
}

fn search(index: &Index, query: &str) -> Vec<(String, String)> {
    hits(index, query)
        .into_iter()
        .map(|h| (h.path, h.kind))
        .collect()
}

const LIB_PY: &str = "\"\"\"Utilities.\"\"\"\n\ndef parse_config(path):\n    \"\"\"Reads the config file.\"\"\"\n    return load(path)\n\n\nclass ConfigError(Exception):\n    pass\n";
const APP_PY: &str =
    "from pkg import lib\nfrom pkg.lib import parse_config\n\ndef main():\n    parse_config('x')\n";
const GUIDE_MD: &str = "# Guide\n\nIntro text.\n\n## Install\n\nRun the installer.\n\n## Configure\n\nEdit the config file.\n";

fn sample() -> Root {
    Root::new(&[
        ("pkg/__init__.py", ""),
        ("pkg/lib.py", LIB_PY),
        ("pkg/app.py", APP_PY),
        ("docs/guide.md", GUIDE_MD),
        ("notes.txt", "remember the milk\n"),
        (".env", "SECRET=1\n"),
        ("keys/server.pem", "-----BEGIN-----\n"),
        ("logo.png", "\u{89}PNG"),
        ("data.bin.txt", "a\0b"),
        ("big.txt", &"x".repeat(5000)),
    ])
}

#[test]
fn a_pass_indexes_code_documents_and_text_and_skips_the_rest() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    let report = index.update(false, None).unwrap();
    assert_eq!(
        report.indexed.get("code"),
        Some(&4),
        "three Python files and smart-context.toml (TOML, by the code_config parser): {report:?}"
    );
    assert_eq!(
        report.indexed.get("document"),
        Some(&2),
        "guide.md and notes.txt (the text parser claims .txt): {report:?}"
    );
    assert_eq!(
        report.indexed.get("text"),
        None,
        "smart-context.toml is TOML now, not text: {report:?}"
    );
    assert_eq!(report.skipped.get("sensitive"), Some(&2), "{report:?}");
    assert_eq!(report.skipped.get("binary"), Some(&2), "{report:?}");
    assert_eq!(report.skipped.get("too_large"), Some(&1), "{report:?}");
    assert!(
        report
            .to_string()
            .contains("skipped 2 binary, 2 sensitive, 1 too_large"),
        "{report}"
    );
    let status = index.status();
    assert_eq!(
        (status.state, status.files, status.skipped),
        ("fresh", 6, 5)
    );
    assert!(status.symbols >= 3);

    assert_eq!(search(&index, "parseConfig")[0].0, "pkg/lib.py");
    assert_eq!(
        search(&index, "installer"),
        [("docs/guide.md".to_string(), "markdown".to_string())]
    );
    assert!(
        search(&index, "SECRET").is_empty(),
        "sensitive files are never read"
    );
    let comments = index
        .search(&SearchRequest {
            query: "reads config".into(),
            kinds: vec!["code_comment".into()],
            limit: 5,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(comments.hits[0].symbol.as_deref(), Some("parse_config"));
    assert!(!comments.degraded);
}

#[test]
fn symbols_references_imports_and_importers() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();

    let exact = index.find_symbol("parse_config", 10).unwrap();
    assert_eq!(exact.len(), 1);
    assert_eq!(exact[0].how, MatchKind::Exact);
    assert_eq!(exact[0].found.path, "pkg/lib.py");
    assert_eq!(
        exact[0].found.symbol.doc.as_ref().unwrap().text,
        "Reads the config file."
    );
    let prefix = index.find_symbol("Config", 10).unwrap();
    assert_eq!(
        (prefix[0].how, prefix[0].found.symbol.name.as_str()),
        (MatchKind::Prefix, "ConfigError")
    );
    let fuzzy = index.find_symbol("parse_confg", 10).unwrap();
    assert_eq!(
        (fuzzy[0].how, fuzzy[0].found.symbol.name.as_str()),
        (MatchKind::Fuzzy, "parse_config")
    );
    assert!(index.find_symbol("zzzz", 10).unwrap().is_empty());
    // A prefix is taken literally: `_` and `%` are not patterns.
    let literal = index.find_symbol("parse_", 10).unwrap();
    assert_eq!(
        (literal[0].how, literal[0].found.symbol.name.as_str()),
        (MatchKind::Prefix, "parse_config")
    );
    assert!(
        index
            .find_symbol("p%", 10)
            .unwrap()
            .iter()
            .all(|m| m.how != MatchKind::Prefix)
    );

    let refs = index.references("parse_config", 10).unwrap();
    let calls: Vec<(&str, u32, &str)> = refs
        .iter()
        .map(|r| (r.path.as_str(), r.line, r.kind.as_str()))
        .collect();
    assert!(calls.contains(&("pkg/app.py", 5, "call")), "{refs:?}");
    assert!(calls.contains(&("pkg/app.py", 2, "import")), "{refs:?}");
    assert_eq!(
        refs.iter().find(|r| r.line == 5).unwrap().context,
        "parse_config('x')"
    );

    let imports = index.imports("pkg/app.py").unwrap();
    let resolved: Vec<(&str, Option<&str>)> = imports
        .iter()
        .map(|i| (i.target.as_str(), i.resolved.as_deref()))
        .collect();
    assert!(
        resolved.contains(&("pkg.lib", Some("pkg/lib.py"))),
        "{resolved:?}"
    );
    assert!(
        resolved.contains(&("pkg", Some("pkg/__init__.py"))),
        "{resolved:?}"
    );
    let importers = index.importers("pkg/lib.py", 10).unwrap();
    assert_eq!(importers.len(), 2, "{importers:?}");
    assert!(importers.iter().all(|i| i.path == "pkg/app.py"));

    let (_, lang, skeleton, defs, _) = index.skeleton("pkg/lib.py").unwrap();
    assert_eq!((lang.as_str(), defs), ("python", 2));
    assert!(
        skeleton.contains("3-5| def parse_config(path):"),
        "{skeleton}"
    );
    assert!(skeleton.contains("// Reads the config file."), "{skeleton}");
    let err = index.symbols("notes.txt").unwrap_err();
    assert_eq!(err.code, "UNSUPPORTED_LANGUAGE");
}

#[test]
fn document_sections_by_id_and_heading_path_with_stable_ids() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    let (_, doc) = index.document("docs/guide.md").unwrap();
    let install = doc
        .sections
        .iter()
        .find(|s| s.heading_path.ends_with(&["Install".to_string()]))
        .unwrap();
    let by_id = index
        .doc_section(
            "docs/guide.md",
            &SectionSelector::Id(install.id.clone()),
            Mode::Raw,
            0,
            false,
        )
        .unwrap();
    assert!(by_id.section.text.contains("Run the installer."));
    assert!(!by_id.truncated);
    let by_path = index
        .doc_section(
            "docs/guide.md",
            &SectionSelector::HeadingPath(vec!["install".into()]),
            Mode::Preview,
            0,
            false,
        )
        .unwrap();
    assert_eq!(by_path.section.id, install.id);
    let whole = index
        .doc_section(
            "docs/guide.md",
            &SectionSelector::HeadingPath(vec!["Guide".into()]),
            Mode::Raw,
            30,
            true,
        )
        .unwrap();
    assert!(whole.truncated && whole.section.text.chars().count() <= 32);
    assert!(
        whole.total_chars as usize > GUIDE_MD.len() - 10,
        "raw spans the subsections: {}",
        whole.total_chars
    );
    let missing = index
        .doc_section(
            "docs/guide.md",
            &SectionSelector::Id("nope".into()),
            Mode::Preview,
            0,
            false,
        )
        .unwrap_err();
    assert_eq!(missing.code, "NOT_FOUND");
    assert_eq!(index.document("pkg/lib.py").unwrap_err().code, "NO_PARSER");

    let chunk_of = |query: &str| {
        index
            .search(&SearchRequest {
                query: query.into(),
                limit: 1,
                ..Default::default()
            })
            .unwrap()
            .hits[0]
            .chunk_id
            .clone()
    };
    let before = chunk_of("installer");
    root.write(
        "docs/guide.md",
        GUIDE_MD
            .replace("Intro text.", "A longer\nintro.")
            .as_bytes(),
    );
    let report = index.update(false, None).unwrap();
    assert_eq!(report.indexed_total(), 1);
    assert_eq!(
        chunk_of("installer"),
        before,
        "an unchanged section keeps its chunk id"
    );
}

#[test]
fn incremental_passes_touch_only_what_changed() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    let again = index.update(false, None).unwrap();
    // Files written moments ago are hashed again (racily clean, see catalog::RACY_MS), not
    // reindexed: touched rather than unchanged.
    assert_eq!(
        (again.indexed_total(), again.unchanged + again.touched),
        (0, 6)
    );

    root.write(
        "pkg/lib.py",
        LIB_PY.replace("parse_config", "read_settings").as_bytes(),
    );
    std::fs::remove_file(root.dir.path().join("notes.txt")).unwrap();
    root.write("new.rs", b"fn brand_new() {}\n");
    // Same content, new mtime: hashed, not reindexed.
    // The names a lookup of a missing name compares against are kept until the catalogue
    // changes: the renamed definition is found by a near miss after the pass below.
    assert!(
        index
            .find_symbol("read_setings", 5)
            .unwrap()
            .iter()
            .all(|m| m.found.symbol.name != "read_settings")
    );
    let app = root.dir.path().join("pkg/app.py");
    let file = std::fs::File::options().write(true).open(&app).unwrap();
    file.set_modified(std::time::SystemTime::now() + Duration::from_secs(5))
        .unwrap();
    let report = index.update(false, None).unwrap();
    assert_eq!(report.indexed_total(), 2, "{report:?}");
    assert_eq!(
        (report.removed, report.touched + report.unchanged),
        (1, 4),
        "{report:?}"
    );
    assert!(search(&index, "remember milk").is_empty());
    assert_eq!(search(&index, "brandNew")[0].0, "new.rs");
    assert_eq!(search(&index, "read_settings")[0].0, "pkg/lib.py");
    let near = index.find_symbol("read_setings", 5).unwrap();
    assert_eq!(
        (near[0].how, near[0].found.symbol.name.as_str()),
        (MatchKind::Fuzzy, "read_settings")
    );
    assert!(
        index
            .find_symbol("parse_config", 5)
            .unwrap()
            .iter()
            .all(|m| m.how != MatchKind::Exact)
    );
    let full = index.update(true, None).unwrap();
    assert_eq!(
        full.indexed_total(),
        6,
        "--full rereads everything: {full:?}"
    );
}

/// A pass that finds other readers than the last one had checks every file's reader: those
/// whose reader changed (here: rows from before readers were recorded) are read again, the
/// others only hashed; the pass after has nothing to check.
#[test]
fn files_whose_reader_changed_are_read_again() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    let first = index.update(false, None).unwrap();
    assert!(!first.readers_changed);
    let sql = |statement: &str| {
        let conn = index.writer.lock().unwrap();
        conn.execute(statement, []).unwrap();
    };
    // Another set of readers, the same reader for each file: hashed, nothing read again.
    sql("UPDATE index_passes SET readers = 'an older build'");
    let report = index.update(false, None).unwrap();
    assert!(report.readers_changed, "{report:?}");
    assert_eq!(report.indexed_total(), 0, "{report:?}");
    assert_eq!(report.touched, first.indexed_total(), "{report:?}");
    // Rows from before readers were recorded: each is read again, as a fresh build reads it.
    sql("UPDATE files SET reader = '' WHERE path LIKE 'pkg/%'");
    let report = index.update(false, None).unwrap();
    assert!(report.readers_changed, "{report:?}");
    assert_eq!(report.indexed_total(), 3, "{report:?}");
    assert_eq!(search(&index, "parse_config")[0].0, "pkg/lib.py");
    let report = index.update(false, None).unwrap();
    assert!(!report.readers_changed, "{report:?}");
    assert_eq!(report.indexed_total(), 0, "{report:?}");
}

#[test]
fn invalid_utf8_is_decoded_lossily_and_flagged() {
    let root = Root::new::<&str, &str>(&[]);
    root.write("latin1.txt", b"caf\xe9 au lait\n");
    let runtime = root.open();
    let index = index(&runtime);
    let report = index.update(false, None).unwrap();
    assert_eq!(report.lossy, 1);
    assert_eq!(index.status().lossy, 1);
    assert_eq!(search(&index, "lait")[0].0, "latin1.txt");
}

#[test]
fn a_file_deleted_between_the_walk_and_the_read_is_dropped() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    let found = scan::Found {
        path: "notes.txt".into(),
        size: 18,
        mtime_ms: 1,
    };
    std::fs::remove_file(root.dir.path().join("notes.txt")).unwrap();
    assert!(matches!(
        index.prepare(&found, None, None),
        indexer::Outcome::Vanished(path) if path == "notes.txt"
    ));
}

#[test]
fn a_sentence_search_reads_its_hits_and_checks_its_request_as_search_does() {
    let root = Root::new(&[
        (
            "pkg/cache.py",
            "def fetch(request):\n    \"\"\"Return the cached page if one is available.\"\"\"\n    \
             return None\n",
        ),
        ("pkg/other.py", "def other():\n    return 1\n"),
    ]);
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    let ask = |query: &str, prefix: Option<&str>| {
        index.search_sentence(&SearchRequest {
            query: query.into(),
            path_prefix: prefix.map(str::to_string),
            limit: 5,
            ..Default::default()
        })
    };
    let outcome = ask("returns a page from the cache when available", None).unwrap();
    assert!(!outcome.degraded, "{outcome:?}");
    let hit = &outcome.hits[0];
    assert_eq!(
        (hit.path.as_str(), hit.symbol.as_deref()),
        ("pkg/cache.py", Some("fetch"))
    );
    // Its text was read back, as a search's shown hits are.
    assert!(hit.snippet.contains("cached page"), "{hit:?}");
    assert_eq!(ask("   ", None).unwrap_err().code, "INVALID_ARGS");
    assert!(ask("cached page", Some("../outside")).is_err());
    assert!(
        ask("cached page", Some("pkg/other.py"))
            .unwrap()
            .hits
            .is_empty()
    );
    index.set_freshness(Freshness::Rebuilding);
    assert_eq!(
        ask("cached page", None).unwrap().reasons,
        ["index_building"]
    );
}

#[test]
fn queries_during_a_pass_are_answered_and_marked_degraded() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    index.set_freshness(Freshness::Rebuilding);
    let outcome = index
        .search(&SearchRequest {
            query: "installer".into(),
            limit: 5,
            ..Default::default()
        })
        .unwrap();
    assert_eq!(outcome.hits.len(), 1);
    assert!(outcome.degraded);
    assert_eq!(outcome.reasons, ["index_building"]);
}

#[test]
fn a_damaged_search_index_is_rebuilt_on_open() {
    let root = sample();
    {
        let runtime = root.open();
        index(&runtime).update(false, None).unwrap();
    }
    let meta = root.dir.path().join(".smart-context/index/meta.json");
    std::fs::write(&meta, b"garbage").unwrap();
    let runtime = root.open();
    let index = index(&runtime);
    let status = index.status();
    assert_eq!(status.files, 0, "the catalogue is cleared with the index");
    // The files match the last pass's walk, but the catalogue no longer holds that pass: the
    // empty index is not fresh, now nor after a restart before the rebuilding pass ends.
    assert_ne!(status.state, "fresh");
    drop((index, runtime));
    let runtime = root.open();
    let index = self::index(&runtime);
    let status = index.status();
    assert_eq!((status.files, status.state == "fresh"), (0, false));
    let report = index.update(false, None).unwrap();
    assert_eq!(report.indexed_total(), 6);
    assert_eq!(search(&index, "installer").len(), 1);
}

#[test]
fn a_damaged_state_db_is_set_aside_and_replaced() {
    let root = sample();
    // This user's own state (stamped), damaged afterwards.
    drop(root.open());
    std::fs::write(
        root.dir.path().join(".smart-context/state.db"),
        vec![b'x'; 8192],
    )
    .unwrap();
    for side in ["state.db-wal", "state.db-shm"] {
        let _ = std::fs::remove_file(root.dir.path().join(".smart-context").join(side));
    }
    let runtime = root.open();
    index(&runtime).update(false, None).unwrap();
    let aside = std::fs::read_dir(root.dir.path().join(".smart-context"))
        .unwrap()
        .filter_map(Result::ok)
        .any(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("state.db.corrupt-")
        });
    assert!(aside, "the damaged file is kept for inspection");
}

#[test]
fn a_second_process_on_the_same_root_reads_but_does_not_write() {
    let root = sample();
    let first = root.open();
    index(&first).update(false, None).unwrap();
    let second = root.open();
    let reader = index(&second);
    assert!(reader.is_read_only());
    let status = reader.status();
    assert!(status.read_only && status.message.unwrap().contains("another smart-context"));
    assert!(reader.update(false, None).is_err());
    assert_eq!(
        search(&reader, "installer").len(),
        1,
        "reads the owner's commits"
    );
    // The owner's later commits become visible too, to searches and to references.
    root.write("later.md", b"# Later\n\nfreshly added words\n");
    root.write(
        "pkg/late.py",
        b"from pkg.lib import parse_config\n\nparse_config('y')\n",
    );
    index(&first).update(false, None).unwrap();
    assert!(
        reader
            .references("parse_config", 10)
            .unwrap()
            .iter()
            .any(|r| r.path == "pkg/late.py" && r.kind == "call"),
        "a reader's references see the owner's later files"
    );
    assert_eq!(search(&reader, "freshly").len(), 1);
    // When the owner exits, the reader takes over: it indexes new files itself.
    drop(first);
    root.write("after.md", b"# After\n\nwords nobody indexed before\n");
    let report = reader
        .update(false, None)
        .expect("the freed index is taken over");
    assert_eq!(report.indexed_total(), 1);
    assert!(!reader.is_read_only() && reader.status().message.is_none());
    assert_eq!(search(&reader, "nobody").len(), 1);
}

#[test]
fn a_waiting_reader_takes_over_in_the_background_when_the_owner_exits() {
    let root = sample();
    let first = root.open();
    index(&first).update(false, None).unwrap();
    let second = root.open();
    let reader = second.services().index.clone();
    assert!(reader.is_read_only());
    reader.start_background();
    std::thread::sleep(std::time::Duration::from_millis(100));
    assert!(reader.is_read_only(), "the owner still holds the lock");
    root.write("added.md", b"# Added\n\nwritten while the owner ran\n");
    drop(first);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while search(&reader, "written").is_empty() {
        assert!(
            std::time::Instant::now() < deadline,
            "the reader never took over: {:?}",
            reader.status()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(!reader.is_read_only());
}

#[test]
fn the_watcher_reindexes_changed_files() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    index.start_background();
    let deadline = Instant::now() + Duration::from_secs(20);
    while !(index.status().watching && index.freshness() == Freshness::Fresh) {
        assert!(Instant::now() < deadline, "the first pass never finished");
        std::thread::sleep(Duration::from_millis(20));
    }
    root.write("src/added.rs", b"pub fn watched_function() {}\n");
    while search(&index, "watched_function").is_empty() {
        assert!(
            Instant::now() < deadline,
            "the watcher never indexed the new file"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::fs::remove_file(root.dir.path().join("src/added.rs")).unwrap();
    while !search(&index, "watched_function").is_empty() {
        assert!(
            Instant::now() < deadline,
            "the watcher never removed the file"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// A zip-shaped file that is not a zip, and a password-protected Office file as Office writes
/// one (an OLE compound file with an EncryptionInfo stream).
fn broken_office_files() -> (Vec<u8>, Vec<u8>) {
    let mut broken = b"PK\x03\x04".to_vec();
    broken.extend(std::iter::repeat_n(7u8, 200));
    let mut protected = b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1".to_vec();
    protected.extend(vec![0u8; 64]);
    protected.extend("EncryptionInfo".encode_utf16().flat_map(u16::to_le_bytes));
    (broken, protected)
}

#[test]
fn failures_are_counted_by_code_and_never_stop_a_pass() {
    let root = Root::new(&[
        (
            "docs/a.md",
            "# A\n\nSee [the log](../logs/app.log) and [B](b.md#usage).\n",
        ),
        ("docs/b.md", "# B\n\n## Usage\n\nBack to [A](a.md).\n"),
        (
            "logs/app.log",
            "2024-05-01 10:00:00 INFO up\n2024-05-01 10:00:05 ERROR disk quota exceeded\n  at write()\n2024-05-01 10:00:09 INFO ok\n",
        ),
        ("Procfile", "web: cargo run --release\n"),
        ("paper.pdf", "%PDF-1.4\nthis is not really a pdf\n"),
    ]);
    let (broken, protected) = broken_office_files();
    root.write("report.docx", &broken);
    root.write("budget.xlsx", &protected);
    let runtime = root.open();
    let index = index(&runtime);
    let report = index.update(false, None).unwrap();
    assert_eq!(report.failed.get("MALFORMED"), Some(&2), "{report:?}");
    assert_eq!(report.failed.get("ENCRYPTED"), Some(&1), "{report:?}");
    assert!(
        report
            .to_string()
            .contains("documents not parsed: 1 ENCRYPTED, 2 MALFORMED"),
        "{report}"
    );
    assert!(
        report
            .warnings
            .iter()
            .any(|w| w.starts_with("budget.xlsx: "))
    );
    let status = index.status();
    assert_eq!(status.failed.get("ENCRYPTED"), Some(&1));
    assert_eq!(status.failed.get("MALFORMED"), Some(&2));
    assert_eq!(
        index.update(false, None).unwrap().indexed_total(),
        0,
        "failed files are not retried while unchanged"
    );

    // The log's error burst is its own section, and the Procfile went through the fallback.
    let (_, log) = index.document("logs/app.log").unwrap();
    assert_eq!(log.kind, "log");
    let burst = log.sections.iter().find(|s| s.id == "errors").unwrap();
    assert_eq!((burst.start_line, burst.end_line), (2, 3));
    assert_eq!(
        search(&index, "quota"),
        [("logs/app.log".to_string(), "log".to_string())]
    );
    assert_eq!(
        search(&index, "cargo"),
        [("Procfile".to_string(), "text".to_string())]
    );

    // Links out and in, resolved to workspace files.
    let links = index.doc_links("docs/a.md", 10).unwrap();
    let out: Vec<_> = links
        .outgoing
        .iter()
        .map(|l| (l.target.as_str(), l.resolved.as_deref()))
        .collect();
    assert_eq!(
        out,
        [
            ("../logs/app.log", Some("logs/app.log")),
            ("b.md#usage", Some("docs/b.md"))
        ]
    );
    assert_eq!(links.incoming.len(), 1, "{links:?}");
    assert_eq!(links.incoming[0].path, "docs/b.md");
    assert_eq!(links.incoming[0].line, 3);
}

#[test]
fn before_the_first_pass_searches_scan_the_files_live_and_say_so() {
    let root = Root::new(&[
        (
            "src/alpha.rs",
            "fn helper() {}\nfn unusual_marker_fn() -> u32 {\n    7\n}\n",
        ),
        ("src/beta.rs", "fn other() {}\n"),
        (
            "notes.md",
            "# Notes\n\nthe unusual_marker_fn is documented here\n",
        ),
        (".env", "unusual_marker_fn=secret\n"),
    ]);
    let runtime = root.open();
    let index = index(&runtime);
    let request = |kinds: &[&str]| SearchRequest {
        query: "unusual_marker_fn".into(),
        limit: 10,
        kinds: kinds.iter().map(|k| k.to_string()).collect(),
        ..Default::default()
    };
    let outcome = index.search(&request(&[])).unwrap();
    let paths: Vec<&str> = outcome.hits.iter().map(|h| h.path.as_str()).collect();
    assert!(outcome.degraded && outcome.reasons.contains(&live::LIVE_SCAN.to_string()));
    assert_eq!(paths[0], "src/alpha.rs", "{paths:?}");
    assert!(
        paths.contains(&"notes.md") && !paths.contains(&".env"),
        "{paths:?}"
    );
    let hit = &outcome.hits[0];
    assert_eq!(hit.snippet_line, 2);
    assert!(hit.body.contains("unusual_marker_fn") && hit.file_hash.is_some());
    let previews = index.previews(&outcome.hits, "unusual_marker_fn", Mode::Preview, 400);
    assert!(
        previews[0]
            .as_ref()
            .unwrap()
            .text
            .contains("unusual_marker_fn")
    );
    // Kind filters apply to live hits as to indexed ones.
    let code = index.search(&request(&["code"])).unwrap();
    assert!(
        code.hits.iter().all(|h| h.kind == "code"),
        "{:?}",
        code.hits
    );
    // Once a pass has looked at everything, the index answers alone.
    index.update(false, None).unwrap();
    let after = index.search(&request(&[])).unwrap();
    assert!(!after.reasons.contains(&live::LIVE_SCAN.to_string()));
    assert_eq!(after.hits[0].path, "src/alpha.rs");
    assert!(after.hits.iter().all(|h| h.file_hash.is_none()));
}

#[test]
fn every_degraded_reason_the_index_gives_is_in_explores_output_schema() {
    // explore passes these through; a reason its outputSchema does not list makes clients
    // that validate structured content (the TypeScript SDK) reject the whole answer.
    let schema: serde_json::Value = serde_json::from_str(include_str!(
        "../../../plugins/explore/src/schema/output.json"
    ))
    .unwrap();
    let listed = schema["properties"]["reasons"]["items"]["enum"]
        .as_array()
        .unwrap();
    for reason in [
        "index_building",
        "index_unavailable",
        queries::QUERY_TRUNCATED,
        live::LIVE_SCAN,
        live::LIVE_SCAN_PARTIAL,
    ] {
        assert!(
            listed.contains(&reason.into()),
            "{reason} is not in the schema"
        );
    }
}

/// A control that cancels its pass as soon as the first batch reports progress.
fn cancelled_at_first_progress() -> crate::tasks::Control {
    let control = crate::tasks::Control::new();
    let canceller = control.clone();
    control.with_progress(Arc::new(move |done, total, _: &str| {
        if Some(done) < total {
            canceller.cancel();
        }
    }))
}

#[test]
fn a_cancelled_full_pass_stops_early_and_leaves_a_consistent_index() {
    let files: Vec<(String, String)> = (0..1100)
        .map(|i| (format!("notes/f{i}.txt"), format!("entry word{i} here\n")))
        .collect();
    let root = Root::new(&files);
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    let control = cancelled_at_first_progress();
    let report = index.update_with(true, &control).unwrap();
    assert!(report.cancelled, "{report}");
    assert!(report.indexed_total() < 1100, "{report}");
    assert_eq!(index.freshness(), Freshness::Stale);
    // Nothing half-done is visible: every file is still found, and the next pass finishes.
    assert_eq!(search(&index, "word1050").len(), 1);
    assert_eq!(search(&index, "word3").len(), 1);
    let next = index.update(false, None).unwrap();
    assert!(!next.cancelled);
    assert_eq!(search(&index, "word1050").len(), 1);
    assert_eq!(index.freshness(), Freshness::Fresh);
}

#[test]
fn a_first_pass_cancelled_midway_leaves_the_files_it_did_not_reach_to_live_scans() {
    // The live scan looks at the files the pass's own walk found unaccounted for, not at a
    // walk of its own: those the pass committed are answered by the index, the rest live.
    let files: Vec<(String, String)> = (0..1100)
        .map(|i| {
            (
                format!("notes/f{i:04}.txt"),
                format!("entry word{i} here\n"),
            )
        })
        .collect();
    let root = Root::new(&files);
    let runtime = root.open();
    let index = index(&runtime);
    let control = cancelled_at_first_progress();
    let report = index.update_with(false, &control).unwrap();
    assert!(
        report.cancelled && report.indexed_total() < 1100,
        "{report}"
    );
    for word in ["word3", "word1050"] {
        let outcome = index
            .search(&SearchRequest {
                query: word.into(),
                limit: 5,
                ..Default::default()
            })
            .unwrap();
        let paths: Vec<&str> = outcome.hits.iter().map(|h| h.path.as_str()).collect();
        let want = format!("notes/f{:04}.txt", word[4..].parse::<u32>().unwrap());
        assert_eq!(paths.first(), Some(&want.as_str()), "{word}: {paths:?}");
    }
    let late = index
        .search(&SearchRequest {
            query: "word1050".into(),
            limit: 5,
            ..Default::default()
        })
        .unwrap();
    assert!(
        late.reasons.contains(&live::LIVE_SCAN.to_string()),
        "{late:?}"
    );
    assert!(late.hits[0].file_hash.is_some(), "a live hit: {late:?}");
}

#[test]
fn a_pasted_text_brings_in_the_file_holding_all_its_words_spread_over_its_functions() {
    // Ten names the text uses. Seventy files each hold three of them in one function, so their
    // chunks fill the chunk pool; one file as long holds all ten, one per function, and none
    // of its chunks ranks alone. Only the whole-file ranking finds it.
    let names: Vec<String> = (0..10).map(|i| format!("setting_{i}_key")).collect();
    let mut files: Vec<(String, String)> = (0..70)
        .map(|i| {
            let three = [0, 1, 2]
                .map(|k| names[(i + k * 3) % 10].as_str())
                .join(" + ");
            // As long as the file that holds all ten: one function holds the three names.
            let quiet: String = (0..9)
                .map(|k| {
                    format!(
                        "def quiet_{k}(ctx):\n{}\n\n",
                        "    ctx.log(ctx.state)\n".repeat(10)
                    )
                })
                .collect();
            let text = format!("def loud_{i}(ctx):\n    return {three}\n\n\n{quiet}");
            (format!("loud/m{i}.py"), text)
        })
        .collect();
    let engine: String = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let filler = "    ctx.log(ctx.state)\n".repeat(10);
            format!("def step_{i}(ctx):\n{filler}    ctx.apply({n})\n\n\n")
        })
        .collect();
    files.push(("core/engine.py".to_string(), engine));
    let root = Root::new(&files);
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    let text = format!(
        "When the application starts it reads {} and then every one of them is applied in \
         order, but the last value wins even though the documentation says the first one \
         should be kept as it was given by the user.",
        names.join(", ")
    );
    // The chunk search alone, as deep as explore's pool, does not reach it.
    let request = SearchRequest {
        query: text,
        limit: 20,
        ..Default::default()
    };
    let pool = SearchRequest {
        limit: 60,
        ..request.clone()
    };
    let chunks = index.fulltext().unwrap().search(&pool).unwrap().0;
    assert!(chunks.iter().all(|h| h.path.starts_with("loud/")));
    let outcome = index.search(&request).unwrap();
    let at = outcome
        .hits
        .iter()
        .position(|h| h.path == "core/engine.py")
        .unwrap_or_else(|| {
            panic!(
                "{:?}",
                outcome.hits.iter().map(|h| &h.path).collect::<Vec<_>>()
            )
        });
    assert!(at < 3, "ranked {at}");
    assert!(
        outcome.hits[at]
            .why
            .contains(&"the whole file matches the text".to_string()),
        "{:?}",
        outcome.hits[at].why
    );
}

#[test]
fn analysis_graphs_are_kept_until_a_code_file_changes() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    let analysis = &runtime.services().analysis;
    let first = analysis.snapshot().unwrap();
    assert!(
        Arc::ptr_eq(&first, &analysis.snapshot().unwrap()),
        "no commit in between: the same graphs"
    );
    // A commit that touches no code file (a document changed) keeps the graphs.
    root.write("notes.txt", b"remember the eggs\n");
    index.update(false, None).unwrap();
    assert!(Arc::ptr_eq(&first, &analysis.snapshot().unwrap()));
    // A changed code file rebuilds them: the new call is in the graph.
    let calls_before = first.graph.calls.len();
    root.write(
        "pkg/app.py",
        format!("{APP_PY}\ndef other():\n    parse_config('y')\n").as_bytes(),
    );
    index.update(false, None).unwrap();
    let after = analysis.snapshot().unwrap();
    assert!(!Arc::ptr_eq(&first, &after));
    assert_eq!(after.graph.calls.len(), calls_before + 1);
}

#[test]
fn progress_moves_within_a_batch_and_never_back() {
    let files: Vec<(String, String)> = (0..100)
        .map(|i| {
            (
                format!("m/f{i}.py"),
                format!("def f{i}():\n    return {i}\n"),
            )
        })
        .collect();
    let root = Root::new(&files);
    let runtime = root.open();
    let index = index(&runtime);
    let seen = std::sync::Mutex::new(Vec::new());
    let progress = |done: u64, total: u64| seen.lock().unwrap().push((done, total));
    index.update(true, Some(&progress)).unwrap();
    let seen = seen.into_inner().unwrap();
    let total = seen.last().unwrap().1;
    assert!(total >= 100, "{seen:?}");
    assert_eq!(seen.last().unwrap().0, total, "{seen:?}");
    assert!(
        seen.windows(2).all(|w| w[0].0 < w[1].0),
        "only forward: {seen:?}"
    );
    // One batch of 512 holds every file: reports before its end come from the workers.
    assert!(seen.iter().any(|&(done, _)| done < total), "{seen:?}");
}

#[test]
fn only_files_changed_near_their_indexing_are_hashed_again() {
    let root = Root::new(&[
        ("old.py", "def old():\n    return 1\n"),
        ("new.py", "x = 1\n"),
    ]);
    let hour_ago = std::time::SystemTime::now() - Duration::from_secs(3600);
    std::fs::File::options()
        .write(true)
        .open(root.dir.path().join("old.py"))
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    let runtime = root.open();
    let index = index(&runtime);
    // The others "written a moment ago", however slow this machine is at the moment: their
    // mtimes are set ahead of the pass that reads them.
    let soon = std::time::SystemTime::now() + Duration::from_secs(60);
    for entry in std::fs::read_dir(root.dir.path()).unwrap().flatten() {
        let name = entry.file_name();
        if entry.file_type().unwrap().is_file() && name != "old.py" {
            std::fs::File::options()
                .write(true)
                .open(entry.path())
                .unwrap()
                .set_modified(soon)
                .unwrap();
        }
    }
    assert_eq!(index.update(false, None).unwrap().indexed_total(), 3);
    // old.py is trusted by size and mtime; new.py (and the root's config), written a moment
    // ago, could have changed again within the mtime's granularity: hashed, found unchanged.
    let again = index.update(false, None).unwrap();
    assert_eq!(
        (again.indexed_total(), again.unchanged, again.touched),
        (0, 1, 2),
        "{again:?}"
    );
}

#[test]
fn cached_previews_leave_with_their_chunks() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    let summaries = || -> i64 {
        index
            .reader()
            .query_row("SELECT count(*) FROM chunk_summaries", [], |r| r.get(0))
            .unwrap()
    };
    let outcome = index
        .search(&SearchRequest {
            query: "parse_config".into(),
            limit: 10,
            ..Default::default()
        })
        .unwrap();
    let previews = index.previews(&outcome.hits, "parse_config", Mode::Preview, 400);
    assert!(previews.iter().any(Option::is_some));
    assert!(summaries() > 0, "previews are cached");
    // Every file the previews came from goes: so do their cached previews.
    for hit in &outcome.hits {
        let _ = std::fs::remove_file(root.dir.path().join(&hit.path));
    }
    index.update(false, None).unwrap();
    assert_eq!(summaries(), 0);
}

/// The search index keeps no copy of a code chunk's text: a search reads it from the file.
/// Whatever code a search shows is the file's current lines and the chunk as indexed, never
/// other lines where a chunk was before an edit; after the pass it answers as a fresh build
/// of the same files does.
#[test]
fn shown_chunks_are_the_files_current_lines_and_a_pass_answers_as_a_fresh_build() {
    let root = sample();
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    let shown = |index: &Index, query: &str| -> Vec<(String, u32, u32, String, String)> {
        let mut shown: Vec<_> = hits(index, query)
            .into_iter()
            .map(|h| (h.path, h.start_line, h.end_line, h.body, h.kind))
            .collect();
        shown.sort();
        shown
    };
    let current_lines = |path: &str, start: u32, end: u32| -> String {
        let text = std::fs::read_to_string(root.dir.path().join(path)).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        lines[start as usize - 1..end as usize].join("\n")
    };
    let before = shown(&index, "parse_config");
    assert!(
        before
            .iter()
            .any(|h| h.0 == "pkg/lib.py" && h.3.contains("def parse_config"))
    );
    // Lines added above every definition of lib.py, with no pass yet.
    let edited = format!("import os\nimport sys\n{LIB_PY}");
    root.write("pkg/lib.py", edited.as_bytes());
    // No watcher runs here: the search sees the edit before any pass does. The chunks that
    // moved are left out; the others are shown as indexed, and are the file's lines.
    let code: Vec<_> = shown(&index, "parse_config")
        .into_iter()
        .filter(|h| h.4 == "code")
        .collect();
    assert!(code.iter().any(|h| h.0 == "pkg/app.py"), "{code:?}");
    assert!(code.iter().all(|h| h.0 != "pkg/lib.py"), "{code:?}");
    for hit in &code {
        assert!(before.contains(hit), "{hit:?}");
        assert_eq!(hit.3, current_lines(&hit.0, hit.1, hit.2), "{hit:?}");
    }
    index.update(false, None).unwrap();
    let after = shown(&index, "parse_config");
    assert!(
        after.iter().any(|h| h.0 == "pkg/lib.py" && h.1 == 5),
        "{after:?}"
    );
    let fresh = Root::new(&[
        ("pkg/__init__.py", ""),
        ("pkg/lib.py", edited.as_str()),
        ("pkg/app.py", APP_PY),
        ("docs/guide.md", GUIDE_MD),
        ("notes.txt", "remember the milk\n"),
    ]);
    let fresh_runtime = fresh.open();
    let fresh_index = self::index(&fresh_runtime);
    fresh_index.update(false, None).unwrap();
    for query in ["parse_config", "ConfigError", "installer", "milk"] {
        assert_eq!(shown(&index, query), shown(&fresh_index, query), "{query}");
    }
}

/// Files in several languages calling names of every shape, and more files calling one name
/// than the catalogue reads at once.
fn calling_files() -> Vec<(String, String)> {
    let mut files = vec![
        (
            "src/lib.rs".to_string(),
            "pub fn run() {\n    let v = Vec::new();\n    helper();\n    println!(\"{}\", v.len());\n    \
             self::parseConfig(1);\n}\n"
                .to_string(),
        ),
        (
            "web/app.ts".to_string(),
            "export function start() {\n  const s = new Server();\n  s.listen(80);\n  parseConfig('x');\n  \
             $(\"#id\");\n}\n"
                .to_string(),
        ),
        (
            "cmd/main.go".to_string(),
            // `helper` named as a value too: no call site of it.
            "package main\n\nfunc main() {\n\thelper()\n\tHTTPServe(nil)\n\tRegister(helper)\n}\n"
                .to_string(),
        ),
        (
            "java/A.java".to_string(),
            "class A {\n  void go() {\n    helper();\n    new B().parseConfig();\n  }\n}\n".to_string(),
        ),
        (
            "py/init.py".to_string(),
            "class B(A):\n    def __init__(self):\n        super().__init__()\n        self.listen(1)\n"
                .to_string(),
        ),
        // Spells the name only in a comment and a string: no call of it.
        (
            "py/notes.py".to_string(),
            "# helper() is called everywhere\nX = 1\n".to_string(),
        ),
    ];
    for i in 0..300 {
        files.push((
            format!("many/m{i:03}.py"),
            format!("def f{i}():\n    return helper({i})\n"),
        ));
    }
    files
}

/// Every call of a name the catalogue holds, by a scan of every call: what `references`
/// must find through the files the search index says call the name.
fn calls_scanned(index: &Index, name: &str) -> Vec<(String, u32)> {
    catalog::edges_by(
        &index.reader(),
        catalog::EdgeLookup::CallsNamed,
        name,
        10_000,
    )
    .unwrap()
    .into_iter()
    .map(|e| (e.path, e.line))
    .collect()
}

fn calls_referenced(index: &Index, name: &str, limit: usize) -> Vec<(String, u32)> {
    index
        .references(name, limit)
        .unwrap()
        .into_iter()
        .filter(|r| r.kind == "call")
        .map(|r| (r.path, r.line))
        .collect()
}

fn call_names(index: &Index) -> Vec<String> {
    let conn = index.reader();
    let mut stmt = conn
        .prepare("SELECT DISTINCT name FROM edges WHERE kind = 0 ORDER BY name")
        .unwrap();
    stmt.query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[test]
fn references_find_every_call_a_scan_of_every_call_finds_after_edits_as_a_fresh_build() {
    let files = calling_files();
    let root = Root::new(&files);
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    let names = call_names(&index);
    for expected in ["helper", "parseConfig", "__init__", "listen", "HTTPServe"] {
        assert!(names.iter().any(|n| n == expected), "{expected}: {names:?}");
    }
    for name in &names {
        assert_eq!(
            calls_referenced(&index, name, 1000),
            calls_scanned(&index, name),
            "{name}"
        );
    }
    // 303 calls of `helper`, more files than one read of the catalogue takes.
    let all = calls_scanned(&index, "helper");
    assert_eq!(all.len(), 303, "{all:?}");
    assert_eq!(calls_referenced(&index, "helper", 1000), all);
    assert_eq!(calls_referenced(&index, "helper", 7), all[..7]);

    // Edits: a call removed, a file that calls added, one deleted; then an incremental pass.
    root.write("many/m000.py", b"def f0():\n    return 0\n");
    root.write("late/z.py", b"def z():\n    helper()\n    parseConfig()\n");
    std::fs::remove_file(root.dir.path().join("many/m001.py")).unwrap();
    index.update(false, None).unwrap();
    let after = calls_referenced(&index, "helper", 1000);
    assert_eq!(after, calls_scanned(&index, "helper"));
    assert_eq!(after.len(), 302, "{after:?}");
    assert!(after.contains(&("late/z.py".to_string(), 2)));
    assert!(
        !after
            .iter()
            .any(|(p, _)| p == "many/m000.py" || p == "many/m001.py")
    );

    // While a pass runs the search index may not name every file the catalogue holds (a
    // full pass empties it first): references look at every call then.
    let fulltext = index.fulltext().unwrap();
    fulltext.delete_all().unwrap();
    fulltext.commit().unwrap();
    index.set_freshness(Freshness::Rebuilding);
    assert_eq!(calls_referenced(&index, "helper", 1000), after);
    // The full pass that emptied it ends.
    index.update(true, None).unwrap();
    assert_ne!(index.freshness(), Freshness::Rebuilding);

    let mut now: Vec<(String, String)> = files
        .into_iter()
        .filter(|(p, _)| p != "many/m000.py" && p != "many/m001.py")
        .collect();
    now.push(("many/m000.py".into(), "def f0():\n    return 0\n".into()));
    now.push((
        "late/z.py".into(),
        "def z():\n    helper()\n    parseConfig()\n".into(),
    ));
    let fresh = Root::new(&now);
    let fresh_runtime = fresh.open();
    let fresh_index = self::index(&fresh_runtime);
    fresh_index.update(false, None).unwrap();
    let names = call_names(&index);
    assert_eq!(names, call_names(&fresh_index));
    for name in &names {
        assert_eq!(
            calls_referenced(&index, name, 1000),
            calls_referenced(&fresh_index, name, 1000),
            "{name}"
        );
    }
}

#[test]
fn the_tree_s_go_modules_are_read_from_each_go_mod() {
    let root = Root::new(&[
        ("go.mod", "module example.com/m\n\ngo 1.21\n"),
        ("tools/go.mod", "// tools\nmodule \"example.com/m/tools\"\n"),
        ("docs/go.mod.md", "module not.a/module\n"),
        ("main.go", "package main\n\nfunc main() {}\n"),
    ]);
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    assert_eq!(
        index.go_modules(),
        [
            ("example.com/m".to_string(), String::new()),
            ("example.com/m/tools".to_string(), "tools".to_string())
        ]
    );
}

#[test]
fn the_tree_s_rust_crates_are_read_from_each_cargo_toml() {
    let root = Root::new(&[
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"regex-syntax\"]\n\n[package]\nname = \"regex\"\n",
        ),
        (
            "regex-syntax/Cargo.toml",
            "[package]\nname = \"regex-syntax\"\nversion = \"0.8.0\"\n",
        ),
        (
            "tools/Cargo.toml",
            "[package]\nname = \"tools\"\n\n[lib]\nname = \"tool_lib\"\n",
        ),
        ("broken/Cargo.toml", "[package\nname = "),
        ("src/lib.rs", "pub fn f() {}\n"),
    ]);
    let runtime = root.open();
    let index = index(&runtime);
    index.update(false, None).unwrap();
    assert_eq!(
        index.cargo_crates(),
        [
            ("regex".to_string(), String::new()),
            ("regex_syntax".to_string(), "regex-syntax".to_string()),
            ("tool_lib".to_string(), "tools".to_string())
        ]
    );
}

#[test]
fn a_manifest_naming_its_crate_after_a_path_keyword_names_none() {
    use crate::index::resolve::cargo_crate;
    assert_eq!(cargo_crate("[package]\nname = \"crate\"\n"), None);
    assert_eq!(cargo_crate("[lib]\nname = \"a::b\"\n"), None);
    assert_eq!(
        cargo_crate("[package]\nname = \"regex-syntax\"\n").as_deref(),
        Some("regex_syntax")
    );
}
