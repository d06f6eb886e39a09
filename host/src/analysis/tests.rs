//! The analysis layer on sources parsed by the real extractor: call and import resolution per
//! language with known answers, and PageRank, cycles, impact radius and hot spots on graphs
//! small enough to work out by hand.

use super::graph::{Confidence, Graph, Manifests};
use super::{Snapshot, rank, rank_snapshot, reach, views};
use crate::index::code::Language;
use crate::index::facts::FileFacts;
use std::sync::Arc;

fn facts(path: &str, source: &str) -> Arc<FileFacts> {
    let ext = path.rsplit('.').next().unwrap();
    let lang = Language::from_extension(ext).unwrap();
    Arc::new(FileFacts::from_source(path, lang, source))
}

/// The ranked graphs of `(path, source)` pairs, borrowed or owned.
fn snapshot(files: &[(impl AsRef<str>, impl AsRef<str>)]) -> Snapshot {
    let facts: Vec<_> = files
        .iter()
        .map(|(p, s)| facts(p.as_ref(), s.as_ref()))
        .collect();
    rank_snapshot(Graph::build(&facts))
}

/// `path:Container.name` of a definition.
fn label(s: &Snapshot, id: u32) -> String {
    let node = &s.graph.symbols[id as usize];
    format!(
        "{}:{}",
        s.graph.files[node.file as usize].path,
        s.graph.qualified(id)
    )
}

