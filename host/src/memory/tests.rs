use super::*;
use crate::runtime::ToolOutput;
use serde_json::json;

fn open(dir: &Path) -> Memory {
    Memory::open(
        &dir.join("state.db"),
        JournalKey::from_bytes([3; 32]),
        MemorySettings::default(),
    )
    .unwrap()
}

fn row(session: &str, kind: &str, content: &str, files: &[&str]) -> EventRow {
    EventRow {
        seq: 0,
        session_id: session.into(),
        kind: kind.into(),
        created_ms: now_ms(),
        summary: String::new(),
        content: content.into(),
        tool: None,
        files: files.iter().map(|f| f.to_string()).collect(),
        tags: vec![],
        tx_id: None,
        source: "test".into(),
    }
}

#[test]
fn tool_calls_are_captured_behind_the_answer_and_found_again() {
    let dir = tempfile::tempdir().unwrap();
    let memory = open(dir.path());
    let out = ToolOutput {
        structured: json!({"status": "ok", "data": {"code": [{"filePath": "src/cache.rs"}]}}),
        text: String::new(),
    };
    memory.record_call(
        "explore",
        r#"{"query":"cache expiry policy"}"#,
        Ok(&out.structured),
    );
    memory.record_call(
        "manage",
        r#"{"command":"remember","content":"x"}"#,
        Ok(&out.structured),
    );
    memory.flush();
    let found = memory
        .search("cache expiry", 10, 0.0, &SearchFilter::default())
        .unwrap();
    assert_eq!(
        found.items.len(),
        1,
        "remember calls are not captured twice"
    );
    let item = &found.items[0];
    assert_eq!(item.kind, "tool");
    assert_eq!(item.session_id, memory.session_id());
    // The whole question, in the server's record of a search: worth less than a note.
    assert_eq!(item.score, 0.8);
    assert!(
        item.summary.starts_with("explore \"cache expiry policy\""),
        "{}",
        item.summary
    );
    let detail = &memory.details(std::slice::from_ref(&item.id)).unwrap()[0];
    assert_eq!(detail.files, vec!["src/cache.rs"]);
    assert_eq!(detail.tools, vec!["explore"]);
}

#[test]
fn recall_puts_notes_and_the_edits_they_explain_first_and_folds_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let memory = open(dir.path());
    let mut rows = Vec::new();
    // The same search, run five times: one recollection.
    for _ in 0..5 {
        let mut r = row("s1", "tool", "explore \"slugify unicode\" -> ok", &[]);
        r.tool = Some("explore".into());
        rows.push(r);
    }
    // The edit that fixed it: its text does not say why.
    let mut edit = row(
        "s1",
        "tool",
        "change applied 1 edit",
        &["django/utils/text.py"],
    );
    edit.tool = Some("change".into());
    edit.tx_id = Some("tx_1".into());
    rows.push(edit);
    rows.push(row(
        "s1",
        "insight",
        "slugify dropped unicode letters: allow_unicode now keeps them (fixed in text.py)",
        &["django/utils/text.py"],
    ));
    for i in 0..30 {
        rows.push(row(
            "s0",
            "tool",
            &format!("explore \"module {i}\" -> ok"),
            &[],
        ));
    }
    memory.insert_rows(rows).unwrap();
    let found = memory
        .search("slugify unicode", 10, 0.0, &SearchFilter::default())
        .unwrap();
    let kinds: Vec<(&str, f64)> = found
        .items
        .iter()
        .map(|i| (i.kind.as_str(), i.score))
        .collect();
    assert_eq!(kinds[0], ("insight", 1.0), "{:?}", found.items);
    assert_eq!(
        found.items[1].id, "mem_6",
        "the edit the note explains follows it"
    );
    assert!(found.items[1].score < 1.0 && found.items[1].score > found.items[2].score);
    assert_eq!(found.items.len(), 3, "{:?}", found.items);
    assert!(
        found.items[2].summary.ends_with("(and 4 like it)"),
        "{}",
        found.items[2].summary
    );
    assert_eq!(found.total_matches, 2, "the note and one folded search");
}

