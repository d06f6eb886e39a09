//! Churn from the repository's history (ADR-033 §5): how many recent commits changed each
//! file, the "where change concentrates" half of a hot spot. Read in process with gix (no
//! `git` subprocess, no hooks, no config outside the repository), bounded by a commit count
//! and a deadline, and kept per HEAD.
//!
//! The repository is untrusted input like the rest of the root: only a `.git` directory that
//! really is in the root is read (a link named `.git` is refused, as the path authority
//! refuses it for reads), a damaged history ends the walk where it breaks, and nothing here
//! writes.

use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// The window: at most this many commits, newest first, merges left out.
pub const MAX_COMMITS: usize = 1_000;
/// And at most this long reading them (the rest of the window is reported as not read).
pub const DEADLINE: Duration = Duration::from_secs(3);
/// A commit touching more files than this is a bulk change (a reformat, a vendored import, a
/// licence header): it says nothing about where a project's work concentrates.
pub const BULK_FILES: usize = 100;

/// What the history says of the files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// Commits of the window that changed each path (root-relative, `/`-separated).
    pub changes: HashMap<String, u32>,
    /// Commits read (merges and bulk changes not counted).
    pub commits: u32,
    /// The walk reached the end of the window (or of the history): no deadline passed and no
    /// damaged object stopped it.
    pub complete: bool,
}

/// Why there is no history to use: a short code for `reasons` and the words for a person.
#[derive(Debug, Clone, PartialEq)]
pub struct NoHistory {
    pub reason: &'static str,
    pub detail: String,
}

impl NoHistory {
    fn new(reason: &'static str, detail: impl Into<String>) -> Self {
        Self {
            reason,
            detail: detail.into(),
        }
    }
}

/// Reads the window of history below HEAD of the repository at `root`: per file, the
/// commits that changed it.
pub fn read(root: &Path, max_commits: usize, deadline: Duration) -> Result<History, NoHistory> {
    let repo = open(root)?;
    let head = head_of(&repo)?;
    read_below(repo, head, max_commits, deadline)
}

fn head_of(repo: &gix::Repository) -> Result<gix::ObjectId, NoHistory> {
    repo.head_id()
        .map(|id| id.detach())
        .map_err(|e| NoHistory::new("no_git_history", format!("no HEAD commit: {e}")))
}

fn read_below(
    mut repo: gix::Repository,
    head: gix::ObjectId,
    max_commits: usize,
    deadline: Duration,
) -> Result<History, NoHistory> {
    let started = Instant::now();
    repo.object_cache_size_if_unset(16 << 20);
    let walk = repo
        .rev_walk([head])
        .sorting(gix::revision::walk::Sorting::ByCommitTime(
            Default::default(),
        ))
        .all()
        .map_err(|e| NoHistory::new("git_history_unreadable", e.to_string()))?;
    let mut history = History {
        complete: true,
        ..History::default()
    };
    let mut state = gix::diff::tree::State::default();
    for info in walk.take(max_commits) {
        if started.elapsed() > deadline {
            history.complete = false;
            break;
        }
        // A broken object ends the walk: what was read so far still counts, as part of the
        // window.
        let Ok(info) = info else {
            history.complete = false;
            break;
        };
        let parents: Vec<_> = info.parent_ids().collect();
        if parents.len() > 1 {
            continue;
        }
        let changed = match changed_paths(
            &repo,
            info.id,
            parents.first().map(|p| p.detach()),
            &mut state,
        ) {
            Ok(Some(changed)) if !changed.is_empty() => changed,
            Ok(_) => continue,
            Err(_) => {
                history.complete = false;
                break;
            }
        };
        history.commits += 1;
        for path in changed {
            *history.changes.entry(path).or_default() += 1;
        }
    }
    Ok(history)
}

/// The repository at `root`, opened without the environment, the user's or the system's
/// configuration; only a real `.git` directory in the root.
fn open(root: &Path) -> Result<gix::Repository, NoHistory> {
    let dot_git = root.join(".git");
    match std::fs::symlink_metadata(&dot_git) {
        Err(_) => {
            return Err(NoHistory::new(
                "no_git_history",
                "the root has no .git directory",
            ));
        }
        Ok(m) if m.file_type().is_symlink() => {
            return Err(NoHistory::new(
                "git_link_refused",
                ".git is a symbolic link: history is read only from a .git directory in the root",
            ));
        }
        Ok(m) if !m.is_dir() => {
            return Err(NoHistory::new(
                "no_git_history",
                ".git is a file (a worktree or submodule pointer): history is read only from a .git directory in the root",
            ));
        }
        Ok(_) => {}
    }
    gix::open_opts(&dot_git, gix::open::Options::isolated())
        .map_err(|e| NoHistory::new("git_history_unreadable", e.to_string()))
}

