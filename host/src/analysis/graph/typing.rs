//! The types a receiver can have and the methods they reach: a type's own methods (in its
//! file, or an `impl` elsewhere), the methods its declared bases give it, the type a name in
//! a file means, and the type a function is declared to return.

use super::calls::Scope;
use super::*;
use crate::index::code::{Language, types};

/// How many levels of base classes a `super()` call is followed up.
pub(super) const MAX_BASE_DEPTH: usize = 3;

/// How many implementing classes a call through a type may dispatch to before it is too
/// broad to say.
const MAX_IMPLEMENTERS: usize = 8;

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
        self.nearest_bases(scope, at, start, |bases| {
            let mut found: Vec<String> = bases
                .iter()
                .flat_map(|&b| {
                    let holder = self.symbols[b as usize].symbol().name.as_str();
                    self.field_types.get(holder).into_iter().flatten()
                })
                .filter(|(name, _)| name == field)
                .map(|(_, type_name)| type_name.clone())
                .collect();
            found.sort_unstable();
            found.dedup();
            found
        })
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
                let file = self.symbols[c as usize].file;
                let language = self.files[file as usize].language.as_deref();
                for base in bases::bases(language, &self.symbols[c as usize].symbol().signature) {
                    next.extend(
                        self.types_named(scope, at, file, base, CLASS_LIKE)
                            .into_iter()
                            .filter(|b| seen.insert(*b)),
                    );
                }
            }
            let found = find(&next);
            if !found.is_empty() || next.is_empty() {
                return found;
            }
            level = next;
        }
        Vec::new()
    }

    /// The methods named `name` the types `types` define themselves: in the type's own file,
    /// else anywhere in its language family under that type's name (an `impl` elsewhere).
    fn own_methods(&self, types: &[u32], name: &str) -> Vec<u32> {
        let mut out = Vec::new();
        for &t in types {
            let node = &self.symbols[t as usize];
            let type_name = node.symbol().name.as_str();
            let of_type = |m: &u32| {
                self.symbols[*m as usize].symbol().container.as_deref() == Some(type_name)
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
            let family = self.family_of(node.file);
            out.extend(
                self.members(name, type_name)
                    .iter()
                    .copied()
                    .filter(|m| self.family_of(self.symbols[*m as usize].file) == family),
            );
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
        let types = self.types_meant(scope, at, type_name);
        let own = self.own_methods(&types, name);
        if !own.is_empty() {
            return own;
        }
        self.inherited(scope, at, types, name)
    }

    /// The type definitions a type name written in the caller's file means, or, for a
    /// function's name (`x = make()`), the type it is declared to return.
    fn types_meant(&self, scope: &Scope, at: (u32, u32), type_name: &str) -> Vec<u32> {
        let types = self.types_named(scope, at, scope.file, type_name, TYPE_LIKE);
        if !types.is_empty() {
            return types;
        }
        match self.returned_type(scope, at, type_name) {
            Some(returned) => self.types_named(scope, at, scope.file, &returned, TYPE_LIKE),
            None => Vec::new(),
        }
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
        let of_kind = |s: &u32| kinds.contains(&self.symbols[*s as usize].symbol().kind.as_str());
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
                return nested;
            }
            return self.types_named(scope, at, file, inner, kinds);
        }
        // Most names asked about (a variable's, a module's) are no type at all: known at the
        // cost of one lookup, unless an import renames one.
        if !self.may_name_kind(name, kinds) && !scope.aliased.contains_key(name) {
            return Vec::new();
        }
        if file == scope.file {
            let bound: Vec<u32> = scope.bound(name, at).into_iter().filter(of_kind).collect();
            if !bound.is_empty() {
                return bound;
            }
        }
        let here: Vec<u32> = self
            .defined_in(file, name)
            .into_iter()
            .filter(of_kind)
            .collect();
        if !here.is_empty() {
            return here;
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
        few(self
            .named(name)
            .iter()
            .copied()
            .filter(|s| of_kind(s) && self.family_of(self.symbols[*s as usize].file) == family))
        .unwrap_or_default()
    }

    /// The type the functions a call of `function` in the caller's file means are declared
    /// to return, when they agree on one.
    fn returned_type(&self, scope: &Scope, at: (u32, u32), function: &str) -> Option<String> {
        let functions = self.types_named(scope, at, scope.file, function, &["function", "method"]);
        let mut returned = functions.iter().map(|&f| self.declared_return(f));
        let first = returned.next()??;
        returned
            .all(|r| r.as_deref() == Some(first.as_str()))
            .then_some(first)
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
        let mut returned = types.iter().flat_map(|t| {
            self.methods_of_type(scope, at, t, method)
                .into_iter()
                .map(|m| self.declared_return(m))
        });
        let Some(Some(first)) = returned.next() else {
            return Vec::new();
        };
        if returned.all(|r| r.as_deref() == Some(first.as_str())) {
            vec![first]
        } else {
            Vec::new()
        }
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
        let own = caller.container.as_deref();
        if SELF.contains(&on) {
            return own.into_iter().map(str::to_string).collect();
        }
        if let Some(made_by) = on.strip_suffix("()") {
            if depth == 0 {
                return Vec::new();
            }
            if let Some((inner, method)) = types::method_call(made_by) {
                let returned = self.returned_by_method(scope, caller, at, inner, method, depth - 1);
                if !returned.is_empty() {
                    return returned;
                }
            }
            let made = if made_by.contains("()") {
                None
            } else if made_by.contains("::") {
                types::constructed_by(made_by)
            } else {
                Some(last_segment(made_by).to_string())
            };
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
        if !stated.is_empty() {
            return stated;
        }
        let chained = self.chain_types(scope, on, caller, at).0;
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

    /// The type a function or method is declared to return (`Self` as its impl's type).
    fn declared_return(&self, function: u32) -> Option<String> {
        let node = &self.symbols[function as usize];
        let returned = types::return_type(
            self.files[node.file as usize].language.as_deref(),
            &node.symbol().signature,
        )?;
        if let ("Self", Some(own)) = (returned.as_str(), &node.symbol().container) {
            return Some(own.clone());
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
            _ => Some(returned),
        }
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
    ) -> (Vec<String>, bool) {
        let own = caller.container.as_deref();
        let mut segments = receiver.split('.').peekable();
        let head = segments.next().unwrap_or_default();
        let bare = segments.peek().is_none();
        let mut types: Vec<String> = if bare {
            // A bare name's own type was tried before the chain: only a fixture is new here.
            Vec::new()
        } else if SELF.contains(&head) {
            own.into_iter().map(str::to_string).collect()
        } else {
            let stated: Vec<String> = scope
                .type_of(head, own, at)
                .into_iter()
                .map(str::to_string)
                .collect();
            // A type's own name: its static fields (`Allocator.INSTANCE.make()`).
            if stated.is_empty()
                && !self
                    .types_named(scope, at, scope.file, head, CLASS_LIKE)
                    .is_empty()
            {
                vec![head.to_string()]
            } else {
                stated
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
        for field in segments {
            if field == "this" {
                continue; // Java's `Outer.this`: the outer instance, of the type before it
            }
            let mut next: Vec<String> = types
                .iter()
                .flat_map(|t| self.field_types.get(last_segment(t)).into_iter().flatten())
                .filter(|(name, _)| name == field)
                .map(|(_, type_name)| type_name.clone())
                .collect();
            next.sort_unstable();
            next.dedup();
            if next.is_empty() {
                return (Vec::new(), false);
            }
            types = next;
        }
        (types, from_fixture)
    }

    /// Base name to the class-like definitions whose declarations name it.
    pub(super) fn subclass_table(&self) -> HashMap<String, Vec<u32>> {
        let mut out: HashMap<String, Vec<u32>> = HashMap::new();
        for (i, node) in self.symbols.iter().enumerate() {
            let s = node.symbol();
            if !CLASS_LIKE.contains(&s.kind.as_str()) {
                continue;
            }
            let language = self.files[node.file as usize].language.as_deref();
            for base in bases::bases(language, &s.signature) {
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

    fn family_of(&self, file: u32) -> Option<&str> {
        self.files[file as usize]
            .language
            .as_deref()
            .map(Language::family)
    }
}

/// The type holding the field `t` declares in `f`: the class (struct, ...) whose body holds the
/// declaration, or the type of the method assigning it (`self.x = Foo()` in `__init__`). None
/// for a local. The innermost definition holding the line decides, as for the file's own
/// calls.
pub(super) fn field_holder<'f>(f: &'f FileFacts, t: &types::Typed) -> Option<&'f str> {
    let def = f
        .symbols
        .iter()
        .filter(|s| s.start_line <= t.line && t.line <= s.end_line)
        .min_by_key(|s| s.end_line - s.start_line)?;
    holder(def, t.field)
}

/// The type a name typed inside `def` is a field of: `def` itself when it is a type (a
/// declaration in its body), its container when the name is a field assigned in a method
/// (`field`: `self.x = ...`), else none (a local).
pub(super) fn holder(def: &Symbol, field: bool) -> Option<&str> {
    if TYPE_LIKE.contains(&def.kind.as_str()) {
        Some(def.name.as_str())
    } else if field {
        def.container.as_deref()
    } else {
        None
    }
}

/// Every field the files declare with a type: holder type name to (field, type name).
pub(super) fn field_types(facts: &[Arc<FileFacts>]) -> HashMap<String, Vec<(String, String)>> {
    let mut out: HashMap<String, Vec<(String, String)>> = HashMap::new();
    for f in facts {
        for t in &f.types {
            if let Some(holder) = field_holder(f, t) {
                out.entry(holder.to_string())
                    .or_default()
                    .push((t.name.clone(), t.type_name.clone()));
            }
        }
    }
    for fields in out.values_mut() {
        fields.sort();
        fields.dedup();
    }
    out
}

/// (holder, field, type) of every typed field `f` declares: what a change of `f` is compared
/// by, for the calls elsewhere that reach through those fields.
pub(super) fn declared_fields(f: &FileFacts) -> HashSet<(&str, &str, &str)> {
    f.types
        .iter()
        .filter_map(|t| Some((field_holder(f, t)?, t.name.as_str(), t.type_name.as_str())))
        .collect()
}
