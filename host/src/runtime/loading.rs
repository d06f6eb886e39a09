//! Loading a plugin in two steps. Declaring it reads its bytes only: hash and pin, world and
//! imports (its header), grants, and its description when it declares one (`header`), in
//! milliseconds, so a server lists its tools at once. Compiling it (from the artifact cache
//! when it can) links it and asks it to describe itself, which must match what it declared;
//! that waits until a call needs the plugin, or a background thread gets to it. A plugin that
//! declares nothing is compiled when it is declared, as before.

use super::bindings::HostState;
use super::bindings::code::CodeParserPre;
use super::bindings::parser::FormatParserPre;
use super::bindings::pillar::EditingPillarPre;
use super::cache::{ComponentCache, Origin};
use super::header::{self, CodeDeclared, Declared as DeclaredSpec, ParserDeclared};
use super::plugins::{self, Candidate, Interface, Source, World};
use super::registry::Declared;
use super::{PluginInfo, ToolSpec, new_store};
use crate::config::{Config, Limits};
use std::borrow::Cow;
use std::collections::BTreeSet;
use std::sync::OnceLock;
use std::time::Instant;
use wasmtime::Engine;

/// Largest title + description a tool may declare.
const MAX_SPEC_TEXT_BYTES: usize = 16 * 1024;
/// Largest input + output schema a tool may declare.
const MAX_SPEC_SCHEMA_BYTES: usize = 256 * 1024;

/// What a plugin is to the host.
pub(super) enum Kind {
    Tool {
        spec: ToolSpec,
    },
    Parser {
        declared: Declared,
    },
    /// Its languages, names lower-cased and extensions without their dot.
    Code {
        declared: CodeDeclared,
    },
}

/// A compiled plugin, ready to instantiate per call.
pub(super) enum Ready {
    Tool(EditingPillarPre<HostState>),
    Parser(FormatParserPre<HostState>),
    Code(CodeParserPre<HostState>),
}

pub(super) struct Compiled {
    pub ready: Ready,
    pub origin: Origin,
    pub ms: f64,
}

/// A declared plugin, and its compiled form once there is one.
pub(super) struct Plugin {
    /// What `plugins` and `status` report, but the load (see `Runtime::plugins`).
    pub info: PluginInfo,
    pub kind: Kind,
    /// Granted [`plugins::SENSITIVE_GRANT`].
    pub reads_sensitive: bool,
    pub world: World,
    /// The host interfaces it imports and was granted: linked for real. What it imports
    /// without a grant answers ACCESS_DENIED (see `linking`).
    granted: BTreeSet<Interface>,
    /// Built for a newer 0.2 contract than the host's: what a failed link is explained by.
    newer_contract: Option<String>,
    bytes: Cow<'static, [u8]>,
    /// Compiled once: by the first call that needs it, or the background thread.
    pub compiled: OnceLock<Result<Compiled, String>>,
}

