//! A code parser for Kotlin, Scala and Groovy: each language's tree-sitter grammar (C,
//! compiled into this component) and a query in `queries/` that names its definitions, calls and imports
//! (see `sdk::syntax`). A file is parsed in the component's sandbox: a grammar's C code that a
//! hostile file drives astray stays inside it.

use sdk::code::{CodeParserSpec, LanguageSpec, Structure};
use sdk::syntax::{Cached, Extractor};
use sdk::{ToolError, ToolResult, codes};

pub struct Jvm;

impl Jvm {
    /// What the host's index routes here (declared in the component too).
    pub const SPEC: CodeParserSpec = CodeParserSpec {
        languages: &[
            LanguageSpec {
                name: "kotlin",
                extensions: &["kt", "kts"],
                file_names: &[],
            },
            LanguageSpec {
                name: "scala",
                extensions: &["scala", "sc", "sbt"],
                file_names: &[],
            },
            LanguageSpec {
                name: "groovy",
                extensions: &["groovy", "gradle", "gvy", "gy", "gsh"],
                file_names: &["Jenkinsfile"],
            },
        ],
    };

    pub fn parse(bytes: &[u8], path: &str) -> ToolResult<Structure> {
        let language = Self::SPEC.language_of(path).ok_or_else(|| {
            ToolError::new(
                codes::UNSUPPORTED,
                format!("{path} is no Kotlin, Scala or Groovy file"),
            )
        })?;
        let (text, _) = sdk::decode_text(bytes);
        static KOTLIN: Cached = Cached::new();
        static SCALA: Cached = Cached::new();
        static GROOVY: Cached = Cached::new();
        let extractor = match language.name {
            "kotlin" => KOTLIN.get(|| {
                Extractor::new(
                    "kotlin",
                    tree_sitter_kotlin_ng::LANGUAGE,
                    include_str!("queries/kotlin.scm"),
                )
                .map(|e| e.branches(&["when_entry", "elvis_expression"]))
            }),
            "groovy" => GROOVY.get(|| {
                Extractor::new(
                    "groovy",
                    tree_sitter_groovy::LANGUAGE,
                    include_str!("queries/groovy.scm"),
                )
            }),
            _ => SCALA.get(|| {
                Extractor::new(
                    "scala",
                    tree_sitter_scala::LANGUAGE,
                    include_str!("queries/scala.scm"),
                )
                .map(|e| e.branches(&["case_clause"]))
            }),
        }
        .map_err(|e| ToolError::new(codes::INTERNAL, e))?;
        Ok(extractor.extract(&text))
    }
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "code-parser" });
    sdk::export_code_parser!(crate::Jvm);
}

#[cfg(test)]
mod tests;
