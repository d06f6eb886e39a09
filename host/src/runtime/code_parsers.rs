//! Running code-parser components: the source of a file in, its structure out, checked and
//! converted to the index's own types, so a language brought by a component is indexed,
//! chunked and linked exactly as one the host parses itself. What a component returns is
//! untrusted: lines are clamped to the file, texts clipped, counts capped.

use super::bindings::HostState;
use super::bindings::code::CodeParserPre;
use super::bindings::code::exports::smart_context::plugin::language as wit;
use super::loading::{Kind, Plugin, Ready};
use super::{Runtime, audit, call_failure, instantiate_failure, new_store};
use crate::error::{HostError, HostResult, codes};
use crate::index::code::{Doc, Edge, Extraction, Symbol};
use crate::text::clip;
use std::time::Instant;

/// Longest name, kind or receiver kept.
const MAX_NAME_CHARS: usize = 200;
/// Longest signature kept (as the host's own extraction keeps it).
const MAX_SIGNATURE_CHARS: usize = 200;
/// Longest doc comment kept.
const MAX_DOC_CHARS: usize = 8_000;
/// Most definitions, imports and calls kept from one file.
const MAX_ITEMS: usize = 100_000;

impl Runtime {
    /// The language of the code parser that reads `path` (by its whole name, else its
    /// extension), if one does.
    pub fn code_language(&self, path: &str) -> Option<&str> {
        self.languages.claim(path).map(|(_, language)| language)
    }

    /// The structure of `bytes`, the source of `path`, from the code parser its name selects:
    /// a fresh instance with the memory cap and the deadline, as for documents, and a failure
    /// remembered per content. Returns the language the parser read it as.
    pub fn parse_code(&self, path: &str, bytes: &[u8]) -> HostResult<(String, Extraction)> {
        let Some((index, claimed)) = self.languages.claim(path) else {
            return Err(no_code_parser(path));
        };
        let plugin = &self.plugins[index];
        let (result, _) =
            self.remembering_failures(plugin, path, bytes, |compiled| match &compiled.ready {
                Ready::Code(pre) => self.run_code_parser_once(plugin, pre, path, bytes),
                _ => (Err(no_code_parser(path)), 0),
            });
        let structure = result?;
        let line_count = bytes.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let language = declared_language(plugin, &structure.language).unwrap_or(claimed);
        Ok((language.to_string(), extraction(structure, line_count)))
    }

    fn run_code_parser_once(
        &self,
        plugin: &Plugin,
        pre: &CodeParserPre<HostState>,
        path: &str,
        bytes: &[u8],
    ) -> (HostResult<wit::Structure>, usize) {
        let started = Instant::now();
        let mut store = new_store(&self.engine, None, &plugin.info.name, &self.limits);
        if self.audit.is_on() {
            store.data_mut().trail = Some(audit::Trail::default());
        }
        let result = pre
            .instantiate(&mut store)
            .map_err(|e| instantiate_failure(&plugin.info.name, e))
            .and_then(|instance| {
                instance
                    .smart_context_plugin_language()
                    .call_parse(&mut store, bytes, path)
                    .map_err(|e| call_failure(&plugin.info.name, e, &store, self.limits.timeout_ms))
            })
            .and_then(|r| r.map_err(super::from_wit));
        let answer = result.as_ref().map(|_| None);
        self.audit_call(plugin, "parse", path, &mut store, answer, started);
        (result, store.data().limiter.peak)
    }
}

/// `language` when `plugin` declares it (a parser of several languages says which one a file
/// is), else None.
fn declared_language<'p>(plugin: &'p Plugin, language: &str) -> Option<&'p str> {
    let Kind::Code { declared } = &plugin.kind else {
        return None;
    };
    let language = language.trim().to_ascii_lowercase();
    declared
        .languages
        .iter()
        .find(|l| l.name == language)
        .map(|l| l.name.as_str())
}

fn no_code_parser(path: &str) -> HostError {
    HostError::new(
        codes::UNSUPPORTED_LANGUAGE,
        format!("no code parser reads {path}"),
    )
    .suggest("read it as a file instead (view preview or full)")
}

