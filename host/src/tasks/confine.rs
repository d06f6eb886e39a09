//! `smart-context confine`: the optional Landlock confinement of the operator's test command.
//!
//! The test runner re-executes this binary as `confine --write ROOT --write TMP -- ARGV...`;
//! here, in that fresh single-threaded process, a Landlock ruleset is applied to the process
//! itself (reads and execution anywhere, writes and removals only beneath the `--write`
//! directories and the usual scratch places: /dev/null and friends, /tmp, /var/tmp, /dev/shm) and the test command is exec'ed into it, inheriting the ruleset.
//!
//! What it stops: repository code run as a test writing outside the workspace (shell rc files,
//! `~/.ssh/authorized_keys`, other projects, the user's git config). What it does not stop:
//! reading files the user can read (secrets included), network access, or damage inside the
//! root and the temp directory. It fails closed: on a kernel without Landlock the command does
//! not run.

use anyhow::{Context, Result, bail};
use landlock::{
    ABI, Access, AccessFs, Ruleset, RulesetAttr, RulesetCreatedAttr, RulesetStatus,
    path_beneath_rules,
};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;

/// What real test suites write besides the root and the temp directory: the null and random
/// devices (as files: written, never created), the other usual temp directories, and shared
/// memory (Python's multiprocessing). Missing ones are left out.
const SCRATCH: &[&str] = &[
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
    "/dev/tty",
    "/dev/shm",
    "/tmp",
    "/var/tmp",
];

/// Confines this process to writing beneath `writable`, then execs `argv` (never returns
/// on success).
pub fn exec(writable: &[PathBuf], argv: &[String]) -> Result<std::convert::Infallible> {
    let Some((program, args)) = argv.split_first() else {
        bail!("confine needs a command after --");
    };
    // V2 lets renames and links move files between directories the rules allow (under V1
    // every such move fails with EXDEV, and compilers write by rename); V3 handles truncation.
    let abi = ABI::V3;
    let status = Ruleset::default()
        .handle_access(AccessFs::from_all(abi))
        .context("setting up Landlock")?
        .create()
        .context("creating the Landlock ruleset")?
        .add_rules(path_beneath_rules(["/"], AccessFs::from_read(abi)))
        .context("allowing reads")?
        .add_rules(path_beneath_rules(writable, AccessFs::from_all(abi)))
        .context("allowing writes beneath the workspace")?
        .add_rules(path_beneath_rules(SCRATCH, AccessFs::from_all(abi)))
        .context("allowing the usual scratch places")?
        .restrict_self()
        .context("applying Landlock")?;
    if status.ruleset == RulesetStatus::NotEnforced {
        bail!(
            "this kernel does not enforce Landlock, so the test command was not run; the operator can set [test] confine = false"
        );
    }
    let err = std::process::Command::new(program).args(args).exec();
    Err(err).with_context(|| format!("cannot run {program}"))
}
