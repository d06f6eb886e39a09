//! The workspace root as a capability: every file access goes through one cap-std `Dir`, so
//! `..`, absolute paths and symlinks that leave the root are refused by construction, and every
//! path is decided by the [`authority`] on what it resolves to. Writes are atomic (temp file,
//! fsync, rename, fsync of the directory) and never follow a link.

pub mod authority;
pub mod gitdirs;
pub mod links;
pub mod policy;
#[cfg(test)]
mod property_tests;
pub mod secrets;
pub mod transactions;
pub mod view_edits;

use crate::error::{HostError, HostResult, codes};
use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

/// The most any single read keeps in memory, whatever `max_bytes` asks for.
pub const MAX_READ_BYTES: u64 = 256 << 20;

/// What `stat` and `list` report about an entry.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub path: String,
    pub kind: EntryKind,
    pub size: u64,
    pub modified_ms: u64,
    pub sensitive: bool,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EntryKind {
    File,
    Directory,
    Symlink,
    Other,
}

/// Caps and opt-ins of one read.
#[derive(Debug, Clone, Copy)]
pub struct ReadOptions {
    pub max_bytes: u64,
    pub allow_sensitive: bool,
    pub allow_binary: bool,
    pub allow_truncate: bool,
}

/// File bytes plus the facts callers need to edit safely later.
#[derive(Debug, Clone)]
pub struct FileContent {
    pub bytes: Vec<u8>,
    pub hash: String,
    pub size: u64,
    pub binary: bool,
    pub truncated: bool,
    /// Secret-looking values the guard replaced in `bytes`.
    pub redacted: usize,
}

pub struct Workspace {
    root: PathBuf,
    dir: Dir,
    links: links::Census,
    /// The operator's `read-only` policy for this root: nothing is written here.
    read_only: std::sync::atomic::AtomicBool,
}

impl Workspace {
    pub fn open(root: &Path) -> anyhow::Result<Self> {
        let root = root
            .canonicalize()
            .map_err(|e| anyhow::anyhow!("root {}: {e}", root.display()))?;
        let dir = Dir::open_ambient_dir(&root, ambient_authority())
            .map_err(|e| anyhow::anyhow!("opening root {}: {e}", root.display()))?;
        Ok(Self {
            root,
            dir,
            links: links::Census::default(),
            read_only: Default::default(),
        })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A clean relative path: `/` separators, no `.` segments, no empty path (that is `.`).
    /// Absolute paths and `..` that climb above the root are ACCESS_DENIED before any I/O.
    pub fn normalize(&self, path: &str) -> HostResult<String> {
        if path.contains('\0') {
            return Err(HostError::new(
                codes::INVALID_PATH,
                "path contains a NUL byte",
            ));
        }
        let unified = path.replace('\\', "/");
        if unified.starts_with('/')
            || Path::new(path).is_absolute()
            || unified.get(1..2) == Some(":")
        {
            return Err(HostError::new(
                codes::ACCESS_DENIED,
                format!("{path}: absolute paths are refused"),
            )
            .suggest("use a path relative to the workspace root"));
        }
        let mut parts: Vec<&str> = Vec::new();
        for part in unified.split('/') {
            match part {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() {
                        return Err(HostError::new(
                            codes::ACCESS_DENIED,
                            format!("{path}: leads outside the workspace root"),
                        )
                        .suggest("use a path inside the workspace root"));
                    }
                }
                other => parts.push(other),
            }
        }
        Ok(if parts.is_empty() {
            ".".to_string()
        } else {
            parts.join("/")
        })
    }

    /// What `path` is (through links), reported under the requested path; `.git` and
    /// `.smart-context` are not there for plugins.
    pub fn stat(&self, path: &str) -> HostResult<Entry> {
        let resolved = self.resolve_for_read(path, true)?;
        let meta = self
            .dir
            .symlink_metadata(&resolved.real)
            .map_err(|e| HostError::io(&resolved.requested, &e))?;
        let mut found = entry(resolved.requested.clone(), &meta);
        found.sensitive = resolved.is_sensitive();
        Ok(found)
    }

