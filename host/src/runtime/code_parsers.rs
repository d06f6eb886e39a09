//! Running code-parser components: the source of a file in, its structure out, checked and
//! converted to the index's own types, so a language brought by a component is indexed,
//! chunked and linked exactly as one the host parses itself. What a component returns is
//! untrusted: lines are clamped to the file, texts clipped, counts capped.
//!
//! An instance serves several files of one pass ([`Warm`]): a tree-sitter query compiles
//! against its grammar on the first parse (10-50 ms for a large grammar, more than parsing a
//! file), so a fresh instance per file made indexing a C# tree 16 files/s. Each call still
//! gets the whole deadline; the memory cap holds for the instance; a call that fails drops
//! the instance, and the file is tried again alone in a fresh one before its failure is
//! remembered, so no file pays for another's. The files are one root's, one trust domain.

use super::bindings::HostState;
use super::bindings::code::exports::smart_context::plugin::language as wit;
use super::bindings::code::{CodeParser, CodeParserPre};
use super::loading::{Kind, Plugin, Ready};
use super::{Runtime, arm_deadline, audit, call_failure, instantiate_failure, new_store};
use crate::config::Limits;
use crate::error::{HostError, HostResult, codes};
use crate::index::code::{Doc, Edge, Extraction, NAMED_AS_VALUE, Symbol};
use crate::text::clip;
use std::sync::Mutex;
use std::time::Instant;
use wasmtime::Store;

/// Longest name, kind or receiver kept.
const MAX_NAME_CHARS: usize = 200;
/// Longest signature kept (as the host's own extraction keeps it).
const MAX_SIGNATURE_CHARS: usize = 200;
/// Longest doc comment kept.
const MAX_DOC_CHARS: usize = 8_000;
/// Most definitions, imports and calls kept from one file.
const MAX_ITEMS: usize = 100_000;
/// Files one instance parses before it is retired.
const MAX_CALLS_PER_INSTANCE: u32 = 256;

/// Instances kept between files, at most a few per plugin (one per indexing thread) and an
/// eighth of the instance slots in all, so tools never wait for a slot a parser keeps. The
/// index drops them when its pass is done ([`Runtime::release_code_parsers`]).
pub(super) struct Warm {
    idle: Mutex<Vec<Instance>>,
    max_idle: usize,
}

/// A live instance of code parser `plugin` and the calls it served.
struct Instance {
    plugin: usize,
    store: Store<HostState>,
    parser: CodeParser,
    calls: u32,
}

impl Warm {
    pub(super) fn new(limits: &Limits) -> Self {
        Self {
            idle: Mutex::new(Vec::new()),
            max_idle: (limits.max_instances as usize / 8).max(1),
        }
    }

    fn take(&self, plugin: usize) -> Option<Instance> {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        let at = idle.iter().position(|i| i.plugin == plugin)?;
        Some(idle.swap_remove(at))
    }

    fn put_back(&self, instance: Instance) {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        if idle.len() < self.max_idle {
            idle.push(instance);
        }
    }

    fn clear(&self) {
        self.idle.lock().unwrap_or_else(|p| p.into_inner()).clear();
    }
}

impl Runtime {
    /// The language of the code parser that reads `path` (by its whole name, else its
    /// extension), if one does.
    pub fn code_language(&self, path: &str) -> Option<&str> {
        self.languages.claim(path).map(|(_, language)| language)
    }

    /// The structure of `bytes`, the source of `path`, from the code parser its name selects,
    /// under the memory cap and a whole deadline, its failure remembered per content as a
    /// document's is. Returns the language the parser read it as.
    pub fn parse_code(&self, path: &str, bytes: &[u8]) -> HostResult<(String, Extraction)> {
        self.parse_code_for(&self.services.index, path, bytes)
    }

    /// [`Runtime::parse_code`] of a file of the root whose index is `memo`, where a failure
    /// is remembered.
    pub fn parse_code_for(
        &self,
        memo: &crate::index::Index,
        path: &str,
        bytes: &[u8],
    ) -> HostResult<(String, Extraction)> {
        let Some((index, claimed)) = self.languages.claim(path) else {
            return Err(no_code_parser(path));
        };
        let plugin = &self.plugins[index];
        let (result, _) = self.remembering_failures(memo, plugin, path, bytes, |compiled| {
            let Ready::Code(pre) = &compiled.ready else {
                return (Err(no_code_parser(path)), 0);
            };
            // Instances are kept between the files of one root only: a file of another root
            // (another trust domain) never meets an instance a file of this one has run in.
            let first_root = std::ptr::eq(memo, &*self.services.index);
            match self.warm.take(index).filter(|_| first_root) {
                Some(warm) => match self.parse_in(warm, path, bytes, first_root) {
                    // What failed in a used instance is tried again in a fresh one.
                    (Err(_), _) => self.parse_fresh(index, pre, path, bytes, first_root),
                    done => done,
                },
                None => self.parse_fresh(index, pre, path, bytes, first_root),
            }
        });
        let structure = result?;
        let line_count = bytes.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let language = declared_language(plugin, &structure.language).unwrap_or(claimed);
        Ok((language.to_string(), extraction(structure, line_count)))
    }

