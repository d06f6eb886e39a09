//! What host functions reach: the workspace root, the state store, the code and document
//! index, the session memory and the operator's config.
//! One instance per workspace root, shared by every plugin call acting in that root.

use crate::config::Config;
use crate::index::Index;
use crate::store::packs::Packs;
use crate::store::rows::JournalRows;
use crate::workspace::Workspace;
use crate::workspace::transactions::Transactions;
use std::sync::{Arc, Mutex};

pub struct Services {
    pub workspace: Workspace,
    /// The transaction journal: state.db, or the team database.
    pub store: Mutex<Box<dyn JournalRows>>,
    pub index: Arc<Index>,
    /// The graphs over the index (call graph, dependencies, PageRank, hot spots).
    pub analysis: crate::analysis::Analysis,
    /// Evidence packs: an LRU in front of the store's tables, with the ADR-038 knobs.
    pub packs: Packs,
    /// Session memory: captured calls, notes and hook events, found again in three layers.
    pub memory: crate::memory::Memory,
    pub config: Config,
}

impl Services {
    pub fn transactions(&self) -> Transactions<'_> {
        Transactions {
            workspace: &self.workspace,
            store: &self.store,
        }
    }

    /// Locks the journal, recovering from a panic in another holder (the data is still
    /// valid: every write is a database transaction).
    pub fn store(&self) -> std::sync::MutexGuard<'_, Box<dyn JournalRows>> {
        self.store
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}
