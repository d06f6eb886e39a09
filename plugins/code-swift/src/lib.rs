//! A code parser for Apple's languages, Swift and Objective-C: each one's tree-sitter grammar
//! (C, compiled into this component) and a query in `queries/` that names its definitions,
//! calls and imports (see `sdk::syntax`). A file is parsed in the component's sandbox: a
//! grammar's C code that a hostile file drives astray stays inside it.

use sdk::code::{CodeParserSpec, LanguageSpec, Structure};
use sdk::syntax::{Cached, Extractor};
use sdk::{ToolError, ToolResult, codes};

pub struct Swift;

impl Swift {
    /// What the host's index routes here (declared in the component too).
    pub const SPEC: CodeParserSpec = CodeParserSpec {
        languages: &[
            LanguageSpec {
                name: "swift",
                extensions: &["swift"],
                file_names: &[],
            },
            // `.h` stays C's (the index's own grammar): headers are mostly C.
            LanguageSpec {
                name: "objc",
                extensions: &["m", "mm"],
                file_names: &[],
            },
        ],
    };

    pub fn parse(bytes: &[u8], path: &str) -> ToolResult<Structure> {
        let language = Self::SPEC.language_of(path).ok_or_else(|| {
            ToolError::new(
                codes::UNSUPPORTED,
                format!("{path} is no Swift or Objective-C file"),
            )
        })?;
        let (text, _) = sdk::decode_text(bytes);
        static SWIFT: Cached = Cached::new();
        static OBJC: Cached = Cached::new();
        let extractor = if language.name == "objc" {
            OBJC.get(|| {
                Extractor::new(
                    "objc",
                    tree_sitter_objc::LANGUAGE,
                    include_str!("queries/objc.scm"),
                )
                .map(|e| e.branches(&["case_statement"]))
            })
        } else {
            SWIFT.get(|| {
                Extractor::new(
                    "swift",
                    tree_sitter_swift::LANGUAGE,
                    include_str!("queries/swift.scm"),
                )
                .map(|e| {
                    e.branches(&[
                        "guard_statement",
                        "switch_entry",
                        "nil_coalescing_expression",
                    ])
                })
            })
        }
        .map_err(|e| ToolError::new(codes::INTERNAL, e))?;
        Ok(extractor.extract(&text))
    }
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "code-parser" });
    sdk::export_code_parser!(crate::Swift);
}

#[cfg(test)]
mod tests;
