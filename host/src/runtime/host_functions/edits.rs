//! `edits`: transactions (apply, undo, redo, history), journaled by the workspace.

use super::to_wit;
use crate::runtime::bindings::HostState;
use crate::runtime::bindings::pillar::smart_context::plugin::{edits, types};
use crate::services::Services;
use crate::workspace::{self as ws, transactions::Change};

impl edits::Host for HostState {
    fn apply(&mut self, tx: edits::Transaction) -> Result<edits::Receipt, types::Error> {
        let services = self.services()?;
        let changes = tx
            .changes
            .into_iter()
            .map(|c| Change {
                path: c.path,
                content: c.content,
                expected_hash: c.expected_hash,
                overwrite: c.overwrite,
            })
            .collect();
        let receipt = services
            .transactions()
            .apply(&tx.intent, changes)
            .map_err(to_wit)?;
        tracing::info!(plugin = &*self.plugin, transaction = %receipt.transaction_id, "applied: {}", tx.intent);
        refresh_index(services);
        let receipt = receipt_to_wit(receipt);
        for file in &receipt.files {
            self.wrote_path(&file.path);
        }
        Ok(receipt)
    }

    fn undo(&mut self, id: Option<String>) -> Result<edits::Receipt, types::Error> {
        let services = self.services()?;
        let receipt = services
            .transactions()
            .undo(id.as_deref())
            .map_err(to_wit)?;
        tracing::info!(plugin = &*self.plugin, transaction = %receipt.transaction_id, "undo applied");
        refresh_index(services);
        let receipt = receipt_to_wit(receipt);
        for file in &receipt.files {
            self.wrote_path(&file.path);
        }
        Ok(receipt)
    }

    fn redo(&mut self, id: Option<String>) -> Result<edits::Receipt, types::Error> {
        let services = self.services()?;
        let receipt = services
            .transactions()
            .redo(id.as_deref())
            .map_err(to_wit)?;
        tracing::info!(plugin = &*self.plugin, transaction = %receipt.transaction_id, "redo applied");
        refresh_index(services);
        let receipt = receipt_to_wit(receipt);
        for file in &receipt.files {
            self.wrote_path(&file.path);
        }
        Ok(receipt)
    }

    fn history(&mut self, limit: u32, offset: u32) -> edits::HistoryPage {
        let empty = edits::HistoryPage {
            entries: Vec::new(),
            total: 0,
        };
        let Ok(services) = self.services() else {
            return empty;
        };
        let store = services.store();
        let (history, total) = match (store.history(limit, offset), store.transaction_count()) {
            (Ok(h), Ok(t)) => (h, t),
            (Err(err), _) | (_, Err(err)) => {
                tracing::error!("reading history: {err:#}");
                return empty;
            }
        };
        edits::HistoryPage {
            entries: history
                .into_iter()
                .map(|(tx, files)| edits::HistoryEntry {
                    transaction_id: tx.id,
                    intent: tx.intent,
                    state: tx.state,
                    created_ms: tx.created_ms,
                    files,
                    undoes: tx.undoes,
                    redoes: tx.redoes,
                })
                .collect(),
            total,
        }
    }
}

/// Without a watcher nothing else notices our own writes: run an incremental pass in the
/// background so the next search sees them.
fn refresh_index(services: &Services) {
    let index = services.index.clone();
    if index.is_read_only() || index.is_watching() {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("index-refresh".into())
        .spawn(move || {
            if let Err(err) = index.update(false, None) {
                tracing::warn!("refreshing the index after an edit: {err:#}");
            }
        });
    if let Err(err) = spawned {
        tracing::warn!("cannot start an index refresh: {err}");
    }
}

pub(super) fn receipt_to_wit(r: ws::transactions::Receipt) -> edits::Receipt {
    edits::Receipt {
        transaction_id: r.transaction_id,
        files: r
            .files
            .into_iter()
            .map(|(path, before_hash, after_hash)| edits::FileReceipt {
                path,
                before_hash,
                after_hash,
            })
            .collect(),
    }
}
