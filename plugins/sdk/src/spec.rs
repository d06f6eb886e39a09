//! A plugin's description, declared in its component as well as returned by `describe`: the
//! host reads it from the component's [`SECTION`] custom section and lists the plugin without
//! compiling it (a server's first start would otherwise compile every component before it
//! could answer `tools/list`, seconds of work). Once the component is compiled, its
//! `describe` must return the same description, or the host refuses the plugin.
//!
//! The section holds JSON built at compile time from the same constant `describe` returns:
//! `{"tool": {...}}`, `{"parser": {...}}` or `{"codeParser": {...}}`, field names as the host
//! reads them (camelCase). [`declare_tool!`](crate::declare_tool),
//! [`export_parser!`](crate::export_parser) and [`export_code_parser!`](crate::export_code_parser)
//! emit it.

use crate::code::CodeParserSpec;
use crate::doc::ParserSpec;

/// The custom section's name.
pub const SECTION: &str = "smart-context:spec";

/// A tool's description, as a constant: what `describe` returns and the section declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tool {
    pub name: &'static str,
    pub title: &'static str,
    pub description: &'static str,
    /// JSON Schema of the arguments, as JSON text.
    pub input_schema: &'static str,
    /// JSON Schema of the structured result, as JSON text.
    pub output_schema: Option<&'static str>,
    pub read_only: bool,
    pub destructive: bool,
    pub idempotent: bool,
}

/// Bytes written at compile time; with `N == 0` it only counts them.
pub struct Out<const N: usize> {
    pub buf: [u8; N],
    pub len: usize,
}

impl<const N: usize> Out<N> {
    const fn new() -> Self {
        Self {
            buf: [0; N],
            len: 0,
        }
    }

    const fn byte(&mut self, b: u8) {
        if N > 0 {
            self.buf[self.len] = b;
        }
        self.len += 1;
    }

    const fn raw(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            self.byte(bytes[i]);
            i += 1;
        }
    }

    /// `s` as a JSON string: quoted, `"` and `\` escaped, control characters as `\u00XX`.
    const fn string(&mut self, s: &str) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let bytes = s.as_bytes();
        self.byte(b'"');
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b == b'"' || b == b'\\' {
                self.byte(b'\\');
                self.byte(b);
            } else if b < 0x20 {
                self.raw("\\u00");
                self.byte(HEX[(b >> 4) as usize]);
                self.byte(HEX[(b & 15) as usize]);
            } else {
                self.byte(b);
            }
            i += 1;
        }
        self.byte(b'"');
    }

    const fn boolean(&mut self, b: bool) {
        self.raw(if b { "true" } else { "false" });
    }

    const fn number(&mut self, n: u8) {
        if n >= 100 {
            self.byte(b'0' + n / 100);
        }
        if n >= 10 {
            self.byte(b'0' + (n / 10) % 10);
        }
        self.byte(b'0' + n % 10);
    }

    const fn tool(&mut self, t: &Tool) {
        self.raw("{\"tool\":{\"name\":");
        self.string(t.name);
        self.raw(",\"title\":");
        self.string(t.title);
        self.raw(",\"description\":");
        self.string(t.description);
        self.raw(",\"inputSchema\":");
        self.raw(t.input_schema);
        self.raw(",\"outputSchema\":");
        match t.output_schema {
            Some(schema) => self.raw(schema),
            None => self.raw("null"),
        }
        self.raw(",\"readOnly\":");
        self.boolean(t.read_only);
        self.raw(",\"destructive\":");
        self.boolean(t.destructive);
        self.raw(",\"idempotent\":");
        self.boolean(t.idempotent);
        self.raw("}}");
    }

    const fn parser(&mut self, p: &ParserSpec) {
        self.raw("{\"parser\":{\"format\":");
        self.string(p.format);
        self.raw(",\"extensions\":[");
        let mut i = 0;
        while i < p.extensions.len() {
            if i > 0 {
                self.byte(b',');
            }
            self.string(p.extensions[i]);
            i += 1;
        }
        self.raw("],\"signatures\":[");
        let mut i = 0;
        while i < p.signatures.len() {
            if i > 0 {
                self.byte(b',');
            }
            self.byte(b'[');
            let signature = p.signatures[i];
            let mut j = 0;
            while j < signature.len() {
                if j > 0 {
                    self.byte(b',');
                }
                self.number(signature[j]);
                j += 1;
            }
            self.byte(b']');
            i += 1;
        }
        self.raw("],\"textFallback\":");
        self.boolean(p.text_fallback);
        self.raw("}}");
    }

    const fn strings(&mut self, list: &[&str]) {
        self.byte(b'[');
        let mut i = 0;
        while i < list.len() {
            if i > 0 {
                self.byte(b',');
            }
            self.string(list[i]);
            i += 1;
        }
        self.byte(b']');
    }

    const fn code_parser(&mut self, c: &CodeParserSpec) {
        self.raw("{\"codeParser\":{\"languages\":[");
        let mut i = 0;
        while i < c.languages.len() {
            if i > 0 {
                self.byte(b',');
            }
            let language = &c.languages[i];
            self.raw("{\"name\":");
            self.string(language.name);
            self.raw(",\"extensions\":");
            self.strings(language.extensions);
            self.raw(",\"fileNames\":");
            self.strings(language.file_names);
            self.byte(b'}');
            i += 1;
        }
        self.raw("]}}");
    }
}

/// The length of a code parser's declared JSON.
pub const fn code_parser_len(c: &CodeParserSpec) -> usize {
    let mut out = Out::<0>::new();
    out.code_parser(c);
    out.len
}

