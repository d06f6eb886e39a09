//! What a component says about itself before it is compiled, read from its bytes in one pass:
//! the names it imports and exports at its top level (its world, the interfaces it needs) and
//! the description it declares in the `smart-context:spec` custom section (the plugin SDK's
//! `sdk::spec`). With them a plugin is checked, granted and listed in milliseconds; compiling
//! it (up to a second for a large component on two cores) waits until it is first needed, or
//! for a background thread.

use super::bindings::pillar::exports::smart_context::plugin::tool::ToolSpec;
use serde::Deserialize;
use wasmtime::wasmparser::{Parser, Payload};

/// The custom section a plugin declares its description in.
pub const SPEC_SECTION: &str = "smart-context:spec";
/// The largest declared description read.
const MAX_SPEC_BYTES: usize = 512 * 1024;

/// A component's top-level imports and exports, and its declared description.
#[derive(Debug, Default)]
pub struct Header {
    pub imports: Vec<String>,
    pub exports: Vec<String>,
    pub spec: Option<Declared>,
}

/// A description as declared: a tool's, a format parser's or a code parser's.
#[derive(Debug, Clone)]
pub enum Declared {
    Tool(ToolSpec),
    Parser(ParserDeclared),
    Code(CodeDeclared),
}

/// What a parser declares (the WIT `parser-spec`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParserDeclared {
    pub format: String,
    pub extensions: Vec<String>,
    pub signatures: Vec<Vec<u8>>,
    pub text_fallback: bool,
}

/// What a code parser declares (the WIT `code-parser-spec`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodeDeclared {
    pub languages: Vec<LanguageDeclared>,
}

/// One language of a code parser (the WIT `language-spec`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LanguageDeclared {
    pub name: String,
    pub extensions: Vec<String>,
    pub file_names: Vec<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
enum SpecJson {
    Tool(ToolJson),
    Parser(ParserDeclared),
    CodeParser(CodeDeclared),
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct ToolJson {
    name: String,
    title: String,
    description: String,
    input_schema: serde_json::Value,
    output_schema: Option<serde_json::Value>,
    read_only: bool,
    destructive: bool,
    idempotent: bool,
}

/// Reads the header of the component in `bytes`. A malformed component, or a declared
/// description that is not what the SDK writes, is refused with the reason.
pub fn read(bytes: &[u8]) -> Result<Header, String> {
    let mut header = Header::default();
    // Depth 1 is the component itself; nested components and core modules go deeper.
    let mut depth = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(|e| format!("not a valid component: {e}"))?;
        match payload {
            Payload::Version { .. } => depth += 1,
            Payload::End(_) => depth = depth.saturating_sub(1),
            Payload::ComponentImportSection(reader) if depth == 1 => {
                for import in reader {
                    let import = import.map_err(|e| format!("reading its imports: {e}"))?;
                    header.imports.push(import.name.name.to_string());
                }
            }
            Payload::ComponentExportSection(reader) if depth == 1 => {
                for export in reader {
                    let export = export.map_err(|e| format!("reading its exports: {e}"))?;
                    header.exports.push(export.name.name.to_string());
                }
            }
            Payload::CustomSection(section) if section.name() == SPEC_SECTION => {
                if header.spec.is_some() {
                    return Err(format!("it declares {SPEC_SECTION} twice"));
                }
                header.spec = Some(declared(section.data())?);
            }
            _ => {}
        }
    }
    Ok(header)
}

fn declared(data: &[u8]) -> Result<Declared, String> {
    if data.len() > MAX_SPEC_BYTES {
        return Err(format!(
            "its {SPEC_SECTION} section is {} bytes (at most {MAX_SPEC_BYTES})",
            data.len()
        ));
    }
    let spec: SpecJson = serde_json::from_slice(data)
        .map_err(|e| format!("its {SPEC_SECTION} section does not parse: {e}"))?;
    Ok(match spec {
        SpecJson::Parser(p) => Declared::Parser(p),
        SpecJson::CodeParser(c) => Declared::Code(c),
        SpecJson::Tool(t) => Declared::Tool(ToolSpec {
            name: t.name,
            title: t.title,
            description: t.description,
            input_schema: t.input_schema.to_string(),
            output_schema: t.output_schema.map(|s| s.to_string()),
            read_only: t.read_only,
            destructive: t.destructive,
            idempotent: t.idempotent,
        }),
    })
}

/// Whether a compiled component describes itself as it declared: the same texts and flags,
/// and schemas equal as JSON (the declared ones were re-serialized).
pub fn same_tool(declared: &ToolSpec, described: &ToolSpec) -> bool {
    let json = |s: &str| serde_json::from_str::<serde_json::Value>(s).ok();
    declared.name == described.name
        && declared.title == described.title
        && declared.description == described.description
        && json(&declared.input_schema) == json(&described.input_schema)
        && declared.output_schema.as_deref().map(json)
            == described.output_schema.as_deref().map(json)
        && declared.read_only == described.read_only
        && declared.destructive == described.destructive
        && declared.idempotent == described.idempotent
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every built-in plugin declares its description, and its world reads from its header.
    #[test]
    fn the_built_in_plugins_declare_their_descriptions() {
        let Some(dir) = option_env!("SMART_CONTEXT_BUILTIN_PLUGINS") else {
            return;
        };
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "wasm") {
                continue;
            }
            let header = read(&std::fs::read(&path).unwrap()).unwrap();
            use super::super::plugins::World;
            let (world, _) = super::super::plugins::classify(&header.imports, &header.exports)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            match header.spec {
                Some(Declared::Tool(_)) => assert!(world.is_tool(), "{}", path.display()),
                Some(Declared::Parser(_)) => assert_eq!(world, World::FormatParser),
                Some(Declared::Code(_)) => assert_eq!(world, World::CodeParser),
                None => panic!("{} declares no description", path.display()),
            }
            seen += 1;
        }
        assert_eq!(seen, 17);
    }

    #[test]
    fn a_damaged_declaration_is_refused() {
        assert!(declared(br#"{"tool": {"name": "x"}}"#).is_err());
        assert!(declared(b"not json").is_err());
        assert!(read(b"\0asm garbage").is_err());
    }
}
