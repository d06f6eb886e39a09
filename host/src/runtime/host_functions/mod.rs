//! The host functions plugins import, each a thin mapping from WIT records to the workspace,
//! index, store or runtime, with failures returned as WIT `error` values.

mod edits;
mod index;
mod status;
mod store;
mod tasks;
mod workspace;

use super::bindings::HostState;
use super::bindings::pillar::smart_context::plugin::{log, types};
use crate::error::{HostError, codes};
use crate::services::Services;
use std::sync::Arc;

impl HostState {
    /// Time a sanctioned long job took, added back to the plugin's deadline.
    fn excuse(&mut self, ms: u64) {
        self.excused_ms += ms;
        self.excused_total_ms += ms;
    }

    /// Runs `work`, which may parse a document in a parser component of its own (with its
    /// own deadline), excusing its time: a parser that runs out of time is its failure, named
    /// as the parser's, not the calling tool's.
    fn parsing<T>(&mut self, work: impl FnOnce(&Services) -> T) -> Result<T, types::Error> {
        let started = std::time::Instant::now();
        let out = work(self.services()?);
        self.excuse(started.elapsed().as_millis() as u64);
        Ok(out)
    }

    pub(super) fn services(&self) -> Result<&Services, types::Error> {
        self.root
            .as_deref()
            .or_else(|| self.runtime.as_deref().map(|r| r.services.as_ref()))
            .ok_or_else(|| {
                to_wit(HostError::new(
                    codes::INTERNAL,
                    "host services are not available while plugins load",
                ))
            })
    }

    /// [`HostState::services`], shared: for work that outlives the host call (the ranking's
    /// centrality, computed on demand).
    pub(super) fn shared_services(&self) -> Option<Arc<Services>> {
        self.root
            .clone()
            .or_else(|| self.runtime.as_ref().map(|r| r.services.clone()))
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
