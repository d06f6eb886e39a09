//! The types a file gives its names: a variable or parameter annotated or constructed
//! (`x: Foo`, `x = Foo()`, `let x = Foo::new()`, `Foo x = new Foo()`), and a field declared or
//! assigned (`self.x = Foo()`, `private x: Foo`, `x: Foo` in a struct). A call on that name
//! (`x.send()`, `self.x.send()`) then means a method of that type, as a language server
//! would resolve it.

/// A name whose type the file states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Typed {
    /// The variable, parameter or field name as written (`x`; a field without `self.`).
    pub name: String,
    /// The type's own name: `Foo` for `&mut pkg::Foo<T>`, `Option[Foo]`, `Box<Foo>`.
    pub type_name: String,
    /// A field of the enclosing type (reached as `self.x` / `this.x`), not a local name.
    pub field: bool,
    pub line: u32,
    /// The last line the name holds this type on, when its scope ends before the
    /// definition's does: a closure's parameter, a match arm's binding (`Raw(x) =>`).
    pub until: Option<u32>,
}

/// What a `type_name` of a [`Typed`] begins with when it names no type but a path whose
/// type's element the variable holds (Go's `for _, route := range r.routes`): `@r.routes`.
pub const ELEMENT_OF: char = '@';

/// What a `type_name` of a [`Typed`] begins and ends with when the name holds a Rust tuple
/// (`st: &mut (Vf2State, Vf2State)` is `(Vf2State,Vf2State)`): its elements' types in order,
/// which `st.1` reads (see [`tuple_element`]).
pub const TUPLE: char = '(';

/// The end of a [`TUPLE`] type name.
const TUPLE_END: char = ')';

/// What a `type_name` of a [`Typed`] begins with when the name is assigned a path's value
/// (`route := test.route`, `x = self.app`): `=test.route`, typed as that chain of fields is.
pub const PATH_VALUE: char = '=';

/// What a `type_name` of a [`Typed`] begins with when the name is a parameter of a function
/// passed to a call without a type of its own (`operate((source, subscriber) => ..)`):
/// `&operate#0#1`, the second parameter of the function passed first, typed as the callee
/// declares that parameter of its function-typed parameter (TypeScript's contextual typing).
pub const CALLBACK_PARAMETER: char = '&';

/// What a `type_name` of a [`Typed`] begins with when the name is one of several a call's
/// value is unpacked into (Python's `name, cmd, args = self.resolve_command(ctx)`): `*1` and
/// the value as one name assigned it would have (`self.resolve_command()`, `resolve`),
/// typed as the element at that position of the tuple the function is declared to return.
pub const UNPACKED: char = '*';

/// What a `type_name` of a [`Typed`] begins with when it names the value a module is as a
/// whole (JSDoc's `{import('../core/request.js')}`), typed as the definition its
/// [`MODULE_EXPORTS`] names: `~../core/request.js` as written, `~/lib/core/request.js`
/// once anchored at the tree's root (see [`super::anchor_modules`]).
pub const MODULE_VALUE: char = '~';

/// Whether the module a [`MODULE_VALUE`] anchored at the root names (`/lib/core/request.js`,
/// `/lib/web`) is the file at `path` (`lib/core/request.js`, `lib/web/index.js`).
pub fn module_is(module: &str, path: &str) -> bool {
    const EXTENSIONS: [&str; 9] = [
        ".d.ts", ".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs",
    ];
    fn bare(p: &str) -> &str {
        let p = p.trim_start_matches('/').trim_end_matches('/');
        EXTENSIONS
            .iter()
            .find_map(|e| p.strip_suffix(e))
            .unwrap_or(p)
    }
    let (module, path) = (bare(module), bare(path));
    module == path
        || path
            .strip_suffix("index")
            .is_some_and(|dir| dir.trim_end_matches('/') == module)
}

/// The name of the [`Typed`] recording a CommonJS module's value (`module.exports =
/// Request`): the definition a `require` of the module, or JSDoc's `import(..)` of it, is.
pub const MODULE_EXPORTS: &str = "module.exports";

/// What the name of a [`Typed`] begins with when it records a base a class is given apart
/// from its declaration (Node's `inherits(NyanCat, Base)`): `extends NyanCat`, typed `Base`.
pub const INHERITS: &str = "extends ";

/// The name of a [`Typed`] that is no variable but what the function declared on its line
/// returns, where the language states it apart from the declaration (JSDoc's `@returns
/// {T}` in plain JavaScript): a word no variable may be named.
pub const RETURNED: &str = "return";

/// The type `symbol` is declared to return: by its declaration, else as `stated` apart (the
/// [`RETURNED`] entry of its file on its first line; see [`stated_returns`]).
pub fn declared_return(
    language: Option<&str>,
    symbol: &super::Symbol,
    stated: Option<&str>,
) -> Option<String> {
    // Rust's `-> Self::Map`: the type its trait binds `Map` by, or its `impl` makes it,
    // stated apart (the signature alone names no type).
    if language == Some("rust")
        && rust_return(&symbol.signature).is_some_and(|r| associated_path(r).is_some())
    {
        // Unbound (`type Item;`), it is whatever each `impl` makes it: no type.
        return stated.map(str::to_string);
    }
    return_type(language, &symbol.signature).or_else(|| stated.map(str::to_string))
}

/// Whether `s` is one plain name (letters, digits, `_`), no path, generics or punctuation.
pub fn plain_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')
}

/// The associated type a Rust type as written names on `Self` (`Self::Map`, `&mut
/// Self::Map` give `Map`), or none.
pub fn associated_path(written: &str) -> Option<&str> {
    let t = type_path(written)?;
    let name = t.strip_prefix("Self::")?.trim();
    plain_name(name).then_some(name)
}

