//! The index through the product's faces: the `index` command, explore and understand over
//! MCP (rmcp's client), the watcher picking up a file written by the write pillar, and a
//! second server on the same root.

mod common;

use common::{Fixture, call, connect, structured};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn fixture() -> Fixture {
    let fx = Fixture::new();
    fx.write(
        "src/shapes.py",
        "class Circle:\n    \"\"\"A round shape.\"\"\"\n\n    def area(self):\n        return compute_area(self.r)\n",
    );
    fx.write(
        "src/app.py",
        "from src.shapes import Circle\n\nCircle().area()\n",
    );
    fx
}

#[test]
fn the_index_command_reports_progress_summaries_and_incremental_passes() {
    let fx = fixture();
    let out = fx.command(&["index"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary = String::from_utf8_lossy(&out.stdout);
    assert!(
        summary.starts_with("indexed 4 files (3 code, 1 document)"),
        "{summary}"
    );
    assert!(
        summary.contains("skipped 1 binary, 1 sensitive"),
        "{summary}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("skipped (sensitive): .env"), "{stderr}");

    let again = fx.command(&["index", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(report["indexed"], json!({}));
    // Files written within the racy window of the first pass are hashed again and counted as
    // touched (same content, nothing reindexed); older ones are unchanged without a read.
    assert_eq!(
        report["unchanged"].as_u64().unwrap() + report["touched"].as_u64().unwrap(),
        4,
        "{report}"
    );

    let full = fx.command(&["index", "--full", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&full.stdout).unwrap();
    assert_eq!(report["indexed"]["code"], 3);

    let status = fx.command(&["status"]).output().unwrap();
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["index"]["files"], 4);
    // Right after an index the files match its last pass: fresh, though no process watches.
    assert_eq!(status["index"]["state"], "fresh", "{status}");
    assert!(status["index"]["lastIndexedMs"].as_u64().unwrap() > 0);
    // A file changed since: stale.
    fx.write("src/lib.rs", "pub fn changed() {}\n");
    let status = fx.command(&["status"]).output().unwrap();
    let status: Value = serde_json::from_slice(&status.stdout).unwrap();
    assert_eq!(status["index"]["state"], "stale", "{status}");
}

#[tokio::test]
async fn explore_and_understand_answer_from_the_index() {
    let fx = fixture();
    let client = connect(&fx).await;
    let found = structured(&call(&client, "explore", json!({ "query": "computeArea" })).await);
    let hit = &found["data"]["code"][0];
    assert_eq!(hit["filePath"], "src/shapes.py", "{found}");
    assert_eq!(hit["title"], "Circle::area");
    assert_eq!(hit["range"], json!({ "startLine": 4, "endLine": 5 }));
    // Signature first, then the line holding the query, numbered, nested as in the method.
    assert_eq!(
        hit["preview"],
        "4| def area(self):\n5|     return compute_area(self.r)"
    );

    let outline = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "shapes", "path": "src/shapes.py" }),
        )
        .await,
    );
    let names: Vec<(String, String, Value)> = outline["outline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["kind"].as_str().unwrap().into(),
                e["name"].as_str().unwrap().into(),
                e["container"].clone(),
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("class".into(), "Circle".into(), Value::Null),
            ("method".into(), "area".into(), json!("Circle"))
        ]
    );
    let status = structured(&call(&client, "manage", json!({ "command": "status" })).await);
    assert_eq!(status["projectState"]["indexStatus"], "fresh");
    assert_eq!(status["result"]["index"]["codeFiles"], 3);
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_file_written_through_mcp_becomes_searchable() {
    let fx = fixture();
    let client = connect(&fx).await;
    let written = structured(
        &call(
            &client,
            "write",
            json!({ "intent": "add helper", "targetPath": "src/helpers.rs", "content": "pub fn freshly_written_helper() {}\n" }),
        )
        .await,
    );
    assert_eq!(written["success"], true);
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let found = structured(
            &call(
                &client,
                "explore",
                json!({ "query": "freshly_written_helper" }),
            )
            .await,
        );
        if found["data"]["code"][0]["filePath"] == "src/helpers.rs" {
            break;
        }
        assert!(Instant::now() < deadline, "never indexed: {found}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_second_server_on_the_same_root_reads_the_index_read_only() {
    let fx = fixture();
    let first = connect(&fx).await;
    let second = connect_read_only(&fx).await;
    let status = structured(&call(&second, "manage", json!({ "command": "status" })).await);
    let index = &status["result"]["index"];
    assert_eq!(index["readOnly"], true, "{status}");
    assert!(
        index["message"]
            .as_str()
            .unwrap()
            .contains("another smart-context process")
    );
    let found = structured(&call(&second, "explore", json!({ "query": "installer" })).await);
    assert_eq!(
        found["data"]["docs"][0]["filePath"], "docs/guide.md",
        "{found}"
    );
    second.cancel().await.unwrap();
    first.cancel().await.unwrap();
}

/// A second server never becomes "fresh" by itself (it does not index), so it is not waited on.
async fn connect_read_only(fx: &Fixture) -> common::Client {
    use rmcp::ServiceExt;
    let transport = rmcp::transport::TokioChildProcess::new(fx.tokio_command(&["serve"])).unwrap();
    ().serve(transport).await.expect("MCP handshake")
}

/// A small package with a call chain (cli -> api -> core), an import cycle and an error case.
fn layered_fixture() -> Fixture {
    let fx = Fixture::new();
    fx.write("pkg/__init__.py", "");
    fx.write(
        "pkg/core.py",
        "def dispatch(x):\n    return handle(x)\n\ndef handle(x):\n    return x\n",
    );
    fx.write(
        "pkg/api.py",
        "from pkg.core import dispatch\n\ndef serve():\n    return dispatch(1)\n",
    );
    fx.write(
        "pkg/cli.py",
        "from pkg.api import serve\n\ndef main():\n    serve()\n",
    );
    fx.write(
        "pkg/cyc_a.py",
        "from pkg import cyc_b\n\ndef a():\n    cyc_b.b()\n",
    );
    fx.write(
        "pkg/cyc_b.py",
        "from pkg import cyc_a\n\ndef b():\n    cyc_a.a()\n",
    );
    // A call on an object of unknown type: only the method's name links it.
    fx.write(
        "pkg/worker.py",
        "class Worker:\n    def process(self, x):\n        return x\n",
    );
    fx.write("pkg/jobs.py", "def run(w):\n    return w.process(1)\n");
    fx
}

#[tokio::test]
async fn understand_resolves_the_goal_and_answers_with_graphs() {
    let fx = layered_fixture();
    let client = connect(&fx).await;
    common::wait_indexed(&client).await;

    // A definition named by a plain word of the goal: its callers and callees, resolved.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "how does dispatch work" }),
        )
        .await,
    );
    assert_eq!(r["scope"], "symbol", "{r:#}");
    assert_eq!(r["target"]["path"], "pkg/core.py", "{r:#}");
    assert_eq!(r["target"]["symbol"], "dispatch");
    let graph = &r["callGraph"];
    assert_eq!(graph["callers"][0]["caller"], "pkg/api.py#serve", "{r:#}");
    assert_eq!(graph["callers"][0]["confidence"], "import");
    assert!(
        graph["callers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["caller"] == "pkg/cli.py#main"),
        "depth 2 reaches the caller's caller: {r:#}"
    );
    assert_eq!(graph["callees"][0]["callee"], "pkg/core.py#handle");
    assert_eq!(graph["callees"][0]["confidence"], "file");
    assert_eq!(r["impactRadius"], 2, "api imports core, cli imports api");

    // A file: outline kept, dependents and a diagram.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "role", "path": "pkg/core.py" }),
        )
        .await,
    );
    assert_eq!(r["scope"], "file");
    assert_eq!(r["outline"].as_array().unwrap().len(), 2);
    let dependents: Vec<&Value> = r["dependencies"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["type"] == "dependent")
        .collect();
    assert_eq!(dependents.len(), 2, "{r:#}");
    assert!(
        r["visualization"]
            .as_str()
            .unwrap()
            .starts_with("graph TD\n")
    );

    // The project: layers, entry points, the cycle, with an insight about it.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "architecture of the project" }),
        )
        .await,
    );
    assert_eq!(r["scope"], "project", "{r:#}");
    let overview = &r["overview"];
    assert!(
        overview["entryPoints"]
            .as_array()
            .unwrap()
            .contains(&json!("pkg/cli.py")),
        "{r:#}"
    );
    assert_eq!(
        overview["cycles"],
        json!([["pkg/cyc_a.py", "pkg/cyc_b.py"]])
    );
    // The root is no git repository: hot spots are scored without churn, and it says so.
    assert!(
        r["reasons"]
            .as_array()
            .unwrap()
            .contains(&json!("no_git_history")),
        "{r:#}"
    );
    assert!(
        r["insights"]
            .as_array()
            .unwrap()
            .iter()
            .any(|i| i["type"] == "dependency"),
        "{r:#}"
    );

    // A link only the name suggests is listed apart, never as a known caller.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "who calls it", "path": "pkg/worker.py", "symbol": "Worker.process" }),
        )
        .await,
    );
    let graph = &r["callGraph"];
    assert_eq!(graph["callers"], json!([]), "{r:#}");
    assert_eq!(
        graph["possibleCallers"][0]["caller"], "pkg/jobs.py#run",
        "{r:#}"
    );
    assert_eq!(graph["possibleCallers"][0]["confidence"], "name");
    let summary = r["summary"].as_str().unwrap();
    assert!(
        summary.contains("called from 0 definitions (+1 possible by name only)"),
        "{summary}"
    );

    // A name nothing defines: a clear error, not a guess.
    let missing = call(
        &client,
        "understand",
        json!({ "goal": "x", "symbol": "no_such_definition" }),
    )
    .await;
    assert_eq!(missing.is_error, Some(true));
    assert!(
        common::text(&missing).starts_with("NOT_FOUND"),
        "{missing:?}"
    );
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_goal_s_plain_words_go_through_the_search_and_say_how_sure_they_are() {
    let fx = Fixture::new();
    fx.write(
        "app/ctx.py",
        "class RequestContext:\n    def session(self):\n        return None\n",
    );
    fx.write(
        "app/cookies.py",
        "def save_session_cookie(response, value):\n    \"\"\"Sets the session cookie on the response once the session is saved.\"\"\"\n    response.set_cookie('session', value)\n",
    );
    fx.write(
        "app/views.py",
        "class View:\n    def dispatch(self):\n        return handle_exception(self)\n\n\n\
         def handle_exception(view):\n    \"\"\"Turns an exception raised in a view into a response.\"\"\"\n    return view\n",
    );
    fx.write(
        "app/tags.py",
        "class Serializer:\n    def register(self, tag):\n        \"\"\"Register a new tag with this serializer.\"\"\"\n        return tag\n",
    );
    fx.write(
        "app/blueprints.py",
        "class Blueprint:\n    def app_template_filter(self, name=None):\n        \"\"\"Register a template filter, available in any template rendered by the\n        application.\"\"\"\n        return name\n",
    );
    for (file, def) in [
        ("app/json_a.py", "def dumps(obj):"),
        (
            "app/json_b.py",
            "class Provider:\n    def dumps(self, obj):",
        ),
    ] {
        fx.write(
            file,
            &format!("{def}\n        \"\"\"Serialize data as JSON.\"\"\"\n        return obj\n"),
        );
    }
    fx.write(
        "app/Naming.java",
        "enum NamingPolicy {\n    /** Lower-cases every word of a name and joins them with dots. */\n    \
         LOWER_DOTS {\n        @Override String apply(String n) { return n.toLowerCase(); }\n    },\n    \
         /** Upper-cases the first letter of a name. */\n    UPPER_FIRST {\n        \
         @Override String apply(String n) { return n; }\n    };\n    abstract String apply(String n);\n}\n",
    );
    let client = connect(&fx).await;
    common::wait_indexed(&client).await;
    let target = |r: &Value| {
        (
            r["target"]["symbol"].as_str().unwrap_or("").to_string(),
            r["target"]["confidence"].as_str().unwrap_or("").to_string(),
        )
    };
    // An enum's constant is a definition its doc comment describes (the goal says none of
    // its name's words).
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "which naming policy joins every word of a name" }),
        )
        .await,
    );
    assert_eq!(target(&r).0, "NamingPolicy.LOWER_DOTS", "{r:#}");
    // A plain word naming a definition (`session`, `view`) does not win over the search.
    for (goal, want) in [
        ("where is the session cookie saved", "save_session_cookie"),
        ("exception in a view", "handle_exception"),
    ] {
        let r = structured(&call(&client, "understand", json!({ "goal": goal })).await);
        let (symbol, confidence) = target(&r);
        assert_eq!(symbol, want, "{goal}: {r:#}");
        assert_ne!(confidence, "low", "{goal}: {r:#}");
        assert!(
            !r["target"]["alternatives"].as_array().unwrap().is_empty(),
            "{goal}: the other readings are listed: {r:#}"
        );
    }
    // A directory named by a short goal is its subject; in a sentence it is one word among
    // others, and the sentence's words decide, the directory offered.
    for goal in ["the app package", "Explain the app package"] {
        let r = structured(&call(&client, "understand", json!({ "goal": goal })).await);
        assert_eq!(
            (
                &r["scope"],
                &r["target"]["path"],
                &r["target"]["confidence"]
            ),
            (&json!("module"), &json!("app"), &json!("high")),
            "{goal}: {r:#}"
        );
    }
    // A sentence whose other words read nothing well: the directory it names, unsure.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "zebra quantum flux capacitors somewhere inside the app tree" }),
        )
        .await,
    );
    assert_eq!(
        (
            &r["scope"],
            &r["target"]["path"],
            &r["target"]["confidence"]
        ),
        (&json!("module"), &json!("app"), &json!("low")),
        "{r:#}"
    );
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "Sets the cookie on the response once the app session is saved" }),
        )
        .await,
    );
    assert_eq!(target(&r).0, "save_session_cookie", "{r:#}");
    assert!(
        r["target"]["alternatives"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == "app (directory)"),
        "{r:#}"
    );
    // A sentence's capitalised first word (`Register`) names no definition by itself: the
    // definition whose docstring says what the sentence says is meant, and it is sure.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "Register a template filter available in any template rendered by the application" }),
        )
        .await,
    );
    assert_eq!(
        target(&r),
        ("Blueprint.app_template_filter".into(), "high".into()),
        "{r:#}"
    );
    // Two definitions say the same: one is taken, not surely, and the other is offered.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "Serialize data as JSON" }),
        )
        .await,
    );
    let (symbol, confidence) = target(&r);
    assert!(
        ["dumps", "Provider.dumps"].contains(&symbol.as_str()),
        "{r:#}"
    );
    assert_ne!(confidence, "high", "{r:#}");
    let other = if symbol == "dumps" {
        "Provider.dumps in app/json_b.py"
    } else {
        "dumps in app/json_a.py"
    };
    assert!(
        r["target"]["alternatives"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a == other),
        "{r:#}"
    );
    // A quoted name pins the definition, whatever its shape.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "what calls `dispatch` here" }),
        )
        .await,
    );
    assert_eq!(target(&r), ("View.dispatch".into(), "high".into()), "{r:#}");
    // Most words the index knows nothing about: a guess, and it says so.
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "database retry budget for the response" }),
        )
        .await,
    );
    assert_eq!(r["target"]["confidence"], "low", "{r:#}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn a_goal_paraphrasing_a_docstring_finds_it_past_definitions_repeating_its_words() {
    let fx = Fixture::new();
    // Two dozen helpers saying the goal's words again and again: the search's first twenty
    // hits, and their files the first ten it reads.
    common::docstring_and_word_repeaters(&fx);
    fx.write(
        "app/gdal/field.py",
        "class OFTDate:\n    \"\"\"A field of dates.\"\"\"\n\n    def value(self):\n        \
         \"\"\"Return a Python date object for the OFTDate field.\"\"\"\n        return None\n\n    \
         def width(self):\n        return 0\n",
    );
    fx.write(
        "app/lookups.py",
        "class In:\n    pass\n\n\ndef s():\n    pass\n",
    );
    fx.write(
        "app/operations.py",
        "def max_in_list_size():\n    \"\"\"Return the maximum number of items in an 'IN' \
         list, or None if the backend has no limit.\"\"\"\n    return None\n",
    );
    // TypeScript overloads: the signatures come first, one with its own `@deprecated` note,
    // and the implementation's doc comment says what it does.
    fx.write(
        "web/keep.ts",
        "/** @deprecated Use a closure instead of a thisArg. */\n\
         export function keep<T>(test: (v: T) => boolean, thisArg: any): T[];\n\
         export function keep<T>(test: (v: T) => boolean): T[];\n\
         /**\n * Emit only the items that satisfy a specified predicate.\n */\n\
         export function keep<T>(test: (v: T) => boolean, thisArg?: any): T[] {\n  return [];\n}\n\n\
         /** Emit every item. */\nexport function emitAll<T>(items: T[]): T[] {\n  return items;\n}\n",
    );
    let client = connect(&fx).await;
    common::wait_indexed(&client).await;
    let ask = |goal: &'static str| {
        let client = &client;
        async move { structured(&call(client, "understand", json!({ "goal": goal })).await) }
    };
    let symbol = |r: &Value| r["target"]["symbol"].as_str().unwrap_or("").to_string();
    // Said in other words and other inflections than the docstring's.
    let r =
        ask("see whether a page was cached already, returning its cached version when available")
            .await;
    assert_eq!(symbol(&r), "FetchFromCache.process_request", "{r:#}");
    // A type named with more words means the member they describe; the type is offered.
    let r = ask("OFTDate field as a Python date").await;
    assert_eq!(symbol(&r), "OFTDate.value", "{r:#}");
    assert_eq!(
        r["target"]["alternatives"][0], "OFTDate in app/gdal/field.py",
        "{r:#}"
    );
    let r = ask("OFTDate").await;
    assert_eq!(symbol(&r), "OFTDate", "{r:#}");
    // One more word is too little to leave the type for (`width` names a member).
    let r = ask("OFTDate width").await;
    assert_eq!(symbol(&r), "OFTDate", "{r:#}");
    // `'IN'` is no call of `In` (names keep their case), and the apostrophe of `backend's`
    // quotes no `s`.
    let r = ask(
        "maximum number of items in a single 'IN' list, or None when the backend's limit is unset",
    )
    .await;
    assert_eq!(symbol(&r), "max_in_list_size", "{r:#}");
    let r = ask("maximum size of an items list for this backend's").await;
    assert_eq!(symbol(&r), "max_in_list_size", "{r:#}");
    // Every overload's doc comment is read, not only the first signature's.
    let r = ask("emit only those items satisfying a specified predicate").await;
    assert_eq!(symbol(&r), "keep", "{r:#}");
    client.cancel().await.unwrap();
}

