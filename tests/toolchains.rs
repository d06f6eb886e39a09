//! Plugins as their authors make them: `plugin new` writes a project, the language's standard
//! component toolchain from its registry builds it with its default output (componentize-py
//! from PyPI, componentize-js and jco from npm, clang and wasi-libc from Debian, Rust's
//! wasm32-wasip2), and the built binary loads it, sandboxed: Python and C parsers' files are
//! indexed and found through explore, a JavaScript tool that imports its whole world runs
//! over MCP with the one grant it uses (the rest answer ACCESS_DENIED), a Rust parser
//! passes `plugin check`, and a Rust code parser brings a language to explore and understand.

mod common;

use common::{Fixture, call, connect, envelope, structured};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The toolchains pinned in tests/toolchains/, installed once per target dir by the script
/// .ci/run also calls (one test installs while the others wait).
fn toolchains() -> PathBuf {
    static INSTALL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = INSTALL.lock().unwrap_or_else(|p| p.into_inner());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("toolchains");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/plugin-toolchains.sh");
    let status = Command::new("bash")
        .arg(&script)
        .arg(&dir)
        .status()
        .expect("bash");
    assert!(status.success(), "{} failed", script.display());
    dir
}

/// PATH with the toolchains first.
fn toolchain_path(toolchains: &Path) -> String {
    format!(
        "{}:{}:{}",
        toolchains.join("py/bin").display(),
        toolchains.join("js/node_modules/.bin").display(),
        std::env::var("PATH").unwrap_or_default()
    )
}

