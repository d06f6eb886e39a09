//! The file dependency graph and the symbol call graph, resolved from the index's facts.
//!
//! Imports resolve to files by the index's conventions ([`resolve`]). A call site resolves to
//! the definitions its name can mean, most certain first: a binding of the name by an import
//! (or an alias) to a file that defines it, a definition in the caller's own container, one
//! in the same file, a top-level definition of a module the file imports, and last a
//! definition anywhere with that name when there are few. Each edge keeps how it resolved.

mod bases;
mod calls;
mod fixtures;
mod signatures;
mod typing;
mod update;

use crate::index::code::{Symbol, holds_nothing};
use crate::index::facts::{FileFacts, last_segment};
use crate::index::resolve;
use crate::index::scip::{ScipIndex, Target};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// How a call edge was resolved, most certain first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Confidence {
    /// The project's SCIP index (a compiler's indexer) names the definition at this site.
    Scip,
    /// The name is bound by an import or alias to a file that defines it.
    Import,
    /// Defined in the caller's own container (class, impl, ...).
    Container,
    /// A method of the type a variable, parameter or field is given where it is declared or
    /// made (`x: Foo`, `x = Foo()`, `self.x = Foo()`, `let x = Foo::new()`), or that type's
    /// bases.
    Type,
    /// A method of the value a pytest fixture makes, called on a test's parameter named like
    /// the fixture (pytest passes it in; no declaration in the test states the type).
    Fixture,
    /// A method of a class implementing (or extending) the receiver's declared type, which
    /// has no such method itself: an interface's, an abstract type's. Where the call may
    /// dispatch, as language servers list it.
    Dispatch,
    /// A method of a base class of the caller's own (`super().m()`, or `self.m()` that the
    /// class inherits), the base named in the class's declaration.
    Base,
    /// Defined in the caller's file.
    File,
    /// A function defined in another file of the caller's package, where a package is a
    /// directory whose files share their top-level names (Go).
    Package,
    /// A top-level definition of a module the caller's file imports.
    Module,
    /// Only the name matches (one of at most [`MAX_NAME_ONLY`] definitions).
    Name,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Scip => "scip",
            Self::Import => "import",
            Self::Container => "container",
            Self::Type => "type",
            Self::Fixture => "fixture",
            Self::Dispatch => "dispatch",
            Self::Base => "base",
            Self::File => "file",
            Self::Package => "package",
            Self::Module => "module",
            Self::Name => "name",
        }
    }

    /// The edge's weight in PageRank and its reported confidence, 0-1.
    pub fn weight(self) -> f64 {
        match self {
            Self::Scip => 0.97,
            Self::Import => 0.95,
            Self::Container => 0.9,
            Self::Type => 0.85,
            Self::Fixture => 0.8,
            Self::Dispatch => 0.7,
            Self::Base => 0.85,
            Self::File => 0.85,
            Self::Package => 0.85,
            Self::Module => 0.7,
            Self::Name => 0.4,
        }
    }
}

/// Receivers that mean the caller's own object or type.
const SELF: &[&str] = &["self", "this", "cls", "Self"];

/// The receiver that means the caller's base class (Python's `super()` is recorded so too).
const SUPER: &str = "super";

/// Definition kinds a base class may be.
const CLASS_LIKE: &[&str] = &["class", "struct", "interface"];

/// Definition kinds whose declarations name bases: the class-like ones, and Rust's traits
/// (their supertraits, whose methods a value the trait bounds has).
const INHERITING: &[&str] = &["class", "struct", "interface", "trait"];

/// Definition kinds a variable's type may be: what has methods.
const TYPE_LIKE: &[&str] = &["class", "struct", "interface", "enum", "trait", "union"];

/// A name defined in more places than this is too common to guess a call's target from it.
pub const MAX_NAME_ONLY: usize = 3;

/// Definition kinds a call can land on.
const CALLABLE: &[&str] = &[
    "function",
    "method",
    "class",
    "struct",
    "constructor",
    "macro",
];

/// A code file of the graph.
#[derive(Debug, Clone)]
pub struct FileNode {
    pub path: String,
    pub hash: String,
    pub language: Option<String>,
    /// The last line any definition reaches: the file's length as far as the graph knows.
    pub lines: u32,
    /// Its definitions: `symbols[first..first + count]`.
    pub first_symbol: u32,
    pub symbol_count: u32,
}

/// A definition of the graph: a position in its file's facts, which the graph shares with
/// the analysis layer's cache instead of copying every definition.
#[derive(Debug, Clone)]
pub struct SymbolNode {
    pub file: u32,
    facts: Arc<FileFacts>,
    index: u32,
}

