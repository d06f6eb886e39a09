//! Atomic multi-file transactions over the workspace, journaled in the store: every change is
//! checked first (expected hashes, existence, policy), journaled with before and after content,
//! then written file by file; a failure part-way restores what was written. Startup recovery
//! rolls back transactions a crash left pending. Undo is a new transaction that restores the
//! before content, redo one that applies an undone transaction again; both are refused when a
//! file changed since. Every step holds the store's mutex and an exclusive lock on
//! `.smart-context/edits.lock`, so two processes serving one root never interleave checks and
//! writes, and a starting process never rolls back a transaction another one is writing.

use super::{Workspace, hash_bytes, secrets, view_edits, view_hash, view_of};
use crate::error::{HostError, HostResult, codes};
use crate::store::now_ms;
use crate::store::rows::{EditLock, JournalRows};
use crate::store::{FileRecord, TxRecord, state};
use serde_json::json;
use std::sync::{Mutex, MutexGuard};

/// The cross-process edit lock, next to state.db.
pub use crate::store::EDIT_LOCK_FILE as LOCK_FILE;

/// Largest file a transaction reads or writes.
pub const MAX_FILE_BYTES: usize = 64 << 20;

/// One requested change (mirrors the WIT `file-change`).
#[derive(Debug, Clone)]
pub struct Change {
    pub path: String,
    /// None deletes the file.
    pub content: Option<Vec<u8>>,
    /// The content the caller based its change on; None means the file must not exist yet.
    pub expected_hash: Option<String>,
    pub overwrite: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Receipt {
    pub transaction_id: String,
    pub files: Vec<(String, Option<String>, Option<String>)>,
}

/// Applies, undoes and recovers transactions. The store's mutex doubles as the edit lock, so
/// checks and writes of two clients never interleave: one wins, the other sees HASH_MISMATCH.
pub struct Transactions<'a> {
    pub workspace: &'a Workspace,
    pub store: &'a Mutex<Box<dyn JournalRows>>,
}

