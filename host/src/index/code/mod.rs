//! Code structure by tree-sitter: definitions (kind, name, container, range, signature), doc
//! comments, imports and call sites, for the languages in [`languages`]. One pass of one
//! query per file; nesting gives containers.

pub mod embedded;
pub mod jsdoc;
pub mod languages;
mod macro_items;
pub mod skeleton;
pub mod syntax;
pub mod types;

pub use languages::Language;
pub use types::Typed;

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use tree_sitter::{Node, Parser, QueryCursor, StreamingIterator, Tree};

/// A definition found in a source file. Lines are 1-based and inclusive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    /// function, method, class, struct, enum, trait, interface, impl, module, type, ...
    pub kind: String,
    /// The enclosing definition's name (`impl Foo`, class `Bar`), if any.
    pub container: Option<String>,
    pub start_line: u32,
    pub end_line: u32,
    /// The declaration's first line, trimmed.
    pub signature: String,
    /// The doc comment or docstring, markers stripped.
    pub doc: Option<Doc>,
    /// Branch points inside it (if, loop, case, catch, conditional and boolean operators),
    /// nested definitions included: the cyclomatic part of a complexity score.
    pub branches: u32,
}

impl Symbol {
    /// A JavaScript function the file gives prototype methods, outlined as a class
    /// (`function Runner(suite) {..}` beside `Runner.prototype.run = function () {..}`).
    pub fn is_constructor_function(&self) -> bool {
        self.kind == "class"
            && self
                .signature
                .split('(')
                .next()
                .is_some_and(|head| head.split_whitespace().any(|w| w == "function"))
    }
}

/// A doc comment and where it sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doc {
    pub text: String,
    pub start_line: u32,
    pub end_line: u32,
}

/// A use of another module or of a callable, by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edge {
    /// For imports the module path as written (`django.db.models`, `./util`, `stdio.h`);
    /// for calls the callee's name.
    pub name: String,
    pub line: u32,
    /// For a call through an object or a path, that object as written, clipped (`self`,
    /// `os.path`, `Foo`); `?` when it is not a plain name or path. None for plain calls and
    /// imports. A function named as a value opens it with [`NAMED_AS_VALUE`].
    pub receiver: Option<String>,
}

/// What the receiver of a call [`Edge`] opens with when no call is written but a function or
/// method is named as a value (Go's `getFlagType(name, "int32", int32Conv)`, `fnc:
/// FilterValues`, `Comparer(a.compare)`), which gopls lists among the calls of what it
/// names: `^` alone for a bare name, `^a` through `a`. Such a reference links only to a
/// function or method it resolves to surely, never by its name alone.
pub const NAMED_AS_VALUE: char = '^';

/// A local name bound to an imported definition under another name (`from m import a as
/// b`, `use m::a as b`, `import { a as b } from "m"`): calls to `b` are calls to `a`, found
/// through the import on the same line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alias {
    /// The definition's own name (`a`).
    pub name: String,
    /// The name the file uses (`b`).
    pub local: String,
    pub line: u32,
}

/// Both names of the alias a star import records (`from m import *`, `export * from
/// './m'`, `use m::*`): its line binds every public top-level name of the modules it
/// resolves to.
pub const STAR: &str = "*";

/// Everything extracted from one file.
#[derive(Debug, Default, Clone)]
pub struct Extraction {
    /// In source order, containers before their members.
    pub symbols: Vec<Symbol>,
    pub imports: Vec<Edge>,
    pub calls: Vec<Edge>,
    pub aliases: Vec<Alias>,
    /// Names with the type the file gives them: what calls on them mean.
    pub types: Vec<Typed>,
}

/// The innermost of `symbols` whose lines hold `line`: the definition a name typed there
/// belongs to (of two on the same lines, not a constant: see [`holds_nothing`]).
pub fn innermost(symbols: &[Symbol], line: u32) -> Option<&Symbol> {
    symbols
        .iter()
        .filter(|s| s.start_line <= line && line <= s.end_line)
        .min_by_key(|s| (s.end_line - s.start_line, holds_nothing(&s.kind)))
}

/// Whether a definition of `kind` holds nothing of its own: a constant. The methods of a Java
/// enum constant's body override the enum's and are the enum's members, and of two
/// definitions on the same lines the constant gives way (a one-line body, `ADD { int apply(..)
/// { return add(a, b); } },`, calls from its method).
pub fn holds_nothing(kind: &str) -> bool {
    kind == "const"
}

/// Parses `source` and extracts its structure. A file tree-sitter cannot parse yields what it
/// could recover (tree-sitter always produces a tree; error nodes are skipped).
pub fn extract(lang: Language, source: &str) -> Extraction {
    match parse(lang, source) {
        Some(tree) => extract_tree(lang, source, &tree),
        None => Extraction::default(),
    }
}

/// [`extract`] for the file at `path`: a module a type names by a relative path (JSDoc's
/// `import('../core/request.js')`) is anchored at the tree's root (`~/lib/core/request.js`),
/// so it means the same module wherever a field or a declared return carries the type.
pub fn extract_file(lang: Language, path: &str, source: &str) -> Extraction {
    let mut x = extract(lang, source);
    anchor_modules(&mut x.types, path);
    x
}

/// Anchors at the tree's root each module `types` name by a path relative to `path`'s file
/// (see [`types::MODULE_VALUE`]).
pub fn anchor_modules(types: &mut [Typed], path: &str) {
    for t in types {
        if let Some(spec) = t.type_name.strip_prefix(types::MODULE_VALUE)
            && spec.starts_with('.')
        {
            let anchored = super::resolve::anchored(path, spec);
            t.type_name = format!("{}/{anchored}", types::MODULE_VALUE);
        }
    }
}

/// [`extract`] from `tree`, `source`'s tree parsed already.
pub fn extract_tree(lang: Language, source: &str, tree: &Tree) -> Extraction {
    extract_tree_at(lang, source, tree, 0)
}

