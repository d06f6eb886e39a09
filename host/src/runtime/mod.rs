//! The plugin runtime: loads every component at startup (from the compiled cache when it can),
//! checks its imports against its world and grants, and runs each call in a fresh instance
//! with a memory cap, an epoch deadline and a cap on the result's size. A plugin that traps,
//! loops or allocates without bound costs its own call and nothing else.

pub mod bindings;
pub mod cache;
pub mod engine;
mod host_functions;
mod memory_functions;
pub mod plugins;
mod registry;

use crate::config::{Config, Limits};
use crate::error::{HostError, HostResult, codes};
use crate::services::Services;
use crate::workspace::secrets;
use anyhow::Result;
use bindings::parser::FormatParserPre;
use bindings::pillar::EditingPillarPre;
use bindings::pillar::exports::smart_context::plugin::tool::ToolSpec;
use bindings::pillar::smart_context::plugin::types::Document;
use bindings::{HostState, pillar};
use cache::{ComponentCache, Origin};
use plugins::{Candidate, Interface, Source, World};
use registry::{Declared, Registry};
use serde::Serialize;
use sha2::Digest;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use wasmtime::component::{HasSelf, Linker};
use wasmtime::{Engine, Store, Trap};

pub use host_functions::from_wit;

/// Largest title + description a tool may declare.
const MAX_SPEC_TEXT_BYTES: usize = 16 * 1024;
/// Largest input + output schema a tool may declare.
const MAX_SPEC_SCHEMA_BYTES: usize = 256 * 1024;

/// Largest document a parser is handed.
const MAX_DOCUMENT_BYTES: u64 = 32 << 20;

/// What `plugins` and `status` report about a loaded plugin.
#[derive(Debug, Clone, Serialize)]
pub struct PluginInfo {
    pub name: String,
    pub world: String,
    pub sha256: String,
    pub grants: Vec<String>,
    pub source: String,
    /// "compiled" or "cached".
    pub load: String,
    pub load_ms: f64,
    /// The MCP tool name, for tool plugins exposed over MCP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// The document kind a parser produces.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
    /// File extensions, for parsers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
    /// A parser reads text files no other parser claims.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub text_fallback: bool,
}