    /// Reads a file under `options`, decided on the path it resolves to (every link hop):
    /// sensitive files and binaries are refused unless allowed, `.git` and `.smart-context`
    /// always; only regular files are opened. A file over `max_bytes` (capped at
    /// [`MAX_READ_BYTES`]) is TOO_LARGE unless truncation is allowed; the binary sniff comes
    /// before the rest is read. Text comes as its view (secret-looking values replaced); the hash covers the whole view.
    pub fn read(&self, path: &str, options: ReadOptions) -> HostResult<FileContent> {
        let resolved = self.resolve_for_read(path, options.allow_sensitive)?;
        let rel = resolved.requested;
        let (mut file, meta) = self.open_regular(&resolved.real)?;
        let size = meta.len();
        let max_bytes = options.max_bytes.min(MAX_READ_BYTES);
        if size > max_bytes && !options.allow_truncate {
            return Err(too_large(&rel, size, max_bytes));
        }
        // The sniff comes first, on the raw head: a binary is refused before the rest is read.
        let mut head = Vec::with_capacity(policy::BINARY_SNIFF_BYTES);
        let mut buf = vec![0u8; 64 * 1024];
        while head.len() < policy::BINARY_SNIFF_BYTES {
            let want = (policy::BINARY_SNIFF_BYTES - head.len()).min(buf.len());
            let n = file
                .read(&mut buf[..want])
                .map_err(|e| HostError::io(&rel, &e))?;
            if n == 0 {
                break;
            }
            head.extend_from_slice(&buf[..n]);
        }
        let binary = policy::looks_binary(&head);
        if binary && !options.allow_binary {
            return Err(binary_blocked(&rel));
        }
        // What the caller gets is the view: text with secret-looking values replaced, hashed
        // as shown, so neither the bytes nor the hash tell a hidden value (see secrets.rs).
        let mut hasher = blake3::Hasher::new();
        let mut kept = Vec::with_capacity(size.min(max_bytes) as usize);
        let mut total = 0u64;
        let mut sink = |piece: &[u8]| {
            hasher.update(piece);
            let room = max_bytes.saturating_sub(kept.len() as u64) as usize;
            kept.extend_from_slice(&piece[..piece.len().min(room)]);
            total += piece.len() as u64;
        };
        let mut redactor = (!binary).then(secrets::Redactor::default);
        let mut feed = |bytes: &[u8]| match redactor.as_mut() {
            Some(r) => r.push(bytes, &mut sink),
            None => sink(bytes),
        };
        feed(&head);
        loop {
            let n = file.read(&mut buf).map_err(|e| HostError::io(&rel, &e))?;
            if n == 0 {
                break;
            }
            feed(&buf[..n]);
        }
        let redacted = redactor.map_or(0, |r| r.finish(&mut sink));
        Ok(FileContent {
            truncated: total > kept.len() as u64,
            bytes: kept,
            hash: hasher.finalize().to_hex().to_string(),
            size: total,
            binary,
            redacted,
        })
    }

    /// Byte ranges of a text file, each as its own view (secret-looking values replaced in
    /// it as if it were the whole text), under the decisions [`read`](Self::read) takes on
    /// the path, the size and the head: for the search index reading back the chunks it
    /// does not store, a few lines of many files, without reading and screening each file
    /// whole. Its callers compare what they get with what a whole read gave before, since a
    /// piece alone can miss context (a key block begun above it). A range past the end is
    /// cut short. Binaries are refused, whatever `options` allows.
    pub fn read_pieces(
        &self,
        path: &str,
        pieces: &[std::ops::Range<u64>],
        options: ReadOptions,
    ) -> HostResult<Vec<Vec<u8>>> {
        use cap_std::fs::FileExt;
        let resolved = self.resolve_for_read(path, options.allow_sensitive)?;
        let rel = resolved.requested;
        let (file, meta) = self.open_regular(&resolved.real)?;
        let size = meta.len();
        let max_bytes = options.max_bytes.min(MAX_READ_BYTES);
        if size > max_bytes {
            return Err(too_large(&rel, size, max_bytes));
        }
        let read_at = |range: &std::ops::Range<u64>| -> HostResult<Vec<u8>> {
            let end = range.end.min(size);
            let mut bytes = vec![0u8; end.saturating_sub(range.start) as usize];
            let mut done = 0;
            while done < bytes.len() {
                match file.read_at(&mut bytes[done..], range.start + done as u64) {
                    Ok(0) => break,
                    Ok(n) => done += n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(HostError::io(&rel, &e)),
                }
            }
            bytes.truncate(done);
            Ok(bytes)
        };
        let head = read_at(&(0..policy::BINARY_SNIFF_BYTES as u64))?;
        if policy::looks_binary(&head) {
            return Err(binary_blocked(&rel));
        }
        pieces
            .iter()
            .map(|range| {
                let bytes = read_at(range)?;
                Ok(secrets::view(&bytes, &secrets::spans(&bytes)).into_owned())
            })
            .collect()
    }

