//! Property tests of the path authority: random trees of files, directories and links (into the
//! root, out of it, into protected places), random request paths. Whatever the tree and the
//! request: a write lands only on a regular file under the root, outside every protected place,
//! through no link; a read never returns the bytes of a sensitive file without the opt-in, nor
//! anything from `.git` or `.smart-context`.

use super::transactions::{Change, Transactions};
use super::{ReadOptions, Workspace, policy};
use crate::store::{JournalKey, Store};
use proptest::prelude::*;
use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::sync::Mutex;

/// Names of entries and request components; the last two only in requests and link targets.
const NAMES: &[&str] = &[
    "a",
    "b",
    "sub",
    ".git",
    ".GIT",
    ".smart-context",
    ".ssh",
    ".env",
    "id_rsa",
    "x.txt",
    "..",
    ".",
];

#[derive(Debug, Clone)]
enum Node {
    Dir,
    File,
    /// A relative target inside the tree, or (true) one in the sibling `outside` directory.
    Link(String, bool),
}

fn name() -> impl Strategy<Value = String> {
    prop::sample::select(NAMES).prop_map(str::to_string)
}

fn rel_path(max: usize) -> impl Strategy<Value = String> {
    prop::collection::vec(name(), 1..=max).prop_map(|parts| parts.join("/"))
}

fn node() -> impl Strategy<Value = Node> {
    prop_oneof![
        1 => Just(Node::Dir),
        4 => Just(Node::File),
        4 => (rel_path(3), prop::bool::weighted(0.2)).prop_map(|(t, out)| Node::Link(t, out)),
    ]
}

/// Paths of the tree's own entries: names only, no `.` or `..`.
fn entry_path() -> impl Strategy<Value = String> {
    let entry_name = prop::sample::select(&NAMES[..NAMES.len() - 2]).prop_map(str::to_string);
    prop::collection::vec(entry_name, 1..=3).prop_map(|parts| parts.join("/"))
}

fn tree() -> impl Strategy<Value = Vec<(String, Node)>> {
    prop::collection::vec((entry_path(), node()), 1..14)
}

/// A tree and a request; links and requests mostly aim at paths the tree has (a random path
/// rarely names anything), sometimes with a component more or a `..` on the way.
fn tree_and_request() -> impl Strategy<Value = (Vec<(String, Node)>, String)> {
    tree().prop_flat_map(|nodes| {
        let paths: Vec<String> = nodes.iter().map(|(p, _)| p.clone()).collect();
        let aimed = || {
            (
                prop::sample::select(paths.clone()),
                prop::option::weighted(0.25, name()),
            )
                .prop_map(|(p, extra)| match extra {
                    Some(e) => format!("{p}/{e}"),
                    None => p,
                })
                .boxed()
        };
        let retarget = prop::collection::vec(
            (
                prop::sample::select(paths.clone()),
                prop::bool::weighted(0.7),
            ),
            nodes.len(),
        );
        // Through a link: where a write could be steered and a read could leak.
        let link_paths: Vec<String> = nodes
            .iter()
            .filter(|(_, n)| matches!(n, Node::Link(..)))
            .map(|(p, _)| p.clone())
            .collect();
        let through_link = if link_paths.is_empty() {
            aimed()
        } else {
            (
                prop::sample::select(link_paths),
                prop::option::weighted(0.6, name()),
            )
                .prop_map(|(p, extra)| match extra {
                    Some(e) => format!("{p}/{e}"),
                    None => p,
                })
                .boxed()
        };
        let request = prop_oneof![3 => aimed(), 3 => through_link, 1 => rel_path(4).boxed()];
        (Just(nodes), retarget, request).prop_map(|(mut nodes, targets, request)| {
            // Half of the links point at another node of the tree, as `../`-free relative
            // paths from the root (made relative to the link's own directory).
            for ((path, node), (target, aim)) in nodes.iter_mut().zip(targets) {
                if let Node::Link(t, false) = node
                    && aim
                {
                    let depth = path.matches('/').count();
                    *t = format!("{}{target}", "../".repeat(depth));
                }
            }
            (nodes, request)
        })
    })
}

/// Where a file's content says it came from: sensitive and private ones carry markers, by the
/// place the file really lands (a parent may be a link).
fn content_for(root: &Path, path: &Path, i: usize) -> String {
    let real_parent = path.parent().and_then(|p| p.canonicalize().ok());
    let rel = match real_parent.as_deref().map(|p| p.strip_prefix(root)) {
        Some(Ok(parent)) => parent
            .join(path.file_name().unwrap_or_default())
            .to_string_lossy()
            .into_owned(),
        _ => return "OUTSIDE".to_string(),
    };
    let rel = rel.as_str();
    if policy::is_private_state(rel) {
        format!("PRIVATE-{i}")
    } else if policy::is_sensitive(rel) {
        format!("SECRET-{i}")
    } else {
        format!("plain-{i}")
    }
}

