//! The ExploreArgs contract of ADR-040 §5.1, parsed strictly, its defaults (§5.4), and the
//! routing of §5.3.

use crate::smart_context::plugin::index;
use sdk::lines::LineRange;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ExploreArgs {
    pub query: Option<String>,
    pub paths: Option<Vec<String>>,
    pub intent: Option<Intent>,
    pub view: Option<View>,
    pub section: Option<SectionSelector>,
    pub pack_id: Option<String>,
    pub cursor: Option<Cursor>,
    pub include: Option<Include>,
    pub full_paths: Option<Vec<String>>,
    /// Line ranges of the one file in `paths` to read, merged (ADR-001 Stage 2).
    pub regions: Option<Vec<LineRange>>,
    /// Lines of context around each region (default 3).
    pub context_lines: Option<f64>,
    #[serde(default)]
    pub allow_sensitive: bool,
    #[serde(default)]
    pub allow_binary: bool,
    #[serde(default)]
    pub allow_globs: bool,
    #[serde(default)]
    pub limits: Limits,
    /// Session memory: events to open, and how a query's memory search expands.
    pub memory: Option<crate::memory::MemoryArgs>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Intent {
    Auto,
    Find,
    Read,
    Evidence,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    Auto,
    Preview,
    Section,
    Full,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SectionSelector {
    pub section_id: Option<String>,
    pub heading_path: Option<Vec<String>>,
    #[serde(default)]
    pub include_subsections: bool,
}

/// Where to continue. Accepted as the answer hands it out: `{items}`/`{content}`, the `next`
/// object itself (`{itemsCursor, contentCursor}`), or one cursor string alone; a cursor's
/// kind is read from the cursor, so one passed under the other name still works.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(try_from = "serde_json::Value")]
pub struct Cursor {
    pub items: Option<String>,
    pub content: Option<String>,
}

impl TryFrom<serde_json::Value> for Cursor {
    type Error = String;

    fn try_from(input: serde_json::Value) -> Result<Self, String> {
        let fields = match input {
            serde_json::Value::String(token) => {
                return Ok(Cursor {
                    items: Some(token),
                    content: None,
                });
            }
            serde_json::Value::Object(fields) => fields,
            _ => {
                return Err(
                    "cursor must be {\"items\": ...} or {\"content\": ...} (next.itemsCursor / next.contentCursor of an earlier answer), or that cursor string".into(),
                );
            }
        };
        let mut cursor = Cursor::default();
        for (key, value) in fields {
            let slot = match key.as_str() {
                "items" | "itemsCursor" => &mut cursor.items,
                "content" | "contentCursor" => &mut cursor.content,
                other => {
                    return Err(format!(
                        "unknown cursor field `{other}`, expected `items` or `content` (the values of next.itemsCursor / next.contentCursor)"
                    ));
                }
            };
            match value {
                serde_json::Value::String(s) => *slot = Some(s),
                serde_json::Value::Null => {}
                _ => return Err(format!("cursor.{key} must be a string")),
            }
        }
        Ok(cursor)
    }
}

#[derive(Debug, Clone, Copy, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Include {
    pub docs: Option<bool>,
    pub code: Option<bool>,
    pub comments: Option<bool>,
    pub logs: Option<bool>,
    /// Also search the session memory (off by default).
    pub memory: Option<bool>,
}

/// What to search, every flag resolved (all default to true): part of the pack's identity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub struct Kinds {
    pub docs: bool,
    pub code: bool,
    pub comments: bool,
    pub logs: bool,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Limits {
    pub max_results: Option<f64>,
    pub max_chars: Option<f64>,
    pub max_item_chars: Option<f64>,
    pub max_bytes: Option<f64>,
    pub max_files: Option<f64>,
    pub timeout_ms: Option<f64>,
    /// Lines a region read returns at most, all regions together (default 500).
    pub max_total_lines: Option<f64>,
}

/// Items per group (docs, code) on one page.
pub const DEFAULT_MAX_RESULTS: usize = 6;
/// Content characters of a whole response: previews and sections, then full reads.
pub const DEFAULT_MAX_CHARS: usize = 3_200;
pub const DEFAULT_FULL_MAX_CHARS: usize = 200_000;
pub const DEFAULT_MAX_BYTES: u64 = 1_048_576;
pub const DEFAULT_MAX_FILES: usize = 200;
/// Content characters of a region read: its line budget, not maxChars, is what bounds it.
pub const DEFAULT_REGION_MAX_CHARS: usize = 40_000;
/// Lines around each region (ADR-001 Stage 2).
pub const DEFAULT_CONTEXT_LINES: u32 = 3;
pub const MAX_CONTEXT_LINES: u32 = 200;
/// Lines one region read returns (ADR-001 Stage 2).
pub const DEFAULT_MAX_TOTAL_LINES: u32 = 500;
/// Ranges one call may ask for.
pub const MAX_REGIONS: usize = 100;
/// Directory levels a path expands to (ADR-040 §5.4).
pub const DIRECTORY_DEPTH: u32 = 5;
/// Items one pack keeps per group, whatever one page shows: what cursors page through.
pub const PACK_DEPTH: usize = 100;

/// What the call does, decided once (ADR-040 §5.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Route {
    /// Search the index; documents and code in their own groups.
    Find,
    /// Read the named paths (directories expanded, globs with allowGlobs).
    Read,
}