/// A code parser's declared JSON, `N` bytes long (see [`code_parser_len`]).
pub const fn code_parser_json<const N: usize>(c: &CodeParserSpec) -> [u8; N] {
    let mut out = Out::<N>::new();
    out.code_parser(c);
    out.buf
}

/// The length of a tool's declared JSON.
pub const fn tool_len(t: &Tool) -> usize {
    let mut out = Out::<0>::new();
    out.tool(t);
    out.len
}

/// A tool's declared JSON, `N` bytes long (see [`tool_len`]).
pub const fn tool_json<const N: usize>(t: &Tool) -> [u8; N] {
    let mut out = Out::<N>::new();
    out.tool(t);
    out.buf
}

/// The length of a parser's declared JSON.
pub const fn parser_len(p: &ParserSpec) -> usize {
    let mut out = Out::<0>::new();
    out.parser(p);
    out.len
}

/// A parser's declared JSON, `N` bytes long (see [`parser_len`]).
pub const fn parser_json<const N: usize>(p: &ParserSpec) -> [u8; N] {
    let mut out = Out::<N>::new();
    out.parser(p);
    out.buf
}

/// Declares a tool's description (a [`Tool`] constant) in the component's [`SECTION`], so the
/// host lists the tool before compiling the component. The plugin's `describe` returns the
/// same constant (see [`Tool`]'s fields).
#[macro_export]
macro_rules! declare_tool {
    ($spec:expr) => {
        #[cfg_attr(target_family = "wasm", unsafe(link_section = "smart-context:spec"))]
        #[used]
        static SMART_CONTEXT_SPEC: [u8; $crate::spec::tool_len(&$spec)] =
            $crate::spec::tool_json(&$spec);
    };
}

/// Exports a tool component from its [`Tool`] constant and its call function: declares the
/// description ([`declare_tool!`]), answers `describe` with it, and `call` with
/// `call(args_json) -> ToolResult<(structured_json, text)>` (errors cross as the WIT error).
/// [`answer`](crate::answer) is what most call functions are made of. The plugin generates
/// its bindings (`wit_bindgen::generate!`) with a world exporting `tool`.
#[macro_export]
macro_rules! export_tool {
    ($spec:ident, $call:ident) => {
        $crate::declare_tool!($spec);

        mod __tool_component {
            use super::exports::smart_context::plugin::tool::{Guest, ToolOutput, ToolSpec};
            use super::smart_context::plugin::types as wit;

            struct Component;

            impl Guest for Component {
                fn describe() -> ToolSpec {
                    $crate::tool_spec!(super::$spec => ToolSpec)
                }

                fn call(args_json: String) -> Result<ToolOutput, wit::Error> {
                    let (structured_json, text) = super::$call(&args_json)?;
                    Ok(ToolOutput {
                        structured_json,
                        text,
                    })
                }
            }

            super::export!(Component with_types_in super);
        }
    };
}

/// The plugin's generated WIT `tool-spec` (named by the second argument) from a [`Tool`]
/// constant: what `describe` returns, the same description [`declare_tool!`] declares.
#[macro_export]
macro_rules! tool_spec {
    ($spec:expr => $wit:ident) => {
        $wit {
            name: $spec.name.to_string(),
            title: $spec.title.to_string(),
            description: $spec.description.to_string(),
            input_schema: $spec.input_schema.to_string(),
            output_schema: $spec.output_schema.map(str::to_string),
            read_only: $spec.read_only,
            destructive: $spec.destructive,
            idempotent: $spec.idempotent,
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOOL: Tool = Tool {
        name: "demo",
        title: "Demo \"quoted\"",
        description: "a\\b\nc `d`",
        input_schema: r#"{"type":"object"}"#,
        output_schema: None,
        read_only: true,
        destructive: false,
        idempotent: true,
    };

    const PARSER: ParserSpec = ParserSpec {
        format: "pdf",
        extensions: &["pdf", "x"],
        signatures: &[b"%PDF-", &[0, 255]],
        text_fallback: false,
    };

    #[test]
    fn declared_json_is_the_constant_as_json() {
        const LEN: usize = tool_len(&TOOL);
        let tool: serde_json::Value = serde_json::from_slice(&tool_json::<LEN>(&TOOL)).unwrap();
        assert_eq!(
            tool,
            serde_json::json!({ "tool": {
                "name": "demo", "title": "Demo \"quoted\"", "description": "a\\b\nc `d`",
                "inputSchema": { "type": "object" }, "outputSchema": null,
                "readOnly": true, "destructive": false, "idempotent": true } })
        );
        const PLEN: usize = parser_len(&PARSER);
        let parser: serde_json::Value =
            serde_json::from_slice(&parser_json::<PLEN>(&PARSER)).unwrap();
        assert_eq!(
            parser,
            serde_json::json!({ "parser": {
                "format": "pdf", "extensions": ["pdf", "x"],
                "signatures": [[37, 80, 68, 70, 45], [0, 255]], "textFallback": false } })
        );
        const CODE: CodeParserSpec = CodeParserSpec {
            languages: &[
                crate::code::LanguageSpec {
                    name: "ruby",
                    extensions: &["rb", "rake"],
                    file_names: &["Rakefile"],
                },
                crate::code::LanguageSpec {
                    name: "c#",
                    extensions: &["cs"],
                    file_names: &[],
                },
            ],
        };
        const CLEN: usize = code_parser_len(&CODE);
        let code: serde_json::Value =
            serde_json::from_slice(&code_parser_json::<CLEN>(&CODE)).unwrap();
        assert_eq!(
            code,
            serde_json::json!({ "codeParser": { "languages": [
                { "name": "ruby", "extensions": ["rb", "rake"], "fileNames": ["Rakefile"] },
                { "name": "c#", "extensions": ["cs"], "fileNames": [] } ] } })
        );
    }
}