/// `smart-context plugin new LANGUAGE WORLD NAME` in `parent`; the project's directory.
fn scaffold(fx: &Fixture, parent: &Path, language: &str, world: &str, name: &str) -> PathBuf {
    let toolchains = toolchains();
    let dir = parent.join(name);
    let out = fx
        .command(&["plugin", "new", language, world, name, "--dir"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    if language == "js" || language == "c" {
        std::os::unix::fs::symlink(toolchains.join("js/node_modules"), dir.join("node_modules"))
            .unwrap();
    }
    dir
}

/// [`scaffold`], then the project's build.sh with the toolchains on PATH; the built component.
fn scaffold_and_build(
    fx: &Fixture,
    parent: &Path,
    language: &str,
    world: &str,
    name: &str,
) -> PathBuf {
    let dir = scaffold(fx, parent, language, world, name);
    let out = Command::new(dir.join("build.sh"))
        .env("PATH", toolchain_path(&toolchains()))
        // The Rust project reuses the dependencies the host's own plugins were built with.
        .env(
            "CARGO_TARGET_DIR",
            PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("scaffold-target"),
        )
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{name}: build.sh failed\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let wasm = dir.join(format!("{name}.wasm"));
    assert!(wasm.is_file(), "{name}: no {}", wasm.display());
    wasm
}

/// The config entry `plugin pin` prints for a component (its hash pinned, the grants its
/// imports need).
fn pin(fx: &Fixture, wasm: &Path) -> String {
    let out = fx.command(&["plugin", "pin"]).arg(wasm).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<Vec<_>>()
        .join("\n")
}

#[tokio::test]
async fn python_and_c_parsers_and_a_javascript_tool_from_the_registries_serve_over_mcp() {
    let fx = Fixture::new();
    let built = tempfile::tempdir().unwrap();
    let notes = scaffold_and_build(&fx, built.path(), "python", "format-parser", "notes");
    let finder = scaffold_and_build(&fx, built.path(), "js", "pillar", "finder");
    let cards = scaffold_and_build(&fx, built.path(), "c", "format-parser", "cards");
    let plugins = built.path().join("plugins");
    std::fs::create_dir(&plugins).unwrap();
    for wasm in [&notes, &finder, &cards] {
        std::fs::copy(wasm, plugins.join(wasm.file_name().unwrap())).unwrap();
    }
    // The parser as pinned; the tool imports every interface of its world (componentize-js
    // does) and is granted only the workspace it reads.
    let notes_entry = pin(&fx, &plugins.join("notes.wasm"));
    assert!(notes_entry.contains("grants = [\"log\"]"), "{notes_entry}");
    let finder_entry = pin(&fx, &plugins.join("finder.wasm"));
    assert!(finder_entry.contains("\"memory\""), "{finder_entry}");
    let finder_entry = finder_entry
        .lines()
        .map(|l| {
            if l.starts_with("grants") {
                "grants = [\"workspace\"]"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    // The C parser imports nothing of the host's: no grant at all.
    let cards_entry = pin(&fx, &plugins.join("cards.wasm"));
    assert!(cards_entry.contains("grants = []"), "{cards_entry}");
    fx.operator_config(&format!(
        "plugin_dirs = [{:?}]\n\n{notes_entry}\n\n{finder_entry}\n\n{cards_entry}\n",
        plugins
    ));
    fx.write(
        "deck/birds.cards",
        "# Heron\nwades in shallow water\n\n# Kestrel\nhovers over the verge\n",
    );
    fx.write(
        "meetings/monday.notes",
        "# Budget\nthe okapi enclosure needs a new roof\n\n# Staffing\ntwo keepers start in May\n",
    );
    fx.write(
        "src/todo.rs",
        "fn main() {\n    // TODO: feed the okapi\n}\n",
    );

    let listed = fx.command(&["plugins", "--json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&listed.stdout).unwrap();
    assert_eq!(report["rejected"], json!([]), "{report}");
    let finder_info = common::listed_plugin(&report, "finder");
    assert_eq!(finder_info["grants"], json!(["workspace"]));
    assert_eq!(
        finder_info["denied"],
        json!(["log", "index", "status", "store", "memory"]),
        "{finder_info}"
    );

    let client = connect(&fx).await;
    // The Python parser's sections are indexed and found by what they say.
    let found = envelope(
        &call(
            &client,
            "explore",
            json!({ "query": "okapi enclosure roof" }),
        )
        .await,
    );
    let docs = found["data"]["docs"].as_array().unwrap();
    assert!(
        docs.iter().any(|d| d["filePath"] == "meetings/monday.notes"
            && d["preview"].as_str().unwrap().contains("okapi enclosure")),
        "{found}"
    );
    let outline = envelope(
        &call(
            &client,
            "explore",
            json!({ "paths": ["meetings/monday.notes"] }),
        )
        .await,
    );
    let preview = outline["data"]["docs"][0]["preview"].as_str().unwrap();
    assert!(
        preview.contains("Budget") && preview.contains("Staffing"),
        "{outline}"
    );

    // So are the C parser's.
    let found = envelope(&call(&client, "explore", json!({ "query": "kestrel hovers" })).await);
    let docs = found["data"]["docs"].as_array().unwrap();
    assert!(
        docs.iter().any(|d| d["filePath"] == "deck/birds.cards"
            && d["preview"]
                .as_str()
                .unwrap()
                .contains("hovers over the verge")),
        "{found}"
    );

    // The JavaScript tool, over MCP, reads the workspace through its one grant.
    let result = call(&client, "finder__finder", json!({ "word": "TODO" })).await;
    let answer = structured(&result);
    assert_eq!(
        answer["matches"],
        json!([{ "path": "src/todo.rs", "line": 2, "text": "// TODO: feed the okapi" }]),
        "{answer}"
    );
    // Bad arguments come back as the tool's own error, code and suggestion.
    let result = call(&client, "finder__finder", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    let error = result.structured_content.unwrap();
    assert_eq!(error["code"], "INVALID_ARGS", "{error}");
    client.cancel().await.unwrap();
}

#[test]
fn a_rust_parser_from_plugin_new_passes_plugin_check() {
    let fx = Fixture::new();
    let built = tempfile::tempdir().unwrap();
    let wasm = scaffold_and_build(&fx, built.path(), "rust", "format-parser", "recipes");
    fx.write(
        "pancakes.recipes",
        "Pancakes\nflour, milk, eggs\n\nMethod\nwhisk and fry\n",
    );
    let (ok, report) = common::json_report(
        fx.command(&["plugin", "check"])
            .arg(&wasm)
            .arg("--input")
            .arg(fx.path().join("pancakes.recipes")),
    );
    assert!(ok, "{report}");
    // The template logs nothing, so it needs no grant at all.
    assert_eq!(report["grantsNeeded"], json!([]));
    assert_eq!(
        report["call"]["document"]["headings"],
        json!(["Pancakes", "Method"]),
        "{report}"
    );
}

/// A language from `plugin new rust code-parser`: the template builds, `plugin check` prints
/// its outline, and once pinned in the operator's config its files are found by definition
/// and outlined, their imports and calls linked, with no grant at all.
#[tokio::test]
async fn a_rust_code_parser_from_plugin_new_brings_a_language() {
    let fx = Fixture::new();
    let built = tempfile::tempdir().unwrap();
    let wasm = scaffold_and_build(&fx, built.path(), "rust", "code-parser", "ledger");
    fx.write(
        "books/close.ledger",
        "use books/common.ledger\n\n# Closes the month's books.\ndef close_month\n  carry_balance(1)\nend\n",
    );
    fx.write("books/common.ledger", "def carry_balance\n  noop\nend\n");
    let (ok, report) = common::json_report(
        fx.command(&["plugin", "check"])
            .arg(&wasm)
            .arg("--input")
            .arg(fx.path().join("books/close.ledger")),
    );
    assert!(ok, "{report}");
    assert_eq!(report["grantsNeeded"], json!([]), "{report}");
    let structure = &report["call"]["structure"];
    assert_eq!(
        structure["outline"],
        json!(["4:6 function close_month"]),
        "{report}"
    );
    assert_eq!(structure["imports"], json!(["books/common.ledger"]));
    assert_eq!(structure["calls"], 1, "{report}");

    let entry = pin(&fx, &wasm);
    assert!(entry.contains("grants = []"), "{entry}");
    fx.operator_config(&format!(
        "plugin_dirs = [{:?}]\n\n{entry}\n",
        wasm.parent().unwrap()
    ));
    let client = connect(&fx).await;
    let found = structured(&call(&client, "explore", json!({ "query": "close_month" })).await);
    let hit = &found["data"]["code"][0];
    assert_eq!(hit["filePath"], "books/close.ledger", "{found:#}");
    assert_eq!(hit["title"], "close_month", "{found:#}");
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "who depends on it", "path": "books/common.ledger" }),
        )
        .await,
    );
    assert!(
        r["dependencies"].to_string().contains("books/close.ledger"),
        "{r:#}"
    );
    let r = structured(
        &call(
            &client,
            "understand",
            json!({ "goal": "who calls it", "path": "books/common.ledger", "symbol": "carry_balance" }),
        )
        .await,
    );
    assert!(r["callGraph"].to_string().contains("close_month"), "{r:#}");
    client.cancel().await.unwrap();
}

/// jco's QuickJS backend uses the component model's async ABI by default: the host refuses it
/// with the flag that avoids it, once (a second check is refused from memory), and the same
/// parser built with that flag loads and parses.
#[test]
fn quickjs_components_are_refused_with_the_flag_that_makes_them_load() {
    let fx = Fixture::new();
    let built = tempfile::tempdir().unwrap();
    let dir = scaffold(&fx, built.path(), "js", "format-parser", "quick");
    let jco = |extra: &[&str], out: &str| {
        let status = Command::new("jco")
            .args(["componentize", "app.js", "--wit"])
            .arg(dir.join("wit"))
            .args(["-n", "format-parser", "--backend", "qjs"])
            .args(extra)
            .args(["-o", out])
            .current_dir(&dir)
            .env("PATH", toolchain_path(&toolchains()))
            .status()
            .unwrap();
        assert!(status.success(), "jco componentize {extra:?}");
        dir.join(out)
    };
    let check = |wasm: &Path, input: Option<&Path>| {
        let mut command = fx.command(&["plugin", "check"]);
        command.arg(wasm);
        if let Some(input) = input {
            command.arg("--input").arg(input);
        }
        common::json_report(&mut command)
    };
    let asynchronous = jco(&[], "quick.wasm");
    let (ok, report) = check(&asynchronous, None);
    let refused = report["refused"].as_str().unwrap_or_default().to_string();
    assert!(
        !ok && refused.contains("--backend-qjs-disable-async"),
        "{report}"
    );
    let (_, again) = check(&asynchronous, None);
    assert!(
        again["refused"].as_str().unwrap().contains("remembered"),
        "{again}"
    );

    let synchronous = jco(&["--backend-qjs-disable-async"], "quick-sync.wasm");
    let input = dir.join("menu.quick-sync");
    std::fs::write(&input, "Starters\nsoup\n\nMains\nstew\n").unwrap();
    let (ok, report) = check(&synchronous, Some(&input));
    assert!(ok, "{report}");
    assert_eq!(
        report["call"]["document"]["headings"],
        json!(["Starters", "Mains"]),
        "{report}"
    );
}
