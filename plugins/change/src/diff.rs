//! The unified diff of an edited file, computed only where the edits landed: the matcher knows
//! which lines each edit touched, so `similar` diffs those regions and everything between them
//! is known to be equal. Same output as diffing the whole texts, at a cost that follows the
//! edits instead of the file (a 10,000-line file: ~6 ms -> well under 1 ms natively).

use similar::{Algorithm, DiffOp, capture_diff_slices, group_diff_ops, udiff::UnifiedHunkHeader};

const CONTEXT: usize = 3;

/// Old lines `[a, b)` became new lines `[c, d)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub old: (usize, usize),
    pub new: (usize, usize),
}

/// Regions (line indices) of `old` -> `new` from the byte spans `start..end` of `old` that
/// were replaced by `replacement`, sorted by position and not overlapping.
pub fn regions(old: &str, new: &str, spans: &[(usize, usize, &str)]) -> Vec<Region> {
    let old_starts = crate::text::line_starts(old);
    let new_starts = crate::text::line_starts(new);
    let old_lines = line_count(old);
    let line = |at: usize| old_starts.partition_point(|&s| s <= at) - 1;
    let old_pos = |l: usize| {
        old_starts
            .get(l)
            .copied()
            .unwrap_or(old.len())
            .min(old.len())
    };
    // New lines that start before byte `pos` of the new text.
    let new_line = |pos: usize| new_starts.partition_point(|&s| s < pos);
    let mut out: Vec<Region> = Vec::new();
    let mut shift: isize = 0;
    for &(start, end, replacement) in spans {
        let a = line(start);
        let b = (line(end) + 1).min(old_lines).max(a);
        let c = new_line((old_pos(a) as isize + shift) as usize);
        shift += replacement.len() as isize - (end - start) as isize;
        let d = new_line((old_pos(b) as isize + shift) as usize).max(c);
        match out.last_mut() {
            Some(last) if a <= last.old.1 => {
                last.old.1 = last.old.1.max(b);
                last.new.1 = last.new.1.max(d);
            }
            _ => out.push(Region {
                old: (a, b),
                new: (c, d),
            }),
        }
    }
    out
}

fn line_count(text: &str) -> usize {
    text.split_inclusive('\n').count()
}

/// `--- a/path` / `+++ b/path` and the hunks with three lines of context.
pub fn unified(path: &str, old: &str, new: &str, regions: &[Region]) -> String {
    let old_lines: Vec<&str> = old.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new.split_inclusive('\n').collect();
    let mut ops: Vec<DiffOp> = Vec::new();
    let (mut o, mut n) = (0, 0);
    for r in regions {
        let (a, b) = (r.old.0.min(old_lines.len()), r.old.1.min(old_lines.len()));
        let (c, d) = (r.new.0.min(new_lines.len()), r.new.1.min(new_lines.len()));
        push(&mut ops, equal(o, n, a - o));
        for op in capture_diff_slices(Algorithm::Myers, &old_lines[a..b], &new_lines[c..d]) {
            push(&mut ops, shift(op, a, c));
        }
        (o, n) = (b, d);
    }
    push(&mut ops, equal(o, n, old_lines.len().saturating_sub(o)));
    let mut out = String::new();
    for group in group_diff_ops(ops, CONTEXT) {
        if out.is_empty() {
            out.push_str(&format!("--- a/{path}\n+++ b/{path}\n"));
        }
        out.push_str(&format!("{}\n", UnifiedHunkHeader::new(&group)));
        for op in &group {
            for (tag, line) in lines(op, &old_lines, &new_lines) {
                out.push(tag);
                out.push_str(line);
                if !line.ends_with('\n') {
                    out.push_str("\n\\ No newline at end of file\n");
                }
            }
        }
    }
    out
}

fn equal(old_index: usize, new_index: usize, len: usize) -> DiffOp {
    DiffOp::Equal {
        old_index,
        new_index,
        len,
    }
}