#[test]
fn scores_are_the_share_of_the_question_an_event_holds() {
    let dir = tempfile::tempdir().unwrap();
    let memory = open(dir.path());
    let mut rows = vec![
        row(
            "s",
            "insight",
            "The cache TTL is read once at startup, so changing it needs a restart.",
            &["src/cache.rs"],
        ),
        row(
            "s",
            "insight",
            "Startup reads the config file before the index opens.",
            &[],
        ),
    ];
    // Filler, so document frequencies mean something.
    for i in 0..40 {
        rows.push(row(
            "s",
            "tool",
            &format!("explore \"module {i}\" -> ok"),
            &[],
        ));
    }
    memory.insert_rows(rows).unwrap();
    let all = SearchFilter::default();
    let hit = memory.search("cache TTL restart", 10, 0.0, &all).unwrap();
    assert_eq!(hit.items[0].score, 1.0);
    assert_eq!(hit.items[0].id, "mem_1");
    // Half the question's information (the rarer half) scores near one half.
    let partial = memory.search("cache config", 10, 0.0, &all).unwrap();
    assert_eq!(partial.items.len(), 2);
    assert!(
        (partial.items[0].score - 0.5).abs() < 0.05,
        "{:?}",
        partial.items
    );
    // A word nothing holds lowers every score by half its share, never empties the answer.
    let unknown = memory
        .search("cache TTL restart banana", 10, 0.0, &all)
        .unwrap();
    assert!(
        (unknown.items[0].score - 0.875).abs() < 1e-3,
        "{:?}",
        unknown.items
    );
    // minScore cuts, totalMatches counts what passed.
    let strict = memory.search("cache config", 10, 0.7, &all).unwrap();
    assert_eq!((strict.items.len(), strict.total_matches), (0, 0));
    let only = SearchFilter {
        kinds: vec!["tool".into()],
        ..Default::default()
    };
    assert!(
        memory
            .search("cache", 10, 0.0, &only)
            .unwrap()
            .items
            .is_empty()
    );
    assert!(
        memory
            .search("the of and", 10, 0.0, &all)
            .unwrap()
            .items
            .is_empty()
    );
}

#[test]
fn timeline_and_details_follow_sessions_turns_and_files() {
    let dir = tempfile::tempdir().unwrap();
    let memory = open(dir.path());
    let seqs = memory
        .insert_rows(vec![
            row("a", "prompt", "Why does the cache expire early?", &[]),
            row(
                "a",
                "tool",
                "explore \"cache expire\" -> ok",
                &["src/cache.rs"],
            ),
            row("b", "prompt", "Another session's question", &[]),
            row(
                "a",
                "response",
                "Because the TTL is in seconds:\n```rust\nlet ttl = 60;\n```",
                &["src/cache.rs"],
            ),
            row("a", "prompt", "Now fix it", &[]),
        ])
        .unwrap();
    let ids: Vec<String> = seqs.iter().map(|s| event_id(*s)).collect();
    let timeline = memory.timeline(&[ids[1].clone()], 1).unwrap();
    assert_eq!(
        timeline
            .iter()
            .map(|t| (t.id.as_str(), t.is_target))
            .collect::<Vec<_>>(),
        vec![
            (ids[0].as_str(), false),
            (ids[1].as_str(), true),
            (ids[3].as_str(), false)
        ],
        "the other session's event is not in this one's timeline"
    );
    assert!(timeline.iter().all(|t| t.preview.chars().count() <= 200));

    let details = memory
        .details(&[ids[0].clone(), ids[3].clone(), "mem_999".into()])
        .unwrap();
    assert_eq!(details.len(), 2, "an id naming nothing is left out");
    assert_eq!(details[0].child_ids, vec![ids[1].clone(), ids[3].clone()]);
    assert_eq!(details[1].parent_id.as_deref(), Some(ids[0].as_str()));
    assert_eq!(details[1].related_ids, vec![ids[1].clone()]);
    assert!(details[1].has_code && !details[0].has_code);
    assert!(memory.details(&["nonsense".into()]).is_err());
}

