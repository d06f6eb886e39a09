//! A code parser from a tree-sitter grammar and one query (feature `tree-sitter`): what a
//! language plugin written in Rust needs beyond its grammar crate. The query's captures name
//! what they find, as the host's own languages do and as tree-sitter's `tags.scm` files do
//! (so a grammar's shipped tags query is a working start):
//!
//! - `@definition.<kind>` on a definition, with `@name` on its name and, optionally,
//!   `@container` on the name of what it belongs to when nesting does not say it
//!   (`def Foo.bar`); a definition nested in another gets that one as its container, and a
//!   function inside a class, module or struct becomes a method;
//! - `@doc` on its doc comment, when the query finds it; otherwise the comments right above
//!   the definition are its doc;
//! - `@call` on a callee's name with, optionally, `@receiver` on the object it is called on
//!   (or `@reference.call` on the call with `@name` on the callee, as `tags.scm` writes it);
//! - `@import` on what an import names (a path or a module, quotes dropped).

use crate::code::{Definition, DocComment, Reference, Structure};
use tree_sitter::{Node, Parser, Query, QueryCursor, StreamingIterator};
use tree_sitter_language::LanguageFn;

/// Node kinds that open a path through the code in most grammars: the cyclomatic part of a
/// complexity score. A language adds its own with [`Extractor::branches`].
const BRANCH_KINDS: &[&str] = &[
    "if",
    "if_statement",
    "if_expression",
    "elif_clause",
    "elsif",
    "elseif_clause",
    "else_if_clause",
    "unless",
    "for",
    "for_statement",
    "foreach_statement",
    "for_in_statement",
    "while",
    "while_statement",
    "until",
    "do_statement",
    "repeat_statement",
    "case_statement",
    "switch_section",
    "case_item",
    "when",
    "match_arm",
    "catch_clause",
    "rescue",
    "conditional",
    "conditional_expression",
    "ternary_expression",
    "binary_expression_and",
];

/// Longest signature kept, in characters.
const MAX_SIGNATURE_CHARS: usize = 200;
/// Longest receiver kept as written; a longer one is `?`.
const MAX_RECEIVER_CHARS: usize = 80;

/// An extractor built once per component instance: compiling a query against a large
/// grammar costs more than parsing a file (50-70 ms for C# or Ruby), and the host keeps an
/// instance for many files.
pub struct Cached(std::sync::OnceLock<Result<Extractor, String>>);

impl Cached {
    pub const fn new() -> Self {
        Self(std::sync::OnceLock::new())
    }

    /// The extractor, built by `build` on the first call.
    pub fn get(
        &self,
        build: impl FnOnce() -> Result<Extractor, String>,
    ) -> Result<&Extractor, String> {
        self.0.get_or_init(build).as_ref().map_err(Clone::clone)
    }
}

impl Default for Cached {
    fn default() -> Self {
        Self::new()
    }
}

/// A grammar and its compiled query, ready to extract files of one language.
pub struct Extractor {
    language: &'static str,
    /// The grammar as its crate exports it (`tree_sitter_ruby::LANGUAGE`): unlike a
    /// `tree_sitter::Language` on wasm it may live in a static.
    grammar: LanguageFn,
    query: Query,
    branches: &'static [&'static str],
    comment_prefixes: &'static [&'static str],
    qualifier: Option<&'static str>,
}

impl Extractor {
    /// Compiles `query` against `grammar`; the error names the query's mistake (a plugin's
    /// tests catch it before it ships).
    pub fn new(language: &'static str, grammar: LanguageFn, query: &str) -> Result<Self, String> {
        let query =
            Query::new(&grammar.into(), query).map_err(|e| format!("{language} query: {e}"))?;
        Ok(Self {
            language,
            grammar,
            query,
            branches: &[],
            comment_prefixes: &["///", "//!", "//", "/**", "/*", "#", "--", ";"],
            qualifier: None,
        })
    }

    /// Names written qualified with `separator` (Ruby's `class Rack::Builder`) are the last
    /// segment, and the rest is the container when the query and nesting name none.
    pub fn qualified_by(mut self, separator: &'static str) -> Self {
        self.qualifier = Some(separator);
        self
    }

