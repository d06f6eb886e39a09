//! explore across roots. Where a session sees several roots, explore without `root`
//! searches every root (or those its packId or cursor name) and merges their answers into one
//! envelope: each item names its root, the packId names the roots it covers
//! (`<id>~api,web`) and a cursor the root each part continues in (`api:<c>+web:<c>`), so a
//! follow-up needs no `root`. Each root's explore runs in that root alone with its share of
//! the budget, and the merge never drops an item a root showed (that root's pack marked it
//! shown, and its cursor would skip it).
//!
//! Names are `[A-Za-z0-9._-]+` and explore's ids and cursors `[a-z0-9.]`, so `~ , : + =`
//! never clash; a forged part still fails its root's signature.

mod merge;
mod render;
mod scope;

use super::{ARGUMENT, Root};
use crate::error::{HostError, HostResult, codes};
use crate::runtime::{Runtime, ToolOutput};
use crate::tasks::Control;
use scope::Scope;
use serde_json::{Map, Value, json};
use std::sync::Arc;
use std::time::Instant;

/// explore's own budget defaults (its `args.rs`), split between roots when the call sets none.
const DEFAULT_MAX_RESULTS: u64 = 6;
const DEFAULT_MAX_CHARS: u64 = 3_200;

/// explore where the caller sees several roots (`view`): in the root `root` names, else in
/// the roots its packId or cursor name, else in every root; one answer whichever it was.
pub fn call(
    runtime: &Arc<Runtime>,
    view: &[Root],
    mut args: Map<String, Value>,
    control: &Control,
) -> HostResult<ToolOutput> {
    if args.get(ARGUMENT).is_some_and(Value::is_null) {
        args.remove(ARGUMENT);
    }
    let named = if args.contains_key(ARGUMENT) {
        Some(super::route(view, "explore", &mut args)?)
    } else {
        None
    };
    let scope = Scope::read(&args, view, named.is_some())?;
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
        (None, Some(names)) => view
            .iter()
            .filter(|r| names.contains(&r.name))
            .cloned()
            .collect(),
        (None, None) => view.to_vec(),
    };
    let held = if targets.len() > 1 && scope.is_fresh() {
        paths_held(&mut targets, &args)
    } else {
        None
    };
    let calls: Vec<(Root, String)> = targets
        .iter()
        .enumerate()
        .map(|(i, root)| {
            let mut own = scope.args_for(&args, &root.name);
            if let Some(held) = &held {
                own.insert("paths".into(), Value::Array(held[i].clone()));
            }
            share_budget(&mut own, i, targets.len());
            (root.clone(), Value::Object(own).to_string())
        })
        .collect();
    let started = Instant::now();
    let answers = run(runtime, calls, control);
    merge::merge(runtime, answers, started, !scope.is_fresh())
}

/// A read of paths goes to the roots that hold at least one of them, each asked for the ones
/// it holds (all roots, asked for all, when none holds any, so that each says why): a file
/// only one root has is read there with the whole budget. `None` when the call reads no
/// paths, or globs (which every root expands for itself).
fn paths_held(targets: &mut Vec<Root>, args: &Map<String, Value>) -> Option<Vec<Vec<Value>>> {
    if args.get("allowGlobs") == Some(&Value::Bool(true)) {
        return None;
    }
    let Some(Value::Array(paths)) = args.get("paths") else {
        return None;
    };
    let mut holding = Vec::new();
    let mut held = Vec::new();
    for root in targets.iter() {
        let own: Vec<Value> = paths
            .iter()
            .filter(|p| {
                p.as_str()
                    .is_some_and(|p| root.services.workspace.stat(p).is_ok())
            })
            .cloned()
            .collect();
        if !own.is_empty() {
            holding.push(root.clone());
            held.push(own);
        }
    }
    if holding.is_empty() {
        return None;
    }
    *targets = holding;
    Some(held)
}

/// Gives the `i`th of `roots` roots its share of the call's item and text budget (explore's
/// defaults when the call sets none), so that the merged answer stays within it: the items
/// per group and the characters split as evenly as they go, the first roots taking the
/// remainder, and every root at least one item. Region reads and whole-file views keep their
/// budget, which is a file's, not a search's.
fn share_budget(args: &mut Map<String, Value>, i: usize, roots: usize) {
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
    let given = |key: &str, default: u64| {
        limits
            .get(key)
            .and_then(Value::as_f64)
            .filter(|v| *v >= 1.0)
            .map_or(default, |v| v as u64)
    };
    let share = |total: u64| {
        let (n, i) = (roots as u64, i as u64);
        (total / n + u64::from(i < total % n)).max(1)
    };
    let results = share(given("maxResults", DEFAULT_MAX_RESULTS));
    let chars = share(given("maxChars", DEFAULT_MAX_CHARS));
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

    /// The code and message the root failed with.
    fn failure(&self) -> (String, String) {
        match &self.outcome {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(args: &Map<String, Value>) -> (u64, u64) {
        (
            args["limits"]["maxResults"].as_u64().unwrap(),
            args["limits"]["maxChars"].as_u64().unwrap(),
        )
    }

    fn shares(args: Value, roots: usize) -> Vec<(u64, u64)> {
        (0..roots)
            .map(|i| {
                let mut own = args.as_object().cloned().unwrap();
                share_budget(&mut own, i, roots);
                limits(&own)
            })
            .collect()
    }

    #[test]
    fn the_roots_share_the_budget_and_stay_within_it() {
        assert_eq!(shares(json!({ "query": "x" }), 2), [(3, 1_600), (3, 1_600)]);
        let four = shares(
            json!({ "query": "x", "limits": { "maxResults": 6, "maxChars": 2001 } }),
            4,
        );
        assert_eq!(four, [(2, 501), (2, 500), (1, 500), (1, 500)]);
        assert_eq!(four.iter().map(|s| s.0).sum::<u64>(), 6);
        assert_eq!(four.iter().map(|s| s.1).sum::<u64>(), 2001);
        // Every root shows at least one item.
        let one = shares(json!({ "query": "x", "limits": { "maxResults": 1 } }), 2);
        assert_eq!(one, [(1, 1_600), (1, 1_600)]);

        let mut args = json!({ "paths": ["a.md"], "view": "full" })
            .as_object()
            .cloned()
            .unwrap();
        share_budget(&mut args, 0, 2);
        assert!(
            !args.contains_key("limits"),
            "a whole file keeps its budget"
        );
    }
}
