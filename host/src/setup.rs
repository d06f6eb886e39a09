//! `smart-context setup <client>`: the configuration an MCP client needs to start this server
//! (stdio) or reach it (HTTP with a bearer token from an environment variable), printed, or
//! merged into the client's config file with `--write`. An existing entry of another shape is
//! never overwritten without `--force`; other servers in the file are kept as they are.

use anyhow::{Context, Result, bail};
use jsonc_parser::ParseOptions;
use jsonc_parser::cst::{CstInputValue, CstRootNode};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The name the server is registered under in every client.
pub const SERVER_NAME: &str = "smart-context";
/// Where HTTP clients take the bearer token from.
pub const TOKEN_ENV: &str = "SMART_CONTEXT_HTTP_TOKEN";

/// The clients `setup` knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Client {
    /// Claude Code (project .mcp.json; or `claude mcp add`)
    ClaudeCode,
    /// Claude Desktop (claude_desktop_config.json)
    ClaudeDesktop,
    /// Cursor (project .cursor/mcp.json)
    Cursor,
    /// VS Code (project .vscode/mcp.json)
    Vscode,
    /// Codex CLI (project .codex/config.toml, read in trusted projects)
    Codex,
    /// Gemini CLI (project .gemini/settings.json)
    Gemini,
}

impl Client {
    /// The client's hooks the session memory can record prompts and responses from
    /// (`smart-context memory hooks <client>` prints them), if it has any.
    pub fn memory_hooks(self) -> Option<crate::memory::hook::HookClient> {
        use crate::memory::hook::HookClient;
        match self {
            Client::ClaudeCode => Some(HookClient::ClaudeCode),
            Client::Cursor => Some(HookClient::Cursor),
            Client::Codex => Some(HookClient::Codex),
            Client::Gemini => Some(HookClient::GeminiCli),
            Client::ClaudeDesktop | Client::Vscode => None,
        }
    }
}

/// How the client reaches the server.
#[derive(Debug, Clone)]
pub enum Transport {
    /// The client starts `binary --root ROOT [--root ROOT...] serve`: one entry serving
    /// every root given.
    Stdio {
        binary: PathBuf,
        roots: Vec<PathBuf>,
    },
    /// The client connects to a running `serve --http` at this URL.
    Http { url: String },
}

/// What to write where.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub file: PathBuf,
    pub entry: Entry,
    /// A shell command that does the same, when the client has one.
    pub command: Option<String>,
    pub note: Option<String>,
}

