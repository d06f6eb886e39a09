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
///
/// A backup, swap file or copy of any of these is as sensitive as the original: the rules
/// also apply to each name with [`BACKUP_SUFFIXES`], a number (`.1`, ` (2)`), a copy mark
/// (` copy`, ` - copy`) or an editor's wrapping (`#name#`, `.#name`, vim's `.name.swp`)
/// taken off.
pub fn is_sensitive(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let components: Vec<Vec<String>> = lower
        .split('/')
        .filter(|c| !c.is_empty())
        .map(originals)
        .collect();
    let Some((names, dirs)) = components.split_last() else {
        return false;
    };
    if dirs
        .iter()
        .flatten()
        .any(|d| SENSITIVE_DIRS.contains(&d.as_str()))
    {
        return true;
    }
    names.iter().any(|name| {
        SENSITIVE_NAMES.contains(&name.as_str())
            || name.starts_with(".env.")
            || dirs.last().is_some_and(|parents| {
                parents
                    .iter()
                    .any(|p| SENSITIVE_PAIRS.contains(&(p.as_str(), name.as_str())))
            })
            || extension(name).is_some_and(|ext| SENSITIVE_EXTENSIONS.contains(&ext.as_str()))
    })
}

/// Endings that backup tools, editors and copies add to a file name.
pub const BACKUP_SUFFIXES: &[&str] = &[
    "~", ".bak", ".bk", ".bkp", ".backup", ".old", ".orig", ".save", ".sav", ".prev", ".tmp",
    ".temp", ".copy", ".swp", ".swo", ".swn", ".swx", "-copy", "_copy", "-backup", "_backup",
    "-old", "_old", ".rej", ".dist", ".sample",
];

/// Editor swap files (vim's `.name.swp`), whose leading dot is the editor's, not the name's.
const SWAP_SUFFIXES: &[&str] = &[".swp", ".swo", ".swn", ".swx"];

/// Copy marks with a number: `name.1`, `name (2)`, `name copy`, `name copy 3`, `name - copy`,
/// `name (copy)`.
static NUMBERED_COPY: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
    regex::Regex::new(
        r"^(.+?)(?:\.\d{1,3}|\s?\(\d{1,3}\)|\s(?:-\s)?copy(?:\s\d{1,3})?|\s?\(copy\))$",
    )
    .expect("a valid copy pattern")
});

/// `name` (lower case) and every name it may be a backup, swap file or copy of.
fn originals(name: &str) -> Vec<String> {
    let mut out = vec![name.to_string()];
    let mut current = name.to_string();
    loop {
        let next = if let Some(inner) = current
            .strip_prefix('#')
            .and_then(|rest| rest.strip_suffix('#'))
        {
            Some(inner.to_string())
        } else if let Some(inner) = current.strip_prefix(".#") {
            Some(inner.to_string())
        } else if let Some(stem) = BACKUP_SUFFIXES
            .iter()
            .find_map(|suffix| current.strip_suffix(suffix))
        {
            if SWAP_SUFFIXES.iter().any(|s| current.ends_with(s))
                && let Some(undotted) = stem.strip_prefix('.')
                && !undotted.is_empty()
            {
                out.push(undotted.to_string());
            }
            Some(stem.to_string())
        } else {
            NUMBERED_COPY
                .captures(&current)
                .map(|caps| caps[1].to_string())
        };
        match next {
            Some(next) if !next.is_empty() && next != current => {
                out.push(next.clone());
                current = next;
            }
            _ => return out,
        }
    }
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
            ".env~",
            ".env.bak",
            ".netrc.bak",
            ".pgpass~",
            ".aws/credentials.bak",
            ".aws.old/credentials",
            "server.key.bak",
            "id_rsa.orig",
            ".id_rsa.swp",
            ".env.swp",
            ".netrc.swo",
            "#id_ed25519#",
            ".#.pgpass",
            "id_rsa (1)",
            "id_rsa copy",
            "id_rsa - Copy",
            "id_rsa (copy)",
            ".git-credentials.old",
            ".npmrc_backup",
            "id_rsa.1",
            "cert.pem.bak~",
            ".ssh~/config",
            ".kube/config.orig",
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
            "id_rsa.pub",
            "id_rsa.pub.bak",
            "notes.txt~",
            "config.old",
            "src/.#main.rs",
            "keys (1).md",
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
