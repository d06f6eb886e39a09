//! What the host functions answer from a [`Snapshot`]: a definition's callers and callees to a
//! depth, a file's dependencies and impact radius, and a project's (or directory's) overview.

use super::Snapshot;
use super::graph::Confidence;
use super::hotspots::HotSpot;
use super::reach;
use crate::error::{HostError, HostResult, codes};
use crate::index::resolve;
use crate::index::roles::Role;
use std::collections::{HashMap, HashSet};

/// A definition with its place in the call graph.
#[derive(Debug, Clone, PartialEq)]
pub struct SymbolView {
    pub path: String,
    pub name: String,
    pub container: Option<String>,
    pub kind: String,
    pub start_line: u32,
    pub end_line: u32,
    pub branches: u32,
    pub rank: f64,
    pub percentile: f32,
    /// Distinct definitions calling it, and called by it, resolved better than by name
    /// alone (see [`super::graph::Graph::known_fan`]).
    pub fan_in: u32,
    pub fan_out: u32,
}

pub fn symbol_view(s: &Snapshot, id: u32) -> SymbolView {
    let node = &s.graph.symbols[id as usize];
    let (fan_in, fan_out) = s.graph.known_fan(id);
    SymbolView {
        path: s.graph.files[node.file as usize].path.clone(),
        name: node.symbol().name.clone(),
        container: node.symbol().container.clone(),
        kind: node.symbol().kind.clone(),
        start_line: node.symbol().start_line,
        end_line: node.symbol().end_line,
        branches: node.symbol().branches,
        rank: s.symbol_rank[id as usize],
        percentile: s.symbol_percentile[id as usize],
        fan_in,
        fan_out,
    }
}

/// A code file with its place in the dependency graph.
#[derive(Debug, Clone, PartialEq)]
pub struct FileView {
    pub path: String,
    pub language: Option<String>,
    pub lines: u32,
    pub definitions: u32,
    /// Branch points of its top-level definitions (nested ones are inside them).
    pub branches: u32,
    pub rank: f64,
    pub percentile: f32,
    /// Files importing it, and files it imports.
    pub fan_in: u32,
    pub fan_out: u32,
}

pub fn file_view(s: &Snapshot, file: u32) -> FileView {
    let g = &s.graph;
    let f = &g.files[file as usize];
    FileView {
        path: f.path.clone(),
        language: f.language.clone(),
        lines: f.lines,
        definitions: f.symbol_count,
        branches: g
            .symbols_of(file)
            .map(|i| g.symbols[i as usize].symbol())
            .filter(|sym| sym.container.is_none())
            .map(|sym| sym.branches)
            .sum(),
        rank: s.file_rank[file as usize],
        percentile: s.file_percentile[file as usize],
        fan_in: g.file_dependents[file as usize].len() as u32,
        fan_out: g.file_deps[file as usize].len() as u32,
    }
}

/// A file of the graph by path, or NOT_FOUND saying why.
pub fn file_id(s: &Snapshot, path: &str) -> HostResult<u32> {
    s.graph.file(path).ok_or_else(|| {
        HostError::new(
            codes::NOT_FOUND,
            format!("{path} is not a code file of the index"),
        )
        .suggest("name a source file in a supported language; documents have no call graph")
    })
}

/// Callers and callees around some definitions.
#[derive(Debug, Clone, PartialEq)]
pub struct CallView {
    pub symbols: Vec<SymbolView>,
    /// Positions in `symbols` of the definitions asked about.
    pub targets: Vec<u32>,
    /// (caller, callee, call-site line, confidence), positions in `symbols`.
    pub links: Vec<(u32, u32, u32, Confidence)>,
    /// `max_links` cut the walk short.
    pub truncated: bool,
}

/// The definitions `symbol` names in `path` (every one of the file when `None`): by
/// `Container.name`, else by name. A name that is some definition's whole qualified name
/// means that one (`Uint32` is the function, not also the method `FlagSet.Uint32`).
/// NOT_FOUND lists what the file defines.
pub fn symbols_in(s: &Snapshot, path: &str, symbol: Option<&str>) -> HostResult<Vec<u32>> {
    let file = file_id(s, path)?;
    let all: Vec<u32> = s.graph.symbols_of(file).collect();
    let Some(wanted) = symbol else {
        return Ok(all);
    };
    let exact: Vec<u32> = all
        .iter()
        .copied()
        .filter(|&i| s.graph.qualified(i) == wanted)
        .collect();
    let found: Vec<u32> = if exact.is_empty() {
        all.iter()
            .copied()
            .filter(|&i| s.graph.symbols[i as usize].symbol().name == wanted)
            .collect()
    } else {
        exact
    };
    if found.is_empty() {
        let names: Vec<String> = all.iter().take(30).map(|&i| s.graph.qualified(i)).collect();
        return Err(
            HostError::new(codes::NOT_FOUND, format!("{path} defines no {wanted}"))
                .suggest(format!("it defines: {}", names.join(", "))),
        );
    }
    Ok(found)
}

