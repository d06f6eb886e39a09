//! Templates: the built-in ones (a test file for a source file in Rust, Python, TypeScript or
//! Go, an ADR, a README section) and the project's own in `.smart-context/templates/`, whose
//! `{{name}}` placeholders are filled from the call's variables.

use crate::layout::PyStyle;
use std::collections::BTreeMap;

/// Where project templates live.
pub const PROJECT_DIR: &str = ".smart-context/templates";

/// What a template produced: the file, and whether it appends to an existing one.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    pub path: String,
    pub content: String,
    pub append: bool,
}

/// The source file a test template scaffolds, as the template needs it.
#[derive(Debug, Clone, Default)]
pub struct SourceInfo {
    pub path: String,
    /// Public functions, in source order.
    pub functions: Vec<String>,
    /// Rust: the crate's name; Go: the package clause; TypeScript: "vitest" when the project
    /// uses it.
    pub context: Option<String>,
}

/// Languages with a test template.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    TypeScript,
    Go,
}

impl Lang {
    pub fn of(path: &str) -> Option<Self> {
        match path.rsplit_once('.')?.1 {
            "rs" => Some(Lang::Rust),
            "py" => Some(Lang::Python),
            "ts" | "tsx" | "js" | "jsx" | "mts" | "mjs" => Some(Lang::TypeScript),
            "go" => Some(Lang::Go),
            _ => None,
        }
    }

    /// From a template alias like `rust-test`.
    pub fn from_template(name: &str) -> Option<Self> {
        match name {
            "rust-test" => Some(Lang::Rust),
            "python-test" => Some(Lang::Python),
            "typescript-test" | "ts-test" => Some(Lang::TypeScript),
            "go-test" => Some(Lang::Go),
            _ => None,
        }
    }
}

pub const BUILTIN: &[&str] = &[
    "test",
    "rust-test",
    "python-test",
    "typescript-test",
    "go-test",
    "adr",
    "readme-section",
];

fn split_path(path: &str) -> (&str, &str, &str) {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    let (stem, ext) = name.rsplit_once('.').unwrap_or((name, ""));
    (dir, stem, ext)
}

