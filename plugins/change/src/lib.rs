//! The change pillar (ADR-001 Stage 3, ADR-033 Pillar 2 and §4.2): safe, literal replacements.
//! Each edit is matched exact, then whitespace-normalized, structural and fuzzy, narrowed by its
//! anchors; a dry run (the default) answers the plan, a unified diff per file, the impact report
//! and the apply call ready to send, pinned to the hashes it saw. Applying sends one transaction
//! through the host's edits interface: every file changes or none does.

mod args;
mod diff;
mod fuzzy;
mod guard;
mod impact;
mod indent;
mod matching;
mod normalize;
mod plan;
mod text;

wit_bindgen::generate!({
    path: "../../wit",
    world: "editing-pillar",
});

use args::ChangeArgs;
use impact::ImpactReport;
use matching::mode_name;
use plan::Planned;
use sdk::guidance::{Action, Guidance, ToolCall, Warning, recoveries_for, recoveries_for_error};
use sdk::{ToolError, ToolResult, codes};
use serde::Serialize;
use serde_json::{Value, json};
use smart_context::plugin::edits::{self, FileChange, Transaction};
use smart_context::plugin::types::Error;

sdk::impl_error_conversions!(Error);

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Step {
    action: &'static str,
    file: String,
    description: String,
    diff: String,
    /// The file's hash the plan was computed against.
    hash: String,
    line_endings: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct MatchInfo {
    edit: usize,
    file: String,
    line: u32,
    end_line: u32,
    column: u32,
    match_type: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    distance: Option<usize>,
    /// Lines the edit's lineRange was off (negative: the text is above it), when a stale hint
    /// still clearly named this place.
    #[serde(skip_serializing_if = "Option::is_none")]
    line_hint_off_by: Option<i64>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct EditFailure {
    edit: usize,
    code: String,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    details: Option<Value>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct EditResult {
    files: Vec<FileResult>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct FileResult {
    path: String,
    before_hash: Option<String>,
    after_hash: Option<String>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ChangeResponse {
    success: bool,
    dry_run: bool,
    plan: Plan,
    matches: Vec<MatchInfo>,
    /// The least exact mode any edit needed, when one needed more than exact (ADR-033 §4.2);
    /// `lineRange` when the text was exact but a stale line hint was corrected.
    #[serde(skip_serializing_if = "Option::is_none")]
    corrected_with: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    failed_edits: Vec<EditFailure>,
    #[serde(skip_serializing_if = "Option::is_none")]
    impact_report: Option<ImpactReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    edit_result: Option<EditResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    transaction_id: Option<String>,
    rollback_available: bool,
    guidance: Guidance,
}

#[derive(Debug, Serialize)]
struct Plan {
    steps: Vec<Step>,
}

/// What the tool is, declared in the component too (see sdk::spec): the host lists it
/// before compiling it.
const SPEC: sdk::spec::Tool = sdk::spec::Tool {
    name: "change",
    title: "Change: safe edits",
    description: "Replace text in files as one atomic transaction. Each edit's \
            targetString must identify one place (matched exactly, then tolerating \
            whitespace and indentation, then fuzzy); lineRange / beforeContext / \
            afterContext pick one of several. options.dryRun defaults to true: a diff, the \
            impact and the apply call in guidance. dryRun=false writes all files or none \
            (manage command=undo reverts it).",
    input_schema: INPUT_SCHEMA,
    output_schema: Some(OUTPUT_SCHEMA),
    read_only: false,
    destructive: true,
    idempotent: false,
};
sdk::export_tool!(SPEC, call);

/// The call: the edits planned (and applied unless a dry run), failures with their recovery.
fn call(args_json: &str) -> ToolResult<(String, String)> {
    sdk::answer(args_json, |args: ChangeArgs| {
        let response = change(&args).map_err(|e| with_recovery(e, &args))?;
        let text = render(&response);
        Ok((response, text))
    })
}

fn change(args: &ChangeArgs) -> ToolResult<ChangeResponse> {
    let dry_run = args.options.dry_run;
    let Planned {
        files,
        applied,
        failed,
    } = plan::plan(args, args.options.batch_mode && dry_run)?;
    let steps: Vec<Step> = files
        .iter()
        .map(|f| Step {
            action: "modify",
            file: f.path.clone(),
            description: args.intent.clone(),
            diff: f.diff(),
            hash: f.hash.clone(),
            line_endings: match f.text.eol {
                text::Eol::Lf => "lf",
                text::Eol::Crlf => "crlf",
                text::Eol::Mixed => "mixed",
            },
        })
        .collect();
    let corrected_with = applied
        .iter()
        .map(|a| a.mode)
        .max_by_key(|m| *m as u8)
        .filter(|m| *m != matching::Mode::Exact)
        .map(mode_name)
        .or_else(|| {
            applied
                .iter()
                .any(|a| a.hint_off.is_some())
                .then_some("lineRange")
        });
    let matches: Vec<MatchInfo> = applied
        .iter()
        .map(|a| MatchInfo {
            edit: a.edit,
            file: a.path.clone(),
            line: a.line,
            end_line: a.end_line,
            column: a.column,
            match_type: mode_name(a.mode),
            distance: a.distance,
            line_hint_off_by: a.hint_off,
        })
        .collect();
    let failed_edits: Vec<EditFailure> = failed
        .into_iter()
        .map(|f| EditFailure {
            edit: f.edit,
            code: f.error.code,
            message: f.error.message,
            details: f.error.details,
        })
        .collect();
    let broken = guard::check(&files);
    if !broken.is_empty() && !args.options.allow_syntax_errors {
        return Err(guard::refusal(&broken, &files));
    }
    let mut impact =
        (args.options.include_impact && !files.is_empty()).then(|| impact::analyze(&files));
    if let Some(report) = impact.as_mut()
        && !broken.is_empty()
    {
        report.breaking_change_risk = "high";
        report.preview.risk_level = "high";
        report.syntax_errors = broken.clone();
    }
    let unchanged: Vec<&str> = files
        .iter()
        .filter(|f| f.after == f.text.body)
        .map(|f| f.path.as_str())
        .collect();
    let mut response = ChangeResponse {
        success: failed_edits.is_empty(),
        dry_run,
        plan: Plan { steps },
        matches,
        corrected_with,
        failed_edits,
        impact_report: impact,
        edit_result: None,
        transaction_id: None,
        rollback_available: false,
        guidance: Guidance::default(),
    };
    if !dry_run {
        let changes: Vec<FileChange> = files
            .iter()
            .filter(|f| f.after != f.text.body)
            .map(|f| FileChange {
                path: f.path.clone(),
                content: Some(f.new_bytes()),
                expected_hash: Some(f.hash.clone()),
                overwrite: false,
            })
            .collect();
        if !changes.is_empty() {
            let receipt = edits::apply(&Transaction {
                intent: args.intent.clone(),
                changes,
            })?;
            response.edit_result = Some(EditResult {
                files: receipt
                    .files
                    .into_iter()
                    .map(|f| FileResult {
                        path: f.path,
                        before_hash: f.before_hash,
                        after_hash: f.after_hash,
                    })
                    .collect(),
            });
            response.transaction_id = Some(receipt.transaction_id);
            response.rollback_available = true;
        }
    }
    response.guidance = guidance(args, &response, &files, &unchanged);
    Ok(response)
}

/// ADR-033 §6 rules for change: dry run succeeded -> apply (unless the risk is high: look
/// first); applied -> verify and run the suggested tests; fuzzy or structural matches and
/// no-op edits -> warnings.
fn guidance(
    args: &ChangeArgs,
    r: &ChangeResponse,
    files: &[plan::FilePlan],
    unchanged: &[&str],
) -> Guidance {
    let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    // What the impact rests on: a risk read from a partial index is a floor, said so.
    let risk = match r.impact_report.as_ref() {
        None => "none".to_string(),
        Some(i) if i.degraded.is_some() && i.breaking_change_risk == "none" => {
            "unknown: the index is not complete".to_string()
        }
        Some(i) if i.degraded.is_some() => format!(
            "at least {}; the index is not complete",
            i.breaking_change_risk
        ),
        Some(i) => i.breaking_change_risk.to_string(),
    };
    let summary = match (&r.transaction_id, r.success) {
        (Some(id), _) => format!(
            "applied {} edit(s) to {} file(s) as {id}",
            r.matches.len(),
            paths.len()
        ),
        (None, true) => format!(
            "dry run: {} edit(s) in {} file(s) match; nothing written (risk {risk})",
            r.matches.len(),
            paths.len()
        ),
        (None, false) => format!(
            "dry run: {} edit(s) match, {} failed",
            r.matches.len(),
            r.failed_edits.len()
        ),
    };
    let mut g = Guidance::new(summary);
    g.meta.based_on.impact_analysis_included = r.impact_report.is_some();
    g.meta.based_on.hot_spot_count = r
        .impact_report
        .as_ref()
        .map_or(0, |i| i.affected_hot_spots.len() as u32);
    // The share of changed definitions the call graph ranks.
    g.meta.based_on.page_rank_coverage = r.impact_report.as_ref().map_or(0.0, |i| {
        let symbols = &i.preview.changed_symbols;
        let ranked = symbols.iter().filter(|s| s.page_rank.is_some()).count();
        ranked as f32 / symbols.len().max(1) as f32
    });
    if r.impact_report
        .as_ref()
        .is_some_and(|i| i.degraded.is_some())
        || r.impact_report.is_none()
    {
        g.meta.confidence = 0.6;
    }
    let first = paths.first().cloned().unwrap_or_default();
    if r.dry_run && r.success && !files.is_empty() {
        if risk == "high" {
            let hot = r
                .impact_report
                .as_ref()
                .and_then(|i| i.affected_hot_spots.first())
                .map_or(first.clone(), |h| h.file_path.clone());
            g = g.action(Action {
                priority: 1,
                pillar: "understand".into(),
                action: "analyze_impact".into(),
                description: "Breaking-change risk is high: look at the most affected code first."
                    .into(),
                rationale: "changed signatures are referenced from many files".into(),
                tool_call: ToolCall::new(
                    "understand",
                    json!({ "goal": format!("Analyze impact on {hot}"), "depth": "deep" }),
                ),
                expected_outcome: "the callers that must change with this edit".into(),
            });
        }
        g = g.action(Action {
            priority: if risk == "high" { 2 } else { 1 },
            pillar: "change".into(),
            action: "apply".into(),
            description: "The dry run matched every edit; apply it.".into(),
            rationale: "the call is pinned to the file hashes this dry run saw, so it fails with HASH_MISMATCH instead of applying to changed files".into(),
            tool_call: ToolCall::new("change", apply_args(args, files)),
            expected_outcome: "files written atomically; a transactionId for undo".into(),
        });
    }
    if r.transaction_id.is_some() {
        g = g.action(Action {
            priority: 1,
            pillar: "explore".into(),
            action: "verify".into(),
            description: "Read the changed files' structure to check the edit landed as meant."
                .into(),
            rationale: "verify the change before building on it".into(),
            tool_call: ToolCall::new("explore", json!({ "paths": paths, "view": "preview" })),
            expected_outcome: "the changed files' outline".into(),
        });
        let tests: Vec<String> = r
            .impact_report
            .as_ref()
            .map(|i| i.suggested_tests.iter().take(3).cloned().collect())
            .unwrap_or_default();
        g = g.action(Action {
            priority: 2,
            pillar: "manage".into(),
            action: "test".into(),
            description: if tests.is_empty() {
                "Run the project's tests.".into()
            } else {
                format!("Run the tests: {}", tests.join(", "))
            },
            rationale: "the impact analysis names these tests as affected".into(),
            tool_call: ToolCall::new("manage", json!({ "command": "test" })),
            expected_outcome: "passed and failed counts with the first failures".into(),
        });
        g = g.action(Action {
            priority: 3,
            pillar: "manage".into(),
            action: "undo".into(),
            description: "Undo this transaction if the result is wrong.".into(),
            rationale: "undo restores every file byte for byte".into(),
            tool_call: ToolCall::new(
                "manage",
                json!({ "command": "undo", "target": r.transaction_id }),
            ),
            expected_outcome: "the files as they were before".into(),
        });
    }
    for m in &r.matches {
        if m.match_type == "fuzzy" || m.match_type == "structural" {
            g = g.warn(Warning {
                severity: if m.match_type == "fuzzy" {
                    "warning"
                } else {
                    "info"
                },
                code: format!("{}_MATCH", m.match_type.to_uppercase()),
                message: format!(
                    "edit {} matched {} at {}:{}{}",
                    m.edit,
                    m.match_type,
                    m.file,
                    m.line,
                    m.distance
                        .map(|d| format!(" (distance {d})"))
                        .unwrap_or_default()
                ),
                affected_targets: vec![m.file.clone()],
                mitigation: Some("check the diff: the target was not quoted exactly".into()),
            });
        }
    }
    for m in &r.matches {
        if let Some(off) = m.line_hint_off_by {
            g = g.warn(Warning {
                severity: "info",
                code: "LINE_HINT_CORRECTED".into(),
                message: format!(
                    "edit {}: lineRange was {} line(s) {} the text; matched at {}:{}",
                    m.edit,
                    off.unsigned_abs(),
                    if off > 0 { "above" } else { "below" },
                    m.file,
                    m.line
                ),
                affected_targets: vec![m.file.clone()],
                mitigation: Some(format!(
                    "line numbers move after edits: next time use lineRange {}-{}",
                    m.line, m.end_line
                )),
            });
        }
    }
    if !unchanged.is_empty() {
        g = g.warn(Warning {
            severity: "info",
            code: "NO_OP".into(),
            message: "the replacement equals the target; nothing changes".into(),
            affected_targets: unchanged.iter().map(|s| s.to_string()).collect(),
            mitigation: None,
        });
    }
    if let Some(reason) = r.impact_report.as_ref().and_then(|i| i.degraded.clone()) {
        g = g.warn(Warning {
            severity: "info",
            code: codes::INDEX_STALE.into(),
            message: reason,
            affected_targets: Vec::new(),
            mitigation: Some("manage command=rebuild brings the index up to date".into()),
        });
        g.recovery_strategies = recoveries_for(codes::INDEX_STALE, "", None);
    }
    if risk == "high" || risk == "medium" {
        g = g.warn(Warning {
            severity: if risk == "high" {
                "critical"
            } else {
                "warning"
            },
            code: "BREAKING_CHANGE_RISK".into(),
            message: format!("breaking-change risk is {risk}"),
            affected_targets: r
                .impact_report
                .as_ref()
                .map(|i| {
                    i.preview
                        .summary
                        .impacted_files
                        .iter()
                        .take(10)
                        .cloned()
                        .collect()
                })
                .unwrap_or_default(),
            mitigation: Some(
                "update the importers in the same transaction, and run their tests".into(),
            ),
        });
    }
    g
}

/// The same request with dryRun off and every edit pinned to the hash this run saw.
fn apply_args(args: &ChangeArgs, files: &[plan::FilePlan]) -> Value {
    let mut apply = args.clone();
    apply.options.dry_run = false;
    for edit in &mut apply.edits {
        let path = edit
            .file_path
            .clone()
            .or_else(|| args.target_files.first().cloned());
        if let Some(f) = files.iter().find(|f| Some(&f.path) == path.as_ref()) {
            edit.expected_hash = Some(f.hash.clone());
        }
    }
    serde_json::to_value(apply).unwrap_or(Value::Null)
}

/// Adds ADR-033 Appendix C recovery strategies to a failed call's error.
fn with_recovery(err: ToolError, args: &ChangeArgs) -> ToolError {
    let details = err.details.as_ref();
    let path = details
        .and_then(|d| d.get("filePath"))
        .and_then(Value::as_str)
        .map(str::to_string)
        .or_else(|| args.edits.first().and_then(|e| e.file_path.clone()))
        .or_else(|| args.target_files.first().cloned())
        .unwrap_or_default();
    let edit = details
        .and_then(|d| d.get("edit"))
        .and_then(Value::as_u64)
        .and_then(|i| args.edits.get(i as usize));
    let hint = edit.and_then(|e| {
        e.target_string
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
    });
    let strategies = recoveries_for_error(&err, &path, hint);
    err.recover(strategies)
}

fn render(r: &ChangeResponse) -> String {
    let mut out = match (&r.transaction_id, r.dry_run) {
        (Some(id), _) => format!("applied as transaction {id} (undo with manage command=undo)"),
        (None, false) => "nothing to write: every replacement equals its target".to_string(),
        (None, true) if r.success => {
            "dry run: nothing written; the apply call is in guidance.suggestedActions".to_string()
        }
        (None, true) => format!("dry run: {} edit(s) failed", r.failed_edits.len()),
    };
    if let Some(mode) = r.corrected_with {
        out.push_str(&format!("\nmatched with correction: {mode}"));
    }
    for f in &r.failed_edits {
        out.push_str(&format!("\nedit {}: {}: {}", f.edit, f.code, f.message));
    }
    if let Some(i) = &r.impact_report {
        let tests = if i.suggested_tests.is_empty() {
            "none found".to_string()
        } else {
            i.suggested_tests.join(", ")
        };
        let impacted = i.preview.summary.impacted_files.len();
        let risk = i.breaking_change_risk;
        out.push_str(&match &i.degraded {
            // Missing data proves nothing: what was found is a floor, not a verdict.
            Some(why) if risk == "none" && impacted == 0 && i.suggested_tests.is_empty() => {
                format!("\nimpact: unknown ({why}); nothing found so far")
            }
            Some(why) => format!(
                "\nimpact: incomplete ({why}); found so far: risk at least {risk}, \
                 {impacted} impacted file(s), tests: {tests}"
            ),
            None => format!("\nimpact: risk {risk}, {impacted} impacted file(s), tests: {tests}"),
        });
    }
    for step in &r.plan.steps {
        out.push('\n');
        out.push_str(&step.diff);
    }
    out
}

const INPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "intent": { "type": "string", "description": "What the change is for (kept in history)." },
    "targetFiles": { "type": "array", "items": { "type": "string" }, "description": "The one file for edits without filePath." },
    "edits": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "filePath": { "type": "string" },
          "targetString": { "type": "string", "description": "Text to replace, quoted from the file (empty only for an empty file)." },
          "replacementString": { "type": "string", "description": "Literal text ($ and \\ are not special)." },
          "lineRange": { "description": "1-based, inclusive (or \"start-end\"); picks one of several matches, even if slightly stale.",
            "anyOf": [
              { "type": "object", "properties": { "start": { "type": "integer", "minimum": 1 }, "end": { "type": "integer", "minimum": 1 } }, "required": ["start", "end"] },
              { "type": "array", "items": { "type": "integer", "minimum": 1 }, "minItems": 2, "maxItems": 2 },
              { "type": "string" }
            ] },
          "beforeContext": { "type": "string", "description": "Text in the 10 lines before the match." },
          "afterContext": { "type": "string", "description": "Text in the 10 lines after the match." },
          "expectedHash": { "type": "string", "description": "Hash the file had when the edit was written (explore's contentHash or the dry run's plan hash); else HASH_MISMATCH." },
          "fuzzy": {
            "type": "object",
            "properties": {
              "enabled": { "type": "boolean", "default": true },
              "maxDistance": { "type": "integer", "minimum": 0, "maximum": 64, "default": 5 },
              "whitespaceOnly": { "type": "boolean", "default": true }
            }
          }
        },
        "required": ["targetString", "replacementString"]
      }
    },
    "options": {
      "type": "object",
      "properties": {
        "dryRun": { "type": "boolean", "default": true },
        "includeImpact": { "type": "boolean", "default": true },
        "autoRollback": { "type": "boolean", "default": true },
        "batchMode": { "type": "boolean", "default": false, "description": "Dry run: report every failing edit." },
        "allowSyntaxErrors": { "type": "boolean", "default": false, "description": "Allow edits that introduce a syntax error (else SYNTAX_ERROR)." }
      }
    }
  },
  "required": ["intent"]
}"#;

const OUTPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "success": { "type": "boolean" },
    "dryRun": { "type": "boolean" },
    "plan": { "type": "object" },
    "matches": { "type": "array" },
    "correctedWith": { "type": "string", "enum": ["whitespace", "structural", "fuzzy", "lineRange"] },
    "failedEdits": { "type": "array" },
    "impactReport": { "type": "object" },
    "editResult": { "type": "object" },
    "transactionId": { "type": "string" },
    "rollbackAvailable": { "type": "boolean" },
    "guidance": { "type": "object" }
  }
}"#;