/// [`extract_tree`], `depth` levels of Rust item macros deep (see [`macro_items`]).
fn extract_tree_at(lang: Language, source: &str, tree: &Tree, depth: usize) -> Extraction {
    let reads_macro_items = lang == Language::Rust && depth < macro_items::MAX_DEPTH;
    let query = lang.query();
    let names = query.capture_names();
    let mut cursor = QueryCursor::new();
    let mut matches = cursor.matches(query, tree.root_node(), source.as_bytes());
    let mut out = Extraction::default();
    let mut defs: Vec<(Node, Symbol)> = Vec::new();
    // The names each Go function binds itself, read once per function (see
    // [`bound_in_function`]).
    let mut bound_names: HashMap<usize, HashSet<String>> = HashMap::new();
    let mut go_functions: Option<Vec<Node>> = None;
    // Fields assigned a name (`self.app = app`): typed once every name's type is known.
    let mut copies: Vec<(Node, String, &str)> = Vec::new();
    // Tuple patterns of loops over enumerated or zipped sequences (see [`paired`]).
    let mut loops_over_pairs: Vec<(Node, Node)> = Vec::new();
    while let Some(m) = matches.next() {
        let (mut def, mut name, mut container) = (None, None, None);
        let (mut call, mut receiver) = (None, None);
        // A call or a field named by a constant's value (`this[kClose]()`, `this[kAgent] =
        // ..`), as JavaScript's computed members are: `[kClose]`, as the member is defined.
        let mut computed = false;
        // A typed name: (node, is a field), its type as written, or a constructor path.
        let (mut bound, mut bound_type, mut ctor, mut own) = (None, None, None, true);
        // What the bound name ranges over (Go's `for _, x := range r.items`).
        let mut element_of = None;
        // The name a field is assigned from (`self.app = app`).
        let mut copied_from = None;
        // The enum variant whose pattern binds the name (`Raw(x) =>`).
        let mut variant = None;
        // The method whose result the name is assigned (`m = ig.matched(p)`).
        let mut called = None;
        // The path whose value the name is assigned (`route := test.route`).
        let mut path = None;
        // A field without a name, embedding its type (Go's `struct { routeConf }`).
        let mut embeds = false;
        // The names a call's value is unpacked into (`a, b = f()`).
        let mut unpack = None;
        // The tuple written whole for them (Rust's `let (a, b) = (x, self.flags());`).
        let mut tuple = None;
        // A loop's tuple pattern over an enumerated or zipped sequence (`for (i, e) in ..`).
        let mut pairs = None;
        // The doc comment stating the bound name's type (`/** @type {Client} */`).
        let mut jsdoc = None;
        // An object pattern a path's value is destructured into (`const { a, b } = this`).
        let mut destructure = None;
        // A constructor function given a base apart (`inherits(NyanCat, Base)`).
        let (mut subclass, mut base) = (None, None);
        // Go's variadic parameter (`paths ...Path`): a slice of its type.
        let mut variadic = false;
        // A function named as a value, not called (see [`NAMED_AS_VALUE`]).
        let mut as_value = false;
        // The wrapper a Rust pattern takes the name out of (`if let Some(x) = ..`), or a
        // value a `let` takes out with `?`.
        let (mut wrapper, mut tried) = (None, false);
        for capture in m.captures() {
            let capture_name = names[capture.index as usize];
            let node = capture.node;
            match capture_name {
                "bind.callback" => callback_parameters(node, source, &mut out.types),
                "bind.closure" => element_closure(node, source, &mut out.types),
                "bind.exported" => out.types.push(Typed {
                    name: types::MODULE_EXPORTS.to_string(),
                    type_name: text(node, source).to_string(),
                    field: false,
                    line: line_of(node),
                    until: None,
                }),
                // An item macro's body is read as items below, its calls with them.
                "macro.arguments"
                    if reads_macro_items && node.parent().is_some_and(macro_items::holds_items) => {
                }
                "macro.arguments" => macro_calls(node, source, &mut out.calls),
                "bind.name" => bound = Some((node, false)),
                "bind.field" => bound = Some((node, true)),
                "bind.field.computed" => (bound, computed) = (Some((node, true)), true),
                "bind.embed" => {
                    (bound, bound_type, embeds) = (Some((node, true)), Some(node), true);
                }
                "bind.type" => bound_type = Some(node),
                "bind.variadic" => (bound_type, variadic) = (Some(node), true),
                "bind.ctor" => ctor = Some(node),
                "bind.elem" => element_of = Some(node),
                "bind.variant" => variant = Some(node),
                "bind.wrapper" => wrapper = Some(node),
                "bind.tried" => tried = true,
                "bind.call" => called = Some(node),
                "bind.from" => copied_from = Some(node),
                "bind.path" => path = Some(node),
                "bind.unpack" => unpack = Some(node),
                "bind.pairs" => pairs = Some(node),
                "bind.tuple" => tuple = Some(node),
                // A comment ending another line's code (`f() /** @type {B} */`) is that
                // code's, not the declaration's below it.
                "bind.jsdoc" => jsdoc = Some(node).filter(|c| opens_its_line(*c, source)),
                "bind.destructure" => destructure = Some(node),
                "bind.subclass" => subclass = Some(node),
                "bind.base" => base = Some(node),
                // `self.x = ...` / `this.x = ...`: another object's field is not typed here.
                "bind.self" => own = matches!(text(node, source), "self" | "this"),
                "name" => name = Some(node),
                "container" => container = Some(node),
                "call" => call = Some(node),
                "call.value" => (call, as_value) = (Some(node), true),
                "call.computed" => (call, computed) = (Some(node), true),
                "receiver" => receiver = Some(node),
                "import" => {
                    out.imports.extend(import_names(lang, node, source));
                    out.aliases.extend(import_aliases(lang, node, source));
                }
                other => {
                    if let Some(kind) = other.strip_prefix("definition.") {
                        def = Some((node, kind));
                    }
                }
            }
        }
        // `Some(x)` and `Ok(x)` hold the one value an `Option` or a `Result` wraps, which
        // its type already names (`Option<Foo>` is read as `Foo`); another variant's
        // payload is its enum's (`bind.variant`).
        if wrapper.is_some_and(|w| !matches!(text(w, source), "Some" | "Ok")) {
            continue;
        }
        // `if let Some(x) = x`, `while let Some(node) = node.next`: a name read through
        // itself gets no binding from it (which would resolve through itself without end).
        if wrapper.is_some()
            && let Some((name, _)) = bound
            && let Some(value) = path.or(called)
            && text(value, source).split(['.', ':']).next() == Some(text(name, source))
        {
            continue;
        }
        if let (Some(class), Some(base)) = (subclass, base) {
            out.types.push(Typed {
                name: format!("{}{}", types::INHERITS, text(class, source)),
                type_name: text(base, source).to_string(),
                field: false,
                line: line_of(class),
                until: None,
            });
            continue;
        }
        if let (Some(pattern), Some(value)) = (destructure, path) {
            out.types
                .extend(destructured(pattern, text(value, source), source));
            continue;
        }
        if let (Some(pattern), Some(over)) = (pairs, element_of) {
            // Read once the file's own names are known (a `def zip` of its own).
            loops_over_pairs.push((pattern, over));
            continue;
        }
        // Go's first name is bound by the rules for one name (`x, err := NewX()` makes `x`
        // what `NewX` returns first): the unpacking adds the others.
        let first = usize::from(lang == Language::Go);
        if let (Some(pattern), Some(tuple)) = (unpack, tuple) {
            out.types.extend(
                tuple_bound(lang, pattern, tuple, source)
                    .into_iter()
                    .filter(|(index, _)| *index >= first)
                    .map(|(_, typed)| typed),
            );
            continue;
        }
        if let Some(pattern) = unpack {
            let value = match (called, bound_type) {
                (Some(c), _) => call_value(lang, text(c, source)),
                (None, Some(t)) => bound_type_name(lang, text(t, source)),
                (None, None) => None,
            };
            if let Some(value) = value {
                out.types.extend(
                    unpacked(pattern, &value, source)
                        .into_iter()
                        .filter(|(index, _)| *index >= first)
                        .map(|(_, typed)| typed),
                );
            }
            continue;
        }
        let written = |node: Node| match computed {
            true => format!("[{}]", text(node, source)),
            false => text(node, source).to_string(),
        };
        if let (Some((node, true)), true, Some(from)) = (bound, own, copied_from) {
            copies.push((node, written(node), text(from, source)));
            continue;
        }
        if let (Some((node, field)), true) = (bound, own) {
            let type_name = match (bound_type, ctor, element_of) {
                // JSDoc states types in plain JavaScript only; TypeScript reads its own.
                _ if jsdoc.is_some() => jsdoc
                    .filter(|_| states_jsdoc_types(lang))
                    .and_then(|c| declared_in_jsdoc(text(c, source))),
                _ if variant.is_some() => variant.and_then(|v| variant_path(text(v, source))),
                _ if called.is_some() => called.and_then(|c| call_value(lang, text(c, source))),
                _ if path.is_some() => path.and_then(|p| path_value(text(p, source))),
                (Some(t), _, _) => match go_made_by_new(lang, t, source) {
                    Some(made) => bound_type_name(lang, made),
                    None => match associated_call(lang, t, source) {
                        Some(value) => Some(value),
                        None => bound_type_name(lang, text(t, source)),
                    },
                },
                // `Map::<K, V>::new()` makes a `Map`.
                (None, Some(c), _) => types::constructed_by(&without_turbofish(text(c, source))),
                (None, None, Some(over)) if lang == Language::Rust => rust_ranged(over, source),
                (None, None, Some(over)) => element_of_path(over, source),
                (None, None, None) => None,
            };
            let type_name = match variadic {
                true => type_name.map(|t| format!("{}{t}", types::ELEMENTS)),
                false => type_name,
            };
            // `if let Some(x) = ..`, `let x = f()?`: what the `Option` or `Result` holds.
            let type_name = match wrapper.is_some() || tried {
                true => type_name.map(|t| format!("{}{t}", types::SOME_OF)),
                false => type_name,
            };
            if let Some(type_name) = type_name {
                out.types.push(Typed {
                    name: match embeds {
                        true => format!("{}{type_name}", types::EMBEDDED),
                        false => written(node),
                    },
                    type_name,
                    field,
                    line: line_of(node),
                    until: if field { None } else { scope_end(node) },
                });
            }
            continue;
        }
        if let Some(node) = call {
            let receiver = receiver.map(|r| receiver_text(lang, text(r, source)));
            let receiver = match as_value {
                // A name the function binds itself (a parameter, a local) names no function.
                true if receiver.is_none()
                    && bound_in_function(
                        node,
                        source,
                        go_functions.get_or_insert_with(|| go_top_functions(tree.root_node())),
                        &mut bound_names,
                    ) =>
                {
                    continue;
                }
                true => Some(format!("{NAMED_AS_VALUE}{}", receiver.unwrap_or_default())),
                false => receiver,
            };
            out.calls.push(Edge {
                name: written(node),
                line: line_of(node),
                receiver,
            });
        }
        if let (Some((node, kind)), Some(name)) = (def, name) {
            if defs.iter().any(|(n, _)| n.id() == node.id()) {
                continue;
            }
            let (name, qualifier) = split_qualified(lang, name, source);
            defs.push((
                node,
                Symbol {
                    name,
                    kind: refine_kind(lang, node, kind).to_string(),
                    container: container.map(|c| text(c, source).to_string()).or(qualifier),
                    start_line: line_of(node),
                    end_line: node.end_position().row as u32 + 1,
                    signature: sdk::syntax::signature(node, source),
                    doc: doc_comment(lang, node, source),
                    branches: 0,
                },
            ));
        }
    }
    defs.sort_by_key(|(n, _)| (n.start_byte(), std::cmp::Reverse(n.end_byte())));
    assign_containers(&mut defs);
    if matches!(
        lang,
        Language::JavaScript | Language::TypeScript | Language::Tsx | Language::Html
    ) {
        constructor_functions_as_classes(&mut defs);
    }
    count_branches(tree.root_node(), &mut defs);
    out.symbols = defs.into_iter().map(|(_, s)| s).collect();
    if states_jsdoc_types(lang) {
        jsdoc_signatures(&mut out);
    }
    type_copied_fields(&mut out, &copies);
    // Python's `enumerate` and `zip` are the builtins unless the file binds the name itself
    // (`def zip(..)`, `from util import zip`, `import x as zip`).
    let binds = |name: &str| {
        out.symbols.iter().any(|s| s.name == name)
            || out.aliases.iter().any(|a| a.local == name)
            || out
                .imports
                .iter()
                .any(|i| i.name.rsplit(['.', ':']).next() == Some(name))
    };
    let shadowed: HashSet<&str> = ["enumerate", "zip"]
        .into_iter()
        .filter(|name| lang == Language::Python && binds(name))
        .collect();
    for (pattern, over) in loops_over_pairs {
        let found = paired(lang, pattern, over, source, None, &shadowed);
        out.types.extend(found);
    }
    if lang == Language::Rust {
        tuple_fields(tree.root_node(), source, &mut out.types);
    }
    let view = reads_macro_items
        .then(|| macro_items::view(tree, source))
        .flatten();
    let inner = view.as_deref().and_then(|v| parse(lang, v));
    if lang == Language::Rust {
        // The traits a macro declares (`trait_template! { pub trait IntoEdgeReferences .. }`)
        // bind the associated types of the file's own traits and `impl`s as well.
        let mut roots = vec![(tree.root_node(), source)];
        if let (Some(view), Some(inner)) = (view.as_deref(), inner.as_ref()) {
            roots.push((inner.root_node(), view));
        }
        associated_returns(&roots, &mut out.types);
    }
    if let (Some(view), Some(inner)) = (view.as_deref(), inner.as_ref()) {
        let items = extract_tree_at(lang, view, inner, depth + 1);
        merge_macro_items(&mut out, items);
    }
    // The types of the names a closure in a macro's arguments binds (`assert_eq!(..,
    // g.edges().map(|e| e.target()))`), read once, from the file's own level: the view
    // holds only those arguments.
    if lang == Language::Rust
        && depth == 0
        && let Some(view) = macro_items::expression_view(tree, source)
        && let Some(inner) = parse(lang, &view)
    {
        let read = extract_tree_at(lang, &view, &inner, macro_items::MAX_DEPTH);
        out.types.extend(read.types);
    }
    out
}

/// The fields of each Rust tuple struct (`struct NodeFiltered<G, F>(pub G, pub F);`) by
/// position, `0` and `1`, as `self.1.include_node(..)` reaches them.
fn tuple_fields(root: Node, source: &str, out: &mut Vec<Typed>) {
    // A stack, not recursion: a hostile file may nest modules without end.
    let mut nodes = vec![root];
    while let Some(node) = nodes.pop() {
        let mut walker = node.walk();
        for child in node.named_children(&mut walker) {
            match child.kind() {
                "struct_item" => {
                    let Some(body) = child.child_by_field_name("body") else {
                        continue;
                    };
                    if body.kind() != "ordered_field_declaration_list" {
                        continue;
                    }
                    let mut fields = body.walk();
                    let written = body.children_by_field_name("type", &mut fields);
                    for (position, written) in written.enumerate() {
                        if let Some(type_name) = types::rust_type_name(text(written, source)) {
                            out.push(Typed {
                                name: position.to_string(),
                                type_name,
                                field: true,
                                line: line_of(written),
                                until: None,
                            });
                        }
                    }
                }
                "mod_item" | "declaration_list" => nodes.push(child),
                _ => {}
            }
        }
    }
}

