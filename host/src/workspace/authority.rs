//! The path authority: the one place that decides whether a path may be read or written.
//!
//! Text comparisons of a requested path are not enough: a committed `gitdir -> .git` link turns
//! `gitdir/config` into `.git/config`, and `hop1 -> hop2 -> .env` turns a harmless name into a
//! secret. So every request is resolved component by component inside the root:
//!
//! - **Reads** follow links, one hop at a time (each target must stay inside the root, at most
//!   [`MAX_LINK_HOPS`]), and decide on every path passed through: sensitive if any hop is, never
//!   inside `.git` or `.smart-context`. The file is then opened along the resolved path with no
//!   link followed at any component, non-blocking, and must be a regular file, so a link swapped
//!   in after the decision, a FIFO or a device is refused rather than read.
//! - **Writes** never follow a link: the path and each of its parents must be real directories
//!   and files (or not exist yet), outside every protected place. The write itself walks the
//!   same way with `open_dir_nofollow`, so a directory swapped for a link between a dry run and
//!   its apply fails instead of writing through it.

use super::{Workspace, policy};
use crate::error::{HostError, HostResult, codes};
use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt};
use cap_std::fs::{Dir, File, Metadata, OpenOptions, OpenOptionsExt};
use std::collections::VecDeque;
use std::io::ErrorKind;

/// Links followed before a read gives up (Linux's own limit).
pub const MAX_LINK_HOPS: usize = 40;

/// A path resolved inside the root.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The request, normalized.
    pub requested: String,
    /// The path with every link replaced by its target: what is really read.
    pub real: String,
    /// Every path the resolution passed through: the request, each link, each link's target.
    pub hops: Vec<String>,
}

impl Resolved {
    /// Sensitive if any path on the way is.
    pub fn is_sensitive(&self) -> bool {
        policy::is_sensitive(&self.real) || self.hops.iter().any(|h| policy::is_sensitive(h))
    }
}

impl Workspace {
    /// Resolves `path` hop by hop inside the root. A link out of the root (absolute, or `..`
    /// above it) is ACCESS_DENIED; a missing component ends the walk (the rest is kept as is,
    /// so the read that follows reports FILE_NOT_FOUND).
    pub fn resolve(&self, path: &str) -> HostResult<Resolved> {
        let requested = self.normalize(path)?;
        let mut hops = vec![requested.clone()];
        let mut done: Vec<String> = Vec::new();
        let mut pending: VecDeque<String> = components(&requested).collect();
        let mut links = 0;
        // A handle on the directory `done` names, so each step stats one name in it (cap-std
        // would otherwise walk the whole prefix again for every component).
        let mut cur: Option<Dir> = None;
        while let Some(part) = pending.pop_front() {
            match part.as_str() {
                "" | "." => continue,
                ".." => {
                    if done.pop().is_none() {
                        return Err(outside(&requested));
                    }
                    cur = None;
                    continue;
                }
                _ => {}
            }
            let dir = match cur.take() {
                Some(dir) => Ok(dir),
                None => self.open_dir_chain(&done.join("/"), false),
            };
            let meta = dir.and_then(|d| d.symlink_metadata(&part).map(|m| (d, m)));
            let (dir, meta) = match meta {
                Ok(found) => found,
                Err(e) if is_missing(&e) => {
                    done.push(part);
                    done.extend(pending.drain(..));
                    break;
                }
                Err(e) => return Err(HostError::io(&requested, &e)),
            };
            if !meta.is_symlink() {
                if meta.is_dir() {
                    cur = dir.open_dir_nofollow(&part).ok();
                }
                done.push(part);
                continue;
            }
            links += 1;
            if links > MAX_LINK_HOPS {
                return Err(HostError::new(
                    codes::INVALID_PATH,
                    format!("{requested}: more than {MAX_LINK_HOPS} symbolic links on the way"),
                ));
            }
            let target = dir
                .read_link_contents(&part)
                .map_err(|e| HostError::io(&requested, &e))?;
            let target = target.to_string_lossy().replace('\\', "/");
            if target.starts_with('/') {
                return Err(outside(&requested));
            }
            let link =
                lexical(&done, &VecDeque::from([part])).ok_or_else(|| outside(&requested))?;
            push_hop(&mut hops, link);
            cur = Some(dir);
            let mut expanded: VecDeque<String> = components(&target).collect();
            expanded.extend(pending.drain(..));
            pending = expanded;
            let next = lexical(&done, &pending).ok_or_else(|| outside(&requested))?;
            push_hop(&mut hops, next);
        }
        let real = if done.is_empty() {
            ".".to_string()
        } else {
            lexical(&done, &VecDeque::new()).ok_or_else(|| outside(&requested))?
        };
        Ok(Resolved {
            requested,
            real,
            hops,
        })
    }

