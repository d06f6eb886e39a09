//! Which format parser reads a file, built from what each loaded parser declares: its
//! extensions, the leading bytes (signatures) that identify its format whatever the file is
//! called, and whether it reads otherwise unclaimed text. A parser from an operator's plugin
//! directory loads after the built-ins and takes over the extensions it declares. Code
//! parsers are kept apart ([`Languages`]): they claim source files by extension or whole name.

use super::header::CodeDeclared;
use crate::workspace::policy::extension;
use std::collections::HashMap;

/// How a parser was chosen for a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Route {
    Extension,
    Signature,
    /// Text no parser claims, read by the text fallback.
    Fallback,
}

/// One parser's declaration, as the registry keeps it.
#[derive(Debug, Clone)]
pub struct Declared {
    pub plugin: String,
    pub format: String,
    pub extensions: Vec<String>,
    pub signatures: Vec<Vec<u8>>,
    pub text_fallback: bool,
}

/// Parsers by extension and by signature; the value is the parser's index in load order.
#[derive(Debug, Default)]
pub struct Registry {
    by_extension: HashMap<String, usize>,
    signatures: Vec<(Vec<u8>, usize)>,
    fallback: Option<usize>,
}

impl Registry {
    /// Adds parser `index`; later parsers win an extension over earlier ones.
    pub fn add(&mut self, index: usize, declared: &Declared) {
        for ext in &declared.extensions {
            if let Some(previous) = self.by_extension.insert(ext.clone(), index) {
                tracing::info!(
                    "parser {} takes .{ext} files over parser #{previous}",
                    declared.plugin
                );
            }
        }
        for signature in declared.signatures.iter().filter(|s| !s.is_empty()) {
            self.signatures.push((signature.clone(), index));
        }
        if declared.text_fallback {
            self.fallback = Some(index);
        }
    }

    /// The parser for `path` by extension, else by the signature its first bytes carry. The
    /// text parser is never handed binary content, whatever the file is called.
    pub fn claim(&self, path: &str, head: &[u8]) -> Option<(usize, Route)> {
        if let Some(&i) = extension(path).and_then(|e| self.by_extension.get(&e)) {
            if Some(i) == self.fallback && crate::workspace::policy::looks_binary(head) {
                return None;
            }
            return Some((i, Route::Extension));
        }
        self.signatures
            .iter()
            .rev()
            .find(|(sig, _)| head.starts_with(sig))
            .map(|&(_, i)| (i, Route::Signature))
    }

    /// Like [`claim`](Self::claim), falling back to the text parser for text.
    pub fn route(&self, path: &str, head: &[u8]) -> Option<(usize, Route)> {
        self.claim(path, head).or_else(|| {
            let text = !crate::workspace::policy::looks_binary(head);
            self.fallback.filter(|_| text).map(|i| (i, Route::Fallback))
        })
    }

    pub fn has_fallback(&self) -> bool {
        self.fallback.is_some()
    }

    /// Whether any parser declared a signature (else the head of a file need not be read).
    pub fn has_signatures(&self) -> bool {
        !self.signatures.is_empty()
    }
}

/// Which code parser reads a source file, and as what language: by the file's whole name
/// (`Rakefile`), else by its extension. A later parser takes over what an earlier one
/// declared. The languages the index parses itself keep their extensions (see
/// `index::classify`): a declaration of one is logged and left unused.
#[derive(Debug, Default)]
pub struct Languages {
    by_extension: HashMap<String, (usize, String)>,
    by_name: HashMap<String, (usize, String)>,
}

