//! A code parser for .NET's languages, C# and F#: each one's tree-sitter grammar (C, compiled
//! into this component) and a query in `queries/` that names its definitions, calls and
//! imports (see `sdk::syntax`). A file is parsed in the component's sandbox: a grammar's C code
//! that a hostile file drives astray stays inside it.

use sdk::code::{CodeParserSpec, LanguageSpec, Structure};
use sdk::syntax::{Cached, Extractor};
use sdk::{ToolError, ToolResult, codes};

pub struct CSharp;

impl CSharp {
    /// What the host's index routes here (declared in the component too).
    pub const SPEC: CodeParserSpec = CodeParserSpec {
        languages: &[
            LanguageSpec {
                name: "csharp",
                extensions: &["cs", "csx"],
                file_names: &[],
            },
            LanguageSpec {
                name: "fsharp",
                extensions: &["fs", "fsx"],
                file_names: &[],
            },
        ],
    };

    pub fn parse(bytes: &[u8], path: &str) -> ToolResult<Structure> {
        let language = Self::SPEC.language_of(path).ok_or_else(|| {
            ToolError::new(codes::UNSUPPORTED, format!("{path} is no C# or F# file"))
        })?;
        let (text, _) = sdk::decode_text(bytes);
        static CSHARP: Cached = Cached::new();
        static FSHARP: Cached = Cached::new();
        let extractor = if language.name == "fsharp" {
            FSHARP.get(|| {
                Extractor::new(
                    "fsharp",
                    tree_sitter_fsharp::LANGUAGE_FSHARP,
                    include_str!("queries/fsharp.scm"),
                )
                .map(|e| e.branches(&["rule", "if_expression"]))
            })
        } else {
            CSHARP.get(|| {
                Extractor::new(
                    "csharp",
                    tree_sitter_c_sharp::LANGUAGE,
                    include_str!("queries/csharp.scm"),
                )
                .map(|e| e.branches(&["switch_expression_arm", "conditional_access_expression"]))
            })
        }
        .map_err(|e| ToolError::new(codes::INTERNAL, e))?;
        Ok(extractor.extract(&text))
    }
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "code-parser" });
    sdk::export_code_parser!(crate::CSharp);
}

#[cfg(test)]
mod tests;
