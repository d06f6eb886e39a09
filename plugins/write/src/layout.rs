//! Where and how the project already tests: the test template follows it. A source that
//! already has a test file (by its language's naming) gets stubs appended there; otherwise
//! the new file goes where the tests of the source's sibling modules live (else where most
//! of the project's tests live); Python tests take the style the project's tests use
//! (unittest classes with their base class and its import, or pytest functions).

use crate::smart_context::plugin::workspace::{self, WalkOptions};
use crate::templates::Lang;
use std::collections::HashMap;

/// Test files looked at when learning the layout, at most.
const MAX_TEST_FILES: u32 = 2_000;
/// Test files read to learn the Python style.
const STYLE_SAMPLES: usize = 3;

/// How a Python project writes its tests.
#[derive(Debug, Clone, PartialEq)]
pub enum PyStyle {
    Pytest,
    /// Test classes deriving from `base`, imported by `import` (a line of the sampled file).
    Unittest {
        base: String,
        import: Option<String>,
    },
}

/// What the project's tests say about a new test of one source file.
#[derive(Debug, Clone, Default)]
pub struct Layout {
    /// A test file that already tests the source.
    pub existing: Option<String>,
    /// Where a new test file goes, when the project shows a place.
    pub place: Option<String>,
    pub python: Option<PyStyle>,
}

/// The test file names that would test `stem` in `lang`.
fn names(lang: Lang, stem: &str) -> Vec<String> {
    match lang {
        Lang::Python => vec![format!("test_{stem}.py"), format!("{stem}_test.py")],
        Lang::TypeScript => ["test", "spec"]
            .iter()
            .flat_map(|k| {
                ["ts", "tsx", "js", "jsx", "mts", "mjs"]
                    .iter()
                    .map(move |e| format!("{stem}.{k}.{e}"))
            })
            .collect(),
        Lang::Go => vec![format!("{stem}_test.go")],
        Lang::Rust => vec![format!("{stem}.rs")],
    }
}

/// The project's test files of `lang`, by its test naming (`test_*.py`, `*_test.go`, ...).
fn test_files(lang: Lang) -> Vec<String> {
    let glob = match lang {
        Lang::Python => "**/{test_*,*_test}.py",
        Lang::TypeScript => "**/*.{test,spec}.{ts,tsx,js,jsx,mts,mjs}",
        Lang::Go => "**/*_test.go",
        Lang::Rust => "**/tests/*.rs",
    };
    let options = WalkOptions {
        max_depth: 16,
        max_files: MAX_TEST_FILES,
        glob: Some(glob.to_string()),
    };
    workspace::walk(".", &options)
        .map(|r| r.files.into_iter().map(|e| e.path).collect())
        .unwrap_or_default()
}

fn split(path: &str) -> (&str, &str) {
    let (dir, name) = path.rsplit_once('/').unwrap_or(("", path));
    (dir, name)
}

fn stem(name: &str) -> &str {
    name.split('.').next().unwrap_or(name)
}

/// The module a test file is named for: `test_text.py` -> `text`, `db_test.go` -> `db`.
fn tested_stem(name: &str) -> &str {
    let s = stem(name);
    s.strip_prefix("test_")
        .or_else(|| s.strip_suffix("_test"))
        .unwrap_or(s)
}

/// Path components two paths share (directory names), for picking the closer of two places.
fn shared_parts(a: &str, b: &str) -> usize {
    let parts = |p: &str| -> Vec<String> {
        p.split('/')
            .map(|s| tested_stem(s).trim_end_matches("_tests").to_string())
            .collect()
    };
    let (a, b) = (parts(a), parts(b));
    a.iter().filter(|x| b.contains(x)).count()
}

