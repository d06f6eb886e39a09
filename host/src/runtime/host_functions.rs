//! The host functions plugins import, each a thin mapping from WIT records to the workspace,
//! index, store or runtime, with failures returned as WIT `error` values.

use super::bindings::HostState;
use super::bindings::pillar::smart_context::plugin::{
    edits, index, log, status, store, tasks, types, workspace,
};
use crate::analysis::views;
use crate::error::{HostError, codes};
use crate::index::digest::Mode;
use crate::index::fulltext::{Hit, SearchRequest};
use crate::index::previews::Preview;
use crate::index::{MatchKind, SectionSelector};
use crate::services::Services;
use crate::store::packs::{self, Lookup};
use crate::workspace::{self as ws, transactions::Change};

impl HostState {
    /// Time a sanctioned long job took, added back to the plugin's deadline.
    fn excuse(&mut self, ms: u64) {
        self.excused_ms += ms;
        self.excused_total_ms += ms;
    }

    /// Runs `work`, which may parse a document in a parser component of its own (with its
    /// own deadline), excusing its time: a parser that runs out of time is its failure, named
    /// as the parser's, not the calling tool's.
    fn parsing<T>(&mut self, work: impl FnOnce(&Services) -> T) -> Result<T, types::Error> {
        let started = std::time::Instant::now();
        let out = work(self.services()?);
        self.excuse(started.elapsed().as_millis() as u64);
        Ok(out)
    }

    pub(super) fn services(&self) -> Result<&Services, types::Error> {
        self.runtime
            .as_deref()
            .map(|r| r.services.as_ref())
            .ok_or_else(|| {
                to_wit(HostError::new(
                    codes::INTERNAL,
                    "host services are not available while plugins load",
                ))
            })
    }
}

/// A host error as the WIT record.
pub fn to_wit(err: HostError) -> types::Error {
    types::Error {
        code: err.code,
        message: err.message,
        suggestion: err.suggestion,
        details_json: err.details.map(|d| d.to_string()),
    }
}

/// A WIT error record (from a plugin) as a host error.
pub fn from_wit(err: types::Error) -> HostError {
    HostError {
        code: err.code,
        message: err.message,
        suggestion: err.suggestion,
        details: err
            .details_json
            .map(|raw| serde_json::from_str(&raw).unwrap_or(serde_json::Value::String(raw))),
    }
}

impl types::Host for HostState {}

impl log::Host for HostState {
    fn log(&mut self, level: log::Level, message: String) {
        if !self.may_log() {
            return;
        }
        let message: String = message.chars().take(4_096).collect();
        let plugin = &*self.plugin;
        match level {
            log::Level::Trace => tracing::trace!(plugin, "{message}"),
            log::Level::Debug => tracing::debug!(plugin, "{message}"),
            log::Level::Info => tracing::info!(plugin, "{message}"),
            log::Level::Warn => tracing::warn!(plugin, "{message}"),
            log::Level::Error => tracing::error!(plugin, "{message}"),
        }
    }
}

impl workspace::Host for HostState {
    fn stat(&mut self, path: String) -> Result<workspace::Entry, types::Error> {
        let services = self.services()?;
        services.workspace.stat(&path).map(entry).map_err(to_wit)
    }

    fn read(
        &mut self,
        path: String,
        options: workspace::ReadOptions,
    ) -> Result<workspace::FileContent, types::Error> {
        let services = self.services()?;
        let options = ws::ReadOptions {
            max_bytes: options.max_bytes,
            allow_sensitive: options.allow_sensitive && self.may_read_sensitive,
            allow_binary: options.allow_binary,
            allow_truncate: options.allow_truncate,
        };
        let file = services.workspace.read(&path, options).map_err(to_wit)?;
        Ok(workspace::FileContent {
            bytes: file.bytes,
            hash: file.hash,
            size: file.size,
            binary: file.binary,
            truncated: file.truncated,
        })
    }

