//! Git directories by what they are, not by their name.
//!
//! A `.git` directory is private state by name ([`super::policy`]), but git finds repositories
//! in other shapes too: a `.git` *file* saying `gitdir: vcs` (a worktree, a submodule, an
//! unpacked archive), that directory's `commondir`, and any directory holding `HEAD`,
//! `objects/` and `refs/` (a bare repository, used when git runs inside it). Each runs what
//! its `config` says (`core.fsmonitor`, `core.hooksPath`...), so none may be written, read or
//! listed, and no write may give a directory that shape. Hooks run at the next commit, so the
//! files `core.hooksPath` names and the usual hook managers' directories are not written
//! either.

use super::Workspace;
use crate::error::{HostError, HostResult, codes};
use cap_fs_ext::DirExt;
use std::io::Read;
use std::path::Path;

/// Directories hook managers run scripts from (husky, plain shared hooks, lefthook).
pub const HOOK_DIRS: &[&str] = &[".husky", ".githooks", ".git-hooks", ".lefthook"];

/// The most of a `.git` file, `commondir` or `config` that is read to find a path in it.
const POINTER_BYTES: u64 = 64 << 10;

/// True when the directory at `path` (a real path) has git's shape: `HEAD`, `objects/`,
/// `refs/`. For walks, which see absolute paths.
pub fn is_repository_dir(path: &Path) -> bool {
    let is = |name: &str, dir: bool| {
        std::fs::symlink_metadata(path.join(name))
            .is_ok_and(|m| if dir { m.is_dir() } else { m.is_file() })
    };
    is("HEAD", false) && is("objects", true) && is("refs", true)
}

impl Workspace {
    /// ACCESS_DENIED when `rel` (a resolved, normalized path) is inside a git directory of any
    /// shape or name, for reads and listings.
    pub(super) fn refuse_git_dir(&self, rel: &str) -> HostResult<()> {
        match self.git_dir_holding(rel) {
            Some(dir) => Err(git_dir_error(rel, &dir)),
            None => Ok(()),
        }
    }

    /// ACCESS_DENIED when writing `rel` would change a git directory, make one (the last of
    /// `HEAD`, `objects/`, `refs/` in one directory), or change a hook.
    pub(super) fn refuse_git_write(&self, rel: &str) -> HostResult<()> {
        self.refuse_git_dir(rel)?;
        let parts: Vec<&str> = rel.split('/').collect();
        for depth in 0..parts.len() {
            let dir = parts[..depth].join("/");
            let below = &parts[depth..];
            let made = |name: &str, as_dir: bool| {
                below[0] == name && (below.len() > 1) == as_dir || self.has(&dir, name, as_dir)
            };
            if made("HEAD", false) && made("objects", true) && made("refs", true) {
                return Err(HostError::new(
                    codes::ACCESS_DENIED,
                    format!(
                        "{rel}: this write would give {} the shape of a git repository (HEAD, objects/, refs/), whose config git runs",
                        if dir.is_empty() { "the root" } else { &dir }
                    ),
                )
                .suggest("write project files elsewhere; repositories are made with git itself"));
            }
        }
        if let Some(hooks) = self.hook_dir_holding(rel) {
            return Err(HostError::new(
                codes::ACCESS_DENIED,
                format!("{rel} is a git hook ({hooks}/ runs at commit, push or checkout); plugins cannot write hooks"),
            )
            .suggest("leave hooks to a human; say what the hook should do instead"));
        }
        Ok(())
    }

    /// The git directory `rel` is in (or is), if any: one shaped like a repository, or one a
    /// `.git` file on the way points to (with its `commondir`).
    /// Every read asks this, so it walks down with directory handles and asks each level
    /// about its own entries (a few `fstatat`s per level), not whole paths from the root.
    fn git_dir_holding(&self, rel: &str) -> Option<String> {
        let parts: Vec<&str> = rel
            .split('/')
            .filter(|p| !p.is_empty() && *p != ".")
            .collect();
        let mut handle = self.dir.try_clone().ok()?;
        for depth in 0..=parts.len() {
            let dir = parts[..depth].join("/");
            let entry = |name: &str, as_dir: bool| {
                handle
                    .symlink_metadata(name)
                    .is_ok_and(|m| if as_dir { m.is_dir() } else { m.is_file() })
            };
            if depth > 0 && entry("HEAD", false) && entry("objects", true) && entry("refs", true) {
                return Some(dir);
            }
            if entry(".git", false) {
                for target in self.pointed_git_dirs(&dir) {
                    if rel == target || rel.starts_with(&format!("{target}/")) {
                        return Some(target);
                    }
                }
            }
            // A file, or nothing: there is no deeper directory to ask.
            match parts.get(depth).map(|part| handle.open_dir_nofollow(part)) {
                Some(Ok(next)) => handle = next,
                _ => break,
            }
        }
        None
    }

