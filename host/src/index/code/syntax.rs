//! Where a source text does not parse: tree-sitter's ERROR and MISSING nodes. The change
//! pillar compares a file's problems before and after an edit, so an edit that breaks the
//! syntax is refused instead of written.

use super::{Language, parse_after};
// A panic elsewhere while a cache is locked leaves it usable: it holds only finished entries.
use std::sync::{Mutex, PoisonError};
use tree_sitter::{InputEdit, Point, Tree};

/// Problems listed per text: enough to show where, not a compiler's full report.
pub const MAX_PROBLEMS: usize = 50;
/// Texts whose problems are remembered: a dry run and its apply check the same texts.
const CACHED: usize = 16;
/// Files whose last parsed text and tree are kept: the next text of the same file (another
/// edit) is reparsed incrementally, only where the lines changed (a 10,000-line file: ~45 ms
/// whole, a few ms incrementally).
const TREES: usize = 8;

/// One place the parser could not make sense of. Lines are 1-based and inclusive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub start_line: u32,
    pub end_line: u32,
    /// 1-based, in characters.
    pub column: u32,
    /// What the parser saw: `unexpected "..."` or `missing ")"`.
    pub message: String,
}

/// The syntax problems of `source`, the text of `path` as `lang`, in source order, at most
/// [`MAX_PROBLEMS`].
pub fn problems(path: &str, lang: Language, source: &str) -> Vec<Problem> {
    static CACHE: Mutex<Vec<(blake3::Hash, Vec<Problem>)>> = Mutex::new(Vec::new());
    let key = {
        let mut h = blake3::Hasher::new();
        h.update(lang.name().as_bytes());
        h.update(&[0]);
        h.update(source.as_bytes());
        h.finalize()
    };
    if let Some((_, found)) = CACHE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .find(|(k, _)| *k == key)
    {
        return found.clone();
    }
    let mut found = tree(path, lang, source).map_or_else(Vec::new, |t| tree_problems(&t, source));
    if lang == Language::Python {
        // tree-sitter's Python grammar recovers from bad indentation without an error node;
        // Python does not, so its rules are checked here.
        found.extend(python_indentation(source));
        found.sort_by_key(|p| (p.start_line, p.column));
        found.truncate(MAX_PROBLEMS);
    }
    let mut cache = CACHE.lock().unwrap_or_else(PoisonError::into_inner);
    if cache.len() >= CACHED {
        cache.remove(0);
    }
    cache.push((key, found.clone()));
    found
}

/// `source`'s tree, reparsed from the last tree of `path` where one is kept (and not parsed
/// at all when that tree is of this very text: a planned edit checked, then ranked).
pub(crate) fn tree(path: &str, lang: Language, source: &str) -> Option<Tree> {
    static KEPT: Mutex<Vec<(String, Language, String, Tree)>> = Mutex::new(Vec::new());
    let previous = {
        let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
        let at = kept.iter().position(|(p, l, _, _)| p == path && *l == lang);
        if let Some(i) = at
            && kept[i].2 == source
        {
            return Some(kept[i].3.clone());
        }
        at.map(|i| kept.remove(i))
    };
    let old = previous.map(|(_, _, text, mut tree)| {
        for edit in line_edits(&text, source) {
            tree.edit(&edit);
        }
        tree
    });
    let tree = parse_after(lang, source, old.as_ref())?;
    let mut kept = KEPT.lock().unwrap_or_else(PoisonError::into_inner);
    if kept.len() >= TREES {
        kept.remove(0);
    }
    kept.push((path.to_string(), lang, source.to_string(), tree.clone()));
    Some(tree)
}

/// The changes from `old` to `new` as tree-sitter edits, by whole lines, last first (so each
/// edit's positions hold in the text the earlier ones leave).
fn line_edits(old: &str, new: &str) -> Vec<InputEdit> {
    let starts = |text: &str| -> Vec<usize> {
        std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .filter(|&i| i <= text.len())
            .collect()
    };
    let (old_starts, new_starts) = (starts(old), starts(new));
    let at =
        |starts: &[usize], text: &str, line: usize| starts.get(line).copied().unwrap_or(text.len());
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_millis(50))
        .diff_lines(old, new);
    let mut edits: Vec<InputEdit> = diff
        .ops()
        .iter()
        .filter(|op| op.tag() != similar::DiffTag::Equal)
        .map(|op| {
            let (a, b) = (op.old_range().start, op.old_range().end);
            let (c, d) = (op.new_range().start, op.new_range().end);
            let start_byte = at(&old_starts, old, a);
            let old_end_byte = at(&old_starts, old, b);
            let new_len = at(&new_starts, new, d) - at(&new_starts, new, c);
            InputEdit {
                start_byte,
                old_end_byte,
                new_end_byte: start_byte + new_len,
                start_position: Point::new(a, 0),
                old_end_position: Point::new(b, 0),
                new_end_position: Point::new(a + (d - c), 0),
            }
        })
        .collect();
    edits.reverse();
    edits
}

