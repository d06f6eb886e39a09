//! The conversation, where a client offers it: the payloads coding-agent clients hand their
//! hook commands, read as memory events. `smart-context memory hook` feeds them in; the hook
//! configurations to paste are [`config_for`].
//!
//! | client | prompt | response | tool |
//! |---|---|---|---|
//! | Claude Code | UserPromptSubmit `prompt` | Stop: the transcript's last assistant text | PostToolUse |
//! | Gemini CLI | BeforeAgent `prompt` | AfterAgent `prompt_response` | AfterTool |
//! | Cursor | beforeSubmitPrompt `prompt` | afterAgentResponse `text` | afterFileEdit, afterShellExecution |
//! | Codex | notify `agent-turn-complete`: the last `input-messages` entry | `last-assistant-message` | - |
//!
//! Calls of smart-context's own tools are left out (the server records those itself), and a
//! tool's output is never stored: only the digest [`super::capture`] makes of it.

use super::capture;
use crate::store::memory::EventRow;
use crate::store::now_ms;
use serde_json::Value;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The clients whose hook payloads are understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum HookClient {
    ClaudeCode,
    GeminiCli,
    Cursor,
    Codex,
}

impl HookClient {
    fn name(self) -> &'static str {
        match self {
            HookClient::ClaudeCode => "claude-code",
            HookClient::GeminiCli => "gemini-cli",
            HookClient::Cursor => "cursor",
            HookClient::Codex => "codex",
        }
    }

    /// Which client sent `payload`, from the fields only one of them uses.
    pub fn detect(payload: &Value) -> Option<Self> {
        let event = payload.get("hook_event_name").and_then(Value::as_str);
        if payload.get("type").and_then(Value::as_str) == Some("agent-turn-complete") {
            return Some(HookClient::Codex);
        }
        if payload.get("conversation_id").is_some() || payload.get("cursor_version").is_some() {
            return Some(HookClient::Cursor);
        }
        match event? {
            "BeforeAgent" | "AfterAgent" | "AfterTool" | "BeforeTool" => {
                Some(HookClient::GeminiCli)
            }
            _ => Some(HookClient::ClaudeCode),
        }
    }
}

/// The last assistant text of a Claude Code transcript is read from at most this much of its end.
const TRANSCRIPT_TAIL_BYTES: u64 = 4 << 20;

/// The project directory a payload speaks for, if it says.
pub fn payload_root(payload: &Value) -> Option<PathBuf> {
    payload
        .get("cwd")
        .and_then(Value::as_str)
        .or_else(|| {
            payload
                .get("workspace_roots")
                .and_then(|r| r.get(0))
                .and_then(Value::as_str)
        })
        .map(PathBuf::from)
}

