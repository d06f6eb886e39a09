//! Assembles a host: for each workspace root its config, workspace capability, state store
//! (with crash recovery of pending transactions), memory and index; and the plugin runtime,
//! loaded once with the first root's config and shared by every root.

use crate::config::Config;
use crate::index::{DocumentParsers, Index};
use crate::runtime::{self, Runtime};
use crate::services::Services;
use crate::store::packs::{EvidenceSettings, Packs};
use crate::store::{JournalKey, Store};
use crate::workspace::Workspace;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

pub use crate::store::STATE_DIR;

/// How to open a host.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    pub root: PathBuf,
    pub config: Option<PathBuf>,
    /// Overrides where the built-in plugins are found.
    pub builtin_plugins: Option<PathBuf>,
    /// The components compiled into the executable (the binary passes its own; empty in
    /// library users, which then find the build's plugin directory).
    pub embedded_plugins: runtime::plugins::Embedded,
    /// Where the journal key lives (default: the user data directory, outside every root).
    pub data_dir: Option<PathBuf>,
    /// Keeps the state (store, index) here instead of `<root>/.smart-context`: how commands
    /// that only look (`plugins`) avoid creating a state directory in the current directory.
    pub state_dir: Option<PathBuf>,
    /// Keeps every root's state in a directory of its own under this one (`--state-dir`):
    /// replicas sharing a working tree each keep their own index and state.db, off the
    /// shared storage.
    pub state_base: Option<PathBuf>,
    /// Load this plugin (a directory, the name of its `NAME.wasm`, its grants) and no other
    /// third-party one: `plugin check`.
    pub only_plugin: Option<(PathBuf, String, Vec<String>)>,
    /// The first root's name (default: its directory's) and policy, from `[[roots]]`.
    pub root_name: Option<String>,
    pub policy: crate::config::RootPolicy,
    /// Team mode: packs and memory in the shared PostgreSQL database, signed with the
    /// deployment's key (None: state.db).
    pub team: Option<crate::store::postgres::Team>,
}

/// The team store the operator configured (`--store`/`--store-key` over `[store]`),
/// connected and migrated; None when no URL is set.
pub fn team(
    operator: &Config,
    url: Option<&str>,
    key_file: Option<&Path>,
) -> Result<Option<crate::store::postgres::Team>> {
    let Some(url) = url.or(operator.store.url.as_deref()) else {
        anyhow::ensure!(
            key_file.is_none(),
            "--store-key was given without a team store: set --store URL or [store] url"
        );
        return Ok(None);
    };
    let key_file = key_file
        .map(Path::to_path_buf)
        .or_else(|| operator.store_key_file())
        .ok_or_else(|| {
            anyhow::anyhow!(
                "team mode needs the key every replica signs shared rows with: set [store] key_file (or --store-key) to a file of 64 hex digits, the same on every replica (make one with `openssl rand -hex 32 > team.key`)"
            )
        })?;
    let key = JournalKey::read(&key_file)?;
    let pool = operator
        .store
        .pool_size
        .unwrap_or(crate::store::postgres::DEFAULT_POOL_SIZE);
    let postgres = crate::store::postgres::Postgres::connect(url, pool)?;
    tracing::info!("team store: PostgreSQL at {}", postgres.display());
    Ok(Some(crate::store::postgres::Team { postgres, key }))
}