impl ExploreArgs {
    /// The trimmed query, when there is one.
    pub fn query(&self) -> Option<&str> {
        self.query
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty())
    }

    pub fn paths(&self) -> &[String] {
        self.paths.as_deref().unwrap_or_default()
    }

    pub fn intent(&self) -> Intent {
        self.intent.unwrap_or(Intent::Auto)
    }

    /// find and read follow the intent when it names one; auto and evidence search when there
    /// is a query and read otherwise. A query with paths searches within them.
    pub fn route(&self) -> Result<Route, String> {
        if self.regions.is_some() {
            return self.region_route();
        }
        match (self.intent(), self.query(), self.paths().is_empty()) {
            (Intent::Find, None, _) => Err("intent find needs a `query`".into()),
            (Intent::Read, _, true) => Err("intent read needs `paths`".into()),
            (Intent::Read, _, false) => Ok(Route::Read),
            (_, Some(_), _) => Ok(Route::Find),
            (_, None, false) => Ok(Route::Read),
            (_, None, true) => Err("give `query` to search or `paths` to read".into()),
        }
    }

    /// Regions read lines of one file: no query, no search intent, no other view.
    fn region_route(&self) -> Result<Route, String> {
        self.regions()?;
        if self.query().is_some() || self.intent() == Intent::Find {
            return Err("regions read lines of a file: drop `query` (search) or `regions`".into());
        }
        if self.paths().len() != 1 {
            return Err(format!(
                "regions read lines of one file: give exactly one path in `paths` (got {})",
                self.paths().len()
            ));
        }
        if matches!(self.view(), View::Full | View::Section) || self.section.is_some() {
            return Err(
                "regions are their own view: drop `view`/`section`, or drop `regions`".into(),
            );
        }
        Ok(Route::Read)
    }

    /// The requested line ranges, checked: None without `regions`.
    pub fn regions(&self) -> Result<Option<Vec<(u32, u32)>>, String> {
        let Some(regions) = &self.regions else {
            return Ok(None);
        };
        if regions.is_empty() {
            return Err("regions is empty: give at least one {start, end}".into());
        }
        if regions.len() > MAX_REGIONS {
            return Err(format!(
                "{} regions; at most {MAX_REGIONS} per call",
                regions.len()
            ));
        }
        regions
            .iter()
            .enumerate()
            .map(|(i, r)| r.bounds().map_err(|e| format!("regions[{i}]: {e}")))
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    /// contextLines: default 3, 0 allowed, at most MAX_CONTEXT_LINES.
    pub fn context_lines(&self) -> u32 {
        self.context_lines
            .filter(|v| v.is_finite() && *v >= 0.0)
            .map_or(DEFAULT_CONTEXT_LINES, |v| {
                v.min(MAX_CONTEXT_LINES as f64) as u32
            })
    }

    pub fn max_total_lines(&self) -> u32 {
        positive(self.limits.max_total_lines)
            .map_or(DEFAULT_MAX_TOTAL_LINES, |n| n.min(u32::MAX as usize) as u32)
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
                .is_none_or(|full| full.iter().any(|p| same_path(p, path)))
    }

    pub fn max_results(&self) -> usize {
        // A region read shows every region it merged unless asked otherwise.
        let default = if self.regions.is_some() {
            PACK_DEPTH
        } else {
            DEFAULT_MAX_RESULTS
        };
        positive(self.limits.max_results)
            .unwrap_or(default)
            .min(PACK_DEPTH)
    }

    pub fn max_chars(&self) -> usize {
        let default = if self.view() == View::Full {
            DEFAULT_FULL_MAX_CHARS
        } else if self.regions.is_some() {
            DEFAULT_REGION_MAX_CHARS
        } else {
            DEFAULT_MAX_CHARS
        };
        positive(self.limits.max_chars).unwrap_or(default)
    }

    /// The cap on one item's text: as asked, else an even share of maxChars over both groups'
    /// pages (at least 200, at most 1,200), never more than maxChars.
    pub fn max_item_chars(&self) -> usize {
        let share = self.max_chars() / (2 * self.max_results()).max(1);
        positive(self.limits.max_item_chars)
            .unwrap_or_else(|| share.clamp(200, 1_200))
            .min(self.max_chars())
    }

    /// The item cap for a page of `items` items: as asked, else an even share of maxChars
    /// (at least 200), so one file read alone gets the whole budget.
    pub fn page_item_chars(&self, items: usize) -> usize {
        positive(self.limits.max_item_chars)
            .unwrap_or_else(|| (self.max_chars() / items.max(1)).max(200))
            .min(self.max_chars())
    }

    pub fn max_bytes(&self) -> u64 {
        positive(self.limits.max_bytes).map_or(DEFAULT_MAX_BYTES, |b| b as u64)
    }

    pub fn max_files(&self) -> usize {
        positive(self.limits.max_files).unwrap_or(DEFAULT_MAX_FILES)
    }

    pub fn timeout_ms(&self) -> Option<u64> {
        positive(self.limits.timeout_ms).map(|t| t as u64)
    }

    /// Whether a query also searches the session memory.
    pub fn wants_memory(&self) -> bool {
        self.include.and_then(|i| i.memory).unwrap_or(false)
            || self
                .memory
                .as_ref()
                .is_some_and(|m| m.ids.is_none() && self.query().is_some())
    }

    /// A call that only opens memory events: `memory.ids` without a query, paths or pack.
    pub fn memory_only(&self) -> bool {
        self.memory.as_ref().is_some_and(|m| m.ids.is_some())
            && self.query().is_none()
            && self.paths().is_empty()
            && self.pack_id.is_none()
    }

    pub fn kinds(&self) -> Kinds {
        let i = self.include.unwrap_or_default();
        Kinds {
            docs: i.docs.unwrap_or(true),
            code: i.code.unwrap_or(true),
            comments: i.comments.unwrap_or(true),
            logs: i.logs.unwrap_or(true),
        }
    }
}

