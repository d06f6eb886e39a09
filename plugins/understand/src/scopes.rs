//! The answer for each scope: a definition (its call graph and impact), a file (its outline, dependencies and hot spots), a directory or the whole project (layers, entry points, core modules, cycles).

use super::*;

pub(crate) fn symbol_scope(
    resolution: &Resolution,
    path: &str,
    symbol: &str,
    plan: &Plan,
) -> ToolResult<UnderstandResponse> {
    let mut r = UnderstandResponse::new(resolution.clone(), "symbol");
    r.path = Some(path.to_string());
    let mut tools = vec!["index.call-graph".to_string()];
    // First at depth 1 to learn the target's rank; a top-5% target expands (ADR §4.1).
    let probe = index::call_graph(path, Some(symbol), 1, 1)?;
    let target_syms: Vec<&GraphSymbol> = probe
        .targets
        .iter()
        .map(|&t| &probe.symbols[t as usize])
        .collect();
    let top = target_syms
        .iter()
        .map(|s| s.percentile)
        .fold(0.0f32, f32::max);
    let depth = if top >= CORE_PERCENTILE && plan.depth < CORE_DEPTH {
        tools.push(format!(
            "depth expanded to {CORE_DEPTH}: the target is in the top 5% by PageRank"
        ));
        CORE_DEPTH
    } else {
        plan.depth
    };
    let graph = index::call_graph(
        path,
        Some(symbol),
        if plan.call_graph { depth } else { 0 },
        plan.max_links(),
    )?;
    r.reasons.extend(graph.reasons.iter().cloned());
    let targets: Vec<&GraphSymbol> = graph
        .targets
        .iter()
        .map(|&t| &graph.symbols[t as usize])
        .collect();
    r.symbols = targets.iter().map(|s| SymbolInfo::from(*s)).collect();
    if plan.call_graph {
        r.call_graph = Some(call_graph_out(&graph, depth, &plan.page));
    }
    let first = targets[0];
    let deps = file_dependencies(&mut r, path, plan, &mut tools)?;
    let file = deps.as_ref().map(|d| &d.file);
    // The symbol's own callers, transitively, are its impact in the call graph.
    let callers: u32 = r
        .call_graph
        .as_ref()
        .map_or(first.fan_in, |c| c.callers.len() as u32);
    r.report.complexity = Complexity {
        loc: targets
            .iter()
            .map(|s| s.range.end - s.range.start + 1)
            .sum(),
        branches: targets.iter().map(|s| s.branches).sum(),
        dependencies: file.map_or(0, |f| f.fan_out),
        fan_in: targets.iter().map(|s| s.fan_in).sum(),
        fan_out: targets.iter().map(|s| s.fan_out).sum(),
    };
    r.report.architectural_role = file.map_or("peripheral", report::role);
    if plan.page_rank {
        for s in &targets {
            r.page_rank_scores
                .insert(format!("{}#{}", s.path, qualified(s)), s.percentile);
        }
        if let Some(f) = file {
            r.page_rank_scores.insert(f.path.clone(), f.percentile);
        }
    }
    if let Ok(skeleton) = index::skeleton(path) {
        tools.push("index.skeleton".into());
        r.skeleton = skeleton_lines(&skeleton.text, first.range.start, first.range.end);
    }
    if plan.hot_spots {
        let overview = index::graph_overview(Some(path), plan.page.want())?;
        tools.push("index.graph-overview".into());
        let names: Vec<String> = targets.iter().map(|s| qualified(s)).collect();
        r.hot_spots = plan.page.take(
            overview
                .hot_spots
                .iter()
                .filter(|h| names.contains(&qualified(&h.symbol)))
                .map(hot_spot_out)
                .collect(),
        );
    }
    let hot = !r.hot_spots.is_empty();
    // Name-only links of the target itself, said apart from the known ones.
    let first_name = format!("{}#{}", first.path, qualified(first));
    let maybe = |links: &[CallLinkOut]| {
        let n = links
            .iter()
            .filter(|l| l.caller == first_name || l.callee == first_name)
            .count();
        if n == 0 {
            String::new()
        } else {
            format!(" (+{n} possible by name only)")
        }
    };
    let (maybe_in, maybe_out) = r.call_graph.as_ref().map_or_else(Default::default, |g| {
        (maybe(&g.possible_callers), maybe(&g.possible_callees))
    });
    r.report.summary = format!(
        "{} ({}, {}:{}-{}): called from {} definition{}{maybe_in}, calls {}{maybe_out}; {} branch points; call-graph PageRank top {}%{}",
        qualified(first),
        first.kind,
        path,
        first.range.start,
        first.range.end,
        first.fan_in,
        if first.fan_in == 1 { "" } else { "s" },
        first.fan_out,
        first.branches,
        ((1.0 - top) * 100.0).ceil().max(1.0),
        if hot { "; a hot spot" } else { "" }
    );
    if targets.len() > 1 {
        r.report.summary.push_str(&format!(
            " ({} definitions of that name in the file)",
            targets.len()
        ));
    }
    if callers == 0 {
        r.report.risks.push(if maybe_in.is_empty() {
            "no resolved callers: an entry point, called dynamically, or unused".into()
        } else {
            format!(
                "no resolved callers{maybe_in}: check the possible ones before relying on it being unused"
            )
        });
    }
    if hot {
        r.report
            .risks
            .push("a hot spot: complex and central, change it with tests at hand".into());
    }
    r.summary = r.report.summary.clone();
    finish(
        &mut r,
        Some(read_call(path, first.range.start, first.range.end)),
        &format!("tests for {}", first.name),
        tools,
    );
    Ok(r)
}

