use super::*;

fn names(x: &Extraction) -> Vec<(String, String, Option<String>)> {
    x.symbols
        .iter()
        .map(|s| (s.kind.clone(), s.name.clone(), s.container.clone()))
        .collect()
}

fn has(x: &Extraction, kind: &str, name: &str, container: Option<&str>) {
    assert!(
        x.symbols
            .iter()
            .any(|s| s.kind == kind && s.name == name && s.container.as_deref() == container),
        "missing {kind} {name} in {container:?}: {:?}",
        names(x)
    );
}

fn imports(x: &Extraction) -> Vec<&str> {
    x.imports.iter().map(|e| e.name.as_str()).collect()
}

fn calls(x: &Extraction) -> Vec<&str> {
    x.calls.iter().map(|e| e.name.as_str()).collect()
}

#[test]
fn rust() {
    let src = r#"use std::{fs, io::Read as R};
use crate::store::Store;

/// Opens things.
/// Twice.
#[derive(Debug)]
pub struct Opener { path: String }

impl Opener {
    /// Makes one.
    pub fn new(path: &str) -> Self {
        let s = Store::open(path);
        helper(s);
        Self { path: path.into() }
    }
}

trait Run { fn run(&self); }
macro_rules! m { () => {} }
fn helper<T>(_t: T) { println!("x"); }
const _: () = {
    fn assert_send<T: Send>() {}
};
"#;
    let x = extract(Language::Rust, src);
    // A constant holds no members: an item inside a `const _` block is no one's.
    has(&x, "function", "assert_send", None);
    has(&x, "struct", "Opener", None);
    has(&x, "impl", "Opener", None);
    has(&x, "method", "new", Some("Opener"));
    has(&x, "trait", "Run", None);
    has(&x, "method", "run", Some("Run"));
    has(&x, "macro", "m", None);
    has(&x, "function", "helper", None);
    let opener = x.symbols.iter().find(|s| s.name == "Opener").unwrap();
    let doc = opener.doc.as_ref().unwrap();
    assert_eq!(doc.text, "Opens things.\nTwice.");
    assert_eq!((doc.start_line, doc.end_line), (4, 5));
    assert_eq!(opener.start_line, 7, "attributes are not part of the item");
    let new = x.symbols.iter().find(|s| s.name == "new").unwrap();
    assert_eq!(new.signature, "pub fn new(path: &str) -> Self");
    assert_eq!((new.start_line, new.end_line), (11, 15));
    assert_eq!(
        imports(&x),
        ["std::fs", "std::io::Read", "crate::store::Store"]
    );
    for c in ["open", "helper", "println"] {
        assert!(calls(&x).contains(&c), "{c}: {:?}", calls(&x));
    }
}

#[test]
fn python() {
    let src = r#"import os, sys as system
from django.db import models, connection
from . import utils

class Article(models.Model):
    """An article.

    Long text."""
    title = models.CharField(max_length=10)

    @property
    def slug(self):
        return slugify(self.title)

def top():
    os.path.join("a")
"#;
    let x = extract(Language::Python, src);
    has(&x, "class", "Article", None);
    has(&x, "method", "slug", Some("Article"));
    has(&x, "function", "top", None);
    let article = x.symbols.iter().find(|s| s.name == "Article").unwrap();
    assert_eq!(
        article.doc.as_ref().unwrap().text,
        "An article.\n\nLong text."
    );
    assert_eq!(article.signature, "class Article(models.Model):");
    assert_eq!(
        imports(&x),
        [
            "os",
            "sys",
            "django.db",
            "django.db.models",
            "django.db.connection",
            ".",
            ".utils"
        ]
    );
    for c in ["CharField", "slugify", "join"] {
        assert!(calls(&x).contains(&c), "{c}: {:?}", calls(&x));
    }
}