fn tree_problems(tree: &Tree, source: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut cursor = tree.walk();
    // Depth-first over the nodes that contain an error; an ERROR node is reported whole.
    'walk: loop {
        let node = cursor.node();
        let reported = node.is_error() || node.is_missing();
        if reported {
            let start = node.start_position();
            let line_start = source[..node.start_byte()].rfind('\n').map_or(0, |i| i + 1);
            let message = if node.is_missing() {
                format!("missing {:?}", node.kind())
            } else {
                let text = &source[node.start_byte()..node.end_byte()];
                let first = text
                    .lines()
                    .map(str::trim)
                    .find(|l| !l.is_empty())
                    .unwrap_or("");
                format!("unexpected {:?}", shorten(first, 60))
            };
            out.push(Problem {
                start_line: start.row as u32 + 1,
                end_line: (node.end_position().row as u32 + 1).max(start.row as u32 + 1),
                column: source[line_start..node.start_byte()].chars().count() as u32 + 1,
                message,
            });
            if out.len() >= MAX_PROBLEMS {
                break;
            }
        }
        if !reported && node.has_error() && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    out
}

/// Python's indentation rules over logical lines (lines inside brackets, strings and after a
/// backslash continue the previous one): a block opener (a line ending in `:`) must be
/// followed by a deeper line, other lines may not indent, and a dedent must return to an
/// enclosing level. Tabs advance to the next multiple of 8, as Python counts them.
fn python_indentation(source: &str) -> Vec<Problem> {
    let mut out = Vec::new();
    let mut levels: Vec<usize> = vec![0];
    let mut opener: Option<u32> = None;
    let mut scan = PyScan::default();
    for (i, line) in source.split('\n').enumerate() {
        let number = i as u32 + 1;
        let continued = scan.continues();
        let read = scan.line(line);
        if !continued && read.code {
            let width = line
                .chars()
                .take_while(|c| *c == ' ' || *c == '\t')
                .fold(0, |w, c| if c == '\t' { (w / 8 + 1) * 8 } else { w + 1 });
            let top = *levels.last().expect("level 0 stays");
            let mut problem = |message: String| {
                out.push(Problem {
                    start_line: number,
                    end_line: number,
                    column: 1,
                    message,
                })
            };
            if let Some(open) = opener.take() {
                if width > top {
                    levels.push(width);
                } else {
                    problem(format!("expected an indented block after line {open}"));
                }
            } else if width > top {
                problem("unexpected indent".to_string());
            } else if width < top {
                while levels.last().is_some_and(|&l| l > width) {
                    levels.pop();
                }
                if levels.last() != Some(&width) {
                    problem("unindent does not match any outer indentation level".to_string());
                    levels.push(width);
                }
            }
        }
        // A logical line that ends here with `:` opens a block.
        if !scan.continues() && read.last == Some(':') {
            opener = Some(number);
        }
    }
    out
}

/// One physical line as [`PyScan::line`] read it.
struct LineRead {
    /// It holds code (not only blanks, a comment, or the inside of a string).
    code: bool,
    /// Its last significant character outside strings and comments.
    last: Option<char>,
}

/// What continues across lines in Python source: brackets, strings, backslashes.
#[derive(Default)]
struct PyScan {
    depth: usize,
    /// The closing quote of a string still open (triple-quoted, or after a backslash).
    string: Option<&'static str>,
    backslash: bool,
}

impl PyScan {
    fn continues(&self) -> bool {
        self.depth > 0 || self.string.is_some() || self.backslash
    }

