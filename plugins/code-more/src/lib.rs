//! A code parser for Zig and R: each language's tree-sitter grammar (C, compiled into this
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
        ],
    };

    pub fn parse(bytes: &[u8], path: &str) -> ToolResult<Structure> {
        let language = Self::SPEC.language_of(path).ok_or_else(|| {
            ToolError::new(codes::UNSUPPORTED, format!("{path} is no Zig or R file"))
        })?;
        let (text, _) = sdk::decode_text(bytes);
        static ZIG: Cached = Cached::new();
        static R: Cached = Cached::new();
        let extractor = match language.name {
            "zig" => ZIG.get(|| {
                Extractor::new(
                    "zig",
                    tree_sitter_zig::LANGUAGE,
                    include_str!("queries/zig.scm"),
                )
                .map(|e| e.branches(&["switch_case", "if_expression", "while_statement"]))
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
