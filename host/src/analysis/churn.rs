//! Churn from the repository's history (ADR-033 §5): how many recent commits changed each
//! file, the "where change concentrates" half of a hot spot. Read in process with gix (no
//! `git` subprocess, no hooks, no config outside the repository), bounded by a commit count
//! and a deadline, and kept per HEAD.
//!
//! Each commit's changed lines are also followed to HEAD's version of the file
//! ([`super::line_map`]), so churn can be charged to the functions whose lines changed rather
//! than to every function of a busy file.
//!
//! The repository is untrusted input like the rest of the root: only a `.git` directory that
//! really is in the root is read (a link named `.git` is refused, as the path authority
//! refuses it for reads), a damaged history ends the walk where it breaks, and nothing here
//! writes.

use super::line_map::{LineMap, Step};
use std::collections::HashMap;
use std::ops::Range;
use std::path::Path;
use std::time::{Duration, Instant};

/// The window: at most this many commits, newest first, merges left out.
pub const MAX_COMMITS: usize = 1_000;
/// And at most this long reading them (the rest of the window is reported as not read).
pub const DEADLINE: Duration = Duration::from_secs(3);
/// A commit touching more files than this is a bulk change (a reformat, a vendored import, a
/// licence header): it says nothing about where a project's work concentrates.
pub const BULK_FILES: usize = 100;
/// Blobs past this size (or with a NUL byte, binary) are not diffed: their commits stay
/// charged to the whole file.
const MAX_DIFF_BYTES: u64 = 1 << 20;
/// The share of the deadline line diffs may use; past it the rest of the window is read for
/// files only, and the history says it is partial.
const LINE_SHARE: f64 = 0.6;
/// The text line diffs may read in one walk: where line following stops is a matter of work,
/// not of time, so the same history gives the same churn on a busy machine as on a quiet
/// one (the deadline is only the safety net of a pathological history, and says so). A
/// thousand commits of a large Python project read well under a tenth of it.
const LINE_BUDGET_BYTES: u64 = 1 << 30;

/// What the history says of the files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// Commits of the window that changed each path (root-relative, `/`-separated).
    pub changes: HashMap<String, u32>,
    /// For the commits of `changes` whose changed lines could be followed to HEAD: per
    /// commit, the lines of HEAD's version they changed (1-based, inclusive; none when later
    /// commits replaced them all). The file's other commits are not known line by line.
    pub lines: HashMap<String, Vec<Vec<(u32, u32)>>>,
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
    read_with(root, max_commits, deadline, true)
}