    fn walk(
        &mut self,
        path: String,
        options: workspace::WalkOptions,
    ) -> Result<workspace::WalkResult, types::Error> {
        let services = self.services()?;
        let (files, truncated) = services
            .workspace
            .walk(
                &path,
                options.max_depth.min(64) as usize,
                options.max_files.min(100_000) as usize,
                options.glob.as_deref(),
            )
            .map_err(to_wit)?;
        Ok(workspace::WalkResult {
            files: files.into_iter().map(entry).collect(),
            truncated,
        })
    }

    fn list_dir(&mut self, path: String) -> Result<Vec<workspace::Entry>, types::Error> {
        let services = self.services()?;
        Ok(services
            .workspace
            .list(&path)
            .map_err(to_wit)?
            .into_iter()
            .map(entry)
            .collect())
    }
}

fn entry(e: ws::Entry) -> workspace::Entry {
    workspace::Entry {
        path: e.path,
        kind: match e.kind {
            ws::EntryKind::File => workspace::EntryKind::File,
            ws::EntryKind::Directory => workspace::EntryKind::Directory,
            ws::EntryKind::Symlink => workspace::EntryKind::Symlink,
            ws::EntryKind::Other => workspace::EntryKind::Other,
        },
        size: e.size,
        modified_ms: e.modified_ms,
        sensitive: e.sensitive,
    }
}

impl index::Host for HostState {
    fn search(
        &mut self,
        query: String,
        options: index::SearchOptions,
    ) -> Result<index::SearchResult, types::Error> {
        let services = self.services()?;
        // The index cuts an over-long query (and says so); previews use the same cut.
        let request = SearchRequest {
            query,
            kinds: options.kinds,
            exclude_kinds: options.exclude_kinds,
            languages: options.languages,
            path_prefix: options.path_prefix,
            limit: options.max_results.clamp(1, 1000) as usize,
            centrality: self.runtime.as_ref().map(|r| {
                let services = r.services().clone();
                let centrality =
                    crate::analysis::OnDemand::new(move || services.analysis.current());
                std::sync::Arc::new(centrality) as _
            }),
            ..SearchRequest::default()
        };
        let outcome = services.index.search(&request).map_err(to_wit)?;
        let started = std::time::Instant::now();
        let previews = if options.preview_chars > 0 {
            let cap = options.preview_chars as usize;
            services.index.previews(
                &outcome.hits,
                &crate::index::queries::bound_query(&request.query).0,
                Mode::Preview,
                cap,
            )
        } else {
            vec![None; outcome.hits.len()]
        };
        tracing::debug!(
            "search: {} previews in {:.1?}",
            outcome.hits.len(),
            started.elapsed()
        );
        Ok(index::SearchResult {
            hits: outcome
                .hits
                .into_iter()
                .zip(previews)
                .map(|(h, p)| chunk_hit(h, p))
                .collect(),
            total: outcome.total,
            degraded: outcome.degraded,
            reasons: outcome.reasons,
        })
    }

    fn file_chunks(
        &mut self,
        path: String,
        mode: index::SectionMode,
        max_chars: u32,
    ) -> Result<Vec<index::ChunkHit>, types::Error> {
        let services = self.services()?;
        let (_, hits) = services.index.file_chunks(&path).map_err(to_wit)?;
        let mode = section_mode(mode);
        let cap = match max_chars {
            0 => mode.default_chars(),
            n => n as usize,
        };
        let previews = services.index.previews(&hits, "", mode, cap);
        Ok(hits
            .into_iter()
            .zip(previews)
            .map(|(h, p)| chunk_hit(h, p))
            .collect())
    }

    fn symbols(&mut self, path: String) -> Result<index::FileSymbols, types::Error> {
        let services = self.services()?;
        let (path, language, symbols, lines) =
            services.index.symbols_fast(&path).map_err(to_wit)?;
        Ok(index::FileSymbols {
            symbols: symbols.into_iter().map(|s| symbol(&path, s)).collect(),
            path,
            language,
            line_count: lines,
        })
    }

