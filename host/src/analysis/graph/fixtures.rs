//! pytest fixtures as types: a test's parameter named like a fixture it can see is the value
//! that fixture makes (pytest passes it in), so calls on it reach that value's type. A fixture
//! is a function decorated `@pytest.fixture` (or `@fixture`); what it makes is its declared
//! return type, else the type its body gives a local of its own name (`app = Flask(...)` then
//! `return app` or `yield app`). A test sees the fixtures of its own module and of every
//! `conftest.py` in its directory and above, the nearest first, as pytest looks them up.

use super::*;
use crate::index::code::types;

/// How many lines above a definition its decorators may start.
const DECORATOR_LINES: u32 = 4;

/// A fixture one file declares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Fixture {
    /// A conftest's directory (with its trailing slash, empty at the root), or the path of
    /// the module that declares it.
    visible: String,
    conftest: bool,
    type_name: String,
}

/// The fixtures `f` declares, as (name, type made), in source order (a later definition of a
/// name is the one pytest uses): what a change of `f` is compared by.
pub(super) fn declared(f: &FileFacts) -> Vec<(&str, String)> {
    if f.language.as_deref() != Some("python") {
        return Vec::new();
    }
    // The decorator lines first: most files have none, and then no definition is looked at.
    let decorators: Vec<u32> = f
        .calls
        .iter()
        .filter(|(name, receiver, _)| {
            name == "fixture" && (receiver.is_empty() || receiver == "pytest")
        })
        .map(|(_, _, line)| *line)
        .collect();
    if decorators.is_empty() {
        return Vec::new();
    }
    let decorated = |s: &Symbol| {
        decorators
            .iter()
            .any(|&line| line < s.start_line && s.start_line - line <= DECORATOR_LINES)
    };
    f.symbols
        .iter()
        .filter(|s| s.kind == "function" && decorated(s))
        .filter_map(|s| Some((s.name.as_str(), made_by(f, s)?)))
        .collect()
}

fn made_by(f: &FileFacts, s: &Symbol) -> Option<String> {
    types::return_type(Some("python"), &s.signature).or_else(|| {
        f.types
            .iter()
            .find(|t| {
                !t.field && t.name == s.name && s.start_line <= t.line && t.line <= s.end_line
            })
            .map(|t| t.type_name.clone())
    })
}

/// Every file's fixtures, by name.
pub(super) fn table(facts: &[Arc<FileFacts>]) -> HashMap<String, Vec<Fixture>> {
    let mut out: HashMap<String, Vec<Fixture>> = HashMap::new();
    for f in facts {
        let conftest = f.path == "conftest.py" || f.path.ends_with("/conftest.py");
        let visible = if conftest {
            f.path.trim_end_matches("conftest.py").to_string()
        } else {
            f.path.clone()
        };
        for (name, type_name) in declared(f) {
            out.entry(name.to_string()).or_default().push(Fixture {
                visible: visible.clone(),
                conftest,
                type_name,
            });
        }
    }
    out
}

/// The parameter names of a Python definition's first line (`def test(app, client):`).
pub(super) fn parameters(signature: &str) -> impl Iterator<Item = &str> {
    let inside = signature.split_once('(').map_or("", |(_, rest)| rest);
    let inside = inside.rsplit_once(')').map_or(inside, |(params, _)| params);
    inside.split(',').filter_map(|p| {
        let name = p.split([':', '=']).next()?.trim().trim_start_matches('*');
        (!name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_')).then_some(name)
    })
}

impl Graph {
    /// The type the fixture `name` makes for a test in `path`: its own module's fixture, else
    /// the nearest conftest's.
    pub(super) fn fixture_type(&self, path: &str, name: &str) -> Option<&str> {
        self.fixtures
            .get(name)?
            .iter()
            .filter(|x| match x.conftest {
                true => path.starts_with(&x.visible),
                false => x.visible == path,
            })
            .max_by_key(|x| (!x.conftest, x.visible.len()))
            .map(|x| x.type_name.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::parameters;

    #[test]
    fn parameters_are_read_from_the_first_line() {
        let names: Vec<&str> =
            parameters("def test_x(app, client: Client, *args, n=3, **kw):").collect();
        assert_eq!(names, ["app", "client", "args", "n", "kw"]);
        let names: Vec<&str> = parameters("def test_long(").collect();
        assert!(names.is_empty());
        let names: Vec<&str> = parameters("def test_cut(app,").collect();
        assert_eq!(names, ["app"]);
    }
}