/// The generic parameters a Rust function or `impl` declaration names (`fn all<T: Clone>(..)`,
/// `impl<'a, N, const K: usize> Store<N>` give `T`; `N`, `K`): a type of that name in what it
/// returns is the caller's choice, no type of the project's.
pub fn rust_generics(signature: &str) -> Vec<&str> {
    let rest = match signature.find("fn ") {
        Some(at) => {
            let after = &signature[at + 3..];
            let name_end = after
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(after.len());
            &after[name_end..]
        }
        None => match signature.trim_start().strip_prefix("impl") {
            Some(rest) => rest,
            None => return Vec::new(),
        },
    };
    let Some(inside) = rest.trim_start().strip_prefix('<') else {
        return Vec::new();
    };
    let Some(end) = group_end(inside, '<', '>') else {
        return Vec::new();
    };
    split_top(&inside[..end], ',')
        .into_iter()
        .map(|p| {
            let p = p.trim();
            let p = p.strip_prefix("const ").unwrap_or(p);
            p.split([':', '=']).next().unwrap_or(p).trim()
        })
        .filter(|p| !p.is_empty() && !p.starts_with('\''))
        .collect()
}

/// What a Rust declaration says it returns, as written (after `->`, before `where` or a
/// body).
fn rust_return(signature: &str) -> Option<&str> {
    let signature = &signature[signature.find("fn ")?..];
    let rest = after_group(signature)?.trim().strip_prefix("->")?;
    // A trait's declaration ends with `;` (`fn max() -> Self;`; not `-> [u8; 4] {`).
    let rest = rest.split(" where").next()?.split('{').next()?.trim_end();
    Some(rest.strip_suffix(';').unwrap_or(rest))
}

/// The returns `types` state apart from their declarations, by the declaration's first line.
pub fn stated_returns(types: &[Typed]) -> std::collections::HashMap<u32, &str> {
    let mut out = std::collections::HashMap::new();
    for t in types.iter().filter(|t| t.name == RETURNED) {
        // The first a declaration states, as its doc comment lists them.
        out.entry(t.line).or_insert(t.type_name.as_str());
    }
    out
}

/// The position and the value of an [`UNPACKED`] type name.
pub fn unpacked(type_name: &str) -> Option<(usize, &str)> {
    let rest = type_name.strip_prefix(UNPACKED)?;
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    Some((rest[..digits].parse().ok()?, &rest[digits..]))
}

/// The type of the element at `index` of the tuple a Python or Rust declaration says it
/// returns (`-> t.Tuple[t.Optional[str], t.Optional[Command], t.List[str]]`, `-> tuple[A,
/// B]`, `-> (List<N>, Seq)`), or of a Go declaration's results (`(Node, List)`); none for a
/// tuple of any length (`tuple[A, ...]`) or anything else.
pub fn returned_element(language: Option<&str>, signature: &str, index: usize) -> Option<String> {
    returned_elements(language, signature)
        .into_iter()
        .nth(index)
        .flatten()
}

/// Every element's type of the tuple a Python or Rust declaration says it returns, or of a
/// Go declaration's results (see [`returned_element`]), in order; empty for any other.
pub fn returned_elements(language: Option<&str>, signature: &str) -> Vec<Option<String>> {
    tuple_elements(language, signature).unwrap_or_default()
}

fn tuple_elements(language: Option<&str>, signature: &str) -> Option<Vec<Option<String>>> {
    if language == Some("rust") {
        return rust_tuple_elements(signature);
    }
    // Go's results (`func (w *Wrap) compact() (Node, List)`), each a value of its own.
    if language == Some("go") {
        let results = go_result_types(go_results(signature)?)?;
        return (results.len() > 1).then(|| results.into_iter().map(go_type_name).collect());
    }
    if language != Some("python") {
        return None;
    }
    let written = after_group(signature)?
        .trim()
        .strip_prefix("->")?
        .split(':')
        .next()?
        .trim()
        .trim_matches(['"', '\'']);
    let open = written.find('[')?;
    let outer = written[..open].trim();
    let last = outer.rsplit('.').next().unwrap_or(outer);
    if !matches!(last, "Tuple" | "tuple") || !written.ends_with(']') {
        return None;
    }
    let elements = split_top(&written[open + 1..written.len() - 1], ',');
    if elements.iter().any(|e| e.trim() == "...") {
        return None;
    }
    Some(
        elements
            .iter()
            .map(|e| type_name(e.trim().trim_matches(['"', '\''])))
            .collect(),
    )
}

/// A Rust function's declared tuple (`fn split(..) -> (List<N>, Seq) where ..`), element
/// by element as [`rust_type_name`] reads each; none for a unit `()` or a parenthesised
/// single type.
fn rust_tuple_elements(signature: &str) -> Option<Vec<Option<String>>> {
    let written = after_group(rust_parameters(signature)?)?
        .trim()
        .strip_prefix("->")?
        .trim();
    // The parenthesised group right after `->`, whatever follows it (`where`, a body).
    let written = written.strip_prefix('(')?;
    let close = group_end(written, '(', ')')?;
    let elements: Vec<&str> = split_top(&written[..close], ',')
        .into_iter()
        .map(str::trim)
        .filter(|e| !e.is_empty())
        .collect();
    (elements.len() > 1).then(|| elements.iter().map(|e| rust_type_name(e)).collect())
}

/// A Rust declaration from its parameter list on (`pub(crate) fn split<F: Fn() -> (A, B)>(f:
/// F) -> C` gives `(f: F) -> C`): past `fn`, its name and its generic parameters, whose
/// brackets may hold parentheses of their own.
fn rust_parameters(signature: &str) -> Option<&str> {
    let at = signature.find("fn ")?;
    let rest = &signature[at + 3..];
    let name_end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ' '))?;
    let rest = &rest[name_end..];
    if !rest.starts_with('<') {
        return Some(rest);
    }
    let mut depth = 0i32;
    let bytes = rest.as_bytes();
    for (i, c) in rest.char_indices() {
        match c {
            '<' => depth += 1,
            // `->` inside the generics (`F: Fn() -> T`) closes nothing.
            '>' if i > 0 && bytes[i - 1] == b'-' => {}
            '>' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&rest[i + 1..]);
                }
            }
            _ => {}
        }
    }
    None
}

/// What the `name` of a field [`Typed`] begins with when the field has no name but embeds its
/// type (Go's `type Route struct { routeConf }`): `^routeConf`. The embedding type gets the
/// embedded one's fields and methods, as from a base class; no path reaches the marked name.
pub const EMBEDDED: char = '^';

