//! The operator's policy: limits, extra plugin directories, grants and HTTP settings, read
//! from `smart-context.toml` at the root or from `--config`. Nothing an agent sends changes it,
//! and the edits interface refuses to write the file.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file name looked up at the workspace root.
pub const CONFIG_FILE: &str = "smart-context.toml";

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    #[serde(default)]
    pub limits: Limits,
    /// Directories with third-party plugins (`*.wasm`), relative to the config file.
    #[serde(default)]
    pub plugin_dirs: Vec<PathBuf>,
    /// Where compiled components are cached (default: the user cache directory).
    pub cache_dir: Option<PathBuf>,
    /// Per-plugin policy, keyed by plugin name (the file name without `.wasm`).
    #[serde(default)]
    pub plugin: BTreeMap<String, PluginPolicy>,
    #[serde(default)]
    pub http: Http,
    #[serde(default)]
    pub index: IndexSettings,
    #[serde(default)]
    pub test: TestSettings,
    /// Where the file was read from, for resolving relative paths.
    #[serde(skip)]
    pub source: Option<PathBuf>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Linear memory one plugin instance may grow to.
    pub memory_mib: u64,
    /// Wall-clock budget of one plugin call (epoch deadline).
    pub timeout_ms: u64,
    /// Largest result a plugin may return.
    pub max_result_bytes: u64,
    /// Plugin instances alive at once (the pooling allocator's slots).
    pub max_instances: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            memory_mib: 256,
            timeout_ms: 30_000,
            max_result_bytes: 16 << 20,
            max_instances: 64,
        }
    }
}

/// What the operator allows one plugin.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginPolicy {
    /// Host interfaces it may import: log, workspace, index, status, edits.
    #[serde(default)]
    pub grants: Vec<String>,
    /// Expose a third-party tool plugin over MCP (as `plugin__tool`).
    #[serde(default)]
    pub enabled: bool,
    /// Refuse the plugin unless its SHA-256 is this (hex).
    pub sha256: Option<String>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Http {
    /// Accepted `Host` header values; default: loopback names only.
    pub allowed_hosts: Option<Vec<String>>,
    /// Bearer token; default: $SMART_CONTEXT_HTTP_TOKEN, else one generated at start.
    pub token: Option<String>,
}

/// What the code and document index covers.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IndexSettings {
    /// Files larger than this are skipped (and reported), never read into the index.
    pub max_file_bytes: u64,
    /// Extra gitignore-style globs to leave out, on top of .gitignore, .ignore and the
    /// built-in excludes (node_modules, target, __pycache__, virtualenvs).
    pub exclude: Vec<String>,
    /// Keep the index fresh while serving, with a file watcher.
    pub watch: bool,
}

impl Default for IndexSettings {
    fn default() -> Self {
        Self {
            max_file_bytes: 2 << 20,
            exclude: Vec::new(),
            watch: true,
        }
    }
}

/// How `manage command=test` runs the project's tests. The agent never supplies a command:
/// only this argv (no shell), or with `detect = true` one found from the project's files.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TestSettings {
    /// The argv to run from the root, e.g. `["cargo", "test"]`.
    pub command: Option<Vec<String>>,
    /// Without a command, run the one the project's files suggest (cargo, pytest, npm, go).
    pub detect: bool,
    /// Killed after this long (the whole process group).
    pub timeout_ms: u64,
    /// Output kept for the summary and the tail; the rest is counted, not stored.
    pub max_output_bytes: usize,
}

impl Default for TestSettings {
    fn default() -> Self {
        Self {
            command: None,
            detect: false,
            timeout_ms: 600_000,
            max_output_bytes: 1 << 20,
        }
    }
}

impl Config {
    /// Reads `explicit` if given (it must exist), else `<root>/smart-context.toml` if present,
    /// else the defaults.
    pub fn load(root: &Path, explicit: Option<&Path>) -> Result<Self> {
        let path = match explicit {
            Some(p) => Some(p.to_path_buf()),
            None => Some(root.join(CONFIG_FILE)).filter(|p| p.is_file()),
        };
        let Some(path) = path else {
            return Ok(Self::default());
        };
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading config {}", path.display()))?;
        let mut config: Config =
            toml::from_str(&text).with_context(|| format!("parsing config {}", path.display()))?;
        config.source = Some(path);
        Ok(config)
    }

    /// Extra plugin directories, relative ones resolved against the config file's directory.
    pub fn plugin_dirs(&self) -> Vec<PathBuf> {
        let base = self
            .source
            .as_deref()
            .and_then(Path::parent)
            .unwrap_or(Path::new("."));
        self.plugin_dirs.iter().map(|d| base.join(d)).collect()
    }

    pub fn policy(&self, plugin: &str) -> Option<&PluginPolicy> {
        self.plugin.get(plugin)
    }

    /// The compiled-component cache directory.
    pub fn cache_dir(&self) -> PathBuf {
        if let Some(dir) = &self.cache_dir {
            return dir.clone();
        }
        let base = std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .unwrap_or_else(std::env::temp_dir);
        base.join("smart-context").join("components")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_policy_and_resolves_dirs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join(CONFIG_FILE),
            "plugin_dirs = [\"extra\"]\n[limits]\ntimeout_ms = 500\n[plugin.spin]\ngrants = [\"log\"]\nenabled = true\n",
        )
        .unwrap();
        let config = Config::load(dir.path(), None).unwrap();
        assert_eq!(config.limits.timeout_ms, 500);
        assert_eq!(config.limits.memory_mib, 256);
        assert_eq!(config.plugin_dirs(), vec![dir.path().join("extra")]);
        assert_eq!(config.policy("spin").unwrap().grants, ["log"]);
    }

    #[test]
    fn unknown_keys_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(CONFIG_FILE), "[limits]\ntimeout = 5\n").unwrap();
        let err = Config::load(dir.path(), None).unwrap_err();
        assert!(format!("{err:#}").contains("timeout"), "{err:#}");
    }

    #[test]
    fn missing_file_gives_defaults_but_explicit_must_exist() {
        let dir = tempfile::tempdir().unwrap();
        assert!(Config::load(dir.path(), None).unwrap().source.is_none());
        assert!(Config::load(dir.path(), Some(&dir.path().join("nope.toml"))).is_err());
    }
}