    /// Node kinds of this grammar that count as branches, beyond the common ones.
    pub fn branches(mut self, kinds: &'static [&'static str]) -> Self {
        self.branches = kinds;
        self
    }

    /// The markers a doc comment's lines start with in this language, longest first
    /// (default: `///`, `//!`, `//`, `/**`, `/*`, `#`, `--`, `;`).
    pub fn comment_prefixes(mut self, prefixes: &'static [&'static str]) -> Self {
        self.comment_prefixes = prefixes;
        self
    }

    /// The structure of `source`. A file with syntax errors yields what tree-sitter
    /// recovered around them.
    pub fn extract(&self, source: &str) -> Structure {
        let mut parser = Parser::new();
        let mut out = Structure {
            language: self.language.to_string(),
            ..Structure::default()
        };
        if parser.set_language(&self.grammar.into()).is_err() {
            return out;
        }
        let Some(tree) = parser.parse(source, None) else {
            return out;
        };
        let names = self.query.capture_names();
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(&self.query, tree.root_node(), source.as_bytes());
        let mut defs: Vec<(Node, Definition)> = Vec::new();
        let mut call_at: std::collections::HashMap<usize, usize> = Default::default();
        while let Some(m) = matches.next() {
            let (mut def, mut name, mut container, mut doc) = (None, None, None, None);
            let (mut call, mut receiver, mut call_site) = (None, None, false);
            for capture in m.captures() {
                let node = capture.node;
                match names[capture.index as usize] {
                    "name" => name = Some(node),
                    "container" => container = Some(node),
                    "doc" => doc = Some(doc.map_or((node, node), |(first, _)| (first, node))),
                    "call" => call = Some(node),
                    "receiver" => receiver = Some(node),
                    "reference.call" => call_site = true,
                    "import" => {
                        // A whole statement captured (`import a.b.{C, D}`) is its path.
                        let raw = text(node, source).trim();
                        let raw = raw.strip_prefix("import ").unwrap_or(raw).trim();
                        let target = raw.trim_matches(|c| "\"'`<>".contains(c));
                        if !target.is_empty() {
                            out.imports.push(Reference {
                                name: target.to_string(),
                                line: line_of(node),
                                receiver: None,
                            });
                        }
                    }
                    other => {
                        if let Some(kind) = other.strip_prefix("definition.") {
                            def = Some((node, kind));
                        }
                    }
                }
            }
            let callee = call.or(if call_site { name } else { None });
            if let Some(node) = callee {
                let receiver = receiver.map(|r| receiver_text(text(r, source)));
                // Two patterns may find one call (`f(x)` alone and as `m:f(x)`): once, with
                // its receiver when one pattern saw it.
                match call_at.get(&node.id()) {
                    Some(&at) => {
                        if receiver.is_some() {
                            out.calls[at].receiver = receiver;
                        }
                    }
                    None => {
                        call_at.insert(node.id(), out.calls.len());
                        out.calls.push(Reference {
                            name: text(node, source).to_string(),
                            line: line_of(node),
                            receiver,
                        });
                    }
                }
                continue;
            }
            let (Some((node, kind)), Some(name_node)) = (def, name) else {
                continue;
            };
            // One definition may name several things (`attr_reader :a, :b`, `int a, b;`,
            // `case small, large`): one entry per name.
            if defs
                .iter()
                .any(|(n, d)| n.id() == node.id() && d.name == text(name_node, source).trim())
            {
                continue;
            }
            let mut name = text(name_node, source).trim();
            if name_node.kind().contains("symbol") {
                // Ruby's `attr_reader :items` defines `items`.
                name = name.trim_start_matches(':');
            }
            if name.is_empty() {
                continue;
            }
            let doc = match doc {
                Some((first, last)) => self.doc_from(first, last, source),
                None => self.doc_above(node, source),
            };
            let mut container = container.map(|c| text(c, source).trim().to_string());
            if let Some((qualifier, last)) = self.qualifier.and_then(|sep| name.rsplit_once(sep))
                && !last.is_empty()
            {
                name = last;
                if container.is_none() && !qualifier.is_empty() {
                    container = Some(qualifier.to_string());
                }
            }
            defs.push((
                node,
                Definition {
                    name: name.to_string(),
                    kind: kind.to_string(),
                    container,
                    start_line: line_of(node),
                    end_line: node.end_position().row as u32 + 1,
                    signature: signature(node, source),
                    doc,
                    branches: 0,
                },
            ));
        }
        defs.sort_by_key(|(n, _)| (n.start_byte(), std::cmp::Reverse(n.end_byte())));
        assign_containers(&mut defs);
        self.count_branches(tree.root_node(), &mut defs);
        out.definitions = defs.into_iter().map(|(_, d)| d).collect();
        out
    }

    /// The comments right above `def` (no blank line between them and it), as its doc. A
    /// definition that opens a body (Ruby's `module M # doc\n class C`) has its comments
    /// before that body, where the grammar put them.
    fn doc_above(&self, def: Node, source: &str) -> Option<DocComment> {
        let mut anchor = def;
        while anchor.prev_sibling().is_none()
            && let Some(parent) = anchor
                .parent()
                .filter(|p| p.start_byte() == anchor.start_byte())
        {
            anchor = parent;
        }
        let mut first = None;
        let mut next_row = def.start_position().row;
        let mut sibling = anchor.prev_sibling();
        while let Some(node) = sibling {
            // `comment`, `line_comment`, `documentation_comment`; F#'s `xml_doc`.
            let is_comment = node.kind().contains("comment") || node.kind().ends_with("_doc");
            if !is_comment || node.end_position().row + 1 < next_row {
                break;
            }
            first = Some(node);
            next_row = node.start_position().row;
            sibling = node.prev_sibling();
        }
        let first = first?;
        let last = anchor.prev_sibling()?;
        self.doc_from(first, last, source)
    }

    /// The text from `first` to `last` (comment nodes) with comment markers stripped.
    fn doc_from(&self, first: Node, last: Node, source: &str) -> Option<DocComment> {
        let raw = source.get(first.start_byte()..last.end_byte())?;
        let lines: Vec<String> = raw.lines().map(|l| self.strip_markers(l)).collect();
        let text = lines.join("\n").trim().to_string();
        (!text.is_empty()).then(|| DocComment {
            text,
            start_line: line_of(first),
            end_line: last.end_position().row as u32 + 1,
        })
    }

    fn strip_markers(&self, line: &str) -> String {
        let mut t = line.trim();
        if let Some(p) = self.comment_prefixes.iter().find(|p| t.starts_with(**p)) {
            t = &t[p.len()..];
            // A doc string (GraphQL's `"""`, a Lisp's `"`) closes with its opening quote.
            if p.starts_with('"') {
                t = t.trim_end().trim_end_matches(*p);
            }
        }
        // A block comment's close: C's `*/`, OCaml's `*)`, Haskell's `-}`.
        let t = t
            .trim_end_matches("*/")
            .trim_end_matches("*)")
            .trim_end_matches("-}")
            .trim();
        t.strip_prefix("* ")
            .or_else(|| t.strip_prefix('*'))
            .unwrap_or(t)
            .trim_end()
            .to_string()
    }

    /// Sets each definition's branch count: the branch nodes inside its byte range.
    fn count_branches(&self, root: Node, defs: &mut [(Node, Definition)]) {
        let mut starts = Vec::new();
        let mut cursor = root.walk();
        'walk: loop {
            let node = cursor.node();
            if BRANCH_KINDS.contains(&node.kind()) || self.branches.contains(&node.kind()) {
                starts.push(node.start_byte());
            }
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        for (node, def) in defs.iter_mut() {
            let from = starts.partition_point(|&b| b < node.start_byte());
            let to = starts.partition_point(|&b| b < node.end_byte());
            def.branches = (to - from) as u32;
        }
    }
}

