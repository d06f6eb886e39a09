//! The ExploreResponse envelope (ADR-040 §5.2), the shared content budget, and the compact
//! text rendering clients show when they ignore structured content.

use serde::Serialize;
use serde_json::{Map, Value};

#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Ok,
    NoResults,
    InvalidArgs,
    Blocked,
    Error,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    DocumentSection,
    FilePreview,
    FileFull,
    Symbol,
    Directory,
}

/// Which group of `data` an item belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Group {
    Docs,
    Code,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Range {
    pub start_line: u32,
    pub end_line: u32,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    pub kind: ItemKind,
    pub file_path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub preview: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    #[serde(skip_serializing_if = "Map::is_empty")]
    pub metadata: Map<String, Value>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<String>,
}

impl Item {
    pub fn new(kind: ItemKind, file_path: &str) -> Self {
        Self {
            kind,
            file_path: file_path.to_string(),
            title: None,
            score: None,
            range: None,
            preview: None,
            content: None,
            metadata: Map::new(),
            why: Vec::new(),
        }
    }

    pub fn meta(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.metadata.insert(key.to_string(), value.into());
        self
    }

    pub fn text_chars(&self) -> usize {
        self.preview.as_deref().map_or(0, |p| p.chars().count())
            + self.content.as_deref().map_or(0, |c| c.chars().count())
    }
}

#[derive(Debug, Default, Serialize)]
pub struct Data {
    /// The group the query is about (the group of the best hit when both are ranked in one
    /// search), shown first in the text; absent when there is one group or none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first: Option<Group>,
    pub docs: Vec<Item>,
    pub code: Vec<Item>,
    /// Session memory, when the call asked for it (`include.memory`, `memory.ids`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<crate::memory::Group>,
}

/// The pack a response belongs to (ADR-040 §5.2).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PackMeta {
    pub pack_id: String,
    /// The pack existed and was reused.
    pub hit: bool,
    pub created_at: u64,
    pub expires_at: u64,
}

/// Where to continue: the next page of items, the rest of a cut item.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Next {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items_cursor: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub content_cursor: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Response {
    pub success: bool,
    pub status: Status,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    pub data: Data,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pack: Option<PackMeta>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<Next>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub degraded: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub reasons: Vec<String>,
    pub stats: Map<String, Value>,
}

impl Response {
    pub fn ok() -> Self {
        Self {
            success: true,
            status: Status::Ok,
            message: None,
            code: None,
            suggestion: None,
            query: None,
            data: Data::default(),
            pack: None,
            next: None,
            degraded: false,
            reasons: Vec::new(),
            stats: Map::new(),
        }
    }

    pub fn failed(status: Status, message: impl Into<String>) -> Self {
        Self {
            success: false,
            status,
            message: Some(message.into()),
            ..Self::ok()
        }
    }

    /// Arguments explore cannot act on: INVALID_ARGS, with where to look.
    pub fn invalid_args(message: impl Into<String>) -> Self {
        Self {
            code: Some(sdk::codes::INVALID_ARGS.into()),
            suggestion: Some(
                "check the arguments against explore's inputSchema: `query` to search, \
                 `paths` to read, `packId` with a cursor from `next` to page on"
                    .into(),
            ),
            ..Self::failed(Status::InvalidArgs, message)
        }
    }

    /// A host error turned into the envelope: sizes and policy refusals are "blocked" (the
    /// agent can lift them by asking explicitly), anything else is "error".
    pub fn from_error(err: sdk::ToolError) -> Self {
        let status = match err.code.as_str() {
            sdk::codes::TOO_LARGE
            | sdk::codes::SENSITIVE_BLOCKED
            | sdk::codes::BINARY_BLOCKED
            | sdk::codes::ACCESS_DENIED => Status::Blocked,
            sdk::codes::INVALID_PATH | sdk::codes::INVALID_ARGS => Status::InvalidArgs,
            _ => Status::Error,
        };
        Self {
            code: Some(err.code),
            suggestion: err.suggestion,
            ..Self::failed(status, err.message)
        }
    }

    pub fn push(&mut self, group: Group, item: Item) {
        match group {
            Group::Docs => self.data.docs.push(item),
            Group::Code => self.data.code.push(item),
        }
    }

