//! Documents as the index sees them: what a format-parser component returned, in host types,
//! so the index does not depend on the runtime that runs the parsers.

use crate::error::HostResult;

/// Whoever can parse documents: the plugin runtime, with its format-parser components.
pub trait DocumentParsers: Send + Sync {
    /// The format of the parser that claims `path` by its extension or by the signature its
    /// first bytes (`head`) carry.
    fn claims(&self, path: &str, head: &[u8]) -> Option<String>;

    /// A parser reads text files no other parser claims.
    fn has_text_fallback(&self) -> bool;

    /// Parses `bytes`, the content of `path`, with the parser that claims it, or the text
    /// fallback for unclaimed text.
    fn parse(&self, path: &str, bytes: &[u8]) -> HostResult<Document>;
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
