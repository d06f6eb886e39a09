//! Session memory end to end, through rmcp's client and the built binary: one session
//! explores, edits and remembers; a new server process (a new session) asks about it and gets
//! the right events at the right layer; a client hook's prompt joins them; forgetting works.

mod common;

use common::{Fixture, call, connect, envelope, text};
use serde_json::{Value, json};

async fn ok(client: &common::Client, tool: &str, args: Value) -> Value {
    let result = call(client, tool, args).await;
    assert_ne!(result.is_error, Some(true), "{}", text(&result));
    envelope(&result)
}

#[tokio::test]
async fn a_new_session_finds_what_an_earlier_one_explored_edited_and_remembered() {
    let fx = Fixture::new();

    // Session 1: explore, edit, remember.
    let client = connect(&fx).await;
    ok(&client, "explore", json!({ "query": "answer config" })).await;
    let applied = ok(&client, "change", common::answer_edit()).await;
    let tx = applied["transactionId"].as_str().unwrap().to_string();
    let kept = ok(
        &client,
        "manage",
        json!({
            "command": "remember",
            "content": "Decided: answer() returns 43 because the spec counts from one. <private>ask Ana</private>",
            "files": ["src/lib.rs"],
            "tags": ["decision"],
        }),
    )
    .await;
    let note_id = kept["result"]["id"].as_str().unwrap().to_string();
    let status = ok(&client, "manage", json!({ "command": "status" })).await;
    let first_session = status["result"]["memory"]["sessionId"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(status["result"]["memory"]["events"], 3, "{status}");
    client.cancel().await.unwrap();

    // A client hook (Claude Code's UserPromptSubmit) records the next prompt.
    let mut hook = fx.command(&["memory", "hook"]);
    hook.stdin(std::process::Stdio::piped());
    let mut child = hook.spawn().unwrap();
    {
        use std::io::Write;
        let payload = json!({"session_id": "cc-1", "hook_event_name": "UserPromptSubmit",
            "cwd": fx.path(), "prompt": "Why does answer() return 43 now?"});
        child
            .stdin
            .take()
            .unwrap()
            .write_all(payload.to_string().as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success() && out.stdout.is_empty(), "{out:?}");

    // Session 2: a new server process asks about it.
    let client = connect(&fx).await;
    let found = ok(
        &client,
        "explore",
        json!({ "query": "why does answer return 43 decision", "include": { "memory": true } }),
    )
    .await;
    let memory = &found["data"]["memory"];
    let top = &memory["index"][0];
    assert_eq!(top["id"], note_id.as_str(), "{memory}");
    assert_eq!(top["type"], "insight");
    assert_eq!(top["sessionId"], first_session.as_str());
    assert!(top["score"].as_f64().unwrap() >= 0.92, "{memory}");
    // The note, at 0.92 or more, and after it the edit it explains (its file): the note
    // leads by more than 0.1, so it opens in full.
    assert_eq!(memory["index"][1]["type"], "tool", "{memory}");
    assert_eq!(
        memory["meta"]["expansionReason"], "clear_winner",
        "{memory}"
    );
    let detail = &memory["details"][0];
    assert_eq!(detail["id"], note_id.as_str());
    assert!(
        detail["content"]
            .as_str()
            .unwrap()
            .contains("counts from one")
    );
    assert!(
        !detail["content"].as_str().unwrap().contains("Ana"),
        "private text is never kept"
    );
    assert!(memory["meta"]["estimatedTokens"].as_u64().unwrap() <= 2_000);
    assert!(
        !found["data"]["code"].as_array().unwrap().is_empty(),
        "code answers as before"
    );
    let rendered = text(
        &call(
            &client,
            "explore",
            json!({ "query": "why does answer return 43 decision", "include": { "memory": true } }),
        )
        .await,
    );
    assert!(rendered.contains("## Related Memories ("), "{rendered}");
    assert!(
        rendered.contains(&format!("*Use \"show {note_id}\"")),
        "{rendered}"
    );

    // The edit, at the index layer only, then opened: its transaction is there.
    let edits = ok(
        &client,
        "explore",
        json!({ "query": "change answer counts from one", "include": { "memory": true },
                "memory": { "autoExpand": false, "types": ["tool"], "minScore": 0.5 } }),
    )
    .await;
    let edit = &edits["data"]["memory"]["index"][0];
    assert!(
        edit["summary"]
            .as_str()
            .unwrap()
            .starts_with("change \"answer counts from one\""),
        "{edit}"
    );
    assert!(
        edits["data"]["memory"].get("details").is_none(),
        "autoExpand false: index only"
    );
    let edit_id = edit["id"].as_str().unwrap().to_string();
    let opened = ok(
        &client,
        "explore",
        json!({ "memory": { "ids": [edit_id] } }),
    )
    .await;
    let edit_detail = &opened["data"]["memory"]["details"][0];
    assert_eq!(
        edit_detail["metadata"]["transactionId"],
        tx.as_str(),
        "{edit_detail}"
    );
    assert_eq!(edit_detail["metadata"]["files"], json!(["src/lib.rs"]));
    let related = edit_detail["relations"]["relatedIds"].as_array().unwrap();
    assert!(related.contains(&json!(note_id)), "same file: {related:?}");

    // The timeline around the note: the edit before it, in the same session; the hook's
    // prompt is another session's.
    let timeline = ok(
        &client,
        "explore",
        json!({ "memory": { "ids": [note_id], "layer": "timeline", "windowSize": 2 } }),
    )
    .await;
    let items = timeline["data"]["memory"]["timeline"].as_array().unwrap();
    let ids: Vec<&str> = items.iter().map(|i| i["id"].as_str().unwrap()).collect();
    assert!(ids.contains(&edit_id.as_str()), "{items:?}");
    assert!(
        items
            .iter()
            .any(|i| i["isTarget"] == true && i["id"] == note_id.as_str())
    );
    assert!(
        items
            .iter()
            .all(|i| i["sessionId"] == first_session.as_str())
    );
    let prompts = ok(
        &client,
        "explore",
        json!({ "query": "why does answer return 43", "include": { "memory": true },
                "memory": { "types": ["prompt"] } }),
    )
    .await;
    assert_eq!(
        prompts["data"]["memory"]["index"][0]["sessionId"], "claude-code:cc-1",
        "{prompts}"
    );

    // An id that names nothing is said so; a malformed one is an error with a code.
    let missing = ok(
        &client,
        "explore",
        json!({ "memory": { "ids": ["mem_9999"] } }),
    )
    .await;
    assert_eq!(
        missing["data"]["memory"]["meta"]["missing"],
        json!(["mem_9999"])
    );
    let bad = envelope(&call(&client, "explore", json!({ "memory": { "ids": ["nope"] } })).await);
    assert_eq!(bad["code"], "INVALID_ARGS", "{bad}");

    // Forgetting the first session leaves the hook's prompt only.
    let forgot = ok(
        &client,
        "manage",
        json!({ "command": "forget", "sessionId": first_session }),
    )
    .await;
    assert_eq!(forgot["result"]["forgotten"], 3, "{forgot}");
    let after = ok(
        &client,
        "explore",
        json!({ "query": "why does answer return 43 decision", "include": { "memory": true } }),
    )
    .await;
    let index = after["data"]["memory"]["index"].as_array().unwrap();
    assert!(
        index
            .iter()
            .all(|i| i["sessionId"] != first_session.as_str()),
        "{index:?}"
    );
    let refused = envelope(&call(&client, "manage", json!({ "command": "forget" })).await);
    assert_eq!(refused["code"], "INVALID_ARGS");
    client.cancel().await.unwrap();
}

#[test]
fn the_hook_configurations_to_paste_are_valid_json_naming_the_hook_command() {
    let fx = Fixture::new();
    for (client, events) in [
        (
            "claude-code",
            &["UserPromptSubmit", "PostToolUse", "Stop"][..],
        ),
        (
            "gemini-cli",
            &["BeforeAgent", "AfterAgent", "AfterTool"][..],
        ),
        ("cursor", &["beforeSubmitPrompt", "afterAgentResponse"][..]),
    ] {
        let out = fx.command(&["memory", "hooks", client]).output().unwrap();
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        let (comment, json) = text.split_once('\n').unwrap();
        assert!(comment.starts_with("// "), "{text}");
        let config: Value = serde_json::from_str(json).unwrap();
        for event in events {
            assert!(
                config["hooks"][event]
                    .to_string()
                    .contains(&format!("memory hook --client {client}")),
                "{client} {event}: {config}"
            );
        }
    }
    let setup = fx.command(&["setup", "claude-code"]).output().unwrap();
    assert!(
        String::from_utf8_lossy(&setup.stdout).contains("smart-context memory hooks claude-code"),
        "{setup:?}"
    );
}
