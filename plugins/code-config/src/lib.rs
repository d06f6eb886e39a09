//! A code parser for the languages a repository is configured and built in: Nix,
//! HCL/Terraform and Starlark (Bazel's BUILD and .bzl files: definitions, calls, imports),
//! and the structure of YAML, TOML, JSON,
//! Dockerfile, Makefile, CMake, Protocol Buffers and GraphQL files (sections by key, targets,
//! stages, messages, types). Each language is a tree-sitter grammar (C, compiled into this
//! component) and a query in `queries/` (see `sdk::syntax`); a file is parsed in the
//! component's sandbox, so a grammar's C code that a hostile file drives astray stays inside.

use sdk::code::{CodeParserSpec, LanguageSpec, Structure};
use sdk::syntax::{Cached, Extractor};
use sdk::{ToolError, ToolResult, codes};
use tree_sitter_language::LanguageFn;

// The Dockerfile grammar's crate hands out a `tree_sitter::Language`, which cannot live in a
// static; its C entry point, which the crate links in, can.
use tree_sitter_dockerfile_updated as _;
unsafe extern "C" {
    fn tree_sitter_dockerfile() -> *const ();
}
// SAFETY: `tree_sitter_dockerfile` is the grammar's generated C entry point: it takes nothing
// and returns a pointer to its static `TSLanguage`, as `LanguageFn` requires.
const DOCKERFILE: LanguageFn = unsafe { LanguageFn::from_raw(tree_sitter_dockerfile) };

pub struct Config;

/// One language of this component: its grammar, its query and what the extractor needs to
/// know beyond them.
struct Grammar {
    grammar: LanguageFn,
    query: &'static str,
    comment_prefixes: &'static [&'static str],
}

impl Config {
    /// What the host's index routes here (declared in the component too).
    pub const SPEC: CodeParserSpec = CodeParserSpec {
        languages: &[
            LanguageSpec {
                name: "nix",
                extensions: &["nix"],
                file_names: &[],
            },
            LanguageSpec {
                name: "hcl",
                extensions: &["tf", "tfvars", "hcl", "nomad"],
                file_names: &[],
            },
            LanguageSpec {
                name: "starlark",
                // BUILD.bazel, MODULE.bazel and WORKSPACE.bazel by their extension.
                extensions: &["bzl", "bazel", "star", "sky"],
                file_names: &["BUILD", "WORKSPACE"],
            },
            LanguageSpec {
                name: "yaml",
                extensions: &["yaml", "yml"],
                file_names: &[],
            },
            LanguageSpec {
                name: "toml",
                extensions: &["toml"],
                file_names: &[],
            },
            LanguageSpec {
                name: "json",
                extensions: &["json", "jsonc", "json5"],
                file_names: &[],
            },
            LanguageSpec {
                name: "dockerfile",
                extensions: &["dockerfile", "containerfile"],
                file_names: &["Dockerfile", "Containerfile"],
            },
            LanguageSpec {
                name: "make",
                extensions: &["mk", "mak", "make"],
                file_names: &["Makefile", "makefile", "GNUmakefile"],
            },
            LanguageSpec {
                name: "cmake",
                extensions: &["cmake"],
                file_names: &["CMakeLists.txt"],
            },
            LanguageSpec {
                name: "protobuf",
                extensions: &["proto"],
                file_names: &[],
            },
            LanguageSpec {
                name: "graphql",
                extensions: &["graphql", "graphqls", "gql"],
                file_names: &[],
            },
        ],
    };

    pub fn parse(bytes: &[u8], path: &str) -> ToolResult<Structure> {
        let language = Self::SPEC.language_of(path).ok_or_else(|| {
            ToolError::new(
                codes::UNSUPPORTED,
                format!("{path} is no configuration or build file this parser reads"),
            )
        })?;
        if is_lockfile(path) {
            // Thousands of generated entries (package-lock.json, pnpm-lock.yaml) are no
            // structure anyone navigates: the host indexes the file's text alone.
            return Ok(Structure {
                language: language.name.to_string(),
                ..Structure::default()
            });
        }
        let (text, _) = sdk::decode_text(bytes);
        const LANGUAGES: usize = Config::SPEC.languages.len();
        static CACHE: [Cached; LANGUAGES] = [const { Cached::new() }; LANGUAGES];
        let slot = Self::SPEC
            .languages
            .iter()
            .position(|l| l.name == language.name)
            .expect("language_of answers from the spec");
        let extractor = CACHE[slot]
            .get(|| {
                let g = grammar(language.name);
                Extractor::new(language.name, g.grammar, g.query)
                    .map(|e| e.comment_prefixes(g.comment_prefixes))
            })
            .map_err(|e| ToolError::new(codes::INTERNAL, e))?;
        Ok(extractor.extract(&text))
    }
}

/// The grammar and query of one of [`Config::SPEC`]'s languages.
fn grammar(name: &str) -> Grammar {
    const HASH: &[&str] = &["#"];
    let (grammar, query, comment_prefixes) = match name {
        "nix" => (
            tree_sitter_nix::LANGUAGE,
            include_str!("queries/nix.scm"),
            &["#", "/*"][..],
        ),
        "hcl" => (
            tree_sitter_hcl::LANGUAGE,
            include_str!("queries/hcl.scm"),
            &["#", "//", "/*"][..],
        ),
        "starlark" => (
            tree_sitter_starlark::LANGUAGE,
            include_str!("queries/starlark.scm"),
            HASH,
        ),
        "yaml" => (
            tree_sitter_yaml::LANGUAGE,
            include_str!("queries/yaml.scm"),
            HASH,
        ),
        "toml" => (
            tree_sitter_toml_ng::LANGUAGE,
            include_str!("queries/toml.scm"),
            HASH,
        ),
        "json" => (
            tree_sitter_json::LANGUAGE,
            include_str!("queries/json.scm"),
            &["//"][..],
        ),
        "dockerfile" => (DOCKERFILE, include_str!("queries/dockerfile.scm"), HASH),
        "make" => (
            tree_sitter_make::LANGUAGE,
            include_str!("queries/make.scm"),
            &["##", "#"][..],
        ),
        "cmake" => (
            tree_sitter_cmake::LANGUAGE,
            include_str!("queries/cmake.scm"),
            HASH,
        ),
        "protobuf" => (
            tree_sitter_proto::LANGUAGE,
            include_str!("queries/proto.scm"),
            &["///", "//", "/*"][..],
        ),
        _ => (
            tree_sitter_graphql::LANGUAGE,
            include_str!("queries/graphql.scm"),
            &["\"\"\"", "\"", "#"][..],
        ),
    };
    Grammar {
        grammar,
        query,
        comment_prefixes,
    }
}

/// Lock files: generated, and as long as a project has dependencies.
fn is_lockfile(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.ends_with(".lock")
        || name.ends_with("-lock.json")
        || name.ends_with("-lock.yaml")
        || name.ends_with(".lock.json")
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "code-parser" });
    sdk::export_code_parser!(crate::Config);
}

#[cfg(test)]
mod tests;
