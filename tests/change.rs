//! change, write and manage end to end through rmcp's client and the built binary: dry run ->
//! the guidance's apply call -> undo -> redo byte for byte; line endings and BOM on disk;
//! HASH_MISMATCH after a dry run and for undo; all-or-nothing multi-file transactions; two
//! servers racing on one file; unified diffs replayed as edits against `git apply`; templates;
//! history paging, rebuild and the configured test command.

mod common;

use common::{Client, Fixture, call, connect, connect_second, fails, structured};
use serde_json::{Value, json};

async fn ok(client: &Client, tool: &str, args: Value) -> Value {
    structured(&call(client, tool, args).await)
}

fn bytes(fx: &Fixture, rel: &str) -> Vec<u8> {
    std::fs::read(fx.path().join(rel)).unwrap()
}

/// The first suggested action's tool call.
fn suggested(r: &Value, tool: &str) -> Value {
    r["guidance"]["suggestedActions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["toolCall"]["tool"] == tool)
        .unwrap_or_else(|| panic!("no {tool} action in {}", r["guidance"]))["toolCall"]["args"]
        .clone()
}

#[tokio::test]
async fn dry_run_apply_undo_redo_round_trip() {
    let fx = Fixture::new();
    fx.write(
        "tests/answer.rs",
        "use fixture::answer;\n\n#[test]\nfn answers() {\n    assert_eq!(answer(), 42);\n}\n",
    );
    let original = bytes(&fx, "src/lib.rs");
    let client = connect(&fx).await;

    let dry = ok(
        &client,
        "change",
        json!({
            "intent": "change the answer",
            "edits": [{ "filePath": "src/lib.rs", "targetString": "    42\n", "replacementString": "    43\n" }],
        }),
    )
    .await;
    assert_eq!(dry["dryRun"], true);
    assert_eq!(dry["success"], true);
    assert_eq!(
        bytes(&fx, "src/lib.rs"),
        original,
        "a dry run writes nothing"
    );
    let diff = dry["plan"]["steps"][0]["diff"].as_str().unwrap();
    assert!(
        diff.contains("-    42") && diff.contains("+    43"),
        "{diff}"
    );
    assert_eq!(dry["matches"][0]["matchType"], "exact");
    let impact = &dry["impactReport"];
    assert_eq!(
        impact["preview"]["changedSymbols"][0]["name"], "answer",
        "{impact}"
    );
    assert!(
        impact["suggestedTests"]
            .as_array()
            .unwrap()
            .contains(&json!("tests/answer.rs")),
        "{impact}"
    );

    // The guidance's apply call is pinned to the hash the dry run saw.
    let apply = suggested(&dry, "change");
    assert_eq!(apply["options"]["dryRun"], false);
    assert_eq!(
        apply["edits"][0]["expectedHash"],
        dry["plan"]["steps"][0]["hash"]
    );
    let applied = ok(&client, "change", apply).await;
    let tx = applied["transactionId"].as_str().unwrap().to_string();
    assert_eq!(applied["rollbackAvailable"], true);
    let changed = bytes(&fx, "src/lib.rs");
    assert_eq!(
        String::from_utf8_lossy(&changed),
        common::LIB_RS.replace("    42\n", "    43\n")
    );
    assert!(suggested(&applied, "manage")["command"] == "test");

    let undone = ok(&client, "manage", json!({ "command": "undo" })).await;
    assert_eq!(bytes(&fx, "src/lib.rs"), original, "undo is byte-exact");
    assert_eq!(undone["projectState"]["pendingTransactions"], 0);
    ok(&client, "manage", json!({ "command": "redo" })).await;
    assert_eq!(bytes(&fx, "src/lib.rs"), changed, "redo is byte-exact");
    let err = fails(&client, "manage", json!({ "command": "redo" })).await;
    assert_eq!(err["code"], "NOT_FOUND");

    let history = ok(
        &client,
        "manage",
        json!({ "command": "history", "limit": 2 }),
    )
    .await;
    let page = &history["result"];
    assert_eq!(page["total"], 3);
    assert_eq!(page["nextOffset"], 2);
    let states: Vec<&str> = page["transactions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["applied", "applied"], "{page}");
    assert!(page["transactions"][0]["redoes"] == json!(tx));
    let older = ok(
        &client,
        "manage",
        json!({ "command": "history", "limit": 2, "offset": 2 }),
    )
    .await;
    assert_eq!(
        older["result"]["transactions"][0]["transactionId"],
        json!(tx)
    );
    assert_eq!(older["result"]["transactions"][0]["state"], "redone");
    assert_eq!(older["result"]["nextOffset"], Value::Null);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn the_impact_report_reads_hot_spots_and_tests_from_the_call_graph() {
    let fx = Fixture::new();
    let core =
        common::branchy_python("", "compute", "x += {i}") + "\n\ndef unrelated():\n    return 0\n";
    fx.write("pkg/__init__.py", "");
    fx.write("pkg/core.py", &core);
    fx.write(
        "pkg/api.py",
        "from pkg.core import compute\n\n\ndef handler():\n    return compute(1)\n",
    );
    // One test calls compute itself; the other only through handler, and neither imports
    // nor names the other's module: only the call graph links it to the change.
    fx.write(
        "tests/test_core.py",
        "from pkg.core import compute\n\n\ndef test_compute():\n    assert compute(2)\n",
    );
    fx.write(
        "tests/test_api.py",
        "from pkg.api import handler\n\n\ndef test_handler():\n    assert handler()\n",
    );
    let client = connect(&fx).await;
    let dry = ok(
        &client,
        "change",
        json!({
            "intent": "tune compute",
            "edits": [{ "filePath": "pkg/core.py", "targetString": "        x += 11\n", "replacementString": "        x += 12\n" }],
        }),
    )
    .await;
    let impact = &dry["impactReport"];
    let hot = &impact["affectedHotSpots"][0];
    assert_eq!(hot["filePath"], "pkg/core.py", "{impact:#}");
    assert_eq!(hot["symbol"], "compute", "{impact:#}");
    assert!(
        hot["reasons"][0]
            .as_str()
            .unwrap()
            .starts_with("12 branch points"),
        "{impact:#}"
    );
    let changed = &impact["preview"]["changedSymbols"][0];
    assert_eq!(changed["name"], "compute");
    assert_eq!(
        changed["callers"], 3,
        "handler, test_compute, test_handler: {impact:#}"
    );
    assert!(changed["pageRank"].as_f64().unwrap() > 0.5, "{impact:#}");
    // The direct caller's test first, then the one two calls away.
    assert_eq!(
        impact["suggestedTests"],
        json!(["tests/test_core.py", "tests/test_api.py"]),
        "{impact:#}"
    );
    assert_eq!(impact["testPriority"]["tests/test_core.py"], "important");
    assert_eq!(impact["testPriority"]["tests/test_api.py"], "optional");

    assert_eq!(dry["guidance"]["meta"]["basedOn"]["pageRankCoverage"], 1.0);
    assert_eq!(dry["guidance"]["meta"]["basedOn"]["hotSpotCount"], 1);
    // A body's arithmetic moves no rank.
    assert_eq!(impact["pageRankDelta"], json!({}), "{impact:#}");

    // handler calling unrelated instead of compute: compute's rank falls, unrelated's rises,
    // predicted before anything is written.
    let moved = ok(
        &client,
        "change",
        json!({
            "intent": "reroute",
            "edits": [{ "filePath": "pkg/api.py", "targetString": "from pkg.core import compute\n\n\ndef handler():\n    return compute(1)\n", "replacementString": "from pkg.core import unrelated\n\n\ndef handler():\n    return unrelated()\n" }],
        }),
    )
    .await;
    let delta = &moved["impactReport"]["pageRankDelta"];
    assert!(
        delta["pkg/core.py#compute"].as_f64().unwrap() < 0.0,
        "{delta:#}"
    );
    assert!(
        delta["pkg/core.py#unrelated"].as_f64().unwrap() > 0.0,
        "{delta:#}"
    );
    assert!(
        fx.read("pkg/api.py").unwrap().contains("compute(1)"),
        "a dry run writes nothing"
    );

    // An edit of a calm function touches no hot spot and no test calls it: only the test that
    // imports its module is suggested.
    let calm = ok(
        &client,
        "change",
        json!({
            "intent": "calm",
            "edits": [{ "filePath": "pkg/core.py", "targetString": "    return 0\n", "replacementString": "    return 1\n" }],
        }),
    )
    .await;
    assert_eq!(
        calm["impactReport"]["affectedHotSpots"],
        json!([]),
        "{calm:#}"
    );
    assert_eq!(
        calm["impactReport"]["suggestedTests"],
        json!(["tests/test_core.py"]),
        "{calm:#}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn line_endings_bom_and_indentation_survive_on_disk() {
    let fx = Fixture::new();
    std::fs::write(
        fx.path().join("win.txt"),
        b"\xEF\xBB\xBFfirst\r\nsecond\r\nthird",
    )
    .unwrap();
    std::fs::write(
        fx.path().join("tabs.go"),
        "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n",
    )
    .unwrap();
    let client = connect(&fx).await;
    let r = ok(
        &client,
        "change",
        json!({
            "intent": "edit windows and tab files",
            "edits": [
                { "filePath": "win.txt", "targetString": "second\nthird", "replacementString": "2nd\n3rd\n" },
                { "filePath": "tabs.go", "targetString": "if x {\n    y()\n}", "replacementString": "if x {\n    y()\n    z()\n}" },
            ],
            "options": { "dryRun": false },
        }),
    )
    .await;
    assert_eq!(r["correctedWith"], "structural", "{r}");
    assert_eq!(bytes(&fx, "win.txt"), b"\xEF\xBB\xBFfirst\r\n2nd\r\n3rd");
    assert_eq!(
        bytes(&fx, "tabs.go"),
        b"func f() {\n\tif x {\n\t\ty()\n\t\tz()\n\t}\n}\n"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn stale_dry_runs_and_failed_edits_write_nothing() {
    let fx = Fixture::new();
    fx.write("a.txt", "alpha\nbeta\n");
    fx.write("b.txt", "gamma\ndelta\n");
    let client = connect(&fx).await;

    // One edit cannot match: neither file changes, and the error says where to look.
    let err = fails(
        &client,
        "change",
        json!({
            "intent": "two files",
            "edits": [
                { "filePath": "a.txt", "targetString": "alpha", "replacementString": "ALPHA" },
                { "filePath": "b.txt", "targetString": "delta gamma", "replacementString": "x" },
            ],
            "options": { "dryRun": false },
        }),
    )
    .await;
    assert_eq!(err["code"], "NO_MATCH", "{err}");
    assert_eq!(err["details"]["filePath"], "b.txt");
    assert_eq!(
        err["details"]["recoveryStrategies"][0]["toolCall"]["tool"],
        "explore"
    );
    assert_eq!(fx.read("a.txt").unwrap(), "alpha\nbeta\n");

    // A dry run, then someone else edits the file: applying the dry run's call is refused.
    let dry = ok(
        &client,
        "change",
        json!({
            "intent": "stale",
            "edits": [{ "filePath": "a.txt", "targetString": "beta", "replacementString": "BETA" }],
        }),
    )
    .await;
    fx.write("a.txt", "alpha\nbeta\nexternal\n");
    let err = fails(&client, "change", suggested(&dry, "change")).await;
    assert_eq!(err["code"], "HASH_MISMATCH", "{err}");
    assert!(err["details"]["actual"].as_str().unwrap().len() == 64);
    assert_eq!(
        err["details"]["recoveryStrategies"][0]["toolCall"]["args"]["view"],
        "full"
    );
    assert_eq!(fx.read("a.txt").unwrap(), "alpha\nbeta\nexternal\n");

    // Several occurrences: every location, and an anchor picks one.
    fx.write("c.txt", "x = 1\ny = 2\nx = 1\n");
    let err = fails(
        &client,
        "change",
        json!({ "intent": "dup", "edits": [{ "filePath": "c.txt", "targetString": "x = 1", "replacementString": "x = 9" }] }),
    )
    .await;
    assert_eq!(err["code"], "MULTIPLE_MATCHES");
    assert_eq!(err["details"]["matches"].as_array().unwrap().len(), 2);
    ok(
        &client,
        "change",
        json!({ "intent": "dup", "edits": [{ "filePath": "c.txt", "targetString": "x = 1", "replacementString": "x = 9", "lineRange": "3-3" }], "options": { "dryRun": false } }),
    )
    .await;
    assert_eq!(fx.read("c.txt").unwrap(), "x = 1\ny = 2\nx = 9\n");

    // Undo refuses once the file changed after the transaction, and shows the change.
    fx.write("c.txt", "x = 1\ny = 2\nx = 9\nlater\n");
    let err = fails(&client, "manage", json!({ "command": "undo" })).await;
    assert_eq!(err["code"], "HASH_MISMATCH", "{err}");
    assert!(
        err["details"]["diff"].as_str().unwrap().contains("+later"),
        "{err}"
    );
    assert_eq!(fx.read("c.txt").unwrap(), "x = 1\ny = 2\nx = 9\nlater\n");
    client.cancel().await.unwrap();
}

/// Two servers on one root apply conflicting edits to one file at once, round after round:
/// each round exactly one wins and the other gets HASH_MISMATCH; the file is always the
/// winner's, never a mix.
#[tokio::test]
async fn two_clients_racing_on_one_file() {
    let fx = Fixture::new();
    fx.write("shared.txt", "value = 0\n");
    let a = connect(&fx).await;
    let b = connect_second(&fx).await;
    for round in 0..8 {
        let current = fx.read("shared.txt").unwrap();
        let target = current.trim_end().to_string();
        let dry = |who: &str| {
            json!({
                "intent": format!("{who} round {round}"),
                "edits": [{ "filePath": "shared.txt", "targetString": target, "replacementString": format!("value = {who}{round}") }],
                "options": { "includeImpact": false },
            })
        };
        let (da, db) = tokio::join!(ok(&a, "change", dry("a")), ok(&b, "change", dry("b")));
        let (ra, rb) = tokio::join!(
            call(&a, "change", suggested(&da, "change")),
            call(&b, "change", suggested(&db, "change"))
        );
        let won: Vec<bool> = [&ra, &rb]
            .iter()
            .map(|r| r.is_error != Some(true))
            .collect();
        assert_eq!(
            won.iter().filter(|w| **w).count(),
            1,
            "round {round}: {won:?}"
        );
        let (winner, loser) = if won[0] { ("a", &rb) } else { ("b", &ra) };
        assert_eq!(
            loser.structured_content.as_ref().unwrap()["code"],
            "HASH_MISMATCH"
        );
        assert_eq!(
            fx.read("shared.txt").unwrap(),
            format!("value = {winner}{round}\n")
        );
    }
    a.cancel().await.unwrap();
    b.cancel().await.unwrap();
}

/// Random edits to real source files become unified diffs (git diff); each hunk becomes a
/// search/replace edit anchored at its line range; change must produce the same bytes as
/// `git apply`.
#[tokio::test]
async fn unified_diffs_replayed_as_edits_match_git_apply() {
    let fx = Fixture::new();
    let sources = [
        "host/src/workspace/transactions.rs",
        "host/src/index/indexer.rs",
        "plugins/change/src/matching.rs",
    ];
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut seed = 0x2545_f491_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let scratch = tempfile::tempdir().unwrap();
    let mut edits = Vec::new();
    for (n, src) in sources.iter().enumerate() {
        let old = std::fs::read_to_string(repo.join(src)).unwrap();
        let mut lines: Vec<String> = old.lines().map(str::to_string).collect();
        for k in 0..12 {
            let at = (next() % lines.len() as u64) as usize;
            match next() % 3 {
                0 => lines[at] = format!("{} // edited {k}", lines[at]),
                1 => lines.insert(at, format!("    let inserted_{k} = {k};")),
                _ => {
                    lines.remove(at);
                }
            }
        }
        let new = lines.join("\n") + "\n";
        let rel = format!("src{n}.rs");
        fx.write(&rel, &old);
        std::fs::write(scratch.path().join("old"), &old).unwrap();
        std::fs::write(scratch.path().join("new"), &new).unwrap();
        let out = std::process::Command::new("git")
            .args(["diff", "--no-index", "--no-color", "-U2", "old", "new"])
            .current_dir(scratch.path())
            .output()
            .expect("git is needed for this test");
        let patch = String::from_utf8(out.stdout).unwrap();
        // git apply on a copy, with the patch's paths pointed at it.
        let copy = scratch.path().join(format!("applied{n}.rs"));
        std::fs::write(&copy, &old).unwrap();
        let patch_for_copy = patch
            .replace("a/old", &format!("a/applied{n}.rs"))
            .replace("b/new", &format!("b/applied{n}.rs"));
        std::fs::write(scratch.path().join("p.diff"), &patch_for_copy).unwrap();
        let status = std::process::Command::new("git")
            .args(["apply", "--unidiff-zero", "p.diff"])
            .current_dir(scratch.path())
            .status()
            .unwrap();
        assert!(status.success(), "git apply failed for {src}");
        assert_eq!(std::fs::read_to_string(&copy).unwrap(), new);
        for hunk in patch.split("\n@@ ").skip(1) {
            let (header, body) = hunk.split_once('\n').unwrap();
            let old_range = header
                .split_whitespace()
                .next()
                .unwrap()
                .trim_start_matches('-');
            let (start, count) = old_range
                .split_once(',')
                .map(|(s, c)| (s.parse::<u32>().unwrap(), c.parse::<u32>().unwrap()))
                .unwrap_or_else(|| (old_range.parse().unwrap(), 1));
            let (mut target, mut replacement) = (String::new(), String::new());
            for line in body.lines() {
                if let Some(l) = line.strip_prefix(' ') {
                    target.push_str(l);
                    target.push('\n');
                    replacement.push_str(l);
                    replacement.push('\n');
                } else if let Some(l) = line.strip_prefix('-') {
                    target.push_str(l);
                    target.push('\n');
                } else if let Some(l) = line.strip_prefix('+') {
                    replacement.push_str(l);
                    replacement.push('\n');
                }
            }
            edits.push(json!({
                "filePath": rel,
                "targetString": target,
                "replacementString": replacement,
                "lineRange": { "start": start.max(1), "end": (start + count).max(1) },
            }));
        }
        std::fs::write(scratch.path().join(format!("expected{n}.rs")), &new).unwrap();
    }
    let client = connect(&fx).await;
    let r = ok(
        &client,
        "change",
        // Random line edits break Rust's syntax on purpose: this test is about bytes.
        json!({ "intent": "replay diffs", "edits": edits, "options": { "dryRun": false, "includeImpact": false, "allowSyntaxErrors": true } }),
    )
    .await;
    assert_eq!(
        r["correctedWith"],
        Value::Null,
        "every hunk matches exactly"
    );
    for n in 0..sources.len() {
        assert_eq!(
            fx.read(&format!("src{n}.rs")).unwrap(),
            std::fs::read_to_string(scratch.path().join(format!("expected{n}.rs"))).unwrap(),
            "src{n}.rs differs from git apply"
        );
    }
    client.cancel().await.unwrap();
}

/// Issue 17 through a real client: a drifted edit lands as the file's own indentation; an
/// edit that breaks Python's syntax is refused (dry run and apply alike) unless allowed; a
/// stale lineRange is corrected and said; the id of a change undoes it after undo and redo.
#[tokio::test]
async fn drifted_edits_land_faithfully_and_broken_syntax_is_refused() {
    let fx = Fixture::new();
    let source = "class Shape:\n    def area(self):\n        if self.empty:\n            return 0\n        return self.w * self.h\n\n    def name(self):\n        return 'shape'\n";
    fx.write("shape.py", source);
    let client = connect(&fx).await;

    // Target and replacement quoted two levels shallower, one context line drifted by a space.
    let r = ok(
        &client,
        "change",
        json!({
            "intent": "guard negative sizes",
            "edits": [{
                "filePath": "shape.py",
                "targetString": "def area(self):\n    if self.empty:\n         return 0\n    return self.w * self.h\n",
                "replacementString": "def area(self):\n    if self.empty:\n         return 0\n    if self.w < 0:\n        raise ValueError(self.w)\n    return self.w * self.h\n",
            }],
            "options": { "dryRun": false },
        }),
    )
    .await;
    assert_eq!(r["correctedWith"], "structural", "{r}");
    let id = r["transactionId"].as_str().unwrap().to_string();
    let fixed = "class Shape:\n    def area(self):\n        if self.empty:\n            return 0\n        if self.w < 0:\n            raise ValueError(self.w)\n        return self.w * self.h\n\n    def name(self):\n        return 'shape'\n";
    assert_eq!(fx.read("shape.py").unwrap(), fixed);

    // A replacement that breaks the indentation: refused in the dry run and on apply.
    let broken = json!({
        "intent": "break it",
        "edits": [{
            "filePath": "shape.py",
            "targetString": "        return 'shape'\n",
            "replacementString": "        x = 1\n          return 'shape'\n",
        }],
    });
    let err = fails(&client, "change", broken.clone()).await;
    assert_eq!(err["code"], "SYNTAX_ERROR", "{err}");
    assert!(
        err["message"].as_str().unwrap().contains("shape.py:11"),
        "{err}"
    );
    assert!(
        err["details"]["diffs"][0]["diff"]
            .as_str()
            .unwrap()
            .contains("+          return 'shape'"),
        "{err}"
    );
    assert_eq!(
        err["details"]["recoveryStrategies"][0]["toolCall"]["tool"], "explore",
        "{err}"
    );
    let mut apply = broken.clone();
    apply["options"] = json!({ "dryRun": false });
    assert_eq!(
        fails(&client, "change", apply.clone()).await["code"],
        "SYNTAX_ERROR"
    );
    assert_eq!(fx.read("shape.py").unwrap(), fixed, "nothing written");
    // Allowed on purpose: written, and the impact report says so.
    apply["options"] = json!({ "dryRun": false, "allowSyntaxErrors": true });
    let r = ok(&client, "change", apply).await;
    assert_eq!(r["impactReport"]["breakingChangeRisk"], "high", "{r}");
    assert_eq!(
        r["impactReport"]["syntaxErrors"][0]["problems"][0]["line"], 11,
        "{r}"
    );
    ok(&client, "manage", json!({ "command": "undo" })).await;
    assert_eq!(fx.read("shape.py").unwrap(), fixed);

    // A lineRange 10 lines stale still picks the only occurrence, and says by how much.
    let r = ok(
        &client,
        "change",
        json!({
            "intent": "rename",
            "edits": [{ "filePath": "shape.py", "targetString": "return 'shape'", "replacementString": "return 'Shape'", "lineRange": { "start": 20, "end": 20 } }],
            "options": { "dryRun": false },
        }),
    )
    .await;
    assert_eq!(r["correctedWith"], "lineRange", "{r}");
    assert_eq!(r["matches"][0]["lineHintOffBy"], -10, "{r}");
    let warnings = r["guidance"]["warnings"].to_string();
    assert!(warnings.contains("LINE_HINT_CORRECTED"), "{warnings}");
    ok(&client, "manage", json!({ "command": "undo" })).await;

    // The first change's id, after undo and redo, still undoes that change.
    for (command, expected) in [("undo", source), ("redo", fixed), ("undo", source)] {
        ok(
            &client,
            "manage",
            json!({ "command": command, "target": id }),
        )
        .await;
        assert_eq!(fx.read("shape.py").unwrap(), expected, "{command}");
    }
    let history = ok(&client, "manage", json!({ "command": "history" }))
        .await
        .to_string();
    assert!(
        history.contains(&format!("undo {id} (in effect as")),
        "{history}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn write_creates_refuses_and_scaffolds() {
    let fx = Fixture::new();
    fx.write(
        "Cargo.toml",
        "[package]\nname = \"my-tool\"\nversion = \"0.1.0\"\n",
    );
    fx.write("README.md", "# My tool\n");
    fx.write(
        ".smart-context/templates/component.tsx",
        "// {{intent}}\nexport function {{name}}() {\n  return \"{{greeting}}\";\n}\n",
    );
    let client = connect(&fx).await;

    let r = ok(
        &client,
        "write",
        json!({ "intent": "notes", "files": [
            { "targetPath": "notes/a.md", "content": "a\n" },
            { "targetPath": "notes/deep/b.md", "content": "b\n" },
        ] }),
    )
    .await;
    assert_eq!(r["createdFiles"].as_array().unwrap().len(), 2);
    assert_eq!(fx.read("notes/deep/b.md").unwrap(), "b\n");
    let err = fails(
        &client,
        "write",
        json!({ "intent": "again", "targetPath": "notes/a.md", "content": "x" }),
    )
    .await;
    assert_eq!(err["code"], "ALREADY_EXISTS");
    ok(
        &client,
        "write",
        json!({ "intent": "again", "targetPath": "notes/a.md", "content": "x", "overwrite": true }),
    )
    .await;
    assert_eq!(fx.read("notes/a.md").unwrap(), "x");
    let err = fails(
        &client,
        "write",
        json!({ "intent": "secret", "targetPath": "config/.env.local", "content": "K=v" }),
    )
    .await;
    assert_eq!(err["code"], "SENSITIVE_BLOCKED");
    assert_eq!(fx.read("config/.env.local"), None);

    let r = ok(
        &client,
        "write",
        json!({ "intent": "tests", "template": "test", "variables": { "source": "src/lib.rs" } }),
    )
    .await;
    assert_eq!(r["createdFiles"][0]["path"], "tests/lib.rs");
    let test = fx.read("tests/lib.rs").unwrap();
    assert!(test.contains("use my_tool::{answer};"), "{test}");
    assert!(test.contains("fn answer_works()"), "{test}");

    ok(&client, "write", json!({ "intent": "adr", "template": "adr", "variables": { "title": "Keep state in SQLite" } })).await;
    let adr = fx.read("docs/adr/0001-keep-state-in-sqlite.md").unwrap();
    assert!(
        adr.starts_with("# ADR-0001: Keep state in SQLite\n"),
        "{adr}"
    );
    ok(
        &client,
        "write",
        json!({ "intent": "adr", "template": "adr", "variables": { "title": "Second" } }),
    )
    .await;
    assert!(fx.read("docs/adr/0002-second.md").is_some());

    let r = ok(&client, "write", json!({ "intent": "usage", "template": "readme-section", "variables": { "heading": "Usage", "body": "Run it." } })).await;
    assert_eq!(r["createdFiles"][0]["action"], "appended");
    assert_eq!(
        fx.read("README.md").unwrap(),
        "# My tool\n\n## Usage\n\nRun it.\n"
    );

    let err = fails(
        &client,
        "write",
        json!({ "intent": "Greeter", "template": "component", "targetPath": "web/Greeter.tsx" }),
    )
    .await;
    assert_eq!(err["details"]["missing"], json!(["greeting"]));
    ok(&client, "write", json!({ "intent": "Greeter", "template": "component", "targetPath": "web/Greeter.tsx", "variables": { "greeting": "hi" } })).await;
    assert_eq!(
        fx.read("web/Greeter.tsx").unwrap(),
        "// Greeter\nexport function Greeter() {\n  return \"hi\";\n}\n"
    );
    let err = fails(
        &client,
        "write",
        json!({ "intent": "x", "template": "nope", "targetPath": "x" }),
    )
    .await;
    assert_eq!(err["code"], "NOT_FOUND");
    assert!(
        err["details"]["known"]
            .as_array()
            .unwrap()
            .contains(&json!("component"))
    );

    // Every write is undoable.
    ok(&client, "manage", json!({ "command": "undo" })).await;
    assert_eq!(fx.read("web/Greeter.tsx"), None);
    client.cancel().await.unwrap();
}

/// A Django-like layout: a `pkg/test/` package that is the test framework (source, no test
/// files in it) and a top-level `tests/` of unittest classes, one directory per area.
fn django_like(fx: &Fixture) {
    fx.write("pkg/__init__.py", "");
    fx.write("pkg/utils/__init__.py", "");
    fx.write(
        "pkg/utils/text.py",
        "def slugify(value):\n    return value.lower().replace(' ', '-')\n\n\ndef wrap(text, width):\n    return text[:width]\n",
    );
    fx.write(
        "pkg/utils/dates.py",
        "def parse_date(value):\n    return value.split('-')\n",
    );
    fx.write("pkg/test/__init__.py", "");
    fx.write(
        "pkg/test/selenium.py",
        "from pkg.utils.text import slugify\n\n\nclass SimpleTestCase:\n    def screenshot_name(self, title):\n        return slugify(title)\n",
    );
    fx.write(
        "tests/utils_tests/test_text.py",
        "from pkg.test.selenium import SimpleTestCase\nfrom pkg.utils.text import slugify\n\n\nclass TestUtilsText(SimpleTestCase):\n    def test_slugify(self):\n        self.assertEqual(slugify('A b'), 'a-b')\n",
    );
}

#[tokio::test]
async fn tests_are_the_projects_by_its_conventions_in_impact_and_templates() {
    let fx = Fixture::new();
    django_like(&fx);
    let client = connect(&fx).await;
    // The framework package calls slugify too; it is not one of the change's tests.
    let dry = ok(
        &client,
        "change",
        json!({
            "intent": "slugify keeps case",
            "edits": [{ "filePath": "pkg/utils/text.py", "targetString": "def slugify(value):", "replacementString": "def slugify(value, keep_case=False):" }],
        }),
    )
    .await;
    let tests = &dry["impactReport"]["suggestedTests"];
    assert_eq!(
        tests,
        &json!(["tests/utils_tests/test_text.py"]),
        "{:#}",
        dry["impactReport"]
    );

    // A module without tests: a new file where its siblings' tests are, in their style.
    let r = ok(
        &client,
        "write",
        json!({ "intent": "tests", "template": "test", "variables": { "source": "pkg/utils/dates.py" } }),
    )
    .await;
    assert_eq!(
        r["createdFiles"][0]["path"],
        "tests/utils_tests/test_dates.py"
    );
    let new = fx.read("tests/utils_tests/test_dates.py").unwrap();
    assert!(
        new.contains("from pkg.test.selenium import SimpleTestCase\n"),
        "{new}"
    );
    assert!(
        new.contains("class DatesTests(SimpleTestCase):\n    def test_parse_date(self):"),
        "{new}"
    );
    assert!(!new.contains("pytest"), "{new}");

    // A module with a test file: stubs for what it does not test yet, appended there.
    let before = fx.read("tests/utils_tests/test_text.py").unwrap();
    let r = ok(
        &client,
        "write",
        json!({ "intent": "tests", "template": "test", "variables": { "source": "pkg/utils/text.py" } }),
    )
    .await;
    assert_eq!(
        r["createdFiles"][0]["path"],
        "tests/utils_tests/test_text.py"
    );
    assert_eq!(r["createdFiles"][0]["action"], "appended");
    let after = fx.read("tests/utils_tests/test_text.py").unwrap();
    assert!(after.starts_with(&before), "{after}");
    assert!(
        after.contains("class TextStubTests(SimpleTestCase):\n    def test_wrap(self):"),
        "{after}"
    );
    assert!(!after[before.len()..].contains("test_slugify"), "{after}");
    assert!(fx.read("tests/test_text.py").is_none());
    // Every function tested: nothing to add, said so.
    let err = fails(
        &client,
        "write",
        json!({ "intent": "tests", "template": "test", "variables": { "source": "pkg/utils/text.py" } }),
    )
    .await;
    assert_eq!(err["code"], "ALREADY_EXISTS");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn manage_status_rebuild_and_tests() {
    let fx = Fixture::new();
    fx.operator_config(
        "[test]\ncommand = [\"sh\", \"-c\", \"echo 'test a ... ok'; echo 'test b ... FAILED'; echo 'test result: FAILED. 4 passed; 1 failed; 2 ignored'; exit 101\"]\n",
    );
    let client = connect(&fx).await;
    let status = ok(&client, "manage", json!({ "command": "status" })).await;
    assert_eq!(status["projectState"]["indexStatus"], "fresh");
    assert!(status["result"]["index"]["files"].as_u64().unwrap() >= 2);

    fx.write("src/extra.rs", "pub fn extra() {}\n");
    let r = ok(&client, "manage", json!({ "command": "rebuild" })).await;
    assert_eq!(r["result"]["mode"], "incremental");
    let r = ok(
        &client,
        "manage",
        json!({ "command": "rebuild", "scope": "full" }),
    )
    .await;
    assert_eq!(r["result"]["mode"], "full");
    assert!(r["result"]["indexed"].as_u64().unwrap() >= 3, "{r}");

    let t = ok(&client, "manage", json!({ "command": "test" })).await;
    let result = &t["result"];
    assert_eq!(result["outcome"], "failed");
    assert_eq!(
        (result["passed"].as_u64(), result["failed"].as_u64()),
        (Some(4), Some(1))
    );
    assert_eq!(result["failures"], json!(["b"]));
    assert_eq!(result["exitCode"], 101);
    assert_eq!(result["source"], "config");
    client.cancel().await.unwrap();

    // Without configuration nothing runs: the agent cannot supply a command.
    let plain = Fixture::new();
    let client = connect(&plain).await;
    let err = fails(&client, "manage", json!({ "command": "test" })).await;
    assert_eq!(err["code"], "UNSUPPORTED");
    let err = fails(
        &client,
        "manage",
        json!({ "command": "test", "target": "rm -rf /" }),
    )
    .await;
    assert_eq!(err["code"], "UNSUPPORTED");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_slow_test_command_is_killed_at_its_timeout() {
    let fx = Fixture::new();
    fx.operator_config(
        "[test]\ncommand = [\"sh\", \"-c\", \"echo started; sleep 60\"]\ntimeout_ms = 700\n\n[limits]\ntimeout_ms = 500\n",
    );
    let client = connect(&fx).await;
    let started = std::time::Instant::now();
    let t = ok(&client, "manage", json!({ "command": "test" })).await;
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
    assert_eq!(t["result"]["outcome"], "timed out", "{t}");
    assert_eq!(t["result"]["timedOut"], true);
    assert!(
        t["result"]["outputTail"]
            .as_str()
            .unwrap()
            .contains("started")
    );
    client.cancel().await.unwrap();
}