/// The type each Rust trait or `impl` method declared to return one of its associated types
/// (`fn visit_map(&self) -> Self::Map`) returns, as a [`types::RETURNED`] entry on its first
/// line: in a trait, the type the associated type is bound by (`type Map: VisitMap<..>`,
/// so `g.visit_map().is_visited(..)` is `VisitMap::is_visited` for any `G: Visitable`); in an
/// `impl`, the type it is (`type Map = FixedBitSet`). An iterator of another associated type
/// (`type Edges: Iterator<Item = Self::EdgeRef>`) iterates over what that one is, in the
/// trait or a supertrait the file declares (`trait IntoEdges: IntoEdgeReferences`).
fn associated_returns(roots: &[(Node, &str)], out: &mut Vec<Typed>) {
    type Declared<'s> = (Vec<&'s str>, HashMap<&'s str, String>);
    let mut bodies: Vec<(Option<&str>, Node, usize)> = Vec::new();
    // Each trait of the file, by the tree it is in: its supertraits and associated types.
    let mut traits: HashMap<&str, Vec<(usize, Declared)>> = HashMap::new();
    // A stack, not recursion: a hostile file may nest modules without end.
    let mut nodes: Vec<(Node, usize)> = roots
        .iter()
        .enumerate()
        .map(|(r, (node, _))| (*node, r))
        .collect();
    while let Some((node, root)) = nodes.pop() {
        let source = roots[root].1;
        let mut walker = node.walk();
        for child in node.named_children(&mut walker) {
            match child.kind() {
                "trait_item" | "impl_item" => {
                    let Some(body) = child.child_by_field_name("body") else {
                        continue;
                    };
                    let name = (child.kind() == "trait_item")
                        .then(|| child.child_by_field_name("name"))
                        .flatten()
                        .map(|n| text(n, source));
                    if let Some(name) = name {
                        traits.entry(name).or_default().push((
                            root,
                            (supertraits(child, source), associated_in(body, source)),
                        ));
                    }
                    bodies.push((name, body, root));
                }
                "mod_item" | "declaration_list" => nodes.push((child, root)),
                _ => {}
            }
        }
    }
    // A trait of the body's own tree before one of the name in another (a `#[cfg]`
    // alternative inside a macro).
    let trait_named = |root: usize, name: &str| -> Option<&Declared> {
        let found = traits.get(name)?;
        let own = found.iter().find(|(r, _)| *r == root);
        own.or(found.first()).map(|(_, declared)| declared)
    };
    for (name, body, root) in bodies {
        let source = roots[root].1;
        let own = match name.and_then(|n| trait_named(root, n)) {
            Some((_, own)) => own.clone(),
            None => associated_in(body, source),
        };
        if own.is_empty() {
            continue;
        }
        // `Self::X` as this trait, then its supertraits (three levels up), bind it.
        let bound = |x: &str| -> Option<&String> {
            let mut level: Vec<&str> = name.into_iter().collect();
            let mut seen: HashSet<&str> = HashSet::new();
            for _ in 0..3 {
                let mut next = Vec::new();
                // A few dozen traits at most: a hostile file's supertraits without end
                // are no work per method.
                for t in level.into_iter().filter(|t| seen.insert(t)).take(64) {
                    let Some((supers, types)) = trait_named(root, t) else {
                        continue;
                    };
                    if let Some(found) = types.get(x) {
                        return Some(found);
                    }
                    next.extend(supers.iter().copied());
                }
                level = next;
            }
            None
        };
        let returned = |type_name: &String| -> Option<String> {
            let Some(other) = type_name
                .strip_prefix(types::ELEMENTS)
                .and_then(|e| e.strip_prefix("Self::"))
            else {
                return Some(type_name.clone());
            };
            own.get(other)
                .or_else(|| bound(other))
                .filter(|t| !t.starts_with(types::ELEMENTS) && !t.contains("::"))
                .map(|t| format!("{}{t}", types::ELEMENTS))
        };
        let mut walker = body.walk();
        for item in body.named_children(&mut walker) {
            if !matches!(item.kind(), "function_item" | "function_signature_item") {
                continue;
            }
            let Some(written) = item.child_by_field_name("return_type") else {
                continue;
            };
            let Some(x) = types::associated_path(text(written, source)) else {
                continue;
            };
            if let Some(type_name) = own.get(x).and_then(returned) {
                out.push(Typed {
                    name: types::RETURNED.to_string(),
                    type_name,
                    field: false,
                    line: line_of(item),
                    until: None,
                });
            }
        }
    }
}

/// The traits a Rust trait declaration names as its supertraits (`trait IntoEdges:
/// IntoEdgeReferences + IntoNeighbors`), by their last name.
fn supertraits<'s>(declaration: Node, source: &'s str) -> Vec<&'s str> {
    let Some(bounds) = declaration.child_by_field_name("bounds") else {
        return Vec::new();
    };
    let mut walker = bounds.walk();
    bounds
        .named_children(&mut walker)
        .map(|b| {
            let written = text(b, source);
            let path = written.split('<').next().unwrap_or(written).trim();
            path.rsplit("::").next().unwrap_or(path)
        })
        .collect()
}

/// The associated types a trait's or `impl`'s body declares: bound (`type Map: VisitMap<N>`,
/// its first bound) or set (`type Map = FixedBitSet`), as [`types::rust_type_name`] reads them.
fn associated_in<'s>(body: Node, source: &'s str) -> HashMap<&'s str, String> {
    let mut associated = HashMap::new();
    let mut walker = body.walk();
    for item in body.named_children(&mut walker) {
        let (name, stated) = match item.kind() {
            "associated_type" => (
                item.child_by_field_name("name"),
                item.child_by_field_name("bounds")
                    .and_then(|b| b.named_child(0)),
            ),
            "type_item" => (
                item.child_by_field_name("name"),
                item.child_by_field_name("type"),
            ),
            _ => continue,
        };
        if let (Some(name), Some(stated)) = (name, stated)
            && let Some(type_name) = types::rust_type_name(text(stated, source))
        {
            associated.insert(text(name, source), type_name);
        }
    }
    associated
}

/// Adds what an item macro's body holds (see [`macro_items`]) to the file's own: an item
/// without a container of its own is the enclosing module's, trait's or `impl`'s (`mod
/// tests { proptest! { fn f() } }` as `mod tests { fn f() }`; a function of a trait or an
/// `impl` is its method), and the symbols stay in source order.
fn merge_macro_items(out: &mut Extraction, items: Extraction) {
    let outer: Vec<(u32, u32, String, bool)> = out
        .symbols
        .iter()
        .filter(|s| matches!(s.kind.as_str(), "module" | "trait" | "impl"))
        .map(|s| (s.start_line, s.end_line, s.name.clone(), s.kind != "module"))
        .collect();
    for mut symbol in items.symbols {
        if symbol.container.is_none()
            && let Some((_, _, name, of_a_type)) = outer
                .iter()
                .filter(|(start, end, ..)| *start <= symbol.start_line && symbol.end_line <= *end)
                .min_by_key(|(start, end, ..)| end - start)
        {
            symbol.container = Some(name.clone());
            if *of_a_type && symbol.kind == "function" {
                symbol.kind = "method".to_string();
            }
        }
        out.symbols.push(symbol);
    }
    out.symbols
        .sort_by_key(|s| (s.start_line, std::cmp::Reverse(s.end_line)));
    out.imports.extend(items.imports);
    out.calls.extend(items.calls);
    out.aliases.extend(items.aliases);
    // What a method of a macro's trait returns, the file's own pass stated already, with
    // the traits outside the macro in view too.
    let returned: HashSet<u32> = out
        .types
        .iter()
        .filter(|t| t.name == types::RETURNED)
        .map(|t| t.line)
        .collect();
    out.types.extend(
        items
            .types
            .into_iter()
            .filter(|t| t.name != types::RETURNED || !returned.contains(&t.line)),
    );
}

/// Whether nothing but indentation precedes `node` on its line.
fn opens_its_line(node: Node, source: &str) -> bool {
    let before = &source[..node.start_byte()];
    before
        .rsplit('\n')
        .next()
        .is_none_or(|line| line.trim().is_empty())
}

/// Whether the language states types in JSDoc comments (plain JavaScript, as TypeScript's
/// checker reads a `.js` file; a `.ts` file's JSDoc types are not read).
fn states_jsdoc_types(lang: Language) -> bool {
    matches!(lang, Language::JavaScript | Language::Html)
}

/// The type a `/** @type {T} */` comment gives the name declared below it.
fn declared_in_jsdoc(comment: &str) -> Option<String> {
    if !comment.starts_with("/**") {
        return None;
    }
    jsdoc::tags(comment)
        .into_iter()
        .find(|(stated, _)| *stated == jsdoc::Stated::Declared)
        .and_then(|(_, written)| jsdoc::type_name(written))
}

/// The types each function's JSDoc states (`@param {Headers} headers`, `@returns
/// {HeadersList}`): its parameters', held through its body, and what it returns (a
/// [`types::RETURNED`] name on its first line).
fn jsdoc_signatures(out: &mut Extraction) {
    for s in &out.symbols {
        let Some(doc) = &s.doc else { continue };
        let function = matches!(s.kind.as_str(), "function" | "method" | "constructor")
            || s.is_constructor_function();
        if !function {
            continue;
        }
        for (stated, written) in jsdoc::tags(&doc.text) {
            let (name, type_name) = match stated {
                jsdoc::Stated::Parameter(name) => {
                    let Some(name) = jsdoc::bound_parameter(name, &s.signature) else {
                        continue;
                    };
                    (name, jsdoc::type_name(written))
                }
                jsdoc::Stated::Returned => (types::RETURNED, jsdoc::returned_type_name(written)),
                jsdoc::Stated::Declared => continue,
            };
            let Some(type_name) = type_name else { continue };
            let returned = name == types::RETURNED;
            out.types.push(Typed {
                name: name.to_string(),
                type_name,
                field: false,
                line: s.start_line,
                until: Some(if returned { s.start_line } else { s.end_line }),
            });
        }
    }
}

/// The names an object pattern binds from a path's value (`const { socket, request: req,
/// timeout = 0 } = this`), each typed as that field of the path ([`types::PATH_VALUE`]:
/// `=this.request`); none for a value that is no plain path.
fn destructured(pattern: Node, path: &str, source: &str) -> Vec<Typed> {
    if !dotted_path(path) {
        return Vec::new();
    }
    let mut walker = pattern.walk();
    let bindings: Vec<(Node, Node)> = pattern
        .named_children(&mut walker)
        .filter_map(|p| match p.kind() {
            "shorthand_property_identifier_pattern" => Some((p, p)),
            "pair_pattern" => {
                let key = p.child_by_field_name("key")?;
                let value = p.child_by_field_name("value")?;
                (key.kind() == "property_identifier" && value.kind() == "identifier")
                    .then_some((key, value))
            }
            "object_assignment_pattern" => {
                let left = p.child_by_field_name("left")?;
                (left.kind() == "shorthand_property_identifier_pattern").then_some((left, left))
            }
            _ => None,
        })
        .collect();
    bindings
        .into_iter()
        .map(|(key, local)| Typed {
            name: text(local, source).to_string(),
            type_name: format!("{}{path}.{}", types::PATH_VALUE, text(key, source)),
            field: false,
            line: line_of(local),
            until: scope_end(local),
        })
        .collect()
}

/// The names of a pattern a call's value is unpacked into (`name, cmd, args = f()`, Rust's
/// `let (a, mut b, _) = f();`, Go's `_, rest := w.split()`), each with its position and
/// typed by it (see [`types::UNPACKED`]); none past a starred name or Rust's `..`, whose
/// width is unknown.
fn unpacked(pattern: Node, value: &str, source: &str) -> Vec<(usize, Typed)> {
    pattern_names(pattern, source)
        .into_iter()
        .map(|(index, name)| {
            let typed = Typed {
                name: text(name, source).to_string(),
                type_name: format!("{}{index}{value}", types::UNPACKED),
                field: false,
                line: line_of(name),
                until: scope_end(name),
            };
            (index, typed)
        })
        .collect()
}

/// Each name a tuple pattern (or Go's list of names) binds, with its position: positions
/// are counted by the commas between elements, so a `_` or a nested pattern (which bind
/// nothing here) still takes its place; comments take none.
fn pattern_names<'t>(pattern: Node<'t>, source: &str) -> Vec<(usize, Node<'t>)> {
    let mut walker = pattern.walk();
    let mut out = Vec::new();
    let mut index = 0;
    for element in pattern.children(&mut walker) {
        match element.kind() {
            "," => index += 1,
            // Go's blank `_` is an identifier that names nothing.
            "identifier" if text(element, source) == "_" => {}
            "identifier" => out.push((index, element)),
            // Rust's `mut b`, `&b`, `ref b`, `&mut b`.
            "mut_pattern" | "reference_pattern" | "ref_pattern" => {
                out.extend(pattern_name(element).map(|n| (index, n)));
            }
            "list_splat_pattern" | "remaining_field_pattern" => break,
            _ => {}
        }
    }
    out
}

