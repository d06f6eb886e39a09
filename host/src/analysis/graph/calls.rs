//! Resolving a file's call sites to the definitions they can mean, most certain first (see the parent module), each edge with how it resolved.

use super::*;
use crate::index::code::{self, Language, types};
use std::cell::{Cell, RefCell};

impl Graph {
    pub(super) fn resolve_calls(
        &self,
        file: u32,
        facts: &FileFacts,
        imports: &[(u32, u32)],
        bindings: &[Bindings],
        out: &mut Vec<CallEdge>,
    ) -> usize {
        let mut unresolved = 0;
        // The imported modules' top-level callables by name, gathered once for the file.
        let mut imported: Vec<u32> = imports.iter().map(|&(_, f)| f).collect();
        imported.sort_unstable();
        imported.dedup();
        let mut members: HashMap<&str, Vec<u32>> = HashMap::new();
        let wanted = !binds_named_imports_only(facts.language.as_deref());
        for s in imported
            .iter()
            .filter(|_| wanted)
            .flat_map(|&f| self.symbols_of(f))
        {
            let sym = self.symbols[s as usize].symbol();
            if sym.container.is_none() && CALLABLE.contains(&sym.kind.as_str()) {
                members.entry(sym.name.as_str()).or_default().push(s);
            }
        }
        let innermost = self.innermost_by_line(file);
        let mut scope = Scope::new(file, facts, imports, &members, bindings);
        // Typed names: a local's span, or the type holding a field.
        for t in &facts.types {
            let def = innermost.get(t.line as usize).copied().flatten();
            let def = def.map(|d| self.symbols[d as usize].symbol());
            let declared_in_type = def.is_some_and(typing::declares_fields);
            if t.field || declared_in_type {
                if let Some(holder) = def.and_then(|d| typing::holder(d, t.field)) {
                    scope
                        .fields
                        .entry(t.name.as_str())
                        .or_default()
                        .push((t.type_name.as_str(), holder));
                }
            } else {
                let span = def.map(|d| (d.start_line, d.end_line));
                scope.typed.entry(t.name.as_str()).or_default().push((
                    t.type_name.as_str(),
                    span,
                    (t.line, t.until),
                ));
            }
        }
        // Imports inside a definition bind only there.
        for line in facts
            .imports
            .iter()
            .map(|(_, l)| *l)
            .chain(facts.aliases.iter().map(|a| a.2))
        {
            if let Some(def) = innermost.get(line as usize).copied().flatten() {
                let d = self.symbols[def as usize].symbol();
                scope.scoped.insert(line, (d.start_line, d.end_line));
            }
        }
        let scip = self.scip_for(file);
        let path = facts.path.as_str();
        for (name, receiver, line) in &facts.calls {
            // A function named as a value links only where it resolves surely, and only to
            // a function or method (see `code::NAMED_AS_VALUE`).
            let (receiver, as_value) = match receiver.strip_prefix(code::NAMED_AS_VALUE) {
                Some(through) => (through, true),
                None => (receiver.as_str(), false),
            };
            scope.call_line.set(*line);
            let Some(caller) = innermost.get(*line as usize).copied().flatten() else {
                unresolved += usize::from(!as_value);
                continue;
            };
            // Call sites come in file order: most share the caller before them.
            if scope.caller.get() != caller || scope.self_owner.get() == u32::MAX {
                scope.self_owner.set(self.self_owner(caller));
            }
            scope.caller.set(caller);
            let (targets, confidence) = match scip.and_then(|x| x.named_at(path, *line, name)) {
                Some(named) if named.iter().any(|t| t.definition.is_some()) => (
                    named.iter().filter_map(|t| self.scip_target(t)).collect(),
                    Confidence::Scip,
                ),
                // The index knows the symbol only from outside the project: a library's,
                // or the project's own seen under another module path (an indexer not
                // told where the sources start). The name alone then proves nothing, but
                // a binding the host resolved itself still does.
                Some(_) => match self.callee(&scope, caller, name, receiver) {
                    (_, Confidence::Name) => (Vec::new(), Confidence::Name),
                    resolved => resolved,
                },
                None => self.callee(&scope, caller, name, receiver),
            };
            // Never a guess: by the name alone, or through the types below the receiver's
            // (a field named like an embedding type's method is no method value).
            let targets = match as_value {
                true if matches!(confidence, Confidence::Name | Confidence::Dispatch) => Vec::new(),
                true => targets
                    .into_iter()
                    .filter(|&t| {
                        matches!(
                            self.symbols[t as usize].symbol().kind.as_str(),
                            "function" | "method"
                        )
                    })
                    .collect(),
                false => targets,
            };
            // A value naming no function is no unresolved call.
            unresolved += usize::from(targets.is_empty() && !as_value);
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
    pub(super) fn callee(
        &self,
        scope: &Scope,
        caller: u32,
        name: &str,
        receiver: &str,
    ) -> (Vec<u32>, Confidence) {
        // A call means a definition of its own language family: a Python `normalize()` is
        // never a JavaScript or C function of that name.
        let family = scope.facts.language.as_deref().map(Language::family);
        let sym = |s: u32| self.symbols[s as usize].symbol();
        let caller_sym = sym(caller);
        let at = (caller_sym.start_line, caller_sym.end_line);
        // Go's conversion `repeatCount(n)` names a defined type as a call does; a call of a
        // parameter or local of a function type (`filter(n)` of a `filter filter`) names
        // none.
        let go = scope.facts.language.as_deref() == Some("go");
        let converts = go
            && !(receiver.is_empty()
                && (scope.declared_local(name, at) || parameter_of(&caller_sym.signature, name)));
        let callable = |s: &u32| {
            let node = &self.symbols[*s as usize];
            let kind = node.symbol().kind.as_str();
            let allowed = match kind {
                "type" => converts,
                "struct" if go => converts,
                _ => CALLABLE.contains(&kind),
            };
            allowed
                && self.files[node.file as usize]
                    .language
                    .as_deref()
                    .map(Language::family)
                    == family
        };
        // A method's class (a closure's inside a method too), or the class (impl, ...) the
        // caller itself is.
        let own = scope.own_class(self);
        let in_own = |s: &u32| {
            let c = sym(*s).container.as_deref();
            c.is_some() && (c == own || c == Some(caller_sym.name.as_str()))
        };
        // A function declared inside another is seen only there: `listener()` elsewhere
        // calls a parameter or variable, not the constructor's own `listener`. So is an
        // item of a Rust module written inline (`mod tests { fn parser() }`, a
        // `macro_rules!` there): outside it, a bare name is the parent's.
        let call_line = scope.call_line.get();
        let rust = scope.facts.language.as_deref() == Some("rust");
        let seen_here = |s: &u32| {
            let d = sym(*s);
            let Some(outer) = d.container.as_deref() else {
                return true;
            };
            let others = self.defined_in(scope.file, outer).into_iter();
            others.filter(|o| o != s).all(|o| {
                let o = sym(o);
                let encloses = o.start_line <= d.start_line && d.end_line <= o.end_line;
                let scoped = match o.kind.as_str() {
                    "function" | "method" => true,
                    // A JavaScript constructor function's body holds locals, as any function's.
                    "class" => o.is_constructor_function(),
                    // Unless the file `use`s its items (`use imp::f;`, `pub use imp::*`).
                    "module" => rust && !scope.uses_module(&o.name),
                    _ => false,
                };
                !(encloses && scoped) || (o.start_line <= call_line && call_line <= o.end_line)
            })
        };
        // The definitions of `name` in the caller's file that it sees, of those `keep` admits:
        // `keep` is tested first, as it is cheap and `seen_here` is not, and a file may
        // define one name thousands of times.
        let local_where = |keep: &dyn Fn(&u32) -> bool| -> Vec<u32> {
            self.defined_in(scope.file, name)
                .into_iter()
                .filter(|s| callable(s) && keep(s))
                .filter(seen_here)
                .collect()
        };
        // A bare `f()` reaches a method only where a class's own methods are in scope without
        // `self.` / `this.` (Java, C++); elsewhere it means a function.
        let implicit_this = matches!(scope.facts.language.as_deref(), Some("java" | "cpp"));
        let bare_reaches = |s: &u32| implicit_this || sym(*s).kind != "method";
        let callables =
            |found: Vec<u32>| -> Vec<u32> { found.into_iter().filter(callable).collect() };
        // The caller's own class, where its bases are looked up.
        let own_classes = || -> Vec<u32> {
            own.map_or_else(Vec::new, |class| {
                self.defined_in(scope.file, class)
                    .into_iter()
                    .filter(|s| CLASS_LIKE.contains(&sym(*s).kind.as_str()))
                    .collect()
            })
        };
        // A guess by the name alone: the few definitions of `name` that `keep` admits, or
        // none when there are more.
        let guess = |keep: &dyn Fn(&u32) -> bool| -> Vec<u32> {
            few(self
                .named(name)
                .iter()
                .copied()
                .filter(|s| callable(s) && keep(s)))
            .unwrap_or_default()
        };
        // TypeScript and JavaScript, also inside Vue, Svelte and HTML files.
        let script = scope
            .facts
            .language
            .as_deref()
            .is_some_and(|l| Language::family(l) == "javascript");
        if receiver.is_empty() {
            // `super(..)` in a constructor runs the extended class's (a class stands for its
            // constructor, as `new C(..)` links to `C`).
            if name == SUPER && script {
                return (self.extended(scope, at, own_classes()), Confidence::Base);
            }
            // A call of the caller's own parameter calls the argument, unless the caller
            // defines a function of that name inside itself (`if visit is None: def
            // visit(..)`), or the name is a macro's (another namespace: `max!(..)`).
            let function = matches!(caller_sym.kind.as_str(), "function" | "method")
                || caller_sym.is_constructor_function();
            let language = scope.facts.language.as_deref();
            if function && signatures::declares_parameter(language, &caller_sym.signature, name) {
                let nested = |s: &u32| {
                    let d = sym(*s);
                    at.0 < d.start_line && d.end_line <= at.1
                };
                let macro_ = |s: &u32| sym(*s).kind == "macro";
                let found = local_where(&|s| nested(s) || macro_(s));
                if !found.iter().any(nested) {
                    let macros: Vec<u32> = found.into_iter().filter(macro_).collect();
                    return (macros, Confidence::File);
                }
            }
            let bound = callables(scope.bound(name, at));
            if !bound.is_empty() {
                return (bound, Confidence::Import);
            }
            let same = local_where(&|s| bare_reaches(s) && in_own(s));
            if !same.is_empty() {
                return (same, Confidence::Container);
            }
            let local = local_where(&bare_reaches);
            if !local.is_empty() {
                return (local, Confidence::File);
            }
            // Where `this.` is implicit, a bare call may be a method the class inherits.
            if implicit_this {
                let inherited = callables(self.inherited(scope, at, own_classes(), name));
                if !inherited.is_empty() {
                    return (inherited, Confidence::Base);
                }
            }
            if let Some(package) = self.in_package(scope, name) {
                let functions: Vec<u32> = package.into_iter().filter(callable).collect();
                if !functions.is_empty() {
                    return (functions, Confidence::Package);
                }
            }
            // Where an import puts a module's names in scope (C's `#include`, Ruby's and
            // PHP's `require`): a top-level definition of an imported module (none are
            // gathered for the languages of `binds_named_imports_only`).
            let members = scope.members.get(name).cloned().unwrap_or_default();
            if let Some(m) = few(members.into_iter()) {
                return (m, Confidence::Module);
            }
            return (guess(&bare_reaches), Confidence::Name);
        }
        // A CommonJS module calling its own export (`exports.lookup()`): the file's function.
        if script && matches!(receiver, "exports" | "module.exports") {
            let own = local_where(&|&s| sym(s).container.is_none());
            return (own, Confidence::File);
        }
        let is_super = receiver == SUPER && scope.facts.language.as_deref() != Some("rust");
        if is_super || SELF.contains(&receiver) {
            // A function that declares its `this` (TypeScript's `function (this: T, ..)`):
            // a method of T.
            if receiver == "this" {
                for type_name in scope.declared_this(at) {
                    let methods = callables(self.methods_of_type(scope, at, type_name, name));
                    if !methods.is_empty() {
                        return (methods, Confidence::Type);
                    }
                }
            }
            if !is_super {
                let same = local_where(&in_own);
                // Rust looks a method up in the type's own `impl` blocks before its traits':
                // `self.add_edge(..)` in `impl Build for GraphMap` is GraphMap's own
                // `add_edge`, wherever that is written, not the trait method calling itself.
                if rust
                    && receiver == "self"
                    && let Some(own) = own
                    && same.iter().any(|&m| self.in_trait_impl(scope, m))
                {
                    // Of the methods written under the type's name, those of this type: in
                    // its own file, or in a file without a type of that name of its own.
                    let types = self.types_named(scope, at, scope.file, own, TYPE_LIKE);
                    let file_of = |m: u32| self.symbols[m as usize].file;
                    let another_type = |f: u32| {
                        !types.iter().any(|&t| file_of(t) == f) && self.defines_type(f, own)
                    };
                    let mut inherent: Vec<u32> = callables(self.members(name, own).to_vec())
                        .into_iter()
                        .chain(same.iter().copied())
                        .filter(|&m| {
                            self.family_of(file_of(m)) == Some("rust")
                                && !another_type(file_of(m))
                                && !self.in_trait_impl(scope, m)
                        })
                        .collect();
                    inherent.sort_unstable();
                    inherent.dedup();
                    if !inherent.is_empty() {
                        return (inherent, Confidence::Container);
                    }
                }
                if !same.is_empty() {
                    return (same, Confidence::Container);
                }
                // A Rust type's methods are written in any file's `impl` blocks: `self.clone()`
                // in quickcheck.rs's `impl Arbitrary for Graph` is the `clone` of the
                // `impl Clone for Graph` beside the type, as a value of the type has it.
                if rust
                    && receiver == "self"
                    && let Some(own) = own
                {
                    let methods = callables(self.methods_of_type(scope, at, own, name));
                    if !methods.is_empty() {
                        return (methods, Confidence::Container);
                    }
                }
            }
            // A base class's: the one the class declaration names, nearest first.
            let inherited = callables(self.inherited(scope, at, own_classes(), name));
            if !inherited.is_empty() {
                return (inherited, Confidence::Base);
            }
            // Inherited from a class the graph cannot place: a method of that name elsewhere
            // (not the caller's own), when there are few.
            let methods = guess(&|s| sym(*s).container.is_some() && !in_own(s));
            return (methods, Confidence::Name);
        }
        // A call on what a call made (`Request(url).prepare()`, `Foo::new().build()`, `new
        // Foo().m()`): a method of the type made, when the call made one.
        if let Some(made_by) = receiver.strip_suffix("()") {
            // What a method of a typed value is declared to return (`json.get(k).size()`,
            // `new Builder().add(a).build()`).
            let mut made_types = Vec::new();
            if let Some((on, method)) = types::method_call(made_by) {
                made_types = self.returned_by_method(scope, caller_sym, at, on, method, 8);
                for type_name in &made_types {
                    let methods = callables(self.methods_of_type(scope, at, type_name, name));
                    if !methods.is_empty() {
                        return (methods, Confidence::Type);
                    }
                }
            }
            // `new this.ctor(..)` of a field holding a class (`ctor: typeof Action`): an
            // instance of that class. (Elsewhere a path is called for what it returns.)
            if script && !made_by.contains("()") && made_by.contains('.') {
                let (held, _) = self.chain_types(scope, made_by, caller_sym, at, 1);
                for type_name in held {
                    let methods = callables(self.methods_of_type(scope, at, &type_name, name));
                    if !methods.is_empty() {
                        return (methods, Confidence::Type);
                    }
                }
            }
            // An associated function's declared return (`LookSet::empty().insert(..)`, an
            // `fn empty() -> LookSet` or `-> Self`).
            if let Some((ty, function)) = made_by.rsplit_once("::")
                && !made_by.contains("()")
                && self.names_a_type(scope, at, ty)
            {
                for type_name in self.returns_of(scope, at, vec![ty.to_string()], function) {
                    let methods = callables(self.methods_of_type(scope, at, &type_name, name));
                    if !methods.is_empty() {
                        return (methods, Confidence::Type);
                    }
                }
            }
            let made = if made_by.contains("()") {
                None // a chain whose returns are unknown: no name of it is a type made
            } else if made_by.contains("::") {
                types::constructed_by(made_by)
            } else if scope.library_package_call(made_by, at) {
                None // `slog.Level(n)`: a library's type, not a project type named alike
            } else {
                Some(last_segment(made_by).to_string())
            };
            if let Some(type_name) = made {
                let methods = callables(self.methods_of_type(scope, at, &type_name, name));
                if !methods.is_empty() {
                    return (methods, Confidence::Type);
                }
            }
            if !self.any_project_type(&made_types) {
                let extension = callables(self.imported_extension(scope, at, name));
                if !extension.is_empty() {
                    return (extension, Confidence::Import);
                }
            }
            let methods = guess(&|s| sym(*s).container.is_some());
            return (methods, Confidence::Name);
        }
        // Through a module the file imports under the receiver's first name, or by its path.
        let head = receiver.split(['.', ':']).next().unwrap_or(receiver);
        // `import a.b` then `a.b.f()`: the module the whole receiver names, before the
        // package its first name does.
        let module = match scope.by_whole.contains_key(receiver) {
            true => receiver,
            false => head,
        };
        // A parameter or local of the caller named like a module shadows it (`def f(console:
        // Console)` beside `from .console import Console`).
        // A value reached through a computed member (`handlers[type].run()`) is no module.
        let a_value = !receiver.contains("::") && scope.declared_local(head, at);
        let mut modules = match a_value || receiver.contains(".[") {
            true => Vec::new(),
            false => scope.module_files(module, at),
        };
        // `from pkg import mod` resolves both pkg and pkg/mod on its line: the file named
        // like the receiver is the one meant.
        let named_like: Vec<u32> = modules
            .iter()
            .copied()
            .filter(|&f| {
                resolve::file_keys(&self.files[f as usize].path)
                    .iter()
                    .any(|k| k == last_segment(module))
            })
            .collect();
        if !named_like.is_empty() {
            modules = named_like;
        }
        if modules.is_empty() && receiver.contains("::") {
            // A path through one of the tree's crates by name, else by the index's
            // conventions.
            let importer = &self.files[scope.file as usize].path;
            let language = scope.facts.language.as_deref();
            if language == Some("rust") {
                modules.extend(self.crate_path_files(importer, receiver).first());
            }
            if modules.is_empty() {
                modules = self.files_named(language, importer, receiver);
            }
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
        // A name a script imports from a module (`import { flowAnnotation } from
        // '../internal'`) is a value of it, not the module: its `.f()` is no function of
        // the module's.
        let a_value = script && scope.names_only_a_value(head);
        let top: Vec<u32> = through
            .iter()
            .copied()
            .filter(|s| sym(*s).container.is_none())
            .collect();
        if !top.is_empty() && !a_value {
            return (top, Confidence::Import);
        }
        // `pkg.f()` where pkg re-exports f (`from .api import f` in its `__init__`, `export
        // { f } from`, `pub use`): the definition its own import binds.
        if last == head && !a_value {
            let reexported: Vec<u32> = modules
                .iter()
                .flat_map(|&f| scope.exported(f, name))
                .filter(callable)
                .collect();
            if !reexported.is_empty() {
                return (reexported, Confidence::Import);
            }
        }
        // A variable, parameter or field of a type the file states: that type's method.
        // Or a module-level variable another file states the type of (`current_app.f()`).
        let mut stated =
            self.stated_types(scope, caller_sym, at, receiver, typing::CALL_VALUE_DEPTH);
        // A field a base class declares (`doc.nodes()` in a parser whose base holds `doc`,
        // `self.session.get()` set in a base's `__init__`).
        if stated.is_empty() {
            let field = match receiver.split_once('.') {
                None if implicit_this => Some(receiver),
                Some((head, rest)) if SELF.contains(&head) && !rest.contains('.') => Some(rest),
                _ => None,
            };
            if let Some(field) = field {
                stated = self.inherited_field(scope, at, own_classes(), field);
            }
        }
        for type_name in &stated {
            let methods = callables(self.methods_of_type(scope, at, type_name, name));
            if !methods.is_empty() {
                return (methods, Confidence::Type);
            }
        }
        // A chain through fields (`self.app.config.load()`, `h.pair.reader.close()`), or a
        // test's fixture parameter (`app.register_blueprint()`): the last type's method.
        let (chained, from_fixture) = match receiver.contains("::") {
            true => (Vec::new(), false),
            false => self.chain_types(scope, receiver, caller_sym, at, typing::CALL_VALUE_DEPTH),
        };
        if !receiver.contains("::") {
            let how = if from_fixture {
                Confidence::Fixture
            } else {
                Confidence::Type
            };
            for type_name in &chained {
                let methods = callables(self.methods_of_type(scope, at, type_name, name));
                if !methods.is_empty() {
                    return (methods, how);
                }
            }
            // A type without the method (an interface, an abstract class): the classes
            // below it that define it, where the call may dispatch.
            let all = stated
                .iter()
                .map(String::as_str)
                .chain(chained.iter().map(String::as_str));
            for type_name in all {
                let methods = callables(self.implementers(scope, at, type_name, name));
                if !methods.is_empty() {
                    return (methods, Confidence::Dispatch);
                }
            }
        }
        // A method of an extension trait the file imports, on a value of no project type
        // (a project type without the method is no such value: its traits were looked up).
        if !self.any_project_type(stated.iter().chain(&chained)) {
            let extension = callables(self.imported_extension(scope, at, name));
            if !extension.is_empty() {
                return (extension, Confidence::Import);
            }
        }
        // A name whose stated types the project defines nowhere (`Iterator<T> it`): a
        // library's value, whose methods no project definition named like it is.
        let library_value = !stated.is_empty()
            && stated
                .iter()
                .all(|t| self.through_library(t) || self.named(last_segment(t)).is_empty());
        if library_value {
            return (Vec::new(), Confidence::Name);
        }
        // A path the project does not define (`io::Error::from`, `std::env::current_dir`):
        // a library's, never a project type that happens to share its last name, not even
        // as a guess.
        let external = head != receiver
            && modules.is_empty()
            && !matches!(head, "crate" | "self" | "super" | "Self")
            && self.named(head).is_empty();
        if external {
            return (Vec::new(), Confidence::Name);
        }
        // A type named like the receiver's last name (`Foo::new`, `Config.load`).
        let typed: Vec<u32> = self
            .members(name, last)
            .iter()
            .copied()
            .filter(callable)
            .collect();
        if !typed.is_empty() {
            let here: Vec<u32> = typed
                .iter()
                .copied()
                .filter(|s| self.symbols[*s as usize].file == scope.file)
                .collect();
            // Of several types so named, the ones the caller's file sees: imported, its
            // own, or (Java) of its package (`Util.isEmpty()` beside the caller, not
            // another package's `Util`).
            let seen = self.in_files_of(scope, at, scope.file, last, &typed);
            let typed = if here.is_empty() { seen } else { here };
            return (typed, Confidence::Container);
        }
        // `UnGraph::new()` through a type alias: the aliased type's own.
        if self.may_name_kind(last, &["type"]) {
            let aliased: Vec<u32> = self
                .types_named(scope, at, scope.file, last, TYPE_LIKE)
                .into_iter()
                .filter(|t| sym(*t).name != last)
                .collect();
            let through_alias = callables(self.own_methods(&aliased, name));
            if !through_alias.is_empty() {
                return (through_alias, Confidence::Type);
            }
        }
        // `Type.f()` where Type only inherits f (`Base.__init__(self)` in a subclass of a
        // subclass).
        let classes = self.types_named(scope, at, scope.file, last, CLASS_LIKE);
        let inherited = callables(self.inherited(scope, at, classes, name));
        if !inherited.is_empty() {
            return (inherited, Confidence::Base);
        }
        // Some object: a method of that name, when there are few.
        let methods = guess(&|s| sym(*s).container.is_some());
        (methods, Confidence::Name)
    }

    /// The method `name` of the one Rust extension trait the caller's file imports that
    /// declares it: a trait implemented in its own file for every type meeting a bound
    /// (`impl<I> IterUtilsExt for I where I: Iterator {}`). Rust calls a trait's method only
    /// where the trait is in scope, and such a trait's methods are every such value's, so
    /// `self.iter.ex_find_map(..)` on a library iterator is `IterUtilsExt::ex_find_map`.
    /// Empty for any other language, or where another trait the file imports declares the
    /// name too. (A library type's own method of the name would win in Rust and is not
    /// seen here: the rule trusts an extension's methods to be named apart from those of
    /// the values it extends.)
    fn imported_extension(&self, scope: &Scope, at: (u32, u32), name: &str) -> Vec<u32> {
        if scope.facts.language.as_deref() != Some("rust") {
            return Vec::new();
        }
        // The trait declaring a method, in the method's own file.
        let holds = |t: u32, m: u32| {
            let (t_node, m_node) = (&self.symbols[t as usize], &self.symbols[m as usize]);
            let (t, m) = (t_node.symbol(), m_node.symbol());
            t.kind == "trait"
                && t_node.file == m_node.file
                && t.start_line <= m.start_line
                && m.end_line <= t.end_line
        };
        // Every method of the name a trait the file imports declares, blanket or not: two
        // such traits leave the call undecided. (The cheap test first: a trait holds it.)
        let declared: Vec<u32> = self
            .named(name)
            .iter()
            .copied()
            .filter(|&m| {
                let node = &self.symbols[m as usize];
                let Some(owner) = node.symbol().container.as_deref() else {
                    return false;
                };
                self.defined_in(node.file, owner)
                    .iter()
                    .any(|&t| holds(t, m))
                    && scope.bound(owner, at).into_iter().any(|t| holds(t, m))
            })
            .collect();
        match declared.as_slice() {
            [one] => {
                let node = &self.symbols[*one as usize];
                let owner = node.symbol().container.as_deref().unwrap_or_default();
                match self.blanket_implemented(node.file, owner) {
                    true => vec![*one],
                    false => Vec::new(),
                }
            }
            _ => Vec::new(),
        }
    }

    /// Whether any of `types` names a type the project defines (not a library's, not a
    /// generic parameter's).
    fn any_project_type<'t>(&self, types: impl IntoIterator<Item = &'t String>) -> bool {
        types
            .into_iter()
            .any(|t| !self.through_library(t) && !self.named(last_segment(t)).is_empty())
    }

    /// Whether the file `file` implements its trait `name` for every type meeting a bound
    /// (`impl<I: Iterator> Ext for I`, `impl<T> Ext for T where T: Read`): for a bare
    /// generic, not for a reference to one or a box of one (`impl<W: Walker> Walker for
    /// &mut W` forwards the trait to what implements it already).
    fn blanket_implemented(&self, file: u32, name: &str) -> bool {
        self.symbols_of(file).any(|i| {
            let i = self.symbols[i as usize].symbol();
            i.kind == "impl"
                && typing::implemented_trait(&i.signature) == Some(name)
                && typing::impl_self_type(&i.signature)
                    .is_some_and(|t| types::rust_generics(&i.signature).contains(&t.as_str()))
        })
    }

    /// Whether a Rust method is written in a trait's `impl` (`impl Build for GraphMap`), not
    /// in its type's own.
    fn in_trait_impl(&self, scope: &Scope, method: u32) -> bool {
        let node = &self.symbols[method as usize];
        let m = node.symbol();
        let mut known = scope.trait_impls.borrow_mut();
        let spans = known.entry(node.file).or_insert_with(|| {
            self.symbols_of(node.file)
                .map(|s| self.symbols[s as usize].symbol())
                .filter(|s| s.kind == "impl" && s.signature.contains(" for "))
                .map(|s| (s.start_line, s.end_line))
                .collect()
        });
        spans
            .iter()
            .any(|&(start, end)| start <= m.start_line && m.end_line <= end)
    }

    /// The top-level definitions named `name` in the other files of the caller's package,
    /// for a language whose packages are directories, where every file sees the others'
    /// top-level names without an import: Go's functions, Java's types (`new Foo()` of a
    /// class beside the caller's); `None` for other languages.
    fn in_package(&self, scope: &Scope, name: &str) -> Option<Vec<u32>> {
        let kinds: &[&str] = match scope.facts.language.as_deref() {
            // A function, or a conversion to a defined type (`matcher(m)`).
            Some("go") => &["function", "type"],
            Some("java") => CLASS_LIKE,
            _ => return None,
        };
        Some(self.package_members(scope.file, name, kinds))
    }

    /// The files a Rust path starting with one of the tree's crates (`petgraph::algo::f`,
    /// see [`Manifests::crates`]) names from `importer`: that crate's `crate::` path from
    /// its src/lib.rs (a `[lib] path` elsewhere is not followed), the deepest module first;
    /// the crate's root for the crate's name alone. None where the importer's own crate has
    /// a module of that name (`mod config;` shadows a `config` crate) or is that crate.
    pub(super) fn crate_path_files(&self, importer: &str, path: &str) -> Vec<u32> {
        let first = path.split("::").next().unwrap_or(path);
        let Some((_, dir)) = self.manifests.crates.iter().find(|(name, _)| name == first) else {
            return Vec::new();
        };
        let root = match dir.as_str() {
            "" => "src/lib.rs".to_string(),
            d => format!("{d}/src/lib.rs"),
        };
        let own_src = root.strip_suffix("lib.rs").unwrap_or(&root);
        let local_module = resolve::rust_module_files(importer, &format!("crate::{first}"))
            .iter()
            .take(2) // src/<first>.rs, src/<first>/mod.rs
            .any(|p| self.file(p).is_some());
        // The library's own modules; its binaries (src/main.rs, src/bin/) use it by name.
        let in_library = importer
            .strip_prefix(own_src)
            .is_some_and(|rest| rest != "main.rs" && !rest.starts_with("bin/"));
        if local_module || in_library {
            return Vec::new();
        }
        let inner = path.strip_prefix(first).unwrap_or_default();
        if inner.is_empty() {
            return self.file(&root).into_iter().collect();
        }
        resolve::rust_module_files(&root, &format!("crate{inner}"))
            .iter()
            .filter_map(|p| self.file(p))
            .collect()
    }

    /// The files a module path written in `importer` may name, by the index's conventions:
    /// the last segment names the file, or (`use a::file::Item`) an earlier one does; in a
    /// language whose imports name declared modules (C#'s namespaces), the files declaring it.
    pub(super) fn files_named(
        &self,
        language: Option<&str>,
        importer: &str,
        name: &str,
    ) -> Vec<u32> {
        if resolve::imports_declared_modules(language) {
            return self
                .keys
                .get(&resolve::import_key(name))
                .into_iter()
                .flatten()
                .copied()
                .filter(|&f| {
                    // The namespace's definition is named whole (`namespace Shop.Services`)
                    // or by its last segment inside its parent: looked up by name, not by a
                    // walk of the file's every definition.
                    let language = self.files[f as usize].language.as_deref();
                    let last = name.rsplit('.').next().unwrap_or(name);
                    let mut named = self.defined_in(f, name);
                    if last != name {
                        named.extend(self.defined_in(f, last));
                    }
                    named.into_iter().any(|s| {
                        let symbol = self.symbols[s as usize].symbol();
                        resolve::declared_modules(language, [symbol])
                            .iter()
                            .any(|m| m == name)
                    })
                })
                .collect();
        }
        // A Go import of one of the tree's own modules: that directory's package exactly.
        if language == Some("go")
            && let Some(files) = self.go_package(name)
        {
            return files;
        }
        let candidates = resolve::candidates(language, importer, name);
        if candidates.is_empty() {
            return Vec::new();
        }
        // Python's `from . import f` (or `..`): the package itself, whose `__init__` no
        // name keys (the path has no last name).
        if language == Some("python") && name.chars().all(|c| c == '.') {
            return candidates.iter().filter_map(|p| self.file(p)).collect();
        }
        // Java names a static import's member or a nested type through its type's file.
        let outer_file = (language == Some("java"))
            .then(|| name.rsplit('.').nth(1))
            .flatten()
            .map(str::to_string);
        let mut found: Vec<u32> = tried_keys(name)
            .chain(outer_file)
            .filter_map(|key| self.keys.get(&key))
            .flatten()
            .copied()
            .filter(|&f| resolve::matches(&self.files[f as usize].path, &candidates))
            .filter(|&f| {
                language != Some("python")
                    || !self.inside_package(&self.files[f as usize].path, name)
            })
            .collect();
        found.sort_unstable();
        found.dedup();
        found
    }

    /// The files an import resolved to `file` stands for: a Go package's every file but its
    /// tests (a package is a directory), else the file alone.
    pub(super) fn package_files(&self, file: u32) -> Vec<u32> {
        let node = &self.files[file as usize];
        if node.language.as_deref() != Some("go") {
            return vec![file];
        }
        let dir = node.path.rsplit_once('/').map_or("", |(d, _)| d);
        let mut members: Vec<u32> = self
            .go_dirs
            .get(dir)
            .into_iter()
            .flatten()
            .copied()
            .filter(|&f| f == file || !self.files[f as usize].path.ends_with("_test.go"))
            .collect();
        if members.is_empty() {
            members.push(file);
        }
        members
    }

    /// The Go files of the directory a Go import path names inside one of the tree's modules
    /// (see [`Manifests::go_modules`]), when that directory has any.
    fn go_package(&self, import: &str) -> Option<Vec<u32>> {
        self.manifests.go_modules.iter().find_map(|(module, dir)| {
            let rest = import.strip_prefix(module.as_str())?;
            let sub = match rest {
                "" => "",
                _ => rest.strip_prefix('/')?,
            };
            let path = match (dir.as_str(), sub) {
                (d, "") => d.to_string(),
                ("", s) => s.to_string(),
                (d, s) => format!("{d}/{s}"),
            };
            self.go_dirs.get(&path).cloned()
        })
    }

    /// Whether `path`, which a Python absolute import of `module` matched, lies inside a
    /// package that does not start the module path: `import typing` never means
    /// `flask/typing.py` when `flask/__init__.py` makes `flask` a package (that file is
    /// `flask.typing`; `typing` is the standard library's).
    fn inside_package(&self, path: &str, module: &str) -> bool {
        if module.starts_with('.') {
            return false;
        }
        let module = module.replace('.', "/");
        let prefix = [format!("{module}.py"), format!("{module}/__init__.py")]
            .iter()
            .find_map(|tail| path.strip_suffix(tail.as_str()))
            .map(|p| p.trim_end_matches('/'));
        prefix.is_some_and(|p| !p.is_empty() && self.file(&format!("{p}/__init__.py")).is_some())
    }
}

/// A local name's stated type, the lines of the definition declaring it, and the lines its
/// binding holds from and, when a narrower scope ends it, to.
pub(super) type TypedLocal<'a> = (&'a str, Span, (u32, Option<u32>));

/// A type's name, a method's name and the caller's span.
pub(super) type MethodKey = (String, String, (u32, u32));

/// A call's value as written, the call's line, the caller's span and the depth left.
pub(super) type ValueKey = (String, u32, (u32, u32), usize);

/// Whether a Go signature declares a parameter or receiver `name` (`(name T`, `, name T`,
/// `(name, other T`), whatever its type.
fn parameter_of(signature: &str, name: &str) -> bool {
    let params = signature.split_once('(').map_or("", |(_, rest)| rest);
    params.split([',', '(']).any(|p| {
        let mut words = p.split_whitespace();
        words.next() == Some(name) && words.next().is_none_or(|w| !w.starts_with(['.', ')']))
    })
}

/// What one file's calls are resolved against.
pub(super) struct Scope<'a, 'f> {
    pub(super) file: u32,
    pub(super) facts: &'a FileFacts,
    /// Top-level callables of the files it imports, by name.
    pub(super) members: &'a HashMap<&'a str, Vec<u32>>,
    /// Every file's direct import bindings.
    pub(super) bindings: &'a [Bindings<'f>],
    /// Import lines by the last segment of the module path they name, and by the whole.
    pub(super) by_last: HashMap<&'a str, Vec<u32>>,
    pub(super) by_whole: HashMap<&'a str, Vec<u32>>,
    /// `import a as b` forms by local name: (original name, line).
    pub(super) aliased: HashMap<&'a str, Vec<(&'a str, u32)>>,
    /// Import line to the files it resolved to.
    pub(super) files_on: HashMap<u32, Vec<u32>>,
    /// Import lines inside a definition, to that definition's lines: they bind only there.
    pub(super) scoped: HashMap<u32, (u32, u32)>,
    /// Local names with their stated type and the lines of the definition they are declared
    /// in (none: at module level).
    /// With the lines each binding holds from and, when a narrower scope ends it, to.
    pub(super) typed: HashMap<&'a str, Vec<TypedLocal<'a>>>,
    /// The line of the call being resolved: of a name bound more than once in one
    /// definition, the binding that holds there is the latest one before it (a match arm's
    /// `Raw(x)`, not the next arm's `Walk(x)`; `x = Bar()` after `x = Foo()`).
    pub(super) call_line: Cell<u32>,
    /// The definition making the call being resolved.
    pub(super) caller: Cell<u32>,
    /// The definition whose container is the class `self` means there
    /// ([`Graph::self_owner`]), found again only when the caller changes.
    pub(super) self_owner: Cell<u32>,
    /// The callbacks' callees being resolved to type their parameters
    /// ([`types::CALLBACK_PARAMETER`]): one asked again inside its own resolution (`x.f((x)
    /// => ..)`) has no answer.
    pub(super) callbacks_open: RefCell<HashSet<String>>,
    /// What [`Graph::methods_of_type`] answered in this file, by (type, method, caller's
    /// span): the same receiver types are asked about at call after call, and the answer
    /// (through bases, three levels up) does not depend on the call.
    pub(super) methods_seen: RefCell<HashMap<MethodKey, Vec<u32>>>,
    /// What a call's value (`ig.matched()`) was found to be, by (value, call line, caller's
    /// span, depth): asked again for each way a receiver is tried at one call.
    pub(super) values_seen: RefCell<HashMap<ValueKey, Vec<String>>>,
    /// The lines of each file's Rust trait `impl` blocks, gathered when first asked.
    trait_impls: RefCell<HashMap<u32, Vec<(u32, u32)>>>,
    /// Fields with their stated type and the type (class, struct) holding them.
    pub(super) fields: HashMap<&'a str, Vec<(&'a str, &'a str)>>,
}