/// Callers of `targets` up to `depth` steps up and callees up to `depth` steps down, at most
/// `max_links` links, level by level: every direct caller and callee before any link two steps
/// away (a target with many transitive callers must not crowd its direct callees out), and
/// within a level the links resolved by import, container, file or module before name-only
/// guesses. When the direct links alone are over the budget, each direction keeps at least
/// half of it. A name-only guess is shown but never walked further: a wrong guess must not
/// bring its own callers and callees along.
pub fn call_graph(s: &Snapshot, targets: &[u32], depth: u32, max_links: usize) -> CallView {
    let g = &s.graph;
    let mut position: HashMap<u32, u32> = HashMap::new();
    let mut symbols = Vec::new();
    let mut place = |id: u32, symbols: &mut Vec<SymbolView>| -> u32 {
        *position.entry(id).or_insert_with(|| {
            symbols.push(symbol_view(s, id));
            symbols.len() as u32 - 1
        })
    };
    let target_positions: Vec<u32> = targets.iter().map(|&t| place(t, &mut symbols)).collect();
    let mut links = Vec::new();
    let mut seen_edges: HashSet<u32> = HashSet::new();
    let mut truncated = false;
    // [upward, downward]: the definitions reached so far and the level's frontier.
    let mut seen: [HashSet<u32>; 2] = [
        targets.iter().copied().collect(),
        targets.iter().copied().collect(),
    ];
    let mut frontier: [Vec<u32>; 2] = [targets.to_vec(), targets.to_vec()];
    // Call sites that reach a target through another definition, to that target: a
    // constructor is called where its class is instantiated (`Foo(...)`, `new Foo()`).
    let mut called_through: HashMap<u32, u32> = HashMap::new();
    // An implementation is called where the interface method it implements is, as Go's and
    // TypeScript's servers list it: those call sites dispatch to it.
    let mut dispatched: HashSet<u32> = HashSet::new();
    let implementations = g.implementations(targets);
    let implemented = g.implemented(targets);
    for &t in targets {
        for class in class_of_constructor(s, t) {
            for &e in &g.callers[class as usize] {
                called_through.insert(e, t);
            }
        }
        // A Rust trait's method is called where a type's implementation of it is, as
        // rust-analyzer lists it.
        // (An implementation asked about too keeps its own callers.)
        for &implementation in implementations.get(&t).into_iter().flatten() {
            if targets.contains(&implementation) {
                continue;
            }
            let sure = |e: &&u32| g.calls[**e as usize].confidence != Confidence::Name;
            for &e in g.callers[implementation as usize].iter().filter(sure) {
                // Not the implementation's own call of its name (a std method it wraps).
                if ![t, implementation].contains(&g.calls[e as usize].from) {
                    called_through.insert(e, t);
                    dispatched.insert(e);
                }
            }
        }
        for &interface_method in implemented.get(&t).into_iter().flatten() {
            // Not a target's own call through the interface (the servers list none).
            let sure = |e: &&u32| {
                let edge = &g.calls[**e as usize];
                edge.confidence != Confidence::Name && edge.from != t
            };
            for &e in g.callers[interface_method as usize].iter().filter(sure) {
                called_through.insert(e, t);
                dispatched.insert(e);
            }
        }
    }
    for level in 0..depth {
        // The level's new edges per direction, known resolutions first.
        let mut level_edges: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
        for (dir, edges) in level_edges.iter_mut().enumerate() {
            if dir == 0 && level == 0 {
                let mut made: Vec<u32> = called_through.keys().copied().collect();
                made.sort_unstable();
                // A call dispatched to a target stays its caller's call of the interface's
                // method too, among that caller's callees.
                edges.extend(
                    made.into_iter()
                        .filter(|&e| dispatched.contains(&e) || seen_edges.insert(e)),
                );
            }
            for &node in &frontier[dir] {
                let out = if dir == 0 {
                    &g.callers[node as usize]
                } else {
                    &g.callees[node as usize]
                };
                edges.extend(out.iter().copied().filter(|&e| seen_edges.insert(e)));
            }
            edges.sort_by_key(|&e| g.calls[e as usize].confidence == Confidence::Name);
        }
        let room = max_links - links.len();
        let quota = if level == 0 {
            // Direct links: each direction keeps at least half the budget when both are over.
            let half = room / 2;
            let (up, down) = (level_edges[0].len(), level_edges[1].len());
            [
                up.min(room.saturating_sub(down.min(room - half))),
                down.min(room.saturating_sub(up.min(half))),
            ]
        } else {
            [room, room]
        };
        for dir in 0..2 {
            let mut next = Vec::new();
            for (taken, &e) in level_edges[dir].iter().enumerate() {
                if taken == quota[dir] || links.len() == max_links {
                    truncated = true;
                    break;
                }
                let edge = g.calls[e as usize];
                let from = place(edge.from, &mut symbols);
                let callee = match called_through.get(&e) {
                    Some(&constructor) if dir == 0 => constructor,
                    _ => edge.to,
                };
                let to = place(callee, &mut symbols);
                let confidence = match dir == 0 && dispatched.contains(&e) {
                    true => Confidence::Dispatch,
                    false => edge.confidence,
                };
                links.push((from, to, edge.line, confidence));
                let reached = if dir == 0 { edge.from } else { edge.to };
                if edge.confidence != Confidence::Name && seen[dir].insert(reached) {
                    next.push(reached);
                }
            }
            frontier[dir] = next;
        }
        if frontier.iter().all(Vec::is_empty) {
            break;
        }
    }
    CallView {
        symbols,
        targets: target_positions,
        links,
        truncated,
    }
}