    fn find_symbol(
        &mut self,
        name: String,
        max_results: u32,
    ) -> Result<Vec<index::SymbolMatch>, types::Error> {
        let services = self.services()?;
        let found = services
            .index
            .find_symbol(&name, max_results as usize)
            .map_err(to_wit)?;
        Ok(found
            .into_iter()
            .map(|m| index::SymbolMatch {
                symbol: symbol(&m.found.path, m.found.symbol),
                how: match m.how {
                    MatchKind::Exact => index::MatchKind::Exact,
                    MatchKind::Prefix => index::MatchKind::Prefix,
                    MatchKind::Fuzzy => index::MatchKind::Fuzzy,
                },
            })
            .collect())
    }

    fn references(
        &mut self,
        name: String,
        max_results: u32,
    ) -> Result<Vec<index::Reference>, types::Error> {
        let services = self.services()?;
        let refs = services
            .index
            .references(&name, max_results as usize)
            .map_err(to_wit)?;
        Ok(refs
            .into_iter()
            .map(|r| index::Reference {
                path: r.path,
                line: r.line,
                kind: r.kind,
                context: r.context,
            })
            .collect())
    }

    fn syntax_problems(
        &mut self,
        path: String,
        text: String,
    ) -> Result<Vec<index::SyntaxProblem>, types::Error> {
        let services = self.services()?;
        let (_, problems) = services
            .index
            .syntax_problems(&path, &text)
            .map_err(to_wit)?;
        Ok(problems
            .into_iter()
            .map(|p| index::SyntaxProblem {
                range: types::LineRange {
                    start: p.start_line,
                    end: p.end_line,
                },
                column: p.column,
                message: p.message,
            })
            .collect())
    }

    fn skeleton(&mut self, path: String) -> Result<index::FileSkeleton, types::Error> {
        let services = self.services()?;
        let (path, language, text, definitions, lines) =
            services.index.skeleton(&path).map_err(to_wit)?;
        Ok(index::FileSkeleton {
            path,
            language: language.into(),
            line_count: lines,
            definitions: definitions as u32,
            text,
        })
    }

    fn doc_toc(&mut self, path: String) -> Result<index::DocumentToc, types::Error> {
        let parsed = self.parsing(|services| services.index.document(&path))?;
        let (path, doc) = parsed.map_err(to_wit)?;
        Ok(index::DocumentToc {
            path,
            kind: doc.kind,
            title: doc.title,
            entries: doc
                .sections
                .into_iter()
                .map(|s| index::TocEntry {
                    id: s.id,
                    heading_path: s.heading_path,
                    level: s.level,
                    range: range(s.start_line, s.end_line),
                    page: s.page,
                    chars: s.text.chars().count() as u32,
                })
                .collect(),
        })
    }

    fn doc_section(
        &mut self,
        path: String,
        selector: index::SectionSelector,
        request: index::SectionRequest,
    ) -> Result<index::SectionView, types::Error> {
        let selector = match selector {
            index::SectionSelector::Id(id) => SectionSelector::Id(id),
            index::SectionSelector::HeadingPath(p) => SectionSelector::HeadingPath(p),
        };
        let mode = section_mode(request.mode);
        let view = self
            .parsing(|services| {
                services.index.doc_section(
                    &path,
                    &selector,
                    mode,
                    request.max_chars as usize,
                    request.subsections,
                )
            })?
            .map_err(to_wit)?;
        Ok(index::SectionView {
            section: view.section.into(),
            mode: request.mode,
            total_chars: view.total_chars,
            truncated: view.truncated,
        })
    }

