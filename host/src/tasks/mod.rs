//! Operator-sanctioned jobs behind the WIT `tasks` interface: running the project's tests with
//! the argv smart-context.toml names (or, when it allows, one detected from the project's
//! files), never a command from the agent. The run gets the root as working directory, its own
//! process group (killed whole at the timeout), and its output capped; the summary counts
//! passed and failed tests from the usual runners' result lines.

#[cfg(target_os = "linux")]
pub mod confine;
pub mod control;
pub mod isolation;
pub mod junit;
pub mod scip;
mod summary;

pub use control::Control;

pub use summary::Summary;

use crate::config::TestSettings;
use crate::error::{HostError, HostResult, codes};
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Characters of output returned as the tail.
const TAIL_CHARS: usize = 4_000;

/// One test run, summarized.
#[derive(Debug, Clone)]
pub struct TestRun {
    pub command: Vec<String>,
    /// config, or detected:<runner>.
    pub source: String,
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    pub elapsed_ms: u64,
    pub summary: Summary,
    pub tail: String,
    pub truncated: bool,
}

/// The command to run: the configured one, else (when allowed) the project's usual one.
pub fn command(root: &Path, settings: &TestSettings) -> HostResult<(Vec<String>, String)> {
    if let Some(argv) = settings.command.as_ref().filter(|a| !a.is_empty()) {
        return Ok((argv.clone(), "config".into()));
    }
    if !settings.detect {
        return Err(HostError::new(
            codes::UNSUPPORTED,
            "no test command is configured",
        )
        .suggest(
            "the operator sets [test] command = [\"cargo\", \"test\"] (or detect = true) in smart-context.toml; agents cannot pass a command",
        ));
    }
    detect(root)
        .map(|(argv, runner)| (argv, format!("detected:{runner}")))
        .ok_or_else(|| {
            HostError::new(
                codes::UNSUPPORTED,
                "no test setup found (Cargo.toml, pyproject.toml/pytest.ini, package.json with a test script, go.mod)",
            )
            .suggest("set [test] command in smart-context.toml")
        })
}

/// The usual test command of the project at `root`, by its files.
pub fn detect(root: &Path) -> Option<(Vec<String>, &'static str)> {
    // The repository's files: only regular ones count (a link or a FIFO named package.json is
    // neither followed nor opened).
    let has = |f: &str| std::fs::symlink_metadata(root.join(f)).is_ok_and(|m| m.is_file());
    let argv = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    if has("Cargo.toml") {
        return Some((argv(&["cargo", "test"]), "cargo"));
    }
    if has("go.mod") {
        return Some((argv(&["go", "test", "./..."]), "go"));
    }
    if has("package.json") {
        let mut text = String::new();
        if let Ok(file) = std::fs::File::open(root.join("package.json")) {
            let _ = file.take(1 << 20).read_to_string(&mut text);
        }
        let json: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        if json["scripts"]["test"].is_string() {
            return Some((argv(&["npm", "test", "--silent"]), "npm"));
        }
    }
    if [
        "pyproject.toml",
        "pytest.ini",
        "setup.cfg",
        "tox.ini",
        "conftest.py",
    ]
    .iter()
    .any(|f| has(f))
        || std::fs::symlink_metadata(root.join("tests")).is_ok_and(|m| m.is_dir())
            && has("setup.py")
    {
        return Some((argv(&["python3", "-m", "pytest", "-q"]), "pytest"));
    }
    None
}