/// Declares `candidate`: refused with the reason when its pin, world, imports, grants or
/// declared description do not hold.
pub(super) fn declare(
    engine: &Engine,
    cache: &ComponentCache,
    config: &Config,
    candidate: &Candidate,
) -> Result<Plugin, String> {
    let bytes = candidate.source.read()?;
    let sha256 = match &candidate.source {
        Source::Embedded(_, sha256) => sha256.to_string(),
        _ => crate::config::sha256_hex(&bytes),
    };
    let policy = config.policy(&candidate.name);
    if let Some(pinned) = policy.and_then(|p| p.sha256.as_deref())
        && !pinned.eq_ignore_ascii_case(&sha256)
    {
        return Err(format!(
            "SHA-256 {sha256} does not match the pinned {pinned}; a changed binary is a new plugin"
        ));
    }
    let header = header::read(&bytes)?;
    let (world, imports) = plugins::classify(&header.imports, &header.exports)?;
    let grants: BTreeSet<Interface> = match &candidate.source {
        Source::Builtin(_) | Source::Embedded(..) => world.interfaces(),
        Source::Directory(_) => plugins::parse_grants(policy.map_or(&[][..], |p| &p.grants[..]))?,
    };
    // A pillar that may not edit is a read-only pillar, whatever its toolchain imported: it
    // gets no `tasks` either (a read-only tool clients may approve without asking runs no
    // command), so its world's interfaces bound what it is granted.
    let world = match world {
        World::EditingPillar if !grants.contains(&Interface::Edits) => World::Pillar,
        world => world,
    };
    let allowed = world.interfaces();
    let granted: BTreeSet<Interface> = imports
        .iter()
        .filter(|i| grants.contains(i) && allowed.contains(i))
        .copied()
        .collect();
    let denied: BTreeSet<Interface> = imports.difference(&granted).copied().collect();
    if !denied.is_empty() {
        tracing::info!(
            plugin = %candidate.name,
            "imports {} without a grant: its calls there answer ACCESS_DENIED",
            plugins::names(&denied)
        );
    }
    let reads_sensitive = match &candidate.source {
        Source::Builtin(_) | Source::Embedded(..) => candidate.name == "explore",
        Source::Directory(_) => {
            policy.is_some_and(|p| p.grants.iter().any(|g| g == plugins::SENSITIVE_GRANT))
        }
    };
    let info = PluginInfo {
        name: candidate.name.clone(),
        world: world.name().to_string(),
        sha256,
        grants: grants
            .iter()
            .filter(|g| allowed.contains(g))
            .map(|g| g.name().to_string())
            .chain(reads_sensitive.then(|| plugins::SENSITIVE_GRANT.to_string()))
            .collect(),
        denied: denied.iter().map(|g| g.name().to_string()).collect(),
        source: candidate.source.describe(),
        load: String::new(),
        load_ms: 0.0,
        tool: None,
        format: None,
        languages: Vec::new(),
        extensions: Vec::new(),
        text_fallback: false,
    };
    let mut plugin = Plugin {
        info,
        // Replaced below, once the description is known.
        kind: Kind::Parser {
            declared: parser_declared(&candidate.name, empty_parser()),
        },
        reads_sensitive,
        world,
        granted,
        newer_contract: plugins::newer_contract(
            &[header.imports.as_slice(), header.exports.as_slice()].concat(),
        ),
        bytes,
        compiled: OnceLock::new(),
    };
    let spec = match header.spec {
        Some(spec) => spec,
        // Nothing declared: compiled now, to ask it.
        None => {
            let (compiled, described) = compile(engine, cache, &config.limits, &plugin)?;
            let _ = plugin.compiled.set(Ok(compiled));
            described
        }
    };
    plugin.kind = match (spec, world) {
        (DeclaredSpec::Tool(spec), World::Pillar | World::EditingPillar) => {
            validate_spec(&spec)?;
            let spec = truthful_hints(spec, world);
            plugin.info.tool = match &candidate.source {
                Source::Builtin(_) | Source::Embedded(..) => Some(spec.name.clone()),
                Source::Directory(_) if policy.is_some_and(|p| p.enabled) => {
                    Some(format!("{}__{}", candidate.name, spec.name))
                }
                Source::Directory(_) => None,
            };
            Kind::Tool { spec }
        }
        (DeclaredSpec::Parser(parser), World::FormatParser) => {
            let declared = parser_declared(&candidate.name, parser);
            if declared.format.is_empty() {
                return Err("the parser declares no format name".to_string());
            }
            plugin.info.format = Some(declared.format.clone());
            plugin.info.extensions = declared.extensions.clone();
            plugin.info.text_fallback = declared.text_fallback;
            Kind::Parser { declared }
        }
        (DeclaredSpec::Code(code), World::CodeParser) => {
            let declared = code_declared(code)?;
            plugin.info.languages = declared.languages.iter().map(|l| l.name.clone()).collect();
            plugin.info.extensions = declared
                .languages
                .iter()
                .flat_map(|l| l.extensions.iter().cloned())
                .collect();
            Kind::Code { declared }
        }
        (spec, world) => {
            let what = match spec {
                DeclaredSpec::Tool(_) => "a tool's",
                DeclaredSpec::Parser(_) => "a format parser's",
                DeclaredSpec::Code(_) => "a code parser's",
            };
            return Err(format!(
                "a {} component that declares {what} description",
                world.name()
            ));
        }
    };
    Ok(plugin)
}

/// Compiles (or loads from the cache) and links `plugin`, and asks it to describe itself;
/// once declared, what it describes must be what it declared.
pub(super) fn compile_declared(
    engine: &Engine,
    cache: &ComponentCache,
    limits: &Limits,
    plugin: &Plugin,
) -> Result<Compiled, String> {
    let (compiled, described) = compile(engine, cache, limits, plugin)?;
    let same = match (&plugin.kind, &described) {
        (Kind::Tool { spec }, DeclaredSpec::Tool(d)) => {
            header::same_tool(spec, &truthful_hints(d.clone(), plugin.world))
        }
        (Kind::Code { declared }, DeclaredSpec::Code(d)) => {
            code_declared(d.clone()).is_ok_and(|d| &d == declared)
        }
        (Kind::Parser { declared }, DeclaredSpec::Parser(d)) => {
            let d = parser_declared(&plugin.info.name, d.clone());
            (&d.format, &d.extensions, &d.signatures, d.text_fallback)
                == (
                    &declared.format,
                    &declared.extensions,
                    &declared.signatures,
                    declared.text_fallback,
                )
        }
        _ => false,
    };
    if !same {
        return Err(
            "it describes itself differently from the description it declares; rebuild it"
                .to_string(),
        );
    }
    Ok(compiled)
}