pub(crate) fn file_scope(
    resolution: &Resolution,
    path: &str,
    plan: &Plan,
) -> ToolResult<UnderstandResponse> {
    let mut r = UnderstandResponse::new(resolution.clone(), "file");
    r.path = Some(path.to_string());
    let mut tools = Vec::new();
    match index::doc_toc(path) {
        Ok(toc) => {
            document_outline(&mut r, path, toc)?;
            tools.push("index.doc-toc".into());
            r.summary = r.report.summary.clone();
            finish(&mut r, None, "", tools);
            return Ok(r);
        }
        Err(err) if err.code == codes::NO_PARSER => {}
        Err(err) => return Err(err.into()),
    }
    if !code_outline(&mut r, path)? {
        tools.push("workspace.stat".into());
        r.summary = r.report.summary.clone();
        finish(&mut r, None, "", tools);
        return Ok(r);
    }
    tools.push("index.symbols".into());
    if let Ok(skeleton) = index::skeleton(path) {
        tools.push("index.skeleton".into());
        r.skeleton = skeleton.text;
    }
    let deps = file_dependencies(&mut r, path, plan, &mut tools)?;
    if deps.is_none() {
        // Code the graphs do not hold (yet): the outline stands, and the answer says why.
        let status = index::index_status();
        r.reasons.push(if status.state == "fresh" {
            "not_in_graph: the index holds no definitions of this file".to_string()
        } else {
            "index_building: the file is not in the graphs yet".to_string()
        });
    }
    if plan.call_graph && deps.is_some() {
        let graph = index::call_graph(path, None, 1, plan.max_links())?;
        tools.push("index.call-graph".into());
        r.reasons.extend(graph.reasons.iter().cloned());
        r.call_graph = Some(call_graph_out(&graph, 1, &plan.page));
        let mut own: Vec<&GraphSymbol> = graph
            .targets
            .iter()
            .map(|&t| &graph.symbols[t as usize])
            .collect();
        own.sort_by(|a, b| b.rank.total_cmp(&a.rank));
        let own = plan.page.take(own);
        r.symbols = own.iter().map(|s| SymbolInfo::from(*s)).collect();
        if plan.page_rank {
            for s in &own {
                r.page_rank_scores
                    .insert(format!("{}#{}", s.path, qualified(s)), s.percentile);
            }
        }
    }
    if plan.hot_spots && deps.is_some() {
        let overview = index::graph_overview(Some(path), plan.page.want())?;
        tools.push("index.graph-overview".into());
        r.hot_spots = plan
            .page
            .take(overview.hot_spots.iter().map(hot_spot_out).collect());
        r.insights = report::insights(&[], &[], &[], &overview.hot_spots);
    }
    if let Some(d) = &deps {
        let f = &d.file;
        if plan.page_rank {
            r.page_rank_scores.insert(f.path.clone(), f.percentile);
        }
        r.report.architectural_role = report::role(f);
        r.report.complexity = Complexity {
            loc: r.facts.as_ref().map_or(f.lines, |x| x.lines),
            branches: f.branches,
            dependencies: f.fan_out,
            fan_in: f.fan_in,
            fan_out: f.fan_out,
        };
        let mut files = vec![f.clone()];
        files.extend(d.imports.iter().cloned());
        files.extend(d.importers.iter().cloned());
        let links: Vec<(String, String)> = d
            .imports
            .iter()
            .map(|i| (f.path.clone(), i.path.clone()))
            .chain(d.importers.iter().map(|i| (i.path.clone(), f.path.clone())))
            .collect();
        let hot: Vec<String> = r.hot_spots.iter().map(|h| h.path.clone()).collect();
        r.visualization = Some(report::mermaid(&files, &links, &hot));
        let cycles: Vec<Vec<String>> = if d.cycle.is_empty() {
            Vec::new()
        } else {
            vec![d.cycle.clone()]
        };
        let more = report::insights(
            std::slice::from_ref(f),
            &[(f.path.clone(), d.blast_radius)],
            &cycles,
            &[],
        );
        r.insights.extend(more);
        r.report.summary = format!(
            "{}: {} lines of {}, {} definitions; imported by {} file{}, imports {}; {} files reach it through imports; PageRank top {}%; role {}",
            path,
            r.report.complexity.loc,
            f.language.as_deref().unwrap_or("code"),
            f.definitions,
            f.fan_in,
            if f.fan_in == 1 { "" } else { "s" },
            f.fan_out,
            d.blast_radius,
            ((1.0 - f.percentile) * 100.0).ceil().max(1.0),
            r.report.architectural_role
        );
        if !d.cycle.is_empty() {
            r.report.risks.push(format!(
                "part of an import cycle of {} files",
                d.cycle.len()
            ));
        }
    }
    r.summary = r.report.summary.clone();
    let lines = r.facts.as_ref().map_or(1, |f| f.lines.max(1));
    finish(
        &mut r,
        Some(read_call(path, 1, lines.min(200))),
        &format!("tests for {path}"),
        tools,
    );
    Ok(r)
}

