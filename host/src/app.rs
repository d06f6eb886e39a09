//! Assembles a host for one workspace root: config, workspace capability, state store (with
//! crash recovery of pending transactions) and the plugin runtime.

use crate::config::Config;
use crate::runtime::{self, Runtime};
use crate::services::Services;
use crate::store::Store;
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
    let store = Store::open(&state_dir.join("state.db")).context("opening the state store")?;
    let services = Arc::new(Services {
        workspace,
        store: Mutex::new(store),
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
    Runtime::load(services, builtin.as_deref())
}

/// Creates `.smart-context/` with a `.gitignore` so the state never ends up in the user's VCS.
fn prepare_state_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let ignore = dir.join(".gitignore");
    if !ignore.exists() {
        std::fs::write(&ignore, "*\n").with_context(|| format!("writing {}", ignore.display()))?;
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
            "*\n"
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
