//! `smart-context setup <client>`: the configuration an MCP client needs to start this server
//! (stdio) or reach it (HTTP with a bearer token from an environment variable), printed, or
//! merged into the client's config file with `--write`. An existing entry of another shape is
//! never overwritten without `--force`; other servers in the file are kept as they are.

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};
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
    /// Codex CLI (~/.codex/config.toml)
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
    /// The client starts `binary --root ROOT serve`.
    Stdio { binary: PathBuf, root: PathBuf },
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

/// The plan for `client`; `home` is the user's home directory, `root` the project. An HTTP
/// URL that is not `http(s)://host...` is refused before anything is planned.
pub fn plan(client: Client, transport: &Transport, root: &Path, home: &Path) -> Result<Plan> {
    if let Transport::Http { url } = transport {
        check_url(url)?;
    }
    let stdio = |extra: Option<(&str, Value)>| -> Value {
        let Transport::Stdio { binary, root } = transport else {
            unreachable!("called for stdio only")
        };
        let mut v = json!({
            "command": binary.display().to_string(),
            "args": ["--root", root.display().to_string(), "serve"],
        });
        if let Some((k, x)) = extra {
            v[k] = x;
        }
        v
    };
    let bearer = format!("Bearer ${{{TOKEN_ENV}}}");
    let plan = match (client, transport) {
        (Client::ClaudeCode, Transport::Stdio { binary, root: r }) => Plan {
            file: root.join(".mcp.json"),
            entry: Entry::Json {
                key: "mcpServers",
                value: stdio(None),
            },
            command: Some(format!(
                "claude mcp add {SERVER_NAME} -- {} --root {} serve",
                shell(&binary.display().to_string()),
                shell(&r.display().to_string())
            )),
            note: None,
        },
        (Client::ClaudeCode, Transport::Http { url }) => Plan {
            file: root.join(".mcp.json"),
            entry: Entry::Json {
                key: "mcpServers",
                value: json!({ "type": "http", "url": url, "headers": { "Authorization": bearer } }),
            },
            command: Some(format!(
                "claude mcp add --transport http {SERVER_NAME} {url} --header \"Authorization: Bearer ${TOKEN_ENV}\""
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
            let table = match transport {
                Transport::Stdio { binary, root } => format!(
                    "[mcp_servers.{SERVER_NAME}]\ncommand = {}\nargs = [\"--root\", {}, \"serve\"]\n",
                    toml_string(&binary.display().to_string()),
                    toml_string(&root.display().to_string())
                ),
                Transport::Http { url } => format!(
                    "[mcp_servers.{SERVER_NAME}]\nurl = {}\nbearer_token_env_var = \"{TOKEN_ENV}\"\n",
                    toml_string(url)
                ),
            };
            Plan {
                file: home.join(".codex/config.toml"),
                entry: Entry::Toml(table),
                command: None,
                note: None,
            }
        }
        (Client::Gemini, Transport::Stdio { .. }) => Plan {
            file: root.join(".gemini/settings.json"),
            entry: Entry::Json {
                key: "mcpServers",
                value: stdio(None),
            },
            command: None,
            note: None,
        },
        (Client::Gemini, Transport::Http { url }) => Plan {
            file: root.join(".gemini/settings.json"),
            entry: Entry::Json {
                key: "mcpServers",
                value: json!({ "httpUrl": url, "headers": { "Authorization": bearer } }),
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

/// The JSON file with the entry added; None when it is already there unchanged.
fn merge_json(
    existing: Option<&str>,
    key: &str,
    value: &Value,
    force: bool,
) -> Result<Option<String>> {
    let mut doc: Map<String, Value> = match existing.map(str::trim) {
        None | Some("") => Map::new(),
        Some(text) => match serde_json::from_str(text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => bail!("the file is not a JSON object; fix it by hand"),
            Err(e) => bail!(
                "the file is not valid JSON ({e}); fix it by hand (comments are not supported)"
            ),
        },
    };
    let servers = doc
        .entry(key.to_string())
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(servers) = servers.as_object_mut() else {
        bail!("`{key}` is not an object; fix it by hand");
    };
    match servers.get(SERVER_NAME) {
        Some(current) if current == value => return Ok(None),
        Some(current) if !force => bail!(
            "an entry {SERVER_NAME:?} is already there and differs:\n{}\nrerun with --force to replace it",
            serde_json::to_string_pretty(current).unwrap_or_default()
        ),
        _ => {}
    }
    servers.insert(SERVER_NAME.to_string(), value.clone());
    Ok(Some(serde_json::to_string_pretty(&doc)? + "\n"))
}

/// The TOML file with the table appended (the file's text and comments kept as they are);
/// None when it is already there unchanged.
fn merge_toml(existing: Option<&str>, table: &str, force: bool) -> Result<Option<String>> {
    let text = existing.unwrap_or("");
    let parsed: toml::Table = text
        .parse()
        .context("the file is not valid TOML; fix it by hand")?;
    let wanted: toml::Table = table.parse().expect("our table is TOML");
    let current = parsed.get("mcp_servers").and_then(|s| s.get(SERVER_NAME));
    let new = wanted["mcp_servers"][SERVER_NAME].clone();
    match current {
        Some(current) if *current == new => Ok(None),
        Some(_) if !force => bail!(
            "a [mcp_servers.{SERVER_NAME}] table is already there and differs; edit it by hand, or rerun with --force to rewrite the file (its comments are lost)"
        ),
        Some(_) => {
            let mut parsed = parsed;
            if let Some(servers) = parsed.get_mut("mcp_servers").and_then(|s| s.as_table_mut()) {
                servers.insert(SERVER_NAME.to_string(), new);
            }
            Ok(Some(toml::to_string(&parsed)?))
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

    fn stdio() -> Transport {
        Transport::Stdio {
            binary: "/usr/local/bin/smart-context".into(),
            root: "/work/my project".into(),
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
            let p = plan(client, &stdio(), root, home).unwrap();
            assert!(
                p.snippet().contains("/usr/local/bin/smart-context"),
                "{client:?}"
            );
            assert!(p.snippet().contains("serve"), "{client:?}");
            match plan(client, &http, root, home) {
                Ok(p) => assert!(
                    p.snippet().contains("127.0.0.1:8765") && p.snippet().contains(TOKEN_ENV),
                    "{client:?}: {}",
                    p.snippet()
                ),
                Err(e) => assert_eq!(client, Client::ClaudeDesktop, "{e}"),
            }
        }
        let code = plan(Client::ClaudeCode, &stdio(), root, home).unwrap();
        assert_eq!(
            code.command.as_deref(),
            Some(
                "claude mcp add smart-context -- /usr/local/bin/smart-context --root '/work/my project' serve"
            )
        );
        assert_eq!(code.file, root.join(".mcp.json"));
    }

    #[test]
    fn writing_merges_keeps_other_servers_and_never_silently_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = plan(Client::Cursor, &stdio(), dir.path(), dir.path()).unwrap();
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
        std::fs::write(&p.file, "// comment\n{}").unwrap();
        assert!(p.write(false).is_err());
        assert_eq!(std::fs::read_to_string(&p.file).unwrap(), "// comment\n{}");
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
            let err = plan(Client::Cursor, &http, dir.path(), dir.path()).unwrap_err();
            assert!(
                format!("{err:#}").contains("serve --http"),
                "{bad}: {err:#}"
            );
        }
        let http = Transport::Http {
            url: "https://example.com:8765/mcp".into(),
        };
        let p = plan(Client::Cursor, &http, dir.path(), dir.path()).unwrap();
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
        let mut p = plan(Client::Codex, &stdio(), dir.path(), dir.path()).unwrap();
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
    }
}