/// The server's entry, in the file's format.
#[derive(Debug, Clone, PartialEq)]
pub enum Entry {
    /// `{"<key>": {"smart-context": <value>}}` in a JSON file.
    Json { key: &'static str, value: Value },
    /// A `[mcp_servers.smart-context]` table in a TOML file.
    Toml(String),
}

/// `--root A [--root B ...] serve`: what a client runs.
fn server_args(roots: &[PathBuf]) -> Vec<String> {
    let mut args = Vec::new();
    for root in roots {
        args.push("--root".to_string());
        args.push(root.display().to_string());
    }
    args.push("serve".to_string());
    args
}

/// The plan for `client`; `home` is the user's home directory, `root` the project (the first
/// root, where a project-level entry is written). An HTTP
/// URL that is not `http(s)://host...` is refused before anything is planned.
/// `tool_timeout_secs` is how long a client that has a per-call timeout should wait (longer
/// than the slowest call, a test run).
pub fn plan(
    client: Client,
    transport: &Transport,
    root: &Path,
    home: &Path,
    tool_timeout_secs: u64,
) -> Result<Plan> {
    if let Transport::Http { url } = transport {
        check_url(url)?;
    }
    let stdio = |extra: Option<(&str, Value)>| -> Value {
        let Transport::Stdio { binary, roots } = transport else {
            unreachable!("called for stdio only")
        };
        let mut v = json!({
            "command": binary.display().to_string(),
            "args": server_args(roots),
        });
        if let Some((k, x)) = extra {
            v[k] = x;
        }
        v
    };
    let bearer = format!("Bearer ${{{TOKEN_ENV}}}");
    let plan = match (client, transport) {
        (Client::ClaudeCode, Transport::Stdio { binary, roots }) => Plan {
            file: root.join(".mcp.json"),
            entry: Entry::Json {
                key: "mcpServers",
                value: stdio(None),
            },
            command: Some(format!(
                "claude mcp add --scope project {SERVER_NAME} -- {} {}",
                shell(&binary.display().to_string()),
                server_args(roots)
                    .iter()
                    .map(|a| shell(a))
                    .collect::<Vec<_>>()
                    .join(" ")
            )),
            note: None,
        },
        (Client::ClaudeCode, Transport::Http { url }) => Plan {
            file: root.join(".mcp.json"),
            entry: Entry::Json {
                key: "mcpServers",
                value: json!({ "type": "http", "url": url, "headers": { "Authorization": bearer } }),
            },
            // Single quotes: the shell must not expand the token into the stored command;
            // Claude Code expands `${VAR}` in .mcp.json when it connects.
            command: Some(format!(
                "claude mcp add --scope project --transport http {SERVER_NAME} {} --header 'Authorization: Bearer ${{{TOKEN_ENV}}}'",
                shell(url)
            )),
            note: Some(format!("export {TOKEN_ENV} before starting Claude Code")),
        },
        (Client::ClaudeDesktop, Transport::Stdio { .. }) => Plan {
            file: claude_desktop_config(home),
            entry: Entry::Json {
                key: "mcpServers",
                value: stdio(None),
            },
            command: None,
            note: Some("restart Claude Desktop to load it".into()),
        },
        (Client::ClaudeDesktop, Transport::Http { .. }) => bail!(
            "Claude Desktop starts local servers only: use stdio (drop --http), or add the HTTP server as a custom connector in its settings"
        ),
        (Client::Cursor, Transport::Stdio { .. }) => Plan {
            file: root.join(".cursor/mcp.json"),
            entry: Entry::Json {
                key: "mcpServers",
                value: stdio(None),
            },
            command: None,
            note: None,
        },
        (Client::Cursor, Transport::Http { url }) => Plan {
            file: root.join(".cursor/mcp.json"),
            // Cursor interpolates `${env:NAME}`, not `${NAME}` (which it would send as is).
            entry: Entry::Json {
                key: "mcpServers",
                value: json!({ "url": url, "headers": { "Authorization": format!("Bearer ${{env:{TOKEN_ENV}}}") } }),
            },
            command: None,
            note: Some(format!("Cursor reads {TOKEN_ENV} from its environment")),
        },
        (Client::Vscode, Transport::Stdio { .. }) => Plan {
            file: root.join(".vscode/mcp.json"),
            entry: Entry::Json {
                key: "servers",
                value: stdio(Some(("type", "stdio".into()))),
            },
            command: None,
            note: None,
        },
        (Client::Vscode, Transport::Http { url }) => Plan {
            file: root.join(".vscode/mcp.json"),
            entry: Entry::Json {
                key: "servers",
                value: json!({ "type": "http", "url": url, "headers": { "Authorization": format!("Bearer ${{env:{TOKEN_ENV}}}") } }),
            },
            command: None,
            note: None,
        },
        (Client::Codex, transport) => {
            // Codex waits 60 s for a tool call unless told otherwise: shorter than a test run.
            let table = match transport {
                Transport::Stdio { binary, roots } => format!(
                    "[mcp_servers.{SERVER_NAME}]\ncommand = {}\nargs = [{}]\ntool_timeout_sec = {tool_timeout_secs}\n",
                    toml_string(&binary.display().to_string()),
                    server_args(roots)
                        .iter()
                        .map(|a| toml_string(a))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                Transport::Http { url } => format!(
                    "[mcp_servers.{SERVER_NAME}]\nurl = {}\nbearer_token_env_var = \"{TOKEN_ENV}\"\ntool_timeout_sec = {tool_timeout_secs}\n",
                    toml_string(url)
                ),
            };
            Plan {
                file: root.join(".codex/config.toml"),
                entry: Entry::Toml(table),
                command: None,
                note: Some(
                    "Codex reads a project's .codex/config.toml once the project is trusted (it asks on first start)"
                        .into(),
                ),
            }
        }
        (Client::Gemini, Transport::Stdio { .. }) => Plan {
            file: root.join(".gemini/settings.json"),
            entry: Entry::Json {
                key: "mcpServers",
                value: stdio(Some((
                    "timeout",
                    tool_timeout_secs.saturating_mul(1000).into(),
                ))),
            },
            command: None,
            note: None,
        },
        (Client::Gemini, Transport::Http { url }) => Plan {
            file: root.join(".gemini/settings.json"),
            entry: Entry::Json {
                key: "mcpServers",
                value: json!({ "httpUrl": url, "headers": { "Authorization": bearer }, "timeout": tool_timeout_secs.saturating_mul(1000) }),
            },
            command: None,
            note: Some(format!(
                "Gemini CLI expands ${TOKEN_ENV} from its environment"
            )),
        },
    };
    Ok(plan)
}

impl Plan {
    /// The snippet to paste, in the file's format.
    pub fn snippet(&self) -> String {
        match &self.entry {
            Entry::Json { key, value } => {
                let doc = json!({ *key: { SERVER_NAME: value } });
                serde_json::to_string_pretty(&doc).unwrap_or_default()
            }
            Entry::Toml(table) => table.clone(),
        }
    }

    /// Merges the entry into the file. Ok(false) when it was already there as it is.
    pub fn write(&self, force: bool) -> Result<bool> {
        let existing = match std::fs::read_to_string(&self.file) {
            Ok(text) => Some(text),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("reading {}", self.file.display())),
        };
        let updated = match &self.entry {
            Entry::Json { key, value } => merge_json(existing.as_deref(), key, value, force)
                .with_context(|| format!("in {}", self.file.display()))?,
            Entry::Toml(table) => merge_toml(existing.as_deref(), table, force)
                .with_context(|| format!("in {}", self.file.display()))?,
        };
        let Some(text) = updated else {
            return Ok(false);
        };
        if let Some(dir) = self.file.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let tmp = self.file.with_extension("smart-context-tmp");
        std::fs::write(&tmp, text).with_context(|| format!("writing {}", tmp.display()))?;
        std::fs::rename(&tmp, &self.file)
            .with_context(|| format!("replacing {}", self.file.display()))?;
        Ok(true)
    }
}

/// The JSON file with the entry added; None when it is already there unchanged. The file may
/// be JSONC (comments, trailing commas: VS Code's and Gemini CLI's files are): it is edited in
/// place, so everything else in it stays as the user wrote it.
fn merge_json(
    existing: Option<&str>,
    key: &str,
    value: &Value,
    force: bool,
) -> Result<Option<String>> {
    let Some(text) = existing.filter(|t| !t.trim().is_empty()) else {
        let doc = json!({ key: { SERVER_NAME: value } });
        return Ok(Some(serde_json::to_string_pretty(&doc)? + "\n"));
    };
    let root = CstRootNode::parse(text, &jsonc_options())
        .map_err(|e| anyhow::anyhow!("the file is not valid JSON ({e}); fix it by hand"))?;
    let Some(doc) = root.object_value() else {
        bail!("the file is not a JSON object; fix it by hand");
    };
    let Some(servers) = doc.object_value_or_create(key) else {
        bail!("`{key}` is not an object; fix it by hand");
    };
    match servers.get(SERVER_NAME) {
        Some(prop) => {
            let current = prop.value().and_then(|v| v.to_serde_value());
            if current.as_ref() == Some(value) {
                return Ok(None);
            }
            if !force {
                bail!(
                    "an entry {SERVER_NAME:?} is already there and differs:\n{}\nrerun with --force to replace it",
                    serde_json::to_string_pretty(&current).unwrap_or_default()
                );
            }
            prop.set_value(cst_value(value));
        }
        None => {
            servers.append(SERVER_NAME, cst_value(value));
        }
    }
    let mut out = root.to_string();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    Ok(Some(out))
}

/// JSON with what the clients' JSONC adds (comments, trailing commas) and nothing more: a file
/// with JSON5's extras (single quotes, missing commas, hex numbers) is broken for most clients,
/// so it is refused rather than edited.
fn jsonc_options() -> ParseOptions {
    ParseOptions {
        allow_comments: true,
        allow_trailing_commas: true,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// A JSON value as the JSONC editor takes it.
fn cst_value(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(cst_value).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), cst_value(v))).collect())
        }
    }
}

