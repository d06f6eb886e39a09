//! Shared by the end-to-end tests: a throwaway workspace with known content, and the built
//! `smart-context` binary started against it.
#![allow(dead_code)] // each test binary uses a different part

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::transport::TokioChildProcess;
use std::path::{Path, PathBuf};

/// The binary under test, built by cargo for this test run.
pub const BIN: &str = env!("CARGO_BIN_EXE_smart-context");
/// The sandbox test fixtures (plugins/testing/*), built by host/build.rs.
pub const TEST_PLUGINS: &str = env!("SMART_CONTEXT_TEST_PLUGINS");

pub const LIB_RS: &str =
    "pub fn answer() -> u32 {\n    42\n}\n\npub struct Config {\n    pub name: String,\n}\n";
pub const GUIDE_MD: &str =
    "# Guide\n\nIntro text.\n\n## Install\n\nRun the installer.\n\n## Usage\n\nCall answer().\n";

/// The built-in plugins, sorted by name: the five pillars, the five format parsers and the
/// seven code parsers.
pub const BUILTIN_PLUGINS: [&str; 17] = [
    "change",
    "code_config",
    "code_csharp",
    "code_functional",
    "code_jvm",
    "code_more",
    "code_scripting",
    "code_swift",
    "docx",
    "explore",
    "manage",
    "markdown",
    "pdf",
    "text",
    "understand",
    "write",
    "xlsx",
];

pub struct Fixture {
    pub dir: tempfile::TempDir,
    /// The operator's side, outside the root: `operator.toml` (passed as --config when
    /// present), and the XDG config and data directories (trust list, journal key).
    pub home: tempfile::TempDir,
}