/// Two spellings of one relative path (`./a/b`, `a//b/`) compare equal.
pub fn same_path(a: &str, b: &str) -> bool {
    fn norm(p: &str) -> Vec<&str> {
        p.split('/')
            .filter(|s| !s.is_empty() && *s != ".")
            .collect()
    }
    norm(a) == norm(b)
}

/// JSON numbers arrive as f64; non-positive or non-finite limits fall back to the default.
fn positive(value: Option<f64>) -> Option<usize> {
    value
        .filter(|v| v.is_finite() && *v >= 1.0)
        .map(|v| v.min(usize::MAX as f64) as usize)
}

/// Whether a path has glob syntax (only meaningful with allowGlobs).
pub fn is_glob(path: &str) -> bool {
    path.contains(['*', '?', '[', '{'])
}

const CODE_EXTENSIONS: &[&str] = &[
    "rs", "py", "pyi", "ts", "tsx", "js", "jsx", "mjs", "cjs", "go", "java", "c", "h", "cc", "cpp",
    "cxx", "hpp", "hh", "cs", "rb", "php", "kt", "swift", "scala", "sh", "toml", "yaml", "yml",
    "json",
];

fn extension(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default()
}

/// Documents go to `data.docs`, everything else to `data.code` (ADR-040 §5.2). A document is
/// a file a format parser takes by its name: the host's registry says, so the index and
/// explore share one list and a third-party parser's extensions count too.
pub fn is_document(path: &str) -> bool {
    index::document_format(path).is_some()
}

