//! The ExploreArgs contract of ADR-040 §5.1, parsed strictly, and the routing of §5.3.

use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ExploreArgs {
    pub query: Option<String>,
    #[serde(default)]
    pub paths: Vec<String>,
    // Accepted for the ADR-040 contract; evidence packs arrive with the explore issue.
    #[allow(dead_code)]
    pub intent: Option<Intent>,
    pub view: Option<View>,
    pub section: Option<SectionSelector>,
    pub pack_id: Option<String>,
    pub cursor: Option<Cursor>,
    pub include: Option<Include>,
    pub full_paths: Option<Vec<String>>,
    #[serde(default)]
    pub allow_sensitive: bool,
    #[serde(default)]
    pub allow_binary: bool,
    #[serde(default)]
    pub allow_globs: bool,
    #[serde(default)]
    pub limits: Limits,
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Intent {
    Auto,
    Find,
    Read,
    Evidence,
}

#[derive(Debug, Clone, Copy, PartialEq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    Auto,
    Preview,
    Section,
    Full,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SectionSelector {
    pub section_id: Option<String>,
    pub heading_path: Option<Vec<String>>,
    #[serde(default)]
    pub include_subsections: bool,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // parsed so the schema is enforced; paging arrives with evidence packs
pub struct Cursor {
    pub items: Option<String>,
    pub content: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Include {
    pub docs: Option<bool>,
    pub code: Option<bool>,
    #[allow(dead_code)] // comments and logs become separate kinds with the index
    pub comments: Option<bool>,
    #[allow(dead_code)]
    pub logs: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Limits {
    pub max_results: Option<f64>,
    pub max_chars: Option<f64>,
    pub max_item_chars: Option<f64>,
    pub max_bytes: Option<f64>,
    pub max_files: Option<f64>,
    /// The host's per-call deadline bounds every call today; a finer budget comes with packs.
    #[allow(dead_code)]
    pub timeout_ms: Option<f64>,
}

pub const DEFAULT_MAX_RESULTS: usize = 20;
pub const DEFAULT_MAX_CHARS: usize = 20_000;
pub const DEFAULT_FULL_MAX_CHARS: usize = 200_000;
pub const DEFAULT_MAX_BYTES: u64 = 1_048_576;
pub const DEFAULT_MAX_FILES: usize = 200;
pub const PREVIEW_LINES: usize = 30;

/// What the call asks for, decided once.
pub enum Route {
    Find(String),
    Read(Vec<String>),
}

impl ExploreArgs {
    /// ADR-040 §5.3: paths without a query read; a query finds.
    pub fn route(&self) -> Result<Route, String> {
        // Without allowGlobs every path is literal (`[id].tsx` is a file name, ADR-040 §5.4).
        if self.allow_globs {
            return Err(
                "allowGlobs is not supported yet by this server; name files or directories".into(),
            );
        }
        if self.pack_id.is_some() || self.cursor.is_some() {
            return Err("packId and cursor are not supported yet by this server; omit them".into());
        }
        let query = self
            .query
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty());
        match (query, self.paths.is_empty()) {
            (Some(q), _) => Ok(Route::Find(q.to_string())),
            (None, false) => Ok(Route::Read(self.paths.clone())),
            (None, true) => Err("give `query` to search or `paths` to read".into()),
        }
    }

    pub fn view(&self) -> View {
        self.view.unwrap_or(View::Auto)
    }

    /// Whether `path` gets full content: view=full, and named in fullPaths when that is given.
    pub fn wants_full(&self, path: &str) -> bool {
        self.view() == View::Full
            && self
                .full_paths
                .as_ref()
                .is_none_or(|full| full.iter().any(|p| p == path))
    }

    pub fn max_results(&self) -> usize {
        positive(self.limits.max_results).unwrap_or(DEFAULT_MAX_RESULTS)
    }

    pub fn max_chars(&self) -> usize {
        let default = if self.view() == View::Full {
            DEFAULT_FULL_MAX_CHARS
        } else {
            DEFAULT_MAX_CHARS
        };
        positive(self.limits.max_chars).unwrap_or(default)
    }

    pub fn max_item_chars(&self, items: usize) -> usize {
        positive(self.limits.max_item_chars)
            .unwrap_or_else(|| (self.max_chars() / items.max(1)).clamp(200, 4_000))
    }

    pub fn max_bytes(&self) -> u64 {
        positive(self.limits.max_bytes).map_or(DEFAULT_MAX_BYTES, |b| b as u64)
    }

    pub fn max_files(&self) -> usize {
        positive(self.limits.max_files).unwrap_or(DEFAULT_MAX_FILES)
    }

    pub fn include_docs(&self) -> bool {
        self.include.as_ref().and_then(|i| i.docs).unwrap_or(true)
    }

    pub fn include_code(&self) -> bool {
        self.include.as_ref().and_then(|i| i.code).unwrap_or(true)
    }
}

/// JSON numbers arrive as f64; non-positive or non-finite limits fall back to the default.
fn positive(value: Option<f64>) -> Option<usize> {
    value
        .filter(|v| v.is_finite() && *v >= 1.0)
        .map(|v| v.min(usize::MAX as f64) as usize)
}

/// Documents go to `data.docs`, everything else to `data.code` (ADR-040 §5.2).
pub fn is_document(path: &str) -> bool {
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    matches!(
        ext.as_str(),
        "md" | "markdown"
            | "mdx"
            | "txt"
            | "log"
            | "rst"
            | "adoc"
            | "pdf"
            | "docx"
            | "xlsx"
            | "xlsm"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<ExploreArgs, sdk::ToolError> {
        sdk::parse_args(json)
    }

    #[test]
    fn unknown_fields_are_named() {
        let err = parse(r#"{"paths":["a"],"bogus":1}"#).unwrap_err();
        assert_eq!(err.code, "INVALID_ARGS");
        assert!(err.message.contains("bogus"), "{}", err.message);
    }

    #[test]
    fn routes_by_query_then_paths() {
        assert!(
            matches!(parse(r#"{"query":"x"}"#).unwrap().route(), Ok(Route::Find(q)) if q == "x")
        );
        assert!(matches!(
            parse(r#"{"paths":["a"]}"#).unwrap().route(),
            Ok(Route::Read(_))
        ));
        assert!(parse(r#"{"query":"  "}"#).unwrap().route().is_err());
        assert!(parse(r#"{"paths":["[id].tsx"]}"#).unwrap().route().is_ok());
        assert!(
            parse(r#"{"paths":["src/*.rs"],"allowGlobs":true}"#)
                .unwrap()
                .route()
                .is_err()
        );
    }

    #[test]
    fn limits_default_and_reject_nonsense() {
        let a = parse(r#"{"paths":["a"],"limits":{"maxChars":-5,"maxBytes":10}}"#).unwrap();
        assert_eq!(a.max_chars(), DEFAULT_MAX_CHARS);
        assert_eq!(a.max_bytes(), 10);
        let full = parse(r#"{"paths":["a"],"view":"full"}"#).unwrap();
        assert_eq!(full.max_chars(), DEFAULT_FULL_MAX_CHARS);
    }

    #[test]
    fn full_paths_restrict_full_reads() {
        let a = parse(r#"{"paths":["a","b"],"view":"full","fullPaths":["b"]}"#).unwrap();
        assert!(!a.wants_full("a") && a.wants_full("b"));
    }
}
