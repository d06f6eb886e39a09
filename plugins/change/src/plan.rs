//! Resolving a request's edits against the files as they are: each file is read once, every
//! edit of it is matched against that same content (so line ranges mean what the agent read),
//! overlapping edits are refused, and the new content is composed back to front.

use crate::args::{ChangeArgs, Edit, MAX_FUZZY_DISTANCE};
use crate::matching::{Anchors, FuzzyOptions, Match, Matcher, Mode};
use crate::smart_context::plugin::workspace::{self, ReadOptions};
use crate::text::FileText;
use sdk::{ToolError, ToolResult, codes};
use serde_json::json;

/// Largest file the pillar edits.
const MAX_EDIT_BYTES: u64 = 16 * 1024 * 1024;

/// One edit resolved: where it applied and how.
#[derive(Debug, Clone)]
pub struct Applied {
    pub edit: usize,
    pub path: String,
    pub line: u32,
    pub end_line: u32,
    pub column: u32,
    pub mode: Mode,
    pub distance: Option<usize>,
    /// Lines the edit's lineRange was off, when a stale hint was corrected.
    pub hint_off: Option<i64>,
}

/// One file's edits against its current content.
pub struct FilePlan {
    pub path: String,
    pub hash: String,
    pub text: FileText,
    pub after: String,
    /// Changed line ranges of the old content (1-based, inclusive), for impact analysis.
    pub changed: Vec<(u32, u32)>,
    /// The lines each edit replaced, for a diff that looks only there.
    pub regions: Vec<crate::diff::Region>,
}

impl FilePlan {
    /// The unified diff of this file's edits.
    pub fn diff(&self) -> String {
        crate::diff::unified(&self.path, &self.text.body, &self.after, &self.regions)
    }
}

impl FilePlan {
    pub fn new_bytes(&self) -> Vec<u8> {
        self.text.encode(&self.after)
    }
}

/// An edit that failed, with its index (batch mode reports them all).
pub struct Failed {
    pub edit: usize,
    pub error: ToolError,
}

pub struct Planned {
    pub files: Vec<FilePlan>,
    pub applied: Vec<Applied>,
    pub failed: Vec<Failed>,
}

/// Resolves every edit. Without batch mode the first failure is the error; with it, failures
/// are collected and the files keep the edits that matched.
pub fn plan(args: &ChangeArgs, batch: bool) -> ToolResult<Planned> {
    if args.edits.is_empty() {
        return Err(ToolError::new(codes::INVALID_ARGS, "no edits given").suggest(
            "pass edits: [{filePath, targetString, replacementString}] (explore finds the text to quote)",
        ));
    }
    let mut order: Vec<String> = Vec::new();
    let mut by_file: Vec<Vec<usize>> = Vec::new();
    for (i, edit) in args.edits.iter().enumerate() {
        let path = edit_path(args, edit).map_err(|e| e.with_detail("edit", i))?;
        match order.iter().position(|p| *p == path) {
            Some(k) => by_file[k].push(i),
            None => {
                order.push(path);
                by_file.push(vec![i]);
            }
        }
    }
    let mut planned = Planned {
        files: Vec::new(),
        applied: Vec::new(),
        failed: Vec::new(),
    };
    for (path, edits) in order.into_iter().zip(by_file) {
        let (hash, text) = load(&path)?;
        let edits: Vec<(usize, &Edit)> = edits.iter().map(|&i| (i, &args.edits[i])).collect();
        let outcome = edit_text(&path, &hash, text, &edits, batch)?;
        planned.applied.extend(outcome.applied);
        planned.failed.extend(outcome.failed);
        planned.files.extend(outcome.file);
    }
    planned.applied.sort_by_key(|a| a.edit);
    Ok(planned)
}

/// What became of one file's edits.
pub struct FileOutcome {
    /// None when no edit of the file matched (batch mode).
    pub file: Option<FilePlan>,
    pub applied: Vec<Applied>,
    pub failed: Vec<Failed>,
}