    pub fn degrade(&mut self, reason: &str) {
        self.degraded = true;
        if !self.reasons.iter().any(|r| r == reason) {
            self.reasons.push(reason.to_string());
        }
    }

    /// Final bookkeeping: no_results for an empty success, and the stats every response carries.
    pub fn finish(&mut self, elapsed_ms: u64) {
        let items = self.data.docs.len() + self.data.code.len();
        let remembered = self.data.memory.as_ref().is_some_and(|m| !m.is_empty());
        if self.success && items == 0 && !remembered && self.status == Status::Ok {
            self.status = Status::NoResults;
        }
        let chars: usize = self
            .data
            .docs
            .iter()
            .chain(&self.data.code)
            .map(Item::text_chars)
            .sum();
        self.stats.insert("items".into(), items.into());
        if let Some(memory) = &self.data.memory {
            self.stats
                .insert("memoryTokens".into(), memory.meta.estimated_tokens.into());
        }
        self.stats.insert("charsUsed".into(), chars.into());
        self.stats
            .insert("approxTokens".into(), sdk::approx_tokens(chars).into());
        self.stats.insert("elapsedMs".into(), elapsed_ms.into());
    }

    /// Compact text: one status line, then each item as a header and its text.
    pub fn render(&self) -> String {
        let mut out = format!(
            "explore: {}",
            serde_json::to_value(self.status).unwrap_or_default()
        );
        out = out.replace('"', "");
        // A failure's code, message and suggestion lead the text the host sends (the one
        // rule for every tool's failures); the plugin adds only what follows them.
        if self.success {
            if let Some(message) = &self.message {
                out.push_str(&format!(" - {message}"));
            }
            if let Some(suggestion) = &self.suggestion {
                out.push_str(&format!("\nsuggestion: {suggestion}"));
            }
        }
        if self.degraded {
            out.push_str(&format!("\ndegraded: {}", self.reasons.join(", ")));
        }
        if let Some(pack) = &self.pack {
            let reuse = if pack.hit { " (reused)" } else { "" };
            out.push_str(&format!("\npackId: {}{reuse}", pack.pack_id));
        }
        if let Some(next) = &self.next {
            if let Some(c) = &next.items_cursor {
                out.push_str(&format!("\nmore items: cursor.items = {c}"));
            }
            if let Some(c) = &next.content_cursor {
                out.push_str(&format!("\nmore content: cursor.content = {c}"));
            }
        }
        let mut groups = [("docs", &self.data.docs), ("code", &self.data.code)];
        if self.data.first == Some(Group::Code) {
            groups.reverse();
        }
        for (group, items) in groups {
            if items.is_empty() {
                continue;
            }
            out.push_str(&format!("\n[{group}]"));
            for item in items {
                out.push_str(&format!("\n== {}", sdk::display_path(&item.file_path)));
                if let Some(range) = &item.range {
                    out.push_str(&format!(":{}-{}", range.start_line, range.end_line));
                }
                if let Some(title) = &item.title {
                    out.push_str(&format!(" ({title})"));
                }
                if !item.why.is_empty() {
                    out.push_str(&format!(" [{}]", item.why.join("; ")));
                }
                for text in [&item.preview, &item.content].into_iter().flatten() {
                    out.push('\n');
                    out.push_str(text.trim_end());
                }
            }
        }
        if let Some(memory) = &self.data.memory {
            out.push_str("\n[memory]\n");
            out.push_str(crate::memory::render(memory).trim_end());
        }
        out
    }
}

/// The response-wide content budget (limits.maxChars): nothing ever goes past it.
pub struct Budget {
    remaining: usize,
    item_cap: usize,
    /// Kept back for a later group (code's share while documents render).
    withheld: usize,
}

impl Budget {
    pub fn new(max_chars: usize, item_cap: usize) -> Self {
        Self {
            remaining: max_chars,
            item_cap: item_cap.min(max_chars),
            withheld: 0,
        }
    }

    /// Keeps `chars` (at most what remains) out of reach until [`Budget::release`]: a later
    /// group's share, so an earlier one cannot spend it.
    pub fn withhold(&mut self, chars: usize) {
        let chars = chars.min(self.remaining);
        self.remaining -= chars;
        self.withheld += chars;
    }