impl<'a, 'f> Scope<'a, 'f> {
    /// What one file's calls are resolved against, gathered once for all of them.
    fn new(
        file: u32,
        facts: &'a FileFacts,
        imports: &[(u32, u32)],
        members: &'a HashMap<&'a str, Vec<u32>>,
        bindings: &'a [Bindings<'f>],
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
            scoped: HashMap::new(),
            typed: HashMap::new(),
            call_line: Cell::new(0),
            caller: Cell::new(0),
            self_owner: Cell::new(u32::MAX),
            callbacks_open: RefCell::new(HashSet::new()),
            methods_seen: RefCell::new(HashMap::new()),
            values_seen: RefCell::new(HashMap::new()),
            trait_impls: RefCell::new(HashMap::new()),
            fields: HashMap::new(),
        };
        let renamed = facts.renamed_imports();
        for ((m, line), _) in facts.imports.iter().zip(&renamed).filter(|(_, r)| !**r) {
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

    /// Whether the file `use`s an item through its inline module `module` (`use imp::f;`,
    /// `pub use self::imp::*`), which makes the item a name of the file's own.
    fn uses_module(&self, module: &str) -> bool {
        self.facts
            .imports
            .iter()
            .any(|(path, _)| path.trim_start_matches("self::").split("::").next() == Some(module))
    }

    fn files_on(&self, line: u32) -> &[u32] {
        self.files_on.get(&line).map_or(&[], Vec::as_slice)
    }

    /// The types a function declares for its `this` (TypeScript's `function (this: T)`)
    /// when the call is inside that function: a binding made on or before the call's line
    /// that still holds there (unlike [`Scope::type_of`], never one made after the call).
    pub(super) fn declared_this(&self, at: (u32, u32)) -> Vec<&'a str> {
        let call_line = self.call_line.get();
        self.typed
            .get("this")
            .into_iter()
            .flatten()
            .filter(|(_, span, (line, until))| {
                span.is_none_or(|(s, e)| s <= at.0 && at.1 <= e)
                    && *line <= call_line
                    && until.is_none_or(|u| call_line <= u)
            })
            .map(|(t, _, _)| *t)
            .collect()
    }

    /// The class a `self` or `this` in the calling definition means (a closure's inside a
    /// method too).
    pub(super) fn own_class<'g>(&self, graph: &'g Graph) -> Option<&'g str> {
        let owner = graph.symbols[self.self_owner.get() as usize].symbol();
        // A JavaScript constructor function's body is its instances' own code.
        match owner.is_constructor_function() {
            true => Some(owner.name.as_str()),
            false => owner.container.as_deref(),
        }
    }

    /// Whether `called` (`slog.Level`, `strings.Split`) is named through a package the
    /// file imports that is none of the tree's: a Go library's function or type.
    pub(super) fn library_package_call(&self, called: &str, at: (u32, u32)) -> bool {
        let Some((package, _)) = called.split_once('.') else {
            return false;
        };
        self.facts.language.as_deref() == Some("go")
            && (self.by_last.contains_key(package) || self.aliased.contains_key(package))
            && self.module_files(package, at).is_empty()
    }

    /// Whether `name` is a parameter or local a definition spanning `at` (or one around it)
    /// declares with a type.
    pub(super) fn declared_local(&self, name: &str, at: (u32, u32)) -> bool {
        self.typed
            .get(name)
            .into_iter()
            .flatten()
            .any(|(_, span, _)| span.is_some_and(|(start, end)| start <= at.0 && at.1 <= end))
    }

    /// The types a receiver as written has where a definition spanning `at` (a member of
    /// `own`, when it is one) calls through it: a local name's (the innermost declaration
    /// holding the caller), or a field's (`self.x`, `this.x`; a bare `x` in languages where
    /// members are in scope), most likely first.
    /// Every type a name is stated to have where `at` sees it, whatever its line: the
    /// traits bounding a Rust generic parameter, which `fn f<G: A>` and each `where G: B`
    /// state apart (as its `impl` may), all holding at once. Not an enclosing function's
    /// (an item declared inside a function sees none of its generics).
    pub(super) fn bounds_of(&self, name: &str, at: (u32, u32)) -> Vec<&'a str> {
        // The file's symbols are in source order: those opening on the span's first line.
        let symbols = &self.facts.symbols;
        let another_function = |(s, e): (u32, u32)| {
            let first = symbols.partition_point(|d| d.start_line < s);
            (s, e) != at
                && symbols[first..]
                    .iter()
                    .take_while(|d| d.start_line == s)
                    .any(|d| d.end_line == e && matches!(d.kind.as_str(), "function" | "method"))
        };
        let mut out: Vec<&'a str> = self
            .typed
            .get(name)
            .into_iter()
            .flatten()
            .filter(|(_, span, _)| {
                span.is_none_or(|(s, e)| s <= at.0 && at.1 <= e && !another_function((s, e)))
            })
            .map(|(t, _, _)| *t)
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    pub(super) fn type_of(
        &self,
        receiver: &str,
        own: Option<&str>,
        at: (u32, u32),
    ) -> Vec<&'a str> {
        let field = |name: &str| -> Vec<&'a str> {
            self.fields
                .get(name)
                .into_iter()
                .flatten()
                .filter(|(_, holder)| Some(*holder) == own)
                .map(|(t, _)| *t)
                .collect()
        };
        match receiver.split_once('.') {
            None => {
                let call_line = self.call_line.get();
                let visible: Vec<&TypedLocal> = self
                    .typed
                    .get(receiver)
                    .into_iter()
                    .flatten()
                    .filter(|(_, span, (_, until))| {
                        span.is_none_or(|(s, e)| s <= at.0 && at.1 <= e)
                            && until.is_none_or(|u| call_line <= u)
                    })
                    .collect();
                let width = |span: &Span| span.map_or(u32::MAX, |(s, e)| e - s);
                let inner = visible.iter().map(|(_, span, _)| width(span)).min();
                let innermost: Vec<&&TypedLocal> = visible
                    .iter()
                    .filter(|(_, span, _)| Some(width(span)) == inner)
                    .collect();
                // The latest binding before the call, and any on the call's own line (`r =
                // s.send(r.prepare())` reads the `r` before it): every one when none precedes.
                let latest = innermost
                    .iter()
                    .map(|(_, _, (line, _))| *line)
                    .filter(|&line| line < call_line)
                    .max();
                let holds = |line: u32| line == call_line || Some(line) == latest;
                let held = innermost.iter().any(|(_, _, (line, _))| holds(*line));
                let local: Vec<&'a str> = innermost
                    .iter()
                    .filter(|(_, _, (line, _))| !held || holds(*line))
                    .map(|(t, _, _)| *t)
                    .collect();
                let implicit_this = matches!(self.facts.language.as_deref(), Some("java" | "cpp"));
                if local.is_empty() && implicit_this {
                    let own_field = field(receiver);
                    if !own_field.is_empty() {
                        return own_field;
                    }
                    // An inner class sees its outer class's fields: the file's other
                    // classes' field of that name, when they agree on its type.
                    let mut outer: Vec<&'a str> = self
                        .fields
                        .get(receiver)
                        .into_iter()
                        .flatten()
                        .map(|(t, _)| *t)
                        .collect();
                    outer.sort_unstable();
                    outer.dedup();
                    return if outer.len() == 1 { outer } else { Vec::new() };
                }
                local
            }
            Some((head, rest)) if SELF.contains(&head) && !rest.contains('.') => field(rest),
            Some(_) => Vec::new(),
        }
    }

    /// Whether the import on `line` binds in a definition spanning `at`: a module-level one
    /// does everywhere, one inside a definition only within it.
    fn visible(&self, line: u32, at: (u32, u32)) -> bool {
        self.scoped
            .get(&line)
            .is_none_or(|&(start, end)| start <= at.0 && at.1 <= end)
    }

    /// Whether `name` is bound only by an import's named specifier, never as a module's own
    /// name (`import { x } from './m'`, not `import m`, `from p import m` nor `const m =
    /// require('./lib/m')`, whose alias names the module by its last segment).
    pub(super) fn names_only_a_value(&self, name: &str) -> bool {
        let Some(aliases) = self.aliased.get(name) else {
            return false;
        };
        let names_module = |original: &str, line: u32| {
            self.facts.imports.iter().any(|(m, l)| {
                *l == line && (last_segment(m) == original || resolve::module_stem(m) == original)
            })
        };
        !self.by_last.contains_key(name)
            && !self.by_whole.contains_key(name)
            && !aliases
                .iter()
                .any(|&(original, line)| names_module(original, line))
    }

    /// The files an import binds to `name` in this file (`import os.path`, `from pkg import
    /// mod`, `import x as name`, `use a::b`), as seen from a definition spanning `at`: the
    /// files resolved on those import lines.
    pub(super) fn module_files(&self, name: &str, at: (u32, u32)) -> Vec<u32> {
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
            .filter(|&line| self.visible(line, at))
            .flat_map(|line| self.files_on(line).iter().copied())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The definitions an import binds `name` to in this file, as seen from a definition
    /// spanning `at`: directly, or through one re-export (`from pkg import N` where pkg
    /// itself imports N from a submodule).
    pub(super) fn bound(&self, name: &str, at: (u32, u32)) -> Vec<u32> {
        let visible: Vec<&Binding> = self.bindings[self.file as usize]
            .get(name)
            .into_iter()
            .flatten()
            .filter(|b| {
                b.scope
                    .is_none_or(|(start, end)| start <= at.0 && at.1 <= end)
            })
            .collect();
        // The innermost binding shadows the ones around it.
        let span = |b: &Binding| b.scope.map_or(u32::MAX, |(start, end)| end - start);
        let inner = visible.iter().map(|b| span(b)).min();
        let direct: Vec<u32> = visible
            .iter()
            .filter(|b| Some(span(b)) == inner)
            .map(|b| b.definition)
            .collect();
        if !direct.is_empty() {
            return direct;
        }
        let imported_as = self
            .by_last
            .get(name)
            .into_iter()
            .flatten()
            .map(|line| (name, *line))
            .chain(self.aliased.get(name).into_iter().flatten().copied())
            .filter(|&(_, line)| self.visible(line, at));
        let mut out = Vec::new();
        for (original, line) in imported_as {
            for &f in self.files_on(line) {
                out.extend(self.exported(f, original));
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// The definitions file `f` binds `name` to by a module-level import: what it exports
    /// under that name without defining it.
    pub(super) fn exported(&self, f: u32, name: &str) -> Vec<u32> {
        self.bindings[f as usize]
            .get(name)
            .into_iter()
            .flatten()
            .filter(|b| b.scope.is_none())
            .map(|b| b.definition)
            .collect()
    }
}

/// Whether `language`'s imports bind only the names they name (Python, JavaScript and
/// TypeScript, Rust, Go, Java), so that no module's other names are in scope: there a bare
/// call never means an imported module's top-level function by its name alone.
fn binds_named_imports_only(language: Option<&str>) -> bool {
    language.is_some_and(|l| {
        Language::family(l) == "javascript" || matches!(l, "python" | "rust" | "go" | "java")
    })
}

/// The first and last line of the definition a name is declared in; none at module level.
pub(super) type Span = Option<(u32, u32)>;

/// One file's import bindings: local name to the definitions it is bound to.
pub(super) type Bindings<'f> = HashMap<&'f str, Vec<Binding>>;

/// A name bound to a definition by an import, and where the binding holds.
#[derive(Debug, Clone, Copy)]
pub(super) struct Binding {
    pub(super) definition: u32,
    /// The lines of the definition the import is inside; none for a module-level import.
    pub(super) scope: Option<(u32, u32)>,
}
