//! explore across roots. On a server with several roots, explore without `root` searches
//! every root (or those its packId or cursor names) and merges their answers into one
//! envelope: each item names its root, the packId names the roots it covers
//! (`<id>~api,web`) and a cursor the root each part continues in (`api:<c>+web:<c>`), so a
//! follow-up needs no `root`. Each root's explore runs in that root alone with a share of
//! the budget, and the merge never drops an item a root showed (that root's pack marked it
//! shown, and its cursor would skip it).
//!
//! Names are `[A-Za-z0-9._-]+` and explore's ids and cursors `[a-z0-9.]`, so `~ , : +`
//! never clash; a forged part still fails its root's signature.

use super::{ARGUMENT, Root};
use crate::error::{HostError, HostResult, codes};
use crate::runtime::{Runtime, ToolOutput};
use crate::tasks::Control;
use serde_json::{Map, Value, json};
use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Instant;

/// explore's own budget defaults (its `args.rs`), split between roots when the call sets none.
const DEFAULT_MAX_RESULTS: f64 = 6.0;
const DEFAULT_MAX_CHARS: f64 = 3_200.0;
/// The least text a root's share gets, so that a long item still shows in part.
const MIN_SHARE_CHARS: f64 = 800.0;
/// Failures that only say the thing asked for is not in that root (a path, a pack, memory
/// ids another root holds): once another root answered, they are left out quietly.
const ABSENT: [&str; 4] = [
    codes::FILE_NOT_FOUND,
    codes::NOT_FOUND,
    codes::INVALID_PATH,
    codes::INVALID_ARGS,
];

/// explore where the caller sees several roots (`view`): in the root `root` names, else in
/// the roots its packId or cursor name, else in every root; one answer whichever it was.
pub fn call(
    runtime: &Arc<Runtime>,
    view: &[Root],
    mut args: Map<String, Value>,
    control: &Control,
) -> HostResult<ToolOutput> {
    let all = view.to_vec();
    let named = if args.contains_key(ARGUMENT) {
        Some(super::route(view, "explore", &mut args)?)
    } else {
        None
    };
    let scope = Scope::read(&args, &all, named.is_some())?;
    let mut targets: Vec<Root> = match (named, scope.roots()) {
        (Some(root), Some(names)) if !names.contains(&root.name) => {
            return Err(HostError::new(
                codes::INVALID_ARGS,
                format!(
                    "the packId or cursor belongs to root {}, not {}",
                    names.join(", "),
                    root.name
                ),
            )
            .suggest("pass them without root: they name the roots they continue in"));
        }
        (Some(root), _) => vec![root],
        (None, Some(names)) => all
            .into_iter()
            .filter(|r| names.contains(&r.name))
            .collect(),
        (None, None) => all,
    };
    if targets.len() > 1 && scope.is_fresh() {
        keep_roots_holding_paths(&mut targets, &args);
    }
    let calls: Vec<(Root, String)> = targets
        .iter()
        .map(|root| {
            let mut own = scope.args_for(&args, &root.name);
            share_budget(&mut own, targets.len());
            (root.clone(), Value::Object(own).to_string())
        })
        .collect();
    let started = Instant::now();
    let answers = run(runtime, calls, control);
    merge(runtime, answers, started)
}

/// What a call's packId and cursor say about the roots they belong to.
struct Scope {
    /// The packId without its roots, and the roots it names (`None`: it names none).
    pack: Option<(String, Option<Vec<String>>)>,
    cursor: Option<CursorParts>,
}

/// A cursor split by root, in the shape the call gave it (explore takes a bare string or
/// an object with `items`/`content` or `itemsCursor`/`contentCursor`).
enum CursorParts {
    Bare(Vec<(String, String)>),
    Fields(Vec<(String, Vec<(String, String)>)>),
    /// Not root-qualified, or not a cursor at all: passed on as given (explore judges it).
    AsGiven,
}