/// Runs `argv` in `root` until it exits or `settings.timeout_ms` passes (then the whole process
/// group is killed), keeping at most `settings.max_output_bytes` of its output. A cancelled
/// `control` kills the group too (CANCELLED); the elapsed time is reported as progress.
pub fn run(
    root: &Path,
    argv: &[String],
    source: String,
    settings: &TestSettings,
    control: &Control,
) -> HostResult<TestRun> {
    let started = Instant::now();
    let mut command = match settings.confine {
        true => confined(root, argv)?,
        false => {
            let mut c = Command::new(&argv[0]);
            c.args(&argv[1..]);
            c
        }
    };
    command.env_clear().envs(allowed_env(&settings.env));
    command
        .current_dir(root)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0);
    // SAFETY: the hook runs between fork and exec and makes only async-signal-safe calls.
    unsafe {
        command.pre_exec(isolation::drop_inspection_caps);
    }
    let mut child = command.spawn().map_err(|e| {
        HostError::new(
            codes::UNSUPPORTED,
            format!("cannot start {:?}: {e}", argv.join(" ")),
        )
        .suggest("check the [test] command in smart-context.toml and that its program is installed")
    })?;
    let output = Arc::new(Mutex::new(Capture::new(settings.max_output_bytes)));
    let readers: Vec<_> = [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    ]
    .into_iter()
    .flatten()
    .map(|mut stream| {
        let output = Arc::clone(&output);
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = stream.read(&mut buf) {
                if n == 0 {
                    break;
                }
                output
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(&buf[..n]);
            }
        })
    })
    .collect();
    let deadline = Duration::from_millis(settings.timeout_ms);
    let mut timed_out = false;
    let mut cancelled = false;
    let mut reported_s = 0;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() >= deadline || control.is_cancelled() => {
                timed_out = !control.is_cancelled();
                cancelled = !timed_out;
                // SAFETY: kill(2) on the child's own process group; no memory is involved.
                unsafe {
                    libc::kill(-(child.id() as i32), libc::SIGKILL);
                }
                break child.wait().ok();
            }
            Ok(None) => {
                let seconds = started.elapsed().as_secs();
                if seconds > reported_s {
                    reported_s = seconds;
                    control.progress(
                        seconds,
                        Some(settings.timeout_ms / 1000),
                        &format!("running {} ({seconds} s)", argv.join(" ")),
                    );
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(_) => break None,
        }
    };
    for reader in readers {
        let _ = reader.join();
    }
    if cancelled {
        return Err(HostError::new(
            codes::CANCELLED,
            format!(
                "the test run was cancelled after {} ms and its processes killed",
                started.elapsed().as_millis()
            ),
        ));
    }
    let capture = std::mem::replace(
        &mut *output.lock().unwrap_or_else(|p| p.into_inner()),
        Capture::new(0),
    );
    let text = String::from_utf8_lossy(&capture.bytes).into_owned();
    let summary = Summary::parse(&text);
    let exit_code = status.and_then(|s| s.code());
    Ok(TestRun {
        command: argv.to_vec(),
        source,
        exit_code,
        timed_out,
        elapsed_ms: started.elapsed().as_millis() as u64,
        summary,
        tail: tail(&text, TAIL_CHARS),
        truncated: capture.dropped > 0,
    })
}

/// Variables a test run sees: the basics every toolchain needs, the toolchains' own, and the
/// names the operator adds in `[test] env`. Nothing else of the server's environment (its HTTP
/// token, cloud credentials, API keys) reaches repository code.
pub const ENV_ALLOWLIST: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LANGUAGE",
    "TERM",
    "TZ",
    "TMPDIR",
    "CI",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "CARGO_TARGET_DIR",
    "GOPATH",
    "GOROOT",
    "GOCACHE",
    "GOMODCACHE",
    "GOFLAGS",
    "GOPROXY",
    "JAVA_HOME",
    "MAVEN_OPTS",
    "GRADLE_USER_HOME",
    "NODE_PATH",
    "NVM_DIR",
    "PYTHONPATH",
    "VIRTUAL_ENV",
    "PYENV_ROOT",
    "CONDA_PREFIX",
];

fn allowed_env(extra: &[String]) -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
    std::env::vars_os()
        .filter(|(name, _)| {
            let name = name.to_string_lossy();
            ENV_ALLOWLIST.contains(&name.as_ref())
                || name.starts_with("LC_")
                || extra.iter().any(|e| *e == name)
        })
        .collect()
}

/// The argv wrapped in `smart-context confine`: this same binary re-executed, which applies a
/// Landlock ruleset (write only under the root and the temp directory) to itself and then
/// execs the test command, so the confinement is set up in a fresh single-threaded process.
fn confined(root: &Path, argv: &[String]) -> HostResult<Command> {
    let exe = std::env::current_exe().map_err(|e| {
        HostError::new(
            codes::UNSUPPORTED,
            format!("cannot find the smart-context binary to confine the test run: {e}"),
        )
    })?;
    let mut command = Command::new(exe);
    command
        .arg("confine")
        .arg("--write")
        .arg(root)
        .arg("--write")
        .arg(std::env::temp_dir())
        .arg("--")
        .args(argv);
    Ok(command)
}

/// Output up to a cap: the head is kept (runners print failures as they go and totals at the
/// end, so the end is kept too: the last quarter of the cap rolls).
struct Capture {
    bytes: Vec<u8>,
    cap: usize,
    dropped: usize,
}

impl Capture {
    fn new(cap: usize) -> Self {
        Self {
            bytes: Vec::new(),
            cap,
            dropped: 0,
        }
    }

    fn push(&mut self, data: &[u8]) {
        self.bytes.extend_from_slice(data);
        if self.bytes.len() > self.cap {
            let head = self.cap * 3 / 4;
            let excess = self.bytes.len() - self.cap;
            self.bytes.drain(head..head + excess);
            self.dropped += excess;
        }
    }
}

