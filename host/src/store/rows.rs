//! The rows replicas share: evidence packs and session memory, behind one interface with two
//! backends. SQLite ([`Store`](super::Store), state.db beside the index) is the zero-setup
//! default for one machine; PostgreSQL ([`super::postgres`], `[store] url`) lets several
//! `serve --http` replicas read each other's packs and memory. Every row is signed with the
//! journal key on write and checked on read in both, so a row the operator's key did not sign
//! is never served, whichever database held it.

use super::TxRecord;
use super::memory::{EventRow, ForgetFilter, NewEvent};
use super::packs::Pack;
use anyhow::Result;
use std::collections::HashMap;

/// Evidence pack rows. Pack ids are the pillars' own; each backend keys them with the
/// journal key, so a planted row cannot sit under an id a pillar will ask for.
pub trait PackRows: Send {
    /// The pack under `pack_id` if its rows verify; rows that do not are deleted and the
    /// pack is missing.
    fn load_pack(&self, pack_id: &str) -> Result<Option<Pack>>;
    /// (created, expires, salt) of the stored pack: whether a put updates it or replaces it.
    fn pack_stamp(&self, pack_id: &str) -> Result<Option<(u64, u64, String)>>;
    fn delete_pack(&self, pack_id: &str) -> Result<()>;
    /// Replaces the pack and its items, then prunes expired packs and all but the newest
    /// `keep`, atomically.
    fn save_pack(&mut self, pack: &Pack, now: u64, keep: u64) -> Result<()>;
    /// Records what the agent was shown of each (rank) item of `role`.
    fn mark_shown(&mut self, pack_id: &str, role: &str, shown: &[(u32, String)]) -> Result<()>;
    /// Packs stored, for status and tests.
    fn pack_count(&self) -> Result<u64>;
    /// Whether other servers write these rows too: a cache in front of them cannot know
    /// when they change, so it is not read.
    fn shared(&self) -> bool {
        false
    }

    /// Another handle on the same rows that callers may use at the same time as this one
    /// (a connection pool's), so no lock need be held across a round trip; None when the
    /// backend is one connection that callers must take turns on.
    fn handle(&self) -> Option<Box<dyn PackRows + Sync>> {
        None
    }
}

/// Session memory rows: events, the files each touched and the terms each is found by.
pub trait MemoryRows: Send {
    /// Stores events atomically; their sequence numbers, in order.
    fn insert_events(&mut self, events: &[NewEvent]) -> Result<Vec<i64>>;
    /// Events by sequence number, in the order asked; rows that do not verify are left out.
    fn memory_events(&self, seqs: &[i64]) -> Result<Vec<EventRow>>;
    /// Up to `limit` events holding any of `terms`, the likeliest first (the scorer in
    /// [`crate::memory`] ranks them again); `counts` (from [`Self::memory_term_counts`]) and
    /// `total` (from [`Self::memory_count`]) weigh the terms where the backend has no
    /// ranking of its own.
    fn memory_candidates(
        &self,
        terms: &[String],
        counts: &HashMap<String, u64>,
        total: u64,
        limit: usize,
    ) -> Result<Vec<i64>>;
    /// How many events hold each term (terms no event holds are left out).
    fn memory_term_counts(&self, terms: &[String]) -> Result<HashMap<String, u64>>;
    /// Events stored (verified or not: the denominator of document frequencies).
    fn memory_count(&self) -> Result<u64>;
    /// The events of `session` just before and after `seq` (at most `window` each side),
    /// with the event itself, oldest first.
    fn memory_window(&self, session: &str, seq: i64, window: u32) -> Result<Vec<EventRow>>;
    /// The turn around `seq`: the latest prompt of its session at or before it, and the
    /// events after that prompt up to the next one (at most `limit`).
    fn memory_turn(&self, session: &str, seq: i64, limit: u32) -> Result<(Option<i64>, Vec<i64>)>;
    /// Other events that touched one of `files`, newest first (at most `limit`); only edits
    /// (events with a transaction) when `edits_only`.
    fn memory_touching(
        &self,
        files: &[String],
        except: i64,
        limit: u32,
        edits_only: bool,
    ) -> Result<Vec<i64>>;
    /// Deletes the events `filter` selects, with their files and terms; how many went.
    fn forget_events(&mut self, filter: &ForgetFilter) -> Result<u64>;
    /// Keeps at most `max_events` (the newest) and none older than `max_age_ms` (0: no cap).
    fn prune_events(&mut self, max_events: u64, max_age_ms: u64, now_ms: u64) -> Result<u64>;
    /// Events, sessions, and the oldest and newest event time.
    fn memory_totals(&self) -> Result<(u64, u64, u64, u64)>;
    /// Changes whenever any writer (a hook process, another replica) changed the events:
    /// what the memory caches check before answering from memory.
    fn data_version(&self) -> Result<i64>;