pub fn open(options: &OpenOptions) -> Result<Arc<Runtime>> {
    let mut config = Config::load(&options.root, options.config.as_deref())?;
    if let Some((dir, name, grants)) = &options.only_plugin {
        config.only_plugin(dir.clone(), name, grants.clone());
    }
    let services = open_root(&options.root, config, options.policy, options)?;
    let first = crate::roots::Root {
        name: options
            .root_name
            .clone()
            .unwrap_or_else(|| crate::roots::default_name(services.workspace.root())),
        services,
    };
    let builtins = match &options.builtin_plugins {
        Some(dir) => runtime::plugins::Builtins::Dir(dir.clone()),
        None => runtime::builtins(options.embedded_plugins),
    };
    let runtime = Runtime::load(first, &builtins)?;
    if runtime.tools().is_empty() {
        let mut why = format!(
            "no tool plugin loaded (built-in plugins: {}), so there is nothing to serve",
            builtins.describe()
        );
        for r in runtime.rejected() {
            why.push_str(&format!(
                "\n  rejected {} ({}): {}",
                r.name, r.source, r.reason
            ));
        }
        anyhow::bail!(
            "{why}\nreinstall (`cargo install --locked --path host` embeds the five pillars), or point SMART_CONTEXT_PLUGIN_DIR at a directory of built plugins"
        );
    }
    let parsers: Arc<dyn DocumentParsers> = runtime.clone();
    runtime
        .services()
        .index
        .set_parsers(Arc::downgrade(&parsers));
    Ok(runtime)
}

/// Opens one more workspace root beside the runtime's first and serves it under the
/// operator's name for it or its directory's, with its policy (see `crate::roots`): its own
/// config (the operator's with this root's file), workspace, state directory, journal
/// (recovered), index and memory, read by the runtime's parsers. A call routed to it (`Runtime::call_tool_routed`) acts there. Refused,
/// before anything is made in it, when it overlaps a root served already or takes its name.
pub fn open_another_root(
    runtime: &Arc<Runtime>,
    spec: &crate::roots::Spec,
    options: &OpenOptions,
) -> Result<Arc<Services>> {
    let path = std::fs::canonicalize(&spec.path)
        .with_context(|| format!("the root {} cannot be opened", spec.path.display()))?;
    let name = spec.name_for(&path);
    runtime.roots().check(&name, &path)?;
    let services = open_served_root(runtime, &path, spec.policy, options)?;
    runtime.roots().add(crate::roots::Root {
        name,
        services: services.clone(),
    })?;
    Ok(services)
}

/// A root beside the first, opened for the runtime: its config (the operator's with this
/// root's file), services, policy, and the runtime's parsers. The audit log may not lie in it.
fn open_served_root(
    runtime: &Arc<Runtime>,
    path: &Path,
    policy: crate::config::RootPolicy,
    options: &OpenOptions,
) -> Result<Arc<Services>> {
    // The audit log stays out of every root a plugin may edit (see `runtime::audit`).
    if let Some(log) = runtime.services().config.audit_path() {
        let dir = log.parent().and_then(|d| d.canonicalize().ok());
        if dir.is_some_and(|d| d.starts_with(path)) {
            anyhow::bail!(
                "the audit log {} is inside the root {}, where a plugin granted edits could rewrite it; set [audit] path outside every root",
                log.display(),
                path.display()
            );
        }
    }
    let config = Config::load(path, options.config.as_deref())?;
    let options = OpenOptions {
        state_dir: None,
        ..options.clone()
    };
    let services = open_root(path, config, policy, &options)?;
    let parsers: Arc<dyn DocumentParsers> = runtime.clone();
    services.index.set_parsers(Arc::downgrade(&parsers));
    Ok(services)
}

/// Starts what keeps a served root's answers current besides its index pass: the graphs
/// understand and change's impact report read (built after each pass rather than by the call
/// that needs them), and, when `run_scip`, the operator's SCIP indexer if configured (an
/// `index.scip` already there is read either way).
pub fn keep_up(services: &Arc<Services>, run_scip: bool) {
    let warm = services.clone();
    let _ = std::thread::Builder::new()
        .name("analysis".into())
        .spawn(move || warm.analysis.keep_warm());
    // The SCIP indexer runs a command in the root (often the project's build): never where
    // the operator allows nothing to run.
    if !run_scip || services.workspace.is_read_only() {
        return;
    }
    let s = services.clone();
    let _ = std::thread::Builder::new()
        .name("scip".into())
        .spawn(move || crate::tasks::scip::keep_fresh(&s.index, &s.workspace, &s.config.scip));
}