impl Transactions<'_> {
    pub fn apply(&self, intent: &str, changes: Vec<Change>) -> HostResult<Receipt> {
        let (mut store, lock) = self.lock()?;
        self.settle_orphans(&**store);
        let files = self.plan(changes)?;
        let tx = TxRecord {
            id: new_id(),
            intent: intent.to_string(),
            state: state::PENDING.into(),
            created_ms: now_ms(),
            undoes: None,
            redoes: None,
            files,
        };
        let receipt = self.run(&mut store, &lock, tx)?;
        store
            .set_state(&receipt.transaction_id, state::APPLIED)
            .map_err(store_error)?;
        Ok(receipt)
    }

    /// Reverts `id` (default: the latest applied transaction that is not an undo).
    pub fn undo(&self, id: Option<&str>) -> HostResult<Receipt> {
        self.replay(id, Direction::Undo)
    }

    /// Applies an undone transaction again (default: the one undone last).
    pub fn redo(&self, id: Option<&str>) -> HostResult<Receipt> {
        self.replay(id, Direction::Redo)
    }

    /// Undo or redo as a new transaction, then the original marked undone or redone.
    fn replay(&self, id: Option<&str>, direction: Direction) -> HostResult<Receipt> {
        let (mut store, lock) = self.lock()?;
        self.settle_orphans(&**store);
        let (verb, wanted, done) = match direction {
            Direction::Undo => ("undo", state::APPLIED, "undone"),
            Direction::Redo => ("redo", state::UNDONE, "redone"),
        };
        let id = match id {
            Some(id) => id.to_string(),
            None => {
                let latest = match direction {
                    Direction::Undo => store.latest_undoable(),
                    Direction::Redo => store.latest_redoable(),
                };
                latest.map_err(store_error)?.ok_or_else(|| {
                    HostError::new(codes::NOT_FOUND, format!("no transaction to {verb}")).suggest(
                        match direction {
                            Direction::Undo => "see manage command=history",
                            Direction::Redo => {
                                "redo applies a transaction again after manage command=undo"
                            }
                        },
                    )
                })?
            }
        };
        let asked = id;
        let id = self.carrier(&**store, &asked)?;
        let original = self.load(&**store, &id, wanted, done)?;
        let files = self.reversed(&original, direction)?;
        let (undoes, redoes) = match direction {
            Direction::Undo => (Some(id.clone()), None),
            Direction::Redo => (None, Some(id.clone())),
        };
        let intent = if id == asked {
            format!("{verb} {id}: {}", original.intent)
        } else {
            format!("{verb} {asked} (in effect as {id}): {}", original.intent)
        };
        let tx = TxRecord {
            id: new_id(),
            intent,
            state: state::PENDING.into(),
            created_ms: now_ms(),
            undoes,
            redoes,
            files,
        };
        let receipt = self.run(&mut store, &lock, tx)?;
        match direction {
            Direction::Undo => store.finish_pair(&receipt.transaction_id, &id, state::UNDONE),
            Direction::Redo => store.finish_pair(&receipt.transaction_id, &id, state::REDONE),
        }
        .map_err(store_error)?;
        Ok(receipt)
    }

    /// The transaction that carries `id`'s change now: `id` itself or, once it was undone and
    /// redone, its redo (followed again when that was undone and redone too). So the id an
    /// agent got for a change keeps naming that change through undo and redo.
    fn carrier(&self, store: &dyn JournalRows, id: &str) -> HostResult<String> {
        let mut current = id.to_string();
        for _ in 0..MAX_REDO_CHAIN {
            match store.redone_by(&current).map_err(store_error)? {
                Some(next) => current = next,
                None => break,
            }
        }
        Ok(current)
    }

    fn load(
        &self,
        store: &dyn JournalRows,
        id: &str,
        wanted: &str,
        verb: &str,
    ) -> HostResult<TxRecord> {
        let original = store.load(id).map_err(journal_error)?.ok_or_else(|| {
            HostError::new(codes::NOT_FOUND, format!("no transaction {id}"))
                .suggest("see manage command=history for transaction ids")
        })?;
        if original.state != wanted {
            return Err(HostError::new(
                codes::INVALID_ARGS,
                format!(
                    "transaction {id} is {}; only {wanted} transactions can be {verb}",
                    original.state
                ),
            )
            .suggest("see manage command=history for the state of each transaction"));
        }
        Ok(original)
    }

    /// The files of `original` going back (undo: after -> before) or forward again (redo:
    /// before -> after), refused with HASH_MISMATCH and a diff when a file is not where the
    /// journal left it.
    fn reversed(&self, original: &TxRecord, direction: Direction) -> HostResult<Vec<FileRecord>> {
        let mut files = Vec::new();
        for f in &original.files {
            let (from, from_hash, to, to_hash) = match direction {
                Direction::Undo => (&f.after, &f.after_hash, &f.before, &f.before_hash),
                Direction::Redo => (&f.before, &f.before_hash, &f.after, &f.after_hash),
            };
            let path = self.workspace.check_write(&f.path)?;
            let current = self.workspace.snapshot(&path, MAX_FILE_BYTES as u64)?;
            let current_hash = current.as_ref().map(|(_, h)| h.clone());
            if current_hash != *from_hash {
                // Told as the agent sees files: views and their hashes.
                let shown = |bytes: Option<&[u8]>| {
                    bytes.map_or_else(String::new, |b| {
                        String::from_utf8_lossy(&view_of(b).0).into_owned()
                    })
                };
                let expected = shown(from.as_deref());
                let actual = shown(current.as_ref().map(|(b, _)| &b[..]));
                let diff = similar::TextDiff::from_lines(expected.as_str(), actual.as_str())
                    .unified_diff()
                    .context_radius(3)
                    .header(
                        &format!("a/{} (journal)", f.path),
                        &format!("b/{} (now)", f.path),
                    )
                    .to_string();
                let verb = match direction {
                    Direction::Undo => "undo",
                    Direction::Redo => "redo",
                };
                return Err(HostError::new(
                    codes::HASH_MISMATCH,
                    format!(
                        "{} changed since transaction {}; {verb} would lose that change",
                        f.path, original.id
                    ),
                )
                .suggest("the diff shows what changed; revert it by hand with change, or undo the later transaction first")
                .details(json!({
                    "path": f.path,
                    "expected": from.as_deref().map(view_hash),
                    "actual": current.as_ref().map(|(b, _)| view_hash(b)),
                    "diff": crate::text::clip(&diff, DIFF_CHARS),
                })));
            }
            files.push(FileRecord {
                path: f.path.clone(),
                before: from.clone(),
                before_hash: from_hash.clone(),
                after: to.clone(),
                after_hash: to_hash.clone(),
            });
        }
        Ok(files)
    }

    /// Rolls back every transaction left pending by a crash: a file still at its after (or
    /// before) content gets its before content back; one changed by someone else is left alone
    /// and reported. Only authentic journal rows are replayed (state.db ships with the
    /// repository, so a row this user's smart-context did not sign is set aside), and only to
    /// paths the write policy allows today. Returns what was recovered, for the log.
    pub fn recover(&self) -> HostResult<Vec<String>> {
        let (store, _lock) = self.lock()?;
        self.recover_locked(&**store)
    }

    /// [`Transactions::recover`] with the edit lock held. A transaction still pending while
    /// the lock is free has no writer any more (a writer holds the lock until it marks its
    /// transaction applied or rolled back), so every apply, undo and redo rolls such rows back
    /// first, not only a start: a pending row left by a replica that died (or lost its lock)
    /// must not revert, at the next start, a change the same client made again since.
    fn recover_locked(&self, store: &dyn JournalRows) -> HostResult<Vec<String>> {
        let mut report = Vec::new();
        if self.workspace.is_read_only() {
            // Nothing is written in a read-only root, so nothing is rolled back either: the
            // transactions stay pending for a process that may write here.
            for id in store.pending().map_err(store_error)? {
                report.push(format!(
                    "{id}: left pending (the root is read-only); serve it read-write to roll it back"
                ));
            }
            return Ok(report);
        }
        for id in store.pending().map_err(store_error)? {
            let tx = match store.load(&id) {
                Ok(Some(tx)) => tx,
                Ok(None) => continue,
                Err(err) => {
                    report.push(format!(
                        "{id}: {err:#}; marked rolled back, nothing written"
                    ));
                    store
                        .set_state(&id, state::ROLLED_BACK)
                        .map_err(store_error)?;
                    continue;
                }
            };
            for f in tx.files.iter().rev() {
                let path = match self.workspace.check_write(&f.path) {
                    Ok(path) => path,
                    Err(err) => {
                        report.push(format!(
                            "{id}: {} is not writable ({err}); left as is",
                            f.path
                        ));
                        continue;
                    }
                };
                self.workspace.remove_temp_files(&path);
                let current = self
                    .workspace
                    .snapshot(&path, MAX_FILE_BYTES as u64)?
                    .map(|(_, h)| h);
                if current == f.before_hash {
                    continue;
                }
                if current != f.after_hash {
                    report.push(format!("{id}: {path} changed by someone else; left as is"));
                    continue;
                }
                self.write(&path, f.before.as_deref())
                    .map_err(|e| HostError::io(&path, &e))?;
            }
            store
                .set_state(&id, state::ROLLED_BACK)
                .map_err(store_error)?;
            report.push(format!("{id}: rolled back ({})", tx.intent));
        }
        Ok(report)
    }

    /// Rolls back transactions left pending by a writer that is gone (see
    /// [`Transactions::recover_locked`]) before a new one plans against the files; what it
    /// did is logged, and a failure leaves them for the next writer or start.
    fn settle_orphans(&self, store: &dyn JournalRows) {
        if store.pending_count().unwrap_or(0) == 0 {
            return;
        }
        match self.recover_locked(store) {
            Ok(report) => report
                .iter()
                .for_each(|line| tracing::warn!("recovery: {line}")),
            Err(err) => tracing::error!("recovering pending transactions failed: {err}"),
        }
    }

    /// Validates every change against policy and the files as they are now, before anything
    /// is journaled or written.
    fn plan(&self, changes: Vec<Change>) -> HostResult<Vec<FileRecord>> {
        if changes.is_empty() {
            return Err(HostError::new(
                codes::INVALID_ARGS,
                "a transaction needs at least one change",
            ));
        }
        let mut files: Vec<FileRecord> = Vec::new();
        for change in changes {
            let path = self.workspace.check_write(&change.path)?;
            if files.iter().any(|f| f.path == path) {
                return Err(HostError::new(
                    codes::INVALID_ARGS,
                    format!("{path} appears twice in one transaction"),
                )
                .suggest("combine the edits of one file into one change"));
            }
            if change
                .content
                .as_ref()
                .is_some_and(|c| c.len() > MAX_FILE_BYTES)
            {
                return Err(HostError::new(
                    codes::TOO_LARGE,
                    format!("new content of {path} is over {MAX_FILE_BYTES} bytes"),
                ));
            }
            let current = self.workspace.snapshot(&path, MAX_FILE_BYTES as u64)?;
            // The caller saw the view (and its hash): compare with that, and carry content
            // written against it back onto the raw file.
            let current_view = current.as_ref().map(|(bytes, _)| view_of(bytes));
            let current_hash = current_view.as_ref().map(|(view, _)| hash_bytes(view));
            let content = match (change.content, &current, &current_view) {
                (Some(new), Some((raw, _)), Some((view, spans)))
                    if change.expected_hash.is_some() && !spans.is_empty() =>
                {
                    Some(view_edits::carry_back(raw, spans, view, &new))
                }
                (content, _, _) => content,
            };
            if let Some(content) = &content {
                refuse_redaction_markers(&path, content, current.as_ref().map(|(b, _)| &b[..]))?;
            }
            match (&change.expected_hash, &current_hash) {
                (Some(expected), actual) if Some(expected) != actual.as_ref() => {
                    return Err(HostError::new(
                        codes::HASH_MISMATCH,
                        format!("{path} changed since it was read"),
                    )
                    .suggest("read the file again and redo the edit against its current content")
                    .details(json!({ "path": path, "expected": expected, "actual": actual })));
                }
                (None, Some(_)) if !change.overwrite => {
                    return Err(HostError::new(
                        codes::ALREADY_EXISTS,
                        format!("{path} already exists"),
                    )
                    .suggest("pass overwrite, or edit the file with its current hash"));
                }
                _ => {}
            }
            if content.is_none() && current.is_none() {
                return Err(HostError::new(
                    codes::FILE_NOT_FOUND,
                    format!("{path} does not exist; nothing to delete"),
                ));
            }
            let after_hash = content.as_deref().map(hash_bytes);
            let (before, before_hash) = match current {
                Some((bytes, hash)) => (Some(bytes), Some(hash)),
                None => (None, None),
            };
            files.push(FileRecord {
                path,
                before,
                before_hash,
                after: content,
                after_hash,
            });
        }
        Ok(files)
    }

    /// Journals `tx` as pending and writes its files; on a failed write restores the files
    /// already written and marks it rolled back. The caller marks success (an undo marks its
    /// original undone in the same SQLite transaction).
    fn run(
        &self,
        store: &mut Box<dyn JournalRows>,
        lock: &EditLock,
        tx: TxRecord,
    ) -> HostResult<Receipt> {
        store.begin(&tx).map_err(store_error)?;
        let crash_after = fault_after_writes();
        for (done, f) in tx.files.iter().enumerate() {
            if crash_after == Some(done) {
                std::process::abort();
            }
            // A lock lost since it was taken (the team database's connection gone) may be
            // another replica's by now: stop before writing under it.
            let written = lock
                .check()
                .map_err(|e| std::io::Error::other(format!("the edit lock was lost ({e:#})")))
                .and_then(|()| self.write(&f.path, f.after.as_deref()));
            if let Err(err) = written {
                for undo in tx.files[..done].iter().rev() {
                    // Only a file still as this transaction left it: after a lost lock,
                    // another writer may have changed it since.
                    let current = self
                        .workspace
                        .snapshot(&undo.path, MAX_FILE_BYTES as u64)
                        .ok()
                        .map(|s| s.map(|(_, h)| h));
                    if current.as_ref() != Some(&undo.after_hash) {
                        tracing::warn!(path = %undo.path, "changed since this transaction wrote it; left as is");
                        continue;
                    }
                    if let Err(e) = self.write(&undo.path, undo.before.as_deref()) {
                        tracing::error!(path = %undo.path, "restoring after a failed transaction: {e}");
                    }
                }
                let _ = store.set_state(&tx.id, state::ROLLED_BACK);
                return Err(HostError::new(
                    codes::WRITE_FAILED,
                    format!("writing {} failed ({err}); no file was changed", f.path),
                ));
            }
        }
        if crash_after == Some(tx.files.len()) {
            std::process::abort();
        }
        Ok(Receipt {
            transaction_id: tx.id,
            files: tx
                .files
                .into_iter()
                // Hashes as reads report them: of the views.
                .map(|f| {
                    let before = f.before.as_deref().map(view_hash);
                    let after = f.after.as_deref().map(view_hash);
                    (f.path, before, after)
                })
                .collect(),
        })
    }

    fn write(&self, path: &str, content: Option<&[u8]>) -> std::io::Result<()> {
        match content {
            Some(bytes) => self.workspace.write_atomic(path, bytes),
            None => match self.workspace.remove(path) {
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
                other => other,
            },
        }
    }

    /// The journal (this process's edit lock) and the journal's edit lock (every process's
    /// on this state directory, or every replica's in team mode).
    fn lock(&self) -> HostResult<(MutexGuard<'_, Box<dyn JournalRows>>, EditLock)> {
        let store = self
            .store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let lock = store.edit_lock().map_err(|e| {
            HostError::new(codes::STORE_ERROR, format!("{e:#}")).suggest(
                "nothing was written; retry (the lock lives with the journal, where manage command=status says; another writer may hold it for longer than a call waits)",
            )
        })?;
        Ok((store, lock))
    }
}