    /// Another handle on the same rows for concurrent use (see [`PackRows::handle`]).
    fn handle(&self) -> Option<Box<dyn MemoryRows + Sync>> {
        None
    }
}

/// Rows to work on: the one connection, taken in turn, or a handle of a pool's own.
pub enum Turn<'a, T: ?Sized> {
    Locked(std::sync::MutexGuard<'a, Box<T>>),
    Own(Box<T>),
}

impl<T: ?Sized> std::ops::Deref for Turn<'_, T> {
    type Target = T;

    fn deref(&self) -> &T {
        match self {
            Turn::Locked(guard) => guard,
            Turn::Own(own) => own,
        }
    }
}

impl<T: ?Sized> std::ops::DerefMut for Turn<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        match self {
            Turn::Locked(guard) => guard,
            Turn::Own(own) => own,
        }
    }
}

/// The transaction journal: what makes edits undoable and crash-recoverable. Rows are
/// signed with the journal key; a row that does not verify is never replayed (loading it is
/// an [`Inauthentic`](super::Inauthentic) error).
pub trait JournalRows: Send {
    /// Journals a new transaction as pending, with every file's before and after content,
    /// before any file is touched.
    fn begin(&mut self, tx: &TxRecord) -> Result<()>;
    fn set_state(&self, id: &str, state: &str) -> Result<()>;
    /// Marks `new` applied and `original` `original_state` (undone, redone), atomically.
    fn finish_pair(&mut self, new: &str, original: &str, original_state: &str) -> Result<()>;
    /// The newest applied transaction that is not itself an undo (authentic rows only).
    fn latest_undoable(&self) -> Result<Option<String>>;
    /// The transaction undone most recently and not redone since (authentic rows only).
    fn latest_redoable(&self) -> Result<Option<String>>;
    /// The redo that applied `id` again, when `id` is redone (authentic rows only).
    fn redone_by(&self, id: &str) -> Result<Option<String>>;
    /// The transaction `id` with its files, checked against its MAC and hashes.
    fn load(&self, id: &str) -> Result<Option<TxRecord>>;
    /// Transactions journaled and not finished, oldest first.
    fn pending(&self) -> Result<Vec<String>>;
    /// Newest first, `limit` after skipping `offset`, with the paths each touched.
    fn history(&self, limit: u32, offset: u32) -> Result<Vec<(TxRecord, Vec<String>)>>;
    fn pending_count(&self) -> Result<u64>;
    fn transaction_count(&self) -> Result<u64>;
    /// Waits for the lock every writer of this root holds from its checks to its last write
    /// (other processes on this machine, or other replicas); released when the guard drops.
    fn edit_lock(&self) -> Result<EditLock>;
    /// Where the journal lives, for status: a path, or the team database without secrets.
    fn location(&self) -> String;
    fn schema_version(&self) -> Result<u32>;
}

/// A held edit lock; dropping it releases the lock.
pub struct EditLock(pub Box<dyn HeldLock>);

impl EditLock {
    /// Fails when the lock may have been lost since it was taken (its connection closed):
    /// a writer checks before each write and stops, so two writers never interleave.
    pub fn check(&self) -> Result<()> {
        self.0.check()
    }
}

/// What holds an edit lock.
pub trait HeldLock: Send {
    fn check(&self) -> Result<()> {
        Ok(())
    }
}

/// An `flock` lasts as long as its file is open in this process: it cannot be lost.
impl HeldLock for std::fs::File {}

/// Where packs and memory live for one root: each opens its own connection (SQLite) or
/// shares the process's pool (PostgreSQL).
pub trait RowsBackend: Send + Sync {
    fn packs(&self) -> Result<Box<dyn PackRows>>;
    fn memory(&self) -> Result<Box<dyn MemoryRows>>;
    /// Names the backend for status and logs, with no secret in it.
    fn describe(&self) -> String;
}

/// Packs and memory in state.db, each on its own connection: the single-machine default.
pub struct Sqlite {
    pub db: std::path::PathBuf,
    pub key: super::JournalKey,
}

impl RowsBackend for Sqlite {
    fn packs(&self) -> Result<Box<dyn PackRows>> {
        Ok(Box::new(super::Store::open(&self.db, self.key.clone())?))
    }

    fn memory(&self) -> Result<Box<dyn MemoryRows>> {
        Ok(Box::new(super::Store::open(&self.db, self.key.clone())?))
    }

    fn describe(&self) -> String {
        "SQLite (state.db)".into()
    }
}