    /// Whether `dir/name` exists as a directory (or a regular file), without following links.
    fn has(&self, dir: &str, name: &str, as_dir: bool) -> bool {
        let path = if dir.is_empty() {
            name.to_string()
        } else {
            format!("{dir}/{name}")
        };
        self.dir
            .symlink_metadata(&path)
            .is_ok_and(|m| if as_dir { m.is_dir() } else { m.is_file() })
    }

    /// The git directories inside the root that `dir/.git` (a file) names, with the
    /// `commondir` of each.
    fn pointed_git_dirs(&self, dir: &str) -> Vec<String> {
        let join = |base: &str, name: &str| {
            if base.is_empty() {
                name.to_string()
            } else {
                format!("{base}/{name}")
            }
        };
        let mut out = Vec::new();
        let Some(text) = self.small_file(&join(dir, ".git")) else {
            return out;
        };
        let Some(target) = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("gitdir:"))
            .and_then(|t| self.inside(dir, t.trim()))
        else {
            return out;
        };
        if let Some(common) = self
            .small_file(&join(&target, "commondir"))
            .and_then(|t| self.inside(&target, t.trim()))
        {
            out.push(common);
        }
        out.push(target);
        out
    }

    /// `target` (as git reads it, relative to `base` unless absolute) as a path inside the
    /// root, if it is one.
    fn inside(&self, base: &str, target: &str) -> Option<String> {
        let joined = if Path::new(target).is_absolute() {
            Path::new(target)
                .strip_prefix(self.root())
                .ok()?
                .to_string_lossy()
                .into_owned()
        } else if base.is_empty() {
            target.to_string()
        } else {
            format!("{base}/{target}")
        };
        self.normalize(&joined).ok().filter(|p| p != ".")
    }

    /// A regular file's first bytes as text, without following links; None otherwise.
    fn small_file(&self, rel: &str) -> Option<String> {
        let meta = self.dir.symlink_metadata(rel).ok()?;
        if !meta.is_file() {
            return None;
        }
        let mut text = String::new();
        self.dir
            .open(rel)
            .ok()?
            .take(POINTER_BYTES)
            .read_to_string(&mut text)
            .ok()?;
        Some(text)
    }

    /// The hook directory `rel` is in, if any: a hook manager's, or the one `core.hooksPath`
    /// names in the root's git config.
    fn hook_dir_holding(&self, rel: &str) -> Option<String> {
        let under = |dir: &str| rel == dir || rel.starts_with(&format!("{dir}/"));
        if let Some(first) = rel.split('/').next()
            && HOOK_DIRS.iter().any(|d| d.eq_ignore_ascii_case(first))
        {
            return Some(first.to_string());
        }
        let mut configs = vec![".git/config".to_string()];
        configs.extend(
            self.pointed_git_dirs("")
                .into_iter()
                .map(|d| format!("{d}/config")),
        );
        configs
            .iter()
            .filter_map(|c| self.small_file(c))
            .flat_map(|text| hooks_paths(&text))
            .filter_map(|p| self.inside("", &p))
            .find(|dir| under(dir))
    }
}

/// The `hooksPath` values of a git config's text (any section: a wrong guess only refuses
/// more).
fn hooks_paths(config: &str) -> Vec<String> {
    config
        .lines()
        .filter_map(|line| {
            let (key, value) = line.split_once('=')?;
            key.trim()
                .eq_ignore_ascii_case("hookspath")
                .then(|| value.trim().trim_matches('"').to_string())
        })
        .filter(|v| !v.is_empty())
        .collect()
}

