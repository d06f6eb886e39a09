//! Test fixture: a third-party code parser for a house DSL, the way an operator adds a
//! language without rebuilding the host: `rule NAME` lines define rules, `use PATH` lines
//! import files, `call NAME` lines call rules. A file saying `spin forever` makes it loop,
//! for the tests that a code parser which runs out of time on a content is stopped, not run
//! on it again, and its file still indexed as text.

use sdk::ToolResult;
use sdk::code::{CodeParserSpec, Definition, LanguageSpec, Reference, Structure};

pub struct House;

impl House {
    pub const SPEC: CodeParserSpec = CodeParserSpec {
        languages: &[LanguageSpec {
            name: "house",
            extensions: &["house"],
            file_names: &["Housefile"],
        }],
    };

    pub fn parse(bytes: &[u8], _path: &str) -> ToolResult<Structure> {
        let (text, _) = sdk::decode_text(bytes);
        if text.contains("spin forever") {
            let mut n: u64 = 0;
            loop {
                n = std::hint::black_box(n.wrapping_add(1));
            }
        }
        let mut out = Structure {
            language: "house".into(),
            ..Structure::default()
        };
        for (i, line) in text.lines().enumerate() {
            let line_no = i as u32 + 1;
            let mut words = line.split_whitespace();
            match (words.next(), words.next()) {
                (Some("rule"), Some(name)) => out.definitions.push(Definition {
                    name: name.to_string(),
                    kind: "rule".into(),
                    container: None,
                    start_line: line_no,
                    end_line: line_no,
                    signature: line.trim().to_string(),
                    doc: None,
                    branches: 0,
                }),
                (Some(kind @ ("use" | "call")), Some(name)) => {
                    let reference = Reference {
                        name: name.to_string(),
                        line: line_no,
                        receiver: None,
                    };
                    if kind == "use" {
                        out.imports.push(reference);
                    } else {
                        out.calls.push(reference);
                    }
                }
                _ => {}
            }
        }
        Ok(out)
    }
}

wit_bindgen::generate!({ path: "../../../wit", world: "code-parser" });
sdk::export_code_parser!(crate::House);