/// The class whose instantiation calls `symbol`, when it is a constructor (`__init__`,
/// `constructor`, a Java constructor) of a class defined in its file.
fn class_of_constructor(s: &Snapshot, symbol: u32) -> Vec<u32> {
    let g = &s.graph;
    let node = &g.symbols[symbol as usize];
    let sym = node.symbol();
    let constructor =
        sym.kind == "constructor" || matches!(sym.name.as_str(), "__init__" | "constructor");
    match (&sym.container, constructor) {
        (Some(class), true) => g
            .defined_in(node.file, class)
            .into_iter()
            .filter(|&c| g.symbols[c as usize].symbol().kind == "class")
            .collect(),
        _ => Vec::new(),
    }
}

/// The reason a dependency report gives, followed by a count, when importers of a package
/// root were counted apart from the blast radius.
pub const THROUGH_PACKAGE_ROOT: &str = "through_package_root:";

/// A file's imports, importers and impact radius.
#[derive(Debug, Clone, PartialEq)]
pub struct DependencyView {
    pub file: FileView,
    pub imports: Vec<FileView>,
    pub importers: Vec<FileView>,
    /// The reverse transitive closure of importers, nearest first: (path, depth).
    pub dependents: Vec<(String, u32)>,
    /// Files in the closure in all (`dependents` may be cut at the limit).
    pub blast_radius: u32,
    /// Files that import a package root re-exporting this file (`pkg/__init__.py`,
    /// `index.ts`, `mod.rs`) but use no name it defines: counted apart, not in the closure,
    /// so that a package where everything imports the root still ranks its files.
    pub through_package_root: u32,
    /// The import cycle the file is part of (paths), if any.
    pub cycle: Vec<String>,
}

pub fn dependencies(s: &Snapshot, file: u32, depth: u32, limit: usize) -> DependencyView {
    let g = &s.graph;
    let views = |ids: &[u32]| -> Vec<FileView> {
        let mut v: Vec<FileView> = ids.iter().map(|&f| file_view(s, f)).collect();
        v.sort_by(|a, b| b.rank.total_cmp(&a.rank).then_with(|| a.path.cmp(&b.path)));
        v.truncate(limit);
        v
    };
    // Past a package root (other than the file itself), only the importers that use a name
    // the file defines depend on it; the others merely import the package.
    let defined: HashSet<&str> = g
        .symbols_of(file)
        .map(|i| g.symbols[i as usize].symbol())
        .filter(|sym| sym.container.is_none())
        .map(|sym| sym.name.as_str())
        .collect();
    // A file uses it when one of its calls resolves into it, or it imports one of its names
    // (through the root: `from pkg import Name`).
    let calling: HashSet<u32> = g
        .symbols_of(file)
        .flat_map(|d| &g.callers[d as usize])
        .map(|&e| g.symbols[g.calls[e as usize].from as usize].file)
        .collect();
    let uses = |m: u32| {
        let facts = g.facts_of_file(m);
        calling.contains(&m)
            || facts
                .imports
                .iter()
                .any(|(i, _)| defined.contains(i.rsplit(['.', ':', '/']).next().unwrap_or(i)))
            || facts
                .aliases
                .iter()
                .any(|(name, _, _)| defined.contains(name.as_str()))
    };
    let mut apart: HashSet<u32> = HashSet::new();
    let closure = reach::dependents_where(&g.file_dependents, file, depth, |from, next| {
        let root = from != file && resolve::is_package_root(&g.files[from as usize].path);
        if root && !uses(next) {
            apart.insert(next);
            return false;
        }
        true
    });
    for (f, _) in &closure {
        apart.remove(f);
    }
    apart.remove(&file);
    DependencyView {
        file: file_view(s, file),
        imports: views(&g.file_deps[file as usize]),
        importers: views(&g.file_dependents[file as usize]),
        blast_radius: closure.len() as u32,
        through_package_root: apart.len() as u32,
        dependents: closure
            .into_iter()
            .take(limit)
            .map(|(f, d)| (g.files[f as usize].path.clone(), d))
            .collect(),
        cycle: s
            .cycles
            .iter()
            .find(|c| c.contains(&file))
            .map(|c| {
                c.iter()
                    .map(|&f| g.files[f as usize].path.clone())
                    .collect()
            })
            .unwrap_or_default(),
    }
}

