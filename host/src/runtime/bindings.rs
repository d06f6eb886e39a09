//! Host-side bindings of the WIT contract and the per-call state a plugin instance sees.

use super::Runtime;
use std::sync::Arc;
use wasmtime::ResourceLimiter;
use wasmtime::component::ResourceTable;
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// The pillar worlds (editing-pillar is a superset of pillar; what a plugin may actually
/// import is decided per plugin when its linker is built).
pub mod pillar {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "editing-pillar",
    });
}

/// The format-parser world, sharing the pillar bindings' types and log interface.
pub mod parser {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "format-parser",
        with: {
            "smart-context:plugin/types": super::pillar::smart_context::plugin::types,
            "smart-context:plugin/log": super::pillar::smart_context::plugin::log,
        },
    });
}

/// The code-parser world, sharing the pillar bindings' types and log interface.
pub mod code {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "code-parser",
        with: {
            "smart-context:plugin/types": super::pillar::smart_context::plugin::types,
            "smart-context:plugin/log": super::pillar::smart_context::plugin::log,
        },
    });
}

/// Log messages one call may emit before the rest are dropped.
const MAX_LOG_MESSAGES: u32 = 1_000;

/// The state of one plugin call: a fresh, empty WASI context (no preopens, no environment, no
/// sockets, no inherited stdio), the memory limiter, and the host services.
pub struct HostState {
    /// None while plugins are being loaded (describe / extensions calls).
    pub(super) runtime: Option<Arc<Runtime>>,
    /// The workspace root the call acts in, when it is not the runtime's first (see
    /// `Runtime::call_tool_in`): every host function reaches its root through
    /// `HostState::services`.
    pub(super) root: Option<Arc<crate::services::Services>>,
    pub(super) plugin: Arc<str>,
    pub(super) limiter: MemoryLimiter,
    pub(super) logged: u32,
    /// Time spent in sanctioned long host calls (test runs, index rebuilds) not yet added
    /// back to the deadline: the deadline bounds the plugin's own work, not the job it waits on.
    pub(super) excused_ms: u64,
    /// Every excused millisecond of this call, for the wall-clock check after it returns.
    pub(super) excused_total_ms: u64,
    /// This call may read sensitive files: the agent opted in (`allowSensitive` in the call's
    /// arguments) and the operator granted the plugin `sensitive`. A plugin's own
    /// `allow-sensitive` flag counts only when this is true.
    pub(super) may_read_sensitive: bool,
    /// The caller's cancellation and progress (a fresh, unwatched one outside MCP calls).
    pub(super) control: crate::tasks::Control,
    /// Epoch ticks of the deadline not yet handed out: the deadline is given in short slices
    /// so a cancelled call is noticed within one slice.
    pub(super) ticks_left: u64,
    /// What the call did, for the audit log (None while the log is off).
    pub(super) trail: Option<super::audit::Trail>,
    wasi: WasiCtx,
    table: ResourceTable,
}

impl HostState {
    pub fn new(runtime: Option<Arc<Runtime>>, plugin: Arc<str>, memory_cap: usize) -> Self {
        Self {
            runtime,
            root: None,
            plugin,
            limiter: MemoryLimiter {
                cap: memory_cap,
                hit: false,
                peak: 0,
            },
            logged: 0,
            excused_ms: 0,
            excused_total_ms: 0,
            may_read_sensitive: false,
            control: crate::tasks::Control::new(),
            ticks_left: 0,
            trail: None,
            wasi: deny_all_wasi(),
            table: ResourceTable::new(),
        }
    }

    /// Notes, for the audit log, that the call reached a host interface.
    pub fn used(&mut self, interface: super::plugins::Interface) -> &mut Self {
        if let Some(trail) = &mut self.trail {
            trail.used.insert(interface);
        }
        self
    }

    /// Notes, for the audit log, a host function the call was denied.
    pub fn denied_call(&mut self, function: &str) {
        if let Some(trail) = &mut self.trail {
            trail.denied(function);
        }
    }

    /// Notes, for the audit log, a path the call read through the workspace.
    pub fn read_path(&mut self, path: &str) {
        if let Some(trail) = &mut self.trail {
            trail.read(path);
        }
    }

    /// Notes, for the audit log, a path the call wrote through edits.
    pub fn wrote_path(&mut self, path: &str) {
        if let Some(trail) = &mut self.trail {
            trail.wrote(path);
        }
    }

    /// Counts a log message; false once the per-call budget is spent.
    pub fn may_log(&mut self) -> bool {
        self.logged += 1;
        self.logged <= MAX_LOG_MESSAGES
    }
}

