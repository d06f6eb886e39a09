//! The base classes a class declaration names, read from its first line: what `super().m()`
//! and an inherited `self.m()` resolve through.

use crate::index::code::Symbol;
use crate::index::code::types;
use crate::index::facts::FileFacts;

/// The base classes `signature` (a class declaration's first line) names, by their last name
/// (`pkg.Base` and `ns::Base` give `Base`), generics and keyword arguments left out. Python
/// `class A(B, C, metaclass=M):`, Java/JavaScript/TypeScript `class A extends B implements C`,
/// C++ `class A : public B, private C`, a Rust trait's supertraits (`trait A: B + C`).
pub(super) fn bases<'s>(language: Option<&str>, signature: &'s str) -> Vec<&'s str> {
    written(language, signature)
        .into_iter()
        .map(|b| b.rsplit(['.', ':']).next().unwrap_or(b))
        .filter(|b| !b.is_empty() && b.chars().all(|c| c.is_alphanumeric() || c == '_'))
        .collect()
}

/// The base classes `signature` names as written, with the module they are reached
/// through (`models.Model`), generics left out: where a module the file imports tells
/// which class of that name is meant.
pub(super) fn written<'s>(language: Option<&str>, signature: &'s str) -> Vec<&'s str> {
    let list: Vec<&str> = match language {
        Some("python") => python(signature),
        Some("cpp") => cpp(signature),
        Some("rust") => rust(signature),
        Some("java" | "javascript" | "typescript" | "tsx" | "vue" | "svelte" | "html") => {
            extends(signature)
        }
        _ => Vec::new(),
    };
    list.into_iter()
        .map(|b| b.split('<').next().unwrap_or(b).trim())
        .collect()
}

/// The bases the class-like definition `s` of the file `f` declares: those its declaration
/// names, the types a Go struct embeds (a field without a name promotes its type's fields
/// and methods, as a base class's are inherited), and the base a JavaScript constructor
/// function is given apart (`inherits(NyanCat, Base)`).
pub(super) fn declared<'f>(f: &'f FileFacts, s: &'f Symbol) -> Vec<&'f str> {
    let mut out = bases(f.language.as_deref(), &s.signature);
    if s.is_constructor_function() {
        out.extend(
            f.types
                .iter()
                .filter(|t| t.name.strip_prefix(types::INHERITS) == Some(s.name.as_str()))
                .map(|t| t.type_name.rsplit('.').next().unwrap_or(&t.type_name)),
        );
    }
    if f.language.as_deref() == Some("go") {
        out.extend(
            f.types
                .iter()
                .filter(|t| t.field && t.name.starts_with(types::EMBEDDED))
                .filter(|t| (s.start_line..=s.end_line).contains(&t.line))
                .map(|t| t.type_name.rsplit('.').next().unwrap_or(&t.type_name)),
        );
    }
    out
}

/// `class A(B, pkg.C, metaclass=M):` names B and pkg.C.
fn python(signature: &str) -> Vec<&str> {
    let Some((_, rest)) = signature.split_once('(') else {
        return Vec::new();
    };
    let inside = rest.rsplit_once(')').map_or(rest, |(i, _)| i);
    inside
        .split(',')
        .map(str::trim)
        .filter(|b| !b.contains('='))
        .collect()
}

/// `class A : public B, virtual protected ns::C {` names B and ns::C.
fn cpp(signature: &str) -> Vec<&str> {
    // The first single `:` (not part of a `::`) starts the base list.
    let bytes = signature.as_bytes();
    let colon = (0..bytes.len()).find(|&i| {
        bytes[i] == b':' && bytes.get(i + 1) != Some(&b':') && (i == 0 || bytes[i - 1] != b':')
    });
    let Some(colon) = colon else {
        return Vec::new();
    };
    let list = signature[colon + 1..].split('{').next().unwrap_or("");
    list.split(',')
        .filter_map(|b| {
            b.split_whitespace()
                .rfind(|w| !matches!(*w, "public" | "protected" | "private" | "virtual"))
        })
        .collect()
}

/// `pub trait A<T>: B + C<T> + fmt::Debug + 'static + ?Sized where .. {` names B and C: a
/// supertrait's methods are callable on any value the trait bounds (`g.to_index()` for a
/// `G: NodeCompactIndexable`). A path through another crate's module (`fmt::Debug`), a
/// lifetime and `?Sized` name no trait of the project.
fn rust(signature: &str) -> Vec<&str> {
    let Some(at) = signature
        .match_indices("trait ")
        .map(|(i, _)| i)
        .find(|&i| i == 0 || signature[..i].ends_with(char::is_whitespace))
    else {
        return Vec::new();
    };
    let after = &signature[at + "trait ".len()..];
    let name_end = after
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(after.len());
    let mut rest = after[name_end..].trim_start();
    if let Some(inside) = rest.strip_prefix('<') {
        let Some(end) = types::group_end(inside, '<', '>') else {
            return Vec::new();
        };
        rest = inside[end + 1..].trim_start();
    }
    let Some(list) = rest.strip_prefix(':') else {
        return Vec::new();
    };
    let list = list.split(['{', ';']).next().unwrap_or("");
    let list = list.split(" where").next().unwrap_or(list);
    types::split_top(list, '+')
        .into_iter()
        .map(str::trim)
        .filter(|b| !b.is_empty() && !b.starts_with(['\'', '?', '(']))
        .filter(|b| match b.split_once("::") {
            Some((head, _)) => matches!(head, "crate" | "self" | "super"),
            None => true,
        })
        .collect()
}

/// `class A<T> extends B<T> implements C, D {` names B, C and D.
fn extends(signature: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut words = signature
        .split(|c: char| c.is_whitespace() || c == ',' || c == '{')
        .filter(|w| !w.is_empty());
    let mut listing = false;
    for w in words.by_ref() {
        match w {
            "extends" | "implements" => listing = true,
            _ if listing => out.push(w),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::bases;

    #[test]
    fn bases_are_read_from_each_language_s_declaration() {
        assert_eq!(
            bases(Some("python"), "class A(base.B, C, metaclass=abc.ABCMeta):"),
            ["B", "C"]
        );
        assert!(bases(Some("python"), "class A:").is_empty());
        assert_eq!(
            bases(
                Some("java"),
                "public final class A<T> extends B<T> implements C, D {"
            ),
            ["B", "C", "D"]
        );
        assert_eq!(
            bases(Some("typescript"), "export class A extends lib.B {"),
            ["B"]
        );
        assert_eq!(
            bases(Some("cpp"), "class A : public ns::B, virtual private C {"),
            ["B", "C"]
        );
        assert!(bases(Some("cpp"), "class ns::A {").is_empty());
        assert!(bases(Some("rust"), "impl Foo for Bar {").is_empty());
        assert_eq!(
            bases(
                Some("rust"),
                "pub unsafe trait Compact<T: Ord>: Indexable<T> + crate::visit::Count + fmt::Debug + 'static + ?Sized {"
            ),
            ["Indexable", "Count"]
        );
        assert_eq!(
            bases(
                Some("rust"),
                "pub trait IntoNeighbors : GraphRef where Self: Sized {"
            ),
            ["GraphRef"]
        );
        assert!(bases(Some("rust"), "pub trait Plain {").is_empty());
        assert!(bases(Some("rust"), "struct trait_map {").is_empty());
    }
}