fn compile(
    engine: &Engine,
    cache: &ComponentCache,
    limits: &Limits,
    plugin: &Plugin,
) -> Result<(Compiled, DeclaredSpec), String> {
    let started = Instant::now();
    let name = &plugin.info.name;
    let (component, origin) = cache
        .load_or_compile(engine, &plugin.bytes, &plugin.info.sha256)
        .map_err(|e| format!("{e:#}"))?;
    let link_error = |e: wasmtime::Error| match &plugin.newer_contract {
        Some(version) => format!(
            "linking: {e:#}; it was built for contract {version}, newer than this host's {}: upgrade smart-context, or build it against this host's wit/plugin.wit",
            plugins::CONTRACT_VERSION
        ),
        None => format!("linking: {e:#}"),
    };
    let linker =
        super::linking::linker(engine, &component, name, &plugin.granted).map_err(link_error)?;
    let pre = linker.instantiate_pre(&component).map_err(link_error)?;
    let mut store = new_store(engine, None, name, limits);
    let (ready, described) = match plugin.world {
        World::Pillar | World::EditingPillar => {
            let pre = EditingPillarPre::new(pre).map_err(|e| format!("{e:#}"))?;
            let spec = pre
                .instantiate(&mut store)
                .and_then(|i| i.smart_context_plugin_tool().call_describe(&mut store))
                .map_err(|e| format!("describe failed: {e:#}"))?;
            (Ready::Tool(pre), DeclaredSpec::Tool(spec))
        }
        World::FormatParser => {
            let pre = FormatParserPre::new(pre).map_err(|e| format!("{e:#}"))?;
            let spec = pre
                .instantiate(&mut store)
                .and_then(|i| i.smart_context_plugin_parser().call_describe(&mut store))
                .map_err(|e| format!("describe failed: {e:#}"))?;
            let spec = ParserDeclared {
                format: spec.format,
                extensions: spec.extensions,
                signatures: spec.signatures,
                text_fallback: spec.text_fallback,
            };
            (Ready::Parser(pre), DeclaredSpec::Parser(spec))
        }
        World::CodeParser => {
            let pre = CodeParserPre::new(pre).map_err(|e| format!("{e:#}"))?;
            let spec = pre
                .instantiate(&mut store)
                .and_then(|i| i.smart_context_plugin_language().call_describe(&mut store))
                .map_err(|e| format!("describe failed: {e:#}"))?;
            let languages = spec
                .languages
                .into_iter()
                .map(|l| header::LanguageDeclared {
                    name: l.name,
                    extensions: l.extensions,
                    file_names: l.file_names,
                })
                .collect();
            (
                Ready::Code(pre),
                DeclaredSpec::Code(CodeDeclared { languages }),
            )
        }
    };
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::debug!(plugin = %name, load = ?origin, ms, "compiled");
    Ok((Compiled { ready, origin, ms }, described))
}

/// Longest language name a code parser may declare.
const MAX_LANGUAGE_NAME: usize = 32;

