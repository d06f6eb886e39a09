//! explore end to end (ADR-040 §5, ADR-038 §5-9) through rmcp's client and the built binary:
//! routing, budgets, blocking, evidence packs (reuse, staleness, expiry), cursors, previews
//! and the env knobs.

mod common;

use common::{Client, Fixture, call, connect, connect_with_env, envelope};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// A workspace where "tokenize" appears in many files, in code and in documents.
fn fixture() -> Fixture {
    let fx = Fixture::new();
    for i in 0..12 {
        fx.write(
            &format!("src/lex{i:02}.rs"),
            &format!(
                "/// Splits input {i} into tokens.\npub fn tokenize_{i}(input: &str) -> Vec<String> {{\n    let parts = input.split(' ');\n    parts.map(|p| p.to_string()).collect()\n}}\n\npub fn unrelated_{i}() -> u32 {{\n    {i}\n}}\n"
            ),
        );
    }
    fx.write(
        "docs/lexer.md",
        "# Lexer\n\nHow we tokenize input.\n\n## Rules\n\nWarning: tokenize never allocates twice.\n\n- whitespace splits tokens\n- quotes group tokens\n\n## History\n\nThe first tokenize pass was written in 2019.\n",
    );
    fx.write(
        "notes/long.txt",
        &(1..=400)
            .map(|i| {
                let gap = if i % 10 == 0 { "\n" } else { "" };
                format!("line {i} of the long note about tokenize and nothing else\n{gap}")
            })
            .collect::<String>(),
    );
    fx
}

async fn explore(client: &Client, args: Value) -> Value {
    envelope(&call(client, "explore", args).await)
}

/// Characters of text (previews and contents) a response carries.
fn content_chars(r: &Value) -> usize {
    ["docs", "code"]
        .iter()
        .flat_map(|g| r["data"][g].as_array().cloned().unwrap_or_default())
        .map(|i| {
            ["preview", "content"]
                .iter()
                .map(|k| i[k].as_str().map_or(0, |s| s.chars().count()))
                .sum::<usize>()
        })
        .sum()
}

