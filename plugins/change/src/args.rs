//! The ChangeRequest contract (ADR-033 Pillar 2, ADR-001 Stage 3 anchors and fuzzy options),
//! parsed strictly.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangeArgs {
    pub intent: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub target_files: Vec<String>,
    #[serde(default)]
    pub edits: Vec<Edit>,
    #[serde(default)]
    pub options: Options,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Edit {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_path: Option<String>,
    pub target_string: String,
    pub replacement_string: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_range: Option<LineRange>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before_context: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_context: Option<String>,
    /// BLAKE3 of the file the edit was written against (full hex, or a prefix of 8+).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expected_hash: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fuzzy: Option<Fuzzy>,
}

pub use sdk::lines::LineRange;

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Fuzzy {
    #[serde(default = "yes")]
    pub enabled: bool,
    #[serde(default = "five")]
    pub max_distance: u32,
    #[serde(default = "yes")]
    pub whitespace_only: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Options {
    #[serde(default = "yes")]
    pub dry_run: bool,
    #[serde(default = "yes")]
    pub include_impact: bool,
    /// Kept for the contract: a transaction never stays half applied, so this is always in effect.
    #[serde(default = "yes")]
    pub auto_rollback: bool,
    /// Apply what matches and report the rest, instead of failing the whole batch on one edit
    /// (dry runs only: an apply is all or nothing).
    #[serde(default)]
    pub batch_mode: bool,
    /// Write an edit even when it leaves the file with a syntax error it did not have (for
    /// deliberate multi-step work); the impact report then says so and rates the risk high.
    #[serde(default)]
    pub allow_syntax_errors: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            dry_run: true,
            include_impact: true,
            auto_rollback: true,
            batch_mode: false,
            allow_syntax_errors: false,
        }
    }
}

fn yes() -> bool {
    true
}

fn five() -> u32 {
    5
}

/// Largest fuzzy distance accepted: beyond it a "match" is a different text.
pub const MAX_FUZZY_DISTANCE: u32 = 64;