#[test]
fn typescript_and_tsx() {
    let src = r#"import { a } from "./a";
export * from './b';

/** A shape. */
export interface Shape { area(): number }
export type Id = string;
export enum Color { Red }
export class Circle implements Shape {
  /** The area. */
  area(): number { return compute(this.r); }
}
export const make = (r: number) => new Circle();
function plain() {}
"#;
    for lang in [Language::TypeScript, Language::Tsx] {
        let x = extract(lang, src);
        has(&x, "interface", "Shape", None);
        has(&x, "method", "area", Some("Shape"));
        has(&x, "type", "Id", None);
        has(&x, "enum", "Color", None);
        has(&x, "class", "Circle", None);
        has(&x, "method", "area", Some("Circle"));
        has(&x, "function", "make", None);
        has(&x, "function", "plain", None);
        let shape = x.symbols.iter().find(|s| s.name == "Shape").unwrap();
        assert_eq!(shape.doc.as_ref().unwrap().text, "A shape.");
        assert_eq!(imports(&x), ["./a", "./b"]);
        assert!(calls(&x).contains(&"compute"));
        assert!(calls(&x).contains(&"Circle"));
    }
}

#[test]
fn javascript() {
    let src = r#"const fs = require('fs');
import x from "../x.js";
/**
 * Adds.
 */
function add(a, b) { return sum(a, b); }
class Box { open() { this.lid.lift(); } }
"#;
    let x = extract(Language::JavaScript, src);
    has(&x, "function", "add", None);
    has(&x, "class", "Box", None);
    has(&x, "method", "open", Some("Box"));
    assert_eq!(x.symbols[0].doc.as_ref().unwrap().text, "Adds.");
    assert_eq!(imports(&x), ["fs", "../x.js"]);
    assert!(calls(&x).contains(&"lift"));
}

#[test]
fn go() {
    let src = r#"package main

import (
    "fmt"
    str "strings"
)

// Server serves.
type Server struct{ addr string }
type Handler interface{ Serve() }

// Start starts it.
func (s *Server) Start() error { return fmt.Errorf("x") }
func main() { run() }
"#;
    let x = extract(Language::Go, src);
    has(&x, "struct", "Server", None);
    has(&x, "interface", "Handler", None);
    has(&x, "method", "Start", Some("Server"));
    has(&x, "function", "main", None);
    let start = x.symbols.iter().find(|s| s.name == "Start").unwrap();
    assert_eq!(start.doc.as_ref().unwrap().text, "Start starts it.");
    assert_eq!(imports(&x), ["fmt", "strings"]);
    assert!(calls(&x).contains(&"Errorf") && calls(&x).contains(&"run"));
}

#[test]
fn java() {
    let src = r#"package a.b;
import java.util.List;
import static org.junit.Assert.*;

/** A service. */
public class Service {
    /** Builds it. */
    public Service() {}
    @Override
    public String name() { return helper(List.of()); }
    interface Inner {}
    /** Marks a field. */
    @interface Marked {
        /** Whether it is written out. */
        boolean serialize() default true;
    }
    enum Policy {
        /** Leaves names as they are. */
        IDENTITY,
        /** Lower-cases names. */
        LOWER("x") {
            @Override String apply(String n) { return n.toLowerCase(); }
        };
        Policy() {}
        Policy(String s) {}
        abstract String apply(String n);
    }
}
"#;
    let x = extract(Language::Java, src);
    // An enum's constants are listed under it, documented; a constant's body's methods stay
    // the enum's.
    has(&x, "const", "IDENTITY", Some("Policy"));
    has(&x, "const", "LOWER", Some("Policy"));
    let lower = x.symbols.iter().find(|s| s.name == "LOWER").unwrap();
    assert_eq!(lower.doc.as_ref().unwrap().text, "Lower-cases names.");
    let apply: Vec<_> = x.symbols.iter().filter(|s| s.name == "apply").collect();
    assert!(
        apply.len() == 2
            && apply
                .iter()
                .all(|s| s.container.as_deref() == Some("Policy") && s.kind == "method"),
        "{:?}",
        x.symbols
    );
    has(&x, "class", "Service", None);
    has(&x, "constructor", "Service", Some("Service"));
    has(&x, "method", "name", Some("Service"));
    has(&x, "interface", "Inner", Some("Service"));
    // An annotation's elements are its methods, documented like them.
    has(&x, "method", "serialize", Some("Marked"));
    let element = x.symbols.iter().find(|s| s.name == "serialize").unwrap();
    assert_eq!(
        element.doc.as_ref().unwrap().text,
        "Whether it is written out."
    );
    let class = x.symbols.iter().find(|s| s.kind == "class").unwrap();
    assert_eq!(class.doc.as_ref().unwrap().text, "A service.");
    assert_eq!(imports(&x), ["java.util.List", "org.junit.Assert"]);
    assert!(calls(&x).contains(&"helper") && calls(&x).contains(&"of"));
}

