//! Session memory at scale: `cargo bench -p smart-context --bench memory` (release; set
//! MEMORY_BENCH_EVENTS for another size, default 100,000).
//!
//! Builds a memory of synthetic but realistic events (sessions of prompts, tool calls,
//! responses and notes over a project of 2,000 files and 300 topics), then measures:
//! - write cost per event, one event per SQLite transaction (what a hook pays) and in the
//!   writer thread's batches, and the database's growth per 10,000 events;
//! - layer latencies on the host (search, timeline, details; p50 and p99, caches cold) and
//!   smartSearch through the explore pillar;
//! - the spec's token claim: what smartSearch returns against the full details of the same
//!   results, and how often the event a question is about is among what came back
//!   (recall@10 in the index, and opened in full), on questions whose answer event is known.

use smart_context::app::{self, OpenOptions};
use smart_context::memory::{SearchFilter, event_id};
use smart_context::store::memory::{EventRow, ForgetFilter};
use std::time::Instant;

const MODULES: &[&str] = &[
    "cache",
    "parser",
    "router",
    "auth",
    "billing",
    "scheduler",
    "indexer",
    "storage",
    "search",
    "config",
    "logging",
    "network",
    "session",
    "upload",
    "export",
    "report",
    "queue",
    "retry",
    "metrics",
    "payment",
];
const ASPECTS: &[&str] = &[
    "timeout",
    "expiry",
    "encoding",
    "race",
    "leak",
    "migration",
    "validation",
    "pagination",
    "permissions",
    "locking",
    "serialization",
    "backoff",
    "limits",
    "ordering",
    "compression",
];
const CHOICES: &[&str] = &[
    "a mutex",
    "an LRU",
    "exponential backoff",
    "a feature flag",
    "UTC timestamps",
    "a bounded queue",
    "optimistic locking",
    "a retry budget",
    "streaming",
    "a schema version",
];
const VERBS: &[&str] = &[
    "flush", "resolve", "encode", "merge", "refresh", "drain", "compact", "verify",
];
const NOUNS: &[&str] = &[
    "token", "batch", "window", "ledger", "cursor", "snapshot", "bucket", "header",
];

/// A small deterministic generator (the numbers must be the same every run).
struct Rng(u64);

impl Rng {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n.max(1) as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.next(items.len())]
    }
}

/// A question whose answer is one known note, or (a topic question) any of several.
struct Question {
    text: String,
    answer_index: usize,
    /// Every note on the question's topic (topic questions only).
    any_of: Vec<usize>,
}

fn row(
    session: &str,
    kind: &str,
    content: String,
    files: Vec<String>,
    tool: Option<&str>,
    at: u64,
) -> EventRow {
    EventRow {
        seq: 0,
        session_id: session.into(),
        kind: kind.into(),
        created_ms: at,
        summary: String::new(),
        content,
        tool: tool.map(str::to_string),
        files,
        tags: Vec::new(),
        tx_id: None,
        source: "bench".into(),
    }
}

