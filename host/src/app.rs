//! Assembles a host for one workspace root: config, workspace capability, state store (with
//! crash recovery of pending transactions) and the plugin runtime.

use crate::config::Config;
use crate::index::{DocumentParsers, Index};
use crate::runtime::{self, Runtime};
use crate::services::Services;
use crate::store::Store;
use crate::store::packs::{EvidenceSettings, Packs};
use crate::workspace::Workspace;
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// The host's state directory under the root.
pub const STATE_DIR: &str = ".smart-context";

/// How to open a host.
#[derive(Debug, Clone, Default)]
pub struct OpenOptions {
    pub root: PathBuf,
    pub config: Option<PathBuf>,
    /// Overrides where the built-in plugins are found.
    pub builtin_plugins: Option<PathBuf>,
}

pub fn open(options: &OpenOptions) -> Result<Arc<Runtime>> {
    let config = Config::load(&options.root, options.config.as_deref())?;
    let workspace = Workspace::open(&options.root)?;
    let state_dir = workspace.root().join(STATE_DIR);
    prepare_state_dir(&state_dir)?;
    let db = state_dir.join("state.db");
    let store = open_store(&db)?;
    let index = Index::open(&options.root, &state_dir, &db, config.index.clone())
        .context("opening the index")?;
    let services = Arc::new(Services {
        workspace,
        store: Mutex::new(store),
        index: Arc::new(index),
        packs: Packs::new(EvidenceSettings::from_env()),
        config,
    });
    match services.transactions().recover() {
        Ok(report) => report
            .iter()
            .for_each(|line| tracing::warn!("recovery: {line}")),
        Err(err) => tracing::error!("recovering pending transactions failed: {err}"),
    }
    let builtin = options
        .builtin_plugins
        .clone()
        .or_else(runtime::builtin_plugin_dir);
    if builtin.is_none() {
        tracing::warn!("no built-in plugin directory found; set SMART_CONTEXT_PLUGIN_DIR");
    }
    let runtime = Runtime::load(services, builtin.as_deref())?;
    let parsers: Arc<dyn DocumentParsers> = runtime.clone();
    runtime
        .services()
        .index
        .set_parsers(Arc::downgrade(&parsers));
    Ok(runtime)
}

/// Opens state.db; one SQLite cannot read (not a database, damaged) is set aside as
/// `state.db.corrupt-<ms>` with a warning and a new one is created, so the server still starts.
/// The transaction history in the damaged file is lost to undo, not deleted.
fn open_store(db: &Path) -> Result<Store> {
    match Store::open(db) {
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
            Store::open(db).context("creating a new state store")
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
/// templates too).
fn prepare_state_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let ignore = dir.join(".gitignore");
    let current = std::fs::read_to_string(&ignore).ok();
    if current.is_none() || current.as_deref() == Some("*\n") {
        std::fs::write(&ignore, STATE_GITIGNORE)
            .with_context(|| format!("writing {}", ignore.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_prepares_state_and_finds_builtin_plugins() {
        let root = tempfile::tempdir().unwrap();
        let cache = tempfile::tempdir().unwrap();
        std::fs::write(
            root.path().join("smart-context.toml"),
            format!("cache_dir = {:?}\n", cache.path()),
        )
        .unwrap();
        let runtime = open(&OpenOptions {
            root: root.path().into(),
            ..OpenOptions::default()
        })
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(root.path().join(".smart-context/.gitignore")).unwrap(),
            STATE_GITIGNORE
        );
        assert!(root.path().join(".smart-context/state.db").is_file());
        let names: Vec<String> = runtime.tools().into_iter().map(|t| t.name).collect();
        assert_eq!(
            names,
            ["explore", "understand", "change", "write", "manage"]
        );
        assert!(runtime.rejected().is_empty(), "{:?}", runtime.rejected());
    }

    #[test]
    fn a_bad_config_is_a_startup_error() {
        let root = tempfile::tempdir().unwrap();
        std::fs::write(
            root.path().join("smart-context.toml"),
            "[limits]\nmemory = 1\n",
        )
        .unwrap();
        let Err(err) = open(&OpenOptions {
            root: root.path().into(),
            ..OpenOptions::default()
        }) else {
            panic!("an unknown config key must fail startup");
        };
        assert!(format!("{err:#}").contains("memory"), "{err:#}");
    }
}
