use serde_json::Value;

/// Result of a plugin operation.
pub type ToolResult<T> = Result<T, ToolError>;

/// Error codes shared by host and plugins. Names come from the specification (ADR-001, ADR-033,
/// ADR-040); agents match on them, so they never change once published.
pub mod codes {
    pub const INVALID_ARGS: &str = "INVALID_ARGS";
    pub const INVALID_PATH: &str = "INVALID_PATH";
    pub const ACCESS_DENIED: &str = "ACCESS_DENIED";
    pub const FILE_NOT_FOUND: &str = "FILE_NOT_FOUND";
    pub const ALREADY_EXISTS: &str = "ALREADY_EXISTS";
    pub const TOO_LARGE: &str = "TOO_LARGE";
    pub const SENSITIVE_BLOCKED: &str = "SENSITIVE_BLOCKED";
    pub const BINARY_BLOCKED: &str = "BINARY_BLOCKED";
    pub const NOT_TEXT: &str = "NOT_TEXT";
    pub const NO_MATCH: &str = "NO_MATCH";
    pub const MULTIPLE_MATCHES: &str = "MULTIPLE_MATCHES";
    pub const HASH_MISMATCH: &str = "HASH_MISMATCH";
    /// Anchors (lineRange, beforeContext, afterContext) ruled out every place the target occurs.
    pub const ANCHOR_FAILED: &str = "ANCHOR_FAILED";
    /// The only fuzzy match differs too much from the target to replace safely.
    pub const FUZZY_UNSAFE: &str = "FUZZY_UNSAFE";
    /// A target matched only up to indentation, and a replacement line's indentation cannot be
    /// carried into the file's without guessing.
    pub const INDENT_AMBIGUOUS: &str = "INDENT_AMBIGUOUS";
    /// An edit would introduce a syntax error the file did not have.
    pub const SYNTAX_ERROR: &str = "SYNTAX_ERROR";
    /// The index is behind the files.
    pub const INDEX_STALE: &str = "INDEX_STALE";
    /// A command ran past its deadline.
    pub const TIMEOUT: &str = "TIMEOUT";
    pub const NO_PARSER: &str = "NO_PARSER";
    pub const NOT_INDEXED: &str = "NOT_INDEXED";
    pub const UNSUPPORTED_LANGUAGE: &str = "UNSUPPORTED_LANGUAGE";
    pub const MALFORMED: &str = "MALFORMED";
    pub const ENCRYPTED: &str = "ENCRYPTED";
    pub const NOT_FOUND: &str = "NOT_FOUND";
    pub const UNSUPPORTED: &str = "UNSUPPORTED";
    pub const INTERNAL: &str = "INTERNAL";
}

/// A failure an agent can act on: a stable code, a message, what to try next, and optional
/// structured details (match locations, sizes).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolError {
    pub code: String,
    pub message: String,
    pub suggestion: Option<String>,
    pub details: Option<Value>,
}

impl ToolError {
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        Self {
            code: code.to_string(),
            message: message.into(),
            suggestion: None,
            details: None,
        }
    }

    /// Adds the next step to try.
    pub fn suggest(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }

    /// Adds structured details (a JSON object).
    pub fn details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    /// Sets one field of the details object (details that were not an object move under
    /// `value`), so layers can add what they know (the file, the edit) to an error from below.
    pub fn with_detail(mut self, key: &str, value: impl Into<Value>) -> Self {
        let mut map = match self.details.take() {
            Some(Value::Object(map)) => map,
            Some(other) => serde_json::Map::from_iter([("value".to_string(), other)]),
            None => serde_json::Map::new(),
        };
        map.insert(key.to_string(), value.into());
        self.details = Some(Value::Object(map));
        self
    }

    /// A NOT_FOUND answered from an index that is not complete (`state` as the index status
    /// says it, `pending` files to go) proves nothing is there: it becomes NOT_INDEXED, which
    /// says so and when to ask again. Other errors, and any answer of a fresh index, pass.
    pub fn unless_indexing(self, state: &str, pending: u64) -> Self {
        if self.code != codes::NOT_FOUND || state == "fresh" {
            return self;
        }
        let progress = match pending {
            0 => format!("the index is {state}"),
            n => format!("the index is {state}, {n} files to go"),
        };
        ToolError {
            code: codes::NOT_INDEXED.to_string(),
            message: format!("{} as far as the index knows; {progress}, so it may not be indexed yet", self.message),
            suggestion: Some(
                "ask again once manage command=status says the index is fresh, or name the file with path to read it directly"
                    .to_string(),
            ),
            details: self.details,
        }
        .with_detail("indexState", state)
    }

    /// Splits into the WIT record's fields (details serialized to JSON).
    pub fn into_parts(self) -> (String, String, Option<String>, Option<String>) {
        let details = self.details.map(|d| d.to_string());
        (self.code, self.message, self.suggestion, details)
    }

    /// Builds from the WIT record's fields; unparseable details are kept as a JSON string.
    pub fn from_parts(
        code: String,
        message: String,
        suggestion: Option<String>,
        details_json: Option<String>,
    ) -> Self {
        let details =
            details_json.map(|raw| serde_json::from_str(&raw).unwrap_or(Value::String(raw)));
        Self {
            code,
            message,
            suggestion,
            details,
        }
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for ToolError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_found_from_an_incomplete_index_is_not_indexed() {
        let absent = ToolError::new(codes::NOT_FOUND, "no definition named f");
        assert_eq!(absent.clone().unless_indexing("fresh", 0), absent);
        let building = absent.unless_indexing("rebuilding", 120);
        assert_eq!(building.code, codes::NOT_INDEXED);
        assert!(
            building.message.contains("120 files to go"),
            "{}",
            building.message
        );
        let other = ToolError::new(codes::INVALID_ARGS, "x");
        assert_eq!(other.clone().unless_indexing("rebuilding", 1), other);
    }

    #[test]
    fn parts_round_trip_keeps_details_structured() {
        let err = ToolError::new(codes::NO_MATCH, "nothing")
            .suggest("read the file first")
            .details(serde_json::json!({"line": 3}));
        let (c, m, s, d) = err.clone().into_parts();
        assert_eq!(ToolError::from_parts(c, m, s, d), err);
    }
}
