//! Robustness of the format-parser components on real-world files: every file of
//! ../shared/corpus (read in place) goes through the host's runtime, in a fresh sandboxed
//! instance under the memory cap and the deadline, exactly as indexing parses it. Each must
//! give a document or a clean error (ENCRYPTED, MALFORMED, TOO_LARGE, UNSUPPORTED) and finish
//! within its deadline; a trap, a memory-cap stop or a deadline is a parser bug to fix.

mod common;

use smart_context::app::{self, OpenOptions};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Codes that mean "this file cannot become a document", said cleanly.
const CLEAN: &[&str] = &["ENCRYPTED", "MALFORMED", "TOO_LARGE", "UNSUPPORTED"];
const TIMEOUT_MS: u64 = 10_000;

fn corpus() -> PathBuf {
    let dir = std::env::var_os("SMART_CONTEXT_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus"));
    assert!(
        dir.is_dir(),
        "the parser corpus is not at {} (check out ../shared beside the repository, or set SMART_CONTEXT_CORPUS)",
        dir.display()
    );
    dir
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(files(&path));
        } else if path.file_name().is_some_and(|n| n != "README.md") {
            out.push(path);
        }
    }
    out.sort();
    out
}

#[derive(Default)]
struct Tally {
    outcomes: BTreeMap<(String, String), u64>,
    bugs: Vec<String>,
    slowest: (Duration, String),
    /// Largest linear memory one parse grew to.
    peak: usize,
}

#[test]
fn every_corpus_file_parses_or_fails_cleanly_within_its_deadline() {
    let corpus = corpus();
    let root = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    let config = home.path().join("operator.toml");
    std::fs::write(
        &config,
        format!(
            "cache_dir = {:?}\n[index]\nwatch = false\n[limits]\ntimeout_ms = {TIMEOUT_MS}\n",
            common::cache_home()
        ),
    )
    .unwrap();
    let runtime = app::open(&OpenOptions {
        root: root.path().into(),
        config: Some(config),
        builtin_plugins: None,
        embedded_plugins: &[],
        data_dir: Some(home.path().join("data")),
        state_dir: None,
        ..OpenOptions::default()
    })
    .unwrap();
    let files = files(&corpus);
    assert!(files.len() > 700, "only {} corpus files", files.len());
    let tally = Mutex::new(Tally::default());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    let name = path.file_name().unwrap().to_string_lossy().to_string();
                    let format = name.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
                    let bytes = std::fs::read(path).unwrap();
                    let started = Instant::now();
                    let (outcome, peak) = runtime.parse_bytes_measured(&name, &bytes);
                    let took = started.elapsed();
                    let mut t = tally.lock().unwrap();
                    t.peak = t.peak.max(peak);
                    let label = match &outcome {
                        Ok(doc) if doc.sections.is_empty() => "empty document".to_string(),
                        Ok(_) => "document".to_string(),
                        Err(e) if CLEAN.contains(&e.code.as_str()) => e.code.clone(),
                        Err(e) => {
                            t.bugs
                                .push(format!("{name}: {} {} ({took:?})", e.code, e.message));
                            e.code.clone()
                        }
                    };
                    if took > Duration::from_millis(TIMEOUT_MS + 2_000) {
                        t.bugs.push(format!("{name}: took {took:?}"));
                    }
                    if took > t.slowest.0 {
                        t.slowest = (took, name.clone());
                    }
                    *t.outcomes.entry((format, label)).or_default() += 1;
                }
            });
        }
    });
    let t = tally.into_inner().unwrap();
    println!("corpus: {} files", files.len());
    for ((format, label), n) in &t.outcomes {
        println!("  {format:5} {label:16} {n}");
    }
    println!("  slowest: {} in {:?}", t.slowest.1, t.slowest.0);
    println!(
        "  peak memory of one parse: {:.1} MiB (cap {} MiB)",
        t.peak as f64 / (1 << 20) as f64,
        runtime.memory_cap() >> 20
    );
    assert!(t.peak < runtime.memory_cap());
    assert!(t.bugs.is_empty(), "parser bugs:\n{}", t.bugs.join("\n"));
    let documents: u64 = t
        .outcomes
        .iter()
        .filter(|((_, l), _)| l == "document")
        .map(|(_, n)| n)
        .sum();
    assert!(
        documents as usize * 2 > files.len(),
        "most corpus files are ordinary documents: {documents} of {}",
        files.len()
    );
}