    /// Whole content and hash of a path a transaction may write (already checked by
    /// [`check_write`](Self::check_write)), or None when it does not exist. Never follows a
    /// link; over `max_bytes` is TOO_LARGE without reading it.
    pub fn snapshot(&self, rel: &str, max_bytes: u64) -> HostResult<Option<(Vec<u8>, String)>> {
        let (mut file, meta) = match self.open_regular(rel) {
            Ok(opened) => opened,
            Err(err) if err.code == codes::FILE_NOT_FOUND => return Ok(None),
            Err(err) => return Err(err),
        };
        let size = meta.len();
        if size > max_bytes {
            return Err(HostError::new(
                codes::TOO_LARGE,
                format!("{rel} is over {max_bytes} bytes"),
            ));
        }
        let mut bytes = Vec::with_capacity(size as usize);
        Read::by_ref(&mut file)
            .take(max_bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| HostError::io(rel, &e))?;
        let hash = hash_bytes(&bytes);
        Ok(Some((bytes, hash)))
    }

    /// Sets the modification time of the regular file `rel` (never through a link): how an
    /// output is dated to when its inputs were read rather than when it was written.
    pub fn set_modified(&self, rel: &str, when: std::time::SystemTime) -> HostResult<()> {
        let (file, _) = self.open_regular(rel)?;
        file.into_std()
            .set_modified(when)
            .map_err(|e| HostError::io(rel, &e))
    }

    /// The real directory `path` resolves to (listings walk it, never a link), or
    /// INVALID_PATH when it is not a directory; `.git` and `.smart-context` are refused.
    fn directory(&self, path: &str) -> HostResult<String> {
        let resolved = self.resolve_for_read(path, true)?;
        let rel = resolved.real;
        let meta = self
            .dir
            .symlink_metadata(&rel)
            .map_err(|e| HostError::io(&resolved.requested, &e))?;
        if !meta.is_dir() {
            return Err(HostError::new(
                codes::INVALID_PATH,
                format!("{} is not a directory", resolved.requested),
            ));
        }
        Ok(rel)
    }

    /// The entries of one directory, sorted, with ignore rules (.gitignore, .ignore) applied
    /// and `.git` / `.smart-context` left out.
    pub fn list(&self, path: &str) -> HostResult<Vec<Entry>> {
        let rel = self.directory(path)?;
        let mut entries = Vec::new();
        for item in self.walker(&rel).max_depth(Some(1)).build().skip(1) {
            let Ok(item) = item else { continue };
            let Some(child) = self.relative(item.path()) else {
                continue;
            };
            if let Ok(meta) = self.dir.symlink_metadata(&child)
                && self.listable(&meta)
            {
                let mut found = entry(child, &meta);
                if meta.is_symlink() {
                    found.sensitive = self.is_sensitive(&found.path);
                }
                entries.push(found);
            }
        }
        entries.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(entries)
    }