/// What a `type_name` of a [`Typed`] begins with when the name is bound by a pattern of an
/// enum's variant (Rust's `Raw(x) =>`, `Inner::Raw(ref x)`): `%Raw`, `%Inner.Raw`. The name
/// holds the variant's one field, which the enum's declaration types as a field named like
/// the variant.
pub const VARIANT_OF: char = '%';

/// What a `type_name` of a [`Typed`] ends with when the name is assigned a method call's
/// value (`m = ig.matched(p)` gives `ig.matched()`): the method's declared return type,
/// through its receiver's type, is the name's.
pub const CALL_VALUE: &str = "()";

/// Wrappers whose first type argument is the type a call on the value reaches.
const WRAPPERS: &[&str] = &[
    "Option", "Optional", "Box", "Arc", "Rc", "RefCell", "Cell", "Mutex", "RwLock", "Weak", "Pin",
    "Type", "type", "Readonly",
];

/// Associated functions that conventionally make a value of their type (`Foo::new()`).
fn makes_own_type(function: &str) -> bool {
    matches!(function, "new" | "default" | "open" | "create")
        || function.starts_with("new_")
        || function.starts_with("with_")
        || function.starts_with("from_")
        || function == "from"
}

/// The type a constructor path gives (`Foo::new` gives `Foo`; `Foo::compute` gives nothing).
pub fn constructed_by(path: &str) -> Option<String> {
    let (ty, function) = path.rsplit_once("::")?;
    makes_own_type(function).then(|| type_name(ty)).flatten()
}

/// Whether a Rust call's path is a type's associated function (`Config::load`,
/// `pkg::Queue::new`), not a module's function (`util::make`) nor `Self`'s.
pub fn of_a_type(path: &str) -> bool {
    path.rsplit_once("::").is_some_and(|(qualifier, function)| {
        let last = qualifier.rsplit("::").next().unwrap_or(qualifier);
        // The path itself, not a chain called on its value (`Glob::new(p).build`).
        let whole = plain_name(function) && !qualifier.contains(['(', '.']);
        whole && last.starts_with(char::is_uppercase) && last != "Self" && plain_name(last)
    })
}

/// A call's path split into the value it is made on and the method (`a.b().get` gives
/// `a.b()` and `get`); none for a plain function or a path's associated function (`f`,
/// `Foo::new`).
pub fn method_call(path: &str) -> Option<(&str, &str)> {
    let (on, method) = path.rsplit_once('.')?;
    let plain = !method.is_empty()
        && method
            .chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$' | '#'));
    (plain && !on.is_empty()).then_some((on, method))
}

/// What a Rust type name begins with when an `Option` or a `Result` holds the collection it
/// names (`Option<Vec<Literal>>` is `?[]Literal`): `?`, `.unwrap()` and `if let Some(..)`
/// give the collection, and an `Option`'s `map` hands its closure the whole collection.
pub const OPTIONAL: char = '?';

/// What a `type_name` of a [`Typed`] begins with when the name is what a Rust `Option` or
/// `Result` holds (`if let Some(lits) = self.literals`: `!=self.literals`): that value, its
/// wrapper peeled.
pub const SOME_OF: char = '!';

/// What a `type_name` of a [`Typed`] begins with when it names a collection of values of a
/// type (Python's `List[Text]` is `[]Text`): no methods of the element's are the
/// collection's, but ranging over it gives one.
pub const ELEMENTS: &str = "[]";

/// A Python sequence's annotation (`List[Text]`, `Optional[Sequence["Node"]]`, `tuple[Seg,
/// ...]`) as its elements' type, marked [`ELEMENTS`]; none for any other type.
pub fn python_elements(written: &str) -> Option<String> {
    let mut t = written.trim().trim_matches(['"', '\'']).trim();
    if let Some(inner) = t
        .strip_prefix("Optional[")
        .and_then(|r| r.strip_suffix(']'))
    {
        t = inner.trim();
    }
    if let Some(first) = split_top(t, '|').first().filter(|_| t.contains('|')) {
        t = first.trim();
    }
    let open = t.find('[')?;
    let outer = t[..open].rsplit('.').next()?;
    let sequence = matches!(
        outer,
        "List"
            | "list"
            | "Sequence"
            | "MutableSequence"
            | "Iterable"
            | "Iterator"
            | "Collection"
            | "Set"
            | "set"
            | "FrozenSet"
            | "frozenset"
            | "AbstractSet"
            | "Deque"
            | "deque"
            | "Tuple"
            | "tuple"
            | "Generator"
    );
    let inner = t[open + 1..].strip_suffix(']')?;
    let parts = split_top(inner, ',');
    // A tuple of one type is `Tuple[T, ...]`; `Tuple[A, B]` holds no one type.
    let variadic = parts.get(1).is_some_and(|p| p.trim() == "...");
    if !sequence || (matches!(outer, "Tuple" | "tuple") && !variadic) {
        return None;
    }
    let element = type_name(parts.first()?)?;
    Some(format!("{ELEMENTS}{element}"))
}

/// The type's own name in a type as written, or none when it names no single type.
pub fn type_name(raw: &str) -> Option<String> {
    let path = type_path(raw)?;
    Some(
        path.rsplit(['.', ':'])
            .next()
            .unwrap_or(path)
            .trim()
            .to_string(),
    )
}

/// The name of the type a type alias stands for, from its declaration (`pub type
/// UnGraph<N, E, Ix = DefaultIx> = Graph<N, E, Undirected, Ix>;` gives `Graph`, TypeScript's
/// `type Handler<T> = Base<T>` gives `Base`): what follows the `=` outside the alias's own
/// parameters. None where that is no type's name (a function type, a tuple, a union of
/// literals).
pub fn alias_target(language: Option<&str>, signature: &str) -> Option<String> {
    let target = alias_written(signature)?;
    match language {
        Some("rust") => rust_type_name(target),
        _ => type_name(target),
    }
}

/// The type an alias stands for by its own name (as [`alias_target`] reads it), a Rust
/// collection's too: `type NodeLinkedList = LinkedList<N, C, Ix>;` is the project's
/// `LinkedList` wherever it defines one, not std's list of `N`s.
pub fn aliased_type(language: Option<&str>, signature: &str) -> Option<String> {
    let target = alias_written(signature)?;
    match language {
        Some("rust") => rust_path_name(target),
        _ => type_name(target),
    }
}