    /// Reads one line, carrying brackets, strings and backslashes over to the next.
    fn line(&mut self, line: &str) -> LineRead {
        self.backslash = false;
        let bytes = line.strip_suffix('\r').unwrap_or(line).as_bytes();
        let mut read = LineRead {
            code: false,
            last: None,
        };
        let mut i = 0;
        while i < bytes.len() {
            if let Some(close) = self.string {
                if bytes[i] == b'\\' {
                    i += 2;
                    continue;
                }
                if bytes[i..].starts_with(close.as_bytes()) {
                    self.string = None;
                    i += close.len();
                    read.last = Some('"');
                    continue;
                }
                i += 1;
                continue;
            }
            match bytes[i] {
                b'#' => break,
                b'\\' if i + 1 == bytes.len() => {
                    self.backslash = true;
                    break;
                }
                quote @ (b'"' | b'\'') => {
                    let three: &[u8] = if quote == b'"' { b"\"\"\"" } else { b"'''" };
                    let triple = bytes[i..].starts_with(three);
                    self.string = Some(match (quote, triple) {
                        (b'"', true) => "\"\"\"",
                        (b'"', false) => "\"",
                        (_, true) => "'''",
                        _ => "'",
                    });
                    read.code = true;
                    i += if triple { 3 } else { 1 };
                    continue;
                }
                b'(' | b'[' | b'{' => self.depth += 1,
                b')' | b']' | b'}' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            if !bytes[i].is_ascii_whitespace() {
                read.code = true;
                read.last = Some(bytes[i] as char);
            }
            i += 1;
        }
        // A one-quote string cannot span lines (without a backslash): close it.
        if matches!(self.string, Some("\"") | Some("'")) && !self.backslash {
            self.string = None;
        }
        if self.string.is_some() {
            read.last = None;
        }
        read
    }
}

fn shorten(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_edited_text_reparsed_incrementally_reads_like_a_fresh_parse() {
        let base: String = (0..300)
            .map(|n| format!("fn f{n}() -> u32 {{ {n} }}\n"))
            .collect();
        assert!(problems("inc.rs", Language::Rust, &base).is_empty());
        let broken = base.replace("fn f150() -> u32 { 150 }", "fn f150() -> u32 { (150 }");
        let found = problems("inc.rs", Language::Rust, &broken);
        assert_eq!(found.first().map(|p| p.start_line), Some(151), "{found:?}");
        let fixed = broken
            .replace("{ (150 }", "{ 150 + 1 }")
            .replace("fn f7()", "fn g7()");
        assert!(problems("inc.rs", Language::Rust, &fixed).is_empty());
        let fresh = super::super::parse(Language::Rust, &broken).unwrap();
        assert_eq!(
            tree_problems(&fresh, &broken),
            found,
            "the same as a parse from scratch"
        );
    }

    #[test]
    fn a_clean_file_has_no_problems() {
        assert!(problems("t", Language::Python, "def f():\n    return 1\n").is_empty());
        assert!(problems("t", Language::Rust, "fn f() -> u8 { 1 }\n").is_empty());
    }

    #[test]
    fn python_indentation_errors_are_problems() {
        let found = problems("t", Language::Python, "def f():\n    a = 1\n      b = 2\n");
        assert!(!found.is_empty(), "unexpected indent");
        assert_eq!(found[0].start_line, 3, "{found:?}");
        let found = problems("t", Language::Python, "def f():\nreturn 1\n");
        assert!(!found.is_empty(), "missing body: {found:?}");
        let found = problems("t", Language::Python, "if a:\n        b = 1\n    c = 2\n");
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].message.starts_with("unindent"), "{found:?}");
    }

    #[test]
    fn python_continuations_are_not_indentation() {
        let crlf = "def f():\r\n    return 1 + \\\r\n            2\r\n";
        assert!(problems("t", Language::Python, crlf).is_empty());
        let source = "x = f(1,\n      2)\ns = '''\n  text\n'''\ny = 1 + \\\n        2\nd = {\n  'a': 1,\n}\nif x:  # c\n    pass\nif (a\n        and b):\n    c = 'é “x” ’'\n";
        assert!(
            problems("t", Language::Python, source).is_empty(),
            "{:?}",
            problems("t", Language::Python, source)
        );
    }

    #[test]
    fn missing_and_unexpected_tokens_in_a_brace_language() {
        let found = problems("t", Language::Rust, "fn f() {\n    let x = (1 + 2;\n}\n");
        assert!(!found.is_empty());
        assert_eq!(found[0].start_line, 2, "{found:?}");
        let found = problems("t", Language::JavaScript, "function f() {\n  return 1;\n");
        assert!(
            found.iter().any(|p| p.message.starts_with("missing")),
            "{found:?}"
        );
    }
}
