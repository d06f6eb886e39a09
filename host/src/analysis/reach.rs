//! What a change reaches: the reverse transitive closure of dependents (impact radius), and
//! the strongly connected components of a dependency graph (its cycles).

use std::collections::VecDeque;

/// Every node that reaches `start` through `incoming` (its dependents, theirs, ...), with its
/// distance, nearest first, up to `max_depth` steps. `start` itself is left out.
pub fn dependents(incoming: &[Vec<u32>], start: u32, max_depth: u32) -> Vec<(u32, u32)> {
    dependents_where(incoming, start, max_depth, |_, _| true)
}

/// [`dependents`], stepping from a node to a dependent only where `follow(node, dependent)`
/// says so.
pub fn dependents_where(
    incoming: &[Vec<u32>],
    start: u32,
    max_depth: u32,
    mut follow: impl FnMut(u32, u32) -> bool,
) -> Vec<(u32, u32)> {
    let mut seen = vec![false; incoming.len()];
    seen[start as usize] = true;
    let mut queue = VecDeque::from([(start, 0u32)]);
    let mut out = Vec::new();
    while let Some((node, depth)) = queue.pop_front() {
        if depth == max_depth {
            continue;
        }
        for &next in &incoming[node as usize] {
            if !seen[next as usize] && follow(node, next) {
                seen[next as usize] = true;
                out.push((next, depth + 1));
                queue.push_back((next, depth + 1));
            }
        }
    }
    out
}

/// Every strongly connected component of a graph given by its outgoing adjacency, a
/// component's dependencies before it (Tarjan's order: reverse topological).
pub fn components(outgoing: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let mut graph = petgraph::Graph::<(), ()>::with_capacity(outgoing.len(), 0);
    let nodes: Vec<_> = (0..outgoing.len()).map(|_| graph.add_node(())).collect();
    for (from, targets) in outgoing.iter().enumerate() {
        for &to in targets {
            graph.add_edge(nodes[from], nodes[to as usize], ());
        }
    }
    petgraph::algo::tarjan_scc(&graph)
        .into_iter()
        .map(|scc| scc.into_iter().map(|n| n.index() as u32).collect())
        .collect()
}

/// The cycles of a graph: each strongly connected component of two or more nodes (or one
/// node that depends on itself), members sorted, largest first.
pub fn cycles(outgoing: &[Vec<u32>]) -> Vec<Vec<u32>> {
    let mut out: Vec<Vec<u32>> = components(outgoing)
        .into_iter()
        .filter(|c| c.len() > 1 || outgoing[c[0] as usize].contains(&c[0]))
        .map(|mut c| {
            c.sort_unstable();
            c
        })
        .collect();
    out.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    out
}