/// What follows an alias's `=`, outside its own parameters, when it names a type: none for
/// a function type, a computed one, a union or an intersection.
fn alias_written(signature: &str) -> Option<&str> {
    let mut depth = 0i32;
    let bytes = signature.as_bytes();
    let at = signature.char_indices().find_map(|(i, c)| {
        match c {
            '<' | '(' | '[' | '{' => depth += 1,
            '>' if i > 0 && bytes[i - 1] != b'=' => depth -= 1,
            ')' | ']' | '}' => depth -= 1,
            '=' if depth == 0 && !matches!(bytes.get(i + 1), Some(b'=' | b'>')) => return Some(i),
            _ => {}
        }
        None
    })?;
    let target = signature[at + 1..].trim().trim_end_matches(';').trim();
    // A function type (`fn(Req) -> io::Result<Resp>`, `Box<dyn Fn(u8)>`, `(e: Error) =>
    // void`) or an indexed or computed one (`Api['data']`, `keyof T`) names no type.
    let function_or_computed = [
        "fn(", "fn ", "dyn ", "impl ", "keyof ", "typeof ", "unsafe ",
    ]
    .iter()
    .any(|p| target.starts_with(p))
        || target.contains("->")
        || target.contains("=>")
        || target.contains("Fn(")
        || target.contains('[');
    if function_or_computed {
        return None;
    }
    // A union or an intersection is none of its members.
    let members = |sep| {
        split_top(target, sep)
            .iter()
            .filter(|m| !m.trim().is_empty())
            .count()
    };
    (members('|') <= 1 && members('&') <= 1).then_some(target)
}

/// A Rust type's name as [`type_name`] gives it, but kept with the module it is reached
/// through when that is a path of another crate's or module's (`io::Error` for
/// `std::io::Error`, `walkdir::DirEntry`): the project's own `Error` is another type. A
/// name right below `crate::`, `self::` or `super::` is given alone.
pub fn rust_type_name(raw: &str) -> Option<String> {
    rust_type_name_at(raw, 0)
}

fn rust_type_name_at(raw: &str, depth: usize) -> Option<String> {
    // A collection behind an `Option` or a `Result` is marked [`OPTIONAL`].
    rust_tuple(raw, depth)
        .or_else(|| rust_elements(raw, 0))
        .or_else(|| rust_path_name(raw))
}

/// What a Rust tuple type's name is (`&mut (Vf2State<'_, G0>, Vf2State<'_, G1>)`, `(Foo,)`):
/// its elements' names as [`rust_type_name`] reads each, in order, joined by commas in
/// parentheses (`(Vf2State,Vf2State)`; an element naming no type is left empty), so
/// `st.1.next()` reaches the second element's methods (see [`tuple_element`]). None for a
/// unit `()`, a parenthesised single type, or a tuple none of whose elements names a type.
fn rust_tuple(raw: &str, depth: usize) -> Option<String> {
    // A type is short: a hostile one nested without end is no tuple read here.
    if depth > 4 || raw.len() > 500 {
        return None;
    }
    let inside = rust_referent(raw).strip_prefix('(')?;
    // The whole type is one group: `(A, B)`, not `(A) -> B` or `(dyn Fn())`.
    if group_end(inside, '(', ')')? != inside.len() - 1 {
        return None;
    }
    let inside = &inside[..inside.len() - 1];
    let mut elements: Vec<&str> = split_top(inside, ',').into_iter().map(str::trim).collect();
    // `(Foo,)` is a one-element tuple; `(Foo)` is no tuple.
    let one = elements.len() == 2 && elements[1].is_empty();
    if one {
        elements.pop();
    } else if elements.len() < 2 || elements.iter().any(|e| e.is_empty()) {
        return None;
    }
    let names: Vec<String> = elements
        .iter()
        .map(|e| rust_type_name_at(e, depth + 1).unwrap_or_default())
        .collect();
    tuple_named(&names)
}

/// A [`TUPLE`] type name of `elements`' names (an unknown one empty); none when every one
/// is unknown.
pub fn tuple_named(elements: &[String]) -> Option<String> {
    elements
        .iter()
        .any(|n| !n.is_empty())
        .then(|| format!("{TUPLE}{}{TUPLE_END}", elements.join(",")))
}

/// The elements' names of a [`TUPLE`] type name, in order (an unknown one empty); none for
/// any other type name.
pub fn tuple_parts(type_name: &str) -> Option<Vec<&str>> {
    let inside = type_name.strip_prefix(TUPLE)?.strip_suffix(TUPLE_END)?;
    Some(split_top(inside, ',').into_iter().map(str::trim).collect())
}

/// The name of the element at `index` of a Rust tuple type named as [`rust_tuple`] names it
/// (`st.1` of an `st: (A, B)` is a `B`); none for any other type, a position past its end, or
/// an element naming no type.
pub fn tuple_element(type_name: &str, index: &str) -> Option<String> {
    let index: usize = index.parse().ok()?;
    let element = *tuple_parts(type_name)?.get(index)?;
    (!element.is_empty()).then(|| element.to_string())
}

/// [`rust_type_name`] of a type that is no collection. A generic's associated type
/// (`G::Map`) is kept whole: what it is, its bounds' trait says (a type named `Map` is
/// another).
fn rust_path_name(raw: &str) -> Option<String> {
    let path = type_path(rust_ok_type(raw))?;
    let mut segments = path.rsplit("::").map(str::trim);
    let last = segments.next()?.to_string();
    match (segments.next(), segments.next()) {
        (Some(module), _)
            if !matches!(module, "crate" | "self" | "super" | "Self")
                && module.starts_with(|c: char| c.is_lowercase())
                && plain_name(module) =>
        {
            Some(format!("{module}::{last}"))
        }
        (Some(generic), None)
            if generic != "Self"
                && generic.starts_with(char::is_uppercase)
                && plain_name(generic) =>
        {
            Some(format!("{generic}::{last}"))
        }
        _ => Some(last),
    }
}