/// (callee label, confidence) of every call out of `caller` (`path:Container.name`).
fn callees(s: &Snapshot, caller: &str) -> Vec<(String, &'static str)> {
    let id = (0..s.graph.symbols.len() as u32)
        .find(|&i| label(s, i) == caller)
        .unwrap_or_else(|| panic!("no {caller}"));
    let mut out: Vec<(String, &'static str)> = s.graph.callees[id as usize]
        .iter()
        .map(|&e| {
            let e = s.graph.calls[e as usize];
            (label(s, e.to), e.confidence.as_str())
        })
        .collect();
    out.sort();
    out
}

/// [`callees`] but the name-only guesses: the links the default answer shows.
fn known_callees(s: &Snapshot, caller: &str) -> Vec<(String, &'static str)> {
    callees(s, caller)
        .into_iter()
        .filter(|(_, how)| *how != "name")
        .collect()
}

/// The callees a caller reaches through a receiver's type (`type`), each once.
fn typed_callees(s: &Snapshot, caller: &str) -> Vec<String> {
    let mut found: Vec<String> = callees(s, caller)
        .into_iter()
        .filter(|(_, how)| *how == "type")
        .map(|(callee, _)| callee)
        .collect();
    found.dedup();
    found
}

fn pairs(v: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    let mut v: Vec<_> = v.iter().map(|(a, b)| (a.to_string(), *b)).collect();
    v.sort();
    v
}

#[test]
fn python_calls_resolve_through_imports_aliases_containers_and_modules() {
    let s = snapshot(&[
        ("pkg/__init__.py", ""),
        (
            "pkg/util.py",
            "def util_fn():\n    pass\n\ndef save():\n    pass\n",
        ),
        ("pkg/other.py", "def save():\n    pass\n"),
        (
            "pkg/app.py",
            "from pkg.util import save\nfrom pkg.util import util_fn as uf\nfrom pkg import other\n\n\
             def helper():\n    return 1\n\n\
             class A:\n    def run(self):\n        self.step()\n        helper()\n        uf()\n        save()\n        other.save()\n        unknown_thing()\n\n\
             \x20   def step(self):\n        pass\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "pkg/app.py:A.run"),
        pairs(&[
            ("pkg/app.py:A.step", "container"),
            ("pkg/app.py:helper", "file"),
            ("pkg/util.py:util_fn", "import"),
            ("pkg/util.py:save", "import"),
            ("pkg/other.py:save", "import"),
        ])
    );
    // Imports resolve to files; the package's __init__ is imported by `from pkg import other`.
    let app = s.graph.file("pkg/app.py").unwrap();
    let deps: Vec<&str> = s.graph.file_deps[app as usize]
        .iter()
        .map(|&f| s.graph.files[f as usize].path.as_str())
        .collect();
    assert!(
        deps.contains(&"pkg/util.py") && deps.contains(&"pkg/other.py"),
        "{deps:?}"
    );
    assert_eq!(
        s.graph.unresolved_calls, 1,
        "unknown_thing resolves to nothing"
    );
}

#[test]
fn same_name_in_two_modules_is_told_apart_by_the_import() {
    let s = snapshot(&[
        ("a/models.py", "def load():\n    pass\n"),
        ("b/models.py", "def load():\n    pass\n"),
        (
            "c/use.py",
            "from b.models import load\n\ndef go():\n    load()\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "c/use.py:go"),
        pairs(&[("b/models.py:load", "import")])
    );
}

#[test]
fn a_reexporting_package_is_followed_one_hop() {
    let s = snapshot(&[
        ("lib/__init__.py", "from lib.core import build\n"),
        ("lib/core.py", "def build():\n    pass\n"),
        (
            "main.py",
            "from lib import build\n\ndef main():\n    build()\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "main.py:main"),
        pairs(&[("lib/core.py:build", "import")])
    );
}

#[test]
fn rust_calls_resolve_through_use_paths_aliases_and_types() {
    let s = snapshot(&[
        (
            "src/store.rs",
            "pub struct Store;\nimpl Store {\n    pub fn open() -> Self { Store }\n    pub fn get(&self) {}\n}\npub fn connect() {}\n",
        ),
        ("src/util.rs", "pub fn clip() {}\npub fn connect() {}\n"),
        (
            "src/app.rs",
            "use crate::store::{Store, connect};\nuse crate::util::clip as cut;\n\n\
             fn run() {\n    let s = Store::open();\n    s.get();\n    connect();\n    cut();\n    crate::util::clip();\n    helper();\n}\n\nfn helper() {}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/app.rs:run"),
        pairs(&[
            ("src/store.rs:Store.open", "import"),
            // `let s = Store::open()`: s is a Store.
            ("src/store.rs:Store.get", "type"),
            ("src/store.rs:connect", "import"),
            ("src/util.rs:clip", "import"),
            ("src/app.rs:helper", "file"),
        ])
    );
}

#[test]
fn a_rust_pub_use_is_followed_to_the_definition() {
    let s = snapshot(&[
        ("src/a/mod.rs", "mod inner;\npub use self::inner::make;\n"),
        ("src/a/inner.rs", "pub fn make() {}\n"),
        ("src/other.rs", "pub fn make() {}\n"),
        (
            "src/main.rs",
            "use crate::a::make;\n\nfn main() {\n    make();\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/main.rs:main"),
        pairs(&[("src/a/inner.rs:make", "import")])
    );
}

#[test]
fn typescript_calls_resolve_through_named_and_aliased_imports() {
    let s = snapshot(&[
        (
            "src/math.ts",
            "export function add(a: number, b: number) { return a + b; }\nexport function sub(a: number, b: number) { return a - b; }\n",
        ),
        (
            "src/other.ts",
            "export function add(a: number) { return a; }\n",
        ),
        (
            "src/main.ts",
            "import { add, sub as minus } from './math';\n\nexport function main() {\n  add(1, 2);\n  minus(3, 1);\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/main.ts:main"),
        pairs(&[("src/math.ts:add", "import"), ("src/math.ts:sub", "import")])
    );
    // A package's index.ts re-exports: the import of the package reaches the definition.
    let s = snapshot(&[
        (
            "src/lib/parse.ts",
            "export function parse(s: string) { return s; }
",
        ),
        (
            "src/lib/render.ts",
            "export function draw(s: string) { return s; }
",
        ),
        (
            "src/lib/index.ts",
            "export { parse } from './parse';
export { draw as render } from './render';
",
        ),
        (
            "src/other.ts",
            "export function parse(s: string) { return s; }
",
        ),
        (
            "src/main.ts",
            "import { parse, render } from './lib';

export function main() {
  parse('a');
  render('b');
}
",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/main.ts:main"),
        pairs(&[
            ("src/lib/parse.ts:parse", "import"),
            ("src/lib/render.ts:draw", "import"),
        ])
    );
}

#[test]
fn go_and_java_method_calls_resolve_by_receiver_and_container() {
    let s = snapshot(&[(
        "svc/Service.java",
        "class Service {\n  void run() {\n    helper();\n    this.stop();\n  }\n  void helper() {}\n  void stop() {}\n}\n",
    )]);
    assert_eq!(
        callees(&s, "svc/Service.java:Service.run"),
        pairs(&[
            ("svc/Service.java:Service.helper", "container"),
            ("svc/Service.java:Service.stop", "container"),
        ])
    );
    let s = snapshot(&[(
        "cmd/main.go",
        "package main\n\nfunc main() {\n\tserve()\n}\n\nfunc serve() {}\n",
    )]);
    assert_eq!(
        callees(&s, "cmd/main.go:main"),
        pairs(&[("cmd/main.go:serve", "file")])
    );
}

/// What javac binds and a name-based graph missed in a Java project (issue 41, measured
/// against javac on gson and jsoup): fluent chains, a type's static fields, inherited bare
/// calls, same-package types, for-each variables, casts, method references, an inner
/// class's view of its outer class's fields, and library-typed values kept apart.
#[test]
fn java_calls_resolve_as_the_compiler_binds_them() {
    let builder = (
        "app/Builder.java",
        "package app;\n\npublic class Builder {\n  public Builder add(String a) {\n    return this;\n  }\n  @Deprecated\n  public Builder flag() {\n    return this;\n  }\n  public Built build() {\n    return new Built();\n  }\n}\n",
    );
    let built = (
        "app/Built.java",
        "package app;\n\npublic class Built {\n  public static final Built DEFAULT = new Built();\n  public void run() {}\n  public void size() {}\n  public void close() {}\n}\n",
    );
    // Four constructors: too many for a guess by name, one class of the caller's package.
    let failure = (
        "app/Failure.java",
        "package app;\n\npublic class Failure extends RuntimeException {\n  public Failure() {}\n  public Failure(String m) {}\n  public Failure(Throwable t) {}\n  public Failure(String m, Throwable t) {}\n}\n",
    );
    let base = (
        "app/Base.java",
        "package app;\n\npublic class Base {\n  protected boolean strict() {\n    return true;\n  }\n}\n",
    );
    let user = (
        "app/User.java",
        "package app;\n\nimport java.util.Iterator;\nimport java.util.List;\n\npublic class User extends Base {\n  private Built built;\n  public void go(List<Built> all, Object o, Iterator<String> iterator) {\n    new Builder()\n        // chained\n        .add(\"a\")\n        .flag()\n        .build();\n    Built.DEFAULT.run();\n    if (strict()) {\n      throw new Failure(\"no\");\n    }\n    for (Built b : all) {\n      b.size();\n    }\n    ((Built) o).size();\n    all.forEach(Built::close);\n    iterator.next();\n  }\n  class Inner {\n    void poke() {\n      built.run();\n      User.this.go(null, null, null);\n    }\n  }\n}\n",
    );
    // A project method whose container is named like a library-typed variable.
    let iterator = (
        "app/Lists.java",
        "package app;\n\nclass Lists {\n  Object iterator() {\n    return new Object() {\n      public String next() {\n        return null;\n      }\n    };\n  }\n}\n",
    );
    // A static import binds a type's method; a nested type is named through its outer one.
    let checks = (
        "app/util/Checks.java",
        "package app.util;\n\npublic final class Checks {\n  public static void check(boolean ok) {}\n  public static Spec.Builder spec() {\n    return null;\n  }\n}\n",
    );
    let spec = (
        "app/util/Spec.java",
        "package app.util;\n\npublic final class Spec {\n  public static Builder builder() {\n    return new Builder();\n  }\n  public static final class Builder {\n    public Builder named(String n) {\n      return this;\n    }\n  }\n}\n",
    );
    let other_builder = (
        "app/util/Other.java",
        "package app.util;\n\npublic final class Other {\n  public static final class Builder {\n    public Builder named(String n) {\n      return this;\n    }\n  }\n}\n",
    );
    let third_builder = (
        "app/util/Third.java",
        "package app.util;\n\npublic final class Third {\n  public static final class Builder {\n    public Builder named(String n) {\n      return this;\n    }\n  }\n}\n",
    );
    let client = (
        "app/Client.java",
        "package app;\n\nimport static app.util.Checks.check;\nimport app.util.Spec;\n\nclass Client {\n  void run(Spec.Builder given) {\n    check(true);\n    Spec.builder().named(\"a\").named(\"b\");\n    given.named(\"c\");\n  }\n}\n",
    );
    let s = snapshot(&[checks, spec, other_builder, third_builder, client]);
    assert_eq!(
        callees(&s, "app/Client.java:Client.run"),
        pairs(&[
            ("app/util/Checks.java:Checks.check", "import"),
            ("app/util/Spec.java:Builder.named", "type"),
            ("app/util/Spec.java:Spec.builder", "import"),
        ])
    );
    let s = snapshot(&[builder, built, failure, base, user, iterator]);
    assert_eq!(
        callees(&s, "app/User.java:User.go"),
        pairs(&[
            ("app/Base.java:Base.strict", "base"),
            ("app/Builder.java:Builder", "package"),
            ("app/Builder.java:Builder.add", "type"),
            ("app/Builder.java:Builder.build", "type"),
            ("app/Builder.java:Builder.flag", "type"),
            ("app/Built.java:Built.close", "container"),
            ("app/Built.java:Built.run", "type"),
            ("app/Built.java:Built.size", "type"),
            ("app/Failure.java:Failure", "package"),
        ])
    );
    assert_eq!(
        callees(&s, "app/User.java:Inner.poke"),
        pairs(&[
            ("app/Built.java:Built.run", "type"),
            ("app/User.java:User.go", "type"),
        ])
    );
    // A signature is the declaration, not the annotation above it: `flag` returns a
    // Builder, which is how the chain goes on.
    let flag = s
        .graph
        .symbols
        .iter()
        .map(|n| n.symbol())
        .find(|d| d.name == "flag")
        .expect("flag");
    assert_eq!(flag.signature, "public Builder flag()");
}

/// An annotation's elements are declared and called as methods (`expose.serialize()`), as
/// javac binds them.
#[test]
fn a_java_annotations_elements_are_called_like_methods() {
    let s = snapshot(&[
        (
            "app/Expose.java",
            "package app;\n\npublic @interface Expose {\n  boolean serialize() default true;\n}\n",
        ),
        (
            "app/Excluder.java",
            "package app;\n\nimport java.lang.reflect.Field;\n\nclass Excluder {\n  boolean skip(Field f) {\n    Expose e = f.getAnnotation(Expose.class);\n    return !e.serialize();\n  }\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "app/Excluder.java:Excluder.skip"),
        pairs(&[("app/Expose.java:Expose.serialize", "type")])
    );
}

/// A Java enum's constants are definitions; a call in a constant's body is its method's
/// (which overrides the enum's), even where the constant is one line, and a call in its
/// arguments is the constant's.
#[test]
fn a_java_enum_constant_s_body_calls_from_its_method() {
    let s = snapshot(&[(
        "app/Op.java",
        "package app;\n\nenum Op {\n  ADD(label(\"+\")) { int apply(int a, int b) { return add(a, b); } },\n  SUB(label(\"-\")) {\n    int apply(int a, int b) {\n      return add(a, -b);\n    }\n  };\n  Op(String s) {}\n  abstract int apply(int a, int b);\n  static int add(int a, int b) {\n    return a + b;\n  }\n  static String label(String s) {\n    return s;\n  }\n}\n",
    )]);
    // (caller, the caller's first line) of every call of `target`.
    let callers_of = |target: &str| {
        let mut found: Vec<(String, u32)> = s
            .graph
            .calls
            .iter()
            .filter(|e| label(&s, e.to) == target)
            .map(|e| {
                let from = s.graph.symbols[e.from as usize].symbol();
                (label(&s, e.from), from.start_line)
            })
            .collect();
        found.sort();
        found
    };
    assert_eq!(
        callers_of("app/Op.java:Op.add"),
        [
            ("app/Op.java:Op.apply".to_string(), 4),
            ("app/Op.java:Op.apply".to_string(), 6)
        ],
    );
    // Calls are placed by line: a one-line constant's are its method's.
    assert_eq!(
        callers_of("app/Op.java:Op.label"),
        [
            ("app/Op.java:Op.SUB".to_string(), 5),
            ("app/Op.java:Op.apply".to_string(), 4)
        ],
    );
}

/// A Java type nested in a library's (`Map.Entry`) is the library's, and a `private` nested
/// type is seen only in its own file: calls on either reach no project class by the inner
/// name (a test's private `Entry`), nor, through it, the project classes implementing the
/// library's interface.
#[test]
fn a_java_type_nested_in_a_library_type_is_the_library_s() {
    let node = (
        "app/Node.java",
        "package app;\n\nimport java.util.Map.Entry;\n\nclass Node<K, V> implements Entry<K, V> {\n  public V getValue() {\n    return null;\n  }\n}\n",
    );
    let test = (
        "test/CollectionTest.java",
        "package test;\n\nclass CollectionTest {\n  private static class Entry {\n  }\n}\n",
    );
    let copy = (
        "app/Copy.java",
        "package app;\n\nimport java.util.Map;\n\nclass Copy {\n  void copy(Map<String, String> m, Outer.Inner i) {\n    for (Map.Entry<String, String> e : m.entrySet()) {\n      e.getValue();\n    }\n    i.run();\n  }\n}\n",
    );
    // A project's own nested type is still named through its outer one.
    let outer = (
        "app/Outer.java",
        "package app;\n\nclass Outer {\n  static class Inner {\n    void run() {}\n  }\n}\n",
    );
    // The library's type imported by its own name, and one a library base class brings in
    // scope without an import (`AbstractMap`'s `Entry`): a test's private `Entry` is seen
    // from neither.
    let imported = (
        "app/Imported.java",
        "package app;\n\nimport java.util.Map.Entry;\n\nclass Imported {\n  void read(Entry<String, String> e) {\n    e.getValue();\n  }\n}\n",
    );
    let inherited = (
        "app/Tree.java",
        "package app;\n\nimport java.util.AbstractMap;\n\nclass Tree extends AbstractMap<String, String> {\n  void find(Entry<?, ?> e) {\n    e.getValue();\n  }\n}\n",
    );
    let s = snapshot(&[node, test, copy, outer, imported, inherited]);
    // (A guess by the name alone is kept apart from the answer's links.)
    let known = |caller: &str| -> Vec<_> {
        callees(&s, caller)
            .into_iter()
            .filter(|(_, how)| *how != "name")
            .collect()
    };
    assert_eq!(
        known("app/Copy.java:Copy.copy"),
        pairs(&[("app/Outer.java:Inner.run", "type")])
    );
    assert_eq!(known("app/Imported.java:Imported.read"), pairs(&[]));
    assert_eq!(known("app/Tree.java:Tree.find"), pairs(&[]));
    // Private types still count among the definitions of a name: four `Entry` types are too
    // many to guess between, whichever two of them the caller could see.
    let private = |path: &'static str, class: &str| {
        let text = format!(
            "package test;\n\nclass {class} {{\n  private static class Entry {{\n    String getValue() {{\n      return null;\n    }}\n  }}\n}}\n"
        );
        (path, text)
    };
    let public = |path: &'static str, package: &str| {
        let text = format!(
            "package {package};\n\npublic class Entry {{\n  public String getValue() {{\n    return null;\n  }}\n}}\n"
        );
        (path, text)
    };
    let entries = [
        private("test/A.java", "A"),
        private("test/B.java", "B"),
        public("other/p1/Entry.java", "other.p1"),
        public("other/p2/Entry.java", "other.p2"),
    ];
    let mut files: Vec<(&str, &str)> = entries.iter().map(|(p, t)| (*p, t.as_str())).collect();
    files.push(imported);
    let s = snapshot(&files);
    let known: Vec<_> = callees(&s, "app/Imported.java:Imported.read")
        .into_iter()
        .filter(|(_, how)| *how != "name")
        .collect();
    assert_eq!(known, pairs(&[]));
}

#[test]
fn a_go_import_of_the_tree_s_own_module_names_its_directory_and_every_file_of_it() {
    let files = [
        // A package is a directory: the import's path resolves to its shortest file, which
        // defines nothing called here.
        ("doc.go", "// Package mux routes.\npackage mux\n"),
        (
            "mux.go",
            "package mux\n\nfunc NewRouter() *Router {\n\treturn nil\n}\n",
        ),
        (
            "middleware/cors.go",
            "package middleware\n\nfunc CORS() {}\n",
        ),
        // A package elsewhere ending in the same segment: no trailing run decides.
        (
            "vendor/other/mux/mux.go",
            "package mux\n\nfunc NewRouter() int {\n\treturn 0\n}\n",
        ),
        (
            "example_test.go",
            "package mux_test\n\nimport (\n\t\"github.com/gorilla/mux\"\n\t\"github.com/gorilla/mux/middleware\"\n)\n\nfunc Example() {\n\tmux.NewRouter()\n\tmiddleware.CORS()\n}\n",
        ),
    ];
    let facts: Vec<_> = files.iter().map(|(p, s)| facts(p, s)).collect();
    let modules = Manifests {
        go_modules: vec![("github.com/gorilla/mux".to_string(), String::new())],
        ..Manifests::default()
    };
    let s = rank_snapshot(Graph::update_with(None, &facts, None, modules.clone()));
    assert_eq!(
        callees(&s, "example_test.go:Example"),
        pairs(&[
            ("middleware/cors.go:CORS", "import"),
            ("mux.go:NewRouter", "import")
        ])
    );
    // Without the module's path the root is no package an import can name.
    let without = rank_snapshot(Graph::build(&facts));
    assert!(
        !callees(&without, "example_test.go:Example")
            .iter()
            .any(|(c, _)| c == "mux.go:NewRouter")
    );
    // A graph updated with other modules is resolved afresh, as a new build would be.
    let updated = Graph::update(Some(&s.graph), &facts);
    assert_eq!(updated.manifests, modules);
    let moved = Graph::update_with(Some(&s.graph), &facts, None, Manifests::default());
    let moved = rank_snapshot(moved);
    assert_eq!(
        callees(&moved, "example_test.go:Example"),
        callees(&without, "example_test.go:Example")
    );
}

#[test]
fn a_file_added_to_an_imported_go_package_is_found_as_a_fresh_build_finds_it() {
    let modules = Manifests {
        go_modules: vec![("example.com/app".to_string(), String::new())],
        ..Manifests::default()
    };
    let before = [
        (
            "router/doc.go",
            "// Package router routes.\npackage router\n",
        ),
        (
            "main.go",
            "package main\n\nimport \"example.com/app/router\"\n\nfunc main() {\n\trouter.New()\n}\n",
        ),
    ];
    let facts_of =
        |files: &[(&str, &str)]| -> Vec<_> { files.iter().map(|(p, s)| facts(p, s)).collect() };
    let previous = Graph::update_with(None, &facts_of(&before), None, modules.clone());
    let mut after = before.to_vec();
    after.push((
        "router/router.go",
        "package router\n\nfunc New() int {\n\treturn 0\n}\n",
    ));
    let updated = rank_snapshot(Graph::update(Some(&previous), &facts_of(&after)));
    let fresh = rank_snapshot(Graph::update_with(None, &facts_of(&after), None, modules));
    assert_eq!(
        callees(&updated, "main.go:main"),
        callees(&fresh, "main.go:main")
    );
    assert_eq!(
        callees(&fresh, "main.go:main"),
        pairs(&[("router/router.go:New", "import")])
    );
}

#[test]
fn a_go_call_reaches_the_functions_of_its_own_package_in_other_files() {
    let s = snapshot(&[
        (
            "mux/route.go",
            "package mux\n\nfunc (r *Route) Match() bool {\n\treturn matchAll(r)\n}\n",
        ),
        (
            "mux/helpers.go",
            "package mux\n\nfunc matchAll(r *Route) bool {\n\treturn true\n}\n",
        ),
        // Another package's function of that name, and a method of it: never a bare call's.
        (
            "other/helpers.go",
            "package other\n\nfunc matchAll(x int) bool {\n\treturn false\n}\n",
        ),
        (
            "mux/types.go",
            "package mux\n\ntype Route struct{}\n\nfunc (r *Route) matchAll() bool {\n\treturn true\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "mux/route.go:Route.Match"),
        pairs(&[("mux/helpers.go:matchAll", "package")])
    );
    // `new(Route)` makes a Route: a method called on it is Route's.
    let s = snapshot(&[
        (
            "mux/route.go",
            "package mux\n\ntype Route struct{}\n\nfunc (r *Route) Host(h string) *Route {\n\treturn r\n}\n",
        ),
        (
            "mux/other.go",
            "package mux\n\ntype Other struct{}\n\nfunc (o *Other) Host(h string) {}\n",
        ),
        (
            "mux/route_test.go",
            "package mux\n\nfunc TestHost() {\n\tnew(Route).Host(\"a\")\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "mux/route_test.go:TestHost"),
        pairs(&[("mux/route.go:Route.Host", "type")])
    );
    // Ranging over a field's slice, or a local's map, gives its element: Route's method.
    let s = snapshot(&[
        (
            "mux/route.go",
            "package mux\n\ntype Route struct{}\n\nfunc (r *Route) Match() bool {\n\treturn true\n}\n",
        ),
        (
            "mux/other.go",
            "package mux\n\ntype Other struct{}\n\nfunc (o *Other) Match() bool {\n\treturn false\n}\n",
        ),
        (
            "mux/router.go",
            "package mux\n\ntype Router struct {\n\troutes []*Route\n}\n\nfunc (r *Router) Match() bool {\n\tfor _, route := range r.routes {\n\t\troute.Match()\n\t}\n\treturn false\n}\n\nfunc named(byName map[string]*Route) {\n\tfor _, route := range byName {\n\t\troute.Match()\n\t}\n}\n",
        ),
    ]);
    for caller in ["mux/router.go:Router.Match", "mux/router.go:named"] {
        assert_eq!(
            callees(&s, caller),
            pairs(&[("mux/route.go:Route.Match", "type")]),
            "{caller}"
        );
    }
}

#[test]
fn pagerank_matches_the_hand_computed_answer() {
    // A -> B, B -> C, C -> A, D -> C: C collects from B and D; D gets only the base share.
    let edges = [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 1.0), (3, 2, 1.0)];
    let r = rank::pagerank(4, &edges);
    assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    // Fixed point: d = 0.0375; c = 0.0375 + 0.85(b + d); a = 0.0375 + 0.85c; b = 0.0375 + 0.85a.
    let d = 0.15 / 4.0;
    let c = (d + 0.85 * (d + 0.85 * d) + 0.85 * d) / (1.0 - 0.85f64.powi(3));
    let a = d + 0.85 * c;
    let b = d + 0.85 * a;
    for (got, want) in r.iter().zip([a, b, c, d]) {
        assert!((got - want).abs() < 1e-6, "{r:?} vs {:?}", [a, b, c, d]);
    }
    assert_eq!(rank::percentiles(&r), [2.0 / 3.0, 1.0 / 3.0, 1.0, 0.0]);
    // A node without edges out shares its score with every node: nothing leaks.
    let r = rank::pagerank(3, &[(0, 1, 1.0)]);
    assert!((r.iter().sum::<f64>() - 1.0).abs() < 1e-9 && r[1] > r[0] && r[0] > 0.0);
}

#[test]
fn cycles_and_impact_radius_on_a_small_graph() {
    // 0 -> 1 -> 2 -> 0 is a cycle; 3 -> 0; 4 -> 3; 5 alone; 6 -> 6.
    let outgoing = vec![vec![1], vec![2], vec![0], vec![0], vec![3], vec![], vec![6]];
    assert_eq!(reach::cycles(&outgoing), vec![vec![0, 1, 2], vec![6]]);
    let mut incoming = vec![Vec::new(); outgoing.len()];
    for (from, targets) in outgoing.iter().enumerate() {
        for &to in targets {
            incoming[to as usize].push(from as u32);
        }
    }
    // Who reaches 0: 2 (1 step), 3 (1 step), 1 (2), 4 (2).
    let mut got = reach::dependents(&incoming, 0, 5);
    got.sort();
    assert_eq!(got, vec![(1, 2), (2, 1), (3, 1), (4, 2)]);
    assert_eq!(reach::dependents(&incoming, 0, 1).len(), 2);
}

#[test]
fn file_views_report_dependents_cycles_layers_and_entry_points() {
    let s = snapshot(&[
        ("app/core/base.py", "def base():\n    pass\n"),
        (
            "app/core/cyc_a.py",
            "from app.core import cyc_b\n\ndef a():\n    cyc_b.b()\n",
        ),
        (
            "app/core/cyc_b.py",
            "from app.core import cyc_a\n\ndef b():\n    cyc_a.a()\n",
        ),
        (
            "app/web/views.py",
            "from app.core.base import base\n\ndef view():\n    base()\n",
        ),
        (
            "app/cli/main.py",
            "from app.web.views import view\n\ndef main():\n    view()\n",
        ),
    ]);
    let base = s.graph.file("app/core/base.py").unwrap();
    let deps = views::dependencies(&s, base, 5, 10);
    assert_eq!(
        deps.dependents,
        vec![
            ("app/web/views.py".to_string(), 1),
            ("app/cli/main.py".to_string(), 2)
        ]
    );
    assert_eq!(deps.blast_radius, 2);
    let cyc = s.graph.file("app/core/cyc_a.py").unwrap();
    assert_eq!(
        views::dependencies(&s, cyc, 1, 10).cycle,
        vec!["app/core/cyc_a.py", "app/core/cyc_b.py"]
    );
    let o = views::overview(&s, &super::hotspots::hot_spots(&s, None), None, 10);
    assert_eq!(
        o.layers,
        vec![vec!["app/core"], vec!["app/web"], vec!["app/cli"]]
    );
    assert_eq!(o.entry_points, vec!["app/cli/main.py"]);
    assert_eq!(o.cycles.len(), 1);
    assert_eq!(o.top_files.len(), 5);
    assert_eq!(
        o.top_files[4].path, "app/cli/main.py",
        "nothing imports it: ranked last"
    );
    let only_web = views::overview(&s, &[], Some("app/web"), 10);
    assert_eq!(only_web.files, 1);
}

#[test]
fn hot_spots_are_the_branchy_central_functions_and_say_why() {
    let mut branchy = String::from("def tangled(x):\n");
    for i in 0..12 {
        branchy.push_str(&format!("    if x == {i}:\n        x = helper(x)\n"));
    }
    branchy.push_str("    return x\n\ndef helper(x):\n    return x\n");
    for i in 0..20 {
        branchy.push_str(&format!("\ndef small_{i}():\n    return tangled({i})\n"));
    }
    let s = snapshot(&[("m/core.py", &branchy), ("tests/test_core.py", &branchy)]);
    let hot = super::hotspots::hot_spots(&s, None);
    assert_eq!(hot.len(), 1, "only one function passes the floor: {hot:?}");
    assert_eq!(
        label(&s, hot[0].symbol),
        "m/core.py:tangled",
        "test files are left out"
    );
    assert!(
        hot[0]
            .reasons
            .iter()
            .any(|r| r.starts_with("12 branch points")),
        "{hot:?}"
    );
    assert!(hot[0].score > 0.5);
}

#[test]
fn calls_through_chains_of_fields_reach_the_last_field_s_type() {
    let s = snapshot(&[
        (
            "src/io.rs",
            "pub struct Reader;\npub struct Writer;\n\nimpl Reader {\n    pub fn close(&self) {}\n}\n\nimpl Writer {\n    pub fn close(&self) {}\n}\n",
        ),
        (
            "src/pair.rs",
            "use crate::io::{Reader, Writer};\n\npub struct Pair {\n    pub reader: Reader,\n    pub writer: Writer,\n}\n\npub struct Holder {\n    pub pair: Pair,\n}\n\npub fn shut(h: &Holder) {\n    h.pair.reader.close();\n}\n",
        ),
        (
            "app/core.py",
            "class Config:\n    def load(self):\n        pass\n\nclass Other:\n    def load(self):\n        pass\n\nclass App:\n    def __init__(self):\n        self.config = Config()\n",
        ),
        (
            "app/ctx.py",
            "from app.core import App\n\nclass Ctx:\n    def __init__(self):\n        self.app = App()\n\n    def push(self):\n        self.app.config.load()\n",
        ),
    ]);
    // The writer's close is not reached, not even as a guess.
    assert_eq!(
        callees(&s, "src/pair.rs:shut"),
        pairs(&[("src/io.rs:Reader.close", "type")])
    );
    assert_eq!(
        callees(&s, "app/ctx.py:Ctx.push"),
        pairs(&[("app/core.py:Config.load", "type")])
    );
}

#[test]
fn a_declared_this_a_name_for_the_object_itself_and_super_calls_have_their_targets() {
    let s = snapshot(&[
        (
            "src/subscriber.ts",
            "export class Subscriber {\n  error(err: unknown) {}\n}\n\nexport class Other {\n  error(err: unknown) {}\n}\n",
        ),
        (
            "src/scheduler.ts",
            "export class Action {\n  schedule(state?: unknown) {}\n}\n\nexport class Scheduler {\n  constructor(private actionCtor: typeof Action) {}\n\n  schedule(work: () => void) {\n    return new this.actionCtor(this, work).schedule(1);\n  }\n}\n",
        ),
        (
            "src/lift.ts",
            "import { Subscriber } from './subscriber';\n\nexport function operate(init: any) {\n  return function (this: Subscriber, source: unknown) {\n    try {\n      return init(source, this);\n    } catch (err) {\n      this.error(err);\n    }\n  };\n}\n",
        ),
        (
            "src/table.ts",
            "export class Row {\n  draw() {}\n}\n\nexport class Table {\n  draw() {}\n\n  render(rows: Row[]) {\n    this.draw();\n    rows.forEach(function (this: Row) {\n      this.draw();\n    });\n  }\n}\n",
        ),
        (
            "src/operator.ts",
            "import { Subscriber } from './subscriber';\n\ninterface Loggable {}\n\nexport class OperatorSubscriber extends Subscriber implements Loggable {\n  constructor(destination: unknown) {\n    super(destination);\n  }\n}\n",
        ),
        (
            "src/hot.ts",
            "import { Scheduler } from './scheduler';\n\nexport class Hot {\n  scheduler: Scheduler;\n\n  setup() {\n    const subject = this;\n    (() => {\n      subject.scheduler.schedule(() => {});\n    })();\n  }\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/lift.ts:operate"),
        pairs(&[("src/subscriber.ts:Subscriber.error", "type")])
    );
    assert_eq!(
        callees(&s, "src/hot.ts:Hot.setup"),
        pairs(&[("src/scheduler.ts:Scheduler.schedule", "type")])
    );
    // A declared `this` holds inside its function only, not before it.
    assert_eq!(
        callees(&s, "src/table.ts:Table.render"),
        pairs(&[
            ("src/table.ts:Row.draw", "type"),
            ("src/table.ts:Table.draw", "container")
        ])
    );
    // `new` of a field holding a class makes one of that class.
    assert_eq!(
        callees(&s, "src/scheduler.ts:Scheduler.schedule"),
        pairs(&[("src/scheduler.ts:Action.schedule", "type")])
    );
    // `super(..)` runs the extended class's constructor, not an interface's.
    assert_eq!(
        callees(&s, "src/operator.ts:OperatorSubscriber.constructor"),
        pairs(&[("src/subscriber.ts:Subscriber", "base")])
    );
}

#[test]
fn fields_and_module_values_take_the_types_their_assignments_state() {
    let s = snapshot(&[
        (
            "pkg/config.py",
            "class Config:\n    def load(self):\n        pass\n\nclass Other:\n    def load(self):\n        pass\n\n    def dump(self):\n        pass\n",
        ),
        (
            "pkg/base.py",
            "from pkg.config import Config\n\nclass App:\n    def __init__(self):\n        self.config = self.make_config()\n\n    def make_config(self) -> Config:\n        return Config()\n\n    def teardown(self):\n        pass\n",
        ),
        (
            "pkg/app.py",
            "from pkg.base import App\n\nclass Flask(App):\n    pass\n",
        ),
        (
            "pkg/globals.py",
            "from pkg.app import Flask\n\ncurrent: Flask = make_proxy()\n",
        ),
        (
            "pkg/ctx.py",
            "from pkg.app import Flask\nfrom pkg.globals import current\n\nclass Ctx:\n    def __init__(self, app: Flask, other):\n        self.app = app\n        self.other = other\n\n    def pop(self):\n        self.app.teardown()\n        self.other.dump()\n\ndef use():\n    current.config.load()\n    current.teardown()\n",
        ),
        (
            "tests/test_config.py",
            "import pkg.app\n\ndef test_load():\n    app = pkg.app.Flask()\n    app.config.load()\n\ndef test_custom():\n    class Flask(pkg.app.Flask):\n        pass\n\n    app = Flask()\n    app.config.load()\n",
        ),
    ]);
    // `self.app = app` of a parameter typed `Flask`: the inherited `teardown`; an untyped
    // parameter's field stays a guess.
    assert_eq!(
        callees(&s, "pkg/ctx.py:Ctx.pop"),
        pairs(&[
            ("pkg/base.py:App.teardown", "type"),
            ("pkg/config.py:Other.dump", "name")
        ])
    );
    // A module's variable typed where it is declared, imported: its type's methods; a
    // field a base class assigns a method's result holds what the method returns.
    assert_eq!(
        callees(&s, "pkg/ctx.py:use"),
        pairs(&[
            ("pkg/base.py:App.teardown", "type"),
            ("pkg/config.py:Config.load", "type")
        ])
    );
    // The test's local subclass `Flask` is not the `Flask` another test makes (which
    // `import pkg.app` names through its whole path).
    assert_eq!(
        callees(&s, "tests/test_config.py:test_load"),
        pairs(&[
            ("pkg/app.py:Flask", "import"),
            ("pkg/config.py:Config.load", "type")
        ])
    );
}

#[test]
fn rust_results_unwrapped_keep_the_value_s_type() {
    let s = snapshot(&[
        (
            "src/build.rs",
            "pub struct Builder;\npub struct Built;\npub struct Other;\n\nimpl Builder {\n    pub fn new() -> Builder {\n        Builder\n    }\n    pub fn add(&mut self, g: &str) -> Result<&mut Builder, Error> {\n        Ok(self)\n    }\n    pub fn build(&self) -> io::Result<Built> {\n        Ok(Built)\n    }\n}\n\nimpl Built {\n    pub fn run(&self) {}\n}\n\nimpl Other {\n    pub fn build(&self) {}\n    pub fn run(&self) {}\n}\n",
        ),
        (
            "src/main.rs",
            "use crate::build::Builder;\n\nfn go() -> io::Result<()> {\n    let b = Builder::new().add(\"x\").unwrap().build()?;\n    Builder::new().add(\"y\")?.build()?.run();\n    Ok(())\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/main.rs:go"),
        pairs(&[
            ("src/build.rs:Builder.add", "type"),
            ("src/build.rs:Builder.build", "type"),
            ("src/build.rs:Builder.new", "import"),
            ("src/build.rs:Built.run", "type"),
        ])
    );
}

#[test]
fn a_rust_pattern_of_a_variant_binds_the_variant_s_field() {
    let s = snapshot(&[
        (
            "src/entry.rs",
            "pub struct Raw;\npub struct Walked;\npub struct Error;\n\nimpl Raw {\n    pub fn path(&self) {}\n    pub fn depth(&self) {}\n}\n\nimpl Walked {\n    pub fn new() -> Walked {\n        Walked\n    }\n    pub fn path(&self) {}\n    pub fn depth(&self) {}\n}\n\nimpl Error {\n    pub fn kind(&self) {}\n}\n\npub enum Inner {\n    Stdin,\n    Walk(Walked),\n    Direct(Raw),\n    Pair(Raw, Walked),\n    Io(io::Error),\n}\n\nimpl Inner {\n    pub fn raw(&self) -> Option<Raw> {\n        None\n    }\n}\n",
        ),
        (
            "src/use.rs",
            "use crate::entry::Inner;\n\nfn path(i: &Inner) {\n    use self::Inner::*;\n    match *i {\n        Stdin => {}\n        Direct(ref x) => x.path(),\n        Pair(a, b) => a.path(),\n        Io(e) => e.kind(),\n    }\n}\n\nfn walked(i: Inner) {\n    if let Inner::Walk(w) = i {\n        w.path();\n    }\n}\n\nfn arms(i: &Inner) {\n    match *i {\n        Inner::Walk(ref x) => x.depth(),\n        Inner::Direct(ref x) => {}\n        _ => {}\n    }\n}\n\nfn closure() {\n    let w = Walked::new();\n    run(|w: &Raw| {\n        w.depth()\n    });\n    w.path();\n}\n\nfn tried(i: &Inner) -> Option<()> {\n    let r = i.raw()?;\n    r.depth();\n    None\n}\n",
        ),
    ]);
    // A variant of two fields binds neither as the variant's: a guess stays a guess. A
    // library's `io::Error` is not the project's `Error`, not even as a guess.
    assert_eq!(
        callees(&s, "src/use.rs:path"),
        pairs(&[
            ("src/entry.rs:Raw.path", "type"),
            ("src/entry.rs:Walked.path", "name"),
        ])
    );
    assert_eq!(
        callees(&s, "src/use.rs:walked"),
        pairs(&[("src/entry.rs:Walked.path", "type")])
    );
    // Each arm's `x` is its own: the latest binding before the call.
    assert_eq!(
        callees(&s, "src/use.rs:arms"),
        pairs(&[("src/entry.rs:Walked.depth", "type")])
    );
    // A variable assigned what `?` makes of a call's result.
    assert_eq!(
        callees(&s, "src/use.rs:tried"),
        pairs(&[
            ("src/entry.rs:Inner.raw", "type"),
            ("src/entry.rs:Raw.depth", "type")
        ])
    );
    // A closure's parameter holds inside the closure only.
    assert_eq!(
        callees(&s, "src/use.rs:closure"),
        pairs(&[
            ("src/entry.rs:Raw.depth", "type"),
            ("src/entry.rs:Walked.new", "container"),
            ("src/entry.rs:Walked.path", "type"),
        ])
    );
}

#[test]
fn a_variable_assigned_a_method_s_value_has_that_method_s_return_type() {
    let s = snapshot(&[
        (
            "pkg/kinds.py",
            "class Match:\n    def is_none(self):\n        pass\n\nclass Other:\n    def is_none(self):\n        pass\n",
        ),
        (
            "pkg/ignore.py",
            "from pkg.kinds import Match\n\nclass Ignore:\n    def matched(self, p) -> Match:\n        return Match()\n",
        ),
        (
            "pkg/incremental.py",
            "from pkg.kinds import Other\nfrom pkg.ignore import Ignore\n\nclass Cached:\n    def matched(self, p) -> Other:\n        return Other()\n\ndef check(ig: Ignore, p):\n    m = ig.matched(p)\n    m.is_none()\n",
        ),
    ]);
    // A name assigned from itself (`node = node.parent.up()`) is followed a few calls deep,
    // not forever.
    let s2 = snapshot(&[(
        "pkg/tree.py",
        "class Node:\n    def up(self) -> Node:\n        return self\n\ndef walk(node: Node):\n    node = node.parent.up()\n    node = node.up().up()\n    node.up()\n",
    )]);
    assert_eq!(
        callees(&s2, "pkg/tree.py:walk"),
        pairs(&[("pkg/tree.py:Node.up", "type")])
    );
    // The receiver's type tells which `matched`: not the one of the caller's own file.
    assert_eq!(
        callees(&s, "pkg/incremental.py:check"),
        pairs(&[
            ("pkg/ignore.py:Ignore.matched", "type"),
            ("pkg/kinds.py:Match.is_none", "type")
        ])
    );
}

#[test]
fn a_test_s_fixture_parameter_is_the_value_its_fixture_makes() {
    let s = snapshot(&[
        (
            "src/app.py",
            "class Base:\n    def register(self):\n        pass\n\nclass App(Base):\n    def run(self):\n        pass\n\nclass Other:\n    def run(self):\n        pass\n\n    def register(self):\n        pass\n",
        ),
        (
            "tests/conftest.py",
            "import pytest\nfrom src.app import App\n\n\n@pytest.fixture\ndef app():\n    app = App()\n    return app\n",
        ),
        (
            "tests/test_app.py",
            "def test_run(app):\n    app.run()\n    app.register()\n\ndef test_local():\n    app.run()\n",
        ),
        (
            "tests/sub/test_own.py",
            "import pytest\nfrom src.app import Other\n\n@pytest.fixture\ndef app() -> Other:\n    return Other()\n\ndef test_own(app):\n    app.run()\n",
        ),
        ("other/test_far.py", "def test_far(app):\n    app.run()\n"),
    ]);
    // The conftest's fixture, inherited methods included.
    assert_eq!(
        callees(&s, "tests/test_app.py:test_run"),
        pairs(&[
            ("src/app.py:App.run", "fixture"),
            ("src/app.py:Base.register", "fixture")
        ])
    );
    // Not a parameter: no fixture, only guesses.
    assert!(
        callees(&s, "tests/test_app.py:test_local")
            .iter()
            .all(|(_, how)| *how == "name")
    );
    // The module's own fixture wins over the conftest's; a conftest is not seen from
    // outside its directory.
    assert_eq!(
        callees(&s, "tests/sub/test_own.py:test_own"),
        pairs(&[("src/app.py:Other.run", "fixture")])
    );
    assert!(
        callees(&s, "other/test_far.py:test_far")
            .iter()
            .all(|(_, how)| *how == "name")
    );
}

#[test]
fn a_call_through_an_interface_dispatches_to_the_classes_implementing_it() {
    let s = snapshot(&[
        (
            "src/types.ts",
            "export interface Observer {\n  complete: () => void;\n}\n",
        ),
        (
            "src/sink.ts",
            "import { Observer } from './types';\n\nexport class Sink implements Observer {\n  complete() {}\n}\n\nexport class Loud extends Sink {\n  complete() {}\n}\n\nexport class Other {\n  complete() {}\n}\n",
        ),
        (
            "src/use.ts",
            "import { Observer } from './types';\nimport { Sink } from './sink';\n\nexport function finish(o: Observer) {\n  o.complete();\n}\n\nexport function direct(s: Sink) {\n  s.complete();\n}\n\nexport class Relay {\n  constructor(public destination?: Observer) {}\n\n  complete() {\n    this.destination?.complete?.();\n  }\n}\n",
        ),
    ]);
    // Every class below the interface that defines it; never an unrelated class.
    assert_eq!(
        callees(&s, "src/use.ts:finish"),
        pairs(&[
            ("src/sink.ts:Loud.complete", "dispatch"),
            ("src/sink.ts:Sink.complete", "dispatch"),
        ])
    );
    // Through a field a constructor's optional parameter declares.
    assert_eq!(
        callees(&s, "src/use.ts:Relay.complete"),
        pairs(&[
            ("src/sink.ts:Loud.complete", "dispatch"),
            ("src/sink.ts:Sink.complete", "dispatch"),
        ])
    );
    // A type with the method itself: that method, no dispatch.
    assert_eq!(
        callees(&s, "src/use.ts:direct"),
        pairs(&[("src/sink.ts:Sink.complete", "type")])
    );
}

#[test]
fn a_call_edge_keeps_the_best_resolution_once() {
    let s = snapshot(&[("x.py", "def f():\n    pass\n\ndef g():\n    f()\n    f()\n")]);
    let calls: Vec<_> = s
        .graph
        .calls
        .iter()
        .map(|e| (e.confidence, e.line))
        .collect();
    assert_eq!(calls, vec![(Confidence::File, 5)]);
}

/// A git repository made with the `git` command (the test's tool; the product reads with
/// gix), commits dated one minute apart so the order is known.
struct Repo {
    dir: tempfile::TempDir,
    commits: u32,
}

impl Repo {
    fn new() -> Self {
        let repo = Self {
            dir: tempfile::tempdir().unwrap(),
            commits: 0,
        };
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    fn git(&self, args: &[&str]) {
        let date = format!("2026-01-01T00:{:02}:00Z", self.commits % 60);
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.com"])
            .args(["-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(self.dir.path())
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("HOME", self.dir.path())
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    }

    /// One commit writing `files` (each gets a new line, so each really changes).
    fn commit(&mut self, files: &[&str]) {
        self.commits += 1;
        for f in files {
            let path = self.dir.path().join(f);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            let mut text = std::fs::read_to_string(&path).unwrap_or_default();
            text.push_str(&format!("# change {}\n", self.commits));
            std::fs::write(path, text).unwrap();
        }
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", &format!("c{}", self.commits)]);
    }
}

#[test]
fn churn_counts_the_commits_that_changed_each_file_without_merges_or_bulk_changes() {
    use super::churn;
    let mut repo = Repo::new();
    repo.commit(&["pkg/a.py", "pkg/b.py"]);
    for _ in 0..4 {
        repo.commit(&["pkg/a.py"]);
    }
    // A branch merged back: its own commit counts, the merge commit does not.
    repo.git(&["checkout", "-q", "-b", "side"]);
    repo.commit(&["pkg/b.py"]);
    repo.git(&["checkout", "-q", "main"]);
    repo.commit(&["pkg/c.py"]);
    repo.git(&["merge", "-q", "--no-ff", "-m", "merge", "side"]);
    // A bulk change touches every file once more and is left out.
    let bulk: Vec<String> = (0..churn::BULK_FILES + 1)
        .map(|i| format!("gen/f{i}.py"))
        .chain(["pkg/b.py".to_string()])
        .collect();
    repo.commit(&bulk.iter().map(String::as_str).collect::<Vec<_>>());

    let root = repo.dir.path().canonicalize().unwrap();
    let h = churn::read(&root, churn::MAX_COMMITS, churn::DEADLINE).unwrap();
    assert!(h.complete);
    assert_eq!(h.commits, 7, "5 on main, 1 on the side branch, 1 for c.py");
    assert_eq!(h.changes.get("pkg/a.py"), Some(&5));
    assert_eq!(h.changes.get("pkg/b.py"), Some(&2));
    assert_eq!(h.changes.get("pkg/c.py"), Some(&1));
    assert_eq!(h.changes.get("gen/f0.py"), None);

    // The window: the newest commits only (the bulk one, the merge, c.py's, the side one).
    let newest = churn::read(&root, 4, churn::DEADLINE).unwrap();
    assert_eq!(newest.commits, 2);
    assert_eq!(newest.changes.get("pkg/a.py"), None);
    // A deadline already past reads nothing and says the window is incomplete.
    let none = churn::read(&root, churn::MAX_COMMITS, std::time::Duration::ZERO).unwrap();
    assert!(!none.complete && none.commits == 0);
}

/// Writes `text` to `path` in the repository and commits it.
fn commit_text(repo: &mut Repo, path: &str, text: &str) {
    repo.commits += 1;
    let file = repo.dir.path().join(path);
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(file, text).unwrap();
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", &format!("c{}", repo.commits)]);
}

#[test]
fn churn_follows_each_commit_s_lines_to_head() {
    use super::churn;
    let mut repo = Repo::new();
    // Two functions; `busy` is edited three times, `calm` never after the first commit, and
    // lines added above both later move them (the old edits must still land on `busy`).
    let file = |busy: &str, header: &str| {
        format!("{header}def calm(x):\n    return x\n\n\ndef busy(x):\n    return {busy}\n")
    };
    commit_text(&mut repo, "m/a.py", &file("x", ""));
    commit_text(&mut repo, "m/a.py", &file("x + 1", ""));
    commit_text(&mut repo, "m/a.py", &file("x + 2", ""));
    commit_text(
        &mut repo,
        "m/a.py",
        &file("x + 2", "import os\nimport sys\n\n\n"),
    );
    commit_text(
        &mut repo,
        "m/a.py",
        &file("x + 3", "import os\nimport sys\n\n\n"),
    );
    let root = repo.dir.path().canonicalize().unwrap();
    let h = churn::read(&root, churn::MAX_COMMITS, churn::DEADLINE).unwrap();
    assert_eq!(h.changes.get("m/a.py"), Some(&5));
    let lines = &h.lines["m/a.py"];
    assert_eq!(lines.len(), 5, "every commit followed: {lines:?}");
    // HEAD: imports at 1-2, calm at 5-6, busy at 9-10. Newest first.
    assert_eq!(lines[0], vec![(10, 10)], "the last edit of busy");
    assert_eq!(lines[1], vec![(1, 4)], "the imports");
    assert_eq!(
        lines[2],
        vec![(10, 10)],
        "an older edit of busy, moved down by 4 and rewritten since: where its rewrite is"
    );
    assert_eq!(lines[3], vec![(10, 10)], "the oldest edit of busy");
    assert_eq!(lines[4], vec![(5, 10)], "the first commit: all of it");

    // Through the graph: busy's own count, not its file's.
    let s = snapshot(&[("m/a.py", &file("x + 3", "import os\nimport sys\n\n\n"))]);
    let c = super::churn_of(&s, &h);
    let count = |name: &str| {
        let i = (0..s.graph.symbols.len() as u32)
            .find(|&i| label(&s, i) == format!("m/a.py:{name}"))
            .unwrap();
        c.per_symbol[i as usize]
    };
    assert_eq!((count("calm"), count("busy")), (1, 4));
    assert_eq!(c.by_line, vec![true]);

    // A commit on a side branch is followed through the merge that brought it in.
    repo.git(&["checkout", "-q", "-b", "side", "HEAD~1"]);
    commit_text(&mut repo, "m/b.py", "def other():\n    return 1\n");
    repo.git(&["checkout", "-q", "main"]);
    commit_text(
        &mut repo,
        "m/a.py",
        &file("x + 4", "import os\nimport sys\n\n\n"),
    );
    repo.git(&["checkout", "-q", "side"]);
    commit_text(
        &mut repo,
        "m/a.py",
        &file("x + 2", "import os\nimport re\n\n\n"),
    );
    repo.git(&["checkout", "-q", "main"]);
    repo.commits += 1;
    repo.git(&["merge", "-q", "--no-ff", "-m", "merge", "side"]);
    let h = churn::read(&root, churn::MAX_COMMITS, churn::DEADLINE).unwrap();
    assert_eq!(
        h.changes.get("m/a.py"),
        Some(&7),
        "the merge is not counted"
    );
    let lines = &h.lines["m/a.py"];
    assert_eq!(lines.len(), 7, "{h:?}");
    assert_eq!(lines[0], vec![(2, 2)], "the side branch's import: {h:?}");
    assert_eq!(lines[1], vec![(10, 10)], "main's edit of busy: {h:?}");
    assert_eq!(h.lines["m/b.py"], vec![vec![(1, 2)]]);
    // Without following, the same files and commits, known for the files only.
    let plain = churn::read_with(&root, churn::MAX_COMMITS, churn::DEADLINE, false).unwrap();
    assert_eq!((plain.changes, plain.commits), (h.changes, h.commits));
    assert!(plain.lines.is_empty());
}

#[test]
fn churn_reads_only_a_git_directory_that_is_in_the_root() {
    use super::churn;
    let mut repo = Repo::new();
    repo.commit(&["a.py"]);
    let elsewhere = tempfile::tempdir().unwrap();
    let root = elsewhere.path().canonicalize().unwrap();
    std::fs::write(root.join("a.py"), "x = 1\n").unwrap();
    assert_eq!(
        churn::read(&root, 10, churn::DEADLINE).unwrap_err().reason,
        "no_git_history"
    );
    // A link named .git (to another repository's history) is refused, not followed.
    std::os::unix::fs::symlink(repo.dir.path().join(".git"), root.join(".git")).unwrap();
    assert_eq!(
        churn::read(&root, 10, churn::DEADLINE).unwrap_err().reason,
        "git_link_refused"
    );
    // So is a pointer file.
    std::fs::remove_file(root.join(".git")).unwrap();
    std::fs::write(
        root.join(".git"),
        format!("gitdir: {}\n", repo.dir.path().join(".git").display()),
    )
    .unwrap();
    assert_eq!(
        churn::read(&root, 10, churn::DEADLINE).unwrap_err().reason,
        "no_git_history"
    );
    // A damaged repository is an error with a reason, not a panic.
    std::fs::remove_file(root.join(".git")).unwrap();
    std::fs::create_dir_all(root.join(".git/objects")).unwrap();
    std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    assert!(churn::read(&root, 10, churn::DEADLINE).is_err());
}

#[test]
fn hot_spots_rank_the_function_whose_file_keeps_changing_first() {
    // Two functions alike in every measure but their files' history.
    let body = |name: &str| {
        let mut s = format!("def {name}(x):\n");
        for i in 0..10 {
            s.push_str(&format!("    if x == {i}:\n        x += 1\n"));
        }
        s.push_str("    return x\n");
        s
    };
    let (calm, busy) = (body("calm"), body("busy"));
    let mut files: Vec<(String, String)> =
        vec![("m/calm.py".into(), calm), ("m/busy.py".into(), busy)];
    for i in 0..18 {
        files.push((
            format!("m/small_{i}.py"),
            format!("def s{i}():\n    return {i}\n"),
        ));
    }
    let s = snapshot(&files);
    let per_symbol = (0..s.graph.symbols.len() as u32)
        .map(|i| {
            if label(&s, i) == "m/busy.py:busy" {
                12
            } else {
                1
            }
        })
        .collect();
    let churn = super::hotspots::Churn {
        per_symbol,
        by_line: vec![true; s.graph.files.len()],
        commits: 40,
    };
    let hot = super::hotspots::hot_spots(&s, Some(&churn));
    assert_eq!(label(&s, hot[0].symbol), "m/busy.py:busy", "{hot:?}");
    assert!(hot[0].score > hot[1].score);
    assert!(
        hot[0]
            .reasons
            .iter()
            .any(|r| r.starts_with("its lines changed in 12 of the last 40 commits")),
        "{hot:?}"
    );
    // Without a history the two tie on every measure but their order.
    let plain = super::hotspots::hot_spots(&s, None);
    assert!((plain[0].score - plain[1].score).abs() < 1e-6, "{plain:?}");
}

#[test]
fn a_bare_call_means_a_function_not_another_class_s_method() {
    // Python: `ngettext()` in a function is the module's function, never a method of a class
    // the file also defines (found by the call-graph check on Django's trans_real.py).
    let s = snapshot(&[(
        "t/trans.py",
        "class Catalog:\n    def ngettext(self, a):\n        return a\n\n    def other(self):\n        return ngettext(1)\n\n\ndef ngettext(a):\n    return a\n\n\ndef npgettext(a):\n    return ngettext(a)\n",
    )]);
    assert_eq!(
        callees(&s, "t/trans.py:npgettext"),
        pairs(&[("t/trans.py:ngettext", "file")])
    );
    assert_eq!(
        callees(&s, "t/trans.py:Catalog.other"),
        pairs(&[("t/trans.py:ngettext", "file")]),
        "a bare call inside a class is not self.ngettext in Python"
    );
    // Java: a bare call inside a class is the class's own method (implicit this).
    let j = snapshot(&[(
        "src/A.java",
        "class A {\n  int size() { return 1; }\n  int twice() { return size() * 2; }\n}\n",
    )]);
    assert_eq!(
        callees(&j, "src/A.java:A.twice"),
        pairs(&[("src/A.java:A.size", "container")])
    );
}

#[test]
fn a_method_through_an_imported_class_is_that_class_s_method() {
    // `MigrationWriter.serialize(v)`: the module also has `OperationWriter.serialize`.
    let s = snapshot(&[
        (
            "m/writer.py",
            "class OperationWriter:\n    def serialize(self):\n        pass\n\n\nclass MigrationWriter:\n    @classmethod\n    def serialize(cls, v):\n        pass\n\n\ndef serialize(v):\n    pass\n",
        ),
        (
            "t/test_writer.py",
            "from m.writer import MigrationWriter\nfrom m import writer\n\n\ndef check():\n    MigrationWriter.serialize(1)\n\n\ndef check_module():\n    writer.serialize(1)\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "t/test_writer.py:check"),
        pairs(&[("m/writer.py:MigrationWriter.serialize", "import")])
    );
    assert_eq!(
        callees(&s, "t/test_writer.py:check_module"),
        pairs(&[("m/writer.py:serialize", "import")]),
        "through a module: its top-level function, not a method of one of its classes"
    );
}

#[test]
fn a_name_imported_beside_a_submodule_binds_to_the_package_s_definition() {
    // `from pkg.tr import npgettext, trans_real`: the line also resolves to trans_real.py,
    // which defines its own npgettext; the package's is the one imported.
    let s = snapshot(&[
        ("pkg/tr/__init__.py", "def npgettext(a):\n    pass\n"),
        ("pkg/tr/trans_real.py", "def npgettext(a):\n    pass\n"),
        (
            "t/test_tr.py",
            "from pkg.tr import npgettext, trans_real\n\n\ndef test():\n    npgettext(1)\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "t/test_tr.py:test"),
        pairs(&[("pkg/tr/__init__.py:npgettext", "import")])
    );
}

#[test]
fn a_damaged_object_ends_the_walk_and_says_the_window_is_partial() {
    use super::churn;
    let mut repo = Repo::new();
    for _ in 0..3 {
        repo.commit(&["a.py"]);
    }
    let parent = std::process::Command::new("git")
        .args(["rev-parse", "HEAD~1"])
        .current_dir(repo.dir.path())
        .output()
        .unwrap();
    let id = String::from_utf8(parent.stdout).unwrap();
    let object = repo
        .dir
        .path()
        .join(".git/objects")
        .join(&id[..2])
        .join(id[2..].trim());
    let mut perms = std::fs::metadata(&object).unwrap().permissions();
    #[allow(clippy::permissions_set_readonly_false)]
    perms.set_readonly(false);
    std::fs::set_permissions(&object, perms).unwrap();
    std::fs::write(&object, b"not a zlib stream").unwrap();
    let root = repo.dir.path().canonicalize().unwrap();
    let h = churn::read(&root, churn::MAX_COMMITS, churn::DEADLINE).unwrap();
    assert!(!h.complete, "{h:?}");
    assert!(h.commits < 3, "{h:?}");
}

mod incremental {
    //! An updated graph is the graph built from scratch: random small Python packages, then
    //! one file edited, added or removed (or several at once), checked edge by edge.
    use super::facts;
    use crate::analysis::graph::Graph;
    use proptest::prelude::*;
    use std::sync::Arc;

    const MODULES: &[&str] = &["a", "b", "c", "d", "__init__", "conftest"];
    const NAMES: &[&str] = &["f", "g", "h", "run", "save"];

    /// One line of a module: an import, a function, a class with a method, or a call.
    fn line() -> impl Strategy<Value = String> {
        let module = proptest::sample::select(&MODULES[..4]);
        let name = proptest::sample::select(NAMES);
        prop_oneof![
            (module.clone(), name.clone()).prop_map(|(m, n)| format!("from pkg.{m} import {n}")),
            (module.clone(), name.clone())
                .prop_map(|(m, n)| format!("from pkg.{m} import {n} as al")),
            module.clone().prop_map(|m| format!("from pkg import {m}")),
            module
                .clone()
                .prop_map(|m| format!("from pkg.{m} import al")),
            module
                .clone()
                .prop_map(|m| format!("import pkg.{m} as {m}m")),
            (name.clone(), name.clone(), module.clone()).prop_map(|(d, c, m)| format!(
                "def {d}(x):\n    {c}(x)\n    al(x)\n    {m}.{c}(x)\n    {m}m.{d}(x)"
            )),
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "class K{d}:\n    def {d}(self):\n        self.{c}()\n        {c}()"
            )),
            (name.clone(), name.clone()).prop_map(|(d, c)| format!("def {d}():\n    return {c}()")),
            // A base class, super() and an inherited method (the base may be anywhere).
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "class K{d}(K{c}):\n    def {c}(self):\n        super().{c}()\n        self.{d}()"
            )),
            (module.clone(), name.clone()).prop_map(|(m, b)| format!("from pkg.{m} import K{b}")),
            // Calls on typed names: a parameter, a constructed local and a field.
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "def {d}(x: K{c}):\n    x.{c}()\n    y = K{d}()\n    y.{d}()"
            )),
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "class K{d}:\n    def __init__(self):\n        self.h = K{c}()\n\n    def {d}(self):\n        self.h.{c}()"
            )),
            // Chains through fields of classes declared anywhere.
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "class K{d}:\n    def __init__(self):\n        self.h = K{c}()\n\n    def {d}(self, x: K{c}):\n        x.h.{d}()\n        self.h.h.{c}()"
            )),
            // A field assigned a typed parameter or a method's result, and a module's typed
            // variable, imported and called through.
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "class K{d}(K{c}):\n    def __init__(self, p: K{c}):\n        self.p = p\n        self.q = self.mk{c}()\n\n    def {d}(self):\n        self.p.{c}()\n        self.q.{d}()"
            )),
            name.clone().prop_map(|c| format!("v{c}: K{c} = proxy()")),
            (module.clone(), name.clone()).prop_map(|(m, c)| format!(
                "from pkg.{m} import v{c}\n\ndef use_v{c}():\n    v{c}.{c}()\n    v{c}.q.{c}()"
            )),
            // A pytest fixture (in a conftest or a module) and a test taking it.
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "import pytest\n\n@pytest.fixture\ndef f{d}():\n    f{d} = K{c}()\n    return f{d}\n\ndef test_{c}(f{d}):\n    f{d}.{c}()"
            )),
            (name.clone(), name.clone()).prop_map(|(d, c)| format!("def test_{d}(f{c}):\n    f{c}.{d}()")),
            // A function's declared return type, and a variable assigned its result.
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "def mk{d}() -> K{c}:\n    return K{c}()\n\ndef use{d}():\n    v = mk{c}()\n    v.{d}()"
            )),
            // An import that binds only inside its function.
            (name.clone(), name.clone(), module.clone()).prop_map(|(d, c, m)| format!(
                "def {d}(x):\n    from pkg.{m} import {c}\n    return {c}(x)"
            )),
            // A star import: a package's __init__ gathering its modules, or a module another.
            module.clone().prop_map(|m| format!("from pkg.{m} import *")),
            // A context manager's value, and a function declared inside another, seen only
            // there.
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "def w{d}():\n    with K{c}() as w:\n        w.{d}()"
            )),
            (name.clone(), name.clone()).prop_map(|(d, c)| format!(
                "def o{d}():\n    def {c}():\n        pass\n    {c}()\n\ndef p{d}():\n    {c}()"
            )),
            // Through the package (its __init__ may re-export), and an absolute import that
            // names a module of the package only where no __init__ makes it one.
            (name.clone(), name.clone())
                .prop_map(|(d, c)| format!("import pkg\n\ndef {d}():\n    pkg.{c}()")),
            (module, name).prop_map(|(m, c)| format!("import {m}\n\ndef main():\n    {m}.{c}()")),
        ]
    }

    fn module() -> impl Strategy<Value = String> {
        proptest::collection::vec(line(), 0..6).prop_map(|lines| lines.join("\n\n") + "\n")
    }

    /// Files of a package: which modules exist and their text.
    fn package() -> impl Strategy<Value = Vec<(String, String)>> {
        proptest::collection::vec((proptest::sample::select(MODULES), module()), 1..6).prop_map(
            |files| {
                let mut files: Vec<(String, String)> = files
                    .into_iter()
                    .map(|(m, text)| (format!("pkg/{m}.py"), text))
                    .collect();
                files.sort_by(|a, b| a.0.cmp(&b.0));
                files.dedup_by(|a, b| a.0 == b.0);
                files
            },
        )
    }

    /// Every edge of a graph, by paths and names, so graphs with the same files compare.
    fn edges(g: &Graph) -> (Vec<String>, Vec<String>, usize) {
        let sym = |s: u32| {
            let n = &g.symbols[s as usize];
            format!(
                "{}#{}@{}",
                g.files[n.file as usize].path,
                g.qualified(s),
                n.symbol().start_line
            )
        };
        let calls = g
            .calls
            .iter()
            .map(|e| {
                format!(
                    "{} -> {} line {} {:?}",
                    sym(e.from),
                    sym(e.to),
                    e.line,
                    e.confidence
                )
            })
            .collect();
        let imports = g
            .imports
            .iter()
            .map(|e| {
                format!(
                    "{} -> {} line {}",
                    g.files[e.from as usize].path, g.files[e.to as usize].path, e.line
                )
            })
            .collect();
        (calls, imports, g.unresolved_calls)
    }

    fn graph(files: &[(String, String)]) -> (Graph, Vec<Arc<crate::index::facts::FileFacts>>) {
        let facts: Vec<_> = files.iter().map(|(p, s)| facts(p, s)).collect();
        (Graph::build(&facts), facts)
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

        #[test]
        fn an_updated_graph_is_the_graph_built_from_scratch(
            before in package(),
            edits in proptest::collection::vec((0usize..6, edit()), 1..4),
        ) {
            let (old, _) = graph(&before);
            let mut next = before.clone();
            for (at, edit) in edits {
                apply(&mut next, at, edit);
            }
            let (full, facts) = graph(&next);
            let updated = Graph::update(Some(&old), &facts);
            prop_assert_eq!(edges(&updated), edges(&full));
            // And once more from the updated graph, nothing changed: nothing resolved again.
            let again = Graph::update(Some(&updated), &facts);
            prop_assert_eq!(again.resolved_again, 0);
            prop_assert_eq!(edges(&again), edges(&full));
        }
    }

    /// What happens to one file between two graphs.
    #[derive(Debug, Clone)]
    enum Edit {
        /// A line added at its end (a body edited; definitions often stay as they were).
        Append(String),
        /// Another text altogether.
        Replace(String),
        /// The same text with a blank line first: every line moves, nothing else.
        Shift,
        Remove,
        /// A module written (added when it was not there).
        Write(&'static str, String),
    }

    fn edit() -> impl Strategy<Value = Edit> {
        prop_oneof![
            line().prop_map(Edit::Append),
            module().prop_map(Edit::Replace),
            Just(Edit::Shift),
            Just(Edit::Remove),
            (proptest::sample::select(MODULES), module()).prop_map(|(m, t)| Edit::Write(m, t)),
        ]
    }

    fn apply(files: &mut Vec<(String, String)>, at: usize, edit: Edit) {
        let i = at % files.len().max(1);
        match edit {
            Edit::Append(line) if !files.is_empty() => files[i].1.push_str(&format!("\n{line}\n")),
            Edit::Replace(text) if !files.is_empty() => files[i].1 = text,
            Edit::Shift if !files.is_empty() => files[i].1.insert(0, '\n'),
            Edit::Remove if !files.is_empty() => {
                files.remove(i);
            }
            Edit::Write(m, text) => {
                let path = format!("pkg/{m}.py");
                files.retain(|(p, _)| *p != path);
                files.push((path, text));
                files.sort();
            }
            _ => {}
        }
    }

    /// G calls `al`, which F binds to X's `f` under another name: when X changes, G's edge
    /// depends on it through F (two imports away, and not by name).
    #[test]
    fn a_re_exported_alias_two_imports_away_is_resolved_again() {
        let files = |body: &str| -> Vec<(String, String)> {
            vec![
                (
                    "pkg/g.py".into(),
                    "from pkg.reexport import al\n\ndef use():\n    return al()\n".into(),
                ),
                (
                    "pkg/reexport.py".into(),
                    "from pkg.x import f as al\n".into(),
                ),
                ("pkg/x.py".into(), body.into()),
            ]
        };
        let (old, _) = graph(&files("def other():\n    pass\n"));
        let (full, facts) = graph(&files("def f():\n    pass\n"));
        let updated = Graph::update(Some(&old), &facts);
        assert_eq!(edges(&updated), edges(&full));
        assert_eq!(edges(&full).0.len(), 1, "{:?}", edges(&full));
    }

    /// G calls `n` through x, which re-exports it: when x imports it from elsewhere, G's
    /// edge moves, though no definition changed.
    #[test]
    fn a_re_export_that_changes_its_source_is_followed() {
        let files = |from: &str| -> Vec<(String, String)> {
            vec![
                (
                    "pkg/g.py".into(),
                    "from pkg.x import n\n\ndef use():\n    return n()\n".into(),
                ),
                ("pkg/x.py".into(), format!("from pkg.{from} import n\n")),
                ("pkg/y.py".into(), "def n():\n    pass\n".into()),
                ("pkg/z.py".into(), "def n():\n    pass\n".into()),
            ]
        };
        let (old, _) = graph(&files("y"));
        let (full, facts) = graph(&files("z"));
        let updated = Graph::update(Some(&old), &facts);
        assert_eq!(edges(&updated), edges(&full));
        assert!(
            edges(&full).0.iter().any(|e| e.contains("-> pkg/z.py#n")),
            "{:?}",
            edges(&full)
        );
    }

    /// Each pair: the files before and after, where the update must still match a fresh
    /// build although the file whose edges move is not itself edited.
    fn updates_match(before: &[(&str, &str)], after: &[(&str, &str)], expect: (&str, bool)) {
        let own = |v: &[(&str, &str)]| -> Vec<(String, String)> {
            v.iter()
                .map(|(p, t)| (p.to_string(), t.to_string()))
                .collect()
        };
        let (old, _) = graph(&own(before));
        let (full, facts) = graph(&own(after));
        let updated = Graph::update(Some(&old), &facts);
        assert_eq!(edges(&updated), edges(&full));
        assert_eq!(
            edges(&full).0.iter().any(|e| e.contains(expect.0)),
            expect.1,
            "{:?}",
            edges(&full)
        );
    }

    #[test]
    fn a_package_that_appears_unbinds_absolute_imports_inside_it() {
        let user = (
            "pkg/b.py",
            "import a\n\ndef main():\n    a.f()\n\ndef f():\n    pass\n",
        );
        let module = ("pkg/a.py", "def f():\n    pass\n");
        // Without pkg/__init__.py, pkg is a directory on the path: `import a` is pkg/a.py.
        updates_match(
            &[module, user],
            &[("pkg/__init__.py", ""), module, user],
            ("-> pkg/a.py#f", false),
        );
        updates_match(
            &[("pkg/__init__.py", ""), module, user],
            &[module, user],
            ("-> pkg/a.py#f", true),
        );
    }

    /// A package's `__init__` that starts or stops gathering a module by a star import, and
    /// a module two star imports away that gains the definition: the calls through the
    /// package move, though the calling file is not edited.
    #[test]
    fn a_star_import_that_appears_goes_or_gains_a_name_is_followed() {
        let user = ("pkg2/use.py", "import pkg\n\ndef main():\n    pkg.get()\n");
        let api = (
            "pkg/api.py",
            "from pkg.base import *\n\ndef other():\n    pass\n",
        );
        let base = ("pkg/base.py", "def get():\n    pass\n");
        let star = ("pkg/__init__.py", "from pkg.api import *\n");
        updates_match(
            &[("pkg/__init__.py", ""), api, base, user],
            &[star, api, base, user],
            ("-> pkg/base.py#get", true),
        );
        updates_match(
            &[star, api, base, user],
            &[("pkg/__init__.py", ""), api, base, user],
            ("-> pkg/base.py#get", false),
        );
        updates_match(
            &[star, api, ("pkg/base.py", "def got():\n    pass\n"), user],
            &[star, api, base, user],
            ("-> pkg/base.py#get", true),
        );
    }

    #[test]
    fn an_element_type_a_class_alias_and_a_go_defined_type_are_followed() {
        // Python: a loop over a `List[Text]` and a name for a class, when Text gains the
        // method another file calls.
        let user = (
            "rich/lines.py",
            "from typing import List\nfrom .text import Text\n\nclass Lines:\n    def __init__(self):\n        self._lines: List[Text] = []\n\n    def justify(self):\n        for line in self._lines:\n            line.pad()\n        _T = Text\n        _T.wrap()\n",
        );
        let bare = ("rich/text.py", "class Text:\n    pass\n");
        let full = (
            "rich/text.py",
            "class Text:\n    def pad(self):\n        pass\n\n    def wrap(self):\n        pass\n",
        );
        updates_match(
            &[bare, user],
            &[full, user],
            ("-> rich/text.py#Text.pad", true),
        );
        updates_match(
            &[full, user],
            &[bare, user],
            ("-> rich/text.py#Text.pad", false),
        );
        updates_match(
            &[bare, user],
            &[full, user],
            ("-> rich/text.py#Text.wrap", true),
        );
        // The element's class changes its base; nothing the loop calls is renamed.
        let bases = (
            "rich/base.py",
            "class A:\n    def pad(self):\n        pass\n\nclass B:\n    def pad(self):\n        pass\n",
        );
        let (on_a, on_b) = (
            "from .base import A, B\n\nclass Text(A):\n    pass\n",
            "from .base import A, B\n\nclass Text(B):\n    pass\n",
        );
        updates_match(
            &[bases, ("rich/text.py", on_a), user],
            &[bases, ("rich/text.py", on_b), user],
            ("-> rich/base.py#B.pad", true),
        );
        // A field typed `List[Node]` in one file, looped over in another that never names
        // `Node`, whose base changes in a third.
        let tree = (
            "pkg/tree.py",
            "from typing import List\nfrom .node import Node\n\nclass Tree:\n    def __init__(self):\n        self.children: List[Node] = []\n",
        );
        let walk = (
            "pkg/walk.py",
            "from .tree import Tree\n\ndef walk(t: Tree):\n    for n in t.children:\n        n.inherited()\n",
        );
        let roots = (
            "pkg/roots.py",
            "class A:\n    def inherited(self):\n        pass\n\nclass B:\n    def inherited(self):\n        pass\n",
        );
        updates_match(
            &[
                roots,
                (
                    "pkg/node.py",
                    "from .roots import A, B\n\nclass Node(A):\n    pass\n",
                ),
                tree,
                walk,
            ],
            &[
                roots,
                (
                    "pkg/node.py",
                    "from .roots import A, B\n\nclass Node(B):\n    pass\n",
                ),
                tree,
                walk,
            ],
            ("-> pkg/roots.py#B.inherited", true),
        );
        // Go: ranging over a type defined over a slice whose element type changes.
        let path = |element: &str| -> String {
            format!(
                "package cmp\n\ntype Step interface {{\n    String() string\n}}\n\ntype Other interface {{\n    String() string\n}}\n\ntype Path []{element}\n"
            )
        };
        let walk = (
            "cmp/walk.go",
            "package cmp\n\nfunc walk(pa Path) {\n    for _, s := range pa {\n        s.String()\n    }\n}\n",
        );
        let (step, other) = (path("Step"), path("Other"));
        updates_match(
            &[("cmp/path.go", step.as_str()), walk],
            &[("cmp/path.go", other.as_str()), walk],
            ("-> cmp/path.go#Other.String", true),
        );
    }

    /// A call on a tuple's element (`p.pair.1.run()` of a field `pair: (Other, State)`) is
    /// resolved again when the element's type gains or loses the method, though the file
    /// making the call is not edited and names neither the type nor its file.
    #[test]
    fn a_tuple_element_s_type_changing_is_followed() {
        let state = |method: &str| -> String {
            format!("pub struct Other;\npub struct State;\nimpl State {{\n{method}}}\n")
        };
        let holder = (
            "src/holder.rs",
            "use crate::state::{Other, State};\n\npub struct Pairs {\n    pub pair: (Other, State),\n}\n",
        );
        // The file making the call names neither `State` nor its file.
        let user = (
            "src/user.rs",
            "use crate::holder::Pairs;\n\nfn go(p: &Pairs) {\n    p.pair.1.run();\n}\n",
        );
        let (without, with) = (state(""), state("    pub fn run(&self) {}\n"));
        updates_match(
            &[("src/state.rs", without.as_str()), holder, user],
            &[("src/state.rs", with.as_str()), holder, user],
            ("-> src/state.rs#State.run", true),
        );
        updates_match(
            &[("src/state.rs", with.as_str()), holder, user],
            &[("src/state.rs", without.as_str()), holder, user],
            ("-> src/state.rs#State.run", false),
        );
    }

    #[test]
    fn a_type_alias_retargeted_and_an_inherent_method_appearing_are_followed() {
        let types = |alias_of: &str, inherent: &str| -> String {
            format!(
                "pub struct GraphMap;\nimpl GraphMap {{\n    pub fn new() -> Self {{ GraphMap }}\n    pub fn add_node(&self) {{}}\n{inherent}}}\n\
                 pub struct StableGraph;\nimpl StableGraph {{\n    pub fn new() -> Self {{ StableGraph }}\n    pub fn add_node(&self) {{}}\n}}\n\
                 pub type UnGraph<N> =\n    {alias_of}<N>;\n"
            )
        };
        let user = (
            "src/user.rs",
            "use crate::graphmap::UnGraph;\n\nfn build() {\n    let g = UnGraph::new();\n    g.add_node();\n}\n",
        );
        let (map, stable) = (types("GraphMap", ""), types("StableGraph", ""));
        updates_match(
            &[("src/graphmap.rs", map.as_str()), user],
            &[("src/graphmap.rs", stable.as_str()), user],
            ("-> src/graphmap.rs#StableGraph.add_node", true),
        );
        updates_match(
            &[("src/graphmap.rs", stable.as_str()), user],
            &[("src/graphmap.rs", map.as_str()), user],
            ("-> src/graphmap.rs#StableGraph.add_node", false),
        );
        // A trait's impl in another file calling `self.add_edge`: the type's own method
        // once it has one, the trait's method itself before.
        let data = (
            "src/data.rs",
            "use crate::graphmap::GraphMap;\npub trait Build {\n    fn add_edge(&self);\n}\n\
             impl Build for GraphMap {\n    fn add_edge(&self) {\n        self.add_edge()\n    }\n}\n",
        );
        let with = types("GraphMap", "    pub fn add_edge(&self) {}\n");
        updates_match(
            &[("src/graphmap.rs", map.as_str()), data],
            &[("src/graphmap.rs", with.as_str()), data],
            ("-> src/graphmap.rs#GraphMap.add_edge", true),
        );
        updates_match(
            &[("src/graphmap.rs", with.as_str()), data],
            &[("src/graphmap.rs", map.as_str()), data],
            ("-> src/graphmap.rs#GraphMap.add_edge", false),
        );
    }

    /// A JSDoc `@returns {T}` restated (the declaration's line the same): calls on what
    /// the function returns, in a file not edited, move to the new type's methods.
    #[test]
    fn a_jsdoc_return_type_restated_moves_the_calls_on_its_value() {
        let headers = |returned: &str| -> String {
            format!(
                "class HeadersList {{\n  sort () {{\n    return 1\n  }}\n}}\n\n\
                 class Cookies {{\n  sort () {{\n    return 2\n  }}\n}}\n\n\
                 /**\n * @returns {{{returned}}}\n */\nfunction getList () {{\n  return null\n}}\n\n\
                 module.exports = {{ HeadersList, Cookies, getList }}\n"
            )
        };
        let user = (
            "lib/user.js",
            "const { getList } = require('./headers')\n\nfunction use () {\n  const list = getList()\n  list.sort()\n}\n",
        );
        let (list, cookies) = (headers("HeadersList"), headers("Cookies"));
        updates_match(
            &[("lib/headers.js", list.as_str()), user],
            &[("lib/headers.js", cookies.as_str()), user],
            ("-> lib/headers.js#Cookies.sort", true),
        );
        updates_match(
            &[("lib/headers.js", cookies.as_str()), user],
            &[("lib/headers.js", list.as_str()), user],
            ("-> lib/headers.js#Cookies.sort", false),
        );
    }

    /// A module named as a JSDoc type (`{import('./core/request.js')}`) whose
    /// `module.exports` changes: the calls on the parameter follow, the file not edited.
    #[test]
    fn a_module_s_exported_value_changing_moves_calls_typed_by_it() {
        let request = |exported: &str| -> String {
            format!(
                "class Request {{\n  send () {{\n    return 1\n  }}\n}}\n\n\
                 class Fetch {{\n  send () {{\n    return 2\n  }}\n}}\n\nmodule.exports = {exported}\n"
            )
        };
        let writer = (
            "lib/writer.js",
            "/**\n * @param {import('./core/request.js')} request\n */\nfunction write (request) {\n  request.send()\n}\n",
        );
        let (plain, fetch) = (request("Request"), request("Fetch"));
        updates_match(
            &[("lib/core/request.js", plain.as_str()), writer],
            &[("lib/core/request.js", fetch.as_str()), writer],
            ("-> lib/core/request.js#Fetch.send", true),
        );
        updates_match(
            &[("lib/core/request.js", fetch.as_str()), writer],
            &[("lib/core/request.js", plain.as_str()), writer],
            ("-> lib/core/request.js#Fetch.send", false),
        );
        // Carried out of the file naming the module, by a field and by a declared return,
        // into a file of another directory: there too the path means lib/core/request.js.
        let pool = (
            "lib/pool.js",
            "class Pool {\n  constructor () {\n    /** @type {import('./core/request.js')} */\n    this.client = open()\n  }\n}\n\n\
             /** @returns {import('./core/request.js')} */\nfunction open () {\n  return null\n}\n\n\
             module.exports = { Pool, open }\n",
        );
        let user = (
            "test/user.js",
            "const { Pool, open } = require('../lib/pool')\n\n\
             function viaField () {\n  const pool = new Pool()\n  pool.client.send()\n}\n\n\
             function viaReturn () {\n  const r = open()\n  r.send()\n}\n",
        );
        for (from, to, fetch_reached) in [(&plain, &fetch, true), (&fetch, &plain, false)] {
            updates_match(
                &[("lib/core/request.js", from.as_str()), pool, user],
                &[("lib/core/request.js", to.as_str()), pool, user],
                (
                    "test/user.js#viaField@3 -> lib/core/request.js#Fetch.send",
                    fetch_reached,
                ),
            );
            updates_match(
                &[("lib/core/request.js", from.as_str()), pool, user],
                &[("lib/core/request.js", to.as_str()), pool, user],
                (
                    "test/user.js#viaReturn@8 -> lib/core/request.js#Fetch.send",
                    fetch_reached,
                ),
            );
        }
        // The module going: nothing is typed by it.
        updates_match(
            &[("lib/core/request.js", plain.as_str()), writer],
            &[writer],
            ("-> lib/core/request.js#Request.send", false),
        );
    }

    /// A JavaScript constructor function given a base apart (`inherits(NyanCat, Base)`),
    /// then not: calls on its instances in another file follow, that file not edited.
    #[test]
    fn a_base_given_by_inherits_is_followed_by_an_update() {
        let base = (
            "lib/base.js",
            "function Base () {}\n\nBase.prototype.epilogue = function () {\n  return 1\n}\n\nmodule.exports = Base\n",
        );
        let nyan = |inherits: &str| -> String {
            format!(
                "const Base = require('./base')\nconst {{ inherits }} = require('util')\n\n\
                 function NyanCat () {{}}\n\nNyanCat.prototype.draw = function () {{\n  return 2\n}}\n\n\
                 {inherits}\nmodule.exports = NyanCat\n"
            )
        };
        let user = (
            "test/nyan.js",
            "const NyanCat = require('../lib/nyan')\n\nfunction show () {\n  const n = new NyanCat()\n  n.epilogue()\n}\n",
        );
        let (with, without) = (nyan("inherits(NyanCat, Base)"), nyan(""));
        updates_match(
            &[base, ("lib/nyan.js", without.as_str()), user],
            &[base, ("lib/nyan.js", with.as_str()), user],
            (
                "test/nyan.js#show@3 -> lib/base.js#Base.epilogue@3 line 5 Type",
                true,
            ),
        );
        updates_match(
            &[base, ("lib/nyan.js", with.as_str()), user],
            &[base, ("lib/nyan.js", without.as_str()), user],
            (
                "test/nyan.js#show@3 -> lib/base.js#Base.epilogue@3 line 5 Type",
                false,
            ),
        );
    }

    /// A Rust type appearing in the file holding methods under its name, and an `impl`
    /// turning from a trait's into the type's own: calls in files that name neither move.
    #[test]
    fn a_rust_type_appearing_beside_methods_and_an_impl_changing_kind_are_followed() {
        let graph = (
            "src/graph.rs",
            "pub struct Edges;\npub type EdgeAlias = Edges;\n",
        );
        let user = (
            "src/user.rs",
            "use crate::graph::EdgeAlias;\n\nfn f(e: EdgeAlias) {\n    e.size_hint();\n}\n",
        );
        let borrowed = "use crate::graph::Edges;\nimpl Edges {\n    pub fn size_hint(&self) -> usize { 0 }\n}\n";
        let own =
            "pub struct Edges;\nimpl Edges {\n    pub fn size_hint(&self) -> usize { 0 }\n}\n";
        let typed = "-> src/csr.rs#Edges.size_hint@3 line 4 Type";
        updates_match(
            &[graph, ("src/csr.rs", borrowed), user],
            &[graph, ("src/csr.rs", own), user],
            (typed, false),
        );
        updates_match(
            &[graph, ("src/csr.rs", own), user],
            &[graph, ("src/csr.rs", borrowed), user],
            (typed, true),
        );
        let data = (
            "src/data.rs",
            "use crate::graphmap::*;\npub trait Build {\n    fn add_edge(&self);\n}\n\
             impl Build for GraphMap {\n    fn add_edge(&self) {\n        self.add_edge()\n    }\n}\n",
        );
        let of_trait =
            "pub struct GraphMap;\nimpl Other for GraphMap {\n    fn add_edge(&self) {}\n}\n";
        let inherent = "pub struct GraphMap;\nimpl GraphMap {\n    pub fn add_edge(&self) {}\n}\n";
        updates_match(
            &[("src/graphmap.rs", of_trait), data],
            &[("src/graphmap.rs", inherent), data],
            ("-> src/graphmap.rs#GraphMap.add_edge", true),
        );
        updates_match(
            &[("src/graphmap.rs", inherent), data],
            &[("src/graphmap.rs", of_trait), data],
            ("-> src/graphmap.rs#GraphMap.add_edge", false),
        );
    }

    /// A package re-exporting another module's class under the name a base is written
    /// through (`class Article(models.Model)`): the subclass's inherited calls follow it,
    /// though the subclass's file is not edited.
    #[test]
    fn a_base_written_through_a_module_follows_the_module_s_re_export() {
        let model = "class Model:\n    pass\n";
        let others = [
            ("tests/a.py", model),
            ("tests/b.py", model),
            ("tests/c.py", model),
            ("tests/d.py", model),
        ];
        let files = |init: &'static str| -> Vec<(&'static str, &'static str)> {
            let mut v = vec![
                ("pkg/models/__init__.py", init),
                (
                    "pkg/models/base.py",
                    "class Model:\n    def save(self):\n        pass\n",
                ),
                (
                    "pkg/models/other.py",
                    "class Model:\n    def save(self):\n        pass\n",
                ),
                (
                    "app/articles.py",
                    "from pkg import models\n\nclass Article(models.Model):\n    pass\n\n\
                     def publish():\n    a = Article()\n    a.save()\n",
                ),
            ];
            v.extend(others);
            v
        };
        let (base, other) = (
            files("from .base import Model\n"),
            files("from .other import Model\n"),
        );
        updates_match(&base, &other, ("-> pkg/models/other.py#Model.save", true));
        updates_match(&other, &base, ("-> pkg/models/other.py#Model.save", false));
    }

    #[test]
    fn a_held_class_an_awaited_value_and_a_renamed_import_are_followed() {
        // A field holding a class, the class in another file: it gains a `__call__` (then the
        // field may hold an instance, and its call makes none), and loses it again.
        let context = |call: &str| -> String {
            format!("class Context:\n    def scope(self):\n        pass\n{call}")
        };
        let command = (
            "pkg/command.py",
            "import typing as t\nfrom .context import Context\n\nclass Command:\n    context_class: t.Type[Context] = Context\n\n\
             \x20   def make_context(self):\n        ctx = self.context_class(self)\n        ctx.scope()\n",
        );
        let (plain, callable) = (
            context(""),
            context("\n    def __call__(self):\n        pass\n"),
        );
        updates_match(
            &[("pkg/context.py", plain.as_str()), command],
            &[("pkg/context.py", callable.as_str()), command],
            ("-> pkg/context.py#Context.scope", false),
        );
        updates_match(
            &[("pkg/context.py", callable.as_str()), command],
            &[("pkg/context.py", plain.as_str()), command],
            ("-> pkg/context.py#Context.scope", true),
        );
        // An awaited call whose declared return changes in another file.
        let client = |returns: &str| -> String {
            format!(
                "class Response:\n    async def aclose(self):\n        pass\n\nclass Other:\n    async def aclose(self):\n        pass\n\n\
                 async def send() -> {returns}:\n    pass\n"
            )
        };
        let user = (
            "pkg/user.py",
            "from .client import send\n\nasync def go():\n    r = await send()\n    await r.aclose()\n",
        );
        let (response, other) = (client("Response"), client("Other"));
        updates_match(
            &[("pkg/client.py", response.as_str()), user],
            &[("pkg/client.py", other.as_str()), user],
            ("-> pkg/client.py#Other.aclose", true),
        );
        // A name unpacked from a declared tuple, whose element's class changes its base in a
        // third file, and whose declaration changes the element's type.
        let roots = (
            "pkg/roots.py",
            "class A:\n    def run(self):\n        pass\n\nclass B:\n    def run(self):\n        pass\n",
        );
        let resolve = |returns: &str| -> String {
            format!(
                "import typing as t\nfrom .command import Command\n\ndef resolve(x) -> t.Tuple[str, {returns}]:\n    pass\n"
            )
        };
        let (to_command, to_str) = (resolve("Command"), resolve("str"));
        let invoke = (
            "pkg/invoke.py",
            "from .resolve import resolve\n\ndef invoke():\n    name, cmd = resolve(1)\n    cmd.run()\n",
        );
        let command = |base: &str| -> String {
            format!("from .roots import A, B\n\nclass Command({base}):\n    pass\n")
        };
        let (on_a, on_b) = (command("A"), command("B"));
        updates_match(
            &[
                roots,
                ("pkg/command.py", on_a.as_str()),
                ("pkg/resolve.py", to_command.as_str()),
                invoke,
            ],
            &[
                roots,
                ("pkg/command.py", on_b.as_str()),
                ("pkg/resolve.py", to_command.as_str()),
                invoke,
            ],
            ("-> pkg/roots.py#B.run", true),
        );
        updates_match(
            &[
                roots,
                ("pkg/command.py", on_b.as_str()),
                ("pkg/resolve.py", to_command.as_str()),
                invoke,
            ],
            &[
                roots,
                ("pkg/command.py", on_b.as_str()),
                ("pkg/resolve.py", to_str.as_str()),
                invoke,
            ],
            ("-> pkg/roots.py#B.run", false),
        );
        // A rename moves to the other import line: the name now means the other module's.
        let (a, b) = (
            ("pkg/a.py", "class X:\n    pass\n"),
            ("pkg/b.py", "class X:\n    pass\n"),
        );
        let user = ("pkg/user.py", "from .x import X\n\ndef f():\n    X()\n");
        updates_match(
            &[
                a,
                b,
                ("pkg/x.py", "from .a import X as Y\nfrom .b import X\n"),
                user,
            ],
            &[
                a,
                b,
                ("pkg/x.py", "from .a import X\nfrom .b import X as Y\n"),
                user,
            ],
            ("pkg/user.py#f@3 -> pkg/a.py#X", true),
        );
        // The file itself changes how it imports a name: renamed, the name is its own class.
        let parser = |import: &str| -> String {
            format!("{import}\n\nclass Argument:\n    pass\n\ndef add():\n    Argument()\n")
        };
        let core = ("pkg/core.py", "class Argument:\n    pass\n");
        let (renamed, plain) = (
            parser("from .core import Argument as CoreArgument"),
            parser("from .core import Argument"),
        );
        updates_match(
            &[core, ("pkg/parser.py", plain.as_str())],
            &[core, ("pkg/parser.py", renamed.as_str())],
            ("-> pkg/core.py#Argument", false),
        );
    }

    #[test]
    fn a_package_s_init_that_appears_binds_its_from_dot_imports() {
        let user = (
            "rich/logging.py",
            "from . import get_console\n\ndef f():\n    get_console()\n",
        );
        let other = ("other/__init__.py", "def get_console():\n    pass\n");
        let init = ("rich/__init__.py", "def get_console():\n    pass\n");
        updates_match(
            &[other, user],
            &[other, init, user],
            ("-> rich/__init__.py#get_console", true),
        );
        updates_match(
            &[other, init, user],
            &[other, user],
            ("-> rich/__init__.py#get_console", false),
        );
    }

    #[test]
    fn a_base_class_two_levels_up_that_changes_its_base_is_followed() {
        let leaf = (
            "pkg/leaf.py",
            "from pkg.mid import Mid\n\nclass Leaf(Mid):\n    def go(self):\n        super().go()\n",
        );
        let mid = ("pkg/mid.py", "class Mid(Top):\n    pass\n");
        let roots = "class One:\n    def go(self):\n        pass\n\nclass Two:\n    def go(self):\n        pass\n";
        let root = ("pkg/roots.py", roots);
        // Leaf's file and Mid's stay as they are; Top, two levels up, changes its base.
        updates_match(
            &[
                leaf,
                mid,
                ("pkg/top.py", "class Top(One):\n    pass\n"),
                root,
            ],
            &[
                leaf,
                mid,
                ("pkg/top.py", "class Top(Two):\n    pass\n"),
                root,
            ],
            ("-> pkg/roots.py#Two.go", true),
        );
    }

    #[test]
    fn a_function_that_changes_its_return_type_moves_its_callers_variables() {
        let user = (
            "pkg/use.py",
            "from pkg.make import make\n\ndef go():\n    x = make()\n    x.run()\n",
        );
        let kinds = (
            "pkg/kinds.py",
            "class A:\n    def run(self):\n        pass\n\nclass B:\n    def run(self):\n        pass\n",
        );
        updates_match(
            &[
                user,
                kinds,
                (
                    "pkg/make.py",
                    "from pkg.kinds import A, B\n\ndef make() -> A:\n    pass\n",
                ),
            ],
            &[
                user,
                kinds,
                (
                    "pkg/make.py",
                    "from pkg.kinds import A, B\n\ndef make() -> B:\n    pass\n",
                ),
            ],
            ("-> pkg/kinds.py#B.run", true),
        );
    }

    #[test]
    fn a_field_or_module_variable_whose_stated_type_moves_moves_the_calls_through_it() {
        let kinds = (
            "pkg/kinds.py",
            "class A:\n    def run(self):\n        pass\n\nclass B:\n    def run(self):\n        pass\n",
        );
        // `self.part = self.make()`: the method's declared return changes in the base's
        // file; the caller's file and the file assigning the field stay as they are.
        let user = (
            "pkg/use.py",
            "from pkg.app import App\n\ndef go(app: App):\n    app.part.run()\n",
        );
        let app = (
            "pkg/app.py",
            "from pkg.base import Base\n\nclass App(Base):\n    def __init__(self):\n        self.part = self.make()\n",
        );
        let base = |t: &str| {
            format!(
                "from pkg.kinds import A, B\n\nclass Base:\n    def make(self) -> {t}:\n        pass\n"
            )
        };
        let (was, is) = (base("A"), base("B"));
        updates_match(
            &[user, app, kinds, ("pkg/base.py", &was)],
            &[user, app, kinds, ("pkg/base.py", &is)],
            ("-> pkg/kinds.py#B.run", true),
        );
        // A module's variable imported elsewhere: its stated type changes.
        let user = (
            "pkg/use.py",
            "from pkg.state import current\n\ndef go():\n    current.run()\n",
        );
        let state = |t: &str| format!("from pkg.kinds import A, B\n\ncurrent: {t} = proxy()\n");
        let (was, is) = (state("A"), state("B"));
        updates_match(
            &[user, kinds, ("pkg/state.py", &was)],
            &[user, kinds, ("pkg/state.py", &is)],
            ("-> pkg/kinds.py#B.run", true),
        );
    }

    #[test]
    fn a_go_field_reached_through_an_embedded_struct_or_a_path_s_value_moves_with_its_type() {
        let kinds = (
            "mux/kinds.go",
            "package mux\n\ntype A struct{}\n\nfunc (a *A) Run() {}\n\ntype B struct{}\n\nfunc (b *B) Run() {}\n",
        );
        // `route := test.route; route.part.Run()` where `part` is a field of a struct `Route`
        // embeds: only the embedded struct's file changes.
        let user = (
            "mux/use.go",
            "package mux\n\ntype routeTest struct {\n\troute *Route\n}\n\nfunc check(test routeTest) {\n\troute := test.route\n\troute.part.Run()\n}\n",
        );
        let route = (
            "mux/route.go",
            "package mux\n\ntype Route struct {\n\tconf\n}\n",
        );
        let conf = |t: &str| format!("package mux\n\ntype conf struct {{\n\tpart *{t}\n}}\n");
        let (conf_a, conf_b) = (conf("A"), conf("B"));
        updates_match(
            &[user, route, kinds, ("mux/conf.go", &conf_a)],
            &[user, route, kinds, ("mux/conf.go", &conf_b)],
            ("-> mux/kinds.go#B.Run", true),
        );
        // The embedding itself comes and goes.
        let route = |embeds: &str| format!("package mux\n\ntype Route struct {{\n\t{embeds}\n}}\n");
        let (was, is) = (route("other int"), route("conf"));
        let conf = ("mux/conf.go", conf_a.as_str());
        updates_match(
            &[user, kinds, conf, ("mux/route.go", &was)],
            &[user, kinds, conf, ("mux/route.go", &is)],
            ("-> mux/kinds.go#A.Run", true),
        );
    }

    #[test]
    fn a_callback_s_parameter_moves_with_the_type_its_callee_declares() {
        let kinds = (
            "src/kinds.ts",
            "export class A {\n  run() {}\n}\n\nexport class B {\n  run() {}\n}\n",
        );
        let user = (
            "src/use.ts",
            "import { operate } from './operate';\n\nexport function go() {\n  operate((x) => {\n    x.run();\n  });\n}\n",
        );
        let operate = |t: &str| {
            format!(
                "import {{ A, B }} from './kinds';\n\nexport function operate(init: (x: {t}) => void) {{}}\n"
            )
        };
        let (was, is) = (operate("A"), operate("B"));
        updates_match(
            &[user, kinds, ("src/operate.ts", &was)],
            &[user, kinds, ("src/operate.ts", &is)],
            ("-> src/kinds.ts#B.run", true),
        );
    }

    #[test]
    fn one_edited_file_resolves_only_what_can_depend_on_it() {
        let mut files: Vec<(String, String)> = (0..20)
            .map(|i| {
                (
                    format!("pkg/m{i:02}.py"),
                    format!("def own{i}():\n    return other{i}()\n"),
                )
            })
            .collect();
        files.push(("pkg/util.py".into(), "def helper():\n    return 1\n".into()));
        files.push((
            "pkg/user.py".into(),
            "from pkg.util import helper\n\ndef use():\n    return helper()\n".into(),
        ));
        files.sort();
        let (old, _) = graph(&files);
        let edit = |text: &str| -> Vec<(String, String)> {
            files
                .iter()
                .map(|(p, s)| match p.as_str() {
                    "pkg/util.py" => (p.clone(), text.to_string()),
                    _ => (p.clone(), s.clone()),
                })
                .collect()
        };
        // A body edited and a definition added: only util.py is resolved again; user.py's
        // call into it is carried over to helper's new position.
        let (full, facts) = graph(&edit(
            "\n\ndef helper():\n    return 2\n\ndef extra():\n    return helper()\n",
        ));
        let updated = Graph::update(Some(&old), &facts);
        assert_eq!(edges(&updated), edges(&full));
        assert_eq!(updated.resolved_again, 1, "{}", updated.resolved_again);
        assert!(
            edges(&updated)
                .0
                .iter()
                .any(|e| e.starts_with("pkg/user.py#use@3 -> pkg/util.py#helper@3")),
            "{:?}",
            edges(&updated)
        );
        // helper made a method: user.py, which calls it, is resolved again (and loses it).
        let (full, facts) = graph(&edit(
            "class Box:\n    def helper(self):\n        return 2\n",
        ));
        let updated = Graph::update(Some(&old), &facts);
        assert_eq!(edges(&updated), edges(&full));
        assert_eq!(updated.resolved_again, 2, "{}", updated.resolved_again);
    }
}

mod planned {
    //! pageRankDelta: a planned text ranked beside the indexed files, nothing written.
    use super::snapshot;
    use crate::analysis::delta::rank_delta;

    const UTIL: &str = "def helper():\n    return 1\n\ndef lonely():\n    return 2\n";

    fn project() -> crate::analysis::Snapshot {
        let mut files: Vec<(String, String)> = vec![("pkg/util.py".into(), UTIL.into())];
        for i in 0..8 {
            files.push((
                format!("pkg/m{i}.py"),
                format!("from pkg.util import helper\n\ndef use{i}():\n    return helper()\n"),
            ));
        }
        snapshot(&files)
    }

    #[test]
    fn callers_moved_to_another_function_move_both_ranks() {
        let s = project();
        // Every caller now calls lonely instead of helper.
        let planned: Vec<(String, String)> = (0..8)
            .map(|i| {
                (
                    format!("pkg/m{i}.py"),
                    format!("from pkg.util import lonely\n\ndef use{i}():\n    return lonely()\n"),
                )
            })
            .collect();
        let d = rank_delta(&s, &planned, 20);
        let find = |name: &str| {
            d.moves
                .iter()
                .find(|m| m.symbol == name)
                .unwrap_or_else(|| panic!("{name} in {:?}", d.moves))
        };
        let (helper, lonely) = (find("helper"), find("lonely"));
        assert!(helper.after < helper.before, "{helper:?}");
        assert!(lonely.after > lonely.before, "{lonely:?}");
        assert!(d.files_resolved >= 8, "{}", d.files_resolved);
        // Largest first.
        assert!(d.moves.windows(2).all(|w| {
            let size = |m: &crate::analysis::delta::RankMove| {
                (m.after.unwrap_or(0.0) - m.before.unwrap_or(0.0)).abs()
            };
            size(&w[0]) >= size(&w[1])
        }));
    }

    #[test]
    fn a_plan_that_changes_no_structure_moves_nothing_and_resolves_nothing() {
        let s = project();
        let planned = vec![(
            "pkg/util.py".to_string(),
            "# a comment\ndef helper():\n    return 1 + 1\n\ndef lonely():\n    return 2\n"
                .to_string(),
        )];
        let d = rank_delta(&s, &planned, 20);
        assert!(d.moves.is_empty(), "{:?}", d.moves);
        assert_eq!(d.files_resolved, 0);
        // Not code: nothing to rank.
        let d = rank_delta(&s, &[("notes.txt".into(), "helper()".into())], 20);
        assert!(d.moves.is_empty());
    }

    #[test]
    fn definitions_that_appear_or_go_are_listed_with_one_side_empty() {
        let s = project();
        let planned = vec![(
            "pkg/util.py".to_string(),
            "def helper():\n    return fresh()\n\ndef fresh():\n    return 3\n".to_string(),
        )];
        let d = rank_delta(&s, &planned, 20);
        let fresh = d
            .moves
            .iter()
            .find(|m| m.symbol == "fresh")
            .expect("fresh listed");
        assert_eq!(fresh.before, None);
        assert!(fresh.after.is_some());
        let gone = d
            .moves
            .iter()
            .find(|m| m.symbol == "lonely")
            .expect("lonely listed");
        assert_eq!((gone.before.is_some(), gone.after), (true, None));
        // A new file's definitions too, and the limit holds.
        let d = rank_delta(
            &s,
            &[(
                "pkg/new.py".into(),
                "from pkg.util import helper\n\ndef more():\n    return helper()\n".into(),
            )],
            1,
        );
        assert_eq!(d.moves.len(), 1, "{:?}", d.moves);
    }
}

#[test]
fn centrality_is_the_file_s_pagerank_percentile_for_the_search() {
    use crate::index::fulltext::Centrality;
    // core.py is imported by both others, which nothing imports.
    let s = snapshot(&[
        ("core.py", "def helper():\n    pass\n"),
        (
            "a.py",
            "from core import helper\n\ndef a():\n    helper()\n",
        ),
        (
            "b.py",
            "from core import helper\n\ndef b():\n    helper()\n",
        ),
    ]);
    assert_eq!(s.file("core.py"), Some(1.0));
    assert_eq!(s.file("a.py"), Some(0.0));
    assert_eq!(s.file("missing.py"), None);
}

fn id(s: &Snapshot, label_: &str) -> u32 {
    (0..s.graph.symbols.len() as u32)
        .find(|&i| label(s, i) == label_)
        .unwrap_or_else(|| panic!("no {label_}"))
}

/// (caller, callee, confidence) labels of a call view's links, in order.
fn view_links(view: &views::CallView) -> Vec<(String, String, &'static str)> {
    let name = |p: u32| {
        let v = &view.symbols[p as usize];
        match &v.container {
            Some(c) => format!("{}:{c}.{}", v.path, v.name),
            None => format!("{}:{}", v.path, v.name),
        }
    };
    view.links
        .iter()
        .map(|&(from, to, _, c)| (name(from), name(to), c.as_str()))
        .collect()
}

/// (caller label, confidence) of the links into `target` of a depth-1 call view asked about
/// `targets`, sorted.
fn view_callers(s: &Snapshot, targets: &[&str], target: &str) -> Vec<(String, &'static str)> {
    let ids: Vec<u32> = targets.iter().map(|t| id(s, t)).collect();
    let view = views::call_graph(s, &ids, 1, 50);
    let mut out: Vec<(String, &'static str)> = view_links(&view)
        .into_iter()
        .filter(|(_, to, _)| to == target)
        .map(|(from, _, how)| (from, how))
        .collect();
    out.sort();
    out
}

#[test]
fn direct_callers_and_callees_come_before_deeper_links_and_guesses_are_not_walked() {
    let mut callers = String::from("from app.core import target\n\n");
    for i in 0..8 {
        callers.push_str(&format!("def caller{i}():\n    target()\n\n"));
    }
    let mut outer = String::from("from app.callers import caller0\n\n");
    for i in 0..4 {
        outer.push_str(&format!("def outer{i}():\n    caller0()\n\n"));
    }
    let s = snapshot(&[
        (
            "app/core.py",
            "def helper():\n    pass\n\ndef target():\n    helper()\n    mystery()\n",
        ),
        ("app/callers.py", &callers),
        ("app/outer.py", &outer),
        (
            "app/other.py",
            "def mystery():\n    deeper()\n\ndef deeper():\n    pass\n",
        ),
    ]);
    let target = id(&s, "app/core.py:target");
    // Eight direct callers, eight links a level further up, two direct callees: with room for
    // six links, both direct callees are in, and nothing two steps away.
    let view = views::call_graph(&s, &[target], 2, 6);
    let links = view_links(&view);
    assert!(view.truncated);
    assert_eq!(links.len(), 6, "{links:?}");
    let down: Vec<&str> = links
        .iter()
        .filter(|(from, _, _)| from == "app/core.py:target")
        .map(|(_, to, _)| to.as_str())
        .collect();
    assert_eq!(
        down,
        ["app/core.py:helper", "app/other.py:mystery"],
        "{links:?}"
    );
    assert!(
        !links
            .iter()
            .any(|(from, _, _)| from.starts_with("app/outer.py")),
        "a deeper link crowded out a direct one: {links:?}"
    );
    // Known resolutions come before the guess within the level.
    assert_eq!(
        links
            .iter()
            .filter(|(from, _, _)| from == "app/core.py:target")
            .map(|l| l.2)
            .collect::<Vec<_>>(),
        ["file", "name"]
    );

    // With room for everything: the callers' callers are there, and the guessed callee's own
    // callee is not (a guess is shown, never walked).
    let view = views::call_graph(&s, &[target], 2, 100);
    let links = view_links(&view);
    assert!(!view.truncated, "{links:?}");
    assert!(
        links
            .iter()
            .any(|(from, _, _)| from.starts_with("app/outer.py"))
    );
    assert!(
        !links
            .iter()
            .any(|(from, _, _)| from == "app/other.py:mystery"),
        "{links:?}"
    );
}

#[test]
fn a_call_never_resolves_to_another_language_family_by_name() {
    let s = snapshot(&[
        ("py/text.py", "def clean(s):\n    return normalize(s)\n"),
        ("py/forms.py", "def normalize(s):\n    return s\n"),
        ("web/util.js", "function normalize(s) { return s; }\n"),
        ("web/app.ts", "function run() { normalize('x'); }\n"),
        ("native/lib.c", "int normalize(int x) { return x; }\n"),
    ]);
    // Python's name-only guess is Python's definition, not the JavaScript or C one.
    assert_eq!(
        callees(&s, "py/text.py:clean"),
        pairs(&[("py/forms.py:normalize", "name")])
    );
    // TypeScript and JavaScript are one family.
    assert_eq!(
        callees(&s, "web/app.ts:run"),
        pairs(&[("web/util.js:normalize", "name")])
    );
}

#[test]
fn super_and_inherited_calls_resolve_through_the_declared_bases() {
    let s = snapshot(&[
        (
            "app/base.py",
            "class Base:\n    def __init__(self):\n        pass\n\n    def run(self):\n        pass\n\n    def helper(self):\n        pass\n",
        ),
        (
            "app/views.py",
            "from app.base import Base\n\n\
             class Mid(Base):\n    pass\n\n\
             class View(Mid):\n    def __init__(self):\n        super().__init__()\n\n\
             \x20   def run(self):\n        super(View, self).run()\n        self.helper()\n",
        ),
        // Another class's methods of the same names must not be taken.
        (
            "app/other.py",
            "class Other:\n    def run(self):\n        pass\n\n    def helper(self):\n        pass\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "app/views.py:View.__init__"),
        pairs(&[("app/base.py:Base.__init__", "base")])
    );
    // super().run() is the base's run, never the caller's own; self.helper() is inherited.
    assert_eq!(
        callees(&s, "app/views.py:View.run"),
        pairs(&[
            ("app/base.py:Base.helper", "base"),
            ("app/base.py:Base.run", "base"),
        ])
    );
    // Java and JavaScript `super.m()` likewise.
    let s = snapshot(&[
        ("src/Base.java", "class Base {\n    void start() {}\n}\n"),
        (
            "src/Job.java",
            "class Job extends Base {\n    void start() {\n        super.start();\n    }\n}\n",
        ),
        (
            "web/a.js",
            "class A {\n  draw() {}\n}\nclass B extends A {\n  draw() {\n    super.draw();\n  }\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/Job.java:Job.start"),
        pairs(&[("src/Base.java:Base.start", "base")])
    );
    assert_eq!(
        callees(&s, "web/a.js:B.draw"),
        pairs(&[("web/a.js:A.draw", "base")])
    );
}

#[test]
fn an_import_inside_a_function_binds_only_there() {
    let s = snapshot(&[
        ("pkg/__init__.py", ""),
        ("pkg/fast.py", "def load():\n    pass\n"),
        ("pkg/slow.py", "def load():\n    pass\n"),
        (
            "pkg/use.py",
            "from pkg.slow import load\n\n\
             def quick():\n    from pkg.fast import load\n    load()\n\n\
             def normal():\n    load()\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "pkg/use.py:quick"),
        pairs(&[("pkg/fast.py:load", "import")])
    );
    assert_eq!(
        callees(&s, "pkg/use.py:normal"),
        pairs(&[("pkg/slow.py:load", "import")])
    );
}

#[test]
fn an_absolute_import_never_means_a_module_inside_a_package() {
    // `import typing as t` and `import json as _json` inside the package mean the standard
    // library, not the package's own typing.py or json/ (those are flask.typing, flask.json).
    let s = snapshot(&[
        ("src/flask/__init__.py", ""),
        ("src/flask/typing.py", "def cast(x):\n    pass\n"),
        ("src/flask/json/__init__.py", "def dumps(x):\n    pass\n"),
        (
            "src/flask/app.py",
            "import typing as t\nimport json as _json\nfrom flask import typing\n\n\
             def go(x):\n    t.cast(x)\n    _json.dumps(x)\n    typing.cast(x)\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/flask/app.py:go"),
        pairs(&[("src/flask/typing.py:cast", "import")])
    );
    let imports: Vec<(String, String)> = s
        .graph
        .imports
        .iter()
        .map(|e| {
            (
                s.graph.files[e.from as usize].path.clone(),
                s.graph.files[e.to as usize].path.clone(),
            )
        })
        .collect();
    assert!(
        !imports.contains(&(
            "src/flask/app.py".into(),
            "src/flask/json/__init__.py".into()
        )),
        "{imports:?}"
    );
}

#[test]
fn a_call_through_a_package_follows_its_re_export() {
    // `requests.get()` where requests/__init__ re-exports get from its api module.
    let s = snapshot(&[
        ("requests/__init__.py", "from .api import get, post\n"),
        (
            "requests/api.py",
            "def get(url):\n    pass\n\ndef post(url):\n    pass\n",
        ),
        (
            "tests/test_get.py",
            "import requests\n\ndef test_get():\n    requests.get('x')\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "tests/test_get.py:test_get"),
        pairs(&[("requests/api.py:get", "import")])
    );
}

#[test]
fn calls_on_typed_names_resolve_to_that_type_s_methods() {
    // Python: a parameter annotation, a constructed local, a field set in __init__, and a
    // method the type inherits; another class's `send` is never taken.
    let s = snapshot(&[
        (
            "net/adapters.py",
            "class Base:\n    def close(self):\n        pass\n\n\
             class HTTPAdapter(Base):\n    def send(self, r):\n        pass\n",
        ),
        (
            "net/mail.py",
            "class Mailer:\n    def send(self, m):\n        pass\n",
        ),
        (
            "net/sessions.py",
            "from net.adapters import HTTPAdapter\n\n\
             class Session:\n    def __init__(self):\n        self.adapter = HTTPAdapter()\n\n\
             \x20   def go(self, r):\n        self.adapter.send(r)\n\n\
             def use(a: HTTPAdapter, r):\n    a.send(r)\n    a.close()\n\n\
             def make(r):\n    b = HTTPAdapter()\n    b.send(r)\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "net/sessions.py:Session.go"),
        pairs(&[("net/adapters.py:HTTPAdapter.send", "type")])
    );
    assert_eq!(
        callees(&s, "net/sessions.py:use"),
        pairs(&[
            ("net/adapters.py:Base.close", "type"),
            ("net/adapters.py:HTTPAdapter.send", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "net/sessions.py:make"),
        pairs(&[
            ("net/adapters.py:HTTPAdapter", "import"),
            ("net/adapters.py:HTTPAdapter.send", "type"),
        ])
    );
    // TypeScript: a constructor parameter property and a typed parameter.
    let s = snapshot(&[
        (
            "src/store.ts",
            "export class Store {\n  add(x: number) {}\n}\nexport class Queue {\n  add(x: number) {}\n}\n",
        ),
        (
            "src/app.ts",
            "import { Store } from './store';\n\
             export class App {\n  constructor(private store: Store) {}\n  run() {\n    this.store.add(1);\n  }\n}\n\
             export function fill(s: Store) {\n  s.add(2);\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/app.ts:App.run"),
        pairs(&[("src/store.ts:Store.add", "type")])
    );
    assert_eq!(
        callees(&s, "src/app.ts:fill"),
        pairs(&[("src/store.ts:Store.add", "type")])
    );
    // Rust: a struct field, a `let` made by `Type::new()`, a parameter; Go: a method's
    // receiver; Java: a field reached without `this.`.
    let s = snapshot(&[
        (
            "src/pool.rs",
            "pub struct Pool;\nimpl Pool {\n    pub fn new() -> Self { Pool }\n    pub fn get(&self) {}\n}\n\
             pub struct Cache;\nimpl Cache {\n    pub fn get(&self) {}\n}\n",
        ),
        (
            "src/server.rs",
            "use crate::pool::Pool;\n\
             pub struct Server { pool: Pool }\n\
             impl Server {\n    pub fn handle(&self) {\n        self.pool.get();\n    }\n}\n\
             pub fn start(p: &Pool) {\n    p.get();\n    let q = Pool::new();\n    q.get();\n}\n",
        ),
        (
            "go/srv.go",
            "package srv\ntype Srv struct{}\nfunc (s *Srv) Serve() {\n    s.handle()\n}\nfunc (s *Srv) handle() {}\ntype Other struct{}\nfunc (o *Other) handle() {}\n",
        ),
        (
            "java/App.java",
            "class Repo {\n  void save() {}\n}\nclass Log {\n  void save() {}\n}\nclass App {\n  private Repo repo;\n  void run() {\n    repo.save();\n  }\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/server.rs:Server.handle"),
        pairs(&[("src/pool.rs:Pool.get", "type")])
    );
    assert_eq!(
        callees(&s, "src/server.rs:start"),
        pairs(&[
            ("src/pool.rs:Pool.get", "type"),
            ("src/pool.rs:Pool.new", "import"),
        ])
    );
    assert_eq!(
        callees(&s, "go/srv.go:Srv.Serve"),
        pairs(&[("go/srv.go:Srv.handle", "type")])
    );
    assert_eq!(
        callees(&s, "java/App.java:App.run"),
        pairs(&[("java/App.java:Repo.save", "type")])
    );
}

#[test]
fn a_call_on_a_made_value_a_library_path_and_an_inherited_class_method() {
    let s = snapshot(&[
        (
            "req/models.py",
            "class Request:\n    def __init__(self, url):\n        pass\n\n    def prepare(self):\n        pass\n\n\
             class PreparedRequest:\n    def prepare(self):\n        pass\n\n\
             class Base:\n    def __init__(self, m):\n        pass\n\n\
             class Mid(Base):\n    pass\n\n\
             class Leaf(Mid):\n    def __init__(self, m):\n        Mid.__init__(self, m)\n",
        ),
        (
            "tests/test_models.py",
            "from req import models\nfrom req.models import Request\n\n\
             def test_prepare():\n    models.Request('u').prepare()\n\n\
             def test_direct():\n    r = Request('u')\n    r.prepare()\n",
        ),
        (
            "src/lib.rs",
            "pub struct Error;\nimpl Error {\n    pub fn from(e: u32) -> Self { Error }\n}\n\
             pub struct Builder;\nimpl Builder {\n    pub fn new() -> Self { Builder }\n    pub fn build(&self) {}\n}\n\
             pub fn wrap(e: u32) {\n    std::io::Error::from(e);\n    Builder::new().build();\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "tests/test_models.py:test_prepare"),
        pairs(&[
            ("req/models.py:Request", "import"),
            ("req/models.py:Request.prepare", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "req/models.py:Leaf.__init__"),
        pairs(&[("req/models.py:Base.__init__", "base")])
    );
    // `std::io::Error::from` is the library's, never the crate's own Error.from.
    assert_eq!(
        callees(&s, "src/lib.rs:wrap"),
        pairs(&[
            ("src/lib.rs:Builder.build", "type"),
            ("src/lib.rs:Builder.new", "container"),
        ])
    );
    // Asked about a constructor, its callers are where its class is instantiated.
    let init = id(&s, "req/models.py:Request.__init__");
    let view = views::call_graph(&s, &[init], 1, 20);
    let mut callers: Vec<String> = view_links(&view)
        .into_iter()
        .filter(|(_, to, _)| to == "req/models.py:Request.__init__")
        .map(|(from, _, _)| from)
        .collect();
    callers.sort();
    assert_eq!(
        callers,
        [
            "tests/test_models.py:test_direct",
            "tests/test_models.py:test_prepare"
        ]
    );
}

#[test]
fn a_decorator_is_a_call() {
    let s = snapshot(&[
        (
            "app/bp.py",
            "class Blueprint:\n    def after_request(self, f):\n        return f\n\ndef route(f):\n    return f\n",
        ),
        (
            "app/views.py",
            "from app.bp import Blueprint, route\n\n\
             def setup(bp: Blueprint):\n    @bp.after_request\n    @route\n    def hook():\n        pass\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "app/views.py:setup"),
        pairs(&[
            ("app/bp.py:Blueprint.after_request", "type"),
            ("app/bp.py:route", "import"),
        ])
    );
}

#[test]
fn a_variable_assigned_a_function_s_result_has_its_declared_return_type() {
    let s = snapshot(&[
        (
            "src/lib.rs",
            "pub struct TempDir;\nimpl TempDir {\n    pub fn path(&self) {}\n}\npub struct Other;\nimpl Other {\n    pub fn path(&self) {}\n}\n\
             pub fn tmpdir() -> TempDir { TempDir }\n\
             fn test() {\n    let td = tmpdir();\n    td.path();\n}\n",
        ),
        (
            "app/factory.py",
            "class Session:\n    def get(self):\n        pass\n\nclass Pool:\n    def get(self):\n        pass\n\n\
             def session() -> Session:\n    return Session()\n",
        ),
        (
            "app/use.py",
            "from app.factory import session\n\ndef go():\n    s = session()\n    s.get()\n",
        ),
        (
            "srv/srv.go",
            "package srv\ntype Server struct{}\nfunc NewServer() *Server { return &Server{} }\nfunc (s *Server) Start() {}\ntype Pool struct{}\nfunc (p *Pool) Start() {}\nfunc run() {\n    s := NewServer()\n    s.Start()\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/lib.rs:test"),
        pairs(&[
            ("src/lib.rs:TempDir.path", "type"),
            ("src/lib.rs:tmpdir", "file"),
        ])
    );
    assert_eq!(
        callees(&s, "app/use.py:go"),
        pairs(&[
            ("app/factory.py:Session.get", "type"),
            ("app/factory.py:session", "import"),
        ])
    );
    assert_eq!(
        callees(&s, "srv/srv.go:run"),
        pairs(&[
            ("srv/srv.go:NewServer", "file"),
            ("srv/srv.go:Server.Start", "type"),
        ])
    );
}

#[test]
fn a_declaration_too_long_to_keep_whole_still_types_what_it_returns() {
    // Parameters enough to pass the signature's length bound, each on its own line (black's
    // and rustfmt's layout) or all on one (a one-line Go declaration).
    let many = |sep: &str, param: &dyn Fn(usize) -> String| {
        (0..16).map(param).collect::<Vec<_>>().join(sep)
    };
    let py = many(",\n    ", &|i| format!("option_{i}: Optional[str] = None"));
    let rs = many(",\n    ", &|i| format!("option_{i}: Option<&str>"));
    let go = many(", ", &|i| format!("option{i} string"));
    let s = snapshot(&[
        (
            "app/text.py",
            &format!(
                "class Text:\n    def render(self):\n        pass\n\nclass Other:\n    def render(self):\n        pass\n\n\
                 def assemble(\n    {py},\n) -> Text:\n    return Text()\n\n\
                 def go():\n    t = assemble()\n    t.render()\n"
            ),
        ),
        (
            "src/lib.rs",
            &format!(
                "pub struct Text;\nimpl Text {{\n    pub fn render(&self) {{}}\n}}\npub struct Other;\nimpl Other {{\n    pub fn render(&self) {{}}\n}}\n\
                 pub fn assemble(\n    {rs},\n) -> Text {{\n    Text\n}}\n\
                 fn go() {{\n    let t = assemble();\n    t.render();\n}}\n"
            ),
        ),
        (
            "srv/srv.go",
            &format!(
                "package srv\ntype Text struct{{}}\nfunc (t *Text) Render() {{}}\ntype Other struct{{}}\nfunc (o *Other) Render() {{}}\n\
                 func Assemble({go}) *Text {{\n\treturn &Text{{}}\n}}\n\
                 func run() {{\n\tt := Assemble()\n\tt.Render()\n}}\n"
            ),
        ),
    ]);
    assert_eq!(
        callees(&s, "app/text.py:go"),
        pairs(&[
            ("app/text.py:Text.render", "type"),
            ("app/text.py:assemble", "file")
        ])
    );
    assert_eq!(
        callees(&s, "src/lib.rs:go"),
        pairs(&[
            ("src/lib.rs:Text.render", "type"),
            ("src/lib.rs:assemble", "file")
        ])
    );
    assert_eq!(
        callees(&s, "srv/srv.go:run"),
        pairs(&[
            ("srv/srv.go:Assemble", "file"),
            ("srv/srv.go:Text.Render", "type")
        ])
    );
}

#[test]
fn a_name_imported_under_another_name_is_bound_by_that_name_only() {
    let s = snapshot(&[
        ("pkg/__init__.py", ""),
        (
            "pkg/core.py",
            "class Argument:\n    def __init__(self, obj):\n        pass\n",
        ),
        (
            "pkg/util.py",
            "def helper():\n    pass\n\ndef other():\n    pass\n",
        ),
        (
            "pkg/parser.py",
            "import typing as t\nif t.TYPE_CHECKING:\n    from .core import Argument as CoreArgument\n\
             from . import util as u\n\n\
             class Argument:\n    def __init__(self, obj):\n        pass\n\n\
             class OptionParser:\n    def add_argument(self, obj):\n        self._args.append(Argument(obj))\n        CoreArgument(obj)\n        util.helper()\n        u.other()\n",
        ),
        ("src/util.rs", "pub fn clip() {}\n"),
        (
            "src/app.rs",
            "use crate::util::clip as cut;\n\nfn run() {\n    clip();\n    cut();\n}\n\nfn clip() {}\n",
        ),
        ("src/a.rs", "pub fn go() {}\n"),
        ("src/b.rs", "pub fn go() {}\n"),
        (
            "src/both.rs",
            "use crate::{a::go as go_a, b::go};\n\nfn both() {\n    go();\n}\n",
        ),
    ]);
    // One `go` renamed and one not, on one line: which stays is unknown, so neither is lost.
    let both = callees(&s, "src/both.rs:both");
    assert!(
        both.contains(&("src/b.rs:go".to_string(), "import")),
        "{both:?}"
    );
    assert_eq!(
        callees(&s, "pkg/parser.py:OptionParser.add_argument"),
        pairs(&[
            ("pkg/core.py:Argument", "import"),
            ("pkg/parser.py:Argument", "file"),
            ("pkg/util.py:other", "import"),
        ])
    );
    assert_eq!(
        callees(&s, "src/app.rs:run"),
        pairs(&[("src/app.rs:clip", "file"), ("src/util.rs:clip", "import")])
    );
}

#[test]
fn an_awaited_call_s_value_is_what_its_async_declaration_returns() {
    let s = snapshot(&[
        (
            "pkg/client.py",
            "class Response:\n    async def aclose(self):\n        pass\n\nclass Other:\n    async def aclose(self):\n        pass\n\n\
             class Client:\n    async def send(self, r) -> Response:\n        return Response()\n\n\
             \x20   async def go(self):\n        response = await self.send(1)\n        await response.aclose()\n        self.last = await self.send(2)\n\n\
             \x20   async def again(self):\n        await self.last.aclose()\n",
        ),
        (
            "web/open.ts",
            "class Handle {\n  close() {}\n}\nclass Other {\n  close() {}\n}\n\
             async function open(): Promise<Handle> {\n  return new Handle();\n}\n\
             async function run() {\n  const h = await open();\n  h.close();\n}\n",
        ),
        (
            "src/lib.rs",
            "pub struct Conn;\nimpl Conn {\n    pub fn close(&self) {}\n}\npub struct Other;\nimpl Other {\n    pub fn close(&self) {}\n}\n\
             async fn connect() -> Result<Conn, Error> {\n    Ok(Conn)\n}\n\
             async fn run() -> Result<(), Error> {\n    let c = connect().await?;\n    c.close();\n    Ok(())\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "pkg/client.py:Client.go"),
        pairs(&[
            ("pkg/client.py:Client.send", "container"),
            ("pkg/client.py:Response.aclose", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "pkg/client.py:Client.again"),
        pairs(&[("pkg/client.py:Response.aclose", "type")])
    );
    assert_eq!(
        callees(&s, "web/open.ts:run"),
        pairs(&[
            ("web/open.ts:Handle.close", "type"),
            ("web/open.ts:open", "file")
        ])
    );
    assert_eq!(
        callees(&s, "src/lib.rs:run"),
        pairs(&[
            ("src/lib.rs:Conn.close", "type"),
            ("src/lib.rs:connect", "file")
        ])
    );
}

#[test]
fn calling_a_python_field_that_holds_a_class_makes_an_instance_of_it() {
    let s = snapshot(&[(
        "pkg/core.py",
        "import typing as t\n\n\
         class Context:\n    def scope(self):\n        pass\n\n\
         class Other:\n    def scope(self):\n        pass\n\n\
         class Hook:\n    def __call__(self, x) -> Other:\n        pass\n\n    def close(self):\n        pass\n\n\
         class Command:\n    context_class: t.Type[Context] = Context\n    hook: Hook\n\n\
         \x20   def make_context(self):\n        ctx = self.context_class(self)\n        ctx.scope()\n        made = self.hook(1)\n        made.close()\n",
    )]);
    // `self.hook(1)` calls a `Hook` instance (its `__call__`), not the class: no `Hook` made,
    // so `made.close()` is no call of `Hook.close`.
    assert_eq!(
        callees(&s, "pkg/core.py:Command.make_context"),
        pairs(&[("pkg/core.py:Context.scope", "type")])
    );
    // A class with a library's base may be called through an inherited `__call__`
    // (`nn.Module`): its field's call makes nothing known.
    let s = snapshot(&[(
        "pkg/model.py",
        "from torch import nn\n\n\
         class Encoder(nn.Module):\n    def to(self, d):\n        pass\n\n\
         class Other:\n    def to(self, d):\n        pass\n\n\
         class Model(nn.Module):\n    def __init__(self):\n        self.enc = Encoder()\n\n\
         \x20   def forward(self, x):\n        h = self.enc(x)\n        h.to(1)\n",
    )]);
    let forward = callees(&s, "pkg/model.py:Model.forward");
    assert!(
        !forward.contains(&("pkg/model.py:Encoder.to".to_string(), "type")),
        "{forward:?}"
    );
}

#[test]
fn names_a_call_s_value_is_unpacked_into_take_the_declared_tuple_s_types() {
    let s = snapshot(&[(
        "pkg/core.py",
        "import typing as t\n\n\
         class Command:\n    def make_context(self):\n        pass\n\n\
         class Group:\n    def make_context(self):\n        pass\n\n\
         \x20   def resolve_command(self, args) -> t.Tuple[t.Optional[str], t.Optional[Command], t.List[str]]:\n        pass\n\n\
         \x20   def invoke(self, args):\n        name, cmd, rest = self.resolve_command(args)\n        cmd.make_context()\n        name.make_context()\n\n\
         def split(x) -> tuple[\"Group\", Command]:\n    pass\n\n\
         def many(x) -> tuple[Command, ...]:\n    pass\n\n\
         def run():\n    (\n        group,  # the group\n        command,\n    ) = split(1)\n    group.resolve_command([])\n    command.make_context()\n    first, *others, last = split(2)\n    last.make_context()\n    a, b = many(3)\n    a.make_context()\n",
    )]);
    // `name` is a `str`, `rest` a list: neither is a project type.
    assert_eq!(
        callees(&s, "pkg/core.py:Group.invoke"),
        pairs(&[
            ("pkg/core.py:Command.make_context", "type"),
            ("pkg/core.py:Group.resolve_command", "container"),
        ])
    );
    // A bare call unpacked is never a method's: the library's `split`, not `Path.split`.
    let library = snapshot(&[(
        "pkg/paths.py",
        "from os.path import split\n\nclass A:\n    def go(self):\n        pass\n\n\
         class Path:\n    def split(self) -> tuple[A, A]:\n        pass\n\n\
         def f(p):\n    head, tail = split(p)\n    head.go()\n",
    )]);
    let f = callees(&library, "pkg/paths.py:f");
    assert!(
        !f.contains(&("pkg/paths.py:A.go".to_string(), "type")),
        "{f:?}"
    );
    // Past a starred name, and in a tuple of any length, no position is known: only a guess
    // by name.
    assert_eq!(
        callees(&s, "pkg/core.py:run"),
        pairs(&[
            ("pkg/core.py:Command.make_context", "type"),
            ("pkg/core.py:Group.make_context", "name"),
            ("pkg/core.py:Group.resolve_command", "type"),
            ("pkg/core.py:many", "file"),
            ("pkg/core.py:split", "file"),
        ])
    );
}

#[test]
fn importers_of_a_package_root_count_only_where_they_use_the_file() {
    let mut files = vec![
        (
            "pkg/__init__.py".to_string(),
            "from pkg.a import fa\nfrom pkg.b import fb\n".to_string(),
        ),
        ("pkg/a.py".into(), "def fa():\n    pass\n".into()),
        ("pkg/b.py".into(), "def fb():\n    pass\n".into()),
    ];
    for i in 0..5 {
        files.push((
            format!("app/use{i}.py"),
            "import pkg\n\ndef go():\n    pkg.fa()\n".into(),
        ));
    }
    let s = snapshot(&files);
    let a = views::dependencies(&s, s.graph.file("pkg/a.py").unwrap(), 10, 50);
    let b = views::dependencies(&s, s.graph.file("pkg/b.py").unwrap(), 10, 50);
    // a's names are used through the root: the root and its five users depend on it.
    assert_eq!((a.blast_radius, a.through_package_root), (6, 0));
    // Nobody uses b's: only the root depends on it, the five are counted apart.
    assert_eq!((b.blast_radius, b.through_package_root), (1, 5));
    assert_eq!(b.dependents, vec![("pkg/__init__.py".to_string(), 1)]);
}

/// The by-container lookup of a name's definitions agrees with a scan of every definition,
/// for every (name, container) pair and for ones no definition has; and a call on a type
/// among many types sharing a method name reaches that type's method only.
#[test]
fn a_types_methods_are_found_among_many_of_the_same_name() {
    let mut files = Vec::new();
    for i in 0..12 {
        files.push((
            format!("src/t{i}.rs"),
            format!(
                "pub struct T{i};\nimpl T{i} {{\n    pub fn new() -> Self {{ T{i} }}\n    pub fn run(&self) {{}}\n}}\npub fn new() {{}}\n"
            ),
        ));
    }
    files.push((
        "src/main.rs".to_string(),
        "fn main() {\n    let t = T7::new();\n    T3::run(&t);\n}\n".to_string(),
    ));
    let s = snapshot(&files);
    let g = &s.graph;
    let mut keys: Vec<(String, Option<String>)> = g
        .symbols
        .iter()
        .map(|n| (n.symbol().name.clone(), n.symbol().container.clone()))
        .collect();
    keys.push(("new".into(), Some("Absent".into())));
    keys.push(("absent".into(), Some("T1".into())));
    for (name, container) in &keys {
        let Some(container) = container else { continue };
        let scanned: Vec<u32> = (0..g.symbols.len() as u32)
            .filter(|&i| {
                let s = g.symbols[i as usize].symbol();
                s.name == *name && s.container.as_deref() == Some(container.as_str())
            })
            .collect();
        assert_eq!(
            g.members(name, container),
            scanned.as_slice(),
            "{container}.{name}"
        );
    }
    assert_eq!(g.members("new", "T7").len(), 1);
    assert_eq!(
        callees(&s, "src/main.rs:main"),
        pairs(&[
            ("src/t7.rs:T7.new", "container"),
            ("src/t3.rs:T3.run", "container"),
        ])
    );
}

#[test]
fn go_values_take_the_types_new_assertions_fields_and_embedded_structs_give_them() {
    let s = snapshot(&[
        (
            "mux/route.go",
            "package mux\n\ntype Route struct {\n\trouteConf\n\tname string\n}\n\n\
             type routeConf struct {\n\tregexp routeRegexpGroup\n\tmatchers []matcher\n\tmiddlewares []middleware\n}\n\n\
             type routeRegexpGroup struct {\n\thost *routeRegexp\n}\n\n\
             type routeRegexp struct{}\n\nfunc (r *routeRegexp) url() string {\n\treturn \"\"\n}\n\n\
             type matcher interface {\n\tMatch(r *Request) bool\n}\n\n\
             type middleware interface {\n\tMiddleware(h Handler) Handler\n}\n\n\
             func (r *Route) Path(p string) *Route {\n\treturn r\n}\n\n\
             func (r *Route) Name(n string) *Route {\n\treturn r\n}\n\n\
             func (r *Route) GetMethods() []string {\n\treturn nil\n}\n\n\
             func (r *Route) URL() string {\n\treturn r.regexp.host.url()\n}\n\n\
             func (r *Route) Match(req *Request) bool {\n\tfor _, m := range r.matchers {\n\t\tm.Match(req)\n\t}\n\tfor i := range r.middlewares {\n\t\tr.middlewares[i].Middleware(nil)\n\t}\n\treturn true\n}\n",
        ),
        (
            "mux/router.go",
            "package mux\n\ntype Router struct{}\n\nfunc (r *Router) ServeHTTP() {}\n\nfunc (r *Router) walk() {}\n\nfunc (r *Router) Match(req *Request) bool {\n\treturn false\n}\n\n\
             type methodMatcher []string\n\nfunc (m methodMatcher) Match(req *Request) bool {\n\treturn true\n}\n\n\
             // Has Match but another interface's method too: it meets both.\n\
             type other struct{}\n\nfunc (o other) Match(req *Request) bool {\n\treturn true\n}\n\n\
             type picky interface {\n\tMatch(r *Request) bool\n\tPick()\n}\n",
        ),
        (
            "mux/route_test.go",
            "package mux\n\ntype routeTest struct {\n\troute *Route\n}\n\ntype hostTest struct {\n\tmatcher *Route\n}\n\n\
             var hostTests = []hostTest{\n\t{matcher: nil},\n}\n\n\
             func BenchmarkMux() {\n\trouter := new(Router)\n\trouter.ServeHTTP()\n}\n\n\
             func TestChain() {\n\tnew(Route).Path(\"a\").Name(\"b\")\n}\n\n\
             func walkAll(sr interface{}) {\n\tif h, ok := sr.(*Router); ok {\n\t\th.walk()\n\t}\n}\n\n\
             func testMethods(test routeTest) {\n\troute := test.route\n\troute.GetMethods()\n}\n\n\
             func TestHost() {\n\tfor _, v := range hostTests {\n\t\tv.matcher.Match(nil)\n\t}\n}\n",
        ),
    ]);
    let expect = [
        (
            "mux/route_test.go:BenchmarkMux",
            "mux/router.go:Router.ServeHTTP",
        ),
        ("mux/route_test.go:TestChain", "mux/route.go:Route.Name"),
        ("mux/route_test.go:walkAll", "mux/router.go:Router.walk"),
        (
            "mux/route_test.go:testMethods",
            "mux/route.go:Route.GetMethods",
        ),
        ("mux/route_test.go:TestHost", "mux/route.go:Route.Match"),
        // Through the embedded struct's fields.
        ("mux/route.go:Route.URL", "mux/route.go:routeRegexp.url"),
    ];
    for (caller, callee) in expect {
        assert!(
            callees(&s, caller).contains(&(callee.to_string(), "type")),
            "{caller} -> {callee}: {:?}",
            callees(&s, caller)
        );
    }
    // A call through an interface names the interface's method; an element of a slice field
    // is of the slice's element type.
    assert_eq!(
        callees(&s, "mux/route.go:Route.Match"),
        pairs(&[
            ("mux/route.go:matcher.Match", "type"),
            ("mux/route.go:middleware.Middleware", "type"),
        ])
    );
    // Asked about an implementation, its callers include the calls through an interface its
    // type meets (every method of it), never one it does not (`picky` wants `Pick`), nor the
    // target's own call through the interface.
    let callers_of = |target: &str| view_callers(&s, &[target], target);
    assert_eq!(
        callers_of("mux/router.go:methodMatcher.Match"),
        [("mux/route.go:Route.Match".to_string(), "dispatch")]
    );
    assert_eq!(
        callers_of("mux/route.go:Route.Match"),
        [("mux/route_test.go:TestHost".to_string(), "type")]
    );
}

/// Go's several results and parallel assignments: each name takes the value at its
/// position (`_, rest := w.split()`, `a, b := s[0], t[0]`), and an index into a slice,
/// or into a pointer to one (`(*s)[i]`), is an element of it.
#[test]
fn go_names_take_the_result_or_the_value_at_their_position() {
    let s = snapshot(&[
        (
            "x/text.go",
            "package x\n\ntype Node interface {\n\tEqual(n Node) bool\n}\n\n\
             type List []Record\n\ntype Record struct {\n\tValue Node\n\tKey   Key\n}\n\n\
             type Key struct{}\n\nfunc (k Key) Hash() int {\n\treturn 0\n}\n\n\
             type Wrap struct{}\n\nfunc (w *Wrap) Equal(n Node) bool {\n\treturn false\n}\n\n\
             func (w *Wrap) split() (Node, List) {\n\treturn nil, nil\n}\n\n\
             func (w *Wrap) named() (n int, rest List, k Key) {\n\treturn\n}\n\n\
             func (l List) Expand() int {\n\treturn 0\n}\n\n\
             func (l List) Equal(n Node) bool {\n\treturn false\n}\n\n\
             func (l List) Len() int {\n\treturn 0\n}\n\n\
             func (r Record) Len() int {\n\treturn 0\n}\n",
        ),
        (
            "x/use.go",
            "package x\n\nfunc pair() (*Wrap, List) {\n\treturn nil, nil\n}\n\n\
             func results(w *Wrap) {\n\t_, rest := w.split()\n\trest.Expand()\n\t_, more, k := w.named()\n\tmore.Expand()\n\tk.Hash()\n\tp, q := pair()\n\tp.Equal(nil)\n\tq.Expand()\n\tvar a, b = pair()\n\ta.Equal(nil)\n\tb.Expand()\n}\n\n\
             func parallel(s, t List) bool {\n\tr1, r2 := s[0], t[1]\n\tr2.Key.Hash()\n\treturn r1.Value.Equal(r2.Value)\n}\n\n\
             func (s *List) last() {\n\t(*s)[len(*s)-1].Value.Equal(nil)\n\tr := (*s)[0]\n\tr.Key.Hash()\n}\n\n\
             func unknown(w *Wrap) {\n\tx, y := w.missing()\n\ty.Expand()\n\t_ = x\n}\n\n\
             func vars() {\n\tvar a, b = pair()\n\tb.Equal(nil)\n\t_ = a\n}\n\n\
             func sliced(s List) {\n\ts[1:].Len()\n\ts[0].Len()\n}\n",
        ),
    ]);
    // One comparison, so that an answer gone wrong shows beside the others.
    let asked = [
        "results",
        "parallel",
        "List.last",
        "unknown",
        "vars",
        "sliced",
    ]
    .map(|f| typed_callees(&s, &format!("x/use.go:{f}")));
    let results = [
        "x/text.go:Key.Hash",
        "x/text.go:List.Expand",
        "x/text.go:Wrap.Equal",
        "x/text.go:Wrap.named",
        "x/text.go:Wrap.split",
    ];
    let element = ["x/text.go:Key.Hash", "x/text.go:Node.Equal"];
    // A result of a method no type declares is nothing known; only the first of several
    // names is typed by the first result (`b` of `var a, b = pair()` is the second's); a
    // slice of a slice (`s[1:]`) is of the slice's type, no element.
    let expected: [Vec<&str>; 6] = [
        results.to_vec(),
        element.to_vec(),
        element.to_vec(),
        vec![],
        vec!["x/text.go:List.Equal"],
        vec!["x/text.go:List.Len", "x/text.go:Record.Len"],
    ];
    assert_eq!(asked, expected);
}

/// A Go slice of a type that is itself a slice (`[]Path` of a `type Path []PathStep`) holds
/// `Path`s: indexing or ranging over it gives one, no `PathStep`; a named slice type's
/// value gives its element; a variadic parameter is a slice.
#[test]
fn a_go_collection_s_element_is_read_once() {
    let s = snapshot(&[(
        "x/path.go",
        "package x\n\ntype PathStep interface {\n\tString() string\n}\n\n\
         type Path []PathStep\n\nfunc (p Path) String() string {\n\treturn \"\"\n}\n\n\
         func (p Path) Last() PathStep {\n\treturn nil\n}\n\n\
         type Report struct {\n\tpaths []Path\n\tbyName map[string]Path\n}\n\n\
         func (r *Report) first() {\n\tr.paths[0].String()\n\tp := r.byName[\"a\"]\n\tp.Last()\n}\n\n\
         func each(paths ...Path) {\n\tfor _, p := range paths {\n\t\tp.Last()\n\t}\n}\n\n\
         func steps(p Path) {\n\tp[0].String()\n\tfor _, s := range p {\n\t\ts.String()\n\t}\n}\n",
    )]);
    let asked =
        ["Report.first", "each", "steps"].map(|f| typed_callees(&s, &format!("x/path.go:{f}")));
    let expected: [&[&str]; 3] = [
        &["x/path.go:Path.Last", "x/path.go:Path.String"],
        &["x/path.go:Path.Last"],
        &["x/path.go:PathStep.String"],
    ];
    assert_eq!(
        asked,
        expected.map(|e| e.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    );
}

/// A Go function or method named as a value (passed, or a composite literal's element)
/// is listed among the calls of the function naming it, as gopls lists it, where it
/// resolves surely: never a parameter or local of that name, never by the name alone,
/// never a type.
#[test]
fn a_go_function_named_as_a_value_is_called_by_the_function_naming_it() {
    let s = snapshot(&[
        (
            "x/flag.go",
            "package x\n\ntype FlagSet struct{}\n\n\
             func (f *FlagSet) getFlagType(name string, convert func(string) error) {}\n\n\
             func (f *FlagSet) GetInt(name string) {\n\tf.getFlagType(name, intConv)\n}\n\n\
             type approx struct{}\n\nfunc (a approx) compare(x, y float64) bool {\n\treturn true\n}\n\n\
             func Comparer(f interface{}) {}\n\n\
             func Approx() {\n\ta := approx{}\n\tComparer(a.compare)\n\tComparer(other.compare)\n}\n\n\
             type test struct {\n\tfnc interface{}\n}\n\n\
             func TestTable() {\n\tfor _, t := range []test{{fnc: intConv}, {fnc: Approx}} {\n\t\t_ = t\n\t}\n\tfs := []interface{}{Comparer}\n\t_ = fs\n}\n\n\
             func shadow(intConv int) {\n\tComparer(intConv)\n}\n\n\
             func local() {\n\tif intConv := 1; intConv > 0 {\n\t\tComparer(intConv)\n\t}\n\tComparer(FlagSet{})\n\tComparer(approx)\n}\n\n\
             func guess(v interface{}) {\n\tComparer(v.compare)\n}\n",
        ),
        (
            "x/conv.go",
            "package x\n\nfunc intConv(s string) error {\n\treturn nil\n}\n",
        ),
    ]);
    let asked = [
        "FlagSet.GetInt",
        "Approx",
        "TestTable",
        "shadow",
        "local",
        "guess",
    ]
    .map(|f| {
        let mut found = callees(&s, &format!("x/flag.go:{f}"));
        found.dedup();
        found
    });
    let expected = [
        pairs(&[
            ("x/conv.go:intConv", "package"),
            ("x/flag.go:FlagSet.getFlagType", "type"),
        ]),
        pairs(&[
            ("x/flag.go:Comparer", "file"),
            ("x/flag.go:approx.compare", "type"),
        ]),
        pairs(&[
            ("x/conv.go:intConv", "package"),
            ("x/flag.go:Approx", "file"),
            ("x/flag.go:Comparer", "file"),
        ]),
        pairs(&[("x/flag.go:Comparer", "file")]),
        pairs(&[("x/flag.go:Comparer", "file")]),
        // A method of an unknown receiver, which a call would guess by its name.
        pairs(&[("x/flag.go:Comparer", "file")]),
    ];
    assert_eq!(asked, expected);
}

/// Two functions declaring their own `type I interface`: a type meets each by that one's
/// methods, never by the other's.
#[test]
fn a_go_type_meets_a_local_interface_by_its_own_methods() {
    let s = snapshot(&[(
        "x/t.go",
        "package x\n\nfunc a() {\n\ttype I interface {\n\t\tF()\n\t\tG()\n\t}\n\tvar i I\n\ti.F()\n}\n\n\
         func b() {\n\ttype I interface {\n\t\tH()\n\t}\n\tvar j I\n\tj.H()\n}\n\n\
         type T struct{}\n\nfunc (t *T) F() {}\n\nfunc (t *T) H() {}\n",
    )]);
    let callers_of = |target: &str| view_callers(&s, &[target], target);
    assert_eq!(callers_of("x/t.go:T.F"), []);
    assert_eq!(
        callers_of("x/t.go:T.H"),
        [("x/t.go:b".to_string(), "dispatch")]
    );
}

#[test]
fn a_name_assigned_a_field_s_value_has_the_field_s_type() {
    let s = snapshot(&[
        (
            "app/models.py",
            "class Session:\n    def send(self):\n        pass\n\nclass Other:\n    def send(self):\n        pass\n\n\
             class Client:\n    def __init__(self, session: Session):\n        self.session = session\n\n\
             def run(client: Client):\n    session = client.session\n    session.send()\n",
        ),
        (
            "src/app.ts",
            "export class Session {\n  send() {}\n}\n\nexport class Other {\n  send() {}\n}\n\n\
             export class Client {\n  session: Session;\n\n  run() {\n    const s = this.session;\n    s.send();\n  }\n}\n",
        ),
        (
            "src/lib.rs",
            "pub struct Session;\n\nimpl Session {\n    pub fn send(&self) {}\n}\n\npub struct Other;\n\nimpl Other {\n    pub fn send(&self) {}\n}\n\n\
             pub struct Client {\n    session: Session,\n}\n\nimpl Client {\n    pub fn run(&self) {\n        let s = &self.session;\n        s.send();\n    }\n}\n",
        ),
    ]);
    for (caller, callee) in [
        ("app/models.py:run", "app/models.py:Session.send"),
        ("src/app.ts:Client.run", "src/app.ts:Session.send"),
        ("src/lib.rs:Client.run", "src/lib.rs:Session.send"),
    ] {
        assert_eq!(callees(&s, caller), pairs(&[(callee, "type")]), "{caller}");
    }
}

#[test]
fn a_typescript_implementation_or_override_is_called_where_the_method_it_implements_is() {
    let s = snapshot(&[
        (
            "src/types.ts",
            "export interface Sink {\n  complete(): void;\n}\n",
        ),
        (
            "src/impl.ts",
            "import { Sink } from './types';\n\nexport class Base implements Sink {\n  complete() {}\n}\n\n\
             export class Leaf extends Base {\n  complete() {}\n}\n\nexport class Loose {\n  complete() {}\n}\n",
        ),
        (
            "src/use.ts",
            "import { Sink } from './types';\nimport { Base } from './impl';\n\nexport function finish(s: Sink) {\n  s.complete();\n}\n\nexport function viaBase(b: Base) {\n  b.complete();\n}\n",
        ),
    ]);
    // The call names the interface's method.
    assert_eq!(
        callees(&s, "src/use.ts:finish"),
        pairs(&[("src/types.ts:Sink.complete", "type")])
    );
    // An override is called where the method it overrides is, too.
    let finish = ("src/use.ts:finish", "dispatch");
    for (target, expected) in [
        (
            "src/impl.ts:Base.complete",
            vec![finish, ("src/use.ts:viaBase", "type")],
        ),
        (
            "src/impl.ts:Leaf.complete",
            vec![finish, ("src/use.ts:viaBase", "dispatch")],
        ),
        // A class with the method but not naming the interface: TypeScript's server does not
        // list it.
        ("src/impl.ts:Loose.complete", vec![]),
    ] {
        let callers = view_callers(&s, &[target], target);
        let expected: Vec<(String, &str)> =
            expected.iter().map(|(f, h)| (f.to_string(), *h)).collect();
        assert_eq!(callers, expected, "{target}");
    }
}

#[test]
fn a_callback_s_parameters_take_the_types_its_callee_declares_for_them() {
    let s = snapshot(&[
        (
            "src/Subscriber.ts",
            "export class Subscriber<T> {\n  next(v: T) {}\n  complete() {}\n}\n\nexport class Other {\n  next() {}\n  complete() {}\n}\n",
        ),
        (
            "src/Observable.ts",
            "import { Subscriber } from './Subscriber';\n\nexport class Observable<T> {\n  constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => void) {}\n\n  subscribe(s: Subscriber<T>) {}\n}\n",
        ),
        (
            "src/operate.ts",
            "import { Observable } from './Observable';\nimport { Subscriber } from './Subscriber';\n\nexport function operate<T, R>(\n  init: (liftedSource: Observable<T>, subscriber: Subscriber<R>) => void\n) {}\n",
        ),
        (
            "src/use.ts",
            "import { operate } from './operate';\nimport { Observable } from './Observable';\n\n\
             export function map() {\n  return operate((source, subscriber) => {\n    source.subscribe(subscriber);\n    subscriber.complete();\n  });\n}\n\n\
             export function make() {\n  return new Observable((subscriber) => {\n    subscriber.next(1);\n  });\n}\n\n\
             export function guess() {\n  unknownThing((subscriber) => {\n    subscriber.complete();\n  });\n}\n",
        ),
    ]);
    let typed = |caller: &str| -> Vec<String> {
        callees(&s, caller)
            .into_iter()
            .filter(|(_, how)| *how == "type")
            .map(|(to, _)| to)
            .collect()
    };
    assert_eq!(
        typed("src/use.ts:map"),
        [
            "src/Observable.ts:Observable.subscribe",
            "src/Subscriber.ts:Subscriber.complete"
        ]
    );
    // A class's constructor declares what `new` passes to its callback.
    assert_eq!(
        typed("src/use.ts:make"),
        ["src/Subscriber.ts:Subscriber.next"]
    );
    // A callee the project does not define types nothing.
    assert!(typed("src/use.ts:guess").is_empty());
}

#[test]
fn a_star_import_gathers_the_public_names_of_the_modules_it_reaches() {
    let s = snapshot(&[
        (
            "httpx/__init__.py",
            "from ._api import *\nfrom ._client import *\n\ndef get():\n    pass\n",
        ),
        (
            "httpx/_api.py",
            "def options():\n    pass\n\ndef get():\n    pass\n\ndef _private():\n    pass\n",
        ),
        (
            "httpx/_client.py",
            "from ._models import *\n\nclass Client:\n    def __enter__(self):\n        return self\n\n    def post(self):\n        pass\n",
        ),
        ("httpx/_models.py", "class Request:\n    pass\n"),
        (
            "tests/test_api.py",
            "import httpx\nfrom httpx import Request\n\n\
             def test_options():\n    httpx.options()\n    httpx.get()\n    httpx._private()\n    Request()\n\n\
             def test_post():\n    with httpx.Client() as client:\n        client.post()\n",
        ),
    ]);
    // The package's own `get` shadows the star-imported one; a private name is not gathered.
    assert_eq!(
        callees(&s, "tests/test_api.py:test_options"),
        pairs(&[
            ("httpx/__init__.py:get", "import"),
            ("httpx/_api.py:options", "import"),
            ("httpx/_models.py:Request", "import"),
        ])
    );
    // `with C() as v`: v is the C made (a context manager's `__enter__` returns it).
    assert_eq!(
        callees(&s, "tests/test_api.py:test_post"),
        pairs(&[
            ("httpx/_client.py:Client", "import"),
            ("httpx/_client.py:Client.post", "type"),
        ])
    );
}

#[test]
fn an_index_gathering_modules_by_export_star_is_followed_to_the_definition() {
    let s = snapshot(&[
        (
            "src/core/atom.ts",
            "export function createAtom() {}\nexport class Atom {\n  report() {}\n}\n",
        ),
        (
            "src/internal.ts",
            "export * from './core/atom';\nexport * as ns from './core/ns';\n",
        ),
        ("src/core/ns.ts", "export function inNs() {}\n"),
        (
            "src/mobx.ts",
            "export { createAtom, Atom } from './internal';\n",
        ),
        (
            "src/api/use.ts",
            "import { createAtom, Atom, inNs } from '../internal';\n\n\
             export function use() {\n  createAtom();\n  new Atom().report();\n  inNs();\n}\n",
        ),
        (
            "test/use.test.ts",
            "import { createAtom } from '../src/mobx';\n\nfunction t() {\n  createAtom();\n}\n",
        ),
    ]);
    // `export * as ns` binds one name, `ns`, not the module's every name.
    let known = |caller: &str| -> Vec<(String, &'static str)> {
        let mut found = callees(&s, caller);
        found.retain(|(_, how)| *how != "name");
        found
    };
    assert_eq!(
        known("src/api/use.ts:use"),
        pairs(&[
            ("src/core/atom.ts:Atom", "import"),
            ("src/core/atom.ts:Atom.report", "type"),
            ("src/core/atom.ts:createAtom", "import"),
        ])
    );
    assert_eq!(
        callees(&s, "test/use.test.ts:t"),
        pairs(&[("src/core/atom.ts:createAtom", "import")])
    );
}

#[test]
fn a_rust_path_names_its_module_s_file_exactly_and_a_bound_names_a_generic_s_trait() {
    let s = snapshot(&[
        ("src/lib.rs", "mod algorithms;\nmod utils;\n"),
        ("src/utils.rs", "pub fn common() {}\n"),
        ("src/algorithms/mod.rs", "pub mod utils;\npub mod hist;\n"),
        (
            "src/algorithms/utils.rs",
            "pub fn common() {}\npub fn other() {}\npub struct Map<K> { k: K }\nimpl<K> Map<K> {\n    pub fn new() -> Self { loop {} }\n}\n",
        ),
        (
            "src/algorithms/hook.rs",
            "pub trait Hook {\n    fn emit(&mut self);\n}\n\npub struct Replace<D: Hook> {\n    d: D,\n}\n\n\
             impl<D: Hook> Replace<D> {\n    pub fn finish(&mut self) {\n        self.d.emit();\n    }\n}\n",
        ),
        (
            "src/algorithms/hist.rs",
            "use crate::algorithms::utils::{common, Map};\nuse super::utils::other;\nuse super::hook::Hook;\n\n\
             fn run<D: Hook>(d: &mut D) {\n    common();\n    other();\n    let m = Map::<u32>::new();\n    d.emit();\n}\n\n\
             fn walk<D>(\n    d: &mut D,\n    first_long_parameter: usize,\n    second_long_parameter: usize,\n    third_long_parameter: usize,\n    fourth_long_parameter: usize,\n    fifth_long_parameter: usize,\n) -> Result<(), std::io::Error>\nwhere\n    D: Hook + ?Sized,\n{\n    d.emit();\n    Ok(())\n}\n\n\
             fn any(d: &mut impl Hook) {\n    d.emit();\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/algorithms/hist.rs:run"),
        pairs(&[
            ("src/algorithms/hook.rs:Hook.emit", "type"),
            ("src/algorithms/utils.rs:Map.new", "import"),
            ("src/algorithms/utils.rs:common", "import"),
            ("src/algorithms/utils.rs:other", "import"),
        ])
    );
    for caller in ["src/algorithms/hist.rs:walk", "src/algorithms/hist.rs:any"] {
        assert_eq!(
            callees(&s, caller),
            pairs(&[("src/algorithms/hook.rs:Hook.emit", "type")]),
            "{caller}"
        );
    }
    // (`walk`'s where clause is past the 200 characters its signature keeps.) A field of a
    // generic type, bound on the impl and the struct.
    assert_eq!(
        callees(&s, "src/algorithms/hook.rs:Replace.finish"),
        pairs(&[("src/algorithms/hook.rs:Hook.emit", "type")])
    );
}

#[test]
fn private_names_package_variables_and_nested_functions_resolve_as_the_language_sees_them() {
    let s = snapshot(&[
        ("src/cache.ts", "export class Cache {\n  find() {}\n}\n"),
        (
            "src/client.ts",
            "import { Cache } from './cache';\n\nexport class Client {\n  #cache: Cache\n\n  constructor() {\n    const listener = () => {};\n    listener();\n  }\n\n  #notify() {}\n\n  pull() {\n    function pull() {}\n    return pull();\n  }\n\n\
             run(listener: () => void) {\n    this.#cache.find();\n    const cache = this.#cache;\n    cache.find();\n    this.#notify();\n    listener();\n  }\n}\n",
        ),
        (
            "pflag/flag.go",
            "package pflag\n\nimport goflag \"flag\"\n\ntype FlagSet struct{}\n\nfunc (f *FlagSet) BoolVar() {}\n\n\
             func NewFlagSet() *FlagSet { return &FlagSet{} }\n\nvar CommandLine = NewFlagSet()\n\n\
             type Value interface {\n    Set(string) error\n}\n\n\
             type wrapper struct {\n    inner goflag.Value\n}\n\nfunc (w *wrapper) Set(v string) error {\n    return w.inner.Set(v)\n}\n",
        ),
        (
            "pflag/bool.go",
            "package pflag\n\nfunc Bool() {\n    CommandLine.BoolVar()\n}\n",
        ),
    ]);
    let mut run = callees(&s, "src/client.ts:Client.run");
    run.retain(|(_, how)| *how != "name");
    run.dedup();
    // The parameter `listener` is no call of the constructor's own `listener`.
    assert_eq!(
        run,
        pairs(&[
            ("src/cache.ts:Cache.find", "type"),
            ("src/client.ts:Client.#notify", "container"),
        ])
    );
    // A function named as the one it is declared in is seen there.
    assert_eq!(
        callees(&s, "src/client.ts:Client.pull"),
        pairs(&[("src/client.ts:pull.pull", "container")])
    );
    assert_eq!(
        callees(&s, "src/client.ts:Client.constructor"),
        pairs(&[("src/client.ts:constructor.listener", "container")])
    );
    // A package variable another file of the package declares, typed by what made it.
    assert_eq!(
        callees(&s, "pflag/bool.go:Bool"),
        pairs(&[("pflag/flag.go:FlagSet.BoolVar", "type")])
    );
    // `goflag.Value` is the standard library's, not the package's own `Value`.
    assert!(
        callees(&s, "pflag/flag.go:wrapper.Set").is_empty(),
        "{:?}",
        callees(&s, "pflag/flag.go:wrapper.Set")
    );
}

#[test]
fn a_symbol_named_by_its_whole_qualified_name_is_that_definition_alone() {
    let s = snapshot(&[(
        "flag.go",
        "package flag\n\ntype FlagSet struct{}\n\nfunc (f *FlagSet) Uint32() {}\n\nfunc Uint32() {}\n",
    )]);
    let named = |symbol: &str| -> Vec<String> {
        views::symbols_in(&s, "flag.go", Some(symbol))
            .unwrap()
            .into_iter()
            .map(|i| label(&s, i))
            .collect()
    };
    assert_eq!(named("Uint32"), ["flag.go:Uint32"]);
    assert_eq!(named("FlagSet.Uint32"), ["flag.go:FlagSet.Uint32"]);
    let s = snapshot(&[(
        "a.go",
        "package a\n\ntype T struct{}\n\nfunc (t *T) Only() {}\n",
    )]);
    let only = views::symbols_in(&s, "a.go", Some("Only")).unwrap();
    assert_eq!(label(&s, only[0]), "a.go:T.Only");
}

#[test]
fn a_java_type_of_the_caller_s_own_package_is_the_one_its_simple_name_means() {
    let s = snapshot(&[
        (
            "src/main/java/org/cli/Util.java",
            "package org.cli;\n\nfinal class Util {\n    static boolean isEmpty(String s) { return true; }\n}\n",
        ),
        (
            "src/main/java/org/cli/help/Util.java",
            "package org.cli.help;\n\nfinal class Util {\n    static boolean isEmpty(String s) { return true; }\n}\n",
        ),
        (
            "src/main/java/org/cli/HelpFormatter.java",
            "package org.cli;\n\npublic class HelpFormatter {\n    public static Builder builder() { return new Builder(); }\n\n    public static class Builder {\n        public Builder width(int w) { return this; }\n        public HelpFormatter get() { return null; }\n    }\n}\n",
        ),
        (
            "src/main/java/org/cli/help/HelpFormatter.java",
            "package org.cli.help;\n\npublic class HelpFormatter {\n    public static Builder builder() { return new Builder(); }\n\n    public static class Builder {\n        public Builder width(int w) { return this; }\n        public HelpFormatter get() { return null; }\n    }\n}\n",
        ),
        (
            "src/main/java/org/cli/help/Text.java",
            "package org.cli.help;\n\nclass Text {\n    void title(String t) {\n        if (Util.isEmpty(t)) {}\n        HelpFormatter.builder().width(3).get();\n    }\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/main/java/org/cli/help/Text.java:Text.title"),
        pairs(&[
            (
                "src/main/java/org/cli/help/HelpFormatter.java:Builder.get",
                "type"
            ),
            (
                "src/main/java/org/cli/help/HelpFormatter.java:Builder.width",
                "type"
            ),
            (
                "src/main/java/org/cli/help/HelpFormatter.java:HelpFormatter.builder",
                "container"
            ),
            (
                "src/main/java/org/cli/help/Util.java:Util.isEmpty",
                "container"
            ),
        ])
    );
}

#[test]
fn a_commonjs_require_binds_what_it_destructures_and_never_a_module_s_every_name() {
    let s = snapshot(&[
        (
            "lib/util.js",
            "function destroy() {}\nfunction parse() {}\nmodule.exports = { destroy, parse }\n",
        ),
        (
            "lib/client.js",
            "class Client {\n  close() {}\n}\nmodule.exports = Client\n",
        ),
        (
            "lib/timers.js",
            "function setTimeout() {}\nmodule.exports = { setTimeout }\n",
        ),
        (
            "lib/api.js",
            "const util = require('./util')\nconst { parse: parseIt } = require('./util.js')\n\
             const Client = require('./client')\nconst timers = require('./timers.js')\n\n\
             function run() {\n  util.destroy()\n  parseIt()\n  new Client().close()\n  setTimeout(() => {}, 1)\n}\n",
        ),
    ]);
    // `setTimeout` is the runtime's: requiring timers.js puts none of its names in scope.
    let mut found = callees(&s, "lib/api.js:run");
    found.retain(|(_, how)| *how != "name");
    assert_eq!(
        found,
        pairs(&[
            ("lib/client.js:Client", "import"),
            ("lib/client.js:Client.close", "type"),
            ("lib/util.js:destroy", "import"),
            ("lib/util.js:parse", "import"),
        ])
    );
}

#[test]
fn calls_in_rust_macro_arguments_resolve_and_a_file_s_type_alias_is_no_other_file_s_type() {
    let s = snapshot(&[
        (
            "src/graph.rs",
            "pub struct NodeIndex(u32);\nimpl NodeIndex {\n    pub fn index(&self) -> usize { 0 }\n}\n",
        ),
        (
            "src/csr.rs",
            "pub type NodeIndex<Ix> = Ix;\n\nfn at(ix: NodeIndex<u32>) -> usize {\n    ix.index()\n}\n\n\
             fn span(n: usize) -> usize { n }\n\n\
             #[test]\nfn spans() {\n    assert_eq!(span(1), span(2));\n    let v = vec![NodeIndex::default()];\n}\n",
        ),
    ]);
    // `NodeIndex` in csr.rs is its own alias (of a library integer), not graph.rs's struct.
    let at = callees(&s, "src/csr.rs:at");
    assert!(at.iter().all(|(_, how)| *how == "name"), "{at:?}");
    let spans = callees(&s, "src/csr.rs:spans");
    assert!(
        spans.contains(&("src/csr.rs:span".to_string(), "file")),
        "{spans:?}"
    );
}

/// petgraph's shapes: a type alias in another file (`UnGraphMap`), written with and
/// without a turbofish, a method called with one, and a trait's `impl` calling the type's
/// own method of the same name.
#[test]
fn rust_type_aliases_turbofish_calls_and_inherent_methods_resolve() {
    let s = snapshot(&[
        (
            "src/lib.rs",
            "pub mod graphmap;\npub mod graph;\npub mod data;\n",
        ),
        (
            "src/graphmap.rs",
            "pub struct GraphMap<N, E, Ty, S> { n: N, e: E, t: Ty, s: S }\n\
             pub type UnGraphMap<N, E, #[cfg(feature = \"std\")] S = RandomState> =\n    GraphMap<N, E, Undirected, S>;\n\
             pub type Pair = (u32, u32);\n\
             impl<N, E, Ty, S> GraphMap<N, E, Ty, S> {\n    pub fn new() -> Self { GraphMap }\n    \
             pub fn add_edge(&mut self, a: N, b: N, w: E) -> Option<E> { None }\n}\n",
        ),
        (
            "src/graph.rs",
            "pub struct Graph<N, E, Ty = ()> { n: N, e: E, t: Ty }\n\
             pub struct Other;\nimpl Other {\n    pub fn only_here(&self) {}\n}\n\
             impl<N, E, Ty> Graph<N, E, Ty> {\n    pub fn from_edges<I>(it: I) -> Self { Graph }\n    \
             pub fn find_edge(&self, a: usize) -> Option<usize> { None }\n    \
             pub fn into_other<T>(self) -> Other { Other }\n}\n",
        ),
        (
            "src/data.rs",
            "use crate::graphmap::GraphMap;\n\
             pub trait Build {\n    fn add_edge(&mut self, a: u32, b: u32, w: u32) -> Option<u32>;\n}\n\
             impl<E, Ty, S> Build for GraphMap<u32, E, Ty, S> {\n    \
             fn add_edge(&mut self, a: u32, b: u32, w: u32) -> Option<u32> {\n        self.add_edge(a, b, w);\n        None\n    }\n}\n",
        ),
        (
            "tests/graphmap.rs",
            "use pg::graphmap::UnGraphMap;\nuse pg::graph::Graph;\n\n\
             fn turbofish() {\n    let mut gr = UnGraphMap::<_, _>::new();\n    gr.add_edge(1, 2, 3);\n}\n\n\
             fn plain() {\n    let gr = UnGraphMap::new();\n}\n\n\
             fn method() {\n    let gr = Graph::<i32, i32>::from_edges([(1, 2)]);\n    gr.find_edge(1);\n    \
             let other = gr.into_other::<u8>();\n    other.only_here();\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "tests/graphmap.rs:turbofish"),
        pairs(&[
            ("src/graphmap.rs:GraphMap.add_edge", "type"),
            ("src/graphmap.rs:GraphMap.new", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "tests/graphmap.rs:plain"),
        pairs(&[("src/graphmap.rs:GraphMap.new", "type")])
    );
    assert_eq!(
        callees(&s, "tests/graphmap.rs:method"),
        pairs(&[
            ("src/graph.rs:Graph.find_edge", "type"),
            ("src/graph.rs:Graph.from_edges", "container"),
            ("src/graph.rs:Graph.into_other", "type"),
            ("src/graph.rs:Other.only_here", "type"),
        ])
    );
    // Not the trait method calling itself.
    assert_eq!(
        callees(&s, "src/data.rs:GraphMap.add_edge"),
        pairs(&[("src/graphmap.rs:GraphMap.add_edge", "container")])
    );
    // Nor where the type and the trait's impl share a file and the type's own method is
    // written in another.
    let s = snapshot(&[
        (
            "src/data.rs",
            "pub struct GraphMap;\npub trait Build {\n    fn add_edge(&self);\n}\n\
             impl Build for GraphMap {\n    fn add_edge(&self) {\n        self.add_edge()\n    }\n}\n",
        ),
        (
            "src/more.rs",
            "use crate::data::GraphMap;\nimpl GraphMap {\n    pub fn add_edge(&self) {}\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/data.rs:GraphMap.add_edge"),
        pairs(&[("src/more.rs:GraphMap.add_edge", "container")])
    );
}

/// Rust's `let (a, b) = ..`: a function's or method's declared tuple, element by element
/// (a `_` keeps its place), or a tuple written whole; and a type alias local to a test.
#[test]
fn rust_tuples_unpacked_and_a_local_alias_type_what_they_name() {
    let s = snapshot(&[
        (
            "src/list.rs",
            "pub struct List;\nimpl List {\n    pub fn find_edge(&self) {}\n}\n\
             pub struct Flags;\nimpl Flags {\n    pub fn unicode(&self) -> bool { true }\n}\n\
             pub struct Seq;\nimpl Seq {\n    pub fn is_exact(&self) -> bool { true }\n    \
             pub fn split(&self) -> (Seq, Csr) { (Seq, Csr) }\n}\n\
             pub fn closure<G>(g: G) -> (List, List)\nwhere\n    G: Copy,\n{\n    (List, List)\n}\n\
             pub struct Csr;\nimpl Csr {\n    pub fn new() -> Self { Csr }\n    pub fn add_node(&self) {}\n}\n",
        ),
        (
            "src/user.rs",
            "use crate::list::{closure, Csr, Flags, Seq};\n\n\
             fn flags() -> Flags { Flags }\n\n\
             fn go(s: Seq) {\n    let (_, tclos) = closure(1);\n    tclos.find_edge();\n    \
             let (mut seq, f) = s.split();\n    seq.is_exact();\n    f.add_node();\n    \
             let (utf8, fl) = (true, flags());\n    fl.unicode();\n}\n\n\
             fn graph6() {\n    type G = Csr;\n    let g = G::new();\n    g.add_node();\n}\n",
        ),
    ]);
    let known = |caller: &str| known_callees(&s, caller);
    assert_eq!(
        known("src/user.rs:go"),
        pairs(&[
            ("src/list.rs:Csr.add_node", "type"),
            ("src/list.rs:Flags.unicode", "type"),
            ("src/list.rs:List.find_edge", "type"),
            ("src/list.rs:Seq.is_exact", "type"),
            ("src/list.rs:Seq.split", "type"),
            ("src/list.rs:closure", "import"),
            ("src/user.rs:flags", "file"),
        ])
    );
    assert_eq!(
        known("src/user.rs:graph6"),
        pairs(&[
            ("src/list.rs:Csr.add_node", "type"),
            ("src/list.rs:Csr.new", "type"),
        ])
    );
}

/// A Rust tuple's elements by position (`st.1.next()` of an `st: &mut (State, Other)`, a
/// field's `self.pair.0`, a tuple returned); and a method of the caller's own type returning
/// its `impl`'s generic (`fn inner(&self) -> &G`), called on `self` from an `impl` for the
/// same type, is the caller's `G` with the caller's bounds, never from an `impl` that spells
/// the type otherwise (whose `G` may be another parameter).
#[test]
fn rust_tuple_elements_and_an_own_impl_generic_type_their_calls() {
    let s = snapshot(&[
        (
            "src/state.rs",
            "pub struct State;\nimpl State {\n    pub fn push(&mut self) {}\n    \
             pub fn run(&self) {}\n}\n\
             pub struct Other;\nimpl Other {\n    pub fn pop(&self) {}\n    \
             pub fn run(&self) {}\n}\n\
             pub trait Weights {\n    fn weight(&self) -> u32;\n    fn run(&self);\n}\n\
             pub trait Plain {\n    fn plain(&self) -> u32;\n}\n",
        ),
        (
            "src/user.rs",
            "use crate::state::{Other, Plain, State, Weights};\n\n\
             pub struct Pairs {\n    pair: (Other, State),\n}\n\
             impl Pairs {\n    fn param(&self, st: &mut (State, Other)) {\n        st.1.run();\n    }\n    \
             fn field(&self) {\n        self.pair.1.run();\n    }\n    \
             fn returned(&self) {\n        let both = make();\n        both.0.run();\n    }\n    \
             fn nested(&self, deep: (u8, (State, Other))) {\n        deep.1.1.run();\n    }\n}\n\n\
             fn make() -> (Other, State) {\n    (Other, State)\n}\n\n\
             pub struct Wrap<G> {\n    graph: G,\n}\n\
             impl<G> Wrap<G> {\n    pub fn inner(&self) -> &G {\n        &self.graph\n    }\n    \
             pub fn with_state(&self) -> (G, State) {\n        (self.graph, State)\n    }\n}\n\
             impl<G: Weights> Weights for Wrap<G> {\n    fn weight(&self) -> u32 {\n        \
             self.inner().weight()\n    }\n    fn run(&self) {}\n}\n\
             pub struct Pair<A, B> {\n    a: A,\n    b: B,\n}\n\
             impl<A, B> Pair<A, B> {\n    pub fn first(&self) -> &A {\n        &self.a\n    }\n}\n\
             impl<B, A: Plain> Plain for Pair<B, A> {\n    fn plain(&self) -> u32 {\n        \
             self.first().plain()\n    }\n}\n\n\
             fn elsewhere<G: Weights>(w: &Wrap<Other>) {\n    let got = w.with_state();\n    got.0.run();\n    got.1.push();\n}\n",
        ),
    ]);
    let known = |caller: &str| known_callees(&s, caller);
    // Each element by its own position, through a parameter, a field, a declared return and
    // a tuple inside a tuple: both element types have a `run`.
    assert_eq!(
        known("src/user.rs:Pairs.param"),
        pairs(&[("src/state.rs:Other.run", "type")])
    );
    assert_eq!(
        known("src/user.rs:Pairs.field"),
        pairs(&[("src/state.rs:State.run", "type")])
    );
    assert_eq!(
        known("src/user.rs:Pairs.returned"),
        pairs(&[
            ("src/state.rs:Other.run", "type"),
            ("src/user.rs:make", "file"),
        ])
    );
    assert_eq!(
        known("src/user.rs:Pairs.nested"),
        pairs(&[("src/state.rs:Other.run", "type")])
    );
    // A returned tuple's element naming the declaration's generic is the caller's choice,
    // not the caller's own `G` (here bound by `Weights`): only the `State` element is known.
    assert_eq!(
        known("src/user.rs:elsewhere"),
        pairs(&[
            ("src/state.rs:State.push", "type"),
            ("src/user.rs:Wrap.with_state", "type"),
        ])
    );
    assert_eq!(
        known("src/user.rs:Wrap.weight"),
        pairs(&[
            ("src/state.rs:Weights.weight", "type"),
            ("src/user.rs:Wrap.inner", "container"),
        ])
    );
    // `impl<B, A: Plain> Plain for Pair<B, A>` spells the type otherwise than `first`'s
    // `Pair<A, B>`: its own `A` is `first`'s `B`, so `self.first()` is not read as its `A`.
    assert_eq!(
        known("src/user.rs:Pair.plain"),
        pairs(&[("src/user.rs:Pair.first", "container")])
    );
}

/// A Rust type's methods are written in any file's `impl` blocks: `self.m()` in an `impl`
/// of the type in another file reaches them (an inherent one, a trait impl's, a trait's
/// default method), the type being the one the caller's file names, not another type of
/// that name elsewhere.
#[test]
fn a_rust_self_call_reaches_the_type_s_methods_in_other_files() {
    let s = snapshot(&[
        (
            "src/lib.rs",
            "pub mod graph;\npub mod quick;\npub mod other;\n",
        ),
        (
            "src/graph.rs",
            "pub struct Graph;\n\nimpl Graph {\n    pub fn node_count(&self) -> usize {\n        0\n    }\n}\n\n\
             impl Clone for Graph {\n    fn clone(&self) -> Self {\n        Graph\n    }\n}\n",
        ),
        (
            "src/other.rs",
            "pub struct Graph;\n\nimpl Graph {\n    pub fn edge_count(&self) -> usize {\n        0\n    }\n}\n",
        ),
        (
            "src/quick.rs",
            "use crate::graph::Graph;\n\npub trait Arbitrary {\n    fn shrink(&self);\n}\n\n\
             impl Arbitrary for Graph {\n    fn shrink(&self) {\n        let copy = self.clone();\n        \
             self.node_count();\n        self.edge_count();\n    }\n}\n",
        ),
    ]);
    assert_eq!(
        known_callees(&s, "src/quick.rs:Graph.shrink"),
        pairs(&[
            ("src/graph.rs:Graph.clone", "container"),
            ("src/graph.rs:Graph.node_count", "container"),
        ])
    );
}

/// A closure in a Rust macro's arguments (`assert_eq!(.., g.edges().map(|e| e.target()))`,
/// `vec![..]`) binds its parameters as one outside a macro does; a closure's parameter
/// outside the macro's lines is not the macro's.
#[test]
fn a_closure_in_a_rust_macro_s_arguments_types_its_parameters() {
    let s = snapshot(&[
        (
            "src/graph.rs",
            "pub struct Edge;\nimpl Edge {\n    pub fn target(&self) -> usize {\n        0\n    }\n}\n\n\
             pub struct Edges;\nimpl Iterator for Edges {\n    type Item = Edge;\n    \
             fn next(&mut self) -> Option<Edge> {\n        None\n    }\n}\n\n\
             pub struct Graph;\nimpl Graph {\n    pub fn edges(&self) -> Edges {\n        Edges\n    }\n}\n",
        ),
        (
            "src/user.rs",
            "use crate::graph::Graph;\n\nfn check(g: &Graph) {\n    assert_eq!(\n        1,\n        \
             g.edges().map(|e| e.target()).count()\n    );\n}\n\n\
             fn listed(g: &Graph) {\n    let v = vec![g.edges().map(|e| e.target()).sum::<usize>()];\n}\n\n\
             fn plain(e: u8) {\n    println!(\"{}\", e.target());\n}\n",
        ),
    ]);
    let known = |caller: &str| known_callees(&s, caller);
    let expected = pairs(&[
        ("src/graph.rs:Edge.target", "type"),
        ("src/graph.rs:Graph.edges", "type"),
    ]);
    assert_eq!(known("src/user.rs:check"), expected);
    assert_eq!(known("src/user.rs:listed"), expected);
    assert_eq!(known("src/user.rs:plain"), pairs(&[]));
}

/// A Rust extension trait the file imports, implemented for every type meeting a bound
/// (`impl<I: Iterator> IterExt for I {}`), is what its methods' calls on a value of unknown
/// or library type reach: Rust calls a trait's method only where the trait is in scope.
/// Not without the import, not a trait implemented for named types or for references to
/// what implements it already, not where another imported trait declares the name too, and
/// not on a value of a project type (whose own traits were looked up).
#[test]
fn a_rust_extension_trait_the_file_imports_is_what_its_methods_calls_reach() {
    let s = snapshot(&[
        (
            "src/iter_ext.rs",
            "pub trait IterExt: Iterator {\n    fn ex_find(&mut self) -> Option<u8> {\n        \
             None\n    }\n    fn both(&self) {}\n    fn label(&self) {}\n}\n\n\
             impl<I> IterExt for I where I: Iterator {}\n",
        ),
        (
            "src/other_ext.rs",
            "pub trait OtherExt {\n    fn both(&self) {}\n}\n\n\
             impl<T: Clone> OtherExt for T {}\n",
        ),
        (
            "src/named.rs",
            "pub struct Foo;\npub trait Labelled {\n    fn label(&self) {}\n}\n\n\
             impl Labelled for Foo {}\n\n\
             pub trait Walker {\n    fn walk_all(&self) {}\n}\n\n\
             impl<W: Walker> Walker for &mut W {}\n",
        ),
        (
            "src/user.rs",
            "use crate::iter_ext::IterExt;\nuse crate::named::{Labelled, Walker};\n\
             use crate::other_ext::OtherExt;\n\n\
             pub struct Nodes {\n    iter: std::vec::IntoIter<u8>,\n}\n\n\
             impl Nodes {\n    fn next_one(&mut self) -> Option<u8> {\n        \
             self.iter.ex_find()\n    }\n    fn many(&self, x: u8) {\n        \
             make().label();\n        x.both();\n        (0..3).ex_find();\n        \
             x.walk_all();\n    }\n}\n\n\
             fn typed(other: &Nodes) {\n    other.ex_find();\n}\n\n\
             fn make() -> u8 {\n    0\n}\n",
        ),
        (
            "src/plain.rs",
            "pub fn walk(v: Vec<u8>) {\n    v.into_iter().ex_find();\n}\n",
        ),
    ]);
    let known = |caller: &str| known_callees(&s, caller);
    assert_eq!(
        known("src/user.rs:Nodes.next_one"),
        pairs(&[("src/iter_ext.rs:IterExt.ex_find", "import")])
    );
    assert_eq!(
        known("src/user.rs:Nodes.many"),
        pairs(&[
            ("src/iter_ext.rs:IterExt.ex_find", "import"),
            ("src/user.rs:make", "file"),
        ])
    );
    assert_eq!(known("src/plain.rs:walk"), pairs(&[]));
    assert_eq!(known("src/user.rs:typed"), pairs(&[]));
}

/// TypeScript's `type Store = BaseStore`, imported: a value declared a `Store` has
/// `BaseStore`'s methods; a union alias is none of its members.
#[test]
fn a_typescript_type_alias_is_the_class_it_names() {
    let s = snapshot(&[
        (
            "src/base.ts",
            "export class BaseStore {\n    load() {}\n}\nexport class Other {\n    load() {}\n}\n",
        ),
        (
            "src/store.ts",
            "import { BaseStore, Other } from './base'\n\
             export type Store = BaseStore\nexport type Either = BaseStore | Other\n",
        ),
        (
            "src/use.ts",
            "import { Store, Either } from './store'\n\n\
             export function one(s: Store) {\n    s.load()\n}\n\n\
             export function two(e: Either) {\n    e.load()\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/use.ts:one"),
        pairs(&[("src/base.ts:BaseStore.load", "type")])
    );
    assert!(
        callees(&s, "src/use.ts:two")
            .iter()
            .all(|(_, how)| *how == "name"),
        "{:?}",
        callees(&s, "src/use.ts:two")
    );
}

/// A method written in an object literal (`const traps = { defineProperty(..) {..} }`) is
/// no module's export: a star re-export offering `defineProperty` does not make it the
/// imported name (mobx's `Object.defineProperty` alias beside its proxy traps).
#[test]
fn an_object_literal_s_method_is_not_what_an_import_binds() {
    let s = snapshot(&[
        (
            "src/dynamicobject.ts",
            "const traps = {\n    defineProperty(target: any, name: string) {\n        return true\n    },\n}\n\
             export function getAdm(target: any) {\n    return target\n}\n",
        ),
        (
            "src/utils.ts",
            "export const defineProperty = Object.defineProperty\n",
        ),
        (
            "src/internal.ts",
            "export * from \"./dynamicobject\"\nexport * from \"./utils\"\n",
        ),
        (
            "src/flow.ts",
            "import { defineProperty, getAdm } from \"./internal\"\n\n\
             export function make(source: any) {\n    getAdm(source)\n    defineProperty(source, \"k\", {})\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/flow.ts:make"),
        pairs(&[("src/dynamicobject.ts:getAdm", "import")])
    );
}

/// A base class named through a module the file imports (`class Article(models.Model)`,
/// `class Model(models.Model)`) is that module's class: not the subclass itself when they
/// share the name, nor unresolved where the project has many classes of the name.
#[test]
fn a_base_named_through_an_imported_module_is_that_module_s_class() {
    let model = "class Model:\n    pass\n";
    let s = snapshot(&[
        ("pkg/db/models/__init__.py", "from .base import Model\n"),
        (
            "pkg/db/models/base.py",
            "class Model:\n    def save(self):\n        pass\n\n    def check(self):\n        pass\n",
        ),
        ("tests/a.py", model),
        ("tests/b.py", model),
        ("tests/c.py", model),
        ("tests/d.py", model),
        (
            "app/articles.py",
            "from pkg.db import models\n\nclass Article(models.Model):\n    pass\n\n\
             def publish():\n    a = Article()\n    a.save()\n",
        ),
        (
            "app/models.py",
            "from pkg.db import models\n\nclass Model(models.Model):\n    def go(self):\n        self.check()\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "app/articles.py:publish"),
        pairs(&[
            ("app/articles.py:Article", "file"),
            ("pkg/db/models/base.py:Model.save", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "app/models.py:Model.go"),
        pairs(&[("pkg/db/models/base.py:Model.check", "base")])
    );
}

/// A Rust module written inline sees its parent's names (`use super::*`), not the other
/// way round: a test module's helper or `macro_rules!` is not what the file's own code
/// calls by that name. And a `use crate::..` inside it names the crate's module.
#[test]
fn a_rust_inline_module_s_items_are_not_seen_outside_it() {
    let s = snapshot(&[
        (
            "src/lib.rs",
            "pub mod ast;\npub mod parser;\npub mod parse;\n",
        ),
        // `crate::ast::parse` is not the caller's own parse.rs, which a suffix match of
        // the path would take.
        ("src/ast/mod.rs", "pub mod parse;\n"),
        (
            "src/ast/parse.rs",
            "pub struct Parser;\nimpl Parser {\n    pub fn new() -> Parser { Parser }\n}\n",
        ),
        (
            "src/parser.rs",
            "pub struct Parser;\nimpl Parser {\n    pub fn new() -> Parser { Parser }\n}\n",
        ),
        (
            "src/reexport.rs",
            "mod imp {\n    pub fn f() {}\n}\npub use imp::f;\n\nfn g() {\n    f();\n}\n",
        ),
        (
            "src/parse.rs",
            "pub fn escape(c: char) -> bool {\n    assert_eq!(c, 'x');\n    span(c)\n}\n\n\
             fn span(c: char) -> bool { true }\n\n\
             #[cfg(test)]\nmod tests {\n    use super::*;\n    use crate::ast::parse::Parser;\n\n    \
             macro_rules! assert_eq {\n        ($a:expr, $b:expr) => { assert!($a == $b) };\n    }\n\n    \
             fn span(c: char) -> bool { false }\n\n    \
             #[test]\n    fn escapes() {\n        assert_eq!(escape('x'), span('y'));\n        Parser::new();\n    }\n}\n",
        ),
    ]);
    // The test module's `assert_eq!` is at most a guess by its name.
    assert_eq!(
        callees(&s, "src/parse.rs:escape"),
        pairs(&[
            ("src/parse.rs:span", "file"),
            ("src/parse.rs:tests.assert_eq", "name")
        ])
    );
    assert_eq!(
        callees(&s, "src/parse.rs:tests.escapes"),
        pairs(&[
            ("src/ast/parse.rs:Parser.new", "import"),
            ("src/parse.rs:escape", "file"),
            ("src/parse.rs:tests.assert_eq", "container"),
            ("src/parse.rs:tests.span", "container"),
        ])
    );
    // An inline module's item the file `use`s is the file's name.
    assert_eq!(
        callees(&s, "src/reexport.rs:g"),
        pairs(&[("src/reexport.rs:imp.f", "file")])
    );
}

/// A method of a type named alike in another file is that file's type's: graph.rs's
/// `Edges` has no `size_hint` of its own (the standard `Iterator` gives it), csr.rs's
/// `Edges` has one. An `impl` of the type in a file without a type of that name is still
/// the type's.
#[test]
fn a_method_of_another_file_s_type_of_the_same_name_is_not_this_type_s() {
    let s = snapshot(&[
        (
            "src/graph.rs",
            "pub struct Edges;\npub struct Connecting { edges: Edges }\n\
             impl Connecting {\n    fn size_hint(&self) -> usize {\n        self.edges.size_hint();\n        self.edges.extra()\n    }\n}\n",
        ),
        (
            "src/csr.rs",
            "pub struct Edges;\nimpl Edges {\n    pub fn size_hint(&self) -> usize { 0 }\n}\n",
        ),
        (
            "src/more.rs",
            "use crate::graph::Edges;\nimpl Edges {\n    pub fn extra(&self) -> usize { 0 }\n}\n",
        ),
    ]);
    let known: Vec<_> = callees(&s, "src/graph.rs:Connecting.size_hint")
        .into_iter()
        .filter(|(_, how)| *how != "name")
        .collect();
    assert_eq!(known, pairs(&[("src/more.rs:Edges.extra", "type")]));
}

#[test]
fn a_go_package_imported_under_another_name_types_what_it_names() {
    let s = snapshot(&[
        (
            "internal/teststructs/structs.go",
            "package teststructs\n\ntype ParentStructE struct{}\n\nfunc (s *ParentStructE) PrivateStruct() {}\n\nfunc NewParentStructG() {}\n",
        ),
        (
            "cmp/compare_test.go",
            "package cmp\n\nimport ts \"example.com/m/internal/teststructs\"\n\nfunc embeddedTests() {\n    var s ts.ParentStructE\n    s.PrivateStruct()\n    ts.NewParentStructG()\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "cmp/compare_test.go:embeddedTests"),
        pairs(&[
            ("internal/teststructs/structs.go:NewParentStructG", "import"),
            (
                "internal/teststructs/structs.go:ParentStructE.PrivateStruct",
                "type"
            ),
        ])
    );
}

#[test]
fn a_star_imported_name_is_the_nearest_module_s_and_a_named_import_shadows_it() {
    let s = snapshot(&[
        (
            "pkg/__init__.py",
            "from .base import *\nfrom .api import get\n",
        ),
        (
            "pkg/base.py",
            "def get():\n    pass\n\ndef put():\n    pass\n",
        ),
        (
            "pkg/api.py",
            "from .base import *\n\ndef get():\n    pass\n\ndef put():\n    pass\n",
        ),
        ("gather/__init__.py", "from .api import *\n"),
        (
            "app.py",
            "import gather\nfrom pkg import get\n\ndef main():\n    get()\n    gather.put()\n",
        ),
        (
            "gather/api.py",
            "from pkg.base import *\n\ndef put():\n    pass\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "app.py:main"),
        pairs(&[
            ("gather/api.py:put", "import"),
            ("pkg/api.py:get", "import")
        ])
    );
}

#[test]
fn a_rust_use_of_an_item_of_the_parent_or_root_module_names_that_module_s_file() {
    let s = snapshot(&[
        ("src/lib.rs", "mod a;\npub fn root_fn() {}\n"),
        ("src/a.rs", "mod b;\npub fn helper() {}\n"),
        (
            "src/a/b.rs",
            "use super::helper;\nuse crate::root_fn;\n\nfn run() {\n    helper();\n    root_fn();\n}\n\n\
             #[cfg(test)]\nmod tests {\n    use super::*;\n\n    fn t() {\n        run();\n    }\n}\n",
        ),
        ("other/src/helper.rs", "pub fn helper() {}\n"),
    ]);
    assert_eq!(
        callees(&s, "src/a/b.rs:run"),
        pairs(&[
            ("src/a.rs:helper", "import"),
            ("src/lib.rs:root_fn", "import")
        ])
    );
    // The test module's `use super::*` is no import of the parent module's file.
    let mut from_b: Vec<&str> = s
        .graph
        .imports
        .iter()
        .filter(|e| s.graph.files[e.from as usize].path == "src/a/b.rs")
        .map(|e| s.graph.files[e.to as usize].path.as_str())
        .collect();
    from_b.sort_unstable();
    assert_eq!(from_b, ["src/a.rs", "src/lib.rs"], "{from_b:?}");
}

#[test]
fn a_go_defined_type_holds_methods_and_a_conversion_to_it_is_a_call() {
    let s = snapshot(&[
        (
            "cmp/internal/diff/diff.go",
            "package diff\n\ntype Result struct{ NumDiff int }\n\nfunc (r Result) Equal() bool { return r.NumDiff == 0 }\n",
        ),
        (
            "cmp/options.go",
            "package cmp\n\ntype Result struct{ flags int }\n\nfunc (r Result) Equal() bool { return r.flags == 0 }\n",
        ),
        (
            "cmp/report.go",
            "package cmp\n\ntype PathStep interface {\n    String() string\n}\n\ntype Path []PathStep\n\nfunc (pa Path) String() string {\n    for _, s := range pa {\n        s.String()\n    }\n    return \"\"\n}\n\ntype repeatCount int\n\nfunc (n repeatCount) appendChar(b []byte, c byte) []byte {\n    return b\n}\n\ntype textList []textRecord\n\ntype textRecord struct{ Key string }\n\nfunc (s textList) alignLens() []repeatCount {\n    return nil\n}\n\nfunc (s textList) format(b []byte) (out []byte) {\n    lens := s.alignLens()\n    b = lens[0].appendChar(b, ' ')\n    return repeatCount(2).appendChar(b, '\\t')\n}\n\nfunc (s textList) made() (out textList) {\n    return s\n}\n",
        ),
        (
            "cmp/compare.go",
            "package cmp\n\nimport (\n    \"example.com/m/cmp/internal/diff\"\n    goflag \"flag\"\n)\n\ntype state struct {\n    result diff.Result\n}\n\ntype Flag struct {\n    Value Result\n}\n\nfunc newState() *state { return &state{} }\n\nfunc Equal(list textList, goflag *goflag.Flag) bool {\n    goflag.Value.Equal()\n    s := newState()\n    again := list.made()\n    again.format(nil)\n    n := repeatCount(3)\n    n.appendChar(nil, ' ')\n    return s.result.Equal()\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "cmp/report.go:textList.format"),
        pairs(&[
            ("cmp/report.go:repeatCount", "file"),
            ("cmp/report.go:repeatCount.appendChar", "type"),
            ("cmp/report.go:textList.alignLens", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "cmp/report.go:Path.String"),
        pairs(&[("cmp/report.go:PathStep.String", "type")])
    );
    assert_eq!(
        callees(&s, "cmp/compare.go:Equal"),
        pairs(&[
            ("cmp/compare.go:newState", "file"),
            ("cmp/internal/diff/diff.go:Result.Equal", "type"),
            ("cmp/report.go:repeatCount", "package"),
            ("cmp/report.go:repeatCount.appendChar", "type"),
            ("cmp/report.go:textList.format", "type"),
            ("cmp/report.go:textList.made", "type"),
        ])
    );
}

#[test]
fn a_python_import_of_a_submodule_binds_its_package_too() {
    let s = snapshot(&[
        ("src/pkg/__init__.py", "from .decorators import option\n"),
        (
            "src/pkg/decorators.py",
            "def option(*a):\n    def deco(f):\n        return f\n    return deco\n",
        ),
        (
            "src/pkg/_impl.py",
            "def option():\n    pass\n\ndef helper():\n    pass\n",
        ),
        (
            "tests/test_a.py",
            "import pkg._impl\n\ndef test_x(runner):\n    @pkg.option(\n        \"-g\"\n    )\n    def cli(g):\n        pass\n    pkg._impl.helper()\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "tests/test_a.py:test_x"),
        pairs(&[
            ("src/pkg/_impl.py:helper", "import"),
            ("src/pkg/decorators.py:option", "import"),
        ])
    );
}

#[test]
fn a_parameter_shadows_a_module_and_a_fallback_value_types_a_name() {
    let s = snapshot(&[
        ("rich/markup.py", "def render(markup):\n    pass\n"),
        (
            "rich/console.py",
            "from .markup import render\n\nclass Console:\n    def render(self, x):\n        pass\n\n    def set_live(self, live):\n        pass\n\ndef get_console() -> Console:\n    return Console()\n",
        ),
        (
            "rich/text.py",
            "class Text:\n    def stylize(self, style):\n        pass\n\n    def justify(self):\n        pass\n",
        ),
        (
            "rich/live.py",
            "from .console import Console, get_console\nfrom .text import Text\n\nclass Live:\n    def __init__(self, console: Console = None, screen=None):\n        self.console = console if console is not None else get_console()\n        self.screen = screen or get_console()\n\n    def start(self, console: Console):\n        console.render(1)\n        self.console.set_live(self)\n        self.screen.set_live(self)\n        title = self.text or Text()\n        title.stylize(1)\n        _Text = Text\n        _Text.justify()\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "rich/live.py:Live.start"),
        pairs(&[
            ("rich/console.py:Console.render", "type"),
            ("rich/console.py:Console.set_live", "type"),
            ("rich/text.py:Text", "import"),
            ("rich/text.py:Text.justify", "type"),
            ("rich/text.py:Text.stylize", "type"),
        ])
    );
}

#[test]
fn a_function_inside_a_method_means_the_method_s_class_by_self() {
    let s = snapshot(&[(
        "click/core.py",
        "class Group:\n    def add_command(self, cmd):\n        pass\n\n    def group(self, *args):\n        def decorator(f):\n            cmd = f\n            self.add_command(cmd)\n            return cmd\n\n        return decorator\n\nclass Other:\n    def add_command(self, cmd):\n        pass\n",
    )]);
    assert_eq!(
        callees(&s, "click/core.py:group.decorator"),
        pairs(&[("click/core.py:Group.add_command", "container")])
    );
}

#[test]
fn a_loop_over_a_typed_python_sequence_names_its_elements_type() {
    let s = snapshot(&[
        (
            "rich/text.py",
            "class Text:\n    def pad_right(self, n):\n        pass\n\n    def append(self, x):\n        pass\n",
        ),
        (
            "rich/containers.py",
            "from typing import Iterable, List\nfrom .text import Text\n\nclass Lines:\n    def __init__(self, lines: Iterable[Text] = ()):\n        self._lines: List[\"Text\"] = list(lines)\n\n    def justify(self, width, extra: Iterable[Text]):\n        for line in self._lines:\n            line.pad_right(width)\n        self._lines.append(width)\n        for more in extra:\n            more.pad_right(1)\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "rich/containers.py:Lines.justify"),
        pairs(&[("rich/text.py:Text.pad_right", "type")])
    );
}

#[test]
fn a_for_of_loop_over_a_typed_array_names_its_elements_type() {
    let s = snapshot(&[
        ("src/item.ts", "export class Item {\n  run(): void {}\n}\n"),
        (
            "src/box.ts",
            "import { Item } from './item';\n\nexport class Box {\n  private items: Item[] = [];\n\n  runAll(keys: Item[]): void {\n    for (const item of this.items) {\n      item.run();\n    }\n    for (const key in keys) {\n      key.run();\n    }\n  }\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/box.ts:Box.runAll"),
        pairs(&[("src/item.ts:Item.run", "type")])
    );
}

#[test]
fn a_rust_associated_function_s_declared_return_types_the_call_on_it() {
    let s = snapshot(&[(
        "src/hir.rs",
        "pub struct LookSet;\npub struct Other;\n\nimpl LookSet {\n    pub fn empty() -> LookSet {\n        LookSet\n    }\n    pub fn full() -> Self {\n        LookSet\n    }\n    pub fn insert(self, x: u8) -> LookSet {\n        self\n    }\n}\n\nimpl Other {\n    pub fn insert(self, x: u8) {}\n}\n\nfn singleton(x: u8) -> LookSet {\n    LookSet::empty().insert(x);\n    LookSet::full().insert(x)\n}\n",
    )]);
    assert_eq!(
        callees(&s, "src/hir.rs:singleton"),
        pairs(&[
            ("src/hir.rs:LookSet.empty", "container"),
            ("src/hir.rs:LookSet.full", "container"),
            ("src/hir.rs:LookSet.insert", "type"),
        ])
    );
}

#[test]
fn a_bare_call_s_value_is_the_function_s_not_a_method_s_of_that_name() {
    let s = snapshot(&[(
        "src/ast/parse.rs",
        "pub struct Parser;\npub struct ParserI<'s, P> {\n    p: &'s P,\n}\n\nimpl<'s, P: Borrow<Parser>> ParserI<'s, P> {\n    fn parser(&self) -> &Parser {\n        self.p\n    }\n\n    fn parse_escape(&self) -> u8 {\n        1\n    }\n}\n\nimpl Parser {\n    fn parse_escape(&self) -> u8 {\n        2\n    }\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    fn parser(pattern: &str) -> ParserI<'_, Parser> {\n        ParserI::new(pattern)\n    }\n\n    #[test]\n    fn parse_hex() {\n        assert_eq!(parser(\"x\").parse_escape(), 1);\n    }\n}\n",
    )]);
    assert_eq!(
        callees(&s, "src/ast/parse.rs:tests.parse_hex"),
        pairs(&[
            ("src/ast/parse.rs:ParserI.parse_escape", "type"),
            ("src/ast/parse.rs:tests.parser", "container"),
        ])
    );
}

#[test]
fn a_rust_path_through_the_tree_s_own_crate_name_is_that_crate_s_path() {
    let files = [
        (
            "src/lib.rs",
            "pub mod algo;\npub mod graph;\npub use crate::graph::Graph;\n",
        ),
        ("src/algo/mod.rs", "pub fn dijkstra() {}\n"),
        (
            "src/graph.rs",
            "pub struct Graph;\n\nimpl Graph {\n    pub fn new() -> Graph {\n        Graph\n    }\n    pub fn find_edge(&self) {}\n}\n",
        ),
        // A library crate named alike elsewhere: only a manifest says which is the tree's.
        ("vendor/other/src/algo.rs", "pub fn dijkstra() {}\n"),
        (
            "tests/graph.rs",
            "use petgraph::algo::dijkstra;\nuse petgraph::Graph;\n\n#[test]\nfn walk() {\n    let g = Graph::new();\n    g.find_edge();\n    dijkstra();\n    petgraph::algo::dijkstra();\n}\n",
        ),
    ];
    let facts: Vec<_> = files.iter().map(|(p, s)| facts(p, s)).collect();
    let manifests = Manifests {
        crates: vec![("petgraph".to_string(), String::new())],
        ..Manifests::default()
    };
    let s = rank_snapshot(Graph::update_with(None, &facts, None, manifests));
    assert_eq!(
        callees(&s, "tests/graph.rs:walk"),
        pairs(&[
            ("src/algo/mod.rs:dijkstra", "import"),
            ("src/graph.rs:Graph.find_edge", "type"),
            ("src/graph.rs:Graph.new", "container"),
        ])
    );
    // Without the manifest the crate's name is no module of the tree: a guess by name.
    let without = rank_snapshot(Graph::build(&facts));
    assert!(
        !callees(&without, "tests/graph.rs:walk")
            .contains(&("src/algo/mod.rs:dijkstra".to_string(), "import"))
    );
}

#[test]
fn the_new_typing_rules_keep_off_what_the_language_does_not_mean() {
    let s = snapshot(&[
        (
            "level.go",
            "package log\n\nimport \"log/slog\"\n\ntype Level int\n\nfunc (l Level) String() string { return \"\" }\n\ntype filter int\n\nfunc (f filter) String() string { return \"\" }\n\nfunc walk(n int, filter func(int) bool) {\n    lvl := slog.Level(n)\n    lvl.String()\n    slog.Level(n).String()\n    filter(n)\n}\n",
        ),
        (
            "table.py",
            "class Table:\n    def render(self):\n        pass\n\nclass Row:\n    def render(self):\n        pass\n\nclass Host:\n    def describe(self):\n        pass\n\n    def install(self, cls):\n        def __repr__(self):\n            self.describe()\n        return __repr__\n\ndef show(table: Table, ok, other):\n    for row in table:\n        row.render()\n    x = ok and Table()\n    x.render()\n",
        ),
    ]);
    // A library's conversion is no project type's; a function-typed parameter's call is no
    // conversion. (A guess by name stays apart.)
    assert!(
        callees(&s, "level.go:walk")
            .iter()
            .all(|(_, how)| *how == "name")
    );
    // A nested `def f(self)` has a self of its own.
    assert!(
        !callees(&s, "table.py:install.__repr__")
            .contains(&("table.py:Host.describe".to_string(), "container"))
    );
    // A value of a class iterated, and `a and T()`, state no type.
    assert!(
        callees(&s, "table.py:show")
            .iter()
            .all(|(_, how)| *how != "type")
    );
}

#[test]
fn a_crate_s_own_modules_and_a_module_of_the_crate_s_name_are_not_its_path() {
    let files = [
        ("src/lib.rs", "pub mod algo;\n"),
        ("src/algo.rs", "pub fn dijkstra() {}\n"),
        (
            "src/main.rs",
            "fn main() {\n    petgraph::algo::dijkstra();\n}\n",
        ),
        (
            "app/src/main.rs",
            "mod petgraph;\n\nfn run() {\n    petgraph::algo::dijkstra();\n}\n",
        ),
        ("app/src/petgraph.rs", "pub mod algo;\n"),
        ("app/src/petgraph/algo.rs", "pub fn dijkstra() {}\n"),
    ];
    let facts: Vec<_> = files.iter().map(|(p, s)| facts(p, s)).collect();
    let manifests = Manifests {
        crates: vec![("petgraph".to_string(), String::new())],
        ..Manifests::default()
    };
    let s = rank_snapshot(Graph::update_with(None, &facts, None, manifests));
    // The package's binary uses its library by name.
    assert_eq!(
        callees(&s, "src/main.rs:main"),
        pairs(&[("src/algo.rs:dijkstra", "import")])
    );
    // Another crate's own `mod petgraph` shadows the crate of that name.
    assert!(
        !callees(&s, "app/src/main.rs:run")
            .iter()
            .any(|(c, _)| c == "src/algo.rs:dijkstra")
    );
}

#[test]
fn a_name_imported_from_the_package_itself_is_its_init_s() {
    let s = snapshot(&[
        ("rich/__init__.py", "def get_console():\n    pass\n"),
        ("rich/sub/__init__.py", "def get_console():\n    pass\n"),
        (
            "rich/logging.py",
            "from . import get_console\n\nclass H:\n    def __init__(self, console=None):\n        self.console = console or get_console()\n",
        ),
        (
            "rich/sub/deep.py",
            "from .. import get_console\n\ndef f():\n    get_console()\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "rich/logging.py:H.__init__"),
        pairs(&[("rich/__init__.py:get_console", "import")])
    );
    assert_eq!(
        callees(&s, "rich/sub/deep.py:f"),
        pairs(&[("rich/__init__.py:get_console", "import")])
    );
}

/// A JavaScript constructor function with prototype methods (`function Runner(suite)`,
/// `Runner.prototype.run = function () {..}`) is a class: its methods are its instances',
/// `this.suite = suite` its field, its other names locals; a CommonJS module's
/// `exports.lookupFiles = function ..` is its function, `exports.lookup()` inside it too.
#[test]
fn javascript_constructor_functions_prototype_methods_and_exports_resolve() {
    let s = snapshot(&[
        (
            "lib/suite.js",
            "function Suite () {\n  this.tests = []\n}\n\nSuite.prototype.run = function () {\n  return 1\n}\n\nmodule.exports = Suite\n",
        ),
        (
            "lib/runner.js",
            "const Suite = require('./suite')\n\n\
             /**\n * @param {Suite} suite\n */\nfunction Runner (suite) {\n  this.suite = suite\n  const local = new Suite()\n  local.run()\n}\n\n\
             /**\n * Runs the suite.\n * @param {Suite} [other]\n */\n\
             Runner.prototype.run = function (other) {\n  this.grep()\n  this.suite.run()\n  other.run()\n}\n\n\
             Runner.prototype.grep = function () {\n  return exports.lookup()\n}\n\n\
             exports.lookup = function () {\n  return 1\n}\n\nmodule.exports = Runner\n",
        ),
        (
            "lib/utils.js",
            "exports.lookupFiles = function (dir) {\n  return dir\n}\n\nmodule.exports.isString = (s) => typeof s === 'string'\n\n\
             exports.run = function () {\n  return 0\n}\n",
        ),
        (
            "lib/base.js",
            "function Base (runner) {\n  this.runner = runner\n}\n\nBase.prototype.epilogue = function () {\n  return 1\n}\n\nmodule.exports = Base\n",
        ),
        (
            "lib/nyan.js",
            "const Base = require('./base')\nconst inherits = require('util').inherits\n\n\
             function NyanCat (runner) {\n  Base.call(this, runner)\n  this.epilogue()\n}\n\n\
             inherits(NyanCat, Base)\n\n\
             NyanCat.prototype.draw = function () {\n  this.epilogue()\n  this.draw()\n}\n\nmodule.exports = NyanCat\n",
        ),
        (
            "lib/dot.js",
            "const Base = require('./base')\n\nfunction Dot () {}\nDot.prototype = Object.create(Base.prototype)\n\n\
             Dot.prototype.draw = function () {\n  this.epilogue()\n}\n\n\
             function Min () {}\nObject.setPrototypeOf(Min.prototype, Base.prototype)\n\n\
             Min.prototype.draw = function () {\n  this.epilogue()\n}\n",
        ),
        (
            "lib/hook.js",
            "const utils = require('./utils')\nconst Suite = require('./suite')\n\n\
             function Hook () {\n  function next () {\n    return 1\n  }\n  next()\n}\n\n\
             Hook.prototype.run = function (type) {\n  this.next()\n  utils[type].run()\n}\n\n\
             function later () {\n  next()\n  start() /** @type {Suite} */\n  const w = make()\n  w.run()\n}\n",
        ),
        (
            "test/runner.js",
            "const Runner = require('../lib/runner')\nconst utils = require('../lib/utils')\n\
             const lookup = require('../lib/utils').lookupFiles\n\n\
             function go () {\n  const r = new Runner(null)\n  r.run()\n  utils.lookupFiles('.')\n  utils.isString('x')\n}\n\n\
             function find () {\n  return lookup('.')\n}\n",
        ),
    ]);
    let outline: Vec<String> = s
        .graph
        .symbols
        .iter()
        .filter(|n| s.graph.files[n.file as usize].path == "lib/runner.js")
        .map(|n| {
            let sym = n.symbol();
            format!("{} {} {:?}", sym.kind, sym.name, sym.container)
        })
        .collect();
    assert_eq!(
        outline,
        [
            "class Runner None",
            "method run Some(\"Runner\")",
            "method grep Some(\"Runner\")",
            "function lookup None",
        ]
    );
    assert_eq!(
        callees(&s, "lib/runner.js:Runner"),
        pairs(&[
            ("lib/suite.js:Suite", "import"),
            ("lib/suite.js:Suite.run", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "lib/runner.js:Runner.run"),
        pairs(&[
            ("lib/runner.js:Runner.grep", "container"),
            ("lib/suite.js:Suite.run", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "lib/runner.js:Runner.grep"),
        pairs(&[("lib/runner.js:lookup", "file")])
    );
    assert_eq!(
        callees(&s, "test/runner.js:go"),
        pairs(&[
            ("lib/runner.js:Runner", "import"),
            ("lib/runner.js:Runner.run", "type"),
            ("lib/utils.js:isString", "import"),
            ("lib/utils.js:lookupFiles", "import"),
        ])
    );
    assert_eq!(
        callees(&s, "test/runner.js:find"),
        pairs(&[("lib/utils.js:lookupFiles", "import")])
    );
    // A base given apart (`inherits(NyanCat, Base)`), called in the pre-class way
    // (`Base.call(this, runner)`): its prototype's methods are the subclass's.
    assert_eq!(
        callees(&s, "lib/nyan.js:NyanCat"),
        pairs(&[
            ("lib/base.js:Base", "import"),
            ("lib/base.js:Base.epilogue", "base"),
        ])
    );
    assert_eq!(
        callees(&s, "lib/nyan.js:NyanCat.draw"),
        pairs(&[
            ("lib/base.js:Base.epilogue", "base"),
            ("lib/nyan.js:NyanCat.draw", "container"),
        ])
    );
    for caller in ["lib/dot.js:Dot.draw", "lib/dot.js:Min.draw"] {
        assert_eq!(
            callees(&s, caller),
            pairs(&[("lib/base.js:Base.epilogue", "base")])
        );
    }
    // A constructor function's nested function is its local: neither a method of its
    // instances nor seen from the rest of the file; `utils[type]` is a value, no module;
    // a comment ending another line's code types nothing below it.
    let known = |caller: &str| -> Vec<(String, &'static str)> {
        let all = callees(&s, caller);
        all.into_iter()
            .filter(|(_, tier)| *tier != "name")
            .collect()
    };
    assert_eq!(
        known("lib/hook.js:Hook"),
        pairs(&[("lib/hook.js:Hook.next", "container")])
    );
    assert_eq!(known("lib/hook.js:Hook.run"), pairs(&[]));
    assert_eq!(known("lib/hook.js:later"), pairs(&[]));
}

/// Plain JavaScript states types in JSDoc (`@param {Headers} headers`, `@returns
/// {HeadersList}`, `/** @type {Agent} */`), names members by constants' symbols
/// (`this[kAgent] = new Agent()`, `[kClose] () {..}`, `this[kClose]()`), and calls a
/// function through its own methods (`agent.destroy.bind(agent)`, `helper.call(null, a)`):
/// each resolves as TypeScript's checker resolves it in a `.js` file. A `.ts` file's
/// JSDoc types are not read (its annotations are).
#[test]
fn javascript_jsdoc_types_computed_members_and_call_apply_bind_resolve() {
    let s = snapshot(&[
        (
            "lib/symbols.js",
            "module.exports = {\n  kAgent: Symbol('agent'),\n  kClose: Symbol('close'),\n  kDestroy: Symbol('destroy')\n}\n",
        ),
        (
            "lib/dispatcher-base.js",
            "const { kClose, kDestroy } = require('./symbols')\n\n\
             class DispatcherBase {\n  close () {\n    return 0\n  }\n\n  destroy () {\n    return 1\n  }\n}\n\n\
             module.exports = DispatcherBase\n",
        ),
        (
            "lib/agent.js",
            "const DispatcherBase = require('./dispatcher-base')\nconst { kClose } = require('./symbols')\n\n\
             class Agent extends DispatcherBase {\n  [kClose] () {\n    return 2\n  }\n\n  shut () {\n    return this[kClose]()\n  }\n}\n\n\
             module.exports = Agent\n",
        ),
        (
            "lib/proxy-agent.js",
            "const Agent = require('./agent')\nconst { kAgent, kClose } = require('./symbols')\n\n\
             class ProxyAgent {\n  /** @type {Agent} */\n  backup = null\n\n  constructor (opts) {\n    this[kAgent] = new Agent(opts)\n    /** @type {Agent} */\n    this.spare = pick(opts)\n  }\n\n\
             \x20 async [kClose] () {\n    await this[kAgent].close()\n    this.spare.destroy()\n    this.backup.shut()\n  }\n}\n\n\
             function pick (opts) {\n  return opts\n}\n\nmodule.exports = ProxyAgent\n",
        ),
        (
            "lib/headers.js",
            "class HeadersList {\n  toSortedArray () {\n    return []\n  }\n}\n\n\
             class Headers {\n  getSetCookie () {\n    return []\n  }\n}\n\n\
             /**\n * @param {Headers} target\n * @returns {HeadersList}\n */\n\
             function getHeadersList (target) {\n  return target.list\n}\n\n\
             module.exports = { Headers, HeadersList, getHeadersList }\n",
        ),
        (
            "lib/cookies.js",
            "const { getHeadersList } = require('./headers')\n\n\
             /**\n * @param {Headers} headers\n * @param {import('./agent.js').Agent} [agent]\n */\n\
             function getSetCookies (headers, agent) {\n  const list = getHeadersList(headers)\n  list.toSortedArray()\n  agent.shut()\n  return headers.getSetCookie()\n}\n\n\
             /** @returns {Promise<HeadersList>} */\nconst later = async () => getHeadersList(null)\n\n\
             async function waits () {\n  const list = await later()\n  list.toSortedArray()\n}\n",
        ),
        (
            "test/agent.js",
            "const Agent = require('../lib/agent')\n\n\
             function closes (t) {\n  const agent = new Agent()\n  t.after(agent.destroy.bind(agent))\n  helper.call(null, agent)\n}\n\n\
             function helper (a) {\n  return a\n}\n",
        ),
        (
            "src/typed.ts",
            "/**\n * @param {Headers} headers\n */\nexport function fromTs (headers: any) {\n  headers.getSetCookie()\n}\n",
        ),
        (
            "lib/core/request.js",
            "class Request {\n  onBodySent () {\n    return 1\n  }\n}\n\nmodule.exports = Request\n",
        ),
        (
            "lib/web/request.js",
            "class Request {\n  onBodySent () {\n    return 2\n  }\n}\n\nmodule.exports = { Request }\n",
        ),
        (
            "lib/writer.js",
            "/**\n * @param {import('./core/request.js')} request\n * @param {import('./agent')} agent\n */\n\
             function write (request, agent) {\n  request.onBodySent()\n  agent.shut()\n}\n\n\
             class Writer {\n  /**\n   * @param {object} arg\n   * @param {import('./core/request.js')} arg.request\n   */\n\
             \x20 constructor ({ socket, request: req }) {\n    this.request = req\n  }\n\n\
             \x20 write () {\n    const { request, socket: s = null } = this\n    request.onBodySent()\n  }\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "lib/writer.js:Writer.write"),
        pairs(&[("lib/core/request.js:Request.onBodySent", "type")])
    );
    assert_eq!(
        callees(&s, "lib/writer.js:write"),
        pairs(&[
            ("lib/agent.js:Agent.shut", "type"),
            ("lib/core/request.js:Request.onBodySent", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "lib/proxy-agent.js:ProxyAgent.[kClose]"),
        pairs(&[
            ("lib/agent.js:Agent.shut", "type"),
            ("lib/dispatcher-base.js:DispatcherBase.close", "type"),
            ("lib/dispatcher-base.js:DispatcherBase.destroy", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "lib/agent.js:Agent.shut"),
        pairs(&[("lib/agent.js:Agent.[kClose]", "container")])
    );
    assert_eq!(
        callees(&s, "lib/cookies.js:getSetCookies"),
        pairs(&[
            ("lib/agent.js:Agent.shut", "type"),
            ("lib/headers.js:Headers.getSetCookie", "type"),
            ("lib/headers.js:HeadersList.toSortedArray", "type"),
            ("lib/headers.js:getHeadersList", "import"),
        ])
    );
    assert_eq!(
        callees(&s, "lib/cookies.js:waits"),
        pairs(&[
            ("lib/cookies.js:later", "file"),
            ("lib/headers.js:HeadersList.toSortedArray", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "test/agent.js:closes"),
        pairs(&[
            ("lib/agent.js:Agent", "import"),
            ("lib/dispatcher-base.js:DispatcherBase.destroy", "type"),
            ("test/agent.js:helper", "file"),
        ])
    );
    assert_eq!(callees(&s, "src/typed.ts:fromTs"), pairs(&[]));
}

/// A bare call of the caller's own parameter calls the argument: never the file's (or an
/// import's) definition of that name, in any language whose parameters the graph reads.
#[test]
fn a_call_of_a_parameter_calls_the_argument_not_a_namesake() {
    let s = snapshot(&[
        (
            "app/flow.py",
            "from app.util import render\n\n\ndef next():\n    pass\n\n\ndef send(res, next, render=None):\n    next(res)\n    render(res)\n\n\ndef other(res):\n    next()\n    render(res)\n\n\n\
             def walk(tree, visit=None):\n    if visit is None:\n        def visit(node):\n            pass\n    visit(tree)\n",
        ),
        ("app/util.py", "def render(x):\n    return x\n"),
        (
            "lib/router.js",
            "function next (err) {\n  return err\n}\n\nfunction sendOptionsResponse (res, options, next) {\n  next(res)\n}\n\nfunction handle (req) {\n  next(req)\n}\n",
        ),
    ]);
    assert_eq!(callees(&s, "app/flow.py:send"), pairs(&[]));
    assert_eq!(
        callees(&s, "app/flow.py:other"),
        pairs(&[
            ("app/flow.py:next", "file"),
            ("app/util.py:render", "import")
        ])
    );
    // Unless the caller defines one of that name inside itself.
    assert_eq!(
        callees(&s, "app/flow.py:walk"),
        pairs(&[("app/flow.py:walk.visit", "container")])
    );
    assert_eq!(callees(&s, "lib/router.js:sendOptionsResponse"), pairs(&[]));
    assert_eq!(
        callees(&s, "lib/router.js:handle"),
        pairs(&[("lib/router.js:next", "file")])
    );
}

/// petgraph's traits as it declares them: inside a macro's body, with the macro's own
/// `@section` markers.
const MACRO_TRAITS: &str = "pub trait VisitMap<N> {\n    fn is_visited(&self, n: &N) -> bool;\n}\n\n\
    pub trait Marks {\n    fn is_visited(&self) -> bool;\n}\n\n\
    trait_template! {\n/// Makes a map.\npub trait Visitable {\n    @section type\n    type Map: VisitMap<usize>;\n    \
    @section self\n    fn visit_map(self: &Self) -> Self::Map;\n}\n}\n\n\
    pub struct Seen;\nimpl Seen {\n    pub fn mark(&self) {}\n}\n\n\
    pub struct Graph;\nimpl Visitable for Graph {\n    type Map = Seen;\n    fn visit_map(&self) -> Self::Map { Seen }\n}\n";

#[test]
fn rust_items_in_a_macro_s_body_are_definitions_and_an_associated_type_types_what_returns_it() {
    let files = |traits: &str| {
        vec![
            ("src/lib.rs".to_string(), "pub mod visit;\npub mod algo;\n".to_string()),
            ("src/visit.rs".to_string(), traits.to_string()),
            (
                "src/algo.rs".to_string(),
                "use crate::visit::{Graph, Visitable};\n\n\
                 pub fn walk<G: Visitable>(g: G) {\n    let seen = g.visit_map();\n    seen.is_visited(&0);\n}\n\n\
                 pub fn concrete(g: Graph) {\n    let seen = g.visit_map();\n    seen.mark();\n}\n\n\
                 fn helper() {}\n\n\
                 proptest! {\n    #[test]\n    fn checks(x in 0..3usize) {\n        helper();\n    }\n}\n"
                    .to_string(),
            ),
        ]
    };
    let s = snapshot(&files(MACRO_TRAITS));
    assert_eq!(
        callees(&s, "src/algo.rs:walk"),
        pairs(&[
            ("src/visit.rs:VisitMap.is_visited", "type"),
            ("src/visit.rs:Visitable.visit_map", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "src/algo.rs:concrete"),
        pairs(&[
            ("src/visit.rs:Graph.visit_map", "type"),
            ("src/visit.rs:Seen.mark", "type"),
        ])
    );
    // A function a test macro declares is one, and its calls are its own.
    assert_eq!(
        callees(&s, "src/algo.rs:checks"),
        pairs(&[("src/algo.rs:helper", "file")])
    );
    // The trait's bound changed: what returns the associated type returns the new bound, in
    // an update as in a fresh build.
    let changed = MACRO_TRAITS.replace("type Map: VisitMap<usize>;", "type Map: Marks;");
    let changed_facts: Vec<_> = files(&changed).iter().map(|(p, t)| facts(p, t)).collect();
    let updated = rank_snapshot(Graph::update(Some(&s.graph), &changed_facts));
    let fresh = snapshot(&files(&changed));
    let expected = pairs(&[
        ("src/visit.rs:Marks.is_visited", "type"),
        ("src/visit.rs:Visitable.visit_map", "type"),
    ]);
    assert_eq!(callees(&fresh, "src/algo.rs:walk"), expected);
    assert_eq!(callees(&updated, "src/algo.rs:walk"), expected);
}

#[test]
fn rust_loops_and_closures_over_collections_and_iterators_hold_their_elements() {
    let s = snapshot(&[
        (
            "src/lib.rs",
            "pub mod visit;\npub mod algo;\npub mod graph;\n",
        ),
        (
            "src/visit.rs",
            "pub trait EdgeRef {\n    fn source(&self) -> usize;\n    fn target(&self) -> usize;\n}\n\n\
             trait_template! {\npub trait IntoEdgeReferences : Data {\n    @section type\n    \
             type EdgeRef: EdgeRef<NodeId=Self::NodeId, EdgeId=Self::EdgeId,\n                          Weight=Self::EdgeWeight>;\n    \
             type EdgeReferences: Iterator<Item=Self::EdgeRef>;\n    @section self\n    \
             fn edge_references(self) -> Self::EdgeReferences;\n}\n}\n",
        ),
        (
            "src/graph.rs",
            "pub struct Node;\nimpl Node {\n    pub fn weight(&self) -> u32 { 0 }\n}\n\n\
             pub struct Nodes;\nimpl Iterator for Nodes {\n    type Item = Node;\n    fn next(&mut self) -> Option<Node> { None }\n}\n\n\
             pub struct Graph {\n    nodes: Vec<Node>,\n    maybe: Option<Vec<Node>>,\n}\n\n\
             impl Graph {\n    pub fn nodes(&self) -> Nodes { Nodes }\n    \
             pub fn maybe(&self) -> u32 {\n        self.maybe.as_ref().map(|ns| ns.weight()).unwrap_or(0)\n    }\n    pub fn all(&self) -> &[Node] { &self.nodes }\n    \
             pub fn total(&self) -> u32 {\n        let mut t = 0;\n        for n in &self.nodes {\n            t += n.weight();\n        }\n        \
             for n in self.nodes.iter().rev() {\n            t += n.weight();\n        }\n        \
             let last = self.nodes.last().unwrap();\n        last.weight();\n        t\n    }\n}\n",
        ),
        (
            "src/algo.rs",
            "use crate::visit::{EdgeRef, IntoEdgeReferences};\nuse crate::graph::Graph;\n\n\
             pub fn bridges<G>(graph: G)\nwhere\n    G: IntoEdgeReferences,\n{\n    \
             graph.edge_references().filter(move |edge| {\n        edge.source() > 0\n    });\n    \
             for e in graph.edge_references() {\n        e.target();\n    }\n}\n\n\
             pub fn weigh(g: &Graph) {\n    for n in g.nodes() {\n        n.weight();\n    }\n    \
             g.all().iter().map(|&n| n.weight());\n    g.nodes().sort_by(|a, b| a.weight().cmp(&b.weight()));\n}\n\n\
             pub fn unknown(g: &Graph, count: usize) {\n    for n in 0..count {\n        n.weight();\n    }\n    \
             for x in g.nodes().unrelated() {\n        x.weight();\n    }\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/algo.rs:bridges"),
        pairs(&[
            ("src/visit.rs:EdgeRef.source", "type"),
            ("src/visit.rs:EdgeRef.target", "type"),
            ("src/visit.rs:IntoEdgeReferences.edge_references", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "src/graph.rs:Graph.total"),
        pairs(&[("src/graph.rs:Node.weight", "type")])
    );
    // An `Option`'s `map` hands its closure the whole collection, no element.
    assert!(
        !callees(&s, "src/graph.rs:Graph.maybe")
            .iter()
            .any(|(_, how)| *how == "type"),
        "{:?}",
        callees(&s, "src/graph.rs:Graph.maybe")
    );
    assert_eq!(
        callees(&s, "src/algo.rs:weigh"),
        pairs(&[
            ("src/graph.rs:Graph.all", "type"),
            ("src/graph.rs:Graph.nodes", "type"),
            ("src/graph.rs:Node.weight", "type"),
        ])
    );
    // A range, or what an unknown method makes, holds nothing known: no link by the type.
    let unknown = callees(&s, "src/algo.rs:unknown");
    assert!(
        unknown
            .iter()
            .all(|(callee, how)| callee == "src/graph.rs:Graph.nodes" || *how == "name"),
        "{unknown:?}"
    );
}

#[test]
fn a_rust_return_type_is_the_declaring_file_s_and_a_trait_method_is_called_through_its_impls() {
    let graph = |module: &str, at: &str| {
        format!(
            "use crate::visit::{{EdgeRef, Counted}};\n\n\
             pub struct EdgeReference;\nimpl EdgeRef for EdgeReference {{\n    fn target(&self) -> usize {{ 0 }}\n}}\n\n\
             pub struct Edges;\nimpl Iterator for Edges {{\n    type Item = EdgeReference;\n    \
             fn next(&mut self) -> Option<EdgeReference> {{ None }}\n}}\n\n\
             pub struct {module};\nimpl {module} {{\n    pub fn edges(&self) -> Edges {{ Edges }}\n}}\n\n\
             impl<'a> Counted for &'a {module} {{\n    fn count(self) -> usize {{ 0 }}\n}}\n\n\
             pub struct Cursor;\nimpl Cursor {{\n    pub fn step(&self) {{}}\n}}\n\n\
             pub struct Walk {{\n    at: {at},\n}}\nimpl Walk {{\n    pub fn go(&self) {{\n        self.at.step();\n    }}\n}}\n"
        )
    };
    let s = snapshot(&[
        (
            "src/lib.rs".to_string(),
            "pub mod visit;\npub mod graph;\npub mod stable;\npub mod algo;\n".to_string(),
        ),
        (
            "src/visit.rs".to_string(),
            "pub trait EdgeRef {\n    fn target(&self) -> usize;\n}\n\n\
             pub trait Counted {\n    fn count(self) -> usize;\n}\n\n\
             pub struct Both;\nimpl Both {\n    pub fn target(&self, x: u8) -> usize { 0 }\n}\n\
             impl EdgeRef for Both {\n    fn target(&self) -> usize { self.target(0) }\n}\n\n\
             pub fn both(b: &Both) {\n    b.target(1);\n}\n"
                .to_string(),
        ),
        ("src/graph.rs".to_string(), graph("Graph", "std::slice::Iter<'static, u8>")),
        ("src/stable.rs".to_string(), graph("StableGraph", "Cursor")),
        (
            "src/algo.rs".to_string(),
            "use crate::graph::Graph;\nuse crate::visit::{Counted, EdgeRef};\n\n\
             pub fn walk(g: &Graph) {\n    for e in g.edges() {\n        e.target();\n    }\n    g.count();\n}\n"
                .to_string(),
        ),
    ]);
    // `Edges` and `EdgeReference` as graph.rs means them, not stable.rs's namesakes; an
    // impl for `&'a Graph` holds `Graph`'s methods.
    assert_eq!(
        callees(&s, "src/algo.rs:walk"),
        pairs(&[
            ("src/graph.rs:EdgeReference.target", "type"),
            ("src/graph.rs:Graph.count", "type"),
            ("src/graph.rs:Graph.edges", "type"),
        ])
    );
    // Asked about the trait's method, its callers include the calls of an implementation
    // (not `both`'s: it calls `Both`'s own `target`, which Rust looks up before the
    // trait's).
    let target = "src/visit.rs:EdgeRef.target";
    assert_eq!(
        view_callers(&s, &[target], target),
        [("src/algo.rs:walk".to_string(), "dispatch")]
    );
    // A field of a type named like another file's type is that file's type's own: graph.rs's
    // `Walk.at` is a library's iterator, whose `step` is no project method.
    assert_eq!(
        callees(&s, "src/stable.rs:Walk.go"),
        pairs(&[("src/stable.rs:Cursor.step", "type")])
    );
    assert!(
        !callees(&s, "src/graph.rs:Walk.go")
            .iter()
            .any(|(_, how)| *how == "type"),
        "{:?}",
        callees(&s, "src/graph.rs:Walk.go")
    );
}

#[test]
fn an_iterator_s_item_restated_moves_the_loops_over_it_in_an_update() {
    let files = |item: &str| {
        vec![
            ("src/lib.rs".to_string(), "pub mod graph;\npub mod algo;\n".to_string()),
            (
                "src/graph.rs".to_string(),
                format!(
                    "pub struct Node;\nimpl Node {{\n    pub fn weight(&self) -> u32 {{ 0 }}\n}}\n\n\
                     pub struct Edge;\nimpl Edge {{\n    pub fn weight(&self) -> u32 {{ 1 }}\n}}\n\n\
                     pub struct Nodes;\nimpl Iterator for Nodes {{\n    type Item = {item};\n    \
                     fn next(&mut self) -> Option<{item}> {{ None }}\n}}\n\n\
                     pub fn nodes() -> Nodes {{ Nodes }}\n"
                ),
            ),
            (
                "src/algo.rs".to_string(),
                "use crate::graph::nodes;\n\npub fn weigh() {\n    for n in nodes() {\n        n.weight();\n    }\n}\n"
                    .to_string(),
            ),
        ]
    };
    let before = snapshot(&files("Node"));
    assert!(
        callees(&before, "src/algo.rs:weigh")
            .contains(&("src/graph.rs:Node.weight".to_string(), "type"))
    );
    let after: Vec<_> = files("Edge").iter().map(|(p, t)| facts(p, t)).collect();
    let updated = rank_snapshot(Graph::update(Some(&before.graph), &after));
    let fresh = snapshot(&files("Edge"));
    assert_eq!(
        callees(&fresh, "src/algo.rs:weigh"),
        pairs(&[
            ("src/graph.rs:Edge.weight", "type"),
            ("src/graph.rs:nodes", "import"),
        ])
    );
    assert_eq!(
        callees(&updated, "src/algo.rs:weigh"),
        callees(&fresh, "src/algo.rs:weigh")
    );
}

#[test]
fn rust_elements_are_read_only_where_the_language_gives_them() {
    let s = snapshot(&[
        ("src/lib.rs", "pub mod model;\npub mod run;\n"),
        (
            "src/model.rs",
            "pub struct Item;\nimpl Item {\n    pub fn name(&self) {}\n}\n\n\
             pub struct Cell;\nimpl Cell {\n    pub fn len(&self) -> usize { 0 }\n}\n\n\
             pub struct Row;\nimpl Row {\n    pub fn len(&self) -> usize { 0 }\n}\n\
             impl IntoIterator for Row {\n    type Item = Cell;\n    type IntoIter = std::vec::IntoIter<Cell>;\n    \
             fn into_iter(self) -> Self::IntoIter { Vec::new().into_iter() }\n}\n\n\
             pub struct Edge;\nimpl Edge {\n    pub fn weight(&self) -> u32 { 0 }\n}\n\
             pub struct Node;\nimpl Node {\n    pub fn weight(&self) -> u32 { 0 }\n}\n\n\
             pub struct Users;\npub trait Source {\n    type Item;\n    fn all(&self) -> Box<dyn Iterator<Item = Self::Item>>;\n}\n\
             impl Source for Users {\n    type Item = Node;\n    fn all(&self) -> Box<dyn Iterator<Item = Self::Item>> { Box::new(std::iter::empty()) }\n}\n\n\
             pub struct Store<T> {\n    items: Vec<T>,\n}\nimpl<T> Store<T> {\n    pub fn all(&self) -> &[T] { &self.items }\n    \
             pub fn one(&self) -> T { self.items[0].clone() }\n}\n\n\
             pub struct Table {\n    rows: Vec<Row>,\n}\nimpl Table {\n    \
             pub fn rows(&self) -> std::io::Result<Vec<Row>> { Ok(Vec::new()) }\n    \
             pub fn first(&self) -> usize {\n        self.rows.first().map(|r| r.len()).unwrap_or(0)\n    }\n    \
             pub fn each(&self) -> usize {\n        self.rows().map(|rs| rs.len()).unwrap_or(0)\n    }\n}\n\n\
             pub fn unrelated() -> Node { Node }\n\n\
             pub trait Handler {\n    fn weight(&self) -> u32;\n}\n",
        ),
        (
            "src/run.rs",
            "use crate::model::{unrelated, Edge, Handler, Node, Store, Users, Source};\n\n\
             pub fn after(n: &Edge, nodes: &[Node]) {\n    for n in nodes {\n        n.weight();\n    }\n    n.weight();\n}\n\n\
             pub fn guessed(nodes: &[Node]) {\n    for x in nodes.iter().unrelated() {\n        x.weight();\n    }\n}\n\n\
             pub fn users(u: Users) {\n    for x in u.all() {\n        x.name();\n    }\n}\n\n\
             pub fn generic<T: Handler>(s: &Store<Node>, _: T) {\n    for j in s.all() {\n        j.weight();\n    }\n    s.one().weight();\n}\n",
        ),
    ]);
    // A loop's name holds only inside the loop: after it, `n` is the parameter again.
    assert_eq!(
        callees(&s, "src/run.rs:after"),
        pairs(&[
            ("src/model.rs:Edge.weight", "type"),
            ("src/model.rs:Node.weight", "type"),
        ])
    );
    // What an unknown method makes is no guess by a function's name (`unrelated`).
    let typed = |caller: &str| -> Vec<String> {
        callees(&s, caller)
            .into_iter()
            .filter(|(callee, how)| *how == "type" && callee.ends_with("weight"))
            .map(|(callee, _)| callee)
            .collect()
    };
    assert!(
        typed("src/run.rs:guessed").is_empty(),
        "{:?}",
        callees(&s, "src/run.rs:guessed")
    );
    // `Self::Item` of an iterator is no project type named `Item`; a generic parameter
    // (`&[T]`, `-> T` of `impl<T> Store<T>`) is the caller's choice, never its own `T: Handler`.
    assert!(
        !callees(&s, "src/run.rs:users")
            .iter()
            .any(|(callee, how)| *how != "name" && callee == "src/model.rs:Item.name"),
        "{:?}",
        callees(&s, "src/run.rs:users")
    );
    assert!(
        !callees(&s, "src/run.rs:generic")
            .iter()
            .any(|(callee, how)| *how != "name" && callee.starts_with("src/model.rs:Handler")),
        "{:?}",
        callees(&s, "src/run.rs:generic")
    );
    // An `Option`'s or a `Result`'s `map` hands over the one value: `r` is a `Row`, `rs`
    // the rows, never a `Cell` or a `Row` each.
    assert_eq!(
        callees(&s, "src/model.rs:Table.first"),
        pairs(&[("src/model.rs:Row.len", "type")])
    );
    assert!(
        !callees(&s, "src/model.rs:Table.each")
            .iter()
            .any(|(callee, how)| *how == "type" && callee.ends_with(".len")),
        "{:?}",
        callees(&s, "src/model.rs:Table.each")
    );
}

#[test]
fn a_rust_trait_s_callers_through_impls_are_its_own_trait_s_and_an_asked_impl_keeps_its_callers() {
    let s = snapshot(&[
        ("src/lib.rs", "pub mod io;\npub mod shape;\n"),
        (
            "src/io.rs",
            "pub trait Read {\n    fn read(&mut self) -> usize;\n}\n\n\
             pub struct Buf;\nimpl std::io::Read for Buf {\n    fn read(&mut self, b: &mut [u8]) -> std::io::Result<usize> { Ok(0) }\n}\n\n\
             pub fn fill(b: &mut Buf) {\n    b.read(&mut []);\n}\n",
        ),
        (
            "src/shape.rs",
            "pub trait Shape {\n    fn area(&self) -> f64;\n}\n\n\
             pub struct Circle;\nimpl Shape for Circle {\n    fn area(&self) -> f64 { 0.0 }\n}\n\n\
             pub fn total(c: &Circle) -> f64 {\n    c.area()\n}\n",
        ),
    ]);
    let callers_of = |targets: &[&str], target: &str| view_callers(&s, targets, target);
    // `impl std::io::Read for Buf` implements the library's `Read`, not the project's.
    assert_eq!(
        callers_of(&["src/io.rs:Read.read"], "src/io.rs:Read.read"),
        []
    );
    assert_eq!(
        callers_of(&["src/shape.rs:Shape.area"], "src/shape.rs:Shape.area"),
        [("src/shape.rs:total".to_string(), "dispatch")]
    );
    // Asked about both (a whole file), the implementation keeps its call.
    assert_eq!(
        callers_of(
            &["src/shape.rs:Shape.area", "src/shape.rs:Circle.area"],
            "src/shape.rs:Circle.area"
        ),
        [("src/shape.rs:total".to_string(), "type")]
    );
}

#[test]
fn rust_supertraits_associated_types_of_bounds_and_option_patterns_type_their_calls() {
    let s = snapshot(&[
        (
            "src/lib.rs",
            "pub mod visit;\npub mod algo;\npub mod dummy;\npub mod graph;\n",
        ),
        (
            "src/visit.rs",
            "pub trait NodeIndexable {\n    fn to_index(&self, n: usize) -> usize;\n}\n\n\
             pub trait NodeCompactIndexable: NodeIndexable + Sized {}\n\n\
             pub trait VisitMap<N> {\n    fn visit(&mut self, n: N) -> bool;\n}\n\n\
             pub trait EdgeRef {\n    fn target(&self) -> usize;\n}\n\n\
             pub trait Visitable {\n    type Map: VisitMap<usize>;\n    type EdgeRef: EdgeRef;\n}\n\n\
             pub trait Counted {\n    fn count(&self) -> usize;\n}\n\n\
             pub trait IndexType {\n    fn max() -> Self;\n    fn index(&self) -> usize;\n    fn count(&self) -> usize;\n}\n\n\
             pub trait IntoEdges {\n    type EdgeRef: EdgeRef;\n    type Edges: Iterator<Item = Self::EdgeRef>;\n    \
             fn edges(self) -> Self::Edges;\n}\n\n\
             pub trait Walker {\n    fn walk_next(&mut self) -> Option<usize>;\n    \
             fn iter(self) -> usize {\n        0\n    }\n}\n",
        ),
        (
            "src/dummy.rs",
            "use crate::visit::NodeIndexable;\n\n\
             pub trait WithDummy {\n    fn count(&self) -> usize;\n}\n\n\
             impl<G: NodeIndexable> WithDummy for G {\n    fn count(&self) -> usize { 0 }\n}\n",
        ),
        (
            "src/graph.rs",
            "pub struct EdgeIndex;\nimpl EdgeIndex {\n    pub fn index(&self) -> usize { 0 }\n    pub fn count(&self) -> usize { 0 }\n}\n\n\
             pub struct Walk {\n    next: [EdgeIndex; 2],\n    stack: Vec<EdgeIndex>,\n}\n\n\
             impl crate::visit::Walker for Walk {\n    fn walk_next(&mut self) -> Option<usize> { None }\n}\n\n\
             impl std::fmt::Debug for Walk {\n    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result { Ok(()) }\n}\n\n\
             pub fn walked(w: Walk) -> usize {\n    w.iter()\n}\n\n\
             pub struct Filtered<F>(pub F, EdgeIndex);\n\n\
             impl<F: crate::visit::Counted> Filtered<F> {\n    pub fn run(&self) {\n        self.0.count();\n        self.1.index();\n    }\n}\n\n\
             impl Walk {\n    pub fn branch(&mut self, top: &Walk) {\n        if let Some(top) = self.stack.pop() {\n            top.index();\n        } else {\n            top.walk_next();\n        }\n    }\n\n    \
             pub fn step(&mut self) -> usize {\n        let first = self.next[0].index();\n        \
             if let Some(top) = self.stack.pop() {\n            top.index();\n        }\n        \
             while let Some(e) = self.stack.last() {\n            e.index();\n        }\n        first\n    }\n\n    \
             pub fn unrelated(&self, x: Option<usize>, rows: Vec<EdgeIndex>) {\n        if let Some(x) = x {\n            x.index();\n        }\n        \
             match x {\n            Some(x) => x.index(),\n            None => 0,\n        };\n        rows[1..].index();\n    }\n}\n",
        ),
        (
            "src/algo.rs",
            "use crate::visit::{Counted, EdgeRef, IndexType, IntoEdges, NodeCompactIndexable, VisitMap, Visitable};\n\n\
             pub fn dfs<G>(g: &G, visited: &mut G::Map, edge: G::EdgeRef)\nwhere\n    G: Visitable,\n    G: NodeCompactIndexable,\n{\n    \
             visited.visit(0);\n    g.to_index(0);\n    edge.target();\n}\n\n\
             #[cfg(test)]\nfn G(n: usize) -> crate::graph::EdgeIndex {\n    crate::graph::EdgeIndex\n}\n\n\
             pub fn counts<G: Counted>(g: G) -> usize {\n    \
             fn inner<G: IndexType>(g: G) -> usize {\n        g.count()\n    }\n    g.count()\n}\n\n\
             pub fn biggest<Ix: IndexType>() -> usize {\n    <Ix as IndexType>::max().index()\n}\n\n\
             pub fn first<G: IntoEdges>(g: G) {\n    let mut edges = g.edges();\n    let mut edge = edges.next();\n    \
             while let Some(e) = edge {\n        e.target();\n        edge = edges.next();\n    }\n}\n",
        ),
    ]);
    // A supertrait's method, and the bound of a generic's associated type, each trait
    // bounding `G` in a `where` clause of its own.
    assert_eq!(
        callees(&s, "src/algo.rs:dfs"),
        pairs(&[
            ("src/visit.rs:EdgeRef.target", "type"),
            ("src/visit.rs:NodeIndexable.to_index", "type"),
            ("src/visit.rs:VisitMap.visit", "type"),
        ])
    );
    // The generic `G` is the caller's, not the blanket `impl .. for G` of another file nor
    // what a function named `G` returns.
    assert_eq!(
        callees(&s, "src/algo.rs:counts"),
        pairs(&[("src/visit.rs:Counted.count", "type")])
    );
    // A function inside another sees its own generics only.
    assert_eq!(
        callees(&s, "src/algo.rs:counts.inner"),
        pairs(&[("src/visit.rs:IndexType.count", "type")])
    );
    // `<Ix as IndexType>::max()` is the trait's, and gives an `Ix`, an `IndexType`.
    assert_eq!(
        callees(&s, "src/algo.rs:biggest"),
        pairs(&[
            ("src/visit.rs:IndexType.index", "type"),
            ("src/visit.rs:IndexType.max", "import"),
        ])
    );
    // A name taken out of an `Option` a loop reassigns, four values deep (`e` of `edge` of
    // `edges.next()` of `g.edges()`).
    assert_eq!(
        callees(&s, "src/algo.rs:first"),
        pairs(&[
            ("src/visit.rs:EdgeRef.target", "type"),
            ("src/visit.rs:IntoEdges.edges", "type"),
        ])
    );
    // An element of an indexed field, and what `if let Some(x)` / `while let Some(x)` take
    // out of an `Option`.
    assert_eq!(
        callees(&s, "src/graph.rs:Walk.step"),
        pairs(&[("src/graph.rs:EdgeIndex.index", "type")])
    );
    // A default method of a trait the type implements is the type's.
    assert_eq!(
        callees(&s, "src/graph.rs:walked"),
        pairs(&[("src/visit.rs:Walker.iter", "type")])
    );
    // `if let Some(top) = ..` holds in its block, not in the `else`.
    assert_eq!(
        callees(&s, "src/graph.rs:Walk.branch"),
        pairs(&[
            ("src/graph.rs:EdgeIndex.index", "type"),
            ("src/graph.rs:Walk.walk_next", "type"),
        ])
    );
    // A tuple struct's fields by position: a generic's bound, a type.
    assert_eq!(
        callees(&s, "src/graph.rs:Filtered.run"),
        pairs(&[
            ("src/graph.rs:EdgeIndex.index", "type"),
            ("src/visit.rs:Counted.count", "type"),
        ])
    );
    // A library's value (`Option<usize>`, taken out of itself by `if let Some(x) = x`) is no
    // project type, nor is a range of a `Vec` (a slice): at most a guess by the name.
    let unrelated = callees(&s, "src/graph.rs:Walk.unrelated");
    assert!(
        unrelated.iter().all(|(_, how)| *how == "name"),
        "{unrelated:?}"
    );
}

#[test]
fn an_update_of_a_supertrait_an_associated_type_or_a_field_moves_the_calls_through_them() {
    let files = |visit: &str, graph: &str| {
        vec![
            (
                "src/lib.rs".to_string(),
                "pub mod visit;\npub mod graph;\npub mod algo;\n".to_string(),
            ),
            ("src/visit.rs".to_string(), visit.to_string()),
            ("src/graph.rs".to_string(), graph.to_string()),
            (
                "src/algo.rs".to_string(),
                "use crate::visit::{Compact, Visitable};\nuse crate::graph::Walk;\n\n\
                 pub fn dfs<G>(g: &G, seen: &mut G::Map)\nwhere\n    G: Visitable,\n    G: Compact,\n{\n    \
                 seen.visit(0);\n    g.to_index(0);\n}\n\n\
                 pub fn walk(w: Walk) {\n    w.iter();\n    w.next[0].index();\n}\n"
                    .to_string(),
            ),
        ]
    };
    let visit = "pub trait Indexable {\n    fn to_index(&self, n: usize) -> usize;\n}\n\n\
        pub trait Other {\n    fn to_index(&self, n: usize) -> usize;\n}\n\n\
        pub trait Compact: Indexable {}\n\n\
        pub trait VisitMap {\n    fn visit(&mut self, n: usize) -> bool;\n}\n\n\
        pub trait Marks {\n    fn visit(&mut self, n: usize) -> bool;\n}\n\n\
        pub trait Visitable {\n    type Map: VisitMap;\n}\n\n\
        pub trait Base {\n    fn iter(&self) -> usize {\n        0\n    }\n}\n\n\
        pub trait Again {\n    fn iter(&self) -> usize {\n        1\n    }\n}\n\n\
        pub trait Walker: Base {}\n";
    let graph = "pub struct EdgeIndex;\nimpl EdgeIndex {\n    pub fn index(&self) -> usize { 0 }\n}\n\n\
        pub struct NodeIndex;\nimpl NodeIndex {\n    pub fn index(&self) -> usize { 0 }\n}\n\n\
        pub struct Walk {\n    pub next: [EdgeIndex; 2],\n}\n\n\
        impl crate::visit::Walker for Walk {}\n";
    let s = snapshot(&files(visit, graph));
    assert_eq!(
        callees(&s, "src/algo.rs:dfs"),
        pairs(&[
            ("src/visit.rs:Indexable.to_index", "type"),
            ("src/visit.rs:VisitMap.visit", "type"),
        ])
    );
    assert_eq!(
        callees(&s, "src/algo.rs:walk"),
        pairs(&[
            ("src/graph.rs:EdgeIndex.index", "type"),
            ("src/visit.rs:Base.iter", "type"),
        ])
    );
    // Each change is in another file than the calls, one update at a time: a field's type,
    // then a supertrait (of the trait the type implements too) and an associated type's
    // bound.
    let graph_after = graph.replace("[EdgeIndex; 2]", "[NodeIndex; 2]");
    let visit_bounds = visit
        .replace("Compact: Indexable", "Compact: Other")
        .replace("type Map: VisitMap;", "type Map: Marks;");
    let visit_walker = visit_bounds.replace("Walker: Base", "Walker: Again");
    let dfs_before = pairs(&[
        ("src/visit.rs:Indexable.to_index", "type"),
        ("src/visit.rs:VisitMap.visit", "type"),
    ]);
    let dfs_after = pairs(&[
        ("src/visit.rs:Marks.visit", "type"),
        ("src/visit.rs:Other.to_index", "type"),
    ]);
    let walk =
        |iter: &'static str| pairs(&[("src/graph.rs:NodeIndex.index", "type"), (iter, "type")]);
    let steps = [
        (
            files(visit, &graph_after),
            walk("src/visit.rs:Base.iter"),
            dfs_before,
        ),
        (
            files(&visit_bounds, &graph_after),
            walk("src/visit.rs:Base.iter"),
            dfs_after.clone(),
        ),
        (
            files(&visit_walker, &graph_after),
            walk("src/visit.rs:Again.iter"),
            dfs_after,
        ),
    ];
    let mut graph_now = s;
    for (step, (files, walk, dfs)) in steps.into_iter().enumerate() {
        let changed: Vec<_> = files.iter().map(|(p, t)| facts(p, t)).collect();
        let updated = rank_snapshot(Graph::update(Some(&graph_now.graph), &changed));
        let fresh = snapshot(&files);
        for (caller, expected) in [("src/algo.rs:walk", &walk), ("src/algo.rs:dfs", &dfs)] {
            assert_eq!(&callees(&fresh, caller), expected, "{step} {caller}");
            assert_eq!(&callees(&updated, caller), expected, "{step} {caller}");
        }
        graph_now = updated;
    }
}

#[test]
fn a_rust_collection_behind_an_option_is_its_elements_once_the_option_is_peeled() {
    let s = snapshot(&[(
        "src/literal.rs",
        "pub struct Literal;\nimpl Literal {\n    pub fn len(&self) -> usize { 0 }\n    \
         pub fn is_exact(&self) -> bool { true }\n}\n\n\
         pub struct Seq {\n    literals: Option<Vec<Literal>>,\n}\n\n\
         impl Seq {\n    pub fn min(&self) -> Option<usize> {\n        \
         self.literals.as_ref()?.iter().map(|x| x.len()).min()\n    }\n\n    \
         pub fn dedup(&mut self) {\n        if let Some(ref mut lits) = self.literals {\n            \
         lits.dedup_by(|a, b| a.is_exact() == b.is_exact());\n        }\n    }\n\n    \
         pub fn count(self) -> usize {\n        \
         self.literals.map(|lits| lits.len()).unwrap_or(0)\n    }\n\n    \
         pub fn whole(&self) {\n        for v in self.literals.iter() {\n            v.len();\n        }\n    }\n\n    \
         fn load(&self) -> Option<Vec<Literal>> {\n        None\n    }\n\n    \
         pub fn loaded(&mut self) -> Option<usize> {\n        let v = self.load()?;\n        for x in &v {\n            x.len();\n        }\n        \
         self.literals.take().unwrap().iter().map(|x| x.is_exact());\n        None\n    }\n}\n",
    )]);
    // `?`, and `if let Some(..)`, give the `Vec`, whose elements are `Literal`s (a guess by
    // the name aside: the iterator's `min`).
    let known = |caller: &str| -> Vec<(String, &'static str)> {
        let mut all = callees(&s, caller);
        all.retain(|(_, how)| *how != "name");
        all
    };
    assert_eq!(
        known("src/literal.rs:Seq.min"),
        pairs(&[("src/literal.rs:Literal.len", "type")])
    );
    assert_eq!(
        known("src/literal.rs:Seq.dedup"),
        pairs(&[("src/literal.rs:Literal.is_exact", "type")])
    );
    // An `Option`'s `map` hands its closure the whole `Vec`: its `len` is no `Literal`'s.
    assert_eq!(known("src/literal.rs:Seq.count"), []);
    // An `Option`'s own `iter` yields the whole `Vec` too.
    assert_eq!(known("src/literal.rs:Seq.whole"), []);
    // `let v = f()?`, and `take()` then `.unwrap()`.
    assert_eq!(
        known("src/literal.rs:Seq.loaded"),
        pairs(&[
            ("src/literal.rs:Literal.is_exact", "type"),
            ("src/literal.rs:Literal.len", "type"),
            ("src/literal.rs:Seq.load", "container"),
        ])
    );
}

#[test]
fn the_rust_rules_keep_off_what_rust_does_not_mean() {
    let s = snapshot(&[
        ("src/lib.rs", "pub mod w;\n"),
        (
            "src/w.rs",
            "use std::fmt;\n\n\
             pub trait Write {\n    fn flush_all(&mut self) {}\n}\n\n\
             pub struct Out;\n\
             impl fmt::Write for Out {\n    fn write_str(&mut self, s: &str) -> fmt::Result { Ok(()) }\n}\n\
             impl fmt::Display for Out {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { Ok(()) }\n}\n\n\
             pub fn flush(o: &mut Out) {\n    o.flush_all();\n}\n\n\
             pub struct EdgeIndex;\nimpl EdgeIndex {\n    pub fn index(&self) -> usize { 0 }\n    pub fn id(&self) -> usize { 0 }\n}\n\n\
             pub fn pair() -> [EdgeIndex; 2] {\n    [EdgeIndex, EdgeIndex]\n}\n\n\
             pub fn both() {\n    for e in pair() {\n        e.index();\n    }\n}\n\n\
             pub fn each() {\n    let all = pair();\n    all.iter().map(|e| e.index());\n    for e in all {\n        e.id();\n    }\n}\n\n\
             pub trait Render {\n    fn render(&self);\n}\n\n\
             pub struct Store<T> {\n    items: Vec<T>,\n}\n\n\
             impl<T> Store<T> {\n    pub fn items(&self) -> Option<Vec<T>> {\n        None\n    }\n}\n\n\
             pub fn show<T: Render>(s: &Store<u8>, t: T) {\n    for w in s.items().unwrap() {\n        w.render();\n    }\n}\n\n\
             pub struct Item;\nimpl Item {\n    pub fn name(&self) {}\n}\n\n\
             pub trait Getter {\n    type Item;\n    fn get(&self) -> Self::Item;\n}\n\n\
             pub fn got<S: Getter>(s: &S) {\n    s.get().name();\n}\n\n\
             pub struct Neighbors;\nimpl Neighbors {\n    pub fn default() -> Self { Neighbors }\n}\n\n\
             pub trait IntoNeighbors {\n    type Neighbors;\n}\n\n\
             pub fn fresh<G: IntoNeighbors>() {\n    <G as IntoNeighbors>::Neighbors::default();\n}\n\n\
             pub trait Store {}\n\
             pub trait Indexed: Store {\n    fn at(&self, i: usize) -> u8;\n}\n\n\
             pub fn read<S: Store>(s: &S) {\n    s.at(0);\n}\n",
        ),
    ]);
    let known = |caller: &str| -> Vec<(String, &'static str)> {
        let mut all = callees(&s, caller);
        all.retain(|(_, how)| *how != "name");
        all
    };
    // `impl fmt::Write` is the library's trait, not the project's `Write`.
    assert_eq!(known("src/w.rs:flush"), []);
    // An array's elements, its `;` inside the return type, from a function's value.
    assert_eq!(
        known("src/w.rs:both"),
        pairs(&[
            ("src/w.rs:EdgeIndex.index", "type"),
            ("src/w.rs:pair", "file")
        ])
    );
    // A name assigned a function's collection, iterated or looped over.
    assert_eq!(
        known("src/w.rs:each"),
        pairs(&[
            ("src/w.rs:EdgeIndex.id", "type"),
            ("src/w.rs:EdgeIndex.index", "type"),
            ("src/w.rs:pair", "file")
        ])
    );
    // A generic the callee's `impl` returns behind an `Option` is no caller's `T`.
    assert_eq!(
        known("src/w.rs:show"),
        pairs(&[("src/w.rs:Store.items", "type")])
    );
    // An unbound associated type is whatever each `impl` makes it: no project `Item`.
    assert_eq!(
        known("src/w.rs:got"),
        pairs(&[("src/w.rs:Getter.get", "type")])
    );
    // `<G as IntoNeighbors>::Neighbors` is an associated type, no struct `Neighbors`.
    assert_eq!(known("src/w.rs:fresh"), []);
    // A call on a trait never dispatches to a subtrait's method.
    assert_eq!(known("src/w.rs:read"), []);
}

#[test]
fn rust_loops_and_closures_over_enumerated_zipped_spread_and_bounded_iterators_type_their_elements()
{
    let s = snapshot(&[
        ("src/lib.rs", "pub mod visit;\npub mod algo;\n"),
        (
            "src/visit.rs",
            "pub trait EdgeRef {\n    fn target(&self) -> usize;\n    fn source(&self) -> usize;\n}\n\n\
             pub trait GraphBase {\n    type NodeId;\n}\n\n\
             trait_template! {\npub trait IntoEdgeReferences : GraphBase {\n    @section type\n    \
             type EdgeRef: EdgeRef<NodeId=Self::NodeId,\n                          Weight=Self::EdgeWeight>;\n    \
             type EdgeReferences: Iterator<Item=Self::EdgeRef>;\n    @section self\n    \
             fn edge_references(self) -> Self::EdgeReferences;\n}\n}\n\n\
             pub trait IntoEdgesDirected : IntoEdgeReferences + GraphBase {\n    \
             type EdgesDirected: Iterator<Item=Self::EdgeRef>;\n    \
             fn edges_directed(self, a: Self::NodeId, d: usize) -> Self::EdgesDirected;\n}\n",
        ),
        (
            "src/algo.rs",
            "use crate::visit::{EdgeRef, GraphBase, IntoEdgeReferences, IntoEdgesDirected};\n\n\
             pub fn spread<G0>(g0: &G0) -> bool\nwhere\n    G0: GraphBase + IntoEdgesDirected,\n{\n    \
             g0\n        .edges_directed(e0.0, Outgoing)\n        .find(|edge| edge.target() == e0.1)\n        \
             .is_some()\n}\n\n\
             pub struct Filtered<G, I>\nwhere\n    G: IntoEdgeReferences,\n    I: Iterator<Item = G::EdgeRef>,\n{\n    \
             iter: I,\n    graph: G,\n}\n\n\
             impl<G, I> Filtered<G, I>\nwhere\n    G: IntoEdgeReferences,\n    I: Iterator<Item = G::EdgeRef>,\n{\n    \
             fn next(&mut self) {\n        self.iter.find(move |&edge| edge.target() == 0);\n    }\n    \
             fn next_back(&mut self) {\n        (&mut self.iter).filter_map(move |edge| Some(edge.source()));\n    }\n}\n\n\
             pub struct Walk<G: IntoEdgesDirected> {\n    edges: G::EdgesDirected,\n}\n\n\
             impl<G: IntoEdgesDirected> Walk<G> {\n    fn step(&mut self) {\n        for e in &mut self.edges {\n            e.target();\n        }\n    }\n}\n\n\
             pub fn numbered<G: IntoEdgeReferences>(g: G) {\n    \
             for (i, edge) in g.edge_references().enumerate() {\n        edge.target();\n        i.source();\n    }\n}\n\n\
             pub fn zipped<G: IntoEdgeReferences>(g: G, h: G) {\n    \
             for (a, b) in g.edge_references().zip(h.edge_references()) {\n        a.target();\n        b.source();\n    }\n}\n\n\
             pub fn mapped<G: IntoEdgeReferences>(g: G) {\n    \
             g.edge_references().enumerate().map(|(i, e)| e.source());\n}\n\n\
             pub fn unpaired<G: IntoEdgeReferences>(g: G) {\n    \
             for (a, b) in g.edge_references() {\n        a.target();\n    }\n    \
             for (a, b) in g.edge_references().chain(g.edge_references()) {\n        b.source();\n    }\n}\n\n\
             pub trait Source<T> {\n    type Iter: Iterator<Item = T>;\n}\n\n\
             pub fn foreign<T: EdgeRef, S: Source<u8>>(it: S::Iter) {\n    for n in it {\n        n.target();\n    }\n}\n",
        ),
        (
            "src/plain.rs",
            "pub struct Edge;\nimpl Edge {\n    pub fn weight(&self) -> u8 { 0 }\n}\n\n\
             pub struct Node {\n    edges: Vec<Edge>,\n}\n\n\
             pub struct Graph {\n    nodes: Vec<Node>,\n}\n\n\
             impl Graph {\n    pub fn weights(&self, i: usize) {\n        \
             for e in self.nodes[i].edges.iter() {\n            e.weight();\n        }\n    }\n}\n",
        ),
    ]);
    let known = |caller: &str| -> Vec<(String, &'static str)> {
        let mut all = callees(&s, &format!("src/algo.rs:{caller}"));
        all.retain(|(_, how)| *how != "name");
        all
    };
    // A closure on a chain rustfmt spread over lines holds the chain's elements.
    assert_eq!(
        known("spread"),
        pairs(&[
            ("src/visit.rs:EdgeRef.target", "type"),
            ("src/visit.rs:IntoEdgesDirected.edges_directed", "type"),
        ])
    );
    // A field of a generic bound as an iterator yields that bound's `Item`, borrowed and
    // parenthesized alike.
    assert_eq!(
        known("Filtered.next"),
        pairs(&[("src/visit.rs:EdgeRef.target", "type")])
    );
    assert_eq!(
        known("Filtered.next_back"),
        pairs(&[("src/visit.rs:EdgeRef.source", "type")])
    );
    // So does a field of a generic's associated type its trait bounds as an iterator.
    assert_eq!(
        known("Walk.step"),
        pairs(&[("src/visit.rs:EdgeRef.target", "type")])
    );
    // An enumerated sequence's element is the pair's second; the index binds nothing.
    assert_eq!(
        known("numbered"),
        pairs(&[
            ("src/visit.rs:EdgeRef.target", "type"),
            ("src/visit.rs:IntoEdgeReferences.edge_references", "type"),
        ])
    );
    assert_eq!(
        known("zipped"),
        pairs(&[
            ("src/visit.rs:EdgeRef.source", "type"),
            ("src/visit.rs:EdgeRef.target", "type"),
            ("src/visit.rs:IntoEdgeReferences.edge_references", "type"),
        ])
    );
    assert_eq!(
        known("mapped"),
        pairs(&[
            ("src/visit.rs:EdgeRef.source", "type"),
            ("src/visit.rs:IntoEdgeReferences.edge_references", "type"),
        ])
    );
    // An indexed receiver stays one (the element of `self.nodes[i]`, then its field).
    assert_eq!(
        callees(&s, "src/plain.rs:Graph.weights"),
        pairs(&[("src/plain.rs:Edge.weight", "type")])
    );
    // An associated type's `Item` the trait names by its own parameter is the trait's
    // `T`, not the caller's `T: EdgeRef`.
    assert_eq!(known("foreign"), []);
    // A pattern over a sequence of no known pairs (an element that is itself no tuple, or
    // another adapter's) binds nothing.
    assert_eq!(
        known("unpaired"),
        pairs(&[("src/visit.rs:IntoEdgeReferences.edge_references", "type")])
    );
}

#[test]
fn python_loops_over_enumerated_and_zipped_sequences_type_their_elements() {
    let s = snapshot(&[(
        "t.py",
        "from typing import List\n\n\
         class Row:\n    def cells(self):\n        pass\n\n\
         class Name:\n    def title(self):\n        pass\n\n\
         class Table:\n    rows: List[Row]\n\n    \
         def numbered(self):\n        for i, row in enumerate(self.rows, start=1):\n            row.cells()\n            i.title()\n\n    \
         def zipped(self, names: List[Name]):\n        for name, (a, b) in zip(names, self.rows, strict=True):\n            name.title()\n\n    \
         def second(self, names: List[Name]):\n        for name, row in zip(names, self.rows):\n            row.cells()\n\n    \
         def unpaired(self, names: List[Name], groups, t: Table):\n        for name, row in sorted(names):\n            name.title()\n        \
         for i, row in enumerate(t.rows for t in names):\n            row.cells()\n        \
         for a, b in zip(*groups, self.rows):\n            b.cells()\n",
    )]);
    let known = |caller: &str| -> Vec<(String, &'static str)> {
        let mut all = callees(&s, &format!("t.py:{caller}"));
        all.retain(|(_, how)| *how != "name");
        all
    };
    assert_eq!(
        known("Table.numbered"),
        pairs(&[("t.py:Row.cells", "type")])
    );
    assert_eq!(known("Table.zipped"), pairs(&[("t.py:Name.title", "type")]));
    assert_eq!(known("Table.second"), pairs(&[("t.py:Row.cells", "type")]));
    // A generator passed bare, a position past a splat: no sequence named at the place.
    assert_eq!(known("Table.unpaired"), []);
    // A file's own `zip` is no builtin.
    let own = snapshot(&[(
        "t.py",
        "from typing import List\nfrom util import zip\n\n\
         class Row:\n    def cells(self):\n        pass\n\n\
         class Table:\n    rows: List[Row]\n\n    \
         def zipped(self, names):\n        for name, row in zip(names, self.rows):\n            row.cells()\n",
    )]);
    let mut found = callees(&own, "t.py:Table.zipped");
    found.retain(|(_, how)| *how != "name");
    assert_eq!(found, []);
}

#[test]
fn an_update_of_an_associated_iterator_moves_the_calls_on_its_elements() {
    let visit = "pub trait EdgeRef {\n    fn target(&self) -> usize;\n}\n\n\
        pub trait NodeRef {\n    fn target(&self) -> usize;\n}\n\n\
        trait_template! {\npub trait IntoEdgeReferences {\n    type EdgeRef: EdgeRef;\n    \
        type NodeRef: NodeRef;\n}\n}\n\n\
        pub trait IntoEdges: IntoEdgeReferences {\n    type Edges: Iterator<Item = Self::EdgeRef>;\n    \
        fn edges(self) -> Self::Edges;\n}\n";
    let algo = "use crate::visit::IntoEdges;\n\n\
        pub struct Walk<G: IntoEdges> {\n    edges: G::Edges,\n}\n\n\
        impl<G: IntoEdges> Walk<G> {\n    fn step(&mut self) {\n        \
        for e in &mut self.edges {\n            e.target();\n        }\n    }\n\n    \
        fn numbered(g: G) {\n        \
        for (i, e) in g\n            .edges()\n            .enumerate()\n        {\n            e.target();\n        }\n    }\n}\n";
    let files = |visit: &str| {
        vec![
            (
                "src/lib.rs".to_string(),
                "pub mod visit;\npub mod algo;\n".to_string(),
            ),
            ("src/visit.rs".to_string(), visit.to_string()),
            ("src/algo.rs".to_string(), algo.to_string()),
        ]
    };
    let known = |s: &Snapshot, caller: &str| -> Vec<(String, &'static str)> {
        let mut all = callees(s, &format!("src/algo.rs:Walk.{caller}"));
        all.retain(|(_, how)| *how != "name");
        all
    };
    let s = snapshot(&files(visit));
    assert_eq!(
        known(&s, "step"),
        pairs(&[("src/visit.rs:EdgeRef.target", "type")])
    );
    assert_eq!(
        known(&s, "numbered"),
        pairs(&[
            ("src/visit.rs:EdgeRef.target", "type"),
            ("src/visit.rs:IntoEdges.edges", "type"),
        ])
    );
    // The iterator's `Item` changes in the trait's file alone; the calls on its elements,
    // in another file, follow as a fresh build has them.
    let after = visit.replace("Item = Self::EdgeRef", "Item = Self::NodeRef");
    let changed: Vec<_> = files(&after).iter().map(|(p, t)| facts(p, t)).collect();
    let updated = rank_snapshot(Graph::update(Some(&s.graph), &changed));
    let fresh = snapshot(&files(&after));
    for (caller, expected) in [
        ("step", pairs(&[("src/visit.rs:NodeRef.target", "type")])),
        (
            "numbered",
            pairs(&[
                ("src/visit.rs:IntoEdges.edges", "type"),
                ("src/visit.rs:NodeRef.target", "type"),
            ]),
        ),
    ] {
        assert_eq!(known(&fresh, caller), expected, "{caller}");
        assert_eq!(known(&updated, caller), expected, "{caller}");
    }
}
#[test]
fn an_alias_of_a_project_type_named_like_a_std_collection_is_that_type() {
    // petgraph's feedback_arc_set.rs: `type NodeLinkedList = LinkedList<FasNode, ..>` over
    // its own `mod linked_list`, not std's list of `FasNode`s.
    let s = snapshot(&[
        ("src/lib.rs", "pub mod fas;\n"),
        (
            "src/fas.rs",
            "use self::linked_list::LinkedList;\n\n\
             pub struct FasNode;\nimpl FasNode {\n    pub fn pop(&self) {}\n}\n\n\
             fn good() {\n    let mut list = NodeLinkedList::new();\n    list.pop(0);\n}\n\n\
             type NodeLinkedList = LinkedList<FasNode, Container, Index>;\n\n\
             mod linked_list {\n    pub struct LinkedList<Data, Container, Ix> {\n        start: Option<Ix>,\n    }\n\n    \
             impl<Data, Container, Ix> LinkedList<Data, Container, Ix> {\n        \
             pub fn new() -> Self {\n            LinkedList { start: None }\n        }\n        \
             pub fn pop(&mut self, c: usize) -> Option<Ix> {\n            None\n        }\n    }\n}\n",
        ),
    ]);
    assert_eq!(
        callees(&s, "src/fas.rs:good"),
        pairs(&[
            ("src/fas.rs:LinkedList.new", "type"),
            ("src/fas.rs:LinkedList.pop", "type"),
        ])
    );
    // An alias of std's list, in a file defining no `LinkedList`, is no project type.
    let std = snapshot(&[
        ("src/lib.rs", "pub mod fas;\npub mod jobs;\n"),
        (
            "src/fas.rs",
            "pub struct LinkedList;\nimpl LinkedList {\n    pub fn new() -> Self { LinkedList }\n    \
             pub fn push_back(&mut self, x: u8) {}\n}\n",
        ),
        (
            "src/jobs.rs",
            "use std::collections::LinkedList;\n\ntype Queue = LinkedList<u8>;\n\n\
             pub struct Jobs {\n    queue: Queue,\n}\n\n\
             impl Jobs {\n    fn run(&mut self) {\n        self.queue.push_back(1);\n    }\n}\n",
        ),
    ]);
    let mut found = callees(&std, "src/jobs.rs:Jobs.run");
    found.retain(|(_, how)| *how != "name");
    assert_eq!(found, []);
}

#[test]
fn indexing_a_rust_type_gives_the_output_its_index_impl_states() {
    let s = snapshot(&[
        ("src/lib.rs", "pub mod fas;\n"),
        (
            "src/fas.rs",
            "use core::ops::Index;\n\n\
             pub struct Entry;\nimpl Entry {\n    pub fn data(&self) {}\n}\n\n\
             pub struct Step;\nimpl Step {\n    pub fn data(&self) {}\n}\n\n\
             pub struct Container {\n    nodes: Vec<Entry>,\n}\n\n\
             impl Index<usize> for Container {\n    type Output = Entry;\n    \
             fn index(&self, i: usize) -> &Self::Output {\n        &self.nodes[i]\n    }\n}\n\n\
             pub struct Steps;\n\n\
             impl Iterator for Steps {\n    type Item = Step;\n    \
             fn next(&mut self) -> Option<Step> {\n        None\n    }\n}\n\n\
             pub struct Sliced;\n\n\
             impl Index<usize> for Sliced {\n    type Output = Entry;\n}\n\n\
             impl Index<core::ops::Range<usize>> for Sliced {\n    type Output = [Entry];\n}\n\n\
             pub struct Graph {\n    container: Container,\n    steps: Steps,\n    sliced: Sliced,\n}\n\n\
             impl Graph {\n    pub fn first(&self, nodes: &Container) {\n        nodes[0].data();\n        \
             self.container[1].data();\n    }\n\n    \
             pub fn stepped(&self) {\n        self.steps[0].data();\n        self.sliced[2].data();\n    }\n}\n",
        ),
    ]);
    let known = |caller: &str| -> Vec<(String, &'static str)> {
        let mut all = callees(&s, caller);
        all.retain(|(_, how)| *how != "name");
        all
    };
    assert_eq!(
        known("src/fas.rs:Graph.first"),
        pairs(&[("src/fas.rs:Entry.data", "type")])
    );
    // An iterator's `Item` is what iterating gives, not what indexing does; of impls
    // stating an element and a slice, the index's type tells which, read here by none.
    assert_eq!(known("src/fas.rs:Graph.stepped"), []);
}

#[test]
fn an_update_of_an_index_output_moves_the_calls_on_indexed_values() {
    let fas = "use core::ops::Index;\n\n\
        pub struct Entry;\nimpl Entry {\n    pub fn data(&self) {}\n}\n\n\
        pub struct Step;\nimpl Step {\n    pub fn data(&self) {}\n}\n\n\
        pub struct Container;\n\n\
        impl Index<usize> for Container {\n    type Output = Entry;\n    \
        fn index(&self, i: usize) -> &Self::Output {\n        &Entry\n    }\n}\n";
    let user = "use crate::fas::Container;\n\npub fn first(nodes: &Container) {\n    nodes[0].data();\n}\n";
    let files = |fas: &str| {
        vec![
            (
                "src/lib.rs".to_string(),
                "pub mod fas;\npub mod user;\n".to_string(),
            ),
            ("src/fas.rs".to_string(), fas.to_string()),
            ("src/user.rs".to_string(), user.to_string()),
        ]
    };
    let s = snapshot(&files(fas));
    assert_eq!(
        callees(&s, "src/user.rs:first"),
        pairs(&[("src/fas.rs:Entry.data", "type")])
    );
    let after = fas.replace("type Output = Entry;", "type Output = Step;");
    let changed: Vec<_> = files(&after).iter().map(|(p, t)| facts(p, t)).collect();
    let updated = rank_snapshot(Graph::update(Some(&s.graph), &changed));
    let expected = pairs(&[("src/fas.rs:Step.data", "type")]);
    assert_eq!(
        callees(&snapshot(&files(&after)), "src/user.rs:first"),
        expected
    );
    assert_eq!(callees(&updated, "src/user.rs:first"), expected);
}
#[test]
fn a_builder_chain_from_an_associated_function_follows_its_declared_returns() {
    // similar's `TextDiff::configure().algorithm(alg).diff_words(old, new)`: `configure`
    // makes a `TextDiffConfig`, whose `algorithm` returns `&mut Self`; `TextDiff` has an
    // `algorithm` of its own, returning no builder.
    let s = snapshot(&[
        ("src/lib.rs", "pub mod text;\n"),
        (
            "src/text.rs",
            "pub struct TextDiffConfig;\n\n\
             impl TextDiffConfig {\n    pub fn algorithm(&mut self, alg: u8) -> &mut Self {\n        self\n    }\n    \
             pub fn diff_words(&self, old: &str, new: &str) -> TextDiff {\n        TextDiff\n    }\n}\n\n\
             pub struct TextDiff;\n\n\
             impl TextDiff {\n    pub const fn configure() -> TextDiffConfig {\n        TextDiffConfig\n    }\n    \
             pub fn algorithm(&self) -> u8 {\n        0\n    }\n}\n\n\
             pub fn words(old: &str, new: &str) {\n    \
             let diff = TextDiff::configure().algorithm(1).diff_words(old, new);\n}\n\n\
             pub struct Config;\nimpl Config {\n    pub fn load() -> Config { Config }\n    pub fn validate(&self) {}\n}\n\n\
             pub struct Settings;\nimpl Settings {\n    pub fn check(&self) {}\n}\n\n\
             pub mod config {\n    pub fn load() -> super::Settings {\n        super::Settings\n    }\n}\n\n\
             pub struct App;\nimpl App {\n    pub fn config(&self) -> &Config {\n        &Config\n    }\n}\n\n\
             impl Config {\n    pub fn finish(&self) -> Config {\n        Config\n    }\n}\n\n\
             pub fn loaded() {\n    config::load().validate();\n    config::load().finish().validate();\n}\n",
        ),
    ]);
    // A module's function is no type's: `config::load()` makes no `Config`.
    let mut found = callees(&s, "src/text.rs:loaded");
    found.retain(|(callee, how)| callee.ends_with("validate") && *how != "name");
    assert_eq!(found, []);
    assert_eq!(
        callees(&s, "src/text.rs:words"),
        pairs(&[
            ("src/text.rs:TextDiff.configure", "container"),
            ("src/text.rs:TextDiffConfig.algorithm", "type"),
            ("src/text.rs:TextDiffConfig.diff_words", "type"),
        ])
    );
}
#[test]
fn a_rust_let_of_a_dereferenced_call_holds_the_value_it_returns() {
    // similar's `let this_op = *ops.index(pointer);` of an `fn index(..) -> &DiffOp`.
    let s = snapshot(&[
        ("src/lib.rs", "pub mod c;\n"),
        (
            "src/c.rs",
            "pub struct DiffOp;\nimpl DiffOp {\n    pub fn old_range(&self) -> usize { 0 }\n    \
             pub fn negated(&self) -> usize { 0 }\n}\n\n\
             pub trait OpsStore {\n    fn index(&self, i: usize) -> &DiffOp;\n}\n\n\
             pub fn shift<S: OpsStore>(ops: &mut S, pointer: usize) {\n    \
             let this_op = *ops.index(pointer);\n    this_op.old_range();\n    \
             let n = -ops.index(pointer);\n    n.negated();\n}\n",
        ),
    ]);
    let mut found = callees(&s, "src/c.rs:shift");
    found.retain(|(_, how)| *how != "name");
    // A negation (`-x`, `!x`) is no value of the call's type.
    assert_eq!(
        found,
        pairs(&[
            ("src/c.rs:DiffOp.old_range", "type"),
            ("src/c.rs:OpsStore.index", "type"),
        ])
    );
}

#[test]
fn a_name_assigned_a_types_associated_function_holds_that_functions_return() {
    let s = snapshot(&[
        ("src/lib.rs", "pub mod fas;\npub mod jobs;\n"),
        (
            "src/fas.rs",
            "pub struct LinkedList;\nimpl LinkedList {\n    pub fn new() -> Self { LinkedList }\n    \
             pub fn push_back(&mut self, x: u8) {}\n}\n\n\
             pub struct Config;\nimpl Config {\n    pub fn load() -> Config { Config }\n    \
             pub fn validate(&self) {}\n}\n\n\
             pub struct Matcher;\nimpl Matcher {\n    pub fn is_match(&self) -> bool { true }\n}\n\n\
             pub struct Builder;\nimpl Builder {\n    pub fn new() -> Builder { Builder }\n    \
             pub fn a(&self) -> &Builder { self }\n    pub fn b(&self) -> &Builder { self }\n    \
             pub fn c(&self) -> &Builder { self }\n    pub fn matcher(&self) -> Matcher { Matcher }\n}\n",
        ),
        (
            "src/jobs.rs",
            "use std::collections::LinkedList;\nuse crate::fas::Config;\n\n\
             type Queue = LinkedList<u8>;\n\n\
             fn run() {\n    let mut q = Queue::new();\n    q.push_back(1);\n    \
             let c = Config::load();\n    c.validate();\n}\n\n\
             fn chained() {\n    let m = crate::fas::Builder::new().a().b().c().matcher();\n    m.is_match();\n}\n",
        ),
    ]);
    let mut found = callees(&s, "src/jobs.rs:run");
    found.retain(|(_, how)| *how != "name");
    // A chain past the depth followed is still read by its last call's name.
    let mut chained = callees(&s, "src/jobs.rs:chained");
    chained.retain(|(callee, how)| callee.ends_with("is_match") && *how != "name");
    assert_eq!(chained, pairs(&[("src/fas.rs:Matcher.is_match", "type")]));
    // `Config::load()` makes a `Config`; `Queue::new()` of std's list is no project type,
    // whatever the project names `new`.
    assert_eq!(
        found,
        pairs(&[
            ("src/fas.rs:Config.load", "import"),
            ("src/fas.rs:Config.validate", "type"),
        ])
    );
}
