//! Whose state directory this is.
//!
//! `.smart-context/` lives inside the root, so a repository or an archive can ship one. Rows
//! that say what to do (the journal, memory events, evidence packs) carry MACs made with the
//! user's key, but the index does not: a shipped catalogue whose rows match the files' sizes
//! and content hashes, with a shipped search index, would serve its own text as the files'
//! until they changed. So the directory itself is stamped: `owner` holds a MAC of the state
//! directory's path made with the user's key. At start, state (state.db, the index) in a
//! directory without a valid stamp is not this user's, unless state.db holds a row only this
//! user could have signed (state made before stamps): it is moved into `set-aside-<ms>/` with
//! a warning, and built again.

use super::{JournalKey, Store};
use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

/// The stamp's file name in the state directory.
pub const OWNER_FILE: &str = "owner";

/// Entries a state directory keeps whoever made it: the project's templates, our ignore file,
/// the stamp, and what was set aside before.
fn kept(name: &str) -> bool {
    matches!(name, "templates" | ".gitignore" | OWNER_FILE) || name.starts_with("set-aside-")
}

/// What [`establish`] found.
#[derive(Debug, PartialEq)]
pub enum Provenance {
    /// Stamped by this user's smart-context.
    Ours,
    /// No state yet: stamped now.
    Fresh,
    /// Unstamped state with rows this user signed (made before stamps): stamped now.
    Adopted,
    /// Unstamped state nobody could vouch for: moved here.
    SetAside(PathBuf),
}

/// Checks (and makes) the stamp of `state_dir` with `key`, setting aside state the user did
/// not make. Call before anything opens state.db or the index.
pub fn establish(state_dir: &Path, key: &JournalKey) -> Result<Provenance> {
    let expected = stamp(state_dir, key);
    if read_stamp(state_dir).as_deref() == Some(expected.as_str()) {
        return Ok(Provenance::Ours);
    }
    let foreign: Vec<PathBuf> = std::fs::read_dir(state_dir)
        .with_context(|| format!("listing {}", state_dir.display()))?
        .flatten()
        .filter(|e| !kept(&e.file_name().to_string_lossy()))
        .map(|e| e.path())
        .collect();
    let found = if foreign.is_empty() {
        Provenance::Fresh
    } else if signed_by(&state_dir.join("state.db"), key) {
        Provenance::Adopted
    } else if read_stamp(state_dir).as_deref() == Some(expected.as_str()) {
        // Another process of this user stamped it meanwhile.
        return Ok(Provenance::Ours);
    } else {
        let aside = state_dir.join(format!("set-aside-{}", super::now_ms()));
        std::fs::create_dir_all(&aside).with_context(|| format!("creating {}", aside.display()))?;
        for path in &foreign {
            let name = path.file_name().expect("a directory entry has a name");
            match std::fs::rename(path, aside.join(name)) {
                // Opening state.db to look for signed rows checkpointed and removed its
                // -wal and -shm files since the listing.
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                other => other.with_context(|| format!("moving {} aside", path.display()))?,
            }
        }
        Provenance::SetAside(aside)
    };
    write_stamp(state_dir, &expected)?;
    Ok(found)
}

/// The stamp for `state_dir`: bound to its path, so state copied from another root is not
/// taken for this one's.
fn stamp(state_dir: &Path, key: &JournalKey) -> String {
    let path = state_dir
        .canonicalize()
        .unwrap_or_else(|_| state_dir.to_path_buf());
    key.mac(&[b"state-owner", path.as_os_str().as_encoded_bytes()])
}

fn read_stamp(state_dir: &Path) -> Option<String> {
    let path = state_dir.join(OWNER_FILE);
    let meta = std::fs::symlink_metadata(&path).ok()?;
    if !meta.is_file() || meta.len() > 1024 {
        return None;
    }
    std::fs::read_to_string(path)
        .ok()
        .map(|s| s.trim().to_string())
}

fn write_stamp(state_dir: &Path, stamp: &str) -> Result<()> {
    let temp = state_dir.join(format!(".{OWNER_FILE}.{}", std::process::id()));
    std::fs::write(&temp, format!("{stamp}\n"))
        .and_then(|()| std::fs::rename(&temp, state_dir.join(OWNER_FILE)))
        .with_context(|| format!("stamping {}", state_dir.display()))
}

