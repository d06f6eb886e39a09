//! The built binary driven by the official MCP TypeScript SDK (npm package
//! `@modelcontextprotocol/sdk`, pinned in tests/typescript/package-lock.json with the MCP
//! Inspector, and installed with `npm ci` under target/ on first run), over stdio and
//! streamable HTTP. The SDK validates
//! every structuredContent against the tool's outputSchema, failures included: a failure
//! shaped otherwise throws -32602 in the client instead of reaching the agent. understand's
//! Mermaid diagrams are parsed by Mermaid itself (npm `mermaid`, with `jsdom`).

mod common;

use common::{BIN, Fixture, cache_home};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A directory with the pinned SDK installed, made once per target dir. The tests of this
/// binary run in parallel: one installs while the others wait, so two `npm ci` never race
/// in one node_modules.
fn sdk_dir() -> PathBuf {
    static INSTALL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _one_at_a_time = INSTALL.lock().unwrap_or_else(|p| p.into_inner());
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("ts-sdk");
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/typescript");
    let lock = std::fs::read_to_string(source.join("package-lock.json")).unwrap();
    let ready = dir.join(".installed");
    std::fs::create_dir_all(&dir).unwrap();
    for file in ["package.json", "package-lock.json", "client.mjs"] {
        std::fs::copy(source.join(file), dir.join(file)).unwrap();
    }
    if std::fs::read_to_string(&ready).ok().as_deref() == Some(lock.as_str())
        && dir.join("node_modules").is_dir()
    {
        return dir;
    }
    let status = Command::new("npm")
        .args([
            "ci",
            "--ignore-scripts",
            "--no-audit",
            "--no-fund",
            "--silent",
        ])
        .current_dir(&dir)
        .status()
        .expect("npm (Node 20 or newer) is needed for this test");
    assert!(status.success(), "npm ci in {} failed", dir.display());
    std::fs::write(&ready, lock).unwrap();
    dir
}

#[test]
fn typescript_sdk_accepts_every_answer_and_every_failure_over_stdio_and_http() {
    let fx = Fixture::new();
    // For understand's diagrams: an import cycle, a branchy function (a hot spot) and a file
    // whose name holds every character Mermaid's syntax gives a meaning to.
    fx.write("pkg/__init__.py", "");
    fx.write(
        "pkg/a.py",
        &common::branchy_python("from pkg import b\n\n", "tangled", "x = b.helper(x)"),
    );
    fx.write(
        "pkg/b.py",
        "from pkg import a\n\ndef helper(x):\n    return a.tangled(x - 1) if x > 9 else x\n",
    );
    fx.write(
        "pkg/we\"ird [x] {y} <z> |w| %% #1;.py",
        "from pkg import a\n\ndef odd():\n    return a.tangled(3)\n",
    );
    let dir = sdk_dir();
    let output = Command::new("node")
        .arg(dir.join("client.mjs"))
        .arg(BIN)
        .arg(fx.path())
        .arg(cache_home())
        .arg(fx.home.path().join("config"))
        .arg(fx.home.path().join("data"))
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "node client failed:\n{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "report is not JSON ({e}): {}\n{stderr}",
            String::from_utf8_lossy(&output.stdout)
        )
    });
    for transport in ["stdio", "http"] {
        let r = &report[transport];
        assert_eq!(
            r["tools"],
            serde_json::json!(["explore", "understand", "change", "write", "manage"]),
            "{transport}"
        );
        // Nothing threw: every structuredContent matched its tool's outputSchema.
        assert_eq!(r["thrown"], serde_json::json!({}), "{transport}: {r:#}");
        for ok in [
            "exploreOk",
            "exploreQuery",
            "understandOk",
            "changeDryRun",
            "manageStatus",
        ] {
            assert_eq!(r["calls"][ok]["isError"], false, "{transport} {ok}: {r:#}");
        }
        for (failure, code) in [
            ("exploreInvalidArgs", "INVALID_ARGS"),
            ("exploreMissing", "FILE_NOT_FOUND"),
            ("changeNoMatch", "NO_MATCH"),
            ("writeExists", "ALREADY_EXISTS"),
            ("understandMissing", "FILE_NOT_FOUND"),
            ("manageBadCommand", "INVALID_ARGS"),
        ] {
            let c = &r["calls"][failure];
            assert_eq!(c["isError"], true, "{transport} {failure}: {c}");
            assert_eq!(c["code"], code, "{transport} {failure}: {c}");
            assert_eq!(c["success"], false, "{transport} {failure}: {c}");
            assert!(
                c["firstLine"]
                    .as_str()
                    .is_some_and(|l| l.starts_with(&format!("{code}: "))),
                "{transport} {failure}: the text leads with the code: {c}"
            );
            assert_eq!(c["hasSuggestionLine"], true, "{transport} {failure}: {c}");
        }
        assert_eq!(r["prompts"], serde_json::json!(["playbook"]), "{transport}");
        assert!(r["playbookChars"].as_u64().unwrap() > 500);
        assert_eq!(r["rebuild"]["isError"], false, "{transport}: {r:#}");
        assert!(
            !r["rebuild"]["progress"].as_array().unwrap().is_empty(),
            "{transport}: a rebuild asked for progress reports some: {r:#}"
        );
    }
    // Every diagram understand drew parses with Mermaid's own parser, which refuses a broken one.
    let mermaid = &report["stdio"]["mermaid"];
    assert_eq!(mermaid["brokenRefused"], true, "{mermaid:#}");
    for label in ["project", "cycleFile", "hostileName"] {
        let d = &mermaid[label];
        assert_eq!(d["isError"], false, "{label}: {d:#}");
        assert!(d["nodes"].as_u64().unwrap() >= 2, "{label}: {d:#}");
        assert_eq!(d["parseError"], serde_json::Value::Null, "{label}: {d:#}");
        assert_eq!(d["diagramType"], "flowchart-v2", "{label}: {d:#}");
    }
    assert_eq!(report["stdio"]["server"], "smart-context");
    assert!(report["stdio"]["instructions"].as_u64().unwrap() > 100);
}

#[test]
fn inspector_cli_strict_lists_the_tools_without_a_portability_warning() {
    let fx = Fixture::new();
    let dir = sdk_dir();
    let output = Command::new(dir.join("node_modules/.bin/mcp-inspector"))
        .args(["--cli", "--strict", "--method", "tools/list"])
        .arg("-e")
        .arg(format!("XDG_CACHE_HOME={}", cache_home().display()))
        .arg("-e")
        .arg(format!(
            "XDG_CONFIG_HOME={}",
            fx.home.path().join("config").display()
        ))
        .arg("-e")
        .arg(format!(
            "XDG_DATA_HOME={}",
            fx.home.path().join("data").display()
        ))
        .arg("-e")
        .arg("SMART_CONTEXT_LOG=warn")
        .arg(BIN)
        .arg("--root")
        .arg(fx.path())
        .arg("serve")
        .current_dir(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "inspector failed:\n{stderr}");
    assert!(
        !stderr.contains("Warning:") && !stderr.contains("Error:"),
        "the tool schemas are not portable:\n{stderr}"
    );
    let listed: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let names: Vec<&str> = listed["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["explore", "understand", "change", "write", "manage"]
    );
}