/// Containers from nesting (the innermost definition that encloses another, not one that
/// shares its node: `attr_reader :a, :b` defines two siblings), functions inside types as
/// methods, and a function's own variables dropped (`let c = ...` in a body is no member).
fn assign_containers(defs: &mut Vec<(Node, Definition)>) {
    const TYPES: &[&str] = &[
        "class",
        "struct",
        "interface",
        "trait",
        "enum",
        "module",
        "object",
        "impl",
        "extension",
        "record",
    ];
    const BODIES: &[&str] = &["function", "method", "constructor", "destructor"];
    const VALUES: &[&str] = &["property", "variable", "value", "constant", "field"];
    let mut local = vec![false; defs.len()];
    // (start byte, end byte, name, kind)
    let mut stack: Vec<(usize, usize, String, String)> = Vec::new();
    for (i, (node, def)) in defs.iter_mut().enumerate() {
        while stack
            .last()
            .is_some_and(|(_, end, _, _)| node.start_byte() >= *end)
        {
            stack.pop();
        }
        let range = (node.start_byte(), node.end_byte());
        if let Some((_, _, name, kind)) = stack.iter().rev().find(|(s, e, _, _)| (*s, *e) != range)
        {
            if def.container.is_none() {
                def.container = Some(name.clone());
            }
            if def.kind == "function" && TYPES.contains(&kind.as_str()) {
                def.kind = "method".into();
            }
            local[i] = BODIES.contains(&kind.as_str()) && VALUES.contains(&def.kind.as_str());
        }
        stack.push((range.0, range.1, def.name.clone(), def.kind.clone()));
    }
    let mut local = local.into_iter();
    defs.retain(|_| !local.next().unwrap_or(false));
}

