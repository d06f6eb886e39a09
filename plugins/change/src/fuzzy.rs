//! Fuzzy matching with bounded work: the target is compared with every window of as many lines
//! in the normalized view, and only windows whose length is within the distance budget (and,
//! whitespace-only, whose non-whitespace characters are identical) pay for a banded
//! Levenshtein, O(len × maxDistance). A 1 MB file costs one linear pass plus a few bands.

/// One window within the budget: normalized byte range and its distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    pub start: usize,
    pub end: usize,
    pub distance: usize,
}

/// Every window of `view` within `max_distance` of `target` (both normalized), in file order.
pub fn windows(
    view: &str,
    target: &str,
    max_distance: usize,
    whitespace_only: bool,
) -> Vec<Window> {
    let lines = target.split('\n').count();
    let starts = crate::text::line_starts(view);
    let target_chars: Vec<char> = target.chars().collect();
    let target_solid: Vec<char> = target.chars().filter(|c| !c.is_whitespace()).collect();
    // Character counts per line, so a window's length is known without walking it.
    let mut chars_before = Vec::with_capacity(starts.len() + 1);
    chars_before.push(0usize);
    for (i, &s) in starts.iter().enumerate() {
        let e = starts.get(i + 1).copied().unwrap_or(view.len() + 1);
        let line = &view[s..e - 1];
        chars_before.push(chars_before[i] + line.chars().count() + 1);
    }
    let mut found = Vec::new();
    let mut scratch = Scratch::default();
    for first in 0..starts.len().saturating_sub(lines - 1) {
        let last = first + lines - 1;
        let start = starts[first];
        let end = starts.get(last + 1).map_or(view.len(), |&n| n - 1);
        if start >= end {
            continue;
        }
        let window_chars = chars_before[last + 1] - chars_before[first] - 1;
        if window_chars.abs_diff(target_chars.len()) > max_distance {
            continue;
        }
        let window = &view[start..end];
        if whitespace_only
            && !window
                .chars()
                .filter(|c| !c.is_whitespace())
                .eq(target_solid.iter().copied())
        {
            continue;
        }
        let mut chars = std::mem::take(&mut scratch.a);
        chars.clear();
        chars.extend(window.chars());
        let distance = bounded_levenshtein(&chars, &target_chars, max_distance, &mut scratch);
        scratch.a = chars;
        if let Some(distance) = distance {
            found.push(Window {
                start,
                end,
                distance,
            });
        }
    }
    found
}

/// Character edit distance of `a` and `b`, capped: None beyond `max`. For ranking near misses.
pub fn distance(a: &str, b: &str, max: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    bounded_levenshtein(&a, &b, max, &mut Scratch::default())
}

#[derive(Default)]
struct Scratch {
    a: Vec<char>,
    prev: Vec<usize>,
    cur: Vec<usize>,
}

/// Levenshtein distance of `a` and `b` if it is at most `k`, computing only the diagonal band
/// of width 2k+1 and stopping as soon as a whole row exceeds `k`.
fn bounded_levenshtein(a: &[char], b: &[char], k: usize, s: &mut Scratch) -> Option<usize> {
    let (n, m) = (a.len(), b.len());
    if n.abs_diff(m) > k {
        return None;
    }
    let inf = k + 1;
    s.prev.clear();
    s.prev.extend((0..=m).map(|j| j.min(inf)));
    s.cur.clear();
    s.cur.resize(m + 1, inf);
    for i in 1..=n {
        let lo = i.saturating_sub(k).max(1);
        let hi = (i + k).min(m);
        s.cur[0] = i.min(inf);
        if lo > 1 {
            s.cur[lo - 1] = inf;
        }
        let mut row_min = if lo == 1 { s.cur[0] } else { inf };
        for j in lo..=hi {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let v = (s.prev[j - 1] + cost)
                .min(s.prev[j] + 1)
                .min(s.cur[j - 1] + 1)
                .min(inf);
            s.cur[j] = v;
            row_min = row_min.min(v);
        }
        if hi < m {
            s.cur[hi + 1] = inf;
        }
        if row_min > k {
            return None;
        }
        std::mem::swap(&mut s.prev, &mut s.cur);
    }
    let d = s.prev[m];
    (d <= k).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lev(a: &str, b: &str, k: usize) -> Option<usize> {
        let a: Vec<char> = a.chars().collect();
        let b: Vec<char> = b.chars().collect();
        bounded_levenshtein(&a, &b, k, &mut Scratch::default())
    }

    #[test]
    fn banded_distance_matches_the_definition() {
        assert_eq!(lev("kitten", "sitting", 5), Some(3));
        assert_eq!(lev("kitten", "sitting", 2), None);
        assert_eq!(lev("", "abc", 3), Some(3));
        assert_eq!(lev("abc", "abc", 0), Some(0));
        assert_eq!(lev("flaw", "lawn", 2), Some(2));
        assert_eq!(lev("héllo", "hello", 1), Some(1));
    }

    #[test]
    fn whitespace_only_windows_must_agree_on_everything_else() {
        let view = "let a = f(x,y);\nlet b = f(x, y);\n";
        let w = windows(view, "let b = f(x,y);", 3, true);
        assert_eq!(w.len(), 1, "{w:?}");
        assert_eq!((w[0].start, w[0].distance), (16, 1));
        let w = windows(view, "let c = f(x, y);", 3, true);
        assert!(w.is_empty());
        let w = windows(view, "let c = f(x, y);", 3, false);
        assert_eq!(w.iter().map(|w| w.distance).min(), Some(1));
    }

    #[test]
    fn windows_span_as_many_lines_as_the_target() {
        let view = "a\nb\nc\nd";
        let w = windows(view, "b\nx", 1, false);
        assert_eq!(
            w[0],
            Window {
                start: 2,
                end: 5,
                distance: 1
            }
        );
    }
}
