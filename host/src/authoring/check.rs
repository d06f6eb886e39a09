//! `smart-context plugin check FILE`: one component run alone, as the server would run it
//! (the operator's limits, WASI that grants nothing, the host's interfaces), granted what it
//! imports that only reads (`edits` and `tasks` only when asked for with `--grant`: a check
//! must not change the project or run its commands unasked), with no other third-party
//! plugin beside it. The report says what it imports, the
//! grants that needs, how long compiling and describing took, and the result of one call (a
//! parse of `--input`, or a tool call with `--args`) or why it failed, so an author tests a
//! plugin without a client or a harness of their own.

use crate::app::{self, OpenOptions};
use crate::runtime::plugins::Interface;
use crate::runtime::{header, plugins};
use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What to run the component on.
#[derive(Debug, Clone, Default)]
pub struct CheckRequest {
    pub component: PathBuf,
    /// A file for a parser to parse.
    pub input: Option<PathBuf>,
    /// JSON arguments for a tool's call.
    pub args: Option<String>,
    /// Grants beyond the read-only ones it imports (`edits`, `tasks`).
    pub grants: Vec<String>,
}

/// What a check grants without being asked: everything but changing files and running jobs.
fn granted_by_default(interface: Interface) -> bool {
    !matches!(interface, Interface::Edits | Interface::Tasks)
}

