//! The plugin runtime: loads every component at startup (from the compiled cache when it can),
//! checks its imports against its world and grants, and runs each call in a fresh instance
//! with a memory cap, an epoch deadline and a cap on the result's size. A plugin that traps,
//! loops or allocates without bound costs its own call and nothing else.

pub mod audit;
pub mod bindings;
pub mod cache;
mod code_parsers;
pub mod engine;
pub mod header;
mod host_functions;
mod linking;
mod loading;
mod memory_functions;
pub mod plugins;
mod registry;

use crate::config::Limits;
use crate::error::{HostError, HostResult, codes};
use crate::services::Services;
use crate::workspace::secrets;
use anyhow::Result;
use bindings::HostState;
use bindings::parser::FormatParserPre;
use bindings::pillar::exports::smart_context::plugin::tool::ToolSpec;
use bindings::pillar::smart_context::plugin::types::Document;
use cache::{ComponentCache, Origin};
use loading::{Compiled, Kind, Plugin, Ready};
use registry::{Declared, Languages, Registry};
use serde::Serialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;
use wasmtime::{Engine, Store, Trap};

pub use host_functions::from_wit;

/// Largest document a parser is handed.
const MAX_DOCUMENT_BYTES: u64 = 32 << 20;

/// What `plugins` and `status` report about a loaded plugin.
#[derive(Debug, Clone, Serialize)]
pub struct PluginInfo {
    pub name: String,
    pub world: String,
    pub sha256: String,
    pub grants: Vec<String>,
    /// Host interfaces it imports without a grant: its calls there answer ACCESS_DENIED.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub denied: Vec<String>,
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
    /// The languages a code parser reads.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub languages: Vec<String>,
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

pub struct Runtime {
    engine: Engine,
    /// The first root's services (the one a call acts in unless routed elsewhere).
    services: Arc<Services>,
    /// Every root served, by name, the first included (see `crate::roots`).
    roots: crate::roots::Roots,
    /// Declared plugins, each compiled when first needed (see `loading`); shared with the
    /// background compile, which must not keep the runtime (and its index's lock) alive.
    plugins: Arc<Vec<Plugin>>,
    /// Parsers by extension and signature; indexes into `plugins`.
    registry: Registry,
    /// Code parsers by extension and file name; indexes into `plugins`.
    languages: Languages,
    /// Code-parser instances kept between the files of an indexing pass.
    warm: code_parsers::Warm,
    rejected: Vec<Rejected>,
    limits: Limits,
    cache: Arc<ComponentCache>,
    /// One line per plugin call, when the operator asked for it.
    audit: audit::AuditLog,
    /// Tells the background compile to stop: the runtime is gone.
    stop: Arc<std::sync::atomic::AtomicBool>,
    _ticker: engine::EpochTicker,
}

impl Drop for Runtime {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }
}