#[test]
fn c() {
    let src = r#"#include <stdio.h>
#include "util/list.h"

/* A list. */
struct list { int n; };
typedef struct list list_t;
int count(list_t *l);
#define MAX(a, b) ((a) > (b) ? (a) : (b))

/* Counts. */
int count(list_t *l) { return printf("%d", l->n); }
static char *name(void) { return 0; }
"#;
    let x = extract(Language::C, src);
    has(&x, "struct", "list", None);
    has(&x, "type", "list_t", None);
    has(&x, "prototype", "count", None);
    has(&x, "function", "count", None);
    has(&x, "function", "name", None);
    has(&x, "macro", "MAX", None);
    let count = x
        .symbols
        .iter()
        .find(|s| s.kind == "function" && s.name == "count")
        .unwrap();
    assert_eq!(count.doc.as_ref().unwrap().text, "Counts.");
    assert_eq!(imports(&x), ["stdio.h", "util/list.h"]);
    assert!(calls(&x).contains(&"printf"));
}

#[test]
fn cpp() {
    let src = r#"#include <vector>
namespace geo {
/// A shape.
class Shape {
public:
    virtual double area() const;
};
}
double geo::Shape::area() const { return std::sqrt(2.0); }
template <typename T> T twice(T x) { return x + x; }
"#;
    let x = extract(Language::Cpp, src);
    has(&x, "module", "geo", None);
    has(&x, "class", "Shape", Some("geo"));
    has(&x, "method", "area", Some("Shape"));
    has(&x, "function", "area", Some("geo::Shape"));
    has(&x, "function", "twice", None);
    let shape = x.symbols.iter().find(|s| s.name == "Shape").unwrap();
    assert_eq!(shape.doc.as_ref().unwrap().text, "A shape.");
    assert_eq!(imports(&x), ["vector"]);
    assert!(calls(&x).contains(&"sqrt"));
}

#[test]
fn broken_source_yields_what_parses() {
    let x = extract(Language::Python, "def ok():\n    pass\n\ndef broken(:\n");
    has(&x, "function", "ok", None);
}

#[test]
fn rust_use_trees() {
    assert_eq!(
        rust_use_paths("a::b::{c,d::{e,f},self}"),
        ["a::b::c", "a::b::d::e", "a::b::d::f", "a::b"]
    );
    assert_eq!(rust_use_paths("a::*"), ["a"]);
}

/// (name, type, field) of every typed name.
fn typed(lang: Language, src: &str) -> Vec<(String, String, bool)> {
    let mut v: Vec<_> = extract(lang, src)
        .types
        .into_iter()
        .map(|t| (t.name, t.type_name, t.field))
        .collect();
    v.sort();
    v
}

fn want(v: &[(&str, &str, bool)]) -> Vec<(String, String, bool)> {
    let mut v: Vec<_> = v
        .iter()
        .map(|(n, t, f)| (n.to_string(), t.to_string(), *f))
        .collect();
    v.sort();
    v
}

