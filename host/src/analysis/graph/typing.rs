//! The types a receiver can have and the methods they reach: a type's own methods (in its
//! file, or an `impl` elsewhere), the methods its declared bases give it, the type a name in
//! a file means, and the type a function is declared to return.

use super::calls::Scope;
use super::signatures;
use super::*;
use crate::index::code::{Language, innermost, types};

/// How many levels of base classes a `super()` call is followed up.
pub(super) const MAX_BASE_DEPTH: usize = 3;

/// Methods of Rust's standard wrappers that give the wrapped value (or a borrow of it).
const RUST_PASS_THROUGH: &[&str] = &[
    "unwrap",
    "expect",
    "unwrap_or_default",
    "unwrap_or",
    "unwrap_or_else",
    "clone",
    "to_owned",
    "as_ref",
    "as_mut",
    "borrow",
    "borrow_mut",
    "lock",
];

/// Methods of Rust's collections and iterators that give an iterator over the same elements
/// (`items.iter()`, `.rev()`, `.filter(..)`): of a value marked [`types::ELEMENTS`], that
/// value again.
const RUST_ITERATING: &[&str] = &[
    "iter",
    "iter_mut",
    "into_iter",
    "drain",
    "rev",
    "skip",
    "take",
    "step_by",
    "filter",
    "skip_while",
    "take_while",
    "cloned",
    "copied",
    "peekable",
    "fuse",
    "by_ref",
    "inspect",
    "chain",
    "to_vec",
    "collect",
];

/// Methods of Rust's collections that take one of the elements out as it is (`v.remove(i)`);
/// those giving one behind an `Option` are [`types::RUST_OPTIONAL_ELEMENT`].
const RUST_TAKEN_ELEMENT: &[&str] = &["remove", "swap_remove"];

/// What a type name begins with when it means the type of that name a given file defines
/// (`#12::Edges`: file 12's own `Edges`), as a Rust declaration's return type does where the
/// project has several types so named: the declaring file's, not one the caller's file
/// would name so. Only ever made while resolving, never stored.
const IN_FILE: char = '#';

/// The type `name` as file `file` defines it (see [`IN_FILE`]).
fn in_file(file: u32, name: &str) -> String {
    format!("{IN_FILE}{file}::{name}")
}

/// The file and name of a type named [`in_file`].
fn split_in_file(name: &str) -> Option<(u32, &str)> {
    let (file, inner) = name.strip_prefix(IN_FILE)?.split_once("::")?;
    Some((file.parse().ok()?, inner))
}

/// How many calls deep a variable assigned a call's value is followed (`a = b.f()` where
/// `b = c.g()`): each level a method's declared return type.
pub(super) const CALL_VALUE_DEPTH: usize = 4;

/// How many implementing classes a call through a type may dispatch to before it is too
/// broad to say.
const MAX_IMPLEMENTERS: usize = 8;

/// How many type aliases in a row a type name is followed through (`type A = B; type B =
/// C;`): a cycle of aliases ends there.
const MAX_ALIAS_HOPS: u8 = 3;

impl Graph {
    /// The methods named `name` that the types `start` inherit: from the first level of their
    /// bases, as their declarations name them, that defines one, at most [`MAX_BASE_DEPTH`]
    /// levels up. `at` is the caller's span, for the imports its file binds there.
    pub(super) fn inherited(
        &self,
        scope: &Scope,
        at: (u32, u32),
        start: Vec<u32>,
        name: &str,
    ) -> Vec<u32> {
        self.nearest_bases(scope, at, start, |bases| self.own_methods(bases, name))
    }

    /// The types of a field named `field` that the classes `start` inherit: declared by the
    /// nearest base class that declares it, up to [`MAX_BASE_DEPTH`] levels up.
    pub(super) fn inherited_field(
        &self,
        scope: &Scope,
        at: (u32, u32),
        start: Vec<u32>,
        field: &str,
    ) -> Vec<String> {
        self.nearest_bases(scope, at, start, |bases| self.fields_declared(bases, field))
    }

