//! Keeping `index.scip` fresh with the operator's indexer (`[scip] command`): after an index
//! pass, when a code file is newer than the SCIP index (or there is none), the command runs
//! from the root as the test command does (no shell, allowlisted environment, its own process
//! group killed at the timeout, inspection capabilities dropped), at most once per
//! `min_interval_ms`. The index it writes is dated to the run's start, so a file edited while
//! the indexer read the tree counts as newer than the index, and resolves on its own until
//! the next run.

use super::{Control, TestRun};
use crate::config::{ScipSettings, TestSettings};
use crate::index::Index;
use crate::index::scip::SCIP_FILE;
use crate::workspace::Workspace;
use std::time::{Duration, Instant, SystemTime};

/// Blocks for as long as the process lives when a command is configured (run it on a thread
/// of its own); returns at once otherwise.
pub fn keep_fresh(index: &Index, workspace: &Workspace, settings: &ScipSettings) {
    let Some(argv) = settings.command.clone().filter(|a| !a.is_empty()) else {
        return;
    };
    let interval = Duration::from_millis(settings.min_interval_ms);
    let mut last_start: Option<Instant> = None;
    let mut checked = None;
    loop {
        std::thread::sleep(Duration::from_millis(500));
        let passes = index.passes_completed();
        if !index.first_pass_done() || index.is_read_only() || checked == Some(passes) {
            continue;
        }
        if last_start.is_some_and(|t| t.elapsed() < interval) {
            continue;
        }
        checked = Some(passes);
        match index.scip_is_stale() {
            Ok(true) => {}
            Ok(false) => continue,
            Err(err) => {
                tracing::debug!("not checking {SCIP_FILE}: {err}");
                continue;
            }
        }
        last_start = Some(Instant::now());
        refresh(workspace, &argv, settings);
    }
}

/// Runs the indexer once and dates its output to the run's start.
pub fn refresh(workspace: &Workspace, argv: &[String], settings: &ScipSettings) -> Option<TestRun> {
    let started = SystemTime::now();
    tracing::info!(command = %argv.join(" "), "bringing {SCIP_FILE} up to date");
    let run = super::run(
        workspace.root(),
        argv,
        "scip".to_string(),
        &TestSettings {
            command: Some(argv.to_vec()),
            timeout_ms: settings.timeout_ms,
            env: settings.env.clone(),
            ..TestSettings::default()
        },
        &Control::new(),
    );
    let run = match run {
        Ok(run) => run,
        Err(err) => {
            tracing::warn!("{SCIP_FILE} not refreshed: {}", err.message);
            return None;
        }
    };
    if run.exit_code != Some(0) {
        let why = if run.timed_out {
            format!("killed after {} ms", settings.timeout_ms)
        } else {
            format!("exit code {:?}", run.exit_code)
        };
        tracing::warn!(tail = %run.tail, "{SCIP_FILE} not refreshed: {} ({why})", argv.join(" "));
        return Some(run);
    }
    match workspace.set_modified(SCIP_FILE, started) {
        Ok(()) => tracing::info!(ms = run.elapsed_ms, "{SCIP_FILE} refreshed"),
        Err(err) => tracing::warn!(
            "{} exited 0 but left no {SCIP_FILE} at the root ({}); calls resolve without it",
            argv.join(" "),
            err.message
        ),
    }
    Some(run)
}
