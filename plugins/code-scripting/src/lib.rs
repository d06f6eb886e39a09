//! A code parser for Ruby, PHP, Bash and Lua: each language's tree-sitter grammar (C, compiled
//! into this component) and a query in `queries/` that names its definitions, calls and
//! imports (see `sdk::syntax` for the captures). A file is parsed in the component's sandbox:
//! a grammar's C code that a hostile file drives astray stays inside it.

use sdk::code::{CodeParserSpec, LanguageSpec, Structure};
use sdk::syntax::{Cached, Extractor};
use sdk::{ToolError, ToolResult, codes};

pub struct Scripting;

impl Scripting {
    /// What the host's index routes here (declared in the component too).
    pub const SPEC: CodeParserSpec = CodeParserSpec {
        languages: &[
            LanguageSpec {
                name: "ruby",
                extensions: &["rb", "rake", "gemspec", "ru", "rbw"],
                file_names: &["Rakefile", "Gemfile", "Guardfile", "Vagrantfile", "Podfile"],
            },
            LanguageSpec {
                name: "php",
                extensions: &[
                    "php", "phtml", "php3", "php4", "php5", "php7", "phps", "inc",
                ],
                file_names: &[],
            },
            LanguageSpec {
                name: "bash",
                extensions: &["sh", "bash", "zsh", "ksh", "bats", "command"],
                file_names: &[".bashrc", ".bash_profile", ".profile", ".zshrc", "PKGBUILD"],
            },
            LanguageSpec {
                name: "lua",
                extensions: &["lua", "rockspec"],
                file_names: &[],
            },
        ],
    };

    pub fn parse(bytes: &[u8], path: &str) -> ToolResult<Structure> {
        let language = Self::SPEC.language_of(path).ok_or_else(|| {
            ToolError::new(
                codes::UNSUPPORTED,
                format!("{path} is no Ruby, PHP, Bash or Lua file"),
            )
        })?;
        let (text, _) = sdk::decode_text(bytes);
        let extractor = extractor(language.name).map_err(|e| ToolError::new(codes::INTERNAL, e))?;
        Ok(extractor.extract(&text))
    }
}

/// The extractor of `language`, its query compiled on first use in this instance (the host
/// keeps an instance for many files).
fn extractor(language: &'static str) -> Result<&'static Extractor, String> {
    static RUBY: Cached = Cached::new();
    static PHP: Cached = Cached::new();
    static BASH: Cached = Cached::new();
    static LUA: Cached = Cached::new();
    match language {
        "ruby" => RUBY.get(|| {
            Extractor::new(
                language,
                tree_sitter_ruby::LANGUAGE,
                include_str!("queries/ruby.scm"),
            )
            .map(|e| e.qualified_by("::"))
        }),
        "php" => PHP.get(|| {
            Extractor::new(
                language,
                tree_sitter_php::LANGUAGE_PHP,
                include_str!("queries/php.scm"),
            )
        }),
        "bash" => BASH.get(|| {
            Extractor::new(
                language,
                tree_sitter_bash::LANGUAGE,
                include_str!("queries/bash.scm"),
            )
        }),
        "lua" => LUA.get(|| {
            Extractor::new(
                language,
                tree_sitter_lua::LANGUAGE,
                include_str!("queries/lua.scm"),
            )
        }),
        other => Err(format!("no grammar for {other}")),
    }
}

#[cfg(target_arch = "wasm32")]
mod component {
    wit_bindgen::generate!({ path: "../../wit", world: "code-parser" });
    sdk::export_code_parser!(crate::Scripting);
}

#[cfg(test)]
mod tests;
