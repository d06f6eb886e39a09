//! Repository code cannot read the server. The tests `manage test` runs are the repository's
//! code, started by the server; without this they could read the server's environment (the
//! HTTP token, cloud keys) and memory through `/proc/$PPID/environ` and `/proc/$PPID/mem`,
//! since a user's processes may inspect each other.
//!
//! - The server makes itself non-dumpable at start ([`shield_server`]): its `/proc/PID`
//!   files then belong to root and the kernel refuses ptrace-mode access (environ, mem, fd,
//!   maps) to processes without `CAP_SYS_PTRACE`, so to every normal user's process.
//! - A root user's processes have that capability, so when the server runs as root the test
//!   command starts with it gone from its bounding set ([`drop_inspection_caps`], with the
//!   other capabilities that read another process's memory: `CAP_SYS_ADMIN` and `CAP_BPF`
//!   tracing, `CAP_PERFMON`, raw I/O, module loading). Root keeps its file access: as root,
//!   tests can still read whatever root can (docs/security.md).
//! - The test's own environment is the allowlist alone (see `allowed_env`), and the exec
//!   replaces the forked copy of the server's memory.

/// Capabilities that let a process read another's memory or environment.
#[cfg(target_os = "linux")]
const INSPECTION_CAPS: &[libc::c_int] = &[
    16, // CAP_SYS_MODULE
    17, // CAP_SYS_RAWIO
    19, // CAP_SYS_PTRACE
    21, // CAP_SYS_ADMIN
    38, // CAP_PERFMON
    39, // CAP_BPF
];

/// Makes this process non-dumpable, so processes of the same user cannot read its
/// `/proc/PID/environ`, `mem` or file descriptors. Call first thing in `main`.
pub fn shield_server() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl(PR_SET_DUMPABLE) changes a flag of this process; no memory is passed.
    unsafe {
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0);
    }
}

/// In a forked child before `exec`: when running as root, takes the capabilities that
/// inspect other processes out of the bounding set, so the exec'ed program never has them.
/// Only async-signal-safe calls (prctl, geteuid).
pub fn drop_inspection_caps() -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    // SAFETY: geteuid and prctl(PR_CAPBSET_DROP) touch no memory of ours.
    unsafe {
        if libc::geteuid() != 0 {
            return Ok(());
        }
        for &cap in INSPECTION_CAPS {
            // EINVAL: a capability this kernel does not know, so nothing to drop.
            if libc::prctl(libc::PR_CAPBSET_DROP, cap as libc::c_ulong, 0, 0, 0) != 0 {
                let err = std::io::Error::last_os_error();
                if err.raw_os_error() != Some(libc::EINVAL) {
                    return Err(err);
                }
            }
        }
    }
    Ok(())
}