/// The files (blobs and links) one commit changed against its first parent (against nothing
/// for a root commit); none for a bulk change. The diff stops at the first file past
/// [`BULK_FILES`], so a reformat, or a hostile commit with a huge tree, costs no more than a
/// commit of that size.
fn changed_paths(
    repo: &gix::Repository,
    commit: gix::ObjectId,
    parent: Option<gix::ObjectId>,
    state: &mut gix::diff::tree::State,
) -> Result<Option<Vec<String>>, Box<dyn std::error::Error + Send + Sync>> {
    let tree_of = |id: gix::ObjectId| -> Result<Vec<u8>, Box<dyn std::error::Error + Send + Sync>> {
        let commit = repo.find_commit(id)?;
        let tree = repo.find_tree(commit.tree_id()?)?;
        Ok(tree.data.clone())
    };
    let new = tree_of(commit)?;
    let old = match parent {
        Some(p) => tree_of(p)?,
        None => Vec::new(),
    };
    let mut files = Files::default();
    let kind = repo.object_hash();
    match gix::diff::tree(
        gix::objs::TreeRefIter::from_bytes(&old, kind),
        gix::objs::TreeRefIter::from_bytes(&new, kind),
        &mut *state,
        &repo.objects,
        &mut files,
    ) {
        Ok(()) => {}
        Err(gix::diff::tree::Error::Cancelled) => return Ok(None),
        Err(e) => return Err(e.into()),
    }
    use gix::diff::tree::recorder::Change;
    Ok(Some(
        files
            .recorder
            .records
            .into_iter()
            .filter_map(|change| match change {
                Change::Addition {
                    entry_mode, path, ..
                }
                | Change::Deletion {
                    entry_mode, path, ..
                }
                | Change::Modification {
                    entry_mode, path, ..
                } => (!entry_mode.is_tree()).then(|| String::from_utf8_lossy(&path).into_owned()),
            })
            .collect(),
    ))
}

/// gix's recorder of changes with their paths, cancelling the diff past [`BULK_FILES`] files.
#[derive(Default)]
struct Files {
    recorder: gix::diff::tree::Recorder,
    files: usize,
}

impl gix::diff::tree::Visit for Files {
    fn pop_front_tracked_path_and_set_current(&mut self) {
        self.recorder.pop_front_tracked_path_and_set_current();
    }

    fn push_back_tracked_path_component(&mut self, component: &gix::bstr::BStr) {
        self.recorder.push_back_tracked_path_component(component);
    }

    fn push_path_component(&mut self, component: &gix::bstr::BStr) {
        self.recorder.push_path_component(component);
    }

    fn pop_path_component(&mut self) {
        self.recorder.pop_path_component();
    }

    fn visit(&mut self, change: gix::diff::tree::visit::Change) -> gix::diff::tree::visit::Action {
        if !change.entry_mode().is_tree() {
            self.files += 1;
            if self.files > BULK_FILES {
                return std::ops::ControlFlow::Break(());
            }
        }
        self.recorder.visit(change)
    }
}

/// Per-root cache of [`read`], keyed by HEAD: a new commit reads the window again. (The
/// repository is opened again per call to read HEAD: gix's handle is `Send` only with its
/// `parallel` feature.)
#[derive(Default)]
pub struct Cache {
    kept: Option<(gix::ObjectId, std::sync::Arc<History>)>,
}

impl Cache {
    /// The history as of the current HEAD, read once per HEAD.
    pub fn get(&mut self, root: &Path) -> Result<std::sync::Arc<History>, NoHistory> {
        let repo = open(root)?;
        let head = head_of(&repo)?;
        if let Some((h, history)) = &self.kept
            && *h == head
        {
            return Ok(history.clone());
        }
        let started = Instant::now();
        let history = std::sync::Arc::new(read_below(repo, head, MAX_COMMITS, DEADLINE)?);
        tracing::debug!(
            commits = history.commits,
            files = history.changes.len(),
            complete = history.complete,
            ms = started.elapsed().as_millis(),
            "git history read for churn"
        );
        self.kept = Some((head, history.clone()));
        Ok(history)
    }
}