impl Scope {
    fn read(args: &Map<String, Value>, all: &[Root], one_root: bool) -> HostResult<Scope> {
        let served = |name: &str| all.iter().any(|r| r.name == name);
        let pack = match args.get("packId") {
            Some(Value::String(id)) => Some(match id.split_once('~') {
                Some((plain, names)) => {
                    let names: Vec<String> = names.split(',').map(str::to_string).collect();
                    if let Some(unknown) = names.iter().find(|n| !served(n)) {
                        return Err(not_served("packId", unknown, all));
                    }
                    (plain.to_string(), Some(names))
                }
                None => (id.clone(), None),
            }),
            _ => None,
        };
        let parts = |cursor: &str| -> HostResult<Option<Vec<(String, String)>>> {
            let mut parts = Vec::new();
            for part in cursor.split('+') {
                let Some((root, rest)) = part.trim().split_once(':') else {
                    return Ok(None);
                };
                if !served(root) {
                    return Err(not_served("cursor", root, all));
                }
                parts.push((root.to_string(), rest.to_string()));
            }
            Ok(Some(parts))
        };
        let cursor = match args.get("cursor") {
            None | Some(Value::Null) => None,
            Some(Value::String(c)) => Some(match parts(c)? {
                Some(p) => CursorParts::Bare(p),
                None => CursorParts::AsGiven,
            }),
            Some(Value::Object(fields)) => {
                let mut split = Vec::new();
                let mut qualified = true;
                for (key, value) in fields {
                    if let Value::String(c) = value {
                        match parts(c)? {
                            Some(p) => split.push((key.clone(), p)),
                            None => qualified = false,
                        }
                    }
                }
                Some(if qualified && !split.is_empty() {
                    CursorParts::Fields(split)
                } else {
                    CursorParts::AsGiven
                })
            }
            Some(_) => Some(CursorParts::AsGiven),
        };
        if matches!(cursor, Some(CursorParts::AsGiven)) && !one_root && all.len() > 1 {
            return Err(HostError::new(
                codes::INVALID_ARGS,
                "this cursor does not name its root, and the server serves several",
            )
            .suggest(
                "pass next.itemsCursor or next.contentCursor exactly as the answer gave it \
                 (`api:...`), or name the root",
            ));
        }
        Ok(Scope { pack, cursor })
    }

    /// The roots the packId or cursor continue in (the cursor's when there is one).
    fn roots(&self) -> Option<Vec<String>> {
        let mut names: Vec<String> = match &self.cursor {
            Some(CursorParts::Bare(parts)) => parts.iter().map(|(r, _)| r.clone()).collect(),
            Some(CursorParts::Fields(fields)) => fields
                .iter()
                .flat_map(|(_, parts)| parts.iter().map(|(r, _)| r.clone()))
                .collect(),
            Some(CursorParts::AsGiven) | None => self.pack.as_ref()?.1.clone()?,
        };
        let mut seen = std::collections::HashSet::new();
        names.retain(|n| seen.insert(n.clone()));
        Some(names)
    }

    /// A new request rather than the continuation of a pack.
    fn is_fresh(&self) -> bool {
        self.pack.is_none() && self.cursor.is_none()
    }

    /// The arguments `root` gets: the packId and cursor as that root issued them.
    fn args_for(&self, args: &Map<String, Value>, root: &str) -> Map<String, Value> {
        let mut own = args.clone();
        if let Some((plain, _)) = &self.pack {
            own.insert("packId".into(), Value::String(plain.clone()));
        }
        let part = |parts: &[(String, String)]| {
            parts
                .iter()
                .rev()
                .find(|(r, _)| r == root)
                .map(|(_, c)| Value::String(c.clone()))
        };
        match &self.cursor {
            Some(CursorParts::Bare(parts)) => {
                if let Some(c) = part(parts) {
                    own.insert("cursor".into(), c);
                }
            }
            Some(CursorParts::Fields(fields)) => {
                let cursor: Map<String, Value> = fields
                    .iter()
                    .filter_map(|(key, parts)| Some((key.clone(), part(parts)?)))
                    .collect();
                own.insert("cursor".into(), Value::Object(cursor));
            }
            Some(CursorParts::AsGiven) | None => {}
        }
        own
    }
}

fn not_served(what: &str, name: &str, all: &[Root]) -> HostError {
    let names: Vec<&str> = all.iter().map(|r| r.name.as_str()).collect();
    HostError::new(
        codes::INVALID_ARGS,
        format!("the {what} names root {name:?}, which this server does not serve"),
    )
    .suggest(format!(
        "pass the packId and cursor an answer gave, unchanged; roots: {}",
        names.join(", ")
    ))
}