/// The name a Rust pattern binds through `mut`, `&` and `ref` (`&mut b` is `b`).
fn pattern_name(pattern: Node) -> Option<Node> {
    let mut name = pattern;
    while matches!(
        name.kind(),
        "mut_pattern" | "reference_pattern" | "ref_pattern"
    ) {
        name = name.named_child((name.named_child_count() as u32).checked_sub(1)?)?;
    }
    (name.kind() == "identifier").then_some(name)
}

/// The names a loop's or a closure's tuple pattern takes from an enumerated or zipped
/// sequence (Rust's `for (i, edge) in g.edges(a).enumerate()`, `xs.iter().zip(&ys)`,
/// Python's `for i, row in enumerate(rows)`, `zip(names, rows)`): each name an element of
/// the sequence at its place, as a loop over that sequence alone would give it; an index
/// binds nothing. `until` ends a closure's names with the closure; `shadowed` are the
/// builtins the file binds to names of its own.
fn paired(
    lang: Language,
    pattern: Node,
    over: Node,
    source: &str,
    until: Option<u32>,
    shadowed: &HashSet<&str>,
) -> Vec<Typed> {
    let sequences: Vec<Option<Node>> = match lang {
        Language::Rust => {
            let Some(function) = over
                .child_by_field_name("function")
                .filter(|f| f.kind() == "field_expression")
            else {
                return Vec::new();
            };
            let (Some(method), Some(on)) = (
                function.child_by_field_name("field"),
                function.child_by_field_name("value"),
            ) else {
                return Vec::new();
            };
            match (text(method, source), call_arguments(over).as_slice()) {
                ("enumerate", []) => vec![None, Some(on)],
                ("zip", [other]) => vec![Some(on), Some(*other)],
                _ => return Vec::new(),
            }
        }
        Language::Python => {
            let function = over.child_by_field_name("function");
            // A keyword argument (`start=1`, `strict=True`) follows them all, and is no path;
            // past a splat (`zip(*groups, names)`) no position is known.
            let given: Vec<Node> = call_arguments(over)
                .into_iter()
                .take_while(|a| !a.kind().ends_with("splat"))
                .collect();
            match function.map(|f| text(f, source)) {
                Some(name) if shadowed.contains(name) => return Vec::new(),
                Some("enumerate") => vec![None, given.first().copied()],
                Some("zip") => given.into_iter().map(Some).collect(),
                _ => return Vec::new(),
            }
        }
        _ => return Vec::new(),
    };
    pattern_names(pattern, source)
        .into_iter()
        .filter_map(|(index, name)| {
            let sequence = (*sequences.get(index)?)?;
            let type_name = match lang {
                Language::Rust => rust_ranged(sequence, source)?,
                _ => {
                    let path = text(sequence, source);
                    dotted_path(path).then(|| format!("{}{path}", types::ELEMENT_OF))?
                }
            };
            Some(Typed {
                name: text(name, source).to_string(),
                type_name,
                field: false,
                line: line_of(name),
                until: until.or_else(|| scope_end(name)),
            })
        })
        .collect()
}