    /// Files under the directory `path`, recursively to `max_depth` levels, ignore rules
    /// applied, keeping those whose root-relative path matches `glob`; stops after
    /// `max_files` (the flag says so). Paths come back sorted.
    pub fn walk(
        &self,
        path: &str,
        max_depth: usize,
        max_files: usize,
        glob: Option<&str>,
    ) -> HostResult<(Vec<Entry>, bool)> {
        let rel = self.directory(path)?;
        let matcher = glob
            .map(|g| {
                globset::GlobBuilder::new(g)
                    .literal_separator(true)
                    .build()
                    .map(|g| g.compile_matcher())
                    .map_err(|e| {
                        HostError::new(codes::INVALID_ARGS, format!("glob {g:?}: {e}"))
                            .suggest("use globset syntax: `src/**/*.rs`, `docs/*.{md,txt}`")
                    })
            })
            .transpose()?;
        let mut files = Vec::new();
        let mut truncated = false;
        for item in self.walker(&rel).max_depth(Some(max_depth.max(1))).build() {
            let Ok(item) = item else { continue };
            if !item.file_type().is_some_and(|t| t.is_file()) {
                continue;
            }
            let Some(child) = self.relative(item.path()) else {
                continue;
            };
            if matcher.as_ref().is_some_and(|m| !m.is_match(&child)) {
                continue;
            }
            if files.len() == max_files {
                truncated = true;
                break;
            }
            if let Ok(meta) = self.dir.symlink_metadata(&child)
                && self.listable(&meta)
            {
                files.push(entry(child, &meta));
            }
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        Ok((files, truncated))
    }

    /// An ignore-aware walker over `rel` (hidden files included, VCS and state dirs skipped),
    /// shared by listing and searching so they agree on what exists.
    pub fn walker(&self, rel: &str) -> ignore::WalkBuilder {
        let start = if rel == "." {
            self.root.clone()
        } else {
            self.root.join(rel)
        };
        let mut builder = ignore::WalkBuilder::new(start);
        builder
            .hidden(false)
            .follow_links(false)
            .require_git(false)
            .filter_entry(|e| !walk_skips(e));
        builder
    }

    /// `path` (under the root) as a `/`-separated relative path.
    pub fn relative(&self, path: &Path) -> Option<String> {
        let rel = path.strip_prefix(&self.root).ok()?;
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Some(if parts.is_empty() {
            ".".to_string()
        } else {
            parts.join("/")
        })
    }

    /// Sensitive by name, or through any link hop on the way to the real file (a path that
    /// cannot be resolved, a link out of the root, is judged by its name: reading it is refused
    /// anyway).
    pub fn is_sensitive(&self, rel: &str) -> bool {
        policy::is_sensitive(rel) || self.resolve(rel).is_ok_and(|r| r.is_sensitive())
    }

    /// Replaces (or creates) `rel` atomically: parents created, a temp file beside it written
    /// and fsynced, renamed over the target, and the directory fsynced, so a crash leaves the
    /// old or the new content and never a mix. An existing file keeps its permissions. No
    /// component is followed as a link: the directories are opened one by one without
    /// following, so a link swapped in after the checks fails the write instead of steering it.
    pub fn write_atomic(&self, rel: &str, bytes: &[u8]) -> std::io::Result<()> {
        let (parent, name) = split_parent(rel);
        let dir = self.open_dir_chain(parent, true)?;
        if dir.symlink_metadata(name).is_ok_and(|m| m.is_symlink()) {
            return Err(std::io::Error::from_raw_os_error(libc::ELOOP));
        }
        let tmp = format!(".{name}.sc-tmp-{}", uuid::Uuid::new_v4().simple());
        let result = (|| {
            let mut file = dir.open_with(&tmp, OpenOptions::new().write(true).create_new(true))?;
            file.write_all(bytes)?;
            if let Ok(meta) = dir.symlink_metadata(name)
                && meta.is_file()
            {
                file.set_permissions(meta.permissions())?;
            }
            file.sync_all()?;
            dir.rename(&tmp, &dir, name)?;
            dir.open(".")?.sync_all()
        })();
        if result.is_err() {
            let _ = dir.remove_file(&tmp);
        }
        result
    }

    /// Removes the temp files a crash left next to `rel` (`.<name>.sc-tmp-*`), best-effort.
    pub fn remove_temp_files(&self, rel: &str) {
        let (parent, name) = split_parent(rel);
        let prefix = format!(".{name}.sc-tmp-");
        let Ok(dir) = self.open_dir_chain(parent, false) else {
            return;
        };
        let Ok(entries) = dir.entries() else { return };
        for entry in entries.flatten() {
            if entry.file_name().to_string_lossy().starts_with(&prefix) {
                let _ = dir.remove_file(entry.file_name());
            }
        }
    }

    /// Removes `rel` (a link is removed itself, never its target) and fsyncs its directory.
    pub fn remove(&self, rel: &str) -> std::io::Result<()> {
        let (parent, name) = split_parent(rel);
        let dir = self.open_dir_chain(parent, false)?;
        dir.remove_file(name)?;
        dir.open(".")?.sync_all()
    }
}

fn too_large(rel: &str, size: u64, max_bytes: u64) -> HostError {
    HostError::new(
        codes::TOO_LARGE,
        format!("{rel} is {size} bytes, over the limit of {max_bytes}"),
    )
    .suggest(if size > MAX_READ_BYTES {
        format!("read a preview or a line range; no read keeps more than {MAX_READ_BYTES} bytes")
    } else {
        format!("raise limits.maxBytes to at least {size}, or read a preview")
    })
    .details(serde_json::json!({ "size": size, "limit": max_bytes }))
}

fn binary_blocked(rel: &str) -> HostError {
    HostError::new(codes::BINARY_BLOCKED, format!("{rel} is a binary file"))
        .suggest("pass allowBinary=true to read it anyway")
}

/// BLAKE3 hex of `bytes`: the hash edits compare against.
pub fn hash_bytes(bytes: &[u8]) -> String {
    blake3::hash(bytes).to_hex().to_string()
}

/// Entries every walk leaves out, with what is under them: `.git` and `.smart-context` by
/// name, and directories shaped like a git repository (see [`gitdirs`]).
pub fn walk_skips(entry: &ignore::DirEntry) -> bool {
    policy::is_skipped_dir_name(&entry.file_name().to_string_lossy())
        || entry.file_type().is_some_and(|t| t.is_dir())
            && entry.depth() > 0
            && gitdirs::is_repository_dir(entry.path())
}

/// What reads show of `bytes` and where its values were hidden: text with secret-looking
/// values replaced by markers, a binary (a NUL in its first 8 KiB) as it is. The one
/// definition [`Workspace::read`] streams and transactions compare against.
pub fn view_of(bytes: &[u8]) -> (std::borrow::Cow<'_, [u8]>, Vec<secrets::Span>) {
    if policy::looks_binary(bytes) {
        return (std::borrow::Cow::Borrowed(bytes), Vec::new());
    }
    let spans = secrets::spans(bytes);
    (secrets::view(bytes, &spans), spans)
}

/// The hash a read reports for `bytes`: of its view.
pub fn view_hash(bytes: &[u8]) -> String {
    hash_bytes(&view_of(bytes).0)
}

fn entry(path: String, meta: &cap_std::fs::Metadata) -> Entry {
    let kind = if meta.is_symlink() {
        EntryKind::Symlink
    } else if meta.is_dir() {
        EntryKind::Directory
    } else if meta.is_file() {
        EntryKind::File
    } else {
        EntryKind::Other
    };
    let modified_ms = meta
        .modified()
        .ok()
        .and_then(|t| t.into_std().duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis() as u64);
    let sensitive = policy::is_sensitive(&path);
    Entry {
        path,
        kind,
        size: meta.len(),
        modified_ms,
        sensitive,
    }
}

fn split_parent(rel: &str) -> (&str, &str) {
    rel.rsplit_once('/').unwrap_or(("", rel))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ws() -> (tempfile::TempDir, Workspace) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.rs"), "fn a() {}\n").unwrap();
        std::fs::write(dir.path().join(".env"), "SECRET=1\n").unwrap();
        std::fs::write(dir.path().join("blob.bin"), b"\x00\x01\x02").unwrap();
        let ws = Workspace::open(dir.path()).unwrap();
        (dir, ws)
    }

