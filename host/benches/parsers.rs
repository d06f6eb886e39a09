//! Parse throughput per format, each parser as its wasm component (through the host's
//! runtime: a fresh sandboxed instance per file, as indexing runs it) against the same crate
//! called natively, in one process:
//!
//! `cargo bench -p smart-context --features parser-bench --bench parsers`
//!
//! Inputs: the PDF, DOCX and XLSX files of ../shared/corpus (those every parser reads), the
//! markdown of ../shared (spec and design) and of this repository, the same markdown read as
//! plain text, and a generated 4 MB application log. The pass with the median wasm/native ratio of ROUNDS passes over each set is reported.

use sdk::ToolResult;
use sdk::doc::Document;
use smart_context::app::{self, OpenOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const ROUNDS: usize = 7;

type Native = fn(&[u8], &str) -> ToolResult<Document>;

struct Set {
    format: &'static str,
    native: Native,
    files: Vec<(String, Vec<u8>)>,
}

fn main() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let shared = std::env::var_os("SMART_CONTEXT_SHARED")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo.join("../shared"));
    let corpus = shared.join("corpus");
    assert!(corpus.is_dir(), "no corpus at {}", corpus.display());

    let mut markdown = Vec::new();
    for dir in [
        shared.join("spec"),
        shared.clone(),
        repo.clone(),
        repo.join("docs"),
    ] {
        markdown.extend(read_dir(&dir, &["md"]));
    }
    let as_text: Vec<(String, Vec<u8>)> = markdown
        .iter()
        .map(|(n, b)| (n.replace(".md", ".txt"), b.clone()))
        .collect();
    let sets = [
        Set {
            format: "markdown",
            native: markdown::Markdown::parse,
            files: markdown,
        },
        Set {
            format: "text",
            native: text::Text::parse,
            files: as_text,
        },
        Set {
            format: "log",
            native: text::Text::parse,
            files: vec![("app.log".into(), generated_log(4 << 20))],
        },
        Set {
            format: "pdf",
            native: pdf::Pdf::parse,
            files: read_dir(&corpus.join("pdf"), &["pdf"]),
        },
        Set {
            format: "docx",
            native: docx::Docx::parse,
            files: read_dir(&corpus.join("office"), &["docx", "docm"]),
        },
        Set {
            format: "xlsx",
            native: xlsx::Spreadsheet::parse,
            files: read_dir(&corpus.join("office"), &["xlsx", "xlsm"]),
        },
    ];

    let root = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    std::fs::write(
        cache.path().join("operator.toml"),
        format!("cache_dir = {:?}\n[index]\nwatch = false\n", cache.path()),
    )
    .unwrap();
    let runtime = app::open(&OpenOptions {
        root: root.path().into(),
        config: Some(cache.path().join("operator.toml")),
        ..OpenOptions::default()
    })
    .unwrap();

    println!(
        "parser throughput, wasm component vs native (the median of {ROUNDS} interleaved passes; {} cores)\n",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "| format | files | MB | native MB/s | wasm MB/s | native files/s | wasm files/s | wasm speed vs native | peak wasm memory |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for set in &sets {
        let bytes: usize = set.files.iter().map(|(_, b)| b.len()).sum();
        let mut peak = 0usize;
        let mut agree = 0;
        for (name, data) in &set.files {
            let native = (set.native)(data, name);
            let (wasm, used) = runtime.parse_bytes_measured(name, data);
            peak = peak.max(used);
            let same = match (&native, &wasm) {
                (Ok(n), Ok(w)) => n.sections.len() == w.sections.len(),
                (Err(n), Err(w)) => n.code == w.code,
                _ => false,
            };
            agree += usize::from(same);
        }
        assert_eq!(
            agree,
            set.files.len(),
            "{}: wasm and native disagree on some files",
            set.format
        );
        // Native and wasm alternate file by file, so machine noise hits both sides alike;
        // the ratio is taken per pass, then the median.
        let mut passes: Vec<(Duration, Duration)> = (0..ROUNDS)
            .map(|_| {
                let (mut native, mut wasm) = (Duration::ZERO, Duration::ZERO);
                for (name, data) in &set.files {
                    native += time(|| drop(std::hint::black_box((set.native)(data, name))));
                    wasm += time(|| drop(std::hint::black_box(runtime.parse_bytes(name, data))));
                }
                (native, wasm)
            })
            .collect();
        passes.sort_by(|a, b| {
            let ra = a.0.as_secs_f64() / a.1.as_secs_f64();
            let rb = b.0.as_secs_f64() / b.1.as_secs_f64();
            ra.total_cmp(&rb)
        });
        let (native, wasm) = passes[ROUNDS / 2];
        let mb = bytes as f64 / 1e6;
        let files = set.files.len() as f64;
        println!(
            "| {} | {} | {:.1} | {:.1} | {:.1} | {:.0} | {:.0} | {:.0}% | {:.1} MiB |",
            set.format,
            set.files.len(),
            mb,
            mb / native.as_secs_f64(),
            mb / wasm.as_secs_f64(),
            files / native.as_secs_f64(),
            files / wasm.as_secs_f64(),
            100.0 * native.as_secs_f64() / wasm.as_secs_f64(),
            peak as f64 / (1 << 20) as f64,
        );
    }
    // The fixed cost of one sandboxed parse: a fresh instance, a one-line file in, its
    // one-section document out.
    let calls = 2_000;
    let fixed = time(|| {
        for _ in 0..calls {
            drop(std::hint::black_box(runtime.parse_bytes("a.txt", b"x\n")));
        }
    }) / calls;
    let native_fixed = time(|| {
        for _ in 0..calls {
            drop(std::hint::black_box(text::Text::parse(b"x\n", "a.txt")));
        }
    }) / calls;
    println!(
        "\nfixed cost of one parse (a one-line .txt): wasm {:.1} µs, native {:.2} µs",
        fixed.as_secs_f64() * 1e6,
        native_fixed.as_secs_f64() * 1e6
    );
    println!(
        "\nwasm speed vs native = native time / wasm time (100% = as fast); the wasm side includes a fresh instance, copying the bytes in and the document out."
    );
}

fn read_dir(dir: &Path, extensions: &[&str]) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| extensions.contains(&e.to_ascii_lowercase().as_str()))
        })
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().to_string();
            (name, std::fs::read(&p).unwrap())
        })
        .collect();
    out.sort();
    out
}

/// A deterministic application log: requests, warnings, and now and then an error burst with
/// a stack trace.
fn generated_log(size: usize) -> Vec<u8> {
    let mut out = String::new();
    let mut i = 0u64;
    while out.len() < size {
        let (h, m, s) = (i / 3600 % 24, i / 60 % 60, i % 60);
        let ts = format!("2026-11-21 {h:02}:{m:02}:{s:02},{:03}", i * 7 % 1000);
        if i.is_multiple_of(97) {
            out.push_str(&format!("{ts} ERROR worker-{} request {i} failed: timeout talking to db\nTraceback (most recent call last):\n  File \"app/db.py\", line 42, in query\n    rows = cursor.execute(sql)\nTimeoutError: 30 s elapsed\n", i % 8));
        } else if i.is_multiple_of(13) {
            out.push_str(&format!(
                "{ts} WARN  cache miss ratio {}% over the last minute\n",
                i % 40
            ));
        } else {
            out.push_str(&format!(
                "{ts} INFO  GET /api/items/{i} 200 {} ms\n",
                i % 90
            ));
        }
        i += 1;
    }
    out.into_bytes()
}

fn time(f: impl FnOnce()) -> Duration {
    let t = Instant::now();
    f();
    t.elapsed()
}