    /// Parses `bytes` with the code parser named `plugin`, whatever the registry would
    /// choose, in a fresh instance, and its peak memory: `plugin check` runs a code parser on
    /// a file of its author's. Nothing is remembered.
    pub fn parse_code_with(
        &self,
        plugin: &str,
        path: &str,
        bytes: &[u8],
    ) -> (HostResult<(String, Extraction)>, usize) {
        let Some(index) = self.plugins.iter().position(|p| p.info.name == plugin) else {
            return (Err(no_code_parser(path)), 0);
        };
        let pre = match self.compiled(&self.plugins[index]) {
            Ok(super::loading::Compiled {
                ready: Ready::Code(pre),
                ..
            }) => pre,
            Ok(_) => return (Err(no_code_parser(path)), 0),
            Err(err) => return (Err(err), 0),
        };
        let (result, peak) = self.parse_fresh(index, pre, path, bytes, false);
        let line_count = bytes.iter().filter(|&&b| b == b'\n').count() as u32 + 1;
        let answer = result.map(|structure| {
            let language = declared_language(&self.plugins[index], &structure.language)
                .unwrap_or("")
                .to_string();
            (language, extraction(structure, line_count))
        });
        (answer, peak)
    }

    /// Drops the instances kept between files: the pass that used them is over.
    pub fn release_code_parsers(&self) {
        self.warm.clear();
    }

    /// One parse in a new instance, kept warm afterwards when `keep` (see `parse_in`).
    fn parse_fresh(
        &self,
        index: usize,
        pre: &CodeParserPre<HostState>,
        path: &str,
        bytes: &[u8],
        keep: bool,
    ) -> (HostResult<wit::Structure>, usize) {
        let plugin = &self.plugins[index];
        let mut store = new_store(&self.engine, None, &plugin.info.name, &self.limits);
        match pre.instantiate(&mut store) {
            Ok(parser) => {
                let instance = Instance {
                    plugin: index,
                    store,
                    parser,
                    calls: 0,
                };
                self.parse_in(instance, path, bytes, keep)
            }
            Err(e) => (Err(instantiate_failure(&plugin.info.name, e)), 0),
        }
    }

    /// One parse on `instance`, which goes back to the warm pool (when `keep`) if it answered
    /// and has calls and memory left.
    fn parse_in(
        &self,
        mut instance: Instance,
        path: &str,
        bytes: &[u8],
        keep: bool,
    ) -> (HostResult<wit::Structure>, usize) {
        let plugin = &self.plugins[instance.plugin];
        let started = Instant::now();
        let store = &mut instance.store;
        arm_deadline(store, &self.limits);
        if self.audit.is_on() {
            store.data_mut().trail = Some(audit::Trail::default());
        }
        let result = instance
            .parser
            .smart_context_plugin_language()
            .call_parse(&mut *store, bytes, path)
            .map_err(|e| call_failure(&plugin.info.name, e, store, self.limits.timeout_ms))
            .and_then(|r| r.map_err(super::from_wit));
        let answer = result.as_ref().map(|_| None);
        self.audit_call(plugin, "parse", path, store, answer, started);
        let peak = store.data().limiter.peak;
        instance.calls += 1;
        let roomy = peak < self.memory_cap() / 2;
        if keep && result.is_ok() && roomy && instance.calls < MAX_CALLS_PER_INSTANCE {
            self.warm.put_back(instance);
        }
        (result, peak)
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
                    // The host's marker of a function named as a value is its own
                    // (`code::NAMED_AS_VALUE`): a plugin's receiver never opens with it.
                    receiver: r
                        .receiver
                        .map(|x| clip(x.trim().trim_start_matches(NAMED_AS_VALUE), MAX_NAME_CHARS))
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
            calls: vec![
                wit::Reference {
                    name: "greet".into(),
                    line: 4,
                    receiver: Some("  ".into()),
                },
                // The host's own marker of a value is no plugin's to give.
                wit::Reference {
                    name: "greet".into(),
                    line: 5,
                    receiver: Some("^^user".into()),
                },
            ],
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
        assert_eq!(x.calls[1].receiver.as_deref(), Some("user"));
    }
}