/// The TOML file with the table appended or, with `force`, put in the place of ours (the
/// file's other text and comments kept as they are); None when it is already there unchanged.
fn merge_toml(existing: Option<&str>, table: &str, force: bool) -> Result<Option<String>> {
    let text = existing.unwrap_or("");
    let parsed: toml::Table = text
        .parse()
        .context("the file is not valid TOML; fix it by hand")?;
    let wanted: toml::Table = table.parse().expect("our table is TOML");
    let current = parsed.get("mcp_servers").and_then(|s| s.get(SERVER_NAME));
    let new = &wanted["mcp_servers"][SERVER_NAME];
    match current {
        Some(current) if same_entry(current, new) => Ok(None),
        Some(_) if !force => bail!(
            "a [mcp_servers.{SERVER_NAME}] table is already there and differs; edit it by hand, or rerun with --force to replace it"
        ),
        Some(current) => {
            // The user's sub-tables under our entry (`env`, inline or not) must survive.
            let theirs: Vec<String> = current
                .as_table()
                .map(|t| {
                    t.iter()
                        .filter(|(k, v)| v.is_table() && new.get(k.as_str()).is_none())
                        .map(|(k, _)| k.clone())
                        .collect()
                })
                .unwrap_or_default();
            let replaced = replace_toml_table(text, table).with_context(|| {
                format!("[mcp_servers.{SERVER_NAME}] is not written as a table of its own; edit it by hand")
            })?;
            let check: toml::Table = replaced.parse().context("replacing our table")?;
            let entry = check.get("mcp_servers").and_then(|s| s.get(SERVER_NAME));
            anyhow::ensure!(
                entry.is_some_and(|c| same_entry(c, new))
                    && theirs
                        .iter()
                        .all(|k| entry.and_then(|c| c.get(k.as_str())) == current.get(k.as_str())),
                "[mcp_servers.{SERVER_NAME}] is spread over the file or holds settings of yours inline; edit it by hand"
            );
            Ok(Some(replaced))
        }
        None => {
            let mut out = text.to_string();
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(table);
            Ok(Some(out))
        }
    }
}