/// Opens the workspace roots an MCP client lists (`roots/list`) when the operator allows it
/// (`[client_roots]`): `file://` directories beneath `under`, with the operator's policy for
/// them, at most `max`. Each is opened once per process, indexed and kept up like the
/// operator's; a root the rules refuse is skipped with a warning, never an error the client
/// sees.
pub struct ClientRootOpener {
    runtime: Arc<Runtime>,
    options: OpenOptions,
    under: Vec<PathBuf>,
    /// The operator's own places (config, trust list, journal key, plugins, component cache,
    /// audit log): a client root may not hold any, or an agent could rewrite its own grants.
    operators: Vec<PathBuf>,
    policy: crate::config::RootPolicy,
    max: usize,
    max_open: usize,
}

impl ClientRootOpener {
    /// The opener the operator's config asks for, or `None` when client roots are off.
    pub fn new(
        runtime: &Arc<Runtime>,
        operator: &Config,
        options: &OpenOptions,
    ) -> Result<Option<Self>> {
        let settings = &operator.client_roots;
        if !settings.allow {
            return Ok(None);
        }
        let under: Vec<PathBuf> = operator
            .client_roots_under()
            .iter()
            .filter_map(|dir| match dir.canonicalize() {
                Ok(dir) => Some(dir),
                Err(err) => {
                    tracing::warn!("[client_roots] under {}: {err}; left out", dir.display());
                    None
                }
            })
            .collect();
        if under.is_empty() {
            anyhow::bail!(
                "[client_roots] allow = true needs `under`: the directories clients' roots must lie in"
            );
        }
        let mut operators = vec![
            crate::config::user_config_dir(),
            options
                .data_dir
                .clone()
                .unwrap_or_else(crate::config::user_data_dir),
            operator.cache_dir(),
        ];
        operators.extend(options.config.iter().cloned());
        operators.extend(operator.plugin_dirs());
        operators.extend(operator.audit_path());
        let operators = operators
            .into_iter()
            .map(|p| p.canonicalize().unwrap_or(p))
            .collect();
        Ok(Some(Self {
            runtime: runtime.clone(),
            options: options.clone(),
            under,
            operators,
            policy: settings.policy,
            max: settings.max,
            max_open: settings.max_open,
        }))
    }

    /// The roots among `listed` (URI and the client's name for it) this session may use, in
    /// order; operator roots among them are left out (every session has those).
    pub fn open(&self, listed: &[(String, Option<String>)]) -> Vec<crate::roots::Root> {
        let mut roots: Vec<crate::roots::Root> = Vec::new();
        for (uri, name) in listed {
            if roots.len() == self.max {
                tracing::warn!(
                    "the client listed more than {} roots ([client_roots] max); {uri} and the rest are not served",
                    self.max
                );
                break;
            }
            match self.open_one(uri, name.as_deref()) {
                // The same directory listed twice (another spelling, a link) is one root.
                Ok(Some(root)) if !roots.iter().any(|r| r.name == root.name) => roots.push(root),
                Ok(_) => {}
                Err(err) => tracing::warn!("the client's root {uri} is not served: {err:#}"),
            }
        }
        roots
    }

    fn open_one(&self, uri: &str, name: Option<&str>) -> Result<Option<crate::roots::Root>> {
        let url = url::Url::parse(uri).context("not a URI")?;
        anyhow::ensure!(url.scheme() == "file", "only file:// roots are served");
        let path = url
            .to_file_path()
            .map_err(|()| anyhow::anyhow!("not a local path"))?;
        let path = path
            .canonicalize()
            .with_context(|| format!("{} cannot be opened", path.display()))?;
        anyhow::ensure!(path.is_dir(), "{} is not a directory", path.display());
        anyhow::ensure!(
            self.under.iter().any(|dir| path.starts_with(dir)),
            "{} is not beneath the directories [client_roots] under allows",
            path.display()
        );
        if let Some(held) = self.operators.iter().find(|p| p.starts_with(&path)) {
            anyhow::bail!(
                "{} holds the operator's {}, which no client root may",
                path.display(),
                held.display()
            );
        }
        self.runtime
            .roots()
            .client_root(&path, name, self.max_open, |_| {
                let services = open_served_root(&self.runtime, &path, self.policy, &self.options)?;
                // Opened by the path checked above, not a link swapped in since.
                anyhow::ensure!(
                    services.workspace.root() == path,
                    "{} moved while it was opened",
                    path.display()
                );
                services.index.start_background();
                keep_up(&services, false);
                Ok(services)
            })
    }
}