/// A call's arguments as written, comments (`comment`, Rust's `line_comment` and
/// `block_comment`) aside; none for a Python generator passed bare (`enumerate(t.names for
/// t in tables)`), whose one argument is no sequence named.
fn call_arguments(call: Node<'_>) -> Vec<Node<'_>> {
    let Some(arguments) = call
        .child_by_field_name("arguments")
        .filter(|a| a.kind() != "generator_expression")
    else {
        return Vec::new();
    };
    let mut walker = arguments.walk();
    arguments
        .named_children(&mut walker)
        .filter(|a| !a.kind().ends_with("comment"))
        .collect()
}

/// The names of a tuple pattern bound element by element to a tuple written whole (Rust's
/// `let (utf8, flags) = (self.trans().utf8, self.flags());`, Go's `r1, r2 := s1[i],
/// s2[i]`), each with its position: a name whose element is a call takes the call's value,
/// one whose element is a path of fields the path's value, one whose element is an index
/// into a path an element of it, one whose element is a composite literal its type.
fn tuple_bound(lang: Language, pattern: Node, tuple: Node, source: &str) -> Vec<(usize, Typed)> {
    let mut walker = tuple.walk();
    let elements: Vec<Node> = tuple
        .named_children(&mut walker)
        .filter(|e| !e.kind().ends_with("comment"))
        .collect();
    pattern_names(pattern, source)
        .into_iter()
        .filter_map(|(index, name)| {
            let mut element = *elements.get(index)?;
            // Go's `&Route{..}`: the literal's type.
            if element.kind() == "unary_expression" {
                element = element.child_by_field_name("operand")?;
            }
            let type_name = match element.kind() {
                "call_expression" => {
                    call_value(lang, text(element.child_by_field_name("function")?, source))?
                }
                "field_expression" | "selector_expression" => path_value(text(element, source))?,
                "index_expression" => {
                    element_of_path(element.child_by_field_name("operand")?, source)?
                }
                "composite_literal" => {
                    bound_type_name(lang, text(element.child_by_field_name("type")?, source))?
                }
                _ => return None,
            };
            let typed = Typed {
                name: text(name, source).to_string(),
                type_name,
                field: false,
                line: line_of(name),
                until: scope_end(name),
            };
            Some((index, typed))
        })
        .collect()
}

/// What a name ranging over or indexing into `over` holds, as a [`types::ELEMENT_OF`] type:
/// an element of the path written (Go's `range r.routes`, `s[i]`; `(*s)[i]` of a pointer
/// to a slice is an element of `s`); none when `over` is no plain path.
fn element_of_path(over: Node, source: &str) -> Option<String> {
    let mut over = over;
    while let Some(inner) = match over.kind() {
        "parenthesized_expression" => over.named_child(0),
        "unary_expression"
            if over
                .child_by_field_name("operator")
                .is_some_and(|o| text(o, source) == "*") =>
        {
            over.child_by_field_name("operand")
        }
        _ => None,
    } {
        over = inner;
    }
    let path = text(over, source);
    dotted_path(path).then(|| format!("{}{path}", types::ELEMENT_OF))
}

/// The calls written inside a Rust macro's arguments (`assert_eq!(parser(p).parse(),
/// span(0..3))`, `vec![lit('a', 0)]`), which tree-sitter leaves as tokens: a name followed by
/// parenthesised tokens is a call, its receiver the path or call written before a `.` or
/// `::`. A macro named inside (`format!(..)`) is no call, but its arguments are read.
fn macro_calls(tokens: Node, source: &str, out: &mut Vec<Edge>) {
    // A stack, not recursion: a hostile file may nest parentheses without end.
    let mut trees = vec![tokens];
    while let Some(tree) = trees.pop() {
        let mut walker = tree.walk();
        let all: Vec<Node> = tree.children(&mut walker).collect();
        macro_tree_calls(&all, source, out);
        trees.extend(all.iter().filter(|t| t.kind() == "token_tree"));
    }
}

/// The calls among one token tree's own tokens (see [`macro_calls`]).
fn macro_tree_calls(all: &[Node], source: &str, out: &mut Vec<Edge>) {
    for (i, token) in all.iter().enumerate() {
        let arguments = all.get(i + 1).filter(|n| n.kind() == "token_tree");
        if token.kind() != "identifier"
            || !arguments.is_some_and(|a| text(*a, source).starts_with('('))
        {
            continue;
        }
        // A declaration written in a macro (`proptest! { fn parses(..) }`) or a quoted
        // template's variable (`quote! { #name(..) }`) is no call.
        let before = i.checked_sub(1).map(|j| text(all[j], source));
        if matches!(before, Some("fn" | "#")) {
            continue;
        }
        out.push(Edge {
            name: text(*token, source).to_string(),
            line: line_of(*token),
            receiver: macro_receiver(&all[..i], source).map(|r| receiver_text(Language::Rust, &r)),
        });
    }
}

/// How many tokens before a call inside a macro are read for its receiver.
const MACRO_RECEIVER_TOKENS: usize = 32;

/// The receiver written before a call inside a macro's tokens (`before` ends where the
/// call's name starts): `a.b` or `f(..).g(..)` before a `.`, `a::B` before a `::`; none for
/// a plain call.
fn macro_receiver(before: &[Node], source: &str) -> Option<String> {
    let (last, rest) = before.split_last()?;
    let joint = text(*last, source);
    if joint != "." && joint != "::" {
        return None;
    }
    let mut parts: Vec<String> = Vec::new();
    let mut want_name = true;
    // A receiver is a short path (`receiver_text` keeps 80 characters): a chain of calls
    // without end is not walked back for each of its calls.
    let mut read = 0;
    for token in rest.iter().rev().take(MACRO_RECEIVER_TOKENS) {
        read += 1;
        let written = text(*token, source);
        match token.kind() {
            "identifier" | "self" | "super" | "crate" if want_name => {
                parts.push(written.to_string());
                want_name = false;
            }
            // A call's arguments before its name: the call's value (`f(..).g()`).
            "token_tree" if want_name && written.starts_with('(') => parts.push("()".into()),
            _ if !want_name && (written == "." || written == "::") => {
                parts.push(written.to_string());
                want_name = true;
            }
            _ => break,
        }
    }
    let cut_short = read == MACRO_RECEIVER_TOKENS && rest.len() > read;
    if want_name || cut_short {
        // A method of something no path writes (`x.0.len()`, `[a].iter()`), or of a
        // chain too long to be one.
        return Some("?".to_string());
    }
    parts.reverse();
    Some(parts.concat())
}

/// Nodes whose bindings end with them, inside a definition: closures and lambdas (their
/// parameters and locals), a match arm (its pattern's names), a catch clause.
const NARROW_SCOPES: &[&str] = &[
    "closure_expression",
    // Rust's `for x in ..`: `x`, and what the body binds, end with the loop; so do an
    // `if let` or `while let` binding and a block's names.
    "for_expression",
    "if_expression",
    "while_expression",
    "match_arm",
    "func_literal",
    "arrow_function",
    "function_expression",
    "function",
    "lambda",
    "lambda_expression",
    "catch_clause",
];

/// Definitions: a binding reaching one of these first holds to the definition's end.
const DEFINITION_SCOPES: &[&str] = &[
    "function_item",
    "function_definition",
    "function_declaration",
    "method_declaration",
    "method_definition",
    "constructor_declaration",
    "class_declaration",
    "class_definition",
    "impl_item",
    "source_file",
    "module",
    "program",
];

/// The last line a name bound at `node` holds on, when a narrower scope than its
/// definition holds it (see [`Typed::until`]).
fn scope_end(node: Node) -> Option<u32> {
    let mut up = node.parent();
    let mut from = node;
    while let Some(n) = up {
        // Rust's `if let Some(x) = ..` holds in its block, not in the `else` (whose own
        // names end with it).
        if n.kind() == "if_expression"
            && let Some(branch) = n
                .child_by_field_name("alternative")
                .filter(|a| a.id() != from.id())
                .and_then(|_| n.child_by_field_name("consequence"))
        {
            return Some(branch.end_position().row as u32 + 1);
        }
        if NARROW_SCOPES.contains(&n.kind()) {
            return Some(n.end_position().row as u32 + 1);
        }
        if DEFINITION_SCOPES.contains(&n.kind()) {
            return None;
        }
        from = n;
        up = n.parent();
    }
    None
}

/// Types each field assigned a name (`self.app = app` in `def __init__(self, app: Flask)`)
/// as that name is typed in the definition holding the assignment: the parameter's or the
/// local's latest statement before it.
fn type_copied_fields(out: &mut Extraction, copies: &[(Node, String, &str)]) {
    for (field, name, from) in copies {
        let (field, from) = (*field, *from);
        let line = line_of(field);
        let Some(def) = innermost(&out.symbols, line) else {
            continue;
        };
        let stated = out
            .types
            .iter()
            .filter(|t| !t.field && t.name == from && (def.start_line..=line).contains(&t.line))
            .max_by_key(|t| t.line)
            .map(|t| t.type_name.clone());
        if let Some(type_name) = stated {
            out.types.push(Typed {
                name: name.clone(),
                type_name,
                field: true,
                line,
                until: None,
            });
        }
    }
}

/// Node kinds that open a path through the code, across the supported grammars.
const BRANCH_KINDS: &[&str] = &[
    "if_statement",
    "if_expression",
    "if_let_expression",
    "elif_clause",
    "else_if_clause",
    "for_statement",
    "for_in_statement",
    "for_expression",
    "enhanced_for_statement",
    "while_statement",
    "while_expression",
    "loop_expression",
    "do_statement",
    "match_arm",
    "case_clause",
    "switch_case",
    "switch_label",
    "expression_case",
    "type_case",
    "communication_case",
    "catch_clause",
    "except_clause",
    "conditional_expression",
    "ternary_expression",
    "boolean_operator",
    "list_comprehension",
    "try_expression",
];

/// Sets each definition's branch count: the branch nodes inside its byte range.
fn count_branches(root: Node, defs: &mut [(Node, Symbol)]) {
    let mut starts = Vec::new();
    let mut cursor = root.walk();
    'walk: loop {
        let node = cursor.node();
        if BRANCH_KINDS.contains(&node.kind()) {
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
    // The walk visits nodes in source order: starts are sorted.
    for (node, symbol) in defs.iter_mut() {
        let from = starts.partition_point(|&b| b < node.start_byte());
        let to = starts.partition_point(|&b| b < node.end_byte());
        symbol.branches = (to - from) as u32;
    }
}

/// `source`'s syntax tree, with this thread's parser (None only if the grammar cannot load).
fn parse(lang: Language, source: &str) -> Option<Tree> {
    parse_after(lang, source, None)
}

/// Like [`parse`], reusing `old` (already edited to match `source`) where it still holds.
fn parse_after(lang: Language, source: &str, old: Option<&Tree>) -> Option<Tree> {
    thread_local! {
        static PARSER: RefCell<Parser> = RefCell::new(Parser::new());
    }
    // A single-file component is parsed whole each time: its script view changes wherever
    // the markup does.
    let view;
    let (source, old) = if lang.is_component_file() {
        view = embedded::script_view(source);
        (view.as_str(), None)
    } else {
        (source, old)
    };
    PARSER.with(|p| {
        let mut parser = p.borrow_mut();
        parser.set_language(&lang.grammar()).ok()?;
        parser.parse(source, old)
    })
}

/// Fills in containers from nesting (innermost enclosing definition, constants aside) and
/// calls functions inside types methods.
fn assign_containers(defs: &mut [(Node, Symbol)]) {
    let mut stack: Vec<(usize, String, String)> = Vec::new(); // (end byte, name, kind)
    for (node, symbol) in defs.iter_mut() {
        while stack
            .last()
            .is_some_and(|(end, _, _)| node.start_byte() >= *end)
        {
            stack.pop();
        }
        if let Some((_, name, kind)) = stack.last() {
            if symbol.container.is_none() {
                symbol.container = Some(name.clone());
            }
            let in_type = matches!(
                kind.as_str(),
                "class" | "struct" | "impl" | "trait" | "interface" | "enum"
            );
            if symbol.kind == "function" && in_type {
                symbol.kind = "method".into();
            }
        }
        if !holds_nothing(&symbol.kind) {
            stack.push((node.end_byte(), symbol.name.clone(), symbol.kind.clone()));
        }
    }
}

/// A JavaScript function whose prototype the file gives methods (`function Runner(suite)
/// {..}` and `Runner.prototype.run = function () {..}`) is a class, as a `class` declaration
/// is: its methods are looked up on its instances (`new Runner(s).run()`).
fn constructor_functions_as_classes(defs: &mut [(Node, Symbol)]) {
    let constructors: std::collections::HashSet<String> = defs
        .iter()
        .filter(|(node, s)| node.kind() == "assignment_expression" && s.kind == "method")
        .filter_map(|(_, s)| s.container.clone())
        .collect();
    if constructors.is_empty() {
        return;
    }
    for (_, s) in defs.iter_mut() {
        if s.kind == "function" && s.container.is_none() && constructors.contains(&s.name) {
            s.kind = "class".into();
        }
    }
}

/// The type a binding records: its own name, kept with its outer type's where Java names a
/// nested type through it (`Connection.Request`), which a type of that name nested
/// elsewhere, or in the caller's own file, is not.
fn bound_type_name(lang: Language, written: &str) -> Option<String> {
    if lang == Language::Rust {
        return types::rust_type_name(written);
    }
    if lang == Language::Go {
        return types::go_type_name(written);
    }
    // TypeScript's `typeof C` of a class (capitalised, as classes are): the class itself,
    // whose `new` makes a `C` and whose static methods are `C`'s. `typeof utils` (a module,
    // a value) states no type.
    let written = match written.strip_prefix("typeof ") {
        Some(class) if class.starts_with(char::is_uppercase) => class,
        Some(_) => return None,
        None => written,
    };
    if lang == Language::Python
        && let Some(elements) = types::python_elements(written)
    {
        return Some(elements);
    }
    let name = types::type_name(written)?;
    if lang != Language::Java {
        return Some(name);
    }
    let plain = written.split('<').next().unwrap_or(written).trim();
    let outer = plain
        .strip_suffix(name.as_str())
        .and_then(|rest| rest.strip_suffix('.'))
        .and_then(|rest| rest.rsplit('.').next())
        .filter(|o| {
            o.starts_with(|c: char| c.is_uppercase())
                && o.chars().all(|c| c.is_alphanumeric() || c == '_')
        });
    Some(match outer {
        Some(outer) => format!("{outer}.{name}"),
        None => name,
    })
}

/// The value of a call of `function` (`ig.matched`, `self.root().child`) as a type to look
/// up: the called path with `()` (`ig.matched()`), whose receiver's type tells which method
/// it is; the method's name alone where the receiver is no path.
fn call_value(lang: Language, function: &str) -> Option<String> {
    match receiver_text(lang, function).as_str() {
        "?" => types::type_name(function.rsplit(['.', ':']).next()?),
        path => Some(format!("{path}()")),
    }
}

/// What a Rust `for` loop ranges over, as a [`types::ELEMENT_OF`] type: a path (`&self.items`,
/// `routes`) or a call's value (`g.edges(n)`, `self.items.iter()`), whose elements the loop's
/// name holds.
fn rust_ranged(over: Node, source: &str) -> Option<String> {
    let mut over = over;
    // `&self.items`, `(&mut self.iter)`: the value borrowed.
    loop {
        over = match over.kind() {
            "reference_expression" => over.child_by_field_name("value")?,
            "parenthesized_expression" => over.named_child(0)?,
            _ => break,
        };
    }
    let ranged = match over.kind() {
        // A call whose receiver no path names (`make()[0].iter()`) ranges over nothing known.
        "call_expression" => {
            let function = joined_lines(text(over.child_by_field_name("function")?, source));
            let value = call_value(Language::Rust, &without_turbofish(&function))?;
            value.ends_with(types::CALL_VALUE).then_some(value)?
        }
        "identifier" | "field_expression" | "self" => {
            let path = joined_lines(text(over, source));
            dotted_path(&path).then_some(path)?
        }
        _ => return None,
    };
    Some(format!("{}{ranged}", types::ELEMENT_OF))
}

/// The value of a Rust type's associated function a name is assigned (`let c =
/// Config::load()` gives `Config::load()`, read through `Config`'s own `load`), where the
/// query took the function's name alone: that name is what a free function of it returns
/// (`let x = util::make()`), never any method named alike (`Queue::new()` of an alias of
/// std's list is no project type's `new`). `Self::f()` keeps the name.
fn associated_call(lang: Language, name: Node, source: &str) -> Option<String> {
    let path = name
        .parent()
        .filter(|p| lang == Language::Rust && p.kind() == "scoped_identifier")
        .filter(|p| p.child_by_field_name("name").map(|n| n.id()) == Some(name.id()))?;
    let written = text(path, source);
    types::of_a_type(written).then(|| call_value(lang, written))?
}

/// A path rustfmt spread over lines (`g0\n    .edges_directed(a, d)\n    .find`) as the one
/// line it spells; the spaces inside a line (`<Ix as IndexType>`) stay.
fn joined_lines(written: &str) -> String {
    written.lines().map(str::trim).collect()
}

/// Rust's iterator and collection methods whose closure's parameters are the elements
/// (`edges.map(|e| e.target())`, `v.sort_by(|a, b| ..)`).
const ELEMENT_CLOSURES: &[&str] = &[
    "map",
    "filter",
    "filter_map",
    "flat_map",
    "for_each",
    "try_for_each",
    "any",
    "all",
    "find",
    "find_map",
    "position",
    "rposition",
    "inspect",
    "take_while",
    "skip_while",
    "map_while",
    "max_by_key",
    "min_by_key",
    "max_by",
    "min_by",
    "partition",
    "sort_by_key",
    "sort_by",
    "sort_unstable_by_key",
    "sort_unstable_by",
    "retain",
    "dedup_by",
    "dedup_by_key",
    "binary_search_by",
    "binary_search_by_key",
    "sort_by_cached_key",
    "sum_by",
];

/// Methods of Rust's iterators, `Option`s and `Result`s whose value is an `Option` or a
/// `Result` of one value, besides those giving an element
/// ([`types::RUST_OPTIONAL_ELEMENT`]): its `map` and `filter` hand their closure that value,
/// no element of it.
const GIVE_AN_OPTION: &[&str] = &[
    "position",
    "max_by_key",
    "min_by_key",
    "max_by",
    "min_by",
    "as_ref",
    "as_mut",
    "as_deref",
    "ok",
    "err",
    "and_then",
    "or_else",
    "checked_sub",
    "checked_add",
];

/// Whether a Rust receiver is a call that gives an `Option` or a `Result` of one value
/// (`rows.first()`, `self.literals.as_ref()`; see [`GIVE_AN_OPTION`]).
fn gives_an_option(value: Node, source: &str) -> bool {
    value.kind() == "call_expression"
        && value
            .child_by_field_name("function")
            .filter(|f| f.kind() == "field_expression")
            .and_then(|f| f.child_by_field_name("field"))
            .map(|m| text(m, source))
            .is_some_and(|m| {
                types::RUST_OPTIONAL_ELEMENT.contains(&m) || GIVE_AN_OPTION.contains(&m)
            })
}

/// Types the parameters of a Rust closure passed first to an iterator's or collection's
/// method that hands it the elements (see [`ELEMENT_CLOSURES`]): each is an element of
/// what the method is called on, as a `for` loop's name is (`gr.edges(a).map(|e|
/// e.target())`). A receiver of no collection's type gives them nothing.
fn element_closure(closure: Node, source: &str, out: &mut Vec<Typed>) {
    let Some(arguments) = closure.parent().filter(|a| a.kind() == "arguments") else {
        return;
    };
    if arguments.named_child(0).map(|a| a.id()) != Some(closure.id()) {
        return;
    }
    let Some(function) = arguments
        .parent()
        .and_then(|call| call.child_by_field_name("function"))
        .filter(|f| f.kind() == "field_expression")
    else {
        return;
    };
    let method = function
        .child_by_field_name("field")
        .map(|f| text(f, source));
    if !method.is_some_and(|m| ELEMENT_CLOSURES.contains(&m)) {
        return;
    }
    let Some(value) = function.child_by_field_name("value") else {
        return;
    };
    // `rows.first().map(|r| ..)`: an `Option`'s closure holds its one value, as a `let r =
    // rows.first()?` would; no element of it.
    let ranged = match gives_an_option(value, source) {
        true => rust_ranged(value, source)
            .and_then(|r| r.strip_prefix(types::ELEMENT_OF).map(str::to_string))
            .filter(|r| r.ends_with(types::CALL_VALUE)),
        false => rust_ranged(value, source),
    };
    let Some(ranged) = ranged else {
        return;
    };
    let Some(parameters) = closure.child_by_field_name("parameters") else {
        return;
    };
    let until = Some(closure.end_position().row as u32 + 1);
    let mut walker = parameters.walk();
    for parameter in parameters.named_children(&mut walker).take(2) {
        // `|(i, edge)|` over `edges.iter().enumerate()`: the pair's element.
        if parameter.kind() == "tuple_pattern" {
            let shadowed = HashSet::new();
            out.extend(paired(
                Language::Rust,
                parameter,
                value,
                source,
                until,
                &shadowed,
            ));
            continue;
        }
        if let Some(name) = pattern_name(parameter) {
            out.push(Typed {
                name: text(name, source).to_string(),
                type_name: ranged.clone(),
                field: false,
                line: line_of(name),
                until,
            });
        }
    }
}

/// A path's value (`test.route`, `self.app`) as a [`types::PATH_VALUE`] type: a chain of
/// plain names, at least one field deep; none for anything else (an index, a call).
fn path_value(written: &str) -> Option<String> {
    // A plain name too: `const self = this` (the object itself, whatever its class),
    // `_Segment = Segment` (a class), `x = y` (what `y` is stated to be).
    dotted_path(written).then(|| format!("{}{written}", types::PATH_VALUE))
}

/// A path of plain names joined by dots (`r.routes`, `this.session`), short enough to keep.
fn dotted_path(p: &str) -> bool {
    p.len() <= 80
        && p.split('.').all(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '#'))
        })
}