/// The report, and whether everything asked for worked.
pub fn check(base: &OpenOptions, scratch: &Path, request: &CheckRequest) -> Result<(Value, bool)> {
    let path = &request.component;
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .with_context(|| format!("{} has no file name to load it by", path.display()))?
        .to_string();
    let mut report = json!({
        "file": path.display().to_string(),
        "name": name,
        "sha256": crate::config::sha256_hex(&bytes),
        "bytes": bytes.len(),
    });
    let header = match header::read(&bytes) {
        Ok(header) => header,
        Err(reason) => return Ok((refused(report, reason), false)),
    };
    report["imports"] = json!(header.imports);
    let (world, imports) = match plugins::classify(&header.imports, &header.exports) {
        Ok(found) => found,
        Err(reason) => return Ok((refused(report, reason), false)),
    };
    let needed: Vec<String> = imports.iter().map(|i| i.name().to_string()).collect();
    let extra = plugins::parse_grants(&request.grants).map_err(anyhow::Error::msg)?;
    let grants: Vec<String> = imports
        .iter()
        .filter(|i| granted_by_default(**i) || extra.contains(i))
        .map(|i| i.name().to_string())
        .collect();
    report["world"] = json!(world.name());
    report["grantsNeeded"] = json!(needed);
    report["granted"] = json!(grants);
    if world.is_tool() && request.input.is_some() {
        bail!("{name} is a tool: give it --args JSON, not --input");
    }
    if !world.is_tool() && request.args.is_some() {
        bail!("{name} is a parser: give it --input FILE, not --args");
    }

    // The component alone in a directory of its own, under the name it would load by.
    let dir = scratch.join("plugin");
    std::fs::create_dir_all(&dir)?;
    std::fs::copy(path, dir.join(format!("{name}.wasm")))?;
    let options = OpenOptions {
        state_dir: Some(scratch.join("state")),
        only_plugin: Some((dir, name.clone(), grants)),
        ..base.clone()
    };
    let started = Instant::now();
    let runtime = app::open(&options)?;
    runtime.compile_all();
    report["openMs"] = json!(ms(started));
    if let Some(rejected) = runtime.rejected().into_iter().find(|r| r.name == name) {
        return Ok((refused(report, rejected.reason), false));
    }
    let Some(info) = runtime
        .plugins()
        .into_iter()
        .find(|p| p.name == name && !p.source.starts_with("builtin"))
    else {
        bail!("{name} did not load, and no reason was given");
    };
    report["load"] = json!({ "origin": info.load, "ms": (info.load_ms * 10.0).round() / 10.0 });
    report["denied"] = json!(info.denied);
    let mut ok = true;
    if let Some(tool) = info.tool.as_deref() {
        if let Some(described) = runtime.tools().into_iter().find(|t| t.name == tool) {
            report["describe"] = json!({
                "tool": tool,
                "title": described.spec.title,
                "description": described.spec.description,
                "inputSchema": serde_json::from_str::<Value>(&described.spec.input_schema).unwrap_or(Value::Null),
                "readOnly": described.spec.read_only,
            });
        }
        if let Some(args) = &request.args {
            let index = runtime.services().index.clone();
            if !index.is_read_only() {
                index.update(false, None)?;
            }
            let started = Instant::now();
            let outcome = runtime.call_tool(tool, args);
            let call_ms = ms(started);
            report["call"] = match outcome {
                Ok(output) => {
                    ok = !output.is_failure();
                    json!({ "ms": call_ms, "result": output.structured })
                }
                Err(err) => {
                    ok = false;
                    json!({ "ms": call_ms, "error": error_json(&err) })
                }
            };
        }
    } else if info.world == "code-parser" {
        report["describe"] = json!({
            "languages": info.languages,
            "extensions": info.extensions,
        });
        if let Some(input) = &request.input {
            let (file_name, content) = read_input(input)?;
            let started = Instant::now();
            let (outcome, peak) = runtime.parse_code_with(&name, &file_name, &content);
            let call_ms = ms(started);
            report["call"] = match outcome {
                Ok((language, x)) => json!({
                    "ms": call_ms,
                    "peakMemoryBytes": peak,
                    "structure": {
                        "language": language,
                        "definitions": x.symbols.len(),
                        "outline": x.symbols.iter().take(20).map(|d| format!(
                            "{}:{} {} {}",
                            d.start_line,
                            d.end_line,
                            d.kind,
                            sdk_qualified(&d.name, d.container.as_deref())
                        )).collect::<Vec<_>>(),
                        "imports": x.imports.iter().take(20).map(|i| i.name.clone()).collect::<Vec<_>>(),
                        "calls": x.calls.len(),
                    },
                }),
                Err(err) => {
                    ok = false;
                    json!({ "ms": call_ms, "peakMemoryBytes": peak, "error": error_json(&err) })
                }
            };
        }
    } else {
        report["describe"] = json!({
            "format": info.format,
            "extensions": info.extensions,
            "textFallback": info.text_fallback,
        });
        if let Some(input) = &request.input {
            let (file_name, content) = read_input(input)?;
            let started = Instant::now();
            let (outcome, peak) = runtime.parse_with(&name, &file_name, &content);
            let call_ms = ms(started);
            report["call"] = match outcome {
                Ok(document) => json!({
                    "ms": call_ms,
                    "peakMemoryBytes": peak,
                    "document": {
                        "title": document.title,
                        "kind": document.kind,
                        "sections": document.sections.len(),
                        "headings": document.sections.iter().take(20).map(|s| s.heading_path.join(" > ")).collect::<Vec<_>>(),
                        "links": document.links.len(),
                        "metadata": document.metadata,
                        "warnings": document.warnings,
                    },
                }),
                Err(err) => {
                    ok = false;
                    json!({ "ms": call_ms, "peakMemoryBytes": peak, "error": error_json(&err) })
                }
            };
        }
    }
    Ok((report, ok))
}

/// `--input`'s file name (what a parser routes by) and bytes.
fn read_input(input: &Path) -> Result<(String, Vec<u8>)> {
    let content = std::fs::read(input).with_context(|| format!("reading {}", input.display()))?;
    let file_name = input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok((file_name, content))
}

/// `Container.name`, as understand and explore name a definition.
fn sdk_qualified(name: &str, container: Option<&str>) -> String {
    match container {
        Some(c) => format!("{c}.{name}"),
        None => name.to_string(),
    }
}

fn error_json(err: &crate::error::HostError) -> Value {
    json!({ "code": err.code, "message": err.message, "suggestion": err.suggestion, "details": err.details })
}

fn refused(mut report: Value, reason: String) -> Value {
    report["refused"] = json!(reason);
    report
}

fn ms(started: Instant) -> f64 {
    (started.elapsed().as_secs_f64() * 10_000.0).round() / 10.0
}