#[derive(Clone, Copy)]
enum Direction {
    Undo,
    Redo,
}

/// Undo/redo rounds followed from an id to the transaction that carries its change now.
const MAX_REDO_CHAIN: usize = 64;

/// Largest diff an undo or redo refusal carries.
const DIFF_CHARS: usize = 8_000;

fn store_error(err: anyhow::Error) -> HostError {
    HostError::new(codes::STORE_ERROR, format!("state database: {err:#}"))
}

/// A journal read that failed because the row is not authentic is a refusal, not a fault.
fn journal_error(err: anyhow::Error) -> HostError {
    if err.downcast_ref::<crate::store::Inauthentic>().is_some() {
        return HostError::new(codes::ACCESS_DENIED, format!("{err:#}")).suggest(
            "see manage command=history; only transactions made here can be undone or redone",
        );
    }
    store_error(err)
}

/// The secret guard hides values in what the agent reads; content that carries more of its
/// markers than the file has would write the marker over the real secret. Refused, so a
/// rewrite of a whole file the agent saw redacted cannot destroy what it never saw.
fn refuse_redaction_markers(path: &str, content: &[u8], current: Option<&[u8]>) -> HostResult<()> {
    let count = |bytes: &[u8]| secrets::markers(&String::from_utf8_lossy(bytes));
    let new = count(content);
    if new > 0 && new > current.map_or(0, count) {
        return Err(HostError::new(
            codes::INVALID_ARGS,
            format!(
                "the new content of {path} carries {new} {} marker(s): values the secret guard hid from you; writing them would replace the real secrets",
                secrets::MARKER
            ),
        )
        .suggest("edit around those lines with change (targets that do not include them), or leave the values to a human"));
    }
    Ok(())
}