/// Types the untyped parameters of `function`, a function passed as an argument to a call
/// (`operate((source, subscriber) => ..)`, `new Observable((subscriber) => ..)`), as
/// [`types::CALLBACK_PARAMETER`]s: which parameter of which argument of which callee each
/// is. A `this` parameter is not counted, as TypeScript does not.
fn callback_parameters(function: Node, source: &str, out: &mut Vec<Typed>) {
    let Some(arguments) = function.parent() else {
        return;
    };
    let Some(call) = arguments.parent() else {
        return;
    };
    let callee = match call.kind() {
        "call_expression" => call.child_by_field_name("function"),
        "new_expression" => call.child_by_field_name("constructor"),
        _ => None,
    };
    let Some(callee) = callee.map(|c| text(c, source)) else {
        return;
    };
    if !dotted_path(callee) {
        return;
    }
    let mut walker = arguments.walk();
    let Some(argument) = arguments
        .named_children(&mut walker)
        .position(|a| a.id() == function.id())
    else {
        return;
    };
    let parameters: Vec<Node> = match function.child_by_field_name("parameters") {
        Some(list) => {
            let mut walker = list.walk();
            list.named_children(&mut walker).collect()
        }
        None => function
            .child_by_field_name("parameter")
            .into_iter()
            .collect(),
    };
    fn name_of(p: Node) -> Option<Node> {
        match p.kind() {
            "identifier" => Some(p),
            "required_parameter" | "optional_parameter"
                if p.child_by_field_name("type").is_none() =>
            {
                p.child_by_field_name("pattern")
                    .filter(|n| n.kind() == "identifier")
            }
            _ => None,
        }
    }
    let until = Some(function.end_position().row as u32 + 1);
    let positional = parameters.into_iter().filter(|p| {
        let pattern = p.child_by_field_name("pattern").unwrap_or(*p);
        text(pattern, source) != "this"
    });
    for (index, parameter) in positional.enumerate() {
        if let Some(name) = name_of(parameter) {
            out.push(Typed {
                name: text(name, source).to_string(),
                type_name: format!("{}{callee}#{argument}#{index}", types::CALLBACK_PARAMETER),
                field: false,
                line: line_of(name),
                until,
            });
        }
    }
}

/// The Go functions and methods a file declares at its top level, by their byte ranges in
/// order: what holds a name, found by a binary search (a node's parent is found by walking
/// down from the root again, so climbing from every name would cost the file's size each).
fn go_top_functions(root: Node) -> Vec<Node> {
    let mut walker = root.walk();
    root.named_children(&mut walker)
        .filter(|n| matches!(n.kind(), "function_declaration" | "method_declaration"))
        .collect()
}

/// Whether the Go identifier `name` is bound by the top-level function holding it (so a
/// closure sees its parent's names): a parameter, a named result, a receiver, or a name
/// declared in its body (`:=`, `var`, `const`, a `range` clause, a type switch's or a
/// `select` case's), wherever in it; or a builtin value (`nil`, `true`). `functions` are
/// the file's top-level ones (see [`go_top_functions`]); `bound` keeps each one's names,
/// read once.
fn bound_in_function(
    name: Node,
    source: &str,
    functions: &[Node],
    bound: &mut HashMap<usize, HashSet<String>>,
) -> bool {
    let written = text(name, source);
    if matches!(written, "nil" | "true" | "false" | "iota" | "_") {
        return true;
    }
    let at = name.start_byte();
    let index = functions.partition_point(|f| f.end_byte() <= at);
    let Some(function) = functions.get(index).filter(|f| f.start_byte() <= at) else {
        return false;
    };
    bound
        .entry(function.id())
        .or_insert_with(|| {
            let mut names = HashSet::new();
            // A stack, not recursion: a hostile file may nest without end.
            let mut stack = vec![*function];
            while let Some(node) = stack.pop() {
                let declares = match node.kind() {
                    "parameter_declaration"
                    | "variadic_parameter_declaration"
                    | "var_spec"
                    | "const_spec" => Some(node),
                    "short_var_declaration" | "range_clause" | "receive_statement" => {
                        node.child_by_field_name("left")
                    }
                    "type_switch_statement" => node.child_by_field_name("alias"),
                    _ => None,
                };
                if let Some(declares) = declares {
                    let mut walker = declares.walk();
                    names.extend(
                        declares
                            .children(&mut walker)
                            .filter(|c| c.kind() == "identifier")
                            .map(|c| text(c, source).to_string()),
                    );
                }
                let mut walker = node.walk();
                stack.extend(node.named_children(&mut walker));
            }
            names
        })
        .contains(written)
}

/// What Go's builtin `new(T)` makes, when `callee` is that `new` (`router := new(Router)`):
/// the type written as its argument.
fn go_made_by_new<'s>(lang: Language, callee: Node, source: &'s str) -> Option<&'s str> {
    if lang != Language::Go || text(callee, source) != "new" {
        return None;
    }
    let call = callee.parent().filter(|p| p.kind() == "call_expression")?;
    let made = call.child_by_field_name("arguments")?.named_child(0)?;
    Some(text(made, source))
}

/// A variant as a pattern names it (`Raw`, `self::Inner::Raw`, `Self::Raw`) as a
/// [`types::VARIANT_OF`] type: the variant, with its enum when the path names one.
fn variant_path(written: &str) -> Option<String> {
    let mut segments = written.rsplit("::").map(str::trim);
    let variant = segments.next()?;
    let plain = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_');
    // The standard library's own (`Some(x)`, `Ok(v)`) are no project's variants.
    if !plain(variant) || matches!(variant, "Some" | "Ok" | "Err") {
        return None;
    }
    Some(match segments.next().filter(|e| plain(e) && *e != "Self") {
        Some(enum_name) => format!("{}{enum_name}.{variant}", types::VARIANT_OF),
        None => format!("{}{variant}", types::VARIANT_OF),
    })
}

/// A call's receiver as a plain dotted path (`self`, `os.path`, `crate::util`), or `?`.
/// Python's `super()` and `super(Cls, self)` are `super`, as Java's and JavaScript's `super`:
/// the call means a base class's method. A receiver that is itself a call of a plain path
/// is that path with `()`, arguments dropped (`Request(url)`, `new Foo()`, `Foo::new(x)`
/// give `Request()`, `Foo()`, `Foo::new()`): the value it makes is what the call is on. Go's
/// builtin `new(T)` makes a `T`, so it is `T()`.
fn receiver_text(lang: Language, raw: &str) -> String {
    // Rust's turbofish names the type, not another path: `Map::<K, V>::new()` is `Map`'s.
    if lang == Language::Rust && raw.contains("::<") {
        return receiver_text(lang, &without_turbofish(raw));
    }
    // Rust's qualified path `<Ix as IndexType>::max()` calls the trait's `max`; `<T>::f()`
    // is `T::f()`.
    if lang == Language::Rust
        && let Some(inside) = raw.strip_prefix('<')
        && let Some(end) = types::group_end(inside, '<', '>')
    {
        let named = inside[..end]
            .rsplit_once(" as ")
            .map_or(&inside[..end], |(_, of)| of);
        let named = named.split('<').next().unwrap_or(named).trim();
        // `<G as IntoNeighbors>::Neighbors::default()` names an associated type: no path.
        let after = &inside[end + 1..];
        let through_type = after
            .strip_prefix("::")
            .is_some_and(|a| a.starts_with(char::is_uppercase));
        if through_type {
            return "?".to_string();
        }
        return receiver_text(lang, &format!("{named}{after}"));
    }
    if raw.starts_with("super(") && raw.ends_with(')') {
        return "super".to_string();
    }
    if lang == Language::Go
        && let Some(pointer) = go_dereferenced(raw).or_else(|| go_unsliced(raw))
    {
        return receiver_text(lang, &pointer);
    }
    let is_path = |p: &str| {
        p.len() <= 80
            && !p.is_empty()
            && p.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '$' | '#'))
    };
    if is_path(raw) {
        return raw.to_string();
    }
    if matches!(
        lang,
        Language::JavaScript | Language::TypeScript | Language::Tsx
    ) && let Some(path) = computed_member_path(raw)
    {
        return path;
    }
    // Rust's `self.next[0]`, `nodes[i].next[1]`, Go's `r.middlewares[i]`, `(*s)[n-1].Value`
    // (a pointer to a slice indexes as the slice): an element of what each indexed path
    // holds, `self.next[]` (a slice's, a `Vec`'s, an array's or a map's element; see
    // `chain_types`).
    if matches!(lang, Language::Rust | Language::Go)
        && let Some(path) = indexed_path(raw)
        && is_path(&path.replace("[]", ""))
    {
        return path;
    }
    // Go's `new(Route).Path(..)`: the chain starts at a `Route()`.
    if lang == Language::Go
        && let Some(rest) = raw.strip_prefix("new(")
        && let Some((made, after)) = rest.split_once(')')
        && is_path(made.trim())
        && !after.is_empty()
    {
        return receiver_text(lang, &format!("{}(){after}", made.trim()));
    }
    if let Some(cast) = cast_type(lang, raw) {
        return format!("{cast}()");
    }
    if let Some(callee) = called_path(raw) {
        if lang == Language::Go && callee == "new" {
            let made = raw[callee.len()..]
                .trim_matches(|c| c == '(' || c == ')')
                .trim();
            if is_path(made) {
                return format!("{made}()");
            }
        }
        let callee = callee.strip_prefix("new ").unwrap_or(callee).trim();
        if is_path(callee) {
            return format!("{callee}()");
        }
    }
    call_chain(raw, lang == Language::Rust).unwrap_or_else(|| "?".to_string())
}