impl SymbolNode {
    pub fn symbol(&self) -> &Symbol {
        &self.facts.symbols[self.index as usize]
    }

    pub fn lines(&self) -> u32 {
        let s = self.symbol();
        s.end_line.saturating_sub(s.start_line) + 1
    }
}

/// `from` calls `to` at `line` (in `from`'s file).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CallEdge {
    pub from: u32,
    pub to: u32,
    pub line: u32,
    pub confidence: Confidence,
}

/// `from` imports `to` (files) at `line`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ImportEdge {
    pub from: u32,
    pub to: u32,
    pub line: u32,
}

/// A SCIP index and the code files it describes as they are: by path, the content hash the
/// file had when it was no newer than the index. A call site's target comes from the index
/// only in a file whose facts have that hash.
#[derive(Debug)]
pub struct ScipView {
    pub index: Arc<ScipIndex>,
    pub fresh: HashMap<String, String>,
}

/// What the tree's manifests name, each with its directory (`""` at the root): paths an
/// import may start with that no file's path holds.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Manifests {
    /// Each go.mod's `module` path. A Go import of a module's own path names a directory of
    /// the tree exactly, the root's included, which no trailing run of the path can name
    /// (`github.com/gorilla/mux` is the root's package when the root's go.mod says `module
    /// github.com/gorilla/mux`).
    pub go_modules: Vec<(String, String)>,
    /// Each Cargo.toml's crate name (`[lib] name`, else `[package] name`, `-` read as
    /// `_`). A Rust path starting with it (`petgraph::algo::dijkstra` in the crate's
    /// tests/, benches/ and examples/, or in another crate of the workspace) is that
    /// crate's `crate::` path.
    pub crates: Vec<(String, String)>,
}

/// Both graphs (calls and imports) with their adjacency, indexed by position.
#[derive(Debug, Default)]
pub struct Graph {
    pub files: Vec<FileNode>,
    pub symbols: Vec<SymbolNode>,
    pub calls: Vec<CallEdge>,
    pub imports: Vec<ImportEdge>,
    /// Per symbol: indexes into `calls` of the edges out of it and into it.
    pub callees: Vec<Vec<u32>>,
    pub callers: Vec<Vec<u32>>,
    /// Per file: the files it imports and the files importing it.
    pub file_deps: Vec<Vec<u32>>,
    pub file_dependents: Vec<Vec<u32>>,
    /// Call sites that resolved to nothing (outside any definition, or an unknown name).
    pub unresolved_calls: usize,
    /// How many files the last build resolved (every one for a full build; after an
    /// update, the ones whose edges could have changed).
    pub resolved_again: usize,
    /// Per file: the file each import resolved to, aligned with its facts' imports.
    links: Vec<Vec<Option<u32>>>,
    /// Per file: its call sites that resolved to nothing.
    unresolved: Vec<u32>,
    /// The facts each file was resolved from, for the next update to compare against.
    facts: Vec<Arc<FileFacts>>,
    by_path: HashMap<String, u32>,
    by_name: HashMap<String, Named>,
    /// Each file's definitions sorted by name (laid out as `symbols`): a name's definitions
    /// in one file by binary search, not by a scan of a large file's every definition.
    by_file_name: Vec<u32>,
    /// File lookup keys (see [`resolve::file_keys`]) to files.
    keys: HashMap<String, Vec<u32>>,
    /// The SCIP index the calls were resolved with, if the project has one.
    pub scip: Option<Arc<ScipView>>,
    /// The manifests the calls were resolved with.
    pub manifests: Manifests,
    /// The Go files of each directory, for imports of a module's own packages.
    go_dirs: HashMap<String, Vec<u32>>,
    /// Every typed field of the project: holder type name to (field, type name, file), for
    /// calls through chains of fields of other files' types.
    field_types: HashMap<String, Vec<(String, String, u32)>>,
    /// Returns stated apart from declarations (JSDoc's `@returns`), by (file, line).
    stated_returns: HashMap<(u32, u32), String>,
    /// Go package variables by (directory, name): their stated types, which every file of
    /// the package sees (see [`typing::go_package_values`]).
    go_values: HashMap<(String, String), Vec<String>>,
    /// Enum variants holding one field, by name: the enums declaring them (see
    /// [`types::VARIANT_OF`](crate::index::code::types::VARIANT_OF)).
    variants: HashMap<String, Vec<String>>,
    /// The project's pytest fixtures by name (see [`fixtures`]).
    fixtures: HashMap<String, Vec<fixtures::Fixture>>,
    /// Base name to the class-like definitions declaring it (extends, implements, `(Base)`).
    subclasses: HashMap<String, Vec<u32>>,
}

