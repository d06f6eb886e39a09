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
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

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
    by_name: HashMap<String, Vec<u32>>,
    /// Each file's definitions sorted by name (laid out as `symbols`): a name's definitions
    /// in one file by binary search, not by a scan of a large file's every definition.
    by_file_name: Vec<u32>,
    /// File lookup keys (see [`resolve::file_keys`]) to files.
    keys: HashMap<String, Vec<u32>>,
}

impl Graph {
    /// Resolves the facts of every code file into both graphs.
    pub fn build(facts: &[Arc<FileFacts>]) -> Graph {
        Self::update(None, facts)
    }

    /// The graphs of `facts` (every code file, in catalogue order), resolving again only
    /// the files whose edges can differ from `previous`'s: the changed, added and removed
    /// files, the files importing them (and one hop further, for re-exports), the files
    /// whose imports may name an added or removed file, and the files calling a name a
    /// changed file defines or defined. Every other file's edges are carried over.
    pub fn update(previous: Option<&Graph>, facts: &[Arc<FileFacts>]) -> Graph {
        let mut g = Graph::nodes(facts);
        let n = facts.len();
        // Each file's position in `previous` when its content is unchanged.
        let kept: Vec<Option<u32>> = facts
            .iter()
            .map(|f| {
                let p = previous?;
                p.file(&f.path)
                    .filter(|&o| p.files[o as usize].hash == f.hash)
            })
            .collect();
        let plan = match previous {
            Some(p) => p.plan(&g, facts, &kept),
            None => Plan {
                dirty: vec![true; n],
                moved: HashMap::new(),
            },
        };
        let mut dirty = plan.dirty.clone();
        // Old file positions to new ones, for carrying edges over.
        let moved: Vec<Option<u32>> = previous.map_or_else(Vec::new, |p| {
            p.files.iter().map(|f| g.file(&f.path)).collect()
        });
        let mut each: Vec<Vec<Option<u32>>> = Vec::with_capacity(n);
        for (i, f) in facts.iter().enumerate() {
            let carried = match (previous, kept[i]) {
                (Some(p), Some(o)) if !dirty[i] => p.links[o as usize]
                    .iter()
                    .map(|t| match t {
                        Some(t) => moved[*t as usize].map(Some),
                        None => Some(None),
                    })
                    .collect::<Option<Vec<_>>>(),
                _ => None,
            };
            // An import that named a removed file: resolve the file again.
            dirty[i] |= carried.is_none();
            each.push(carried.unwrap_or_else(|| resolve_imports(&g, i as u32, f)));
        }
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
        // Calls: carried over where the file and every file its edges land in are unchanged,
        // else resolved with the names each file binds by import (one re-export hop).
        let mut calls = Vec::new();
        let mut carried_from = vec![false; n];
        if let Some(p) = previous {
            for i in 0..n {
                if let (false, Some(o)) = (dirty[i], kept[i])
                    && let Some(edges) = p.carry_calls(&g, o, i as u32, &moved, &kept, &plan)
                {
                    calls.extend(edges);
                    g.unresolved[i] = p.unresolved[o as usize];
                    carried_from[i] = true;
                }
            }
        }
        // The bindings a resolved file reads: its own and its imports' (the re-export hop).
        let mut wanted = vec![false; n];
        for i in (0..n).filter(|&i| !carried_from[i]) {
            wanted[i] = true;
            for &(_, f) in &resolved[i] {
                wanted[f as usize] = true;
            }
        }
        let bindings: Vec<HashMap<&str, Vec<u32>>> = (0..n)
            .map(|i| {
                if wanted[i] {
                    direct_bindings(&g, &facts[i], &each[i], &resolved[i])
                } else {
                    HashMap::new()
                }
            })
            .collect();
        for i in (0..n).filter(|&i| !carried_from[i]) {
            let mut own = Vec::new();
            let missed = g.resolve_calls(i as u32, &facts[i], &resolved[i], &bindings, &mut own);
            g.unresolved[i] = missed as u32;
            calls.extend(own);
        }
        drop(bindings);
        g.unresolved_calls = g.unresolved.iter().map(|&u| u as usize).sum();
        g.resolved_again = carried_from.iter().filter(|c| !**c).count();
        calls.sort_by_key(|e: &CallEdge| (e.from, e.to, e.confidence, e.line));
        calls.dedup_by_key(|e| (e.from, e.to));
        g.calls = calls;
        g.links = each;
        g.facts = facts.to_vec();
        g.index_adjacency();
        g
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
                g.by_name.entry(s.name.clone()).or_default().push(id);
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
        g.keys = file_keys(&g.files);
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
        g
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
        // Largest first, and among equals the earliest last: it is the one that stays.
        order.sort_by_key(|&s| std::cmp::Reverse((self.symbols[s as usize].lines(), s)));
        for s in order {
            let sym = self.symbols[s as usize].symbol();
            let end = (sym.end_line as usize).min(out.len() - 1);
            for slot in out.iter_mut().take(end + 1).skip(sym.start_line as usize) {
                *slot = Some(s);
            }
        }
        out
    }