    /// Gives back what was withheld (with what the earlier group left unspent).
    pub fn release(&mut self) {
        self.remaining += std::mem::take(&mut self.withheld);
    }

    pub fn exhausted(&self) -> bool {
        self.remaining == 0
    }

    pub fn remaining(&self) -> usize {
        self.remaining
    }

    pub fn item_cap(&self) -> usize {
        self.item_cap
    }

    /// Claims `chars` whole (for full content, which is never cut); false when they do not fit.
    pub fn reserve(&mut self, chars: usize) -> bool {
        if chars > self.remaining {
            return false;
        }
        self.remaining -= chars;
        true
    }

    /// Takes `text` whole when it fits the item cap and what is left, else its longest prefix
    /// of whole lines (or chars, for one long line) that does; the flag says it was cut.
    pub fn take(&mut self, text: &str) -> (String, bool) {
        let cap = self.item_cap.min(self.remaining);
        let chars = text.chars().count();
        if chars <= cap {
            self.remaining -= chars;
            return (text.to_string(), false);
        }
        let mut kept = String::new();
        let mut used = 0;
        for line in text.split_inclusive('\n') {
            let n = line.chars().count();
            if used + n > cap {
                break;
            }
            kept.push_str(line);
            used += n;
        }
        if kept.is_empty() {
            kept = text.chars().take(cap).collect();
            used = cap;
        }
        self.remaining -= used;
        (kept, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn budget_never_exceeds_total_and_cuts_on_lines() {
        let mut b = Budget::new(10, 8);
        assert_eq!(b.take("abc\ndef\nghi\n"), ("abc\ndef\n".to_string(), true));
        assert_eq!(b.take("xyz"), ("xy".to_string(), true));
        assert!(b.exhausted());
        assert_eq!(b.take("more"), (String::new(), true));
    }

    /// A property over many random budgets and texts: what is taken never exceeds the
    /// item cap or, summed, the budget; a cut is flagged, and whole text is kept when it fits.
    #[test]
    fn budget_holds_across_random_inputs() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n.max(1)
        };
        for _ in 0..2_000 {
            let max = next(3_000) as usize;
            let cap = next(800) as usize + 1;
            let mut budget = Budget::new(max, cap);
            let mut used = 0;
            for _ in 0..next(30) {
                let text: String = (0..next(900))
                    .map(|_| match next(12) {
                        0 => '\n',
                        1 => 'é',
                        2 => '漢',
                        _ => 'a',
                    })
                    .collect();
                let before = budget.remaining();
                if next(5) == 0 {
                    let n = text.chars().count();
                    let fits = n <= before;
                    assert_eq!(budget.reserve(n), fits);
                    used += if fits { n } else { 0 };
                    continue;
                }
                let (kept, cut) = budget.take(&text);
                let n = kept.chars().count();
                assert!(
                    n <= cap.min(max) && n <= before,
                    "{n} > cap {cap} / left {before}"
                );
                assert_eq!(cut, kept != text, "a cut is flagged");
                if text.chars().count() <= cap.min(before) {
                    assert!(!cut, "whole text that fits is kept");
                }
                used += n;
                assert_eq!(budget.remaining(), max - used);
            }
            assert!(used <= max);
        }
    }

    #[test]
    fn reservations_are_whole_or_nothing() {
        let mut b = Budget::new(10, 10);
        assert!(b.reserve(6));
        assert!(!b.reserve(5));
        assert_eq!(b.remaining(), 4);
    }

    #[test]
    fn empty_success_becomes_no_results() {
        let mut r = Response::ok();
        r.finish(1);
        assert_eq!(r.status, Status::NoResults);
        assert!(r.success);
    }

    #[test]
    fn errors_map_to_statuses() {
        let e = sdk::ToolError::new(sdk::codes::TOO_LARGE, "big");
        assert_eq!(Response::from_error(e).status, Status::Blocked);
        let e = sdk::ToolError::new(sdk::codes::FILE_NOT_FOUND, "gone");
        assert_eq!(Response::from_error(e).status, Status::Error);
    }
}