/// The services of one root: workspace capability, state directory and store (pending
/// transactions recovered), session memory and index.
fn open_root(
    root: &Path,
    config: Config,
    policy: crate::config::RootPolicy,
    options: &OpenOptions,
) -> Result<Arc<Services>> {
    for notice in &config.notices {
        tracing::warn!("config: {notice}");
    }
    let workspace = Workspace::open(root)?;
    workspace.allow_hard_links(config.workspace.allow_hard_links);
    // Before recovery, which would otherwise write here.
    workspace.set_read_only(policy == crate::config::RootPolicy::ReadOnly);
    let state_dir = match (&options.state_dir, &options.state_base) {
        (Some(dir), _) => dir.clone(),
        (None, Some(base)) => state_dir_under(base, workspace.root())?,
        (None, None) => workspace.root().join(STATE_DIR),
    };
    prepare_state_dir(&state_dir)?;
    let data_dir = options
        .data_dir
        .clone()
        .unwrap_or_else(crate::config::user_data_dir);
    let key = match options.team.as_ref().map(|team| team.key.clone()) {
        Some(key) => {
            establish_provenance(&state_dir, &key)?;
            key
        }
        None => match JournalKey::load_or_create(&data_dir) {
            Ok(key) => {
                establish_provenance(&state_dir, &key)?;
                key
            }
            Err(err) => {
                // A read-only home must not keep the server from starting; what is lost is
                // recovery of transactions journaled by earlier processes (their rows will not
                // verify), and telling this user's state from a shipped one.
                tracing::warn!(
                    "no journal key in {} ({err:#}); using one for this process only, so transactions left pending by an earlier crash will not be recovered, and the state directory's origin cannot be checked",
                    data_dir.display()
                );
                JournalKey::ephemeral()
            }
        },
    };
    let db = state_dir.join("state.db");
    let local = open_store(&db, key.clone())?;
    let store: Box<dyn crate::store::rows::JournalRows> = match &options.team {
        Some(team) => Box::new(crate::store::postgres::RootRows::new(
            team.postgres.clone(),
            workspace.root().to_string_lossy().into_owned(),
            key.clone(),
        )),
        None => Box::new(local),
    };
    let rows: Box<dyn crate::store::rows::RowsBackend> = match &options.team {
        Some(team) => Box::new(crate::store::postgres::RootRows::new(
            team.postgres.clone(),
            workspace.root().to_string_lossy().into_owned(),
            key.clone(),
        )),
        None => Box::new(crate::store::rows::Sqlite {
            db: db.clone(),
            key: key.clone(),
        }),
    };
    let memory =
        crate::memory::Memory::over(rows.memory()?, crate::memory::MemorySettings::from_env())
            .context("opening the session memory")?;
    let index =
        Index::open(root, &state_dir, &db, config.index.clone()).context("opening the index")?;
    let index = Arc::new(index);
    let services = Arc::new(Services {
        workspace,
        store: Mutex::new(store),
        analysis: crate::analysis::Analysis::new(index.clone()),
        index,
        packs: Packs::new(EvidenceSettings::from_env(), rows.packs()?),
        memory,
        config,
    });
    match services.transactions().recover() {
        Ok(report) => report
            .iter()
            .for_each(|line| tracing::warn!("recovery: {line}")),
        Err(err) => tracing::error!("recovering pending transactions failed: {err}"),
    }
    Ok(services)
}

