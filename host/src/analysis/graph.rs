//! The file dependency graph and the symbol call graph, resolved from the index's facts.
//!
//! Imports resolve to files by the index's conventions ([`resolve`]). A call site resolves to
//! the definitions its name can mean, most certain first: a binding of the name by an import
//! (or an alias) to a file that defines it, a definition in the caller's own container, one
//! in the same file, a top-level definition of a module the file imports, and last a
//! definition anywhere with that name when there are few. Each edge keeps how it resolved.

use crate::index::code::Symbol;
use crate::index::facts::FileFacts;
use crate::index::resolve;
use std::collections::HashMap;

/// How a call edge was resolved, most certain first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Confidence {
    /// The name is bound by an import or alias to a file that defines it.
    Import,
    /// Defined in the caller's own container (class, impl, ...).
    Container,
    /// Defined in the caller's file.
    File,
    /// A top-level definition of a module the caller's file imports.
    Module,
    /// Only the name matches (one of at most [`MAX_NAME_ONLY`] definitions).
    Name,
}

impl Confidence {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Import => "import",
            Self::Container => "container",
            Self::File => "file",
            Self::Module => "module",
            Self::Name => "name",
        }
    }

    /// The edge's weight in PageRank and its reported confidence, 0-1.
    pub fn weight(self) -> f64 {
        match self {
            Self::Import => 0.95,
            Self::Container => 0.9,
            Self::File => 0.85,
            Self::Module => 0.7,
            Self::Name => 0.4,
        }
    }
}

/// Receivers that mean the caller's own object or type.
const SELF: &[&str] = &["self", "this", "cls", "Self", "super"];

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

/// A definition of the graph.
#[derive(Debug, Clone)]
pub struct SymbolNode {
    pub file: u32,
    pub symbol: Symbol,
}