/// What a project (or a directory of it) is: its size, most central files and definitions,
/// layers, entry points, cycles and hot spots.
#[derive(Debug, Clone, PartialEq)]
pub struct Overview {
    pub files: u32,
    pub definitions: u32,
    pub call_links: u32,
    pub import_links: u32,
    pub unresolved_calls: u32,
    pub top_files: Vec<FileView>,
    pub top_symbols: Vec<SymbolView>,
    /// Import links among `top_files`: (importer, imported).
    pub links: Vec<(String, String)>,
    pub cycles: Vec<Vec<String>>,
    /// Directories by dependency direction: layer 0 imports from no other directory listed.
    pub layers: Vec<Vec<String>>,
    pub entry_points: Vec<String>,
    pub hot_spots: Vec<(SymbolView, HotSpot)>,
}

/// Directory levels below `under` that make one module of the layer view.
const MODULE_DEPTH: usize = 2;

/// `hot` is the project's hot spots, hottest first (see [`super::Analysis::hot_spots`]).
pub fn overview(s: &Snapshot, hot: &[HotSpot], under: Option<&str>, limit: usize) -> Overview {
    let g = &s.graph;
    let prefix = under
        .map(|u| u.trim_end_matches('/'))
        .filter(|u| !u.is_empty());
    let inside = |f: u32| {
        let path = &g.files[f as usize].path;
        prefix.is_none_or(|p| path == p || path.starts_with(&format!("{p}/")))
    };
    let source = |f: u32| s.roles.of(&g.files[f as usize].path) == Role::Source;
    let files: Vec<u32> = (0..g.files.len() as u32).filter(|&f| inside(f)).collect();
    let file_set: HashSet<u32> = files.iter().copied().collect();
    let symbols: Vec<u32> = files.iter().flat_map(|&f| g.symbols_of(f)).collect();

    let mut top_files: Vec<u32> = files.iter().copied().filter(|&f| source(f)).collect();
    top_files.sort_by(|&a, &b| s.file_rank[b as usize].total_cmp(&s.file_rank[a as usize]));
    top_files.truncate(limit);
    let top_set: HashSet<u32> = top_files.iter().copied().collect();
    let links = g
        .imports
        .iter()
        .filter(|e| top_set.contains(&e.from) && top_set.contains(&e.to))
        .map(|e| {
            (
                g.files[e.from as usize].path.clone(),
                g.files[e.to as usize].path.clone(),
            )
        })
        .collect();
    let mut top_symbols: Vec<u32> = symbols
        .iter()
        .copied()
        .filter(|&i| source(g.symbols[i as usize].file))
        .collect();
    top_symbols.sort_by(|&a, &b| s.symbol_rank[b as usize].total_cmp(&s.symbol_rank[a as usize]));
    top_symbols.truncate(limit);

    let defines_main = |f: u32| {
        g.symbols_of(f)
            .any(|i| g.symbols[i as usize].symbol().name == "main")
    };
    let mut entry_points: Vec<(bool, u32)> = files
        .iter()
        .copied()
        .filter(|&f| source(f) && g.file_dependents[f as usize].is_empty())
        .map(|f| (defines_main(f), f))
        .filter(|&(main, f)| main || !g.file_deps[f as usize].is_empty())
        .collect();
    entry_points
        .sort_by_key(|&(main, f)| (!main, std::cmp::Reverse(g.file_deps[f as usize].len()), f));
    entry_points.truncate(limit);

    let hot: Vec<HotSpot> = hot
        .iter()
        .filter(|h| file_set.contains(&g.symbols[h.symbol as usize].file))
        .take(limit)
        .cloned()
        .collect();
    Overview {
        files: files.len() as u32,
        definitions: symbols.len() as u32,
        call_links: symbols
            .iter()
            .map(|&i| g.callees[i as usize].len() as u32)
            .sum(),
        import_links: files
            .iter()
            .map(|&f| g.file_deps[f as usize].len() as u32)
            .sum(),
        unresolved_calls: g.unresolved_calls as u32,
        top_files: top_files.iter().map(|&f| file_view(s, f)).collect(),
        top_symbols: top_symbols.iter().map(|&i| symbol_view(s, i)).collect(),
        links,
        cycles: s
            .cycles
            .iter()
            .filter(|c| c.iter().any(|f| file_set.contains(f)))
            .take(limit)
            .map(|c| {
                c.iter()
                    .map(|&f| g.files[f as usize].path.clone())
                    .collect()
            })
            .collect(),
        layers: layers(s, &files, prefix, limit),
        entry_points: entry_points
            .iter()
            .map(|&(_, f)| g.files[f as usize].path.clone())
            .collect(),
        hot_spots: hot
            .into_iter()
            .map(|h| (symbol_view(s, h.symbol), h))
            .collect(),
    }
}