fn git_dir_error(rel: &str, dir: &str) -> HostError {
    HostError::new(
        codes::ACCESS_DENIED,
        format!("{rel} is inside {dir}, a git directory (by its shape or a .git file naming it); version control is never read or written"),
    )
    .suggest("read and edit the project's own files; .git/ and directories like it are off limits")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::ReadOptions;

    fn fixture(files: &[(&str, &str)]) -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        for (path, text) in files {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            if path.ends_with('/') {
                std::fs::create_dir_all(&p).unwrap();
            } else {
                std::fs::write(p, text).unwrap();
            }
        }
        let ws = Workspace::open(dir.path()).unwrap();
        (dir, ws)
    }

    fn read(ws: &Workspace, path: &str) -> HostResult<Vec<u8>> {
        let options = ReadOptions {
            max_bytes: 1 << 20,
            allow_sensitive: false,
            allow_binary: false,
            allow_truncate: false,
        };
        ws.read(path, options).map(|f| f.bytes)
    }

    #[test]
    fn a_git_file_names_a_git_directory_that_is_off_limits() {
        let (_d, ws) = fixture(&[
            (".git", "gitdir: vcs\n"),
            ("vcs/HEAD", "ref: refs/heads/main\n"),
            ("vcs/config", "[core]\n"),
            ("vcs/commondir", "../shared-git\n"),
            ("shared-git/config", "[core]\n"),
            ("src/a.rs", "fn a() {}\n"),
        ]);
        for path in ["vcs/config", "vcs/hooks/pre-commit", "shared-git/config"] {
            assert_eq!(
                ws.check_write(path).unwrap_err().code,
                codes::ACCESS_DENIED,
                "{path}"
            );
        }
        for path in ["vcs/config", "shared-git/config"] {
            assert_eq!(
                read(&ws, path).unwrap_err().code,
                codes::ACCESS_DENIED,
                "{path}"
            );
        }
        assert_eq!(ws.list("vcs").unwrap_err().code, codes::ACCESS_DENIED);
        assert!(read(&ws, "src/a.rs").is_ok());
        assert!(ws.check_write("src/b.rs").is_ok());
    }

    #[test]
    fn a_directory_shaped_like_a_repository_is_never_read_listed_or_made() {
        let (_d, ws) = fixture(&[
            ("bare/HEAD", "ref: refs/heads/main\n"),
            ("bare/config", "[core]\n\tfsmonitor = ./evil\n"),
            ("bare/objects/", ""),
            ("bare/refs/", ""),
            ("half/objects/", ""),
            ("half/refs/", ""),
            ("docs/HEAD", "not git\n"),
        ]);
        assert_eq!(
            read(&ws, "bare/config").unwrap_err().code,
            codes::ACCESS_DENIED
        );
        assert_eq!(
            ws.check_write("bare/config").unwrap_err().code,
            codes::ACCESS_DENIED
        );
        let listed: Vec<String> = ws.list(".").unwrap().into_iter().map(|e| e.path).collect();
        assert!(!listed.contains(&"bare".to_string()), "{listed:?}");
        let (walked, _) = ws.walk(".", 10, 100, None).unwrap();
        assert!(
            walked.iter().all(|e| !e.path.starts_with("bare/")),
            "{walked:?}"
        );
        // The last piece of the shape is refused; a HEAD elsewhere is a file like any other.
        let err = ws.check_write("half/HEAD").unwrap_err();
        assert_eq!(err.code, codes::ACCESS_DENIED);
        assert!(
            err.message.contains("shape of a git repository"),
            "{}",
            err.message
        );
        assert!(ws.check_write("docs/HEAD").is_ok());
        assert!(ws.check_write("half/README").is_ok());
        // docs/ has a HEAD; objects/ alone does not make it a repository.
        assert!(ws.check_write("docs/objects/pack/x").is_ok());
    }

    #[test]
    fn hooks_are_not_written() {
        let (_d, ws) = fixture(&[
            (".git/config", "[core]\n\thooksPath = tools/hooks\n"),
            ("tools/hooks/pre-push", "#!/bin/sh\n"),
            ("tools/build.sh", "#!/bin/sh\n"),
            (".husky/pre-commit", "npm test\n"),
        ]);
        for path in [
            "tools/hooks/pre-push",
            ".husky/pre-commit",
            ".githooks/post-checkout",
        ] {
            let err = ws.check_write(path).unwrap_err();
            assert_eq!(err.code, codes::ACCESS_DENIED, "{path}");
            assert!(err.message.contains("hook"), "{}", err.message);
        }
        assert!(ws.check_write("tools/build.sh").is_ok());
        assert!(
            read(&ws, ".husky/pre-commit").is_ok(),
            "hooks stay readable"
        );
    }
}