/// Where Claude Code keeps its transcripts (`$CLAUDE_CONFIG_DIR`, else `~/.claude`): the only
/// place a payload's `transcript_path` is read from.
pub fn transcript_dir() -> Option<PathBuf> {
    std::env::var_os("CLAUDE_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".claude")))
}

/// The events a payload carries (none for hooks that say nothing worth keeping).
pub fn events(client: HookClient, payload: &Value) -> Vec<EventRow> {
    events_reading(client, payload, transcript_dir().as_deref())
}

/// [`events`], reading transcripts only from inside `transcripts`.
fn events_reading(
    client: HookClient,
    payload: &Value,
    transcripts: Option<&Path>,
) -> Vec<EventRow> {
    let text = |key: &str| payload.get(key).and_then(Value::as_str).map(str::to_string);
    let session = ["session_id", "conversation_id", "thread-id", "thread_id"]
        .iter()
        .find_map(|k| text(k))
        .unwrap_or_else(|| "unknown".into());
    let event_name = text("hook_event_name").unwrap_or_default();
    let row = |kind: &str, content: String, tool: Option<String>| EventRow {
        seq: 0,
        session_id: format!("{}:{session}", client.name()),
        kind: kind.into(),
        created_ms: now_ms(),
        summary: String::new(),
        content,
        tool,
        files: Vec::new(),
        tags: Vec::new(),
        tx_id: None,
        source: format!("hook:{}", client.name()),
    };
    let mut out = Vec::new();
    let mut push_text = |kind: &str, content: Option<String>| {
        if let Some(content) = content.filter(|c| !c.trim().is_empty()) {
            out.push(row(kind, content, None));
        }
    };
    match (client, event_name.as_str()) {
        (HookClient::ClaudeCode, "UserPromptSubmit")
        | (HookClient::GeminiCli, "BeforeAgent")
        | (HookClient::Cursor, "beforeSubmitPrompt") => push_text("prompt", text("prompt")),
        (HookClient::ClaudeCode, "Stop" | "SubagentStop") => push_text(
            "response",
            text("transcript_path").and_then(|p| {
                let inside = transcripts.and_then(|dir| transcript_file(Path::new(&p), dir));
                if inside.is_none() {
                    tracing::warn!(
                        "transcript_path {p:?} is not a regular .jsonl file inside the client's transcript directory; not read"
                    );
                }
                inside.and_then(last_assistant_text)
            }),
        ),
        (HookClient::GeminiCli, "AfterAgent") => push_text("response", text("prompt_response")),
        (HookClient::Cursor, "afterAgentResponse") => push_text("response", text("text")),
        (HookClient::Codex, _) => {
            let prompt = payload
                .get("input-messages")
                .and_then(Value::as_array)
                .and_then(|m| m.last())
                .and_then(Value::as_str)
                .map(str::to_string);
            push_text("prompt", prompt);
            push_text("response", text("last-assistant-message"));
        }
        (HookClient::ClaudeCode, "PostToolUse") | (HookClient::GeminiCli, "AfterTool") => {
            let tool = text("tool_name").unwrap_or_default();
            if !is_own_tool(&tool) {
                let input = payload.get("tool_input").cloned().unwrap_or(Value::Null);
                let response = payload.get("tool_response").cloned().unwrap_or(Value::Null);
                out.push(tool_row(&row, &tool, &input, response));
            }
        }
        (HookClient::Cursor, "afterFileEdit" | "afterShellExecution") => {
            let tool = if event_name == "afterFileEdit" {
                "Edit"
            } else {
                "Shell"
            };
            let mut input = payload.clone();
            if let Value::Object(map) = &mut input {
                for noise in [
                    "hook_event_name",
                    "conversation_id",
                    "generation_id",
                    "workspace_roots",
                    "cursor_version",
                    "output",
                ] {
                    map.remove(noise);
                }
            }
            out.push(tool_row(&row, tool, &input, Value::Null));
        }
        _ => {}
    }
    out
}

fn tool_row(
    row: &dyn Fn(&str, String, Option<String>) -> EventRow,
    tool: &str,
    input: &Value,
    response: Value,
) -> EventRow {
    let output = if response.is_object() {
        response
    } else {
        serde_json::json!({})
    };
    let digest = capture::digest(tool, &input.to_string(), Ok(&output));
    let mut event = row("tool", digest.content, Some(tool.to_string()));
    event.summary = digest.summary;
    event.files = digest.files;
    event.tx_id = digest.tx_id;
    event
}

/// smart-context's own tools as a client names them (`mcp__<server>__explore`): the server
/// records those calls itself.
fn is_own_tool(name: &str) -> bool {
    name.starts_with("mcp__")
        && name.rsplit("__").next().is_some_and(|last| {
            matches!(
                last,
                "explore" | "understand" | "change" | "write" | "manage"
            )
        })
}

/// The transcript `path` names, opened, when it is a regular `.jsonl` file inside `dir` (links
/// resolved first) and not a sensitive file: the path comes from the payload, so it could name
/// a key or a FIFO that would hang the hook.
fn transcript_file(path: &Path, dir: &Path) -> Option<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let real = path.canonicalize().ok()?;
    let inside = real.strip_prefix(dir.canonicalize().ok()?).ok()?;
    let rel = inside.to_string_lossy().replace('\\', "/");
    if crate::workspace::policy::is_sensitive(&rel)
        || real.extension().and_then(|e| e.to_str()) != Some("jsonl")
    {
        return None;
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW | libc::O_NOCTTY)
        .open(&real)
        .ok()?;
    file.metadata().ok()?.is_file().then_some(file)
}