/// A Rust path indexed at the end of its segments (`self.nodes[a.index()].next[0]`) as
/// `self.nodes[].next[]`; none when an index follows no name, is a range, or the path is
/// long.
fn indexed_path(raw: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = raw;
    while let Some(open) = rest.find('[') {
        let before = &rest[..open];
        if before.is_empty() && !out.ends_with("[]") || before.ends_with('.') {
            return None;
        }
        out.push_str(before);
        out.push_str("[]");
        let inside = &rest[open + 1..];
        let close = types::group_end(inside, '[', ']')?;
        // A range (`rows[1..]`) is a slice of them, no element.
        if inside[..close].contains("..") {
            return None;
        }
        rest = &inside[close + 1..];
        if !(rest.is_empty() || rest.starts_with(['.', '['])) {
            return None;
        }
    }
    out.push_str(rest);
    (out.contains("[]") && out.len() <= 80 && !out.starts_with('[')).then_some(out)
}

/// A Go receiver opening with a pointer dereferenced in parentheses (`(*s)[i].Value`) as
/// the pointer's own path (`s[i].Value`): Go indexes and selects through a pointer alike.
fn go_dereferenced(raw: &str) -> Option<String> {
    let (pointer, rest) = raw.strip_prefix("(*")?.split_once(')')?;
    (!pointer.is_empty() && !pointer.contains(['(', '*'])).then(|| format!("{pointer}{rest}"))
}

/// A Go receiver with its slice expressions dropped (`s[1:].Len()` is `s.Len()`: a slice of
/// a slice is of its type, no element), or none when it has none or they do not close.
fn go_unsliced(raw: &str) -> Option<String> {
    if !raw.contains(':') {
        return None;
    }
    let mut out = String::new();
    let mut rest = raw;
    while let Some(open) = rest.find('[') {
        let inside = &rest[open + 1..];
        let close = types::group_end(inside, '[', ']')?;
        out.push_str(&rest[..open]);
        if !inside[..close].contains(':') {
            out.push_str(&rest[open..open + close + 2]);
        }
        rest = &inside[close + 1..];
    }
    out.push_str(rest);
    (out.len() < raw.len()).then_some(out)
}

/// A JavaScript path through members named by constants (`this[kAgent]`,
/// `this[kQueue].head`) as the members are defined (`this.[kAgent]`: the field `[kAgent]`);
/// None when any index is not a plain name (`list[0]`, `map[key + 1]`) or the path is long.
fn computed_member_path(raw: &str) -> Option<String> {
    let is_name = |n: &str| {
        n.starts_with(|c: char| c.is_alphabetic() || matches!(c, '_' | '$'))
            && n.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
    };
    let (head, mut rest) = raw.split_once('[')?;
    let mut path = head.to_string();
    loop {
        let (index, after) = rest.split_once(']')?;
        if !is_name(index) {
            return None;
        }
        path.push_str(&format!(".[{index}]"));
        match after.split_once('[') {
            Some((between, next)) => {
                path.push_str(between);
                rest = next;
            }
            None => {
                path.push_str(after);
                break;
            }
        }
    }
    let plain = |c: char| c.is_alphanumeric() || matches!(c, '_' | '.' | '$' | '#' | '[' | ']');
    let valid = !head.is_empty() && path.len() <= 80 && path.chars().all(plain);
    valid.then_some(path)
}

/// `raw` with every `::<..>` (type arguments, nested ones too) left out.
fn without_turbofish(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find("::<") {
        out.push_str(&rest[..at]);
        let mut depth = 0usize;
        let mut end = rest.len();
        for (i, c) in rest[at + 2..].char_indices() {
            match c {
                '<' => depth += 1,
                '>' => {
                    depth -= 1;
                    if depth == 0 {
                        end = at + 2 + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// A receiver that is a chain of calls on a path (`new Builder(a).add(b)\n  .flag()`,
/// `Builder::new(a).add(b)`) as that path with every call's arguments and type arguments
/// dropped (`Builder().add().flag()`, `Builder::new().add()`): what each call returns is
/// then looked up in turn. None for anything else (an index, an operator, a lambda).
fn call_chain(raw: &str, rust: bool) -> Option<String> {
    const LONGEST: usize = 160;
    let raw = raw.trim();
    let raw = raw.strip_prefix("new ").unwrap_or(raw);
    let mut out = String::new();
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // Arguments, type arguments, and an anonymous class's body (`new Base() { .. }`).
            '(' | '<' | '{' => {
                let close = match c {
                    '(' => ')',
                    '<' => '>',
                    _ => '}',
                };
                let mut depth = 1usize;
                for inner in chars.by_ref() {
                    if inner == c {
                        depth += 1;
                    } else if inner == close {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                }
                if depth != 0 {
                    return None;
                }
                if c == '(' {
                    out.push_str("()");
                }
            }
            // Rust's `?` unwraps (`lits.as_ref()?.iter()`, as `.unwrap()` would); TypeScript's
            // optional chaining (`a()?.b()`) keeps the value's type.
            '?' if rust => out.push_str(".unwrap()"),
            '?' => {}
            // A comment between the calls of a chain.
            '/' if chars.peek() == Some(&'/') => {
                chars.by_ref().find(|&c| c == '\n');
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut last = ' ';
                for inner in chars.by_ref() {
                    if last == '*' && inner == '/' {
                        break;
                    }
                    last = inner;
                }
            }
            c if c.is_whitespace() => {}
            c if c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '$') => out.push(c),
            // A JavaScript class's private name (`this.#cache.find()`).
            '#' if out.ends_with('.') => out.push(c),
            _ => return None,
        }
        if out.len() > LONGEST {
            return None;
        }
    }
    // A turbofish's `::` goes with its type arguments (`collect::<Vec<_>>()`).
    let out = out.replace("::()", "()");
    // Calls only between names: `a().b()`, never `a()b` or `()`.
    let well_formed = out.contains("()")
        && !out.starts_with(['(', '.'])
        && out
            .match_indices("()")
            .all(|(i, _)| matches!(out[i + 2..].chars().next(), None | Some('.')));
    well_formed.then_some(out)
}

/// The type a parenthesized cast gives its value (Java's `((Foo) x)`, TypeScript's
/// `(x as Foo)`): a value of that type, as if a call had made it.
fn cast_type(lang: Language, raw: &str) -> Option<String> {
    let inner = raw.strip_prefix('(')?.strip_suffix(')')?.trim();
    let written = match lang {
        Language::Java => {
            let (ty, value) = inner.strip_prefix('(')?.split_once(')')?;
            if value.trim().is_empty() {
                return None;
            }
            ty
        }
        Language::TypeScript | Language::Tsx | Language::Vue | Language::Svelte => {
            inner.rsplit_once(" as ")?.1
        }
        _ => return None,
    };
    types::type_name(written)
}

/// `f` of a receiver that is one call `f(args)`: its first parenthesis closes at its end (not
/// a chain `f(a).g(b)`, whose value is `g`'s).
fn called_path(raw: &str) -> Option<&str> {
    let open = raw.find('(')?;
    let mut depth = 0usize;
    for (i, c) in raw.char_indices().skip_while(|(i, _)| *i < open) {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return (i + 1 == raw.len()).then(|| &raw[..open]);
                }
            }
            _ => {}
        }
    }
    None
}

fn text<'s>(node: Node, source: &'s str) -> &'s str {
    node.utf8_text(source.as_bytes()).unwrap_or("")
}

fn line_of(node: Node) -> u32 {
    node.start_position().row as u32 + 1
}

/// `Foo::bar` (C++ out-of-class definitions) is named `bar` with container `Foo`; an impl is
/// named by its type without generics.
fn split_qualified(lang: Language, name: Node, source: &str) -> (String, Option<String>) {
    let raw = text(name, source).trim();
    if lang == Language::Rust {
        // `impl<'a> IntoEdges for &'a Graph<..>`: the methods of a `Graph`, which a call on
        // one reaches through auto-referencing.
        let mut base = raw.split('<').next().unwrap_or(raw).trim();
        loop {
            let before = base;
            base = base.trim_start_matches('&').trim_start();
            if base.starts_with('\'') {
                base = base
                    .split_once(' ')
                    .map_or(base, |(_, rest)| rest)
                    .trim_start();
            }
            base = base.strip_prefix("mut ").unwrap_or(base).trim_start();
            if base == before {
                break;
            }
        }
        return (base.to_string(), None);
    }
    match raw.rsplit_once("::") {
        Some((qualifier, last)) if matches!(lang, Language::Cpp) => {
            (last.to_string(), Some(qualifier.to_string()))
        }
        _ => (raw.to_string(), None),
    }
}

