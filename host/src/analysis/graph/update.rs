//! Keeping the graph current: after a change only the files whose edges could have moved are resolved again (by what their facts, and the definitions they can see, changed); the rest carry their edges over.

use super::*;
use crate::index::code::{self, STAR, types};
use rayon::prelude::*;

impl Graph {
    /// The graphs of `facts` (every code file, in catalogue order), resolving again only
    /// the files whose edges can differ from `previous`'s: the changed, added and removed
    /// files, the files importing them (and one hop further, for re-exports), the files
    /// whose imports may name an added or removed file, and the files calling a name a
    /// changed file defines or defined. Every other file's edges are carried over.
    ///
    /// The SCIP index `previous` was resolved with stays in use (see [`Graph::update_with`]).
    pub fn update(previous: Option<&Graph>, facts: &[Arc<FileFacts>]) -> Graph {
        Self::update_with(
            previous,
            facts,
            previous.and_then(|p| p.scip.clone()),
            previous.map(|p| p.manifests.clone()).unwrap_or_default(),
        )
    }

    /// [`Graph::update`] resolving calls through `scip` in the files it describes, and Go
    /// imports and Rust paths through the tree's `manifests`. A different SCIP index or
    /// manifests than `previous`'s builds every edge afresh.
    pub fn update_with(
        previous: Option<&Graph>,
        facts: &[Arc<FileFacts>],
        scip: Option<Arc<ScipView>>,
        manifests: Manifests,
    ) -> Graph {
        let index_hash = |s: &Option<Arc<ScipView>>| s.as_ref().map(|v| v.index.hash.clone());
        let previous = previous
            .filter(|p| index_hash(&p.scip) == index_hash(&scip) && p.manifests == manifests);
        let mut g = Graph::nodes(facts);
        g.scip = scip;
        for (i, f) in g.files.iter().enumerate() {
            if f.language.as_deref() == Some("go") {
                let dir = f.path.rsplit_once('/').map_or("", |(d, _)| d);
                g.go_dirs.entry(dir.to_string()).or_default().push(i as u32);
            }
        }
        g.manifests = manifests;
        // Resolution reads other files' facts (their module-level variables' types).
        g.facts = facts.to_vec();
        g.field_types = typing::field_types(facts);
        g.stated_returns = typing::stated_returns(facts);
        g.go_values = typing::go_package_values(facts);
        g.variants = typing::variants(facts);
        g.fixtures = fixtures::table(facts);
        g.subclasses = g.subclass_table();
        let n = facts.len();
        // Each file's position in `previous` when its content (and whether the SCIP index
        // describes it) is unchanged.
        let kept: Vec<Option<u32>> = facts
            .iter()
            .enumerate()
            .map(|(i, f)| {
                let p = previous?;
                p.file(&f.path).filter(|&o| {
                    p.files[o as usize].hash == f.hash
                        && p.scip_for(o).is_some() == g.scip_for(i as u32).is_some()
                })
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
        // Each file resolves against the graph's nodes alone, so files resolve in parallel
        // (here and for calls below), each into its own slot: the same edges in the same
        // order whatever the threads.
        let (again, each): (Vec<bool>, Vec<Vec<Option<u32>>>) = facts
            .par_iter()
            .enumerate()
            .map(|(i, f)| {
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
                match carried {
                    Some(links) => (false, links),
                    None => (true, resolve_imports(&g, i as u32, f)),
                }
            })
            .unzip();
        for (dirty, again) in dirty.iter_mut().zip(again) {
            *dirty |= again;
        }
        // A Go import names a package, which is a directory: its line stands for every
        // file of it, not the one file its path resolved to (`doc.go` before `mux.go`).
        let resolved: Vec<Vec<(u32, u32)>> = facts
            .iter()
            .zip(&each)
            .map(|(f, files)| {
                f.imports
                    .iter()
                    .zip(files)
                    .filter_map(|((_, line), file)| file.map(|file| (*line, file)))
                    .flat_map(|(line, file)| {
                        g.package_files(file)
                            .into_iter()
                            .map(move |member| (line, member))
                    })
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
        let bindings: Vec<calls::Bindings> = (0..n)
            .into_par_iter()
            .map(|i| {
                if wanted[i] {
                    direct_bindings(&g, i as u32, facts, &each[i], &resolved)
                } else {
                    HashMap::new()
                }
            })
            .collect();
        let own: Vec<(usize, usize, Vec<CallEdge>)> = (0..n)
            .into_par_iter()
            .filter(|&i| !carried_from[i])
            .map(|i| {
                let mut own = Vec::new();
                let missed =
                    g.resolve_calls(i as u32, &facts[i], &resolved[i], &bindings, &mut own);
                (i, missed, own)
            })
            .collect();
        for (i, missed, own) in own {
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
        g.index_adjacency();
        g
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
    pub(super) fn plan(
        &self,
        next: &Graph,
        facts: &[Arc<FileFacts>],
        kept: &[Option<u32>],
    ) -> Plan {
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
            let gone = typing::declared_fields(&self.facts[o as usize]);
            names.extend(gone.into_iter().map(|(_, field, _)| field));
        }
        // Paths that appeared or went: an import (or an `a::b::f()` path) may name them now.
        let mut keys: HashSet<String> = removed
            .iter()
            .flat_map(|&o| lookup_keys(&self.facts[o as usize]))
            .collect();
        for (i, f) in facts.iter().enumerate().filter(|(i, _)| kept[*i].is_none()) {
            match self.file(&f.path) {
                None => {
                    keys.extend(lookup_keys(f));
                    names.extend(f.symbols.iter().map(|s| s.name.as_str()));
                    let added = typing::declared_fields(f);
                    names.extend(added.into_iter().map(|(_, field, _)| field));
                }
                Some(o) => {
                    let (changed, map) = self.compare_definitions(o, next, i as u32);
                    // A class gaining or losing `__call__`: what calling a field holding it
                    // makes (see `Graph::classes_held`), wherever the class is named.
                    if changed.contains(&"__call__") {
                        let before = &self.facts[o as usize];
                        names.extend(
                            [before.as_ref(), f.as_ref()]
                                .into_iter()
                                .flat_map(|x| &x.symbols)
                                .filter(|s| s.name == "__call__")
                                .filter_map(|s| s.container.as_deref()),
                        );
                    }
                    // A type appearing or going, or an `impl` of it changing (a trait's
                    // becoming the type's own): which type the file's methods under that
                    // name belong to (a Rust type of another file's name, inherent methods
                    // first), wherever those methods are called.
                    let before = self.facts[o as usize].as_ref();
                    let typed_in = |x: &FileFacts, n: &str| {
                        x.symbols.iter().any(|s| {
                            s.name == n
                                && s.container.is_none()
                                && (TYPE_LIKE.contains(&s.kind.as_str()) || s.kind == "impl")
                        })
                    };
                    let owners: HashSet<&str> = changed
                        .iter()
                        .copied()
                        .filter(|n| typed_in(before, n) || typed_in(f, n))
                        .collect();
                    for x in [before, f.as_ref()] {
                        names.extend(
                            x.symbols
                                .iter()
                                .filter(|s| {
                                    s.container.as_deref().is_some_and(|c| owners.contains(c))
                                })
                                .map(|s| s.name.as_str()),
                        );
                    }
                    names.extend(changed);
                    moved.insert(o, map);
                    let before = &self.facts[o as usize];
                    // A namespace declared, dropped or renamed (`Shop.Services` to
                    // `Legacy.Services` keeps the key): `using`s of either may name another
                    // file now.
                    let declared = |x: &FileFacts| {
                        resolve::declared_modules(x.language.as_deref(), &x.symbols)
                    };
                    if lookup_keys(before) != lookup_keys(f) || declared(before) != declared(f) {
                        keys.extend(lookup_keys(before));
                        keys.extend(lookup_keys(f));
                    }
                    if !same_imports(before, f) {
                        names.extend(import_names(before));
                        names.extend(import_names(f));
                        // A star import offers every name of the modules it reaches.
                        names.extend(self.star_offered(o, &|x| self.import_lines(x)));
                        let resolve = |x: u32| {
                            let facts = &next.facts[x as usize];
                            let files = resolve_imports(next, x, facts);
                            lines_to(facts, &files)
                        };
                        names.extend(next.star_offered(i as u32, &resolve));
                    }
                    // A field's declared type: what calls through it elsewhere reach.
                    let (was, is) = (typing::declared_fields(before), typing::declared_fields(f));
                    names.extend(was.symmetric_difference(&is).map(|(_, field, _)| *field));
                    // A class that now implements or extends something else: calls through
                    // those types may dispatch to its methods, or no longer.
                    let was: HashSet<(&str, &str)> = declared_bases(before).collect();
                    let is: HashSet<(&str, &str)> = declared_bases(f).collect();
                    for (class, base) in was.symmetric_difference(&is) {
                        // The class too: a base given apart from its declaration
                        // (`inherits(A, B)`) leaves the declaration as it was.
                        names.insert(base);
                        names.insert(class);
                        for x in [before.as_ref(), f.as_ref()] {
                            names.extend(
                                x.symbols
                                    .iter()
                                    .filter(|s| s.container.as_deref() == Some(*class))
                                    .map(|s| s.name.as_str()),
                            );
                        }
                    }
                    // A fixture's type: what the tests taking it call.
                    let was: HashSet<_> = fixtures::declared(before).into_iter().collect();
                    let is: HashSet<_> = fixtures::declared(f).into_iter().collect();
                    names.extend(was.symmetric_difference(&is).map(|(name, _)| *name));
                }
            }
        }
        // A module's value named in a file's JSDoc (`import('./client.js')`) is read from
        // that module's facts by its path: any change there may retype the names so typed,
        // in that file and, through a field or a declared return, wherever those are used.
        let touched: Vec<&str> = removed
            .iter()
            .map(|&o| self.files[o as usize].path.as_str())
            .chain(
                facts
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| kept[*i].is_none())
                    .map(|(_, f)| f.path.as_str()),
            )
            .collect();
        for (i, f) in facts.iter().enumerate() {
            for t in &f.types {
                let Some(module) = t.type_name.strip_prefix(types::MODULE_VALUE) else {
                    continue;
                };
                if !touched.iter().any(|path| types::module_is(module, path)) {
                    continue;
                }
                dirty[i] = true;
                if t.name == types::RETURNED {
                    let returning = f.symbols.iter().filter(|s| s.start_line == t.line);
                    names.extend(returning.map(|s| s.name.as_str()));
                } else {
                    names.insert(t.name.as_str());
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
                // A star import now reaching another module offers other names.
                if let Some(o) = self.file(&f.path) {
                    names.extend(self.star_offered(o, &|x| self.import_lines(x)));
                }
                let resolve = |x: u32| {
                    let facts = &next.facts[x as usize];
                    lines_to(facts, &resolve_imports(next, x, facts))
                };
                names.extend(next.star_offered(i as u32, &resolve));
            }
        }
        // A Python package appeared or went: absolute imports inside it resolve differently
        // (`import typing` in a package never means its own typing.py).
        let package_moved = touched.iter().any(|p| {
            let appeared_or_went = self.file(p).is_none() || next.file(p).is_none();
            appeared_or_went && (*p == "__init__.py" || p.ends_with("/__init__.py"))
        });
        if package_moved {
            for (i, f) in facts.iter().enumerate() {
                if f.language.as_deref() == Some("python") {
                    dirty[i] = true;
                    names.extend(used_names(f));
                }
            }
        }
        // A class whose base changed resolves `super()` differently, and so do its own
        // subclasses: every class below a changed name is changed too, and every function
        // declared to return one (what its callers' variables are).
        if !names.is_empty() {
            let mut subclasses: HashMap<&str, Vec<&str>> = HashMap::new();
            for (class, base) in facts.iter().flat_map(|f| declared_bases(f)) {
                subclasses.entry(base).or_default().push(class);
            }
            // A Rust type has what the traits it implements have (their default methods,
            // their supertraits'): it changes with them.
            for (ty, implemented) in facts.iter().flat_map(|f| typing::trait_impls(f)) {
                subclasses.entry(implemented).or_default().push(ty);
            }
            let mut returning: HashMap<String, Vec<&str>> = HashMap::new();
            for f in facts {
                let language = f.language.as_deref();
                let stated = types::stated_returns(&f.types);
                for s in &f.symbols {
                    // A tuple's elements too (`-> Tuple[str, Command]`: what the names its
                    // value is unpacked into are).
                    let stated = stated.get(&s.start_line).copied();
                    let returned = types::declared_return(language, s, stated)
                        .into_iter()
                        .chain(
                            types::returned_elements(language, &s.signature)
                                .into_iter()
                                .flatten(),
                        );
                    for returned in returned {
                        // Named through a module or package too (`dir::Ignore`,
                        // `diff.Result`): each name in it may be the one that changes.
                        for piece in type_pieces(&returned) {
                            returning
                                .entry(piece.to_string())
                                .or_default()
                                .push(s.name.as_str());
                        }
                    }
                }
            }
            // A field or module variable typed by a name (`self.config = self.make_config()`,
            // `current_app: Flask`): what calls through it reach moves with that name.
            let mut typed_by: HashMap<&str, Vec<&str>> = HashMap::new();
            for f in facts {
                for (_, field, type_name) in typing::declared_fields(f) {
                    for piece in type_pieces(type_name) {
                        typed_by.entry(piece).or_default().push(field);
                    }
                }
            }
            let mut pending: Vec<&str> = names.iter().copied().collect();
            while let Some(n) = pending.pop() {
                let below = subclasses.get(n).into_iter().flatten();
                let dependent = [returning.get(n), typed_by.get(n)];
                for &sub in below.chain(dependent.into_iter().flatten().flatten()) {
                    if names.insert(sub) {
                        pending.push(sub);
                    }
                }
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
    pub(super) fn compare_definitions<'a>(
        &'a self,
        old: u32,
        next: &'a Graph,
        new: u32,
    ) -> (Vec<&'a str>, Vec<Option<u32>>) {
        // The declaration takes part: a class's names its bases (what `super()` resolves
        // through), a function's its return type (what a variable assigned its result is),
        // stated apart too (JSDoc's `@returns {T}`).
        type Key<'k> = (&'k str, &'k str, Option<&'k str>, &'k str, Option<&'k str>);
        let keys = |g: &'a Graph, file: u32| -> Vec<Key<'a>> {
            let returned = types::stated_returns(&g.facts[file as usize].types);
            g.symbols_of(file)
                .map(|s| {
                    let s = g.symbols[s as usize].symbol();
                    (
                        s.name.as_str(),
                        s.kind.as_str(),
                        s.container.as_deref(),
                        s.signature.as_str(),
                        returned.get(&s.start_line).copied(),
                    )
                })
                .collect()
        };
        let mut after: HashMap<Key, Vec<u32>> = HashMap::new();
        for (local, k) in keys(next, new).into_iter().enumerate() {
            after.entry(k).or_default().push(local as u32);
        }
        let mut before: HashMap<Key, Vec<u32>> = HashMap::new();
        for (local, k) in keys(self, old).into_iter().enumerate() {
            before.entry(k).or_default().push(local as u32);
        }
        let mut map = vec![None; self.files[old as usize].symbol_count as usize];
        let mut changed: Vec<&str> = Vec::new();
        // A type declared inside a type (Rust's `type Item = Node;` of `impl Iterator for
        // Nodes`): what ranging over its holder gives changes with it, so the holder does.
        let with_holder = |k: &Key<'a>| {
            let holder = k.2.filter(|_| k.1 == "type");
            std::iter::once(k.0).chain(holder)
        };
        for (k, locals) in &before {
            match after.get(k) {
                Some(now) if now.len() == locals.len() => {
                    for (o, n) in locals.iter().zip(now) {
                        map[*o as usize] = Some(*n);
                    }
                }
                _ => changed.extend(with_holder(k)),
            }
        }
        changed.extend(
            after
                .keys()
                .filter(|k| !before.contains_key(*k))
                .flat_map(with_holder),
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

    /// `self`'s call edges out of its file `old`, moved to that file's position `new` in
    /// `next`; none when one lands in a definition that changed or went (`moved` maps old
    /// file positions to new, `kept` new ones to unchanged old ones, `plan` the unchanged
    /// definitions of changed files).
    pub(super) fn carry_calls(
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
}

/// What an update resolves again, and where the unchanged definitions of changed files went
/// (old file position to, per old definition, its new position within the file).
pub(super) struct Plan {
    pub(super) dirty: Vec<bool>,
    pub(super) moved: HashMap<u32, Vec<Option<u32>>>,
}

/// Every name a file's resolution looks up elsewhere: the names it calls and calls through,
/// the last names of the paths it imports, both names of its aliases, the bases its classes declare and the
/// types it gives its names.
pub(super) fn used_names(f: &FileFacts) -> impl Iterator<Item = &str> {
    f.calls
        .iter()
        .map(|(name, _, _)| name.as_str())
        // A receiver's names: the module, type or path it may be (`a.b.C()`, `io::Error`).
        .chain(f.calls.iter().flat_map(|(_, receiver, _)| {
            // A chain of calls (`Builder().add()`) names each call.
            receiver
                .split(['.', ':', '(', ')', '[', ']', code::NAMED_AS_VALUE])
                .filter(|s| !s.is_empty())
        }))
        .chain(import_names(f))
        .chain(declared_bases(f).map(|(_, base)| base))
        .chain(f.types.iter().flat_map(|t| type_pieces(&t.type_name)))
}

/// A stated type's names: the whole and each name in it, markers aside (`=self.app`,
/// `[]Node`, `@r.routes`, a tuple's `(Other,State)`), so a nested type named through its outer one
/// (`Connection.Request`) or a type reached through a path moves with any of them.
fn type_pieces(type_name: &str) -> impl Iterator<Item = &str> {
    std::iter::once(type_name).chain(
        type_name
            .split([
                '.', '@', '%', '=', '&', '#', ':', '(', ')', '[', ']', '*', '?', '!', ',',
            ])
            // An unpacked value's position (`*1resolve`).
            .map(|s| s.trim_start_matches(|c: char| c.is_ascii_digit()))
            .filter(|s| !s.is_empty()),
    )
}

/// (class, base) for every base a class-like definition of `f` declares.
pub(super) fn declared_bases(f: &FileFacts) -> impl Iterator<Item = (&str, &str)> {
    f.symbols
        .iter()
        .filter(|s| INHERITING.contains(&s.kind.as_str()))
        .flat_map(move |s| {
            bases::declared(f, s)
                .into_iter()
                .map(move |b| (s.name.as_str(), b))
        })
}

/// The name of the innermost definition of `f` holding `line`, if any: where an import
/// binds.
fn scope_of(f: &FileFacts, line: u32) -> Option<&str> {
    crate::index::code::innermost(&f.symbols, line).map(|s| s.name.as_str())
}

/// The names a file's imports may bind: the last names of the paths it imports and both
/// names of its aliases.
pub(super) fn import_names(f: &FileFacts) -> impl Iterator<Item = &str> {
    f.imports.iter().map(|(m, _)| last_segment(m)).chain(
        f.aliases
            .iter()
            .flat_map(|(name, local, _)| [name.as_str(), local.as_str()]),
    )
}

/// The same imports and aliases, lines aside: the file binds the same names to the same
/// modules, in the same definitions (or at module level).
pub(super) fn same_imports(a: &FileFacts, b: &FileFacts) -> bool {
    // Whether an import is renamed on its line too: a rename moving to another line binds
    // another module's name.
    fn imports(f: &FileFacts) -> Vec<(&str, Option<&str>, bool)> {
        let mut v: Vec<_> = f
            .imports
            .iter()
            .zip(f.renamed_imports())
            .map(|((m, line), renamed)| (m.as_str(), scope_of(f, *line), renamed))
            .collect();
        v.sort_unstable();
        v
    }
    fn aliases(f: &FileFacts) -> Vec<(&str, &str, Option<&str>)> {
        let mut v: Vec<_> = f
            .aliases
            .iter()
            .map(|(n, l, line)| (n.as_str(), l.as_str(), scope_of(f, *line)))
            .collect();
        v.sort_unstable();
        v
    }
    imports(a) == imports(b) && aliases(a) == aliases(b)
}

/// The indexed file each import of `facts` names, in order (none where it names no file).
/// The shortest matching path wins, as the index's own resolution does, but for a Rust path
/// from the crate's root or the importer's module, which names its file exactly.
pub(super) fn resolve_imports(g: &Graph, file: u32, facts: &FileFacts) -> Vec<Option<u32>> {
    let importer = &g.files[file as usize].path;
    let rust = facts.language.as_deref() == Some("rust");
    // A `use` inside a definition (`mod tests { use super::x; }`) is relative to that
    // inline module, not to the file's: left to the suffix match. A `crate::` path is the
    // crate's wherever it is written.
    facts
        .imports
        .iter()
        .map(|(name, line)| {
            let absolute = name.starts_with("crate::");
            let exact = if rust && (absolute || g.enclosing(file, *line).is_none()) {
                resolve::rust_module_files(importer, name)
            } else {
                Vec::new()
            };
            // The deepest module file the path names that the tree has.
            if let Some(found) = exact.iter().find_map(|path| g.file(path)) {
                return Some(found);
            }
            // A path through one of the tree's crates (`petgraph::algo::f` in its tests).
            if rust && let Some(&found) = g.crate_path_files(importer, name).first() {
                return Some(found);
            }
            g.files_named(facts.language.as_deref(), importer, name)
                .into_iter()
                .min_by_key(|&f| (g.files[f as usize].path.len(), f))
        })
        .collect()
}

/// The names `facts`' imports bind to definitions: `from m import N` and `use m::N` bind N to
/// m's definition of N; `import a as b` forms bind b. Each name is looked up in the file its
/// own import resolved to (`each`, aligned with `facts.imports`): in `from pkg import f, mod`
/// the line also resolves to pkg/mod, whose own `f` is not the one imported.
pub(super) fn direct_bindings<'f>(
    g: &Graph,
    file: u32,
    all_facts: &'f [Arc<FileFacts>],
    each: &[Option<u32>],
    all_resolved: &[Vec<(u32, u32)>],
) -> calls::Bindings<'f> {
    let facts: &'f FileFacts = &all_facts[file as usize];
    let resolved = all_resolved[file as usize].as_slice();
    let lines_of = |f: u32| all_resolved[f as usize].clone();
    let mut out: calls::Bindings = HashMap::new();
    // Only a file with an import below its first definition's line can have one inside a
    // definition: most files skip the per-line map.
    let first_def = g
        .symbols_of(file)
        .map(|d| g.symbols[d as usize].symbol().start_line)
        .min()
        .unwrap_or(u32::MAX);
    let late = facts
        .imports
        .iter()
        .map(|(_, l)| *l)
        .chain(facts.aliases.iter().map(|a| a.2))
        .any(|l| l >= first_def);
    let innermost = if late {
        g.innermost_by_line(file)
    } else {
        Vec::new()
    };
    // An import inside a definition binds only there.
    let scope_of_line = |line: u32| {
        innermost.get(line as usize).copied().flatten().map(|d| {
            let d = g.symbols[d as usize].symbol();
            (d.start_line, d.end_line)
        })
    };
    let top_level = |files: &[u32], name: &str, outer: Option<&str>| -> Vec<u32> {
        files
            .iter()
            .flat_map(|&f| g.defined_in(f, name))
            .filter(|s| {
                let symbol = g.symbols[*s as usize].symbol();
                let container = symbol.container.as_deref();
                // A JavaScript or TypeScript method outside any class is an object
                // literal's (`{ defineProperty(..) {..} }`): no module exports it by that
                // name. (Ruby's and Scala's top-level `def`s are methods without one too.)
                let literal_method = symbol.kind == "method"
                    && g.family_of(g.symbols[*s as usize].file) == Some("javascript");
                (container.is_none() && !literal_method) || (outer.is_some() && container == outer)
            })
            .collect()
    };
    let mut bind = |local: &'f str, name: &str, outer: Option<&str>, files: &[u32], line: u32| {
        let mut defs = top_level(files, name, outer);
        // A module that gathers others by star imports (`from .api import *` in an
        // `__init__`, `export * from './atom'` in an `index.ts`) offers their names too:
        // the nearest one defining the name, unless the module imports it by name itself
        // (then the re-export hop follows that import).
        let imports_it = |f: &u32| {
            let x = &all_facts[*f as usize];
            // Python's `from .api import get` records `.api.get`; elsewhere an import's
            // path names a module (`./api/observable`), and only its specifiers name names.
            let python = x.language.as_deref() == Some("python");
            (python
                && x.imports
                    .iter()
                    .zip(x.renamed_imports())
                    .any(|((m, _), renamed)| last_segment(m) == name && !renamed))
                || x.aliases.iter().any(|(_, local, _)| local == name)
        };
        if defs.is_empty() && outer.is_none() && !files.iter().any(imports_it) {
            defs = star_levels(g, all_facts, &lines_of, files)
                .iter()
                .map(|level| top_level(level, name, None))
                .find(|d| !d.is_empty())
                .unwrap_or_default();
        }
        let scope = scope_of_line(line);
        let found = !defs.is_empty();
        let defs = defs
            .into_iter()
            .map(|definition| calls::Binding { definition, scope });
        out.entry(local).or_default().extend(defs);
        found
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
    let script = facts
        .language
        .as_deref()
        .is_some_and(|l| crate::index::code::Language::family(l) == "javascript");
    // Java imports a member of a type by the type's path (`import static a.Util.check`,
    // `import a.Outer.Inner`): the segment before the name is the member's container.
    let java = facts.language.as_deref() == Some("java");
    let renamed = facts.renamed_imports();
    for (i, (name, line)) in facts.imports.iter().enumerate() {
        if renamed[i] {
            continue;
        }
        let last = last_segment(name);
        let outer = java
            .then(|| name.rsplit('.').nth(1))
            .flatten()
            .filter(|o| o.starts_with(|c: char| c.is_uppercase()));
        bind(last, last, outer, file_of(i).as_slice(), *line);
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
        let found = bind(local.as_str(), name.as_str(), None, &files, *line);
        // `const Client = require('./client')`: a module whose export is one definition
        // (`module.exports = Client`), named as the importer names it. Not `import { a as
        // b }`, whose `b` is `a`.
        let names_module = facts
            .imports
            .iter()
            .any(|(m, l)| l == line && resolve::module_stem(m) == name);
        if script && !found && local != name && names_module {
            bind(local.as_str(), local.as_str(), None, &files, *line);
        }
    }
    // A star import binds every public top-level name of the modules it reaches, below the
    // file's own definitions and its named imports (which the language lets shadow it).
    let stars: Vec<u32> = star_lines(g, file, facts).collect();
    if !stars.is_empty() {
        let python = facts.language.as_deref() == Some("python");
        let own: HashSet<&str> = facts
            .symbols
            .iter()
            .filter(|s| s.container.is_none())
            .map(|s| s.name.as_str())
            .chain(out.iter().filter(|(_, d)| !d.is_empty()).map(|(n, _)| *n))
            .collect();
        let rust = facts.language.as_deref() == Some("rust");
        // Each name from the nearest module offering it (a module's own name shadows the
        // ones it gathers in turn).
        let mut gathered: HashSet<&str> = HashSet::new();
        for line in stars {
            let direct: Vec<u32> = resolved
                .iter()
                .filter(|&&(l, f)| l == line && f != file)
                .map(|&(_, f)| f)
                .collect();
            let mut levels = vec![direct.clone()];
            levels.extend(star_levels(g, all_facts, &lines_of, &direct));
            for level in levels {
                let mut offered: Vec<(&str, u32)> = Vec::new();
                for f in level {
                    for s in all_facts[f as usize].symbols.iter() {
                        let name = s.name.as_str();
                        let private = (python && name.starts_with('_'))
                            || (rust && !s.signature.starts_with("pub"));
                        let hidden = private || own.contains(name) || gathered.contains(name);
                        if s.container.is_none() && !hidden && !offered.contains(&(name, f)) {
                            offered.push((name, f));
                        }
                    }
                }
                for (name, f) in offered {
                    gathered.insert(name);
                    // Star imports are module-level: they bind everywhere in the file.
                    let defs =
                        top_level(&[f], name, None)
                            .into_iter()
                            .map(|definition| calls::Binding {
                                definition,
                                scope: None,
                            });
                    out.entry(name).or_default().extend(defs);
                }
            }
        }
    }
    out.retain(|_, defs| !defs.is_empty());
    out
}

impl Graph {
    /// The names `file`'s star imports offer (see [`direct_bindings`]): what a change of
    /// those imports may bind differently in the files importing it.
    fn star_offered<'g>(
        &'g self,
        file: u32,
        lines_of: &dyn Fn(u32) -> Vec<(u32, u32)>,
    ) -> Vec<&'g str> {
        let stars: Vec<u32> = star_lines(self, file, &self.facts[file as usize]).collect();
        if stars.is_empty() {
            return Vec::new();
        }
        let direct: Vec<u32> = lines_of(file)
            .into_iter()
            .filter(|(line, _)| stars.contains(line))
            .map(|(_, f)| f)
            .collect();
        let mut files = direct.clone();
        files.extend(star_sources(self, &self.facts, lines_of, &direct));
        files
            .iter()
            .flat_map(|&f| self.symbols_of(f))
            .map(|s| self.symbols[s as usize].symbol())
            .filter(|s| s.container.is_none())
            .map(|s| s.name.as_str())
            .collect()
    }

    /// The (import line, file) pairs this graph resolved `file`'s imports to.
    fn import_lines(&self, file: u32) -> Vec<(u32, u32)> {
        lines_to(&self.facts[file as usize], &self.links[file as usize])
    }
}

/// `facts`' import lines paired with the files they resolved to (`files`, aligned).
fn lines_to(facts: &FileFacts, files: &[Option<u32>]) -> Vec<(u32, u32)> {
    facts
        .imports
        .iter()
        .zip(files)
        .filter_map(|((_, line), to)| to.map(|t| (*line, t)))
        .collect()
}

/// The lines of `facts`' module-level star imports (`from m import *`, `export * from
/// './m'`, `use m::*`): a test module's `use super::*` inside `mod tests` gathers nothing
/// for other files.
fn star_lines<'a>(g: &'a Graph, file: u32, facts: &'a FileFacts) -> impl Iterator<Item = u32> + 'a {
    facts
        .aliases
        .iter()
        .filter(|(name, local, _)| name == STAR && local == STAR)
        .map(|(_, _, line)| *line)
        .filter(move |&line| g.enclosing(file, line).is_none())
}

/// How many star imports deep a module's offered names are followed (`pkg/__init__` ->
/// `pkg/models/__init__` -> `pkg/models/base`), and how many modules at most.
const STAR_HOPS: usize = 4;
const STAR_FILES: usize = 256;

/// The files that `files`' star imports reach, and theirs in turn, nearest first; `lines_of`
/// gives a file's resolved (import line, file) pairs.
pub(super) fn star_sources(
    g: &Graph,
    facts: &[Arc<FileFacts>],
    lines_of: &dyn Fn(u32) -> Vec<(u32, u32)>,
    files: &[u32],
) -> Vec<u32> {
    star_levels(g, facts, lines_of, files).concat()
}

/// [`star_sources`] by hops: the files `files`' star imports reach first, then theirs. A
/// name offered at one hop hides the same name further away (a module's own definition
/// shadows what it gathers), while the modules of one hop offer theirs side by side.
pub(super) fn star_levels(
    g: &Graph,
    facts: &[Arc<FileFacts>],
    lines_of: &dyn Fn(u32) -> Vec<(u32, u32)>,
    files: &[u32],
) -> Vec<Vec<u32>> {
    let mut seen: HashSet<u32> = files.iter().copied().collect();
    let mut levels: Vec<Vec<u32>> = Vec::new();
    let mut count = 0;
    let mut frontier = files.to_vec();
    for _ in 0..STAR_HOPS {
        let mut next = Vec::new();
        for &f in &frontier {
            let stars: Vec<u32> = star_lines(g, f, &facts[f as usize]).collect();
            if stars.is_empty() {
                continue;
            }
            for (line, to) in lines_of(f) {
                if stars.contains(&line) && count < STAR_FILES && seen.insert(to) {
                    count += 1;
                    next.push(to);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        levels.push(next.clone());
        frontier = next;
    }
    levels
}
