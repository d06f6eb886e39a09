//! A served tool call as a `tool` event: a digest of what was asked and of what came back
//! (status or error code, counts, the files and symbols involved, the transaction of an
//! edit), never the call's whole input or output. Long text (an edit's new content, a file's
//! body) is cut to its start; a call that touched a sensitive file keeps only paths and status.

use super::privacy;
use crate::error::HostError;
use serde_json::Value;

/// Keys whose string values name files, in arguments and results alike.
const PATH_KEYS: &[&str] = &[
    "path",
    "paths",
    "filePath",
    "targetPath",
    "file",
    "files",
    "file_path",
    "notebook_path",
];
/// Keys whose values name symbols.
const SYMBOL_KEYS: &[&str] = &["symbol", "symbolName"];
/// Argument text longer than this is cut to its start.
const ARG_TEXT_CHARS: usize = 160;
/// The whole argument digest at most.
const ARGS_DIGEST_CHARS: usize = 1_200;
/// Files and symbols kept per event.
const MAX_FILES: usize = 12;
const MAX_SYMBOLS: usize = 12;
/// Result files kept for a read-only call (explore, understand).
const READ_RESULT_FILES: usize = 3;

/// What a tool call leaves in memory.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolDigest {
    pub summary: String,
    pub content: String,
    pub files: Vec<String>,
    pub tx_id: Option<String>,
}

/// Whether a call is worth an event: not the memory's own traffic (a note kept or forgotten
/// is its own event; reading memory back is not news), nor the state reports clients poll.
pub fn worth_keeping(tool: &str, args_json: &str) -> bool {
    let args: Value = serde_json::from_str(args_json).unwrap_or(Value::Null);
    let command = args.get("command").and_then(Value::as_str);
    let memory_only =
        args.get("memory").is_some() && args.get("query").is_none() && args.get("paths").is_none();
    // status and history report state and clients poll them; they do no work worth recalling.
    let bookkeeping =
        tool == "manage" && matches!(command, Some("remember" | "forget" | "status" | "history"));
    !(bookkeeping || tool == "explore" && memory_only)
}

/// The digest of `tool` called with `args_json` and answering `outcome`.
pub fn digest(tool: &str, args_json: &str, outcome: Result<&Value, &HostError>) -> ToolDigest {
    let args: Value = serde_json::from_str(args_json).unwrap_or(Value::Null);
    let mut files = Vec::new();
    collect(&args, PATH_KEYS, &mut files, MAX_FILES);
    let mut result_files = Vec::new();
    let mut symbols = Vec::new();
    let mut tx_id = None;
    let status = match outcome {
        Ok(output) => {
            // What a search found is not what it touched: its first few files only, so
            // "events that touched the same files" are not every search that listed one.
            let cap = if matches!(tool, "explore" | "understand") {
                READ_RESULT_FILES
            } else {
                MAX_FILES
            };
            collect(output, PATH_KEYS, &mut result_files, cap);
            collect(output, SYMBOL_KEYS, &mut symbols, MAX_SYMBOLS);
            tx_id = find_string(output, "transactionId");
            result_status(output)
        }
        Err(err) => format!("error {}: {}", err.code, first_line(&err.message, 200)),
    };
    for file in result_files {
        if files.len() < MAX_FILES && !files.contains(&file) {
            files.push(file);
        }
    }
    let sensitive = files.iter().any(|f| privacy::is_sensitive_path(f));
    let asked = if sensitive {
        // Only where it went: what was read or written there stays out.
        String::new()
    } else {
        privacy::scrub(&args_digest(&args))
    };
    let headline = headline(&args)
        .filter(|_| !sensitive)
        .map(|h| privacy::scrub(&h));
    let mut content = tool.to_string();
    if !asked.is_empty() {
        content.push_str(&format!(" {asked}"));
    }
    content.push_str(&format!("\nresult: {status}"));
    if !files.is_empty() {
        content.push_str(&format!("\nfiles: {}", files.join(", ")));
    }
    if !symbols.is_empty() && !sensitive {
        content.push_str(&format!("\nsymbols: {}", symbols.join(", ")));
    }
    if let Some(tx) = &tx_id {
        content.push_str(&format!("\ntransaction: {tx}"));
    }
    let mut summary = match headline {
        Some(h) => format!("{tool} {h}"),
        None => tool.to_string(),
    };
    summary.push_str(&format!(" -> {}", first_line(&status, 40)));
    if let Some(file) = files.first() {
        summary.push_str(&format!(" ({file})"));
    }
    ToolDigest {
        summary: clip(&summary, 100),
        content,
        files,
        tx_id,
    }
}

/// The argument that says what the call was about, quoted: a query, goal, intent, command.
fn headline(args: &Value) -> Option<String> {
    ["query", "goal", "intent", "command", "template"]
        .iter()
        .find_map(|key| args.get(key).and_then(Value::as_str))
        .map(|text| format!("\"{}\"", first_line(text, 60)))
}

/// `key: value` for each argument, long text cut to its start.
fn args_digest(args: &Value) -> String {
    let mut parts = Vec::new();
    if let Value::Object(map) = args {
        for (key, value) in map {
            parts.push(format!("{key}: {}", value_digest(value, 0)));
        }
    }
    clip(&parts.join("; "), ARGS_DIGEST_CHARS)
}

