//! PageRank by power iteration over a weighted edge list: O(edges) per iteration, so every
//! symbol of a large project ranks in milliseconds (a dense-matrix formulation would be
//! quadratic in the nodes).

/// The damping factor of the original paper.
pub const DAMPING: f64 = 0.85;
/// Iteration stops when the scores move less than this in sum (L1), or after [`MAX_ITERATIONS`].
pub const TOLERANCE: f64 = 1e-9;
pub const MAX_ITERATIONS: usize = 100;

/// Scores of `n` nodes (summing to 1) for edges `(from, to, weight)`: a node passes its
/// score to its targets in proportion to the weights; nodes without edges out pass theirs
/// to every node, so no score leaks away.
pub fn pagerank(n: usize, edges: &[(u32, u32, f64)]) -> Vec<f64> {
    pagerank_from(n, edges, None)
}

/// [`pagerank`] iterated from `start` (scores of a graph like this one, such as before one
/// file changed): the same fixed point, reached in fewer iterations the closer `start` is.
pub fn pagerank_from(n: usize, edges: &[(u32, u32, f64)], start: Option<Vec<f64>>) -> Vec<f64> {
    if n == 0 {
        return Vec::new();
    }
    let mut out_weight = vec![0.0f64; n];
    for &(from, _, w) in edges {
        out_weight[from as usize] += w;
    }
    let base = (1.0 - DAMPING) / n as f64;
    let mut rank = match start {
        Some(mut s) if s.len() == n && s.iter().all(|x| x.is_finite() && *x >= 0.0) => {
            let sum: f64 = s.iter().sum();
            if sum > 0.0 {
                s.iter_mut().for_each(|x| *x /= sum);
                s
            } else {
                vec![1.0 / n as f64; n]
            }
        }
        _ => vec![1.0 / n as f64; n],
    };
    let mut next = vec![0.0f64; n];
    for _ in 0..MAX_ITERATIONS {
        let dangling: f64 = (0..n)
            .filter(|&i| out_weight[i] == 0.0)
            .map(|i| rank[i])
            .sum();
        let spread = base + DAMPING * dangling / n as f64;
        next.iter_mut().for_each(|x| *x = spread);
        for &(from, to, w) in edges {
            let from = from as usize;
            next[to as usize] += DAMPING * rank[from] * w / out_weight[from];
        }
        let delta: f64 = rank.iter().zip(&next).map(|(a, b)| (a - b).abs()).sum();
        std::mem::swap(&mut rank, &mut next);
        if delta < TOLERANCE {
            break;
        }
    }
    rank
}

/// Each score's percentile among `scores`: the share of the other nodes that score lower
/// (1.0 for the top node, 0.0 for the lowest; ties share the lower value). This is the scale
/// the ADR's thresholds use: "top 5%" is a percentile of 0.95 or more.
pub fn percentiles(scores: &[f64]) -> Vec<f32> {
    let n = scores.len();
    if n <= 1 {
        return vec![1.0; n];
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| scores[a].total_cmp(&scores[b]));
    let mut out = vec![0.0f32; n];
    let mut below = 0;
    for (i, &node) in order.iter().enumerate() {
        if i > 0 && scores[order[i - 1]] < scores[node] {
            below = i;
        }
        out[node] = below as f32 / (n - 1) as f32;
    }
    out
}