/// Whether state.db at `db` holds a transaction or memory event this user's key signed.
fn signed_by(db: &Path, key: &JournalKey) -> bool {
    if !db.is_file() {
        return false;
    }
    let Ok(store) = Store::open(db, key.clone()) else {
        return false;
    };
    store.has_signed_rows().unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(b: u8) -> JournalKey {
        JournalKey::from_bytes([b; 32])
    }

    /// A state directory with a state.db holding one transaction signed with `signer`.
    fn state_with_transaction(dir: &Path, signer: u8) -> Store {
        std::fs::create_dir_all(dir.join("index")).unwrap();
        std::fs::write(dir.join("index/meta.json"), "{}").unwrap();
        let mut store = Store::open(&dir.join("state.db"), key(signer)).unwrap();
        store
            .begin(&crate::store::TxRecord {
                id: "tx-1".into(),
                intent: "edit".into(),
                state: crate::store::state::APPLIED.into(),
                created_ms: 1,
                undoes: None,
                redoes: None,
                files: Vec::new(),
            })
            .unwrap();
        store
    }

    #[test]
    fn fresh_state_is_stamped_and_stays_ours() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(establish(dir.path(), &key(1)).unwrap(), Provenance::Fresh);
        Store::open(&dir.path().join("state.db"), key(1)).unwrap();
        assert_eq!(establish(dir.path(), &key(1)).unwrap(), Provenance::Ours);
    }

    #[test]
    fn state_nobody_can_vouch_for_is_set_aside() {
        let dir = tempfile::tempdir().unwrap();
        drop(state_with_transaction(dir.path(), 9));
        std::fs::create_dir_all(dir.path().join("templates")).unwrap();
        let Provenance::SetAside(aside) = establish(dir.path(), &key(1)).unwrap() else {
            panic!("a state.db signed by another key must be set aside");
        };
        assert!(aside.join("state.db").is_file() && aside.join("index/meta.json").is_file());
        assert!(!dir.path().join("state.db").exists() && !dir.path().join("index").exists());
        assert!(
            dir.path().join("templates").is_dir(),
            "the project's templates stay"
        );
        assert_eq!(establish(dir.path(), &key(1)).unwrap(), Provenance::Ours);
    }

    #[test]
    fn a_killed_process_s_wal_is_set_aside_with_its_database() {
        let made = tempfile::tempdir().unwrap();
        let store = state_with_transaction(made.path(), 9);
        // What a killed server leaves: its database with the WAL beside it, and no process
        // holding either (copied while this one still holds the originals).
        let dir = tempfile::tempdir().unwrap();
        for name in ["state.db", "state.db-wal"] {
            std::fs::copy(made.path().join(name), dir.path().join(name)).unwrap();
        }
        drop(store);
        let Provenance::SetAside(aside) = establish(dir.path(), &key(1)).unwrap() else {
            panic!("another key's state must be set aside")
        };
        assert!(aside.join("state.db").is_file());
        assert!(!dir.path().join("state.db").exists());
    }

    #[test]
    fn unstamped_state_with_rows_this_user_signed_is_adopted() {
        let dir = tempfile::tempdir().unwrap();
        drop(state_with_transaction(dir.path(), 1));
        assert_eq!(establish(dir.path(), &key(1)).unwrap(), Provenance::Adopted);
        assert!(dir.path().join("state.db").is_file());
    }

    #[test]
    fn a_stamp_is_bound_to_its_directory() {
        let a = tempfile::tempdir().unwrap();
        establish(a.path(), &key(1)).unwrap();
        Store::open(&a.path().join("state.db"), key(1)).unwrap();
        let b = tempfile::tempdir().unwrap();
        for name in [OWNER_FILE, "state.db"] {
            std::fs::copy(a.path().join(name), b.path().join(name)).unwrap();
        }
        assert!(matches!(
            establish(b.path(), &key(1)).unwrap(),
            Provenance::SetAside(_)
        ));
    }
}
