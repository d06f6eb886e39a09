//! What never reaches the memory tables: text the user marked `<private>...</private>`, secrets
//! (the workspace's secret guard, the one place those rules live), and the contents of
//! sensitive files (the workspace policy decides which; only their paths are kept).

use crate::workspace::{policy, secrets};
use regex::Regex;
use std::sync::LazyLock;

/// A private block, closed or running to the end of the text (an unclosed tag hides the rest:
/// losing a note beats storing what the user meant to hide).
static PRIVATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)<private>.*?(?:</private>|\z)").expect("a valid pattern"));

/// `text` without private blocks and with secrets redacted.
pub fn scrub(text: &str) -> String {
    let public = PRIVATE.replace_all(text, "[private]");
    secrets::redact(&public).0.into_owned()
}

/// Whether content read from or written to `path` must stay out of memory.
pub fn is_sensitive_path(path: &str) -> bool {
    policy::is_sensitive(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_blocks_and_secrets_are_dropped() {
        assert_eq!(
            scrub("keep <private>my salary</private> this <PRIVATE>x\ny</Private>."),
            "keep [private] this [private]."
        );
        assert_eq!(scrub("a <private>never closed"), "a [private]");
        let token = format!("ghp_{}", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8");
        let out = scrub(&format!("use {token} here"));
        assert!(!out.contains(&token) && out.contains("REDACTED"), "{out}");
        assert!(is_sensitive_path(".env") && !is_sensitive_path("src/main.rs"));
    }
}