#[test]
fn names_get_the_types_each_language_states() {
    let py = "class S:\n    def __init__(self, adapter: 'HTTPAdapter', n: int = 1):\n        self.pool = Pool()\n        other.x = Thing()\n        self.cache: Optional[Cache] = None\n\n\
              def f(req: models.Request):\n    s = Session()\n    t = api.Client()\n    u: Handler = make()\n";
    assert_eq!(
        typed(Language::Python, py),
        want(&[
            ("adapter", "HTTPAdapter", false),
            ("n", "int", false),
            ("pool", "Pool", true),
            ("cache", "Cache", true),
            ("req", "Request", false),
            ("s", "Session", false),
            ("t", "api.Client()", false),
            ("u", "Handler", false),
        ])
    );
    let ts = "class A {\n  private cache: Cache;\n  items = new Store();\n  constructor(private readonly db: Db, name: string) {\n    this.log = new Logger();\n  }\n}\n\
              function f(x: Adapter | null, y?: Opts) {\n  const c = new Conn();\n  let d: Map<string, B> = m;\n}\n";
    assert_eq!(
        typed(Language::TypeScript, ts),
        want(&[
            ("cache", "Cache", true),
            ("items", "Store", true),
            ("db", "Db", true),
            ("db", "Db", false),
            ("name", "string", false),
            ("log", "Logger", true),
            ("x", "Adapter", false),
            ("y", "Opts", false),
            ("c", "Conn", false),
            ("d", "Map", false),
        ])
    );
    // A function's declared `this`, and a name for the object itself (`const self = this`).
    // `typeof` of a class is the class; of a value or a module, no type.
    let ts = "function f(this: Subscriber<R>, x: number, c: typeof Action, u: typeof utils) {\n  const self = this;\n}\n";
    assert_eq!(
        typed(Language::TypeScript, ts),
        want(&[
            ("c", "Action", false),
            ("self", "=this", false),
            ("this", "Subscriber", false),
            ("x", "number", false),
        ])
    );
    let rs = "struct S { inner: Arc<Inner>, n: usize }\n\
              fn f(b: &mut Builder, s: Box<dyn Sink>) {\n    let c = Config::new();\n    let d: Pool = make();\n    let e = Point { x: 1 };\n    let g = Config::builder();\n}\n";
    assert_eq!(
        typed(Language::Rust, rs),
        want(&[
            ("inner", "Inner", true),
            ("n", "usize", true),
            ("b", "Builder", false),
            ("s", "Sink", false),
            ("c", "Config", false),
            // A call's result: a type's associated function by its path, a free function by
            // its name, each declared return looked up when the graph resolves (`new` is
            // Config's own, `builder` returns what Config's declares, `make` what a
            // function of the name does).
            ("c", "Config::new()", false),
            ("d", "Pool", false),
            ("d", "make", false),
            ("e", "Point", false),
            ("g", "Config::builder()", false),
        ])
    );
    let go = "package p\nfunc (s *Server) Run(h Handler) {\n    c := Conn{}\n    d := &Pool{}\n    var e Engine\n}\n";
    assert_eq!(
        typed(Language::Go, go),
        want(&[
            ("s", "Server", false),
            ("h", "Handler", false),
            ("c", "Conn", false),
            ("d", "Pool", false),
            ("e", "Engine", false),
        ])
    );
    let java = "class A {\n  private Repo repo;\n  void f(Request r) {\n    Session s = open();\n    var t = new Task();\n  }\n}\n";
    assert_eq!(
        typed(Language::Java, java),
        want(&[
            ("repo", "Repo", true),
            ("r", "Request", false),
            ("s", "Session", false),
            ("t", "var", false),
            ("t", "Task", false),
        ])
    );
}

#[test]
fn a_receiver_made_by_a_chain_of_calls_keeps_each_call() {
    let x = extract(
        Language::Java,
        "class T {\n  void f() {\n    new Builder<A>(a)\n        // a note\n        .add(b, c(d))\n        .with(new Base<X>() { void g() { h(); } })\n        /* more */ .build();\n    ((Json) value).size();\n    list.get(0).name();\n    items[0].run();\n    (a + b).run();\n  }\n}\n",
    );
    let receivers: Vec<(&str, Option<&str>)> = x
        .calls
        .iter()
        .map(|c| (c.name.as_str(), c.receiver.as_deref()))
        .filter(|(n, _)| matches!(*n, "build" | "size" | "name" | "run"))
        .collect();
    assert_eq!(
        receivers,
        [
            ("build", Some("Builder().add().with()")),
            ("size", Some("Json()")),
            ("name", Some("list.get()")),
            ("run", Some("?")),
            ("run", Some("?")),
        ]
    );
    let x = extract(
        Language::TypeScript,
        "function f() {\n  (node as Element).focus();\n  items.map(f).filter(g).at(0);\n}\n",
    );
    let receivers: Vec<(&str, Option<&str>)> = x
        .calls
        .iter()
        .map(|c| (c.name.as_str(), c.receiver.as_deref()))
        .filter(|(n, _)| matches!(*n, "focus" | "at"))
        .collect();
    assert_eq!(
        receivers,
        [
            ("focus", Some("Element()")),
            ("at", Some("items.map().filter()"))
        ]
    );
}

