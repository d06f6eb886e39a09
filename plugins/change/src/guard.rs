//! The syntax guard: a planned edit is reparsed with the index's grammar for the file's
//! language, and an edit that leaves the file with syntax problems it did not have (more of
//! them, or any where the edit landed) is refused with SYNTAX_ERROR, unless the call allows it
//! for deliberate multi-step work. Files in languages the index does not parse pass unchecked.

use crate::plan::FilePlan;
use crate::smart_context::plugin::index::{self, SyntaxProblem};
use sdk::{ToolError, codes};
use serde::Serialize;
use serde_json::json;

/// Lines around an edit whose problems count as the edit's.
const AROUND: u32 = 2;
/// Problems shown per file.
const SHOWN: usize = 5;

/// A problem the edit introduced, in the new text's lines.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Introduced {
    pub line: u32,
    pub end_line: u32,
    pub column: u32,
    pub message: String,
    /// The new text's line, as the parser saw it.
    pub text: String,
}

/// What the guard found in one file.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Broken {
    pub path: String,
    pub problems: Vec<Introduced>,
    /// Problems the file had before the edit (they are not the edit's doing).
    pub already: usize,
}

/// The files whose edits introduce syntax problems.
pub fn check(files: &[FilePlan]) -> Vec<Broken> {
    files.iter().filter_map(check_file).collect()
}

fn check_file(file: &FilePlan) -> Option<Broken> {
    if file.after == file.text.body {
        return None;
    }
    let after = index::syntax_problems(&file.path, &file.after).ok()?;
    if after.is_empty() {
        return None;
    }
    let before = index::syntax_problems(&file.path, &file.text.body).unwrap_or_default();
    let near = |problems: &[SyntaxProblem], new: bool| -> Vec<SyntaxProblem> {
        problems
            .iter()
            .filter(|p| {
                file.regions.iter().any(|r| {
                    let (a, b) = if new { r.new } else { r.old };
                    let (lo, hi) = (a as u32 + 1, (b as u32).max(a as u32 + 1));
                    p.range.start <= hi + AROUND && p.range.end + AROUND >= lo
                })
            })
            .cloned()
            .collect()
    };
    let after_near = near(&after, true);
    let before_near = near(&before, false);
    if after.len() <= before.len() && after_near.len() <= before_near.len() {
        return None;
    }
    let shown = if after_near.len() > before_near.len() {
        after_near
    } else {
        after
    };
    let lines: Vec<&str> = file.after.split('\n').collect();
    Some(Broken {
        path: file.path.clone(),
        problems: shown
            .into_iter()
            .take(SHOWN)
            .map(|p| Introduced {
                line: p.range.start,
                end_line: p.range.end,
                column: p.column,
                message: p.message,
                text: lines
                    .get(p.range.start as usize - 1)
                    .map(|l| sdk::short_preview(l.trim_end(), 120))
                    .unwrap_or_default(),
            })
            .collect(),
        already: before.len(),
    })
}

/// SYNTAX_ERROR for the files the guard stopped, with the parser's view and each diff.
pub fn refusal(broken: &[Broken], files: &[FilePlan]) -> ToolError {
    let first = &broken[0];
    let p = &first.problems[0];
    let diffs: Vec<serde_json::Value> = broken
        .iter()
        .filter_map(|b| {
            let f = files.iter().find(|f| f.path == b.path)?;
            Some(json!({ "path": b.path, "diff": f.diff() }))
        })
        .collect();
    ToolError::new(
        codes::SYNTAX_ERROR,
        format!(
            "{}:{}: the edit leaves a syntax error: {} (line: {:?}); nothing was written",
            first.path, p.line, p.message, p.text
        ),
    )
    .suggest("check the replacement's brackets, quotes and indentation against the lines around it (the diff is in details); set options.allowSyntaxErrors: true only for deliberate multi-step work")
    .details(json!({
        "filePath": first.path,
        "files": broken,
        "diffs": diffs,
        "suggestedLineRange": old_lines(files, first, p.line),
    }))
}

/// The file's current lines around the edit that produced new line `line` (what to read
/// before writing the edit again).
fn old_lines(files: &[FilePlan], broken: &Broken, line: u32) -> serde_json::Value {
    let region = files.iter().find(|f| f.path == broken.path).and_then(|f| {
        f.regions.iter().min_by_key(|r| {
            let (a, b) = (r.new.0 as u32 + 1, r.new.1 as u32);
            if line < a {
                a - line
            } else {
                line.saturating_sub(b)
            }
        })
    });
    let (start, end) = region.map_or((line, line), |r| {
        (r.old.0 as u32 + 1, (r.old.1 as u32).max(r.old.0 as u32 + 1))
    });
    json!({ "start": start.saturating_sub(3).max(1), "end": end + 3 })
}