/// Go's `type X struct` is a struct, not just a type.
fn refine_kind(lang: Language, node: Node, kind: &'static str) -> &'static str {
    if lang == Language::Go && kind == "type" {
        return match node.child_by_field_name("type").map(|t| t.kind()) {
            Some("struct_type") => "struct",
            Some("interface_type") => "interface",
            _ => "type",
        };
    }
    kind
}

/// Nodes that wrap a definition without being one: the doc comment sits before the wrapper.
const WRAPPERS: &[&str] = &[
    "decorated_definition",
    "export_statement",
    // `const f = () => ..` (JavaScript's declarations of a function value), `X.prototype.m =
    // function ..` (an assignment of one).
    "lexical_declaration",
    "variable_declaration",
    "expression_statement",
    "template_declaration",
];
/// Siblings allowed between a doc comment and its definition.
const SKIPPABLE: &[&str] = &["attribute_item", "decorator"];

fn doc_comment(lang: Language, def: Node, source: &str) -> Option<Doc> {
    if lang == Language::Python {
        return docstring(def, source);
    }
    let mut anchor = def;
    while let Some(parent) = anchor.parent().filter(|p| WRAPPERS.contains(&p.kind())) {
        anchor = parent;
    }
    let mut lines: Vec<(u32, String)> = Vec::new();
    let mut next_start = anchor.start_position().row;
    let mut sibling = anchor.prev_sibling();
    while let Some(node) = sibling {
        if SKIPPABLE.contains(&node.kind()) {
            next_start = node.start_position().row;
            sibling = node.prev_sibling();
            continue;
        }
        if !node.kind().contains("comment") || node.end_position().row + 1 < next_start {
            break;
        }
        let raw = text(node, source);
        if lang == Language::Rust && !(raw.starts_with("///") || raw.starts_with("/**")) {
            break;
        }
        let start = node.start_position().row as u32 + 1;
        let raw_lines: Vec<&str> = raw.lines().collect();
        for (i, line) in raw_lines.iter().enumerate().rev() {
            lines.push((start + i as u32, strip_comment_markers(line)));
        }
        next_start = node.start_position().row;
        sibling = node.prev_sibling();
    }
    if lines.is_empty() {
        return None;
    }
    lines.reverse();
    finish_doc(lines)
}

fn finish_doc(lines: Vec<(u32, String)>) -> Option<Doc> {
    let start_line = lines.first()?.0;
    let end_line = lines.last()?.0;
    let text = lines
        .into_iter()
        .map(|(_, l)| l)
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string();
    (!text.is_empty()).then_some(Doc {
        text,
        start_line,
        end_line,
    })
}

fn strip_comment_markers(line: &str) -> String {
    let t = line.trim();
    let t = t
        .trim_start_matches("///")
        .trim_start_matches("//!")
        .trim_start_matches("//")
        .trim_start_matches("/**")
        .trim_start_matches("/*")
        .trim_end_matches("*/");
    let t = t.trim_start();
    t.strip_prefix("* ")
        .or_else(|| t.strip_prefix('*'))
        .unwrap_or(t)
        .trim_end()
        .to_string()
}

/// A Python docstring: the first statement of the body, when it is a string.
fn docstring(def: Node, source: &str) -> Option<Doc> {
    let body = def.child_by_field_name("body")?;
    let first = body.named_child(0)?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let string = first.named_child(0).filter(|n| n.kind() == "string")?;
    let raw = text(string, source);
    let inner = raw
        .trim_start_matches(|c| "rRuUbBfF".contains(c))
        .trim_start_matches("\"\"\"")
        .trim_start_matches("'''")
        .trim_end_matches("\"\"\"")
        .trim_end_matches("'''")
        .trim_matches(|c| c == '"' || c == '\'');
    let start = string.start_position().row as u32 + 1;
    let lines = inner
        .lines()
        .enumerate()
        .map(|(i, l)| (start + i as u32, l.trim().to_string()))
        .collect();
    finish_doc(lines)
}

/// The module paths one import node names.
fn import_names(lang: Language, node: Node, source: &str) -> Vec<Edge> {
    let line = line_of(node);
    let edge = |name: &str| Edge {
        name: name.to_string(),
        line,
        receiver: None,
    };
    let raw = text(node, source);
    match lang {
        Language::Python => python_imports(node, source)
            .into_iter()
            .map(|n| edge(&n))
            .collect(),
        Language::Java => {
            let name = raw
                .trim_start_matches("import")
                .trim()
                .trim_start_matches("static ")
                .trim_end_matches(';')
                .trim()
                .trim_end_matches(".*");
            vec![edge(name)]
        }
        Language::Rust => {
            // `x as y` keeps x: mark the alias before whitespace goes.
            let flat: String = raw
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
                .replace(" as ", "@")
                .split_whitespace()
                .collect();
            rust_use_paths(&flat).iter().map(|p| edge(p)).collect()
        }
        _ => {
            let name = raw.trim_matches(|c| "\"'`<>".contains(c));
            vec![edge(name)]
        }
    }
}

/// The aliases one import node binds (see [`Alias`]).
fn import_aliases(lang: Language, node: Node, source: &str) -> Vec<Alias> {
    let line = line_of(node);
    let alias = |name: &str, local: &str| Alias {
        name: name.to_string(),
        local: local.to_string(),
        line,
    };
    match lang {
        Language::Python => {
            let mut walker = node.walk();
            node.named_children(&mut walker)
                .filter_map(|n| {
                    if n.kind() == "wildcard_import" {
                        return Some(alias(STAR, STAR));
                    }
                    if n.kind() != "aliased_import" {
                        return None;
                    }
                    let name = text(n.child_by_field_name("name")?, source);
                    let local = text(n.child_by_field_name("alias")?, source);
                    let name = name.rsplit('.').next().unwrap_or(name);
                    Some(alias(name, local))
                })
                .collect()
        }
        // `import ts "example.com/m/teststructs"`: ts names the package.
        Language::Go => {
            let Some(spec) = node.parent().filter(|p| p.kind() == "import_spec") else {
                return Vec::new();
            };
            let Some(local) = spec
                .child_by_field_name("name")
                .filter(|n| n.kind() == "package_identifier")
            else {
                return Vec::new();
            };
            let path = text(node, source).trim_matches(['"', '`']);
            let last = path.rsplit('/').next().unwrap_or(path);
            vec![alias(last, text(local, source))]
        }
        Language::Rust => {
            let flat: String = text(node, source)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            flat.split(['{', '}', ',', ';'])
                .filter_map(|part| {
                    let part = part.trim();
                    // `use a::b::*` of a module (not an enum's variants, `Token::*`, nor a
                    // glob inside braces, whose line names other modules too).
                    let module_glob = part.strip_suffix("::*").is_some_and(|module| {
                        let last = module.rsplit("::").next().unwrap_or(module);
                        !flat.contains('{') && last.starts_with(|c: char| c.is_lowercase())
                    });
                    if module_glob {
                        return Some(alias(STAR, STAR));
                    }
                    let (path, local) = part.split_once(" as ")?;
                    let name = path.trim().rsplit("::").next()?.trim();
                    let local = local.trim();
                    (!name.is_empty() && local != "_").then(|| alias(name, local))
                })
                .collect()
        }
        Language::JavaScript
        | Language::TypeScript
        | Language::Tsx
        | Language::Vue
        | Language::Svelte
        | Language::Html => {
            // The capture is the source string; the specifiers hang off its statement. Every
            // named specifier binds its local name to the module's definition (`{ a }` binds
            // a, `{ a as b }` binds b), and a re-export (`export { a } from './x'`, an
            // `index.ts` gathering a package) binds it in the re-exporting file, so an import
            // of the package follows it to the definition.
            if let Some(declarator) = required_into(node) {
                return commonjs_aliases(declarator, text(node, source), source, line);
            }
            if let Some((member, local)) = required_member(node, source) {
                return vec![Alias {
                    name: member.to_string(),
                    local: local.to_string(),
                    line,
                }];
            }
            let Some(statement) = node
                .parent()
                .filter(|p| matches!(p.kind(), "import_statement" | "export_statement"))
            else {
                return Vec::new();
            };
            let mut out = Vec::new();
            // `export * from './m'` (not `export * as ns from`, which binds one name).
            let mut walker = statement.walk();
            let kinds: Vec<&str> = statement.children(&mut walker).map(|c| c.kind()).collect();
            let star = statement.kind() == "export_statement"
                && kinds.contains(&"*")
                && !kinds
                    .iter()
                    .any(|k| matches!(*k, "namespace_export" | "export_clause"));
            if star {
                out.push(alias(STAR, STAR));
            }
            let mut stack = vec![statement];
            while let Some(n) = stack.pop() {
                if matches!(n.kind(), "import_specifier" | "export_specifier")
                    && let Some(name) = n.child_by_field_name("name")
                {
                    let local = n.child_by_field_name("alias").unwrap_or(name);
                    out.push(alias(text(name, source), text(local, source)));
                }
                let mut walker = n.walk();
                stack.extend(n.named_children(&mut walker));
            }
            out
        }
        _ => Vec::new(),
    }
}

/// The declarator a `require('..')` call's string is the value of (`const x =
/// require('./x')`, `const { a } = require('./x')`), if it is.
fn required_into(string: Node) -> Option<Node> {
    let call = string
        .parent()
        .filter(|p| p.kind() == "arguments")?
        .parent()?;
    let declarator = call
        .parent()
        .filter(|p| p.kind() == "variable_declarator")?;
    let is_value = declarator
        .child_by_field_name("value")
        .is_some_and(|v| v.id() == call.id());
    is_value.then_some(declarator)
}

/// The member of a required module a declaration takes (`const createError =
/// require('../errors').createError`): (member, local name).
fn required_member<'s>(string: Node, source: &'s str) -> Option<(&'s str, &'s str)> {
    let call = string
        .parent()
        .filter(|p| p.kind() == "arguments")?
        .parent()?;
    let member = call.parent().filter(|p| p.kind() == "member_expression")?;
    let declarator = member
        .parent()
        .filter(|p| p.kind() == "variable_declarator")?;
    let is_value = declarator
        .child_by_field_name("value")
        .is_some_and(|v| v.id() == member.id());
    let property = member.child_by_field_name("property")?;
    let local = declarator
        .child_by_field_name("name")
        .filter(|n| n.kind() == "identifier")?;
    is_value.then(|| (text(property, source), text(local, source)))
}

/// The names a CommonJS `require` binds: `const { a, b: c } = require('./x')` binds a and c
/// to x's `a` and `b`; `const util = require('./core/util')` binds util to the module, as
/// Python's `import a.util as u` does (the alias's name is the module's last segment).
fn commonjs_aliases(declarator: Node, spec: &str, source: &str, line: u32) -> Vec<Alias> {
    let alias = |name: &str, local: &str| Alias {
        name: name.to_string(),
        local: local.to_string(),
        line,
    };
    let Some(pattern) = declarator.child_by_field_name("name") else {
        return Vec::new();
    };
    match pattern.kind() {
        "identifier" => {
            let path = spec.trim_matches(|c| "\"'`".contains(c));
            let stem = super::resolve::module_stem(path);
            if stem.is_empty() {
                return Vec::new();
            }
            vec![alias(stem, text(pattern, source))]
        }
        "object_pattern" => {
            let mut walker = pattern.walk();
            pattern
                .named_children(&mut walker)
                .filter_map(|p| match p.kind() {
                    "shorthand_property_identifier_pattern" => {
                        let name = text(p, source);
                        Some(alias(name, name))
                    }
                    "pair_pattern" => {
                        let key = p.child_by_field_name("key")?;
                        let value = p.child_by_field_name("value")?;
                        (value.kind() == "identifier")
                            .then(|| alias(text(key, source), text(value, source)))
                    }
                    _ => None,
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// `import a.b, c as d` gives a.b and c; `from x.y import z, w` gives x.y, x.y.z and x.y.w
/// (the names may be submodules, which resolution decides).
fn python_imports(node: Node, source: &str) -> Vec<String> {
    let mut walker = node.walk();
    let named: Vec<Node> = node.named_children(&mut walker).collect();
    let module_of = |n: Node| -> String {
        match n.kind() {
            "aliased_import" => n
                .child_by_field_name("name")
                .map(|x| text(x, source).to_string())
                .unwrap_or_default(),
            _ => text(n, source).to_string(),
        }
    };
    if node.kind() == "import_statement" {
        // `import a.b.c` binds the name `a`, the package (whose `__init__` runs first):
        // `a.f()` after it is the package's `f`.
        let mut out: Vec<String> = Vec::new();
        for n in named {
            let module = module_of(n);
            if n.kind() == "dotted_name"
                && let Some((package, _)) = module.split_once('.')
                && !out.iter().any(|m| m == package)
            {
                out.push(package.to_string());
            }
            out.push(module);
        }
        return out;
    }
    let Some(module) = node.child_by_field_name("module_name") else {
        return Vec::new();
    };
    let base = text(module, source).to_string();
    let mut out = vec![base.clone()];
    for n in named.into_iter().filter(|n| n.id() != module.id()) {
        let name = module_of(n);
        if !name.is_empty() && name != "*" {
            let sep = if base.ends_with('.') { "" } else { "." };
            out.push(format!("{base}{sep}{name}"));
        }
    }
    out
}

/// `a::b::{c, d::e}` as `a::b::c` and `a::b::d::e`; `self` is the prefix, aliases (marked
/// `@alias`) are dropped.
fn rust_use_paths(flat: &str) -> Vec<String> {
    let flat = flat.trim_end_matches(';');
    let Some(open) = flat.find('{') else {
        let path = flat.split('@').next().unwrap_or(flat);
        return vec![path.trim_end_matches("::*").to_string()];
    };
    let prefix = &flat[..open];
    let inner = flat[open + 1..]
        .strip_suffix('}')
        .unwrap_or(&flat[open + 1..]);
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .flat_map(|p| {
            if p == "self" {
                vec![prefix.trim_end_matches("::").to_string()]
            } else {
                rust_use_paths(&format!("{prefix}{p}"))
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
