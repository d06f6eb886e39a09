//! How long work hears that its caller gave up, and tells the caller how far it got.
//!
//! One [`Control`] per tool call: the MCP layer cancels it when the client sends
//! `notifications/cancelled` or goes away, and forwards its progress as
//! `notifications/progress` when the client asked for them. Whatever runs for the call (the
//! plugin, through the epoch callback; an index pass; a test run) polls [`Control::is_cancelled`]
//! and reports through [`Control::progress`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Where progress goes: (done, total if known, what is being done).
pub type ProgressSink = Arc<dyn Fn(u64, Option<u64>, &str) + Send + Sync>;

/// The cancellation flag and progress sink of one call; cheap to clone, all clones shared.
#[derive(Clone, Default)]
pub struct Control {
    cancelled: Arc<AtomicBool>,
    progress: Option<ProgressSink>,
}

impl Control {
    /// A control nobody cancels and nobody watches (CLI calls, background passes).
    pub fn new() -> Self {
        Self::default()
    }

    /// Progress of this call goes to `sink`.
    pub fn with_progress(mut self, sink: ProgressSink) -> Self {
        self.progress = Some(sink);
        self
    }

    /// Asks the work to stop; it stops at its next check and says what it did.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Release);
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::Acquire)
    }

    /// The flag itself, for loops that poll it (an index pass's workers).
    pub fn flag(&self) -> &AtomicBool {
        &self.cancelled
    }

    /// True when somebody listens to progress (so work may skip computing it otherwise).
    pub fn wants_progress(&self) -> bool {
        self.progress.is_some()
    }

    /// Reports how far the work got; the sink decides how often it is passed on.
    pub fn progress(&self, done: u64, total: Option<u64>, message: &str) {
        if let Some(sink) = &self.progress {
            sink(done, total, message);
        }
    }
}

impl std::fmt::Debug for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Control")
            .field("cancelled", &self.is_cancelled())
            .field("progress", &self.progress.is_some())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    #[test]
    fn clones_share_cancellation_and_progress() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let sink = {
            let seen = seen.clone();
            Arc::new(move |done: u64, total: Option<u64>, what: &str| {
                seen.lock().unwrap().push((done, total, what.to_string()));
            })
        };
        let control = Control::new().with_progress(sink);
        let worker = control.clone();
        assert!(!worker.is_cancelled() && worker.wants_progress());
        worker.progress(3, Some(10), "files");
        control.cancel();
        assert!(worker.is_cancelled());
        assert_eq!(*seen.lock().unwrap(), [(3, Some(10), "files".to_string())]);
        assert!(!Control::new().wants_progress());
    }
}
