//! Crash consistency of multi-file transactions: the process applying a change is killed
//! (kill -9 at random moments, and aborted at every step of the write sequence by the
//! SMART_CONTEXT_FAULT_AFTER_WRITES fault injection), then the next start recovers. After
//! every trial each file must be wholly old or wholly new, all files must agree, and no temp
//! file may be left behind.

mod common;

use common::Fixture;
use std::process::{Child, Stdio};
use std::time::Instant;

const FILES: usize = 6;
const LINES: usize = 4_000;
const RANDOM_TRIALS: usize = 200;

struct Workspace {
    fx: Fixture,
    generation: u32,
}

impl Workspace {
    fn new() -> Self {
        let fx = Fixture::new();
        // The data is left out of the index so each one-shot call starts quickly.
        fx.write(
            "smart-context.toml",
            "[index]\nexclude = [\"data/\"]\nwatch = false\n",
        );
        let ws = Self { fx, generation: 0 };
        for i in 0..FILES {
            ws.fx.write(&ws.rel(i), &content(i, 0));
        }
        ws
    }

    fn rel(&self, i: usize) -> String {
        format!("data/file{i}.txt")
    }

    /// The change that moves every file from this generation to the next.
    fn args(&self) -> String {
        let g = self.generation;
        let edits: Vec<serde_json::Value> = (0..FILES)
            .map(|i| {
                serde_json::json!({
                    "filePath": self.rel(i),
                    "targetString": format!("generation {g} of file {i}\n"),
                    "replacementString": format!("generation {} of file {i}\n", g + 1),
                })
            })
            .collect();
        let path = self.fx.path().join("args.json");
        std::fs::write(
            &path,
            serde_json::json!({
                "intent": format!("generation {}", g + 1),
                "edits": edits,
                "options": { "dryRun": false, "includeImpact": false },
            })
            .to_string(),
        )
        .unwrap();
        format!("@{}", path.display())
    }

    fn spawn_apply(&self, fault: Option<usize>) -> Child {
        let mut cmd = self.fx.command(&["call", "change", &self.args()]);
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
        if let Some(n) = fault {
            cmd.env("SMART_CONTEXT_FAULT_AFTER_WRITES", n.to_string());
        }
        cmd.spawn().unwrap()
    }

    /// Starts the host once (which recovers pending transactions) and checks the files:
    /// all at this generation or all at the next, nothing in between, no temp files.
    fn recover_and_check(&mut self, trial: &str) -> bool {
        let status = self
            .fx
            .command(&["status"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "{trial}: restart failed");
        let mut versions = Vec::new();
        for i in 0..FILES {
            let now = self.fx.read(&self.rel(i)).unwrap();
            let v = if now == content(i, self.generation) {
                self.generation
            } else if now == content(i, self.generation + 1) {
                self.generation + 1
            } else {
                panic!("{trial}: {} is neither old nor new", self.rel(i));
            };
            versions.push(v);
        }
        assert!(
            versions.iter().all(|v| *v == versions[0]),
            "{trial}: files disagree: {versions:?}"
        );
        let leftovers: Vec<String> = std::fs::read_dir(self.fx.path().join("data"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(".sc-tmp-"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "{trial}: temp files left: {leftovers:?}"
        );
        let advanced = versions[0] != self.generation;
        self.generation = versions[0];
        advanced
    }
}

fn content(i: usize, generation: u32) -> String {
    let mut s = format!("generation {generation} of file {i}\n");
    for l in 0..LINES {
        s.push_str(&format!(
            "file {i} line {l}: the quick brown fox jumps over the lazy dog\n"
        ));
    }
    s
}

#[test]
fn an_abort_at_every_step_leaves_files_old() {
    let mut ws = Workspace::new();
    for step in 0..=FILES {
        let status = ws.spawn_apply(Some(step)).wait().unwrap();
        assert!(!status.success(), "step {step}: the fault did not fire");
        let advanced = ws.recover_and_check(&format!("abort after {step} writes"));
        assert!(
            !advanced,
            "step {step}: an unfinished transaction must roll back"
        );
    }
    let status = ws.spawn_apply(None).wait().unwrap();
    assert!(status.success());
    assert!(
        ws.recover_and_check("no fault"),
        "a finished transaction stays"
    );
}

#[test]
fn kill_9_at_random_moments() {
    let mut ws = Workspace::new();
    // How long an uninterrupted apply takes here, to spread the kills over it.
    let mut runs = Vec::new();
    for _ in 0..3 {
        let started = Instant::now();
        assert!(ws.spawn_apply(None).wait().unwrap().success());
        runs.push(started.elapsed());
        assert!(ws.recover_and_check("baseline"));
    }
    runs.sort();
    let typical = runs[1];
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let (mut old, mut new, mut finished) = (0, 0, 0);
    for trial in 0..RANDOM_TRIALS {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        // Uniform over 30%..110% of a typical run: startup is not interesting, the end is.
        let fraction = 0.3 + (seed % 1000) as f64 / 1000.0 * 0.8;
        let delay = typical.mul_f64(fraction);
        let mut child = ws.spawn_apply(None);
        std::thread::sleep(delay);
        match child.try_wait().unwrap() {
            Some(_) => finished += 1,
            None => {
                child.kill().unwrap();
                child.wait().unwrap();
            }
        }
        if ws.recover_and_check(&format!("trial {trial} (kill after {delay:?})")) {
            new += 1;
        } else {
            old += 1;
        }
    }
    eprintln!(
        "{RANDOM_TRIALS} kills over {typical:?} runs: {old} rolled back, {new} kept ({finished} had finished)"
    );
    assert!(
        old > 0 && new > 0,
        "the kills never landed on both sides: {old} old, {new} new"
    );
}
