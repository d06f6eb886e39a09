//! The call's arguments, as the agent sends them (strict: unknown fields are errors).

use super::*;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct UnderstandArgs {
    /// Required unless `path`, `symbol` or `cursor` says what the call is about.
    #[serde(default)]
    pub(crate) goal: String,
    /// Pins the target: a file or directory relative to the root.
    pub(crate) path: Option<String>,
    /// Pins a definition (`name` or `Container.name`), in `path` when given.
    pub(crate) symbol: Option<String>,
    pub(crate) scope: Option<Scope>,
    pub(crate) depth: Option<Depth>,
    pub(crate) include: Option<Include>,
    pub(crate) limits: Option<Limits>,
    /// `next.cursor` of an earlier answer: the following items of its lists.
    pub(crate) cursor: Option<String>,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Scope {
    Symbol,
    File,
    Module,
    Project,
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Depth {
    Shallow,
    Standard,
    Deep,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Include {
    pub(crate) call_graph: Option<bool>,
    pub(crate) hot_spots: Option<bool>,
    pub(crate) page_rank: Option<bool>,
    pub(crate) dependencies: Option<bool>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(crate) struct Limits {
    pub(crate) max_chars: Option<usize>,
}