    /// Resolves `path` for reading: refused inside `.git` / `.smart-context`, and when any hop
    /// is sensitive unless `allow_sensitive`.
    pub fn resolve_for_read(&self, path: &str, allow_sensitive: bool) -> HostResult<Resolved> {
        let resolved = self.resolve(path)?;
        if resolved.hops.iter().any(|h| policy::is_private_state(h))
            || policy::is_private_state(&resolved.real)
        {
            return Err(HostError::new(
                codes::ACCESS_DENIED,
                format!(
                    "{}: version control and smart-context state are never read",
                    resolved.requested
                ),
            )
            .suggest("read the project's own files; .git/ and .smart-context/ are off limits"));
        }
        self.refuse_git_dir(&resolved.real)?;
        if !allow_sensitive && resolved.is_sensitive() {
            return Err(HostError::new(
                codes::SENSITIVE_BLOCKED,
                format!(
                    "{} is a sensitive file (credentials, keys, environment){}",
                    resolved.requested,
                    if resolved.real != resolved.requested {
                        format!(", through a link to {}", resolved.real)
                    } else {
                        String::new()
                    }
                ),
            )
            .suggest("pass allowSensitive=true if you really need its content"));
        }
        Ok(resolved)
    }

    /// Makes the root read-only (the operator's `[[roots]]` policy) or writable again.
    pub fn set_read_only(&self, read_only: bool) {
        self.read_only
            .store(read_only, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn is_read_only(&self) -> bool {
        self.read_only.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Refuses anything that would change the root's files (an edit, an undo, a test run)
    /// when the operator made it read-only.
    pub fn check_writable(&self) -> HostResult<()> {
        if !self.is_read_only() {
            return Ok(());
        }
        Err(HostError::new(
            codes::ACCESS_DENIED,
            format!(
                "the root {} is read-only (the operator's policy): nothing here may be changed or run",
                self.root().display()
            ),
        )
        .suggest("read and search here; make changes in a read-write root"))
    }

    /// Checks that `path` may be written: not the root, not protected (any `.git`,
    /// `.smart-context`, `.ssh`, `.gnupg`, the root config), not sensitive, and no component a
    /// symbolic link (a write never follows one). Returns the normalized path.
    pub fn check_write(&self, path: &str) -> HostResult<String> {
        self.check_writable()?;
        let rel = self.normalize(path)?;
        if rel == "." {
            return Err(HostError::new(
                codes::INVALID_PATH,
                "cannot write the workspace root",
            ));
        }
        if policy::is_protected(&rel) {
            return Err(HostError::new(
                codes::ACCESS_DENIED,
                format!(
                    "{rel} is version control, host state, operator configuration or a login directory; plugins cannot write it"
                ),
            )
            .suggest("edit the project's own files"));
        }
        if policy::is_sensitive(&rel) {
            return Err(HostError::new(
                codes::SENSITIVE_BLOCKED,
                format!("{rel} is a sensitive file; edits to it are refused"),
            ));
        }
        let parts: Vec<&str> = rel.split('/').collect();
        for i in 0..parts.len() {
            let here = parts[..=i].join("/");
            let last = i + 1 == parts.len();
            match self.dir.symlink_metadata(&here) {
                Ok(meta) if meta.is_symlink() => {
                    let real = self
                        .resolve(&rel)
                        .ok()
                        .map(|r| r.real)
                        .filter(|r| *r != rel);
                    let mut err = HostError::new(
                        codes::ACCESS_DENIED,
                        format!("{rel}: {here} is a symbolic link; writes never go through links"),
                    );
                    err = match real {
                        Some(real) => err.suggest(format!(
                            "write the real path {real} instead, if that is what you mean"
                        )),
                        None => err.suggest("write a path without links in it"),
                    };
                    return Err(err);
                }
                Ok(meta) if last && !meta.is_file() => {
                    return Err(HostError::new(
                        codes::INVALID_PATH,
                        format!("{rel} is not a regular file"),
                    ));
                }
                Ok(meta) if !last && !meta.is_dir() => {
                    return Err(HostError::new(
                        codes::INVALID_PATH,
                        format!("{here} is not a directory"),
                    ));
                }
                Ok(_) => {}
                Err(e) if e.kind() == ErrorKind::NotFound => break,
                Err(e) => return Err(HostError::io(&rel, &e)),
            }
        }
        self.refuse_git_write(&rel)?;
        Ok(rel)
    }

    /// Opens the directory `rel` (no component a link), creating missing ones if `create`.
    pub(super) fn open_dir_chain(&self, rel: &str, create: bool) -> std::io::Result<Dir> {
        let mut dir = self.dir.try_clone()?;
        for part in components(rel) {
            if part.is_empty() || part == "." {
                continue;
            }
            if create
                && let Err(e) = dir.create_dir(&part)
                && e.kind() != ErrorKind::AlreadyExists
            {
                return Err(e);
            }
            dir = dir.open_dir_nofollow(&part)?;
        }
        Ok(dir)
    }

    /// Opens the real path `rel` for reading: no link at any component, non-blocking (a FIFO
    /// never hangs the open), and only a regular file. A directory is INVALID_PATH. The
    /// metadata is the handle's, so callers need no second stat.
    pub(super) fn open_regular(&self, rel: &str) -> HostResult<(File, Metadata)> {
        let (parent, name) = super::split_parent(rel);
        let dir = self
            .open_dir_chain(parent, false)
            .map_err(|e| link_or_io(rel, &e))?;
        let mut options = OpenOptions::new();
        options
            .read(true)
            .follow(FollowSymlinks::No)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
        let file = dir
            .open_with(name, &options)
            .map_err(|e| link_or_io(rel, &e))?;
        let meta = file.metadata().map_err(|e| HostError::io(rel, &e))?;
        if meta.is_dir() {
            return Err(HostError::new(
                codes::INVALID_PATH,
                format!("{rel} is a directory"),
            ));
        }
        if !meta.is_file() {
            return Err(HostError::new(
                codes::INVALID_PATH,
                format!(
                    "{rel} is not a regular file (a FIFO, socket or device); only regular files are read"
                ),
            ));
        }
        self.refuse_unproven_links(rel, &meta)?;
        Ok((file, meta))
    }
}

/// A component that does not exist (or a file where a directory should be): the path names
/// nothing, which the read that follows reports.
fn is_missing(err: &std::io::Error) -> bool {
    matches!(err.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory)
}

/// A link met where none may be (ELOOP from a no-follow open) is a refusal, not an I/O error.
fn link_or_io(rel: &str, err: &std::io::Error) -> HostError {
    if err.raw_os_error() == Some(libc::ELOOP) || err.kind() == ErrorKind::NotADirectory {
        return HostError::new(
            codes::ACCESS_DENIED,
            format!("{rel}: a component became a symbolic link or is not a directory; nothing was read or written through it"),
        )
        .suggest("look at the path again (explore) and retry with a path without links");
    }
    HostError::io(rel, err)
}

fn push_hop(hops: &mut Vec<String>, hop: String) {
    if hops.last() != Some(&hop) {
        hops.push(hop);
    }
}

fn outside(path: &str) -> HostError {
    HostError::new(
        codes::ACCESS_DENIED,
        format!("{path}: leads outside the workspace root"),
    )
    .suggest("use a path inside the workspace root")
}

fn components(path: &str) -> impl Iterator<Item = String> + '_ {
    path.split('/').map(str::to_string)
}

/// `done` + `rest` with `.` dropped and `..` applied; None when it climbs above the root.
fn lexical(done: &[String], rest: &VecDeque<String>) -> Option<String> {
    let mut parts: Vec<&str> = Vec::new();
    for part in done.iter().chain(rest.iter()) {
        match part.as_str() {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(if parts.is_empty() {
        ".".to_string()
    } else {
        parts.join("/")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn ws() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        std::fs::write(root.join(".git/config"), "[core]\n").unwrap();
        std::fs::create_dir_all(root.join(".ssh")).unwrap();
        std::fs::write(root.join(".ssh/id"), "key").unwrap();
        std::fs::write(root.join(".env"), "A=1\n").unwrap();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.rs"), "fn a() {}\n").unwrap();
        symlink(".git", root.join("gitdir")).unwrap();
        symlink(".", root.join("self")).unwrap();
        symlink("hop2", root.join("hop1.txt")).unwrap();
        symlink(".env", root.join("hop2")).unwrap();
        symlink(".ssh", root.join("sshdir")).unwrap();
        symlink("src/a.rs", root.join("alias.rs")).unwrap();
        symlink("../outside", root.join("escape")).unwrap();
        let ws = Workspace::open(root).unwrap();
        (dir, ws)
    }

    #[test]
    fn resolves_every_hop() {
        let (_d, ws) = ws();
        let r = ws.resolve("hop1.txt").unwrap();
        assert_eq!(r.real, ".env");
        assert_eq!(r.hops, ["hop1.txt", "hop2", ".env"]);
        assert!(r.is_sensitive());
        assert_eq!(ws.resolve("gitdir/config").unwrap().real, ".git/config");
        assert_eq!(ws.resolve("self/self/src/a.rs").unwrap().real, "src/a.rs");
        assert_eq!(ws.resolve("sshdir/id").unwrap().real, ".ssh/id");
        assert_eq!(ws.resolve("missing/x").unwrap().real, "missing/x");
        assert_eq!(
            ws.resolve("escape/x").unwrap_err().code,
            codes::ACCESS_DENIED
        );
    }

    #[test]
    fn reads_decide_on_the_resolved_path() {
        let (_d, ws) = ws();
        for (path, code) in [
            ("hop1.txt", codes::SENSITIVE_BLOCKED),
            ("sshdir/id", codes::SENSITIVE_BLOCKED),
            ("gitdir/config", codes::ACCESS_DENIED),
            (".git/config", codes::ACCESS_DENIED),
            ("self/.git/config", codes::ACCESS_DENIED),
        ] {
            assert_eq!(
                ws.resolve_for_read(path, false).unwrap_err().code,
                code,
                "{path}"
            );
        }
        assert!(ws.resolve_for_read("hop1.txt", true).is_ok());
        assert_eq!(
            ws.resolve_for_read("alias.rs", false).unwrap().real,
            "src/a.rs"
        );
    }

    #[test]
    fn writes_never_follow_links_nor_touch_protected_places() {
        let (_d, ws) = ws();
        for (path, code) in [
            ("gitdir/config", codes::ACCESS_DENIED),
            ("self/smart-context.toml", codes::ACCESS_DENIED),
            ("self/src/a.rs", codes::ACCESS_DENIED),
            ("alias.rs", codes::ACCESS_DENIED),
            (".git/hooks/pre-commit", codes::ACCESS_DENIED),
            ("sub/.git/config", codes::ACCESS_DENIED),
            ("sub/.GIT", codes::ACCESS_DENIED),
            (".smart-context/templates/x.md", codes::ACCESS_DENIED),
            ("home/.ssh/authorized_keys2", codes::ACCESS_DENIED),
            ("smart-context.toml", codes::ACCESS_DENIED),
            ("deploy/.env.prod", codes::SENSITIVE_BLOCKED),
            ("src", codes::INVALID_PATH),
            (".", codes::INVALID_PATH),
        ] {
            assert_eq!(ws.check_write(path).unwrap_err().code, code, "{path}");
        }
        assert_eq!(ws.check_write("./src//a.rs").unwrap(), "src/a.rs");
        assert_eq!(ws.check_write("new/dir/b.rs").unwrap(), "new/dir/b.rs");
        let err = ws.check_write("alias.rs").unwrap_err();
        assert!(
            err.suggestion.unwrap().contains("src/a.rs"),
            "the suggestion names the real path"
        );
    }

    #[test]
    fn only_regular_files_open() {
        let (dir, ws) = ws();
        let fifo = dir.path().join("pipe");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: mkfifo(3) on a path we own; no memory is shared.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        assert_eq!(
            ws.open_regular("pipe").unwrap_err().code,
            codes::INVALID_PATH
        );
        assert_eq!(
            ws.open_regular("src").unwrap_err().code,
            codes::INVALID_PATH
        );
        assert_eq!(
            ws.open_regular("alias.rs").unwrap_err().code,
            codes::ACCESS_DENIED
        );
        assert!(ws.open_regular("src/a.rs").is_ok());
    }
}
