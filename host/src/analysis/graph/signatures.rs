//! A declaration's parameters read from its signature as written: enough of TypeScript's
//! syntax to find what a function-typed parameter passes to the function given for it, so a
//! callback's untyped parameters take the types the callee declares (contextual typing).

/// The type the declaration `signature` gives the `index`th parameter of the function it
/// takes as its `argument`th parameter: `Subscriber<R>` for (0, 1) of `function
/// operate<T, R>(init: (source: Observable<T>, subscriber: Subscriber<R>) => void)`. A
/// function type may be one member of a union (`Partial<Observer<T>> | ((value: T) =>
/// void)`). `this` parameters are not counted, as TypeScript does not count them.
pub(super) fn callback_parameter(signature: &str, argument: usize, index: usize) -> Option<&str> {
    let declared = positional(parameter_list(signature)?).nth(argument)?;
    let function = split_top(type_of(declared)?, '|')
        .into_iter()
        .find_map(function_parameters)?;
    type_of(positional(function).nth(index)?)
}

/// Whether a function declared as `signature` (in `language`) takes a parameter named
/// `name`: a bare call of it calls the argument, never a definition of that name the file
/// defines or imports (`function sendOptionsResponse(res, options, next) { next(err) }`).
/// Languages writing the name first (Python, JavaScript, TypeScript, Rust, Go: a method's
/// receiver too) and last (C, C++); false for others (Java keeps methods and variables in
/// apart namespaces: `url(..)` in `url(String url)` is the method).
pub(super) fn declares_parameter(language: Option<&str>, signature: &str, name: &str) -> bool {
    let name_first = match language {
        Some("python" | "javascript" | "typescript" | "tsx" | "rust" | "go") => true,
        Some("c" | "cpp") => false,
        _ => return false,
    };
    if !signature.contains(name) {
        return false;
    }
    let is_name = |c: char| c.is_alphanumeric() || matches!(c, '_' | '$');
    // `const load = id => fetch(parse(id))`: one parameter without parentheses, before the
    // arrow (the first `(` is a call in the body).
    let head = signature.split('(').next().unwrap_or(signature);
    if let Some((before, _)) = head.split_once("=>") {
        let parameter = before.trim_end().rsplit(|c: char| !is_name(c)).next();
        return parameter == Some(name);
    }
    let Some(list) = parameter_list(signature) else {
        return false;
    };
    // Go's `func (r *Router) Match(req *Request)`: the receiver's group, then the parameters'.
    let mut lists = vec![list];
    if language == Some("go")
        && signature.trim_start().starts_with("func (")
        && let Some(at) = signature.find(list)
        && let Some(next) = parameter_list(&signature[at + list.len() + 1..])
    {
        lists.push(next);
    }
    lists.into_iter().any(|list| {
        let parts = split_top(list, ',');
        // Go's unnamed parameters (`func f(Config)`, `func (HandlerFunc) M()`): every part
        // one word, a type; named ones end in a part with a name and a type (`a, b int`).
        let unnamed = language == Some("go")
            && parts
                .last()
                .is_some_and(|p| p.split_whitespace().count() < 2);
        !unnamed
            && parts.iter().any(|p| {
                let p = p.split('=').next().unwrap_or(p).trim();
                let p = p.trim_start_matches(['.', '*', '&']).trim_start();
                if name_first {
                    let p = ["mut ", "public ", "private ", "protected ", "readonly "]
                        .iter()
                        .fold(p, |p, m| p.strip_prefix(m).unwrap_or(p).trim_start());
                    let word = p.split(|c: char| !is_name(c)).next();
                    // A pattern (Rust's `Meters(rhs): Meters`, `Json { body }: Json`) names
                    // a type's constructor, not a parameter.
                    let after = word.map_or("", |w| p[w.len()..].trim_start());
                    word == Some(name) && !after.starts_with(['(', '{'])
                } else {
                    // C's and C++'s type then name: a lone word is a type (`void on(Event)`).
                    let p = p.trim_end_matches(['[', ']', ' ']);
                    let words = p.split(|c: char| !is_name(c)).filter(|w| !w.is_empty());
                    words.clone().count() >= 2 && words.clone().next_back() == Some(name)
                }
            })
    })
}

