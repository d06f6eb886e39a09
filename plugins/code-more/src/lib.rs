//! A code parser for Zig, R, Dart, Solidity, SQL and CSS: each language's tree-sitter grammar (C, compiled into this
//! component) and a query in `queries/` that names its definitions, calls and imports (see
//! `sdk::syntax`). A file is parsed in the component's sandbox: a grammar's C code that a
//! hostile file drives astray stays inside it.

use sdk::code::{CodeParserSpec, LanguageSpec, Structure};
use sdk::syntax::{Cached, Extractor};
use sdk::{ToolError, ToolResult, codes};

pub struct More;

impl More {
    /// What the host's index routes here (declared in the component too).
    pub const SPEC: CodeParserSpec = CodeParserSpec {
        languages: &[
            LanguageSpec {
                name: "zig",
                extensions: &["zig", "zon"],
                file_names: &[],
            },
            LanguageSpec {
                name: "r",
                extensions: &["r"],
                file_names: &[".Rprofile"],
            },
            LanguageSpec {
                name: "dart",
                extensions: &["dart"],
                file_names: &[],
            },
            LanguageSpec {
                name: "solidity",
                extensions: &["sol"],
                file_names: &[],
            },
            LanguageSpec {
                name: "sql",
                extensions: &["sql", "ddl", "pgsql", "psql"],
                file_names: &[],
            },
            LanguageSpec {
                name: "css",
                extensions: &["css"],
                file_names: &[],
            },
        ],
    };

    pub fn parse(bytes: &[u8], path: &str) -> ToolResult<Structure> {
        let language = Self::SPEC.language_of(path).ok_or_else(|| {
            ToolError::new(
                codes::UNSUPPORTED,
                format!("{path} is no Zig, R, Dart, Solidity, SQL or CSS file"),
            )
        })?;
        let (text, _) = sdk::decode_text(bytes);
        static ZIG: Cached = Cached::new();
        static R: Cached = Cached::new();
        static DART: Cached = Cached::new();
        static SOLIDITY: Cached = Cached::new();
        static SQL: Cached = Cached::new();
        static CSS: Cached = Cached::new();
        let extractor = match language.name {
            "zig" => ZIG.get(|| {
                Extractor::new(
                    "zig",
                    tree_sitter_zig::LANGUAGE,
                    include_str!("queries/zig.scm"),
                )
                .map(|e| e.branches(&["switch_case", "if_expression", "while_statement"]))
            }),
            "dart" => DART.get(|| {
                Extractor::new(
                    "dart",
                    tree_sitter_dart::LANGUAGE,
                    include_str!("queries/dart.scm"),
                )
                .map(|e| e.branches(&["switch_statement_case", "switch_expression_case"]))
            }),
            "solidity" => SOLIDITY.get(|| {
                Extractor::new(
                    "solidity",
                    tree_sitter_solidity::LANGUAGE,
                    include_str!("queries/solidity.scm"),
                )
            }),
            "sql" => SQL.get(|| {
                Extractor::new(
                    "sql",
                    tree_sitter_sequel::LANGUAGE,
                    include_str!("queries/sql.scm"),
                )
            }),
            "css" => CSS.get(|| {
                Extractor::new(
                    "css",
                    tree_sitter_css::LANGUAGE,
                    include_str!("queries/css.scm"),
                )
            }),
            _ => R.get(|| {
                Extractor::new("r", tree_sitter_r::LANGUAGE, include_str!("queries/r.scm"))
                    .map(|e| e.comment_prefixes(&["#'", "#"]))
            }),
        }
        .map_err(|e| ToolError::new(codes::INTERNAL, e))?;
        Ok(extractor.extract(&text))
    }
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "code-parser" });
    sdk::export_code_parser!(crate::More);
}

#[cfg(test)]
mod tests;