/// The project's conventions for a test of `source` (root-relative) in `lang`.
pub fn learn(lang: Lang, source: &str, read: impl Fn(&str) -> Option<String>) -> Layout {
    let (dir, name) = split(source);
    let source_stem = stem(name);
    let files = test_files(lang);
    let wanted = names(lang, source_stem);
    // A test file named for this source that is about it: beside it (Go's rule: the same
    // package), or sharing a directory name with it (`tests/utils_tests/test_text.py` for
    // `django/utils/text.py`), or naming its module; the closest when there are several.
    let module = crate::templates::module_name(lang, source);
    let about = |f: &String| -> bool {
        let (test_dir, _) = split(f);
        if lang == Lang::Go {
            return test_dir == dir;
        }
        test_dir == dir
            || shared_parts(f, source) >= 2
            || read(f).is_some_and(|text| mentions_word(&text, &module))
    };
    let existing = files
        .iter()
        .filter(|f| wanted.iter().any(|w| split(f).1 == w))
        .filter(|f| about(f))
        .max_by_key(|f| (shared_parts(f, source), std::cmp::Reverse(f.len())))
        .cloned();
    let place = match (&existing, lang) {
        (Some(_), _) | (None, Lang::Go) => None,
        (None, _) => {
            // Where the tests of the source's sibling modules live, else where most tests do.
            let siblings: Vec<String> = workspace::list_dir(if dir.is_empty() { "." } else { dir })
                .map(|entries| {
                    entries
                        .into_iter()
                        .map(|e| stem(split(&e.path).1).to_string())
                        .filter(|s| s != source_stem)
                        .collect()
                })
                .unwrap_or_default();
            let mut by_dir: HashMap<&str, usize> = HashMap::new();
            for f in &files {
                let (test_dir, test_name) = split(f);
                if siblings.iter().any(|s| s == tested_stem(test_name)) {
                    *by_dir.entry(test_dir).or_default() += 1;
                }
            }
            let mut counts: HashMap<&str, usize> = HashMap::new();
            for f in &files {
                *counts.entry(split(f).0).or_default() += 1;
            }
            let best = by_dir
                .iter()
                .max_by_key(|(d, n)| (**n, shared_parts(d, source)))
                .map(|(d, _)| *d)
                .or_else(|| {
                    counts
                        .iter()
                        .max_by_key(|(d, n)| (**n, shared_parts(d, source)))
                        .map(|(d, _)| *d)
                });
            best.map(|d| {
                let file = &names(lang, source_stem)[0];
                if d.is_empty() {
                    file.clone()
                } else {
                    format!("{d}/{file}")
                }
            })
        }
    };
    let python = (lang == Lang::Python).then(|| {
        // Stubs appended to a file take that file's style only (another file's base class
        // may not be imported there); pytest functions run in any test file.
        if let Some(existing) = &existing {
            return read(existing)
                .and_then(|text| python_style(&text))
                .unwrap_or(PyStyle::Pytest);
        }
        let near = place.as_deref().map(|p| split(p).0);
        let mut samples: Vec<&String> = existing.iter().collect();
        samples.extend(files.iter().filter(|f| Some(split(f).0) == near));
        samples.extend(files.iter());
        let mut seen = Vec::new();
        let mut votes: Vec<PyStyle> = Vec::new();
        for f in samples {
            if seen.contains(f) || seen.len() >= STYLE_SAMPLES {
                continue;
            }
            seen.push(f.clone());
            if let Some(style) = read(f).and_then(|text| python_style(&text)) {
                votes.push(style);
            }
        }
        // The most common among the files read.
        votes
            .iter()
            .max_by_key(|v| votes.iter().filter(|w| w == v).count())
            .cloned()
            .unwrap_or(PyStyle::Pytest)
    });
    Layout {
        existing,
        place,
        python,
    }
}

/// The style one Python test file is written in, if it shows one.
pub fn python_style(text: &str) -> Option<PyStyle> {
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("class ") else {
            continue;
        };
        let Some((_, bases)) = rest.split_once('(') else {
            continue;
        };
        let base = bases
            .split([')', ','])
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        let short = base.rsplit('.').next().unwrap_or(&base);
        if !short.ends_with("TestCase") && !short.ends_with("Tests") && !short.ends_with("Test") {
            continue;
        }
        let head = base.split('.').next().unwrap_or(&base);
        let import = text
            .lines()
            .find(|l| {
                let l = l.trim_end();
                (l.starts_with("from ") && l.contains(" import ") && imports_name(l, head))
                    || (l.starts_with("import ") && imports_name(l, head))
            })
            .map(|l| l.trim_end().to_string());
        return Some(PyStyle::Unittest { base, import });
    }
    let pytest = text.lines().any(|l| {
        l.starts_with("import pytest") || l.starts_with("from pytest") || l.starts_with("def test")
    });
    pytest.then_some(PyStyle::Pytest)
}

/// Whether `text` holds `word` as a whole word (not inside a longer identifier; dots are part
/// of a dotted word).
pub fn mentions_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(|c| ident(c) || c == '.') && !after.is_some_and(ident)
    })
}

/// Whether an import line binds `name` (`from x import A, B as C` binds A and C).
fn imports_name(line: &str, name: &str) -> bool {
    let names = match line.split_once(" import ") {
        Some((_, names)) => names,
        None => line.strip_prefix("import ").unwrap_or(""),
    };
    names
        .trim_matches(|c| c == '(' || c == ')')
        .split(',')
        .map(|n| n.split(" as ").last().unwrap_or(n).trim())
        .any(|n| n == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_styles_are_read_from_test_files() {
        let django = "from django.test import SimpleTestCase\nfrom django.utils import text\n\n\nclass TestUtilsText(SimpleTestCase):\n    def test_slugify(self):\n        pass\n";
        assert_eq!(
            python_style(django),
            Some(PyStyle::Unittest {
                base: "SimpleTestCase".into(),
                import: Some("from django.test import SimpleTestCase".into()),
            })
        );
        let plain = "import unittest\n\nclass T(unittest.TestCase):\n    pass\n";
        assert_eq!(
            python_style(plain),
            Some(PyStyle::Unittest {
                base: "unittest.TestCase".into(),
                import: Some("import unittest".into()),
            })
        );
        assert_eq!(
            python_style("import pytest\n\ndef test_x():\n    assert 1\n"),
            Some(PyStyle::Pytest)
        );
        assert_eq!(python_style("x = 1\n"), None);
    }

    #[test]
    fn words_are_whole() {
        assert!(mentions_word("from pkg.text import slugify", "pkg.text"));
        assert!(!mentions_word("from otherpkg.text import x", "pkg.text"));
        assert!(mentions_word("x = parse(y)", "parse"));
        assert!(!mentions_word("x = parse_date(y)", "parse"));
        assert!(!mentions_word("budget(1)", "get"));
    }

    #[test]
    fn test_file_names_give_the_module_they_test() {
        assert_eq!(tested_stem("test_text.py"), "text");
        assert_eq!(tested_stem("db_test.go"), "db");
        assert_eq!(
            shared_parts("tests/utils_tests/test_text.py", "django/utils/text.py"),
            2
        );
    }
}