/// The module (directory, [`MODULE_DEPTH`] levels below `prefix`) a path belongs to.
fn module_of<'p>(path: &'p str, prefix: Option<&str>) -> &'p str {
    let start = prefix.map_or(0, |p| p.len() + 1).min(path.len());
    let dir_end = path.rfind('/').unwrap_or(0);
    if dir_end <= start {
        return prefix.map_or(".", |_| &path[..start.saturating_sub(1)]);
    }
    let rest = &path[start..dir_end];
    let cut = rest
        .match_indices('/')
        .nth(MODULE_DEPTH - 1)
        .map_or(rest.len(), |(i, _)| i);
    &path[..start + cut]
}

/// Modules in layers by dependency direction: each module's layer is one above the highest
/// layer it imports from (modules in one cycle share a layer); at most `limit` per layer,
/// by how many files import into them.
fn layers(s: &Snapshot, files: &[u32], prefix: Option<&str>, limit: usize) -> Vec<Vec<String>> {
    let g = &s.graph;
    let mut ids: HashMap<&str, u32> = HashMap::new();
    let mut names: Vec<&str> = Vec::new();
    let mut module = HashMap::new();
    for &f in files
        .iter()
        .filter(|&&f| s.roles.of(&g.files[f as usize].path) == Role::Source)
    {
        let m = module_of(&g.files[f as usize].path, prefix);
        let id = *ids.entry(m).or_insert_with(|| {
            names.push(m);
            names.len() as u32 - 1
        });
        module.insert(f, id);
    }
    let mut deps: Vec<Vec<u32>> = vec![Vec::new(); names.len()];
    let mut used = vec![0usize; names.len()];
    for e in &g.imports {
        if let (Some(&a), Some(&b)) = (module.get(&e.from), module.get(&e.to))
            && a != b
        {
            deps[a as usize].push(b);
            used[b as usize] += 1;
        }
    }
    deps.iter_mut().for_each(|d| {
        d.sort_unstable();
        d.dedup();
    });
    // Components (cycles collapse into one), then levels by longest path to a sink.
    let mut component = vec![u32::MAX; names.len()];
    let sccs = reach::components(&deps);
    for (c, members) in sccs.iter().enumerate() {
        for &m in members {
            component[m as usize] = c as u32;
        }
    }
    // tarjan_scc yields components in reverse topological order: dependencies first.
    let mut level = vec![0usize; sccs.len()];
    for (c, members) in sccs.iter().enumerate() {
        level[c] = members
            .iter()
            .flat_map(|&m| deps[m as usize].iter())
            .map(|&d| component[d as usize] as usize)
            .filter(|&dc| dc != c)
            .map(|dc| level[dc] + 1)
            .max()
            .unwrap_or(0);
    }
    let depth = level.iter().copied().max().map_or(0, |m| m + 1);
    let mut out: Vec<Vec<(usize, &str)>> = vec![Vec::new(); depth];
    for (m, name) in names.iter().enumerate() {
        out[level[component[m] as usize]].push((used[m], name));
    }
    out.into_iter()
        .map(|mut layer| {
            layer.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
            layer
                .into_iter()
                .take(limit)
                .map(|(_, n)| n.to_string())
                .collect()
        })
        .collect()
}
