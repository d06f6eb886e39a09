//! Which paths are sensitive, protected or binary: the one list of the path rules (ADR-040
//! §5.4, extended with the usual credential files). [`super::authority`] applies them to every
//! path a request resolves through; [`super::secrets`] is the content half (secret-looking lines).

/// Directories whose contents are sensitive, wherever they are.
const SENSITIVE_DIRS: &[&str] = &[".ssh", ".gnupg"];
/// File names that are sensitive wherever they are: keys, credential stores, token files.
const SENSITIVE_NAMES: &[&str] = &[
    ".env",
    "id_rsa",
    "id_dsa",
    "id_ecdsa",
    "id_ed25519",
    "id_ecdsa_sk",
    "id_ed25519_sk",
    "known_hosts",
    "authorized_keys",
    "authorized_keys2",
    ".netrc",
    "_netrc",
    ".npmrc",
    ".pypirc",
    ".git-credentials",
    ".pgpass",
    ".htpasswd",
];
/// `dir/name` pairs that are sensitive wherever they are (cloud and container credentials).
const SENSITIVE_PAIRS: &[(&str, &str)] = &[
    (".aws", "credentials"),
    (".aws", "config"),
    (".docker", "config.json"),
    (".kube", "config"),
    (".azure", "accesstokens.json"),
    ("gh", "hosts.yml"),
];
/// Extensions of key stores and credential files.
const SENSITIVE_EXTENSIONS: &[&str] =
    &["pem", "p12", "pfx", "key", "kdbx", "ppk", "jks", "keystore"];

/// Directory names never listed, searched, indexed, read or written, at any depth: version
/// control (a `.git` directory, or the gitdir file of a submodule or worktree) and our state.
pub const SKIPPED_DIRS: &[&str] = &[".git", ".smart-context"];

/// How many leading bytes are sniffed for a NUL to call a file binary.
pub const BINARY_SNIFF_BYTES: usize = 8192;

/// True for paths matching the sensitive rules: anything under `.ssh/` or `.gnupg/`; `.env`
/// and `.env.*`; private keys (`id_rsa`, `id_dsa`, `id_ecdsa`, `id_ed25519` and their `_sk`
/// forms); `known_hosts`, `authorized_keys(2)`; `.netrc`, `.npmrc`, `.pypirc`,
/// `.git-credentials`, `.pgpass`, `.htpasswd`; `.aws/credentials`, `.aws/config`,
/// `.docker/config.json`, `.kube/config`, `gh/hosts.yml`; `*.pem`, `*.p12`, `*.pfx`, `*.key`,
/// `*.kdbx`, `*.ppk`, `*.jks`, `*.keystore`. Case-insensitive, on `/`-separated relative paths.
pub fn is_sensitive(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let components: Vec<&str> = lower.split('/').filter(|c| !c.is_empty()).collect();
    let Some((&name, dirs)) = components.split_last() else {
        return false;
    };
    if dirs.iter().any(|d| SENSITIVE_DIRS.contains(d)) {
        return true;
    }
    if SENSITIVE_NAMES.contains(&name) || name.starts_with(".env.") {
        return true;
    }
    if let Some(&parent) = dirs.last()
        && SENSITIVE_PAIRS.contains(&(parent, name))
    {
        return true;
    }
    extension(name).is_some_and(|ext| SENSITIVE_EXTENSIONS.contains(&ext.as_str()))
}

/// The project's own templates for `write`: committed with the repository, readable like any
/// project file (never writable through tools, like the rest of `.smart-context/`).
pub const TEMPLATES_DIR: &str = ".smart-context/templates";

/// True when a component of `path` is `.git` or `.smart-context` (any case): places never
/// read or listed, except the project templates in [`TEMPLATES_DIR`].
pub fn is_private_state(path: &str) -> bool {
    let template = path == TEMPLATES_DIR
        || path
            .strip_prefix(TEMPLATES_DIR)
            .is_some_and(|rest| rest.starts_with('/') && !rest.split('/').any(is_skipped_dir_name));
    !template && has_private_component(path)
}

fn has_private_component(path: &str) -> bool {
    path.split('/').any(is_skipped_dir_name)
}

/// `.git` or `.smart-context`, in any case: what walks skip.
pub fn is_skipped_dir_name(name: &str) -> bool {
    SKIPPED_DIRS.iter().any(|d| d.eq_ignore_ascii_case(name))
}

/// Paths no plugin may write, at any depth: version control and our state, the operator's
/// config at the root, `.ssh/` and `.gnupg/` (a write there is a login or a signing key).
/// Sensitive files are refused separately, with their own code.
pub fn is_protected(path: &str) -> bool {
    path.eq_ignore_ascii_case(crate::config::CONFIG_FILE)
        || has_private_component(path)
        || path
            .split('/')
            .any(|c| SENSITIVE_DIRS.iter().any(|d| d.eq_ignore_ascii_case(c)))
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
            "authorized_keys2",
            "id_ecdsa",
            "keys/id_dsa",
            ".netrc",
            "web/.npmrc",
            ".pypirc",
            ".git-credentials",
            "home/.aws/credentials",
            ".AWS/Credentials",
            ".docker/config.json",
            ".kube/config",
            "putty.ppk",
            "release.jks",
            "app.keystore",
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
            "docker/config.json",
            "config",
            "credentials.md",
        ] {
            assert!(!is_sensitive(p), "{p} should not be sensitive");
        }
    }

    #[test]
    fn protected_paths() {
        assert!(is_protected("smart-context.toml"));
        assert!(is_protected(".smart-context/state.db"));
        assert!(is_protected(".git/config"));
        assert!(is_protected("vendor/lib/.git/config"));
        assert!(is_protected("sub/.git"));
        assert!(is_protected(".GIT/hooks/pre-commit"));
        assert!(is_protected("Smart-Context.TOML"));
        assert!(is_protected("home/.ssh/authorized_keys2"));
        assert!(is_protected(".gnupg/gpg.conf"));
        assert!(!is_protected("docs/smart-context.toml"));
        assert!(!is_protected("src/git/mod.rs"));
        assert!(!is_protected(".github/workflows/ci.yml"));
        assert!(is_protected(".smart-context/templates/x.md"));
        assert!(!is_private_state(".smart-context/templates/x.md"));
        assert!(is_private_state(".smart-context/state.db"));
        assert!(is_private_state(".smart-context/templates/.git/config"));
        assert!(is_private_state("a/.Git/config"));
    }

    #[test]
    fn binary_sniff() {
        assert!(looks_binary(b"\x7fELF\0\0"));
        assert!(!looks_binary("héllo".as_bytes()));
    }
}
