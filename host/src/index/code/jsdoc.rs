//! The types plain JavaScript states in JSDoc (`@param {Headers} headers`, `@returns
//! {HeadersList}`, `@type {Client}`), read as TypeScript's checker reads them in a `.js`
//! file: a call on such a name means a method of that type, as it would under a
//! TypeScript annotation.

/// What a JSDoc tag states a type of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stated<'a> {
    /// `@param {T} name` (also `@arg`, `@argument`; `[name]` and `[name=x]` when optional).
    Parameter(&'a str),
    /// `@returns {T}` / `@return {T}`.
    Returned,
    /// `@type {T}`: the variable or field declared below the comment.
    Declared,
}

/// Each type-stating tag of a doc comment (markers stripped or not) with the type as
/// written between its braces (nested braces balanced, over several lines too).
pub fn tags(doc: &str) -> Vec<(Stated<'_>, &str)> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(at) = rest.find('@') {
        let after = &rest[at + 1..];
        let word_end = after
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(after.len());
        let word = &after[..word_end];
        let body = after[word_end..].trim_start();
        rest = &after[word_end..];
        let kind = match word {
            "param" | "arg" | "argument" => Stated::Parameter(""),
            "returns" | "return" => Stated::Returned,
            "type" => Stated::Declared,
            _ => continue,
        };
        let Some(inside) = braced(body) else {
            continue;
        };
        let after_type = &body[inside.len() + 2..];
        rest = after_type;
        let stated = match kind {
            Stated::Parameter(_) => match parameter_name(after_type) {
                Some(name) => Stated::Parameter(name),
                None => continue,
            },
            other => other,
        };
        out.push((stated, inside.trim()));
    }
    out
}

/// The type a JSDoc type expression names, as a [`super::Typed`]'s type name: the one
/// member of a union that is not `null`/`undefined` (`Uint8Array|null`, `?Foo`, `Foo=`),
/// the type a module's member is (`import('./client.js').Client`: `Client`), the element
/// of an array (`Foo[]`, `Array<Foo>`), the module's value (`import('./client.js')`, a
/// [`super::types::MODULE_VALUE`]). None for a union of several types, an object's shape or
/// a function type.
pub fn type_name(expression: &str) -> Option<String> {
    let mut written = expression.trim();
    written = written.trim_start_matches(['?', '!']).trim_end_matches('=');
    while let Some(inner) = written.strip_prefix('(').and_then(|w| w.strip_suffix(')')) {
        written = inner.trim();
    }
    let members: Vec<&str> = split_union(written)
        .into_iter()
        .map(str::trim)
        .filter(|m| !matches!(*m, "null" | "undefined" | "void"))
        .collect();
    let [one] = members.as_slice() else {
        return None;
    };
    let one = one.trim();
    if one.starts_with('{') || one.contains("=>") || one.starts_with("function") {
        return None;
    }
    // `import('../core/request.js')`: what the module's value is; `.Request` after it: the
    // member, wherever the module is.
    if let Some(after) = one.strip_prefix("import(") {
        let (module, member) = after.split_once(')')?;
        if member.is_empty() {
            let module = module.trim().trim_matches(['\'', '"', '`']);
            return (!module.is_empty()).then(|| format!("{}{module}", super::types::MODULE_VALUE));
        }
        return super::types::type_name(member.strip_prefix('.')?);
    }
    let element = one
        .strip_prefix("Array<")
        .and_then(|e| e.strip_suffix('>'))
        .unwrap_or(one);
    super::types::type_name(element)
}

/// What an `await` of a function declared to return `expression` gives: a `Promise<T>`'s
/// `T`, as TypeScript's declared returns are read.
pub fn returned_type_name(expression: &str) -> Option<String> {
    let written = expression.trim();
    match written
        .strip_prefix("Promise<")
        .and_then(|w| w.strip_suffix('>'))
    {
        Some(inner) => type_name(inner),
        None => type_name(written),
    }
}