    fn doc_references(
        &mut self,
        path: String,
        max_results: u32,
    ) -> Result<index::DocumentLinks, types::Error> {
        let links = self
            .parsing(|services| services.index.doc_links(&path, max_results as usize))?
            .map_err(to_wit)?;
        Ok(index::DocumentLinks {
            path: links.path,
            outgoing: links
                .outgoing
                .into_iter()
                .map(|l| index::OutgoingLink {
                    section_id: l.section_id,
                    target: l.target,
                    text: l.text,
                    resolved: l.resolved,
                })
                .collect(),
            incoming: links
                .incoming
                .into_iter()
                .map(|l| index::Backlink {
                    path: l.path,
                    line: l.line,
                    target: l.target,
                })
                .collect(),
        })
    }

    fn imports(&mut self, path: String) -> Result<Vec<index::ImportEdge>, types::Error> {
        let services = self.services()?;
        let imports = services.index.imports(&path).map_err(to_wit)?;
        Ok(imports
            .into_iter()
            .map(|i| index::ImportEdge {
                target: i.target,
                line: i.line,
                resolved: i.resolved,
            })
            .collect())
    }

    fn importers(
        &mut self,
        path: String,
        max_results: u32,
    ) -> Result<Vec<index::Importer>, types::Error> {
        let services = self.services()?;
        let importers = services
            .index
            .importers(&path, max_results as usize)
            .map_err(to_wit)?;
        Ok(importers
            .into_iter()
            .map(|i| index::Importer {
                path: i.path,
                line: i.line,
                target: i.target,
            })
            .collect())
    }

    fn call_graph(
        &mut self,
        path: String,
        symbol: Option<String>,
        depth: u32,
        max_links: u32,
    ) -> Result<index::CallGraphResult, types::Error> {
        let services = self.services()?;
        let rel = services.workspace.normalize(&path).map_err(to_wit)?;
        let snapshot = services.analysis.snapshot().map_err(to_wit)?;
        let targets = views::symbols_in(&snapshot, &rel, symbol.as_deref()).map_err(to_wit)?;
        let view = views::call_graph(&snapshot, &targets, depth.min(10), max_links as usize);
        Ok(index::CallGraphResult {
            symbols: view.symbols.into_iter().map(graph_symbol).collect(),
            targets: view.targets,
            links: view
                .links
                .into_iter()
                .map(|(caller, callee, line, confidence)| index::CallLink {
                    caller,
                    callee,
                    line,
                    confidence: confidence.as_str().to_string(),
                    weight: confidence.weight() as f32,
                })
                .collect(),
            truncated: view.truncated,
            reasons: services.analysis.reasons(),
        })
    }

    fn file_dependencies(
        &mut self,
        path: String,
        depth: u32,
        max_results: u32,
    ) -> Result<index::DependencyReport, types::Error> {
        let services = self.services()?;
        let rel = services.workspace.normalize(&path).map_err(to_wit)?;
        let snapshot = services.analysis.snapshot().map_err(to_wit)?;
        let file = views::file_id(&snapshot, &rel).map_err(to_wit)?;
        let view = views::dependencies(&snapshot, file, depth, max_results.max(1) as usize);
        Ok(index::DependencyReport {
            file: graph_file(view.file),
            imports: view.imports.into_iter().map(graph_file).collect(),
            importers: view.importers.into_iter().map(graph_file).collect(),
            dependents: view
                .dependents
                .into_iter()
                .map(|(path, depth)| index::Dependent { path, depth })
                .collect(),
            blast_radius: view.blast_radius,
            cycle: view.cycle,
            reasons: services.analysis.reasons(),
        })
    }

    fn rank_delta(
        &mut self,
        planned: Vec<(String, String)>,
        limit: u32,
    ) -> Result<index::RankDeltaReport, types::Error> {
        let services = self.services()?;
        let planned = planned
            .into_iter()
            .map(|(path, text)| Ok((services.workspace.normalize(&path).map_err(to_wit)?, text)))
            .collect::<Result<Vec<_>, types::Error>>()?;
        let snapshot = services.analysis.snapshot().map_err(to_wit)?;
        let d = crate::analysis::delta::rank_delta(&snapshot, &planned, limit.min(200) as usize);
        Ok(index::RankDeltaReport {
            moves: d
                .moves
                .into_iter()
                .map(|m| index::RankMove {
                    path: m.path,
                    symbol: m.symbol,
                    before: m.before,
                    after: m.after,
                })
                .collect(),
            files_resolved: d.files_resolved as u32,
            reasons: services.analysis.reasons(),
        })
    }

