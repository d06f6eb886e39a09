//! The MCP prompt that teaches an agent the five tools (ADR-033 §8.4, for five pillars), for
//! clients that surface prompts; the server's `instructions` say the same in brief.

use rmcp::model::{GetPromptResult, Prompt, PromptMessage, Role};

/// The prompt's name.
pub const PLAYBOOK: &str = "playbook";

/// What the server tells every client at initialize: the workflow in four lines.
pub const INSTRUCTIONS: &str = "smart-context: five tools over this workspace. explore finds \
and reads (a query or pasted issue text -> ranked previews; paths -> skeletons; view=full for \
whole files; page on with packId + cursor). understand explains structure (goal, path, \
scope, depth). change edits safely: dry run by default, apply with options.dryRun=false, \
undo with manage. write creates files (templates: test, adr, readme-section). manage shows \
status and history, undoes/redoes, rebuilds the index and runs the configured tests. Failures \
carry a code and a suggestion: follow the suggestion. The `playbook` prompt has the details.";

/// The playbook itself.
const PLAYBOOK_TEXT: &str = "# smart-context playbook: five tools

| Goal | Tool | Example |
|------|------|---------|
| Find code or docs | `explore` | `explore({ query: \"where are session tokens refreshed\" })` |
| Read files | `explore` | `explore({ paths: [\"src/auth.rs\"] })` (skeleton), `view: \"full\"` for the whole file |
| Understand structure | `understand` | `understand({ goal: \"how auth works\", path: \"src/auth\", scope: \"module\" })` |
| Edit | `change` | `change({ intent: \"validate input\", edits: [{ filePath, targetString, replacementString }] })` |
| Create files | `write` | `write({ intent: \"tests for parser\", template: \"test\", targetPath: \"src/parser.rs\" })` |
| Status, undo, tests | `manage` | `manage({ command: \"undo\" })`, `manage({ command: \"test\" })` |

## Workflow: from a task to a verified change
1. `explore({ query: <the task or the issue text as written> })`: documents and code come back in
   separate ranked groups, previews first. Page on with the answer's `packId` and
   `cursor: next.itemsCursor`; items you were shown come back by reference only.
2. `explore({ paths: [<the file>] })` reads its skeleton; `view: \"full\"` or a `section` reads more.
   Or `understand({ goal, path })` for the structure, callers and impact.
3. `change({ intent, edits })` returns a dry-run diff and an impact report. Check it, then repeat
   with `options: { dryRun: false }` to apply (atomic across files; the answer has a
   transactionId).
4. `manage({ command: \"test\" })` runs the project's configured tests; `manage({ command: \"undo\" })`
   reverts the last transaction.

## Rules that save round trips
- Every failure carries `code` and `suggestion`: do what the suggestion says (e.g. NO_MATCH lists
  candidates; FILE_NOT_FOUND suggests paths).
- Answers may be `degraded` with reasons (index_building, live_scan): they are still correct
  for what they cover; ask again later for the full ranking.
- Sensitive files (.env, keys) and binaries need `allowSensitive` / `allowBinary`; secrets in any
  answer are shown as [REDACTED:kind], and an edit cannot write those markers back over them.
- Every answer has `guidance`: suggested next calls, warnings, ready-made tool calls.
";

/// The prompts this server offers.
pub fn list() -> Vec<Prompt> {
    vec![Prompt::new(
        PLAYBOOK,
        Some(
            "How to use smart-context's five tools: which tool for what, the workflow from a task to a verified change, and the rules that save round trips",
        ),
        None,
    )]
}

/// The prompt `name`, if there is one.
pub fn get(name: &str) -> Option<GetPromptResult> {
    (name == PLAYBOOK).then(|| {
        GetPromptResult::new(vec![PromptMessage::new_text(Role::User, PLAYBOOK_TEXT)])
            .with_description("smart-context playbook: five tools")
    })
}
