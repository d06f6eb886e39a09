//! The compact text renderings of manage's answers, and the JSON of a history entry.

use crate::smart_context::plugin::edits::HistoryEntry;
use crate::smart_context::plugin::index::IndexReport;
use crate::smart_context::plugin::status::HostStatus;
use crate::smart_context::plugin::tasks::TestReport;
use sdk::iso_time;
use serde_json::{Value, json};

pub fn entry_json(e: &HistoryEntry) -> Value {
    json!({
        "transactionId": e.transaction_id,
        "intent": e.intent,
        "state": e.state,
        "createdAt": iso_time(e.created_ms),
        "createdMs": e.created_ms,
        "files": e.files,
        "undoes": e.undoes,
        "redoes": e.redoes,
    })
}

fn entry_line(e: &HistoryEntry) -> String {
    format!(
        "{} {} {} {} [{}]",
        e.transaction_id,
        iso_time(e.created_ms),
        e.state,
        e.intent,
        e.files
            .iter()
            .map(|f| sdk::display_path(f))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

pub fn history_text(entries: &[HistoryEntry], offset: u32, total: u64) -> String {
    if entries.is_empty() {
        return if total == 0 {
            "no transactions yet".into()
        } else {
            format!("no transactions past {offset} (of {total})")
        };
    }
    let mut out: Vec<String> = entries.iter().map(entry_line).collect();
    let end = u64::from(offset) + entries.len() as u64;
    if end < total {
        out.push(format!("({} more: offset={end})", total - end));
    }
    out.join("\n")
}

pub fn status_text(s: &HostStatus, ix: &IndexReport, recent: &[HistoryEntry]) -> String {
    let mut out = format!(
        "root {}\nsmart-context {}\nplugins: {}\nstore: {} (schema v{}, {} transactions, {} pending)\nindex: {}, {} files ({} code, {} documents, {} text), {} symbols, {} chunks",
        s.root,
        s.version,
        s.plugins
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        s.store_path,
        s.schema_version,
        s.transactions,
        s.pending_transactions,
        ix.state,
        ix.files,
        ix.code_files,
        ix.document_files,
        ix.text_files,
        ix.symbols,
        ix.chunks,
    );
    if ix.pending > 0 {
        out.push_str(&format!(", {} pending", ix.pending));
    }
    if !ix.failed.is_empty() {
        let codes: Vec<String> = ix.failed.iter().map(|(c, n)| format!("{n} {c}")).collect();
        out.push_str(&format!("; documents not parsed: {}", codes.join(", ")));
    }
    if let Some(m) = &ix.message {
        out.push_str(&format!(" ({m})"));
    }
    if !recent.is_empty() {
        out.push_str("\nrecent transactions:");
        for e in recent {
            out.push_str("\n  ");
            out.push_str(&entry_line(e));
        }
    }
    out
}

pub fn test_text(r: &TestReport, outcome: &str) -> String {
    let mut out = format!(
        "tests {outcome} ({}; {} ms): {} passed, {} failed, {} ignored",
        r.command.join(" "),
        r.elapsed_ms,
        r.passed,
        r.failed,
        r.ignored
    );
    if let Some(code) = r.exit_code {
        out.push_str(&format!(", exit {code}"));
    }
    for f in &r.failures {
        out.push_str(&format!("\nFAILED {f}"));
    }
    if outcome != "passed" && !r.output_tail.is_empty() {
        let tail: Vec<&str> = r.output_tail.lines().rev().take(30).collect();
        out.push_str("\n--- output (end) ---\n");
        out.push_str(&tail.into_iter().rev().collect::<Vec<_>>().join("\n"));
    }
    out
}