/// The text of the last assistant message in a Claude Code transcript (JSON lines).
fn last_assistant_text(mut file: std::fs::File) -> Option<String> {
    let len = file.metadata().ok()?.len();
    file.seek(SeekFrom::Start(len.saturating_sub(TRANSCRIPT_TAIL_BYTES)))
        .ok()?;
    let mut tail = Vec::new();
    file.take(TRANSCRIPT_TAIL_BYTES)
        .read_to_end(&mut tail)
        .ok()?;
    let tail = String::from_utf8_lossy(&tail);
    tail.lines().rev().find_map(|line| {
        let entry: Value = serde_json::from_str(line).ok()?;
        if entry.get("type").and_then(Value::as_str) != Some("assistant") {
            return None;
        }
        let content = entry.get("message")?.get("content")?;
        let text = match content {
            Value::String(s) => s.clone(),
            Value::Array(blocks) => blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str))
                .collect::<Vec<_>>()
                .join("\n"),
            _ => return None,
        };
        (!text.trim().is_empty()).then_some(text)
    })
}

/// Records what `payload` carries in the memory of the project it names (its `cwd`, else
/// `fallback_root`), or of the nearest directory above that smart-context already serves. A
/// project the server never opened gets nothing: a hook does not create state. Returns how many
/// events were kept; a payload that is not JSON or says nothing keeps none. Events are signed
/// with the journal key in `data_dir` (the user data directory).
pub fn record(
    fallback_root: &Path,
    data_dir: &Path,
    client: Option<HookClient>,
    payload: &str,
) -> anyhow::Result<usize> {
    let payload: Value = match serde_json::from_str(payload) {
        Ok(value) => value,
        Err(err) => anyhow::bail!("the hook payload is not JSON: {err}"),
    };
    let Some(client) = client.or_else(|| HookClient::detect(&payload)) else {
        return Ok(0);
    };
    let start = payload_root(&payload).unwrap_or_else(|| fallback_root.to_path_buf());
    let Some(root) = served_root(&start) else {
        tracing::debug!(
            "no smart-context state at or above {}; nothing kept",
            start.display()
        );
        return Ok(0);
    };
    let mut rows = events(client, &payload);
    if rows.is_empty() {
        return Ok(0);
    }
    for row in &mut rows {
        for file in &mut row.files {
            if let Ok(rel) = Path::new(file.as_str()).strip_prefix(&root) {
                *file = rel.to_string_lossy().replace('\\', "/");
            }
        }
    }
    let key = crate::store::JournalKey::load_or_create(data_dir)?;
    let db = root.join(crate::store::STATE_DIR).join("state.db");
    let memory = super::Memory::open(&db, key, super::MemorySettings::from_env())?;
    if !memory.enabled() {
        return Ok(0);
    }
    let kept = memory
        .insert_rows(rows)
        .map_err(|e| anyhow::anyhow!(e.message))?;
    Ok(kept.len())
}

/// The nearest directory at or above `start` whose `.smart-context/state.db` is a plain file
/// in a plain directory (a link there could send the write anywhere).
fn served_root(start: &Path) -> Option<PathBuf> {
    let start = start.canonicalize().ok()?;
    start.ancestors().find_map(|dir| {
        let state = dir.join(crate::store::STATE_DIR);
        let plain =
            |p: &Path| std::fs::symlink_metadata(p).is_ok_and(|m| !m.file_type().is_symlink());
        let db = state.join("state.db");
        (plain(&state) && state.is_dir() && plain(&db) && db.is_file()).then(|| dir.to_path_buf())
    })
}