    fn graph_overview(
        &mut self,
        under: Option<String>,
        limit: u32,
    ) -> Result<index::OverviewReport, types::Error> {
        let services = self.services()?;
        let under = match under.filter(|u| !u.trim().is_empty() && u.trim() != ".") {
            Some(u) => Some(services.workspace.normalize(&u).map_err(to_wit)?),
            None => None,
        };
        let snapshot = services.analysis.snapshot().map_err(to_wit)?;
        let mut reasons = services.analysis.reasons();
        let (hot, why) = services.analysis.hot_spots(&snapshot);
        reasons.extend(why);
        let o = views::overview(
            &snapshot,
            &hot,
            under.as_deref(),
            limit.clamp(1, 100) as usize,
        );
        Ok(index::OverviewReport {
            files: o.files,
            definitions: o.definitions,
            call_links: o.call_links,
            import_links: o.import_links,
            unresolved_calls: o.unresolved_calls,
            top_files: o.top_files.into_iter().map(graph_file).collect(),
            top_symbols: o.top_symbols.into_iter().map(graph_symbol).collect(),
            links: o.links,
            cycles: o.cycles,
            layers: o.layers,
            entry_points: o.entry_points,
            hot_spots: o
                .hot_spots
                .into_iter()
                .map(|(symbol, h)| index::HotSpot {
                    symbol: graph_symbol(symbol),
                    score: h.score,
                    reasons: h.reasons,
                })
                .collect(),
            reasons,
        })
    }

    fn index_status(&mut self) -> index::IndexReport {
        let Ok(services) = self.services() else {
            return index::IndexReport {
                state: "stale".into(),
                files: 0,
                code_files: 0,
                document_files: 0,
                text_files: 0,
                chunks: 0,
                symbols: 0,
                pending: 0,
                skipped: 0,
                failed: Vec::new(),
                last_indexed_ms: 0,
                read_only: false,
                watching: false,
                message: Some("host services are not available while plugins load".into()),
            };
        };
        let s = services.index.status();
        index::IndexReport {
            state: s.state.into(),
            files: s.files,
            code_files: s.code,
            document_files: s.documents,
            text_files: s.text,
            chunks: s.chunks,
            symbols: s.symbols,
            pending: s.pending,
            skipped: s.skipped,
            failed: s.failed.into_iter().collect(),
            last_indexed_ms: s.last_indexed_ms,
            read_only: s.read_only,
            watching: s.watching,
            message: s.message,
        }
    }

    fn parse_document(&mut self, path: String) -> Result<types::Document, types::Error> {
        let runtime = self.runtime.clone().ok_or_else(|| {
            to_wit(HostError::new(
                codes::INTERNAL,
                "documents cannot be parsed while plugins load",
            ))
        })?;
        let started = std::time::Instant::now();
        let parsed = runtime.parse_document(&path);
        self.excuse(started.elapsed().as_millis() as u64);
        parsed.map_err(to_wit)
    }

    fn document_format(&mut self, path: String) -> Option<index::FormatClaim> {
        let declared = self.runtime.as_ref()?.document_format(&path)?;
        Some(index::FormatClaim {
            format: declared.format.clone(),
            container: !declared.signatures.is_empty(),
        })
    }
}

fn graph_symbol(s: views::SymbolView) -> index::GraphSymbol {
    index::GraphSymbol {
        path: s.path,
        name: s.name,
        container: s.container,
        kind: s.kind,
        range: range(s.start_line, s.end_line),
        branches: s.branches,
        rank: s.rank,
        percentile: s.percentile,
        fan_in: s.fan_in,
        fan_out: s.fan_out,
    }
}