#[tokio::test]
async fn understand_pages_through_long_lists_with_cursors() {
    let fx = Fixture::new();
    fx.write("pkg/__init__.py", "");
    fx.write("pkg/hub.py", "def hub():\n    return 1\n");
    for i in 0..12 {
        fx.write(
            &format!("pkg/user_{i:02}.py"),
            &format!("from pkg.hub import hub\n\ndef use_{i:02}():\n    return hub()\n"),
        );
    }
    let client = connect(&fx).await;
    common::wait_indexed(&client).await;

    // Shallow lists hold 5: the callers come in three pages, each one new, none lost.
    let first = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "hub", "path": "pkg/hub.py", "symbol": "hub", "depth": "shallow" }),
        )
        .await,
    );
    let mut callers: Vec<String> = Vec::new();
    let mut page = first.clone();
    let mut pages = 1;
    loop {
        for l in page["callGraph"]["callers"].as_array().unwrap() {
            callers.push(l["caller"].as_str().unwrap().to_string());
        }
        let Some(cursor) = page["next"]["cursor"].as_str() else {
            break;
        };
        assert_eq!(page["next"]["call"]["args"]["cursor"], cursor, "{page:#}");
        page = structured(&call(&client, "understand", json!({ "cursor": cursor })).await);
        pages += 1;
        assert_eq!(page["target"]["symbol"], "hub", "{page:#}");
        assert_eq!(page["skeleton"], "", "said once, on the first page");
        assert!(page.get("visualization").is_none(), "{page:#}");
        assert!(pages < 10, "cursors never end: {page:#}");
    }
    assert_eq!(pages, 3, "{first:#}");
    let mut unique = callers.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), callers.len(), "a caller twice: {callers:?}");
    assert_eq!(callers.len(), 12, "{callers:?}");
    assert_eq!(first["callGraph"]["truncated"], true);
    assert_eq!(page["callGraph"]["truncated"], false);
    assert!(
        common::text(
            &call(
                &client,
                "understand",
                json!({ "goal": "hub", "path": "pkg/hub.py", "symbol": "hub", "depth": "shallow" })
            )
            .await
        )
        .contains("more in every list: understand({\"cursor\":"),
    );

    // A damaged cursor, a cursor with a target of its own, and no goal at all: clear errors.
    let cursor = first["next"]["cursor"].as_str().unwrap();
    for (args, needle) in [
        (json!({ "cursor": "u1|x" }), "cursor refused"),
        (
            json!({ "cursor": cursor, "path": "pkg/hub.py" }),
            "carries its target",
        ),
        (json!({}), "`goal` is required"),
    ] {
        let refused = call(&client, "understand", args.clone()).await;
        assert_eq!(refused.is_error, Some(true), "{args}");
        let text = common::text(&refused);
        assert!(
            text.starts_with("INVALID_ARGS") && text.contains(needle),
            "{args}: {text}"
        );
    }
    client.cancel().await.unwrap();
}