impl Runtime {
    /// Declares the built-in plugins and those of the operator's plugin directories (see
    /// `loading`), and starts compiling them on a thread of their own: explore first, then the
    /// other tools, then the parsers. A plugin that fails to load is logged and listed as
    /// rejected; the rest carry on.
    pub fn load(first: crate::roots::Root, builtins: &plugins::Builtins) -> Result<Arc<Self>> {
        let services = first.services.clone();
        let config = &services.config;
        let limits = config.limits.clone();
        let engine = engine::build(&limits)?;
        // An operator who asked for an audit log gets one, or no server.
        let audit = match config.audit_path() {
            Some(path) => audit::AuditLog::open(&path, services.workspace.root())?,
            None => audit::AuditLog::off(),
        };
        let ticker = engine::EpochTicker::start(&engine);
        let cache = ComponentCache::open(&config.cache_dir(), &engine, &config.limits);
        let mut plugins: Vec<Plugin> = Vec::new();
        let mut rejected = Vec::new();
        for candidate in plugins::discover(builtins, &config.plugin_dirs()) {
            let outcome = if plugins.iter().any(|p| p.info.name == candidate.name) {
                Err(format!(
                    "a plugin named {} is already loaded",
                    candidate.name
                ))
            } else {
                loading::declare(&engine, &cache, config, &candidate)
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
        let mut languages = Languages::default();
        for (i, plugin) in plugins.iter().enumerate() {
            match &plugin.kind {
                Kind::Parser { declared } => registry.add(i, declared),
                Kind::Code { declared } => languages.add(i, &plugin.info.name, declared),
                Kind::Tool { .. } => {}
            }
        }
        let runtime = Arc::new(Self {
            engine,
            roots: crate::roots::Roots::new(first),
            services,
            plugins: Arc::new(plugins),
            registry,
            warm: code_parsers::Warm::new(&limits),
            languages,
            rejected,
            limits,
            cache: Arc::new(cache),
            audit,
            stop: Default::default(),
            _ticker: ticker,
        });
        runtime.compile_in_background();
        Ok(runtime)
    }

    /// Compiles every plugin on a thread of its own, the one a first call most likely needs
    /// first (explore, the tools, then the parsers); a call that needs a plugin before the
    /// thread got to it compiles it itself (or waits for the thread, if it is at it).
    fn compile_in_background(self: &Arc<Self>) {
        let mut order: Vec<usize> = (0..self.plugins.len()).collect();
        order.sort_by_key(|&i| {
            let p = &self.plugins[i];
            (
                !p.world.is_tool(),
                p.info.tool.as_deref() != Some("explore"),
            )
        });
        let (plugins, engine, cache, limits, stop) = (
            self.plugins.clone(),
            self.engine.clone(),
            self.cache.clone(),
            self.limits.clone(),
            self.stop.clone(),
        );
        let spawned = std::thread::Builder::new()
            .name("compile".into())
            .spawn(move || {
                for i in order {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return;
                    }
                    let _ = compiled(&engine, &cache, &limits, &plugins[i]);
                }
            });
        if let Err(err) = spawned {
            tracing::warn!("cannot compile plugins in the background: {err}");
        }
    }

    /// `plugin` compiled (now, if nobody did yet), or why it cannot be.
    fn compiled<'a>(&self, plugin: &'a Plugin) -> HostResult<&'a Compiled> {
        compiled(&self.engine, &self.cache, &self.limits, plugin)
    }

    /// Waits until the tool exposed as `name` is compiled (compiling it, if nobody is at it):
    /// for work that should not compete with it for the cores.
    pub fn prepare_tool(&self, name: &str) {
        if let Some(plugin) = self
            .plugins
            .iter()
            .find(|p| p.info.tool.as_deref() == Some(name))
        {
            let _ = self.compiled(plugin);
        }
    }

    /// Compiles every plugin not compiled yet (what the `plugins` and `status` commands
    /// report needs all of them).
    pub fn compile_all(&self) {
        for plugin in self.plugins.iter() {
            let _ = self.compiled(plugin);
        }
    }

    pub fn services(&self) -> &Arc<Services> {
        &self.services
    }

    /// The host's limits (the operator's `[limits]`).
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The roots this runtime serves (see `app::open_another_root`).
    pub fn roots(&self) -> &crate::roots::Roots {
        &self.roots
    }

    /// Calls tool `name` in the root its arguments name (`root`, taken out before the plugin
    /// sees them), or the only one, among the operator's roots: how the `call` command calls.
    pub fn call_tool_routed(
        self: &Arc<Self>,
        name: &str,
        args_json: &str,
        control: &crate::tasks::Control,
    ) -> HostResult<ToolOutput> {
        self.call_tool_in_view(&self.roots.all(), name, args_json, control)
    }

    /// [`Runtime::call_tool_routed`] among the roots a session sees (`view`: the operator's,
    /// then its client's own): explore without `root` searches them all, any other tool acts
    /// in the one named.
    pub fn call_tool_in_view(
        self: &Arc<Self>,
        view: &[crate::roots::Root],
        name: &str,
        args_json: &str,
        control: &crate::tasks::Control,
    ) -> HostResult<ToolOutput> {
        let mut args = match serde_json::from_str::<serde_json::Value>(args_json) {
            Ok(serde_json::Value::Object(map)) => map,
            // Not an object: the tool says what is wrong with it, in the first root.
            _ => return self.call_tool_with(name, args_json, control),
        };
        let null_root = args.get(crate::roots::ARGUMENT) == Some(&serde_json::Value::Null);
        if null_root {
            args.remove(crate::roots::ARGUMENT);
        }
        if !args.contains_key(crate::roots::ARGUMENT) && view.len() == 1 {
            if null_root {
                let args = serde_json::Value::Object(args).to_string();
                return self.call_tool_in(&view[0].services, name, &args, control);
            }
            return self.call_tool_in(&view[0].services, name, args_json, control);
        }
        if name == "explore" && view.len() > 1 {
            return crate::roots::explore::call(self, view, args, control);
        }
        let root = crate::roots::route(view, name, &mut args)?;
        let args = serde_json::Value::Object(args).to_string();
        let mut output = self.call_tool_in(&root.services, name, &args, control)?;
        if view.len() > 1 {
            crate::roots::name_in_follow_ups(&mut output.structured, &root.name);
        }
        Ok(output)
    }

    /// Every declared plugin; `load` says how far it got: pending (not compiled yet),
    /// compiled, cached (loaded from the artifact cache) or failed.
    pub fn plugins(&self) -> Vec<PluginInfo> {
        self.plugins
            .iter()
            .map(|p| {
                let mut info = p.info.clone();
                match p.compiled.get() {
                    None => info.load = "pending".into(),
                    Some(Err(_)) => info.load = "failed".into(),
                    Some(Ok(c)) => {
                        info.load = match c.origin {
                            Origin::Compiled => "compiled",
                            Origin::Cached => "cached",
                        }
                        .into();
                        info.load_ms = c.ms;
                    }
                }
                info
            })
            .collect()
    }

    /// Plugins refused when declared, and those that failed to compile since.
    pub fn rejected(&self) -> Vec<Rejected> {
        let failed = self.plugins.iter().filter_map(|p| match p.compiled.get() {
            Some(Err(reason)) => Some(Rejected {
                name: p.info.name.clone(),
                source: p.info.source.clone(),
                reason: reason.clone(),
            }),
            _ => None,
        });
        self.rejected.iter().cloned().chain(failed).collect()
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
        self.status_of(&self.services)
    }

    /// [`Runtime::status`] of `root`: its path and store beside the runtime's plugins.
    pub fn status_of(&self, root: &Services) -> StatusReport {
        let store = root.store();
        StatusReport {
            root: root.workspace.root().display().to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            plugins: self.plugins(),
            rejected: self.rejected(),
            store: StoreStatus {
                path: store.location(),
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
        let first = self.services.clone();
        self.call_tool_in(&first, name, args_json, control)
    }

    /// [`Runtime::call_tool_with`] acting in `root` (see `app::open_another_root`): its
    /// workspace, index, store, journal and memory are the ones the tool's host calls reach.
    pub fn call_tool_in(
        self: &Arc<Self>,
        root: &Arc<Services>,
        name: &str,
        args_json: &str,
        control: &crate::tasks::Control,
    ) -> HostResult<ToolOutput> {
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            self.run_tool(root, name, args_json, control)
        }))
        .unwrap_or_else(|panic| Err(panicked(name, args_json, panic.as_ref())));
        if !matches!(&outcome, Err(e) if e.code == codes::UNKNOWN_TOOL) {
            root.memory
                .record_call(name, args_json, outcome.as_ref().map(|o| &o.structured));
        }
        outcome
    }

    fn run_tool(
        self: &Arc<Self>,
        root: &Arc<Services>,
        name: &str,
        args_json: &str,
        control: &crate::tasks::Control,
    ) -> HostResult<ToolOutput> {
        let plugin = self
            .plugins
            .iter()
            .find(|p| p.info.tool.as_deref() == Some(name))
            .ok_or_else(|| HostError::new(codes::UNKNOWN_TOOL, format!("no tool named {name}")))?;
        let Ready::Tool(pre) = &self.compiled(plugin)?.ready else {
            unreachable!("tool names belong to tools")
        };
        let started = Instant::now();
        let mut store = self.store(&plugin.info.name);
        store.data_mut().may_read_sensitive = plugin.reads_sensitive && agent_opted_in(args_json);
        store.data_mut().control = control.clone();
        if !Arc::ptr_eq(root, &self.services) {
            store.data_mut().root = Some(root.clone());
        }
        let outcome = self.finish_tool(name, pre, &mut store, args_json, started);
        let answer = outcome.as_ref().map(|o| Some(&o.structured));
        self.audit_call(plugin, "tool", name, &mut store, answer, started);
        outcome
    }

    /// Runs a tool's call in `store` and checks its answer: within the deadline, within the
    /// result cap, a JSON object.
    fn finish_tool(
        &self,
        name: &str,
        pre: &bindings::pillar::EditingPillarPre<HostState>,
        store: &mut Store<HostState>,
        args_json: &str,
        started: Instant,
    ) -> HostResult<ToolOutput> {
        let plugin = store.data().plugin.clone();
        let result = pre
            .instantiate(&mut *store)
            .map_err(|e| instantiate_failure(&plugin, e))
            .and_then(|instance| {
                instance
                    .smart_context_plugin_tool()
                    .call_call(&mut *store, args_json)
                    .map_err(|e| call_failure(&plugin, e, store, self.limits.timeout_ms))
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

    /// Appends the audit line of a finished call (when the log is on).
    fn audit_call(
        &self,
        plugin: &Plugin,
        call: &str,
        target: &str,
        store: &mut Store<HostState>,
        answer: Result<Option<&serde_json::Value>, &HostError>,
        started: Instant,
    ) {
        let Some(trail) = store.data_mut().trail.take() else {
            return;
        };
        let (outcome, message) = audit::outcome(&answer);
        self.audit.record(&audit::Entry {
            ts_ms: crate::store::now_ms(),
            plugin: &plugin.info.name,
            sha256: &plugin.info.sha256,
            call,
            target,
            grants_used: audit::grant_names(&trail.used),
            read: &trail.read,
            wrote: &trail.wrote,
            denied: &trail.denied,
            paths_dropped: trail.dropped,
            outcome,
            message,
            ms: started.elapsed().as_millis() as u64,
        });
    }

    /// Reads `path` and parses it with the parser its extension or signature selects.
    /// NO_PARSER for anything else: the text fallback is for indexing, so a source file still
    /// reads as a file.
    pub fn parse_document(&self, path: &str) -> HostResult<Document> {
        self.parse_document_in(&self.services, path)
    }

    /// [`Runtime::parse_document`] of a file of `root`.
    pub fn parse_document_in(&self, root: &Services, path: &str) -> HostResult<Document> {
        let rel = root.workspace.normalize(path)?;
        let read = |max_bytes: u64, allow_truncate: bool| {
            let options = crate::workspace::ReadOptions {
                max_bytes,
                allow_sensitive: false,
                allow_binary: true,
                allow_truncate,
            };
            root.workspace.read(&rel, options)
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
        self.run_parser(&root.index, index, &rel, &file.bytes).0
    }

    /// What the parser registered for `path`'s extension declared (the text fallback's own
    /// extensions included), None for names no parser takes. Reads nothing.
    pub fn document_format(&self, path: &str) -> Option<&Declared> {
        let (index, _) = self.registry.claim(path, b"")?;
        match &self.plugins[index].kind {
            Kind::Parser { declared, .. } => Some(declared),
            Kind::Tool { .. } | Kind::Code { .. } => None,
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
        self.parse_bytes_for(&self.services.index, path, bytes)
    }

    /// [`parse_bytes_measured`](Self::parse_bytes_measured) for a file of the root whose
    /// index is `memo`: a failure is remembered there (and forgotten by its full rebuild).
    pub fn parse_bytes_for(
        &self,
        memo: &crate::index::Index,
        path: &str,
        bytes: &[u8],
    ) -> (HostResult<Document>, usize) {
        let head = &bytes[..bytes.len().min(HEAD_BYTES as usize)];
        match self.registry.route(path, head) {
            Some((index, _)) => self.run_parser(memo, index, path, bytes),
            None => (Err(no_parser(path)), 0),
        }
    }

    /// Parses `bytes` with the parser plugin named `plugin`, whatever the registry would
    /// choose, and its peak memory: `plugin check` runs a parser on a file of its author's.
    pub fn parse_with(
        &self,
        plugin: &str,
        path: &str,
        bytes: &[u8],
    ) -> (HostResult<Document>, usize) {
        let Some(plugin) = self.plugins.iter().find(|p| p.info.name == plugin) else {
            return (Err(no_parser(path)), 0);
        };
        match self.compiled(plugin) {
            Ok(Compiled {
                ready: Ready::Parser(pre),
                ..
            }) => self.run_parser_once(plugin, pre, path, bytes),
            Ok(_) => (Err(no_parser(path)), 0),
            Err(err) => (Err(err), 0),
        }
    }

    /// One parse in a fresh instance of parser `index`, and its peak memory. Parsers import
    /// nothing but log, so the instance gets no host services.
    fn run_parser(
        &self,
        memo: &crate::index::Index,
        index: usize,
        path: &str,
        bytes: &[u8],
    ) -> (HostResult<Document>, usize) {
        let plugin = &self.plugins[index];
        self.remembering_failures(memo, plugin, path, bytes, |compiled| {
            match &compiled.ready {
                Ready::Parser(pre) => self.run_parser_once(plugin, pre, path, bytes),
                _ => (Err(no_parser(path)), 0),
            }
        })
    }

    /// Runs `parse` on `plugin`, compiled, unless the plugin failed on this content before;
    /// a failure (but for a busy host or a cancelled call) is remembered per plugin and
    /// content, so a hostile file costs its deadline once, not on every pass. `memo` is the
    /// index of the root the file is in.
    fn remembering_failures<T>(
        &self,
        memo: &crate::index::Index,
        plugin: &Plugin,
        path: &str,
        bytes: &[u8],
        parse: impl FnOnce(&Compiled) -> (HostResult<T>, usize),
    ) -> (HostResult<T>, usize) {
        let content = blake3::hash(bytes).to_hex();
        let index = memo;
        if let Some(failure) = index.parser_failure(&plugin.info.sha256, &content) {
            return (Err(remembered(path, failure)), 0);
        }
        let (result, peak) = match self.compiled(plugin) {
            Ok(compiled) => parse(compiled),
            Err(err) => (Err(err), 0),
        };
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
                    .smart_context_plugin_parser()
                    .call_parse(&mut store, bytes, path)
                    .map_err(|e| call_failure(&plugin.info.name, e, &store, self.limits.timeout_ms))
            })
            .and_then(|r| r.map_err(from_wit));
        let answer = result.as_ref().map(|_| None);
        self.audit_call(plugin, "parse", path, &mut store, answer, started);
        (result, store.data().limiter.peak)
    }

    /// The memory cap of one plugin instance, in bytes.
    pub fn memory_cap(&self) -> usize {
        engine::memory_cap_bytes(&self.limits)
    }

    /// A store for one call: fresh state, memory limiter, and the call's deadline.
    fn store(self: &Arc<Self>, plugin: &str) -> Store<HostState> {
        let mut store = new_store(&self.engine, Some(self.clone()), plugin, &self.limits);
        if self.audit.is_on() {
            store.data_mut().trail = Some(audit::Trail::default());
        }
        store
    }
}

/// `plugin` compiled (now, if nobody did yet: a call, or the background compile, whichever
/// asks first; the other waits for it), or why it cannot be.
fn compiled<'a>(
    engine: &Engine,
    cache: &ComponentCache,
    limits: &Limits,
    plugin: &'a Plugin,
) -> HostResult<&'a Compiled> {
    plugin
        .compiled
        .get_or_init(|| {
            let compiled = loading::compile_declared(engine, cache, limits, plugin);
            if let Err(reason) = &compiled {
                tracing::error!(plugin = %plugin.info.name, "cannot be loaded: {reason}");
            }
            compiled
        })
        .as_ref()
        .map_err(|reason| {
            HostError::new(
                codes::PLUGIN_TRAPPED,
                format!("{} cannot be loaded: {reason}", plugin.info.name),
            )
            .suggest("see `smart-context plugins` for every plugin and why it failed")
        })
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
pub(crate) fn guard_output(mut output: ToolOutput) -> ToolOutput {
    let mut hidden = secrets::redact_json(&mut output.structured);
    let (text, n) = secrets::redact(&output.text);
    hidden += n;
    if n > 0 {
        output.text = text.into_owned();
    }
    // Plugins read files as their views, so most hidden values reach here as markers already.
    let hidden = hidden.max(secrets::markers(&output.text));
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
    /// A code parser that names the file whole (`CMakeLists.txt`) takes it from a format
    /// parser that would claim it by its extension alone (`.txt`).
    fn claims(&self, path: &str, head: &[u8]) -> Option<String> {
        let (i, route) = self.registry.claim(path, head)?;
        if route == registry::Route::Extension && self.languages.claims_by_name(path) {
            return None;
        }
        self.plugins[i].info.format.clone()
    }

    fn has_text_fallback(&self) -> bool {
        self.registry.has_fallback()
    }

    fn parse(
        &self,
        memo: &crate::index::Index,
        path: &str,
        bytes: &[u8],
    ) -> HostResult<crate::index::documents::Document> {
        Ok(self.parse_bytes_for(memo, path, bytes).0?.into())
    }

    fn code_language(&self, path: &str) -> Option<String> {
        Runtime::code_language(self, path).map(str::to_string)
    }

    fn parse_code(
        &self,
        memo: &crate::index::Index,
        path: &str,
        bytes: &[u8],
    ) -> HostResult<(String, crate::index::code::Extraction)> {
        Runtime::parse_code_for(self, memo, path, bytes)
    }

    fn reader(
        &self,
        path: &str,
        head: &[u8],
        class: &crate::index::classify::Class,
    ) -> Option<String> {
        use crate::index::classify::Class;
        let index = match class {
            Class::Document(_) => self.registry.claim(path, head)?.0,
            Class::ComponentCode(_) => self.languages.claim(path)?.0,
            Class::Text => match self.registry.route(path, head)? {
                (i, registry::Route::Fallback) => i,
                _ => return None,
            },
            Class::Code(_) => return None,
        };
        Some(reader_id(&self.plugins[index].info))
    }

    fn readers(&self) -> Vec<String> {
        self.plugins
            .iter()
            .filter(|p| matches!(p.kind, Kind::Parser { .. } | Kind::Code { .. }))
            .map(|p| reader_id(&p.info))
            .collect()
    }

    fn pass_done(&self) {
        self.release_code_parsers();
    }
}

/// A parser component as the index's catalogue names what read a file.
fn reader_id(info: &PluginInfo) -> String {
    format!(
        "{}@{}",
        info.name,
        &info.sha256[..info.sha256.len().min(16)]
    )
}

/// Gives the next call on `store` the whole deadline of `limits` (a store serving several
/// calls gets it afresh for each).
fn arm_deadline(store: &mut Store<HostState>, limits: &Limits) {
    let total = engine::deadline_ticks(limits.timeout_ms);
    let first = total.min(engine::SLICE_TICKS);
    store.data_mut().ticks_left = total - first;
    store.set_epoch_deadline(first);
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
    arm_deadline(&mut store, limits);
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
    if let Some(denied) = err.downcast_ref::<linking::DeniedCall>() {
        return HostError::new(codes::ACCESS_DENIED, denied.message.clone())
            .suggest(denied.suggestion.clone());
    }
    HostError::new(codes::PLUGIN_TRAPPED, format!("{plugin} trapped: {err:#}"))
        .suggest("this is a bug in the plugin; other tools are unaffected")
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

    #[test]
    fn a_panic_is_an_internal_error_with_the_way_forward_and_no_secret() {
        let payload: Box<dyn std::any::Any + Send> = Box::new("35 >= 39".to_string());
        let err = panicked(
            "explore",
            r#"{"query": "token ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"}"#,
            payload.as_ref(),
        );
        assert_eq!(err.code, codes::INTERNAL);
        assert!(err.message.contains("explore") && err.message.contains("35 >= 39"));
        assert!(err.suggestion.unwrap().contains("scope=full"));
        // The call panics inside `catch_unwind`: the same shape comes back, the caller lives.
        let caught = std::panic::catch_unwind(|| -> HostResult<()> { panic!("boom") })
            .unwrap_or_else(|p| Err(panicked("change", "{}", p.as_ref())));
        assert!(caught.unwrap_err().message.contains("boom"));
    }
}
