//! The host's SQLite state (`.smart-context/state.db`, WAL): numbered migrations, the
//! transaction journal that makes file edits undoable and crash-recoverable, and the evidence
//! packs explore keeps between calls.

pub mod journal_key;
pub mod memory;
mod migrations;
pub mod packs;
pub mod postgres;
pub mod provenance;
pub mod rows;

pub use journal_key::JournalKey;

/// The host's state directory under the root (the state database, the search index, the
/// journal), where every layer that keeps state finds it.
pub const STATE_DIR: &str = ".smart-context";

use anyhow::{Context, Result};
use rusqlite::{Connection, OptionalExtension, params};
use std::path::{Path, PathBuf};

pub use migrations::SCHEMA_VERSION;

/// Brings a bare connection to the current schema, for tests of tables other modules own.
#[cfg(test)]
pub fn migrate_for_tests(conn: &mut Connection) {
    migrations::run(conn).unwrap();
}

/// The steps of SQLite's plan for `sql` with `params`: what tests read to see that a lookup
/// uses the index or the range of keys it was written for.
#[cfg(test)]
pub fn query_plan(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Vec<String> {
    conn.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
        .unwrap()
        .query_map(params, |r| r.get::<_, String>(3))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Milliseconds since the Unix epoch: how every stored row stamps time.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

/// Transaction lifecycle states, as stored and as reported by history.
pub mod state {
    /// Journaled, files not yet (all) written. Startup recovery rolls these back.
    pub const PENDING: &str = "pending";
    pub const APPLIED: &str = "applied";
    /// Reverted by a later undo transaction.
    pub const UNDONE: &str = "undone";
    /// Undone, then applied again by a redo transaction.
    pub const REDONE: &str = "redone";
    /// Never took effect (a write failed, or the process died mid-way).
    pub const ROLLED_BACK: &str = "rolled-back";
}

/// One file of a journaled transaction: content before and after (None = absent).
#[derive(Debug, Clone, PartialEq)]
pub struct FileRecord {
    pub path: String,
    pub before: Option<Vec<u8>>,
    pub before_hash: Option<String>,
    pub after: Option<Vec<u8>>,
    pub after_hash: Option<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TxRecord {
    pub id: String,
    pub intent: String,
    pub state: String,
    pub created_ms: u64,
    /// The transaction this one undid, for undo transactions.
    pub undoes: Option<String>,
    /// The transaction this one applied again, for redo transactions.
    pub redoes: Option<String>,
    pub files: Vec<FileRecord>,
}

pub struct Store {
    conn: Connection,
    path: PathBuf,
    key: JournalKey,
}

/// state.db sits inside an untrusted root: whatever schema objects a hostile copy carries
/// (triggers that fire on our inserts, views calling functions) must not run. SQLite's
/// defensive mode and an untrusted schema stop that; any trigger or view is dropped, since this
/// host creates none.
pub fn harden(conn: &Connection) -> Result<()> {
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)?;
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA,
        false,
    )?;
    let foreign: Vec<(String, String)> = {
        let mut stmt =
            conn.prepare("SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view')")?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<rusqlite::Result<_>>()?
    };
    for (kind, name) in foreign {
        tracing::warn!("state.db carries a {kind} {name:?} this host never made; dropping it");
        let quoted = name.replace('"', "\"\"");
        conn.execute_batch(&format!(
            "DROP {} IF EXISTS \"{quoted}\"",
            kind.to_uppercase()
        ))?;
    }
    Ok(())
}

impl Store {
    /// Opens (creating and migrating) the database at `path`; journal rows are signed and
    /// checked with `key`.
    pub fn open(path: &Path, key: JournalKey) -> Result<Self> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        let mut conn =
            Connection::open(path).with_context(|| format!("opening {}", path.display()))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        harden(&conn)?;
        migrations::run(&mut conn)?;
        Ok(Self {
            conn,
            path: path.to_path_buf(),
            key,
        })
    }

    /// What a journal row's MAC covers: everything replay acts on.
    fn mac(&self, tx: &TxRecord) -> String {
        let fields = mac_fields(tx);
        self.key
            .mac(&fields.iter().map(Vec::as_slice).collect::<Vec<_>>())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn schema_version(&self) -> Result<u32> {
        Ok(self
            .conn
            .pragma_query_value(None, "user_version", |r| r.get(0))?)
    }

    /// Journals a new transaction as pending, with every file's before and after content,
    /// before any file is touched.
    pub fn begin(&mut self, tx: &TxRecord) -> Result<()> {
        let mac = self.mac(tx);
        let db = self.conn.transaction()?;
        db.execute(
            "INSERT INTO transactions (id, intent, state, created_ms, undoes, redoes, mac) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            params![tx.id, tx.intent, state::PENDING, tx.created_ms as i64, tx.undoes, tx.redoes, mac],
        )?;
        for (ord, f) in tx.files.iter().enumerate() {
            db.execute(
                "INSERT INTO transaction_files (tx_id, ord, path, before, before_hash, after, after_hash)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![tx.id, ord as i64, f.path, f.before, f.before_hash, f.after, f.after_hash],
            )?;
        }
        db.commit()?;
        Ok(())
    }

    pub fn set_state(&self, id: &str, state: &str) -> Result<()> {
        self.conn.execute(
            "UPDATE transactions SET state = ?2 WHERE id = ?1",
            params![id, state],
        )?;
        Ok(())
    }

    /// Marks `undo` applied and `original` undone, atomically.
    pub fn finish_undo(&mut self, undo: &str, original: &str) -> Result<()> {
        self.finish_pair(undo, original, state::UNDONE)
    }

    /// Marks `redo` applied and `original` redone, atomically.
    pub fn finish_redo(&mut self, redo: &str, original: &str) -> Result<()> {
        self.finish_pair(redo, original, state::REDONE)
    }

    pub fn finish_pair(&mut self, new: &str, original: &str, original_state: &str) -> Result<()> {
        let db = self.conn.transaction()?;
        db.execute(
            "UPDATE transactions SET state = ?2 WHERE id = ?1",
            params![new, state::APPLIED],
        )?;
        db.execute(
            "UPDATE transactions SET state = ?2 WHERE id = ?1",
            params![original, original_state],
        )?;
        db.commit()?;
        Ok(())
    }

    /// The transaction undone most recently and not redone since: what "redo" applies by
    /// default (authentic rows only).
    pub fn latest_redoable(&self) -> Result<Option<String>> {
        self.first_authentic(
            "SELECT x.id FROM transactions u JOIN transactions x ON x.id = u.undoes
             WHERE u.state = ?1 AND x.state = ?2
             ORDER BY u.created_ms DESC, u.rowid DESC LIMIT 50",
            [state::APPLIED, state::UNDONE],
        )
    }

    /// The first id the query yields whose row is signed with this key (checked on the hashes
    /// alone: the contents are read, and checked, when the caller loads it).
    fn first_authentic<P: rusqlite::Params>(&self, sql: &str, params: P) -> Result<Option<String>> {
        let mut stmt = self.conn.prepare(sql)?;
        let ids: Vec<String> = stmt
            .query_map(params, |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        for id in ids {
            if let Some((tx, mac)) = self.read(&id, false)?
                && self.signed(&tx, mac.as_deref())
            {
                return Ok(Some(id));
            }
        }
        Ok(None)
    }

    /// The transaction `id` with its files, checked: a row whose MAC does not verify (not
    /// written by this user's smart-context) or whose contents do not match their hashes is an
    /// error that says so, never replayable data.
    pub fn load(&self, id: &str) -> Result<Option<TxRecord>> {
        let Some((tx, mac)) = self.read(id, true)? else {
            return Ok(None);
        };
        if !authentic(&self.key, &tx, mac.as_deref()) {
            return Err(Inauthentic(tx.id).into());
        }
        Ok(Some(tx))
    }

    /// A transaction row, its files (with their contents, or only the hashes) and its MAC.
    fn read(&self, id: &str, contents: bool) -> Result<Option<(TxRecord, Option<String>)>> {
        let head = self
            .conn
            .query_row(
                "SELECT id, intent, state, created_ms, undoes, redoes, mac FROM transactions WHERE id = ?1",
                [id],
                |r| Ok((tx_head(r)?, r.get::<_, Option<String>>(6)?)),
            )
            .optional()?;
        let Some((mut tx, mac)) = head else {
            return Ok(None);
        };
        let mut stmt = self.conn.prepare(if contents {
            "SELECT path, before, before_hash, after, after_hash FROM transaction_files
             WHERE tx_id = ?1 ORDER BY ord"
        } else {
            "SELECT path, NULL, before_hash, NULL, after_hash FROM transaction_files
             WHERE tx_id = ?1 ORDER BY ord"
        })?;
        tx.files = stmt
            .query_map([id], |r| {
                Ok(FileRecord {
                    path: r.get(0)?,
                    before: r.get(1)?,
                    before_hash: r.get(2)?,
                    after: r.get(3)?,
                    after_hash: r.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(Some((tx, mac)))
    }

    /// Whether `mac` is this key's MAC of what `tx` says.
    fn signed(&self, tx: &TxRecord, mac: Option<&str>) -> bool {
        signed(&self.key, tx, mac)
    }

    /// The newest applied transaction that is not itself an undo: what "undo" reverts by default.
    /// The redo that applied `id` again, when `id` is redone (authentic rows only): where an
    /// agent's transaction id leads once its change was undone and redone.
    pub fn redone_by(&self, id: &str) -> Result<Option<String>> {
        self.first_authentic(
            "SELECT r.id FROM transactions r JOIN transactions x ON x.id = r.redoes
             WHERE r.redoes = ?1 AND x.state = ?2
             ORDER BY r.created_ms DESC, r.rowid DESC LIMIT 50",
            params![id, state::REDONE],
        )
    }

    pub fn latest_undoable(&self) -> Result<Option<String>> {
        self.first_authentic(
            "SELECT id FROM transactions WHERE state = ?1 AND undoes IS NULL
             ORDER BY created_ms DESC, rowid DESC LIMIT 50",
            [state::APPLIED],
        )
    }

    pub fn pending(&self) -> Result<Vec<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id FROM transactions WHERE state = ?1 ORDER BY rowid")?;
        let ids = stmt
            .query_map([state::PENDING], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(ids)
    }

    /// Newest first, `limit` after skipping `offset`: id, intent, state, time and the files
    /// touched.
    pub fn history(&self, limit: u32, offset: u32) -> Result<Vec<(TxRecord, Vec<String>)>> {
        let mut stmt = self.conn.prepare(
            "SELECT t.id, t.intent, t.state, t.created_ms, t.undoes, t.redoes,
                    (SELECT group_concat(path, char(10)) FROM
                        (SELECT path FROM transaction_files f WHERE f.tx_id = t.id ORDER BY ord))
             FROM transactions t ORDER BY t.created_ms DESC, t.rowid DESC LIMIT ?1 OFFSET ?2",
        )?;
        let rows = stmt
            .query_map([limit, offset], |r| {
                let files: Option<String> = r.get(6)?;
                Ok((
                    tx_head(r)?,
                    files
                        .map(|f| f.split('\n').map(str::to_string).collect())
                        .unwrap_or_default(),
                ))
            })?
            .collect::<rusqlite::Result<_>>()?;
        Ok(rows)
    }

    /// Transactions left pending (journaled, not finished): none outside a running apply.
    /// Whether a journal row or memory event here carries a MAC this store's key made: state
    /// this user's smart-context wrote (see [`provenance`]).
    pub fn has_signed_rows(&self) -> Result<bool> {
        let ids: Vec<String> = self
            .conn
            .prepare("SELECT id FROM transactions ORDER BY rowid DESC LIMIT 20")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        if ids
            .iter()
            .any(|id| self.load(id).is_ok_and(|tx| tx.is_some()))
        {
            return Ok(true);
        }
        let seqs: Vec<i64> = self
            .conn
            .prepare("SELECT seq FROM memory_events ORDER BY seq DESC LIMIT 20")?
            .query_map([], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        Ok(!rows::MemoryRows::memory_events(self, &seqs)?.is_empty())
    }

    pub fn pending_count(&self) -> Result<u64> {
        Ok(self.conn.query_row(
            "SELECT count(*) FROM transactions WHERE state = ?1",
            [state::PENDING],
            |r| r.get::<_, i64>(0),
        )? as u64)
    }

    pub fn transaction_count(&self) -> Result<u64> {
        Ok(self
            .conn
            .query_row("SELECT count(*) FROM transactions", [], |r| {
                r.get::<_, i64>(0)
            })? as u64)
    }
}

/// The edit lock beside state.db: every process serving the root from this state directory
/// takes it.
pub const EDIT_LOCK_FILE: &str = "edits.lock";

impl rows::JournalRows for Store {
    fn begin(&mut self, tx: &TxRecord) -> Result<()> {
        Store::begin(self, tx)
    }

    fn set_state(&self, id: &str, state: &str) -> Result<()> {
        Store::set_state(self, id, state)
    }

    fn finish_pair(&mut self, new: &str, original: &str, original_state: &str) -> Result<()> {
        Store::finish_pair(self, new, original, original_state)
    }

    fn latest_undoable(&self) -> Result<Option<String>> {
        Store::latest_undoable(self)
    }

    fn latest_redoable(&self) -> Result<Option<String>> {
        Store::latest_redoable(self)
    }

    fn redone_by(&self, id: &str) -> Result<Option<String>> {
        Store::redone_by(self, id)
    }

    fn load(&self, id: &str) -> Result<Option<TxRecord>> {
        Store::load(self, id)
    }

    fn pending(&self) -> Result<Vec<String>> {
        Store::pending(self)
    }

    fn history(&self, limit: u32, offset: u32) -> Result<Vec<(TxRecord, Vec<String>)>> {
        Store::history(self, limit, offset)
    }

    fn pending_count(&self) -> Result<u64> {
        Store::pending_count(self)
    }

    fn transaction_count(&self) -> Result<u64> {
        Store::transaction_count(self)
    }

    /// An exclusive `flock` on `edits.lock` next to state.db.
    fn edit_lock(&self) -> Result<rows::EditLock> {
        let path = self
            .path
            .parent()
            .map(|d| d.join(EDIT_LOCK_FILE))
            .unwrap_or_else(|| EDIT_LOCK_FILE.into());
        let file = std::fs::File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .and_then(|f| f.lock().map(|()| f))
            .with_context(|| format!("cannot take the edit lock {}", path.display()))?;
        Ok(rows::EditLock(Box::new(file)))
    }

    fn location(&self) -> String {
        self.path.display().to_string()
    }

    fn schema_version(&self) -> Result<u32> {
        Store::schema_version(self)
    }
}

/// A journal row that this user's smart-context did not write (or that was altered since).
#[derive(Debug, thiserror::Error)]
#[error(
    "journal entry {0} was not written by this user's smart-context (or was altered); it is never replayed"
)]
pub struct Inauthentic(pub String);

/// Whether `tx` (with its contents) is what `mac` signed with `key` and its contents match
/// their hashes: the check every journal backend makes before a row is replayed.
pub(crate) fn authentic(key: &JournalKey, tx: &TxRecord, mac: Option<&str>) -> bool {
    signed(key, tx, mac)
        && tx.files.iter().all(|f| {
            f.before.as_deref().map(crate::workspace::hash_bytes) == f.before_hash
                && f.after.as_deref().map(crate::workspace::hash_bytes) == f.after_hash
        })
}

/// Whether `mac` is `key`'s MAC of what `tx` says (its hashes, not its contents).
pub(crate) fn signed(key: &JournalKey, tx: &TxRecord, mac: Option<&str>) -> bool {
    let fields = mac_fields(tx);
    let fields: Vec<&[u8]> = fields.iter().map(Vec::as_slice).collect();
    mac.is_some_and(|mac| key.verify(&fields, mac))
}

/// The fields a journal MAC covers, in order: id, intent, creation time, undo / redo links,
/// then per file its path and before / after hashes (the contents are checked against those).
pub(crate) fn mac_fields(tx: &TxRecord) -> Vec<Vec<u8>> {
    let opt = |s: &Option<String>| {
        s.as_deref()
            .map_or(b"-".to_vec(), |s| format!("+{s}").into_bytes())
    };
    let mut fields = vec![
        tx.id.as_bytes().to_vec(),
        tx.intent.as_bytes().to_vec(),
        tx.created_ms.to_le_bytes().to_vec(),
        opt(&tx.undoes),
        opt(&tx.redoes),
    ];
    for f in &tx.files {
        fields.push(f.path.as_bytes().to_vec());
        fields.push(opt(&f.before_hash));
        fields.push(opt(&f.after_hash));
    }
    fields
}

/// A transaction row (columns id, intent, state, created_ms, undoes, redoes) without its files.
fn tx_head(r: &rusqlite::Row<'_>) -> rusqlite::Result<TxRecord> {
    Ok(TxRecord {
        id: r.get(0)?,
        intent: r.get(1)?,
        state: r.get(2)?,
        created_ms: r.get::<_, i64>(3)? as u64,
        undoes: r.get(4)?,
        redoes: r.get(5)?,
        files: Vec::new(),
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rows::JournalRows;

    pub fn test_key() -> JournalKey {
        JournalKey::from_bytes([7; 32])
    }

    fn record(id: &str, ms: u64) -> TxRecord {
        TxRecord {
            id: id.into(),
            intent: format!("intent {id}"),
            state: state::PENDING.into(),
            created_ms: ms,
            undoes: None,
            redoes: None,
            files: vec![FileRecord {
                path: "a.txt".into(),
                before: Some(b"old".to_vec()),
                before_hash: Some(crate::workspace::hash_bytes(b"old")),
                after: None,
                after_hash: None,
            }],
        }
    }

    #[test]
    fn journal_round_trip_and_history_order() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = Store::open(&dir.path().join("s/state.db"), test_key()).unwrap();
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
        store.begin(&record("t1", 10)).unwrap();
        store.begin(&record("t2", 20)).unwrap();
        assert_eq!(store.pending().unwrap(), ["t1", "t2"]);
        store.set_state("t1", state::APPLIED).unwrap();
        store.set_state("t2", state::APPLIED).unwrap();
        let loaded = store.load("t1").unwrap().unwrap();
        assert_eq!(loaded.files, record("t1", 10).files);
        assert_eq!(loaded.state, state::APPLIED);
        let history = store.history(10, 0).unwrap();
        assert_eq!(history[0].0.id, "t2");
        assert_eq!(history[0].1, ["a.txt"]);
        assert_eq!(store.latest_undoable().unwrap().as_deref(), Some("t2"));
        assert_eq!(store.transaction_count().unwrap(), 2);
    }

    #[test]
    fn reopening_keeps_data_and_version() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        Store::open(&path, test_key())
            .unwrap()
            .begin(&record("t1", 1))
            .unwrap();
        let store = Store::open(&path, test_key()).unwrap();
        assert_eq!(store.transaction_count().unwrap(), 1);
        assert_eq!(store.schema_version().unwrap(), SCHEMA_VERSION);
    }

    #[test]
    fn rows_from_another_key_or_altered_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let mut theirs = Store::open(&path, JournalKey::from_bytes([9; 32])).unwrap();
        theirs.begin(&record("forged", 1)).unwrap();
        theirs.set_state("forged", state::APPLIED).unwrap();
        drop(theirs);
        let mut ours = Store::open(&path, test_key()).unwrap();
        let err = ours.load("forged").unwrap_err();
        assert!(err.downcast_ref::<Inauthentic>().is_some(), "{err:#}");
        assert_eq!(ours.latest_undoable().unwrap(), None);
        ours.begin(&record("mine", 2)).unwrap();
        assert!(ours.load("mine").unwrap().is_some());
        ours.conn
            .execute(
                "UPDATE transaction_files SET path = '.git/config' WHERE tx_id = 'mine'",
                [],
            )
            .unwrap();
        assert!(ours.load("mine").is_err(), "an altered path breaks the MAC");
        ours.conn
            .execute(
                "UPDATE transaction_files SET path = 'a.txt', before = 'evil' WHERE tx_id = 'mine'",
                [],
            )
            .unwrap();
        assert!(ours.load("mine").is_err(), "content must match its hash");
    }

    /// A journal over one database under key `key` (another byte: another operator).
    pub(crate) type OpenJournal<'a> = &'a dyn Fn(u8) -> Box<dyn JournalRows>;

    /// What every journal backend must do, on an empty database; run over SQLite here and
    /// over PostgreSQL in `store::postgres`.
    pub(crate) fn journal_contract(open: OpenJournal, tamper: &dyn Fn(&str)) {
        let mut store = open(7);
        store.begin(&record("t1", 10)).unwrap();
        store.begin(&record("t2", 20)).unwrap();
        assert_eq!(store.pending().unwrap(), ["t1", "t2"]);
        assert_eq!(store.pending_count().unwrap(), 2);
        store.set_state("t1", state::APPLIED).unwrap();
        store.set_state("t2", state::APPLIED).unwrap();
        let other = open(7);
        let loaded = other.load("t1").unwrap().unwrap();
        assert_eq!(loaded.files, record("t1", 10).files);
        assert_eq!(loaded.state, state::APPLIED);
        let history = other.history(10, 0).unwrap();
        assert_eq!(history[0].0.id, "t2");
        assert_eq!(history[0].1, ["a.txt"]);
        assert_eq!(other.history(10, 1).unwrap()[0].0.id, "t1");
        assert_eq!(other.latest_undoable().unwrap().as_deref(), Some("t2"));
        assert_eq!(other.transaction_count().unwrap(), 2);

        // An undo and a redo, as Transactions records them.
        let mut undo = record("u1", 30);
        undo.undoes = Some("t2".into());
        store.begin(&undo).unwrap();
        store.finish_pair("u1", "t2", state::UNDONE).unwrap();
        assert_eq!(other.latest_undoable().unwrap().as_deref(), Some("t1"));
        assert_eq!(other.latest_redoable().unwrap().as_deref(), Some("t2"));
        let mut redo = record("r1", 40);
        redo.redoes = Some("t2".into());
        store.begin(&redo).unwrap();
        store.finish_pair("r1", "t2", state::REDONE).unwrap();
        assert_eq!(other.redone_by("t2").unwrap().as_deref(), Some("r1"));
        assert_eq!(other.latest_redoable().unwrap(), None);
        assert_eq!(other.pending().unwrap(), Vec::<String>::new());

        // Another key's rows are never replayed; altered rows are refused.
        let mut theirs = open(9);
        theirs.begin(&record("forged", 50)).unwrap();
        theirs.set_state("forged", state::APPLIED).unwrap();
        let err = other.load("forged").unwrap_err();
        assert!(err.downcast_ref::<Inauthentic>().is_some(), "{err:#}");
        assert_eq!(other.latest_undoable().unwrap().as_deref(), Some("r1"));
        store.begin(&record("mine", 60)).unwrap();
        assert!(other.load("mine").unwrap().is_some());
        tamper("UPDATE transaction_files SET path = '.git/config' WHERE tx_id = 'mine'");
        assert!(
            other.load("mine").is_err(),
            "an altered path breaks the MAC"
        );
        tamper("UPDATE transaction_files SET path = 'a.txt', before = 'evil' WHERE tx_id = 'mine'");
        assert!(other.load("mine").is_err(), "content must match its hash");

        // An intent with a NUL in it (an agent's text) is journaled and reads back signed.
        let mut nul = record("nul", 70);
        nul.intent = "fix\0it".into();
        store.begin(&nul).unwrap();
        assert!(other.load("nul").unwrap().is_some());

        // One writer at a time, across handles.
        let held = store.edit_lock().unwrap();
        let taken = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let waiter = {
            let taken = taken.clone();
            let second = open(7);
            std::thread::spawn(move || {
                let _lock = second.edit_lock().unwrap();
                taken.store(true, std::sync::atomic::Ordering::SeqCst);
            })
        };
        std::thread::sleep(std::time::Duration::from_millis(300));
        assert!(
            !taken.load(std::sync::atomic::Ordering::SeqCst),
            "a second writer waits"
        );
        drop(held);
        waiter.join().unwrap();
        assert!(taken.load(std::sync::atomic::Ordering::SeqCst));
        assert!(!other.location().is_empty());
    }

    #[test]
    fn sqlite_keeps_the_journal_contract() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("state.db");
        let open = |key: u8| -> Box<dyn JournalRows> {
            Box::new(Store::open(&db, JournalKey::from_bytes([key; 32])).unwrap())
        };
        let tamper = |sql: &str| {
            Store::open(&db, test_key())
                .unwrap()
                .conn
                .execute(sql, [])
                .unwrap();
        };
        journal_contract(&open, &tamper);
    }

    #[test]
    fn hostile_triggers_are_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        drop(Store::open(&path, test_key()).unwrap());
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(
            "CREATE TABLE loot (x); CREATE TRIGGER steal AFTER INSERT ON transactions BEGIN INSERT INTO loot VALUES (new.id); END;",
        )
        .unwrap();
        drop(conn);
        let mut store = Store::open(&path, test_key()).unwrap();
        store.begin(&record("t1", 1)).unwrap();
        let stolen: i64 = store
            .conn
            .query_row("SELECT count(*) FROM loot", [], |r| r.get(0))
            .unwrap();
        assert_eq!(stolen, 0);
    }
}