/// A document whose file is a container (a PDF): its text is what its parser extracts, even
/// when its bytes happen to decode as text.
pub fn is_container(path: &str) -> bool {
    index::document_format(path).is_some_and(|f| f.container)
}

/// Source and config files: previewed as their skeleton or first lines, never as an outline.
pub fn is_code(path: &str) -> bool {
    CODE_EXTENSIONS.contains(&extension(path).as_str())
}

/// Whether a file is of a kind `include` prefers, for the directory quota of ADR-040 §5.4;
/// `document` is what [`is_document`] says of it.
pub fn is_preferred(path: &str, kinds: Kinds, document: bool) -> bool {
    let log = extension(path) == "log";
    (kinds.docs && !log && document) || (kinds.logs && log) || (kinds.code && is_code(path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(json: &str) -> Result<ExploreArgs, sdk::ToolError> {
        sdk::parse_args(json)
    }

    #[test]
    fn unknown_fields_and_wrong_types_are_named() {
        let err = parse(r#"{"paths":["a"],"bogus":1}"#).unwrap_err();
        assert_eq!(err.code, "INVALID_ARGS");
        assert!(err.message.contains("bogus"), "{}", err.message);
        let err = parse(r#"{"limits":{"maxChars":"lots"}}"#).unwrap_err();
        assert!(err.message.contains("limits.maxChars"), "{}", err.message);
        let err = parse(r#"{"view":"everything"}"#).unwrap_err();
        assert!(err.message.contains("view"), "{}", err.message);
        let err = parse(r#"{"include":{"docs":"yes"}}"#).unwrap_err();
        assert!(err.message.contains("include.docs"), "{}", err.message);
    }

    #[test]
    fn cursors_are_accepted_as_handed_out() {
        let cursor = |json: &str| parse(json).map(|a| a.cursor.unwrap());
        let c = cursor(r#"{"packId":"p","cursor":"i.1.2.mac"}"#).unwrap();
        assert_eq!(c.items.as_deref(), Some("i.1.2.mac"));
        let c =
            cursor(r#"{"packId":"p","cursor":{"itemsCursor":"a","contentCursor":"b"}}"#).unwrap();
        assert_eq!(
            (c.items.as_deref(), c.content.as_deref()),
            (Some("a"), Some("b"))
        );
        let c = cursor(r#"{"packId":"p","cursor":{"content":"b"}}"#).unwrap();
        assert_eq!((c.items, c.content.as_deref()), (None, Some("b")));
        let err = cursor(r#"{"packId":"p","cursor":{"page":2}}"#).unwrap_err();
        assert!(err.message.contains("page"), "{}", err.message);
        assert!(cursor(r#"{"packId":"p","cursor":{"items":3}}"#).is_err());
    }

    #[test]
    fn routes_by_intent_then_query_then_paths() {
        let route = |json: &str| parse(json).unwrap().route();
        assert_eq!(route(r#"{"query":"x"}"#), Ok(Route::Find));
        assert_eq!(route(r#"{"query":"x","paths":["src"]}"#), Ok(Route::Find));
        assert_eq!(route(r#"{"paths":["a"]}"#), Ok(Route::Read));
        assert_eq!(
            route(r#"{"paths":["a"],"intent":"evidence"}"#),
            Ok(Route::Read)
        );
        assert_eq!(
            route(r#"{"query":"x","intent":"evidence"}"#),
            Ok(Route::Find)
        );
        assert_eq!(
            route(r#"{"query":"x","paths":["a"],"intent":"read"}"#),
            Ok(Route::Read)
        );
        assert!(route(r#"{"query":"  "}"#).is_err());
        assert!(route(r#"{"intent":"find","paths":["a"]}"#).is_err());
        assert!(route(r#"{"intent":"read","query":"x"}"#).is_err());
    }

    #[test]
    fn limits_default_and_reject_nonsense() {
        let a = parse(r#"{"paths":["a"],"limits":{"maxChars":-5,"maxBytes":10}}"#).unwrap();
        assert_eq!(a.max_chars(), DEFAULT_MAX_CHARS);
        assert_eq!(a.max_bytes(), 10);
        assert_eq!(a.max_item_chars(), 266);
        let full = parse(r#"{"paths":["a"],"view":"full"}"#).unwrap();
        assert_eq!(full.max_chars(), DEFAULT_FULL_MAX_CHARS);
        let tiny = parse(r#"{"limits":{"maxChars":50}}"#).unwrap();
        assert_eq!(tiny.max_item_chars(), 50, "an item never exceeds the whole");
    }

    #[test]
    fn regions_read_one_file_and_default_as_adr_001_says() {
        let a = parse(r#"{"paths":["a.py"],"regions":[{"start":10,"end":15},[12,18],"50-55"]}"#)
            .unwrap();
        assert_eq!(a.route(), Ok(Route::Read));
        assert_eq!(
            a.regions().unwrap().unwrap(),
            vec![(10, 15), (12, 18), (50, 55)]
        );
        assert_eq!((a.context_lines(), a.max_total_lines()), (3, 500));
        assert_eq!(a.max_chars(), DEFAULT_REGION_MAX_CHARS);
        let zero = parse(r#"{"paths":["a"],"regions":["1"],"contextLines":0}"#).unwrap();
        assert_eq!(zero.context_lines(), 0, "no context is a valid ask");
        let refused = |json: &str| parse(json).unwrap().route().unwrap_err();
        assert!(refused(r#"{"paths":["a","b"],"regions":["1-2"]}"#).contains("one path"));
        assert!(refused(r#"{"regions":["1-2"]}"#).contains("one path"));
        assert!(refused(r#"{"paths":["a"],"query":"x","regions":["1-2"]}"#).contains("query"));
        assert!(refused(r#"{"paths":["a"],"view":"full","regions":["1-2"]}"#).contains("view"));
        assert!(refused(r#"{"paths":["a"],"regions":["5-3"]}"#).contains("regions[0]"));
        assert!(refused(r#"{"paths":["a"],"regions":[]}"#).contains("empty"));
    }

    #[test]
    fn full_paths_restrict_full_reads() {
        let a = parse(r#"{"paths":["a","b"],"view":"full","fullPaths":["./b"]}"#).unwrap();
        assert!(!a.wants_full("a") && a.wants_full("b"));
    }

    #[test]
    fn kinds_default_to_everything_and_steer_preference() {
        let k = parse(r#"{"include":{"code":false}}"#).unwrap().kinds();
        assert!(k.docs && !k.code && k.comments && k.logs);
        assert!(is_preferred("docs/a.md", k, true) && !is_preferred("src/a.rs", k, false));
        assert!(!is_preferred(
            "logs/a.log",
            Kinds { logs: false, ..k },
            true
        ));
    }
}