fn tail(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    text.chars().skip(count - max).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `argv` in `dir` as a configured command that nobody cancels.
    fn run_unwatched(dir: &Path, argv: &[String], settings: &TestSettings) -> TestRun {
        run(dir, argv, "config".into(), settings, &Control::new()).unwrap()
    }

    fn settings(timeout_ms: u64) -> TestSettings {
        TestSettings {
            command: None,
            detect: false,
            timeout_ms,
            max_output_bytes: 1 << 16,
            env: Vec::new(),
            confine: false,
            junit_xml: Vec::new(),
        }
    }

    #[test]
    fn a_run_is_summarized() {
        let dir = tempfile::tempdir().unwrap();
        let argv: Vec<String> = [
            "sh",
            "-c",
            "echo 'test a ... ok'; echo 'test b ... FAILED' >&2; echo 'test result: FAILED. 1 passed; 1 failed; 0 ignored'; exit 101",
        ]
        .map(String::from)
        .to_vec();
        let run = run_unwatched(dir.path(), &argv, &settings(10_000));
        assert_eq!(run.exit_code, Some(101));
        assert!(!run.timed_out);
        assert_eq!((run.summary.passed, run.summary.failed), (1, 1));
        assert_eq!(run.summary.failures, ["b"]);
    }

    #[test]
    fn the_timeout_kills_the_whole_group() {
        let dir = tempfile::tempdir().unwrap();
        let argv: Vec<String> = ["sh", "-c", "sleep 30 & sleep 30; echo never"]
            .map(String::from)
            .to_vec();
        let run = run_unwatched(dir.path(), &argv, &settings(300));
        assert!(run.timed_out);
        assert!(run.elapsed_ms < 10_000, "{}", run.elapsed_ms);
        assert!(!run.tail.contains("never"));
    }

    #[test]
    fn a_cancelled_run_kills_the_group_and_says_cancelled() {
        let dir = tempfile::tempdir().unwrap();
        let argv: Vec<String> = ["sh", "-c", "sleep 30 & sleep 30; echo never"]
            .map(String::from)
            .to_vec();
        let control = Control::new();
        let canceller = {
            let control = control.clone();
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(200));
                control.cancel();
            })
        };
        let started = Instant::now();
        let err = run(
            dir.path(),
            &argv,
            "config".into(),
            &settings(60_000),
            &control,
        )
        .expect_err("a cancelled run is no result");
        canceller.join().unwrap();
        assert_eq!(err.code, codes::CANCELLED);
        // The readers end only when every process of the group is gone.
        assert!(started.elapsed() < Duration::from_secs(20), "{err:?}");
    }

    #[test]
    fn no_command_without_config_or_detection() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("Cargo.toml"), "").unwrap();
        let err = command(dir.path(), &settings(1)).unwrap_err();
        assert_eq!(err.code, codes::UNSUPPORTED);
        let detecting = TestSettings {
            detect: true,
            ..settings(1)
        };
        let (argv, source) = command(dir.path(), &detecting).unwrap();
        assert_eq!(
            (argv[0].as_str(), source.as_str()),
            ("cargo", "detected:cargo")
        );
    }

    #[test]
    fn capture_keeps_head_and_end() {
        let mut c = Capture::new(8);
        c.push(b"0123456789abcdef");
        assert_eq!(c.bytes, b"012345ef");
        assert_eq!(c.dropped, 8);
    }

    #[test]
    fn the_server_environment_stays_out() {
        let dir = tempfile::tempdir().unwrap();
        let argv: Vec<String> = ["sh", "-c", "env"].map(String::from).to_vec();
        let run = run_unwatched(dir.path(), &argv, &settings(10_000));
        assert!(run.tail.contains("PATH="), "{}", run.tail);
        // The test process's own environment has CARGO_PKG_NAME and RUST_* variables: none
        // of them is on the allowlist.
        assert!(!run.tail.contains("CARGO_PKG_NAME"), "{}", run.tail);
        let names: Vec<&str> = run
            .tail
            .lines()
            .filter_map(|l| l.split_once('=').map(|p| p.0))
            .collect();
        for name in names {
            assert!(
                ENV_ALLOWLIST.contains(&name)
                    || name.starts_with("LC_")
                    || ["PWD", "SHLVL", "_", "OLDPWD"].contains(&name),
                "{name} leaked into the test run"
            );
        }
        let with_extra = TestSettings {
            env: vec!["CARGO_PKG_NAME".into()],
            ..settings(10_000)
        };
        let run = run_unwatched(dir.path(), &argv, &with_extra);
        assert!(
            run.tail.contains("CARGO_PKG_NAME=smart-context"),
            "{}",
            run.tail
        );
    }
}
