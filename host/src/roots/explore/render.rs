//! The merged envelope's text, in explore's own compact format (its `envelope.rs`), each item
//! headed by its root.

use super::ARGUMENT;
use crate::runtime::ToolOutput;
use serde_json::Value;

/// explore's compact text of an envelope (its `envelope.rs` rendering, memory aside), each
/// item headed `== <root>:<path>` when `label_roots`.
pub(super) fn render(envelope: &Value, label_roots: bool) -> String {
    let mut out = format!("explore: {}", envelope["status"].as_str().unwrap_or("ok"));
    if envelope["success"] == true {
        if let Some(message) = envelope["message"].as_str() {
            out.push_str(&format!(" - {message}"));
        }
        if let Some(suggestion) = envelope["suggestion"].as_str() {
            out.push_str(&format!("\nsuggestion: {suggestion}"));
        }
    }
    if envelope["degraded"] == true {
        let reasons: Vec<&str> = envelope["reasons"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str(&format!("\ndegraded: {}", reasons.join(", ")));
    }
    if let Some(id) = envelope["pack"]["packId"].as_str() {
        let reuse = if envelope["pack"]["hit"] == true {
            " (reused)"
        } else {
            ""
        };
        out.push_str(&format!("\npackId: {id}{reuse}"));
    }
    if let Some(c) = envelope["next"]["itemsCursor"].as_str() {
        out.push_str(&format!("\nmore items: cursor.items = {c}"));
    }
    if let Some(c) = envelope["next"]["contentCursor"].as_str() {
        out.push_str(&format!("\nmore content: cursor.content = {c}"));
    }
    let mut groups = ["docs", "code"];
    if envelope["data"]["first"] == "code" {
        groups.reverse();
    }
    for group in groups {
        let items = envelope["data"][group]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        if items.is_empty() {
            continue;
        }
        out.push_str(&format!("\n[{group}]"));
        for item in items {
            out.push_str("\n== ");
            if label_roots && let Some(root) = item[ARGUMENT].as_str() {
                out.push_str(&format!("{root}:"));
            }
            out.push_str(&display_path(item["filePath"].as_str().unwrap_or_default()));
            if let (Some(a), Some(b)) = (
                item["range"]["startLine"].as_u64(),
                item["range"]["endLine"].as_u64(),
            ) {
                out.push_str(&format!(":{a}-{b}"));
            }
            if let Some(title) = item["title"].as_str() {
                out.push_str(&format!(" ({title})"));
            }
            let why: Vec<&str> = item["why"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if !why.is_empty() {
                out.push_str(&format!(" [{}]", why.join("; ")));
            }
            for text in [&item["preview"], &item["content"]]
                .into_iter()
                .filter_map(Value::as_str)
            {
                out.push('\n');
                out.push_str(text.trim_end());
            }
        }
    }
    out
}

/// A root's rendered memory block: what its text holds past the part [`render`] makes of
/// its envelope (explore renders memory last, under `[memory]`), without the secret guard's
/// note (the merged answer gets its own), its follow-up naming `root`.
pub(super) fn memory_text(output: &ToolOutput, root: &str) -> Option<String> {
    let before = render(&output.structured, false);
    let rest = output.text.strip_prefix(&before)?;
    let memory = rest.strip_prefix("\n[memory]\n")?;
    let memory = match memory.rfind("\n[secret guard: ") {
        Some(at) => &memory[..at],
        None => memory,
    };
    Some(memory.replace(
        "explore {\"memory\": {\"ids\":",
        &format!("explore {{\"root\": \"{root}\", \"memory\": {{\"ids\":"),
    ))
}

/// A path as a header shows it: control characters escaped, so a hostile file name cannot
/// start a line of its own.
fn display_path(path: &str) -> String {
    path.chars()
        .map(|c| match c {
            '\n' => "\\n".to_string(),
            '\r' => "\\r".to_string(),
            '\t' => "\\t".to_string(),
            c if c.is_control() => format!("\\x{{{:x}}}", c as u32),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_shown_with_control_characters_escaped() {
        assert_eq!(display_path("a\nb\u{1b}.md"), "a\\nb\\x{1b}.md");
    }
}