fn items(r: &Value, group: &str) -> Vec<Value> {
    r["data"][group].as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn routes_queries_paths_sections_directories_and_evidence() {
    let fx = fixture();
    let client = connect(&fx).await;

    // A query: documents and code apart, code signature-first with line numbers.
    let found = explore(&client, json!({ "query": "tokenize" })).await;
    assert_eq!(found["status"], "ok", "{found}");
    let docs = items(&found, "docs");
    let code = items(&found, "code");
    assert!(
        docs.iter().any(|d| d["filePath"] == "docs/lexer.md"),
        "{found}"
    );
    assert!(
        code.iter()
            .all(|c| c["filePath"].as_str().unwrap().starts_with("src/"))
    );
    let preview = code[0]["preview"].as_str().unwrap();
    assert!(
        preview.contains("| pub fn tokenize_") || preview.contains("Splits input"),
        "{preview}"
    );
    assert!(found["pack"]["packId"].as_str().unwrap().starts_with('p'));
    assert_eq!(found["pack"]["hit"], false);
    assert!(
        found["next"]["itemsCursor"].is_string(),
        "12 code hits > 6 per page"
    );
    assert!(serde_json::to_string(&found).unwrap().len() < 6_000);

    // Paths without a query read: code as its skeleton, documents as their outline.
    let file = explore(&client, json!({ "paths": ["src/lex03.rs"] })).await;
    let item = &items(&file, "code")[0];
    assert_eq!(item["kind"], "file_preview");
    let skeleton = item["preview"].as_str().unwrap();
    assert!(
        skeleton.contains("tokenize_3") && skeleton.contains("unrelated_3"),
        "{skeleton}"
    );
    assert!(
        item.get("content").is_none(),
        "view auto never attaches raw content"
    );
    let doc = explore(&client, json!({ "paths": ["docs/lexer.md"] })).await;
    let outline = items(&doc, "docs")[0]["preview"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        outline.contains("§lexer/rules") || outline.contains("Rules"),
        "{outline}"
    );
    let id = outline
        .lines()
        .find(|l| l.contains("Rules"))
        .and_then(|l| l.split_whitespace().next())
        .unwrap()
        .trim_start_matches('§')
        .to_string();
    let section = explore(
        &client,
        json!({ "paths": ["docs/lexer.md"], "section": { "sectionId": id } }),
    )
    .await;
    let part = &items(&section, "docs")[0];
    assert_eq!(part["kind"], "document_section");
    assert!(
        part["content"]
            .as_str()
            .unwrap()
            .contains("never allocates twice"),
        "{section}"
    );

    // A directory: the newest files first, then previews.
    let dir = explore(
        &client,
        json!({ "paths": ["src"], "limits": { "maxFiles": 5 } }),
    )
    .await;
    let listing = &items(&dir, "code")[0];
    assert_eq!(listing["kind"], "directory");
    assert!(
        listing["preview"]
            .as_str()
            .unwrap()
            .starts_with("5 of 13 files"),
        "{dir}"
    );
    assert!(
        dir["reasons"]
            .as_array()
            .unwrap()
            .contains(&json!("truncated"))
    );

    // Evidence: previews only, in a pack of its own.
    let evidence = explore(
        &client,
        json!({ "query": "tokenize", "intent": "evidence" }),
    )
    .await;
    assert_ne!(evidence["pack"]["packId"], found["pack"]["packId"]);
    assert!(
        items(&evidence, "code")
            .iter()
            .all(|i| i.get("content").is_none())
    );
    let refused = explore(&client, json!({ "query": "tokenize", "view": "full" })).await;
    assert_eq!(refused["status"], "invalid_args", "{refused}");

    // view=section on a query shows each hit's section or lines.
    let sections = explore(&client, json!({ "query": "quotes group", "view": "section", "include": { "code": false, "comments": false } })).await;
    let first = &items(&sections, "docs")[0];
    assert!(
        first["content"]
            .as_str()
            .unwrap()
            .contains("quotes group tokens"),
        "{sections}"
    );

    // Bad input names the field.
    for (args, field) in [
        (json!({ "query": "x", "bogus": true }), "bogus"),
        (
            json!({ "query": "x", "limits": { "maxChars": "many" } }),
            "limits.maxChars",
        ),
        (json!({ "query": "x", "intent": "guess" }), "intent"),
    ] {
        let r = explore(&client, args).await;
        assert_eq!(r["status"], "invalid_args");
        assert!(r["message"].as_str().unwrap().contains(field), "{r}");
    }
    let none = explore(&client, json!({ "query": "qqxyzzyq" })).await;
    assert_eq!(
        (none["success"].clone(), none["status"].clone()),
        (json!(true), json!("no_results"))
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn budgets_are_never_exceeded_and_full_reads_are_refused_not_cut() {
    let fx = fixture();
    let client = connect(&fx).await;
    // maxChars caps the whole response's text, whatever the request (a property over a
    // spread of budgets, routes and views).
    let mut seed = 0x2545_f491_u64;
    for round in 0..24 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let max_chars = 1 + (seed >> 33) % 3_000;
        let max_results = 1 + (seed >> 20) % 10;
        let args = match round % 4 {
            0 => json!({ "query": "tokenize input" }),
            1 => json!({ "paths": ["src", "docs/lexer.md", "notes/long.txt"] }),
            2 => json!({ "query": "tokenize", "view": "section" }),
            _ => json!({ "paths": ["notes/long.txt", "docs/lexer.md"], "view": "preview" }),
        };
        let mut args = args;
        args["limits"] = json!({ "maxChars": max_chars, "maxResults": max_results });
        let r = explore(&client, args.clone()).await;
        assert!(r["success"] == true, "{args} -> {r}");
        let used = content_chars(&r);
        assert!(used as u64 <= max_chars, "{used} > {max_chars} for {args}");
        assert_eq!(r["stats"]["charsUsed"], used);
    }

    // A preview cut by the budget says so and continues with a content cursor.
    let cut = explore(
        &client,
        json!({ "paths": ["notes/long.txt"], "limits": { "maxChars": 300 } }),
    )
    .await;
    assert_eq!(cut["degraded"], true, "{cut}");
    let reasons = cut["reasons"].as_array().unwrap();
    assert!(reasons.contains(&json!("truncated")), "{cut}");
    let cursor = cut["next"]["contentCursor"].as_str().unwrap();
    let pack = cut["pack"]["packId"].as_str().unwrap();
    let rest = explore(&client, json!({ "packId": pack, "cursor": { "content": cursor }, "limits": { "maxChars": 100000 } })).await;
    let first = items(&cut, "docs")[0]["preview"]
        .as_str()
        .unwrap()
        .to_string();
    let more = items(&rest, "docs")[0]["preview"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(!more.is_empty() && rest.get("next").is_none(), "{rest}");
    assert!(
        !first.contains(&more[..more.len().min(40)]),
        "the rest, not a repeat"
    );

    // view=full never cuts: over the limit it is blocked with the size to ask for.
    let blocked = explore(
        &client,
        json!({ "paths": ["notes/long.txt"], "view": "full", "limits": { "maxChars": 1000 } }),
    )
    .await;
    assert_eq!(
        (blocked["success"].clone(), blocked["status"].clone()),
        (json!(false), json!("blocked"))
    );
    assert!(
        blocked["suggestion"].as_str().unwrap().contains("maxChars"),
        "{blocked}"
    );
    let too_big = explore(
        &client,
        json!({ "paths": ["notes/long.txt"], "view": "full", "limits": { "maxBytes": 100 } }),
    )
    .await;
    assert_eq!(too_big["status"], "blocked");
    let whole = explore(
        &client,
        json!({ "paths": ["notes/long.txt"], "view": "full" }),
    )
    .await;
    assert_eq!(
        items(&whole, "docs")[0]["content"]
            .as_str()
            .unwrap()
            .lines()
            .count(),
        440
    );
    // fullPaths: only these get content.
    let mixed = explore(&client, json!({ "paths": ["src/lex01.rs", "src/lex02.rs"], "view": "full", "fullPaths": ["src/lex02.rs"] })).await;
    let kinds: Vec<&str> = items(&mixed, "code")
        .iter()
        .map(|i| i["kind"].as_str().unwrap().to_owned())
        .map(|s| if s == "file_full" { "full" } else { "preview" })
        .collect();
    assert_eq!(kinds, ["preview", "full"], "{mixed}");

    // A timeout returns what is ready, with the reason and a cursor for the rest.
    let slow = explore(&client, json!({ "paths": ["src", "docs", "notes"], "limits": { "timeoutMs": 1, "maxResults": 50, "maxChars": 100000 } })).await;
    assert!(
        slow["reasons"]
            .as_array()
            .unwrap()
            .contains(&json!("timeout")),
        "{slow}"
    );
    assert!(slow["next"]["itemsCursor"].is_string(), "{slow}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn sensitive_binary_and_glob_rules() {
    let fx = fixture();
    fx.write(".ssh/id_ed25519", "PRIVATE KEY\n");
    fx.write("certs/server.pem", "-----BEGIN-----\n");
    let client = connect(&fx).await;
    for path in [".env", ".ssh/id_ed25519", "certs/server.pem"] {
        for view in ["auto", "full"] {
            let r = explore(&client, json!({ "paths": [path], "view": view })).await;
            assert_eq!(
                (r["status"].clone(), r["code"].clone()),
                (json!("blocked"), json!("SENSITIVE_BLOCKED")),
                "{path} {view}"
            );
        }
    }
    let opted = explore(
        &client,
        json!({ "paths": [".env"], "view": "full", "allowSensitive": true }),
    )
    .await;
    assert!(
        items(&opted, "code")[0]["content"]
            .as_str()
            .unwrap()
            .contains("very-secret")
    );
    let capped = explore(&client, json!({ "paths": [".env"], "view": "full", "allowSensitive": true, "limits": { "maxBytes": 4 } })).await;
    assert_eq!(capped["status"], "blocked", "maxBytes still applies");
    let binary = explore(&client, json!({ "paths": ["logo.bin"] })).await;
    assert_eq!(binary["code"], "BINARY_BLOCKED");
    // Sensitive files inside a directory are left out of its expansion.
    let root = explore(&client, json!({ "paths": ["."], "limits": { "maxFiles": 100, "maxResults": 100, "maxChars": 100000 } })).await;
    let all = serde_json::to_string(&root).unwrap();
    assert!(!all.contains("very-secret") && !all.contains("PRIVATE KEY"));
    // Globs are literal names unless allowGlobs.
    let literal = explore(&client, json!({ "paths": ["src/*.rs"] })).await;
    assert_eq!(literal["success"], false);
    assert!(
        literal["suggestion"]
            .as_str()
            .unwrap()
            .contains("allowGlobs"),
        "{literal}"
    );
    let globbed = explore(&client, json!({ "paths": ["src/lex0*.rs"], "allowGlobs": true, "limits": { "maxResults": 20, "maxChars": 50000 } })).await;
    let listing = &items(&globbed, "code")[0];
    assert!(
        listing["preview"]
            .as_str()
            .unwrap()
            .starts_with("10 of 10 files"),
        "{globbed}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn packs_are_reused_paged_refreshed_and_cursors_checked() {
    let fx = fixture();
    let client = connect(&fx).await;
    let first = explore(&client, json!({ "query": "tokenize" })).await;
    let pack = first["pack"]["packId"].as_str().unwrap().to_string();

    // Asking again with the packId: what was shown comes back by reference only.
    let again = explore(&client, json!({ "query": "tokenize", "packId": pack })).await;
    assert_eq!(again["pack"]["hit"], true);
    assert_eq!(again["pack"]["packId"], pack.as_str());
    assert_eq!(content_chars(&again), 0, "{again}");
    let size = |v: &Value| serde_json::to_string(v).unwrap().len();
    assert!(
        size(&again) < size(&first),
        "{} vs {}",
        size(&again),
        size(&first)
    );
    assert!(again["message"].as_str().unwrap().contains("by reference"));
    // The packId alone continues the same request.
    let bare = explore(&client, json!({ "packId": pack })).await;
    assert_eq!(bare["query"], "tokenize");
    let other = explore(&client, json!({ "query": "unrelated", "packId": pack })).await;
    assert_eq!(
        other["status"], "invalid_args",
        "a packId belongs to its request"
    );

    // Paging with cursors returns every item exactly once.
    let fresh = explore(
        &client,
        json!({ "query": "tokenize", "limits": { "maxResults": 3 } }),
    )
    .await;
    let total = fresh["stats"]["packItems"]["docs"].as_u64().unwrap()
        + fresh["stats"]["packItems"]["code"].as_u64().unwrap();
    let mut seen = Vec::new();
    let mut page = fresh;
    loop {
        for group in ["docs", "code"] {
            for item in items(&page, group) {
                assert!(
                    item.get("preview").is_some(),
                    "a new pack shows each item once in full: {item}"
                );
                seen.push(format!(
                    "{}:{}",
                    item["filePath"], item["range"]["startLine"]
                ));
            }
        }
        let Some(cursor) = page["next"]["itemsCursor"].as_str() else {
            break;
        };
        page = explore(
            &client,
            json!({ "packId": pack, "cursor": { "items": cursor }, "limits": { "maxResults": 3 } }),
        )
        .await;
        assert_eq!(page["success"], true, "{page}");
    }
    let unique: BTreeSet<&String> = seen.iter().collect();
    assert_eq!((seen.len() as u64, unique.len() as u64), (total, total));

    // Forged and foreign cursors are refused.
    let one = explore(
        &client,
        json!({ "packId": pack, "limits": { "maxResults": 1 } }),
    )
    .await;
    let cursor = one["next"]["itemsCursor"].as_str().unwrap();
    assert!(cursor.starts_with("i.1.1."), "{cursor}");
    let ok = explore(
        &client,
        json!({ "packId": pack, "cursor": { "items": cursor } }),
    )
    .await;
    assert_eq!(ok["success"], true, "{ok}");
    let forged = cursor.replacen("i.1.1", "i.1.2", 1);
    let r = explore(
        &client,
        json!({ "packId": pack, "cursor": { "items": forged } }),
    )
    .await;
    assert_eq!(r["status"], "invalid_args");
    let elsewhere = explore(&client, json!({ "query": "unrelated" })).await;
    let r = explore(
        &client,
        json!({ "packId": elsewhere["pack"]["packId"], "cursor": { "items": cursor } }),
    )
    .await;
    assert_eq!(r["status"], "invalid_args", "{r}");
    let r = explore(
        &client,
        json!({ "packId": "pnope", "cursor": { "items": cursor } }),
    )
    .await;
    assert_eq!(r["status"], "invalid_args");

    // An edit makes the pack stale: the changed item is refreshed and shown again.
    let doc = explore(&client, json!({ "paths": ["docs/lexer.md"] })).await;
    let doc_pack = doc["pack"]["packId"].as_str().unwrap().to_string();
    fx.write(
        "docs/lexer.md",
        "# Lexer\n\nRewritten: tokenize now streams.\n\n## Streaming\n\nIt streams.\n",
    );
    let stale = explore(
        &client,
        json!({ "paths": ["docs/lexer.md"], "packId": doc_pack }),
    )
    .await;
    assert!(
        stale["reasons"]
            .as_array()
            .unwrap()
            .contains(&json!("pack_stale")),
        "{stale}"
    );
    let item = &items(&stale, "docs")[0];
    assert!(
        item["preview"].as_str().unwrap().contains("Streaming"),
        "{stale}"
    );
    assert!(item["why"].to_string().contains("changed"), "{item}");
    let settled = explore(
        &client,
        json!({ "paths": ["docs/lexer.md"], "packId": doc_pack }),
    )
    .await;
    assert!(
        settled.get("reasons").is_none(),
        "refreshed once: {settled}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn expired_packs_are_rebuilt_and_knobs_are_honored() {
    let fx = fixture();
    let client = connect_with_env(
        &fx,
        &[
            ("SMART_CONTEXT_EVIDENCE_PACK_TTL_MS", "1500"),
            ("SMART_CONTEXT_ATTACH_DOC_SECTIONS", "true"),
            ("SMART_CONTEXT_ATTACH_DOC_SECTIONS_MAX", "1"),
            ("SMART_CONTEXT_DOC_SNIPPET_MAX_CHARS", "80"),
            ("SMART_CONTEXT_DOC_SKELETON_MAX_CHARS", "90"),
        ],
    )
    .await;
    let first = explore(&client, json!({ "query": "tokenize never allocates" })).await;
    let pack = first["pack"]["packId"].as_str().unwrap();
    let expires =
        first["pack"]["expiresAt"].as_u64().unwrap() - first["pack"]["createdAt"].as_u64().unwrap();
    assert_eq!(expires, 1500);
    // ATTACH_DOC_SECTIONS: the top document hit carries its section, within the snippet cap.
    let docs = items(&first, "docs");
    let attached: Vec<&Value> = docs.iter().filter(|d| d.get("content").is_some()).collect();
    assert_eq!(attached.len(), 1, "{first}");
    assert!(attached[0]["content"].as_str().unwrap().chars().count() <= 80);
    assert!(docs[0]["preview"].as_str().unwrap().chars().count() <= 80);
    // DOC_SKELETON_MAX_CHARS caps a document's outline.
    let outline = explore(&client, json!({ "paths": ["docs/lexer.md"] })).await;
    let text = items(&outline, "docs")[0]["preview"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(text.contains("more sections"), "{text}");

    tokio::time::sleep(std::time::Duration::from_millis(1_600)).await;
    let rebuilt = explore(
        &client,
        json!({ "query": "tokenize never allocates", "packId": pack }),
    )
    .await;
    assert!(
        rebuilt["reasons"]
            .as_array()
            .unwrap()
            .contains(&json!("pack_expired")),
        "{rebuilt}"
    );
    assert_eq!(rebuilt["pack"]["hit"], false);
    assert!(
        content_chars(&rebuilt) > 0,
        "a rebuilt pack shows everything again"
    );
    client.cancel().await.unwrap();
}

/// A small project where an issue's words are everywhere (tests, changelog, other modules)
/// but one module defines what the issue is about.
fn project() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "pkg/linear/ridge.py",
        "class RidgeClassifierCV:\n    \"\"\"Ridge classifier with built-in cross-validation.\"\"\"\n\n    def __init__(self, alphas=(0.1, 1.0), cv=None):\n        self.alphas = alphas\n        self.cv = cv\n\n    def fit(self, X, y):\n        return self\n",
    );
    fx.write(
        "pkg/linear/base.py",
        "def check_alphas(alphas):\n    \"\"\"Validate alphas for cross validation.\"\"\"\n    return [a for a in alphas if a > 0]\n",
    );
    for i in 0..4 {
        fx.write(
            &format!("pkg/tests/test_ridge_{i}.py"),
            "def test_ridge_classifier_cv_store_cv_values():\n    # ridge classifier cross validation store values alphas\n    clf = RidgeClassifierCV(alphas=[0.1, 1.0], store_cv_values=True)\n    clf.fit(X, y)\n    assert clf.cv_values_ is not None\n",
        );
    }
    fx.write(
        "docs/whats_new/v0.20.txt",
        "RidgeClassifierCV now supports store_cv_values. Ridge classifier cross validation store values.\n",
    );
    fx.write(
        "docs/guide.md",
        "# Linear models\n\nRidge regression and classification with cross validation.\n",
    );
    fx
}

/// A question in plain words: the chunk saying most of them leads, though two dozen helpers
/// repeat a few of them more often (what a sum of BM25 scores favours). Fails without the
/// sentence search in the pool.
#[tokio::test]
async fn a_question_in_plain_words_finds_the_docstring_that_says_them() {
    let fx = Fixture::new();
    common::docstring_and_word_repeaters(&fx);
    let client = connect(&fx).await;
    common::wait_indexed(&client).await;
    let r = explore(
        &client,
        json!({ "query": "is the page cached already, returning its cached version when available" }),
    )
    .await;
    let code = items(&r, "code");
    assert_eq!(code[0]["filePath"], "app/cache.py", "{r}");
    assert_eq!(code[0]["title"], "FetchFromCache::process_request", "{r}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_pasted_issue_finds_the_module_it_is_about_and_says_why() {
    let fx = project();
    let client = connect(&fx).await;
    let issue = "linear_model.RidgeClassifierCV's Parameter store_cv_values issue\n\
        #### Steps/Code to Reproduce\n\
        ```\nrr = lm.RidgeClassifierCV(alphas=np.arange(0.1, 1000, 0.1), normalize=True, store_cv_values=True).fit(x, y)\n```\n\
        #### Actual Results\n\
        TypeError: __init__() got an unexpected keyword argument 'store_cv_values'\n\
        The docs say \"cv_values_ : array, shape = [n_samples, n_alphas]\" and the value 4 4 4 4 4 4.\n\
        Traceback (most recent call last):\n  File \"/home/u/site-packages/pkg/linear/ridge.py\", line 4, in __init__\n";
    let r = explore(&client, json!({ "query": issue })).await;
    // Quoted text the code does not hold word for word is evidence, not a filter.
    assert_eq!(r["status"], "ok", "{r}");
    let code = items(&r, "code");
    assert_eq!(code[0]["filePath"], "pkg/linear/ridge.py", "{r}");
    let why: Vec<&str> = code[0]["why"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    // The file is shown by the function of the traceback's innermost frame in it.
    assert!(
        code[0]["title"]
            .as_str()
            .is_some_and(|t| t.ends_with("RidgeClassifierCV::__init__")),
        "{r}"
    );
    assert!(why.contains(&"defines init"), "{why:?}");
    assert!(why.contains(&"traceback frame"), "{why:?}");
    // Every item says why; the first six items are five files, the first file's second part
    // fifth; tests come after source.
    for item in code.iter().chain(&items(&r, "docs")) {
        assert!(!item["why"].as_array().unwrap().is_empty(), "{item}");
    }
    let files: Vec<&str> = code.iter().filter_map(|i| i["filePath"].as_str()).collect();
    let distinct: BTreeSet<&str> = files.iter().take(6).copied().collect();
    assert_eq!(distinct.len(), 5, "{files:?}");
    assert_eq!(files[4], files[0], "{files:?}");
    assert!(
        code[4]["why"].to_string().contains("part 2 of this file"),
        "{}",
        code[4]
    );
    let first_test = files.iter().position(|f| f.contains("/tests/")).unwrap();
    assert!(files[..first_test].contains(&"pkg/linear/ridge.py"));
    let test_why = code[first_test]["why"].to_string();
    assert!(test_why.contains("test file"), "{test_why}");
    // The changelog is found, and marked as demoted.
    let docs = items(&r, "docs");
    let changelog = docs
        .iter()
        .find(|i| i["filePath"] == "docs/whats_new/v0.20.txt")
        .unwrap_or_else(|| panic!("{r}"));
    assert!(
        changelog["why"].to_string().contains("changelog"),
        "{changelog}"
    );

    // Many results: code keeps its share of the budget.
    let many = explore(
        &client,
        json!({ "query": issue, "limits": { "maxResults": 100 } }),
    )
    .await;
    assert!(!items(&many, "code").is_empty(), "{many}");
    assert!(!items(&many, "docs").is_empty(), "{many}");
    // +"..." requires a verbatim match.
    let required = explore(
        &client,
        json!({ "query": "+\"got an unexpected keyword\"" }),
    )
    .await;
    assert_eq!(required["status"], "no_results", "{required}");
    client.cancel().await.unwrap();
}

/// Two modules hold the same text; the one the rest of the project imports is what a pasted
/// issue is more likely about, once the graphs are built, and the answer says so.
#[tokio::test]
async fn a_pasted_issue_s_close_race_goes_to_the_central_module() {
    let fx = Fixture::new();
    let body = "def settle_ledger(entries, currency):\n    \"\"\"Settle the ledger entries in one currency.\"\"\"\n    total = sum(e.amount for e in entries)\n    return round(total, 2)\n";
    fx.write("pkg/aleaf.py", body);
    fx.write("pkg/zcore.py", body);
    for user in ["billing", "reports", "exports"] {
        fx.write(
            &format!("pkg/{user}.py"),
            &format!("from pkg.zcore import settle_ledger\n\ndef run_{user}(rows):\n    return settle_ledger(rows, 'EUR')\n"),
        );
    }
    let client = connect(&fx).await;
    let issue = "settle_ledger rounds the total of the ledger entries before the currency is \
        applied, so a ledger with many small entries in one currency settles to a total that \
        is off by a cent compared to the bank statement we reconcile against every month";
    let r = explore(&client, json!({ "query": issue })).await;
    let first = items(&r, "code")[0]["filePath"].clone();
    // Before the graphs exist the tie goes by name; one understand call waits for them.
    assert!(first == "pkg/aleaf.py" || first == "pkg/zcore.py", "{r}");
    let u = call(
        &client,
        "understand",
        json!({ "goal": "architecture of the project", "scope": "project" }),
    )
    .await;
    assert_ne!(u.is_error, Some(true), "{u:?}");
    let r = explore(&client, json!({ "query": issue })).await;
    let code = items(&r, "code");
    assert_eq!(code[0]["filePath"], "pkg/zcore.py", "{r}");
    assert!(
        code[0]["why"]
            .to_string()
            .contains("central: top 1% of files by imports"),
        "{}",
        code[0]["why"]
    );
    let leaf = code.iter().find(|i| i["filePath"] == "pkg/aleaf.py");
    assert!(
        leaf.is_some_and(|i| !i["why"].to_string().contains("central")),
        "{r}"
    );
    client.cancel().await.unwrap();
}

/// Line ranges (ADR-001 Stage 2): merged with their context, each merged region one item
/// saying which asked ranges made it, within maxTotalLines; and change's NO_MATCH leads to
/// a region read of the nearest lines.
#[tokio::test]
async fn regions_read_exact_lines_merged_within_a_line_budget() {
    let fx = Fixture::new();
    let body: String = (1..=300).map(|i| format!("def f{i}():\n")).collect();
    fx.write("src/big.py", &body);
    let client = connect(&fx).await;
    let lines_of = |item: &Value| item["preview"].as_str().unwrap_or("").to_string();

    // The ADR's example: four ranges, context 3, two regions.
    let r = explore(
        &client,
        json!({ "paths": ["src/big.py"], "regions": [{ "start": 10, "end": 15 }, [12, 18], "50-55", { "start": 52, "end": 60 }] }),
    )
    .await;
    assert_eq!(r["success"], true, "{r}");
    let code = items(&r, "code");
    assert_eq!(code.len(), 2, "{r}");
    assert_eq!(code[0]["range"], json!({ "startLine": 7, "endLine": 21 }));
    assert_eq!(code[1]["range"], json!({ "startLine": 47, "endLine": 63 }));
    assert_eq!(
        code[0]["metadata"]["originalRanges"],
        json!([{ "start": 10, "end": 15 }, { "start": 12, "end": 18 }])
    );
    assert_eq!(code[0]["metadata"]["merged"], true);
    assert_eq!(code[0]["metadata"]["totalLines"], 300);
    let first = lines_of(&code[0]);
    assert!(
        first.contains("def f7():") && first.contains("def f21():"),
        "{first}"
    );
    assert!(
        !first.contains("def f6():") && !first.contains("def f22():"),
        "{first}"
    );
    assert!(r.get("degraded").is_none_or(|d| d == false), "{r}");

    // contextLines 0 and a line budget: the second region is cut, and the answer says so.
    let r = explore(
        &client,
        json!({ "paths": ["src/big.py"], "regions": ["200-300", "1-100"], "contextLines": 0, "limits": { "maxTotalLines": 150 } }),
    )
    .await;
    let code = items(&r, "code");
    assert_eq!(code.len(), 2, "{r}");
    assert_eq!(
        code[0]["range"],
        json!({ "startLine": 1, "endLine": 100 }),
        "file order"
    );
    assert_eq!(
        code[1]["range"],
        json!({ "startLine": 200, "endLine": 249 })
    );
    assert!(
        code[1]["title"]
            .as_str()
            .unwrap()
            .contains("maxTotalLines 150"),
        "{r}"
    );
    assert!(
        r["reasons"]
            .as_array()
            .unwrap()
            .contains(&json!("truncated")),
        "{r}"
    );
    let total: usize = code.iter().map(|i| lines_of(i).lines().count()).sum();
    assert_eq!(total, 150, "the budget is the lines returned");

    // Past the end: clamped, or refused with the file's length when nothing is left.
    let r = explore(
        &client,
        json!({ "paths": ["src/big.py"], "regions": ["295-310", "400-410"] }),
    )
    .await;
    let code = items(&r, "code");
    assert_eq!(
        code[0]["range"],
        json!({ "startLine": 292, "endLine": 300 }),
        "{r}"
    );
    assert!(
        code[0]["title"]
            .as_str()
            .unwrap()
            .contains("400-410 past the end"),
        "{r}"
    );
    let r = explore(
        &client,
        json!({ "paths": ["src/big.py"], "regions": ["400-410"] }),
    )
    .await;
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(r["code"], "INVALID_ARGS");
    assert!(r["suggestion"].as_str().unwrap().contains("1-300"), "{r}");
    for bad in [
        json!({ "paths": ["src/big.py", "src"], "regions": ["1-2"] }),
        json!({ "paths": ["src"], "regions": ["1-2"] }),
        json!({ "paths": ["src/big.py"], "regions": ["9-3"] }),
        json!({ "paths": ["src/big.py"], "regions": ["1-2"], "query": "f1" }),
    ] {
        let r = explore(&client, bad.clone()).await;
        assert_eq!(r["code"], "INVALID_ARGS", "{bad} -> {r}");
    }

    // The file changes: the same read shows the lines as they are now.
    let edited = body.replace("def f12():", "def twelve():");
    fx.write("src/big.py", &edited);
    let r = explore(
        &client,
        json!({ "paths": ["src/big.py"], "regions": ["12-12"] }),
    )
    .await;
    let now = lines_of(&items(&r, "code")[0]);
    assert!(now.contains("def twelve():"), "{r}");

    // change's NO_MATCH recovery reads the nearest lines as a region read.
    let err = common::fails(
        &client,
        "change",
        json!({ "intent": "rename", "edits": [{ "filePath": "src/big.py", "targetString": "def f150(x):", "replacementString": "def g150():" }] }),
    )
    .await;
    assert_eq!(err["code"], "NO_MATCH", "{err}");
    let read = &err["details"]["recoveryStrategies"][0]["toolCall"];
    assert_eq!(read["tool"], "explore");
    assert!(
        read["args"]["regions"]
            .as_array()
            .is_some_and(|r| !r.is_empty()),
        "{err}"
    );
    let r = explore(&client, read["args"].clone()).await;
    assert_eq!(r["success"], true, "{r}");
    let shown: String = items(&r, "code").iter().map(lines_of).collect();
    assert!(shown.contains("def f150():"), "{shown}");
}

/// A server started on a current index answers its first call from it without calling it
/// degraded: the start-up pass only says index_building once it finds work to do.
#[tokio::test]
async fn the_first_call_on_a_current_index_is_not_degraded() {
    let fx = Fixture::new();
    for i in 0..2_000 {
        fx.write(
            &format!("src/m{i}.py"),
            &format!("def handler_{i}(x):\n    return x + {i}\n"),
        );
    }
    let indexed = fx.command(&["index"]).output().unwrap();
    assert!(indexed.status.success(), "{indexed:?}");
    for _ in 0..3 {
        let client = common::connect_second(&fx).await;
        let r = explore(&client, json!({ "query": "handler_1234" })).await;
        assert_eq!(r["success"], true, "{r}");
        let reasons = r["reasons"].as_array().cloned().unwrap_or_default();
        assert!(!reasons.contains(&json!("index_building")), "{r}");
        assert_eq!(items(&r, "code")[0]["filePath"], "src/m1234.py", "{r}");
        client.cancel().await.unwrap();
    }
    // A file changed behind the server's back is still found once the pass has run.
    fx.write("src/m7.py", "def renamed_seven(x):\n    return x\n");
    let client = connect(&fx).await;
    let r = explore(&client, json!({ "query": "renamed_seven" })).await;
    assert_eq!(items(&r, "code")[0]["filePath"], "src/m7.py", "{r}");
    client.cancel().await.unwrap();
}

/// The group a query is about comes first (in `data.first` and the text), and code previews
/// keep their nesting.
#[tokio::test]
async fn the_group_the_query_is_about_leads_and_previews_keep_nesting() {
    let fx = Fixture::new();
    fx.write(
        "app/billing.py",
        "class Invoice:\n    def settle_invoice(self, ledger):\n        if ledger.open:\n            return ledger.settle(self)\n        return None\n\n    def refund(self):\n        return self.ledger.reverse(self)\n",
    );
    fx.write(
        "docs/billing.md",
        "# Billing\n\nInvoices are settled at the end of each month by the ledger.\n\n## Refund policy\n\nA refund policy review happens quarterly; refund requests go to the finance team.\n",
    );
    let client = connect(&fx).await;
    common::wait_indexed(&client).await;
    let code = call(
        &client,
        "explore",
        json!({ "query": "settle_invoice ledger" }),
    )
    .await;
    let r = envelope(&code);
    assert_eq!(r["data"]["first"], "code", "{r}");
    let text = common::text(&code);
    assert!(
        text.find("[code]").unwrap() < text.find("[docs]").unwrap(),
        "{text}"
    );
    let preview = items(&r, "code")[0]["preview"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        preview.contains("|         return ledger.settle(self)"),
        "the body's nesting shows: {preview}"
    );
    let docs = call(
        &client,
        "explore",
        json!({ "query": "refund policy review" }),
    )
    .await;
    let r = envelope(&docs);
    assert!(!items(&r, "code").is_empty(), "refund() matches too: {r}");
    assert_eq!(r["data"]["first"], "docs", "{r}");
    let text = common::text(&docs);
    assert!(
        text.find("[docs]").unwrap() < text.find("[code]").unwrap(),
        "{text}"
    );
    client.cancel().await.unwrap();
}