/// The index's form of a component's answer: lines within the file's `line_count`, texts
/// clipped, at most [`MAX_ITEMS`] of each kind, definitions in source order (containers
/// first), nameless items dropped.
fn extraction(structure: wit::Structure, line_count: u32) -> Extraction {
    let line = |n: u32| n.clamp(1, line_count.max(1));
    let mut symbols: Vec<Symbol> = structure
        .definitions
        .into_iter()
        .take(MAX_ITEMS)
        .filter_map(|d| {
            let name = clip(d.name.trim(), MAX_NAME_CHARS);
            if name.is_empty() {
                return None;
            }
            let start_line = line(d.start_line);
            let kind = clip(&d.kind.trim().to_ascii_lowercase(), MAX_NAME_CHARS);
            Some(Symbol {
                name,
                kind: if kind.is_empty() {
                    "definition".into()
                } else {
                    kind
                },
                container: d
                    .container
                    .map(|c| clip(c.trim(), MAX_NAME_CHARS))
                    .filter(|c| !c.is_empty()),
                start_line,
                end_line: line(d.end_line).max(start_line),
                signature: clip(d.signature.trim(), MAX_SIGNATURE_CHARS),
                doc: d.doc.and_then(|doc| {
                    let text = clip(doc.text.trim(), MAX_DOC_CHARS);
                    let start_line = line(doc.start_line);
                    (!text.is_empty()).then(|| Doc {
                        text,
                        start_line,
                        end_line: line(doc.end_line).max(start_line),
                    })
                }),
                branches: d.branches,
            })
        })
        .collect();
    symbols.sort_by_key(|s| (s.start_line, std::cmp::Reverse(s.end_line)));
    let edges = |references: Vec<wit::Reference>| -> Vec<Edge> {
        references
            .into_iter()
            .take(MAX_ITEMS)
            .filter_map(|r| {
                let name = clip(r.name.trim(), MAX_NAME_CHARS);
                (!name.is_empty()).then(|| Edge {
                    name,
                    line: line(r.line),
                    receiver: r
                        .receiver
                        .map(|x| clip(x.trim(), MAX_NAME_CHARS))
                        .filter(|x| !x.is_empty()),
                })
            })
            .collect()
    };
    Extraction {
        symbols,
        imports: edges(structure.imports),
        calls: edges(structure.calls),
        aliases: Vec::new(),
        types: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn definition(name: &str, start: u32, end: u32) -> wit::Definition {
        wit::Definition {
            name: name.into(),
            kind: "Method".into(),
            container: Some(" ".into()),
            start_line: start,
            end_line: end,
            signature: format!("def {name}"),
            doc: Some(wit::DocComment {
                text: " Says hi. ".into(),
                start_line: 0,
                end_line: 0,
            }),
            branches: 2,
        }
    }

    #[test]
    fn an_answer_is_held_to_the_file_it_describes() {
        let structure = wit::Structure {
            language: "ruby".into(),
            definitions: vec![
                definition("late", 9, 3),
                definition("", 1, 1),
                definition(&"x".repeat(5_000), 1, 900),
            ],
            imports: vec![wit::Reference {
                name: "./util".into(),
                line: 0,
                receiver: None,
            }],
            calls: vec![wit::Reference {
                name: "greet".into(),
                line: 4,
                receiver: Some("  ".into()),
            }],
        };
        let x = extraction(structure, 10);
        assert_eq!(x.symbols.len(), 2, "the nameless one is dropped");
        let (first, late) = (&x.symbols[0], &x.symbols[1]);
        assert_eq!((first.start_line, first.end_line), (1, 10));
        assert!(first.name.chars().count() <= MAX_NAME_CHARS + 1);
        assert_eq!((late.start_line, late.end_line), (9, 9));
        assert_eq!(late.kind, "method");
        assert_eq!(late.container, None);
        let doc = late.doc.as_ref().unwrap();
        assert_eq!((doc.text.as_str(), doc.start_line), ("Says hi.", 1));
        assert_eq!(x.imports[0].line, 1);
        assert_eq!(x.calls[0].receiver, None);
    }
}