/// Whether the file's entry is ours as planned; sub-tables the user added (`.env`) are theirs.
fn same_entry(current: &toml::Value, ours: &toml::Value) -> bool {
    match (current.as_table(), ours.as_table()) {
        (Some(current), Some(ours)) => {
            let mut kept = current.clone();
            kept.retain(|k, v| ours.contains_key(k) || !v.is_table());
            kept == *ours
        }
        _ => current == ours,
    }
}

/// `text` with the lines of our `[mcp_servers.smart-context]` table (its header up to the next
/// header) replaced by `table`; sub-tables such as `.env` and everything else stay.
fn replace_toml_table(text: &str, table: &str) -> Option<String> {
    let is_ours = |line: &str| {
        let header: String = line
            .split('#')
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        header == format!("[mcp_servers.{SERVER_NAME}]")
            || header == format!("[mcp_servers.\"{SERVER_NAME}\"]")
    };
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let start = lines.iter().position(|l| is_ours(l))?;
    let mut end = lines[start + 1..]
        .iter()
        .position(|l| l.trim_start().starts_with('['))
        .map_or(lines.len(), |i| start + 1 + i);
    // Comments right above the next header are that table's.
    while end > start + 1 && {
        let l = lines[end - 1].trim();
        l.is_empty() || l.starts_with('#')
    } {
        end -= 1;
    }
    let mut out: String = lines[..start].concat();
    out.push_str(table);
    if end < lines.len() {
        out.push('\n');
    }
    out.push_str(&lines[end..].concat());
    Some(out)
}