/// Methods of Rust's collections and iterators that give one of the elements behind an
/// `Option` (which `unwrap` and `?` peel): `stack.pop()`, `it.next()`, `v.first()`.
pub const RUST_OPTIONAL_ELEMENT: &[&str] = &[
    "next",
    "next_back",
    "last",
    "first",
    "pop",
    "pop_front",
    "pop_back",
    "front",
    "back",
    "get",
    "get_mut",
    "first_mut",
    "last_mut",
    "peek",
    "nth",
    "find",
    "min",
    "max",
];

/// Rust's collections whose first type argument is what iterating over them gives.
const RUST_SEQUENCES: &[&str] = &[
    "Vec",
    "VecDeque",
    "HashSet",
    "BTreeSet",
    "BinaryHeap",
    "LinkedList",
    "IndexSet",
    "SmallVec",
];

/// Rust's iterator traits, whose `Item` is what iterating gives (`impl Iterator<Item = T>`).
const RUST_ITERATORS: &[&str] = &[
    "Iterator",
    "IntoIterator",
    "DoubleEndedIterator",
    "ExactSizeIterator",
];

/// A Rust collection or iterator as written (`Vec<Foo>`, `&[Foo]`, `[Foo; 4]`, `impl
/// Iterator<Item = &Foo>`, `Box<dyn Iterator<Item = Foo>>`, `Arc<Vec<Foo>>`) as its
/// elements' type, marked [`ELEMENTS`] (`[]Foo`), as Python's `List[Foo]` is: iterating over
/// it gives a `Foo`, while none of `Foo`'s methods are its own. None for any other type.
fn rust_elements(written: &str, depth: usize) -> Option<String> {
    // A type is short: a hostile one nested without end is no collection read here.
    if depth > 4 || written.len() > 500 {
        return None;
    }
    let mut t = rust_referent(written);
    // `impl Iterator<Item = &Node> + '_`: the trait, its lifetime bound aside.
    t = split_top(t, '+').first().map_or(t, |first| first.trim());
    let element = if let Some(inner) = t.strip_prefix('[') {
        // `[Foo]`, `[Foo; 4]`.
        let inner = inner.strip_suffix(']')?;
        split_top(inner, ';').first()?.trim()
    } else {
        let open = t.find('<')?;
        let inner = t[open + 1..].trim_end().strip_suffix('>')?;
        let outer = t[..open].trim();
        let last = outer.rsplit("::").next().unwrap_or(outer);
        let arguments = split_top(inner, ',');
        // A collection behind a `Box` or an `Arc` iterates as it does; behind an `Option` or
        // a `Result` it is marked so (`opt.map(|v| ..)` hands the closure the whole
        // collection, `opt?` or `.unwrap()` gives it).
        if matches!(last, "Option" | "Result") {
            let held = rust_elements(arguments.first()?, depth + 1)?;
            return (!held.starts_with(OPTIONAL)).then(|| format!("{OPTIONAL}{held}"));
        }
        if WRAPPERS.contains(&last) {
            return rust_elements(arguments.first()?, depth + 1);
        }
        if RUST_SEQUENCES.contains(&last) {
            arguments.first()?.trim()
        } else if RUST_ITERATORS.contains(&last) {
            arguments.iter().find_map(|a| {
                let (name, value) = a.split_once('=')?;
                (name.trim() == "Item").then_some(value.trim())
            })?
        } else {
            return None;
        }
    };
    // An element that is a collection again (`Vec<Vec<Foo>>`) gives no one type.
    if rust_elements(element, depth + 1).is_some() {
        return None;
    }
    // An associated type (`Self::EdgeRef`, `G::Map`) is what its trait says, which the
    // declaring trait reads (see `associated_returns`): kept as written, it names no type.
    let path = type_path(element)?;
    if let Some((head, _)) = path.split_once("::")
        && head.starts_with(char::is_uppercase)
    {
        return Some(format!("{ELEMENTS}{path}"));
    }
    let name = rust_path_name(element)?;
    Some(format!("{ELEMENTS}{name}"))
}

/// A Rust type as written past its references, lifetimes and `dyn` or `impl` (`&'a mut
/// dyn Iterator<..>` gives `Iterator<..>`): what the value is read as.
fn rust_referent(written: &str) -> &str {
    let mut t = written.trim();
    loop {
        let before = t;
        for prefix in ["&", "mut ", "dyn ", "impl "] {
            t = t.strip_prefix(prefix).unwrap_or(t).trim_start();
        }
        if t.starts_with('\'') {
            t = t.split_once(' ').map_or("", |(_, rest)| rest).trim_start();
        }
        if t == before {
            return t;
        }
    }
}

/// A Go type's name as [`type_name`] gives it, but kept with the package it is reached
/// through (`goflag.Value`, `http.Handler`): the project's own `Value` is another type. A
/// slice, array or map of it (`[]*Route`, `map[string]Path`, a variadic `...Path`) is
/// marked [`ELEMENTS`] once per level: it has none of the element's methods, and indexing or
/// ranging over it gives the element, no element of that (`[]Path` of a `type Path
/// []PathStep` holds `Path`s).
pub fn go_type_name(raw: &str) -> Option<String> {
    let (levels, element) = go_collection_levels(raw);
    let path = type_path(element)?;
    let name = match path.rsplit_once('.') {
        Some((package, name))
            if package.starts_with(|c: char| c.is_lowercase())
                && package.chars().all(|c| c.is_alphanumeric() || c == '_') =>
        {
            format!("{package}.{name}")
        }
        _ => type_name(path)?,
    };
    Some(ELEMENTS.repeat(levels) + &name)
}

/// How many Go slices, arrays, maps or variadic lists a type as written nests (pointers
/// between them peeled), and the element type they hold, as written.
fn go_collection_levels(raw: &str) -> (usize, &str) {
    let mut t = raw.trim();
    let mut levels = 0;
    // A few levels at most: a hostile file may nest them without end.
    while levels < 4 {
        t = t.trim_start_matches('*').trim_start();
        let rest = if let Some(rest) = t.strip_prefix("...") {
            rest
        } else if let Some(rest) = t.strip_prefix("map[") {
            match group_end(rest, '[', ']') {
                Some(close) => &rest[close + 1..],
                None => break,
            }
        } else if let Some(inside) = t.strip_prefix('[')
            && let Some(close) = inside.find(']')
            && inside[..close]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            &inside[close + 1..]
        } else {
            break;
        };
        t = rest.trim_start();
        levels += 1;
    }
    (levels, t)
}