/// Applies `edits` (with their indices in the request) to one file's text: pure, so the edit
/// cases are tested natively byte for byte.
pub fn edit_text(
    path: &str,
    hash: &str,
    text: FileText,
    edits: &[(usize, &Edit)],
    batch: bool,
) -> ToolResult<FileOutcome> {
    let mut outcome = FileOutcome {
        file: None,
        applied: Vec::new(),
        failed: Vec::new(),
    };
    let mut spans: Vec<(Match, String, usize)> = Vec::new();
    let mut matcher = Matcher::new(&text.body);
    for &(i, edit) in edits {
        match resolve(&mut matcher, &text, hash, edit) {
            Ok(found) => spans.push(found.with_index(i)),
            Err(err) => {
                let err = at_file(err, path, i);
                if !batch {
                    return Err(err);
                }
                outcome.failed.push(Failed {
                    edit: i,
                    error: err,
                });
            }
        }
    }
    spans.sort_by_key(|(m, _, _)| (m.start, m.end));
    for pair in spans.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if a.0.end > b.0.start || a.0.start == b.0.start {
            let last_line = |m: &Match| matcher.line(m.end.max(m.start + 1) - 1);
            return Err(ToolError::new(
                codes::INVALID_ARGS,
                format!(
                    "{path}: edits {} and {} overlap (lines {}-{} and {}-{})",
                    a.2,
                    b.2,
                    matcher.line(a.0.start),
                    last_line(&a.0),
                    matcher.line(b.0.start),
                    last_line(&b.0),
                ),
            )
            .suggest("merge them into one edit: every edit matches the file as it is now, not as earlier edits leave it")
            .details(json!({ "filePath": path, "edits": [a.2, b.2] })));
        }
    }
    let mut after = text.body.clone();
    let mut changed = Vec::new();
    for (m, replacement, i) in spans.iter().rev() {
        after.replace_range(m.start..m.end, replacement);
        let line = matcher.line(m.start);
        let end_line = matcher.line(m.end.max(m.start + 1) - 1).max(line);
        changed.push((line, end_line));
        outcome.applied.push(Applied {
            edit: *i,
            path: path.to_string(),
            line,
            end_line,
            column: column_of(&text.body, m.start),
            mode: m.mode,
            distance: m.distance,
            hint_off: m.hint_off,
        });
    }
    changed.reverse();
    let replaced: Vec<(usize, usize, &str)> = spans
        .iter()
        .map(|(m, r, _)| (m.start, m.end, r.as_str()))
        .collect();
    let regions = crate::diff::regions(&text.body, &after, &replaced);
    if !spans.is_empty() {
        outcome.file = Some(FilePlan {
            path: path.to_string(),
            hash: hash.to_string(),
            text,
            after,
            changed,
            regions,
        });
    }
    Ok(outcome)
}

struct Found(Match, String);

impl Found {
    fn with_index(self, i: usize) -> (Match, String, usize) {
        (self.0, self.1, i)
    }
}

fn resolve(matcher: &mut Matcher, text: &FileText, hash: &str, edit: &Edit) -> ToolResult<Found> {
    if let Some(expected) = &edit.expected_hash {
        check_hash(expected, hash)?;
    }
    let line_range = edit
        .line_range
        .as_ref()
        .map(|r| r.bounds())
        .transpose()
        .map_err(|msg| ToolError::new(codes::INVALID_ARGS, format!("lineRange: {msg}")))?;
    let fuzzy = match edit.fuzzy {
        Some(f) => {
            if f.max_distance > MAX_FUZZY_DISTANCE {
                return Err(ToolError::new(
                    codes::INVALID_ARGS,
                    format!(
                        "fuzzy.maxDistance {} is over {MAX_FUZZY_DISTANCE}",
                        f.max_distance
                    ),
                )
                .suggest("quote the target more exactly instead"));
            }
            FuzzyOptions {
                enabled: f.enabled,
                max_distance: f.max_distance as usize,
                whitespace_only: f.whitespace_only,
            }
        }
        None => FuzzyOptions::default(),
    };
    let target = text.adapt(&edit.target_string);
    let replacement = text.adapt(&edit.replacement_string);
    let anchors = Anchors {
        line_range,
        before: edit.before_context.as_deref(),
        after: edit.after_context.as_deref(),
    };
    let found = matcher.locate(&target, &anchors, fuzzy)?;
    if found.mode == Mode::Exact {
        return Ok(Found(found, replacement));
    }
    let (target, replacement) = crate::indent::trim_shared_blank_ends(&target, &replacement);
    let found = matcher.whole_lines(found, target, replacement);
    let style = matcher.style();
    let carried = crate::indent::carry(
        target,
        &text.body[found.start..found.end],
        replacement,
        found.starts_line,
        style,
    )
    .map_err(|u| {
        ToolError::new(
            codes::INDENT_AMBIGUOUS,
            format!(
                "the target matched at line {} only up to indentation, and replacement line {} ({:?}) cannot be placed: {}",
                matcher.line(found.start),
                u.line,
                sdk::short_preview(u.text.trim(), 80),
                u.reason
            ),
        )
        .suggest("quote the target exactly as the file has it (read the lines first), or write the replacement with the file's indentation")
        .details(json!({
            "line": matcher.line(found.start),
            "replacementLine": u.line,
            "suggestedLineRange": {
                "start": matcher.line(found.start),
                "end": matcher.line(found.end.saturating_sub(1).max(found.start)),
            },
        }))
    })?;
    Ok(Found(found, carried))
}