/// `root`'s state directory under `base`: its directory name and a hash of its path, so two
/// roots never share one and a root finds its own again. Refused inside the root, where the
/// index would index itself and a plugin granted edits could rewrite it.
fn state_dir_under(base: &Path, root: &Path) -> Result<PathBuf> {
    // Checked before anything is made: the part that exists resolved (links, `..`), the rest
    // as given; then again once it exists.
    let given = std::path::absolute(base).unwrap_or_else(|_| base.to_path_buf());
    let existing = given
        .ancestors()
        .find_map(|a| a.canonicalize().ok().map(|c| (a.to_path_buf(), c)));
    let given = match existing {
        Some((ancestor, resolved)) => {
            // The part not made yet has no links to follow: its `..` are taken lexically.
            let mut path = resolved;
            for part in given
                .strip_prefix(&ancestor)
                .unwrap_or(Path::new(""))
                .components()
            {
                match part {
                    std::path::Component::ParentDir => {
                        path.pop();
                    }
                    std::path::Component::Normal(name) => path.push(name),
                    _ => {}
                }
            }
            path
        }
        None => given,
    };
    anyhow::ensure!(
        !given.starts_with(root),
        "the state directory {} is inside the root {}; put it outside every root",
        given.display(),
        root.display()
    );
    std::fs::create_dir_all(base).with_context(|| format!("creating {}", base.display()))?;
    let base = base
        .canonicalize()
        .with_context(|| format!("opening {}", base.display()))?;
    anyhow::ensure!(
        !base.starts_with(root),
        "the state directory {} is inside the root {}; put it outside every root",
        base.display(),
        root.display()
    );
    let name = root
        .file_name()
        .map_or("root".into(), |n| n.to_string_lossy().into_owned());
    let hash = blake3::hash(root.as_os_str().as_encoded_bytes()).to_hex();
    Ok(base.join(format!("{name}-{}", &hash[..16])))
}

/// Sets aside state in `state_dir` this user's smart-context did not make (store/provenance.rs).
fn establish_provenance(state_dir: &Path, key: &JournalKey) -> Result<()> {
    use crate::store::provenance::{Provenance, establish};
    if let Provenance::SetAside(aside) = establish(state_dir, key)? {
        tracing::warn!(
            "{} held state this user's smart-context did not make (shipped with the repository, copied from elsewhere, or from an old version with no edits or memory); moved to {} and building it again",
            state_dir.display(),
            aside.display()
        );
    }
    Ok(())
}

/// Opens state.db; one SQLite cannot read (not a database, damaged) is set aside as
/// `state.db.corrupt-<ms>` with a warning and a new one is created, so the server still starts.
/// The transaction history in the damaged file is lost to undo, not deleted.
fn open_store(db: &Path, key: JournalKey) -> Result<Store> {
    match Store::open(db, key.clone()) {
        Ok(store) => Ok(store),
        Err(err) if is_corruption(&err) => {
            let stamp = crate::store::now_ms();
            let aside = db.with_extension(format!("db.corrupt-{stamp}"));
            tracing::warn!(
                "{} is damaged ({err:#}); moved to {} and starting a new one",
                db.display(),
                aside.display()
            );
            std::fs::rename(db, &aside)
                .with_context(|| format!("moving the damaged {} aside", db.display()))?;
            for suffix in ["-wal", "-shm"] {
                let side = PathBuf::from(format!("{}{suffix}", db.display()));
                let _ = std::fs::remove_file(side);
            }
            Store::open(db, key).context("creating a new state store")
        }
        Err(err) => Err(err.context("opening the state store")),
    }
}

fn is_corruption(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<rusqlite::Error>()
            .and_then(|e| e.sqlite_error_code())
            .is_some_and(|code| {
                matches!(
                    code,
                    rusqlite::ErrorCode::NotADatabase | rusqlite::ErrorCode::DatabaseCorrupt
                )
            })
    })
}

/// What `.smart-context/.gitignore` says: the state stays out of the user's VCS, the project's
/// templates (write's `.smart-context/templates/`) do not.
const STATE_GITIGNORE: &str = "*\n!.gitignore\n!templates/\n!templates/**\n";

