//! Documents as the index sees them: what a format-parser component returned, in host types,
//! so the index does not depend on the runtime that runs the parsers.

use crate::error::HostResult;

/// Whoever can parse documents and the source of languages the index has no grammar for:
/// the plugin runtime, with its format-parser and code-parser components.
pub trait DocumentParsers: Send + Sync {
    /// The format of the parser that claims `path` by its extension or by the signature its
    /// first bytes (`head`) carry.
    fn claims(&self, path: &str, head: &[u8]) -> Option<String>;

    /// A parser reads text files no other parser claims.
    fn has_text_fallback(&self) -> bool;

    /// Parses `bytes`, the content of `path` in the root whose index is `memo` (where a
    /// failure is remembered), with the parser that claims it, or the text fallback for
    /// unclaimed text.
    fn parse(&self, memo: &super::Index, path: &str, bytes: &[u8]) -> HostResult<Document>;

    /// The language of the code parser that reads `path` (by its whole name, else its
    /// extension), if one does.
    fn code_language(&self, path: &str) -> Option<String>;

    /// The structure of `bytes`, the source of `path`, from that code parser, and the
    /// language it read it as.
    fn parse_code(
        &self,
        memo: &super::Index,
        path: &str,
        bytes: &[u8],
    ) -> HostResult<(String, super::code::Extraction)>;

    /// The parser component that reads `path` (a file of `class`, starting with `head`) by
    /// its name and content hash; None when no component does (host code, plain text).
    fn reader(&self, path: &str, head: &[u8], class: &super::classify::Class) -> Option<String>;

    /// Every component that reads files (format and code parsers), by name and content hash
    /// in load order: which of them claims a file follows from the set and its order.
    fn readers(&self) -> Vec<String>;

    /// An indexing pass is over: what it kept ready between files (parser instances) can go.
    fn pass_done(&self) {}
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Document {
    pub title: Option<String>,
    /// The format as the parser names it: markdown, pdf, ...
    pub kind: String,
    pub sections: Vec<Section>,
    pub links: Vec<Link>,
    /// Front matter, document properties, sheet names.
    pub metadata: Vec<(String, String)>,
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Section {
    /// Stable within the document (heading path and ordinal).
    pub id: String,
    pub heading_path: Vec<String>,
    pub level: u8,
    pub text: String,
    pub start_line: u32,
    pub end_line: u32,
    pub page: Option<u32>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Link {
    pub section_id: String,
    pub target: String,
    pub text: String,
}

impl super::Index {
    /// The failure of parser `plugin_sha256` on content `content_hash`, if it failed on it
    /// before: a parser that failed, trapped or ran out of time on a content is not run on
    /// it again (a changed file is another content, a changed plugin another plugin).
    pub fn parser_failure(
        &self,
        plugin_sha256: &str,
        content_hash: &str,
    ) -> Option<super::catalog::ParserFailure> {
        super::catalog::parser_failure(&self.reader(), plugin_sha256, content_hash).unwrap_or_else(
            |err| {
                tracing::debug!("reading parser failures: {err:#}");
                None
            },
        )
    }

    /// Remembers a parser's failure on a content (best effort: a busy database costs a
    /// retry of the parser later, nothing else).
    pub fn remember_parser_failure(
        &self,
        plugin_sha256: &str,
        content_hash: &str,
        failure: &super::catalog::ParserFailure,
    ) {
        let conn = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        if let Err(err) =
            super::catalog::record_parser_failure(&conn, plugin_sha256, content_hash, failure)
        {
            tracing::warn!("remembering a parser failure: {err:#}");
        }
    }
}