fn graph_file(f: views::FileView) -> index::GraphFile {
    index::GraphFile {
        path: f.path,
        language: f.language,
        lines: f.lines,
        definitions: f.definitions,
        branches: f.branches,
        rank: f.rank,
        percentile: f.percentile,
        fan_in: f.fan_in,
        fan_out: f.fan_out,
    }
}

fn range(start: u32, end: u32) -> types::LineRange {
    types::LineRange { start, end }
}

fn symbol(path: &str, s: crate::index::code::Symbol) -> index::Symbol {
    index::Symbol {
        name: s.name,
        kind: s.kind,
        container: s.container,
        path: path.to_string(),
        range: range(s.start_line, s.end_line),
        signature: s.signature,
        doc: s.doc.map(|d| d.text),
    }
}

fn section_mode(mode: index::SectionMode) -> Mode {
    match mode {
        index::SectionMode::Summary => Mode::Summary,
        index::SectionMode::Preview => Mode::Preview,
        index::SectionMode::Raw => Mode::Raw,
    }
}

fn chunk_hit(h: Hit, preview: Option<Preview>) -> index::ChunkHit {
    let preview = preview.unwrap_or_default();
    index::ChunkHit {
        chunk_id: h.chunk_id,
        path: h.path,
        kind: h.kind,
        language: h.language,
        range: range(h.start_line, h.end_line),
        score: h.score,
        symbol: h.symbol,
        heading_path: h.heading_path,
        snippet: h.snippet,
        snippet_line: h.snippet_line,
        preview: preview.text,
        preview_truncated: preview.truncated,
        file_hash: preview.file_hash,
        file_mtime_ms: preview.file_mtime_ms,
        why: h.why,
    }
}

impl store::Host for HostState {
    fn settings(&mut self) -> store::EvidenceSettings {
        let s = match self.services() {
            Ok(services) => services.packs.settings().clone(),
            Err(_) => packs::EvidenceSettings::default(),
        };
        store::EvidenceSettings {
            cache_size: s.cache_size,
            ttl_ms: s.ttl_ms,
            attach_doc_sections: s.attach_doc_sections,
            attach_doc_sections_max: s.attach_doc_sections_max,
            doc_snippet_max_chars: s.doc_snippet_max_chars,
            doc_skeleton_max_chars: s.doc_skeleton_max_chars,
        }
    }

    fn pack_get(&mut self, pack_id: String) -> store::PackLookup {
        let Ok(services) = self.services() else {
            return store::PackLookup::Missing;
        };
        let lookup = services.packs.get(&services.store(), &pack_id);
        match lookup {
            Ok(Lookup::Missing) => store::PackLookup::Missing,
            Ok(Lookup::Expired(pack)) => store::PackLookup::Expired(pack.into()),
            Ok(Lookup::Found(pack)) => store::PackLookup::Found(pack.into()),
            Err(err) => {
                // A pack is a cache: an unreadable one is rebuilt, not an error for the agent.
                tracing::warn!("reading evidence pack {pack_id}: {err:#}");
                store::PackLookup::Missing
            }
        }
    }

    fn pack_put(&mut self, pack: store::Pack) -> Result<store::Pack, types::Error> {
        let services = self.services()?;
        let stored = services
            .packs
            .put(&mut services.store(), pack.into())
            .map_err(|e| to_wit(store_error(e)))?;
        Ok(stored.into())
    }

    fn pack_mark_shown(
        &mut self,
        pack_id: String,
        role: String,
        shown: Vec<(u32, String)>,
    ) -> Result<(), types::Error> {
        let services = self.services()?;
        services
            .packs
            .mark_shown(&mut services.store(), &pack_id, &role, &shown)
            .map_err(|e| to_wit(store_error(e)))
    }
}