#[test]
fn a_receiver_made_by_one_call_keeps_its_path() {
    let x = extract(
        Language::Rust,
        "fn f() {\n    Builder::new(a).build();\n    Builder::new(a).add(b).build();\n    make().go();\n}\n",
    );
    let receivers: Vec<(&str, Option<&str>)> = x
        .calls
        .iter()
        .map(|c| (c.name.as_str(), c.receiver.as_deref()))
        .filter(|(n, _)| matches!(*n, "build" | "go"))
        .collect();
    assert_eq!(
        receivers,
        [
            ("build", Some("Builder::new()")),
            ("build", Some("Builder::new().add()")),
            ("go", Some("make()")),
        ]
    );
    let x = extract(
        Language::TypeScript,
        "function f() {\n  new Store(1).add(2);\n}\n",
    );
    assert!(
        x.calls
            .iter()
            .any(|c| c.name == "add" && c.receiver.as_deref() == Some("Store()")),
        "{:?}",
        x.calls
    );
    // Go's builtin `new(T)` makes a T; `new` of anything but a type path says nothing.
    let x = extract(
        Language::Go,
        "package mux\n\nfunc f() {\n\tnew(Route).Host(\"a\")\n\tnew(web.Route).Path(\"/\")\n\tnew(map[string]int).Len()\n}\n",
    );
    let receivers: Vec<(&str, Option<&str>)> = x
        .calls
        .iter()
        .map(|c| (c.name.as_str(), c.receiver.as_deref()))
        .filter(|(n, _)| matches!(*n, "Host" | "Path" | "Len"))
        .collect();
    assert_eq!(
        receivers,
        [
            ("Host", Some("Route()")),
            ("Path", Some("web.Route()")),
            ("Len", Some("new()")),
        ]
    );
}

#[test]
fn a_declaration_wrapped_over_lines_is_read_to_its_body() {
    let x = extract(
        Language::Rust,
        "struct P { x: i32 }\n\nimpl P {\n    fn root(\n        &mut self,\n        errs: &mut Errors,\n    ) -> Option<Ignore> {\n        None\n    }\n}\n",
    );
    let signatures: Vec<&str> = x.symbols.iter().map(|s| s.signature.as_str()).collect();
    assert_eq!(
        signatures,
        [
            "struct P { x: i32 }",
            "impl P",
            "fn root(&mut self, errs: &mut Errors) -> Option<Ignore>"
        ]
    );
    let x = extract(
        Language::Python,
        "@cached\ndef load(\n    path: str,\n    strict: bool = False,\n) -> Config:\n    return Config()\n",
    );
    assert_eq!(
        x.symbols[0].signature,
        "def load(path: str, strict: bool = False) -> Config:"
    );
}