pub(crate) struct Deps {
    pub(crate) file: GraphFile,
    pub(crate) imports: Vec<GraphFile>,
    pub(crate) importers: Vec<GraphFile>,
    pub(crate) blast_radius: u32,
    pub(crate) cycle: Vec<String>,
}

/// The file's imports, importers and impact radius into `r` (when asked for and the file is
/// code the graph knows).
pub(crate) fn file_dependencies(
    r: &mut UnderstandResponse,
    path: &str,
    plan: &Plan,
    tools: &mut Vec<String>,
) -> ToolResult<Option<Deps>> {
    let d = match index::file_dependencies(path, 10, plan.page.want()) {
        Ok(d) => d,
        Err(err) if err.code == codes::NOT_FOUND => return Ok(None),
        Err(err) => return Err(err.into()),
    };
    tools.push("index.file-dependencies".into());
    r.reasons.extend(d.reasons.iter().cloned());
    r.impact_radius = d.blast_radius;
    let imports = plan.page.take(d.imports);
    if plan.dependencies {
        let dependents = plan.page.take(d.dependents);
        r.dependencies = imports
            .iter()
            .map(|i| DependencyEdge {
                from: path.to_string(),
                to: i.path.clone(),
                kind: "import",
                depth: 1,
            })
            .chain(dependents.iter().map(|x| DependencyEdge {
                from: x.path.clone(),
                to: path.to_string(),
                kind: "dependent",
                depth: x.depth,
            }))
            .collect();
    }
    // Importers only draw the diagram: the page's share of them, no list of their own.
    let importers = d
        .importers
        .into_iter()
        .skip(plan.page.offset as usize)
        .take(plan.page.limit as usize)
        .collect();
    Ok(Some(Deps {
        file: d.file,
        imports,
        importers,
        blast_radius: d.blast_radius,
        cycle: d.cycle,
    }))
}