/// Creates `.smart-context/` with its `.gitignore` (replacing the older one that ignored
/// templates too). The directory comes with the repository, so a link in it (the directory
/// itself, state.db, its WAL, the index) would send the host's own writes wherever the
/// repository points, and a FIFO would hang the start: both refused, with the way out.
fn prepare_state_dir(dir: &Path) -> Result<()> {
    refuse_links(dir, 2)?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    set_aside_misshapen(dir)?;
    // Ours, whatever a shipped one says: one that un-ignores everything would let `git add -A`
    // stage state.db with the user's prompts and notes in it.
    let ignore = dir.join(".gitignore");
    if std::fs::read_to_string(&ignore).ok().as_deref() != Some(STATE_GITIGNORE) {
        let temp = dir.join(".gitignore.tmp");
        std::fs::write(&temp, STATE_GITIGNORE)
            .and_then(|()| std::fs::rename(&temp, &ignore))
            .with_context(|| format!("writing {}", ignore.display()))?;
    }
    Ok(())
}

/// The state directory's entries and whether each is a directory. One of the other type
/// (shipped with the repository, or left by a crash) would stop the server from starting.
const STATE_ENTRIES: &[(&str, bool)] = &[
    ("state.db", false),
    ("state.db-wal", false),
    ("state.db-shm", false),
    (crate::index::INDEX_DIR, true),
    (crate::index::LOCK_FILE, false),
    (crate::workspace::transactions::LOCK_FILE, false),
    (".gitignore", false),
    (crate::store::provenance::OWNER_FILE, false),
    ("templates", true),
];

/// Moves a state entry of the wrong type (a directory named state.db, a file named index) to
/// `NAME.set-aside-<ms>` with a warning, as a damaged database is, so the server starts.
fn set_aside_misshapen(dir: &Path) -> Result<()> {
    for &(name, is_dir) in STATE_ENTRIES {
        let path = dir.join(name);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if meta.is_dir() == is_dir {
            continue;
        }
        let aside = dir.join(format!("{name}.set-aside-{}", crate::store::now_ms()));
        tracing::warn!(
            "{} is a {} where smart-context keeps a {}; moved to {} and starting without it",
            path.display(),
            if meta.is_dir() { "directory" } else { "file" },
            if is_dir { "directory" } else { "file" },
            aside.display()
        );
        std::fs::rename(&path, &aside)
            .with_context(|| format!("moving {} aside", path.display()))?;
    }
    Ok(())
}

