//! The ADR-033 §6 guidance payload: what an agent should do next, as ready tool calls, so a
//! successful dry run leads straight to the apply call and an error leads to the read that fixes
//! it. Every pillar that changes files attaches one; errors carry their recovery strategies in
//! `details.recoveryStrategies`.

use crate::ToolError;
use serde::Serialize;
use serde_json::Value;

/// Next steps, warnings and recoveries for one response.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Guidance {
    pub context_summary: String,
    pub suggested_actions: Vec<Action>,
    pub warnings: Vec<Warning>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub recovery_strategies: Vec<Recovery>,
    pub meta: Meta,
}

/// A suggested next call; priority 1 comes first.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Action {
    pub priority: u8,
    pub pillar: String,
    pub action: String,
    pub description: String,
    pub rationale: String,
    pub tool_call: ToolCall,
    pub expected_outcome: String,
}

/// A call the agent can make as is.
#[derive(Debug, Clone, Serialize)]
pub struct ToolCall {
    pub tool: String,
    pub args: Value,
}

impl ToolCall {
    pub fn new(tool: &str, args: Value) -> Self {
        Self {
            tool: tool.to_string(),
            args,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Warning {
    /// info, warning or critical.
    pub severity: &'static str,
    pub code: String,
    pub message: String,
    pub affected_targets: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mitigation: Option<String>,
}

/// How to get out of an error (ADR-033 Appendix C).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Recovery {
    pub name: String,
    pub description: String,
    pub tool_call: ToolCall,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub based_on: BasedOn,
    /// 0..1: how sure the suggestions are (lower when impact analysis was skipped or degraded).
    pub confidence: f32,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BasedOn {
    pub hot_spot_count: u32,
    pub page_rank_coverage: f32,
    pub impact_analysis_included: bool,
}

impl Guidance {
    pub fn new(summary: impl Into<String>) -> Self {
        Self {
            context_summary: summary.into(),
            meta: Meta {
                confidence: 0.8,
                ..Meta::default()
            },
            ..Self::default()
        }
    }

    /// Adds an action, keeping the list ordered by priority (stable for equal priorities).
    pub fn action(mut self, action: Action) -> Self {
        self.suggested_actions.push(action);
        self.suggested_actions.sort_by_key(|a| a.priority);
        self
    }

    pub fn warn(mut self, warning: Warning) -> Self {
        self.warnings.push(warning);
        self
    }
}

impl ToolError {
    /// Attaches recovery strategies under `details.recoveryStrategies` (details become an object
    /// if they were not one).
    pub fn recover(self, strategies: Vec<Recovery>) -> Self {
        if strategies.is_empty() {
            return self;
        }
        let value = serde_json::to_value(strategies).unwrap_or(Value::Null);
        self.with_detail("recoveryStrategies", value)
    }
}

/// The usual recoveries by error code (ADR-033 Appendix C), for errors about `path`:
/// NO_MATCH and MULTIPLE_MATCHES read the place again, HASH_MISMATCH rereads the file,
/// INDEX_STALE rebuilds the index.
pub fn recoveries_for(code: &str, path: &str, hint: Option<&str>) -> Vec<Recovery> {
    match code {
        crate::codes::NO_MATCH | crate::codes::MULTIPLE_MATCHES | crate::codes::ANCHOR_FAILED => {
            let mut args = serde_json::json!({ "paths": [path], "view": "section" });
            if let Some(q) = hint.filter(|q| !q.trim().is_empty()) {
                args["query"] = q.into();
            }
            vec![Recovery {
                name: "Refresh content".into(),
                description: "Read the lines around the intended place and copy the target text \
                              exactly (numbered lines show where to anchor)."
                    .into(),
                tool_call: ToolCall::new("explore", args),
            }]
        }
        crate::codes::HASH_MISMATCH => vec![Recovery {
            name: "Reload file".into(),
            description: "The file changed since it was read; read it again and redo the edit \
                          against its current content."
                .into(),
            tool_call: ToolCall::new(
                "explore",
                serde_json::json!({ "paths": [path], "view": "full" }),
            ),
        }],
        crate::codes::INDEX_STALE => vec![Recovery {
            name: "Rebuild index".into(),
            description: "The index is behind the files; bring it up to date.".into(),
            tool_call: ToolCall::new(
                "manage",
                serde_json::json!({ "command": "rebuild", "scope": "incremental" }),
            ),
        }],
        _ => Vec::new(),
    }
}

/// The recoveries for `err` about `path`: when its details list places (NO_MATCH's nearest
/// `candidates`, the `matches` of MULTIPLE_MATCHES / ANCHOR_FAILED, each with a
/// `suggestedLineRange`), first one explore call reading exactly those lines, so the agent
/// sees the text to quote without reading the file; then [`recoveries_for`].
pub fn recoveries_for_error(err: &ToolError, path: &str, hint: Option<&str>) -> Vec<Recovery> {
    let mut out: Vec<Recovery> = err
        .details
        .as_ref()
        .and_then(|d| read_the_places(&err.code, path, d))
        .into_iter()
        .collect();
    out.extend(recoveries_for(&err.code, path, hint));
    out
}

fn read_the_places(code: &str, path: &str, details: &Value) -> Option<Recovery> {
    let ranges: Vec<Value> = match code {
        crate::codes::NO_MATCH | crate::codes::MULTIPLE_MATCHES | crate::codes::ANCHOR_FAILED => {
            let listed = if code == crate::codes::NO_MATCH {
                "candidates"
            } else {
                "matches"
            };
            details
                .get(listed)?
                .as_array()?
                .iter()
                .filter_map(|place| place.get("suggestedLineRange").cloned())
                .collect()
        }
        crate::codes::INDENT_AMBIGUOUS | crate::codes::SYNTAX_ERROR => {
            vec![details.get("suggestedLineRange")?.clone()]
        }
        _ => return None,
    };
    if ranges.is_empty() || path.is_empty() {
        return None;
    }
    Some(Recovery {
        name: "Read the exact lines".into(),
        description: "Read the places listed (numbered, with 3 lines of context) and copy the \
                      target text exactly from there; give their lineRange to anchor the edit."
            .into(),
        tool_call: ToolCall::new(
            "explore",
            serde_json::json!({ "paths": [path], "regions": ranges }),
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes;

    #[test]
    fn errors_carry_recoveries_next_to_their_details() {
        let err = ToolError::new(codes::NO_MATCH, "x")
            .details(serde_json::json!({ "candidates": [] }))
            .recover(recoveries_for(codes::NO_MATCH, "a.rs", Some("fn a")));
        let d = err.details.unwrap();
        assert_eq!(d["candidates"], serde_json::json!([]));
        assert_eq!(d["recoveryStrategies"][0]["toolCall"]["tool"], "explore");
        assert_eq!(
            d["recoveryStrategies"][0]["toolCall"]["args"]["query"],
            "fn a"
        );
    }

    #[test]
    fn listed_places_come_first_as_a_region_read() {
        let err = ToolError::new(codes::MULTIPLE_MATCHES, "x").details(serde_json::json!({
            "matches": [{ "line": 3, "suggestedLineRange": { "start": 3, "end": 4 } }]
        }));
        let r = recoveries_for_error(&err, "a.rs", None);
        assert_eq!(r[0].tool_call.args["regions"][0]["start"], 3);
        assert_eq!(r[1].tool_call.args["view"], "section");
        let plain = ToolError::new(codes::NO_MATCH, "x");
        assert_eq!(recoveries_for_error(&plain, "a.rs", None).len(), 1);
    }

    #[test]
    fn actions_are_ordered_by_priority() {
        let act = |p| Action {
            priority: p,
            pillar: "change".into(),
            action: "x".into(),
            description: String::new(),
            rationale: String::new(),
            tool_call: ToolCall::new("change", Value::Null),
            expected_outcome: String::new(),
        };
        let g = Guidance::new("s").action(act(2)).action(act(1));
        assert_eq!(g.suggested_actions[0].priority, 1);
    }
}
