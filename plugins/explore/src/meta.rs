//! What a pack item needs to be rendered again (its group, kind, title, score, why), kept in
//! the item's meta-json: written where items are made (find, read), read where they are
//! shown (page, show, content) and kept fresh (stale).

use crate::envelope::{Group, ItemKind};
use crate::smart_context::plugin::store::PackItem;
use serde::{Deserialize, Serialize};

/// What a pack item needs to be rendered again, kept in its meta-json.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub group: Group,
    pub kind: ItemKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    /// The chunk kind of a search hit (code, code_comment, markdown, pdf, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chunk_kind: Option<String>,
    /// A read target named by the agent (its failures fail the call) rather than found by
    /// expanding a directory or glob (its failures become a note on the item).
    #[serde(default)]
    pub explicit: bool,
    /// The preview had no extract to show (reason summary_missing).
    #[serde(default)]
    pub missing: bool,
    /// The signals that ranked a search hit (the index's `why`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub why: Vec<String>,
    /// A region read's item: the requested ranges it merged (ADR-001 `originalRanges`) and
    /// the file's line count when read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub asked: Vec<(u32, u32)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_lines: Option<u32>,
    /// A search hit of the group the query is about (the group of the best hit when both
    /// groups are ranked together): that group is shown first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub lead: bool,
}

impl Meta {
    pub fn of(item: &PackItem) -> Meta {
        serde_json::from_str(&item.meta_json).unwrap_or(Meta {
            group: Group::Code,
            kind: ItemKind::FilePreview,
            title: None,
            score: None,
            chunk_kind: None,
            explicit: false,
            missing: false,
            why: Vec::new(),
            asked: Vec::new(),
            total_lines: None,
            lead: false,
        })
    }

    pub fn json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| "{}".into())
    }
}