/// Fault injection for the crash-consistency tests: with `SMART_CONTEXT_FAULT_AFTER_WRITES=N`
/// the process aborts after journaling a transaction and writing N of its files (N = the
/// file count: after the last write, before the journal says applied). Never set it in use.
fn fault_after_writes() -> Option<usize> {
    std::env::var("SMART_CONTEXT_FAULT_AFTER_WRITES")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// `tx-` plus time and randomness: sortable by eye, unique across processes.
fn new_id() -> String {
    let rand = uuid::Uuid::new_v4().simple().to_string();
    format!("tx-{}-{}", now_ms(), &rand[..8])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    struct Fixture {
        dir: tempfile::TempDir,
        ws: Workspace,
        store: Mutex<Box<dyn JournalRows>>,
    }

    impl Fixture {
        fn new() -> Self {
            let dir = tempfile::tempdir().unwrap();
            std::fs::write(dir.path().join("a.txt"), "one\n").unwrap();
            let ws = Workspace::open(dir.path()).unwrap();
            let store: Box<dyn JournalRows> = Box::new(
                Store::open(
                    &dir.path().join(".smart-context/state.db"),
                    crate::store::JournalKey::from_bytes([7; 32]),
                )
                .unwrap(),
            );
            Self {
                dir,
                ws,
                store: Mutex::new(store),
            }
        }
        fn tx(&self) -> Transactions<'_> {
            Transactions {
                workspace: &self.ws,
                store: &self.store,
            }
        }
        fn read(&self, p: &str) -> Option<String> {
            std::fs::read_to_string(self.dir.path().join(p)).ok()
        }
    }

    fn edit(path: &str, content: &str, expected: Option<String>) -> Change {
        Change {
            path: path.into(),
            content: Some(content.into()),
            expected_hash: expected,
            overwrite: false,
        }
    }

    #[test]
    fn apply_and_undo_are_byte_exact() {
        let f = Fixture::new();
        let h = hash_bytes(b"one\n");
        let r = f
            .tx()
            .apply(
                "edit",
                vec![
                    edit("a.txt", "two\n", Some(h)),
                    edit("new/b.txt", "b", None),
                ],
            )
            .unwrap();
        assert_eq!(f.read("a.txt").as_deref(), Some("two\n"));
        assert_eq!(f.read("new/b.txt").as_deref(), Some("b"));
        let u = f.tx().undo(None).unwrap();
        assert_ne!(u.transaction_id, r.transaction_id);
        assert_eq!(f.read("a.txt").as_deref(), Some("one\n"));
        assert_eq!(f.read("new/b.txt"), None);
        let history = f.store.lock().unwrap().history(10, 0).unwrap();
        assert_eq!(
            history[0].0.undoes.as_deref(),
            Some(r.transaction_id.as_str())
        );
        assert_eq!(history[1].0.state, state::UNDONE);
        assert_eq!(f.tx().undo(None).unwrap_err().code, codes::NOT_FOUND);
    }

    #[test]
    fn redo_reapplies_and_refuses_after_a_later_change() {
        let f = Fixture::new();
        let h = hash_bytes(b"one\n");
        let r = f
            .tx()
            .apply("edit", vec![edit("a.txt", "two\n", Some(h))])
            .unwrap();
        f.tx().undo(None).unwrap();
        let redo = f.tx().redo(None).unwrap();
        assert_eq!(f.read("a.txt").as_deref(), Some("two\n"));
        let original = f
            .store
            .lock()
            .unwrap()
            .load(&r.transaction_id)
            .unwrap()
            .unwrap();
        assert_eq!(original.state, state::REDONE);
        assert_eq!(f.tx().redo(None).unwrap_err().code, codes::NOT_FOUND);
        // The redo is an ordinary applied transaction: undo takes it back.
        let undo = f.tx().undo(None).unwrap();
        assert_eq!(f.read("a.txt").as_deref(), Some("one\n"));
        std::fs::write(f.dir.path().join("a.txt"), "three\n").unwrap();
        let err = f.tx().redo(Some(&redo.transaction_id)).unwrap_err();
        assert_eq!(err.code, codes::HASH_MISMATCH);
        assert!(
            err.details.unwrap()["diff"]
                .as_str()
                .unwrap()
                .contains("+three")
        );
        assert_ne!(undo.transaction_id, redo.transaction_id);
    }

    /// The agent holds one id for one change: after undo and redo, undo and redo with that id
    /// act on the change wherever it lives now, and history says so.
    #[test]
    fn the_original_id_follows_its_change_through_undo_and_redo() {
        let f = Fixture::new();
        let r = f
            .tx()
            .apply(
                "edit",
                vec![edit("a.txt", "two\n", Some(hash_bytes(b"one\n")))],
            )
            .unwrap();
        let id = r.transaction_id.as_str();
        f.tx().undo(Some(id)).unwrap();
        let redo = f.tx().redo(Some(id)).unwrap();
        assert_eq!(f.read("a.txt").as_deref(), Some("two\n"));
        let undo = f.tx().undo(Some(id)).unwrap();
        assert_eq!(f.read("a.txt").as_deref(), Some("one\n"));
        let store = f.store.lock().unwrap();
        let undo_row = store.load(&undo.transaction_id).unwrap().unwrap();
        assert_eq!(
            undo_row.undoes.as_deref(),
            Some(redo.transaction_id.as_str())
        );
        assert!(
            undo_row
                .intent
                .starts_with(&format!("undo {id} (in effect as {}", redo.transaction_id)),
            "{}",
            undo_row.intent
        );
        drop(store);
        // Redo by the original id again, twice over the chain.
        f.tx().redo(Some(id)).unwrap();
        assert_eq!(f.read("a.txt").as_deref(), Some("two\n"));
        f.tx().undo(Some(id)).unwrap();
        assert_eq!(f.read("a.txt").as_deref(), Some("one\n"));
        // Undoing what is already undone is refused, naming the state.
        let err = f.tx().undo(Some(id)).unwrap_err();
        assert_eq!(err.code, codes::INVALID_ARGS);
        assert!(err.message.contains("undone"), "{}", err.message);
    }

    #[test]
    fn stale_hash_fails_the_whole_transaction() {
        let f = Fixture::new();
        let err = f
            .tx()
            .apply(
                "x",
                vec![
                    edit("new.txt", "n", None),
                    edit("a.txt", "two\n", Some("stale".into())),
                ],
            )
            .unwrap_err();
        assert_eq!(err.code, codes::HASH_MISMATCH);
        assert_eq!(f.read("new.txt"), None);
        assert_eq!(f.read("a.txt").as_deref(), Some("one\n"));
    }

    #[test]
    fn undo_refuses_when_file_changed_since() {
        let f = Fixture::new();
        f.tx()
            .apply(
                "e",
                vec![edit("a.txt", "two\n", Some(hash_bytes(b"one\n")))],
            )
            .unwrap();
        std::fs::write(f.dir.path().join("a.txt"), "someone else\n").unwrap();
        assert_eq!(f.tx().undo(None).unwrap_err().code, codes::HASH_MISMATCH);
        assert_eq!(f.read("a.txt").as_deref(), Some("someone else\n"));
    }

    #[test]
    fn policy_refuses_protected_sensitive_and_existing() {
        let f = Fixture::new();
        for (path, code) in [
            ("smart-context.toml", codes::ACCESS_DENIED),
            (".smart-context/state.db", codes::ACCESS_DENIED),
            (".env", codes::SENSITIVE_BLOCKED),
            ("../out.txt", codes::ACCESS_DENIED),
            ("a.txt", codes::ALREADY_EXISTS),
        ] {
            assert_eq!(
                f.tx()
                    .apply("x", vec![edit(path, "x", None)])
                    .unwrap_err()
                    .code,
                code,
                "{path}"
            );
        }
    }

    #[test]
    fn recovery_rolls_back_a_half_applied_transaction() {
        let f = Fixture::new();
        // Journal a transaction and apply only its first file, as a crash would leave it.
        let tx = TxRecord {
            id: "tx-crash".into(),
            intent: "crash".into(),
            state: state::PENDING.into(),
            created_ms: 1,
            undoes: None,
            redoes: None,
            files: vec![
                FileRecord {
                    path: "a.txt".into(),
                    before: Some(b"one\n".to_vec()),
                    before_hash: Some(hash_bytes(b"one\n")),
                    after: Some(b"two\n".to_vec()),
                    after_hash: Some(hash_bytes(b"two\n")),
                },
                FileRecord {
                    path: "c.txt".into(),
                    before: None,
                    before_hash: None,
                    after: Some(b"c".to_vec()),
                    after_hash: Some(hash_bytes(b"c")),
                },
            ],
        };
        f.store.lock().unwrap().begin(&tx).unwrap();
        f.ws.write_atomic("a.txt", b"two\n").unwrap();
        // In a root the operator made read-only, nothing is rolled back, nothing is lost.
        f.ws.set_read_only(true);
        let report = f.tx().recover().unwrap();
        assert!(report[0].contains("left pending"), "{report:?}");
        assert_eq!(f.read("a.txt").as_deref(), Some("two\n"));
        let state = |f: &Fixture| {
            let store = f.store.lock().unwrap();
            store.load("tx-crash").unwrap().unwrap().state
        };
        assert_eq!(state(&f), state::PENDING);
        f.ws.set_read_only(false);
        let report = f.tx().recover().unwrap();
        assert_eq!(report.len(), 1, "{report:?}");
        assert_eq!(f.read("a.txt").as_deref(), Some("one\n"));
        assert_eq!(f.read("c.txt"), None);
        assert_eq!(
            f.store
                .lock()
                .unwrap()
                .load("tx-crash")
                .unwrap()
                .unwrap()
                .state,
            state::ROLLED_BACK
        );
    }

    #[test]
    fn recovery_never_replays_a_forged_row() {
        let f = Fixture::new();
        std::fs::create_dir_all(f.dir.path().join(".git")).unwrap();
        std::fs::write(f.dir.path().join(".git/config"), "[core]\n").unwrap();
        let evil = b"[core]\n\tfsmonitor = touch pwned\n".to_vec();
        let forged = TxRecord {
            id: "tx-evil".into(),
            intent: "innocent".into(),
            state: state::PENDING.into(),
            created_ms: 1,
            undoes: None,
            redoes: None,
            files: vec![FileRecord {
                path: ".git/config".into(),
                before: Some(evil.clone()),
                before_hash: Some(hash_bytes(&evil)),
                after: Some(b"[core]\n".to_vec()),
                after_hash: Some(hash_bytes(b"[core]\n")),
            }],
        };
        // Written with another key, as a repository shipping its own state.db would.
        let db = f.dir.path().join(".smart-context/state.db");
        let mut theirs = Store::open(&db, crate::store::JournalKey::from_bytes([1; 32])).unwrap();
        theirs.begin(&forged).unwrap();
        drop(theirs);
        let report = f.tx().recover().unwrap();
        assert!(report[0].contains("never replayed"), "{report:?}");
        assert_eq!(
            std::fs::read_to_string(f.dir.path().join(".git/config")).unwrap(),
            "[core]\n"
        );
        // Signed with our key but naming a protected path: the write policy still refuses.
        let mut signed = forged.clone();
        signed.id = "tx-signed".into();
        f.store.lock().unwrap().begin(&signed).unwrap();
        let report = f.tx().recover().unwrap();
        assert!(
            report.iter().any(|l| l.contains("not writable")),
            "{report:?}"
        );
        assert_eq!(
            std::fs::read_to_string(f.dir.path().join(".git/config")).unwrap(),
            "[core]\n"
        );
    }

    #[test]
    fn content_with_redaction_markers_is_refused() {
        let f = Fixture::new();
        let err = f
            .tx()
            .apply(
                "rewrite",
                vec![edit(
                    "a.txt",
                    "key = [REDACTED:assignment]\n",
                    Some(hash_bytes(b"one\n")),
                )],
            )
            .unwrap_err();
        assert_eq!(err.code, codes::INVALID_ARGS, "{err}");
        assert_eq!(f.read("a.txt").as_deref(), Some("one\n"));
    }

    #[test]
    fn edits_made_against_the_view_keep_the_values_it_hid() {
        let f = Fixture::new();
        let token = "ghp_abcdefghijklmnopqrstuvwxyz0123456789";
        let raw = format!("a = 1\nauth = \"{token}\"\nb = 2\n");
        std::fs::write(f.dir.path().join("c.py"), &raw).unwrap();
        let (view, _) = view_of(raw.as_bytes());
        let view = String::from_utf8(view.into_owned()).unwrap();
        assert!(!view.contains(token));
        // The raw file's hash is not what the caller was shown: stale.
        let stale = f
            .tx()
            .apply(
                "x",
                vec![edit("c.py", "a = 2\n", Some(hash_bytes(raw.as_bytes())))],
            )
            .unwrap_err();
        assert_eq!(stale.code, codes::HASH_MISMATCH);
        let edited = view.replace("a = 1", "a = 2").replace("b = 2", "b = 3");
        let receipt = f
            .tx()
            .apply(
                "x",
                vec![edit("c.py", &edited, Some(hash_bytes(view.as_bytes())))],
            )
            .unwrap();
        let now = f.read("c.py").unwrap();
        assert_eq!(now, format!("a = 2\nauth = \"{token}\"\nb = 3\n"));
        // The receipt's hash is the new view's, which a later read reports.
        assert_eq!(receipt.files[0].2, Some(view_hash(now.as_bytes())));
        // Dropping the line drops the value; undo brings it back byte for byte.
        let after = view_of(now.as_bytes()).0.into_owned();
        let without = String::from_utf8(after.clone())
            .unwrap()
            .replace("auth = \"[REDACTED:github-token]\"\n", "");
        f.tx()
            .apply(
                "drop",
                vec![edit("c.py", &without, Some(hash_bytes(&after)))],
            )
            .unwrap();
        assert_eq!(f.read("c.py").unwrap(), "a = 2\nb = 3\n");
        f.tx().undo(None).unwrap();
        assert_eq!(f.read("c.py").unwrap(), now);
    }

    #[cfg(unix)]
    #[test]
    fn writes_and_undo_never_go_through_links() {
        let f = Fixture::new();
        std::fs::write(f.dir.path().join(".env"), "TOKEN=1\n").unwrap();
        std::os::unix::fs::symlink(".", f.dir.path().join("self")).unwrap();
        let err = f
            .tx()
            .apply(
                "x",
                vec![edit("self/a.txt", "x", Some(hash_bytes(b"one\n")))],
            )
            .unwrap_err();
        assert_eq!(err.code, codes::ACCESS_DENIED);
        f.tx()
            .apply(
                "e",
                vec![edit("a.txt", "two\n", Some(hash_bytes(b"one\n")))],
            )
            .unwrap();
        std::fs::remove_file(f.dir.path().join("a.txt")).unwrap();
        std::os::unix::fs::symlink(".env", f.dir.path().join("a.txt")).unwrap();
        let err = f.tx().undo(None).unwrap_err();
        assert_eq!(err.code, codes::ACCESS_DENIED, "{err}");
        assert!(
            !format!("{err:?}").contains("TOKEN"),
            "no diff of the secret: {err:?}"
        );
    }

    #[test]
    fn a_transaction_left_pending_never_reverts_the_same_change_made_again() {
        let f = Fixture::new();
        // A writer that died (or lost its lock) after journaling a.txt "one" -> "two", before
        // writing it.
        let orphan = TxRecord {
            id: "tx-orphan".into(),
            intent: "died".into(),
            state: state::PENDING.into(),
            created_ms: 1,
            undoes: None,
            redoes: None,
            files: vec![FileRecord {
                path: "a.txt".into(),
                before: Some(b"one\n".to_vec()),
                before_hash: Some(hash_bytes(b"one\n")),
                after: Some(b"two\n".to_vec()),
                after_hash: Some(hash_bytes(b"two\n")),
            }],
        };
        f.store.lock().unwrap().begin(&orphan).unwrap();
        // The client retries the same change: it applies, and the orphan is settled first.
        f.tx()
            .apply(
                "again",
                vec![edit("a.txt", "two\n", Some(hash_bytes(b"one\n")))],
            )
            .unwrap();
        assert_eq!(f.store.lock().unwrap().pending_count().unwrap(), 0);
        // A later start's recovery finds nothing to undo.
        assert!(f.tx().recover().unwrap().is_empty());
        assert_eq!(f.read("a.txt").as_deref(), Some("two\n"));
    }

    /// The journal of [`Fixture`] with an edit lock that is lost after `keep` checks.
    struct LosesLock {
        inner: Store,
        keep: usize,
    }

    struct Flaky(std::sync::Arc<std::sync::atomic::AtomicUsize>, usize);

    impl crate::store::rows::HeldLock for Flaky {
        fn check(&self) -> anyhow::Result<()> {
            let n = self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            anyhow::ensure!(n < self.1, "its connection to PostgreSQL closed");
            Ok(())
        }
    }

    impl JournalRows for LosesLock {
        fn begin(&mut self, tx: &TxRecord) -> anyhow::Result<()> {
            self.inner.begin(tx)
        }
        fn set_state(&self, id: &str, state: &str) -> anyhow::Result<()> {
            self.inner.set_state(id, state)
        }
        fn finish_pair(&mut self, new: &str, original: &str, state: &str) -> anyhow::Result<()> {
            self.inner.finish_pair(new, original, state)
        }
        fn latest_undoable(&self) -> anyhow::Result<Option<String>> {
            self.inner.latest_undoable()
        }
        fn latest_redoable(&self) -> anyhow::Result<Option<String>> {
            self.inner.latest_redoable()
        }
        fn redone_by(&self, id: &str) -> anyhow::Result<Option<String>> {
            self.inner.redone_by(id)
        }
        fn load(&self, id: &str) -> anyhow::Result<Option<TxRecord>> {
            self.inner.load(id)
        }
        fn pending(&self) -> anyhow::Result<Vec<String>> {
            self.inner.pending()
        }
        fn history(&self, limit: u32, offset: u32) -> anyhow::Result<Vec<(TxRecord, Vec<String>)>> {
            self.inner.history(limit, offset)
        }
        fn pending_count(&self) -> anyhow::Result<u64> {
            self.inner.pending_count()
        }
        fn transaction_count(&self) -> anyhow::Result<u64> {
            self.inner.transaction_count()
        }
        fn edit_lock(&self) -> anyhow::Result<EditLock> {
            Ok(EditLock(Box::new(Flaky(Default::default(), self.keep))))
        }
        fn location(&self) -> String {
            self.inner.location()
        }
        fn schema_version(&self) -> anyhow::Result<u32> {
            self.inner.schema_version()
        }
    }

    #[test]
    fn a_lock_lost_mid_transaction_stops_the_writes_and_puts_back_what_was_written() {
        let f = Fixture::new();
        std::fs::write(f.dir.path().join("b.txt"), "bee\n").unwrap();
        let store: Box<dyn JournalRows> = Box::new(LosesLock {
            inner: Store::open(
                &f.dir.path().join(".smart-context/state.db"),
                crate::store::JournalKey::from_bytes([7; 32]),
            )
            .unwrap(),
            keep: 1,
        });
        let store = Mutex::new(store);
        let tx = Transactions {
            workspace: &f.ws,
            store: &store,
        };
        let err = tx
            .apply(
                "two files",
                vec![
                    edit("a.txt", "A\n", Some(hash_bytes(b"one\n"))),
                    edit("b.txt", "B\n", Some(hash_bytes(b"bee\n"))),
                ],
            )
            .unwrap_err();
        assert_eq!(err.code, codes::WRITE_FAILED, "{err}");
        assert!(err.message.contains("edit lock was lost"), "{err}");
        assert_eq!(f.read("a.txt").as_deref(), Some("one\n"), "put back");
        assert_eq!(f.read("b.txt").as_deref(), Some("bee\n"), "never written");
        let history = store.lock().unwrap().history(1, 0).unwrap();
        assert_eq!(history[0].0.state, state::ROLLED_BACK);
    }
}
