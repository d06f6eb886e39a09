//! Session memory in explore (spec/progressive-disclosure-memory.md): with `include.memory` a
//! query also searches what earlier sessions did and said, and comes back as its own group; the
//! layers open by themselves when the scores say so (§5.1), within a token budget (§5.2).
//! `memory.ids` opens chosen events at the timeline or details layer.

use crate::smart_context::plugin::memory as host;
use serde::{Deserialize, Serialize};

/// The spec's §4.2 defaults.
const TOP_K: u32 = 10;
const MIN_SCORE: f64 = 0.7;
const MAX_AUTO_EXPAND: usize = 3;
const MAX_TOTAL_TOKENS: usize = 2_000;
const WINDOW: u32 = 3;

/// §5.1 thresholds.
const HIGH_CONFIDENCE: f64 = 0.92;
const CLEAR_WINNER: f64 = 0.85;
const CLEAR_GAP: f64 = 0.1;
const AMBIGUOUS: f64 = 0.8;
// Scores carry three decimals; the gap is compared with a float's slack (0.85 - 0.75 is
// 0.0999... in binary).
/// §5.2: a detail is added only for results this good, and only if this much budget is left.
const DETAIL_SCORE: f64 = 0.85;
const DETAIL_RESERVE: usize = 800;
const TIMELINE_RESERVE: usize = 200;
/// Chars of a neighbour's preview in a timeline opened by the rules.
const NEIGHBOUR_PREVIEW: usize = 100;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Index,
    Timeline,
    Details,
}