    /// Which files of the next graph (`next`, with its `facts`; `kept` their unchanged
    /// positions in `self`) must be resolved again, and where the unchanged definitions of
    /// the changed files went, so that edges into them carry over.
    ///
    /// Resolving a file's calls reads its own facts, which paths exist (its imports and
    /// `a::b` paths), and otherwise only definitions and import bindings *by name*: the
    /// names it calls, imports and aliases. So a change is described by the names whose
    /// definitions differ (by kind and container, the attributes resolution reads) and the
    /// names a changed file's imports bind differently, and a file is resolved again when
    /// it is changed, names a path that appeared or went, or uses one of those names.
    fn plan(&self, next: &Graph, facts: &[Arc<FileFacts>], kept: &[Option<u32>]) -> Plan {
        let mut dirty: Vec<bool> = kept.iter().map(Option::is_none).collect();
        let mut names: HashSet<&str> = HashSet::new();
        let mut moved: HashMap<u32, Vec<Option<u32>>> = HashMap::new();
        let removed: Vec<u32> = (0..self.files.len() as u32)
            .filter(|&o| next.file(&self.files[o as usize].path).is_none())
            .collect();
        for &o in &removed {
            names.extend(
                self.symbols_of(o)
                    .map(|s| self.symbols[s as usize].symbol().name.as_str()),
            );
        }
        // Paths that appeared or went: an import (or an `a::b::f()` path) may name them now.
        let mut keys: HashSet<String> = removed
            .iter()
            .flat_map(|&o| resolve::file_keys(&self.files[o as usize].path))
            .collect();
        for (i, f) in facts.iter().enumerate().filter(|(i, _)| kept[*i].is_none()) {
            match self.file(&f.path) {
                None => {
                    keys.extend(resolve::file_keys(&f.path));
                    names.extend(f.symbols.iter().map(|s| s.name.as_str()));
                }
                Some(o) => {
                    let (changed, map) = self.compare_definitions(o, next, i as u32);
                    names.extend(changed);
                    moved.insert(o, map);
                    let before = &self.facts[o as usize];
                    if !same_imports(before, f) {
                        names.extend(import_names(before));
                        names.extend(import_names(f));
                    }
                }
            }
        }
        // A file whose imports may resolve elsewhere now binds anything it imports anew.
        for (i, f) in facts.iter().enumerate() {
            let names_a_path = !keys.is_empty()
                && (f
                    .imports
                    .iter()
                    .any(|(m, _)| tried_keys(m).any(|k| keys.contains(&k)))
                    || f.calls.iter().any(|(_, r, _)| {
                        r.contains("::") && tried_keys(r).any(|k| keys.contains(&k))
                    }));
            if names_a_path {
                dirty[i] = true;
                names.extend(used_names(f));
            }
        }
        // One re-export hop: `from y import n as l` binds `l` to whatever `n` now means.
        let aliased: Vec<&str> = facts
            .iter()
            .flat_map(|f| &f.aliases)
            .filter(|(original, _, _)| names.contains(original.as_str()))
            .map(|(_, local, _)| local.as_str())
            .collect();
        names.extend(aliased);
        if !names.is_empty() {
            for (i, f) in facts.iter().enumerate() {
                dirty[i] = dirty[i] || used_names(f).any(|n| names.contains(n));
            }
        }
        Plan { dirty, moved }
    }