impl Languages {
    /// Adds code parser `index`'s languages.
    pub fn add(&mut self, index: usize, plugin: &str, declared: &CodeDeclared) {
        for language in &declared.languages {
            for ext in &language.extensions {
                if crate::index::code::Language::from_extension(ext).is_some() {
                    tracing::info!(
                        "code parser {plugin} declares .{ext}, which the index parses itself: the built-in grammar keeps it"
                    );
                }
                let taken = (index, language.name.clone());
                if let Some((_, previous)) = self.by_extension.insert(ext.clone(), taken) {
                    tracing::info!(
                        "code parser {plugin} takes .{ext} files over the {previous} parser"
                    );
                }
            }
            for name in &language.file_names {
                self.by_name
                    .insert(name.clone(), (index, language.name.clone()));
            }
        }
    }

    /// Whether a code parser names `path`'s whole file name.
    pub fn claims_by_name(&self, path: &str) -> bool {
        let file_name = path.rsplit('/').next().unwrap_or(path);
        self.by_name.contains_key(file_name)
    }

    /// The parser and language for `path`.
    pub fn claim(&self, path: &str) -> Option<(usize, &str)> {
        let file_name = path.rsplit('/').next().unwrap_or(path);
        self.by_name
            .get(file_name)
            .or_else(|| extension(path).and_then(|e| self.by_extension.get(&e)))
            .map(|(i, name)| (*i, name.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_files_go_to_their_language_by_name_then_extension() {
        use super::super::header::LanguageDeclared;
        let ruby = CodeDeclared {
            languages: vec![LanguageDeclared {
                name: "ruby".into(),
                extensions: vec!["rb".into(), "py".into()],
                file_names: vec!["Rakefile".into()],
            }],
        };
        let mut l = Languages::default();
        l.add(3, "scripting", &ruby);
        assert_eq!(l.claim("lib/a.RB"), Some((3, "ruby")));
        assert_eq!(l.claim("sub/Rakefile"), Some((3, "ruby")));
        assert_eq!(l.claim("Rakefile.md"), None);
        assert_eq!(l.claim("a.php"), None);
        let other = CodeDeclared {
            languages: vec![LanguageDeclared {
                name: "crystal".into(),
                extensions: vec!["rb".into()],
                file_names: vec![],
            }],
        };
        l.add(4, "house", &other);
        assert_eq!(
            l.claim("x.rb"),
            Some((4, "crystal")),
            "later parsers take over"
        );
    }

    fn declared(plugin: &str, exts: &[&str], sigs: &[&[u8]], fallback: bool) -> Declared {
        Declared {
            plugin: plugin.into(),
            format: plugin.into(),
            extensions: exts.iter().map(|e| e.to_string()).collect(),
            signatures: sigs.iter().map(|s| s.to_vec()).collect(),
            text_fallback: fallback,
        }
    }

    #[test]
    fn extension_then_signature_then_text_fallback() {
        let mut r = Registry::default();
        r.add(0, &declared("pdf", &["pdf"], &[b"%PDF-"], false));
        r.add(1, &declared("text", &["txt", "log"], &[], true));
        assert_eq!(r.claim("a/b.PDF", b""), Some((0, Route::Extension)));
        assert_eq!(r.claim("paper", b"%PDF-1.7"), Some((0, Route::Signature)));
        assert_eq!(r.claim("Makefile", b"all:"), None);
        assert_eq!(r.route("Makefile", b"all:"), Some((1, Route::Fallback)));
        assert_eq!(r.route("blob", b"\0\x01"), None);
        assert_eq!(r.route("x.log", b""), Some((1, Route::Extension)));
        assert_eq!(
            r.claim("x.txt", b"a\0b"),
            None,
            "text parsers get text only"
        );
        assert!(r.has_fallback() && r.has_signatures());
    }

    #[test]
    fn later_parsers_take_over_extensions() {
        let mut r = Registry::default();
        r.add(0, &declared("markdown", &["md"], &[], false));
        r.add(1, &declared("custom-md", &["md"], &[], false));
        assert_eq!(r.claim("README.md", b""), Some((1, Route::Extension)));
        assert_eq!(extension(".gitignore"), None);
        assert_eq!(extension("a.tar.GZ").as_deref(), Some("gz"));
    }
}