/// [`read`], with the following of lines on or off (`lines` left empty): the file-level walk
/// alone is the baseline its cost is measured against.
pub fn read_with(
    root: &Path,
    max_commits: usize,
    deadline: Duration,
    follow_lines: bool,
) -> Result<History, NoHistory> {
    let repo = open(root)?;
    let head = head_of(&repo)?;
    read_below(repo, head, max_commits, deadline, follow_lines)
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
    follow_lines: bool,
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
    let mut follow = Follow::new(&repo, head);
    // Checked per file, not per commit: one commit of many large files could take long.
    let line_deadline = started + deadline.mul_f64(LINE_SHARE);
    let out_of_time = std::cell::Cell::new(false);
    let following = |follow: &Follow| {
        if !follow_lines || follow.spent >= LINE_BUDGET_BYTES {
            return false;
        }
        if Instant::now() >= line_deadline {
            out_of_time.set(true);
            return false;
        }
        true
    };
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
        // A merge is no work of its own, but its diffs against its parents carry lines that
        // older commits are followed through.
        let merge = parents.len() > 1;
        if merge {
            if following(&follow) {
                follow_merge(
                    &repo,
                    &mut follow,
                    info.id,
                    &parents,
                    &mut state,
                    &following,
                );
            }
            continue;
        }
        let changed = match changed_files(
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
        for file in changed {
            *history.changes.entry(file.path.clone()).or_default() += 1;
            if !is_code(&file.path) || !following(&follow) {
                continue;
            }
            if let Some(touched) = follow.commit(&repo, &file) {
                history.lines.entry(file.path).or_default().push(touched);
            }
        }
    }
    // Lines followed for part of the window by the clock, not by the budget: what a partial
    // history is, and says.
    if out_of_time.get() {
        history.complete = false;
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

/// Reaches each parent's versions of the code files a merge changed against its first parent
/// (a side branch's work is in those files; diffing against the side parent's whole tree
/// would also list everything the first parent did since the branch, at many times the cost).
fn follow_merge(
    repo: &gix::Repository,
    follow: &mut Follow,
    merge: gix::ObjectId,
    parents: &[gix::Id<'_>],
    state: &mut gix::diff::tree::State,
    following: &dyn Fn(&Follow) -> bool,
) {
    let Ok(Some(changed)) = changed_files(repo, merge, Some(parents[0].detach()), state) else {
        return;
    };
    let others: Vec<gix::Tree<'_>> = parents[1..]
        .iter()
        .filter_map(|p| repo.find_commit(p.detach()).ok()?.tree().ok())
        .collect();
    for file in changed.iter().filter(|f| is_code(&f.path)) {
        if !following(follow) {
            return;
        }
        follow.commit(repo, file);
        for tree in &others {
            let Some(entry) = tree.lookup_entry_by_path(&file.path).ok().flatten() else {
                continue;
            };
            let id = entry.object_id();
            if Some(id) != file.after {
                follow.commit(
                    repo,
                    &Changed {
                        path: file.path.clone(),
                        before: Some(id),
                        after: file.after,
                    },
                );
            }
        }
    }
}

/// One file (blob or link) a commit changed, with its blob before and after (none on the side
/// where it did not exist).
struct Changed {
    path: String,
    before: Option<gix::ObjectId>,
    after: Option<gix::ObjectId>,
}

/// The files one commit changed against its first parent (against nothing for a root
/// commit); none for a bulk change. The diff stops at the first file past [`BULK_FILES`], so
/// a reformat, or a hostile commit with a huge tree, costs no more than a commit of that size.
fn changed_files(
    repo: &gix::Repository,
    commit: gix::ObjectId,
    parent: Option<gix::ObjectId>,
    state: &mut gix::diff::tree::State,
) -> Result<Option<Vec<Changed>>, Box<dyn std::error::Error + Send + Sync>> {
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
            .filter_map(|change| {
                let (mode, path, before, after) = match change {
                    Change::Addition {
                        entry_mode,
                        oid,
                        path,
                        ..
                    } => (entry_mode, path, None, Some(oid)),
                    Change::Deletion {
                        entry_mode,
                        oid,
                        path,
                        ..
                    } => (entry_mode, path, Some(oid), None),
                    Change::Modification {
                        previous_oid,
                        entry_mode,
                        oid,
                        path,
                        ..
                    } => (entry_mode, path, Some(previous_oid), Some(oid)),
                };
                (!mode.is_tree()).then(|| Changed {
                    path: String::from_utf8_lossy(&path).into_owned(),
                    before,
                    after,
                })
            })
            .collect(),
    ))
}

/// Where each file's changed lines are in HEAD: per path, the versions (blobs) reached so
/// far, each with the map from its lines to HEAD's. Keyed by blob, a version a merge brought
/// in from a side branch is followed down that branch as well as the first parent's.
struct Follow {
    head_tree: Option<gix::ObjectId>,
    files: HashMap<String, HashMap<gix::ObjectId, LineMap>>,
    /// Per path, the older text of the last diff: mostly the next older commit's newer text,
    /// so most blobs are read and inflated once.
    last: HashMap<String, (gix::ObjectId, String)>,
    /// Bytes of text diffed so far (see [`LINE_BUDGET_BYTES`]).
    spent: u64,
}

impl Follow {
    fn new(repo: &gix::Repository, head: gix::ObjectId) -> Self {
        let head_tree = repo
            .find_commit(head)
            .ok()
            .and_then(|c| c.tree_id().ok())
            .map(|id| id.detach());
        Self {
            head_tree,
            files: HashMap::new(),
            last: HashMap::new(),
            spent: 0,
        }
    }

    /// HEAD's lines (1-based, inclusive) `file`'s commit changed, when the version it produced
    /// is one reached from HEAD; the version before it is then reached too. None when it is
    /// not (a file deleted since, a branch never merged, a change that could not be diffed):
    /// the commit is known for the file only.
    fn commit(&mut self, repo: &gix::Repository, file: &Changed) -> Option<Vec<(u32, u32)>> {
        if !self.files.contains_key(&file.path) {
            let start = self.start(repo, &file.path);
            self.files.insert(file.path.clone(), start);
        }
        let versions = self.files.get_mut(&file.path)?;
        let after_id = file.after?;
        let map = versions.get(&after_id)?;
        let after = match self.last.remove(&file.path) {
            Some((id, text)) if id == after_id => text,
            _ => text_of(repo, after_id)?,
        };
        let (changed, before): (Vec<Range<u32>>, _) = match file.before {
            // Added here: every line of it is this commit's, and nothing older is this file.
            None => (std::iter::once(0..line_count(&after)).collect(), None),
            Some(before) => {
                let before_text = text_of(repo, before)?;
                self.spent += (before_text.len() + after.len()) as u64;
                let steps = diff(&before_text, &after);
                self.last.insert(file.path.clone(), (before, before_text));
                let changed = steps
                    .iter()
                    .filter_map(|s| match s {
                        Step::Changed { new, .. } => Some(new.clone()),
                        Step::Kept { .. } => None,
                    })
                    .collect();
                (changed, Some((before, map.through(&steps))))
            }
        };
        let touched = inclusive_ranges(changed.into_iter().flat_map(|r| map.to_newest(r)));
        // A version two children came from keeps the first (newest) way to HEAD.
        if let Some((id, map)) = before {
            versions.entry(id).or_insert(map);
        }
        Some(touched)
    }

    /// HEAD's version of the file with its identity map (none when HEAD has no such file).
    fn start(&self, repo: &gix::Repository, path: &str) -> HashMap<gix::ObjectId, LineMap> {
        let mut versions = HashMap::new();
        let head = self.head_tree.and_then(|t| repo.find_tree(t).ok());
        if let Some(entry) = head.and_then(|t| t.lookup_entry_by_path(path).ok().flatten()) {
            let id = entry.object_id();
            if let Some(text) = text_of(repo, id) {
                versions.insert(id, LineMap::identity(line_count(&text)));
            }
        }
        versions
    }
}

/// Only code has functions to charge: a changelog or a lock file is not followed.
fn is_code(path: &str) -> bool {
    Path::new(path)
        .extension()
        .and_then(|e| e.to_str())
        .and_then(crate::index::code::Language::from_extension)
        .is_some()
}

/// A blob's text when it is small and not binary.
fn text_of(repo: &gix::Repository, id: gix::ObjectId) -> Option<String> {
    let header = repo.find_header(id).ok()?;
    if header.size() > MAX_DIFF_BYTES {
        return None;
    }
    let blob = repo.find_blob(id).ok()?.detach();
    if blob.data.contains(&0) {
        return None;
    }
    Some(
        String::from_utf8(blob.data)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
    )
}

/// Lines as the index counts them: a last line without a newline is a line.
fn line_count(text: &str) -> u32 {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    (newlines + usize::from(!text.is_empty() && !text.ends_with('\n'))) as u32
}

/// The line diff from `before` to `after` as steps (a deletion's `new` is the lines on
/// either side of where the deleted ones were).
fn diff(before: &str, after: &str) -> Vec<Step> {
    let diff = similar::TextDiff::configure()
        .deadline(Instant::now() + Duration::from_millis(100))
        .diff_lines(before, after);
    let span = |at: usize, len: usize| at as u32..(at + len) as u32;
    diff.ops()
        .iter()
        .map(|op| match *op {
            similar::DiffOp::Equal {
                old_index,
                new_index,
                len,
            } => Step::Kept {
                old: old_index as u32,
                new: new_index as u32,
                len: len as u32,
            },
            similar::DiffOp::Delete {
                old_index,
                old_len,
                new_index,
            } => Step::Changed {
                old: span(old_index, old_len),
                new: (new_index as u32).saturating_sub(1)..new_index as u32 + 1,
            },
            similar::DiffOp::Insert {
                old_index,
                new_index,
                new_len,
            } => Step::Changed {
                old: span(old_index, 0),
                new: span(new_index, new_len),
            },
            similar::DiffOp::Replace {
                old_index,
                old_len,
                new_index,
                new_len,
            } => Step::Changed {
                old: span(old_index, old_len),
                new: span(new_index, new_len),
            },
        })
        .collect()
}

/// 0-based ranges as sorted, merged 1-based inclusive pairs.
fn inclusive_ranges(ranges: impl Iterator<Item = Range<u32>>) -> Vec<(u32, u32)> {
    let mut all: Vec<Range<u32>> = ranges.filter(|r| r.start < r.end).collect();
    all.sort_by_key(|r| r.start);
    let mut out: Vec<(u32, u32)> = Vec::new();
    for r in all {
        match out.last_mut() {
            Some(last) if r.start <= last.1 => last.1 = last.1.max(r.end),
            _ => out.push((r.start + 1, r.end)),
        }
    }
    out
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
        let history = std::sync::Arc::new(read_below(repo, head, MAX_COMMITS, DEADLINE, true)?);
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
