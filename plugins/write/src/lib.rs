//! The write pillar (ADR-033 Pillar 5): create files (parents included) as one journaled,
//! undoable transaction, from given content or a template: built-in ones (a test file for a
//! source file in Rust, Python, TypeScript or Go; an ADR; a README section) or the project's
//! own in `.smart-context/templates/`. An existing file is refused unless `overwrite` is asked
//! for; sensitive paths are refused by the host.

mod layout;
mod templates;

wit_bindgen::generate!({
    path: "../../wit",
    world: "editing-pillar",
});

use sdk::guidance::{Action, Guidance, ToolCall};
use sdk::{ToolError, ToolResult, codes};
use serde::{Deserialize, Serialize};
use serde_json::json;
use smart_context::plugin::edits::{self, FileChange, Transaction};
use smart_context::plugin::types::Error;
use smart_context::plugin::workspace::{self, ReadOptions};
use smart_context::plugin::{index, log};
use std::collections::BTreeMap;
use templates::{Lang, Rendered, SourceInfo};

sdk::impl_error_conversions!(Error);

/// Largest file write creates (the host's own cap is higher; this keeps responses sane).
const MAX_CONTENT_BYTES: usize = 8 << 20;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct WriteArgs {
    intent: String,
    target_path: Option<String>,
    template: Option<String>,
    content: Option<String>,
    /// Template variables (`source` for test templates, `title` for adr, `heading` and `body`
    /// for readme-section, anything a project template names).
    #[serde(default)]
    variables: BTreeMap<String, String>,
    /// Several files in one transaction.
    #[serde(default)]
    files: Vec<FileArg>,
    #[serde(default)]
    overwrite: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct FileArg {
    target_path: String,
    content: String,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct CreatedFile {
    path: String,
    description: String,
    bytes: usize,
    /// created, replaced or appended.
    action: &'static str,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct WriteResponse {
    success: bool,
    created_files: Vec<CreatedFile>,
    transaction_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    template: Option<String>,
    guidance: Guidance,
}

/// What the tool is, declared in the component too (see sdk::spec): the host lists it
/// before compiling it.
const SPEC: sdk::spec::Tool = sdk::spec::Tool {
    name: "write",
    title: "Write: create files and scaffolds",
    description: "Create files (parent directories too) as one undoable transaction: \
            targetPath + content, files: [{targetPath, content}], or a `template` filled \
            from `variables`. Existing files are refused unless overwrite=true.",
    input_schema: INPUT_SCHEMA,
    output_schema: Some(OUTPUT_SCHEMA),
    read_only: false,
    destructive: true,
    idempotent: false,
};
sdk::export_tool!(SPEC, call);

/// The call: `write` on the arguments, and its text (each file written and how to undo).
fn call(args_json: &str) -> ToolResult<(String, String)> {
    sdk::answer(args_json, |args: WriteArgs| {
        let response = write(&args)?;
        let mut text: Vec<String> = response
            .created_files
            .iter()
            .map(|f| {
                let path = sdk::display_path(&f.path);
                format!("{} {path} ({} bytes)", f.action, f.bytes)
            })
            .collect();
        text.push(format!(
            "transaction {} (undo with manage command=undo)",
            response.transaction_id
        ));
        Ok((response, text.join("\n")))
    })
}

fn write(args: &WriteArgs) -> ToolResult<WriteResponse> {
    let planned = plan(args)?;
    let mut changes = Vec::new();
    let mut created = Vec::new();
    for r in planned {
        if r.content.len() > MAX_CONTENT_BYTES {
            return Err(ToolError::new(
                codes::TOO_LARGE,
                format!(
                    "{} would be {} bytes (over {MAX_CONTENT_BYTES})",
                    r.path,
                    r.content.len()
                ),
            ));
        }
        let existing = current_hash(&r.path)?;
        let action = match (&existing, r.append, args.overwrite) {
            (None, _, _) => "created",
            (Some(_), true, _) => "appended",
            (Some(_), false, true) => "replaced",
            (Some(_), false, false) => {
                return Err(ToolError::new(
                    codes::ALREADY_EXISTS,
                    format!("{} already exists", r.path),
                )
                .suggest("pass overwrite=true to replace it, or edit it with change")
                .details(json!({ "path": r.path })));
            }
        };
        created.push(CreatedFile {
            path: r.path.clone(),
            description: args.intent.clone(),
            bytes: r.content.len(),
            action,
        });
        changes.push(FileChange {
            path: r.path,
            content: Some(r.content.into_bytes()),
            expected_hash: existing,
            overwrite: args.overwrite,
        });
    }
    let receipt = edits::apply(&Transaction {
        intent: args.intent.clone(),
        changes,
    })?;
    let paths: Vec<&str> = created.iter().map(|c| c.path.as_str()).collect();
    let mut guidance = Guidance::new(format!(
        "wrote {} file(s) as {}",
        created.len(),
        receipt.transaction_id
    ))
    .action(Action {
        priority: 1,
        pillar: "explore".into(),
        action: "verify".into(),
        description: "Read what was written.".into(),
        rationale: "check the new files before building on them".into(),
        tool_call: ToolCall::new("explore", json!({ "paths": paths, "view": "preview" })),
        expected_outcome: "the new files' outline".into(),
    })
    .action(Action {
        priority: 3,
        pillar: "manage".into(),
        action: "undo".into(),
        description: "Remove them again if they are wrong.".into(),
        rationale: "undo restores the previous state exactly".into(),
        tool_call: ToolCall::new(
            "manage",
            json!({ "command": "undo", "target": receipt.transaction_id }),
        ),
        expected_outcome: "the files gone (or as they were)".into(),
    });
    if args
        .template
        .as_deref()
        .is_some_and(|t| t == "test" || Lang::from_template(t).is_some())
    {
        guidance = guidance.action(Action {
            priority: 2,
            pillar: "manage".into(),
            action: "test".into(),
            description: "Fill in the stubs, then run the tests (they fail until written).".into(),
            rationale: "each stub fails on purpose so no test passes unwritten".into(),
            tool_call: ToolCall::new("manage", json!({ "command": "test" })),
            expected_outcome: "passed and failed counts".into(),
        });
    }
    Ok(WriteResponse {
        success: true,
        created_files: created,
        transaction_id: receipt.transaction_id,
        template: args.template.clone(),
        guidance,
    })
}

/// The files to write, from content, files or a template.
fn plan(args: &WriteArgs) -> ToolResult<Vec<Rendered>> {
    if let Some(name) = &args.template {
        if args.content.is_some() || !args.files.is_empty() {
            return Err(ToolError::new(
                codes::INVALID_ARGS,
                "give a template or content/files, not both",
            ));
        }
        return Ok(vec![render_template(name, args)?]);
    }
    if !args.files.is_empty() {
        if args.target_path.is_some() || args.content.is_some() {
            return Err(ToolError::new(
                codes::INVALID_ARGS,
                "give files, or targetPath with content, not both",
            ));
        }
        return Ok(args
            .files
            .iter()
            .map(|f| Rendered {
                path: f.target_path.clone(),
                content: f.content.clone(),
                append: false,
            })
            .collect());
    }
    let path = args.target_path.clone().ok_or_else(|| {
        ToolError::new(codes::INVALID_ARGS, "targetPath is required")
            .suggest("name the file to create, or use files: [{targetPath, content}] or a template")
    })?;
    let content = args.content.clone().ok_or_else(|| {
        ToolError::new(codes::INVALID_ARGS, "content is required")
            .suggest("pass the file's text in `content`, or name a template")
    })?;
    Ok(vec![Rendered {
        path,
        content,
        append: false,
    }])
}

fn render_template(name: &str, args: &WriteArgs) -> ToolResult<Rendered> {
    let vars = &args.variables;
    let missing = |names: Vec<String>| {
        ToolError::new(
            codes::INVALID_ARGS,
            format!("template {name} needs variables: {}", names.join(", ")),
        )
        .suggest("pass them in `variables`")
        .details(json!({ "missing": names }))
    };
    if name == "test" || Lang::from_template(name).is_some() {
        let source = vars
            .get("source")
            .ok_or_else(|| missing(vec!["source".into()]))?;
        let lang = Lang::from_template(name)
            .or_else(|| Lang::of(source))
            .ok_or_else(|| {
                ToolError::new(
                    codes::UNSUPPORTED_LANGUAGE,
                    format!("no test template for {source}"),
                )
                .suggest("test templates cover .rs, .py, .ts/.js and .go sources")
            })?;
        let info = source_info(lang, source)?;
        // The project's own tests decide where and how (see layout); a target path given
        // by the caller decides where.
        let learned = layout::learn(lang, source, |p| read_text(p).ok().flatten());
        let style = learned.python.as_ref();
        if args.target_path.is_none()
            && let Some(existing) = &learned.existing
        {
            let text = read_text(existing)?.unwrap_or_default();
            let content =
                templates::appended_stubs(lang, &info, &text, style).ok_or_else(|| {
                    ToolError::new(
                        codes::ALREADY_EXISTS,
                        format!("{existing} already tests every public function of {source}"),
                    )
                    .suggest(format!("add cases to {existing} with change"))
                    .details(json!({ "path": existing }))
                })?;
            return Ok(Rendered {
                path: existing.clone(),
                content,
                append: true,
            });
        }
        let path = args.target_path.clone().unwrap_or_else(|| match lang {
            // Elsewhere a new test imports its source by a relative path, or sits beside it.
            Lang::Python => learned
                .place
                .clone()
                .unwrap_or_else(|| templates::test_path(lang, source)),
            _ => templates::test_path(lang, source),
        });
        return Ok(Rendered {
            path,
            content: templates::test_file(lang, &info, style),
            append: false,
        });
    }
    match name {
        "adr" => {
            let names = workspace::list_dir("docs/adr")
                .map(|entries| {
                    entries
                        .into_iter()
                        .map(|e| e.path.rsplit('/').next().unwrap_or_default().to_string())
                        .collect::<Vec<_>>()
                })
                .unwrap_or_default();
            let number = templates::next_adr_number(names.iter().map(String::as_str));
            let (path, content) = templates::adr(number, &today(), vars).map_err(missing)?;
            Ok(Rendered {
                path: args.target_path.clone().unwrap_or(path),
                content,
                append: false,
            })
        }
        "readme-section" => {
            let path = args
                .target_path
                .clone()
                .unwrap_or_else(|| "README.md".into());
            let existing = read_text(&path)?.unwrap_or_default();
            if let Some(h) = vars.get("heading")
                && templates::has_heading(&existing, h)
            {
                return Err(ToolError::new(
                    codes::ALREADY_EXISTS,
                    format!("{path} already has a section {h:?}"),
                )
                .suggest("edit that section with change, or pick another heading"));
            }
            let content = templates::readme_section(&existing, vars).map_err(missing)?;
            Ok(Rendered {
                path,
                content,
                append: !existing.is_empty(),
            })
        }
        _ => project_template(name, args),
    }
}

/// A template from `.smart-context/templates/`: `<name>` or `<name>.<ext>`, with `{{var}}`
/// placeholders; `path` (the target) and `name` (its file stem) are always defined.
fn project_template(name: &str, args: &WriteArgs) -> ToolResult<Rendered> {
    let entries = workspace::list_dir(templates::PROJECT_DIR).unwrap_or_default();
    let file_name = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let found = entries.iter().map(|e| e.path.clone()).find(|p| {
        let f = file_name(p);
        f == name || f.split_once('.').is_some_and(|(stem, _)| stem == name)
    });
    let Some(template_path) = found else {
        let mut known: Vec<String> = templates::BUILTIN.iter().map(|s| s.to_string()).collect();
        known.extend(entries.iter().map(|e| {
            let f = file_name(&e.path);
            f.split_once('.').map_or(f.clone(), |(s, _)| s.to_string())
        }));
        return Err(
            ToolError::new(codes::NOT_FOUND, format!("no template {name:?}"))
                .suggest(format!(
                    "known templates: {}; project templates go in {}/",
                    known.join(", "),
                    templates::PROJECT_DIR
                ))
                .details(json!({ "known": known })),
        );
    };
    let target = args.target_path.clone().ok_or_else(|| {
        ToolError::new(
            codes::INVALID_ARGS,
            format!("template {name} needs a targetPath"),
        )
    })?;
    let text = read_text(&template_path)?.unwrap_or_default();
    let mut vars = args.variables.clone();
    vars.entry("path".into()).or_insert_with(|| target.clone());
    let stem = file_name(&target);
    let stem = stem.split('.').next().unwrap_or(&stem).to_string();
    vars.entry("name".into()).or_insert(stem);
    vars.entry("date".into()).or_insert_with(today);
    vars.entry("intent".into())
        .or_insert_with(|| args.intent.clone());
    let content = templates::fill(&text, &vars).map_err(|names| {
        ToolError::new(
            codes::INVALID_ARGS,
            format!("template {name} needs variables: {}", names.join(", ")),
        )
        .suggest("pass them in `variables`")
        .details(json!({ "missing": names }))
    })?;
    Ok(Rendered {
        path: target,
        content,
        append: false,
    })
}

/// What a test template needs to know about its source: public functions from the index, and
/// the crate, package or test framework.
fn source_info(lang: Lang, source: &str) -> ToolResult<SourceInfo> {
    let text = read_text(source)?.ok_or_else(|| {
        ToolError::new(codes::FILE_NOT_FOUND, format!("{source} does not exist"))
            .suggest("variables.source names the file the tests are for")
    })?;
    let functions = match index::symbols(source) {
        Ok(file) => file
            .symbols
            .into_iter()
            .filter(|s| s.kind == "function" && s.container.is_none())
            .filter(|s| match lang {
                Lang::Rust => s.signature.trim_start().starts_with("pub"),
                Lang::Python => !s.name.starts_with('_'),
                Lang::TypeScript => s.signature.contains("export"),
                Lang::Go => s.name.chars().next().is_some_and(char::is_uppercase),
            })
            .map(|s| s.name)
            .collect(),
        Err(err) => {
            log::log(
                log::Level::Warn,
                &format!(
                    "no symbols for {source} ({}); one stub for the file",
                    err.message
                ),
            );
            Vec::new()
        }
    };
    let context = match lang {
        Lang::Rust => crate_name(source),
        Lang::Go => text
            .lines()
            .find_map(|l| l.trim().strip_prefix("package "))
            .map(|p| p.trim().to_string()),
        Lang::TypeScript => read_text("package.json")
            .ok()
            .flatten()
            .filter(|t| t.contains("\"vitest\""))
            .map(|_| "vitest".to_string()),
        Lang::Python => None,
    };
    Ok(SourceInfo {
        path: source.to_string(),
        functions,
        context,
    })
}

/// The `[package] name` of the nearest Cargo.toml above `source`, as a Rust identifier.
fn crate_name(source: &str) -> Option<String> {
    let mut dir = source.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    loop {
        let manifest = if dir.is_empty() {
            "Cargo.toml".to_string()
        } else {
            format!("{dir}/Cargo.toml")
        };
        if let Ok(Some(text)) = read_text(&manifest) {
            let mut in_package = false;
            for line in text.lines().map(str::trim) {
                if line.starts_with('[') {
                    in_package = line == "[package]";
                } else if in_package
                    && let Some(v) = line.strip_prefix("name")
                    && let Some(v) = v.trim_start().strip_prefix('=')
                {
                    return Some(v.trim().trim_matches('"').replace('-', "_"));
                }
            }
        }
        if dir.is_empty() {
            return None;
        }
        dir = dir
            .rsplit_once('/')
            .map_or(String::new(), |(d, _)| d.to_string());
    }
}

/// The file's text, None when it does not exist.
fn read_text(path: &str) -> ToolResult<Option<String>> {
    let options = ReadOptions {
        max_bytes: MAX_CONTENT_BYTES as u64,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: false,
    };
    match workspace::read(path, options) {
        Ok(f) => Ok(Some(String::from_utf8_lossy(&f.bytes).into_owned())),
        Err(err) if err.code == codes::FILE_NOT_FOUND => Ok(None),
        Err(err) => Err(err.into()),
    }
}

/// The hash the host journals for an existing file (so a replace fails if it changes
/// meanwhile); None when there is no file.
fn current_hash(path: &str) -> ToolResult<Option<String>> {
    let options = ReadOptions {
        max_bytes: 0,
        allow_sensitive: false,
        allow_binary: true,
        allow_truncate: true,
    };
    match workspace::read(path, options) {
        Ok(f) => Ok(Some(f.hash)),
        Err(err) if err.code == codes::FILE_NOT_FOUND => Ok(None),
        Err(err) => Err(err.into()),
    }
}

/// Today's date (UTC), `YYYY-MM-DD`.
fn today() -> String {
    let ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64);
    sdk::iso_time(ms)[..10].to_string()
}

const INPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "intent": { "type": "string", "description": "What the file is for (kept in history)." },
    "targetPath": { "type": "string", "description": "Relative to the workspace root (templates have a default)." },
    "content": { "type": "string" },
    "files": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": { "targetPath": { "type": "string" }, "content": { "type": "string" } },
        "required": ["targetPath", "content"]
      }
    },
    "template": { "type": "string", "description": "test (failing stubs for the public functions of variables.source, following the project's tests: appended to its test file if it has one; or rust-test, python-test, typescript-test, go-test) | adr (next number in docs/adr/) | readme-section (appended to README.md or targetPath) | a project template (.smart-context/templates/<name>.*)." },
    "variables": { "type": "object", "additionalProperties": { "type": "string" }, "description": "test: source (a .rs/.py/.ts/.go file). adr: title, status, context, decision, consequences. readme-section: heading, body, level. Project template: its {{names}}." },
    "overwrite": { "type": "boolean", "default": false }
  },
  "required": ["intent"]
}"#;

const OUTPUT_SCHEMA: &str = r#"{
  "type": "object",
  "properties": {
    "success": { "type": "boolean" },
    "createdFiles": { "type": "array" },
    "transactionId": { "type": "string" },
    "template": { "type": "string" },
    "guidance": { "type": "object" }
  }
}"#;
