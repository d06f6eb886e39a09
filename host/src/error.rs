//! The host's error value: the same shape as the WIT `error` record, so a failure in a host
//! function reaches the plugin (and through it the agent) as data with a code and a suggestion.

use serde_json::Value;

/// Error codes the host produces. Plugins add their own (NO_MATCH, ...); see plugins/sdk.
pub mod codes {
    pub const INVALID_ARGS: &str = "INVALID_ARGS";
    pub const INVALID_PATH: &str = "INVALID_PATH";
    pub const ACCESS_DENIED: &str = "ACCESS_DENIED";
    pub const FILE_NOT_FOUND: &str = "FILE_NOT_FOUND";
    pub const ALREADY_EXISTS: &str = "ALREADY_EXISTS";
    pub const TOO_LARGE: &str = "TOO_LARGE";
    pub const SENSITIVE_BLOCKED: &str = "SENSITIVE_BLOCKED";
    pub const BINARY_BLOCKED: &str = "BINARY_BLOCKED";
    pub const HASH_MISMATCH: &str = "HASH_MISMATCH";
    pub const NOT_FOUND: &str = "NOT_FOUND";
    pub const NO_PARSER: &str = "NO_PARSER";
    /// The file has nothing in the index (yet): not indexed, skipped or ignored.
    pub const NOT_INDEXED: &str = "NOT_INDEXED";
    pub const UNSUPPORTED_LANGUAGE: &str = "UNSUPPORTED_LANGUAGE";
    pub const UNSUPPORTED: &str = "UNSUPPORTED";
    /// The index could not be brought up to date (read-only, or a pass failed).
    pub const INDEX_ERROR: &str = "INDEX_ERROR";
    pub const IO_ERROR: &str = "IO_ERROR";
    pub const WRITE_FAILED: &str = "WRITE_FAILED";
    pub const STORE_ERROR: &str = "STORE_ERROR";
    pub const UNKNOWN_TOOL: &str = "UNKNOWN_TOOL";
    pub const DEADLINE_EXCEEDED: &str = "DEADLINE_EXCEEDED";
    pub const MEMORY_LIMIT: &str = "MEMORY_LIMIT";
    pub const PLUGIN_TRAPPED: &str = "PLUGIN_TRAPPED";
    pub const RESULT_TOO_LARGE: &str = "RESULT_TOO_LARGE";
    pub const BUSY: &str = "BUSY";
    /// The client cancelled the call (or went away); work done so far is kept.
    pub const CANCELLED: &str = "CANCELLED";
    pub const INTERNAL: &str = "INTERNAL";
}

/// A failure with a stable code, a message and the next step to try.
#[derive(Debug, Clone, PartialEq)]
pub struct HostError {
    /// Host codes come from [`codes`]; errors a plugin returns keep the plugin's own code.
    pub code: String,
    pub message: String,
    pub suggestion: Option<String>,
    pub details: Option<Value>,
}

pub type HostResult<T> = Result<T, HostError>;

impl HostError {
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        Self {
            code: code.to_string(),
            message: message.into(),
            suggestion: None,
            details: None,
        }
    }

    pub fn suggest(mut self, suggestion: impl Into<String>) -> Self {
        self.suggestion = Some(suggestion.into());
        self
    }

    pub fn details(mut self, details: Value) -> Self {
        self.details = Some(details);
        self
    }

    /// Maps an I/O failure on `path` to the code an agent can act on.
    pub fn io(path: &str, err: &std::io::Error) -> Self {
        use std::io::ErrorKind;
        match err.kind() {
            ErrorKind::NotFound => {
                Self::new(codes::FILE_NOT_FOUND, format!("{path} does not exist"))
                    .suggest("check the path; it is relative to the workspace root")
            }
            ErrorKind::PermissionDenied => Self::new(
                codes::ACCESS_DENIED,
                format!("{path}: access denied ({err}); paths must stay inside the workspace root"),
            ),
            ErrorKind::AlreadyExists => {
                Self::new(codes::ALREADY_EXISTS, format!("{path} already exists"))
            }
            _ => Self::new(codes::IO_ERROR, format!("{path}: {err}")),
        }
    }
}

impl std::fmt::Display for HostError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)?;
        if let Some(s) = &self.suggestion {
            write!(f, " (suggestion: {s})")?;
        }
        Ok(())
    }
}

impl std::error::Error for HostError {}