/// A plugin that could not be loaded, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Rejected {
    pub name: String,
    pub source: String,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreStatus {
    pub path: String,
    pub schema_version: u32,
    pub transactions: u64,
    pub pending_transactions: u64,
    pub last_transaction_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StatusReport {
    pub root: String,
    pub version: String,
    pub plugins: Vec<PluginInfo>,
    pub rejected: Vec<Rejected>,
    pub store: StoreStatus,
}

/// A tool as MCP lists it.
#[derive(Debug, Clone)]
pub struct ToolDescription {
    pub name: String,
    pub spec: ToolSpec,
}

/// A successful tool call: the structured result and its compact text rendering.
#[derive(Debug, Clone)]
pub struct ToolOutput {
    pub structured: serde_json::Value,
    pub text: String,
}

impl ToolOutput {
    /// The plugin answered, but with `success: false` (explore's invalid_args, blocked, ...):
    /// to the client this is a failure like any error.
    pub fn is_failure(&self) -> bool {
        self.structured.get("success") == Some(&serde_json::Value::Bool(false))
    }
}

enum Kind {
    Tool {
        pre: EditingPillarPre<HostState>,
        spec: ToolSpec,
    },
    Parser {
        pre: FormatParserPre<HostState>,
        declared: Declared,
    },
}

struct Plugin {
    info: PluginInfo,
    kind: Kind,
    /// Granted [`plugins::SENSITIVE_GRANT`].
    reads_sensitive: bool,
}

pub struct Runtime {
    engine: Engine,
    services: Arc<Services>,
    plugins: Vec<Plugin>,
    /// Parsers by extension and signature; indexes into `plugins`.
    registry: Registry,
    rejected: Vec<Rejected>,
    limits: Limits,
    _ticker: engine::EpochTicker,
}

impl Runtime {
    /// Loads the built-in plugins from `builtin_dir` and the operator's plugin directories.
    /// A plugin that fails to load is logged and listed as rejected; the rest carry on.
    pub fn load(services: Arc<Services>, builtins: &plugins::Builtins) -> Result<Arc<Self>> {
        let config = &services.config;
        let limits = config.limits.clone();
        let engine = engine::build(&limits)?;
        let ticker = engine::EpochTicker::start(&engine);
        let cache = ComponentCache::open(&config.cache_dir(), &engine);
        let mut plugins: Vec<Plugin> = Vec::new();
        let mut rejected = Vec::new();
        for candidate in plugins::discover(builtins, &config.plugin_dirs()) {
            let outcome = if plugins.iter().any(|p| p.info.name == candidate.name) {
                Err(format!(
                    "a plugin named {} is already loaded",
                    candidate.name
                ))
            } else {
                prepare(&engine, &cache, config, &candidate)
            };
            match outcome {
                Ok(plugin) => plugins.push(plugin),
                Err(reason) => {
                    tracing::warn!(plugin = %candidate.name, "not loaded: {reason}");
                    rejected.push(Rejected {
                        name: candidate.name.clone(),
                        source: candidate.source.describe(),
                        reason,
                    });
                }
            }
        }
        let mut registry = Registry::default();
        for (i, plugin) in plugins.iter().enumerate() {
            if let Kind::Parser { declared, .. } = &plugin.kind {
                registry.add(i, declared);
            }
        }
        Ok(Arc::new(Self {
            engine,
            services,
            plugins,
            registry,
            rejected,
            limits,
            _ticker: ticker,
        }))
    }

    pub fn services(&self) -> &Arc<Services> {
        &self.services
    }

    pub fn plugins(&self) -> Vec<PluginInfo> {
        self.plugins.iter().map(|p| p.info.clone()).collect()
    }

    pub fn rejected(&self) -> &[Rejected] {
        &self.rejected
    }

    /// The tools exposed over MCP: the five pillars in their canonical order, then enabled
    /// third-party tools by name.
    pub fn tools(&self) -> Vec<ToolDescription> {
        const ORDER: [&str; 5] = ["explore", "understand", "change", "write", "manage"];
        let mut tools: Vec<ToolDescription> = self
            .plugins
            .iter()
            .filter_map(|p| match (&p.kind, &p.info.tool) {
                (Kind::Tool { spec, .. }, Some(name)) => Some(ToolDescription {
                    name: name.clone(),
                    spec: spec.clone(),
                }),
                _ => None,
            })
            .collect();
        tools.sort_by_key(|t| {
            (
                ORDER
                    .iter()
                    .position(|n| *n == t.name)
                    .unwrap_or(ORDER.len()),
                t.name.clone(),
            )
        });
        tools
    }

    pub fn status(&self) -> StatusReport {
        let store = self.services.store();
        StatusReport {
            root: self.services.workspace.root().display().to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            plugins: self.plugins(),
            rejected: self.rejected.clone(),
            store: StoreStatus {
                path: store.path().display().to_string(),
                schema_version: store.schema_version().unwrap_or(0),
                transactions: store.transaction_count().unwrap_or(0),
                pending_transactions: store.pending_count().unwrap_or(0),
                last_transaction_ms: store
                    .history(1, 0)
                    .ok()
                    .and_then(|h| h.first().map(|(tx, _)| tx.created_ms))
                    .unwrap_or(0),
            },
        }
    }

    /// Calls the tool exposed as `name` in a fresh instance.
    pub fn call_tool(self: &Arc<Self>, name: &str, args_json: &str) -> HostResult<ToolOutput> {
        self.call_tool_with(name, args_json, &crate::tasks::Control::new())
    }

    /// [`Runtime::call_tool`] for a caller that may cancel and wants progress: the plugin is
    /// stopped within one deadline slice of a cancel, and long host jobs (rebuild, tests)
    /// stop and report through `control`.
    pub fn call_tool_with(
        self: &Arc<Self>,
        name: &str,
        args_json: &str,
        control: &crate::tasks::Control,
    ) -> HostResult<ToolOutput> {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.run_tool(name, args_json, control)
        }))
        .unwrap_or_else(|panic| Err(panicked(name, args_json, panic.as_ref())));
        if !matches!(&outcome, Err(e) if e.code == codes::UNKNOWN_TOOL) {
            self.services
                .memory
                .record_call(name, args_json, outcome.as_ref());
        }
        outcome
    }

    fn run_tool(
        self: &Arc<Self>,
        name: &str,
        args_json: &str,
        control: &crate::tasks::Control,
    ) -> HostResult<ToolOutput> {
        let plugin = self
            .plugins
            .iter()
            .find(|p| p.info.tool.as_deref() == Some(name))
            .ok_or_else(|| HostError::new(codes::UNKNOWN_TOOL, format!("no tool named {name}")))?;
        let Kind::Tool { pre, .. } = &plugin.kind else {
            unreachable!("tool names belong to tools")
        };
        let started = Instant::now();
        let mut store = self.store(&plugin.info.name);
        store.data_mut().may_read_sensitive = plugin.reads_sensitive && agent_opted_in(args_json);
        store.data_mut().control = control.clone();
        let result = pre
            .instantiate(&mut store)
            .map_err(|e| instantiate_failure(&plugin.info.name, e))
            .and_then(|instance| {
                instance
                    .smart_context_plugin_tool()
                    .call_call(&mut store, args_json)
                    .map_err(|e| call_failure(&plugin.info.name, e, &store, self.limits.timeout_ms))
            });
        // Host functions run outside the epoch's reach: a call whose wall time went past the
        // deadline (beyond the excused long jobs) never answers success.
        let budget = self.limits.timeout_ms + store.data().excused_total_ms;
        let elapsed = started.elapsed().as_millis() as u64;
        if elapsed > budget {
            return Err(guard_error(HostError::new(
                codes::DEADLINE_EXCEEDED,
                format!(
                    "{name} took {elapsed} ms, past its {} ms deadline; the answer was dropped",
                    self.limits.timeout_ms
                ),
            )
            .suggest("narrow the request (a shorter query, fewer paths); the operator can raise limits.timeout_ms")));
        }
        let output = result
            .and_then(|r| r.map_err(from_wit))
            .map_err(guard_error)?;
        let size = output.structured_json.len() + output.text.len();
        if size as u64 > self.limits.max_result_bytes {
            return Err(HostError::new(
                codes::RESULT_TOO_LARGE,
                format!(
                    "{name} returned {size} bytes, over the host's cap of {}",
                    self.limits.max_result_bytes
                ),
            )
            .suggest("ask for less: lower limits, narrower paths, or preview views"));
        }
        let structured: serde_json::Value =
            serde_json::from_str(&output.structured_json).map_err(|e| {
                HostError::new(
                    codes::INTERNAL,
                    format!("{name} returned invalid JSON: {e}"),
                )
            })?;
        if !structured.is_object() {
            return Err(HostError::new(
                codes::INTERNAL,
                format!("{name} returned a non-object result"),
            ));
        }
        Ok(guard_output(ToolOutput {
            structured,
            text: output.text,
        }))
    }

    /// Reads `path` and parses it with the parser its extension or signature selects.
    /// NO_PARSER for anything else: the text fallback is for indexing, so a source file still
    /// reads as a file.
    pub fn parse_document(&self, path: &str) -> HostResult<Document> {
        let rel = self.services.workspace.normalize(path)?;
        let read = |max_bytes: u64, allow_truncate: bool| {
            let options = crate::workspace::ReadOptions {
                max_bytes,
                allow_sensitive: false,
                allow_binary: true,
                allow_truncate,
            };
            self.services.workspace.read(&rel, options)
        };
        // Only a claim by extension or a registered signature is worth reading the file for.
        if self.registry.claim(&rel, b"").is_none() && !self.registry.has_signatures() {
            return Err(no_parser(&rel));
        }
        let file = read(MAX_DOCUMENT_BYTES, false)?;
        let head = &file.bytes[..file.bytes.len().min(HEAD_BYTES as usize)];
        let Some((index, _)) = self.registry.claim(&rel, head) else {
            return Err(no_parser(&rel));
        };
        self.run_parser(index, &rel, &file.bytes).0
    }

    /// What the parser registered for `path`'s extension declared (the text fallback's own
    /// extensions included), None for names no parser takes. Reads nothing.
    pub fn document_format(&self, path: &str) -> Option<&Declared> {
        let (index, _) = self.registry.claim(path, b"")?;
        match &self.plugins[index].kind {
            Kind::Parser { declared, .. } => Some(declared),
            Kind::Tool { .. } => None,
        }
    }

    /// Parses `bytes` (the content of `path`) with the parser its extension or signature
    /// selects, or the text fallback for unclaimed text.
    pub fn parse_bytes(&self, path: &str, bytes: &[u8]) -> HostResult<Document> {
        self.parse_bytes_measured(path, bytes).0
    }

    /// [`parse_bytes`](Self::parse_bytes), with the peak linear memory the parse used (bytes),
    /// for benchmarks and robustness checks against the memory cap.
    pub fn parse_bytes_measured(&self, path: &str, bytes: &[u8]) -> (HostResult<Document>, usize) {
        let head = &bytes[..bytes.len().min(HEAD_BYTES as usize)];
        match self.registry.route(path, head) {
            Some((index, _)) => self.run_parser(index, path, bytes),
            None => (Err(no_parser(path)), 0),
        }
    }

    /// One parse in a fresh instance of parser `index`, and its peak memory. Parsers import
    /// nothing but log, so the instance gets no host services.
    fn run_parser(&self, index: usize, path: &str, bytes: &[u8]) -> (HostResult<Document>, usize) {
        let plugin = &self.plugins[index];
        let Kind::Parser { pre, .. } = &plugin.kind else {
            unreachable!("the registry holds parsers only")
        };
        let content = blake3::hash(bytes).to_hex();
        let index = &self.services.index;
        if let Some(failure) = index.parser_failure(&plugin.info.sha256, &content) {
            return (Err(remembered(path, failure)), 0);
        }
        let (result, peak) = self.run_parser_once(plugin, pre, path, bytes);
        if let Err(err) = &result
            && !matches!(err.code.as_str(), codes::BUSY | codes::CANCELLED)
        {
            let failure = crate::index::catalog::ParserFailure {
                plugin: plugin.info.name.clone(),
                code: err.code.clone(),
                message: err.message.clone(),
            };
            index.remember_parser_failure(&plugin.info.sha256, &content, &failure);
        }
        (result, peak)
    }

    fn run_parser_once(
        &self,
        plugin: &Plugin,
        pre: &FormatParserPre<HostState>,
        path: &str,
        bytes: &[u8],
    ) -> (HostResult<Document>, usize) {
        let mut store = new_store(&self.engine, None, &plugin.info.name, &self.limits);
        let result = pre
            .instantiate(&mut store)
            .map_err(|e| instantiate_failure(&plugin.info.name, e))
            .and_then(|instance| {
                instance
                    .smart_context_plugin_parser()
                    .call_parse(&mut store, bytes, path)
                    .map_err(|e| call_failure(&plugin.info.name, e, &store, self.limits.timeout_ms))
            })
            .and_then(|r| r.map_err(from_wit));
        (result, store.data().limiter.peak)
    }

    /// The memory cap of one plugin instance, in bytes.
    pub fn memory_cap(&self) -> usize {
        engine::memory_cap_bytes(&self.limits)
    }

    /// A store for one call: fresh state, memory limiter, and the call's deadline.
    fn store(self: &Arc<Self>, plugin: &str) -> Store<HostState> {
        new_store(&self.engine, Some(self.clone()), plugin, &self.limits)
    }
}