impl SymbolNode {
    pub fn lines(&self) -> u32 {
        self.symbol.end_line.saturating_sub(self.symbol.start_line) + 1
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

/// Both graphs with their adjacency, indexed by position.
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
    by_path: HashMap<String, u32>,
    by_name: HashMap<String, Vec<u32>>,
    /// File lookup keys (see [`resolve::file_keys`]) to files.
    keys: HashMap<String, Vec<u32>>,
}

impl Graph {
    /// Resolves the facts of every code file into both graphs.
    pub fn build(facts: &[std::sync::Arc<FileFacts>]) -> Graph {
        let mut g = Graph::default();
        for f in facts {
            let first = g.symbols.len() as u32;
            let file = g.files.len() as u32;
            g.by_path.insert(f.path.clone(), file);
            for s in &f.symbols {
                let id = g.symbols.len() as u32;
                g.by_name.entry(s.name.clone()).or_default().push(id);
                g.symbols.push(SymbolNode {
                    file,
                    symbol: s.clone(),
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
        g.keys = file_keys(&g.files);
        // Per file: each import's file, and import lines to the files they resolved to.
        let each: Vec<Vec<Option<u32>>> = facts
            .iter()
            .enumerate()
            .map(|(i, f)| resolve_imports(&g, i as u32, f))
            .collect();
        let resolved: Vec<Vec<(u32, u32)>> = facts
            .iter()
            .zip(&each)
            .map(|(f, files)| {
                f.imports
                    .iter()
                    .zip(files)
                    .filter_map(|((_, line), file)| file.map(|file| (*line, file)))
                    .collect()
            })
            .collect();
        for (i, lines) in resolved.iter().enumerate() {
            for &(line, to) in lines {
                if to != i as u32 {
                    g.imports.push(ImportEdge {
                        from: i as u32,
                        to,
                        line,
                    });
                }
            }
        }
        g.imports.sort_by_key(|e| (e.from, e.to, e.line));
        g.imports.dedup_by_key(|e| (e.from, e.to));
        // Names each file binds by import, then calls resolved with one re-export hop.
        let bindings: Vec<HashMap<&str, Vec<u32>>> = facts
            .iter()
            .enumerate()
            .map(|(i, f)| direct_bindings(&g, f, &each[i], &resolved[i]))
            .collect();
        let mut calls = Vec::new();
        let mut unresolved = 0;
        for (i, f) in facts.iter().enumerate() {
            unresolved += g.resolve_calls(i as u32, f, &resolved[i], &bindings, &mut calls);
        }
        g.unresolved_calls = unresolved;
        calls.sort_by_key(|e: &CallEdge| (e.from, e.to, e.confidence, e.line));
        calls.dedup_by_key(|e| (e.from, e.to));
        g.calls = calls;
        g.index_adjacency();
        g
    }

    pub fn file(&self, path: &str) -> Option<u32> {
        self.by_path.get(path).copied()
    }

    /// Definitions named exactly `name`.
    pub fn named(&self, name: &str) -> &[u32] {
        self.by_name.get(name).map_or(&[], Vec::as_slice)
    }

    /// The definitions of `file`, as positions in `symbols`.
    pub fn symbols_of(&self, file: u32) -> std::ops::Range<u32> {
        let f = &self.files[file as usize];
        f.first_symbol..f.first_symbol + f.symbol_count
    }

    /// The innermost definition of `file` whose lines hold `line`.
    pub fn enclosing(&self, file: u32, line: u32) -> Option<u32> {
        self.symbols_of(file)
            .filter(|&s| {
                let s = &self.symbols[s as usize].symbol;
                s.start_line <= line && line <= s.end_line
            })
            .min_by_key(|&s| self.symbols[s as usize].lines())
    }

    /// `Container::name` or `name`.
    pub fn qualified(&self, symbol: u32) -> String {
        let s = &self.symbols[symbol as usize].symbol;
        match &s.container {
            Some(c) => format!("{c}.{}", s.name),
            None => s.name.clone(),
        }
    }

    fn resolve_calls(
        &self,
        file: u32,
        facts: &FileFacts,
        imports: &[(u32, u32)],
        bindings: &[HashMap<&str, Vec<u32>>],
        out: &mut Vec<CallEdge>,
    ) -> usize {
        let mut unresolved = 0;
        // The imported modules' top-level callables by name, gathered once for the file.
        let mut imported: Vec<u32> = imports.iter().map(|&(_, f)| f).collect();
        imported.sort_unstable();
        imported.dedup();
        let mut members: HashMap<&str, Vec<u32>> = HashMap::new();
        for s in imported.iter().flat_map(|&f| self.symbols_of(f)) {
            let sym = &self.symbols[s as usize].symbol;
            if sym.container.is_none() && CALLABLE.contains(&sym.kind.as_str()) {
                members.entry(sym.name.as_str()).or_default().push(s);
            }
        }
        for (name, receiver, line) in &facts.calls {
            let Some(caller) = self.enclosing(file, *line) else {
                unresolved += 1;
                continue;
            };
            let scope = Scope {
                file,
                facts,
                imports,
                members: &members,
                bindings,
            };
            let (targets, confidence) = self.callee(&scope, caller, name, receiver);
            unresolved += usize::from(targets.is_empty());
            for to in targets {
                out.push(CallEdge {
                    from: caller,
                    to,
                    line: *line,
                    confidence,
                });
            }
        }
        unresolved
    }

    /// The definitions a call of `name` through `receiver` (empty for a plain call) from
    /// `caller` means, and how sure that is.
    fn callee(
        &self,
        scope: &Scope,
        caller: u32,
        name: &str,
        receiver: &str,
    ) -> (Vec<u32>, Confidence) {
        let callable = |s: &u32| CALLABLE.contains(&self.symbols[*s as usize].symbol.kind.as_str());
        let sym = |s: u32| &self.symbols[s as usize].symbol;
        let caller_sym = sym(caller);
        // A method's class, or the class (impl, ...) the caller itself is.
        let own = caller_sym.container.as_deref();
        let in_own = |s: &u32| {
            let c = sym(*s).container.as_deref();
            c.is_some() && (c == own || c == Some(caller_sym.name.as_str()))
        };
        let local: Vec<u32> = self
            .symbols_of(scope.file)
            .filter(|s| sym(*s).name == name && callable(s))
            .collect();
        // A bare `f()` reaches a method only where a class's own methods are in scope without
        // `self.` / `this.` (Java, C++); elsewhere it means a function.
        let implicit_this = matches!(scope.facts.language.as_deref(), Some("java" | "cpp"));
        let bare_reaches = |s: &u32| implicit_this || sym(*s).kind != "method";
        let few = |v: Vec<u32>| (!v.is_empty() && v.len() <= MAX_NAME_ONLY).then_some(v);
        let named = |keep: &dyn Fn(&u32) -> bool| -> Vec<u32> {
            self.named(name)
                .iter()
                .copied()
                .filter(|s| callable(s) && keep(s))
                .collect()
        };
        if receiver.is_empty() {
            let bound: Vec<u32> = scope.bound(name).into_iter().filter(callable).collect();
            if !bound.is_empty() {
                return (bound, Confidence::Import);
            }
            let local: Vec<u32> = local.into_iter().filter(bare_reaches).collect();
            if !local.is_empty() {
                let same: Vec<u32> = local.iter().copied().filter(in_own).collect();
                if !same.is_empty() {
                    return (same, Confidence::Container);
                }
                return (local, Confidence::File);
            }
            let members = scope.members.get(name).cloned().unwrap_or_default();
            if let Some(m) = few(members) {
                return (m, Confidence::Module);
            }
            return (
                few(named(&bare_reaches)).unwrap_or_default(),
                Confidence::Name,
            );
        }
        if SELF.contains(&receiver) {
            let same: Vec<u32> = local.iter().copied().filter(in_own).collect();
            if !same.is_empty() {
                return (same, Confidence::Container);
            }
            // Inherited, most likely: a method of that name elsewhere, when there are few.
            let methods = named(&|s| sym(*s).container.is_some());
            return (few(methods).unwrap_or_default(), Confidence::Name);
        }
        // Through a module the file imports under the receiver's first name, or by its path.
        let head = receiver.split(['.', ':']).next().unwrap_or(receiver);
        let mut modules = scope.module_files(head);
        // `from pkg import mod` resolves both pkg and pkg/mod on its line: the file named
        // like the receiver is the one meant.
        let named_like: Vec<u32> = modules
            .iter()
            .copied()
            .filter(|&f| {
                resolve::file_keys(&self.files[f as usize].path)
                    .iter()
                    .any(|k| k == head)
            })
            .collect();
        if !named_like.is_empty() {
            modules = named_like;
        }
        if modules.is_empty() && receiver.contains("::") {
            let importer = &self.files[scope.file as usize].path;
            modules = self.files_named(scope.facts.language.as_deref(), importer, receiver);
        }
        let through: Vec<u32> = modules
            .iter()
            .flat_map(|&f| self.symbols_of(f))
            .filter(|s| sym(*s).name == name && callable(s))
            .collect();
        // `Type.f()` through an imported type is that type's `f`; `module.f()` a top-level
        // `f`; a method of another class of that module is neither.
        let last = last_segment(receiver);
        let of_type: Vec<u32> = through
            .iter()
            .copied()
            .filter(|s| sym(*s).container.as_deref() == Some(last))
            .collect();
        if !of_type.is_empty() {
            return (of_type, Confidence::Import);
        }
        let top: Vec<u32> = through
            .iter()
            .copied()
            .filter(|s| sym(*s).container.is_none())
            .collect();
        if !top.is_empty() {
            return (top, Confidence::Import);
        }
        // A type named like the receiver's last name (`Foo::new`, `Config.load`).
        let typed: Vec<u32> = named(&|s| sym(*s).container.as_deref() == Some(last));
        if !typed.is_empty() {
            let here: Vec<u32> = typed
                .iter()
                .copied()
                .filter(|s| self.symbols[*s as usize].file == scope.file)
                .collect();
            return (
                if here.is_empty() { typed } else { here },
                Confidence::Container,
            );
        }
        // Some object: a method of that name, when there are few.
        let methods = named(&|s| sym(*s).container.is_some());
        (few(methods).unwrap_or_default(), Confidence::Name)
    }

    /// The files a module path written in `importer` may name, by the index's conventions:
    /// the last segment names the file, or (`use a::file::Item`) an earlier one does.
    fn files_named(&self, language: Option<&str>, importer: &str, name: &str) -> Vec<u32> {
        let candidates = resolve::candidates(language, importer, name);
        let mut tried = vec![resolve::import_key(name)];
        if name.contains("::") {
            tried.extend(name.split("::").map(str::to_string));
        }
        if candidates.is_empty() {
            return Vec::new();
        }
        tried
            .iter()
            .filter_map(|key| self.keys.get(key))
            .flatten()
            .copied()
            .filter(|&f| resolve::matches(&self.files[f as usize].path, &candidates))
            .collect()
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

/// What one file's calls are resolved against.
struct Scope<'a, 'f> {
    file: u32,
    facts: &'a FileFacts,
    /// Its imports' lines and the files they resolved to.
    imports: &'a [(u32, u32)],
    /// Top-level callables of those files, by name.
    members: &'a HashMap<&'a str, Vec<u32>>,
    /// Every file's direct import bindings.
    bindings: &'a [HashMap<&'f str, Vec<u32>>],
}

impl Scope<'_, '_> {
    /// The files an import binds to `name` in this file (`import os.path`, `from pkg import
    /// mod`, `import x as name`, `use a::b`): the files resolved on those import lines.
    fn module_files(&self, name: &str) -> Vec<u32> {
        let lines = self
            .facts
            .imports
            .iter()
            .filter(|(m, _)| last_segment(m) == name || m == name)
            .map(|(_, line)| *line)
            .chain(
                self.facts
                    .aliases
                    .iter()
                    .filter(|(_, local, _)| local == name)
                    .map(|(_, _, line)| *line),
            );
        let mut out: Vec<u32> = Vec::new();
        for line in lines {
            for &(l, f) in self.imports {
                if l == line {
                    out.push(f);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The definitions an import binds `name` to in this file: directly, or through one
    /// re-export (`from pkg import N` where pkg itself imports N from a submodule).
    fn bound(&self, name: &str) -> Vec<u32> {
        if let Some(direct) = self.bindings[self.file as usize].get(name) {
            return direct.clone();
        }
        let imported_as = self
            .facts
            .imports
            .iter()
            .filter(|(m, _)| last_segment(m) == name)
            .map(|(_, line)| (name, *line))
            .chain(
                self.facts
                    .aliases
                    .iter()
                    .filter(|(_, local, _)| local == name)
                    .map(|(original, _, line)| (original.as_str(), *line)),
            );
        let mut out = Vec::new();
        for (original, line) in imported_as {
            for &(_, f) in self.imports.iter().filter(|(l, _)| *l == line) {
                if let Some(defs) = self.bindings[f as usize].get(original) {
                    out.extend(defs.iter().copied());
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// Lookup key (last module segment, or a package's directory) to the files it may name.
fn file_keys(files: &[FileNode]) -> HashMap<String, Vec<u32>> {
    let mut keys: HashMap<String, Vec<u32>> = HashMap::new();
    for (i, f) in files.iter().enumerate() {
        for key in resolve::file_keys(&f.path) {
            keys.entry(key).or_default().push(i as u32);
        }
    }
    keys
}

/// The indexed file each import of `facts` names, in order (none where it names no file).
/// The shortest matching path wins, as the index's own resolution does.
fn resolve_imports(g: &Graph, file: u32, facts: &FileFacts) -> Vec<Option<u32>> {
    let importer = &g.files[file as usize].path;
    facts
        .imports
        .iter()
        .map(|(name, _)| {
            g.files_named(facts.language.as_deref(), importer, name)
                .into_iter()
                .min_by_key(|&f| (g.files[f as usize].path.len(), f))
        })
        .collect()
}

/// The last segment of a module path or an imported name (`a.b.c`, `a::b::C`, `./x/y`).
fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':', '/'])
        .find(|s| !s.is_empty())
        .unwrap_or(name)
}

/// The names `facts`' imports bind to definitions: `from m import N` and `use m::N` bind N to
/// m's definition of N; `import a as b` forms bind b. Each name is looked up in the file its
/// own import resolved to (`each`, aligned with `facts.imports`): in `from pkg import f, mod`
/// the line also resolves to pkg/mod, whose own `f` is not the one imported.
fn direct_bindings<'f>(
    g: &Graph,
    facts: &'f FileFacts,
    each: &[Option<u32>],
    resolved: &[(u32, u32)],
) -> HashMap<&'f str, Vec<u32>> {
    let mut out: HashMap<&str, Vec<u32>> = HashMap::new();
    let mut bind = |local: &'f str, name: &str, files: &[u32]| {
        let defs: Vec<u32> = files
            .iter()
            .flat_map(|&f| g.symbols_of(f))
            .filter(|s| {
                let sym = &g.symbols[*s as usize].symbol;
                sym.name == name && sym.container.is_none()
            })
            .collect();
        if !defs.is_empty() {
            out.entry(local).or_default().extend(defs);
        }
    };
    // An imported name's file: its own when it is a module, else its parent's on that line
    // (`from x.y import z` records x.y and x.y.z).
    let file_of = |i: usize| -> Option<u32> {
        each[i].or_else(|| {
            let (name, line) = &facts.imports[i];
            facts
                .imports
                .iter()
                .zip(each)
                .filter(|((parent, l), f)| {
                    // starts_with first: it makes parent.len() a char boundary of name.
                    l == line
                        && f.is_some()
                        && name.len() > parent.len()
                        && name.starts_with(parent.as_str())
                        && (parent.ends_with(['.', ':', '/'])
                            || name[parent.len()..].starts_with(['.', ':', '/']))
                })
                .max_by_key(|((parent, _), _)| parent.len())
                .and_then(|(_, f)| *f)
        })
    };
    for (i, (name, _)) in facts.imports.iter().enumerate() {
        let last = last_segment(name);
        bind(last, last, file_of(i).as_slice());
    }
    for (name, local, line) in &facts.aliases {
        // The import of that line naming the definition, else whatever the line resolved to.
        let own: Vec<u32> = facts
            .imports
            .iter()
            .enumerate()
            .filter(|(_, (imported, l))| l == line && last_segment(imported) == name)
            .filter_map(|(i, _)| file_of(i))
            .collect();
        let files: Vec<u32> = if own.is_empty() {
            resolved
                .iter()
                .filter(|(l, _)| l == line)
                .map(|(_, f)| *f)
                .collect()
        } else {
            own
        };
        bind(local.as_str(), name.as_str(), &files);
    }
    out
}
