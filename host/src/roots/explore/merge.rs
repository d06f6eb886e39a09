//! One envelope from the roots' explore answers: items merged by score and labelled with
//! their root, the pack and cursors qualified by root, the roots that failed accounted for.

use super::render::{memory_text, render};
use super::{ARGUMENT, Answer};
use crate::error::{HostError, HostResult, codes};
use crate::runtime::{Runtime, ToolOutput};
use serde_json::{Map, Value, json};
use std::collections::VecDeque;
use std::time::Instant;

/// Failures that only say a fresh request's subject is not in that root (a path, memory ids
/// another root holds): once another root answered, they are left out quietly. On a
/// continuation the same codes mean that root's pack or cursor is gone, which is said.
const ABSENT: [&str; 4] = [
    codes::FILE_NOT_FOUND,
    codes::NOT_FOUND,
    codes::INVALID_PATH,
    codes::INVALID_ARGS,
];

/// One envelope from the roots' answers; when no root answered, the failure that says most
/// (one that is not merely "not here", else the first), naming its root.
pub(super) fn merge(
    runtime: &Runtime,
    answers: Vec<Answer>,
    started: Instant,
    continuing: bool,
) -> HostResult<ToolOutput> {
    if !answers.iter().any(|a| a.succeeded().is_some()) {
        let telling = answers
            .iter()
            .position(|a| !ABSENT.contains(&a.failure().0.as_str()))
            .unwrap_or(0);
        let several = answers.len() > 1;
        let Some(answer) = answers.into_iter().nth(telling) else {
            return Err(HostError::new(
                codes::INTERNAL,
                "explore had no root to search",
            ));
        };
        return match answer.outcome {
            Err(mut err) if several => {
                err.message = format!("in root {}: {}", answer.root.name, err.message);
                Err(err)
            }
            outcome => outcome,
        };
    }
    let answered: Vec<(&Answer, &Value)> = answers
        .iter()
        .filter_map(|a| Some((a, &a.succeeded()?.structured)))
        .collect();
    let mut data = Map::new();
    let docs = merge_group(&answered, "docs");
    let code = merge_group(&answered, "code");
    if let Some(first) = leading_group(&docs, &code) {
        data.insert("first".into(), json!(first));
    }
    data.insert("docs".into(), Value::Array(docs));
    data.insert("code".into(), Value::Array(code));
    if let Some(memory) = merge_memory(&answered) {
        data.insert("memory".into(), memory);
    }
    let mut merged = Map::new();
    merged.insert("success".into(), json!(true));
    let any_ok = answered.iter().any(|(_, s)| s["status"] == "ok");
    merged.insert(
        "status".into(),
        json!(if any_ok { "ok" } else { "no_results" }),
    );
    for key in ["message", "suggestion"] {
        if let Some(said) = joined(&answered, key) {
            merged.insert(key.into(), Value::String(said));
        }
    }
    if let Some(query) = answered.iter().find_map(|(_, s)| s.get("query")) {
        merged.insert("query".into(), query.clone());
    }
    merged.insert("data".into(), Value::Object(data));
    if let Some(pack) = merge_pack(&answered) {
        merged.insert("pack".into(), pack);
    }
    if let Some(next) = merge_next(&answered) {
        merged.insert("next".into(), next);
    }
    let mut reasons: Vec<String> = Vec::new();
    let mut add_reason = |reason: &str| {
        if !reasons.iter().any(|r| r == reason) {
            reasons.push(reason.to_string());
        }
    };
    for (_, s) in &answered {
        for reason in s["reasons"].as_array().into_iter().flatten() {
            add_reason(reason.as_str().unwrap_or_default());
        }
    }
    let mut left_out = Vec::new();
    for answer in answers.iter().filter(|a| a.succeeded().is_none()) {
        let (code, message) = answer.failure();
        let absent = ABSENT.contains(&code.as_str());
        if absent && !continuing {
            continue;
        }
        add_reason(if absent {
            "pack_expired"
        } else if code == codes::DEADLINE_EXCEEDED {
            "timeout"
        } else {
            "root_unavailable"
        });
        left_out.push(format!("{} ({code}: {message})", answer.root.name));
    }
    if !reasons.is_empty() {
        merged.insert("degraded".into(), json!(true));
        merged.insert("reasons".into(), json!(reasons));
    }
    merged.insert(
        "stats".into(),
        Value::Object(merge_stats(&answers, &answered, started)),
    );
    let merged = Value::Object(merged);
    let mut text = render(&merged, true);
    if !left_out.is_empty() {
        text.push_str(&format!("\nleft out: {}", left_out.join("; ")));
    }
    for (answer, structured) in &answered {
        if structured["data"].get("memory").is_some()
            && let Some(output) = answer.succeeded()
        {
            text.push_str(&format!("\n[memory {}]\n", answer.root.name));
            text.push_str(&memory_text(output, &answer.root.name).unwrap_or_else(|| {
                serde_json::to_string_pretty(&structured["data"]["memory"]).unwrap_or_default()
            }));
        }
    }
    let size = merged.to_string().len() + text.len();
    if size as u64 > runtime.limits().max_result_bytes {
        return Err(HostError::new(
            codes::RESULT_TOO_LARGE,
            format!(
                "explore over {} roots returned {size} bytes, over the host's cap of {}",
                answered.len(),
                runtime.limits().max_result_bytes
            ),
        )
        .suggest("ask for less (lower limits), or name one root"));
    }
    Ok(crate::runtime::guard_output(ToolOutput {
        structured: merged,
        text,
    }))
}