impl Graph {
    /// Resolves the facts of every code file into both graphs.
    pub fn build(facts: &[Arc<FileFacts>]) -> Graph {
        Self::update(None, facts)
    }

    /// The SCIP index describing `file` as the graph holds it, if any.
    pub fn scip_for(&self, file: u32) -> Option<&ScipIndex> {
        let view = self.scip.as_ref()?;
        let f = &self.files[file as usize];
        (view.fresh.get(&f.path) == Some(&f.hash)).then_some(&*view.index)
    }

    /// The definition of the graph a SCIP target is: by the line of its defining name where
    /// the index describes the defining file as it is, else the one definition of that name
    /// in that file and container. None for a library's symbol, or one the graph does not
    /// hold as a definition (a variable, a field).
    fn scip_target(&self, target: &Target) -> Option<u32> {
        let (path, line) = target.definition.as_ref()?;
        let file = self.file(path)?;
        let named = self.defined_in(file, &target.name);
        if self.scip_for(file).is_some() {
            return named
                .into_iter()
                .filter(|&s| {
                    let s = self.symbols[s as usize].symbol();
                    s.start_line <= *line && *line <= s.end_line
                })
                .min_by_key(|&s| self.symbols[s as usize].lines());
        }
        let mut same: Vec<u32> = named
            .into_iter()
            .filter(|&s| self.symbols[s as usize].symbol().container == target.container)
            .collect();
        (same.len() == 1).then(|| same.remove(0))
    }

    /// The nodes of both graphs and their lookups, without edges.
    fn nodes(facts: &[Arc<FileFacts>]) -> Graph {
        let mut g = Graph::default();
        for f in facts {
            let first = g.symbols.len() as u32;
            let file = g.files.len() as u32;
            g.by_path.insert(f.path.clone(), file);
            for (index, s) in f.symbols.iter().enumerate() {
                let id = g.symbols.len() as u32;
                let named = g.by_name.entry(s.name.clone()).or_default();
                named.ids.push(id);
                named.kinds.insert(&s.kind);
                g.symbols.push(SymbolNode {
                    file,
                    facts: f.clone(),
                    index: index as u32,
                });
            }
            g.files.push(FileNode {
                path: f.path.clone(),
                hash: f.hash.clone(),
                language: f.language.clone(),
                lines: f.symbols.iter().map(|s| s.end_line).max().unwrap_or(0),
                first_symbol: first,
                symbol_count: f.symbols.len() as u32,
            });
        }
        g.keys = file_keys(facts);
        g.unresolved = vec![0; facts.len()];
        g.by_file_name = (0..g.symbols.len() as u32).collect();
        for f in 0..g.files.len() as u32 {
            let range = g.symbols_of(f);
            let symbols = &g.symbols;
            g.by_file_name[range.start as usize..range.end as usize].sort_by(|&a, &b| {
                symbols[a as usize]
                    .symbol()
                    .name
                    .cmp(&symbols[b as usize].symbol().name)
            });
        }
        // Each name's definitions by container as well: only containers are compared, within
        // one name (a whole-graph sort by name would cost seconds on every update of a
        // large tree).
        let container = |s: u32| g.symbols[s as usize].symbol().container.as_deref();
        for named in g.by_name.values_mut().filter(|n| n.ids.len() > 1) {
            let mut sorted = named.ids.clone();
            sorted.sort_by(|&a, &b| container(a).cmp(&container(b)));
            named.by_container = sorted;
        }
        g
    }

    /// The definitions named `name` whose container is `container` (a type's methods,
    /// wherever its `impl` or class body is), in the order of `symbols`.
    pub fn members(&self, name: &str, container: &str) -> &[u32] {
        let Some(named) = self.by_name.get(name) else {
            return &[];
        };
        let run = match named.by_container.as_slice() {
            [] => named.ids.as_slice(),
            sorted => sorted,
        };
        let wanted = Some(container);
        let container_of = |s: &u32| self.symbols[*s as usize].symbol().container.as_deref();
        let first = run.partition_point(|s| container_of(s) < wanted);
        let len = run[first..].partition_point(|s| container_of(s) == wanted);
        &run[first..first + len]
    }