fn build(root: &Path, outside: &Path, nodes: &[(String, Node)]) {
    let canonical = root.canonicalize().unwrap();
    for (i, (rel, node)) in nodes.iter().enumerate() {
        if rel.split('/').any(|p| p == ".." || p == ".") {
            continue;
        }
        let path = root.join(rel);
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        // A later entry of the same name as an earlier link would be written through that link
        // and its content labelled by the link's name, not by where the bytes land: keep the link.
        if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            continue;
        }
        let _ = match node {
            Node::Dir => std::fs::create_dir_all(&path),
            Node::File => std::fs::write(&path, content_for(&canonical, &path, i)),
            Node::Link(target, false) => symlink(target, &path),
            Node::Link(target, true) => symlink(outside.join(target), &path),
        };
    }
}

/// Every entry under `dir` (links not followed): path -> type and content.
fn snapshot(dir: &Path) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let rel = path
                .strip_prefix(dir)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            let value = if meta.file_type().is_symlink() {
                format!("link:{}", std::fs::read_link(&path).unwrap().display())
            } else if meta.is_dir() {
                stack.push(path);
                "dir".to_string()
            } else {
                format!(
                    "file:{}",
                    String::from_utf8_lossy(&std::fs::read(&path).unwrap())
                )
            };
            out.insert(rel, value);
        }
    }
    out
}

/// True when no prefix of `rel` under `root` is a symbolic link.
fn no_link_on_the_way(root: &Path, rel: &str) -> bool {
    let mut here = root.to_path_buf();
    rel.split('/').all(|part| {
        here.push(part);
        !std::fs::symlink_metadata(&here).is_ok_and(|m| m.file_type().is_symlink())
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn writes_land_only_on_allowed_regular_files((nodes, request) in tree_and_request()) {
        let dir = tempfile::tempdir().unwrap();
        let (root, outside) = (dir.path().join("root"), dir.path().join("outside"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(outside.join("a")).unwrap();
        std::fs::write(outside.join("x.txt"), "outside").unwrap();
        build(&root, &outside, &nodes);
        let ws = Workspace::open(&root).unwrap();
        let store: Mutex<Box<dyn crate::store::rows::JournalRows>> = Mutex::new(Box::new(
            Store::open(&dir.path().join("state.db"), JournalKey::from_bytes([3; 32])).unwrap(),
        ));
        let before_root = snapshot(&root);
        let before_outside = snapshot(&outside);
        let current = ws.normalize(&request).ok().and_then(|rel| ws.snapshot(&rel, 1 << 20).ok().flatten());
        let result = Transactions { workspace: &ws, store: &store }.apply(
            "property",
            vec![Change {
                path: request.clone(),
                content: Some(b"NEW".to_vec()),
                expected_hash: current.map(|(_, h)| h),
                overwrite: true,
            }],
        );
        prop_assert_eq!(snapshot(&outside), before_outside, "nothing outside the root changes");
        let after_root = snapshot(&root);
        let changed: Vec<(&String, &String)> = after_root
            .iter()
            .filter(|(k, v)| before_root.get(*k) != Some(*v))
            .collect();
        let removed = before_root.keys().filter(|k| !after_root.contains_key(*k)).count();
        prop_assert_eq!(removed, 0);
        match result {
            Err(_) => prop_assert!(changed.is_empty(), "a refused write changed {:?}", changed),
            Ok(receipt) => {
                let written = &receipt.files[0].0;
                prop_assert_eq!(after_root.get(written).map(String::as_str), Some("file:NEW"));
                prop_assert!(!policy::is_protected(written), "{written} is protected");
                prop_assert!(!policy::is_sensitive(written), "{written} is sensitive");
                prop_assert!(no_link_on_the_way(&root, written), "{written} went through a link");
                for (path, value) in changed {
                    prop_assert!(path == written || value == "dir", "{path} changed too");
                }
            }
        }
    }

    #[test]
    fn reads_never_return_secrets_or_private_state((nodes, request) in tree_and_request()) {
        let dir = tempfile::tempdir().unwrap();
        let (root, outside) = (dir.path().join("root"), dir.path().join("outside"));
        std::fs::create_dir_all(&root).unwrap();
        std::fs::create_dir_all(&outside).unwrap();
        std::fs::write(outside.join("x.txt"), "OUTSIDE").unwrap();
        build(&root, &outside, &nodes);
        let ws = Workspace::open(&root).unwrap();
        let options = ReadOptions {
            max_bytes: 1 << 20,
            allow_sensitive: false,
            allow_binary: true,
            allow_truncate: false,
        };
        if let Ok(file) = ws.read(&request, options) {
            let text = String::from_utf8_lossy(&file.bytes);
            prop_assert!(!text.contains("SECRET-"), "{request} returned {text}");
            prop_assert!(!text.contains("PRIVATE-"), "{request} returned {text}");
            prop_assert!(!text.contains("OUTSIDE"), "{request} returned {text}");
        }
        let allowed = ReadOptions { allow_sensitive: true, ..options };
        if let Ok(file) = ws.read(&request, allowed) {
            let text = String::from_utf8_lossy(&file.bytes);
            prop_assert!(!text.contains("PRIVATE-"), "{request} returned {text}");
            prop_assert!(!text.contains("OUTSIDE"), "{request} returned {text}");
        }
    }
}