    const OPEN: ReadOptions = ReadOptions {
        max_bytes: 1 << 20,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: false,
    };

    #[test]
    fn walks_recursively_with_depth_cap_and_globs() {
        let (dir, ws) = ws();
        for path in [
            "src/deep/b.rs",
            "src/deep/er/c.rs",
            "docs/x.md",
            ".gitignore",
        ] {
            let p = dir.path().join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "x\n").unwrap();
        }
        std::fs::write(dir.path().join(".gitignore"), "*.bin\n").unwrap();
        let paths = |files: Vec<Entry>| files.into_iter().map(|e| e.path).collect::<Vec<_>>();
        let (all, cut) = ws.walk(".", 5, 100, None).unwrap();
        assert!(!cut);
        assert_eq!(
            paths(all),
            [
                ".env",
                ".gitignore",
                "docs/x.md",
                "src/a.rs",
                "src/deep/b.rs",
                "src/deep/er/c.rs"
            ]
        );
        assert_eq!(
            paths(ws.walk("src", 2, 100, None).unwrap().0),
            ["src/a.rs", "src/deep/b.rs"]
        );
        assert_eq!(
            paths(ws.walk(".", 5, 100, Some("src/**/*.rs")).unwrap().0).len(),
            3
        );
        assert_eq!(
            paths(ws.walk(".", 5, 100, Some("*.rs")).unwrap().0),
            Vec::<String>::new()
        );
        let (two, cut) = ws.walk(".", 5, 2, None).unwrap();
        assert!(cut && two.len() == 2);
        assert_eq!(
            ws.walk(".", 5, 9, Some("src/[")).unwrap_err().code,
            codes::INVALID_ARGS
        );
        assert_eq!(
            ws.walk("src/a.rs", 5, 9, None).unwrap_err().code,
            codes::INVALID_PATH
        );
    }

    #[test]
    fn normalize_refuses_escapes() {
        let (_d, ws) = ws();
        assert_eq!(ws.normalize("./src//a.rs").unwrap(), "src/a.rs");
        assert_eq!(ws.normalize("src/../src/a.rs").unwrap(), "src/a.rs");
        assert_eq!(ws.normalize("").unwrap(), ".");
        for bad in ["../x", "/etc/passwd", "src/../../x", "C:\\x"] {
            assert_eq!(
                ws.normalize(bad).unwrap_err().code,
                codes::ACCESS_DENIED,
                "{bad}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_out_of_the_root_are_refused() {
        let (dir, ws) = ws();
        std::os::unix::fs::symlink("/etc", dir.path().join("etc-link")).unwrap();
        std::os::unix::fs::symlink(".env", dir.path().join("innocent.txt")).unwrap();
        let err = ws.read("etc-link/passwd", OPEN).unwrap_err();
        assert_eq!(err.code, codes::ACCESS_DENIED, "{err}");
        let err = ws.read("innocent.txt", OPEN).unwrap_err();
        assert_eq!(err.code, codes::SENSITIVE_BLOCKED, "{err}");
    }

    #[test]
    fn reads_respect_policy_and_caps() {
        let (_d, ws) = ws();
        assert_eq!(
            ws.read(".env", OPEN).unwrap_err().code,
            codes::SENSITIVE_BLOCKED
        );
        assert!(
            ws.read(
                ".env",
                ReadOptions {
                    allow_sensitive: true,
                    ..OPEN
                }
            )
            .is_ok()
        );
        assert_eq!(
            ws.read("blob.bin", OPEN).unwrap_err().code,
            codes::BINARY_BLOCKED
        );
        let small = ReadOptions {
            max_bytes: 4,
            ..OPEN
        };
        assert_eq!(
            ws.read("src/a.rs", small).unwrap_err().code,
            codes::TOO_LARGE
        );
        let cut = ws
            .read(
                "src/a.rs",
                ReadOptions {
                    allow_truncate: true,
                    ..small
                },
            )
            .unwrap();
        assert_eq!(
            (cut.bytes.as_slice(), cut.truncated, cut.size),
            (&b"fn a"[..], true, 10)
        );
        assert_eq!(cut.hash, hash_bytes(b"fn a() {}\n"));
        assert_eq!(
            ws.read("nope", OPEN).unwrap_err().code,
            codes::FILE_NOT_FOUND
        );
    }

    #[test]
    fn atomic_write_creates_parents_and_leaves_no_temp() {
        let (dir, ws) = ws();
        ws.write_atomic("new/deep/f.txt", b"hi").unwrap();
        assert_eq!(
            std::fs::read(dir.path().join("new/deep/f.txt")).unwrap(),
            b"hi"
        );
        ws.write_atomic("new/deep/f.txt", b"again").unwrap();
        let names: Vec<_> = std::fs::read_dir(dir.path().join("new/deep"))
            .unwrap()
            .collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn list_applies_ignore_rules() {
        let (dir, ws) = ws();
        std::fs::write(dir.path().join(".gitignore"), "ignored/\n").unwrap();
        std::fs::create_dir(dir.path().join("ignored")).unwrap();
        std::fs::create_dir(dir.path().join(".git")).unwrap();
        let names: Vec<String> = ws.list(".").unwrap().into_iter().map(|e| e.path).collect();
        assert_eq!(names, [".env", ".gitignore", "blob.bin", "src"]);
        let env = ws
            .list(".")
            .unwrap()
            .into_iter()
            .find(|e| e.path == ".env")
            .unwrap();
        assert!(env.sensitive);
    }
}
