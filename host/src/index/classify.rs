//! What a file is, for the index: code in a language tree-sitter extracts, a document a
//! format-parser component reads, plain text, or something never read (binary, sensitive).

use super::code::Language;
use crate::workspace::policy::{self, extension};

/// How a file is indexed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Class {
    Code(Language),
    /// Handled by the format parser registered for this extension.
    Document(String),
    /// Anything else that is not binary: indexed in blocks of lines.
    Text,
}

impl Class {
    /// The `files.kind` column.
    pub fn kind(&self) -> &'static str {
        match self {
            Class::Code(_) => "code",
            Class::Document(_) => "document",
            Class::Text => "text",
        }
    }

    pub fn language(&self) -> Option<&'static str> {
        match self {
            Class::Code(lang) => Some(lang.name()),
            _ => None,
        }
    }
}

/// Why a file was left out of the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SkipReason {
    Sensitive,
    Binary,
    TooLarge,
    Unreadable,
}

impl SkipReason {
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::Sensitive => "sensitive",
            SkipReason::Binary => "binary",
            SkipReason::TooLarge => "too_large",
            SkipReason::Unreadable => "unreadable",
        }
    }

    /// The reason [`SkipReason::as_str`] spelled, as the catalogue keeps it.
    pub fn parse(text: &str) -> Option<Self> {
        [
            SkipReason::Sensitive,
            SkipReason::Binary,
            SkipReason::TooLarge,
            SkipReason::Unreadable,
        ]
        .into_iter()
        .find(|r| r.as_str() == text)
    }

    /// Whether a file left out for this reason stays out while its size and mtime do: an
    /// unreadable one may be readable now, and a large one within a raised limit.
    pub fn lasts(self, size: u64, max_bytes: u64) -> bool {
        match self {
            SkipReason::Sensitive | SkipReason::Binary => true,
            SkipReason::TooLarge => size > max_bytes,
            SkipReason::Unreadable => false,
        }
    }
}

/// Extensions that are binary without looking (images, archives, compiled code, fonts).
const BINARY_EXTENSIONS: &[&str] = &[
    "png", "jpg", "jpeg", "gif", "ico", "webp", "bmp", "tiff", "zip", "gz", "tgz", "bz2", "xz",
    "zst", "7z", "tar", "jar", "war", "class", "so", "dll", "dylib", "exe", "o", "a", "lib",
    "wasm", "pyc", "pyo", "mo", "woff", "woff2", "ttf", "otf", "eot", "mp3", "mp4", "wav", "ogg",
    "avi", "mov", "sqlite", "db", "bin", "dat",
];

/// Decided by name alone: sensitive files and known binary extensions are never opened.
pub fn skip_by_name(path: &str) -> Option<SkipReason> {
    if policy::is_sensitive(path) {
        return Some(SkipReason::Sensitive);
    }
    let ext = extension(path)?;
    BINARY_EXTENSIONS
        .contains(&ext.as_str())
        .then_some(SkipReason::Binary)
}

/// Classifies a readable file: a document when a format parser claims it (by extension or
/// signature, as `claims` answers with the parser's format), else binary by a NUL sniff, else
/// code by extension, else text.
pub fn classify(
    path: &str,
    head: &[u8],
    claims: &dyn Fn(&str, &[u8]) -> Option<String>,
) -> Result<Class, SkipReason> {
    if let Some(format) = claims(path, head) {
        return Ok(Class::Document(format));
    }
    if policy::looks_binary(head) {
        return Err(SkipReason::Binary);
    }
    Ok(
        match extension(path)
            .as_deref()
            .and_then(Language::from_extension)
        {
            Some(lang) => Class::Code(lang),
            None => Class::Text,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn md_and_pdf(path: &str, head: &[u8]) -> Option<String> {
        if path.ends_with(".md") {
            Some("markdown".into())
        } else if head.starts_with(b"%PDF-") {
            Some("pdf".into())
        } else {
            None
        }
    }

    #[test]
    fn by_parser_claim_then_content() {
        let c = |p: &str, head: &[u8]| classify(p, head, &md_and_pdf);
        assert_eq!(c("src/a.rs", b"fn x"), Ok(Class::Code(Language::Rust)));
        assert_eq!(c("a.TSX", b""), Ok(Class::Code(Language::Tsx)));
        assert_eq!(
            c("README.md", b"# x"),
            Ok(Class::Document("markdown".into()))
        );
        assert_eq!(c("paper", b"%PDF-1.7"), Ok(Class::Document("pdf".into())));
        assert_eq!(c("notes.txt", b"hello"), Ok(Class::Text));
        assert_eq!(c("Makefile", b"all:"), Ok(Class::Text));
        assert_eq!(c("blob.rs", b"fn\0x"), Err(SkipReason::Binary));
    }

    #[test]
    fn names_that_are_never_opened() {
        assert_eq!(skip_by_name(".env"), Some(SkipReason::Sensitive));
        assert_eq!(skip_by_name("deploy/id_rsa"), Some(SkipReason::Sensitive));
        assert_eq!(
            skip_by_name("certs/server.pem"),
            Some(SkipReason::Sensitive)
        );
        assert_eq!(skip_by_name("img/logo.PNG"), Some(SkipReason::Binary));
        assert_eq!(
            skip_by_name("locale/fr/django.mo"),
            Some(SkipReason::Binary)
        );
        assert_eq!(skip_by_name("src/main.rs"), None);
        assert_eq!(skip_by_name(".gitignore"), None);
    }
}