/// Appends `op`, folding it into the previous one when both are equal runs (grouping counts
/// context per run) and dropping empty runs.
fn push(ops: &mut Vec<DiffOp>, op: DiffOp) {
    if let DiffOp::Equal { len, .. } = op {
        if len == 0 {
            return;
        }
        if let Some(DiffOp::Equal { len: previous, .. }) = ops.last_mut() {
            *previous += len;
            return;
        }
    }
    ops.push(op);
}

fn shift(op: DiffOp, a: usize, c: usize) -> DiffOp {
    match op {
        DiffOp::Equal {
            old_index,
            new_index,
            len,
        } => DiffOp::Equal {
            old_index: old_index + a,
            new_index: new_index + c,
            len,
        },
        DiffOp::Delete {
            old_index,
            old_len,
            new_index,
        } => DiffOp::Delete {
            old_index: old_index + a,
            old_len,
            new_index: new_index + c,
        },
        DiffOp::Insert {
            old_index,
            new_index,
            new_len,
        } => DiffOp::Insert {
            old_index: old_index + a,
            new_index: new_index + c,
            new_len,
        },
        DiffOp::Replace {
            old_index,
            old_len,
            new_index,
            new_len,
        } => DiffOp::Replace {
            old_index: old_index + a,
            old_len,
            new_index: new_index + c,
            new_len,
        },
    }
}

fn lines<'a>(op: &DiffOp, old: &[&'a str], new: &[&'a str]) -> Vec<(char, &'a str)> {
    let o = op.old_range();
    let n = op.new_range();
    match op {
        DiffOp::Equal { .. } => old[o].iter().map(|l| (' ', *l)).collect(),
        DiffOp::Delete { .. } => old[o].iter().map(|l| ('-', *l)).collect(),
        DiffOp::Insert { .. } => new[n].iter().map(|l| ('+', *l)).collect(),
        DiffOp::Replace { .. } => old[o]
            .iter()
            .map(|l| ('-', *l))
            .chain(new[n].iter().map(|l| ('+', *l)))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Applies spans like the planner does and diffs regionally.
    fn both(old: &str, spans: &[(usize, usize, &str)]) -> (String, String) {
        let mut new = old.to_string();
        for &(s, e, r) in spans.iter().rev() {
            new.replace_range(s..e, r);
        }
        let regional = unified("f", old, &new, &regions(old, &new, spans));
        (regional, sdk::unified_diff("f", old, &new))
    }

    #[test]
    fn regional_diffs_equal_whole_file_diffs() {
        let old: String = (0..200).map(|i| format!("line {i}\n")).collect();
        let at = |s: &str| old.find(s).unwrap();
        let cases: Vec<Vec<(usize, usize, &str)>> = vec![
            vec![(at("line 5\n"), at("line 6\n"), "five\n")],
            vec![(at("line 5\n"), at("line 5\n"), "inserted\n")],
            vec![(at("line 10\n"), at("line 13\n"), "")],
            vec![
                (at("line 0\n"), at("line 1\n"), "zero\nzero b\n"),
                (at("line 199\n"), old.len(), "last\n"),
            ],
            vec![
                (at("line 50\n") + 5, at("line 50\n") + 7, "fifty"),
                (at("line 53\n"), at("line 54\n"), "x\n"),
            ],
            vec![(at("line 100\n"), at("line 103\n"), "a\nline 101\nb\n")],
            vec![(at("line 20\n"), at("line 21\n"), "line 20\n")],
        ];
        for spans in cases {
            let (regional, whole) = both(&old, &spans);
            assert_eq!(regional, whole, "{spans:?}");
        }
    }

    #[test]
    fn a_file_without_a_final_newline() {
        let old = "a\nb\nc";
        let (regional, whole) = both(old, &[(4, 5, "C")]);
        assert_eq!(regional, whole);
    }
}