/// The answer for a content a parser failed on before: the plugin, its error, and the ways
/// to have it tried again.
fn remembered(path: &str, failure: crate::index::catalog::ParserFailure) -> HostError {
    HostError::new(
        &failure.code,
        format!(
            "the {} parser failed on this content of {path} before ({}: {}); it is not run on it again",
            failure.plugin, failure.code, failure.message
        ),
    )
    .suggest(
        "to have it tried again: change the file, update the plugin, or rebuild the index in full (manage command=rebuild scope=full, or `smart-context index --full`)",
    )
    .details(serde_json::json!({ "plugin": failure.plugin, "remembered": true }))
}

/// A call that panicked in the host (a bug): logged with the call, answered as INTERNAL with
/// the way forward. Every lock the call held recovers from poisoning and its plugin instance
/// is dropped, so the next call starts clean.
fn panicked(name: &str, args_json: &str, panic: &(dyn std::any::Any + Send)) -> HostError {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "no message".to_string());
    let (args, _) = secrets::redact(args_json);
    tracing::error!(
        tool = name,
        args = %crate::index::clip(&args, 300),
        "the call panicked: {what}"
    );
    HostError::new(
        codes::INTERNAL,
        format!("{name} stopped on an internal error (a bug in smart-context): {what}"),
    )
    .suggest(
        "retry the call; if it fails the same way, rebuild the index (manage command=rebuild \
         scope=full, or `smart-context index --full`) and report the error with the server log",
    )
}