/// `data.first`: the group of the best-scored item, when both groups have items.
fn leading_group(docs: &[Value], code: &[Value]) -> Option<&'static str> {
    let top = |items: &[Value]| items.first().map(|i| i["score"].as_f64().unwrap_or(0.0));
    match (top(docs), top(code)) {
        (Some(d), Some(c)) => Some(if c > d { "code" } else { "docs" }),
        _ => None,
    }
}

/// The roots' items of one group, each naming its root, merged by score while each root's
/// own order is kept (items without a score follow in root order).
fn merge_group(answered: &[(&Answer, &Value)], group: &str) -> Vec<Value> {
    let mut queues: Vec<VecDeque<Value>> = answered
        .iter()
        .map(|(answer, structured)| {
            structured["data"][group]
                .as_array()
                .into_iter()
                .flatten()
                .map(|item| {
                    let mut item = item.clone();
                    if let Value::Object(fields) = &mut item {
                        fields.insert(ARGUMENT.into(), json!(answer.root.name));
                    }
                    item
                })
                .collect()
        })
        .collect();
    let mut merged = Vec::new();
    loop {
        let score = |q: &VecDeque<Value>| {
            q.front()
                .map(|i| i["score"].as_f64().unwrap_or(f64::NEG_INFINITY))
        };
        let mut best: Option<(usize, f64)> = None;
        for (i, queue) in queues.iter().enumerate() {
            if let Some(s) = score(queue)
                && best.is_none_or(|(_, b)| s > b)
            {
                best = Some((i, s));
            }
        }
        let Some((i, _)) = best else {
            return merged;
        };
        merged.extend(queues[i].pop_front());
    }
}

/// Each root's memory answer (its memory is its own): one root's as it is, several merged,
/// each entry naming its root and counts summed.
fn merge_memory(answered: &[(&Answer, &Value)]) -> Option<Value> {
    let groups: Vec<(&str, &Value)> = answered
        .iter()
        .filter_map(|(a, s)| Some((a.root.name.as_str(), s["data"].get("memory")?)))
        .collect();
    let (first_root, first) = *groups.first()?;
    let mut merged = first.clone();
    if let Value::Object(fields) = &mut merged {
        fields.insert(ARGUMENT.into(), json!(first_root));
    }
    if groups.len() == 1 {
        return Some(merged);
    }
    let mut merged = Map::new();
    for list in ["index", "timeline", "details"] {
        let entries: Vec<Value> = groups
            .iter()
            .flat_map(|(root, group)| {
                group[list]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(move |entry| {
                        let mut entry = entry.clone();
                        if let Value::Object(fields) = &mut entry {
                            fields.insert(ARGUMENT.into(), json!(root));
                        }
                        entry
                    })
            })
            .collect();
        if list == "index" || !entries.is_empty() {
            merged.insert(list.into(), Value::Array(entries));
        }
    }
    let mut meta = first["meta"].as_object().cloned().unwrap_or_default();
    for (_, group) in &groups[1..] {
        for (key, value) in group["meta"].as_object().into_iter().flatten() {
            if let (Some(a), Some(b)) = (meta.get(key).and_then(Value::as_u64), value.as_u64()) {
                meta.insert(key.clone(), json!(a + b));
            }
        }
    }
    merged.insert("meta".into(), Value::Object(meta));
    Some(Value::Object(merged))
}