/// The path of the one type a type as written names, wrappers and references peeled
/// (`&mut pkg::Foo<T>` gives `pkg::Foo`), or none.
fn type_path(raw: &str) -> Option<&str> {
    let mut t = raw.trim().trim_matches(['"', '\'']).trim();
    loop {
        let before = t;
        for prefix in [
            "&",
            "*",
            "mut ",
            "dyn ",
            "impl ",
            "const ",
            "final ",
            "readonly ",
        ] {
            t = t.strip_prefix(prefix).unwrap_or(t).trim_start();
        }
        if t.starts_with('\'') {
            // A lifetime: `&'a Foo`.
            t = t.split_once(' ').map_or("", |(_, rest)| rest).trim_start();
        }
        // A union: the first member that is a type (`Foo | None`, `null | Foo`).
        if let Some(first) = split_top(t, '|')
            .into_iter()
            .map(str::trim)
            .find(|m| !matches!(*m, "None" | "null" | "undefined"))
            .filter(|_| t.contains('|'))
        {
            t = first;
        }
        // Go's slices, arrays and maps (`[]*Route`, `[4]Route`, `map[string]*Route`): the
        // element's type, what indexing or ranging gives (as TypeScript's `Route[]` is).
        if let Some(rest) = t.strip_prefix("map[") {
            let close = group_end(rest, '[', ']');
            t = close.map_or("", |i| rest[i + 1..].trim_start());
            continue;
        }
        if t.starts_with('[')
            && let Some(close) = t.find(']')
            && t[1..close]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !t[close + 1..].trim().is_empty()
        {
            t = t[close + 1..].trim_start();
            continue;
        }
        // `Outer<Inner>` / `Outer[Inner]`: a wrapper's inner type, else the outer one.
        if let Some(open) = t.find(['<', '[']) {
            let outer = t[..open].trim();
            let last = outer.rsplit(['.', ':']).next().unwrap_or(outer);
            if WRAPPERS.contains(&last) {
                let inner = t[open + 1..].trim_end().trim_end_matches(['>', ']']);
                t = split_top(inner, ',').first().copied().unwrap_or("").trim();
            } else {
                t = outer;
            }
        }
        if t == before {
            break;
        }
    }
    let last = t.rsplit(['.', ':']).next().unwrap_or(t).trim();
    let plain = !last.is_empty()
        && last
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
        && last.chars().all(|c| c.is_alphanumeric() || c == '_');
    plain.then_some(t.trim())
}

/// The type a function returns, from its declaration's first line (`def f() -> Foo:`,
/// `fn f() -> Foo {`, `function f(): Foo {`, `func F() *Foo {`, `public Foo f(`): what a
/// variable assigned its result is.
pub fn return_type(language: Option<&str>, signature: &str) -> Option<String> {
    // Rust's `pub(crate) fn`: the parameters open after `fn`.
    let signature = match (language, signature.find("fn ")) {
        (Some("rust"), Some(at)) => &signature[at..],
        _ => signature,
    };
    let after_params = || after_group(signature);
    let written = match language? {
        "rust" => return rust_type_name(rust_return(signature)?),
        "python" => after_params()?
            .trim()
            .strip_prefix("->")?
            .split(':')
            .next()?,
        "typescript" | "tsx" | "javascript" | "vue" | "svelte" | "html" => {
            let rest = after_params()?.trim().strip_prefix(':')?;
            let written = rest.split(['{', '=']).next()?.trim();
            // An async function's `Promise<T>`: what `await` gives, as Python's and Rust's
            // `async` declarations state it.
            match written.strip_prefix("Promise<") {
                Some(inner) => inner.strip_suffix('>').unwrap_or(inner),
                None => written,
            }
        }
        "go" => {
            let results = go_results(signature)?;
            match results.strip_prefix('(') {
                // Several results, or named ones: the first's type.
                Some(_) => go_result_types(results)?.into_iter().next()?,
                None => results.split_whitespace().last()?,
            }
        }
        "java" => {
            let head = signature.split('(').next()?;
            let words: Vec<&str> = head.split_whitespace().collect();
            words.get(words.len().checked_sub(2)?).copied()?
        }
        _ => return None,
    };
    // A Go type keeps the package it is named through (`reflect.Value` is no type of
    // the caller's own package).
    if language == Some("go") {
        return go_type_name(written);
    }
    type_name(written)
}

/// What a Go declaration says it returns, as written after its parameters (`*Foo`, `(Node,
/// List)`, `(vx, vy reflect.Value)`), its body cut off.
fn go_results(signature: &str) -> Option<&str> {
    // A method's receiver (`func (s list) f()`) is a group before its parameters.
    let params = match signature.strip_prefix("func") {
        Some(rest) if rest.trim_start().starts_with('(') => after_group(rest)?,
        _ => signature,
    };
    Some(after_group(params)?.split('{').next()?.trim())
}

/// Each result's type as written, in order, of a Go result list `(Node, List)` or of named
/// results (`(out textNode)`; `(vx, vy reflect.Value)`: names share the type written after
/// the last of them).
fn go_result_types(results: &str) -> Option<Vec<&str>> {
    let inner = results.strip_prefix('(')?;
    let inner = &inner[..group_end(inner, '(', ')')?];
    let parts: Vec<&str> = split_top(inner, ',').into_iter().map(str::trim).collect();
    let named_part = |p: &str| {
        let mut words = p.split_whitespace();
        let first = words.next().unwrap_or_default();
        words.next().is_some()
            && first.chars().all(|c| c.is_alphanumeric() || c == '_')
            && !matches!(first, "func" | "chan" | "map" | "struct" | "interface")
    };
    if !parts.iter().any(|p| named_part(p)) {
        return Some(parts);
    }
    // Named: a lone name takes the type of the next part that writes one.
    (0..parts.len())
        .map(|i| {
            let typed = parts[i..].iter().find(|p| named_part(p))?;
            let name = typed.split_whitespace().next()?;
            Some(typed[name.len()..].trim())
        })
        .collect()
}