/// The longest type expression read between a tag's braces.
const MAX_TYPE_CHARS: usize = 1_000;

/// The text between the `{` `text` opens with and its matching `}`.
fn braced(text: &str) -> Option<&str> {
    if !text.starts_with('{') {
        return None;
    }
    let mut depth = 0usize;
    // A type longer than this is none the graph reads, and a comment of unclosed `{`s (a
    // hostile file's) is not scanned to its end once per tag.
    for (i, c) in text.char_indices().take(MAX_TYPE_CHARS) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return Some(&text[1..i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// The parameter a `@param {T}` tag names: a plain name, or an optional one in brackets
/// (`[name]`, `[name=default]`), or a property of one (`arg.request`, which a parameter
/// destructured as `{ request }` binds).
fn parameter_name(after_type: &str) -> Option<&str> {
    let text = after_type.trim_start();
    let name = match text.strip_prefix('[') {
        Some(optional) => optional.split([']', '=']).next()?.trim(),
        None => text.split(|c: char| c.is_whitespace()).next()?,
    };
    let plain = |n: &str| {
        n.starts_with(|c: char| c.is_alphabetic() || matches!(c, '_' | '$'))
            && n.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
    };
    name.split('.').all(plain).then_some(name)
}

/// The name a `@param` tag's parameter is bound by in a declaration whose first line is
/// `signature`: the name itself, or for a property (`arg.request`) the name the one
/// destructured parameter binds it by (`constructor ({ socket, request })`, `{ client: c }`
/// binds `c`), when the line shows it; none where the prefix names a plain parameter
/// (`function f (opts, { timeout })` and `opts.timeout`) or several are destructured.
pub fn bound_parameter<'a>(name: &'a str, signature: &'a str) -> Option<&'a str> {
    let Some((prefix, property)) = name.split_once('.') else {
        return Some(name);
    };
    if property.contains('.') {
        return None;
    }
    let parameters = split_top(enclosed(signature.split_once('(')?.1)?, ',');
    let plain = |p: &&str| p.split('=').next().is_some_and(|n| n.trim() == prefix);
    if parameters.iter().any(plain) {
        return None;
    }
    let mut patterns = parameters
        .iter()
        .filter(|p| p.trim_start().starts_with('{'));
    let (Some(pattern), None) = (patterns.next(), patterns.next()) else {
        return None;
    };
    let inside = enclosed_in(pattern.trim_start(), '{', '}')?;
    split_top(inside, ',').into_iter().find_map(|element| {
        let element = element.split('=').next()?;
        let (key, local) = element.split_once(':').unwrap_or((element, element));
        (key.trim() == property && !local.contains(['{', '['])).then(|| local.trim())
    })
}

/// What `text` holds up to the `)` closing the group it is inside (it starts just past the
/// `(`).
fn enclosed(text: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' if depth == 0 => return Some(&text[..i]),
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// What is inside the `open` bracket `text` starts with, up to its match.
fn enclosed_in(text: &str, open: char, close: char) -> Option<&str> {
    let rest = text.strip_prefix(open)?;
    super::types::group_end(rest, open, close).map(|end| &rest[..end])
}

/// `text` split at each `,` outside brackets.
fn split_top(text: &str, separator: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => depth -= 1,
            _ if c == separator && depth == 0 => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// `text` split at each `|` outside brackets.
fn split_union(text: &str) -> Vec<&str> {
    split_top(text, '|')
}

#[cfg(test)]
mod tests {
    use super::{Stated, bound_parameter, returned_type_name, tags, type_name};

    #[test]
    fn type_stating_tags_are_read_with_their_types_and_names() {
        let doc = "Writes the body.\n@param {AbortCallback} abort\n@param {import('./client.js')} client\n@param {Uint8Array|null} [body]\n@param {number} [timeout=0] how long\n@param {object} opts\n@param {string} opts.path ignored\n@param {{ a: { b: C } }} shape\n@returns {Promise<Response>}\n@see {Other}";
        assert_eq!(
            tags(doc),
            vec![
                (Stated::Parameter("abort"), "AbortCallback"),
                (Stated::Parameter("client"), "import('./client.js')"),
                (Stated::Parameter("body"), "Uint8Array|null"),
                (Stated::Parameter("timeout"), "number"),
                (Stated::Parameter("opts"), "object"),
                (Stated::Parameter("opts.path"), "string"),
                (Stated::Parameter("shape"), "{ a: { b: C } }"),
                (Stated::Returned, "Promise<Response>"),
            ]
        );
        assert_eq!(
            tags("@type {FastTimer[]}"),
            vec![(Stated::Declared, "FastTimer[]")]
        );
        // A tag without braces, an unclosed brace: nothing; many unclosed ones read in
        // linear time (each tag's scan is bounded).
        assert!(tags("@param name\n@type {Foo").is_empty());
        let hostile = "@type {".repeat(20_000);
        assert!(tags(&hostile).is_empty());
    }

    #[test]
    fn a_parameter_s_property_is_bound_by_its_destructuring() {
        let ctor = "constructor ({ abort, socket, request = null, client: c })";
        assert_eq!(bound_parameter("arg.request", ctor), Some("request"));
        assert_eq!(bound_parameter("arg.socket", ctor), Some("socket"));
        assert_eq!(bound_parameter("arg.client", ctor), Some("c"));
        assert_eq!(bound_parameter("arg.missing", ctor), None);
        assert_eq!(bound_parameter("opts.timeout", "function f (opts)"), None);
        assert_eq!(bound_parameter("opts", "function f (opts)"), Some("opts"));
        // Two destructured parameters: which one `src.stream` is, is not read; a plain
        // parameter's property is no destructured name.
        let pipe = "function pipe ({ stream }, { stream: out })";
        assert_eq!(bound_parameter("src.stream", pipe), None);
        let f = "function f (opts, { timeout })";
        assert_eq!(bound_parameter("opts.timeout", f), None);
        assert_eq!(bound_parameter("arg.timeout", f), Some("timeout"));
        // A default for the pattern, a one-line body, a default elsewhere: still bound.
        let f = "function f ({ client } = {}, opts = {}) { client.run() }";
        assert_eq!(bound_parameter("arg.client", f), Some("client"));
        // A nested pattern binds no name by the property.
        assert_eq!(bound_parameter("arg.a", "function f ({ a: { b } })"), None);
    }

    #[test]
    fn a_type_expression_names_one_type_or_none() {
        assert_eq!(type_name("Headers").as_deref(), Some("Headers"));
        assert_eq!(type_name("?Headers").as_deref(), Some("Headers"));
        assert_eq!(type_name("Headers=").as_deref(), Some("Headers"));
        assert_eq!(
            type_name("Uint8Array | null").as_deref(),
            Some("Uint8Array")
        );
        assert_eq!(type_name("(Client|undefined)").as_deref(), Some("Client"));
        assert_eq!(type_name("FastTimer[]").as_deref(), Some("FastTimer"));
        assert_eq!(type_name("Array<FastTimer>").as_deref(), Some("FastTimer"));
        assert_eq!(
            type_name("import('../core/request.js').Request").as_deref(),
            Some("Request")
        );
        assert_eq!(
            type_name("import('../core/request.js')").as_deref(),
            Some("~../core/request.js")
        );
        assert_eq!(type_name("Client|Pool"), None);
        assert_eq!(type_name("{ a: B }"), None);
        assert_eq!(type_name("(err: Error) => void"), None);
        assert_eq!(
            returned_type_name("Promise<Response>").as_deref(),
            Some("Response")
        );
        assert_eq!(
            returned_type_name("HeadersList").as_deref(),
            Some("HeadersList")
        );
    }
}
