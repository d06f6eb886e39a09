//! The key that authenticates the transaction journal.
//!
//! state.db lives inside the workspace, so a hostile repository can ship one: a `pending` row
//! naming `.git/config` with the attacker's content as "before" would be "rolled back" into
//! place at the next start. Every journal row therefore carries a keyed BLAKE3 hash of what it
//! says (id, intent, links, and each file's path and content hashes), made with a per-user key
//! kept outside the root (`$XDG_DATA_HOME/smart-context/journal.key`, mode 0600). A row without
//! a valid one was not written by this user's smart-context and is never replayed.

use anyhow::{Context, Result};
use std::io::Write;
use std::path::Path;

/// The key file's name in the user data directory.
pub const KEY_FILE: &str = "journal.key";

#[derive(Clone)]
pub struct JournalKey([u8; 32]);

impl std::fmt::Debug for JournalKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("JournalKey(..)")
    }
}

impl JournalKey {
    /// A fixed key, for tests that need a store and nothing else.
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        Self(bytes)
    }

    /// A random key that lives as long as this process: for when no key file can be kept.
    pub fn ephemeral() -> Self {
        Self(random_bytes())
    }

    /// The key in `dir` (created 0700), made on first use from the OS's randomness.
    pub fn load_or_create(dir: &Path) -> Result<Self> {
        let path = dir.join(KEY_FILE);
        if let Ok(text) = std::fs::read_to_string(&path) {
            return parse(text.trim())
                .with_context(|| format!("{} is not a 64-digit hex key", path.display()));
        }
        create_private_dir(dir)?;
        let key = Self(random_bytes());
        let tmp = dir.join(format!(".{KEY_FILE}.{}", std::process::id()));
        {
            let mut file = open_private(&tmp)?;
            file.write_all(key.hex().as_bytes())?;
            file.sync_all()?;
        }
        // Two processes racing here: the first rename wins and both read the survivor back.
        if std::fs::hard_link(&tmp, &path).is_err() && !path.exists() {
            std::fs::rename(&tmp, &path).with_context(|| format!("writing {}", path.display()))?;
        }
        let _ = std::fs::remove_file(&tmp);
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("reading {}", path.display()))?;
        parse(text.trim()).with_context(|| format!("{} is damaged", path.display()))
    }

    /// The key an operator keeps in `path` (64 hex digits): a team's, the same on every
    /// replica. A file others may read is refused, as ssh refuses such a private key.
    pub fn read(path: &Path) -> Result<Self> {
        use std::os::unix::fs::PermissionsExt;
        let meta = std::fs::metadata(path)
            .with_context(|| format!("reading the team key {}", path.display()))?;
        anyhow::ensure!(
            meta.permissions().mode() & 0o077 == 0,
            "the team key {} can be read by other users (mode {:o}); run `chmod 600 {}`",
            path.display(),
            meta.permissions().mode() & 0o777,
            path.display()
        );
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("reading the team key {}", path.display()))?;
        parse(text.trim()).with_context(|| {
            format!(
                "the team key {} is not 64 hex digits (make one with `openssl rand -hex 32`)",
                path.display()
            )
        })
    }

    /// A key of its own for `scope`, made from this one: rows signed with it verify in that
    /// scope only (team mode signs each root's rows with one, so a row moved to another
    /// root's rows in the shared database is refused there).
    pub fn derive(&self, scope: &str) -> Self {
        let mut hasher = blake3::Hasher::new_keyed(&self.0);
        hasher.update(b"smart-context scope\0");
        hasher.update(scope.as_bytes());
        Self(*hasher.finalize().as_bytes())
    }

    /// A keyed hash over length-prefixed fields, as hex.
    pub fn mac(&self, fields: &[&[u8]]) -> String {
        let mut hasher = blake3::Hasher::new_keyed(&self.0);
        for field in fields {
            hasher.update(&(field.len() as u64).to_le_bytes());
            hasher.update(field);
        }
        hasher.finalize().to_hex().to_string()
    }

    /// Compares a stored MAC with the expected one without an early exit.
    pub fn verify(&self, fields: &[&[u8]], mac: &str) -> bool {
        let expected = self.mac(fields);
        expected.len() == mac.len()
            && expected
                .bytes()
                .zip(mac.bytes())
                .fold(0u8, |acc, (a, b)| acc | (a ^ b))
                == 0
    }

    fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// 32 bytes from the OS's randomness (two v4 UUIDs, 244 random bits, hashed together).
fn random_bytes() -> [u8; 32] {
    let mut bytes = [0u8; 32];
    bytes[..16].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    bytes[16..].copy_from_slice(uuid::Uuid::new_v4().as_bytes());
    *blake3::hash(&bytes).as_bytes()
}

fn parse(hex: &str) -> Result<JournalKey> {
    anyhow::ensure!(
        hex.len() == 64 && hex.bytes().all(|b| b.is_ascii_hexdigit()),
        "not 64 hex digits"
    );
    let mut bytes = [0u8; 32];
    for (i, byte) in bytes.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&hex[i * 2..i * 2 + 2], 16)?;
    }
    Ok(JournalKey(bytes))
}

fn create_private_dir(dir: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .with_context(|| format!("creating {}", dir.display()))
}

fn open_private(path: &Path) -> Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(true)
        .mode(0o600)
        .open(path)
        .with_context(|| format!("creating {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_made_once_and_kept_private() {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data/smart-context");
        let first = JournalKey::load_or_create(&data).unwrap();
        let again = JournalKey::load_or_create(&data).unwrap();
        assert_eq!(first.hex(), again.hex());
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(data.join(KEY_FILE))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let mac = first.mac(&[b"a", b"bc"]);
        assert!(first.verify(&[b"a", b"bc"], &mac));
        assert!(
            !first.verify(&[b"ab", b"c"], &mac),
            "fields are length-prefixed"
        );
        let other = JournalKey::from_bytes([1; 32]);
        assert!(!other.verify(&[b"a", b"bc"], &mac));
    }
}