/// What follows the first parenthesised group of `text`, brackets inside it balanced.
fn after_group(text: &str) -> Option<&str> {
    let inside = &text[text.find('(')? + 1..];
    let close = group_end(inside, '(', ')')?;
    Some(&inside[close + 1..])
}

/// Where the group whose `open` bracket comes just before `inside` closes: the byte offset
/// in `inside` of its matching `close`, nested groups skipped.
pub(crate) fn group_end(inside: &str, open: char, close: char) -> Option<usize> {
    let mut depth = 1i32;
    inside.char_indices().find_map(|(i, c)| {
        if c == open {
            depth += 1;
        } else if c == close {
            depth -= 1;
        }
        (depth == 0).then_some(i)
    })
}

/// What a Rust `Result` holds on success (`io::Result<Foo>`, `Result<&mut Foo, Error>` give
/// `Foo` as written), what `?` and `.unwrap()` make of it; any other type as it is. Only
/// Rust's: a `Result<T>` class elsewhere is a type of its own, with methods of its own.
pub fn rust_ok_type(written: &str) -> &str {
    let t = written.trim();
    let Some(open) = t.find('<') else {
        return t;
    };
    let outer = t[..open].trim();
    if outer.rsplit("::").next() != Some("Result") || !t.ends_with('>') {
        return t;
    }
    split_top(&t[open + 1..t.len() - 1], ',')
        .first()
        .map_or(t, |ok| ok.trim())
}

