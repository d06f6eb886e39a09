//! The parallel walk: every file under the root that the ignore rules let through, with its
//! size and mtime, in path order. Nothing is read here; reading is the indexer's job.

use crate::workspace::Workspace;
use ignore::WalkState;
use ignore::overrides::OverrideBuilder;
use std::os::unix::fs::MetadataExt;
use std::sync::Mutex;

/// Directories never indexed, wherever they are, on top of .gitignore and .ignore.
pub const EXCLUDED_DIRS: &[&str] = &[
    "node_modules",
    "target",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
];

/// A file the walk found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub path: String,
    pub size: u64,
    pub mtime_ms: u64,
}

/// What the walk saw and what reads it, as one hash: equal fingerprints mean no file was
/// added, removed or touched (by size and mtime) in between, and the same readers would read
/// them (`readers`, see `classify::readers`). `found` is in path order, as [`scan`] returns it.
pub fn fingerprint(found: &[Found], readers: &str) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(readers.as_bytes());
    hasher.update(&[0]);
    for f in found {
        hasher.update(f.path.as_bytes());
        hasher.update(&[0]);
        hasher.update(&f.size.to_le_bytes());
        hasher.update(&f.mtime_ms.to_le_bytes());
    }
    hasher.finalize().to_hex().to_string()
}

/// Walks `ws` on all cores. `exclude` holds extra gitignore-style globs from the config.
pub fn scan(ws: &Workspace, exclude: &[String]) -> anyhow::Result<Vec<Found>> {
    let mut overrides = OverrideBuilder::new(ws.root());
    for glob in exclude {
        overrides
            .add(&format!("!{glob}"))
            .map_err(|e| anyhow::anyhow!("index.exclude pattern {glob:?}: {e}"))?;
    }
    let overrides = overrides.build()?;
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let walker = ws
        .walker(".")
        .overrides(overrides)
        .threads(threads)
        .filter_entry(|e| {
            let name = e.file_name();
            !(crate::workspace::walk_skips(e)
                || e.file_type().is_some_and(|t| t.is_dir())
                    && EXCLUDED_DIRS.iter().any(|d| name == *d))
        })
        .build_parallel();
    let found = Mutex::new(Vec::new());
    let linked = Mutex::new(Vec::new());
    walker.run(|| {
        let found = &found;
        let linked = &linked;
        Box::new(move |entry| {
            let Ok(entry) = entry else {
                return WalkState::Continue;
            };
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                return WalkState::Continue;
            }
            let Some(path) = ws.relative(entry.path()) else {
                return WalkState::Continue;
            };
            // A file deleted between listing and stat is simply not found.
            if let Ok(meta) = entry.metadata() {
                let mtime_ms = meta
                    .modified()
                    .ok()
                    .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                    .map_or(0, |d| d.as_millis() as u64);
                if meta.nlink() > 1 {
                    linked
                        .lock()
                        .unwrap()
                        .push((meta.dev(), meta.ino(), path.clone()));
                }
                found.lock().unwrap().push(Found {
                    path,
                    size: meta.len(),
                    mtime_ms,
                });
            }
            WalkState::Continue
        })
    });
    // The names of hard-linked files, for the workspace to decide which it may read.
    ws.record_links(linked.into_inner().unwrap());
    let mut found = found.into_inner().unwrap();
    found.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn honours_ignore_files_excluded_dirs_and_config_globs() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, text) in [
            ("src/a.rs", "fn a() {}"),
            ("src/gen/b.rs", "fn b() {}"),
            ("node_modules/x/index.js", "x"),
            ("target/debug/out.rs", "x"),
            (".git/config", "x"),
            (".hidden/kept.txt", "x"),
            ("ignored.log", "x"),
            ("docs/readme.md", "# x"),
            (".gitignore", "*.log\n"),
        ] {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let ws = Workspace::open(root).unwrap();
        let paths: Vec<String> = scan(&ws, &["src/gen/".into()])
            .unwrap()
            .into_iter()
            .map(|f| f.path)
            .collect();
        assert_eq!(
            paths,
            [
                ".gitignore",
                ".hidden/kept.txt",
                "docs/readme.md",
                "src/a.rs"
            ]
        );
    }
}