    /// The definitions of `file` named `name`, in source order.
    pub fn defined_in(&self, file: u32, name: &str) -> Vec<u32> {
        let range = self.symbols_of(file);
        let sorted = &self.by_file_name[range.start as usize..range.end as usize];
        let name_of = |s: &u32| self.symbols[*s as usize].symbol().name.as_str();
        let first = sorted.partition_point(|s| name_of(s) < name);
        let mut out: Vec<u32> = sorted[first..]
            .iter()
            .take_while(|s| name_of(s) == name)
            .copied()
            .collect();
        out.sort_unstable();
        out
    }

    /// Per line of `file` (1-based; index 0 unused), the innermost definition holding it, as
    /// [`Graph::enclosing`] answers for one line: one pass instead of a scan per call site.
    fn innermost_by_line(&self, file: u32) -> Vec<Option<u32>> {
        let f = &self.files[file as usize];
        let mut out = vec![None; f.lines as usize + 1];
        let mut order: Vec<u32> = self.symbols_of(file).collect();
        // Largest first, and among equals a constant first ([`holds_nothing`]), then the
        // earliest last: it is the one that stays.
        order.sort_by_key(|&s| {
            let sym = &self.symbols[s as usize];
            let yields = holds_nothing(&sym.symbol().kind);
            std::cmp::Reverse((sym.lines(), yields, s))
        });
        for s in order {
            let sym = self.symbols[s as usize].symbol();
            let end = (sym.end_line as usize).min(out.len() - 1);
            for slot in out.iter_mut().take(end + 1).skip(sym.start_line as usize) {
                *slot = Some(s);
            }
        }
        out
    }

    /// The facts a file of this graph was built from: what the next update compares with,
    /// and what a planned edit is put beside.
    pub fn facts_of_file(&self, file: u32) -> Arc<FileFacts> {
        self.facts[file as usize].clone()
    }

    pub fn file(&self, path: &str) -> Option<u32> {
        self.by_path.get(path).copied()
    }

    /// Definitions named exactly `name`.
    pub fn named(&self, name: &str) -> &[u32] {
        self.by_name.get(name).map_or(&[], |n| n.ids.as_slice())
    }

    /// Whether some definition named `name` may be of one of `kinds`: false only when none
    /// is (one lookup, where a scan of a common name's definitions costs thousands).
    pub fn may_name_kind(&self, name: &str, kinds: &[&str]) -> bool {
        self.by_name
            .get(name)
            .is_some_and(|n| n.kinds.meets(KindSet::of(kinds)))
    }

    /// The definitions of `file`, as positions in `symbols`.
    pub fn symbols_of(&self, file: u32) -> std::ops::Range<u32> {
        let f = &self.files[file as usize];
        f.first_symbol..f.first_symbol + f.symbol_count
    }

    /// The definition whose container is the class a `self` or `this` inside definition
    /// `def` means: `def` itself, or, for a function declared inside a method (a
    /// decorator's wrapper, a callback), the enclosing method.
    pub fn self_owner(&self, def: u32) -> u32 {
        let mut current = def;
        // Nesting deeper than this is no method's closure worth following.
        for _ in 0..8 {
            let node = &self.symbols[current as usize];
            let sym = node.symbol();
            let Some(container) = sym.container.as_deref() else {
                return current;
            };
            let enclosing = self
                .defined_in(node.file, container)
                .into_iter()
                .find(|&o| {
                    let outer = self.symbols[o as usize].symbol();
                    o != current
                        && outer.start_line <= sym.start_line
                        && sym.end_line <= outer.end_line
                        && matches!(outer.kind.as_str(), "function" | "method")
                });
            match enclosing {
                Some(_) if binds_its_own_self(&sym.signature) => return current,
                Some(outer) => current = outer,
                None => return current,
            }
        }
        current
    }

    /// The innermost definition of `file` whose lines hold `line`.
    pub fn enclosing(&self, file: u32, line: u32) -> Option<u32> {
        self.symbols_of(file)
            .filter(|&s| {
                let s = self.symbols[s as usize].symbol();
                s.start_line <= line && line <= s.end_line
            })
            .min_by_key(|&s| {
                let sym = &self.symbols[s as usize];
                (sym.lines(), holds_nothing(&sym.symbol().kind))
            })
    }

    /// Distinct definitions calling `symbol`, and called by it, by a resolution better than
    /// the name alone: what a caller can trust (name-only guesses are counted apart).
    pub fn known_fan(&self, symbol: u32) -> (u32, u32) {
        let known = |edges: &[u32]| {
            edges
                .iter()
                .filter(|&&e| self.calls[e as usize].confidence != Confidence::Name)
                .count() as u32
        };
        (
            known(&self.callers[symbol as usize]),
            known(&self.callees[symbol as usize]),
        )
    }

