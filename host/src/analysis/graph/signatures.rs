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