fn join(dir: &str, name: &str) -> String {
    if dir.is_empty() {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// The conventional place of the test file for `source`.
pub fn test_path(lang: Lang, source: &str) -> String {
    let (dir, stem, ext) = split_path(source);
    match lang {
        Lang::Rust => format!(
            "tests/{}.rs",
            if stem == "mod" {
                split_path(dir).1
            } else {
                stem
            }
        ),
        Lang::Python => format!("tests/test_{stem}.py"),
        Lang::TypeScript => join(dir, &format!("{stem}.test.{ext}")),
        Lang::Go => join(dir, &format!("{stem}_test.go")),
    }
}

/// A test file for `source`: one failing stub per public function, so nothing passes until
/// it is written. Python follows `style` (the project's unittest base class, or pytest).
pub fn test_file(lang: Lang, src: &SourceInfo, style: Option<&PyStyle>) -> String {
    let (dir, stem, _) = split_path(&src.path);
    let fns = if src.functions.is_empty() {
        vec![stem.to_string()]
    } else {
        src.functions.clone()
    };
    match lang {
        Lang::Rust => {
            let krate = src.context.clone().unwrap_or_else(|| "crate_name".into());
            let module = rust_module(&src.path);
            let path = if module.is_empty() {
                krate
            } else {
                format!("{krate}::{module}")
            };
            let imports = if src.functions.is_empty() {
                format!("use {path}::*;")
            } else {
                format!("use {path}::{{{}}};", src.functions.join(", "))
            };
            let mut out = format!("//! Tests for `{}`.\n\n{imports}\n", src.path);
            for f in &fns {
                out.push_str(&format!(
                    "\n#[test]\nfn {}_works() {{\n    // Call `{f}` with a known input and assert on what it returns.\n    panic!(\"write this test of {f}\");\n}}\n",
                    snake(f)
                ));
            }
            out
        }
        Lang::Python if matches!(style, Some(PyStyle::Unittest { .. })) => {
            let Some(PyStyle::Unittest { base, import }) = style else {
                unreachable!("matched above")
            };
            let module = python_module(&src.path);
            let mut out = format!("\"\"\"Tests for {}.\"\"\"\n\n", src.path);
            out.push_str(import.as_deref().unwrap_or("import unittest"));
            out.push_str("\n\n");
            out.push_str(&python_import(&module, &src.functions));
            let base = if import.is_some() {
                base.clone()
            } else {
                "unittest.TestCase".to_string()
            };
            out.push_str(&format!("\n\nclass {}Tests({base}):\n", camel(stem)));
            for (i, f) in fns.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                out.push_str(&format!(
                    "    def test_{}(self):\n        # Call {f} with a known input and assert on what it returns.\n        self.fail(\"write this test\")\n",
                    snake(f)
                ));
            }
            out
        }
        Lang::Python => {
            let module = python_module(&src.path);
            let mut out = format!("\"\"\"Tests for {}.\"\"\"\n\nimport pytest\n\n", src.path);
            out.push_str(&python_import(&module, &src.functions));
            for f in &fns {
                out.push_str(&format!(
                    "\n\ndef test_{}():\n    # Call {f} with a known input and assert on what it returns.\n    pytest.fail(\"write this test\")\n",
                    snake(f)
                ));
            }
            out
        }
        Lang::TypeScript => {
            let mut out = String::new();
            if src.context.as_deref() == Some("vitest") {
                out.push_str("import { describe, expect, it } from \"vitest\";\n");
            }
            if !src.functions.is_empty() {
                out.push_str(&format!(
                    "import {{ {} }} from \"./{stem}\";\n",
                    src.functions.join(", ")
                ));
            }
            out.push_str(&format!("\ndescribe(\"{stem}\", () => {{\n"));
            for f in &fns {
                out.push_str(&format!(
                    "  it(\"{f}\", () => {{\n    // Call {f} with a known input and expect what it returns.\n    throw new Error(\"write this test\");\n  }});\n"
                ));
            }
            out.push_str("});\n");
            out
        }
        Lang::Go => {
            let package = src
                .context
                .clone()
                .unwrap_or_else(|| split_path(dir).1.to_string());
            let package = if package.is_empty() {
                "main".to_string()
            } else {
                package
            };
            let mut out = format!("package {package}\n\nimport \"testing\"\n");
            for f in &fns {
                let name = upper_first(f);
                out.push_str(&format!(
                    "\nfunc Test{name}(t *testing.T) {{\n\t// Call {f} with a known input and check what it returns.\n\tt.Fatal(\"write this test\")\n}}\n"
                ));
            }
            out
        }
    }
}

/// Failing stubs for the functions of `src` that `existing` (the text of the test file the
/// project already has for it) does not mention yet, appended to it in its style; None when
/// it mentions every one. Stubs call nothing (the file's imports stay as they are): each
/// fails, saying which function it is for.
pub fn appended_stubs(
    lang: Lang,
    src: &SourceInfo,
    existing: &str,
    style: Option<&PyStyle>,
) -> Option<String> {
    let (_, stem, _) = split_path(&src.path);
    // A function is tested when the file calls it or names a test after it (whole words:
    // `test_parse` is not `test_parse_date`).
    let missing: Vec<&String> = src
        .functions
        .iter()
        .filter(|f| {
            let called = existing.match_indices(&format!("{f}(")).any(|(at, _)| {
                !existing[..at].ends_with(|c: char| c.is_alphanumeric() || c == '_')
            });
            !called && !crate::layout::mentions_word(existing, &format!("test_{}", snake(f)))
        })
        .collect();
    if missing.is_empty() {
        return None;
    }
    let mut out = existing.trim_end().to_string();
    out.push('\n');
    match lang {
        Lang::Python => {
            let module = python_module(&src.path);
            match style {
                Some(PyStyle::Unittest { base, .. }) => {
                    // A name no class of the file has yet (a second append would otherwise
                    // rebind the first one's, and its tests would no longer run).
                    let class = (1..)
                        .map(|n| match n {
                            1 => format!("{}StubTests", camel(stem)),
                            n => format!("{}StubTests{n}", camel(stem)),
                        })
                        .find(|c| !crate::layout::mentions_word(existing, &format!("class {c}")))
                        .unwrap_or_default();
                    out.push_str(&format!("\n\nclass {class}({base}):\n"));
                    for (i, f) in missing.iter().enumerate() {
                        if i > 0 {
                            out.push('\n');
                        }
                        out.push_str(&format!(
                            "    def test_{}(self):\n        from {module} import {f}  # noqa: F401\n\n        # Call {f} with a known input and assert on what it returns.\n        self.fail(\"write this test of {f}\")\n",
                            snake(f)
                        ));
                    }
                }
                _ => {
                    for f in missing {
                        out.push_str(&format!(
                            "\n\ndef test_{}():\n    from {module} import {f}  # noqa: F401\n\n    # Call {f} with a known input and assert on what it returns.\n    raise AssertionError(\"write this test of {f}\")\n",
                            snake(f)
                        ));
                    }
                }
            }
        }
        Lang::Rust => {
            for f in missing {
                out.push_str(&format!(
                    "\n#[test]\nfn {}_works() {{\n    // Call `{f}` with a known input and assert on what it returns.\n    panic!(\"write this test of {f}\");\n}}\n",
                    snake(f)
                ));
            }
        }
        Lang::TypeScript => {
            out.push_str(&format!("\ndescribe(\"{stem} (stubs)\", () => {{\n"));
            for f in missing {
                out.push_str(&format!(
                    "  it(\"{f}\", () => {{\n    // Call {f} with a known input and expect what it returns.\n    throw new Error(\"write this test of {f}\");\n  }});\n"
                ));
            }
            out.push_str("});\n");
        }
        Lang::Go => {
            for f in missing {
                out.push_str(&format!(
                    "\nfunc Test{}(t *testing.T) {{\n\t// Call {f} with a known input and check what it returns.\n\tt.Fatal(\"write this test of {f}\")\n}}\n",
                    upper_first(f)
                ));
            }
        }
    }
    Some(out)
}

/// How code of `lang` names the module at `path` in an import (`pkg.utils.text`, `./api`'s
/// `api`, the crate path), for telling whether a test file is about it.
pub fn module_name(lang: Lang, path: &str) -> String {
    match lang {
        Lang::Python => python_module(path),
        Lang::Rust => rust_module(path),
        Lang::TypeScript | Lang::Go => split_path(path).1.to_string(),
    }
}

/// The line importing a Python source's public functions (or the module, when it has none).
fn python_import(module: &str, functions: &[String]) -> String {
    if functions.is_empty() {
        format!("import {module}\n")
    } else {
        format!("from {module} import {}\n", functions.join(", "))
    }
}

/// `text_utils` -> `TextUtils`: a Python class name from a module's.
fn camel(stem: &str) -> String {
    stem.split(['_', '-'])
        .map(upper_first)
        .collect::<Vec<_>>()
        .join("")
}

/// `src/a/b.rs` -> `a::b`; `src/lib.rs` -> ``; `src/a/mod.rs` -> `a`.
fn rust_module(path: &str) -> String {
    let inner = path.strip_prefix("src/").unwrap_or(path);
    let inner = inner.strip_suffix(".rs").unwrap_or(inner);
    let parts: Vec<&str> = inner
        .split('/')
        .filter(|p| !matches!(*p, "lib" | "main" | "mod"))
        .collect();
    parts.join("::")
}

/// `src/pkg/foo.py` -> `pkg.foo`; `pkg/__init__.py` -> `pkg`.
fn python_module(path: &str) -> String {
    let inner = path.strip_prefix("src/").unwrap_or(path);
    let inner = inner.strip_suffix(".py").unwrap_or(inner);
    inner
        .split('/')
        .filter(|p| *p != "__init__")
        .collect::<Vec<_>>()
        .join(".")
}

fn snake(name: &str) -> String {
    let mut out = String::new();
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

fn upper_first(name: &str) -> String {
    let mut chars = name.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}

/// An ADR: `number` is the next free one, the date today's.
pub fn adr(
    number: u32,
    date: &str,
    vars: &BTreeMap<String, String>,
) -> Result<(String, String), Vec<String>> {
    let title = vars.get("title").ok_or_else(|| vec!["title".to_string()])?;
    let get = |k: &str, d: &str| vars.get(k).cloned().unwrap_or_else(|| d.to_string());
    let path = format!("docs/adr/{number:04}-{}.md", sdk::doc::slug(title));
    let content = format!(
        "# ADR-{number:04}: {title}\n\n- Status: {}\n- Date: {date}\n\n## Context\n\n{}\n\n## Decision\n\n{}\n\n## Consequences\n\n{}\n",
        get("status", "Proposed"),
        get(
            "context",
            "What forces are at play, and why a decision is needed now."
        ),
        get("decision", "What we will do."),
        get(
            "consequences",
            "What becomes easier or harder because of it."
        ),
    );
    Ok((path, content))
}

/// The next ADR number after the highest `NNNN-` file name in `names`.
pub fn next_adr_number<'a>(names: impl Iterator<Item = &'a str>) -> u32 {
    names
        .filter_map(|n| {
            let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<u32>().ok()
        })
        .max()
        .map_or(1, |n| n + 1)
}

/// A README section appended to `existing` (empty for a new README).
pub fn readme_section(
    existing: &str,
    vars: &BTreeMap<String, String>,
) -> Result<String, Vec<String>> {
    let heading = vars
        .get("heading")
        .ok_or_else(|| vec!["heading".to_string()])?;
    let level: usize = vars
        .get("level")
        .and_then(|l| l.parse().ok())
        .filter(|l| (1..=6).contains(l))
        .unwrap_or(2);
    let body = vars.get("body").map(String::as_str).unwrap_or("TODO");
    let mut out = existing.to_string();
    if !out.is_empty() {
        if !out.ends_with('\n') {
            out.push('\n');
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "{} {heading}\n\n{}\n",
        "#".repeat(level),
        body.trim_end()
    ));
    Ok(out)
}

/// Whether `text` already has a heading with this title (any level).
pub fn has_heading(text: &str, heading: &str) -> bool {
    text.lines().any(|l| {
        let t = l.trim_start_matches('#');
        t.len() < l.len() && t.trim() == heading.trim()
    })
}

/// Fills `{{name}}` (spaces inside the braces allowed) from `vars`; the names with no value are
/// the error.
pub fn fill(template: &str, vars: &BTreeMap<String, String>) -> Result<String, Vec<String>> {
    let mut out = String::with_capacity(template.len());
    let mut missing = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find("{{") {
        out.push_str(&rest[..open]);
        let after = &rest[open + 2..];
        let Some(close) = after.find("}}") else {
            out.push_str(&rest[open..]);
            rest = "";
            break;
        };
        let name = after[..close].trim();
        match vars.get(name) {
            Some(v) => out.push_str(v),
            None => {
                if !missing.iter().any(|m| m == name) {
                    missing.push(name.to_string());
                }
            }
        }
        rest = &after[close + 2..];
    }
    out.push_str(rest);
    if missing.is_empty() {
        Ok(out)
    } else {
        Err(missing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn placeholders_are_filled_or_named() {
        let v = vars(&[("name", "Widget")]);
        assert_eq!(
            fill("struct {{ name }};{{name}}", &v).unwrap(),
            "struct Widget;Widget"
        );
        assert_eq!(fill("{{a}} {{b}} {{a}}", &v).unwrap_err(), ["a", "b"]);
        assert_eq!(fill("no {{ close", &v).unwrap(), "no {{ close");
    }

    #[test]
    fn test_files_follow_each_languages_conventions() {
        let src = |p: &str, f: &[&str], c: Option<&str>| SourceInfo {
            path: p.into(),
            functions: f.iter().map(|s| s.to_string()).collect(),
            context: c.map(String::from),
        };
        assert_eq!(
            test_path(Lang::Rust, "src/parser/lexer.rs"),
            "tests/lexer.rs"
        );
        let rust = test_file(
            Lang::Rust,
            &src("src/parser/lexer.rs", &["tokenize"], Some("my_crate")),
            None,
        );
        assert!(
            rust.contains("use my_crate::parser::lexer::{tokenize};"),
            "{rust}"
        );
        assert!(
            rust.contains("fn tokenize_works()")
                && rust.contains("panic!(\"write this test of tokenize\")")
        );
        assert_eq!(
            test_path(Lang::Python, "src/pkg/util.py"),
            "tests/test_util.py"
        );
        let py = test_file(
            Lang::Python,
            &src("src/pkg/util.py", &["parse", "dump"], None),
            None,
        );
        assert!(py.contains("from pkg.util import parse, dump") && py.contains("def test_dump():"));
        assert_eq!(
            test_path(Lang::TypeScript, "web/src/api.ts"),
            "web/src/api.test.ts"
        );
        let ts = test_file(
            Lang::TypeScript,
            &src("web/src/api.ts", &["fetchUser"], Some("vitest")),
            None,
        );
        assert!(
            ts.contains("from \"vitest\"") && ts.contains("import { fetchUser } from \"./api\"")
        );
        assert_eq!(
            test_path(Lang::Go, "pkg/store/db.go"),
            "pkg/store/db_test.go"
        );
        let go = test_file(
            Lang::Go,
            &src("pkg/store/db.go", &["open"], Some("store")),
            None,
        );
        assert!(go.starts_with("package store\n") && go.contains("func TestOpen(t *testing.T)"));
    }

    #[test]
    fn python_tests_follow_the_projects_style_and_stubs_append_to_its_file() {
        let src = SourceInfo {
            path: "django/utils/text.py".into(),
            functions: vec!["slugify".into(), "wrap".into()],
            context: None,
        };
        let style = PyStyle::Unittest {
            base: "SimpleTestCase".into(),
            import: Some("from django.test import SimpleTestCase".into()),
        };
        let new = test_file(Lang::Python, &src, Some(&style));
        assert!(
            new.contains("from django.test import SimpleTestCase\n"),
            "{new}"
        );
        assert!(
            new.contains("from django.utils.text import slugify, wrap\n"),
            "{new}"
        );
        assert!(new.contains("class TextTests(SimpleTestCase):\n    def test_slugify(self):"));
        assert!(new.contains("self.fail(\"write this test\")") && !new.contains("pytest"));
        // The project's file tests slugify already: only wrap gets a stub, in a class of
        // the same base, after what is there.
        let existing = "from django.test import SimpleTestCase\nfrom django.utils import text\n\n\nclass TestUtilsText(SimpleTestCase):\n    def test_slugify(self):\n        self.assertEqual(text.slugify(\"a b\"), \"a-b\")\n";
        let appended = appended_stubs(Lang::Python, &src, existing, Some(&style)).unwrap();
        assert!(appended.starts_with(existing), "{appended}");
        let added = &appended[existing.len()..];
        assert!(
            added.contains("class TextStubTests(SimpleTestCase):"),
            "{added}"
        );
        assert!(added.contains("def test_wrap(self):") && !added.contains("test_slugify"));
        let all = SourceInfo {
            functions: vec!["slugify".into()],
            ..src.clone()
        };
        assert_eq!(
            appended_stubs(Lang::Python, &all, existing, Some(&style)),
            None
        );
        // Appending again names its class anew; a test of parse_date is not one of parse.
        let more = SourceInfo {
            functions: vec!["slugify".into(), "wrap".into(), "parse".into()],
            ..src
        };
        let twice = appended_stubs(
            Lang::Python,
            &more,
            &format!("{appended}\n\ndef test_parse_date():\n    pass\n"),
            Some(&style),
        )
        .unwrap();
        assert!(
            twice.contains("class TextStubTests2(SimpleTestCase):\n    def test_parse(self):"),
            "{twice}"
        );
        assert!(
            !twice[appended.len()..].contains("def test_wrap"),
            "{twice}"
        );
    }

    #[test]
    fn adr_numbers_and_slugs() {
        assert_eq!(
            next_adr_number(["0001-a.md", "0007-b.md", "README.md"].into_iter()),
            8
        );
        assert_eq!(next_adr_number(std::iter::empty()), 1);
        let (path, text) = adr(
            8,
            "2026-11-22",
            &vars(&[("title", "Use SQLite, not files!")]),
        )
        .unwrap();
        assert_eq!(path, "docs/adr/0008-use-sqlite-not-files.md");
        assert!(text.starts_with(
            "# ADR-0008: Use SQLite, not files!\n\n- Status: Proposed\n- Date: 2026-11-22"
        ));
        assert_eq!(adr(1, "", &vars(&[])).unwrap_err(), ["title"]);
    }

    #[test]
    fn readme_sections_append() {
        let v = vars(&[("heading", "Usage"), ("body", "Run it.")]);
        assert_eq!(
            readme_section("# Tool\n", &v).unwrap(),
            "# Tool\n\n## Usage\n\nRun it.\n"
        );
        assert_eq!(readme_section("", &v).unwrap(), "## Usage\n\nRun it.\n");
        assert!(has_heading("# Tool\n## Usage\n", "Usage"));
        assert!(!has_heading("Usage\n", "Usage"));
    }
}