/// While the first pass runs, answers say what the index does not know yet instead of
/// stating absence: a third-party parser that runs out of time on six files holds the pass
/// (and the code files of its batch) for seconds.
#[tokio::test]
async fn answers_during_the_first_pass_say_what_is_not_indexed_yet() {
    // A deadline long enough for the pillars' own calls on a loaded 2-core machine (the stall
    // parser spends all of it on each of its files, holding the pass).
    let fx = Fixture::new();
    fx.operator_config(&format!(
        "plugin_dirs = [{:?}]\n\n[limits]\ntimeout_ms = 3000\nmemory_mib = 64\n\n[plugin.stall]\ngrants = [\"log\"]\n",
        common::TEST_PLUGINS
    ));
    fx.write(
        "app/sections.py",
        "def merge_sections(sections):\n    merged = {}\n    for s in sections:\n        merged.update(s)\n    return merged\n",
    );
    for i in 0..6 {
        fx.write(&format!("slow/{i}.stall"), &format!("content {i}\n"));
    }
    let client = common::connect_second(&fx).await;
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let status = structured(&call(&client, "manage", json!({ "command": "status" })).await);
        if status["result"]["index"]["state"] == "rebuilding" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the first pass never started: {status}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    // A definition the index has not reached: not "no definition", but "not indexed yet".
    let answer = call(&client, "understand", json!({ "symbol": "merge_sections" })).await;
    let failure = answer.structured_content.clone().unwrap();
    assert_eq!(failure["code"], "NOT_INDEXED", "{failure}");
    assert!(
        common::text(&answer).contains("may not be indexed yet"),
        "{}",
        common::text(&answer)
    );
    // A dry run's impact from a partial index is not "risk none".
    let dry = call(
        &client,
        "change",
        json!({ "intent": "a dict call", "edits": [{
            "filePath": "app/sections.py",
            "targetString": "    merged = {}",
            "replacementString": "    merged = dict()"
        }] }),
    )
    .await;
    let text = common::text(&dry);
    assert!(
        text.contains("impact: unknown") && !text.contains("risk none"),
        "{text}"
    );
    // explore finds the file by scanning it, and says so in its text.
    let found = call(&client, "explore", json!({ "query": "merge sections" })).await;
    let text = common::text(&found);
    assert!(
        text.contains("degraded:") && text.contains("app/sections.py"),
        "{text}"
    );
    // Once the pass is done, the same questions get their answers.
    common::wait_indexed(&client).await;
    let answer =
        structured(&call(&client, "understand", json!({ "symbol": "merge_sections" })).await);
    assert_eq!(
        answer["callGraph"]["targets"][0], "app/sections.py#merge_sections",
        "{answer}"
    );
    client.cancel().await.unwrap();
}

/// Right after a complete `index` of a tree that has not changed, a new server's first
/// answer is not degraded: nothing is left to scan live, and no pass has work to do.
#[tokio::test]
async fn a_new_server_on_a_complete_index_answers_undegraded_from_the_start() {
    let fx = fixture();
    let out = fx.command(&["index"]).output().unwrap();
    assert!(out.status.success());
    let client = common::connect_second(&fx).await;
    let answer = structured(&call(&client, "explore", json!({ "query": "Circle area" })).await);
    assert!(answer.get("degraded").is_none(), "{answer}");
    assert_eq!(
        answer["data"]["code"][0]["filePath"], "src/shapes.py",
        "{answer}"
    );
    client.cancel().await.unwrap();
}
