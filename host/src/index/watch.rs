//! Keeping the index fresh while serving: a background pass at start, then a file watcher
//! whose events (debounced) trigger incremental passes. Our own state directory and .git are
//! ignored, so indexing never triggers itself.

use super::scan::EXCLUDED_DIRS;
use super::{Freshness, Index};
use crate::workspace::policy;
use notify::{EventKind, RecursiveMode, Watcher};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::time::Duration;

/// Quiet time after the last event before a pass starts: editors write in bursts.
const DEBOUNCE: Duration = Duration::from_millis(40);
/// How long after a cancelled pass the upkeep resumes.
const RESUME_AFTER: Duration = Duration::from_millis(500);

impl Index {
    /// Indexes in the background, then watches (when the config allows) until the process
    /// ends. Queries answer meanwhile, marked degraded while the first pass runs.
    /// A read-only index (another process owns it) waits for the owner's lock first, then
    /// does the same: a quick restart never leaves a server on a frozen index.
    pub fn start_background(self: &Arc<Self>) {
        let index = Arc::clone(self);
        let spawned = std::thread::Builder::new()
            .name("index".into())
            .spawn(move || {
                if index.is_read_only() && !index.take_over(true) {
                    return;
                }
                // One channel wakes the follow loop: the watcher's events, and the nudge a
                // cancelled pass leaves so its remaining work is picked up.
                let (tx, events) = mpsc::channel();
                *index.nudge.lock().unwrap_or_else(|p| p.into_inner()) = Some(tx.clone());
                let watcher = match index.settings.watch {
                    true => index.watch(tx),
                    false => None,
                };
                match index.update(false, None) {
                    Ok(report) => tracing::info!("{report}"),
                    Err(err) => tracing::error!("initial indexing failed: {err:#}"),
                }
                index.watching.store(watcher.is_some(), Ordering::Relaxed);
                let _watcher = watcher;
                index.follow(events);
            });
        if let Err(err) = spawned {
            tracing::error!("cannot start the indexing thread: {err}");
        }
    }

    /// Resumes the index's upkeep after a cancelled pass: after a moment (the caller asked
    /// to stop, not to keep a stale index), the follow loop runs an incremental pass that
    /// picks up what the cancelled one did not reach. Nothing to do without a follow loop
    /// (a one-shot command).
    pub(super) fn resume_later(&self) {
        let Some(tx) = self.nudge.lock().unwrap_or_else(|p| p.into_inner()).clone() else {
            return;
        };
        let spawned = std::thread::Builder::new()
            .name("index-resume".into())
            .spawn(move || {
                std::thread::sleep(RESUME_AFTER);
                let _ = tx.send(());
            });
        if let Err(err) = spawned {
            tracing::warn!("cannot schedule the index's resumption: {err}");
        }
    }

    fn watch(&self, tx: mpsc::Sender<()>) -> Option<notify::RecommendedWatcher> {
        let root = self.ws.root().to_path_buf();
        let handler = move |event: notify::Result<notify::Event>| {
            let Ok(event) = event else { return };
            if matches!(event.kind, EventKind::Access(_)) {
                return;
            }
            if event.paths.iter().any(|p| relevant(&root, p)) {
                let _ = tx.send(());
            }
        };
        let mut watcher = match notify::recommended_watcher(handler) {
            Ok(w) => w,
            Err(err) => {
                tracing::warn!("no file watcher ({err}); the index refreshes on restart only");
                return None;
            }
        };
        if let Err(err) = watcher.watch(self.ws.root(), RecursiveMode::Recursive) {
            tracing::warn!("cannot watch the root ({err}); the index refreshes on restart only");
            return None;
        }
        Some(watcher)
    }

    fn follow(&self, events: mpsc::Receiver<()>) {
        while events.recv().is_ok() {
            self.set_freshness(Freshness::Stale);
            while events.recv_timeout(DEBOUNCE).is_ok() {}
            match self.update(false, None) {
                Ok(report) if report.indexed_total() + report.removed > 0 => {
                    tracing::debug!("{report}")
                }
                Ok(_) => {}
                Err(err) => tracing::warn!("reindexing after a change failed: {err:#}"),
            }
        }
    }
}

/// Changes inside .git, our own state directory or an always-excluded directory (build
/// output, dependencies) cannot change the index, so they do not start a pass.
fn relevant(root: &Path, path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(root) else {
        return false;
    };
    !rel.components().any(|c| {
        let name = c.as_os_str();
        policy::is_skipped_dir_name(&name.to_string_lossy())
            || EXCLUDED_DIRS.iter().any(|d| name == *d)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_vcs_and_build_output_are_not_relevant() {
        let root = Path::new("/r");
        assert!(relevant(root, Path::new("/r/src/a.rs")));
        for ignored in [
            "/r/.smart-context/state.db-wal",
            "/r/.git/index",
            "/r/target/debug/x",
            "/r/web/node_modules/a/b.js",
            "/elsewhere/a.rs",
        ] {
            assert!(!relevant(root, Path::new(ignored)), "{ignored}");
        }
    }
}
