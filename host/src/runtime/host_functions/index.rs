//! `index`: search, symbols, sections, graphs and the index's state, from the index and the analysis.

use super::to_wit;
use crate::analysis::views;
use crate::error::{HostError, codes};
use crate::index::digest::Mode;
use crate::index::fulltext::{Hit, SearchRequest};
use crate::index::previews::Preview;
use crate::index::{MatchKind, SectionSelector};
use crate::runtime::bindings::HostState;
use crate::runtime::bindings::pillar::smart_context::plugin::{index, types};

impl index::Host for HostState {
    fn search(
        &mut self,
        query: String,
        options: index::SearchOptions,
    ) -> Result<index::SearchResult, types::Error> {
        let services = self.services()?;
        // The index cuts an over-long query (and says so); previews use the same cut.
        let request = SearchRequest {
            centrality: self.shared_services().map(|services| {
                let centrality =
                    crate::analysis::OnDemand::new(move || services.analysis.current());
                std::sync::Arc::new(centrality) as _
            }),
            ..search_request(query, &options)
        };
        let outcome = services.index.search(&request).map_err(to_wit)?;
        Ok(search_result(&services.index, &request, outcome, &options))
    }

    fn search_sentence(
        &mut self,
        sentence: String,
        options: index::SearchOptions,
    ) -> Result<index::SearchResult, types::Error> {
        let services = self.services()?;
        let request = search_request(sentence, &options);
        let outcome = services.index.search_sentence(&request).map_err(to_wit)?;
        Ok(search_result(&services.index, &request, outcome, &options))
    }

    fn file_chunks(
        &mut self,
        path: String,
        mode: index::SectionMode,
        max_chars: u32,
    ) -> Result<Vec<index::ChunkHit>, types::Error> {
        self.read_path(&path);
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
        self.read_path(&path);
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
        self.read_path(&path);
        let services = self.services()?;
        let (path, language, text, definitions, lines) =
            services.index.skeleton(&path).map_err(to_wit)?;
        Ok(index::FileSkeleton {
            path,
            language,
            line_count: lines,
            definitions: definitions as u32,
            text,
        })
    }

    fn doc_toc(&mut self, path: String) -> Result<index::DocumentToc, types::Error> {
        self.read_path(&path);
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
        self.read_path(&path);
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
            reasons: {
                let mut reasons = services.analysis.reasons();
                if view.through_package_root > 0 {
                    reasons.push(format!(
                        "{} {} more files import a package root that re-exports this file but use no name it defines (not in blast-radius)",
                        views::THROUGH_PACKAGE_ROOT,
                        view.through_package_root
                    ));
                }
                reasons
            },
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
        self.read_path(&path);
        let runtime = self.runtime.clone().ok_or_else(|| {
            to_wit(HostError::new(
                codes::INTERNAL,
                "documents cannot be parsed while plugins load",
            ))
        })?;
        let services = self
            .shared_services()
            .unwrap_or_else(|| runtime.services().clone());
        let started = std::time::Instant::now();
        let parsed = runtime.parse_document_in(&services, &path);
        self.excuse(started.elapsed().as_millis() as u64);
        parsed.map_err(to_wit)
    }

    fn file_roles(&mut self, paths: Vec<String>) -> Vec<String> {
        let roles = match self.services() {
            Ok(services) => services.index.roles(),
            Err(_) => Default::default(),
        };
        paths
            .iter()
            .map(|path| roles.of(path).name().to_string())
            .collect()
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

/// A plugin's search options as the index takes them.
fn search_request(query: String, options: &index::SearchOptions) -> SearchRequest {
    SearchRequest {
        query,
        kinds: options.kinds.clone(),
        exclude_kinds: options.exclude_kinds.clone(),
        languages: options.languages.clone(),
        path_prefix: options.path_prefix.clone(),
        limit: options.max_results.clamp(1, 1000) as usize,
        ..SearchRequest::default()
    }
}

/// A search's hits as the plugin receives them, with previews when it asked for them.
fn search_result(
    index: &crate::index::Index,
    request: &SearchRequest,
    outcome: crate::index::queries::SearchOutcome,
    options: &index::SearchOptions,
) -> index::SearchResult {
    let started = std::time::Instant::now();
    let previews = if options.preview_chars > 0 {
        let cap = options.preview_chars as usize;
        index.previews(
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
    index::SearchResult {
        hits: outcome
            .hits
            .into_iter()
            .zip(previews)
            .map(|(h, p)| chunk_hit(h, p))
            .collect(),
        total: outcome.total,
        degraded: outcome.degraded,
        reasons: outcome.reasons,
    }
}
