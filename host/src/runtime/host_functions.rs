//! The host functions plugins import, each a thin mapping from WIT records to the workspace,
//! index, store or runtime, with failures returned as WIT `error` values.

use super::bindings::HostState;
use super::bindings::pillar::smart_context::plugin::{edits, index, log, status, types, workspace};
use crate::error::{HostError, codes};
use crate::index::{outline, search};
use crate::services::Services;
use crate::workspace::{self as ws, transactions::Change};

impl HostState {
    fn services(&self) -> Result<&Services, types::Error> {
        self.runtime
            .as_deref()
            .map(|r| r.services.as_ref())
            .ok_or_else(|| {
                to_wit(HostError::new(
                    codes::INTERNAL,
                    "host services are not available while plugins load",
                ))
            })
    }
}

/// A host error as the WIT record.
pub fn to_wit(err: HostError) -> types::Error {
    types::Error {
        code: err.code,
        message: err.message,
        suggestion: err.suggestion,
        details_json: err.details.map(|d| d.to_string()),
    }
}

/// A WIT error record (from a plugin) as a host error.
pub fn from_wit(err: types::Error) -> HostError {
    HostError {
        code: err.code,
        message: err.message,
        suggestion: err.suggestion,
        details: err
            .details_json
            .map(|raw| serde_json::from_str(&raw).unwrap_or(serde_json::Value::String(raw))),
    }
}

impl types::Host for HostState {}

impl log::Host for HostState {
    fn log(&mut self, level: log::Level, message: String) {
        if !self.may_log() {
            return;
        }
        let message: String = message.chars().take(4_096).collect();
        let plugin = &*self.plugin;
        match level {
            log::Level::Trace => tracing::trace!(plugin, "{message}"),
            log::Level::Debug => tracing::debug!(plugin, "{message}"),
            log::Level::Info => tracing::info!(plugin, "{message}"),
            log::Level::Warn => tracing::warn!(plugin, "{message}"),
            log::Level::Error => tracing::error!(plugin, "{message}"),
        }
    }
}

impl workspace::Host for HostState {
    fn stat(&mut self, path: String) -> Result<workspace::Entry, types::Error> {
        let services = self.services()?;
        services.workspace.stat(&path).map(entry).map_err(to_wit)
    }

    fn read(
        &mut self,
        path: String,
        options: workspace::ReadOptions,
    ) -> Result<workspace::FileContent, types::Error> {
        let services = self.services()?;
        let options = ws::ReadOptions {
            max_bytes: options.max_bytes,
            allow_sensitive: options.allow_sensitive,
            allow_binary: options.allow_binary,
            allow_truncate: options.allow_truncate,
        };
        let file = services.workspace.read(&path, options).map_err(to_wit)?;
        Ok(workspace::FileContent {
            bytes: file.bytes,
            hash: file.hash,
            size: file.size,
            binary: file.binary,
            truncated: file.truncated,
        })
    }

    fn list_dir(&mut self, path: String) -> Result<Vec<workspace::Entry>, types::Error> {
        let services = self.services()?;
        Ok(services
            .workspace
            .list(&path)
            .map_err(to_wit)?
            .into_iter()
            .map(entry)
            .collect())
    }
}

fn entry(e: ws::Entry) -> workspace::Entry {
    workspace::Entry {
        path: e.path,
        kind: match e.kind {
            ws::EntryKind::File => workspace::EntryKind::File,
            ws::EntryKind::Directory => workspace::EntryKind::Directory,
            ws::EntryKind::Symlink => workspace::EntryKind::Symlink,
            ws::EntryKind::Other => workspace::EntryKind::Other,
        },
        size: e.size,
        modified_ms: e.modified_ms,
        sensitive: e.sensitive,
    }
}

impl index::Host for HostState {
    fn search(
        &mut self,
        query: String,
        options: index::SearchOptions,
    ) -> Result<index::SearchResult, types::Error> {
        let services = self.services()?;
        let options = search::SearchOptions {
            case_sensitive: options.case_sensitive,
            max_results: options.max_results,
            path_prefix: options.path_prefix,
        };
        let result = search::search(&services.workspace, &query, &options).map_err(to_wit)?;
        Ok(index::SearchResult {
            hits: result
                .hits
                .into_iter()
                .map(|h| index::SearchHit {
                    path: h.path,
                    line: h.line,
                    column: h.column,
                    preview: h.preview,
                })
                .collect(),
            files_scanned: result.files_scanned,
            truncated: result.truncated,
        })
    }

    fn outline(&mut self, path: String) -> Result<index::FileOutline, types::Error> {
        let services = self.services()?;
        let o = outline::outline(&services.workspace, &path).map_err(to_wit)?;
        Ok(index::FileOutline {
            path: o.path,
            language: o.language.map(str::to_string),
            line_count: o.line_count,
            byte_size: o.byte_size,
            symbols: o
                .symbols
                .into_iter()
                .map(|s| index::Symbol {
                    name: s.name,
                    kind: s.kind,
                    range: types::LineRange {
                        start: s.start,
                        end: s.end,
                    },
                    signature: s.signature,
                })
                .collect(),
        })
    }

    fn parse_document(&mut self, path: String) -> Result<types::Document, types::Error> {
        let runtime = self.runtime.clone().ok_or_else(|| {
            to_wit(HostError::new(
                codes::INTERNAL,
                "documents cannot be parsed while plugins load",
            ))
        })?;
        runtime.parse_document(&path).map_err(to_wit)
    }
}

impl status::Host for HostState {
    fn status(&mut self) -> status::HostStatus {
        let Some(runtime) = self.runtime.clone() else {
            return status::HostStatus {
                root: String::new(),
                version: env!("CARGO_PKG_VERSION").into(),
                plugins: Vec::new(),
                store_path: String::new(),
                schema_version: 0,
                transactions: 0,
            };
        };
        let report = runtime.status();
        status::HostStatus {
            root: report.root,
            version: report.version,
            plugins: report
                .plugins
                .into_iter()
                .map(|p| status::PluginInfo {
                    name: p.name,
                    world: p.world,
                    sha256: p.sha256,
                    source: p.source,
                })
                .collect(),
            store_path: report.store.path,
            schema_version: report.store.schema_version,
            transactions: report.store.transactions,
        }
    }
}

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
        Ok(receipt_to_wit(receipt))
    }

    fn undo(&mut self, id: Option<String>) -> Result<edits::Receipt, types::Error> {
        let services = self.services()?;
        let receipt = services
            .transactions()
            .undo(id.as_deref())
            .map_err(to_wit)?;
        tracing::info!(plugin = &*self.plugin, transaction = %receipt.transaction_id, "undo applied");
        Ok(receipt_to_wit(receipt))
    }

    fn history(&mut self, limit: u32) -> Vec<edits::HistoryEntry> {
        let Ok(services) = self.services() else {
            return Vec::new();
        };
        let history = match services.store().history(limit) {
            Ok(h) => h,
            Err(err) => {
                tracing::error!("reading history: {err:#}");
                return Vec::new();
            }
        };
        history
            .into_iter()
            .map(|(tx, files)| edits::HistoryEntry {
                transaction_id: tx.id,
                intent: tx.intent,
                state: tx.state,
                created_ms: tx.created_ms,
                files,
            })
            .collect()
    }
}

fn receipt_to_wit(r: ws::transactions::Receipt) -> edits::Receipt {
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