/// HASH_MISMATCH unless `expected` is the file's hash (or a prefix of it, 8 hex digits or more).
pub fn check_hash(expected: &str, actual: &str) -> ToolResult<()> {
    let expected = expected.trim().to_ascii_lowercase();
    if expected.len() >= 8 && actual.starts_with(&expected) {
        return Ok(());
    }
    Err(ToolError::new(
        codes::HASH_MISMATCH,
        "the file changed since the edit was written against it (expectedHash differs)",
    )
    .suggest("read the file again and redo the edit against its current content")
    .details(json!({ "expected": expected, "actual": actual })))
}

fn edit_path(args: &ChangeArgs, edit: &Edit) -> ToolResult<String> {
    if let Some(path) = &edit.file_path {
        return Ok(path.clone());
    }
    match args.target_files.as_slice() {
        [only] => Ok(only.clone()),
        _ => Err(
            ToolError::new(codes::INVALID_ARGS, "an edit has no filePath")
                .suggest("give each edit a filePath, or exactly one entry in targetFiles"),
        ),
    }
}

fn load(path: &str) -> ToolResult<(String, FileText)> {
    let options = ReadOptions {
        max_bytes: MAX_EDIT_BYTES,
        allow_sensitive: false,
        allow_binary: false,
        allow_truncate: false,
    };
    let file = workspace::read(path, options).map_err(|e| {
        let e: ToolError = e.into();
        e.with_detail("filePath", path)
    })?;
    let text = FileText::decode(&file.bytes).ok_or_else(|| {
        ToolError::new(codes::NOT_TEXT, format!("{path} is not valid UTF-8"))
            .suggest("edit text files only; this one would be corrupted by a text replacement")
    })?;
    Ok((file.hash, text))
}

fn column_of(body: &str, at: usize) -> u32 {
    let line_start = body[..at].rfind('\n').map_or(0, |i| i + 1);
    body[line_start..at].chars().count() as u32 + 1
}