/// A receiver as written when it is a plain path (`self`, `Foo::Bar`, `$this`, `@client`),
/// else `?`.
fn receiver_text(raw: &str) -> String {
    // A qualifier written with its separator (Haskell's `Map.` in `Map.size`).
    let raw = raw.trim_end_matches(['.', ':']);
    let plain = !raw.is_empty()
        && raw.chars().count() <= MAX_RECEIVER_CHARS
        && raw
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '$' | '@' | '\\'));
    if plain {
        raw.to_string()
    } else {
        "?".to_string()
    }
}

/// A definition's declaration: its first line, or, when its parameters wrap onto more lines
/// before its body, its words up to the body, whitespace collapsed (a wrapped `fn f(\n
/// a: A,\n) -> R` is `fn f(a: A) -> R`: the return type is what a caller's variable
/// holds); without a trailing `{`, at most [`MAX_SIGNATURE_CHARS`] characters. A longer one
/// loses the parameters that do not fit, not what follows them (`def assemble(cls, *parts,
/// …) -> Text:`), so its return type is still read.
pub fn signature(node: Node, source: &str) -> String {
    let start = signature_start(node);
    let body = node
        .child_by_field_name("body")
        .filter(|b| b.start_position().row > node.start_position().row)
        .map(|b| b.start_byte())
        .filter(|&b| b > start);
    // Where the declaration's words end: at its body, else at the end of its first line,
    // unless a type alias's line ends in `=` (`pub type UnGraph<N, E> =` over two lines):
    // its value is what the alias means.
    let rest = source.get(start..node.end_byte()).unwrap_or_default();
    let first_line = rest.find('\n').unwrap_or(rest.len());
    let alias = matches!(
        node.kind(),
        "type_item" | "type_alias_declaration" | "type_alias"
    );
    let continued = alias && body.is_none() && rest[..first_line].trim_end().ends_with('=');
    let end = match (body, continued) {
        (Some(b), _) => b,
        (None, true) => node.end_byte(),
        (None, false) => start + first_line,
    };
    let words = |from: usize, to: usize| collapse(source.get(from..to).unwrap_or_default());
    let declared = match body.is_some() || continued {
        true => words(start, end),
        false => source
            .get(start..end)
            .unwrap_or_default()
            .trim()
            .to_string(),
    };
    let declared = declared.trim_end_matches('{').trim_end();
    if declared.chars().count() <= MAX_SIGNATURE_CHARS {
        return declared.to_string();
    }
    let parameters = node
        .child_by_field_name("parameters")
        .filter(|p| start <= p.start_byte() && p.end_byte() <= end);
    if let Some(parameters) = parameters {
        let head = words(start, parameters.start_byte());
        let tail = words(parameters.end_byte(), end);
        let tail = clip_chars(
            tail.trim_end_matches('{').trim_end(),
            MAX_SIGNATURE_CHARS / 2,
        );
        // One character for the space between the parameters and what follows them.
        let room =
            MAX_SIGNATURE_CHARS.saturating_sub(head.chars().count() + tail.chars().count() + 1);
        let kept = parameters_within(&words(parameters.start_byte(), parameters.end_byte()), room);
        if let Some(kept) = kept {
            let glue = if tail.is_empty() || tail.starts_with([':', ',']) {
                ""
            } else {
                " "
            };
            return format!("{head}{kept}{glue}{tail}");
        }
    }
    clip_chars(declared, MAX_SIGNATURE_CHARS)
}

