//! The languages tree-sitter extracts, each with its grammar and its extraction query.

use tree_sitter::{Language as Grammar, Query};

/// A language with a grammar and an extraction query in `queries/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Language {
    Rust,
    Python,
    TypeScript,
    Tsx,
    JavaScript,
    Go,
    Java,
    C,
    Cpp,
    /// A Vue single-file component: its `<script>` blocks, read as TypeScript.
    Vue,
    /// A Svelte component: its `<script>` blocks, read as TypeScript.
    Svelte,
    /// An HTML page: its inline `<script>` blocks, read as JavaScript. A page with none is
    /// indexed as text (see `embedded::has_script`).
    Html,
}

impl Language {
    pub const ALL: [Language; 12] = [
        Language::Rust,
        Language::Python,
        Language::TypeScript,
        Language::Tsx,
        Language::JavaScript,
        Language::Go,
        Language::Java,
        Language::C,
        Language::Cpp,
        Language::Vue,
        Language::Svelte,
        Language::Html,
    ];

    /// By file extension (lower case, without the dot).
    pub fn from_extension(ext: &str) -> Option<Self> {
        Some(match ext {
            "rs" => Self::Rust,
            "py" | "pyi" => Self::Python,
            "ts" | "mts" | "cts" => Self::TypeScript,
            "tsx" => Self::Tsx,
            "js" | "jsx" | "mjs" | "cjs" => Self::JavaScript,
            "go" => Self::Go,
            "java" => Self::Java,
            "c" | "h" => Self::C,
            "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" | "ipp" => Self::Cpp,
            "vue" => Self::Vue,
            "svelte" => Self::Svelte,
            "html" | "htm" => Self::Html,
            _ => return None,
        })
    }

    /// The languages whose code reaches each other's definitions by name with no declared
    /// binding in between, under one name: JavaScript and TypeScript share a module system,
    /// C and C++ a linker. Any other pair meets only through a binding (an FFI declaration, a
    /// native extension) the call graph does not see, so a call never resolves across it.
    pub fn family(name: &str) -> &str {
        match name {
            "typescript" | "tsx" | "javascript" | "vue" | "svelte" | "html" => "javascript",
            "c" | "cpp" => "c",
            other => other,
        }
    }

    /// The name reported in results and accepted by language filters.
    pub fn name(self) -> &'static str {
        match self {
            Self::Rust => "rust",
            Self::Python => "python",
            Self::TypeScript => "typescript",
            Self::Tsx => "tsx",
            Self::JavaScript => "javascript",
            Self::Go => "go",
            Self::Java => "java",
            Self::C => "c",
            Self::Cpp => "cpp",
            Self::Vue => "vue",
            Self::Svelte => "svelte",
            Self::Html => "html",
        }
    }

    /// A file of markup whose code sits in `<script>` blocks (see `embedded`).
    pub fn is_component_file(self) -> bool {
        matches!(self, Self::Vue | Self::Svelte | Self::Html)
    }

    /// The language whose grammar and query read this one's code: a component's scripts
    /// are TypeScript (`lang="ts"` or plain JavaScript, which TypeScript's grammar reads),
    /// a page's are JavaScript.
    fn parsed_as(self) -> Self {
        match self {
            Self::Vue | Self::Svelte => Self::TypeScript,
            Self::Html => Self::JavaScript,
            other => other,
        }
    }

    pub fn grammar(self) -> Grammar {
        match self {
            Self::Rust => tree_sitter_rust::LANGUAGE.into(),
            Self::Python => tree_sitter_python::LANGUAGE.into(),
            Self::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Self::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Self::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Self::Go => tree_sitter_go::LANGUAGE.into(),
            Self::Java => tree_sitter_java::LANGUAGE.into(),
            Self::C => tree_sitter_c::LANGUAGE.into(),
            Self::Cpp => tree_sitter_cpp::LANGUAGE.into(),
            Self::Vue | Self::Svelte | Self::Html => self.parsed_as().grammar(),
        }
    }

    /// The extraction query: `@definition.<kind>` with `@name` (and optionally `@container`),
    /// `@call` on callee names and `@import` on import targets.
    pub(crate) fn query_source(self) -> String {
        const JS: &str = include_str!("queries/javascript.scm");
        const TS: &str = include_str!("queries/typescript.scm");
        const C: &str = include_str!("queries/c.scm");
        match self {
            Self::Rust => include_str!("queries/rust.scm").into(),
            Self::Python => include_str!("queries/python.scm").into(),
            // TypeScript's grammar extends JavaScript's, so its query does too.
            Self::TypeScript | Self::Tsx => format!("{JS}\n{TS}"),
            Self::JavaScript => format!("{JS}\n{}", include_str!("queries/jsdoc.scm")),
            Self::Go => include_str!("queries/go.scm").into(),
            Self::Java => include_str!("queries/java.scm").into(),
            Self::C => C.into(),
            Self::Cpp => format!("{C}\n{}", include_str!("queries/cpp.scm")),
            Self::Vue | Self::Svelte | Self::Html => self.parsed_as().query_source(),
        }
    }

    /// The compiled query, built once per language and process.
    pub fn query(self) -> &'static Query {
        // Each language's query is compiled on its first use, alone: compiling every one
        // (seconds in a debug build) would hold up the first answer that reads one file.
        static QUERIES: [std::sync::OnceLock<Query>; Language::ALL.len()] =
            [const { std::sync::OnceLock::new() }; Language::ALL.len()];
        let lang = self.parsed_as();
        let slot = Self::ALL.iter().position(|l| *l == lang).expect("listed");
        QUERIES[slot].get_or_init(|| {
            Query::new(&lang.grammar(), &lang.query_source()).unwrap_or_else(|err| {
                panic!("the built-in {} query is invalid: {err}", lang.name())
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_query_compiles_against_its_grammar() {
        for lang in Language::ALL {
            let query = lang.query();
            assert!(query.pattern_count() > 3, "{}", lang.name());
        }
    }
}