#[test]
fn a_declaration_past_the_length_bound_loses_parameters_not_its_return_type() {
    let params = |n: usize, param: &dyn Fn(usize) -> String, sep: &str| -> String {
        (0..n).map(param).collect::<Vec<_>>().join(sep)
    };
    // (language, source, how the signature starts and ends, the return type read from it).
    let cases = [
        // Python: commas and brackets inside a string default are no cut.
        (
            Language::Python,
            format!(
                "def assemble(\n    cls,\n    {},\n) -> \"Text\":\n    pass\n",
                params(
                    12,
                    &|i| format!("style_{i}: Union[str, Style] = \"a, (b)\""),
                    ",\n    "
                )
            ),
            "def assemble(cls, style_0: Union[str, Style] = \"a, (b)\", ",
            ", …) -> \"Text\":",
            "Text",
        ),
        // Rust: a `->` inside a parameter's type is no closing bracket.
        (
            Language::Rust,
            format!(
                "fn apply(\n    {},\n) -> Result<Applied, Error> {{\n    Err(Error)\n}}\n",
                params(
                    12,
                    &|i| format!("f{i}: impl Fn(&str) -> Option<u32>"),
                    ",\n    "
                )
            ),
            "fn apply(f0: impl Fn(&str) -> Option<u32>, ",
            ", …) -> Result<Applied, Error>",
            "Applied",
        ),
        // Go on one line, TypeScript wrapped: the results and the return type stay.
        (
            Language::Go,
            format!(
                "package p\n\nfunc Open({}) (*File, error) {{\n\treturn nil, nil\n}}\n",
                params(20, &|i| format!("p{i} string"), ", ")
            ),
            "func Open(p0 string, ",
            ", …) (*File, error)",
            "File",
        ),
        (
            Language::TypeScript,
            format!(
                "function open(\n  {},\n): Promise<Handle> {{\n  return h;\n}}\n",
                params(12, &|i| format!("option{i}: string"), ",\n  ")
            ),
            "function open(option0: string, ",
            ", …): Promise<Handle>",
            "Handle",
        ),
    ];
    for (language, source, starts, ends, returned) in cases {
        let x = extract(language, &source);
        let signature = &x.symbols[0].signature;
        assert!(signature.chars().count() <= 200, "{signature}");
        assert!(
            signature.starts_with(starts) && signature.ends_with(ends),
            "{signature}"
        );
        assert_eq!(
            types::return_type(Some(language.name()), signature).as_deref(),
            Some(returned)
        );
    }
    // A first parameter longer than the bound leaves `(…)`.
    let x = extract(
        Language::Python,
        &format!(
            "def f(\n    a: \"{}\",\n) -> T:\n    pass\n",
            "x".repeat(300)
        ),
    );
    assert_eq!(x.symbols[0].signature, "def f(…) -> T:");
}

#[test]
fn a_type_alias_keeps_what_it_stands_for_and_that_is_read_as_a_type() {
    // (language, source, the alias's signature, the type it stands for).
    let cases = [
        (
            Language::Rust,
            "pub type UnGraphMap<N, E, #[cfg(feature = \"std\")] S = RandomState> =\n    GraphMap<N, E, Undirected, S>;\n",
            "pub type UnGraphMap<N, E, #[cfg(feature = \"std\")] S = RandomState> = GraphMap<N, E, Undirected, S>;",
            Some("GraphMap"),
        ),
        // A wrapper reads as what it wraps, as a stated type does (here the alias's own
        // parameter, which names no type).
        (
            Language::Rust,
            "pub type Result<T> = std::result::Result<T, Error>;\n",
            "pub type Result<T> = std::result::Result<T, Error>;",
            Some("T"),
        ),
        (
            Language::Rust,
            "pub type Shared = Arc<Inner>;\n",
            "pub type Shared = Arc<Inner>;",
            Some("Inner"),
        ),
        (
            Language::Rust,
            "type Pair = (u32, u32);\n",
            "type Pair = (u32, u32);",
            // A tuple: its elements in order.
            Some("(u32,u32)"),
        ),
        (
            Language::TypeScript,
            "export type Handler<T> =\n  BaseHandler<T>;\n",
            "type Handler<T> = BaseHandler<T>;",
            Some("BaseHandler"),
        ),
        // A union is none of its members; a function type is no type's name.
        (
            Language::TypeScript,
            "type Shape = Circle | Square;\n",
            "type Shape = Circle | Square;",
            None,
        ),
        (
            Language::TypeScript,
            "type Done = (err: Error) => void;\n",
            "type Done = (err: Error) => void;",
            None,
        ),
        (
            Language::TypeScript,
            "type Item = Api['data'];\n",
            "type Item = Api['data'];",
            None,
        ),
        (
            Language::Rust,
            "type Handler = fn(Req) -> io::Result<Resp>;\n",
            "type Handler = fn(Req) -> io::Result<Resp>;",
            None,
        ),
        (
            Language::Rust,
            "type Callback = Box<dyn Fn(u8) -> Out>;\n",
            "type Callback = Box<dyn Fn(u8) -> Out>;",
            None,
        ),
    ];
    for (language, source, signature, target) in cases {
        let x = extract(language, source);
        assert_eq!(x.symbols[0].signature, signature);
        assert_eq!(
            types::alias_target(Some(language.name()), signature).as_deref(),
            target,
            "{signature}"
        );
    }
    // A Rust tuple return, past a visibility's and the generics' own parentheses.
    let element = |signature: &str, index| types::returned_element(Some("rust"), signature, index);
    assert_eq!(
        element("pub(crate) fn split(&self) -> (Seq, Flags) {", 1).as_deref(),
        Some("Flags")
    );
    assert_eq!(element("fn f<F: Fn() -> (A, B)>(g: F) -> C {", 0), None);
    assert_eq!(
        element("fn f<F: Fn() -> u8>(g: F) -> (C, D)\nwhere F: Copy", 0).as_deref(),
        Some("C")
    );
}

