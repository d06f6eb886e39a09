//! Test fixture: a third-party pillar as a toolchain's default output makes it, importing
//! WASI filesystem and sockets (Rust's std does for `std::fs` and `std::net`), that tries
//! them: files outside and inside the root, writing, the environment, a TCP connection to the
//! port in its arguments and a name lookup. The host links WASI to a context that grants
//! nothing, so each attempt must fail; the answer says how each one went. It also calls the
//! host's workspace and memory, which a test grants it none of: both answer ACCESS_DENIED.

wit_bindgen::generate!({
    path: "../../../wit",
    world: "pillar",
});

use exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
use smart_context::plugin::types::Error;
use std::io::Write;
use std::net::ToSocketAddrs;

struct Probe;

/// `ok: ...` when the attempt got through, `err: ...` when it was refused.
fn outcome<T: std::fmt::Debug, E: std::fmt::Display>(r: Result<T, E>) -> String {
    match r {
        Ok(v) => format!("ok: {v:?}").replace('"', "'"),
        Err(e) => format!("err: {e}").replace('"', "'"),
    }
}

/// A host call's outcome: `ok: ...`, or `err: CODE: message`.
fn host_outcome<T: std::fmt::Debug>(r: Result<T, Error>) -> String {
    outcome(r.map_err(|e| format!("{}: {}", e.code, e.message)))
}

impl Guest for Probe {
    fn describe() -> ToolSpec {
        ToolSpec {
            name: "probe".into(),
            title: "probe".into(),
            description: "tries WASI files, environment and network, and says how each went".into(),
            input_schema: r#"{"type":"object","properties":{"port":{"type":"integer"}}}"#.into(),
            output_schema: None,
            read_only: true,
            destructive: false,
            idempotent: true,
        }
    }

    fn call(args: String) -> Result<ToolOutput, Error> {
        // The fixture avoids a JSON dependency: the port is the number after "port":.
        let port: u16 = args
            .split("\"port\":")
            .nth(1)
            .map(|rest| {
                rest.trim_start()
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
            })
            .and_then(|n| n.parse().ok())
            .unwrap_or(9);
        let attempts = [
            (
                "readRootDir",
                outcome(std::fs::read_dir("/").map(|d| d.count())),
            ),
            (
                "readPasswd",
                outcome(std::fs::read_to_string("/etc/passwd").map(|t| t.len())),
            ),
            (
                "readRelative",
                outcome(std::fs::read_to_string("secret.txt").map(|t| t.len())),
            ),
            ("cwd", outcome(std::env::current_dir())),
            (
                "write",
                outcome(
                    std::fs::File::create("probe-wrote.txt").and_then(|mut f| f.write_all(b"x")),
                ),
            ),
            (
                "writeTmp",
                outcome(std::fs::write("/tmp/smart-context-probe-wrote", "x")),
            ),
            (
                "env",
                outcome(Ok::<_, String>(std::env::vars().count()).and_then(|n| {
                    if n == 0 {
                        Err("no variables".to_string())
                    } else {
                        Ok(n)
                    }
                })),
            ),
            (
                "connect",
                outcome(std::net::TcpStream::connect(("127.0.0.1", port)).map(|_| "connected")),
            ),
            (
                "lookup",
                outcome(("localhost", port).to_socket_addrs().map(|a| a.count())),
            ),
            (
                "workspaceRead",
                host_outcome(
                    smart_context::plugin::workspace::read(
                        "secret.txt",
                        smart_context::plugin::workspace::ReadOptions {
                            max_bytes: 1 << 20,
                            allow_sensitive: false,
                            allow_binary: false,
                            allow_truncate: false,
                        },
                    )
                    .map(|f| f.bytes.len()),
                ),
            ),
            (
                "memorySearch",
                host_outcome(
                    smart_context::plugin::memory::search(
                        "anything",
                        &smart_context::plugin::memory::SearchOptions {
                            top_k: 1,
                            min_score: 0.0,
                            kinds: Vec::new(),
                            session_id: None,
                            since_ms: None,
                        },
                    )
                    .map(|r| r.items.len()),
                ),
            ),
        ];
        let fields: Vec<String> = attempts
            .iter()
            .map(|(k, v)| format!("\"{k}\":\"{v}\""))
            .collect();
        let json = format!("{{{}}}", fields.join(","));
        Ok(ToolOutput {
            structured_json: json.clone(),
            text: json,
        })
    }
}

export!(Probe);