/// A code parser's description as the registry keeps it: names and extensions lower-cased,
/// extensions without their dot; refused when it names no language or a name results could
/// not show.
fn code_declared(spec: CodeDeclared) -> Result<CodeDeclared, String> {
    if spec.languages.is_empty() {
        return Err("the code parser declares no language".to_string());
    }
    let languages = spec
        .languages
        .into_iter()
        .map(|l| {
            let name = l.name.trim().to_ascii_lowercase();
            let valid = !name.is_empty()
                && name.len() <= MAX_LANGUAGE_NAME
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '+' | '#'));
            if !valid {
                return Err(format!(
                    "language name {:?} must be 1-{MAX_LANGUAGE_NAME} of [a-z0-9_+#-]",
                    l.name
                ));
            }
            let extensions = l
                .extensions
                .into_iter()
                .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
                .filter(|e| !e.is_empty())
                .collect();
            let file_names = l
                .file_names
                .into_iter()
                .map(|f| f.trim().to_string())
                .filter(|f| !f.is_empty() && !f.contains('/'))
                .collect();
            Ok(header::LanguageDeclared {
                name,
                extensions,
                file_names,
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(CodeDeclared { languages })
}

fn empty_parser() -> ParserDeclared {
    ParserDeclared {
        format: String::new(),
        extensions: Vec::new(),
        signatures: Vec::new(),
        text_fallback: false,
    }
}

/// A parser's description as the registry keeps it: names lower-cased, extensions without
/// their dot.
fn parser_declared(plugin: &str, spec: ParserDeclared) -> Declared {
    Declared {
        plugin: plugin.to_string(),
        format: spec.format.trim().to_ascii_lowercase(),
        extensions: spec
            .extensions
            .into_iter()
            .map(|e| e.trim_start_matches('.').to_ascii_lowercase())
            .filter(|e| !e.is_empty())
            .collect(),
        signatures: spec.signatures,
        text_fallback: spec.text_fallback,
    }
}

/// The hints clients use to auto-approve calls follow from the world, not from the plugin's
/// word: a pillar cannot write, so it is read-only; an editing pillar is never read-only.
fn truthful_hints(mut spec: ToolSpec, world: World) -> ToolSpec {
    let read_only = world == World::Pillar;
    if spec.read_only != read_only {
        tracing::warn!(tool = %spec.name, "declared readOnly={} but its world makes it {read_only}", spec.read_only);
    }
    spec.read_only = read_only;
    if read_only {
        spec.destructive = false;
    }
    spec
}

/// MCP needs a usable name and JSON schemas; a plugin that cannot describe itself is refused.
fn validate_spec(spec: &ToolSpec) -> Result<(), String> {
    let valid_name = !spec.name.is_empty()
        && spec.name.len() <= 64
        && spec
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if !valid_name {
        return Err(format!(
            "tool name {:?} must be 1-64 of [A-Za-z0-9_-]",
            spec.name
        ));
    }
    // Every tools/list carries these to the agent: keep them to a sane size.
    let texts = spec.title.len() + spec.description.len();
    let schemas = spec.input_schema.len() + spec.output_schema.as_ref().map_or(0, String::len);
    if texts > MAX_SPEC_TEXT_BYTES || schemas > MAX_SPEC_SCHEMA_BYTES {
        return Err(format!(
            "tool {} describes itself in {texts} bytes of text and {schemas} of schema (limits {MAX_SPEC_TEXT_BYTES} and {MAX_SPEC_SCHEMA_BYTES})",
            spec.name
        ));
    }
    for (what, schema) in [
        ("input", Some(&spec.input_schema)),
        ("output", spec.output_schema.as_ref()),
    ] {
        if let Some(schema) = schema {
            match serde_json::from_str::<serde_json::Value>(schema) {
                Ok(serde_json::Value::Object(_)) => {}
                _ => {
                    return Err(format!(
                        "{what} schema of {} is not a JSON object",
                        spec.name
                    ));
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, input: &str) -> ToolSpec {
        ToolSpec {
            name: name.into(),
            title: String::new(),
            description: String::new(),
            input_schema: input.into(),
            output_schema: None,
            read_only: true,
            destructive: false,
            idempotent: true,
        }
    }

    #[test]
    fn hints_follow_the_world() {
        let mut lying = spec("x", "{}");
        lying.destructive = true;
        let pillar = truthful_hints(lying.clone(), World::Pillar);
        assert!(pillar.read_only && !pillar.destructive);
        let editing = truthful_hints(lying, World::EditingPillar);
        assert!(!editing.read_only && editing.destructive);
    }

    #[test]
    fn a_code_parser_names_its_languages_plainly() {
        let language = |name: &str, ext: &str| header::LanguageDeclared {
            name: name.into(),
            extensions: vec![ext.into()],
            file_names: vec!["Rakefile".into(), "../x".into()],
        };
        let declared = code_declared(CodeDeclared {
            languages: vec![language(" Ruby ", ".RB"), language("c#", "cs")],
        })
        .unwrap();
        assert_eq!(declared.languages[0].name, "ruby");
        assert_eq!(declared.languages[0].extensions, ["rb"]);
        assert_eq!(declared.languages[0].file_names, ["Rakefile"]);
        assert_eq!(declared.languages[1].name, "c#");
        assert!(code_declared(CodeDeclared { languages: vec![] }).is_err());
        for bad in ["", "ruby lang", "a/b", &"x".repeat(33)] {
            let spec = CodeDeclared {
                languages: vec![language(bad, "rb")],
            };
            assert!(code_declared(spec).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn specs_need_names_and_object_schemas() {
        assert!(validate_spec(&spec("explore", "{}")).is_ok());
        assert!(validate_spec(&spec("bad name", "{}")).is_err());
        assert!(validate_spec(&spec("x", "[]")).is_err());
        assert!(validate_spec(&spec("x", "not json")).is_err());
        let mut verbose = spec("x", "{}");
        verbose.description = "x".repeat(MAX_SPEC_TEXT_BYTES + 1);
        assert!(validate_spec(&verbose).is_err());
    }
}