/// The agent's opt-in to sensitive reads: `allowSensitive: true` among the call's arguments
/// (ADR-040's name for it). Whatever a plugin passes to the host, this decides.
fn agent_opted_in(args_json: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct OptIn {
        #[serde(default, rename = "allowSensitive")]
        allow_sensitive: bool,
    }
    serde_json::from_str::<OptIn>(args_json).is_ok_and(|o| o.allow_sensitive)
}

/// Everything a tool returns passes the secret guard: secret-looking values are redacted in
/// the structured result and the text, and the text says how many were.
fn guard_output(mut output: ToolOutput) -> ToolOutput {
    let mut hidden = secrets::redact_json(&mut output.structured);
    let (text, n) = secrets::redact(&output.text);
    hidden += n;
    if n > 0 {
        output.text = text.into_owned();
    }
    if hidden > 0 {
        output.text.push_str(&format!(
            "\n[secret guard: {hidden} secret-looking value(s) redacted as {}...]]",
            secrets::MARKER
        ));
    }
    output
}

/// Errors pass the secret guard too: messages, suggestions and details (diffs, candidates).
fn guard_error(mut err: HostError) -> HostError {
    let (message, _) = secrets::redact(&err.message);
    err.message = message.into_owned();
    if let Some(s) = &err.suggestion {
        err.suggestion = Some(secrets::redact(s).0.into_owned());
    }
    if let Some(details) = err.details.as_mut() {
        secrets::redact_json(details);
    }
    err
}