/// A read of paths goes to the roots that hold at least one of them (all of them when none
/// does, so that each says why): a file only one root has is read with the whole budget.
fn keep_roots_holding_paths(targets: &mut Vec<Root>, args: &Map<String, Value>) {
    if args.get("allowGlobs") == Some(&Value::Bool(true)) {
        return;
    }
    let Some(Value::Array(paths)) = args.get("paths") else {
        return;
    };
    let paths: Vec<&str> = paths.iter().filter_map(Value::as_str).collect();
    if paths.is_empty() {
        return;
    }
    let holding: Vec<Root> = targets
        .iter()
        .filter(|r| paths.iter().any(|p| r.services.workspace.stat(p).is_ok()))
        .cloned()
        .collect();
    if !holding.is_empty() {
        *targets = holding;
    }
}

/// Gives each of `roots` roots its share of the call's item and text budget (explore's
/// defaults when the call sets none): `ceil(results / roots)` items per group and
/// `chars / roots` characters, at least 800. Region reads and whole-file views keep their
/// budget, which is a file's, not a search's.
fn share_budget(args: &mut Map<String, Value>, roots: usize) {
    if roots < 2
        || args.contains_key("regions")
        || args.get("view").and_then(Value::as_str) == Some("full")
    {
        return;
    }
    let limits = args
        .entry("limits")
        .or_insert_with(|| Value::Object(Map::new()));
    let Value::Object(limits) = limits else {
        return;
    };
    let given = |key: &str, default: f64| {
        limits
            .get(key)
            .and_then(Value::as_f64)
            .filter(|v| *v >= 1.0)
            .unwrap_or(default)
    };
    let n = roots as f64;
    let results = (given("maxResults", DEFAULT_MAX_RESULTS) / n)
        .ceil()
        .max(1.0);
    let chars = given("maxChars", DEFAULT_MAX_CHARS);
    let chars = (chars / n).floor().max(MIN_SHARE_CHARS.min(chars));
    limits.insert("maxResults".into(), json!(results));
    limits.insert("maxChars".into(), json!(chars));
}

/// One root's answer, and how long it took.
struct Answer {
    root: Root,
    outcome: HostResult<ToolOutput>,
    ms: u64,
}

impl Answer {
    fn succeeded(&self) -> Option<&ToolOutput> {
        self.outcome.as_ref().ok().filter(|o| !o.is_failure())
    }
}

/// Runs each root's explore, a few at a time (each takes a pooled instance), all under the
/// one call's control.
fn run(runtime: &Arc<Runtime>, calls: Vec<(Root, String)>, control: &Control) -> Vec<Answer> {
    let ask = |root: &Root, args: &str| {
        let started = Instant::now();
        let outcome = runtime.call_tool_in(&root.services, "explore", args, control);
        Answer {
            root: root.clone(),
            outcome,
            ms: started.elapsed().as_millis() as u64,
        }
    };
    if let [(root, args)] = calls.as_slice() {
        return vec![ask(root, args)];
    }
    let width = (runtime.limits().max_instances as usize / 4).max(1);
    let mut answers = Vec::with_capacity(calls.len());
    for batch in calls.chunks(width) {
        std::thread::scope(|scope| {
            let running: Vec<_> = batch
                .iter()
                .map(|(root, args)| scope.spawn(|| ask(root, args)))
                .collect();
            for ((root, _), thread) in batch.iter().zip(running) {
                answers.push(thread.join().unwrap_or_else(|_| Answer {
                    root: root.clone(),
                    outcome: Err(HostError::new(
                        codes::INTERNAL,
                        format!("explore in root {} panicked", root.name),
                    )),
                    ms: 0,
                }));
            }
        });
    }
    answers
}