    /// Old file `old` against its new version `new` in `next`: the names whose definitions
    /// differ in kind or container or number, and, per old definition, its new position in
    /// the file when its name is not among those.
    fn compare_definitions<'a>(
        &'a self,
        old: u32,
        next: &'a Graph,
        new: u32,
    ) -> (Vec<&'a str>, Vec<Option<u32>>) {
        type Key<'k> = (&'k str, &'k str, Option<&'k str>);
        let key = |s: &'a Symbol| -> Key<'a> {
            (s.name.as_str(), s.kind.as_str(), s.container.as_deref())
        };
        let mut after: HashMap<Key, Vec<u32>> = HashMap::new();
        for (local, s) in next.symbols_of(new).enumerate() {
            after
                .entry(key(next.symbols[s as usize].symbol()))
                .or_default()
                .push(local as u32);
        }
        let mut before: HashMap<Key, Vec<u32>> = HashMap::new();
        for (local, s) in self.symbols_of(old).enumerate() {
            before
                .entry(key(self.symbols[s as usize].symbol()))
                .or_default()
                .push(local as u32);
        }
        let mut map = vec![None; self.files[old as usize].symbol_count as usize];
        let mut changed: Vec<&str> = Vec::new();
        for (k, locals) in &before {
            match after.get(k) {
                Some(now) if now.len() == locals.len() => {
                    for (o, n) in locals.iter().zip(now) {
                        map[*o as usize] = Some(*n);
                    }
                }
                _ => changed.push(k.0),
            }
        }
        changed.extend(
            after
                .keys()
                .filter(|k| !before.contains_key(*k))
                .map(|k| k.0),
        );
        // A name with any differing definition is resolved again wherever it is used.
        let changed_set: HashSet<&str> = changed.iter().copied().collect();
        for (local, s) in self.symbols_of(old).enumerate() {
            if changed_set.contains(self.symbols[s as usize].symbol().name.as_str()) {
                map[local] = None;
            }
        }
        (changed, map)
    }

    /// The facts a file of this graph was built from: what the next update compares with,
    /// and what a planned edit is put beside.
    pub fn facts_of_file(&self, file: u32) -> Arc<FileFacts> {
        self.facts[file as usize].clone()
    }

    /// `self`'s call edges out of its file `old`, moved to that file's position `new` in
    /// `next`; none when one lands in a definition that changed or went (`moved` maps old
    /// file positions to new, `kept` new ones to unchanged old ones, `plan` the unchanged
    /// definitions of changed files).
    fn carry_calls(
        &self,
        next: &Graph,
        old: u32,
        new: u32,
        moved: &[Option<u32>],
        kept: &[Option<u32>],
        plan: &Plan,
    ) -> Option<Vec<CallEdge>> {
        let range = self.symbols_of(old);
        let from_base = next.files[new as usize].first_symbol;
        let first = self.calls.partition_point(|e| e.from < range.start);
        let last = self.calls.partition_point(|e| e.from < range.end);
        self.calls[first..last]
            .iter()
            .map(|e| {
                let target = self.symbols[e.to as usize].file;
                let to_file = moved[target as usize]?;
                let local = e.to - self.files[target as usize].first_symbol;
                let local = if kept[to_file as usize] == Some(target) {
                    local
                } else {
                    (*plan.moved.get(&target)?.get(local as usize)?)?
                };
                Some(CallEdge {
                    from: from_base + (e.from - range.start),
                    to: next.files[to_file as usize].first_symbol + local,
                    ..*e
                })
            })
            .collect()
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
                let s = self.symbols[s as usize].symbol();
                s.start_line <= line && line <= s.end_line
            })
            .min_by_key(|&s| self.symbols[s as usize].lines())
    }

    /// `Container::name` or `name`.
    pub fn qualified(&self, symbol: u32) -> String {
        let s = self.symbols[symbol as usize].symbol();
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
            let sym = self.symbols[s as usize].symbol();
            if sym.container.is_none() && CALLABLE.contains(&sym.kind.as_str()) {
                members.entry(sym.name.as_str()).or_default().push(s);
            }
        }
        let innermost = self.innermost_by_line(file);
        let scope = Scope::new(file, facts, imports, &members, bindings);
        for (name, receiver, line) in &facts.calls {
            let Some(caller) = innermost.get(*line as usize).copied().flatten() else {
                unresolved += 1;
                continue;
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
        let callable =
            |s: &u32| CALLABLE.contains(&self.symbols[*s as usize].symbol().kind.as_str());
        let sym = |s: u32| self.symbols[s as usize].symbol();
        let caller_sym = sym(caller);
        // A method's class, or the class (impl, ...) the caller itself is.
        let own = caller_sym.container.as_deref();
        let in_own = |s: &u32| {
            let c = sym(*s).container.as_deref();
            c.is_some() && (c == own || c == Some(caller_sym.name.as_str()))
        };
        let local: Vec<u32> = self
            .defined_in(scope.file, name)
            .into_iter()
            .filter(callable)
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
            .flat_map(|&f| self.defined_in(f, name))
            .filter(callable)
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
        if candidates.is_empty() {
            return Vec::new();
        }
        tried_keys(name)
            .filter_map(|key| self.keys.get(&key))
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
    /// Top-level callables of the files it imports, by name.
    members: &'a HashMap<&'a str, Vec<u32>>,
    /// Every file's direct import bindings.
    bindings: &'a [HashMap<&'f str, Vec<u32>>],
    /// Import lines by the last segment of the module path they name, and by the whole.
    by_last: HashMap<&'a str, Vec<u32>>,
    by_whole: HashMap<&'a str, Vec<u32>>,
    /// `import a as b` forms by local name: (original name, line).
    aliased: HashMap<&'a str, Vec<(&'a str, u32)>>,
    /// Import line to the files it resolved to.
    files_on: HashMap<u32, Vec<u32>>,
}

