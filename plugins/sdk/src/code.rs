//! What a code-parser plugin returns: the structure of one source file (definitions, imports,
//! call sites), in plain Rust types the [`export_code_parser!`](crate::export_code_parser)
//! macro converts to the WIT `language` interface's records. The host indexes it as it
//! indexes the languages it parses itself: chunks along the definitions, a symbol catalogue,
//! and the import and call edges of understand's graphs.

/// One language a code parser reads.
#[derive(Debug, Clone, Copy)]
pub struct LanguageSpec {
    /// The name results show and language filters take, lower case (`ruby`, `csharp`).
    pub name: &'static str,
    /// Lower-case extensions without the dot.
    pub extensions: &'static [&'static str],
    /// Whole file names that hold the language whatever their extension (`Rakefile`).
    pub file_names: &'static [&'static str],
}

/// What a code parser declares to the host (in its component, and from `describe`).
#[derive(Debug, Clone, Copy)]
pub struct CodeParserSpec {
    pub languages: &'static [LanguageSpec],
}

impl CodeParserSpec {
    /// The language `path` is in, by its whole file name and then its extension.
    pub fn language_of(&self, path: &str) -> Option<&'static LanguageSpec> {
        let file_name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let extension = file_name
            .rsplit_once('.')
            .map(|(_, e)| e.to_ascii_lowercase());
        self.languages
            .iter()
            .find(|l| l.file_names.contains(&file_name))
            .or_else(|| {
                let extension = extension?;
                self.languages
                    .iter()
                    .find(|l| l.extensions.contains(&extension.as_str()))
            })
    }
}

/// The structure of one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Structure {
    /// One of the names the spec lists.
    pub language: String,
    /// In source order, containers before their members.
    pub definitions: Vec<Definition>,
    pub imports: Vec<Reference>,
    pub calls: Vec<Reference>,
}

impl Structure {
    /// Each definition as `Container.name kind`, in source order: a compact view of what a
    /// parser found, for its tests and reports.
    pub fn outline(&self) -> Vec<String> {
        self.definitions
            .iter()
            .map(|d| {
                let name = crate::qualified_name(&d.name, d.container.as_deref());
                format!("{name} {}", d.kind)
            })
            .collect()
    }

    /// Each call as `receiver.name` (or `name`), in source order.
    pub fn call_names(&self) -> Vec<String> {
        self.calls
            .iter()
            .map(|c| match &c.receiver {
                Some(r) => format!("{r}.{}", c.name),
                None => c.name.clone(),
            })
            .collect()
    }

    /// The doc comment of the first definition named `name`.
    pub fn doc_of(&self, name: &str) -> Option<&str> {
        self.definitions
            .iter()
            .find(|d| d.name == name)
            .and_then(|d| d.doc.as_ref())
            .map(|d| d.text.as_str())
    }

    /// Each import as written, in source order.
    pub fn import_names(&self) -> Vec<&str> {
        self.imports.iter().map(|i| i.name.as_str()).collect()
    }
}

/// A definition. Lines are 1-based and inclusive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    pub name: String,
    /// function, method, class, struct, enum, trait, interface, module, type, constant, ...
    pub kind: String,
    /// The enclosing definition's name (the class of a method), if any.
    pub container: Option<String>,
    pub start_line: u32,
    pub end_line: u32,
    /// The declaration's first line, trimmed.
    pub signature: String,
    pub doc: Option<DocComment>,
    /// Branch points inside it: the cyclomatic part of a complexity score.
    pub branches: u32,
}

/// A doc comment with its markers stripped, and where it sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocComment {
    pub text: String,
    pub start_line: u32,
    pub end_line: u32,
}

/// An import (the module or path as written) or a call (the callee's name and, for a call
/// through an object or a path, that object as written; `?` when it is no plain path).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    pub name: String,
    pub line: u32,
    pub receiver: Option<String>,
}

/// Exports a code-parser component: declares `$parser::SPEC` (a [`CodeParserSpec`]) in the
/// component (see [`crate::spec`]), answers `describe` with it and `parse` with
/// `$parser::parse(&[u8], &str) -> sdk::ToolResult<sdk::code::Structure>`. Invoke it after
/// `wit_bindgen::generate!` of the code-parser world.
#[macro_export]
macro_rules! export_code_parser {
    ($parser:ty) => {
        #[cfg_attr(target_family = "wasm", unsafe(link_section = "smart-context:spec"))]
        #[used]
        static SMART_CONTEXT_SPEC: [u8; $crate::spec::code_parser_len(&<$parser>::SPEC)] =
            $crate::spec::code_parser_json(&<$parser>::SPEC);

        mod __code_component {
            use super::exports::smart_context::plugin::language as wit_language;
            use super::smart_context::plugin::types as wit;

            $crate::impl_error_conversions!(wit::Error);

            struct Component;

            fn reference(r: $crate::code::Reference) -> wit_language::Reference {
                wit_language::Reference {
                    name: r.name,
                    line: r.line,
                    receiver: r.receiver,
                }
            }

            impl wit_language::Guest for Component {
                fn describe() -> wit_language::CodeParserSpec {
                    wit_language::CodeParserSpec {
                        languages: <$parser>::SPEC
                            .languages
                            .iter()
                            .map(|l| wit_language::LanguageSpec {
                                name: l.name.to_string(),
                                extensions: l.extensions.iter().map(|e| e.to_string()).collect(),
                                file_names: l.file_names.iter().map(|f| f.to_string()).collect(),
                            })
                            .collect(),
                    }
                }

                fn parse(
                    bytes: Vec<u8>,
                    path: String,
                ) -> Result<wit_language::Structure, wit::Error> {
                    $crate::install_panic_log(|message| {
                        super::smart_context::plugin::log::log(
                            super::smart_context::plugin::log::Level::Error,
                            message,
                        )
                    });
                    let s = <$parser>::parse(&bytes, &path)?;
                    Ok(wit_language::Structure {
                        language: s.language,
                        definitions: s
                            .definitions
                            .into_iter()
                            .map(|d| wit_language::Definition {
                                name: d.name,
                                kind: d.kind,
                                container: d.container,
                                start_line: d.start_line,
                                end_line: d.end_line,
                                signature: d.signature,
                                doc: d.doc.map(|c| wit_language::DocComment {
                                    text: c.text,
                                    start_line: c.start_line,
                                    end_line: c.end_line,
                                }),
                                branches: d.branches,
                            })
                            .collect(),
                        imports: s.imports.into_iter().map(reference).collect(),
                        calls: s.calls.into_iter().map(reference).collect(),
                    })
                }
            }

            super::export!(Component with_types_in super);
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: CodeParserSpec = CodeParserSpec {
        languages: &[
            LanguageSpec {
                name: "ruby",
                extensions: &["rb"],
                file_names: &["Rakefile", "Gemfile"],
            },
            LanguageSpec {
                name: "php",
                extensions: &["php"],
                file_names: &[],
            },
        ],
    };

    #[test]
    fn a_file_s_language_is_found_by_name_then_extension() {
        let name = |p: &str| SPEC.language_of(p).map(|l| l.name);
        assert_eq!(name("lib/a.RB"), Some("ruby"));
        assert_eq!(name("app/Gemfile"), Some("ruby"));
        assert_eq!(name("web/index.php"), Some("php"));
        assert_eq!(name("README"), None);
        assert_eq!(name("x.py"), None);
    }
}