/// One envelope from the roots' answers; the first failure when no root answered.
fn merge(runtime: &Runtime, answers: Vec<Answer>, started: Instant) -> HostResult<ToolOutput> {
    if !answers.iter().any(|a| a.succeeded().is_some()) {
        let first = answers.into_iter().next().map(|a| a.outcome);
        return first.unwrap_or_else(|| {
            Err(HostError::new(
                codes::INTERNAL,
                "explore had no root to search",
            ))
        });
    }
    let answered: Vec<(&Answer, &Value)> = answers
        .iter()
        .filter_map(|a| Some((a, &a.succeeded()?.structured)))
        .collect();
    let mut data = Map::new();
    if let Some(first) = leading_group(&answered) {
        data.insert("first".into(), first);
    }
    for group in ["docs", "code"] {
        data.insert(group.into(), Value::Array(merge_group(&answered, group)));
    }
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
        let (code, message) = failure_of(answer);
        if !ABSENT.contains(&code.as_str()) {
            add_reason(if code == codes::DEADLINE_EXCEEDED {
                "timeout"
            } else {
                "index_unavailable"
            });
            left_out.push(format!("{} ({code}: {message})", answer.root.name));
        }
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
            text.push_str(&memory_text(output).unwrap_or_else(|| {
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

/// The code and message a root failed with.
fn failure_of(answer: &Answer) -> (String, String) {
    match &answer.outcome {
        Err(e) => (e.code.clone(), e.message.clone()),
        Ok(o) => (
            o.structured["code"].as_str().unwrap_or("ERROR").to_string(),
            o.structured["message"]
                .as_str()
                .unwrap_or_default()
                .to_string(),
        ),
    }
}

fn top_score(structured: &Value) -> f64 {
    ["docs", "code"]
        .iter()
        .filter_map(|g| structured["data"][g][0]["score"].as_f64())
        .fold(f64::NEG_INFINITY, f64::max)
}

/// `data.first` of the root whose best item scored highest.
fn leading_group(answered: &[(&Answer, &Value)]) -> Option<Value> {
    let best = answered.iter().max_by(|a, b| {
        top_score(a.1)
            .partial_cmp(&top_score(b.1))
            .unwrap_or(std::cmp::Ordering::Equal)
            // On a tie the earlier root leads (max_by keeps the last of equals).
            .then(std::cmp::Ordering::Greater)
    })?;
    best.1["data"].get("first").cloned()
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

/// The pack every root answered in, named with its roots: `<id>~api,web`.
fn merge_pack(answered: &[(&Answer, &Value)]) -> Option<Value> {
    let packs: Vec<(&str, &Value)> = answered
        .iter()
        .filter_map(|(a, s)| Some((a.root.name.as_str(), s.get("pack")?)))
        .collect();
    let (_, first) = packs.first()?;
    let id = first["packId"].as_str()?;
    let names: Vec<&str> = packs.iter().map(|(root, _)| *root).collect();
    let mut pack = first.as_object().cloned().unwrap_or_default();
    pack.insert("packId".into(), json!(format!("{id}~{}", names.join(","))));
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

/// Where to go on: the next page in every root that has one (`api:<c>+web:<c>`), and the
/// rest of the first cut item (one root's).
fn merge_next(answered: &[(&Answer, &Value)]) -> Option<Value> {
    let mut next = Map::new();
    let items: Vec<String> = answered
        .iter()
        .filter_map(|(a, s)| {
            Some(format!(
                "{}:{}",
                a.root.name,
                s["next"]["itemsCursor"].as_str()?
            ))
        })
        .collect();
    if !items.is_empty() {
        next.insert("itemsCursor".into(), json!(items.join("+")));
    }
    if let Some(content) = answered.iter().find_map(|(a, s)| {
        Some(format!(
            "{}:{}",
            a.root.name,
            s["next"]["contentCursor"].as_str()?
        ))
    }) {
        next.insert("contentCursor".into(), json!(content));
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
                let (code, message) = failure_of(answer);
                json!({ "status": "failed", "code": code, "message": message, "elapsedMs": answer.ms })
            }
        };
        per_root.insert(answer.root.name.clone(), entry);
    }
    stats.insert("roots".into(), Value::Object(per_root));
    stats
}

/// explore's compact text of an envelope (its `envelope.rs` rendering, memory aside), each
/// item headed `== <root>:<path>` when `label_roots`.
fn render(envelope: &Value, label_roots: bool) -> String {
    let mut out = format!("explore: {}", envelope["status"].as_str().unwrap_or("ok"));
    if envelope["success"] == true {
        if let Some(message) = envelope["message"].as_str() {
            out.push_str(&format!(" - {message}"));
        }
        if let Some(suggestion) = envelope["suggestion"].as_str() {
            out.push_str(&format!("\nsuggestion: {suggestion}"));
        }
    }
    if envelope["degraded"] == true {
        let reasons: Vec<&str> = envelope["reasons"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        out.push_str(&format!("\ndegraded: {}", reasons.join(", ")));
    }
    if let Some(id) = envelope["pack"]["packId"].as_str() {
        let reuse = if envelope["pack"]["hit"] == true {
            " (reused)"
        } else {
            ""
        };
        out.push_str(&format!("\npackId: {id}{reuse}"));
    }
    if let Some(c) = envelope["next"]["itemsCursor"].as_str() {
        out.push_str(&format!("\nmore items: cursor.items = {c}"));
    }
    if let Some(c) = envelope["next"]["contentCursor"].as_str() {
        out.push_str(&format!("\nmore content: cursor.content = {c}"));
    }
    let mut groups = ["docs", "code"];
    if envelope["data"]["first"] == "code" {
        groups.reverse();
    }
    for group in groups {
        let items = envelope["data"][group]
            .as_array()
            .map_or(&[][..], Vec::as_slice);
        if items.is_empty() {
            continue;
        }
        out.push_str(&format!("\n[{group}]"));
        for item in items {
            out.push_str("\n== ");
            if label_roots && let Some(root) = item[ARGUMENT].as_str() {
                out.push_str(&format!("{root}:"));
            }
            out.push_str(&display_path(item["filePath"].as_str().unwrap_or_default()));
            if let (Some(a), Some(b)) = (
                item["range"]["startLine"].as_u64(),
                item["range"]["endLine"].as_u64(),
            ) {
                out.push_str(&format!(":{a}-{b}"));
            }
            if let Some(title) = item["title"].as_str() {
                out.push_str(&format!(" ({title})"));
            }
            let why: Vec<&str> = item["why"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .collect();
            if !why.is_empty() {
                out.push_str(&format!(" [{}]", why.join("; ")));
            }
            for text in [&item["preview"], &item["content"]]
                .into_iter()
                .filter_map(Value::as_str)
            {
                out.push('\n');
                out.push_str(text.trim_end());
            }
        }
    }
    out
}

/// A root's rendered memory block: what its text holds past the part [`render`] makes of
/// its envelope (explore renders memory last, under `[memory]`).
fn memory_text(output: &ToolOutput) -> Option<String> {
    let before = render(&output.structured, false);
    let rest = output.text.strip_prefix(&before)?;
    Some(rest.strip_prefix("\n[memory]\n")?.to_string())
}

/// A path as a header shows it: control characters escaped, so a hostile file name cannot
/// start a line of its own.
fn display_path(path: &str) -> String {
    path.chars()
        .map(|c| match c {
            '\n' => "\\n".to_string(),
            '\r' => "\\r".to_string(),
            '\t' => "\\t".to_string(),
            c if c.is_control() => format!("\\x{{{:x}}}", c as u32),
            c => c.to_string(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(args: &Map<String, Value>) -> (f64, f64) {
        (
            args["limits"]["maxResults"].as_f64().unwrap(),
            args["limits"]["maxChars"].as_f64().unwrap(),
        )
    }

    #[test]
    fn each_root_gets_a_share_of_the_budget() {
        let mut args = json!({ "query": "x" }).as_object().cloned().unwrap();
        share_budget(&mut args, 2);
        assert_eq!(limits(&args), (3.0, 1_600.0));

        let mut args = json!({ "query": "x", "limits": { "maxResults": 5, "maxChars": 2000 } })
            .as_object()
            .cloned()
            .unwrap();
        share_budget(&mut args, 4);
        assert_eq!(
            limits(&args),
            (2.0, 800.0),
            "at least 800 characters a root"
        );

        let mut args = json!({ "query": "x", "limits": { "maxChars": 300 } })
            .as_object()
            .cloned()
            .unwrap();
        share_budget(&mut args, 3);
        assert_eq!(
            limits(&args),
            (2.0, 300.0),
            "never more than the call asked"
        );

        let mut args = json!({ "paths": ["a.md"], "view": "full" })
            .as_object()
            .cloned()
            .unwrap();
        share_budget(&mut args, 2);
        assert!(
            !args.contains_key("limits"),
            "a whole file keeps its budget"
        );
    }

    #[test]
    fn paths_are_shown_with_control_characters_escaped() {
        assert_eq!(display_path("a\nb\u{1b}.md"), "a\\nb\\x{1b}.md");
    }
}