/// `memory` in ExploreArgs.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MemoryArgs {
    /// Events to open (`mem_12`), at `layer`.
    pub ids: Option<Vec<String>>,
    pub layer: Option<Layer>,
    pub window_size: Option<u32>,
    pub top_k: Option<u32>,
    pub min_score: Option<f64>,
    pub max_total_tokens: Option<u32>,
    /// Open layers by themselves (§5.1); false: the index only.
    pub auto_expand: Option<bool>,
    /// Only these kinds: prompt, response, tool, insight.
    pub types: Option<Vec<String>>,
    pub session_id: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct IndexItem {
    pub id: String,
    pub summary: String,
    pub score: f64,
    #[serde(rename = "type")]
    pub kind: String,
    pub timestamp: String,
    pub session_id: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TimelineItem {
    pub id: String,
    pub timestamp: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub preview: String,
    pub is_target: bool,
    pub session_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Detail {
    pub id: String,
    pub content: String,
    #[serde(rename = "type")]
    pub kind: String,
    pub timestamp: String,
    pub session_id: String,
    pub metadata: DetailMeta,
    pub relations: Relations,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DetailMeta {
    pub token_count: u32,
    pub has_code: bool,
    pub files: Vec<String>,
    pub tools: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transaction_id: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Relations {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent_id: Option<String>,
    pub child_ids: Vec<String>,
    pub related_ids: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Meta {
    pub total_matches: u32,
    pub expanded_count: u32,
    pub estimated_tokens: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expansion_reason: Option<String>,
    /// Ids asked for that name no event (forgotten, or never were).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<String>,
}

/// The ProgressiveSearchResult of §4.3: `data.memory`.
#[derive(Debug, Clone, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Group {
    pub index: Vec<IndexItem>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timeline: Option<Vec<TimelineItem>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<Vec<Detail>>,
    pub meta: Meta,
}

impl Group {
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
            && self.timeline.as_ref().is_none_or(Vec::is_empty)
            && self.details.as_ref().is_none_or(Vec::is_empty)
    }
}

/// What §5.1 decides for a ranked index.
#[derive(Debug, Clone, PartialEq)]
pub struct Expansion {
    pub ids: Vec<String>,
    pub timeline: bool,
    pub details: bool,
    pub reason: &'static str,
}

/// §5.1, rule by rule: a lone result at 0.92 or more, or a first at 0.85 or more with a lead
/// of 0.1, opens in full; three or more at 0.8 or more open their timeline; else nothing.
pub fn decide(scores: &[(String, f64)]) -> Expansion {
    let ids = |n: usize| scores.iter().take(n).map(|(id, _)| id.clone()).collect();
    if scores.len() == 1 && scores[0].1 >= HIGH_CONFIDENCE {
        return Expansion {
            ids: ids(1),
            timeline: false,
            details: true,
            reason: "high_confidence",
        };
    }
    if scores.len() >= 2
        && scores[0].1 >= CLEAR_WINNER
        && scores[0].1 - scores[1].1 >= CLEAR_GAP - 1e-9
    {
        return Expansion {
            ids: ids(1),
            timeline: false,
            details: true,
            reason: "clear_winner",
        };
    }
    if scores.len() >= 3 && scores[2].1 >= AMBIGUOUS {
        return Expansion {
            ids: ids(MAX_AUTO_EXPAND),
            timeline: true,
            details: false,
            reason: "ambiguous_results",
        };
    }
    Expansion {
        ids: Vec::new(),
        timeline: false,
        details: false,
        reason: "low_confidence",
    }
}

/// smartSearch (§4.1): the index, then what §5.1 opens, within the §5.2 budget.
pub fn smart_search(query: &str, args: &MemoryArgs) -> Result<Group, sdk::ToolError> {
    let found = host::search(
        query,
        &host::SearchOptions {
            top_k: args.top_k.unwrap_or(TOP_K).clamp(1, 100),
            min_score: args.min_score.unwrap_or(MIN_SCORE).clamp(0.0, 1.0),
            kinds: args.types.clone().unwrap_or_default(),
            session_id: args.session_id.clone(),
            since_ms: None,
        },
    )?;
    let budget = args
        .max_total_tokens
        .map_or(MAX_TOTAL_TOKENS, |t| t as usize);
    let mut group = Group {
        index: found.items.into_iter().map(index_item).collect(),
        ..Default::default()
    };
    group.meta.total_matches = found.total_matches;
    let mut used = tokens_of(&group.index);
    // The index alone past the budget: the lowest-ranked results go first.
    while used > budget && group.index.len() > 1 {
        group.index.pop();
        used = tokens_of(&group.index);
    }
    if args.auto_expand.unwrap_or(true) {
        let scores: Vec<(String, f64)> = group
            .index
            .iter()
            .map(|i| (i.id.clone(), i.score))
            .collect();
        let decision = decide(&scores);
        group.meta.expansion_reason = Some(decision.reason.to_string());
        expand_within(&mut group, &decision, &scores, budget, &mut used)?;
    }
    group.meta.estimated_tokens = used as u32;
    Ok(group)
}

/// §5.2: the timeline once (about 200 tokens), details of results at 0.85 or more while 800
/// tokens are left; never past the budget.
fn expand_within(
    group: &mut Group,
    decision: &Expansion,
    scores: &[(String, f64)],
    budget: usize,
    used: &mut usize,
) -> Result<(), sdk::ToolError> {
    let mut expanded = std::collections::BTreeSet::new();
    if decision.timeline && *used + TIMELINE_RESERVE <= budget {
        let mut timeline: Vec<TimelineItem> = host::timeline(&decision.ids, 1)?
            .into_iter()
            .map(timeline_item)
            .collect();
        // Opened by itself, the timeline is context for choosing among the results: the
        // neighbours' previews are kept to their first 100 chars (memory.ids with layer
        // timeline gives them whole).
        for item in timeline.iter_mut().filter(|t| !t.is_target) {
            item.preview = sdk::short_preview(&item.preview, NEIGHBOUR_PREVIEW);
        }
        // Cut from the far ends of the window while over.
        while *used + tokens_of(&timeline) > budget && !timeline.is_empty() {
            let drop_at = timeline.iter().rposition(|t| !t.is_target).unwrap_or(0);
            timeline.remove(drop_at);
        }
        if !timeline.is_empty() {
            *used += tokens_of(&timeline);
            expanded.extend(decision.ids.iter().cloned());
            group.timeline = Some(timeline);
        }
    }
    if decision.details {
        let candidates: Vec<&String> = scores
            .iter()
            .filter(|(id, score)| decision.ids.contains(id) || *score >= DETAIL_SCORE)
            .map(|(id, _)| id)
            .take(MAX_AUTO_EXPAND)
            .collect();
        for id in candidates {
            if *used + DETAIL_RESERVE > budget {
                break;
            }
            let Some(detail) = host::details(std::slice::from_ref(id))?.pop() else {
                continue;
            };
            let mut detail = detail_of(detail);
            fit_detail(&mut detail, budget - *used);
            *used += tokens_of(&detail);
            expanded.insert(id.clone());
            group.details.get_or_insert_with(Vec::new).push(detail);
        }
    }
    group.meta.expanded_count = expanded.len() as u32;
    Ok(())
}

/// A detail whose content would pass `tokens` is cut on a line, and says so.
fn fit_detail(detail: &mut Detail, tokens: usize) {
    let over = tokens_of(detail).saturating_sub(tokens);
    if over == 0 {
        return;
    }
    let keep = detail.content.chars().count().saturating_sub(over * 4 + 40);
    let cut: String = detail.content.chars().take(keep).collect();
    let cut = match cut.rfind('\n') {
        Some(at) if at > keep / 2 => cut[..at].to_string(),
        _ => cut,
    };
    detail.content = format!(
        "{cut}\n[cut to the memory budget: open {} with memory.ids for all of it]",
        detail.id
    );
}

/// `memory.ids` at a layer: the timeline around them, their details, or (index) their lines.
pub fn show(args: &MemoryArgs) -> Result<Group, sdk::ToolError> {
    let ids = args.ids.clone().unwrap_or_default();
    let mut group = Group::default();
    match args.layer.unwrap_or(Layer::Details) {
        Layer::Timeline => {
            let window = args.window_size.unwrap_or(WINDOW);
            let items: Vec<TimelineItem> = host::timeline(&ids, window)?
                .into_iter()
                .map(timeline_item)
                .collect();
            group.meta.missing = missing(&ids, items.iter().filter(|t| t.is_target).map(|t| &t.id));
            group.meta.estimated_tokens = tokens_of(&items) as u32;
            group.timeline = Some(items);
        }
        Layer::Details | Layer::Index => {
            let details: Vec<Detail> = host::details(&ids)?.into_iter().map(detail_of).collect();
            group.meta.missing = missing(&ids, details.iter().map(|d| &d.id));
            if args.layer == Some(Layer::Index) {
                group.index = details
                    .iter()
                    .map(|d| IndexItem {
                        id: d.id.clone(),
                        summary: first_line(&d.content, 100),
                        score: 1.0,
                        kind: d.kind.clone(),
                        timestamp: d.timestamp.clone(),
                        session_id: d.session_id.clone(),
                    })
                    .collect();
                group.meta.estimated_tokens = tokens_of(&group.index) as u32;
            } else {
                group.meta.estimated_tokens = tokens_of(&details) as u32;
                group.details = Some(details);
            }
        }
    }
    group.meta.expanded_count = ids.len() as u32 - group.meta.missing.len() as u32;
    group.meta.expansion_reason = Some(
        if ids.is_empty() {
            "none"
        } else {
            "explicit_id"
        }
        .into(),
    );
    Ok(group)
}

fn missing<'a>(asked: &[String], found: impl Iterator<Item = &'a String>) -> Vec<String> {
    let found: Vec<&String> = found.collect();
    asked
        .iter()
        .filter(|id| {
            let canonical = canonical_id(id);
            !found.iter().any(|f| **f == canonical)
        })
        .cloned()
        .collect()
}

fn canonical_id(id: &str) -> String {
    let id = id.trim();
    if id.starts_with("mem_") {
        id.to_string()
    } else {
        format!("mem_{id}")
    }
}

fn index_item(i: host::IndexItem) -> IndexItem {
    IndexItem {
        id: i.id,
        summary: i.summary,
        score: i.score,
        kind: i.kind,
        timestamp: sdk::iso_time(i.timestamp_ms),
        session_id: i.session_id,
    }
}

fn timeline_item(t: host::TimelineItem) -> TimelineItem {
    TimelineItem {
        id: t.id,
        timestamp: sdk::iso_time(t.timestamp_ms),
        kind: t.kind,
        preview: t.preview,
        is_target: t.is_target,
        session_id: t.session_id,
        tool: t.tool,
    }
}

fn detail_of(d: host::Detail) -> Detail {
    Detail {
        id: d.id,
        content: d.content,
        kind: d.kind,
        timestamp: sdk::iso_time(d.timestamp_ms),
        session_id: d.session_id,
        metadata: DetailMeta {
            token_count: d.token_count,
            has_code: d.has_code,
            files: d.files,
            tools: d.tools,
            tags: d.tags,
            transaction_id: d.transaction_id,
        },
        relations: Relations {
            parent_id: d.parent_id,
            child_ids: d.child_ids,
            related_ids: d.related_ids,
        },
    }
}

/// Tokens as the rest of explore counts them (chars / 4) over the JSON the agent receives.
fn tokens_of(value: &impl Serialize) -> usize {
    sdk::approx_tokens(serde_json::to_string(value).map_or(0, |s| s.chars().count()))
}

/// The first non-empty line, at most `max` chars.
fn first_line(text: &str, max: usize) -> String {
    sdk::short_preview(
        text.lines().find(|l| !l.trim().is_empty()).unwrap_or(""),
        max,
    )
}

/// The §6 text: the index as a table with the "show" hint, the timeline by time, details whole.
pub fn render(group: &Group) -> String {
    let mut out = String::new();
    if !group.index.is_empty() {
        out.push_str(&format!(
            "## Related Memories ({} matches)\n\n| ID | Summary | Score |\n|----|---------|-------|\n",
            group.meta.total_matches.max(group.index.len() as u32)
        ));
        for item in &group.index {
            out.push_str(&format!(
                "| {} | {} | {:.2} |\n",
                item.id,
                item.summary.replace('|', "\\|").replace('\n', " "),
                item.score
            ));
        }
        let first = &group.index[0].id;
        out.push_str(&format!(
            "\n*Use \"show {first}\" for details: explore {{\"memory\": {{\"ids\": [\"{first}\"]}}}}*\n"
        ));
    }
    if let Some(timeline) = group.timeline.as_ref().filter(|t| !t.is_empty()) {
        out.push_str("\n## Related Memories with Timeline\n");
        let mut day = String::new();
        for item in timeline {
            let (date, time) = item
                .timestamp
                .split_once('T')
                .unwrap_or((&item.timestamp, ""));
            if date != day {
                out.push_str(&format!("\n### {date}\n\n"));
                day = date.to_string();
            }
            let who = match item.kind.as_str() {
                "prompt" => "User".to_string(),
                "response" => "Assistant".to_string(),
                "tool" => format!("Tool {}", item.tool.as_deref().unwrap_or(""))
                    .trim()
                    .to_string(),
                _ => "Note".to_string(),
            };
            let mark = if item.is_target {
                format!("**[{}]** ", item.id)
            } else {
                format!("[{}] ", item.id)
            };
            out.push_str(&format!(
                "{} - {mark}{who}: \"{}\"\n",
                time.get(..5).unwrap_or(time),
                item.preview
            ));
        }
    }
    for detail in group.details.iter().flatten() {
        let (date, time) = detail
            .timestamp
            .split_once('T')
            .unwrap_or((&detail.timestamp, ""));
        out.push_str(&format!(
            "\n## Memory Detail: {}\n\n**Session**: {} | **Date**: {date} {}\n\n### Content\n{}\n",
            detail.id,
            detail.session_id,
            time.get(..5).unwrap_or(time),
            detail.content.trim_end()
        ));
        if !detail.metadata.files.is_empty() {
            out.push_str(&format!(
                "\n**Related Files**: {}",
                detail.metadata.files.join(", ")
            ));
        }
        if !detail.metadata.tools.is_empty() {
            out.push_str(&format!(
                "\n**Tools Used**: {}",
                detail.metadata.tools.join(", ")
            ));
        }
        out.push('\n');
    }
    if group.is_empty() {
        out.push_str("## Related Memories (0 matches)\n");
    }
    if !group.meta.missing.is_empty() {
        out.push_str(&format!(
            "\nnot in memory: {}\n",
            group.meta.missing.join(", ")
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scores(values: &[f64]) -> Vec<(String, f64)> {
        values
            .iter()
            .enumerate()
            .map(|(i, s)| (format!("mem_{}", i + 1), *s))
            .collect()
    }

    #[test]
    fn expansion_rules_at_and_around_each_threshold() {
        let reason = |values: &[f64]| decide(&scores(values)).reason;
        // Rule 1: a lone result at 0.92.
        assert_eq!(reason(&[0.92]), "high_confidence");
        assert_eq!(reason(&[0.919]), "low_confidence");
        // Rule 2: 0.85 first, a 0.1 lead.
        assert_eq!(reason(&[0.85, 0.75]), "clear_winner");
        assert_eq!(reason(&[0.849, 0.70]), "low_confidence");
        assert_eq!(
            reason(&[0.95, 0.86]),
            "low_confidence",
            "a lead of 0.09 is not clear"
        );
        // Rule 3: the third at 0.8 opens the timeline of the first three.
        let d = decide(&scores(&[0.9, 0.85, 0.8, 0.8]));
        assert_eq!(
            (d.reason, d.timeline, d.details, d.ids.len()),
            ("ambiguous_results", true, false, 3)
        );
        assert_eq!(reason(&[0.9, 0.85, 0.79]), "low_confidence");
        // Rule 2 goes before rule 3.
        assert_eq!(reason(&[1.0, 0.85, 0.85]), "clear_winner");
        assert_eq!(reason(&[]), "low_confidence");
        let d = decide(&scores(&[0.97]));
        assert_eq!((d.details, d.ids), (true, vec!["mem_1".to_string()]));
    }

    #[test]
    fn a_detail_is_cut_to_what_is_left_and_says_so() {
        let mut d = Detail {
            id: "mem_4".into(),
            content: "line\n".repeat(2_000),
            kind: "response".into(),
            timestamp: "2026-11-24T10:00:00Z".into(),
            session_id: "s".into(),
            metadata: DetailMeta {
                token_count: 2_500,
                has_code: false,
                files: vec![],
                tools: vec![],
                tags: vec![],
                transaction_id: None,
            },
            relations: Relations {
                parent_id: None,
                child_ids: vec![],
                related_ids: vec![],
            },
        };
        fit_detail(&mut d, 900);
        assert!(tokens_of(&d) <= 900, "{}", tokens_of(&d));
        assert!(d.content.ends_with("with memory.ids for all of it]"));
    }

    #[test]
    fn the_index_renders_as_the_spec_table_with_the_show_hint() {
        let group = Group {
            index: vec![IndexItem {
                id: "mem_1".into(),
                summary: "cache | TTL".into(),
                score: 0.94,
                kind: "insight".into(),
                timestamp: "2026-11-24T10:05:00Z".into(),
                session_id: "s".into(),
            }],
            meta: Meta {
                total_matches: 1,
                ..Default::default()
            },
            ..Default::default()
        };
        let text = render(&group);
        assert!(text.starts_with("## Related Memories (1 matches)\n\n| ID | Summary | Score |"));
        assert!(text.contains("| mem_1 | cache \\| TTL | 0.94 |"));
        assert!(text.contains("*Use \"show mem_1\" for details"));
    }
}