impl<'a, 'f> Scope<'a, 'f> {
    /// What one file's calls are resolved against, gathered once for all of them.
    fn new(
        file: u32,
        facts: &'a FileFacts,
        imports: &[(u32, u32)],
        members: &'a HashMap<&'a str, Vec<u32>>,
        bindings: &'a [HashMap<&'f str, Vec<u32>>],
    ) -> Self {
        let mut scope = Scope {
            file,
            facts,
            members,
            bindings,
            by_last: HashMap::new(),
            by_whole: HashMap::new(),
            aliased: HashMap::new(),
            files_on: HashMap::new(),
        };
        for (m, line) in &facts.imports {
            scope
                .by_last
                .entry(last_segment(m))
                .or_default()
                .push(*line);
            scope.by_whole.entry(m.as_str()).or_default().push(*line);
        }
        for (original, local, line) in &facts.aliases {
            scope
                .aliased
                .entry(local.as_str())
                .or_default()
                .push((original.as_str(), *line));
        }
        for &(line, f) in imports {
            scope.files_on.entry(line).or_default().push(f);
        }
        scope
    }

    fn files_on(&self, line: u32) -> &[u32] {
        self.files_on.get(&line).map_or(&[], Vec::as_slice)
    }

    /// The files an import binds to `name` in this file (`import os.path`, `from pkg import
    /// mod`, `import x as name`, `use a::b`): the files resolved on those import lines.
    fn module_files(&self, name: &str) -> Vec<u32> {
        let lines = [self.by_last.get(name), self.by_whole.get(name)]
            .into_iter()
            .flatten()
            .flatten()
            .copied()
            .chain(
                self.aliased
                    .get(name)
                    .into_iter()
                    .flatten()
                    .map(|(_, line)| *line),
            );
        let mut out: Vec<u32> = lines
            .flat_map(|line| self.files_on(line).iter().copied())
            .collect();
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
            .by_last
            .get(name)
            .into_iter()
            .flatten()
            .map(|line| (name, *line))
            .chain(self.aliased.get(name).into_iter().flatten().copied());
        let mut out = Vec::new();
        for (original, line) in imported_as {
            for &f in self.files_on(line) {
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

/// What an update resolves again, and where the unchanged definitions of changed files went
/// (old file position to, per old definition, its new position within the file).
struct Plan {
    dirty: Vec<bool>,
    moved: HashMap<u32, Vec<Option<u32>>>,
}

/// Every name a file's resolution looks up elsewhere: the names it calls, the last names of
/// the paths it imports, and both names of its aliases.
fn used_names(f: &FileFacts) -> impl Iterator<Item = &str> {
    f.calls
        .iter()
        .map(|(name, _, _)| name.as_str())
        .chain(import_names(f))
}

/// The names a file's imports may bind: the last names of the paths it imports and both
/// names of its aliases.
fn import_names(f: &FileFacts) -> impl Iterator<Item = &str> {
    f.imports.iter().map(|(m, _)| last_segment(m)).chain(
        f.aliases
            .iter()
            .flat_map(|(name, local, _)| [name.as_str(), local.as_str()]),
    )
}

/// The same imports and aliases, lines aside: the file binds the same names to the same
/// modules.
fn same_imports(a: &FileFacts, b: &FileFacts) -> bool {
    fn imports(f: &FileFacts) -> Vec<&str> {
        let mut v: Vec<&str> = f.imports.iter().map(|(m, _)| m.as_str()).collect();
        v.sort_unstable();
        v
    }
    fn aliases(f: &FileFacts) -> Vec<(&str, &str)> {
        let mut v: Vec<(&str, &str)> = f
            .aliases
            .iter()
            .map(|(n, l, _)| (n.as_str(), l.as_str()))
            .collect();
        v.sort_unstable();
        v
    }
    imports(a) == imports(b) && aliases(a) == aliases(b)
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
            .flat_map(|&f| g.defined_in(f, name))
            .filter(|s| g.symbols[*s as usize].symbol().container.is_none())
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