/// Bytes enough to recognise a format by its signature.
const HEAD_BYTES: u64 = 1024;

fn no_parser(path: &str) -> HostError {
    let ext = crate::workspace::policy::extension(path).unwrap_or_default();
    HostError::new(
        codes::NO_PARSER,
        format!("no document parser handles {path} (.{ext})"),
    )
    .suggest("read it as a file instead (view preview or full)")
}

/// The index parses documents through the format-parser components.
impl crate::index::DocumentParsers for Runtime {
    fn claims(&self, path: &str, head: &[u8]) -> Option<String> {
        self.registry
            .claim(path, head)
            .and_then(|(i, _)| self.plugins[i].info.format.clone())
    }

    fn has_text_fallback(&self) -> bool {
        self.registry.has_fallback()
    }

    fn parse(&self, path: &str, bytes: &[u8]) -> HostResult<crate::index::documents::Document> {
        Ok(self.parse_bytes(path, bytes)?.into())
    }
}

fn new_store(
    engine: &Engine,
    runtime: Option<Arc<Runtime>>,
    plugin: &str,
    limits: &Limits,
) -> Store<HostState> {
    let state = HostState::new(runtime, plugin.into(), engine::memory_cap_bytes(limits));
    let mut store = Store::new(engine, state);
    store.limiter(|s| &mut s.limiter);
    let total = engine::deadline_ticks(limits.timeout_ms);
    let first = total.min(engine::SLICE_TICKS);
    store.data_mut().ticks_left = total - first;
    store.set_epoch_deadline(first);
    store.epoch_deadline_callback(|mut ctx| {
        let state = ctx.data_mut();
        if state.control.is_cancelled() {
            return Err(Trap::Interrupt.into());
        }
        let excused = std::mem::take(&mut state.excused_ms);
        if excused > 0 {
            state.ticks_left += engine::deadline_ticks(excused);
        }
        if state.ticks_left == 0 {
            return Err(Trap::Interrupt.into());
        }
        let slice = state.ticks_left.min(engine::SLICE_TICKS);
        state.ticks_left -= slice;
        Ok(wasmtime::UpdateDeadline::Continue(slice))
    });
    store
}

