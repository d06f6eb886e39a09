//! Log messages for clients that ask for them (`logging/setLevel`): the host's own tracing
//! events at or above the client's level, sent as `notifications/message`. Only the host's
//! events (target `smart_context...`) go out: never the transport's own, which would feed
//! back on every message sent.
//!
//! Logging is deprecated from the 2026 protocol on (SEP-2577); clients of 2025-11-25 and
//! earlier still ask for it, so it stays until they are gone.
#![allow(deprecated)]

use rmcp::model::{LoggingLevel, LoggingMessageNotificationParam};
use rmcp::service::{Peer, RoleServer};
use std::sync::OnceLock;
use tokio::sync::broadcast;
use tracing::field::{Field, Visit};
use tracing_subscriber::layer::{Context, Layer};

/// One event as clients see it.
#[derive(Debug, Clone)]
pub struct Record {
    pub level: LoggingLevel,
    pub logger: String,
    pub message: String,
}

fn hub() -> &'static broadcast::Sender<Record> {
    static HUB: OnceLock<broadcast::Sender<Record>> = OnceLock::new();
    HUB.get_or_init(|| broadcast::channel(256).0)
}

/// The tracing layer that feeds the clients' log (cheap when no client listens).
pub struct ClientLogLayer;

impl<S: tracing::Subscriber> Layer<S> for ClientLogLayer {
    fn on_event(&self, event: &tracing::Event<'_>, _ctx: Context<'_, S>) {
        let meta = event.metadata();
        if hub().receiver_count() == 0
            || !meta.target().starts_with("smart_context")
            || meta.target().starts_with(module_path!())
        {
            return;
        }
        let mut visitor = MessageVisitor(String::new());
        event.record(&mut visitor);
        let _ = hub().send(Record {
            level: level(*meta.level()),
            logger: meta.target().to_string(),
            message: visitor.0,
        });
    }
}

struct MessageVisitor(String);

impl Visit for MessageVisitor {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        let sep = if self.0.is_empty() { "" } else { " " };
        match field.name() {
            "message" => self.0 = format!("{value:?}{sep}{}", self.0),
            name => self.0.push_str(&format!("{sep}{name}={value:?}")),
        }
    }
}

fn level(level: tracing::Level) -> LoggingLevel {
    match level {
        tracing::Level::ERROR => LoggingLevel::Error,
        tracing::Level::WARN => LoggingLevel::Warning,
        tracing::Level::INFO => LoggingLevel::Info,
        _ => LoggingLevel::Debug,
    }
}

/// Severity order of MCP log levels (debug lowest).
fn rank(level: LoggingLevel) -> u8 {
    match level {
        LoggingLevel::Debug => 0,
        LoggingLevel::Info => 1,
        LoggingLevel::Notice => 2,
        LoggingLevel::Warning => 3,
        LoggingLevel::Error => 4,
        LoggingLevel::Critical => 5,
        LoggingLevel::Alert => 6,
        LoggingLevel::Emergency => 7,
    }
}

/// Sends `peer` every record at `min` or above until the peer is gone or the task is aborted
/// (a new setLevel replaces it).
pub fn forward(peer: Peer<RoleServer>, min: LoggingLevel) -> tokio::task::AbortHandle {
    let mut records = hub().subscribe();
    tokio::spawn(async move {
        loop {
            let record = match records.recv().await {
                Ok(record) => record,
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => break,
            };
            if rank(record.level) < rank(min) {
                continue;
            }
            let mut param = LoggingMessageNotificationParam::new(
                record.level,
                serde_json::Value::String(record.message),
            );
            param.logger = Some(record.logger);
            if peer.notify_logging_message(param).await.is_err() {
                break;
            }
        }
    })
    .abort_handle()
}