    /// The types the types `holders` themselves declare for their field `field` (a Rust
    /// trait's associated type too: `type Map: VisitMap<..>`).
    fn fields_declared(&self, holders: &[u32], field: &str) -> Vec<String> {
        let mut found: Vec<String> = holders
            .iter()
            .flat_map(|&h| {
                let holder = self.symbols[h as usize].symbol().name.as_str();
                self.field_types.get(holder).into_iter().flatten()
            })
            .filter(|(name, ..)| name == field)
            .map(|(_, type_name, _)| type_name.clone())
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The classes `start` extend, nearest first (not the interfaces they implement): whose
    /// constructor a `super(..)` call in theirs runs.
    pub(super) fn extended(&self, scope: &Scope, at: (u32, u32), start: Vec<u32>) -> Vec<u32> {
        self.nearest_bases(scope, at, start, |bases| {
            bases
                .iter()
                .copied()
                .filter(|&b| self.symbols[b as usize].symbol().kind == "class")
                .collect()
        })
    }

    /// A base named through a module the caller's file imports (`class Migration(
    /// migrations.Migration)`, `class Article(models.Model)`): the class that module defines
    /// or re-exports under the last name, not a class of the file named alike (often the
    /// subclass itself) nor a guess among the project's many classes of that name.
    fn base_through_module(&self, scope: &Scope, at: (u32, u32), base: &str) -> Vec<u32> {
        let Some((module, _)) = base.split_once('.') else {
            return Vec::new();
        };
        let name = last_segment(base);
        let class_like = |s: &u32| {
            let s = self.symbols[*s as usize].symbol();
            s.container.is_none() && CLASS_LIKE.contains(&s.kind.as_str())
        };
        let mut found: Vec<u32> = scope
            .module_files(module, at)
            .into_iter()
            .flat_map(|f| {
                let own: Vec<u32> = self
                    .defined_in(f, name)
                    .into_iter()
                    .filter(class_like)
                    .collect();
                match own.is_empty() {
                    true => scope
                        .exported(f, name)
                        .into_iter()
                        .filter(class_like)
                        .collect(),
                    false => own,
                }
            })
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// What `find` answers for the first level of the bases of `start` (as their
    /// declarations name them) where it answers anything, at most [`MAX_BASE_DEPTH`] levels
    /// up; each class is visited once.
    fn nearest_bases<T>(
        &self,
        scope: &Scope,
        at: (u32, u32),
        start: Vec<u32>,
        find: impl Fn(&[u32]) -> Vec<T>,
    ) -> Vec<T> {
        let mut level = start;
        let mut seen: HashSet<u32> = level.iter().copied().collect();
        for _ in 0..MAX_BASE_DEPTH {
            let mut next = Vec::new();
            for &c in &level {
                let node = &self.symbols[c as usize];
                let file = node.file;
                let written =
                    bases::written(node.facts.language.as_deref(), &node.symbol().signature);
                for base in bases::declared(&node.facts, node.symbol()) {
                    let through = written
                        .iter()
                        .find(|w| w.contains('.') && last_segment(w) == base)
                        .filter(|_| file == scope.file);
                    let mut found = match through {
                        Some(qualified) => self.base_through_module(scope, at, qualified),
                        None => Vec::new(),
                    };
                    if found.is_empty() {
                        found = self.types_named(scope, at, file, base, INHERITING);
                    }
                    next.extend(found.into_iter().filter(|b| seen.insert(*b)));
                }
                next.extend(
                    self.implemented_traits(scope, at, c)
                        .into_iter()
                        .filter(|b| seen.insert(*b)),
                );
            }
            let found = find(&next);
            if !found.is_empty() || next.is_empty() {
                return found;
            }
            level = next;
        }
        Vec::new()
    }

    /// The project's traits a Rust type implements (`impl<G> Walker<G> for Dfs<..>`, in the
    /// type's file or one without a type of its name), as those files name them: a default
    /// method of one (`Walker::iter`) is the type's. None for a library's trait (see
    /// [`Graph::project_trait_path`]) nor for another language's type.
    fn implemented_traits(&self, scope: &Scope, at: (u32, u32), ty: u32) -> Vec<u32> {
        let node = &self.symbols[ty as usize];
        let name = node.symbol().name.as_str();
        let rust = self.files[node.file as usize].language.as_deref() == Some("rust");
        if !rust || !matches!(node.symbol().kind.as_str(), "struct" | "enum" | "union") {
            return Vec::new();
        }
        let family = self.family_of(node.file);
        let mut out = Vec::new();
        let blocks = self.named(name).iter().filter(|&&i| {
            let block = &self.symbols[i as usize];
            block.symbol().kind == "impl"
                && self.family_of(block.file) == family
                && (block.file == node.file || !self.defines_type(block.file, name))
        });
        // A type's `impl` blocks are few; a hostile tree's thousands are read no further.
        for &i in blocks.take(256) {
            let block = &self.symbols[i as usize];
            let signature = block.symbol().signature.as_str();
            let Some(path) = implemented_trait_path(signature) else {
                continue;
            };
            if !self.project_trait_path(path) {
                continue;
            }
            if let Some(trait_name) = implemented_trait(signature) {
                out.extend(self.types_named(scope, at, block.file, trait_name, &["trait"]));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether a trait an `impl` names as written may be the project's: a bare name, or a
    /// path through `crate::`, `self::`, `super::`, a module file of the tree or one of its
    /// crates (not `fmt::Display`, `io::Write`, `std::ops::Deref`: another crate's trait,
    /// whatever the project names alike).
    fn project_trait_path(&self, path: &str) -> bool {
        match path.split_once("::") {
            Some((head, _)) => {
                matches!(head, "crate" | "self" | "super")
                    || self.keys.contains_key(head)
                    || self.manifests.crates.iter().any(|(c, _)| c == head)
            }
            None => true,
        }
    }

    /// Whether `file` defines a type named `name` at its top level (a struct, a class, ...;
    /// not an `impl` of one).
    pub(super) fn defines_type(&self, file: u32, name: &str) -> bool {
        self.defined_in(file, name).iter().any(|&t| {
            let t = self.symbols[t as usize].symbol();
            t.container.is_none() && TYPE_LIKE.contains(&t.kind.as_str())
        })
    }

    /// The methods named `name` the types `types` define themselves: in the type's own file,
    /// else in its language family under that type's name (an `impl` elsewhere; for Rust,
    /// not in a file with a type of that name of its own).
    pub(super) fn own_methods(&self, types: &[u32], name: &str) -> Vec<u32> {
        let mut out = Vec::new();
        for &t in types {
            let node = &self.symbols[t as usize];
            let type_name = node.symbol().name.as_str();
            // A JavaScript constructor function's nested functions are its locals, not its
            // methods (those are assigned to its prototype).
            let locals_nested = node.symbol().is_constructor_function();
            let of_type = |m: &u32| {
                let member = self.symbols[*m as usize].symbol();
                member.container.as_deref() == Some(type_name)
                    && !(locals_nested && member.kind == "function")
            };
            let here: Vec<u32> = self
                .defined_in(node.file, name)
                .into_iter()
                .filter(of_type)
                .collect();
            if !here.is_empty() {
                out.extend(here);
                continue;
            }
            // Elsewhere (a Rust `impl` or a Go method in another file). In Rust, not in a
            // file that defines a type of that name of its own: `Edges.size_hint` beside
            // csr.rs's `struct Edges` is that one's, not graph.rs's `Edges`'. (Where types
            // inherit, another file's type of the name is often the base the type extends
            // and is named after, `class Migration(migrations.Migration)`, whose methods
            // its instances have; C#'s partial classes and Ruby's reopened ones are one
            // type over several files.)
            let family = self.family_of(node.file);
            let one_file_each = self.files[node.file as usize].language.as_deref() == Some("rust");
            let another_type = |file: u32| one_file_each && self.defines_type(file, type_name);
            out.extend(self.members(name, type_name).iter().copied().filter(|m| {
                let file = self.symbols[*m as usize].file;
                self.family_of(file) == family && !another_type(file) && of_type(m)
            }));
        }
        out
    }

    /// The methods named `name` of a value of type `type_name` (as a declaration in the
    /// caller's file names it): the type's own, else inherited.
    pub(super) fn methods_of_type(
        &self,
        scope: &Scope,
        at: (u32, u32),
        type_name: &str,
        name: &str,
    ) -> Vec<u32> {
        let key = (type_name.to_string(), name.to_string(), at);
        if let Some(known) = scope.methods_seen.borrow().get(&key) {
            return known.clone();
        }
        let types = self.types_meant(scope, at, type_name);
        let mut found = self.own_methods(&types, name);
        if found.is_empty() {
            found = self.inherited(scope, at, types, name);
        }
        scope.methods_seen.borrow_mut().insert(key, found.clone());
        found
    }

    /// The type definitions a type name written in the caller's file means, or, for a
    /// function's name (`x = make()`), the type it is declared to return.
    fn types_meant(&self, scope: &Scope, at: (u32, u32), type_name: &str) -> Vec<u32> {
        // A Rust generic's associated type (`G::Map`): what `G`'s traits bind it by.
        if let Some((generic, associated)) = type_name.split_once("::")
            && self.caller_generic(scope, generic)
        {
            return self.associated_meant(scope, at, generic, associated);
        }
        let types = self.types_named(scope, at, scope.file, type_name, TYPE_LIKE);
        if !types.is_empty() {
            return types;
        }
        // The caller's generic parameter, not a function named alike (a test's `fn I(..)`
        // beside `impl<I: Interval> IntervalSet<I>`): its bounds.
        if self.caller_generic(scope, type_name) {
            return self.bounds_meant(scope, at, type_name);
        }
        if let Some(returned) = self.returned_type(scope, at, type_name) {
            return self.types_named(scope, at, scope.file, &returned, TYPE_LIKE);
        }
        self.bounds_meant(scope, at, type_name)
    }

    /// The traits bounding the generic parameter `generic` where the caller sees it.
    fn bounds_meant(&self, scope: &Scope, at: (u32, u32), generic: &str) -> Vec<u32> {
        self.generic_bounds(scope, at, generic)
            .iter()
            .flat_map(|bound| self.types_named(scope, at, scope.file, bound, TYPE_LIKE))
            .collect()
    }

    /// The types `G::Map` means for the caller's generic `G`: the bound of the associated
    /// type `Map` as the first of `G`'s traits (or their supertraits) declaring it states it
    /// (`type Map: VisitMap<Self::NodeId>` gives `VisitMap`).
    fn associated_meant(
        &self,
        scope: &Scope,
        at: (u32, u32),
        generic: &str,
        associated: &str,
    ) -> Vec<u32> {
        self.associated_declared(scope, at, generic, associated)
            .iter()
            .filter(|b| !b.contains("::") && !b.starts_with(types::ELEMENTS))
            .flat_map(|b| self.types_named(scope, at, scope.file, b, TYPE_LIKE))
            .collect()
    }

    /// What the traits bounding the caller's generic `generic` state its associated type
    /// `associated` as, or else the nearest of their supertraits declaring it: `VisitMap`
    /// for `type Map: VisitMap<..>`, `[]Self::EdgeRef` for `type Edges: Iterator<Item =
    /// Self::EdgeRef>`.
    fn associated_declared(
        &self,
        scope: &Scope,
        at: (u32, u32),
        generic: &str,
        associated: &str,
    ) -> Vec<String> {
        if !types::plain_name(associated) {
            return Vec::new();
        }
        let traits = self.bounds_meant(scope, at, generic);
        let bound = self.fields_declared(&traits, associated);
        match bound.is_empty() {
            true => self.inherited_field(scope, at, traits, associated),
            false => bound,
        }
    }

    /// Whether a path's qualifier (`TextDiff` of `TextDiff::configure`) is a type or the
    /// caller's generic, not a module (`config::load`, which a method `config` returning a
    /// `Config` would otherwise make `Config::load`).
    pub(super) fn names_a_type(&self, scope: &Scope, at: (u32, u32), qualifier: &str) -> bool {
        self.caller_generic(scope, qualifier)
            || !self
                .types_named(scope, at, scope.file, qualifier, TYPE_LIKE)
                .is_empty()
    }

    /// Whether `name` is a generic parameter of the Rust caller: of its own declaration
    /// (`fn walk<G: Visitable>`) or of the `impl` it is written in (`impl<G> Walker<G>`).
    fn caller_generic(&self, scope: &Scope, name: &str) -> bool {
        if scope.facts.language.as_deref() != Some("rust")
            || !name.starts_with(char::is_uppercase)
            || name.contains("::")
        {
            return false;
        }
        let caller = scope.caller.get();
        let signature = &self.symbols[caller as usize].symbol().signature;
        types::rust_generics(signature).contains(&name)
            || self
                .enclosing_impl(caller)
                .is_some_and(|i| types::rust_generics(i).contains(&name))
    }

    /// The traits a Rust generic parameter (`D`) is bound by where the caller sees it, as
    /// the file states them (`fn f<D: Hook>`, `where D: Hook`, `impl<D: Hook> Replace<D>`,
    /// `struct Replace<D: Hook>`): a call on a `D` is one of those traits' methods.
    fn generic_bounds(&self, scope: &Scope, at: (u32, u32), type_name: &str) -> Vec<String> {
        let plain = type_name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if scope.facts.language.as_deref() != Some("rust") || !plain {
            return Vec::new();
        }
        scope
            .bounds_of(type_name, at)
            .into_iter()
            .filter(|bound| *bound != type_name)
            .map(str::to_string)
            .collect()
    }

    /// Of `members` (definitions inside types named `outer`, in several files), those in
    /// the files of the `outer` types `file` sees (imported, its own, its package's); all
    /// of them when it sees none.
    pub(super) fn in_files_of(
        &self,
        scope: &Scope,
        at: (u32, u32),
        file: u32,
        outer: &str,
        members: &[u32],
    ) -> Vec<u32> {
        let file_of = |s: &u32| self.symbols[*s as usize].file;
        let mut files: Vec<u32> = members.iter().map(file_of).collect();
        files.sort_unstable();
        files.dedup();
        if files.len() < 2 {
            return members.to_vec();
        }
        let seen: Vec<u32> = self
            .types_named(scope, at, file, outer, TYPE_LIKE)
            .iter()
            .map(file_of)
            .collect();
        let kept: Vec<u32> = members
            .iter()
            .copied()
            .filter(|s| seen.contains(&file_of(s)))
            .collect();
        if kept.is_empty() {
            members.to_vec()
        } else {
            kept
        }
    }

    /// Whether one of the tree's Go packages is named `package`: a directory of Go files,
    /// or a module's root.
    fn go_package_named(&self, package: &str) -> bool {
        let directory = self.keys.get(package).into_iter().flatten().any(|&f| {
            let path = self.files[f as usize].path.as_str();
            path.ends_with(".go") && path.rsplit('/').nth(1) == Some(package)
        });
        directory
            || self
                .manifests
                .go_modules
                .iter()
                .any(|(module, _)| module.rsplit('/').next() == Some(package))
    }

    /// The type definitions (of `kinds`) a name written in `file` means: bound by the
    /// caller's imports when `file` is the caller's, else defined in `file` itself, else the
    /// few of that name in the file's language family.
    pub(super) fn types_named(
        &self,
        scope: &Scope,
        at: (u32, u32),
        file: u32,
        name: &str,
        kinds: &[&str],
    ) -> Vec<u32> {
        self.types_named_within(scope, at, file, name, kinds, MAX_ALIAS_HOPS)
    }

    /// [`Graph::types_named`], following at most `hops` type aliases.
    fn types_named_within(
        &self,
        scope: &Scope,
        at: (u32, u32),
        file: u32,
        name: &str,
        kinds: &[&str],
        hops: u8,
    ) -> Vec<u32> {
        // A Go type defined over another (`type textList []textRecord`, `type mode int`)
        // holds methods as a struct does; Go writes an alias `type A = B`, which the
        // outline does not keep, so every Go `type` is such a defined type.
        let go = self.files[file as usize].language.as_deref() == Some("go");
        let with_defined;
        let kinds = if go && kinds.contains(&"struct") && !kinds.contains(&"type") {
            with_defined = [kinds, &["type"]].concat();
            with_defined.as_slice()
        } else {
            kinds
        };
        let of_kind = |s: &u32| kinds.contains(&self.symbols[*s as usize].symbol().kind.as_str());
        // A module's value (JSDoc's `import('./client.js')`): what its `module.exports` is.
        if let Some(module) = name.strip_prefix(types::MODULE_VALUE) {
            return self
                .module_value(file, module)
                .into_iter()
                .filter(of_kind)
                .collect();
        }
        // The type of that name a file defines (a Rust declaration's return type, as its
        // own file means it).
        if let Some((defining, inner)) = split_in_file(name) {
            return self
                .defined_in(defining, inner)
                .into_iter()
                .filter(|s| of_kind(s) && self.symbols[*s as usize].symbol().container.is_none())
                .collect();
        }
        // A Rust type reached through a module (`dir::Ignore`): by its name, unless the
        // project has no such module (`io::Error` is the standard library's).
        if let Some((module, inner)) = name.rsplit_once("::") {
            if self.library_module(module) {
                return Vec::new();
            }
            return self.types_named_within(scope, at, file, inner, kinds, hops);
        }
        // A Go type named through its package (`goflag.Value`): the project's only when the
        // project has a package of that name, never one of its own types named alike.
        if self.files[file as usize].language.as_deref() == Some("go")
            && let Some((package, inner)) = name.split_once('.')
        {
            let package_files = if file == scope.file {
                scope.module_files(package, at)
            } else {
                Vec::new()
            };
            // The package the file imports under that name holds it (`diff.Result`, where
            // the caller's own package has a `Result` too).
            let held: Vec<u32> = self
                .named(inner)
                .iter()
                .copied()
                .filter(|s| {
                    let file = self.symbols[*s as usize].file;
                    package_files.binary_search(&file).is_ok() && of_kind(s)
                })
                .collect();
            if !held.is_empty() {
                return held;
            }
            if package_files.is_empty() && !self.go_package_named(package) {
                return Vec::new();
            }
            return self.types_named_within(scope, at, file, inner, kinds, hops);
        }
        // A nested type named through its outer one (`Connection.Request`): that one, else
        // the name alone.
        if let Some((outer, inner)) = name.rsplit_once('.') {
            let family = self.family_of(file);
            let nested: Vec<u32> = self
                .members(inner, outer)
                .iter()
                .copied()
                .filter(|s| of_kind(s) && self.family_of(self.symbols[*s as usize].file) == family)
                .collect();
            if !nested.is_empty() {
                return self.in_files_of(scope, at, file, outer, &nested);
            }
            // A Java type nested in a type the project does not define (`Map.Entry` of
            // `java.util.Map`) is the library's, never a project type named like the inner
            // one. A package (`com.acme.Widget`, lowercase by convention) qualifies as before.
            let outer_type = outer.rsplit('.').next().unwrap_or(outer);
            let library_outer = self.files[file as usize].language.as_deref() == Some("java")
                && outer_type.starts_with(char::is_uppercase)
                && !self.named(outer_type).iter().any(|&s| {
                    TYPE_LIKE.contains(&self.symbols[s as usize].symbol().kind.as_str())
                        && self.family_of(self.symbols[s as usize].file) == family
                });
            if library_outer {
                return Vec::new();
            }
            return self.types_named_within(scope, at, file, inner, kinds, hops);
        }
        // Most names asked about (a variable's, a module's) are no type at all: known at the
        // cost of one lookup, unless an import renames one.
        let follows_aliases = hops > 0 && !kinds.contains(&"type");
        let may_alias = follows_aliases && self.may_name_kind(name, &["type"]);
        if !self.may_name_kind(name, kinds) && !scope.aliased.contains_key(name) && !may_alias {
            return Vec::new();
        }
        // A type alias (`type UnGraph<N, E> = Graph<N, E, Undirected>`, imported or the
        // file's own): the type it stands for, as written in the alias's file.
        let through_aliases = |aliases: &[u32]| -> Vec<u32> {
            aliases
                .iter()
                .filter_map(|&a| {
                    let node = &self.symbols[a as usize];
                    let language = self.files[node.file as usize].language.as_deref();
                    let signature = &node.symbol().signature;
                    let target = types::aliased_type(language, signature)?;
                    // A std collection's name (`type Queue = LinkedList<Job>` over std's
                    // list) is the project's type only where the alias's file defines one.
                    let collection = types::alias_target(language, signature).is_some_and(|t| {
                        t.starts_with(types::ELEMENTS) || t.starts_with(types::OPTIONAL)
                    });
                    let own = self.defined_in(node.file, &target).iter().any(|&d| {
                        TYPE_LIKE.contains(&self.symbols[d as usize].symbol().kind.as_str())
                    });
                    (target != name && (own || !collection)).then_some((node.file, target))
                })
                .flat_map(|(file, target)| {
                    self.types_named_within(scope, at, file, &target, kinds, hops - 1)
                })
                .collect()
        };
        // A module's alias, or one local to a function the caller is in (`type G =
        // Csr<..>;` in a test), not a trait's associated type (`type Item = N;`).
        let is_alias = |s: &u32| {
            let symbol = self.symbols[*s as usize].symbol();
            symbol.kind == "type"
                && (symbol.container.is_none()
                    || (self.symbols[*s as usize].file == scope.file
                        && self
                            .local_to(*s)
                            .is_some_and(|(start, end)| start <= at.0 && at.1 <= end)))
        };
        if file == scope.file {
            let bound = scope.bound(name, at);
            let of_kinds: Vec<u32> = bound.iter().copied().filter(of_kind).collect();
            if !of_kinds.is_empty() {
                return of_kinds;
            }
            let aliases: Vec<u32> = bound.into_iter().filter(is_alias).collect();
            if may_alias && !aliases.is_empty() {
                return through_aliases(&aliases);
            }
        }
        let defined = self.defined_in(file, name);
        let here: Vec<u32> = defined
            .iter()
            .copied()
            .filter(|s| of_kind(s) && (file != scope.file || self.visible_at(*s, at)))
            .collect();
        if !here.is_empty() {
            return here;
        }
        // A type alias of the file's own is what it stands for (`type NodeIndex<Ix> = Ix;`:
        // a parameter, nothing), never another file's type of the name.
        let aliases: Vec<u32> = defined.iter().copied().filter(is_alias).collect();
        if !aliases.is_empty() && !kinds.contains(&"type") {
            return match follows_aliases {
                true => through_aliases(&aliases),
                false => Vec::new(),
            };
        }
        // Java: a type of the file's own package, before one nested in another class.
        let java = self.files[file as usize].language.as_deref() == Some("java");
        let beside = if java {
            self.package_members(file, name, kinds)
        } else {
            Vec::new()
        };
        if !beside.is_empty() {
            return beside;
        }
        let family = self.family_of(file);
        let in_family = |s: &u32| self.family_of(self.symbols[*s as usize].file) == family;
        // A Java `private` nested type is seen only inside the file declaring it (and still
        // counts among the definitions of the name, too many of which make no guess).
        let seen_from_here = |s: &u32| {
            let node = &self.symbols[*s as usize];
            !java || node.file == file || !private_java_type(&node.symbol().signature)
        };
        let found: Vec<u32> = few(self
            .named(name)
            .iter()
            .copied()
            .filter(|s| of_kind(s) && in_family(s)))
        .unwrap_or_default()
        .into_iter()
        .filter(seen_from_here)
        .collect();
        if !found.is_empty() || !may_alias {
            return found;
        }
        let aliases = few(self
            .named(name)
            .iter()
            .copied()
            .filter(|s| is_alias(s) && in_family(s)))
        .unwrap_or_default();
        through_aliases(&aliases)
    }

    /// The definitions a CommonJS module `file` names is as a value (`'../core/request.js'`
    /// as written there, `/lib/core/request.js` anchored at the root): the one its
    /// `module.exports = Request` names, in that module's file.
    pub(super) fn module_value(&self, file: u32, module: &str) -> Vec<u32> {
        let importer = &self.files[file as usize];
        let (from, module) = match module.strip_prefix('/') {
            Some(rooted) => ("", format!("./{rooted}")),
            None => (importer.path.as_str(), module.to_string()),
        };
        let Some(target) = self
            .files_named(importer.language.as_deref(), from, &module)
            .into_iter()
            .min_by_key(|&f| (self.files[f as usize].path.len(), f))
        else {
            return Vec::new();
        };
        let exported = self.facts[target as usize]
            .types
            .iter()
            .rev()
            .find(|t| t.name == types::MODULE_EXPORTS);
        exported.map_or_else(Vec::new, |t| {
            self.defined_in(target, &t.type_name)
                .into_iter()
                .filter(|&s| self.symbols[s as usize].symbol().container.is_none())
                .collect()
        })
    }

    /// The type the functions a call of `function` in the caller's file means are declared
    /// to return, when they agree on one.
    /// The collection a function named `function` (and no type so named) is declared to
    /// return, marked as such (`fn pair() -> [EdgeIndex; 2]` gives `[]EdgeIndex`): what a
    /// loop over its value, or over a name assigned it, ranges over.
    fn returned_collection(&self, scope: &Scope, at: (u32, u32), function: &str) -> Option<String> {
        let plain = function.starts_with(char::is_lowercase) && types::plain_name(function);
        // Only a Rust declaration returns a marked collection by name alone.
        if !plain
            || scope.facts.language.as_deref() != Some("rust")
            || !self
                .types_named(scope, at, scope.file, function, TYPE_LIKE)
                .is_empty()
        {
            return None;
        }
        // A free function's, never a method's of that name (its receiver unknown).
        let functions = self.functions_called(scope, at, function, true);
        agreed(functions.iter().map(|&f| self.declared_return(f)))
            .filter(|r| r.starts_with(types::ELEMENTS) || r.starts_with(types::OPTIONAL))
    }

    /// `types`, a name assigned a function's value (`let v = pair()`, typed by the
    /// function's name) replaced by the collection the function returns.
    fn collections_returned(
        &self,
        scope: &Scope,
        at: (u32, u32),
        types: Vec<String>,
    ) -> Vec<String> {
        types
            .into_iter()
            .map(|t| self.returned_collection(scope, at, &t).unwrap_or(t))
            .collect()
    }

    fn returned_type(&self, scope: &Scope, at: (u32, u32), function: &str) -> Option<String> {
        let functions = self.functions_called(scope, at, function, false);
        agreed(functions.iter().map(|&f| self.declared_return(f)))
    }

    /// The type of the element at `index` of what a call is declared to return, as a
    /// tuple (see [`types::UNPACKED`]): the call's `value` is a bare function's name or a
    /// method's call (`self.resolve_command()`), whose receiver is typed at most `depth` calls
    /// deep. Empty unless the functions meant agree on it.
    fn unpacked_types(
        &self,
        scope: &Scope,
        caller: &Symbol,
        at: (u32, u32),
        value: &str,
        index: usize,
        depth: usize,
    ) -> Vec<String> {
        let functions: Vec<u32> = match value.strip_suffix(types::CALL_VALUE) {
            Some(made_by) => match types::method_call(made_by) {
                Some((on, method)) => self
                    .value_types(scope, caller, at, on, depth)
                    .iter()
                    .flat_map(|t| self.methods_of_type(scope, at, t, method))
                    .collect(),
                None => Vec::new(),
            },
            None => self.functions_called(scope, at, value, true),
        };
        let elements = functions.iter().map(|&f| {
            let node = &self.symbols[f as usize];
            let language = self.files[node.file as usize].language.as_deref();
            types::returned_element(language, &node.symbol().signature, index)
        });
        agreed(elements).into_iter().collect()
    }

    /// The functions and methods a call of `function` in the caller's file means: one the
    /// file defines or imports before methods of the name elsewhere. A `bare` call (not
    /// a method's name read off an untyped receiver) never reaches a method where the
    /// language has no implicit `this`: `head, tail = split(p)` is the library's `split`,
    /// not `Path.split`.
    fn functions_called(
        &self,
        scope: &Scope,
        at: (u32, u32),
        function: &str,
        bare: bool,
    ) -> Vec<u32> {
        let no_implicit_this = matches!(
            scope.facts.language.as_deref(),
            Some("python" | "rust" | "go" | "javascript" | "typescript" | "tsx")
        );
        let kinds: &[&str] = match bare && no_implicit_this {
            true => &["function"],
            false => &["function", "method"],
        };
        let mut functions = self.types_named(scope, at, scope.file, function, kinds);
        // A function the caller's file defines or imports before methods of the name
        // elsewhere: a bare `parser(..)` in a test module is its own helper, not a
        // `Parser.parser` method. (A name-only guess stays a guess among the rest.)
        let seen: Vec<u32> = functions
            .iter()
            .copied()
            .filter(|&f| {
                let node = &self.symbols[f as usize];
                node.symbol().kind == "function"
                    && (node.file == scope.file || scope.bound(function, at).contains(&f))
            })
            .collect();
        if !seen.is_empty() {
            functions = seen;
        }
        functions
    }

    /// The types the methods named `method` of a receiver `on` are declared to return (the
    /// value `on.method(...)` is), when they agree: `on` typed as a call's receiver is, by
    /// the caller's class, a stated type or a chain of fields.
    pub(super) fn returned_by_method(
        &self,
        scope: &Scope,
        caller: &Symbol,
        at: (u32, u32),
        on: &str,
        method: &str,
        depth: usize,
    ) -> Vec<String> {
        let types = self.value_types(scope, caller, at, on, depth);
        self.returned_on(scope, at, on, types, method)
    }

    /// [`Graph::returns_of`] for a call on `on`, whose value has `types`; on `self`, a
    /// method returning its `impl`'s generic too (see [`Graph::own_generic_returned`]).
    fn returned_on(
        &self,
        scope: &Scope,
        at: (u32, u32),
        on: &str,
        types: Vec<String>,
        method: &str,
    ) -> Vec<String> {
        let returned = self.returns_of(scope, at, types, method);
        match returned.is_empty() && SELF.contains(&on) {
            true => self.own_generic_returned(scope, at, method),
            false => returned,
        }
    }

    /// The types the methods named `method` of values of `types` are declared to return,
    /// when they agree.
    pub(super) fn returns_of(
        &self,
        scope: &Scope,
        at: (u32, u32),
        types: Vec<String>,
        method: &str,
    ) -> Vec<String> {
        // An `Option` or a `Result` of a collection: `.unwrap()` (and `?`, read as one) gives
        // the collection; `as_ref()`, `take()` and kin the wrapper again; any other method is
        // the wrapper's own (`opt.iter()` yields the whole collection), no typed value here.
        if types.iter().any(|t| t.starts_with(types::OPTIONAL)) {
            let keeps = matches!(
                method,
                "as_ref" | "as_mut" | "as_deref" | "clone" | "to_owned" | "take" | "or"
            );
            let unwraps = !keeps && RUST_PASS_THROUGH.contains(&method);
            let (wrapped, plain): (Vec<String>, Vec<String>) = types
                .into_iter()
                .partition(|t| t.starts_with(types::OPTIONAL));
            let mut out: Vec<String> = wrapped
                .into_iter()
                .filter_map(|t| match (unwraps, keeps) {
                    (true, _) => Some(t[types::OPTIONAL.len_utf8()..].to_string()),
                    (_, true) => Some(t),
                    _ => None,
                })
                .collect();
            if !plain.is_empty() {
                out.extend(self.returns_of(scope, at, plain, method));
            }
            return out;
        }
        let mut returned = types.iter().flat_map(|t| {
            self.methods_of_type(scope, at, t, method)
                .into_iter()
                .map(|m| self.declared_return(m))
        });
        let Some(Some(first)) = returned.next() else {
            // Rust's unwrapping and borrowing of a value whose type has no such method
            // (`.unwrap()` of a `Result<Foo>`, `.lock()` of a `Mutex<Foo>`): the value
            // itself, its wrapper already peeled from its type.
            let rust = scope.facts.language.as_deref() == Some("rust");
            if rust && RUST_PASS_THROUGH.contains(&method) {
                return types;
            }
            let collections = types.iter().filter(|t| t.starts_with(types::ELEMENTS));
            if rust && RUST_ITERATING.contains(&method) {
                return collections.cloned().collect();
            }
            let one = types::RUST_OPTIONAL_ELEMENT.contains(&method)
                || RUST_TAKEN_ELEMENT.contains(&method);
            if rust && one {
                return collections
                    .map(|t| t[types::ELEMENTS.len()..].to_string())
                    .collect();
            }
            return self.classes_held(scope, at, &types, method);
        };
        if returned.all(|r| r.as_deref() == Some(first.as_str())) {
            vec![first]
        } else {
            Vec::new()
        }
    }

    /// What calling the Python field `field` of a value of `types` makes, when they have no
    /// method of that name and the field holds a class (`context_class: type[Context] =
    /// Context`, then `self.context_class(..)`): an instance of it. A class with a `__call__`
    /// is left out, since a field holding an instance of it is called alike.
    fn classes_held(
        &self,
        scope: &Scope,
        at: (u32, u32),
        types: &[String],
        field: &str,
    ) -> Vec<String> {
        let python = scope.facts.language.as_deref() == Some("python");
        if !python
            || types
                .iter()
                .any(|t| !self.methods_of_type(scope, at, t, field).is_empty())
        {
            return Vec::new();
        }
        let mut out: Vec<String> = types
            .iter()
            .flat_map(|t| self.field_of(scope, at, t, field))
            .filter(|held| {
                let classes = self.types_named(scope, at, scope.file, held, CLASS_LIKE);
                !classes.is_empty()
                    && classes.iter().all(|&c| self.bases_all_known(c))
                    && self.methods_of_type(scope, at, held, "__call__").is_empty()
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Whether every base the class `class` declares, up its hierarchy, is a class of the
    /// project: then the project holds all its methods (a library base, `nn.Module`, may
    /// give its instances a `__call__` no file here shows).
    fn bases_all_known(&self, class: u32) -> bool {
        let mut level = vec![class];
        let mut seen: HashSet<u32> = level.iter().copied().collect();
        for _ in 0..MAX_BASE_DEPTH {
            let mut next = Vec::new();
            for c in level {
                let node = &self.symbols[c as usize];
                let facts = &self.facts[node.file as usize];
                for base in bases::declared(facts, node.symbol()) {
                    if base == "object" {
                        continue;
                    }
                    let found: Vec<u32> = self
                        .named(last_segment(base))
                        .iter()
                        .copied()
                        .filter(|&b| {
                            CLASS_LIKE.contains(&self.symbols[b as usize].symbol().kind.as_str())
                        })
                        .collect();
                    if found.is_empty() {
                        return false;
                    }
                    next.extend(found.into_iter().filter(|b| seen.insert(*b)));
                }
            }
            if next.is_empty() {
                return true;
            }
            level = next;
        }
        true
    }

    /// The types of the value a call's receiver `on` holds: the caller's class for `self`,
    /// a stated type, a chain of fields, what a chain of calls returns, one call at a time
    /// (`Builder::new()`, `Foo().add()`; at most `depth` calls), or a type itself, whose
    /// static members a call reaches (`Gson.create()`).
    fn value_types(
        &self,
        scope: &Scope,
        caller: &Symbol,
        at: (u32, u32),
        on: &str,
        depth: usize,
    ) -> Vec<String> {
        let own = scope.own_class(self);
        if SELF.contains(&on) {
            return own.into_iter().map(str::to_string).collect();
        }
        if let Some(made_by) = on.strip_suffix("()") {
            if depth == 0 {
                return Vec::new();
            }
            if let Some((inner, method)) = types::method_call(made_by) {
                let receiver = self.value_types(scope, caller, at, inner, depth - 1);
                // A receiver of a known type: its method's declared return, or nothing (a
                // function of that name elsewhere is another).
                if !receiver.is_empty() {
                    return self.returned_on(scope, at, inner, receiver, method);
                }
            }
            let made = if made_by.contains("()") {
                None
            } else if made_by.contains("::") {
                types::constructed_by(made_by)
            } else if scope.library_package_call(made_by, at) {
                None
            } else {
                Some(last_segment(made_by).to_string())
            };
            // Another associated function's declared return (`TextDiff::configure()` of an
            // `fn configure() -> TextDiffConfig`), as a call on it reads it: a Rust type's
            // (not a module's `config::load()`), its functions of the name agreeing.
            if made.is_none()
                && !made_by.contains("()")
                && scope.facts.language.as_deref() == Some("rust")
                && let Some((ty, function)) = made_by.rsplit_once("::")
                && self.names_a_type(scope, at, ty)
                && let Some(returned) = agreed(
                    self.methods_of_type(scope, at, ty, function)
                        .into_iter()
                        .map(|m| self.declared_return(m)),
                )
            {
                return vec![returned];
            }
            if let Some(collection) = made
                .as_deref()
                .filter(|_| !made_by.contains(['.', ':']))
                .and_then(|f| self.returned_collection(scope, at, f))
            {
                return vec![collection];
            }
            let mut names: Vec<String> = made
                .map(|t| self.types_meant(scope, at, &t))
                .unwrap_or_default()
                .into_iter()
                .map(|t| self.symbols[t as usize].symbol().name.clone())
                .collect();
            names.dedup();
            return names;
        }
        let stated: Vec<String> = scope
            .type_of(on, own, at)
            .into_iter()
            .map(str::to_string)
            .collect();
        let stated = self.concrete_types(scope, caller, at, stated, depth.saturating_sub(1));
        if !stated.is_empty() {
            return self.collections_returned(scope, at, stated);
        }
        let chained = self
            .chain_types(scope, on, caller, at, depth.saturating_sub(1))
            .0;
        if !chained.is_empty() || on.contains('.') {
            return chained;
        }
        if self
            .types_named(scope, at, scope.file, on, CLASS_LIKE)
            .is_empty()
        {
            Vec::new()
        } else {
            vec![on.to_string()]
        }
    }

    /// The top-level definitions named `name` (of `kinds`) in the other files of `file`'s
    /// package, for the languages whose packages are directories and whose files see each
    /// other's top-level names without an import: Go's (a directory), Java's (a directory
    /// below its source root); empty for other languages.
    pub(super) fn package_members(&self, file: u32, name: &str, kinds: &[&str]) -> Vec<u32> {
        let language = self.files[file as usize].language.as_deref();
        if !matches!(language, Some("go" | "java")) {
            return Vec::new();
        }
        // Java's main and test sources (`src/main/java/a/b`, `src/test/java/a/b`) share a
        // package.
        let dir_of = |f: u32| {
            let path = self.files[f as usize].path.as_str();
            let dir = path.rsplit_once('/').map_or("", |(dir, _)| dir);
            if language != Some("java") {
                return dir;
            }
            match dir.rfind("/java/") {
                Some(i) => &dir[i + "/java/".len()..],
                None => dir.strip_prefix("java/").unwrap_or(dir),
            }
        };
        let here = dir_of(file);
        self.named(name)
            .iter()
            .copied()
            .filter(|&s| {
                let node = &self.symbols[s as usize];
                let symbol = node.symbol();
                node.file != file
                    && kinds.contains(&symbol.kind.as_str())
                    && symbol.container.is_none()
                    && dir_of(node.file) == here
                    && self.files[node.file as usize].language.as_deref() == language
            })
            .collect()
    }

    /// Whether a module a Rust path names (`io` of `io::Error`) is none of the project's:
    /// no definition (`mod io`) and no file is named so, nor is the path's first name one
    /// of the tree's crates (`petgraph::Graph` in petgraph's own tests).
    pub(super) fn library_module(&self, module: &str) -> bool {
        if module.starts_with(IN_FILE) {
            return false;
        }
        let head = module.rsplit("::").next().unwrap_or(module);
        let first = module.split("::").next().unwrap_or(module);
        self.named(head).is_empty()
            && !self.keys.contains_key(head)
            && !self.manifests.crates.iter().any(|(name, _)| name == first)
    }

    /// Whether a type as stated is reached through a library's module (`io::Error`).
    pub(super) fn through_library(&self, type_name: &str) -> bool {
        type_name
            .rsplit_once("::")
            .is_some_and(|(module, _)| self.library_module(module))
    }

    /// Whether the definition `def`, read from a definition of its own file spanning `at`, is
    /// in scope there: a type declared inside a function (a test's local subclass) is seen
    /// only inside that function.
    fn visible_at(&self, def: u32, at: (u32, u32)) -> bool {
        self.local_to(def)
            .is_none_or(|(start, end)| start <= at.0 && at.1 <= end)
    }

    /// The lines of the function or method a definition is declared inside (a local
    /// function, Rust's `type G = Csr<..>;` in a test), if it is one.
    fn local_to(&self, def: u32) -> Option<(u32, u32)> {
        let node = &self.symbols[def as usize];
        let symbol = node.symbol();
        // Only a definition held by another one can be local to a function: that one is
        // named as its container.
        let container = symbol.container.as_deref()?;
        let line = symbol.start_line;
        self.defined_in(node.file, last_segment(container))
            .into_iter()
            .map(|s| self.symbols[s as usize].symbol())
            .filter(|f| {
                f.start_line < line
                    && line <= f.end_line
                    && matches!(f.kind.as_str(), "function" | "method")
            })
            .min_by_key(|f| f.end_line - f.start_line)
            .map(|f| (f.start_line, f.end_line))
    }

    /// The type a function or method is declared to return (`Self` as its impl's type).
    fn declared_return(&self, function: u32) -> Option<String> {
        let node = &self.symbols[function as usize];
        let language = self.files[node.file as usize].language.as_deref();
        let stated = self
            .stated_returns
            .get(&(node.file, node.symbol().start_line));
        let returned = types::declared_return(
            self.files[node.file as usize].language.as_deref(),
            node.symbol(),
            stated.map(String::as_str),
        )?;
        if let ("Self", Some(own)) = (returned.as_str(), &node.symbol().container) {
            return Some(match language {
                Some("rust") => self.as_file_means(node.file, own.clone()),
                _ => own.clone(),
            });
        }
        // A Rust generic parameter (`fn all(&self) -> &[T]` of `impl<T> Store<T>`) is the
        // caller's choice, not a type the declaration names.
        if language == Some("rust") {
            let generics: Vec<&str> = types::rust_generics(&node.symbol().signature)
                .into_iter()
                .chain(
                    self.enclosing_impl(function)
                        .map(types::rust_generics)
                        .unwrap_or_default(),
                )
                .collect();
            if returned.starts_with(types::TUPLE) {
                let own = node.symbol().container.as_deref();
                return self.tuple_as_declared(node.file, &returned, &generics, own);
            }
            // (`-> G::Map` too: the caller's `G` is another.)
            if generics.contains(&type_head(&returned)) {
                return None;
            }
        }
        // A type nested in the declaring file (`static Builder builder()` of a class whose
        // `Builder` is its own): named through its outer type, as the declaring file means it,
        // not as the caller's file would.
        let nested: Vec<Option<&str>> = self
            .defined_in(node.file, &returned)
            .into_iter()
            .filter_map(|t| {
                let t = self.symbols[t as usize].symbol();
                TYPE_LIKE
                    .contains(&t.kind.as_str())
                    .then_some(t.container.as_deref())
            })
            .collect();
        match nested.as_slice() {
            [Some(outer)] => Some(format!("{outer}.{returned}")),
            // A Rust type the declaring file defines, where the project has several of that
            // name (petgraph's `Edges` of each graph type): that file's.
            [None] if language == Some("rust") => Some(self.as_file_means(node.file, returned)),
            _ => Some(returned),
        }
    }

    /// What a Rust method of the caller's own type returns when that is a generic parameter
    /// of its `impl` (`fn inner(&self) -> &G` in `impl<G: Visitable> Acyclic<G>`), called on
    /// `self` from an `impl` for the same type as written (`impl<G: DataMap> DataMap for
    /// Acyclic<G>`): the caller's `G`, which its own `impl` bounds (`self.inner()
    /// .edge_weight(id)` is `DataMap::edge_weight`). Nothing from an `impl` for another
    /// spelling of the type, whose `G` may be another parameter.
    fn own_generic_returned(&self, scope: &Scope, at: (u32, u32), method: &str) -> Vec<String> {
        if scope.facts.language.as_deref() != Some("rust") {
            return Vec::new();
        }
        let Some(own) = scope.own_class(self) else {
            return Vec::new();
        };
        let Some(caller_impl) = self
            .enclosing_impl(scope.caller.get())
            .and_then(impl_self_type)
        else {
            return Vec::new();
        };
        let methods = self.methods_of_type(scope, at, own, method);
        let returned = methods.iter().map(|&m| {
            let node = self.symbols[m as usize].symbol();
            let written = self.enclosing_impl(m)?;
            if impl_self_type(written)? != caller_impl {
                return None;
            }
            let returned = types::declared_return(Some("rust"), node, None)?;
            let bare = returned.strip_prefix(types::OPTIONAL).unwrap_or(&returned);
            let bare = bare.strip_prefix(types::ELEMENTS).unwrap_or(bare);
            // (A method's own generic is named apart from its impl's: Rust forbids shadowing.)
            types::rust_generics(written)
                .contains(&bare)
                .then_some(returned)
        });
        agreed(returned).into_iter().collect()
    }

    /// Whether the project defines more than one type named `name`.
    fn several_types_named(&self, name: &str) -> bool {
        let kind_of =
            |s: &&u32| TYPE_LIKE.contains(&self.symbols[**s as usize].symbol().kind.as_str());
        self.named(name).iter().filter(kind_of).nth(1).is_some()
    }

    /// The types a receiver chained through fields has (`self.app.config`, `h.pair.reader`):
    /// its first name's type (the caller's own class for `self`, the fixture's value for a
    /// test's parameter), then each field's declared type in turn, wherever the class
    /// declaring it is. Empty when any link is unknown; true when the first type is a
    /// fixture's.
    pub(super) fn chain_types(
        &self,
        scope: &Scope,
        receiver: &str,
        caller: &Symbol,
        at: (u32, u32),
        depth: usize,
    ) -> (Vec<String>, bool) {
        let own = scope.own_class(self);
        let mut segments = receiver.split('.').peekable();
        // Rust's indexed path (`self.next[]`, see `receiver_text`): each `[]` is an element
        // of what the name before it holds.
        let (head, head_indexed) = indexes(segments.next().unwrap_or_default());
        let bare = segments.peek().is_none() && head_indexed == 0;
        let mut types: Vec<String> = if bare {
            // A bare name's own type was tried before the chain: only a fixture is new here.
            Vec::new()
        } else if SELF.contains(&head) {
            own.into_iter().map(str::to_string).collect()
        } else {
            let stated = self.stated_types(scope, caller, at, head, depth);
            // A type's own name: its static fields (`Allocator.INSTANCE.make()`).
            if stated.is_empty()
                && !self
                    .types_named(scope, at, scope.file, head, CLASS_LIKE)
                    .is_empty()
            {
                vec![head.to_string()]
            } else {
                // A local assigned a function's value (`s := newState()`): the type the
                // function is declared to return, whose fields the chain reads.
                stated
                    .into_iter()
                    .map(|t| {
                        let a_type = !self
                            .types_named(scope, at, scope.file, &t, TYPE_LIKE)
                            .is_empty();
                        match a_type {
                            true => t,
                            false => self.returned_type(scope, at, &t).unwrap_or(t),
                        }
                    })
                    .collect()
            }
        };
        // A test's parameter named like a fixture it sees: what the fixture makes.
        let mut from_fixture = false;
        if types.is_empty()
            && let Some(made) = self.fixture_type(&scope.facts.path, head)
            && scope.facts.language.as_deref() == Some("python")
            && fixtures::parameters(&caller.signature).any(|p| p == head)
        {
            types.push(made.to_string());
            from_fixture = true;
        }
        for _ in 0..head_indexed {
            types = self.indexed(scope, at, types);
        }
        for field in segments {
            if field == "this" {
                continue; // Java's `Outer.this`: the outer instance, of the type before it
            }
            let (field, indexed) = indexes(field);
            let mut next: Vec<String> = types
                .iter()
                .flat_map(|t| self.field_of(scope, at, t, field))
                .collect();
            for _ in 0..indexed {
                next = self.indexed(scope, at, next);
            }
            next.sort_unstable();
            next.dedup();
            if next.is_empty() {
                return (Vec::new(), false);
            }
            types = next;
        }
        (types, from_fixture)
    }

    /// `stated` as types to look methods up in: a pattern-bound one by its variant's field
    /// (see [`Graph::variant_payloads`]), a call's value ([`types::CALL_VALUE`]) by what the
    /// method its receiver's type has is declared to return, else (its receiver unknown) by
    /// the called name, as a function's declared return type; a path's value
    /// ([`types::PATH_VALUE`]) and a ranged element ([`types::ELEMENT_OF`]) by the path's
    /// type (a slice's or map's type name is already its element's), dropped when unknown.
    /// At most `depth` calls or paths deep.
    pub(super) fn concrete_types(
        &self,
        scope: &Scope,
        caller: &Symbol,
        at: (u32, u32),
        stated: Vec<String>,
        depth: usize,
    ) -> Vec<String> {
        let stated = self.variant_payloads(stated);
        let derived = |t: &String| {
            t.ends_with(types::CALL_VALUE)
                || t.starts_with([
                    types::PATH_VALUE,
                    types::ELEMENT_OF,
                    types::CALLBACK_PARAMETER,
                    types::UNPACKED,
                    types::SOME_OF,
                ])
        };
        if !stated.iter().any(derived) {
            return stated;
        }
        let mut out = Vec::new();
        for t in stated {
            if !derived(&t) {
                out.push(t);
                continue;
            }
            // What an `Option` or a `Result` holds: its value's types, the wrapper peeled.
            if let Some(value) = t.strip_prefix(types::SOME_OF) {
                let held = self.concrete_types(scope, caller, at, vec![value.to_string()], depth);
                out.extend(
                    held.into_iter()
                        .map(|h| match h.strip_prefix(types::OPTIONAL) {
                            Some(peeled) => peeled.to_string(),
                            None => h,
                        }),
                );
                continue;
            }
            let through = if depth > 0 {
                let key = (t.clone(), scope.call_line.get(), at, depth);
                let known = scope.values_seen.borrow().get(&key).cloned();
                match known {
                    Some(known) => known,
                    None => {
                        let found = if let Some((index, value)) = types::unpacked(&t) {
                            self.unpacked_types(scope, caller, at, value, index, depth - 1)
                        } else if let Some(path) = t.strip_prefix(types::ELEMENT_OF) {
                            // Rust ranges over a call's value too (`for e in g.edges(n)`).
                            let held = match path.ends_with(types::CALL_VALUE) {
                                true => self.value_types(scope, caller, at, path, depth),
                                false => self.path_types(scope, caller, at, path, depth - 1),
                            };
                            self.elements_of(scope, at, held)
                        } else if let Some(path) = t.strip_prefix(types::PATH_VALUE) {
                            self.path_types(scope, caller, at, path, depth - 1)
                        } else if let Some(callback) = t.strip_prefix(types::CALLBACK_PARAMETER) {
                            self.callback_parameter_types(scope, callback)
                        } else {
                            self.value_types(scope, caller, at, &t, depth)
                        };
                        scope.values_seen.borrow_mut().insert(key, found.clone());
                        found
                    }
                }
            } else {
                Vec::new()
            };
            match t.strip_suffix(types::CALL_VALUE) {
                // Unknown: the called name as a type or a function's, but never a Go
                // library's (`slog.Level(n)`), nor one element of what it returns.
                // (What a loop or a closure ranges over holds nothing known: no guess.)
                // A Rust type's associated function (`Queue::new()`) is that type's, read
                // above: no function of its name elsewhere.
                Some(call)
                    if through.is_empty()
                        && types::unpacked(&t).is_none()
                        && !t.starts_with(types::ELEMENT_OF)
                        && !types::of_a_type(call) =>
                {
                    if !scope.library_package_call(call.trim_end_matches("()"), at) {
                        out.push(last_segment(call).to_string());
                    }
                }
                _ => out.extend(through),
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// What ranging over values of `types` gives: a collection marked [`types::ELEMENTS`]
    /// its elements; a Go type defined over a slice, array or map (`type Path []PathStep`)
    /// its element's type; in Python nothing else; any other type (a Go slice's or a
    /// TypeScript array's type name is already its element's) is kept.
    fn elements_of(&self, scope: &Scope, at: (u32, u32), types: Vec<String>) -> Vec<String> {
        let language = scope.facts.language.as_deref();
        let go = language == Some("go");
        if language == Some("rust") {
            return types
                .into_iter()
                .filter_map(|t| {
                    // An `Option`'s one value: the collection it holds.
                    if let Some(held) = t.strip_prefix(types::OPTIONAL) {
                        return Some(held.to_string());
                    }
                    match t.strip_prefix(types::ELEMENTS) {
                        Some(element) => Some(element.to_string()),
                        None => self
                            .iterator_item(scope, at, &t)
                            .or_else(|| self.bound_item(scope, at, &t)),
                    }
                })
                .collect();
        }
        // A Python value of a class (`for row in table` of a `Table`) holds what its
        // `__iter__` yields, which no annotation here states.
        let marked_only = language == Some("python");
        types
            .into_iter()
            .filter(|t| !marked_only || t.starts_with(types::ELEMENTS))
            .map(|t| {
                if let Some(element) = t.strip_prefix(types::ELEMENTS) {
                    return element.to_string();
                }
                if !go {
                    return t;
                }
                let defined = self.types_named(scope, at, scope.file, &t, &["type"]);
                let element = defined.iter().find_map(|&d| {
                    let sym = self.symbols[d as usize].symbol();
                    let over = sym.signature.strip_prefix(sym.name.as_str())?.trim();
                    // `[]textRecord`, marked a collection: its element.
                    let element = types::go_type_name(over)?;
                    let element = element.strip_prefix(types::ELEMENTS)?;
                    Some(element.to_string())
                });
                element.unwrap_or(t)
            })
            .collect()
    }

    /// What iterating over a value of the Rust type `type_name` gives: the `Item` its
    /// `Iterator` impl states (`type Item = NodeIndex<Ix>;`), in the file that defines the
    /// type, when the impls there agree; none otherwise.
    fn iterator_item(&self, scope: &Scope, at: (u32, u32), type_name: &str) -> Option<String> {
        // An `Iterator`'s own `Item` only: an `IntoIterator` value is often reached through
        // an `Option` (`rows.first().map(|r| ..)` hands over the row), which no type here
        // tells apart.
        self.implemented_item(scope, at, type_name, "Iterator", "Item")
    }

    /// What indexing values of `types` gives (`self.nodes[i]`): a collection's element, and
    /// in Rust the `Output` a type's `impl Index` states (`impl Index<FasNodeIndex> for
    /// FasNodeContainer { type Output = LinkedListEntry<..>; }`), never what iterating it
    /// gives.
    fn indexed(&self, scope: &Scope, at: (u32, u32), types: Vec<String>) -> Vec<String> {
        if scope.facts.language.as_deref() != Some("rust") {
            return self.elements_of(scope, at, types);
        }
        types
            .into_iter()
            .filter_map(|t| match t.strip_prefix(types::ELEMENTS) {
                Some(element) => Some(element.to_string()),
                None => self.implemented_item(scope, at, &t, "Index", "Output"),
            })
            .collect()
    }

    /// The associated type `item` that the Rust type `type_name`'s `impl trait_name` blocks
    /// state, in the file that defines the type, when they agree.
    fn implemented_item(
        &self,
        scope: &Scope,
        at: (u32, u32),
        type_name: &str,
        trait_name: &str,
        item: &str,
    ) -> Option<String> {
        let defined = self.types_meant(scope, at, type_name);
        let files: Vec<u32> = defined
            .iter()
            .map(|&d| self.symbols[d as usize].file)
            .collect();
        let name = last_segment(type_name);
        let items = self.members(item, name).iter().filter(|&&m| {
            let node = &self.symbols[m as usize];
            node.symbol().kind == "type"
                && files.contains(&node.file)
                && self
                    .enclosing_impl(m)
                    .and_then(implemented_trait)
                    .is_some_and(|t| t == trait_name)
        });
        // Every impl's, read and agreeing (`Index<usize>` and `Index<Range<usize>>` state
        // an element and a slice): an impl's own parameter (`type Output = T;`) is no type.
        agreed(items.map(|&m| {
            let node = &self.symbols[m as usize];
            let item = types::alias_target(Some("rust"), &node.symbol().signature)?;
            let generics = self
                .enclosing_impl(m)
                .map(types::rust_generics)
                .unwrap_or_default();
            if item.starts_with(types::TUPLE) {
                return self.tuple_as_declared(node.file, &item, &generics, None);
            }
            let generic = generics.contains(&item.as_str());
            (!generic).then(|| self.as_file_means(node.file, item))
        }))
    }

    /// What iterating over a value of the caller's generic `I` gives when a bound of `I` is
    /// an iterator (`I: Iterator<Item = G::EdgeRef>`, a field `iter: I`), or over one of
    /// its associated types its trait bounds so (`iter: G::Edges` of `type Edges:
    /// Iterator<Item = Self::EdgeRef>` is `G::EdgeRef`): that `Item`, when the bounds agree.
    fn bound_item(&self, scope: &Scope, at: (u32, u32), type_name: &str) -> Option<String> {
        let (generic, associated) = match type_name.split_once("::") {
            Some((generic, associated)) => (generic, Some(associated)),
            None => (type_name, None),
        };
        if !self.caller_generic(scope, generic) {
            return None;
        }
        let bounds = match associated {
            Some(associated) => self.associated_declared(scope, at, generic, associated),
            None => self.generic_bounds(scope, at, generic),
        };
        let items = bounds.iter().filter_map(|b| {
            let item = b.strip_prefix(types::ELEMENTS)?;
            match associated {
                // The trait's `Self` is the generic; any other name there is the trait's
                // (one of its own parameters, a type of its file), not the caller's.
                Some(_) => Some(format!("{generic}::{}", item.strip_prefix("Self::")?)),
                None => Some(item.to_string()),
            }
        });
        agreed(items.map(Some))
    }

    /// A Rust type name as `file` means it: marked [`in_file`] when the file defines a type
    /// of that name at its top level and the project has several (petgraph's `Edges` and
    /// `EdgeReference` of each graph type), so a caller elsewhere reaches that one.
    fn as_file_means(&self, file: u32, name: String) -> String {
        let own = self.defined_in(file, &name).into_iter().any(|t| {
            let t = self.symbols[t as usize].symbol();
            t.container.is_none() && TYPE_LIKE.contains(&t.kind.as_str())
        });
        match own && self.several_types_named(&name) {
            true => in_file(file, &name),
            false => name,
        }
    }

    /// A Rust tuple's type name (see [`types::TUPLE`]) as a declaration in `file` means it for
    /// whoever calls it: an element naming one of `generics` (the declaration's own or its
    /// `impl`'s, the caller's choice) is left unknown, `Self` is `own`, and every other
    /// element is named as the declaring file means it ([`Graph::as_file_means`]). None when
    /// no element is left known.
    fn tuple_as_declared(
        &self,
        file: u32,
        tuple: &str,
        generics: &[&str],
        own: Option<&str>,
    ) -> Option<String> {
        let elements: Vec<String> = types::tuple_parts(tuple)?
            .into_iter()
            .map(|element| {
                if element.starts_with(types::TUPLE) {
                    return self
                        .tuple_as_declared(file, element, generics, own)
                        .unwrap_or_default();
                }
                let bare = type_head(element);
                match (bare, own) {
                    ("", _) => String::new(),
                    ("Self", Some(own)) if element == "Self" => {
                        self.as_file_means(file, own.to_string())
                    }
                    ("Self", _) => String::new(),
                    _ if generics.contains(&bare) => String::new(),
                    _ if element == bare => self.as_file_means(file, element.to_string()),
                    _ => element.to_string(),
                }
            })
            .collect();
        types::tuple_named(&elements)
    }

    /// The types of a callback's parameter `callee#argument#index` (see
    /// [`types::CALLBACK_PARAMETER`]): that parameter of the function type the callee
    /// declares for that argument, through the callee the call resolves to (a class's
    /// constructor for `new`); nothing when the call is only a guess by name.
    fn callback_parameter_types(&self, scope: &Scope, callback: &str) -> Vec<String> {
        let mut parts = callback.rsplitn(3, '#');
        let (Some(index), Some(argument), Some(callee)) =
            (parts.next(), parts.next(), parts.next())
        else {
            return Vec::new();
        };
        let (Ok(index), Ok(argument)) = (index.parse::<usize>(), argument.parse::<usize>()) else {
            return Vec::new();
        };
        if !scope.callbacks_open.borrow_mut().insert(callee.to_string()) {
            return Vec::new();
        }
        let (receiver, name) = callee.rsplit_once('.').unwrap_or(("", callee));
        let (targets, how) = self.callee(scope, scope.caller.get(), name, receiver);
        scope.callbacks_open.borrow_mut().remove(callee);
        if how == Confidence::Name {
            return Vec::new();
        }
        let mut out: Vec<String> = targets
            .into_iter()
            .flat_map(|t| {
                let sym = self.symbols[t as usize].symbol();
                match CLASS_LIKE.contains(&sym.kind.as_str()) {
                    true => self.members("constructor", &sym.name).to_vec(),
                    false => vec![t],
                }
            })
            .filter_map(|f| {
                let signature = &self.symbols[f as usize].symbol().signature;
                signatures::callback_parameter(signature, argument, index)
            })
            .filter_map(types::type_name)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The types of a path's value: a chain of fields (`test.route`), or a name's stated type,
    /// in this file or as another file's module-level variable it imports.
    fn path_types(
        &self,
        scope: &Scope,
        caller: &Symbol,
        at: (u32, u32),
        path: &str,
        depth: usize,
    ) -> Vec<String> {
        if path.contains('.') {
            return self.chain_types(scope, path, caller, at, depth).0;
        }
        let stated = self.stated_types(scope, caller, at, path, depth);
        // `const self = this`: the object itself, of the caller's own class unless the
        // function declares its `this`.
        if stated.is_empty() && SELF.contains(&path) {
            let own = scope.own_class(self);
            return own.into_iter().map(str::to_string).collect();
        }
        // A class's own name (`_Segment = Segment`): the class, whose methods the name's
        // calls are.
        if stated.is_empty()
            && !self
                .types_named(scope, at, scope.file, path, CLASS_LIKE)
                .is_empty()
        {
            return vec![path.to_string()];
        }
        stated
    }

    /// The types a name as written is stated to have where a definition spanning `at` uses
    /// it: its binding's in this file, else (a plain name) the one another file states for
    /// the module variable it imports, made concrete ([`Graph::concrete_types`]).
    pub(super) fn stated_types(
        &self,
        scope: &Scope,
        caller: &Symbol,
        at: (u32, u32),
        name: &str,
        depth: usize,
    ) -> Vec<String> {
        let own = scope.own_class(self);
        let mut stated: Vec<String> = scope
            .type_of(name, own, at)
            .into_iter()
            .map(str::to_string)
            .collect();
        if stated.is_empty() && !name.contains(['.', ':']) {
            stated = self.imported_value_types(scope, at, name);
        }
        let stated = self.concrete_types(scope, caller, at, stated, depth);
        self.collections_returned(scope, at, stated)
    }

    /// `types` with each pattern-bound one ([`types::VARIANT_OF`]) replaced by the type of
    /// its variant's field: through the enum the pattern names, else the few enums declaring
    /// a variant of that name; dropped when none does.
    pub(super) fn variant_payloads(&self, types: Vec<String>) -> Vec<String> {
        if !types.iter().any(|t| t.starts_with(types::VARIANT_OF)) {
            return types;
        }
        let mut out: Vec<String> = types
            .into_iter()
            .flat_map(|t| {
                let Some(path) = t.strip_prefix(types::VARIANT_OF) else {
                    return vec![t];
                };
                let (named_enum, variant) = match path.rsplit_once('.') {
                    Some((e, v)) => (Some(e), v),
                    None => (None, path),
                };
                let enums: Vec<&String> = self
                    .variants
                    .get(variant)
                    .into_iter()
                    .flatten()
                    .filter(|e| named_enum.is_none_or(|n| n == e.as_str()))
                    .collect();
                if enums.len() > MAX_NAME_ONLY {
                    return Vec::new();
                }
                enums
                    .into_iter()
                    .flat_map(|e| self.field_types.get(e).into_iter().flatten())
                    .filter(|(name, ..)| name == variant)
                    .map(|(_, type_name, _)| type_name.clone())
                    .collect()
            })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The types of the field `field` of a value of type `holder`: as the type declares or
    /// assigns it, else as its nearest base does; a tuple's element by its position. A field assigned a call's result (`self.config
    /// = self.make_config()`) holds what that method is declared to return.
    fn field_of(&self, scope: &Scope, at: (u32, u32), holder: &str, field: &str) -> Vec<String> {
        // A Rust tuple's element by its position (`st.1`).
        if holder.starts_with(types::TUPLE) {
            return types::tuple_element(holder, field).into_iter().collect();
        }
        if self.through_library(holder) {
            return Vec::new();
        }
        // A Go type of a package the project does not hold (`goflag.Flag`, the standard
        // library's): none of its fields is a project type's field of that name.
        let go = scope.facts.language.as_deref() == Some("go");
        if go
            && holder.contains('.')
            && self
                .types_named(scope, at, scope.file, holder, TYPE_LIKE)
                .is_empty()
        {
            return Vec::new();
        }
        let declared = || {
            self.field_types
                .get(last_segment(holder))
                .into_iter()
                .flatten()
                .filter(|(name, ..)| name == field)
        };
        // Rust's types of one name in several files are several types (csr.rs's and
        // matrix_graph.rs's `NodeReferences`): the fields of those the holder means.
        let mut first_file = None;
        let several_files = declared().any(|(.., file)| *first_file.get_or_insert(*file) != *file);
        let meant: Vec<u32> = match several_files && scope.facts.language.as_deref() == Some("rust")
        {
            true => self
                .types_named(scope, at, scope.file, holder, TYPE_LIKE)
                .iter()
                .map(|&t| self.symbols[t as usize].file)
                .collect(),
            false => Vec::new(),
        };
        let mut found: Vec<String> = declared()
            .filter(|(.., file)| meant.is_empty() || meant.contains(file))
            .map(|(_, type_name, _)| type_name.clone())
            .collect();
        if found.is_empty() {
            let classes = self.types_named(scope, at, scope.file, holder, CLASS_LIKE);
            found = self.inherited_field(scope, at, classes, field);
        }
        found
            .into_iter()
            .flat_map(|type_name| {
                if self.may_name_kind(last_segment(&type_name), TYPE_LIKE) {
                    return vec![type_name];
                }
                let returned: Vec<String> = self
                    .methods_of_type(scope, at, holder, &type_name)
                    .into_iter()
                    .filter_map(|m| self.declared_return(m))
                    .collect();
                if returned.is_empty() {
                    vec![type_name]
                } else {
                    returned
                }
            })
            .collect()
    }

    /// The types a module-level variable has in the files the caller's file imports it from
    /// (`from .globals import current_app` where globals.py states `current_app: Flask =
    /// ...`): a variable is no definition, so no import binds it otherwise.
    pub(super) fn imported_value_types(
        &self,
        scope: &Scope,
        at: (u32, u32),
        name: &str,
    ) -> Vec<String> {
        // A Go package is a directory: its files see each other's package variables
        // (`CommandLine` declared in flag.go, called on in uint32.go) without an import.
        if scope.facts.language.as_deref() == Some("go") {
            let path = self.files[scope.file as usize].path.as_str();
            let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
            let key = (dir.to_string(), name.to_string());
            return self.go_values.get(&key).cloned().unwrap_or_default();
        }
        let mut out: Vec<String> = scope
            .module_files(name, at)
            .into_iter()
            .flat_map(|f| {
                let facts = &self.facts[f as usize];
                facts
                    .types
                    .iter()
                    .filter(move |t| t.name == name && module_level(facts, t))
            })
            .map(|t| t.type_name.clone())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Base name to the class-like definitions whose declarations name it.
    pub(super) fn subclass_table(&self) -> HashMap<String, Vec<u32>> {
        let mut out: HashMap<String, Vec<u32>> = HashMap::new();
        for (i, node) in self.symbols.iter().enumerate() {
            let s = node.symbol();
            // (A Rust trait's supertraits are bases, but no subtrait implements a trait:
            // a call on a trait never dispatches to a subtrait's method.)
            if !CLASS_LIKE.contains(&s.kind.as_str()) {
                continue;
            }
            for base in bases::declared(&node.facts, s) {
                out.entry(base.to_string()).or_default().push(i as u32);
            }
        }
        out
    }

    /// The methods named `name` of the classes below a type named `type_name` (as the
    /// caller's file means it) that has no such method itself: implementing an interface,
    /// extending an abstract class, up to [`MAX_BASE_DEPTH`] levels down; none when more
    /// than [`MAX_IMPLEMENTERS`] classes would answer.
    pub(super) fn implementers(
        &self,
        scope: &Scope,
        at: (u32, u32),
        type_name: &str,
        name: &str,
    ) -> Vec<u32> {
        let types = self.types_meant(scope, at, type_name);
        if types.is_empty() {
            return Vec::new();
        }
        let mut seen: HashSet<u32> = types.iter().copied().collect();
        let mut level = types;
        let mut found = Vec::new();
        for _ in 0..MAX_BASE_DEPTH {
            let family = level
                .first()
                .and_then(|&t| self.family_of(self.symbols[t as usize].file));
            let next: Vec<u32> = level
                .iter()
                .flat_map(|&t| {
                    let n = self.symbols[t as usize].symbol().name.as_str();
                    self.subclasses.get(n).into_iter().flatten().copied()
                })
                .filter(|&c| self.family_of(self.symbols[c as usize].file) == family)
                .filter(|c| seen.insert(*c))
                .collect();
            if next.is_empty() {
                break;
            }
            found.extend(self.own_methods(&next, name));
            if found.len() > MAX_IMPLEMENTERS {
                return Vec::new();
            }
            level = next;
        }
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The interface and base methods each of `methods` implements or overrides, whose calls
    /// may reach it, as Go's and TypeScript's language servers list them among its callers:
    /// in Go every interface of its language family declaring a method of that name whose
    /// every method the method's type has (Go's interfaces are met without saying so); in
    /// TypeScript and JavaScript the methods of that name of the classes and interfaces its
    /// class names as bases, up the chain. None in other languages, whose servers list calls
    /// through a base apart from an implementation's. Go's interface methods of one name are
    /// found once for every method of that name asked about.
    pub fn implemented(&self, methods: &[u32]) -> HashMap<u32, Vec<u32>> {
        let mut read = GoInterfaces {
            declared: HashMap::new(),
            owners: self.containers_of(methods),
            owned: NamesHeld::default(),
        };
        methods
            .iter()
            .map(|&m| (m, self.implemented_by(m, &mut read)))
            .filter(|(_, found)| !found.is_empty())
            .collect()
    }

    /// [`Graph::implemented`] for one method; `read` keeps what Go's interfaces and the
    /// types asked about were found to have so far.
    fn implemented_by<'g>(&'g self, method: u32, read: &mut GoInterfaces<'g>) -> Vec<u32> {
        let node = &self.symbols[method as usize];
        let sym = node.symbol();
        let Some(owner) = sym.container.as_deref() else {
            return Vec::new();
        };
        let family = self.family_of(node.file);
        let kind_of = |s: u32| self.symbols[s as usize].symbol().kind.as_str();
        match self.files[node.file as usize].language.as_deref() {
            Some("go") => {
                let key = (sym.name.as_str(), family);
                let GoInterfaces {
                    declared,
                    owners,
                    owned,
                } = read;
                let declared = declared
                    .entry(key)
                    .or_insert_with(|| self.interface_methods(&sym.name, family));
                if declared.is_empty() {
                    return Vec::new();
                }
                // Which of the names these interfaces want each type asked about has a
                // definition of, gathered once per name asked: an interface is met when its
                // type has every one of its methods' names.
                if owned.entries.insert(key) {
                    let wanted = declared
                        .iter()
                        .flat_map(|(_, i)| i.iter().flatten().copied());
                    for name in wanted {
                        if !owned.names.insert(name) {
                            continue;
                        }
                        for &d in self.named(name) {
                            if let Some(c) = self.symbols[d as usize].symbol().container.as_deref()
                                && owners.contains(c)
                            {
                                owned.held.entry(c).or_default().insert(name);
                            }
                        }
                    }
                }
                let has = owned.held.get(owner);
                declared
                    .iter()
                    .filter(|(m, interfaces)| {
                        *m != method
                            && interfaces.iter().any(|names| {
                                names.iter().all(|n| has.is_some_and(|h| h.contains(n)))
                            })
                    })
                    .map(|&(m, _)| m)
                    .take(MAX_IMPLEMENTERS)
                    .collect()
            }
            Some("typescript" | "tsx" | "javascript") => {
                let mut out = Vec::new();
                let mut seen: HashSet<u32> = HashSet::new();
                let mut level: Vec<u32> = self.defined_in(node.file, owner);
                for _ in 0..MAX_BASE_DEPTH {
                    let mut next = Vec::new();
                    for &c in &level {
                        let class = &self.symbols[c as usize];
                        for base in bases::declared(&class.facts, class.symbol()) {
                            next.extend(
                                self.named(base)
                                    .iter()
                                    .copied()
                                    .filter(|&b| CLASS_LIKE.contains(&kind_of(b)))
                                    .filter(|&b| {
                                        self.family_of(self.symbols[b as usize].file) == family
                                    })
                                    .filter(|b| seen.insert(*b)),
                            );
                        }
                    }
                    for &b in &next {
                        let name = self.symbols[b as usize].symbol().name.as_str();
                        let file = self.symbols[b as usize].file;
                        out.extend(
                            self.members(&sym.name, name)
                                .iter()
                                .copied()
                                .filter(|&m| self.symbols[m as usize].file == file),
                        );
                    }
                    if next.is_empty() {
                        break;
                    }
                    level = next;
                }
                out.sort_unstable();
                out.dedup();
                out
            }
            _ => Vec::new(),
        }
    }

    /// The names of an interface's own methods: those of its name within its lines, which
    /// follow it (symbols are in source order), not the whole file's.
    fn own_method_names(&self, interface: u32) -> Vec<&str> {
        let i = self.symbols[interface as usize].symbol();
        let end = self.symbols_of(self.symbols[interface as usize].file).end;
        (interface + 1..end)
            .map(|m| self.symbols[m as usize].symbol())
            .take_while(|s| s.start_line <= i.end_line)
            .filter(|s| s.container.as_deref() == Some(i.name.as_str()))
            .map(|s| s.name.as_str())
            .collect()
    }

    /// The containers of `methods` (the types whose interfaces are asked about).
    fn containers_of(&self, methods: &[u32]) -> HashSet<&str> {
        methods
            .iter()
            .filter_map(|&m| self.symbols[m as usize].symbol().container.as_deref())
            .collect()
    }

    /// The methods named `name` of language family `family` that interfaces declare, each
    /// with the method names of the interface declaring it.
    fn interface_methods(&self, name: &str, family: Option<&str>) -> Vec<(u32, Vec<Vec<&str>>)> {
        let kind_of = |s: u32| self.symbols[s as usize].symbol().kind.as_str();
        self.named(name)
            .iter()
            .copied()
            .filter(|&m| kind_of(m) == "method")
            .filter(|&m| self.family_of(self.symbols[m as usize].file) == family)
            .filter_map(|m| {
                let node = &self.symbols[m as usize];
                let container = node.symbol().container.as_deref().unwrap_or_default();
                // The interface declaring it: of those of its container's name in its file (a
                // function's own `type I interface`), the one holding its lines.
                let (start, end) = (node.symbol().start_line, node.symbol().end_line);
                let interfaces: Vec<Vec<&str>> = self
                    .defined_in(node.file, container)
                    .into_iter()
                    .filter(|&i| {
                        let i = self.symbols[i as usize].symbol();
                        i.kind == "interface" && i.start_line <= start && end <= i.end_line
                    })
                    .map(|i| self.own_method_names(i))
                    .collect();
                (!interfaces.is_empty()).then_some((m, interfaces))
            })
            .collect()
    }

    /// The methods that implement each Rust trait method of `methods` (`fn target(&self)` of
    /// `impl EdgeRef for EdgeReference`, for `EdgeRef::target`): a call of one of them is a
    /// call of the trait's method too, as rust-analyzer lists it. Only trait methods are
    /// keys. The methods of one name are read once for every trait method declaring it: a
    /// file of thousands of traits sharing a method name asks about each of them.
    pub fn implementations(&self, methods: &[u32]) -> HashMap<u32, Vec<u32>> {
        let mut read: HashMap<(&str, Option<&str>), NamedImpls<'_>> = HashMap::new();
        let mut out = HashMap::new();
        for &method in methods {
            let node = &self.symbols[method as usize];
            let sym = node.symbol();
            if self.files[node.file as usize].language.as_deref() != Some("rust") {
                continue;
            }
            let Some(owner) = sym.container.as_deref() else {
                continue;
            };
            let is_trait = self
                .defined_in(node.file, owner)
                .iter()
                .any(|&t| self.symbols[t as usize].symbol().kind == "trait");
            if !is_trait {
                continue;
            }
            let family = self.family_of(node.file);
            let named = read
                .entry((sym.name.as_str(), family))
                .or_insert_with(|| self.named_impls(&sym.name, family));
            let mut found: Vec<u32> = named
                .by_trait
                .get(owner)
                .into_iter()
                .flatten()
                .filter(|&&(m, container)| {
                    // (A library's trait of the name, `impl io::Read for Buf`, is another.)
                    m != method
                        && container != Some(owner)
                        && !container.is_some_and(|c| named.inherent.contains(c))
                })
                .map(|&(m, _)| m)
                .collect();
            found.sort_unstable();
            out.insert(method, found);
        }
        out
    }

    /// The Rust methods named `name` in the language family `family`, by the project trait
    /// their `impl` block implements, and the types with an inherent method of the name.
    fn named_impls(&self, name: &str, family: Option<&str>) -> NamedImpls<'_> {
        let mut named = NamedImpls::default();
        for &m in self.named(name) {
            if self.family_of(self.symbols[m as usize].file) != family {
                continue;
            }
            let Some(block) = self.enclosing_impl(m) else {
                continue;
            };
            let container = self.symbols[m as usize].symbol().container.as_deref();
            match implemented_trait(block) {
                // A type's own method of the name is what a call on the type reaches (Rust
                // looks inherent methods up first), never its implementation of the trait's.
                None => named.inherent.extend(container),
                Some(t) => {
                    if implemented_trait_path(block).is_some_and(|p| self.project_trait_path(p)) {
                        named.by_trait.entry(t).or_default().push((m, container));
                    }
                }
            }
        }
        named
    }

    /// The signature of the Rust `impl` block a method (or an associated type) is written in.
    /// Symbols are in source order, an `impl` before its members: it is looked for among the
    /// few hundred before the member, so a hostile `impl` of endless members costs no more.
    fn enclosing_impl(&self, member: u32) -> Option<&str> {
        let node = &self.symbols[member as usize];
        let m = node.symbol();
        let first = self.symbols_of(node.file).start;
        (first..member)
            .rev()
            .take(256)
            .map(|i| self.symbols[i as usize].symbol())
            .find(|i| i.kind == "impl" && i.start_line <= m.start_line && m.end_line <= i.end_line)
            .map(|i| i.signature.as_str())
    }

    pub(super) fn family_of(&self, file: u32) -> Option<&str> {
        self.files[file as usize]
            .language
            .as_deref()
            .map(Language::family)
    }
}

/// What [`Graph::implemented`] has read of Go's interfaces and the types asked about.
struct GoInterfaces<'g> {
    /// Interface methods by (name, language family), each with its interface's method names.
    declared: InterfaceMethods<'g>,
    /// The types asked about.
    owners: HashSet<&'g str>,
    /// Which wanted names each type asked about has a definition of.
    owned: NamesHeld<'g>,
}

/// The names of `GoInterfaces::declared`'s interfaces each type asked about holds a
/// definition of, gathered by the definitions of those names (each name once), not a pass
/// over the graph.
#[derive(Default)]
struct NamesHeld<'g> {
    /// The entries of `declared` whose names are gathered.
    entries: HashSet<(&'g str, Option<&'g str>)>,
    /// The names whose definitions were read: each once.
    names: HashSet<&'g str>,
    held: HashMap<&'g str, HashSet<&'g str>>,
}

/// Go's interface methods by (name, language family), each with the method names of the
/// interface declaring it.
type InterfaceMethods<'g> = HashMap<(&'g str, Option<&'g str>), Vec<(u32, Vec<Vec<&'g str>>)>>;

/// The Rust methods of one name, as trait dispatch reads them ([`Graph::implementations`]).
#[derive(Default)]
struct NamedImpls<'g> {
    /// The methods written in an `impl Trait for Type` of a project trait, by the trait's
    /// name, each with the type it is written for.
    by_trait: HashMap<&'g str, Vec<(u32, Option<&'g str>)>>,
    /// Types with an inherent method of the name.
    inherent: HashSet<&'g str>,
}

/// Whether a Java type declaration (`private static class Entry`) is `private`: its
/// modifiers, before the keyword that names its kind, say so.
fn private_java_type(signature: &str) -> bool {
    signature
        .split_whitespace()
        .take_while(|w| !matches!(*w, "class" | "interface" | "enum" | "record" | "@interface"))
        .any(|w| w == "private")
}

/// A segment of a receiver without the indexes it ends with (`next[]` is `next`, once).
fn indexes(segment: &str) -> (&str, usize) {
    let mut name = segment;
    let mut count = 0;
    while let Some(before) = name.strip_suffix("[]") {
        (name, count) = (before, count + 1);
    }
    (name, count)
}

/// (type, trait) for every Rust `impl Trait for Type` of `f` (`impl<G> Walker<G> for Dfs<..>`
/// gives `Dfs`, `Walker`).
pub(super) fn trait_impls(f: &FileFacts) -> impl Iterator<Item = (&str, &str)> {
    let rust = f.language.as_deref() == Some("rust");
    f.symbols
        .iter()
        .filter(move |s| rust && s.kind == "impl")
        .filter_map(|s| Some((s.name.as_str(), implemented_trait(&s.signature)?)))
}

/// The type holding the field `t` declares in `f`: the class (struct, ...) whose body holds the
/// declaration, or the type of the method assigning it (`self.x = Foo()` in `__init__`). None
/// for a local. The innermost definition holding the line decides, as for the file's own
/// calls.
pub(super) fn field_holder<'f>(f: &'f FileFacts, t: &types::Typed) -> Option<&'f str> {
    holder(innermost(&f.symbols, t.line)?, t.field)
}

/// The type a name typed inside `def` is a field of: `def` itself when it is a type (a
/// declaration in its body), its container when the name is a field assigned in a method
/// (`field`: `self.x = ...`), else none (a local).
pub(super) fn holder(def: &Symbol, field: bool) -> Option<&str> {
    if declares_fields(def) || (field && def.is_constructor_function()) {
        Some(def.name.as_str())
    } else if field {
        def.container.as_deref()
    } else {
        None
    }
}

/// Whether a name typed in `def`'s body is a field of it: a type's body declares fields, a
/// function's holds locals (a JavaScript constructor function's too, whose `this.x = ..`
/// are its instances' fields).
pub(super) fn declares_fields(def: &Symbol) -> bool {
    TYPE_LIKE.contains(&def.kind.as_str()) && !def.is_constructor_function()
}

/// The returns the files state apart from their declarations (JSDoc's `@returns`), by
/// (file position, the declaration's first line).
pub(super) fn stated_returns(facts: &[Arc<FileFacts>]) -> HashMap<(u32, u32), String> {
    let mut out = HashMap::new();
    for (i, f) in facts.iter().enumerate() {
        for (line, type_name) in types::stated_returns(&f.types) {
            out.insert((i as u32, line), type_name.to_string());
        }
    }
    out
}

/// Every field the files declare with a type: holder type name to (field, type name, file).
pub(super) fn field_types(facts: &[Arc<FileFacts>]) -> HashMap<String, Vec<(String, String, u32)>> {
    let mut out: HashMap<String, Vec<(String, String, u32)>> = HashMap::new();
    for (file, f) in facts.iter().enumerate() {
        for t in &f.types {
            if let Some(holder) = field_holder(f, t) {
                out.entry(holder.to_string()).or_default().push((
                    t.name.clone(),
                    t.type_name.clone(),
                    file as u32,
                ));
            }
        }
    }
    for fields in out.values_mut() {
        fields.sort();
        fields.dedup();
    }
    out
}

/// Go package variables stated at the top level of a package's files but its tests, by
/// (directory, name): built once, so a call on an untyped name looks one up instead of
/// reading every file of its package.
pub(super) fn go_package_values(
    facts: &[Arc<FileFacts>],
) -> HashMap<(String, String), Vec<String>> {
    let mut out: HashMap<(String, String), Vec<String>> = HashMap::new();
    let go = facts
        .iter()
        .filter(|f| f.language.as_deref() == Some("go") && !f.path.ends_with("_test.go"));
    for f in go {
        let dir = f.path.rsplit_once('/').map_or("", |(d, _)| d);
        for t in f.types.iter().filter(|t| module_level(f, t)) {
            let types = out.entry((dir.to_string(), t.name.clone())).or_default();
            if !types.contains(&t.type_name) {
                types.push(t.type_name.clone());
            }
        }
    }
    out
}

/// Every enum variant holding one typed field, by name: the enums declaring it.
pub(super) fn variants(facts: &[Arc<FileFacts>]) -> HashMap<String, Vec<String>> {
    let mut out: HashMap<String, Vec<String>> = HashMap::new();
    for f in facts
        .iter()
        .filter(|f| f.language.as_deref() == Some("rust"))
    {
        for t in f.types.iter().filter(|t| t.field) {
            if let Some(def) = innermost(&f.symbols, t.line).filter(|d| d.kind == "enum") {
                out.entry(t.name.clone())
                    .or_default()
                    .push(def.name.clone());
            }
        }
    }
    for enums in out.values_mut() {
        enums.sort();
        enums.dedup();
    }
    out
}

/// (holder, field, type) of every typed field `f` declares, and of every module-level
/// variable it types (holder empty): what a change of `f` is compared by, for the calls
/// elsewhere that reach through those fields and variables.
pub(super) fn declared_fields(f: &FileFacts) -> HashSet<(&str, &str, &str)> {
    f.types
        .iter()
        .filter_map(|t| {
            let holder = match field_holder(f, t) {
                Some(holder) => holder,
                None if module_level(f, t) => "",
                None => return None,
            };
            Some((holder, t.name.as_str(), t.type_name.as_str()))
        })
        .collect()
}

/// Whether `t` is typed outside every definition of `f`: a module's variable, which another
/// file may import.
pub(super) fn module_level(f: &FileFacts, t: &types::Typed) -> bool {
    !t.field && innermost(&f.symbols, t.line).is_none()
}

/// The one value every item gives, when the first gives one and the rest agree with it:
/// several definitions a call may mean, read as one type only where they say the same.
fn agreed(mut values: impl Iterator<Item = Option<String>>) -> Option<String> {
    let first = values.next()??;
    values
        .all(|v| v.as_deref() == Some(first.as_str()))
        .then_some(first)
}

/// The trait a Rust `impl` declaration implements, by its last name (`impl<'a, Ix>
/// visit::EdgeRef for EdgeReference<'a, Ix>` gives `EdgeRef`); none for a type's own `impl`.
pub(super) fn implemented_trait(signature: &str) -> Option<&str> {
    implemented_trait_path(signature).and_then(|path| {
        let name = path.rsplit("::").next()?.trim();
        types::plain_name(name).then_some(name)
    })
}

/// The first name of a type name, its markers peeled (`?[]G::Map` gives `G`): what a
/// generic parameter is compared with.
fn type_head(type_name: &str) -> &str {
    let bare = type_name.strip_prefix(types::OPTIONAL).unwrap_or(type_name);
    let bare = bare.strip_prefix(types::ELEMENTS).unwrap_or(bare);
    bare.split("::").next().unwrap_or(bare)
}

/// The type a Rust `impl` declaration is for, as written with its spaces dropped (`impl<G:
/// Visitable> DataMap for Acyclic<G> where ..` and `impl<G> Acyclic<G>` give `Acyclic<G>`).
pub(super) fn impl_self_type(signature: &str) -> Option<String> {
    let rest = signature.trim_start().strip_prefix("impl")?.trim_start();
    let rest = match rest.strip_prefix('<') {
        Some(generics) => &generics[types::group_end(generics, '<', '>')? + 1..],
        None => rest,
    };
    let flat = rest.split_whitespace().collect::<Vec<_>>().join(" ");
    let written = flat.split_once(" for ").map_or(flat.as_str(), |(_, t)| t);
    let end = [written.find(" where"), written.find('{')]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(written.len());
    let t: String = written[..end]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    (!t.is_empty()).then_some(t)
}

/// The trait a Rust `impl` declaration implements, as written (`visit::EdgeRef`, `io::Read`).
fn implemented_trait_path(signature: &str) -> Option<&str> {
    let rest = signature.trim_start().strip_prefix("impl")?.trim_start();
    let rest = match rest.strip_prefix('<') {
        Some(generics) => &generics[types::group_end(generics, '<', '>')? + 1..],
        None => rest,
    };
    let (written, _) = rest.split_once(" for ")?;
    Some(written.trim().split('<').next()?.trim())
}
