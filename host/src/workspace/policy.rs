//! Which paths are sensitive, protected or binary (ADR-040 §5.4 safety rules).

/// Directories whose contents are sensitive.
const SENSITIVE_DIRS: &[&str] = &[".ssh", ".gnupg"];
/// File names that are sensitive wherever they are.
const SENSITIVE_NAMES: &[&str] = &[
    "id_rsa",
    "id_ed25519",
    "known_hosts",
    "authorized_keys",
    ".env",
];
/// Extensions of key and credential files.
const SENSITIVE_EXTENSIONS: &[&str] = &["pem", "p12", "pfx", "key", "kdbx"];

/// Directories never listed, searched or written: version control and our own state.
pub const SKIPPED_DIRS: &[&str] = &[".git", ".smart-context"];

/// How many leading bytes are sniffed for a NUL to call a file binary.
pub const BINARY_SNIFF_BYTES: usize = 8192;

/// True for paths matching the sensitive rules: `.ssh/**`, `.gnupg/**`, `.env`, `.env.*`,
/// `id_rsa`, `id_ed25519`, `known_hosts`, `authorized_keys`, `*.pem`, `*.p12`, `*.pfx`,
/// `*.key`, `*.kdbx`. Matching is case-insensitive, on `/`-separated relative paths.
pub fn is_sensitive(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let mut components = lower.split('/').filter(|c| !c.is_empty()).peekable();
    while let Some(component) = components.next() {
        let is_last = components.peek().is_none();
        if !is_last && SENSITIVE_DIRS.contains(&component) {
            return true;
        }
        if is_last {
            if SENSITIVE_NAMES.contains(&component) || component.starts_with(".env.") {
                return true;
            }
            if let Some((_, ext)) = component.rsplit_once('.') {
                return SENSITIVE_EXTENSIONS.contains(&ext);
            }
        }
    }
    false
}

/// Paths no plugin may write: the operator's config and the host's own state.
pub fn is_protected(path: &str) -> bool {
    let first = path.split('/').next().unwrap_or("");
    path == crate::config::CONFIG_FILE || SKIPPED_DIRS.contains(&first)
}

/// The lower-case extension of a path's file name, if it has one (`.gitignore` has none).
pub fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// A NUL byte in the first 8 KiB, the test git and ripgrep use.
pub fn looks_binary(head: &[u8]) -> bool {
    head[..head.len().min(BINARY_SNIFF_BYTES)].contains(&0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sensitive_rules() {
        for p in [
            ".env",
            "app/.env.local",
            ".ssh/config",
            "home/.gnupg/pubring.kbx",
            "id_rsa",
            "deploy/id_ed25519",
            "certs/server.PEM",
            "x.key",
            "vault.kdbx",
            "store.p12",
            "a.pfx",
            "known_hosts",
            "authorized_keys",
        ] {
            assert!(is_sensitive(p), "{p} should be sensitive");
        }
        for p in [
            "src/env.rs",
            ".envrc",
            "id_rsa.pub",
            "keys.md",
            "ssh/config",
            "src/key.rs",
        ] {
            assert!(!is_sensitive(p), "{p} should not be sensitive");
        }
    }

    #[test]
    fn protected_paths() {
        assert!(is_protected("smart-context.toml"));
        assert!(is_protected(".smart-context/state.db"));
        assert!(is_protected(".git/config"));
        assert!(!is_protected("docs/smart-context.toml"));
    }

    #[test]
    fn binary_sniff() {
        assert!(looks_binary(b"\x7fELF\0\0"));
        assert!(!looks_binary("héllo".as_bytes()));
    }
}
