//! A code parser for Elixir, Erlang, Haskell, OCaml, Clojure and Elm: each language's tree-sitter grammar (C,
//! compiled into this component) and a query in `queries/` that names its definitions, calls
//! and imports (see `sdk::syntax`). A file is parsed in the component's sandbox: a grammar's C
//! code that a hostile file drives astray stays inside it.

use sdk::code::{CodeParserSpec, LanguageSpec, Structure};
use sdk::syntax::{Cached, Extractor};
use sdk::{ToolError, ToolResult, codes};

pub struct Functional;

impl Functional {
    /// What the host's index routes here (declared in the component too).
    pub const SPEC: CodeParserSpec = CodeParserSpec {
        languages: &[
            LanguageSpec {
                name: "elixir",
                extensions: &["ex", "exs"],
                file_names: &[],
            },
            LanguageSpec {
                name: "erlang",
                extensions: &["erl", "hrl"],
                file_names: &["rebar.config"],
            },
            LanguageSpec {
                name: "haskell",
                extensions: &["hs"],
                file_names: &[],
            },
            LanguageSpec {
                name: "ocaml",
                extensions: &["ml", "mli"],
                file_names: &[],
            },
            LanguageSpec {
                name: "clojure",
                extensions: &["clj", "cljs", "cljc", "bb"],
                file_names: &[],
            },
            LanguageSpec {
                name: "elm",
                extensions: &["elm"],
                file_names: &[],
            },
        ],
    };

    pub fn parse(bytes: &[u8], path: &str) -> ToolResult<Structure> {
        let language = Self::SPEC.language_of(path).ok_or_else(|| {
            ToolError::new(
                codes::UNSUPPORTED,
                format!("{path} is no Elixir, Erlang, Haskell, OCaml, Clojure or Elm file"),
            )
        })?;
        let (text, _) = sdk::decode_text(bytes);
        // An interface (.mli) has its own grammar: signatures, no expressions.
        let interface = path.to_ascii_lowercase().ends_with(".mli");
        let extractor =
            extractor(language.name, interface).map_err(|e| ToolError::new(codes::INTERNAL, e))?;
        Ok(extractor.extract(&text))
    }
}

/// The extractor of `language`, its query compiled on first use in this instance (the host
/// keeps an instance for many files).
fn extractor(language: &'static str, interface: bool) -> Result<&'static Extractor, String> {
    const OCAML_COMMON: &str = include_str!("queries/ocaml_common.scm");
    static OCAML: Cached = Cached::new();
    static OCAML_INTERFACE: Cached = Cached::new();
    static CLOJURE: Cached = Cached::new();
    static ELM: Cached = Cached::new();
    static ELIXIR: Cached = Cached::new();
    static ERLANG: Cached = Cached::new();
    static HASKELL: Cached = Cached::new();
    match language {
        "elixir" => ELIXIR.get(|| {
            Extractor::new(
                language,
                tree_sitter_elixir::LANGUAGE,
                include_str!("queries/elixir.scm"),
            )
            .map(|e| e.branches(&["stab_clause"]).qualified_by("."))
        }),
        "erlang" => ERLANG.get(|| {
            Extractor::new(
                language,
                tree_sitter_erlang::LANGUAGE,
                include_str!("queries/erlang.scm"),
            )
            .map(|e| e.comment_prefixes(&["%%%", "%%", "%"]))
        }),
        "haskell" => HASKELL.get(|| {
            Extractor::new(
                language,
                tree_sitter_haskell::LANGUAGE,
                include_str!("queries/haskell.scm"),
            )
            .map(|e| {
                e.comment_prefixes(&["-- |", "-- ^", "--", "{-|", "{-"])
                    .qualified_by(".")
            })
        }),
        "ocaml" if interface => OCAML_INTERFACE.get(|| {
            Extractor::new(
                language,
                tree_sitter_ocaml::LANGUAGE_OCAML_INTERFACE,
                OCAML_COMMON,
            )
            .map(|e| e.comment_prefixes(&["(**", "(*"]))
        }),
        "ocaml" => OCAML.get(|| {
            let query = format!("{OCAML_COMMON}\n{}", include_str!("queries/ocaml.scm"));
            Extractor::new(language, tree_sitter_ocaml::LANGUAGE_OCAML, &query).map(|e| {
                e.comment_prefixes(&["(**", "(*"])
                    .branches(&["match_case", "if_expression"])
            })
        }),
        "clojure" => CLOJURE.get(|| {
            Extractor::new(
                language,
                tree_sitter_clojure_orchard::LANGUAGE,
                include_str!("queries/clojure.scm"),
            )
            .map(|e| e.comment_prefixes(&[";;;", ";;", ";", "\""]))
        }),
        "elm" => ELM.get(|| {
            Extractor::new(
                language,
                tree_sitter_elm::LANGUAGE,
                include_str!("queries/elm.scm"),
            )
            .map(|e| {
                e.comment_prefixes(&["{-|", "{-", "--"])
                    .branches(&["case_of_branch", "if_else_expr"])
            })
        }),
        other => Err(format!("no grammar for {other}")),
    }
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "code-parser" });
    sdk::export_code_parser!(crate::Functional);
}

#[cfg(test)]
mod tests;