/// WASI that grants nothing: no preopened directory (so no file), no environment or
/// arguments, closed stdin and discarded output, and no network (TCP, UDP and name lookups
/// off, every address refused). A toolchain's default output links against it and gets
/// errors; the host's own interfaces are a plugin's only way to the workspace.
fn deny_all_wasi() -> WasiCtx {
    WasiCtx::builder()
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false)
        .socket_addr_check(|_, _| Box::pin(async { false }))
        .build()
}

impl WasiView for HostState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.wasi,
            table: &mut self.table,
        }
    }
}

/// Caps linear memory and remembers that the cap was hit, so the failure is reported as
/// MEMORY_LIMIT rather than a generic trap.
pub struct MemoryLimiter {
    cap: usize,
    pub(super) hit: bool,
    /// The largest linear memory the instance grew to, in bytes.
    pub(super) peak: usize,
}

impl ResourceLimiter for MemoryLimiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.cap {
            self.hit = true;
            return Err(wasmtime::format_err!(
                "memory limit of {} MiB reached",
                self.cap >> 20
            ));
        }
        self.peak = self.peak.max(desired);
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _max: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= 1_000_000)
    }
}

/// Documents cross between the WIT records and the index's own types (which do not depend on
/// the runtime) in both directions: parsed documents into the index, sections out to pillars.
mod document_conversions {
    use super::pillar::smart_context::plugin::types as wit;
    use crate::index::documents as host;

    impl From<wit::Section> for host::Section {
        fn from(s: wit::Section) -> Self {
            Self {
                id: s.id,
                heading_path: s.heading_path,
                level: s.level,
                text: s.text,
                start_line: s.start_line,
                end_line: s.end_line,
                page: s.page,
            }
        }
    }

    impl From<host::Section> for wit::Section {
        fn from(s: host::Section) -> Self {
            Self {
                id: s.id,
                heading_path: s.heading_path,
                level: s.level,
                text: s.text,
                start_line: s.start_line,
                end_line: s.end_line,
                page: s.page,
            }
        }
    }

    impl From<wit::Document> for host::Document {
        fn from(doc: wit::Document) -> Self {
            Self {
                title: doc.title,
                kind: doc.kind,
                sections: doc.sections.into_iter().map(Into::into).collect(),
                links: doc
                    .links
                    .into_iter()
                    .map(|l| host::Link {
                        section_id: l.section_id,
                        target: l.target,
                        text: l.text,
                    })
                    .collect(),
                metadata: doc.metadata,
                warnings: doc.warnings,
            }
        }
    }
}

/// Evidence packs cross the `store` interface whole, in both directions.
mod pack_conversions {
    use super::pillar::smart_context::plugin::{store as wit, types::LineRange};
    use crate::store::packs as host;

    impl From<wit::PackItem> for host::PackItem {
        fn from(i: wit::PackItem) -> Self {
            Self {
                role: i.role,
                rank: i.rank,
                chunk_id: i.chunk_id,
                path: i.path,
                kind: i.kind,
                section_id: i.section_id,
                heading_path: i.heading_path,
                range: i.range.map(|r| (r.start, r.end)),
                preview: i.preview,
                content_hash: i.content_hash,
                updated_ms: i.updated_ms,
                scores_json: i.scores_json,
                meta_json: i.meta_json,
                shown: i.shown,
            }
        }
    }

    impl From<host::PackItem> for wit::PackItem {
        fn from(i: host::PackItem) -> Self {
            Self {
                role: i.role,
                rank: i.rank,
                chunk_id: i.chunk_id,
                path: i.path,
                kind: i.kind,
                section_id: i.section_id,
                heading_path: i.heading_path,
                range: i.range.map(|(start, end)| LineRange { start, end }),
                preview: i.preview,
                content_hash: i.content_hash,
                updated_ms: i.updated_ms,
                scores_json: i.scores_json,
                meta_json: i.meta_json,
                shown: i.shown,
            }
        }
    }

    impl From<wit::Pack> for host::Pack {
        fn from(p: wit::Pack) -> Self {
            Self {
                pack_id: p.pack_id,
                query: p.query,
                options_json: p.options_json,
                created_ms: p.created_ms,
                expires_ms: p.expires_ms,
                reasons: p.reasons,
                salt: p.salt,
                items: p.items.into_iter().map(Into::into).collect(),
            }
        }
    }

    impl From<host::Pack> for wit::Pack {
        fn from(p: host::Pack) -> Self {
            Self {
                pack_id: p.pack_id,
                query: p.query,
                options_json: p.options_json,
                created_ms: p.created_ms,
                expires_ms: p.expires_ms,
                reasons: p.reasons,
                salt: p.salt,
                items: p.items.into_iter().map(Into::into).collect(),
            }
        }
    }
}