impl Fixture {
    /// src/lib.rs, docs/guide.md, a .env secret and a binary file.
    pub fn new() -> Self {
        let fx = Self {
            dir: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        };
        fx.write("src/lib.rs", LIB_RS);
        fx.write("docs/guide.md", GUIDE_MD);
        fx.write(".env", "API_KEY=very-secret\n");
        std::fs::write(fx.path().join("logo.bin"), b"\x89PNG\0\0\0binary").unwrap();
        fx
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn write(&self, rel: &str, content: &str) {
        let path = self.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    pub fn read(&self, rel: &str) -> Option<String> {
        std::fs::read_to_string(self.path().join(rel)).ok()
    }

    /// An operator config that loads the sandbox fixtures with tight limits.
    pub fn with_sandbox_config(self, extra: &str) -> Self {
        let config = format!(
            "plugin_dirs = [{:?}]\n\n[limits]\ntimeout_ms = 1000\nmemory_mib = 64\n\n{extra}",
            TEST_PLUGINS
        );
        self.operator_config(&config);
        self
    }

    /// Writes the operator's config (outside the root; the server gets it as --config).
    pub fn operator_config(&self, text: &str) {
        std::fs::write(self.operator_config_path(), text).unwrap();
    }

    /// The operator's config, if one was written.
    pub fn read_operator_config(&self) -> Option<String> {
        std::fs::read_to_string(self.operator_config_path()).ok()
    }

    pub fn operator_config_path(&self) -> PathBuf {
        self.home.path().join("operator.toml")
    }

    /// `smart-context --root <fixture> [--config <operator.toml>] ARGS`, with a shared
    /// component cache so tests do not each recompile every plugin, the fixture's own XDG
    /// config and data directories, and warnings-only logging.
    pub fn command(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = self.operator_command(&[]);
        cmd.arg("--root").arg(self.path()).args(args);
        cmd
    }

    /// [`Fixture::command`] without `--root`: the operator config's `[[roots]]` decide.
    pub fn operator_command(&self, args: &[&str]) -> std::process::Command {
        let mut cmd = std::process::Command::new(BIN);
        if self.operator_config_path().is_file() {
            cmd.arg("--config").arg(self.operator_config_path());
        }
        cmd.args(args);
        cmd.env("XDG_CACHE_HOME", cache_home())
            .env("XDG_CONFIG_HOME", self.home.path().join("config"))
            .env("XDG_DATA_HOME", self.home.path().join("data"))
            .env_remove("SMART_CONTEXT_CONFIG")
            .env("SMART_CONTEXT_LOG", "warn");
        cmd
    }

    pub fn tokio_command(&self, args: &[&str]) -> tokio::process::Command {
        self.command(args).into()
    }
}

/// A Python function of 12 `if` branches, each running `then` (with `{i}` for the branch's
/// number): past the analysis layer's hot-spot floor, so tests can name a known hot spot.
pub fn branchy_python(header: &str, name: &str, then: &str) -> String {
    let mut out = format!("{header}def {name}(x):\n");
    for i in 0..12 {
        out.push_str(&format!(
            "    if x == {i}:\n        {}\n",
            then.replace("{i}", &i.to_string())
        ));
    }
    out.push_str("    return x\n");
    out
}

/// A docstring saying a question's words once (`app/cache.py`), and two dozen helpers named
/// by three of them and repeating them (`app/versions/`): what a sum of BM25 scores puts
/// first, so a test can show the chunk saying all the words found past them.
pub fn docstring_and_word_repeaters(fx: &Fixture) {
    fx.write(
        "app/cache.py",
        "class FetchFromCache:\n    def process_request(self, request):\n        \"\"\"Check \
         whether the page is already cached and return the cached version if\n        \
         available.\"\"\"\n        return None\n",
    );
    for i in 0..24 {
        let word = ["whether", "already", "cached", "available", "returning"][i % 5];
        fx.write(
            &format!("app/versions/v{i:02}.py"),
            &format!(
                "def {word}_page_version_{i}(page):\n    \"\"\"Return the {word} page \
                 version.\"\"\"\n    version = page.version  # {word} {word} {word}\n    \
                 return version or page.{word}_{i}\n"
            ),
        );
    }
}

/// The edit the team and memory fixtures' `src/lib.rs` takes (its answer 42 becomes 43),
/// applied at once.
pub fn answer_edit() -> serde_json::Value {
    serde_json::json!({
        "intent": "answer counts from one",
        "edits": [{ "filePath": "src/lib.rs", "targetString": "    42\n", "replacementString": "    43\n" }],
        "options": { "dryRun": false },
    })
}

pub fn cache_home() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("xdg-cache")
}

/// The structured content of a successful call (panics with the text on isError).
pub fn structured(result: &rmcp::model::CallToolResult) -> serde_json::Value {
    assert_ne!(
        result.is_error,
        Some(true),
        "tool failed: {:?}",
        result.content
    );
    result
        .structured_content
        .clone()
        .expect("structuredContent")
}

/// The text of a result's first content block.
pub fn text(result: &rmcp::model::CallToolResult) -> String {
    result
        .content
        .first()
        .and_then(|c| c.as_text())
        .map(|t| t.text.clone())
        .unwrap_or_default()
}

pub fn args(value: serde_json::Value) -> serde_json::Map<String, serde_json::Value> {
    value.as_object().cloned().expect("arguments are an object")
}

/// An rmcp client session with the binary.
pub type Client = rmcp::service::RunningService<rmcp::RoleClient, ()>;

/// Starts `smart-context serve` on the fixture, completes the MCP handshake over stdio and
/// waits for the first indexing pass, so searches see the whole fixture.
pub async fn connect(fx: &Fixture) -> Client {
    let transport = TokioChildProcess::new(fx.tokio_command(&["serve"])).unwrap();
    let client = ().serve(transport).await.expect("MCP handshake");
    wait_indexed(&client).await;
    client
}

/// Starts a server without waiting for its index: a second server on a root finds the index
/// taken and answers from it read-only, so it never reports a pass of its own.
pub async fn connect_second(fx: &Fixture) -> Client {
    let transport = TokioChildProcess::new(fx.tokio_command(&["serve"])).unwrap();
    ().serve(transport).await.expect("MCP handshake")
}

/// Like [`connect`], with extra environment variables for the server (the ADR-038 knobs).
pub async fn connect_with_env(fx: &Fixture, env: &[(&str, &str)]) -> Client {
    let mut command = fx.command(&["serve"]);
    for (name, value) in env {
        command.env(name, value);
    }
    let transport = TokioChildProcess::new(tokio::process::Command::from(command)).unwrap();
    let client = ().serve(transport).await.expect("MCP handshake");
    wait_indexed(&client).await;
    client
}

/// Spawns `command` (a `serve --http` on port 0) and returns it with its endpoint URL, read
/// from the `listening on` log line; stderr is drained from then on so the server never blocks
/// on a full pipe.
pub fn serve_http(mut command: std::process::Command) -> (std::process::Child, String) {
    use std::io::{BufRead, BufReader};
    let mut child = command
        .env("SMART_CONTEXT_LOG", "info")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let mut seen = Vec::new();
    let url = loop {
        let Some(line) = lines.next() else {
            panic!("server exited before listening:\n{}", seen.join("\n"));
        };
        let line = line.unwrap();
        if let Some(at) = line.find("listening on ") {
            break line[at + "listening on ".len()..].trim().to_string();
        }
        seen.push(line);
    };
    std::thread::spawn(move || lines.for_each(drop));
    (child, url)
}

/// Polls manage status until the server's first indexing pass has finished.
pub async fn wait_indexed(client: &Client) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    loop {
        let result = call(client, "manage", serde_json::json!({ "command": "status" })).await;
        // With few instance slots (the sandbox tests), the pass's document parses can hold
        // them all for a moment: BUSY is the documented "retry shortly".
        if result.is_error == Some(true) && text(&result).starts_with("BUSY") {
            assert!(
                std::time::Instant::now() < deadline,
                "the server stayed BUSY"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
            continue;
        }
        let status = structured(&result);
        let index = &status["result"]["index"];
        if index["state"] == "fresh" && index["lastIndexedMs"].as_u64().unwrap_or(0) > 0 {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the index never became fresh: {index}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
}

/// tools/call with JSON object arguments, through any client (a test's own handler too).
pub async fn call<S: rmcp::service::Service<rmcp::RoleClient>>(
    client: &rmcp::service::RunningService<rmcp::RoleClient, S>,
    tool: &str,
    arguments: serde_json::Value,
) -> CallToolResult {
    client
        .call_tool(CallToolRequestParams::new(tool.to_string()).with_arguments(args(arguments)))
        .await
        .expect("tools/call")
}

/// explore's envelope status and code for reading `path` with extra arguments.
pub async fn explore_status(
    client: &Client,
    path: &str,
    extra: serde_json::Value,
) -> (String, String) {
    let mut arguments = serde_json::json!({ "paths": [path] });
    arguments
        .as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    let s = envelope(&call(client, "explore", arguments).await);
    (
        s["status"].as_str().unwrap().to_string(),
        s["code"].as_str().unwrap_or("").to_string(),
    )
}

/// The structured content of any call, success or failure, after checking the one rule
/// that ties the two together: `isError` is true exactly when `success` is false.
pub fn envelope(result: &rmcp::model::CallToolResult) -> serde_json::Value {
    let s = result
        .structured_content
        .clone()
        .unwrap_or_else(|| panic!("no structured content: {}", text(result)));
    assert_eq!(
        result.is_error == Some(true),
        s["success"] == false,
        "isError and success disagree: {s}"
    );
    s
}

/// The structured error of a call that must fail.
pub async fn fails(client: &Client, tool: &str, args: serde_json::Value) -> serde_json::Value {
    let result = call(client, tool, args).await;
    assert_eq!(
        result.is_error,
        Some(true),
        "expected an error: {}",
        text(&result)
    );
    result.structured_content.expect("structured error")
}

/// A venv with tests/python/requirements.txt installed (the MCP Python SDK, pytest), created
/// once per target dir; its python.
pub fn python_with_requirements() -> PathBuf {
    let venv = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("py-venv");
    let python = venv.join("bin/python");
    let requirements =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/python/requirements.txt");
    let ready = venv.join(".requirements");
    let wanted = std::fs::read_to_string(&requirements).unwrap();
    if std::fs::read_to_string(&ready).ok().as_deref() == Some(wanted.as_str()) && python.exists() {
        return python;
    }
    let status = std::process::Command::new("python3")
        .arg("-m")
        .arg("venv")
        .arg(&venv)
        .status()
        .expect("python3 is needed for this test");
    assert!(status.success(), "python3 -m venv failed");
    let status = std::process::Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "-r",
        ])
        .arg(&requirements)
        .status()
        .unwrap();
    assert!(
        status.success(),
        "pip install -r {} failed",
        requirements.display()
    );
    std::fs::write(&ready, wanted).unwrap();
    python
}

/// Runs a command that prints a JSON report (`plugin check`, `plugins --json`): whether it
/// succeeded, and the report (stderr in the panic when stdout is not JSON).
pub fn json_report(command: &mut std::process::Command) -> (bool, serde_json::Value) {
    let out = command.output().unwrap();
    let report = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    (out.status.success(), report)
}

/// The entry of plugin `name` in a `plugins --json` report.
pub fn listed_plugin<'r>(report: &'r serde_json::Value, name: &str) -> &'r serde_json::Value {
    report["plugins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name} not loaded: {report}"))
}
