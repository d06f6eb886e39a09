//! {{name}}: a smart-context code parser for `.{{name}}` files, a small language of blocks:
//! `def NAME` opens a definition that runs to its `end`, `# ...` lines just above it are its
//! doc comment, `use PATH` imports a file, and `NAME(...)` inside a definition calls another.
//! Replace `parse` with your language's reading (a tree-sitter grammar compiles for
//! wasm32-wasip2 with clang and the WASI headers); the host turns what it returns into
//! definitions, chunks, imports and call sites, as it does for the languages it parses itself.

wit_bindgen::generate!({
    path: "wit",
    world: "code-parser",
});

use exports::smart_context::plugin::language::{
    CodeParserSpec, Definition, DocComment, Guest, LanguageSpec, Reference, Structure,
};
use smart_context::plugin::types::Error;

struct Parser;

impl Guest for Parser {
    fn describe() -> CodeParserSpec {
        CodeParserSpec {
            languages: vec![LanguageSpec {
                name: "{{name}}".to_string(),
                extensions: vec!["{{name}}".to_string()],
                file_names: Vec::new(),
            }],
        }
    }

    fn parse(bytes: Vec<u8>, path: String) -> Result<Structure, Error> {
        let text = String::from_utf8(bytes).map_err(|_| Error {
            code: "MALFORMED".to_string(),
            message: format!("{path} is not UTF-8"),
            suggestion: Some("save the file as UTF-8".to_string()),
            details_json: None,
        })?;
        let mut out = Structure {
            language: "{{name}}".to_string(),
            definitions: Vec::new(),
            imports: Vec::new(),
            calls: Vec::new(),
        };
        // The definition being read (its index in `out.definitions`), and the comment lines
        // seen since the last line of code.
        let mut open: Option<usize> = None;
        let mut comment: Vec<(u32, String)> = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let number = index as u32 + 1;
            let line = line.trim();
            if let Some(note) = line.strip_prefix('#') {
                comment.push((number, note.trim().to_string()));
                continue;
            }
            let doc = std::mem::take(&mut comment);
            if let Some(name) = line.strip_prefix("def ").map(str::trim) {
                out.definitions.push(Definition {
                    name: name.to_string(),
                    kind: "function".to_string(),
                    container: None,
                    start_line: number,
                    end_line: number,
                    signature: line.to_string(),
                    doc: doc_of(&doc),
                    branches: 0,
                });
                open = Some(out.definitions.len() - 1);
            } else if line == "end" {
                if let Some(i) = open.take() {
                    out.definitions[i].end_line = number;
                }
            } else if let Some(target) = line.strip_prefix("use ") {
                out.imports.push(Reference {
                    name: target.trim().to_string(),
                    line: number,
                    receiver: None,
                });
            } else if let Some((callee, _)) = line.split_once('(') {
                let callee = callee.trim();
                if !callee.is_empty() && callee.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    out.calls.push(Reference {
                        name: callee.to_string(),
                        line: number,
                        receiver: None,
                    });
                }
            }
        }
        Ok(out)
    }
}

/// The comment lines right above a definition, as its doc comment.
fn doc_of(lines: &[(u32, String)]) -> Option<DocComment> {
    let (first, last) = (lines.first()?, lines.last()?);
    Some(DocComment {
        text: lines
            .iter()
            .map(|(_, l)| l.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        start_line: first.0,
        end_line: last.0,
    })
}

export!(Parser);