#[test]
fn a_star_import_is_recorded_as_one_star_alias_on_its_line() {
    let stars = |lang: Language, src: &str| -> Vec<u32> {
        extract(lang, src)
            .aliases
            .iter()
            .filter(|a| a.name == STAR && a.local == STAR)
            .map(|a| a.line)
            .collect()
    };
    assert_eq!(
        stars(
            Language::Python,
            "from .api import *\nfrom .b import c as d\n"
        ),
        [1]
    );
    assert_eq!(
        stars(
            Language::TypeScript,
            "export { a } from './a';\nexport * as ns from './ns';\nexport * from './atom';\n"
        ),
        [3]
    );
    // Not a glob inside braces (its line names other modules too), nor an enum's variants.
    assert_eq!(
        stars(
            Language::Rust,
            "use crate::a::b;\npub use self::walk::*;\nuse super::{x, y::*};\nuse crate::token::Token::*;\n"
        ),
        [2]
    );
    // A star import still names its module, which resolution finds.
    assert_eq!(
        imports(&extract(Language::Python, "from .api import *\n")),
        [".api"]
    );
}

#[test]
fn a_rust_turbofish_and_a_private_name_are_kept_out_of_and_in_a_receiver() {
    let x = extract(
        Language::Rust,
        "fn f() { Map::<u32, Vec<u8>>::new(); a::B::<T>::c::<U>::d(); }\n",
    );
    let receivers: Vec<_> = x.calls.iter().map(|c| c.receiver.clone()).collect();
    assert_eq!(
        receivers,
        [Some("Map".to_string()), Some("a::B::c".to_string())]
    );
    let x = extract(
        Language::TypeScript,
        "class K {\n  #c: Cache\n  run() { this.#c.find(); this.#go(); }\n  #go() {}\n}\n",
    );
    let calls: Vec<_> = x
        .calls
        .iter()
        .map(|c| (c.name.as_str(), c.receiver.as_deref()))
        .collect();
    assert_eq!(calls, [("find", Some("this.#c")), ("#go", Some("this"))]);
    assert!(
        x.types
            .iter()
            .any(|t| t.name == "#c" && t.type_name == "Cache")
    );
}

#[test]
fn calls_inside_a_rust_macro_s_arguments_are_calls() {
    let x = extract(
        Language::Rust,
        "fn t() {\n    assert_eq!(parser(r\"a|b\").parse(), Ok(Ast::alternation(span(0..3))));\n    \
         let v = vec![lit('a', 0), self.p.at(1)];\n    println!(\"{}\", format!(\"{}\", x.0.len()));\n}\n\
         macro_rules! m { ($e:expr) => { helper($e) }; }\n\
         proptest! { fn parses(s in \".*\") { check(s); } }\n\
         fn q() { quote! { #name(x) }; }\n",
    );
    let calls: Vec<(&str, Option<&str>)> = x
        .calls
        .iter()
        .map(|c| (c.name.as_str(), c.receiver.as_deref()))
        .collect();
    for expected in [
        ("parser", None),
        ("parse", Some("parser()")),
        ("Ok", None),
        ("alternation", Some("Ast")),
        ("span", None),
        ("lit", None),
        ("at", Some("self.p")),
        ("len", Some("?")),
    ] {
        assert!(calls.contains(&expected), "{expected:?} in {calls:?}");
    }
    // A macro named inside another is no call of a function; a macro's own definition
    // calls nothing.
    assert!(
        !calls.iter().any(|(n, _)| *n == "format" || *n == "helper"),
        "{calls:?}"
    );
    // Nor is a function declared in a macro, nor a quoted template's variable; the calls
    // in their bodies are.
    assert!(
        !calls.iter().any(|(n, _)| *n == "parses" || *n == "name"),
        "{calls:?}"
    );
    assert!(calls.contains(&("check", None)), "{calls:?}");
}