/// The hook configuration to paste into `client`'s settings, for `smart-context memory hooks`.
pub fn config_for(client: HookClient) -> String {
    let command = "smart-context memory hook";
    match client {
        HookClient::ClaudeCode => {
            let entry = |event: &str| serde_json::json!([{ "hooks": [{ "type": "command", "command": format!("{command} --client claude-code"), "timeout": 10 }], "matcher": if event == "PostToolUse" { "*" } else { "" } }]);
            let config = serde_json::json!({ "hooks": {
                "UserPromptSubmit": entry("UserPromptSubmit"),
                "PostToolUse": entry("PostToolUse"),
                "Stop": entry("Stop"),
            }});
            format!(
                "// .claude/settings.json (or ~/.claude/settings.json): merge into \"hooks\"\n{}",
                serde_json::to_string_pretty(&config).unwrap_or_default()
            )
        }
        HookClient::GeminiCli => {
            let entry = |matcher: &str| serde_json::json!([{ "matcher": matcher, "hooks": [{ "type": "command", "command": format!("{command} --client gemini-cli") }] }]);
            let config = serde_json::json!({ "hooks": {
                "BeforeAgent": entry(""), "AfterAgent": entry(""), "AfterTool": entry("*"),
            }});
            format!(
                "// .gemini/settings.json: merge into \"hooks\"\n{}",
                serde_json::to_string_pretty(&config).unwrap_or_default()
            )
        }
        HookClient::Cursor => {
            let entry = serde_json::json!([{ "command": format!("{command} --client cursor") }]);
            let config = serde_json::json!({ "version": 1, "hooks": {
                "beforeSubmitPrompt": entry, "afterAgentResponse": entry,
                "afterFileEdit": entry, "afterShellExecution": entry,
            }});
            format!(
                "// .cursor/hooks.json\n{}",
                serde_json::to_string_pretty(&config).unwrap_or_default()
            )
        }
        HookClient::Codex => format!(
            "# ~/.codex/config.toml (Codex passes the payload as the last argument)\nnotify = [\"smart-context\", \"memory\", \"hook\", \"--client\", \"codex\"]\n# run it from the project directory, or add \"--root\", \"/path/to/project\" before \"memory\"\n# ({command} reads the payload from its argument when one is given, else stdin)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn claude_code_prompt_tool_and_stop() {
        let prompt = json!({"session_id": "abc", "hook_event_name": "UserPromptSubmit", "cwd": "/p",
            "prompt": "why does the <private>secret plan</private> cache expire?"});
        assert_eq!(HookClient::detect(&prompt), Some(HookClient::ClaudeCode));
        let e = events(HookClient::ClaudeCode, &prompt);
        assert_eq!(e.len(), 1);
        assert_eq!(
            (e[0].kind.as_str(), e[0].session_id.as_str()),
            ("prompt", "claude-code:abc")
        );
        assert_eq!(payload_root(&prompt), Some(PathBuf::from("/p")));

        let read = json!({"session_id": "abc", "hook_event_name": "PostToolUse", "tool_name": "Read",
            "tool_input": {"file_path": ".env"}, "tool_response": {"content": "API_KEY=hunter2hunter2"}});
        let e = events(HookClient::ClaudeCode, &read);
        assert_eq!(e[0].files, vec![".env"]);
        assert!(!e[0].content.contains("hunter2"), "{}", e[0].content);

        let own = json!({"session_id": "abc", "hook_event_name": "PostToolUse",
            "tool_name": "mcp__smart-context__explore", "tool_input": {"query": "x"}});
        assert!(events(HookClient::ClaudeCode, &own).is_empty());

        let dir = tempfile::tempdir().unwrap();
        let transcript = dir.path().join("t.jsonl");
        std::fs::write(
            &transcript,
            [
                json!({"type": "user", "message": {"role": "user", "content": "hi"}}),
                json!({"type": "assistant", "message": {"content": [{"type": "text", "text": "The TTL is read once at start."}, {"type": "tool_use", "name": "Read"}]}}),
                json!({"type": "assistant", "message": {"content": [{"type": "tool_use", "name": "Read"}]}}),
            ]
            .map(|v| v.to_string())
            .join("\n"),
        )
        .unwrap();
        let stop = json!({"session_id": "abc", "hook_event_name": "Stop",
            "transcript_path": transcript.to_str().unwrap()});
        let e = events_reading(HookClient::ClaudeCode, &stop, Some(dir.path()));
        assert_eq!(e[0].kind, "response");
        assert_eq!(e[0].content, "The TTL is read once at start.");
        // Outside the client's transcript directory: not read.
        let elsewhere = tempfile::tempdir().unwrap();
        assert!(events_reading(HookClient::ClaudeCode, &stop, Some(elsewhere.path())).is_empty());
    }

    #[test]
    fn a_transcript_path_naming_a_key_a_fifo_or_a_link_out_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        let line = json!({"type": "assistant", "message": {"content": "secret body"}}).to_string();
        let key = dir.path().join("id_rsa");
        std::fs::write(&key, &line).unwrap();
        let env = dir.path().join(".env.jsonl");
        std::fs::write(&env, &line).unwrap();
        std::fs::write(outside.path().join("t.jsonl"), &line).unwrap();
        let link = dir.path().join("link.jsonl");
        std::os::unix::fs::symlink(outside.path().join("t.jsonl"), &link).unwrap();
        let fifo = dir.path().join("pipe.jsonl");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) on a path inside the test's own directory.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        for path in [&key, &env, &link, &fifo] {
            let stop = json!({"session_id": "abc", "hook_event_name": "Stop",
                "transcript_path": path.to_str().unwrap()});
            let started = std::time::Instant::now();
            let e = events_reading(HookClient::ClaudeCode, &stop, Some(dir.path()));
            assert!(e.is_empty(), "{}: {e:?}", path.display());
            assert!(started.elapsed() < std::time::Duration::from_secs(5));
        }
    }

    #[test]
    fn record_keeps_events_only_where_smart_context_serves() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let payload = |cwd: &Path| {
            json!({"session_id": "s", "hook_event_name": "UserPromptSubmit", "cwd": cwd,
                "prompt": "rename the retry flag"})
            .to_string()
        };
        let home = tempfile::tempdir().unwrap();
        let record = |cwd: &Path| record(&root, home.path(), None, &payload(cwd));
        assert_eq!(record(&root).unwrap(), 0, "no state, no write");
        assert!(!root.join(".smart-context").exists());
        assert!(super::record(&root, home.path(), None, "not json").is_err());

        let state = root.join(".smart-context");
        std::fs::create_dir(&state).unwrap();
        let key = crate::store::JournalKey::load_or_create(home.path()).unwrap();
        crate::store::Store::open(&state.join("state.db"), key.clone()).unwrap();
        let sub = root.join("src");
        std::fs::create_dir(&sub).unwrap();
        assert_eq!(record(&sub).unwrap(), 1, "found from a subdirectory");
        let memory = super::super::Memory::open(
            &state.join("state.db"),
            key,
            super::super::MemorySettings::default(),
        )
        .unwrap();
        let found = memory
            .search("retry flag", 5, 0.0, &Default::default())
            .unwrap();
        assert_eq!(found.items[0].session_id, "claude-code:s");
    }

    #[test]
    fn gemini_cursor_and_codex_payloads() {
        let g = json!({"session_id": "g1", "hook_event_name": "AfterAgent", "prompt_response": "Done."});
        assert_eq!(HookClient::detect(&g), Some(HookClient::GeminiCli));
        assert_eq!(events(HookClient::GeminiCli, &g)[0].kind, "response");

        let c = json!({"conversation_id": "c1", "hook_event_name": "afterFileEdit",
            "file_path": "src/a.rs", "edits": [{"old_string": "a", "new_string": "b"}], "workspace_roots": ["/w"]});
        assert_eq!(HookClient::detect(&c), Some(HookClient::Cursor));
        let e = events(HookClient::Cursor, &c);
        assert_eq!(
            (e[0].kind.as_str(), e[0].files.clone()),
            ("tool", vec!["src/a.rs".to_string()])
        );
        assert_eq!(payload_root(&c), Some(PathBuf::from("/w")));

        let x = json!({"type": "agent-turn-complete", "thread-id": "t", "turn-id": "1",
            "input-messages": ["rename the flag"], "last-assistant-message": "Renamed it."});
        assert_eq!(HookClient::detect(&x), Some(HookClient::Codex));
        let e = events(HookClient::Codex, &x);
        assert_eq!(
            e.iter().map(|e| e.kind.as_str()).collect::<Vec<_>>(),
            ["prompt", "response"]
        );
        for client in [
            HookClient::ClaudeCode,
            HookClient::GeminiCli,
            HookClient::Cursor,
            HookClient::Codex,
        ] {
            assert!(config_for(client).contains("memory hook"));
        }
    }
}