/// Names the file and the edit in an error's message and details.
fn at_file(err: ToolError, path: &str, i: usize) -> ToolError {
    let mut err = err.with_detail("filePath", path).with_detail("edit", i);
    err.message = format!("{path} (edit {i}): {}", err.message);
    err
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::LineRange;

    fn edit(target: &str, replacement: &str) -> Edit {
        Edit {
            file_path: Some("f".into()),
            target_string: target.into(),
            replacement_string: replacement.into(),
            line_range: None,
            before_context: None,
            after_context: None,
            expected_hash: None,
            fuzzy: None,
        }
    }

    /// A name, the file, the edits, and the expected bytes or error code.
    type Case<T> = (&'static str, T, Vec<Edit>, Result<T, &'static str>);

    fn run(file: &[u8], edits: &[Edit]) -> ToolResult<Vec<u8>> {
        let text = FileText::decode(file).expect("utf-8");
        let indexed: Vec<(usize, &Edit)> = edits.iter().enumerate().collect();
        let outcome = edit_text("f", "hash", text, &indexed, false)?;
        let plan = outcome.file.expect("a plan");
        assert_eq!(
            plan.diff(),
            sdk::unified_diff("f", &plan.text.body, &plan.after),
            "the regional diff equals the whole-file diff: {:?} -> {:?}",
            plan.text.body,
            plan.after
        );
        Ok(plan.new_bytes())
    }

    /// Each case: the file, the edits, and the exact bytes expected (or the error code).
    #[test]
    fn edit_cases_give_exact_bytes() {
        let anchored = |t: &str, r: &str, lr: (u32, u32)| Edit {
            line_range: Some(LineRange::Object {
                start: lr.0,
                end: lr.1,
            }),
            ..edit(t, r)
        };
        let before = |t: &str, r: &str, b: &str| Edit {
            before_context: Some(b.into()),
            ..edit(t, r)
        };
        let cases: Vec<Case<&[u8]>> = vec![
            (
                "crlf file, lf target",
                b"a\r\nb\r\nc\r\n",
                vec![edit("b\n", "B\nB2\n")],
                Ok(b"a\r\nB\r\nB2\r\nc\r\n"),
            ),
            (
                "crlf target in an lf file",
                b"a\nb\nc\n",
                vec![edit("a\r\nb", "x\r\ny")],
                Ok(b"x\ny\nc\n"),
            ),
            (
                "mixed endings untouched elsewhere",
                b"a\r\nb\nc\r\n",
                vec![edit("b", "B")],
                Ok(b"a\r\nB\nc\r\n"),
            ),
            (
                "tabs file, spaces from the agent",
                b"fn f() {\n\tif x {\n\t\ty();\n\t}\n}\n",
                vec![edit("if x {\n    y();\n}", "if x {\n    z();\n    w();\n}")],
                Ok(b"fn f() {\n\tif x {\n\t\tz();\n\t\tw();\n\t}\n}\n"),
            ),
            (
                "unicode",
                "café = 1\nnaïve = 2\n".as_bytes(),
                vec![edit("naïve = 2", "naïve = 3 ✓")],
                Ok("café = 1\nnaïve = 3 ✓\n".as_bytes()),
            ),
            (
                "dollar and backslashes are literal",
                b"x = 1\n",
                vec![edit("x = 1", r#"x = "$1 \\n $& ${0} \1""#)],
                Ok(br#"x = "$1 \\n $& ${0} \1"
"#),
            ),
            (
                "several occurrences without anchors",
                b"x = 1\ny = 2\nx = 1\n",
                vec![edit("x = 1", "x = 9")],
                Err("MULTIPLE_MATCHES"),
            ),
            (
                "several occurrences, lineRange picks one",
                b"x = 1\ny = 2\nx = 1\n",
                vec![anchored("x = 1", "x = 9", (2, 3))],
                Ok(b"x = 1\ny = 2\nx = 9\n"),
            ),
            (
                "several occurrences, beforeContext picks the nearest",
                b"fn a() {\n    x = 1;\n}\nfn b() {\n    x = 1;\n}\n",
                vec![before("x = 1;", "x = 2;", "fn b() {")],
                Ok(b"fn a() {\n    x = 1;\n}\nfn b() {\n    x = 2;\n}\n"),
            ),
            (
                "anchors that rule everything out",
                b"x = 1\nx = 1\n",
                vec![anchored("x = 1", "x = 9", (5, 9))],
                Err("ANCHOR_FAILED"),
            ),
            (
                "whitespace-drifted target",
                b"    let  y =  2;\n",
                vec![edit("let y = 2;", "let y = 3;")],
                Ok(b"    let y = 3;\n"),
            ),
            (
                "trailing whitespace in the file",
                b"a  \nb\t\nc\n",
                vec![edit("a\nb\n", "A\nB\n")],
                Ok(b"A\nB\nc\n"),
            ),
            (
                "indentation re-based",
                b"impl A {\n    fn f() {\n        g();\n    }\n}\n",
                vec![edit(
                    "fn f() {\n    g();\n}\n",
                    "fn f() {\n    g();\n    h();\n}\n",
                )],
                Ok(b"impl A {\n    fn f() {\n        g();\n        h();\n    }\n}\n"),
            ),
            (
                "indented target at the wrong depth",
                b"def f():\n    if x:\n        y()\n",
                vec![edit("if x:\n    y()\n", "if x:\n    y()\n    z()\n")],
                Ok(b"def f():\n    if x:\n        y()\n        z()\n"),
            ),
            ("empty file", b"", vec![edit("", "hello\n")], Ok(b"hello\n")),
            (
                "no final newline stays without",
                b"a\nb",
                vec![edit("b", "c\n")],
                Ok(b"a\nc"),
            ),
            (
                "final newline stays",
                b"a\nb\n",
                vec![edit("b\n", "c")],
                Ok(b"a\nc\n"),
            ),
            (
                "bom kept",
                b"\xEF\xBB\xBFx = 1\n",
                vec![edit("x = 1", "x = 2")],
                Ok(b"\xEF\xBB\xBFx = 2\n"),
            ),
            (
                "bom kept in a crlf file",
                b"\xEF\xBB\xBFa\r\nb\r\n",
                vec![edit("a\nb", "c\nd")],
                Ok(b"\xEF\xBB\xBFc\r\nd\r\n"),
            ),
            (
                "several edits apply against the original",
                b"one\ntwo\nthree\n",
                vec![edit("three", "3"), edit("one", "1")],
                Ok(b"1\ntwo\n3\n"),
            ),
            (
                "overlapping edits are refused",
                b"one two three\n",
                vec![edit("one two", "x"), edit("two three", "y")],
                Err("INVALID_ARGS"),
            ),
            (
                "spacing inside tokens (fuzzy, whitespace only)",
                b"call(a,b);\n",
                vec![edit("call(a, b);", "call(a, b, c);")],
                Ok(b"call(a, b, c);\n"),
            ),
            (
                "a typo is not whitespace",
                b"let total = 1;\n",
                vec![edit("let totl = 1;", "let total = 2;")],
                Err("NO_MATCH"),
            ),
            (
                "deleting a block",
                b"a\nb\nc\n",
                vec![edit("b\n", "")],
                Ok(b"a\nc\n"),
            ),
            (
                "python: only some target lines drifted, the replacement's context alike",
                b"def f(x):\n    if x:\n        y = 1\n        return y\n    return 0\n",
                vec![edit(
                    "  if x:\n        y = 1\n          return y\n",
                    "  if x:\n        y = 1\n        z = 2\n          return y\n",
                )],
                Ok(b"def f(x):\n    if x:\n        y = 1\n        z = 2\n        return y\n    return 0\n"),
            ),
            (
                "python: drift differs by depth",
                b"class A:\n    def f(self):\n        if self.x:\n            return 1\n        return 2\n",
                vec![edit(
                    "  def f(self):\n      if self.x:\n          return 1\n      return 2\n",
                    "  def f(self):\n      if self.x:\n          return 1\n      if self.y:\n          return 3\n      return 2\n",
                )],
                Ok(b"class A:\n    def f(self):\n        if self.x:\n            return 1\n        if self.y:\n            return 3\n        return 2\n"),
            ),
            (
                "python: the replacement is already in the file's frame",
                b"class A:\n    def f(self):\n        a = 1\n        return a\n",
                vec![edit(
                    "def f(self):\n    a = 1\n    return a\n",
                    "    def f(self):\n        a = 2\n        return a\n",
                )],
                Ok(b"class A:\n    def f(self):\n        a = 2\n        return a\n"),
            ),
            (
                "python: a re-indented target starting with a blank line adds none",
                b"def f():\n    a = 1\n\n    b = 2\n    return a + b\n",
                vec![edit("\n  b = 2\n", "\n  b = 3\n")],
                Ok(b"def f():\n    a = 1\n\n    b = 3\n    return a + b\n"),
            ),
            (
                "whitespace mode: leading and trailing blank lines are matched, not duplicated",
                b"a = 1\n\nb  = 2\n\nc = 3\n",
                vec![edit("\nb = 2\n\n", "\nb = 4\n\n")],
                Ok(b"a = 1\n\nb = 4\n\nc = 3\n"),
            ),
            (
                "a blank line only the target has is removed",
                b"def f():\n    a = 1\n\n    b = 2\n",
                vec![edit("a = 1\n\nb = 2", "a = 1\nb = 2")],
                Ok(b"def f():\n    a = 1\n    b = 2\n"),
            ),
            (
                "trailing whitespace dropped by the agent stays in unchanged lines",
                b"x = [  \n    1,\n]\n",
                vec![edit("x = [\n 1,\n]\n", "x = [\n 1,\n 2,\n]\n")],
                Ok(b"x = [  \n    1,\n    2,\n]\n"),
            ),
            (
                "tabs file, spaces from the agent, three depths",
                b"func f() {\n\tfor {\n\t\tif x {\n\t\t\ty()\n\t\t}\n\t}\n}\n",
                vec![edit(
                    "    if x {\n        y()\n    }\n",
                    "    if x {\n        y()\n        if z {\n            w()\n        }\n    }\n",
                )],
                Ok(b"func f() {\n\tfor {\n\t\tif x {\n\t\t\ty()\n\t\t\tif z {\n\t\t\t\tw()\n\t\t\t}\n\t\t}\n\t}\n}\n"),
            ),
            (
                "spaces file, tabs from the agent",
                b"fn f() {\n    if x {\n        y();\n    }\n}\n",
                vec![edit("\tif x {\n\t\ty();\n\t}\n", "\tif x {\n\t\ty();\n\t\tz();\n\t}\n")],
                Ok(b"fn f() {\n    if x {\n        y();\n        z();\n    }\n}\n"),
            ),
            (
                "yaml: a nested key re-indented by the agent",
                b"services:\n  web:\n    image: app\n    ports:\n      - 80\n",
                vec![edit(
                    "web:\n  image: app\n  ports:\n    - 80\n",
                    "web:\n  image: app:2\n  ports:\n    - 80\n    - 443\n",
                )],
                Ok(b"services:\n  web:\n    image: app:2\n    ports:\n      - 80\n      - 443\n"),
            ),
            (
                "a replacement line between differently moved lines is refused",
                b"def f():\n    if a:\n        if b:\n                if c:\n                    d()\n",
                vec![edit(
                    "  if a:\n      if b:\n          if c:\n              d()\n",
                    "  if a:\n      if b:\n        x()\n          if c:\n              d()\n",
                )],
                Err("INDENT_AMBIGUOUS"),
            ),
        ];
        for (name, file, edits, expected) in cases {
            let got = run(file, &edits);
            match (got, expected) {
                (Ok(bytes), Ok(want)) => assert_eq!(
                    String::from_utf8_lossy(&bytes),
                    String::from_utf8_lossy(want),
                    "{name}"
                ),
                (Err(err), Err(code)) => assert_eq!(err.code, code, "{name}: {err:?}"),
                (got, want) => panic!(
                    "{name}: got {:?}, want {:?}",
                    got.map(|b| String::from_utf8_lossy(&b).to_string()),
                    want.map(|b| String::from_utf8_lossy(b).to_string())
                ),
            }
        }
    }

    /// The cases of the reference filesystem server's edit_file tests (applyFileEdits), with
    /// what this tool answers. One deliberate difference: that server rewrites CRLF files
    /// with LF; here CRLF stays CRLF.
    #[test]
    fn reference_filesystem_server_edit_cases() {
        let cases: Vec<Case<&str>> = vec![
            (
                "simple replacement",
                "line1\nline2\nline3\n",
                vec![edit("line2", "modified line2")],
                Ok("line1\nmodified line2\nline3\n"),
            ),
            (
                "multiple edits",
                "line1\nline2\nline3\n",
                vec![edit("line1", "first line"), edit("line3", "third line")],
                Ok("first line\nline2\nthird line\n"),
            ),
            (
                "indented line found by its text",
                "  line1\n    line2\n  line3\n",
                vec![edit("line2", "modified line2")],
                Ok("  line1\n    modified line2\n  line3\n"),
            ),
            (
                "no match is an error",
                "line1\nline2\n",
                vec![edit("nonexistent line", "x")],
                Err("NO_MATCH"),
            ),
            (
                "multi-line edit with indentation",
                "function test() {\n  console.log(\"hello\");\n  return true;\n}",
                vec![edit(
                    "  console.log(\"hello\");\n  return true;",
                    "  console.log(\"world\");\n  console.log(\"test\");\n  return false;",
                )],
                Ok(
                    "function test() {\n  console.log(\"world\");\n  console.log(\"test\");\n  return false;\n}",
                ),
            ),
            (
                "exact match inserts the replacement literally",
                "    if (condition) {\n        doSomething();\n    }",
                vec![edit(
                    "doSomething();",
                    "doSomethingElse();\n  doAnotherThing();",
                )],
                Ok("    if (condition) {\n        doSomethingElse();\n  doAnotherThing();\n    }"),
            ),
            (
                "whitespace-flexible multi-line match keeps relative indentation",
                "    function test() {\n        return true;\n    }",
                vec![edit(
                    "function test() {\n    return true;\n}",
                    "function test() {\n    return false;\n}",
                )],
                Ok("    function test() {\n        return false;\n    }"),
            ),
            (
                "crlf file (kept crlf here)",
                "line1\r\nline2\r\nline3\r\n",
                vec![edit("line2", "modified line2")],
                Ok("line1\r\nmodified line2\r\nline3\r\n"),
            ),
        ];
        for (name, file, edits, expected) in cases {
            match (run(file.as_bytes(), &edits), expected) {
                (Ok(bytes), Ok(want)) => {
                    assert_eq!(String::from_utf8(bytes).unwrap(), want, "{name}")
                }
                (Err(err), Err(code)) => assert_eq!(err.code, code, "{name}"),
                (got, want) => panic!(
                    "{name}: got {:?}, want {want:?}",
                    got.map(|b| String::from_utf8_lossy(&b).to_string())
                ),
            }
        }
    }

    /// Line hints off by 1, 10 and 60 lines, with one occurrence and with several.
    #[test]
    fn stale_line_hints_pick_the_clearly_meant_occurrence() {
        let file: String = (1..=300)
            .map(|n| match n {
                100 | 250 => "    target()\n".to_string(),
                _ => format!("    line_{n}()\n"),
            })
            .collect();
        let hinted = |start: u32, end: u32| Edit {
            line_range: Some(LineRange::Object { start, end }),
            ..edit("    target()\n", "    done()\n")
        };
        let changed_line = |bytes: Vec<u8>| {
            String::from_utf8(bytes)
                .unwrap()
                .lines()
                .position(|l| l.contains("done()"))
                .map(|i| i + 1)
        };
        // Several occurrences (100 and 250): hints 1, 10 and 60 lines above 100 pick 100.
        for off in [1, 10, 60] {
            let got = run(file.as_bytes(), &[hinted(100 - off, 100 - off)]).unwrap();
            assert_eq!(changed_line(got), Some(100), "off by {off}");
        }
        // A range 40 lines below 250 (and past the end of the file) is clearly 250.
        let got = run(file.as_bytes(), &[hinted(290, 295)]).unwrap();
        assert_eq!(changed_line(got), Some(250));
        // Halfway between the two is a guess.
        let err = run(file.as_bytes(), &[hinted(170, 180)]).unwrap_err();
        assert_eq!(err.code, "ANCHOR_FAILED");
        assert_eq!(err.details.unwrap()["matches"][0]["line"], 100);
        // One occurrence: off by 60 is still it; over 100 lines off is refused.
        let single = file.replace("    target()\n", "    once()\n").replacen(
            "    line_5()\n",
            "    target()\n",
            1,
        );
        let got = run(single.as_bytes(), &[hinted(65, 66)]).unwrap();
        assert_eq!(changed_line(got), Some(5));
        assert_eq!(
            run(single.as_bytes(), &[hinted(200, 201)])
                .unwrap_err()
                .code,
            "ANCHOR_FAILED"
        );
        // The correction is reported.
        let text = FileText::decode(single.as_bytes()).unwrap();
        let e = hinted(15, 15);
        let outcome = edit_text("f", "h", text, &[(0, &e)], false).unwrap();
        assert_eq!(outcome.applied[0].hint_off, Some(-10));
    }

    #[test]
    fn hashes_match_in_full_or_by_a_long_prefix() {
        assert!(check_hash("abcdef0123", "abcdef0123456").is_ok());
        assert!(check_hash("ABCDEF0123", "abcdef0123456").is_ok());
        assert_eq!(
            check_hash("abc", "abcdef").unwrap_err().code,
            "HASH_MISMATCH"
        );
        assert_eq!(
            check_hash("ffffffff", "abcdef01").unwrap_err().code,
            "HASH_MISMATCH"
        );
    }

    #[test]
    fn batch_mode_keeps_what_matched() {
        let text = FileText::decode(b"a\nb\n").unwrap();
        let edits = [edit("a", "A"), edit("zzz", "Z")];
        let indexed: Vec<(usize, &Edit)> = edits.iter().enumerate().collect();
        let outcome = edit_text("f", "h", text, &indexed, true).unwrap();
        assert_eq!(outcome.failed.len(), 1);
        assert_eq!(outcome.failed[0].edit, 1);
        assert_eq!(outcome.file.unwrap().new_bytes(), b"A\nb\n");
    }
}