#[test]
fn rust_items_in_an_item_macro_s_body_are_read_where_they_are_written() {
    let src = "cfg_feature! {\n    pub mod extra;\n    use crate::store::Store;\n}\n\n\
               trait_template! {\n/// Makes maps.\npub trait Visitable : Base {\n    @section type\n    \
               type Map: VisitMap<Self::NodeId>;\n    @section self\n    /// A fresh map.\n    \
               fn visit_map(self: &Self) -> Self::Map;\n    fn count(&self) -> usize { self.walk().len() }\n}\n}\n\n\
               mod tests {\n    proptest! {\n        fn parses(s in \".*\") { check(s); }\n    }\n}\n\n\
               fn body() {\n    inner! { fn hidden() {} }\n}\n\n\
               lazy_static! { static ref CACHE: Cache = Cache::new(); }\n";
    let x = extract(Language::Rust, src);
    has(&x, "module", "extra", None);
    has(&x, "trait", "Visitable", None);
    has(&x, "method", "visit_map", Some("Visitable"));
    has(&x, "method", "count", Some("Visitable"));
    // Inside a module, as if written there.
    has(&x, "function", "parses", Some("tests"));
    assert!(
        imports(&x).contains(&"crate::store::Store"),
        "{:?}",
        imports(&x)
    );
    // Positions are the file's own: the method's line, its doc and signature.
    let visit_map = x.symbols.iter().find(|s| s.name == "visit_map").unwrap();
    assert_eq!(visit_map.start_line, 13);
    assert_eq!(visit_map.doc.as_ref().unwrap().text, "A fresh map.");
    assert_eq!(
        visit_map.signature,
        "fn visit_map(self: &Self) -> Self::Map;"
    );
    // Its associated type's bound is what it returns.
    assert!(
        x.types
            .iter()
            .any(|t| t.name == types::RETURNED && t.type_name == "VisitMap" && t.line == 13),
        "{:?}",
        x.types
    );
    // The calls in the bodies are read once, as the language writes them.
    let calls: Vec<(&str, Option<&str>)> = x
        .calls
        .iter()
        .map(|c| (c.name.as_str(), c.receiver.as_deref()))
        .collect();
    assert_eq!(
        calls.iter().filter(|c| c.0 == "check").count(),
        1,
        "{calls:?}"
    );
    assert!(calls.contains(&("len", Some("self.walk()"))), "{calls:?}");
    // A macro in a function's body declares nothing outside it; a body without items (a
    // `static ref`) is read as a macro's arguments.
    assert!(
        !x.symbols.iter().any(|s| s.name == "hidden"),
        "{:?}",
        names(&x)
    );
    assert!(calls.contains(&("new", Some("Cache"))), "{calls:?}");
}

#[test]
fn item_macros_nested_without_end_are_read_to_a_bounded_depth() {
    let depth = 5_000;
    let opened: String = (0..depth)
        .map(|i| format!("m! {{ fn f{i}() {{}} "))
        .collect();
    let src = format!("{opened}{}\nfn top() {{}}\n", " }".repeat(depth));
    let x = extract(Language::Rust, &src);
    has(&x, "function", "top", None);
    has(&x, "function", "f0", None);
    has(&x, "function", "f1", None);
    assert!(!x.symbols.iter().any(|s| s.name == "f2"), "{:?}", names(&x));
}