fn refuse_links(path: &Path, depth: u32) -> Result<()> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    if meta.file_type().is_symlink() {
        anyhow::bail!(
            "{} is a symbolic link: smart-context never writes its state through a link (a repository could point it anywhere); remove it and start again",
            path.display()
        );
    }
    if !meta.is_dir() && !meta.is_file() {
        anyhow::bail!(
            "{} is not a regular file (a FIFO, socket or device would hang or misdirect the state); remove it and start again",
            path.display()
        );
    }
    if meta.is_dir() && depth > 0 {
        for entry in std::fs::read_dir(path)?.flatten() {
            refuse_links(&entry.path(), depth - 1)?;
        }
    }
    Ok(())
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn a_state_dir_is_refused_inside_the_root_however_its_path_gets_there() {
        let dir = tempfile::tempdir().unwrap();
        let top = dir.path().canonicalize().unwrap();
        let root = top.join("root");
        std::fs::create_dir(&root).unwrap();
        std::os::unix::fs::symlink(&root, top.join("link")).unwrap();
        for inside in ["root/state", "root/new/../state", "link/state"] {
            let err = state_dir_under(&top.join(inside), &root).unwrap_err();
            assert!(
                format!("{err:#}").contains("inside the root"),
                "{inside}: {err:#}"
            );
        }
        assert!(!root.join("state").exists() && !root.join("new").exists());
        let outside = state_dir_under(&top.join("root/new/../../outside"), &root).unwrap();
        assert!(
            outside.starts_with(top.join("outside")),
            "{}",
            outside.display()
        );
    }
    use serde_json::json;

    /// Options for a test root: the operator config and the journal key in `home`, outside it.
    pub(crate) fn options(root: &Path, home: &Path, config: &str) -> OpenOptions {
        let path = home.join("operator.toml");
        std::fs::write(
            &path,
            format!("cache_dir = {:?}\n{config}", home.join("cache")),
        )
        .unwrap();
        OpenOptions {
            root: root.into(),
            config: Some(path),
            builtin_plugins: None,
            embedded_plugins: &[],
            data_dir: Some(home.join("data")),
            ..OpenOptions::default()
        }
    }

    /// A call bound to another root acts there and only there: it reads that root's files,
    /// journals its edits in that root's store (and undoes them there), and reports that
    /// root's status; the runtime's first root sees none of it.
    #[test]
    fn a_call_bound_to_another_root_acts_in_that_root() {
        let api = tempfile::tempdir().unwrap();
        let web = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::write(api.path().join("api.py"), "def serve():\n    return 1\n").unwrap();
        std::fs::write(web.path().join("web.py"), "def render():\n    return 2\n").unwrap();
        let broken = b"%PDF-1.7\nnot a document\n";
        std::fs::write(web.path().join("broken.pdf"), broken).unwrap();
        let opts = options(api.path(), home.path(), "");
        let runtime = open(&opts).unwrap();
        let api_root = runtime.services().clone();
        let web_root = open_another_root(
            &runtime,
            &crate::roots::Spec {
                path: web.path().to_path_buf(),
                name: None,
                policy: crate::config::RootPolicy::ReadWrite,
            },
            &opts,
        )
        .unwrap();
        for root in [&api_root, &web_root] {
            root.index.update(false, None).unwrap();
        }
        // A parser's failure on a file of web is remembered in web's state, which web's full
        // rebuild forgets.
        let pdf = runtime
            .plugins()
            .into_iter()
            .find(|p| p.name == "pdf")
            .unwrap();
        let content = blake3::hash(broken).to_hex().to_string();
        assert!(
            web_root
                .index
                .parser_failure(&pdf.sha256, &content)
                .is_some()
        );
        assert!(
            api_root
                .index
                .parser_failure(&pdf.sha256, &content)
                .is_none()
        );
        let call = |root: &Arc<Services>, tool: &str, args: serde_json::Value| {
            let control = crate::tasks::Control::new();
            runtime.call_tool_in(root, tool, &args.to_string(), &control)
        };
        let read = json!({ "paths": ["web.py"], "view": "full" });
        let found = call(&web_root, "explore", read.clone()).unwrap();
        assert!(found.text.contains("def render"), "{}", found.text);
        let elsewhere = call(&api_root, "explore", read);
        assert!(
            elsewhere.as_ref().map_or(true, |o| o.is_failure()),
            "{elsewhere:?}"
        );
        let found = call(&web_root, "explore", json!({ "query": "render" })).unwrap();
        assert!(found.text.contains("web.py"), "{}", found.text);

        let edit = json!({
            "intent": "bump the value",
            "edits": [{ "filePath": "web.py", "targetString": "return 2", "replacementString": "return 3" }],
            "options": { "dryRun": false },
        });
        let applied = call(&web_root, "change", edit).unwrap();
        assert!(!applied.is_failure(), "{}", applied.text);
        assert!(
            std::fs::read_to_string(web.path().join("web.py"))
                .unwrap()
                .contains("return 3")
        );
        assert_eq!(web_root.store().transaction_count().unwrap(), 1);
        assert_eq!(api_root.store().transaction_count().unwrap(), 0);
        let undone = call(&web_root, "manage", json!({ "command": "undo" })).unwrap();
        assert!(!undone.is_failure(), "{}", undone.text);
        assert!(
            std::fs::read_to_string(web.path().join("web.py"))
                .unwrap()
                .contains("return 2")
        );
        let status = call(&web_root, "manage", json!({ "command": "status" })).unwrap();
        let web_path = web_root.workspace.root().display().to_string();
        assert!(
            status.structured.to_string().contains(&web_path),
            "{}",
            status.text
        );
    }

    #[test]
    fn open_prepares_state_and_finds_builtin_plugins() {
        let root = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let runtime = open(&options(root.path(), home.path(), "")).unwrap();
        assert_eq!(
            std::fs::read_to_string(root.path().join(".smart-context/.gitignore")).unwrap(),
            STATE_GITIGNORE
        );
        assert!(root.path().join(".smart-context/state.db").is_file());
        assert!(home.path().join("data/journal.key").is_file());
        let names: Vec<String> = runtime.tools().into_iter().map(|t| t.name).collect();
        assert_eq!(
            names,
            ["explore", "understand", "change", "write", "manage"]
        );
        assert!(runtime.rejected().is_empty(), "{:?}", runtime.rejected());
    }

    #[test]
    fn shipped_state_of_the_wrong_shape_is_set_aside_and_the_gitignore_is_ours() {
        let root = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let state = root.path().join(STATE_DIR);
        std::fs::create_dir_all(state.join("state.db/x")).unwrap();
        std::fs::write(state.join("index"), "not a directory").unwrap();
        std::fs::write(state.join(".gitignore"), "!*\n").unwrap();
        open(&options(root.path(), home.path(), "")).unwrap();
        assert!(state.join("state.db").is_file());
        assert!(state.join("index").is_dir());
        assert_eq!(
            std::fs::read_to_string(state.join(".gitignore")).unwrap(),
            STATE_GITIGNORE
        );
        // Set aside by type, then (unstamped, so not this user's) into the state's set-aside.
        let names = |dir: &Path| -> Vec<String> {
            std::fs::read_dir(dir)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .collect()
        };
        let shipped = names(&state)
            .into_iter()
            .find(|n| n.starts_with("set-aside-"))
            .expect("a set-aside directory");
        let aside: Vec<String> = names(&state.join(shipped))
            .into_iter()
            .filter(|n| n.contains(".set-aside-"))
            .collect();
        assert_eq!(aside.len(), 2, "{aside:?}");
    }

    #[test]
    fn no_place_for_the_journal_key_is_a_warning_not_a_failed_start() {
        let root = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        std::fs::write(home.path().join("not-a-dir"), "x").unwrap();
        let mut opts = options(root.path(), home.path(), "");
        opts.data_dir = Some(home.path().join("not-a-dir/smart-context"));
        assert!(open(&opts).is_ok());
    }

    #[test]
    fn a_bad_operator_config_is_a_startup_error() {
        let root = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let Err(err) = open(&options(root.path(), home.path(), "[limits]\nmemory = 1\n")) else {
            panic!("an unknown config key must fail startup");
        };
        assert!(format!("{err:#}").contains("memory"), "{err:#}");
    }

    #[cfg(unix)]
    #[test]
    fn state_behind_a_link_is_refused() {
        let root = tempfile::tempdir().unwrap();
        let home = tempfile::tempdir().unwrap();
        let elsewhere = tempfile::tempdir().unwrap();
        std::os::unix::fs::symlink(elsewhere.path(), root.path().join(STATE_DIR)).unwrap();
        let Err(err) = open(&options(root.path(), home.path(), "")) else {
            panic!("a linked state directory must be refused");
        };
        assert!(format!("{err:#}").contains("symbolic link"), "{err:#}");
        std::fs::remove_file(root.path().join(STATE_DIR)).unwrap();
        std::fs::create_dir(root.path().join(STATE_DIR)).unwrap();
        std::os::unix::fs::symlink(
            elsewhere.path().join("x.db"),
            root.path().join(".smart-context/state.db"),
        )
        .unwrap();
        assert!(open(&options(root.path(), home.path(), "")).is_err());
        assert_eq!(std::fs::read_dir(elsewhere.path()).unwrap().count(), 0);
        // A FIFO where the state's .gitignore goes would hang the start: refused instead.
        std::fs::remove_file(root.path().join(".smart-context/state.db")).unwrap();
        let fifo = std::ffi::CString::new(
            root.path()
                .join(".smart-context/.gitignore")
                .to_str()
                .unwrap(),
        )
        .unwrap();
        // SAFETY: mkfifo(3) on a path inside the test's own directory.
        assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
        let Err(err) = open(&options(root.path(), home.path(), "")) else {
            panic!("a FIFO in the state directory must be refused");
        };
        assert!(format!("{err:#}").contains("not a regular file"), "{err:#}");
    }
}