fn claude_desktop_config(home: &Path) -> PathBuf {
    if cfg!(target_os = "macos") {
        home.join("Library/Application Support/Claude/claude_desktop_config.json")
    } else {
        std::env::var_os("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| home.join(".config"))
            .join("Claude/claude_desktop_config.json")
    }
}

fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// `s` quoted for a POSIX shell when it needs to be.
fn shell(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:@".contains(c))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// An `http://` or `https://` URL with a host and no spaces: what `serve --http` prints.
fn check_url(url: &str) -> Result<()> {
    let rest = url
        .strip_prefix("http://")
        .or_else(|| url.strip_prefix("https://"));
    let host = rest.map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
    if host.is_none_or(|h| h.is_empty() || h.starts_with(':'))
        || url.chars().any(|c| c.is_whitespace() || c.is_control())
    {
        anyhow::bail!(
            "--http {url:?} is not a URL the client can reach: give the one `smart-context serve --http ADDR` prints, such as http://127.0.0.1:8765/mcp"
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `client`'s HTTP plan, writing to `file`.
    fn http_plan(client: Client, file: &Path) -> Plan {
        let http = Transport::Http {
            url: "http://127.0.0.1:9/mcp".into(),
        };
        Plan {
            file: file.to_path_buf(),
            ..plan(client, &http, Path::new("/p"), Path::new("/h"), 660).unwrap()
        }
    }

    fn stdio() -> Transport {
        Transport::Stdio {
            binary: "/usr/local/bin/smart-context".into(),
            roots: vec!["/work/my project".into()],
        }
    }

    #[test]
    fn every_client_gets_a_plan_for_stdio_and_all_but_desktop_for_http() {
        let (root, home) = (Path::new("/work/my project"), Path::new("/home/u"));
        let http = Transport::Http {
            url: "http://127.0.0.1:8765/mcp".into(),
        };
        for client in [
            Client::ClaudeCode,
            Client::ClaudeDesktop,
            Client::Cursor,
            Client::Vscode,
            Client::Codex,
            Client::Gemini,
        ] {
            let p = plan(client, &stdio(), root, home, 660).unwrap();
            assert!(
                p.snippet().contains("/usr/local/bin/smart-context"),
                "{client:?}"
            );
            assert!(p.snippet().contains("serve"), "{client:?}");
            match plan(client, &http, root, home, 660) {
                Ok(p) => assert!(
                    p.snippet().contains("127.0.0.1:8765") && p.snippet().contains(TOKEN_ENV),
                    "{client:?}: {}",
                    p.snippet()
                ),
                Err(e) => assert_eq!(client, Client::ClaudeDesktop, "{e}"),
            }
        }
        let code = plan(Client::ClaudeCode, &stdio(), root, home, 660).unwrap();
        assert_eq!(
            code.command.as_deref(),
            Some(
                "claude mcp add --scope project smart-context -- /usr/local/bin/smart-context --root '/work/my project' serve"
            )
        );
        assert_eq!(code.file, root.join(".mcp.json"));
    }

    #[test]
    fn one_entry_serves_every_root_given() {
        let (root, home) = (Path::new("/work/api"), Path::new("/home/u"));
        let both = Transport::Stdio {
            binary: "/usr/local/bin/smart-context".into(),
            roots: vec!["/work/api".into(), "/work/web app".into()],
        };
        let desktop = plan(Client::ClaudeDesktop, &both, root, home, 660).unwrap();
        let Entry::Json { value, .. } = &desktop.entry else {
            panic!("{desktop:?}")
        };
        assert_eq!(
            value["args"],
            json!(["--root", "/work/api", "--root", "/work/web app", "serve"])
        );
        let codex = plan(Client::Codex, &both, root, home, 660).unwrap();
        assert!(
            codex
                .snippet()
                .contains(r#"args = ["--root", "/work/api", "--root", "/work/web app", "serve"]"#),
            "{}",
            codex.snippet()
        );
        let code = plan(Client::ClaudeCode, &both, root, home, 660).unwrap();
        assert!(
            code.command
                .as_deref()
                .unwrap()
                .ends_with("--root /work/api --root '/work/web app' serve"),
            "{code:?}"
        );
        assert_eq!(code.file, root.join(".mcp.json"));
    }

    #[test]
    fn writing_merges_keeps_other_servers_and_never_silently_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = plan(Client::Cursor, &stdio(), dir.path(), dir.path(), 660).unwrap();
        p.file = dir.path().join("mcp.json");
        std::fs::write(
            &p.file,
            r#"{"mcpServers": {"other": {"command": "x"}}, "theme": 1}"#,
        )
        .unwrap();
        assert!(p.write(false).unwrap());
        assert!(!p.write(false).unwrap(), "a second run changes nothing");
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&p.file).unwrap()).unwrap();
        assert_eq!(doc["mcpServers"]["other"]["command"], "x");
        assert_eq!(doc["theme"], 1);
        assert_eq!(doc["mcpServers"][SERVER_NAME]["args"][2], "serve");
        // Another shape under our name: refused, the file untouched, unless forced.
        let before = std::fs::read_to_string(&p.file).unwrap();
        let other = plan(
            Client::Cursor,
            &Transport::Http {
                url: "http://127.0.0.1:1/mcp".into(),
            },
            dir.path(),
            dir.path(),
            660,
        )
        .unwrap();
        let other = Plan {
            file: p.file.clone(),
            ..other
        };
        let err = other.write(false).unwrap_err();
        assert!(format!("{err:#}").contains("--force"), "{err:#}");
        assert_eq!(std::fs::read_to_string(&p.file).unwrap(), before);
        assert!(other.write(true).unwrap());
        // A file that is not JSON is never replaced.
        std::fs::write(&p.file, "{\"mcpServers\": [").unwrap();
        assert!(p.write(false).is_err());
        assert_eq!(
            std::fs::read_to_string(&p.file).unwrap(),
            "{\"mcpServers\": ["
        );
    }

    #[test]
    fn jsonc_files_are_edited_in_place_with_their_comments_and_trailing_commas() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = plan(Client::Vscode, &stdio(), dir.path(), dir.path(), 660).unwrap();
        p.file = dir.path().join("mcp.json");
        let original = "// my servers\n{\n  \"servers\": {\n    /* keep me */\n    \"other\": { \"command\": \"x\", },\n  },\n  \"inputs\": [],\n}\n";
        std::fs::write(&p.file, original).unwrap();
        assert!(p.write(false).unwrap());
        let text = std::fs::read_to_string(&p.file).unwrap();
        for kept in [
            "// my servers",
            "/* keep me */",
            "\"command\": \"x\", }",
            "\"inputs\": []",
        ] {
            assert!(text.contains(kept), "{kept} lost:\n{text}");
        }
        let root = CstRootNode::parse(&text, &jsonc_options()).unwrap();
        let doc = root.object_value().unwrap().to_serde_value().unwrap();
        assert_eq!(doc["servers"][SERVER_NAME]["type"], "stdio");
        assert_eq!(doc["servers"]["other"]["command"], "x");
        assert!(!p.write(false).unwrap(), "a second run changes nothing");
        // Replacing with --force keeps the comments too.
        let http = http_plan(Client::Vscode, &p.file);
        assert!(http.write(false).is_err());
        assert!(http.write(true).unwrap());
        let text = std::fs::read_to_string(&p.file).unwrap();
        assert!(
            text.contains("/* keep me */") && text.contains("127.0.0.1:9"),
            "{text}"
        );
    }

    #[test]
    fn http_urls_are_checked_and_cursor_gets_its_own_interpolation() {
        let dir = tempfile::tempdir().unwrap();
        for bad in [
            "not a url",
            "127.0.0.1:8765/mcp",
            "http://",
            "http://:80/mcp",
            "ftp://x/mcp",
        ] {
            let http = Transport::Http { url: bad.into() };
            let err = plan(Client::Cursor, &http, dir.path(), dir.path(), 660).unwrap_err();
            assert!(
                format!("{err:#}").contains("serve --http"),
                "{bad}: {err:#}"
            );
        }
        let http = Transport::Http {
            url: "https://example.com:8765/mcp".into(),
        };
        let p = plan(Client::Cursor, &http, dir.path(), dir.path(), 660).unwrap();
        let Entry::Json { value, .. } = p.entry else {
            panic!("Cursor's file is JSON")
        };
        assert_eq!(
            value["headers"]["Authorization"],
            format!("Bearer ${{env:{TOKEN_ENV}}}")
        );
    }

    #[test]
    fn codex_toml_is_appended_with_its_comments_kept() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = plan(Client::Codex, &stdio(), dir.path(), dir.path(), 660).unwrap();
        p.file = dir.path().join("config.toml");
        std::fs::write(&p.file, "# my settings\nmodel = \"o3\"\n").unwrap();
        assert!(p.write(false).unwrap());
        let text = std::fs::read_to_string(&p.file).unwrap();
        assert!(text.starts_with("# my settings\nmodel = \"o3\"\n\n[mcp_servers.smart-context]"));
        let parsed: toml::Table = text.parse().unwrap();
        assert_eq!(
            parsed["mcp_servers"][SERVER_NAME]["args"][1].as_str(),
            Some("/work/my project")
        );
        assert!(!p.write(false).unwrap());
        assert_eq!(p.file, dir.path().join("config.toml"));
        assert!(text.contains("tool_timeout_sec = 660"), "{text}");
        // Another shape under our name: replaced with --force only, and only our table's
        // lines change (comments and our `.env` sub-table stay).
        let mut text = std::fs::read_to_string(&p.file).unwrap();
        text.push_str(
            "# after\n[mcp_servers.smart-context.env]\nRUST_LOG = \"info\"\n\n[other]\nx = 1\n",
        );
        std::fs::write(&p.file, &text).unwrap();
        let http = http_plan(Client::Codex, &p.file);
        assert!(format!("{:#}", http.write(false).unwrap_err()).contains("--force"));
        assert!(http.write(true).unwrap());
        let text = std::fs::read_to_string(&p.file).unwrap();
        assert!(
            text.starts_with("# my settings\nmodel = \"o3\"\n"),
            "{text}"
        );
        assert!(
            text.contains("# after\n[mcp_servers.smart-context.env]"),
            "{text}"
        );
        let parsed: toml::Table = text.parse().unwrap();
        let ours = &parsed["mcp_servers"][SERVER_NAME];
        assert_eq!(ours["url"].as_str(), Some("http://127.0.0.1:9/mcp"));
        assert!(ours.get("command").is_none(), "{text}");
        assert_eq!(ours["env"]["RUST_LOG"].as_str(), Some("info"));
        assert_eq!(parsed["other"]["x"].as_integer(), Some(1));
        assert!(!http.write(false).unwrap());
        // Settings of the user's inline in our table: --force refuses rather than drop them.
        let inline =
            "[mcp_servers.smart-context]\ncommand = \"x\"\nenv = { RUST_LOG = \"debug\" }\n";
        std::fs::write(&p.file, inline).unwrap();
        let err = http.write(true).unwrap_err();
        assert!(format!("{err:#}").contains("edit it by hand"), "{err:#}");
        assert_eq!(std::fs::read_to_string(&p.file).unwrap(), inline);
    }

    #[test]
    fn json5_extras_are_refused_not_edited() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = plan(Client::Cursor, &stdio(), dir.path(), dir.path(), 660).unwrap();
        p.file = dir.path().join("mcp.json");
        for broken in ["{'mcpServers': {}}", "{\"a\": 1 \"b\": 2}", "{\"a\": 0x10}"] {
            std::fs::write(&p.file, broken).unwrap();
            assert!(p.write(false).is_err(), "{broken}");
            assert_eq!(std::fs::read_to_string(&p.file).unwrap(), broken);
        }
    }

    #[test]
    fn no_stored_command_carries_the_expanded_token() {
        let http = Transport::Http {
            url: "http://127.0.0.1:8765/mcp".into(),
        };
        let p = plan(
            Client::ClaudeCode,
            &http,
            Path::new("/p"),
            Path::new("/h"),
            660,
        )
        .unwrap();
        let command = p.command.unwrap();
        // Inside single quotes the shell leaves `${VAR}` alone; Claude Code expands it from
        // .mcp.json (the project scope) when it connects.
        assert!(
            command.ends_with(&format!(
                "--header 'Authorization: Bearer ${{{TOKEN_ENV}}}'"
            )),
            "{command}"
        );
        assert!(command.contains("--scope project"), "{command}");
    }
}