fn store_error(err: anyhow::Error) -> HostError {
    HostError::new(codes::STORE_ERROR, format!("evidence pack store: {err:#}"))
        .suggest("retry; the pack is rebuilt when it cannot be stored")
}

impl status::Host for HostState {
    fn status(&mut self) -> status::HostStatus {
        let Some(runtime) = self.runtime.clone() else {
            return status::HostStatus {
                root: String::new(),
                version: env!("CARGO_PKG_VERSION").into(),
                plugins: Vec::new(),
                store_path: String::new(),
                schema_version: 0,
                transactions: 0,
                pending_transactions: 0,
                last_transaction_ms: 0,
            };
        };
        let report = runtime.status();
        status::HostStatus {
            root: report.root,
            version: report.version,
            plugins: report
                .plugins
                .into_iter()
                .map(|p| status::PluginInfo {
                    name: p.name,
                    world: p.world,
                    sha256: p.sha256,
                    source: p.source,
                })
                .collect(),
            store_path: report.store.path,
            schema_version: report.store.schema_version,
            transactions: report.store.transactions,
            pending_transactions: report.store.pending_transactions,
            last_transaction_ms: report.store.last_transaction_ms,
        }
    }
}

impl edits::Host for HostState {
    fn apply(&mut self, tx: edits::Transaction) -> Result<edits::Receipt, types::Error> {
        let services = self.services()?;
        let changes = tx
            .changes
            .into_iter()
            .map(|c| Change {
                path: c.path,
                content: c.content,
                expected_hash: c.expected_hash,
                overwrite: c.overwrite,
            })
            .collect();
        let receipt = services
            .transactions()
            .apply(&tx.intent, changes)
            .map_err(to_wit)?;
        tracing::info!(plugin = &*self.plugin, transaction = %receipt.transaction_id, "applied: {}", tx.intent);
        refresh_index(services);
        Ok(receipt_to_wit(receipt))
    }

    fn undo(&mut self, id: Option<String>) -> Result<edits::Receipt, types::Error> {
        let services = self.services()?;
        let receipt = services
            .transactions()
            .undo(id.as_deref())
            .map_err(to_wit)?;
        tracing::info!(plugin = &*self.plugin, transaction = %receipt.transaction_id, "undo applied");
        refresh_index(services);
        Ok(receipt_to_wit(receipt))
    }

    fn redo(&mut self, id: Option<String>) -> Result<edits::Receipt, types::Error> {
        let services = self.services()?;
        let receipt = services
            .transactions()
            .redo(id.as_deref())
            .map_err(to_wit)?;
        tracing::info!(plugin = &*self.plugin, transaction = %receipt.transaction_id, "redo applied");
        refresh_index(services);
        Ok(receipt_to_wit(receipt))
    }

    fn history(&mut self, limit: u32, offset: u32) -> edits::HistoryPage {
        let empty = edits::HistoryPage {
            entries: Vec::new(),
            total: 0,
        };
        let Ok(services) = self.services() else {
            return empty;
        };
        let store = services.store();
        let (history, total) = match (store.history(limit, offset), store.transaction_count()) {
            (Ok(h), Ok(t)) => (h, t),
            (Err(err), _) | (_, Err(err)) => {
                tracing::error!("reading history: {err:#}");
                return empty;
            }
        };
        edits::HistoryPage {
            entries: history
                .into_iter()
                .map(|(tx, files)| edits::HistoryEntry {
                    transaction_id: tx.id,
                    intent: tx.intent,
                    state: tx.state,
                    created_ms: tx.created_ms,
                    files,
                    undoes: tx.undoes,
                    redoes: tx.redoes,
                })
                .collect(),
            total,
        }
    }
}