    /// `Container::name` or `name`.
    pub fn qualified(&self, symbol: u32) -> String {
        let s = self.symbols[symbol as usize].symbol();
        match &s.container {
            Some(c) => format!("{c}.{}", s.name),
            None => s.name.clone(),
        }
    }

    fn index_adjacency(&mut self) {
        self.callees = vec![Vec::new(); self.symbols.len()];
        self.callers = vec![Vec::new(); self.symbols.len()];
        for (i, e) in self.calls.iter().enumerate() {
            self.callees[e.from as usize].push(i as u32);
            self.callers[e.to as usize].push(i as u32);
        }
        self.file_deps = vec![Vec::new(); self.files.len()];
        self.file_dependents = vec![Vec::new(); self.files.len()];
        for e in &self.imports {
            self.file_deps[e.from as usize].push(e.to);
            self.file_dependents[e.to as usize].push(e.from);
        }
    }
}

/// The definitions of one name, and the kinds among them.
#[derive(Debug, Default)]
struct Named {
    ids: Vec<u32>,
    kinds: KindSet,
    /// `ids` ordered by container (a stable sort, so each container's in id order); empty
    /// for a name defined once.
    by_container: Vec<u32>,
}

/// A set of definition kinds, one bit each for the kinds resolution asks about and one
/// shared by every other: "may hold" is never wrong, only coarse for the others.
#[derive(Debug, Default, Clone, Copy)]
struct KindSet(u32);

impl KindSet {
    /// The kinds with a bit of their own.
    const KINDS: &[&str] = &[
        "function",
        "method",
        "class",
        "struct",
        "interface",
        "enum",
        "trait",
        "union",
        "constructor",
        "macro",
        "type",
    ];

    fn bit(kind: &str) -> u32 {
        let i = Self::KINDS
            .iter()
            .position(|k| *k == kind)
            .unwrap_or(Self::KINDS.len());
        1 << i
    }

    fn insert(&mut self, kind: &str) {
        self.0 |= Self::bit(kind);
    }

    fn of(kinds: &[&str]) -> Self {
        Self(kinds.iter().fold(0, |set, k| set | Self::bit(k)))
    }

    fn meets(self, other: Self) -> bool {
        self.0 & other.0 != 0
    }
}

/// `found` when it holds at least one and at most [`MAX_NAME_ONLY`] definitions: a name
/// guess worth making. Takes no more than one past the limit, so a name defined thousands of
/// times (`new`, `fmt`) costs as little as a rare one.
fn few(found: impl Iterator<Item = u32>) -> Option<Vec<u32>> {
    let v: Vec<u32> = found.take(MAX_NAME_ONLY + 1).collect();
    (!v.is_empty() && v.len() <= MAX_NAME_ONLY).then_some(v)
}

/// The file lookup keys a module path written in an import (or a call's `a::b` path) is
/// looked up by: as [`Graph::files_named`] tries them.
fn tried_keys(name: &str) -> impl Iterator<Item = String> + '_ {
    let segments = name
        .contains("::")
        .then(|| name.split("::").map(str::to_string));
    std::iter::once(resolve::import_key(name)).chain(segments.into_iter().flatten())
}

/// Lookup key (last module segment, or a package's directory) to the files it may name.
fn file_keys(facts: &[Arc<FileFacts>]) -> HashMap<String, Vec<u32>> {
    let mut keys: HashMap<String, Vec<u32>> = HashMap::new();
    for (i, f) in facts.iter().enumerate() {
        for key in lookup_keys(f) {
            keys.entry(key).or_default().push(i as u32);
        }
    }
    keys
}

/// The keys a file is looked up by: its path's (see [`resolve::file_keys`]), and the modules
/// it declares where imports name those (a C# file's namespaces, see
/// [`resolve::declared_modules`]).
fn lookup_keys(f: &FileFacts) -> Vec<String> {
    let mut keys = resolve::file_keys(&f.path);
    for module in resolve::declared_modules(f.language.as_deref(), &f.symbols) {
        let key = resolve::import_key(&module);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    keys
}

/// Whether a function declared as `signature` has a `self` or `this` of its own, not its
/// enclosing method's: a Python `def f(self, ..)` (a method defined for some class later),
/// a JavaScript `function` (an arrow function's `this` is the enclosing one's).
fn binds_its_own_self(signature: &str) -> bool {
    let head = signature.trim_start();
    let head = head.strip_prefix("async ").unwrap_or(head).trim_start();
    if head.starts_with("function") || head.contains("= function") {
        return true;
    }
    head.starts_with("def ") && matches!(fixtures::parameters(head).next(), Some("self" | "cls"))
}