pub(crate) fn whole_scope(
    resolution: &Resolution,
    under: Option<&str>,
    plan: &Plan,
) -> ToolResult<UnderstandResponse> {
    let mut r = UnderstandResponse::new(
        resolution.clone(),
        if under.is_some() { "module" } else { "project" },
    );
    let o = index::graph_overview(under.map(str::to_string).as_deref(), plan.page.want())?;
    let tools = vec!["index.graph-overview".to_string()];
    r.reasons.extend(o.reasons.iter().cloned());
    let page = &plan.page;
    let all_cycles = o.cycles.len();
    let cycles = page.take(o.cycles);
    let top_files = page.take(o.top_files);
    let entry_points = page.take(o.entry_points);
    let layers: Vec<Vec<String>> = o.layers.into_iter().map(|l| page.take(l)).collect();
    let hot_spots = page.take(o.hot_spots);
    let shown: std::collections::HashSet<&str> =
        top_files.iter().map(|f| f.path.as_str()).collect();
    // Links among the files fetched that touch this page's files.
    let links: Vec<(String, String)> = o
        .links
        .into_iter()
        .filter(|(a, b)| shown.contains(a.as_str()) || shown.contains(b.as_str()))
        .collect();
    let core: Vec<&GraphFile> = top_files
        .iter()
        .filter(|f| report::role(f) == "core")
        .collect();
    r.overview = Some(Overview {
        files: o.files,
        definitions: o.definitions,
        call_links: o.call_links,
        import_links: o.import_links,
        unresolved_calls: o.unresolved_calls,
        layers: layers.clone(),
        entry_points: entry_points.clone(),
        core_modules: core.iter().map(|f| f.path.clone()).collect(),
        cycles: if plan.dependencies {
            cycles.clone()
        } else {
            Vec::new()
        },
    });
    r.symbols = page
        .take(o.top_symbols)
        .iter()
        .map(SymbolInfo::from)
        .collect();
    if plan.page_rank {
        for f in &top_files {
            r.page_rank_scores.insert(f.path.clone(), f.percentile);
        }
    }
    if plan.dependencies {
        r.dependencies = links
            .iter()
            .map(|(a, b)| DependencyEdge {
                from: a.clone(),
                to: b.clone(),
                kind: "import",
                depth: 1,
            })
            .collect();
    }
    if plan.hot_spots {
        r.hot_spots = hot_spots.iter().map(hot_spot_out).collect();
    }
    let hot_files: Vec<String> = r.hot_spots.iter().map(|h| h.path.clone()).collect();
    r.visualization = Some(report::mermaid(&top_files, &links, &hot_files));
    r.insights = report::insights(&top_files, &[], &cycles, &hot_spots);
    r.skeleton = layers
        .iter()
        .enumerate()
        .map(|(i, l)| format!("layer {i}: {}", l.join(", ")))
        .collect::<Vec<_>>()
        .join("\n");
    r.report.architectural_role = if core.is_empty() {
        "peripheral"
    } else {
        "core"
    };
    r.report.complexity = Complexity {
        loc: top_files.iter().map(|f| f.lines).sum(),
        branches: top_files.iter().map(|f| f.branches).sum(),
        dependencies: o.import_links,
        fan_in: 0,
        fan_out: 0,
    };
    r.report.summary = format!(
        "{}: {} code files, {} definitions, {} import links, {} resolved call links; {} layer{}; entry points: {}; most central: {}; {} import cycle{}; {} hot spot{} shown",
        under.unwrap_or("the project"),
        o.files,
        o.definitions,
        o.import_links,
        o.call_links,
        layers.len(),
        if layers.len() == 1 { "" } else { "s" },
        if entry_points.is_empty() {
            "none found".to_string()
        } else {
            entry_points
                .iter()
                .take(3)
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        },
        top_files
            .iter()
            .take(3)
            .map(|f| f.path.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        if all_cycles > cycles.len() {
            format!("{} or more", cycles.len())
        } else {
            cycles.len().to_string()
        },
        if all_cycles == 1 { "" } else { "s" },
        r.hot_spots.len(),
        if r.hot_spots.len() == 1 { "" } else { "s" },
    );
    r.summary = r.report.summary.clone();
    let read = top_files.first().map(|f| {
        ToolCall::new(
            "understand",
            json!({ "goal": format!("role of {}", f.path), "path": f.path }),
        )
    });
    finish(&mut r, read, "tests", tools);
    Ok(r)
}

/// Recommendations, risks and guidance from what `r` gathered.
pub(crate) fn finish(
    r: &mut UnderstandResponse,
    next: Option<ToolCall>,
    tests_query: &str,
    tools: Vec<String>,
) {
    for i in &r.insights {
        r.report
            .recommendations
            .push(format!("{}: {}", i.observation, i.implication));
    }
    if r.impact_radius > report::HIGH_BLAST_RADIUS {
        r.report.risks.push(format!(
            "{} files reach it through imports",
            r.impact_radius
        ));
    }
    let role = (r.scope != "project" && r.scope != "module").then_some(r.report.architectural_role);
    r.guidance = report::guidance(
        &r.summary,
        next,
        role,
        tests_query,
        r.impact_radius,
        r.hot_spots.len() as u32,
        if r.page_rank_scores.is_empty() {
            0.0
        } else {
            1.0
        },
    );
    r.internal_tools_used = tools;
}

pub(crate) fn call_graph_out(g: &index::CallGraphResult, depth: u32, page: &Page) -> CallGraphOut {
    let name = |i: u32| {
        let s = &g.symbols[i as usize];
        format!("{}#{}", s.path, qualified(s))
    };
    let targets: Vec<u32> = g.targets.clone();
    let link = |l: &index::CallLink| CallLinkOut {
        caller: name(l.caller),
        callee: name(l.callee),
        at: format!("{}:{}", g.symbols[l.caller as usize].path, l.line),
        confidence: l.confidence.clone(),
        weight: l.weight,
    };
    // [known, possible] per direction.
    let mut callers = [Vec::new(), Vec::new()];
    let mut callees = [Vec::new(), Vec::new()];
    // A link walked up from a target reaches it or one of its callers; the rest walk down.
    // A name-only link is never walked, so it extends neither side.
    let mut up: std::collections::HashSet<u32> = targets.iter().copied().collect();
    for l in &g.links {
        let possible = usize::from(l.confidence == NAME_ONLY);
        if up.contains(&l.callee) && !targets.contains(&l.caller) {
            if possible == 0 {
                up.insert(l.caller);
            }
            callers[possible].push(link(l));
        } else {
            callees[possible].push(link(l));
        }
    }
    let end = (page.offset + page.limit) as usize;
    let truncated = g.truncated || callers.iter().chain(&callees).any(|l| l.len() > end);
    if g.truncated {
        page.note_more();
    }
    let [callers, possible_callers] = callers.map(|l| page.take(l));
    let [callees, possible_callees] = callees.map(|l| page.take(l));
    CallGraphOut {
        depth,
        targets: targets.iter().map(|&t| name(t)).collect(),
        callers,
        callees,
        possible_callers,
        possible_callees,
        truncated,
    }
}

/// The confidence of a link only the callee's name suggests.
const NAME_ONLY: &str = "name";

pub(crate) fn hot_spot_out(h: &index::HotSpot) -> HotSpotOut {
    HotSpotOut {
        path: h.symbol.path.clone(),
        symbol: qualified(&h.symbol),
        start_line: h.symbol.range.start,
        end_line: h.symbol.range.end,
        score: (h.score * 100.0).round() / 100.0,
        reasons: h.reasons.clone(),
    }
}

/// The skeleton lines (`start-end| signature`) that fall within a definition.
pub(crate) fn skeleton_lines(skeleton: &str, start: u32, end: u32) -> String {
    skeleton
        .lines()
        .filter(|l| {
            let first: Option<u32> = l
                .trim_start()
                .split(['-', '|'])
                .next()
                .and_then(|n| n.trim().parse().ok());
            first.is_some_and(|n| n >= start && n <= end)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A document's sections as the outline.
pub(crate) fn document_outline(
    r: &mut UnderstandResponse,
    path: &str,
    toc: DocumentToc,
) -> ToolResult<()> {
    let entry = workspace::stat(path)?;
    r.outline = toc
        .entries
        .iter()
        .filter(|s| s.level > 0)
        .map(|s| OutlineEntry {
            name: s.heading_path.join(" > "),
            kind: format!("h{}", s.level),
            container: None,
            start_line: s.range.start,
            end_line: s.range.end,
            signature: None,
        })
        .collect();
    let lines = toc.entries.iter().map(|s| s.range.end).max().unwrap_or(0);
    r.report.summary = format!(
        "{}: {} document{}, {} sections",
        sdk::display_path(path),
        toc.kind,
        toc.title.map(|t| format!(" \"{t}\"")).unwrap_or_default(),
        r.outline.len()
    );
    r.report.complexity.loc = lines;
    r.facts = Some(Facts {
        lines,
        bytes: entry.size,
        language: None,
        kind: "document",
        definitions: r.outline.len(),
    });
    Ok(())
}

/// A source file's definitions as the outline; false when it is not code in a supported
/// language (then only its facts are filled in).
pub(crate) fn code_outline(r: &mut UnderstandResponse, path: &str) -> ToolResult<bool> {
    let outline = match index::symbols(path) {
        Ok(outline) => outline,
        Err(err) if err.code == codes::UNSUPPORTED_LANGUAGE => {
            let entry = workspace::stat(path)?;
            r.report.summary = format!(
                "{}: {} bytes; no structure: {}",
                sdk::display_path(path),
                entry.size,
                err.message
            );
            r.facts = Some(Facts {
                lines: 0,
                bytes: entry.size,
                language: None,
                kind: "text",
                definitions: 0,
            });
            return Ok(false);
        }
        Err(err) => return Err(err.into()),
    };
    r.outline = outline
        .symbols
        .into_iter()
        .map(|s| OutlineEntry {
            name: s.name,
            kind: s.kind,
            container: s.container,
            start_line: s.range.start,
            end_line: s.range.end,
            signature: Some(s.signature),
        })
        .collect();
    let byte_size = workspace::stat(path)?.size;
    r.report.summary = format!(
        "{}: {} lines of {}, {} definitions",
        sdk::display_path(&outline.path),
        outline.line_count,
        outline.language,
        r.outline.len()
    );
    r.facts = Some(Facts {
        lines: outline.line_count,
        bytes: byte_size,
        language: Some(outline.language),
        kind: "code",
        definitions: r.outline.len(),
    });
    Ok(true)
}