fn value_digest(value: &Value, depth: usize) -> String {
    match value {
        Value::String(s) => {
            let n = s.chars().count();
            if n <= ARG_TEXT_CHARS {
                format!("{s:?}")
            } else {
                format!("{:?}... ({n} chars)", clip(s, ARG_TEXT_CHARS))
            }
        }
        Value::Array(items) if depth < 2 => {
            let shown: Vec<String> = items
                .iter()
                .take(6)
                .map(|v| value_digest(v, depth + 1))
                .collect();
            let more = items.len().saturating_sub(6);
            let tail = if more > 0 {
                format!(", +{more}")
            } else {
                String::new()
            };
            format!("[{}{tail}]", shown.join(", "))
        }
        Value::Object(map) if depth < 2 => {
            let shown: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}: {}", value_digest(v, depth + 1)))
                .collect();
            format!("{{{}}}", shown.join(", "))
        }
        Value::Array(items) => format!("[{} items]", items.len()),
        Value::Object(map) => format!("{{{} keys}}", map.len()),
        other => other.to_string(),
    }
}

/// ok / no_results / blocked ..., with the counts a result holds.
fn result_status(result: &Value) -> String {
    let status = result
        .get("status")
        .and_then(Value::as_str)
        .map(str::to_string)
        .unwrap_or_else(|| match result.get("success") {
            Some(Value::Bool(false)) => "failed".into(),
            _ => "ok".into(),
        });
    let code = result.get("code").and_then(Value::as_str);
    let mut out = match code {
        Some(code) => format!("{status} {code}"),
        None => status,
    };
    if let Some(Value::Object(data)) = result.get("data") {
        let counts: Vec<String> = data
            .iter()
            .filter_map(|(k, v)| v.as_array().map(|a| format!("{} {k}", a.len())))
            .filter(|c| !c.starts_with("0 "))
            .collect();
        if !counts.is_empty() {
            out.push_str(&format!(", {}", counts.join(", ")));
        }
    }
    if code.is_some()
        && let Some(message) = result.get("message").and_then(Value::as_str)
    {
        out.push_str(&format!(": {}", first_line(message, 160)));
    }
    out
}

/// Distinct string values under any of `keys`, depth first, at most `max`.
fn collect(value: &Value, keys: &[&str], out: &mut Vec<String>, max: usize) {
    fn walk(value: &Value, keys: &[&str], out: &mut Vec<String>, max: usize, depth: usize) {
        if out.len() >= max || depth > 6 {
            return;
        }
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    if keys.contains(&k.as_str()) {
                        let mut add = |s: &str| {
                            if out.len() < max && !s.is_empty() && !out.iter().any(|o| o == s) {
                                out.push(s.to_string());
                            }
                        };
                        match v {
                            Value::String(s) => add(s),
                            Value::Array(items) => {
                                items.iter().filter_map(Value::as_str).for_each(add)
                            }
                            _ => {}
                        }
                    }
                    walk(v, keys, out, max, depth + 1);
                }
            }
            Value::Array(items) => {
                for item in items {
                    walk(item, keys, out, max, depth + 1);
                }
            }
            _ => {}
        }
    }
    walk(value, keys, out, max, 0);
}

fn find_string(value: &Value, key: &str) -> Option<String> {
    let mut found = Vec::new();
    collect(value, &[key], &mut found, 1);
    found.pop()
}

/// The first line of `text`, at most `max` chars.
pub fn first_line(text: &str, max: usize) -> String {
    clip(text.lines().next().unwrap_or("").trim(), max)
}

/// At most `max` chars of `text`, with an ellipsis when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(3)).collect();
    out.push_str("...");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_explore_call_keeps_its_query_counts_and_files() {
        let out = json!({
            "success": true, "status": "ok",
            "data": {"docs": [], "code": [
                {"filePath": "src/cache.rs", "title": "Cache.get"},
                {"filePath": "src/ttl.rs", "symbol": "expire"}
            ]}
        });
        let d = digest(
            "explore",
            r#"{"query":"why does the cache expire"}"#,
            Ok(&out),
        );
        assert_eq!(
            d.summary,
            "explore \"why does the cache expire\" -> ok, 2 code (src/cache.rs)"
        );
        assert!(d.content.contains("query: \"why does the cache expire\""));
        assert!(d.content.contains("symbols: expire"), "{}", d.content);
        assert_eq!(d.files, vec!["src/cache.rs", "src/ttl.rs"]);
    }

    #[test]
    fn an_edit_keeps_its_transaction_and_cuts_long_text() {
        let long = "x".repeat(5_000);
        let args = json!({"edits": [{"filePath": "a.py", "oldText": "a", "newText": long}]});
        let out = json!({"success": true, "transactionId": "tx-1", "files": ["a.py"]});
        let d = digest("change", &args.to_string(), Ok(&out));
        assert_eq!(d.tx_id.as_deref(), Some("tx-1"));
        assert!(d.content.contains("(5000 chars)") && d.content.len() < 1_000);
        assert_eq!(d.files, vec!["a.py"]);
    }

    #[test]
    fn errors_secrets_and_sensitive_files() {
        let err = HostError::new("HASH_MISMATCH", "a.py changed since\nmore");
        let d = digest("change", r#"{"intent":"fix"}"#, Err(&err));
        assert!(
            d.summary
                .contains("error HASH_MISMATCH: a.py changed since"),
            "{}",
            d.summary
        );

        let token = format!("ghp_{}", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8");
        let d = digest(
            "explore",
            &json!({"query": format!("why is {token} refused")}).to_string(),
            Ok(&json!({"status": "ok"})),
        );
        assert!(!d.content.contains(&token) && !d.summary.contains(&token));

        let d = digest(
            "write",
            &json!({"path": ".env", "content": "API_KEY=hunter2hunter2"}).to_string(),
            Ok(&json!({"status": "ok"})),
        );
        assert!(!d.content.contains("hunter2"), "{}", d.content);
        assert_eq!(d.files, vec![".env"]);
    }
}
