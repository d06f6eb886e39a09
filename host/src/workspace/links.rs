//! Hard links: one file under several names. Name and place rules decide on the name a request
//! uses, so `ln .env notes.txt`, `ln .git/config gitconfig.txt` or a link to a file outside the
//! root (a tar archive can ship any of them) would read a secret under a harmless name. A
//! regular file with more than one name is therefore read, listed and indexed only when the
//! operator allows hard links (`[workspace] allow_hard_links = true`), or when the host has
//! proven by device and inode that every one of its names is inside the root and none is
//! sensitive or private: the last walk found each name ([`Census`]), and each still is that
//! file when it is read.

use super::{Workspace, policy};
use crate::error::{HostError, HostResult, codes};
use cap_std::fs::{Metadata, MetadataExt};
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

/// The names the last walk found for each file with more than one, by device and inode.
#[derive(Default)]
pub struct Census {
    names: Mutex<HashMap<(u64, u64), Vec<String>>>,
    allowed: AtomicBool,
}

impl Workspace {
    /// Lets every hard-linked file through, as the operator decided.
    pub fn allow_hard_links(&self, allowed: bool) {
        self.links.allowed.store(allowed, Ordering::Relaxed);
    }

    /// Replaces the census with what a whole walk found: `(device, inode, path)` of every
    /// regular file with more than one link.
    pub fn record_links(&self, found: impl IntoIterator<Item = (u64, u64, String)>) {
        let mut names: HashMap<(u64, u64), Vec<String>> = HashMap::new();
        for (dev, ino, path) in found {
            names.entry((dev, ino)).or_default().push(path);
        }
        for paths in names.values_mut() {
            paths.sort();
            paths.dedup();
        }
        *self.links.names.lock().unwrap_or_else(|e| e.into_inner()) = names;
    }

    /// ACCESS_DENIED for a file with more than one name that is not proven harmless.
    pub(super) fn refuse_unproven_links(&self, rel: &str, meta: &Metadata) -> HostResult<()> {
        if self.links_proven(meta) {
            return Ok(());
        }
        Err(HostError::new(
            codes::ACCESS_DENIED,
            format!(
                "{rel} has {} names (hard links), and not all of them are known to be project files: it could be a secret or a file outside the root under another name",
                meta.nlink()
            ),
        )
        .suggest("the operator can allow hard links with [workspace] allow_hard_links = true in smart-context.toml, or replace the link by a copy")
        .details(serde_json::json!({ "reason": "hard-link", "links": meta.nlink() })))
    }

    /// Whether a listing may show the entry with metadata `meta`.
    pub(super) fn listable(&self, meta: &Metadata) -> bool {
        !meta.is_file() || self.links_proven(meta)
    }

    fn links_proven(&self, meta: &Metadata) -> bool {
        if meta.nlink() <= 1 || self.links.allowed.load(Ordering::Relaxed) {
            return true;
        }
        let key = (meta.dev(), meta.ino());
        let names = self
            .links
            .names
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned()
            .unwrap_or_default();
        names.len() as u64 == meta.nlink()
            && names.iter().all(|name| {
                !policy::is_sensitive(name)
                    && !policy::is_private_state(name)
                    && self
                        .dir
                        .symlink_metadata(name)
                        .is_ok_and(|m| m.is_file() && (m.dev(), m.ino()) == key)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::ReadOptions;
    use std::os::unix::fs::MetadataExt as _;

    const READ: ReadOptions = ReadOptions {
        max_bytes: 1 << 20,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: false,
    };

    /// What a whole walk would record: every regular file with more than one name.
    fn census(ws: &Workspace, paths: &[&str]) {
        ws.record_links(paths.iter().map(|p| {
            let meta = std::fs::metadata(ws.root().join(p)).unwrap();
            (meta.dev(), meta.ino(), p.to_string())
        }));
    }

    #[test]
    fn a_second_name_is_read_only_when_every_name_is_a_harmless_project_file() {
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("secret.txt"), "outside\n").unwrap();
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join(".env"), "A=1\n").unwrap();
        std::fs::hard_link(root.join(".env"), root.join("notes.txt")).unwrap();
        std::fs::hard_link(outside.path().join("secret.txt"), root.join("copy.txt")).unwrap();
        std::fs::write(root.join("a.txt"), "same\n").unwrap();
        std::fs::hard_link(root.join("a.txt"), root.join("b.txt")).unwrap();
        let ws = Workspace::open(root).unwrap();
        census(&ws, &[".env", "notes.txt", "copy.txt", "a.txt", "b.txt"]);
        for path in ["notes.txt", "copy.txt"] {
            let err = ws.read(path, READ).unwrap_err();
            assert_eq!(err.code, codes::ACCESS_DENIED, "{path}");
            assert!(err.message.contains("hard links"), "{}", err.message);
        }
        assert_eq!(ws.read("b.txt", READ).unwrap().bytes, b"same\n");
        let listed: Vec<String> = ws.list(".").unwrap().into_iter().map(|e| e.path).collect();
        // .env shares its inode with notes.txt: neither is listed.
        assert_eq!(listed, ["a.txt", "b.txt"]);
        // A third name made since the walk is not proven: refused again.
        std::fs::hard_link(root.join("a.txt"), outside.path().join("third")).unwrap();
        assert_eq!(
            ws.read("b.txt", READ).unwrap_err().code,
            codes::ACCESS_DENIED
        );
        // The operator may let them all through.
        ws.allow_hard_links(true);
        assert_eq!(ws.read("copy.txt", READ).unwrap().bytes, b"outside\n");
    }
}
