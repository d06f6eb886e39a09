//! Rust items written inside a macro invocation at item level: `cfg_rt! { pub mod runtime; }`
//! (tokio's features), `trait_template! { pub trait Visitable { fn visit_map(&self) ->
//! Self::Map; } }` (petgraph declares its graph traits so), `proptest! { fn parses(..) {..} }`.
//! tree-sitter leaves a macro's body as tokens, so those traits, modules and functions were
//! no definitions, and no call on them could resolve. As rust-analyzer expands such a macro,
//! the index reads its body as items: over a view of the file in which everything outside
//! the bodies is blanked (the same length, lines and byte offsets, as
//! [`super::embedded`] does for scripts in markup), so every position taken from it holds
//! for the file itself.

use tree_sitter::{Node, Tree};

/// Keywords that open an item; a body holding one at its top level is read as items.
/// (`static` and `const` are left out: `lazy_static! { static ref X: T = .. }` is no item.)
const ITEM_KEYWORDS: &[&str] = &[
    "fn", "trait", "struct", "enum", "impl", "mod", "type", "union",
];

/// How many levels of item macros inside item macros are read.
pub const MAX_DEPTH: usize = 2;

/// Whether `invocation`, a `macro_invocation` node, is written where an item is (at a file's
/// or a module's top level, or in an `impl` or a trait) and its body holds items.
pub fn holds_items(invocation: Node) -> bool {
    let at_item_level = invocation
        .parent()
        .is_some_and(|p| matches!(p.kind(), "source_file" | "declaration_list"));
    let Some(body) = body(invocation) else {
        return false;
    };
    let mut walker = body.walk();
    let opens_an_item = body
        .children(&mut walker)
        .any(|t| ITEM_KEYWORDS.contains(&t.kind()));
    at_item_level && opens_an_item
}

/// The token tree a macro invocation's arguments are.
fn body(invocation: Node) -> Option<Node> {
    let mut walker = invocation.walk();
    invocation
        .children(&mut walker)
        .find(|c| c.kind() == "token_tree")
}

/// `source` with everything but the bodies of its item-holding macro invocations blanked
/// (newlines kept), or none when it has no such invocation. A body's own delimiters are
/// blanked, and so is a line a macro's private syntax opens with `@` (`@section type`, a
/// marker petgraph's template reads), which is no Rust.
pub fn view(tree: &Tree, source: &str) -> Option<String> {
    let mut bodies: Vec<(usize, usize)> = Vec::new();
    // A stack, not recursion: a hostile file may nest modules without end.
    let mut nodes = vec![tree.root_node()];
    while let Some(node) = nodes.pop() {
        let mut walker = node.walk();
        for child in node.named_children(&mut walker) {
            match child.kind() {
                "macro_invocation" if holds_items(child) => {
                    if let Some(b) = body(child)
                        && b.end_byte() >= b.start_byte() + 2
                    {
                        bodies.push((b.start_byte() + 1, b.end_byte() - 1));
                    }
                }
                "mod_item" | "impl_item" | "trait_item" | "declaration_list" => nodes.push(child),
                _ => {}
            }
        }
    }
    if bodies.is_empty() {
        return None;
    }
    let mut view: Vec<u8> = source
        .bytes()
        .map(|b| if b == b'\n' { b'\n' } else { b' ' })
        .collect();
    for (start, end) in bodies {
        let kept = &source.as_bytes()[start..end];
        view[start..end].copy_from_slice(kept);
        // A line opening with `@` (after indentation) is the macro's own syntax.
        let mut line_start = start;
        for i in start..=end {
            if i == end || source.as_bytes()[i] == b'\n' {
                let line = &source.as_bytes()[line_start..i];
                if line.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'@') {
                    for b in &mut view[line_start..i] {
                        *b = b' ';
                    }
                }
                line_start = i + 1;
            }
        }
    }
    // Only ASCII bytes were written over ASCII ones, or a body's own bytes copied whole, so
    // the view stays UTF-8: a multi-byte character outside the bodies became spaces, one
    // per byte.
    String::from_utf8(view).ok()
}

/// The macros written where an expression is (`assert_eq!(edges, set(g.edges().map(|e|
/// e.target())))`, `vec![..]`, `println!(..)`) whose arguments hold a closure (a `|`
/// token): tree-sitter leaves their arguments as tokens, so a closure's parameters there
/// had no type, while the calls inside are read from the tokens. The view blanks the file
/// but for each such macro's arguments, which it wraps in a function of their own (`fn
/// a(){` over the line's indentation and the macro's name, `}` after them): the arguments
/// parse as an expression, a tuple or an array, at the file's own offsets, and only they
/// are read again. None when the file has no such macro.
pub fn expression_view(tree: &Tree, source: &str) -> Option<String> {
    const OPEN: &[u8] = b"fn a(){";
    let bytes = source.as_bytes();
    let mut view: Vec<u8> = bytes
        .iter()
        .map(|&b| if b == b'\n' { b'\n' } else { b' ' })
        .collect();
    let mut wrapped = false;
    // A stack, not recursion: a hostile file may nest blocks without end.
    let mut nodes = vec![tree.root_node()];
    while let Some(node) = nodes.pop() {
        let mut walker = node.walk();
        for child in node.named_children(&mut walker) {
            if child.kind() != "macro_invocation" {
                nodes.push(child);
                continue;
            }
            let Some(arguments) = body(child) else {
                continue;
            };
            let (start, end) = (arguments.start_byte(), arguments.end_byte());
            let opens = bytes.get(start).copied();
            if holds_items(child) || !matches!(opens, Some(b'(' | b'[')) || !has_bar(arguments) {
                continue;
            }
            // The wrapper opens where the macro's line does and closes right after the
            // arguments: room for both, and none of it written yet (one macro a line).
            let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
            let room = start - line_start >= OPEN.len()
                && bytes.get(end).is_some_and(|&b| b != b'\n')
                && view[line_start..=end]
                    .iter()
                    .all(|&b| b == b' ' || b == b'\n');
            if !room {
                continue;
            }
            view[line_start..line_start + OPEN.len()].copy_from_slice(OPEN);
            view[start..end].copy_from_slice(&bytes[start..end]);
            view[end] = b'}';
            wrapped = true;
        }
    }
    if !wrapped {
        return None;
    }
    // ASCII bytes written over ASCII ones (a wrapper over a line's indentation and a
    // macro's name, a `}` over the byte after its arguments: a `)`, `;` or `,`), or the
    // arguments' own bytes copied whole, so the view stays UTF-8.
    String::from_utf8(view).ok()
}

/// Whether a token tree holds a `|` token, at any depth of its own token trees.
fn has_bar(tokens: Node) -> bool {
    let mut trees = vec![tokens];
    while let Some(tree) = trees.pop() {
        let mut walker = tree.walk();
        for t in tree.children(&mut walker) {
            match t.kind() {
                "|" => return true,
                "token_tree" => trees.push(t),
                _ => {}
            }
        }
    }
    false
}