/// `text` split at `sep` outside brackets (the `>` of an arrow, `->` or `=>`, closes none;
/// the `<` of Go's `<-` opens none).
pub(crate) fn split_top(text: &str, sep: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    let mut previous = ' ';
    for (i, c) in text.char_indices() {
        let arrow = c == '>' && matches!(previous, '-' | '=');
        previous = c;
        match c {
            // Go's channel arrow (`<-chan T`) opens nothing.
            '<' if text[i + 1..].starts_with('-') => {}
            '<' | '[' | '(' => depth += 1,
            '>' if arrow => {}
            '>' | ']' | ')' => depth -= 1,
            c if c == sep && depth == 0 => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::{
        constructed_by, return_type, returned_elements, rust_type_name, tuple_element, type_name,
    };

    #[test]
    fn a_go_declaration_s_results_are_read_at_their_positions() {
        let go = Some("go");
        let cases: [(&str, &[Option<&str>]); 7] = [
            (
                "func (w *Wrap) split() (Node, List) {",
                &[Some("Node"), Some("List")],
            ),
            (
                "func f() (n int, rest List, k *pkg.Key)",
                &[Some("int"), Some("List"), Some("pkg.Key")],
            ),
            (
                "func f() (vx, vy reflect.Value)",
                &[Some("reflect.Value"), Some("reflect.Value")],
            ),
            // A channel is no value of its element's type.
            (
                "func f() (ch <-chan Event, err error)",
                &[None, Some("error")],
            ),
            // A slice of them, marked so.
            ("func f() (func() error, []*Node)", &[None, Some("[]Node")]),
            // One result is no tuple.
            ("func f() (out textNode)", &[]),
            ("func f() *Node {", &[]),
        ];
        for (signature, want) in cases {
            let read = returned_elements(go, signature);
            let read: Vec<Option<&str>> = read.iter().map(Option::as_deref).collect();
            assert_eq!(read, want, "{signature}");
        }
        // The first result is what a name assigned the call holds.
        assert_eq!(
            return_type(go, "func f() (ch <-chan Event, err error)"),
            None
        );
        assert_eq!(
            return_type(go, "func (s *S) f(a int) (out textNode) {").as_deref(),
            Some("textNode")
        );
    }

    #[test]
    fn a_rust_tuple_type_names_its_elements_in_order() {
        let cases = [
            (
                "&mut (Vf2State<'_, G0>, Vf2State<'_, G1>)",
                Some("(Vf2State,Vf2State)"),
            ),
            ("(u32, (io::Error, Node))", Some("(u32,(io::Error,Node))")),
            ("(Node,)", Some("(Node)")),
            ("(Node)", None),
            ("()", None),
            ("(fn(u8), Node)", Some("(,Node)")),
            ("(fn() -> A, B<C, Node>, X)", Some("(,B,X)")),
        ];
        for (written, want) in cases {
            assert_eq!(rust_type_name(written).as_deref(), want, "{written}");
        }
        let pair = rust_type_name("(u32, (io::Error, Node))").unwrap();
        assert_eq!(tuple_element(&pair, "0").as_deref(), Some("u32"));
        let inner = tuple_element(&pair, "1").unwrap();
        assert_eq!(tuple_element(&inner, "1").as_deref(), Some("Node"));
        assert_eq!(tuple_element(&pair, "2"), None);
        assert_eq!(tuple_element("(,Node)", "0"), None);
        assert_eq!(tuple_element("Node", "0"), None);
        // A hostile type nested without end is read no deeper than a few levels.
        let deep = format!("{}Node{}", "(".repeat(60), ", Node)".repeat(60));
        let read = rust_type_name(&deep).unwrap_or_default();
        assert!(read.matches('(').count() <= 5, "{read}");
    }

    #[test]
    fn a_type_as_written_gives_its_own_name() {
        let cases = [
            ("Foo", Some("Foo")),
            ("&mut pkg::Foo<T>", Some("Foo")),
            ("&'a Foo", Some("Foo")),
            ("Option<Box<Foo>>", Some("Foo")),
            ("Arc<Mutex<Inner>>", Some("Inner")),
            ("Optional[Session]", Some("Session")),
            ("\"Session\"", Some("Session")),
            ("Session | None", Some("Session")),
            ("null | Adapter", Some("Adapter")),
            ("t.Optional[Flask]", Some("Flask")),
            ("List<Foo>", Some("List")),
            ("dict[str, int]", Some("dict")),
            ("*Server", Some("Server")),
            ("impl Handler", Some("Handler")),
            ("[]*Route", Some("Route")),
            ("[4]Route", Some("Route")),
            ("map[string]*Route", Some("Route")),
            ("map[string][]Route", Some("Route")),
            ("[u8; 4]", None),
            ("(A, B)", None),
            ("", None),
        ];
        for (raw, want) in cases {
            assert_eq!(type_name(raw).as_deref(), want, "{raw}");
        }
        assert_eq!(constructed_by("Config::new").as_deref(), Some("Config"));
        assert_eq!(
            constructed_by("crate::a::Pool::with_capacity").as_deref(),
            Some("Pool")
        );
        assert_eq!(constructed_by("Config::builder"), None);
    }

    #[test]
    fn a_python_sequence_s_annotation_names_its_elements() {
        use super::python_elements;
        let cases = [
            ("List[\"Text\"]", Some("[]Text")),
            ("Optional[Sequence[Node]]", Some("[]Node")),
            ("typing.Iterable[rich.Segment]", Some("[]Segment")),
            ("tuple[Seg, ...]", Some("[]Seg")),
            ("Tuple[int, str]", None),
            ("Dict[str, Text]", None),
            ("Text", None),
            ("list[Text] | None", Some("[]Text")),
        ];
        for (written, want) in cases {
            assert_eq!(python_elements(written).as_deref(), want, "{written}");
        }
    }

    #[test]
    fn a_function_s_return_type_is_read_from_its_declaration() {
        use super::return_type;
        let cases = [
            (
                "python",
                "def make(a: int = f(1)) -> Session:",
                Some("Session"),
            ),
            ("python", "def make(a):", None),
            (
                "rust",
                "pub fn builder(x: impl Fn() -> u32) -> ConfigBuilder {",
                Some("ConfigBuilder"),
            ),
            (
                "rust",
                "fn tmpdir() -> TempDir where T: X {",
                Some("TempDir"),
            ),
            ("rust", "fn go(&self) {", None),
            (
                "rust",
                "pub fn tmpdir() -> TempDir { TempDir }",
                Some("TempDir"),
            ),
            ("python", "def f() -> A: return B()", Some("A")),
            (
                "typescript",
                "export function make(a: string): Store<T> {",
                Some("Store"),
            ),
            (
                "typescript",
                "const f = (a: number): Conn => {",
                Some("Conn"),
            ),
            (
                "go",
                "func NewServer(addr string) *Server {",
                Some("Server"),
            ),
            ("go", "func Open(p string) (*DB, error) {", Some("DB")),
            (
                "go",
                "func New() *Server { return &Server{} }",
                Some("Server"),
            ),
            (
                "go",
                "func (o opts) FormatDiff(v *node) (out textNode) {",
                Some("textNode"),
            ),
            (
                "go",
                "func (ps step) Values() (vx, vy reflect.Value) { return ps.vx, ps.vy }",
                Some("reflect.Value"),
            ),
            ("go", "func Open() (chan int, error) {", None),
            ("java", "public static Repo open(String s) {", Some("Repo")),
            (
                "rust",
                "pub fn add(&mut self, glob: &str) -> Result<&mut OverrideBuilder, Error> {",
                Some("OverrideBuilder"),
            ),
            ("rust", "fn open() -> io::Result<File> {", Some("File")),
            (
                "rust",
                "pub(crate) fn matched<'a, P: AsRef<Path>>(&'a self, p: P) -> Match<IgnoreMatch<'a>>",
                Some("Match"),
            ),
            ("rust", "fn err(&self) -> &io::Error {", Some("io::Error")),
            ("rust", "fn ig(&self) -> crate::Ignore {", Some("Ignore")),
            (
                "rust",
                "fn ig(&self) -> crate::dir::Ignore {",
                Some("dir::Ignore"),
            ),
            (
                "rust",
                "fn ig(&self) -> Result<dir::Ignore, E> {",
                Some("dir::Ignore"),
            ),
            (
                "java",
                "public Result<Repo> open(String s) {",
                Some("Result"),
            ),
        ];
        for (language, signature, want) in cases {
            assert_eq!(
                return_type(Some(language), signature).as_deref(),
                want,
                "{signature}"
            );
        }
    }

    #[test]
    fn a_rust_collection_or_iterator_is_its_elements_type() {
        let cases = [
            ("Vec<Node>", Some("[]Node")),
            ("&[Node]", Some("[]Node")),
            ("&'a mut [Node; 4]", Some("[]Node")),
            ("Arc<Vec<crate::graph::Node>>", Some("[]graph::Node")),
            ("Option<Vec<Node>>", Some("?[]Node")),
            ("io::Result<VecDeque<Node>>", Some("?[]Node")),
            ("Option<Option<Vec<Node>>>", Some("Vec")),
            ("impl Iterator<Item = &'a Node> + '_", Some("[]Node")),
            ("impl Iterator<Item = &'a Node>", Some("[]Node")),
            ("Box<dyn Iterator<Item = Node>>", Some("[]Node")),
            ("Iterator<Item=Self::EdgeRef>", Some("[]Self::EdgeRef")),
            ("Box<dyn Iterator<Item = G::EdgeRef>>", Some("[]G::EdgeRef")),
            // A collection of collections, or a map, is no one element (its own name stays);
            // a plain type is itself.
            ("Vec<Vec<Node>>", Some("Vec")),
            ("HashMap<String, Node>", Some("HashMap")),
            ("Node", Some("Node")),
            ("Option<Node>", Some("Node")),
        ];
        for (written, expected) in cases {
            assert_eq!(
                super::rust_type_name(written).as_deref(),
                expected,
                "{written}"
            );
        }
        // A type nested past any reading is none, at once.
        let deep = format!("{}Node{}", "Vec<".repeat(10_000), ">".repeat(10_000));
        assert_eq!(super::rust_elements(&deep, 0), None);
    }

    #[test]
    fn a_rust_method_returning_an_associated_type_names_it() {
        assert_eq!(super::associated_path("Self::Map"), Some("Map"));
        assert_eq!(super::associated_path("&mut Self::Map"), Some("Map"));
        assert_eq!(super::associated_path("G::Map"), None);
        assert_eq!(super::associated_path("Map"), None);
    }
}