/// Compiles (or loads from cache), classifies, checks grants, links and describes a plugin.
fn prepare(
    engine: &Engine,
    cache: &ComponentCache,
    config: &Config,
    candidate: &Candidate,
) -> Result<Plugin, String> {
    let started = Instant::now();
    let bytes = candidate.source.read()?;
    let sha256 = hex(&sha2::Sha256::digest(&bytes));
    let policy = config.policy(&candidate.name);
    if let Some(pinned) = policy.and_then(|p| p.sha256.as_deref())
        && !pinned.eq_ignore_ascii_case(&sha256)
    {
        return Err(format!(
            "SHA-256 {sha256} does not match the pinned {pinned}; a changed binary is a new plugin"
        ));
    }
    let (component, origin) = cache
        .load_or_compile(engine, &bytes, &sha256)
        .map_err(|e| format!("{e:#}"))?;
    let (world, imports) = plugins::classify(&component, engine)?;
    let grants: BTreeSet<Interface> = match &candidate.source {
        Source::Builtin(_) | Source::Embedded(_) => world.interfaces(),
        Source::Directory(_) => plugins::parse_grants(policy.map_or(&[][..], |p| &p.grants[..]))?,
    };
    plugins::check_grants(&imports, &grants)?;
    let reads_sensitive = match &candidate.source {
        Source::Builtin(_) | Source::Embedded(_) => candidate.name == "explore",
        Source::Directory(_) => {
            policy.is_some_and(|p| p.grants.iter().any(|g| g == plugins::SENSITIVE_GRANT))
        }
    };
    let linker = linker(engine, &imports).map_err(|e| format!("linking: {e:#}"))?;
    let pre = linker
        .instantiate_pre(&component)
        .map_err(|e| format!("linking: {e:#}"))?;
    let mut info = PluginInfo {
        name: candidate.name.clone(),
        world: world.name().to_string(),
        sha256,
        grants: grants
            .iter()
            .map(|g| g.name().to_string())
            .chain(reads_sensitive.then(|| plugins::SENSITIVE_GRANT.to_string()))
            .collect(),
        source: candidate.source.describe(),
        load: match origin {
            Origin::Compiled => "compiled",
            Origin::Cached => "cached",
        }
        .to_string(),
        load_ms: 0.0,
        tool: None,
        format: None,
        extensions: Vec::new(),
        text_fallback: false,
    };
    let mut store = new_store(engine, None, &candidate.name, &config.limits);
    let kind = if world.is_tool() {
        let pre = EditingPillarPre::new(pre).map_err(|e| format!("{e:#}"))?;
        let spec = pre
            .instantiate(&mut store)
            .and_then(|i| i.smart_context_plugin_tool().call_describe(&mut store))
            .map_err(|e| format!("describe failed: {e:#}"))?;
        validate_spec(&spec)?;
        let spec = truthful_hints(spec, world);
        info.tool = match &candidate.source {
            Source::Builtin(_) | Source::Embedded(_) => Some(spec.name.clone()),
            Source::Directory(_) if policy.is_some_and(|p| p.enabled) => {
                Some(format!("{}__{}", candidate.name, spec.name))
            }
            Source::Directory(_) => None,
        };
        Kind::Tool { pre, spec }
    } else {
        let pre = FormatParserPre::new(pre).map_err(|e| format!("{e:#}"))?;
        let spec = pre
            .instantiate(&mut store)
            .and_then(|i| i.smart_context_plugin_parser().call_describe(&mut store))
            .map_err(|e| format!("describe failed: {e:#}"))?;
        let declared = Declared {
            plugin: candidate.name.clone(),
            format: spec.format.trim().to_ascii_lowercase(),
            extensions: spec
                .extensions
                .into_iter()
                .map(|e| e.trim_start_matches('.').to_ascii_lowercase())
                .filter(|e| !e.is_empty())
                .collect(),
            signatures: spec.signatures,
            text_fallback: spec.text_fallback,
        };
        if declared.format.is_empty() {
            return Err("the parser declares no format name".to_string());
        }
        info.format = Some(declared.format.clone());
        info.extensions = declared.extensions.clone();
        info.text_fallback = declared.text_fallback;
        Kind::Parser { pre, declared }
    };
    info.load_ms = started.elapsed().as_secs_f64() * 1000.0;
    tracing::debug!(plugin = %info.name, world = %info.world, load = %info.load, ms = info.load_ms, "loaded");
    Ok(Plugin {
        info,
        kind,
        reads_sensitive,
    })
}