#[test]
fn caches_answer_repeats_and_empty_on_any_write() {
    let dir = tempfile::tempdir().unwrap();
    let memory = open(dir.path());
    memory
        .insert_rows(vec![row("s", "insight", "the parser rejects tabs", &[])])
        .unwrap();
    let all = SearchFilter::default();
    let first = memory.search("parser tabs", 5, 0.0, &all).unwrap();
    let (hits, _) = memory.cache_counts();
    assert_eq!(memory.search("parser tabs", 5, 0.0, &all).unwrap(), first);
    assert_eq!(
        memory.cache_counts().0,
        hits + 1,
        "the repeat came from the cache"
    );
    let found = |memory: &Memory| {
        memory
            .search("parser tabs", 5, 0.0, &all)
            .unwrap()
            .items
            .len()
    };
    memory
        .insert_rows(vec![row(
            "s",
            "insight",
            "the parser also rejects tabs in keys",
            &[],
        )])
        .unwrap();
    assert_eq!(found(&memory), 2);
    // Another process (a hook) writing to the same file empties the caches too.
    let other = open(dir.path());
    other
        .insert_rows(vec![row(
            "t",
            "prompt",
            "do tabs work in the parser now",
            &[],
        )])
        .unwrap();
    assert_eq!(found(&memory), 3);
    let details = memory.details(&["mem_1".into()]).unwrap();
    memory
        .forget(&ForgetFilter {
            seqs: vec![1],
            ..Default::default()
        })
        .unwrap();
    assert_ne!(
        memory.details(&["mem_1".into()]).unwrap(),
        details,
        "forgotten, not cached"
    );
}

#[test]
fn notes_are_scrubbed_summarized_and_forgettable() {
    let dir = tempfile::tempdir().unwrap();
    let memory = open(dir.path());
    let id = memory
        .remember(
            &Note {
                content: "Decided: keep the retry loop. <private>ask Bob about pay</private> It fails on 429 only.".into(),
                files: vec!["src/net.rs".into()],
                tags: vec!["decision".into()],
            },
            None,
            "agent",
        )
        .unwrap();
    let detail = &memory.details(std::slice::from_ref(&id)).unwrap()[0];
    assert!(!detail.content.contains("Bob"), "{}", detail.content);
    assert_eq!(detail.kind, "insight");
    let found = memory
        .search("decision retry", 5, 0.0, &SearchFilter::default())
        .unwrap();
    assert_eq!(found.items[0].summary, "Decided: keep the retry loop.");
    assert!(memory.remember(&Note::default(), None, "agent").is_err());
    let gone = memory
        .forget(&ForgetFilter {
            session_id: Some(memory.session_id().to_string()),
            ..Default::default()
        })
        .unwrap();
    assert_eq!(gone, 1);
    assert!(memory.details(&[id]).unwrap().is_empty());
}

#[test]
fn settings_and_ids() {
    let s = MemorySettings::from_lookup(|k| match k {
        "SMART_CONTEXT_MEMORY" => Some("off".into()),
        "SMART_CONTEXT_MEMORY_MAX_EVENTS" => Some("500".into()),
        _ => None,
    });
    assert!(!s.enabled);
    assert_eq!(s.max_events, 500);
    assert_eq!(parse_id("mem_12"), Some(12));
    assert_eq!(parse_id("12"), Some(12));
    assert_eq!(parse_id("mem_x"), None);
    assert_eq!(parse_id("mem_0"), None);
    assert_eq!(summarize("First one. Second."), "First one.");
}
