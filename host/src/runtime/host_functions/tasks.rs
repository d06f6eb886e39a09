//! `tasks`: the operator-sanctioned jobs, the index rebuild and the test run.

use super::to_wit;
use crate::error::{HostError, codes};
use crate::runtime::bindings::HostState;
use crate::runtime::bindings::pillar::smart_context::plugin::{tasks, types};

impl tasks::Host for HostState {
    fn rebuild(&mut self, full: bool) -> Result<tasks::RebuildReport, types::Error> {
        let started = std::time::Instant::now();
        let services = self.services()?;
        // Progress goes to the client that asked for it, and to the log once a second.
        let last_logged = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let caller = self.control.clone();
        // Same cancellation as the call; progress to the caller's sink and the log.
        let control = self.control.clone().with_progress(std::sync::Arc::new(
            move |done: u64, total: Option<u64>, what: &str| {
                caller.progress(done, total, what);
                let now = started.elapsed().as_millis() as u64;
                if now >= last_logged.load(std::sync::atomic::Ordering::Relaxed) + 1_000 {
                    last_logged.store(now, std::sync::atomic::Ordering::Relaxed);
                    tracing::info!("rebuild: {done}/{} files", total.unwrap_or(0));
                }
            },
        ));
        let result = services.index.update_with(full, &control);
        let elapsed_ms = started.elapsed().as_millis() as u64;
        self.excuse(elapsed_ms);
        if result.as_ref().is_ok_and(|r| r.cancelled) {
            let done = result.as_ref().map(|r| r.indexed_total()).unwrap_or(0);
            return Err(to_wit(HostError::new(
                codes::CANCELLED,
                format!(
                    "the rebuild was cancelled after {elapsed_ms} ms; the {done} files indexed so far are kept, and the rest are indexed in the background in a moment"
                ),
            )));
        }
        if let Ok(report) = &result {
            tracing::info!(plugin = &*self.plugin, "rebuild: {report}");
        }
        let report = result.map_err(|err| {
            to_wit(
                HostError::new(codes::INDEX_ERROR, format!("rebuilding the index: {err:#}"))
                    .suggest("see manage command=status; another smart-context process may own the index"),
            )
        })?;
        Ok(tasks::RebuildReport {
            mode: if full { "full" } else { "incremental" }.into(),
            scanned: report.scanned,
            indexed: report.indexed_total(),
            unchanged: report.unchanged,
            removed: report.removed,
            skipped: report.skipped.values().sum(),
            elapsed_ms,
        })
    }

    fn run_tests(&mut self) -> Result<tasks::TestReport, types::Error> {
        let started = std::time::Instant::now();
        let services = self.services()?;
        // Tests write (builds, caches, reports): not in a root the operator made read-only.
        services.workspace.check_writable().map_err(to_wit)?;
        let settings = &services.config.test;
        let root = services.workspace.root();
        let (argv, source) = crate::tasks::command(root, settings).map_err(to_wit)?;
        tracing::info!(plugin = &*self.plugin, "running tests: {}", argv.join(" "));
        // File times come from a coarse clock (a few ms behind): a second's margin.
        let since_ms = crate::store::now_ms().saturating_sub(1000);
        let result = crate::tasks::run(root, &argv, source, settings, &self.control);
        let reports = result.as_ref().ok().and_then(|_| {
            crate::tasks::junit::summarize(&services.workspace, &settings.junit_xml, since_ms)
        });
        self.excuse(started.elapsed().as_millis() as u64);
        let mut run = result.map_err(to_wit)?;
        if let Some(summary) = reports {
            run.summary = crate::tasks::junit::with_console_places(summary, &run.summary);
        }
        Ok(tasks::TestReport {
            command: run.command,
            source: run.source,
            exit_code: run.exit_code,
            timed_out: run.timed_out,
            elapsed_ms: run.elapsed_ms,
            passed: run.summary.passed,
            failed: run.summary.failed,
            ignored: run.summary.ignored,
            failures: run.summary.failures,
            output_tail: run.tail,
            output_truncated: run.truncated,
        })
    }
}
