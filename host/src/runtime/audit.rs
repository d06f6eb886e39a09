//! The audit log, for deployments that must account for what plugins did: with `[audit] path`
//! set in the operator's config, one JSON line per plugin call (a tool call, or a parse) with
//! the plugin, its hash, the grants the call used, the paths it read through the workspace and
//! wrote through edits, how long it ran and how it ended. The file is opened for appending,
//! owner-only; a line that cannot be written is reported on stderr, and the call is not failed
//! for it (the log records; the sandbox enforces).

use super::plugins::Interface;
use crate::error::HostError;
use serde::Serialize;
use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

/// Paths one call records before it only counts them.
pub const MAX_PATHS: usize = 200;

/// What a call did, gathered by its host state as it runs (only while the log is on): each
/// path once, in the order first touched.
#[derive(Debug, Default)]
pub struct Trail {
    pub used: BTreeSet<Interface>,
    pub read: Vec<String>,
    pub wrote: Vec<String>,
    /// Host functions it called without the grant (`memory.search`).
    pub denied: Vec<String>,
    /// Paths beyond [`MAX_PATHS`], counted.
    pub dropped: usize,
}

impl Trail {
    pub fn read(&mut self, path: &str) {
        Self::push(&mut self.read, &mut self.dropped, path);
    }

    pub fn wrote(&mut self, path: &str) {
        Self::push(&mut self.wrote, &mut self.dropped, path);
    }

    pub fn denied(&mut self, function: &str) {
        Self::push(&mut self.denied, &mut self.dropped, function);
    }

    fn push(list: &mut Vec<String>, dropped: &mut usize, path: &str) {
        if list.iter().any(|p| p == path) {
            return;
        }
        if list.len() < MAX_PATHS {
            list.push(path.to_string());
        } else {
            *dropped += 1;
        }
    }
}

/// One line of the log.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Entry<'a> {
    pub ts_ms: u64,
    pub plugin: &'a str,
    pub sha256: &'a str,
    /// `tool` or `parse`.
    pub call: &'a str,
    /// The MCP tool name, or the path parsed.
    pub target: &'a str,
    pub grants_used: Vec<&'static str>,
    pub read: &'a [String],
    pub wrote: &'a [String],
    /// Host functions it called without the grant.
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    pub denied: &'a [String],
    #[serde(skip_serializing_if = "is_zero")]
    pub paths_dropped: usize,
    /// `ok`, or the error's code.
    pub outcome: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    pub ms: u64,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// The log file, when the operator asked for one.
pub struct AuditLog {
    file: Option<Mutex<std::fs::File>>,
}

impl AuditLog {
    pub fn off() -> Self {
        Self { file: None }
    }

    /// Opens (creating, owner-only) `path` for appending. A path inside the workspace `root`
    /// is refused: a plugin granted `edits` could rewrite the record of what it did.
    pub fn open(path: &Path, root: &Path) -> anyhow::Result<Self> {
        use anyhow::Context;
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        let resolved = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."))
            .canonicalize()
            .with_context(|| format!("resolving {}", path.display()))?;
        let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
        if resolved.starts_with(&root) {
            anyhow::bail!(
                "the audit log {} is inside the workspace {}, where a plugin granted edits could rewrite it; set [audit] path outside the root",
                path.display(),
                root.display()
            );
        }
        let mut options = std::fs::OpenOptions::new();
        options.create(true).append(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options
            .open(path)
            .with_context(|| format!("opening the audit log {}", path.display()))?;
        // A log that existed before, readable by others, is made owner-only too.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = file.metadata()?.permissions().mode();
            if mode & 0o077 != 0 {
                file.set_permissions(std::fs::Permissions::from_mode(0o600))
                    .with_context(|| format!("making {} owner-only", path.display()))?;
            }
        }
        Ok(Self {
            file: Some(Mutex::new(file)),
        })
    }

    pub fn is_on(&self) -> bool {
        self.file.is_some()
    }

    /// Appends one line for a finished call.
    pub fn record(&self, entry: &Entry<'_>) {
        let Some(file) = &self.file else {
            return;
        };
        let mut line = match serde_json::to_vec(entry) {
            Ok(line) => line,
            Err(err) => {
                tracing::error!("audit: cannot serialize a line: {err}");
                return;
            }
        };
        line.push(b'\n');
        let mut file = file.lock().unwrap_or_else(|p| p.into_inner());
        // One write per line: with O_APPEND, lines from several processes do not interleave.
        if let Err(err) = file.write_all(&line) {
            tracing::error!("audit: writing a line failed: {err}");
        }
    }
}

/// The outcome fields of a line: `ok`, or the error's code and message (a tool's answer
/// with `success: false` counts as its error).
pub fn outcome(
    result: &Result<Option<&serde_json::Value>, &HostError>,
) -> (String, Option<String>) {
    match result {
        Ok(Some(answer)) if answer.get("success") == Some(&serde_json::Value::Bool(false)) => {
            let text = |key: &str| answer.get(key).and_then(|v| v.as_str()).map(str::to_string);
            (
                text("code").unwrap_or_else(|| "FAILED".to_string()),
                text("message"),
            )
        }
        Ok(_) => ("ok".to_string(), None),
        Err(e) => (e.code.clone(), Some(e.message.clone())),
    }
}

/// The names of the interfaces used, in the contract's order.
pub fn grant_names(used: &BTreeSet<Interface>) -> Vec<&'static str> {
    used.iter().map(|i| i.name()).collect()
}