/// The text inside a declaration's parameter list: the first `(` outside its type
/// parameters (`f<T extends X>(..)`) to its matching `)`.
fn parameter_list(signature: &str) -> Option<&str> {
    let mut angle = 0usize;
    let mut last = ' ';
    for (i, c) in signature.char_indices() {
        match c {
            '<' => angle += 1,
            '>' if last != '=' => angle = angle.saturating_sub(1),
            '(' if angle == 0 => return enclosed(&signature[i..]),
            _ => {}
        }
        last = c;
    }
    None
}

/// The parameters of a function type (`(a: A, b: B) => R`, or the same in parentheses).
fn function_parameters(written: &str) -> Option<&str> {
    let mut written = written.trim();
    loop {
        let inside = enclosed(written)?;
        let after = written[inside.len() + 2..].trim_start();
        if after.starts_with("=>") {
            return Some(inside);
        }
        // `((value: T) => void)`: the function type wrapped whole.
        if !after.is_empty() {
            return None;
        }
        written = inside.trim();
    }
}

/// What is inside the bracket `text` opens with, up to its match; None when it does not
/// open with `(` or never closes.
fn enclosed(text: &str) -> Option<&str> {
    if !text.starts_with('(') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
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

/// A parameter list's parameters, `this` left out.
fn positional(list: &str) -> impl Iterator<Item = &str> {
    split_top(list, ',').into_iter().filter(|p| {
        let name = p.split([':', '?', '=']).next().unwrap_or("").trim();
        !name.is_empty() && name != "this"
    })
}

/// A parameter's declared type: after its name's `:`, up to a default (`delay: number = 0`).
fn type_of(parameter: &str) -> Option<&str> {
    let (_, written) = parameter.split_once(':')?;
    let written = split_top(written, '=').into_iter().next()?.trim();
    (!written.is_empty()).then_some(written)
}

/// `text` split at each `separator` outside brackets; `=>`'s `>` closes nothing.
fn split_top(text: &str, separator: char) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut depth, mut start, mut last) = (0i32, 0, ' ');
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    for (k, &(i, c)) in chars.iter().enumerate() {
        let arrow = c == '=' && chars.get(k + 1).is_some_and(|&(_, n)| n == '>');
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            '>' if last == '=' => {}
            ')' | ']' | '}' | '>' => depth -= 1,
            _ if c == separator && depth == 0 && !arrow => {
                out.push(&text[start..i]);
                start = i + c.len_utf8();
            }
            _ => {}
        }
        last = c;
    }
    out.push(&text[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::callback_parameter;

    #[test]
    fn a_declaration_s_parameter_names_are_read_in_each_language_s_order() {
        use super::declares_parameter;
        let js = Some("javascript");
        assert!(declares_parameter(
            js,
            "function send(res, options, next)",
            "next"
        ));
        assert!(declares_parameter(
            js,
            "const f = (a, cb = noop) => {",
            "cb"
        ));
        assert!(declares_parameter(js, "function f(...rest)", "rest"));
        assert!(!declares_parameter(js, "function f(res, options)", "next"));
        let ts = Some("typescript");
        assert!(declares_parameter(
            ts,
            "constructor(private readonly done: () => void)",
            "done"
        ));
        assert!(declares_parameter(
            ts,
            "f<T extends (a: A) => B>(cb?: Cb)",
            "cb"
        ));
        assert!(!declares_parameter(
            ts,
            "f<T extends (a: A) => B>(cb?: Cb)",
            "a"
        ));
        let py = Some("python");
        assert!(declares_parameter(
            py,
            "def wrap(self, func, *args, **kwargs):",
            "func"
        ));
        assert!(declares_parameter(
            py,
            "def f(x, callback=None):",
            "callback"
        ));
        assert!(declares_parameter(
            Some("rust"),
            "fn f(mut emit: impl FnMut(u8), n: u8)",
            "emit"
        ));
        let go = Some("go");
        assert!(declares_parameter(
            go,
            "func (m *Matcher) Match(fn MatchFunc) bool",
            "fn"
        ));
        assert!(declares_parameter(
            go,
            "func (m *Matcher) Match(fn MatchFunc) bool",
            "m"
        ));
        let c = Some("cpp");
        assert!(declares_parameter(
            c,
            "void run(const Task& task, int xs[])",
            "task"
        ));
        assert!(declares_parameter(
            c,
            "void run(const Task& task, int xs[])",
            "xs"
        ));
        assert!(!declares_parameter(
            c,
            "void run(Runnable task)",
            "Runnable"
        ));
        // An unnamed parameter is a type; Java calls a method, never a parameter, by name.
        assert!(!declares_parameter(c, "void on(Event)", "Event"));
        assert!(!declares_parameter(go, "func f(Config) error", "Config"));
        assert!(declares_parameter(go, "func f(a, b int) error", "a"));
        assert!(!declares_parameter(
            Some("java"),
            "Builder url(String url)",
            "url"
        ));
        assert!(!declares_parameter(Some("ruby"), "def f(next)", "next"));
        // A one-line arrow function's parameter without parentheses; its body's calls are
        // no parameters.
        let arrow = "const load = id => fetchUser(parseId(id))";
        assert!(declares_parameter(js, arrow, "id"));
        assert!(!declares_parameter(js, arrow, "parseId"));
        assert!(!declares_parameter(js, arrow, "fetchUser"));
        // A Rust pattern names its type's constructor.
        let rust = Some("rust");
        let add = "fn add(self, Meters(rhs): Meters) -> Meters";
        assert!(!declares_parameter(rust, add, "Meters"));
        assert!(!declares_parameter(
            rust,
            "fn h(Json { body }: Json<T>)",
            "Json"
        ));
    }

    #[test]
    fn a_function_typed_parameter_s_parameters_are_read_from_the_signature() {
        let operate = "export function operate<T, R>(init: (liftedSource: Observable<T>, subscriber: Subscriber<R>) => (() => void) | void): OperatorFunction<T, R>";
        assert_eq!(callback_parameter(operate, 0, 0), Some("Observable<T>"));
        assert_eq!(callback_parameter(operate, 0, 1), Some("Subscriber<R>"));
        assert_eq!(callback_parameter(operate, 0, 2), None);
        assert_eq!(callback_parameter(operate, 1, 0), None);
        // A `this` parameter is no position; an optional parameter, a default.
        let ctor = "constructor(subscribe?: (this: Observable<T>, subscriber: Subscriber<T>) => TeardownLogic)";
        assert_eq!(callback_parameter(ctor, 0, 0), Some("Subscriber<T>"));
        let later = "schedule(delay: number = 0, work: (action: Action<T>) => void)";
        assert_eq!(callback_parameter(later, 1, 0), Some("Action<T>"));
        // One member of a union, wrapped in parentheses.
        let subscribe =
            "subscribe(observerOrNext?: Partial<Observer<T>> | ((value: T) => void)): Subscription";
        assert_eq!(callback_parameter(subscribe, 0, 0), Some("T"));
        // Not a function type; an untyped parameter.
        assert_eq!(callback_parameter("f(x: Foo)", 0, 0), None);
        assert_eq!(callback_parameter("f(cb: (x) => void)", 0, 0), None);
        assert_eq!(
            callback_parameter("f<T extends (a: A) => B>(cb: (x: X) => void)", 0, 0),
            Some("X")
        );
    }
}