/// The events, oldest first, and questions about some of the notes among them.
fn generate(total: usize) -> (Vec<EventRow>, Vec<Question>) {
    let mut rng = Rng(0x5eed);
    let files: Vec<String> = (0..2_000)
        .map(|i| {
            let module = MODULES[i % MODULES.len()];
            let aspect = ASPECTS[(i / 20) % ASPECTS.len()];
            format!("src/{module}/{aspect}_{i}.py")
        })
        .collect();
    let mut events = Vec::with_capacity(total);
    let mut questions = Vec::new();
    let mut topics: std::collections::BTreeMap<(&str, &str), Vec<usize>> = Default::default();
    let mut at = 1_700_000_000_000u64;
    let mut session = 0;
    while events.len() < total {
        session += 1;
        let sid = format!("ses_bench{session:05}");
        for _turn in 0..60 {
            if events.len() >= total {
                break;
            }
            let (m, a) = (rng.pick(MODULES), rng.pick(ASPECTS));
            let file = files[rng.next(files.len())].clone();
            let ident = format!(
                "{}_{}_{}",
                rng.pick(VERBS),
                rng.pick(NOUNS),
                rng.next(1_000)
            );
            at += 30_000;
            let (verb, noun) = (rng.pick(VERBS), rng.pick(NOUNS));
            let mut prompt =
                format!("Why does the {m} {a} fail when we {verb} the {noun}? See {file}.");
            if rng.next(5) == 0 {
                // A pasted traceback.
                prompt.push_str("\n\nTraceback (most recent call last):\n");
                for _ in 0..3 + rng.next(5) {
                    let frame = &files[rng.next(files.len())];
                    let (line, verb, noun) = (rng.next(900), rng.pick(VERBS), rng.pick(NOUNS));
                    prompt.push_str(&format!(
                        "  File \"{frame}\", line {line}, in {verb}_{noun}\n"
                    ));
                }
                let kind = rng.pick(&["Value", "Key", "Runtime", "Timeout"]);
                prompt.push_str(&format!(
                    "{kind}Error: the {} is not ready\n",
                    rng.pick(NOUNS)
                ));
            }
            events.push(row(&sid, "prompt", prompt, vec![], None, at));
            for _ in 0..3 + rng.next(4) {
                at += 5_000;
                let other = &files[rng.next(files.len())];
                let (tool, content) = match rng.next(3) {
                    0 => (
                        "explore",
                        format!(
                            "explore query: \"{m} {a}\"\nresult: ok, 8 code, 2 docs\nfiles: {file}, {other}\nsymbols: {ident}"
                        ),
                    ),
                    1 => {
                        let (old, new, tx) =
                            (rng.pick(NOUNS), rng.pick(NOUNS), rng.next(1_000_000));
                        (
                            "change",
                            format!(
                                "change intent: \"fix the {m} {a}\"; edits: [{{filePath: \"{file}\", targetString: \"{old}\", replacementString: \"{new}\"}}]\nresult: ok\nfiles: {file}\ntransaction: tx-{tx}"
                            ),
                        )
                    }
                    _ => (
                        "understand",
                        format!(
                            "understand goal: \"how does {ident} work\"\nresult: ok\nfiles: {file}\nsymbols: {ident}"
                        ),
                    ),
                };
                events.push(row(
                    &sid,
                    "tool",
                    content,
                    vec![file.clone()],
                    Some(tool),
                    at,
                ));
            }
            at += 10_000;
            // Responses as assistants write them: a few sentences, often a code block.
            let (noun, choice) = (rng.pick(NOUNS), rng.pick(CHOICES));
            let mut response = format!(
                "The {m} {a} failed because {ident} ran before the {noun} was ready. I changed {file} to use {choice} and the tests pass."
            );
            for _ in 0..rng.next(4) {
                let (m2, n1, v, n2, n3, m3, a3) = (
                    rng.pick(MODULES),
                    rng.pick(NOUNS),
                    rng.pick(VERBS),
                    rng.pick(NOUNS),
                    rng.pick(NOUNS),
                    rng.pick(MODULES),
                    rng.pick(ASPECTS),
                );
                response.push_str(&format!(
                    " The {m2} {n1} now does {v} on the {n2} once per {n3}, which keeps the {m3} {a3} stable."
                ));
            }
            if rng.next(10) < 3 {
                let arg = rng.pick(NOUNS);
                response.push_str(&format!("\n\n```python\ndef {ident}(self, {arg}):\n"));
                for line in 0..4 + rng.next(8) {
                    let (target, verb) = (rng.pick(NOUNS), rng.pick(VERBS));
                    response.push_str(&format!("    {target} = self.{verb}_{line}({arg})\n"));
                }
                response.push_str("    return result\n```\n");
            }
            events.push(row(
                &sid,
                "response",
                response,
                vec![file.clone()],
                None,
                at,
            ));
            if rng.next(8) == 0 {
                let (choice, other, noun) = (rng.pick(CHOICES), rng.pick(CHOICES), rng.pick(NOUNS));
                at += 1_000;
                events.push(row(
                    &sid,
                    "insight",
                    format!("Decided: the {m} {a} keeps {choice} in {ident}. Tried {other} first; it broke the {noun} tests."),
                    vec![file.clone()],
                    None,
                    at,
                ));
                if rng.next(3) == 0 {
                    questions.push(Question {
                        text: format!("what did we decide about {ident} for the {m} {a}?"),
                        answer_index: events.len() - 1,
                        any_of: Vec::new(),
                    });
                }
                topics.entry((m, a)).or_default().push(events.len() - 1);
            }
        }
    }
    events.truncate(total);
    questions.retain(|q| q.answer_index < total);
    // Topic questions: what was decided on a subject, without the detail that names one note.
    for ((m, a), notes) in topics.into_iter() {
        let notes: Vec<usize> = notes.into_iter().filter(|n| *n < total).collect();
        if let Some(first) = notes.first() {
            questions.push(Question {
                text: format!("what did we decide about the {m} {a}?"),
                answer_index: *first,
                any_of: notes,
            });
        }
    }
    (events, questions)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn summary(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    println!(
        "{name:<44} p50 {:>8.2} ms  p99 {:>8.2} ms  (n={})",
        percentile(&ms, 0.5),
        percentile(&ms, 0.99),
        ms.len()
    );
}

fn db_bytes(state: &std::path::Path) -> u64 {
    ["state.db", "state.db-wal"]
        .iter()
        .filter_map(|f| std::fs::metadata(state.join(f)).ok())
        .map(|m| m.len())
        .sum()
}

fn main() {
    let total: usize = std::env::var("MEMORY_BENCH_EVENTS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let root = tempfile::tempdir().expect("a temporary root");
    let home = tempfile::tempdir().expect("a temporary home");
    std::fs::write(root.path().join("README.md"), "# bench\n").unwrap();
    let runtime = app::open(&OpenOptions {
        root: root.path().to_path_buf(),
        data_dir: Some(home.path().to_path_buf()),
        ..OpenOptions::default()
    })
    .expect("opening the bench root");
    let memory = &runtime.services().memory;
    let state = root.path().join(app::STATE_DIR);
    let (events, questions) = generate(total);
    println!(
        "smart-context memory benchmark: {total} events, {} sessions, {} questions with a known answer ({} cores)\n",
        events
            .iter()
            .map(|e| &e.session_id)
            .collect::<std::collections::HashSet<_>>()
            .len(),
        questions.len(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );

    // Writes: the first 500 one per transaction (a hook's cost), the rest in batches of 256
    // (the writer thread's), with the database's size every 10,000.
    let empty = db_bytes(&state);
    let mut single = Vec::new();
    let mut seqs = Vec::with_capacity(total);
    let mut iter = events.into_iter();
    for event in iter.by_ref().take(500.min(total)) {
        let started = Instant::now();
        seqs.extend(memory.insert_rows(vec![event]).unwrap());
        single.push(started.elapsed().as_secs_f64() * 1e3);
    }
    let rest: Vec<EventRow> = iter.collect();
    let started = Instant::now();
    let mut growth = Vec::new();
    for chunk in rest.chunks(256) {
        seqs.extend(memory.insert_rows(chunk.to_vec()).unwrap());
        if seqs.len() / 10_000 > growth.len() {
            growth.push((seqs.len(), db_bytes(&state)));
        }
    }
    let batched_us = started.elapsed().as_secs_f64() * 1e6 / rest.len().max(1) as f64;
    summary("write, one event per transaction", single);
    println!("write, batches of 256 (writer thread)        {batched_us:.1} us per event");
    let mut last = empty;
    let steps: Vec<String> = growth
        .iter()
        .map(|(n, bytes)| {
            let step = bytes.saturating_sub(last);
            last = *bytes;
            format!("{}k: +{:.1} MB", n / 1_000, step as f64 / 1e6)
        })
        .collect();
    println!(
        "database growth per 10,000 events: {} (total {:.1} MB)\n",
        steps.join(", "),
        last as f64 / 1e6
    );

    // Layer latencies on the host, caches cold (every question asked once).
    let all = SearchFilter::default();
    let exact: Vec<&Question> = questions
        .iter()
        .filter(|q| q.any_of.is_empty())
        .take(300)
        .collect();
    let topical: Vec<&Question> = questions
        .iter()
        .filter(|q| !q.any_of.is_empty())
        .take(150)
        .collect();
    let mut l1 = Vec::new();
    let mut top_ids = Vec::new();
    for q in &exact {
        let started = Instant::now();
        let found = memory.search(&q.text, 10, 0.7, &all).unwrap();
        l1.push(started.elapsed().as_secs_f64() * 1e3);
        top_ids.push(found.items.first().map(|i| i.id.clone()));
    }
    summary("L1 search (host, cold)", l1);
    let mut l2 = Vec::new();
    let mut l3 = Vec::new();
    for (i, q) in exact.iter().enumerate() {
        let id = top_ids[i]
            .clone()
            .unwrap_or_else(|| event_id(seqs[q.answer_index]));
        let started = Instant::now();
        memory.timeline(std::slice::from_ref(&id), 3).unwrap();
        l2.push(started.elapsed().as_secs_f64() * 1e3);
        let started = Instant::now();
        memory.details(&[id]).unwrap();
        l3.push(started.elapsed().as_secs_f64() * 1e3);
    }
    summary("L2 timeline, window 3 (host, cold)", l2);
    summary("L3 details (host, cold)", l3);
    // The last 100 asked are still in the 100-entry search cache.
    let mut warm = Vec::new();
    for q in exact.iter().rev().take(100) {
        let started = Instant::now();
        memory.search(&q.text, 10, 0.7, &all).unwrap();
        warm.push(started.elapsed().as_secs_f64() * 1e3);
    }
    summary("L1 search again (host, cached)", warm);

    // What capture adds to a served call: the digest of a real explore answer and the hand-off
    // to the writer thread (the row is written after the answer).
    let args =
        serde_json::json!({ "query": exact[0].text, "include": { "memory": true } }).to_string();
    let output = runtime.call_tool("explore", &args).expect("explore");
    let mut capture = Vec::new();
    for _ in 0..1_000 {
        let started = Instant::now();
        memory.record_call("explore", &args, Ok(&output.structured));
        capture.push(started.elapsed().as_secs_f64() * 1e3);
    }
    summary(
        &format!(
            "capture of one explore call ({} B answer)",
            output.structured.to_string().len()
        ),
        capture,
    );
    memory
        .forget(&ForgetFilter {
            session_id: Some(memory.session_id().to_string()),
            ..Default::default()
        })
        .unwrap();

    println!();
    evaluate(&runtime, &seqs, "questions naming one note", &exact);
    evaluate(
        &runtime,
        &seqs,
        "questions on a topic (any of its notes)",
        &topical,
    );
}

/// smartSearch through the explore pillar on `questions`: latency, tokens against the full
/// details of the same results, and whether the answer came back.
fn evaluate(
    runtime: &std::sync::Arc<smart_context::runtime::Runtime>,
    seqs: &[i64],
    name: &str,
    questions: &[&Question],
) {
    let memory = &runtime.services().memory;
    let mut smart_ms = Vec::new();
    let (mut returned, mut full, mut listed) = (0usize, 0usize, 0usize);
    let (mut in_index, mut opened, mut opened_right, mut opened_any) =
        (0usize, 0usize, 0usize, 0usize);
    let mut reasons = std::collections::BTreeMap::<String, usize>::new();
    for q in questions {
        let answers: Vec<String> = if q.any_of.is_empty() {
            vec![event_id(seqs[q.answer_index])]
        } else {
            q.any_of.iter().map(|i| event_id(seqs[*i])).collect()
        };
        let args = serde_json::json!({
            "query": q.text,
            "include": { "docs": false, "code": false, "memory": true },
        });
        let started = Instant::now();
        let out = runtime
            .call_tool("explore", &args.to_string())
            .expect("explore");
        smart_ms.push(started.elapsed().as_secs_f64() * 1e3);
        // The server records its own calls; these are the benchmark's, not the project's.
        memory
            .forget(&ForgetFilter {
                session_id: Some(memory.session_id().to_string()),
                ..Default::default()
            })
            .unwrap();
        let group = &out.structured["data"]["memory"];
        returned += group["meta"]["estimatedTokens"].as_u64().unwrap_or(0) as usize;
        *reasons
            .entry(
                group["meta"]["expansionReason"]
                    .as_str()
                    .unwrap_or("?")
                    .to_string(),
            )
            .or_default() += 1;
        let ids: Vec<String> = group["index"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|i| i["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        listed += ids.len();
        in_index += ids.iter().any(|id| answers.contains(id)) as usize;
        let details: Vec<String> = group["details"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|d| d["id"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default();
        let right = details.iter().any(|id| answers.contains(id));
        opened += right as usize;
        if !details.is_empty() {
            opened_any += 1;
            opened_right += right as usize;
        }
        // The baseline: every result of the same index loaded whole, in the shape explore
        // returns a detail in, counted the same way (chars / 4).
        let whole = memory.details(&ids).unwrap();
        full += whole
            .iter()
            .map(|d| {
                let json = serde_json::json!({
                    "id": d.id, "content": d.content, "type": d.kind, "timestamp": d.timestamp_ms,
                    "sessionId": d.session_id,
                    "metadata": {"tokenCount": d.token_count, "hasCode": d.has_code, "files": d.files, "tools": d.tools},
                    "relations": {"parentId": d.parent_id, "childIds": d.child_ids, "relatedIds": d.related_ids},
                });
                json.to_string().chars().count().div_ceil(4)
            })
            .sum::<usize>();
    }
    let n = questions.len().max(1) as f64;
    println!("{name} ({}):", questions.len());
    summary("  smartSearch through explore (wasm pillar)", smart_ms);
    println!(
        "  tokens: smartSearch {:.0} per question against {:.0} for the full details of the same results ({:.0}% fewer); {:.1} results listed on average",
        returned as f64 / n,
        full as f64 / n,
        100.0 * (1.0 - returned as f64 / full.max(1) as f64),
        listed as f64 / n
    );
    println!(
        "  answer in the index (recall@10): {:.1}%; opened in full: {:.1}%; when something was opened, it was an answer: {:.1}% ({opened_right}/{opened_any})",
        100.0 * in_index as f64 / n,
        100.0 * opened as f64 / n,
        100.0 * opened_right as f64 / opened_any.max(1) as f64
    );
    println!("  expansion reasons: {reasons:?}\n");
}