/// Source text on one line: runs of whitespace as one space, none inside a group's edges.
fn collapse(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .replace("( ", "(")
        .replace(", )", ")")
        .replace(" )", ")")
}

/// `text`'s first `max` characters, `…` marking a cut.
fn clip_chars(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).collect();
    if text.chars().count() > max {
        out.push('…');
    }
    out
}

/// A parameter list `(a, b, c)` in at most `room` characters: whole when it fits, else the
/// whole parameters that fit, then `…)` (`(a, b, …)`); `None` when not even `(…)` fits. A
/// cut falls only between parameters, never inside a type's brackets, so what is kept still
/// reads as parameters.
fn parameters_within(list: &str, room: usize) -> Option<String> {
    const ELIDED: &str = ", …)";
    if list.chars().count() <= room {
        return Some(list.to_string());
    }
    if room < "(…)".chars().count() {
        return None;
    }
    let mut depth = 0i32;
    let mut kept = None;
    let mut before = ' ';
    let mut quoted = false;
    for (count, (at, c)) in list.char_indices().enumerate() {
        let arrow = c == '>' && matches!(before, '-' | '=');
        let escaped = before == '\\';
        before = c;
        if c == '"' && !escaped {
            quoted = !quoted;
        }
        if quoted {
            continue;
        }
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' if !arrow => depth -= 1,
            // The end of a whole parameter: keep it when it and the marker fit.
            ',' if depth == 1 => {
                if count + ELIDED.chars().count() > room {
                    break;
                }
                kept = Some(at);
            }
            _ => {}
        }
    }
    let open = list.chars().next()?;
    Some(match kept {
        Some(at) => format!("{}{ELIDED}", &list[..at]),
        None => format!("{open}…)"),
    })
}

/// Where a definition's own words start: after the attributes, annotations and decorators
/// written before them (Java's `@Override`, C#'s `[Fact]`, Kotlin's `@Test`, Swift's `@objc`,
/// PHP's `#[Route]`, TypeScript's `@Input()`), which say nothing of its name, parameters,
/// type or bases. The host reads its own languages' signatures by it too.
pub fn signature_start(node: Node) -> usize {
    const NOT_SIGNATURE: &[&str] = &[
        "attribute_list",
        "attributes",
        "attribute",
        "annotation",
        "marker_annotation",
        "decorator",
        "comment",
        "line_comment",
        "block_comment",
        "multiline_comment",
    ];
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if NOT_SIGNATURE.contains(&child.kind()) {
            continue;
        }
        if child.kind() == "modifiers" {
            let mut inner = child.walk();
            let first = child
                .children(&mut inner)
                .find(|c| !NOT_SIGNATURE.contains(&c.kind()));
            match first {
                Some(first) => return first.start_byte(),
                None => continue,
            }
        }
        return child.start_byte();
    }
    node.start_byte()
}

fn text<'s>(node: Node, source: &'s str) -> &'s str {
    node.utf8_text(source.as_bytes()).unwrap_or("")
}

fn line_of(node: Node) -> u32 {
    node.start_position().row as u32 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_parameter_list_is_cut_between_whole_parameters() {
        let list = "(a: Map<K, V>, f: Fn(u8) -> u8, s = \"x, (y\", b: int)";
        assert_eq!(
            parameters_within(list, 40).as_deref(),
            Some("(a: Map<K, V>, f: Fn(u8) -> u8, …)")
        );
        assert_eq!(
            parameters_within(list, 50).as_deref(),
            Some("(a: Map<K, V>, f: Fn(u8) -> u8, s = \"x, (y\", …)")
        );
        assert_eq!(parameters_within(list, 10).as_deref(), Some("(…)"));
        assert_eq!(parameters_within("(self)", 10).as_deref(), Some("(self)"));
        assert_eq!(parameters_within(list, 52).as_deref(), Some(list));
        assert_eq!(parameters_within(list, 2), None);
    }

    #[test]
    fn receivers_are_plain_paths_or_unknown() {
        assert_eq!(receiver_text("self"), "self");
        assert_eq!(receiver_text("Foo::Bar"), "Foo::Bar");
        assert_eq!(receiver_text("$this"), "$this");
        assert_eq!(receiver_text("foo(1).bar"), "?");
        assert_eq!(receiver_text(&"a".repeat(81)), "?");
    }
}