/// A `message` or `suggestion` the roots gave: one as it is, several each after its root.
fn joined(answered: &[(&Answer, &Value)], key: &str) -> Option<String> {
    let said: Vec<(&str, &str)> = answered
        .iter()
        .filter_map(|(a, s)| Some((a.root.name.as_str(), s.get(key)?.as_str()?)))
        .collect();
    match said.as_slice() {
        [] => None,
        [(_, one)] => Some(one.to_string()),
        many => Some(
            many.iter()
                .map(|(root, s)| format!("{root}: {s}"))
                .collect::<Vec<_>>()
                .join(" | "),
        ),
    }
}

/// The packs the roots answered in, each named with its roots: `<id>~api,web` when they share
/// an id (the same request), `<id>~api+<id>~web` when they do not (each read its own paths).
fn merge_pack(answered: &[(&Answer, &Value)]) -> Option<Value> {
    let packs: Vec<(&str, &Value)> = answered
        .iter()
        .filter_map(|(a, s)| Some((a.root.name.as_str(), s.get("pack")?)))
        .collect();
    let (_, first) = packs.first()?;
    let mut groups: Vec<(&str, Vec<&str>)> = Vec::new();
    for (root, pack) in &packs {
        let id = pack["packId"].as_str()?;
        match groups.iter_mut().find(|(g, _)| *g == id) {
            Some((_, roots)) => roots.push(root),
            None => groups.push((id, vec![root])),
        }
    }
    let id: Vec<String> = groups
        .iter()
        .map(|(id, roots)| format!("{id}~{}", roots.join(",")))
        .collect();
    let mut pack = first.as_object().cloned().unwrap_or_default();
    pack.insert("packId".into(), json!(id.join("+")));
    pack.insert(
        "hit".into(),
        json!(packs.iter().all(|(_, p)| p["hit"] == true)),
    );
    for key in ["createdAt", "expiresAt"] {
        if let Some(least) = packs.iter().filter_map(|(_, p)| p[key].as_u64()).min() {
            pack.insert(key.into(), json!(least));
        }
    }
    Some(Value::Object(pack))
}

/// Where to go on, in every root that has somewhere to go: the next page
/// (`api:<c>+web:<c>`) and the rest of each cut item.
fn merge_next(answered: &[(&Answer, &Value)]) -> Option<Value> {
    let mut next = Map::new();
    for key in ["itemsCursor", "contentCursor"] {
        let parts: Vec<String> = answered
            .iter()
            .filter_map(|(a, s)| Some(format!("{}:{}", a.root.name, s["next"][key].as_str()?)))
            .collect();
        if !parts.is_empty() {
            next.insert(key.into(), json!(parts.join("+")));
        }
    }
    (!next.is_empty()).then_some(Value::Object(next))
}

/// Totals over the roots, and each root's own: `stats.roots.<name>`.
fn merge_stats(
    answers: &[Answer],
    answered: &[(&Answer, &Value)],
    started: Instant,
) -> Map<String, Value> {
    let mut stats = Map::new();
    for key in ["items", "charsUsed", "approxTokens", "memoryTokens"] {
        let values: Vec<u64> = answered
            .iter()
            .filter_map(|(_, s)| s["stats"][key].as_u64())
            .collect();
        if !values.is_empty() {
            stats.insert(key.into(), json!(values.iter().sum::<u64>()));
        }
    }
    stats.insert(
        "elapsedMs".into(),
        json!(started.elapsed().as_millis() as u64),
    );
    let mut per_root = Map::new();
    for answer in answers {
        let entry = match answer.succeeded() {
            Some(output) => json!({
                "status": output.structured["status"],
                "items": output.structured["stats"]["items"],
                "elapsedMs": answer.ms,
            }),
            None => {
                let (code, message) = answer.failure();
                json!({ "status": "failed", "code": code, "message": message, "elapsedMs": answer.ms })
            }
        };
        per_root.insert(answer.root.name.clone(), entry);
    }
    stats.insert("roots".into(), Value::Object(per_root));
    stats
}