/// An agent's view: real PDF, DOCX and XLSX files (copied from the corpus into a throwaway
/// workspace) found by search and read by section through the explore pillar of the binary.
#[test]
fn explore_finds_and_reads_pdf_docx_and_xlsx_sections() {
    let corpus = corpus();
    let fx = common::Fixture::new();
    for (from, to) in [
        ("pdf/tracemonkey_a11y.pdf", "papers/tracemonkey.pdf"),
        ("office/59030.docx", "notes/layout.docx"),
        ("office/57535.xlsx", "data/book.xlsx"),
        ("office/SimpleMacro.docm", "notes/macros.docm"),
        ("pdf/outlines_for_editor.pdf", "papers/utf8-bytes.pdf"),
    ] {
        let target = fx.path().join(to);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(corpus.join(from), target).unwrap();
    }
    let call = |args: serde_json::Value| -> serde_json::Value {
        let out = fx
            .command(&["call", "explore", &args.to_string()])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let found = call(serde_json::json!({ "query": "trace-based compilation" }));
    let docs = found["data"]["docs"].as_array().unwrap();
    assert_eq!(docs[0]["filePath"], "papers/tracemonkey.pdf", "{found}");

    let page = call(serde_json::json!({
        "paths": ["papers/tracemonkey.pdf"],
        "section": { "sectionId": "page-1" }
    }));
    let text = page["data"]["docs"][0]["content"].as_str().unwrap();
    assert!(
        text.contains("Trace-based Just-in-Time Type Specialization for Dynamic\nLanguages"),
        "page text keeps its lines: {text}"
    );

    let table = call(serde_json::json!({ "paths": ["notes/layout.docx"] }));
    let preview = table["data"]["docs"][0]["preview"].as_str().unwrap();
    assert!(preview.contains("Top | Bottom"), "{table}");

    // A workbook reads as its outline: a line per sheet saying what it holds, then a sheet.
    let sheets = call(serde_json::json!({ "paths": ["data/book.xlsx"] }));
    let outline = sheets["data"]["docs"][0]["preview"].as_str().unwrap();
    assert!(
        outline.contains("§sheet1 ") && outline.contains(" rows x "),
        "a sheet section says what it holds: {sheets}"
    );
    let sheet = call(serde_json::json!({
        "paths": ["data/book.xlsx"],
        "section": { "sectionId": "sheet1" }
    }));
    let first = &sheet["data"]["docs"][0];
    assert_eq!(first["kind"], "document_section", "{sheet}");
    assert!(
        first["content"]
            .as_str()
            .unwrap()
            .contains("8 rows x 5 columns")
    );

    // view=full on a document is its text, every section in order, never its container's
    // bytes; the bytes only with allowBinary.
    let full = |path: &str, extra: serde_json::Value| -> serde_json::Value {
        let mut args = serde_json::json!({ "paths": [path], "view": "full", "limits": { "maxChars": 200000 } });
        args.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let out = call(args);
        assert_eq!(out["status"], "ok", "{out}");
        out["data"]["docs"][0].clone()
    };
    for (path, format, words) in [
        (
            "papers/tracemonkey.pdf",
            "pdf",
            "[page 1]\nTrace-based Just-in-Time",
        ),
        ("notes/layout.docx", "docx", "Top | Bottom"),
        ("data/book.xlsx", "xlsx", "Sheet1!A1:E8, 8 rows x 5 columns"),
        (
            "notes/macros.docm",
            "docx",
            "This is a macro word processing document",
        ),
        ("papers/utf8-bytes.pdf", "pdf", "[page 5]"),
    ] {
        let item = full(path, serde_json::json!({}));
        let text = item["content"].as_str().unwrap();
        assert_eq!(item["kind"], "file_full", "{item}");
        assert_eq!(item["metadata"]["documentText"], format, "{item}");
        assert!(text.contains(words), "{path}: {text}");
        assert!(
            !text.starts_with("%PDF")
                && !text.starts_with("PK")
                && item["metadata"]["lossyUtf8"].is_null(),
            "{path} read as bytes: {item}"
        );
    }
    let sheets = full("data/book.xlsx", serde_json::json!({}));
    let text = sheets["content"].as_str().unwrap();
    assert!(
        text.find("Sheet1!").unwrap() < text.find("Sheet2: empty sheet").unwrap(),
        "sheets in order: {text}"
    );
    let bytes = full(
        "papers/tracemonkey.pdf",
        serde_json::json!({ "allowBinary": true }),
    );
    assert!(
        bytes["content"].as_str().unwrap().starts_with("%PDF-"),
        "{bytes}"
    );
    assert!(bytes["metadata"]["documentText"].is_null());

    // A macro-enabled document is a document like any other: outlined, not BINARY_BLOCKED.
    let docm = call(serde_json::json!({ "paths": ["notes/macros.docm"] }));
    assert_eq!(docm["status"], "ok", "{docm}");
    assert!(
        docm["data"]["docs"][0]["preview"]
            .as_str()
            .unwrap()
            .contains("sections; read one with section.sectionId"),
        "{docm}"
    );
}