/// Without a watcher nothing else notices our own writes: run an incremental pass in the
/// background so the next search sees them.
fn refresh_index(services: &Services) {
    let index = services.index.clone();
    if index.is_read_only() || index.is_watching() {
        return;
    }
    let spawned = std::thread::Builder::new()
        .name("index-refresh".into())
        .spawn(move || {
            if let Err(err) = index.update(false, None) {
                tracing::warn!("refreshing the index after an edit: {err:#}");
            }
        });
    if let Err(err) = spawned {
        tracing::warn!("cannot start an index refresh: {err}");
    }
}

impl tasks::Host for HostState {
    fn rebuild(&mut self, full: bool) -> Result<tasks::RebuildReport, types::Error> {
        let started = std::time::Instant::now();
        let services = self.services()?;
        // Progress goes to the client that asked for it, and to the log once a second.
        let last_logged = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
        let caller = self.control.clone();
        // Same cancellation as the call; progress to the caller's sink and the log.
        let control = self.control.clone().with_progress(std::sync::Arc::new(
            move |done: u64, total: Option<u64>, what: &str| {
                caller.progress(done, total, what);
                let now = started.elapsed().as_millis() as u64;
                if now >= last_logged.load(std::sync::atomic::Ordering::Relaxed) + 1_000 {
                    last_logged.store(now, std::sync::atomic::Ordering::Relaxed);
                    tracing::info!("rebuild: {done}/{} files", total.unwrap_or(0));
                }
            },
        ));
        let result = services.index.update_with(full, &control);
        let elapsed_ms = started.elapsed().as_millis() as u64;
        self.excuse(elapsed_ms);
        if result.as_ref().is_ok_and(|r| r.cancelled) {
            let done = result.as_ref().map(|r| r.indexed_total()).unwrap_or(0);
            return Err(to_wit(HostError::new(
                codes::CANCELLED,
                format!(
                    "the rebuild was cancelled after {elapsed_ms} ms; the {done} files indexed so far are kept, and the rest are indexed in the background in a moment"
                ),
            )));
        }
        if let Ok(report) = &result {
            tracing::info!(plugin = &*self.plugin, "rebuild: {report}");
        }
        let report = result.map_err(|err| {
            to_wit(
                HostError::new(codes::INDEX_ERROR, format!("rebuilding the index: {err:#}"))
                    .suggest("see manage command=status; another smart-context process may own the index"),
            )
        })?;
        Ok(tasks::RebuildReport {
            mode: if full { "full" } else { "incremental" }.into(),
            scanned: report.scanned,
            indexed: report.indexed_total(),
            unchanged: report.unchanged,
            removed: report.removed,
            skipped: report.skipped.values().sum(),
            elapsed_ms,
        })
    }

    fn run_tests(&mut self) -> Result<tasks::TestReport, types::Error> {
        let started = std::time::Instant::now();
        let services = self.services()?;
        let settings = &services.config.test;
        let root = services.workspace.root();
        let (argv, source) = crate::tasks::command(root, settings).map_err(to_wit)?;
        tracing::info!(plugin = &*self.plugin, "running tests: {}", argv.join(" "));
        let result = crate::tasks::run(root, &argv, source, settings, &self.control);
        self.excuse(started.elapsed().as_millis() as u64);
        let run = result.map_err(to_wit)?;
        Ok(tasks::TestReport {
            command: run.command,
            source: run.source,
            exit_code: run.exit_code,
            timed_out: run.timed_out,
            elapsed_ms: run.elapsed_ms,
            passed: run.summary.passed,
            failed: run.summary.failed,
            ignored: run.summary.ignored,
            failures: run.summary.failures,
            output_tail: run.tail,
            output_truncated: run.truncated,
        })
    }
}

fn receipt_to_wit(r: ws::transactions::Receipt) -> edits::Receipt {
    edits::Receipt {
        transaction_id: r.transaction_id,
        files: r
            .files
            .into_iter()
            .map(|(path, before_hash, after_hash)| edits::FileReceipt {
                path,
                before_hash,
                after_hash,
            })
            .collect(),
    }
}