/// A linker with WASI (over an empty context) and exactly the host interfaces `imports` names.
fn linker(engine: &Engine, imports: &BTreeSet<Interface>) -> wasmtime::Result<Linker<HostState>> {
    use pillar::smart_context::plugin as wit;
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    wit::types::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?;
    for interface in imports {
        match interface {
            Interface::Log => wit::log::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?,
            Interface::Workspace => {
                wit::workspace::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?
            }
            Interface::Index => wit::index::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?,
            Interface::Status => wit::status::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?,
            Interface::Store => wit::store::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?,
            Interface::Memory => wit::memory::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?,
            Interface::Edits => wit::edits::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?,
            Interface::Tasks => wit::tasks::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?,
        }
    }
    Ok(linker)
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

fn instantiate_failure(plugin: &str, err: wasmtime::Error) -> HostError {
    if err
        .downcast_ref::<wasmtime::PoolConcurrencyLimitError>()
        .is_some()
    {
        return HostError::new(
            codes::BUSY,
            format!("{plugin}: every plugin instance slot is in use"),
        )
        .suggest("retry shortly; the operator can raise limits.max_instances");
    }
    HostError::new(
        codes::PLUGIN_TRAPPED,
        format!("{plugin} failed to instantiate: {err:#}"),
    )
}

/// Names why a call stopped: its deadline, its memory cap, or a trap in the plugin.
fn call_failure(
    plugin: &str,
    err: wasmtime::Error,
    store: &Store<HostState>,
    timeout_ms: u64,
) -> HostError {
    if store.data().limiter.hit {
        return HostError::new(
            codes::MEMORY_LIMIT,
            format!("{plugin} went past its memory cap and was stopped"),
        )
        .suggest(
            "ask for less (smaller limits or files); the operator can raise limits.memory_mib",
        );
    }
    if err.downcast_ref::<Trap>() == Some(&Trap::Interrupt) && store.data().control.is_cancelled() {
        return HostError::new(
            codes::CANCELLED,
            format!("{plugin} was stopped: the client cancelled the call"),
        );
    }
    if err.downcast_ref::<Trap>() == Some(&Trap::Interrupt) {
        return HostError::new(
            codes::DEADLINE_EXCEEDED,
            format!("{plugin} ran past its {timeout_ms} ms deadline and was stopped"),
        )
        .suggest("narrow the request; the operator can raise limits.timeout_ms");
    }
    HostError::new(codes::PLUGIN_TRAPPED, format!("{plugin} trapped: {err:#}"))
        .suggest("this is a bug in the plugin; other tools are unaffected")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Where the built-in plugins come from: `$SMART_CONTEXT_PLUGIN_DIR` when set, else the
/// copies embedded in the executable (an installed binary), else `plugins/` beside the
/// executable, else the directory the build wrote them to (library tests and benches).
pub fn builtins(embedded: plugins::Embedded) -> plugins::Builtins {
    use plugins::Builtins;
    if let Some(dir) = std::env::var_os("SMART_CONTEXT_PLUGIN_DIR") {
        return Builtins::Dir(PathBuf::from(dir));
    }
    if !embedded.is_empty() {
        return Builtins::Embedded(embedded);
    }
    let beside_exe = std::env::current_exe()
        .ok()
        .and_then(|exe| Some(exe.parent()?.join("plugins")));
    if let Some(dir) = beside_exe.filter(|d| d.is_dir()) {
        return Builtins::Dir(dir);
    }
    option_env!("SMART_CONTEXT_BUILTIN_PLUGINS")
        .map(PathBuf::from)
        .filter(|d| d.is_dir())
        .map_or(Builtins::None, Builtins::Dir)
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
